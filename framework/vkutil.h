/* Helpers for cases.  Every object made here is destroyed when the case
 * ends (the context's deferred-cleanup list), after the device is idle, so
 * a case never writes its own unwinding.  Any Vulkan error ends the case:
 * out-of-memory as ResourceError, anything else as Fail. */
#ifndef VKQS_VKUTIL_H
#define VKQS_VKUTIL_H

#include "device.h"
#include "vkqs.h"

struct vkqs_target;

/* Device functions of the case's device: D(ctx)->vkCmdDraw(...). */
#define VKQS_D(ctx) (&(ctx)->vk->d)
#define VKQS_DEV(ctx) ((ctx)->vk->device)

/* Ends the case as NotSupported naming the feature, unless it is enabled. */
void vkqs_require_feature(struct vkqs_ctx *ctx, const char *feature);
/* Ends the case as NotSupported unless the device has that queue. */
struct vkqs_queue *vkqs_require_queue(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				      const char *what);

/* Ends the case as NotSupported unless the rectangles of vkqs_draw_rect have
 * exact sample counts: that needs standardSampleLocations (every sample
 * strictly inside its pixel; see vkqs_draw_rect). */
void vkqs_require_exact_coverage(struct vkqs_ctx *ctx);
/* The fragments a w x h rectangle with integer edges inside the framebuffer
 * surely makes: all w * h with standard sample locations (every sample
 * strictly inside its pixel), otherwise the pixels not on its border, whose
 * every point is inside. */
uint64_t vkqs_rect_fragments_min(const struct vkqs_ctx *ctx, uint32_t w, uint32_t h);

/* Command buffers ---------------------------------------------------------*/
VkCommandBuffer vkqs_cmd_begin(struct vkqs_ctx *ctx, struct vkqs_queue *q);
/* A primary begun with `usage` (vkqs_cmd_begin: ONE_TIME_SUBMIT; 0 for a
 * command buffer submitted several times). */
VkCommandBuffer vkqs_cmd_begin_usage(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				     VkCommandBufferUsageFlags usage);
void vkqs_cmd_end(struct vkqs_ctx *ctx, VkCommandBuffer cb);
VkFence vkqs_fence(struct vkqs_ctx *ctx);
/* vkQueueSubmit of one or more already-ended command buffers. */
void vkqs_submit(struct vkqs_ctx *ctx, struct vkqs_queue *q,
		 const VkCommandBuffer *cbs, uint32_t count, VkFence fence);
/* Waits vk->fence_timeout_ns (from --timeout); a fence that does not
 * signal is Fail, and the device is presumed lost (ctx->poisoned). */
void vkqs_fence_wait(struct vkqs_ctx *ctx, VkFence fence);
/* End, submit alone, wait. */
void vkqs_cmd_submit_wait(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			  VkCommandBuffer cb);
/* A full execution + memory barrier (all commands, all accesses). */
void vkqs_cmd_full_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);
/* Makes writes of `access` at `stage` visible to host reads. */
void vkqs_cmd_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			      VkPipelineStageFlags stage, VkAccessFlags access);
/* Makes transfer writes (vkCmdCopyQueryPoolResults, fills) visible to the host. */
void vkqs_cmd_transfer_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);
/* A secondary command buffer of q's pool, begun with `usage` and the
 * inheritance *inh (NULL: all zero; its sType is filled in here, and with t
 * its renderPass, subpass and framebuffer).  With t it continues subpass 0 of t's
 * render pass and framebuffer (RENDER_PASS_CONTINUE is added to usage) and
 * sets the viewport (depth 0..1) and scissor to the whole target: a
 * secondary inherits no dynamic state. */
VkCommandBuffer vkqs_cmd_begin_secondary(struct vkqs_ctx *ctx, struct vkqs_queue *q,
					 const struct vkqs_target *t,
					 VkCommandBufferUsageFlags usage,
					 const VkCommandBufferInheritanceInfo *inh);
/* Submits the ended command buffers as one batch with a new fence and
 * waits; returns the host nanoseconds from before vkQueueSubmit to after
 * the fence wait, which strictly contain the device's execution. */
uint64_t vkqs_submit_timed(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			   const VkCommandBuffer *cbs, uint32_t count);

