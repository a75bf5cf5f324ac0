/* Test-only cases for the runner's own tests (listed only with
 * VKQS_SELFTEST=1): a crash and a hang inside the driver, a flake, a
 * validation error; and the reference device's worked example of its cost
 * model.  Not a statement about any other driver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proflock.h"
#include "vkutil.h"

static void pass(struct vkqs_ctx *ctx, const void *param)
{
	VKQS_EXPECT_EQ(ctx, 2 + 2, 4);
}

/* A failure beside a note (an undefined value: no verdict); with
 * VKQS_SELFTEST_SECOND=1 a second failure too, as a new bug beside a
 * known one (tests/runner_robust.sh pinned). */
static void fail(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_report(ctx, VKQS_PASS, __FILE__, __LINE__, "value 3 is undefined, no verdict");
	VKQS_EXPECT_EQ(ctx, 2 + 2, 5);
	const char *second = getenv("VKQS_SELFTEST_SECOND");
	if (second && !strcmp(second, "1"))
		VKQS_EXPECTF(ctx, false, "a second bug: value %d", 7);
}

/* An order-dependent failure, as a driver that keeps state across
 * submissions gives one: the spoiler leaves state in the process, the
 * victim fails after it and passes alone.  Only with VKQS_SELFTEST_ORDER=1
 * (tests/runner_robust.sh order); otherwise both pass. */
static bool order_spoiled;

static void order_spoiler(struct vkqs_ctx *ctx, const void *param)
{
	order_spoiled = true;
	VKQS_EXPECT_EQ(ctx, 2 + 2, 4);
}

static void order_victim(struct vkqs_ctx *ctx, const void *param)
{
	const char *on = getenv("VKQS_SELFTEST_ORDER");
	VKQS_EXPECTF(ctx, !(on && !strcmp(on, "1") && order_spoiled),
		     "state left by vkqs.selftest.runner.order_spoiler in this process");
}

static void not_supported(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_skip(ctx, "self-test of NotSupported");
}

/* A bad pSubmits pointer makes the driver itself dereference garbage:
 * the crash happens inside vkQueueSubmit, as a driver bug would. */
static void crash_in_driver(struct vkqs_ctx *ctx, const void *param)
{
	fprintf(stderr, "selftest: about to crash inside vkQueueSubmit\n");
	VKQS_D(ctx)->vkQueueSubmit(ctx->vk->gfx.queue, 1, (const VkSubmitInfo *)(uintptr_t)16,
				   VK_NULL_HANDLE);
	VKQS_EXPECT_TRUE(ctx, false);
}

/* Waits without a time limit on a fence nothing will signal: the driver
 * blocks, as in a GPU hang; only the runner's timeout ends it. */
static void hang_in_driver(struct vkqs_ctx *ctx, const void *param)
{
	VkFence f = vkqs_fence(ctx);
	fprintf(stderr, "selftest: about to wait forever inside vkWaitForFences\n");
	VKQS_D(ctx)->vkWaitForFences(VKQS_DEV(ctx), 1, &f, VK_TRUE, UINT64_MAX);
	VKQS_EXPECT_TRUE(ctx, false);
}

/* Fails the first time in a given VKQS_SELFTEST_FLAKE_FILE, passes after. */
static void flaky(struct vkqs_ctx *ctx, const void *param)
{
	const char *path = getenv("VKQS_SELFTEST_FLAKE_FILE");
	if (!path)
		vkqs_skip(ctx, "VKQS_SELFTEST_FLAKE_FILE is not set");
	bool first = access(path, F_OK) != 0;
	if (first) {
		FILE *f = fopen(path, "w");
		if (f)
			fclose(f);
	}
	VKQS_EXPECT_TRUE(ctx, !first);
}

/* queryCount 0 is invalid (VUID-VkQueryPoolCreateInfo-queryCount-02763):
 * with --validation this case must end as Fail naming that VUID. */
static void validation_error(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.queryType = VK_QUERY_TYPE_OCCLUSION,
		.queryCount = 0,
	};
	VkQueryPool pool = VK_NULL_HANDLE;
	VkResult r = VKQS_D(ctx)->vkCreateQueryPool(VKQS_DEV(ctx), &ci, NULL, &pool);
	if (r == VK_SUCCESS && pool)
		VKQS_D(ctx)->vkDestroyQueryPool(VKQS_DEV(ctx), pool, NULL);
	VKQS_EXPECT_TRUE(ctx, true);
}

