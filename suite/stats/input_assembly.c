/* vkqs.stats.input_assembly.*: input assembly vertices and primitives for every
 * topology, indexed and instanced draws, and primitive restart. */
#include "stats.h"

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

/* rect.vert's vertices 1 and 3, and 2 and 5, are the same corners: indices
 * 0 1 2 1 4 2 draw rect A with 4 distinct vertices.  "Vertex Shader
 * Execution": "If the same vertex is specified multiple times in a drawing
 * command (e.g. by including the same index value multiple times in an
 * index buffer) the implementation may reuse the results of vertex
 * shading": at least 4 invocations per instance, up to 6 without reuse.
 * The input assembler still processes 6 vertices per instance. */
static const uint16_t reuse_indices[] = {0, 1, 2, 1, 4, 2};

static void add_reuse_draw(struct vkqs_ctx *ctx, struct expect *e, uint32_t instances,
			   bool distinct)
{
	stats_use_pipeline(e, STAGES_VS_FS);
	stats_add_natural(e, IA_V, 6ull * instances);
	stats_add_natural(e, IA_P, 2ull * instances);
	if (distinct || instances == 1)
		stats_add_range(e, VS, 4ull * instances, 6ull * instances);
	else
		stats_add_band(e, VS, (struct vkqs_band){.must = 4, .soft = 4ull * instances,
							 .warn = 6ull * instances,
							 .max = UNBOUNDED,
							 .soft_why = VKQS_SPEC_VS_REUSE});
	stats_add_natural(e, CLIP_INV, 2ull * instances);
	stats_add_lower(e, CLIP_PRIM, 2ull * instances);
	stats_add_fs(ctx, e, RA, instances, 1);
}

static void indexed_vertex_reuse(struct vkqs_ctx *ctx, const void *param)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = stats_rect_pipeline(ctx, g.t);
	struct vkqs_buffer *ib = stats_host_buffer_with(ctx, reuse_indices, sizeof(reuse_indices),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDrawIndexed(g.cb, 6, 1, 0, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero("indexed draw reusing vertices");
	add_reuse_draw(ctx, &e, 1, false);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

/* rect.vert ignores gl_InstanceIndex, so its instances shade to identical
 * results, and whether a vertex of another instance is "the same vertex"
 * whose shading may be reused is open (VKQS_SPEC_VS_REUSE): the vertex
 * shader must run for one instance's vertices, fewer than every instance's
 * is CompatibilityWarning.  `distinct` draws with rect_instances.vert,
 * whose depth depends on gl_InstanceIndex: no instance's results equal
 * another's, so every instance's vertices must be shaded (Fail below). */
struct inst_param {
	const char *name;
	bool distinct;
};

static const struct inst_param inst_params[] = {{"", false}, {"instance_index", true}};

static void inst_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct inst_param *)param)->name);
}

static const struct vkqs_pipeline *inst_pipeline(struct vkqs_ctx *ctx, const struct gfx *g,
						 bool distinct)
{
	struct gdesc gd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .instance_vs = distinct};
	return stats_gfx_pipeline(ctx, g->t, &gd);
}

/* Three instances of rect A: 18 vertices, 6 primitives; the copies
 * overlap, so fragment shading is bounded below by one layer (add_fs). */
static void instanced_common(struct vkqs_ctx *ctx, bool distinct)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = inst_pipeline(ctx, &g, distinct);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	D->vkCmdDraw(g.cb, 6, 3, 0, 0);
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero(distinct ? "three instances, gl_InstanceIndex-dependent "
						       "vertex shader"
						     : "three instances");
	if (distinct)
		stats_add_rect_draw_distinct(ctx, &e, RA, 3);
	else
		stats_add_rect_draw(ctx, &e, RA, 3);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static void instanced(struct vkqs_ctx *ctx, const void *param)
{
	instanced_common(ctx, ((const struct inst_param *)param)->distinct);
}

/* The draw parameters come from a buffer: one vkCmdDrawIndirect of {6
 * vertices, 2 instances}, or one vkCmdDrawIndexedIndirect of {6 indices
 * (reuse_indices), 2 instances} (drawCount 1 either way).  The counters
 * count the vertices and instances the buffer names. */
