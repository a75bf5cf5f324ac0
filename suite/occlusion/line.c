/* vkqs.occlusion.line.*: line segments, strict or not, wide lines and strips with a
 * shared endpoint, against the spec's coverage rule. */
#include "occlusion.h"

/* Lines of integer endpoints along a row (or column) of pixel centres.
 *
 * strictLines VK_TRUE (spec "Basic Line Segment Rasterization", the
 * preferred method that "must be used when the implementation advertises
 * the strictLines limit as VK_TRUE"): the line covers a rectangle "centered
 * on the line segment", its long edges at half the width from it and its
 * short edges through the endpoints.  From (a, k + 0.5) to (b, k + 0.5) at
 * width w (odd) that is [a, b] x [k + 0.5 - w/2, k + 0.5 + w/2]: integer
 * edges, so exactly (b - a) * w pixels with all samples.
 *
 * strictLines VK_FALSE: the non-strict parallelogram (edges 2 and 3 "aligned
 * to the minor axis and centered on the endpoints", lineWidth long) is the
 * same rectangle here, but implementations "may deviate": "Rasterization of
 * non-antialiased non-strict line segments may be performed using the rules
 * defined in Bresenham Line Segment Rasterization".  The diamond-exit rule
 * on this segment (perturbed by (-e, -e^2)) produces fragments a-1 .. b-2:
 * b - a of them; other algorithms "must not differ from that produced by
 * the diamond-exit rule by no more than one", and Bresenham lines "cover
 * all samples in those pixels"; a width-w Bresenham line is a column of w
 * fragments at each x.  So each segment counts (b - a +- 1) * w * samples.
 */
enum line_kind { LINE_HORIZONTAL, LINE_VERTICAL, LINE_WIDE_3, LINE_STRIP };

static const char *const line_kind_names[] = {"horizontal", "vertical", "width_3",
					      "strip_shared_endpoint"};

struct line_param {
	enum line_kind kind;
	VkSampleCountFlagBits samples;
};

static const struct line_param line_params[] = {
	{LINE_HORIZONTAL, VK_SAMPLE_COUNT_1_BIT}, {LINE_HORIZONTAL, VK_SAMPLE_COUNT_4_BIT},
	{LINE_VERTICAL, VK_SAMPLE_COUNT_4_BIT},   {LINE_WIDE_3, VK_SAMPLE_COUNT_4_BIT},
	{LINE_STRIP, VK_SAMPLE_COUNT_4_BIT},
};

static void line_name(const void *param, char *buf, size_t size)
{
	const struct line_param *p = param;
	snprintf(buf, size, "%s_samples_%u", line_kind_names[p->kind], (unsigned)p->samples);
}

static void require_line_width(struct vkqs_ctx *ctx, float w)
{
	const VkPhysicalDeviceLimits *l = &ctx->vk->props.limits;
	if (w == 1.0f)
		return;
	/* VUID-VkGraphicsPipelineCreateInfo-pDynamicStates-00749: without
	 * wideLines, lineWidth must be 1.0. */
	if (!ctx->vk->features.features.wideLines)
		vkqs_skip(ctx, "feature wideLines is not supported (line width %g)", w);
	if (w < l->lineWidthRange[0] || w > l->lineWidthRange[1])
		vkqs_skip(ctx, "line width %g is outside lineWidthRange [%g, %g]", w,
			  l->lineWidthRange[0], l->lineWidthRange[1]);
	double k = (w - l->lineWidthRange[0]) / l->lineWidthGranularity;
	if (l->lineWidthGranularity > 0.0f && k != floor(k))
		vkqs_skip(ctx, "line width %g is not lineWidthRange[0] %g + k * "
			       "lineWidthGranularity %g", w, l->lineWidthRange[0],
			  l->lineWidthGranularity);
}

static void line_segment(struct vkqs_ctx *ctx, const void *param)
{
	const struct line_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	float width = p->kind == LINE_WIDE_3 ? 3.0f : 1.0f;
	require_line_width(ctx, width);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	struct prim_desc d = {
		.topology = p->kind == LINE_STRIP ? VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
						  : VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
		.line_width = width,
	};
	const struct vkqs_pipeline *pipe = occ_prim_pipeline(ctx, o.t, &d);
	float v[3][2] = {{10, 20.5f}, {50, 20.5f}, {0, 0}};
	uint32_t count = 2, len = 40, segments = 1;
	switch (p->kind) {
	case LINE_VERTICAL: /* column 37, rows 6 .. 57 */
		v[0][0] = v[1][0] = 37.5f;
		v[0][1] = 6;
		v[1][1] = 58;
		len = 52;
		break;
	case LINE_WIDE_3: /* rows 29, 30, 31 */
		v[0][0] = 12;
		v[1][0] = 44;
		v[0][1] = v[1][1] = 30.5f;
		len = 32;
		break;
	case LINE_STRIP: /* 6 -> 30 -> 58 on row 45: the shared endpoint's
			    rectangles meet at x = 30, no sample on it, and
			    Bresenham "must not produce duplicate fragments" */
		v[0][0] = 6;
		v[1][0] = 30;
		v[2][0] = 58;
		v[0][1] = v[1][1] = v[2][1] = 45.5f;
		count = 3;
		len = 52;
		segments = 2;
		break;
	case LINE_HORIZONTAL:
	default:
		break;
	}

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	occ_prim_draw(ctx, o.cb, pipe, (const float(*)[2])v, count, 0.5f, 1.0f, 0);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0],
		      occ_line_window(ctx, len, (uint64_t)width, segments, p->samples),
		      ctx->vk->props.limits.strictLines
			      ? "strict line (rectangle)"
			      : "non-strict line (parallelogram, or Bresenham within one fragment "
				"per segment)");
}

static const struct vkqs_case cases[] = {
	{.name = "line.segment",
	 .fn = line_segment,
	 .spec = PRECISE_SPEC "; Basic Line Segment Rasterization: strict lines cover the "
			      "rectangle centred on the segment; non-strict lines the "
			      "parallelogram, or Bresenham within one fragment of the "
			      "diamond-exit rule, covering all samples of each fragment",
	 .params = VKQS_PARAMS(line_params, line_name)},
};

VKQS_GROUP(occlusion, line, cases);
