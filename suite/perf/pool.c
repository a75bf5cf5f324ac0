/* vkqs.perf: pools and queries: counts, resets, strides, copies (perf.h; the area: perf.c). */
#include "perf.h"
#include "shaders/stats_count_comp.h"

/* Pools and queries -------------------------------------------------------------*/

/* Queries 0..k-1 in one render pass instance, query q around q + 1 draws
 * (COMMAND-scope counters only), all passes. */
static void measure_growing(struct vkqs_ctx *ctx, const struct scene *s, VkQueryPool pool,
			    uint32_t k, uint32_t passes)
{
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t q = 0; q < k; q++) {
		D->vkCmdBeginQuery(cb, pool, q, 0);
		for (uint32_t i = 0; i <= q; i++)
			vkqs_draw_rect(ctx, cb, s->p, s->t, 0, 0, 4, 4, 0.5f);
		D->vkCmdEndQuery(cb, pool, q);
	}
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
}

static const uint32_t query_counts[] = {1, 4, 16};
static void query_count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_queries", *(const uint32_t *)p);
}

/* Query q around q + 1 draws, in one command buffer (COMMAND scope). */
static void pool_queries(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t k = *(const uint32_t *)param;
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "draws");
	if (pf->c[c].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR)
		vkqs_skip(ctx, "\"draws\" is not of COMMAND scope");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, k, &passes);
	measure_growing(ctx, &s, pool, k, passes);
	result_t r[16];
	perf_results(ctx, pool, 0, k, 1, r);
	for (uint32_t q = 0; q < k; q++)
		VKQS_EXPECTF(ctx, perf_uint_of(pf, c, r[q]) == q + 1, "query %u: %" PRIu64 " draws, %u recorded",
			     q, perf_uint_of(pf, c, r[q]), q + 1);
}

/* Two pools in one command buffer (performanceCounterMultipleQueryPools). */
static void pool_two_pools(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	vkqs_require_feature(ctx, MULTI_FEATURE);
	uint32_t a = perf_named(ctx, pf, "draws"), b = perf_named(ctx, pf, "vertex_invocations");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t pa, pb;
	VkQueryPool qa = perf_pool(ctx, pf, &a, 1, 1, &pa), qb = perf_pool(ctx, pf, &b, 1, 1, &pb);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, qa, 0, 0);
	perf_scene_draw(ctx, cb, &s, 2, 6, 4, 4);
	D->vkCmdEndQuery(cb, qa, 0);
	D->vkCmdBeginQuery(cb, qb, 0, 0);
	perf_scene_draw(ctx, cb, &s, 3, 12, 4, 4);
	D->vkCmdEndQuery(cb, qb, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	/* the batch is submitted for the larger pass count of its pools */
	perf_submit(ctx, cb, pa > pb ? pa : pb);
	result_t ra, rb;
	perf_results(ctx, qa, 0, 1, 1, &ra);
	perf_results(ctx, qb, 0, 1, 1, &rb);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, a, ra), 2);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, b, rb), 36);
}

/* Two pools around compute work in one command buffer: 2 dispatches of
 * one workgroup in the first, 3 of 4 workgroups in the second (CTS
 * multiple_pools_compute; its pass count is the larger of the two). */
static void pool_two_pools_compute(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct perf *pf = perf_require(ctx);
	vkqs_require_feature(ctx, MULTI_FEATURE);
	uint32_t a = perf_named(ctx, pf, "dispatches"), b = perf_named(ctx, pf, "compute_invocations");
	perf_lock(ctx);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct vkqs_compute *c = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp),
						     buf, 0, 0);
	uint32_t pa, pb;
	VkQueryPool qa = perf_pool(ctx, pf, &a, 1, 1, &pa), qb = perf_pool(ctx, pf, &b, 1, 1, &pb);
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_cmd_bind_compute(ctx, cb, c);
	D->vkCmdBeginQuery(cb, qa, 0, 0);
	for (int i = 0; i < 2; i++) {
		D->vkCmdDispatch(cb, 1, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	D->vkCmdEndQuery(cb, qa, 0);
	D->vkCmdBeginQuery(cb, qb, 0, 0);
	for (int i = 0; i < 3; i++) {
		D->vkCmdDispatch(cb, 4, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	D->vkCmdEndQuery(cb, qb, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, pa > pb ? pa : pb);
	result_t ra, rb;
	perf_results(ctx, qa, 0, 1, 1, &ra);
	perf_results(ctx, qb, 0, 1, 1, &rb);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, a, ra), 2);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, b, rb), 3u * 4u * 8u);
}

