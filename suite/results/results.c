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
 * suite/occlusion/occlusion.c).  The areas of any RECT_PERIOD consecutive
 * queries are distinct, so a result written for the wrong query (firstQuery
 * ignored, stride misapplied) is caught.  Queries a case does not draw stay
 * reset and unavailable; large pools (65536 and 1048576 queries) draw only
 * the queries they read, or a few of them.
 *
 * One plan (plan_build) describes, byte by byte, what a read must write
 * into its destination: the value and availability words of each query, and
 * guard bytes everywhere else - before the first query, the padding inside
 * the stride, after the last.  The destination is pre-filled from the plan
 * (guard pattern; each word pre-filled so that *not* writing it fails its
 * check), the read runs through vkGetQueryPoolResults or
 * vkCmdCopyQueryPoolResults, and one checker (plan_check) compares the
 * bytes with the plan for both paths.  A copy may target a buffer that ends
 * exactly at the last byte the read needs, inside a larger allocation whose
 * tail is guarded too: a write past dstBuffer's end is caught. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define POOL_QUERIES 5u
/* Query i draws a RECT_W x rect_h(i) rectangle: 21, 42, 63, 84, 105, ...,
 * 441, then the heights repeat (the tallest, 63, fits the FB x FB target). */
#define RECT_W 7u
#define RECT_PERIOD 21u
/* The first result lands this far into the destination: a multiple of 8
 * (VUID-vkCmdCopyQueryPoolResults-queryCount-12254/-12255, and pData alignment
 * VUID-vkGetQueryPoolResults-queryCount-12251/-12252) but not of 16, so an
 * implementation that rounds the offset is caught (bug_classes.md #10:
 * a non-zero dstOffset ignored). */
#define DST_OFFSET 24u
/* Guard bytes after the last written byte. */
#define TAIL_GUARD 40u
/* Not a plausible count, availability word or zero. */
#define GUARD 0xA5u
/* The stride of the "large" matrix cases. */
#define LARGE_STRIDE 256u
/* Large pools: 2^16 (a 16-bit index wraps past it) and 2^20 queries. */
#define POOL_64K 65536u
#define POOL_1M 1048576u

/* PATH_MEMORY: vkCmdCopyQueryPoolResultsToMemoryKHR (VK_KHR_device_address_-
 * commands) into a device address range; everything 18.2 says of the copy
 * holds for it (its reference page repeats the copy's text). */
enum path { PATH_GET, PATH_COPY, PATH_MEMORY };

static uint32_t rect_h(uint32_t query)
{
	return 3u * (query % RECT_PERIOD + 1u);
}

static uint64_t rect_area(uint32_t query)
{
	return (uint64_t)RECT_W * rect_h(query);
}

/* The scene -------------------------------------------------------------- */

/* Queries [first, first + count). */
struct qrange {
	uint32_t first, count;
};

struct scene {
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
	VkQueryPool pool;
	uint32_t queries;
	struct qrange reset; /* the queries scene_record resets */
};

static struct scene *scene_create(struct vkqs_ctx *ctx, uint32_t queries,
				  bool draws)
{
	struct scene *s = vkqs_alloc(ctx, sizeof(*s));
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	s->queries = queries;
	s->reset = (struct qrange){0, queries};
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

static bool qrange_has(const struct qrange *r, uint32_t n, uint32_t query)
{
	for (uint32_t i = 0; i < n; i++)
		if (query >= r[i].first && query - r[i].first < r[i].count)
			return true;
	return false;
}

/* Resets s->reset, every query of the pool unless a case narrowed it, with
 * one command (18.2: reset before use, outside a render pass), then begins,
 * draws and ends the queries of the n ranges `drawn`; the others stay reset
 * and unavailable. */
static void scene_record(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			 const struct scene *s, const struct qrange *drawn, uint32_t n)
{
	D->vkCmdResetQueryPool(cb, s->pool, s->reset.first, s->reset.count);
	if (!n)
		return;
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t r = 0; r < n; r++) {
		for (uint32_t i = drawn[r].first; i - drawn[r].first < drawn[r].count; i++) {
			D->vkCmdBeginQuery(cb, s->pool, i, VK_QUERY_CONTROL_PRECISE_BIT);
			vkqs_draw_rect(ctx, cb, s->p, s->t, 0.0f, 0.0f, (float)RECT_W,
				       (float)rect_h(i), 0.5f);
			D->vkCmdEndQuery(cb, s->pool, i);
		}
	}
	vkqs_target_end(ctx, cb);
}

/* The plan: what one read writes where ------------------------------------ */

struct read {
	uint32_t first, count;
	VkDeviceSize stride;
	VkQueryResultFlags flags;
	/* The first result's byte in the destination: the copy's dstOffset,
	 * pData's offset into the host array.  A multiple of the word size
	 * (VUID-vkCmdCopyQueryPoolResults-queryCount-12254/-12255,
	 * VUID-vkGetQueryPoolResults-queryCount-12251/-12252). */
	size_t offset;
	/* Copy only: dstBuffer ends at the last byte the read writes; the tail
	 * guard lies past its end, in the same memory.  Only where that is
	 * also dstOffset + queryCount * stride (packed, or one query), which
	 * the 1.3.239 layer asks for (see plan_build). */
	bool tight;
};

