/* vkqs.xfb.stream.*: transform feedback stream queries: primitives written and needed
 * per topology, overflow, counting only while active, indexed queries, resumed
 * counters, instancing, restart and what happens after capture. */
#include "xfb.h"
#include "verdict.h"
#include "shaders/xfb_streams_geom.h"
#include "shaders/xfb_streams_raster_geom.h"

#define MAX_PRIMS 64u

/* Counter writes of one transform feedback made visible to the next's
 * counter reads (VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT happens
 * in DRAW_INDIRECT), and its data writes ordered before the next's. */
static void resume_barrier(struct vkqs_ctx *ctx, VkCommandBuffer cb)
{
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT,
		.dstAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
				 VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT,
	};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT,
				VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
					VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT,
				0, 1, &mb, 0, NULL, 0, NULL);
}

static struct rec get_rec(const struct vkqs_buffer *b, VkDeviceSize off)
{
	struct rec r;
	memcpy(&r, b->map + off, sizeof(r));
	return r;
}

/* What one drawn primitive must have produced. */
struct want_prim {
	uint32_t v[3];     /* VertexIndex of each vertex, the spec's order */
	uint32_t instance;
	float tag;
};

/* The buffer from byte `base` holds `n` primitives of k vertices as
 * xfb_count.vert writes them (stride 16), each a rotation of want[i]. */
static void expect_records(struct vkqs_ctx *ctx, const struct vkqs_buffer *b, VkDeviceSize base,
			   const struct want_prim *want, uint32_t n, uint32_t k)
{
	for (uint32_t i = 0; i < n; i++) {
		VkDeviceSize at = base + (VkDeviceSize)i * k * COUNT_STRIDE;
		uint32_t got[3] = {0, 0, 0};
		bool ok = true;
		for (uint32_t j = 0; j < k; j++) {
			struct rec r = get_rec(b, at + (VkDeviceSize)j * COUNT_STRIDE);
			got[j] = xfb_small_int(r.vertex);
			ok &= r.instance == (float)want[i].instance && r.tag == want[i].tag &&
			      r.one == 1.0f;
		}
		if (!ok || !xfb_rotation_of(got, want[i].v, k)) {
			struct rec r0 = get_rec(b, at);
			vkqs_fail(ctx,
				  "captured primitive %u at byte %llu: vertices (%d, %d, %d), first "
				  "record's instance/tag/w (%g, %g, %g); expected a rotation of "
				  "(%u, %u, %u), instance %u, tag %g, w 1 (\"Transform Feedback\": "
				  "vertices in the topology's order, -1: not a vertex index)",
				  i, (unsigned long long)at, (int)got[0], k > 1 ? (int)got[1] : 0,
				  k > 2 ? (int)got[2] : 0, r0.instance, r0.tag, r0.one, want[i].v[0],
				  k > 1 ? want[i].v[1] : 0, k > 2 ? want[i].v[2] : 0, want[i].instance,
				  want[i].tag);
			return;
		}
	}
}

/* The primitives of a non-indexed draw of n vertices (first vertex 0),
 * instances [0, instances), into w; returns how many. */
static uint32_t want_draw(VkPrimitiveTopology t, uint32_t n, uint32_t instances, float tag,
			  uint32_t vertex_base, struct want_prim *w, uint32_t cap)
{
	uint32_t np = xfb_prim_count(t, n), out = 0;
	for (uint32_t inst = 0; inst < instances; inst++)
		for (uint32_t i = 0; i < np && out < cap; i++, out++) {
			for (uint32_t j = 0; j < 3; j++)
				w[out].v[j] = j < xfb_topo_of(t)->k ? vertex_base + xfb_prim_vertex(t, i, j) : 0;
			w[out].instance = inst;
			w[out].tag = tag;
		}
	return out;
}

/* The primitives of a non-indexed draw of n vertices (first vertex 0),
 * instances [0, instances), tagged `tag`, are the whole of buffer b's
 * records from byte 0, and nothing after them up to BIG is written. */
