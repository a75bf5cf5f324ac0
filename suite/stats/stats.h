/* Pipeline statistics area: the counters in bit order, expectations as exact values or
 * bounds, the graphics and compute scenes the groups record, and the spec sentences
 * they cite. Each group is one file of this folder; stats.c lists them in order. */
#ifndef VKQS_SUITE_STATS_H
#define VKQS_SUITE_STATS_H

#include <stdio.h>
#include <string.h>

#include "verdict.h"
#include "vkutil.h"
#include "shaders/stats_copies_geom.h"
#include "shaders/stats_count_comp.h"
#include "shaders/stats_adjacency_vert.h"
#include "shaders/stats_grid_vert.h"
#include "shaders/rect_instances_vert.h"
#include "shaders/stats_coord_frag.h"
#include "shaders/stats_triangle_tesc.h"
#include "shaders/stats_triangle_tese.h"

#define D (VKQS_D(ctx))

#define DEV (VKQS_DEV(ctx))

#define FB 64u

#define NSTATS 11u /* core statistics: VkQueryPipelineStatisticFlagBits 1 << 0 .. 1 << 10 */

#define UNBOUNDED VKQS_UNBOUNDED

enum stat {
	IA_V, IA_P, VS, GS_INV, GS_PRIM, CLIP_INV, CLIP_PRIM, FS, TCS, TES, CS,
};

#define BIT(s) (1u << (s))

#define CORE_GRAPHICS (BIT(IA_V) | BIT(IA_P) | BIT(VS) | BIT(CLIP_INV) | BIT(CLIP_PRIM) | BIT(FS))

#define CORE (CORE_GRAPHICS | BIT(CS))

#define GEOM_BITS (BIT(GS_INV) | BIT(GS_PRIM))

#define TESS_BITS (BIT(TCS) | BIT(TES))

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

/* One query's expectations, all counters, as verdict bands (verdict.h);
 * starts at exactly zero (no work).  `stages` is what every pipeline used in
 * the query has (VkShaderStageFlags, intersected by stats_use_pipeline):
 * the counter of a shading stage missing from any of them is undefined
 * (VKQS_SPEC_STATS_MISSING_STAGE) and gets no verdict. */
struct expect {
	struct vkqs_band s[NSTATS];
	const char *scene;
	bool pipelines;          /* a pipeline was used in the query */
	VkShaderStageFlags stages; /* the stages every one of them has */
};

/* A pipeline with `stages` is used while the query is active. */
void stats_use_pipeline(struct expect *e, VkShaderStageFlags stages);

/* The stages of the area's pipelines. */
#define STAGES_VS_FS (VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT)
#define STAGES_GEOM (STAGES_VS_FS | VK_SHADER_STAGE_GEOMETRY_BIT)
#define STAGES_TESS                                                   \
	(STAGES_VS_FS | VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |    \
	 VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)

/* True when counter s has a value the spec defines for e. */
bool stats_defined(const struct expect *e, enum stat s);

uint64_t stats_sat_add(uint64_t a, uint64_t b);

struct expect stats_expect_zero(const char *scene);

void stats_add(struct expect *e, enum stat s, uint64_t min, uint64_t warn, uint64_t max);

/* Adds a whole verdict band to counter s. */
void stats_add_band(struct expect *e, enum stat s, struct vkqs_band b);

/* At least must; below soft is CompatibilityWarning (why: the reuse, merge
 * or open clause that allows fewer), more than soft too. */
void stats_add_soft(struct expect *e, enum stat s, uint64_t must, uint64_t soft, const char *why);

/* Exactly n by 18.4's description; more is CompatibilityWarning. */
void stats_add_natural(struct expect *e, enum stat s, uint64_t n);

/* At least lo; up to hi is what 18.4 describes (e.g. incomplete
 * primitives "may" count); more is CompatibilityWarning. */
void stats_add_range(struct expect *e, enum stat s, uint64_t lo, uint64_t hi);

