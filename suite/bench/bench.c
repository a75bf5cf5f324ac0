/* Microbenchmarks of query implementations (`vkqs bench`; README
 * "Benchmarks" says what each measures).  Each benchmark warms up, then
 * takes vkqs_bench_repeat() samples (more while under vkqs_bench_min_time_s())
 * and reports them with vkqs_bench_metric(); the parent summarises.
 * Device time comes from timestamps through timestampPeriod, differences
 * taken within timestampValidBits; host time from CLOCK_MONOTONIC. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "proflock.h"
#include "vkutil.h"
#include "workload.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define WARMUP 2u

/* Sampling ---------------------------------------------------------------------*/

/* How many samples to take, and whether to take another: at least the
 * repeat count, more while the minimum time has not passed (bounded). */
struct sampler {
	uint32_t want, taken, cap;
	double *v;
	uint64_t start_ns, min_ns;
};

static struct sampler sampler_init(struct vkqs_ctx *ctx, double min_s, uint32_t cap)
{
	struct sampler s = {0};
	s.want = vkqs_bench_repeat();
	s.cap = s.want * 10 > cap ? s.want * 10 : cap;
	s.v = vkqs_alloc(ctx, s.cap * sizeof(double));
	s.start_ns = vkqs_now_ns();
	s.min_ns = (uint64_t)(min_s * 1e9);
	return s;
}

static struct sampler sampler_make(struct vkqs_ctx *ctx)
{
	return sampler_init(ctx, vkqs_bench_min_time_s(), 0);
}

/* A host-clock metric's sampler: its samples span at least
 * vkqs_bench_host_window_s() (bench.h), up to 2000 of them. */
static struct sampler sampler_make_host(struct vkqs_ctx *ctx)
{
	return sampler_init(ctx, vkqs_bench_host_window_s(), 2000);
}

static bool sampler_more(const struct sampler *s)
{
	if (s->taken >= s->cap)
		return false;
	return s->taken < s->want || vkqs_now_ns() - s->start_ns < s->min_ns;
}

static void sampler_add(struct sampler *s, double x)
{
	if (s->taken < s->cap)
		s->v[s->taken++] = x;
}

/* One host-clock sample (bench.h): op on each CPU of the spread, one
 * after the other, and best[i] the fastest of op's figure i (n of them, at
 * most HOST_FIGURES).  op is told when the thread has just moved to a CPU,
 * to warm what it times there; a figure op could not take is INFINITY. */
#define HOST_FIGURES 4
typedef void host_op_fn(void *arg, bool moved, double *figure);

static void host_fastest(host_op_fn *op, void *arg, unsigned n, double *best)
{
	for (unsigned i = 0; i < n; i++)
		best[i] = INFINITY;
	const unsigned spread = vkqs_bench_cpu_spread();
	for (unsigned c = 0; c < spread; c++) {
		double figure[HOST_FIGURES] = {INFINITY, INFINITY, INFINITY, INFINITY};
		op(arg, vkqs_bench_pin_next(), figure);
		for (unsigned i = 0; i < n && i < HOST_FIGURES; i++)
			best[i] = fmin(best[i], figure[i]);
	}
}

/* Device time ------------------------------------------------------------------*/

static uint64_t valid_mask(struct vkqs_ctx *ctx, const struct vkqs_queue *q)
{
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/* b - a in ns, the difference taken within the valid bits (a wrap in
 * between is one wrap). */
static double ticks_ns(struct vkqs_ctx *ctx, const struct vkqs_queue *q, uint64_t a, uint64_t b)
{
	uint64_t m = valid_mask(ctx, q);
	return (double)((b - a) & m) * ctx->vk->props.limits.timestampPeriod;
}

static void require_timestamps(struct vkqs_ctx *ctx, const struct vkqs_queue *q, const char *what)
{
	vkqs_require_queue(ctx, (struct vkqs_queue *)q, what);
	if (!ctx->vk->info.families[q->family].timestamp_valid_bits)
		vkqs_skip(ctx, "the %s queue family has timestampValidBits 0", what);
}

static void read_ts(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t n, uint64_t *out)
{
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, n, n * 8ull, out, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
}

/* vkCmdResetQueryPool needs a graphics or compute queue
 * (VUID-vkCmdResetQueryPool-commandBuffer-cmdpool): elsewhere the queries
 * are reset from the host before each submission (hostQueryReset). */
static bool cmd_reset_ok(struct vkqs_ctx *ctx, const struct vkqs_queue *q)
{
	VkQueueFlags f = ctx->vk->info.families[q->family].flags;
	return (f & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) != 0;
}

static void reset_in(struct vkqs_ctx *ctx, const struct vkqs_queue *q, VkCommandBuffer cb,
		     VkQueryPool pool, uint32_t n)
{
	if (cmd_reset_ok(ctx, q))
		D->vkCmdResetQueryPool(cb, pool, 0, n);
	else if (!ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "no vkCmdResetQueryPool on this queue and no hostQueryReset");
}

static void host_reset_if_needed(struct vkqs_ctx *ctx, const struct vkqs_queue *q,
				 VkQueryPool pool, uint32_t n)
{
	if (!cmd_reset_ok(ctx, q))
		D->vkResetQueryPool(DEV, pool, 0, n);
}

/* Submits an ended, reusable command buffer and waits for it. */
static void submit_wait(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkCommandBuffer cb)
{
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, q, &cb, 1, f);
	vkqs_fence_wait(ctx, f);
}

/* A reusable command buffer of n back-to-back timestamps at `stage` into
 * pool; ts_round resets (from the host where needed), runs it, reads them. */
