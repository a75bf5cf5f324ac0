/* Acceleration structure property queries (VK_KHR_acceleration_structure,
 * VK_KHR_ray_tracing_maintenance1; spec 18.1 query types, the
 * vkCmdWriteAccelerationStructuresPropertiesKHR and copy commands).
 *
 * The oracles:
 * - COMPACTED_SIZE: "the number of bytes required by a compacted
 *   acceleration structure" (1.4.360 accelstructures.adoc): non-zero, and a
 *   VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR copy into a structure
 *   of exactly that size traces the same hits as the original; above the
 *   accelerationStructureSize it was created with is only a
 *   CompatibilityWarning (no sentence bounds it; accel_compacted_bound);
 * - SERIALIZATION_SIZE: the serialized data starts with a header whose
 *   fourth field is "the total size matching the value queried using
 *   VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR", whose
 *   first is the driverUUID, and whose sixth is the count of handles that
 *   "matches the value queried using
 *   VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR";
 *   a bottom-level structure has no such handles, a top-level structure
 *   with instances at least one;
 * - SIZE (maintenance1): the structure's size, at most the size it was
 *   created with;
 * - the hits themselves come from geometry, not from any driver: triangle
 *   k lies in its own cell of an 8 x 4 grid at depth z_k, so the ray down
 *   the cell's centroid from z = 10 hits primitive k at t = 10 - z_k, and
 *   rays between cells miss;
 * - the results API rules every query type shares (18.2): 32-bit values
 *   equal the 64-bit ones below 2^32, the availability word is non-zero,
 *   vkCmdCopyQueryPoolResults writes what vkGetQueryPoolResults returns,
 *   and a reset query reads VK_NOT_READY without WAIT;
 * - the host path, where accelerationStructureHostCommands is supported:
 *   vkWriteAccelerationStructuresPropertiesKHR of the same structure
 *   returns what the query returns. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shaders/accel_trace_comp.h"
#include "shaders/accel_trace_rchit.h"
#include "shaders/accel_trace_rgen.h"
#include "shaders/accel_trace_rmiss.h"
#include "accel.h"
#include "gate.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_COMPACT "18.1: VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR \"the size required for a compacted copy\""
#define SPEC_SERIAL "vkCmdCopyAccelerationStructureToMemoryKHR: the header's total size \"matching the value queried using VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR\""
#define SPEC_POINTERS "vkCmdCopyAccelerationStructureToMemoryKHR: the handle count \"matches the value queried using VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR\""
#define SPEC_SIZE "18.1: VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR, the size of the acceleration structure"
#define SPEC_RESULTS "18.2: query results of acceleration structure property queries"

#define COLS 8u
#define ROWS 4u
#define TRIS (COLS * ROWS)
#define RAYS (2 * TRIS)

struct as {
	VkAccelerationStructureKHR as;
	struct vkqs_buffer *buf;
	VkDeviceSize size;          /* accelerationStructureSize it was created with */
	VkDeviceAddress addr;
};

/* Structures live in host-visible memory when the host path reads them
 * (VUID-vkWriteAccelerationStructuresPropertiesKHR-buffer-03733); every
 * case sets it in require_accel, since cases of a batch share a process. */
static bool host_visible_structures;

/* Acceleration structures, and a way to use them: without rayQuery or
 * rayTracingPipeline even vkGetAccelerationStructureBuildSizesKHR is
 * invalid (VUID-vkGetAccelerationStructureBuildSizesKHR-rayTracingPipeline-03617). */
static void require_accel(struct vkqs_ctx *ctx, bool host_visible)
{
	host_visible_structures = host_visible;
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, "VK_KHR_acceleration_structure.accelerationStructure");
	vkqs_require_feature(ctx, "bufferDeviceAddress");
	if (!vkqs_device_feature(&ctx->vk->info, "VK_KHR_ray_query.rayQuery") &&
	    !vkqs_device_feature(&ctx->vk->info, "VK_KHR_ray_tracing_pipeline.rayTracingPipeline"))
		vkqs_skip(ctx, "VK_KHR_acceleration_structure without rayQuery or rayTracingPipeline: "
			       "building a structure is invalid "
			       "(VUID-vkGetAccelerationStructureBuildSizesKHR-rayTracingPipeline-03617)");
}

static void destroy_as(struct vkqs_ctx *ctx, void *arg)
{
	D->vkDestroyAccelerationStructureKHR(DEV, (VkAccelerationStructureKHR)(uintptr_t)arg, NULL);
}


