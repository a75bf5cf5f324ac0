/* vkqs.timestamp.work.*: timestamps around real work - a compute dispatch, each
 * transfer command, on the queues that may record it, from a primary or a
 * secondary - and a copy of timestamp results into a buffer a fill wrote first.
 *
 * 18.5: vkCmdWriteTimestamp "latches the value of the timer when all previous
 * commands have completed executing as far as the specified pipeline stage".
 * Each case writes a timestamp at TOP_OF_PIPE, then (after a full barrier) the
 * work, a timestamp at the work's own stage, and (after another full barrier)
 * one at BOTTOM_OF_PIPE.  A full barrier's first scope holds every earlier
 * command, writes included, and its second scope every later one, so each
 * write happens-after the one before it: the three values are valid (within
 * timestampValidBits) and non-decreasing (ts_expect_series, with wrap).
 * Where the work leaves something the host can read, the case checks that it
 * ran (each dispatch invocation once; the buffer's bytes), so a driver that
 * skipped the work around its timestamps fails too. */
#include "timestamp.h"

#include "shaders/stats_count_comp.h"

#define IMG 64u
/* One R8G8B8A8 image's bytes: buffer-image copies cover the whole image,
 * valid whatever minImageTransferGranularity a transfer family reports
 * ((0,0,0): whole mip levels only). */
#define BUF_BYTES (IMG * IMG * 4u)

enum work_kind {
	W_DISPATCH,
	W_COPY_BUFFER,
	W_FILL_BUFFER,
	W_UPDATE_BUFFER,
	W_COPY_IMAGE,
	W_COPY_BUFFER_TO_IMAGE,
	W_BLIT_IMAGE,
	W_RESOLVE_IMAGE,
	W_CLEAR_COLOR_IMAGE,
	W_COPY_QUERY_POOL_RESULTS,
};

static const char *const work_names[] = {
	"dispatch",        "copy_buffer",  "fill_buffer",  "update_buffer",
	"copy_image",      "copy_buffer_to_image",         "blit_image",
	"resolve_image",   "clear_color_image",            "copy_query_pool_results",
};

/* The queue flags a command's pool needs (each command's -cmdpool VUID):
 * transfer commands on any transfer-capable family (graphics and compute
 * imply it), clears, dispatches and query copies on graphics or compute,
 * blits and resolves on graphics. */
static VkQueueFlags work_queues(enum work_kind k)
{
	switch (k) {
	case W_DISPATCH:
	case W_CLEAR_COLOR_IMAGE:
	case W_COPY_QUERY_POOL_RESULTS: return VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
	case W_BLIT_IMAGE:
	case W_RESOLVE_IMAGE: return VK_QUEUE_GRAPHICS_BIT;
	default: return VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
	}
}

/* The stage the work runs in, where the second timestamp is written. */
static VkPipelineStageFlagBits work_stage(enum work_kind k)
{
	return k == W_DISPATCH ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
			       : VK_PIPELINE_STAGE_TRANSFER_BIT;
}

struct work_param {
	enum work_kind kind;
	enum which_queue which;
	bool secondary; /* the writes and the work in a secondary command buffer */
};

static const struct work_param work_params[] = {
	{W_DISPATCH, QUEUE_GRAPHICS, false},
	{W_DISPATCH, QUEUE_COMPUTE, false},
	{W_COPY_BUFFER, QUEUE_GRAPHICS, false},
	{W_COPY_BUFFER, QUEUE_TRANSFER, false},
	{W_FILL_BUFFER, QUEUE_TRANSFER, false},
	{W_UPDATE_BUFFER, QUEUE_GRAPHICS, false},
	{W_UPDATE_BUFFER, QUEUE_TRANSFER, false},
	{W_COPY_IMAGE, QUEUE_GRAPHICS, false},
	{W_COPY_IMAGE, QUEUE_TRANSFER, false},
	{W_COPY_BUFFER_TO_IMAGE, QUEUE_TRANSFER, false},
	{W_BLIT_IMAGE, QUEUE_GRAPHICS, false},
	{W_RESOLVE_IMAGE, QUEUE_GRAPHICS, false},
	{W_CLEAR_COLOR_IMAGE, QUEUE_GRAPHICS, false},
	{W_CLEAR_COLOR_IMAGE, QUEUE_COMPUTE, false},
	{W_COPY_QUERY_POOL_RESULTS, QUEUE_GRAPHICS, false},
	{W_COPY_QUERY_POOL_RESULTS, QUEUE_COMPUTE, false},
	{W_COPY_BUFFER, QUEUE_TRANSFER, true},
	{W_COPY_IMAGE, QUEUE_TRANSFER, true},
	{W_DISPATCH, QUEUE_COMPUTE, true},
};