static void draw_indirect_common(struct vkqs_ctx *ctx, bool indexed, bool distinct)
{
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, CORE_GRAPHICS, 1);
	const struct vkqs_pipeline *pipe = inst_pipeline(ctx, &g, distinct);
	struct vkqs_buffer *args;
	if (indexed) {
		VkDrawIndexedIndirectCommand cmd = {6, 2, 0, 0, 0};
		args = stats_host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	} else {
		VkDrawIndirectCommand cmd = {6, 2, 0, 0};
		args = stats_host_buffer_with(ctx, &cmd, sizeof(cmd), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	}
	struct vkqs_buffer *ib = stats_host_buffer_with(ctx, reuse_indices, sizeof(reuse_indices),
						  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);

	vkqs_target_begin(ctx, g.cb, g.t, 1.0f);
	stats_bind_rect(ctx, g.cb, pipe, RA);
	D->vkCmdBeginQuery(g.cb, g.pool, 0, 0);
	if (indexed) {
		D->vkCmdBindIndexBuffer(g.cb, ib->buf, 0, VK_INDEX_TYPE_UINT16);
		D->vkCmdDrawIndexedIndirect(g.cb, args->buf, 0, 1, 0);
	} else {
		D->vkCmdDrawIndirect(g.cb, args->buf, 0, 1, 0);
	}
	D->vkCmdEndQuery(g.cb, g.pool, 0);
	vkqs_target_end(ctx, g.cb);
	stats_gfx_submit(ctx, &g);

	struct expect e = stats_expect_zero(indexed ? "vkCmdDrawIndexedIndirect" : "vkCmdDrawIndirect");
	if (indexed)
		add_reuse_draw(ctx, &e, 2, distinct);
	else if (distinct)
		stats_add_rect_draw_distinct(ctx, &e, RA, 2);
	else
		stats_add_rect_draw(ctx, &e, RA, 2);
	stats_check_query(ctx, g.pool, 0, g.mask, &e);
}

static void draw_indirect(struct vkqs_ctx *ctx, const void *param)
{
	draw_indirect_common(ctx, false, ((const struct inst_param *)param)->distinct);
}

static void draw_indexed_indirect(struct vkqs_ctx *ctx, const void *param)
{
	draw_indirect_common(ctx, true, ((const struct inst_param *)param)->distinct);
}

/* The *_WITH_ADJACENCY topologies without a geometry shader (valid with
 * the geometryShader feature: VUID-VkPipelineInputAssemblyStateCreate-
 * Info-topology-00429).  "Primitive Topologies": a line list with
 * adjacency takes 4 vertices per line, a strip n - 3 lines, a triangle list
 * 6 vertices per triangle, a strip (n - 4) / 2 triangles; the adjacent
 * vertices are vertices of the draw, so the vertex shader runs for every
 * vertex ("at least once for each vertex specified by a drawing command")
 * and the input assembler processes them.  Incomplete trailing vertices
 * "may contribute" (IA_SPEC).  Lines use stats_grid.vert (consecutive
 * vertices alternate rows), triangles stats_adjacency.vert (main triangles
 * non-degenerate); each main primitive reaches clipping once.  The
 * adjacent vertices are "only accessible in a geometry shader" (drawing.adoc),
 * so without one their shading cannot be observed: the vertex shader must
 * run for the main primitives' vertices (main_verts: lines 1-2 of each
 * 4-vertex line, a strip's 1..n-2, triangles' even vertices), and fewer
 * than every vertex is CompatibilityWarning (VKQS_SPEC_ADJACENCY; CTS's
 * minimum is the same). */
static const struct topo_param adj_params[] = {
	{"line_list_incomplete", VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 9, 2, 8, true, false,
	 4},
	{"line_strip", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, 7, 4, 7, false, false, 5},
	{"triangle_list_incomplete", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 13, 2, 12,
	 true, true, 6},
	{"triangle_strip", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 10, 3, 10, false,
	 true, 5},
};

/* The same with three instances: input assembly and clipping count every
 * instance (radv RDNA2 packed instances of adjacency topologies and got
 * the statistics wrong: mesa 9348620946e). */
static const struct topo_param adj_instanced_params[] = {
	{"line_list_incomplete", VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 9, 2, 8, true, false,
	 4, 3},
	{"line_strip", VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, 7, 4, 7, false, false, 5, 3},
	{"triangle_list_incomplete", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 13, 2, 12,
	 true, true, 6, 3},
	{"triangle_strip", VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 10, 3, 10, false,
	 true, 5, 3},
};