/* Objects a case creates itself --------------------------------------------*/
/* Registers the destruction of h (vkDestroy* of its type, vkFreeMemory for
 * VK_OBJECT_TYPE_DEVICE_MEMORY) for case end, newest first like everything
 * made here.  Types: fence, semaphore, buffer, device memory, query pool,
 * image, image view, render pass, framebuffer, pipeline, pipeline layout,
 * shader module, descriptor set layout, descriptor pool. */
void vkqs_defer_destroy(struct vkqs_ctx *ctx, VkObjectType type, void *h);
VkShaderModule vkqs_shader_module(struct vkqs_ctx *ctx, const uint32_t *code,
				  size_t size);

/* Memory and buffers ------------------------------------------------------*/
uint32_t vkqs_memory_type(struct vkqs_ctx *ctx, uint32_t type_bits,
			  VkMemoryPropertyFlags want);

struct vkqs_buffer {
	VkBuffer buf;
	VkDeviceMemory mem;
	uint8_t *map; /* host pointer (host-visible memory, persistently mapped) */
	VkDeviceSize size;
	bool coherent, cached; /* the memory type's HOST_COHERENT and HOST_CACHED */
};
/* A host-visible, mapped buffer; usage gets TRANSFER_SRC|DST added. */
struct vkqs_buffer *vkqs_buffer_host(struct vkqs_ctx *ctx, VkDeviceSize size,
				     VkBufferUsageFlags usage);
/* vkqs_buffer_host with `next` in VkBufferCreateInfo's pNext chain (a video
 * profile list, say). */
struct vkqs_buffer *vkqs_buffer_host_next(struct vkqs_ctx *ctx, VkDeviceSize size,
					  VkBufferUsageFlags usage, const void *next);
/* vkqs_buffer_host in host-cached memory where a type offers it (the
 * usual place to read query results copied by the device), else as
 * vkqs_buffer_host; `cached` says which. */
struct vkqs_buffer *vkqs_buffer_host_cached(struct vkqs_ctx *ctx, VkDeviceSize size,
					    VkBufferUsageFlags usage);
/* A device-local buffer (falls back to any memory type). */
struct vkqs_buffer *vkqs_buffer_device(struct vkqs_ctx *ctx, VkDeviceSize size,
				       VkBufferUsageFlags usage);
/* The device address of a buffer made with VK_BUFFER_USAGE_SHADER_DEVICE_-
 * ADDRESS_BIT (its memory is then allocated with the device-address flag;
 * the feature bufferDeviceAddress is the caller's to require). */
VkDeviceAddress vkqs_buffer_address(struct vkqs_ctx *ctx, const struct vkqs_buffer *b);
/* Call after host writes / before host reads (no-ops on coherent memory). */
void vkqs_buffer_flush(struct vkqs_ctx *ctx, struct vkqs_buffer *b);
void vkqs_buffer_invalidate(struct vkqs_ctx *ctx, struct vkqs_buffer *b);

/* Queries -----------------------------------------------------------------*/
VkQueryPool vkqs_query_pool(struct vkqs_ctx *ctx, VkQueryType type,
			    uint32_t count, VkQueryPipelineStatisticFlags stats);
/* A pool whose VkQueryPoolCreateInfo carries `next` (a performance query,
 * Intel or video profile structure), destroyed at case end. */
VkQueryPool vkqs_query_pool_next(struct vkqs_ctx *ctx, VkQueryType type, uint32_t count,
				 const void *next);
/* Every field of VkQueryPoolCreateInfo: the statistics, the create flags
 * (VK_QUERY_POOL_CREATE_RESET_BIT_KHR records VK_KHR_maintenance9 as used)
 * and `next`.  The one place a case creates a pool with flags. */
VkQueryPool vkqs_query_pool_flags(struct vkqs_ctx *ctx, VkQueryType type, uint32_t count,
				  VkQueryPipelineStatisticFlags stats,
				  VkQueryPoolCreateFlags flags, const void *next);
/* The layout of one-value results written with `flags` (18.2): the word
 * size (8 with VK_QUERY_RESULT_64_BIT, else 4), a query's element (the
 * value, then the availability word WITH_AVAILABILITY), and the bytes from
 * the first written byte to the last of `count` queries at `stride`
 * (VUID-vkGetQueryPoolResults-dataSize-00817). */
