/* vkqs.occlusion.secondary.*: queries begun inside secondary command buffers, two
 * secondaries with their own queries, and a primary's query inherited by a secondary. */
#include "occlusion.h"

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

/* 18.2: "A query must begin and end in the same command buffer"; a
 * secondary command buffer continuing a subpass may hold a whole query
 * (begun and ended inside the same subpass), no inheritedQueries needed.
 * The pool is reset in the primary, before the render pass instance. */
static void secondary_own_query(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
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
	VKQS_EXPECT_EQ(ctx, res[0], occ_area(r) * samples);
}

/* Two secondaries executed by one vkCmdExecuteCommands, each with its own
 * query: each counts only its own occ_draw (18.3: a query starts at zero). */
static void secondary_two_own_queries(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 2);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
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
	VKQS_EXPECT_EQ(ctx, res[0], occ_area(r[0]) * FIXED_SAMPLES);
	VKQS_EXPECT_EQ(ctx, res[1], occ_area(r[1]) * FIXED_SAMPLES);
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
	VkQueryControlFlags flags = precise ? occ_require_precise(ctx) : 0;
	vkqs_require_feature(ctx, "inheritedQueries");
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 1);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
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
		/* in scope: the instance's load and store operations */
		occ_expect_draws_plus_clears(ctx, &o, res[0], occ_area(r) * FIXED_SAMPLES, 2,
					     "the render pass instance's load/store operations");
	else
		VKQS_EXPECT_GT(ctx, res[0], 0);
}

static const struct vkqs_case cases[] = {
	{.name = "secondary.own_query",
	 .fn = secondary_own_query,
	 .spec = "18.2: a query must begin and end in the same command buffer (here one "
		 "secondary command buffer continuing the subpass); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "secondary.two_secondaries_own_queries",
	 .fn = secondary_two_own_queries,
	 .spec = "18.3: when an occlusion query begins, the count of passing samples always "
		 "starts at zero (two secondaries of one vkCmdExecuteCommands)"},
	{.name = "secondary.inherited_query",
	 .fn = secondary_inherited_query,
	 .spec = "18.2: queries active in a primary command buffer when secondary command "
		 "buffers are executed are considered active for those secondary command "
		 "buffers (inheritedQueries); " CLEARS_SPEC,
	 .params = VKQS_PARAMS(precise_params, occ_precise_name)},
};

VKQS_GROUP(occlusion, secondary, cases);
