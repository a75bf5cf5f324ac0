/* Query reset area: the helpers its groups share (declared in reset.h). */
#include "reset.h"
#include "verdict.h"

uint32_t reset_rect_w(uint32_t query)
{
	return 4u + 3u * query;
}

uint32_t reset_rect_h(uint32_t gen)
{
	return 3u + 7u * gen;
}

/* 4..25 x 3..52 pixels: inside the 64 x 64 target, every (query, gen)
 * pair of a case a different count. */
uint64_t reset_use_area(uint32_t query, uint32_t gen)
{
	return (uint64_t)reset_rect_w(query) * reset_rect_h(gen);
}

struct scene *reset_scene_create(struct vkqs_ctx *ctx, enum qtype type,
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
	s->pool = vkqs_query_pool_flags(ctx, type == QT_OCCLUSION ? VK_QUERY_TYPE_OCCLUSION
								  : VK_QUERY_TYPE_TIMESTAMP,
					queries, 0, flags, NULL);
	return s;
}

/* Query q around `draws` draws of a w x h rectangle at the origin, inside
 * the current subpass. */
void reset_occ_query(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		      const struct vkqs_pipeline *p, uint32_t q, uint32_t w, uint32_t h,
		      uint32_t draws, float z)
{
	D->vkCmdBeginQuery(cb, s->pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
	for (uint32_t i = 0; i < draws; i++)
		vkqs_draw_rect(ctx, cb, p, s->t, 0.0f, 0.0f, (float)w, (float)h, z);
	D->vkCmdEndQuery(cb, s->pool, q);
}

/* Uses queries [first, first + count) once each: one render pass instance
 * with a reset_rect_w(q) x reset_rect_h(gen) draw per occlusion query, or a timestamp
 * write per query.  The queries must be reset (18.2: "Queries must also be
 * reset between uses"; VUID-vkCmdBeginQuery-None-00807,
 * VUID-vkCmdWriteTimestamp-None-00830). */
void reset_record_use(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
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
		reset_occ_query(ctx, cb, s, s->p, q, reset_rect_w(q), reset_rect_h(gen), 1, 0.5f);
	vkqs_target_end(ctx, cb);
}

void reset_submit_wait_one(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* Resets [first, first + count) and waits for it: on the host
 * (vkResetQueryPool; VUID-vkResetQueryPool-firstQuery-02741 holds, every
 * earlier submission having completed) or in a submission of its own. */
void reset_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		      uint32_t count, bool host)
{
	if (host) {
		D->vkResetQueryPool(DEV, s->pool, first, count);
		return;
	}
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, first, count);
	reset_submit_wait_one(ctx, cb);
}

/* Reset (command) and use of [first, first + count), submitted and waited. */
void reset_use_now(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
		    uint32_t count, uint32_t gen)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, first, count);
	reset_record_use(ctx, cb, s, first, count, gen);
	reset_submit_wait_one(ctx, cb);
}

/* The 64-bit results of available queries, for timestamps read again later. */
void reset_read_baseline(struct vkqs_ctx *ctx, const struct scene *s, uint32_t first,
			  uint32_t count, uint64_t *out)
{
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, s->pool, first, count,
						count * sizeof(uint64_t), out,
						sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
}

/* The expectation of a query used once (gen) and read after its work. */
struct qexp reset_exp_used(const struct scene *s, uint32_t q, uint32_t gen)
{
	if (s->type == QT_OCCLUSION)
		return (struct qexp){V_EXACT, reset_use_area(q, gen), A_NONZERO};
	return (struct qexp){V_TIMESTAMP, 0, A_NONZERO};
}

/* A used query whose 64-bit result `known` was read before: occlusion is
 * the area anyway; a timestamp must read `known` again ("Results for any
 * available query written by this command are final"). */
struct qexp reset_exp_known(const struct scene *s, uint32_t q, uint32_t gen,
			     uint64_t known)
{
	if (s->type == QT_OCCLUSION)
		return reset_exp_used(s, q, gen);
	return (struct qexp){V_TS_KNOWN, known, A_NONZERO};
}

