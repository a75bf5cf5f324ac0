/* vkqs.timestamp.result_width.*: 32-bit results are the low 32 bits of the timestamp,
 * by vkGetQueryPoolResults and by a copy. */
#include "timestamp.h"

/* spec 18.2: "If an unsigned integer query's value overflows the result
 * type, the value may either wrap or saturate." */
static void expect_width32(struct vkqs_ctx *ctx, const char *path, uint32_t i,
			   uint64_t v64, uint32_t v32, bool must_wrap)
{
	bool wrapped = v32 == (uint32_t)v64;
	bool saturated = v64 > UINT32_MAX && v32 == UINT32_MAX;
	if (must_wrap) {
		VKQS_EXPECTF(ctx, wrapped,
			"expected %s 32-bit result of query %u (0x%08" PRIx32 ") to be the low 32 "
			"bits of the 64-bit result 0x%016" PRIx64 " (maintenance7 enabled: no "
			"saturation)", path, i, v32, v64);
		return;
	}
	VKQS_EXPECTF(ctx, wrapped || saturated,
		"expected %s 32-bit result of query %u (0x%08" PRIx32 ") to be the low 32 bits "
		"of the 64-bit result 0x%016" PRIx64 " or, when that exceeds "
		"0xffffffff, 0xffffffff",
		path, i, v32, v64);
}

/* VK_KHR_maintenance7: "If the maintenance7 feature is enabled, for an
 * unsigned integer query, the 32-bit result value must be equal to the 32
 * least significant bits of the equivalent 64-bit result value" (the
 * fixture enables every supported feature).  A device clock still below
 * 2^32 cannot tell wrapping from saturating; the check holds either way. */
static void require_maintenance7(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "VK_KHR_maintenance7.maintenance7");
}

static void width_get(struct vkqs_ctx *ctx, bool wrap)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	VkCommandBuffer cb = ts_record_four(ctx, pool);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, 4, &s);
	uint32_t v32[4];
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 4, sizeof(v32), v32,
						 sizeof(v32[0]), VK_QUERY_RESULT_WAIT_BIT));
	ts_expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		expect_width32(ctx, "vkGetQueryPoolResults", i, s.v[i], v32[i], wrap);
}

static void width_copy(struct vkqs_ctx *ctx, bool wrap)
{
	struct ts_set s = {.bits = ts_queue_bits(ctx, &ctx->vk->gfx, "graphics")};
	uint32_t v32[4];
	ts_copy_four(ctx, false, &s, v32);
	ts_expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		expect_width32(ctx, "vkCmdCopyQueryPoolResults", i, s.v[i], v32[i], wrap);
}

#define WIDTH_SPEC                                                             \
	"If an unsigned integer query's value overflows the result type, the "   \
	"value may either wrap or saturate"

static void result_width_get(struct vkqs_ctx *ctx, const void *param)
{
	width_get(ctx, false);
}

static void result_width_copy(struct vkqs_ctx *ctx, const void *param)
{
	width_copy(ctx, false);
}

static void result_width_get_m7(struct vkqs_ctx *ctx, const void *param)
{
	require_maintenance7(ctx);
	width_get(ctx, true);
}

static void result_width_copy_m7(struct vkqs_ctx *ctx, const void *param)
{
	require_maintenance7(ctx);
	width_copy(ctx, true);
}

#define M7_SPEC                                                                  \
	"VK_KHR_maintenance7: with the maintenance7 feature enabled the 32-bit "  \
	"result equals the 32 least significant bits of the 64-bit one"

static const struct vkqs_case cases[] = {
	{.name = "result_width.low_32_bits_or_saturated",
	 .fn = result_width_get,
	 .spec = "18.2 (vkGetQueryPoolResults): " WIDTH_SPEC},
	{.name = "result_width.copy_low_32_bits_or_saturated",
	 .fn = result_width_copy,
	 .spec = "18.2 (vkCmdCopyQueryPoolResults): " WIDTH_SPEC},
	{.name = "result_width.low_32_bits_wrap_maintenance7",
	 .fn = result_width_get_m7,
	 .spec = "18.2 (vkGetQueryPoolResults): " M7_SPEC},
	{.name = "result_width.copy_low_32_bits_wrap_maintenance7",
	 .fn = result_width_copy_m7,
	 .spec = "18.2 (vkCmdCopyQueryPoolResults): " M7_SPEC},
};

VKQS_GROUP(timestamp, result_width, cases);
