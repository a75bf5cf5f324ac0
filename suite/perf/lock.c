/* vkqs.perf: the profiling lock (perf.h; the area: perf.c). */
#include "perf.h"

/* The profiling lock ------------------------------------------------------------------*/

static VkResult acquire(struct vkqs_ctx *ctx, uint64_t timeout_ns)
{
	VkAcquireProfilingLockInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR,
		.timeout = timeout_ns,
	};
	return D->vkAcquireProfilingLockKHR(DEV, &info);
}

/* Starts a second process holding the lock; NotSupported when it cannot
 * get it (held elsewhere all that time). */
static struct vkqs_lock_holder *hold_elsewhere(struct vkqs_ctx *ctx)
{
	char why[256];
	struct vkqs_lock_holder *h = vkqs_lock_holder_start(ctx, LOCK_WAIT_MS, why, sizeof(why));
	if (!h)
		vkqs_skip(ctx, "a second process could not take the profiling lock: %s", why);
	return h;
}

/* VK_SUCCESS while another process holds the lock: legal ("may allow
 * multiple actors"), and then nothing below can be checked. */
static void shared_lock(struct vkqs_ctx *ctx)
{
	D->vkReleaseProfilingLockKHR(DEV);
	vkqs_skip(ctx, "the device let this process take the profiling lock while another process "
		       "holds it (18.6.1: implementations may allow multiple actors)");
}

static void lock_reacquire(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	for (int i = 0; i < 3; i++) {
		VkResult r = vkqs_acquire_profiling_lock(D, DEV, LOCK_WAIT_MS);
		if (r == VK_TIMEOUT)
			vkqs_skip(ctx, "the profiling lock stayed held elsewhere for %u ms", LOCK_WAIT_MS);
		VKQS_ASSERTF(ctx, r == VK_SUCCESS, "acquisition %d returned %s", i + 1,
			     vkqs_vk_result_name(r));
		D->vkReleaseProfilingLockKHR(DEV);
	}
}

/* timeout 0 while another process holds the lock: VK_TIMEOUT, at once. */
static void lock_timeout_zero(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	hold_elsewhere(ctx);
	uint64_t t0 = vkqs_now_ns();
	VkResult r = acquire(ctx, 0);
	uint64_t dt = vkqs_now_ns() - t0;
	if (r == VK_SUCCESS)
		shared_lock(ctx);
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
	/* "will not block": a few milliseconds of a loaded machine at most */
	VKQS_EXPECTF(ctx, dt < 50000000u, "timeout 0 returned after %.1f ms", dt / 1e6);
}

/* A finite timeout while held elsewhere: VK_TIMEOUT after about that time
 * (not before it; at most 500 ms late on a loaded machine). */
static const uint32_t timeouts_ms[] = {1, 20, 100, 300};
static void timeout_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_ms", *(const uint32_t *)p);
}
static void lock_timeout_finite(struct vkqs_ctx *ctx, const void *param)
{
	uint64_t ms = *(const uint32_t *)param;
	perf_require(ctx);
	hold_elsewhere(ctx);
	uint64_t t0 = vkqs_now_ns();
	VkResult r = acquire(ctx, ms * 1000000u);
	uint64_t dt = vkqs_now_ns() - t0;
	if (r == VK_SUCCESS)
		shared_lock(ctx);
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
	VKQS_EXPECTF(ctx, dt >= ms * 1000000u, "VK_TIMEOUT after %.2f ms of a %" PRIu64 " ms timeout",
		     dt / 1e6, ms);
	VKQS_EXPECTF(ctx, dt <= ms * 1000000u + 500000000u,
		     "VK_TIMEOUT after %.1f ms of a %" PRIu64 " ms timeout", dt / 1e6, ms);
}

/* A waiter gets the lock when the holder releases it: not before (Fail);
 * with a finite timeout or UINT64_MAX.  "Soon after" (2 s) is no sentence
 * of the spec, and a loaded machine delays the waiter: a QualityWarning
 * (docs/verdicts.md "Times on a real clock"). */
