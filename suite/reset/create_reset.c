/* vkqs.reset.create_reset.*: VK_KHR_maintenance9's reset-on-create lets the first use
 * come without a reset. */
#include "reset.h"

/* create_reset: VK_QUERY_POOL_CREATE_RESET_BIT_KHR (maintenance9) ----------*/

/* A pool created with VK_QUERY_POOL_CREATE_RESET_BIT_KHR: "queries in the
 * query pool are initialized on creation and do not need to be reset
 * before first use".  Initialized means reset: read before any use, the
 * queries are unavailable; used without any reset, they hold exact
 * results. */
static void create_reset(struct vkqs_ctx *ctx, const void *param)
{
	const struct tp_param *p = param;
	const uint32_t n = ORDER_QUERIES;
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_9_EXTENSION_NAME))
		vkqs_skip(ctx, "the device lacks %s", VK_KHR_MAINTENANCE_9_EXTENSION_NAME);
	vkqs_require_feature(ctx, VK_KHR_MAINTENANCE_9_EXTENSION_NAME ".maintenance9");
	struct scene *s = reset_scene_create(ctx, p->type, n, VK_QUERY_POOL_CREATE_RESET_BIT_KHR,
				       false);
	struct qexp e[ORDER_QUERIES];
	for (uint32_t q = 0; q < n; q++)
		e[q] = reset_exp_reset(p->path, F64A);
	reset_read_check(ctx, s, p->path, 0, n, F64A, e, "a pool created reset, before any use");

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	reset_record_use(ctx, cb, s, 0, n, ORDER_GEN);
	reset_submit_wait_one(ctx, cb);
	reset_read_used(ctx, s, p->path, n, ORDER_GEN, "first use without a reset");
}

static const struct vkqs_case cases[] = {
	{.name = "create_reset.first_use_without_reset",
	 .fn = create_reset,
	 .spec = "VK_KHR_maintenance9: VK_QUERY_POOL_CREATE_RESET_BIT_KHR \"specifies "
		 "that queries in the query pool are initialized on creation and do not "
		 "need to be reset before first use\"",
	 .params = VKQS_PARAMS(tp_params, reset_tp_name)},
};

VKQS_GROUP(reset, create_reset, cases);
