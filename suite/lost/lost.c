/* vkqs.lost.finite.*: the waits that must end on a lost device.
 *
 * Vulkan 1.4.360, devsandqueues.adoc, "Lost Device": "Commands that wait
 * indefinitely for device execution (namely vkDeviceWaitIdle,
 * vkQueueWaitIdle, vkWaitForFences ... with a maximum timeout, and
 * vkGetQueryPoolResults with the VK_QUERY_RESULT_WAIT_BIT bit set in flags)
 * must return in finite time even in the case of a lost device, and return
 * either VK_SUCCESS or VK_ERROR_DEVICE_LOST."  radv shipped a query wait that
 * did not (mesa 86954c766fa): an application that waits on a query after a
 * GPU hang hangs with it.
 *
 * Each case loses the device the way applications do: a compute shader
 * that never ends (suite/shaders/lost_loop.comp), between two timestamps,
 * so the second can never become available.  The loss is observed
 * through bounded fence waits; then the wait under test runs on a thread
 * of its own and must return within the suite's fence timeout (half of
 * --timeout), the bound every other wait of the suite is held to.
 *
 * Where: the refdevice loses itself (its step limit is its watchdog); a
 * GPU only with --induce-device-loss (VKQS_INDUCE_DEVICE_LOSS=1), since a
 * watchdog reset can disturb every process on that GPU.  A device that is
 * not lost within half the fence timeout (no watchdog) is released by a
 * transfer or compute queue writing the stop word, and the case is
 * NotSupported: the spec does not say that an endless shader loses a
 * device.  On an NVIDIA H200 (580.159.04) no watchdog stops the shader and
 * the release by another queue ends it (the GPU is healthy after); a host
 * write of the stop word did not reach it, and once its process was
 * killed that GPU completed no further submission of any process: the
 * machine had to be replaced.  The device is lost afterwards
 * in any case, so the case's process ends with it (ctx->poisoned) and its
 * objects are not destroyed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "shaders/lost_loop_comp.h"
#include "util.h"
#include "verdict.h"
#include "vkutil.h"

#define D VKQS_D(ctx)
#define DEV VKQS_DEV(ctx)

enum lost_wait { W_QUERY_RESULTS, W_FENCE, W_QUEUE_IDLE, W_DEVICE_IDLE };

struct lost {
	VkQueryPool pool;
	VkFence fence;
	struct vkqs_buffer *buf;
	double lost_at; /* vkqs_monotonic_s() when the loss was seen */
	const char *seen_by;
};

/* A device with no watchdog: another queue writes the stop word while the
 * shader runs (unsynchronized on purpose: the only way in), then the
 * shader's fence is waited for, half the fence timeout.  Returns that
 * wait's result (VK_TIMEOUT: the shader still runs). */
static VkResult release(struct vkqs_ctx *ctx, struct lost *l)
{
	struct vkqs_queue *rq = ctx->vk->transfer.queue ? &ctx->vk->transfer
				: ctx->vk->compute.queue ? &ctx->vk->compute
							 : NULL;
	if (rq) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, rq);
		D->vkCmdFillBuffer(cb, l->buf->buf, 0, 4, 1);
		vkqs_cmd_end(ctx, cb);
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
				   .commandBufferCount = 1,
				   .pCommandBuffers = &cb};
		(void)D->vkQueueSubmit(rq->queue, 1, &si, VK_NULL_HANDLE);
		ctx->defer = NULL; /* still in use: never destroyed */
	}
	return D->vkWaitForFences(DEV, 1, &l->fence, VK_TRUE, ctx->vk->fence_timeout_ns / 2);
}

