/* Intel performance queries (VK_INTEL_performance_query, spec 18.10).
 *
 * The spec leaves the result opaque: "the resulting data should be handed
 * over to a library capable to produce human readable results rather than
 * being read directly by an application".  So the oracles here are the
 * rules around the data, not its contents:
 * - parameters: HW_COUNTERS_SUPPORTED "has a boolean result",
 *   STREAM_MARKER_VALID_BITS "a 32 bits integer result" (a bit count: 1 to
 *   32);
 * - the life cycle: initialize, acquire a configuration and set it on the
 *   queue before submitting ("the application must acquire and set a
 *   performance query configuration"), release once nothing is pending,
 *   uninitialize; initializing again after uninitializing works;
 * - availability and reset as for every query type (18.2): with WAIT the
 *   call returns VK_SUCCESS; a reset query is unavailable, so a read without
 *   WAIT returns VK_NOT_READY and writes nothing (vkqs_expect_not_ready and
 *   vkqs_expect_unwritten grade the parts 18.2 has since relaxed); an
 *   available query's data does not change until it is reset;
 * - the layout rules of vkGetQueryPoolResults: query i at pData + i *
 *   stride, nothing written outside [pData, pData + dataSize), firstQuery
 *   selects the first query read, and a query's data does not depend on the
 *   stride.  The report's size is the metrics library's business, so every
 *   read gives each query STRIDE bytes, far above the reference device's
 *   128-byte report;
 * - markers: vkCmdSetPerformanceMarkerINTEL and ...StreamMarkerINTEL
 *   record and the query still completes (the marker's place in the data is
 *   the reference device's self-test, vkqs.selftest.refdevice.intel_report);
 * - overrides: NULL_HARDWARE "turns all rendering operations into noop", so
 *   a draw under it leaves the attachment as the render pass cleared it,
 *   and the same draw with the override disabled writes it;
 *   FLUSH_GPU_CACHES "stalls the stream of commands until all previously
 *   emitted commands have completed", so the work after it still renders. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "vkutil.h"

#define D (VKQS_D(ctx))
#define DEV (VKQS_DEV(ctx))

#define SPEC_QUERY "18.10: \"Performance queries are used in a similar way than other types of queries\""
#define SPEC_PARAM "18.10: vkGetPerformanceParameterINTEL"
#define SPEC_CONFIG "18.10: \"the application must acquire and set a performance query configuration\""
#define SPEC_NULL_HW "18.10: \"VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL turns all rendering operations into noop\""
#define SPEC_FLUSH "18.10: \"VK_PERFORMANCE_OVERRIDE_TYPE_FLUSH_GPU_CACHES_INTEL stalls the stream of commands until all previously emitted commands have completed\""
#define SPEC_MARKER "18.10: \"The last marker set onto a command buffer before the end of a query will be part of the query result\""
#define SPEC_LAYOUT "18.2: results for query firstQuery + i are written at pData + i * stride"

#define STRIDE 65536u
#define FB 16u
#define GUARD 0xa5

struct intel {
	VkPerformanceConfigurationINTEL config;
	VkQueryPool pool;
	struct vkqs_target *t;
	struct vkqs_pipeline *p;
};

static void uninitialize(struct vkqs_ctx *ctx, void *arg)
{
	(void)arg;
	D->vkUninitializePerformanceApiINTEL(DEV);
}

static void release_config(struct vkqs_ctx *ctx, void *arg)
{
	VkPerformanceConfigurationINTEL c = (VkPerformanceConfigurationINTEL)(uintptr_t)arg;
	D->vkReleasePerformanceConfigurationINTEL(DEV, c);
}

static void require_intel(struct vkqs_ctx *ctx)
{
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (!vkqs_device_has_ext(&ctx->vk->info, VK_INTEL_PERFORMANCE_QUERY_EXTENSION_NAME))
		vkqs_skip(ctx, "no VK_INTEL_performance_query");
}

static void initialize(struct vkqs_ctx *ctx)
{
	VkInitializePerformanceApiInfoINTEL info = {
		.sType = VK_STRUCTURE_TYPE_INITIALIZE_PERFORMANCE_API_INFO_INTEL};
	VKQS_CHECK(ctx, D->vkInitializePerformanceApiINTEL(DEV, &info));
	vkqs_defer(ctx, uninitialize, NULL);
}

static VkPerformanceConfigurationINTEL acquire_config(struct vkqs_ctx *ctx)
{
	VkPerformanceConfigurationAcquireInfoINTEL ai = {
		.sType = VK_STRUCTURE_TYPE_PERFORMANCE_CONFIGURATION_ACQUIRE_INFO_INTEL,
		.type = VK_PERFORMANCE_CONFIGURATION_TYPE_COMMAND_QUEUE_METRICS_DISCOVERY_ACTIVATED_INTEL};
	VkPerformanceConfigurationINTEL c = VK_NULL_HANDLE;
	VKQS_CHECK(ctx, D->vkAcquirePerformanceConfigurationINTEL(DEV, &ai, &c));
	VKQS_ASSERTF(ctx, c != VK_NULL_HANDLE,
		     "vkAcquirePerformanceConfigurationINTEL returned VK_SUCCESS and a null handle");
	vkqs_defer(ctx, release_config, (void *)(uintptr_t)c);
	return c;
}

static VkQueryPool intel_pool(struct vkqs_ctx *ctx, uint32_t count)
{
	static const VkQueryPoolPerformanceQueryCreateInfoINTEL pi = {
		.sType = VK_STRUCTURE_TYPE_QUERY_POOL_PERFORMANCE_QUERY_CREATE_INFO_INTEL,
		.performanceCountersSampling = VK_QUERY_POOL_SAMPLING_MODE_MANUAL_INTEL};
	return vkqs_query_pool_next(ctx, VK_QUERY_TYPE_PERFORMANCE_QUERY_INTEL, count, &pi);
}

/* Initialized, a configuration set on the graphics queue, a pool of
 * `count` queries, a target and the rectangle pipeline. */
