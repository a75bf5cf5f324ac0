/* vkqs.occlusion.depth.*: the depth test seen through the count: a fully occluded draw
 * counts 0 (precise or not), a partly occluded rectangle exactly its visible samples,
 * and a triangle occluder per sample. */
#include "occlusion.h"

struct depth_param {
	bool precise;
	VkSampleCountFlagBits samples;
};

static const struct depth_param depth_params[] = {
	{true, VK_SAMPLE_COUNT_1_BIT},
	{true, VK_SAMPLE_COUNT_4_BIT},
	{false, VK_SAMPLE_COUNT_1_BIT},
	{false, VK_SAMPLE_COUNT_4_BIT},
};

static void depth_name(const void *param, char *buf, size_t size)
{
	const struct depth_param *p = param;
	snprintf(buf, size, "%s_samples_%u", p->precise ? "precise" : "nonprecise",
		 (unsigned)p->samples);
}

/* Depth cleared to 0.0, test LESS, draw at 0.5: no sample passes, so even a
 * non-precise query must be 0 (18.3 allows "any non-zero result value" only
 * "if the count of passing samples is non-zero").  A control query draws
 * the same rectangle with GREATER, so the zero is known to come from the
 * depth test and not from a draw that never ran. */
static void depth_fully_occluded(struct vkqs_ctx *ctx, const void *param)
{
	const struct depth_param *p = param;
	VkQueryControlFlags flags = p->precise ? occ_require_precise(ctx) : 0;
	struct occ o = occ_begin(ctx, p->samples, true, 2);
	const struct vkqs_pipeline *less = occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	const struct vkqs_pipeline *greater =
		occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_GREATER, false);
	const struct rect r = {8, 8, 48, 48};

	vkqs_target_begin(ctx, o.cb, o.t, 0.0f);
	occ_query_draw(ctx, &o, 0, flags, less, r, 0.5f);
	occ_query_draw(ctx, &o, 1, flags, greater, r, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	/* The control is exact only when precise and with samples known to lie
	 * inside pixels; otherwise any non-zero value is legal (18.3). */
	if (p->precise && ctx->vk->props.limits.standardSampleLocations)
		VKQS_EXPECT_EQ(ctx, res[1], occ_area(r) * p->samples);
	else
		VKQS_EXPECT_GT(ctx, res[1], 0);
}

/* An occluder at z 0.25 is drawn with depth writes outside the query; the
 * measured rectangle at z 0.5 (LESS) passes exactly where the occluder is
 * not: both have integer edges, so each pixel's samples are all behind the
 * occluder or all in front of the 1.0 clear. */
static void depth_partially_occluded(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, true, 1);
	const struct vkqs_pipeline *occluder =
		occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, true);
	const struct vkqs_pipeline *measured =
		occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	const struct rect occ_r = {20, 10, 24, 20}, m = {8, 16, 32, 24};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_draw(ctx, &o, occluder, occ_r, 0.25f);
	occ_query_draw(ctx, &o, 0, flags, measured, m, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint64_t visible = occ_area(m) - occ_area(occ_intersect(m, occ_r));
	VKQS_EXPECT_EQ(ctx, res[0], visible * samples);
}

/* Partial pixel coverage seen through the other per-fragment tests, at 1
 * and 4 samples (the rectangle cases only ever cover whole pixels). */

/* An occluder triangle at depth 0.25 (LESS, writes) inside the measured
 * rectangle at 0.5: LESS passes exactly where the occluder is not and
 * GREATER_OR_EQUAL exactly where it is, sample by sample (spec "Depth
 * Test" is per sample), so the GREATER_OR_EQUAL count equals the
 * occluder's own count and the two add up to the rectangle's samples. */
static void depth_partially_occluded_by_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, true, 3);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.depth_test = true,
		.depth_write = true,
		.depth_op = VK_COMPARE_OP_LESS,
	};
	const struct vkqs_pipeline *occluder = occ_prim_pipeline(ctx, o.t, &d);
	d.depth_write = false;
	const struct vkqs_pipeline *less = occ_prim_pipeline(ctx, o.t, &d);
	d.depth_op = VK_COMPARE_OP_GREATER_OR_EQUAL;
	const struct vkqs_pipeline *gequal = occ_prim_pipeline(ctx, o.t, &d);
	const struct rect r = {2, 2, 62, 60}; /* holds the whole triangle */

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, occluder, SHAPE_SLANTED, 0.25f, samples,
				     whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	occ_query_prim_rect(ctx, &o, 1, flags, less, r);
	occ_query_prim_rect(ctx, &o, 2, flags, gequal, r);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, "occluder triangle");
	VKQS_EXPECTF(ctx, res[2] == res[0],
		     "GREATER_OR_EQUAL behind the occluder counted %" PRIu64
		     ", the occluder itself %" PRIu64 ": the same samples", res[2], res[0]);
	VKQS_EXPECTF(ctx, res[1] + res[2] == occ_area(r) * samples,
		     "LESS %" PRIu64 " + GREATER_OR_EQUAL %" PRIu64 " != the rectangle's %" PRIu64
		     " samples", res[1], res[2], occ_area(r) * samples);
}

static const struct vkqs_case cases[] = {
	{.name = "depth.fully_occluded",
	 .fn = depth_fully_occluded,
	 .spec = "18.3: if flags does not contain VK_QUERY_CONTROL_PRECISE_BIT an "
		 "implementation may generate any non-zero result value for the query if "
		 "the count of passing samples is non-zero (zero passing samples: 0)",
	 .params = VKQS_PARAMS(depth_params, depth_name)},
	{.name = "depth.partially_occluded",
	 .fn = depth_partially_occluded,
	 .spec = SAMPLE_COUNTING_SPEC " (depth test); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "depth.partially_occluded_by_triangle",
	 .fn = depth_partially_occluded_by_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (the depth test is per sample: a partially covered "
				      "pixel passes in part)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, depth, cases);