static struct as create_as(struct vkqs_ctx *ctx, VkAccelerationStructureTypeKHR type,
			   VkDeviceSize size)
{
	struct as a = {0};
	a.size = size;
	VkBufferUsageFlags usage = VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR |
				   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
	a.buf = host_visible_structures ? vkqs_buffer_host(ctx, size, usage)
					: vkqs_buffer_device(ctx, size, usage);
	VkAccelerationStructureCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
		.buffer = a.buf->buf, .size = size, .type = type};
	VKQS_CHECK(ctx, D->vkCreateAccelerationStructureKHR(DEV, &ci, NULL, &a.as));
	vkqs_defer(ctx, destroy_as, (void *)(uintptr_t)a.as);
	VkAccelerationStructureDeviceAddressInfoKHR ai = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
		.accelerationStructure = a.as};
	a.addr = D->vkGetAccelerationStructureDeviceAddressKHR(DEV, &ai);
	return a;
}

/* Orders the builds and copies of earlier submissions before this
 * command buffer's reads of the structures (submission order alone is no
 * memory dependency). */
static void as_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
			      .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
				VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR |
					VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
					(vkqs_device_feature(&ctx->vk->info,
							     "VK_KHR_ray_tracing_pipeline.rayTracingPipeline")
						 ? VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR
						 : 0),
				0, 1, &mb, 0, NULL, 0, NULL);
}

/* Depth of triangle k: distinct, inside (0, 5). */
static float tri_z(uint32_t k)
{
	return 0.5f + 0.125f * (float)((k * 7u) % TRIS);
}

/* Grid cells are 1 x 1 from (0, 0); triangle k's first vertex is 0.1
 * into cell k. */
static void cell_origin(uint32_t k, float *x, float *y)
{
	*x = (float)(k % COLS) + 0.1f;
	*y = (float)(k / COLS) + 0.1f;
}

/* Sizes, creates and builds the structure `bi` describes (one geometry
 * of `count` primitives) on the graphics queue, after the builds before it;
 * complete on return. */
static struct as build(struct vkqs_ctx *ctx, VkAccelerationStructureBuildGeometryInfoKHR *bi,
		       uint32_t count)
{
	VkAccelerationStructureBuildSizesInfoKHR sz = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
	D->vkGetAccelerationStructureBuildSizesKHR(
		DEV, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, bi, &count, &sz);
	struct as a = create_as(ctx, bi->type, sz.accelerationStructureSize);
	bi->dstAccelerationStructure = a.as;
	bi->scratchData.deviceAddress = accel_scratch(ctx, sz.buildScratchSize);
	VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = count};
	const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	D->vkCmdBuildAccelerationStructuresKHR(cb, 1, bi, &ranges);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return a;
}

/* A bottom-level structure of the TRIS grid triangles, built on the
 * graphics queue with `flags`; the build is complete on return. */
static struct as build_blas(struct vkqs_ctx *ctx, VkBuildAccelerationStructureFlagsKHR flags)
{
	struct vkqs_buffer *vb = vkqs_buffer_host(
		ctx, TRIS * 9 * sizeof(float),
		VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
			VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	float *v = (float *)(void *)vb->map;
	for (uint32_t k = 0; k < TRIS; k++) {
		float x0, y0, z = tri_z(k);
		cell_origin(k, &x0, &y0);
		/* inside [x0, x0 + 0.8] x [y0, y0 + 0.8]: the cell's inner part */
		float pts[9] = {x0, y0, z, x0 + 0.8f, y0 + 0.1f, z, x0 + 0.3f, y0 + 0.8f, z};
		memcpy(v + 9 * k, pts, sizeof(pts));
	}
	vkqs_buffer_flush(ctx, vb);
	VkAccelerationStructureGeometryKHR g = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
		.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
		.flags = VK_GEOMETRY_OPAQUE_BIT_KHR};
	g.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
		.vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
		.vertexData.deviceAddress = vkqs_buffer_address(ctx, vb),
		.vertexStride = 3 * sizeof(float),
		.maxVertex = 3 * TRIS - 1,
		.indexType = VK_INDEX_TYPE_NONE_KHR};
	VkAccelerationStructureBuildGeometryInfoKHR bi = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
		.type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
		.flags = flags,
		.mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
		.geometryCount = 1,
		.pGeometries = &g};
	return build(ctx, &bi, TRIS);
}

/* A top-level structure of `n` instances of `blas` (identity transform,
 * custom index i), built and complete on return. */