/* At least n; the spec itself allows any number more (clipping output). */
void stats_add_lower(struct expect *e, enum stat s, uint64_t n);

/* 18.2: clears and attachment load/store operations "may count towards the
 * results of queries" (implementation-dependent): a query holding a render
 * pass instance keeps its lower bounds only. */
void stats_loosen_for_clears(struct expect *e);

/* Checks the values of one query of a pool with statistics `mask`: value k
 * belongs to the k-th set bit ("the statistics values are written in bit
 * order starting from the least significant bit", 18.2), so a value in the
 * wrong slot meets another counter's bounds and fails where those differ. */
void stats_check_values(struct vkqs_ctx *ctx, const struct expect *e, uint32_t mask,
			 const uint64_t *vals, const char *how);

uint32_t stats_nvalues(uint32_t mask);
/* Destination bytes a read must leave alone are pre-filled with this. */
#define STATS_GUARD_BYTE 0xa5
/* True when every one of the n bytes still holds STATS_GUARD_BYTE. */
bool stats_untouched(const uint8_t *p, size_t n);

/* vkGetQueryPoolResults of queries [first, first + count), WAIT, tightly
 * packed, 64- or 32-bit; widened into out[count * nvalues]. */
void stats_get_values(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
		       uint32_t mask, bool is64, uint64_t *out);

/* Reads query `q` once (64-bit) and checks it.  Each query is read once:
 * a driver whose reads change the stored values (see
 * scope.results_unchanged_by_reads) then fails only that case. */
void stats_check_query_width(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q,
			      uint32_t mask, const struct expect *e, bool is64);

void stats_check_query(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q, uint32_t mask,
			const struct expect *e);

/* What vkqs_pipeline_rect does by default, with other topologies, primitive
 * restart, rasterizer discard, sample shading, geometry and tessellation
 * stages.  Same push-constant layout (32 bytes, vertex stage), so
 * vkqs_draw_rect draws with these pipelines too. */
struct gdesc {
	VkPrimitiveTopology topology;
	bool grid;     /* stats_grid.vert instead of rect.vert */
	bool restart;  /* primitiveRestartEnable */
	bool discard;  /* rasterizerDiscardEnable */
	bool no_fs;    /* no fragment shader (rasterization on) */
	bool sample_shading; /* minSampleShading 1.0 */
	bool geom;     /* stats_copies.geom */
	bool tess;     /* stats_triangle.tesc/.tese, 3-point patches */
	bool adjacency_vs; /* stats_adjacency.vert instead of rect.vert */
	bool instance_vs;  /* rect_instances.vert instead of rect.vert */
};

const struct vkqs_pipeline *stats_gfx_pipeline(struct vkqs_ctx *ctx,
						const struct vkqs_target *t,
						const struct gdesc *d);

const struct vkqs_pipeline *stats_rect_pipeline(struct vkqs_ctx *ctx,
						 const struct vkqs_target *t);

struct rect {
	int32_t x, y;
	uint32_t w, h;
};

uint64_t stats_area(struct rect r);

/* Rectangles inside the 64 x 64 framebuffer, even-aligned, 24 x 16. */
static const struct rect RA = {8, 8, 24, 16};

static const struct rect RB = {36, 30, 24, 16};

static const struct rect RC = {8, 40, 24, 16};

/* Wholly outside the view volume (x in NDC 1.5 .. 2.25). */
static const struct rect R_OUT = {80, 8, 24, 16};

/* The fragments a rectangle inside the framebuffer surely makes: all w * h
 * with standard sample locations (every sample strictly inside its pixel),
 * otherwise the pixels not on its border, whose every point is inside. */
uint64_t stats_frag_min(struct vkqs_ctx *ctx, struct rect r);

/* Fragment shader invocations for draws of `copies` layers of r with the
 * area's stats_coord.frag, whose colour varies with the location: at least
 * one per fragment of the topmost layer (spec "Fragment Shading": a fragment
 * shader "may not be executed" where a fragment shader of a subsequent
 * primitive overwrites all its results; otherwise "at least one fragment
 * shader must be executed"); one per fragment per layer is 18.4's
 * description.  Helper invocations for derivatives at most double it for
 * two triangles on even-aligned 2 x 2 quads, so only beyond that is
 * CompatibilityWarning. */
