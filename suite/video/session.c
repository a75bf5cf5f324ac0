/* session.h: video sessions and parameters for the video cases. */
#include "session.h"

#include <inttypes.h>

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

static void destroy_session(struct vkqs_ctx *ctx, void *arg)
{
	D->vkDestroyVideoSessionKHR(DEV, (VkVideoSessionKHR)(uintptr_t)arg, NULL);
}

static void destroy_params(struct vkqs_ctx *ctx, void *arg)
{
	D->vkDestroyVideoSessionParametersKHR(DEV, (VkVideoSessionParametersKHR)(uintptr_t)arg, NULL);
}

VkVideoSessionKHR vkqs_video_session(struct vkqs_ctx *ctx, const VkVideoSessionCreateInfoKHR *ci)
{
	VkVideoSessionKHR session;
	VKQS_CHECK(ctx, D->vkCreateVideoSessionKHR(DEV, ci, NULL, &session));
	vkqs_defer(ctx, destroy_session, (void *)(uintptr_t)session);
	uint32_t nreq = 0;
	VKQS_CHECK(ctx, D->vkGetVideoSessionMemoryRequirementsKHR(DEV, session, &nreq, NULL));
	VkVideoSessionMemoryRequirementsKHR *req = vkqs_alloc(ctx, (nreq + 1) * sizeof(*req));
	for (uint32_t i = 0; i < nreq; i++)
		req[i] = (VkVideoSessionMemoryRequirementsKHR){
			.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_MEMORY_REQUIREMENTS_KHR};
	VKQS_CHECK(ctx, D->vkGetVideoSessionMemoryRequirementsKHR(DEV, session, &nreq, req));
	VkBindVideoSessionMemoryInfoKHR *bind = vkqs_alloc(ctx, (nreq + 1) * sizeof(*bind));
	for (uint32_t i = 0; i < nreq; i++) {
		uint32_t type = vkqs_memory_type(ctx, req[i].memoryRequirements.memoryTypeBits,
						 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
		if (type == UINT32_MAX)
			type = vkqs_memory_type(ctx, req[i].memoryRequirements.memoryTypeBits, 0);
		VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
					    .allocationSize = req[i].memoryRequirements.size,
					    .memoryTypeIndex = type};
		VkDeviceMemory mem;
		VKQS_CHECK(ctx, D->vkAllocateMemory(DEV, &mai, NULL, &mem));
		vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_DEVICE_MEMORY, (void *)mem);
		bind[i] = (VkBindVideoSessionMemoryInfoKHR){
			.sType = VK_STRUCTURE_TYPE_BIND_VIDEO_SESSION_MEMORY_INFO_KHR,
			.memoryBindIndex = req[i].memoryBindIndex, .memory = mem,
			.memorySize = req[i].memoryRequirements.size};
	}
	if (nreq)
		VKQS_CHECK(ctx, D->vkBindVideoSessionMemoryKHR(DEV, session, nreq, bind));
	return session;
}

VkVideoSessionParametersKHR vkqs_video_params(struct vkqs_ctx *ctx, VkVideoSessionKHR session,
					      const void *next)
{
	VkVideoSessionParametersCreateInfoKHR pci = {
		.sType = VK_STRUCTURE_TYPE_VIDEO_SESSION_PARAMETERS_CREATE_INFO_KHR, .pNext = next,
		.videoSession = session};
	VkVideoSessionParametersKHR params;
	VKQS_CHECK(ctx, D->vkCreateVideoSessionParametersKHR(DEV, &pci, NULL, &params));
	vkqs_defer(ctx, destroy_params, (void *)(uintptr_t)params);
	return params;
}

