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
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "proflock.h"
#include "vkutil.h"

#include "shaders/stats_count_comp.h"

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

static void perf_enumerate(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t family,
			   uint32_t *count, VkPerformanceCounterKHR *c,
			   VkPerformanceCounterDescriptionKHR *d, VkResult *out)
{
	for (uint32_t i = 0; i < *count; i++) {
		if (c)
			c[i] = (VkPerformanceCounterKHR){.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_KHR};
		if (d)
			d[i] = (VkPerformanceCounterDescriptionKHR){
				.sType = VK_STRUCTURE_TYPE_PERFORMANCE_COUNTER_DESCRIPTION_KHR};
	}
	VkResult r = pf->enumerate(ctx->vk->phys, family, count, c, d);
	if (out)
		*out = r;
	else
		VKQS_ASSERTF(ctx, r == VK_SUCCESS, "enumeration returned %s", vkqs_vk_result_name(r));
}

/* The extension's state; NotSupported without the feature or counters. */
static struct perf *perf_require(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	vkqs_require_feature(ctx, FEATURE);
	struct perf *pf = vkqs_alloc(ctx, sizeof(*pf));
	memset(pf, 0, sizeof(*pf));
	VkInstance inst = ctx->vk->inst.instance;
	pf->enumerate = (PFN_vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR)
		vkGetInstanceProcAddr(inst, "vkEnumeratePhysicalDeviceQueueFamilyPerformanceQueryCountersKHR");
	pf->passes = (PFN_vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR)
		vkGetInstanceProcAddr(inst, "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR");
	VKQS_ASSERTF(ctx, pf->enumerate && pf->passes,
		     "vkGetInstanceProcAddr gives no enumeration or passes function while "
		     "VK_KHR_performance_query is supported");
	pf->props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PERFORMANCE_QUERY_PROPERTIES_KHR;
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &pf->props};
	vkGetPhysicalDeviceProperties2(ctx->vk->phys, &p2);
	pf->family = ctx->vk->gfx.family;
	VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, pf->family, &pf->count, NULL, NULL));
	if (pf->count == 0)
		vkqs_skip(ctx, "the graphics queue family has no performance counters");
	if (pf->count > MAX_COUNTERS)
		pf->count = MAX_COUNTERS;
	perf_enumerate(ctx, pf, pf->family, &pf->count, pf->c, pf->d, NULL);
	return pf;
}

/* The counter named `name` (the reference device's documented names), or
 * NotSupported. */
static uint32_t perf_named(struct vkqs_ctx *ctx, const struct perf *pf, const char *name)
{
	for (uint32_t i = 0; i < pf->count; i++)
		if (strcmp(pf->d[i].name, name) == 0)
			return i;
	vkqs_skip(ctx, "the device has no performance counter named \"%s\" whose value the case "
		       "can state (refdevice/README.md)", name);
}

/* Counters of one scope, or NotSupported. */
static uint32_t perf_of_scope(struct vkqs_ctx *ctx, const struct perf *pf,
			      VkPerformanceCounterScopeKHR scope, uint32_t *out, uint32_t max)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < pf->count && n < max; i++)
		if (pf->c[i].scope == scope)
			out[n++] = i;
	if (!n)
		vkqs_skip(ctx, "the device has no counter of scope %d", scope);
	return n;
}

/* A counter's value as a double, by its storage. */
static double value_of(const struct perf *pf, uint32_t counter, result_t r)
{
	switch (pf->c[counter].storage) {
	case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return r.int32;
	case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return (double)r.int64;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return r.uint32;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return (double)r.uint64;
	case VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR: return r.float32;
	default: return r.float64;
	}
}

/* An integer counter's value (exact checks). */
static uint64_t uint_of(const struct perf *pf, uint32_t counter, result_t r)
{
	switch (pf->c[counter].storage) {
	case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return (uint64_t)(int64_t)r.int32;
	case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return (uint64_t)r.int64;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return r.uint32;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return r.uint64;
	default: return (uint64_t)value_of(pf, counter, r);
	}
}

/* What a counter's unit and storage allow of any value. */
static void check_typed(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t counter, result_t r,
			const char *what)
{
	const VkPerformanceCounterKHR *c = &pf->c[counter];
	const char *name = pf->d[counter].name;
	double v = value_of(pf, counter, r);
	bool is_float = c->storage == VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR ||
			c->storage == VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR;
	if (is_float)
		VKQS_EXPECTF(ctx, isfinite(v), "%s: counter %u \"%s\" (%s storage) is %g, not a number",
			     what, counter, name,
			     c->storage == VK_PERFORMANCE_COUNTER_STORAGE_FLOAT32_KHR ? "float32" : "float64", v);
	switch (c->unit) {
	case VK_PERFORMANCE_COUNTER_UNIT_PERCENTAGE_KHR:
		VKQS_EXPECTF(ctx, v >= 0.0 && v <= 100.0,
			     "%s: counter %u \"%s\" is a percentage of %g, outside 0..100", what, counter,
			     name, v);
		break;
	case VK_PERFORMANCE_COUNTER_UNIT_KELVIN_KHR:
		VKQS_EXPECTF(ctx, v > 0.0, "%s: counter %u \"%s\" is %g kelvin: not above absolute zero",
			     what, counter, name, v);
		break;
	case VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR:
	case VK_PERFORMANCE_COUNTER_UNIT_BYTES_KHR:
	case VK_PERFORMANCE_COUNTER_UNIT_BYTES_PER_SECOND_KHR:
	case VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR:
	case VK_PERFORMANCE_COUNTER_UNIT_HERTZ_KHR:
		VKQS_EXPECTF(ctx, v >= 0.0, "%s: counter %u \"%s\" counts a magnitude and is %g",
			     what, counter, name, v);
		break;
	default:
		break;
	}
}

/* The profiling lock --------------------------------------------------------*/

static void release_lock(struct vkqs_ctx *ctx, void *arg)
{
	(void)arg;
	D->vkReleaseProfilingLockKHR(DEV);
}

/* Takes the lock for the rest of the case, waiting at most LOCK_WAIT_MS
 * for other processes; called before any command buffer is made, so the
 * release (deferred first, run last) follows their freeing. */
static void perf_lock(struct vkqs_ctx *ctx)
{
	VkResult r = vkqs_acquire_profiling_lock(D, DEV, LOCK_WAIT_MS);
	if (r == VK_TIMEOUT)
		vkqs_skip(ctx, "the profiling lock stayed held elsewhere for %u ms", LOCK_WAIT_MS);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS, "vkAcquireProfilingLockKHR returned %s",
		     vkqs_vk_result_name(r));
	vkqs_defer(ctx, release_lock, NULL);
}

/* Pools, passes, results ------------------------------------------------------*/

static uint32_t perf_passes(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			    uint32_t n)
{
	VkQueryPoolPerformanceCreateInfoKHR pc = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR,
		.queueFamilyIndex = pf->family,
		.counterIndexCount = n,
		.pCounterIndices = idx,
	};
	uint32_t passes = 0;
	pf->passes(ctx->vk->phys, &pc, &passes);
	return passes;
}

/* A reset pool of `queries` queries of counters idx[0..n); *passes is its
 * pass count (at least 1). */
static VkQueryPool perf_pool(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			     uint32_t n, uint32_t queries, uint32_t *passes)
{
	VkQueryPoolPerformanceCreateInfoKHR pc = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR,
		.queueFamilyIndex = pf->family,
		.counterIndexCount = n,
		.pCounterIndices = idx,
	};
	VkQueryPool pool = vkqs_query_pool_next(ctx, VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR, queries, &pc);
	*passes = perf_passes(ctx, pf, idx, n);
	VKQS_ASSERTF(ctx, *passes >= 1, "%u counters need %u passes: at least one", n, *passes);
	/* A reset in its own submission: a command buffer submitted once per
	 * pass must not reset (VUID-vkCmdBeginQuery-None-02863). */
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, queries);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return pool;
}

