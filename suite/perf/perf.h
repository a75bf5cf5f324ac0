/* Performance queries: what the groups of the area share (suite/perf/
 * common.c).  What the area checks: suite/perf/perf.c. */
#ifndef VKQS_SUITE_PERF_H
#define VKQS_SUITE_PERF_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "proflock.h"
#include "vkutil.h"


#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define FEATURE "VK_KHR_performance_query.performanceCounterQueryPools"
#define MULTI_FEATURE "VK_KHR_performance_query.performanceCounterMultipleQueryPools"
#define SPEC_ENUM "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR: the " \
		  "count with NULL arrays; at most *pCounterCount written, VK_INCOMPLETE if fewer"
#define SPEC_RESULTS "18.6: one VkPerformanceCounterResultKHR per counter, in the order " \
		     "of pCounterIndices, of the type VkPerformanceCounterKHR::storage names"
#define SPEC_PASSES "VkPerformanceQuerySubmitInfoKHR: the batch is submitted once per " \
		    "counter pass, counterPassIndex below the pass count"
#define SPEC_LOCK "18.6.1 vkAcquireProfilingLockKHR: timeout 0 does not block, " \
		  "UINT64_MAX waits until acquired, else VK_TIMEOUT after timeout ns"

#define MAX_COUNTERS 256u
#define LOCK_WAIT_MS 30000u
#define SIZE 64u
#define GUARD 0xA5u

typedef VkPerformanceCounterResultKHR result_t;

/* The graphics family's counters and the extension's functions (physical-
 * device functions come through vkGetInstanceProcAddr). */
struct perf {
	PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR enumerate;
	PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR passes;
	VkPhysicalDevicePerformanceQueryPropertiesKHR props;
	uint32_t family, count;
	VkPerformanceCounterKHR c[MAX_COUNTERS];
	VkPerformanceCounterDescriptionKHR d[MAX_COUNTERS];
};

/* A case table row without parameters. */
#define ROW(name, fn, spec) {name, fn, spec}

void perf_enumerate(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t family,
			   uint32_t *count, VkPerformanceCounterKHR *c,
			   VkPerformanceCounterDescriptionKHR *d, VkResult *out);

/* The extension's state; NotSupported without the feature or counters. */
struct perf *perf_require(struct vkqs_ctx *ctx);

/* The counter named `name` (the reference device's documented names), or
 * NotSupported. */
uint32_t perf_named(struct vkqs_ctx *ctx, const struct perf *pf, const char *name);

/* Counters of one scope, or NotSupported. */
uint32_t perf_of_scope(struct vkqs_ctx *ctx, const struct perf *pf,
			      VkPerformanceCounterScopeKHR scope, uint32_t *out, uint32_t max);

/* A counter's value as a double, by its storage. */
double perf_value_of(const struct perf *pf, uint32_t counter, result_t r);

/* An integer counter's value (exact checks). */
uint64_t perf_uint_of(const struct perf *pf, uint32_t counter, result_t r);

/* What a counter's unit and storage allow of any value. */
void perf_check_typed(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t counter, result_t r,
			const char *what);

/* Takes the lock for the rest of the case, waiting at most LOCK_WAIT_MS
 * for other processes; called before any command buffer is made, so the
 * release (deferred first, run last) follows their freeing. */
void perf_lock(struct vkqs_ctx *ctx);

uint32_t perf_passes(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			    uint32_t n);

/* A reset pool of `queries` queries of counters idx[0..n); *passes is its
 * pass count (at least 1). */
VkQueryPool perf_pool(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			     uint32_t n, uint32_t queries, uint32_t *passes);
/* perf_pool with VkQueryPoolCreateInfo::flags; with
 * VK_QUERY_POOL_CREATE_RESET_BIT_KHR the pool is not reset after creation. */
VkQueryPool perf_pool_flags(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			    uint32_t n, uint32_t queries, VkQueryPoolCreateFlags flags,
			    uint32_t *passes);

/* A command buffer that may be submitted once per pass. */
VkCommandBuffer perf_cmd(struct vkqs_ctx *ctx);

/* Submits the ended cb once per pass, each batch with its counterPassIndex,
 * waiting for each. */
void perf_submit(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t passes);

/* Results of queries [first, first + count) with WAIT, n counters each. */
void perf_results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
			 uint32_t n, result_t *out);

/* A command buffer for every pass of pool, its query 0 begun first. */
VkCommandBuffer perf_query_open(struct vkqs_ctx *ctx, VkQueryPool pool);

/* Ends query 0 as cb's last command, submits cb once per pass, reads the
 * query's n results. */
void perf_query_close(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			uint32_t passes, uint32_t n, result_t *out);

struct scene {
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
};

struct scene perf_scene_make(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples);

/* One named counter: its index, a pool of `queries` queries of it (reset;
 * with the passes it needs), the profiling lock taken before any command
 * buffer (so its deferred release runs last), and a scene to draw in. */
struct perf_one {
	struct perf *pf;
	uint32_t c, passes;
	VkQueryPool pool;
	struct scene s;
};

struct perf_one perf_one(struct vkqs_ctx *ctx, const char *name, uint32_t queries);

/* `draws` draws of `vertices` vertices each (rect.vert's rectangle w x h
 * at the origin) inside one render pass instance. */
void perf_scene_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		       uint32_t draws, uint32_t vertices, float w, float h);

/* One query of counters idx[0..n) around `draws` draws (begun first, ended
 * last: every scope's rule holds), all passes, results out[0..n). */
void perf_measure_draws(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			  uint32_t n, const struct scene *s, uint32_t draws, uint32_t vertices,
			  float w, float h, result_t *out);

#endif
