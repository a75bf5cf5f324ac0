/* Queues: each runs its submissions on a worker thread, so execution is
 * asynchronous (work runs after vkQueueSubmit returns), in submission
 * order, waiting on and signalling semaphores, then the fence. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rd.h"
#include "rd_api.h"

struct rd_wait {
	struct rd_semaphore *sem;
	uint64_t value;
};

struct rd_submission {
	struct rd_submission *next;
	uint32_t wait_count, cb_count, signal_count;
	struct rd_wait *waits;
	struct rd_command_buffer **cbs;
	struct rd_wait *signals;
	struct rd_fence *fence; /* only on the last submission of a call */
	uint32_t counter_pass;  /* VkPerformanceQuerySubmitInfoKHR, else 0 */
};

static void run_submission(struct rd_queue *q, struct rd_submission *s)
{
	for (uint32_t i = 0; i < s->wait_count; i++)
		rd_semaphore_wait(s->waits[i].sem, s->waits[i].value, UINT64_MAX);
	/* on a lost device queued work is dropped (its signals still come,
	 * so no wait hangs) */
	for (uint32_t i = 0; i < s->cb_count && !rd_device_lost(q->base.device); i++)
		rd_execute_command_buffer(q, s->cbs[i], s->counter_pass);
	for (uint32_t i = 0; i < s->signal_count; i++)
		rd_semaphore_signal(s->signals[i].sem, s->signals[i].value);
	if (s->fence) {
		/* RD_HOST_STALL_MS (refdevice/README.md): the first, third, ...
		 * fence of the queue signals late, the device clock unmoved: a
		 * host that sees finished work late, as a loaded machine does */
		const uint32_t stall = q->base.device->instance->config.host_stall_ms;
		if (stall && q->fences++ % 2 == 0) {
			struct timespec ts = {(time_t)(stall / 1000u), (long)(stall % 1000u) * 1000000};
			nanosleep(&ts, NULL);
		}
		rd_fence_signal(s->fence);
	}
}

static void *queue_main(void *arg)
{
	struct rd_queue *q = arg;
	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->head && !q->stop)
			pthread_cond_wait(&q->cond, &q->lock);
		if (!q->head && q->stop)
			break;
		struct rd_submission *s = q->head;
		q->head = s->next;
		if (!q->head)
			q->tail = NULL;
		q->busy = true;
		pthread_mutex_unlock(&q->lock);
		run_submission(q, s);
		free(s);
		pthread_mutex_lock(&q->lock);
		q->busy = false;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int rd_queue_start(struct rd_queue *q)
{
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	return pthread_create(&q->thread, NULL, queue_main, q);
}

void rd_queue_stop(struct rd_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
}

void rd_queue_wait_idle(struct rd_queue *q)
{
	pthread_mutex_lock(&q->lock);
	while (q->head || q->busy)
		pthread_cond_wait(&q->cond, &q->lock);
	pthread_mutex_unlock(&q->lock);
}

/* One allocation per submission: header, then its three arrays. */
static struct rd_submission *submission_new(uint32_t waits, uint32_t cbs, uint32_t signals)
{
	size_t size = sizeof(struct rd_submission) + (waits + signals) * sizeof(struct rd_wait) +
		      cbs * sizeof(struct rd_command_buffer *);
	struct rd_submission *s = calloc(1, size);
	if (!s)
		return NULL;
	s->waits = (struct rd_wait *)(s + 1);
	s->signals = s->waits + waits;
	s->cbs = (struct rd_command_buffer **)(s->signals + signals);
	s->wait_count = waits;
	s->signal_count = signals;
	s->cb_count = cbs;
	return s;
}

