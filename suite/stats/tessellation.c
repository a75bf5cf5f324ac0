/* vkqs.stats.tessellation.*: tessellation control patches and evaluation invocations
 * of a triangle patch. */
#include "stats.h"

static void tessellation_counts(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t mask = CORE_GRAPHICS | TESS_BITS;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .tess = true};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	stats_query_one_draw(ctx, &g, pipe, RA);
	struct expect e = stats_expect_zero("two triangle patches");
	stats_add_tess_draw(ctx, &e, RA);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const struct vkqs_case cases[] = {
	{.name = "tessellation.triangle_patches",
	 .fn = tessellation_counts,
	 .spec = "18.4: tessellation control shader patches: once per patch; tessellation "
		 "evaluation shader invocations: each invocation"},
};

VKQS_GROUP(stats, tessellation, cases);