/* A command buffer that may be submitted once per pass. */
static VkCommandBuffer perf_cmd(struct vkqs_ctx *ctx)
{
	return vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx, 0);
}

/* Submits the ended cb once per pass, each batch with its counterPassIndex,
 * waiting for each. */
static void perf_submit(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t passes)
{
	ctx->vk->inst.perf_passes = true; /* for the layer's known false reports */
	for (uint32_t p = 0; p < passes; p++) {
		VkPerformanceQuerySubmitInfoKHR ps = {
			.sType = VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR,
			.counterPassIndex = p,
		};
		VkSubmitInfo si = {
			.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
			.pNext = &ps,
			.commandBufferCount = 1,
			.pCommandBuffers = &cb,
		};
		VkFence f = vkqs_fence(ctx);
		VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &si, f));
		vkqs_fence_wait(ctx, f);
	}
	ctx->vk->inst.perf_passes = false;
}

/* Results of queries [first, first + count) with WAIT, n counters each. */
static void perf_results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
			 uint32_t n, result_t *out)
{
	size_t stride = n * sizeof(result_t);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, first, count, count * stride, out, stride,
						 VK_QUERY_RESULT_WAIT_BIT));
}

/* A command buffer for every pass of pool, its query 0 begun first. */
static VkCommandBuffer query_open(struct vkqs_ctx *ctx, VkQueryPool pool)
{
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	return cb;
}

/* Ends query 0 as cb's last command, submits cb once per pass, reads the
 * query's n results. */
static void query_close(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			uint32_t passes, uint32_t n, result_t *out)
{
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	perf_results(ctx, pool, 0, 1, n, out);
}

/* Work ------------------------------------------------------------------------*/

struct scene {
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
};

static struct scene scene_make(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	struct scene s;
	s.t = vkqs_target_create(ctx, SIZE, SIZE, samples, false);
	s.p = vkqs_pipeline_rect(ctx, s.t, &(struct vkqs_pipeline_desc){0});
	return s;
}

/* One named counter: its index, a pool of `queries` queries of it (reset;
 * with the passes it needs), the profiling lock taken before any command
 * buffer (so its deferred release runs last), and a scene to draw in. */
struct one_counter {
	struct perf *pf;
	uint32_t c, passes;
	VkQueryPool pool;
	struct scene s;
};
static struct one_counter one_counter(struct vkqs_ctx *ctx, const char *name, uint32_t queries)
{
	struct one_counter o;
	o.pf = perf_require(ctx);
	o.c = perf_named(ctx, o.pf, name);
	perf_lock(ctx);
	o.s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	o.pool = perf_pool(ctx, o.pf, &o.c, 1, queries, &o.passes);
	return o;
}

/* `draws` draws of `vertices` vertices each (rect.vert's rectangle w x h
 * at the origin) inside one render pass instance. */
static void scene_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		       uint32_t draws, uint32_t vertices, float w, float h)
{
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t i = 0; i < draws; i++)
		vkqs_draw_rect_n(ctx, cb, s->p, s->t, 0, 0, w, h, 0.5f, vertices);
	vkqs_target_end(ctx, cb);
}

/* One query of counters idx[0..n) around `draws` draws (begun first, ended
 * last: every scope's rule holds), all passes, results out[0..n). */
static void measure_draws(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			  uint32_t n, const struct scene *s, uint32_t draws, uint32_t vertices,
			  float w, float h, result_t *out)
{
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = query_open(ctx, pool);
	scene_draw(ctx, cb, s, draws, vertices, w, h);
	query_close(ctx, cb, pool, passes, n, out);
}

/* Enumeration -------------------------------------------------------------------*/

static void enum_count_stable(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t again = 0;
	VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, pf->family, &again, NULL, NULL));
	VKQS_EXPECT_EQ(ctx, again, pf->count);
	uint32_t n = pf->count;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, n * sizeof(*c));
	perf_enumerate(ctx, pf, pf->family, &n, c, NULL, NULL);
	VKQS_EXPECT_EQ(ctx, n, pf->count);
}

static const uint32_t short_by[] = {1, 2};
static void short_by_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "short_by_%u", *(const uint32_t *)p);
}

/* VK_INCOMPLETE, at most *pCounterCount written, nothing past them. */
static void enum_incomplete(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t by = *(const uint32_t *)param;
	if (pf->count < by)
		vkqs_skip(ctx, "%u counters: cannot ask for %u fewer", pf->count, by);
	uint32_t n = pf->count - by;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, pf->count * sizeof(*c));
	VkPerformanceCounterDescriptionKHR *d = vkqs_alloc(ctx, pf->count * sizeof(*d));
	memset(c, GUARD, pf->count * sizeof(*c));
	memset(d, GUARD, pf->count * sizeof(*d));
	VkResult r;
	perf_enumerate(ctx, pf, pf->family, &n, c, d, &r);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, pf->count - by);
	for (uint32_t i = 0; i < n; i++) {
		VKQS_EXPECTF(ctx, memcmp(c[i].uuid, pf->c[i].uuid, VK_UUID_SIZE) == 0,
			     "counter %u: the UUID differs from the full enumeration's", i);
		VKQS_EXPECTF(ctx, strcmp(d[i].name, pf->d[i].name) == 0,
			     "counter %u: \"%s\", the full enumeration has \"%s\"", i, d[i].name,
			     pf->d[i].name);
	}
	const uint8_t *tail = (const uint8_t *)&c[pf->count - by];
	const uint8_t *dtail = (const uint8_t *)&d[pf->count - by];
	bool untouched = true;
	for (size_t i = 0; i < by * sizeof(*c); i++)
		untouched &= tail[i] == GUARD;
	for (size_t i = 0; i < by * sizeof(*d); i++)
		untouched &= dtail[i] == GUARD;
	VKQS_EXPECTF(ctx, untouched, "elements past *pCounterCount = %u were written", pf->count - by);
}

static void enum_zero_count(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t n = 0;
	VkPerformanceCounterKHR c;
	VkPerformanceCounterDescriptionKHR d;
	memset(&c, GUARD, sizeof(c));
	memset(&d, GUARD, sizeof(d));
	VkResult r = pf->enumerate(ctx->vk->phys, pf->family, &n, &c, &d);
	VKQS_EXPECT_VK(ctx, r, VK_INCOMPLETE);
	VKQS_EXPECT_EQ(ctx, n, 0);
	VKQS_EXPECTF(ctx, c.unit == (VkPerformanceCounterUnitKHR)0xA5A5A5A5u &&
				  d.flags == 0xA5A5A5A5u,
		     "a zero count wrote an element");
}

/* Either array alone gets the same elements as both together. */
static void enum_one_array(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	bool counters = *(const bool *)param;
	uint32_t n = pf->count;
	VkPerformanceCounterKHR *c = vkqs_alloc(ctx, n * sizeof(*c));
	VkPerformanceCounterDescriptionKHR *d = vkqs_alloc(ctx, n * sizeof(*d));
	perf_enumerate(ctx, pf, pf->family, &n, counters ? c : NULL, counters ? NULL : d, NULL);
	VKQS_EXPECT_EQ(ctx, n, pf->count);
	for (uint32_t i = 0; i < n && i < pf->count; i++) {
		if (counters)
			VKQS_EXPECTF(ctx, memcmp(c[i].uuid, pf->c[i].uuid, VK_UUID_SIZE) == 0 &&
						  c[i].unit == pf->c[i].unit &&
						  c[i].storage == pf->c[i].storage &&
						  c[i].scope == pf->c[i].scope,
				     "counter %u differs from the enumeration with both arrays", i);
		else
			VKQS_EXPECTF(ctx, strcmp(d[i].name, pf->d[i].name) == 0,
				     "description %u differs from the enumeration with both arrays", i);
	}
}
static const bool one_array[] = {true, false};
static void one_array_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "counters_only" : "descriptions_only");
}

