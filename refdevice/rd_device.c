/* The device and its plain objects: queues, memory, buffers, images,
 * views, synchronization objects and query pools. */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat.h"
#include "rd.h"
#include "rd_api.h"


VKAPI_ATTR VkResult VKAPI_CALL rd_CreateDevice(VkPhysicalDevice physicalDevice,
					       const VkDeviceCreateInfo *ci,
					       const VkAllocationCallbacks *pAllocator,
					       VkDevice *pDevice)
{
	RD_FROM_HANDLE(rd_physical_device, pd, physicalDevice);
	/* Every extension offered (a fixed array of 16 once lost the 17th:
	 * VK_KHR_calibrated_timestamps under RD_CLOCK=host). */
	uint32_t next = 0;
	rd_EnumerateDeviceExtensionProperties(physicalDevice, NULL, &next, NULL);
	VkExtensionProperties *exts = calloc(next ? next : 1, sizeof(*exts));
	if (!exts)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	rd_EnumerateDeviceExtensionProperties(physicalDevice, NULL, &next, exts);
	for (uint32_t i = 0; i < ci->enabledExtensionCount; i++) {
		bool ok = false;
		for (uint32_t k = 0; k < next; k++)
			ok |= !strcmp(exts[k].extensionName, ci->ppEnabledExtensionNames[i]);
		if (!ok) {
			free(exts);
			return RD_ERROR(VK_ERROR_EXTENSION_NOT_PRESENT,
					"vkCreateDevice: extension %s is not supported",
					ci->ppEnabledExtensionNames[i]);
		}
	}
	free(exts);
	struct rd_device *dev = rd_object_alloc(NULL, pAllocator, sizeof(*dev),
						VK_OBJECT_TYPE_DEVICE);
	if (!dev)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	dev->base.device = dev;
	dev->phys = pd;
	dev->instance = pd->instance;
	if (pAllocator) {
		dev->alloc = *pAllocator;
		dev->has_alloc = true;
	}
	atomic_store(&dev->clock, 0);
	dev->clock_host_base = rd_now_ns();
	/* Query types of extensions are accepted when the extension is
	 * enabled.  (Their features' "must be enabled" is the application's
	 * rule, checked by the validation layer; a layer older than the
	 * extension drops the feature struct from the chain it passes on.) */
	for (uint32_t i = 0; i < ci->enabledExtensionCount; i++)
		if (!strcmp(ci->ppEnabledExtensionNames[i], VK_QCOM_ELAPSED_TIMER_QUERY_EXTENSION_NAME))
			dev->elapsed_timer_query = true;
		else if (!strcmp(ci->ppEnabledExtensionNames[i], VK_KHR_PERFORMANCE_QUERY_EXTENSION_NAME))
			dev->performance_query = true;
		else if (!strcmp(ci->ppEnabledExtensionNames[i],
				 VK_ARM_SHADER_INSTRUMENTATION_EXTENSION_NAME))
			dev->shader_instrumentation = true;
		else if (!strcmp(ci->ppEnabledExtensionNames[i],
				 VK_INTEL_PERFORMANCE_QUERY_EXTENSION_NAME))
			dev->intel_perf = true;
	dev->profiling_lock_fd = -1;
	pthread_mutex_init(&dev->event_lock, NULL);
	pthread_cond_init(&dev->event_cond, NULL);
	pthread_mutex_init(&dev->addr_lock, NULL);
	for (uint32_t i = 0; i < ci->queueCreateInfoCount; i++) {
		const VkDeviceQueueCreateInfo *q = &ci->pQueueCreateInfos[i];
		uint32_t fam = q->queueFamilyIndex;
		uint32_t max = fam == RD_FAMILY_GRAPHICS ? RD_GRAPHICS_QUEUES : 1;
		if (fam >= RD_FAMILY_COUNT || q->queueCount > max) {
			rd_DestroyDevice(RD_TO_HANDLE(VkDevice, dev), pAllocator);
			return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
					"vkCreateDevice: family %u has no %u queues", fam,
					q->queueCount);
		}
		for (uint32_t k = 0; k < q->queueCount; k++) {
			struct rd_queue *queue = rd_object_alloc(dev, pAllocator, sizeof(*queue),
								 VK_OBJECT_TYPE_QUEUE);
			if (!queue) {
				rd_DestroyDevice(RD_TO_HANDLE(VkDevice, dev), pAllocator);
				return VK_ERROR_OUT_OF_HOST_MEMORY;
			}
			queue->family = fam;
			queue->index = k;
			dev->queues[fam][k] = queue;
			dev->queue_count[fam] = k + 1;
			if (rd_queue_start(queue) != 0) {
				rd_DestroyDevice(RD_TO_HANDLE(VkDevice, dev), pAllocator);
				return RD_ERROR(VK_ERROR_INITIALIZATION_FAILED,
						"vkCreateDevice: cannot start a queue thread");
			}
		}
	}
	*pDevice = RD_TO_HANDLE(VkDevice, dev);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (!dev)
		return;
	for (int f = 0; f < RD_FAMILY_COUNT; f++)
		for (int k = 0; k < RD_GRAPHICS_QUEUES; k++)
			if (dev->queues[f][k]) {
				rd_queue_stop(dev->queues[f][k]);
				rd_free(DEV_ALLOC(dev, pAllocator), dev->queues[f][k]);
			}
	rd_perf_release_lock(dev);
	pthread_mutex_destroy(&dev->event_lock);
	pthread_cond_destroy(&dev->event_cond);
	pthread_mutex_destroy(&dev->addr_lock);
	free(dev->addr_buffers);
	rd_free(pAllocator, dev);
}

