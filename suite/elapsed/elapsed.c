/* Elapsed timer queries (VK_QCOM_elapsed_timer_query; Vulkan-Docs
 * 1.4.360, the extension's appendix and vk.xml).
 *
 * "Elapsed timer queries must count the device execution time for all
 * operations performed between the start and end of the query"; begin and
 * end each define "an execution dependency on commands that were submitted
 * before it, and starting [ending] the timer"; nothing orders later
 * commands after the start.  The result is one integer in timestamp units.
 *
 * The oracles, from those statements:
 * - Bounds: timestamps written with BOTTOM_OF_PIPE before the begin and
 *   after the end (each waits for everything before it) enclose the timer:
 *   elapsed <= t1 - t0, plus one tick because each value is truncated to
 *   whole ticks separately.
 * - Work takes time: every measured section draws OVERDRAW full-target
 *   rectangles (SIZE x SIZE pixels each, 131072 fragments in all), which no
 *   device runs in less than one tick of a timer whose period is at most a
 *   microsecond; the result is then at least 1.
 * - A tiler must sum its tiles: the same draws cover 64 times more pixels
 *   full-target than in a SMALL x SMALL corner, so a timer that counts every
 *   tile reports more for the full target (a timer of the first tile only
 *   reports the same).
 * - Sums: queries over consecutive parts of the work (subpasses, views,
 *   halves) sum to at most the timer over the whole, plus a tick per part;
 *   and, since the parts are the whole's work, to at least half of it (the
 *   rest being the gaps between the parts), which is the tolerance of the
 *   additivity check.
 * - Multiview: "the total elapsed time will be distributed among the view
 *   query indices in an implementation-dependent manner. The sum of the
 *   results in all of the view query indices must accurately reflect the
 *   total".
 * - Barriers: with a full barrier before the begin the timer includes all of
 *   the profiled work; without it part of that work may run before the
 *   start (the proposal's example), so it can only report less. */
#include <stdio.h>
#include <string.h>

#include "passtarget.h"
#include "tscheck.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FEATURE "VK_QCOM_elapsed_timer_query.elapsedTimerQuery"
#define SPEC_COUNT "queries.adoc (1.4.351+): \"Elapsed timer queries must count the " \
		   "device execution time for all operations performed between the start " \
		   "and end of the query\""
#define SPEC_UNITS "queries.adoc (1.4.351+): \"The result is given in timestamp units " \
		   "which the application can convert to nanoseconds by multiplying it with " \
		   "the VkPhysicalDeviceLimits::timestampPeriod\""
#define SPEC_MULTIVIEW "queries.adoc: \"the sum of the results in all the queries must " \
		       "accurately reflect the total result of the query summed over all views\""
#define SPEC_BARRIER "VK_QCOM_elapsed_timer_query: \"There is no implicit execution barrier " \
		     "between the starting or stopping of the timer and the commands after it\""

#define SIZE 128u
#define SMALL 16u
#define OVERDRAW 8u
#define MAX_Q 8u

enum { TS_BEFORE, TS_IN_BEFORE, TS_IN_AFTER, TS_AFTER, TS_COUNT };

/* One measured setup: a pass target, its pipelines, an elapsed pool and a
 * timestamp pool. */
struct el {
	struct vkqs_pass_target *t;
	struct vkqs_pipeline *p[VKQS_PASS_MAX_SUBPASSES];
	VkQueryPool pool, ts;
	uint32_t bits;   /* timestampValidBits of the graphics queue */
	double period;
};

/* NotSupported without the feature, or (VUID-vkCmdBeginQuery-queryType-12423)
 * when the graphics queue has no timestamp bits. */
static uint32_t el_require(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, FEATURE);
	uint32_t bits = ctx->vk->info.families[ctx->vk->gfx.family].timestamp_valid_bits;
	if (!bits)
		vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0 "
			       "(VUID-vkCmdBeginQuery-queryType-12423)");
	return bits;
}

static struct el *el_create(struct vkqs_ctx *ctx, enum vkqs_pass_kind kind, uint32_t subpasses,
			    const uint32_t *masks, uint32_t queries)
{
	struct el *el = vkqs_alloc(ctx, sizeof(*el));
	el->bits = el_require(ctx);
	el->period = ctx->vk->props.limits.timestampPeriod;
	static const uint32_t none[VKQS_PASS_MAX_SUBPASSES] = {0, 0};
	el->t = vkqs_pass_target_create(ctx, kind, SIZE, VK_SAMPLE_COUNT_1_BIT, false, subpasses,
					masks ? masks : none);
	for (uint32_t s = 0; s < el->t->subpass_count; s++) {
		struct vkqs_pipeline_target where = {
			.render_pass = el->t->render_pass,
			.subpass = s,
			.samples = el->t->samples,
			.view_mask = el->t->view_masks[s],
			.color_format = el->t->color_format,
			.depth_format = el->t->depth_format,
		};
		struct vkqs_pipeline_desc desc = {0};
		el->p[s] = vkqs_pipeline_create(ctx, &where, &desc);
	}
	el->pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIME_ELAPSED_QCOM, queries, 0);
	el->ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, TS_COUNT, 0);
	return el;
}

