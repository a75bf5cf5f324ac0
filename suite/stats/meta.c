/* vkqs.stats.meta.*: clears, blits, resolves and copies inside a statistics
 * query, between two render pass instances with one draw each.
 *
 * 18.2: "Rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits may count towards the results of
 * queries.  This behavior is implementation-dependent".  So a counter above
 * what the two draws give is CompatibilityWarning, never Fail (radv fixed
 * counting its internal clears, 738a6760e37; nvk its meta operations,
 * Mesa 25.0.5 release notes: applications see the extra counts).  The two
 * draws' own counts stay musts: a driver that switches counting off for an
 * internal operation and not back on loses the second draw, which fails
 * (fault counting_off_after_meta_operation). */
#include "stats.h"
#include "metaop.h"

static void meta_between_draws(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_meta_op op = *(const enum vkqs_meta_op *)param;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);

	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	vkqs_target_end(ctx, g.cb);
	vkqs_cmd_meta_op(ctx, g.cb, op);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RB);
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_gfx_submit(ctx, &g);

	char scene[128];
	snprintf(scene, sizeof(scene), "a draw, %s, a draw (two render pass instances)",
		 vkqs_meta_op_command(op));
	struct expect e = stats_expect_zero(scene);
	stats_add_rect_draw(ctx, &e, RA, 1);
	stats_add_rect_draw(ctx, &e, RB, 1);
	stats_loosen_for_clears(&e);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static const struct vkqs_case cases[] = {
	{.name = "meta.between_draws",
	 .fn = meta_between_draws,
	 .spec = COUNTERS_SPEC "; 18.2: clears, resolves and blits may count towards the results "
		 "of queries (more than the two draws: CompatibilityWarning; fewer: Fail)",
	 .params = VKQS_PARAMS(vkqs_meta_ops, vkqs_meta_op_param_name)},
};

VKQS_GROUP(stats, meta, cases);
