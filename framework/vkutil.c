#include "vkutil.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shaders/color_frag.h"
#include "shaders/rect_vert.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

uint64_t vkqs_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void vkqs_require_feature(struct vkqs_ctx *ctx, const char *feature)
{
	if (!vkqs_device_feature(&ctx->vk->info, feature))
		vkqs_skip(ctx, "feature %s is not supported", feature);
	vkqs_extension_used(&ctx->vk->inst, feature);
}

struct vkqs_queue *vkqs_require_queue(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				      const char *what)
{
	if (q->family == VKQS_NO_FAMILY)
		vkqs_skip(ctx, "the device has no %s queue family", what);
	return q;
}

void vkqs_require_exact_coverage(struct vkqs_ctx *ctx)
{
	if (!ctx->vk->props.limits.standardSampleLocations)
		vkqs_skip(ctx, "limits.standardSampleLocations is VK_FALSE: samples may lie "
			       "on pixel edges, so no exact count follows from a rectangle");
}

uint64_t vkqs_rect_fragments_min(const struct vkqs_ctx *ctx, uint32_t w, uint32_t h)
{
	if (ctx->vk->props.limits.standardSampleLocations)
		return (uint64_t)w * h;
	return w > 2 && h > 2 ? (uint64_t)(w - 2) * (h - 2) : 0;
}

/* Destruction callbacks: one per object kind, registered at creation. */
#define DEFINE_DESTROY(Type, fn)                                          \
	static void destroy_##Type(struct vkqs_ctx *ctx, void *h)        \
	{                                                                 \
		D->fn(DEV, (Type)h, NULL);                                \
	}
DEFINE_DESTROY(VkFence, vkDestroyFence)
DEFINE_DESTROY(VkBuffer, vkDestroyBuffer)
DEFINE_DESTROY(VkDeviceMemory, vkFreeMemory)
DEFINE_DESTROY(VkQueryPool, vkDestroyQueryPool)
DEFINE_DESTROY(VkImage, vkDestroyImage)
DEFINE_DESTROY(VkImageView, vkDestroyImageView)
DEFINE_DESTROY(VkRenderPass, vkDestroyRenderPass)
DEFINE_DESTROY(VkFramebuffer, vkDestroyFramebuffer)
DEFINE_DESTROY(VkPipeline, vkDestroyPipeline)
DEFINE_DESTROY(VkPipelineLayout, vkDestroyPipelineLayout)
DEFINE_DESTROY(VkShaderModule, vkDestroyShaderModule)
DEFINE_DESTROY(VkSemaphore, vkDestroySemaphore)
DEFINE_DESTROY(VkDescriptorSetLayout, vkDestroyDescriptorSetLayout)
DEFINE_DESTROY(VkDescriptorPool, vkDestroyDescriptorPool)
#define DEFER(Type, h) vkqs_defer(ctx, destroy_##Type, (void *)(h))

void vkqs_defer_destroy(struct vkqs_ctx *ctx, VkObjectType type, void *h)
{
	vkqs_defer_fn fn;
	switch (type) {
	case VK_OBJECT_TYPE_FENCE: fn = destroy_VkFence; break;
	case VK_OBJECT_TYPE_SEMAPHORE: fn = destroy_VkSemaphore; break;
	case VK_OBJECT_TYPE_BUFFER: fn = destroy_VkBuffer; break;
	case VK_OBJECT_TYPE_DEVICE_MEMORY: fn = destroy_VkDeviceMemory; break;
	case VK_OBJECT_TYPE_QUERY_POOL: fn = destroy_VkQueryPool; break;
	case VK_OBJECT_TYPE_IMAGE: fn = destroy_VkImage; break;
	case VK_OBJECT_TYPE_IMAGE_VIEW: fn = destroy_VkImageView; break;
	case VK_OBJECT_TYPE_RENDER_PASS: fn = destroy_VkRenderPass; break;
	case VK_OBJECT_TYPE_FRAMEBUFFER: fn = destroy_VkFramebuffer; break;
	case VK_OBJECT_TYPE_PIPELINE: fn = destroy_VkPipeline; break;
	case VK_OBJECT_TYPE_PIPELINE_LAYOUT: fn = destroy_VkPipelineLayout; break;
	case VK_OBJECT_TYPE_SHADER_MODULE: fn = destroy_VkShaderModule; break;
	case VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT: fn = destroy_VkDescriptorSetLayout; break;
	case VK_OBJECT_TYPE_DESCRIPTOR_POOL: fn = destroy_VkDescriptorPool; break;
	default:
		vkqs_internal_error(ctx, "vkqs_defer_destroy: object type %d", (int)type);
	}
	vkqs_defer(ctx, fn, h);
}

struct cb_free {
	VkCommandPool pool;
	VkCommandBuffer cb;
};
static void free_cb(struct vkqs_ctx *ctx, void *arg)
{
	struct cb_free *f = arg;
	D->vkFreeCommandBuffers(DEV, f->pool, 1, &f->cb);
}

/* Command buffers ---------------------------------------------------------*/

