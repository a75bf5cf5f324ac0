/* vkqs.perf: results, typed, and exact values where the device names the counter (perf.h; the area: perf.c). */
#include "perf.h"
#include "shaders/stats_count_comp.h"

/* Results: every counter, typed ---------------------------------------------------*/

/* Each counter alone in its pool, around the same draws, all its passes. */
static void results_each_counter(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	for (uint32_t i = 0; i < pf->count; i++) {
		result_t r;
		perf_measure_draws(ctx, pf, &i, 1, &s, 2, 6, 16, 16, &r);
		char what[64];
		snprintf(what, sizeof(what), "counter %u alone", i);
		perf_check_typed(ctx, pf, i, r, what);
	}
}

/* All counters in one pool: as many passes as the device says. */
static void results_all_counters(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	perf_lock(ctx);
	uint32_t *all = vkqs_alloc(ctx, pf->count * sizeof(*all));
	for (uint32_t i = 0; i < pf->count; i++)
		all[i] = i;
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	result_t *r = vkqs_alloc(ctx, pf->count * sizeof(*r));
	perf_measure_draws(ctx, pf, all, pf->count, &s, 3, 6, 32, 32, r);
	for (uint32_t i = 0; i < pf->count; i++)
		perf_check_typed(ctx, pf, i, r[i], "all counters in one pool");
}

/* The same counters in opposite orders: the values follow pCounterIndices. */
static void results_order(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t a = perf_named(ctx, pf, "draws"), b = perf_named(ctx, pf, "vertex_invocations");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t fwd[2] = {a, b}, rev[2] = {b, a};
	result_t rf[2], rr[2];
	perf_measure_draws(ctx, pf, fwd, 2, &s, 2, 12, 8, 8, rf);
	perf_measure_draws(ctx, pf, rev, 2, &s, 2, 12, 8, 8, rr);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, a, rf[0]), 2);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, b, rf[1]), 24);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, b, rr[0]), 24);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, a, rr[1]), 2);
}

/* Exact values where the device names the counter ----------------------------------*/

struct exact {
	const char *counter;
	uint32_t draws, vertices;
	uint32_t w, h;
	VkSampleCountFlagBits samples;
};
static const struct exact exacts[] = {
	{"draws", 1, 6, 8, 8, 1},
	{"draws", 3, 6, 8, 8, 1},
	{"draws", 16, 6, 8, 8, 1},
	{"vertex_invocations", 1, 6, 8, 8, 1},
	{"vertex_invocations", 2, 60, 8, 8, 1},
	{"vertex_invocations", 4, 600, 8, 8, 1},
	{"fragment_invocations", 1, 6, 8, 8, 1},
	{"fragment_invocations", 2, 6, 64, 32, 1},
	{"samples_passed", 1, 6, 16, 8, 1},
	{"samples_passed", 1, 6, 16, 8, 4},
	{"primitives_discarded", 2, 6, 8, 8, 1},
	{"render_passes", 1, 6, 8, 8, 1},
	{"dispatches", 2, 6, 8, 8, 1},
};
static void exact_name(const void *p, char *b, size_t n)
{
	const struct exact *e = p;
	snprintf(b, n, "%s_%u_draws_of_%u_%ux%u_%ux", e->counter, e->draws, e->vertices, e->w, e->h,
		 (unsigned)e->samples);
}

/* draws: the draws recorded; vertex_invocations: the vertices (rect.vert
 * has no vertex reuse to exploit: every index distinct); fragment
 * invocations: the rectangle's pixels at one sample (vkqs_draw_rect covers
 * exactly its pixels, no sample shading); samples_passed: pixels times
 * samples (no depth test); primitives_discarded: none reach no further
 * than clipping for a rectangle inside the viewport; render_passes: one
 * instance; dispatches: none among draws. */
static void values_exact(struct vkqs_ctx *ctx, const void *param)
{
	const struct exact *x = param;
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, x->counter);
	if (x->samples > 1)
		vkqs_require_exact_coverage(ctx);
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, x->samples);
	result_t r;
	perf_measure_draws(ctx, pf, &c, 1, &s, x->draws, x->vertices, (float)x->w, (float)x->h, &r);
	uint64_t px = (uint64_t)x->w * x->h, want;
	if (!strcmp(x->counter, "draws"))
		want = x->draws;
	else if (!strcmp(x->counter, "vertex_invocations"))
		want = (uint64_t)x->draws * x->vertices;
	else if (!strcmp(x->counter, "fragment_invocations"))
		want = px * x->draws * (x->vertices / 6);
	else if (!strcmp(x->counter, "samples_passed"))
		want = px * x->samples * x->draws;
	else if (!strcmp(x->counter, "render_passes"))
		want = 1;
	else
		want = 0;
	VKQS_EXPECTF(ctx, perf_uint_of(pf, c, r) == want, "%s: %" PRIu64 ", the work recorded gives %" PRIu64,
		     x->counter, perf_uint_of(pf, c, r), want);
	perf_check_typed(ctx, pf, c, r, x->counter);
}

/* Render pass instances inside one query (RENDER_PASS scope: begun and
 * ended outside them). */
