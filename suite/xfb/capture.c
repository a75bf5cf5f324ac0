/* vkqs.xfb.capture.*: the captured bytes themselves: the XfbBuffer layout and outputs
 * to a buffer that is not bound. */
#include "xfb.h"

static float get_f32(const struct vkqs_buffer *b, VkDeviceSize off)
{
	float v;
	memcpy(&v, b->map + off, 4);
	return v;
}

#define LAYOUT_STRIDE0 32u

#define LAYOUT_STRIDE1 12u

/* One captured vertex of xfb_layout.vert: buffer 0 (stride 32) holds
 * gl_Position at 0..15 and (VertexIndex, InstanceIndex, tag) at 20..31,
 * buffer 1 (stride 12) the int VertexIndex * 16 + InstanceIndex at 4..7;
 * the other bytes are no output's: "any portion of the reserved storage
 * not associated with an output variable with an assigned transform
 * feedback offset will be unmodified".  Returns the VertexIndex, or
 * UINT32_MAX after a failure. */
static uint32_t check_layout_vertex(struct vkqs_ctx *ctx, const struct vkqs_buffer *b0,
				    const struct vkqs_buffer *b1, uint32_t rec, uint32_t instance,
				    float tag)
{
	VkDeviceSize o0 = (VkDeviceSize)rec * LAYOUT_STRIDE0, o1 = (VkDeviceSize)rec * LAYOUT_STRIDE1;
	float vf = get_f32(b0, o0 + 20);
	uint32_t v = xfb_small_int(vf);
	float want_pos[4] = {default_grid[0] + (float)(v / 2) * default_grid[2],
			     default_grid[1] + (float)(v % 2) * default_grid[3], 0.5f, 1.0f};
	bool ok = v < 64;
	for (int c = 0; c < 4; c++)
		ok &= get_f32(b0, o0 + 4 * (VkDeviceSize)c) == want_pos[c];
	ok &= get_f32(b0, o0 + 24) == (float)instance && get_f32(b0, o0 + 28) == tag;
	ok &= xfb_get_u32(b1, o1 + 4) == v * 16 + instance;
	if (!ok) {
		vkqs_fail(ctx,
			  "vertex record %u: buffer 0 has position (%g, %g, %g, %g), ids (%g, %g, %g); "
			  "buffer 1 has %u; expected position (%g, %g, 0.5, 1), ids (%u, %u, %g) and "
			  "%u for VertexIndex %u (Offset/XfbStride layout, \"Transform Feedback\")",
			  rec, get_f32(b0, o0), get_f32(b0, o0 + 4), get_f32(b0, o0 + 8),
			  get_f32(b0, o0 + 12), vf, get_f32(b0, o0 + 24), get_f32(b0, o0 + 28),
			  xfb_get_u32(b1, o1 + 4), want_pos[0], want_pos[1], v, instance, tag,
			  v * 16 + instance, v);
		return UINT32_MAX;
	}
	xfb_expect_untouched(ctx, b0, o0 + 16, o0 + 20, "no output has Offset 16 in buffer 0");
	xfb_expect_untouched_in(ctx, b1, "transform feedback buffer 1", o1, o1 + 4,
			    "no output has Offset 0 in buffer 1");
	xfb_expect_untouched_in(ctx, b1, "transform feedback buffer 1", o1 + 8, o1 + 12,
			    "no output has Offset 8 in buffer 1");
	return v;
}

/* Outputs at their Offset in their XfbBuffer, the builtin gl_Position
 * included; each buffer advances by its own XfbStride per vertex; gaps in
 * a stride keep their bytes.  6 vertices x 2 instances (firstInstance 1)
 * of a triangle list: 4 triangles. */
static void capture_layout(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	if (xfb_props(ctx).maxTransformFeedbackBuffers < 2)
		vkqs_skip(ctx, "maxTransformFeedbackBuffers is 1");
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	struct once o = {.pd = {.topology = topo, .vs = VS_LAYOUT}, .tag = 9.0f, .vertices = 6,
			 .instances = 2, .first_instance = 1, .second_buffer = true};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	struct vkqs_buffer *b0 = out.b, *b1 = out.b1;

	xfb_expect_stream(ctx, "2 instances of 2 triangles", out.r, 4, 4);
	for (uint32_t prim = 0; prim < 4 && ctx->status == VKQS_PASS; prim++) {
		uint32_t instance = 1 + prim / 2, got[3], want[3];
		for (uint32_t j = 0; j < 3; j++) {
			got[j] = check_layout_vertex(ctx, b0, b1, prim * 3 + j, instance, 9.0f);
			want[j] = xfb_prim_vertex(topo, prim % 2, j);
		}
		VKQS_EXPECTF(ctx, xfb_rotation_of(got, want, 3),
			     "triangle %u: vertices (%u, %u, %u), expected a rotation of (%u, %u, %u)",
			     prim, got[0], got[1], got[2], want[0], want[1], want[2]);
	}
	xfb_expect_untouched(ctx, b0, 12 * LAYOUT_STRIDE0, BIG, "only 12 vertices were captured");
	xfb_expect_untouched_in(ctx, b1, "transform feedback buffer 1", 12 * LAYOUT_STRIDE1, BIG,
			    "only 12 vertices were captured");
}

