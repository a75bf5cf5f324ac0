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
};
VKQS_AREA(selftest, cases);
