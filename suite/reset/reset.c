/* Query reset and availability (spec 18.2): when a reset takes effect
 * (same command buffer, an earlier command buffer or submission, the host,
 * a pool created reset), its ordering against vkCmdCopyQueryPoolResults, a
 * reset of part of a pool, one query reused many times, PARTIAL and WAIT
 * reads of a query whose work has not run yet, and VK_NOT_READY exactly
 * when a read query is unavailable.
 *
 * Known values:
 * - Occlusion: query q of use "gen" counts one draw of a rect_w(q) x
 *   rect_h(gen) rectangle with integer edges on a 1-sample target, with
 *   VK_QUERY_CONTROL_PRECISE_BIT, so its result is exactly the area (why the
 *   count is exact: suite/occlusion/occlusion.c).  The areas differ between
 *   queries and between uses, so a stale result of an earlier use, a sum of
 *   uses or a neighbour's result is caught.
 * - Timestamps have no value known in advance: a written one is non-zero
 *   with no bit above timestampValidBits (see framework/tscheck.h),
 *   and a result read once is "final" (18.2), so later reads of the same
 *   use must return it again.
 *
 * Every read goes into a destination pre-filled with guard bytes; each word
 * is pre-filled so that *not* writing it fails its check, and nothing
 * outside the result words may change (18.2 memory layout).
 *
 * Queries whose work has not run (the "partial" and "wait" groups): the
 * command buffer using them is submitted waiting on a timeline semaphore
 * that only the host signals (wait-before-signal is valid for timeline
 * semaphores: spec "Queue Forward Progress").  A host-set VkEvent cannot
 * serve: "If a command buffer is waiting for an event to be signaled from
 * the host, the application must signal the event before submitting the
 * command buffer" (vkSetEvent, queue forward progress), and a host event
 * cannot be waited on inside a render pass instance
 * (VUID-vkCmdWaitEvents-srcStageMask-07308).  The query was reset in work
 * that completed, so it is unavailable with a final value known from
 * geometry until the host opens the gate.  A watchdog thread opens the gate
 * after WATCHDOG_NS whatever happens, so no path of the case (a failed
 * check, the framework's vkDeviceWaitIdle at cleanup, a driver that blocks
 * where it must not) can wait forever. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tscheck.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define MAX_QUERIES 8u
/* The first result lands this far into the destination: a multiple of 8
 * (VUID-vkCmdCopyQueryPoolResults-flags-00823, VUID-vkGetQueryPoolResults-
 * flags-00815) but not of 16. */
#define DST_OFFSET 24u
/* Guard bytes between one query's words and the next one's. */
#define STRIDE_PAD 8u
#define TAIL_GUARD 40u
/* Not a plausible count, timestamp or availability word. */
#define GUARD 0xA5u
/* The watchdog opens a gate this long after the submission.  A read
 * without WAIT returns in microseconds; a second leaves four orders of
 * magnitude for a loaded machine, and bounds what a driver that blocks
 * there (lavapipe) costs the run. */
#define WATCHDOG_NS (1000ull * 1000 * 1000)
/* The wait.* cases: the host opens the gate this long after submitting,
 * while the main thread is inside vkGetQueryPoolResults with WAIT. */
#define WAIT_OPEN_DELAY_NS (50ull * 1000 * 1000)
/* PARTIAL reads while a gated submission executes. */
#define MAX_POLLS 20000u

enum qtype { QT_OCCLUSION, QT_TIMESTAMP };
static const char *const qtype_names[] = {"occlusion", "timestamp"};

enum path { PATH_GET, PATH_COPY };
static const char *const path_names[] = {"get", "copy"};
static const char *const path_api[] = {"vkGetQueryPoolResults",
				       "vkCmdCopyQueryPoolResults"};

static uint32_t rect_w(uint32_t query)
{
	return 4u + 3u * query;
}

static uint32_t rect_h(uint32_t gen)
{
	return 3u + 7u * gen;
}

/* 4..25 x 3..52 pixels: inside the 64 x 64 target, every (query, gen)
 * pair of a case a different count. */
static uint64_t use_area(uint32_t query, uint32_t gen)
{
	return (uint64_t)rect_w(query) * rect_h(gen);
}

/* The scene ----------------------------------------------------------------*/

struct scene {
	enum qtype type;
	VkQueryPool pool;
	uint32_t queries;
	struct vkqs_target *t;        /* occlusion */
	struct vkqs_pipeline *p;      /* occlusion: no depth test */
	struct vkqs_pipeline *p_less; /* occlusion with depth: LESS, no writes */
	uint32_t ts_bits;             /* timestamp: the graphics family's */
};

static struct scene *scene_create(struct vkqs_ctx *ctx, enum qtype type,
				  uint32_t queries, VkQueryPoolCreateFlags flags,
				  bool depth)
{
	struct scene *s = vkqs_alloc(ctx, sizeof(*s));
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	s->type = type;
	s->queries = queries;
	if (type == QT_OCCLUSION) {
		/* The values are only known when the count is exact: 18.3 lets
		 * a non-precise query return any non-zero value. */
		vkqs_require_feature(ctx, "occlusionQueryPrecise");
		vkqs_require_exact_coverage(ctx);
		s->t = vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, depth);
		struct vkqs_pipeline_desc desc = {0};
		s->p = vkqs_pipeline_rect(ctx, s->t, &desc);
		if (depth) {
			desc.depth_test = true;
			desc.depth_compare = VK_COMPARE_OP_LESS;
			s->p_less = vkqs_pipeline_rect(ctx, s->t, &desc);
		}
	} else {
		/* VUID-vkCmdWriteTimestamp-timestampValidBits-00829 */
		s->ts_bits = ctx->vk->info.families[ctx->vk->gfx.family].timestamp_valid_bits;
		if (!s->ts_bits)
			vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0");
	}
	VkQueryPoolCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
		.flags = flags,
		.queryType = type == QT_OCCLUSION ? VK_QUERY_TYPE_OCCLUSION
						  : VK_QUERY_TYPE_TIMESTAMP,
		.queryCount = queries,
	};
	VKQS_CHECK(ctx, D->vkCreateQueryPool(DEV, &ci, NULL, &s->pool));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_QUERY_POOL, s->pool);
	return s;
}

/* Query q around `draws` draws of a w x h rectangle at the origin, inside
 * the current subpass. */
static void occ_query(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		      const struct vkqs_pipeline *p, uint32_t q, uint32_t w, uint32_t h,
		      uint32_t draws, float z)
{
	D->vkCmdBeginQuery(cb, s->pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
	for (uint32_t i = 0; i < draws; i++)
		vkqs_draw_rect(ctx, cb, p, s->t, 0.0f, 0.0f, (float)w, (float)h, z);
	D->vkCmdEndQuery(cb, s->pool, q);
}

/* Uses queries [first, first + count) once each: one render pass instance
 * with a rect_w(q) x rect_h(gen) draw per occlusion query, or a timestamp
 * write per query.  The queries must be reset (18.2: "Queries must also be
 * reset between uses"; VUID-vkCmdBeginQuery-None-00807,
 * VUID-vkCmdWriteTimestamp-None-00830). */
static void record_use(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		       uint32_t first, uint32_t count, uint32_t gen)
{
	if (s->type == QT_TIMESTAMP) {
		for (uint32_t q = first; q < first + count; q++)
			D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
					       s->pool, q);
		return;
	}
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t q = first; q < first + count; q++)
		occ_query(ctx, cb, s, s->p, q, rect_w(q), rect_h(gen), 1, 0.5f);
	vkqs_target_end(ctx, cb);
}

static void submit_wait_one(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* Resets [first, first + count) and waits for it: on the host
 * (vkResetQueryPool; VUID-vkResetQueryPool-firstQuery-02741 holds, every
 * earlier submission having completed) or in a submission of its own. */
static void reset_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		      uint32_t count, bool host)
{
	if (host) {
		D->vkResetQueryPool(DEV, s->pool, first, count);
		return;
	}
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, first, count);
	submit_wait_one(ctx, cb);
}

