/* Timestamp queries (spec 18.5): ordering of writes that happen-after one
 * another, the valid bits, timestampPeriod against the host clock, 32-bit
 * against 64-bit results, the copy path, calibrated device-domain values
 * and the limits that describe timestamp support. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vkqs.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define TS_MAX 16
#define TS_FLAGS64 (VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)
/* Work between two writes: large enough to take measurable time on any
 * device, small enough for a CPU driver. */
#define WORK_FILL_SIZE (1u << 20)
#define DURATION_FILL_SIZE (64ull << 20)
#define DURATION_FILLS 8
#define TARGET_SIZE 64

/* Host CLOCK_MONOTONIC and the device counter run from different
 * oscillators.  Crystals are specified to about +-100 ppm and NTP slews
 * CLOCK_MONOTONIC by at most 500 ppm (the kernel's MAXFREQ), so the two rates
 * agree to well under 0.1 %; 1 % leaves an order of magnitude of margin
 * while a timestampPeriod wrong by a constant factor (bug class 18, e.g.
 * 41.667 reported as 1.0) is far outside it. */
#define TS_CLOCK_TOL 0.01

struct ts_set {
	uint64_t v[TS_MAX];
	uint32_t n;
	uint32_t bits;    /* timestampValidBits of the queue that wrote them */
	uint64_t host_ns; /* from before vkQueueSubmit to after the fence wait */
};


static uint64_t ts_mask(uint32_t bits)
{
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/* VUID-vkCmdWriteTimestamp-timestampValidBits-00829: a family reporting 0
 * valid bits cannot write timestamps at all. */
static uint32_t queue_bits(struct vkqs_ctx *ctx, const struct vkqs_queue *q,
			   const char *what)
{
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	if (bits == 0)
		vkqs_skip(ctx, "the %s queue family %u reports timestampValidBits 0: "
			       "it does not support timestamps",
			  what, q->family);
	return bits;
}

static bool any_family_has_timestamps(const struct vkqs_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++)
		if (ctx->vk->info.families[i].timestamp_valid_bits)
			return true;
	return false;
}

/* The most ticks the counter can advance in host_ns of host time: one tick
 * per timestampPeriod ns (spec 18.5), with the rate tolerance above and one
 * tick of truncation at each end. */
static uint64_t ticks_within(const struct vkqs_ctx *ctx, uint64_t host_ns)
{
	double period = ctx->vk->props.limits.timestampPeriod;
	if (!(period > 0.0))
		return UINT64_MAX; /* properties.timestamp_period_positive reports it */
	double t = (double)host_ns * (1.0 + TS_CLOCK_TOL) / period + 2.0;
	return t >= 0x1p63 ? UINT64_MAX : (uint64_t)t;
}

/* A counter of `bits` bits reads exactly 0 only in the one tick after it
 * wraps (or the first tick after power-up).  With at least 36 valid bits
 * (VkQueueFamilyProperties: "The valid range for the count is 36 to 64
 * bits", checked by properties.valid_bits_range) one write lands there with
 * probability at most 2^-36, so a zero is a value the driver never wrote
 * (bug class 15), not chance.  VkQueueFamilyProperties: "Bits outside the
 * valid range are guaranteed to be zeros." */
static void expect_valid(struct vkqs_ctx *ctx, const char *what, uint64_t v,
			 uint32_t bits)
{
	VKQS_EXPECTF(ctx, v != 0, "expected %s to be nonzero, got 0", what);
	if (bits < 64)
		VKQS_EXPECTF(ctx, (v >> bits) == 0,
			"expected %s (0x%016" PRIx64 ") to have no bit set above "
			"timestampValidBits %u",
			what, v, bits);
}

/* spec 18.5: "Any timestamp write that happens-after another timestamp write
 * in the same submission must not have a lower value unless its value
 * overflows the maximum supported integer bit width of the query", and "If
 * an overflow occurs, the timestamp value must wrap back to zero".  So a
 * lower later value is legal only as a wrap: the counter ran forward from a
 * through 2^bits - 1 to 0 and on to b, (b - a) mod 2^bits ticks in all.  Both
 * values were sampled within host_ns, so that forward distance cannot exceed
 * the ticks of host_ns; a decrease without that room is a counter going
 * backwards (bug class 19).  This is tighter than "the modular difference is
 * below 2^(bits-1)" and as principled: it needs only the period.  Values are
 * compared within the valid bits; bits above them are expect_valid's. */
