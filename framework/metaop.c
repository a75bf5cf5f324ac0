/* Clears, blits, resolves and copies on images and buffers of their own
 * (metaop.h). */
#include "metaop.h"

#include <stdio.h>


#define D (VKQS_D(ctx))
#define META_SIZE 32u

static const struct {
	const char *name, *command;
	bool graphics; /* needs a graphics queue */
} ops[VKQS_META_OP_COUNT] = {
	[VKQS_META_CLEAR_COLOR_IMAGE] = {"clear_color_image", "vkCmdClearColorImage", false},
	[VKQS_META_CLEAR_DEPTH_IMAGE] = {"clear_depth_stencil_image",
					 "vkCmdClearDepthStencilImage", true},
	[VKQS_META_BLIT_IMAGE] = {"blit_image", "vkCmdBlitImage", true},
	[VKQS_META_RESOLVE_IMAGE] = {"resolve_image", "vkCmdResolveImage", true},
	[VKQS_META_COPY_IMAGE] = {"copy_image", "vkCmdCopyImage", false},
	[VKQS_META_COPY_BUFFER_TO_IMAGE] = {"copy_buffer_to_image", "vkCmdCopyBufferToImage",
					    false},
	[VKQS_META_FILL_BUFFER] = {"fill_buffer", "vkCmdFillBuffer", false},
};

const enum vkqs_meta_op vkqs_meta_ops[VKQS_META_OP_COUNT] = {
	VKQS_META_CLEAR_COLOR_IMAGE, VKQS_META_CLEAR_DEPTH_IMAGE, VKQS_META_BLIT_IMAGE,
	VKQS_META_RESOLVE_IMAGE,     VKQS_META_COPY_IMAGE,        VKQS_META_COPY_BUFFER_TO_IMAGE,
	VKQS_META_FILL_BUFFER,
};

void vkqs_meta_op_param_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ops[*(const enum vkqs_meta_op *)param].name);
}

const char *vkqs_meta_op_name(enum vkqs_meta_op op)
{
	return ops[op].name;
}

const char *vkqs_meta_op_command(enum vkqs_meta_op op)
{
	return ops[op].command;
}

bool vkqs_meta_op_on_queue(enum vkqs_meta_op op, VkQueueFlags flags)
{
	return ops[op].graphics ? (flags & VK_QUEUE_GRAPHICS_BIT) != 0
				: (flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) != 0;
}

static void require_features(struct vkqs_ctx *ctx, VkFormat f, VkFormatFeatureFlags want,
			     const char *what)
{
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, f, &fp);
	if ((fp.optimalTilingFeatures & want) != want)
		vkqs_skip(ctx, "%s lacks the optimal-tiling features the command needs", what);
}

/* A META_SIZE square image in TRANSFER_SRC or TRANSFER_DST layout (its
 * contents undefined: a source's values do not matter here). */
static VkImage image_in(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkFormat f,
			VkImageAspectFlags aspect, VkSampleCountFlagBits samples,
			VkImageUsageFlags usage, bool src)
{
	VkImage img = vkqs_image_create(ctx, f, META_SIZE, META_SIZE, 1, samples, usage);
	vkqs_cmd_image_barrier(ctx, cb, img, aspect, 1, VK_IMAGE_LAYOUT_UNDEFINED,
			       src ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
				   : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			       VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
			       src ? VK_ACCESS_TRANSFER_READ_BIT : VK_ACCESS_TRANSFER_WRITE_BIT);
	return img;
}

void vkqs_cmd_meta_op(struct vkqs_ctx *ctx, VkCommandBuffer cb, enum vkqs_meta_op op)
{
	const VkFormat color = VK_FORMAT_R8G8B8A8_UNORM, depth = VK_FORMAT_D16_UNORM;
	const VkImageSubresourceLayers layers = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	const VkImageUsageFlags src_usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
				dst_usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
	const VkOffset3D o = {0, 0, 0};
	const VkExtent3D whole = {META_SIZE, META_SIZE, 1};
	switch (op) {
	case VKQS_META_CLEAR_COLOR_IMAGE: {
		require_features(ctx, color, VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "R8G8B8A8_UNORM");
		VkImage img = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, dst_usage, false);
		VkClearColorValue v = {.float32 = {0.25f, 0.5f, 0.75f, 1.0f}};
		VkImageSubresourceRange r = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		D->vkCmdClearColorImage(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1, &r);
		break;
	}
	case VKQS_META_CLEAR_DEPTH_IMAGE: {
		/* D16_UNORM: a depth attachment format every device has */
		require_features(ctx, depth, VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "D16_UNORM");
		VkImage img = image_in(ctx, cb, depth, VK_IMAGE_ASPECT_DEPTH_BIT,
				       VK_SAMPLE_COUNT_1_BIT,
				       dst_usage | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, false);
		VkClearDepthStencilValue v = {0.5f, 0};
		VkImageSubresourceRange r = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
		D->vkCmdClearDepthStencilImage(cb, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1,
					       &r);
		break;
	}
	case VKQS_META_BLIT_IMAGE: {
		require_features(ctx, color,
				 VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT,
				 "R8G8B8A8_UNORM");
		VkImage src = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, src_usage, true);
		VkImage dst = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, dst_usage, false);
		/* a scaling blit: half the size, linear filter where it is offered */
		VkImageBlit r = {layers,
				 {{0, 0, 0}, {(int32_t)META_SIZE, (int32_t)META_SIZE, 1}},
				 layers,
				 {{0, 0, 0}, {(int32_t)META_SIZE / 2, (int32_t)META_SIZE / 2, 1}}};
		D->vkCmdBlitImage(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_NEAREST);
		break;
	}
	case VKQS_META_RESOLVE_IMAGE: {
		/* 4 samples: framebufferColorSampleCounts includes it everywhere;
		 * the source must be usable as a colour attachment to have them */
		require_features(ctx, color, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT,
				 "R8G8B8A8_UNORM");
		VkImage src = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_4_BIT,
				       src_usage | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, true);
		VkImage dst = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, dst_usage, false);
		VkImageResolve r = {layers, o, layers, o, whole};
		D->vkCmdResolveImage(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case VKQS_META_COPY_IMAGE: {
		require_features(ctx, color,
				 VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT,
				 "R8G8B8A8_UNORM");
		VkImage src = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, src_usage, true);
		VkImage dst = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, dst_usage, false);
		VkImageCopy r = {layers, o, layers, o, whole};
		D->vkCmdCopyImage(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case VKQS_META_COPY_BUFFER_TO_IMAGE: {
		require_features(ctx, color, VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "R8G8B8A8_UNORM");
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, (VkDeviceSize)META_SIZE * META_SIZE * 4,
							   VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
		D->vkCmdFillBuffer(cb, b->buf, 0, VK_WHOLE_SIZE, 0x3c3c3c3c);
		VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL,
				      VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
		D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
					VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
		VkImage dst = image_in(ctx, cb, color, VK_IMAGE_ASPECT_COLOR_BIT,
				       VK_SAMPLE_COUNT_1_BIT, dst_usage, false);
		VkBufferImageCopy r = {0, 0, 0, layers, o, whole};
		D->vkCmdCopyBufferToImage(cb, b->buf, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
					  &r);
		break;
	}
	case VKQS_META_FILL_BUFFER:
	default: {
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, 65536, 0);
		D->vkCmdFillBuffer(cb, b->buf, 0, VK_WHOLE_SIZE, 0x5a5a5a5a);
		break;
	}
	}
}
