/* Helpers for cases.  Every object made here is destroyed when the case
 * ends (the context's deferred-cleanup list), after the device is idle, so
 * a case never writes its own unwinding.  Any Vulkan error ends the case:
 * out-of-memory as ResourceError, anything else as Fail. */
#ifndef VKQS_VKUTIL_H
#define VKQS_VKUTIL_H

#include "device.h"
#include "vkqs.h"

/* Device functions of the case's device: D(ctx)->vkCmdDraw(...). */
#define VKQS_D(ctx) (&(ctx)->vk->d)
#define VKQS_DEV(ctx) ((ctx)->vk->device)

/* How long a case waits for a fence before calling it a hang (the runner's
 * --timeout is the outer bound). */
#define VKQS_FENCE_TIMEOUT_NS (20ull * 1000 * 1000 * 1000)

/* Ends the case as NotSupported naming the feature, unless it is enabled. */
void vkqs_require_feature(struct vkqs_ctx *ctx, const char *feature);
/* Ends the case as NotSupported unless the device has that queue. */
struct vkqs_queue *vkqs_require_queue(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				      const char *what);

/* Ends the case as NotSupported unless the rectangles of vkqs_draw_rect have
 * exact sample counts: that needs standardSampleLocations (every sample
 * strictly inside its pixel; see vkqs_draw_rect). */
void vkqs_require_exact_coverage(struct vkqs_ctx *ctx);

/* Command buffers ---------------------------------------------------------*/
VkCommandBuffer vkqs_cmd_begin(struct vkqs_ctx *ctx, struct vkqs_queue *q);
void vkqs_cmd_end(struct vkqs_ctx *ctx, VkCommandBuffer cb);
VkFence vkqs_fence(struct vkqs_ctx *ctx);
/* vkQueueSubmit of one or more already-ended command buffers. */
void vkqs_submit(struct vkqs_ctx *ctx, struct vkqs_queue *q,
		 const VkCommandBuffer *cbs, uint32_t count, VkFence fence);
/* Waits with VKQS_FENCE_TIMEOUT_NS; a fence that does not signal is Fail. */
void vkqs_fence_wait(struct vkqs_ctx *ctx, VkFence fence);
/* End, submit alone, wait. */
void vkqs_cmd_submit_wait(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			  VkCommandBuffer cb);
/* A full execution + memory barrier (all commands, all accesses). */
void vkqs_cmd_full_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);
/* Makes transfer writes (vkCmdCopyQueryPoolResults, fills) visible to the host. */
void vkqs_cmd_transfer_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);

/* Memory and buffers ------------------------------------------------------*/
uint32_t vkqs_memory_type(struct vkqs_ctx *ctx, uint32_t type_bits,
			  VkMemoryPropertyFlags want);

struct vkqs_buffer {
	VkBuffer buf;
	VkDeviceMemory mem;
	uint8_t *map; /* host pointer (host-visible memory, persistently mapped) */
	VkDeviceSize size;
	bool coherent;
};
/* A host-visible, mapped buffer; usage gets TRANSFER_SRC|DST added. */
struct vkqs_buffer *vkqs_buffer_host(struct vkqs_ctx *ctx, VkDeviceSize size,
				     VkBufferUsageFlags usage);
/* A device-local buffer (falls back to any memory type). */
struct vkqs_buffer *vkqs_buffer_device(struct vkqs_ctx *ctx, VkDeviceSize size,
				       VkBufferUsageFlags usage);
/* Call after host writes / before host reads (no-ops on coherent memory). */
void vkqs_buffer_flush(struct vkqs_ctx *ctx, struct vkqs_buffer *b);
void vkqs_buffer_invalidate(struct vkqs_ctx *ctx, struct vkqs_buffer *b);

/* Queries -----------------------------------------------------------------*/
VkQueryPool vkqs_query_pool(struct vkqs_ctx *ctx, VkQueryType type,
			    uint32_t count, VkQueryPipelineStatisticFlags stats);

/* Render targets ----------------------------------------------------------*/
struct vkqs_target {
	uint32_t width, height;
	VkSampleCountFlagBits samples;
	bool has_depth;
	VkFormat color_format;  /* R8G8B8A8_UNORM */
	VkFormat depth_format;  /* vk->depth_format */
	VkImage color, depth;   /* usage includes TRANSFER_SRC|DST */
	VkImageView color_view, depth_view;
	VkRenderPass render_pass; /* load CLEAR, store STORE; final layout
				     COLOR/DEPTH_STENCIL_ATTACHMENT_OPTIMAL */
	VkFramebuffer framebuffer;
};
/* Ends as NotSupported when the sample count is not supported for the
 * formats (framebufferColorSampleCounts / framebufferDepthSampleCounts). */
struct vkqs_target *vkqs_target_create(struct vkqs_ctx *ctx, uint32_t width,
				       uint32_t height, VkSampleCountFlagBits samples,
				       bool depth);
/* vkCmdBeginRenderPass clearing color to 0 and depth to clear_depth, then
 * sets the viewport (depth range 0..1) and scissor to the whole target. */
void vkqs_target_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		       const struct vkqs_target *t, float clear_depth);
void vkqs_target_end(struct vkqs_ctx *ctx, VkCommandBuffer cb);

/* Pipelines ---------------------------------------------------------------*/
struct vkqs_pipeline_desc {
	bool depth_test;
	bool depth_write;
	VkCompareOp depth_compare;  /* used when depth_test */
	const uint32_t *frag_spv;   /* NULL: the solid-colour shader */
	size_t frag_size;           /* bytes */
	const VkSampleMask *sample_mask; /* NULL: all samples */
};
struct vkqs_pipeline {
	VkPipeline pipeline;
	VkPipelineLayout layout;
};
/* A triangle-list pipeline for vkqs_draw_rect on target t's render pass;
 * viewport and scissor are dynamic state. */
struct vkqs_pipeline *vkqs_pipeline_rect(struct vkqs_ctx *ctx,
					 const struct vkqs_target *t,
					 const struct vkqs_pipeline_desc *desc);

/* Draws the axis-aligned rectangle [x0,x1) x [y0,y1) in framebuffer pixels
 * at depth z (two triangles, 6 vertices).  With integer edges no sample
 * lies on an outer edge, so it covers exactly (x1-x0)*(y1-y0) pixels and
 * all their samples (spec 28.7 polygon rasterization; the shared diagonal
 * counts each sample once by the tie-break rule). */
void vkqs_draw_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		    const struct vkqs_pipeline *p, const struct vkqs_target *t,
		    float x0, float y0, float x1, float y1, float z);

/* Host time --------------------------------------------------------------*/
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t vkqs_now_ns(void);

#endif
