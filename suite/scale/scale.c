/* Scale: what a driver does with many queries at once, each limit read as
 * a number (the largest count that worked).  Its own area, heavier than
 * the others (tens of thousands of draws and timestamps), so a --filter
 * keeps it out of quick runs: many occlusion queries in one render pass
 * instance, large timestamp pools. */
#include "vkqs.h"

VKQS_GROUP_DECL(scale, occlusion);
VKQS_GROUP_DECL(scale, timestamp);

static const struct vkqs_area_part parts[] = {
	{&vkqs_scale_occlusion, 0, 0},
	{&vkqs_scale_timestamp, 0, 0},
};

VKQS_AREA_OF_PARTS(scale, parts);