static void enum_unique_uuids(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++)
		for (uint32_t k = i + 1; k < pf->count; k++)
			VKQS_EXPECTF(ctx, memcmp(pf->c[i].uuid, pf->c[k].uuid, VK_UUID_SIZE) != 0,
				     "counters %u \"%s\" and %u \"%s\" have the same UUID", i,
				     pf->d[i].name, k, pf->d[k].name);
}

/* unit, scope and storage are values of their enums; flags only the two
 * defined bits; the strings terminated within VK_MAX_DESCRIPTION_SIZE, the
 * name not empty. */
static void enum_fields_valid(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++) {
		const VkPerformanceCounterKHR *c = &pf->c[i];
		const VkPerformanceCounterDescriptionKHR *d = &pf->d[i];
		VKQS_EXPECTF(ctx, (uint32_t)c->unit <= VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR,
			     "counter %u: unit %d", i, c->unit);
		VKQS_EXPECTF(ctx, (uint32_t)c->scope <= VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR,
			     "counter %u: scope %d", i, c->scope);
		VKQS_EXPECTF(ctx, (uint32_t)c->storage <= VK_PERFORMANCE_COUNTER_STORAGE_FLOAT64_KHR,
			     "counter %u: storage %d", i, c->storage);
		VKQS_EXPECTF(ctx, (d->flags & ~(VkPerformanceCounterDescriptionFlagsKHR)(
						     VK_PERFORMANCE_COUNTER_DESCRIPTION_PERFORMANCE_IMPACTING_BIT_KHR |
						     VK_PERFORMANCE_COUNTER_DESCRIPTION_CONCURRENTLY_IMPACTED_BIT_KHR)) == 0,
			     "counter %u: description flags 0x%x", i, d->flags);
		VKQS_EXPECTF(ctx, memchr(d->name, 0, sizeof(d->name)) && d->name[0],
			     "counter %u: the name is empty or unterminated", i);
		VKQS_EXPECTF(ctx, memchr(d->category, 0, sizeof(d->category)) &&
					  memchr(d->description, 0, sizeof(d->description)),
			     "counter %u: category or description unterminated", i);
	}
}

/* Every queue family answers; a family's count is stable. */
static void enum_every_family(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t f = 0; f < ctx->vk->info.family_count; f++) {
		uint32_t a = 0, b = 0;
		VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, f, &a, NULL, NULL));
		VKQS_CHECK(ctx, pf->enumerate(ctx->vk->phys, f, &b, NULL, NULL));
		VKQS_EXPECTF(ctx, a == b, "family %u: %u counters, then %u", f, a, b);
	}
}

/* Passes ----------------------------------------------------------------------*/

static void passes_single(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i < pf->count; i++) {
		uint32_t n = perf_passes(ctx, pf, &i, 1);
		VKQS_EXPECTF(ctx, n >= 1, "counter %u \"%s\" alone needs %u passes", i, pf->d[i].name, n);
		VKQS_EXPECTF(ctx, perf_passes(ctx, pf, &i, 1) == n, "counter %u: the pass count changed", i);
	}
}

/* A set needs at least the passes of each of its counters. */
static void passes_all(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t *all = vkqs_alloc(ctx, pf->count * sizeof(*all));
	uint32_t most = 0;
	for (uint32_t i = 0; i < pf->count; i++) {
		all[i] = i;
		uint32_t n = perf_passes(ctx, pf, &i, 1);
		most = n > most ? n : most;
	}
	uint32_t n = perf_passes(ctx, pf, all, pf->count);
	VKQS_EXPECTF(ctx, n >= most, "all %u counters need %u passes; one of them alone needs %u",
		     pf->count, n, most);
}

static void passes_pairs(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	for (uint32_t i = 0; i + 1 < pf->count; i++) {
		uint32_t pair[2] = {i, i + 1};
		uint32_t a = perf_passes(ctx, pf, &pair[0], 1), b = perf_passes(ctx, pf, &pair[1], 1);
		uint32_t ab = perf_passes(ctx, pf, pair, 2);
		VKQS_EXPECTF(ctx, ab >= a && ab >= b, "counters %u and %u need %u and %u passes, "
						      "together %u", i, i + 1, a, b, ab);
	}
}

/* Results: every counter, typed ---------------------------------------------------*/

/* Each counter alone in its pool, around the same draws, all its passes. */
static void results_each_counter(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	for (uint32_t i = 0; i < pf->count; i++) {
		result_t r;
		measure_draws(ctx, pf, &i, 1, &s, 2, 6, 16, 16, &r);
		char what[64];
		snprintf(what, sizeof(what), "counter %u alone", i);
		check_typed(ctx, pf, i, r, what);
	}
}

/* All counters in one pool: as many passes as the device says. */
static void results_all_counters(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	perf_lock(ctx);
	uint32_t *all = vkqs_alloc(ctx, pf->count * sizeof(*all));
	for (uint32_t i = 0; i < pf->count; i++)
		all[i] = i;
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	result_t *r = vkqs_alloc(ctx, pf->count * sizeof(*r));
	measure_draws(ctx, pf, all, pf->count, &s, 3, 6, 32, 32, r);
	for (uint32_t i = 0; i < pf->count; i++)
		check_typed(ctx, pf, i, r[i], "all counters in one pool");
}

/* The same counters in opposite orders: the values follow pCounterIndices. */
static void results_order(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t a = perf_named(ctx, pf, "draws"), b = perf_named(ctx, pf, "vertex_invocations");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t fwd[2] = {a, b}, rev[2] = {b, a};
	result_t rf[2], rr[2];
	measure_draws(ctx, pf, fwd, 2, &s, 2, 12, 8, 8, rf);
	measure_draws(ctx, pf, rev, 2, &s, 2, 12, 8, 8, rr);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, a, rf[0]), 2);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, b, rf[1]), 24);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, b, rr[0]), 24);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, a, rr[1]), 2);
}

/* Exact values where the device names the counter ----------------------------------*/

struct exact {
	const char *counter;
	uint32_t draws, vertices;
	uint32_t w, h;
	VkSampleCountFlagBits samples;
};
static const struct exact exacts[] = {
	{"draws", 1, 6, 8, 8, 1},
	{"draws", 3, 6, 8, 8, 1},
	{"draws", 16, 6, 8, 8, 1},
	{"vertex_invocations", 1, 6, 8, 8, 1},
	{"vertex_invocations", 2, 60, 8, 8, 1},
	{"vertex_invocations", 4, 600, 8, 8, 1},
	{"fragment_invocations", 1, 6, 8, 8, 1},
	{"fragment_invocations", 2, 6, 64, 32, 1},
	{"samples_passed", 1, 6, 16, 8, 1},
	{"samples_passed", 1, 6, 16, 8, 4},
	{"primitives_discarded", 2, 6, 8, 8, 1},
	{"render_passes", 1, 6, 8, 8, 1},
	{"dispatches", 2, 6, 8, 8, 1},
};
static void exact_name(const void *p, char *b, size_t n)
{
	const struct exact *e = p;
	snprintf(b, n, "%s_%u_draws_of_%u_%ux%u_%ux", e->counter, e->draws, e->vertices, e->w, e->h,
		 (unsigned)e->samples);
}

/* draws: the draws recorded; vertex_invocations: the vertices (rect.vert
 * has no vertex reuse to exploit: every index distinct); fragment
 * invocations: the rectangle's pixels at one sample (vkqs_draw_rect covers
 * exactly its pixels, no sample shading); samples_passed: pixels times
 * samples (no depth test); primitives_discarded: none reach no further
 * than clipping for a rectangle inside the viewport; render_passes: one
 * instance; dispatches: none among draws. */