/* Reset (command) and use of [first, first + count), submitted and waited. */
static void use_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		    uint32_t count, uint32_t gen)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, first, count);
	record_use(ctx, cb, s, first, count, gen);
	submit_wait_one(ctx, cb);
}

/* The 64-bit results of available queries, for timestamps read again later. */
static void read_baseline(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
			  uint32_t count, uint64_t *out)
{
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, s->pool, first, count,
						count * sizeof(uint64_t), out,
						sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

/* What one read must write ------------------------------------------------*/

enum value_expect {
	V_EXACT,     /* == value */
	V_TS_KNOWN,  /* the timestamp value read before (32-bit: wrap or saturate) */
	V_TIMESTAMP, /* a written timestamp: non-zero, within the valid bits */
	V_AT_MOST,   /* <= value: a PARTIAL result of an unavailable query */
	V_UNDEFINED, /* may be written with anything */
	/* An unavailable query's value without PARTIAL, through
	 * vkGetQueryPoolResults: the current 18.2 lets an undefined value be
	 * written ("Otherwise, any result written by this command is
	 * undefined"); earlier versions said no result values are written for
	 * unavailable queries, and the CTS checks that.  Written bytes are a
	 * CompatibilityWarning. */
	V_UNWRITTEN,
};

enum avail_expect { A_NONZERO, A_ZERO };

struct qexp {
	enum value_expect v;
	uint64_t value;
	enum avail_expect a; /* also decides whether VK_NOT_READY may come back */
};

/* The expectation of a query used once (gen) and read after its work. */
static struct qexp exp_used(const struct scene *s, uint32_t q, uint32_t gen)
{
	if (s->type == QT_OCCLUSION)
		return (struct qexp){V_EXACT, use_area(q, gen), A_NONZERO};
	return (struct qexp){V_TIMESTAMP, 0, A_NONZERO};
}

/* A used query whose 64-bit result `known` was read before: occlusion is
 * the area anyway; a timestamp must read `known` again ("Results for any
 * available query written by this command are final"). */
static struct qexp exp_known(const struct scene *s, uint32_t q, uint32_t gen,
			     uint64_t known)
{
	if (s->type == QT_OCCLUSION)
		return exp_used(s, q, gen);
	return (struct qexp){V_TS_KNOWN, known, A_NONZERO};
}

/* A reset query that no command has used since. */
static struct qexp exp_reset(enum path path, VkQueryResultFlags flags)
{
	/* A copy WITH_AVAILABILITY copies "results for all queries" (18.2),
	 * undefined for this one. */
	bool copied = path == PATH_COPY && (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	return (struct qexp){copied ? V_UNDEFINED : V_UNWRITTEN, 0, A_ZERO};
}

/* One read and its destination -------------------------------------------*/

struct rb {
	enum path path;
	const struct scene *s;
	uint32_t first, count;
	VkQueryResultFlags flags;
	VkDeviceSize stride;
	size_t size;
	struct qexp e[MAX_QUERIES];
	uint8_t *init;           /* the pre-filled destination */
	uint8_t *bytes;          /* host array (get) or the mapping (copy) */
	struct vkqs_buffer *buf; /* copy */
	uint64_t value[MAX_QUERIES], avail[MAX_QUERIES]; /* decoded by rb_check */
};

static size_t rb_word(const struct rb *r)
{
	return vkqs_result_word(r->flags);
}

static bool rb_has_avail(const struct rb *r)
{
	return (r->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
}

/* (Re)writes the destination from the expectations: guard bytes, each value
 * word pre-filled so that leaving it unwritten fails (0 for a timestamp,
 * the guard otherwise: no count or bound here equals it), each
 * availability word the opposite of what it must become. */
static void rb_fill(struct vkqs_ctx *ctx, struct rb *r)
{
	size_t w = rb_word(r);
	memset(r->init, GUARD, r->size);
	for (uint32_t k = 0; k < r->count; k++) {
		uint8_t *at = r->init + DST_OFFSET + (size_t)k * r->stride;
		if (r->e[k].v == V_TIMESTAMP)
			memset(at, 0, w);
		if (rb_has_avail(r))
			memset(at + w, r->e[k].a == A_NONZERO ? 0 : GUARD, w);
	}
	memcpy(r->bytes, r->init, r->size);
	if (r->buf)
		vkqs_buffer_flush(ctx, r->buf);
}

static struct rb *rb_create(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
			    uint32_t first, uint32_t count, VkQueryResultFlags flags,
			    const struct qexp *e)
{
	struct rb *r = vkqs_alloc(ctx, sizeof(*r));
	if (count == 0 || count > MAX_QUERIES)
		vkqs_internal_error(ctx, "read of %u queries", count);
	r->path = path;
	r->s = s;
	r->first = first;
	r->count = count;
	r->flags = flags;
	/* A multiple of the word size (VUID-vkGetQueryPoolResults-flags-
	 * 02828/-00815, VUID-vkCmdCopyQueryPoolResults-flags-00822/-00823). */
	r->stride = vkqs_result_elem(r->flags) + STRIDE_PAD;
	memcpy(r->e, e, count * sizeof(*e));
	/* Vulkan-ValidationLayers 1.3.239 sizes a copy's destination as
	 * dstOffset + queryCount * stride: room for that, all guarded. */
	r->size = DST_OFFSET + (size_t)count * r->stride + TAIL_GUARD;
	r->init = vkqs_alloc(ctx, r->size);
	if (path == PATH_GET) {
		r->bytes = vkqs_alloc(ctx, r->size); /* malloc: 16-byte aligned */
	} else {
		r->buf = vkqs_buffer_host(ctx, r->size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
		r->bytes = r->buf->map;
	}
	rb_fill(ctx, r);
	return r;
}

/* Never ends the case: safe while a gated submission is pending. */
static VkResult rb_get(struct vkqs_ctx *ctx, const struct rb *r)
{
	return D->vkGetQueryPoolResults(DEV, r->s->pool, r->first, r->count,
					vkqs_result_span(r->count, r->stride, r->flags),
					r->bytes + DST_OFFSET, r->stride, r->flags);
}

/* vkCmdCopyQueryPoolResults is a transfer write (18.2): the barrier makes
 * it visible to the host after the fence. */
static void rb_record_copy(struct vkqs_ctx *ctx, const struct rb *r, VkCommandBuffer cb)
{
	D->vkCmdCopyQueryPoolResults(cb, r->s->pool, r->first, r->count, r->buf->buf,
				     DST_OFFSET, r->stride, r->flags);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
}

static bool any_unavailable(const struct rb *r)
{
	for (uint32_t k = 0; k < r->count; k++)
		if (r->e[k].a == A_ZERO)
			return true;
	return false;
}

/* 18.2: "If VK_QUERY_RESULT_WAIT_BIT is not set, vkGetQueryPoolResults may
 * return VK_NOT_READY if there are queries in the unavailable state."  With
 * every read query available (or WAIT) that leaves VK_SUCCESS.  With an
 * unavailable one the current text says "may"; earlier versions said it
 * returns VK_NOT_READY (when neither WAIT nor PARTIAL is set) and the CTS
 * requires it: VK_SUCCESS is a CompatibilityWarning there.  With PARTIAL
 * both are right. */
static void check_get_result(struct vkqs_ctx *ctx, const struct rb *r, VkResult got)
{
	if ((r->flags & VK_QUERY_RESULT_WAIT_BIT) || !any_unavailable(r)) {
		vkqs_check_vk(ctx, false, __FILE__, __LINE__,
			      "vkGetQueryPoolResults with every read query available",
			      got, VK_SUCCESS);
	} else if (r->flags & VK_QUERY_RESULT_PARTIAL_BIT) {
		VKQS_EXPECTF(ctx, got == VK_SUCCESS || got == VK_NOT_READY,
			     "vkGetQueryPoolResults with PARTIAL and an unavailable query "
			     "returned %s (%d), expected VK_SUCCESS or VK_NOT_READY",
			     vkqs_vk_result_name(got), got);
	} else {
		vkqs_expect_not_ready(ctx, got,
				      "vkGetQueryPoolResults without WAIT or PARTIAL of an "
				      "unavailable query");
	}
}

/* Decodes the destination into r->value / r->avail and checks it against
 * r->e; `what` names the read.  True when every check held. */
static bool rb_check(struct vkqs_ctx *ctx, struct rb *r, const char *what)
{
	const char *api = path_api[r->path];
	size_t w = rb_word(r), elem = vkqs_result_elem(r->flags);
	bool ok = true;
	if (r->buf)
		vkqs_buffer_invalidate(ctx, r->buf);

	for (uint32_t k = 0; k < r->count; k++) {
		const struct qexp *e = &r->e[k];
		uint32_t q = r->first + k;
		size_t at = DST_OFFSET + (size_t)k * r->stride;
		uint64_t v = vkqs_load_word(r->bytes + at, w);
		r->value[k] = v;
		switch (e->v) {
		case V_EXACT:
			ok &= VKQS_EXPECTF(ctx, v == e->value,
					   "%s: %s query %u: %zu-bit value %" PRIu64
					   ", expected %" PRIu64,
					   what, api, q, w * 8, v, e->value);
			break;
		case V_TS_KNOWN: {
			/* 18.2: a 32-bit result of a larger value "may either
			 * wrap or saturate". */
			bool match = w == 8 ? v == e->value
					    : v == (uint32_t)e->value ||
						      (e->value > UINT32_MAX && v == UINT32_MAX);
			ok &= VKQS_EXPECTF(ctx, match,
					   "%s: %s timestamp query %u: %zu-bit value %" PRIu64
					   ", expected the final value %" PRIu64
					   " read before (18.2: results of an available "
					   "query are final)",
					   what, api, q, w * 8, v, e->value);
			break;
		}
		case V_TIMESTAMP: {
			/* Non-zero (0 reads only in the tick after a wrap,
			 * probability <= 2^-32 here, else it is a value never
			 * written, bug class 15), and within the valid bits
			 * (checked on the 64-bit word): framework/tscheck.h. */
			char tw[256];
			snprintf(tw, sizeof(tw), "%s: %s timestamp query %u (%zu-bit value)", what,
				 api, q, w * 8);
			ok &= VKQS_TS_EXPECT_VALID(ctx, tw, v, w == 8 ? r->s->ts_bits : 64);
			break;
		}
		case V_AT_MOST:
			ok &= VKQS_EXPECTF(ctx, v <= e->value,
					   "%s: %s query %u (unavailable, PARTIAL): %zu-bit "
					   "value %" PRIu64 " exceeds the final result %" PRIu64
					   " (18.2: \"an intermediate result between zero and "
					   "the final result value\")",
					   what, api, q, w * 8, v, e->value);
			break;
		case V_UNDEFINED:
			break;
		case V_UNWRITTEN:
			if (memcmp(r->bytes + at, r->init + at, w) != 0)
				vkqs_compat_warning(
					ctx,
					"%s: %s wrote 0x%" PRIx64 " into the value of unavailable "
					"query %u: allowed by the current 18.2 (\"any result "
					"written by this command is undefined\"), but earlier "
					"versions said no result values are written for "
					"unavailable queries and the CTS requires that",
					what, api, v, q);
			break;
		}
		if (!rb_has_avail(r))
			continue;
		uint64_t a = vkqs_load_word(r->bytes + at + w, w);
		r->avail[k] = a;
		/* 18.2: "A value of zero indicates that the results are not
		 * yet available, otherwise the query is complete and results
		 * are available." */
		if (e->a == A_NONZERO)
			ok &= VKQS_EXPECTF(ctx, a != 0,
					   "%s: %s query %u: availability word 0, expected "
					   "non-zero (available)", what, api, q);
		else
			ok &= VKQS_EXPECTF(ctx, a == 0,
					   "%s: %s query %u: availability word %" PRIu64
					   ", expected 0 (unavailable)", what, api, q, a);
	}

	size_t bad = 0, first_bad = 0;
	for (size_t i = 0; i < r->size; i++) {
		bool in_word = i >= DST_OFFSET &&
			       i - DST_OFFSET < (size_t)r->count * r->stride &&
			       (i - DST_OFFSET) % r->stride < elem;
		if (!in_word && r->bytes[i] != r->init[i] && !bad++)
			first_bad = i;
	}
	ok &= VKQS_EXPECTF(ctx, bad == 0,
			   "%s: %s changed %zu byte(s) outside its result words (18.2 "
			   "memory layout: results at offset %u + k * stride %" PRIu64
			   ", %zu-byte words), first at byte %zu = 0x%02x",
			   what, api, bad, DST_OFFSET, (uint64_t)r->stride, w, first_bad,
			   bad ? r->bytes[first_bad] : GUARD);
	return ok;
}

/* One read after all the work that uses the queries completed; a copy goes
 * in a submission of its own (without WAIT the copy's first scope holds no
 * vkCmdEndQuery / vkCmdWriteTimestamp, 18.2: the fence wait in between
 * orders them). */
static void read_check(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
			     uint32_t first, uint32_t count, VkQueryResultFlags flags,
			     const struct qexp *e, const char *what)
{
	struct rb *r = rb_create(ctx, s, path, first, count, flags, e);
	if (path == PATH_GET) {
		check_get_result(ctx, r, rb_get(ctx, r));
	} else {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		rb_record_copy(ctx, r, cb);
		submit_wait_one(ctx, cb);
	}
	rb_check(ctx, r, what);
}

#define F64A (VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT)

/* Reads [0, n) of a scene where query q holds use gen (all available). */
static void read_used(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
		      uint32_t n, uint32_t gen, const char *what)
{
	struct qexp e[MAX_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = exp_used(s, q, gen);
	read_check(ctx, s, path, 0, n, F64A, e, what);
}

/* Gates: a timeline semaphore only the host signals ------------------------*/

struct gate {
	VkDevice dev;
	PFN_vkSignalSemaphore signal;
	VkSemaphore sem;
	uint64_t delay_ns;      /* the timer thread opens the gate after this */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool open;              /* the semaphore holds 1 */
	bool by_timer;          /* opened by the timer thread */
	uint64_t opened_ns;
	VkResult signal_result;
};

static void gate_open_locked(struct gate *g, bool by_timer)
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
	struct gate *g = arg;
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

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	gate_open_locked(g, false);
	pthread_mutex_unlock(&g->lock);
}

/* State read by the main thread. */
static bool gate_state(struct gate *g, bool *by_timer, uint64_t *opened_ns)
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
	struct gate *g = arg;
	gate_open(g);
	pthread_join(g->thread, NULL);
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

static struct gate *gate_create(struct vkqs_ctx *ctx, uint64_t delay_ns)
{
	/* Core in 1.2 (vkqs needs 1.2), but an optional feature there. */
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct gate *g = vkqs_alloc(ctx, sizeof(*g));
	VkSemaphoreTypeCreateInfo tci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
		.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
		.initialValue = 0,
	};
	VkSemaphoreCreateInfo sci = {
		.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO,
		.pNext = &tci,
	};
	VKQS_CHECK(ctx, D->vkCreateSemaphore(DEV, &sci, NULL, &g->sem));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_SEMAPHORE, g->sem);
	g->dev = DEV;
	g->signal = D->vkSignalSemaphore;
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
 * signal) and signal `fence` after.  From here until gate_open() only
 * checks that never end the case may run. */
static void submit_gated(struct vkqs_ctx *ctx, struct gate *g, VkCommandBuffer cb,
			 VkFence fence)
{
	const uint64_t one = 1;
	const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
	VkTimelineSemaphoreSubmitInfo tl = {
		.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		.waitSemaphoreValueCount = 1,
		.pWaitSemaphoreValues = &one,
	};
	VkSubmitInfo si = {
		.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
		.pNext = &tl,
		.waitSemaphoreCount = 1,
		.pWaitSemaphores = &g->sem,
		.pWaitDstStageMask = &stage,
		.commandBufferCount = 1,
		.pCommandBuffers = &cb,
	};
	VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &si, fence));
}

