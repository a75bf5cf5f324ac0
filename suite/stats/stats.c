/* Pipeline statistics queries (spec 18.4): every core counter alone and
 * all together, values in bit order at 32 and 64 bits through
 * vkGetQueryPoolResults and vkCmdCopyQueryPoolResults, the topologies'
 * counts (incomplete primitives, primitive restart, vertex reuse,
 * instancing, indirect draws), clipping, fragment shading, compute
 * dispatches (direct, indirect, on a compute-only queue), the scope of a
 * query (empty queries are zero, nothing leaks in from outside, counters
 * restart at zero) and secondary command buffers.
 *
 * How much the spec fixes.  18.4 describes what each counter counts and
 * then says "These values are intended to measure relative statistics on
 * one implementation.  Various device architectures will count these
 * values differently", with a note that tile-based devices "may need to
 * replay the scene multiple times, affecting some of the counts".  So
 * every counter is checked in three bands (struct want):
 * - below the least the spec allows: Fail.  The lower bounds come from the
 *   counters' own definitions in 18.4 and from the shader-execution rules
 *   the counters count ("Vertex Shader Execution": "A vertex shader must
 *   be executed at least once for each vertex specified by a drawing
 *   command"; "Fragment Shading": at least one invocation per fragment
 *   that no earlier fragment operation discarded; tessellation and
 *   geometry shaders likewise);
 * - above what 18.4's description of the stage gives (an input assembler
 *   that counts each vertex once, one invocation per vertex, ...):
 *   CompatibilityWarning, legal by the sentence above but not portable;
 * - where nothing can be counted (no draw, no dispatch, fragments of a
 *   primitive that makes none, the compute counter around a draw),
 *   anything but 0 is Fail: there is no work whose counting could differ.
 * Rendering operations such as clears and attachment load/store operations
 * "may count towards the results of queries" (18.2), so a query that
 * contains a whole render pass instance (CLEAR load op) keeps its lower
 * bounds but loses its upper ones (loosen_for_clears).
 *
 * Geometry: vkqs_draw_rect's rectangles have integer edges, so a w x h one
 * makes exactly w * h fragments with standard sample locations (see
 * occlusion.c); rects A, B and C are 24 x 16, whose shared diagonal passes
 * through no pixel centre and no standard sample location (2x + 3y = const
 * has no solution there), so not even the tie-break rule matters.
 */
#include <stdio.h>
#include <string.h>

#include "vkutil.h"

#include "shaders/stats_copies_geom.h"
#include "shaders/stats_count_comp.h"
#include "shaders/stats_early_tests_frag.h"
#include "shaders/stats_grid_vert.h"
#include "shaders/stats_triangle_tesc.h"
#include "shaders/stats_triangle_tese.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FB 64u
#define NSTATS 11u /* core statistics: VkQueryPipelineStatisticFlagBits 1 << 0 .. 1 << 10 */
#define UNBOUNDED UINT64_MAX

enum stat {
	IA_V, IA_P, VS, GS_INV, GS_PRIM, CLIP_INV, CLIP_PRIM, FS, TCS, TES, CS,
};

#define BIT(s) (1u << (s))
#define CORE_GRAPHICS (BIT(IA_V) | BIT(IA_P) | BIT(VS) | BIT(CLIP_INV) | BIT(CLIP_PRIM) | BIT(FS))
#define CORE (CORE_GRAPHICS | BIT(CS))
#define GEOM_BITS (BIT(GS_INV) | BIT(GS_PRIM))
#define TESS_BITS (BIT(TCS) | BIT(TES))
#define ALL_BITS (CORE | GEOM_BITS | TESS_BITS)

/* Names in bit order, kept beside the enum they name. */
static const char *const stat_names[NSTATS] = {
	"input_assembly_vertices",
	"input_assembly_primitives",
	"vertex_shader_invocations",
	"geometry_shader_invocations",
	"geometry_shader_primitives",
	"clipping_invocations",
	"clipping_primitives",
	"fragment_shader_invocations",
	"tessellation_control_shader_patches",
	"tessellation_evaluation_shader_invocations",
	"compute_shader_invocations",
};

/* Expectations ------------------------------------------------------------- */

struct want {
	uint64_t min;  /* below: Fail (the least the spec allows) */
	uint64_t warn; /* above: CompatibilityWarning (more than 18.4's stage description) */
	uint64_t max;  /* above: Fail */
};

/* One query's expectations, all counters; starts at exactly zero. */
struct expect {
	struct want s[NSTATS];
	const char *scene;
};

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UNBOUNDED - b ? UNBOUNDED : a + b;
}

static struct expect expect_zero(const char *scene)
{
	struct expect e;
	memset(&e, 0, sizeof(e));
	e.scene = scene;
	return e;
}

static void add(struct expect *e, enum stat s, uint64_t min, uint64_t warn, uint64_t max)
{
	e->s[s].min = sat_add(e->s[s].min, min);
	e->s[s].warn = sat_add(e->s[s].warn, warn);
	e->s[s].max = sat_add(e->s[s].max, max);
}

/* Exactly n by 18.4's description; more is CompatibilityWarning. */
static void add_natural(struct expect *e, enum stat s, uint64_t n)
{
	add(e, s, n, n, UNBOUNDED);
}

/* At least lo; up to hi is what 18.4 describes (e.g. incomplete
 * primitives "may" count); more is CompatibilityWarning. */
static void add_range(struct expect *e, enum stat s, uint64_t lo, uint64_t hi)
{
	add(e, s, lo, hi, UNBOUNDED);
}

/* At least n; the spec itself allows any number more (clipping output). */
static void add_lower(struct expect *e, enum stat s, uint64_t n)
{
	add(e, s, n, UNBOUNDED, UNBOUNDED);
}

/* 18.2: clears and attachment load/store operations "may count towards the
 * results of queries" (implementation-dependent): a query holding a render
 * pass instance keeps its lower bounds only. */
static void loosen_for_clears(struct expect *e)
{
	for (uint32_t i = 0; i < NSTATS; i++)
		e->s[i].max = UNBOUNDED;
}

/* Checks the values of one query of a pool with statistics `mask`: value k
 * belongs to the k-th set bit ("the statistics values are written in bit
 * order starting from the least significant bit", 18.2), so a value in the
 * wrong slot meets another counter's bounds and fails where those differ. */
static void check_values(struct vkqs_ctx *ctx, const struct expect *e, uint32_t mask,
			 const uint64_t *vals, const char *how)
{
	uint32_t k = 0;
	for (uint32_t s = 0; s < NSTATS; s++) {
		if (!(mask & BIT(s)))
			continue;
		const struct want *w = &e->s[s];
		uint64_t v = vals[k];
		VKQS_EXPECTF(ctx, v >= w->min,
			     "%s, %s: value %u (%s) is %" PRIu64 ", below %" PRIu64
			     ", the least the spec allows",
			     e->scene, how, k, stat_names[s], v, w->min);
		VKQS_EXPECTF(ctx, v <= w->max,
			     "%s, %s: value %u (%s) is %" PRIu64 ", above %" PRIu64
			     ", the most the spec allows",
			     e->scene, how, k, stat_names[s], v, w->max);
		if (v >= w->min && v <= w->max && v > w->warn)
			vkqs_compat_warning(ctx,
					    "%s, %s: value %u (%s) is %" PRIu64 ", more than the %" PRIu64
					    " that 18.4's description of the counter gives: legal "
					    "(\"Various device architectures will count these values "
					    "differently\"), not portable",
					    e->scene, how, k, stat_names[s], v, w->warn);
		k++;
	}
}

static uint32_t nvalues(uint32_t mask)
{
	return (uint32_t)__builtin_popcount(mask);
}

/* vkGetQueryPoolResults of queries [first, first + count), WAIT, tightly
 * packed, 64- or 32-bit; widened into out[count * nvalues]. */
static void get_values(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		       uint32_t mask, bool is64, uint64_t *out)
{
	uint32_t n = nvalues(mask);
	size_t word = is64 ? 8 : 4;
	size_t stride = n * word;
	uint8_t *buf = vkqs_alloc(ctx, count * stride);
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, first, count, count * stride, buf, stride,
						(is64 ? VK_QUERY_RESULT_64_BIT : 0) |
							VK_QUERY_RESULT_WAIT_BIT),
		       VK_SUCCESS);
	for (uint32_t i = 0; i < count * n; i++) {
		if (is64) {
			memcpy(&out[i], buf + i * 8, 8);
		} else {
			uint32_t v;
			memcpy(&v, buf + i * 4, 4);
			out[i] = v;
		}
	}
}