/* One empty submission, waited for: the unit of work the refdevice's
 * RD_WEDGE_FILE fault counts (tests/runner_selftest.sh wedges the modelled
 * GPU at the Nth). */
static const unsigned submit_params[] = {1, 2, 3, 4, 5, 6, 7, 8};

static void submit_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%u", *(const unsigned *)param);
}

static void submit(struct vkqs_ctx *ctx, const void *param)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_cmd_end(ctx, cb);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, &cb, 1, f);
	vkqs_fence_wait(ctx, f);
	VKQS_EXPECT_EQ(ctx, VKQS_D(ctx)->vkGetFenceStatus(VKQS_DEV(ctx), f), VK_SUCCESS);
}

/* A submission that waits on a timeline value nothing signals (legal:
 * wait-before-signal): its fence never signals, and vkqs_fence_wait must
 * give up after the time --timeout implies, before the runner's kill. */
static void fence_never_signals(struct vkqs_ctx *ctx, const void *param)
{
	if (!ctx->vk->f12.timelineSemaphore)
		vkqs_skip(ctx, "feature timelineSemaphore is not supported");
	VkSemaphoreTypeCreateInfo tci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
					 .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &tci};
	VkSemaphore sem;
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkCreateSemaphore(VKQS_DEV(ctx), &sci, NULL, &sem));
	const uint64_t value = 1;
	const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	VkTimelineSemaphoreSubmitInfo tl = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
					    .waitSemaphoreValueCount = 1,
					    .pWaitSemaphoreValues = &value};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_cmd_end(ctx, cb);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .pNext = &tl,
			   .waitSemaphoreCount = 1,
			   .pWaitSemaphores = &sem,
			   .pWaitDstStageMask = &stage,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cb};
	VkFence f = vkqs_fence(ctx);
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkQueueSubmit(ctx->vk->gfx.queue, 1, &si, f));
	vkqs_fence_wait(ctx, f); /* ends the case: Fail, device presumed lost */
}

#define SELF (VKQS_CASE_SELFTEST)
/* refdevice/README.md "The tiler's clock": the worked example's numbers,
 * from the device itself (default timestampPeriod 1: ticks are ns).  A
 * 64x64 pass of one full-target rectangle; an elapsed timer around the
 * draw, a timestamp pair around it inside the pass, a pair around the
 * pass, each in its own submission. */