static void values_exact(struct vkqs_ctx *ctx, const void *param)
{
	const struct exact *x = param;
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, x->counter);
	if (x->samples > 1)
		vkqs_require_exact_coverage(ctx);
	perf_lock(ctx);
	struct scene s = scene_make(ctx, x->samples);
	result_t r;
	measure_draws(ctx, pf, &c, 1, &s, x->draws, x->vertices, (float)x->w, (float)x->h, &r);
	uint64_t px = (uint64_t)x->w * x->h, want;
	if (!strcmp(x->counter, "draws"))
		want = x->draws;
	else if (!strcmp(x->counter, "vertex_invocations"))
		want = (uint64_t)x->draws * x->vertices;
	else if (!strcmp(x->counter, "fragment_invocations"))
		want = px * x->draws * (x->vertices / 6);
	else if (!strcmp(x->counter, "samples_passed"))
		want = px * x->samples * x->draws;
	else if (!strcmp(x->counter, "render_passes"))
		want = 1;
	else
		want = 0;
	VKQS_EXPECTF(ctx, uint_of(pf, c, r) == want, "%s: %" PRIu64 ", the work recorded gives %" PRIu64,
		     x->counter, uint_of(pf, c, r), want);
	check_typed(ctx, pf, c, r, x->counter);
}

/* Render pass instances inside one query (RENDER_PASS scope: begun and
 * ended outside them). */
static const uint32_t pass_counts[] = {1, 2, 5};
static void pass_count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u", *(const uint32_t *)p);
}
static void values_render_passes(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t k = *(const uint32_t *)param;
	struct one_counter o = one_counter(ctx, "render_passes", 1);
	VkCommandBuffer cb = query_open(ctx, o.pool);
	for (uint32_t i = 0; i < k; i++)
		scene_draw(ctx, cb, &o.s, 1, 6, 4, 4);
	result_t r;
	query_close(ctx, cb, o.pool, o.passes, 1, &r);
	VKQS_EXPECT_EQ(ctx, uint_of(o.pf, o.c, r), k);
}

/* dispatches and compute_invocations: k dispatches of g workgroups of
 * stats_count.comp (local size 4 x 2 x 1). */
struct compute_case {
	uint32_t dispatches, groups;
};
static const struct compute_case compute_cases[] = {{1, 1}, {3, 4}};
static void compute_case_name(const void *p, char *b, size_t n)
{
	const struct compute_case *c = p;
	snprintf(b, n, "%u_dispatches_of_%u_workgroups", c->dispatches, c->groups);
}
static void values_compute(struct vkqs_ctx *ctx, const void *param)
{
	const struct compute_case *cc = param;
	struct perf *pf = perf_require(ctx);
	uint32_t idx[2] = {perf_named(ctx, pf, "dispatches"), perf_named(ctx, pf, "compute_invocations")};
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct vkqs_compute *c = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp),
						     b, 0, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, 2, 1, &passes);
	VkCommandBuffer cb = query_open(ctx, pool);
	vkqs_cmd_bind_compute(ctx, cb, c);
	for (uint32_t i = 0; i < cc->dispatches; i++) {
		D->vkCmdDispatch(cb, cc->groups, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	result_t r[2];
	query_close(ctx, cb, pool, passes, 2, r);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, idx[0], r[0]), cc->dispatches);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, idx[1], r[1]), 8u * cc->groups * cc->dispatches);
}

/* bytes_transferred: a fill, a copy and an update of known sizes. */
static void values_bytes(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "bytes_transferred");
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 8192, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	static const uint32_t words[16] = {0};
	VkCommandBuffer cb = query_open(ctx, pool);
	D->vkCmdFillBuffer(cb, b->buf, 0, 4096, 7);
	vkqs_cmd_full_barrier(ctx, cb);
	VkBufferCopy region = {0, 4096, 1024};
	D->vkCmdCopyBuffer(cb, b->buf, b->buf, 1, &region);
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdUpdateBuffer(cb, b->buf, 6144, sizeof(words), words);
	result_t r;
	query_close(ctx, cb, pool, passes, 1, &r);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, c, r), 4096 + 1024 + sizeof(words));
}

/* Time counters grow with the work: 1 small draw, then 64 full ones. */
static void values_time_monotonic(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t idx[MAX_COUNTERS], n = 0;
	for (uint32_t i = 0; i < pf->count; i++)
		if (pf->c[i].unit == VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR ||
		    pf->c[i].unit == VK_PERFORMANCE_COUNTER_UNIT_CYCLES_KHR)
			idx[n++] = i;
	if (!n)
		vkqs_skip(ctx, "no counter in nanoseconds or cycles");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	result_t small[MAX_COUNTERS], big[MAX_COUNTERS];
	measure_draws(ctx, pf, idx, n, &s, 1, 6, 1, 1, small);
	measure_draws(ctx, pf, idx, n, &s, 64, 600, SIZE, SIZE, big);
	for (uint32_t k = 0; k < n; k++)
		VKQS_EXPECTF(ctx, value_of(pf, idx[k], big[k]) >= value_of(pf, idx[k], small[k]),
			     "counter %u \"%s\": %g for 64 full-target draws, %g for one pixel",
			     idx[k], pf->d[idx[k]].name, value_of(pf, idx[k], big[k]),
			     value_of(pf, idx[k], small[k]));
}

/* Pools and queries -------------------------------------------------------------*/

/* Queries 0..k-1 in one render pass instance, query q around q + 1 draws
 * (COMMAND-scope counters only), all passes. */
static void measure_growing(struct vkqs_ctx *ctx, const struct scene *s, VkQueryPool pool,
			    uint32_t k, uint32_t passes)
{
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t q = 0; q < k; q++) {
		D->vkCmdBeginQuery(cb, pool, q, 0);
		for (uint32_t i = 0; i <= q; i++)
			vkqs_draw_rect(ctx, cb, s->p, s->t, 0, 0, 4, 4, 0.5f);
		D->vkCmdEndQuery(cb, pool, q);
	}
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
}

static const uint32_t query_counts[] = {1, 4, 16};
static void query_count_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_queries", *(const uint32_t *)p);
}

/* Query q around q + 1 draws, in one command buffer (COMMAND scope). */
static void pool_queries(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t k = *(const uint32_t *)param;
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "draws");
	if (pf->c[c].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR)
		vkqs_skip(ctx, "\"draws\" is not of COMMAND scope");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, k, &passes);
	measure_growing(ctx, &s, pool, k, passes);
	result_t r[16];
	perf_results(ctx, pool, 0, k, 1, r);
	for (uint32_t q = 0; q < k; q++)
		VKQS_EXPECTF(ctx, uint_of(pf, c, r[q]) == q + 1, "query %u: %" PRIu64 " draws, %u recorded",
			     q, uint_of(pf, c, r[q]), q + 1);
}

/* Two pools in one command buffer (performanceCounterMultipleQueryPools). */
static void pool_two_pools(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	vkqs_require_feature(ctx, MULTI_FEATURE);
	uint32_t a = perf_named(ctx, pf, "draws"), b = perf_named(ctx, pf, "vertex_invocations");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t pa, pb;
	VkQueryPool qa = perf_pool(ctx, pf, &a, 1, 1, &pa), qb = perf_pool(ctx, pf, &b, 1, 1, &pb);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, qa, 0, 0);
	scene_draw(ctx, cb, &s, 2, 6, 4, 4);
	D->vkCmdEndQuery(cb, qa, 0);
	D->vkCmdBeginQuery(cb, qb, 0, 0);
	scene_draw(ctx, cb, &s, 3, 12, 4, 4);
	D->vkCmdEndQuery(cb, qb, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	/* the batch is submitted for the larger pass count of its pools */
	perf_submit(ctx, cb, pa > pb ? pa : pb);
	result_t ra, rb;
	perf_results(ctx, qa, 0, 1, 1, &ra);
	perf_results(ctx, qb, 0, 1, 1, &rb);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, a, ra), 2);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, b, rb), 36);
}

/* Two pools around compute work in one command buffer: 2 dispatches of
 * one workgroup in the first, 3 of 4 workgroups in the second (CTS
 * multiple_pools_compute; its pass count is the larger of the two). */
