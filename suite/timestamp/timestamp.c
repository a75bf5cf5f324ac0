/* Timestamp queries (spec 18.5): ordering of writes that happen-after one
 * another (vkCmdWriteTimestamp and vkCmdWriteTimestamp2, every stage, on
 * every queue, across submissions and queues with calibrated timestamps),
 * the valid bits and wrap, timestampPeriod against the host clock, 32-bit
 * against 64-bit results, the copy path, calibrated timestamps (device and
 * host domains, maxDeviation, rate) and the limits that describe timestamp
 * support. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tscheck.h"
#include "vkqs.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define TS_MAX 32
#define TS_FLAGS64 (VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)
/* Work between two writes: large enough to take measurable time on any
 * device, small enough for a CPU driver. */
#define WORK_FILL_SIZE (1u << 20)
#define DURATION_FILL_SIZE (64ull << 20)
#define DURATION_FILLS 8
#define TARGET_SIZE 64

struct ts_set {
	uint64_t v[TS_MAX];
	uint32_t n;
	uint32_t bits;    /* timestampValidBits of the queue that wrote them */
	uint64_t host_ns; /* from before vkQueueSubmit to after the fence wait */
};

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

static void expect_after(struct vkqs_ctx *ctx, const struct ts_set *s, uint32_t i,
			 uint32_t j)
{
	char a[32], b[32];
	snprintf(a, sizeof(a), "timestamp %u", i);
	snprintf(b, sizeof(b), "timestamp %u", j);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, a, s->v[i], b, s->v[j], s->bits, s->host_ns);
}

static void expect_all_valid(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "timestamp %u", i);
		VKQS_TS_EXPECT_VALID(ctx, what, s->v[i], s->bits);
	}
}

/* Every value valid, each one not before the one it happens-after. */
static void expect_series(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	expect_all_valid(ctx, s);
	for (uint32_t i = 1; i < s->n; i++)
		expect_after(ctx, s, i - 1, i);
}

/* Timestamps 0 and 1 were written within s->host_ns, so the device interval
 * between them, converted with timestampPeriod ("the number of nanoseconds
 * it takes for a timestamp value to be incremented by 1", 18.5), cannot
 * exceed the host interval beyond the clock-rate tolerance and one period
 * of truncation at each end.  Returns the device interval in ns, its ticks
 * in *ticks; `around` ends the message. */
static double expect_within_host(struct vkqs_ctx *ctx, const struct ts_set *s,
				 const char *around, uint64_t *ticks)
{
	double period = ctx->vk->props.limits.timestampPeriod;
	*ticks = vkqs_ts_forward(s->v[0], s->v[1], s->bits);
	double dev_ns = (double)*ticks * period;
	double bound = (double)s->host_ns * (1.0 + VKQS_TS_CLOCK_TOL) + 2.0 * period;
	VKQS_EXPECTF(ctx, dev_ns <= bound,
		"expected device interval %.0f ns (%" PRIu64 " ticks x timestampPeriod %g; "
		"t0 %" PRIu64 ", t1 %" PRIu64 ") <= host interval %" PRIu64
		" ns x (1 + %g) + 2 periods = %.0f ns%s",
		dev_ns, *ticks, period, s->v[0], s->v[1], s->host_ns, VKQS_TS_CLOCK_TOL, bound,
		around);
	return dev_ns;
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
	struct vkqs_buffer *copy_dst; /* when set, buf is copied here in turn with fills */
};

static void draw_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_target *t, const struct vkqs_pipeline *p)
{
	vkqs_target_begin(ctx, cb, t, 1.0f);
	vkqs_draw_rect(ctx, cb, p, t, 0, 0, (float)t->width, (float)t->height, 0.5f);
	vkqs_target_end(ctx, cb);
}

/* One write: vkCmdWriteTimestamp2 (synchronization2) or the 1.0 command;
 * every VkPipelineStageFlagBits has the same value in VkPipelineStageFlags2. */
static void write_ts(struct vkqs_ctx *ctx, VkCommandBuffer cb, bool sync2,
		     VkPipelineStageFlags2 stage, VkQueryPool pool, uint32_t query)
{
	if (sync2)
		D->vkCmdWriteTimestamp2(cb, stage, pool, query);
	else
		D->vkCmdWriteTimestamp(cb, (VkPipelineStageFlagBits)stage, pool, query);
}

/* Work between full barriers before write i: a render pass that draws on
 * odd steps when the work has a target, else a fill, or (when the work has
 * a copy destination) a fill and a buffer copy in turn. */
static void work_step(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t i,
		      const struct work *w)
{
	vkqs_cmd_full_barrier(ctx, cb);
	uint32_t k = w->t ? i / 2 : i;
	if (w->t && i % 2) {
		draw_pass(ctx, cb, w->t, w->p);
	} else if (w->copy_dst && k % 2) {
		VkBufferCopy region = {.size = w->buf->size};
		D->vkCmdCopyBuffer(cb, w->buf->buf, w->copy_dst->buf, 1, &region);
	} else {
		D->vkCmdFillBuffer(cb, w->buf->buf, 0, VK_WHOLE_SIZE, i);
	}
	vkqs_cmd_full_barrier(ctx, cb);
}

/* Writes queries first..first+n-1 at stages[i % nstages], with work between
 * full barriers before every write but the first.  The barrier's first
 * scope holds every earlier command (the previous write included) and its
 * second scope every later one at ALL_COMMANDS, so each write happens-after
 * the one before it. */
static void record_writes(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n, const VkPipelineStageFlags2 *stages,
			  uint32_t nstages, bool sync2, const struct work *w)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0)
			work_step(ctx, cb, i, w);
		write_ts(ctx, cb, sync2, stages[i % nstages], pool, first + i);
	}
}

