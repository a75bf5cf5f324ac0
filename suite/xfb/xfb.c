/* Transform feedback queries (spec 18.7) and primitives generated queries
 * (spec 18.8), with transform feedback itself (spec "Transform Feedback",
 * chapter "Fixed-Function Vertex Post-Processing") as the other half of the
 * oracle: what a query says was written must be in the buffer, and nothing
 * more.
 *
 * Oracles:
 * - Primitive counts come from the topology and the vertex count (spec
 *   "Primitive Topologies"): a list of n vertices holds n / k primitives
 *   (k = 1, 2, 3 vertices each), a line strip n - 1, a triangle strip or
 *   fan n - 2; "Individual lines or triangles of a strip or fan primitive
 *   will be extracted and recorded separately.  Incomplete primitives are
 *   not recorded"; a primitive restart index starts a new strip.  Both
 *   queries count primitives reaching the transform feedback stage, which
 *   comes "before any other fixed-function vertex post-processing", so
 *   clipping, culling and rasterizer discard change no count.
 * - Primitives written: "If there is less space remaining in any of the
 *   transform feedback buffers than the size of all of the vertex data for
 *   that primitive based on the XfbStride for that XfbBuffer then no vertex
 *   data of that primitive is recorded in any transform feedback buffer,
 *   and the value for the number of primitives written ... is no longer
 *   incremented".  With a binding of S bytes, stride s and k vertices per
 *   primitive: written = min(primitives, floor(S / (k s))); needed (18.7's
 *   second integer) = primitives.
 * - Buffer contents: primitive after primitive, "all values for a given
 *   vertex are written before writing values for any other vertex"; an
 *   implementation "may write out any vertex within the primitive first,
 *   but all subsequent vertices for that primitive must be written out in a
 *   consistent winding order" of the topology: each primitive's records
 *   are a rotation of the spec's vertex order.  Bytes of the stride that no
 *   captured output covers "will be unmodified", and nothing is written
 *   past what the query reports (buffers are pre-filled with a sentinel).
 * - Vertex positions are dyadic (x0 + (i / 2) dx with dx = 1/8), so the
 *   captured gl_Position is exact whatever the arithmetic.
 */
#include "xfb.h"

VKQS_GROUP_DECL(xfb, stream);
VKQS_GROUP_DECL(xfb, capture);
VKQS_GROUP_DECL(xfb, pgq);
VKQS_GROUP_DECL(xfb, results);
VKQS_GROUP_DECL(xfb, inflight);
VKQS_GROUP_DECL(xfb, meta);

/* The listing order: the groups' rows, whole unless a part says which (first, count). */
static const struct vkqs_area_part parts[] = {
	{&vkqs_xfb_stream, 0, 0},
	{&vkqs_xfb_capture, 0, 0},
	{&vkqs_xfb_pgq, 0, 0},
	{&vkqs_xfb_results, 0, 0},
	{&vkqs_xfb_inflight, 0, 0},
	{&vkqs_xfb_meta, 0, 0},
};

VKQS_AREA_OF_PARTS(xfb, parts);
