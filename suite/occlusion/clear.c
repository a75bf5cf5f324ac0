/* vkqs.occlusion.clear.*: clears and load operations recorded inside a query: what
 * 18.2 lets them add, and that the draws' exact count is still a lower bound. */
#include "occlusion.h"

static const VkClearRect whole_target = {{{0, 0}, {FB, FB}}, 0, 1};

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
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	clear_color_attachment(ctx, &o);
	occ_draw(ctx, &o, pipe, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_draws_plus_clears(ctx, &o, res[0], occ_area(clear_draw) * FIXED_SAMPLES, 1,
				     "vkCmdClearAttachments (color)");
}

/* The render pass clears depth to 0.0, so the LESS draw at 0.5 passes only
 * because vkCmdClearAttachments set depth to 1.0 first: the clear executes
 * in rasterization order before the occ_draw (spec "Clearing Images Inside a
 * Render Pass Instance"), and a clear that was dropped yields 0. */
static void clear_attachments_depth_inside_render_pass(struct vkqs_ctx *ctx,
						       const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, true, 1);
	const struct vkqs_pipeline *less = occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false);
	VkClearAttachment ca = {
		.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT,
		.clearValue = {.depthStencil = {1.0f, 0}},
	};

	vkqs_target_begin(ctx, o.cb, o.t, 0.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	D->vkCmdClearAttachments(o.cb, 1, &ca, 1, &whole_target);
	occ_draw(ctx, &o, less, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_draws_plus_clears(ctx, &o, res[0], occ_area(clear_draw) * FIXED_SAMPLES, 1,
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

/* A query begun outside any render pass instance contains a transfer clear
 * of an attachment image and then the instance that draws (18.2 allows a
 * query to contain entire render pass instances).  The clear, and the
 * instance's CLEAR load op, may add; the draw is the lower bound. */
static void clear_image_outside_render_pass(struct vkqs_ctx *ctx, bool depth)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	require_transfer_dst(ctx, depth ? ctx->vk->depth_format : VK_FORMAT_R8G8B8A8_UNORM);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, depth, 1);
	const struct vkqs_pipeline *pipe =
		depth ? occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false)
		      : occ_plain_pipeline(ctx, &o);

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
		occ_to_transfer_dst(ctx, o.cb, o.t->depth, aspect);
		D->vkCmdClearDepthStencilImage(o.cb, o.t->depth,
					       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1,
					       &range);
	} else {
		VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
		VkClearColorValue v = {.float32 = {0.0f, 1.0f, 0.0f, 1.0f}};
		occ_to_transfer_dst(ctx, o.cb, o.t->color, VK_IMAGE_ASPECT_COLOR_BIT);
		D->vkCmdClearColorImage(o.cb, o.t->color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
					&v, 1, &range);
	}
	/* Depth 1.0 at the load op: the LESS draw at 0.5 passes everywhere. */
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	/* in scope: the image clear, the instance's load and store operations */
	occ_expect_draws_plus_clears(ctx, &o, res[0], occ_area(clear_draw) * FIXED_SAMPLES, 3,
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
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 2);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	clear_color_attachment(ctx, &o);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	occ_query_draw(ctx, &o, 1, flags, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_draws_plus_clears(ctx, &o, res[0], 0, 1, "vkCmdClearAttachments (color, no draw)");
	VKQS_EXPECT_EQ(ctx, res[1], occ_area(clear_draw) * FIXED_SAMPLES);
}

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
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	bool depth = k == LOAD_DEPTH_PASSING || k == LOAD_DEPTH_OCCLUDED;
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, depth, 2);
	const struct vkqs_pipeline *pipe = depth ? occ_depth_pipeline(ctx, &o, VK_COMPARE_OP_LESS, false)
						 : occ_plain_pipeline(ctx, &o);
	/* LESS at 0.5 passes everywhere against a 1.0 clear, nowhere against 0.0 */
	float clear_depth = k == LOAD_DEPTH_OCCLUDED ? 0.0f : 1.0f;
	uint64_t expected = k == LOAD_COLOR_DRAW || k == LOAD_DEPTH_PASSING
				    ? occ_area(clear_draw) * FIXED_SAMPLES
				    : 0;

	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	vkqs_target_begin(ctx, o.cb, o.t, clear_depth);
	if (k != LOAD_NO_DRAW)
		occ_draw(ctx, &o, pipe, clear_draw, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdEndQuery(o.cb, o.pool, 0);

	vkqs_target_begin(ctx, o.cb, o.t, clear_depth);
	D->vkCmdBeginQuery(o.cb, o.pool, 1, flags);
	if (k != LOAD_NO_DRAW)
		occ_draw(ctx, &o, pipe, clear_draw, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 1);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_draws_plus_clears(ctx, &o, res[0], expected, 2,
				 depth ? "the render pass instance's depth CLEAR load operation"
				       : "the render pass instance's colour CLEAR load operation");
	VKQS_EXPECT_EQ(ctx, res[1], expected);
}

static const struct vkqs_case cases[] = {
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
	{.name = "clear.load_op_clear_in_query",
	 .fn = load_op_clear_in_query,
	 .spec = CLEARS_SPEC " (a query begun before vkCmdBeginRenderPass holds the CLEAR "
			     "load operations); the same draw inside the subpass is exact",
	 .params = VKQS_PARAMS(load_params, load_name)},
};

VKQS_GROUP(occlusion, clear, cases);
