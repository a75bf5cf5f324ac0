/* Occlusion queries (spec 18.3): exact precise counts of known pixel
 * rectangles, points, lines and triangles, zero when nothing passes,
 * non-zero non-precise results exactly when samples passed, the
 * per-fragment tests (depth, stencil, scissor, sample mask, discard) seen
 * through the count, queries inside secondary command buffers, and clears,
 * load operations and transfers recorded inside a query.
 *
 * Why a w x h rectangle counts exactly w * h * samples (spec
 * "Rasterization", polygon rasterization and multisampling):
 * - vkqs_draw_rect places the vertices at integer pixel coordinates of a
 *   64 x 64 framebuffer.  p / 64 * 2 - 1 in the vertex shader and the
 *   viewport transform back are exact in binary floating point (dyadic
 *   values of a few bits) and integers lie on every sub-pixel grid, so the
 *   edges sit exactly on pixel boundaries.
 * - With standardSampleLocations every sample lies strictly inside its pixel
 *   (1 sample: (0.5, 0.5); 4 samples: (0.375, 0.125), (0.875, 0.375),
 *   (0.125, 0.625), (0.625, 0.875)), so no sample lies on an outer edge and a
 *   pixel's samples are all inside the rectangle or all outside.  Devices
 *   without standard locations are NotSupported for the exact cases.
 * - The two triangles share a diagonal; a sample on it is covered by exactly
 *   one of them (the shared-edge rule of polygon rasterization).
 * - "Sample Counting": "The occlusion query sample counter increments by
 *   one for each sample with a coverage value of 1 in each fragment that
 *   survives all the per-fragment tests", so a fully covered pixel adds
 *   `samples` (no sample shading, sample mask all ones).
 */
#include <math.h>
#include <stdio.h>

#include "vkutil.h"

#include "shaders/discard_odd_columns_frag.h"
#include "shaders/occlusion_color_frag.h"
#include "shaders/occlusion_discard_all_frag.h"
#include "shaders/occlusion_prims_vert.h"
#include "shaders/occlusion_samplemask_frag.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

/* Every target is FB x FB pixels. */
#define FB 64u
/* Cases that do not vary the sample count use 4: a driver that counts
 * pixels instead of samples is then off by a factor of 4, and 4 is in the
 * required framebufferColor/DepthSampleCounts (spec "Limit Requirements"). */
#define FIXED_SAMPLES VK_SAMPLE_COUNT_4_BIT
#define MAX_QUERIES 4u

struct rect {
	uint32_t x, y, w, h;
};

static uint64_t area(struct rect r)
{
	return (uint64_t)r.w * r.h;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static struct rect intersect(struct rect a, struct rect b)
{
	uint32_t x0 = max_u32(a.x, b.x), y0 = max_u32(a.y, b.y);
	uint32_t x1 = min_u32(a.x + a.w, b.x + b.w), y1 = min_u32(a.y + a.h, b.y + b.h);
	struct rect r = {x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
	return r;
}

/* One submission: a target, a pool whose queries are reset at the start of
 * the command buffer (18.2: reset before use, outside a render pass). */
struct occ {
	struct vkqs_target *t;
	VkQueryPool pool;
	VkCommandBuffer cb;
	uint32_t queries;
};

/* On a target made by the caller (vkqs_target_create, stencil_target). */
static struct occ occ_begin_on(struct vkqs_ctx *ctx, struct vkqs_target *t,
			       uint32_t queries)
{
	struct occ o;
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	o.t = t;
	o.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, queries, 0);
	o.queries = queries;
	o.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(o.cb, o.pool, 0, queries);
	return o;
}

static struct occ occ_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples,
			    bool depth, uint32_t queries)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	return occ_begin_on(ctx, vkqs_target_create(ctx, FB, FB, samples, depth), queries);
}

/* Submits, waits for the fence, reads every query with 64_BIT | WAIT. */
static void occ_finish(struct vkqs_ctx *ctx, const struct occ *o,
		       uint64_t out[MAX_QUERIES])
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o->cb);
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, o->pool, 0, o->queries,
						o->queries * sizeof(uint64_t), out,
						sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT |
							VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

static void draw(struct vkqs_ctx *ctx, const struct occ *o,
		 const struct vkqs_pipeline *p, struct rect r, float z)
{
	vkqs_draw_rect(ctx, o->cb, p, o->t, (float)r.x, (float)r.y,
		       (float)(r.x + r.w), (float)(r.y + r.h), z);
}

/* Query `query` around one draw, inside the current subpass. */
static void query_draw(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
		       VkQueryControlFlags flags, const struct vkqs_pipeline *p,
		       struct rect r, float z)
{
	D->vkCmdBeginQuery(o->cb, o->pool, query, flags);
	draw(ctx, o, p, r, z);
	D->vkCmdEndQuery(o->cb, o->pool, query);
}

/* One render pass instance holding query 0 around one draw of r (clipped
 * by scissor when given); returns the query's result. */
static uint64_t measure_rect(struct vkqs_ctx *ctx, const struct occ *o,
			     const struct vkqs_pipeline *p, struct rect r,
			     const struct rect *scissor, VkQueryControlFlags flags)
{
	vkqs_target_begin(ctx, o->cb, o->t, 1.0f);
	if (scissor) {
		VkRect2D s = {{(int32_t)scissor->x, (int32_t)scissor->y},
			      {scissor->w, scissor->h}};
		D->vkCmdSetScissor(o->cb, 0, 1, &s);
	}
	query_draw(ctx, o, 0, flags, p, r, 0.5f);
	vkqs_target_end(ctx, o->cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, o, res);
	return res[0];
}

static const struct vkqs_pipeline *plain_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o)
{
	struct vkqs_pipeline_desc desc = {0};
	return vkqs_pipeline_rect(ctx, o->t, &desc);
}

static const struct vkqs_pipeline *depth_pipeline(struct vkqs_ctx *ctx,
						  const struct occ *o,
						  VkCompareOp op, bool write)
{
	struct vkqs_pipeline_desc desc = {
		.depth_test = true,
		.depth_write = write,
		.depth_compare = op,
	};
	return vkqs_pipeline_rect(ctx, o->t, &desc);
}

/* The control flag of a precise query; NotSupported without the feature
 * (vkCmdBeginQuery valid usage forbids the bit without occlusionQueryPrecise). */
static VkQueryControlFlags require_precise(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	return VK_QUERY_CONTROL_PRECISE_BIT;
}


/* 18.2: "Rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits may count towards the results of
 * queries.  This behavior is implementation-dependent."  Such work can only
 * add passing samples, so a precise result is at least the draws' exact
 * count; more is legal but not portable. */
static void expect_draws_plus_clears(struct vkqs_ctx *ctx, uint64_t got,
				     uint64_t draws, const char *extra)
{
	if (VKQS_EXPECT_GE(ctx, got, draws) && got > draws)
		vkqs_compat_warning(ctx,
				    "precise result %" PRIu64 " exceeds the draws' exact count %" PRIu64
				    " by %" PRIu64 ": %s counted towards the query "
				    "(implementation-dependent per 18.2, not portable)",
				    got, draws, got - draws, extra);
}

/* Parameters ------------------------------------------------------------- */

static const VkSampleCountFlagBits sample_params[] = {
	VK_SAMPLE_COUNT_1_BIT,
	VK_SAMPLE_COUNT_4_BIT,
};

static void samples_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "samples_%u", (unsigned)*(const VkSampleCountFlagBits *)param);
}

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

/* precise ----------------------------------------------------------------- */

static void precise_rect(struct vkqs_ctx *ctx, const void *param)
{
	const struct rect_param *p = param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	uint64_t got = measure_rect(ctx, &o, plain_pipeline(ctx, &o), p->r, NULL, flags);
	VKQS_EXPECT_EQ(ctx, got, area(p->r) * p->samples);
}

/* Sample Counting is per fragment: where two draws overlap without a depth
 * test, both fragments pass and each sample counts twice.  A driver that
 * counts covered pixels (or samples written once) reports the union. */
static void precise_overlapping_draws(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect a = {8, 8, 24, 16}, b = {16, 12, 24, 16};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	draw(ctx, &o, pipe, a, 0.5f);
	draw(ctx, &o, pipe, b, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], (area(a) + area(b)) * FIXED_SAMPLES);
}

/* 18.3: "When an occlusion query begins, the count of passing samples always
 * starts at zero."  Back-to-back queries in one subpass each see only their
 * own draw, and one that contains no draw is 0. */
static void precise_sequential_queries(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 3);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect a = {2, 2, 10, 6}, b = {20, 30, 32, 20};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	query_draw(ctx, &o, 0, flags, pipe, a, 0.5f);
	query_draw(ctx, &o, 1, flags, pipe, b, 0.5f);
	D->vkCmdBeginQuery(o.cb, o.pool, 2, flags);
	D->vkCmdEndQuery(o.cb, o.pool, 2);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], area(a) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[1], area(b) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[2], 0);
}

/* 18.2: a query may "both begin and end outside of a render pass instance
 * (i.e. contain entire render pass instances)"; it sums the draws of both
 * instances.  The instances' CLEAR load ops may add (18.2, clears and
 * attachment load/store operations), so the draws are a lower bound. */
static void precise_spans_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect a = {4, 40, 20, 12}, b = {30, 6, 12, 28};

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	draw(ctx, &o, pipe, a, 0.5f);
	vkqs_target_end(ctx, o.cb);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	draw(ctx, &o, pipe, b, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], (area(a) + area(b)) * FIXED_SAMPLES,
				 "the render pass instances' attachment load/store operations");
}

/* depth -------------------------------------------------------------------- */

/* Depth cleared to 0.0, test LESS, draw at 0.5: no sample passes, so even a
 * non-precise query must be 0 (18.3 allows "any non-zero result value" only
 * "if the count of passing samples is non-zero").  A control query draws
 * the same rectangle with GREATER, so the zero is known to come from the
 * depth test and not from a draw that never ran. */
