/* vkqs.stats.bits.*: results written in statistic-bit order for every single counter,
 * sparse, core and all-counter masks. */
#include "stats.h"

#define ALL_BITS (CORE | GEOM_BITS | TESS_BITS)

/* The work that shows counter s, recorded twice, each time inside its own
 * query (query 0 is read at 64 bits, query 1 at 32): rect A for the core
 * graphics counters, the geometry or tessellation pipeline for theirs, a
 * (3, 2, 1) dispatch for compute.  A query of graphics work begins and ends
 * inside the subpass (no load operation inside it); the dispatch is
 * recorded outside any render pass. */
static void single(struct vkqs_ctx *ctx, const void *param)
{
	enum stat s = *(const enum stat *)param;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(s), 2);
	struct expect e = stats_expect_zero("one counter alone");

	if (s == CS) {
		struct comp *c = stats_compute_setup(ctx, 64);
		stats_compute_bind(ctx, g.cb, c);
		for (uint32_t q = 0; q < 2; q++) {
			D->vkCmdBeginQuery(g.cb, g.pool, q, 0);
			D->vkCmdDispatch(g.cb, 3, 2, 1);
			D->vkCmdEndQuery(g.cb, g.pool, q);
			stats_compute_barrier(ctx, g.cb);
		}
		stats_add_dispatch(&e, 3, 2, 1);
		stats_gfx_submit(ctx, &g);
		stats_compute_check_buffer(ctx, c, 48, 2);
	} else {
		struct gdesc gd = {
			.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
			.geom = (BIT(s) & GEOM_BITS) != 0,
			.tess = (BIT(s) & TESS_BITS) != 0,
		};
		const struct vkqs_pipeline *p = stats_gfx_pipeline(ctx, g.t, &gd);
		vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
		for (uint32_t q = 0; q < 2; q++) {
			D->vkCmdBeginQuery(g.cb, g.pool, q, 0);
			stats_draw(ctx, g.cb, p, g.t, RA);
			D->vkCmdEndQuery(g.cb, g.pool, q);
		}
		vkqs_target_end(ctx, g.cb);
		if (gd.geom)
			stats_add_geom_draw(ctx, &e, RA);
		else if (gd.tess)
			stats_add_tess_draw(ctx, &e, RA);
		else
			stats_add_rect_draw(ctx, &e, RA, 1);
		stats_gfx_submit(ctx, &g);
	}
	stats_check_query_width(ctx, g.pool, 0, g.mask, &e, true);
	stats_check_query_width(ctx, g.pool, 1, g.mask, &e, false);
}

static const enum stat single_params[] = {IA_V, IA_P, VS, GS_INV, GS_PRIM, CLIP_INV,
					  CLIP_PRIM, FS, TCS, TES, CS};

static void single_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", stat_names[*(const enum stat *)param]);
}

enum order_set { SET_CORE, SET_SPARSE, SET_ALL };

enum method { METHOD_GET, METHOD_COPY };

struct order_param {
	enum order_set set;
	enum method method;
	bool is64;
};

static const struct order_param order_params[] = {
	{SET_CORE, METHOD_GET, true},    {SET_CORE, METHOD_GET, false},
	{SET_CORE, METHOD_COPY, true},   {SET_CORE, METHOD_COPY, false},
	{SET_SPARSE, METHOD_GET, true},  {SET_SPARSE, METHOD_COPY, false},
	{SET_ALL, METHOD_GET, true},     {SET_ALL, METHOD_COPY, true},
};

static const char *const set_names[] = {"core", "sparse", "all"};

static void order_name(const void *param, char *buf, size_t size)
{
	const struct order_param *p = param;
	snprintf(buf, size, "%s_%s_%u", set_names[p->set],
		 p->method == METHOD_GET ? "get" : "copy", p->is64 ? 64u : 32u);
}

/* Words of the result region: per query its values, availability, one
 * guard word; and two guard words before it for the copy. */
#define PRE_WORDS 2u

/* Two queries of one pool, each holding work of one pipeline shape, so that
 * every counter it checks belongs to a stage present in every pipeline the
 * query uses (VKQS_SPEC_STATS_MISSING_STAGE): query 0 a (3, 2, 1) dispatch,
 * query 1 a render pass instance with rect A and rect A wholly outside the
 * view volume (SET_CORE, SET_SPARSE: rect.vert and the area's fragment
 * shader), or rect A with the pipeline of tessellation and a geometry
 * shader (SET_ALL: every graphics stage).  The defined values then differ
 * wherever they can:
 *   query 0: CS >= 48, input assembly and clipping 0 (the vertex, fragment,
 *            geometry and tessellation counters are undefined);
 *   query 1, core: IA_V 12, IA_P 4, VS 12, CLIP_INV 4, CLIP_PRIM >= 2,
 *            FS >= 384 (CS undefined);
 *   query 1, all: IA_V 6, IA_P 2, VS 6, GS_INV 4, GS_PRIM 6, CLIP_INV 6,
 *            CLIP_PRIM >= 6, FS >= 384, TCS 2, TES 6.
 * A value written to another counter's slot falls below that counter's
 * lower bound, or above 0, in at least one of the two queries wherever the
 * two counters' values differ. */
