/* The executor's queries: a begin snapshot and an end difference of the
 * counters the stages bump (STYLE 14, 17), the value each query type
 * reports, availability, timestamps.  The spec's rules only: the faults
 * act at the rd_hook_* points (STYLE 18, rd_fault_layer.h). */
#include "rd_exec.h"
#include "rd_fault_layer.h"

/* Queries ----------------------------------------------------------------------------*/

static uint64_t total_samples(const struct rd_counters *c)
{
	uint64_t t = 0;
	for (int v = 0; v < RD_MAX_VIEWS; v++)
		t += c->draw.samples_passed[v];
	return t;
}

static uint32_t query_views(uint32_t view_mask)
{
	return view_mask ? (uint32_t)__builtin_popcount(view_mask) : 1;
}

static void make_available(struct exec *e, struct rd_query_pool *pool, uint32_t query)
{
	uint64_t at = rd_query_make_available(e->dev, pool, query);
	if (at > e->available_at_ns)
		e->available_at_ns = at;
}

/* From the hint on, around: a tiled pass begins its queries again in every
 * tile in the order of the first, so the next one is found at once. */
static struct active_query *find_query(struct exec *e, struct rd_query_pool *pool,
				       uint32_t query, uint32_t index)
{
	for (uint32_t k = 0; k < e->active_count; k++) {
		uint32_t i = (e->active_hint + k) % e->active_count;
		if (e->active[i].pool == pool && e->active[i].query == query &&
		    e->active[i].index == index) {
			e->active_hint = i;
			return &e->active[i];
		}
	}
	return NULL;
}

/* An ended query leaves a hole (the order stays); none left: empty. */
static void drop_query(struct exec *e, struct active_query *a)
{
	a->pool = NULL;
	a->open = false;
	if (--e->active_live == 0)
		e->active_count = e->active_hint = 0;
}

void exec_begin_query(struct exec *e, struct rd_query_pool *pool, uint32_t query,
		      VkQueryControlFlags flags, uint32_t index)
{
	struct active_query *a = find_query(e, pool, query, index);
	if (!a) {
		/* On the tiler every query of a pass stays here until the pass's
		 * last tile, so a pass of 16 Ki queries needs 16 Ki entries
		 * (nothing in the spec limits the queries of one instance). */
		if (e->active_count == e->active_cap) {
			uint32_t cap = e->active_cap ? 2 * e->active_cap : 32;
			struct active_query *grown = realloc(e->active, cap * sizeof(*grown));
			if (!grown) {
				rd_log("vkCmdBeginQuery: out of memory for %u active queries", cap);
				return;
			}
			e->active = grown;
			e->active_cap = cap;
		}
		e->active_hint = e->active_count;
		e->active_live++;
		a = &e->active[e->active_count++];
		memset(a, 0, sizeof(*a));
		a->pool = pool;
		a->query = query;
		a->flags = flags;
		a->index = index;
		a->view_mask = e->s.in_pass ? e->s.view_mask : 0;
		a->pass_ordinal = e->s.in_pass ? e->s.pass_queries++ : 0;
	}
	a->open = true;
	/* the fault's bookkeeping: primitives generated and statistics
	 * queries active at the same time (only those two types look) */
	bool pairs = pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT ||
		     pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS;
	for (uint32_t i = 0; pairs && i < e->active_count; i++) {
		struct active_query *o = &e->active[i];
		if (!o->open || o == a)
			continue;
		if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT &&
		    o->pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS)
			a->beside_stats = true;
		if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS &&
		    o->pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT)
			o->beside_stats = true;
	}
	exec_sample(e, &a->begin);
	if (rd_hook_begin_query(e, pool))
		make_available(e, pool, query);
}

/* The pipeline-statistics counters in VkQueryPipelineStatisticFlagBits bit
 * order. */
uint64_t exec_statistic(const struct rd_counters *c, uint32_t bit)
{
	switch (1u << bit) {
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT: return c->draw.ia_vertices;
	case VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT: return c->draw.ia_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT: return c->draw.vs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT: return c->draw.gs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT: return c->draw.gs_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT: return c->draw.clipping_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT: return c->draw.clipping_primitives;
	case VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT: return rd_fs_invocations(&c->draw);
	case VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT: return c->cs_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT: return c->draw.tcs_patches;
	case VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT:
		return c->draw.tes_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_TASK_SHADER_INVOCATIONS_BIT_EXT: return c->draw.task_invocations;
	case VK_QUERY_PIPELINE_STATISTIC_MESH_SHADER_INVOCATIONS_BIT_EXT: return c->draw.mesh_invocations;
	default: return 0;
	}
}