static void depth_fully_occluded(struct vkqs_ctx *ctx, const void *param)
{
	const struct depth_param *p = param;
	VkQueryControlFlags flags = p->precise ? require_precise(ctx) : 0;
	struct occ o = occ_begin(ctx, p->samples, true, 2);
	const struct vkqs_pipeline *less = depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	const struct vkqs_pipeline *greater =
		depth_pipeline(ctx, &o, VK_COMPARE_OP_GREATER, false);
	const struct rect r = {8, 8, 48, 48};

	vkqs_target_begin(ctx, o.cb, o.t, 0.0f);
	query_draw(ctx, &o, 0, flags, less, r, 0.5f);
	query_draw(ctx, &o, 1, flags, greater, r, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	/* The control is exact only when precise and with samples known to lie
	 * inside pixels; otherwise any non-zero value is legal (18.3). */
	if (p->precise && ctx->vk->props.limits.standardSampleLocations)
		VKQS_EXPECT_EQ(ctx, res[1], area(r) * p->samples);
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
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, true, 1);
	const struct vkqs_pipeline *occluder =
		depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, true);
	const struct vkqs_pipeline *measured =
		depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	const struct rect occ_r = {20, 10, 24, 20}, m = {8, 16, 32, 24};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	draw(ctx, &o, occluder, occ_r, 0.25f);
	query_draw(ctx, &o, 0, flags, measured, m, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint64_t visible = area(m) - area(intersect(m, occ_r));
	VKQS_EXPECT_EQ(ctx, res[0], visible * samples);
}

/* nonprecise --------------------------------------------------------------- */

/* A 4 x 4 rectangle: its inner 2 x 2 pixels lie strictly inside it, so
 * their samples pass wherever the device puts them in the pixel (no need
 * for standard locations); a count > 0 makes a zero result wrong. */
static void nonprecise_visible(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct rect r = {30, 30, 4, 4};
	uint64_t got = measure_rect(ctx, &o, plain_pipeline(ctx, &o), r, NULL, 0);
	VKQS_EXPECT_GT(ctx, got, 0);
}

/* scissor ------------------------------------------------------------------ */

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
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct rect r = {8, 8, 32, 32}, sc = {20, 12, 24, 10};
	uint64_t got = measure_rect(ctx, &o, plain_pipeline(ctx, &o), r, &sc, flags);
	VKQS_EXPECT_EQ(ctx, got, area(intersect(r, sc)) * samples);
}

/* discard ------------------------------------------------------------------ */

/* discard_odd_columns.frag kills every fragment of an odd column; a killed
 * fragment takes all its samples with it (no sample shading: gl_FragCoord
 * is the pixel centre), so an even-x, even-width rectangle keeps half. */
static void discard_odd_columns(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	struct vkqs_pipeline_desc desc = {
		.frag_spv = discard_odd_columns_frag,
		.frag_size = sizeof(discard_odd_columns_frag),
	};
	const struct rect r = {6, 10, 32, 20};
	uint64_t got = measure_rect(ctx, &o, vkqs_pipeline_rect(ctx, o.t, &desc), r, NULL,
				    flags);
	VKQS_EXPECT_EQ(ctx, got, (uint64_t)(r.w / 2) * r.h * samples);
}

/* clear -------------------------------------------------------------------- */

static const VkClearRect whole_target = {{{0, 0}, {FB, FB}}, 0, 1};

/* Measured draw of the clear cases. */
static const struct rect clear_draw = {12, 20, 28, 14};

static void clear_color_attachment(struct vkqs_ctx *ctx, const struct occ *o)
{
	VkClearAttachment ca = {
		.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
		.colorAttachment = 0,
		.clearValue = {.color = {.float32 = {0.0f, 1.0f, 0.0f, 1.0f}}},
	};
	D->vkCmdClearAttachments(o->cb, 1, &ca, 1, &whole_target);
}

static void clear_attachments_inside_render_pass(struct vkqs_ctx *ctx,
						 const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	clear_color_attachment(ctx, &o);
	draw(ctx, &o, pipe, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], area(clear_draw) * FIXED_SAMPLES,
				 "vkCmdClearAttachments (color)");
}

/* The render pass clears depth to 0.0, so the LESS draw at 0.5 passes only
 * because vkCmdClearAttachments set depth to 1.0 first: the clear executes
 * in rasterization order before the draw (spec "Clearing Images Inside a
 * Render Pass Instance"), and a clear that was dropped yields 0. */
static void clear_attachments_depth_inside_render_pass(struct vkqs_ctx *ctx,
						       const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, true, 1);
	const struct vkqs_pipeline *less = depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	VkClearAttachment ca = {
		.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT,
		.clearValue = {.depthStencil = {1.0f, 0}},
	};

	vkqs_target_begin(ctx, o.cb, o.t, 0.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	D->vkCmdClearAttachments(o.cb, 1, &ca, 1, &whole_target);
	draw(ctx, &o, less, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], area(clear_draw) * FIXED_SAMPLES,
				 "vkCmdClearAttachments (depth)");
}

/* vkCmdClear{Color,DepthStencil}Image valid usage: the image's format
 * features must contain TRANSFER_DST (optimal tiling). */
static void require_transfer_dst(struct vkqs_ctx *ctx, VkFormat f)
{
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, f, &fp);
	if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT))
		vkqs_skip(ctx, "format %d lacks VK_FORMAT_FEATURE_TRANSFER_DST_BIT "
			       "(optimal tiling)", (int)f);
}

/* The target's images start each submission UNDEFINED (the render pass
 * only ever reads them after its own CLEAR load op), so their contents may
 * be discarded; the render pass's external dependency (all commands, memory
 * writes) orders the clear before the instance. */
static void to_transfer_dst(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkImage img,
			    VkImageAspectFlags aspect)
{
	vkqs_cmd_image_barrier(ctx, cb, img, aspect, 1, VK_IMAGE_LAYOUT_UNDEFINED,
			       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
			       VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
			       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* A query begun outside any render pass instance contains a transfer clear
 * of an attachment image and then the instance that draws (18.2 allows a
 * query to contain entire render pass instances).  The clear, and the
 * instance's CLEAR load op, may add; the draw is the lower bound. */
static void clear_image_outside_render_pass(struct vkqs_ctx *ctx, bool depth)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	require_transfer_dst(ctx, depth ? ctx->vk->depth_format : VK_FORMAT_R8G8B8A8_UNORM);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, depth, 1);
	const struct vkqs_pipeline *pipe =
		depth ? depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false)
		      : plain_pipeline(ctx, &o);

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	if (depth) {
		VkImageAspectFlags aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
		/* Without separateDepthStencilLayouts a combined format's
		 * layout transition must name both aspects (VkImageMemoryBarrier
		 * valid usage). */
		if (vkqs_format_has_stencil(o.t->depth_format))
			aspect |= VK_IMAGE_ASPECT_STENCIL_BIT;
		VkImageSubresourceRange range = {aspect, 0, 1, 0, 1};
		VkClearDepthStencilValue v = {1.0f, 0};
		to_transfer_dst(ctx, o.cb, o.t->depth, aspect);
		D->vkCmdClearDepthStencilImage(o.cb, o.t->depth,
					       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1,
					       &range);
	} else {
		VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		VkClearColorValue v = {.float32 = {0.0f, 1.0f, 0.0f, 1.0f}};
		to_transfer_dst(ctx, o.cb, o.t->color, VK_IMAGE_ASPECT_COLOR_BIT);
		D->vkCmdClearColorImage(o.cb, o.t->color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
					&v, 1, &range);
	}
	/* Depth 1.0 at the load op: the LESS draw at 0.5 passes everywhere. */
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], area(clear_draw) * FIXED_SAMPLES,
				 depth ? "vkCmdClearDepthStencilImage or the render pass "
					 "instance's load/store operations"
				       : "vkCmdClearColorImage or the render pass "
					 "instance's load/store operations");
}

static void clear_color_image_outside_render_pass(struct vkqs_ctx *ctx,
						  const void *param)
{
	clear_image_outside_render_pass(ctx, false);
}

static void clear_depth_stencil_image_outside_render_pass(struct vkqs_ctx *ctx,
							  const void *param)
{
	clear_image_outside_render_pass(ctx, true);
}

/* Query 0 holds only a full-target vkCmdClearAttachments: 0 is the portable
 * result, more is the implementation-dependent counting of 18.2.  Query 1,
 * right after it in the same subpass, holds only a draw and must be exact:
 * the clear does not leak into the next query (18.3: each query starts at
 * zero). */
static void clear_attachments_only(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 2);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	clear_color_attachment(ctx, &o);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	query_draw(ctx, &o, 1, flags, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], 0, "vkCmdClearAttachments (color, no draw)");
	VKQS_EXPECT_EQ(ctx, res[1], area(clear_draw) * FIXED_SAMPLES);
}

/* ========================================================================
 * Own objects: pipelines for points, lines and triangles with stencil,
 * sample masks and culling; render targets with a stencil aspect.
 * Everything is destroyed at case end.
 * ======================================================================== */

/* The push block of occlusion_prims.vert (bytes 0..39) followed by that of
 * occlusion_samplemask.frag (byte 48); one range serves both stages. */
struct prim_push {
	float v01[4];      /* v0.xy, v1.xy in framebuffer pixels */
	float v2_fb[4];    /* v2.xy, framebuffer width, height */
	float z, point_size;
	float pad0[2];
	uint32_t mask;     /* the SampleMask output */
	uint32_t pad1[3];
};
_Static_assert(sizeof(struct prim_push) == 64, "occlusion_prims.vert push block");

enum frag_kind {
	FRAG_COLOR,
	FRAG_SAMPLE_MASK,          /* writes SampleMask = prim_push.mask */
	FRAG_DISCARD_ALL,
	FRAG_DISCARD_ODD_COLUMNS,
};

