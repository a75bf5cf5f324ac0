/* vkqs.xfb.pgq.*: primitives generated queries: counts per topology, clipped and
 * discarded primitives, indexed queries, XFB beside them, rasterizer discard and
 * secondaries. */
#include "xfb.h"
#include "verdict.h"
#include "shaders/stats_copies_geom.h"
#include "shaders/xfb_streams_geom.h"

/* Ends t's render pass, submits and waits, and reads queries [0, nq) of a
 * primitives generated query pool into g. */
static void end_pgq_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			 uint32_t nq, uint64_t *g)
{
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, NULL, 0);
	xfb_results(ctx, pool, 0, nq, 1, g);
}

/* A primitives generated query around one draw, transform feedback never
 * active and the shader without the Xfb mode (18.8: "whether or not
 * transform feedback is active"). */
static void pgq_counts(struct vkqs_ctx *ctx, const void *param)
{
	const struct count_param *cp = param;
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_simple_pipeline(ctx, t, cp->topology, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 1, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, cp->vertices, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	xfb_expect_pgq(ctx, "one draw", g, xfb_prim_count(cp->topology, cp->vertices));
}

/* Both query types, one of each, for a triangle list of xfb_count.vert
 * captured into a BIG buffer. */
struct both {
	struct vkqs_target *t;
	const struct vkqs_pipeline *p;
	struct vkqs_buffer *b;
	VkQueryPool xq, gq;
};

/* Creates q's objects and begins a command buffer with both queries reset,
 * t's render pass begun, p bound (tag 1) and q->b bound at binding 0 with
 * pSizes[0] = range. */
static VkCommandBuffer begin_both(struct vkqs_ctx *ctx, struct both *q, VkDeviceSize range)
{
	q->t = xfb_target(ctx);
	q->p = xfb_simple_pipeline(ctx, q->t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_COUNT);
	q->b = xfb_buffer(ctx, BIG);
	q->xq = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	q->gq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, q->xq, 0, 1);
	D->vkCmdResetQueryPool(cb, q->gq, 0, 1);
	vkqs_target_begin(ctx, cb, q->t, 1.0f);
	xfb_bind(ctx, cb, q->p, default_grid, 1.0f);
	xfb_bind_xfb(ctx, cb, 0, q->b, 0, range);
	return cb;
}

/* Ends the render pass, submits and waits, and reads both queries. */
static void end_both(struct vkqs_ctx *ctx, VkCommandBuffer cb, struct both *q, uint64_t r[2],
		     uint64_t *g)
{
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, &q->b, 1);
	xfb_results(ctx, q->xq, 0, 1, 2, r);
	xfb_results(ctx, q->gq, 0, 1, 1, g);
}

/* 18.8: the primitives generated count "is identical to the second
 * integer of the transform feedback queries if transform feedback is
 * active", also when the buffer is too small and the first integer falls
 * behind: both queries around 4 triangles into room for 2. */
static void pgq_xfb_needed(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	xfb_require_pgq(ctx);
	struct both q;
	VkCommandBuffer cb = begin_both(ctx, &q, 2 * 3 * COUNT_STRIDE + 20);
	VkQueryPool xq = q.xq, gq = q.gq;
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, xq, 0, 0);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndQuery(cb, xq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	uint64_t r[2], g;
	end_both(ctx, cb, &q, r, &g);
	xfb_expect_stream(ctx, "4 triangles, room for 2", r, 2, 4);
	xfb_expect_pgq(ctx, "4 triangles, room for 2", g, 4);
	VKQS_EXPECTF(ctx, g == r[1],
		     "primitives generated %" PRIu64 " differs from the transform feedback "
		     "query's primitives needed %" PRIu64 " (18.8: \"identical to the second "
		     "integer of the transform feedback queries if transform feedback is active\")",
		     g, r[1]);
}

/* 18.8 counts "whether or not transform feedback is active"; 18.7 only
 * "while transform feedback is active".  Both queries around 3 triangles
 * drawn with transform feedback inactive and 2 with it active. */
