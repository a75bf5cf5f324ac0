/* Pipeline statistics area: the helpers its groups share (declared in stats.h). */
#include "stats.h"

bool stats_untouched(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != STATS_GUARD_BYTE)
			return false;
	return true;
}

uint64_t stats_sat_add(uint64_t a, uint64_t b)
{
	return a > UNBOUNDED - b ? UNBOUNDED : a + b;
}

struct expect stats_expect_zero(const char *scene)
{
	struct expect e;
	memset(&e, 0, sizeof(e));
	for (uint32_t i = 0; i < NSTATS; i++)
		e.s[i] = vkqs_band_exact(0);
	e.scene = scene;
	return e;
}

void stats_use_pipeline(struct expect *e, VkShaderStageFlags stages)
{
	e->stages = e->pipelines ? (e->stages & stages) : stages;
	e->pipelines = true;
}

/* The shading stage each counter belongs to (0: input assembly, clipping). */
static VkShaderStageFlags counter_stage(enum stat s)
{
	switch (s) {
	case VS:
		return VK_SHADER_STAGE_VERTEX_BIT;
	case GS_INV:
	case GS_PRIM:
		return VK_SHADER_STAGE_GEOMETRY_BIT;
	case FS:
		return VK_SHADER_STAGE_FRAGMENT_BIT;
	case TCS:
		return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
	case TES:
		return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
	case CS:
		return VK_SHADER_STAGE_COMPUTE_BIT;
	default:
		return 0;
	}
}

bool stats_defined(const struct expect *e, enum stat s)
{
	VkShaderStageFlags st = counter_stage(s);
	return !st || !e->pipelines || (e->stages & st);
}

void stats_add_band(struct expect *e, enum stat s, struct vkqs_band b)
{
	vkqs_band_add(&e->s[s], &b);
}

void stats_add(struct expect *e, enum stat s, uint64_t min, uint64_t warn, uint64_t max)
{
	stats_add_band(e, s, (struct vkqs_band){.must = min, .soft = min, .warn = warn, .max = max});
}

void stats_add_soft(struct expect *e, enum stat s, uint64_t must, uint64_t soft, const char *why)
{
	stats_add_band(e, s, vkqs_band_soft(must, soft, why));
}

/* Exactly n by 18.4's description; more is CompatibilityWarning. */
void stats_add_natural(struct expect *e, enum stat s, uint64_t n)
{
	stats_add(e, s, n, n, UNBOUNDED);
}

/* At least lo; up to hi is what 18.4 describes (e.g. incomplete
 * primitives "may" count); more is CompatibilityWarning. */
void stats_add_range(struct expect *e, enum stat s, uint64_t lo, uint64_t hi)
{
	stats_add(e, s, lo, hi, UNBOUNDED);
}

/* At least n; the spec itself allows any number more (clipping output). */
void stats_add_lower(struct expect *e, enum stat s, uint64_t n)
{
	stats_add(e, s, n, UNBOUNDED, UNBOUNDED);
}

/* 18.2: clears and attachment load/store operations "may count towards the
 * results of queries" (implementation-dependent): a query holding a render
 * pass instance keeps its lower bounds only. */
void stats_loosen_for_clears(struct expect *e)
{
	for (uint32_t i = 0; i < NSTATS; i++) {
		e->s[i].max = UNBOUNDED;
		e->s[i].warn_why = VKQS_SPEC_MAY_COUNT;
	}
}

/* Checks the values of one query of a pool with statistics `mask`: value k
 * belongs to the k-th set bit ("the statistics values are written in bit
 * order starting from the least significant bit", 18.2), so a value in the
 * wrong slot meets another counter's bounds and fails where those differ.
 * The counter of a stage missing from a pipeline of the query gets no
 * verdict (VKQS_SPEC_STATS_MISSING_STAGE). */
