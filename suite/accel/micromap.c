/* vkqs.accel.micromap.*: VK_QUERY_TYPE_MICROMAP_SERIALIZATION_SIZE_EXT and
 * VK_QUERY_TYPE_MICROMAP_COMPACTED_SIZE_EXT (VK_EXT_opacity_micromap),
 * written by vkCmdWriteMicromapsPropertiesEXT.
 *
 * The oracles (Copying Micromaps): SERIALIZATION_SIZE is "the number of
 * bytes required by a serialized micromap", so vkCmdCopyMicromapToMemoryEXT
 * into exactly that many bytes writes nothing past them, and the data
 * starts with the defined header, "VK_UUID_SIZE bytes of data matching
 * VkPhysicalDeviceIDProperties::driverUUID" then the compatibility
 * identifier vkGetDeviceMicromapCompatibilityEXT accepts on the device that
 * wrote it; COMPACTED_SIZE is "the number of bytes required by a compacted
 * micromap": non-zero (above the micromapSize it was built with only
 * warns: no sentence bounds it, accel_compacted_bound), and a
 * VK_COPY_MICROMAP_MODE_COMPACT_EXT copy into a micromap of that size is
 * a micromap that serializes as above; and the results rules of 18.2, as
 * for every query type.
 *
 * The reference device offers no acceleration structures, which the
 * extension needs: NotSupported there. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "accel.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_MM "Copying Micromaps: vkCmdWriteMicromapsPropertiesEXT writes \"the number of bytes " \
	"required by a serialized micromap\" (MICROMAP_SERIALIZATION_SIZE_EXT) or \"by a compacted "  \
	"micromap\" (MICROMAP_COMPACTED_SIZE_EXT)"

#define TRIS 4u
#define LEVEL 3u /* 4^3 = 64 micro-triangles, 1 bit each: 8 bytes a triangle */

struct mm {
	VkMicromapEXT mm;
	VkDeviceSize size; /* micromapSize it was created with */
};

static void require_micromap(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_EXT_OPACITY_MICROMAP_EXTENSION_NAME))
		vkqs_skip(ctx, "the device does not offer VK_EXT_opacity_micromap");
	vkqs_require_feature(ctx, "VK_EXT_opacity_micromap.micromap");
	vkqs_require_feature(ctx, "bufferDeviceAddress");
	if (!ctx->vk->has_13)
		vkqs_skip(ctx, "micromap barriers need synchronization2 (Vulkan 1.3)");
}

static void destroy_mm(struct vkqs_ctx *ctx, void *arg)
{
	D->vkDestroyMicromapEXT(DEV, (VkMicromapEXT)(uintptr_t)arg, NULL);
}

static VkDeviceAddress align_up(VkDeviceAddress a, VkDeviceAddress to)
{
	return (a + to - 1) / to * to;
}

/* Micromap builds, copies and property writes ordered after each other
 * (MICROMAP_BUILD stage, micromap read and write access). */
static void mm_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
			       .srcStageMask = VK_PIPELINE_STAGE_2_MICROMAP_BUILD_BIT_EXT,
			       .srcAccessMask = VK_ACCESS_2_MICROMAP_WRITE_BIT_EXT,
			       .dstStageMask = VK_PIPELINE_STAGE_2_MICROMAP_BUILD_BIT_EXT,
			       .dstAccessMask = VK_ACCESS_2_MICROMAP_READ_BIT_EXT |
						VK_ACCESS_2_MICROMAP_WRITE_BIT_EXT};
	VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
			       .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
	D->vkCmdPipelineBarrier2(cb, &di);
}

static struct mm create_mm(struct vkqs_ctx *ctx, VkDeviceSize size)
{
	struct mm m = {.size = size};
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, size ? size : 1,
						   VK_BUFFER_USAGE_MICROMAP_STORAGE_BIT_EXT |
							   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	VkMicromapCreateInfoEXT ci = {.sType = VK_STRUCTURE_TYPE_MICROMAP_CREATE_INFO_EXT,
				      .buffer = b->buf, .size = size,
				      .type = VK_MICROMAP_TYPE_OPACITY_MICROMAP_EXT};
	VKQS_CHECK(ctx, D->vkCreateMicromapEXT(DEV, &ci, NULL, &m.mm));
	vkqs_defer(ctx, destroy_mm, (void *)(uintptr_t)m.mm);
	return m;
}

/* An opacity micromap of TRIS triangles at subdivision level LEVEL, 2-state,
 * a checkerboard of opaque and transparent micro-triangles, built with
 * `flags` on the graphics queue; complete on return. */