static VkCommandBuffer ts_chain(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkQueryPool pool,
				uint32_t n, VkPipelineStageFlagBits stage)
{
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, q, 0);
	reset_in(ctx, q, cb, pool, n);
	for (uint32_t i = 0; i < n; i++)
		D->vkCmdWriteTimestamp(cb, stage, pool, i);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	for (uint32_t i = 0; i < WARMUP; i++) {
		host_reset_if_needed(ctx, q, pool, n);
		submit_wait(ctx, q, cb);
	}
	return cb;
}

static void ts_round(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkCommandBuffer cb,
		     VkQueryPool pool, uint32_t n, uint64_t *t)
{
	host_reset_if_needed(ctx, q, pool, n);
	submit_wait(ctx, q, cb);
	read_ts(ctx, pool, n, t);
}

/* Queues ------------------------------------------------------------------------*/

enum which_queue { Q_GRAPHICS, Q_COMPUTE, Q_TRANSFER };
static const enum which_queue queues[] = {Q_GRAPHICS, Q_COMPUTE, Q_TRANSFER};
static const char *const queue_names[] = {"graphics", "compute", "transfer"};
static void queue_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", queue_names[*(const enum which_queue *)p]);
}
static struct vkqs_queue *queue_of(struct vkqs_ctx *ctx, enum which_queue w)
{
	return w == Q_GRAPHICS ? &ctx->vk->gfx : w == Q_COMPUTE ? &ctx->vk->compute : &ctx->vk->transfer;
}

/* Timestamps ---------------------------------------------------------------------*/

/* The smallest non-zero step between back-to-back timestamps. */
static void timestamp_resolution(struct vkqs_ctx *ctx, const void *param)
{
	enum which_queue w = *(const enum which_queue *)param;
	struct vkqs_queue *q = queue_of(ctx, w);
	require_timestamps(ctx, q, queue_names[w]);
	const uint32_t n = 64;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	VkCommandBuffer cb = ts_chain(ctx, q, pool, n, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
	struct sampler s = sampler_make(ctx), zeros = sampler_make(ctx), ticks = sampler_make(ctx);
	const double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t t[64];
	while (sampler_more(&s)) {
		ts_round(ctx, q, cb, pool, n, t);
		double best = 0;
		uint32_t equal = 0;
		for (uint32_t i = 1; i < n; i++) {
			double d = ticks_ns(ctx, q, t[i - 1], t[i]);
			if (d == 0)
				equal++;
			else if (best == 0 || d < best)
				best = d;
		}
		if (best > 0) {
			sampler_add(&s, best);
			sampler_add(&ticks, best / period);
		}
		sampler_add(&zeros, 100.0 * equal / (n - 1));
	}
	vkqs_bench_metric(ctx, "resolution", "ns", true, VKQS_BENCH_DEVICE, s.v, s.taken);
	/* the limit: one tick of timestampPeriod; 1 is a counter that can
	 * tell apart back-to-back writes a period apart */
	vkqs_bench_metric(ctx, "resolution_over_period", "ticks", true, VKQS_BENCH_DEVICE, ticks.v,
			  ticks.taken);
	vkqs_bench_metric(ctx, "equal_back_to_back", "percent", false, VKQS_BENCH_DEVICE, zeros.v, zeros.taken);
}

/* The device cost of a timestamp write: a long chain, ns per write. */
struct stage_param {
	const char *name;
	VkPipelineStageFlagBits stage;
	enum which_queue q;
};
static const struct stage_param stages[] = {
	{"graphics_top", VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, Q_GRAPHICS},
	{"graphics_bottom", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Q_GRAPHICS},
	{"graphics_all_commands", VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, Q_GRAPHICS},
	{"compute_bottom", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Q_COMPUTE},
	{"transfer_bottom", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Q_TRANSFER},
};
static void stage_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", ((const struct stage_param *)p)->name);
}
static void timestamp_write_cost(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage_param *sp = param;
	struct vkqs_queue *q = queue_of(ctx, sp->q);
	require_timestamps(ctx, q, queue_names[sp->q]);
	const uint32_t n = vkqs_bench_quick() ? 64 : 1024;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	VkCommandBuffer cb = ts_chain(ctx, q, pool, n, sp->stage);
	struct sampler s = sampler_make(ctx);
	uint64_t *t = vkqs_alloc(ctx, n * sizeof(*t));
	while (sampler_more(&s)) {
		ts_round(ctx, q, cb, pool, n, t);
		sampler_add(&s, ticks_ns(ctx, q, t[0], t[n - 1]) / (n - 1));
	}
	vkqs_bench_metric(ctx, "write_cost", "ns/write", true, VKQS_BENCH_DEVICE, s.v, s.taken);
}

/* Query begin/end per draw --------------------------------------------------------*/

struct draw_query {
	const char *name;
	VkQueryType type; /* VK_QUERY_TYPE_MAX_ENUM: none */
	VkQueryControlFlags flags;
};
static const struct draw_query draw_queries[] = {
	{"occlusion", VK_QUERY_TYPE_OCCLUSION, 0},
	{"occlusion_precise", VK_QUERY_TYPE_OCCLUSION, VK_QUERY_CONTROL_PRECISE_BIT},
	{"pipeline_statistics", VK_QUERY_TYPE_PIPELINE_STATISTICS, 0},
	{"primitives_generated", VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 0},
};
static void draw_query_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", ((const struct draw_query *)p)->name);
}

/* n draws of a 4x4 rectangle in one render pass, each in its own query or
 * none; device ns per draw from timestamps around the pass. */