static void expect_draw_captured(struct vkqs_ctx *ctx, const struct vkqs_buffer *b,
				 VkPrimitiveTopology t, uint32_t n, uint32_t instances, float tag,
				 const char *why)
{
	uint32_t k = xfb_topo_of(t)->k;
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t nw = want_draw(t, n, instances, tag, 0, w, MAX_PRIMS);
	expect_records(ctx, b, 0, w, nw, k);
	xfb_expect_untouched(ctx, b, (VkDeviceSize)nw * k * COUNT_STRIDE, BIG, why);
}

/* Strips (0 1 2 3), (4 5), (6 7 8): triangles (0 1 2), (1 3 2) and
 * (6 7 8) ("Primitive Restart": a restart index starts a new strip; the
 * strip of 2 vertices is incomplete), VertexIndex = index + vertexOffset. */
static uint32_t want_restart(uint32_t instances, float tag, struct want_prim *w)
{
	static const uint32_t tris[3][3] = {{0, 1, 2}, {1, 3, 2}, {6, 7, 8}};
	uint32_t n = 0;
	for (uint32_t inst = 0; inst < instances; inst++)
		for (uint32_t i = 0; i < 3; i++, n++) {
			for (uint32_t j = 0; j < 3; j++)
				w[n].v[j] = tris[i][j] + RESTART_VERTEX_OFFSET;
			w[n].instance = inst;
			w[n].tag = tag;
		}
	return n;
}

/* Ends t's render pass, submits and waits, and reads queries [0, nq) of a
 * transform feedback query pool into r (2 values each). */
static void end_xfb_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct vkqs_buffer *b,
			 VkQueryPool pool, uint32_t nq, uint64_t *r)
{
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, &b, 1);
	xfb_results(ctx, pool, 0, nq, 2, r);
}

/* Pushes the default grid with `tag` for p's layout (p already bound). */
static void push_tag(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_pipeline *p,
		     float tag)
{
	struct push pc = {{default_grid[0], default_grid[1], default_grid[2], default_grid[3]},
			  0.5f, tag, {0, 0}};
	D->vkCmdPushConstants(cb, p->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pc), &pc);
}

/* One transform feedback query around one draw with a large buffer:
 * written == needed == the topology's primitive count, and the buffer
 * holds exactly those primitives. */
static void stream_counts(struct vkqs_ctx *ctx, const void *param)
{
	const struct count_param *cp = param;
	xfb_require_xfb_query(ctx);
	struct once o = {.pd = {.topology = cp->topology, .vs = VS_COUNT}, .tag = 3.0f,
			 .vertices = cp->vertices, .instances = 1};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	uint32_t np = xfb_prim_count(cp->topology, cp->vertices);
	xfb_expect_stream(ctx, "one draw", out.r, np, np);
	expect_draw_captured(ctx, out.b, cp->topology, cp->vertices, 1, 3.0f,
			     "past the primitives drawn");
}

struct overflow_param {
	VkPrimitiveTopology topology;
	uint32_t vertices;
	uint32_t size;    /* pSizes[0]: bytes of the binding */
};

static void overflow_param_name(const void *p, char *buf, size_t size)
{
	const struct overflow_param *o = p;
	snprintf(buf, size, "%s_%u_size_%u", xfb_topo_of(o->topology)->name, o->vertices, o->size);
}

/* Stride 16: a triangle takes 48 bytes, a line 32, a point 16. */
static const struct overflow_param overflow_params[] = {
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 12, 100},  /* 2 of 4, 4 bytes spare */
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7, 143},  /* 2 of 5, 1 byte short of 3 */
	{VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 8, 80},       /* exactly 5 of 8 */
	{VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 6, 96},       /* exactly 3 of 5 */
	{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 6, 44},     /* none of 4 */
};