static struct intel intel_setup(struct vkqs_ctx *ctx, uint32_t count)
{
	require_intel(ctx);
	struct intel in = {0};
	initialize(ctx);
	in.config = acquire_config(ctx);
	VKQS_CHECK(ctx, D->vkQueueSetPerformanceConfigurationINTEL(ctx->vk->gfx.queue, in.config));
	in.pool = intel_pool(ctx, count);
	in.t = vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
	in.p = vkqs_pipeline_rect(ctx, in.t, &(struct vkqs_pipeline_desc){0});
	return in;
}

/* A render pass with one full-target rectangle. */
static void draw_pass(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct intel *in)
{
	vkqs_target_begin(ctx, cb, in->t, 1.0f);
	vkqs_draw_rect(ctx, cb, in->p, in->t, 0, 0, FB, FB, 0.5f);
	vkqs_target_end(ctx, cb);
}

/* Resets `count` queries, then runs query i around a render pass for each
 * i < count, in one submission. */
static void run_queries(struct vkqs_ctx *ctx, const struct intel *in, uint32_t count)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, in->pool, 0, count);
	for (uint32_t i = 0; i < count; i++) {
		D->vkCmdBeginQuery(cb, in->pool, i, 0);
		draw_pass(ctx, cb, in);
		D->vkCmdEndQuery(cb, in->pool, i);
	}
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
}

static VkResult get(struct vkqs_ctx *ctx, const struct intel *in, uint32_t first, uint32_t count,
		    uint8_t *data, size_t size, VkDeviceSize stride, VkQueryResultFlags flags)
{
	return D->vkGetQueryPoolResults(DEV, in->pool, first, count, size, data, stride, flags);
}