static void expect_not_before(struct vkqs_ctx *ctx, const char *what_a, uint64_t a,
			      const char *what_b, uint64_t b, uint32_t bits,
			      uint64_t host_ns)
{
	uint64_t m = ts_mask(bits);
	uint64_t am = a & m, bm = b & m;
	uint64_t fwd = (bm - am) & m;
	uint64_t room = ticks_within(ctx, host_ns);
	VKQS_EXPECTF(ctx, bm >= am || fwd <= room,
		"expected %s (%" PRIu64 ") to be >= %s (%" PRIu64 ") that it happens-after, "
		"or a %u-bit wrap: the forward distance %" PRIu64 " ticks exceeds the "
		"%" PRIu64 " ticks that fit in the %" PRIu64 " ns host interval",
		what_b, bm, what_a, am, bits, fwd, room, host_ns);
}

static void expect_after(struct vkqs_ctx *ctx, const struct ts_set *s, uint32_t i,
			 uint32_t j)
{
	char a[32], b[32];
	snprintf(a, sizeof(a), "timestamp %u", i);
	snprintf(b, sizeof(b), "timestamp %u", j);
	expect_not_before(ctx, a, s->v[i], b, s->v[j], s->bits, s->host_ns);
}

static void expect_all_valid(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "timestamp %u", i);
		expect_valid(ctx, what, s->v[i], s->bits);
	}
}

/* Every value valid, each one not before the one it happens-after. */
static void expect_series(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	expect_all_valid(ctx, s);
	for (uint32_t i = 1; i < s->n; i++)
		expect_after(ctx, s, i - 1, i);
}

/* Submits the ended command buffers as one batch and waits; returns the
 * host time around it, which strictly contains the device execution. */
static uint64_t submit_timed(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			     const VkCommandBuffer *cbs, uint32_t count)
{
	VkFence f = vkqs_fence(ctx);
	uint64_t t0 = vkqs_now_ns();
	vkqs_submit(ctx, q, cbs, count, f);
	vkqs_fence_wait(ctx, f);
	return vkqs_now_ns() - t0;
}

static void get64(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t n, struct ts_set *s)
{
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, n, sizeof(s->v[0]) * n,
						 s->v, sizeof(s->v[0]), TS_FLAGS64));
	s->n = n;
}

/* VUID-vkCmdResetQueryPool-commandBuffer-cmdpool: only graphics, compute
 * (and video) pools may record the reset.  For a transfer-only queue reset
 * on the host (hostQueryReset, core 1.2) or, lacking it, on the graphics
 * queue in a submission that completes first: queries are not tied to a
 * queue family. */
static void reset_for(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkCommandBuffer cb,
		      VkQueryPool pool, uint32_t n)
{
	VkQueueFlags f = ctx->vk->info.families[q->family].flags;
	if (f & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
		D->vkCmdResetQueryPool(cb, pool, 0, n);
		return;
	}
	if (ctx->vk->f12.hostQueryReset) {
		D->vkResetQueryPool(DEV, pool, 0, n);
		return;
	}
	VkCommandBuffer rcb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(rcb, pool, 0, n);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rcb);
}

struct work {
	struct vkqs_buffer *buf;      /* filled between two writes */
	const struct vkqs_target *t;  /* when set, every other step draws */
	const struct vkqs_pipeline *p;
};

static void draw_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_target *t, const struct vkqs_pipeline *p)
{
	vkqs_target_begin(ctx, cb, t, 1.0f);
	vkqs_draw_rect(ctx, cb, p, t, 0, 0, (float)t->width, (float)t->height, 0.5f);
	vkqs_target_end(ctx, cb);
}

/* Writes queries first..first+n-1 at stages[i % nstages], with work between
 * full barriers before every write but the first.  The barrier's first
 * scope holds every earlier command (the previous write included) and its
 * second scope every later one at ALL_COMMANDS, so each write happens-after
 * the one before it. */
static void record_series(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n,
			  const VkPipelineStageFlagBits *stages, uint32_t nstages,
			  const struct work *w)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0) {
			vkqs_cmd_full_barrier(ctx, cb);
			if (w->t && i % 2)
				draw_pass(ctx, cb, w->t, w->p);
			else
				D->vkCmdFillBuffer(cb, w->buf->buf, 0, VK_WHOLE_SIZE, i);
			vkqs_cmd_full_barrier(ctx, cb);
		}
		D->vkCmdWriteTimestamp(cb, stages[i % nstages], pool, first + i);
	}
}