/* Reads query `q` once (64-bit) and checks it.  Each query is read once:
 * a driver whose reads change the stored values (see
 * scope.results_unchanged_by_reads) then fails only that case. */
static void check_query_width(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q,
			      uint32_t mask, const struct expect *e, bool is64)
{
	uint64_t v[NSTATS];
	get_values(ctx, pool, q, 1, mask, is64, v);
	check_values(ctx, e, mask, v, is64 ? "64-bit" : "32-bit");
}

static void check_query(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q, uint32_t mask,
			const struct expect *e)
{
	check_query_width(ctx, pool, q, mask, e, true);
}

/* Graphics pipelines ------------------------------------------------------- */

/* What vkqs_pipeline_rect does by default, with other topologies, primitive
 * restart, rasterizer discard, sample shading, geometry and tessellation
 * stages.  Same push-constant layout (32 bytes, vertex stage), so
 * vkqs_draw_rect draws with these pipelines too. */
struct gdesc {
	VkPrimitiveTopology topology;
	bool grid;     /* stats_grid.vert instead of rect.vert */
	bool restart;  /* primitiveRestartEnable */
	bool discard;  /* rasterizerDiscardEnable */
	bool sample_shading; /* minSampleShading 1.0 */
	bool geom;     /* stats_copies.geom */
	bool tess;     /* stats_triangle.tesc/.tese, 3-point patches */
};

static const struct vkqs_pipeline *gfx_pipeline(struct vkqs_ctx *ctx,
						const struct vkqs_target *t,
						const struct gdesc *d)
{
	if (d->geom)
		vkqs_require_feature(ctx, "geometryShader");
	if (d->tess)
		vkqs_require_feature(ctx, "tessellationShader");
	if (d->sample_shading && !ctx->vk->features.features.sampleRateShading)
		vkqs_skip(ctx, "feature sampleRateShading is not supported");

	struct vkqs_pipeline_desc pd = {
		.set_topology = true,
		.topology = d->tess ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : d->topology,
		.primitive_restart = d->restart,
		.rasterizer_discard = d->discard,
		.min_sample_shading = d->sample_shading ? 1.0f : 0.0f,
	};
	if (d->grid) {
		pd.vert_spv = stats_grid_vert;
		pd.vert_size = sizeof(stats_grid_vert);
	}
	if (d->tess) {
		pd.tesc_spv = stats_triangle_tesc;
		pd.tesc_size = sizeof(stats_triangle_tesc);
		pd.tese_spv = stats_triangle_tese;
		pd.tese_size = sizeof(stats_triangle_tese);
		pd.patch_control_points = 3;
	}
	if (d->geom) {
		pd.geom_spv = stats_copies_geom;
		pd.geom_size = sizeof(stats_copies_geom);
	}
	return vkqs_pipeline_rect(ctx, t, &pd);
}

static const struct vkqs_pipeline *rect_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t)
{
	struct vkqs_pipeline_desc desc = {0};
	return vkqs_pipeline_rect(ctx, t, &desc);
}

/* Draws ------------------------------------------------------------------- */

struct rect {
	int32_t x, y;
	uint32_t w, h;
};

static uint64_t area(struct rect r)
{
	return (uint64_t)r.w * r.h;
}

/* Rectangles inside the 64 x 64 framebuffer, even-aligned, 24 x 16. */
static const struct rect RA = {8, 8, 24, 16};
static const struct rect RB = {36, 30, 24, 16};
static const struct rect RC = {8, 40, 24, 16};
/* Wholly outside the view volume (x in NDC 1.5 .. 2.25). */
static const struct rect R_OUT = {80, 8, 24, 16};

/* The fragments a rectangle inside the framebuffer surely makes: all w * h
 * with standard sample locations (every sample strictly inside its pixel),
 * otherwise the pixels not on its border, whose every point is inside. */
static uint64_t frag_min(struct vkqs_ctx *ctx, struct rect r)
{
	if (ctx->vk->props.limits.standardSampleLocations)
		return area(r);
	return r.w > 2 && r.h > 2 ? (uint64_t)(r.w - 2) * (r.h - 2) : 0;
}

/* Fragment shader invocations for draws of `copies` layers of r: at least
 * one per fragment of the topmost layer (spec "Fragment Shading": a fragment
 * shader "may not be executed" where a fragment shader of a subsequent
 * primitive overwrites all its results, and color.frag has no other side
 * effects; otherwise "at least one fragment shader must be executed"); one
 * per fragment per layer is 18.4's description.  Helper invocations for
 * derivatives at most double it for two triangles on even-aligned 2 x 2
 * quads, so only beyond that is CompatibilityWarning. */
static void add_fs(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t copies,
		   uint32_t per_fragment)
{
	add(e, FS, frag_min(ctx, r) * per_fragment, 2 * area(r) * per_fragment * copies,
	    UNBOUNDED);
}

/* One non-indexed draw of rect.vert's two triangles (6 vertices), wholly
 * inside the view volume:
 * - input assembly: 6 vertices, 2 primitives (no incomplete primitive);
 * - vertex shader: "at least once for each vertex specified by a drawing
 *   command" (Vertex Shader Execution); 6 distinct vertex indices, no reuse;
 * - clipping invocations: each primitive "reaches the primitive clipping
 *   stage" once; clipping primitives: "If at least one vertex of the input
 *   primitive lies inside the clipping volume, the counter is incremented
 *   by one or more" (so no upper bound);
 * - fragments: add_fs. */
static void add_rect_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r,
			  uint32_t instances)
{
	add_natural(e, IA_V, 6ull * instances);
	add_natural(e, IA_P, 2ull * instances);
	add_natural(e, VS, 6ull * instances);
	add_natural(e, CLIP_INV, 2ull * instances);
	add_lower(e, CLIP_PRIM, 2ull * instances);
	add_fs(ctx, e, r, instances, 1);
}

/* The same draw wholly outside the view volume: the primitives still reach
 * clipping, no vertex is inside ("Otherwise, the counter is incremented by
 * zero or more"), and no fragment exists, so no fragment shader runs. */
static void add_outside_draw(struct expect *e)
{
	add_natural(e, IA_V, 6);
	add_natural(e, IA_P, 2);
	add_natural(e, VS, 6);
	add_natural(e, CLIP_INV, 2);
	add_lower(e, CLIP_PRIM, 0);
}

/* stats_copies.geom on rect.vert's two triangles: 2 instanced invocations
 * and 3 output primitives per input triangle (see the shader); clipping
 * counts what reaches it, the geometry shader's 6 triangles, all inside;
 * the three copies of each triangle overlap (add_fs). */
static void add_geom_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	add_natural(e, IA_V, 6);
	add_natural(e, IA_P, 2);
	add_natural(e, VS, 6);
	add_natural(e, GS_INV, 4);
	add_natural(e, GS_PRIM, 6);
	add_natural(e, CLIP_INV, 6);
	add_lower(e, CLIP_PRIM, 6);
	add_fs(ctx, e, r, 3, 1);
}

/* stats_triangle.tesc/.tese on 6 vertices as 3-point patches: 2 patches
 * (the input assembler's primitives), a control shader for each (18.4:
 * "incremented once for each patch for which a tessellation control shader
 * is invoked"); with every level 1 the tessellator makes one triangle of 3
 * vertices per patch and the evaluation shader is invoked "at least once
 * for each unique vertex generated by the tessellator"; 2 triangles reach
 * clipping. */
static void add_tess_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	add_natural(e, IA_V, 6);
	add_natural(e, IA_P, 2);
	add_natural(e, VS, 6);
	add_natural(e, TCS, 2);
	add_natural(e, TES, 6);
	add_natural(e, CLIP_INV, 2);
	add_lower(e, CLIP_PRIM, 2);
	add_fs(ctx, e, r, 1, 1);
}

/* Binds p with rect.vert's push constants for r; the caller draws. */
static void bind_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      struct rect r)
{
	struct vkqs_rect_push pc = {
		{(float)r.x, (float)r.y, (float)r.x + (float)r.w, (float)r.y + (float)r.h},
		{(float)FB, (float)FB},
		0.5f,
		0.0f,
	};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
}

static void draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const struct vkqs_target *t, struct rect r)
{
	vkqs_draw_rect(ctx, cb, p, t, (float)r.x, (float)r.y, (float)r.x + (float)r.w,
		       (float)r.y + (float)r.h, 0.5f);
}