void stats_check_values(struct vkqs_ctx *ctx, const struct expect *e, uint32_t mask,
			 const uint64_t *vals, const char *how)
{
	uint32_t k = 0;
	for (uint32_t s = 0; s < NSTATS; s++) {
		if (!(mask & BIT(s)))
			continue;
		struct vkqs_band b = e->s[s];
		if (!stats_defined(e, (enum stat)s))
			b = vkqs_band_undefined(VKQS_WHY_MISSING_STAGE);
		char what[256];
		snprintf(what, sizeof(what), "%s, %s: value %u (%s)", e->scene, how, k,
			 stat_names[s]);
		VKQS_CHECK_BAND(ctx, what, vals[k], &b);
		k++;
	}
}

uint32_t stats_nvalues(uint32_t mask)
{
	return (uint32_t)__builtin_popcount(mask);
}

/* vkGetQueryPoolResults of queries [first, first + count), WAIT, tightly
 * packed, 64- or 32-bit; widened into out[count * nvalues]. */
void stats_get_values(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		       uint32_t mask, bool is64, uint64_t *out)
{
	uint32_t n = stats_nvalues(mask);
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
void stats_check_query_width(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q,
			      uint32_t mask, const struct expect *e, bool is64)
{
	uint64_t v[NSTATS];
	stats_get_values(ctx, pool, q, 1, mask, is64, v);
	stats_check_values(ctx, e, mask, v, is64 ? "64-bit" : "32-bit");
}

void stats_check_query(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q, uint32_t mask,
			const struct expect *e)
{
	stats_check_query_width(ctx, pool, q, mask, e, true);
}

const struct vkqs_pipeline *stats_gfx_pipeline(struct vkqs_ctx *ctx,
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
		.no_fragment_shader = d->no_fs,
		.min_sample_shading = d->sample_shading ? 1.0f : 0.0f,
	};
	if (d->grid) {
		pd.vert_spv = stats_grid_vert;
		pd.vert_size = sizeof(stats_grid_vert);
	}
	if (d->adjacency_vs) {
		pd.vert_spv = stats_adjacency_vert;
		pd.vert_size = sizeof(stats_adjacency_vert);
	}
	if (d->instance_vs) {
		pd.vert_spv = rect_instances_vert;
		pd.vert_size = sizeof(rect_instances_vert);
	}
	if (!d->no_fs) {
		pd.frag_spv = stats_coord_frag;
		pd.frag_size = sizeof(stats_coord_frag);
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

const struct vkqs_pipeline *stats_rect_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t)
{
	struct vkqs_pipeline_desc desc = {.frag_spv = stats_coord_frag,
					  .frag_size = sizeof(stats_coord_frag)};
	return vkqs_pipeline_rect(ctx, t, &desc);
}

uint64_t stats_area(struct rect r)
{
	return (uint64_t)r.w * r.h;
}

/* The fragments r surely makes (vkqs_rect_fragments_min). */
uint64_t stats_frag_min(struct vkqs_ctx *ctx, struct rect r)
{
	return vkqs_rect_fragments_min(ctx, r.w, r.h);
}

/* Fragment shader invocations for draws of `copies` layers of r with the
 * area's stats_coord.frag (its colour varies with the location, so no merge):
 * at least one per fragment of the topmost layer (spec "Fragment Shading": a
 * fragment shader "may not be executed" where a fragment shader of a
 * subsequent primitive overwrites all its results; otherwise "at least one
 * fragment shader must be executed"); one per fragment per layer is 18.4's
 * description.  Helper invocations for derivatives at most double it for two
 * triangles on even-aligned 2 x 2 quads, so only beyond that is
 * CompatibilityWarning. */
void stats_add_fs(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t copies,
		   uint32_t per_fragment)
{
	stats_add(e, FS, stats_frag_min(ctx, r) * per_fragment, 2 * stats_area(r) * per_fragment * copies,
	    UNBOUNDED);
}

/* The same draws with a shader that computes the same values everywhere
 * and writes no storage (a constant colour or depth): fragments may be
 * merged into one invocation (VKQS_SPEC_FS_MERGE), so the spec gives no
 * count to fail below; fewer than one per fragment is CompatibilityWarning. */
void stats_add_fs_static(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t copies,
			  uint32_t per_fragment)
{
	stats_add(e, FS, 0, 2 * stats_area(r) * per_fragment * copies, UNBOUNDED);
	e->s[FS].soft = stats_sat_add(e->s[FS].soft, stats_frag_min(ctx, r) * per_fragment);
	e->s[FS].soft_why = VKQS_SPEC_FS_MERGE;
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
static void rect_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t instances,
		      bool distinct)
{
	stats_use_pipeline(e, STAGES_VS_FS);
	stats_add_natural(e, IA_V, 6ull * instances);
	stats_add_natural(e, IA_P, 2ull * instances);
	if (distinct || instances == 1)
		stats_add_natural(e, VS, 6ull * instances);
	else
		stats_add_soft(e, VS, 6, 6ull * instances, VKQS_SPEC_VS_REUSE);
	stats_add_natural(e, CLIP_INV, 2ull * instances);
	stats_add_lower(e, CLIP_PRIM, 2ull * instances);
	stats_add_fs(ctx, e, r, instances, 1);
}

void stats_add_rect_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r,
			  uint32_t instances)
{
	rect_draw(ctx, e, r, instances, false);
}

