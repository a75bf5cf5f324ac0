/* The fault layer of the query results writer and the executor's queries
 * (rd_fault_layer.h): each hook returns what the reference computed unless
 * RD_FAULT names one of its faults.  The rule each fault breaks is its
 * entry in rd.h's RD_FAULT_LIST; the comments here say which driver bug it
 * models where one is known. */
#include <stdatomic.h>

#include "rd_fault_layer.h"

#include "rd_exec.h"

static bool on(const struct rd_config *c, enum rd_fault f)
{
	return c->fault == f;
}

static const struct rd_config *config_of(const struct exec *e)
{
	return &e->dev->instance->config;
}

/* Results ----------------------------------------------------------------------------*/

void rd_hook_reset(const struct rd_config *c, const struct rd_query_pool *pool, uint32_t *first,
		   uint32_t *count)
{
	if (on(c, RD_FAULT_RESET_SHORT) && *count > 1)
		(*count)--;
	if (on(c, RD_FAULT_RESET_NEIGHBOUR) && *first + *count < pool->count)
		(*count)++;
	/* performance queries reset from index 0, not firstQuery (v3dv, mesa
	 * b2db2e3f33d) */
	if (on(c, RD_FAULT_PERF_RESET_FROM_ZERO) && pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR)
		*first = 0;
}

bool rd_hook_values_kept(const struct rd_config *c, const struct rd_query_pool *pool)
{
	return (on(c, RD_FAULT_OCC_ACCUMULATE) && pool->type == VK_QUERY_TYPE_OCCLUSION) ||
	       (on(c, RD_FAULT_STATS_ACCUMULATE) && pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS);
}

bool rd_hook_results_see_loss(const struct rd_config *c)
{
	/* the wait goes on for a query that can no longer become available
	 * (radv, mesa 86954c766fa: a query wait that ignored a lost device) */
	return !on(c, RD_FAULT_WAIT_IGNORES_LOSS);
}

void rd_hook_results_layout(const struct rd_config *c, struct rd_results_layout *l)
{
	if (on(c, RD_FAULT_RESULTS_32_AS_64))
		l->is64 = true;
	if (on(c, RD_FAULT_RESULTS_STRIDE))
		l->stride = l->elem;
	if (on(c, RD_FAULT_AVAIL_FIRST))
		l->availability_first = true;
	if (on(c, RD_FAULT_WAIT_IGNORED))
		l->wait = false;
}

bool rd_hook_results_touched(const struct rd_config *c)
{
	return c->fault != RD_FAULT_NONE;
}

void rd_hook_results_element(const struct rd_config *c, const struct rd_query_pool *pool,
			     uint32_t index, struct rd_results_element *el)
{
	if (on(c, RD_FAULT_FIRST_QUERY_IGNORED))
		el->values_of = index; /* the index in the call, not firstQuery + index */
	/* a primitives generated pool read at twice its stride: query q's
	 * values are those of query 2q (wrapping inside the pool) */
	if (on(c, RD_FAULT_PGQ_POOL_STRIDE) && pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT)
		el->values_of = (uint32_t)((2ull * el->values_of) % pool->count);
	if (on(c, RD_FAULT_PARTIAL_UNWRITTEN) && el->values == RD_VALUES_PARTIAL)
		el->values = c->unavailable_zero ? RD_VALUES_ZERO : RD_VALUES_NONE;
	if (on(c, RD_FAULT_PARTIAL_ABOVE_FINAL) && el->values == RD_VALUES_PARTIAL) {
		el->partial_override = true;
		el->partial_value = UINT32_MAX;
	}
	if (on(c, RD_FAULT_AVAIL_ZERO) && el->available)
		el->availability_value = 0;
	/* an unavailable statistics query's word after one value */
	if (on(c, RD_FAULT_STATS_AVAIL_ONE_WORD) && !el->available &&
	    pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS)
		el->availability_at = 1;
	/* a 32-bit availability word after 64-bit values */
	if (on(c, RD_FAULT_AVAIL_32))
		el->availability64 = false;
	if (on(c, RD_FAULT_STATUS_UNWRITTEN) && !el->available)
		el->status = false;
	if (on(c, RD_FAULT_PAST_ELEMENT))
		el->trailing_zero_bytes = 4;
}

