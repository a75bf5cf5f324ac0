/* The refdevice's queues, called directly (no loader): execution is
 * asynchronous, a host vkSetEvent releases a queue waiting in
 * vkCmdWaitEvents, a timeline wait-before-signal is released by the host,
 * timestamps are masked to each family's timestampValidBits with wrap, and
 * a dispatch sees its dynamic descriptors at their dynamic offsets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd.h"
#include "rd_api.h"

#include "rdtest_shaders/spv_dynamic_comp.h"

static int passed, failed;

#define T(cond)                                                                        \
	do {                                                                           \
		if (cond) {                                                            \
			passed++;                                                      \
		} else {                                                               \
			failed++;                                                      \
			fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
		}                                                                      \
	} while (0)

static VkDevice device;
static VkQueue queues[2];
static VkCommandPool pools[2];

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

static VkCommandBuffer begin(uint32_t family)
{
	VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					  .commandPool = pools[family],
					  .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					  .commandBufferCount = 1};
	VkCommandBuffer cb;
	rd_AllocateCommandBuffers(device, &ai, &cb);
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	rd_BeginCommandBuffer(cb, &bi);
	return cb;
}

static VkFence submit(uint32_t family, VkCommandBuffer cb, const VkSemaphoreSubmitInfo *wait)
{
	rd_EndCommandBuffer(cb);
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence f;
	rd_CreateFence(device, &fci, NULL, &f);
	VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
					 .commandBuffer = cb};
	VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			    .waitSemaphoreInfoCount = wait ? 1 : 0,
			    .pWaitSemaphoreInfos = wait,
			    .commandBufferInfoCount = 1,
			    .pCommandBufferInfos = &cbi};
	rd_QueueSubmit2(queues[family], 1, &si, f);
	return f;
}

static VkQueryPool timestamps(uint32_t count)
{
	VkQueryPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				    .queryType = VK_QUERY_TYPE_TIMESTAMP,
				    .queryCount = count};
	VkQueryPool pool;
	rd_CreateQueryPool(device, &ci, NULL, &pool);
	rd_ResetQueryPool(device, pool, 0, count);
	return pool;
}

/* A host vkSetEvent releases the queue; until then the work after the
 * wait has not run and vkQueueSubmit has already returned. */
static void test_event(void)
{
	VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
	VkEvent ev;
	rd_CreateEvent(device, &eci, NULL, &ev);
	VkQueryPool pool = timestamps(1);
	VkCommandBuffer cb = begin(RD_FAMILY_GRAPHICS);
	rd_CmdWaitEvents(cb, 1, &ev, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
			 0, NULL, 0, NULL, 0, NULL);
	rd_CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	VkFence f = submit(RD_FAMILY_GRAPHICS, cb, NULL);
	sleep_ms(50);
	uint64_t v = 0;
	T(rd_GetFenceStatus(device, f) == VK_NOT_READY);
	T(rd_GetQueryPoolResults(device, pool, 0, 1, 8, &v, 8, VK_QUERY_RESULT_64_BIT) ==
	  VK_NOT_READY);
	rd_SetEvent(device, ev);
	T(rd_WaitForFences(device, 1, &f, VK_TRUE, 5000000000ull) == VK_SUCCESS);
	T(rd_GetQueryPoolResults(device, pool, 0, 1, 8, &v, 8, VK_QUERY_RESULT_64_BIT) == VK_SUCCESS);
	T(v != 0);
	rd_DestroyFence(device, f, NULL);
	rd_DestroyQueryPool(device, pool, NULL);
	rd_DestroyEvent(device, ev, NULL);
}

/* A timeline wait-before-signal is released by vkSignalSemaphore. */
static void test_timeline(void)
{
	VkSemaphoreTypeCreateInfo tci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
					 .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &tci};
	VkSemaphore sem;
	rd_CreateSemaphore(device, &sci, NULL, &sem);
	VkCommandBuffer cb = begin(RD_FAMILY_GRAPHICS);
	VkSemaphoreSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
				      .semaphore = sem,
				      .value = 3};
	VkFence f = submit(RD_FAMILY_GRAPHICS, cb, &wait);
	sleep_ms(30);
	T(rd_GetFenceStatus(device, f) == VK_NOT_READY);
	VkSemaphoreSignalInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
				    .semaphore = sem,
				    .value = 3};
	rd_SignalSemaphore(device, &si);
	T(rd_WaitForFences(device, 1, &f, VK_TRUE, 5000000000ull) == VK_SUCCESS);
	rd_DestroyFence(device, f, NULL);
	rd_DestroySemaphore(device, sem, NULL);
}