/* Binds a stats_grid.vert pipeline: columns every 8 pixels (.extra) from
 * x 8, rows at y 8 and 24; the caller draws. */
static void bind_grid(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p)
{
	struct vkqs_rect_push pc = {{8.0f, 8.0f, 0.0f, 24.0f}, {(float)FB, (float)FB}, 0.5f, 8.0f};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
}

static struct vkqs_buffer *host_buffer_with(struct vkqs_ctx *ctx, const void *data, size_t size,
					    VkBufferUsageFlags usage)
{
	struct vkqs_buffer *b = vkqs_buffer_host(ctx, size, usage);
	memcpy(b->map, data, size);
	vkqs_buffer_flush(ctx, b);
	return b;
}

/* The common graphics set-up ------------------------------------------------ */

struct gfx {
	struct vkqs_target *t;
	VkQueryPool pool;
	VkCommandBuffer cb;
	uint32_t mask;
};

static void require_stats(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
}

/* A 64 x 64 target, a pool of `queries` queries with statistics `mask`, a
 * command buffer that resets them (18.2: reset before use, outside a
 * render pass). */
static struct gfx gfx_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples, bool depth,
			    uint32_t mask, uint32_t queries)
{
	struct gfx g;
	require_stats(ctx);
	if (mask & GEOM_BITS)
		vkqs_require_feature(ctx, "geometryShader");
	if (mask & TESS_BITS)
		vkqs_require_feature(ctx, "tessellationShader");
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	g.t = vkqs_target_create(ctx, FB, FB, samples, depth);
	g.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, queries, mask);
	g.mask = mask;
	g.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(g.cb, g.pool, 0, queries);
	return g;
}

static void gfx_submit(struct vkqs_ctx *ctx, const struct gfx *g)
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, g->cb);
}

/* One render pass instance holding query 0 around one draw of r with p
 * (the query begins and ends inside the subpass: no load operation in
 * it); submits and waits. */
static void query_one_draw(struct vkqs_ctx *ctx, const struct gfx *g,
			   const struct vkqs_pipeline *p, struct rect r)
{
	vkqs_target_begin(ctx, g->cb, g->t, 1.0f);
	D->vkCmdBeginQuery(g->cb, g->pool, 0, 0);
	draw(ctx, g->cb, p, g->t, r);
	D->vkCmdEndQuery(g->cb, g->pool, 0);
	vkqs_target_end(ctx, g->cb);
	gfx_submit(ctx, g);
}

/* The counters this device's pools may hold: geometry and tessellation
 * bits only with those features. */
static uint32_t supported_bits(struct vkqs_ctx *ctx)
{
	uint32_t m = CORE;
	if (vkqs_device_feature(&ctx->vk->info, "geometryShader"))
		m |= GEOM_BITS;
	if (vkqs_device_feature(&ctx->vk->info, "tessellationShader"))
		m |= TESS_BITS;
	return m;
}

/* Compute ------------------------------------------------------------------ */

struct comp {
	struct vkqs_compute *pipe;
	struct vkqs_buffer *buf;
	uint32_t words;
};

/* stats_count.comp writing into a zeroed host buffer of `words` words
 * (more than any dispatch here writes, so stray writes show). */
static struct comp *compute_setup(struct vkqs_ctx *ctx, uint32_t words)
{
	struct comp *c = vkqs_alloc(ctx, sizeof(*c));
	c->words = words;
	c->buf = vkqs_buffer_host(ctx, words * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(c->buf->map, 0, words * 4ull);
	vkqs_buffer_flush(ctx, c->buf);
	c->pipe = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp), c->buf, 0, 0);
	return c;
}

static void compute_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct comp *c)
{
	vkqs_cmd_bind_compute(ctx, cb, c->pipe);
}

/* Orders one dispatch's buffer writes before the next dispatch's
 * read-modify-write and before host reads. */
static void compute_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
				 VK_ACCESS_HOST_READ_BIT,
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
				VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
				1, &mb, 0, NULL, 0, NULL);
}

/* 8 invocations per workgroup: stats_count.comp's local_size 4 x 2 x 1. */
#define LOCAL_SIZE 8u

/* The dispatches ran: word i is `times` for every flattened global id
 * i < invocations and 0 beyond.  Without this, a counter of 0 could come
 * from a dispatch that never ran rather than from the counter. */
static void compute_check_buffer(struct vkqs_ctx *ctx, const struct comp *c,
				 uint32_t invocations, uint32_t times)
{
	vkqs_buffer_invalidate(ctx, c->buf);
	const uint32_t *v = (const uint32_t *)c->buf->map;
	uint32_t bad = 0, first = 0;
	for (uint32_t i = 0; i < c->words; i++) {
		uint32_t want = i < invocations ? times : 0;
		if (v[i] != want && bad++ == 0)
			first = i;
	}
	VKQS_EXPECTF(ctx, bad == 0,
		     "the dispatches did not run as written: %u of %u buffer words wrong, first "
		     "word %u is %u, expected %u",
		     bad, c->words, first, v[first], first < invocations ? times : 0);
}

/* 18.4: compute shader invocations count "every time the compute shader is
 * invoked"; "Implementations may skip the execution of certain compute
 * shader invocations or execute additional compute shader invocations ...
 * as long as the results of rendering otherwise remain unchanged".  Every
 * invocation here writes its own word, so none can be skipped: at least
 * groups * 8; more is legal and not portable. */
static void add_dispatch(struct expect *e, uint32_t x, uint32_t y, uint32_t z)
{
	add_natural(e, CS, (uint64_t)x * y * z * LOCAL_SIZE);
}

/* Secondary command buffers -------------------------------------------------- */

/* A secondary command buffer of q's pool, begun with the inheritance of
 * `stats` (and, when t, continuing t's render pass, subpass 0, with the
 * viewport and scissor set: dynamic state is not inherited). */
static VkCommandBuffer secondary_begin(struct vkqs_ctx *ctx, struct vkqs_queue *q,
				       const struct vkqs_target *t, uint32_t stats)
{
	VkCommandBufferInheritanceInfo ii = {.pipelineStatistics = stats};
	return vkqs_cmd_begin_secondary(ctx, q, t, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
					&ii);
}

/* single: one counter alone ------------------------------------------------ */

/* The work that shows counter s, recorded twice, each time inside its own
 * query (query 0 is read at 64 bits, query 1 at 32): rect A for the core
 * graphics counters, the geometry or tessellation pipeline for theirs, a
 * (3, 2, 1) dispatch for compute.  A query of graphics work begins and ends
 * inside the subpass (no load operation inside it); the dispatch is
 * recorded outside any render pass. */
static void single(struct vkqs_ctx *ctx, const void *param)
{
	enum stat s = *(const enum stat *)param;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(s), 2);
	struct expect e = expect_zero("one counter alone");

	if (s == CS) {
		struct comp *c = compute_setup(ctx, 64);
		compute_bind(ctx, g.cb, c);
		for (uint32_t q = 0; q < 2; q++) {
			D->vkCmdBeginQuery(g.cb, g.pool, q, 0);
			D->vkCmdDispatch(g.cb, 3, 2, 1);
			D->vkCmdEndQuery(g.cb, g.pool, q);
			compute_barrier(ctx, g.cb);
		}
		add_dispatch(&e, 3, 2, 1);
		gfx_submit(ctx, &g);
		compute_check_buffer(ctx, c, 48, 2);
	} else {
		struct gdesc gd = {
			.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
			.geom = (BIT(s) & GEOM_BITS) != 0,
			.tess = (BIT(s) & TESS_BITS) != 0,
		};
		const struct vkqs_pipeline *p = gfx_pipeline(ctx, g.t, &gd);
		vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
		for (uint32_t q = 0; q < 2; q++) {
			D->vkCmdBeginQuery(g.cb, g.pool, q, 0);
			draw(ctx, g.cb, p, g.t, RA);
			D->vkCmdEndQuery(g.cb, g.pool, q);
		}
		vkqs_target_end(ctx, g.cb);
		if (gd.geom)
			add_geom_draw(ctx, &e, RA);
		else if (gd.tess)
			add_tess_draw(ctx, &e, RA);
		else
			add_rect_draw(ctx, &e, RA, 1);
		gfx_submit(ctx, &g);
	}
	check_query_width(ctx, g.pool, 0, g.mask, &e, true);
	check_query_width(ctx, g.pool, 1, g.mask, &e, false);
}