/* True while the gate is shut, i.e. the gated work cannot have started.
 * The timer opening it means the host was stuck in a Vulkan call for
 * WATCHDOG_NS since the submission: `during` names that call. */
static bool gate_still_shut(struct vkqs_ctx *ctx, struct gate *g, const char *during)
{
	bool by_timer = false;
	if (!gate_state(g, &by_timer, NULL))
		return true;
	/* The spec never says in words that a call without WAIT returns while
	 * work waits on the host: legal, but a valid program that signals
	 * after the call deadlocks, so it is a quality problem, not a Fail. */
	if (by_timer)
		vkqs_quality_warning(ctx, "%s did not return for %llu ms while the submission using "
			       "the query waited on a timeline semaphore that only the host "
			       "signals (the watchdog signalled it): it waited for work that "
			       "could not run, so a valid program that signals after the call "
			       "deadlocks.  Timeline semaphores allow wait-before-signal "
			       "(\"Queue Forward Progress\"), and 18.2 makes only "
			       "VK_QUERY_RESULT_WAIT_BIT wait for results",
			  during, (unsigned long long)(WATCHDOG_NS / 1000000ull));
	return false;
}

/* Opens the gate; a failed vkSignalSemaphore is a failure. */
static void gate_release(struct vkqs_ctx *ctx, struct gate *g)
{
	gate_open(g);
	pthread_mutex_lock(&g->lock);
	VkResult r = g->signal_result;
	pthread_mutex_unlock(&g->lock);
	vkqs_check_vk(ctx, false, __FILE__, __LINE__, "vkSignalSemaphore", r, VK_SUCCESS);
}