static VkCommandBuffer el_begin_cb(struct vkqs_ctx *ctx, const struct el *el, uint32_t queries)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, el->pool, 0, queries);
	D->vkCmdResetQueryPool(cb, el->ts, 0, TS_COUNT);
	return cb;
}

/* `count` rectangles [0, w) x [0, h) in subpass `subpass`. */
static void el_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct el *el,
		    uint32_t subpass, uint32_t w, uint32_t h, uint32_t count)
{
	struct vkqs_rect_push pc = {{0, 0, (float)w, (float)h}, {(float)SIZE, (float)SIZE}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, el->p[subpass], &pc);
	D->vkCmdDraw(cb, 6 * count, 1, 0, 0);
}

static void el_work(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct el *el,
		    uint32_t subpass)
{
	el_draw(ctx, cb, el, subpass, SIZE, SIZE, OVERDRAW);
}

/* A timestamp that waits for everything before it. */
static void el_stamp(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct el *el, uint32_t q)
{
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, el->ts, q);
}

static void el_read(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t n,
		    uint64_t *v)
{
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, first, n, n * sizeof(*v), v,
						 sizeof(*v),
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
}

/* The timestamps before and after the instance (and inside it). */
static void el_read_ts(struct vkqs_ctx *ctx, const struct el *el, uint64_t ts[TS_COUNT],
		       bool inside)
{
	memset(ts, 0, TS_COUNT * sizeof(*ts));
	el_read(ctx, el->ts, TS_BEFORE, 1, &ts[TS_BEFORE]);
	el_read(ctx, el->ts, TS_AFTER, 1, &ts[TS_AFTER]);
	if (inside)
		el_read(ctx, el->ts, TS_IN_BEFORE, 2, &ts[TS_IN_BEFORE]);
}

/* Ticks from timestamp a to b (wrapping within the valid bits). */
static uint64_t el_span(const struct el *el, uint64_t a, uint64_t b)
{
	return vkqs_ts_forward(a, b, el->bits);
}

static void expect_valid(struct vkqs_ctx *ctx, const struct el *el, const char *what, uint64_t v)
{
	VKQS_EXPECTF(ctx, el->bits >= 64 || v >> el->bits == 0,
		     "%s: %" PRIu64 " has bits above timestampValidBits %u", what, v, el->bits);
}

/* The elapsed time `e` of work of OVERDRAW full-target draws, enclosed by
 * timestamps t0 and t1. */
static void expect_bounded(struct vkqs_ctx *ctx, const struct el *el, const char *what,
			   uint64_t e, uint64_t t0, uint64_t t1)
{
	uint64_t span = el_span(el, t0, t1);
	expect_valid(ctx, el, what, e);
	VKQS_EXPECTF(ctx, e >= 1,
		     "%s: 0 ticks for %u draws of %ux%u pixels (timestampPeriod %g ns)", what,
		     OVERDRAW, SIZE, SIZE, el->period);
	VKQS_EXPECTF(ctx, e <= span + 1,
		     "%s: %" PRIu64 " ticks, more than the %" PRIu64 " (+1) between the "
		     "timestamps written before its begin (%" PRIu64 ") and after its end (%" PRIu64 ")",
		     what, e, span, t0, t1);
}

/* Parameters ---------------------------------------------------------------*/

static const enum vkqs_pass_kind kinds[] = {VKQS_PASS_RP1, VKQS_PASS_RP2, VKQS_PASS_DYN};
/* A render pass instance begun with vkCmdBeginRendering has one subpass, so
 * vkCmdNextSubpass2 is invalid in it (VUID-vkCmdNextSubpass2-None-03102: the
 * current subpass index must be less than the subpass count minus one). */
static const enum vkqs_pass_kind subpass_kinds[] = {VKQS_PASS_RP1, VKQS_PASS_RP2};


/* Where the timer is begun and ended relative to the render pass instance. */
enum where { OUTSIDE, INSIDE };
struct where_param {
	enum where where;
	enum vkqs_pass_kind kind;
};
static const struct where_param where_params[] = {
	{OUTSIDE, VKQS_PASS_RP1}, {OUTSIDE, VKQS_PASS_RP2}, {OUTSIDE, VKQS_PASS_DYN},
	{INSIDE, VKQS_PASS_RP1},  {INSIDE, VKQS_PASS_RP2},  {INSIDE, VKQS_PASS_DYN},
};
static void where_name(const void *param, char *buf, size_t size)
{
	const struct where_param *p = param;
	snprintf(buf, size, "%s_%s", p->where == OUTSIDE ? "outside_pass" : "inside_pass",
		 vkqs_pass_kind_tokens[p->kind]);
}