void stats_add_rect_draw_distinct(struct vkqs_ctx *ctx, struct expect *e, struct rect r,
				   uint32_t instances)
{
	rect_draw(ctx, e, r, instances, true);
}

/* The same draw wholly outside the view volume: the primitives still reach
 * clipping, no vertex is inside ("Otherwise, the counter is incremented by
 * zero or more"), and no fragment exists, so no fragment shader runs. */
void stats_add_outside_draw(struct expect *e)
{
	stats_use_pipeline(e, STAGES_VS_FS);
	stats_add_natural(e, IA_V, 6);
	stats_add_natural(e, IA_P, 2);
	stats_add_natural(e, VS, 6);
	stats_add_natural(e, CLIP_INV, 2);
	stats_add_lower(e, CLIP_PRIM, 0);
}

/* stats_copies.geom on rect.vert's two triangles: 2 instanced invocations
 * and 3 output primitives per input triangle (see the shader); clipping
 * counts what reaches it, the geometry shader's 6 triangles, all inside;
 * the three copies of each triangle overlap (add_fs). */
/* The counters of stats_copies.geom's part of a draw of r. */
static void geom_counts(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	stats_add_natural(e, IA_V, 6);
	stats_add_natural(e, IA_P, 2);
	stats_add_natural(e, VS, 6);
	stats_add_natural(e, GS_INV, 4);
	stats_add_natural(e, GS_PRIM, 6);
	stats_add_natural(e, CLIP_INV, 6);
	stats_add_lower(e, CLIP_PRIM, 6);
	stats_add_fs(ctx, e, r, 3, 1);
}

void stats_add_geom_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	stats_use_pipeline(e, STAGES_GEOM);
	geom_counts(ctx, e, r);
}

/* stats_triangle.tesc/.tese on 6 vertices as 3-point patches: 2 patches
 * (the input assembler's primitives), a control shader for each (18.4:
 * "incremented once for each patch for which a tessellation control shader
 * is invoked"); with every level 1 the tessellator makes one triangle of 3
 * vertices per patch and the evaluation shader is invoked "at least once
 * for each unique vertex generated by the tessellator"; 2 triangles reach
 * clipping. */
void stats_add_tess_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	stats_use_pipeline(e, STAGES_TESS);
	stats_add_natural(e, IA_V, 6);
	stats_add_natural(e, IA_P, 2);
	stats_add_natural(e, VS, 6);
	stats_add_natural(e, TCS, 2);
	stats_add_natural(e, TES, 6);
	stats_add_natural(e, CLIP_INV, 2);
	stats_add_lower(e, CLIP_PRIM, 2);
	stats_add_fs(ctx, e, r, 1, 1);
}

/* stats_triangle's patches (one triangle each) into stats_copies.geom (2
 * instanced invocations, 3 output triangles per input triangle): each
 * stage counts what reaches it: 2 patches, 6 evaluation invocations, 4
 * geometry invocations, 6 geometry primitives, and clipping the geometry
 * shader's 6 triangles (three overlapping copies of r). */
void stats_add_tess_geom_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r)
{
	stats_use_pipeline(e, STAGES_TESS | VK_SHADER_STAGE_GEOMETRY_BIT);
	stats_add_natural(e, TCS, 2);
	stats_add_natural(e, TES, 6);
	geom_counts(ctx, e, r);
}

