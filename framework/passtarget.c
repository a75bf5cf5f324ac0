#include "passtarget.h"

#include <stdio.h>

#include "vkqs.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

void vkqs_pass_kind_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", vkqs_pass_kind_tokens[*(const enum vkqs_pass_kind *)param]);
}

void vkqs_pass_views_name(const void *param, char *buf, size_t size)
{
	const struct vkqs_pass_views *p = param;
	snprintf(buf, size, "%s_mask_0x%x", vkqs_pass_kind_tokens[p->kind], p->mask);
}

const char *const vkqs_pass_kind_tokens[3] = {"render_pass", "render_pass2",
					      "dynamic_rendering"};

/* Layers a view mask needs: the highest set bit's index + 1. */
static uint32_t mask_layers(uint32_t m)
{
	return m ? 32u - (uint32_t)__builtin_clz(m) : 1u;
}

static VkImageAspectFlags depth_aspects(VkFormat f)
{
	return VK_IMAGE_ASPECT_DEPTH_BIT |
	       (vkqs_format_has_stencil(f) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
}

/* NotSupported unless the device can run a render pass instance of this
 * kind (multiview: with `layers` views). */
static void pass_require(struct vkqs_ctx *ctx, enum vkqs_pass_kind kind, bool multiview,
			 uint32_t layers)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (kind == VKQS_PASS_DYN && !(ctx->vk->has_13 && ctx->vk->f13.dynamicRendering))
		vkqs_skip(ctx, "feature dynamicRendering (Vulkan 1.3) is not supported");
	if (!multiview)
		return;
	vkqs_require_feature(ctx, "multiview");
	VkPhysicalDeviceMultiviewProperties mp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
		.pNext = &mp,
	};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	/* VUID-VkSubpassDescription2-viewMask-06706 and
	 * VUID-VkRenderingInfo-viewMask-06128: view indices below
	 * maxMultiviewViewCount (at least 6 where multiview is supported). */
	if (mp.maxMultiviewViewCount < layers)
		vkqs_skip(ctx, "maxMultiviewViewCount %u < %u views",
			  mp.maxMultiviewViewCount, layers);
}

/* A 2D array view of all layers: VUID-VkFramebufferCreateInfo-renderPass-04536
 * and the VkRenderingInfo equivalent want layerCount above the highest view
 * index. */
static VkImageView pass_view(struct vkqs_ctx *ctx, VkImage img, VkFormat format,
			   VkImageAspectFlags aspect, uint32_t layers)
{
	return vkqs_image_view(ctx, img, VK_IMAGE_VIEW_TYPE_2D_ARRAY, format, aspect, layers);
}

/* Load CLEAR, store STORE, UNDEFINED -> attachment-optimal (vkutil's). */
static VkAttachmentDescription pass_attachment(const struct vkqs_pass_target *t, bool depth)
{
	return vkqs_attachment_desc(depth ? t->depth_format : t->color_format, t->samples,
				    depth);
}

/* vkCreateRenderPass: view masks through VkRenderPassMultiviewCreateInfo
 * (no view offsets: every dependency then has offset 0, and none is
 * VIEW_LOCAL). */
static VkRenderPass pass_render_pass1(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t)
{
	VkAttachmentDescription att[2] = {pass_attachment(t, false), pass_attachment(t, true)};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub[VKQS_PASS_MAX_SUBPASSES];
	for (uint32_t s = 0; s < t->subpass_count; s++)
		sub[s] = (VkSubpassDescription){
			.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
			.colorAttachmentCount = 1,
			.pColorAttachments = &cref,
			.pDepthStencilAttachment = t->has_depth ? &dref : NULL,
		};
	/* Earlier work before the instance, the instance before later work (a
	 * timestamp after the pass, copies), each subpass after the one
	 * before, as vkutil's target. */
	VkSubpassDependency deps[VKQS_PASS_MAX_SUBPASSES + 1];
	uint32_t ndeps = vkqs_subpass_dependencies(t->subpass_count, deps);
	VkRenderPassMultiviewCreateInfo mv = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
		.subpassCount = t->subpass_count,
		.pViewMasks = t->view_masks,
	};
	VkRenderPassCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.pNext = t->view_masks[0] ? &mv : NULL,
		.attachmentCount = t->has_depth ? 2 : 1,
		.pAttachments = att,
		.subpassCount = t->subpass_count,
		.pSubpasses = sub,
		.dependencyCount = ndeps,
		.pDependencies = deps,
	};
	VkRenderPass rp;
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &ci, NULL, &rp));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, rp);
	return rp;
}