/* A buffer of `size` bytes and as many guard bytes after it, all GUARD. */
static uint8_t *guarded(struct vkqs_ctx *ctx, size_t size)
{
	uint8_t *p = vkqs_alloc(ctx, 2 * size);
	memset(p, GUARD, 2 * size);
	return p;
}

static bool all_guard(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != GUARD)
			return false;
	return true;
}

/* Parameters ---------------------------------------------------------------*/

/* A parameter's value: the type the spec gives it, and its range. */
struct parameter {
	VkPerformanceParameterTypeINTEL parameter;
	VkPerformanceValueTypeINTEL type;
	const char *name;
};
static const struct parameter parameters[] = {
	{VK_PERFORMANCE_PARAMETER_TYPE_HW_COUNTERS_SUPPORTED_INTEL,
	 VK_PERFORMANCE_VALUE_TYPE_BOOL_INTEL, "hw_counters_supported"},
	{VK_PERFORMANCE_PARAMETER_TYPE_STREAM_MARKER_VALID_BITS_INTEL,
	 VK_PERFORMANCE_VALUE_TYPE_UINT32_INTEL, "stream_marker_valid_bits"},
};
static void parameter_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", ((const struct parameter *)p)->name);
}

static void parameter(struct vkqs_ctx *ctx, const void *param)
{
	const struct parameter *p = param;
	require_intel(ctx);
	initialize(ctx);
	VkPerformanceValueINTEL v;
	memset(&v, 0x5a, sizeof(v));
	VKQS_CHECK(ctx, D->vkGetPerformanceParameterINTEL(DEV, p->parameter, &v));
	VKQS_EXPECTF(ctx, v.type == p->type, "%s: value type %d, the spec's is %d", p->name,
		     v.type, p->type);
	if (p->type == VK_PERFORMANCE_VALUE_TYPE_BOOL_INTEL)
		VKQS_EXPECTF(ctx, v.data.valueBool == VK_TRUE || v.data.valueBool == VK_FALSE,
			     "%s: valueBool %u is neither VK_TRUE nor VK_FALSE", p->name,
			     v.data.valueBool);
	else
		VKQS_EXPECTF(ctx, v.data.value32 >= 1 && v.data.value32 <= 32,
			     "%s: %u bits of a 32-bit marker", p->name, v.data.value32);
}

/* Life cycle ---------------------------------------------------------------*/

/* Initialize, uninitialize, initialize again: queries work after it. */
static void reinitialize(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	require_intel(ctx);
	VkInitializePerformanceApiInfoINTEL info = {
		.sType = VK_STRUCTURE_TYPE_INITIALIZE_PERFORMANCE_API_INFO_INTEL};
	VKQS_CHECK(ctx, D->vkInitializePerformanceApiINTEL(DEV, &info));
	D->vkUninitializePerformanceApiINTEL(DEV);
	struct intel in = intel_setup(ctx, 1);
	run_queries(ctx, &in, 1);
	uint8_t *d = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "a query after initializing again: %s",
		     vkqs_vk_result_name(r));
}

/* Two configurations in turn on the queue, a query under each; releasing
 * the first while the second is set. */
static void two_configs(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct intel in = intel_setup(ctx, 1);
	run_queries(ctx, &in, 1);
	VkPerformanceConfigurationINTEL second = acquire_config(ctx);
	VKQS_EXPECTF(ctx, second != in.config, "a second configuration has the first one's handle");
	VKQS_CHECK(ctx, D->vkQueueSetPerformanceConfigurationINTEL(ctx->vk->gfx.queue, second));
	run_queries(ctx, &in, 1);
	uint8_t *d = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "a query under the second configuration: %s",
		     vkqs_vk_result_name(r));
}

/* Availability -------------------------------------------------------------*/

/* With WAIT: VK_SUCCESS; without, once available: VK_SUCCESS and the same
 * bytes (an available query's data does not change until reset). */
