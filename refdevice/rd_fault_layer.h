/* The fault layer: the injectable faults (RD_FAULT, rd.h's RD_FAULT_LIST)
 * of the query results writer (rd_query.c) and the executor's queries
 * (rd_exec_query.c), applied at a few named hook points.
 *
 * Those two files compute what the spec says and nothing else; at each
 * hook point they hand what they computed to this layer, which returns it
 * unchanged unless RD_FAULT names a fault of that point, and then changes
 * it the way the fault's driver bug did.  One fault is active at a time,
 * so a hook may assume everything else it sees is the reference's.
 *
 *   hook                      where                     faults
 *   rd_hook_reset             a reset's range           reset_short_range,
 *                                                       reset_clears_neighbour,
 *                                                       performance_reset_from_query_zero
 *   rd_hook_values_kept       reset and query end       occlusion/statistics_accumulate
 *   rd_hook_results_see_loss  a results call, a WAIT    query_wait_ignores_lost_device
 *   rd_hook_results_touched   the one-memcpy path       (any fault turns it off)
 *   rd_hook_results_layout    a results call            results_stride_ignored,
 *                                                       results_32bit_as_64bit,
 *                                                       availability_before_values,
 *                                                       wait_ignored
 *   rd_hook_results_element   each query's element      first_query_ignored, partial_*, pgq stride,
 *                                                       availability_zero/_32bit,
 *                                                       statistics availability, status,
 *                                                       writes_past_element
 *   rd_hook_begin_query       vkCmdBeginQuery           available_at_begin
 *   rd_hook_end_query         vkCmdEndQuery             suspended query dropped,
 *                                                       elapsed time of the first tile
 *   rd_hook_perf_*            a performance pass        counter order, pass ignored,
 *                                                       create-reset (stale accumulators)
 *   rd_hook_encode_feedback   video encode feedback     offset, intra/inter, order
 *   rd_hook_query_slot        where an end's values go  statistics_compute_queue_query_zero
 *   rd_hook_query_values      each view's values        occlusion, statistics, XFB,
 *                                                       primitives generated, elapsed
 *                                                       time, multiview
 *   rd_hook_timestamp         vkCmdWriteTimestamp       the timestamp faults
 *   rd_hook_end_counters      a query's end             counting off after a meta operation
 *   rd_hook_clear_captured    vkCmdClearAttachments     a clear captured by transform feedback
 *
 * The other faults (draws, the clock, properties) stay where they act. */
#ifndef RD_FAULT_LAYER_H
#define RD_FAULT_LAYER_H

#include "rd.h"

struct exec;
struct active_query;

/* Results ----------------------------------------------------------------------------*/

/* A reset of queries first to first + count - 1 (*first, *count may
 * change). */
void rd_hook_reset(const struct rd_config *c, const struct rd_query_pool *pool, uint32_t *first,
		   uint32_t *count);
/* Whether a query's values survive a reset and are added to at its end
 * (the reference: never). */
bool rd_hook_values_kept(const struct rd_config *c, const struct rd_query_pool *pool);

/* Whether a results call sees that the device is lost: it returns
 * VK_ERROR_DEVICE_LOST, and a WAIT ends (the reference: yes). */
bool rd_hook_results_see_loss(const struct rd_config *c);

/* How one vkGetQueryPoolResults or vkCmdCopyQueryPoolResults lays out its
 * elements. */
struct rd_results_layout {
	bool is64;             /* 64-bit words */
	VkDeviceSize stride;   /* between elements */
	size_t elem;           /* an element's bytes: values, availability or status */
	bool availability_first; /* the reference: the word after the values */
	bool wait;             /* VK_QUERY_RESULT_WAIT_BIT honoured */
};
/* The layout of a call; the writer takes is64 and stride from it. */
void rd_hook_results_layout(const struct rd_config *c, struct rd_results_layout *l);
/* Whether the layer changes anything a results call writes (a call it
 * leaves alone may take the writer's one-memcpy path). */