/* The device is lost (or the case ends NotSupported). */
static void lose_device(struct vkqs_ctx *ctx, struct lost *l)
{
	const char *opt = getenv("VKQS_INDUCE_DEVICE_LOSS");
	if (strcmp(ctx->vk->info.driver_name, VKQS_REFDEVICE_DRIVER_NAME) != 0 &&
	    !(opt && !strcmp(opt, "1")))
		vkqs_skip(ctx, "device loss is induced only on the refdevice, or with "
			       "--induce-device-loss (a GPU's watchdog reset can disturb every "
			       "process using it)");
	/* whatever happens now, the next case gets a fresh process */
	ctx->poisoned = true;
	struct vkqs_queue *q = &ctx->vk->gfx;
	/* device-local: a release written by another queue reaches the shader
	 * through the device's own caches (a host write did not, on an H200) */
	l->buf = vkqs_buffer_device(ctx, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
						     VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	struct vkqs_compute *c =
		vkqs_compute_create(ctx, lost_loop_comp, sizeof(lost_loop_comp), l->buf, 0, 0);
	l->pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, l->pool, 0, 2);
	D->vkCmdFillBuffer(cb, l->buf->buf, 0, 64, 0);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, l->pool, 0);
	vkqs_cmd_bind_compute(ctx, cb, c);
	D->vkCmdDispatch(cb, 1, 1, 1);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, l->pool, 1);
	vkqs_cmd_end(ctx, cb);
	l->fence = vkqs_fence(ctx);
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			   .commandBufferCount = 1,
			   .pCommandBuffers = &cb};
	VkResult r = D->vkQueueSubmit(q->queue, 1, &si, l->fence);
	/* from here on the objects may be in use by a device that never
	 * finishes: none is destroyed (the process ends after the case) */
	ctx->defer = NULL;
	if (r == VK_ERROR_DEVICE_LOST) {
		l->lost_at = vkqs_monotonic_s();
		l->seen_by = "vkQueueSubmit";
		return;
	}
	VKQS_ASSERT_VK(ctx, r, VK_SUCCESS);
	/* bounded waits until the loss shows, at most half the fence timeout
	 * (the release below may take the other half, all within --timeout) */
	const double t0 = vkqs_monotonic_s(), limit = ctx->vk->fence_timeout_ns / 2e9;
	for (;;) {
		r = D->vkWaitForFences(DEV, 1, &l->fence, VK_TRUE, 100000000ull);
		if (r == VK_ERROR_DEVICE_LOST) {
			l->lost_at = vkqs_monotonic_s();
			l->seen_by = "vkWaitForFences";
			vkqs_note(ctx, "the device was lost %.2f s after the endless shader was "
				       "submitted", l->lost_at - t0);
			return;
		}
		if (r == VK_SUCCESS) {
			/* the shader was stopped; lost or not, a submission says */
			VkSubmitInfo none = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO};
			r = D->vkQueueSubmit(q->queue, 1, &none, VK_NULL_HANDLE);
			if (r == VK_ERROR_DEVICE_LOST) {
				l->lost_at = vkqs_monotonic_s();
				l->seen_by = "vkQueueSubmit after the fence";
				return;
			}
			vkqs_skip(ctx, "the endless shader's submission completed and the device "
				       "was not lost (vkQueueSubmit: %s): nothing to wait on",
				  vkqs_vk_result_name(r));
		}
		if (r != VK_TIMEOUT)
			VKQS_ASSERT_VK(ctx, r, VK_TIMEOUT);
		if (vkqs_monotonic_s() - t0 > limit) {
			/* no watchdog: release the shader, and no verdict */
			r = release(ctx, l);
			vkqs_skip(ctx, "the device was not lost %.0f s into a shader that does not "
				       "end (no watchdog); released by another queue writing the stop "
				       "word (fence: %s%s)",
				  limit, vkqs_vk_result_name(r),
				  r == VK_TIMEOUT ? ": the shader still runs, the GPU may stay busy" : "");
		}
	}
}

struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	VkResult r;
	enum lost_wait what;
	struct vkqs_ctx *ctx;
	struct lost *l;
	uint64_t data[4];
};