/* Reused after a host or command reset: the second use's values, not a sum. */
static void pool_reuse(struct vkqs_ctx *ctx, const void *param)
{
	bool host = *(const bool *)param;
	struct perf *pf = perf_require(ctx);
	if (host && !ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "hostQueryReset is not enabled");
	uint32_t c = perf_named(ctx, pf, "draws");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	for (uint32_t round = 0; round < 2; round++) {
		if (round) {
			if (host) {
				D->vkResetQueryPool(DEV, pool, 0, 1);
			} else {
				VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
				D->vkCmdResetQueryPool(rb, pool, 0, 1);
				vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
			}
		}
		VkCommandBuffer cb = perf_query_open(ctx, pool);
		perf_scene_draw(ctx, cb, &s, round ? 5 : 2, 6, 4, 4);
		result_t r;
		perf_query_close(ctx, cb, pool, passes, 1, &r);
		VKQS_EXPECTF(ctx, perf_uint_of(pf, c, r) == (round ? 5u : 2u), "use %u: %" PRIu64 " draws, %u recorded",
			     round + 1, perf_uint_of(pf, c, r), round ? 5 : 2);
	}
}
/* A pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR (VK_KHR_maintenance9):
 * "queries in the query pool are initialized on creation and do not need
 * to be reset before first use" (queries.adoc, 1.4.360), whatever the
 * query type.  So a performance query of such a pool, begun, ended and
 * submitted once per pass with no reset anywhere, counts its draws exactly
 * as a reset one does (pool.reuse).  A driver that initializes its
 * per-query state only in a reset counts onto what the pool held (fault
 * create_reset_common_types_only); reading before the first use, which
 * vkqs.reset.create_reset.unavailable_before_use_* does for other types,
 * is not valid here (VUID-vkGetQueryPoolResults-queryType-03231). */
static void pool_create_reset(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "draws");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool_flags(ctx, pf, &c, 1, 1, VK_QUERY_POOL_CREATE_RESET_BIT_KHR,
					   &passes);
	VkCommandBuffer cb = perf_query_open(ctx, pool);
	perf_scene_draw(ctx, cb, &s, 3, 6, 4, 4);
	result_t r;
	perf_query_close(ctx, cb, pool, passes, 1, &r);
	VKQS_EXPECTF(ctx, perf_uint_of(pf, c, r) == 3u,
		     "first use of a performance pool created with "
		     "VK_QUERY_POOL_CREATE_RESET_BIT_KHR, no reset: %" PRIu64 " draws, 3 recorded",
		     perf_uint_of(pf, c, r));
}

/* A reset of queries [2, 4) of a pool of 4 (v3dv reset performance
 * queries from index 0 instead of firstQuery, mesa b2db2e3f33d): 18.2
 * vkResetQueryPool / vkCmdResetQueryPool set "the status of query indices
 * [firstQuery, firstQuery + queryCount - 1] to unavailable", so queries 0
 * and 1 keep their results (read without WAIT: available, 1 and 2 draws),
 * and 2 and 3, used again, count their new draws (5 and 6), not a sum. */
static void pool_reset_range(struct vkqs_ctx *ctx, const void *param)
{
	bool host = *(const bool *)param;
	if (host && !ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "hostQueryReset is not enabled");
	struct perf_one o = perf_one(ctx, "draws", 4);
	measure_growing(ctx, &o.s, o.pool, 4, o.passes);
	if (host) {
		D->vkResetQueryPool(DEV, o.pool, 2, 2);
	} else {
		VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		D->vkCmdResetQueryPool(rb, o.pool, 2, 2);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
	}
	result_t r[4];
	memset(r, GUARD, sizeof(r));
	VkResult kept = D->vkGetQueryPoolResults(DEV, o.pool, 0, 2, 2 * sizeof(result_t), r,
						 sizeof(result_t), 0);
	VKQS_EXPECTF(ctx, kept == VK_SUCCESS && perf_uint_of(o.pf, o.c, r[0]) == 1 &&
				  perf_uint_of(o.pf, o.c, r[1]) == 2,
		     "queries 0 and 1, outside the reset range [2, 4): %s, %" PRIu64 " and %" PRIu64
		     " draws (1 and 2 recorded, still available)",
		     vkqs_vk_result_name(kept), perf_uint_of(o.pf, o.c, r[0]), perf_uint_of(o.pf, o.c, r[1]));
	/* queries 2 and 3 again, around 5 and 6 draws */
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_target_begin(ctx, cb, o.s.t, 1.0f);
	for (uint32_t q = 2; q < 4; q++) {
		D->vkCmdBeginQuery(cb, o.pool, q, 0);
		for (uint32_t i = 0; i < q + 3; i++)
			vkqs_draw_rect(ctx, cb, o.s.p, o.s.t, 0, 0, 4, 4, 0.5f);
		D->vkCmdEndQuery(cb, o.pool, q);
	}
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, o.passes);
	perf_results(ctx, o.pool, 0, 4, 1, r);
	for (uint32_t q = 0; q < 4; q++) {
		uint64_t want = q < 2 ? q + 1 : q + 3;
		VKQS_EXPECTF(ctx, perf_uint_of(o.pf, o.c, r[q]) == want,
			     "query %u after a %s reset of [2, 4) and a second use of 2 and 3: %" PRIu64
			     " draws, %" PRIu64 " recorded in its last use",
			     q, host ? "host" : "command", perf_uint_of(o.pf, o.c, r[q]), want);
	}
}

static const bool reset_kinds[] = {true, false};
static void reset_kind_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "host_reset" : "command_reset");
}