static size_t word_size(const struct read *rd)
{
	return vkqs_result_word(rd->flags);
}

static bool has_avail(const struct read *rd)
{
	return (rd->flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) != 0;
}

static size_t element_size(const struct read *rd)
{
	return vkqs_result_elem(rd->flags);
}

/* Bytes from the first written byte to the last one: the dataSize of
 * VUID-vkGetQueryPoolResults-dataSize-00817 and the storage of
 * VUID-vkCmdCopyQueryPoolResults-dstBuffer-00824. */
static size_t read_span(const struct read *rd)
{
	return vkqs_result_span(rd->count, rd->stride, rd->flags);
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
	/* An unavailable query read with PARTIAL: 18.2 "If
	 * VK_QUERY_RESULT_PARTIAL_BIT is set, then for any query that is
	 * unavailable, an intermediate result between zero and the final
	 * result value is written for that query" (1.0 said the same).  The
	 * value of a query that was never begun is not known, but it must be
	 * written: the word is pre-filled with the guard, which no driver
	 * plausibly writes. */
	VALUE_WRITTEN,
};

enum avail_expect { AVAIL_NONZERO, AVAIL_ZERO };

struct query_expect {
	enum value_expect value_kind;
	uint64_t value;
	enum avail_expect avail; /* when WITH_AVAILABILITY is set */
};

/* ROLE_PAD: inside a query's stride past its words (VKQS_SPEC_STRIDE_PADDING) */
enum byte_role { ROLE_GUARD, ROLE_UNWRITTEN, ROLE_WORD, ROLE_PAD };

struct plan {
	const struct read *rd;
	const struct query_expect *e; /* rd->count entries */
	size_t size;                  /* destination bytes */
	size_t buffer_size;           /* dstBuffer's size (< size when tight) */
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
	size_t span = read_span(rd);
	/* One query: the stride places nothing (stride_max reads one query
	 * at a stride near UINT64_MAX). */
	size_t whole = rd->count == 1 ? span : (size_t)rd->count * rd->stride;
	if (rd->tight && whole > span)
		vkqs_internal_error(ctx, "a tight destination needs a packed stride or one query");
	pl->buffer_size = rd->offset + (span > whole ? span : whole);
	pl->size = pl->buffer_size + TAIL_GUARD;
	if (!rd->tight)
		pl->buffer_size = pl->size;
	pl->role = vkqs_alloc(ctx, pl->size);
	pl->init = vkqs_alloc(ctx, pl->size);
	memset(pl->init, GUARD, pl->size);
	memset(pl->role, ROLE_GUARD, pl->size);
	for (uint32_t k = 0; k < rd->count; k++) {
		size_t at = rd->offset + (size_t)k * rd->stride;
		size_t elem = w * (has_avail(rd) ? 2 : 1);
		if (rd->count > 1 && rd->stride > elem)
			memset(pl->role + at + elem, ROLE_PAD, rd->stride - elem);
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

static const char *path_name(enum path path)
{
	return path == PATH_GET    ? "vkGetQueryPoolResults"
	       : path == PATH_COPY ? "vkCmdCopyQueryPoolResults"
				   : "vkCmdCopyQueryPoolResultsToMemoryKHR";
}

/* vkqs_check_u64 with a formatted description of the checked word. */
static void check_u64(struct vkqs_ctx *ctx, int line, const char *op, uint64_t got,
		      uint64_t want, const char *want_txt, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
static void check_u64(struct vkqs_ctx *ctx, int line, const char *op, uint64_t got,
		      uint64_t want, const char *want_txt, const char *fmt, ...)
{
	/* Formatted only for a failure: a read of 65536 queries makes
	 * hundreds of thousands of checks. */
	char what[200] = "";
	bool ok = op[0] == '=' ? got == want : got != want;
	if (!ok) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof(what), fmt, ap);
		va_end(ap);
	}
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
		size_t at = rd->offset + (size_t)k * rd->stride;
		uint64_t v = vkqs_load_word(dst + at, w);
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
		} else if (e->value_kind == VALUE_WRITTEN) {
			CHECK_U64(ctx, "!=", v, vkqs_load_word(pl->init + at, w),
				  "the pre-filled guard",
				  "%s: query %u (unavailable, read with PARTIAL: \"an "
				  "intermediate result ... is written\") %zu-bit value at byte %zu",
				  api, q, w * 8, at);
		}
		if (!has_avail(rd))
			continue;
		uint64_t a = vkqs_load_word(dst + at + w, w);
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