/* PARTIAL reads of query `q` of r while the gated work runs, until it is
 * available or the fence signals: an unavailable result must not exceed the
 * final one, an available one must be it (18.2).  Reads that happen to land
 * while the query is active are the interesting ones; every read is checked
 * whatever the timing. */
static void poll_partial(struct vkqs_ctx *ctx, struct rb *r, uint32_t k, uint64_t final,
			 VkFence fence)
{
	for (uint32_t i = 0; i < MAX_POLLS; i++) {
		bool done = D->vkGetFenceStatus(DEV, fence) == VK_SUCCESS;
		rb_fill(ctx, r);
		VkResult got = rb_get(ctx, r);
		uint64_t a = vkqs_load_word(r->bytes + DST_OFFSET + (size_t)k * r->stride +
					       rb_word(r),
				       rb_word(r));
		r->e[k] = a ? (struct qexp){V_EXACT, final, A_NONZERO}
			    : (struct qexp){V_AT_MOST, final, A_ZERO};
		check_get_result(ctx, r, got);
		if (!rb_check(ctx, r, "PARTIAL read while the submission executes") || a ||
		    done)
			return;
	}
}

/* The table's parameters ---------------------------------------------------*/

struct tp_param {
	uint8_t type; /* enum qtype */
	uint8_t path; /* enum path */
};

static const struct tp_param tp_params[] = {
	{QT_OCCLUSION, PATH_GET},
	{QT_OCCLUSION, PATH_COPY},
	{QT_TIMESTAMP, PATH_GET},
	{QT_TIMESTAMP, PATH_COPY},
};

static void tp_name(const void *param, char *buf, size_t size)
{
	const struct tp_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type], path_names[p->path]);
}

static const uint8_t type_params[] = {QT_OCCLUSION, QT_TIMESTAMP};

static void type_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", qtype_names[*(const uint8_t *)param]);
}

/* order: where the reset happens ------------------------------------------*/

#define ORDER_QUERIES 3u
#define ORDER_GEN 2u

/* vkCmdResetQueryPool, then the use, in one command buffer: the reset
 * "happens before" the later commands referencing the queries (18.2). */
static void order_same_command_buffer(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, ORDER_QUERIES);
	record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	submit_wait_one(ctx, cb);
	read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN, "reset and use in one command buffer");
}

/* The reset in a submission that completed before the use is recorded. */
static void order_earlier_submission(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	reset_now(ctx, s, 0, ORDER_QUERIES, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	submit_wait_one(ctx, cb);
	read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN,
		  "reset in an earlier, completed submission");
}

/* The reset in one command buffer, the use in the next one of the same
 * vkQueueSubmit: ordered by submission order alone, no host wait between
 * (bug class 7: a reset recorded in another command buffer than the
 * begin/end gave bogus results on MoltenVK). */
static void order_earlier_command_buffer(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	VkCommandBuffer cbs[2];
	cbs[0] = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cbs[0], s->pool, 0, ORDER_QUERIES);
	vkqs_cmd_end(ctx, cbs[0]);
	cbs[1] = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cbs[1], s, 0, ORDER_QUERIES, ORDER_GEN);
	vkqs_cmd_end(ctx, cbs[1]);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, cbs, 2, f);
	vkqs_fence_wait(ctx, f);
	read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN,
		  "reset in the previous command buffer of the same submission");
}

/* The reset on the host (vkResetQueryPool) of a fresh pool, then the use. */
static void order_host_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	reset_now(ctx, s, 0, ORDER_QUERIES, true);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	submit_wait_one(ctx, cb);
	read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN, "host reset before the use");
}

/* after_copy / before_copy: the reset against vkCmdCopyQueryPoolResults ---*/

struct copy_order_param {
	uint8_t type;
	bool same_cb; /* use, copy (WAIT) and reset in one command buffer */
};

static const struct copy_order_param after_copy_params[] = {
	{QT_OCCLUSION, true},
	{QT_OCCLUSION, false},
	{QT_TIMESTAMP, true},
	{QT_TIMESTAMP, false},
};

static void after_copy_name(const void *param, char *buf, size_t size)
{
	const struct copy_order_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type],
		 p->same_cb ? "same_command_buffer" : "results_from_earlier_submission");
}

/* A copy followed by a reset of the copied queries in the same command
 * buffer: the reset's first synchronization scope holds every earlier
 * command referencing the queries, the copy included (18.2), so the copy
 * reads the results from before the reset.  Either the queries were used
 * in that command buffer (the copy then needs WAIT to hold their
 * vkCmdEndQuery / vkCmdWriteTimestamp in its first scope), or in an earlier
 * submission whose results were read on the host first.  A read after the
 * fence shows the reset did happen. */
static void after_copy(struct vkqs_ctx *ctx, const void *param)
{
	const struct copy_order_param *p = param;
	const uint32_t n = 2, gen = 4;
	struct scene *s = scene_create(ctx, p->type, n, 0, false);
	struct qexp e[2];
	VkQueryResultFlags flags = F64A;

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, n);
	record_use(ctx, cb, s, 0, n, gen);
	if (p->same_cb) {
		flags |= VK_QUERY_RESULT_WAIT_BIT;
		for (uint32_t q = 0; q < n; q++)
			e[q] = exp_used(s, q, gen);
	} else {
		submit_wait_one(ctx, cb);
		uint64_t known[2];
		read_baseline(ctx, s, 0, n, known);
		for (uint32_t q = 0; q < n; q++)
			e[q] = exp_known(s, q, gen, known[q]);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	}
	struct rb *r = rb_create(ctx, s, PATH_COPY, 0, n, flags, e);
	D->vkCmdCopyQueryPoolResults(cb, s->pool, 0, n, r->buf->buf, DST_OFFSET, r->stride,
				     flags);
	D->vkCmdResetQueryPool(cb, s->pool, 0, n);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	submit_wait_one(ctx, cb);
	rb_check(ctx, r, "copy recorded before a reset of the same queries");

	struct qexp after[2] = {exp_reset(PATH_GET, F64A), exp_reset(PATH_GET, F64A)};
	read_check(ctx, s, PATH_GET, 0, n, F64A, after, "after the reset that followed the copy");
}

struct before_copy_param {
	uint8_t type;
	uint8_t bits;
};

