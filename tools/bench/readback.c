/* Readback benchmark: vkGetQueryPoolResults of 1M 64-bit timestamp results
 * against a memcpy of the same bytes, on any device the loader sees.
 *   rd_bench_readback [DEVICE] [QUERIES]
 * Prints the best of 10 of each and their ratio (issue: readback reaches at
 * least half of memcpy's bandwidth on the refdevice). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "util.h"

#define REPEAT 10

static int fail(const char *what, VkResult r)
{
	fprintf(stderr, "rd_bench_readback: %s failed: %d\n", what, r);
	return 2;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "refdevice";
	uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1u << 20;
	struct vkqs_vk vk;
	char err[512];
	vkqs_loader_add_refdevice();
	if (n == 0 || !vkqs_vk_create(&vk, spec, false, err, sizeof(err))) {
		fprintf(stderr, "rd_bench_readback: %s\n", n ? err : "QUERIES must be > 0");
		return 2;
	}
	struct VolkDeviceTable *d = &vk.d;
	VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
				     .queryType = VK_QUERY_TYPE_TIMESTAMP,
				     .queryCount = n};
	VkQueryPool pool;
	VkResult r = d->vkCreateQueryPool(vk.device, &qci, NULL, &pool);
	if (r != VK_SUCCESS)
		return fail("vkCreateQueryPool", r);
	VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
					  .commandPool = vk.gfx.pool,
					  .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
					  .commandBufferCount = 1};
	VkCommandBuffer cb;
	if ((r = d->vkAllocateCommandBuffers(vk.device, &ai, &cb)) != VK_SUCCESS)
		return fail("vkAllocateCommandBuffers", r);
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
	d->vkBeginCommandBuffer(cb, &bi);
	d->vkCmdResetQueryPool(cb, pool, 0, n);
	for (uint32_t i = 0; i < n; i++)
		d->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, i);
	d->vkEndCommandBuffer(cb);
	VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
	VkFence fence;
	d->vkCreateFence(vk.device, &fci, NULL, &fence);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cb};
	if ((r = d->vkQueueSubmit(vk.gfx.queue, 1, &si, fence)) != VK_SUCCESS)
		return fail("vkQueueSubmit", r);
	d->vkWaitForFences(vk.device, 1, &fence, VK_TRUE, UINT64_MAX);

	size_t bytes = (size_t)n * 8;
	uint8_t *src = malloc(bytes), *dst = malloc(bytes);
	if (!src || !dst)
		return fail("malloc", VK_ERROR_OUT_OF_HOST_MEMORY);
	memset(src, 1, bytes);
	memset(dst, 0, bytes);
	double best_get = 1e9, best_copy = 1e9;
	for (int i = 0; i < REPEAT; i++) {
		double t0 = vkqs_monotonic_s();
		r = d->vkGetQueryPoolResults(vk.device, pool, 0, n, bytes, dst, 8,
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
		double t1 = vkqs_monotonic_s();
		if (r != VK_SUCCESS)
			return fail("vkGetQueryPoolResults", r);
		memcpy(dst, src, bytes);
		double t2 = vkqs_monotonic_s();
		if (t1 - t0 < best_get)
			best_get = t1 - t0;
		if (t2 - t1 < best_copy)
			best_copy = t2 - t1;
	}
	double gbs_get = (double)bytes / best_get / 1e9, gbs_copy = (double)bytes / best_copy / 1e9;
	printf("device: %s (%s)\n", vk.info.name, vk.info.driver_name);
	printf("vkGetQueryPoolResults, %u x 64-bit: %.3f ms (%.2f GB/s)\n", n, best_get * 1e3, gbs_get);
	printf("memcpy of the same %zu bytes:      %.3f ms (%.2f GB/s)\n", bytes, best_copy * 1e3,
	       gbs_copy);
	printf("readback / memcpy bandwidth: %.2f\n", gbs_get / gbs_copy);
	free(src);
	free(dst);
	d->vkDestroyFence(vk.device, fence, NULL);
	d->vkDestroyQueryPool(vk.device, pool, NULL);
	vkqs_vk_destroy(&vk);
	return 0;
}
