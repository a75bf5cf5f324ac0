/* Render pass instances of the three kinds the API offers (vkCreateRenderPass,
 * vkCreateRenderPass2, dynamic rendering) over one square target, with one
 * or two subpasses and optional view masks: the areas that check a query
 * "in every kind of render pass instance" share this. */
#ifndef VKQS_PASSTARGET_H
#define VKQS_PASSTARGET_H

#include "vkutil.h"

enum vkqs_pass_kind { VKQS_PASS_RP1, VKQS_PASS_RP2, VKQS_PASS_DYN };
/* Name tokens: "render_pass", "render_pass2", "dynamic_rendering". */
extern const char *const vkqs_pass_kind_tokens[3];
/* Parameter name hooks (STYLE 2) of the cases that run over the kinds:
 * an enum vkqs_pass_kind ("render_pass2"), or a kind and a view mask
 * ("render_pass2_mask_0x5"). */
void vkqs_pass_kind_name(const void *param, char *buf, size_t size);
struct vkqs_pass_views {
	enum vkqs_pass_kind kind;
	uint32_t mask;
};
void vkqs_pass_views_name(const void *param, char *buf, size_t size);

#define VKQS_PASS_MAX_SUBPASSES 2u

struct vkqs_pass_target {
	enum vkqs_pass_kind kind;
	uint32_t size;   /* size x size pixels */
	VkSampleCountFlagBits samples;
	bool has_depth;
	VkFormat color_format, depth_format;
	uint32_t layers; /* highest view index of any subpass + 1 */
	uint32_t subpass_count;
	uint32_t view_masks[VKQS_PASS_MAX_SUBPASSES]; /* 0: no multiview */
	VkImage color, depth;
	VkImageView color_view, depth_view;
	VkRenderPass render_pass; /* VKQS_PASS_RP1, VKQS_PASS_RP2 */
	VkFramebuffer framebuffer;
};

/* A size x size target: colour R8G8B8A8_UNORM (and depth) 2D arrays with a
 * layer per view index, and for the render pass kinds a render pass of
 * `subpasses` subpasses with those view masks (all zero, or all non-zero)
 * and its framebuffer.  Dynamic rendering has one subpass.  NotSupported
 * where the device lacks the kind, multiview or the sample count. */
struct vkqs_pass_target *vkqs_pass_target_create(struct vkqs_ctx *ctx, enum vkqs_pass_kind kind,
						  uint32_t size, VkSampleCountFlagBits samples,
						  bool depth, uint32_t subpasses,
						  const uint32_t *masks);
/* Begins the instance (subpass 0) clearing colour to 0 and depth to
 * clear_depth, then sets viewport (depth 0..1) and scissor to the target. */
void vkqs_pass_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t,
		     float clear_depth);
/* vkqs_pass_begin with a render area (also the scissor) and a pNext chain
 * for the VkRenderPassBeginInfo or VkRenderingInfo. */
void vkqs_pass_begin_ex(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			const struct vkqs_pass_target *t, float clear_depth, VkRect2D area,
			const void *next);
/* Dynamic rendering only: vkqs_pass_begin with VkRenderingInfo::flags
 * (VK_RENDERING_SUSPENDING_BIT, VK_RENDERING_RESUMING_BIT; a resumed
 * instance gets no layout barrier before it). */
void vkqs_pass_begin_dyn(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			 const struct vkqs_pass_target *t, float clear_depth,
			 VkRenderingFlags flags);
/* Begins the instance (subpass 0) for secondary command buffers
 * (VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS, or dynamic rendering with
 * VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT), clearing as
 * vkqs_pass_begin; the primary then records only vkCmdExecuteCommands. */
void vkqs_pass_begin_secondaries(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				 const struct vkqs_pass_target *t, float clear_depth);
/* A secondary (one-time submit) that continues subpass 0 of t's instance:
 * its render pass and framebuffer, or for dynamic rendering
 * VkCommandBufferInheritanceRenderingInfo with t's view mask, formats and
 * samples; viewport and scissor set to the target. */
VkCommandBuffer vkqs_pass_secondary(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t);
void vkqs_pass_next_subpass(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			    const struct vkqs_pass_target *t);
void vkqs_pass_end(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pass_target *t);

#endif