static void *wait_main(void *arg)
{
	struct waiter *w = arg;
	struct vkqs_ctx *ctx = w->ctx;
	VkResult r = VK_SUCCESS;
	switch (w->what) {
	case W_QUERY_RESULTS:
		/* the timestamp after the endless shader: never available */
		r = D->vkGetQueryPoolResults(DEV, w->l->pool, 1, 1, sizeof(w->data), w->data,
					     sizeof(uint64_t),
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
		break;
	case W_FENCE:
		r = D->vkWaitForFences(DEV, 1, &w->l->fence, VK_TRUE, UINT64_MAX);
		break;
	case W_QUEUE_IDLE:
		r = D->vkQueueWaitIdle(ctx->vk->gfx.queue);
		break;
	case W_DEVICE_IDLE:
		r = D->vkDeviceWaitIdle(DEV);
		break;
	}
	pthread_mutex_lock(&w->lock);
	w->r = r;
	w->done = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* The waits: the case name's token, and the call for messages. */
struct wait_param {
	enum lost_wait what;
	const char *token, *call;
};

static const struct wait_param waits[] = {
	{W_QUERY_RESULTS, "get_results_wait", "vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT"},
	{W_FENCE, "wait_for_fences", "vkWaitForFences with timeout UINT64_MAX"},
	{W_QUEUE_IDLE, "queue_wait_idle", "vkQueueWaitIdle"},
	{W_DEVICE_IDLE, "device_wait_idle", "vkDeviceWaitIdle"},
};

static void wait_suffix(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct wait_param *)param)->token);
}

static void finite_wait(struct vkqs_ctx *ctx, const void *param)
{
	const struct wait_param *p = param;
	/* both outlive the case if the wait never returns: static */
	static struct lost l;
	memset(&l, 0, sizeof(l));
	lose_device(ctx, &l);
	static struct waiter w;
	memset(&w, 0, sizeof(w));
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cond, NULL);
	w.what = p->what;
	w.ctx = ctx;
	w.l = &l;
	pthread_t t;
	VKQS_ASSERT_TRUE(ctx, pthread_create(&t, NULL, wait_main, &w) == 0);
	pthread_detach(t);
	const uint64_t limit_ns = ctx->vk->fence_timeout_ns;
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += (time_t)(limit_ns / 1000000000u);
	dl.tv_nsec += (long)(limit_ns % 1000000000u);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&w.lock);
	while (!w.done && pthread_cond_timedwait(&w.cond, &w.lock, &dl) == 0)
		;
	bool done = w.done;
	VkResult r = w.r;
	pthread_mutex_unlock(&w.lock);
	double took = vkqs_monotonic_s() - l.lost_at;
	if (!VKQS_EXPECTF(ctx, done,
			  "%s had not returned %.1f s after the device was lost (seen by %s): "
			  "it must return in finite time even in the case of a lost device",
			  p->call, took, l.seen_by))
		vkqs_abort_case(ctx); /* the thread still waits: the process ends */
	VKQS_EXPECTF(ctx, r == VK_SUCCESS || r == VK_ERROR_DEVICE_LOST,
		     "%s on a lost device returned %s (%d): the spec allows VK_SUCCESS or "
		     "VK_ERROR_DEVICE_LOST",
		     p->call, vkqs_vk_result_name(r), (int)r);
	vkqs_note(ctx, "%s returned %s %.3f s after the loss (seen by %s)", p->call,
		  vkqs_vk_result_name(r), took, l.seen_by);
}

static const struct vkqs_case cases[] = {
	{.name = "wait.finite",
	 .fn = finite_wait,
	 .spec = "Lost Device: vkDeviceWaitIdle, vkQueueWaitIdle, vkWaitForFences with a maximum "
		 "timeout and vkGetQueryPoolResults with VK_QUERY_RESULT_WAIT_BIT must return in "
		 "finite time even in the case of a lost device, and return either VK_SUCCESS or "
		 "VK_ERROR_DEVICE_LOST",
	 VKQS_PARAMS(waits, wait_suffix)},
};

VKQS_AREA(lost, cases);
