/* vkqs.occlusion.triangle.*: triangle coverage against the polygon rasterization
 * oracle: slanted edges, slivers, a fan whose shared edges cover each sample once, and
 * sample strips. */
#include "occlusion.h"

static const char *const shape_names[] = {"slanted", "sliver", "fan_shared_edges",
					  "sample_strips"};

struct shape_param {
	enum shape shape;
	VkSampleCountFlagBits samples;
};

static const struct shape_param shape_params[] = {
	{SHAPE_SLANTED, VK_SAMPLE_COUNT_1_BIT}, {SHAPE_SLANTED, VK_SAMPLE_COUNT_4_BIT},
	{SHAPE_SLIVER, VK_SAMPLE_COUNT_1_BIT},  {SHAPE_SLIVER, VK_SAMPLE_COUNT_4_BIT},
	{SHAPE_FAN, VK_SAMPLE_COUNT_1_BIT},     {SHAPE_FAN, VK_SAMPLE_COUNT_4_BIT},
	{SHAPE_SAMPLE_STRIPS, VK_SAMPLE_COUNT_1_BIT}, {SHAPE_SAMPLE_STRIPS, VK_SAMPLE_COUNT_4_BIT},
};

static void shape_name(const void *param, char *buf, size_t size)
{
	const struct shape_param *p = param;
	snprintf(buf, size, "%s_samples_%u", shape_names[p->shape], (unsigned)p->samples);
}

static void triangle_coverage(struct vkqs_ctx *ctx, const void *param)
{
	const struct shape_param *p = param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe =
		occ_prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, pipe, p->shape, 0.5f, p->samples, whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);
	if ((p->shape == SHAPE_FAN || p->shape == SHAPE_SAMPLE_STRIPS) && w.lo != w.hi)
		vkqs_internal_error(ctx, "%s: exact vertices, yet %" PRIu64 " ambiguous samples",
				    shape_names[p->shape], w.hi - w.lo);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, shape_names[p->shape]);
}

static const struct vkqs_case cases[] = {
	{.name = "triangle.coverage",
	 .fn = triangle_coverage,
	 .spec = PRECISE_SPEC "; Basic Polygon Rasterization: the samples inside the polygon "
			      "(vertices held with subPixelPrecisionBits) are covered, a "
			      "sample on an edge shared by two polygons by exactly one",
	 .params = VKQS_PARAMS(shape_params, shape_name)},
};

VKQS_GROUP(occlusion, triangle, cases);
