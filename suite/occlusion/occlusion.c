/* Occlusion queries (spec 18.3): exact precise counts of known pixel
 * rectangles, points, lines and triangles, zero when nothing passes,
 * non-zero non-precise results exactly when samples passed, the
 * per-fragment tests (depth, stencil, scissor, sample mask, discard) seen
 * through the count, queries inside secondary command buffers, and clears,
 * load operations and transfers recorded inside a query.
 *
 * Why a w x h rectangle counts exactly w * h * samples (spec
 * "Rasterization", polygon rasterization and multisampling):
 * - vkqs_draw_rect places the vertices at integer pixel coordinates of a
 *   64 x 64 framebuffer.  p / 64 * 2 - 1 in the vertex shader and the
 *   viewport transform back are exact in binary floating point (dyadic
 *   values of a few bits) and integers lie on every sub-pixel grid, so the
 *   edges sit exactly on pixel boundaries.
 * - With standardSampleLocations every sample lies strictly inside its pixel
 *   (1 sample: (0.5, 0.5); 4 samples: (0.375, 0.125), (0.875, 0.375),
 *   (0.125, 0.625), (0.625, 0.875)), so no sample lies on an outer edge and a
 *   pixel's samples are all inside the rectangle or all outside.  Devices
 *   without standard locations are NotSupported for the exact cases.
 * - The two triangles share a diagonal; a sample on it is covered by exactly
 *   one of them (the shared-edge rule of polygon rasterization).
 * - "Sample Counting": "The occlusion query sample counter increments by
 *   one for each sample with a coverage value of 1 in each fragment that
 *   survives all the per-fragment tests", so a fully covered pixel adds
 *   `samples` (no sample shading, sample mask all ones).
 */
#include "occlusion.h"

VKQS_GROUP_DECL(occlusion, precise);
VKQS_GROUP_DECL(occlusion, depth);
VKQS_GROUP_DECL(occlusion, nonprecise);
VKQS_GROUP_DECL(occlusion, scissor);
VKQS_GROUP_DECL(occlusion, discard);
VKQS_GROUP_DECL(occlusion, clear);
VKQS_GROUP_DECL(occlusion, point);
VKQS_GROUP_DECL(occlusion, line);
VKQS_GROUP_DECL(occlusion, triangle);
VKQS_GROUP_DECL(occlusion, stencil);
VKQS_GROUP_DECL(occlusion, sample_mask);
VKQS_GROUP_DECL(occlusion, transfer);
VKQS_GROUP_DECL(occlusion, secondary);
VKQS_GROUP_DECL(occlusion, attachments);
VKQS_GROUP_DECL(occlusion, suspend);
VKQS_GROUP_DECL(occlusion, conditional);
VKQS_GROUP_DECL(occlusion, tessellation);

/* The listing order: the groups' rows, whole unless a part says which (first, count). */
static const struct vkqs_area_part parts[] = {
	{&vkqs_occlusion_precise, 0, 0},
	{&vkqs_occlusion_depth, 0, 2},
	{&vkqs_occlusion_nonprecise, 0, 1},
	{&vkqs_occlusion_scissor, 0, 1},
	{&vkqs_occlusion_discard, 0, 1},
	{&vkqs_occlusion_clear, 0, 5},
	{&vkqs_occlusion_point, 0, 0},
	{&vkqs_occlusion_line, 0, 0},
	{&vkqs_occlusion_triangle, 0, 0},
	{&vkqs_occlusion_depth, 2, 1},
	{&vkqs_occlusion_scissor, 1, 1},
	{&vkqs_occlusion_discard, 1, 4},
	{&vkqs_occlusion_stencil, 0, 0},
	{&vkqs_occlusion_sample_mask, 0, 0},
	{&vkqs_occlusion_transfer, 0, 0},
	{&vkqs_occlusion_clear, 5, 1},
	{&vkqs_occlusion_secondary, 0, 0},
	{&vkqs_occlusion_nonprecise, 1, 1},
	{&vkqs_occlusion_attachments, 0, 0},
	{&vkqs_occlusion_suspend, 0, 0},
	{&vkqs_occlusion_conditional, 0, 0},
	{&vkqs_occlusion_tessellation, 0, 0},
};

VKQS_AREA_OF_PARTS(occlusion, parts);