/* Binds p with rect.vert's push constants for r; the caller draws. */
void stats_bind_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
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

void stats_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const struct vkqs_target *t, struct rect r)
{
	vkqs_draw_rect(ctx, cb, p, t, (float)r.x, (float)r.y, (float)r.x + (float)r.w,
		       (float)r.y + (float)r.h, 0.5f);
}

/* Binds a stats_grid.vert pipeline: columns every 8 pixels (.extra) from
 * x 8, rows at y 8 and 24; the caller draws. */
void stats_bind_grid(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p)
{
	struct vkqs_rect_push pc = {{8.0f, 8.0f, 0.0f, 24.0f}, {(float)FB, (float)FB}, 0.5f, 8.0f};
	vkqs_cmd_bind_rect(ctx, cb, p, &pc);
}

struct vkqs_buffer *stats_host_buffer_with(struct vkqs_ctx *ctx, const void *data, size_t size,
					    VkBufferUsageFlags usage)
{
	struct vkqs_buffer *b = vkqs_buffer_host(ctx, size, usage);
	memcpy(b->map, data, size);
	vkqs_buffer_flush(ctx, b);
	return b;
}

void stats_require_stats(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
}

/* A 64 x 64 target, a pool of `queries` queries with statistics `mask`, a
 * command buffer that resets them (18.2: reset before use, outside a
 * render pass). */
static void gfx_require(struct vkqs_ctx *ctx, uint32_t mask)
{
	stats_require_stats(ctx);
	if (mask & GEOM_BITS)
		vkqs_require_feature(ctx, "geometryShader");
	if (mask & TESS_BITS)
		vkqs_require_feature(ctx, "tessellationShader");
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
}

struct gfx stats_gfx_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples, bool depth,
			    uint32_t mask, uint32_t queries)
{
	gfx_require(ctx, mask);
	return stats_gfx_begin_on(ctx, vkqs_target_create(ctx, FB, FB, samples, depth), mask,
				  queries);
}

struct gfx stats_gfx_begin_on(struct vkqs_ctx *ctx, struct vkqs_target *t, uint32_t mask,
			       uint32_t queries)
{
	struct gfx g;
	gfx_require(ctx, mask);
	g.t = t;
	g.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, queries, mask);
	g.mask = mask;
	g.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(g.cb, g.pool, 0, queries);
	return g;
}

void stats_gfx_submit(struct vkqs_ctx *ctx, const struct gfx *g)
{
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, g->cb);
}

/* One render pass instance holding query 0 around one draw of r with p
 * (the query begins and ends inside the subpass: no load operation in
 * it); submits and waits. */
void stats_query_one_draw(struct vkqs_ctx *ctx, const struct gfx *g,
			   const struct vkqs_pipeline *p, struct rect r)
{
	vkqs_target_begin(ctx, g->cb, g->t, 1.0f);
	D->vkCmdBeginQuery(g->cb, g->pool, 0, 0);
	stats_draw(ctx, g->cb, p, g->t, r);
	D->vkCmdEndQuery(g->cb, g->pool, 0);
	vkqs_target_end(ctx, g->cb);
	stats_gfx_submit(ctx, g);
}

/* stats_count.comp writing into a zeroed host buffer of `words` words
 * (more than any dispatch here writes, so stray writes show). */
struct comp *stats_compute_setup(struct vkqs_ctx *ctx, uint32_t words)
{
	struct comp *c = vkqs_alloc(ctx, sizeof(*c));
	c->words = words;
	c->buf = vkqs_buffer_host(ctx, words * 4ull, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	memset(c->buf->map, 0, words * 4ull);
	vkqs_buffer_flush(ctx, c->buf);
	c->pipe = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp), c->buf, 0, 0);
	return c;
}

void stats_compute_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct comp *c)
{
	vkqs_cmd_bind_compute(ctx, cb, c->pipe);
}

/* Orders one dispatch's buffer writes before the next dispatch's
 * read-modify-write and before host reads. */
void stats_compute_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
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

/* The dispatches ran: word i is `times` for every flattened global id
 * i < invocations and 0 beyond.  Without this, a counter of 0 could come
 * from a dispatch that never ran rather than from the counter. */