void stats_add_fs(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t copies,
		   uint32_t per_fragment);

/* The same with a shader that computes the same values everywhere and
 * writes no storage: fragments may be merged (VKQS_SPEC_FS_MERGE), so fewer
 * than one per fragment is CompatibilityWarning, never Fail. */
void stats_add_fs_static(struct vkqs_ctx *ctx, struct expect *e, struct rect r, uint32_t copies,
			  uint32_t per_fragment);

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
void stats_add_rect_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r,
			  uint32_t instances);

/* The same, instanced with rect_instances.vert: each instance's vertices
 * shade differently, so no reuse across instances: at least 6 per
 * instance.  With rect.vert (stats_add_rect_draw) the instances' vertex
 * shading is identical and whether another instance's vertex is "the same
 * vertex" is open (VKQS_SPEC_VS_REUSE): at least one instance's 6, fewer
 * than 6 per instance CompatibilityWarning. */
void stats_add_rect_draw_distinct(struct vkqs_ctx *ctx, struct expect *e, struct rect r,
				   uint32_t instances);

/* The same draw wholly outside the view volume: the primitives still reach
 * clipping, no vertex is inside ("Otherwise, the counter is incremented by
 * zero or more"), and no fragment exists, so no fragment shader runs. */
void stats_add_outside_draw(struct expect *e);

/* stats_copies.geom on rect.vert's two triangles: 2 instanced invocations
 * and 3 output primitives per input triangle (see the shader); clipping
 * counts what reaches it, the geometry shader's 6 triangles, all inside;
 * the three copies of each triangle overlap (add_fs). */
void stats_add_geom_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r);

/* stats_triangle.tesc/.tese on 6 vertices as 3-point patches: 2 patches
 * (the input assembler's primitives), a control shader for each (18.4:
 * "incremented once for each patch for which a tessellation control shader
 * is invoked"); with every level 1 the tessellator makes one triangle of 3
 * vertices per patch and the evaluation shader is invoked "at least once
 * for each unique vertex generated by the tessellator"; 2 triangles reach
 * clipping. */
void stats_add_tess_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r);

/* Tessellation then stats_copies.geom in one pipeline, one draw of r. */
void stats_add_tess_geom_draw(struct vkqs_ctx *ctx, struct expect *e, struct rect r);

/* Binds p with rect.vert's push constants for r; the caller draws. */
void stats_bind_rect(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		      struct rect r);

void stats_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		 const struct vkqs_target *t, struct rect r);

/* Binds a stats_grid.vert pipeline: columns every 8 pixels (.extra) from
 * x 8, rows at y 8 and 24; the caller draws. */
void stats_bind_grid(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p);

struct vkqs_buffer *stats_host_buffer_with(struct vkqs_ctx *ctx, const void *data, size_t size,
					    VkBufferUsageFlags usage);

struct gfx {
	struct vkqs_target *t;
	VkQueryPool pool;
	VkCommandBuffer cb;
	uint32_t mask;
};

void stats_require_stats(struct vkqs_ctx *ctx);

/* A 64 x 64 target, a pool of `queries` queries with statistics `mask`, a
 * command buffer that resets them (18.2: reset before use, outside a
 * render pass). */
struct gfx stats_gfx_begin(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples, bool depth,
			    uint32_t mask, uint32_t queries);

/* The same on a target made by the caller (FB x FB). */
struct gfx stats_gfx_begin_on(struct vkqs_ctx *ctx, struct vkqs_target *t, uint32_t mask,
			       uint32_t queries);

void stats_gfx_submit(struct vkqs_ctx *ctx, const struct gfx *g);

/* One render pass instance holding query 0 around one draw of r with p
 * (the query begins and ends inside the subpass: no load operation in
 * it); submits and waits. */
