#include "gate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vkutil.h"

static void gate_open_locked(struct vkqs_gate *g, bool by_timer)
{
	if (g->open)
		return;
	VkSemaphoreSignalInfo si = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO,
		.semaphore = g->sem,
		.value = 1,
	};
	/* Taken before the signal: the gated work can start as soon as the
	 * signal lands, before vkSignalSemaphore returns. */
	g->opened_ns = vkqs_now_ns();
	g->signal_result = g->signal(g->dev, &si);
	g->open = true;
	g->by_timer = by_timer;
	pthread_cond_broadcast(&g->cond);
}

static void *gate_timer(void *arg)
{
	struct vkqs_gate *g = arg;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t ns = (uint64_t)ts.tv_nsec + g->delay_ns;
	ts.tv_sec += (time_t)(ns / 1000000000ull);
	ts.tv_nsec = (long)(ns % 1000000000ull);
	pthread_mutex_lock(&g->lock);
	while (!g->open)
		if (pthread_cond_timedwait(&g->cond, &g->lock, &ts) == ETIMEDOUT)
			gate_open_locked(g, true);
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

void vkqs_gate_open(struct vkqs_gate *g)
{
	pthread_mutex_lock(&g->lock);
	gate_open_locked(g, false);
	pthread_mutex_unlock(&g->lock);
}

/* State read by the main thread. */
bool vkqs_gate_state(struct vkqs_gate *g, bool *by_timer, uint64_t *opened_ns)
{
	pthread_mutex_lock(&g->lock);
	bool open = g->open;
	if (by_timer)
		*by_timer = g->by_timer;
	if (opened_ns)
		*opened_ns = g->opened_ns;
	pthread_mutex_unlock(&g->lock);
	return open;
}

/* Runs after the framework's vkDeviceWaitIdle, which returns once the timer
 * has opened the gate at the latest. */
static void gate_finish(struct vkqs_ctx *ctx, void *arg)
{
	struct vkqs_gate *g = arg;
	vkqs_gate_open(g);
	pthread_join(g->thread, NULL);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

struct vkqs_gate *vkqs_gate_create(struct vkqs_ctx *ctx, uint64_t delay_ns)
{
	/* Core in 1.2 (vkqs needs 1.2), but an optional feature there. */
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct vkqs_gate *g = vkqs_alloc(ctx, sizeof(*g));
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = 0,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkCreateSemaphore(VKQS_DEV(ctx), &sci, NULL, &g->sem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, g->sem);
	g->dev = VKQS_DEV(ctx);
	g->signal = VKQS_D(ctx)->vkSignalSemaphore;
	g->delay_ns = delay_ns;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&g->lock, NULL);
	if (pthread_create(&g->thread, NULL, gate_timer, g) != 0) {
		pthread_cond_destroy(&g->cond);
		pthread_mutex_destroy(&g->lock);
		vkqs_internal_error(ctx, "pthread_create failed");
	}
	/* After the semaphore's destroy: runs before it (newest first). */
	vkqs_defer(ctx, gate_finish, g);
	return g;
}

/* Submits cb to wait for the gate's semaphore to reach 1 (wait-before-
 * signal) and signal `fence` after.  From here until vkqs_gate_open() only
 * checks that never end the case may run. */
void vkqs_submit_gated_on(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkQueue queue,
			  VkCommandBuffer cb, VkFence fence, VkSemaphore also)
{
	const uint64_t values[2] = {1, 0}; /* the binary semaphore's is ignored */
	const VkPipelineStageFlags stages[2] = {VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
						VK_PIPELINE_STAGE_ALL_COMMANDS_BIT};
	const VkSemaphore sems[2] = {g->sem, also};
	VkTimelineSemaphoreSubmitInfo tl = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = also ? 2 : 1,
		.pWaitSemaphoreValues = values,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tl,
		.waitSemaphoreCount = also ? 2 : 1,
		.pWaitSemaphores = sems,
		.pWaitDstStageMask = stages,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VKQS_CHECK(ctx, VKQS_D(ctx)->vkQueueSubmit(queue, 1, &si, fence));
}

void vkqs_submit_gated(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkCommandBuffer cb,
		       VkFence fence)
{
	vkqs_submit_gated_on(ctx, g, ctx->vk->gfx.queue, cb, fence, VK_NULL_HANDLE);
}

bool vkqs_gate_opened_by_now(struct vkqs_gate *g)
{
	uint64_t now = vkqs_now_ns(), opened_ns = 0;
	return vkqs_gate_state(g, NULL, &opened_ns) && opened_ns <= now;
}

const char *vkqs_values_text(const uint64_t *v, uint32_t n, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64, i ? ", " : "", v[i]);
	return buf;
}

/* Opens the gate; a failed vkSignalSemaphore is a failure. */
void vkqs_gate_release(struct vkqs_ctx *ctx, struct vkqs_gate *g)
{
	vkqs_gate_open(g);
	pthread_mutex_lock(&g->lock);
	VkResult r = g->signal_result;
	pthread_mutex_unlock(&g->lock);
	vkqs_check_vk(ctx, false, __FILE__, __LINE__, "vkSignalSemaphore", r, VK_SUCCESS);
}

void vkqs_poll_in_flight(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkFence fence,
			 uint64_t limit_ns, vkqs_poll_read_fn read, void *arg, struct vkqs_poll *p)
{
	memset(p, 0, sizeof(*p));
	uint64_t v[VKQS_POLL_WORDS], t0 = vkqs_now_ns();
	bool opened = false;
	for (;;) {
		bool done = VKQS_D(ctx)->vkGetFenceStatus(ctx->vk->device, fence) == VK_SUCCESS;
		memset(v, 0, sizeof(v));
		uint32_t avail = read(ctx, arg, p->polls, v);
		/* after the read: a read that blocks until the gate opens (Mesa
		 * 22.3.6's lavapipe does) is no early availability */
		bool shut = !vkqs_gate_state(g, NULL, NULL);
		p->polls++;
		if (!v[avail]) {
			p->unavailable++;
		} else {
			p->early += shut;
			bool dup = false;
			for (uint32_t k = 0; k < p->kept && !dup; k++)
				dup = !memcmp(p->seen[k], v, sizeof(v));
			if (!dup && p->kept < VKQS_POLL_KEEP)
				memcpy(p->seen[p->kept++], v, sizeof(v));
		}
		if (!opened && p->polls >= 16) {
			vkqs_gate_open(g);
			opened = true;
		}
		if (done || vkqs_now_ns() - t0 > limit_ns)
			break;
	}
}
