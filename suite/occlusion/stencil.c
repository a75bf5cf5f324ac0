/* vkqs.occlusion.stencil.*: the stencil test seen through the count: NEVER, EQUAL to
 * the cleared value, values written by a pass op or a triangle, and the depth-fail op. */
#include "occlusion.h"

/* A depth/stencil format with a stencil aspect usable as a depth/stencil
 * attachment at `samples` (optimal tiling), or NotSupported. */
static VkFormat stencil_format(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	static const VkFormat cands[] = {VK_FORMAT_D24_UNORM_S8_UINT,
					 VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_S8_UINT,
					 VK_FORMAT_D16_UNORM_S8_UINT};
	for (size_t i = 0; i < VKQS_ARRAY_LEN(cands); i++) {
		VkFormatProperties fp;
		vkGetPhysicalDeviceFormatProperties(ctx->vk->phys, cands[i], &fp);
		if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
			continue;
		VkImageFormatProperties ifp;
		if (vkGetPhysicalDeviceImageFormatProperties(
			    ctx->vk->phys, cands[i], VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
			    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, &ifp) == VK_SUCCESS &&
		    (ifp.sampleCounts & samples))
			return cands[i];
	}
	vkqs_skip(ctx, "none of D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, S8_UINT, "
		       "D16_UNORM_S8_UINT is a depth/stencil attachment at %u samples "
		       "(optimal tiling)", (unsigned)samples);
}

/* A FB x FB colour + depth/stencil target whose depth/stencil format has a
 * stencil aspect; both aspects are cleared by the load op
 * (vkqs_target_begin_ex). */