/* Cases --------------------------------------------------------------------*/

/* The timer around the draws (inside the instance) or around the instance,
 * enclosed by timestamps outside it. */
static void bounds(struct vkqs_ctx *ctx, const void *param)
{
	const struct where_param *p = param;
	struct el *el = el_create(ctx, p->kind, 1, NULL, 1);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 1);
	el_stamp(ctx, cb, el, TS_BEFORE);
	if (p->where == OUTSIDE)
		D->vkCmdBeginQuery(cb, el->pool, 0, 0);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	if (p->where == INSIDE)
		D->vkCmdBeginQuery(cb, el->pool, 0, 0);
	el_work(ctx, cb, el, 0);
	if (p->where == INSIDE)
		D->vkCmdEndQuery(cb, el->pool, 0);
	vkqs_pass_end(ctx, cb, el->t);
	if (p->where == OUTSIDE)
		D->vkCmdEndQuery(cb, el->pool, 0);
	el_stamp(ctx, cb, el, TS_AFTER);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e, ts[TS_COUNT];
	el_read(ctx, el->pool, 0, 1, &e);
	el_read_ts(ctx, el, ts, false);
	expect_bounded(ctx, el, "elapsed", e, ts[TS_BEFORE], ts[TS_AFTER]);
}

/* The same pass timed from inside and from outside: the draws are most of
 * the instance's work (OVERDRAW full-target draws against one clear and
 * one store per pixel), so a timer that sums every tile reports at least
 * half of what the timestamps around the instance measure; a timestamp pair
 * inside the instance - on a tiler written during one tile - need not
 * (seed 001: "likely either resulting in the elapsed time for a single tile
 * or a near zero value").  Less than half is a QualityWarning: the
 * proposal's purpose is to report the pass's real cost. */
static void in_pass_vs_timestamps(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	struct el *el = el_create(ctx, kind, 1, NULL, 1);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 1);
	el_stamp(ctx, cb, el, TS_BEFORE);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	el_stamp(ctx, cb, el, TS_IN_BEFORE);
	D->vkCmdBeginQuery(cb, el->pool, 0, 0);
	el_work(ctx, cb, el, 0);
	D->vkCmdEndQuery(cb, el->pool, 0);
	el_stamp(ctx, cb, el, TS_IN_AFTER);
	vkqs_pass_end(ctx, cb, el->t);
	el_stamp(ctx, cb, el, TS_AFTER);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e, ts[TS_COUNT];
	el_read(ctx, el->pool, 0, 1, &e);
	el_read_ts(ctx, el, ts, true);
	expect_bounded(ctx, el, "elapsed inside the instance", e, ts[TS_BEFORE], ts[TS_AFTER]);
	uint64_t outside = el_span(el, ts[TS_BEFORE], ts[TS_AFTER]);
	uint64_t inside = el_span(el, ts[TS_IN_BEFORE], ts[TS_IN_AFTER]);
	if (2 * e < outside)
		vkqs_quality_warning(ctx,
				     "the elapsed timer around the draws reports %" PRIu64
				     " ticks, under half of the instance's %" PRIu64
				     " between timestamps outside it (a timestamp pair inside "
				     "it measured %" PRIu64 "): it does not seem to sum the "
				     "render pass's tiles",
				     e, outside, inside);
}

/* A tiler's timer sums the tiles: the same draws over the whole target take
 * longer than over a SMALL x SMALL corner (64 times fewer fragments). */
static void scales_with_area(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	struct el *el = el_create(ctx, kind, 1, NULL, 2);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 2);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	D->vkCmdBeginQuery(cb, el->pool, 0, 0);
	el_draw(ctx, cb, el, 0, SMALL, SMALL, OVERDRAW);
	D->vkCmdEndQuery(cb, el->pool, 0);
	D->vkCmdBeginQuery(cb, el->pool, 1, 0);
	el_draw(ctx, cb, el, 0, SIZE, SIZE, OVERDRAW);
	D->vkCmdEndQuery(cb, el->pool, 1);
	vkqs_pass_end(ctx, cb, el->t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e[2];
	el_read(ctx, el->pool, 0, 2, e);
	VKQS_EXPECTF(ctx, e[1] > e[0],
		     "%u draws of %ux%u pixels: %" PRIu64 " ticks, not more than the same draws "
		     "over %ux%u pixels: %" PRIu64 " ticks (a timer that misses tiles?)",
		     OVERDRAW, SIZE, SIZE, e[1], SMALL, SMALL, e[0]);
}