struct prim_desc {
	VkPrimitiveTopology topology;
	float line_width;                 /* 0: 1.0 */
	enum frag_kind frag;
	const VkSampleMask *sample_mask;  /* NULL: all ones */
	VkCullModeFlags cull;             /* front face: counter-clockwise */
	bool depth_test, depth_write;
	VkCompareOp depth_op;
	bool stencil_test;
	VkStencilOpState stencil;         /* both faces */
};

/* A pipeline of occlusion_prims.vert on target t's render pass (subpass 0,
 * t's sample count); viewport and scissor are dynamic. */
static const struct vkqs_pipeline *prim_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t,
						 const struct prim_desc *d)
{
	struct vkqs_pipeline_desc pd = {
		.set_topology = true,
		.topology = d->topology,
		.vert_spv = occlusion_prims_vert,
		.vert_size = sizeof(occlusion_prims_vert),
		.push_size = sizeof(struct prim_push),
		.push_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
		.line_width = d->line_width,
		.cull_mode = d->cull,
		.sample_mask = d->sample_mask,
		.depth_test = d->depth_test,
		.depth_write = d->depth_write,
		.depth_compare = d->depth_op,
		.stencil_test = d->stencil_test,
		.stencil = d->stencil,
	};
	switch (d->frag) {
	case FRAG_SAMPLE_MASK:
		pd.frag_spv = occlusion_samplemask_frag;
		pd.frag_size = sizeof(occlusion_samplemask_frag);
		break;
	case FRAG_DISCARD_ALL:
		pd.frag_spv = occlusion_discard_all_frag;
		pd.frag_size = sizeof(occlusion_discard_all_frag);
		break;
	case FRAG_DISCARD_ODD_COLUMNS:
		pd.frag_spv = discard_odd_columns_frag;
		pd.frag_size = sizeof(discard_odd_columns_frag);
		break;
	case FRAG_COLOR:
	default:
		pd.frag_spv = occlusion_color_frag;
		pd.frag_size = sizeof(occlusion_color_frag);
		break;
	}
	return vkqs_pipeline_rect(ctx, t, &pd);
}

static const struct vkqs_pipeline *prim_pipeline_simple(struct vkqs_ctx *ctx,
							const struct vkqs_target *t,
							VkPrimitiveTopology topology)
{
	struct prim_desc d = {.topology = topology};
	return prim_pipeline(ctx, t, &d);
}

/* One draw of `count` (1..3) vertices v[] (framebuffer pixels) at depth z:
 * up to three points, one line, a two-segment strip or one triangle. */
static void prim_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      const float (*v)[2], uint32_t count, float z, float point_size,
		      uint32_t mask)
{
	struct prim_push pc = {{0}};
	const float *v1 = v[count > 1 ? 1 : 0], *v2 = v[count > 2 ? 2 : 0];
	pc.v01[0] = v[0][0];
	pc.v01[1] = v[0][1];
	pc.v01[2] = v1[0];
	pc.v01[3] = v1[1];
	pc.v2_fb[0] = v2[0];
	pc.v2_fb[1] = v2[1];
	pc.v2_fb[2] = (float)FB;
	pc.v2_fb[3] = (float)FB;
	pc.z = z;
	pc.point_size = point_size;
	pc.mask = mask;
	D->vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
	D->vkCmdPushConstants(cb, p->layout,
			      VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
			      sizeof(pc), &pc);
	D->vkCmdDraw(cb, count, 1, 0, 0);
}

/* The rectangle r as the two triangles of vkqs_draw_rect (same shared
 * diagonal), through a prim_pipeline. */
static void prim_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      struct rect r, float z, uint32_t mask)
{
	float x0 = (float)r.x, y0 = (float)r.y, x1 = (float)(r.x + r.w), y1 = (float)(r.y + r.h);
	const float a[3][2] = {{x0, y0}, {x1, y0}, {x0, y1}};
	const float b[3][2] = {{x1, y0}, {x1, y1}, {x0, y1}};
	prim_draw(ctx, cb, p, a, 3, z, 1.0f, mask);
	prim_draw(ctx, cb, p, b, 3, z, 1.0f, mask);
}

/* Query `query` around prim_rect of r at depth 0.5, inside the current
 * subpass. */
static void query_prim_rect(struct vkqs_ctx *ctx, const struct occ *o, uint32_t query,
			    VkQueryControlFlags flags, const struct vkqs_pipeline *p,
			    struct rect r)
{
	D->vkCmdBeginQuery(o->cb, o->pool, query, flags);
	prim_rect(ctx, o->cb, p, r, 0.5f, 0);
	D->vkCmdEndQuery(o->cb, o->pool, query);
}

static void set_scissor(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct rect r)
{
	VkRect2D s = {{(int32_t)r.x, (int32_t)r.y}, {r.w, r.h}};
	D->vkCmdSetScissor(cb, 0, 1, &s);
}

/* A depth/stencil format with a stencil aspect usable as a depth/stencil
 * attachment at `samples` (optimal tiling), or NotSupported. */
static VkFormat stencil_format(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	static const VkFormat cands[] = {VK_FORMAT_D24_UNORM_S8_UINT,
					 VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_S8_UINT,
					 VK_FORMAT_D16_UNORM_S8_UINT};
	for (size_t i = 0; i < VKQS_ARRAY_LEN(cands); i++) {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, cands[i], &fp);
		if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
			continue;
		VkImageFormatProperties ifp;
		if (vkGetPhysicalDeviceImageFormatProperties(
			    ctx->vk->phys, cands[i], VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
			    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &ifp) == VK_SUCCESS &&
		    (ifp.sampleCounts & samples))
			return cands[i];
	}
	vkqs_skip(ctx, "none of D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, S8_UINT, "
		       "D16_UNORM_S8_UINT is a depth/stencil attachment at %u samples "
		       "(optimal tiling)", (unsigned)samples);
}

/* A FB x FB colour + depth/stencil target whose depth/stencil format has a
 * stencil aspect; both aspects are cleared by the load op
 * (vkqs_target_begin_ex). */
static struct vkqs_target *stencil_target(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	const VkPhysicalDeviceLimits *lim = &ctx->vk->props.limits;
	if (!(lim->framebufferColorSampleCounts & samples))
		vkqs_skip(ctx, "framebufferColorSampleCounts lacks %u samples", (unsigned)samples);
	if (!(lim->framebufferStencilSampleCounts & samples))
		vkqs_skip(ctx, "framebufferStencilSampleCounts lacks %u samples",
			  (unsigned)samples);
	VkFormat ds = stencil_format(ctx, samples);
	bool has_depth_aspect = ds != VK_FORMAT_S8_UINT;
	if (has_depth_aspect && !(lim->framebufferDepthSampleCounts & samples))
		vkqs_skip(ctx, "framebufferDepthSampleCounts lacks %u samples", (unsigned)samples);

	struct vkqs_target *t = vkqs_alloc(ctx, sizeof(*t));
	t->width = FB;
	t->height = FB;
	t->samples = samples;
	t->has_depth = true;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	t->depth_format = ds;
	t->color = vkqs_image_create(ctx, t->color_format, FB, FB, 1, samples,
				     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
	t->color_view = vkqs_image_view(ctx, t->color, VK_IMAGE_VIEW_TYPE_2D, t->color_format,
					VK_IMAGE_ASPECT_COLOR_BIT, 1);
	t->depth = vkqs_image_create(ctx, ds, FB, FB, 1, samples,
				     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
	t->depth_view = vkqs_image_view(ctx, t->depth, VK_IMAGE_VIEW_TYPE_2D, ds,
					has_depth_aspect ? VK_IMAGE_ASPECT_DEPTH_BIT |
								   VK_IMAGE_ASPECT_STENCIL_BIT
							 : VK_IMAGE_ASPECT_STENCIL_BIT,
					1);
	VkAttachmentDescription att[2] = {
		vkqs_attachment_desc(t->color_format, samples, false),
		{
			.format = ds,
			.samples = samples,
			.loadOp = has_depth_aspect ? VK_ATTACHMENT_LOAD_OP_CLEAR
						   : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
			.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
			.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
			.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
		},
	};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 1,
		.pColorAttachments = &cref,
		.pDepthStencilAttachment = &dref,
	};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 2,
		.pAttachments = att,
		.subpassCount = 1,
		.pSubpasses = &sub,
	};
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &t->render_pass));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, t->render_pass);
	VkImageView views[2] = {t->color_view, t->depth_view};
	t->framebuffer = vkqs_framebuffer_create(ctx, t->render_pass, views, 2, FB, FB);
	return t;
}

/* A secondary command buffer begun to continue subpass 0 of t's render
 * pass, with viewport and scissor set (a secondary inherits no state). */
static VkCommandBuffer secondary_begin(struct vkqs_ctx *ctx, const struct vkqs_target *t,
				       VkBool32 occlusion_query_enable,
				       VkQueryControlFlags query_flags)
{
	VkCommandBufferInheritanceInfo inh = {
		.occlusionQueryEnable = occlusion_query_enable,
		.queryFlags = query_flags,
	};
	return vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, t,
					VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, &inh);
}