static const struct before_copy_param before_copy_params[] = {
	{QT_OCCLUSION, 32},
	{QT_OCCLUSION, 64},
	{QT_TIMESTAMP, 32},
	{QT_TIMESTAMP, 64},
};

static void before_copy_name(const void *param, char *buf, size_t size)
{
	const struct before_copy_param *p = param;
	snprintf(buf, size, "%s_%u", qtype_names[p->type], p->bits);
}

/* Queries 0 and 1 hold results of an earlier submission; a command buffer
 * resets query 1 and then copies both WITH_AVAILABILITY: the reset happens
 * before the copy (18.2), so query 1 reads availability 0 (its value is
 * undefined: "results for all queries ... are copied") while query 0 keeps
 * its final result.  Without WITH_AVAILABILITY (or PARTIAL) a copy of a
 * reset query is flagged by Vulkan-ValidationLayers 1.3.239 ("Requesting a
 * copy from query to buffer ... QUERYRESULT_NO_DATA"), so this form is
 * not run. */
static void before_copy(struct vkqs_ctx *ctx, const void *param)
{
	const struct before_copy_param *p = param;
	const uint32_t n = 2, gen = 5;
	struct scene *s = scene_create(ctx, p->type, n, 0, false);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0);
	use_now(ctx, s, 0, n, gen);
	uint64_t known[2];
	read_baseline(ctx, s, 0, n, known);

	struct qexp e[2] = {exp_known(s, 0, gen, known[0]), exp_reset(PATH_COPY, flags)};
	struct rb *r = rb_create(ctx, s, PATH_COPY, 0, n, flags, e);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 1, 1);
	rb_record_copy(ctx, r, cb);
	submit_wait_one(ctx, cb);
	rb_check(ctx, r, "copy recorded after a reset of query 1");
}

/* range: a reset of part of a pool ----------------------------------------*/

#define RANGE_QUERIES 6u
#define RANGE_FIRST 2u
#define RANGE_COUNT 2u

struct range_param {
	uint8_t type;
	uint8_t path;
	bool host;
};

static const struct range_param range_params[] = {
	{QT_OCCLUSION, PATH_GET, false},  {QT_OCCLUSION, PATH_COPY, false},
	{QT_OCCLUSION, PATH_GET, true},   {QT_OCCLUSION, PATH_COPY, true},
	{QT_TIMESTAMP, PATH_GET, false},  {QT_TIMESTAMP, PATH_COPY, false},
	{QT_TIMESTAMP, PATH_GET, true},   {QT_TIMESTAMP, PATH_COPY, true},
};

static void range_name(const void *param, char *buf, size_t size)
{
	const struct range_param *p = param;
	snprintf(buf, size, "%s_%s_reset_%s", qtype_names[p->type],
		 p->host ? "host" : "command", path_names[p->path]);
}

static bool in_range(uint32_t q)
{
	return q >= RANGE_FIRST && q < RANGE_FIRST + RANGE_COUNT;
}

/* Six queries hold results; queries 2 and 3 are reset (18.2: the status of
 * "[firstQuery, firstQuery + queryCount - 1]" becomes unavailable, nothing
 * else).  The others keep their final results and stay available; the
 * reset ones read availability 0 (and VK_NOT_READY from the get).  Then
 * only 2 and 3 are used again: they read the new use, the others the old. */
static void range_partial_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct range_param *p = param;
	const uint32_t n = RANGE_QUERIES, gen0 = 1, gen1 = 6;
	enum path path = p->path;
	if (p->host)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = scene_create(ctx, p->type, n, 0, false);
	use_now(ctx, s, 0, n, gen0);
	uint64_t known[RANGE_QUERIES];
	read_baseline(ctx, s, 0, n, known);

	reset_now(ctx, s, RANGE_FIRST, RANGE_COUNT, p->host);
	struct qexp e[RANGE_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = in_range(q) ? exp_reset(path, F64A) : exp_known(s, q, gen0, known[q]);
	read_check(ctx, s, path, 0, n, F64A, e, "after the reset of queries 2 and 3");

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cb, s, RANGE_FIRST, RANGE_COUNT, gen1);
	submit_wait_one(ctx, cb);
	for (uint32_t q = RANGE_FIRST; q < RANGE_FIRST + RANGE_COUNT; q++)
		e[q] = exp_used(s, q, gen1);
	read_check(ctx, s, path, 0, n, F64A, e, "after queries 2 and 3 were used again");
}

/* reuse: one query, many uses ----------------------------------------------*/

#define REUSES 8u
/* Rectangle heights out of order, so neither a stale result nor a sum of
 * uses can equal the current one by a monotonic accident. */
static const uint32_t reuse_gens[REUSES] = {3, 0, 6, 1, 5, 2, 7, 4};

enum reuse_mode { REUSE_COMMAND, REUSE_HOST, REUSE_ONE_CB };
static const char *const reuse_mode_names[] = {
	"get_command_reset", "get_host_reset", "copy_one_command_buffer"};

struct reuse_param {
	uint8_t type;
	uint8_t mode;
};

static const struct reuse_param reuse_params[] = {
	{QT_OCCLUSION, REUSE_COMMAND}, {QT_OCCLUSION, REUSE_HOST}, {QT_OCCLUSION, REUSE_ONE_CB},
	{QT_TIMESTAMP, REUSE_COMMAND}, {QT_TIMESTAMP, REUSE_HOST}, {QT_TIMESTAMP, REUSE_ONE_CB},
};

static void reuse_name(const void *param, char *buf, size_t size)
{
	const struct reuse_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type], reuse_mode_names[p->mode]);
}

/* One query, reset and used REUSES times, each use read with its own
 * value: through the host after each submission (reset in the command
 * buffer or on the host), or within one command buffer where each use is
 * copied with WAIT before the next reset (the copy's first scope holds the
 * use, the next reset's first scope holds the copy: 18.2).  A result that
 * is stale, accumulated over uses or missing fails.
 *
 * Timestamps in one command buffer: that chain of execution dependencies
 * (write, WAIT copy, reset, write) makes each write happen-after the one
 * before, so by 18.5 ("Any timestamp write that happens-after another
 * timestamp write in the same submission must not have a lower value
 * unless its value overflows") each value is the previous one plus a
 * forward distance no larger than the ticks of the host interval around
 * the submission (a wrap included). */
static void reuse_one_query(struct vkqs_ctx *ctx, const void *param)
{
	const struct reuse_param *p = param;
	if (p->mode == REUSE_HOST)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = scene_create(ctx, p->type, 1, 0, false);
	char what[64];

	if (p->mode != REUSE_ONE_CB) {
		for (uint32_t i = 0; i < REUSES; i++) {
			uint32_t gen = reuse_gens[i];
			if (p->mode == REUSE_HOST)
				reset_now(ctx, s, 0, 1, true);
			VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
			if (p->mode == REUSE_COMMAND)
				D->vkCmdResetQueryPool(cb, s->pool, 0, 1);
			record_use(ctx, cb, s, 0, 1, gen);
			submit_wait_one(ctx, cb);
			snprintf(what, sizeof(what), "use %u of the query", i);
			struct qexp e = exp_used(s, 0, gen);
			read_check(ctx, s, PATH_GET, 0, 1, F64A, &e, what);
		}
		return;
	}

	const VkQueryResultFlags flags = F64A | VK_QUERY_RESULT_WAIT_BIT;
	struct rb *r[REUSES];
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	for (uint32_t i = 0; i < REUSES; i++) {
		struct qexp e = exp_used(s, 0, reuse_gens[i]);
		r[i] = rb_create(ctx, s, PATH_COPY, 0, 1, flags, &e);
		D->vkCmdResetQueryPool(cb, s->pool, 0, 1);
		record_use(ctx, cb, s, 0, 1, reuse_gens[i]);
		D->vkCmdCopyQueryPoolResults(cb, s->pool, 0, 1, r[i]->buf->buf, DST_OFFSET,
					     r[i]->stride, flags);
	}
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	uint64_t host_ns = vkqs_submit_timed(ctx, &ctx->vk->gfx, &cb, 1);
	for (uint32_t i = 0; i < REUSES; i++) {
		snprintf(what, sizeof(what), "use %u of the query, copied with WAIT", i);
		rb_check(ctx, r[i], what);
	}
	if (s->type != QT_TIMESTAMP)
		return;
	/* The ticks of the host interval (framework/tscheck.h). */
	uint64_t mask = vkqs_ts_mask(s->ts_bits);
	uint64_t room = vkqs_ts_ticks_within(ctx, host_ns);
	for (uint32_t i = 1; i < REUSES; i++) {
		uint64_t a = r[i - 1]->value[0] & mask, b = r[i]->value[0] & mask;
		uint64_t fwd = vkqs_ts_forward(a, b, s->ts_bits);
		VKQS_EXPECTF(ctx, fwd <= room,
			     "timestamp of use %u (%" PRIu64 ") is not within %" PRIu64
			     " ticks after that of use %u (%" PRIu64 ") that it happens-after "
			     "(%u valid bits, %" PRIu64 " ns host interval): stale or going "
			     "backwards",
			     i, b, room, i - 1, a, s->ts_bits, host_ns);
	}
}

