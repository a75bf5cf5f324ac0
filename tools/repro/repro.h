/* Shared set-up for the standalone driver reproducers in tools/repro/.
 *
 * Each reproducer is one C file plus this header and shaders.h (SPIR-V as C
 * arrays), built against the Vulkan loader alone:
 *
 *     cc -std=c11 -O1 -I tools/repro tools/repro/<name>.c -lvulkan -o <name>
 *
 * It picks the first physical device whose name contains $REPRO_DEVICE (any
 * device when unset), waits at most REPRO_FENCE_NS for every fence, prints
 * each step before it runs it, and exits 0 when the driver behaved as the
 * spec says, 1 when it broke the statement the reproducer names, 2 when the
 * device lacks what is needed, 3 when a fence did not signal or the device
 * was lost. */
#ifndef REPRO_H
#define REPRO_H

#undef VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPRO_FENCE_NS (5ull * 1000 * 1000 * 1000)

/* Step logs ("...: completed"); a reproducer that loops turns them off
 * after its first round. */
static bool repro_verbose = true;

struct repro {
	VkInstance instance;
	VkPhysicalDevice phys;
	VkPhysicalDeviceProperties props;
	VkDevice device;
	uint32_t family;
	VkQueue queue;
	VkCommandPool pool;
};

static inline void repro_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void repro_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline _Noreturn void repro_exit(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline _Noreturn void repro_exit(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	/* No clean-up: after a lost device or an unsignaled fence the driver
	 * may still use every object. */
	_exit(code);
}

#define REPRO_CHECK(call)                                                        \
	do {                                                                     \
		VkResult r_ = (call);                                            \
		if (r_ != VK_SUCCESS)                                            \
			repro_exit(r_ == VK_ERROR_DEVICE_LOST ? 3 : 2, "%s:%d: %s returned %d", \
				   __FILE__, __LINE__, #call, (int)r_);          \
	} while (0)

/* The instance and the physical device (the first whose name contains
 * $REPRO_DEVICE) with a graphics queue family. */
static inline void repro_pick(struct repro *r)
{
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .pApplicationName = "vkqs-repro",
				 .apiVersion = VK_API_VERSION_1_3};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				    .pApplicationInfo = &app};
	REPRO_CHECK(vkCreateInstance(&ici, NULL, &r->instance));
	uint32_t n = 0;
	REPRO_CHECK(vkEnumeratePhysicalDevices(r->instance, &n, NULL));
	VkPhysicalDevice *pd = calloc(n ? n : 1, sizeof(*pd));
	REPRO_CHECK(vkEnumeratePhysicalDevices(r->instance, &n, pd));
	const char *want = getenv("REPRO_DEVICE");
	r->phys = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < n && !r->phys; i++) {
		vkGetPhysicalDeviceProperties(pd[i], &r->props);
		if (!want || strstr(r->props.deviceName, want))
			r->phys = pd[i];
	}
	free(pd);
	if (!r->phys)
		repro_exit(2, "no physical device%s%s", want ? " named like " : "", want ? want : "");
	if (repro_verbose)
		repro_log("device: %s (driver version 0x%x)", r->props.deviceName,
			  r->props.driverVersion);
	uint32_t nq = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(r->phys, &nq, NULL);
	VkQueueFamilyProperties *qf = calloc(nq ? nq : 1, sizeof(*qf));
	vkGetPhysicalDeviceQueueFamilyProperties(r->phys, &nq, qf);
	r->family = UINT32_MAX;
	for (uint32_t i = 0; i < nq && r->family == UINT32_MAX; i++)
		if (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)
			r->family = i;
	free(qf);
	if (r->family == UINT32_MAX)
		repro_exit(2, "no graphics queue");
}

/* The device of r->phys with one graphics queue and a command pool.
 * `exts` are device extensions; `features` heads the pNext chain of
 * VkDeviceCreateInfo, filled by the caller. */
static bool repro_all_queues; /* one queue of every family, as vkqs makes up to 3 */

