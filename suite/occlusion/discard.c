/* vkqs.occlusion.discard.*: fragments the shader discards survive no test and are not
 * counted, for a rectangle and a triangle. */
#include "occlusion.h"
#include "verdict.h"
#include "shaders/alpha_zero_odd_columns_frag.h"
#include "shaders/sample_mask_zero_odd_columns_early_frag.h"

/* The rectangle of the odd-column cases: even x and width, so its odd
 * pixel columns are exactly half of it. */
static const struct rect ODD_RECT = {6, 10, 32, 20};

/* A precise query of ODD_RECT drawn with desc (a fragment shader that
 * treats odd columns apart) at `samples`, on a target with a depth
 * attachment cleared to 1.0 when `depth`; the desc's dynamic
 * alpha-to-coverage state is set on first.  Returns the count. */
static uint64_t measure_odd_columns(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples,
				    bool depth, const struct vkqs_pipeline_desc *desc)
{
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, depth, 1);
	const struct vkqs_pipeline *pipe = vkqs_pipeline_rect(ctx, o.t, desc);
	if (desc->dynamic_alpha_to_coverage)
		D->vkCmdSetAlphaToCoverageEnableEXT(o.cb, VK_TRUE);
	return occ_measure_rect(ctx, &o, pipe, ODD_RECT, NULL, flags);
}

/* discard_odd_columns.frag kills every fragment of an odd column; a killed
 * fragment takes all its samples with it (no sample shading: gl_FragCoord
 * is the pixel centre), so an even-x, even-width rectangle keeps half. */
static void discard_odd_columns(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct vkqs_pipeline_desc desc = {
		.frag_spv = discard_odd_columns_frag,
		.frag_size = sizeof(discard_odd_columns_frag),
	};
	uint64_t got = measure_odd_columns(ctx, samples, false, &desc);
	VKQS_EXPECT_EQ(ctx, got, (uint64_t)(ODD_RECT.w / 2) * ODD_RECT.h * samples);
}

/* discard_odd_columns.frag on a triangle: the fragments of odd columns die
 * with all their samples, partially covered ones included. */
static void discard_odd_columns_triangle(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	VkQueryControlFlags flags = occ_require_precise(ctx);
	vkqs_require_exact_coverage(ctx);
	struct occ o = occ_begin(ctx, samples, false, 1);
	struct prim_desc d = {
		.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
		.frag = FRAG_DISCARD_ODD_COLUMNS,
	};
	const struct vkqs_pipeline *pipe = occ_prim_pipeline(ctx, o.t, &d);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	D->vkCmdBeginQuery(o.cb, o.pool, 0, flags);
	struct window w = occ_shape_draw(ctx, o.cb, pipe, SHAPE_SLANTED, 0.5f, samples, whole_fb, true);
	D->vkCmdEndQuery(o.cb, o.pool, 0);
	vkqs_target_end(ctx, o.cb);

	uint64_t res[MAX_QUERIES];
	occ_finish(ctx, &o, res);
	occ_expect_window(ctx, res[0], w, "triangle with odd columns discarded");
}

/* VkPhysicalDeviceMaintenance5PropertiesKHR::earlyFragmentMultisample-
 * CoverageAfterSampleCounting: 1 true, 0 false, -1 unknown (the device has
 * neither VK_KHR_maintenance5 nor Vulkan 1.4).  vkqs-layer: VK_KHR_maintenance5
 * by number: only its structure is used, and a layer older than it names
 * the structure's number, which vkqs_validation_predated attributes
 * (marking the case would hide every other report of it). */
static int coverage_after_counting(struct vkqs_ctx *ctx)
{
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_KHR_MAINTENANCE_5_EXTENSION_NAME) &&
	    ctx->vk->props.apiVersion < VK_MAKE_API_VERSION(0, 1, 4, 0))
		return -1;
	VkPhysicalDeviceMaintenance5PropertiesKHR m5 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_5_PROPERTIES_KHR};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &m5};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	return m5.earlyFragmentMultisampleCoverageAfterSampleCounting == VK_TRUE;
}

/* Fragment shading and multisample coverage after sample counting with
 * EarlyFragmentTests (fragops.adoc): "should" where the maintenance5
 * property is VK_FALSE or unknown (a different count: CompatibilityWarning),
 * "must" where it is VK_TRUE (Fail).  Either way the precise result is one
 * of the two orders' counts: every sample of ODD_RECT (counted before the
 * shader) or its even columns, half of them (counted after); anything else
 * matches no number of samples that passed (18.3: "must return a result
 * that matches the actual number of samples passed"): Fail. */