static struct as build_tlas(struct vkqs_ctx *ctx, const struct as *blas, uint32_t n)
{
	struct vkqs_buffer *ib = vkqs_buffer_host(
		ctx, n * sizeof(VkAccelerationStructureInstanceKHR),
		VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |
			VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	VkAccelerationStructureInstanceKHR *inst = (void *)ib->map;
	for (uint32_t i = 0; i < n; i++) {
		memset(&inst[i], 0, sizeof(inst[i]));
		inst[i].transform.matrix[0][0] = inst[i].transform.matrix[1][1] =
			inst[i].transform.matrix[2][2] = 1.0f;
		/* instances after the first sit 100 units aside: only the first is hit */
		inst[i].transform.matrix[0][3] = 100.0f * (float)i;
		inst[i].instanceCustomIndex = i;
		inst[i].mask = 0xff;
		inst[i].accelerationStructureReference = blas->addr;
	}
	vkqs_buffer_flush(ctx, ib);
	VkAccelerationStructureGeometryKHR g = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
		.geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR};
	g.geometry.instances = (VkAccelerationStructureGeometryInstancesDataKHR){
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
		.data.deviceAddress = vkqs_buffer_address(ctx, ib)};
	VkAccelerationStructureBuildGeometryInfoKHR bi = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
		.type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
		.mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
		.geometryCount = 1,
		.pGeometries = &g};
	return build(ctx, &bi, n);
}

/* Writes query `first + i` of `pool` for structure i (after a reset), on
 * the graphics queue, complete on return. */
static void write_props(struct vkqs_ctx *ctx, VkQueryPool pool, VkQueryType type,
			const VkAccelerationStructureKHR *s, uint32_t n, uint32_t first)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	D->vkCmdResetQueryPool(cb, pool, first, n);
	D->vkCmdWriteAccelerationStructuresPropertiesKHR(cb, n, s, type, pool, first);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* One 64-bit property of one structure. */
static uint64_t property(struct vkqs_ctx *ctx, VkQueryType type, VkAccelerationStructureKHR s)
{
	VkQueryPool pool = vkqs_query_pool(ctx, type, 1, 0);
	write_props(ctx, pool, type, &s, 1, 0);
	uint64_t v = 0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &v, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	return v;
}

static void require_type(struct vkqs_ctx *ctx, VkQueryType type)
{
	if ((type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR ||
	     type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR))
		vkqs_require_feature(ctx, "VK_KHR_ray_tracing_maintenance1.rayTracingMaintenance1");
}

/* Sizes ---------------------------------------------------------------------*/

/* Compacted size of a structure built with ALLOW_COMPACTION: non-zero
 * (accel_compacted_bound: above the creation size only warns). */
static void compacted_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_accel(ctx, false);
	struct as b = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR);
	uint64_t c = property(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, b.as);
	accel_compacted_bound(ctx, c, b.size, "the size it was created with");
}

/* The structures the size and serialization cases query: bottom-level
 * without and with ALLOW_COMPACTION, and top-level over a bottom-level one. */
struct shape {
	bool top_level;
	bool compactable;
};
static const struct shape shapes[] = {{false, false}, {false, true}, {true, false}};
static void shape_name(const void *p, char *b, size_t n)
{
	const struct shape *s = p;
	snprintf(b, n, "%s%s", s->top_level ? "top_level" : "bottom_level",
		 s->compactable ? "_allow_compaction" : "");
}

/* The structure of a shape (a top-level one over `instances` instances). */
static struct as shape_build(struct vkqs_ctx *ctx, const struct shape *sp, uint32_t instances)
{
	struct as b = build_blas(ctx, sp->compactable
					      ? VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR
					      : 0);
	return sp->top_level ? build_tlas(ctx, &b, instances) : b;
}

/* SIZE (maintenance1): non-zero, at most the creation size. */
static void size_query(struct vkqs_ctx *ctx, const void *param)
{
	require_accel(ctx, false);
	require_type(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR);
	struct as s = shape_build(ctx, param, 2);
	uint64_t v = property(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR, s.as);
	VKQS_EXPECTF(ctx, v > 0 && v <= s.size,
		     "size %" PRIu64 ", the structure was created with %" PRIu64, v,
		     (uint64_t)s.size);
}

/* Serialization -------------------------------------------------------------*/

/* The structure serialized into a buffer of the queried size: the header's
 * driverUUID, total size and handle count (the bottom-level pointers, where
 * maintenance1 lets the case query them). */