static VkCommandBuffer draws_cmd(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				 const struct vkqs_pipeline *p, VkQueryPool ts, VkQueryPool qp,
				 const struct draw_query *dq, uint32_t n)
{
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx, 0);
	D->vkCmdResetQueryPool(cb, ts, 0, 2);
	if (qp)
		D->vkCmdResetQueryPool(cb, qp, 0, n);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ts, 0);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	struct vkqs_rect_push pc = {{0, 0, 4, 4}, {(float)t->width, (float)t->height}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
	for (uint32_t i = 0; i < n; i++) {
		if (qp)
			D->vkCmdBeginQuery(cb, qp, i, dq->flags);
		D->vkCmdDraw(cb, 6, 1, 0, 0);
		if (qp)
			D->vkCmdEndQuery(cb, qp, i);
	}
	vkqs_target_end(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 1);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	return cb;
}

static void query_draw_cost(struct vkqs_ctx *ctx, const void *param)
{
	const struct draw_query *dq = param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	if (dq->flags & VK_QUERY_CONTROL_PRECISE_BIT)
		vkqs_require_feature(ctx, "occlusionQueryPrecise");
	if (dq->type == VK_QUERY_TYPE_PIPELINE_STATISTICS)
		vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	if (dq->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT)
		vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query.primitivesGeneratedQuery");
	const uint32_t n = vkqs_bench_quick() ? 16 : 256;
	struct vkqs_target *t = vkqs_target_create(ctx, 16, 16, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkQueryPool qp = vkqs_query_pool(
		ctx, dq->type, n,
		dq->type == VK_QUERY_TYPE_PIPELINE_STATISTICS
			? VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
				  VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT
			: 0);
	VkCommandBuffer with = draws_cmd(ctx, t, p, ts, qp, dq, n);
	VkCommandBuffer without = draws_cmd(ctx, t, p, ts, VK_NULL_HANDLE, dq, n);
	struct sampler sw = sampler_make(ctx), so = sampler_make(ctx), sd = sampler_make(ctx);
	uint64_t r[2];
	for (uint32_t i = 0; i < WARMUP; i++) {
		submit_wait(ctx, q, with);
		submit_wait(ctx, q, without);
	}
	while (sampler_more(&sd)) {
		submit_wait(ctx, q, with);
		read_ts(ctx, ts, 2, r);
		double a = ticks_ns(ctx, q, r[0], r[1]) / n;
		submit_wait(ctx, q, without);
		read_ts(ctx, ts, 2, r);
		double b = ticks_ns(ctx, q, r[0], r[1]) / n;
		sampler_add(&sw, a);
		sampler_add(&so, b);
		sampler_add(&sd, a - b);
	}
	vkqs_bench_metric(ctx, "with_query", "ns/draw", true, VKQS_BENCH_DEVICE, sw.v, sw.taken);
	vkqs_bench_metric(ctx, "without_query", "ns/draw", true, VKQS_BENCH_DEVICE, so.v, so.taken);
	vkqs_bench_metric(ctx, "query_overhead", "ns/draw", true, VKQS_BENCH_DEVICE, sd.v, sd.taken);
}

/* The render-pass split a reset forces --------------------------------------------*/

/* A query is reset outside a render pass (VUID-vkCmdResetQueryPool-
 * renderpass): a layer or engine that resets each query just before its
 * draw ends the render pass and begins it again (loading what the last
 * one stored) around every reset.  On a tile-based GPU each split is a
 * store and a load of every tile.  The same n draws, each in an occlusion
 * query, timed as one render pass (every query reset before it) and as n
 * render passes with a reset between; the cost of one split is the
 * difference over n - 1. */
static VkRenderPass load_pass(struct vkqs_ctx *ctx, const struct vkqs_target *t)
{
	/* compatible with t's: identical but for the load op and initial layout */
	VkAttachmentDescription att = vkqs_attachment_desc(t->color_format, t->samples, false);
	att.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
	att.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &cref,
				    NULL, NULL, 0, NULL};
	VkSubpassDependency deps[2];
	vkqs_subpass_dependencies(1, deps);
	VkRenderPassCreateInfo rpci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &att,
				       1, &sub, 2, deps};
	VkRenderPass rp;
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &rp));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, rp);
	return rp;
}

static VkCommandBuffer split_cmd(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				 VkRenderPass again, const struct vkqs_pipeline *p,
				 VkQueryPool ts, VkQueryPool qp, uint32_t n, bool split)
{
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx, 0);
	D->vkCmdResetQueryPool(cb, ts, 0, 2);
	if (!split)
		D->vkCmdResetQueryPool(cb, qp, 0, n);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ts, 0);
	struct vkqs_rect_push pc = {{0, 0, 16, 16}, {(float)t->width, (float)t->height}, 0.5f, 0};
	for (uint32_t i = 0; i < n; i++) {
		if (split || i == 0) {
			if (split)
				D->vkCmdResetQueryPool(cb, qp, i, 1);
			if (i == 0) {
				vkqs_target_begin(ctx, cb, t, 1.0f);
			} else {
				VkRenderPassBeginInfo bi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
							    NULL, again, t->framebuffer,
							    {{0, 0}, {t->width, t->height}}, 0, NULL};
				D->vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
				VkViewport vp = {0, 0, (float)t->width, (float)t->height, 0, 1};
				VkRect2D sc = {{0, 0}, {t->width, t->height}};
				D->vkCmdSetViewport(cb, 0, 1, &vp);
				D->vkCmdSetScissor(cb, 0, 1, &sc);
			}
			vkqs_cmd_bind_rect(ctx, cb, p, &pc);
		}
		D->vkCmdBeginQuery(cb, qp, i, 0);
		D->vkCmdDraw(cb, 6, 1, 0, 0);
		D->vkCmdEndQuery(cb, qp, i);
		if (split || i == n - 1)
			vkqs_target_end(ctx, cb);
	}
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 1);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	return cb;
}