/* vkCreateRenderPass2: the same render pass with viewMask per subpass. */
static VkRenderPass pass_render_pass2(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t)
{
	VkAttachmentDescription2 att[2];
	for (int i = 0; i < 2; i++) {
		VkAttachmentDescription a = pass_attachment(t, i == 1);
		att[i] = (VkAttachmentDescription2){
			.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2,
			.format = a.format,
			.samples = a.samples,
			.loadOp = a.loadOp,
			.storeOp = a.storeOp,
			.stencilLoadOp = a.stencilLoadOp,
			.stencilStoreOp = a.stencilStoreOp,
			.initialLayout = a.initialLayout,
			.finalLayout = a.finalLayout,
		};
	}
	VkAttachmentReference2 cref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 0,
		.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
	};
	VkAttachmentReference2 dref = {
		.sType = VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2,
		.attachment = 1,
		.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
	};
	VkSubpassDescription2 sub[VKQS_PASS_MAX_SUBPASSES];
	for (uint32_t s = 0; s < t->subpass_count; s++)
		sub[s] = (VkSubpassDescription2){
			.sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2,
			.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
			.viewMask = t->view_masks[s],
			.colorAttachmentCount = 1,
			.pColorAttachments = &cref,
			.pDepthStencilAttachment = t->has_depth ? &dref : NULL,
		};
	VkSubpassDependency d1[VKQS_PASS_MAX_SUBPASSES + 1];
	VkSubpassDependency2 deps[VKQS_PASS_MAX_SUBPASSES + 1];
	uint32_t ndeps = vkqs_subpass_dependencies(t->subpass_count, d1);
	for (uint32_t i = 0; i < ndeps; i++)
		deps[i] = (VkSubpassDependency2){
			.sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2,
			.srcSubpass = d1[i].srcSubpass,
			.dstSubpass = d1[i].dstSubpass,
			.srcStageMask = d1[i].srcStageMask,
			.dstStageMask = d1[i].dstStageMask,
			.srcAccessMask = d1[i].srcAccessMask,
			.dstAccessMask = d1[i].dstAccessMask,
		};
	VkRenderPassCreateInfo2 ci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
		.attachmentCount = t->has_depth ? 2 : 1,
		.pAttachments = att,
		.subpassCount = t->subpass_count,
		.pSubpasses = sub,
		.dependencyCount = ndeps,
		.pDependencies = deps,
	};
	VkRenderPass rp;
	VKQS_CHECK(ctx, D->vkCreateRenderPass2(DEV, &ci, NULL, &rp));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, rp);
	return rp;
}

/* A t->size x t->size multiview target: colour R8G8B8A8_UNORM (and depth) 2D arrays
 * with a layer per view index, and for the render pass kinds a render pass
 * of `subpasses` subpasses with those view masks and its framebuffer. */