/* The same draws in the top-left and in the bottom-right SMALL x SMALL
 * corner cost about the same: each is counted at least an eighth as much
 * as the other.  A tiler that times one tile (the first, or the last)
 * counts one corner and misses the other almost entirely (the refdevice's
 * elapsed_first_tile_only: 41040 ticks against 80).  Each corner is timed
 * seven times, alternating, and the least of each compared (the proposal:
 * "taking multiple measurements and rejecting outliers").  With
 * RD_CLOCK=host the clock measures the host's scheduling too: three tries
 * left a 3x difference on a loaded two-core machine, and the least of
 * seven once more than 2x (a mutation run beside ctest), so the bound is
 * 8x, far from both. */
static void position_independent(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	enum { TRIES = 7 };
	struct el *el = el_create(ctx, kind, 1, NULL, 2 * TRIES);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 2 * TRIES);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	for (uint32_t q = 0; q < 2 * TRIES; q++) {
		float o = q % 2 ? (float)(SIZE - SMALL) : 0.0f;
		struct vkqs_rect_push pc = {{o, o, o + SMALL, o + SMALL}, {(float)SIZE, (float)SIZE},
					    0.5f, 0};
		D->vkCmdBeginQuery(cb, el->pool, q, 0);
		vkqs_cmd_bind_rect(ctx, cb, el->p[0], &pc);
		D->vkCmdDraw(cb, 6 * 16 * OVERDRAW, 1, 0, 0);
		D->vkCmdEndQuery(cb, el->pool, q);
	}
	vkqs_pass_end(ctx, cb, el->t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t v[2 * TRIES], e[2] = {UINT64_MAX, UINT64_MAX};
	el_read(ctx, el->pool, 0, 2 * TRIES, v);
	for (uint32_t q = 0; q < 2 * TRIES; q++)
		e[q % 2] = v[q] < e[q % 2] ? v[q] : e[q % 2];
	VKQS_EXPECTF(ctx, 8 * e[0] + 2 >= e[1] && 8 * e[1] + 2 >= e[0],
		     "the same %u draws of %ux%u pixels: at least %" PRIu64 " ticks in the "
		     "top-left corner, %" PRIu64 " in the bottom-right one (a timer that misses "
		     "tiles?)",
		     16 * OVERDRAW, SMALL, SMALL, e[0], e[1]);
}

/* Monotonic in the work: 1, then 4, then 16 times the draws. */
static void monotonic(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	static const uint32_t draws[3] = {1, 4, 16};
	struct el *el = el_create(ctx, kind, 1, NULL, 3);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 3);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	for (uint32_t i = 0; i < 3; i++) {
		D->vkCmdBeginQuery(cb, el->pool, i, 0);
		el_draw(ctx, cb, el, 0, SIZE, SIZE, draws[i] * OVERDRAW);
		D->vkCmdEndQuery(cb, el->pool, i);
	}
	vkqs_pass_end(ctx, cb, el->t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e[3];
	el_read(ctx, el->pool, 0, 3, e);
	/* 16x against 1x the fragments: strictly more (the 4x step only not
	 * less, a tick of noise allowed). */
	VKQS_EXPECTF(ctx, e[1] + 1 >= e[0] && e[2] + 1 >= e[1] && e[2] > e[0],
		     "elapsed for %u, %u, %u x %u full-target draws: %" PRIu64 ", %" PRIu64
		     ", %" PRIu64 " ticks: not increasing with the work",
		     draws[0], draws[1], draws[2], OVERDRAW, e[0], e[1], e[2]);
}

/* Two halves timed one after the other, and the whole timed in a second
 * submission: each half at least one tick; the halves sum to within
 * [1/2, 3/2] of the whole (plus a tick each) - the same work, measured
 * twice, in two submissions.  Up to three tries: a device whose clock is
 * the host's (RD_CLOCK=host) measures the host's scheduling too, and one
 * preempted half is not the rule's concern. */
static void additive(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	struct el *el = el_create(ctx, kind, 1, NULL, 3);
	uint64_t e[3], sum = 0;
	for (int attempt = 0; attempt < 3; attempt++) {
		VkCommandBuffer cb = el_begin_cb(ctx, el, 3);
		vkqs_pass_begin(ctx, cb, el->t, 1.0f);
		for (uint32_t i = 0; i < 2; i++) {
			D->vkCmdBeginQuery(cb, el->pool, i, 0);
			el_work(ctx, cb, el, 0);
			D->vkCmdEndQuery(cb, el->pool, i);
		}
		vkqs_pass_end(ctx, cb, el->t);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		vkqs_pass_begin(ctx, cb, el->t, 1.0f);
		D->vkCmdBeginQuery(cb, el->pool, 2, 0);
		el_work(ctx, cb, el, 0);
		el_work(ctx, cb, el, 0);
		D->vkCmdEndQuery(cb, el->pool, 2);
		vkqs_pass_end(ctx, cb, el->t);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		el_read(ctx, el->pool, 0, 3, e);
		sum = e[0] + e[1];
		VKQS_EXPECTF(ctx, e[0] >= 1 && e[1] >= 1, "halves: %" PRIu64 ", %" PRIu64 " ticks", e[0],
			     e[1]);
		if (e[0] >= 1 && e[1] >= 1 && 2 * (sum + 2) >= e[2] && 2 * sum <= 3 * e[2] + 4)
			break;
	}
	VKQS_EXPECTF(ctx, 2 * (sum + 2) >= e[2] && 2 * sum <= 3 * e[2] + 4,
		     "halves %" PRIu64 " + %" PRIu64 " = %" PRIu64 " ticks against %" PRIu64
		     " for the whole: outside [1/2, 3/2] of it",
		     e[0], e[1], sum, e[2]);
}