/* A binding too small for the draw (pSizes[0] = size inside a larger
 * buffer, at offset 16): written = floor(size / (k * 16)), needed = all;
 * the bytes after the last whole primitive stay untouched, inside the
 * binding and beyond it; the counter buffer gets the bytes written
 * (vkCmdEndTransformFeedbackEXT: "the byte offset from the start of the
 * transform feedback buffer binding where the next vertex data would be
 * written"). */
static void stream_overflow(struct vkqs_ctx *ctx, const void *param)
{
	const struct overflow_param *op = param;
	xfb_require_xfb_query(ctx);
	const struct topo *tp = xfb_topo_of(op->topology);
	const VkDeviceSize base = 16;
	struct once o = {.pd = {.topology = op->topology, .vs = VS_COUNT}, .tag = 5.0f,
			 .vertices = op->vertices, .instances = 1, .size = 1024, .offset = base,
			 .range = op->size, .counter = true, .counter_off = 4};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	struct vkqs_buffer *b = out.b, *counter = out.counter;
	VkDeviceSize counter_off = o.counter_off;

	uint32_t np = xfb_prim_count(op->topology, op->vertices);
	uint32_t fit = op->size / (tp->k * COUNT_STRIDE);
	uint32_t written = fit < np ? fit : np;
	xfb_expect_stream(ctx, "binding too small", out.r, written, np);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	want_draw(op->topology, op->vertices, 1, 5.0f, 0, w, MAX_PRIMS);
	expect_records(ctx, b, base, w, written, tp->k);
	xfb_expect_untouched(ctx, b, 0, base, "before the binding's offset");
	xfb_expect_untouched(ctx, b, base + (VkDeviceSize)written * tp->k * COUNT_STRIDE, 1024,
			 "no whole primitive fits there");
	uint32_t c = xfb_get_u32(counter, counter_off);
	VKQS_EXPECTF(ctx, c == written * tp->k * COUNT_STRIDE,
		     "counter buffer after vkCmdEndTransformFeedbackEXT = %u, expected %u: the "
		     "byte offset from the start of the binding after %u primitives of %u bytes",
		     c, written * tp->k * COUNT_STRIDE, written, tp->k * COUNT_STRIDE);
	xfb_expect_untouched_in(ctx, counter, "counter buffer", 0, counter_off,
			    "before pCounterBufferOffsets[0]");
	xfb_expect_untouched_in(ctx, counter, "counter buffer", counter_off + 4, 16,
			    "after the 4-byte counter");
}

/* 18.7: "This query is updated during drawing commands while transform
 * feedback is active".  Inside one query: a draw before
 * vkCmdBeginTransformFeedbackEXT, one while active, one after
 * vkCmdEndTransformFeedbackEXT; only the middle one counts, and only it is
 * captured ("When transform feedback is inactive, no vertices are
 * recorded"). */
static void stream_only_while_active(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 1, 1.0f, b);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	push_tag(ctx, cb, p, 2.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	push_tag(ctx, cb, p, 3.0f);
	D->vkCmdDraw(cb, 3, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t r[2];
	end_xfb_pass(ctx, cb, b, pool, 1, r);
	xfb_expect_stream(ctx, "2 + 3 + 1 triangles, the 3 while active", r, 3, 3);
	expect_draw_captured(ctx, b, topo, 9, 1, 2.0f,
			     "only 3 triangles were drawn while transform feedback was active");
}

/* Three queries in a row in one transform feedback: each counts its own
 * draw (18.7: "When a transform feedback query begins, the count of
 * primitives written and primitives needed starts from zero"), the last
 * one none; the second draw's lines are appended after the first's
 * ("subsequent primitives are appended to the buffer"). */
static void stream_multiple_queries(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 3, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 3, 1.0f, b);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	push_tag(ctx, cb, p, 2.0f);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	D->vkCmdDraw(cb, 5, 1, 6, 0); /* vertices 6..10: 2 lines and one left over */
	D->vkCmdEndQuery(cb, pool, 1);
	D->vkCmdBeginQuery(cb, pool, 2, 0);
	D->vkCmdEndQuery(cb, pool, 2);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[6];
	end_xfb_pass(ctx, cb, b, pool, 3, r);
	xfb_expect_stream(ctx, "query 0: 3 lines", r, 3, 3);
	xfb_expect_stream(ctx, "query 1: 2 lines", r + 2, 2, 2);
	xfb_expect_stream(ctx, "query 2: no draw", r + 4, 0, 0);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t n0 = want_draw(topo, 6, 1, 1.0f, 0, w, MAX_PRIMS);
	uint32_t n1 = want_draw(topo, 5, 1, 2.0f, 6, w + n0, MAX_PRIMS - n0);
	expect_records(ctx, b, 0, w, n0 + n1, 2);
	xfb_expect_untouched(ctx, b, (VkDeviceSize)(n0 + n1) * 2 * COUNT_STRIDE, BIG,
			 "only 5 lines were drawn");
}