uint64_t exec_nonprecise(const struct rd_config *cfg, uint64_t exact)
{
	/* 18.3: without PRECISE "an implementation may generate any non-zero
	 * result value for the query if the count of passing samples is
	 * non-zero" (RD_NONPRECISE_OCCLUSION). */
	if (!exact)
		return 0;
	switch (cfg->nonprecise) {
	case RD_NP_ONE: return 1;
	case RD_NP_OTHER: return 0x5a5a;
	default: return exact; /* RD_NP_PER_READ: the results writer varies it */
	}
}

uint64_t exec_valid_mask(const struct exec *e)
{
	uint32_t bits = rd_family_valid_bits(&e->dev->instance->config, e->q->family);
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

/* A performance query (18.6): the pass the batch runs collects the
 * counters of its group, as VkPerformanceCounterResultKHR bytes in the
 * order of pCounterIndices; the query is available once every pass has
 * been collected since its reset. */
static void finish_perf_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	const struct rd_config *cfg = &e->dev->instance->config;
	uint32_t pass = e->counter_pass;
	if (pass >= pool->pass_count) {
		rd_log("performance query: counterPassIndex %u, the pool has %u passes "
		       "(VUID-VkPerformanceQuerySubmitInfoKHR-counterPassIndex-03221)",
		       pass, pool->pass_count);
		return;
	}
	bool every_pass = rd_hook_perf_every_pass(cfg), adds = rd_hook_perf_adds(cfg, pool, a->query);
	uint64_t *values = rd_query_values(pool, a->query);
	for (uint32_t k = 0; k < pool->value_count; k++) {
		uint32_t counter = rd_hook_perf_counter(cfg, pool, k);
		if (!every_pass && rd_perf_group(counter) != pool->pass_group[pass])
			continue;
		VkPerformanceCounterResultKHR r = rd_perf_value(counter, &a->delta);
		uint64_t v;
		memcpy(&v, &r, sizeof(v));
		values[k] = adds ? values[k] + v : v;
	}
	pool->passes_done[a->query] |= 1u << pass;
	if (pool->passes_done[a->query] == (1u << pool->pass_count) - 1)
		make_available(e, pool, a->query);
}

/* 18.11 / 18.12: the status of the video coding operations the query
 * covered (an insufficient bitstream buffer range is a failure of its own),
 * and the encode feedback values in the order of the bits: the bitstream
 * offset relative to dstBufferOffset (the refdevice writes every
 * operation's data there: 0), the bytes written, whether the bitstream has
 * overridden parameters (0 or 1). */
static void finish_video_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	const struct rd_counters *d = &a->delta;
	pool->status[a->query] = d->encode_insufficient
					 ? (int32_t)VK_QUERY_RESULT_STATUS_INSUFFICIENT_BITSTREAM_BUFFER_RANGE_KHR
					 : (int32_t)VK_QUERY_RESULT_STATUS_COMPLETE_KHR;
	uint64_t *values = rd_query_values(pool, a->query);
	uint32_t k = 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BUFFER_OFFSET_BIT_KHR)
		values[k++] = 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_BYTES_WRITTEN_BIT_KHR)
		values[k++] = d->encode_bytes;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_BITSTREAM_HAS_OVERRIDES_BIT_KHR)
		values[k++] = d->encode_overrides ? 1 : 0;
	/* VK_KHR_video_encode_feedback2: every block is intra (I_PCM), none
	 * inter or skipped; one slice */
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_INTRA_PIXELS_BIT_KHR)
		values[k++] = d->encode_intra_pixels;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_INTER_PIXELS_BIT_KHR)
		values[k++] = 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_SKIPPED_PIXELS_BIT_KHR)
		values[k++] = 0;
	if (pool->encode_feedback & VK_VIDEO_ENCODE_FEEDBACK_PICTURE_PARTITION_COUNT_BIT_KHR)
		values[k++] = d->encode_partitions;
	rd_hook_encode_feedback(e, a, values, k);
	make_available(e, pool, a->query);
}

