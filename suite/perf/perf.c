/* Performance queries and the profiling lock (VK_KHR_performance_query;
 * Vulkan-Docs 1.4.360 queries.adoc "Performance Queries").
 *
 * What the spec fixes, and these cases check on any device:
 * - the enumeration: count, VK_INCOMPLETE with at most *pCounterCount
 *   written, counters and descriptions alike;
 * - pools: one VkPerformanceCounterResultKHR per counter, "stored in the
 *   same order as the counters supplied in pCounterIndices", each of the
 *   type VkPerformanceCounterKHR::storage names; the same command buffer
 *   submitted once per pass (VkPerformanceQuerySubmitInfoKHR::counterPass-
 *   Index) as vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR says;
 *   scopes: a COMMAND_BUFFER counter's query begins first and ends last, a
 *   RENDER_PASS counter's outside a render pass instance;
 * - the profiling lock: held before vkBeginCommandBuffer of a command
 *   buffer using a performance pool and while it is executable or pending;
 *   "If timeout is 0, vkAcquireProfilingLockKHR will not block", UINT64_MAX
 *   waits until acquired, VK_TIMEOUT otherwise.  "Implementations may allow
 *   multiple actors to hold the profiling lock concurrently": where the
 *   device lets a second process hold it too, the cases that need it held
 *   elsewhere are NotSupported, saying so.
 *
 * Values: the spec defines no counter.  Where a device has a counter with
 * one of the names the reference device documents (refdevice/README.md
 * "Performance counters": draws, vertex_invocations, ...) its value is
 * checked exactly against the work recorded; every counter is checked by
 * what its unit and storage allow (a percentage within 0..100, a
 * temperature in kelvin above zero, a float that is a number).
 *
 * Every case takes the profiling lock (a machine-wide resource: other
 * processes, other runs of the suite, may hold it) waiting at most
 * LOCK_WAIT_MS, NotSupported if it never comes, and releases it after its
 * command buffers are freed. */
#include "perf.h"

VKQS_GROUP_DECL(perf, enumerate);
VKQS_GROUP_DECL(perf, values);
VKQS_GROUP_DECL(perf, pool);
VKQS_GROUP_DECL(perf, multipass);
VKQS_GROUP_DECL(perf, lock);

/* The listing order: the groups' rows whole. */
static const struct vkqs_area_part parts[] = {
	{&vkqs_perf_enumerate, 0, 0}, {&vkqs_perf_values, 0, 0}, {&vkqs_perf_pool, 0, 0},
	{&vkqs_perf_multipass, 0, 0}, {&vkqs_perf_lock, 0, 0},
};

VKQS_AREA_OF_PARTS(perf, parts);
