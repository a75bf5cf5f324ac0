/* Queries in multiview render pass instances (spec 18.2, 18.5): a query or
 * timestamp written in a subpass (or dynamic rendering) whose view mask has
 * N bits set uses N consecutive query indices; occlusion results may be
 * spread over them in any way but must sum to the total over all views,
 * timestamps are either one value and N - 1 zeros or N values; the query
 * indices around the N stay unavailable.
 *
 * The render pass instance comes in the three ways the API offers a view
 * mask: vkCreateRenderPass with VkRenderPassMultiviewCreateInfo,
 * vkCreateRenderPass2 with VkSubpassDescription2::viewMask, and
 * vkCmdBeginRendering with VkRenderingInfo::viewMask (the pipeline's
 * VkPipelineRenderingCreateInfo::viewMask equal to it).  Attachments are 2D
 * array images with one layer per view index up to the highest set bit.
 *
 * Known per-view counts: multiview_rect.vert draws, in view v, the rectangle
 * [RX, RX + RW + v * RDX) x [RY, RY + RH) in framebuffer pixels, so the views
 * have distinct exact sample counts.  Why a rectangle with integer edges
 * counts exactly w * h * samples (standard sample locations strictly inside
 * pixels, exact dyadic arithmetic, the shared diagonal covered once): see
 * suite/occlusion/occlusion.c.  gl_ViewIndex is the view's index - the
 * position of its bit in the view mask - so mask 0b101 draws the rectangles
 * of views 0 and 2.
 *
 * Readback (struct readback): get reads the runs WITH_AVAILABILITY after
 * the fence, then, once they are all available, again with WAIT, and the
 * two must agree; copy copies them with WAIT | WITH_AVAILABILITY in the
 * command buffer that wrote them, into a buffer holding query q at byte
 * q * 16, and compares with vkGetQueryPoolResults.  The query indices
 * around each run of N ("gaps": reset, never used) must read unavailable
 * through the same path, and a copy must not touch their bytes. */
#include <stdio.h>
#include <string.h>

#include "tscheck.h"
#include "passtarget.h"
#include "vkutil.h"

#include "shaders/multiview_color_frag.h"
#include "shaders/multiview_rect_vert.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

/* Every attachment is FB x FB pixels. */
#define FB 32u
/* The rectangle of view v: [RX, RX + RW + v * RDX) x [RY, RY + RH); view 3
 * reaches x = 20 < FB.  Areas 60, 100, 140, 180. */
#define RX 2u
#define RY 3u
#define RW 6u
#define RH 10u
#define RDX 4u
#define MAX_SLOTS 16u
#define MAX_RANGES 4u
#define MAX_GAPS 4u
/* Pre-fill of the copy destination: not a plausible count, availability
 * word or zero. */
#define GUARD 0xA5u

static uint32_t popcount(uint32_t m)
{
	return (uint32_t)__builtin_popcount(m);
}

/* Layers a view mask needs: the highest set bit's index + 1. */
static uint32_t mask_layers(uint32_t m)
{
	return m ? 32u - (uint32_t)__builtin_clz(m) : 1u;
}

static uint64_t view_area(uint32_t view)
{
	return (uint64_t)(RW + view * RDX) * RH;
}

/* The exact count of one draw over all views of the mask, per sample. */
static uint64_t mask_area(uint32_t mask)
{
	uint64_t a = 0;
	for (uint32_t v = 0; v < 32; v++)
		if (mask & (1u << v))
			a += view_area(v);
	return a;
}

/* Render pass kinds and multiview targets: framework/passtarget.h. */

/* Pipelines --------------------------------------------------------------*/

/* The multiview rectangle pipeline for subpass `subpass` of t (for dynamic
 * rendering: VkPipelineRenderingCreateInfo with the instance's view mask,
 * VUID-vkCmdDraw-viewMask-06178); viewport and scissor dynamic; depth test
 * `compare` without writes when depth_test. */
static struct vkqs_pipeline *mv_pipeline(struct vkqs_ctx *ctx, const struct vkqs_pass_target *t,
					 uint32_t subpass, bool depth_test,
					 VkCompareOp compare)
{
	struct vkqs_pipeline_target where = {
		.render_pass = t->render_pass, /* VK_NULL_HANDLE for VKQS_PASS_DYN */
		.subpass = t->kind == VKQS_PASS_DYN ? 0 : subpass,
		.samples = t->samples,
		.has_depth = t->has_depth,
		.view_mask = t->view_masks[0],
		.color_format = t->color_format,
		.depth_format = t->depth_format,
	};
	struct vkqs_pipeline_desc desc = {
		.vert_spv = multiview_rect_vert,
		.vert_size = sizeof(multiview_rect_vert),
		.frag_spv = multiview_color_frag,
		.frag_size = sizeof(multiview_color_frag),
		.depth_test = depth_test,
		.depth_compare = compare,
	};
	return vkqs_pipeline_create(ctx, &where, &desc);
}

/* One draw of the per-view rectangles at depth z: multiview_rect.vert
 * takes rect.vert's push block, x1 growing by .extra per view index. */
static void mv_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		    float z)
{
	struct vkqs_rect_push pc = {
		{(float)RX, (float)RY, (float)(RX + RW), (float)(RY + RH)},
		{(float)FB, (float)FB},
		z,
		(float)RDX,
	};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
}

/* Readback ---------------------------------------------------------------*/

enum rb_path { RB_GET, RB_COPY };
static const char *const path_tokens[] = {"get", "copy"};

/* One 64-bit result and its availability word: the layout of 64_BIT |
 * WITH_AVAILABILITY at stride 16. */
struct qslot {
	uint64_t value;
	uint64_t avail;
};

struct qrange {
	uint32_t first, count;
};

/* What a case reads: runs of queries that must be available, and gap
 * queries (reset, never begun or written) that must stay unavailable.  The
 * copy destination holds query q at byte q * 16 and a guard slot after the
 * pool's last query. */
struct readback {
	enum rb_path path;
	/* Copy the runs in a later submission, without WAIT (see
	 * timestamp_write). */
	bool late_copy;
	uint32_t slots; /* queries in the pool */
	uint32_t nranges, ngaps;
	struct qrange ranges[MAX_RANGES];
	uint32_t gaps[MAX_GAPS];
	struct vkqs_buffer *buf;
	struct qslot q[MAX_SLOTS]; /* the results of the available runs */
	/* Two reads of one query must give the same value only where the
	 * spec fixes it (precise counts, timestamps); a non-precise
	 * occlusion result is "any non-zero value" each time it is read, so
	 * there only zero against non-zero is a Fail (docs/verdicts.md,
	 * "Two reads of one query"). */
	bool any_nonzero;
};

