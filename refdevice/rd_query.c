/* Query state and the one writer of results (spec 18.2), shared by
 * vkGetQueryPoolResults and vkCmdCopyQueryPoolResults (STYLE 14). */
#include <string.h>
#include <time.h>

#include "rd.h"

bool rd_query_accumulates(const struct rd_config *c, const struct rd_query_pool *pool)
{
	return (rd_fault(c, RD_FAULT_OCC_ACCUMULATE) && pool->type == VK_QUERY_TYPE_OCCLUSION) ||
	       (rd_fault(c, RD_FAULT_STATS_ACCUMULATE) &&
		pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS);
}

void rd_query_reset(const struct rd_config *c, struct rd_query_pool *pool, uint32_t first,
		    uint32_t count)
{
	if (rd_fault(c, RD_FAULT_RESET_SHORT) && count > 1)
		count--;
	if (rd_fault(c, RD_FAULT_RESET_NEIGHBOUR) && first + count < pool->count)
		count++;
	/* the fault: performance queries reset from index 0, not firstQuery
	 * (v3dv, mesa b2db2e3f33d) */
	if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR &&
	    rd_fault(c, RD_FAULT_PERF_RESET_FROM_ZERO))
		first = 0;
	if (first >= pool->count)
		return;
	if (count > pool->count - first)
		count = pool->count - first;
	/* "sets the status to unavailable and makes the numerical results
	 * undefined": zero them so runs are reproducible. */
	for (uint32_t i = first; i < first + count; i++)
		atomic_store_explicit(&pool->available[i], 0, memory_order_relaxed);
	if (!rd_query_accumulates(c, pool))
		memset(rd_query_values(pool, first), 0,
		       (size_t)count * pool->value_count * sizeof(uint64_t));
	memset(&pool->available_at_ns[first], 0, (size_t)count * sizeof(uint64_t));
	/* a performance query is reset "for each pass" */
	if (pool->passes_done)
		memset(&pool->passes_done[first], 0, (size_t)count * sizeof(uint32_t));
	if (pool->status)
		memset(&pool->status[first], 0, (size_t)count * sizeof(int32_t));
	atomic_thread_fence(memory_order_release);
}

uint64_t rd_query_make_available(struct rd_device *dev, struct rd_query_pool *pool,
				 uint32_t query)
{
	uint32_t lat = dev->instance->config.result_latency_us;
	uint64_t at = lat ? rd_now_ns() + (uint64_t)lat * 1000 : 0;
	pool->available_at_ns[query] = at;
	atomic_store_explicit(&pool->available[query], 1, memory_order_release);
	return at;
}

/* Made available by the queue (its result may still wait out a latency). */
static bool made_available(const struct rd_query_pool *pool, uint32_t query)
{
	return atomic_load_explicit(&pool->available[query], memory_order_acquire);
}

static bool available(const struct rd_query_pool *pool, uint32_t query)
{
	if (!made_available(pool, query))
		return false;
	uint64_t at = pool->available_at_ns[query];
	return at == 0 || rd_now_ns() >= at;
}

/* Whether no queue of the device has work that could still make a query
 * available: none holds a submission or runs one, except the queue thread
 * calling (a vkCmdCopyQueryPoolResults executing). */
static bool device_idle(struct rd_device *dev)
{
	for (uint32_t f = 0; f < RD_FAMILY_COUNT; f++)
		for (uint32_t i = 0; i < dev->queue_count[f]; i++) {
			struct rd_queue *q = dev->queues[f][i];
			if (!q || pthread_equal(q->thread, pthread_self()))
				continue;
			pthread_mutex_lock(&q->lock);
			bool idle = !q->head && !q->busy;
			pthread_mutex_unlock(&q->lock);
			if (!idle)
				return false;
		}
	return true;
}

/* VK_QUERY_RESULT_WAIT_BIT.  A query that is unavailable while nothing
 * submitted is left to run can never become available; the wait ends
 * there with false instead of hanging (vkGetQueryPoolResults: "if the
 * query does not become available in a finite amount of time (e.g. due to
 * not issuing a query since the last reset), a VK_ERROR_DEVICE_LOST error
 * may occur"). */
static bool wait_available(struct rd_device *dev, const struct rd_query_pool *pool, uint32_t query)
{
	while (!available(pool, query)) {
		/* one made available with a result latency (RD_RESULT_LATENCY_US)
		 * will be; the second look catches a queue finishing between the
		 * first and the idle check */
		if (!made_available(pool, query) && device_idle(dev) && !made_available(pool, query)) {
			rd_log("query %u of a pool of type %d waited on with VK_QUERY_RESULT_WAIT_BIT can never "
			       "become available (no submitted work is left): VK_ERROR_DEVICE_LOST",
			       query, (int)pool->type);
			return false;
		}
		struct timespec ts = {0, 20000};
		nanosleep(&ts, NULL);
	}
	return true;
}

/* 18.2: "If an unsigned integer query's value overflows the result type,
 * the value may either wrap or saturate" (RD_RESULT_OVERFLOW). */
static void put(uint8_t *dst, uint64_t v, bool is64, enum rd_overflow_mode ov)
{
	if (is64) {
		memcpy(dst, &v, 8);
		return;
	}
	uint32_t w = v > UINT32_MAX && ov == RD_OVERFLOW_SATURATE ? UINT32_MAX : (uint32_t)v;
	memcpy(dst, &w, 4);
}

/* Packed 64-bit results of available queries are the pool's own values:
 * one memcpy.  True when it applied. */
