/* vkqs.timestamp.stage2.*: vkCmdWriteTimestamp2 at every synchronization2 stage,
 * inside and outside render passes. */
#include "timestamp.h"

/* The stages of the graphics pipeline, and the three that span every
 * stage, written between draws inside a subpass. */
static const struct stage2_param stages2_inside[] = {
	STAGES2_GRAPHICS
	STAGES2_SPANNING
};

static void stage2_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct stage2_param *)param)->name);
}

static void stage2_require(struct vkqs_ctx *ctx, const struct stage2_param *p)
{
	ts_require_sync2(ctx);
	if (p->feature)
		vkqs_require_feature(ctx, p->feature);
}

static void stage2_outside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage2_param *p = param;
	stage2_require(ctx, p);
	ts_series_outside_render_pass(ctx, p->stage, true);
}

static void stage2_inside_render_pass(struct vkqs_ctx *ctx, const void *param)
{
	const struct stage2_param *p = param;
	stage2_require(ctx, p);
	ts_series_inside_render_pass(ctx, p->stage, true);
}

static const struct vkqs_case cases[] = {
	{.name = "stage2.outside_render_pass",
	 .fn = stage2_outside_render_pass,
	 .spec = "18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(stages2_outside, stage2_name)},
	{.name = "stage2.inside_render_pass",
	 .fn = stage2_inside_render_pass,
	 .spec = "18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(stages2_inside, stage2_name)},
};

VKQS_GROUP(timestamp, stage2, cases);
