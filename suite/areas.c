/* Every area's case table, in listing order (STYLE 1). */
#include "registry.h"

extern const struct vkqs_area vkqs_area_occlusion;
extern const struct vkqs_area vkqs_area_timestamp;
extern const struct vkqs_area vkqs_area_results;
extern const struct vkqs_area vkqs_area_stats;
extern const struct vkqs_area vkqs_area_reset;
extern const struct vkqs_area vkqs_area_multiview;
extern const struct vkqs_area vkqs_area_concurrent;
extern const struct vkqs_area vkqs_area_xfb;
extern const struct vkqs_area vkqs_area_mesh;
extern const struct vkqs_area vkqs_area_elapsed;
extern const struct vkqs_area vkqs_area_region_counters;
extern const struct vkqs_area vkqs_area_perf;
extern const struct vkqs_area vkqs_area_instrumentation;
extern const struct vkqs_area vkqs_area_intel_perf;
extern const struct vkqs_area vkqs_area_accel;
extern const struct vkqs_area vkqs_area_video;
extern const struct vkqs_area vkqs_area_video_encode;
extern const struct vkqs_area vkqs_area_selftest;

const struct vkqs_area *const vkqs_areas[] = {
	&vkqs_area_occlusion,
	&vkqs_area_timestamp,
	&vkqs_area_results,
	&vkqs_area_stats,
	&vkqs_area_reset,
	&vkqs_area_multiview,
	&vkqs_area_concurrent,
	&vkqs_area_xfb,
	&vkqs_area_mesh,
	&vkqs_area_elapsed,
	&vkqs_area_region_counters,
	&vkqs_area_perf,
	&vkqs_area_instrumentation,
	&vkqs_area_intel_perf,
	&vkqs_area_accel,
	&vkqs_area_video,
	&vkqs_area_video_encode,
	&vkqs_area_selftest,
	NULL,
};