static void serialization(struct vkqs_ctx *ctx, const void *param)
{
	const struct shape *sp = param;
	require_accel(ctx, false);
	struct as s = shape_build(ctx, sp, 3);
	uint64_t size = property(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR,
				 s.as);
	VKQS_ASSERTF(ctx, size >= 56, "serialization size %" PRIu64 ": less than the 56-byte "
		     "header", size);
	if (size >= (1ull << 32))
		vkqs_harness_limit(ctx, "serialization size",
				   "%" PRIu64 " bytes: the case serializes into host memory of at "
				   "most 4 GiB", size);
	struct vkqs_buffer *out = vkqs_buffer_host(ctx, size,
						   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	memset(out->map, 0xa5, size);
	vkqs_buffer_flush(ctx, out);
	VkCopyAccelerationStructureToMemoryInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_TO_MEMORY_INFO_KHR,
		.src = s.as,
		.dst.deviceAddress = vkqs_buffer_address(ctx, out),
		.mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_SERIALIZE_KHR};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	D->vkCmdCopyAccelerationStructureToMemoryKHR(cb, &ci);
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
					       VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
			      .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
				VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, out);
	uint64_t hdr[3];
	memcpy(hdr, out->map + 2 * VK_UUID_SIZE, sizeof(hdr));
	VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &id};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	VKQS_EXPECTF(ctx, memcmp(out->map, id.driverUUID, VK_UUID_SIZE) == 0,
		     "the header's first 16 bytes are not VkPhysicalDeviceIDProperties::driverUUID");
	VKQS_EXPECTF(ctx, hdr[0] == size,
		     "the header's total size %" PRIu64 ", the query's serialization size %" PRIu64,
		     hdr[0], size);
	VkAccelerationStructureVersionInfoKHR vi = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_VERSION_INFO_KHR,
		.pVersionData = out->map};
	VkAccelerationStructureCompatibilityKHR compat = VK_ACCELERATION_STRUCTURE_COMPATIBILITY_INCOMPATIBLE_KHR;
	D->vkGetDeviceAccelerationStructureCompatibilityKHR(DEV, &vi, &compat);
	VKQS_EXPECTF(ctx, compat == VK_ACCELERATION_STRUCTURE_COMPATIBILITY_COMPATIBLE_KHR,
		     "data this device just serialized is not compatible with it");
	if (!sp->top_level)
		VKQS_EXPECTF(ctx, hdr[2] == 0,
			     "a bottom-level structure serialized with %" PRIu64 " handles", hdr[2]);
	else
		VKQS_EXPECTF(ctx, hdr[2] >= 1 && hdr[2] <= 3,
			     "a top-level structure of 3 instances of one bottom-level structure "
			     "serialized with %" PRIu64 " handles", hdr[2]);
	/* The pointers type is queried on top-level structures only
	 * (VUID-vkCmdWriteAccelerationStructuresPropertiesKHR-
	 * pAccelerationStructures-12425). */
	if (sp->top_level && vkqs_device_feature(&ctx->vk->info,
						 "VK_KHR_ray_tracing_maintenance1.rayTracingMaintenance1")) {
		uint64_t ptrs = property(
			ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR,
			s.as);
		VKQS_EXPECTF(ctx, ptrs == hdr[2],
			     "bottom-level pointers %" PRIu64 ", the serialized header's handle "
			     "count %" PRIu64, ptrs, hdr[2]);
	}
}

/* Compaction and tracing ----------------------------------------------------*/

struct trace_push {
	uint64_t tlas, rays, hits;
	uint32_t count, pad;
};

static VkShaderModule module(struct vkqs_ctx *ctx, const uint32_t *spv, size_t size)
{
	VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
				       .codeSize = size, .pCode = spv};
	VkShaderModule m;
	VKQS_CHECK(ctx, D->vkCreateShaderModule(DEV, &ci, NULL, &m));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SHADER_MODULE, (void *)m);
	return m;
}

/* Records the trace with a ray tracing pipeline (raygen, miss, one
 * triangle hit group) and its shader binding table: for devices with
 * rayTracingPipeline and no rayQuery. */
