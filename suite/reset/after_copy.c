/* vkqs.reset.after_copy.*: a reset recorded after vkCmdCopyQueryPoolResults does not
 * change what the copy wrote. */
#include "reset.h"

/* after_copy / before_copy: the reset against vkCmdCopyQueryPoolResults ---*/

struct copy_order_param {
	uint8_t type;
	bool same_cb; /* use, copy (WAIT) and reset in one command buffer */
};

static const struct copy_order_param after_copy_params[] = {
	{QT_OCCLUSION, true},
	{QT_OCCLUSION, false},
	{QT_TIMESTAMP, true},
	{QT_TIMESTAMP, false},
};

static void after_copy_name(const void *param, char *buf, size_t size)
{
	const struct copy_order_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type],
		 p->same_cb ? "same_command_buffer" : "results_from_earlier_submission");
}

/* A copy followed by a reset of the copied queries in the same command
 * buffer: the reset's first synchronization scope holds every earlier
 * command referencing the queries, the copy included (18.2), so the copy
 * reads the results from before the reset.  Either the queries were used
 * in that command buffer (the copy then needs WAIT to hold their
 * vkCmdEndQuery / vkCmdWriteTimestamp in its first scope), or in an earlier
 * submission whose results were read on the host first.  A read after the
 * fence shows the reset did happen. */
static void after_copy(struct vkqs_ctx *ctx, const void *param)
{
	const struct copy_order_param *p = param;
	const uint32_t n = 2, gen = 4;
	struct scene *s = reset_scene_create(ctx, p->type, n, 0, false);
	struct qexp e[2];
	VkQueryResultFlags flags = F64A;

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 0, n);
	reset_record_use(ctx, cb, s, 0, n, gen);
	if (p->same_cb) {
		flags |= VK_QUERY_RESULT_WAIT_BIT;
		for (uint32_t q = 0; q < n; q++)
			e[q] = reset_exp_used(s, q, gen);
	} else {
		reset_submit_wait_one(ctx, cb);
		uint64_t known[2];
		reset_read_baseline(ctx, s, 0, n, known);
		for (uint32_t q = 0; q < n; q++)
			e[q] = reset_exp_known(s, q, gen, known[q]);
		cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	}
	struct rb *r = reset_rb_create(ctx, s, PATH_COPY, 0, n, flags, e);
	D->vkCmdCopyQueryPoolResults(cb, s->pool, 0, n, r->buf->buf, DST_OFFSET, r->stride,
				     flags);
	D->vkCmdResetQueryPool(cb, s->pool, 0, n);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	reset_submit_wait_one(ctx, cb);
	reset_rb_check(ctx, r, "copy recorded before a reset of the same queries");

	struct qexp after[2] = {reset_exp_reset(PATH_GET, F64A), reset_exp_reset(PATH_GET, F64A)};
	reset_read_check(ctx, s, PATH_GET, 0, n, F64A, after, "after the reset that followed the copy");
}

static const struct vkqs_case cases[] = {
	{.name = "after_copy.copy_keeps_results",
	 .fn = after_copy,
	 .spec = SPEC_COPY_SCOPES ": a copy followed by a reset of the copied "
				  "queries reads the results from before the reset",
	 .params = VKQS_PARAMS(after_copy_params, after_copy_name)},
};

VKQS_GROUP(reset, after_copy, cases);