static void pool_two_pools_compute(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct perf *pf = perf_require(ctx);
	vkqs_require_feature(ctx, MULTI_FEATURE);
	uint32_t a = perf_named(ctx, pf, "dispatches"), b = perf_named(ctx, pf, "compute_invocations");
	perf_lock(ctx);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
	struct vkqs_compute *c = vkqs_compute_create(ctx, stats_count_comp, sizeof(stats_count_comp),
						     buf, 0, 0);
	uint32_t pa, pb;
	VkQueryPool qa = perf_pool(ctx, pf, &a, 1, 1, &pa), qb = perf_pool(ctx, pf, &b, 1, 1, &pb);
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_cmd_bind_compute(ctx, cb, c);
	D->vkCmdBeginQuery(cb, qa, 0, 0);
	for (int i = 0; i < 2; i++) {
		D->vkCmdDispatch(cb, 1, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	D->vkCmdEndQuery(cb, qa, 0);
	D->vkCmdBeginQuery(cb, qb, 0, 0);
	for (int i = 0; i < 3; i++) {
		D->vkCmdDispatch(cb, 4, 1, 1);
		vkqs_cmd_full_barrier(ctx, cb);
	}
	D->vkCmdEndQuery(cb, qb, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, pa > pb ? pa : pb);
	result_t ra, rb;
	perf_results(ctx, qa, 0, 1, 1, &ra);
	perf_results(ctx, qb, 0, 1, 1, &rb);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, a, ra), 2);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, b, rb), 3u * 4u * 8u);
}

/* Reused after a host or command reset: the second use's values, not a sum. */
static void pool_reuse(struct vkqs_ctx *ctx, const void *param)
{
	bool host = *(const bool *)param;
	struct perf *pf = perf_require(ctx);
	if (host && !ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "hostQueryReset is not enabled");
	uint32_t c = perf_named(ctx, pf, "draws");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	for (uint32_t round = 0; round < 2; round++) {
		if (round) {
			if (host) {
				D->vkResetQueryPool(DEV, pool, 0, 1);
			} else {
				VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
				D->vkCmdResetQueryPool(rb, pool, 0, 1);
				vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
			}
		}
		VkCommandBuffer cb = query_open(ctx, pool);
		scene_draw(ctx, cb, &s, round ? 5 : 2, 6, 4, 4);
		result_t r;
		query_close(ctx, cb, pool, passes, 1, &r);
		VKQS_EXPECTF(ctx, uint_of(pf, c, r) == (round ? 5u : 2u), "use %u: %" PRIu64 " draws, %u recorded",
			     round + 1, uint_of(pf, c, r), round ? 5 : 2);
	}
}
/* A reset of queries [2, 4) of a pool of 4 (v3dv reset performance
 * queries from index 0 instead of firstQuery, mesa b2db2e3f33d): 18.2
 * vkResetQueryPool / vkCmdResetQueryPool set "the status of query indices
 * [firstQuery, firstQuery + queryCount - 1] to unavailable", so queries 0
 * and 1 keep their results (read without WAIT: available, 1 and 2 draws),
 * and 2 and 3, used again, count their new draws (5 and 6), not a sum. */
static void pool_reset_range(struct vkqs_ctx *ctx, const void *param)
{
	bool host = *(const bool *)param;
	if (host && !ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "hostQueryReset is not enabled");
	struct one_counter o = one_counter(ctx, "draws", 4);
	measure_growing(ctx, &o.s, o.pool, 4, o.passes);
	if (host) {
		D->vkResetQueryPool(DEV, o.pool, 2, 2);
	} else {
		VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		D->vkCmdResetQueryPool(rb, o.pool, 2, 2);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
	}
	result_t r[4];
	memset(r, GUARD, sizeof(r));
	VkResult kept = D->vkGetQueryPoolResults(DEV, o.pool, 0, 2, 2 * sizeof(result_t), r,
						 sizeof(result_t), 0);
	VKQS_EXPECTF(ctx, kept == VK_SUCCESS && uint_of(o.pf, o.c, r[0]) == 1 &&
				  uint_of(o.pf, o.c, r[1]) == 2,
		     "queries 0 and 1, outside the reset range [2, 4): %s, %" PRIu64 " and %" PRIu64
		     " draws (1 and 2 recorded, still available)",
		     vkqs_vk_result_name(kept), uint_of(o.pf, o.c, r[0]), uint_of(o.pf, o.c, r[1]));
	/* queries 2 and 3 again, around 5 and 6 draws */
	VkCommandBuffer cb = perf_cmd(ctx);
	vkqs_target_begin(ctx, cb, o.s.t, 1.0f);
	for (uint32_t q = 2; q < 4; q++) {
		D->vkCmdBeginQuery(cb, o.pool, q, 0);
		for (uint32_t i = 0; i < q + 3; i++)
			vkqs_draw_rect(ctx, cb, o.s.p, o.s.t, 0, 0, 4, 4, 0.5f);
		D->vkCmdEndQuery(cb, o.pool, q);
	}
	vkqs_target_end(ctx, cb);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, o.passes);
	perf_results(ctx, o.pool, 0, 4, 1, r);
	for (uint32_t q = 0; q < 4; q++) {
		uint64_t want = q < 2 ? q + 1 : q + 3;
		VKQS_EXPECTF(ctx, uint_of(o.pf, o.c, r[q]) == want,
			     "query %u after a %s reset of [2, 4) and a second use of 2 and 3: %" PRIu64
			     " draws, %" PRIu64 " recorded in its last use",
			     q, host ? "host" : "command", uint_of(o.pf, o.c, r[q]), want);
	}
}

static const bool reset_kinds[] = {true, false};
static void reset_kind_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "host_reset" : "command_reset");
}

/* A larger stride: the bytes between results stay untouched; results
 * with and without WAIT agree once all passes completed. */
static const uint32_t strides[] = {1, 2, 3};
static void stride_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "stride_plus_%u_results", *(const uint32_t *)p);
}
static void pool_stride(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t extra = *(const uint32_t *)param;
	struct one_counter o = one_counter(ctx, "draws", 3);
	measure_growing(ctx, &o.s, o.pool, 3, o.passes);
	size_t stride = (1 + extra) * sizeof(result_t);
	result_t buf[3 * 4];
	for (int wait = 1; wait >= 0; wait--) {
		memset(buf, GUARD, sizeof(buf));
		VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, o.pool, 0, 3, 2 * stride + sizeof(result_t), buf,
							 stride, wait ? VK_QUERY_RESULT_WAIT_BIT : 0));
		for (uint32_t q = 0; q < 3; q++) {
			const result_t *r = (const result_t *)((const uint8_t *)buf + q * stride);
			VKQS_EXPECTF(ctx, uint_of(o.pf, o.c, *r) == q + 1, "%s WAIT, query %u: %" PRIu64 " draws, %u recorded",
				     wait ? "with" : "without", q, uint_of(o.pf, o.c, *r), q + 1);
			const uint8_t *gap = (const uint8_t *)(r + 1);
			for (size_t i = 0; q < 2 && i < extra * sizeof(result_t); i++)
				if (gap[i] != GUARD) {
					vkqs_fail(ctx, "byte %zu between results %u and %u was written", i, q, q + 1);
					break;
				}
		}
	}
}

/* vkCmdCopyQueryPoolResults (allowCommandBufferQueryCopies) writes what
 * vkGetQueryPoolResults returns, at dstOffset, nothing around it. */