static void record_trace_pipeline(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				  const struct trace_push *pc)
{
	VkPhysicalDeviceRayTracingPipelinePropertiesKHR rp = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &rp};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	VkPushConstantRange range = {VK_SHADER_STAGE_RAYGEN_BIT_KHR, 0, sizeof(*pc)};
	VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
					 .pushConstantRangeCount = 1, .pPushConstantRanges = &range};
	VkPipelineLayout layout;
	VKQS_CHECK(ctx, D->vkCreatePipelineLayout(DEV, &li, NULL, &layout));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (void *)layout);
	VkPipelineShaderStageCreateInfo st[3] = {
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_RAYGEN_BIT_KHR,
		 .module = module(ctx, accel_trace_rgen, sizeof(accel_trace_rgen)), .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_MISS_BIT_KHR,
		 .module = module(ctx, accel_trace_rmiss, sizeof(accel_trace_rmiss)), .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
		 .stage = VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR,
		 .module = module(ctx, accel_trace_rchit, sizeof(accel_trace_rchit)), .pName = "main"},
	};
	VkRayTracingShaderGroupCreateInfoKHR g[3];
	for (uint32_t i = 0; i < 3; i++)
		g[i] = (VkRayTracingShaderGroupCreateInfoKHR){
			.sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
			.type = i < 2 ? VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR
				      : VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
			.generalShader = i < 2 ? i : VK_SHADER_UNUSED_KHR,
			.closestHitShader = i == 2 ? 2 : VK_SHADER_UNUSED_KHR,
			.anyHitShader = VK_SHADER_UNUSED_KHR,
			.intersectionShader = VK_SHADER_UNUSED_KHR};
	VkRayTracingPipelineCreateInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
		.stageCount = 3, .pStages = st, .groupCount = 3, .pGroups = g,
		.maxPipelineRayRecursionDepth = 1, .layout = layout};
	VkPipeline pipe;
	VKQS_CHECK(ctx, D->vkCreateRayTracingPipelinesKHR(DEV, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci,
							  NULL, &pipe));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_PIPELINE, (void *)pipe);
	/* the table: one record per group, each at a base-aligned offset */
	uint32_t hsize = rp.shaderGroupHandleSize;
	VkDeviceSize rec = (hsize + rp.shaderGroupBaseAlignment - 1) / rp.shaderGroupBaseAlignment *
			   rp.shaderGroupBaseAlignment;
	uint8_t handles[3 * 64];
	VKQS_ASSERTF(ctx, hsize <= 64, "shaderGroupHandleSize %u", hsize);
	VKQS_CHECK(ctx, D->vkGetRayTracingShaderGroupHandlesKHR(DEV, pipe, 0, 3, 3 * hsize, handles));
	struct vkqs_buffer *sbt = vkqs_buffer_host(
		ctx, 3 * rec + rp.shaderGroupBaseAlignment,
		VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
	VkDeviceAddress base = vkqs_buffer_address(ctx, sbt);
	VkDeviceSize skew = (rp.shaderGroupBaseAlignment - base % rp.shaderGroupBaseAlignment) %
			    rp.shaderGroupBaseAlignment;
	for (uint32_t i = 0; i < 3; i++)
		memcpy(sbt->map + skew + i * rec, handles + i * hsize, hsize);
	vkqs_buffer_flush(ctx, sbt);
	VkStridedDeviceAddressRegionKHR rgen = {base + skew, rec, rec},
					 miss = {base + skew + rec, rec, rec},
					 hit = {base + skew + 2 * rec, rec, rec}, none = {0, 0, 0};
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipe);
	D->vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_RAYGEN_BIT_KHR, 0, sizeof(*pc), pc);
	D->vkCmdTraceRaysKHR(cb, &rgen, &miss, &hit, &none, RAYS, 1, 1);
}

/* Traces RAYS rays against `tlas`: ray 2k down the centroid of triangle
 * k, ray 2k + 1 down (column + 0.95, row + 0.95), a corner of cell k no
 * triangle reaches (each stays 0.1 clear of its cell's edges). */