static struct vkqs_target *stencil_target(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	const VkPhysicalDeviceLimits *lim = &ctx->vk->props.limits;
	if (!(lim->framebufferColorSampleCounts & samples))
		vkqs_skip(ctx, "framebufferColorSampleCounts lacks %u samples", (unsigned)samples);
	if (!(lim->framebufferStencilSampleCounts & samples))
		vkqs_skip(ctx, "framebufferStencilSampleCounts lacks %u samples",
			  (unsigned)samples);
	VkFormat ds = stencil_format(ctx, samples);
	bool has_depth_aspect = ds != VK_FORMAT_S8_UINT;
	if (has_depth_aspect && !(lim->framebufferDepthSampleCounts & samples))
		vkqs_skip(ctx, "framebufferDepthSampleCounts lacks %u samples", (unsigned)samples);

	struct vkqs_target *t = vkqs_alloc(ctx, sizeof(*t));
	t->width = FB;
	t->height = FB;
	t->samples = samples;
	t->has_depth = true;
	t->color_format = VK_FORMAT_R8G8B8A8_UNORM;
	t->depth_format = ds;
	t->color = vkqs_image_create(ctx, t->color_format, FB, FB, 1, samples,
				     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
	t->color_view = vkqs_image_view(ctx, t->color, VK_IMAGE_VIEW_TYPE_2D, t->color_format,
					VK_IMAGE_ASPECT_COLOR_BIT, 1);
	t->depth = vkqs_image_create(ctx, ds, FB, FB, 1, samples,
				     VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
	t->depth_view = vkqs_image_view(ctx, t->depth, VK_IMAGE_VIEW_TYPE_2D, ds,
					has_depth_aspect ? VK_IMAGE_ASPECT_DEPTH_BIT |
								   VK_IMAGE_ASPECT_STENCIL_BIT
							 : VK_IMAGE_ASPECT_STENCIL_BIT,
					1);
	VkAttachmentDescription att[2] = {
		vkqs_attachment_desc(t->color_format, samples, false),
		{
			.format = ds,
			.samples = samples,
			.loadOp = has_depth_aspect ? VK_ATTACHMENT_LOAD_OP_CLEAR
						   : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
			.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
			.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
			.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
			.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
			.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
		},
	};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {
		.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
		.colorAttachmentCount = 1,
		.pColorAttachments = &cref,
		.pDepthStencilAttachment = &dref,
	};
	VkRenderPassCreateInfo rpci = {
		.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
		.attachmentCount = 2,
		.pAttachments = att,
		.subpassCount = 1,
		.pSubpasses = &sub,
	};
	VKQS_CHECK(ctx, D->vkCreateRenderPass(DEV, &rpci, NULL, &t->render_pass));
	vkqs_defer_destroy(ctx, VK_OBJECT_TYPE_RENDER_PASS, t->render_pass);
	VkImageView views[2] = {t->color_view, t->depth_view};
	t->framebuffer = vkqs_framebuffer_create(ctx, t->render_pass, views, 2, FB, FB);
	return t;
}

/* Spec "Stencil Test": a sample whose stencil test fails has its coverage
 * set to 0 (the failOp still applies), so it does not survive "all the
 * per-fragment tests" and is not counted. */

static VkStencilOpState stencil_state(VkCompareOp op, uint32_t ref, uint32_t compare_mask,
				      VkStencilOp pass, VkStencilOp depth_fail)
{
	VkStencilOpState s = {
		.failOp = VK_STENCIL_OP_KEEP,
		.passOp = pass,
		.depthFailOp = depth_fail,
		.compareOp = op,
		.compareMask = compare_mask,
		.writeMask = 0xff,
		.reference = ref,
	};
	return s;
}

static const struct vkqs_pipeline *stencil_pipeline(struct vkqs_ctx *ctx,
						    const struct vkqs_target *t,
						    VkStencilOpState s)
{
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.stencil_test = true,
		.stencil = s,
	};
	return occ_prim_pipeline(ctx, t, &d);
}

/* A stencil writer (ALWAYS, REPLACE with reference 1 on pass and depth
 * fail) and the filters EQUAL 1 and NOT_EQUAL 1 (KEEP). */
struct stencil_set {
	const struct vkqs_pipeline *write, *equal, *nequal;
};

static struct stencil_set stencil_write_filter(struct vkqs_ctx *ctx,
					       const struct vkqs_target *t)
{
	struct stencil_set ps;
	ps.write = stencil_pipeline(ctx, t,
				    stencil_state(VK_COMPARE_OP_ALWAYS, 1, 0xff,
						  VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_REPLACE));
	ps.equal = stencil_pipeline(ctx, t,
				    stencil_state(VK_COMPARE_OP_EQUAL, 1, 0xff, VK_STENCIL_OP_KEEP,
						  VK_STENCIL_OP_KEEP));
	ps.nequal = stencil_pipeline(ctx, t,
				     stencil_state(VK_COMPARE_OP_NOT_EQUAL, 1, 0xff,
						   VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	return ps;
}

/* NEVER: no sample passes, so even a non-precise query is 0 (18.3); the
 * control query with ALWAYS shows that the draw itself ran. */
static void stencil_never(struct vkqs_ctx *ctx, const void *param)
{
	bool precise = *(const bool *)param;
	VkQueryControlFlags flags = precise ? occ_require_precise(ctx) : 0;
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 2);
	const struct vkqs_pipeline *never = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_NEVER, 0, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct vkqs_pipeline *always = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_ALWAYS, 0, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct rect r = {6, 9, 40, 30};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	occ_query_prim_rect(ctx, &o, 0, flags, never, r);
	occ_query_prim_rect(ctx, &o, 1, flags, always, r);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	if (precise)
		VKQS_EXPECT_EQ(ctx, res[1], occ_area(r) * FIXED_SAMPLES);
	else
		VKQS_EXPECT_GT(ctx, res[1], 0);
}

/* The load op clears stencil to 0x5a: EQUAL 0x5a passes everywhere, EQUAL
 * 0x5b nowhere, and EQUAL 0x53 with compareMask 0xf0 everywhere (spec
 * "Stencil Test": both values are ANDed with compareMask). */
static void stencil_equal_cleared_value(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 3);
	static const struct {
		uint32_t ref, mask;
		bool pass;
	} tests[3] = {{0x5a, 0xff, true}, {0x5b, 0xff, false}, {0x53, 0xf0, true}};
	const struct rect r = {12, 4, 36, 44};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0x5a, VK_SUBPASS_CONTENTS_INLINE);
	for (uint32_t i = 0; i < 3; i++) {
		const struct vkqs_pipeline *p = stencil_pipeline(
			ctx, o.t,
			stencil_state(VK_COMPARE_OP_EQUAL, tests[i].ref, tests[i].mask,
				      VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
		D->vkCmdBeginQuery(o.cb, o.pool, i, flags);
		occ_prim_rect(ctx, o.cb, p, r, 0.5f, 0);
		D->vkCmdEndQuery(o.cb, o.pool, i);
	}
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	for (uint32_t i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, res[i] == (tests[i].pass ? occ_area(r) * FIXED_SAMPLES : 0),
			     "EQUAL reference 0x%02x compareMask 0x%02x against the cleared "
			     "0x5a: %" PRIu64 ", expected %" PRIu64, tests[i].ref, tests[i].mask,
			     res[i], tests[i].pass ? occ_area(r) * FIXED_SAMPLES : 0);
}

/* Draw A writes stencil 1 (ALWAYS, REPLACE); then rectangle B with EQUAL 1
 * counts A ∩ B and with NOT_EQUAL 1 counts B \ A. */
static void stencil_write_then_filter(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, samples), 3);
	const struct stencil_set ps = stencil_write_filter(ctx, o.t);
	const struct rect a = {4, 6, 30, 20}, b = {20, 14, 36, 40};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	occ_query_prim_rect(ctx, &o, 0, flags, ps.write, a);
	occ_query_prim_rect(ctx, &o, 1, flags, ps.equal, b);
	occ_query_prim_rect(ctx, &o, 2, flags, ps.nequal, b);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	uint64_t both = occ_area(occ_intersect(a, b));
	VKQS_EXPECT_EQ(ctx, res[0], occ_area(a) * samples);
	VKQS_EXPECT_EQ(ctx, res[1], both * samples);
	VKQS_EXPECT_EQ(ctx, res[2], (occ_area(b) - both) * samples);
}