/* Two subpasses, a timer in each (a query begun in a subpass ends in it:
 * VUID-vkCmdEndQuery-None-07007), and timestamps around the instance: each
 * timer and their sum within those. */
static void subpasses(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	struct el *el = el_create(ctx, kind, 2, NULL, 2);
	VkCommandBuffer cb = el_begin_cb(ctx, el, 2);
	el_stamp(ctx, cb, el, TS_BEFORE);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	for (uint32_t s = 0; s < 2; s++) {
		if (s)
			vkqs_pass_next_subpass(ctx, cb, el->t);
		D->vkCmdBeginQuery(cb, el->pool, s, 0);
		el_work(ctx, cb, el, s);
		D->vkCmdEndQuery(cb, el->pool, s);
	}
	vkqs_pass_end(ctx, cb, el->t);
	el_stamp(ctx, cb, el, TS_AFTER);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e[2], ts[TS_COUNT];
	el_read(ctx, el->pool, 0, 2, e);
	el_read_ts(ctx, el, ts, false);
	expect_bounded(ctx, el, "subpass 0", e[0], ts[TS_BEFORE], ts[TS_AFTER]);
	expect_bounded(ctx, el, "subpass 1", e[1], ts[TS_BEFORE], ts[TS_AFTER]);
	uint64_t span = el_span(el, ts[TS_BEFORE], ts[TS_AFTER]);
	VKQS_EXPECTF(ctx, e[0] + e[1] <= span + 2,
		     "subpasses %" PRIu64 " + %" PRIu64 " ticks exceed the %" PRIu64
		     " (+2) around the instance", e[0], e[1], span);
}

/* Multiview: the N queries of a timer begun in a subpass with N views sum
 * to the total, which the timestamps around the instance bound. */
static const struct vkqs_pass_views mv_params[] = {
	{VKQS_PASS_RP1, 0x3}, {VKQS_PASS_RP1, 0x5}, {VKQS_PASS_RP1, 0xf},
	{VKQS_PASS_RP2, 0x3}, {VKQS_PASS_RP2, 0x5}, {VKQS_PASS_RP2, 0xf},
	{VKQS_PASS_DYN, 0x3}, {VKQS_PASS_DYN, 0x5}, {VKQS_PASS_DYN, 0xf},
};

