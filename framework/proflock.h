/* A second process holding the profiling lock (VK_KHR_performance_query,
 * spec 18.6.1), for the cases that need the lock held "elsewhere": the
 * case starts `vkqs hold-profiling-lock` on its own device, which creates
 * its own instance and device, acquires the lock and reports over a pipe;
 * the case tells it when to release.  The holder releases and exits when
 * told, when the case's end closes the pipe, or after 60 s. */
#ifndef VKQS_PROFLOCK_H
#define VKQS_PROFLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <volk.h>

#include "vkqs.h"

struct vkqs_lock_holder {
	pid_t pid;
	int to_child, from_child;
};

/* Starts a holder that tries for acquire_ms to take the lock.  Returns it
 * once it holds the lock; NULL with the holder's reason in why ("timeout":
 * someone else held the lock all that time).  The holder is stopped at
 * case end whatever happens. */
struct vkqs_lock_holder *vkqs_lock_holder_start(struct vkqs_ctx *ctx, uint32_t acquire_ms,
						char *why, size_t why_size);
/* Tells the holder to release the lock delay_ms from now; returns at once. */
void vkqs_lock_holder_release(struct vkqs_ctx *ctx, struct vkqs_lock_holder *h,
			      uint32_t delay_ms);
/* Waits for the holder to release and exit; returns the CLOCK_MONOTONIC
 * time (ns) it read just before vkReleaseProfilingLockKHR, 0 if unknown. */
uint64_t vkqs_lock_holder_wait(struct vkqs_ctx *ctx, struct vkqs_lock_holder *h);

/* vkAcquireProfilingLockKHR retried with timeouts of at most 100 ms until
 * total_ms have passed: bounded, and not fooled by a device whose finite
 * timeouts do not wait (the cases of that rule catch it). */
VkResult vkqs_acquire_profiling_lock(const struct VolkDeviceTable *d, VkDevice device,
				     uint32_t total_ms);

/* The command itself: `vkqs hold-profiling-lock --device N --acquire-ms T`. */
int vkqs_hold_profiling_lock_main(int argc, char **argv);

#endif
