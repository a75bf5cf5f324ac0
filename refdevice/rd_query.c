/* Query state and the one writer of results (spec 18.2), shared by
 * vkGetQueryPoolResults and vkCmdCopyQueryPoolResults (STYLE 14).  The
 * spec's rules only: the faults act at the rd_hook_* points (STYLE 18,
 * rd_fault_layer.h). */
#include <string.h>
#include <time.h>

#include "rd.h"
#include "rd_fault_layer.h"

void rd_query_reset(const struct rd_config *c, struct rd_query_pool *pool, uint32_t first,
		    uint32_t count)
{
	rd_hook_reset(c, pool, &first, &count);
	if (first >= pool->count)
		return;
	if (count > pool->count - first)
		count = pool->count - first;
	/* "sets the status to unavailable and makes the numerical results
	 * undefined": zero them so runs are reproducible. */
	for (uint32_t i = first; i < first + count; i++)
		atomic_store_explicit(&pool->available[i], 0, memory_order_relaxed);
	if (!rd_hook_values_kept(c, pool))
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
		/* "Lost Device": a wait "must return in finite time even in the
		 * case of a lost device" */
		if (rd_device_lost(dev)) {
			if (rd_hook_results_see_loss(&dev->instance->config))
				return false;
		/* one made available with a result latency (RD_RESULT_LATENCY_US)
		 * will be; the second look catches a queue finishing between the
		 * first and the idle check */
		} else if (!made_available(pool, query) && device_idle(dev) &&
			   !made_available(pool, query)) {
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
	    c->result_latency_us || c->nonprecise == RD_NP_PER_READ)
		return false;
	/* Availability flags are bytes 0/1: one scan for a zero, then the
	 * acquire fence orders the value reads after it. */
	if (memchr((const void *)&pool->available[first], 0, count))
		return false;
	atomic_thread_fence(memory_order_acquire);
	memcpy(dst, rd_query_values(pool, first), (size_t)count * pool->value_count * 8);
	return true;
}

/* One query's element as the plan says (rd_fault_layer.h). */
static void write_element(const struct rd_config *c, struct rd_query_pool *pool,
			  const struct rd_results_layout *l, const struct rd_results_element *el,
			  uint32_t call, uint8_t *out)
{
	size_t word = l->is64 ? 8 : 4;
	uint8_t *vout = out + (l->availability_first ? word : 0);
	const uint64_t *values = rd_query_values(pool, el->values_of);
	for (uint32_t k = 0; el->values != RD_VALUES_NONE && k < pool->value_count; k++) {
		uint64_t v = 0;
		if (el->values == RD_VALUES_FINAL)
			v = values[k];
		/* RD_NONPRECISE_OCCLUSION=per_read: "any non-zero value" (18.3)
		 * each time a non-precise result is read: every other call
		 * reads one more */
		if (el->values == RD_VALUES_FINAL && v && c->nonprecise == RD_NP_PER_READ &&
		    pool->nonprecise && pool->nonprecise[el->values_of])
			v += call & 1;
		else if (el->values == RD_VALUES_PARTIAL)
			/* "an intermediate result between zero and the final
			 * result value": RD_PARTIAL_VALUES picks zero, the final
			 * value, or half of it (the final value is known while
			 * the results wait out RD_RESULT_LATENCY_US; before that
			 * the values are 0) */
			v = el->partial_override		  ? el->partial_value
			    : c->partial == RD_PARTIAL_FINAL ? values[k]
			    : c->partial == RD_PARTIAL_HALF  ? values[k] / 2
							     : 0;
		put(vout + k * word, v, l->is64, c->overflow);
	}
	if (el->availability)
		put(l->availability_first ? out : out + el->availability_at * word,
		    el->availability_value, el->availability64, c->overflow);
	/* 18.2 WITH_STATUS: a signed value after the query's values, 0 while
	 * unavailable */
	if (el->status) {
		int64_t st = el->available ? pool->status[el->query] : 0;
		put(out + pool->value_count * word, (uint64_t)st, l->is64, RD_OVERFLOW_WRAP);
	}
	memset(out + l->elem, 0, el->trailing_zero_bytes);
}

VkResult rd_query_write_results(struct rd_device *dev, struct rd_query_pool *pool,
				uint32_t first, uint32_t count, uint8_t *dst,
				VkDeviceSize stride, VkQueryResultFlags flags)
{
	const struct rd_config *c = &dev->instance->config;
	/* a lost device's results are not read (VK_ERROR_DEVICE_LOST is among
	 * vkGetQueryPoolResults's return codes) */
	if (rd_device_lost(dev) && rd_hook_results_see_loss(c))
		return VK_ERROR_DEVICE_LOST;
	/* Performance queries: one VkPerformanceCounterResultKHR (8 bytes) per
	 * counter, whatever the flags (18.6). */
	bool extra_word = flags & (VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   VK_QUERY_RESULT_WITH_STATUS_BIT_KHR);
	struct rd_results_layout l = {
		.is64 = (flags & VK_QUERY_RESULT_64_BIT) ||
			pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR ||
			pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL,
		.stride = stride,
		.wait = flags & VK_QUERY_RESULT_WAIT_BIT,
	};
	l.elem = (pool->value_count + extra_word) * (l.is64 ? 8 : 4);
	rd_hook_results_layout(c, &l);
	l.elem = (pool->value_count + extra_word) * (l.is64 ? 8 : 4);
	bool not_ready = false;
	const uint32_t call = atomic_fetch_add(&pool->reads, 1);
	if (first >= pool->count)
		return VK_SUCCESS;
	if (count > pool->count - first)
		count = pool->count - first;
	if (!rd_hook_results_touched(c) && fast_path(c, pool, first, count, dst, stride, flags))
		return VK_SUCCESS;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t query = first + i;
		if (l.wait && !wait_available(dev, pool, query))
			return VK_ERROR_DEVICE_LOST;
		bool avail = available(pool, query);
		/* Without WAIT or PARTIAL an unavailable query's values are not
		 * written (RD_UNAVAILABLE_ZERO: they are, as 0). */
		struct rd_results_element el = {
			.query = query,
			.values_of = query,
			.available = avail,
			.values = avail ? RD_VALUES_FINAL
				  : (flags & VK_QUERY_RESULT_PARTIAL_BIT) ? RD_VALUES_PARTIAL
				  : c->unavailable_zero			  ? RD_VALUES_ZERO
									  : RD_VALUES_NONE,
			.availability = flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
			.availability_value = avail ? c->availability_value : 0,
			.availability_at = pool->value_count,
			.availability64 = l.is64,
			.status = (flags & VK_QUERY_RESULT_WITH_STATUS_BIT_KHR) && pool->status,
		};
		rd_hook_results_element(c, pool, i, &el);
		write_element(c, pool, &l, &el, call, dst + (VkDeviceSize)i * l.stride);
		not_ready |= !avail;
	}
	if (c->not_ready_success)
		return VK_SUCCESS;
	return not_ready && !(flags & VK_QUERY_RESULT_WAIT_BIT) ? VK_NOT_READY : VK_SUCCESS;
}
