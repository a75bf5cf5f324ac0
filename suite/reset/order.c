/* vkqs.reset.order.*: a reset orders before the use that follows it in the same
 * command buffer, an earlier command buffer or submission, and from the host. */
#include "reset.h"

/* vkCmdResetQueryPool, then the use, in one command buffer: the reset
 * "happens before" the later commands referencing the queries (18.2). */
static void order_same_command_buffer(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = reset_scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, ORDER_QUERIES);
	reset_record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	reset_submit_wait_one(ctx, cb);
	reset_read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN, "reset and use in one command buffer");
}

/* The reset in a submission that completed before the use is recorded. */
static void order_earlier_submission(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = reset_scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	reset_now(ctx, s, 0, ORDER_QUERIES, false);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	reset_submit_wait_one(ctx, cb);
	reset_read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN,
		  "reset in an earlier, completed submission");
}

/* The reset in one command buffer, the use in the next one of the same
 * vkQueueSubmit: ordered by submission order alone, no host wait between
 * (bug class 7: a reset recorded in another command buffer than the
 * begin/end gave bogus results on MoltenVK). */
static void order_earlier_command_buffer(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	struct scene *s = reset_scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	VkCommandBuffer cbs[2];
	cbs[0] = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cbs[0], s->pool, 0, ORDER_QUERIES);
	vkqs_cmd_end(ctx, cbs[0]);
	cbs[1] = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cbs[1], s, 0, ORDER_QUERIES, ORDER_GEN);
	vkqs_cmd_end(ctx, cbs[1]);
	VkFence f = vkqs_fence(ctx);
	vkqs_submit(ctx, &ctx->vk->gfx, cbs, 2, f);
	vkqs_fence_wait(ctx, f);
	reset_read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN,
		  "reset in the previous command buffer of the same submission");
}

/* The reset on the host (vkResetQueryPool) of a fresh pool, then the use. */
static void order_host_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = reset_scene_create(ctx, p->type, ORDER_QUERIES, 0, false);
	reset_now(ctx, s, 0, ORDER_QUERIES, true);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, 0, ORDER_QUERIES, ORDER_GEN);
	reset_submit_wait_one(ctx, cb);
	reset_read_used(ctx, s, p->path, ORDER_QUERIES, ORDER_GEN, "host reset before the use");
}

static const struct vkqs_case cases[] = {
	{.name = "order.same_command_buffer",
	 .fn = order_same_command_buffer,
	 .spec = SPEC_RESET " (reset and begin/end or write in one command buffer)",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
	{.name = "order.earlier_submission",
	 .fn = order_earlier_submission,
	 .spec = SPEC_RESET " (reset in an earlier submission that completed)",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
	{.name = "order.earlier_command_buffer_same_submission",
	 .fn = order_earlier_command_buffer,
	 .spec = SPEC_RESET " (reset in the previous command buffer of one submission)",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
	{.name = "order.host_reset",
	 .fn = order_host_reset,
	 .spec = SPEC_HOST_RESET "; then a use gives the exact result",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
};

VKQS_GROUP(reset, order, cases);