static const uint32_t pass_counts[] = {1, 2, 5};
static void pass_count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u", *(const uint32_t *)p);
}
static void values_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t k = *(const uint32_t *)param;
	struct perf_one o = perf_one(ctx, "render_passes", 1);
	VkCommandBuffer cb = perf_query_open(ctx, o.pool);
	for (uint32_t i = 0; i < k; i++)
		perf_scene_draw(ctx, cb, &o.s, 1, 6, 4, 4);
	result_t r;
	perf_query_close(ctx, cb, o.pool, o.passes, 1, &r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(o.pf, o.c, r), k);
}

/* dispatches and compute_invocations: k dispatches of g workgroups of
 * stats_count.comp (local size 4 x 2 x 1). */
struct compute_case {
	uint32_t dispatches, groups;
};
static const struct compute_case compute_cases[] = {{1, 1}, {3, 4}};
static void compute_case_name(const void *p, char *b, size_t n)
{
	const struct compute_case *c = p;
	snprintf(b, n, "%u_dispatches_of_%u_workgroups", c->dispatches, c->groups);
}
static void values_compute(struct vkqs_ctx *ctx, const void *param)
{
	const struct compute_case *cc = param;
	struct perf *pf = perf_require(ctx);
	uint32_t idx[2] = {perf_named(ctx, pf, "dispatches"), perf_named(ctx, pf, "compute_invocations")};
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct vkqs_compute *c = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp),
						     b, 0, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, 2, 1, &passes);
	VkCommandBuffer cb = perf_query_open(ctx, pool);
	vkqs_cmd_bind_compute(ctx, cb, c);
	for (uint32_t i = 0; i < cc->dispatches; i++) {
		D->vkCmdDispatch(cb, cc->groups, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	result_t r[2];
	perf_query_close(ctx, cb, pool, passes, 2, r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, idx[0], r[0]), cc->dispatches);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, idx[1], r[1]), 8u * cc->groups * cc->dispatches);
}

/* bytes_transferred: a fill, a copy and an update of known sizes. */
static void values_bytes(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "bytes_transferred");
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 8192, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	static const uint32_t words[16] = {0};
	VkCommandBuffer cb = perf_query_open(ctx, pool);
	D->vkCmdFillBuffer(cb, b->buf, 0, 4096, 7);
	vkqs_cmd_full_barrier(ctx, cb);
	VkBufferCopy region = {0, 4096, 1024};
	D->vkCmdCopyBuffer(cb, b->buf, b->buf, 1, &region);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdUpdateBuffer(cb, b->buf, 6144, sizeof(words), words);
	result_t r;
	perf_query_close(ctx, cb, pool, passes, 1, &r);
	VKQS_EXPECT_EQ(ctx, perf_uint_of(pf, c, r), 4096 + 1024 + sizeof(words));
}

/* Time counters grow with the work: 1 small draw, then 64 full ones. */
static void values_time_monotonic(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t idx[MAX_COUNTERS], n = 0;
	for (uint32_t i = 0; i < pf->count; i++)
		if (pf->c[i].unit == VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR ||
		    pf->c[i].unit == VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR)
			idx[n++] = i;
	if (!n)
		vkqs_skip(ctx, "no counter in nanoseconds or cycles");
	perf_lock(ctx);
	struct scene s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	result_t small[MAX_COUNTERS], big[MAX_COUNTERS];
	perf_measure_draws(ctx, pf, idx, n, &s, 1, 6, 1, 1, small);
	perf_measure_draws(ctx, pf, idx, n, &s, 64, 600, SIZE, SIZE, big);
	for (uint32_t k = 0; k < n; k++)
		VKQS_EXPECTF(ctx, perf_value_of(pf, idx[k], big[k]) >= perf_value_of(pf, idx[k], small[k]),
			     "counter %u \"%s\": %g for 64 full-target draws, %g for one pixel",
			     idx[k], pf->d[idx[k]].name, perf_value_of(pf, idx[k], big[k]),
			     perf_value_of(pf, idx[k], small[k]));
}

static const struct vkqs_case cases[] = {
	ROW("results.each_counter", results_each_counter, SPEC_RESULTS),
	ROW("results.all_counters", results_all_counters, SPEC_RESULTS "; " SPEC_PASSES),
	ROW("results.order", results_order, SPEC_RESULTS),
	{"values.exact", values_exact, SPEC_RESULTS "; the device documents the counter",
	 VKQS_PARAMS(exacts, exact_name)},
	{"values.render_passes", values_render_passes,
	 "RENDER_PASS scope: begun and ended outside render pass instances",
	 VKQS_PARAMS(pass_counts, pass_count_name)},
	ROW("values.bytes_transferred", values_bytes, SPEC_RESULTS),
	{"values.compute", values_compute, SPEC_RESULTS "; the device documents the counter",
	 VKQS_PARAMS(compute_cases, compute_case_name)},
	ROW("values.time_grows_with_work", values_time_monotonic,
	    "VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR / CYCLES_KHR: time of the work measured"),
};

VKQS_GROUP(perf, values, cases);
