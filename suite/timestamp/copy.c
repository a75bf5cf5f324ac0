/* vkqs.timestamp.copy.*: vkCmdCopyQueryPoolResults writes what vkGetQueryPoolResults
 * returns. */
#include "timestamp.h"

/* Both paths return the same query's final result (spec 18.2: "Results for
 * any available query written by this command are final"). */
static void copy_matches_get_64(struct vkqs_ctx *ctx, const void *param)
{
	struct ts_set s = {.bits = ts_queue_bits(ctx, &ctx->vk->gfx, "graphics")};
	uint64_t v[4];
	ts_copy_four(ctx, true, &s, v);
	ts_expect_series(ctx, &s);
	for (uint32_t i = 0; i < 4; i++)
		VKQS_EXPECTF(ctx, v[i] == s.v[i],
			"expected query %u copied with vkCmdCopyQueryPoolResults (0x%016" PRIx64
			") to equal vkGetQueryPoolResults (0x%016" PRIx64 ")",
			i, v[i], s.v[i]);
}

static const struct vkqs_case cases[] = {
	{.name = "copy.matches_get_64",
	 .fn = copy_matches_get_64,
	 .spec = "18.2: Results for any available query written by this command are "
		 "final and represent the final result of the query"},
};

VKQS_GROUP(timestamp, copy, cases);