/* ========================================================================
 * The coverage oracle: which samples a polygon covers, by the spec's rule.
 *
 * Spec "Basic Polygon Rasterization": "Fragments are produced for any
 * fragment area groups of pixels for which any sample points lie inside of
 * this polygon.  Coverage bits that correspond to sample points that
 * satisfy the point sampling criteria are 1"; a sample exactly on an edge
 * shared by two polygons is covered by exactly one of them.  The polygon is
 * the one of the vertices' framebuffer coordinates, which the device holds
 * with limits.subPixelPrecisionBits ("the number of bits of subpixel
 * precision in framebuffer coordinates xf and yf").  So the test evaluates
 * the edge functions E(P) = cross(B - A, P - A) at every standard sample
 * location P and allows for how far the device's vertices may lie from
 * the ones it computes:
 *
 * - a vertex coordinate that is a multiple of 2^-subPixelPrecisionBits
 *   (and has few bits, as all of ours do) goes through occlusion_prims.vert
 *   (p / 64 * 2 - 1) and the viewport transform back without rounding and
 *   is on the sub-pixel grid: that vertex is exact (r = 0);
 * - any other vertex may move by up to 2^-bits per coordinate when snapped
 *   (rounding or truncation), plus the float rounding of those few
 *   operations on values below 64 (at most 4 * 64 * 2^-24 = 2^-16 px), so
 *   by r = sqrt(2) * (2^-bits + 2^-16) in distance.
 *
 * With A and B moved by at most rA and rB, |E'(P) - E(P)| <= |B - A| rA +
 * (rA + rB) |P - A| + (rA + rB) rA (expand cross(B' - A', P - A')).  A
 * sample whose E is beyond that bound on the outside of some edge is
 * certainly not covered; one beyond it on the inside of every edge is
 * certainly covered; any other (including one exactly on an edge of an
 * exact polygon, which the tie rule may give either way) is ambiguous.  A
 * precise count must lie in [certain, certain + ambiguous].
 * ======================================================================== */

/* Spec "Multisampling", standard sample locations (offsets in the pixel). */
static const double std_locations_1[1][2] = {{0.5, 0.5}};
static const double std_locations_4[4][2] = {
	{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};

/* A count known to lie in [lo, hi]. */
struct window {
	uint64_t lo, hi;
};

static struct window exact(uint64_t n)
{
	struct window w = {n, n};
	return w;
}

/* How far a vertex may lie from (x, y), see above. */
static double vertex_slack(const struct vkqs_ctx *ctx, float x, float y)
{
	double grid = ldexp(1.0, (int)ctx->vk->props.limits.subPixelPrecisionBits);
	double sx = (double)x * grid, sy = (double)y * grid;
	if (sx == floor(sx) && sy == floor(sy))
		return 0.0;
	return sqrt(2.0) * (1.0 / grid + ldexp(1.0, -16));
}

/* The samples of the pixels in `clip` (and only the even columns when
 * even_columns) covered by the convex polygon v[0..n). */
static struct window polygon_window(const struct vkqs_ctx *ctx, const float (*v)[2], uint32_t n,
				    uint32_t samples, struct rect clip, bool even_columns)
{
	const double(*loc)[2] = samples == 4 ? std_locations_4 : std_locations_1;
	double slack[8], area2 = 0.0;
	for (uint32_t i = 0; i < n; i++) {
		const float *a = v[i], *b = v[(i + 1) % n];
		slack[i] = vertex_slack(ctx, a[0], a[1]);
		area2 += (double)a[0] * b[1] - (double)b[0] * a[1];
	}
	double orient = area2 > 0.0 ? 1.0 : -1.0; /* inside: orient * E > 0 */
	struct window w = {0, 0};
	for (uint32_t py = clip.y; py < clip.y + clip.h; py++) {
		for (uint32_t px = clip.x; px < clip.x + clip.w; px++) {
			if (even_columns && (px & 1))
				continue;
			for (uint32_t s = 0; s < samples; s++) {
				double x = px + loc[s][0], y = py + loc[s][1];
				bool out = false, in = true;
				for (uint32_t i = 0; i < n; i++) {
					uint32_t j = (i + 1) % n;
					double ax = v[i][0], ay = v[i][1], bx = v[j][0], by = v[j][1];
					double e = orient * ((bx - ax) * (y - ay) - (by - ay) * (x - ax));
					double ra = slack[i], rb = slack[j];
					double bound = hypot(bx - ax, by - ay) * ra +
						       (ra + rb) * hypot(x - ax, y - ay) + (ra + rb) * ra;
					if (e < -bound)
						out = true;
					if (!(e > bound))
						in = false;
				}
				if (out)
					continue;
				w.hi++;
				if (in)
					w.lo++;
			}
		}
	}
	return w;
}

static const struct rect whole_fb = {0, 0, FB, FB};

static bool expect_window(struct vkqs_ctx *ctx, uint64_t got, struct window w,
			  const char *what)
{
	if (w.lo == w.hi)
		return VKQS_EXPECTF(ctx, got == w.lo,
				    "%s: precise result %" PRIu64 ", expected exactly %" PRIu64,
				    what, got, w.lo);
	return VKQS_EXPECTF(ctx, got >= w.lo && got <= w.hi,
			    "%s: precise result %" PRIu64 " outside [%" PRIu64 ", %" PRIu64
			    "] (samples certainly covered, plus those within the sub-pixel "
			    "tolerance of an edge)", what, got, w.lo, w.hi);
}

/* point -------------------------------------------------------------------- */

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
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	require_point_size(ctx, (float)p->size);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe =
		prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
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
		prim_draw(ctx, o.cb, pipe, edges, 2, 0.5f, (float)p->size, 0);
	else
		prim_draw(ctx, o.cb, pipe, inside, 3, 0.5f, (float)p->size, 0);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], pixels * p->samples);
}

/* line --------------------------------------------------------------------- */

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

/* The count of `segments` segments of total length `len` pixels and width
 * `rows`, as argued above. */
static struct window line_window(const struct vkqs_ctx *ctx, uint64_t len, uint64_t rows,
				 uint64_t segments, uint32_t samples)
{
	struct window w = exact(len * rows * samples);
	if (!ctx->vk->props.limits.strictLines) {
		w.lo -= segments * rows * samples;
		w.hi += segments * rows * samples;
	}
	return w;
}

static void line_segment(struct vkqs_ctx *ctx, const void *param)
{
	const struct line_param *p = param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	float width = p->kind == LINE_WIDE_3 ? 3.0f : 1.0f;
	require_line_width(ctx, width);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	struct prim_desc d = {
		.topology = p->kind == LINE_STRIP ? VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
						  : VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
		.line_width = width,
	};
	const struct vkqs_pipeline *pipe = prim_pipeline(ctx, o.t, &d);
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
	prim_draw(ctx, o.cb, pipe, (const float(*)[2])v, count, 0.5f, 1.0f, 0);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0],
		      line_window(ctx, len, (uint64_t)width, segments, p->samples),
		      ctx->vk->props.limits.strictLines
			      ? "strict line (rectangle)"
			      : "non-strict line (parallelogram, or Bresenham within one fragment "
				"per segment)");
}

/* triangle ----------------------------------------------------------------- */

enum shape { SHAPE_SLANTED, SHAPE_SLIVER, SHAPE_FAN, SHAPE_SAMPLE_STRIPS };
static const char *const shape_names[] = {"slanted", "sliver", "fan_shared_edges",
					  "sample_strips"};

static const float slanted_tri[3][2] = {{6.3f, 10.7f}, {57.9f, 20.2f}, {21.6f, 55.4f}};
/* About 80 px long and 2 px wide: most samples lie near an edge. */
static const float sliver_tri[3][2] = {{3.2f, 60.1f}, {61.7f, 4.9f}, {62.4f, 7.3f}};
/* Eight triangles fanned from C = (32.5, 32.25) to consecutive points of
 * the boundary of [8, 56] x [8.25, 56.25].  Every vertex is on the 1/4
 * pixel grid (exact), no sample lies on the outer edges, so the union's
 * count is exact.  The inner edges carry samples: those to (32.5, 8.25)
 * and (32.5, 56.25) run along x = 32.5 through pixel centres, those to
 * (24.5, 8.25) and (40.5, 56.25) run along (1, 3) through the standard
 * location (0.875, 0.375) of a pixel every step; C is no sample location.
 * Each such sample is on an edge shared by two triangles "with identical
 * endpoints" and must be covered by exactly one of them. */
static const float fan_center[2] = {32.5f, 32.25f};
static const float fan_ring[8][2] = {
	{8, 8.25f},     {24.5f, 8.25f},  {32.5f, 8.25f}, {56, 8.25f},
	{56, 56.25f},   {40.5f, 56.25f}, {32.5f, 56.25f}, {8, 56.25f},
};
static const float fan_hull[4][2] = {{8, 8.25f}, {56, 8.25f}, {56, 56.25f}, {8, 56.25f}};
/* Four thin quadrilaterals on the 1/16 pixel grid (exact at the minimum
 * subPixelPrecisionBits of 4), each between standard sample locations so
 * that it holds one kind of sample only: [8, 56] x [10.25, 10.4375] the
 * row y = 0.375 (sample 1 of 4), [8, 56] x [12.5625, 12.6875] the row
 * y = 0.625 (sample 2), [30.8125, 30.9375] x [16, 48] the column x = 0.875
 * (sample 1), and the band -39.9375 <= x - 2y <= -39.8125 for 20 <= y <= 50
 * the samples with x - 2y = 0.125 (mod 1), samples 0 and 1 of one pixel per
 * row (the transposed pattern has none there).  No pixel centre is inside:
 * 0 at 1 sample, 48 + 48 + 32 + 60 at 4; a device sampling elsewhere than
 * the standard locations differs. */
static const float strips[4][4][2] = {
	{{8, 10.25f}, {56, 10.25f}, {56, 10.4375f}, {8, 10.4375f}},
	{{8, 12.5625f}, {56, 12.5625f}, {56, 12.6875f}, {8, 12.6875f}},
	{{30.8125f, 16}, {30.9375f, 16}, {30.9375f, 48}, {30.8125f, 48}},
	{{0.0625f, 20}, {0.1875f, 20}, {60.1875f, 50}, {60.0625f, 50}},
};

/* Draws shape s with pipeline p; returns its samples' window within the
 * pixels of `clip` (even columns only when even_columns). */