static void trace(struct vkqs_ctx *ctx, const struct as *tlas, float *hits)
{
	struct vkqs_buffer *rays = vkqs_buffer_host(ctx, RAYS * 16,
						    VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
							    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct vkqs_buffer *out = vkqs_buffer_host(ctx, RAYS * 16,
						   VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
							   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	float *r = (float *)(void *)rays->map;
	for (uint32_t k = 0; k < TRIS; k++) {
		float x0, y0;
		cell_origin(k, &x0, &y0);
		float *hit = r + 8 * k, *miss = r + 8 * k + 4;
		hit[0] = x0 + 1.1f / 3.0f; /* the centroid */
		hit[1] = y0 + 0.9f / 3.0f;
		hit[2] = hit[3] = 0;
		miss[0] = x0 + 0.85f;
		miss[1] = y0 + 0.85f;
		miss[2] = miss[3] = 0;
	}
	vkqs_buffer_flush(ctx, rays);
	struct trace_push pc = {tlas->addr, vkqs_buffer_address(ctx, rays),
				vkqs_buffer_address(ctx, out), RAYS, 0};
	bool query = vkqs_device_feature(&ctx->vk->info, "VK_KHR_ray_query.rayQuery");
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	if (query) {
		struct vkqs_compute *c = vkqs_compute_create(
			ctx, accel_trace_comp, sizeof(accel_trace_comp), out, sizeof(pc), 0);
		vkqs_cmd_bind_compute(ctx, cb, c);
		D->vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
		D->vkCmdDispatch(cb, (RAYS + 63) / 64, 1, 1);
	} else {
		record_trace_pipeline(ctx, cb, &pc);
	}
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
			      .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
	D->vkCmdPipelineBarrier(cb,
				query ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
				      : VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
				VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, out);
	memcpy(hits, out->map, RAYS * 16);
}

/* The hits against the geometry: ray 2k hits primitive k of instance 0 at
 * t = 10 - z_k (to float rounding of a ray-plane distance: 1e-4), ray
 * 2k + 1 misses.  Returns the number of wrong rays, reporting the first. */
static uint32_t check_hits(struct vkqs_ctx *ctx, const float *h, const char *what)
{
	uint32_t bad = 0;
	for (uint32_t k = 0; k < TRIS; k++) {
		const float *hit = h + 8 * k, *miss = h + 8 * k + 4;
		float t = 10.0f - tri_z(k);
		bool ok = hit[3] == 1.0f && hit[0] == (float)k && fabsf(hit[1] - t) < 1e-4f &&
			  hit[2] == 0.0f && miss[3] == 0.0f && miss[0] == -1.0f;
		if (!ok && !bad++)
			VKQS_EXPECTF(ctx, false,
				     "%s, cell %u: ray down the triangle gave (primitive %g, t %g, "
				     "instance %g, hit %g), want (%u, %g, 0, 1); ray beside it gave "
				     "hit %g", what, k, hit[0], hit[1], hit[2], hit[3], k, t, miss[3]);
	}
	return bad;
}

/* A compacting copy into a structure of exactly the compacted size traces
 * the same hits as the original (both checked against the geometry). */
static void compact_and_trace(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_accel(ctx, false); /* rayQuery or rayTracingPipeline: trace() uses either */
	struct as b = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR);
	uint64_t csize = property(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, b.as);
	accel_compacted_bound(ctx, csize, b.size, "the size it was created with");
	struct as c = create_as(ctx, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, csize);
	VkCopyAccelerationStructureInfoKHR ci = {
		.sType = VK_STRUCTURE_TYPE_COPY_ACCELERATION_STRUCTURE_INFO_KHR,
		.src = b.as, .dst = c.as, .mode = VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_KHR};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	D->vkCmdCopyAccelerationStructureKHR(cb, &ci);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct as t0 = build_tlas(ctx, &b, 1), t1 = build_tlas(ctx, &c, 1);
	float h0[RAYS * 4], h1[RAYS * 4];
	trace(ctx, &t0, h0);
	trace(ctx, &t1, h1);
	check_hits(ctx, h0, "the original structure");
	check_hits(ctx, h1, "the compacted copy");
	VKQS_EXPECTF(ctx, memcmp(h0, h1, sizeof(h0)) == 0,
		     "the compacted copy traces other hits than the original");
	if (vkqs_device_feature(&ctx->vk->info,
				"VK_KHR_ray_tracing_maintenance1.rayTracingMaintenance1")) {
		uint64_t s = property(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR, c.as);
		VKQS_EXPECTF(ctx, s > 0 && s <= csize,
			     "the compacted copy's SIZE %" PRIu64 ", compacted size %" PRIu64, s, csize);
	}
}

/* Results API ---------------------------------------------------------------*/

static const VkQueryType result_types[] = {
	VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR,
	VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR,
	VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR,
	VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR,
};
static void type_name(const void *p, char *b, size_t n)
{
	switch (*(const VkQueryType *)p) {
	case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR: snprintf(b, n, "compacted_size"); break;
	case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR: snprintf(b, n, "serialization_size"); break;
	case VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR: snprintf(b, n, "size"); break;
	default: snprintf(b, n, "bottom_level_pointers"); break;
	}
}

/* Three structures in queries 1 to 3 of a pool of 4 (two bottom-level and
 * one top-level; for the pointers type three top-level, since it is queried
 * on top-level structures only: VUID-vkCmdWriteAccelerationStructures-
 * PropertiesKHR-pAccelerationStructures-12425): 64-bit with WAIT; 32-bit equal;
 * WITH_AVAILABILITY non-zero; vkCmdCopyQueryPoolResults the same bytes as
 * vkGetQueryPoolResults; after a reset, VK_NOT_READY without WAIT. */
static void results_api(struct vkqs_ctx *ctx, const void *param)
{
	const VkQueryType type = *(const VkQueryType *)param;
	require_accel(ctx, false);
	require_type(ctx, type);
	struct as b0 = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR);
	struct as b1 = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR |
					       VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR);
	VkAccelerationStructureKHR s[3] = {b0.as, b1.as, b0.as};
	if (type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR ||
	    type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SIZE_KHR)
		s[2] = build_tlas(ctx, &b0, 2).as;
	if (type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR) {
		s[0] = build_tlas(ctx, &b1, 1).as;
		s[1] = build_tlas(ctx, &b0, 3).as;
	}
	VkQueryPool pool = vkqs_query_pool(ctx, type, 4, 0);
	write_props(ctx, pool, type, s, 3, 1);
	uint64_t v64[3], v32w[3];
	uint32_t v32[3];
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 3, sizeof(v64), v64, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 3, sizeof(v32), v32, 4, 0));
	for (int i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, v64[i] == v32[i], "query %d: 64-bit %" PRIu64 ", 32-bit %u", i + 1,
			     v64[i], v32[i]);
	uint64_t va[6];
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(
				DEV, pool, 1, 3, sizeof(va), va, 16,
				VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	for (int i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, va[2 * i] == v64[i] && va[2 * i + 1] != 0,
			     "query %d WITH_AVAILABILITY: value %" PRIu64 " (%" PRIu64
			     "), availability %" PRIu64, i + 1, va[2 * i], v64[i], va[2 * i + 1]);
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, 64, 0);
	memset(buf->map, 0xa5, 64);
	vkqs_buffer_flush(ctx, buf);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cb, pool, 1, 3, buf->buf, 8, 8,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, buf);
	memcpy(v32w, buf->map + 8, sizeof(v32w));
	VKQS_EXPECTF(ctx, memcmp(v32w, v64, sizeof(v64)) == 0,
		     "vkCmdCopyQueryPoolResults wrote %" PRIu64 ", %" PRIu64 ", %" PRIu64
		     "; vkGetQueryPoolResults %" PRIu64 ", %" PRIu64 ", %" PRIu64,
		     v32w[0], v32w[1], v32w[2], v64[0], v64[1], v64[2]);
	VKQS_EXPECTF(ctx, buf->map[0] == 0xa5 && buf->map[32] == 0xa5,
		     "the copy wrote outside its 3 x 8 bytes at offset 8");
	/* reset: unavailable */
	cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, 4);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t after[3];
	memset(after, 0xa5, sizeof(after));
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 1, 3, sizeof(after), after, 8,
					      VK_QUERY_RESULT_64_BIT);
	vkqs_expect_not_ready(ctx, r, "after vkCmdResetQueryPool");
	vkqs_expect_unwritten(ctx, (const uint8_t *)after, sizeof(after), 0xa5,
			      "reset acceleration structure queries");
	/* and written again, the same values */
	write_props(ctx, pool, type, s, 3, 1);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 1, 3, sizeof(after), after, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	VKQS_EXPECTF(ctx, memcmp(after, v64, sizeof(v64)) == 0,
		     "the same structures queried again after a reset give other values");
}