static struct mm build_mm(struct vkqs_ctx *ctx, VkBuildMicromapFlagsEXT flags)
{
	/* data and triangle array at 256-byte aligned addresses (VUID-07515) */
	struct vkqs_buffer *in = vkqs_buffer_host(ctx, 1024,
						  VK_BUFFER_USAGE_MICROMAP_BUILD_INPUT_READ_ONLY_BIT_EXT |
							  VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	VkDeviceAddress base = vkqs_buffer_address(ctx, in), data = align_up(base, 256);
	VkDeviceAddress tris = data + 256;
	uint8_t *d = in->map + (data - base);
	for (uint32_t i = 0; i < TRIS * 8; i++)
		d[i] = (uint8_t)(0x55u << (i & 1));
	VkMicromapTriangleEXT *t = (void *)(in->map + (tris - base));
	for (uint32_t k = 0; k < TRIS; k++)
		t[k] = (VkMicromapTriangleEXT){.dataOffset = 8 * k, .subdivisionLevel = LEVEL,
					       .format = VK_OPACITY_MICROMAP_FORMAT_2_STATE_EXT};
	vkqs_buffer_flush(ctx, in);
	VkMicromapUsageEXT usage = {.count = TRIS, .subdivisionLevel = LEVEL,
				    .format = VK_OPACITY_MICROMAP_FORMAT_2_STATE_EXT};
	VkMicromapBuildInfoEXT bi = {.sType = VK_STRUCTURE_TYPE_MICROMAP_BUILD_INFO_EXT,
				     .type = VK_MICROMAP_TYPE_OPACITY_MICROMAP_EXT,
				     .flags = flags,
				     .mode = VK_BUILD_MICROMAP_MODE_BUILD_EXT,
				     .usageCountsCount = 1,
				     .pUsageCounts = &usage,
				     .triangleArrayStride = sizeof(VkMicromapTriangleEXT)};
	VkMicromapBuildSizesInfoEXT sz = {.sType = VK_STRUCTURE_TYPE_MICROMAP_BUILD_SIZES_INFO_EXT};
	D->vkGetMicromapBuildSizesEXT(DEV, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bi, &sz);
	struct mm m = create_mm(ctx, sz.micromapSize);
	bi.dstMicromap = m.mm;
	bi.data.deviceAddress = data;
	bi.triangleArray.deviceAddress = tris;
	bi.scratchData.deviceAddress = accel_scratch(ctx, sz.buildScratchSize);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdBuildMicromapsEXT(cb, 1, &bi);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return m;
}

/* One 64-bit property of one micromap, written after a reset. */
static uint64_t property(struct vkqs_ctx *ctx, VkQueryType type, VkMicromapEXT m)
{
	VkQueryPool pool = vkqs_query_pool(ctx, type, 1, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	mm_barrier(ctx, cb);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdWriteMicromapsPropertiesEXT(cb, 1, &m, type, pool, 0);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t v = 0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &v, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	return v;
}

/* Serializes m into exactly `size` bytes at a 256-aligned address, 64
 * guard bytes after them; checks the header and the guard. */
static void serialize_into(struct vkqs_ctx *ctx, VkMicromapEXT m, uint64_t size, const char *what)
{
	struct vkqs_buffer *out = vkqs_buffer_host(ctx, size + 256 + 64,
						   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
							   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	VkDeviceAddress base = vkqs_buffer_address(ctx, out), at = align_up(base, 256);
	uint8_t *p = out->map + (at - base);
	memset(out->map, 0xa5, (size_t)out->size);
	vkqs_buffer_flush(ctx, out);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	mm_barrier(ctx, cb);
	VkCopyMicromapToMemoryInfoEXT ci = {.sType = VK_STRUCTURE_TYPE_COPY_MICROMAP_TO_MEMORY_INFO_EXT,
					    .src = m, .dst.deviceAddress = at,
					    .mode = VK_COPY_MICROMAP_MODE_SERIALIZE_EXT};
	D->vkCmdCopyMicromapToMemoryEXT(cb, &ci);
	vkqs_cmd_to_host_barrier(ctx, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
				 VK_ACCESS_MEMORY_WRITE_BIT);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, out);

	VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &id};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	VKQS_EXPECTF(ctx, memcmp(p, id.driverUUID, VK_UUID_SIZE) == 0,
		     "%s: the serialized header does not start with driverUUID", what);
	VkMicromapVersionInfoEXT vi = {.sType = VK_STRUCTURE_TYPE_MICROMAP_VERSION_INFO_EXT,
				       .pVersionData = p};
	VkAccelerationStructureCompatibilityKHR compat =
		VK_ACCELERATION_STRUCTURE_COMPATIBILITY_INCOMPATIBLE_KHR;
	D->vkGetDeviceMicromapCompatibilityEXT(DEV, &vi, &compat);
	VKQS_EXPECTF(ctx, compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_COMPATIBLE_KHR,
		     "%s: vkGetDeviceMicromapCompatibilityEXT rejects the header the device wrote",
		     what);
	size_t bad = 0;
	for (size_t i = 0; i < 64; i++)
		bad += p[size + i] != 0xa5;
	VKQS_EXPECTF(ctx, bad == 0, "%s: serializing into the queried %" PRIu64 " bytes wrote %zu "
		     "of the 64 bytes after them", what, size, bad);
}

static void serialization_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_micromap(ctx);
	struct mm m = build_mm(ctx, 0);
	uint64_t s = property(ctx, VK_QUERY_TYPE_MICROMAP_SERIALIZATION_SIZE_EXT, m.mm);
	VKQS_ASSERTF(ctx, s >= 2 * VK_UUID_SIZE,
		     "serialization size %" PRIu64 ": less than the header's two UUIDs", s);
	serialize_into(ctx, m.mm, s, "the micromap");
}

