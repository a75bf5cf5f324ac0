/* vkqs.stats.scope.*: what a query counts: the draws and dispatches between begin and
 * end only, sequential and reused queries restarting at zero, spans across render
 * passes, and results that do not change once available. */
#include "stats.h"

/* The counters this device's pools may hold: geometry and tessellation
 * bits only with those features. */
static uint32_t supported_bits(struct vkqs_ctx *ctx)
{
	uint32_t m = CORE;
	if (vkqs_device_feature(&ctx->vk->info, "geometryShader"))
		m |= GEOM_BITS;
	if (vkqs_device_feature(&ctx->vk->info, "tessellationShader"))
		m |= TESS_BITS;
	return m;
}

/* 18.4: "When a pipeline statistics query begins, all statistics counters
 * are set to zero"; a query counts the commands "recorded between a
 * vkCmdBeginQuery command and a vkCmdEndQuery command" (18.2).  With
 * nothing between them every counter is 0: no work exists that an
 * architecture could count differently. */
static void scope_empty_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	stats_require_stats(ctx);
	uint32_t mask = supported_bits(ctx);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_gfx_submit(ctx, &g);
	struct expect e = stats_expect_zero("empty query outside a render pass");
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Three queries in one subpass, with draws before, between and after them:
 * query 0 holds rect A, query 1 nothing, query 2 rects A and B.  Work
 * outside a query does not leak into it, and each starts at zero. */
static void scope_sequential_queries(struct vkqs_ctx *ctx, const void *param)
{
	stats_require_stats(ctx);
	uint32_t mask = supported_bits(ctx);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 3);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 1, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 1);
	stats_draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 2, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	stats_draw(ctx, g.cb, pipe, g.t, RB);
	D->vkCmdEndQuery(g.cb, g.pool, 2);
	stats_draw(ctx, g.cb, pipe, g.t, RC);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e0 = stats_expect_zero("query 0: rect A");
	stats_add_rect_draw(ctx, &e0, RA, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e0);
	struct expect e1 = stats_expect_zero("query 1: empty, between draws");
	stats_check_query(ctx, g.pool, 1, g.mask, &e1);
	struct expect e2 = stats_expect_zero("query 2: rects A and B");
	stats_add_rect_draw(ctx, &e2, RA, 1);
	stats_add_rect_draw(ctx, &e2, RB, 1);
	stats_check_query(ctx, g.pool, 2, g.mask, &e2);
}

/* Draws of no vertices and of no instances are no work: all 0. */
static void scope_zero_vertex_draws(struct vkqs_ctx *ctx, const void *param)
{
	stats_require_stats(ctx);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, 0, 1, 0, 0);
	D->vkCmdDraw(g.cb, 6, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	struct expect e = stats_expect_zero("draws of 0 vertices and of 0 instances");
	stats_use_pipeline(&e, STAGES_VS_FS);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The same query used twice: a first submission counts two draws; a second
 * resets it and runs it empty.  The second result is 0: the counters start
 * at zero at each begin, not where the last use left them. */
static void scope_reused_query_restarts(struct vkqs_ctx *ctx, const void *param)
{
	stats_require_stats(ctx);
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	stats_draw(ctx, g.cb, pipe, g.t, RB);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	struct expect first = stats_expect_zero("first use: rects A and B");
	stats_add_rect_draw(ctx, &first, RA, 1);
	stats_add_rect_draw(ctx, &first, RB, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &first);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, g.pool, 0, 1);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	D->vkCmdBeginQuery(cb, g.pool, 0, 0);
	D->vkCmdEndQuery(cb, g.pool, 0);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct expect second = stats_expect_zero("second use after a reset: empty");
	stats_check_query(ctx, g.pool, 0, g.mask, &second);
}

/* A dispatch inside a query of every core counter: the graphics counters
 * count drawing commands' stages and see none (18.4: counters "accumulated
 * ... for a set of either drawing or dispatching commands"). */