/* stage.* ------------------------------------------------------------------*/

struct stage_param {
	const char *name;
	VkPipelineStageFlagBits stage;
};

static const struct stage_param outside_stages[] = {
	{"top_of_pipe", VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT},
	{"draw_indirect", VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT},
	{"vertex_input", VK_PIPELINE_STAGE_VERTEX_INPUT_BIT},
	{"vertex_shader", VK_PIPELINE_STAGE_VERTEX_SHADER_BIT},
	{"fragment_shader", VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
	{"early_fragment_tests", VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT},
	{"late_fragment_tests", VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT},
	{"color_attachment_output", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
	{"compute_shader", VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT},
	{"transfer", VK_PIPELINE_STAGE_TRANSFER_BIT},
	{"bottom_of_pipe", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT},
	{"all_graphics", VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT},
	{"all_commands", VK_PIPELINE_STAGE_ALL_COMMANDS_BIT},
};

static const struct stage_param inside_stages[] = {
	{"top_of_pipe", VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT},
	{"vertex_shader", VK_PIPELINE_STAGE_VERTEX_SHADER_BIT},
	{"fragment_shader", VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
	{"color_attachment_output", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
	{"bottom_of_pipe", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT},
};

static void stage_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct stage_param *)param)->name);
}

/* Six writes at one stage outside any render pass, separated by a render
 * pass that draws or by a fill, each after a full barrier. */
static void stage_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage_param *p = param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	const uint32_t n = 6;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct vkqs_target *t = vkqs_target_create(ctx, TARGET_SIZE, TARGET_SIZE,
						   VK_SAMPLE_COUNT_1_BIT, false);
	struct work w = {
		.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0),
		.t = t,
		.p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0}),
	};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, n);
	record_series(ctx, cb, pool, 0, n, &p->stage, 1, &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);
	expect_series(ctx, &s);
}

/* Writes inside one subpass around draws.  vkCmdPipelineBarrier inside a
 * render pass needs a subpass self-dependency, which the target's render
 * pass lacks, so the writes inside are not ordered among themselves (on
 * tilers they need not be: bug class 27).  Each is ordered after a write
 * before the pass (full barrier, then the EXTERNAL->0 dependency at
 * ALL_COMMANDS) and before a write after it (the 0->EXTERNAL dependency,
 * then a full barrier). */
static void stage_inside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage_param *p = param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	const uint32_t n = 5, last = n - 1;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct vkqs_target *t = vkqs_target_create(ctx, TARGET_SIZE, TARGET_SIZE,
						   VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *pl = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	const float wf = (float)t->width, hf = (float)t->height;

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, n);
	D->vkCmdWriteTimestamp(cb, p->stage, pool, 0);
	vkqs_cmd_full_barrier(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdWriteTimestamp(cb, p->stage, pool, 1);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	D->vkCmdWriteTimestamp(cb, p->stage, pool, 2);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf / 2, hf / 2, 0.25f);
	D->vkCmdWriteTimestamp(cb, p->stage, pool, 3);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, p->stage, pool, last);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);

	expect_all_valid(ctx, &s);
	for (uint32_t i = 1; i < last; i++) {
		expect_after(ctx, &s, 0, i);
		expect_after(ctx, &s, i, last);
	}
	expect_after(ctx, &s, 0, last);
}

/* valid_bits.* -------------------------------------------------------------*/

enum which_queue { QUEUE_GRAPHICS, QUEUE_COMPUTE, QUEUE_TRANSFER };

struct queue_param {
	const char *name;
	enum which_queue which;
	const char *what; /* for messages */
};

static const struct queue_param queue_params[] = {
	{"graphics", QUEUE_GRAPHICS, "graphics"},
	{"compute", QUEUE_COMPUTE, "compute-only"},
	{"transfer", QUEUE_TRANSFER, "transfer-only"},
};

static void queue_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct queue_param *)param)->name);
}