/* create_reset: VK_QUERY_POOL_CREATE_RESET_BIT_KHR (maintenance9) ----------*/

/* A pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR: "queries in the
 * query pool are initialized on creation and do not need to be reset
 * before first use".  Initialized means reset: read before any use, the
 * queries are unavailable; used without any reset, they hold exact
 * results. */
static void create_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	const uint32_t n = ORDER_QUERIES;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	struct scene *s = scene_create(ctx, p->type, n, VK_QUERY_POOL_CREATE_RESET_BIT_KHR,
				       false);
	struct qexp e[ORDER_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = exp_reset(p->path, F64A);
	read_check(ctx, s, p->path, 0, n, F64A, e, "a pool created reset, before any use");

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cb, s, 0, n, ORDER_GEN);
	submit_wait_one(ctx, cb);
	read_used(ctx, s, p->path, n, ORDER_GEN, "first use without a reset");
}

/* partial / wait: reads of a query whose work has not run ------------------*/

/* The earlier use leaves this result (48 x 40) in the query... */
#define OLD_W 48u
#define OLD_H 40u
/* ... and the gated use counts PENDING_DRAWS draws of 5 x 3: less, so a
 * driver that keeps the old result through the reset and returns it as a
 * PARTIAL result is caught (bug class 3: a partial value above the final
 * one).  Many draws keep the query active for a while, so some PARTIAL
 * reads may land in the middle of it. */
#define PENDING_W 5u
#define PENDING_H 3u
#define PENDING_DRAWS 64u
#define PENDING_FINAL ((uint64_t)PENDING_DRAWS * PENDING_W * PENDING_H)

/* The earlier use of query q (the big rectangle), waited for, read. */
static void old_use(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, q, 1);
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	occ_query(ctx, cb, s, s->p, q, OLD_W, OLD_H, 1, 0.5f);
	vkqs_target_end(ctx, cb);
	submit_wait_one(ctx, cb);
	struct qexp e = {V_EXACT, (uint64_t)OLD_W * OLD_H, A_NONZERO};
	read_check(ctx, s, PATH_GET, q, 1, F64A, &e, "the earlier use");
}

/* The gated command buffer: query q around the pending draws, or (with
 * `occluded`) around the same draws behind a depth clear of 0.0 that the
 * LESS test at 0.5 rejects everywhere: final result 0. */
static VkCommandBuffer record_pending(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q,
				      bool occluded)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, s->t, occluded ? 0.0f : 1.0f);
	occ_query(ctx, cb, s, occluded ? s->p_less : s->p, q, PENDING_W, PENDING_H,
		  PENDING_DRAWS, 0.5f);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	return cb;
}

struct pending_param {
	uint8_t bits;
	bool host;
};

static const struct pending_param pending_params[] = {
	{32, false}, {64, false}, {64, true}};

static void pending_name(const void *param, char *buf, size_t size)
{
	const struct pending_param *p = param;
	snprintf(buf, size, "%u_%s_reset", p->bits, p->host ? "host" : "command");
}

static VkQueryResultFlags width_flag(uint8_t bits)
{
	return bits == 64 ? VK_QUERY_RESULT_64_BIT : 0;
}

/* Submits cb waiting on a new gate (fence f) and, while the gate is still
 * shut, reads r without WAIT and checks it (`what`), then opens the gate.
 * While it is shut no check may end the case. */
static void read_while_gated(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkFence f,
			     struct rb *r, const char *what)
{
	struct gate *g = gate_create(ctx, WATCHDOG_NS);
	submit_gated(ctx, g, cb, f);
	/* --- the gate is shut: no check that ends the case --- */
	if (gate_still_shut(ctx, g, "vkQueueSubmit")) {
		VkResult got = rb_get(ctx, r);
		if (gate_still_shut(ctx, g, "vkGetQueryPoolResults without WAIT")) {
			check_get_result(ctx, r, got);
			rb_check(ctx, r, what);
		}
	}
	gate_release(ctx, g);
	/* --- the gate is open --- */
}

/* The common part of the partial.* cases on one occlusion query: an
 * earlier use with the big result, a reset that completes, the gated use
 * (final result `final`).  While the gate is shut the query is unavailable
 * (reset, its use not started): `shut_flags` reads it with expectation
 * `shut`.  Then PARTIAL reads while the work runs (if `poll`), and reads
 * after the fence: exact and available. */
static void pending_case(struct vkqs_ctx *ctx, uint8_t bits, bool host, bool occluded,
			 VkQueryResultFlags shut_flags, struct qexp shut, bool poll)
{
	if (host)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = scene_create(ctx, QT_OCCLUSION, 1, 0, occluded);
	const uint64_t final = occluded ? 0 : PENDING_FINAL;
	old_use(ctx, s, 0);
	reset_now(ctx, s, 0, 1, host);
	VkCommandBuffer cb = record_pending(ctx, s, 0, occluded);

	/* Everything the window needs exists before the submission. */
	struct rb *shut_rb = rb_create(ctx, s, PATH_GET, 0, 1, shut_flags, &shut);
	struct qexp pe = {V_AT_MOST, final, A_ZERO};
	struct rb *poll_rb = rb_create(ctx, s, PATH_GET, 0, 1,
				       width_flag(bits) | VK_QUERY_RESULT_PARTIAL_BIT |
					       VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
				       &pe);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, shut_rb,
			 "read while the submission using the query waits on the host");

	if (poll)
		poll_partial(ctx, poll_rb, 0, final, f);
	vkqs_fence_wait(ctx, f);
	/* The fence signalled after vkCmdEndQuery executed: the query is
	 * available (18.3 "When an occlusion query finishes, the result for
	 * that query is marked as available"), read without WAIT. */
	struct qexp e = {V_EXACT, final, A_NONZERO};
	read_check(ctx, s, PATH_GET, 0, 1, width_flag(bits) | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		   &e, "after the fence");
}

/* PARTIAL | WITH_AVAILABILITY without WAIT while the use waits: availability
 * 0 and a value between 0 and the final result (18.2), never the old one. */
static void partial_pending(struct vkqs_ctx *ctx, const void *param)
{
	const struct pending_param *p = param;
	struct qexp shut = {V_AT_MOST, PENDING_FINAL, A_ZERO};
	pending_case(ctx, p->bits, p->host, false,
		     width_flag(p->bits) | VK_QUERY_RESULT_PARTIAL_BIT |
			     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		     shut, true);
}

/* The gated draws are all rejected by the depth test: final result 0, so
 * the only intermediate result "between zero and the final result value"
 * is 0 (bug class 3: NVIDIA returned non-zero partial results for fully
 * occluded objects). */
static void partial_pending_zero_final(struct vkqs_ctx *ctx, const void *param)
{
	struct qexp shut = {V_AT_MOST, 0, A_ZERO};
	pending_case(ctx, 64, false, true,
		     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
			     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
		     shut, true);
}

struct no_partial_param {
	uint8_t bits;
	bool avail;
};

