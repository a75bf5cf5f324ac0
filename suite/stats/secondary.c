/* vkqs.stats.secondary.*: statistics queries inside secondary command buffers and
 * inherited from a primary (pipelineStatisticsQuery). */
#include "stats.h"

/* A secondary command buffer of q's pool, begun with the inheritance of
 * `stats` (and, when t, continuing t's render pass, subpass 0, with the
 * viewport and scissor set: dynamic state is not inherited). */
static VkCommandBuffer secondary_begin(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				       const struct vkqs_target *t, uint32_t stats)
{
	VkCommandBufferInheritanceInfo ii = {.pipelineStatistics = stats};
	return vkqs_cmd_begin_secondary(ctx, q, t, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
					&ii);
}

/* A query begun and ended inside a secondary command buffer that continues
 * the render pass (18.2: "A query must begin and end in the same command
 * buffer"): no inheritance involved. */
static void secondary_query_inside(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, g.t, 0);
	D->vkCmdBeginQuery(sec, g.pool, 0, 0);
	stats_draw(ctx, sec, pipe, g.t, RA);
	D->vkCmdEndQuery(sec, g.pool, 0);
	vkqs_cmd_end(ctx, sec);

	vkqs_target_begin_ex(ctx, g.cb, g.t, 1.0f, 0,
			     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	struct expect e = stats_expect_zero("query inside a secondary");
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: "Queries active in a primary command buffer when secondary command
 * buffers are executed are considered active for those secondary command
 * buffers"; the secondary "must set ... pipelineStatistics ... to
 * conservative values" (VUID-vkCmdExecuteCommands-commandBuffer-00104:
 * every bit of the pool).  The secondary names exactly the pool's bits: a
 * superset is valid too, but the validation layer 1.3.239 checks the
 * inverse (the secondary's bits a subset of the pool's) and would fail it.
 * The primary's query contains the render pass instance (a subpass of
 * secondary contents takes no vkCmdBeginQuery), so its load operation may
 * stats_add (18.2). */
enum inherit_kind { INHERIT_SECONDARY_ONLY, INHERIT_AFTER_PRIMARY_DRAW };

static const enum inherit_kind inherit_params[] = {INHERIT_SECONDARY_ONLY,
						   INHERIT_AFTER_PRIMARY_DRAW};

static const char *const inherit_names[] = {"secondary_only", "after_primary_draw"};

static void inherit_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", inherit_names[*(const enum inherit_kind *)param]);
}

static void secondary_inherited_draw(struct vkqs_ctx *ctx, const void *param)
{
	enum inherit_kind k = *(const enum inherit_kind *)param;
	vkqs_require_feature(ctx, "inheritedQueries");
	uint32_t mask = BIT(IA_V) | BIT(VS) | BIT(CLIP_INV) | BIT(FS);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, g.t, mask);
	stats_draw(ctx, sec, pipe, g.t, RB);
	vkqs_cmd_end(ctx, sec);

	struct expect e = stats_expect_zero(k == INHERIT_AFTER_PRIMARY_DRAW
					      ? "a primary's draw, then a secondary's draw"
					      : "a secondary's draw");
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	if (k == INHERIT_AFTER_PRIMARY_DRAW) {
		vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
		stats_draw(ctx, g.cb, pipe, g.t, RA);
		vkqs_target_end(ctx, g.cb);
		stats_add_rect_draw(ctx, &e, RA, 1);
	}
	vkqs_target_begin_ex(ctx, g.cb, g.t, 1.0f, 0,
			     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_gfx_submit(ctx, &g);
	stats_add_rect_draw(ctx, &e, RB, 1);
	stats_loosen_for_clears(&e);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The same for a dispatch in a secondary outside any render pass: no load
 * operation, so the graphics counters stay 0 exactly. */
static void secondary_inherited_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_feature(ctx, "inheritedQueries");
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	struct comp *c = stats_compute_setup(ctx, 64);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, NULL, CORE);
	stats_compute_bind(ctx, sec, c);
	D->vkCmdDispatch(sec, 3, 2, 1);
	vkqs_cmd_end(ctx, sec);

	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	stats_compute_check_buffer(ctx, c, 48, 1);
	struct expect e = stats_expect_zero("a secondary's dispatch");
	stats_add_dispatch(&e, 3, 2, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

#define INHERIT_SPEC \
	"18.2: queries active in a primary command buffer when secondary command buffers " \
	"are executed are considered active for those secondaries (inheritedQueries, " \
	"VkCommandBufferInheritanceInfo::pipelineStatistics conservative)"

static const struct vkqs_case cases[] = {
	{.name = "secondary.query_inside_secondary",
	 .fn = secondary_query_inside,
	 .spec = "18.2: a query must begin and end in the same command buffer (here a "
		 "secondary continuing the render pass); " COUNTERS_SPEC},
	{.name = "secondary.inherited_draw",
	 .fn = secondary_inherited_draw,
	 .spec = INHERIT_SPEC,
	 .params = VKQS_PARAMS(inherit_params, inherit_name)},
	{.name = "secondary.inherited_dispatch",
	 .fn = secondary_inherited_dispatch,
	 .spec = INHERIT_SPEC "; " CS_SPEC},
};

VKQS_GROUP(stats, secondary, cases);