static struct readback *rb_create(struct vkqs_ctx *ctx, enum rb_path path, uint32_t slots)
{
	if (slots > MAX_SLOTS)
		vkqs_internal_error(ctx, "%u queries > MAX_SLOTS", slots);
	struct readback *rb = vkqs_alloc(ctx, sizeof(*rb));
	memset(rb, 0, sizeof(*rb));
	rb->path = path;
	rb->slots = slots;
	if (path == RB_COPY) {
		rb->buf = vkqs_buffer_host(ctx, (slots + 1) * sizeof(struct qslot), 0);
		memset(rb->buf->map, GUARD, rb->buf->size);
		vkqs_buffer_flush(ctx, rb->buf);
	}
	return rb;
}

static void rb_range(struct readback *rb, uint32_t first, uint32_t count)
{
	rb->ranges[rb->nranges++] = (struct qrange){first, count};
}

static void rb_gap(struct readback *rb, uint32_t query)
{
	rb->gaps[rb->ngaps++] = query;
}

static const VkQueryResultFlags RB_FLAGS =
	VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT;

/* Records the copies of the available runs (copy path) after the work:
 * WAIT, so each copy waits for its queries to become available (18.2),
 * then makes the transfer writes visible to the host. */
static void rb_record(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
		      const struct readback *rb)
{
	if (rb->path != RB_COPY || rb->late_copy)
		return;
	for (uint32_t i = 0; i < rb->nranges; i++) {
		const struct qrange *r = &rb->ranges[i];
		D->vkCmdCopyQueryPoolResults(cb, pool, r->first, r->count, rb->buf->buf,
					     r->first * sizeof(struct qslot),
					     sizeof(struct qslot),
					     RB_FLAGS | VK_QUERY_RESULT_WAIT_BIT);
	}
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
}

/* The copies of rb_record in a submission of their own, once the one that
 * wrote the queries has completed: every query of a run is available then
 * (the fence signaled after all of them ended), so no WAIT. */
static void rb_copy_late(struct vkqs_ctx *ctx, VkQueryPool pool, const struct readback *rb)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	for (uint32_t i = 0; i < rb->nranges; i++) {
		const struct qrange *r = &rb->ranges[i];
		D->vkCmdCopyQueryPoolResults(cb, pool, r->first, r->count, rb->buf->buf,
					     r->first * sizeof(struct qslot),
					     sizeof(struct qslot), RB_FLAGS);
	}
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

/* The 16 bytes of slot q in the copy destination are still the guard. */
static void expect_untouched(struct vkqs_ctx *ctx, const struct readback *rb, uint32_t q,
			     const char *what, const char *by)
{
	const uint8_t *b = rb->buf->map + (size_t)q * sizeof(struct qslot);
	uint32_t bad = sizeof(struct qslot);
	for (uint32_t i = 0; i < sizeof(struct qslot); i++)
		if (b[i] != GUARD) {
			bad = i;
			break;
		}
	VKQS_EXPECTF(ctx, bad == sizeof(struct qslot),
		"expected the bytes of %s %u (destination offset %zu) to keep the guard "
		"0x%02x after %s, byte %u is 0x%02x",
		what, q, (size_t)q * sizeof(struct qslot), GUARD, by, bad,
		bad < sizeof(struct qslot) ? b[bad] : 0);
}

/* A gap query read WITH_AVAILABILITY and without WAIT: availability 0. */
static void expect_gap_avail(struct vkqs_ctx *ctx, const char *path, uint32_t q,
			     uint64_t avail)
{
	VKQS_EXPECTF(ctx, avail == 0,
		"expected query %u (reset, never used: outside every run of N "
		"consecutive multiview queries) to be unavailable through %s, "
		"availability word 0x%016" PRIx64,
		q, path, avail);
}

/* The result of vkGetQueryPoolResults without WAIT for gap query q.  18.2:
 * it "may return VK_NOT_READY if there are queries in the unavailable
 * state"; VK_SUCCESS is legal but not what the CTS and earlier text require
 * (as suite/results). */
static void expect_gap_result(struct vkqs_ctx *ctx, uint32_t q, VkResult res)
{
	if (res == VK_SUCCESS)
		vkqs_compat_warning(ctx, "vkGetQueryPoolResults returned VK_SUCCESS for unavailable "
					 "query %u without WAIT (VK_NOT_READY expected)",
				    q);
	else
		vkqs_check_vk(ctx, false, __FILE__, __LINE__,
			      "vkGetQueryPoolResults of a gap query without WAIT", res, VK_NOT_READY);
}

/* vkGetQueryPoolResults of a run WITH_AVAILABILITY, without WAIT, after
 * the fence: every query ended in the completed submission is available,
 * so the read succeeds. */
static bool get_avail(struct vkqs_ctx *ctx, VkQueryPool pool, const struct qrange *r,
		      struct qslot *s)
{
	memset(s, GUARD, r->count * sizeof(*s));
	VkResult res = D->vkGetQueryPoolResults(DEV, pool, r->first, r->count,
						r->count * sizeof(*s), s, sizeof(*s), RB_FLAGS);
	char what[112];
	snprintf(what, sizeof(what),
		 "vkGetQueryPoolResults(WITH_AVAILABILITY) of queries %u..%u after the fence",
		 r->first, r->first + r->count - 1);
	return vkqs_check_vk(ctx, false, __FILE__, __LINE__, what, res, VK_SUCCESS);
}

static bool run_available(const struct qslot *s, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		if (!s[k].avail)
			return false;
	return true;
}

/* Two reads of one available query (18.2: results of an available query
 * are final).  Fixed values must be equal; a non-precise occlusion value
 * only keeps whether it is zero, and two different non-zero values are a
 * CompatibilityWarning (legal, not portable). */
static void expect_same_read(struct vkqs_ctx *ctx, const struct readback *rb, uint32_t q,
			     const char *what_a, uint64_t a, const char *what_b, uint64_t b)
{
	if (!rb->any_nonzero) {
		VKQS_EXPECTF(ctx, a == b,
			     "expected query %u %s (0x%016" PRIx64 ") to equal %s (0x%016" PRIx64 ")",
			     q, what_a, a, what_b, b);
		return;
	}
	VKQS_EXPECTF(ctx, (a != 0) == (b != 0),
		     "non-precise query %u %s (0x%016" PRIx64 ") and %s (0x%016" PRIx64 "): one "
		     "zero, one not, though both read one final result (18.3: zero exactly when "
		     "no sample passed)",
		     q, what_a, a, what_b, b);
	if (a != b && a && b)
		vkqs_compat_warning(ctx,
				    "non-precise query %u %s (0x%016" PRIx64 ") differs from %s "
				    "(0x%016" PRIx64 "): legal (18.3: any non-zero value), but an "
				    "application comparing two reads sees them change",
				    q, what_a, a, what_b, b);
}

