/* vkqs.stats.geometry.*: geometry shader invocations and primitives of an instanced
 * geometry shader. */
#include "stats.h"

/* Every counter the pipeline touches, with its stage in place: clipping
 * then counts the geometry shader's output (6 triangles), not the input
 * assembler's 2, which separates the two counters the core draws cannot. */
static void geometry_counts(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t mask = CORE_GRAPHICS | GEOM_BITS;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .geom = true};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	stats_query_one_draw(ctx, &g, pipe, RA);
	struct expect e = stats_expect_zero("instanced geometry shader");
	stats_add_geom_draw(ctx, &e, RA);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const struct vkqs_case cases[] = {
	{.name = "geometry.instanced_shader_counts",
	 .fn = geometry_counts,
	 .spec = "18.4: geometry shader invocations count each instanced invocation; "
		 "geometry shader primitives: OpEndPrimitive has no effect on the count; "
		 "clipping counts the geometry shader's output"},
};

VKQS_GROUP(stats, geometry, cases);