static void available(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct intel in = intel_setup(ctx, 1);
	run_queries(ctx, &in, 1);
	uint8_t *a = guarded(ctx, STRIDE), *b = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, a, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_ASSERTF(ctx, r == VK_SUCCESS, "WAIT: %s", vkqs_vk_result_name(r));
	VKQS_EXPECTF(ctx, !all_guard(a, STRIDE), "WAIT returned VK_SUCCESS and wrote no byte");
	r = get(ctx, &in, 0, 1, b, STRIDE, STRIDE, 0);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "without WAIT after the fence: %s",
		     vkqs_vk_result_name(r));
	VKQS_EXPECTF(ctx, memcmp(a, b, 2 * STRIDE) == 0,
		     "two reads of one available query differ");
}

/* Reset by a command (and, with hostQueryReset, by the host): unavailable. */
static void not_ready_after_reset(struct vkqs_ctx *ctx, const void *param)
{
	const bool host = *(const bool *)param;
	struct intel in = intel_setup(ctx, 1);
	if (host)
		vkqs_require_feature(ctx, "hostQueryReset");
	run_queries(ctx, &in, 1);
	if (host) {
		D->vkResetQueryPool(DEV, in.pool, 0, 1);
	} else {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
		D->vkCmdResetQueryPool(cb, in.pool, 0, 1);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	}
	uint8_t *d = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, 0);
	vkqs_expect_not_ready(ctx, r, host ? "after vkResetQueryPool" : "after vkCmdResetQueryPool");
	vkqs_expect_unwritten(ctx, d, STRIDE, GUARD, "an unavailable Intel query");
	/* and used again it completes */
	run_queries(ctx, &in, 1);
	r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "the query used again after the reset: %s",
		     vkqs_vk_result_name(r));
}
static const bool reset_params[] = {false, true};
static void reset_name(const void *p, char *b, size_t n)
{
	snprintf(b, n, "%s", *(const bool *)p ? "host" : "command");
}

/* Layout -------------------------------------------------------------------*/

/* Three queries at STRIDE: each slot written, nothing past dataSize. */
static void within_data_size(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct intel in = intel_setup(ctx, 3);
	run_queries(ctx, &in, 3);
	uint8_t *d = guarded(ctx, 3 * STRIDE);
	VKQS_CHECK(ctx, get(ctx, &in, 0, 3, d, 3 * STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT));
	for (uint32_t i = 0; i < 3; i++)
		VKQS_EXPECTF(ctx, !all_guard(d + i * STRIDE, STRIDE),
			     "query %u: nothing written at pData + %u * stride", i, i);
	VKQS_EXPECTF(ctx, all_guard(d + 3 * STRIDE, 3 * STRIDE),
		     "bytes written past dataSize (%u)", 3 * STRIDE);
}

/* firstQuery 1, two queries: the bytes of queries 1 and 2 of a read of all
 * three, at the start of pData. */
static void first_query(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct intel in = intel_setup(ctx, 3);
	run_queries(ctx, &in, 3);
	uint8_t *all = guarded(ctx, 3 * STRIDE), *two = guarded(ctx, 2 * STRIDE);
	VKQS_CHECK(ctx, get(ctx, &in, 0, 3, all, 3 * STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT));
	VKQS_CHECK(ctx, get(ctx, &in, 1, 2, two, 2 * STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT));
	VKQS_EXPECTF(ctx, memcmp(all + STRIDE, two, 2 * STRIDE) == 0,
		     "queries 1 and 2 read with firstQuery 1 differ from the same queries read "
		     "with firstQuery 0");
	VKQS_EXPECTF(ctx, all_guard(two + 2 * STRIDE, 2 * STRIDE), "bytes written past dataSize");
}