static void worked_example(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	if (!strstr(ctx->vk->info.driver_name, "refdevice") || ctx->vk->props.limits.timestampPeriod != 1.0f)
		vkqs_skip(ctx, "the reference device's model at timestampPeriod 1 only");
	vkqs_require_feature(ctx, "VK_QCOM_elapsed_timer_query.elapsedTimerQuery");
	const char *arch = getenv("RD_ARCH"), *tile = getenv("RD_TILE");
	bool tiler = arch && !strcmp(arch, "tiler");
	if (tiler && tile && strcmp(tile, "32x32"))
		vkqs_skip(ctx, "the example is for 32x32 tiles");
	struct vkqs_target *t = vkqs_target_create(ctx, 64, 64, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIME_ELAPSED_QCOM, 1, 0);
	VkQueryPool ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	uint64_t v[3];
	for (int mode = 0; mode < 3; mode++) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		VKQS_D(ctx)->vkCmdResetQueryPool(cb, pool, 0, 1);
		VKQS_D(ctx)->vkCmdResetQueryPool(cb, ts, 0, 2);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		const VkPipelineStageFlagBits bot = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
		if (mode == 2)
			VKQS_D(ctx)->vkCmdWriteTimestamp(cb, bot, ts, 0);
		vkqs_target_begin(ctx, cb, t, 1.0f);
		struct vkqs_rect_push pc = {{0, 0, 64, 64}, {64, 64}, 0.5f, 0};
		vkqs_cmd_bind_rect(ctx, cb, p, &pc);
		if (mode == 0)
			VKQS_D(ctx)->vkCmdBeginQuery(cb, pool, 0, 0);
		if (mode == 1)
			VKQS_D(ctx)->vkCmdWriteTimestamp(cb, bot, ts, 0);
		VKQS_D(ctx)->vkCmdDraw(cb, 6, 1, 0, 0);
		if (mode == 0)
			VKQS_D(ctx)->vkCmdEndQuery(cb, pool, 0);
		if (mode == 1)
			VKQS_D(ctx)->vkCmdWriteTimestamp(cb, bot, ts, 1);
		vkqs_target_end(ctx, cb);
		if (mode == 2)
			VKQS_D(ctx)->vkCmdWriteTimestamp(cb, bot, ts, 1);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
		uint64_t r[2] = {0, 0};
		VKQS_CHECK(ctx, VKQS_D(ctx)->vkGetQueryPoolResults(
					VKQS_DEV(ctx), mode ? ts : pool, 0, mode ? 2 : 1, sizeof(r), r,
					sizeof(r[0]), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
		v[mode] = mode ? r[1] - r[0] : r[0];
	}
	/* immediate: draw 20 + 6 vertices + 4096 + 4096 / 4 fragments, end 20;
	 * the pass 7 x 20 + a 16384-byte clear 163 + the draw's 5126 + the
	 * timestamp's own 20.  Tiler: the README's table. */
	const uint64_t want[3] = {tiler ? 5328u : 5166u, tiler ? 1320u : 5166u,
				  tiler ? 6548u : 5449u};
	static const char *const what[3] = {"elapsed timer around the draw",
					    "timestamp pair around the draw",
					    "timestamp pair around the pass"};
	for (int i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, v[i] == want[i], "%s: %" PRIu64 " ns, the README's %" PRIu64,
			     what[i], v[i], want[i]);
}

/* The reference device documents its profiling lock as held machine-wide
 * (refdevice/README.md "Performance counters"; the spec would also allow
 * several holders): while another process holds it, this one cannot take
 * it, with timeout 0 or a short one. */
static void profiling_lock_machine_wide(struct vkqs_ctx *ctx, const void *param)
{
	if (!vkqs_device_feature(&ctx->vk->info,
				 "VK_KHR_performance_query.performanceCounterQueryPools"))
		vkqs_skip(ctx, "no VK_KHR_performance_query");
	char why[256];
	if (!vkqs_lock_holder_start(ctx, 30000, why, sizeof(why)))
		vkqs_skip(ctx, "a second process could not take the profiling lock: %s", why);
	for (uint64_t ns = 0; ns <= 10000000; ns += 10000000) {
		VkAcquireProfilingLockInfoKHR info = {
			.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR, .timeout = ns};
		VkResult r = VKQS_D(ctx)->vkAcquireProfilingLockKHR(VKQS_DEV(ctx), &info);
		if (r == VK_SUCCESS)
			VKQS_D(ctx)->vkReleaseProfilingLockKHR(VKQS_DEV(ctx));
		VKQS_EXPECTF(ctx, r == VK_TIMEOUT, "timeout %" PRIu64 " ns while another process holds "
						   "the lock: %s", ns, vkqs_vk_result_name(r));
	}
}

/* The reference device's Intel performance query report
 * (refdevice/README.md "Intel performance queries"): its marker word holds
 * the last vkCmdSetPerformanceMarkerINTEL before the query's end (18.10:
 * "The last marker set onto a command buffer before the end of a query will
 * be part of the query result"), the stream marker keeps its valid bits,
 * the configuration is the one set on the queue, and the counts are the
 * draw's: 1 draw, 6 vertices, 64 x 64 fragments and samples. */
static void intel_report(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	if (!strstr(ctx->vk->info.driver_name, "refdevice"))
		vkqs_skip(ctx, "the reference device's report layout only");
	VkInitializePerformanceApiInfoINTEL ii = {
		.sType = VK_STRUCTURE_TYPE_INITIALIZE_PERFORMANCE_API_INFO_INTEL};
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkInitializePerformanceApiINTEL(VKQS_DEV(ctx), &ii));
	VkPerformanceConfigurationAcquireInfoINTEL ai = {
		.sType = VK_STRUCTURE_TYPE_PERFORMANCE_CONFIGURATION_ACQUIRE_INFO_INTEL,
		.type = VK_PERFORMANCE_CONFIGURATION_TYPE_COMMAND_QUEUE_METRICS_DISCOVERY_ACTIVATED_INTEL};
	VkPerformanceConfigurationINTEL config;
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkAcquirePerformanceConfigurationINTEL(VKQS_DEV(ctx), &ai,
									    &config));
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkQueueSetPerformanceConfigurationINTEL(ctx->vk->gfx.queue,
									     config));
	VkQueryPoolPerformanceQueryCreateInfoINTEL pi = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_QUERY_CREATE_INFO_INTEL};
	VkQueryPool pool = vkqs_query_pool_next(ctx, VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL, 1, &pi);
	struct vkqs_target *t = vkqs_target_create(ctx, 64, 64, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &(struct vkqs_pipeline_desc){0});
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	VKQS_D(ctx)->vkCmdResetQueryPool(cb, pool, 0, 1);
	VkPerformanceMarkerInfoINTEL m = {.sType = VK_STRUCTURE_TYPE_PERFORMANCE_MARKER_INFO_INTEL};
	VkPerformanceStreamMarkerInfoINTEL sm = {
		.sType = VK_STRUCTURE_TYPE_PERFORMANCE_STREAM_MARKER_INFO_INTEL, .marker = 0xabcdef};
	VKQS_D(ctx)->vkCmdBeginQuery(cb, pool, 0, 0);
	m.marker = 0x1111;
	VKQS_D(ctx)->vkCmdSetPerformanceMarkerINTEL(cb, &m);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	vkqs_draw_rect(ctx, cb, p, t, 0, 0, 64, 64, 0.5f);
	vkqs_target_end(ctx, cb);
	m.marker = 0x2222;
	VKQS_D(ctx)->vkCmdSetPerformanceMarkerINTEL(cb, &m);
	VKQS_D(ctx)->vkCmdSetPerformanceStreamMarkerINTEL(cb, &sm);
	VKQS_D(ctx)->vkCmdEndQuery(cb, pool, 0);
	m.marker = 0x3333;
	VKQS_D(ctx)->vkCmdSetPerformanceMarkerINTEL(cb, &m);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	uint64_t w[16];
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkGetQueryPoolResults(VKQS_DEV(ctx), pool, 0, 1, sizeof(w), w,
							   sizeof(w), VK_QUERY_RESULT_WAIT_BIT));
	VKQS_D(ctx)->vkReleasePerformanceConfigurationINTEL(VKQS_DEV(ctx), config);
	VKQS_D(ctx)->vkUninitializePerformanceApiINTEL(VKQS_DEV(ctx));
	VKQS_EXPECTF(ctx, (w[0] & 0xffffffffffull) == 0x495158564bull && w[0] >> 48 == 16,
		     "word 0: 0x%llx, the README's magic \"KVXQI\" and 16 words",
		     (unsigned long long)w[0]);
	VKQS_EXPECTF(ctx, w[1] == 0x2222, "marker 0x%llx: the last one before the end is 0x2222",
		     (unsigned long long)w[1]);
	VKQS_EXPECTF(ctx, w[2] == 0xabcdef, "stream marker 0x%llx, set 0xabcdef (24 valid bits)",
		     (unsigned long long)w[2]);
	VKQS_EXPECTF(ctx, w[3] != 0, "configuration id 0 with a configuration set");
	static const struct {
		int word;
		uint64_t want;
		const char *what;
	} counts[] = {{5, 1, "draws"}, {7, 6, "vertex invocations"},
		      {8, 4096, "fragment invocations"}, {10, 4096, "samples passed"},
		      {12, 1, "render passes"}, {14, 0, "overrides"}};
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		VKQS_EXPECTF(ctx, w[counts[i].word] == counts[i].want, "word %d (%s): %llu, want %llu",
			     counts[i].word, counts[i].what, (unsigned long long)w[counts[i].word],
			     (unsigned long long)counts[i].want);
}