/* The executor --------------------------------------------------------------------*/

bool rd_hook_begin_query(const struct exec *e, const struct rd_query_pool *pool)
{
	return on(config_of(e), RD_FAULT_AVAILABLE_AT_BEGIN) &&
	       pool->type != VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR;
}

bool rd_hook_end_query(const struct exec *e, bool *keep_time)
{
	const struct rd_config *c = config_of(e);
	bool later_phase = e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index > 0);
	/* the elapsed time of the first tile only */
	*keep_time = !(on(c, RD_FAULT_ELAPSED_FIRST_TILE) && later_phase);
	/* a query ended in a render pass instance that is suspended (to be
	 * resumed in another command buffer) is dropped, never finished */
	return !(on(c, RD_FAULT_SUSPENDED_QUERY_DROPPED) && e->s.in_pass && e->s.suspending);
}

uint32_t rd_hook_perf_counter(const struct rd_config *c, const struct rd_query_pool *pool,
			      uint32_t k)
{
	if (!on(c, RD_FAULT_PERF_ORDER))
		return pool->counters[k];
	/* the k-th counter in index order, not in pCounterIndices order */
	uint32_t counter = pool->counters[k];
	for (uint32_t j = 0; j < pool->value_count; j++) {
		uint32_t rank = 0;
		for (uint32_t i = 0; i < pool->value_count; i++)
			rank += pool->counters[i] < pool->counters[j];
		if (rank == k)
			counter = pool->counters[j];
	}
	return counter;
}

bool rd_hook_perf_every_pass(const struct rd_config *c)
{
	return on(c, RD_FAULT_PERF_PASS_IGNORED);
}

bool rd_hook_perf_adds(const struct rd_config *c, const struct rd_query_pool *pool,
		       uint32_t query)
{
	/* under these faults only a query never reset since creation reads
	 * available while it runs (rd_CreateQueryPool) */
	return on(c, RD_FAULT_PERF_PASS_IGNORED) ||
	       ((on(c, RD_FAULT_CREATE_RESET_IGNORED) || on(c, RD_FAULT_CREATE_RESET_COMMON_ONLY)) &&
		atomic_load(&pool->available[query]) != 0);
}

/* The index among a feedback query's values of the value of bit, or
 * count when the pool lacks it (the executor writes the values of these
 * bits, in bit order). */
static uint32_t feedback_index(const struct rd_query_pool *pool, VkVideoEncodeFeedbackFlagsKHR bit,
			       uint32_t count)
{
	if (!(pool->encode_feedback & bit))
		return count;
	return (uint32_t)__builtin_popcount(pool->encode_feedback & RD_ENCODE_FEEDBACK_FLAGS &
					    (bit - 1));
}

void rd_hook_encode_feedback(const struct exec *e, const struct active_query *a,
			     uint64_t *values, uint32_t count)
{
	const struct rd_config *c = config_of(e);
	const struct rd_query_pool *pool = a->pool;
	/* the offset from the buffer's start, not from dstBufferOffset */
	uint32_t off = feedback_index(pool, VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR,
				      count);
	if (on(c, RD_FAULT_ENCODE_OFFSET_ABSOLUTE) && off < count)
		values[off] = e->encode_offset;
	/* the intra pixels reported as inter */
	if (on(c, RD_FAULT_ENCODE_INTRA_AS_INTER)) {
		uint32_t intra = feedback_index(pool, VK_VIDEO_ENCODE_FEEDBACK_INTRA_PIXELS_BIT_KHR, count),
			 inter = feedback_index(pool, VK_VIDEO_ENCODE_FEEDBACK_INTER_PIXELS_BIT_KHR, count);
		if (intra < count)
			values[intra] = 0;
		if (inter < count)
			values[inter] = a->delta.encode_intra_pixels;
	}
	if (on(c, RD_FAULT_ENCODE_FEEDBACK_REVERSED))
		for (uint32_t i = 0; i < count / 2; i++) {
			uint64_t t = values[i];
			values[i] = values[count - 1 - i];
			values[count - 1 - i] = t;
		}
}

