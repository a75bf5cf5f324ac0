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

/* vkqs_submit_gated on `queue`, waiting also for the binary semaphore
 * `also` (VK_NULL_HANDLE: none). */
void vkqs_submit_gated_on(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkQueue queue,
			  VkCommandBuffer cb, VkFence fence, VkSemaphore also);

/* Called as soon as a WAIT read returns: whether the gate had opened by
 * then (a WAIT read that returns while the gate is shut did not wait for
 * the gated work). */
bool vkqs_gate_opened_by_now(struct vkqs_gate *g);

/* "v0, v1, ..." of n values, for messages; returns buf. */
const char *vkqs_values_text(const uint64_t *v, uint32_t n, char *buf, size_t size);

/* Opens the gate; a failed vkSignalSemaphore is a failure. */
void vkqs_gate_release(struct vkqs_ctx *ctx, struct vkqs_gate *g);

/* Reads of a query whose submission waits behind gate g (vkqs_submit_gated),
 * from before the gate opens until `fence` signals: `read` does one read
 * into out (values, then a word that is non-zero when the read says the
 * query is available) and returns that word's index.  The gate is opened
 * after the 16th read; reads stop at the fence or after limit_ns.  Only
 * records: it ends no case, so the caller releases the gate and checks. */
#define VKQS_POLL_KEEP 32
#define VKQS_POLL_WORDS 8
struct vkqs_poll {
	uint32_t polls, unavailable;
	uint32_t early;                   /* available while the gate was shut */
	uint32_t kept;                    /* distinct available reads in seen */
	uint64_t seen[VKQS_POLL_KEEP][VKQS_POLL_WORDS];
};
typedef uint32_t (*vkqs_poll_read_fn)(struct vkqs_ctx *ctx, void *arg, uint32_t poll,
				      uint64_t out[VKQS_POLL_WORDS]);
void vkqs_poll_in_flight(struct vkqs_ctx *ctx, struct vkqs_gate *g, VkFence fence,
			 uint64_t limit_ns, vkqs_poll_read_fn read, void *arg, struct vkqs_poll *p);

#endif