static void rb_finish_copy(struct vkqs_ctx *ctx, VkQueryPool pool, struct readback *rb)
{
	const size_t qs = sizeof(struct qslot);
	if (rb->late_copy)
		rb_copy_late(ctx, pool, rb);
	vkqs_buffer_invalidate(ctx, rb->buf);
	for (uint32_t g = 0; g < rb->ngaps; g++)
		expect_untouched(ctx, rb, rb->gaps[g], "gap query",
				 "copying only the runs around it");
	expect_untouched(ctx, rb, rb->slots, "the guard slot after query", "the copies");
	for (uint32_t i = 0; i < rb->nranges; i++) {
		const struct qrange *r = &rb->ranges[i];
		memcpy(&rb->q[r->first], rb->buf->map + r->first * qs, r->count * qs);
		/* 18.2: "Results for any available query written by this
		 * command are final and represent the final result of the
		 * query": the same values vkGetQueryPoolResults returns. */
		struct qslot s[MAX_SLOTS];
		if (!get_avail(ctx, pool, r, s))
			continue;
		for (uint32_t k = 0; k < r->count; k++) {
			uint32_t q = r->first + k;
			if (!rb->q[q].avail || !s[k].avail)
				continue; /* rb_finish reports it */
			expect_same_read(ctx, rb, q, "copied with vkCmdCopyQueryPoolResults",
					 rb->q[q].value, "vkGetQueryPoolResults", s[k].value);
		}
	}
	if (!rb->ngaps)
		return;
	/* The gaps are copied in a later submission, after the first one has
	 * completed: nothing of it can still make them available.  Without
	 * WAIT (they never become available) and WITH_AVAILABILITY, which
	 * makes the copy of an unavailable query valid
	 * (VUID-vkCmdCopyQueryPoolResults-None-08752 names the other flags). */
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	for (uint32_t g = 0; g < rb->ngaps; g++)
		D->vkCmdCopyQueryPoolResults(cb, pool, rb->gaps[g], 1, rb->buf->buf,
					     rb->gaps[g] * qs, qs, RB_FLAGS);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, rb->buf);
	for (uint32_t g = 0; g < rb->ngaps; g++) {
		struct qslot s;
		memcpy(&s, rb->buf->map + rb->gaps[g] * qs, qs);
		/* the value of an unavailable query is undefined (18.2) */
		expect_gap_avail(ctx, "vkCmdCopyQueryPoolResults", rb->gaps[g], s.avail);
	}
	expect_untouched(ctx, rb, rb->slots, "the guard slot after query", "the gap copies");
}

static void rb_finish_get(struct vkqs_ctx *ctx, VkQueryPool pool, struct readback *rb)
{
	for (uint32_t i = 0; i < rb->nranges; i++) {
		const struct qrange *r = &rb->ranges[i];
		struct qslot *s = &rb->q[r->first];
		if (!get_avail(ctx, pool, r, s) || !run_available(s, r->count))
			continue; /* rb_finish reports the unavailable ones */
		/* Only now with WAIT: a query that never becomes available
		 * could make it wait forever.  18.2 "VK_QUERY_RESULT_WAIT_BIT
		 * specifies that Vulkan will wait for each query's status to
		 * become available before retrieving its results": VK_SUCCESS
		 * and the same final values. */
		uint64_t w[MAX_SLOTS];
		VkResult res = D->vkGetQueryPoolResults(DEV, pool, r->first, r->count,
							r->count * sizeof(w[0]), w, sizeof(w[0]),
							VK_QUERY_RESULT_64_BIT |
								VK_QUERY_RESULT_WAIT_BIT);
		if (!vkqs_check_vk(ctx, false, __FILE__, __LINE__,
				   "vkGetQueryPoolResults(WAIT) of available queries", res,
				   VK_SUCCESS))
			continue;
		for (uint32_t k = 0; k < r->count; k++)
			expect_same_read(ctx, rb, r->first + k, "read WITH_AVAILABILITY", s[k].value,
					 "its WAIT result", w[k]);
	}
	for (uint32_t g = 0; g < rb->ngaps; g++) {
		struct qslot s;
		memset(&s, GUARD, sizeof(s));
		VkResult res = D->vkGetQueryPoolResults(DEV, pool, rb->gaps[g], 1, sizeof(s),
							&s, sizeof(s), RB_FLAGS);
		expect_gap_result(ctx, rb->gaps[g], res);
		/* "If VK_QUERY_RESULT_WITH_AVAILABILITY_BIT is set, the final
		 * integer value written for each query is non-zero if the
		 * query's status was available or zero if the status was
		 * unavailable." */
		expect_gap_avail(ctx, "vkGetQueryPoolResults", rb->gaps[g], s.avail);
	}
}

/* After the submission completed: fills rb->q for the runs and checks the
 * read paths agree, every query of a run is available, every gap is not. */
static void rb_finish(struct vkqs_ctx *ctx, VkQueryPool pool, struct readback *rb)
{
	if (rb->path == RB_COPY)
		rb_finish_copy(ctx, pool, rb);
	else
		rb_finish_get(ctx, pool, rb);
	for (uint32_t i = 0; i < rb->nranges; i++)
		for (uint32_t k = 0; k < rb->ranges[i].count; k++) {
			uint32_t q = rb->ranges[i].first + k;
			VKQS_EXPECTF(ctx, rb->q[q].avail != 0,
				"expected query %u to be available (availability word non-zero) "
				"through %s after the submission completed, got 0x%016" PRIx64,
				q, path_tokens[rb->path], rb->q[q].avail);
		}
}

/* "v0, v1, ..." of a run, for messages. */
static const char *run_values(const struct readback *rb, uint32_t first, uint32_t n,
			      char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64, k ? ", " : "",
					rb->q[first + k].value);
	return buf;
}

/* 18.2: "the sum of the results in all the queries must accurately reflect
 * the total result of the query summed over all views"; how the total is
 * distributed is implementation-dependent, so no single value is known,
 * but none can exceed the total (the others are unsigned). */
static void expect_run_sum(struct vkqs_ctx *ctx, const struct readback *rb, uint32_t first,
			   uint32_t mask, uint64_t total, const char *what)
{
	uint32_t n = popcount(mask);
	uint64_t sum = 0;
	char vals[256];
	if (!run_available(&rb->q[first], n))
		return; /* the values are undefined; rb_finish reported it */
	for (uint32_t k = 0; k < n; k++) {
		uint64_t v = rb->q[first + k].value;
		sum += v;
		VKQS_EXPECTF(ctx, v <= total,
			"expected query %u, one of the %u queries %u..%u of %s (view mask 0x%x), "
			"to be <= the total %" PRIu64 ", got %" PRIu64,
			first + k, n, first, first + n - 1, what, mask, total, v);
	}
	VKQS_EXPECTF(ctx, sum == total,
		"expected the %u queries %u..%u of %s (view mask 0x%x) to sum to %" PRIu64
		" (the sum over the views of each view's count), got %" PRIu64 " (%s)",
		n, first, first + n - 1, what, mask, total, sum,
		run_values(rb, first, n, vals, sizeof(vals)));
}

