/* vkqs.scale.timestamp.*: timestamp pools larger than a driver's hardware
 * buffer.  MoltenVK's timestamps beyond the 32 KiB MTLCounterSampleBuffer
 * (4096 queries) fell back to emulation (KhronosGroup/MoltenVK#1907), and
 * applications learned to cap their pools at 4 Ki (wolfpld/tracy PR
 * #1427).  Nothing in the spec limits a timestamp pool's size, so every
 * query written by the submission is available after its fence, within
 * timestampValidBits (18.5; VkQueueFamilyProperties).  The case grows the
 * pool (4096, 4097, 16384, 65536 queries, each written once) and reports
 * the largest size that worked, so a limit reads as a number. */
#include "../timestamp/timestamp.h"
#include "verdict.h"

static const uint32_t scale_sizes[] = {4096, 4097, 16384, 65536};

static bool one_pool(struct vkqs_ctx *ctx, uint32_t n, uint32_t bits, char *why, size_t whysize)
{
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct vkqs_queue *q = &ctx->vk->gfx;
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, n);
	for (uint32_t k = 0; k < n; k++)
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, k);
	vkqs_cmd_submit_wait(ctx, q, cb);
	uint64_t *v = vkqs_alloc(ctx, 2ull * n * sizeof(uint64_t));
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, n, 2ull * n * sizeof(uint64_t), v,
					      2 * sizeof(uint64_t),
					      VK_QUERY_RESULT_64_BIT |
						      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	uint64_t mask = vkqs_ts_mask(bits);
	uint32_t bad = 0, first = 0;
	for (uint32_t k = 0; k < n; k++)
		if (v[2 * k + 1] == 0 || (v[2 * k] & ~mask)) {
			if (!bad++)
				first = k;
		}
	if (r != VK_SUCCESS || bad) {
		snprintf(why, whysize,
			 "a pool of %u timestamps, each written once: %s, %u unavailable or above "
			 "timestampValidBits %u after the fence (the first, query %u: value 0x%llx, "
			 "availability %llu)",
			 n, vkqs_vk_result_name(r), bad, bits, first, (unsigned long long)v[2 * first],
			 (unsigned long long)v[2 * first + 1]);
		return false;
	}
	return true;
}

static void scale_pool_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	uint32_t bits = ts_queue_bits(ctx, q, "graphics");
	uint32_t worked = 0;
	for (size_t i = 0; i < VKQS_ARRAY_LEN(scale_sizes); i++) {
		char why[512] = "";
		bool ok = one_pool(ctx, scale_sizes[i], bits, why, sizeof(why));
		if (!VKQS_EXPECTF(ctx, ok, "%s; the largest pool that worked: %u", why, worked))
			return;
		worked = scale_sizes[i];
	}
	vkqs_note(ctx, "the largest pool that worked: %u timestamps (the most tried)", worked);
}

static const struct vkqs_case cases[] = {
	{.name = "timestamp.pool_size",
	 .fn = scale_pool_size,
	 .spec = "18.5: every timestamp the submission wrote is available after its fence, "
		 "within timestampValidBits, whatever the pool's size (4096, 4097, 16384, "
		 "65536 queries)"},
};

VKQS_GROUP(scale, timestamp, cases);