static void record_series(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n,
			  const VkPipelineStageFlagBits *stages, uint32_t nstages,
			  const struct work *w)
{
	VkPipelineStageFlags2 s2[TS_MAX];
	for (uint32_t i = 0; i < nstages && i < TS_MAX; i++)
		s2[i] = stages[i];
	record_writes(ctx, cb, pool, first, n, s2, nstages, false, w);
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
 * pass that draws or by a fill (and, with synchronization2, a copy), each
 * after a full barrier. */
static void series_outside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				       bool sync2)
{
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
		.copy_dst = sync2 ? vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0) : NULL,
	};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, n);
	record_writes(ctx, cb, pool, 0, n, &stage, 1, sync2, &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);
	expect_series(ctx, &s);
}

static void stage_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	series_outside_render_pass(ctx, ((const struct stage_param *)param)->stage, false);
}

/* Writes inside one subpass around draws.  vkCmdPipelineBarrier inside a
 * render pass needs a subpass self-dependency, which the target's render
 * pass lacks, so the writes inside are not ordered among themselves (on
 * tilers they need not be: bug class 27).  Each is ordered after a write
 * before the pass (full barrier, then the EXTERNAL->0 dependency at
 * ALL_COMMANDS) and before a write after it (the 0->EXTERNAL dependency,
 * then a full barrier). */
static void series_inside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				      bool sync2)
{
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
	write_ts(ctx, cb, sync2, stage, pool, 0);
	vkqs_cmd_full_barrier(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	write_ts(ctx, cb, sync2, stage, pool, 1);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	write_ts(ctx, cb, sync2, stage, pool, 2);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf / 2, hf / 2, 0.25f);
	write_ts(ctx, cb, sync2, stage, pool, 3);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_full_barrier(ctx, cb);
	write_ts(ctx, cb, sync2, stage, pool, last);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);

	expect_all_valid(ctx, &s);
	for (uint32_t i = 1; i < last; i++) {
		expect_after(ctx, &s, 0, i);
		expect_after(ctx, &s, i, last);
	}
	expect_after(ctx, &s, 0, last);
}

static void stage_inside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	series_inside_render_pass(ctx, ((const struct stage_param *)param)->stage, false);
}

/* stage2.* -----------------------------------------------------------------*/

/* vkCmdWriteTimestamp2 needs the synchronization2 feature
 * (VUID-vkCmdWriteTimestamp2-synchronization2-03858), core in Vulkan 1.3. */
static void require_sync2(struct vkqs_ctx *ctx)
{
	if (!ctx->vk->has_13 || !ctx->vk->f13.synchronization2 || !D->vkCmdWriteTimestamp2)
		vkqs_skip(ctx, "feature synchronization2 (Vulkan 1.3) is not supported: "
			       "vkCmdWriteTimestamp2 needs it");
}

#define Q_G VK_QUEUE_GRAPHICS_BIT
#define Q_C VK_QUEUE_COMPUTE_BIT
#define Q_GC (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)
#define Q_GCT (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT)

struct stage2_param {
	const char *name;
	VkPipelineStageFlags2 stage;
	VkQueueFlags queues; /* 0: every family; else a family with one of these */
	const char *feature; /* the feature the stage needs, or NULL */
};

/* The rows both tables share: the stages of the graphics pipeline from
 * top_of_pipe to all_graphics, and the two that span every stage. */
#define STAGES2_GRAPHICS \
	{"top_of_pipe", VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, 0, NULL}, \
	{"draw_indirect", VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, Q_GC, NULL}, \
	{"index_input", VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, Q_G, NULL}, \
	{"vertex_attribute_input", VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, Q_G, NULL}, \
	{"vertex_input", VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT, Q_G, NULL}, \
	{"vertex_shader", VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, Q_G, NULL}, \
	{"tessellation_control_shader", VK_PIPELINE_STAGE_2_TESSELLATION_CONTROL_SHADER_BIT, \
	 Q_G, "tessellationShader"}, \
	{"tessellation_evaluation_shader", \
	 VK_PIPELINE_STAGE_2_TESSELLATION_EVALUATION_SHADER_BIT, Q_G, "tessellationShader"}, \
	{"geometry_shader", VK_PIPELINE_STAGE_2_GEOMETRY_SHADER_BIT, Q_G, "geometryShader"}, \
	{"pre_rasterization_shaders", VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT, Q_G, \
	 NULL}, \
	{"early_fragment_tests", VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT, Q_G, NULL}, \
	{"fragment_shader", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, Q_G, NULL}, \
	{"late_fragment_tests", VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT, Q_G, NULL}, \
	{"color_attachment_output", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, Q_G, NULL}, \
	{"all_graphics", VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT, Q_G, NULL},
#define STAGES2_SPANNING \
	{"bottom_of_pipe", VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, 0, NULL}, \
	{"all_commands", VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, NULL},

/* Every single stage vkCmdWriteTimestamp2 accepts on a graphics queue,
 * with the families that support it (the spec's table of supported
 * pipeline stage flags; VUID-vkCmdWriteTimestamp2-stage-03860) and the
 * feature it needs (VUID-vkCmdWriteTimestamp2-stage-03929/03930).  Left out:
 * NONE, which is no stage at all (VUID-vkCmdWriteTimestamp2-stage-03859:
 * "stage must only include a single pipeline stage"), and HOST, "a
 * pseudo-stage indicating execution on the host ... not invoked by any
 * commands recorded in a command buffer", so no place in a queue's
 * execution for a device write. */
static const struct stage2_param stages2_outside[] = {
	STAGES2_GRAPHICS
	{"compute_shader", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, Q_C, NULL},
	{"all_transfer", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, Q_GCT, NULL},
	{"copy", VK_PIPELINE_STAGE_2_COPY_BIT, Q_GCT, NULL},
	{"resolve", VK_PIPELINE_STAGE_2_RESOLVE_BIT, Q_GCT, NULL},
	{"blit", VK_PIPELINE_STAGE_2_BLIT_BIT, Q_GCT, NULL},
	{"clear", VK_PIPELINE_STAGE_2_CLEAR_BIT, Q_GCT, NULL},
	STAGES2_SPANNING
};

