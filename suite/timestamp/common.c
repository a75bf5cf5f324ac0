/* Timestamp area: the helpers its groups share (declared in timestamp.h). */
#include "timestamp.h"

/* VUID-vkCmdWriteTimestamp-timestampValidBits-00829: a family reporting 0
 * valid bits cannot write timestamps at all. */
uint32_t ts_queue_bits(struct vkqs_ctx *ctx, const struct vkqs_queue *q,
			   const char *what)
{
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	if (bits == 0)
		vkqs_skip(ctx, "the %s queue family %u reports timestampValidBits 0: "
			       "it does not support timestamps",
			  what, q->family);
	return bits;
}

void ts_expect_after(struct vkqs_ctx *ctx, const struct ts_set *s, uint32_t i,
			 uint32_t j)
{
	char a[32], b[32];
	snprintf(a, sizeof(a), "timestamp %u", i);
	snprintf(b, sizeof(b), "timestamp %u", j);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, a, s->v[i], b, s->v[j], s->bits, s->host_ns);
}

void ts_expect_all_valid(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	for (uint32_t i = 0; i < s->n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "timestamp %u", i);
		VKQS_TS_EXPECT_VALID(ctx, what, s->v[i], s->bits);
	}
}

/* Every value valid, each one not before the one it happens-after. */
void ts_expect_series(struct vkqs_ctx *ctx, const struct ts_set *s)
{
	ts_expect_all_valid(ctx, s);
	for (uint32_t i = 1; i < s->n; i++)
		ts_expect_after(ctx, s, i - 1, i);
}

void ts_get64(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t n, struct ts_set *s)
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
void ts_reset_for(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkCommandBuffer cb,
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

void ts_draw_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_target *t, const struct vkqs_pipeline *p)
{
	vkqs_target_begin(ctx, cb, t, 1.0f);
	vkqs_draw_rect(ctx, cb, p, t, 0, 0, (float)t->width, (float)t->height, 0.5f);
	vkqs_target_end(ctx, cb);
}

/* One write: vkCmdWriteTimestamp2 (synchronization2) or the 1.0 command;
 * every VkPipelineStageFlagBits has the same value in VkPipelineStageFlags2. */
void ts_write_ts(struct vkqs_ctx *ctx, VkCommandBuffer cb, bool sync2,
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
void ts_work_step(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t i,
		      const struct work *w)
{
	vkqs_cmd_full_barrier(ctx, cb);
	uint32_t k = w->t ? i / 2 : i;
	if (w->t && i % 2) {
		ts_draw_pass(ctx, cb, w->t, w->p);
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
void ts_record_writes(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n, const VkPipelineStageFlags2 *stages,
			  uint32_t nstages, bool sync2, const struct work *w)
{
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0)
			ts_work_step(ctx, cb, i, w);
		ts_write_ts(ctx, cb, sync2, stages[i % nstages], pool, first + i);
	}
}

void ts_record_series(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			  uint32_t first, uint32_t n,
			  const VkPipelineStageFlagBits *stages, uint32_t nstages,
			  const struct work *w)
{
	VkPipelineStageFlags2 s2[TS_MAX];
	for (uint32_t i = 0; i < nstages && i < TS_MAX; i++)
		s2[i] = stages[i];
	ts_record_writes(ctx, cb, pool, first, n, s2, nstages, false, w);
}

/* Six writes at one stage outside any render pass, separated by a render
 * pass that draws or by a fill (and, with synchronization2, a copy), each
 * after a full barrier. */
void ts_series_outside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				       bool sync2)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	const uint32_t n = 6;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
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
	ts_record_writes(ctx, cb, pool, 0, n, &stage, 1, sync2, &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, n, &s);
	ts_expect_series(ctx, &s);
}

/* Writes inside one subpass around draws.  vkCmdPipelineBarrier inside a
 * render pass needs a subpass self-dependency, which the target's render
 * pass lacks, so the writes inside are not ordered among themselves (on
 * tilers they need not be: bug class 27).  Each is ordered after a write
 * before the pass (full barrier, then the EXTERNAL->0 dependency at
 * ALL_COMMANDS) and before a write after it (the 0->EXTERNAL dependency,
 * then a full barrier). */