static struct vkqs_queue *pick_queue(struct vkqs_ctx *ctx, const struct queue_param *p)
{
	struct vkqs_queue *q = p->which == QUEUE_GRAPHICS  ? &ctx->vk->gfx
			       : p->which == QUEUE_COMPUTE ? &ctx->vk->compute
							   : &ctx->vk->transfer;
	return vkqs_require_queue(ctx, q, p->what);
}

/* Writes on every queue the fixture has, at stages every queue type
 * supports (VUID-vkCmdWriteTimestamp-pipelineStage-04074: TOP, BOTTOM and
 * ALL_COMMANDS are valid anywhere, TRANSFER on transfer, graphics and
 * compute queues); the bits above the family's timestampValidBits must be
 * zero, and the series must be ordered like any other. */
static void valid_bits_queue(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct vkqs_queue *q = pick_queue(ctx, p);
	static const VkPipelineStageFlagBits stages[] = {
		VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	};
	const uint32_t n = 8;
	struct ts_set s = {.bits = queue_bits(ctx, q, p->what)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	reset_for(ctx, q, cb, pool, n);
	record_series(ctx, cb, pool, 0, n, stages, VKQS_ARRAY_LEN(stages), &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);
	expect_series(ctx, &s);
}

/* duration.* ---------------------------------------------------------------*/

/* TOP_OF_PIPE before and BOTTOM_OF_PIPE after eight fills of 64 MiB.  Both
 * writes happen between the host's reading before vkQueueSubmit and after
 * the fence wait, so the device interval, converted with timestampPeriod
 * ("the number of nanoseconds it takes for a timestamp value to be
 * incremented by 1", spec 18.5), cannot exceed the host interval beyond the
 * clock-rate tolerance and one period of truncation at each end.  The spec
 * gives no lower bound (the TOP write may land as late as the BOTTOM one),
 * but a device interval of zero or under 1/1000 of a host interval over
 * 1 ms means a period wrong by orders of magnitude (bug class 18) or
 * command-buffer-granularity stamps (bug class 16): a QualityWarning. */
static void duration_fill_vs_host_clock(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, DURATION_FILL_SIZE, 0);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
	for (uint32_t k = 0; k < DURATION_FILLS; k++) {
		if (k)
			vkqs_cmd_full_barrier(ctx, cb);
		D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 0x01010101u * (k + 1));
	}
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, 2, &s);
	expect_series(ctx, &s);

	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t m = ts_mask(s.bits);
	uint64_t ticks = ((s.v[1] & m) - (s.v[0] & m)) & m;
	double dev_ns = (double)ticks * period;
	double host_ns = (double)s.host_ns;
	double bound = host_ns * (1.0 + TS_CLOCK_TOL) + 2.0 * period;
	VKQS_EXPECTF(ctx, dev_ns <= bound,
		"expected device interval %.0f ns (%" PRIu64 " ticks x timestampPeriod %g; "
		"t0 %" PRIu64 ", t1 %" PRIu64 ") <= host interval %" PRIu64
		" ns x (1 + %g) + 2 periods = %.0f ns",
		dev_ns, ticks, period, s.v[0], s.v[1], s.host_ns, TS_CLOCK_TOL, bound);
	if (s.host_ns > 1000000 && (ticks == 0 || dev_ns < host_ns / 1000))
		vkqs_quality_warning(ctx,
				     "device interval %.0f ns (%" PRIu64 " ticks x "
				     "timestampPeriod %g; t0 %" PRIu64 ", t1 %" PRIu64
				     ") is under 1/1000 of the %" PRIu64 " ns host "
				     "interval around %d fills of %llu MiB",
				     dev_ns, ticks, period, s.v[0], s.v[1], s.host_ns,
				     DURATION_FILLS,
				     (unsigned long long)(DURATION_FILL_SIZE >> 20));
}

/* result_width.* and copy.* -------------------------------------------------*/

/* Four writes alternating BOTTOM and TOP with fills between, on the graphics
 * queue; returns the command buffer still recording. */
static VkCommandBuffer record_four(struct vkqs_ctx *ctx, VkQueryPool pool)
{
	static const VkPipelineStageFlagBits stages[] = {
		VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	};
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 4);
	record_series(ctx, cb, pool, 0, 4, stages, VKQS_ARRAY_LEN(stages), &w);
	return cb;
}

/* spec 18.2: "If an unsigned integer query's value overflows the result
 * type, the value may either wrap or saturate." */