/* A command buffer of q's pool, freed at case end. */
static VkCommandBuffer cmd_alloc(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				 VkCommandBufferLevel level)
{
	VkCommandBufferAllocateInfo ai = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
		.commandPool = q->pool,
		.level = level,
		.commandBufferCount = 1,
	};
	struct cb_free *f = vkqs_alloc(ctx, sizeof(*f));
	f->pool = q->pool;
	VKQS_CHECK(ctx, D->vkAllocateCommandBuffers(DEV, &ai, &f->cb));
	vkqs_defer(ctx, free_cb, f);
	return f->cb;
}

VkCommandBuffer vkqs_cmd_begin_usage(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				     VkCommandBufferUsageFlags usage)
{
	VkCommandBuffer cb = cmd_alloc(ctx, q, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = usage,
	};
	VKQS_CHECK(ctx, D->vkBeginCommandBuffer(cb, &bi));
	return cb;
}

VkCommandBuffer vkqs_cmd_begin(struct vkqs_ctx *ctx, struct vkqs_queue *q)
{
	return vkqs_cmd_begin_usage(ctx, q, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
}

static void set_viewport_scissor(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				 const struct vkqs_target *t)
{
	VkViewport vp = {0, 0, (float)t->width, (float)t->height, 0.0f, 1.0f};
	VkRect2D sc = {{0, 0}, {t->width, t->height}};
	D->vkCmdSetViewport(cb, 0, 1, &vp);
	D->vkCmdSetScissor(cb, 0, 1, &sc);
}

VkCommandBuffer vkqs_cmd_begin_secondary(struct vkqs_ctx *ctx, struct vkqs_queue *q,
					 const struct vkqs_target *t,
					 VkCommandBufferUsageFlags usage,
					 const VkCommandBufferInheritanceInfo *inh)
{
	VkCommandBuffer cb = cmd_alloc(ctx, q, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
	VkCommandBufferInheritanceInfo ii = {0};
	if (inh)
		ii = *inh;
	ii.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO;
	if (t) {
		ii.renderPass = t->render_pass;
		ii.subpass = 0;
		ii.framebuffer = t->framebuffer;
	}
	VkCommandBufferBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		.flags = usage | (t ? VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT : 0),
		.pInheritanceInfo = &ii,
	};
	VKQS_CHECK(ctx, D->vkBeginCommandBuffer(cb, &bi));
	if (t)
		set_viewport_scissor(ctx, cb, t);
	return cb;
}

void vkqs_cmd_end(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
}

VkFence vkqs_fence(struct vkqs_ctx *ctx)
{
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence f;
	VKQS_CHECK(ctx, D->vkCreateFence(DEV, &fci, NULL, &f));
	DEFER(VkFence, f);
	return f;
}

void vkqs_submit(struct vkqs_ctx *ctx, struct vkqs_queue *q,
		 const VkCommandBuffer *cbs, uint32_t count, VkFence fence)
{
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.commandBufferCount = count,
		.pCommandBuffers = cbs,
	};
	VKQS_CHECK(ctx, D->vkQueueSubmit(q->queue, 1, &si, fence));
}

void vkqs_fence_wait(struct vkqs_ctx *ctx, VkFence fence)
{
	const uint64_t timeout = ctx->vk->fence_timeout_ns;
	VkResult r = D->vkWaitForFences(DEV, 1, &fence, VK_TRUE, timeout);
	if (r == VK_TIMEOUT) {
		vkqs_fail(ctx, "fence not signaled after %.1f s: the submission did not complete",
			  timeout / 1e9);
		/* The device may still use the case's objects: do not free them
		 * (the runner's process is discarded after this case). */
		ctx->defer = NULL;
		ctx->poisoned = true;
		vkqs_abort_case(ctx);
	}
	VKQS_CHECK(ctx, r);
}

void vkqs_cmd_submit_wait(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			  VkCommandBuffer cb)
{
	vkqs_cmd_end(ctx, cb);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, q, &cb, 1, f);
	vkqs_fence_wait(ctx, f);
}

uint64_t vkqs_submit_timed(struct vkqs_ctx *ctx, struct vkqs_queue *q,
			   const VkCommandBuffer *cbs, uint32_t count)
{
	VkFence f = vkqs_fence(ctx);
	uint64_t t0 = vkqs_now_ns();
	vkqs_submit(ctx, q, cbs, count, f);
	vkqs_fence_wait(ctx, f);
	return vkqs_now_ns() - t0;
}

void vkqs_cmd_full_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
				VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL,
				0, NULL);
}

void vkqs_cmd_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			      VkPipelineStageFlags stage, VkAccessFlags access)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = access,
		.dstAccessMask = VK_ACCESS_HOST_READ_BIT,
	};
	D->vkCmdPipelineBarrier(cb, stage, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
				NULL);
}