/* 18.2: "Calling vkCmdBeginQuery is equivalent to calling
 * vkCmdBeginQueryIndexedEXT with the index parameter set to zero", and
 * likewise for the ends; 18.7: the plain commands query vertex stream
 * zero.  Query 0 with the plain commands and query 1 with the indexed
 * ones (index 0) around draws of 5 points each. */
static void stream_indexed_zero(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 1.0f, b);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 5, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 0);
	D->vkCmdDraw(cb, 5, 1, 5, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[4];
	end_xfb_pass(ctx, cb, b, pool, 2, r);
	xfb_expect_stream(ctx, "vkCmdBeginQuery, 5 points", r, 5, 5);
	xfb_expect_stream(ctx, "vkCmdBeginQueryIndexedEXT index 0, 5 points", r + 2, 5, 5);
}

/* 18.7: the query counts "by the vertex stream being captured"; without a
 * geometry shader every primitive goes to vertex stream 0, so a query of
 * stream 1 (vkCmdBeginQueryIndexedEXT index 1, active together with one of
 * stream 0) counts nothing. */
static void stream_nonzero_stream(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	uint32_t streams = xfb_props(ctx).maxTransformFeedbackStreams;
	if (streams < 2)
		vkqs_skip(ctx, "maxTransformFeedbackStreams is %u: no vertex stream 1", streams);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 1.0f, b);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	uint64_t r[4];
	end_xfb_pass(ctx, cb, b, pool, 2, r);
	xfb_expect_stream(ctx, "stream 0, 4 triangles", r, 4, 4);
	xfb_expect_stream(ctx, "stream 1, nothing emitted to it", r + 2, 0, 0);
}

/* xfb_streams.geom emits, per input triangle, one point to vertex stream 0
 * and two to stream 1, captured to buffers 0 and 1.  Two indexed queries,
 * of streams 0 and 1, active together around 4 triangles: 18.7 counts "by
 * the vertex stream being captured": stream 0 writes and needs 4
 * primitives, stream 1 8; each buffer holds its stream's points (the
 * primitive ids, in order). */