/* Compacted size: 0 < c (accel_compacted_bound); the compacting copy into a
 * micromap of c bytes, serialized. */
static void compacted_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_micromap(ctx);
	struct mm m = build_mm(ctx, VK_BUILD_MICROMAP_ALLOW_COMPACTION_BIT_EXT);
	uint64_t c = property(ctx, VK_QUERY_TYPE_MICROMAP_COMPACTED_SIZE_EXT, m.mm);
	accel_compacted_bound(ctx, c, m.size, "the micromapSize it was built with");
	struct mm small = create_mm(ctx, c);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	mm_barrier(ctx, cb);
	VkCopyMicromapInfoEXT ci = {.sType = VK_STRUCTURE_TYPE_COPY_MICROMAP_INFO_EXT,
				    .src = m.mm, .dst = small.mm,
				    .mode = VK_COPY_MICROMAP_MODE_COMPACT_EXT};
	D->vkCmdCopyMicromapEXT(cb, &ci);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t s_small = property(ctx, VK_QUERY_TYPE_MICROMAP_SERIALIZATION_SIZE_EXT, small.mm);
	VKQS_ASSERTF(ctx, s_small >= 2 * VK_UUID_SIZE,
		     "the compacted copy's serialization size %" PRIu64 ": less than the header",
		     s_small);
	serialize_into(ctx, small.mm, s_small, "the compacted copy");
}

static const VkQueryType result_types[] = {
	VK_QUERY_TYPE_MICROMAP_SERIALIZATION_SIZE_EXT,
	VK_QUERY_TYPE_MICROMAP_COMPACTED_SIZE_EXT,
};

static void result_type_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s",
		 *(const VkQueryType *)param == VK_QUERY_TYPE_MICROMAP_SERIALIZATION_SIZE_EXT
			 ? "serialization_size"
			 : "compacted_size");
}

/* The results rules of 18.2: query 1 of a 3-query pool written, 0 and 2
 * reset only. */
static void results(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryType type = *(const VkQueryType *)param;
	require_micromap(ctx);
	struct mm m = build_mm(ctx, VK_BUILD_MICROMAP_ALLOW_COMPACTION_BIT_EXT);
	VkQueryPool pool = vkqs_query_pool(ctx, type, 3, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	mm_barrier(ctx, cb);
	D->vkCmdResetQueryPool(cb, pool, 0, 3);
	D->vkCmdWriteMicromapsPropertiesEXT(cb, 1, &m.mm, type, pool, 1);
	accel_results_finish(ctx, cb, pool);
}

static const struct vkqs_case cases[] = {
	{.name = "micromap.serialization_size", .fn = serialization_size,
	 .spec = SPEC_MM "; the serialized header starts with driverUUID"},
	{.name = "micromap.compacted_size", .fn = compacted_size, .spec = SPEC_MM},
	{.name = "micromap.results", .fn = results,
	 .spec = SPEC_MM "; 18.2 the results of any query type (32/64-bit, availability, "
		 "vkCmdCopyQueryPoolResults, VK_NOT_READY)",
	 .params = VKQS_PARAMS(result_types, result_type_name)},
};

VKQS_GROUP(accel, micromap, cases);
