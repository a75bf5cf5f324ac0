/* Acceleration structure and micromap queries: what the groups of this
 * area share. */
#ifndef VKQS_SUITE_ACCEL_H
#define VKQS_SUITE_ACCEL_H

#include "vkutil.h"

/* Submits a command buffer that reset queries 0 to 2 of `pool` and wrote
 * query 1 (a size property), waits, then copies query 1 (64-bit, WAIT,
 * WITH_AVAILABILITY) in another submission, and checks the results rules of
 * 18.2 every query type shares: a non-zero value and availability word,
 * the 32-bit value equal to the 64-bit one below 2^32, the copy equal to
 * vkGetQueryPoolResults, and query 2 (reset, never written) availability 0
 * without WAIT (VK_SUCCESS there is a CompatibilityWarning: the spec says
 * "may return VK_NOT_READY"). */
void accel_results_finish(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool);

/* A compacted size c of what was built with `size` bytes: a compacting
 * copy needs a non-zero size (Fail, ending the case); above `size` only a
 * CompatibilityWarning: 1.4.360 (accelstructures.adoc, queries.adoc) says
 * only "the number of bytes required by a compacted" structure, so a
 * compaction that does not shrink is surprising, not a broken must. */
void accel_compacted_bound(struct vkqs_ctx *ctx, uint64_t c, uint64_t size, const char *what);

/* A scratch buffer of `size` bytes for builds: its device address,
 * aligned to minAccelerationStructureScratchOffsetAlignment. */
VkDeviceAddress accel_scratch(struct vkqs_ctx *ctx, VkDeviceSize size);

#endif