static struct window shape_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb,
				const struct vkqs_pipeline *p, enum shape s, float z,
				uint32_t samples, struct rect clip, bool even_columns)
{
	switch (s) {
	case SHAPE_FAN:
		for (uint32_t i = 0; i < 8; i++) {
			const float t[3][2] = {{fan_center[0], fan_center[1]},
					       {fan_ring[i][0], fan_ring[i][1]},
					       {fan_ring[(i + 1) % 8][0], fan_ring[(i + 1) % 8][1]}};
			prim_draw(ctx, cb, p, t, 3, z, 1.0f, 0);
		}
		return polygon_window(ctx, fan_hull, 4, samples, clip, even_columns);
	case SHAPE_SAMPLE_STRIPS: {
		struct window w = {0, 0};
		for (uint32_t i = 0; i < 4; i++) {
			const float(*q)[2] = strips[i];
			const float a[3][2] = {{q[0][0], q[0][1]}, {q[1][0], q[1][1]}, {q[3][0], q[3][1]}};
			const float b[3][2] = {{q[1][0], q[1][1]}, {q[2][0], q[2][1]}, {q[3][0], q[3][1]}};
			prim_draw(ctx, cb, p, a, 3, z, 1.0f, 0);
			prim_draw(ctx, cb, p, b, 3, z, 1.0f, 0);
			struct window one = polygon_window(ctx, q, 4, samples, clip, even_columns);
			w.lo += one.lo;
			w.hi += one.hi;
		}
		return w;
	}
	case SHAPE_SLIVER:
		prim_draw(ctx, cb, p, sliver_tri, 3, z, 1.0f, 0);
		return polygon_window(ctx, sliver_tri, 3, samples, clip, even_columns);
	case SHAPE_SLANTED:
	default:
		prim_draw(ctx, cb, p, slanted_tri, 3, z, 1.0f, 0);
		return polygon_window(ctx, slanted_tri, 3, samples, clip, even_columns);
	}
}

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
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe =
		prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = shape_draw(ctx, o.cb, pipe, p->shape, 0.5f, p->samples, whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);
	if ((p->shape == SHAPE_FAN || p->shape == SHAPE_SAMPLE_STRIPS) && w.lo != w.hi)
		vkqs_internal_error(ctx, "%s: exact vertices, yet %" PRIu64 " ambiguous samples",
				    shape_names[p->shape], w.hi - w.lo);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0], w, shape_names[p->shape]);
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
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, true, 3);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.depth_test = true,
		.depth_write = true,
		.depth_op = VK_COMPARE_OP_LESS,
	};
	const struct vkqs_pipeline *occluder = prim_pipeline(ctx, o.t, &d);
	d.depth_write = false;
	const struct vkqs_pipeline *less = prim_pipeline(ctx, o.t, &d);
	d.depth_op = VK_COMPARE_OP_GREATER_OR_EQUAL;
	const struct vkqs_pipeline *gequal = prim_pipeline(ctx, o.t, &d);
	const struct rect r = {2, 2, 62, 60}; /* holds the whole triangle */

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = shape_draw(ctx, o.cb, occluder, SHAPE_SLANTED, 0.25f, samples,
				     whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	query_prim_rect(ctx, &o, 1, flags, less, r);
	query_prim_rect(ctx, &o, 2, flags, gequal, r);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0], w, "occluder triangle");
	VKQS_EXPECTF(ctx, res[2] == res[0],
		     "GREATER_OR_EQUAL behind the occluder counted %" PRIu64
		     ", the occluder itself %" PRIu64 ": the same samples", res[2], res[0]);
	VKQS_EXPECTF(ctx, res[1] + res[2] == area(r) * samples,
		     "LESS %" PRIu64 " + GREATER_OR_EQUAL %" PRIu64 " != the rectangle's %" PRIu64
		     " samples", res[1], res[2], area(r) * samples);
}

/* Spec "Scissor Test" on a triangle: samples of pixels outside the scissor
 * lose coverage, so the count is the triangle's samples in the scissor's
 * pixels (the oracle's clip). */
static void scissor_clipped_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct vkqs_pipeline *pipe =
		prim_pipeline_simple(ctx, o.t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
	const struct rect sc = {16, 20, 30, 24};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	set_scissor(ctx, o.cb, sc);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = shape_draw(ctx, o.cb, pipe, SHAPE_SLANTED, 0.5f, samples, sc, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0], w, "triangle clipped by the scissor");
}

/* discard_odd_columns.frag on a triangle: the fragments of odd columns die
 * with all their samples, partially covered ones included. */
static void discard_odd_columns_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.frag = FRAG_DISCARD_ODD_COLUMNS,
	};
	const struct vkqs_pipeline *pipe = prim_pipeline(ctx, o.t, &d);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = shape_draw(ctx, o.cb, pipe, SHAPE_SLANTED, 0.5f, samples, whole_fb, true);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0], w, "triangle with odd columns discarded");
}

/* stencil ------------------------------------------------------------------ */

/* Spec "Stencil Test": a sample whose stencil test fails has its coverage
 * set to 0 (the failOp still applies), so it does not survive "all the
 * per-fragment tests" and is not counted. */

static VkStencilOpState stencil_state(VkCompareOp op, uint32_t ref, uint32_t compare_mask,
				      VkStencilOp pass, VkStencilOp depth_fail)
{
	VkStencilOpState s = {
		.failOp = VK_STENCIL_OP_KEEP,
		.passOp = pass,
		.depthFailOp = depth_fail,
		.compareOp = op,
		.compareMask = compare_mask,
		.writeMask = 0xff,
		.reference = ref,
	};
	return s;
}

static const struct vkqs_pipeline *stencil_pipeline(struct vkqs_ctx *ctx,
						    const struct vkqs_target *t,
						    VkStencilOpState s)
{
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.stencil_test = true,
		.stencil = s,
	};
	return prim_pipeline(ctx, t, &d);
}

/* A stencil writer (ALWAYS, REPLACE with reference 1 on pass and depth
 * fail) and the filters EQUAL 1 and NOT_EQUAL 1 (KEEP). */
struct stencil_set {
	const struct vkqs_pipeline *write, *equal, *nequal;
};

static struct stencil_set stencil_write_filter(struct vkqs_ctx *ctx,
					       const struct vkqs_target *t)
{
	struct stencil_set ps;
	ps.write = stencil_pipeline(ctx, t,
				    stencil_state(VK_COMPARE_OP_ALWAYS, 1, 0xff,
						  VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_REPLACE));
	ps.equal = stencil_pipeline(ctx, t,
				    stencil_state(VK_COMPARE_OP_EQUAL, 1, 0xff, VK_STENCIL_OP_KEEP,
						  VK_STENCIL_OP_KEEP));
	ps.nequal = stencil_pipeline(ctx, t,
				     stencil_state(VK_COMPARE_OP_NOT_EQUAL, 1, 0xff,
						   VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	return ps;
}

/* NEVER: no sample passes, so even a non-precise query is 0 (18.3); the
 * control query with ALWAYS shows that the draw itself ran. */
static void stencil_never(struct vkqs_ctx *ctx, const void *param)
{
	bool precise = *(const bool *)param;
	VkQueryControlFlags flags = precise ? require_precise(ctx) : 0;
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 2);
	const struct vkqs_pipeline *never = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_NEVER, 0, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct vkqs_pipeline *always = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_ALWAYS, 0, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct rect r = {6, 9, 40, 30};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	query_prim_rect(ctx, &o, 0, flags, never, r);
	query_prim_rect(ctx, &o, 1, flags, always, r);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	if (precise)
		VKQS_EXPECT_EQ(ctx, res[1], area(r) * FIXED_SAMPLES);
	else
		VKQS_EXPECT_GT(ctx, res[1], 0);
}

static const bool precise_params[] = {true, false};

static void precise_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "precise" : "nonprecise");
}

/* The load op clears stencil to 0x5a: EQUAL 0x5a passes everywhere, EQUAL
 * 0x5b nowhere, and EQUAL 0x53 with compareMask 0xf0 everywhere (spec
 * "Stencil Test": both values are ANDed with compareMask). */
static void stencil_equal_cleared_value(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 3);
	static const struct {
		uint32_t ref, mask;
		bool pass;
	} tests[3] = {{0x5a, 0xff, true}, {0x5b, 0xff, false}, {0x53, 0xf0, true}};
	const struct rect r = {12, 4, 36, 44};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0x5a, VK_SUBPASS_CONTENTS_INLINE);
	for (uint32_t i = 0; i < 3; i++) {
		const struct vkqs_pipeline *p = stencil_pipeline(
			ctx, o.t,
			stencil_state(VK_COMPARE_OP_EQUAL, tests[i].ref, tests[i].mask,
				      VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
		D->vkCmdBeginQuery(o.cb, o.pool, i, flags);
		prim_rect(ctx, o.cb, p, r, 0.5f, 0);
		D->vkCmdEndQuery(o.cb, o.pool, i);
	}
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	for (uint32_t i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, res[i] == (tests[i].pass ? area(r) * FIXED_SAMPLES : 0),
			     "EQUAL reference 0x%02x compareMask 0x%02x against the cleared "
			     "0x5a: %" PRIu64 ", expected %" PRIu64, tests[i].ref, tests[i].mask,
			     res[i], tests[i].pass ? area(r) * FIXED_SAMPLES : 0);
}

/* Draw A writes stencil 1 (ALWAYS, REPLACE); then rectangle B with EQUAL 1
 * counts A ∩ B and with NOT_EQUAL 1 counts B \ A. */
static void stencil_write_then_filter(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, samples), 3);
	const struct stencil_set ps = stencil_write_filter(ctx, o.t);
	const struct rect a = {4, 6, 30, 20}, b = {20, 14, 36, 40};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	query_prim_rect(ctx, &o, 0, flags, ps.write, a);
	query_prim_rect(ctx, &o, 1, flags, ps.equal, b);
	query_prim_rect(ctx, &o, 2, flags, ps.nequal, b);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint64_t both = area(intersect(a, b));
	VKQS_EXPECT_EQ(ctx, res[0], area(a) * samples);
	VKQS_EXPECT_EQ(ctx, res[1], both * samples);
	VKQS_EXPECT_EQ(ctx, res[2], (area(b) - both) * samples);
}

