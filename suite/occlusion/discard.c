/* vkqs.occlusion.discard.*: fragments the shader discards survive no test and are not
 * counted, for a rectangle and a triangle. */
#include "occlusion.h"

/* discard_odd_columns.frag kills every fragment of an odd column; a killed
 * fragment takes all its samples with it (no sample shading: gl_FragCoord
 * is the pixel centre), so an even-x, even-width rectangle keeps half. */
static void discard_odd_columns(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	struct vkqs_pipeline_desc desc = {
		.frag_spv = discard_odd_columns_frag,
		.frag_size = sizeof(discard_odd_columns_frag),
	};
	const struct rect r = {6, 10, 32, 20};
	uint64_t got = occ_measure_rect(ctx, &o, vkqs_pipeline_rect(ctx, o.t, &desc), r, NULL,
				    flags);
	VKQS_EXPECT_EQ(ctx, got, (uint64_t)(r.w / 2) * r.h * samples);
}

/* discard_odd_columns.frag on a triangle: the fragments of odd columns die
 * with all their samples, partially covered ones included. */
static void discard_odd_columns_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.frag = FRAG_DISCARD_ODD_COLUMNS,
	};
	const struct vkqs_pipeline *pipe = occ_prim_pipeline(ctx, o.t, &d);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, pipe, SHAPE_SLANTED, 0.5f, samples, whole_fb, true);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, "triangle with odd columns discarded");
}

static const struct vkqs_case cases[] = {
	{.name = "discard.odd_columns",
	 .fn = discard_odd_columns,
	 .spec = SAMPLE_COUNTING_SPEC " (a fragment discarded by the shader survives "
				      "no test); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "discard.odd_columns_triangle",
	 .fn = discard_odd_columns_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (a discarded fragment survives no test, partially "
				      "covered ones included)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, discard, cases);