void stats_query_one_draw(struct vkqs_ctx *ctx, const struct gfx *g,
			   const struct vkqs_pipeline *p, struct rect r);

struct comp {
	struct vkqs_compute *pipe;
	struct vkqs_buffer *buf;
	uint32_t words;
};

/* stats_count.comp writing into a zeroed host buffer of `words` words
 * (more than any dispatch here writes, so stray writes show). */
struct comp *stats_compute_setup(struct vkqs_ctx *ctx, uint32_t words);

void stats_compute_bind(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct comp *c);

/* Orders one dispatch's buffer writes before the next dispatch's
 * read-modify-write and before host reads. */
void stats_compute_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb);

/* 8 invocations per workgroup: stats_count.comp's local_size 4 x 2 x 1. */
#define LOCAL_SIZE 8u

/* The dispatches ran: word i is `times` for every flattened global id
 * i < invocations and 0 beyond.  Without this, a counter of 0 could come
 * from a dispatch that never ran rather than from the counter. */
void stats_compute_check_buffer(struct vkqs_ctx *ctx, const struct comp *c,
				 uint32_t invocations, uint32_t times);

/* 18.4: compute shader invocations count "every time the compute shader is
 * invoked"; "Implementations may skip the execution of certain compute
 * shader invocations or execute additional compute shader invocations ...
 * as long as the results of rendering otherwise remain unchanged".  Every
 * invocation here writes its own word, so none can be skipped: at least
 * groups * 8; more is legal and not portable. */
void stats_add_dispatch(struct expect *e, uint32_t x, uint32_t y, uint32_t z);

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
	bool adjacency_vs;   /* stats_adjacency.vert instead of stats_grid.vert */
	/* *_WITH_ADJACENCY: the main primitives' distinct vertices, the least
	 * the vertex shader must run for (the adjacent ones are "only
	 * accessible in a geometry shader"); 0 for other topologies */
	uint32_t main_verts;
	uint32_t instances;  /* instanceCount (0: 1); the vertex shader ignores the instance */
};

#define IA_MASK (BIT(IA_V) | BIT(IA_P) | BIT(VS) | BIT(CLIP_INV))

void stats_topology(struct vkqs_ctx *ctx, const void *param);

/* Indices 0 1 2 3 RESTART 4 5 6 7 of a triangle strip: two strips of two
 * triangles.  18.4: "If primitive restart is enabled, restarting the
 * primitive topology has no effect on the count": 4 primitives.  The
 * restart index is no vertex, though counting it as one processed by the
 * input assembler is a reading 18.4 does not exclude (8 or 9); the vertex
 * shader runs for the 8 vertices. */
/* An indexed draw of idx (uint16, primitive restart on) of topology with
 * stats_grid.vert inside query 0 of an IA_MASK pool; checks e. */
void stats_indexed_restart(struct vkqs_ctx *ctx, VkPrimitiveTopology topology,
			   const uint16_t *idx, uint32_t n, const struct expect *e);

void stats_primitive_restart(struct vkqs_ctx *ctx, const void *param);

#define COUNTERS_SPEC \
	"18.4: each counter's definition (lower bound: Fail), 'Various device architectures " \
	"will count these values differently' (more than the definition gives: " \
	"CompatibilityWarning)"

#define CS_SPEC \
	"18.4: compute shader invocations: incremented every time the compute shader is " \
	"invoked; invocations may be skipped only if the results remain unchanged"

#define FS_SPEC_STATIC \
	"18.4: fragment shader invocations; fragops.adoc Fragment Shading (1.3.274): a shader " \
	"that statically computes the same values everywhere may shade several fragments in " \
	"one invocation (fewer than one per fragment: CompatibilityWarning)"

#define FS_SPEC \
	"18.4: fragment shader invocations: incremented each time the fragment shader is " \
	"invoked; Fragment Shading: at least one invocation per fragment not discarded " \
	"by an earlier fragment operation, none for a discarded one"

#endif
