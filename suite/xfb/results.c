/* vkqs.xfb.results.*: the two-value result layout of stream and primitives generated
 * queries, and their availability before the work is done. */
#include "xfb.h"
#include "verdict.h"

static const struct result_param {
	bool pgq;
	bool is64;
	bool copy;
} result_params[] = {
	{false, false, false}, {false, true, false}, {false, false, true}, {false, true, true},
	{true, false, false},  {true, true, false},  {true, false, true},  {true, true, true},
};

static void result_param_name(const void *p, char *buf, size_t size)
{
	const struct result_param *r = p;
	snprintf(buf, size, "%s_%s_%s", r->pgq ? "pgq" : "stream", r->is64 ? "64" : "32",
		 r->copy ? "copy" : "get");
}

#define GUARD 8u

/* The results of query 0 (4 triangles into room for 2, so the two
 * integers of a transform feedback query differ) and query 1 (reset,
 * never begun) of a pool of rp's type, read with WITH_AVAILABILITY at a
 * stride with GUARD spare bytes: query 0 with WAIT, query 1 without.
 * Returns the bytes read (2 strides); *nv_out, *w_out, *stride_out. */
static const uint8_t *results_read(struct vkqs_ctx *ctx, const struct result_param *rp,
				   uint8_t *host, uint32_t *nv_out, uint32_t *w_out,
				   VkDeviceSize *stride_out)
{
	xfb_require_xfb_query(ctx);
	if (rp->pgq)
		xfb_require_pgq(ctx);
	const uint32_t nv = rp->pgq ? 1 : 2, w = rp->is64 ? 8 : 4;
	const VkDeviceSize stride = (nv + 1) * w + GUARD;
	const VkQueryType type = rp->pgq ? VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT
					 : VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
	*nv_out = nv;
	*w_out = w;
	*stride_out = stride;
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, type, 2, 0);
	struct vkqs_buffer *dst =
		rp->copy ? xfb_buffer(ctx, 2 * stride) : NULL; /* SENTINEL-filled */
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (rp->is64 ? VK_QUERY_RESULT_64_BIT : 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 1.0f);
	xfb_bind_xfb(ctx, cb, 0, b, 0, 2 * 3 * COUNT_STRIDE);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	if (rp->copy) {
		D->vkCmdCopyQueryPoolResults(cb, pool, 0, 1, dst->buf, 0, stride,
					     flags | VK_QUERY_RESULT_WAIT_BIT);
		D->vkCmdCopyQueryPoolResults(cb, pool, 1, 1, dst->buf, stride, stride, flags);
	}
	struct vkqs_buffer *bufs[2] = {b, dst};
	xfb_finish(ctx, cb, bufs, rp->copy ? 2 : 1);
	if (rp->copy)
		return dst->map;
	memset(host, SENTINEL, 2 * (size_t)stride);
	VKQS_EXPECT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, 0, 1, (size_t)stride, host, stride,
						flags | VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
	vkqs_expect_not_ready(ctx,
			      D->vkGetQueryPoolResults(DEV, pool, 1, 1, (size_t)stride,
						       host + stride, stride, flags),
			      "the unavailable query");
	return host;
}

#define RESULTS_HOST (2 * ((2 + 1) * 8 + GUARD))

/* 18.2: "Transform feedback queries write two integers; the first integer
 * is the number of primitives successfully written ... and the second is
 * the number of primitives output to the vertex stream"; "Primitives
 * generated queries write the number of primitives output to the vertex
 * stream"; each 32 or 64 bits, then the availability word, and nothing
 * else up to the next stride. */
static void results_layout(struct vkqs_ctx *ctx, const void *param)
{
	const struct result_param *rp = param;
	uint8_t host[RESULTS_HOST];
	uint32_t nv, w;
	VkDeviceSize stride;
	const uint8_t *out = results_read(ctx, rp, host, &nv, &w, &stride);
	const uint64_t want[2] = {rp->pgq ? 4 : 2, 4};
	for (uint32_t k = 0; k < nv; k++) {
		uint64_t v = 0;
		memcpy(&v, out + (size_t)k * w, w);
		VKQS_EXPECTF(ctx, v == want[k],
			     "%u-bit value %u = %" PRIu64 ", expected %" PRIu64 " (%s; 18.2 layout)",
			     w * 8, k, v, want[k],
			     rp->pgq ? "primitives generated"
				     : k == 0 ? "primitives written" : "primitives needed");
	}
	uint64_t avail = 0;
	memcpy(&avail, out + (size_t)nv * w, w);
	VKQS_EXPECTF(ctx, avail != 0, "availability word 0 after WAIT (18.2)");
	for (VkDeviceSize i = (nv + 1) * w; i < stride; i++)
		if (!VKQS_EXPECT_PADDING_UNTOUCHED(ctx, out[i] == SENTINEL,
						   "byte %llu, after the availability word "
						   "inside the stride, written (0x%02x)",
						   (unsigned long long)i, out[i]))
			break;
}