static void reset_split(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	const uint32_t n = vkqs_bench_quick() ? 4 : 16;
	/* 256x256: 64 tiles of the refdevice tiler's default 32x32 */
	struct vkqs_target *t = vkqs_target_create(ctx, 256, 256, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkRenderPass again = load_pass(ctx, t);
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkQueryPool qp = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, n, 0);
	VkCommandBuffer one = split_cmd(ctx, t, again, p, ts, qp, n, false);
	VkCommandBuffer many = split_cmd(ctx, t, again, p, ts, qp, n, true);
	struct sampler so = sampler_make(ctx), sm = sampler_make(ctx), sd = sampler_make(ctx);
	uint64_t r[2];
	for (uint32_t i = 0; i < WARMUP; i++) {
		submit_wait(ctx, q, one);
		submit_wait(ctx, q, many);
	}
	while (sampler_more(&sd)) {
		submit_wait(ctx, q, one);
		read_ts(ctx, ts, 2, r);
		double a = ticks_ns(ctx, q, r[0], r[1]);
		submit_wait(ctx, q, many);
		read_ts(ctx, ts, 2, r);
		double b = ticks_ns(ctx, q, r[0], r[1]);
		sampler_add(&so, a);
		sampler_add(&sm, b);
		sampler_add(&sd, (b - a) / (n - 1));
	}
	vkqs_bench_metric(ctx, "one_render_pass", "ns", true, VKQS_BENCH_DEVICE, so.v, so.taken);
	vkqs_bench_metric(ctx, "split_per_reset", "ns", true, VKQS_BENCH_DEVICE, sm.v, sm.taken);
	vkqs_bench_metric(ctx, "cost_per_split", "ns", true, VKQS_BENCH_DEVICE, sd.v, sd.taken);
}

/* vkGetQueryPoolResults latency ----------------------------------------------------*/

struct readback {
	uint32_t count;
	VkQueryResultFlags flags;
	const char *mode;
};
#define RB(n)                                                                           \
	{n, VK_QUERY_RESULT_64_BIT, "64"}, {n, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT, \
					    "64_wait"},                                     \
		{n, 0, "32"},                                                            \
		{n, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT, "64_availability"}
static const struct readback readbacks[] = {RB(1), RB(16), RB(256), RB(4096), RB(65536)};
static void readback_name(const void *p, char *b, size_t n)
{
	const struct readback *r = p;
	snprintf(b, n, "%u_queries_%s", r->count, r->mode);
}

/* How many repetitions of op fill about `ns` of wall time (at least one):
 * the work size of one sample, fixed before sampling so that a sample
 * reads the clocks twice whatever its length. */
static uint32_t calibrate(void (*op)(void *), void *arg, uint64_t ns)
{
	uint32_t n = 1;
	for (;;) {
		uint64_t t0 = vkqs_now_ns();
		for (uint32_t i = 0; i < n; i++)
			op(arg);
		uint64_t dt = vkqs_now_ns() - t0;
		if (dt >= ns || n >= (1u << 24))
			return n;
		n = dt * 4 < ns ? n * 4 : (uint32_t)((double)n * (double)ns / (double)dt) + 1;
	}
}

struct readback_op {
	struct vkqs_ctx *ctx;
	const struct readback *rb;
	VkQueryPool pool;
	size_t bytes, elem;
	uint8_t *dst, *src;
	VkResult r;
};

static void readback_get(void *p)
{
	struct readback_op *o = p;
	struct vkqs_ctx *ctx = o->ctx;
	VkResult r = D->vkGetQueryPoolResults(DEV, o->pool, 0, o->rb->count, o->bytes, o->dst,
					      o->elem, o->rb->flags);
	if (r != VK_SUCCESS)
		o->r = r;
}

static void readback_memcpy(void *p)
{
	struct readback_op *o = p;
	memcpy(o->dst, o->src, o->bytes);
	__asm__ volatile("" : : "r"(o->dst) : "memory");
}

/* A host sample's op (host_fastest): the read, then the memcpy of the
 * same bytes, each repeated its calibrated number of times; the time of
 * one of each. */
struct readback_sample {
	struct readback_op *o;
	uint32_t calls, copies;
};

static void readback_sample(void *arg, bool moved, double *figure)
{
	struct readback_sample *rs = arg;
	if (moved) {
		readback_get(rs->o);
		readback_memcpy(rs->o);
	}
	uint64_t t0 = vkqs_now_ns();
	for (uint32_t i = 0; i < rs->calls; i++)
		readback_get(rs->o);
	uint64_t t1 = vkqs_now_ns();
	for (uint32_t i = 0; i < rs->copies; i++)
		readback_memcpy(rs->o);
	uint64_t t2 = vkqs_now_ns();
	figure[0] = (double)(t1 - t0) / rs->calls;
	figure[1] = (double)(t2 - t1) / rs->copies;
}

/* The other way to the same results: vkCmdCopyQueryPoolResults into a
 * host-visible buffer (host-cached memory where the device offers it),
 * submitted and waited for, then read from the mapping. */
struct copy_path {
	struct readback_op *o;
	struct vkqs_queue *q;
	struct vkqs_buffer *buf;
	VkCommandBuffer cb;
};

/* The fence is polled, as the direct read polls: a blocking wait would
 * add the host scheduler's wake-up to the path. */
static void copy_path_read(struct copy_path *c)
{
	struct vkqs_ctx *ctx = c->o->ctx;
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, c->q, &c->cb, 1, f);
	const uint64_t t0 = vkqs_now_ns();
	VkResult r;
	while ((r = D->vkGetFenceStatus(DEV, f)) == VK_NOT_READY)
		VKQS_ASSERTF(ctx, vkqs_now_ns() - t0 < 5000000000ull,
			     "the copy was not done 5 s after submission");
	VKQS_ASSERT_VK(ctx, r, VK_SUCCESS);
	vkqs_buffer_invalidate(ctx, c->buf);
	memcpy(c->o->dst, c->buf->map, c->o->bytes);
	__asm__ volatile("" : : "r"(c->o->dst) : "memory");
}