/* Stride STRIDE and 2 x STRIDE: each query's first STRIDE bytes agree. */
static void stride_independent(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	struct intel in = intel_setup(ctx, 2);
	run_queries(ctx, &in, 2);
	uint8_t *a = guarded(ctx, 2 * STRIDE), *b = guarded(ctx, 4 * STRIDE);
	VKQS_CHECK(ctx, get(ctx, &in, 0, 2, a, 2 * STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT));
	VKQS_CHECK(ctx, get(ctx, &in, 0, 2, b, 4 * STRIDE, 2 * STRIDE, VK_QUERY_RESULT_WAIT_BIT));
	for (uint32_t i = 0; i < 2; i++) {
		VKQS_EXPECTF(ctx, memcmp(a + i * STRIDE, b + 2 * i * STRIDE, STRIDE) == 0,
			     "query %u read at stride %u and at stride %u differs", i, STRIDE,
			     2 * STRIDE);
		VKQS_EXPECTF(ctx, all_guard(b + (2 * i + 1) * STRIDE, STRIDE),
			     "query %u at stride %u: bytes written in its second half", i,
			     2 * STRIDE);
	}
}

/* Markers ------------------------------------------------------------------*/

enum marker_place { MARK_IN_QUERY, MARK_IN_PASS, MARK_OUTSIDE };
static const enum marker_place marker_places[] = {MARK_IN_QUERY, MARK_IN_PASS, MARK_OUTSIDE};
static void marker_name(const void *p, char *b, size_t n)
{
	static const char *const names[] = {"in_query", "in_render_pass", "outside_query"};
	snprintf(b, n, "%s", names[*(const enum marker_place *)p]);
}

/* Markers and stream markers (within the valid bits) record VK_SUCCESS
 * where they are set, and the query still completes. */
static void markers(struct vkqs_ctx *ctx, const void *param)
{
	const enum marker_place where = *(const enum marker_place *)param;
	struct intel in = intel_setup(ctx, 1);
	VkPerformanceValueINTEL bits;
	VKQS_CHECK(ctx, D->vkGetPerformanceParameterINTEL(
				DEV, VK_PERFORMANCE_PARAMETER_TYPE_STREAM_MARKER_VALID_BITS_INTEL, &bits));
	uint32_t mask = bits.data.value32 >= 32 ? UINT32_MAX : (1u << bits.data.value32) - 1;
	VkPerformanceMarkerInfoINTEL m = {.sType = VK_STRUCTURE_TYPE_PERFORMANCE_MARKER_INFO_INTEL,
					  .marker = 0x123456789abcdefull};
	VkPerformanceStreamMarkerInfoINTEL sm = {
		.sType = VK_STRUCTURE_TYPE_PERFORMANCE_STREAM_MARKER_INFO_INTEL,
		.marker = 0x5a5a5a5au & mask};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, in.pool, 0, 1);
	VkResult r1 = VK_SUCCESS, r2 = VK_SUCCESS;
	if (where == MARK_OUTSIDE) {
		r1 = D->vkCmdSetPerformanceMarkerINTEL(cb, &m);
		r2 = D->vkCmdSetPerformanceStreamMarkerINTEL(cb, &sm);
	}
	D->vkCmdBeginQuery(cb, in.pool, 0, 0);
	if (where == MARK_IN_QUERY) {
		r1 = D->vkCmdSetPerformanceMarkerINTEL(cb, &m);
		r2 = D->vkCmdSetPerformanceStreamMarkerINTEL(cb, &sm);
	}
	vkqs_target_begin(ctx, cb, in.t, 1.0f);
	if (where == MARK_IN_PASS) {
		r1 = D->vkCmdSetPerformanceMarkerINTEL(cb, &m);
		r2 = D->vkCmdSetPerformanceStreamMarkerINTEL(cb, &sm);
	}
	vkqs_draw_rect(ctx, cb, in.p, in.t, 0, 0, FB, FB, 0.5f);
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, in.pool, 0);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	VKQS_EXPECTF(ctx, r1 == VK_SUCCESS, "vkCmdSetPerformanceMarkerINTEL: %s",
		     vkqs_vk_result_name(r1));
	VKQS_EXPECTF(ctx, r2 == VK_SUCCESS, "vkCmdSetPerformanceStreamMarkerINTEL: %s",
		     vkqs_vk_result_name(r2));
	uint8_t *d = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "the query with markers: %s", vkqs_vk_result_name(r));
}