size_t vkqs_result_word(VkQueryResultFlags flags);
size_t vkqs_result_elem(VkQueryResultFlags flags);
size_t vkqs_result_span(uint32_t count, VkDeviceSize stride, VkQueryResultFlags flags);
/* The result of vkGetQueryPoolResults without WAIT when some query read is
 * unavailable.  18.2 now says it "may return VK_NOT_READY"; earlier
 * versions required it, as the CTS does: VK_SUCCESS is a
 * CompatibilityWarning, anything else a failure.  `what` names the read. */
void vkqs_expect_not_ready(struct vkqs_ctx *ctx, VkResult r, const char *what);
/* The value bytes of an unavailable query read without WAIT or PARTIAL: 18.2
 * now makes any value written undefined; earlier versions said none is
 * written, as the CTS checks: bytes that are not `guard` are a
 * CompatibilityWarning.  True when untouched. */
bool vkqs_expect_unwritten(struct vkqs_ctx *ctx, const uint8_t *p, size_t n, uint8_t guard,
			   const char *what);
/* The 4- or 8-byte word at p (any alignment), zero-extended. */
uint64_t vkqs_load_word(const void *p, size_t size);

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
	bool no_color;          /* depth attachment only (color is VK_NULL_HANDLE) */
};
/* Ends as NotSupported when the sample count is not supported for the
 * formats (framebufferColorSampleCounts / framebufferDepthSampleCounts). */
struct vkqs_target *vkqs_target_create(struct vkqs_ctx *ctx, uint32_t width,
				       uint32_t height, VkSampleCountFlagBits samples,
				       bool depth);
/* A target whose render pass has a depth attachment and no colour
 * attachment (attachment 0 is the depth one; vkqs_target_begin clears it). */
struct vkqs_target *vkqs_target_create_depth_only(struct vkqs_ctx *ctx, uint32_t width,
						  uint32_t height,
						  VkSampleCountFlagBits samples);
/* A target whose render pass's one subpass has no attachments at all
 * (framebuffer of width x height, no images; no_color set, no depth):
 * rasterization at `samples` (the caller checks
 * framebufferNoAttachmentsSampleCounts). */
struct vkqs_target *vkqs_target_create_no_attachments(struct vkqs_ctx *ctx, uint32_t width,
						      uint32_t height,
						      VkSampleCountFlagBits samples);
/* vkCmdBeginRenderPass clearing color to 0 and depth to clear_depth, then
 * sets the viewport (depth range 0..1) and scissor to the whole target. */
void vkqs_target_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		       const struct vkqs_target *t, float clear_depth);
void vkqs_target_end(struct vkqs_ctx *ctx, VkCommandBuffer cb);
/* vkqs_target_begin with a stencil clear value and the subpass contents;
 * viewport and scissor are set only for VK_SUBPASS_CONTENTS_INLINE (a
 * secondary sets its own, see vkqs_cmd_begin_secondary). */
void vkqs_target_begin_ex(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			  const struct vkqs_target *t, float clear_depth,
			  uint32_t clear_stencil, VkSubpassContents contents);

/* Render pass pieces, as vkqs_target_create uses them: an attachment
 * cleared by its load op (stencil too for a depth format with a stencil
 * aspect) and stored, from UNDEFINED to COLOR_ or DEPTH_STENCIL_ATTACHMENT_-
 * OPTIMAL; the dependencies that order all earlier work's writes before
 * subpass 0, each subpass after the one before and all later work after the
 * last subpass (subpass_count + 1 of them, the count returned); a
 * framebuffer of one layer. */
VkAttachmentDescription vkqs_attachment_desc(VkFormat format, VkSampleCountFlagBits samples,
					     bool depth);
uint32_t vkqs_subpass_dependencies(uint32_t subpass_count, VkSubpassDependency *deps);
VkFramebuffer vkqs_framebuffer_create(struct vkqs_ctx *ctx, VkRenderPass render_pass,
				      const VkImageView *views, uint32_t count, uint32_t width,
				      uint32_t height);

/* Images ------------------------------------------------------------------*/
/* A 2D optimal-tiling image, one level, `layers` layers, exactly `usage`,
 * bound to memory of its own (device-local when there is such a type). */