static void expect_width32(struct vkqs_ctx *ctx, const char *path, uint32_t i,
			   uint64_t v64, uint32_t v32)
{
	bool wrapped = v32 == (uint32_t)v64;
	bool saturated = v64 > UINT32_MAX && v32 == UINT32_MAX;
	VKQS_EXPECTF(ctx, wrapped || saturated,
		"expected %s 32-bit result of query %u (0x%08" PRIx32 ") to be the low 32 bits "
		"of the 64-bit result 0x%016" PRIx64 " or, when that exceeds "
		"0xffffffff, 0xffffffff",
		path, i, v32, v64);
}

static void result_width_get(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	VkCommandBuffer cb = record_four(ctx, pool);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, 4, &s);
	uint32_t v32[4];
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 4, sizeof(v32), v32,
						 sizeof(v32[0]), VK_QUERY_RESULT_WAIT_BIT));
	expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		expect_width32(ctx, "vkGetQueryPoolResults", i, s.v[i], v32[i]);
}

/* Copies the four values with vkCmdCopyQueryPoolResults (WAIT, so the copy
 * waits for the writes recorded before it, spec 18.2) into a buffer preset
 * to a sentinel, at the given width. */
static void copy_four(struct vkqs_ctx *ctx, bool is64, struct ts_set *s, void *out)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	size_t elem = is64 ? 8 : 4;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct vkqs_buffer *hb = vkqs_buffer_host(ctx, 4 * elem, 0);
	memset(hb->map, 0xa5, 4 * elem);
	vkqs_buffer_flush(ctx, hb);
	VkCommandBuffer cb = record_four(ctx, pool);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, 4, hb->buf, 0, elem,
				     is64 ? TS_FLAGS64 : VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	s->host_ns = submit_timed(ctx, q, &cb, 1);
	vkqs_buffer_invalidate(ctx, hb);
	memcpy(out, hb->map, 4 * elem);
	get64(ctx, pool, 4, s);
}

static void result_width_copy(struct vkqs_ctx *ctx, const void *param)
{
	struct ts_set s = {.bits = queue_bits(ctx, &ctx->vk->gfx, "graphics")};
	uint32_t v32[4];
	copy_four(ctx, false, &s, v32);
	expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		expect_width32(ctx, "vkCmdCopyQueryPoolResults", i, s.v[i], v32[i]);
}

/* Both paths return the same query's final result (spec 18.2: "Results for
 * any available query written by this command are final"). */
static void copy_matches_get_64(struct vkqs_ctx *ctx, const void *param)
{
	struct ts_set s = {.bits = queue_bits(ctx, &ctx->vk->gfx, "graphics")};
	uint64_t v[4];
	copy_four(ctx, true, &s, v);
	expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		VKQS_EXPECTF(ctx, v[i] == s.v[i],
			"expected query %u copied with vkCmdCopyQueryPoolResults (0x%016" PRIx64
			") to equal vkGetQueryPoolResults (0x%016" PRIx64 ")",
			i, v[i], s.v[i]);
}

/* order.* ------------------------------------------------------------------*/

static const VkPipelineStageFlagBits bottom_top[] = {
	VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
	VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
};

/* Two command buffers in one batch of one vkQueueSubmit: a full barrier at
 * the start of the second has every command of the first in its first scope
 * (submission order spans the batch), so its writes happen-after the
 * first's. */
static void order_two_command_buffers(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cbs[2];
	cbs[0] = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cbs[0], pool, 0, 4);
	record_series(ctx, cbs[0], pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cbs[0]);
	cbs[1] = vkqs_cmd_begin(ctx, q);
	vkqs_cmd_full_barrier(ctx, cbs[1]);
	record_series(ctx, cbs[1], pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cbs[1]);
	s.host_ns = submit_timed(ctx, q, cbs, 2);
	get64(ctx, pool, 4, &s);
	expect_series(ctx, &s);
}

static bool has_calibrated(const struct vkqs_ctx *ctx)
{
	return ctx->vk->get_calibrated_timestamps != NULL;
}

/* spec 18.5: "If VK_EXT_calibrated_timestamps is enabled, this extends to
 * timestamp writes across all submissions on the same logical device" (the
 * fixture enables the KHR or EXT extension whenever present).  The second
 * submission happens-after the first: fence signal, host wait, then
 * vkQueueSubmit, whose commands happen-after host operations before it. */