/* With RD_TRANSFER_TIMESTAMP_VALID_BITS=36 and a clock starting 10 ticks
 * before 2^36: the graphics family (64 bits) reads >= 2^36 - 10, the
 * transfer family wraps to small values, with no bit above bit 35. */
static void test_valid_bits(void)
{
	VkQueryPool pool = timestamps(4);
	VkCommandBuffer g = begin(RD_FAMILY_GRAPHICS);
	rd_CmdWriteTimestamp(g, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
	VkFence fg = submit(RD_FAMILY_GRAPHICS, g, NULL);
	rd_WaitForFences(device, 1, &fg, VK_TRUE, 5000000000ull);
	VkCommandBuffer t = begin(RD_FAMILY_TRANSFER);
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				  .size = 1 << 16,
				  .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
	VkBuffer buf;
	rd_CreateBuffer(device, &bci, NULL, &buf);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				    .allocationSize = 1 << 16};
	VkDeviceMemory mem;
	rd_AllocateMemory(device, &mai, NULL, &mem);
	rd_BindBufferMemory(device, buf, mem, 0);
	rd_CmdWriteTimestamp(t, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 1);
	for (int i = 0; i < 4; i++)
		rd_CmdFillBuffer(t, buf, 0, VK_WHOLE_SIZE, 7);
	rd_CmdWriteTimestamp(t, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 2);
	VkFence ft = submit(RD_FAMILY_TRANSFER, t, NULL);
	T(rd_WaitForFences(device, 1, &ft, VK_TRUE, 5000000000ull) == VK_SUCCESS);
	uint64_t v[3];
	T(rd_GetQueryPoolResults(device, pool, 0, 3, sizeof(v), v, 8,
				 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS);
	T(v[0] >= (1ull << 36) - 10);
	T(v[1] >> 36 == 0 && v[2] >> 36 == 0);
	T(v[1] < 100000 && v[2] > v[1]); /* wrapped: past 2^36, masked */
	rd_DestroyFence(device, fg, NULL);
	rd_DestroyFence(device, ft, NULL);
	rd_DestroyBuffer(device, buf, NULL);
	rd_FreeMemory(device, mem, NULL);
	rd_DestroyQueryPool(device, pool, NULL);
}

/* Dynamic offsets (spec "Descriptor Set Binding"): pDynamicOffsets go to
 * the dynamic descriptors in binding number order, whatever order the
 * layout lists them in, and add to each descriptor's own offset. */
static void test_dynamic_offsets(void)
{
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
				  .size = 1024,
				  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
	VkBuffer buf;
	rd_CreateBuffer(device, &bci, NULL, &buf);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = 1024};
	VkDeviceMemory mem;
	rd_AllocateMemory(device, &mai, NULL, &mem);
	rd_BindBufferMemory(device, buf, mem, 0);
	uint32_t *words;
	rd_MapMemory(device, mem, 0, VK_WHOLE_SIZE, 0, (void **)&words);
	memset(words, 0, 1024);
	VkDescriptorSetLayoutBinding lb[3] = {
		{2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
		{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
		{1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
	};
	VkDescriptorSetLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
					       .bindingCount = 3,
					       .pBindings = lb};
	VkDescriptorSetLayout sl;
	rd_CreateDescriptorSetLayout(device, &lci, NULL, &sl);
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					   .setLayoutCount = 1,
					   .pSetLayouts = &sl};
	VkPipelineLayout pl;
	rd_CreatePipelineLayout(device, &plci, NULL, &pl);
	VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
					 .codeSize = sizeof(spv_dynamic_comp),
					 .pCode = spv_dynamic_comp};
	VkShaderModule sm;
	T(rd_CreateShaderModule(device, &smci, NULL, &sm) == VK_SUCCESS);
	VkComputePipelineCreateInfo cpci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
			  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
			  .module = sm,
			  .pName = "main"},
		.layout = pl};
	VkPipeline pipe;
	T(rd_CreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe) == VK_SUCCESS);
	VkDescriptorPoolSize ps[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2},
				      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
	VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
					   .maxSets = 1,
					   .poolSizeCount = 2,
					   .pPoolSizes = ps};
	VkDescriptorPool dp;
	rd_CreateDescriptorPool(device, &dpci, NULL, &dp);
	VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
					    .descriptorPool = dp,
					    .descriptorSetCount = 1,
					    .pSetLayouts = &sl};
	VkDescriptorSet ds;
	T(rd_AllocateDescriptorSets(device, &dsai, &ds) == VK_SUCCESS);
	/* binding 0 at byte 0, binding 1 at 16, binding 2 at 32; 16 bytes each */
	VkDescriptorBufferInfo bi[3] = {{buf, 0, 16}, {buf, 16, 16}, {buf, 32, 16}};
	VkWriteDescriptorSet w[3];
	for (uint32_t i = 0; i < 3; i++)
		w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
					      .dstSet = ds,
					      .dstBinding = i,
					      .descriptorCount = 1,
					      .descriptorType = i == 1 ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
								       : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
					      .pBufferInfo = &bi[i]};
	rd_UpdateDescriptorSets(device, 3, w, 0, NULL);
	VkCommandBuffer cb = begin(RD_FAMILY_GRAPHICS);
	rd_CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
	uint32_t dyn[2] = {256, 512};  /* binding 0, then binding 2 */
	rd_CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &ds, 2, dyn);
	rd_CmdDispatch(cb, 1, 1, 1);
	VkFence f = submit(RD_FAMILY_GRAPHICS, cb, NULL);
	T(rd_WaitForFences(device, 1, &f, VK_TRUE, 5000000000ull) == VK_SUCCESS);
	T(words[256 / 4] == 11);         /* binding 0: 0 + 256 */
	T(words[16 / 4] == 22);          /* binding 1: static */
	T(words[(32 + 512) / 4] == 33);  /* binding 2: 32 + 512 */
	T(words[0] == 0 && words[32 / 4] == 0);
	rd_DestroyFence(device, f, NULL);
	rd_DestroyPipeline(device, pipe, NULL);
	rd_DestroyShaderModule(device, sm, NULL);
	rd_DestroyDescriptorPool(device, dp, NULL);
	rd_DestroyPipelineLayout(device, pl, NULL);
	rd_DestroyDescriptorSetLayout(device, sl, NULL);
	rd_DestroyBuffer(device, buf, NULL);
	rd_FreeMemory(device, mem, NULL);
}