static inline void repro_device(struct repro *r, const char *const *exts, uint32_t next,
				VkPhysicalDeviceFeatures2 *features)
{
	const float prio = 1.0f;
	VkDeviceQueueCreateInfo qci[16];
	uint32_t nq = 0, families = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(r->phys, &families, NULL);
	for (uint32_t f = 0; f < families && nq < 16; f++)
		if (f == r->family || repro_all_queues)
			qci[nq++] = (VkDeviceQueueCreateInfo){
				.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
				.queueFamilyIndex = f,
				.queueCount = 1,
				.pQueuePriorities = &prio};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .pNext = features,
				  .queueCreateInfoCount = nq,
				  .pQueueCreateInfos = qci,
				  .enabledExtensionCount = next,
				  .ppEnabledExtensionNames = exts};
	VkResult res = vkCreateDevice(r->phys, &dci, NULL, &r->device);
	if (res != VK_SUCCESS)
		repro_exit(2, "vkCreateDevice returned %d (extensions or features missing?)",
			   (int)res);
	vkGetDeviceQueue(r->device, r->family, 0, &r->queue);
	VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
				       .queueFamilyIndex = r->family};
	REPRO_CHECK(vkCreateCommandPool(r->device, &pci, NULL, &r->pool));
}

static inline void repro_init(struct repro *r, const char *const *exts, uint32_t next,
			      VkPhysicalDeviceFeatures2 *features)
{
	repro_pick(r);
	repro_device(r, exts, next, features);
}

/* Destroys the command pool, the device and the instance (every other
 * object of the device must be gone). */
static inline void repro_fini(struct repro *r)
{
	vkDestroyCommandPool(r->device, r->pool, NULL);
	vkDestroyDevice(r->device, NULL);
	vkDestroyInstance(r->instance, NULL);
}

static inline VkCommandBuffer repro_cmd_begin(struct repro *r)
{
	VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					  .commandPool = r->pool,
					  .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					  .commandBufferCount = 1};
	VkCommandBuffer cb;
	REPRO_CHECK(vkAllocateCommandBuffers(r->device, &ai, &cb));
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
				       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	REPRO_CHECK(vkBeginCommandBuffer(cb, &bi));
	return cb;
}

/* Makes every earlier write visible to the host, ends, submits, waits. */
static inline void repro_cmd_submit_wait(struct repro *r, VkCommandBuffer cb, const char *step)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
			      .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
			     1, &mb, 0, NULL, 0, NULL);
	REPRO_CHECK(vkEndCommandBuffer(cb));
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence f;
	REPRO_CHECK(vkCreateFence(r->device, &fci, NULL, &f));
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cb};
	REPRO_CHECK(vkQueueSubmit(r->queue, 1, &si, f));
	VkResult res = vkWaitForFences(r->device, 1, &f, VK_TRUE, REPRO_FENCE_NS);
	if (res == VK_TIMEOUT)
		repro_exit(3, "%s: fence not signaled after %llu s (the GPU is hung)", step,
			   REPRO_FENCE_NS / 1000000000ull);
	if (res != VK_SUCCESS)
		repro_exit(3, "%s: vkWaitForFences returned %d%s", step, (int)res,
			   res == VK_ERROR_DEVICE_LOST ? " (VK_ERROR_DEVICE_LOST)" : "");
	vkDestroyFence(r->device, f, NULL);
	vkFreeCommandBuffers(r->device, r->pool, 1, &cb);
	if (repro_verbose)
		repro_log("%s: completed", step);
}

/* An allocation of its own for mr, of the first type with `want`. */
static inline VkDeviceMemory repro_memory(struct repro *r, const VkMemoryRequirements *mr,
					  VkMemoryPropertyFlags want)
{
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(r->phys, &mp);
	uint32_t type = UINT32_MAX;
	for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
		if ((mr->memoryTypeBits & (1u << i)) &&
		    (mp.memoryTypes[i].propertyFlags & want) == want)
			type = i;
	if (type == UINT32_MAX)
		repro_exit(2, "no memory type with properties 0x%x", (unsigned)want);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				    .allocationSize = mr->size,
				    .memoryTypeIndex = type};
	VkDeviceMemory m;
	REPRO_CHECK(vkAllocateMemory(r->device, &mai, NULL, &m));
	return m;
}

/* A host-visible, host-coherent buffer with memory of its own. */
struct repro_buffer {
	VkBuffer buf;
	VkDeviceMemory mem;
	uint8_t *map;
	VkDeviceSize size;
};