static void scope_dispatch_not_graphics(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	struct comp *c = stats_compute_setup(ctx, 64);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	stats_compute_check_buffer(ctx, c, 48, 1);
	struct expect e = stats_expect_zero("a dispatch only");
	stats_add_dispatch(&e, 3, 2, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* A draw inside a query of every core counter (begun inside the subpass, so
 * no load operation is in it): no compute shader is invoked. */
static void scope_draw_not_compute(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	stats_query_one_draw(ctx, &g, pipe, RA);
	struct expect e = stats_expect_zero("a draw only");
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: a query may "both begin and end outside of a render pass instance
 * (i.e. contain entire render pass instances)": it sums the draws of both
 * instances (the instances' load operations may add, 18.2). */
static void scope_spans_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	vkqs_target_end(ctx, g.cb);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RB);
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_gfx_submit(ctx, &g);
	struct expect e = stats_expect_zero("two render pass instances");
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_add_rect_draw(ctx, &e, RB, 1);
	stats_loosen_for_clears(&e);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: a query's numerical results are state of the query, set by its
 * operation and made undefined only by a reset; vkGetQueryPoolResults and
 * vkCmdCopyQueryPoolResults retrieve them.  So reading twice, and copying
 * afterwards, give the same values: a driver that folds or scales its
 * internal counters while reading them returns different numbers each
 * time. */
static void scope_results_unchanged_by_reads(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	uint32_t n = stats_nvalues(CORE);

	stats_query_one_draw(ctx, &g, pipe, RA);

	uint64_t first[NSTATS], second[NSTATS], copied[NSTATS];
	stats_get_values(ctx, g.pool, 0, 1, CORE, true, first);
	stats_get_values(ctx, g.pool, 0, 1, CORE, true, second);
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, n * 8ull, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cb, g.pool, 0, 1, dst->buf, 0, n * 8ull,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, dst);
	memcpy(copied, dst->map, n * 8ull);

	struct expect e = stats_expect_zero("rect A (first read)");
	stats_add_rect_draw(ctx, &e, RA, 1);
	uint32_t k = 0;
	for (uint32_t s = 0; s < NSTATS; s++) {
		if (!(CORE & BIT(s)))
			continue;
		/* an undefined value (the compute counter around a draw) may
		 * read differently each time */
		VKQS_EXPECTF(ctx, !stats_defined(&e, (enum stat)s) ||
				     (second[k] == first[k] && copied[k] == first[k]),
			     "value %u (%s): first read %" PRIu64 ", second read %" PRIu64
			     ", copied afterwards %" PRIu64 ": reading changed the result",
			     k, stat_names[s], first[k], second[k], copied[k]);
		k++;
	}
	stats_check_values(ctx, &e, CORE, first, "64-bit");
}

#define ZERO_SPEC \
	"18.4: when a pipeline statistics query begins, all statistics counters are set " \
	"to zero; 18.2: queries count the commands recorded between vkCmdBeginQuery and " \
	"vkCmdEndQuery"

static const struct vkqs_case cases[] = {
	{.name = "scope.empty_outside_render_pass",
	 .fn = scope_empty_outside_render_pass,
	 .spec = ZERO_SPEC},
	{.name = "scope.sequential_queries",
	 .fn = scope_sequential_queries,
	 .spec = ZERO_SPEC " (draws outside a query do not count)"},
	{.name = "scope.zero_vertex_draws",
	 .fn = scope_zero_vertex_draws,
	 .spec = ZERO_SPEC " (a draw of 0 vertices or 0 instances is no work)"},
	{.name = "scope.reused_query_restarts_at_zero",
	 .fn = scope_reused_query_restarts,
	 .spec = ZERO_SPEC " (a reset query begun again)"},
	{.name = "scope.dispatch_counts_no_graphics",
	 .fn = scope_dispatch_not_graphics,
	 .spec = "18.4: counters are accumulated for a set of either drawing or "
		 "dispatching commands: a dispatch processes no vertex or primitive (input "
		 "assembly and clipping 0); the vertex and fragment counters: "
		 VKQS_SPEC_STATS_MISSING_STAGE},
	{.name = "scope.draw_counts_no_compute",
	 .fn = scope_draw_not_compute,
	 .spec = "18.4: the graphics counters of a draw in a pool that also counts compute "
		 "invocations (values in bit order); the compute counter: "
		 VKQS_SPEC_STATS_MISSING_STAGE},
	{.name = "scope.spans_render_passes",
	 .fn = scope_spans_render_passes,
	 .spec = "18.2: a query may contain entire render pass instances; clears and "
		 "attachment load/store operations may count towards the results"},
	{.name = "scope.results_unchanged_by_reads",
	 .fn = scope_results_unchanged_by_reads,
	 .spec = "18.2: each query has state to store the numerical results; only a reset "
		 "makes them undefined; vkGetQueryPoolResults and vkCmdCopyQueryPoolResults "
		 "retrieve them (reading twice gives the same values)"},
};

VKQS_GROUP(stats, scope, cases);