/* "w[0], w[stride], ..." of n words, for messages. */
static const char *list_words(const uint64_t *w, uint32_t n, uint32_t stride, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (uint32_t k = 0; k < n && len < size; k++)
		len += (size_t)snprintf(buf + len, size - len, "%s%" PRIu64, k ? ", " : "", w[k * stride]);
	return buf;
}

static void mask_token(uint32_t mask, char *buf, size_t size)
{
	char bits[40];
	uint32_t n = mask_layers(mask), k = 0;
	for (uint32_t b = n; b-- > 0;)
		bits[k++] = (char)('0' + ((mask >> b) & 1));
	bits[k] = 0;
	snprintf(buf, size, "mask_0b%s", bits);
}

/* occlusion.* ------------------------------------------------------------*/

struct occ_param {
	enum vkqs_pass_kind kind;
	uint32_t mask;
	VkSampleCountFlagBits samples;
	enum rb_path path;
};

#define OCC_MASK(kind, mask)                                                  \
	{kind, mask, VK_SAMPLE_COUNT_4_BIT, RB_GET},                          \
	{kind, mask, VK_SAMPLE_COUNT_4_BIT, RB_COPY}
/* Mask 0b1 (one view: N = 1) only through get: its copy adds nothing that
 * the larger masks' copies do not cover.  1 sample on the non-contiguous
 * mask: a pixel counted once per view, not once per sample, shows at 4. */
#define OCC_KIND(kind)                                                        \
	{kind, 0x1, VK_SAMPLE_COUNT_4_BIT, RB_GET}, OCC_MASK(kind, 0x3),     \
	OCC_MASK(kind, 0x5), OCC_MASK(kind, 0xf),                             \
	{kind, 0x5, VK_SAMPLE_COUNT_1_BIT, RB_GET}
static const struct occ_param occ_params[] = {
	OCC_KIND(VKQS_PASS_RP1),
	OCC_KIND(VKQS_PASS_RP2),
	OCC_KIND(VKQS_PASS_DYN),
};

static void occ_name(const void *param, char *buf, size_t size)
{
	const struct occ_param *p = param;
	char m[48];
	mask_token(p->mask, m, sizeof(m));
	snprintf(buf, size, "%s_%s_samples_%u_%s", vkqs_pass_kind_tokens[p->kind], m,
		 (unsigned)p->samples, path_tokens[p->path]);
}

/* The objects of a precise occlusion case over view mask p->mask.  Query 1
 * holds one draw in the subpass: it uses queries 1..N
 * (VUID-vkCmdBeginQuery-query-00808 sizes the pool for that); queries 0
 * and N + 1 are reset and never used.  A driver that writes one query per
 * view index up to the highest bit (3 for 0b101), or a fixed number, makes
 * query N + 1 available. */
struct occ_run {
	uint32_t n;
	struct vkqs_pass_target *t;
	const struct vkqs_pipeline *pl;
	VkQueryPool pool;
	struct readback *rb;
};

static struct occ_run occ_prepare(struct vkqs_ctx *ctx, const struct occ_param *p)
{
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	vkqs_require_exact_coverage(ctx);
	struct occ_run r = {.n = popcount(p->mask)};
	r.t = vkqs_pass_target_create(ctx, p->kind, FB, p->samples, false, 1, &p->mask);
	r.pl = mv_pipeline(ctx, r.t, 0, false, VK_COMPARE_OP_ALWAYS);
	r.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, r.n + 2, 0);
	r.rb = rb_create(ctx, p->path, r.n + 2);
	rb_range(r.rb, 1, r.n);
	rb_gap(r.rb, 0);
	rb_gap(r.rb, r.n + 1);
	return r;
}

/* Ends the instance in cb, reads back and checks the N queries' sum. */
static void occ_finish(struct vkqs_ctx *ctx, const struct occ_param *p, const struct occ_run *r,
		       VkCommandBuffer cb, const char *what)
{
	vkqs_pass_end(ctx, cb, r->t);
	rb_record(ctx, cb, r->pool, r->rb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	rb_finish(ctx, r->pool, r->rb);
	expect_run_sum(ctx, r->rb, 1, p->mask, mask_area(p->mask) * p->samples, what);
}

static void occlusion_precise(struct vkqs_ctx *ctx, const void *param)
{
	const struct occ_param *p = param;
	struct occ_run r = occ_prepare(ctx, p);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, r.pool, 0, r.n + 2);
	vkqs_pass_begin(ctx, cb, r.t, 1.0f);
	D->vkCmdBeginQuery(cb, r.pool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
	mv_draw(ctx, cb, r.pl, 0.5f);
	D->vkCmdEndQuery(cb, r.pool, 1);
	occ_finish(ctx, p, &r, cb, "a precise occlusion query");
}

/* occlusion.ended_in_secondary: the same query begun and ended in a
 * secondary command buffer that continues the multiview subpass.  The
 * view mask is the subpass's (or VkCommandBufferInheritanceRenderingInfo's)
 * all the same, so all N queries become available and sum to the total.
 * v3dv made only the first available when the end was recorded in a
 * secondary (mesa e1b52e30522). */
static const struct occ_param secondary_params[] = {
	{VKQS_PASS_RP1, 0x3, VK_SAMPLE_COUNT_4_BIT, RB_GET},
	{VKQS_PASS_RP1, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_COPY},
	{VKQS_PASS_RP2, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_GET},
	{VKQS_PASS_DYN, 0x3, VK_SAMPLE_COUNT_4_BIT, RB_GET},
	{VKQS_PASS_DYN, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_COPY},
};

static void occlusion_secondary(struct vkqs_ctx *ctx, const void *param)
{
	const struct occ_param *p = param;
	struct occ_run r = occ_prepare(ctx, p);
	VkCommandBuffer sec = vkqs_pass_secondary(ctx, r.t);
	D->vkCmdBeginQuery(sec, r.pool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
	mv_draw(ctx, sec, r.pl, 0.5f);
	D->vkCmdEndQuery(sec, r.pool, 1);
	vkqs_cmd_end(ctx, sec);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, r.pool, 0, r.n + 2);
	vkqs_pass_begin_secondaries(ctx, cb, r.t, 1.0f);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	occ_finish(ctx, p, &r, cb, "a precise occlusion query begun and ended in a secondary");
}

static const struct occ_param nonprecise_params[] = {
	{VKQS_PASS_RP1, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_GET},
	{VKQS_PASS_RP2, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_GET},
	{VKQS_PASS_DYN, 0x5, VK_SAMPLE_COUNT_4_BIT, RB_GET},
};

static void nonprecise_name(const void *param, char *buf, size_t size)
{
	const struct occ_param *p = param;
	char m[48];
	mask_token(p->mask, m, sizeof(m));
	snprintf(buf, size, "%s_%s", vkqs_pass_kind_tokens[p->kind], m);
}

/* Two non-precise queries in one multiview subpass, depth cleared to 0.5
 * and tested LESS without writes: the draw at z 0.25 passes in every view,
 * the one at z 0.75 fails everywhere.  18.3: without PRECISE "an
 * implementation may generate any non-zero result value for the query if
 * the count of passing samples is non-zero", so the first run sums to a
 * non-zero value; no sample of the second passes, so its sum - and with
 * it every value of the run - is 0.  The rectangles are at least 6 pixels
 * wide and 10 high, so pixels strictly inside them pass wherever the device
 * puts its samples. */
static void occlusion_nonprecise(struct vkqs_ctx *ctx, const void *param)
{
	const struct occ_param *p = param;
	uint32_t n = popcount(p->mask);
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, FB, p->samples, true, 1, &p->mask);
	const struct vkqs_pipeline *less = mv_pipeline(ctx, t, 0, true, VK_COMPARE_OP_LESS);
	const uint32_t visible = 1, occluded = n + 2, slots = 2 * n + 3;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, slots, 0);
	struct readback *rb = rb_create(ctx, p->path, slots);
	rb->any_nonzero = true;
	rb_range(rb, visible, n);
	rb_range(rb, occluded, n);
	rb_gap(rb, 0);
	rb_gap(rb, n + 1);
	rb_gap(rb, 2 * n + 2);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, slots);
	vkqs_pass_begin(ctx, cb, t, 0.5f);
	D->vkCmdBeginQuery(cb, pool, visible, 0);
	mv_draw(ctx, cb, less, 0.25f);
	D->vkCmdEndQuery(cb, pool, visible);
	D->vkCmdBeginQuery(cb, pool, occluded, 0);
	mv_draw(ctx, cb, less, 0.75f);
	D->vkCmdEndQuery(cb, pool, occluded);
	vkqs_pass_end(ctx, cb, t);
	rb_record(ctx, cb, pool, rb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	rb_finish(ctx, pool, rb);

	char vals[256];
	uint64_t sum = 0;
	for (uint32_t k = 0; k < n; k++)
		sum += rb->q[visible + k].value;
	VKQS_EXPECTF(ctx, !run_available(&rb->q[visible], n) || sum != 0,
		"expected the %u non-precise queries %u..%u (view mask 0x%x) of a draw "
		"whose samples pass in every view to sum to a non-zero value, got 0 (%s)",
		n, visible, visible + n - 1, p->mask,
		run_values(rb, visible, n, vals, sizeof(vals)));
	expect_run_sum(ctx, rb, occluded, p->mask, 0,
		       "a non-precise occlusion query of a fully occluded draw");
}