static struct copy_path copy_path_make(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				       struct readback_op *o)
{
	struct copy_path c = {o, q, vkqs_buffer_host_cached(ctx, o->bytes, 0), VK_NULL_HANDLE};
	c.cb = vkqs_cmd_begin_usage(ctx, q, 0);
	D->vkCmdCopyQueryPoolResults(c.cb, o->pool, 0, o->rb->count, c.buf->buf, 0, o->elem,
				     o->rb->flags);
	/* the copy's writes made visible to the host's reads */
	VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
			      VK_ACCESS_HOST_READ_BIT};
	D->vkCmdPipelineBarrier(c.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
				1, &mb, 0, NULL, 0, NULL);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(c.cb));
	return c;
}

/* Host latency of reading `count` available timestamp queries, and the
 * bandwidth it reaches against its limits, measured in the same sample:
 * a memcpy of the same bytes (host memory's speed; the ratio is the share
 * of it the read reaches), and the copy path (vkCmdCopyQueryPoolResults,
 * a submission, the fence polled, a read of the buffer: the ratio is the
 * direct read's time over that path's, below 1 where the direct read is
 * the faster way to the results).  The copy path's submission does not
 * move the direct read's figure: lavapipe 22.3.6's read of one query is
 * 4.6 to 75 us a process with it and without it alike.  A direct-read
 * timing is a fixed number of calls filling about 50 us, calibrated after
 * warm-up and timed by two clock reads, so that short reads do not carry
 * the clock's own cost (30 to 300 ns on the lent virtual machines); a
 * sample is the fastest such timing over the CPUs of the spread, the
 * memcpy's likewise (bench.h, docs/bench-stability.md: on a shared machine
 * one CPU at one moment runs this code up to 1.5x slower than another). */
static void readback_latency(struct vkqs_ctx *ctx, const void *param)
{
	const struct readback *rb = param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	if (vkqs_bench_quick() && rb->count > 256)
		vkqs_skip(ctx, "--quick: up to 256 queries");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, rb->count, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, rb->count);
	for (uint32_t i = 0; i < rb->count; i++)
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, i);
	vkqs_cmd_submit_wait(ctx, q, cb);
	struct readback_op o = {ctx, rb, pool, 0, vkqs_result_elem(rb->flags), NULL, NULL,
				VK_SUCCESS};
	o.bytes = (size_t)rb->count * o.elem;
	o.dst = vkqs_alloc(ctx, o.bytes);
	o.src = vkqs_alloc(ctx, o.bytes);
	memset(o.src, 1, o.bytes);
	struct copy_path cp = copy_path_make(ctx, q, &o);
	for (uint32_t i = 0; i < WARMUP; i++) {
		readback_get(&o);
		copy_path_read(&cp);
	}
	uint32_t calls = calibrate(readback_get, &o, 50000);
	uint32_t copies = calibrate(readback_memcpy, &o, 50000);
	struct sampler s = sampler_make_host(ctx), bw = sampler_make_host(ctx),
		       mc = sampler_make_host(ctx), of_mc = sampler_make_host(ctx),
		       path = sampler_make_host(ctx), of_path = sampler_make_host(ctx);
	struct readback_sample rs = {&o, calls, copies};
	while (sampler_more(&s)) {
		double best[2];
		host_fastest(readback_sample, &rs, 2, best);
		const double get = best[0], mem = best[1];
		uint64_t t2 = vkqs_now_ns();
		copy_path_read(&cp);
		uint64_t t3 = vkqs_now_ns();
		double via = (double)(t3 - t2);
		sampler_add(&s, get);
		sampler_add(&bw, (double)o.bytes / get);
		sampler_add(&mc, (double)o.bytes / mem);
		sampler_add(&of_mc, mem / get);
		sampler_add(&path, via);
		sampler_add(&of_path, get / via);
	}
	vkqs_bench_unpin();
	VKQS_ASSERT_VK(ctx, o.r, VK_SUCCESS);
	vkqs_bench_metric(ctx, "latency", "ns", true, VKQS_BENCH_HOST, s.v, s.taken);
	vkqs_bench_metric(ctx, "bandwidth", "GB/s", false, VKQS_BENCH_HOST, bw.v, bw.taken);
	vkqs_bench_metric(ctx, "memcpy_bandwidth", "GB/s", false, VKQS_BENCH_HOST, mc.v, mc.taken);
	vkqs_bench_metric(ctx, "bandwidth_over_memcpy", "ratio", false, VKQS_BENCH_HOST, of_mc.v,
			  of_mc.taken);
	vkqs_bench_metric(ctx, "copy_path_latency", "ns", true, VKQS_BENCH_HOST, path.v, path.taken);
	vkqs_bench_metric(ctx, "latency_over_copy_path", "ratio", true, VKQS_BENCH_HOST, of_path.v,
			  of_path.taken);
}

/* Availability latency ------------------------------------------------------------*/

/* A host sample's op (host_fastest): a pair of rounds.  Figures: submission
 * to the query seen available, to the fence after it, to the fence polled
 * alone, and (calibrated) from the work's end to the query available. */
struct avail_round {
	struct vkqs_ctx *ctx;
	struct vkqs_queue *q;
	VkQueryPool pool;
	VkCommandBuffer cb;
	bool cal;
};