VkImage vkqs_image_create(struct vkqs_ctx *ctx, VkFormat format, uint32_t width,
			  uint32_t height, uint32_t layers, VkSampleCountFlagBits samples,
			  VkImageUsageFlags usage);
/* A view of level 0 and layers [0, layers) of img. */
VkImageView vkqs_image_view(struct vkqs_ctx *ctx, VkImage img, VkImageViewType type,
			    VkFormat format, VkImageAspectFlags aspect, uint32_t layers);
/* A layout transition of level 0, layers [0, layers) of img. */
void vkqs_cmd_image_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
			    VkImageAspectFlags aspect, uint32_t layers, VkImageLayout from,
			    VkImageLayout to, VkPipelineStageFlags src_stage,
			    VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
			    VkAccessFlags dst_access);
/* D16_UNORM_S8_UINT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, S8_UINT. */
bool vkqs_format_has_stencil(VkFormat f);

/* Pipelines ---------------------------------------------------------------*/
/* A graphics pipeline.  Zero members keep the defaults noted: with none
 * set it is vkqs_draw_rect's pipeline (rect.vert, the solid-colour
 * fragment shader, a triangle list, no culling, no depth test). */
struct vkqs_pipeline_desc {
	bool depth_test;
	bool depth_write;
	VkCompareOp depth_compare;  /* used when depth_test */
	const uint32_t *frag_spv;   /* NULL: the solid-colour shader */
	size_t frag_size;           /* bytes */
	const VkSampleMask *sample_mask; /* NULL: all samples */
	/* Input assembly: a triangle list unless set_topology (the topology 0
	 * is VK_PRIMITIVE_TOPOLOGY_POINT_LIST). */
	bool set_topology;
	VkPrimitiveTopology topology;
	bool primitive_restart;
	/* Other stages, SPIR-V and its size in bytes.  vert NULL: rect.vert.
	 * tesc and tese together, with patch_control_points (the topology must
	 * then be a patch list). */
	const uint32_t *vert_spv;
	size_t vert_size;
	const uint32_t *tesc_spv;
	size_t tesc_size;
	const uint32_t *tese_spv;
	size_t tese_size;
	uint32_t patch_control_points;
	const uint32_t *geom_spv;
	size_t geom_size;
	/* A mesh pipeline (VK_EXT_mesh_shader): mesh_spv (and task_spv when
	 * not NULL) instead of the vertex stages, no vertex input or input
	 * assembly state; the caller requires the features. */
	const uint32_t *task_spv;
	size_t task_size;
	const uint32_t *mesh_spv;
	size_t mesh_size;
	/* One push-constant range at offset 0: push_size bytes (0: the 32 of
	 * struct vkqs_rect_push) for push_stages (0: the vertex stage). */
	uint32_t push_size;
	VkShaderStageFlags push_stages;
	/* No fragment shader, with rasterization on (the fragment stage is
	 * optional; colour attachment contents are then undefined). */
	bool no_fragment_shader;
	/* Rasterization (front face counter-clockwise, fill). */
	bool rasterizer_discard;
	VkCullModeFlags cull_mode;
	float line_width;           /* 0: 1.0 */
	/* Multisampling: > 0 enables sample shading with this minimum. */
	float min_sample_shading;
	/* Stencil test with `stencil` for both faces (with a depth/stencil
	 * attachment only). */
	bool stencil_test;
	VkStencilOpState stencil;
	/* Colour writes: colorWriteMask 0 (no_color_writes); or, with
	 * dynamic_color_write, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT
	 * (VK_EXT_color_write_enable: the caller requires colorWriteEnable and
	 * calls vkCmdSetColorWriteEnableEXT). */
	bool no_color_writes;
	bool dynamic_color_write;
	/* alphaToCoverageEnable; with dynamic_alpha_to_coverage it is
	 * VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT instead
	 * (extendedDynamicState3AlphaToCoverageEnable, the caller's to
	 * require; vkCmdSetAlphaToCoverageEnableEXT sets it). */
	bool alpha_to_coverage;
	bool dynamic_alpha_to_coverage;
	/* Not VK_NULL_HANDLE: the pipeline layout's set 0. */
	VkDescriptorSetLayout set_layout;
	/* Non-zero: chained as VkPipelineCreateFlags2CreateInfoKHR (e.g.
	 * VK_PIPELINE_CREATE_2_INSTRUMENT_SHADERS_BIT_ARM). */
	VkPipelineCreateFlags2KHR flags2;
};
struct vkqs_pipeline {
	VkPipeline pipeline;
	VkPipelineLayout layout;
};
/* Where a pipeline draws: subpass `subpass` of render_pass, or, when
 * render_pass is VK_NULL_HANDLE, dynamic rendering (VkPipelineRendering-
 * CreateInfo with view_mask, one colour attachment of color_format and,
 * with has_depth, a depth attachment of depth_format).  Depth/stencil
 * state is given only with has_depth. */