static void pgq_xfb_inactive(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_xfb_query(ctx);
	xfb_require_pgq(ctx);
	struct both q;
	VkCommandBuffer cb = begin_both(ctx, &q, VK_WHOLE_SIZE);
	VkQueryPool xq = q.xq, gq = q.gq;
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, xq, 0, 0);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdEndQuery(cb, xq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	uint64_t r[2], g;
	end_both(ctx, cb, &q, r, &g);
	xfb_expect_stream(ctx, "3 triangles inactive, 2 active", r, 2, 2);
	xfb_expect_pgq(ctx, "3 triangles inactive, 2 active", g, 5);
}

/* With primitivesGeneratedQueryWithRasterizerDiscard the query may be
 * active while rasterizer discard is enabled
 * (VUID-vkCmdDraw-primitivesGeneratedQueryWithRasterizerDiscard-06708),
 * and counts the same: the primitives reach the transform feedback stage
 * before rasterization is discarded. */
static void pgq_rasterizer_discard(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
				  "primitivesGeneratedQueryWithRasterizerDiscard");
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_PLAIN,
			  .discard = true};
	const struct vkqs_pipeline *discard = xfb_pipeline(ctx, t, &d);
	d.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
	const struct vkqs_pipeline *lines = xfb_pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	xfb_bind(ctx, cb, discard, default_grid, 0.0f);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	xfb_bind(ctx, cb, lines, default_grid, 0.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	xfb_expect_pgq(ctx, "5 triangles and 4 lines, rasterizer discard", g, 9);
}

/* Clipping and culling come after the transform feedback stage: a query
 * counts triangles culled (cullMode FRONT_AND_BACK) and triangles wholly
 * outside the view volume like any others. */
static void pgq_clipped_culled(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	static const float outside[4] = {-3.0f, 2.0f, 0.125f, 0.5f};
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .cull = VK_CULL_MODE_FRONT_AND_BACK};
	const struct vkqs_pipeline *culled = xfb_pipeline(ctx, t, &d);
	d.cull = VK_CULL_MODE_NONE;
	const struct vkqs_pipeline *plain = xfb_pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 2);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	xfb_bind(ctx, cb, culled, default_grid, 0.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQuery(cb, pool, 1, 0);
	xfb_bind(ctx, cb, plain, outside, 0.0f);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 1);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	xfb_expect_pgq(ctx, "3 culled triangles", g[0], 3);
	xfb_expect_pgq(ctx, "2 triangles outside the view volume", g[1], 2);
}

/* vkCmdBeginQueryIndexedEXT "index represents the vertex stream": without
 * a geometry shader nothing reaches stream 1, so a query of stream 1 (with
 * primitivesGeneratedQueryWithNonZeroStreams) counts 0 while one of stream
 * 0, active at the same time, counts every triangle. */
static void pgq_nonzero_stream(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
				  "primitivesGeneratedQueryWithNonZeroStreams");
	uint32_t streams = xfb_props(ctx).maxTransformFeedbackStreams;
	if (streams < 2)
		vkqs_skip(ctx, "maxTransformFeedbackStreams is %u: no vertex stream 1", streams);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 0.0f, NULL);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	xfb_expect_pgq(ctx, "stream 0, 5 triangles", g[0], 5);
	xfb_expect_pgq(ctx, "stream 1, nothing emitted to it", g[1], 0);
}

/* 18.8: vkCmdBeginQuery / vkCmdEndQuery query vertex stream zero, the same
 * as vkCmdBeginQueryIndexedEXT / vkCmdEndQueryIndexedEXT with index 0. */
static void pgq_indexed_zero(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 0);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, 2, g);
	xfb_expect_pgq(ctx, "vkCmdBeginQuery, 5 lines", g[0], 5);
	xfb_expect_pgq(ctx, "vkCmdBeginQueryIndexedEXT index 0, 5 lines", g[1], 5);
}

/* An instanced indexed strip with primitive restart: 3 triangles per
 * instance (see want_restart), 2 instances. */
static void pgq_indexed_restart(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, .vs = VS_PLAIN,
			  .restart = true};
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &d);
	struct vkqs_buffer *ib = xfb_restart_index_buffer(ctx);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 1, 0.0f, NULL);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	xfb_draw_restart(ctx, cb, ib, 2);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	xfb_expect_pgq(ctx, "2 instances of strips of 4, 2 and 3 vertices", g, 6);
}

