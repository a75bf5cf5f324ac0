/* vkqs.reset.wait.*: VK_QUERY_RESULT_WAIT_BIT blocks until the query is available. */
#include "reset.h"

/* The wait.* cases: the host opens the gate this long after submitting,
 * while the main thread is inside vkGetQueryPoolResults with WAIT. */
#define WAIT_OPEN_DELAY_NS (50ull * 1000 * 1000)

/* vkGetQueryPoolResults with WAIT is called while the use waits on the
 * gate; a timer opens the gate WAIT_OPEN_DELAY_NS later.  "VK_QUERY_RESULT_
 * WAIT_BIT specifies that Vulkan will wait for each query's status to
 * become available before retrieving its results" (18.2): the call returns
 * only after the gate opened, with VK_SUCCESS, availability non-zero and
 * the new use's result (not the old one's). */
static void wait_blocks_until_available(struct vkqs_ctx *ctx, const void *param)
{
	const enum qtype type = *(const uint8_t *)param;
	const VkQueryResultFlags flags = F64A | VK_QUERY_RESULT_WAIT_BIT;
	struct scene *s = reset_scene_create(ctx, type, 1, 0, false);
	struct qexp e;
	VkCommandBuffer cb;
	if (type == QT_OCCLUSION) {
		reset_old_use(ctx, s, 0);
		reset_now(ctx, s, 0, 1, false);
		cb = reset_record_pending(ctx, s, 0, false);
		e = (struct qexp){V_EXACT, PENDING_FINAL, A_NONZERO};
	} else {
		reset_use_now(ctx, s, 0, 1, 0);
		reset_now(ctx, s, 0, 1, false);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		reset_record_use(ctx, cb, s, 0, 1, 0);
		vkqs_cmd_end(ctx, cb);
		e = reset_exp_used(s, 0, 0);
	}
	struct rb *r = reset_rb_create(ctx, s, PATH_GET, 0, 1, flags, &e);
	VkFence f = vkqs_fence(ctx);
	struct vkqs_gate *g = vkqs_gate_create(ctx, WAIT_OPEN_DELAY_NS);
	vkqs_submit_gated(ctx, g, cb, f);
	VkResult got = reset_rb_get(ctx, r);
	bool waited = vkqs_gate_opened_by_now(g);
	vkqs_gate_release(ctx, g);
	vkqs_fence_wait(ctx, f);

	VKQS_EXPECTF(ctx, waited,
		     "vkGetQueryPoolResults with WAIT returned before the submission that "
		     "uses the query could start (its wait semaphore was not signalled yet)");
	reset_check_get_result(ctx, r, got);
	reset_rb_check(ctx, r, "WAIT read issued before the use could run");
}

static const struct vkqs_case cases[] = {
	{.name = "wait.blocks_until_available",
	 .fn = wait_blocks_until_available,
	 .spec = "18.2: VK_QUERY_RESULT_WAIT_BIT \"specifies that Vulkan will wait for "
		 "each query's status to become available before retrieving its results\"",
	 .params = VKQS_PARAMS(type_params, reset_type_name)},
};

VKQS_GROUP(reset, wait, cases);
