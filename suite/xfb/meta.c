/* vkqs.xfb.meta.*: clears, blits, resolves and copies beside primitives
 * generated and transform feedback queries.
 *
 * 18.2: "Rendering operations such as clears, MSAA resolves, attachment
 * load/store operations, and blits may count towards the results of
 * queries", so a count above the draws' is CompatibilityWarning (turnip
 * counted its 3D blits in primitives generated queries, 48540caec91 and
 * 5aeefe8d753; radv its meta operations with NGG streamout, 62356e71f43).
 * The draws' own primitives stay musts (18.8), and what transform
 * feedback writes is not a query result: "When an individual point, line,
 * or triangle primitive reaches the transform feedback stage while
 * transform feedback is active, the values of the specified output
 * variables are assembled into primitives and appended to the bound
 * transform feedback buffers" ("Transform Feedback"); a clear is no
 * primitive of the bound pipeline, so the draws after it append directly
 * after the draws before it. */
#include "xfb.h"
#include "metaop.h"

/* At least want (18.7, 18.8: every primitive of the draws); more is
 * CompatibilityWarning (18.2: the operations in scope may count). */
static void expect_at_least(struct vkqs_ctx *ctx, const char *what, uint64_t got, uint64_t want)
{
	VKQS_EXPECTF(ctx, got >= want, "%s is %" PRIu64 ", below the draws' %" PRIu64, what, got,
		     want);
	if (got > want)
		vkqs_compat_warning(ctx,
				    "%s is %" PRIu64 ", %" PRIu64 " more than the draws': the "
				    "operation was counted (legal: 18.2 \"rendering operations such "
				    "as clears, MSAA resolves, attachment load/store operations, and "
				    "blits may count towards the results of queries\"), not portable",
				    what, got, got - want);
}

/* A primitives generated query holds two render pass instances of 2
 * triangles each and, between them, op. */
static void meta_pgq_between_draws(struct vkqs_ctx *ctx, const void *param)
{
	enum vkqs_meta_op op = *(const enum vkqs_meta_op *)param;
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_PLAIN);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 1.0f);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	vkqs_target_end(ctx, cb);
	vkqs_cmd_meta_op(ctx, cb, op);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 2.0f);
	D->vkCmdDraw(cb, 6, 1, 6, 0);
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	xfb_finish(ctx, cb, NULL, 0);
	uint64_t g;
	xfb_results(ctx, pool, 0, 1, 1, &g);
	char what[160];
	snprintf(what, sizeof(what), "2 + 2 triangles around %s: primitives generated",
		 vkqs_meta_op_command(op));
	expect_at_least(ctx, what, g, 4);
}

/* Transform feedback active over a draw of 2 triangles, a
 * vkCmdClearAttachments of the whole colour attachment and a draw of 2
 * more, with a transform feedback query and a primitives generated query
 * around them: the buffer holds the 4 triangles' 12 records back to back
 * and nothing after them (Fail otherwise); the queries count at least the
 * 4 (more: CompatibilityWarning). */