static const struct no_partial_param no_partial_params[] = {{32, false}, {64, true}};

static void no_partial_name(const void *param, char *buf, size_t size)
{
	const struct no_partial_param *p = param;
	snprintf(buf, size, "%u%s", p->bits, p->avail ? "_with_availability" : "");
}

/* Without PARTIAL or WAIT while the use waits: VK_NOT_READY, availability 0,
 * the value not written (18.2; see V_UNWRITTEN). */
static void pending_without_partial(struct vkqs_ctx *ctx, const void *param)
{
	const struct no_partial_param *p = param;
	VkQueryResultFlags flags = width_flag(p->bits) |
				   (p->avail ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0);
	pending_case(ctx, p->bits, false, false, flags, exp_reset(PATH_GET, flags), false);
}

/* Query 0 holds a final result, query 1 was reset and its use waits: one
 * PARTIAL | WITH_AVAILABILITY read of both returns query 0's final result
 * (available) and for query 1 availability 0 and at most its final result. */
static void partial_pending_mixed(struct vkqs_ctx *ctx, const void *param)
{
	const uint32_t gen = 3;
	const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_PARTIAL_BIT |
					 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	struct scene *s = scene_create(ctx, QT_OCCLUSION, 2, 0, false);
	use_now(ctx, s, 0, 1, gen);
	old_use(ctx, s, 1);
	reset_now(ctx, s, 1, 1, false);
	VkCommandBuffer cb = record_pending(ctx, s, 1, false);

	struct qexp shut[2] = {exp_used(s, 0, gen), {V_AT_MOST, PENDING_FINAL, A_ZERO}};
	struct rb *r = rb_create(ctx, s, PATH_GET, 0, 2, flags, shut);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, r, "an available query and one whose use waits");
	vkqs_fence_wait(ctx, f);
	struct qexp done[2] = {exp_used(s, 0, gen), {V_EXACT, PENDING_FINAL, A_NONZERO}};
	read_check(ctx, s, PATH_GET, 0, 2, flags, done, "after the fence");
}

/* A timestamp query reset, its write gated: PARTIAL is not allowed on
 * timestamp pools (VUID-vkGetQueryPoolResults-queryType-00818), so the
 * read is WITH_AVAILABILITY only: VK_NOT_READY, availability 0, the value
 * not written, never the old timestamp. */
static void pending_timestamp(struct vkqs_ctx *ctx, const void *param)
{
	const VkQueryResultFlags flags = F64A;
	struct scene *s = scene_create(ctx, QT_TIMESTAMP, 1, 0, false);
	use_now(ctx, s, 0, 1, 0);
	reset_now(ctx, s, 0, 1, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_use(ctx, cb, s, 0, 1, 0);
	vkqs_cmd_end(ctx, cb);

	struct qexp shut = exp_reset(PATH_GET, flags);
	struct rb *r = rb_create(ctx, s, PATH_GET, 0, 1, flags, &shut);
	VkFence f = vkqs_fence(ctx);
	read_while_gated(ctx, cb, f, r, "read while the timestamp write waits on the host");
	vkqs_fence_wait(ctx, f);
	struct qexp done = exp_used(s, 0, 0);
	read_check(ctx, s, PATH_GET, 0, 1, flags, &done, "after the fence");
}

/* vkGetQueryPoolResults with WAIT is called while the use waits on the
 * gate; a timer opens the gate WAIT_OPEN_DELAY_NS later.  "VK_QUERY_RESULT_
 * WAIT_BIT specifies that Vulkan will wait for each query's status to
 * become available before retrieving its results" (18.2): the call returns
 * only after the gate opened, with VK_SUCCESS, availability non-zero and
 * the new use's result (not the old one's). */
static void wait_blocks_until_available(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	const VkQueryResultFlags flags = F64A | VK_QUERY_RESULT_WAIT_BIT;
	struct scene *s = scene_create(ctx, type, 1, 0, false);
	struct qexp e;
	VkCommandBuffer cb;
	if (type == QT_OCCLUSION) {
		old_use(ctx, s, 0);
		reset_now(ctx, s, 0, 1, false);
		cb = record_pending(ctx, s, 0, false);
		e = (struct qexp){V_EXACT, PENDING_FINAL, A_NONZERO};
	} else {
		use_now(ctx, s, 0, 1, 0);
		reset_now(ctx, s, 0, 1, false);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		record_use(ctx, cb, s, 0, 1, 0);
		vkqs_cmd_end(ctx, cb);
		e = exp_used(s, 0, 0);
	}
	struct rb *r = rb_create(ctx, s, PATH_GET, 0, 1, flags, &e);
	VkFence f = vkqs_fence(ctx);
	struct gate *g = gate_create(ctx, WAIT_OPEN_DELAY_NS);
	submit_gated(ctx, g, cb, f);
	VkResult got = rb_get(ctx, r);
	uint64_t returned_ns = vkqs_now_ns();
	uint64_t opened_ns = 0;
	bool opened = gate_state(g, NULL, &opened_ns);
	gate_release(ctx, g);
	vkqs_fence_wait(ctx, f);

	VKQS_EXPECTF(ctx, opened && opened_ns <= returned_ns,
		     "vkGetQueryPoolResults with WAIT returned before the submission that "
		     "uses the query could start (its wait semaphore was not signalled yet)");
	check_get_result(ctx, r, got);
	rb_check(ctx, r, "WAIT read issued before the use could run");
}

/* not_ready: VK_NOT_READY exactly when a read query is unavailable ---------*/

#define NR_QUERIES 4u
#define NR_GEN 3u

/* Every query of the pool available: VK_SUCCESS for any flags without WAIT
 * (18.2 allows VK_NOT_READY only "if there are queries in the unavailable
 * state"), with and without WITH_AVAILABILITY. */
static void not_ready_all_available(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	struct scene *s = scene_create(ctx, type, NR_QUERIES, 0, false);
	use_now(ctx, s, 0, NR_QUERIES, NR_GEN);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = exp_used(s, q, NR_GEN);
	read_check(ctx, s, PATH_GET, 0, NR_QUERIES, F64A, e,
		   "every query available, WITH_AVAILABILITY");
	read_check(ctx, s, PATH_GET, 0, NR_QUERIES, VK_QUERY_RESULT_64_BIT, e,
		   "every query available, no availability word");
	read_check(ctx, s, PATH_GET, 0, NR_QUERIES, 0, e,
		   "every query available, 32-bit");
}

struct one_unavailable_param {
	uint8_t type;
	uint8_t pos;
};

static const struct one_unavailable_param one_unavailable_params[] = {
	{QT_OCCLUSION, 0}, {QT_OCCLUSION, 1}, {QT_OCCLUSION, NR_QUERIES - 1},
	{QT_TIMESTAMP, 0}, {QT_TIMESTAMP, 1}, {QT_TIMESTAMP, NR_QUERIES - 1},
};

static void one_unavailable_name(const void *param, char *buf, size_t size)
{
	const struct one_unavailable_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type],
		 p->pos == 0 ? "first" : p->pos == NR_QUERIES - 1 ? "last" : "middle");
}

/* All queries but one reset and used; that one reset and never used.  A
 * read of all of them without WAIT: VK_NOT_READY (CompatibilityWarning if
 * VK_SUCCESS, see check_get_result), the others' final results and non-zero
 * availability, availability 0 for that one, wherever it is (a driver that
 * checks only the first or the last query is caught). */
static void not_ready_one_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const struct one_unavailable_param *p = param;
	struct scene *s = scene_create(ctx, p->type, NR_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, NR_QUERIES);
	if (p->pos > 0)
		record_use(ctx, cb, s, 0, p->pos, NR_GEN);
	const uint32_t pos = p->pos;
	if (pos + 1 < NR_QUERIES)
		record_use(ctx, cb, s, pos + 1, NR_QUERIES - pos - 1, NR_GEN);
	submit_wait_one(ctx, cb);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = q == p->pos ? exp_reset(PATH_GET, F64A) : exp_used(s, q, NR_GEN);
	read_check(ctx, s, PATH_GET, 0, NR_QUERIES, F64A, e,
		   "one query reset and never used");
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		if (q == p->pos)
			e[q] = exp_reset(PATH_GET, 0);
	read_check(ctx, s, PATH_GET, 0, NR_QUERIES, VK_QUERY_RESULT_64_BIT, e,
		   "one query reset and never used, no availability word");
}