struct subpass_param {
	enum vkqs_pass_kind kind;
};

static const struct subpass_param subpass_params[] = {{VKQS_PASS_RP1}, {VKQS_PASS_RP2}};

static void subpass_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", vkqs_pass_kind_tokens[((const struct subpass_param *)param)->kind]);
}

/* Two subpasses of different view masks, 0b0111 (N = 3) then 0b1010
 * (N = 2), one precise query each.  18.2: N is "the number of bits set in
 * the view mask in the subpass the query is used in" - not the render
 * pass's union of masks (4 views) nor the first subpass's - and each query
 * sums its own subpass's views (1, 2 in both masks count in both). */
static void occlusion_per_subpass(struct vkqs_ctx *ctx, const void *param)
{
	const struct subpass_param *p = param;
	static const uint32_t masks[2] = {0x7, 0xa};
	const VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT;
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	vkqs_require_exact_coverage(ctx);
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, FB, samples, false, 2, masks);
	const struct vkqs_pipeline *pl0 = mv_pipeline(ctx, t, 0, false, VK_COMPARE_OP_ALWAYS);
	const struct vkqs_pipeline *pl1 = mv_pipeline(ctx, t, 1, false, VK_COMPARE_OP_ALWAYS);
	const uint32_t n0 = popcount(masks[0]), n1 = popcount(masks[1]);
	const uint32_t q0 = 1, q1 = n0 + 2, slots = n0 + n1 + 3;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, slots, 0);
	struct readback *rb = rb_create(ctx, RB_GET, slots);
	rb_range(rb, q0, n0);
	rb_range(rb, q1, n1);
	rb_gap(rb, 0);
	rb_gap(rb, n0 + 1);
	rb_gap(rb, slots - 1);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, slots);
	vkqs_pass_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, q0, VK_QUERY_CONTROL_PRECISE_BIT);
	mv_draw(ctx, cb, pl0, 0.5f);
	D->vkCmdEndQuery(cb, pool, q0);
	vkqs_pass_next_subpass(ctx, cb, t);
	D->vkCmdBeginQuery(cb, pool, q1, VK_QUERY_CONTROL_PRECISE_BIT);
	mv_draw(ctx, cb, pl1, 0.5f);
	D->vkCmdEndQuery(cb, pool, q1);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	rb_finish(ctx, pool, rb);
	expect_run_sum(ctx, rb, q0, masks[0], mask_area(masks[0]) * samples,
		       "the precise query of subpass 0");
	expect_run_sum(ctx, rb, q1, masks[1], mask_area(masks[1]) * samples,
		       "the precise query of subpass 1");
}

/* Two subpasses, view 0 then view 1, a depth attachment cleared to 1.0
 * (loadOp CLEAR); a precise query around subpass 1's draw at depth 0.5
 * with the test LESS.  Render pass, multiview: "The load and store
 * operations apply to attachments on a per-view basis. For example, an
 * attachment using VK_ATTACHMENT_LOAD_OP_CLEAR will have each view cleared
 * on first use": view 1 is first used in subpass 1 and must be cleared
 * then (or before), so every sample of its rectangle passes.  An
 * implementation that clears only the views of the first subpass using the
 * attachment leaves view 1's layer as it was (undefined; zero on the
 * reference device, where no sample passes). */
static void occlusion_clear_per_view(struct vkqs_ctx *ctx, const void *param)
{
	const struct subpass_param *p = param;
	static const uint32_t masks[2] = {0x1, 0x2};
	const VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
	vkqs_require_feature(ctx, "occlusionQueryPrecise");
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, FB, samples, true, 2, masks);
	const struct vkqs_pipeline *pl1 = mv_pipeline(ctx, t, 1, true, VK_COMPARE_OP_LESS);
	const uint32_t q = 1, slots = 3;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, slots, 0);
	struct readback *rb = rb_create(ctx, RB_GET, slots);
	rb_range(rb, q, 1);
	rb_gap(rb, 0);
	rb_gap(rb, 2);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, slots);
	vkqs_pass_begin(ctx, cb, t, 1.0f);
	vkqs_pass_next_subpass(ctx, cb, t);
	D->vkCmdBeginQuery(cb, pool, q, VK_QUERY_CONTROL_PRECISE_BIT);
	mv_draw(ctx, cb, pl1, 0.5f);
	D->vkCmdEndQuery(cb, pool, q);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	rb_finish(ctx, pool, rb);
	expect_run_sum(ctx, rb, q, masks[1], mask_area(masks[1]) * samples,
		       "the precise query of subpass 1, whose view's depth was cleared to 1.0 on first use");
}