	size_t bad = 0, first_bad = 0, unwritten = 0, first_unwritten = 0, pad = 0, first_pad = 0;
	for (size_t i = 0; i < pl->size; i++) {
		if (dst[i] == pl->init[i] || pl->role[i] == ROLE_WORD)
			continue;
		if (pl->role[i] == ROLE_GUARD && !bad++)
			first_bad = i;
		if (pl->role[i] == ROLE_UNWRITTEN && !unwritten++)
			first_unwritten = i;
		if (pl->role[i] == ROLE_PAD && !pad++)
			first_pad = i;
	}
	VKQS_EXPECT_PADDING_UNTOUCHED(ctx, pad == 0,
				      "%s changed %zu byte(s) inside the stride past a query's "
				      "words, first at byte %zu = 0x%02x",
				      api, pad, first_pad, pad ? dst[first_pad] : GUARD);
	char what[400];
	snprintf(what, sizeof(what),
		 "%s wrote no byte before its first or past its last query's stride (18.2 memory layout: "
		 "results at offset %zu + k * stride %llu, %zu-byte words%s); "
		 "%zu of %zu guard bytes changed, first at byte %zu = 0x%02x",
		 api, rd->offset, (unsigned long long)rd->stride, w,
		 path != PATH_GET && pl->buffer_size < pl->size
			 ? "; the destination ends where the last word does, "
			   "the bytes after it are memory past its end"
			 : "",
		 bad, pl->size, first_bad, bad ? dst[first_bad] : GUARD);
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
	struct vkqs_buffer *buf; /* copy only: the memory, all of it guarded */
	VkBuffer dst;            /* copy only: dstBuffer, buf->buf unless tight */
};

/* A buffer of `size` bytes bound at offset 0 of b's memory.  Created with
 * b's usage (vkqs_buffer_host adds TRANSFER_SRC|DST) and no larger, so its
 * memory requirements fit b's (the spec's VkMemoryRequirements guarantees:
 * the same memoryTypeBits and alignment for the same usage, and no larger a
 * size for a smaller buffer). */
static VkBuffer buffer_alias(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
			     VkDeviceSize size)
{
	VkBufferCreateInfo bci = {
		.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
		.size = size,
		.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
		.sharingMode = VK_SHARING_MODE_EXCLUSIVE,
	};
	VkBuffer buf;
	VKQS_CHECK(ctx, D->vkCreateBuffer(DEV, &bci, NULL, &buf));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_BUFFER, buf);
	/* Queried before binding, as VUID-vkBindBufferMemory-size-01037 and
	 * -memory-01035 are stated against it; the layer checks both. */
	VkMemoryRequirements req;
	D->vkGetBufferMemoryRequirements(DEV, buf, &req);
	VKQS_CHECK(ctx, D->vkBindBufferMemory(DEV, buf, b->mem, 0));
	return buf;
}

