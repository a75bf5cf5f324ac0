/* What the groups of the accel area share (accel.h). */
#include <inttypes.h>
#include <string.h>

#include "accel.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

void accel_results_finish(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool)
{
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	memset(dst->map, 0xa5, 64);
	vkqs_buffer_flush(ctx, dst);
	/* the copy in a later submission: the Khronos layer (1.4.364) does not
	 * see the property writes make the query available
	 * (VUID-vkCmdCopyQueryPoolResults-None-08752) */
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cb, pool, 1, 1, dst->buf, 16, 16,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
					     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, dst);

	uint64_t r64[2] = {0, 0}, copied[2];
	uint32_t r32[2] = {0, 0};
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 1, sizeof(r64), r64, sizeof(r64),
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
							 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 1, sizeof(r32), r32, sizeof(r32),
						 VK_QUERY_RESULT_WAIT_BIT |
							 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	memcpy(copied, dst->map + 16, sizeof(copied));
	VKQS_EXPECTF(ctx, r64[0] > 0 && r64[1] != 0, "64-bit result %" PRIu64 ", availability %"
		     PRIu64, r64[0], r64[1]);
	VKQS_EXPECTF(ctx, r64[0] >= UINT32_MAX || (r32[0] == r64[0] && r32[1] != 0),
		     "32-bit result %u (availability %u), 64-bit %" PRIu64, r32[0], r32[1], r64[0]);
	VKQS_EXPECTF(ctx, copied[0] == r64[0] && copied[1] != 0,
		     "vkCmdCopyQueryPoolResults wrote %#" PRIx64 " (availability %#" PRIx64
		     "), vkGetQueryPoolResults returns %" PRIu64, copied[0], copied[1], r64[0]);
	uint64_t never[2] = {7, 7};
	VkResult res = D->vkGetQueryPoolResults(DEV, pool, 2, 1, sizeof(never), never, sizeof(never),
						VK_QUERY_RESULT_64_BIT |
							VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkqs_expect_not_ready(ctx, res, "query 2, reset and never written");
	VKQS_EXPECTF(ctx, never[1] == 0, "query 2, reset and never written: %s, availability %" PRIu64,
		     vkqs_vk_result_name(res), never[1]);
}

void accel_compacted_bound(struct vkqs_ctx *ctx, uint64_t c, uint64_t size, const char *what)
{
	VKQS_ASSERTF(ctx, c > 0, "compacted size 0 (%s %" PRIu64 "): a compacting copy needs "
		     "a non-zero size", what, size);
	if (c > size)
		vkqs_compat_warning(ctx, "compacted size %" PRIu64 " above %s %" PRIu64
				    " (no sentence bounds it; compaction that grows is unusual)",
				    c, what, size);
}

VkDeviceAddress accel_scratch(struct vkqs_ctx *ctx, VkDeviceSize size)
{
	VkPhysicalDeviceAccelerationStructurePropertiesKHR ap = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &ap};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	VkDeviceSize align = ap.minAccelerationStructureScratchOffsetAlignment
				     ? ap.minAccelerationStructureScratchOffsetAlignment
				     : 1;
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, size + align,
						   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
							   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	VkDeviceAddress a = vkqs_buffer_address(ctx, b);
	return (a + align - 1) / align * align;
}