/* timestamp.* ------------------------------------------------------------*/

/* The shared timestamp checks (framework/tscheck.h) with the query index
 * in the name: a valid timestamp is non-zero with no bit above
 * timestampValidBits; a write that happens-after another "must not have a
 * lower value unless its value overflows" (18.5), a lower value being a
 * wrap only if the forward distance fits in the host interval around the
 * submission. */
static const char *ts_what(char *buf, size_t size, const char *what, uint32_t q)
{
	snprintf(buf, size, "%s, query %u", what, q);
	return buf;
}

static void expect_ts_valid(struct vkqs_ctx *ctx, const char *what, uint32_t q, uint64_t v,
			    uint32_t bits)
{
	char w[128];
	VKQS_TS_EXPECT_VALID(ctx, ts_what(w, sizeof(w), what, q), v, bits);
}

static void expect_not_before(struct vkqs_ctx *ctx, const char *what_a, uint32_t qa,
			      uint64_t a, const char *what_b, uint32_t qb, uint64_t b,
			      uint32_t bits, uint64_t host_ns)
{
	char wa[128], wb[128];
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, ts_what(wa, sizeof(wa), what_a, qa), a,
				  ts_what(wb, sizeof(wb), what_b, qb), b, bits, host_ns);
}

struct ts_param {
	enum vkqs_pass_kind kind;
	uint32_t mask;
	enum rb_path path;
	bool write2;
};

#define TS_KIND(kind)                                                         \
	{kind, 0x5, RB_GET, false}, {kind, 0x5, RB_COPY, false},              \
	{kind, 0xf, RB_GET, false}, {kind, 0xf, RB_COPY, false}
static const struct ts_param ts_params[] = {
	TS_KIND(VKQS_PASS_RP1),
	TS_KIND(VKQS_PASS_RP2),
	TS_KIND(VKQS_PASS_DYN),
};
static const struct ts_param ts2_params[] = {
	{VKQS_PASS_RP1, 0xf, RB_COPY, true},
	{VKQS_PASS_RP2, 0xf, RB_COPY, true},
	{VKQS_PASS_DYN, 0xf, RB_COPY, true},
};

static void ts_name(const void *param, char *buf, size_t size)
{
	const struct ts_param *p = param;
	char m[48];
	mask_token(p->mask, m, sizeof(m));
	snprintf(buf, size, "%s_%s_%s", vkqs_pass_kind_tokens[p->kind], m, path_tokens[p->path]);
}

static void write_ts(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct ts_param *p,
		     VkPipelineStageFlagBits stage, VkPipelineStageFlags2 stage2,
		     VkQueryPool pool, uint32_t q)
{
	if (p->write2)
		D->vkCmdWriteTimestamp2(cb, stage2, pool, q);
	else
		D->vkCmdWriteTimestamp(cb, stage, pool, q);
}

/* 18.5: the N values of one write in a multiview subpass are "an
 * implementation-dependent choice of one of the following behaviors": the
 * first query a timestamp and zero in the remaining ones, or all N
 * timestamps.  Every timestamp lies between the write before the instance
 * and the write after it (both ordered by full barriers). */
static void expect_ts_run(struct vkqs_ctx *ctx, const struct readback *rb, uint32_t first,
			  uint32_t n, const char *what, uint32_t before, uint32_t after,
			  uint32_t bits, uint64_t host_ns)
{
	uint32_t zeros = 0;
	if (!run_available(&rb->q[first], n))
		return; /* the values are undefined; rb_finish reported it */
	for (uint32_t k = 1; k < n; k++)
		zeros += rb->q[first + k].value == 0;
	bool all_ts = zeros == 0;
	char vals[256];
	VKQS_EXPECTF(ctx, zeros == n - 1 || all_ts,
		"expected the %u queries %u..%u of %s to be a timestamp and %u zeros, or %u "
		"timestamps (18.5), got %s",
		n, first, first + n - 1, what, n - 1, n,
		run_values(rb, first, n, vals, sizeof(vals)));
	for (uint32_t k = 0; k < n; k++) {
		uint32_t q = first + k;
		uint64_t v = rb->q[q].value;
		if (k > 0 && !all_ts)
			continue;
		expect_ts_valid(ctx, what, q, v, bits);
		expect_not_before(ctx, "the write before the render pass instance", before,
				  rb->q[before].value, what, q, v, bits, host_ns);
		expect_not_before(ctx, what, q, v, "the write after the render pass instance",
				  after, rb->q[after].value, bits, host_ns);
	}
}

/* Query 0 is written before the instance, then a full barrier; inside the
 * multiview subpass one write before the draw uses queries A..A+N-1, one
 * after it B..B+N-1; after the instance a full barrier and the last write.
 * The barriers' scopes hold every command before / after them, those
 * inside the instance included, so both inner writes happen-after query 0
 * and happen-before the last one.  With vkCmdWriteTimestamp the write
 * after the draw is at BOTTOM_OF_PIPE, which in a first synchronization
 * scope means every stage, so the write before the draw happens-before it,
 * and since 1.4.312 (queries.adoc) "each of the N consecutive queries
 * written for a timestamp must not have a lower value than the queries
 * with corresponding indices written by the timestamp that happens-before"
 * (checked index by index).  The write2 variants' stages (vertex shader,
 * colour attachment output) leave the two inner writes unordered.  The
 * query after each run of N is a gap. */