/* "Any outputs made to a XfbBuffer that is not bound to a transform
 * feedback buffer is ignored": xfb_layout.vert with only buffer 0 bound
 * captures buffer 0 as usual, and counts the same. */
static void capture_unbound_buffer(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST, .vs = VS_LAYOUT},
			 .tag = 2.0f, .vertices = 5, .instances = 1};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	struct vkqs_buffer *b0 = out.b;

	xfb_expect_stream(ctx, "5 points, buffer 1 unbound", out.r, 5, 5);
	for (uint32_t i = 0; i < 5; i++) {
		VkDeviceSize o0 = (VkDeviceSize)i * LAYOUT_STRIDE0;
		float want_pos[4] = {default_grid[0] + (float)(i / 2) * default_grid[2],
				     default_grid[1] + (float)(i % 2) * default_grid[3], 0.5f, 1.0f};
		bool ok = get_f32(b0, o0 + 20) == (float)i && get_f32(b0, o0 + 24) == 0.0f &&
			  get_f32(b0, o0 + 28) == 2.0f;
		for (int c = 0; c < 4; c++)
			ok &= get_f32(b0, o0 + 4 * (VkDeviceSize)c) == want_pos[c];
		if (!ok) {
			vkqs_fail(ctx, "point %u: buffer 0 has position (%g, %g, %g, %g), ids (%g, %g, "
				       "%g); expected (%g, %g, 0.5, 1), (%u, 0, 2)",
				  i, get_f32(b0, o0), get_f32(b0, o0 + 4), get_f32(b0, o0 + 8),
				  get_f32(b0, o0 + 12), get_f32(b0, o0 + 20), get_f32(b0, o0 + 24),
				  get_f32(b0, o0 + 28), want_pos[0], want_pos[1], i);
			break;
		}
		xfb_expect_untouched(ctx, b0, o0 + 16, o0 + 20, "no output has Offset 16 in buffer 0");
	}
	xfb_expect_untouched(ctx, b0, 5 * LAYOUT_STRIDE0, BIG, "only 5 points were captured");
}

/* Transform feedback with tessellation as the last pre-rasterization
 * stage (radv once left the stream query off there: mesa 505290dc44a).
 * 12 vertices in 3-point patches, each tessellated into one triangle of
 * its corners: 4 triangles.  Into room for all: written 4, needed 4, each
 * triangle's three captured positions its patch's corners, patches in
 * order; into room for 2: written 2, needed 4 (18.7). */
static const bool tess_small[] = {false, true};
static void tess_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", *(const bool *)param ? "buffer_for_two" : "buffer_for_all");
}

static void capture_after_tessellation(struct vkqs_ctx *ctx, const void *param)
{
	bool small = *(const bool *)param;
	xfb_require_xfb_query(ctx);
	vkqs_require_feature(ctx, "tessellationShader");
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
				.tess_xfb = true},
			 .vertices = 12, .instances = 1, .size = small ? 96 : 0};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	uint32_t tris = small ? 2 : 4;
	xfb_expect_stream(ctx, small ? "4 tessellated triangles into room for 2"
				     : "4 tessellated triangles",
			  out.r, tris, 4);
	for (uint32_t t = 0; t < tris && ctx->status == VKQS_PASS; t++) {
		bool seen[3] = {false, false, false};
		for (uint32_t j = 0; j < 3; j++) {
			VkDeviceSize off = (VkDeviceSize)(3 * t + j) * 16;
			for (uint32_t k = 0; k < 3; k++) {
				uint32_t i = 3 * t + k;
				float want[4] = {default_grid[0] + (float)(i / 2) * default_grid[2],
						 default_grid[1] + (float)(i % 2) * default_grid[3], 0.0f,
						 1.0f};
				bool same = true;
				for (int c = 0; c < 4; c++)
					same &= c == 2 || get_f32(out.b, off + 4 * (VkDeviceSize)c) == want[c];
				seen[k] |= same;
			}
		}
		VKQS_EXPECTF(ctx, seen[0] && seen[1] && seen[2],
			     "captured triangle %u is not the corners of patch %u (vertices %u..%u): "
			     "first record (%g, %g, %g, %g)", t, t, 3 * t, 3 * t + 2,
			     get_f32(out.b, 48ull * t), get_f32(out.b, 48ull * t + 4),
			     get_f32(out.b, 48ull * t + 8), get_f32(out.b, 48ull * t + 12));
	}
	if (!small)
		xfb_expect_untouched(ctx, out.b, 12 * 16, BIG, "only 12 vertices were captured");
}

static const struct vkqs_case cases[] = {
	{"capture.layout", capture_layout,
	 "\"Transform Feedback\": outputs at Offset in XfbBuffer, XfbStride per vertex, other "
	 "bytes of the stride unmodified"},
	{"capture.after_tessellation", capture_after_tessellation,
	 "18.7 transform feedback stream queries: primitives written and needed, with "
	 "tessellation the last pre-rasterization stage; Transform Feedback: the outputs of "
	 "the last pre-rasterization stage are captured",
	 VKQS_PARAMS(tess_small, tess_name)},
	{"capture.unbound_buffer", capture_unbound_buffer,
	 "\"Transform Feedback\": outputs to an XfbBuffer that is not bound are ignored"},
};

VKQS_GROUP(xfb, capture, cases);