struct vkqs_pass_target *vkqs_pass_target_create(struct vkqs_ctx *ctx, enum vkqs_pass_kind kind,
						  uint32_t size,
					  VkSampleCountFlagBits samples, bool depth,
					  uint32_t subpasses, const uint32_t *masks)
{
	struct vkqs_pass_target *t = vkqs_alloc(ctx, sizeof(*t)); /* zeroed */
	t->kind = kind;
	t->size = size;
	t->samples = samples;
	t->has_depth = depth;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	t->depth_format = ctx->vk->depth_format;
	t->subpass_count = subpasses;
	t->layers = 1;
	for (uint32_t s = 0; s < subpasses; s++) {
		t->view_masks[s] = masks[s];
		uint32_t l = mask_layers(masks[s]);
		t->layers = l > t->layers ? l : t->layers;
	}
	bool multiview = false;
	for (uint32_t s = 0; s < subpasses; s++)
		multiview |= masks[s] != 0;
	pass_require(ctx, kind, multiview, t->layers);
	const VkPhysicalDeviceLimits *lim = &ctx->vk->props.limits;
	if (!(lim->framebufferColorSampleCounts & samples))
		vkqs_skip(ctx, "framebufferColorSampleCounts lacks %u samples", samples);
	if (depth && !(lim->framebufferDepthSampleCounts & samples))
		vkqs_skip(ctx, "framebufferDepthSampleCounts lacks %u samples", samples);

	t->color = vkqs_image_create(ctx, t->color_format, t->size, t->size, t->layers, samples,
				     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
	t->color_view = pass_view(ctx, t->color, t->color_format, VK_IMAGE_ASPECT_COLOR_BIT,
				t->layers);
	if (depth) {
		t->depth = vkqs_image_create(ctx, t->depth_format, t->size, t->size, t->layers, samples,
					     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
		t->depth_view = pass_view(ctx, t->depth, t->depth_format,
					depth_aspects(t->depth_format), t->layers);
	}
	if (kind == VKQS_PASS_DYN)
		return t;

	t->render_pass = kind == VKQS_PASS_RP1 ? pass_render_pass1(ctx, t) : pass_render_pass2(ctx, t);
	/* One layer: VUID-VkFramebufferCreateInfo-renderPass-02531 with view
	 * masks. */
	VkImageView views[2] = {t->color_view, t->depth_view};
	t->framebuffer = vkqs_framebuffer_create(ctx, t->render_pass, views, depth ? 2 : 1, t->size, t->size);
	return t;
}

static const VkSubpassBeginInfo subpass_inline = {
	.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
	.contents = VK_SUBPASS_CONTENTS_INLINE,
};
static const VkSubpassEndInfo subpass_end = {.sType = VK_STRUCTURE_TYPE_SUBPASS_END_INFO};

/* Dynamic rendering has no render pass to transition the layouts: the
 * images are taken from UNDEFINED (contents discarded, the CLEAR load op
 * writes them) to the attachment layouts. */
static void pass_dyn_layouts(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			   const struct vkqs_pass_target *t)
{
	VkImageMemoryBarrier b[2] = {
		{
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
			.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
					 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
			.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = t->color,
			.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, t->layers},
		},
		{
			.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
			.dstAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
					 VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
			.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.newLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
			.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			.image = t->depth,
			/* without separateDepthStencilLayouts a combined
			 * format's transition names both aspects */
			.subresourceRange = {depth_aspects(t->depth_format), 0, 1, 0, t->layers},
		},
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
				VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
					VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
					VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
				0, 0, NULL, 0, NULL, t->has_depth ? 2 : 1, b);
}

/* Begins the instance (subpass 0) clearing colour to 0 and depth to
 * clear_depth, then sets viewport (depth 0..1) and scissor to the target. */
void vkqs_pass_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t,
		     float clear_depth)
{
	const VkRect2D area = {{0, 0}, {t->size, t->size}};
	vkqs_pass_begin_ex(ctx, cb, t, clear_depth, area, NULL);
}

static void pass_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t,
		       float clear_depth, VkRect2D area, const void *next, VkRenderingFlags flags,
		       bool secondaries);

void vkqs_pass_begin_ex(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			const struct vkqs_pass_target *t, float clear_depth, VkRect2D area,
			const void *next)
{
	pass_begin(ctx, cb, t, clear_depth, area, next, 0, false);
}

void vkqs_pass_begin_dyn(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			 const struct vkqs_pass_target *t, float clear_depth,
			 VkRenderingFlags flags)
{
	const VkRect2D area = {{0, 0}, {t->size, t->size}};
	pass_begin(ctx, cb, t, clear_depth, area, NULL, flags, false);
}

void vkqs_pass_begin_secondaries(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				 const struct vkqs_pass_target *t, float clear_depth)
{
	const VkRect2D area = {{0, 0}, {t->size, t->size}};
	pass_begin(ctx, cb, t, clear_depth, area, NULL,
		   t->kind == VKQS_PASS_DYN ? VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT : 0,
		   true);
}