static inline void repro_buffer(struct repro *r, struct repro_buffer *b, VkDeviceSize size,
			 VkBufferUsageFlags usage)
{
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				  .size = size,
				  .usage = usage,
				  .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	REPRO_CHECK(vkCreateBuffer(r->device, &bci, NULL, &b->buf));
	VkMemoryRequirements mr;
	vkGetBufferMemoryRequirements(r->device, b->buf, &mr);
	b->mem = repro_memory(r, &mr, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
					     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	REPRO_CHECK(vkBindBufferMemory(r->device, b->buf, b->mem, 0));
	void *p;
	REPRO_CHECK(vkMapMemory(r->device, b->mem, 0, VK_WHOLE_SIZE, 0, &p));
	b->map = p;
	b->size = size;
}

static inline void repro_buffer_destroy(struct repro *r, struct repro_buffer *b)
{
	vkDestroyBuffer(r->device, b->buf, NULL);
	vkFreeMemory(r->device, b->mem, NULL);
	memset(b, 0, sizeof(*b));
}

/* The first byte of b that is not `fill`, or -1. */
static inline long repro_first_changed(const struct repro_buffer *b, uint8_t fill)
{
	for (VkDeviceSize i = 0; i < b->size; i++)
		if (b->map[i] != fill)
			return (long)i;
	return -1;
}

static inline VkShaderModule repro_shader(struct repro *r, const uint32_t *code, size_t size)
{
	VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
				       .codeSize = size,
				       .pCode = code};
	VkShaderModule m;
	REPRO_CHECK(vkCreateShaderModule(r->device, &ci, NULL, &m));
	return m;
}

/* A 2D colour image of `layers` layers and `samples` samples, its array
 * view, and a render pass with that one attachment (CLEAR / STORE,
 * UNDEFINED -> COLOR_ATTACHMENT_OPTIMAL) and, with view_mask != 0,
 * VkRenderPassMultiviewCreateInfo; a framebuffer of one layer. */
struct repro_target {
	VkImage image;
	VkDeviceMemory mem;
	VkImageView view;
	VkRenderPass render_pass;
	VkFramebuffer framebuffer;
	uint32_t size;
};

static inline void repro_target(struct repro *r, struct repro_target *t, uint32_t size,
			 uint32_t layers, VkSampleCountFlagBits samples, uint32_t view_mask)
{
	const VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
	t->size = size;
	VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
				 .imageType = VK_IMAGE_TYPE_2D,
				 .format = fmt,
				 .extent = {size, size, 1},
				 .mipLevels = 1,
				 .arrayLayers = layers,
				 .samples = samples,
				 .tiling = VK_IMAGE_TILING_OPTIMAL,
				 .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
				 .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
	REPRO_CHECK(vkCreateImage(r->device, &ici, NULL, &t->image));
	VkMemoryRequirements mr;
	vkGetImageMemoryRequirements(r->device, t->image, &mr);
	t->mem = repro_memory(r, &mr, 0);
	REPRO_CHECK(vkBindImageMemory(r->device, t->image, t->mem, 0));
	VkImageViewCreateInfo vci = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
		.image = t->image,
		.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY,
		.format = fmt,
		.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers},
	};
	REPRO_CHECK(vkCreateImageView(r->device, &vci, NULL, &t->view));
	VkAttachmentDescription att = {
		.format = fmt,
		.samples = samples,
		.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
		.storeOp = VK_ATTACHMENT_STORE_OP_STORE,
		.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
		.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
		.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
	};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
				    .colorAttachmentCount = 1,
				    .pColorAttachments = &ref};
	VkRenderPassMultiviewCreateInfo mv = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
		.subpassCount = 1,
		.pViewMasks = &view_mask,
	};
	VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				      .pNext = view_mask ? &mv : NULL,
				      .attachmentCount = 1,
				      .pAttachments = &att,
				      .subpassCount = 1,
				      .pSubpasses = &sub};
	REPRO_CHECK(vkCreateRenderPass(r->device, &rci, NULL, &t->render_pass));
	VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
				       .renderPass = t->render_pass,
				       .attachmentCount = 1,
				       .pAttachments = &t->view,
				       .width = size,
				       .height = size,
				       .layers = 1};
	REPRO_CHECK(vkCreateFramebuffer(r->device, &fci, NULL, &t->framebuffer));
}

