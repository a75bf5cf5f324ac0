/* vkqs.occlusion.sample_mask.*: the pipeline's sample mask and the fragment shader's
 * SampleMask output remove samples from the count. */
#include "occlusion.h"

static const struct mask_param pipeline_mask_params[] = {
	{VK_SAMPLE_COUNT_4_BIT, 0x1, false, 0}, {VK_SAMPLE_COUNT_4_BIT, 0x5, false, 0},
	{VK_SAMPLE_COUNT_4_BIT, 0x0, false, 0}, {VK_SAMPLE_COUNT_1_BIT, 0x0, false, 0},
};

static const struct mask_param shader_mask_params[] = {
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x1},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x5},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0x0},
	{VK_SAMPLE_COUNT_4_BIT, 0xffffffff, true, 0xfffffff5},
	{VK_SAMPLE_COUNT_1_BIT, 0xffffffff, true, 0x0},
	/* both: pipeline 0x5 AND output 0x6 keep sample 2 only */
	{VK_SAMPLE_COUNT_4_BIT, 0x5, true, 0x6},
};

static void mask_name(const void *param, char *buf, size_t size)
{
	const struct mask_param *p = param;
	uint32_t m = p->shader ? p->shader_mask : p->pipeline_mask;
	if (p->shader && p->pipeline_mask != 0xffffffff)
		snprintf(buf, size, "0x%x_with_pipeline_mask_0x%x_samples_%u", m,
			 p->pipeline_mask, (unsigned)p->samples);
	else
		snprintf(buf, size, "0x%x_samples_%u", m, (unsigned)p->samples);
}

static const struct vkqs_case cases[] = {
	{.name = "sample_mask.pipeline_mask",
	 .fn = occ_sample_mask,
	 .spec = SAMPLE_COUNTING_SPEC " (Sample Mask Test: a sample whose pSampleMask bit is 0 "
				      "gets coverage 0)",
	 .params = VKQS_PARAMS(pipeline_mask_params, mask_name)},
	{.name = "sample_mask.shader_output",
	 .fn = occ_sample_mask,
	 .spec = SAMPLE_COUNTING_SPEC " (Multisample Coverage: the SampleMask output is ANDed "
				      "with the coverage mask)",
	 .params = VKQS_PARAMS(shader_mask_params, mask_name)},
};

VKQS_GROUP(occlusion, sample_mask, cases);