/* The stages of the graphics pipeline, and the three that span every
 * stage, written between draws inside a subpass. */
static const struct stage2_param stages2_inside[] = {
	STAGES2_GRAPHICS
	STAGES2_SPANNING
};

static void stage2_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct stage2_param *)param)->name);
}

/* Whether the family may write at the stage: graphics and compute families
 * support transfer operations whether or not they report TRANSFER_BIT
 * (VkQueueFlagBits). */
static bool stage2_usable(const struct vkqs_ctx *ctx, uint32_t family,
			  const struct stage2_param *p)
{
	VkQueueFlags f = ctx->vk->info.families[family].flags;
	if (f & Q_GC)
		f |= VK_QUEUE_TRANSFER_BIT;
	if (p->queues && !(p->queues & f))
		return false;
	return !p->feature || vkqs_device_feature(&ctx->vk->info, p->feature);
}

static void stage2_require(struct vkqs_ctx *ctx, const struct stage2_param *p)
{
	require_sync2(ctx);
	if (p->feature)
		vkqs_require_feature(ctx, p->feature);
}

static void stage2_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage2_param *p = param;
	stage2_require(ctx, p);
	series_outside_render_pass(ctx, p->stage, true);
}

static void stage2_inside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage2_param *p = param;
	stage2_require(ctx, p);
	series_inside_render_pass(ctx, p->stage, true);
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
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);
	expect_series(ctx, &s);
}

/* The series of valid_bits.queue written with vkCmdWriteTimestamp2 at every
 * stage the queue's family supports, in turn, with fills and copies
 * between: each value within the family's timestampValidBits, each not
 * before the one it happens-after, whatever stage either was written at. */
static void valid_bits_queue_sync2(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	require_sync2(ctx);
	struct vkqs_queue *q = pick_queue(ctx, p);
	struct ts_set s = {.bits = queue_bits(ctx, q, p->what)};
	VkPipelineStageFlags2 stages[TS_MAX];
	uint32_t ns = 0;
	for (size_t i = 0; i < VKQS_ARRAY_LEN(stages2_outside) && ns < TS_MAX; i++)
		if (stage2_usable(ctx, q->family, &stages2_outside[i]))
			stages[ns++] = stages2_outside[i].stage;
	const uint32_t n = ns < 4 ? 4 : ns;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {
		.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0),
		.copy_dst = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0),
	};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	reset_for(ctx, q, cb, pool, n);
	record_writes(ctx, cb, pool, 0, n, stages, ns, true, &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, n, &s);
	expect_series(ctx, &s);
}

/* duration.period_vs_host ---------------------------------------------------*/

/* Host interval the adaptive workload aims for, and the most fills it may
 * grow to (64 MiB each: 256 GiB written, ~0.1 s at 3 TB/s). */
#define PERIOD_TARGET_NS (20ull * 1000 * 1000)
#define PERIOD_MAX_FILLS 4096u
/* The device interval below 1/PERIOD_LOW_RATIO of the device-dominated
 * host interval is a QualityWarning (see duration_period_vs_host). */
#define PERIOD_LOW_RATIO 100.0

/* The least host time of three submissions of an empty command buffer: what
 * a submission costs the host without device work. */
static uint64_t empty_round_trip(struct vkqs_ctx *ctx, struct vkqs_queue *q)
{
	uint64_t best = UINT64_MAX;
	for (int k = 0; k < 3; k++) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
		vkqs_cmd_end(ctx, cb);
		uint64_t h = vkqs_submit_timed(ctx, q, &cb, 1);
		best = h < best ? h : best;
	}
	return best;
}

/* timestampPeriod against the host clock on each queue, without calibrated
 * timestamps.  A TOP_OF_PIPE write, a full barrier, fills of 64 MiB between
 * full barriers, a BOTTOM_OF_PIPE write: the barrier after the first write
 * has it in its first scope, so the fills happen-after it and the second
 * write after them, and both lie within the host interval around the
 * submission.  The number of fills grows until that interval reaches 20 ms.
 *
 * Upper bound (Fail): the device interval D = ticks x timestampPeriod
 * cannot exceed the host interval H beyond the clock-rate tolerance and
 * one period of truncation at each end (as duration.fill_vs_host_clock).
 *
 * Lower bound (QualityWarning only): the spec gives none, since the device
 * may run the fills faster than the host sees them complete.  But once the
 * host interval less the round trip of an empty submission (W = H - E) is
 * at least half of H, W is mostly time the device spent on the fills, and D
 * under W/100 says the counter runs 100 times slower than timestampPeriod
 * claims: a period in the wrong unit (ns against us, bug class 18) or stamps
 * that do not advance with work (bug class 16).  This catches factors of
 * 100 and more; a period 41.667 times too small (the MoltenVK value the
 * other way round) needs the upper bound's direction, D > H, which the
 * Fail check catches.  A device clock legitimately faster than the host's
 * view of the work (a software device modelling a faster one) stays within
 * the factor of 100. */