static void multiview(struct vkqs_ctx *ctx, const void *param)
{
	const struct vkqs_pass_views *p = param;
	uint32_t n = (uint32_t)__builtin_popcount(p->mask);
	struct el *el = el_create(ctx, p->kind, 1, &p->mask, n + 2);
	VkCommandBuffer cb = el_begin_cb(ctx, el, n + 2);
	el_stamp(ctx, cb, el, TS_BEFORE);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	D->vkCmdBeginQuery(cb, el->pool, 1, 0);
	el_work(ctx, cb, el, 0);
	D->vkCmdEndQuery(cb, el->pool, 1);
	vkqs_pass_end(ctx, cb, el->t);
	el_stamp(ctx, cb, el, TS_AFTER);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e[MAX_Q + 2], ts[TS_COUNT], sum = 0;
	el_read(ctx, el->pool, 1, n, e);
	el_read_ts(ctx, el, ts, false);
	for (uint32_t v = 0; v < n; v++) {
		expect_valid(ctx, el, "a view's elapsed time", e[v]);
		sum += e[v];
	}
	uint64_t span = el_span(el, ts[TS_BEFORE], ts[TS_AFTER]);
	VKQS_EXPECTF(ctx, sum >= 1, "the %u view queries sum to 0 ticks for %u draws", n,
		     OVERDRAW);
	VKQS_EXPECTF(ctx, sum <= span + n,
		     "the %u view queries sum to %" PRIu64 " ticks, more than the %" PRIu64
		     " (+%u) around the instance", n, sum, span, n);
	/* The queries beside the N were reset and never used. */
	uint64_t gap[2];
	for (uint32_t i = 0; i < 2; i++) {
		uint32_t q = i ? n + 1 : 0;
		VkResult r = D->vkGetQueryPoolResults(DEV, el->pool, q, 1, sizeof(gap), gap,
						      sizeof(gap),
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		vkqs_expect_not_ready(ctx, r, "a query beside the view queries");
		VKQS_EXPECTF(ctx, gap[1] == 0,
			     "query %u beside the %u view queries: availability %" PRIu64, q, n,
			     gap[1]);
	}
}

/* The proposal's example: a profiled pass after another.  Without a barrier
 * the timer starts when the earlier work ends while the profiled pass may
 * already be running; with a full barrier before the begin it includes all
 * of the profiled pass.  So the timer without the barrier should report at most
 * what it reports with one.  Only a QualityWarning: the spec requires the
 * time of the operations between begin and end ("must count the device
 * execution time for all operations performed between the start and end"),
 * it does not forbid counting earlier work, and two times measured in
 * separate submissions on a real clock order no must.  Each way is timed nine times, alternating,
 * and the least of each compared, with a tick and 50% for separate
 * submissions on a real clock (RD_CLOCK=host on a loaded 2-core machine
 * moved the least of seven by more than 25%); a timer that also counts the
 * earlier pass, as large as the profiled one, still reports about twice.
 * The profiled pass renders to a target of its own: without the barrier
 * nothing orders the two passes, which is valid
 * only while they touch different images (a layout transition or a write of
 * the same image would race the earlier pass's store). */
static void barrier_rule(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_pass_kind kind = *(const enum vkqs_pass_kind *)param;
	enum { TRIES = 9 };
	struct el *el = el_create(ctx, kind, 1, NULL, 2 * TRIES);
	struct el *prof = el_create(ctx, kind, 1, NULL, 1);
	for (uint32_t q = 0; q < 2 * TRIES; q++) {
		bool with = q % 2;
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		D->vkCmdResetQueryPool(cb, el->pool, q, 1);
		vkqs_pass_begin(ctx, cb, el->t, 1.0f);
		el_work(ctx, cb, el, 0);
		vkqs_pass_end(ctx, cb, el->t);
		if (with)
			vkqs_cmd_full_barrier(ctx, cb);
		D->vkCmdBeginQuery(cb, el->pool, q, 0);
		vkqs_pass_begin(ctx, cb, prof->t, 1.0f);
		el_draw(ctx, cb, prof, 0, SIZE, SIZE, 4 * OVERDRAW);
		vkqs_pass_end(ctx, cb, prof->t);
		D->vkCmdEndQuery(cb, el->pool, q);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	}
	uint64_t v[2 * TRIES], e[2] = {UINT64_MAX, UINT64_MAX};
	el_read(ctx, el->pool, 0, 2 * TRIES, v);
	for (uint32_t q = 0; q < 2 * TRIES; q++)
		e[q % 2] = v[q] < e[q % 2] ? v[q] : e[q % 2];
	VKQS_EXPECTF(ctx, e[1] >= 1, "with a barrier: 0 ticks");
	if (2 * e[0] > 3 * e[1] + 2)
		vkqs_quality_warning(ctx,
				     "without a barrier before the begin at least %" PRIu64
				     " ticks, more than with one: %" PRIu64
				     " (+50%%, +1): the timer seems to count earlier work",
				     e[0], e[1]);
}

/* Begin, draws and end all in a secondary command buffer that continues
 * the render pass.  The timer cannot be active in the primary around
 * vkCmdExecuteCommands: VUID-vkCmdExecuteCommands-commandBuffer-07594 allows
 * only occlusion and pipeline statistics queries there (the name keeps its
 * "timer_in_secondary" suffix). */
static void secondary(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	uint32_t bits = el_require(ctx);
	struct vkqs_target *t = vkqs_target_create(ctx, SIZE, SIZE, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIME_ELAPSED_QCOM, 1, 0);
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, t, 0, NULL);
	D->vkCmdBeginQuery(sec, pool, 0, 0);
	vkqs_draw_rect_n(ctx, sec, p, t, 0, 0, SIZE, SIZE, 0.5f, 6 * OVERDRAW);
	D->vkCmdEndQuery(sec, pool, 0);
	vkqs_cmd_end(ctx, sec);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdResetQueryPool(cb, ts, 0, 2);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 0);
	vkqs_target_begin_ex(ctx, cb, t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	vkqs_target_end(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 1);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t e, t2[2];
	el_read(ctx, pool, 0, 1, &e);
	el_read(ctx, ts, 0, 2, t2);
	struct el bound = {.bits = bits, .period = ctx->vk->props.limits.timestampPeriod};
	expect_bounded(ctx, &bound, "elapsed", e, t2[0], t2[1]);
}
static const bool secondary_params[] = {false};
static void secondary_name(const void *param, char *buf, size_t size)
{
	(void)param;
	snprintf(buf, size, "timer_in_secondary");
}

/* The results API ------------------------------------------------------------*/