/* A query begun outside and ended after two render pass instances counts
 * the draws of both. */
static void pgq_across_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 0.0f);
	D->vkCmdDraw(cb, 7, 1, 0, 0);
	vkqs_target_end(ctx, cb);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 0.0f);
	D->vkCmdDraw(cb, 4, 2, 0, 0);
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	xfb_finish(ctx, cb, NULL, 0);

	uint64_t g;
	xfb_results(ctx, pool, 0, 1, 1, &g);
	xfb_expect_pgq(ctx, "7 + 2 x 4 points in two render pass instances", g, 15);
}

/* A primitives generated query begun and ended in a secondary command
 * buffer counts that secondary's draws.  The query cannot be active in the
 * primary while it executes secondaries: VUID-vkCmdExecuteCommands-
 * commandBuffer-07594 allows only occlusion and pipeline statistics queries
 * there. */
static void pgq_secondary(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, t,
						       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
						       NULL);
	D->vkCmdBeginQuery(sec, pool, 0, 0);
	xfb_bind(ctx, sec, p, default_grid, 0.0f);
	D->vkCmdDraw(sec, 9, 1, 0, 0);
	D->vkCmdEndQuery(sec, pool, 0);
	vkqs_cmd_end(ctx, sec);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	vkqs_target_begin_ex(ctx, cb, t, 1.0f, 0, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, NULL, 0);

	uint64_t g;
	xfb_results(ctx, pool, 0, 1, 1, &g);
	xfb_expect_pgq(ctx, "3 triangles in a secondary command buffer", g, 3);
}

/* 18.8 counts the primitives output to the vertex stream, whatever happens
 * to their fragments: with colour writes off (colorWriteMask 0, or
 * VK_EXT_color_write_enable's dynamic state set to VK_FALSE), in a subpass
 * with no attachments at all, or with an empty fragment shader, 4
 * triangles still count 4.  A driver that skips rasterization, or the
 * whole draw, when nothing could be written fails. */
enum frag_state { FS_COLOR_MASK_ZERO, FS_COLOR_WRITE_DYNAMIC, FS_NO_ATTACHMENTS, FS_EMPTY };
static const enum frag_state frag_states[] = {FS_COLOR_MASK_ZERO, FS_COLOR_WRITE_DYNAMIC,
					      FS_NO_ATTACHMENTS, FS_EMPTY};
static const char *const frag_state_names[] = {"color_write_mask_zero",
					       "color_write_enable_dynamic_false",
					       "no_attachments", "empty_fragment_shader"};
static void frag_state_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", frag_state_names[*(const enum frag_state *)param]);
}

static void pgq_fragment_state(struct vkqs_ctx *ctx, const void *param)
{
	enum frag_state k = *(const enum frag_state *)param;
	xfb_require_pgq(ctx);
	if (k == FS_COLOR_WRITE_DYNAMIC)
		vkqs_require_feature(ctx, "VK_EXT_color_write_enable.colorWriteEnable");
	struct vkqs_target *t =
		k == FS_NO_ATTACHMENTS
			? vkqs_target_create_no_attachments(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT)
			: xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .no_color_writes = k == FS_COLOR_MASK_ZERO,
			  .dynamic_color_write = k == FS_COLOR_WRITE_DYNAMIC,
			  .empty_fs = k == FS_EMPTY};
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 1, 0.0f, NULL);
	if (k == FS_COLOR_WRITE_DYNAMIC) {
		static const VkBool32 off = VK_FALSE;
		D->vkCmdSetColorWriteEnableEXT(cb, 1, &off);
	}
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	D->vkCmdEndQuery(cb, pool, 0);
	uint64_t g;
	end_pgq_pass(ctx, cb, pool, 1, &g);
	char what[96];
	snprintf(what, sizeof(what), "4 triangles, %s", frag_state_names[k]);
	xfb_expect_pgq(ctx, what, g, 4);
}