static struct dest dest_create(struct vkqs_ctx *ctx, enum path path,
			       const struct plan *pl)
{
	struct dest d = {path, pl, NULL, NULL, VK_NULL_HANDLE};
	if (path == PATH_GET) {
		d.bytes = vkqs_alloc(ctx, pl->size); /* malloc: 16-byte aligned */
	} else if (path == PATH_MEMORY) {
		/* the range's size ends it where the last word does
		 * (pl->buffer_size), inside the guarded buffer */
		d.buf = vkqs_buffer_host(ctx, pl->size,
					 VK_BUFFER_USAGE_TRANSFER_DST_BIT |
						 VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
		d.bytes = d.buf->map;
	} else {
		d.buf = vkqs_buffer_host(ctx, pl->size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
		d.bytes = d.buf->map;
		d.dst = pl->buffer_size < pl->size ? buffer_alias(ctx, d.buf, pl->buffer_size)
						   : d.buf->buf;
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
					read_span(rd), d->bytes + rd->offset,
					rd->stride, rd->flags);
}

/* vkCmdCopyQueryPoolResults is a transfer write (18.2): the barrier makes
 * it visible to the host after the fence. */
static void dest_record_copy(struct vkqs_ctx *ctx, VkCommandBuffer cb,
			     const struct dest *d, const struct scene *s)
{
	const struct read *rd = d->pl->rd;
	if (d->path == PATH_MEMORY) {
		/* "considered to be a transfer operation" (its reference
		 * page): the same barrier makes it visible to the host */
		VkStridedDeviceAddressRangeKHR range = {
			.address = vkqs_buffer_address(ctx, d->buf) + rd->offset,
			.size = read_span(rd),
			.stride = rd->stride,
		};
		ctx->vk->copy_query_results_to_memory(cb, s->pool, rd->first, rd->count, &range,
						      0, rd->flags);
	} else {
		D->vkCmdCopyQueryPoolResults(cb, s->pool, rd->first, rd->count, d->dst,
					     rd->offset, rd->stride, rd->flags);
	}
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

/* Reads of a scene -------------------------------------------------------- */

/* What an unavailable query's value may be, read by `path` with rd's
 * flags (never WAIT: see read_scene). */
static enum value_expect unavailable_value(enum path path, const struct read *rd)
{
	if (rd->flags & VK_QUERY_RESULT_PARTIAL_BIT)
		return VALUE_WRITTEN;
	/* A copy WITH_AVAILABILITY copies "results for all queries" (18.2),
	 * undefined for this one. */
	if (path != PATH_GET && has_avail(rd))
		return VALUE_UNDEFINED;
	return VALUE_UNWRITTEN;
}

/* vkGetQueryPoolResults without WAIT, after the fence. */
static void expect_get_result(struct vkqs_ctx *ctx, VkResult r, bool all_available,
			      VkQueryResultFlags flags)
{
	if (all_available) {
		/* 18.2: with every requested query available there is nothing
		 * to return VK_NOT_READY for. */
		vkqs_check_vk(ctx, false, __FILE__, __LINE__,
			      "vkGetQueryPoolResults without WAIT of available queries", r,
			      VK_SUCCESS);
		return;
	}
	/* 18.2 "If VK_QUERY_RESULT_WAIT_BIT is not set,
	 * vkGetQueryPoolResults may return VK_NOT_READY if there are queries
	 * in the unavailable state".  With PARTIAL both codes are right in
	 * every version (before 1.3.220 VK_NOT_READY was required only when
	 * "VK_QUERY_RESULT_WAIT_BIT and VK_QUERY_RESULT_PARTIAL_BIT are both
	 * not set"; CTS accepts both), as suite/reset/common.c judges it.
	 * Without PARTIAL, earlier versions said it "returns VK_NOT_READY" and
	 * the CTS requires it: VK_SUCCESS is a CompatibilityWarning. */
	if (flags & VK_QUERY_RESULT_PARTIAL_BIT) {
		VKQS_EXPECTF(ctx, r == VK_SUCCESS || r == VK_NOT_READY,
			     "vkGetQueryPoolResults with PARTIAL and an unavailable query "
			     "returned %s (%d), expected VK_SUCCESS or VK_NOT_READY",
			     vkqs_vk_result_name(r), r);
		return;
	}
	vkqs_expect_not_ready(ctx, r, "vkGetQueryPoolResults without WAIT of an unavailable query");
}

/* Resets the pool of `queries` (or only `reset`, when not NULL) and draws
 * the queries of `drawn`; the others stay reset and unavailable, never
 * begun.  Reads rd through `path` and checks the destination against the
 * plan: the drawn queries' areas and non-zero availability, zero
 * availability for the others.
 *
 * With WAIT the read does not wait for the fence: vkGetQueryPoolResults is
 * called while the work may still run, and the copy is recorded right after
 * the render pass, in the same command buffer (18.2: with WAIT,
 * vkCmdEndQuery is in the copy's first synchronization scope).  WAIT is only
 * used when every query read is drawn: a query never begun never becomes
 * available (cts_queries.md 2.1: "may not return in finite time").
 * Without WAIT the read comes after the fence, in a later submission for the
 * copy, so every drawn query is available. */
static void read_scene(struct vkqs_ctx *ctx, enum path path, const struct read *rd,
		       uint32_t queries, const struct qrange *drawn, uint32_t n_drawn,
		       const struct qrange *reset)
{
	struct scene *s = scene_create(ctx, queries, n_drawn > 0);
	if (reset)
		s->reset = *reset;
	struct query_expect *e = vkqs_alloc(ctx, rd->count * sizeof(*e));
	bool all = true;
	for (uint32_t k = 0; k < rd->count; k++) {
		uint32_t q = rd->first + k;
		if (qrange_has(drawn, n_drawn, q)) {
			/* 18.2: "Results for any available query written by
			 * this command are final". */
			e[k] = (struct query_expect){VALUE_EXACT, rect_area(q), AVAIL_NONZERO};
		} else {
			all = false;
			e[k] = (struct query_expect){unavailable_value(path, rd), 0, AVAIL_ZERO};
		}
	}
	bool wait = (rd->flags & VK_QUERY_RESULT_WAIT_BIT) != 0;
	if (wait && !all)
		vkqs_internal_error(ctx, "WAIT on a query that is never begun");
	struct dest d = dest_create(ctx, path, plan_build(ctx, rd, e));

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	scene_record(ctx, cb, s, drawn, n_drawn);
	if (path != PATH_GET && wait)
		dest_record_copy(ctx, cb, &d, s);
	vkqs_cmd_end(ctx, cb);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, &cb, 1, f);
	/* 18.2: WAIT "will wait for each query's status to become available
	 * before retrieving its results": nothing is left unavailable. */
	if (path == PATH_GET && wait)
		VKQS_EXPECT_VK(ctx, dest_get(ctx, &d, s), VK_SUCCESS);
	vkqs_fence_wait(ctx, f);
	if (path == PATH_GET && !wait)
		expect_get_result(ctx, dest_get(ctx, &d, s), all, rd->flags);
	if (path != PATH_GET && !wait)
		dest_copy_submit(ctx, &d, s);
	dest_check(ctx, &d);
}

/* Every query of a pool of POOL_QUERIES drawn. */
static void read_available(struct vkqs_ctx *ctx, enum path path, const struct read *rd)
{
	static const struct qrange all = {0, POOL_QUERIES};
	read_scene(ctx, path, rd, POOL_QUERIES, &all, 1, NULL);
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
	{VK_QUERY_RESULT_PARTIAL_BIT, "partial"},
	/* WAIT "will wait for each query's status to become available before
	 * retrieving its results": with PARTIAL too, the values are final. */
	{VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WAIT_BIT, "partial_wait"},
	{VK_QUERY_RESULT_PARTIAL_BIT | VK_QUERY_RESULT_WAIT_BIT |
		 VK_QUERY_RESULT_WITH_AVAILABILITY_BIT,
	 "partial_wait_with_availability"},
};

enum stride_kind { STRIDE_PACKED, STRIDE_PADDED, STRIDE_LARGE, STRIDE_PADDED_4 };
static const char *const stride_names[] = {"packed", "padded", "large", "padded_4"};

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
/* PARTIAL alone and with WAIT, on available queries. */
#define M_PARTIAL(b) \
	{b, 5, STRIDE_PACKED}, {b, 6, STRIDE_PACKED}, {b, 7, STRIDE_PACKED}
static const struct matrix_param matrix_params[] = {
	M_FLAGS(32), M_FLAGS(64), M_PARTIAL(32), M_PARTIAL(64),
	/* 32-bit words at a stride one word longer than the element: 8
	 * without availability, 12 (an odd multiple of 4: not 8-aligned for
	 * every query) with it. */
	{32, 0, STRIDE_PADDED_4}, {32, 2, STRIDE_PADDED_4},
};

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
		.offset = DST_OFFSET,
	};
	/* Strides stay multiples of the word size
	 * (VUID-vkGetQueryPoolResults-queryCount-12251/-12252,
	 * VUID-vkCmdCopyQueryPoolResults-queryCount-12254/-12255). */
	size_t elem = element_size(&rd);
	rd.stride = p->stride == STRIDE_PACKED   ? elem
		    : p->stride == STRIDE_PADDED ? elem + 8
		    : p->stride == STRIDE_LARGE  ? LARGE_STRIDE
						 : elem + 4;
	read_available(ctx, path, &rd);
}
PATH_CASES(matrix, matrix)