/* Read back three timed queries through vkGetQueryPoolResults or
 * vkCmdCopyQueryPoolResults, 32 or 64 bits, with or without availability,
 * at a stride with 8 guard bytes after each element: the values equal the
 * 64-bit WAIT read (the 32-bit ones its low bits: they are far below 2^32),
 * the availability word is non-zero, the guards untouched.  PARTIAL and
 * WITH_STATUS are not used (VUID-vkGetQueryPoolResults-queryType-12424). */
struct res_param {
	bool copy, is64, avail;
};
static const struct res_param res_params[] = {
	{false, false, false}, {false, false, true}, {false, true, false}, {false, true, true},
	{true, false, false},  {true, false, true},  {true, true, false},  {true, true, true},
};
static void res_name(const void *param, char *buf, size_t size)
{
	const struct res_param *p = param;
	snprintf(buf, size, "%s_%s%s", p->copy ? "copy" : "get", p->is64 ? "64" : "32",
		 p->avail ? "_with_availability" : "");
}

#define GUARD 0xA5u

static void results(struct vkqs_ctx *ctx, const void *param)
{
	const struct res_param *p = param;
	const uint32_t n = 3;
	struct el *el = el_create(ctx, VKQS_PASS_RP1, 1, NULL, n);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WAIT_BIT |
				   (p->is64 ? VK_QUERY_RESULT_64_BIT : 0) |
				   (p->avail ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0);
	size_t word = vkqs_result_word(flags), elem = vkqs_result_elem(flags);
	VkDeviceSize stride = elem + 8;
	size_t span = vkqs_result_span(n, stride, flags);
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, stride * n, 0);
	memset(buf->map, GUARD, buf->size);
	vkqs_buffer_flush(ctx, buf);
	VkCommandBuffer cb = el_begin_cb(ctx, el, n);
	vkqs_pass_begin(ctx, cb, el->t, 1.0f);
	for (uint32_t q = 0; q < n; q++) {
		D->vkCmdBeginQuery(cb, el->pool, q, 0);
		el_draw(ctx, cb, el, 0, SIZE, SIZE, (q + 1) * OVERDRAW);
		D->vkCmdEndQuery(cb, el->pool, q);
	}
	vkqs_pass_end(ctx, cb, el->t);
	if (p->copy) {
		D->vkCmdCopyQueryPoolResults(cb, el->pool, 0, n, buf->buf, 0, stride, flags);
		vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	}
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	if (p->copy)
		vkqs_buffer_invalidate(ctx, buf);
	else
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, el->pool, 0, n, span, buf->map,
							 stride, flags));
	uint64_t ref[3];
	el_read(ctx, el->pool, 0, n, ref);
	for (uint32_t q = 0; q < n; q++) {
		const uint8_t *e = buf->map + q * stride;
		uint64_t want = p->is64 ? ref[q] : (ref[q] & 0xffffffffu);
		VKQS_EXPECTF(ctx, vkqs_load_word(e, word) == want,
			     "query %u: %" PRIu64 " read, %" PRIu64 " by the 64-bit WAIT read", q,
			     vkqs_load_word(e, word), want);
		if (p->avail)
			VKQS_EXPECTF(ctx, vkqs_load_word(e + word, word) != 0,
				     "query %u: availability word 0 after WAIT", q);
		for (size_t b = elem; b < stride; b++)
			VKQS_EXPECTF(ctx, e[b] == GUARD, "query %u: byte %zu past the element "
				     "written (0x%02x)", q, b, e[b]);
	}
}

/* Reset and never used, read without WAIT: availability 0 (18.2).  The
 * spec now says the call "may return VK_NOT_READY" and that a value written
 * for an unavailable query is undefined; earlier versions required
 * VK_NOT_READY and no write, as the results area does: those are
 * CompatibilityWarnings. */
static void not_ready(struct vkqs_ctx *ctx, const void *param)
{
	bool is64 = *(const bool *)param;
	el_require(ctx);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIME_ELAPSED_QCOM, 1, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (is64 ? VK_QUERY_RESULT_64_BIT : 0);
	size_t word = vkqs_result_word(flags);
	uint8_t out[16];
	memset(out, GUARD, sizeof(out));
	vkqs_expect_not_ready(ctx,
			      D->vkGetQueryPoolResults(DEV, pool, 0, 1, 2 * word, out, 2 * word, flags),
			      "the reset query");
	VKQS_EXPECTF(ctx, vkqs_load_word(out + word, word) == 0, "availability %" PRIu64,
		     vkqs_load_word(out + word, word));
	vkqs_expect_unwritten(ctx, out, word, GUARD, "the reset query");
}
static const bool bits_params[] = {false, true};
static void bits_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "64" : "32");
}

/* A query used, reset (on the host or by a command), and used again: after
 * the reset it reads unavailable; the second use gives its own time. */