static void work_name(const void *param, char *buf, size_t size)
{
	const struct work_param *p = param;
	snprintf(buf, size, "%s_%s%s", work_names[p->kind], queue_params[p->which].name,
		 p->secondary ? "_secondary" : "");
}

/* What the work touches, and what the host checks after it. */
struct work_state {
	struct vkqs_buffer *src, *dst; /* host-visible */
	struct vkqs_compute *comp;
	VkImage img_a, img_b;
	VkQueryPool results_of; /* W_COPY_QUERY_POOL_RESULTS: two written timestamps */
};

static const VkImageSubresourceLayers color_layers = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};

static void to_layout(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
		      VkImageLayout layout)
{
	vkqs_cmd_image_barrier(ctx, cb, img, VK_IMAGE_ASPECT_COLOR_BIT, 1,
			       VK_IMAGE_LAYOUT_UNDEFINED, layout, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
			       VK_PIPELINE_STAGE_TRANSFER_BIT,
			       VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* Objects, and in `setup` (recorded before the first timestamp) their
 * layouts and contents. */
static struct work_state work_prepare(struct vkqs_ctx *ctx, VkCommandBuffer setup,
				      enum work_kind k)
{
	struct work_state w = {0};
	w.src = vkqs_buffer_host(ctx, BUF_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	w.dst = vkqs_buffer_host(ctx, BUF_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	for (uint32_t i = 0; i < BUF_BYTES; i++)
		((uint8_t *)w.src->map)[i] = (uint8_t)(i * 7u + 3u);
	memset(w.dst->map, 0, BUF_BYTES);
	vkqs_buffer_flush(ctx, w.src);
	vkqs_buffer_flush(ctx, w.dst);
	VkSampleCountFlagBits samples =
		k == W_RESOLVE_IMAGE ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
	switch (k) {
	case W_DISPATCH:
		w.comp = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp),
					     w.dst, 0, 0);
		break;
	case W_BLIT_IMAGE: {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, VK_FORMAT_R8G8B8A8_UNORM, &fp);
		VkFormatFeatureFlags need = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
		if ((fp.optimalTilingFeatures & need) != need)
			vkqs_skip(ctx, "R8G8B8A8_UNORM lacks BLIT_SRC / BLIT_DST (optimal tiling)");
	}
		/* fall through */
	case W_COPY_IMAGE:
	case W_RESOLVE_IMAGE:
	case W_COPY_BUFFER_TO_IMAGE:
	case W_CLEAR_COLOR_IMAGE:
		/* the attachment usage makes 4 samples a supported count */
		w.img_a = vkqs_image_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, IMG, IMG, 1, samples,
					    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
						    VK_IMAGE_USAGE_TRANSFER_DST_BIT |
						    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		w.img_b = vkqs_image_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, IMG, IMG, 1,
					    VK_SAMPLE_COUNT_1_BIT,
					    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
						    VK_IMAGE_USAGE_TRANSFER_DST_BIT);
		to_layout(ctx, setup, w.img_a,
			  k == W_CLEAR_COLOR_IMAGE || k == W_COPY_BUFFER_TO_IMAGE
				  ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
				  : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
		to_layout(ctx, setup, w.img_b, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
		break;
	case W_COPY_QUERY_POOL_RESULTS:
		w.results_of = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
		D->vkCmdResetQueryPool(setup, w.results_of, 0, 2);
		D->vkCmdWriteTimestamp(setup, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, w.results_of, 0);
		D->vkCmdWriteTimestamp(setup, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, w.results_of, 1);
		break;
	default: break;
	}
	return w;
}

static void work_record(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct work_state *w,
			enum work_kind k)
{
	VkExtent3D ext = {IMG, IMG, 1};
	switch (k) {
	case W_DISPATCH:
		vkqs_cmd_bind_compute(ctx, cb, w->comp);
		D->vkCmdDispatch(cb, 16, 4, 2); /* 128 groups of 8: 1024 invocations */
		break;
	case W_COPY_BUFFER: {
		VkBufferCopy r = {0, 0, BUF_BYTES};
		D->vkCmdCopyBuffer(cb, w->src->buf, w->dst->buf, 1, &r);
		break;
	}
	case W_FILL_BUFFER:
		D->vkCmdFillBuffer(cb, w->dst->buf, 0, VK_WHOLE_SIZE, 0x5a5a5a5au);
		break;
	case W_UPDATE_BUFFER: /* 16384 bytes: at most 65536, a multiple of 4 */
		D->vkCmdUpdateBuffer(cb, w->dst->buf, 0, BUF_BYTES, w->src->map);
		break;
	case W_COPY_IMAGE: {
		VkImageCopy r = {color_layers, {0, 0, 0}, color_layers, {0, 0, 0}, ext};
		D->vkCmdCopyImage(cb, w->img_a, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, w->img_b,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case W_COPY_BUFFER_TO_IMAGE: {
		VkBufferImageCopy r = {0, 0, 0, color_layers, {0, 0, 0}, ext};
		D->vkCmdCopyBufferToImage(cb, w->src->buf, w->img_a,
					  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case W_BLIT_IMAGE: {
		VkImageBlit r = {color_layers, {{0, 0, 0}, {IMG, IMG, 1}}, color_layers,
				 {{0, 0, 0}, {IMG / 2, IMG / 2, 1}}};
		D->vkCmdBlitImage(cb, w->img_a, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, w->img_b,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_NEAREST);
		break;
	}
	case W_RESOLVE_IMAGE: {
		VkImageResolve r = {color_layers, {0, 0, 0}, color_layers, {0, 0, 0}, ext};
		D->vkCmdResolveImage(cb, w->img_a, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, w->img_b,
				     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case W_CLEAR_COLOR_IMAGE: {
		VkClearColorValue c = {.float32 = {0.25f, 0.5f, 0.75f, 1.0f}};
		VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		D->vkCmdClearColorImage(cb, w->img_a, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1,
					&range);
		break;
	}
	case W_COPY_QUERY_POOL_RESULTS:
		D->vkCmdCopyQueryPoolResults(cb, w->results_of, 0, 2, w->dst->buf, 0, 16,
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
						     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		break;
	}
}

/* What the work left in the host-visible buffer, where it left something. */
static void work_check(struct vkqs_ctx *ctx, const struct work_state *w, enum work_kind k)
{
	vkqs_buffer_invalidate(ctx, w->dst);
	const uint8_t *src = w->src->map, *dst = w->dst->map;
	switch (k) {
	case W_DISPATCH: {
		uint32_t v[BUF_BYTES / 4];
		memcpy(v, dst, sizeof(v));
		for (uint32_t i = 0; i < 1024; i++)
			if (!VKQS_EXPECTF(ctx, v[i] == 1,
					  "the dispatch's invocation %u added 1 to its word once: "
					  "the word is %u", i, v[i]))
				break;
		for (uint32_t i = 1024; i < BUF_BYTES / 4; i++)
			if (!VKQS_EXPECTF(ctx, v[i] == 0,
					  "word %u, past the dispatch's 1024 invocations, is %u", i,
					  v[i]))
				break;
		break;
	}
	case W_COPY_BUFFER:
	case W_UPDATE_BUFFER:
		VKQS_ASSERTF(ctx, memcmp(src, dst, BUF_BYTES) == 0,
			     "the %s destination holds the source's %u bytes", work_names[k],
			     BUF_BYTES);
		break;
	case W_FILL_BUFFER:
		for (uint32_t i = 0; i < BUF_BYTES; i++)
			if (!VKQS_EXPECTF(ctx, dst[i] == 0x5a,
					  "vkCmdFillBuffer: byte %u is 0x%02x, not 0x5a", i, dst[i]))
				break;
		break;
	case W_COPY_QUERY_POOL_RESULTS: {
		uint64_t got[4], ref[4];
		memcpy(got, dst, sizeof(got));
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, w->results_of, 0, 2, sizeof(ref), ref, 16,
							 VK_QUERY_RESULT_64_BIT |
								 VK_QUERY_RESULT_WAIT_BIT |
								 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
		for (uint32_t i = 0; i < 4; i++)
			VKQS_EXPECTF(ctx, got[i] == ref[i],
				     "vkCmdCopyQueryPoolResults word %u (64-bit, WITH_AVAILABILITY) "
				     "is %llu, vkGetQueryPoolResults reads %llu", i,
				     (unsigned long long)got[i], (unsigned long long)ref[i]);
		break;
	}
	default: break; /* images: the timestamps are the check */
	}
}

static void timestamps_around_work(struct vkqs_ctx *ctx, const void *param)
{
	const struct work_param *p = param;
	struct vkqs_queue *q = ts_pick_queue(ctx, &queue_params[p->which]);
	VkQueueFlags f = ctx->vk->info.families[q->family].flags;
	if (!(f & work_queues(p->kind)))
		vkqs_internal_error(ctx, "vkCmd for %s cannot be recorded on the %s queue",
				    work_names[p->kind], queue_params[p->which].name);
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, queue_params[p->which].what)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 3, 0);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, 3);
	struct work_state w = work_prepare(ctx, cb, p->kind);
	VkCommandBuffer rec = cb;
	if (p->secondary)
		rec = vkqs_cmd_begin_secondary(ctx, q, NULL, 0, NULL);
	D->vkCmdWriteTimestamp(rec, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
	vkqs_cmd_full_barrier(ctx, rec);
	work_record(ctx, rec, &w, p->kind);
	D->vkCmdWriteTimestamp(rec, work_stage(p->kind), pool, 1);
	vkqs_cmd_full_barrier(ctx, rec);
	D->vkCmdWriteTimestamp(rec, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
	if (p->secondary) {
		vkqs_cmd_end(ctx, rec);
		D->vkCmdExecuteCommands(cb, 1, &rec);
	}
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, 3, &s);
	ts_expect_series(ctx, &s);
	work_check(ctx, &w, p->kind);
}

/* 18.2: vkCmdCopyQueryPoolResults writes the results into the buffer; a
 * vkCmdFillBuffer of the same bytes before it, ordered by a barrier, must
 * leave nothing behind: every value is the timestamp vkGetQueryPoolResults
 * reads, every availability word non-zero. */
static void fill_then_copy(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct ts_set s = {.bits = ts_queue_bits(ctx, &ctx->vk->gfx, "graphics")};
	const uint32_t n = 4;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct vkqs_buffer *hb = vkqs_buffer_host(ctx, n * 16, 0);
	memset(hb->map, 0, n * 16);
	vkqs_buffer_flush(ctx, hb);
	VkCommandBuffer cb = ts_record_four(ctx, pool);
	D->vkCmdFillBuffer(cb, hb->buf, 0, VK_WHOLE_SIZE, 0xffffffffu);
	VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
			      VK_ACCESS_TRANSFER_WRITE_BIT};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
				1, &mb, 0, NULL, 0, NULL);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, n, hb->buf, 0, 16,
				     TS_FLAGS64 | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, &ctx->vk->gfx, &cb, 1);
	vkqs_buffer_invalidate(ctx, hb);
	uint64_t got[8];
	memcpy(got, hb->map, sizeof(got));
	ts_get64(ctx, pool, n, &s);
	ts_expect_series(ctx, &s);
	for (uint32_t i = 0; i < n; i++) {
		VKQS_EXPECTF(ctx, got[2 * i] == s.v[i],
			     "timestamp %u copied over a buffer filled with 0xff is 0x%llx, "
			     "vkGetQueryPoolResults reads 0x%llx", i,
			     (unsigned long long)got[2 * i], (unsigned long long)s.v[i]);
		VKQS_EXPECTF(ctx, got[2 * i + 1] != 0,
			     "the copied availability word of timestamp %u is 0", i);
	}
}

static const struct vkqs_case cases[] = {
	{.name = "work.around",
	 .fn = timestamps_around_work,
	 .spec = "18.5: the timestamp is written when all previous commands have completed "
		 "executing as far as the stage; writes ordered by full barriers around real "
		 "work are valid and non-decreasing, and the work ran",
	 .params = VKQS_PARAMS(work_params, work_name)},
	{.name = "work.fill_then_copy_query_pool_results",
	 .fn = fill_then_copy,
	 .spec = "18.2: vkCmdCopyQueryPoolResults writes every result and availability word "
		 "over a vkCmdFillBuffer of the same bytes ordered before it"},
};

VKQS_GROUP(timestamp, work, cases);
