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

/* Real drivers have written a compute queue's statistics at query 0
 * whatever the index (radv a9945216ba2): 18.2 vkCmdBeginQuery "query is the
 * query index within the query pool that will contain the results".  On
 * the compute-only family, two dispatches of different sizes in queries 2
 * and 6 of an 8-query pool; the other six were reset and never begun.
 * Read back with vkGetQueryPoolResults, and copied by a command recorded on
 * the same compute-only queue (anv once broke copies there: 983b62ea500):
 * each query holds its own dispatch's count at its own index, the others
 * are unavailable. */
static void compute_only_queue_indices(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	enum { COUNT = 8, QA = 2, QB = 6 };
	stats_require_stats(ctx);
	struct vkqs_queue *q = vkqs_require_queue(ctx, &ctx->vk->compute, "compute-only");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, COUNT, BIT(CS));
	struct comp *c = stats_compute_setup(ctx, 256);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, COUNT);
	stats_compute_bind(ctx, cb, c);
	D->vkCmdBeginQuery(cb, pool, QA, 0);
	D->vkCmdDispatch(cb, 3, 2, 1);
	D->vkCmdEndQuery(cb, pool, QA);
	stats_compute_barrier(ctx, cb);
	D->vkCmdBeginQuery(cb, pool, QB, 0);
	D->vkCmdDispatch(cb, 2, 3, 4);
	D->vkCmdEndQuery(cb, pool, QB);
	stats_compute_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, q, cb);
	/* After the fence both must be available (no WAIT: a driver that
	 * wrote them elsewhere would never make them so). */
	static const uint32_t ran[2] = {QA, QB};
	for (uint32_t k = 0; k < 2; k++) {
		uint32_t i = ran[k];
		uint64_t v[2] = {0, 0};
		VkResult r = D->vkGetQueryPoolResults(DEV, pool, i, 1, sizeof(v), v, sizeof(v),
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		VKQS_EXPECTF(ctx, r == VK_SUCCESS && v[1] != 0,
			     "query %u is unavailable after the submission completed (%s, "
			     "availability %" PRIu64 "): its results were not written at its index",
			     i, vkqs_vk_result_name(r), v[1]);
		if (r != VK_SUCCESS || !v[1])
			return;
	}
	struct expect ea = stats_expect_zero("query 2: vkCmdDispatch (3, 2, 1) on the compute-only queue");
	stats_add_dispatch(&ea, 3, 2, 1);
	stats_check_query(ctx, pool, QA, BIT(CS), &ea);
	struct expect eb = stats_expect_zero("query 6: vkCmdDispatch (2, 3, 4) on the compute-only queue");
	stats_add_dispatch(&eb, 2, 3, 4);
	stats_check_query(ctx, pool, QB, BIT(CS), &eb);
	/* the dispatches ran: the (3, 2, 1) dispatch's 48 words were
	 * written by both, those up to 2 x 3 x 4 x 8 = 192 by the second */
	vkqs_buffer_invalidate(ctx, c->buf);
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t want = i < 48 ? 2 : i < 192 ? 1 : 0, got = ((const uint32_t *)c->buf->map)[i];
		VKQS_EXPECTF(ctx, got == want, "word %u of the dispatches' buffer: %u, expected %u",
			     i, got, want);
		if (got != want)
			break;
	}
	for (uint32_t i = 0; i < COUNT; i++) {
		if (i == QA || i == QB)
			continue;
		uint64_t v[2] = {0, 0};
		VkResult r = D->vkGetQueryPoolResults(DEV, pool, i, 1, sizeof(v), v, sizeof(v),
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		vkqs_expect_not_ready(ctx, r, "a reset query never begun");
		VKQS_EXPECTF(ctx, v[1] == 0,
			     "query %u, reset and never begun, reads available (value %" PRIu64
			     "): another query's results landed there", i, v[0]);
	}
	/* the copy, recorded on the compute-only queue */
	const VkDeviceSize stride = 2 * sizeof(uint64_t);
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, COUNT * stride, 0);
	memset(dst->map, 0xa5, COUNT * stride);
	vkqs_buffer_flush(ctx, dst);
	cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, COUNT, dst->buf, 0, stride,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	vkqs_cmd_to_host_barrier(ctx, cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				 VK_ACCESS_TRANSFER_WRITE_BIT);
	vkqs_cmd_submit_wait(ctx, q, cb);
	vkqs_buffer_invalidate(ctx, dst);
	const uint64_t *w = (const uint64_t *)dst->map;
	uint64_t got[2] = {0, 0};
	stats_get_values(ctx, pool, QA, 1, BIT(CS), true, &got[0]);
	stats_get_values(ctx, pool, QB, 1, BIT(CS), true, &got[1]);
	for (uint32_t i = 0; i < COUNT; i++) {
		bool used = i == QA || i == QB;
		VKQS_EXPECTF(ctx, (w[2 * i + 1] != 0) == used,
			     "copy on the compute-only queue: query %u's availability word is %" PRIu64
			     " (%s)", i, w[2 * i + 1], used ? "its query ran" : "reset, never begun");
		if (used)
			VKQS_EXPECTF(ctx, w[2 * i] == got[i == QB],
				     "copy on the compute-only queue: query %u holds %" PRIu64
				     ", vkGetQueryPoolResults %" PRIu64, i, w[2 * i], got[i == QB]);
	}
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
	{.name = "compute.compute_only_queue_indices",
	 .fn = compute_only_queue_indices,
	 .spec = "18.2 vkCmdBeginQuery: \"query is the query index within the query pool that "
		 "will contain the results\"; vkCmdCopyQueryPoolResults on a compute-only queue; "
		 CS_SPEC},
};

VKQS_GROUP(stats, compute, cases);