static void reset_reuse(struct vkqs_ctx *ctx, const void *param)
{
	bool host = *(const bool *)param;
	struct el *el = el_create(ctx, VKQS_PASS_RP1, 1, NULL, 1);
	if (host)
		vkqs_require_feature(ctx, "hostQueryReset");
	uint64_t e[2];
	for (uint32_t use = 0; use < 2; use++) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		if (!host || use == 0)
			D->vkCmdResetQueryPool(cb, el->pool, 0, 1);
		vkqs_pass_begin(ctx, cb, el->t, 1.0f);
		D->vkCmdBeginQuery(cb, el->pool, 0, 0);
		el_draw(ctx, cb, el, 0, SIZE, SIZE, (use ? 4 : 1) * OVERDRAW);
		D->vkCmdEndQuery(cb, el->pool, 0);
		vkqs_pass_end(ctx, cb, el->t);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		el_read(ctx, el->pool, 0, 1, &e[use]);
		if (use)
			break;
		if (host) {
			D->vkResetQueryPool(DEV, el->pool, 0, 1);
		} else {
			cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
			D->vkCmdResetQueryPool(cb, el->pool, 0, 1);
			vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		}
		uint64_t v[2] = {0, 0};
		VkResult r = D->vkGetQueryPoolResults(DEV, el->pool, 0, 1, sizeof(v), v, sizeof(v),
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		vkqs_expect_not_ready(ctx, r, "the query after its reset");
		VKQS_EXPECTF(ctx, v[1] == 0, "after the reset: availability %" PRIu64, v[1]);
	}
	VKQS_EXPECTF(ctx, e[0] >= 1 && e[1] > e[0],
		     "first use (%u draws) %" PRIu64 " ticks, second use (%u draws) %" PRIu64,
		     OVERDRAW, e[0], 4 * OVERDRAW, e[1]);
}
static const bool reset_params[] = {false, true};
static void reset_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "host" : "command");
}

static const struct vkqs_case cases[] = {
	{.name = "bounds.timer",
	 .fn = bounds,
	 .spec = SPEC_COUNT "; begin and end wait for earlier commands, so timestamps before "
		 "and after enclose the timer",
	 .params = VKQS_PARAMS(where_params, where_name)},
	{.name = "tiler.in_pass_vs_timestamps",
	 .fn = in_pass_vs_timestamps,
	 .spec = SPEC_COUNT "; seed 001: a timestamp pair inside a render pass on a tiler "
		 "measures one tile, the elapsed timer accumulates the tiles",
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "tiler.scales_with_area",
	 .fn = scales_with_area,
	 .spec = SPEC_COUNT " (64 times the fragments in the same draws take longer)",
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "tiler.position_independent",
	 .fn = position_independent,
	 .spec = SPEC_COUNT " (the same draws in two corners of the target)",
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "work.monotonic",
	 .fn = monotonic,
	 .spec = SPEC_COUNT " (16 times the draws take longer)",
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "work.additive",
	 .fn = additive,
	 .spec = SPEC_COUNT " (two halves and the whole)",
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "subpasses.each_and_whole",
	 .fn = subpasses,
	 .spec = SPEC_COUNT "; a query begun in a subpass ends in it",
	 .params = VKQS_PARAMS(subpass_kinds, vkqs_pass_kind_name)},
	{.name = "multiview.sum",
	 .fn = multiview,
	 .spec = SPEC_MULTIVIEW "; 18.2: N consecutive queries for N views",
	 .params = VKQS_PARAMS(mv_params, vkqs_pass_views_name)},
	{.name = "barrier.no_implicit_barrier",
	 .fn = barrier_rule,
	 .spec = SPEC_BARRIER,
	 .params = VKQS_PARAMS(kinds, vkqs_pass_kind_name)},
	{.name = "secondary.draws",
	 .fn = secondary,
	 .spec = SPEC_COUNT " (work in secondary command buffers)",
	 .params = VKQS_PARAMS(secondary_params, secondary_name)},
	{.name = "results.read",
	 .fn = results,
	 .spec = SPEC_UNITS "; \"Elapsed timer queries write one integer value\"; 18.2 "
		 "result layout and availability",
	 .params = VKQS_PARAMS(res_params, res_name)},
	{.name = "results.not_ready",
	 .fn = not_ready,
	 .spec = "18.2 vkGetQueryPoolResults: an unavailable query read WITH_AVAILABILITY "
		 "has availability 0; \"may return VK_NOT_READY\"",
	 .params = VKQS_PARAMS(bits_params, bits_name)},
	{.name = "reset.reuse",
	 .fn = reset_reuse,
	 .spec = "18.2 vkCmdResetQueryPool / vkResetQueryPool: a reset query is unavailable "
		 "and can be used again",
	 .params = VKQS_PARAMS(reset_params, reset_name)},
};

VKQS_AREA(elapsed, cases);
