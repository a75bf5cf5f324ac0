/* vkqs.occlusion.suspend.*: queries in a dynamic rendering instance
 * suspended at the end of one command buffer and resumed in the next. */
#include "occlusion.h"
#include "passtarget.h"

/* One render pass instance in two command buffers of one batch: the first
 * begins it with VK_RENDERING_SUSPENDING_BIT and holds query 0 around rect
 * A, the second resumes it (VK_RENDERING_RESUMING_BIT) and holds query 1
 * around rect B; each query begins and ends in its own command buffer
 * (18.2 "A query must begin and end in the same command buffer").  Both
 * precise: exactly their rectangle's samples (18.3).  venus dropped the
 * feedback of queries in a suspended instance, then lost the device
 * (mesa 566df7821b2). */
static void resumed_in_next_command_buffer(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	static const uint32_t no_view[VKQS_PASS_MAX_SUBPASSES] = {0, 0};
	struct vkqs_pass_target *t = vkqs_pass_target_create(ctx, VKQS_PASS_DYN, 64,
							     VK_SAMPLE_COUNT_1_BIT, false, 1,
							     no_view);
	struct vkqs_pipeline_target where = {
		.samples = t->samples,
		.color_format = t->color_format,
		.depth_format = t->depth_format,
	};
	struct vkqs_pipeline_desc desc = {0};
	const struct vkqs_pipeline *p = vkqs_pipeline_create(ctx, &where, &desc);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_OCCLUSION, 2, 0);
	const struct rect r[2] = {{3, 5, 20, 11}, {30, 28, 17, 25}};

	VkCommandBuffer cb[2];
	for (uint32_t i = 0; i < 2; i++) {
		cb[i] = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		if (i == 0)
			D->vkCmdResetQueryPool(cb[i], pool, 0, 2);
		vkqs_pass_begin_dyn(ctx, cb[i], t, 1.0f,
				    i == 0 ? VK_RENDERING_SUSPENDING_BIT : VK_RENDERING_RESUMING_BIT);
		D->vkCmdBeginQuery(cb[i], pool, i, flags);
		struct vkqs_rect_push pc = {
			{(float)r[i].x, (float)r[i].y, (float)(r[i].x + r[i].w),
			 (float)(r[i].y + r[i].h)},
			{64.0f, 64.0f}, 0.5f, 0};
		vkqs_cmd_bind_rect(ctx, cb[i], p, &pc);
		D->vkCmdDraw(cb[i], 6, 1, 0, 0);
		D->vkCmdEndQuery(cb[i], pool, i);
		vkqs_pass_end(ctx, cb[i], t);
		vkqs_cmd_end(ctx, cb[i]);
	}
	vkqs_submit_timed(ctx, &ctx->vk->gfx, cb, 2);
	uint64_t v[2][2] = {{0, 0}, {0, 0}};
	VkResult res = D->vkGetQueryPoolResults(DEV, pool, 0, 2, sizeof(v), v, sizeof(v[0]),
						VK_QUERY_RESULT_64_BIT |
							VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	VKQS_EXPECTF(ctx, res == VK_SUCCESS && v[0][1] && v[1][1],
		     "after the batch: %s, availability %" PRIu64 " (query 0, suspended instance) "
		     "and %" PRIu64 " (query 1, resumed)", vkqs_vk_result_name(res), v[0][1],
		     v[1][1]);
	for (uint32_t i = 0; i < 2; i++)
		if (v[i][1])
			VKQS_EXPECTF(ctx, v[i][0] == occ_area(r[i]),
				     "query %u (%s command buffer): %" PRIu64 " samples, expected %" PRIu64
				     " (a %ux%u rectangle)", i, i ? "resumed, second" : "suspended, first",
				     v[i][0], occ_area(r[i]), r[i].w, r[i].h);
}

static const struct vkqs_case cases[] = {
	{.name = "suspend.resumed_in_next_command_buffer",
	 .fn = resumed_in_next_command_buffer,
	 .spec = "18.3 precise occlusion queries in a render pass instance suspended "
		 "(VK_RENDERING_SUSPENDING_BIT) in one command buffer and resumed in the next; "
		 "18.2 \"A query must begin and end in the same command buffer\""},
};

VKQS_GROUP(occlusion, suspend, cases);