void vkqs_cmd_transfer_to_host_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	/* spec 18.2: vkCmdCopyQueryPoolResults is a transfer operation whose
	 * writes must be synchronized with TRANSFER / TRANSFER_WRITE. */
	vkqs_cmd_to_host_barrier(ctx, cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				 VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* Memory and buffers ------------------------------------------------------*/

uint32_t vkqs_memory_type(struct vkqs_ctx *ctx, uint32_t type_bits,
			  VkMemoryPropertyFlags want)
{
	const VkPhysicalDeviceMemoryProperties *m = &ctx->vk->mem;
	for (uint32_t i = 0; i < m->memoryTypeCount; i++)
		if ((type_bits & (1u << i)) &&
		    (m->memoryTypes[i].propertyFlags & want) == want)
			return i;
	return UINT32_MAX;
}

/* Where a buffer's memory lives: device-local, host-visible (coherent
 * where offered), or host-visible and cached (where offered). */
enum buffer_memory { BUF_DEVICE, BUF_HOST, BUF_HOST_CACHED };

static struct vkqs_buffer *buffer_create(struct vkqs_ctx *ctx, VkDeviceSize size,
					 VkBufferUsageFlags usage, enum buffer_memory where,
					 const void *next)
{
	const bool host = where != BUF_DEVICE;
	struct vkqs_buffer *b = vkqs_alloc(ctx, sizeof(*b));
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.pNext = next,
		.size = size,
		.usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
			 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VKQS_CHECK(ctx, D->vkCreateBuffer(DEV, &bci, NULL, &b->buf));
	DEFER(VkBuffer, b->buf);
	VkMemoryRequirements req;
	D->vkGetBufferMemoryRequirements(DEV, b->buf, &req);
	uint32_t type = UINT32_MAX;
	if (where == BUF_HOST_CACHED)
		type = vkqs_memory_type(ctx, req.memoryTypeBits,
					VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
						VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
	if (host && type == UINT32_MAX) {
		type = vkqs_memory_type(ctx, req.memoryTypeBits,
					VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
						VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
		if (type == UINT32_MAX)
			type = vkqs_memory_type(ctx, req.memoryTypeBits,
						VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
	} else if (!host) {
		type = vkqs_memory_type(ctx, req.memoryTypeBits,
					VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
		if (type == UINT32_MAX)
			type = vkqs_memory_type(ctx, req.memoryTypeBits, 0);
	}
	if (type == UINT32_MAX)
		vkqs_internal_error(ctx, "no memory type for a %s buffer",
				    host ? "host-visible" : "device");
	/* A buffer whose address is taken needs memory allocated for that
	 * (VUID-vkBindBufferMemory-bufferDeviceAddress-03339). */
	VkMemoryAllocateFlagsInfo flags = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
		.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : NULL,
		.allocationSize = req.size,
		.memoryTypeIndex = type,
	};
	VKQS_CHECK(ctx, D->vkAllocateMemory(DEV, &mai, NULL, &b->mem));
	DEFER(VkDeviceMemory, b->mem);
	VKQS_CHECK(ctx, D->vkBindBufferMemory(DEV, b->buf, b->mem, 0));
	b->size = size;
	b->coherent = (ctx->vk->mem.memoryTypes[type].propertyFlags &
		       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
	b->cached = (ctx->vk->mem.memoryTypes[type].propertyFlags &
		     VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0;
	if (host) {
		void *p;
		VKQS_CHECK(ctx, D->vkMapMemory(DEV, b->mem, 0, VK_WHOLE_SIZE, 0, &p));
		b->map = p; /* unmapped implicitly by vkFreeMemory */
	}
	return b;
}

struct vkqs_buffer *vkqs_buffer_host(struct vkqs_ctx *ctx, VkDeviceSize size,
				     VkBufferUsageFlags usage)
{
	return buffer_create(ctx, size, usage, BUF_HOST, NULL);
}

struct vkqs_buffer *vkqs_buffer_host_next(struct vkqs_ctx *ctx, VkDeviceSize size,
					  VkBufferUsageFlags usage, const void *next)
{
	return buffer_create(ctx, size, usage, BUF_HOST, next);
}

struct vkqs_buffer *vkqs_buffer_host_cached(struct vkqs_ctx *ctx, VkDeviceSize size,
					    VkBufferUsageFlags usage)
{
	return buffer_create(ctx, size, usage, BUF_HOST_CACHED, NULL);
}

VkDeviceAddress vkqs_buffer_address(struct vkqs_ctx *ctx, const struct vkqs_buffer *b)
{
	VkBufferDeviceAddressInfo info = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
		.buffer = b->buf,
	};
	return D->vkGetBufferDeviceAddress(DEV, &info);
}

struct vkqs_buffer *vkqs_buffer_device(struct vkqs_ctx *ctx, VkDeviceSize size,
				       VkBufferUsageFlags usage)
{
	return buffer_create(ctx, size, usage, BUF_DEVICE, NULL);
}

static VkMappedMemoryRange whole(const struct vkqs_buffer *b)
{
	return (VkMappedMemoryRange){
		.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
		.memory = b->mem,
		.offset = 0,
		.size = VK_WHOLE_SIZE,
	};
}

void vkqs_buffer_flush(struct vkqs_ctx *ctx, struct vkqs_buffer *b)
{
	if (b->coherent)
		return;
	VkMappedMemoryRange r = whole(b);
	VKQS_CHECK(ctx, D->vkFlushMappedMemoryRanges(DEV, 1, &r));
}

void vkqs_buffer_invalidate(struct vkqs_ctx *ctx, struct vkqs_buffer *b)
{
	if (b->coherent)
		return;
	VkMappedMemoryRange r = whole(b);
	VKQS_CHECK(ctx, D->vkInvalidateMappedMemoryRanges(DEV, 1, &r));
}

/* Queries -----------------------------------------------------------------*/

static VkQueryPool query_pool(struct vkqs_ctx *ctx, VkQueryType type, uint32_t count,
			      VkQueryPipelineStatisticFlags stats, VkQueryPoolCreateFlags flags,
			      const void *next)
{
	VkQueryPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.pNext = next,
		.flags = flags,
		.queryType = type,
		.queryCount = count,
		.pipelineStatistics = stats,
	};
	VkQueryPool pool;
	VKQS_CHECK(ctx, D->vkCreateQueryPool(DEV, &ci, NULL, &pool));
	DEFER(VkQueryPool, pool);
	if (flags & VK_QUERY_POOL_CREATE_RESET_BIT_KHR)
		vkqs_extension_used(&ctx->vk->inst, VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	return pool;
}

VkQueryPool vkqs_query_pool(struct vkqs_ctx *ctx, VkQueryType type,
			    uint32_t count, VkQueryPipelineStatisticFlags stats)
{
	return query_pool(ctx, type, count, stats, 0, NULL);
}

VkQueryPool vkqs_query_pool_next(struct vkqs_ctx *ctx, VkQueryType type, uint32_t count,
				 const void *next)
{
	return query_pool(ctx, type, count, 0, 0, next);
}

VkQueryPool vkqs_query_pool_flags(struct vkqs_ctx *ctx, VkQueryType type, uint32_t count,
				  VkQueryPipelineStatisticFlags stats,
				  VkQueryPoolCreateFlags flags, const void *next)
{
	return query_pool(ctx, type, count, stats, flags, next);
}

void vkqs_expect_not_ready(struct vkqs_ctx *ctx, VkResult r, const char *what)
{
	if (r == VK_SUCCESS)
		vkqs_compat_warning(ctx, "%s: VK_SUCCESS with an unavailable query and no WAIT "
					 "(VK_NOT_READY expected by earlier spec versions and CTS)",
				    what);
	else
		vkqs_check_vk(ctx, false, __FILE__, __LINE__, what, r, VK_NOT_READY);
}

bool vkqs_expect_unwritten(struct vkqs_ctx *ctx, const uint8_t *p, size_t n, uint8_t guard,
			   const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != guard) {
			vkqs_compat_warning(ctx, "%s: value byte %zu written (0x%02x); earlier spec "
						 "versions and CTS: no value is written for an "
						 "unavailable query", what, i, p[i]);
			return false;
		}
	return true;
}

size_t vkqs_result_word(VkQueryResultFlags flags)
{
	return (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
}

size_t vkqs_result_elem(VkQueryResultFlags flags)
{
	return vkqs_result_word(flags) *
	       ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 2 : 1);
}

size_t vkqs_result_span(uint32_t count, VkDeviceSize stride, VkQueryResultFlags flags)
{
	return (size_t)(count - 1) * stride + vkqs_result_elem(flags);
}

uint64_t vkqs_load_word(const void *p, size_t size)
{
	if (size == 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* Render targets ----------------------------------------------------------*/

VkImage vkqs_image_create(struct vkqs_ctx *ctx, VkFormat format, uint32_t width,
			  uint32_t height, uint32_t layers, VkSampleCountFlagBits samples,
			  VkImageUsageFlags usage)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
		.imageType = VK_IMAGE_TYPE_2D,
		.format = format,
		.extent = {width, height, 1},
		.mipLevels = 1,
		.arrayLayers = layers,
		.samples = samples,
		.tiling = VK_IMAGE_TILING_OPTIMAL,
		.usage = usage,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	};
	VkImage img;
	VKQS_CHECK(ctx, D->vkCreateImage(DEV, &ci, NULL, &img));
	DEFER(VkImage, img);
	VkMemoryRequirements req;
	D->vkGetImageMemoryRequirements(DEV, img, &req);
	uint32_t type = vkqs_memory_type(ctx, req.memoryTypeBits,
					 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (type == UINT32_MAX)
		type = vkqs_memory_type(ctx, req.memoryTypeBits, 0);
	if (type == UINT32_MAX)
		vkqs_internal_error(ctx, "no memory type for an image");
	/* A buffer whose address is taken needs memory allocated for that
	 * (VUID-vkBindBufferMemory-bufferDeviceAddress-03339). */
	VkMemoryAllocateFlagsInfo flags = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
		.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
	};
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
		.pNext = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) ? &flags : NULL,
		.allocationSize = req.size,
		.memoryTypeIndex = type,
	};
	VkDeviceMemory mem;
	VKQS_CHECK(ctx, D->vkAllocateMemory(DEV, &mai, NULL, &mem));
	DEFER(VkDeviceMemory, mem);
	VKQS_CHECK(ctx, D->vkBindImageMemory(DEV, img, mem, 0));
	return img;
}

VkImageView vkqs_image_view(struct vkqs_ctx *ctx, VkImage img, VkImageViewType type,
			    VkFormat format, VkImageAspectFlags aspect, uint32_t layers)
{
	VkImageViewCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = img,
		.viewType = type,
		.format = format,
		.subresourceRange = {aspect, 0, 1, 0, layers},
	};
	VkImageView v;
	VKQS_CHECK(ctx, D->vkCreateImageView(DEV, &ci, NULL, &v));
	DEFER(VkImageView, v);
	return v;
}

void vkqs_cmd_image_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
			    VkImageAspectFlags aspect, uint32_t layers, VkImageLayout from,
			    VkImageLayout to, VkPipelineStageFlags src_stage,
			    VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
			    VkAccessFlags dst_access)
{
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = src_access,
		.dstAccessMask = dst_access,
		.oldLayout = from,
		.newLayout = to,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img,
		.subresourceRange = {aspect, 0, 1, 0, layers},
	};
	D->vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