static const uint32_t copy_offsets[] = {0, 8, 24};
static void copy_offset_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "offset_%u", *(const uint32_t *)p);
}
static void pool_copy(struct vkqs_ctx *ctx, const void *param)
{
	uint32_t off = *(const uint32_t *)param;
	struct perf *pf = perf_require(ctx);
	if (!pf->props.allowCommandBufferQueryCopies)
		vkqs_skip(ctx, "allowCommandBufferQueryCopies is VK_FALSE");
	perf_lock(ctx);
	uint32_t n = pf->count < 4 ? pf->count : 4;
	uint32_t idx[4] = {0, 1, 2, 3};
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = query_open(ctx, pool);
	scene_draw(ctx, cb, &s, 2, 6, 8, 8);
	result_t got[4];
	query_close(ctx, cb, pool, passes, n, got);
	struct vkqs_buffer *b = vkqs_buffer_host(ctx, 256, 0);
	memset(b->map, GUARD, 256);
	vkqs_buffer_flush(ctx, b);
	VkCommandBuffer cc = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdCopyQueryPoolResults(cc, pool, 0, 1, b->buf, off, n * sizeof(result_t),
				     VK_QUERY_RESULT_WAIT_BIT);
	vkqs_cmd_transfer_to_host_barrier(ctx, cc);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cc);
	vkqs_buffer_invalidate(ctx, b);
	VKQS_EXPECTF(ctx, memcmp(b->map + off, got, n * sizeof(result_t)) == 0,
		     "the copied results differ from vkGetQueryPoolResults's");
	for (uint32_t i = 0; i < 256; i++)
		if ((i < off || i >= off + n * sizeof(result_t)) && b->map[i] != GUARD) {
			vkqs_fail(ctx, "byte %u outside the %u results at offset %u was written", i, n, off);
			break;
		}
}

/* Passes --------------------------------------------------------------------------*/

/* Work that differs per pass: an indirect draw whose vertex count the host
 * changes between the submissions of the same command buffer (6 * (p + 1)
 * vertices in pass p).  A counter is collected in one pass: its value is
 * one pass's work, never a sum of several. */
static void multipass_own_pass(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t vi = perf_named(ctx, pf, "vertex_invocations");
	uint32_t *idx = vkqs_alloc(ctx, pf->count * sizeof(*idx));
	for (uint32_t i = 0; i < pf->count; i++)
		idx[i] = i;
	uint32_t passes = perf_passes(ctx, pf, idx, pf->count);
	if (passes < 2)
		vkqs_skip(ctx, "all counters fit in one pass");
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	struct vkqs_buffer *ind = vkqs_buffer_host(ctx, sizeof(VkDrawIndirectCommand),
						   VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
	uint32_t np;
	VkQueryPool pool = perf_pool(ctx, pf, idx, pf->count, 1, &np);
	ctx->vk->inst.perf_passes = true;
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	vkqs_target_begin(ctx, cb, s.t, 1.0f);
	struct vkqs_rect_push pc = {{0, 0, 4, 4}, {SIZE, SIZE}, 0.5f, 0};
	vkqs_cmd_bind_rect(ctx, cb, s.p, &pc);
	D->vkCmdDrawIndirect(cb, ind->buf, 0, 1, sizeof(VkDrawIndirectCommand));
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	for (uint32_t p = 0; p < np; p++) {
		VkDrawIndirectCommand cmd = {6 * (p + 1), 1, 0, 0};
		memcpy(ind->map, &cmd, sizeof(cmd));
		vkqs_buffer_flush(ctx, ind);
		VkPerformanceQuerySubmitInfoKHR ps = {
			.sType = VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR,
			.counterPassIndex = p,
		};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ps,
				   .commandBufferCount = 1, .pCommandBuffers = &cb};
		VkFence f = vkqs_fence(ctx);
		VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, 1, &si, f));
		vkqs_fence_wait(ctx, f);
	}
	ctx->vk->inst.perf_passes = false;
	result_t *r = vkqs_alloc(ctx, pf->count * sizeof(*r));
	perf_results(ctx, pool, 0, 1, pf->count, r);
	uint64_t v = uint_of(pf, vi, r[vi]);
	VKQS_EXPECTF(ctx, v % 6 == 0 && v >= 6 && v <= 6u * np,
		     "vertex_invocations is %" PRIu64 ": not the 6 x (p + 1) vertices of one of the %u "
		     "passes (a sum over passes?)", v, np);
	for (uint32_t i = 0; i < pf->count; i++)
		check_typed(ctx, pf, i, r[i], "all counters, per-pass work");
}

/* The passes as batches of one vkQueueSubmit, or of vkQueueSubmit2. */
static void multipass_batches(struct vkqs_ctx *ctx, const void *param)
{
	bool sync2 = *(const bool *)param;
	struct perf *pf = perf_require(ctx);
	if (sync2 && !ctx->vk->f13.synchronization2)
		vkqs_skip(ctx, "synchronization2 is not enabled");
	uint32_t c = perf_named(ctx, pf, "draws");
	uint32_t *idx = vkqs_alloc(ctx, pf->count * sizeof(*idx));
	idx[0] = c;
	uint32_t n = 1;
	for (uint32_t i = 0; i < pf->count; i++)
		if (i != c)
			idx[n++] = i;
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	/* pending in one batch while submitted in the next */
	VkCommandBuffer cb = vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx,
						  VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	scene_draw(ctx, cb, &s, 3, 6, 4, 4);
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	VkPerformanceQuerySubmitInfoKHR *ps = vkqs_alloc(ctx, passes * sizeof(*ps));
	VkFence f = vkqs_fence(ctx);
	ctx->vk->inst.perf_passes = true;
	ctx->vk->inst.perf_pass_batches = true;
	if (sync2) {
		VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
						 .commandBuffer = cb};
		VkSubmitInfo2 *si = vkqs_alloc(ctx, passes * sizeof(*si));
		for (uint32_t p = 0; p < passes; p++) {
			ps[p] = (VkPerformanceQuerySubmitInfoKHR){
				VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR, NULL, p};
			si[p] = (VkSubmitInfo2){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .pNext = &ps[p],
						.commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi};
		}
		VKQS_CHECK(ctx, D->vkQueueSubmit2(ctx->vk->gfx.queue, passes, si, f));
	} else {
		VkSubmitInfo *si = vkqs_alloc(ctx, passes * sizeof(*si));
		for (uint32_t p = 0; p < passes; p++) {
			ps[p] = (VkPerformanceQuerySubmitInfoKHR){
				VK_STRUCTURE_TYPE_PERFORMANCE_QUERY_SUBMIT_INFO_KHR, NULL, p};
			si[p] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ps[p],
					       .commandBufferCount = 1, .pCommandBuffers = &cb};
		}
		VKQS_CHECK(ctx, D->vkQueueSubmit(ctx->vk->gfx.queue, passes, si, f));
	}
	vkqs_fence_wait(ctx, f);
	ctx->vk->inst.perf_passes = false;
	ctx->vk->inst.perf_pass_batches = false;
	result_t *r = vkqs_alloc(ctx, n * sizeof(*r));
	perf_results(ctx, pool, 0, 1, n, r);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, c, r[0]), 3);
	for (uint32_t i = 0; i < n; i++)
		check_typed(ctx, pf, idx[i], r[i], "passes as batches of one submission");
}
static const bool submit_kinds[] = {false, true};
static void submit_kind_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "queue_submit2" : "queue_submit");
}

/* One pass and no VkPerformanceQuerySubmitInfoKHR: "the batch defaults to
 * use counter pass index 0". */
static void multipass_default_pass(struct vkqs_ctx *ctx, const void *param)
{
	struct one_counter o = one_counter(ctx, "draws", 1);
	if (o.passes != 1)
		vkqs_skip(ctx, "\"draws\" alone needs %u passes", o.passes);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, o.pool, 0, 0);
	scene_draw(ctx, cb, &o.s, 4, 6, 4, 4);
	D->vkCmdEndQuery(cb, o.pool, 0);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	result_t r;
	perf_results(ctx, o.pool, 0, 1, 1, &r);
	VKQS_EXPECT_EQ(ctx, uint_of(o.pf, o.c, r), 4);
}

/* Scopes -----------------------------------------------------------------------------*/

/* COMMAND_BUFFER: begun first, ended last; RENDER_PASS: around a render
 * pass instance, not first; COMMAND: inside a render pass around a draw. */
