/* Pipeline statistics queries (spec 18.4): every core counter alone and
 * all together, values in bit order at 32 and 64 bits through
 * vkGetQueryPoolResults and vkCmdCopyQueryPoolResults, the topologies'
 * counts (incomplete primitives, primitive restart, vertex reuse,
 * instancing, indirect draws), clipping, fragment shading, compute
 * dispatches (direct, indirect, on a compute-only queue), the scope of a
 * query (empty queries are zero, nothing leaks in from outside, counters
 * restart at zero), clears, blits, resolves and copies between draws in a
 * query, and secondary command buffers.
 *
 * How much the spec fixes.  18.4 describes what each counter counts and
 * then says "These values are intended to measure relative statistics on
 * one implementation.  Various device architectures will count these
 * values differently", with a note that tile-based devices "may need to
 * replay the scene multiple times, affecting some of the counts".  So
 * every counter is checked in a verdict band (struct vkqs_band,
 * docs/verdicts.md):
 * - below the least the current spec allows: Fail.  The lower bounds come
 *   from the counters' definitions and the shader-execution rules they
 *   count, for set-ups that leave no latitude: the area's fragment shader
 *   varies with the location (no merged fragments, 1.3.274), instances
 *   that must each be shaded use a gl_InstanceIndex-dependent vertex
 *   shader, adjacency counts the main primitives' vertices;
 * - fewer than the stage description where a reuse, merge or open clause
 *   allows it, or more than the description: CompatibilityWarning;
 * - the counter of a shading stage missing from any pipeline the query
 *   used is undefined (1.3.282): no verdict, logged (stats_use_pipeline);
 * - where no work exists at all (an empty query, draws of nothing, input
 *   assembly and clipping around a dispatch, fragments of a primitive that
 *   makes none) anything but 0 is Fail.
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
#include "stats.h"

VKQS_GROUP_DECL(stats, bits);
VKQS_GROUP_DECL(stats, input_assembly);
VKQS_GROUP_DECL(stats, clipping);
VKQS_GROUP_DECL(stats, fragment);
VKQS_GROUP_DECL(stats, compute);
VKQS_GROUP_DECL(stats, scope);
VKQS_GROUP_DECL(stats, meta);
VKQS_GROUP_DECL(stats, secondary);
VKQS_GROUP_DECL(stats, geometry);
VKQS_GROUP_DECL(stats, tessellation);
VKQS_GROUP_DECL(stats, reset);
VKQS_GROUP_DECL(stats, cluster_culling);

/* The listing order: the groups' rows, whole unless a part says which (first, count). */
static const struct vkqs_area_part parts[] = {
	{&vkqs_stats_bits, 0, 0},
	{&vkqs_stats_input_assembly, 0, 0},
	{&vkqs_stats_clipping, 0, 0},
	{&vkqs_stats_fragment, 0, 0},
	{&vkqs_stats_compute, 0, 0},
	{&vkqs_stats_scope, 0, 0},
	{&vkqs_stats_meta, 0, 0},
	{&vkqs_stats_secondary, 0, 0},
	{&vkqs_stats_geometry, 0, 0},
	{&vkqs_stats_tessellation, 0, 0},
	{&vkqs_stats_reset, 0, 0},
	{&vkqs_stats_cluster_culling, 0, 0},
};

VKQS_AREA_OF_PARTS(stats, parts);