bool vkqs_format_has_stencil(VkFormat f)
{
	return f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT ||
	       f == VK_FORMAT_D32_SFLOAT_S8_UINT || f == VK_FORMAT_S8_UINT;
}

VkAttachmentDescription vkqs_attachment_desc(VkFormat format, VkSampleCountFlagBits samples,
					     bool depth)
{
	return (VkAttachmentDescription){
		.format = format,
		.samples = samples,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.stencilLoadOp = depth && vkqs_format_has_stencil(format)
					 ? VK_ATTACHMENT_LOAD_OP_CLEAR
					 : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.finalLayout = depth ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
				     : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
	};
}

uint32_t vkqs_subpass_dependencies(uint32_t subpass_count, VkSubpassDependency *deps)
{
	uint32_t n = 0;
	const VkAccessFlags any = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
	deps[n++] = (VkSubpassDependency){
		.srcSubpass = VK_SUBPASS_EXTERNAL,
		.dstSubpass = 0,
		.srcStageMask = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
		/* the subpass side may name graphics stages only
		 * (VUID-VkRenderPassCreateInfo-pDependencies-00838) */
		.dstStageMask = VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = any,
	};
	for (uint32_t s = 1; s < subpass_count; s++)
		deps[n++] = (VkSubpassDependency){
			.srcSubpass = s - 1,
			.dstSubpass = s,
			.srcStageMask = VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
			.dstStageMask = VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
			.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
			.dstAccessMask = any,
		};
	deps[n++] = (VkSubpassDependency){
		.srcSubpass = subpass_count - 1,
		.dstSubpass = VK_SUBPASS_EXTERNAL,
		.srcStageMask = VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
		.dstStageMask = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
		.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
		.dstAccessMask = any,
	};
	return n;
}

