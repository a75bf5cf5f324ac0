/* Test-only cases for the runner's own tests (listed only with
 * VKQS_SELFTEST=1): a crash and a hang inside the driver, a flake, a
 * validation error.  Not a statement about any driver. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "vkutil.h"

static void pass(struct vkqs_ctx *ctx, const void *param)
{
	VKQS_EXPECT_EQ(ctx, 2 + 2, 4);
}

static void fail(struct vkqs_ctx *ctx, const void *param)
{
	VKQS_EXPECT_EQ(ctx, 2 + 2, 5);
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
static const struct vkqs_case cases[] = {
	{"runner.pass", pass, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.fail", fail, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.not_supported", not_supported, "runner self-test",
	 .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"runner.flaky", flaky, "runner self-test", .flags = SELF | VKQS_CASE_NO_DEVICE},
	{"driver.crash_in_queue_submit", crash_in_driver, "runner self-test", .flags = SELF},
	{"driver.hang_in_wait_for_fences", hang_in_driver, "runner self-test", .flags = SELF},
	{"driver.validation_error", validation_error, "runner self-test", .flags = SELF},
	{"driver.pass_after_crash", pass, "runner self-test", .flags = SELF},
	{"driver.fence_never_signals", fence_never_signals, "runner self-test", .flags = SELF},
	{"driver.submit", submit, "runner self-test", VKQS_PARAMS(submit_params, submit_name),
	 .flags = SELF},
};
VKQS_AREA(selftest, cases);