bool rd_hook_results_touched(const struct rd_config *c);

/* What the writer puts in one query's element. */
struct rd_results_element {
	uint32_t query;            /* the query of this element */
	uint32_t values_of;        /* the query whose values are written */
	bool available;
	enum { RD_VALUES_NONE, RD_VALUES_FINAL, RD_VALUES_PARTIAL, RD_VALUES_ZERO } values;
	bool partial_override;     /* every PARTIAL value is partial_value (the
				      reference: no, they follow RD_PARTIAL_VALUES) */
	uint64_t partial_value;
	bool availability;         /* an availability word is written */
	uint64_t availability_value;
	uint32_t availability_at;  /* its word index (the reference: value_count) */
	bool availability64;       /* 64 bits (the reference: as the values) */
	bool status;               /* a status word is written */
	uint32_t trailing_zero_bytes; /* bytes zeroed past the element (the reference: 0) */
};
void rd_hook_results_element(const struct rd_config *c, const struct rd_query_pool *pool,
			     uint32_t index, struct rd_results_element *el);

/* The executor --------------------------------------------------------------------*/

/* A query begun: true when it is made available at once (the reference:
 * never). */
bool rd_hook_begin_query(const struct exec *e, const struct rd_query_pool *pool);
/* A query ended.  False: the end is dropped (the query is never finished).
 * *keep_time: whether this phase's device time counts (the reference:
 * every phase). */
bool rd_hook_end_query(const struct exec *e, bool *keep_time);

/* A performance query pass: the counter slot k reports (the reference:
 * pCounterIndices[k]), and whether every pass writes every counter (the
 * reference: only the pass of the counter's group). */
uint32_t rd_hook_perf_counter(const struct rd_config *c, const struct rd_query_pool *pool,
			      uint32_t k);
bool rd_hook_perf_every_pass(const struct rd_config *c);
/* Whether a pass of performance query `query` adds its values to what the
 * query holds (the reference: it writes them).  The create-reset faults
 * leave a pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR with stale,
 * available results; a query of it used without a reset then counts onto
 * them, as a driver that initializes its accumulators only in a reset. */
bool rd_hook_perf_adds(const struct rd_config *c, const struct rd_query_pool *pool,
		       uint32_t query);

/* The video encode feedback values[0..count) of the ended query a, in
 * bit order. */
void rd_hook_encode_feedback(const struct exec *e, const struct active_query *a,
			     uint64_t *values, uint32_t count);

/* The query whose values an ended query writes (the reference: its own). */
uint32_t rd_hook_query_slot(const struct exec *e, const struct rd_query_pool *pool,
			    uint32_t query);

/* One query of an ended query's views, as the reference computed it. */
struct rd_query_view {
	const struct active_query *a;
	uint32_t views;        /* N: the queries the views use */
	uint32_t slot;         /* this query's index among them */
	uint32_t view, first_view;
	bool spread;           /* one view per query (else the total in the first) */
	uint64_t occlusion;    /* occlusion: the sample count the value is made of */
	uint64_t elapsed_ticks; /* elapsed time: the ticks before they are shared out */
};
/* The values of that query (values may change); false: the query is not
 * made available (the reference: true). */
bool rd_hook_query_values(const struct exec *e, const struct rd_query_view *q, uint64_t *values);

/* The counters a query's end samples, *now as the reference sampled them
 * (a fault may stop counting at the query's first clear, copy, blit or
 * resolve: a->at_meta). */
void rd_hook_end_counters(const struct exec *e, const struct active_query *a,
			  struct rd_counters *now);

/* The triangles a vkCmdClearAttachments appends to the bound transform
 * feedback buffers while transform feedback is active (the reference:
 * none). */
uint32_t rd_hook_clear_captured(const struct exec *e);

/* A timestamp: *t as the reference writes it (within the valid bits).
 * False: nothing is written. */
bool rd_hook_timestamp(const struct exec *e, uint32_t query, uint64_t *t);

#endif