/* A larger stride: the bytes between results stay untouched; results
 * with and without WAIT agree once all passes completed. */
static const uint32_t strides[] = {1, 2, 3};
static void stride_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "stride_plus_%u_results", *(const uint32_t *)p);
}
static void pool_stride(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t extra = *(const uint32_t *)param;
	struct perf_one o = perf_one(ctx, "draws", 3);
	measure_growing(ctx, &o.s, o.pool, 3, o.passes);
	size_t stride = (1 + extra) * sizeof(result_t);
	result_t buf[3 * 4];
	for (int wait = 1; wait >= 0; wait--) {
		memset(buf, GUARD, sizeof(buf));
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, o.pool, 0, 3, 2 * stride + sizeof(result_t), buf,
							 stride, wait ? VK_QUERY_RESULT_WAIT_BIT : 0));
		for (uint32_t q = 0; q < 3; q++) {
			const result_t *r = (const result_t *)((const uint8_t *)buf + q * stride);
			VKQS_EXPECTF(ctx, perf_uint_of(o.pf, o.c, *r) == q + 1, "%s WAIT, query %u: %" PRIu64 " draws, %u recorded",
				     wait ? "with" : "without", q, perf_uint_of(o.pf, o.c, *r), q + 1);
			const uint8_t *gap = (const uint8_t *)(r + 1);
			for (size_t i = 0; q < 2 && i < extra * sizeof(result_t); i++)
				if (gap[i] != GUARD) {
					vkqs_fail(ctx, "byte %zu between results %u and %u was written", i, q, q + 1);
					break;
				}
		}
	}
}

/* vkCmdCopyQueryPoolResults (allowCommandBufferQueryCopies) writes what
 * vkGetQueryPoolResults returns, at dstOffset, nothing around it. */
static const uint32_t copy_offsets[] = {0, 8, 24};
static void copy_offset_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "offset_%u", *(const uint32_t *)p);
}
static void pool_copy(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t off = *(const uint32_t *)param;
	struct perf *pf = perf_require(ctx);
	if (!pf->props.allowCommandBufferQueryCopies)
		vkqs_skip(ctx, "allowCommandBufferQueryCopies is VK_FALSE");
	perf_lock(ctx);
	uint32_t n = pf->count < 4 ? pf->count : 4;
	uint32_t idx[4] = {0, 1, 2, 3};
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = perf_query_open(ctx, pool);
	perf_scene_draw(ctx, cb, &s, 2, 6, 8, 8);
	result_t got[4];
	perf_query_close(ctx, cb, pool, passes, n, got);
	struct vkqs_buffer *b = vkqs_buffer_host(ctx, 256, 0);
	memset(b->map, GUARD, 256);
	vkqs_buffer_flush(ctx, b);
	VkCommandBuffer cc = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cc, pool, 0, 1, b->buf, off, n * sizeof(result_t),
				     VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cc);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cc);
	vkqs_buffer_invalidate(ctx, b);
	VKQS_EXPECTF(ctx, memcmp(b->map + off, got, n * sizeof(result_t)) == 0,
		     "the copied results differ from vkGetQueryPoolResults's");
	for (uint32_t i = 0; i < 256; i++)
		if ((i < off || i >= off + n * sizeof(result_t)) && b->map[i] != GUARD) {
			vkqs_fail(ctx, "byte %u outside the %u results at offset %u was written", i, n, off);
			break;
		}
}

static const struct vkqs_case cases[] = {
	{"pool.queries", pool_queries, "18.6: each query its own counters",
	 VKQS_PARAMS(query_counts, query_count_name)},
	ROW("pool.two_pools", pool_two_pools,
	    "performanceCounterMultipleQueryPools: several performance pools in a command buffer"),
	ROW("pool.two_pools_compute", pool_two_pools_compute,
	    "performanceCounterMultipleQueryPools: several performance pools around dispatches "
	    "in a command buffer, submitted for the larger pass count"),
	{"pool.reset_range", pool_reset_range, "18.2: a reset sets the status of query indices "
	 "[firstQuery, firstQuery + queryCount - 1] to unavailable: the others keep their "
	 "results (performance queries, firstQuery 2)", VKQS_PARAMS(reset_kinds, reset_kind_name)},
	{"pool.reuse", pool_reuse, "vkResetQueryPool / vkCmdResetQueryPool reset a performance "
				   "query for each pass",
	 VKQS_PARAMS(reset_kinds, reset_kind_name)},
	ROW("pool.create_reset_first_use", pool_create_reset,
	    "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies that queries in "
	    "the query pool are initialized on creation and do not need to be reset before first "
	    "use\" (a performance query used without any reset)"),
	{"pool.stride", pool_stride, "18.2: query i at pData + i * stride; nothing else written",
	 VKQS_PARAMS(strides, stride_name)},
	{"pool.copy", pool_copy,
	 "allowCommandBufferQueryCopies: vkCmdCopyQueryPoolResults writes the results at dstOffset",
	 VKQS_PARAMS(copy_offsets, copy_offset_name)},
};

VKQS_GROUP(perf, pool, cases);
