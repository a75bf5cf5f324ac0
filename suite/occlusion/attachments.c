/* vkqs.occlusion.attachments.*: a render pass whose subpass has no attachments
 * at all, or a depth attachment and no colour attachment, still rasterizes
 * and counts samples. */
#include "occlusion.h"
#include "shaders/frag_depth_quarter_frag.h"

/* A subpass with no attachments rasterizes at the pipeline's
 * rasterizationSamples over the framebuffer's width and height
 * (VkFramebufferCreateInfo with no attachments; the sample count must be in
 * framebufferNoAttachmentsSampleCounts), and 18.3 counts "the number of
 * samples that pass the per-fragment tests": with no depth or stencil
 * attachment every covered sample passes, so a precise query of a w x h
 * rectangle with integer edges counts w * h * samples.  No fragment shader:
 * there is nothing it could write, and counting precedes nothing it does. */
static void no_attachments(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	if (!(ctx->vk->props.limits.framebufferNoAttachmentsSampleCounts & samples))
		vkqs_skip(ctx, "framebufferNoAttachmentsSampleCounts lacks %u samples",
			  (unsigned)samples);
	struct vkqs_target *t = vkqs_target_create_no_attachments(ctx, FB, FB, samples);
	struct vkqs_pipeline_desc desc = {.no_fragment_shader = true};
	const struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &desc);
	struct occ o = occ_begin_on(ctx, t, 1);
	const struct rect r = {6, 10, 32, 20};
	uint64_t got = occ_measure_rect(ctx, &o, p, r, NULL, flags);
	VKQS_EXPECTF(ctx, got == (uint64_t)r.w * r.h * samples,
		     "a %u x %u rectangle at %u samples in a subpass with no attachments: %llu "
		     "samples counted, %llu expected", r.w, r.h, (unsigned)samples,
		     (unsigned long long)got, (unsigned long long)r.w * r.h * samples);
}

/* A subpass with a depth attachment and no colour attachment; the fragment
 * shader writes depth 0.25 and nothing else.  The depth test uses the
 * depth the shader wrote (Fragment Operations, Depth Replacement: depth
 * testing after the fragment shader "will use this new value as zf"), over
 * a depth buffer cleared to 0.375, the rectangle drawn at z 0.5:
 * - LESS: 0.25 < 0.375 passes for every covered sample: w * h * samples
 *   (18.3, precise); the rectangle's own 0.5 would fail everywhere;
 * - GREATER: 0.25 > 0.375 fails everywhere: 0; 0.5 would pass everywhere.
 * A driver that ignores the replaced depth, or drops the draw for want of
 * a colour attachment, fails one of the two. */
static void depth_only(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct vkqs_target *t = vkqs_target_create_depth_only(ctx, FB, FB, samples);
	const struct rect r = {6, 10, 32, 20};
	const VkCompareOp ops[2] = {VK_COMPARE_OP_LESS, VK_COMPARE_OP_GREATER};
	for (unsigned i = 0; i < 2; i++) {
		struct vkqs_pipeline_desc desc = {
			.depth_test = true,
			.depth_write = true,
			.depth_compare = ops[i],
			.frag_spv = frag_depth_quarter_frag,
			.frag_size = sizeof(frag_depth_quarter_frag),
		};
		const struct vkqs_pipeline *p = vkqs_pipeline_rect(ctx, t, &desc);
		struct occ o = occ_begin_on(ctx, t, 1);
		vkqs_target_begin(ctx, o.cb, t, 0.375f);
		occ_query_draw(ctx, &o, 0, flags, p, r, 0.5f);
		vkqs_target_end(ctx, o.cb);
		uint64_t res[MAX_QUERIES];
		occ_finish(ctx, &o, res);
		uint64_t want = i == 0 ? (uint64_t)r.w * r.h * samples : 0;
		VKQS_EXPECTF(ctx, res[0] == want,
			     "depth attachment only, shader depth 0.25 %s cleared 0.375 (rectangle "
			     "at z 0.5), a %u x %u rectangle at %u samples: %llu samples counted, "
			     "%llu expected", i == 0 ? "LESS" : "GREATER", r.w, r.h,
			     (unsigned)samples, (unsigned long long)res[0],
			     (unsigned long long)want);
	}
}

static const struct vkqs_case cases[] = {
	{.name = "attachments.none",
	 .fn = no_attachments,
	 .spec = SAMPLE_COUNTING_SPEC " (a subpass with no attachments: every covered sample "
				      "of the framebuffer's area at rasterizationSamples); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "attachments.depth_only",
	 .fn = depth_only,
	 .spec = SAMPLE_COUNTING_SPEC " (a subpass with a depth attachment and no colour "
				      "attachment; the depth test compares the depth the fragment "
				      "shader wrote); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, attachments, cases);
