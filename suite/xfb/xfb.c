/* Placeholder until the xfb area lands: replaced wholesale by its author. */
#include "vkqs.h"

static void placeholder(struct vkqs_ctx *ctx, const void *param)
{
	vkqs_skip(ctx, "the xfb area is being written");
}

static const struct vkqs_case cases[] = {
	{"pending.placeholder", placeholder, "none", .flags = VKQS_CASE_SELFTEST},
};
VKQS_AREA(xfb, cases);
