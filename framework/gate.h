/* A gate: a timeline semaphore only the host signals, which a submission
 * waits on, so that work is really pending (not yet started) while the
 * host reads; a timer thread opens it after a delay, so a case that fails
 * before opening it never leaves the device blocked.  Used by the reset
 * area (PARTIAL and WAIT while work is pending) and by the in-flight
 * reads of the other query types. */
#ifndef VKQS_GATE_H
#define VKQS_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "vkqs.h"

struct vkqs_gate {
	VkDevice dev;
	PFN_vkSignalSemaphore signal;
	VkSemaphore sem;
	uint64_t delay_ns;      /* the timer thread opens the gate after this */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool open;              /* the semaphore holds 1 */
	bool by_timer;          /* opened by the timer thread */
	uint64_t opened_ns;
	VkResult signal_result;
};

/* Opens the gate now (the timer would later). */
void vkqs_gate_open(struct vkqs_gate *g);

/* State read by the main thread. */
bool vkqs_gate_state(struct vkqs_gate *g, bool *by_timer, uint64_t *opened_ns);

/* A shut gate whose timer opens it after delay_ns; needs timelineSemaphore. */
struct vkqs_gate *vkqs_gate_create(struct vkqs_ctx *ctx, uint64_t delay_ns);

/* Submits cb to wait for the gate's semaphore to reach 1 (wait-before-
 * signal) and signal `fence` after.  From here until vkqs_gate_open() only
 * checks that never end the case may run. */
void vkqs_submit_gated(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkCommandBuffer cb,
		       VkFence fence);

/* Opens the gate; a failed vkSignalSemaphore is a failure. */
void vkqs_gate_release(struct vkqs_ctx *ctx, struct vkqs_gate *g);

#endif