/* Overrides ----------------------------------------------------------------*/

struct override_param {
	VkPerformanceOverrideTypeINTEL type;
	bool enable;
};
static const struct override_param overrides[] = {
	{VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL, true},
	{VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL, false},
	{VK_PERFORMANCE_OVERRIDE_TYPE_FLUSH_GPU_CACHES_INTEL, true},
};
static void override_name(const void *p, char *b, size_t n)
{
	const struct override_param *o = p;
	snprintf(b, n, "%s_%s",
		 o->type == VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL ? "null_hardware"
									     : "flush_gpu_caches",
		 o->enable ? "enabled" : "disabled");
}

/* Inside the render pass (after its load op cleared the target to 0), the
 * override, the rectangle over the whole target, the override disabled
 * again; then the target is copied to a buffer.  Null hardware enabled:
 * every pixel still 0; otherwise every pixel written (non-zero). */
static void override(struct vkqs_ctx *ctx, const void *param)
{
	const struct override_param *o = param;
	struct intel in = intel_setup(ctx, 1);
	struct vkqs_buffer *buf = vkqs_buffer_host(ctx, (VkDeviceSize)FB * FB * 4,
						   VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	VkPerformanceOverrideInfoINTEL on = {.sType = VK_STRUCTURE_TYPE_PERFORMANCE_OVERRIDE_INFO_INTEL,
					     .type = o->type, .enable = o->enable};
	VkPerformanceOverrideInfoINTEL off = on;
	off.enable = VK_FALSE;
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, in.pool, 0, 1);
	D->vkCmdBeginQuery(cb, in.pool, 0, 0);
	vkqs_target_begin(ctx, cb, in.t, 1.0f);
	VkResult r1 = D->vkCmdSetPerformanceOverrideINTEL(cb, &on);
	vkqs_draw_rect(ctx, cb, in.p, in.t, 0, 0, FB, FB, 0.5f);
	VkResult r2 = o->type == VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL
			      ? D->vkCmdSetPerformanceOverrideINTEL(cb, &off)
			      : VK_SUCCESS;
	vkqs_target_end(ctx, cb);
	D->vkCmdEndQuery(cb, in.pool, 0);
	vkqs_cmd_image_barrier(ctx, cb, in.t->color, VK_IMAGE_ASPECT_COLOR_BIT, 1,
			       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
			       VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
			       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
			       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
			       VK_ACCESS_TRANSFER_READ_BIT);
	VkBufferImageCopy region = {0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0},
				    {FB, FB, 1}};
	D->vkCmdCopyImageToBuffer(cb, in.t->color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf->buf, 1,
				  &region);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	VKQS_EXPECTF(ctx, r1 == VK_SUCCESS && r2 == VK_SUCCESS,
		     "vkCmdSetPerformanceOverrideINTEL: %s, %s", vkqs_vk_result_name(r1),
		     vkqs_vk_result_name(r2));
	vkqs_buffer_invalidate(ctx, buf);
	const uint32_t *px = (const uint32_t *)(const void *)buf->map;
	uint32_t written = 0;
	for (uint32_t i = 0; i < FB * FB; i++)
		written += px[i] != 0;
	bool null_hw = o->type == VK_PERFORMANCE_OVERRIDE_TYPE_NULL_HARDWARE_INTEL && o->enable;
	if (null_hw)
		VKQS_EXPECTF(ctx, written == 0,
			     "a draw under NULL_HARDWARE wrote %u of %u pixels", written, FB * FB);
	else
		VKQS_EXPECTF(ctx, written == FB * FB,
			     "the draw wrote %u of %u pixels", written, FB * FB);
	uint8_t *d = guarded(ctx, STRIDE);
	VkResult r = get(ctx, &in, 0, 1, d, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS, "the query around the override: %s",
		     vkqs_vk_result_name(r));
}

