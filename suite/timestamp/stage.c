/* vkqs.timestamp.stage.*: vkCmdWriteTimestamp at every stage, inside and outside
 * render passes: non-decreasing in submission order. */
#include "timestamp.h"

/* stage.* ------------------------------------------------------------------*/

struct stage_param {
	const char *name;
	VkPipelineStageFlagBits stage;
};

static const struct stage_param outside_stages[] = {
	{"top_of_pipe", VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT},
	{"draw_indirect", VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT},
	{"vertex_input", VK_PIPELINE_STAGE_VERTEX_INPUT_BIT},
	{"vertex_shader", VK_PIPELINE_STAGE_VERTEX_SHADER_BIT},
	{"fragment_shader", VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
	{"early_fragment_tests", VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT},
	{"late_fragment_tests", VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT},
	{"color_attachment_output", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
	{"compute_shader", VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT},
	{"transfer", VK_PIPELINE_STAGE_TRANSFER_BIT},
	{"bottom_of_pipe", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT},
	{"all_graphics", VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT},
	{"all_commands", VK_PIPELINE_STAGE_ALL_COMMANDS_BIT},
};

static const struct stage_param inside_stages[] = {
	{"top_of_pipe", VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT},
	{"vertex_shader", VK_PIPELINE_STAGE_VERTEX_SHADER_BIT},
	{"fragment_shader", VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
	{"color_attachment_output", VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT},
	{"bottom_of_pipe", VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT},
};

static void stage_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct stage_param *)param)->name);
}

static void stage_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	ts_series_outside_render_pass(ctx, ((const struct stage_param *)param)->stage, false);
}

static void stage_inside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	ts_series_inside_render_pass(ctx, ((const struct stage_param *)param)->stage, false);
}

static const struct vkqs_case cases[] = {
	{.name = "stage.outside_render_pass",
	 .fn = stage_outside_render_pass,
	 .spec = ORDER_SPEC,
	 .params = VKQS_PARAMS(outside_stages, stage_name)},
	{.name = "stage.inside_render_pass",
	 .fn = stage_inside_render_pass,
	 .spec = ORDER_SPEC,
	 .params = VKQS_PARAMS(inside_stages, stage_name)},
};

VKQS_GROUP(timestamp, stage, cases);
