/* Occlusion queries (spec 18.3): exact precise counts of known pixel
 * rectangles, zero when nothing passes, non-zero non-precise results, the
 * per-fragment tests (depth, scissor, discard) seen through the count, and
 * clears recorded inside a query.
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
#include <stdio.h>

#include "vkutil.h"

#include "shaders/discard_odd_columns_frag.h"

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

static struct occ occ_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples,
			    bool depth, uint32_t queries)
{
	struct occ o;
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	o.t = vkqs_target_create(ctx, FB, FB, samples, depth);
	o.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, queries, 0);
	o.queries = queries;
	o.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(o.cb, o.pool, 0, queries);
	return o;
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

static bool format_has_stencil(VkFormat f)
{
	return f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT ||
	       f == VK_FORMAT_D32_SFLOAT_S8_UINT || f == VK_FORMAT_S8_UINT;
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
	VkImageMemoryBarrier b = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		.srcAccessMask = 0,
		.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
		.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		.image = img,
		.subresourceRange = {aspect, 0, 1, 0, 1},
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
				VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &b);
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
		if (format_has_stencil(o.t->depth_format))
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
};

VKQS_AREA(occlusion, cases);