static void timestamp_write(struct vkqs_ctx *ctx, const void *param)
{
	const struct ts_param *p = param;
	struct vkqs_queue *q = vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	/* VUID-vkCmdWriteTimestamp-timestampValidBits-00829 */
	if (bits == 0)
		vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0");
	if (p->write2 && !(ctx->vk->has_13 && ctx->vk->f13.synchronization2))
		vkqs_skip(ctx, "feature synchronization2 (Vulkan 1.3) is not supported");
	uint32_t n = popcount(p->mask);
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, p->kind, FB, VK_SAMPLE_COUNT_1_BIT, false, 1,
					       &p->mask);
	const struct vkqs_pipeline *pl = mv_pipeline(ctx, t, 0, false, VK_COMPARE_OP_ALWAYS);
	const uint32_t before = 0, a = 1, b = n + 2, after = 2 * n + 3, slots = 2 * n + 4;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, slots, 0);
	struct readback *rb = rb_create(ctx, p->path, slots);
	/* The Khronos validation layer (1.3.239) marks only the first of the
	 * N queries of a multiview timestamp write as written, and reports a
	 * WAIT copy of the others in the same command buffer as "waiting on a
	 * query that has been reset and not issued yet" (Vulkan-
	 * ValidationLayers issue 6107): the copies run in a later submission,
	 * where no WAIT is needed.  The values are checked as strictly as
	 * those of vkGetQueryPoolResults. */
	rb->late_copy = true;
	rb_range(rb, before, 1);
	rb_range(rb, a, n);
	rb_range(rb, b, n);
	rb_range(rb, after, 1);
	rb_gap(rb, n + 1);
	rb_gap(rb, 2 * n + 2);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, slots);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, before);
	vkqs_cmd_full_barrier(ctx, cb);
	vkqs_pass_begin(ctx, cb, t, 1.0f);
	write_ts(ctx, cb, p, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
		 VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, pool, a);
	mv_draw(ctx, cb, pl, 0.5f);
	write_ts(ctx, cb, p, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, pool, b);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, after);
	rb_record(ctx, cb, pool, rb);
	vkqs_cmd_end(ctx, cb);
	uint64_t host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	rb_finish(ctx, pool, rb);
	if (!rb->q[before].avail || !rb->q[after].avail)
		return; /* no bounds; rb_finish reported it */

	expect_ts_valid(ctx, "the write before the render pass instance", before,
			rb->q[before].value, bits);
	expect_ts_valid(ctx, "the write after the render pass instance", after,
			rb->q[after].value, bits);
	expect_not_before(ctx, "the write before the render pass instance", before,
			  rb->q[before].value, "the write after the render pass instance",
			  after, rb->q[after].value, bits, host_ns);
	expect_ts_run(ctx, rb, a, n, "the write before the draw", before, after, bits,
		      host_ns);
	expect_ts_run(ctx, rb, b, n, "the write after the draw", before, after, bits,
		      host_ns);
	if (!p->write2 && run_available(&rb->q[a], n) && run_available(&rb->q[b], n))
		for (uint32_t k = 0; k < n; k++)
			expect_not_before(ctx, "the write before the draw", a + k,
					  rb->q[a + k].value, "the write after the draw", b + k,
					  rb->q[b + k].value, bits, host_ns);
}

/* stats.* ----------------------------------------------------------------*/

/* The counters a pipeline of vertex and fragment shaders drives, in bit
 * order (18.2: "the statistics values are written in bit order starting
 * from the least significant bit"). */
enum { MS_IA_V, MS_IA_P, MS_VS, MS_CLIP_INV, MS_CLIP_PRIM, MS_FS, MS_COUNT };
static const char *const ms_names[MS_COUNT] = {
	"input_assembly_vertices", "input_assembly_primitives", "vertex_shader_invocations",
	"clipping_invocations", "clipping_primitives", "fragment_shader_invocations",
};
#define MS_FLAGS                                                               \
	(VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |             \
	 VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |           \
	 VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |           \
	 VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |                \
	 VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT |                 \
	 VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT)

struct stats_param {
	enum vkqs_pass_kind kind;
	uint32_t mask;
};

static const struct stats_param stats_params[] = {
	{VKQS_PASS_RP1, 0x3}, {VKQS_PASS_RP1, 0x5}, {VKQS_PASS_RP1, 0xf},
	{VKQS_PASS_RP2, 0x3}, {VKQS_PASS_RP2, 0x5}, {VKQS_PASS_RP2, 0xf},
	{VKQS_PASS_DYN, 0x3}, {VKQS_PASS_DYN, 0x5}, {VKQS_PASS_DYN, 0xf},
};

static void stats_name(const void *param, char *buf, size_t size)
{
	const struct stats_param *p = param;
	char m[48];
	mask_token(p->mask, m, sizeof(m));
	snprintf(buf, size, "%s_%s", vkqs_pass_kind_tokens[p->kind], m);
}

/* Fragment shader invocations 18.4 describes for view v's rectangle, with
 * helper invocations: each of its two triangles may run every pixel of the
 * 2 x 2 quads it touches, at most the rectangle grown to even edges (its
 * top edge RY is odd). */
static uint64_t view_frag_quads(uint32_t view)
{
	uint64_t x0 = RX & ~1u, x1 = (RX + RW + view * RDX + 1) & ~1u;
	uint64_t y0 = RY & ~1u, y1 = (RY + RH + 1) & ~1u;
	return 2 * (x1 - x0) * (y1 - y0);
}

/* Query 1 holds one draw of the per-view rectangles (6 vertices, 2
 * triangles in each view) in a subpass of view mask `mask`, at one sample;
 * queries 0 and N + 1 are reset and never used.  How the N queries share
 * the total is implementation-dependent, and so is whether the vertex
 * processing stages run once per view or once for all views, so the sums
 * are checked against bounds that hold either way:
 * - input assembly, vertex shader, clipping invocations: at least one
 *   draw's worth (6 vertices, "at least once for each vertex specified by a
 *   drawing command", 2 primitives reaching clipping); more than one per
 *   view is CompatibilityWarning (18.4's description counts a draw once);
 * - clipping primitives: at least 2 ("one or more" per primitive inside);
 * - fragment shader invocations: at least one per fragment in every view
 *   (each view's rectangle is drawn to its own layer, nothing overwrites
 *   it: "at least one fragment shader must be executed"), so a result that
 *   holds only some views' fragments falls below; more than each
 *   triangle's 2 x 2 quads in every view (helper invocations) is
 *   CompatibilityWarning.
 * The gaps must stay unavailable: a driver that writes a query per view
 * index up to the highest bit (3 for 0b101) makes query N + 1 available. */