/* The same layout through a device address (VK_KHR_device_address_commands:
 * vkCmdCopyQueryPoolResultsToMemoryKHR), on a subset of the matrix: 32 and
 * 64 bits, with and without availability, WAIT or after the fence, packed,
 * padded and large strides.  The range's size ends at the last word
 * (VUID-...-pDstRange-13079 asks for room for every result, no more); the
 * guard bytes after it must stay. */
static const struct matrix_param memory_params[] = {
	{32, 0, STRIDE_PACKED}, {32, 3, STRIDE_PADDED}, {32, 2, STRIDE_PADDED_4},
	{64, 1, STRIDE_PACKED}, {64, 2, STRIDE_LARGE},  {64, 7, STRIDE_PADDED},
};

static void matrix_memory(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_feature(ctx, "VK_KHR_device_address_commands.deviceAddressCommands");
	vkqs_require_feature(ctx, "bufferDeviceAddress");
	if (!ctx->vk->copy_query_results_to_memory)
		vkqs_skip(ctx, "vkCmdCopyQueryPoolResultsToMemoryKHR is not available");
	matrix(ctx, PATH_MEMORY, param);
}

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
		.offset = DST_OFFSET,
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
		.offset = DST_OFFSET,
	};
	read_available(ctx, path, &rd);
}
PATH_CASES(stride_zero, stride_zero)

/* The availability word at stride 0: the current
 * VUID-vkGetQueryPoolResults-stride-08993 (and the copy's) asks for a stride
 * that holds it only "If queryCount is greater than 1"; the word still goes
 * "directly after the results of each query" (18.2).  A copy's destination
 * is tight: dstBuffer ends at the availability word. */
static void stride_zero_avail(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct width_param *p = param;
	struct read rd = {
		.first = 3,
		.count = 1,
		.stride = 0,
		.flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
		.offset = DST_OFFSET,
		.tight = true,
	};
	read_available(ctx, path, &rd);
}
PATH_CASES(stride_zero_avail, stride_zero_avail)

/* One query at the largest stride that is a multiple of 8: 18.2 places
 * query k's results at k * stride, so for one query the stride moves
 * nothing.  The rules on the stride are that it be a multiple of the word
 * size (VUID-vkGetQueryPoolResults-queryCount-12251/-12252) and, only "If
 * queryCount is greater than 1", non-zero and large enough for the
 * availability word (-queryCount-09438, -stride-08993); dataSize need only
 * hold the result of each query (-dataSize-00817).  An implementation that
 * computes k * stride or (queryCount - 1) * stride in too few bits, or
 * steps to the next query before stopping, writes far away or faults. */
static void stride_max_get(struct vkqs_ctx *ctx, const void *param)
{
	const struct width_param *p = param;
	struct read rd = {
		.first = 3,
		.count = 1,
		.stride = UINT64_MAX / 8 * 8,
		.flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
		.offset = DST_OFFSET,
	};
	read_available(ctx, PATH_GET, &rd);
}

