/* vkqs.perf: multi-pass submission, scopes, secondaries (perf.h; the area: perf.c). */
#include "perf.h"

/* Passes --------------------------------------------------------------------------*/

/* Work that differs per pass: an indirect draw whose vertex count the host
 * changes between the submissions of the same command buffer (6 * (p + 1)
 * vertices in pass p).  A counter is collected in one pass: its value is
 * one pass's work, never a sum of several. */
static void multipass_own_pass(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t vi = perf_named(ctx, pf, "vertex_invocations");
	uint32_t *idx = vkqs_alloc(ctx, pf->count * sizeof(*idx));
	for (uint32_t i = 0; i < pf->count; i++)
		idx[i] = i;
	uint32_t passes = perf_passes(ctx, pf, idx, pf->count);
	if (passes < 2)
		vkqs_skip(ctx, "all counters fit in one pass");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	struct vkqs_buffer *ind = vkqs_buffer_host(ctx, sizeof(VkDrawIndirectCommand),
						   VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	uint32_t np;
	VkQueryPool pool = perf_pool(ctx, pf, idx, pf->count, 1, &np);
	ctx->vk->inst.perf_passes = true;
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin(ctx, cb, s.t, 1.0f);
	struct vkqs_rect_push pc = {{0, 0, 4, 4}, {SIZE, SIZE}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, s.p, &pc);
	D->vkCmdDrawIndirect(cb, ind->buf, 0, 1, sizeof(VkDrawIndirectCommand));
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	for (uint32_t p = 0; p < np; p++) {
		VkDrawIndirectCommand cmd = {6 * (p + 1), 1, 0, 0};
		memcpy(ind->map, &cmd, sizeof(cmd));
		vkqs_buffer_flush(ctx, ind);
		VkPerformanceQuerySubmitInfoKHR ps = {
			.sType = VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR,
			.counterPassIndex = p,
		};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ps,
				   .commandBufferCount = 1, .pCommandBuffers = &cb};
		VkFence f = vkqs_fence(ctx);
		VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &si, f));
		vkqs_fence_wait(ctx, f);
	}
	ctx->vk->inst.perf_passes = false;
	result_t *r = vkqs_alloc(ctx, pf->count * sizeof(*r));
	perf_results(ctx, pool, 0, 1, pf->count, r);
	uint64_t v = perf_uint_of(pf, vi, r[vi]);
	VKQS_EXPECTF(ctx, v % 6 == 0 && v >= 6 && v <= 6u * np,
		     "vertex_invocations is %" PRIu64 ": not the 6 x (p + 1) vertices of one of the %u "
		     "passes (a sum over passes?)", v, np);
	for (uint32_t i = 0; i < pf->count; i++)
		perf_check_typed(ctx, pf, i, r[i], "all counters, per-pass work");
}

/* The passes as batches of one vkQueueSubmit, or of vkQueueSubmit2. */
static void multipass_batches(struct vkqs_ctx *ctx, const void *param)
{
	bool sync2 = *(const bool *)param;
	struct perf *pf = perf_require(ctx);
	if (sync2 && !ctx->vk->f13.synchronization2)
		vkqs_skip(ctx, "synchronization2 is not enabled");
	uint32_t c = perf_named(ctx, pf, "draws");
	uint32_t *idx = vkqs_alloc(ctx, pf->count * sizeof(*idx));
	idx[0] = c;
	uint32_t n = 1;
	for (uint32_t i = 0; i < pf->count; i++)
		if (i != c)
			idx[n++] = i;
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	/* pending in one batch while submitted in the next */
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx,
						  VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	perf_scene_draw(ctx, cb, &s, 3, 6, 4, 4);
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	VkPerformanceQuerySubmitInfoKHR *ps = vkqs_alloc(ctx, passes * sizeof(*ps));
	VkFence f = vkqs_fence(ctx);
	ctx->vk->inst.perf_passes = true;
	ctx->vk->inst.perf_pass_batches = true;
	if (sync2) {
		VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
						 .commandBuffer = cb};
		VkSubmitInfo2 *si = vkqs_alloc(ctx, passes * sizeof(*si));
		for (uint32_t p = 0; p < passes; p++) {
			ps[p] = (VkPerformanceQuerySubmitInfoKHR){
				VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR, NULL, p};
			si[p] = (VkSubmitInfo2){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .pNext = &ps[p],
						.commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi};
		}
		VKQS_CHECK(ctx, D->vkQueueSubmit2(ctx->vk->gfx.queue, passes, si, f));
	} else {
		VkSubmitInfo *si = vkqs_alloc(ctx, passes * sizeof(*si));
		for (uint32_t p = 0; p < passes; p++) {
			ps[p] = (VkPerformanceQuerySubmitInfoKHR){
				VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR, NULL, p};
			si[p] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ps[p],
					       .commandBufferCount = 1, .pCommandBuffers = &cb};
		}
		VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, passes, si, f));
	}
	vkqs_fence_wait(ctx, f);
	ctx->vk->inst.perf_passes = false;
	ctx->vk->inst.perf_pass_batches = false;
	result_t *r = vkqs_alloc(ctx, n * sizeof(*r));
	perf_results(ctx, pool, 0, 1, n, r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, c, r[0]), 3);
	for (uint32_t i = 0; i < n; i++)
		perf_check_typed(ctx, pf, idx[i], r[i], "passes as batches of one submission");
}
static const bool submit_kinds[] = {false, true};
static void submit_kind_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "queue_submit2" : "queue_submit");
}