static void duration_period_vs_host(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct vkqs_queue *q = pick_queue(ctx, p);
	struct ts_set s = {.bits = queue_bits(ctx, q, p->what)};
	uint64_t empty_ns = empty_round_trip(ctx, q);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, DURATION_FILL_SIZE, 0);

	uint32_t fills = 1;
	for (;;) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
		reset_for(ctx, q, cb, pool, 2);
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
		for (uint32_t k = 0; k < fills; k++) {
			vkqs_cmd_full_barrier(ctx, cb);
			D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 0x01010101u * (k + 1));
		}
		vkqs_cmd_full_barrier(ctx, cb);
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
		vkqs_cmd_end(ctx, cb);
		s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
		get64(ctx, pool, 2, &s);
		if (s.host_ns >= PERIOD_TARGET_NS || fills >= PERIOD_MAX_FILLS)
			break;
		double scale = 1.5 * (double)PERIOD_TARGET_NS / (double)(s.host_ns + 1);
		scale = scale < 2.0 ? 2.0 : scale > 16.0 ? 16.0 : scale;
		double next = (double)fills * scale;
		fills = next > PERIOD_MAX_FILLS ? PERIOD_MAX_FILLS : (uint32_t)next;
	}
	expect_series(ctx, &s);

	char around[48];
	snprintf(around, sizeof(around), " around %u fills of 64 MiB", fills);
	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t ticks;
	double dev_ns = expect_within_host(ctx, &s, around, &ticks);
	uint64_t work_ns = s.host_ns > empty_ns ? s.host_ns - empty_ns : 0;
	bool dominated = s.host_ns >= PERIOD_TARGET_NS && 2 * work_ns >= s.host_ns;
	if (dominated && dev_ns < (double)work_ns / PERIOD_LOW_RATIO)
		vkqs_quality_warning(ctx,
				     "device interval %.0f ns (%" PRIu64 " ticks x timestampPeriod "
				     "%g) is under 1/%g of the %" PRIu64 " ns the host waited "
				     "for %u fills of 64 MiB beyond an empty submission's %" PRIu64
				     " ns: the counter runs far slower than timestampPeriod says",
				     dev_ns, ticks, period, PERIOD_LOW_RATIO, work_ns, fills,
				     empty_ns);
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
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	get64(ctx, pool, 2, &s);
	expect_series(ctx, &s);

	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t ticks;
	double dev_ns = expect_within_host(ctx, &s, "", &ticks);
	if (s.host_ns > 1000000 && (ticks == 0 || dev_ns < (double)s.host_ns / 1000))
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
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
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
	s->host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
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
	s.host_ns = vkqs_submit_timed(ctx, q, cbs, 2);
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
	vkqs_submit_timed(ctx, q, &cb0, 1);
	vkqs_submit_timed(ctx, q, &cb1, 1);
	s.host_ns = vkqs_now_ns() - t0;
	get64(ctx, pool, 4, &s);
	expect_series(ctx, &s);
}

struct q2q_param {
	const char *name;
	enum which_queue from, to; /* index queue_params */
};

static const struct q2q_param q2q_params[] = {
	{"graphics_to_transfer", QUEUE_GRAPHICS, QUEUE_TRANSFER},
	{"transfer_to_graphics", QUEUE_TRANSFER, QUEUE_GRAPHICS},
	{"graphics_to_compute", QUEUE_GRAPHICS, QUEUE_COMPUTE},
	{"compute_to_graphics", QUEUE_COMPUTE, QUEUE_GRAPHICS},
};

static void q2q_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct q2q_param *)param)->name);
}

/* order.two_submissions_calibrated from one queue to another: two writes on
 * the first queue, fence wait, two on the second.  The second submission
 * happens-after the first as there, and with calibrated timestamps 18.5's
 * rule covers "all submissions on the same logical device", whatever
 * queue.  Every family writes in the one device time domain ("Timestamps
 * written by this command must be in the VK_TIME_DOMAIN_DEVICE_EXT time
 * domain") keeping its low timestampValidBits and wrapping to zero there,
 * so values of two families compare modulo 2^(the smaller count).  Without
 * the extension the spec orders nothing across submissions (bug class 21:
 * per-engine clocks), so the case is NotSupported. */
static void order_queue_to_queue(struct vkqs_ctx *ctx, const void *param)
{
	const struct q2q_param *p = param;
	if (!has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported: the spec "
			       "orders timestamps only within one submission");
	const struct queue_param *pa = &queue_params[p->from], *pb = &queue_params[p->to];
	struct vkqs_queue *qa = pick_queue(ctx, pa), *qb = pick_queue(ctx, pb);
	uint32_t bits_a = queue_bits(ctx, qa, pa->what), bits_b = queue_bits(ctx, qb, pb->what);
	uint32_t bits = bits_a < bits_b ? bits_a : bits_b;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb0 = vkqs_cmd_begin(ctx, qa);
	reset_for(ctx, qa, cb0, pool, 4);
	record_series(ctx, cb0, pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cb0);
	VkCommandBuffer cb1 = vkqs_cmd_begin(ctx, qb);
	record_series(ctx, cb1, pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cb1);
	uint64_t t0 = vkqs_now_ns();
	vkqs_submit_timed(ctx, qa, &cb0, 1);
	vkqs_submit_timed(ctx, qb, &cb1, 1);
	uint64_t host_ns = vkqs_now_ns() - t0;
	struct ts_set s = {0};
	get64(ctx, pool, 4, &s);

	static const char *what[4] = {"first-queue timestamp 0", "first-queue timestamp 1",
				      "second-queue timestamp 2", "second-queue timestamp 3"};
	for (uint32_t i = 0; i < 4; i++)
		VKQS_TS_EXPECT_VALID(ctx, what[i], s.v[i], i < 2 ? bits_a : bits_b);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[0], s.v[0], what[1], s.v[1], bits_a, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[2], s.v[2], what[3], s.v[3], bits_b, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[1], s.v[1], what[2], s.v[2], bits, host_ns);
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
	vkqs_submit_timed(ctx, q, &cb, 1);
	VKQS_CHECK(ctx, get_fn(DEV, 1, &info, &after, &deviation));
	uint64_t host_ns = vkqs_now_ns() - h0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(dev), &dev,
						 sizeof(dev), TS_FLAGS64));

	VKQS_TS_EXPECT_VALID(ctx, "the written timestamp", dev, bits);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the device-domain sample before vkQueueSubmit", before,
				  "the written timestamp", dev, bits, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the written timestamp", dev,
				  "the device-domain sample after the fence wait", after, bits,
				  host_ns);
}