/* Writes a query's values from the differences it summed. */
static void finish_query(struct exec *e, const struct active_query *a)
{
	struct rd_query_pool *pool = a->pool;
	if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR) {
		finish_perf_query(e, a);
		return;
	}
	if (pool->type == VK_QUERY_TYPE_VIDEO_ENCODE_FEEDBACK_KHR ||
	    pool->type == VK_QUERY_TYPE_RESULT_STATUS_ONLY_KHR) {
		finish_video_query(e, a);
		return;
	}
	if (pool->type == VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL) {
		/* the last marker set before the end is part of the result */
		struct rd_intel_state s = e->intel;
		s.stream_marker = e->q->intel_stream_marker;
		s.config = atomic_load(&e->q->intel_config);
		rd_intel_report(rd_query_values(pool, a->query), &a->delta, &s);
		make_available(e, pool, a->query);
		return;
	}
	const struct rd_config *cfg = &e->dev->instance->config;
	/* the first of the queries the values go to */
	const uint32_t first = rd_hook_query_slot(e, pool, a->query);
	const struct rd_counters *d = &a->delta;
	uint32_t n = query_views(a->view_mask);
	for (uint32_t v = 0; v < n && first + v < pool->count; v++) {
		uint64_t *values = rd_query_values(pool, first + v);
		if (!rd_hook_values_kept(cfg, pool))
			memset(values, 0, pool->value_count * sizeof(*values));
		/* Multiview (18.2): N consecutive queries whose sum is the total;
		 * RD_MULTIVIEW_QUERIES picks the total in the first one or one
		 * view per query. */
		bool spread = a->view_mask && cfg->multiview != RD_MV_FIRST;
		/* RD_MULTIVIEW_QUERIES=reversed: view order reversed over the
		 * queries ("how the numerical results of the query are
		 * distributed among the queries is implementation-dependent") */
		uint32_t slot = cfg->multiview == RD_MV_REVERSED ? n - 1 - v : v;
		/* the view of this query under spread: the slot-th set bit of
		 * the view mask */
		uint32_t view = 0;
		for (uint32_t k = 0, m = a->view_mask; m && k <= slot; k++) {
			view = (uint32_t)__builtin_ctz(m);
			m &= m - 1;
		}
		struct rd_query_view q = {
			.a = a,
			.views = n,
			.slot = slot,
			.view = view,
			.first_view = a->view_mask ? (uint32_t)__builtin_ctz(a->view_mask) : 0,
			.spread = spread,
			.occlusion = spread ? d->draw.samples_passed[view] : total_samples(d),
			.elapsed_ticks = (uint64_t)((double)d->time_ns / cfg->timestamp_period),
		};
		/* without spread the first query holds the total and the others
		 * nothing */
		if (!spread && v > 0) {
			if (rd_hook_query_values(e, &q, values))
				make_available(e, pool, first + v);
			continue;
		}
		if (pool->type == VK_QUERY_TYPE_OCCLUSION) {
			pool->nonprecise[first + v] = !(a->flags & VK_QUERY_CONTROL_PRECISE_BIT);
			values[0] += (a->flags & VK_QUERY_CONTROL_PRECISE_BIT)
					     ? q.occlusion
					     : exec_nonprecise(cfg, q.occlusion);
		} else if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
			/* Statistics are counted for all views together, but for
			 * the fragment shader's, counted per view: the first
			 * query holds the total, or under spread each query its
			 * view's fragment shader invocations and the first the
			 * rest (the N sum to the total either way). */
			const uint32_t fs_bit = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT;
			uint32_t k = 0;
			for (uint32_t bit = 0; bit < 32; bit++)
				if (pool->statistics & (1u << bit))
					values[k++] += (1u << bit) == fs_bit && spread
							       ? d->draw.fs_invocations[view]
						       : slot == 0 ? exec_statistic(d, bit)
								   : 0;
		} else if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
			/* 18.7: primitives written, then primitives output to the
			 * query's vertex stream (index) while transform feedback
			 * was active. */
			if (a->index < RD_MAX_STREAMS) {
				values[0] = d->draw.xfb_primitives_written[a->index];
				values[1] = d->draw.xfb_primitives_needed[a->index];
			}
		} else if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
			/* 18.8: every primitive output to the query's vertex
			 * stream (index), whether or not transform feedback is
			 * active. */
			if (a->index < RD_MAX_STREAMS)
				values[0] = d->draw.primitives_generated[a->index];
		} else if (pool->type == VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT) {
			/* 18.9: mesh primitives that reach the fragment shader
			 * stage, counted for all views together (the first
			 * query holds the total) */
			values[0] = !spread || slot == 0 ? d->draw.mesh_primitives : 0;
		} else if (pool->type == VK_QUERY_TYPE_TIME_ELAPSED_QCOM) {
			/* The device time between begin and end, summed over the
			 * phases (every tile), in timestamp ticks within
			 * timestampValidBits.  Multiview: the total in the first
			 * query, or split evenly with the remainder in the first;
			 * "the sum of the results in all of the view query indices
			 * must accurately reflect the total". */
			values[0] = exec_elapsed_share(q.elapsed_ticks, n, slot, spread) & exec_valid_mask(e);
		}
		if (rd_hook_query_values(e, &q, values))
			make_available(e, pool, first + v);
	}
}