/* In flight (bug class 2 of issue 38, WAIT not honoured): query 0 around
 * a render pass, submitted behind a shut gate (framework/gate.h) after a
 * reset that completed.  A WAIT read issued while the gate is shut returns
 * only after it opened, VK_SUCCESS, the bytes a read after the fence
 * returns.  (No read without WAIT: VK_SUCCESS there does not say the query
 * is available, the spec only says "may return VK_NOT_READY", and the
 * report's size is not known, so neither is the place of an availability
 * word.) */
#define INTEL_GATE_NS (100ull * 1000 * 1000)

static void inflight_wait(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	vkqs_require_feature(ctx, "timelineSemaphore");
	struct intel in = intel_setup(ctx, 1);
	uint8_t *v = guarded(ctx, STRIDE), *fin = guarded(ctx, STRIDE);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, in.pool, 0, 1);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdBeginQuery(cb, in.pool, 0, 0);
	draw_pass(ctx, cb, &in);
	D->vkCmdEndQuery(cb, in.pool, 0);
	vkqs_cmd_end(ctx, cb);
	VkFence fence = vkqs_fence(ctx);
	struct vkqs_gate *g = vkqs_gate_create(ctx, INTEL_GATE_NS);
	vkqs_submit_gated(ctx, g, cb, fence);
	/* --- the gate is shut until its timer opens it, while WAIT waits --- */
	VkResult r = get(ctx, &in, 0, 1, v, STRIDE, STRIDE, VK_QUERY_RESULT_WAIT_BIT);
	bool waited = vkqs_gate_opened_by_now(g);
	vkqs_gate_release(ctx, g);
	/* --- the gate is open --- */
	vkqs_fence_wait(ctx, fence);
	VkResult rf = get(ctx, &in, 0, 1, fin, STRIDE, STRIDE, 0);
	VKQS_ASSERTF(ctx, rf == VK_SUCCESS, "without WAIT after the fence: %s",
		     vkqs_vk_result_name(rf));
	VKQS_EXPECTF(ctx, waited,
		     "vkGetQueryPoolResults with WAIT returned before the submission that writes "
		     "the query could start (its gate was shut)");
	VKQS_EXPECTF(ctx, r == VK_SUCCESS && memcmp(v, fin, STRIDE) == 0,
		     "the WAIT read returned %s%s", vkqs_vk_result_name(r),
		     memcmp(v, fin, STRIDE) ? ", bytes other than the read after the fence" : "");
}

static const struct vkqs_case cases[] = {
	{"parameters", parameter, SPEC_PARAM, VKQS_PARAMS(parameters, parameter_name)},
	{"lifecycle.initialize_again", reinitialize, SPEC_CONFIG},
	{"lifecycle.two_configurations", two_configs, SPEC_CONFIG},
	{"availability.wait_then_read", available, SPEC_QUERY},
	{"availability.not_ready_after_reset", not_ready_after_reset, SPEC_QUERY,
	 VKQS_PARAMS(reset_params, reset_name)},
	{"availability.inflight_wait", inflight_wait,
	 SPEC_QUERY "; 18.2 WAIT waits for availability (read while its render pass is held "
		    "behind the host)"},
	{"layout.within_data_size", within_data_size, SPEC_LAYOUT},
	{"layout.first_query", first_query, SPEC_LAYOUT},
	{"layout.stride_independent", stride_independent, SPEC_LAYOUT},
	{"marker", markers, SPEC_MARKER, VKQS_PARAMS(marker_places, marker_name)},
	{"override", override, SPEC_NULL_HW, VKQS_PARAMS(overrides, override_name)},
};
VKQS_AREA(intel_perf, cases);