VkFramebuffer vkqs_framebuffer_create(struct vkqs_ctx *ctx, VkRenderPass render_pass,
				      const VkImageView *views, uint32_t count, uint32_t width,
				      uint32_t height)
{
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = render_pass,
		.attachmentCount = count,
		.pAttachments = views,
		.width = width,
		.height = height,
		.layers = 1,
	};
	VkFramebuffer fb;
	VKQS_CHECK(ctx, D->vkCreateFramebuffer(DEV, &fci, NULL, &fb));
	DEFER(VkFramebuffer, fb);
	return fb;
}

/* A single-layer attachment image that transfers may also read and write. */
static VkImage image_create(struct vkqs_ctx *ctx, VkFormat format, uint32_t w,
			    uint32_t h, VkSampleCountFlagBits samples,
			    VkImageUsageFlags usage)
{
	return vkqs_image_create(ctx, format, w, h, 1, samples,
				 usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
					 VK_IMAGE_USAGE_TRANSFER_DST_BIT);
}

static VkImageView view_create(struct vkqs_ctx *ctx, VkImage img, VkFormat format,
			       VkImageAspectFlags aspect)
{
	return vkqs_image_view(ctx, img, VK_IMAGE_VIEW_TYPE_2D, format, aspect, 1);
}

static struct vkqs_target *target_create(struct vkqs_ctx *ctx, uint32_t width,
					 uint32_t height, VkSampleCountFlagBits samples,
					 bool color, bool depth)
{
	const VkPhysicalDeviceLimits *lim = &ctx->vk->props.limits;
	if (color && !(lim->framebufferColorSampleCounts & samples))
		vkqs_skip(ctx, "framebufferColorSampleCounts lacks %u samples", samples);
	if (depth && !(lim->framebufferDepthSampleCounts & samples))
		vkqs_skip(ctx, "framebufferDepthSampleCounts lacks %u samples", samples);

	struct vkqs_target *t = vkqs_alloc(ctx, sizeof(*t));
	t->width = width;
	t->height = height;
	t->samples = samples;
	t->has_depth = depth;
	t->no_color = !color;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	t->depth_format = ctx->vk->depth_format;
	if (color) {
		t->color = image_create(ctx, t->color_format, width, height, samples,
					VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		t->color_view = view_create(ctx, t->color, t->color_format,
					    VK_IMAGE_ASPECT_COLOR_BIT);
	}
	if (depth) {
		t->depth = image_create(ctx, t->depth_format, width, height, samples,
					VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
		t->depth_view = view_create(ctx, t->depth, t->depth_format,
					    VK_IMAGE_ASPECT_DEPTH_BIT);
	}

	VkAttachmentDescription att[2] = {
		vkqs_attachment_desc(t->color_format, samples, false),
		vkqs_attachment_desc(t->depth_format, samples, true),
	};
	uint32_t first = color ? 0 : 1; /* without colour, att[1] alone */
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1 - first, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = color ? 1 : 0,
		.pColorAttachments = color ? &cref : NULL,
		.pDepthStencilAttachment = depth ? &dref : NULL,
	};
	/* Earlier transfers (clears of these images in an earlier case step)
	 * and later transfers of the attachments are ordered by these. */
	VkSubpassDependency deps[2];
	vkqs_subpass_dependencies(1, deps);
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = (color ? 1 : 0) + (depth ? 1 : 0),
		.pAttachments = att + first,
		.subpassCount = 1,
		.pSubpasses = &sub,
		.dependencyCount = 2,
		.pDependencies = deps,
	};
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &t->render_pass));
	DEFER(VkRenderPass, t->render_pass);

	VkImageView views[2] = {t->color_view, t->depth_view};
	t->framebuffer = vkqs_framebuffer_create(ctx, t->render_pass, views + first,
						 (color ? 1 : 0) + (depth ? 1 : 0), width, height);
	return t;
}