static void stream_geometry_streams(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	xfb_require_xfb_query(ctx);
	xfb_require_streams_geom(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .geom = xfb_streams_geom, .geom_size = sizeof(xfb_streams_geom)};
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &d);
	struct vkqs_buffer *b[2] = {xfb_buffer(ctx, BIG), xfb_buffer(ctx, BIG)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 0.0f, b[0]);
	xfb_bind_xfb(ctx, cb, 1, b[1], 0, VK_WHOLE_SIZE);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, b, 2);
	uint64_t r[4];
	xfb_results(ctx, pool, 0, 2, 2, r);
	xfb_expect_stream(ctx, "stream 0, one point per triangle", r, 4, 4);
	xfb_expect_stream(ctx, "stream 1, two points per triangle", r + 2, 8, 8);
	for (uint32_t i = 0; i < 4; i++) {
		float id;
		uint32_t w = xfb_get_u32(b[0], 16 * i);
		memcpy(&id, &w, sizeof(id));
		VKQS_EXPECTF(ctx, id == (float)i, "buffer 0, point %u: primitive id %g captured, "
			     "%u expected", i, (double)id, i);
	}
	for (uint32_t i = 0; i < 8; i++) {
		float id, k;
		uint32_t w0 = xfb_get_u32(b[1], 16 * i), w1 = xfb_get_u32(b[1], 16 * i + 4);
		memcpy(&id, &w0, sizeof(id));
		memcpy(&k, &w1, sizeof(k));
		VKQS_EXPECTF(ctx, id == (float)(i / 2) && k == (float)(i % 2 + 1),
			     "buffer 1, point %u: (%g, %g) captured, (%u, %u) expected", i,
			     (double)id, (double)k, i / 2, i % 2 + 1);
	}
	xfb_expect_untouched(ctx, b[0], 16 * 4, BIG, "past stream 0's 4 points");
	xfb_expect_untouched(ctx, b[1], 16 * 8, BIG, "past stream 1's 8 points");
}

/* Two vertex streams, the rasterized one (0) not captured and stream 1
 * captured (AMDVLK GFX11 left the rasterization stream unprocessed then:
 * GPUOpen-Drivers/llpc#2256).  Around 4 triangles, with transform feedback
 * active: primitives generated of stream 0 counts its 4 points whether or
 * not they are captured (18.8 "regardless of whether transform feedback is
 * active"), of stream 1 its 8; the stream query of stream 1 writes and
 * needs 8 (18.7), and buffer 0 holds stream 1's points in order. */
static void stream_raster_uncaptured(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	xfb_require_xfb_query(ctx);
	xfb_require_streams_geom(ctx);
	xfb_require_pgq(ctx);
	vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
				  "primitivesGeneratedQueryWithNonZeroStreams");
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .geom = xfb_streams_raster_geom,
			  .geom_size = sizeof(xfb_streams_raster_geom)};
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &d);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool xq = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	VkQueryPool gq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, xq, 0, 1);
	D->vkCmdResetQueryPool(cb, gq, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 0.0f);
	xfb_bind_xfb(ctx, cb, 0, b, 0, VK_WHOLE_SIZE);
	D->vkCmdBeginQueryIndexedEXT(cb, xq, 0, 0, 1);
	D->vkCmdBeginQueryIndexedEXT(cb, gq, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, gq, 1, 0, 1);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQueryIndexedEXT(cb, gq, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, gq, 0, 0);
	D->vkCmdEndQueryIndexedEXT(cb, xq, 0, 1);
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, &b, 1);
	uint64_t r[2], g[2];
	xfb_results(ctx, xq, 0, 1, 2, r);
	xfb_results(ctx, gq, 0, 2, 1, g);
	xfb_expect_stream(ctx, "stream 1, captured, two points per triangle", r, 8, 8);
	xfb_expect_pgq(ctx, "stream 0, rasterized and not captured, one point per triangle", g[0], 4);
	xfb_expect_pgq(ctx, "stream 1, two points per triangle", g[1], 8);
	for (uint32_t i = 0; i < 8; i++) {
		float id, k;
		uint32_t w0 = xfb_get_u32(b, 16 * i), w1 = xfb_get_u32(b, 16 * i + 4);
		memcpy(&id, &w0, sizeof(id));
		memcpy(&k, &w1, sizeof(k));
		VKQS_EXPECTF(ctx, id == (float)(i / 2) && k == (float)(i % 2 + 1),
			     "buffer 0, point %u: (%g, %g) captured, (%u, %u) expected", i,
			     (double)id, (double)k, i / 2, i % 2 + 1);
	}
	xfb_expect_untouched(ctx, b, 16 * 8, BIG, "past stream 1's 8 points");
}

