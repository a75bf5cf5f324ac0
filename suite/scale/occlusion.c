/* vkqs.scale.occlusion.*: many occlusion queries in one render pass
 * instance.  MoltenVK kept a stale baseline past 16 Ki queries in one pass
 * and crashed in setVisibilityResultMode (KhronosGroup/MoltenVK#2682,
 * PR #2739): nothing in the spec limits how many queries one instance may
 * hold, so each query still counts exactly its own draw (18.3: "an
 * implementation must return a result that matches the actual number of
 * samples passed").  The case grows the count (4096, 16384, 16448) and
 * reports the largest that worked, so a limit reads as a number. */
#include <stdlib.h>

#include "../occlusion/occlusion.h"
#include "verdict.h"

static const uint32_t scale_counts[] = {4096, 16384, 16448};

/* Query k draws the one pixel (k mod FB, (k / FB) mod FB), 1 sample: its
 * precise result is exactly 1. */
static bool one_pass(struct vkqs_ctx *ctx, uint32_t n, char *why, size_t whysize)
{
	struct occ o = occ_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, n);
	const struct vkqs_pipeline *pipe = occ_plain_pipeline(ctx, &o);
	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	for (uint32_t k = 0; k < n; k++) {
		struct rect r = {k % FB, (k / FB) % FB, 1, 1};
		occ_query_draw(ctx, &o, k, VK_QUERY_CONTROL_PRECISE_BIT, pipe, r, 0.5f);
	}
	vkqs_target_end(ctx, o.cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o.cb);
	uint64_t *v = vkqs_alloc(ctx, 2ull * n * sizeof(uint64_t));
	VkResult r = D->vkGetQueryPoolResults(DEV, o.pool, 0, n, 2ull * n * sizeof(uint64_t), v,
					      2 * sizeof(uint64_t),
					      VK_QUERY_RESULT_64_BIT |
						      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	uint32_t bad = 0, first = 0;
	for (uint32_t k = 0; k < n; k++)
		if (v[2 * k] != 1 || v[2 * k + 1] == 0) {
			if (!bad++)
				first = k;
		}
	if (r != VK_SUCCESS || bad) {
		snprintf(why, whysize,
			 "%u queries in one render pass instance: %s, %u wrong (the first, query "
			 "%u, reads %llu, availability %llu; each drew exactly 1 sample)",
			 n, vkqs_vk_result_name(r), bad, first, (unsigned long long)v[2 * first],
			 (unsigned long long)v[2 * first + 1]);
		return false;
	}
	return true;
}

static void scale_queries_in_one_pass(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	uint32_t worked = 0;
	for (size_t i = 0; i < VKQS_ARRAY_LEN(scale_counts); i++) {
		char why[512] = "";
		bool ok = one_pass(ctx, scale_counts[i], why, sizeof(why));
		if (!VKQS_EXPECTF(ctx, ok, "%s; the largest count that worked: %u", why, worked))
			return;
		worked = scale_counts[i];
	}
	vkqs_note(ctx, "the largest count that worked: %u queries in one render pass instance "
		       "(the most tried)", worked);
}

static const struct vkqs_case cases[] = {
	{.name = "occlusion.queries_in_one_pass",
	 .fn = scale_queries_in_one_pass,
	 .spec = "18.3: a precise result \"must\" match the samples that passed, for every "
		 "query of a render pass instance however many (4096, 16384, 16448 queries)"},
};

VKQS_GROUP(scale, occlusion, cases);