struct vkqs_target *vkqs_target_create(struct vkqs_ctx *ctx, uint32_t width,
				       uint32_t height, VkSampleCountFlagBits samples,
				       bool depth)
{
	return target_create(ctx, width, height, samples, true, depth);
}

struct vkqs_target *vkqs_target_create_no_attachments(struct vkqs_ctx *ctx, uint32_t width,
						      uint32_t height,
						      VkSampleCountFlagBits samples)
{
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.subpassCount = 1,
		.pSubpasses = &sub,
	};
	struct vkqs_target *t = vkqs_alloc(ctx, sizeof(*t));
	t->width = width;
	t->height = height;
	t->samples = samples;
	t->no_color = true;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	t->depth_format = ctx->vk->depth_format;
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &t->render_pass));
	DEFER(VkRenderPass, t->render_pass);
	t->framebuffer = vkqs_framebuffer_create(ctx, t->render_pass, NULL, 0, width, height);
	return t;
}

struct vkqs_target *vkqs_target_create_depth_only(struct vkqs_ctx *ctx, uint32_t width,
						  uint32_t height,
						  VkSampleCountFlagBits samples)
{
	return target_create(ctx, width, height, samples, false, true);
}

void vkqs_target_begin_ex(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			  const struct vkqs_target *t, float clear_depth,
			  uint32_t clear_stencil, VkSubpassContents contents)
{
	VkClearValue clear[2] = {
		{.color = {.float32 = {0, 0, 0, 0}}},
		{.depthStencil = {clear_depth, clear_stencil}},
	};
	VkRenderPassBeginInfo bi = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
		.renderPass = t->render_pass,
		.framebuffer = t->framebuffer,
		.renderArea = {{0, 0}, {t->width, t->height}},
		.clearValueCount = (t->no_color ? 0 : 1) + (t->has_depth ? 1 : 0),
		.pClearValues = t->no_color ? clear + 1 : clear,
	};
	D->vkCmdBeginRenderPass(cb, &bi, contents);
	if (contents == VK_SUBPASS_CONTENTS_INLINE)
		set_viewport_scissor(ctx, cb, t);
}

void vkqs_target_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		       const struct vkqs_target *t, float clear_depth)
{
	vkqs_target_begin_ex(ctx, cb, t, clear_depth, 0, VK_SUBPASS_CONTENTS_INLINE);
}

void vkqs_target_end(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	D->vkCmdEndRenderPass(cb);
}

/* Pipelines ---------------------------------------------------------------*/

VkShaderModule vkqs_shader_module(struct vkqs_ctx *ctx, const uint32_t *code,
				  size_t size)
{
	VkShaderModuleCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
		.codeSize = size,
		.pCode = code,
	};
	VkShaderModule m;
	VKQS_CHECK(ctx, D->vkCreateShaderModule(DEV, &ci, NULL, &m));
	DEFER(VkShaderModule, m);
	return m;
}