/* The calibrated-timestamp entry points and the domains the device lists;
 * ends the case as NotSupported without either extension. */
struct calib {
	PFN_vkGetCalibratedTimestampsKHR get;
	VkTimeDomainKHR domains[16];
	uint32_t n;
};

static void calib_require(struct vkqs_ctx *ctx, struct calib *c)
{
	if (!has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR fn =
		ctx->vk->get_calibrateable_time_domains;
	c->get = ctx->vk->get_calibrated_timestamps;
	if (!fn || !c->get)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");
	c->n = VKQS_ARRAY_LEN(c->domains);
	VkResult r = fn(ctx->vk->phys, &c->n, c->domains);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		VKQS_CHECK(ctx, r);
}

static const char *domain_name(VkTimeDomainKHR d)
{
	switch (d) {
	case VK_TIME_DOMAIN_DEVICE_EXT: return "DEVICE";
	case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT: return "CLOCK_MONOTONIC";
	case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT: return "CLOCK_MONOTONIC_RAW";
	case VK_TIME_DOMAIN_QUERY_PERFORMANCE_COUNTER_EXT: return "QUERY_PERFORMANCE_COUNTER";
	default: return "?";
	}
}

/* VUID-VkCalibratedTimestampInfoKHR-timeDomain-02354: only listed domains. */
static void calib_require_domain(struct vkqs_ctx *ctx, const struct calib *c,
				 VkTimeDomainKHR d)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->domains[i] == d)
			return;
	vkqs_skip(ctx, "VK_TIME_DOMAIN_%s is not a calibrateable time domain of the device",
		  domain_name(d));
}

static bool calib_has(const struct calib *c, VkTimeDomainKHR d)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->domains[i] == d)
			return true;
	return false;
}

/* One vkGetCalibratedTimestamps call over n distinct domains
 * (VUID-vkGetCalibratedTimestampsKHR-timeDomain-09246).  Every call's
 * deviation must be "the strictly positive maximum deviation, in
 * nanoseconds, of the calibrated timestamp values". */
static void calib_get(struct vkqs_ctx *ctx, const struct calib *c, const VkTimeDomainKHR *doms,
		      uint32_t n, uint64_t *ts, uint64_t *deviation)
{
	VkCalibratedTimestampInfoKHR info[4];
	for (uint32_t i = 0; i < n && i < 4; i++)
		info[i] = (VkCalibratedTimestampInfoKHR){
			.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
			.timeDomain = doms[i],
		};
	*deviation = 0;
	VKQS_CHECK(ctx, c->get(DEV, n, info, ts, deviation));
	VKQS_EXPECTF(ctx, *deviation > 0,
		"expected vkGetCalibratedTimestamps to return a strictly positive "
		"maxDeviation, got 0");
}

/* Device-domain values wrap no later than the narrowest family's counter:
 * every family writes in the device domain (18.5) keeping its low
 * timestampValidBits and wrapping to zero there, and the domain's values
 * "are comparable with device timestamp values captured using
 * vkCmdWriteTimestamp".  Comparing two of them modulo 2^(the smallest
 * non-zero count) is right whatever width the domain itself has, and loses
 * nothing: the intervals here are far below 2^32 ticks (the least count
 * seen, on a family that breaks properties.valid_bits_range). */
static uint32_t device_domain_bits(const struct vkqs_ctx *ctx)
{
	uint32_t bits = 64;
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		uint32_t b = ctx->vk->info.families[i].timestamp_valid_bits;
		if (b && b < bits)
			bits = b;
	}
	return bits;
}

/* The POSIX clock a host domain names: "comparable with platform timestamp
 * values captured using the POSIX clock_gettime API" (VkTimeDomainKHR). */
static uint64_t domain_clock_ns(VkTimeDomainKHR d)
{
	struct timespec ts;
	clock_gettime(d == VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT ? CLOCK_MONOTONIC_RAW
								  : CLOCK_MONOTONIC,
		      &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	uint64_t end = vkqs_now_ns() + ns;
	for (uint64_t now; (now = vkqs_now_ns()) < end;) {
		struct timespec ts = {
			.tv_sec = (time_t)((end - now) / 1000000000ull),
			.tv_nsec = (long)((end - now) % 1000000000ull),
		};
		if (nanosleep(&ts, NULL) != 0 && errno != EINTR)
			break;
	}
}

struct domain_param {
	const char *name;
	VkTimeDomainKHR domain;
};

static const struct domain_param host_domains[] = {
	{"clock_monotonic", VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	{"clock_monotonic_raw", VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT},
};

static const struct domain_param all_domains[] = {
	{"device", VK_TIME_DOMAIN_DEVICE_EXT},
	{"clock_monotonic", VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	{"clock_monotonic_raw", VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT},
};

static void domain_param_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct domain_param *)param)->name);
}

/* calibrated.device_domain_brackets_write on each queue with four writes
 * (BOTTOM and TOP in turn, work between full barriers): a device-domain
 * sample before vkQueueSubmit, the series in order, a sample after the
 * fence wait.  The samples are device-domain values like the writes
 * (VkTimeDomainKHR: "comparable with device timestamp values captured using
 * vkCmdWriteTimestamp"), so the first write cannot precede the first sample
 * nor the last follow the second (bug class 19: calibrated and written
 * clocks with different epochs; bug class 21 on the other queues). */