/* One pass and no VkPerformanceQuerySubmitInfoKHR: "the batch defaults to
 * use counter pass index 0". */
static void multipass_default_pass(struct vkqs_ctx *ctx, const void *param)
{
	struct perf_one o = perf_one(ctx, "draws", 1);
	if (o.passes != 1)
		vkqs_skip(ctx, "\"draws\" alone needs %u passes", o.passes);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, o.pool, 0, 0);
	perf_scene_draw(ctx, cb, &o.s, 4, 6, 4, 4);
	D->vkCmdEndQuery(cb, o.pool, 0);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	result_t r;
	perf_results(ctx, o.pool, 0, 1, 1, &r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(o.pf, o.c, r), 4);
}

/* Scopes -----------------------------------------------------------------------------*/

/* COMMAND_BUFFER: begun first, ended last; RENDER_PASS: around a render
 * pass instance, not first; COMMAND: inside a render pass around a draw. */
static const VkPerformanceCounterScopeKHR scopes[] = {
	VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR,
	VK_PERFORMANCE_COUNTER_SCOPE_RENDER_PASS_KHR,
	VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR,
};
static void scope_name(const void *p, char *b, size_t n)
{
	static const char *const names[] = {"command_buffer", "render_pass", "command"};
	snprintf(b, n, "%s", names[*(const VkPerformanceCounterScopeKHR *)p]);
}
static void scope_counters(struct vkqs_ctx *ctx, const void *param)
{
	VkPerformanceCounterScopeKHR scope = *(const VkPerformanceCounterScopeKHR *)param;
	struct perf *pf = perf_require(ctx);
	uint32_t idx[MAX_COUNTERS];
	uint32_t n = perf_of_scope(ctx, pf, scope, idx, MAX_COUNTERS);
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = perf_cmd(ctx);
	if (scope == VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR) {
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		perf_scene_draw(ctx, cb, &s, 2, 6, 8, 8);
		D->vkCmdEndQuery(cb, pool, 0);
	} else if (scope == VK_PERFORMANCE_COUNTER_SCOPE_RENDER_PASS_KHR) {
		perf_scene_draw(ctx, cb, &s, 1, 6, 8, 8);
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		perf_scene_draw(ctx, cb, &s, 2, 6, 8, 8);
		D->vkCmdEndQuery(cb, pool, 0);
		perf_scene_draw(ctx, cb, &s, 1, 6, 8, 8);
	} else {
		vkqs_target_begin(ctx, cb, s.t, 1.0f);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		D->vkCmdEndQuery(cb, pool, 0);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		vkqs_target_end(ctx, cb);
	}
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	result_t r[MAX_COUNTERS];
	perf_results(ctx, pool, 0, 1, n, r);
	for (uint32_t k = 0; k < n; k++) {
		perf_check_typed(ctx, pf, idx[k], r[k], "scope");
		/* the named pipeline counters count only what the query spans */
		if (!strcmp(pf->d[idx[k]].name, "draws"))
			VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, idx[k], r[k]),
				       scope == VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR ? 1 : 2);
	}
}

/* A query begun and ended in a secondary command buffer, around a fill. */
static void secondary_query(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "bytes_transferred");
	if (pf->c[c].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR)
		vkqs_skip(ctx, "\"bytes_transferred\" is not of COMMAND scope");
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, NULL, 0, NULL);
	D->vkCmdBeginQuery(sec, pool, 0, 0);
	D->vkCmdFillBuffer(sec, b->buf, 0, 2048, 1);
	D->vkCmdEndQuery(sec, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(sec));
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdFillBuffer(cb, b->buf, 2048, 1024, 2);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	result_t r;
	perf_results(ctx, pool, 0, 1, 1, &r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, c, r), 2048);
}

static const struct vkqs_case cases[] = {
	ROW("multipass.counter_in_its_pass", multipass_own_pass, SPEC_PASSES),
	{"multipass.batches", multipass_batches, SPEC_PASSES,
	 VKQS_PARAMS(submit_kinds, submit_kind_name)},
	ROW("multipass.default_pass_zero", multipass_default_pass,
	    "VkPerformanceQuerySubmitInfoKHR absent: counter pass index 0"),
	{"scope.counters", scope_counters,
	 "VUID-vkCmdBeginQuery-queryPool-03224 / 03225: the scopes' begin and end rules",
	 VKQS_PARAMS(scopes, scope_name)},
	ROW("secondary.query_in_secondary", secondary_query,
	    "18.6: a performance query begun and ended in a secondary command buffer"),
};

VKQS_GROUP(perf, multipass, cases);