/* Queries 0..2 available, 3 reset and never used: reads of [0, 3) and
 * [1, 3) do not include the unavailable one and return VK_SUCCESS (a driver
 * that decides VK_NOT_READY over the whole pool, or the wrong range, is
 * caught); a read of [2, 4) does include it. */
static void not_ready_range_excludes_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	const uint32_t last = NR_QUERIES - 1;
	struct scene *s = scene_create(ctx, type, NR_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, NR_QUERIES);
	record_use(ctx, cb, s, 0, last, NR_GEN);
	submit_wait_one(ctx, cb);
	struct qexp e[NR_QUERIES];
	for (uint32_t q = 0; q < NR_QUERIES; q++)
		e[q] = q == last ? exp_reset(PATH_GET, F64A) : exp_used(s, q, NR_GEN);
	read_check(ctx, s, PATH_GET, 0, last, F64A, e, "queries [0, 3), all available");
	read_check(ctx, s, PATH_GET, 1, last - 1, F64A, e + 1, "queries [1, 3), all available");
	read_check(ctx, s, PATH_GET, 2, 2, F64A, e + 2, "queries [2, 4), query 3 unavailable");
}

/* The table ----------------------------------------------------------------*/

#define SPEC_RESET                                                                 \
	"18.2: \"After query pool creation, each query must be reset before it is "  \
	"used. Queries must also be reset between uses.\"; vkCmdResetQueryPool "     \
	"\"sets the status of query indices [firstQuery, firstQuery + queryCount - " \
	"1] to unavailable\" and \"happens after the first scope and happens "       \
	"before the second scope\" (the commands referencing the queries earlier / " \
	"later in submission order)"
#define SPEC_HOST_RESET                                                            \
	"18.2: vkResetQueryPool \"sets the status of query indices [firstQuery, "    \
	"firstQuery + queryCount - 1] to unavailable\" (hostQueryReset)"
#define SPEC_COPY_SCOPES                                                           \
	"18.2: vkCmdCopyQueryPoolResults and vkCmdResetQueryPool each define an "    \
	"execution dependency with the other query commands referencing the same "  \
	"query, earlier and later in submission order"
#define SPEC_PARTIAL                                                               \
	"18.2: \"If VK_QUERY_RESULT_PARTIAL_BIT is set, then for any query that is " \
	"unavailable, an intermediate result between zero and the final result "    \
	"value is written for that query\"; with WITH_AVAILABILITY \"A value of "    \
	"zero indicates that the results are not yet available\""
#define SPEC_NOT_READY                                                             \
	"18.2: \"If VK_QUERY_RESULT_WAIT_BIT is not set, vkGetQueryPoolResults may " \
	"return VK_NOT_READY if there are queries in the unavailable state\""

static const struct vkqs_case cases[] = {
	{.name = "order.same_command_buffer",
	 .fn = order_same_command_buffer,
	 .spec = SPEC_RESET " (reset and begin/end or write in one command buffer)",
	 .params = VKQS_PARAMS(tp_params, tp_name)},
	{.name = "order.earlier_submission",
	 .fn = order_earlier_submission,
	 .spec = SPEC_RESET " (reset in an earlier submission that completed)",
	 .params = VKQS_PARAMS(tp_params, tp_name)},
	{.name = "order.earlier_command_buffer_same_submission",
	 .fn = order_earlier_command_buffer,
	 .spec = SPEC_RESET " (reset in the previous command buffer of one submission)",
	 .params = VKQS_PARAMS(tp_params, tp_name)},
	{.name = "order.host_reset",
	 .fn = order_host_reset,
	 .spec = SPEC_HOST_RESET "; then a use gives the exact result",
	 .params = VKQS_PARAMS(tp_params, tp_name)},
	{.name = "after_copy.copy_keeps_results",
	 .fn = after_copy,
	 .spec = SPEC_COPY_SCOPES ": a copy followed by a reset of the copied "
				  "queries reads the results from before the reset",
	 .params = VKQS_PARAMS(after_copy_params, after_copy_name)},
	{.name = "before_copy.copy_sees_reset",
	 .fn = before_copy,
	 .spec = SPEC_COPY_SCOPES ": a reset followed by a copy WITH_AVAILABILITY "
				  "gives availability 0 for the reset query and the final "
				  "result of the one not reset",
	 .params = VKQS_PARAMS(before_copy_params, before_copy_name)},
	{.name = "range.partial_reset",
	 .fn = range_partial_reset,
	 .spec = SPEC_RESET "; " SPEC_HOST_RESET ": only the queries in the range become "
				"unavailable; the others keep their final results",
	 .params = VKQS_PARAMS(range_params, range_name)},
	{.name = "reuse.one_query",
	 .fn = reuse_one_query,
	 .spec = SPEC_RESET ": each use of a query reset between uses gives its own "
			    "result; 18.5 ordering of timestamps that happen-after another",
	 .params = VKQS_PARAMS(reuse_params, reuse_name)},
	{.name = "create_reset.first_use_without_reset",
	 .fn = create_reset,
	 .spec = "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies "
		 "that queries in the query pool are initialized on creation and do not "
		 "need to be reset before first use\"",
	 .params = VKQS_PARAMS(tp_params, tp_name)},
	{.name = "partial.pending",
	 .fn = partial_pending,
	 .spec = SPEC_PARTIAL " (the query reset, its use waiting on a timeline "
			      "semaphore; then while it executes)",
	 .params = VKQS_PARAMS(pending_params, pending_name)},
	{.name = "partial.pending_zero_final",
	 .fn = partial_pending_zero_final,
	 .spec = SPEC_PARTIAL " (final result 0: every intermediate result is 0)"},
	{.name = "partial.pending_mixed",
	 .fn = partial_pending_mixed,
	 .spec = SPEC_PARTIAL "; \"Results for any available query written by this "
			      "command are final\""},
	{.name = "partial.pending_without_partial",
	 .fn = pending_without_partial,
	 .spec = SPEC_NOT_READY "; without PARTIAL or WAIT no value is written for an "
				"unavailable query (earlier spec versions, the CTS)",
	 .params = VKQS_PARAMS(no_partial_params, no_partial_name)},
	{.name = "partial.pending_timestamp",
	 .fn = pending_timestamp,
	 .spec = SPEC_NOT_READY "; VUID-vkGetQueryPoolResults-queryType-00818 (no PARTIAL "
				"for timestamps): availability 0 while the write waits"},
	{.name = "wait.blocks_until_available",
	 .fn = wait_blocks_until_available,
	 .spec = "18.2: VK_QUERY_RESULT_WAIT_BIT \"specifies that Vulkan will wait for "
		 "each query's status to become available before retrieving its results\"",
	 .params = VKQS_PARAMS(type_params, type_name)},
	{.name = "not_ready.all_available",
	 .fn = not_ready_all_available,
	 .spec = SPEC_NOT_READY ": with every read query available the result is VK_SUCCESS",
	 .params = VKQS_PARAMS(type_params, type_name)},
	{.name = "not_ready.one_unavailable",
	 .fn = not_ready_one_unavailable,
	 .spec = SPEC_NOT_READY "; \"Results for any available query written by this "
				"command are final\"; availability 0 for the unavailable one",
	 .params = VKQS_PARAMS(one_unavailable_params, one_unavailable_name)},
	{.name = "not_ready.range_excludes_unavailable",
	 .fn = not_ready_range_excludes_unavailable,
	 .spec = SPEC_NOT_READY ": only the queries [firstQuery, firstQuery + "
				"queryCount - 1] decide it",
	 .params = VKQS_PARAMS(type_params, type_name)},
};

VKQS_AREA(reset, cases);