/* The unavailable query 1 of results_read, without WAIT or PARTIAL: its
 * availability word is 0, and nothing after it up to the next stride is
 * written (18.2 layout).  vkGetQueryPoolResults writes no values for it
 * ("If VK_QUERY_RESULT_WAIT_BIT and VK_QUERY_RESULT_PARTIAL_BIT are both
 * not set then no result values are written to pData for queries that are
 * in the unavailable state"); vkCmdCopyQueryPoolResults with
 * WITH_AVAILABILITY copies "results for all queries", undefined ones
 * included, so its value words are not checked. */
static void results_unavailable(struct vkqs_ctx *ctx, const void *param)
{
	const struct result_param *rp = param;
	uint8_t host[RESULTS_HOST];
	uint32_t nv, w;
	VkDeviceSize stride;
	const uint8_t *out = results_read(ctx, rp, host, &nv, &w, &stride) + stride;
	if (!rp->copy)
		vkqs_expect_unwritten(ctx, out, (size_t)nv * w, SENTINEL, "the unavailable query");
	uint64_t avail = 0;
	memcpy(&avail, out + (size_t)nv * w, w);
	VKQS_EXPECTF(ctx, avail == 0, "availability word %" PRIu64 ", expected 0", avail);
	for (VkDeviceSize i = (nv + 1) * w; i < stride; i++)
		if (!VKQS_EXPECT_PADDING_UNTOUCHED(ctx, out[i] == SENTINEL,
						   "byte %llu, after the availability word "
						   "inside the stride, written (0x%02x)",
						   (unsigned long long)i, out[i]))
			break;
}

/* A primitives generated pool of POOL_QUERIES queries, query q around
 * q + 1 triangles (one render pass instance, transform feedback never
 * active), read in one call: each query holds its own count.  18.2: "the
 * results for each query are written in query order", query i's at
 * i * stride; a pool laid out at another stride than its queries are
 * written at (radv c119b19f98d) hands one query's count to another.  Then
 * each query read on its own (firstQuery q, count 1): the same counts. */
#define POOL_QUERIES 4u
static const bool pool_params[] = {false, true};
static void pool_param_name(const void *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)p ? "copy" : "get");
}

static void results_pgq_pool(struct vkqs_ctx *ctx, const void *param)
{
	const bool copy = *(const bool *)param;
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_PLAIN);
	VkQueryPool pool =
		vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, POOL_QUERIES, 0);
	struct vkqs_buffer *dst = copy ? xfb_buffer(ctx, POOL_QUERIES * 8) : NULL;
	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, POOL_QUERIES, 0.0f, NULL);
	for (uint32_t q = 0; q < POOL_QUERIES; q++) {
		D->vkCmdBeginQuery(cb, pool, q, 0);
		D->vkCmdDraw(cb, 3 * (q + 1), 1, 0, 0);
		D->vkCmdEndQuery(cb, pool, q);
	}
	vkqs_target_end(ctx, cb);
	if (copy)
		D->vkCmdCopyQueryPoolResults(cb, pool, 0, POOL_QUERIES, dst->buf, 0, 8,
					     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	xfb_finish(ctx, cb, &dst, copy ? 1 : 0);
	uint64_t g[POOL_QUERIES];
	if (copy)
		memcpy(g, dst->map, sizeof(g));
	else
		xfb_results(ctx, pool, 0, POOL_QUERIES, 1, g);
	for (uint32_t q = 0; q < POOL_QUERIES; q++) {
		char what[96];
		snprintf(what, sizeof(what), "query %u of %u read together (%u triangles)", q,
			 POOL_QUERIES, q + 1);
		xfb_expect_pgq(ctx, what, g[q], q + 1);
	}
	for (uint32_t q = 0; q < POOL_QUERIES; q++) {
		char what[96];
		uint64_t one;
		snprintf(what, sizeof(what), "query %u of %u read alone (%u triangles)", q,
			 POOL_QUERIES, q + 1);
		xfb_results(ctx, pool, q, 1, 1, &one);
		xfb_expect_pgq(ctx, what, one, q + 1);
	}
}

static const struct vkqs_case cases[] = {
	{"results.layout", results_layout,
	 "18.2 \"Transform feedback queries write two integers; the first integer is the number "
	 "of primitives successfully written\"; \"Primitives generated queries write the number "
	 "of primitives output to the vertex stream\"; 32/64-bit, availability, get and copy",
	 VKQS_PARAMS(result_params, result_param_name)},
	{"results.unavailable", results_unavailable,
	 "18.2 unavailable query without WAIT/PARTIAL: availability 0, no values (get), "
	 "nothing past the availability word",
	 VKQS_PARAMS(result_params, result_param_name)},
	{"results.pgq_pool", results_pgq_pool,
	 "18.2 \"the results for each query are written in query order\": each query of a "
	 "primitives generated pool holds its own count (18.8), read together or alone",
	 VKQS_PARAMS(pool_params, pool_param_name)},
};

VKQS_GROUP(xfb, results, cases);