uint32_t rd_hook_query_slot(const struct exec *e, const struct rd_query_pool *pool,
			    uint32_t query)
{
	/* a compute-only queue's statistics land in query 0 */
	if (on(config_of(e), RD_FAULT_STATS_COMPUTE_QUERY_ZERO) &&
	    pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS && e->q->family == RD_FAMILY_COMPUTE)
		return 0;
	return query;
}

/* An occlusion count as the query reports it: exact with PRECISE, else
 * what the device's non-precise mode makes of it. */
static uint64_t occlusion_value(const struct exec *e, const struct active_query *a, uint64_t count)
{
	return (a->flags & VK_QUERY_CONTROL_PRECISE_BIT) ? count
							 : exec_nonprecise(config_of(e), count);
}

static void reverse(uint64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n / 2; i++) {
		uint64_t t = v[i];
		v[i] = v[n - 1 - i];
		v[n - 1 - i] = t;
	}
}

bool rd_hook_query_values(const struct exec *e, const struct rd_query_view *q, uint64_t *values)
{
	const struct rd_config *c = config_of(e);
	const struct active_query *a = q->a;
	const struct rd_query_pool *pool = a->pool;
	const struct rd_counters *d = &a->delta;
	/* one of the N - 1 queries after the one holding the total */
	if (!q->spread && q->slot > 0) {
		/* the total in every view's query */
		if (on(c, RD_FAULT_MV_TOTAL_EACH) && pool->type == VK_QUERY_TYPE_OCCLUSION)
			values[0] = q->occlusion;
		/* only the first of the N queries becomes available; or so
		 * when the query ended in a secondary command buffer (v3dv,
		 * mesa e1b52e30522) */
		return !on(c, RD_FAULT_MV_SLOTS_UNAVAILABLE) &&
		       !(on(c, RD_FAULT_MV_SECONDARY_FIRST_ONLY) && a->ended_in_secondary);
	}
	switch ((int)pool->type) { /* TIME_ELAPSED_QCOM: compat.h */
	case VK_QUERY_TYPE_OCCLUSION:
		/* the total holds the first view's samples only */
		if (on(c, RD_FAULT_MV_FIRST_VIEW) && !q->spread && a->view_mask)
			values[0] = occlusion_value(e, a, d->draw.samples_passed[q->first_view]);
		if (on(c, RD_FAULT_PRECISE_BOOLEAN) && q->occlusion)
			values[0] = occlusion_value(e, a, 1);
		if (on(c, RD_FAULT_OCCLUSION_PLUS_ONE) && q->occlusion)
			values[0] = occlusion_value(e, a, q->occlusion + 1);
		/* past 16 Ki queries in one render pass instance a stale
		 * baseline adds what an earlier query counted (MoltenVK#2682) */
		if (on(c, RD_FAULT_OCC_WRAP_16K) && a->pass_ordinal >= 16384)
			values[0] = occlusion_value(e, a, q->occlusion + 1);
		break;
	case VK_QUERY_TYPE_PIPELINE_STATISTICS: {
		const uint32_t fs_bit = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
		uint32_t fs = (uint32_t)__builtin_popcount(pool->statistics & (fs_bit - 1));
		bool has_fs = pool->statistics & fs_bit;
		/* fragment shader invocations report clipping invocations */
		if (on(c, RD_FAULT_STATS_FS_AS_CLIP) && has_fs)
			values[fs] = q->slot == 0
					     ? exec_statistic(d, (uint32_t)__builtin_ctz(
								    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT))
					     : 0;
		/* multiview: the first view's fragment shader invocations only */
		if (on(c, RD_FAULT_MV_STATS_FIRST_VIEW) && has_fs && a->view_mask)
			values[fs] = q->slot == 0 ? d->draw.fs_invocations[q->first_view] : 0;
		if (on(c, RD_FAULT_STATS_REVERSED))
			reverse(values, (uint32_t)__builtin_popcount(pool->statistics));
		break;
	}
	case VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT:
		/* primitives written and needed swapped */
		if (on(c, RD_FAULT_XFB_SWAPPED) && a->index < RD_MAX_STREAMS)
			reverse(values, 2);
		break;
	case VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT:
		/* the primitives written to transform feedback buffers, not
		 * those generated */
		if (on(c, RD_FAULT_PGQ_AS_WRITTEN) && a->index < RD_MAX_STREAMS)
			values[0] = d->draw.xfb_primitives_written[a->index];
		/* zero while a statistics query is active too */
		if (on(c, RD_FAULT_PGQ_WITH_STATS) && a->beside_stats)
			values[0] = 0;
		break;
	case VK_QUERY_TYPE_TIME_ELAPSED_QCOM: {
		uint64_t mask = exec_valid_mask(e);
		if (on(c, RD_FAULT_ELAPSED_ZERO))
			values[0] = 0;
		/* nanoseconds, not timestamp ticks */
		if (on(c, RD_FAULT_ELAPSED_NS))
			values[0] = exec_elapsed_share(d->time_ns, q->views, q->slot, q->spread) & mask;
		/* the total in each view's query */
		if (on(c, RD_FAULT_ELAPSED_MV_EACH) && q->spread)
			values[0] = q->elapsed_ticks & mask;
		break;
	}
	default:
		break;
	}
	return true;
}

