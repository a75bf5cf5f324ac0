/* vkqs.occlusion.scissor.*: samples outside the scissor rectangle are not counted, for
 * a rectangle and for a triangle's partly covered pixels. */
#include "occlusion.h"

/* Spec "Scissor Test": samples whose framebuffer coordinates lie outside
 * the scissor rectangle get coverage 0.  A fragment is the integer grid
 * square (spec "Rasterization"), so every sample of a pixel outside the
 * integer scissor rectangle loses its coverage, whatever its location, and
 * the count is the intersection's pixels times the sample count.  The
 * scissor's left and top edges lie inside the rectangle, so a rasterizer
 * that tests sample positions against a half-pixel-shifted scissor shows
 * up at 4 samples. */
static void scissor_clipped_rect(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct rect r = {8, 8, 32, 32}, sc = {20, 12, 24, 10};
	uint64_t got = occ_measure_rect(ctx, &o, occ_plain_pipeline(ctx, &o), r, &sc, flags);
	VKQS_EXPECT_EQ(ctx, got, occ_area(occ_intersect(r, sc)) * samples);
}

/* Spec "Scissor Test" on a triangle: samples of pixels outside the scissor
 * lose coverage, so the count is the triangle's samples in the scissor's
 * pixels (the oracle's clip). */
static void scissor_clipped_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct vkqs_pipeline *pipe =
		occ_prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	const struct rect sc = {16, 20, 30, 24};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_set_scissor(ctx, o.cb, sc);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, pipe, SHAPE_SLANTED, 0.5f, samples, sc, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, "triangle clipped by the scissor");
}

static const struct vkqs_case cases[] = {
	{.name = "scissor.clipped_rect",
	 .fn = scissor_clipped_rect,
	 .spec = SAMPLE_COUNTING_SPEC " (scissor test: samples with coordinates outside "
				      "the scissor rectangle have their coverage set to 0)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "scissor.clipped_triangle",
	 .fn = scissor_clipped_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (scissor test on a triangle's partially covered "
				      "pixels)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, scissor, cases);