static void avail_round(void *arg, bool moved, double *figure)
{
	struct avail_round *a = arg;
	struct vkqs_ctx *ctx = a->ctx;
	(void)moved;
	/* the fence polled alone: its latency, the limit */
	VkFence f = vkqs_fence(ctx);
	uint64_t t0 = vkqs_now_ns(), t_signaled;
	vkqs_submit(ctx, a->q, &a->cb, 1, f);
	for (;;) {
		VkResult r = D->vkGetFenceStatus(DEV, f);
		t_signaled = vkqs_now_ns();
		if (r == VK_SUCCESS)
			break;
		VKQS_ASSERT_VK(ctx, r, VK_NOT_READY);
		VKQS_ASSERTF(ctx, t_signaled - t0 < 5000000000ull,
			     "the fence was not signaled 5 s after submission");
	}
	const uint64_t fence_alone = t_signaled - t0;
	/* the query polled */
	f = vkqs_fence(ctx);
	uint64_t t_avail, v[2] = {0, 0};
	t0 = vkqs_now_ns();
	vkqs_submit(ctx, a->q, &a->cb, 1, f);
	for (;;) {
		VkResult r = D->vkGetQueryPoolResults(DEV, a->pool, 0, 1, 16, v, 16,
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		t_avail = vkqs_now_ns();
		if ((r == VK_SUCCESS || r == VK_NOT_READY) && v[1])
			break;
		VKQS_ASSERTF(ctx, t_avail - t0 < 5000000000ull,
			     "the query was not available 5 s after submission");
	}
	vkqs_fence_wait(ctx, f);
	uint64_t t_fence = vkqs_now_ns();
	figure[0] = (double)(t_avail - t0);
	figure[1] = (double)(t_fence - t0);
	figure[2] = (double)fence_alone;
	figure[3] = INFINITY;
	VkCalibratedTimestampInfoEXT ci[2] = {
		{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL, VK_TIME_DOMAIN_DEVICE_EXT},
		{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL,
		 VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
	uint64_t ts[2], dev;
	if (a->cal && ctx->vk->get_calibrated_timestamps(DEV, 2, ci, ts, &dev) == VK_SUCCESS) {
		/* the work's end on the host clock: now minus the device time
		 * since its timestamp */
		double end = (double)ts[1] - ticks_ns(ctx, a->q, v[0], ts[0]);
		figure[3] = (double)t_avail - end;
	}
}

/* From submission to the host seeing the query available while polling,
 * and to the fence; with calibrated timestamps also from the end of the
 * work (its device timestamp, mapped to the host clock).  The limit is the
 * fence's own latency: every other round polls the fence alone
 * (vkGetFenceStatus, the query unread), and each pair of rounds gives the
 * ratio of the query's latency to the fence's (1: the result is visible
 * as soon as the submission is known done). */
static void availability_latency(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 1, 0);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 1 << 20, 0);
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, q, 0);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdFillBuffer(cb, b->buf, 0, VK_WHOLE_SIZE, 7);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	bool cal = ctx->vk->get_calibrated_timestamps != NULL;
	struct sampler sa = sampler_make_host(ctx), sf = sampler_make_host(ctx),
		       se = sampler_make_host(ctx), fp = sampler_make_host(ctx),
		       ratio = sampler_make_host(ctx);
	struct avail_round a = {ctx, q, pool, cb, cal};
	double figure[HOST_FIGURES];
	for (uint32_t i = 0; i < WARMUP; i++)
		avail_round(&a, false, figure);
	/* a sample: a pair of rounds on each CPU of the spread, the fastest
	 * of each figure (bench.h) */
	while (sampler_more(&sa)) {
		double best[4];
		host_fastest(avail_round, &a, 4, best);
		sampler_add(&sa, best[0]);
		sampler_add(&sf, best[1]);
		sampler_add(&fp, best[2]);
		sampler_add(&ratio, best[0] / (best[2] > 0 ? best[2] : 1));
		if (isfinite(best[3]))
			sampler_add(&se, best[3]);
	}
	vkqs_bench_unpin();
	vkqs_bench_metric(ctx, "submit_to_available", "ns", true, VKQS_BENCH_HOST, sa.v, sa.taken);
	vkqs_bench_metric(ctx, "submit_to_fence", "ns", true, VKQS_BENCH_HOST, sf.v, sf.taken);
	vkqs_bench_metric(ctx, "submit_to_fence_polled", "ns", true, VKQS_BENCH_HOST, fp.v, fp.taken);
	vkqs_bench_metric(ctx, "available_over_fence", "ratio", true, VKQS_BENCH_HOST, ratio.v,
			  ratio.taken);
	if (se.taken)
		vkqs_bench_metric(ctx, "work_end_to_available", "ns", true, VKQS_BENCH_HOST, se.v, se.taken);
}

/* Copies and resets -----------------------------------------------------------------*/

static const uint32_t copy_counts[] = {1, 256, 4096, 65536};
static void count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_queries", *(const uint32_t *)p);
}

/* A host sample's op (host_fastest): one vkResetQueryPool of the pool. */
struct host_reset {
	struct vkqs_ctx *ctx;
	VkQueryPool pool;
	uint32_t count;
};

static void host_reset(void *arg, bool moved, double *figure)
{
	struct host_reset *h = arg;
	struct vkqs_ctx *ctx = h->ctx;
	if (moved)
		D->vkResetQueryPool(DEV, h->pool, 0, h->count);
	uint64_t t0 = vkqs_now_ns();
	D->vkResetQueryPool(DEV, h->pool, 0, h->count);
	figure[0] = (double)(vkqs_now_ns() - t0);
}

/* vkCmdCopyQueryPoolResults device time; vkResetQueryPool host time
 * against vkCmdResetQueryPool device time. */