static void expect_counted_before_shading(struct vkqs_ctx *ctx, uint64_t got, uint64_t want,
					  const char *what)
{
	int must = coverage_after_counting(ctx);
	if (got != want && got != want / 2) {
		vkqs_fail(ctx, "%s: %llu samples counted: neither the %llu counted before the "
			       "shader nor the %llu of the even columns after it (18.3: a precise "
			       "result \"must\" match the samples that passed)",
			  what, (unsigned long long)got, (unsigned long long)want,
			  (unsigned long long)(want / 2));
		return;
	}
	if (must == 1) {
		VKQS_EXPECTF(ctx, got == want,
			     "%s: %llu samples counted, %llu expected (fragment shading and "
			     "multisample coverage after sample counting: must, "
			     "earlyFragmentMultisampleCoverageAfterSampleCounting is VK_TRUE)",
			     what, (unsigned long long)got, (unsigned long long)want);
		return;
	}
	VKQS_EXPECT_SHOULD(ctx, got == want,
			   "%s: %llu samples counted, %llu recommended (fragment shading and "
			   "multisample coverage \"should\" be performed after sample counting; "
			   "earlyFragmentMultisampleCoverageAfterSampleCounting is %s)",
			   what, (unsigned long long)got, (unsigned long long)want,
			   must == 0 ? "VK_FALSE" : "unknown");
}

/* discard_odd_columns_early.frag: with EarlyFragmentTests the depth test
 * and sample counting run before fragment shading (Fragment Operations,
 * "Early Fragment Test Mode"): fragment shading "should" be performed after
 * sample counting, and must where earlyFragmentMultisampleCoverageAfter-
 * SampleCounting is VK_TRUE, so the fragments the shader then discards were
 * counted: the whole rectangle's samples (expect_counted_before_shading).  With a depth attachment the
 * depth test runs early too: passing (z 0.5 LESS than the 1.0 clear), or
 * failing (GREATER), when the shader never runs and nothing is counted. */
struct early_param {
	VkSampleCountFlagBits samples;
	bool depth;
	bool occluded;
};
static const struct early_param early_params[] = {
	{VK_SAMPLE_COUNT_1_BIT, false, false}, {VK_SAMPLE_COUNT_4_BIT, false, false},
	{VK_SAMPLE_COUNT_4_BIT, true, false},  {VK_SAMPLE_COUNT_4_BIT, true, true},
};
static void early_name(const void *param, char *buf, size_t size)
{
	const struct early_param *p = param;
	snprintf(buf, size, "%s_samples_%u",
		 p->occluded ? "depth_occluded" : p->depth ? "depth_passing" : "no_depth",
		 (unsigned)p->samples);
}

static void discard_early_tests(struct vkqs_ctx *ctx, const void *param)
{
	const struct early_param *p = param;
	struct vkqs_pipeline_desc desc = {
		.frag_spv = discard_odd_columns_early_frag,
		.frag_size = sizeof(discard_odd_columns_early_frag),
		.depth_test = p->depth,
		.depth_compare = p->occluded ? VK_COMPARE_OP_GREATER : VK_COMPARE_OP_LESS,
	};
	uint64_t got = measure_odd_columns(ctx, p->samples, p->depth, &desc);
	if (p->occluded) {
		VKQS_EXPECTF(ctx, got == 0,
			     "early fragment tests, depth test failing: %llu samples counted, 0 "
			     "expected (every fragment fails the early depth test)",
			     (unsigned long long)got);
		return;
	}
	expect_counted_before_shading(ctx, got, (uint64_t)ODD_RECT.w * ODD_RECT.h * p->samples,
				      p->depth ? "early fragment tests, odd columns discarded by "
						 "the shader afterwards, depth test passing"
					       : "early fragment tests, odd columns discarded by "
						 "the shader afterwards");
}

/* alpha_zero_odd_columns.frag with alpha to coverage: "Multisample
 * Coverage" ANDs the coverage with a temporary mask whose 1's are
 * "proportional to the alpha value ... with all 1's corresponding to a
 * value of 1.0 and all 0's corresponding to 0.0", and it precedes sample
 * counting (Fragment Operations).  So odd columns (alpha 0.0) count nothing
 * and even columns (alpha 1.0) every sample: (w / 2) * h * samples for an
 * even-x, even-width rectangle; the oracle is exact because only 0.0 and
 * 1.0 are used.  Static (alphaToCoverageEnable) or dynamic
 * (vkCmdSetAlphaToCoverageEnableEXT, extendedDynamicState3AlphaToCoverage-
 * Enable). */
struct a2c_param {
	VkSampleCountFlagBits samples;
	bool dynamic;
};
static const struct a2c_param a2c_params[] = {
	{VK_SAMPLE_COUNT_1_BIT, false}, {VK_SAMPLE_COUNT_4_BIT, false},
	{VK_SAMPLE_COUNT_1_BIT, true},  {VK_SAMPLE_COUNT_4_BIT, true},
};
static void a2c_name(const void *param, char *buf, size_t size)
{
	const struct a2c_param *p = param;
	snprintf(buf, size, "%s_samples_%u", p->dynamic ? "dynamic" : "static",
		 (unsigned)p->samples);
}

