/* vkqs.accel.nv.*: VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_NV
 * (VK_NV_ray_tracing), written by vkCmdWriteAccelerationStructuresPropertiesNV.
 *
 * The oracles, as for the KHR query (accel.c): the compacted size is "the
 * size required for a compacted copy" (VkAccelerationStructureCreateInfoNV
 * compactedSize "is the size from the result of
 * vkCmdWriteAccelerationStructuresPropertiesNV if this acceleration
 * structure is going to be the target of a compacting copy"), so it is
 * non-zero and at most the memory the structure itself needs
 * (VK_ACCELERATION_STRUCTURE_MEMORY_REQUIREMENTS_TYPE_OBJECT_NV); a copy
 * with VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_NV into a structure
 * created with that compactedSize is valid; and the results rules of 18.2:
 * 32-bit equals 64-bit below 2^32, a non-zero availability word,
 * vkCmdCopyQueryPoolResults writes what vkGetQueryPoolResults returns, a
 * reset query reads VK_NOT_READY without WAIT.
 *
 * The reference device offers no ray tracing: NotSupported there. */
#include <inttypes.h>
#include <string.h>

#include "accel.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_NV "18.1: VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_NV, an acceleration " \
	"structure size query for vkCmdWriteAccelerationStructuresPropertiesNV; "                 \
	"VkAccelerationStructureCreateInfoNV::compactedSize \"the size from the result of "         \
	"vkCmdWriteAccelerationStructuresPropertiesNV\" for a compacting copy"

#define TRIS 16u

struct nv_as {
	VkAccelerationStructureNV as;
	VkDeviceSize object_size; /* OBJECT_NV memory requirement */
};

static void require_nv(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_NV_RAY_TRACING_EXTENSION_NAME))
		vkqs_skip(ctx, "the device does not offer VK_NV_ray_tracing");
}

static void destroy_nv(struct vkqs_ctx *ctx, void *arg)
{
	D->vkDestroyAccelerationStructureNV(DEV, (VkAccelerationStructureNV)(uintptr_t)arg, NULL);
}

static void free_memory(struct vkqs_ctx *ctx, void *arg)
{
	D->vkFreeMemory(DEV, (VkDeviceMemory)(uintptr_t)arg, NULL);
}

static VkMemoryRequirements nv_requirements(struct vkqs_ctx *ctx, VkAccelerationStructureNV as,
					    VkAccelerationStructureMemoryRequirementsTypeNV type)
{
	VkAccelerationStructureMemoryRequirementsInfoNV ri = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_MEMORY_REQUIREMENTS_INFO_NV,
		.type = type, .accelerationStructure = as};
	VkMemoryRequirements2 r = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	D->vkGetAccelerationStructureMemoryRequirementsNV(DEV, &ri, &r);
	return r.memoryRequirements;
}

/* A structure of `info` (compactedSize 0, or the target size of a
 * compacting copy), with its own device memory bound. */
static struct nv_as create_nv(struct vkqs_ctx *ctx, const VkAccelerationStructureInfoNV *info,
			      VkDeviceSize compacted)
{
	struct nv_as a = {0};
	VkAccelerationStructureCreateInfoNV ci = {
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_NV,
		.compactedSize = compacted, .info = *info};
	VKQS_CHECK(ctx, D->vkCreateAccelerationStructureNV(DEV, &ci, NULL, &a.as));
	vkqs_defer(ctx, destroy_nv, (void *)(uintptr_t)a.as);
	VkMemoryRequirements r =
		nv_requirements(ctx, a.as, VK_ACCELERATION_STRUCTURE_MEMORY_REQUIREMENTS_TYPE_OBJECT_NV);
	a.object_size = r.size;
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
				   .allocationSize = r.size,
				   .memoryTypeIndex = vkqs_memory_type(ctx, r.memoryTypeBits,
								       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
	VkDeviceMemory mem;
	VKQS_CHECK(ctx, D->vkAllocateMemory(DEV, &ai, NULL, &mem));
	vkqs_defer(ctx, free_memory, (void *)(uintptr_t)mem);
	VkBindAccelerationStructureMemoryInfoNV bi = {
		.sType = VK_STRUCTURE_TYPE_BIND_ACCELERATION_STRUCTURE_MEMORY_INFO_NV,
		.accelerationStructure = a.as, .memory = mem};
	VKQS_CHECK(ctx, D->vkBindAccelerationStructureMemoryNV(DEV, 1, &bi));
	return a;
}

/* The build's and the writes' accesses ordered (the spec asks for the
 * ACCELERATION_STRUCTURE_BUILD stage and AS read access for the write). */
static void nv_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_NV,
			      .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_NV |
					       VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_NV};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_NV,
				VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_NV, 0, 1, &mb, 0,
				NULL, 0, NULL);
}

/* A bottom-level structure of TRIS triangles built with ALLOW_COMPACTION
 * on the graphics queue; complete on return.  *info keeps the geometry
 * the compacted copy's creation repeats. */