VkCommandBuffer vkqs_pass_secondary(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t)
{
	VkCommandBufferInheritanceRenderingInfo ri = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
		.viewMask = t->view_masks[0],
		.colorAttachmentCount = 1,
		.pColorAttachmentFormats = &t->color_format,
		.depthAttachmentFormat = t->has_depth ? t->depth_format : VK_FORMAT_UNDEFINED,
		.rasterizationSamples = t->samples,
	};
	VkCommandBufferInheritanceInfo ii = {
		.pNext = t->kind == VKQS_PASS_DYN ? &ri : NULL,
		.renderPass = t->render_pass,
		.framebuffer = t->framebuffer,
	};
	VkCommandBuffer sec = vkqs_cmd_begin_secondary(
		ctx, &ctx->vk->gfx, NULL,
		VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT |
			VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
		&ii);
	/* a secondary inherits no dynamic state */
	VkViewport vp = {0, 0, (float)t->size, (float)t->size, 0.0f, 1.0f};
	VkRect2D area = {{0, 0}, {t->size, t->size}};
	D->vkCmdSetViewport(sec, 0, 1, &vp);
	D->vkCmdSetScissor(sec, 0, 1, &area);
	return sec;
}

static void pass_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t,
		       float clear_depth, VkRect2D area, const void *next, VkRenderingFlags flags,
		       bool secondaries)
{
	VkClearValue clear[2] = {
		{.color = {.float32 = {0, 0, 0, 0}}},
		{.depthStencil = {clear_depth, 0}},
	};
	if (t->kind == VKQS_PASS_DYN) {
		/* a resumed instance continues the suspended one: no barrier
		 * may come between them */
		if (!(flags & VK_RENDERING_RESUMING_BIT))
			pass_dyn_layouts(ctx, cb, t);
		VkRenderingAttachmentInfo color = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
			.imageView = t->color_view,
			.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
			.clearValue = clear[0],
		};
		VkRenderingAttachmentInfo depth = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
			.imageView = t->depth_view,
			.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
			.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
			.clearValue = clear[1],
		};
		VkRenderingInfo ri = {
			.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
			.pNext = next,
			.flags = flags,
			.renderArea = area,
			.layerCount = 1, /* ignored: viewMask is not 0 */
			.viewMask = t->view_masks[0],
			.colorAttachmentCount = 1,
			.pColorAttachments = &color,
			.pDepthAttachment = t->has_depth ? &depth : NULL,
		};
		D->vkCmdBeginRendering(cb, &ri);
	} else {
		VkRenderPassBeginInfo bi = {
			.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
			.pNext = next,
			.renderPass = t->render_pass,
			.framebuffer = t->framebuffer,
			.renderArea = area,
			.clearValueCount = t->has_depth ? 2 : 1,
			.pClearValues = clear,
		};
		const VkSubpassBeginInfo subpass_secondaries = {
			.sType = VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO,
			.contents = VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS,
		};
		if (t->kind == VKQS_PASS_RP1)
			D->vkCmdBeginRenderPass(cb, &bi,
						secondaries ? VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS
							    : VK_SUBPASS_CONTENTS_INLINE);
		else
			D->vkCmdBeginRenderPass2(cb, &bi,
						 secondaries ? &subpass_secondaries : &subpass_inline);
	}
	/* with secondary contents the primary records nothing but
	 * vkCmdExecuteCommands in the subpass */
	if (secondaries)
		return;
	VkViewport vp = {0, 0, (float)t->size, (float)t->size, 0.0f, 1.0f};
	D->vkCmdSetViewport(cb, 0, 1, &vp);
	D->vkCmdSetScissor(cb, 0, 1, &area);
}

void vkqs_pass_next_subpass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			    const struct vkqs_pass_target *t)
{
	if (t->kind == VKQS_PASS_RP1)
		D->vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
	else
		D->vkCmdNextSubpass2(cb, &subpass_inline, &subpass_end);
}

void vkqs_pass_end(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t)
{
	if (t->kind == VKQS_PASS_DYN)
		D->vkCmdEndRendering(cb);
	else if (t->kind == VKQS_PASS_RP1)
		D->vkCmdEndRenderPass(cb);
	else
		D->vkCmdEndRenderPass2(cb, &subpass_end);
}