/* A triangle writes stencil 1 sample by sample (ALWAYS, REPLACE); the
 * whole framebuffer drawn with EQUAL 1 then passes exactly on the samples
 * the triangle covered (its own count, whatever the tie-breaks) and NOT_EQUAL
 * 1 on all others. */
static void stencil_written_by_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 3);
	const struct stencil_set ps = stencil_write_filter(ctx, o.t);

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = shape_draw(ctx, o.cb, ps.write, SHAPE_SLIVER, 0.5f, FIXED_SAMPLES,
				     whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	query_prim_rect(ctx, &o, 1, flags, ps.equal, whole_fb);
	query_prim_rect(ctx, &o, 2, flags, ps.nequal, whole_fb);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_window(ctx, res[0], w, "stencil-writing sliver");
	VKQS_EXPECTF(ctx, res[1] == res[0],
		     "EQUAL 1 counted %" PRIu64 ", the triangle that wrote 1 counted %" PRIu64
		     ": the same samples", res[1], res[0]);
	VKQS_EXPECTF(ctx, res[1] + res[2] == area(whole_fb) * FIXED_SAMPLES,
		     "EQUAL %" PRIu64 " + NOT_EQUAL %" PRIu64 " != all %" PRIu64 " samples",
		     res[1], res[2], area(whole_fb) * FIXED_SAMPLES);
}

/* Depth cleared to 0.0: draw A (LESS at 0.5) fails the depth test on every
 * sample and counts 0, but its depthFailOp INCREMENT_AND_CLAMP still writes
 * stencil 1 (spec "Stencil Test": depthFailOp is the action "performed on
 * samples that pass the stencil test and fail the depth test"); B with the
 * depth test off and EQUAL 1 then counts A ∩ B. */
static void stencil_depth_fail_op(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct vkqs_target *t = stencil_target(ctx, FIXED_SAMPLES);
	if (t->depth_format == VK_FORMAT_S8_UINT)
		vkqs_skip(ctx, "the only stencil format is S8_UINT, without a depth aspect");
	struct occ o = occ_begin_on(ctx, t, 2);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.depth_test = true,
		.depth_op = VK_COMPARE_OP_LESS,
		.stencil_test = true,
		.stencil = stencil_state(VK_COMPARE_OP_ALWAYS, 0, 0xff, VK_STENCIL_OP_KEEP,
					 VK_STENCIL_OP_INCREMENT_AND_CLAMP),
	};
	const struct vkqs_pipeline *fail = prim_pipeline(ctx, o.t, &d);
	const struct vkqs_pipeline *equal = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_EQUAL, 1, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct rect a = {10, 10, 28, 28}, b = {24, 2, 30, 50};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 0.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	query_prim_rect(ctx, &o, 0, flags, fail, a);
	query_prim_rect(ctx, &o, 1, flags, equal, b);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	VKQS_EXPECT_EQ(ctx, res[1], area(intersect(a, b)) * FIXED_SAMPLES);
}

/* sample_mask -------------------------------------------------------------- */

/* Spec "Sample Mask Test": "If the bit is 0, coverage for the sample is
 * set to 0"; spec "Multisample Coverage": the SampleMask output is ANDed
 * with the coverage (bits of samples that do not exist have no coverage to
 * keep).  "Sample Counting" names the sample mask among the tests a
 * counted sample survives.  A whole-pixel rectangle then counts
 * area * popcount(mask & (2^samples - 1)). */
struct mask_param {
	VkSampleCountFlagBits samples;
	uint32_t pipeline_mask;   /* VkPipelineMultisampleStateCreateInfo::pSampleMask */
	bool shader;              /* SampleMask output of occlusion_samplemask.frag */
	uint32_t shader_mask;
};

static const struct mask_param pipeline_mask_params[] = {
	{VK_SAMPLE_COUNT_4_BIT, 0x1, false, 0}, {VK_SAMPLE_COUNT_4_BIT, 0x5, false, 0},
	{VK_SAMPLE_COUNT_4_BIT, 0x0, false, 0}, {VK_SAMPLE_COUNT_1_BIT, 0x0, false, 0},
};

static const struct mask_param shader_mask_params[] = {
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x1},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x5},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x0},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0xfffffff5},
	{VK_SAMPLE_COUNT_1_BIT, 0xffffffff, true, 0x0},
	/* both: pipeline 0x5 AND output 0x6 keep sample 2 only */
	{VK_SAMPLE_COUNT_4_BIT, 0x5, true, 0x6},
};

static void mask_name(const void *param, char *buf, size_t size)
{
	const struct mask_param *p = param;
	uint32_t m = p->shader ? p->shader_mask : p->pipeline_mask;
	if (p->shader && p->pipeline_mask != 0xffffffff)
		snprintf(buf, size, "0x%x_with_pipeline_mask_0x%x_samples_%u", m,
			 p->pipeline_mask, (unsigned)p->samples);
	else
		snprintf(buf, size, "0x%x_samples_%u", m, (unsigned)p->samples);
}

static unsigned popcount(uint32_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static void sample_mask(struct vkqs_ctx *ctx, const void *param)
{
	const struct mask_param *p = param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	VkSampleMask mask = p->pipeline_mask;
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.frag = p->shader ? FRAG_SAMPLE_MASK : FRAG_COLOR,
		.sample_mask = &mask,
	};
	const struct vkqs_pipeline *pipe = prim_pipeline(ctx, o.t, &d);
	const struct rect r = {10, 14, 20, 12};

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	prim_rect(ctx, o.cb, pipe, r, 0.5f, p->shader_mask);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint32_t kept = p->pipeline_mask & (p->shader ? p->shader_mask : ~0u) &
			((1u << p->samples) - 1);
	VKQS_EXPECTF(ctx, res[0] == area(r) * popcount(kept),
		     "pipeline mask 0x%x, SampleMask output 0x%x at %u samples: %" PRIu64
		     ", expected %" PRIu64 " pixels x %u samples", p->pipeline_mask,
		     p->shader ? p->shader_mask : 0xffffffffu, (unsigned)p->samples, res[0],
		     area(r), popcount(kept));
}

/* transfer ----------------------------------------------------------------- */

/* A precise query holds a render pass instance with one draw and then,
 * outside the instance, one transfer command.  Transfers produce no
 * samples, but 18.2 allows "clears, MSAA resolves, attachment load/store
 * operations, and blits" (and such rendering operations generally) to
 * count, implementation-dependently: the draw's exact count is the lower
 * bound and more is CompatibilityWarning (expect_draws_plus_clears). */
enum xfer_kind {
	XFER_COPY_IMAGE,
	XFER_BLIT_IMAGE,
	XFER_RESOLVE_IMAGE,
	XFER_COPY_BUFFER,
	XFER_FILL_BUFFER,
	XFER_COPY_IMAGE_TO_BUFFER,
};
static const char *const xfer_names[] = {"copy_image", "blit_image", "resolve_image",
					 "copy_buffer", "fill_buffer", "copy_image_to_buffer"};
static const char *const xfer_commands[] = {
	"vkCmdCopyImage", "vkCmdBlitImage", "vkCmdResolveImage",
	"vkCmdCopyBuffer", "vkCmdFillBuffer", "vkCmdCopyImageToBuffer"};

struct xfer_param {
	enum xfer_kind kind;
	VkSampleCountFlagBits samples; /* blits and image-to-buffer copies need 1 */
};

static const struct xfer_param xfer_params[] = {
	{XFER_COPY_IMAGE, VK_SAMPLE_COUNT_4_BIT},  {XFER_BLIT_IMAGE, VK_SAMPLE_COUNT_1_BIT},
	{XFER_RESOLVE_IMAGE, VK_SAMPLE_COUNT_4_BIT}, {XFER_COPY_BUFFER, VK_SAMPLE_COUNT_4_BIT},
	{XFER_FILL_BUFFER, VK_SAMPLE_COUNT_4_BIT}, {XFER_COPY_IMAGE_TO_BUFFER, VK_SAMPLE_COUNT_1_BIT},
};

static void xfer_name(const void *param, char *buf, size_t size)
{
	const struct xfer_param *p = param;
	snprintf(buf, size, "%s_samples_%u", xfer_names[p->kind], (unsigned)p->samples);
}

/* The target's colour attachment (final layout COLOR_ATTACHMENT_OPTIMAL)
 * as a transfer source. */
static void color_to_transfer_src(struct vkqs_ctx *ctx, const struct occ *o)
{
	vkqs_cmd_image_barrier(ctx, o->cb, o->t->color, VK_IMAGE_ASPECT_COLOR_BIT, 1,
			       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
			       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
			       VK_ACCESS_TRANSFER_READ_BIT);
}