static void calibrated_brackets_writes(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, VK_TIME_DOMAIN_DEVICE_EXT);
	struct vkqs_queue *q = pick_queue(ctx, p);
	const uint32_t n = 4;
	struct ts_set s = {.bits = queue_bits(ctx, q, p->what)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	reset_for(ctx, q, cb, pool, n);
	record_series(ctx, cb, pool, 0, n, bottom_top, VKQS_ARRAY_LEN(bottom_top), &w);
	vkqs_cmd_end(ctx, cb);

	const VkTimeDomainKHR dd = VK_TIME_DOMAIN_DEVICE_EXT;
	uint64_t before, after, deviation;
	uint64_t h0 = vkqs_now_ns();
	calib_get(ctx, &c, &dd, 1, &before, &deviation);
	vkqs_submit_timed(ctx, q, &cb, 1);
	calib_get(ctx, &c, &dd, 1, &after, &deviation);
	s.host_ns = vkqs_now_ns() - h0;
	get64(ctx, pool, n, &s);

	expect_series(ctx, &s);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the device-domain sample before vkQueueSubmit", before,
				  "timestamp 0", s.v[0], s.bits, s.host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the last timestamp", s.v[n - 1],
				  "the device-domain sample after the fence wait", after, s.bits,
				  s.host_ns);
}

/* A host-domain value against clock_gettime of that clock read just before
 * and just after the call.  The domain's values are the clock's own
 * (VkTimeDomainKHR: "comparable with platform timestamp values captured
 * using the POSIX clock_gettime API"), and the call samples every domain at
 * one instant within maxDeviation ("the maximum deviation, in nanoseconds,
 * of the calibrated timestamp values"), an instant inside the call.  So a
 * value beyond [before - maxDeviation, after + maxDeviation] is no reading
 * of that clock during the call: Fail.  One outside [before, after] but
 * within the deviation was not read during the call (derived from another
 * clock, or cached): legal by the letter, poor for calibration, a
 * QualityWarning.  The device domain is sampled in the same call when
 * listed, so the multi-domain path is the one checked. */
static void calibrated_host_domain(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, p->domain);
	VkTimeDomainKHR doms[2] = {p->domain, VK_TIME_DOMAIN_DEVICE_EXT};
	uint32_t nd = calib_has(&c, VK_TIME_DOMAIN_DEVICE_EXT) ? 2 : 1;
	bool warned = false;
	for (int k = 0; k < 4; k++) {
		uint64_t ts[2], dev;
		uint64_t before = domain_clock_ns(p->domain);
		calib_get(ctx, &c, doms, nd, ts, &dev);
		uint64_t after = domain_clock_ns(p->domain);
		uint64_t v = ts[0];
		bool inside = v >= before && v <= after;
		bool near = v + dev >= before && v <= after + dev;
		VKQS_EXPECTF(ctx, near,
			"expected the %s sample %" PRIu64 " to lie within clock_gettime readings "
			"%" PRIu64 " before and %" PRIu64 " after the call, widened by "
			"maxDeviation %" PRIu64 " ns",
			p->name, v, before, after, dev);
		if (near && !inside && !warned) {
			vkqs_quality_warning(ctx,
					     "the %s sample %" PRIu64 " lies outside the call "
					     "(clock_gettime %" PRIu64 " before, %" PRIu64
					     " after), within maxDeviation %" PRIu64 " ns",
					     p->name, v, before, after, dev);
			warned = true;
		}
	}
}

struct dset_param {
	const char *name;
	VkTimeDomainKHR d[2];
	uint32_t n;
};

static const struct dset_param dsets[] = {
	{"device", {VK_TIME_DOMAIN_DEVICE_EXT}, 1},
	{"device_clock_monotonic",
	 {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}, 2},
	{"device_clock_monotonic_raw",
	 {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT}, 2},
};

static void dset_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct dset_param *)param)->name);
}

/* CTS's maxDeviation ladder (cts_queries.md 2.9, vktPipelineTimestampTests
 * .cpp:924-927, 1293-1305): over 100 ms fails, over 50 ms warns. */
#define DEVIATION_FAIL_NS (100ull * 1000 * 1000)
#define DEVIATION_WARN_NS (50ull * 1000 * 1000)

/* maxDeviation is "strictly positive" on every call (calib_get checks
 * each), and small enough to calibrate with.  The spec sets no bound and
 * says a call may be repeated for a lower deviation, so the least of eight
 * calls is judged, on CTS's ladder: a device that cannot sample its clocks
 * within 100 ms of one another on any of eight tries has calibrated
 * timestamps in name only. */
static void calibrated_max_deviation(struct vkqs_ctx *ctx, const void *param)
{
	const struct dset_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	for (uint32_t i = 0; i < p->n; i++)
		calib_require_domain(ctx, &c, p->d[i]);
	uint64_t best = UINT64_MAX;
	for (int k = 0; k < 8; k++) {
		uint64_t ts[2], dev;
		calib_get(ctx, &c, p->d, p->n, ts, &dev);
		best = dev < best ? dev : best;
	}
	VKQS_EXPECTF(ctx, best <= DEVIATION_FAIL_NS,
		"expected the least maxDeviation of 8 calls over %s to be <= %llu ns, got %" PRIu64,
		p->name, (unsigned long long)DEVIATION_FAIL_NS, best);
	if (best > DEVIATION_WARN_NS && best <= DEVIATION_FAIL_NS)
		vkqs_quality_warning(ctx, "the least maxDeviation of 8 calls over %s is %" PRIu64
				     " ns, over %llu ns",
				     p->name, best, (unsigned long long)DEVIATION_WARN_NS);
}

/* Sixteen consecutive samples of one domain never go backwards.  Device
 * domain: its values are "incrementing according to the timestampPeriod of
 * the device" (VkTimeDomainKHR), so a lower later value is only a wrap that
 * fits in the host interval around the calls (as VKQS_TS_EXPECT_NOT_BEFORE).
 * Host domains: CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW never decrease (POSIX),
 * and the domain's values are that clock's. */