static void copy_and_reset(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t count = *(const uint32_t *)param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	if (vkqs_bench_quick() && count > 256)
		vkqs_skip(ctx, "--quick: up to 256 queries");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, count, 0); /* reset */
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct vkqs_buffer *dst = vkqs_buffer_device(ctx, (VkDeviceSize)count * 8, 0);
	/* available queries to copy: timestamps */
	VkQueryPool src = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, count, 0);
	VkCommandBuffer fill = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(fill, src, 0, count);
	for (uint32_t i = 0; i < count; i++)
		D->vkCmdWriteTimestamp(fill, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, src, i);
	vkqs_cmd_submit_wait(ctx, q, fill);
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, q, 0);
	D->vkCmdResetQueryPool(cb, ts, 0, 4);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, ts, 0);
	D->vkCmdCopyQueryPoolResults(cb, src, 0, count, dst->buf, 0, 8,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, ts, 1);
	D->vkCmdResetQueryPool(cb, pool, 0, count);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, ts, 2);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	struct sampler sc = sampler_make(ctx), sr = sampler_make(ctx);
	uint64_t r[3];
	for (uint32_t i = 0; i < WARMUP; i++)
		submit_wait(ctx, q, cb);
	while (sampler_more(&sc)) {
		submit_wait(ctx, q, cb);
		read_ts(ctx, ts, 3, r);
		sampler_add(&sc, ticks_ns(ctx, q, r[0], r[1]));
		sampler_add(&sr, ticks_ns(ctx, q, r[1], r[2]));
	}
	vkqs_bench_metric(ctx, "copy_device_time", "ns", true, VKQS_BENCH_DEVICE, sc.v, sc.taken);
	vkqs_bench_metric(ctx, "command_reset_device_time", "ns", true, VKQS_BENCH_DEVICE, sr.v, sr.taken);
	if (!ctx->vk->f12.hostQueryReset)
		return;
	/* vkResetQueryPool after the device's samples, not between them: the
	 * host's writes to the pool must not move the device's reset of it.
	 * A sample: one reset on each CPU of the spread, the fastest (bench.h). */
	struct sampler sh = sampler_make_host(ctx);
	struct host_reset hr = {ctx, pool, count};
	while (sampler_more(&sh)) {
		double best;
		host_fastest(host_reset, &hr, 1, &best);
		sampler_add(&sh, best);
	}
	vkqs_bench_unpin();
	vkqs_bench_metric(ctx, "host_reset_time", "ns", true, VKQS_BENCH_HOST, sh.v, sh.taken);
}

/* The elapsed timer against a timestamp pair ----------------------------------------*/

static void elapsed_vs_timestamps(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	require_timestamps(ctx, q, "graphics");
	vkqs_require_feature(ctx, "VK_QCOM_elapsed_timer_query.elapsedTimerQuery");
	struct vkqs_target *t = vkqs_target_create(ctx, 64, 64, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkQueryPool el = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIME_ELAPSED_QCOM, 1, 0);
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, q, 0);
	D->vkCmdResetQueryPool(cb, el, 0, 1);
	D->vkCmdResetQueryPool(cb, ts, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ts, 0);
	D->vkCmdBeginQuery(cb, el, 0, 0);
	for (int i = 0; i < 16; i++)
		vkqs_draw_rect(ctx, cb, p, t, 0, 0, 64, 64, 0.5f);
	D->vkCmdEndQuery(cb, el, 0);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 1);
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	struct sampler se = sampler_make(ctx), st = sampler_make(ctx), sr = sampler_make(ctx);
	for (uint32_t i = 0; i < WARMUP; i++)
		submit_wait(ctx, q, cb);
	while (sampler_more(&se)) {
		submit_wait(ctx, q, cb);
		uint64_t e, r[2];
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, el, 0, 1, 8, &e, 8,
							 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
		read_ts(ctx, ts, 2, r);
		double en = (double)e * ctx->vk->props.limits.timestampPeriod;
		double tn = ticks_ns(ctx, q, r[0], r[1]);
		sampler_add(&se, en);
		sampler_add(&st, tn);
		sampler_add(&sr, tn > 0 ? en / tn : 0);
	}
	vkqs_bench_metric(ctx, "elapsed_timer", "ns", true, VKQS_BENCH_DEVICE, se.v, se.taken);
	vkqs_bench_metric(ctx, "timestamp_pair", "ns", true, VKQS_BENCH_DEVICE, st.v, st.taken);
	vkqs_bench_metric(ctx, "elapsed_over_pair", "ratio", false, VKQS_BENCH_DEVICE, sr.v, sr.taken);
}

/* The profiling lock ------------------------------------------------------------------*/

/* A host sample's op (host_fastest): acquire the lock, then release it. */
static void lock_pair(void *arg, bool moved, double *figure)
{
	struct vkqs_ctx *ctx = arg;
	(void)moved;
	uint64_t t0 = vkqs_now_ns();
	VkResult r = vkqs_acquire_profiling_lock(D, DEV, 30000);
	uint64_t t1 = vkqs_now_ns();
	if (r == VK_TIMEOUT)
		vkqs_skip(ctx, "the profiling lock stayed held elsewhere for 30 s");
	VKQS_ASSERT_VK(ctx, r, VK_SUCCESS);
	D->vkReleaseProfilingLockKHR(DEV);
	figure[0] = (double)(t1 - t0);
	figure[1] = (double)(vkqs_now_ns() - t1);
}

static void profiling_lock_latency(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_feature(ctx, "VK_KHR_performance_query.performanceCounterQueryPools");
	struct sampler sa = sampler_make_host(ctx), sr = sampler_make_host(ctx);
	while (sampler_more(&sa)) {
		double best[2];
		host_fastest(lock_pair, ctx, 2, best);
		sampler_add(&sa, best[0]);
		sampler_add(&sr, best[1]);
	}
	vkqs_bench_unpin();
	vkqs_bench_metric(ctx, "acquire", "ns", true, VKQS_BENCH_HOST, sa.v, sa.taken);
	vkqs_bench_metric(ctx, "release", "ns", true, VKQS_BENCH_HOST, sr.v, sr.taken);
}