void ts_series_inside_render_pass(struct vkqs_ctx *ctx, VkPipelineStageFlags2 stage,
				      bool sync2)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	const uint32_t n = 5, last = n - 1;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct vkqs_target *t = vkqs_target_create(ctx, TARGET_SIZE, TARGET_SIZE,
						   VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *pl = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	const float wf = (float)t->width, hf = (float)t->height;

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, n);
	ts_write_ts(ctx, cb, sync2, stage, pool, 0);
	vkqs_cmd_full_barrier(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	ts_write_ts(ctx, cb, sync2, stage, pool, 1);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	ts_write_ts(ctx, cb, sync2, stage, pool, 2);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf, hf, 0.5f);
	vkqs_draw_rect(ctx, cb, pl, t, 0, 0, wf / 2, hf / 2, 0.25f);
	ts_write_ts(ctx, cb, sync2, stage, pool, 3);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_full_barrier(ctx, cb);
	ts_write_ts(ctx, cb, sync2, stage, pool, last);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, n, &s);

	ts_expect_all_valid(ctx, &s);
	for (uint32_t i = 1; i < last; i++) {
		ts_expect_after(ctx, &s, 0, i);
		ts_expect_after(ctx, &s, i, last);
	}
	ts_expect_after(ctx, &s, 0, last);
}

/* stage2.* -----------------------------------------------------------------*/

/* vkCmdWriteTimestamp2 needs the synchronization2 feature
 * (VUID-vkCmdWriteTimestamp2-synchronization2-03858), core in Vulkan 1.3. */
void ts_require_sync2(struct vkqs_ctx *ctx)
{
	if (!ctx->vk->has_13 || !ctx->vk->f13.synchronization2 || !D->vkCmdWriteTimestamp2)
		vkqs_skip(ctx, "feature synchronization2 (Vulkan 1.3) is not supported: "
			       "vkCmdWriteTimestamp2 needs it");
}

void ts_queue_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct queue_param *)param)->name);
}

struct vkqs_queue *ts_pick_queue(struct vkqs_ctx *ctx, const struct queue_param *p)
{
	struct vkqs_queue *q = p->which == QUEUE_GRAPHICS  ? &ctx->vk->gfx
			       : p->which == QUEUE_COMPUTE ? &ctx->vk->compute
							   : &ctx->vk->transfer;
	return vkqs_require_queue(ctx, q, p->what);
}

/* result_width.* and copy.* -------------------------------------------------*/

/* Four writes alternating BOTTOM and TOP with fills between, on the graphics
 * queue; returns the command buffer still recording. */
VkCommandBuffer ts_record_four(struct vkqs_ctx *ctx, VkQueryPool pool)
{
	static const VkPipelineStageFlagBits stages[] = {
		VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
	};
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 4);
	ts_record_series(ctx, cb, pool, 0, 4, stages, VKQS_ARRAY_LEN(stages), &w);
	return cb;
}

/* Copies the four values with vkCmdCopyQueryPoolResults (WAIT, so the copy
 * waits for the writes recorded before it, spec 18.2) into a buffer preset
 * to a sentinel, at the given width. */
void ts_copy_four(struct vkqs_ctx *ctx, bool is64, struct ts_set *s, void *out)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	size_t elem = is64 ? 8 : 4;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct vkqs_buffer *hb = vkqs_buffer_host(ctx, 4 * elem, 0);
	memset(hb->map, 0xa5, 4 * elem);
	vkqs_buffer_flush(ctx, hb);
	VkCommandBuffer cb = ts_record_four(ctx, pool);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, 4, hb->buf, 0, elem,
				     is64 ? TS_FLAGS64 : VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	s->host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	vkqs_buffer_invalidate(ctx, hb);
	memcpy(out, hb->map, 4 * elem);
	ts_get64(ctx, pool, 4, s);
}

bool ts_has_calibrated(const struct vkqs_ctx *ctx)
{
	return ctx->vk->get_calibrated_timestamps != NULL;
}

/* The arrays timestamp.h declares (no definitions in headers). */
const struct stage2_param stages2_outside[STAGES2_OUTSIDE_COUNT] = {
	STAGES2_GRAPHICS
	{"compute_shader", VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, Q_C, NULL},
	{"all_transfer", VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, Q_GCT, NULL},
	{"copy", VK_PIPELINE_STAGE_2_COPY_BIT, Q_GCT, NULL},
	{"resolve", VK_PIPELINE_STAGE_2_RESOLVE_BIT, Q_GCT, NULL},
	{"blit", VK_PIPELINE_STAGE_2_BLIT_BIT, Q_GCT, NULL},
	{"clear", VK_PIPELINE_STAGE_2_CLEAR_BIT, Q_GCT, NULL},
	STAGES2_SPANNING
};

const struct queue_param queue_params[QUEUE_PARAMS_COUNT] = {
	{"graphics", QUEUE_GRAPHICS, "graphics"},
	{"compute", QUEUE_COMPUTE, "compute-only"},
	{"transfer", QUEUE_TRANSFER, "transfer-only"},
};