/* Host path -----------------------------------------------------------------*/

/* With accelerationStructureHostCommands, vkWriteAccelerationStructures-
 * PropertiesKHR of a structure gives what the query gives. */
static void host_path(struct vkqs_ctx *ctx, const void *param)
{
	const VkQueryType type = *(const VkQueryType *)param;
	require_accel(ctx, true);
	require_type(ctx, type);
	vkqs_require_feature(ctx, "VK_KHR_acceleration_structure.accelerationStructureHostCommands");
	struct as b = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR);
	struct as s = type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_BOTTOM_LEVEL_POINTERS_KHR
			      ? build_tlas(ctx, &b, 2)
			      : b;
	uint64_t dev = property(ctx, type, s.as), host = 0;
	VKQS_CHECK(ctx, D->vkWriteAccelerationStructuresPropertiesKHR(DEV, 1, &s.as, type, 8, &host, 8));
	VKQS_EXPECTF(ctx, host == dev, "host %" PRIu64 ", device query %" PRIu64, host, dev);
}

/* In flight (bug classes 1 and 2 of issue 38 on the property queries):
 * the write of query 0 for a compactable bottom-level structure, submitted
 * behind a shut gate (framework/gate.h) after a reset that completed.
 * - wait: a WAIT read issued while the gate is shut returns only after it
 *   opened, VK_SUCCESS, the final value (18.2 WAIT "will wait for each
 *   query's status to become available"; its synchronization scope names
 *   vkCmdWriteAccelerationStructuresPropertiesKHR).
 * - available_is_final: reads without WAIT, WITH_AVAILABILITY, from before
 *   the gate opens to the fence: a read that says available holds the
 *   final value. */
struct accel_inflight_param {
	VkQueryType type;
	bool wait;
};
static const struct accel_inflight_param inflight_params[] = {
	{VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, true},
	{VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR, true},
	{VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR, false},
	{VK_QUERY_TYPE_ACCELERATION_STRUCTURE_SERIALIZATION_SIZE_KHR, false},
};
static void inflight_name(const void *param, char *buf, size_t size)
{
	const struct accel_inflight_param *p = param;
	snprintf(buf, size, "%s_%s", p->wait ? "wait" : "available_is_final",
		 p->type == VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_KHR
			 ? "compacted_size"
			 : "serialization_size");
}

struct accel_poll {
	VkQueryPool pool;
};

