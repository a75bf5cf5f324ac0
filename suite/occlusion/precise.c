/* vkqs.occlusion.precise.*: exact precise counts of pixel rectangles at 1 to 8
 * samples, every fragment of overlapping draws counted, each query starting at zero,
 * and a query that spans two render pass instances. */
#include "occlusion.h"

struct rect_param {
	struct rect r;
	VkSampleCountFlagBits samples;
};

#define RECT_BOTH_COUNTS(x, y, w, h) \
	{{x, y, w, h}, VK_SAMPLE_COUNT_1_BIT}, {{x, y, w, h}, VK_SAMPLE_COUNT_4_BIT}

static const struct rect_param rect_params[] = {
	RECT_BOTH_COUNTS(4, 4, 16, 8),   /* interior */
	RECT_BOTH_COUNTS(0, 0, 1, 1),    /* one pixel on the left and top edges */
	RECT_BOTH_COUNTS(40, 54, 24, 10), /* touches the right and bottom edges */
	RECT_BOTH_COUNTS(0, 0, 64, 64),  /* the whole framebuffer */
};

static void rect_name(const void *param, char *buf, size_t size)
{
	const struct rect_param *p = param;
	snprintf(buf, size, "%ux%u_at_%u_%u_samples_%u", p->r.w, p->r.h, p->r.x,
		 p->r.y, (unsigned)p->samples);
}

static void precise_rect(struct vkqs_ctx *ctx, const void *param)
{
	const struct rect_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	uint64_t got = occ_measure_rect(ctx, &o, occ_plain_pipeline(ctx, &o), p->r, NULL, flags);
	VKQS_EXPECT_EQ(ctx, got, occ_area(p->r) * p->samples);
}

/* Sample Counting is per fragment: where two draws overlap without a depth
 * test, both fragments pass and each sample counts twice.  A driver that
 * counts covered pixels (or samples written once) reports the union. */
static void precise_overlapping_draws(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
	const struct rect a = {8, 8, 24, 16}, b = {16, 12, 24, 16};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	occ_draw(ctx, &o, pipe, a, 0.5f);
	occ_draw(ctx, &o, pipe, b, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], (occ_area(a) + occ_area(b)) * FIXED_SAMPLES);
}

/* 18.3: "When an occlusion query begins, the count of passing samples always
 * starts at zero."  Back-to-back queries in one subpass each see only their
 * own draw, and one that contains no draw is 0. */
static void precise_sequential_queries(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 3);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
	const struct rect a = {2, 2, 10, 6}, b = {20, 30, 32, 20};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_query_draw(ctx, &o, 0, flags, pipe, a, 0.5f);
	occ_query_draw(ctx, &o, 1, flags, pipe, b, 0.5f);
	D->vkCmdBeginQuery(o.cb, o.pool, 2, flags);
	D->vkCmdEndQuery(o.cb, o.pool, 2);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], occ_area(a) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[1], occ_area(b) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[2], 0);
}

/* 18.2: a query may "both begin and end outside of a render pass instance
 * (i.e. contain entire render pass instances)"; it sums the draws of both
 * instances.  The instances' CLEAR load ops may add (18.2, clears and
 * attachment load/store operations), so the draws are a lower bound. */
static void precise_spans_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
	const struct rect a = {4, 40, 20, 12}, b = {30, 6, 12, 28};

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_draw(ctx, &o, pipe, a, 0.5f);
	vkqs_target_end(ctx, o.cb);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_draw(ctx, &o, pipe, b, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_draws_plus_clears(ctx, &o, res[0], (occ_area(a) + occ_area(b)) * FIXED_SAMPLES,
				     4, "the render pass instances' attachment load/store operations");
}

static const struct vkqs_case cases[] = {
	{.name = "precise.rect",
	 .fn = precise_rect,
	 .spec = PRECISE_SPEC "; Rasterization: a rectangle with integer edges covers "
			      "w*h pixels with all their samples (samples strictly inside "
			      "pixels, a shared edge's samples covered exactly once)",
	 .params = VKQS_PARAMS(rect_params, rect_name)},
	{.name = "precise.overlapping_draws_count_each_fragment",
	 .fn = precise_overlapping_draws,
	 .spec = SAMPLE_COUNTING_SPEC},
	{.name = "precise.sequential_queries_start_at_zero",
	 .fn = precise_sequential_queries,
	 .spec = "18.3: when an occlusion query begins, the count of passing samples "
		 "always starts at zero"},
	{.name = "precise.query_spans_two_render_passes",
	 .fn = precise_spans_render_passes,
	 .spec = "18.2: a query may both begin and end outside of a render pass instance "
		 "(i.e. contain entire render pass instances); " CLEARS_SPEC},
};

VKQS_GROUP(occlusion, precise, cases);