static inline void repro_target_destroy(struct repro *r, struct repro_target *t)
{
	vkDestroyFramebuffer(r->device, t->framebuffer, NULL);
	vkDestroyRenderPass(r->device, t->render_pass, NULL);
	vkDestroyImageView(r->device, t->view, NULL);
	vkDestroyImage(r->device, t->image, NULL);
	vkFreeMemory(r->device, t->mem, NULL);
}

static inline void repro_target_begin(VkCommandBuffer cb, const struct repro_target *t)
{
	VkClearValue clear = {.color = {.float32 = {0, 0, 0, 0}}};
	VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
				    .renderPass = t->render_pass,
				    .framebuffer = t->framebuffer,
				    .renderArea = {{0, 0}, {t->size, t->size}},
				    .clearValueCount = 1,
				    .pClearValues = &clear};
	vkCmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
}

/* Pipeline state beyond repro_pipeline's defaults. */
struct repro_pipeline_opts {
	uint32_t push_size;   /* > 0: one vertex-stage push constant range at 0 */
	bool dynamic_viewport; /* viewport and scissor dynamic, set by the caller */
};

/* A pipeline for subpass 0 of t: vertex shader vs, the fragment shader
 * color_frag, `topology`, `samples`, fixed viewport and scissor of the
 * whole target (unless o says otherwise), no culling. */
static inline VkPipeline repro_pipeline_ex(struct repro *r, const struct repro_target *t,
					   VkShaderModule vs, VkShaderModule fs,
					   VkPrimitiveTopology topology,
					   VkSampleCountFlagBits samples,
					   const struct repro_pipeline_opts *o,
					   VkPipelineLayout *layout_out)
{
	VkPushConstantRange pcr = {VK_SHADER_STAGE_VERTEX_BIT, 0, o->push_size};
	VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					  .pushConstantRangeCount = o->push_size ? 1 : 0,
					  .pPushConstantRanges = &pcr};
	REPRO_CHECK(vkCreatePipelineLayout(r->device, &lci, NULL, layout_out));
	VkPipelineShaderStageCreateInfo stages[2] = {
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"},
	};
	VkPipelineVertexInputStateCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
		.topology = topology};
	VkViewport vp = {0, 0, (float)t->size, (float)t->size, 0, 1};
	VkRect2D sc = {{0, 0}, {t->size, t->size}};
	VkPipelineViewportStateCreateInfo vps = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
		.viewportCount = 1, .pViewports = &vp, .scissorCount = 1, .pScissors = &sc};
	VkPipelineRasterizationStateCreateInfo rs = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
		.polygonMode = VK_POLYGON_MODE_FILL,
		.cullMode = VK_CULL_MODE_NONE,
		.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
		.lineWidth = 1.0f};
	VkPipelineMultisampleStateCreateInfo ms = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
		.rasterizationSamples = samples};
	VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xf};
	VkPipelineColorBlendStateCreateInfo cb = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
		.attachmentCount = 1, .pAttachments = &cba};
	static const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo dy = {
		.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
		.dynamicStateCount = 2, .pDynamicStates = dyn};
	VkGraphicsPipelineCreateInfo gci = {
		.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
		.stageCount = 2,
		.pStages = stages,
		.pVertexInputState = &vi,
		.pInputAssemblyState = &ia,
		.pViewportState = &vps,
		.pRasterizationState = &rs,
		.pMultisampleState = &ms,
		.pColorBlendState = &cb,
		.pDynamicState = o->dynamic_viewport ? &dy : NULL,
		.layout = *layout_out,
		.renderPass = t->render_pass,
	};
	VkPipeline p;
	REPRO_CHECK(vkCreateGraphicsPipelines(r->device, VK_NULL_HANDLE, 1, &gci, NULL, &p));
	return p;
}

static inline VkPipeline repro_pipeline(struct repro *r, const struct repro_target *t,
					VkShaderModule vs, VkShaderModule fs,
					VkPrimitiveTopology topology, VkSampleCountFlagBits samples,
					VkPipelineLayout *layout_out)
{
	const struct repro_pipeline_opts o = {0};
	return repro_pipeline_ex(r, t, vs, fs, topology, samples, &o, layout_out);
}

#endif