static void enqueue(struct rd_queue *q, struct rd_submission *s)
{
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = s;
	else
		q->head = s;
	q->tail = s;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

VkResult rd_queue_submit(struct rd_queue *q, uint32_t count, const VkSubmitInfo2 *submits,
			 struct rd_fence *fence)
{
	for (uint32_t i = 0; i < count; i++) {
		const VkSubmitInfo2 *si = &submits[i];
		struct rd_submission *s = submission_new(si->waitSemaphoreInfoCount,
							 si->commandBufferInfoCount,
							 si->signalSemaphoreInfoCount);
		if (!s)
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		/* "If the VkSubmitInfo::pNext chain does not include this
		 * structure, the batch defaults to use counter pass index 0." */
		for (const VkBaseInStructure *p = si->pNext; p; p = p->pNext)
			if (p->sType == VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR)
				s->counter_pass =
					((const VkPerformanceQuerySubmitInfoKHR *)p)->counterPassIndex;
		for (uint32_t k = 0; k < si->waitSemaphoreInfoCount; k++) {
			s->waits[k].sem = (struct rd_semaphore *)si->pWaitSemaphoreInfos[k].semaphore;
			s->waits[k].value = si->pWaitSemaphoreInfos[k].value;
		}
		for (uint32_t k = 0; k < si->commandBufferInfoCount; k++)
			s->cbs[k] = (struct rd_command_buffer *)si->pCommandBufferInfos[k].commandBuffer;
		for (uint32_t k = 0; k < si->signalSemaphoreInfoCount; k++) {
			s->signals[k].sem = (struct rd_semaphore *)si->pSignalSemaphoreInfos[k].semaphore;
			s->signals[k].value = si->pSignalSemaphoreInfos[k].value;
		}
		enqueue(q, s);
	}
	if (fence) {
		/* The fence signals after everything submitted before it. */
		struct rd_submission *s = submission_new(0, 0, 0);
		if (!s)
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		s->fence = fence;
		enqueue(q, s);
	}
	return VK_SUCCESS;
}

/* RD_WEDGE_FILE (refdevice/README.md): one vkQueueSubmit or
 * vkQueueSubmit2 call is one submission of the modelled GPU. */
static bool wedged(VkQueue queue)
{
	const struct rd_queue *q = (const struct rd_queue *)queue;
	if (!rd_wedge_submit(&q->base.device->instance->config))
		return false;
	rd_log("RD_WEDGE_FILE: the modelled GPU is wedged; VK_ERROR_DEVICE_LOST");
	return true;
}

/* A lost device takes no more work. */
static bool lost(VkQueue queue)
{
	return rd_device_lost(((struct rd_queue *)queue)->base.device);
}

VKAPI_ATTR VkResult VKAPI_CALL rd_QueueSubmit2(VkQueue queue, uint32_t count,
					       const VkSubmitInfo2 *submits, VkFence fence)
{
	if (wedged(queue) || lost(queue))
		return VK_ERROR_DEVICE_LOST;
	return rd_queue_submit((struct rd_queue *)queue, count, submits, (struct rd_fence *)fence);
}

/* vkQueueSubmit in terms of VkSubmitInfo2, timeline values included. */
VKAPI_ATTR VkResult VKAPI_CALL rd_QueueSubmit(VkQueue queue, uint32_t count,
					      const VkSubmitInfo *submits, VkFence fence)
{
	if (wedged(queue) || lost(queue))
		return VK_ERROR_DEVICE_LOST;
	VkResult r = VK_SUCCESS;
	for (uint32_t i = 0; i < count && r == VK_SUCCESS; i++) {
		const VkSubmitInfo *si = &submits[i];
		const VkTimelineSemaphoreSubmitInfo *tl = NULL;
		const VkPerformanceQuerySubmitInfoKHR *perf = NULL;
		for (const VkBaseInStructure *p = si->pNext; p; p = p->pNext)
			if (p->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
				tl = (const void *)p;
			else if (p->sType == VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR)
				perf = (const void *)p;
		VkPerformanceQuerySubmitInfoKHR perf2;
		if (perf) {
			perf2 = *perf;
			perf2.pNext = NULL;
		}
		uint32_t nw = si->waitSemaphoreCount, nc = si->commandBufferCount,
			 ns = si->signalSemaphoreCount;
		VkSemaphoreSubmitInfo *w = calloc(nw + ns + 1, sizeof(*w));
		VkCommandBufferSubmitInfo *c = calloc(nc + 1, sizeof(*c));
		if (!w || !c) {
			free(w);
			free(c);
			return VK_ERROR_OUT_OF_HOST_MEMORY;
		}
		for (uint32_t k = 0; k < nw; k++) {
			w[k].semaphore = si->pWaitSemaphores[k];
			w[k].value = tl && k < tl->waitSemaphoreValueCount ? tl->pWaitSemaphoreValues[k] : 0;
		}
		for (uint32_t k = 0; k < ns; k++) {
			w[nw + k].semaphore = si->pSignalSemaphores[k];
			w[nw + k].value =
				tl && k < tl->signalSemaphoreValueCount ? tl->pSignalSemaphoreValues[k] : 0;
		}
		for (uint32_t k = 0; k < nc; k++)
			c[k].commandBuffer = si->pCommandBuffers[k];
		VkSubmitInfo2 s2 = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
			.pNext = perf ? &perf2 : NULL,
			.waitSemaphoreInfoCount = nw,
			.pWaitSemaphoreInfos = w,
			.commandBufferInfoCount = nc,
			.pCommandBufferInfos = c,
			.signalSemaphoreInfoCount = ns,
			.pSignalSemaphoreInfos = w + nw,
		};
		r = rd_queue_submit((struct rd_queue *)queue, 1, &s2, NULL);
		free(w);
		free(c);
	}
	if (r == VK_SUCCESS && fence)
		r = rd_queue_submit((struct rd_queue *)queue, 0, NULL, (struct rd_fence *)fence);
	return r;
}

VKAPI_ATTR VkResult VKAPI_CALL rd_QueueWaitIdle(VkQueue queue)
{
	rd_queue_wait_idle((struct rd_queue *)queue);
	return lost(queue) ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}