static struct nv_as build_blas_nv(struct vkqs_ctx *ctx, VkGeometryNV *g,
				  VkAccelerationStructureInfoNV *info)
{
	struct vkqs_buffer *vb = vkqs_buffer_host(ctx, TRIS * 9 * sizeof(float),
						  VK_BUFFER_USAGE_RAY_TRACING_BIT_NV);
	float *v = (float *)(void *)vb->map;
	for (uint32_t k = 0; k < TRIS; k++) {
		float x = (float)(k % 4), y = (float)(k / 4), z = 1.0f + 0.25f * (float)k;
		float pts[9] = {x, y, z, x + 0.8f, y + 0.1f, z, x + 0.3f, y + 0.8f, z};
		memcpy(v + 9 * k, pts, sizeof(pts));
	}
	vkqs_buffer_flush(ctx, vb);
	*g = (VkGeometryNV){.sType = VK_STRUCTURE_TYPE_GEOMETRY_NV,
			    .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_NV,
			    .flags = VK_GEOMETRY_OPAQUE_BIT_NV};
	g->geometry.triangles = (VkGeometryTrianglesNV){
		.sType = VK_STRUCTURE_TYPE_GEOMETRY_TRIANGLES_NV,
		.vertexData = vb->buf,
		.vertexCount = 3 * TRIS,
		.vertexStride = 3 * sizeof(float),
		.vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
		.indexType = VK_INDEX_TYPE_NONE_NV};
	g->geometry.aabbs.sType = VK_STRUCTURE_TYPE_GEOMETRY_AABB_NV;
	*info = (VkAccelerationStructureInfoNV){
		.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_INFO_NV,
		.type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_NV,
		.flags = VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_COMPACTION_BIT_NV,
		.geometryCount = 1,
		.pGeometries = g};
	struct nv_as a = create_nv(ctx, info, 0);
	VkMemoryRequirements sr = nv_requirements(
		ctx, a.as, VK_ACCELERATION_STRUCTURE_MEMORY_REQUIREMENTS_TYPE_BUILD_SCRATCH_NV);
	struct vkqs_buffer *scratch =
		vkqs_buffer_device(ctx, sr.size ? sr.size : 1, VK_BUFFER_USAGE_RAY_TRACING_BIT_NV);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdBuildAccelerationStructureNV(cb, info, VK_NULL_HANDLE, 0, VK_FALSE, a.as,
					     VK_NULL_HANDLE, scratch->buf, 0);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return a;
}

/* A pool of `queries` COMPACTED_SIZE_NV queries, all reset, query `q`
 * written for `as`: the command buffer, recorded and not submitted. */
static VkCommandBuffer record_compacted(struct vkqs_ctx *ctx, VkQueryPool *pool,
					uint32_t queries, uint32_t q, VkAccelerationStructureNV as)
{
	*pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_NV,
				queries, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	nv_barrier(ctx, cb);
	D->vkCmdResetQueryPool(cb, *pool, 0, queries);
	D->vkCmdWriteAccelerationStructuresPropertiesNV(
		cb, 1, &as, VK_QUERY_TYPE_ACCELERATION_STRUCTURE_COMPACTED_SIZE_NV, *pool, q);
	return cb;
}

/* Non-zero, at most the structure's own memory; then the compacting copy
 * the size is for, into a structure created with that compactedSize (a
 * size too small for the copy shows as a device fault). */
static void compacted_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_nv(ctx);
	VkGeometryNV g;
	VkAccelerationStructureInfoNV info;
	struct nv_as a = build_blas_nv(ctx, &g, &info);
	VkQueryPool pool;
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, record_compacted(ctx, &pool, 1, 0, a.as));
	uint64_t c = 0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, 8, &c, 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
	accel_compacted_bound(ctx, c, a.object_size,
			      "the structure's own memory (OBJECT_NV requirement)");
	/* a compacting copy's target: compactedSize, no geometry
	 * (VUID-VkAccelerationStructureCreateInfoNV-compactedSize-02421) */
	VkAccelerationStructureInfoNV target = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_INFO_NV,
						.type = info.type, .flags = info.flags};
	struct nv_as small = create_nv(ctx, &target, c);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	nv_barrier(ctx, cb);
	D->vkCmdCopyAccelerationStructureNV(cb, small.as, a.as,
					    VK_COPY_ACCELERATION_STRUCTURE_MODE_COMPACT_NV);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* The results rules of 18.2 on this query type: query 1 of a 3-query pool
 * (queries 0 and 2 reset and never written). */
static void results(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_nv(ctx);
	VkGeometryNV g;
	VkAccelerationStructureInfoNV info;
	struct nv_as a = build_blas_nv(ctx, &g, &info);
	VkQueryPool pool;
	VkCommandBuffer cb = record_compacted(ctx, &pool, 3, 1, a.as);
	accel_results_finish(ctx, cb, pool);
}

static const struct vkqs_case cases[] = {
	{.name = "nv.compacted_size", .fn = compacted_size, .spec = SPEC_NV},
	{.name = "nv.results", .fn = results,
	 .spec = SPEC_NV "; 18.2 the results of any query type (32/64-bit, availability, "
		 "vkCmdCopyQueryPoolResults, VK_NOT_READY)"},
};

VKQS_GROUP(accel, nv, cases);