/* A line strip with adjacency, indices 0 1 2 3 4 RESTART 5 6 7 8: strips of
 * 5 and 4 vertices, 2 + 1 lines (restarting "has no effect on the count",
 * 18.4, beyond ending the strip); the restart index may count as a vertex
 * the input assembler processed (9 or 10); 9 vertex shader invocations. */
static void adjacency_restart(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	static const uint16_t idx[] = {0, 1, 2, 3, 4, 0xffff, 5, 6, 7, 8};
	vkqs_require_feature(ctx, "geometryShader");
	struct expect e = stats_expect_zero("indexed line strip with adjacency and a restart");
	stats_add_range(&e, IA_V, 9, 10);
	stats_add_natural(&e, IA_P, 3);
	/* main vertices 1 2 3 of the first strip, 6 7 of the second */
	stats_add_band(&e, VS, (struct vkqs_band){.must = 5, .soft = 9, .warn = 9,
						  .max = UNBOUNDED,
						  .soft_why = VKQS_SPEC_ADJACENCY});
	stats_add_natural(&e, CLIP_INV, 3);
	stats_indexed_restart(ctx, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, idx,
			      VKQS_ARRAY_LEN(idx), &e);
}

#define IA_SPEC \
	"18.4: input assembly vertices/primitives: vertices corresponding to incomplete " \
	"primitives may contribute; incomplete primitives may be counted"

static const struct vkqs_case cases[] = {
	{.name = "input_assembly.topology",
	 .fn = stats_topology,
	 .spec = IA_SPEC "; Vertex Shader Execution: at least once for each vertex",
	 .params = VKQS_PARAMS(topo_params, topo_name)},
	{.name = "input_assembly.adjacency",
	 .fn = stats_topology,
	 .spec = IA_SPEC "; Primitive Topologies: the *_WITH_ADJACENCY topologies' vertices per "
		 "primitive; Vertex Shader Execution: at least once for each vertex; "
		 VKQS_SPEC_ADJACENCY,
	 .params = VKQS_PARAMS(adj_params, topo_name)},
	{.name = "input_assembly.adjacency_instanced",
	 .fn = stats_topology,
	 .spec = IA_SPEC " of every instance; Primitive Topologies: the *_WITH_ADJACENCY "
		 "topologies' vertices per primitive; " VKQS_SPEC_ADJACENCY "; " VKQS_SPEC_VS_REUSE,
	 .params = VKQS_PARAMS(adj_instanced_params, topo_name)},
	{.name = "input_assembly.adjacency_restart",
	 .fn = adjacency_restart,
	 .spec = "18.4: restarting the primitive topology has no effect on the input assembly "
		 "primitives count (a line strip with adjacency); " VKQS_SPEC_ADJACENCY},
	{.name = "input_assembly.primitive_restart",
	 .fn = stats_primitive_restart,
	 .spec = "18.4: if primitive restart is enabled, restarting the primitive topology "
		 "has no effect on the input assembly primitives count"},
	{.name = "input_assembly.indexed_vertex_reuse",
	 .fn = indexed_vertex_reuse,
	 .spec = "Vertex Shader Execution: the implementation may reuse the results of "
		 "vertex shading for a vertex specified multiple times; 18.4 input assembly "
		 "counts every vertex"},
	{.name = "input_assembly.instanced",
	 .fn = instanced,
	 .spec = COUNTERS_SPEC " (every instance's vertices and primitives); " VKQS_SPEC_VS_REUSE,
	 .params = VKQS_PARAMS(inst_params, inst_name)},
	{.name = "input_assembly.draw_indirect",
	 .fn = draw_indirect,
	 .spec = COUNTERS_SPEC " (vertex and instance counts read from a buffer); "
		 VKQS_SPEC_VS_REUSE,
	 .params = VKQS_PARAMS(inst_params, inst_name)},
	{.name = "input_assembly.draw_indexed_indirect",
	 .fn = draw_indexed_indirect,
	 .spec = COUNTERS_SPEC " (index and instance counts read from a buffer); "
		 VKQS_SPEC_VS_REUSE,
	 .params = VKQS_PARAMS(inst_params, inst_name)},
};

VKQS_GROUP(stats, input_assembly, cases);
