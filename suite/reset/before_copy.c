/* vkqs.reset.before_copy.*: a copy recorded after a reset sees the queries
 * unavailable. */
#include "reset.h"

struct before_copy_param {
	uint8_t type;
	uint8_t bits;
};

static const struct before_copy_param before_copy_params[] = {
	{QT_OCCLUSION, 32},
	{QT_OCCLUSION, 64},
	{QT_TIMESTAMP, 32},
	{QT_TIMESTAMP, 64},
};

static void before_copy_name(const void *param, char *buf, size_t size)
{
	const struct before_copy_param *p = param;
	snprintf(buf, size, "%s_%u", qtype_names[p->type], p->bits);
}

/* Queries 0 and 1 hold results of an earlier submission; a command buffer
 * resets query 1 and then copies both WITH_AVAILABILITY: the reset happens
 * before the copy (18.2), so query 1 reads availability 0 (its value is
 * undefined: "results for all queries ... are copied") while query 0 keeps
 * its final result.  Without WITH_AVAILABILITY (or PARTIAL) a copy of a
 * reset query is flagged by Vulkan-ValidationLayers 1.3.239 ("Requesting a
 * copy from query to buffer ... QUERYRESULT_NO_DATA"), so this form is
 * not run. */
static void before_copy(struct vkqs_ctx *ctx, const void *param)
{
	const struct before_copy_param *p = param;
	const uint32_t n = 2, gen = 5;
	struct scene *s = reset_scene_create(ctx, p->type, n, 0, false);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0);
	reset_use_now(ctx, s, 0, n, gen);
	uint64_t known[2];
	reset_read_baseline(ctx, s, 0, n, known);

	struct qexp e[2] = {reset_exp_known(s, 0, gen, known[0]), reset_exp_reset(PATH_COPY, flags)};
	struct rb *r = reset_rb_create(ctx, s, PATH_COPY, 0, n, flags, e);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 1, 1);
	reset_rb_record_copy(ctx, r, cb);
	reset_submit_wait_one(ctx, cb);
	reset_rb_check(ctx, r, "copy recorded after a reset of query 1");
}

static const struct vkqs_case cases[] = {
	{.name = "before_copy.copy_sees_reset",
	 .fn = before_copy,
	 .spec = SPEC_COPY_SCOPES ": a reset followed by a copy WITH_AVAILABILITY "
				  "gives availability 0 for the reset query and the final "
				  "result of the one not reset",
	 .params = VKQS_PARAMS(before_copy_params, before_copy_name)},
};

VKQS_GROUP(reset, before_copy, cases);
