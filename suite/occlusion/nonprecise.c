/* vkqs.occlusion.nonprecise.*: without VK_QUERY_CONTROL_PRECISE_BIT the result is
 * non-zero exactly when samples passed (18.3), over every per-fragment test that can
 * remove them. */
#include "occlusion.h"

/* A 4 x 4 rectangle: its inner 2 x 2 pixels lie strictly inside it, so
 * their samples pass wherever the device puts them in the pixel (no need
 * for standard locations); a count > 0 makes a zero result wrong. */
static void nonprecise_visible(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct rect r = {30, 30, 4, 4};
	uint64_t got = occ_measure_rect(ctx, &o, occ_plain_pipeline(ctx, &o), r, NULL, 0);
	VKQS_EXPECT_GT(ctx, got, 0);
}

/* 18.3: without VK_QUERY_CONTROL_PRECISE_BIT "an implementation may
 * generate any non-zero result value for the query if the count of passing
 * samples is non-zero": so non-zero when samples passed, and the count
 * (0) when none did.  Each geometry is drawn twice in one subpass: in a
 * precise query (exact, or within the oracle's window) and in a non-precise
 * one. */
enum geom {
	GEOM_RECT,
	GEOM_DEPTH_OCCLUDED,
	GEOM_SCISSORED_OUT,
	GEOM_SAMPLE_MASK_ZERO,
	GEOM_DISCARD_ALL,
	GEOM_BACK_FACE_CULLED,
	GEOM_POINTS,
	GEOM_LINE,
	GEOM_TRIANGLE_BETWEEN_SAMPLES,
};

static const char *const geom_names[] = {
	"visible_rect",     "depth_occluded",   "scissored_out",
	"sample_mask_zero", "discard_all",      "back_face_culled",
	"points",           "line",             "triangle_between_samples"};

static const enum geom geom_params[] = {
	GEOM_RECT,        GEOM_DEPTH_OCCLUDED,   GEOM_SCISSORED_OUT,
	GEOM_SAMPLE_MASK_ZERO, GEOM_DISCARD_ALL, GEOM_BACK_FACE_CULLED,
	GEOM_POINTS,      GEOM_LINE,             GEOM_TRIANGLE_BETWEEN_SAMPLES};

static void geom_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", geom_names[*(const enum geom *)param]);
}

/* (8, 8), (40, 8), (8, 40): spec "Basic Polygon Rasterization" computes
 * a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) = -512 in framebuffer
 * coordinates; with VK_FRONT_FACE_COUNTER_CLOCKWISE only positive a is
 * front-facing, so VK_CULL_MODE_BACK_BIT discards it. */
static const float back_facing_tri[3][2] = {{8, 8}, {40, 8}, {8, 40}};

/* Inside pixel (20, 20) near its top-left corner, x + y <= 0.375 there: no
 * standard sample location (x + y >= 0.5 for all of them) is inside, so it
 * covers no sample and makes no fragment.  Its vertices are on the 1/16
 * grid, exact at the spec's minimum subPixelPrecisionBits (4: Vulkan
 * 1.4.360 limits.adoc, the Required Limits table), so the oracle decides on
 * every device. */
static const float between_samples_tri[3][2] = {{20.0625f, 20.0625f}, {20.3125f, 20.0625f},
						{20.0625f, 20.3125f}};

static double signed_area(const float (*v)[2], uint32_t n)
{
	double a = 0.0;
	for (uint32_t i = 0; i < n; i++)
		a += (double)v[i][0] * v[(i + 1) % n][1] - (double)v[(i + 1) % n][0] * v[i][1];
	return -0.5 * a;
}

static void geom_draw(struct vkqs_ctx *ctx, const struct occ *o, const struct vkqs_pipeline *p,
		      enum geom g)
{
	static const float points[3][2] = {{4.5f, 4.5f}, {33.5f, 17.5f}, {60.5f, 58.5f}};
	static const float line[2][2] = {{8, 50.5f}, {40, 50.5f}};
	switch (g) {
	case GEOM_POINTS:
		occ_prim_draw(ctx, o->cb, p, points, 3, 0.5f, 1.0f, 0);
		break;
	case GEOM_LINE:
		occ_prim_draw(ctx, o->cb, p, line, 2, 0.5f, 1.0f, 0);
		break;
	case GEOM_BACK_FACE_CULLED:
		occ_prim_draw(ctx, o->cb, p, back_facing_tri, 3, 0.5f, 1.0f, 0);
		break;
	case GEOM_TRIANGLE_BETWEEN_SAMPLES:
		occ_prim_draw(ctx, o->cb, p, between_samples_tri, 3, 0.5f, 1.0f, 0);
		break;
	default:
		occ_prim_rect(ctx, o->cb, p, clear_draw, 0.5f, 0);
		break;
	}
}