void vkqs_video_picture(struct vkqs_ctx *ctx, const void *profile_list,
			const VkVideoFormatPropertiesKHR *fp, VkExtent2D extent,
			VkImageUsageFlags usage, VkImageUsageFlags view_usage, const uint32_t fams[2],
			VkImage *img, VkImageView *view)
{
	VkImageCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .pNext = profile_list,
		.flags = fp->imageCreateFlags, .imageType = fp->imageType, .format = fp->format,
		.extent = {extent.width, extent.height, 1}, .mipLevels = 1, .arrayLayers = 1,
		.samples = VK_SAMPLE_COUNT_1_BIT, .tiling = fp->imageTiling, .usage = usage,
		.sharingMode = VK_SHARING_MODE_CONCURRENT, .queueFamilyIndexCount = 2,
		.pQueueFamilyIndices = fams, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
	VKQS_CHECK(ctx, D->vkCreateImage(DEV, &ci, NULL, img));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_IMAGE, (void *)*img);
	VkMemoryRequirements req;
	D->vkGetImageMemoryRequirements(DEV, *img, &req);
	VkMemoryAllocateInfo mai = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
		.memoryTypeIndex = vkqs_memory_type(ctx, req.memoryTypeBits,
						    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
	VkDeviceMemory mem;
	VKQS_CHECK(ctx, D->vkAllocateMemory(DEV, &mai, NULL, &mem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_DEVICE_MEMORY, (void *)mem);
	VKQS_CHECK(ctx, D->vkBindImageMemory(DEV, *img, mem, 0));
	VkImageViewUsageCreateInfo vu = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
					 .usage = view_usage};
	VkImageViewCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .pNext = &vu, .image = *img,
		.viewType = VK_IMAGE_VIEW_TYPE_2D, .format = fp->format,
		.components = fp->componentMapping,
		.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VKQS_CHECK(ctx, D->vkCreateImageView(DEV, &vi, NULL, view));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_IMAGE_VIEW, (void *)*view);
}

void vkqs_video_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img, VkImageLayout from,
			VkImageLayout to, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
			VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
	VkImageMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
				   .srcStageMask = src, .srcAccessMask = src_access,
				   .dstStageMask = dst, .dstAccessMask = dst_access,
				   .oldLayout = from, .newLayout = to,
				   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
				   .image = img,
				   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
			       .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &b};
	D->vkCmdPipelineBarrier2(cb, &di);
}

VkVideoFormatPropertiesKHR vkqs_video_format(struct vkqs_ctx *ctx, const void *profile_list,
					     VkImageUsageFlags usage, VkFormat prefer)
{
	VkPhysicalDeviceVideoFormatInfoKHR fi = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_FORMAT_INFO_KHR, .pNext = profile_list,
		.imageUsage = usage};
	uint32_t n = 0;
	VkResult r = vkGetPhysicalDeviceVideoFormatPropertiesKHR(ctx->vk->phys, &fi, &n, NULL);
	if (r != VK_SUCCESS || n == 0)
		vkqs_skip(ctx, "no picture format for usage 0x%x: %s", usage, vkqs_vk_result_name(r));
	VkVideoFormatPropertiesKHR *p = vkqs_alloc(ctx, n * sizeof(*p));
	for (uint32_t i = 0; i < n; i++)
		p[i] = (VkVideoFormatPropertiesKHR){.sType = VK_STRUCTURE_TYPE_VIDEO_FORMAT_PROPERTIES_KHR};
	VKQS_CHECK(ctx, vkGetPhysicalDeviceVideoFormatPropertiesKHR(ctx->vk->phys, &fi, &n, p));
	for (uint32_t i = 0; i < n; i++)
		if (p[i].format == prefer)
			return p[i];
	return p[0];
}

void vkqs_video_expect_unavailable(struct vkqs_ctx *ctx, VkResult r, int64_t status, int64_t guard,
				   const char *what)
{
	vkqs_expect_not_ready(ctx, r, what);
	VKQS_EXPECTF(ctx, status == 0,
		     status == guard ? "%s: the status word was not written (the guard %" PRId64
				       " is still there)"
				     : "%s: status %" PRId64 " (0: not yet available)",
		     what, status);
}