static void stats_sum(struct vkqs_ctx *ctx, const void *param)
{
	const struct stats_param *p = param;
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	const uint32_t n = popcount(p->mask), slots = n + 2;
	struct vkqs_pass_target *t =
		vkqs_pass_target_create(ctx, p->kind, FB, VK_SAMPLE_COUNT_1_BIT, false, 1, &p->mask);
	const struct vkqs_pipeline *pl = mv_pipeline(ctx, t, 0, false, VK_COMPARE_OP_ALWAYS);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, slots, MS_FLAGS);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, slots);
	vkqs_pass_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	mv_draw(ctx, cb, pl, 0.5f);
	D->vkCmdEndQuery(cb, pool, 1);
	vkqs_pass_end(ctx, cb, t);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);

	/* After the fence every one of the N is available (the work that
	 * ends the query has completed), so one read WITH_AVAILABILITY gets
	 * the values; a driver that never makes some of them available fails
	 * here instead of hanging in a WAIT read. */
	const uint32_t stride = MS_COUNT + 1;
	uint64_t vals[8 * (MS_COUNT + 1)];
	memset(vals, 0, sizeof(vals));
	VkResult got = D->vkGetQueryPoolResults(DEV, pool, 1, n, sizeof(vals), vals, stride * sizeof(uint64_t),
						 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	char avail[64];
	bool all = true;
	for (uint32_t q = 0; q < n; q++)
		all &= vals[q * stride + MS_COUNT] != 0;
	VKQS_EXPECTF(ctx, got == VK_SUCCESS && all,
		     "expected the %u queries 1..%u (view mask 0x%x) to be available after the fence that "
		     "followed their submission, got %s, availability %s",
		     n, n, p->mask, vkqs_vk_result_name(got),
		     list_words(&vals[MS_COUNT], n, stride, avail, sizeof(avail)));
	const uint32_t gaps[2] = {0, n + 1};
	for (uint32_t g = 0; g < 2; g++) {
		uint64_t w[MS_COUNT + 1];
		memset(w, 0, sizeof(w));
		VkResult r = D->vkGetQueryPoolResults(DEV, pool, gaps[g], 1, sizeof(w), w, sizeof(w),
						      VK_QUERY_RESULT_64_BIT |
							      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		expect_gap_result(ctx, gaps[g], r);
		expect_gap_avail(ctx, path_tokens[RB_GET], gaps[g], w[MS_COUNT]);
	}

	if (!all)
		return; /* the values are undefined */
	uint64_t sum[MS_COUNT] = {0}, lo[MS_COUNT], warn[MS_COUNT];
	for (uint32_t q = 0; q < n; q++)
		for (uint32_t s = 0; s < MS_COUNT; s++)
			sum[s] += vals[q * stride + s];
	uint64_t frag_min = 0, frag_quads = 0;
	for (uint32_t v = 0; v < 32; v++)
		if (p->mask & (1u << v)) {
			frag_min += vkqs_rect_fragments_min(ctx, RW + v * RDX, RH);
			frag_quads += view_frag_quads(v);
		}
	lo[MS_IA_V] = 6, warn[MS_IA_V] = 6ull * n;
	lo[MS_IA_P] = 2, warn[MS_IA_P] = 2ull * n;
	lo[MS_VS] = 6, warn[MS_VS] = 6ull * n;
	lo[MS_CLIP_INV] = 2, warn[MS_CLIP_INV] = 2ull * n;
	lo[MS_CLIP_PRIM] = 2, warn[MS_CLIP_PRIM] = UINT64_MAX;
	lo[MS_FS] = frag_min, warn[MS_FS] = frag_quads;
	for (uint32_t s = 0; s < MS_COUNT; s++) {
		char each[160];
		list_words(&vals[s], n, stride, each, sizeof(each));
		VKQS_EXPECTF(ctx, sum[s] >= lo[s],
			     "expected %s summed over the %u queries 1..%u (view mask 0x%x) to be at "
			     "least %" PRIu64 ", got %" PRIu64 " (%s)",
			     ms_names[s], n, n, p->mask, lo[s], sum[s], each);
		if (sum[s] >= lo[s] && sum[s] > warn[s])
			vkqs_compat_warning(ctx,
					    "%s summed over the %u queries 1..%u (view mask 0x%x) is %" PRIu64
					    " (%s), more than the %" PRIu64 " of one count per view: legal "
					    "(\"Various device architectures will count these values "
					    "differently\"), not portable",
					    ms_names[s], n, n, p->mask, sum[s], each, warn[s]);
	}
}

/* The table --------------------------------------------------------------*/

#define MV_SPEC                                                                \
	"18.2: if queries are used while executing a render pass instance that " \
	"has multiview enabled, the query uses N consecutive query indices in "  \
	"the query pool (starting at query) where N is the number of bits set "  \
	"in the view mask in the subpass the query is used in"
#define SUM_SPEC                                                               \
	"18.2: how the numerical results of the query are distributed among "   \
	"the queries is implementation-dependent ... the sum of the results in " \
	"all the queries must accurately reflect the total result of the query " \
	"summed over all views"
#define TS_SPEC                                                                \
	"18.5: in a render pass instance with multiview enabled the timestamp "  \
	"uses N consecutive query indices; the first query is a timestamp value " \
	"and zero is written to the remaining queries, or all N queries are "    \
	"timestamp values; 18.5: a write that happens-after another must not "   \
	"have a lower value unless it overflows"

static const struct vkqs_case cases[] = {
	{.name = "occlusion.precise",
	 .fn = occlusion_precise,
	 .spec = MV_SPEC "; " SUM_SPEC " (precise: each view's exact sample count); "
			 "the query after the N stays unavailable",
	 .params = VKQS_PARAMS(occ_params, occ_name)},
	{.name = "occlusion.ended_in_secondary",
	 .fn = occlusion_secondary,
	 .spec = MV_SPEC " (the query begun and ended in a secondary command buffer that "
			 "continues the subpass); " SUM_SPEC " (precise); the query after the N "
			 "stays unavailable",
	 .params = VKQS_PARAMS(secondary_params, occ_name)},
	{.name = "occlusion.nonprecise_visible_and_occluded",
	 .fn = occlusion_nonprecise,
	 .spec = SUM_SPEC "; 18.3: without PRECISE any non-zero value if the count of "
			  "passing samples is non-zero (and 0 when none passes)",
	 .params = VKQS_PARAMS(nonprecise_params, nonprecise_name)},
	{.name = "occlusion.per_subpass_view_count",
	 .fn = occlusion_per_subpass,
	 .spec = MV_SPEC "; queries used with multiview rendering must begin and end in "
			 "the same subpass; " SUM_SPEC,
	 .params = VKQS_PARAMS(subpass_params, subpass_name)},
	{.name = "occlusion.clear_on_first_use_of_view",
	 .fn = occlusion_clear_per_view,
	 .spec = "Render Pass (multiview): the load and store operations apply to attachments "
		 "on a per-view basis; an attachment using VK_ATTACHMENT_LOAD_OP_CLEAR will "
		 "have each view cleared on first use; " SUM_SPEC,
	 .params = VKQS_PARAMS(subpass_params, subpass_name)},
	{.name = "stats.sum_over_views",
	 .fn = stats_sum,
	 .spec = MV_SPEC "; " SUM_SPEC " (pipeline statistics: at least each view's fragments, "
			 "at least one draw's vertices and primitives); the query after the N stays "
			 "unavailable",
	 .params = VKQS_PARAMS(stats_params, stats_name)},
	{.name = "timestamp.write",
	 .fn = timestamp_write,
	 .spec = TS_SPEC " (vkCmdWriteTimestamp); queries.adoc (1.4.312): each of the N "
		 "queries must not be lower than the query of the same index written by the "
		 "timestamp that happens-before",
	 .params = VKQS_PARAMS(ts_params, ts_name)},
	{.name = "timestamp.write2",
	 .fn = timestamp_write,
	 .spec = TS_SPEC " (vkCmdWriteTimestamp2)",
	 .params = VKQS_PARAMS(ts2_params, ts_name)},
};

VKQS_AREA(multiview, cases);