static void nonprecise_nonzero_iff_passed(struct vkqs_ctx *ctx, const void *param)
{
	enum geom g = *(const enum geom *)param;
	vkqs_require_exact_coverage(ctx);
	bool precise = vkqs_device_feature(&ctx->vk->info, "occlusionQueryPrecise");
	uint32_t samples = FIXED_SAMPLES;
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, g == GEOM_DEPTH_OCCLUDED, precise ? 2 : 1);
	VkSampleMask zero = 0;
	struct prim_desc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
	struct window w = occ_exact(occ_area(clear_draw) * samples);
	switch (g) {
	case GEOM_DEPTH_OCCLUDED: /* depth cleared to 0.0, LESS at 0.5 */
		d.depth_test = true;
		d.depth_op = VK_COMPARE_OP_LESS;
		w = occ_exact(0);
		break;
	case GEOM_SCISSORED_OUT:
		w = occ_exact(0);
		break;
	case GEOM_SAMPLE_MASK_ZERO:
		d.sample_mask = &zero;
		w = occ_exact(0);
		break;
	case GEOM_DISCARD_ALL:
		d.frag = FRAG_DISCARD_ALL;
		w = occ_exact(0);
		break;
	case GEOM_BACK_FACE_CULLED:
		d.cull = VK_CULL_MODE_BACK_BIT;
		w = signed_area(back_facing_tri, 3) > 0.0
			    ? occ_polygon_window(ctx, back_facing_tri, 3, samples, whole_fb, false)
			    : occ_exact(0);
		break;
	case GEOM_POINTS: /* size 1 at pixel centres: one pixel each */
		d.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
		w = occ_exact(3 * samples);
		break;
	case GEOM_LINE:
		d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
		w = occ_line_window(ctx, 32, 1, 1, samples);
		break;
	case GEOM_TRIANGLE_BETWEEN_SAMPLES:
		w = occ_polygon_window(ctx, between_samples_tri, 3, samples, whole_fb, false);
		break;
	case GEOM_RECT:
	default:
		break;
	}
	const struct vkqs_pipeline *pipe = occ_prim_pipeline(ctx, o.t, &d);

	vkqs_target_begin(ctx, o.cb, o.t, g == GEOM_DEPTH_OCCLUDED ? 0.0f : 1.0f);
	if (g == GEOM_SCISSORED_OUT) {
		const struct rect sc = {clear_draw.x + clear_draw.w, 0,
					FB - (clear_draw.x + clear_draw.w), FB};
		occ_set_scissor(ctx, o.cb, sc);
	}
	uint32_t q = 0;
	if (precise) {
		D->vkCmdBeginQuery(o.cb, o.pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
		geom_draw(ctx, &o, pipe, g);
		D->vkCmdEndQuery(o.cb, o.pool, q);
		q++;
	}
	D->vkCmdBeginQuery(o.cb, o.pool, q, 0);
	geom_draw(ctx, &o, pipe, g);
	D->vkCmdEndQuery(o.cb, o.pool, q);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	if (precise)
		occ_expect_window(ctx, res[0], w, geom_names[g]);
	if (w.hi == 0)
		VKQS_EXPECTF(ctx, res[q] == 0,
			     "%s: no sample passes, yet the non-precise result is %" PRIu64,
			     geom_names[g], res[q]);
	else if (w.lo > 0)
		VKQS_EXPECTF(ctx, res[q] != 0,
			     "%s: at least %" PRIu64 " samples pass, yet the non-precise result "
			     "is 0", geom_names[g], w.lo);
	else
		vkqs_harness_limit(ctx, "subPixelPrecisionBits",
				   "%s: with %u sub-pixel bits the oracle cannot tell whether "
				   "samples pass (%" PRIu64 " may)",
				   geom_names[g], ctx->vk->props.limits.subPixelPrecisionBits, w.hi);
}

static const struct vkqs_case cases[] = {
	{.name = "nonprecise.visible_nonzero",
	 .fn = nonprecise_visible,
	 .spec = "18.3: if flags does not contain VK_QUERY_CONTROL_PRECISE_BIT an "
		 "implementation may generate any non-zero result value for the query if "
		 "the count of passing samples is non-zero",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "nonprecise.nonzero_iff_samples_passed",
	 .fn = nonprecise_nonzero_iff_passed,
	 .spec = "18.3: without VK_QUERY_CONTROL_PRECISE_BIT an implementation may generate "
		 "any non-zero result value if the count of passing samples is non-zero "
		 "(non-zero exactly when samples passed)",
	 .params = VKQS_PARAMS(geom_params, geom_name)},
};

VKQS_GROUP(occlusion, nonprecise, cases);