static void order(struct vkqs_ctx *ctx, const void *param)
{
	const struct order_param *p = param;
	uint32_t mask = p->set == SET_CORE     ? CORE
			: p->set == SET_SPARSE ? BIT(IA_P) | BIT(CLIP_PRIM) | BIT(CS)
					       : ALL_BITS;
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 2);
	const struct vkqs_pipeline *pipe;
	if (p->set == SET_ALL) {
		struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .geom = true,
				   .tess = true};
		pipe = stats_gfx_pipeline(ctx, g.t, &gd);
	} else {
		pipe = stats_rect_pipeline(ctx, g.t);
	}
	struct comp *c = stats_compute_setup(ctx, 64);
	struct expect e[2] = {stats_expect_zero("query 0: a dispatch"),
			      stats_expect_zero("query 1: a render pass instance")};

	uint32_t n = stats_nvalues(mask);
	size_t word = p->is64 ? 8 : 4;
	size_t stride = (n + 2) * word; /* values, availability, guard */
	size_t total = (PRE_WORDS * word) + 2 * stride;
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, total, 0);
	memset(dst->map, STATS_GUARD_BYTE, total);
	vkqs_buffer_flush(ctx, dst);

	stats_compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	stats_add_dispatch(&e[0], 3, 2, 1);
	D->vkCmdBeginQuery(g.cb, g.pool, 1, 0);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_draw(ctx, g.cb, pipe, g.t, RA);
	if (p->set == SET_ALL) {
		stats_add_tess_geom_draw(ctx, &e[1], RA);
	} else {
		stats_add_rect_draw(ctx, &e[1], RA, 1);
		stats_draw(ctx, g.cb, pipe, g.t, R_OUT);
		stats_add_outside_draw(&e[1]);
	}
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 1);
	stats_loosen_for_clears(&e[1]);
	stats_compute_barrier(ctx, g.cb);

	VkQueryResultFlags flags = VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (p->is64 ? VK_QUERY_RESULT_64_BIT : 0);
	uint8_t *region = dst->map + PRE_WORDS * word;
	if (p->method == METHOD_COPY) {
		D->vkCmdCopyQueryPoolResults(g.cb, g.pool, 0, 2, dst->buf, PRE_WORDS * word, stride,
					     flags);
		vkqs_cmd_transfer_to_host_barrier(ctx, g.cb);
		stats_gfx_submit(ctx, &g);
		vkqs_buffer_invalidate(ctx, dst);
	} else {
		stats_gfx_submit(ctx, &g);
		VKQS_ASSERT_VK(ctx,
			       D->vkGetQueryPoolResults(DEV, g.pool, 0, 2, 2 * stride, region, stride,
							flags),
			       VK_SUCCESS);
	}
	stats_compute_check_buffer(ctx, c, 48, 1);

	for (uint32_t q = 0; q < 2; q++) {
		const uint8_t *r = region + q * stride;
		uint64_t vals[NSTATS];
		for (uint32_t k = 0; k < n; k++)
			vals[k] = vkqs_load_word(r + k * word, word);
		stats_check_values(ctx, &e[q], mask, vals,
				   p->method == METHOD_COPY ? "copied" : "got");
		/* 18.2: with WITH_AVAILABILITY "the final integer value
		 * written for each query is non-zero if the query's status
		 * was available": right after the n values.  The guard word
		 * after it lies inside the stride, which the spec does not
		 * say stays untouched: CompatibilityWarning. */
		VKQS_EXPECTF(ctx, vkqs_load_word(r + n * word, word) != 0,
			     "query %u: availability word (after the %u values) is 0 for an "
			     "available query", q, n);
		VKQS_EXPECT_PADDING_UNTOUCHED(ctx, stats_untouched(r + (n + 1) * word, word),
				   "query %u: the word after the availability word (byte %zu of "
				   "the result, inside the stride) was written", q,
				   (n + 1) * word);
	}
	if (p->method == METHOD_COPY)
		VKQS_EXPECTF(ctx, stats_untouched(dst->map, PRE_WORDS * word),
			     "bytes before dstOffset %zu were written", PRE_WORDS * word);
}

#define BIT_ORDER_SPEC \
	"18.2: pipeline statistics queries write one integer value for each bit enabled " \
	"in pipelineStatistics, in bit order starting from the least significant bit, " \
	"then the availability word"

static const struct vkqs_case cases[] = {
	{.name = "bits.single",
	 .fn = single,
	 .spec = COUNTERS_SPEC " (a pool of one counter; one query read at 64 bits, one at 32)",
	 .params = VKQS_PARAMS(single_params, single_name)},
	{.name = "bits.order",
	 .fn = order,
	 .spec = BIT_ORDER_SPEC "; " COUNTERS_SPEC,
	 .params = VKQS_PARAMS(order_params, order_name)},
};

VKQS_GROUP(stats, bits, cases);