static void discard_alpha_to_coverage(struct vkqs_ctx *ctx, const void *param)
{
	const struct a2c_param *p = param;
	if (p->dynamic)
		vkqs_require_feature(ctx, "VK_EXT_extended_dynamic_state3."
					  "extendedDynamicState3AlphaToCoverageEnable");
	struct vkqs_pipeline_desc desc = {
		.frag_spv = alpha_zero_odd_columns_frag,
		.frag_size = sizeof(alpha_zero_odd_columns_frag),
		.alpha_to_coverage = !p->dynamic,
		.dynamic_alpha_to_coverage = p->dynamic,
	};
	uint64_t got = measure_odd_columns(ctx, p->samples, false, &desc);
	uint64_t want = (uint64_t)(ODD_RECT.w / 2) * ODD_RECT.h * p->samples;
	VKQS_EXPECTF(ctx, got == want,
		     "alpha to coverage (%s), alpha 0.0 in odd columns and 1.0 in even ones, "
		     "%u samples: %llu samples counted, %llu expected (odd columns lose every "
		     "sample before counting)",
		     p->dynamic ? "dynamic" : "static", (unsigned)p->samples,
		     (unsigned long long)got, (unsigned long long)want);
}

/* sample_mask_zero_odd_columns_early.frag: EarlyFragmentTests, and a
 * SampleMask output of 0 in odd columns.  Fragment Operations: with
 * EarlyFragmentTests "fragment shading and multisample coverage operations
 * should instead be performed after sample counting"; the SampleMask output
 * acts in Multisample Coverage, so every sample was counted before the mask
 * removed half: w * h * samples.  "should" becomes must where
 * VkPhysicalDeviceMaintenance5PropertiesKHR::earlyFragmentMultisample-
 * CoverageAfterSampleCounting is VK_TRUE: there a smaller count fails;
 * elsewhere (VK_FALSE, or no VK_KHR_maintenance5 to say) it is a
 * CompatibilityWarning. */
static void discard_early_sample_mask(struct vkqs_ctx *ctx, const void *param)
{
	VkSampleCountFlagBits samples = *(const VkSampleCountFlagBits *)param;
	struct vkqs_pipeline_desc desc = {
		.frag_spv = sample_mask_zero_odd_columns_early_frag,
		.frag_size = sizeof(sample_mask_zero_odd_columns_early_frag),
	};
	uint64_t got = measure_odd_columns(ctx, samples, false, &desc);
	char what[96];
	snprintf(what, sizeof(what), "early fragment tests, SampleMask 0 in odd columns, %u samples",
		 (unsigned)samples);
	expect_counted_before_shading(ctx, got, (uint64_t)ODD_RECT.w * ODD_RECT.h * samples, what);
}

static const struct vkqs_case cases[] = {
	{.name = "discard.odd_columns",
	 .fn = discard_odd_columns,
	 .spec = SAMPLE_COUNTING_SPEC " (a fragment discarded by the shader survives "
				      "no test); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "discard.odd_columns_triangle",
	 .fn = discard_odd_columns_triangle,
	 .spec = SAMPLE_COUNTING_SPEC " (a discarded fragment survives no test, partially "
				      "covered ones included)",
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
	{.name = "discard.early_tests_odd_columns",
	 .fn = discard_early_tests,
	 .spec = "Fragment Operations, Early Fragment Test Mode: with EarlyFragmentTests the "
		 "depth test and sample counting are performed before fragment shading, so "
		 "fragments the shader discards are counted; " PRECISE_SPEC,
	 .params = VKQS_PARAMS(early_params, early_name)},
	{.name = "discard.alpha_to_coverage_odd_columns",
	 .fn = discard_alpha_to_coverage,
	 .spec = SAMPLE_COUNTING_SPEC " (Multisample Coverage: alpha to coverage clears every "
				      "sample at alpha 0.0 and none at 1.0, before sample "
				      "counting); " PRECISE_SPEC,
	 .params = VKQS_PARAMS(a2c_params, a2c_name)},
	{.name = "discard.early_tests_sample_mask_odd_columns",
	 .fn = discard_early_sample_mask,
	 .spec = "Fragment Operations: with EarlyFragmentTests, multisample coverage (the "
		 "shader's SampleMask) should be performed after sample counting, must with "
		 "earlyFragmentMultisampleCoverageAfterSampleCounting; " PRECISE_SPEC,
	 .params = VKQS_PARAMS(sample_params, occ_samples_name)},
};

VKQS_GROUP(occlusion, discard, cases);