static const struct vkqs_case cases[] = {
	{"runner.pass", pass, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.fail", fail, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.not_supported", not_supported, "runner self-test",
	 .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.flaky", flaky, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.order_spoiler", order_spoiler, "runner self-test",
	 .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.order_victim", order_victim, "runner self-test",
	 .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"driver.crash_in_queue_submit", crash_in_driver, "runner self-test", .flags = SELF},
	{"driver.hang_in_wait_for_fences", hang_in_driver, "runner self-test", .flags = SELF},
	{"driver.validation_error", validation_error, "runner self-test", .flags = SELF},
	{"driver.pass_after_crash", pass, "runner self-test", .flags = SELF},
	{"driver.fence_never_signals", fence_never_signals, "runner self-test", .flags = SELF},
	{"refdevice.profiling_lock_machine_wide", profiling_lock_machine_wide,
	 "refdevice/README.md: one profiling lock for every process", .flags = SELF},
	{"refdevice.intel_report", intel_report,
	 "refdevice/README.md: the Intel performance query report", .flags = SELF},
	{"refdevice.worked_example", worked_example,
	 "refdevice/README.md: the tiler's clock, worked example", .flags = SELF},
	{"driver.submit", submit, "runner self-test", VKQS_PARAMS(submit_params, submit_name),
	 .flags = SELF},
};
VKQS_AREA(selftest, cases);