/* A new colour image of the target's format as a transfer destination. */
static VkImage transfer_dst_image(struct vkqs_ctx *ctx, const struct occ *o, uint32_t size,
				  VkSampleCountFlagBits samples, VkImageUsageFlags usage)
{
	VkImage img = vkqs_image_create(ctx, VK_FORMAT_R8G8B8A8_UNORM, size, size, 1, samples,
					usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
	to_transfer_dst(ctx, o->cb, img, VK_IMAGE_ASPECT_COLOR_BIT);
	return img;
}

static void record_transfer(struct vkqs_ctx *ctx, const struct occ *o, enum xfer_kind kind)
{
	const VkImageSubresourceLayers color = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
	switch (kind) {
	case XFER_COPY_IMAGE: {
		/* vkCmdCopyImage: same sample count on both sides; the
		 * attachment usage makes 4 samples a supported count. */
		VkImage dst = transfer_dst_image(ctx, o, FB, o->t->samples,
						 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
		color_to_transfer_src(ctx, o);
		VkImageCopy r = {color, {0, 0, 0}, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdCopyImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case XFER_BLIT_IMAGE: {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, VK_FORMAT_R8G8B8A8_UNORM, &fp);
		if ((fp.optimalTilingFeatures &
		     (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT)) !=
		    (VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT))
			vkqs_skip(ctx, "R8G8B8A8_UNORM lacks BLIT_SRC / BLIT_DST (optimal tiling)");
		VkImage dst = transfer_dst_image(ctx, o, FB / 2, VK_SAMPLE_COUNT_1_BIT, 0);
		color_to_transfer_src(ctx, o);
		VkImageBlit r = {color, {{0, 0, 0}, {FB, FB, 1}}, color,
				 {{0, 0, 0}, {FB / 2, FB / 2, 1}}};
		D->vkCmdBlitImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_NEAREST);
		break;
	}
	case XFER_RESOLVE_IMAGE: {
		VkImage dst = transfer_dst_image(ctx, o, FB, VK_SAMPLE_COUNT_1_BIT, 0);
		color_to_transfer_src(ctx, o);
		VkImageResolve r = {color, {0, 0, 0}, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdResolveImage(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst,
				     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
		break;
	}
	case XFER_COPY_BUFFER: {
		struct vkqs_buffer *src = vkqs_buffer_device(ctx, 4096, 0);
		struct vkqs_buffer *dst = vkqs_buffer_device(ctx, 4096, 0);
		VkBufferCopy r = {0, 0, 4096};
		D->vkCmdCopyBuffer(o->cb, src->buf, dst->buf, 1, &r);
		break;
	}
	case XFER_FILL_BUFFER: {
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, 0);
		D->vkCmdFillBuffer(o->cb, b->buf, 0, VK_WHOLE_SIZE, 0x5a5a5a5a);
		break;
	}
	case XFER_COPY_IMAGE_TO_BUFFER:
	default: {
		struct vkqs_buffer *b = vkqs_buffer_device(ctx, (VkDeviceSize)FB * FB * 4, 0);
		color_to_transfer_src(ctx, o);
		VkBufferImageCopy r = {0, 0, 0, color, {0, 0, 0}, {FB, FB, 1}};
		D->vkCmdCopyImageToBuffer(o->cb, o->t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
					  b->buf, 1, &r);
		break;
	}
	}
}

static void transfer_inside_query(struct vkqs_ctx *ctx, const void *param)
{
	const struct xfer_param *p = param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, p->samples, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	char what[160];
	snprintf(what, sizeof(what), "%s or the render pass instance's load/store operations",
		 xfer_commands[p->kind]);

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	record_transfer(ctx, &o, p->kind);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], area(clear_draw) * p->samples, what);
}

/* load op ------------------------------------------------------------------ */

/* Query 0 begins before vkCmdBeginRenderPass, so it holds the CLEAR load
 * operations (18.2: "attachment load/store operations ... may count"):
 * the draw's exact count is its lower bound.  Query 1 holds the same draw
 * inside the subpass of a second, identical instance: exact. */
enum load_kind { LOAD_COLOR_DRAW, LOAD_DEPTH_PASSING, LOAD_DEPTH_OCCLUDED, LOAD_NO_DRAW };
static const char *const load_names[] = {"color_then_draw", "depth_then_passing_draw",
					 "depth_then_occluded_draw", "without_draws"};

static const enum load_kind load_params[] = {LOAD_COLOR_DRAW, LOAD_DEPTH_PASSING,
					     LOAD_DEPTH_OCCLUDED, LOAD_NO_DRAW};

static void load_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", load_names[*(const enum load_kind *)param]);
}

static void load_op_clear_in_query(struct vkqs_ctx *ctx, const void *param)
{
	enum load_kind k = *(const enum load_kind *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	bool depth = k == LOAD_DEPTH_PASSING || k == LOAD_DEPTH_OCCLUDED;
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, depth, 2);
	const struct vkqs_pipeline *pipe = depth ? depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false)
						 : plain_pipeline(ctx, &o);
	/* LESS at 0.5 passes everywhere against a 1.0 clear, nowhere against 0.0 */
	float clear_depth = k == LOAD_DEPTH_OCCLUDED ? 0.0f : 1.0f;
	uint64_t expected = k == LOAD_COLOR_DRAW || k == LOAD_DEPTH_PASSING
				    ? area(clear_draw) * FIXED_SAMPLES
				    : 0;

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, clear_depth);
	if (k != LOAD_NO_DRAW)
		draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	vkqs_target_begin(ctx, o.cb, o.t, clear_depth);
	D->vkCmdBeginQuery(o.cb, o.pool, 1, flags);
	if (k != LOAD_NO_DRAW)
		draw(ctx, &o, pipe, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 1);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	expect_draws_plus_clears(ctx, res[0], expected,
				 depth ? "the render pass instance's depth CLEAR load operation"
				       : "the render pass instance's colour CLEAR load operation");
	VKQS_EXPECT_EQ(ctx, res[1], expected);
}

/* secondary ---------------------------------------------------------------- */

/* 18.2: "A query must begin and end in the same command buffer"; a
 * secondary command buffer continuing a subpass may hold a whole query
 * (begun and ended inside the same subpass), no inheritedQueries needed.
 * The pool is reset in the primary, before the render pass instance. */
static void secondary_own_query(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect r = {5, 7, 44, 22};

	VkCommandBuffer sec = secondary_begin(ctx, o.t, VK_FALSE, 0);
	D->vkCmdBeginQuery(sec, o.pool, 0, flags);
	vkqs_draw_rect(ctx, sec, pipe, o.t, (float)r.x, (float)r.y, (float)(r.x + r.w),
		       (float)(r.y + r.h), 0.5f);
	D->vkCmdEndQuery(sec, o.pool, 0);
	vkqs_cmd_end(ctx, sec);

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(o.cb, 1, &sec);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], area(r) * samples);
}

/* Two secondaries executed by one vkCmdExecuteCommands, each with its own
 * query: each counts only its own draw (18.3: a query starts at zero). */
static void secondary_two_own_queries(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 2);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect r[2] = {{2, 3, 10, 12}, {30, 20, 26, 40}};
	VkCommandBuffer sec[2];

	for (uint32_t i = 0; i < 2; i++) {
		sec[i] = secondary_begin(ctx, o.t, VK_FALSE, 0);
		D->vkCmdBeginQuery(sec[i], o.pool, i, flags);
		vkqs_draw_rect(ctx, sec[i], pipe, o.t, (float)r[i].x, (float)r[i].y,
			       (float)(r[i].x + r[i].w), (float)(r[i].y + r[i].h), 0.5f);
		D->vkCmdEndQuery(sec[i], o.pool, i);
		vkqs_cmd_end(ctx, sec[i]);
	}
	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(o.cb, 2, sec);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], area(r[0]) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[1], area(r[1]) * FIXED_SAMPLES);
}

/* 18.2: with inheritedQueries a primary "can execute secondary command
 * buffers during the query operation", and "Queries active in a primary
 * command buffer when secondary command buffers are executed are considered
 * active for those secondary command buffers".  The query begins outside
 * the instance (a subpass of secondary contents takes no vkCmdBeginQuery),
 * so its CLEAR load op may add (18.2): the draw is the lower bound. */
static void secondary_inherited_query(struct vkqs_ctx *ctx, const void *param)
{
	bool precise = *(const bool *)param;
	VkQueryControlFlags flags = precise ? require_precise(ctx) : 0;
	vkqs_require_feature(ctx, "inheritedQueries");
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = plain_pipeline(ctx, &o);
	const struct rect r = {9, 31, 37, 17};

	/* VUID-vkCmdExecuteCommands-commandBuffer-00101/00102: the secondary
	 * declares occlusionQueryEnable and at least the query's flags. */
	VkCommandBuffer sec = secondary_begin(ctx, o.t, VK_TRUE, flags);
	vkqs_draw_rect(ctx, sec, pipe, o.t, (float)r.x, (float)r.y, (float)(r.x + r.w),
		       (float)(r.y + r.h), 0.5f);
	vkqs_cmd_end(ctx, sec);

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(o.cb, 1, &sec);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	if (precise)
		expect_draws_plus_clears(ctx, res[0], area(r) * FIXED_SAMPLES,
					 "the render pass instance's CLEAR load operation");
	else
		VKQS_EXPECT_GT(ctx, res[0], 0);
}

/* nonprecise: non-zero exactly when samples passed -------------------------- */

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
/* Inside pixel (20, 20) near its top-left corner, x + y < 0.35 there: no
 * standard sample location (x + y >= 0.5 for all of them) is within a
 * sub-pixel tolerance of it, so it covers no sample and makes no fragment. */
