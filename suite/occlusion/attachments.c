/* vkqs.occlusion.attachments.*: a render pass whose subpass has no attachments
 * at all still rasterizes and counts samples. */
#include "occlusion.h"

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
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.subpassCount = 1,
		.pSubpasses = &sub,
	};
	struct vkqs_target *t = vkqs_alloc(ctx, sizeof(*t));
	t->width = t->height = FB;
	t->samples = samples;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &t->render_pass));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, t->render_pass);
	VkFramebufferCreateInfo fci = {
		.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
		.renderPass = t->render_pass,
		.width = FB,
		.height = FB,
		.layers = 1,
	};
	VKQS_CHECK(ctx, D->vkCreateFramebuffer(DEV, &fci, NULL, &t->framebuffer));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_FRAMEBUFFER, t->framebuffer);
	struct vkqs_pipeline_target where = {
		.render_pass = t->render_pass,
		.samples = samples,
		.color_format = t->color_format,
		.no_color = true,
	};
	struct vkqs_pipeline_desc desc = {.no_fragment_shader = true};
	const struct vkqs_pipeline *p = vkqs_pipeline_create(ctx, &where, &desc);
	struct occ o = occ_begin_on(ctx, t, 1);
	const struct rect r = {6, 10, 32, 20};
	uint64_t got = occ_measure_rect(ctx, &o, p, r, NULL, flags);
	VKQS_EXPECTF(ctx, got == (uint64_t)r.w * r.h * samples,
		     "a %u x %u rectangle at %u samples in a subpass with no attachments: %llu "
		     "samples counted, %llu expected", r.w, r.h, (unsigned)samples,
		     (unsigned long long)got, (unsigned long long)r.w * r.h * samples);
}

static const struct vkqs_case cases[] = {
	{.name = "attachments.none",
	 .fn = no_attachments,
	 .spec = SAMPLE_COUNTING_SPEC " (a subpass with no attachments: every covered sample "
				      "of the framebuffer's area at rasterizationSamples); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, attachments, cases);
