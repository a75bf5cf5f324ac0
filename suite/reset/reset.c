/* Query reset and availability (spec 18.2): when a reset takes effect
 * (same command buffer, an earlier command buffer or submission, the host,
 * a pool created reset), its ordering against vkCmdCopyQueryPoolResults, a
 * reset of part of a pool, one query reused many times, PARTIAL and WAIT
 * reads of a query whose work has not run yet, and VK_NOT_READY exactly
 * when a read query is unavailable.
 *
 * Known values:
 * - Occlusion: query q of use "gen" counts one draw of a reset_rect_w(q) x
 *   reset_rect_h(gen) rectangle with integer edges on a 1-sample target, with
 *   VK_QUERY_CONTROL_PRECISE_BIT, so its result is exactly the area (why the
 *   count is exact: suite/occlusion/occlusion.c).  The areas differ between
 *   queries and between uses, so a stale result of an earlier use, a sum of
 *   uses or a neighbour's result is caught.
 * - Timestamps have no value known in advance: a written one is non-zero
 *   with no bit above timestampValidBits (see framework/tscheck.h),
 *   and a result read once is "final" (18.2), so later reads of the same
 *   use must return it again.
 *
 * Every read goes into a destination pre-filled with guard bytes; each word
 * is pre-filled so that *not* writing it fails its check, and nothing
 * outside the result words may change (18.2 memory layout).
 *
 * Queries whose work has not run (the "partial" and "wait" groups): the
 * command buffer using them is submitted waiting on a timeline semaphore
 * that only the host signals (wait-before-signal is valid for timeline
 * semaphores: spec "Queue Forward Progress").  A host-set VkEvent cannot
 * serve: "If a command buffer is waiting for an event to be signaled from
 * the host, the application must signal the event before submitting the
 * command buffer" (vkSetEvent, queue forward progress), and a host event
 * cannot be waited on inside a render pass instance
 * (VUID-vkCmdWaitEvents-srcStageMask-07308).  The query was reset in work
 * that completed, so it is unavailable with a final value known from
 * geometry until the host opens the gate.  A watchdog thread opens the gate
 * after WATCHDOG_NS whatever happens, so no path of the case (a failed
 * check, the framework's vkDeviceWaitIdle at cleanup, a driver that blocks
 * where it must not) can wait forever. */
#include "reset.h"

VKQS_GROUP_DECL(reset, order);
VKQS_GROUP_DECL(reset, after_copy);
VKQS_GROUP_DECL(reset, before_copy);
VKQS_GROUP_DECL(reset, range);
VKQS_GROUP_DECL(reset, reuse);
VKQS_GROUP_DECL(reset, create_reset);
VKQS_GROUP_DECL(reset, partial);
VKQS_GROUP_DECL(reset, wait);
VKQS_GROUP_DECL(reset, not_ready);

/* The listing order: the groups' rows, whole unless a part says which (first, count). */
static const struct vkqs_area_part parts[] = {
	{&vkqs_reset_order, 0, 0},
	{&vkqs_reset_after_copy, 0, 0},
	{&vkqs_reset_before_copy, 0, 0},
	{&vkqs_reset_range, 0, 0},
	{&vkqs_reset_reuse, 0, 0},
	{&vkqs_reset_create_reset, 0, 0},
	{&vkqs_reset_partial, 0, 0},
	{&vkqs_reset_wait, 0, 0},
	{&vkqs_reset_not_ready, 0, 0},
};

VKQS_AREA_OF_PARTS(reset, parts);