struct vkqs_pipeline *vkqs_pipeline_create(struct vkqs_ctx *ctx,
					   const struct vkqs_pipeline_target *where,
					   const struct vkqs_pipeline_desc *desc)
{
	struct vkqs_pipeline *p = vkqs_alloc(ctx, sizeof(*p));
	VkPushConstantRange pcr = {
		desc->push_stages ? desc->push_stages : VK_SHADER_STAGE_VERTEX_BIT, 0,
		desc->push_size ? desc->push_size : (uint32_t)sizeof(struct vkqs_rect_push)};
	VkPipelineLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = desc->set_layout != VK_NULL_HANDLE ? 1 : 0,
		.pSetLayouts = &desc->set_layout,
		.pushConstantRangeCount = 1,
		.pPushConstantRanges = &pcr,
	};
	VKQS_CHECK(ctx, D->vkCreatePipelineLayout(DEV, &lci, NULL, &p->layout));
	DEFER(VkPipelineLayout, p->layout);

	/* In pipeline order: task and mesh, or vertex, tessellation and
	 * geometry; fragment. */
	bool mesh = desc->mesh_spv != NULL;
	VkPipelineShaderStageCreateInfo stages[7];
	uint32_t n = 0;
	const struct {
		VkShaderStageFlagBits stage;
		const uint32_t *code;
		size_t size;
	} src[7] = {
		{VK_SHADER_STAGE_TASK_BIT_EXT, desc->task_spv, desc->task_size},
		{VK_SHADER_STAGE_MESH_BIT_EXT, desc->mesh_spv, desc->mesh_size},
		{VK_SHADER_STAGE_VERTEX_BIT,
		 mesh ? NULL : desc->vert_spv ? desc->vert_spv : rect_vert,
		 desc->vert_spv ? desc->vert_size : sizeof(rect_vert)},
		{VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, desc->tesc_spv, desc->tesc_size},
		{VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, desc->tese_spv, desc->tese_size},
		{VK_SHADER_STAGE_GEOMETRY_BIT, desc->geom_spv, desc->geom_size},
		{VK_SHADER_STAGE_FRAGMENT_BIT, desc->frag_spv ? desc->frag_spv : color_frag,
		 desc->frag_spv ? desc->frag_size : sizeof(color_frag)},
	};
	/* With rasterizerDiscardEnable the pipeline has no fragment shader
	 * state, so no fragment stage (VUID-VkGraphicsPipelineCreateInfo-
	 * pStages-06894); no_fragment_shader leaves it out by choice. */
	bool no_fs = desc->rasterizer_discard || desc->no_fragment_shader;
	for (uint32_t i = 0; i < 7; i++)
		if (src[i].code && !(no_fs && src[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT))
			stages[n++] = (VkPipelineShaderStageCreateInfo){
				.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
				.stage = src[i].stage,
				.module = vkqs_shader_module(ctx, src[i].code, src[i].size),
				.pName = "main",
			};
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = desc->set_topology ? desc->topology
					       : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.primitiveRestartEnable = desc->primitive_restart,
	};
	VkPipelineTessellationStateCreateInfo ts = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
		.patchControlPoints = desc->patch_control_points,
	};
	VkPipelineViewportStateCreateInfo vps = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1,
		.scissorCount = 1,
	};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.rasterizerDiscardEnable = desc->rasterizer_discard,
		.polygonMode = VK_POLYGON_MODE_FILL,
		.cullMode = desc->cull_mode,
		.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
		.lineWidth = desc->line_width > 0.0f ? desc->line_width : 1.0f,
	};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = where->samples,
		.sampleShadingEnable = desc->min_sample_shading > 0.0f,
		.minSampleShading = desc->min_sample_shading > 0.0f ? desc->min_sample_shading
								    : 0.0f,
		.pSampleMask = desc->sample_mask,
		.alphaToCoverageEnable = desc->alpha_to_coverage,
	};
	VkPipelineDepthStencilStateCreateInfo ds = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
		.depthTestEnable = desc->depth_test,
		.depthWriteEnable = desc->depth_write,
		.depthCompareOp = desc->depth_test ? desc->depth_compare : VK_COMPARE_OP_ALWAYS,
		.stencilTestEnable = desc->stencil_test,
		.front = desc->stencil,
		.back = desc->stencil,
		.minDepthBounds = 0.0f,
		.maxDepthBounds = 1.0f,
	};
	VkPipelineColorBlendAttachmentState cba = {
		.colorWriteMask = desc->no_color_writes
					  ? 0
					  : VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
						    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
	};
	static const VkBool32 write_enable = VK_TRUE;
	VkPipelineColorWriteCreateInfoEXT cwi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT,
		.attachmentCount = where->no_color ? 0 : 1,
		.pColorWriteEnables = &write_enable,
	};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.pNext = desc->dynamic_color_write ? &cwi : NULL,
		.attachmentCount = where->no_color ? 0 : 1,
		.pAttachments = &cba,
	};
	VkDynamicState dyn[4] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	uint32_t ndyn = 2;
	if (desc->dynamic_color_write)
		dyn[ndyn++] = VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT;
	if (desc->dynamic_alpha_to_coverage)
		dyn[ndyn++] = VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT;
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = ndyn,
		.pDynamicStates = dyn,
	};
	VkPipelineRenderingCreateInfo rci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
		.viewMask = where->view_mask,
		.colorAttachmentCount = where->no_color ? 0 : 1,
		.pColorAttachmentFormats = &where->color_format,
		.depthAttachmentFormat = where->has_depth ? where->depth_format
							  : VK_FORMAT_UNDEFINED,
	};
	VkPipelineCreateFlags2CreateInfoKHR flags2 = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR,
		.pNext = where->render_pass == VK_NULL_HANDLE ? &rci : NULL,
		.flags = desc->flags2,
	};
	VkGraphicsPipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.pNext = desc->flags2 ? (const void *)&flags2 : flags2.pNext,
		.stageCount = n,
		.pStages = stages,
		.pVertexInputState = mesh ? NULL : &vi,
		.pInputAssemblyState = mesh ? NULL : &ia,
		.pTessellationState = desc->tesc_spv ? &ts : NULL,
		.pViewportState = &vps,
		.pRasterizationState = &rs,
		.pMultisampleState = &ms,
		.pDepthStencilState = where->has_depth ? &ds : NULL,
		.pColorBlendState = &cb,
		.pDynamicState = &dy,
		.layout = p->layout,
		.renderPass = where->render_pass,
		.subpass = where->subpass,
	};
	VKQS_CHECK(ctx, D->vkCreateGraphicsPipelines(DEV, VK_NULL_HANDLE, 1, &ci, NULL,
						     &p->pipeline));
	DEFER(VkPipeline, p->pipeline);
	return p;
}