/* The same read of query 0 of a pool of one, reset and never begun: the
 * availability word, zero, still goes right after the value word; the value
 * is left alone by vkGetQueryPoolResults (VALUE_UNWRITTEN), undefined for a
 * copy.  A copy's dstBuffer ends at the availability word. */
static void stride_zero_unavail(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct width_param *p = param;
	struct read rd = {
		.first = 0,
		.count = 1,
		.stride = 0,
		.flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
		.offset = DST_OFFSET,
		.tight = true,
	};
	read_scene(ctx, path, &rd, 1, NULL, 0, NULL);
}
PATH_CASES(stride_zero_unavail, stride_zero_unavail)

/* dstOffset / pData offset ------------------------------------------------ */

/* The results at the very end of dstBuffer. */
#define OFFSET_END 0xffu

struct offset_param {
	uint8_t bits;
	uint8_t offset; /* bytes, or OFFSET_END */
};

/* Multiples of the word size only (VUID-vkCmdCopyQueryPoolResults-queryCount-12254
 * /-12255, VUID-vkGetQueryPoolResults-queryCount-12251/-12252): 4 for 32-bit
 * words alone. */
static const struct offset_param offset_get_params[] = {
	{32, 0}, {32, 4}, {32, 8}, {64, 0}, {64, 8}};
static const struct offset_param offset_copy_params[] = {
	{32, 0}, {32, 4}, {32, 8}, {32, OFFSET_END}, {64, 0}, {64, 8}, {64, OFFSET_END}};

static void offset_name(const void *param, char *buf, size_t size)
{
	const struct offset_param *p = param;
	if (p->offset == OFFSET_END)
		snprintf(buf, size, "size_%u_offset_end", p->bits);
	else
		snprintf(buf, size, "size_%u_offset_%u", p->bits, p->offset);
}

/* Queries 1..3 WITH_AVAILABILITY at the offset, padded stride (8 bytes
 * between elements).  At the end: dstOffset 24 of a dstBuffer that ends at
 * the last availability word, "dstOffset + ((queryCount - 1) * stride +
 * element)" bytes (VUID-vkCmdCopyQueryPoolResults-dstBuffer-00824) exactly;
 * packed, so that it is also dstOffset + queryCount * stride. */
static void offset(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct offset_param *p = param;
	bool end = p->offset == OFFSET_END;
	struct read rd = {
		.first = 1,
		.count = 3,
		.flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
			 (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0),
		.offset = end ? DST_OFFSET : p->offset,
		.tight = end,
	};
	rd.stride = element_size(&rd) + (end ? 0 : 8);
	read_available(ctx, path, &rd);
}
PATH_CASES(offset, offset)

/* Large pools ------------------------------------------------------------- */

struct large_param {
	uint32_t queries, first, count;
	uint8_t bits;
};

/* The last query, the last 16, and 12 queries across index 65536 of the
 * 2^20 pool; 32-bit words alone, or 64-bit with availability.  And all of
 * the 2^16 pool WITH_AVAILABILITY, where only a few queries are drawn. */
static const struct large_param large_params[] = {
	{POOL_64K, POOL_64K - 1, 1, 32},
	{POOL_64K, POOL_64K - 1, 1, 64},
	{POOL_64K, POOL_64K - 16, 16, 64},
	{POOL_1M, POOL_1M - 1, 1, 64},
	{POOL_1M, POOL_1M - 16, 16, 32},
	{POOL_1M, POOL_64K - 6, 12, 32},
	{POOL_1M, POOL_64K - 6, 12, 64},
	{POOL_64K, 0, POOL_64K, 32},
	{POOL_64K, 0, POOL_64K, 64},
};

static bool large_whole(const struct large_param *p)
{
	return p->first == 0 && p->count == p->queries;
}

static VkQueryResultFlags large_flags(const struct large_param *p)
{
	if (p->bits == 64)
		return VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;
	return large_whole(p) ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0;
}

