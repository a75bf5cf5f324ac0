/* vkqs.occlusion.transfer.*: transfer commands recorded inside a query add no samples. */
#include "occlusion.h"

/* A precise query holds a render pass instance with one draw and then,
 * outside the instance, one transfer command.  Transfers produce no
 * samples, but 18.2 allows "clears, MSAA resolves, attachment load/store
 * operations, and blits" (and such rendering operations generally) to
 * count, implementation-dependently: the draw's exact count is the lower
 * bound and more is CompatibilityWarning (expect_draws_plus_clears). */
enum xfer_kind {
	XFER_COPY_IMAGE,
	XFER_BLIT_IMAGE,
	XFER_RESOLVE_IMAGE,
	XFER_COPY_BUFFER,
	XFER_FILL_BUFFER,
	XFER_COPY_IMAGE_TO_BUFFER,
};

static const char *const xfer_names[] = {"copy_image", "blit_image", "resolve_image",
					 "copy_buffer", "fill_buffer", "copy_image_to_buffer"};

static const char *const xfer_commands[] = {
	"vkCmdCopyImage", "vkCmdBlitImage", "vkCmdResolveImage",
	"vkCmdCopyBuffer", "vkCmdFillBuffer", "vkCmdCopyImageToBuffer"};

struct xfer_param {
	enum xfer_kind kind;
	VkSampleCountFlagBits samples; /* blits and image-to-buffer copies need 1 */
};

static const struct xfer_param xfer_params[] = {
	{XFER_COPY_IMAGE, VK_SAMPLE_COUNT_4_BIT},  {XFER_BLIT_IMAGE, VK_SAMPLE_COUNT_1_BIT},
	{XFER_RESOLVE_IMAGE, VK_SAMPLE_COUNT_4_BIT}, {XFER_COPY_BUFFER, VK_SAMPLE_COUNT_4_BIT},
	{XFER_FILL_BUFFER, VK_SAMPLE_COUNT_4_BIT}, {XFER_COPY_IMAGE_TO_BUFFER, VK_SAMPLE_COUNT_1_BIT},
};

static void xfer_name(const void *param, char *buf, size_t size)
{
	const struct xfer_param *p = param;
	snprintf(buf, size, "%s_samples_%u", xfer_names[p->kind], (unsigned)p->samples);
}

/* The target's colour attachment (final layout COLOR_ATTACHMENT_OPTIMAL)
 * as a transfer source. */
static void color_to_transfer_src(struct vkqs_ctx *ctx, const struct occ *o)
{
	vkqs_cmd_image_barrier(ctx, o->cb, o->t->color, VK_IMAGE_ASPECT_COLOR_BIT, 1,
			       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
			       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
			       VK_ACCESS_TRANSFER_READ_BIT);
}

/* A new colour image of the target's format as a transfer destination. */
static VkImage transfer_dst_image(struct vkqs_ctx *ctx, const struct occ *o, uint32_t size,
				  VkSampleCountFlagBits samples, VkImageUsageFlags usage)
{
	VkImage img = vkqs_image_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, size, size, 1, samples,
					usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	occ_to_transfer_dst(ctx, o->cb, img, VK_IMAGE_ASPECT_COLOR_BIT);
	return img;
}

static void record_transfer(struct vkqs_ctx *ctx, const struct occ *o, enum xfer_kind kind)
{
	const VkImageSubresourceLayers color = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	switch (kind) {
	case XFER_COPY_IMAGE: {
		/* vkCmdCopyImage: same sample count on both sides; the
		 * attachment usage makes 4 samples a supported count. */
		VkImage dst = transfer_dst_image(ctx, o, FB, o->t->samples,
						 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		color_to_transfer_src(ctx, o);
		VkImageCopy r = {color, {0, 0, 0}, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdCopyImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case XFER_BLIT_IMAGE: {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, VK_FORMAT_R8G8B8A8_UNORM, &fp);
		if ((fp.optimalTilingFeatures &
		     (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT)) !=
		    (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT))
			vkqs_skip(ctx, "R8G8B8A8_UNORM lacks BLIT_SRC / BLIT_DST (optimal tiling)");
		VkImage dst = transfer_dst_image(ctx, o, FB / 2, VK_SAMPLE_COUNT_1_BIT, 0);
		color_to_transfer_src(ctx, o);
		VkImageBlit r = {color, {{0, 0, 0}, {FB, FB, 1}}, color,
				 {{0, 0, 0}, {FB / 2, FB / 2, 1}}};
		D->vkCmdBlitImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_NEAREST);
		break;
	}
	case XFER_RESOLVE_IMAGE: {
		VkImage dst = transfer_dst_image(ctx, o, FB, VK_SAMPLE_COUNT_1_BIT, 0);
		color_to_transfer_src(ctx, o);
		VkImageResolve r = {color, {0, 0, 0}, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdResolveImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case XFER_COPY_BUFFER: {
		struct vkqs_buffer *src = vkqs_buffer_device(ctx, 4096, 0);
		struct vkqs_buffer *dst = vkqs_buffer_device(ctx, 4096, 0);
		VkBufferCopy r = {0, 0, 4096};
		D->vkCmdCopyBuffer(o->cb, src->buf, dst->buf, 1, &r);
		break;
	}
	case XFER_FILL_BUFFER: {
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, 0);
		D->vkCmdFillBuffer(o->cb, b->buf, 0, VK_WHOLE_SIZE, 0x5a5a5a5a);
		break;
	}
	case XFER_COPY_IMAGE_TO_BUFFER:
	default: {
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, (VkDeviceSize)FB * FB * 4, 0);
		color_to_transfer_src(ctx, o);
		VkBufferImageCopy r = {0, 0, 0, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdCopyImageToBuffer(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
					  b->buf, 1, &r);
		break;
	}
	}
}

static void transfer_inside_query(struct vkqs_ctx *ctx, const void *param)
{
	const struct xfer_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
	char what[160];
	snprintf(what, sizeof(what), "%s or the render pass instance's load/store operations",
		 xfer_commands[p->kind]);

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	record_transfer(ctx, &o, p->kind);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	/* in scope: the instance's load and store operations, the transfer */
	occ_expect_draws_plus_clears(ctx, &o, res[0], occ_area(clear_draw) * p->samples, 3, what);
}

static const struct vkqs_case cases[] = {
	{.name = "transfer.inside_query",
	 .fn = transfer_inside_query,
	 .spec = CLEARS_SPEC " (a transfer command between vkCmdEndRenderPass and "
			     "vkCmdEndQuery)",
	 .params = VKQS_PARAMS(xfer_params, xfer_name)},
};

VKQS_GROUP(occlusion, transfer, cases);