static void meta_clear_attachments_while_active(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	xfb_require_xfb_query(ctx);
	xfb_require_pgq(ctx);
	struct vkqs_target *t = xfb_target(ctx);
	const struct vkqs_pipeline *p =
		xfb_simple_pipeline(ctx, t, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VS_COUNT);
	struct vkqs_buffer *b = xfb_buffer(ctx, BIG);
	VkQueryPool xq = vkqs_query_pool(ctx, VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 1, 0);
	VkQueryPool gq = vkqs_query_pool(ctx, VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT, 1, 0);

	VkCommandBuffer cb = xfb_begin_cb(ctx);
	D->vkCmdResetQueryPool(cb, xq, 0, 1);
	D->vkCmdResetQueryPool(cb, gq, 0, 1);
	vkqs_target_begin(ctx, cb, t, 1.0f);
	xfb_bind(ctx, cb, p, default_grid, 3.0f);
	xfb_bind_xfb(ctx, cb, 0, b, 0, VK_WHOLE_SIZE);
	D->vkCmdBeginTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	D->vkCmdBeginQuery(cb, gq, 0, 0);
	D->vkCmdBeginQuery(cb, xq, 0, 0);
	D->vkCmdDraw(cb, 6, 1, 0, 0);
	VkClearAttachment ca = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT,
				.colorAttachment = 0,
				.clearValue.color.float32 = {0.0f, 0.5f, 1.0f, 1.0f}};
	VkClearRect cr = {{{0, 0}, {FB, FB}}, 0, 1};
	D->vkCmdClearAttachments(cb, 1, &ca, 1, &cr);
	D->vkCmdDraw(cb, 6, 1, 6, 0);
	D->vkCmdEndQuery(cb, xq, 0);
	D->vkCmdEndQuery(cb, gq, 0);
	D->vkCmdEndTransformFeedbackEXT(cb, 0, 0, NULL, NULL);
	vkqs_target_end(ctx, cb);
	xfb_finish(ctx, cb, &b, 1);
	uint64_t r[2], g;
	xfb_results(ctx, xq, 0, 1, 2, r);
	xfb_results(ctx, gq, 0, 1, 1, &g);

	const VkPrimitiveTopology topo = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	for (uint32_t prim = 0; prim < 4 && ctx->status != VKQS_FAIL; prim++) {
		uint32_t got[3], want[3];
		for (uint32_t j = 0; j < 3; j++) {
			VkDeviceSize at = (VkDeviceSize)(prim * 3 + j) * COUNT_STRIDE;
			uint32_t words[4];
			for (uint32_t w = 0; w < 4; w++)
				words[w] = xfb_get_u32(b, at + 4 * w);
			float f[4];
			memcpy(f, words, sizeof(f));
			got[j] = f[2] == 3.0f && f[3] == 1.0f ? xfb_small_int(f[0]) : UINT32_MAX;
			want[j] = xfb_prim_vertex(topo, prim, j);
		}
		VKQS_EXPECTF(ctx, xfb_rotation_of(got, want, 3),
			     "triangle %u in the buffer: vertices (%d, %d, %d), expected a rotation "
			     "of (%u, %u, %u) (-1: not a record of the pipeline): a draw after "
			     "vkCmdClearAttachments must append right after the draw before it "
			     "(Transform Feedback: only primitives that reach the stage are "
			     "appended)",
			     prim, (int)got[0], (int)got[1], (int)got[2], want[0], want[1], want[2]);
	}
	xfb_expect_untouched(ctx, b, 12 * COUNT_STRIDE, BIG,
			     "4 triangles of 3 vertices were drawn; a clear captures nothing");
	expect_at_least(ctx, "2 + 2 triangles around vkCmdClearAttachments: primitives written",
			r[0], 4);
	expect_at_least(ctx, "2 + 2 triangles around vkCmdClearAttachments: primitives needed",
			r[1], 4);
	expect_at_least(ctx, "2 + 2 triangles around vkCmdClearAttachments: primitives generated",
			g, 4);
}

static const struct vkqs_case cases[] = {
	{.name = "meta.pgq_between_draws",
	 .fn = meta_pgq_between_draws,
	 .spec = "18.8: every primitive of the draws is counted; 18.2: clears, resolves and "
		 "blits may count towards the results of queries (more: CompatibilityWarning)",
	 .params = VKQS_PARAMS(vkqs_meta_ops, vkqs_meta_op_param_name)},
	{.name = "meta.clear_attachments_while_active",
	 .fn = meta_clear_attachments_while_active,
	 .spec = "Transform Feedback: primitives that reach the transform feedback stage are "
		 "appended to the bound buffers, so vkCmdClearAttachments while transform feedback "
		 "is active writes nothing there; 18.7, 18.8: the draws are counted (more: "
		 "CompatibilityWarning, 18.2)"},
};

VKQS_GROUP(xfb, meta, cases);
