/* vkqs.stats.cluster_culling.*: the pipeline statistic
 * VK_QUERY_PIPELINE_STATISTIC_CLUSTER_CULLING_SHADER_INVOCATIONS_BIT_HUAWEI
 * (VK_HUAWEI_cluster_culling_shader).
 *
 * Vulkan-Docs 1.4.360 defines the bit in vk.xml and nowhere in the
 * Queries chapter: what it counts is not specified.  What is specified
 * holds for every statistic bit (18.4): "For each statistic bit set in
 * pipelineStatistics, one value is written", in the order of the bits,
 * then the availability word.  So the verdicts here:
 * - Fail: a pool of INPUT_ASSEMBLY_VERTICES and the cluster culling bit
 *   writes two values and the availability word, nothing past them, the
 *   first equal to what a pool of INPUT_ASSEMBLY_VERTICES alone counts for
 *   the same draw;
 * - CompatibilityWarning: the cluster culling count is not zero for a
 *   pipeline without a cluster culling shader (the name says what it
 *   counts; the spec does not).
 * A pipeline with a cluster culling shader is not drawn: glslang 11
 * (Debian 12) cannot compile GL_HUAWEI_cluster_culling_shader, and no
 * device here offers the extension.  NotSupported without the extension's
 * clustercullingShader feature (the bit needs it). */
#include <string.h>

#include "stats.h"

#define CCS_BIT VK_QUERY_PIPELINE_STATISTIC_CLUSTER_CULLING_SHADER_INVOCATIONS_BIT_HUAWEI

static void without_cluster_shader(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_HUAWEI_CLUSTER_CULLING_SHADER_EXTENSION_NAME))
		vkqs_skip(ctx, "the device does not offer VK_HUAWEI_cluster_culling_shader");
	vkqs_require_feature(ctx, "VK_HUAWEI_cluster_culling_shader.clustercullingShader");
	uint32_t mask = BIT(IA_V) | CCS_BIT;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
	stats_query_one_draw(ctx, &g, stats_gfx_pipeline(ctx, g.t, &gd), RA);

	uint64_t r[5];
	memset(r, STATS_GUARD_BYTE, sizeof(r));
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, g.pool, 0, 1, 3 * 8, r, 3 * 8,
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
							 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
	bool guard = stats_untouched((const uint8_t *)&r[3], 16);
	VKQS_EXPECTF(ctx, r[0] >= 6 && r[2] != 0 && guard,
		     "input assembly vertices %" PRIu64 " for a 6-vertex triangle list, written "
		     "before the cluster culling value; availability %" PRIu64 "; the 16 bytes "
		     "after the availability word %s", r[0], r[2], guard ? "untouched" : "written");
	if (r[0] > 6)
		vkqs_compat_warning(ctx, "input assembly vertices %" PRIu64 " for 6 vertices", r[0]);
	if (r[1] != 0)
		vkqs_compat_warning(ctx, "cluster culling shader invocations %" PRIu64 " for a draw "
				    "with no cluster culling shader", r[1]);
}

static const struct vkqs_case cases[] = {
	{.name = "cluster_culling.without_cluster_shader",
	 .fn = without_cluster_shader,
	 .spec = "18.4: one value per statistic bit, in bit order, then availability "
		 "(CLUSTER_CULLING_SHADER_INVOCATIONS_BIT_HUAWEI, whose count the spec does not "
		 "define)"},
};

VKQS_GROUP(stats, cluster_culling, cases);