static void order_two_submissions_calibrated(struct vkqs_ctx *ctx, const void *param)
{
	if (!has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported: the spec "
			       "orders timestamps only within one submission");
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb0 = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb0, pool, 0, 4);
	record_series(ctx, cb0, pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cb0);
	VkCommandBuffer cb1 = vkqs_cmd_begin(ctx, q);
	record_series(ctx, cb1, pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cb1);
	uint64_t t0 = vkqs_now_ns();
	submit_timed(ctx, q, &cb0, 1);
	submit_timed(ctx, q, &cb1, 1);
	s.host_ns = vkqs_now_ns() - t0;
	get64(ctx, pool, 4, &s);
	expect_series(ctx, &s);
}

/* calibrated.* -------------------------------------------------------------*/

/* VkTimeDomainKHR: "VK_TIME_DOMAIN_DEVICE_KHR specifies the device time
 * domain.  Timestamp values in this time domain use the same units and are
 * comparable with device timestamp values captured using
 * vkCmdWriteTimestamp".  A device-domain sample taken before vkQueueSubmit
 * therefore cannot be later than a write in that submission, nor one taken
 * after the fence wait earlier (bug class 19: a write clock with another
 * epoch than the calibrated one). */
static void calibrated_device_domain(struct vkqs_ctx *ctx, const void *param)
{
	if (!has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR domains_fn =
		ctx->vk->get_calibrateable_time_domains;
	PFN_vkGetCalibratedTimestampsKHR get_fn = ctx->vk->get_calibrated_timestamps;
	if (!domains_fn || !get_fn)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");

	VkTimeDomainKHR domains[16];
	uint32_t nd = VKQS_ARRAY_LEN(domains);
	VkResult r = domains_fn(ctx->vk->phys, &nd, domains);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		VKQS_CHECK(ctx, r);
	bool device_domain = false;
	for (uint32_t i = 0; i < nd; i++)
		device_domain |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
	if (!device_domain)
		vkqs_skip(ctx, "VK_TIME_DOMAIN_DEVICE is not a calibrateable time domain");

	struct vkqs_queue *q = &ctx->vk->gfx;
	uint32_t bits = queue_bits(ctx, q, "graphics");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 1, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 7);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	vkqs_cmd_end(ctx, cb);

	VkCalibratedTimestampInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		.timeDomain = VK_TIME_DOMAIN_DEVICE_EXT,
	};
	uint64_t before, after, dev, deviation;
	uint64_t h0 = vkqs_now_ns();
	VKQS_CHECK(ctx, get_fn(DEV, 1, &info, &before, &deviation));
	submit_timed(ctx, q, &cb, 1);
	VKQS_CHECK(ctx, get_fn(DEV, 1, &info, &after, &deviation));
	uint64_t host_ns = vkqs_now_ns() - h0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(dev), &dev,
						 sizeof(dev), TS_FLAGS64));

	expect_valid(ctx, "the written timestamp", dev, bits);
	expect_not_before(ctx, "the device-domain sample before vkQueueSubmit", before,
			  "the written timestamp", dev, bits, host_ns);
	expect_not_before(ctx, "the written timestamp", dev,
			  "the device-domain sample after the fence wait", after, bits,
			  host_ns);
}

/* properties.* -------------------------------------------------------------*/

static void properties_period_positive(struct vkqs_ctx *ctx, const void *param)
{
	if (!any_family_has_timestamps(ctx))
		vkqs_skip(ctx, "no queue family reports timestampValidBits > 0");
	float period = ctx->vk->props.limits.timestampPeriod;
	VKQS_EXPECTF(ctx, period > 0.0f && isfinite(period),
		"expected timestampPeriod to be a positive finite number of nanoseconds, got %g",
		(double)period);
}

static void properties_compute_and_graphics(struct vkqs_ctx *ctx, const void *param)
{
	if (!ctx->vk->props.limits.timestampComputeAndGraphics)
		vkqs_skip(ctx, "timestampComputeAndGraphics is VK_FALSE: no family "
			       "is promised timestamp support");
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		const struct vkqs_family_info *f = &ctx->vk->info.families[i];
		if (!(f->flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)))
			continue;
		VKQS_EXPECTF(ctx, f->timestamp_valid_bits > 0,
			"expected queue family %u (flags 0x%x) to report timestampValidBits > 0 "
			"as timestampComputeAndGraphics is VK_TRUE",
			i, (unsigned)f->flags);
	}
}