static uint32_t accel_poll_read(struct vkqs_ctx *ctx, void *arg, uint32_t poll,
				uint64_t out[VKQS_POLL_WORDS])
{
	(void)poll;
	const struct accel_poll *a = arg;
	D->vkGetQueryPoolResults(DEV, a->pool, 0, 1, 16, out, 16,
				 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	return 1;
}

/* the WAIT read's gate opens after 100 ms; the polling reads open theirs
 * after 16 reads, the timer only backs them up */
#define ACCEL_GATE_NS (100ull * 1000 * 1000)
#define ACCEL_TIMER_NS (2ull * 1000 * 1000 * 1000)
#define ACCEL_POLL_NS (5ull * 1000 * 1000 * 1000)

static void inflight(struct vkqs_ctx *ctx, const void *param)
{
	const struct accel_inflight_param *ip = param;
	require_accel(ctx, false);
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct as b = build_blas(ctx, VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_KHR);
	struct accel_poll a = {vkqs_query_pool(ctx, ip->type, 1, 0)};
	struct vkqs_poll *p = vkqs_alloc(ctx, sizeof(*p));
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, a.pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	as_barrier(ctx, cb);
	D->vkCmdWriteAccelerationStructuresPropertiesKHR(cb, 1, &b.as, ip->type, a.pool, 0);
	vkqs_cmd_end(ctx, cb);
	VkFence fence = vkqs_fence(ctx);
	struct vkqs_gate *g = vkqs_gate_create(ctx, ip->wait ? ACCEL_GATE_NS : ACCEL_TIMER_NS);
	vkqs_submit_gated(ctx, g, cb, fence);
	/* --- the gate is shut --- */
	uint64_t v[2] = {0, 0};
	VkResult r = VK_SUCCESS;
	bool waited = false;
	if (ip->wait) {
		r = D->vkGetQueryPoolResults(DEV, a.pool, 0, 1, 8, v, 8,
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
		waited = vkqs_gate_opened_by_now(g);
	} else {
		vkqs_poll_in_flight(ctx, g, fence, ACCEL_POLL_NS, accel_poll_read, &a, p);
	}
	vkqs_gate_release(ctx, g);
	/* --- the gate is open --- */
	vkqs_fence_wait(ctx, fence);
	uint64_t fin[2] = {0, 0};
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, a.pool, 0, 1, 16, fin, 16,
						 VK_QUERY_RESULT_64_BIT |
							 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	VKQS_ASSERTF(ctx, fin[1] != 0 && fin[0] != 0, "after the fence: value %" PRIu64
		     ", availability %" PRIu64, fin[0], fin[1]);
	if (ip->wait) {
		VKQS_EXPECTF(ctx, waited,
			     "vkGetQueryPoolResults with WAIT returned before the submission that "
			     "writes the query could start (its gate was shut)");
		VKQS_EXPECTF(ctx, r == VK_SUCCESS && v[0] == fin[0],
			     "the WAIT read returned %s, value %" PRIu64 "; the final value is %" PRIu64,
			     vkqs_vk_result_name(r), v[0], fin[0]);
		return;
	}
	VKQS_EXPECTF(ctx, p->early == 0,
		     "%u reads said available before the submission could start (its gate was "
		     "shut)", p->early);
	for (uint32_t k = 0; k < p->kept; k++)
		VKQS_EXPECTF(ctx, p->seen[k][0] == fin[0],
			     "a read while the write was in flight said available with %" PRIu64
			     "; the final value is %" PRIu64, p->seen[k][0], fin[0]);
}

static const struct vkqs_case cases[] = {
	{"compacted_size.bounded", compacted_size, SPEC_COMPACT},
	{"compacted_size.copy_traces_the_same", compact_and_trace, SPEC_COMPACT},
	{"size", size_query, SPEC_SIZE, VKQS_PARAMS(shapes, shape_name)},
	{"serialization", serialization, SPEC_SERIAL, VKQS_PARAMS(shapes, shape_name)},
	{"results", results_api, SPEC_RESULTS, VKQS_PARAMS(result_types, type_name)},
	{"host_path", host_path, SPEC_RESULTS, VKQS_PARAMS(result_types, type_name)},
	{"inflight", inflight,
	 "18.2: VK_QUERY_RESULT_WAIT_BIT waits for the query to become available; an available "
	 "query's result is final (the property write read while it is held behind the host)",
	 VKQS_PARAMS(inflight_params, inflight_name)},
};
VKQS_GROUP(accel, khr, cases);
VKQS_GROUP_DECL(accel, nv);
VKQS_GROUP_DECL(accel, micromap);

static const struct vkqs_area_part parts[] = {
	{&vkqs_accel_khr, 0, 0},
	{&vkqs_accel_nv, 0, 0},
	{&vkqs_accel_micromap, 0, 0},
};

VKQS_AREA_OF_PARTS(accel, parts);