int main(void)
{
	setenv("RD_TRANSFER_TIMESTAMP_VALID_BITS", "36", 1);
	setenv("RD_CLOCK_START", "68719476726", 1); /* 2^36 - 10 */
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .apiVersion = VK_API_VERSION_1_3};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				    .pApplicationInfo = &app};
	VkInstance inst;
	T(rd_CreateInstance(&ici, NULL, &inst) == VK_SUCCESS);
	uint32_t n = 1;
	VkPhysicalDevice pd;
	T(rd_EnumeratePhysicalDevices(inst, &n, &pd) == VK_SUCCESS && n == 1);
	float prio = 1.0f;
	VkDeviceQueueCreateInfo q[2] = {
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		 .queueFamilyIndex = RD_FAMILY_GRAPHICS,
		 .queueCount = 1,
		 .pQueuePriorities = &prio},
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		 .queueFamilyIndex = RD_FAMILY_TRANSFER,
		 .queueCount = 1,
		 .pQueuePriorities = &prio},
	};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
				  .queueCreateInfoCount = 2,
				  .pQueueCreateInfos = q};
	T(rd_CreateDevice(pd, &dci, NULL, &device) == VK_SUCCESS);
	for (uint32_t f = 0; f < 2; f++) {
		rd_GetDeviceQueue(device, f, 0, &queues[f]);
		VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
					       .queueFamilyIndex = f};
		rd_CreateCommandPool(device, &pci, NULL, &pools[f]);
	}
	test_event();
	test_timeline();
	test_valid_bits();
	test_dynamic_offsets();
	for (uint32_t f = 0; f < 2; f++)
		rd_DestroyCommandPool(device, pools[f], NULL);
	rd_DestroyDevice(device, NULL);
	rd_DestroyInstance(inst, NULL);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