/* A triangle writes stencil 1 sample by sample (ALWAYS, REPLACE); the
 * whole framebuffer drawn with EQUAL 1 then passes exactly on the samples
 * the triangle covered (its own count, whatever the tie-breaks) and NOT_EQUAL
 * 1 on all others. */
static void stencil_written_by_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin_on(ctx, stencil_target(ctx, FIXED_SAMPLES), 3);
	const struct stencil_set ps = stencil_write_filter(ctx, o.t);

	vkqs_target_begin_ex(ctx, o.cb, o.t, 1.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, ps.write, SHAPE_SLIVER, 0.5f, FIXED_SAMPLES,
				     whole_fb, false);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	occ_query_prim_rect(ctx, &o, 1, flags, ps.equal, whole_fb);
	occ_query_prim_rect(ctx, &o, 2, flags, ps.nequal, whole_fb);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, "stencil-writing sliver");
	VKQS_EXPECTF(ctx, res[1] == res[0],
		     "EQUAL 1 counted %" PRIu64 ", the triangle that wrote 1 counted %" PRIu64
		     ": the same samples", res[1], res[0]);
	VKQS_EXPECTF(ctx, res[1] + res[2] == occ_area(whole_fb) * FIXED_SAMPLES,
		     "EQUAL %" PRIu64 " + NOT_EQUAL %" PRIu64 " != all %" PRIu64 " samples",
		     res[1], res[2], occ_area(whole_fb) * FIXED_SAMPLES);
}

/* Depth cleared to 0.0: draw A (LESS at 0.5) fails the depth test on every
 * sample and counts 0, but its depthFailOp INCREMENT_AND_CLAMP still writes
 * stencil 1 (spec "Stencil Test": depthFailOp is the action "performed on
 * samples that pass the stencil test and fail the depth test"); B with the
 * depth test off and EQUAL 1 then counts A ∩ B. */
static void stencil_depth_fail_op(struct vkqs_ctx *ctx, const void *param)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct vkqs_target *t = stencil_target(ctx, FIXED_SAMPLES);
	if (t->depth_format == VK_FORMAT_S8_UINT)
		vkqs_skip(ctx, "the only stencil format is S8_UINT, without a depth aspect");
	struct occ o = occ_begin_on(ctx, t, 2);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.depth_test = true,
		.depth_op = VK_COMPARE_OP_LESS,
		.stencil_test = true,
		.stencil = stencil_state(VK_COMPARE_OP_ALWAYS, 0, 0xff, VK_STENCIL_OP_KEEP,
					 VK_STENCIL_OP_INCREMENT_AND_CLAMP),
	};
	const struct vkqs_pipeline *fail = occ_prim_pipeline(ctx, o.t, &d);
	const struct vkqs_pipeline *equal = stencil_pipeline(
		ctx, o.t,
		stencil_state(VK_COMPARE_OP_EQUAL, 1, 0xff, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP));
	const struct rect a = {10, 10, 28, 28}, b = {24, 2, 30, 50};

	vkqs_target_begin_ex(ctx, o.cb, o.t, 0.0f, 0, VK_SUBPASS_CONTENTS_INLINE);
	occ_query_prim_rect(ctx, &o, 0, flags, fail, a);
	occ_query_prim_rect(ctx, &o, 1, flags, equal, b);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	VKQS_EXPECT_EQ(ctx, res[0], 0);
	VKQS_EXPECT_EQ(ctx, res[1], occ_area(occ_intersect(a, b)) * FIXED_SAMPLES);
}

static const struct vkqs_case cases[] = {
	{.name = "stencil.never",
	 .fn = stencil_never,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil test NEVER: no sample survives, so the "
				      "result is 0 even without VK_QUERY_CONTROL_PRECISE_BIT, "
				      "18.3)",
	 .params = VKQS_PARAMS(precise_params, occ_precise_name)},
	{.name = "stencil.equal_cleared_value",
	 .fn = stencil_equal_cleared_value,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil test EQUAL against the load op's clear "
				      "value, through compareMask)"},
	{.name = "stencil.write_then_filter",
	 .fn = stencil_write_then_filter,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil written by passOp REPLACE, then EQUAL / "
				      "NOT_EQUAL)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "stencil.written_by_triangle",
	 .fn = stencil_written_by_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (stencil written per sample by a triangle: EQUAL "
				      "counts exactly the triangle's samples)"},
	{.name = "stencil.depth_fail_op_writes_uncounted",
	 .fn = stencil_depth_fail_op,
	 .spec = SAMPLE_COUNTING_SPEC " (samples failing the depth test are not counted, "
				      "yet depthFailOp updates stencil)"},
};

VKQS_GROUP(occlusion, stencil, cases);
