/* Query results (spec 18.2): vkGetQueryPoolResults and
 * vkCmdCopyQueryPoolResults write the layout of "queries-operation-
 * memorylayout" - the first query at the first byte requested, each next one
 * stride bytes later, 32- or 64-bit words, the availability word last - and
 * nothing else.
 *
 * Known values: query i of the pool holds one draw of a RECT_W x rect_h(i)
 * rectangle with integer edges on a 1-sample target, counted with
 * VK_QUERY_CONTROL_PRECISE_BIT, so its result is exactly the rectangle's
 * area (18.3 "the number of samples passed"; why the count is exact: see
 * suite/occlusion/occlusion.c).  The areas are all distinct, so a result
 * written for the wrong query (firstQuery ignored, stride misapplied) is
 * caught.
 *
 * One plan (plan_build) describes, byte by byte, what a read must write
 * into its destination: the value and availability words of each query, and
 * guard bytes everywhere else - before the first query, the padding inside
 * the stride, after the last.  The destination is pre-filled from the plan
 * (guard pattern; each word pre-filled so that *not* writing it fails its
 * check), the read runs through vkGetQueryPoolResults or
 * vkCmdCopyQueryPoolResults, and one checker (plan_check) compares the
 * bytes with the plan for both paths. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define POOL_QUERIES 5u
/* Query i draws a RECT_W x rect_h(i) rectangle: 21, 42, 63, 84, 105. */
#define RECT_W 7u
/* The first result lands this far into the destination: a multiple of 8
 * (VUID-vkCmdCopyQueryPoolResults-flags-00822/-00823, and pData alignment
 * VUID-vkGetQueryPoolResults-flags-02828/-00815) but not of 16, so an
 * implementation that rounds the offset is caught (bug_classes.md #10:
 * a non-zero dstOffset ignored). */
#define DST_OFFSET 24u
/* Guard bytes after the last written byte. */
#define TAIL_GUARD 40u
/* Not a plausible count, availability word or zero. */
#define GUARD 0xA5u
/* The stride of the "large" matrix cases. */
#define LARGE_STRIDE 256u

enum path { PATH_GET, PATH_COPY };

static uint32_t rect_h(uint32_t query)
{
	return 3u * (query + 1u);
}

static uint64_t rect_area(uint32_t query)
{
	return (uint64_t)RECT_W * rect_h(query);
}

/* The scene -------------------------------------------------------------- */

struct scene {
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
	VkQueryPool pool;
	uint32_t queries;
};

static struct scene *scene_create(struct vkqs_ctx *ctx, uint32_t queries,
				  bool draws)
{
	struct scene *s = vkqs_alloc(ctx, sizeof(*s));
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	s->queries = queries;
	s->pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, queries, 0);
	if (!draws)
		return s;
	/* The values are only known when the count is exact: 18.3 lets a
	 * non-precise query return any non-zero value. */
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	vkqs_require_exact_coverage(ctx);
	s->t = vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
	struct vkqs_pipeline_desc desc = {0};
	s->p = vkqs_pipeline_rect(ctx, s->t, &desc);
	return s;
}

/* Resets every query of the pool (18.2: reset before use, outside a render
 * pass), then begins, draws and ends queries [0, begun); the others stay
 * reset and unavailable. */
static void scene_record(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			 const struct scene *s, uint32_t begun)
{
	D->vkCmdResetQueryPool(cb, s->pool, 0, s->queries);
	if (!begun)
		return;
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t i = 0; i < begun; i++) {
		D->vkCmdBeginQuery(cb, s->pool, i, VK_QUERY_CONTROL_PRECISE_BIT);
		vkqs_draw_rect(ctx, cb, s->p, s->t, 0.0f, 0.0f, (float)RECT_W,
			       (float)rect_h(i), 0.5f);
		D->vkCmdEndQuery(cb, s->pool, i);
	}
	vkqs_target_end(ctx, cb);
}

/* The plan: what one read writes where ------------------------------------ */

struct read {
	uint32_t first, count;
	VkDeviceSize stride;
	VkQueryResultFlags flags;
};