static void properties_valid_bits_range(struct vkqs_ctx *ctx, const void *param)
{
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		const struct vkqs_family_info *f = &ctx->vk->info.families[i];
		uint32_t bits = f->timestamp_valid_bits;
		VKQS_EXPECTF(ctx, bits == 0 || (bits >= 36 && bits <= 64),
			"expected queue family %u (flags 0x%x) timestampValidBits to be 0 or "
			"36..64, got %u",
			i, (unsigned)f->flags, bits);
	}
}

/* The table ----------------------------------------------------------------*/

#define ORDER_SPEC                                                             \
	"18.5: Any timestamp write that happens-after another timestamp write " \
	"in the same submission must not have a lower value unless its value " \
	"overflows the maximum supported integer bit width of the query"
#define PERIOD_SPEC                                                            \
	"18.5: The number of nanoseconds it takes for a timestamp value to be "  \
	"incremented by 1 can be obtained from VkPhysicalDeviceLimits::"         \
	"timestampPeriod"
#define WIDTH_SPEC                                                             \
	"If an unsigned integer query's value overflows the result type, the "   \
	"value may either wrap or saturate"

static const struct vkqs_case cases[] = {
	{.name = "stage.outside_render_pass",
	 .fn = stage_outside_render_pass,
	 .spec = ORDER_SPEC,
	 .params = VKQS_PARAMS(outside_stages, stage_name)},
	{.name = "stage.inside_render_pass",
	 .fn = stage_inside_render_pass,
	 .spec = ORDER_SPEC,
	 .params = VKQS_PARAMS(inside_stages, stage_name)},
	{.name = "valid_bits.queue",
	 .fn = valid_bits_queue,
	 .spec = "VkQueueFamilyProperties: timestampValidBits is the unsigned integer "
		 "count of meaningful bits in the timestamps written via "
		 "vkCmdWriteTimestamp; bits outside the valid range are guaranteed to "
		 "be zeros",
	 .params = VKQS_PARAMS(queue_params, queue_name)},
	{.name = "duration.fill_vs_host_clock",
	 .fn = duration_fill_vs_host_clock,
	 .spec = PERIOD_SPEC},
	{.name = "result_width.low_32_bits_or_saturated",
	 .fn = result_width_get,
	 .spec = "18.2 (vkGetQueryPoolResults): " WIDTH_SPEC},
	{.name = "result_width.copy_low_32_bits_or_saturated",
	 .fn = result_width_copy,
	 .spec = "18.2 (vkCmdCopyQueryPoolResults): " WIDTH_SPEC},
	{.name = "copy.matches_get_64",
	 .fn = copy_matches_get_64,
	 .spec = "18.2: Results for any available query written by this command are "
		 "final and represent the final result of the query"},
	{.name = "order.two_command_buffers_one_submit",
	 .fn = order_two_command_buffers,
	 .spec = ORDER_SPEC},
	{.name = "order.two_submissions_calibrated",
	 .fn = order_two_submissions_calibrated,
	 .spec = "18.5: If VK_EXT_calibrated_timestamps is enabled, this extends to "
		 "timestamp writes across all submissions on the same logical device"},
	{.name = "calibrated.device_domain_brackets_write",
	 .fn = calibrated_device_domain,
	 .spec = "VkTimeDomainKHR: VK_TIME_DOMAIN_DEVICE values use the same units and "
		 "are comparable with device timestamp values captured using "
		 "vkCmdWriteTimestamp"},
	{.name = "properties.timestamp_period_positive",
	 .fn = properties_period_positive,
	 .spec = PERIOD_SPEC},
	{.name = "properties.compute_and_graphics_valid_bits",
	 .fn = properties_compute_and_graphics,
	 .spec = "18.5: If the timestampComputeAndGraphics limit is VK_TRUE, timestamps "
		 "are supported by every queue family that supports either graphics or "
		 "compute operations"},
	{.name = "properties.valid_bits_range",
	 .fn = properties_valid_bits_range,
	 .spec = "VkQueueFamilyProperties: The valid range for the count is 36 to 64 "
		 "bits, or a value of 0, indicating no support for timestamps"},
};

VKQS_AREA(timestamp, cases);