void stats_compute_check_buffer(struct vkqs_ctx *ctx, const struct comp *c,
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
void stats_add_dispatch(struct expect *e, uint32_t x, uint32_t y, uint32_t z)
{
	stats_use_pipeline(e, VK_SHADER_STAGE_COMPUTE_BIT);
	stats_add_natural(e, CS, (uint64_t)x * y * z * LOCAL_SIZE);
}

void stats_topology(struct vkqs_ctx *ctx, const void *param)
{
	const struct topo_param *p = param;
	/* VUID-VkPipelineInputAssemblyStateCreateInfo-topology-00429 */
	if (p->topology >= VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY &&
	    p->topology <= VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY)
		vkqs_require_feature(ctx, "geometryShader");
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, IA_MASK, 1);
	struct gdesc gd = {.topology = p->topology, .grid = !p->adjacency_vs,
			   .adjacency_vs = p->adjacency_vs};
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);

	uint32_t n = p->instances ? p->instances : 1;
	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_grid(ctx, g.cb, pipe);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, p->count, n, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero(p->name);
	stats_use_pipeline(&e, STAGES_VS_FS);
	/* input assembly and clipping: every instance */
	stats_add_range(&e, IA_V, n * p->prim_verts, n * p->count);
	stats_add_range(&e, IA_P, n * p->prims, n * (p->prims + (p->incomplete ? 1 : 0)));
	/* The vertex shader ignores the instance: one instance's vertices must
	 * be shaded; another instance's may be "the same vertex"
	 * (VKQS_SPEC_VS_REUSE), so fewer than all instances' warns. */
	if (p->main_verts)
		stats_add_band(&e, VS, (struct vkqs_band){.must = p->main_verts,
							  .soft = n * p->prim_verts,
							  .warn = n * p->count,
							  .max = UNBOUNDED,
							  .soft_why = n > 1 ? VKQS_SPEC_ADJACENCY "; "
										  VKQS_SPEC_VS_REUSE
									: VKQS_SPEC_ADJACENCY});
	else if (n > 1)
		stats_add_band(&e, VS, (struct vkqs_band){.must = p->prim_verts,
							  .soft = n * p->prim_verts,
							  .warn = n * p->count,
							  .max = UNBOUNDED,
							  .soft_why = VKQS_SPEC_VS_REUSE});
	else
		stats_add_range(&e, VS, p->prim_verts, p->count);
	stats_add_natural(&e, CLIP_INV, n * p->prims);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* Indices 0 1 2 3 RESTART 4 5 6 7 of a triangle strip: two strips of two
 * triangles.  18.4: "If primitive restart is enabled, restarting the
 * primitive topology has no effect on the count": 4 primitives.  The
 * restart index is no vertex, though counting it as one processed by the
 * input assembler is a reading 18.4 does not exclude (8 or 9); the vertex
 * shader runs for the 8 vertices. */
void stats_indexed_restart(struct vkqs_ctx *ctx, VkPrimitiveTopology topology,
			   const uint16_t *idx, uint32_t n, const struct expect *e)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, IA_MASK, 1);
	struct gdesc gd = {.topology = topology, .grid = true, .restart = true};
	struct expect used = *e;
	stats_use_pipeline(&used, STAGES_VS_FS);
	e = &used;
	const struct vkqs_pipeline *pipe = stats_gfx_pipeline(ctx, g.t, &gd);
	struct vkqs_buffer *ib = stats_host_buffer_with(ctx, idx, n * sizeof(*idx),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_grid(ctx, g.cb, pipe);
	D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDrawIndexed(g.cb, n, 1, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	stats_check_query(ctx, g.pool, 0, g.mask, e);
}

void stats_primitive_restart(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	static const uint16_t idx[] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
	struct expect e = stats_expect_zero("indexed triangle strip with a restart");
	stats_add_range(&e, IA_V, 8, 9);
	stats_add_natural(&e, IA_P, 4);
	stats_add_natural(&e, VS, 8);
	stats_add_natural(&e, CLIP_INV, 4);
	stats_indexed_restart(ctx, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, idx,
			      VKQS_ARRAY_LEN(idx), &e);
}