static const enum stat single_params[] = {IA_V, IA_P, VS, GS_INV, GS_PRIM, CLIP_INV,
					  CLIP_PRIM, FS, TCS, TES, CS};

static void single_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", stat_names[*(const enum stat *)param]);
}

/* order: many counters in one pool, the layout of the values ------------------ */

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

#define GUARD_BYTE 0xa5
/* Words of the result region: values, availability, one guard word; and
 * two guard words before it for the copy. */
#define PRE_WORDS 2u

static bool untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != GUARD_BYTE)
			return false;
	return true;
}

/* One query holding, in this order: a (3, 2, 1) dispatch, then a render
 * pass instance with rect A, rect A wholly outside the view volume, and
 * (SET_ALL) the geometry and tessellation pipelines' draws of rects B and
 * C.  The counters' expected values then differ wherever they can:
 *   core: IA_V 12, IA_P 4, VS 12, CLIP_INV 4, CLIP_PRIM >= 2, FS >= 384,
 *         CS 48
 * (input-assembly vertices and vertex-shader invocations, and
 * input-assembly primitives and clipping invocations, are equal for any
 * draw without vertex reuse or a geometry stage; SET_ALL's geometry draw
 * separates the second pair).  A value written to another counter's slot
 * falls below that counter's lower bound for at least one of the two
 * swapped (the larger one's slot gets the smaller value). */
static void order(struct vkqs_ctx *ctx, const void *param)
{
	const struct order_param *p = param;
	uint32_t mask = p->set == SET_CORE     ? CORE
			: p->set == SET_SPARSE ? BIT(IA_P) | BIT(CLIP_PRIM) | BIT(CS)
					       : ALL_BITS;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	const struct vkqs_pipeline *rect = rect_pipeline(ctx, g.t);
	const struct vkqs_pipeline *geom = NULL, *tess = NULL;
	if (p->set == SET_ALL) {
		struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .geom = true};
		struct gdesc td = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .tess = true};
		geom = gfx_pipeline(ctx, g.t, &gd);
		tess = gfx_pipeline(ctx, g.t, &td);
	}
	struct comp *c = compute_setup(ctx, 64);
	struct expect e = expect_zero("a dispatch and a render pass instance in one query");

	uint32_t n = nvalues(mask);
	size_t word = p->is64 ? 8 : 4;
	size_t stride = (n + 2) * word; /* values, availability, guard */
	size_t total = (PRE_WORDS * word) + stride;
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, total, 0);
	memset(dst->map, GUARD_BYTE, total);
	vkqs_buffer_flush(ctx, dst);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	add_dispatch(&e, 3, 2, 1);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	draw(ctx, g.cb, rect, g.t, RA);
	add_rect_draw(ctx, &e, RA, 1);
	draw(ctx, g.cb, rect, g.t, R_OUT);
	add_outside_draw(&e);
	if (geom) {
		draw(ctx, g.cb, geom, g.t, RB);
		add_geom_draw(ctx, &e, RB);
		draw(ctx, g.cb, tess, g.t, RC);
		add_tess_draw(ctx, &e, RC);
	}
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	loosen_for_clears(&e);
	compute_barrier(ctx, g.cb);

	VkQueryResultFlags flags = VK_QUERY_RESULT_WAIT_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (p->is64 ? VK_QUERY_RESULT_64_BIT : 0);
	uint8_t *region = dst->map + PRE_WORDS * word;
	if (p->method == METHOD_COPY) {
		D->vkCmdCopyQueryPoolResults(g.cb, g.pool, 0, 1, dst->buf, PRE_WORDS * word, stride,
					     flags);
		vkqs_cmd_transfer_to_host_barrier(ctx, g.cb);
		gfx_submit(ctx, &g);
		vkqs_buffer_invalidate(ctx, dst);
	} else {
		gfx_submit(ctx, &g);
		VKQS_ASSERT_VK(ctx,
			       D->vkGetQueryPoolResults(DEV, g.pool, 0, 1, stride, region, stride,
							flags),
			       VK_SUCCESS);
	}
	compute_check_buffer(ctx, c, 48, 1);

	uint64_t vals[NSTATS];
	for (uint32_t k = 0; k < n; k++)
		vals[k] = vkqs_load_word(region + k * word, word);
	check_values(ctx, &e, mask, vals, p->method == METHOD_COPY ? "copied" : "got");
	/* 18.2: with WITH_AVAILABILITY "the final integer value written for
	 * each query is non-zero if the query's status was available": right
	 * after the n values, and nothing after it. */
	VKQS_EXPECTF(ctx, vkqs_load_word(region + n * word, word) != 0,
		     "availability word (after the %u values) is 0 for an available query", n);
	VKQS_EXPECTF(ctx, untouched(region + (n + 1) * word, word),
		     "the word after the availability word (byte %zu of the result) was written",
		     (n + 1) * word);
	if (p->method == METHOD_COPY)
		VKQS_EXPECTF(ctx, untouched(dst->map, PRE_WORDS * word),
			     "bytes before dstOffset %zu were written", PRE_WORDS * word);
}

/* input_assembly ------------------------------------------------------------ */

/* stats_grid.vert's vertices, drawn with each topology; `prim_verts` are the
 * vertices of complete primitives.  18.4: input assembly counts "the number
 * of vertices processed by the input assembly stage.  Vertices
 * corresponding to incomplete primitives may contribute to the count" and
 * "the number of primitives processed ... Incomplete primitives may be
 * counted"; so each lies between the complete primitives' count and the
 * count with the incomplete one.  The vertex shader runs at least once for
 * the vertices of complete primitives (those of an incomplete one may be
 * dropped before shading); clipping sees the complete primitives only. */
struct topo_param {
	const char *name;
	VkPrimitiveTopology topology;
	uint32_t count;      /* vertexCount */
	uint32_t prims;      /* complete primitives */
	uint32_t prim_verts; /* vertices of complete primitives */
	bool incomplete;     /* an incomplete primitive at the end */
};

static const struct topo_param topo_params[] = {
	{"point_list", VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 7, 7, 7, false},
	{"line_list_incomplete", VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 7, 3, 6, true},
	{"line_strip", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 7, 6, 7, false},
	{"triangle_list_incomplete", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 8, 2, 6, true},
	{"triangle_strip", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7, 5, 7, false},
	{"triangle_fan", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 7, 5, 7, false},
	{"triangle_strip_two_vertices", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 2, 0, 0, true},
};

static void topo_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct topo_param *)param)->name);
}

#define IA_MASK (BIT(IA_V) | BIT(IA_P) | BIT(VS) | BIT(CLIP_INV))