static bool fast_path(const struct rd_config *c, struct rd_query_pool *pool, uint32_t first,
		      uint32_t count, uint8_t *dst, VkDeviceSize stride, VkQueryResultFlags flags)
{
	if ((flags & ~(VkQueryResultFlags)(VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)) !=
		    0 ||
	    !(flags & VK_QUERY_RESULT_64_BIT) || stride != (VkDeviceSize)pool->value_count * 8 ||
	    c->result_latency_us)
		return false;
	/* Availability flags are bytes 0/1: one scan for a zero, then the
	 * acquire fence orders the value reads after it. */
	if (memchr((const void *)&pool->available[first], 0, count))
		return false;
	atomic_thread_fence(memory_order_acquire);
	memcpy(dst, rd_query_values(pool, first), (size_t)count * pool->value_count * 8);
	return true;
}

VkResult rd_query_write_results(struct rd_device *dev, struct rd_query_pool *pool,
				uint32_t first, uint32_t count, uint8_t *dst,
				VkDeviceSize stride, VkQueryResultFlags flags)
{
	const struct rd_config *c = &dev->instance->config;
	/* Performance queries: one VkPerformanceCounterResultKHR (8 bytes) per
	 * counter, whatever the flags (18.6). */
	bool is64 = (flags & VK_QUERY_RESULT_64_BIT) || rd_fault(c, RD_FAULT_RESULTS_32_AS_64) ||
		    pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR ||
		    pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL;
	size_t word = is64 ? 8 : 4;
	size_t elem = (pool->value_count + !!(flags & (VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
							 VK_QUERY_RESULT_WITH_STATUS_BIT_KHR))) *
		      word;
	if (rd_fault(c, RD_FAULT_RESULTS_STRIDE))
		stride = elem;
	bool avail_first = rd_fault(c, RD_FAULT_AVAIL_FIRST);
	bool not_ready = false;
	if (first >= pool->count)
		return VK_SUCCESS;
	if (count > pool->count - first)
		count = pool->count - first;
	if (c->fault == RD_FAULT_NONE && fast_path(c, pool, first, count, dst, stride, flags))
		return VK_SUCCESS;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t query = first + i;
		uint8_t *out = dst + (VkDeviceSize)i * stride;
		if ((flags & VK_QUERY_RESULT_WAIT_BIT) && !rd_fault(c, RD_FAULT_WAIT_IGNORED) &&
		    !wait_available(dev, pool, query))
			return VK_ERROR_DEVICE_LOST;
		bool avail = available(pool, query);
		const uint64_t *values =
			rd_query_values(pool, rd_fault(c, RD_FAULT_FIRST_QUERY_IGNORED) ? i : query);
		uint8_t *vout = out + (avail_first ? word : 0);
		if (avail) {
			for (uint32_t k = 0; k < pool->value_count; k++)
				put(vout + k * word, values[k], is64, c->overflow);
		} else if ((flags & VK_QUERY_RESULT_PARTIAL_BIT) &&
			   !rd_fault(c, RD_FAULT_PARTIAL_UNWRITTEN)) {
			/* "an intermediate result between zero and the final
			 * result value": zero is such a value. */
			/* RD_PARTIAL_VALUES: zero, the final value, or half of it
			 * (the final value is known while the results wait out
			 * RD_RESULT_LATENCY_US; before that the values are 0) */
			for (uint32_t k = 0; k < pool->value_count; k++) {
				uint64_t v = c->partial == RD_PARTIAL_FINAL  ? values[k]
					     : c->partial == RD_PARTIAL_HALF ? values[k] / 2
									    : 0;
				if (rd_fault(c, RD_FAULT_PARTIAL_ABOVE_FINAL))
					v = UINT32_MAX;
				put(vout + k * word, v, is64, c->overflow);
			}
		} else if (c->unavailable_zero) {
			for (uint32_t k = 0; k < pool->value_count; k++)
				put(vout + k * word, 0, is64, c->overflow);
		}
		/* Without WAIT or PARTIAL an unavailable query's values are not
		 * written (the writes above are skipped). */
		if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) {
			uint64_t a = avail && !rd_fault(c, RD_FAULT_AVAIL_ZERO) ? c->availability_value : 0;
			/* the faults: a 32-bit availability word after 64-bit values;
			 * an unavailable statistics query's word after one value */
			uint32_t at = !avail && pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS &&
					      rd_fault(c, RD_FAULT_STATS_AVAIL_ONE_WORD)
				      ? 1
				      : pool->value_count;
			put(avail_first ? out : out + at * word, a,
			    is64 && !rd_fault(c, RD_FAULT_AVAIL_32), c->overflow);
		}
		/* 18.2 WITH_STATUS: a signed value after the query's values, 0
		 * while unavailable */
		if ((flags & VK_QUERY_RESULT_WITH_STATUS_BIT_KHR) && pool->status &&
		    (avail || !rd_fault(c, RD_FAULT_STATUS_UNWRITTEN))) {
			int64_t st = avail ? pool->status[query] : 0;
			put(out + pool->value_count * word, (uint64_t)st, is64, RD_OVERFLOW_WRAP);
		}
		if (rd_fault(c, RD_FAULT_PAST_ELEMENT))
			memset(out + elem, 0, 4);
		not_ready |= !avail;
	}
	if (c->not_ready_success)
		return VK_SUCCESS;
	return not_ready && !(flags & VK_QUERY_RESULT_WAIT_BIT) ? VK_NOT_READY : VK_SUCCESS;
}
