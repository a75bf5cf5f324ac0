/* Performance queries: the helpers the groups share (perf.h). */
#include "perf.h"

void perf_enumerate(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t family,
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

struct perf *perf_require(struct vkqs_ctx *ctx)
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

uint32_t perf_named(struct vkqs_ctx *ctx, const struct perf *pf, const char *name)
{
	for (uint32_t i = 0; i < pf->count; i++)
		if (strcmp(pf->d[i].name, name) == 0)
			return i;
	vkqs_skip(ctx, "the device has no performance counter named \"%s\" whose value the case "
		       "can state (refdevice/README.md)", name);
}

uint32_t perf_of_scope(struct vkqs_ctx *ctx, const struct perf *pf,
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

double perf_value_of(const struct perf *pf, uint32_t counter, result_t r)
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

uint64_t perf_uint_of(const struct perf *pf, uint32_t counter, result_t r)
{
	switch (pf->c[counter].storage) {
	case VK_PERFORMANCE_COUNTER_STORAGE_INT32_KHR: return (uint64_t)(int64_t)r.int32;
	case VK_PERFORMANCE_COUNTER_STORAGE_INT64_KHR: return (uint64_t)r.int64;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT32_KHR: return r.uint32;
	case VK_PERFORMANCE_COUNTER_STORAGE_UINT64_KHR: return r.uint64;
	default: return (uint64_t)perf_value_of(pf, counter, r);
	}
}

void perf_check_typed(struct vkqs_ctx *ctx, const struct perf *pf, uint32_t counter, result_t r,
			const char *what)
{
	const VkPerformanceCounterKHR *c = &pf->c[counter];
	const char *name = pf->d[counter].name;
	double v = perf_value_of(pf, counter, r);
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

void perf_lock(struct vkqs_ctx *ctx)
{
	VkResult r = vkqs_acquire_profiling_lock(D, DEV, LOCK_WAIT_MS);
	if (r == VK_TIMEOUT)
		vkqs_skip(ctx, "the profiling lock stayed held elsewhere for %u ms", LOCK_WAIT_MS);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS, "vkAcquireProfilingLockKHR returned %s",
		     vkqs_vk_result_name(r));
	vkqs_defer(ctx, release_lock, NULL);
}

/* Pools, passes, results ------------------------------------------------------*/

uint32_t perf_passes(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
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

VkQueryPool perf_pool(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			     uint32_t n, uint32_t queries, uint32_t *passes)
{
	return perf_pool_flags(ctx, pf, idx, n, queries, 0, passes);
}

VkQueryPool perf_pool_flags(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			    uint32_t n, uint32_t queries, VkQueryPoolCreateFlags flags,
			    uint32_t *passes)
{
	VkQueryPoolPerformanceCreateInfoKHR pc = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_CREATE_INFO_KHR,
		.queueFamilyIndex = pf->family,
		.counterIndexCount = n,
		.pCounterIndices = idx,
	};
	VkQueryPool pool = vkqs_query_pool_flags(ctx, VK_QUERY_TYPE_PERFORMANCE_QUERY_KHR,
						 queries, 0, flags, &pc);
	*passes = perf_passes(ctx, pf, idx, n);
	VKQS_ASSERTF(ctx, *passes >= 1, "%u counters need %u passes: at least one", n, *passes);
	if (flags & VK_QUERY_POOL_CREATE_RESET_BIT_KHR)
		return pool; /* created reset (VK_KHR_maintenance9) */
	/* A reset in its own submission: a command buffer submitted once per
	 * pass must not reset (VUID-vkCmdBeginQuery-None-02863). */
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, pool, 0, queries);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	return pool;
}

VkCommandBuffer perf_cmd(struct vkqs_ctx *ctx)
{
	return vkqs_cmd_begin_usage(ctx, &ctx->vk->gfx, 0);
}

void perf_submit(struct vkqs_ctx *ctx, VkCommandBuffer cb, uint32_t passes)
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

void perf_results(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t first, uint32_t count,
			 uint32_t n, result_t *out)
{
	size_t stride = n * sizeof(result_t);
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, first, count, count * stride, out, stride,
						 VK_QUERY_RESULT_WAIT_BIT));
}

VkCommandBuffer perf_query_open(struct vkqs_ctx *ctx, VkQueryPool pool)
{
	VkCommandBuffer cb = perf_cmd(ctx);
	D->vkCmdBeginQuery(cb, pool, 0, 0);
	return cb;
}

void perf_query_close(struct vkqs_ctx *ctx, VkCommandBuffer cb, VkQueryPool pool,
			uint32_t passes, uint32_t n, result_t *out)
{
	D->vkCmdEndQuery(cb, pool, 0);
	VKQS_CHECK(ctx, D->vkEndCommandBuffer(cb));
	perf_submit(ctx, cb, passes);
	perf_results(ctx, pool, 0, 1, n, out);
}

/* Work ------------------------------------------------------------------------*/


struct scene perf_scene_make(struct vkqs_ctx *ctx, VkSampleCountFlagBits samples)
{
	struct scene s;
	s.t = vkqs_target_create(ctx, SIZE, SIZE, samples, false);
	s.p = vkqs_pipeline_rect(ctx, s.t, &(struct vkqs_pipeline_desc){0});
	return s;
}

struct perf_one perf_one(struct vkqs_ctx *ctx, const char *name, uint32_t queries)
{
	struct perf_one o;
	o.pf = perf_require(ctx);
	o.c = perf_named(ctx, o.pf, name);
	perf_lock(ctx);
	o.s = perf_scene_make(ctx, VK_SAMPLE_COUNT_1_BIT);
	o.pool = perf_pool(ctx, o.pf, &o.c, 1, queries, &o.passes);
	return o;
}

void perf_scene_draw(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct scene *s,
		       uint32_t draws, uint32_t vertices, float w, float h)
{
	vkqs_target_begin(ctx, cb, s->t, 1.0f);
	for (uint32_t i = 0; i < draws; i++)
		vkqs_draw_rect_n(ctx, cb, s->p, s->t, 0, 0, w, h, 0.5f, vertices);
	vkqs_target_end(ctx, cb);
}

void perf_measure_draws(struct vkqs_ctx *ctx, const struct perf *pf, const uint32_t *idx,
			  uint32_t n, const struct scene *s, uint32_t draws, uint32_t vertices,
			  float w, float h, result_t *out)
{
	uint32_t passes;
	VkQueryPool pool = perf_pool(ctx, pf, idx, n, 1, &passes);
	VkCommandBuffer cb = perf_query_open(ctx, pool);
	perf_scene_draw(ctx, cb, s, draws, vertices, w, h);
	perf_query_close(ctx, cb, pool, passes, n, out);
}