static void topology(struct vkqs_ctx *ctx, const void *param)
{
	const struct topo_param *p = param;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, IA_MASK, 1);
	struct gdesc gd = {.topology = p->topology, .grid = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_grid(ctx, g.cb, pipe);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, p->count, 1, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero(p->name);
	add_range(&e, IA_V, p->prim_verts, p->count);
	add_range(&e, IA_P, p->prims, p->prims + (p->incomplete ? 1 : 0));
	add_range(&e, VS, p->prim_verts, p->count);
	add_natural(&e, CLIP_INV, p->prims);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Indices 0 1 2 3 RESTART 4 5 6 7 of a triangle strip: two strips of two
 * triangles.  18.4: "If primitive restart is enabled, restarting the
 * primitive topology has no effect on the count": 4 primitives.  The
 * restart index is no vertex, though counting it as one processed by the
 * input assembler is a reading 18.4 does not exclude (8 or 9); the vertex
 * shader runs for the 8 vertices. */
static void primitive_restart(struct vkqs_ctx *ctx, const void *param)
{
	static const uint16_t idx[] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, IA_MASK, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .grid = true,
			   .restart = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);
	struct vkqs_buffer *ib = host_buffer_with(ctx, idx, sizeof(idx),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_grid(ctx, g.cb, pipe);
	D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDrawIndexed(g.cb, VKQS_ARRAY_LEN(idx), 1, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero("indexed triangle strip with a restart");
	add_range(&e, IA_V, 8, 9);
	add_natural(&e, IA_P, 4);
	add_natural(&e, VS, 8);
	add_natural(&e, CLIP_INV, 4);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* rect.vert's vertices 1 and 3, and 2 and 5, are the same corners: indices
 * 0 1 2 1 4 2 draw rect A with 4 distinct vertices.  "Vertex Shader
 * Execution": "If the same vertex is specified multiple times in a drawing
 * command (e.g. by including the same index value multiple times in an
 * index buffer) the implementation may reuse the results of vertex
 * shading": at least 4 invocations per instance, up to 6 without reuse.
 * The input assembler still processes 6 vertices per instance. */
static const uint16_t reuse_indices[] = {0, 1, 2, 1, 4, 2};

static void add_reuse_draw(struct vkqs_ctx *ctx, struct expect *e, uint32_t instances)
{
	add_natural(e, IA_V, 6ull * instances);
	add_natural(e, IA_P, 2ull * instances);
	add_range(e, VS, 4ull * instances, 6ull * instances);
	add_natural(e, CLIP_INV, 2ull * instances);
	add_lower(e, CLIP_PRIM, 2ull * instances);
	add_fs(ctx, e, RA, instances, 1);
}

static void indexed_vertex_reuse(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	struct vkqs_buffer *ib = host_buffer_with(ctx, reuse_indices, sizeof(reuse_indices),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDrawIndexed(g.cb, 6, 1, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero("indexed draw reusing vertices");
	add_reuse_draw(ctx, &e, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Three instances of rect A: every vertex of every instance is a distinct
 * vertex (InstanceIndex differs), so 18 vertices, 6 primitives, 18
 * vertex-shader invocations; the copies overlap, so fragment shading is
 * bounded below by one layer (add_fs). */
static void instanced(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, 6, 3, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero("three instances");
	add_rect_draw(ctx, &e, RA, 3);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The draw parameters come from a buffer: {6 vertices, 2 instances} or
 * {6 indices (reuse_indices), 2 instances}.  The counters count the
 * vertices and instances the buffer names. */
static void draw_indirect_common(struct vkqs_ctx *ctx, bool indexed)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	struct vkqs_buffer *args;
	if (indexed) {
		VkDrawIndexedIndirectCommand cmd = {6, 2, 0, 0, 0};
		args = host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	} else {
		VkDrawIndirectCommand cmd = {6, 2, 0, 0};
		args = host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	}
	struct vkqs_buffer *ib = host_buffer_with(ctx, reuse_indices, sizeof(reuse_indices),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	if (indexed) {
		D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
		D->vkCmdDrawIndexedIndirect(g.cb, args->buf, 0, 1, 0);
	} else {
		D->vkCmdDrawIndirect(g.cb, args->buf, 0, 1, 0);
	}
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero(indexed ? "vkCmdDrawIndexedIndirect" : "vkCmdDrawIndirect");
	if (indexed)
		add_reuse_draw(ctx, &e, 2);
	else
		add_rect_draw(ctx, &e, RA, 2);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

static void draw_indirect(struct vkqs_ctx *ctx, const void *param)
{
	draw_indirect_common(ctx, false);
}

static void draw_indexed_indirect(struct vkqs_ctx *ctx, const void *param)
{
	draw_indirect_common(ctx, true);
}

/* clipping -------------------------------------------------------------------- */

/* Rect A inside; a rect crossing the left edge (x -16 .. 24; each of its
 * triangles has a vertex inside, so clipping outputs one or more primitives
 * each, and the visible 24 x 16 part makes its fragments); one wholly
 * outside (clipping outputs zero or more, no fragment); one whose vertices
 * are all outside but which covers the whole framebuffer (clipping outputs
 * "zero or more", yet all 64 x 64 fragments exist: a driver that drops
 * primitives whose vertices are all outside draws nothing). */
enum clip_kind { CLIP_INSIDE, CLIP_PARTIAL, CLIP_OUTSIDE, CLIP_COVERING };

static const enum clip_kind clip_params[] = {CLIP_INSIDE, CLIP_PARTIAL, CLIP_OUTSIDE,
					     CLIP_COVERING};
static const char *const clip_names[] = {"inside", "partially_outside", "wholly_outside",
					 "vertices_outside_covering_framebuffer"};

static void clip_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", clip_names[*(const enum clip_kind *)param]);
}

static void clipping(struct vkqs_ctx *ctx, const void *param)
{
	enum clip_kind k = *(const enum clip_kind *)param;
	static const struct rect partial = {-16, 8, 40, 16}, visible = {0, 8, 24, 16};
	/* Diagonal from (96, -40) to (-32, 100): 35x + 32y = 2080 holds at no
	 * pixel centre, so a clipped diagonal's rounding moves no sample. */
	static const struct rect covering = {-32, -40, 128, 140}, whole = {0, 0, FB, FB};
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	struct rect r = k == CLIP_INSIDE    ? RA
			: k == CLIP_PARTIAL ? partial
			: k == CLIP_OUTSIDE ? R_OUT
					    : covering;

	query_one_draw(ctx, &g, pipe, r);

	struct expect e = expect_zero(clip_names[k]);
	switch (k) {
	case CLIP_INSIDE:
		add_rect_draw(ctx, &e, RA, 1);
		break;
	case CLIP_PARTIAL:
		add_natural(&e, IA_V, 6);
		add_natural(&e, IA_P, 2);
		add_natural(&e, VS, 6);
		add_natural(&e, CLIP_INV, 2);
		add_lower(&e, CLIP_PRIM, 2);
		add_fs(ctx, &e, visible, 1, 1);
		break;
	case CLIP_OUTSIDE:
		add_outside_draw(&e);
		break;
	case CLIP_COVERING:
		add_outside_draw(&e);
		/* The rectangle's edges lie outside the framebuffer: every
		 * sample of every pixel is inside, wherever it lies. */
		add(&e, FS, area(whole), 2 * area(whole), UNBOUNDED);
		break;
	}
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* fragment --------------------------------------------------------------------- */

#define FRAG_MASK (BIT(VS) | BIT(FS))

/* Without sample shading the fragment shader runs "at least once" per
 * fragment whatever the sample count; 18.4's description is one per
 * fragment (add_fs). */
static void fragment_rect(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct gfx g = gfx_begin(ctx, samples, false, FRAG_MASK, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	query_one_draw(ctx, &g, pipe, RA);

	struct expect e = expect_zero("rect A");
	add_natural(&e, VS, 6);
	add_fs(ctx, &e, RA, 1, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

static const VkSampleCountFlagBits sample_params[] = {VK_SAMPLE_COUNT_1_BIT,
						      VK_SAMPLE_COUNT_4_BIT};

static void samples_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "samples_%u", (unsigned)*(const VkSampleCountFlagBits *)param);
}

/* minSampleShading 1.0 at 4 samples: "Sample Shading": at least
 * max(ceil(minSampleShading * rasterizationSamples), 1) = 4 invocations per
 * fully covered pixel ("additional invocations must be executed as
 * specified"). */
static void fragment_sample_shading(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_exact_coverage(ctx);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_4_BIT, false, FRAG_MASK, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .sample_shading = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);

	query_one_draw(ctx, &g, pipe, RA);

	struct expect e = expect_zero("rect A, 4 samples, minSampleShading 1.0");
	add_natural(&e, VS, 6);
	add_fs(ctx, &e, RA, 1, 4);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Depth cleared to 0.0; stats_early_tests.frag declares EarlyFragmentTests.
 * Query 0 draws rect A at depth 0.5 with LESS: the early depth test
 * discards every fragment and "A fragment shader must not be executed if a
 * fragment operation that executes before fragment shading discards the
 * fragment" ("Fragment Shading"): 0 invocations.  Query 1 draws it with
 * GREATER (the same shader runs) as the control. */
static void fragment_early_tests_occluded(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, true, FRAG_MASK, 2);
	struct vkqs_pipeline_desc desc = {
		.depth_test = true,
		.depth_compare = VK_COMPARE_OP_LESS,
		.frag_spv = stats_early_tests_frag,
		.frag_size = sizeof(stats_early_tests_frag),
	};
	const struct vkqs_pipeline *less = vkqs_pipeline_rect(ctx, g.t, &desc);
	desc.depth_compare = VK_COMPARE_OP_GREATER;
	const struct vkqs_pipeline *greater = vkqs_pipeline_rect(ctx, g.t, &desc);

	vkqs_target_begin(ctx, g.cb, g.t, 0.0f);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	draw(ctx, g.cb, less, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	D->vkCmdBeginQuery(g.cb, g.pool, 1, 0);
	draw(ctx, g.cb, greater, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 1);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect occluded = expect_zero("early depth test fails everywhere");
	add_natural(&occluded, VS, 6);
	check_query(ctx, g.pool, 0, g.mask, &occluded);
	struct expect passing = expect_zero("early depth test passes everywhere");
	add_natural(&passing, VS, 6);
	add_fs(ctx, &passing, RA, 1, 1);
	check_query(ctx, g.pool, 1, g.mask, &passing);
}

/* The scissor excludes rect A: "Scissor Test" is a fragment operation
 * before fragment shading, so no fragment shader runs; clipping is not
 * affected (the vertices are inside the view volume). */
static void fragment_scissor_excludes_all(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	VkRect2D sc = {{48, 48}, {16, 16}};

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	D->vkCmdSetScissor(g.cb, 0, 1, &sc);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	draw(ctx, g.cb, pipe, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e = expect_zero("rect A outside the scissor");
	add_natural(&e, IA_V, 6);
	add_natural(&e, IA_P, 2);
	add_natural(&e, VS, 6);
	add_natural(&e, CLIP_INV, 2);
	add_lower(&e, CLIP_PRIM, 2);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.4: "If a pipeline has rasterizerDiscardEnable enabled, implementations
 * may discard primitives after the final pre-rasterization shader stage.
 * As a result, if rasterizerDiscardEnable is enabled, the clipping input
 * and output primitives counters may not be incremented": 0 up to the
 * usual 2; the vertex stages count as usual; no fragment exists. */
static void fragment_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .discard = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);

	query_one_draw(ctx, &g, pipe, RA);

	struct expect e = expect_zero("rasterizer discard");
	add_natural(&e, IA_V, 6);
	add_natural(&e, IA_P, 2);
	add_natural(&e, VS, 6);
	add_range(&e, CLIP_INV, 0, 2);
	add_range(&e, CLIP_PRIM, 0, 2);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* compute ----------------------------------------------------------------------- */

struct dispatch_param {
	uint32_t x, y, z;
};

static const struct dispatch_param dispatch_params[] = {
	{1, 1, 1},
	{3, 2, 1},
	{2, 3, 4},
};

static void dispatch_name(const void *param, char *buf, size_t size)
{
	const struct dispatch_param *p = param;
	snprintf(buf, size, "%u_%u_%u", p->x, p->y, p->z);
}

/* Reads the one query of a compute pool after `cb` ran on q. */
static void compute_query(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkQueryPool pool,
			  VkCommandBuffer cb, uint32_t mask, const struct expect *e)
{
	vkqs_cmd_submit_wait(ctx, q, cb);
	check_query(ctx, pool, 0, mask, e);
}

/* Pool: every core counter; the graphics ones see no draw and stay 0. */
static void compute_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	const struct dispatch_param *p = param;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	uint32_t inv = p->x * p->y * p->z * LOCAL_SIZE;
	struct comp *c = compute_setup(ctx, inv + 64);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, p->x, p->y, p->z);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	struct expect e = expect_zero("vkCmdDispatch");
	add_dispatch(&e, p->x, p->y, p->z);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	compute_check_buffer(ctx, c, inv, 1);
}

static void compute_dispatch_indirect(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	VkDispatchIndirectCommand cmd = {3, 2, 1};
	struct vkqs_buffer *args =
		host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	struct comp *c = compute_setup(ctx, 128);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatchIndirect(g.cb, args->buf, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	struct expect e = expect_zero("vkCmdDispatchIndirect (3, 2, 1)");
	add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	compute_check_buffer(ctx, c, 48, 1);
}

/* Two (3, 2, 1) dispatches in one query add up (each adds 1 to the same
 * 48 words: the buffer ends at 2). */
static void compute_two_dispatches(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(CS), 1);
	struct comp *c = compute_setup(ctx, 128);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	compute_barrier(ctx, g.cb);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	struct expect e = expect_zero("two vkCmdDispatch (3, 2, 1)");
	add_dispatch(&e, 3, 2, 1);
	add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	compute_check_buffer(ctx, c, 48, 2);
}

/* A group count of zero dispatches no workgroup, so no invocation has an
 * effect; only 18.4's latitude to "execute additional compute shader
 * invocations" could make the count non-zero (CompatibilityWarning). */
static void compute_zero_groups(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, BIT(CS), 1);
	struct comp *c = compute_setup(ctx, 64);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 0, 1, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	struct expect e = expect_zero("vkCmdDispatch (0, 1, 1)");
	add_natural(&e, CS, 0);
	compute_query(ctx, &ctx->vk->gfx, g.pool, g.cb, g.mask, &e);
	compute_check_buffer(ctx, c, 0, 1);
}

/* 18.4: statistics queries "are available on queue families supporting
 * either graphics or compute operations".  On a compute-only family the
 * pool may hold only compute counters (VUID-vkCmdBeginQuery-queryType-00805
 * forbids graphics ones there). */
static void compute_only_queue(struct vkqs_ctx *ctx, const void *param)
{
	require_stats(ctx);
	struct vkqs_queue *q = vkqs_require_queue(ctx, &ctx->vk->compute, "compute-only");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, BIT(CS));
	struct comp *c = compute_setup(ctx, 128);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);

	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	compute_bind(ctx, cb, c);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDispatch(cb, 3, 2, 1);
	D->vkCmdEndQuery(cb, pool, 0);
	compute_barrier(ctx, cb);
	struct expect e = expect_zero("vkCmdDispatch (3, 2, 1) on the compute-only queue");
	add_dispatch(&e, 3, 2, 1);
	compute_query(ctx, q, pool, cb, BIT(CS), &e);
	compute_check_buffer(ctx, c, 48, 1);
}

/* scope: what a query contains ------------------------------------------------------ */

/* 18.4: "When a pipeline statistics query begins, all statistics counters
 * are set to zero"; a query counts the commands "recorded between a
 * vkCmdBeginQuery command and a vkCmdEndQuery command" (18.2).  With
 * nothing between them every counter is 0: no work exists that an
 * architecture could count differently. */
static void scope_empty_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	require_stats(ctx);
	uint32_t mask = supported_bits(ctx);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	gfx_submit(ctx, &g);
	struct expect e = expect_zero("empty query outside a render pass");
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Three queries in one subpass, with draws before, between and after them:
 * query 0 holds rect A, query 1 nothing, query 2 rects A and B.  Work
 * outside a query does not leak into it, and each starts at zero. */
static void scope_sequential_queries(struct vkqs_ctx *ctx, const void *param)
{
	require_stats(ctx);
	uint32_t mask = supported_bits(ctx);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 3);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	draw(ctx, g.cb, pipe, g.t, RA);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 1, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 1);
	draw(ctx, g.cb, pipe, g.t, RC);
	D->vkCmdBeginQuery(g.cb, g.pool, 2, 0);
	draw(ctx, g.cb, pipe, g.t, RA);
	draw(ctx, g.cb, pipe, g.t, RB);
	D->vkCmdEndQuery(g.cb, g.pool, 2);
	draw(ctx, g.cb, pipe, g.t, RC);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);

	struct expect e0 = expect_zero("query 0: rect A");
	add_rect_draw(ctx, &e0, RA, 1);
	check_query(ctx, g.pool, 0, g.mask, &e0);
	struct expect e1 = expect_zero("query 1: empty, between draws");
	check_query(ctx, g.pool, 1, g.mask, &e1);
	struct expect e2 = expect_zero("query 2: rects A and B");
	add_rect_draw(ctx, &e2, RA, 1);
	add_rect_draw(ctx, &e2, RB, 1);
	check_query(ctx, g.pool, 2, g.mask, &e2);
}

/* Draws of no vertices and of no instances are no work: all 0. */
static void scope_zero_vertex_draws(struct vkqs_ctx *ctx, const void *param)
{
	require_stats(ctx);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, 0, 1, 0, 0);
	D->vkCmdDraw(g.cb, 6, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);
	struct expect e = expect_zero("draws of 0 vertices and of 0 instances");
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The same query used twice: a first submission counts two draws; a second
 * resets it and runs it empty.  The second result is 0: the counters start
 * at zero at each begin, not where the last use left them. */
static void scope_reused_query_restarts(struct vkqs_ctx *ctx, const void *param)
{
	require_stats(ctx);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	draw(ctx, g.cb, pipe, g.t, RA);
	draw(ctx, g.cb, pipe, g.t, RB);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);
	struct expect first = expect_zero("first use: rects A and B");
	add_rect_draw(ctx, &first, RA, 1);
	add_rect_draw(ctx, &first, RB, 1);
	check_query(ctx, g.pool, 0, g.mask, &first);

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, g.pool, 0, 1);
	vkqs_target_begin(ctx, cb, g.t, 1.0f);
	D->vkCmdBeginQuery(cb, g.pool, 0, 0);
	D->vkCmdEndQuery(cb, g.pool, 0);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct expect second = expect_zero("second use after a reset: empty");
	check_query(ctx, g.pool, 0, g.mask, &second);
}

/* A dispatch inside a query of every core counter: the graphics counters
 * count drawing commands' stages and see none (18.4: counters "accumulated
 * ... for a set of either drawing or dispatching commands"). */
static void scope_dispatch_not_graphics(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	struct comp *c = compute_setup(ctx, 64);

	compute_bind(ctx, g.cb, c);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDispatch(g.cb, 3, 2, 1);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	gfx_submit(ctx, &g);
	compute_check_buffer(ctx, c, 48, 1);
	struct expect e = expect_zero("a dispatch only");
	add_dispatch(&e, 3, 2, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* A draw inside a query of every core counter (begun inside the subpass, so
 * no load operation is in it): no compute shader is invoked. */
static void scope_draw_not_compute(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	query_one_draw(ctx, &g, pipe, RA);
	struct expect e = expect_zero("a draw only");
	add_rect_draw(ctx, &e, RA, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: a query may "both begin and end outside of a render pass instance
 * (i.e. contain entire render pass instances)": it sums the draws of both
 * instances (the instances' load operations may add, 18.2). */
static void scope_spans_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);

	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	draw(ctx, g.cb, pipe, g.t, RA);
	vkqs_target_end(ctx, g.cb);
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	draw(ctx, g.cb, pipe, g.t, RB);
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	gfx_submit(ctx, &g);
	struct expect e = expect_zero("two render pass instances");
	add_rect_draw(ctx, &e, RA, 1);
	add_rect_draw(ctx, &e, RB, 1);
	loosen_for_clears(&e);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: a query's numerical results are state of the query, set by its
 * operation and made undefined only by a reset; vkGetQueryPoolResults and
 * vkCmdCopyQueryPoolResults retrieve them.  So reading twice, and copying
 * afterwards, give the same values: a driver that folds or scales its
 * internal counters while reading them returns different numbers each
 * time. */
static void scope_results_unchanged_by_reads(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	uint32_t n = nvalues(CORE);

	query_one_draw(ctx, &g, pipe, RA);

	uint64_t first[NSTATS], second[NSTATS], copied[NSTATS];
	get_values(ctx, g.pool, 0, 1, CORE, true, first);
	get_values(ctx, g.pool, 0, 1, CORE, true, second);
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, n * 8ull, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cb, g.pool, 0, 1, dst->buf, 0, n * 8ull,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	vkqs_buffer_invalidate(ctx, dst);
	memcpy(copied, dst->map, n * 8ull);

	uint32_t k = 0;
	for (uint32_t s = 0; s < NSTATS; s++) {
		if (!(CORE & BIT(s)))
			continue;
		VKQS_EXPECTF(ctx, second[k] == first[k] && copied[k] == first[k],
			     "value %u (%s): first read %" PRIu64 ", second read %" PRIu64
			     ", copied afterwards %" PRIu64 ": reading changed the result",
			     k, stat_names[s], first[k], second[k], copied[k]);
		k++;
	}
	struct expect e = expect_zero("rect A (first read)");
	add_rect_draw(ctx, &e, RA, 1);
	check_values(ctx, &e, CORE, first, "64-bit");
}

/* secondary: queries and secondary command buffers ------------------------------- */

/* A query begun and ended inside a secondary command buffer that continues
 * the render pass (18.2: "A query must begin and end in the same command
 * buffer"): no inheritance involved. */
static void secondary_query_inside(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, g.t, 0);
	D->vkCmdBeginQuery(sec, g.pool, 0, 0);
	draw(ctx, sec, pipe, g.t, RA);
	D->vkCmdEndQuery(sec, g.pool, 0);
	vkqs_cmd_end(ctx, sec);

	vkqs_target_begin_ex(ctx, g.cb, g.t, 1.0f, 0,
			     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	vkqs_target_end(ctx, g.cb);
	gfx_submit(ctx, &g);
	struct expect e = expect_zero("query inside a secondary");
	add_rect_draw(ctx, &e, RA, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* 18.2: "Queries active in a primary command buffer when secondary command
 * buffers are executed are considered active for those secondary command
 * buffers"; the secondary "must set ... pipelineStatistics ... to
 * conservative values" (VUID-vkCmdExecuteCommands-commandBuffer-00104:
 * every bit of the pool).  The secondary names exactly the pool's bits: a
 * superset is valid too, but the validation layer 1.3.239 checks the
 * inverse (the secondary's bits a subset of the pool's) and would fail it.
 * The primary's query contains the render pass instance (a subpass of
 * secondary contents takes no vkCmdBeginQuery), so its load operation may
 * add (18.2). */
enum inherit_kind { INHERIT_SECONDARY_ONLY, INHERIT_AFTER_PRIMARY_DRAW };

static const enum inherit_kind inherit_params[] = {INHERIT_SECONDARY_ONLY,
						   INHERIT_AFTER_PRIMARY_DRAW};
static const char *const inherit_names[] = {"secondary_only", "after_primary_draw"};

static void inherit_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", inherit_names[*(const enum inherit_kind *)param]);
}

static void secondary_inherited_draw(struct vkqs_ctx *ctx, const void *param)
{
	enum inherit_kind k = *(const enum inherit_kind *)param;
	vkqs_require_feature(ctx, "inheritedQueries");
	uint32_t mask = BIT(IA_V) | BIT(VS) | BIT(CLIP_INV) | BIT(FS);
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	const struct vkqs_pipeline *pipe = rect_pipeline(ctx, g.t);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, g.t, mask);
	draw(ctx, sec, pipe, g.t, RB);
	vkqs_cmd_end(ctx, sec);

	struct expect e = expect_zero(k == INHERIT_AFTER_PRIMARY_DRAW
					      ? "a primary's draw, then a secondary's draw"
					      : "a secondary's draw");
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	if (k == INHERIT_AFTER_PRIMARY_DRAW) {
		vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
		draw(ctx, g.cb, pipe, g.t, RA);
		vkqs_target_end(ctx, g.cb);
		add_rect_draw(ctx, &e, RA, 1);
	}
	vkqs_target_begin_ex(ctx, g.cb, g.t, 1.0f, 0,
			     VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	vkqs_target_end(ctx, g.cb);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	gfx_submit(ctx, &g);
	add_rect_draw(ctx, &e, RB, 1);
	loosen_for_clears(&e);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The same for a dispatch in a secondary outside any render pass: no load
 * operation, so the graphics counters stay 0 exactly. */
static void secondary_inherited_dispatch(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_require_feature(ctx, "inheritedQueries");
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE, 1);
	struct comp *c = compute_setup(ctx, 64);
	VkCommandBuffer sec = secondary_begin(ctx, &ctx->vk->gfx, NULL, CORE);
	compute_bind(ctx, sec, c);
	D->vkCmdDispatch(sec, 3, 2, 1);
	vkqs_cmd_end(ctx, sec);

	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdExecuteCommands(g.cb, 1, &sec);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	compute_barrier(ctx, g.cb);
	gfx_submit(ctx, &g);
	compute_check_buffer(ctx, c, 48, 1);
	struct expect e = expect_zero("a secondary's dispatch");
	add_dispatch(&e, 3, 2, 1);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* geometry and tessellation stages ----------------------------------------------- */

/* Every counter the pipeline touches, with its stage in place: clipping
 * then counts the geometry shader's output (6 triangles), not the input
 * assembler's 2, which separates the two counters the core draws cannot. */
static void geometry_counts(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t mask = CORE_GRAPHICS | GEOM_BITS;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .geom = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);

	query_one_draw(ctx, &g, pipe, RA);
	struct expect e = expect_zero("instanced geometry shader");
	add_geom_draw(ctx, &e, RA);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

static void tessellation_counts(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t mask = CORE_GRAPHICS | TESS_BITS;
	struct gfx g = gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, mask, 1);
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .tess = true};
	const struct vkqs_pipeline *pipe = gfx_pipeline(ctx, g.t, &gd);

	query_one_draw(ctx, &g, pipe, RA);
	struct expect e = expect_zero("two triangle patches");
	add_tess_draw(ctx, &e, RA);
	check_query(ctx, g.pool, 0, g.mask, &e);
}

/* The table ------------------------------------------------------------------------- */

#define COUNTERS_SPEC \
	"18.4: each counter's definition (lower bound: Fail), 'Various device architectures " \
	"will count these values differently' (more than the definition gives: " \
	"CompatibilityWarning)"
#define BIT_ORDER_SPEC \
	"18.2: pipeline statistics queries write one integer value for each bit enabled " \
	"in pipelineStatistics, in bit order starting from the least significant bit, " \
	"then the availability word"
#define IA_SPEC \
	"18.4: input assembly vertices/primitives: vertices corresponding to incomplete " \
	"primitives may contribute; incomplete primitives may be counted"
#define ZERO_SPEC \
	"18.4: when a pipeline statistics query begins, all statistics counters are set " \
	"to zero; 18.2: queries count the commands recorded between vkCmdBeginQuery and " \
	"vkCmdEndQuery"
#define CS_SPEC \
	"18.4: compute shader invocations: incremented every time the compute shader is " \
	"invoked; invocations may be skipped only if the results remain unchanged"
#define FS_SPEC \
	"18.4: fragment shader invocations: incremented each time the fragment shader is " \
	"invoked; Fragment Shading: at least one invocation per fragment not discarded " \
	"by an earlier fragment operation, none for a discarded one"
#define INHERIT_SPEC \
	"18.2: queries active in a primary command buffer when secondary command buffers " \
	"are executed are considered active for those secondaries (inheritedQueries, " \
	"VkCommandBufferInheritanceInfo::pipelineStatistics conservative)"

static const struct vkqs_case cases[] = {
	{.name = "bits.single",
	 .fn = single,
	 .spec = COUNTERS_SPEC " (a pool of one counter; one query read at 64 bits, one at 32)",
	 .params = VKQS_PARAMS(single_params, single_name)},
	{.name = "bits.order",
	 .fn = order,
	 .spec = BIT_ORDER_SPEC "; " COUNTERS_SPEC,
	 .params = VKQS_PARAMS(order_params, order_name)},
	{.name = "input_assembly.topology",
	 .fn = topology,
	 .spec = IA_SPEC "; Vertex Shader Execution: at least once for each vertex",
	 .params = VKQS_PARAMS(topo_params, topo_name)},
	{.name = "input_assembly.primitive_restart",
	 .fn = primitive_restart,
	 .spec = "18.4: if primitive restart is enabled, restarting the primitive topology "
		 "has no effect on the input assembly primitives count"},
	{.name = "input_assembly.indexed_vertex_reuse",
	 .fn = indexed_vertex_reuse,
	 .spec = "Vertex Shader Execution: the implementation may reuse the results of "
		 "vertex shading for a vertex specified multiple times; 18.4 input assembly "
		 "counts every vertex"},
	{.name = "input_assembly.instanced",
	 .fn = instanced,
	 .spec = COUNTERS_SPEC " (every instance's vertices and primitives)"},
	{.name = "input_assembly.draw_indirect",
	 .fn = draw_indirect,
	 .spec = COUNTERS_SPEC " (vertex and instance counts read from a buffer)"},
	{.name = "input_assembly.draw_indexed_indirect",
	 .fn = draw_indexed_indirect,
	 .spec = COUNTERS_SPEC " (index and instance counts read from a buffer)"},
	{.name = "clipping.rect",
	 .fn = clipping,
	 .spec = "18.4: clipping invocations count each primitive reaching the clipping "
		 "stage; clipping primitives: one or more if at least one vertex lies inside "
		 "the clipping volume, otherwise zero or more; " FS_SPEC,
	 .params = VKQS_PARAMS(clip_params, clip_name)},
	{.name = "fragment.rect",
	 .fn = fragment_rect,
	 .spec = FS_SPEC,
	 .params = VKQS_PARAMS(sample_params, samples_name)},
	{.name = "fragment.sample_shading_samples_4",
	 .fn = fragment_sample_shading,
	 .spec = FS_SPEC "; Sample Shading: minSampleShading 1.0 invokes the shader per "
			 "covered sample"},
	{.name = "fragment.early_tests_occluded_is_zero",
	 .fn = fragment_early_tests_occluded,
	 .spec = FS_SPEC " (EarlyFragmentTests: a fragment failing the early depth test "
			 "invokes no fragment shader)"},
	{.name = "fragment.scissor_excludes_all_is_zero",
	 .fn = fragment_scissor_excludes_all,
	 .spec = FS_SPEC " (the scissor test precedes fragment shading)"},
	{.name = "fragment.rasterizer_discard",
	 .fn = fragment_rasterizer_discard,
	 .spec = "18.4: with rasterizerDiscardEnable the clipping input and output "
		 "primitives counters may not be incremented; no fragment is shaded"},
	{.name = "compute.dispatch",
	 .fn = compute_dispatch,
	 .spec = CS_SPEC,
	 .params = VKQS_PARAMS(dispatch_params, dispatch_name)},
	{.name = "compute.dispatch_indirect",
	 .fn = compute_dispatch_indirect,
	 .spec = CS_SPEC " (group counts read from a buffer)"},
	{.name = "compute.two_dispatches_add",
	 .fn = compute_two_dispatches,
	 .spec = CS_SPEC},
	{.name = "compute.zero_groups",
	 .fn = compute_zero_groups,
	 .spec = CS_SPEC " (a dispatch with a group count of zero invokes nothing)"},
	{.name = "compute.compute_only_queue",
	 .fn = compute_only_queue,
	 .spec = "18.4: pipeline statistics queries are available on queue families "
		 "supporting either graphics or compute operations; " CS_SPEC},
	{.name = "scope.empty_outside_render_pass",
	 .fn = scope_empty_outside_render_pass,
	 .spec = ZERO_SPEC},
	{.name = "scope.sequential_queries",
	 .fn = scope_sequential_queries,
	 .spec = ZERO_SPEC " (draws outside a query do not count)"},
	{.name = "scope.zero_vertex_draws",
	 .fn = scope_zero_vertex_draws,
	 .spec = ZERO_SPEC " (a draw of 0 vertices or 0 instances is no work)"},
	{.name = "scope.reused_query_restarts_at_zero",
	 .fn = scope_reused_query_restarts,
	 .spec = ZERO_SPEC " (a reset query begun again)"},
	{.name = "scope.dispatch_counts_no_graphics",
	 .fn = scope_dispatch_not_graphics,
	 .spec = "18.4: counters are accumulated for a set of either drawing or "
		 "dispatching commands; a dispatch invokes no graphics stage"},
	{.name = "scope.draw_counts_no_compute",
	 .fn = scope_draw_not_compute,
	 .spec = "18.4: compute shader invocations count compute shader invocations; a "
		 "draw invokes none"},
	{.name = "scope.spans_render_passes",
	 .fn = scope_spans_render_passes,
	 .spec = "18.2: a query may contain entire render pass instances; clears and "
		 "attachment load/store operations may count towards the results"},
	{.name = "scope.results_unchanged_by_reads",
	 .fn = scope_results_unchanged_by_reads,
	 .spec = "18.2: each query has state to store the numerical results; only a reset "
		 "makes them undefined; vkGetQueryPoolResults and vkCmdCopyQueryPoolResults "
		 "retrieve them (reading twice gives the same values)"},
	{.name = "secondary.query_inside_secondary",
	 .fn = secondary_query_inside,
	 .spec = "18.2: a query must begin and end in the same command buffer (here a "
		 "secondary continuing the render pass); " COUNTERS_SPEC},
	{.name = "secondary.inherited_draw",
	 .fn = secondary_inherited_draw,
	 .spec = INHERIT_SPEC,
	 .params = VKQS_PARAMS(inherit_params, inherit_name)},
	{.name = "secondary.inherited_dispatch",
	 .fn = secondary_inherited_dispatch,
	 .spec = INHERIT_SPEC "; " CS_SPEC},
	{.name = "geometry.instanced_shader_counts",
	 .fn = geometry_counts,
	 .spec = "18.4: geometry shader invocations count each instanced invocation; "
		 "geometry shader primitives: OpEndPrimitive has no effect on the count; "
		 "clipping counts the geometry shader's output"},
	{.name = "tessellation.triangle_patches",
	 .fn = tessellation_counts,
	 .spec = "18.4: tessellation control shader patches: once per patch; tessellation "
		 "evaluation shader invocations: each invocation"},
};

VKQS_AREA(stats, cases);