static void calibrated_non_decreasing(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, p->domain);
	uint64_t v[16], dev;
	uint64_t h0 = vkqs_now_ns();
	for (int k = 0; k < 16; k++)
		calib_get(ctx, &c, &p->domain, 1, &v[k], &dev);
	uint64_t host_ns = vkqs_now_ns() - h0;
	bool device = p->domain == VK_TIME_DOMAIN_DEVICE_EXT;
	for (int k = 1; k < 16; k++) {
		char a[48], b[48];
		snprintf(a, sizeof(a), "%s sample %d", p->name, k - 1);
		snprintf(b, sizeof(b), "%s sample %d", p->name, k);
		if (device)
			VKQS_TS_EXPECT_NOT_BEFORE(ctx, a, v[k - 1], b, v[k],
						  device_domain_bits(ctx), host_ns);
		else
			VKQS_EXPECTF(ctx, v[k] >= v[k - 1],
				"expected %s (%" PRIu64 ") >= %s (%" PRIu64 ")", b, v[k], a,
				v[k - 1]);
	}
}

/* The pair (device, host) with the least deviation of four calls. */
struct calib_pair {
	uint64_t dev_ts, host_ts, deviation;
};

static struct calib_pair best_pair(struct vkqs_ctx *ctx, const struct calib *c,
				   VkTimeDomainKHR host)
{
	const VkTimeDomainKHR doms[2] = {VK_TIME_DOMAIN_DEVICE_EXT, host};
	struct calib_pair best = {.deviation = UINT64_MAX};
	for (int k = 0; k < 4; k++) {
		uint64_t ts[2], dev;
		calib_get(ctx, c, doms, 2, ts, &dev);
		if (dev < best.deviation)
			best = (struct calib_pair){ts[0], ts[1], dev};
	}
	return best;
}

#define RATE_SLEEP_NS (20ull * 1000 * 1000)

/* Two (device, host) pairs 20 ms of host sleep apart relate the clocks.
 * Each pair's values lie within its maxDeviation of one instant, so the
 * device advance converted with timestampPeriod ("the number of
 * nanoseconds required for a timestamp query to be incremented by 1"; the
 * device domain is "incrementing according to the timestampPeriod of the
 * device") must equal the host advance H within the two deviations, the
 * clock-rate tolerance of H (VKQS_TS_CLOCK_TOL) and a period of truncation at
 * each end.  A device domain going backwards (beyond a wrap that fits) is
 * a Fail.  Disagreement otherwise is a QualityWarning for now: it is the
 * check that catches a timestampPeriod wrong by any factor (bug class 18,
 * both directions) and a device clock that stands still while the host
 * waits. */
static void calibrated_rate_vs_host(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, VK_TIME_DOMAIN_DEVICE_EXT);
	calib_require_domain(ctx, &c, p->domain);
	struct calib_pair a = best_pair(ctx, &c, p->domain);
	sleep_ns(RATE_SLEEP_NS);
	struct calib_pair b = best_pair(ctx, &c, p->domain);

	VKQS_ASSERTF(ctx, b.host_ts > a.host_ts,
		"expected the %s sample after 20 ms of sleep (%" PRIu64 ") to exceed the one "
		"before (%" PRIu64 ")",
		p->name, b.host_ts, a.host_ts);
	uint64_t host_ns = b.host_ts - a.host_ts;
	uint32_t bits = device_domain_bits(ctx);
	uint64_t fwd = vkqs_ts_forward(a.dev_ts, b.dev_ts, bits);
	uint64_t slack = a.deviation + b.deviation;
	bool backwards = !vkqs_ts_not_before(ctx, a.dev_ts, b.dev_ts, bits, host_ns + slack);
	VKQS_EXPECTF(ctx, !backwards,
		"expected the device domain not to go backwards over %" PRIu64 " ns of %s: "
		"%" PRIu64 " then %" PRIu64,
		host_ns, p->name, a.dev_ts, b.dev_ts);
	if (backwards)
		return;
	double period = ctx->vk->props.limits.timestampPeriod;
	double dev_ns = (double)fwd * period;
	double tol = (double)slack + VKQS_TS_CLOCK_TOL * (double)host_ns + 2.0 * period;
	if (fabs(dev_ns - (double)host_ns) > tol)
		vkqs_quality_warning(ctx,
				     "the device domain advanced %.0f ns (%" PRIu64 " ticks x "
				     "timestampPeriod %g) while %s advanced %" PRIu64
				     " ns; they should agree within %.0f ns (maxDeviation %" PRIu64
				     " + %" PRIu64 " ns, %g of the interval, 2 periods)",
				     dev_ns, fwd, period, p->name, host_ns, tol, a.deviation,
				     b.deviation, VKQS_TS_CLOCK_TOL);
}

/* vkGetPhysicalDeviceCalibrateableTimeDomainsKHR's array protocol: the count
 * alone; the full list (no domain twice, since a calibration samples each
 * once); and a short array, which gets "at most pTimeDomainCount values"
 * of the list, VK_INCOMPLETE, the count of values written, and nothing
 * past it. */