static const VkPerformanceCounterScopeKHR scopes[] = {
	VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR,
	VK_PERFORMANCE_COUNTER_SCOPE_RENDER_PASS_KHR,
	VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR,
};
static void scope_name(const void *p, char *b, size_t n)
{
	static const char *const names[] = {"command_buffer", "render_pass", "command"};
	snprintf(b, n, "%s", names[*(const VkPerformanceCounterScopeKHR *)p]);
}
static void scope_counters(struct vkqs_ctx *ctx, const void *param)
{
	VkPerformanceCounterScopeKHR scope = *(const VkPerformanceCounterScopeKHR *)param;
	struct perf *pf = perf_require(ctx);
	uint32_t idx[MAX_COUNTERS];
	uint32_t n = perf_of_scope(ctx, pf, scope, idx, MAX_COUNTERS);
	perf_lock(ctx);
	struct scene s = scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = perf_cmd(ctx);
	if (scope == VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_BUFFER_KHR) {
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		scene_draw(ctx, cb, &s, 2, 6, 8, 8);
		D->vkCmdEndQuery(cb, pool, 0);
	} else if (scope == VK_PERFORMANCE_COUNTER_SCOPE_RENDER_PASS_KHR) {
		scene_draw(ctx, cb, &s, 1, 6, 8, 8);
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		scene_draw(ctx, cb, &s, 2, 6, 8, 8);
		D->vkCmdEndQuery(cb, pool, 0);
		scene_draw(ctx, cb, &s, 1, 6, 8, 8);
	} else {
		vkqs_target_begin(ctx, cb, s.t, 1.0f);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		D->vkCmdBeginQuery(cb, pool, 0, 0);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		D->vkCmdEndQuery(cb, pool, 0);
		vkqs_draw_rect(ctx, cb, s.p, s.t, 0, 0, 8, 8, 0.5f);
		vkqs_target_end(ctx, cb);
	}
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	result_t r[MAX_COUNTERS];
	perf_results(ctx, pool, 0, 1, n, r);
	for (uint32_t k = 0; k < n; k++) {
		check_typed(ctx, pf, idx[k], r[k], "scope");
		/* the named pipeline counters count only what the query spans */
		if (!strcmp(pf->d[idx[k]].name, "draws"))
			VKQS_EXPECT_EQ(ctx, uint_of(pf, idx[k], r[k]),
				       scope == VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR ? 1 : 2);
	}
}

/* A query begun and ended in a secondary command buffer, around a fill. */
static void secondary_query(struct vkqs_ctx *ctx, const void *param)
{
	struct perf *pf = perf_require(ctx);
	uint32_t c = perf_named(ctx, pf, "bytes_transferred");
	if (pf->c[c].scope != VK_PERFORMANCE_COUNTER_SCOPE_COMMAND_KHR)
		vkqs_skip(ctx, "\"bytes_transferred\" is not of COMMAND scope");
	perf_lock(ctx);
	struct vkqs_buffer *b = vkqs_buffer_device(ctx, 4096, 0);
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, &c, 1, 1, &passes);
	VkCommandBuffer sec = vkqs_cmd_begin_secondary(ctx, &ctx->vk->gfx, NULL, 0, NULL);
	D->vkCmdBeginQuery(sec, pool, 0, 0);
	D->vkCmdFillBuffer(sec, b->buf, 0, 2048, 1);
	D->vkCmdEndQuery(sec, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(sec));
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdFillBuffer(cb, b->buf, 2048, 1024, 2);
	D->vkCmdExecuteCommands(cb, 1, &sec);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	result_t r;
	perf_results(ctx, pool, 0, 1, 1, &r);
	VKQS_EXPECT_EQ(ctx, uint_of(pf, c, r), 2048);
}

/* The profiling lock ------------------------------------------------------------------*/

static VkResult acquire(struct vkqs_ctx *ctx, uint64_t timeout_ns)
{
	VkAcquireProfilingLockInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR,
		.timeout = timeout_ns,
	};
	return D->vkAcquireProfilingLockKHR(DEV, &info);
}

/* Starts a second process holding the lock; NotSupported when it cannot
 * get it (held elsewhere all that time). */
static struct vkqs_lock_holder *hold_elsewhere(struct vkqs_ctx *ctx)
{
	char why[256];
	struct vkqs_lock_holder *h = vkqs_lock_holder_start(ctx, LOCK_WAIT_MS, why, sizeof(why));
	if (!h)
		vkqs_skip(ctx, "a second process could not take the profiling lock: %s", why);
	return h;
}

/* VK_SUCCESS while another process holds the lock: legal ("may allow
 * multiple actors"), and then nothing below can be checked. */
static void shared_lock(struct vkqs_ctx *ctx)
{
	D->vkReleaseProfilingLockKHR(DEV);
	vkqs_skip(ctx, "the device let this process take the profiling lock while another process "
		       "holds it (18.6.1: implementations may allow multiple actors)");
}

static void lock_reacquire(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	for (int i = 0; i < 3; i++) {
		VkResult r = vkqs_acquire_profiling_lock(D, DEV, LOCK_WAIT_MS);
		if (r == VK_TIMEOUT)
			vkqs_skip(ctx, "the profiling lock stayed held elsewhere for %u ms", LOCK_WAIT_MS);
		VKQS_ASSERTF(ctx, r == VK_SUCCESS, "acquisition %d returned %s", i + 1,
			     vkqs_vk_result_name(r));
		D->vkReleaseProfilingLockKHR(DEV);
	}
}

/* timeout 0 while another process holds the lock: VK_TIMEOUT, at once. */
static void lock_timeout_zero(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	hold_elsewhere(ctx);
	uint64_t t0 = vkqs_now_ns();
	VkResult r = acquire(ctx, 0);
	uint64_t dt = vkqs_now_ns() - t0;
	if (r == VK_SUCCESS)
		shared_lock(ctx);
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
	/* "will not block": a few milliseconds of a loaded machine at most */
	VKQS_EXPECTF(ctx, dt < 50000000u, "timeout 0 returned after %.1f ms", dt / 1e6);
}

/* A finite timeout while held elsewhere: VK_TIMEOUT after about that time
 * (not before it; at most 500 ms late on a loaded machine). */
static const uint32_t timeouts_ms[] = {1, 20, 100, 300};
static void timeout_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%u_ms", *(const uint32_t *)p);
}
static void lock_timeout_finite(struct vkqs_ctx *ctx, const void *param)
{
	uint64_t ms = *(const uint32_t *)param;
	perf_require(ctx);
	hold_elsewhere(ctx);
	uint64_t t0 = vkqs_now_ns();
	VkResult r = acquire(ctx, ms * 1000000u);
	uint64_t dt = vkqs_now_ns() - t0;
	if (r == VK_SUCCESS)
		shared_lock(ctx);
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
	VKQS_EXPECTF(ctx, dt >= ms * 1000000u, "VK_TIMEOUT after %.2f ms of a %" PRIu64 " ms timeout",
		     dt / 1e6, ms);
	VKQS_EXPECTF(ctx, dt <= ms * 1000000u + 500000000u,
		     "VK_TIMEOUT after %.1f ms of a %" PRIu64 " ms timeout", dt / 1e6, ms);
}

/* A waiter gets the lock when the holder releases it: not before (Fail);
 * with a finite timeout or UINT64_MAX.  "Soon after" (2 s) is no sentence
 * of the spec, and a loaded machine delays the waiter: a QualityWarning
 * (docs/verdicts.md "Times on a real clock"). */
static const bool infinite[] = {false, true};
static void infinite_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "uint64_max" : "finite_timeout");
}
static void lock_waiter_gets_it(struct vkqs_ctx *ctx, const void *param)
{
	bool inf = *(const bool *)param;
	perf_require(ctx);
	struct vkqs_lock_holder *h = hold_elsewhere(ctx);
	VkResult probe = acquire(ctx, 0);
	if (probe == VK_SUCCESS)
		shared_lock(ctx);
	vkqs_lock_holder_release(ctx, h, 200);
	VkResult r = acquire(ctx, inf ? UINT64_MAX : 20ull * 1000000000u);
	uint64_t got = vkqs_now_ns();
	uint64_t released = vkqs_lock_holder_wait(ctx, h);
	VKQS_ASSERT_VK(ctx, r, VK_SUCCESS);
	D->vkReleaseProfilingLockKHR(DEV);
	VKQS_ASSERTF(ctx, released != 0, "the holder did not report its release");
	VKQS_EXPECTF(ctx, got >= released, "the lock was acquired %.2f ms before the holder released it",
		     (released - got) / 1e6);
	if (got >= released && got - released >= 2000000000u)
		vkqs_quality_warning(ctx, "the lock was acquired %.1f ms after the holder released it",
				     (got - released) / 1e6);
}

