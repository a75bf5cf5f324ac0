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

/* discard_odd_columns_early.frag: with EarlyFragmentTests the depth test
 * and sample counting run before fragment shading (Fragment Operations,
 * "Early Fragment Test Mode"), so the fragments the shader then discards
 * were counted: the whole rectangle's samples.  With a depth attachment the
 * depth test runs early too: passing (z 0.5 LESS than the 1.0 clear), or
 * failing (GREATER), when the shader never runs and nothing is counted. */
struct early_param {
	VkSampleCountFlagBits samples;
	bool depth;
	bool occluded;
};
static const struct early_param early_params[] = {
	{VK_SAMPLE_COUNT_1_BIT, false, false}, {VK_SAMPLE_COUNT_4_BIT, false, false},
	{VK_SAMPLE_COUNT_4_BIT, true, false},  {VK_SAMPLE_COUNT_4_BIT, true, true},
};
static void early_name(const void *param, char *buf, size_t size)
{
	const struct early_param *p = param;
	snprintf(buf, size, "%s_samples_%u",
		 p->occluded ? "depth_occluded" : p->depth ? "depth_passing" : "no_depth",
		 (unsigned)p->samples);
}

static void discard_early_tests(struct vkqs_ctx *ctx, const void *param)
{
	const struct early_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, p->depth, 1);
	struct vkqs_pipeline_desc desc = {
		.frag_spv = discard_odd_columns_early_frag,
		.frag_size = sizeof(discard_odd_columns_early_frag),
		.depth_test = p->depth,
		.depth_compare = p->occluded ? VK_COMPARE_OP_GREATER : VK_COMPARE_OP_LESS,
	};
	const struct rect r = {6, 10, 32, 20};
	uint64_t got = occ_measure_rect(ctx, &o, vkqs_pipeline_rect(ctx, o.t, &desc), r, NULL,
				    flags);
	uint64_t want = p->occluded ? 0 : (uint64_t)r.w * r.h * p->samples;
	VKQS_EXPECTF(ctx, got == want,
		     "early fragment tests, odd columns discarded by the shader afterwards%s: "
		     "%llu samples counted, %llu expected (%s)",
		     p->depth ? (p->occluded ? ", depth test failing"
					     : ", depth test passing")
			      : "",
		     (unsigned long long)got, (unsigned long long)want,
		     p->occluded ? "every fragment fails the early depth test"
				 : "counting precedes the shader's discard");
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
	{.name = "discard.early_tests_odd_columns",
	 .fn = discard_early_tests,
	 .spec = "Fragment Operations, Early Fragment Test Mode: with EarlyFragmentTests the "
		 "depth test and sample counting are performed before fragment shading, so "
		 "fragments the shader discards are counted; " PRECISE_SPEC,
	 .params = VKQS_PARAMS(early_params, early_name)},
};

VKQS_GROUP(occlusion, discard, cases);