/* Transform feedback resumed from a counter buffer, at binding offset 32:
 * the first one captures 3 triangles and vkCmdEndTransformFeedbackEXT
 * stores 144 ("the byte offset from the start of the transform feedback
 * buffer binding where the next vertex data would be written"); the second,
 * begun with that counter ("the starting points within the transform
 * feedback buffers are adjusted so data is appended to the previously
 * written values"), appends 2 triangles after them and stores 240 in a
 * second counter.  A query around each counts its own. */
static void stream_resume_counter(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	const VkDeviceSize base = 32, size = 1024;
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_simple_pipeline(ctx, t, topo, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	struct vkqs_buffer *counter = xfb_buffer(ctx, 64);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 2, 0);
	const VkDeviceSize c1 = 8, c2 = 20;

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 1.0f);
	xfb_bind_xfb(ctx, cb, 0, b, base, size);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c1);
	D->vkCmdEndQuery(cb, pool, 0);
	vkqs_target_end(ctx, cb);
	resume_barrier(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 2.0f);
	xfb_bind_xfb(ctx, cb, 0, b, base, size);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c1);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 1, &counter->buf, &c2);
	D->vkCmdEndQuery(cb, pool, 1);
	vkqs_target_end(ctx, cb);
	struct vkqs_buffer *bufs[2] = {b, counter};
	xfb_finish(ctx, cb, bufs, 2);

	uint64_t r[4];
	xfb_results(ctx, pool, 0, 2, 2, r);
	xfb_expect_stream(ctx, "first transform feedback, 3 triangles", r, 3, 3);
	xfb_expect_stream(ctx, "resumed transform feedback, 2 triangles", r + 2, 2, 2);
	uint32_t v1 = xfb_get_u32(counter, c1), v2 = xfb_get_u32(counter, c2);
	VKQS_EXPECTF(ctx, v1 == 3 * 3 * COUNT_STRIDE && v2 == 5 * 3 * COUNT_STRIDE,
		     "counters after the two vkCmdEndTransformFeedbackEXT: %u and %u, expected "
		     "%u and %u (bytes from the start of the binding)",
		     v1, v2, 3 * 3 * COUNT_STRIDE, 5 * 3 * COUNT_STRIDE);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t n0 = want_draw(topo, 9, 1, 1.0f, 0, w, MAX_PRIMS);
	uint32_t n1 = want_draw(topo, 6, 1, 2.0f, 0, w + n0, MAX_PRIMS - n0);
	xfb_expect_untouched(ctx, b, 0, base, "before the binding's offset");
	expect_records(ctx, b, base, w, n0 + n1, 3);
	xfb_expect_untouched(ctx, b, base + (VkDeviceSize)(n0 + n1) * 3 * COUNT_STRIDE, BIG,
			 "only 5 triangles were drawn");
}

/* Instances in order: 3 instances of a 4-vertex strip are 6 triangles,
 * instance 0's first (primitives of a draw are processed instance after
 * instance), each record with its InstanceIndex. */
static void stream_instanced(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	struct once o = {.pd = {.topology = topo, .vs = VS_COUNT}, .tag = 4.0f, .vertices = 4,
			 .instances = 3};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	xfb_expect_stream(ctx, "3 instances of 2 triangles", out.r, 6, 6);
	expect_draw_captured(ctx, out.b, topo, 4, 3, 4.0f, "only 6 triangles were drawn");
}

/* An indexed triangle strip with primitive restart: "Individual lines or
 * triangles of a strip ... will be extracted and recorded separately.
 * Incomplete primitives are not recorded." */