static size_t word_size(const struct read *rd)
{
	return (rd->flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
}

static bool has_avail(const struct read *rd)
{
	return (rd->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
}

static size_t element_size(const struct read *rd)
{
	return word_size(rd) * (has_avail(rd) ? 2 : 1);
}

/* Bytes from the first written byte to the last one: the dataSize of
 * VUID-vkGetQueryPoolResults-dataSize-00817 and the storage of
 * VUID-vkCmdCopyQueryPoolResults-dstBuffer-00824. */
static size_t read_span(const struct read *rd)
{
	return (size_t)(rd->count - 1) * rd->stride + element_size(rd);
}

enum value_expect {
	VALUE_EXACT,     /* must equal .value */
	VALUE_UNDEFINED, /* may be written with any value: not checked */
	/* An unavailable query's value: the current 18.2 text allows an
	 * undefined value to be written ("Otherwise, any result written by
	 * this command is undefined"); earlier versions said "no result
	 * values are written to pData for queries that are in the unavailable
	 * state", and the CTS checks that (cts_queries.md 2.1: "returned
	 * modified values").  Written bytes are a CompatibilityWarning. */
	VALUE_UNWRITTEN,
};

enum avail_expect { AVAIL_NONZERO, AVAIL_ZERO };

struct query_expect {
	enum value_expect value_kind;
	uint64_t value;
	enum avail_expect avail; /* when WITH_AVAILABILITY is set */
};

enum byte_role { ROLE_GUARD, ROLE_UNWRITTEN, ROLE_WORD };

struct plan {
	const struct read *rd;
	const struct query_expect *e; /* rd->count entries */
	size_t size;                  /* destination bytes */
	uint8_t *role;                /* enum byte_role per byte */
	uint8_t *init;                /* the pre-filled destination */
};

static void fill_word(uint8_t *p, size_t n, uint8_t *role, enum byte_role r,
		      uint8_t byte)
{
	memset(p, byte, n);
	memset(role, r, n);
}

static struct plan *plan_build(struct vkqs_ctx *ctx, const struct read *rd,
			       const struct query_expect *e)
{
	struct plan *pl = vkqs_alloc(ctx, sizeof(*pl));
	size_t w = word_size(rd);
	pl->rd = rd;
	pl->e = e;
	/* Vulkan-ValidationLayers 1.3.239 sizes a copy's destination as
	 * dstOffset + queryCount * stride (more than the spec's
	 * dstBuffer-00824 asks for): room for that too, all of it guarded. */
	size_t span = read_span(rd), whole = (size_t)rd->count * rd->stride;
	pl->size = DST_OFFSET + (span > whole ? span : whole) + TAIL_GUARD;
	pl->role = vkqs_alloc(ctx, pl->size);
	pl->init = vkqs_alloc(ctx, pl->size);
	memset(pl->init, GUARD, pl->size);
	memset(pl->role, ROLE_GUARD, pl->size);
	for (uint32_t k = 0; k < rd->count; k++) {
		size_t at = DST_OFFSET + (size_t)k * rd->stride;
		/* Pre-filled with the guard: no area equals 0xA5A5A5A5. */
		fill_word(pl->init + at, w, pl->role + at,
			  e[k].value_kind == VALUE_UNWRITTEN ? ROLE_UNWRITTEN
							     : ROLE_WORD,
			  GUARD);
		if (has_avail(rd))
			/* Pre-filled with what fails its check if the word
			 * is never written: 0 where non-zero is expected,
			 * the (non-zero) guard where 0 is expected. */
			fill_word(pl->init + at + w, w, pl->role + at + w, ROLE_WORD,
				  e[k].avail == AVAIL_NONZERO ? 0 : GUARD);
	}
	return pl;
}

static uint64_t load_word(const uint8_t *p, size_t w)
{
	if (w == 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static const char *path_name(enum path path)
{
	return path == PATH_GET ? "vkGetQueryPoolResults" : "vkCmdCopyQueryPoolResults";
}

/* vkqs_check_u64 with a formatted description of the checked word. */
static void check_u64(struct vkqs_ctx *ctx, int line, const char *op, uint64_t got,
		      uint64_t want, const char *want_txt, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static void check_u64(struct vkqs_ctx *ctx, int line, const char *op, uint64_t got,
		      uint64_t want, const char *want_txt, const char *fmt, ...)
{
	char what[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	vkqs_check_u64(ctx, false, __FILE__, line, what, op, want_txt, got, want);
}
#define CHECK_U64(ctx, ...) check_u64((ctx), __LINE__, __VA_ARGS__)

/* Compares the destination bytes after the read with the plan. */
static void plan_check(struct vkqs_ctx *ctx, const struct plan *pl, enum path path,
		       const uint8_t *dst)
{
	const struct read *rd = pl->rd;
	const char *api = path_name(path);
	size_t w = word_size(rd);

	for (uint32_t k = 0; k < rd->count; k++) {
		const struct query_expect *e = &pl->e[k];
		uint32_t q = rd->first + k;
		size_t at = DST_OFFSET + (size_t)k * rd->stride;
		uint64_t v = load_word(dst + at, w);
		if (e->value_kind == VALUE_EXACT && w == 8) {
			/* Two checks, so that a garbage upper half of a small
			 * count reads as such. */
			CHECK_U64(ctx, "==", v & 0xffffffffu, e->value, "its rectangle's area",
				  "%s: query %u low 32 bits of the 64-bit value at byte %zu",
				  api, q, at);
			CHECK_U64(ctx, "==", v >> 32, 0, "0",
				  "%s: query %u high 32 bits of the 64-bit value at byte %zu",
				  api, q, at);
		} else if (e->value_kind == VALUE_EXACT) {
			CHECK_U64(ctx, "==", v, e->value, "its rectangle's area",
				  "%s: query %u 32-bit value at byte %zu", api, q, at);
		}
		if (!has_avail(rd))
			continue;
		uint64_t a = load_word(dst + at + w, w);
		/* 18.2: "any non-zero value indicating that it is available";
		 * "A value of zero indicates that the results are not yet
		 * available". */
		if (e->avail == AVAIL_NONZERO)
			CHECK_U64(ctx, "!=", a, 0, "0",
				  "%s: query %u availability word at byte %zu", api, q,
				  at + w);
		else
			CHECK_U64(ctx, "==", a, 0, "0",
				  "%s: query %u (unavailable) availability word at byte %zu",
				  api, q, at + w);
	}

	size_t bad = 0, first_bad = 0, unwritten = 0, first_unwritten = 0;
	for (size_t i = 0; i < pl->size; i++) {
		if (dst[i] == pl->init[i] || pl->role[i] == ROLE_WORD)
			continue;
		if (pl->role[i] == ROLE_GUARD && !bad++)
			first_bad = i;
		if (pl->role[i] == ROLE_UNWRITTEN && !unwritten++)
			first_unwritten = i;
	}
	char what[300];
	snprintf(what, sizeof(what),
		 "%s wrote no byte outside its result words (18.2 memory layout: "
		 "results at offset %u + k * stride %llu, %zu-byte words); "
		 "%zu of %zu guard bytes changed, first at byte %zu = 0x%02x",
		 api, DST_OFFSET, (unsigned long long)rd->stride, w, bad, pl->size,
		 first_bad, bad ? dst[first_bad] : GUARD);
	vkqs_check_true(ctx, false, __FILE__, __LINE__, what, bad == 0);
	if (unwritten)
		vkqs_compat_warning(ctx,
				    "%s wrote %zu byte(s) into the value of an unavailable "
				    "query (first at byte %zu = 0x%02x): allowed by the "
				    "current 18.2 (\"any result written by this command is "
				    "undefined\"), but earlier versions said no result values "
				    "are written for unavailable queries and the CTS requires that",
				    api, unwritten, first_unwritten, dst[first_unwritten]);
}

/* A destination for one read, pre-filled from the plan ------------------- */

struct dest {
	enum path path;
	const struct plan *pl;
	uint8_t *bytes;          /* host array (get) or the mapping (copy) */
	struct vkqs_buffer *buf; /* copy only */
};

static struct dest dest_create(struct vkqs_ctx *ctx, enum path path,
			       const struct plan *pl)
{
	struct dest d = {path, pl, NULL, NULL};
	if (path == PATH_GET) {
		d.bytes = vkqs_alloc(ctx, pl->size); /* malloc: 16-byte aligned */
	} else {
		d.buf = vkqs_buffer_host(ctx, pl->size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
		d.bytes = d.buf->map;
	}
	memcpy(d.bytes, pl->init, pl->size);
	if (d.buf)
		vkqs_buffer_flush(ctx, d.buf);
	return d;
}

static VkResult dest_get(struct vkqs_ctx *ctx, const struct dest *d,
			 const struct scene *s)
{
	const struct read *rd = d->pl->rd;
	return D->vkGetQueryPoolResults(DEV, s->pool, rd->first, rd->count,
					read_span(rd), d->bytes + DST_OFFSET,
					rd->stride, rd->flags);
}

/* vkCmdCopyQueryPoolResults is a transfer write (18.2): the barrier makes
 * it visible to the host after the fence. */
static void dest_record_copy(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			     const struct dest *d, const struct scene *s)
{
	const struct read *rd = d->pl->rd;
	D->vkCmdCopyQueryPoolResults(cb, s->pool, rd->first, rd->count, d->buf->buf,
				     DST_OFFSET, rd->stride, rd->flags);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
}

static void dest_copy_submit(struct vkqs_ctx *ctx, const struct dest *d,
			     const struct scene *s)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	dest_record_copy(ctx, cb, d, s);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

static void dest_check(struct vkqs_ctx *ctx, const struct dest *d)
{
	if (d->buf)
		vkqs_buffer_invalidate(ctx, d->buf);
	plan_check(ctx, d->pl, d->path, d->bytes);
}

/* Reads of available queries ---------------------------------------------- */

/* Renders every query of a pool of POOL_QUERIES, reads rd through `path` and
 * checks each value against its area.  With WAIT the read does not wait for
 * the fence: vkGetQueryPoolResults is called while the work may still run,
 * and the copy is recorded right after the render pass, in the same command
 * buffer (18.2: with WAIT, vkCmdEndQuery is in the copy's first
 * synchronization scope).  Without WAIT the read comes after the fence, in
 * a later submission for the copy, so every query is available. */
static void read_available(struct vkqs_ctx *ctx, enum path path, const struct read *rd)
{
	struct scene *s = scene_create(ctx, POOL_QUERIES, true);
	struct query_expect *e = vkqs_alloc(ctx, rd->count * sizeof(*e));
	for (uint32_t k = 0; k < rd->count; k++)
		e[k] = (struct query_expect){VALUE_EXACT, rect_area(rd->first + k),
					     AVAIL_NONZERO};
	struct dest d = dest_create(ctx, path, plan_build(ctx, rd, e));
	bool wait = (rd->flags & VK_QUERY_RESULT_WAIT_BIT) != 0;

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	scene_record(ctx, cb, s, POOL_QUERIES);
	if (path == PATH_COPY && wait)
		dest_record_copy(ctx, cb, &d, s);
	vkqs_cmd_end(ctx, cb);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, &cb, 1, f);
	/* 18.2: with every requested query available (after the wait, or
	 * after the fence) there is nothing to return VK_NOT_READY for. */
	if (path == PATH_GET && wait)
		VKQS_EXPECT_VK(ctx, dest_get(ctx, &d, s), VK_SUCCESS);
	vkqs_fence_wait(ctx, f);
	if (path == PATH_GET && !wait)
		VKQS_EXPECT_VK(ctx, dest_get(ctx, &d, s), VK_SUCCESS);
	if (path == PATH_COPY && !wait)
		dest_copy_submit(ctx, &d, s);
	dest_check(ctx, &d);
}

/* Both paths of a case from one implementation. */
#define PATH_CASES(name, impl)                                                 \
	static void name##_get(struct vkqs_ctx *ctx, const void *param)        \
	{                                                                      \
		impl(ctx, PATH_GET, param);                                    \
	}                                                                      \
	static void name##_copy(struct vkqs_ctx *ctx, const void *param)       \
	{                                                                      \
		impl(ctx, PATH_COPY, param);                                   \
	}

/* The matrix: width x flags x stride -------------------------------------- */

static const struct flag_set {
	VkQueryResultFlags flags;
	const char *name;
} flag_sets[] = {
	{0, "none"},
	{VK_QUERY_RESULT_WAIT_BIT, "wait"},
	{VK_QUERY_RESULT_WITH_AVAILABILITY_BIT, "with_availability"},
	{VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
	 "wait_with_availability"},
	/* Every query is available when read, so PARTIAL changes nothing:
	 * "Results for any available query written by this command are
	 * final". */
	{VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
	 "partial_with_availability"},
};

enum stride_kind { STRIDE_PACKED, STRIDE_PADDED, STRIDE_LARGE };
static const char *const stride_names[] = {"packed", "padded", "large"};

struct matrix_param {
	uint8_t bits;     /* 32 or 64 */
	uint8_t flag_set; /* index into flag_sets */
	uint8_t stride;   /* enum stride_kind */
};

#define M_STRIDES(b, f) \
	{b, f, STRIDE_PACKED}, {b, f, STRIDE_PADDED}, {b, f, STRIDE_LARGE}
#define M_FLAGS(b)                                                          \
	M_STRIDES(b, 0), M_STRIDES(b, 1), M_STRIDES(b, 2), M_STRIDES(b, 3), \
		M_STRIDES(b, 4)
static const struct matrix_param matrix_params[] = {M_FLAGS(32), M_FLAGS(64)};

static void matrix_name(const void *param, char *buf, size_t size)
{
	const struct matrix_param *p = param;
	snprintf(buf, size, "%u_%s_stride_%s", p->bits, flag_sets[p->flag_set].name,
		 stride_names[p->stride]);
}

static void matrix(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct matrix_param *p = param;
	struct read rd = {
		.first = 0,
		.count = POOL_QUERIES,
		.flags = flag_sets[p->flag_set].flags |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
	};
	/* Strides stay multiples of the word size
	 * (VUID-vkGetQueryPoolResults-flags-02828/-00815,
	 * VUID-vkCmdCopyQueryPoolResults-flags-00822/-00823). */
	size_t elem = element_size(&rd);
	rd.stride = p->stride == STRIDE_PACKED ? elem
		    : p->stride == STRIDE_PADDED ? elem + 8
						 : LARGE_STRIDE;
	read_available(ctx, path, &rd);
}
PATH_CASES(matrix, matrix)

/* firstQuery / queryCount ------------------------------------------------- */

struct range_param {
	uint32_t first, count;
};

static const struct range_param range_params[] = {{2, 2}, {4, 1}, {1, 3}};

static void range_name(const void *param, char *buf, size_t size)
{
	const struct range_param *p = param;
	snprintf(buf, size, "first_%u_count_%u", p->first, p->count);
}

/* 64-bit words and the availability word: a wrong firstQuery shifts both. */
static void range(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct range_param *p = param;
	struct read rd = {
		.first = p->first,
		.count = p->count,
		.flags = VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
	};
	rd.stride = element_size(&rd);
	read_available(ctx, path, &rd);
}
PATH_CASES(range, range)

/* stride 0 with one query ------------------------------------------------- */

struct width_param {
	uint8_t bits;
};

static const struct width_param width_params[] = {{32}, {64}};

static void width_name(const void *param, char *buf, size_t size)
{
	const struct width_param *p = param;
	snprintf(buf, size, "size_%u", p->bits);
}

/* Zero is a multiple of 4 and 8, and only queryCount > 1 forbids it
 * (VUID-vkGetQueryPoolResults-queryCount-09438 / -vkCmdCopyQueryPoolResults-).
 * No availability word: VUID-...-stride-08993 asked for a stride that holds
 * it without the "queryCount > 1" condition in some spec versions. */
static void stride_zero(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct width_param *p = param;
	struct read rd = {
		.first = 3,
		.count = 1,
		.stride = 0,
		.flags = p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0,
	};
	read_available(ctx, path, &rd);
}
PATH_CASES(stride_zero, stride_zero)

/* Unavailable queries ----------------------------------------------------- */

struct unavail_param {
	bool avail;
	uint8_t bits;
};

static const struct unavail_param unavail_params[] = {
	{false, 32}, {false, 64}, {true, 32}, {true, 64}};
/* A copy of an unavailable query is only read WITH_AVAILABILITY:
 * VUID-vkCmdCopyQueryPoolResults-None-08752 ("All queries used by the
 * command must have been made available by prior executed commands") is
 * enforced by the validation layer for copies without WITH_AVAILABILITY or
 * PARTIAL; with WITH_AVAILABILITY the layer, and the CTS (reset_before_copy,
 * cts_queries.md 2.1), treat it as valid. */
static const struct unavail_param unavail_avail_params[] = {{true, 32}, {true, 64}};

static void unavail_name(const void *param, char *buf, size_t size)
{
	const struct unavail_param *p = param;
	snprintf(buf, size, "%ssize_%u", p->avail ? "with_availability_" : "", p->bits);
}

/* Reads queries [0, queries) of a pool where only [0, begun) were begun; the
 * others were reset (in a submission that completed) and never begun, so
 * they stay unavailable.  Never with WAIT: such a query never becomes
 * available (cts_queries.md 2.1: "may not return in finite time"). */
static void read_unavailable(struct vkqs_ctx *ctx, enum path path,
			     const struct unavail_param *p, uint32_t queries,
			     uint32_t begun)
{
	struct scene *s = scene_create(ctx, queries, begun > 0);
	struct read rd = {
		.first = 0,
		.count = queries,
		.flags = (p->avail ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0) |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
	};
	rd.stride = element_size(&rd);
	struct query_expect *e = vkqs_alloc(ctx, queries * sizeof(*e));
	for (uint32_t k = 0; k < queries; k++) {
		if (k < begun) {
			/* 18.2: "Results for any available query written by
			 * this command are final"; with WITH_AVAILABILITY
			 * "results for all queries ... are copied". */
			e[k] = (struct query_expect){VALUE_EXACT, rect_area(k),
						     AVAIL_NONZERO};
		} else {
			/* A copy WITH_AVAILABILITY copies "results for all
			 * queries" (18.2), undefined for this one. */
			enum value_expect v = path == PATH_COPY && p->avail
						      ? VALUE_UNDEFINED
						      : VALUE_UNWRITTEN;
			e[k] = (struct query_expect){v, 0, AVAIL_ZERO};
		}
	}
	struct dest d = dest_create(ctx, path, plan_build(ctx, &rd, e));

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	scene_record(ctx, cb, s, begun);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	if (path == PATH_GET) {
		/* 18.2 "If VK_QUERY_RESULT_WAIT_BIT is not set,
		 * vkGetQueryPoolResults may return VK_NOT_READY if there are
		 * queries in the unavailable state".  The current text says
		 * "may"; earlier versions said it "returns VK_NOT_READY" and
		 * the CTS requires it: VK_SUCCESS is a CompatibilityWarning,
		 * anything else a failure. */
		VkResult r = dest_get(ctx, &d, s);
		if (r == VK_SUCCESS)
			vkqs_compat_warning(ctx, "vkGetQueryPoolResults returned VK_SUCCESS "
						 "with an unavailable query and no WAIT "
						 "(VK_NOT_READY expected)");
		else
			vkqs_check_vk(ctx, false, __FILE__, __LINE__,
				      "vkGetQueryPoolResults without WAIT of an unavailable query",
				      r, VK_NOT_READY);
	} else {
		dest_copy_submit(ctx, &d, s);
	}
	dest_check(ctx, &d);
}

static void not_ready(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	read_unavailable(ctx, path, param, 1, 0);
}
PATH_CASES(not_ready, not_ready)

/* Query 0 available, query 1 reset and never begun, read together. */
static void not_ready_mixed(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	read_unavailable(ctx, path, param, 2, 1);
}
PATH_CASES(not_ready_mixed, not_ready_mixed)

#define SPEC_LAYOUT                                                             \
	"18.2: \"The first query's result is written starting at the first "    \
	"byte requested by the command, and each subsequent query's result "    \
	"begins stride bytes later\"; results are \"a tightly packed array of " \
	"unsigned integers, either 32- or 64-bits\"; with "                     \
	"VK_QUERY_RESULT_WITH_AVAILABILITY_BIT \"the final element of each "    \
	"query's result is an integer indicating whether the query's result "   \
	"is available, with any non-zero value indicating that it is "          \
	"available\"; \"Results for any available query written by this "      \
	"command are final\"; no other byte of the destination is written"

static const struct vkqs_case cases[] = {
	{.name = "get.size",
	 .fn = matrix_get,
	 .spec = SPEC_LAYOUT " (vkGetQueryPoolResults, dataSize "
	 "(queryCount - 1) * stride + element, pData at a non-zero offset)",
	 .params = VKQS_PARAMS(matrix_params, matrix_name)},
	{.name = "copy.size",
	 .fn = matrix_copy,
	 .spec = SPEC_LAYOUT " (vkCmdCopyQueryPoolResults at "
	 "dstOffset 24 into the middle of a buffer)",
	 .params = VKQS_PARAMS(matrix_params, matrix_name)},
	{.name = "range.get",
	 .fn = range_get,
	 .spec = "18.2: firstQuery is the initial query index, "
	 "queryCount the number of queries; the first query's result is written "
	 "at the first byte requested (vkGetQueryPoolResults, 64-bit, "
	 "WITH_AVAILABILITY, packed)",
	 .params = VKQS_PARAMS(range_params, range_name)},
	{.name = "range.copy",
	 .fn = range_copy,
	 .spec = "18.2: firstQuery and queryCount together "
	 "define a range of queries; the first query's result is written at "
	 "dstOffset (vkCmdCopyQueryPoolResults, 64-bit, WITH_AVAILABILITY, packed)",
	 .params = VKQS_PARAMS(range_params, range_name)},
	{.name = "stride_zero.get",
	 .fn = stride_zero_get,
	 .spec = "VUID-vkGetQueryPoolResults-"
	 "queryCount-09438: stride must not be zero only if queryCount is greater "
	 "than 1; 18.2 memory layout for one query at stride 0",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "stride_zero.copy",
	 .fn = stride_zero_copy,
	 .spec = "VUID-vkCmdCopyQueryPoolResults-"
	 "queryCount-09438: stride must not be zero only if queryCount is greater "
	 "than 1; 18.2 memory layout for one query at stride 0",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "not_ready.get",
	 .fn = not_ready_get,
	 .spec = "18.2: without WAIT vkGetQueryPoolResults "
	 "\"may return VK_NOT_READY if there are queries in the unavailable "
	 "state\"; with WITH_AVAILABILITY \"A value of zero indicates that the "
	 "results are not yet available\"; nothing outside the query's words is "
	 "written",
	 .params = VKQS_PARAMS(unavail_params, unavail_name)},
	{.name = "not_ready.copy",
	 .fn = not_ready_copy,
	 .spec = "18.2: with WITH_AVAILABILITY "
	 "vkCmdCopyQueryPoolResults writes \"an extra availability value\" per "
	 "query and \"A value of zero indicates that the results are not yet "
	 "available\"; nothing outside the query's words is written",
	 .params = VKQS_PARAMS(unavail_avail_params, unavail_name)},
	{.name = "not_ready.get_mixed",
	 .fn = not_ready_mixed_get,
	 .spec = "18.2: with "
	 "WITH_AVAILABILITY \"results for all queries ... are copied to pData\" "
	 "and \"Results for any available query written by this command are "
	 "final\": an available query next to an unavailable one reads its final "
	 "value and a non-zero availability word, the unavailable one zero, and "
	 "VK_NOT_READY is returned",
	 .params = VKQS_PARAMS(unavail_avail_params, unavail_name)},
	{.name = "not_ready.copy_mixed",
	 .fn = not_ready_mixed_copy,
	 .spec = "18.2: with "
	 "WITH_AVAILABILITY \"results for all queries ... are copied to "
	 "dstBuffer\" and \"Results for any available query written by this "
	 "command are final\": the available query's final value and a non-zero "
	 "availability word, the unavailable one's availability word zero",
	 .params = VKQS_PARAMS(unavail_avail_params, unavail_name)},
};

VKQS_AREA(results, cases);
