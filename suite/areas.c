/* Every area's case table, in listing order (STYLE 1): suite/areas.def. */
#include "registry.h"

#define VKQS_AREA_ENTRY(sym, name) extern const struct vkqs_area vkqs_area_##sym;
#include "areas.def"
#undef VKQS_AREA_ENTRY

const struct vkqs_area *const vkqs_areas[] = {
#define VKQS_AREA_ENTRY(sym, name) &vkqs_area_##sym,
#include "areas.def"
#undef VKQS_AREA_ENTRY
	NULL,
};