static void stream_indexed_restart(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_COUNT,
				.restart = true},
			 .tag = 6.0f, .instances = 1, .indexed_restart = true};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	xfb_expect_stream(ctx, "strips of 4, 2 and 3 vertices", out.r, 3, 3);
	struct want_prim w[MAX_PRIMS] = {0}; /* GCC 12 -O3 cannot see want_draw fill it */
	uint32_t nw = want_restart(1, 6.0f, w);
	expect_records(ctx, out.b, 0, w, nw, 3);
	xfb_expect_untouched(ctx, out.b, (VkDeviceSize)nw * 3 * COUNT_STRIDE, BIG,
			 "only 3 triangles were drawn");
}

/* Where the primitives go after the transform feedback stage changes
 * nothing: it comes "before any other fixed-function vertex
 * post-processing".  Variants: rasterizer discard; every vertex outside
 * the view volume (clipped away); all three vertices of each triangle at
 * one point (degenerate, zero area: a real driver bug class). */
enum after_kind { AFTER_DISCARD, AFTER_CLIPPED, AFTER_DEGENERATE };

static const struct after_param {
	enum after_kind kind;
	const char *name;
} after_params[] = {
	{AFTER_DISCARD, "rasterizer_discard"},
	{AFTER_CLIPPED, "outside_view_volume"},
	{AFTER_DEGENERATE, "degenerate_triangles"},
};

static void after_param_name(const void *p, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct after_param *)p)->name);
}

static void stream_after(struct vkqs_ctx *ctx, const void *param)
{
	const struct after_param *ap = param;
	xfb_require_xfb_query(ctx);
	bool pgq = vkqs_device_feature(&ctx->vk->info, ext_pgq);
	if (pgq && ap->kind == AFTER_DISCARD &&
	    !vkqs_device_feature(&ctx->vk->info, "VK_EXT_primitives_generated_query."
						 "primitivesGeneratedQueryWithRasterizerDiscard"))
		pgq = false; /* VUID-vkCmdDraw-primitivesGeneratedQueryWithRasterizerDiscard-06708 */
	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	static const float outside[4] = {3.0f, 3.0f, 0.125f, 0.5f};
	static const float point[4] = {0.25f, 0.25f, 0.0f, 0.0f};
	const float *grid = ap->kind == AFTER_CLIPPED	  ? outside
			    : ap->kind == AFTER_DEGENERATE ? point
							   : default_grid;
	struct once o = {.pd = {.topology = topo, .vs = VS_COUNT,
				.discard = ap->kind == AFTER_DISCARD},
			 .grid = grid, .tag = 7.0f, .vertices = 12, .instances = 1, .pgq = pgq};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	uint64_t g = 0;
	if (pgq)
		xfb_results(ctx, out.pgq_pool, 0, 1, 1, &g);
	/* vertexpostproc.adoc (1.4.329): "Any primitive for which any pair of
	 * vertices have the same position should be assembled for transform
	 * feedback normally but it may be discarded prior to primitive
	 * assembly instead": discarding all four (nothing written, needed or
	 * captured) is CompatibilityWarning; whether the primitives generated
	 * count drops with them is not said, so 0 there warns too.  Anything
	 * but all or none is Fail. */
	if (ap->kind == AFTER_DEGENERATE && out.r[0] == 0 && out.r[1] == 0) {
		VKQS_EXPECT_SHOULD(ctx, false,
				   "%s: transform feedback discarded the 4 triangles whose vertices "
				   "coincide (written 0, needed 0)", ap->name);
		if (pgq && VKQS_EXPECTF(ctx, g == 4 || g == 0,
					"%s: primitives generated %" PRIu64 ", expected 4 (or 0 "
					"with the triangles discarded)", ap->name, g))
			VKQS_EXPECT_OPEN(ctx, g == 4,
					 "vertexpostproc.adoc does not say whether discarded "
					 "degenerate primitives count as generated",
					 "%s: primitives generated 0", ap->name);
		xfb_expect_untouched(ctx, out.b, 0, BIG, "the degenerate triangles were discarded");
		return;
	}
	xfb_expect_stream(ctx, ap->name, out.r, 4, 4);
	if (pgq)
		xfb_expect_pgq(ctx, ap->name, g, 4);
	expect_draw_captured(ctx, out.b, topo, 12, 1, 7.0f, "only 4 triangles were drawn");
}