/* 18.8 counts the primitives the last pre-rasterization stage outputs to
 * the vertex stream, 12 vertices drawn as:
 * - tessellation: 4 three-point patches, every level 1: 4 triangles;
 * - geometry: stats_copies.geom, 2 instanced invocations emitting 3
 *   triangles per input triangle: 12;
 * - geometry_stream_1: xfb_streams.geom, 1 point to stream 0 and 2 to
 *   stream 1 per triangle: an indexed query of each stream counts 4 and 8
 *   (primitivesGeneratedQueryWithNonZeroStreams), transform feedback
 *   inactive. */
enum after_stage { AFTER_TESS, AFTER_GEOM, AFTER_GEOM_STREAM_1 };
static const enum after_stage after_stages[] = {AFTER_TESS, AFTER_GEOM, AFTER_GEOM_STREAM_1};
static const char *const after_stage_names[] = {"tessellation", "geometry",
						"geometry_stream_1"};
static void after_stage_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", after_stage_names[*(const enum after_stage *)param]);
}

static void pgq_after_stage(struct vkqs_ctx *ctx, const void *param)
{
	enum after_stage k = *(const enum after_stage *)param;
	xfb_require_pgq(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN};
	if (k == AFTER_TESS) {
		vkqs_require_feature(ctx, "tessellationShader");
		d.tess = true;
	} else if (k == AFTER_GEOM) {
		vkqs_require_feature(ctx, "geometryShader");
		d.geom = stats_copies_geom;
		d.geom_size = sizeof(stats_copies_geom);
	} else {
		vkqs_require_feature(ctx, "VK_EXT_primitives_generated_query."
					  "primitivesGeneratedQueryWithNonZeroStreams");
		xfb_require_streams_geom(ctx);
		d.geom = xfb_streams_geom;
		d.geom_size = sizeof(xfb_streams_geom);
	}
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p = xfb_pipeline(ctx, t, &d);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 2, 0);

	VkCommandBuffer cb = xfb_begin_pass(ctx, t, p, pool, 2, 0.0f, NULL);
	D->vkCmdBeginQueryIndexedEXT(cb, pool, 0, 0, 0);
	if (k == AFTER_GEOM_STREAM_1)
		D->vkCmdBeginQueryIndexedEXT(cb, pool, 1, 0, 1);
	D->vkCmdDraw(cb, 12, 1, 0, 0);
	if (k == AFTER_GEOM_STREAM_1)
		D->vkCmdEndQueryIndexedEXT(cb, pool, 1, 1);
	D->vkCmdEndQueryIndexedEXT(cb, pool, 0, 0);
	uint64_t g[2];
	end_pgq_pass(ctx, cb, pool, k == AFTER_GEOM_STREAM_1 ? 2 : 1, g);
	if (k == AFTER_TESS)
		xfb_expect_pgq(ctx, "4 patches tessellated into one triangle each", g[0], 4);
	else if (k == AFTER_GEOM)
		xfb_expect_pgq(ctx, "4 triangles, 3 emitted for each", g[0], 12);
	else {
		xfb_expect_pgq(ctx, "stream 0, 1 point per triangle", g[0], 4);
		xfb_expect_pgq(ctx, "stream 1, 2 points per triangle", g[1], 8);
	}
}

/* A primitives generated query and a statistics query of `sbits`, both
 * reset, and t's render pass begun, in a new command buffer. */
static VkCommandBuffer begin_pgq_and_stats(struct vkqs_ctx *ctx, const struct vkqs_target *t,
					   VkQueryPipelineStatisticFlags sbits, VkQueryPool *gq,
					   VkQueryPool *sq)
{
	*gq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);
	*sq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, sbits);
	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, *gq, 0, 1);
	D->vkCmdResetQueryPool(cb, *sq, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	return cb;
}

/* A primitives generated query and a pipeline statistics query active at
 * the same time, nested either way and overlapping: each counts only its
 * own scope (radv 285223d0fd0 and turnip bf4c1609098 broke one of them
 * when both were active).  Draw A: 3 triangles in the view; draw B: 2
 * triangles wholly outside it (counted by both: clipping comes after). */