/* An elapsed time of ticks over n view queries: all in one query, or split
 * evenly with the remainder in the first. */
uint64_t exec_elapsed_share(uint64_t ticks, uint32_t n, uint32_t slot, bool spread)
{
	uint64_t share = ticks / n;
	return !spread ? ticks : slot == 0 ? ticks - share * (n - 1) : share;
}

/* vkCmdEndQueryIndexedEXT "completes the query in queryPool identified by
 * query and index".  On the tiler a query inside a render pass completes
 * at its end in the last tile. */
void exec_end_query(struct exec *e, struct rd_query_pool *pool, uint32_t query, uint32_t index)
{
	struct active_query *a = find_query(e, pool, query, index);
	if (!a || !a->open) {
		rd_log("vkCmdEndQuery: query %u (index %u) is not active", query, index);
		return;
	}
	bool keep_time;
	if (!rd_hook_end_query(e, &keep_time)) {
		drop_query(e, a);
		return;
	}
	struct rd_counters now;
	exec_sample(e, &now);
	rd_hook_end_counters(e, a, &now);
	uint64_t time_before = a->delta.time_ns;
	exec_counters_accumulate(&a->delta, &now, &a->begin);
	if (!keep_time)
		a->delta.time_ns = time_before;
	a->open = false;
	a->ended_in_secondary = e->secondary_depth > 0;
	if (e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index + 1 < e->tile_count))
		return;
	struct active_query done = *a;
	drop_query(e, a);
	finish_query(e, &done);
}

/* 18.2 lets "rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits" count towards a query.  The reference
 * counts none, unless RD_META_DRAWS=1: then each is an internal draw of two
 * triangles over 16 pixels (and an internal dispatch of 64 invocations), as
 * drivers that run them on the 3D or compute engine count them. */
void exec_meta_operation(struct exec *e)
{
	if (e->dev->instance->config.meta_draws) {
		struct rd_draw_counters *d = &e->q->counters.draw;
		d->samples_passed[0] += 16;
		d->ia_vertices += 6;
		d->ia_primitives += 2;
		d->vs_invocations += 6;
		d->clipping_invocations += 2;
		d->clipping_primitives += 2;
		d->fs_invocations[0] += 16;
		d->primitives_generated[0] += 2;
		e->q->counters.cs_invocations += 64;
	}
	for (uint32_t i = 0; i < e->active_count; i++) {
		struct active_query *a = &e->active[i];
		if (a->pool && a->open && !a->meta_seen) {
			a->meta_seen = true;
			exec_sample(e, &a->at_meta);
		}
	}
}

/* A timestamp inside a render pass on the tiler is written while the first
 * tile executes (spec 18.5 lets an implementation write it at any stage
 * logically after the one named; a tiler has no better moment: the pass
 * runs once per tile).  In the binning phase and later tiles it is not
 * written again. */
void exec_write_timestamp(struct exec *e, struct rd_query_pool *pool, uint32_t query)
{
	if (e->phase == PHASE_BIN || (e->phase == PHASE_TILE && e->tile_index > 0))
		return;
	/* "If an overflow occurs, the timestamp value must wrap back to zero";
	 * bits above timestampValidBits are zero. */
	uint64_t t = rd_clock_ticks(e->dev, exec_time(e)) & exec_valid_mask(e);
	if (!rd_hook_timestamp(e, query, &t))
		return;
	uint32_t n = e->s.in_pass ? query_views(e->s.view_mask) : 1;
	bool spread = e->dev->instance->config.multiview != RD_MV_FIRST;
	for (uint32_t v = 0; v < n && query + v < pool->count; v++) {
		/* 18.5 multiview: the first query holds the timestamp and the
		 * others zero, or all N hold timestamps. */
		rd_query_values(pool, query + v)[0] = v == 0 || spread ? t : 0;
		make_available(e, pool, query + v);
	}
}