/* A reset query that no command has used since. */
struct qexp reset_exp_reset(enum path path, VkQueryResultFlags flags)
{
	/* A copy WITH_AVAILABILITY copies "results for all queries" (18.2),
	 * undefined for this one. */
	bool copied = path == PATH_COPY && (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	return (struct qexp){copied ? V_UNDEFINED : V_UNWRITTEN, 0, A_ZERO};
}

size_t reset_rb_word(const struct rb *r)
{
	return vkqs_result_word(r->flags);
}

bool reset_rb_has_avail(const struct rb *r)
{
	return (r->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
}

/* (Re)writes the destination from the expectations: guard bytes, each value
 * word pre-filled so that leaving it unwritten fails (0 for a timestamp,
 * the guard otherwise: no count or bound here equals it), each
 * availability word the opposite of what it must become. */
void reset_rb_fill(struct vkqs_ctx *ctx, struct rb *r)
{
	size_t w = reset_rb_word(r);
	memset(r->init, GUARD, r->size);
	for (uint32_t k = 0; k < r->count; k++) {
		uint8_t *at = r->init + DST_OFFSET + (size_t)k * r->stride;
		if (r->e[k].v == V_TIMESTAMP)
			memset(at, 0, w);
		if (reset_rb_has_avail(r))
			memset(at + w, r->e[k].a == A_NONZERO ? 0 : GUARD, w);
	}
	memcpy(r->bytes, r->init, r->size);
	if (r->buf)
		vkqs_buffer_flush(ctx, r->buf);
}

struct rb *reset_rb_create(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
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
	/* A multiple of the word size (VUID-vkGetQueryPoolResults-queryCount-
	 * 12251/-12252, VUID-vkCmdCopyQueryPoolResults-queryCount-12254/-12255). */
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
	reset_rb_fill(ctx, r);
	return r;
}

/* Never ends the case: safe while a gated submission is pending. */
VkResult reset_rb_get(struct vkqs_ctx *ctx, const struct rb *r)
{
	return D->vkGetQueryPoolResults(DEV, r->s->pool, r->first, r->count,
					vkqs_result_span(r->count, r->stride, r->flags),
					r->bytes + DST_OFFSET, r->stride, r->flags);
}

/* vkCmdCopyQueryPoolResults is a transfer write (18.2): the barrier makes
 * it visible to the host after the fence. */
void reset_rb_record_copy(struct vkqs_ctx *ctx, const struct rb *r, VkCommandBuffer cb)
{
	D->vkCmdCopyQueryPoolResults(cb, r->s->pool, r->first, r->count, r->buf->buf,
				     DST_OFFSET, r->stride, r->flags);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
}

bool reset_any_unavailable(const struct rb *r)
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
void reset_check_get_result(struct vkqs_ctx *ctx, const struct rb *r, VkResult got)
{
	if ((r->flags & VK_QUERY_RESULT_WAIT_BIT) || !reset_any_unavailable(r)) {
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
bool reset_rb_check(struct vkqs_ctx *ctx, struct rb *r, const char *what)
{
	const char *api = path_api[r->path];
	size_t w = reset_rb_word(r), elem = vkqs_result_elem(r->flags);
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
		if (!reset_rb_has_avail(r))
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

	size_t bad = 0, first_bad = 0, pad = 0, first_pad = 0;
	for (size_t i = 0; i < r->size; i++) {
		bool in_strides = i >= DST_OFFSET && i - DST_OFFSET < (size_t)r->count * r->stride;
		bool in_word = in_strides && (i - DST_OFFSET) % r->stride < elem;
		if (in_word || r->bytes[i] == r->init[i])
			continue;
		if (in_strides && r->count > 1) {
			if (!pad++)
				first_pad = i;
		} else if (!bad++) {
			first_bad = i;
		}
	}
	ok &= VKQS_EXPECTF(ctx, bad == 0,
			   "%s: %s changed %zu byte(s) before its first or past its last query's "
			   "stride (18.2 memory layout: results at offset %u + k * stride %" PRIu64
			   ", %zu-byte words), first at byte %zu = 0x%02x",
			   what, api, bad, DST_OFFSET, (uint64_t)r->stride, w, first_bad,
			   bad ? r->bytes[first_bad] : GUARD);
	VKQS_EXPECT_PADDING_UNTOUCHED(ctx, pad == 0,
				      "%s: %s changed %zu byte(s) inside the stride past a query's "
				      "words, first at byte %zu = 0x%02x",
				      what, api, pad, first_pad, pad ? r->bytes[first_pad] : GUARD);
	return ok;
}

/* One read after all the work that uses the queries completed; a copy goes
 * in a submission of its own (without WAIT the copy's first scope holds no
 * vkCmdEndQuery / vkCmdWriteTimestamp, 18.2: the fence wait in between
 * orders them). */
void reset_read_check(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
			     uint32_t first, uint32_t count, VkQueryResultFlags flags,
			     const struct qexp *e, const char *what)
{
	struct rb *r = reset_rb_create(ctx, s, path, first, count, flags, e);
	if (path == PATH_GET) {
		reset_check_get_result(ctx, r, reset_rb_get(ctx, r));
	} else {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		reset_rb_record_copy(ctx, r, cb);
		reset_submit_wait_one(ctx, cb);
	}
	reset_rb_check(ctx, r, what);
}

/* Reads [0, n) of a scene where query q holds use gen (all available). */
void reset_read_used(struct vkqs_ctx *ctx, const struct scene *s, enum path path,
		      uint32_t n, uint32_t gen, const char *what)
{
	struct qexp e[MAX_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = reset_exp_used(s, q, gen);
	reset_read_check(ctx, s, path, 0, n, F64A, e, what);
}

void reset_tp_name(const void *param, char *buf, size_t size)
{
	const struct tp_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type], path_names[p->path]);
}

void reset_type_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", qtype_names[*(const uint8_t *)param]);
}

/* The earlier use of query q (the big rectangle), waited for, read. */
void reset_old_use(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, q, 1);
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	reset_occ_query(ctx, cb, s, s->p, q, OLD_W, OLD_H, 1, 0.5f);
	vkqs_target_end(ctx, cb);
	reset_submit_wait_one(ctx, cb);
	struct qexp e = {V_EXACT, (uint64_t)OLD_W * OLD_H, A_NONZERO};
	reset_read_check(ctx, s, PATH_GET, q, 1, F64A, &e, "the earlier use");
}

/* The gated command buffer: query q around the pending draws, or (with
 * `occluded`) around the same draws behind a depth clear of 0.0 that the
 * LESS test at 0.5 rejects everywhere: final result 0. */
VkCommandBuffer reset_record_pending(struct vkqs_ctx *ctx, const struct scene *s, uint32_t q,
				      bool occluded)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	vkqs_target_begin(ctx, cb, s->t, occluded ? 0.0f : 1.0f);
	reset_occ_query(ctx, cb, s, occluded ? s->p_less : s->p, q, PENDING_W, PENDING_H,
		  PENDING_DRAWS, 0.5f);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	return cb;
}

/* The arrays reset.h declares (no definitions in headers). */
const char *const qtype_names[QTYPE_NAMES_COUNT] = {"occlusion", "timestamp"};

const char *const path_names[PATH_NAMES_COUNT] = {"get", "copy"};

const char *const path_api[PATH_API_COUNT] = {"vkGetQueryPoolResults",
				       "vkCmdCopyQueryPoolResults"};

const struct tp_param tp_params[TP_PARAMS_COUNT] = {
	{QT_OCCLUSION, PATH_GET},
	{QT_OCCLUSION, PATH_COPY},
	{QT_TIMESTAMP, PATH_GET},
	{QT_TIMESTAMP, PATH_COPY},
};

const uint8_t type_params[TYPE_PARAMS_COUNT] = {QT_OCCLUSION, QT_TIMESTAMP};
