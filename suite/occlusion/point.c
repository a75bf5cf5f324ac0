/* vkqs.occlusion.point.*: a point covers the square of its size centred on it, also
 * where it crosses the framebuffer's edges. */
#include "occlusion.h"

/* Spec "Basic Point Rasterization": "Point rasterization produces a
 * fragment for each fragment area group of framebuffer pixels with one or
 * more sample points that intersect a region centered at the point's
 * (xf, yf).  This region is a square with side equal to the current point
 * size.  Coverage bits that correspond to sample points that intersect the
 * region are 1", with (xf, yf) "the exact, unrounded framebuffer
 * coordinate of the vertex".  A point of odd size s centred on a pixel
 * centre, or of even size on a pixel corner, has its square's edges on
 * pixel boundaries: it covers exactly s x s pixels with all their samples
 * (standard locations lie strictly inside pixels), none on an edge.
 * Spec "Points": the size is "clamped to the implementation-dependent point
 * size range" and "If an unsupported size is requested, the nearest
 * supported size is used instead", so a size is exact only when it is one
 * of pointSizeRange[0] + k * pointSizeGranularity. */
struct point_param {
	uint32_t size;
	VkSampleCountFlagBits samples;
	bool at_edges; /* squares crossing the framebuffer's edges */
};

static const struct point_param point_params[] = {
	{1, VK_SAMPLE_COUNT_1_BIT, false}, {1, VK_SAMPLE_COUNT_4_BIT, false},
	{3, VK_SAMPLE_COUNT_4_BIT, false}, {4, VK_SAMPLE_COUNT_1_BIT, false},
	{4, VK_SAMPLE_COUNT_4_BIT, false}, {4, VK_SAMPLE_COUNT_4_BIT, true},
};

static void point_name(const void *param, char *buf, size_t size)
{
	const struct point_param *p = param;
	snprintf(buf, size, "size_%u%s_samples_%u", p->size,
		 p->at_edges ? "_crossing_framebuffer_edges" : "", (unsigned)p->samples);
}

static void require_point_size(struct vkqs_ctx *ctx, float s)
{
	const VkPhysicalDeviceLimits *l = &ctx->vk->props.limits;
	if (s == 1.0f)
		return; /* spec "Points": "the size 1.0 must be supported" */
	if (!ctx->vk->features.features.largePoints)
		vkqs_skip(ctx, "feature largePoints is not supported (point size %g)", s);
	if (s < l->pointSizeRange[0] || s > l->pointSizeRange[1])
		vkqs_skip(ctx, "point size %g is outside pointSizeRange [%g, %g]", s,
			  l->pointSizeRange[0], l->pointSizeRange[1]);
	double k = (s - l->pointSizeRange[0]) / l->pointSizeGranularity;
	if (l->pointSizeGranularity > 0.0f && k != floor(k))
		vkqs_skip(ctx, "point size %g is not pointSizeRange[0] %g + k * "
			       "pointSizeGranularity %g", s, l->pointSizeRange[0],
			  l->pointSizeGranularity);
}

static void point_square(struct vkqs_ctx *ctx, const void *param)
{
	const struct point_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	require_point_size(ctx, (float)p->size);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe =
		occ_prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
	float c = p->size % 2 ? 0.5f : 0.0f; /* pixel centre or corner */
	const float inside[3][2] = {{10 + c, 12 + c}, {30 + c, 40 + c}, {50 + c, 21 + c}};
	/* Size 4 at (1, 1) and (63, 63): the squares [-1, 3] and [61, 65]
	 * each keep 3 x 3 pixels; spec "Rasterization": fragments "which lie
	 * outside the framebuffer are not produced".  The vertices lie inside
	 * the clip volume, so the points are not clipped. */
	const float edges[2][2] = {{1, 1}, {63, 63}};
	uint64_t pixels = p->at_edges ? 2 * 9 : 3 * (uint64_t)p->size * p->size;

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	if (p->at_edges)
		occ_prim_draw(ctx, o.cb, pipe, edges, 2, 0.5f, (float)p->size, 0);
	else
		occ_prim_draw(ctx, o.cb, pipe, inside, 3, 0.5f, (float)p->size, 0);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], pixels * p->samples);
}

static const struct vkqs_case cases[] = {
	{.name = "point.square",
	 .fn = point_square,
	 .spec = PRECISE_SPEC "; Basic Point Rasterization: a point covers the samples in the "
			      "square of side the point size centred at (xf, yf); fragments "
			      "outside the framebuffer are not produced",
	 .params = VKQS_PARAMS(point_params, point_name)},
};

VKQS_GROUP(occlusion, point, cases);