/* Two devices of this process: the second waits for the first's lock. */
static void lock_second_device(struct vkqs_ctx *ctx, const void *param)
{
	perf_require(ctx);
	perf_lock(ctx);
	struct vkqs_vk *other = vkqs_alloc(ctx, sizeof(*other));
	memset(other, 0, sizeof(*other));
	char err[256];
	char idx[16];
	snprintf(idx, sizeof(idx), "%u", ctx->vk->index);
	if (!vkqs_vk_create(other, idx, false, err, sizeof(err)))
		vkqs_internal_error(ctx, "a second device: %s", err);
	VkAcquireProfilingLockInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_ACQUIRE_PROFILING_LOCK_INFO_KHR, .timeout = 0};
	VkResult r = other->d.vkAcquireProfilingLockKHR(other->device, &info);
	if (r == VK_SUCCESS)
		other->d.vkReleaseProfilingLockKHR(other->device);
	vkqs_vk_destroy(other);
	if (r == VK_SUCCESS)
		vkqs_skip(ctx, "a second device took the profiling lock while the first holds it "
			       "(18.6.1: implementations may allow multiple actors)");
	VKQS_EXPECT_VK(ctx, r, VK_TIMEOUT);
}

/* Recorded and submitted several times while held: each submission's
 * results are its own. */
static void lock_resubmit_while_held(struct vkqs_ctx *ctx, const void *param)
{
	struct one_counter o = one_counter(ctx, "draws", 1);
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, o.pool, 0, 0);
	scene_draw(ctx, cb, &o.s, 2, 6, 4, 4);
	D->vkCmdEndQuery(cb, o.pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	for (int round = 0; round < 3; round++) {
		if (round) {
			VkCommandBuffer rb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
			D->vkCmdResetQueryPool(rb, o.pool, 0, 1);
			vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, rb);
		}
		perf_submit(ctx, cb, o.passes);
		result_t r;
		perf_results(ctx, o.pool, 0, 1, 1, &r);
		VKQS_EXPECTF(ctx, uint_of(o.pf, o.c, r) == 2, "submission %d: %" PRIu64 " draws, 2 recorded",
			     round + 1, uint_of(o.pf, o.c, r));
	}
}

#define ROW(name, fn, spec) {name, fn, spec}
static const struct vkqs_case cases[] = {
	ROW("enumerate.count_stable", enum_count_stable, SPEC_ENUM),
	{"enumerate.incomplete", enum_incomplete, SPEC_ENUM, VKQS_PARAMS(short_by, short_by_name)},
	ROW("enumerate.zero_count", enum_zero_count, SPEC_ENUM),
	{"enumerate.one_array", enum_one_array, SPEC_ENUM, VKQS_PARAMS(one_array, one_array_name)},
	ROW("enumerate.unique_uuids", enum_unique_uuids,
	    "VkPerformanceCounterKHR::uuid: a unique identifier for the counter"),
	ROW("enumerate.fields_valid", enum_fields_valid,
	    "VkPerformanceCounterKHR / VkPerformanceCounterDescriptionKHR: values of their enums, "
	    "null-terminated UTF-8 strings"),
	ROW("enumerate.every_family", enum_every_family, SPEC_ENUM),
	ROW("passes.single_counter", passes_single,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: the passes a pool needs"),
	ROW("passes.all_counters", passes_all,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: a set needs each member's passes"),
	ROW("passes.pairs", passes_pairs,
	    "vkGetPhysicalDeviceQueueFamilyPerformanceQueryPassesKHR: a set needs each member's passes"),
	ROW("results.each_counter", results_each_counter, SPEC_RESULTS),
	ROW("results.all_counters", results_all_counters, SPEC_RESULTS "; " SPEC_PASSES),
	ROW("results.order", results_order, SPEC_RESULTS),
	{"values.exact", values_exact, SPEC_RESULTS "; the device documents the counter",
	 VKQS_PARAMS(exacts, exact_name)},
	{"values.render_passes", values_render_passes,
	 "RENDER_PASS scope: begun and ended outside render pass instances",
	 VKQS_PARAMS(pass_counts, pass_count_name)},
	ROW("values.bytes_transferred", values_bytes, SPEC_RESULTS),
	{"values.compute", values_compute, SPEC_RESULTS "; the device documents the counter",
	 VKQS_PARAMS(compute_cases, compute_case_name)},
	ROW("values.time_grows_with_work", values_time_monotonic,
	    "VK_PERFORMANCE_COUNTER_UNIT_NANOSECONDS_KHR / CYCLES_KHR: time of the work measured"),
	{"pool.queries", pool_queries, "18.6: each query its own counters",
	 VKQS_PARAMS(query_counts, query_count_name)},
	ROW("pool.two_pools", pool_two_pools,
	    "performanceCounterMultipleQueryPools: several performance pools in a command buffer"),
	ROW("pool.two_pools_compute", pool_two_pools_compute,
	    "performanceCounterMultipleQueryPools: several performance pools around dispatches "
	    "in a command buffer, submitted for the larger pass count"),
	{"pool.reset_range", pool_reset_range, "18.2: a reset sets the status of query indices "
	 "[firstQuery, firstQuery + queryCount - 1] to unavailable: the others keep their "
	 "results (performance queries, firstQuery 2)", VKQS_PARAMS(reset_kinds, reset_kind_name)},
	{"pool.reuse", pool_reuse, "vkResetQueryPool / vkCmdResetQueryPool reset a performance "
				   "query for each pass",
	 VKQS_PARAMS(reset_kinds, reset_kind_name)},
	{"pool.stride", pool_stride, "18.2: query i at pData + i * stride; nothing else written",
	 VKQS_PARAMS(strides, stride_name)},
	{"pool.copy", pool_copy,
	 "allowCommandBufferQueryCopies: vkCmdCopyQueryPoolResults writes the results at dstOffset",
	 VKQS_PARAMS(copy_offsets, copy_offset_name)},
	ROW("multipass.counter_in_its_pass", multipass_own_pass, SPEC_PASSES),
	{"multipass.batches", multipass_batches, SPEC_PASSES,
	 VKQS_PARAMS(submit_kinds, submit_kind_name)},
	ROW("multipass.default_pass_zero", multipass_default_pass,
	    "VkPerformanceQuerySubmitInfoKHR absent: counter pass index 0"),
	{"scope.counters", scope_counters,
	 "VUID-vkCmdBeginQuery-queryPool-03224 / 03225: the scopes' begin and end rules",
	 VKQS_PARAMS(scopes, scope_name)},
	ROW("secondary.query_in_secondary", secondary_query,
	    "18.6: a performance query begun and ended in a secondary command buffer"),
	ROW("lock.reacquire", lock_reacquire,
	    "18.6.1: vkAcquireProfilingLockKHR after vkReleaseProfilingLockKHR"),
	ROW("lock.timeout_zero_held_elsewhere", lock_timeout_zero, SPEC_LOCK),
	{"lock.timeout_held_elsewhere", lock_timeout_finite, SPEC_LOCK,
	 VKQS_PARAMS(timeouts_ms, timeout_name)},
	{"lock.waiter_acquires_on_release", lock_waiter_gets_it, SPEC_LOCK,
	 VKQS_PARAMS(infinite, infinite_name)},
	ROW("lock.second_device", lock_second_device, SPEC_LOCK),
	ROW("lock.resubmit_while_held", lock_resubmit_while_held,
	    "18.6.1: the lock held while the command buffer is executable or pending"),
};

VKQS_AREA(perf, cases);