static const bool infinite[] = {false, true};
static void infinite_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "uint64_max" : "finite_timeout");
}
static void lock_waiter_gets_it(struct vkqs_ctx *ctx, const void *param)
{
	bool inf = *(const bool *)param;
	perf_require(ctx);
	struct vkqs_lock_holder *h = hold_elsewhere(ctx);
	VkResult probe = acquire(ctx, 0);
	if (probe == VK_SUCCESS)
		shared_lock(ctx);
	vkqs_lock_holder_release(ctx, h, 200);
	VkResult r = acquire(ctx, inf ? UINT64_MAX : 20ull * 1000000000u);
	uint64_t got = vkqs_now_ns();
	uint64_t released = vkqs_lock_holder_wait(ctx, h);
	VKQS_ASSERT_VK(ctx, r, VK_SUCCESS);
	D->vkReleaseProfilingLockKHR(DEV);
	VKQS_ASSERTF(ctx, released != 0, "the holder did not report its release");
	VKQS_EXPECTF(ctx, got >= released, "the lock was acquired %.2f ms before the holder released it",
		     (released - got) / 1e6);
	if (got >= released && got - released >= 2000000000u)
		vkqs_quality_warning(ctx, "the lock was acquired %.1f ms after the holder released it",
				     (got - released) / 1e6);
}

/* Two devices of this process: the second waits for the first's lock. */
static void lock_second_device(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	perf_lock(ctx);
	struct vkqs_vk *other = vkqs_alloc(ctx, sizeof(*other));
	memset(other, 0, sizeof(*other));
	char err[256];
	char idx[16];
	snprintf(idx, sizeof(idx), "%u", ctx->vk->index);
	if (!vkqs_vk_create(other, idx, false, err, sizeof(err)))
		vkqs_internal_error(ctx, "a second device: %s", err);
	VkAcquireProfilingLockInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR, .timeout = 0};
	VkResult r = other->d.vkAcquireProfilingLockKHR(other->device, &info);
	if (r == VK_SUCCESS)
		other->d.vkReleaseProfilingLockKHR(other->device);
	vkqs_vk_destroy(other);
	if (r == VK_SUCCESS)
		vkqs_skip(ctx, "a second device took the profiling lock while the first holds it "
			       "(18.6.1: implementations may allow multiple actors)");
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
}

/* Recorded and submitted several times while held: each submission's
 * results are its own. */
static void lock_resubmit_while_held(struct vkqs_ctx *ctx, const void *param)
{
	struct perf_one o = perf_one(ctx, "draws", 1);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, o.pool, 0, 0);
	perf_scene_draw(ctx, cb, &o.s, 2, 6, 4, 4);
	D->vkCmdEndQuery(cb, o.pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	for (int round = 0; round < 3; round++) {
		if (round) {
			VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
			D->vkCmdResetQueryPool(rb, o.pool, 0, 1);
			vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
		}
		perf_submit(ctx, cb, o.passes);
		result_t r;
		perf_results(ctx, o.pool, 0, 1, 1, &r);
		VKQS_EXPECTF(ctx, perf_uint_of(o.pf, o.c, r) == 2, "submission %d: %" PRIu64 " draws, 2 recorded",
			     round + 1, perf_uint_of(o.pf, o.c, r));
	}
}

static const struct vkqs_case cases[] = {
	ROW("lock.reacquire", lock_reacquire,
	    "18.6.1: vkAcquireProfilingLockKHR after vkReleaseProfilingLockKHR"),
	ROW("lock.timeout_zero_held_elsewhere", lock_timeout_zero, SPEC_LOCK),
	{"lock.timeout_held_elsewhere", lock_timeout_finite, SPEC_LOCK,
	 VKQS_PARAMS(timeouts_ms, timeout_name)},
	{"lock.waiter_acquires_on_release", lock_waiter_gets_it, SPEC_LOCK,
	 VKQS_PARAMS(infinite, infinite_name)},
	ROW("lock.second_device", lock_second_device, SPEC_LOCK),
	ROW("lock.resubmit_while_held", lock_resubmit_while_held,
	    "18.6.1: the lock held while the command buffer is executable or pending"),
};

VKQS_GROUP(perf, lock, cases);