static void calibrated_time_domains_enumeration(struct vkqs_ctx *ctx, const void *param)
{
	if (!has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR fn =
		ctx->vk->get_calibrateable_time_domains;
	if (!fn)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");
	const VkTimeDomainKHR guard = (VkTimeDomainKHR)0x7ffffffe;
	uint32_t total = 0;
	VKQS_CHECK(ctx, fn(ctx->vk->phys, &total, NULL));
	VKQS_ASSERTF(ctx, total <= 32, "implausible time domain count %u", total);

	VkTimeDomainKHR all[34];
	for (uint32_t i = 0; i < VKQS_ARRAY_LEN(all); i++)
		all[i] = guard;
	uint32_t n = total + 1;
	VKQS_CHECK(ctx, fn(ctx->vk->phys, &n, all));
	VKQS_EXPECT_EQ(ctx, n, total);
	VKQS_EXPECTF(ctx, all[total] == guard,
		"expected the array element past the %u domains to stay untouched", total);
	for (uint32_t i = 0; i < total && i < n; i++)
		for (uint32_t j = 0; j < i; j++)
			VKQS_EXPECTF(ctx, all[i] != all[j],
				"expected each time domain once, got %d at %u and %u",
				(int)all[i], j, i);
	if (total == 0)
		return;

	VkTimeDomainKHR some[34];
	for (uint32_t i = 0; i < VKQS_ARRAY_LEN(some); i++)
		some[i] = guard;
	n = total - 1;
	VKQS_EXPECT_VK(ctx, fn(ctx->vk->phys, &n, some), VK_INCOMPLETE);
	VKQS_EXPECTF(ctx, n <= total - 1,
		"expected at most %u domains written to a short array, count says %u",
		total - 1, n);
	for (uint32_t i = 0; i < total - 1 && i < n; i++) {
		bool listed = false;
		for (uint32_t j = 0; j < total; j++)
			listed |= some[i] == all[j];
		VKQS_EXPECTF(ctx, listed, "expected short-array entry %u (%d) to be in the list",
			     i, (int)some[i]);
	}
	VKQS_EXPECTF(ctx, some[total - 1] == guard,
		"expected the element past a short array of %u to stay untouched", total - 1);
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

#define ORDER_SPEC_TAIL                                                        \
	"Any timestamp write that happens-after another timestamp write "       \
	"in the same submission must not have a lower value unless its value "  \
	"overflows the maximum supported integer bit width of the query"
#define ORDER_SPEC "18.5: " ORDER_SPEC_TAIL
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
	{.name = "stage2.outside_render_pass",
	 .fn = stage2_outside_render_pass,
	 .spec = "18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(stages2_outside, stage2_name)},
	{.name = "stage2.inside_render_pass",
	 .fn = stage2_inside_render_pass,
	 .spec = "18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(stages2_inside, stage2_name)},
	{.name = "valid_bits.queue",
	 .fn = valid_bits_queue,
	 .spec = "VkQueueFamilyProperties: timestampValidBits is the unsigned integer "
		 "count of meaningful bits in the timestamps written via "
		 "vkCmdWriteTimestamp; bits outside the valid range are guaranteed to "
		 "be zeros",
	 .params = VKQS_PARAMS(queue_params, queue_name)},
	{.name = "valid_bits.queue_sync2",
	 .fn = valid_bits_queue_sync2,
	 .spec = "VkQueueFamilyProperties: bits outside the valid range are guaranteed "
		 "to be zeros; 18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(queue_params, queue_name)},
	{.name = "duration.fill_vs_host_clock",
	 .fn = duration_fill_vs_host_clock,
	 .spec = PERIOD_SPEC},
	{.name = "duration.period_vs_host",
	 .fn = duration_period_vs_host,
	 .spec = PERIOD_SPEC,
	 .params = VKQS_PARAMS(queue_params, queue_name)},
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
	{.name = "order.queue_to_queue_calibrated",
	 .fn = order_queue_to_queue,
	 .spec = "18.5: If VK_EXT_calibrated_timestamps is enabled, this extends to "
		 "timestamp writes across all submissions on the same logical device",
	 .params = VKQS_PARAMS(q2q_params, q2q_name)},
	{.name = "calibrated.device_domain_brackets_write",
	 .fn = calibrated_device_domain,
	 .spec = "VkTimeDomainKHR: VK_TIME_DOMAIN_DEVICE values use the same units and "
		 "are comparable with device timestamp values captured using "
		 "vkCmdWriteTimestamp"},
	{.name = "calibrated.device_domain_brackets_writes",
	 .fn = calibrated_brackets_writes,
	 .spec = "VkTimeDomainKHR: VK_TIME_DOMAIN_DEVICE values use the same units and "
		 "are comparable with device timestamp values captured using "
		 "vkCmdWriteTimestamp",
	 .params = VKQS_PARAMS(queue_params, queue_name)},
	{.name = "calibrated.host_domain_brackets_clock_gettime",
	 .fn = calibrated_host_domain,
	 .spec = "VkTimeDomainKHR: CLOCK_MONOTONIC / CLOCK_MONOTONIC_RAW values are "
		 "comparable with platform timestamp values captured using the POSIX "
		 "clock_gettime API",
	 .params = VKQS_PARAMS(host_domains, domain_param_name)},
	{.name = "calibrated.max_deviation",
	 .fn = calibrated_max_deviation,
	 .spec = "vkGetCalibratedTimestampsKHR: pMaxDeviation returns the strictly "
		 "positive maximum deviation, in nanoseconds, of the calibrated timestamp "
		 "values (bound: CTS's 100 ms / 50 ms ladder)",
	 .params = VKQS_PARAMS(dsets, dset_name)},
	{.name = "calibrated.non_decreasing",
	 .fn = calibrated_non_decreasing,
	 .spec = "VkTimeDomainKHR: device-domain values are incrementing according to "
		 "the timestampPeriod of the device; host domains are clock_gettime values",
	 .params = VKQS_PARAMS(all_domains, domain_param_name)},
	{.name = "calibrated.rate_vs_host",
	 .fn = calibrated_rate_vs_host,
	 .spec = "VkTimeDomainKHR: device-domain values are incrementing according to "
		 "the timestampPeriod of the device; timestampPeriod is the number of "
		 "nanoseconds required for a timestamp query to be incremented by 1",
	 .params = VKQS_PARAMS(host_domains, domain_param_name)},
	{.name = "calibrated.time_domains_enumeration",
	 .fn = calibrated_time_domains_enumeration,
	 .spec = "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR: at most "
		 "pTimeDomainCount values are written and VK_INCOMPLETE is returned "
		 "when the array is too small"},
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
