/* vkqs.stats.compute.*: compute shader invocations of dispatches of every dimension,
 * two dispatches and an empty one. */
#include "stats.h"

struct dispatch_param {
	uint32_t x, y, z;
};

static const struct dispatch_param dispatch_params[] = {
	{1, 1, 1},
	{3, 2, 1},
	{2, 3, 4},
};

static void dispatch_name(const void *param, char *buf, size_t size)
{
	const struct dispatch_param *p = param;
	snprintf(buf, size, "%u_%u_%u", p->x, p->y, p->z);
}

/* Reads the one query of a compute pool after `cb` ran on q. */
static void compute_query(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkQueryPool pool,
			  VkCommandBuffer cb, uint32_t mask, const struct expect *e)
{
	vkqs_cmd_submit_wait(ctx, q, cb);
	stats_check_query(ctx, pool, 0, mask, e);
}

/* Pool: every core counter; input assembly and clipping see no draw and
 * stay 0; the vertex and fragment counters' stages are missing from the
 * compute pipeline, so their values are undefined (no verdict). */
static void compute_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	const struct dispatch_param *p = param;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	uint32_t inv = p->x * p->y * p->z * LOCAL_SIZE;
	struct comp *c = stats_compute_setup(ctx, inv + 64);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, p->x, p->y, p->z);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	struct expect e = stats_expect_zero("vkCmdDispatch");
	stats_add_dispatch(&e, p->x, p->y, p->z);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	stats_compute_check_buffer(ctx, c, inv, 1);
}

static void compute_dispatch_indirect(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	VkDispatchIndirectCommand cmd = {3, 2, 1};
	struct vkqs_buffer *args =
		stats_host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	struct comp *c = stats_compute_setup(ctx, 128);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatchIndirect(g.cb, args->buf, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	struct expect e = stats_expect_zero("vkCmdDispatchIndirect (3, 2, 1)");
	stats_add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	stats_compute_check_buffer(ctx, c, 48, 1);
}

/* Two (3, 2, 1) dispatches in one query add up (each adds 1 to the same
 * 48 words: the buffer ends at 2). */
static void compute_two_dispatches(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(CS), 1);
	struct comp *c = stats_compute_setup(ctx, 128);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	stats_compute_barrier(ctx, g.cb);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	struct expect e = stats_expect_zero("two vkCmdDispatch (3, 2, 1)");
	stats_add_dispatch(&e, 3, 2, 1);
	stats_add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	stats_compute_check_buffer(ctx, c, 48, 2);
}

/* A group count of zero dispatches no workgroup, so no invocation has an
 * effect; only 18.4's latitude to "execute additional compute shader
 * invocations" could make the count non-zero (CompatibilityWarning). */
static void compute_zero_groups(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(CS), 1);
	struct comp *c = stats_compute_setup(ctx, 64);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 0, 1, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_compute_barrier(ctx, g.cb);
	struct expect e = stats_expect_zero("vkCmdDispatch (0, 1, 1)");
	stats_use_pipeline(&e, VK_SHADER_STAGE_COMPUTE_BIT);
	stats_add_natural(&e, CS, 0);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	stats_compute_check_buffer(ctx, c, 0, 1);
}

/* 18.4: statistics queries "are available on queue families supporting
 * either graphics or compute operations".  On a compute-only family the
 * pool may hold only compute counters (VUID-vkCmdBeginQuery-queryType-00805
 * forbids graphics ones there). */
static void compute_only_queue(struct vkqs_ctx *ctx, const void *param)
{
	stats_require_stats(ctx);
	struct vkqs_queue *q = vkqs_require_queue(ctx, &ctx->vk->compute, "compute-only");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, BIT(CS));
	struct comp *c = stats_compute_setup(ctx, 128);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);

	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	stats_compute_bind(ctx, cb, c);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDispatch(cb, 3, 2, 1);
	D->vkCmdEndQuery(cb, pool, 0);
	stats_compute_barrier(ctx, cb);
	struct expect e = stats_expect_zero("vkCmdDispatch (3, 2, 1) on the compute-only queue");
	stats_add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, q, pool, cb, BIT(CS), &e);
	stats_compute_check_buffer(ctx, c, 48, 1);
}

static const struct vkqs_case cases[] = {
	{.name = "compute.dispatch",
	 .fn = compute_dispatch,
	 .spec = CS_SPEC,
	 .params = VKQS_PARAMS(dispatch_params, dispatch_name)},
	{.name = "compute.dispatch_indirect",
	 .fn = compute_dispatch_indirect,
	 .spec = CS_SPEC " (group counts read from a buffer)"},
	{.name = "compute.two_dispatches_add",
	 .fn = compute_two_dispatches,
	 .spec = CS_SPEC},
	{.name = "compute.zero_groups",
	 .fn = compute_zero_groups,
	 .spec = CS_SPEC " (a dispatch with a group count of zero invokes nothing)"},
	{.name = "compute.compute_only_queue",
	 .fn = compute_only_queue,
	 .spec = "18.4: pipeline statistics queries are available on queue families "
		 "supporting either graphics or compute operations; " CS_SPEC},
};

VKQS_GROUP(stats, compute, cases);