VKAPI_ATTR void VKAPI_CALL rd_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index,
					     VkQueue *pQueue)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	*pQueue = family < RD_FAMILY_COUNT && index < RD_GRAPHICS_QUEUES
			  ? RD_TO_HANDLE(VkQueue, dev->queues[family][index])
			  : VK_NULL_HANDLE;
}

VKAPI_ATTR void VKAPI_CALL rd_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *info,
					      VkQueue *pQueue)
{
	rd_GetDeviceQueue(device, info->queueFamilyIndex, info->queueIndex, pQueue);
}

void rd_device_lose(struct rd_device *dev, const char *why)
{
	if (!atomic_exchange(&dev->lost, true))
		rd_log("the device is lost: %s; VK_ERROR_DEVICE_LOST from now on", why);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_DeviceWaitIdle(VkDevice device)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	for (int f = 0; f < RD_FAMILY_COUNT; f++)
		for (int k = 0; k < RD_GRAPHICS_QUEUES; k++)
			if (dev->queues[f][k])
				rd_queue_wait_idle(dev->queues[f][k]);
	return rd_device_lost(dev) ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

/* Memory ------------------------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_AllocateMemory(VkDevice device, const VkMemoryAllocateInfo *ai,
						 const VkAllocationCallbacks *pAllocator,
						 VkDeviceMemory *pMemory)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (ai->memoryTypeIndex != 0)
		return RD_ERROR(VK_ERROR_OUT_OF_DEVICE_MEMORY,
				"vkAllocateMemory: no memory type %u", ai->memoryTypeIndex);
	if (ai->allocationSize > (2ull << 30))
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	struct rd_memory *m = rd_object_alloc(dev, pAllocator, sizeof(*m),
					      VK_OBJECT_TYPE_DEVICE_MEMORY);
	if (!m)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	/* 64-byte aligned (minMemoryMapAlignment); contents undefined by the
	 * spec, zeroed here so runs are reproducible. */
	size_t size = (size_t)(ai->allocationSize + 63) & ~(size_t)63;
	if (posix_memalign((void **)&m->data, 64, size ? size : 64) != 0) {
		rd_free(DEV_ALLOC(dev, pAllocator), m);
		return VK_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	memset(m->data, 0, size);
	m->size = ai->allocationSize;
	*pMemory = RD_TO_HANDLE(VkDeviceMemory, m);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_FreeMemory(VkDevice device, VkDeviceMemory memory,
					 const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_memory, m, memory);
	if (!m)
		return;
	free(m->data);
	rd_free(DEV_ALLOC(dev, pAllocator), m);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_MapMemory(VkDevice device, VkDeviceMemory memory,
					    VkDeviceSize offset, VkDeviceSize size,
					    VkMemoryMapFlags flags, void **ppData)
{
	RD_FROM_HANDLE(rd_memory, m, memory);
	if (offset > m->size)
		return RD_ERROR(VK_ERROR_MEMORY_MAP_FAILED, "vkMapMemory: offset past the end");
	m->mapped = true;
	*ppData = m->data + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_UnmapMemory(VkDevice device, VkDeviceMemory memory)
{
	RD_FROM_HANDLE(rd_memory, m, memory);
	m->mapped = false;
}

/* Host-coherent memory: nothing to flush or invalidate. */
VKAPI_ATTR VkResult VKAPI_CALL rd_FlushMappedMemoryRanges(VkDevice device, uint32_t count,
							  const VkMappedMemoryRange *ranges)
{
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_InvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
							       const VkMappedMemoryRange *ranges)
{
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_GetDeviceMemoryCommitment(VkDevice device, VkDeviceMemory memory,
							VkDeviceSize *pCommitted)
{
	RD_FROM_HANDLE(rd_memory, m, memory);
	*pCommitted = m->size;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateBuffer(VkDevice device, const VkBufferCreateInfo *ci,
					       const VkAllocationCallbacks *pAllocator,
					       VkBuffer *pBuffer)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_buffer *b = rd_object_alloc(dev, pAllocator, sizeof(*b), VK_OBJECT_TYPE_BUFFER);
	if (!b)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	b->size = ci->size;
	b->usage = ci->usage;
	*pBuffer = RD_TO_HANDLE(VkBuffer, b);
	return VK_SUCCESS;
}

/* Device addresses (rd_GetBufferDeviceAddress) are the host addresses of
 * buffer memory; a shader's access through one (PhysicalStorageBuffer)
 * must fall inside a bound buffer, which the device looks up here. */
static void address_forget(struct rd_device *dev, struct rd_buffer *b)
{
	pthread_mutex_lock(&dev->addr_lock);
	for (uint32_t i = 0; i < dev->addr_count; i++)
		if (dev->addr_buffers[i] == b) {
			dev->addr_buffers[i] = dev->addr_buffers[--dev->addr_count];
			break;
		}
	pthread_mutex_unlock(&dev->addr_lock);
}

static VkResult address_remember(struct rd_device *dev, struct rd_buffer *b)
{
	VkResult r = VK_SUCCESS;
	pthread_mutex_lock(&dev->addr_lock);
	if (dev->addr_count == dev->addr_cap) {
		uint32_t cap = dev->addr_cap ? 2 * dev->addr_cap : 64;
		struct rd_buffer **n = realloc(dev->addr_buffers, (size_t)cap * sizeof(*n));
		if (n) {
			dev->addr_buffers = n;
			dev->addr_cap = cap;
		}
	}
	if (dev->addr_count < dev->addr_cap)
		dev->addr_buffers[dev->addr_count++] = b;
	else
		r = VK_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_unlock(&dev->addr_lock);
	return r;
}

bool rd_device_address_range(struct rd_device *dev, uint64_t addr, uint64_t len,
			     struct rd_address_range *out)
{
	bool found = false;
	pthread_mutex_lock(&dev->addr_lock);
	for (uint32_t i = 0; i < dev->addr_count && !found; i++) {
		const struct rd_buffer *b = dev->addr_buffers[i];
		uint64_t base = (uint64_t)(uintptr_t)b->data;
		if (addr >= base && addr - base <= b->size && len <= b->size - (addr - base)) {
			*out = (struct rd_address_range){ .base = base, .size = b->size, .data = b->data };
			found = true;
		}
	}
	pthread_mutex_unlock(&dev->addr_lock);
	return found;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyBuffer(VkDevice device, VkBuffer buffer,
					    const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	if (buffer != VK_NULL_HANDLE && ((struct rd_buffer *)buffer)->data)
		address_forget(dev, (struct rd_buffer *)buffer);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)buffer);
}

static void buffer_requirements(VkDeviceSize size, VkMemoryRequirements *r)
{
	r->size = (size + 63) & ~(VkDeviceSize)63;
	r->alignment = 64;
	r->memoryTypeBits = 1;
}

VKAPI_ATTR void VKAPI_CALL rd_GetBufferMemoryRequirements(VkDevice device, VkBuffer buffer,
							  VkMemoryRequirements *r)
{
	RD_FROM_HANDLE(rd_buffer, b, buffer);
	buffer_requirements(b->size, r);
}

VKAPI_ATTR void VKAPI_CALL rd_GetBufferMemoryRequirements2(
	VkDevice device, const VkBufferMemoryRequirementsInfo2 *info, VkMemoryRequirements2 *r)
{
	rd_GetBufferMemoryRequirements(device, info->buffer, &r->memoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL rd_GetDeviceBufferMemoryRequirements(
	VkDevice device, const VkDeviceBufferMemoryRequirements *info, VkMemoryRequirements2 *r)
{
	buffer_requirements(info->pCreateInfo->size, &r->memoryRequirements);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BindBufferMemory(VkDevice device, VkBuffer buffer,
						   VkDeviceMemory memory, VkDeviceSize offset)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_buffer, b, buffer);
	RD_FROM_HANDLE(rd_memory, m, memory);
	b->mem = m;
	b->offset = offset;
	b->data = m->data + offset;
	return address_remember(dev, b);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BindBufferMemory2(VkDevice device, uint32_t count,
						    const VkBindBufferMemoryInfo *infos)
{
	VkResult r = VK_SUCCESS;
	for (uint32_t i = 0; i < count; i++) {
		VkResult ri = rd_BindBufferMemory(device, infos[i].buffer, infos[i].memory, infos[i].memoryOffset);
		if (ri != VK_SUCCESS)
			r = ri;
	}
	return r;
}

VKAPI_ATTR VkDeviceAddress VKAPI_CALL rd_GetBufferDeviceAddress(VkDevice device,
								const VkBufferDeviceAddressInfo *info)
{
	RD_FROM_HANDLE(rd_buffer, b, info->buffer);
	return (VkDeviceAddress)(uintptr_t)b->data;
}

VKAPI_ATTR uint64_t VKAPI_CALL rd_GetBufferOpaqueCaptureAddress(
	VkDevice device, const VkBufferDeviceAddressInfo *info)
{
	return 0;
}

VKAPI_ATTR uint64_t VKAPI_CALL rd_GetDeviceMemoryOpaqueCaptureAddress(
	VkDevice device, const VkDeviceMemoryOpaqueCaptureAddressInfo *info)
{
	return 0;
}

/* Images -------------------------------------------------------------------*/

static VkDeviceSize image_size(const VkImageCreateInfo *ci, const struct rd_format_info *fi)
{
	return (VkDeviceSize)ci->extent.width * ci->extent.height * ci->extent.depth *
	       ci->arrayLayers * ci->samples * fi->texel_size;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateImage(VkDevice device, const VkImageCreateInfo *ci,
					      const VkAllocationCallbacks *pAllocator,
					      VkImage *pImage)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	const struct rd_format_info *fi = rd_format(ci->format);
	if (!fi)
		return RD_ERROR(VK_ERROR_FORMAT_NOT_SUPPORTED,
				"vkCreateImage: format %d is not supported", ci->format);
	if (ci->mipLevels != 1 || ci->imageType != VK_IMAGE_TYPE_2D)
		return RD_ERROR(VK_ERROR_FORMAT_NOT_SUPPORTED,
				"vkCreateImage: only 2D images with one mip level");
	struct rd_image *img = rd_object_alloc(dev, pAllocator, sizeof(*img), VK_OBJECT_TYPE_IMAGE);
	if (!img)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	img->type = ci->imageType;
	img->format = ci->format;
	img->fmt = fi;
	img->extent = ci->extent;
	img->layers = ci->arrayLayers;
	img->samples = ci->samples;
	img->usage = ci->usage;
	img->size = image_size(ci, fi);
	*pImage = RD_TO_HANDLE(VkImage, img);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyImage(VkDevice device, VkImage image,
					   const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)image);
}

VKAPI_ATTR void VKAPI_CALL rd_GetImageMemoryRequirements(VkDevice device, VkImage image,
							 VkMemoryRequirements *r)
{
	RD_FROM_HANDLE(rd_image, img, image);
	buffer_requirements(img->size, r);
}

VKAPI_ATTR void VKAPI_CALL rd_GetImageMemoryRequirements2(
	VkDevice device, const VkImageMemoryRequirementsInfo2 *info, VkMemoryRequirements2 *r)
{
	rd_GetImageMemoryRequirements(device, info->image, &r->memoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL rd_GetDeviceImageMemoryRequirements(
	VkDevice device, const VkDeviceImageMemoryRequirements *info, VkMemoryRequirements2 *r)
{
	const struct rd_format_info *fi = rd_format(info->pCreateInfo->format);
	buffer_requirements(fi ? image_size(info->pCreateInfo, fi) : 64, &r->memoryRequirements);
}

VKAPI_ATTR void VKAPI_CALL rd_GetImageSparseMemoryRequirements(
	VkDevice device, VkImage image, uint32_t *pCount, VkSparseImageMemoryRequirements *p)
{
	*pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL rd_GetImageSparseMemoryRequirements2(
	VkDevice device, const VkImageSparseMemoryRequirementsInfo2 *info, uint32_t *pCount,
	VkSparseImageMemoryRequirements2 *p)
{
	*pCount = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BindImageMemory(VkDevice device, VkImage image,
						  VkDeviceMemory memory, VkDeviceSize offset)
{
	RD_FROM_HANDLE(rd_image, img, image);
	RD_FROM_HANDLE(rd_memory, m, memory);
	img->mem = m;
	img->offset = offset;
	img->data = m->data + offset;
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_BindImageMemory2(VkDevice device, uint32_t count,
						   const VkBindImageMemoryInfo *infos)
{
	for (uint32_t i = 0; i < count; i++)
		rd_BindImageMemory(device, infos[i].image, infos[i].memory, infos[i].memoryOffset);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_GetImageSubresourceLayout(VkDevice device, VkImage image,
							const VkImageSubresource *sub,
							VkSubresourceLayout *layout)
{
	RD_FROM_HANDLE(rd_image, img, image);
	VkDeviceSize texel = img->fmt->texel_size * img->samples;
	layout->rowPitch = texel * img->extent.width;
	layout->depthPitch = layout->rowPitch * img->extent.height;
	layout->arrayPitch = layout->depthPitch;
	layout->offset = layout->arrayPitch * sub->arrayLayer;
	layout->size = layout->arrayPitch;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateImageView(VkDevice device, const VkImageViewCreateInfo *ci,
						  const VkAllocationCallbacks *pAllocator,
						  VkImageView *pView)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_image, img, ci->image);
	struct rd_image_view *v = rd_object_alloc(dev, pAllocator, sizeof(*v),
						  VK_OBJECT_TYPE_IMAGE_VIEW);
	if (!v)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	v->image = img;
	v->format = ci->format;
	v->aspects = ci->subresourceRange.aspectMask;
	v->base_layer = ci->subresourceRange.baseArrayLayer;
	v->layer_count = ci->subresourceRange.layerCount == VK_REMAINING_ARRAY_LAYERS
				 ? img->layers - v->base_layer
				 : ci->subresourceRange.layerCount;
	*pView = RD_TO_HANDLE(VkImageView, v);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyImageView(VkDevice device, VkImageView view,
					       const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)view);
}

/* Samplers exist so layouts can name them; no shader samples an image. */
VKAPI_ATTR VkResult VKAPI_CALL rd_CreateSampler(VkDevice device, const VkSamplerCreateInfo *ci,
						const VkAllocationCallbacks *pAllocator,
						VkSampler *pSampler)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_sampler *s = rd_object_alloc(dev, pAllocator, sizeof(*s), VK_OBJECT_TYPE_SAMPLER);
	if (!s)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	*pSampler = RD_TO_HANDLE(VkSampler, s);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroySampler(VkDevice device, VkSampler sampler,
					     const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)sampler);
}

/* Fences --------------------------------------------------------------------*/

static void abs_deadline(uint64_t timeout_ns, struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	uint64_t ns = (uint64_t)ts->tv_nsec + (timeout_ns > (1ull << 62) ? (1ull << 62) : timeout_ns);
	ts->tv_sec += (time_t)(ns / 1000000000ull);
	ts->tv_nsec = (long)(ns % 1000000000ull);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateFence(VkDevice device, const VkFenceCreateInfo *ci,
					      const VkAllocationCallbacks *pAllocator,
					      VkFence *pFence)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_fence *f = rd_object_alloc(dev, pAllocator, sizeof(*f), VK_OBJECT_TYPE_FENCE);
	if (!f)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->signaled = (ci->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
	*pFence = RD_TO_HANDLE(VkFence, f);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyFence(VkDevice device, VkFence fence,
					   const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_fence, f, fence);
	if (!f)
		return;
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cond);
	rd_free(DEV_ALLOC(dev, pAllocator), f);
}

void rd_fence_signal(struct rd_fence *f)
{
	pthread_mutex_lock(&f->lock);
	f->signaled = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ResetFences(VkDevice device, uint32_t count, const VkFence *fences)
{
	for (uint32_t i = 0; i < count; i++) {
		RD_FROM_HANDLE(rd_fence, f, fences[i]);
		pthread_mutex_lock(&f->lock);
		f->signaled = false;
		pthread_mutex_unlock(&f->lock);
	}
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetFenceStatus(VkDevice device, VkFence fence)
{
	RD_FROM_HANDLE(rd_fence, f, fence);
	pthread_mutex_lock(&f->lock);
	bool s = f->signaled;
	pthread_mutex_unlock(&f->lock);
	return s ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_WaitForFences(VkDevice device, uint32_t count,
						const VkFence *fences, VkBool32 waitAll,
						uint64_t timeout)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct timespec dl;
	abs_deadline(timeout, &dl);
	for (;;) {
		/* a lost device's work was dropped: the fences it would have
		 * signalled were, and the wait ends (VK_ERROR_DEVICE_LOST) */
		if (rd_device_lost(dev))
			return VK_ERROR_DEVICE_LOST;
		uint32_t done = 0;
		for (uint32_t i = 0; i < count; i++)
			done += rd_GetFenceStatus(device, fences[i]) == VK_SUCCESS;
		if ((waitAll && done == count) || (!waitAll && done > 0))
			return VK_SUCCESS;
		if (timeout == 0)
			return VK_TIMEOUT;
		/* Wait on the first unsignaled fence; re-check all after. */
		for (uint32_t i = 0; i < count; i++) {
			RD_FROM_HANDLE(rd_fence, f, fences[i]);
			pthread_mutex_lock(&f->lock);
			int rc = 0;
			if (!f->signaled)
				rc = pthread_cond_timedwait(&f->cond, &f->lock, &dl);
			pthread_mutex_unlock(&f->lock);
			if (rc == ETIMEDOUT)
				return VK_TIMEOUT;
			if (rc == 0)
				break;
		}
	}
}

/* Semaphores ------------------------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *ci,
						  const VkAllocationCallbacks *pAllocator,
						  VkSemaphore *pSemaphore)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_semaphore *s = rd_object_alloc(dev, pAllocator, sizeof(*s),
						 VK_OBJECT_TYPE_SEMAPHORE);
	if (!s)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	for (const VkBaseInStructure *p = ci->pNext; p; p = p->pNext)
		if (p->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) {
			const VkSemaphoreTypeCreateInfo *t = (const void *)p;
			s->timeline = t->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
			s->value = t->initialValue;
		}
	*pSemaphore = RD_TO_HANDLE(VkSemaphore, s);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroySemaphore(VkDevice device, VkSemaphore semaphore,
					       const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_semaphore, s, semaphore);
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	rd_free(DEV_ALLOC(dev, pAllocator), s);
}

/* Binary semaphores: value 1 = signaled; a wait consumes it. */
void rd_semaphore_signal(struct rd_semaphore *s, uint64_t value)
{
	pthread_mutex_lock(&s->lock);
	s->value = s->timeline ? (value > s->value ? value : s->value) : 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

bool rd_semaphore_wait(struct rd_semaphore *s, uint64_t value, uint64_t timeout_ns)
{
	struct timespec dl;
	abs_deadline(timeout_ns, &dl);
	uint64_t want = s->timeline ? value : 1;
	bool ok = true;
	pthread_mutex_lock(&s->lock);
	while (s->value < want) {
		if (timeout_ns == 0 || pthread_cond_timedwait(&s->cond, &s->lock, &dl) == ETIMEDOUT) {
			ok = s->value >= want;
			break;
		}
	}
	if (ok && !s->timeline)
		s->value = 0;
	pthread_mutex_unlock(&s->lock);
	return ok;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
							   uint64_t *pValue)
{
	RD_FROM_HANDLE(rd_semaphore, s, semaphore);
	pthread_mutex_lock(&s->lock);
	*pValue = s->value;
	pthread_mutex_unlock(&s->lock);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
						 uint64_t timeout)
{
	bool any = info->flags & VK_SEMAPHORE_WAIT_ANY_BIT;
	uint64_t end = rd_now_ns() + (timeout > (1ull << 62) ? (1ull << 62) : timeout);
	for (;;) {
		uint32_t done = 0;
		for (uint32_t i = 0; i < info->semaphoreCount; i++) {
			uint64_t v;
			rd_GetSemaphoreCounterValue(device, info->pSemaphores[i], &v);
			done += v >= info->pValues[i];
		}
		if ((any && done) || done == info->semaphoreCount)
			return VK_SUCCESS;
		uint64_t now = rd_now_ns();
		if (now >= end)
			return VK_TIMEOUT;
		/* Host waits on timeline semaphores are rare in the suite: poll. */
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
}

VKAPI_ATTR VkResult VKAPI_CALL rd_SignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info)
{
	RD_FROM_HANDLE(rd_semaphore, s, info->semaphore);
	rd_semaphore_signal(s, info->value);
	return VK_SUCCESS;
}

/* Events ------------------------------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateEvent(VkDevice device, const VkEventCreateInfo *ci,
					      const VkAllocationCallbacks *pAllocator,
					      VkEvent *pEvent)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	struct rd_event *e = rd_object_alloc(dev, pAllocator, sizeof(*e), VK_OBJECT_TYPE_EVENT);
	if (!e)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	atomic_store(&e->set, false);
	*pEvent = RD_TO_HANDLE(VkEvent, e);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyEvent(VkDevice device, VkEvent event,
					   const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	rd_free(DEV_ALLOC(dev, pAllocator), (void *)event);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetEventStatus(VkDevice device, VkEvent event)
{
	RD_FROM_HANDLE(rd_event, e, event);
	return atomic_load(&e->set) ? VK_EVENT_SET : VK_EVENT_RESET;
}

/* A host vkSetEvent wakes a queue blocked in vkCmdWaitEvents. */
VKAPI_ATTR VkResult VKAPI_CALL rd_SetEvent(VkDevice device, VkEvent event)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_event, e, event);
	pthread_mutex_lock(&dev->event_lock);
	atomic_store(&e->set, true);
	pthread_cond_broadcast(&dev->event_cond);
	pthread_mutex_unlock(&dev->event_lock);
	return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_ResetEvent(VkDevice device, VkEvent event)
{
	RD_FROM_HANDLE(rd_event, e, event);
	atomic_store(&e->set, false);
	return VK_SUCCESS;
}

/* Query pools ---------------------------------------------------------------------*/

VKAPI_ATTR VkResult VKAPI_CALL rd_CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo *ci,
						  const VkAllocationCallbacks *pAllocator,
						  VkQueryPool *pPool)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	uint32_t values = 1;
	VkVideoEncodeFeedbackFlagsKHR feedback = 0;
	switch ((int)ci->queryType) {
	case VK_QUERY_TYPE_OCCLUSION:
	case VK_QUERY_TYPE_TIMESTAMP:
		break;
	case VK_QUERY_TYPE_PIPELINE_STATISTICS:
		values = (uint32_t)__builtin_popcount(ci->pipelineStatistics);
		break;
	case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
		values = 2; /* 18.2: primitives written, primitives needed */
		break;
	case VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT:
	case VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT:
		break;
	case VK_QUERY_TYPE_TIME_ELAPSED_QCOM:
		if (!dev->elapsed_timer_query)
			return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
					"vkCreateQueryPool: VK_QUERY_TYPE_TIME_ELAPSED_QCOM without "
					"VK_QCOM_elapsed_timer_query enabled");
		break;
	case VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR:
		if (!dev->performance_query)
			return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
					"vkCreateQueryPool: VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR without "
					"VK_KHR_performance_query enabled");
		break;
	case VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR:
		values = 0; /* 18.11: nothing but the status */
		break;
	case VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR:
		for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
			if (s->sType == VK_STRUCTURE_TYPE_QUERY_POOL_VIDEO_ENCODE_FEEDBACK_CREATE_INFO_KHR)
				feedback = ((const VkQueryPoolVideoEncodeFeedbackCreateInfoKHR *)s)
						   ->encodeFeedbackFlags;
		/* 18.12: one value for each bit enabled */
		values = (uint32_t)__builtin_popcount(feedback);
		break;
	case VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL:
		if (!dev->intel_perf)
			return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
					"vkCreateQueryPool: VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL without "
					"VK_INTEL_performance_query enabled");
		values = RD_INTEL_REPORT_WORDS;
		break;
	default:
		return RD_ERROR(VK_ERROR_FEATURE_NOT_PRESENT,
				"vkCreateQueryPool: query type %d is not supported", ci->queryType);
	}
	struct rd_query_pool *p = rd_object_alloc(dev, pAllocator, sizeof(*p),
						  VK_OBJECT_TYPE_QUERY_POOL);
	if (!p)
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	p->type = ci->queryType;
	p->count = ci->queryCount;
	p->statistics = ci->pipelineStatistics;
	p->value_count = values;
	p->encode_feedback = feedback;
	if (ci->queryType == VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR ||
	    ci->queryType == VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR) {
		p->status = calloc(ci->queryCount ? ci->queryCount : 1, sizeof(*p->status));
		if (!p->status) {
			rd_free(DEV_ALLOC(dev, pAllocator), p);
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		}
	}
	if (ci->queryType == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
		VkResult r = rd_perf_pool_init(p, ci);
		if (r != VK_SUCCESS) {
			free(p->counters);
			free(p->passes_done);
			rd_free(DEV_ALLOC(dev, pAllocator), p);
			return r;
		}
	}
	values = p->value_count;
	size_t n = ci->queryCount ? ci->queryCount : 1;
	p->values = calloc(n * (values ? values : 1), sizeof(*p->values));
	p->available = calloc(n, sizeof(*p->available));
	p->available_at_ns = calloc(n, sizeof(*p->available_at_ns));
	if (ci->queryType == VK_QUERY_TYPE_OCCLUSION)
		p->nonprecise = calloc(n, sizeof(*p->nonprecise));
	if (!p->values || !p->available || !p->available_at_ns ||
	    (ci->queryType == VK_QUERY_TYPE_OCCLUSION && !p->nonprecise)) {
		free(p->nonprecise);
		free(p->counters);
		free(p->passes_done);
		free(p->values);
		free((void *)p->available);
		free(p->available_at_ns);
		free(p->status);
		rd_free(DEV_ALLOC(dev, pAllocator), p);
		return VK_ERROR_OUT_OF_HOST_MEMORY;
	}
	/* New queries are left reset (zero, unavailable) whatever the flags:
	 * VK_QUERY_POOL_CREATE_RESET_BIT_KHR (VK_KHR_maintenance9) promises
	 * that state, and without it the queries are uninitialized, where
	 * any state is allowed.  The fault models an uninitialized pool as
	 * one with stale, available results. */
	bool common = ci->queryType == VK_QUERY_TYPE_OCCLUSION || ci->queryType == VK_QUERY_TYPE_TIMESTAMP;
	if ((ci->flags & VK_QUERY_POOL_CREATE_RESET_BIT_KHR) &&
	    (rd_fault(&dev->instance->config, RD_FAULT_CREATE_RESET_IGNORED) ||
	     /* the bit honoured for the common types only */
	     (!common && rd_fault(&dev->instance->config, RD_FAULT_CREATE_RESET_COMMON_ONLY)))) {
		for (size_t i = 0; i < n * (values ? values : 1); i++)
			p->values[i] = 0x5eed0000u + i;
		for (size_t i = 0; i < n; i++) {
			p->available[i] = 1;
			if (p->status) /* a stale "complete" (video pools) */
				p->status[i] = VK_QUERY_RESULT_STATUS_COMPLETE_KHR;
		}
	}
	*pPool = RD_TO_HANDLE(VkQueryPool, p);
	return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL rd_DestroyQueryPool(VkDevice device, VkQueryPool queryPool,
					       const VkAllocationCallbacks *pAllocator)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_query_pool, p, queryPool);
	if (!p)
		return;
	free(p->values);
	free((void *)p->available);
	free(p->available_at_ns);
	free(p->counters);
	free(p->passes_done);
	free(p->status);
	free(p->nonprecise);
	rd_free(DEV_ALLOC(dev, pAllocator), p);
}

/* RD_BENCH_BUSY_CPU=N: the machine a shared virtual machine is, where the
 * core under one CPU is busy with another tenant's work and host code on
 * it runs slower (docs/bench-stability.md; there up to 4x, here 10x so
 * that a test tells it from a machine's own noise): vkGetQueryPoolResults
 * and vkResetQueryPool called on CPU N do their work ten times. */
static bool rd_on_busy_cpu(const struct rd_config *c)
{
	return c->bench_busy_cpu >= 0 && sched_getcpu() == c->bench_busy_cpu;
}

/* RD_BENCH_SLOWDOWN=P: a call that found every query available writes P %
 * of its results once more (the same values: available queries keep
 * them).  The share of a query left over carries to the next call of the
 * thread, so that a call of one query costs P % more on average without a
 * clock read, which would cost more than the call. */
static __attribute__((tls_model("initial-exec"))) _Thread_local uint64_t slow_owed;

static void slow_results(struct rd_device *dev, struct rd_query_pool *p, uint32_t first,
			 uint32_t count, void *data, VkDeviceSize stride, VkQueryResultFlags flags,
			 uint32_t pct)
{
	slow_owed += (uint64_t)count * pct; /* hundredths of a query */
	while (slow_owed >= 100) {
		uint64_t n = slow_owed / 100 < count ? slow_owed / 100 : count;
		rd_query_write_results(dev, p, first, (uint32_t)n, data, stride, flags);
		slow_owed -= n * 100;
	}
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetQueryPoolResults(VkDevice device, VkQueryPool queryPool,
						      uint32_t firstQuery, uint32_t queryCount,
						      size_t dataSize, void *pData,
						      VkDeviceSize stride, VkQueryResultFlags flags)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_query_pool, p, queryPool);
	VkResult r = rd_query_write_results(dev, p, firstQuery, queryCount, pData, stride, flags);
	uint32_t slow = dev->instance->config.bench_slowdown_pct;
	if (slow && r == VK_SUCCESS)
		slow_results(dev, p, firstQuery, queryCount, pData, stride, flags, slow);
	if (r == VK_SUCCESS && rd_on_busy_cpu(&dev->instance->config))
		slow_results(dev, p, firstQuery, queryCount, pData, stride, flags, 900);
	return r;
}

VKAPI_ATTR void VKAPI_CALL rd_ResetQueryPool(VkDevice device, VkQueryPool queryPool,
					     uint32_t firstQuery, uint32_t queryCount)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	RD_FROM_HANDLE(rd_query_pool, p, queryPool);
	if (!rd_fault(&dev->instance->config, RD_FAULT_HOST_RESET_IGNORED))
		rd_query_reset(&dev->instance->config, p, firstQuery, queryCount);
	if (rd_on_busy_cpu(&dev->instance->config))
		for (int i = 0; i < 9; i++) /* the same reset nine times more */
			rd_query_reset(&dev->instance->config, p, firstQuery, queryCount);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_GetCalibratedTimestampsEXT(
	VkDevice device, uint32_t count, const VkCalibratedTimestampInfoEXT *infos,
	uint64_t *pTimestamps, uint64_t *pMaxDeviation)
{
	RD_FROM_HANDLE(rd_device, dev, device);
	/* Sample the host clock around the device samples: the deviation is
	 * the host interval they all lie in (the EXT proposal's method), at
	 * least one device tick. */
	uint64_t h0 = rd_now_ns();
	for (uint32_t i = 0; i < count; i++) {
		if (infos[i].timeDomain == VK_TIME_DOMAIN_DEVICE_EXT)
			pTimestamps[i] = rd_clock_now(dev);
		else if (infos[i].timeDomain == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT)
			pTimestamps[i] = rd_now_ns();
		else
			return RD_ERROR(VK_ERROR_UNKNOWN, "vkGetCalibratedTimestamps: domain %d",
					infos[i].timeDomain);
	}
	uint64_t h1 = rd_now_ns();
	uint64_t tick = (uint64_t)dev->instance->config.timestamp_period + 1;
	*pMaxDeviation = ((h1 - h0) > tick ? (h1 - h0) : tick) + dev->instance->config.max_deviation_ns;
	return VK_SUCCESS;
}