struct vkqs_pipeline *vkqs_pipeline_rect(struct vkqs_ctx *ctx,
					 const struct vkqs_target *t,
					 const struct vkqs_pipeline_desc *desc)
{
	struct vkqs_pipeline_target where = {
		.render_pass = t->render_pass,
		.subpass = 0,
		.samples = t->samples,
		.has_depth = t->has_depth,
		.color_format = t->color_format,
		.depth_format = t->depth_format,
		.no_color = t->no_color,
	};
	return vkqs_pipeline_create(ctx, &where, desc);
}

void vkqs_cmd_bind_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			const struct vkqs_pipeline *p, const struct vkqs_rect_push *pc)
{
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(*pc), pc);
}

void vkqs_draw_rect_n(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		      const struct vkqs_pipeline *p, const struct vkqs_target *t,
		      float x0, float y0, float x1, float y1, float z, uint32_t vertices)
{
	struct vkqs_rect_push pc = {
		{x0, y0, x1, y1}, {(float)t->width, (float)t->height}, z, 0};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
	D->vkCmdDraw(cb, vertices, 1, 0, 0);
}

void vkqs_draw_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb,
		    const struct vkqs_pipeline *p, const struct vkqs_target *t,
		    float x0, float y0, float x1, float y1, float z)
{
	vkqs_draw_rect_n(ctx, cb, p, t, x0, y0, x1, y1, z, 6);
}

VkDescriptorSet vkqs_storage_set(struct vkqs_ctx *ctx, const struct vkqs_buffer *buf,
				 VkShaderStageFlags stages, VkDescriptorSetLayout *dsl)
{
	VkDescriptorSetLayoutBinding bind = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL};
	VkDescriptorSetLayoutCreateInfo dli = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
		.bindingCount = 1,
		.pBindings = &bind,
	};
	VKQS_CHECK(ctx, D->vkCreateDescriptorSetLayout(DEV, &dli, NULL, dsl));
	DEFER(VkDescriptorSetLayout, *dsl);
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
	VkDescriptorPoolCreateInfo dpi = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
		.maxSets = 1,
		.poolSizeCount = 1,
		.pPoolSizes = &ps,
	};
	VkDescriptorPool dp;
	VKQS_CHECK(ctx, D->vkCreateDescriptorPool(DEV, &dpi, NULL, &dp));
	DEFER(VkDescriptorPool, dp);
	VkDescriptorSetAllocateInfo dsai = {
		.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
		.descriptorPool = dp,
		.descriptorSetCount = 1,
		.pSetLayouts = dsl,
	};
	VkDescriptorSet set;
	VKQS_CHECK(ctx, D->vkAllocateDescriptorSets(DEV, &dsai, &set));
	VkDescriptorBufferInfo dbi = {buf->buf, 0, VK_WHOLE_SIZE};
	VkWriteDescriptorSet w = {
		.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
		.dstSet = set,
		.descriptorCount = 1,
		.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		.pBufferInfo = &dbi,
	};
	D->vkUpdateDescriptorSets(DEV, 1, &w, 0, NULL);
	return set;
}

struct vkqs_compute *vkqs_compute_create(struct vkqs_ctx *ctx, const uint32_t *spv, size_t size,
					 const struct vkqs_buffer *buf, uint32_t push_size,
					 VkPipelineCreateFlags2KHR flags2)
{
	struct vkqs_compute *c = vkqs_alloc(ctx, sizeof(*c));
	VkDescriptorSetLayout dsl;
	c->set = vkqs_storage_set(ctx, buf, VK_SHADER_STAGE_COMPUTE_BIT, &dsl);
	VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size};
	VkPipelineLayoutCreateInfo lci = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
		.setLayoutCount = 1,
		.pSetLayouts = &dsl,
		.pushConstantRangeCount = push_size ? 1 : 0,
		.pPushConstantRanges = &pcr,
	};
	VKQS_CHECK(ctx, D->vkCreatePipelineLayout(DEV, &lci, NULL, &c->layout));
	DEFER(VkPipelineLayout, c->layout);
	VkPipelineCreateFlags2CreateInfoKHR f2 = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_CREATE_FLAGS_2_CREATE_INFO_KHR,
		.flags = flags2,
	};
	VkComputePipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.pNext = flags2 ? &f2 : NULL,
		.stage = {
			.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			.stage = VK_SHADER_STAGE_COMPUTE_BIT,
			.module = vkqs_shader_module(ctx, spv, size),
			.pName = "main",
		},
		.layout = c->layout,
	};
	VKQS_CHECK(ctx, D->vkCreateComputePipelines(DEV, VK_NULL_HANDLE, 1, &ci, NULL, &c->pipeline));
	DEFER(VkPipeline, c->pipeline);
	return c;
}

void vkqs_cmd_bind_compute(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_compute *c)
{
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
	D->vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0,
				   NULL);
}