/* Calibrated timestamps ------------------------------------------------------------------*/

/* A host sample's op (host_fastest): one vkGetCalibratedTimestamps call;
 * the deviation of the fastest call so far kept beside it. */
struct calibrated_call {
	struct vkqs_ctx *ctx;
	const VkCalibratedTimestampInfoEXT *ci;
	double fastest, deviation;
};

static void calibrated_call(void *arg, bool moved, double *figure)
{
	struct calibrated_call *c = arg;
	struct vkqs_ctx *ctx = c->ctx;
	(void)moved;
	uint64_t ts[2], dev;
	uint64_t t0 = vkqs_now_ns();
	VKQS_CHECK(ctx, ctx->vk->get_calibrated_timestamps(DEV, 2, c->ci, ts, &dev));
	figure[0] = (double)(vkqs_now_ns() - t0);
	if (figure[0] < c->fastest) {
		c->fastest = figure[0];
		c->deviation = (double)dev;
	}
}

/* maxDeviation as reported, the host interval the call took, and the
 * device clock's drift against CLOCK_MONOTONIC over a pause. */
static void calibrated(struct vkqs_ctx *ctx, const void *param)
{
	if (!ctx->vk->get_calibrated_timestamps)
		vkqs_skip(ctx, "no VK_KHR/EXT_calibrated_timestamps");
	struct vkqs_queue *q = &ctx->vk->gfx;
	VkCalibratedTimestampInfoEXT ci[2] = {
		{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL, VK_TIME_DOMAIN_DEVICE_EXT},
		{VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, NULL, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
	struct sampler sd = sampler_make_host(ctx), sw = sampler_make_host(ctx),
		       sp = sampler_make(ctx);
	uint64_t first[2] = {0, 0}, dev;
	VKQS_CHECK(ctx, ctx->vk->get_calibrated_timestamps(DEV, 2, ci, first, &dev));
	/* a sample: the fastest call, and the deviation that call reported */
	struct calibrated_call cc = {ctx, ci, INFINITY, 0};
	while (sampler_more(&sd)) {
		double call;
		cc.fastest = INFINITY;
		host_fastest(calibrated_call, &cc, 1, &call);
		sampler_add(&sd, cc.deviation);
		sampler_add(&sw, call);
	}
	vkqs_bench_unpin();
	/* drift over pauses of 50 ms (5 with --quick) */
	for (int k = 0; k < 5; k++) {
		struct timespec nap = {0, vkqs_bench_quick() ? 5000000 : 50000000};
		uint64_t a[2], b[2];
		VKQS_CHECK(ctx, ctx->vk->get_calibrated_timestamps(DEV, 2, ci, a, &dev));
		nanosleep(&nap, NULL);
		VKQS_CHECK(ctx, ctx->vk->get_calibrated_timestamps(DEV, 2, ci, b, &dev));
		double dn = ticks_ns(ctx, q, a[0], b[0]), hn = (double)(b[1] - a[1]);
		sampler_add(&sp, hn > 0 ? (dn - hn) / hn * 1e6 : 0);
	}
	vkqs_bench_metric(ctx, "max_deviation", "ns", true, VKQS_BENCH_HOST, sd.v, sd.taken);
	vkqs_bench_metric(ctx, "call_host_time", "ns", true, VKQS_BENCH_HOST, sw.v, sw.taken);
	vkqs_bench_metric(ctx, "device_host_drift", "ppm", true, VKQS_BENCH_HOST, sp.v, sp.taken);
}

static const struct vkqs_case benches[] = {
	{"timestamp.resolution", timestamp_resolution,
	 "the smallest non-zero step between 64 back-to-back timestamps",
	 VKQS_PARAMS(queues, queue_name)},
	{"timestamp.write_cost", timestamp_write_cost,
	 "device ns per timestamp write over a chain of 1024",
	 VKQS_PARAMS(stages, stage_name)},
	{"query.draw_cost", query_draw_cost,
	 "device ns per draw with a query begun and ended around each, against none",
	 VKQS_PARAMS(draw_queries, draw_query_name)},
	{"query.reset_split", reset_split,
	 "device ns of the render-pass split a per-query reset forces: 16 draws in occlusion "
	 "queries as one render pass and as 16 with a reset between, per split"},
	{"readback.get", readback_latency,
	 "host latency of vkGetQueryPoolResults of available queries; bandwidth against memcpy",
	 VKQS_PARAMS(readbacks, readback_name)},
	{"availability.latency", availability_latency,
	 "host ns from submission (and from the work's end) until the query reads available, "
	 "and until the fence"},
	{"copy.copy_and_reset", copy_and_reset,
	 "device time of vkCmdCopyQueryPoolResults and vkCmdResetQueryPool; host time of "
	 "vkResetQueryPool",
	 VKQS_PARAMS(copy_counts, count_name)},
	{"elapsed.vs_timestamps", elapsed_vs_timestamps,
	 "VK_QCOM_elapsed_timer_query around 16 draws against a timestamp pair around them"},
	{"perf.profiling_lock", profiling_lock_latency,
	 "host ns of vkAcquireProfilingLockKHR and vkReleaseProfilingLockKHR"},
	{"workload.costing", vkqs_bench_workload_costing,
	 "per-workload timer costs of a frame as recorded and with seed 003's serialization "
	 "injected (barriers around every timer, a timeline semaphore across submissions)",
	 vkqs_bench_workload_queues, sizeof(bool), 2, vkqs_bench_workload_queues_name},
	{"calibrated.timestamps", calibrated,
	 "maxDeviation, the call's host time, and device clock drift against CLOCK_MONOTONIC"},
};

VKQS_AREA(bench, benches);

const struct vkqs_area *const vkqs_bench_areas[] = {&vkqs_area_bench, NULL};