/* A captured output the shader never writes: "the value recorded for that
 * component is undefined", but the primitives are captured and counted
 * all the same (a real driver bug class: counters not incremented). */
static void stream_omit_write(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	struct once o = {.pd = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_OMIT},
			 .tag = 0.0f, .vertices = 6, .instances = 1, .counter = true,
			 .counter_off = 0};
	struct once_out out;
	xfb_run_once(ctx, &o, &out);
	xfb_expect_stream(ctx, "4 triangles of an unwritten output", out.r, 4, 4);
	uint32_t c = xfb_get_u32(out.counter, o.counter_off);
	VKQS_EXPECTF(ctx, c == 4 * 3 * COUNT_STRIDE,
		     "counter after vkCmdEndTransformFeedbackEXT = %u, expected %u (4 triangles)",
		     c, 4 * 3 * COUNT_STRIDE);
	xfb_expect_untouched(ctx, out.b, 4 * 3 * COUNT_STRIDE, BIG, "only 4 triangles were drawn");
}

static const struct vkqs_case cases[] = {
	{"stream.counts", stream_counts,
	 "18.7 primitives written and needed; \"Transform Feedback\": strips and fans "
	 "recorded separately, incomplete primitives not recorded",
	 VKQS_PARAMS(count_params, xfb_count_param_name)},
	{"stream.overflow", stream_overflow,
	 "18.2 \"the first integer represents the number of primitives actually written and the "
	 "second is the number that would have been written if all the transform feedback "
	 "buffers ... were large enough\"; \"Transform Feedback\": a primitive that does not "
	 "fit is not recorded; counter = bytes written",
	 VKQS_PARAMS(overflow_params, overflow_param_name)},
	{"stream.only_while_active", stream_only_while_active,
	 "18.7 \"updated during drawing commands while transform feedback is active\""},
	{"stream.multiple_queries", stream_multiple_queries,
	 "18.7 \"When a transform feedback query begins, the count ... starts from zero\""},
	{"stream.indexed_zero", stream_indexed_zero,
	 "18.2 vkCmdBeginQuery equivalent to vkCmdBeginQueryIndexedEXT with index 0"},
	{"stream.geometry_streams", stream_geometry_streams,
	 "18.7 counts by the vertex stream being captured: a geometry shader emitting to "
	 "streams 0 and 1, an indexed query of each active together (geometryStreams)"},
	{"stream.nonzero_stream", stream_nonzero_stream,
	 "18.7 counts by the vertex stream; vkCmdBeginQueryIndexedEXT index is the stream"},
	{"stream.raster_stream_uncaptured", stream_raster_uncaptured,
	 "18.7 counts \"by the vertex stream being captured\"; 18.8 primitives generated of "
	 "each vertex stream whether or not it is captured: stream 0 rasterized, stream 1 "
	 "captured"},
	{"stream.resume_counter", stream_resume_counter,
	 "vkCmdEndTransformFeedbackEXT counter: byte offset from the binding start; "
	 "vkCmdBeginTransformFeedbackEXT counter resumes appending"},
	{"stream.instanced", stream_instanced,
	 "18.7 counts every instance's primitives, captured in order"},
	{"stream.indexed_restart", stream_indexed_restart,
	 "\"Transform Feedback\": strips extracted separately, incomplete primitives not "
	 "recorded (primitive restart)"},
	{"stream.after", stream_after,
	 "\"Transform Feedback\" happens before any other vertex post-processing: discard, "
	 "clipping and degenerate primitives change no count",
	 VKQS_PARAMS(after_params, after_param_name)},
	{"stream.omit_write", stream_omit_write,
	 "18.7 counts primitives captured even when a captured output is never written"},
};

VKQS_GROUP(xfb, stream, cases);