bool rd_hook_timestamp(const struct exec *e, uint32_t query, uint64_t *t)
{
	const struct rd_config *c = config_of(e);
	uint64_t mask = exec_valid_mask(e);
	/* a pool's timestamps past its first 4096 are never written (a
	 * hardware sample buffer of 32 KiB, MoltenVK#1907) */
	if (on(c, RD_FAULT_TS_POOL_4096) && query >= 4096)
		return false;
	/* a video family that reports timestamp bits writes none */
	if (on(c, RD_FAULT_TS_VIDEO_UNWRITTEN) && e->q->family == RD_FAMILY_ENCODE)
		return false;
	/* a clock that restarts with every command buffer */
	if (on(c, RD_FAULT_TS_PER_CB))
		*t = rd_clock_ticks(e->dev, exec_time(e) - e->cb_start_ns) & mask;
	if (on(c, RD_FAULT_TS_HIGH_BITS) && mask != UINT64_MAX)
		*t |= ~mask;
	if (on(c, RD_FAULT_TS_ZERO))
		*t = 0;
	/* runs down as the clock runs up */
	if (on(c, RD_FAULT_TS_BACKWARDS))
		*t = (mask >> 1) - *t;
	return true;
}

void rd_hook_end_counters(const struct exec *e, const struct active_query *a,
			  struct rd_counters *now)
{
	/* counting switched off for an internal operation and not back on:
	 * the draws after it are lost to statistics and primitives generated
	 * queries */
	if (on(config_of(e), RD_FAULT_COUNTING_OFF_AFTER_META) && a->meta_seen &&
	    (a->pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS ||
	     a->pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT)) {
		now->draw = a->at_meta.draw;
		now->cs_invocations = a->at_meta.cs_invocations;
	}
}

uint32_t rd_hook_clear_captured(const struct exec *e)
{
	/* the clear's two triangles streamed out like a draw's */
	return on(config_of(e), RD_FAULT_XFB_CAPTURES_CLEAR) ? 2 : 0;
}