struct vkqs_pipeline_target {
	VkRenderPass render_pass;
	uint32_t subpass;
	VkSampleCountFlagBits samples;
	bool has_depth;
	uint32_t view_mask;
	VkFormat color_format;
	VkFormat depth_format;
	bool no_color; /* the subpass has no colour attachment */
};
/* A pipeline with one colour attachment (all components written, no
 * blending), or none with where->no_color; viewport and scissor are
 * dynamic state. */
struct vkqs_pipeline *vkqs_pipeline_create(struct vkqs_ctx *ctx,
					   const struct vkqs_pipeline_target *where,
					   const struct vkqs_pipeline_desc *desc);
/* vkqs_pipeline_create for subpass 0 of target t's render pass: by default
 * the triangle-list pipeline of vkqs_draw_rect. */
struct vkqs_pipeline *vkqs_pipeline_rect(struct vkqs_ctx *ctx,
					 const struct vkqs_target *t,
					 const struct vkqs_pipeline_desc *desc);

/* A descriptor set whose binding 0 is buf as a storage buffer, visible to
 * `stages`; its layout in *dsl (both destroyed at case end). */
VkDescriptorSet vkqs_storage_set(struct vkqs_ctx *ctx, const struct vkqs_buffer *buf,
				 VkShaderStageFlags stages, VkDescriptorSetLayout *dsl);

/* A compute pipeline of spv (entry "main") over buf as the storage buffer
 * at set 0, binding 0, with push_size bytes of compute push constants (0:
 * none) and, when non-zero, flags2 in VkPipelineCreateFlags2CreateInfoKHR. */
struct vkqs_compute {
	VkPipeline pipeline;
	VkPipelineLayout layout;
	VkDescriptorSet set;
};
struct vkqs_compute *vkqs_compute_create(struct vkqs_ctx *ctx, const uint32_t *spv, size_t size,
					 const struct vkqs_buffer *buf, uint32_t push_size,
					 VkPipelineCreateFlags2KHR flags2);
/* Binds the pipeline and its descriptor set. */
void vkqs_cmd_bind_compute(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_compute *c);

/* rect.vert's push constants (32 bytes, vertex stage).  Shaders with the
 * same block (multiview_rect.vert, stats_grid.vert) take a parameter in
 * .extra, which rect.vert ignores. */
struct vkqs_rect_push {
	float rect[4];     /* x0, y0, x1, y1 in framebuffer pixels */
	float fb_size[2];
	float z;
	float extra;
};
/* Binds p and pushes *pc (vertex stage, offset 0); the caller draws. */
void vkqs_cmd_bind_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			const struct vkqs_pipeline *p, const struct vkqs_rect_push *pc);

/* Draws the axis-aligned rectangle [x0,x1) x [y0,y1) in framebuffer pixels
 * at depth z (two triangles, 6 vertices).  With integer edges no sample
 * lies on an outer edge, so it covers exactly (x1-x0)*(y1-y0) pixels and
 * all their samples (spec 28.7 polygon rasterization; the shared diagonal
 * counts each sample once by the tie-break rule). */
void vkqs_draw_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		    const struct vkqs_pipeline *p, const struct vkqs_target *t,
		    float x0, float y0, float x1, float y1, float z);
/* vkqs_draw_rect with `vertices` vertices in one draw: rect.vert makes
 * vertex i vertex i % 6 of the rectangle, so 6 * k vertices cover it k
 * times, every vertex index distinct. */
void vkqs_draw_rect_n(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_pipeline *p, const struct vkqs_target *t,
		      float x0, float y0, float x1, float y1, float z, uint32_t vertices);

/* Host time --------------------------------------------------------------*/
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t vkqs_now_ns(void);

#endif
