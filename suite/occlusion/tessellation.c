/* vkqs.occlusion.tessellation.*: occlusion queries over tessellated draws.
 *
 * MoltenVK cached occlusion results early around its tessellation path and
 * got them wrong after a render pass change (KhronosGroup/MoltenVK#1842,
 * #1919; bug_classes.md #5).  The draws here go through
 * stats_triangle.tesc/.tese: every tessellation level 1 and the evaluation
 * shader's vertices exactly the patch corners (barycentric 0 and 1), so a
 * tessellated rectangle is the same two triangles as the plain one and
 * covers exactly w x h pixels (occlusion.c says why), all samples of each.
 * 18.3 with PRECISE: "the actual number of samples passed". */
#include "occlusion.h"
#include "shaders/stats_triangle_tesc.h"
#include "shaders/stats_triangle_tese.h"

static const struct rect tess_a = {6, 10, 20, 12}, plain_b = {34, 30, 18, 14};

/* Three queries in one render pass instance: 0 around tessellated A; 1
 * around plain B then tessellated A; 2 around tessellated A scissored
 * away (no sample can pass).  Exactly A, B + A and 0 samples. */
static void after_plain_draws(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	vkqs_require_feature(ctx, "tessellationShader");
	struct occ o = occ_begin(ctx, FIXED_SAMPLES, false, 3);
	struct vkqs_pipeline_desc td = {
		.set_topology = true,
		.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
		.tesc_spv = stats_triangle_tesc, .tesc_size = sizeof(stats_triangle_tesc),
		.tese_spv = stats_triangle_tese, .tese_size = sizeof(stats_triangle_tese),
		.patch_control_points = 3,
	};
	const struct vkqs_pipeline *tess = vkqs_pipeline_rect(ctx, o.t, &td);
	const struct vkqs_pipeline *plain = occ_plain_pipeline(ctx, &o);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	occ_query_draw(ctx, &o, 0, flags, tess, tess_a, 0.5f);
	D->vkCmdBeginQuery(o.cb, o.pool, 1, flags);
	occ_draw(ctx, &o, plain, plain_b, 0.5f);
	occ_draw(ctx, &o, tess, tess_a, 0.5f);
	D->vkCmdEndQuery(o.cb, o.pool, 1);
	occ_set_scissor(ctx, o.cb, (struct rect){40, 2, 8, 6});
	occ_query_draw(ctx, &o, 2, flags, tess, tess_a, 0.5f);
	vkqs_target_end(ctx, o.cb);
	uint64_t r[MAX_QUERIES];
	occ_finish(ctx, &o, r);

	const uint64_t s = FIXED_SAMPLES;
	uint64_t want[3] = {occ_area(tess_a) * s, (occ_area(plain_b) + occ_area(tess_a)) * s, 0};
	static const char *const what[3] = {"tessellated A", "plain B, then tessellated A",
					     "tessellated A, scissored away"};
	for (uint32_t q = 0; q < 3; q++)
		VKQS_EXPECTF(ctx, r[q] == want[q], "query %u (%s): %" PRIu64 " samples, expected %"
			     PRIu64, q, what[q], r[q], want[q]);
}

static const struct vkqs_case cases[] = {
	{.name = "tessellation.after_plain_draws",
	 .fn = after_plain_draws,
	 .spec = "18.3: with VK_QUERY_CONTROL_PRECISE_BIT \"an implementation must return a result "
		 "that matches the actual number of samples passed\", for tessellated draws too"},
};

VKQS_GROUP(occlusion, tessellation, cases);