enum both_order { PGQ_OUTER, STATS_OUTER, OVERLAP };
static const enum both_order both_orders[] = {PGQ_OUTER, STATS_OUTER, OVERLAP};
static void both_order_name(const void *param, char *buf, size_t size)
{
	static const char *const n[] = {"pgq_outer", "stats_outer", "overlapping"};
	snprintf(buf, size, "%s", n[*(const enum both_order *)param]);
}

static void pgq_with_statistics(struct vkqs_ctx *ctx, const void *param)
{
	enum both_order o = *(const enum both_order *)param;
	xfb_require_pgq(ctx);
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	static const float outside[4] = {-3.0f, 2.0f, 0.125f, 0.5f};
	const VkQueryPipelineStatisticFlags sbits =
		VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
		VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT;
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_PLAIN);
	VkQueryPool gq, sq;
	VkCommandBuffer cb = begin_pgq_and_stats(ctx, t, sbits, &gq, &sq);
	uint32_t g_tris = 0, s_tris = 0;
	/* the draws, and which queries each falls in */
	D->vkCmdBeginQuery(cb, o == STATS_OUTER ? sq : gq, 0, 0);
	xfb_bind(ctx, cb, p, default_grid, 0.0f);
	D->vkCmdDraw(cb, 9, 1, 0, 0);
	if (o == STATS_OUTER)
		s_tris += 3;
	else
		g_tris += 3;
	D->vkCmdBeginQuery(cb, o == STATS_OUTER ? gq : sq, 0, 0);
	xfb_bind(ctx, cb, p, outside, 0.0f);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	g_tris += 2;
	s_tris += 2;
	if (o == OVERLAP) {
		D->vkCmdEndQuery(cb, gq, 0);
		xfb_bind(ctx, cb, p, default_grid, 0.0f);
		D->vkCmdDraw(cb, 9, 1, 0, 0);
		s_tris += 3;
		D->vkCmdEndQuery(cb, sq, 0);
	} else {
		D->vkCmdEndQuery(cb, o == STATS_OUTER ? gq : sq, 0);
		D->vkCmdEndQuery(cb, o == STATS_OUTER ? sq : gq, 0);
	}
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, NULL, 0);
	uint64_t g, st[2];
	xfb_results(ctx, gq, 0, 1, 1, &g);
	xfb_results(ctx, sq, 0, 1, 2, st);
	xfb_expect_pgq(ctx, "beside an active pipeline statistics query", g, g_tris);
	/* 18.4: input assembly vertices and primitives of complete triangles
	 * (no incomplete ones here): at least these, more is not portable */
	struct vkqs_band bv = vkqs_band_natural(3ull * s_tris), bp = vkqs_band_natural(s_tris);
	VKQS_CHECK_BAND(ctx, "statistics beside a primitives generated query: input assembly "
			     "vertices", st[0], &bv);
	VKQS_CHECK_BAND(ctx, "statistics beside a primitives generated query: input assembly "
			     "primitives", st[1], &bp);
}

/* One query over draws of different pipeline shapes: 4 triangles through
 * stats_copies_geom.geom (3 emitted for each), 4 without a geometry
 * shader, 4 through it again: 12 + 4 + 12 primitives generated (radv
 * broke a query whose draws switched geometry paths: mesa cdd201010df).
 * A statistics query beside it counts the input assembly and clipping of
 * all three draws; its geometry counters are undefined (a pipeline
 * without the stage, 1.3.282) and not read. */