static const float between_samples_tri[3][2] = {{20.02f, 20.02f}, {20.3f, 20.03f},
						{20.03f, 20.3f}};

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
		prim_draw(ctx, o->cb, p, points, 3, 0.5f, 1.0f, 0);
		break;
	case GEOM_LINE:
		prim_draw(ctx, o->cb, p, line, 2, 0.5f, 1.0f, 0);
		break;
	case GEOM_BACK_FACE_CULLED:
		prim_draw(ctx, o->cb, p, back_facing_tri, 3, 0.5f, 1.0f, 0);
		break;
	case GEOM_TRIANGLE_BETWEEN_SAMPLES:
		prim_draw(ctx, o->cb, p, between_samples_tri, 3, 0.5f, 1.0f, 0);
		break;
	default:
		prim_rect(ctx, o->cb, p, clear_draw, 0.5f, 0);
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
	struct window w = exact(area(clear_draw) * samples);
	switch (g) {
	case GEOM_DEPTH_OCCLUDED: /* depth cleared to 0.0, LESS at 0.5 */
		d.depth_test = true;
		d.depth_op = VK_COMPARE_OP_LESS;
		w = exact(0);
		break;
	case GEOM_SCISSORED_OUT:
		w = exact(0);
		break;
	case GEOM_SAMPLE_MASK_ZERO:
		d.sample_mask = &zero;
		w = exact(0);
		break;
	case GEOM_DISCARD_ALL:
		d.frag = FRAG_DISCARD_ALL;
		w = exact(0);
		break;
	case GEOM_BACK_FACE_CULLED:
		d.cull = VK_CULL_MODE_BACK_BIT;
		w = signed_area(back_facing_tri, 3) > 0.0
			    ? polygon_window(ctx, back_facing_tri, 3, samples, whole_fb, false)
			    : exact(0);
		break;
	case GEOM_POINTS: /* size 1 at pixel centres: one pixel each */
		d.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
		w = exact(3 * samples);
		break;
	case GEOM_LINE:
		d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
		w = line_window(ctx, 32, 1, 1, samples);
		break;
	case GEOM_TRIANGLE_BETWEEN_SAMPLES:
		w = polygon_window(ctx, between_samples_tri, 3, samples, whole_fb, false);
		break;
	case GEOM_RECT:
	default:
		break;
	}
	const struct vkqs_pipeline *pipe = prim_pipeline(ctx, o.t, &d);

	vkqs_target_begin(ctx, o.cb, o.t, g == GEOM_DEPTH_OCCLUDED ? 0.0f : 1.0f);
	if (g == GEOM_SCISSORED_OUT) {
		const struct rect sc = {clear_draw.x + clear_draw.w, 0,
					FB - (clear_draw.x + clear_draw.w), FB};
		set_scissor(ctx, o.cb, sc);
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
		expect_window(ctx, res[0], w, geom_names[g]);
	if (w.hi == 0)
		VKQS_EXPECTF(ctx, res[q] == 0,
			     "%s: no sample passes, yet the non-precise result is %" PRIu64,
			     geom_names[g], res[q]);
	else if (w.lo > 0)
		VKQS_EXPECTF(ctx, res[q] != 0,
			     "%s: at least %" PRIu64 " samples pass, yet the non-precise result "
			     "is 0", geom_names[g], w.lo);
	else
		vkqs_internal_error(ctx, "%s: the oracle cannot tell whether samples pass",
				    geom_names[g]);
}

/* The table --------------------------------------------------------------- */

#define PRECISE_SPEC \
	"18.2: with VK_QUERY_CONTROL_PRECISE_BIT an implementation must return a result " \
	"that matches the actual number of samples passed"
#define SAMPLE_COUNTING_SPEC \
	"Sample Counting: the occlusion query sample counter increments by one for " \
	"each sample with a coverage value of 1 in each fragment that survives all " \
	"the per-fragment tests"
#define CLEARS_SPEC \
	"18.2: clears, MSAA resolves, attachment load/store operations and blits may count " \
	"towards the results of queries (implementation-dependent): a precise result is " \
	"at least the draws' exact count; more is CompatibilityWarning"

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
	{.name = "depth.fully_occluded",
	 .fn = depth_fully_occluded,
	 .spec = "18.3: if flags does not contain VK_QUERY_CONTROL_PRECISE_BIT an "
		 "implementation may generate any non-zero result value for the query if "
		 "the count of passing samples is non-zero (zero passing samples: 0)",
	 .params = VKQS_PARAMS(depth_params, depth_name)},
	{.name = "depth.partially_occluded",
	 .fn = depth_partially_occluded,
	 .spec = SAMPLE_COUNTING_SPEC " (depth test); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "nonprecise.visible_nonzero",
	 .fn = nonprecise_visible,
	 .spec = "18.3: if flags does not contain VK_QUERY_CONTROL_PRECISE_BIT an "
		 "implementation may generate any non-zero result value for the query if "
		 "the count of passing samples is non-zero",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "scissor.clipped_rect",
	 .fn = scissor_clipped_rect,
	 .spec = SAMPLE_COUNTING_SPEC " (scissor test: samples with coordinates outside "
				      "the scissor rectangle have their coverage set to 0)",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "discard.odd_columns",
	 .fn = discard_odd_columns,
	 .spec = SAMPLE_COUNTING_SPEC " (a fragment discarded by the shader survives "
				      "no test); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "clear.clear_attachments_inside_render_pass",
	 .fn = clear_attachments_inside_render_pass,
	 .spec = CLEARS_SPEC},
	{.name = "clear.clear_attachments_depth_inside_render_pass",
	 .fn = clear_attachments_depth_inside_render_pass,
	 .spec = CLEARS_SPEC},
	{.name = "clear.clear_color_image_outside_render_pass",
	 .fn = clear_color_image_outside_render_pass,
	 .spec = CLEARS_SPEC},
	{.name = "clear.clear_depth_stencil_image_outside_render_pass",
	 .fn = clear_depth_stencil_image_outside_render_pass,
	 .spec = CLEARS_SPEC},
	{.name = "clear.clear_attachments_only",
	 .fn = clear_attachments_only,
	 .spec = CLEARS_SPEC " (a query holding only a clear: 0 is portable); 18.3: the "
			     "next query starts at zero"},
	{.name = "point.square",
	 .fn = point_square,
	 .spec = PRECISE_SPEC "; Basic Point Rasterization: a point covers the samples in the "
			      "square of side the point size centred at (xf, yf); fragments "
			      "outside the framebuffer are not produced",
	 .params = VKQS_PARAMS(point_params, point_name)},
	{.name = "line.segment",
	 .fn = line_segment,
	 .spec = PRECISE_SPEC "; Basic Line Segment Rasterization: strict lines cover the "
			      "rectangle centred on the segment; non-strict lines the "
			      "parallelogram, or Bresenham within one fragment of the "
			      "diamond-exit rule, covering all samples of each fragment",
	 .params = VKQS_PARAMS(line_params, line_name)},
	{.name = "triangle.coverage",
	 .fn = triangle_coverage,
	 .spec = PRECISE_SPEC "; Basic Polygon Rasterization: the samples inside the polygon "
			      "(vertices held with subPixelPrecisionBits) are covered, a "
			      "sample on an edge shared by two polygons by exactly one",
	 .params = VKQS_PARAMS(shape_params, shape_name)},
	{.name = "depth.partially_occluded_by_triangle",
	 .fn = depth_partially_occluded_by_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (the depth test is per sample: a partially covered "
				      "pixel passes in part)",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "scissor.clipped_triangle",
	 .fn = scissor_clipped_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (scissor test on a triangle's partially covered "
				      "pixels)",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "discard.odd_columns_triangle",
	 .fn = discard_odd_columns_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (a discarded fragment survives no test, partially "
				      "covered ones included)",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "stencil.never",
	 .fn = stencil_never,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil test NEVER: no sample survives, so the "
				      "result is 0 even without VK_QUERY_CONTROL_PRECISE_BIT, "
				      "18.3)",
	 .params = VKQS_PARAMS(precise_params, precise_name)},
	{.name = "stencil.equal_cleared_value",
	 .fn = stencil_equal_cleared_value,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil test EQUAL against the load op's clear "
				      "value, through compareMask)"},
	{.name = "stencil.write_then_filter",
	 .fn = stencil_write_then_filter,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil written by passOp REPLACE, then EQUAL / "
				      "NOT_EQUAL)",
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "stencil.written_by_triangle",
	 .fn = stencil_written_by_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil written per sample by a triangle: EQUAL "
				      "counts exactly the triangle's samples)"},
	{.name = "stencil.depth_fail_op_writes_uncounted",
	 .fn = stencil_depth_fail_op,
	 .spec = SAMPLE_COUNTING_SPEC " (samples failing the depth test are not counted, "
				      "yet depthFailOp updates stencil)"},
	{.name = "sample_mask.pipeline_mask",
	 .fn = sample_mask,
	 .spec = SAMPLE_COUNTING_SPEC " (Sample Mask Test: a sample whose pSampleMask bit is 0 "
				      "gets coverage 0)",
	 .params = VKQS_PARAMS(pipeline_mask_params, mask_name)},
	{.name = "sample_mask.shader_output",
	 .fn = sample_mask,
	 .spec = SAMPLE_COUNTING_SPEC " (Multisample Coverage: the SampleMask output is ANDed "
				      "with the coverage mask)",
	 .params = VKQS_PARAMS(shader_mask_params, mask_name)},
	{.name = "transfer.inside_query",
	 .fn = transfer_inside_query,
	 .spec = CLEARS_SPEC " (a transfer command between vkCmdEndRenderPass and "
			     "vkCmdEndQuery)",
	 .params = VKQS_PARAMS(xfer_params, xfer_name)},
	{.name = "clear.load_op_clear_in_query",
	 .fn = load_op_clear_in_query,
	 .spec = CLEARS_SPEC " (a query begun before vkCmdBeginRenderPass holds the CLEAR "
			     "load operations); the same draw inside the subpass is exact",
	 .params = VKQS_PARAMS(load_params, load_name)},
	{.name = "secondary.own_query",
	 .fn = secondary_own_query,
	 .spec = "18.2: a query must begin and end in the same command buffer (here one "
		 "secondary command buffer continuing the subpass); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "secondary.two_secondaries_own_queries",
	 .fn = secondary_two_own_queries,
	 .spec = "18.3: when an occlusion query begins, the count of passing samples always "
		 "starts at zero (two secondaries of one vkCmdExecuteCommands)"},
	{.name = "secondary.inherited_query",
	 .fn = secondary_inherited_query,
	 .spec = "18.2: queries active in a primary command buffer when secondary command "
		 "buffers are executed are considered active for those secondary command "
		 "buffers (inheritedQueries); " CLEARS_SPEC,
	 .params = VKQS_PARAMS(precise_params, precise_name)},
	{.name = "nonprecise.nonzero_iff_samples_passed",
	 .fn = nonprecise_nonzero_iff_passed,
	 .spec = "18.3: without VK_QUERY_CONTROL_PRECISE_BIT an implementation may generate "
		 "any non-zero result value if the count of passing samples is non-zero "
		 "(non-zero exactly when samples passed)",
	 .params = VKQS_PARAMS(geom_params, geom_name)},
};

VKQS_AREA(occlusion, cases);