static void large_name(const void *param, char *buf, size_t size)
{
	const struct large_param *p = param;
	snprintf(buf, size, "pool_%u_first_%u_count_%u_%ssize_%u", p->queries, p->first,
		 p->count,
		 (large_flags(p) & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? "with_availability_"
									  : "",
		 p->bits);
}

/* The first and last queries, three from index 1000, the two around 32768. */
static const struct qrange large_sparse[] = {
	{0, 1}, {1000, 3}, {32767, 2}, {POOL_64K - 1, 1}};

/* One vkCmdResetQueryPool for the whole 2^16 pool.  For the 2^20 one it
 * names only the queries read (all of them:
 * VUID-vkGetQueryPoolResults-None-09401, none may be uninitialized), as
 * Vulkan-ValidationLayers 1.3.239 spends about 3 s and 400 MB tracking the
 * state of 2^20 reset queries.  Packed stride, a tight dstBuffer for the
 * copy (it ends at the last byte written).  A whole-pool read has 65530
 * unavailable queries: availability 0, VK_NOT_READY from
 * vkGetQueryPoolResults (expect_get_result). */
static void large(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct large_param *p = param;
	struct read rd = {
		.first = p->first,
		.count = p->count,
		.flags = large_flags(p),
		.offset = DST_OFFSET,
		.tight = true,
	};
	rd.stride = element_size(&rd);
	struct qrange queries_read = {p->first, p->count};
	const struct qrange *reset = p->queries > POOL_64K ? &queries_read : NULL;
	if (large_whole(p))
		read_scene(ctx, path, &rd, p->queries, large_sparse,
			   VKQS_ARRAY_LEN(large_sparse), reset);
	else
		read_scene(ctx, path, &rd, p->queries, &queries_read, 1, reset);
}
PATH_CASES(large, large)

/* Unavailable queries ----------------------------------------------------- */

struct unavail_param {
	bool avail;
	uint8_t bits;
	bool partial;
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
	snprintf(buf, size, "%s%ssize_%u", p->partial ? "partial_" : "",
		 p->avail ? "with_availability_" : "", p->bits);
}

static VkQueryResultFlags unavail_flags(const struct unavail_param *p)
{
	return (p->avail ? VK_QUERY_RESULT_WITH_AVAILABILITY_BIT : 0) |
	       (p->partial ? VK_QUERY_RESULT_PARTIAL_BIT : 0) |
	       (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0);
}

/* Reads queries [0, queries) of a pool where only [0, begun) were begun; the
 * others were reset (in a submission that completed) and never begun, so
 * they stay unavailable.  Never with WAIT (read_scene). */
static void read_unavailable(struct vkqs_ctx *ctx, enum path path,
			     const struct unavail_param *p, uint32_t queries,
			     uint32_t begun)
{
	struct read rd = {
		.first = 0,
		.count = queries,
		.flags = unavail_flags(p),
		.offset = DST_OFFSET,
	};
	rd.stride = element_size(&rd);
	struct qrange drawn = {0, begun};
	read_scene(ctx, path, &rd, queries, &drawn, begun ? 1 : 0, NULL);
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

/* One unavailable query among available ones ------------------------------ */

static const struct hole_pos {
	uint32_t query;
	const char *name;
} hole_pos[] = {{0, "first"}, {POOL_QUERIES / 2, "middle"}, {POOL_QUERIES - 1, "last"}};

struct hole_param {
	uint8_t pos; /* index into hole_pos */
	struct unavail_param u;
};

/* The three positions of one hole, for one unavail_param {avail, bits, partial}. */
#define HOLES(avail, bits, partial)                                   \
	{0, {avail, bits, partial}}, {1, {avail, bits, partial}},     \
		{2, {avail, bits, partial}}
static const struct hole_param hole_get_params[] = {
	HOLES(false, 32, false),
	HOLES(true, 64, false),
	HOLES(false, 32, true),
	HOLES(true, 64, true),
};
/* Always WITH_AVAILABILITY: see unavail_avail_params. */
static const struct hole_param hole_copy_params[] = {
	HOLES(true, 32, false),
	HOLES(true, 64, true),
};

static void hole_name(const void *param, char *buf, size_t size)
{
	const struct hole_param *p = param;
	char u[64];
	unavail_name(&p->u, u, sizeof(u));
	snprintf(buf, size, "%s_%s", hole_pos[p->pos].name, u);
}

/* Every query of a pool of POOL_QUERIES drawn but one, never begun; read
 * all at a padded stride (8 bytes between elements), without WAIT.
 * vkGetQueryPoolResults returns VK_NOT_READY (expect_get_result), the
 * available queries read their areas, and the unavailable one's value words
 * are left alone, unless PARTIAL, which writes them. */
static void hole(struct vkqs_ctx *ctx, enum path path, const void *param)
{
	const struct hole_param *p = param;
	uint32_t h = hole_pos[p->pos].query;
	struct read rd = {
		.first = 0,
		.count = POOL_QUERIES,
		.flags = unavail_flags(&p->u),
		.offset = DST_OFFSET,
	};
	rd.stride = element_size(&rd) + 8;
	struct qrange drawn[] = {{0, h}, {h + 1, POOL_QUERIES - h - 1}};
	read_scene(ctx, path, &rd, POOL_QUERIES, drawn, VKQS_ARRAY_LEN(drawn), NULL);
}
PATH_CASES(hole, hole)

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
	{.name = "device_address.copy_size",
	 .fn = matrix_memory,
	 .spec = SPEC_LAYOUT " (vkCmdCopyQueryPoolResultsToMemoryKHR, "
	 "VK_KHR_device_address_commands: \"Any results written for a query are written "
	 "according to a layout dependent on the query type\", 24 bytes into a device "
	 "address range that ends at the last word)",
	 .params = VKQS_PARAMS(memory_params, matrix_name)},
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
	{.name = "stride_zero.get_with_availability",
	 .fn = stride_zero_avail_get,
	 .spec = "VUID-vkGetQueryPoolResults-stride-08993 asks for room for the "
	 "availability word only \"If queryCount is greater than 1\"; 18.2: the "
	 "availability value is \"written directly after the results of each "
	 "query\" (one query at stride 0, WITH_AVAILABILITY)",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "stride_zero.copy_with_availability",
	 .fn = stride_zero_avail_copy,
	 .spec = "VUID-vkCmdCopyQueryPoolResults-stride-08993 asks for room for the "
	 "availability word only \"If queryCount is greater than 1\"; 18.2: the "
	 "availability value is \"written directly after the results of each "
	 "query\" (one query at stride 0, WITH_AVAILABILITY, into a dstBuffer "
	 "that ends at the availability word)",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "stride_max.get_with_availability",
	 .fn = stride_max_get,
	 .spec = "18.2 memory layout: query k at k * stride, so one query "
	 "(queryCount 1) at stride UINT64_MAX / 8 * 8 lands at the first byte "
	 "requested; VUID-vkGetQueryPoolResults-queryCount-09438 and -stride-08993 "
	 "constrain the stride only when queryCount is greater than 1",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "stride_zero.get_unavailable_with_availability",
	 .fn = stride_zero_unavail_get,
	 .spec = "VUID-vkGetQueryPoolResults-stride-08993 (room for the availability "
	 "word only \"If queryCount is greater than 1\"); 18.2: \"A value of zero "
	 "indicates that the results are not yet available\", written \"directly "
	 "after the results of each query\" (one never-begun query at stride 0)",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "stride_zero.copy_unavailable_with_availability",
	 .fn = stride_zero_unavail_copy,
	 .spec = "VUID-vkCmdCopyQueryPoolResults-stride-08993 (room for the "
	 "availability word only \"If queryCount is greater than 1\"); 18.2: \"A "
	 "value of zero indicates that the results are not yet available\", "
	 "written \"directly after the results of each query\" (one never-begun "
	 "query at stride 0, into a dstBuffer that ends at the availability word)",
	 .params = VKQS_PARAMS(width_params, width_name)},
	{.name = "offset.get",
	 .fn = offset_get,
	 .spec = SPEC_LAYOUT " (vkGetQueryPoolResults with pData at offset 0, 4 "
	 "or 8 of the host array: VUID-vkGetQueryPoolResults-flags-02828 \"pData "
	 "must be aligned to a multiple of 4\" for 32-bit words, 1.4.336+)",
	 .params = VKQS_PARAMS(offset_get_params, offset_name)},
	{.name = "offset.copy",
	 .fn = offset_copy,
	 .spec = SPEC_LAYOUT " (vkCmdCopyQueryPoolResults at dstOffset 0, 4 or 8, "
	 "or into a dstBuffer that ends at the last word: "
	 "VUID-vkCmdCopyQueryPoolResults-dstBuffer-00824 \"dstBuffer must have "
	 "enough storage, from dstOffset, to contain the result of each query\"; "
	 "nothing past dstBuffer's end is written)",
	 .params = VKQS_PARAMS(offset_copy_params, offset_name)},
	{.name = "large.get",
	 .fn = large_get,
	 .spec = SPEC_LAYOUT " (vkGetQueryPoolResults of the last queries of pools of "
	 "65536 and 1048576 queries, across index 65536, and of a whole 65536-query "
	 "pool with a few available: \"A value of zero indicates that the results "
	 "are not yet available\", VK_NOT_READY without WAIT)",
	 .params = VKQS_PARAMS(large_params, large_name)},
	{.name = "large.copy",
	 .fn = large_copy,
	 .spec = SPEC_LAYOUT " (vkCmdCopyQueryPoolResults of the last queries of "
	 "pools of 65536 and 1048576 queries, across index 65536, and of a whole "
	 "65536-query pool with a few available, into a dstBuffer that ends at the "
	 "last word: nothing past its end is written)",
	 .params = VKQS_PARAMS(large_params, large_name)},
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
	{.name = "not_ready.get_hole",
	 .fn = hole_get,
	 .spec = "18.2: without WAIT vkGetQueryPoolResults \"may return "
	 "VK_NOT_READY if there are queries in the unavailable state\"; \"Results "
	 "for any available query written by this command are final\"; with "
	 "PARTIAL \"for any query that is unavailable, an intermediate result "
	 "between zero and the final result value is written\" (one never-begun "
	 "query first, in the middle or last of five, padded stride)",
	 .params = VKQS_PARAMS(hole_get_params, hole_name)},
	{.name = "not_ready.copy_hole",
	 .fn = hole_copy,
	 .spec = "18.2: vkCmdCopyQueryPoolResults: \"Results for any available "
	 "query written by this command are final\"; WITH_AVAILABILITY writes a "
	 "zero availability value for the unavailable query; with PARTIAL \"an "
	 "intermediate result between zero and the final result value is "
	 "written\" (one never-begun query first, in the middle or last of five, "
	 "padded stride: the padding stays untouched)",
	 .params = VKQS_PARAMS(hole_copy_params, hole_name)},
};

VKQS_AREA(results, cases);