static void pgq_pipeline_shapes(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	xfb_require_pgq(ctx);
	vkqs_require_feature(ctx, "geometryShader");
	vkqs_require_feature(ctx, "pipelineStatisticsQuery");
	const VkQueryPipelineStatisticFlags sbits =
		VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
		VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT;
	struct vkqs_target *t = xfb_target(ctx);
	struct pdesc d = {.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .vs = VS_PLAIN,
			  .geom = stats_copies_geom, .geom_size = sizeof(stats_copies_geom)};
	const struct vkqs_pipeline *with_gs = xfb_pipeline(ctx, t, &d);
	d.geom = NULL;
	d.geom_size = 0;
	const struct vkqs_pipeline *plain = xfb_pipeline(ctx, t, &d);
	VkQueryPool gq, sq;
	VkCommandBuffer cb = begin_pgq_and_stats(ctx, t, sbits, &gq, &sq);
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, sq, 0, 0);
	const struct vkqs_pipeline *order[3] = {with_gs, plain, with_gs};
	for (int k = 0; k < 3; k++) {
		xfb_bind(ctx, cb, order[k], default_grid, 0.0f);
		D->vkCmdDraw(cb, 12, 1, 0, 0);
	}
	D->vkCmdEndQuery(cb, sq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, NULL, 0);
	uint64_t g, st[2];
	xfb_results(ctx, gq, 0, 1, 1, &g);
	xfb_results(ctx, sq, 0, 1, 2, st);
	xfb_expect_pgq(ctx, "4 triangles with a geometry shader emitting 3 each, 4 without, 4 with",
		       g, 28);
	struct vkqs_band ia = vkqs_band_natural(12), clip = vkqs_band_natural(28);
	VKQS_CHECK_BAND(ctx, "input assembly primitives of the three draws", st[0], &ia);
	VKQS_CHECK_BAND(ctx, "clipping invocations of the three draws", st[1], &clip);
}

static const struct vkqs_case cases[] = {
	{"pgq.counts", pgq_counts,
	 "18.2 \"Primitives generated queries write the number of primitives output to the "
	 "vertex stream, regardless of whether transform feedback is active or not\"",
	 VKQS_PARAMS(count_params, xfb_count_param_name)},
	{"pgq.xfb_needed", pgq_xfb_needed,
	 "18.2 PGQ \"identical to the second integer of the transform feedback queries if "
	 "transform feedback is active\""},
	{"pgq.xfb_inactive", pgq_xfb_inactive,
	 "18.8 \"whether or not transform feedback is active\" vs 18.7 \"while transform "
	 "feedback is active\""},
	{"pgq.rasterizer_discard", pgq_rasterizer_discard,
	 "18.8 with primitivesGeneratedQueryWithRasterizerDiscard: counted before discard"},
	{"pgq.clipped_culled", pgq_clipped_culled,
	 "18.8 counted when reaching the transform feedback stage, before clipping and culling"},
	{"pgq.nonzero_stream", pgq_nonzero_stream,
	 "18.8 per vertex stream (primitivesGeneratedQueryWithNonZeroStreams)"},
	{"pgq.indexed_zero", pgq_indexed_zero,
	 "18.8 vkCmdBeginQuery queries vertex stream zero, as vkCmdBeginQueryIndexedEXT index 0"},
	{"pgq.indexed_restart", pgq_indexed_restart,
	 "18.8 instanced indexed strips with primitive restart"},
	{"pgq.across_render_passes", pgq_across_render_passes,
	 "18.8 a query spanning two render pass instances"},
	{"pgq.secondary", pgq_secondary,
	 "18.2 \"A query must begin and end in the same command buffer\": a primitives "
	 "generated query in a secondary counts its draws (VUID-vkCmdExecuteCommands-"
	 "commandBuffer-07594: none may be active in the primary across vkCmdExecuteCommands)"},
	{"pgq.fragment_state", pgq_fragment_state,
	 "18.2 primitives generated queries write the number of primitives output to the "
	 "vertex stream, whatever the fragment stage then writes (colour writes off, no "
	 "attachments, an empty fragment shader)",
	 VKQS_PARAMS(frag_states, frag_state_name)},
	{"pgq.after_stage", pgq_after_stage,
	 "18.8: the primitives output to the vertex stream by the last pre-rasterization "
	 "stage (tessellation, a geometry shader, stream 1 with "
	 "primitivesGeneratedQueryWithNonZeroStreams)",
	 VKQS_PARAMS(after_stages, after_stage_name)},
	{"pgq.with_statistics", pgq_with_statistics,
	 "18.8 primitives generated queries and 18.4 input assembly statistics, each over "
	 "its own scope while the other is active",
	 VKQS_PARAMS(both_orders, both_order_name)},
	{"pgq.pipeline_shapes", pgq_pipeline_shapes,
	 "18.8 a primitives generated query counts every draw in its scope: draws with and "
	 "without a geometry shader in one query; 18.4 input assembly and clipping of each"},
};

VKQS_GROUP(xfb, pgq, cases);
