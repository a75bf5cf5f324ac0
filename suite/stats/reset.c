/* vkqs.stats.reset.*: resets of a pipeline statistics pool - on the host, before
 * and after a copy in one command buffer - and copies of its several values per
 * query: at stride 0, and to a device address (VK_KHR_device_address_commands).
 *
 * Each case holds one query of the six core graphics counters (six values in
 * bit order, 18.2) around one draw of rect A inside a subpass, so the values
 * are those of stats_add_rect_draw.  The pool reset rules are 18.2's:
 * vkResetQueryPool "sets the status of the queries to unavailable" like
 * vkCmdResetQueryPool; a copy "is guaranteed to see the effect of previous
 * uses of vkCmdResetQueryPool in the same queue, without any additional
 * synchronization"; a reset's first synchronization scope holds every earlier
 * command referencing the queries, so it does not change what an earlier
 * copy wrote. */
#include "stats.h"

#define MASK CORE_GRAPHICS
/* The render pass instance with query 0 around one draw of r. */
static void record_query(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct gfx *g,
			 const struct vkqs_pipeline *p, struct rect r)
{
	vkqs_target_begin(ctx, cb, g->t, 1.0f);
	D->vkCmdBeginQuery(cb, g->pool, 0, 0);
	stats_draw(ctx, cb, p, g->t, r);
	D->vkCmdEndQuery(cb, g->pool, 0);
	vkqs_target_end(ctx, cb);
}

static struct expect rect_expect(struct vkqs_ctx *ctx, struct rect r, const char *scene)
{
	struct expect e = stats_expect_zero(scene);
	stats_add_rect_draw(ctx, &e, r, 1);
	return e;
}

/* Without WAIT, an unavailable (reset) query: VK_NOT_READY (or VK_SUCCESS,
 * below) and availability 0 (18.2: "A value of zero indicates that the
 * results are not yet available"); its values are undefined and not
 * checked. */
static void expect_reset(struct vkqs_ctx *ctx, VkQueryPool pool, const char *after)
{
	uint64_t v[NSTATS + 1];
	uint32_t n = stats_nvalues(MASK);
	memset(v, STATS_GUARD_BYTE, sizeof(v));
	VkResult got = D->vkGetQueryPoolResults(DEV, pool, 0, 1, (n + 1) * 8ull, v, (n + 1) * 8ull,
						VK_QUERY_RESULT_64_BIT |
							VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	/* 18.2: "may return VK_NOT_READY"; earlier versions and the CTS require
	 * it (VK_SUCCESS: CompatibilityWarning, as in the reset area) */
	vkqs_expect_not_ready(ctx, got, "vkGetQueryPoolResults without WAIT of a reset "
					"statistics query");
	uint32_t zero = 0;
	while (zero < n && v[zero] != 0)
		zero++;
	VKQS_EXPECTF(ctx, v[n] == 0,
		     "after %s the availability word (after the %u values) is 0x%llx, not 0 "
		     "(the first zero word is word %u)", after, n, (unsigned long long)v[n], zero);
}

/* host_reset: vkResetQueryPool instead of vkCmdResetQueryPool, before the
 * first use and between two uses; the second use counts its own draw only. */
static void host_reset(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	stats_require_stats(ctx);
	if (!ctx->vk->f12.hostQueryReset)
		vkqs_skip(ctx, "feature hostQueryReset (Vulkan 1.2) is not supported");
	vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	struct gfx g = {.mask = MASK};
	g.t = vkqs_target_create(ctx, FB, FB, VK_SAMPLE_COUNT_1_BIT, false);
	g.pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1, MASK);
	const struct vkqs_pipeline *p = stats_rect_pipeline(ctx, g.t);
	static const struct rect big = {4, 4, 56, 48};

	D->vkResetQueryPool(DEV, g.pool, 0, 1);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_query(ctx, cb, &g, p, big);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct expect e1 = rect_expect(ctx, big, "first use after a host reset");
	stats_check_query(ctx, g.pool, 0, MASK, &e1);

	D->vkResetQueryPool(DEV, g.pool, 0, 1);
	expect_reset(ctx, g.pool, "vkResetQueryPool");

	cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	record_query(ctx, cb, &g, p, RA);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, cb);
	struct expect e2 = rect_expect(ctx, RA, "second use after a host reset: rect A only");
	stats_check_query(ctx, g.pool, 0, MASK, &e2);
}

struct width_param {
	bool is64;
};
static const struct width_param widths[] = {{false}, {true}};
static void width_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%u", ((const struct width_param *)param)->is64 ? 64u : 32u);
}

/* A guarded destination: `pre` bytes, the result region, `post` bytes. */
struct dst {
	struct vkqs_buffer *b;
	size_t pre, region, post;
};

static struct dst dst_create(struct vkqs_ctx *ctx, size_t word, size_t region,
			     VkBufferUsageFlags usage)
{
	struct dst d = {NULL, 2 * word, region, 2 * word};
	size_t total = d.pre + d.region + d.post;
	d.b = vkqs_buffer_host(ctx, total, usage);
	memset(d.b->map, STATS_GUARD_BYTE, total);
	vkqs_buffer_flush(ctx, d.b);
	return d;
}

static void expect_guards(struct vkqs_ctx *ctx, const struct dst *d, size_t written)
{
	VKQS_EXPECTF(ctx, stats_untouched(d->b->map, d->pre),
		     "bytes before dstOffset %zu were written", d->pre);
	VKQS_EXPECTF(ctx,
		     stats_untouched(d->b->map + d->pre + written, d->region + d->post - written),
		     "bytes after the %zu written (values and availability) were written", written);
}

/* One command buffer: the query around rect A, then per mode
 * - BEFORE_COPY: a reset, then a copy without WAIT: the copy sees the
 *   reset (availability 0; the values are undefined and not checked);
 * - AFTER_COPY: a copy with WAIT, then a reset: the copy holds the use's
 *   values, and a read after the fence sees the reset;
 * - STRIDE_ZERO: a copy with WAIT at stride 0 (VUID-vkCmdCopyQueryPool-
 *   Results-queryCount-09438 forbids it only for queryCount > 1): the six
 *   values in bit order from dstOffset, then the availability word;
 * - TO_MEMORY: vkCmdCopyQueryPoolResultsToMemoryKHR with WAIT into a device
 *   address range holding exactly the element ("Any results written for a
 *   query are written according to a layout dependent on the query type":
 *   the same six values and availability word).
 * Nothing outside the element is written. */
enum copy_mode { BEFORE_COPY, AFTER_COPY, STRIDE_ZERO, TO_MEMORY };

static void copy_case(struct vkqs_ctx *ctx, bool is64, enum copy_mode mode)
{
	if (mode == TO_MEMORY) {
		vkqs_require_feature(ctx, "VK_KHR_device_address_commands.deviceAddressCommands");
		vkqs_require_feature(ctx, "bufferDeviceAddress");
		if (!ctx->vk->copy_query_results_to_memory)
			vkqs_skip(ctx, "vkCmdCopyQueryPoolResultsToMemoryKHR is not available");
	}
	struct gfx g = stats_gfx_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, MASK, 1);
	const struct vkqs_pipeline *p = stats_rect_pipeline(ctx, g.t);
	uint32_t n = stats_nvalues(MASK);
	size_t word = is64 ? 8 : 4, elem = (n + 1) * word;
	struct dst d = dst_create(ctx, word, elem,
				  mode == TO_MEMORY ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (is64 ? VK_QUERY_RESULT_64_BIT : 0) |
				   (mode == BEFORE_COPY ? 0 : VK_QUERY_RESULT_WAIT_BIT);

	record_query(ctx, g.cb, &g, p, RA);
	if (mode == BEFORE_COPY)
		D->vkCmdResetQueryPool(g.cb, g.pool, 0, 1);
	if (mode == TO_MEMORY) {
		VkStridedDeviceAddressRangeKHR range = {
			.address = vkqs_buffer_address(ctx, d.b) + d.pre,
			.size = elem,
			.stride = elem,
		};
		ctx->vk->copy_query_results_to_memory(g.cb, g.pool, 0, 1, &range, 0, flags);
	} else {
		D->vkCmdCopyQueryPoolResults(g.cb, g.pool, 0, 1, d.b->buf, d.pre,
					     mode == STRIDE_ZERO ? 0 : elem, flags);
	}
	if (mode == AFTER_COPY)
		D->vkCmdResetQueryPool(g.cb, g.pool, 0, 1);
	vkqs_cmd_transfer_to_host_barrier(ctx, g.cb);
	stats_gfx_submit(ctx, &g);
	vkqs_buffer_invalidate(ctx, d.b);

	uint64_t a = vkqs_load_word(d.b->map + d.pre + n * word, word);
	if (mode == BEFORE_COPY) {
		VKQS_EXPECTF(ctx, a == 0,
			     "the availability word copied after vkCmdResetQueryPool is %llu, not 0",
			     (unsigned long long)a);
	} else {
		/* 18.2: the copy writes the values and the availability word of
		 * an available query (WAIT); every byte still the guard is a copy
		 * that wrote nothing, not a count. */
		if (stats_untouched(d.b->map + d.pre, elem))
			vkqs_fail(ctx, "the copy wrote nothing: all %zu bytes of the query's %u values "
				       "and availability word still hold the guard 0x%02x",
				  elem, n, STATS_GUARD_BYTE);
		uint64_t vals[NSTATS];
		for (uint32_t k = 0; k < n; k++)
			vals[k] = vkqs_load_word(d.b->map + d.pre + k * word, word);
		const char *how = mode == AFTER_COPY  ? "copied before a reset in the same command buffer"
				  : mode == TO_MEMORY ? "copied to a device address"
						      : "copied at stride 0";
		struct expect e = rect_expect(ctx, RA, how);
		stats_check_values(ctx, &e, MASK, vals, how);
		VKQS_EXPECTF(ctx, a != 0, "the availability word after the %u values is 0 (%s)", n,
			     how);
	}
	expect_guards(ctx, &d, elem);
	if (mode == AFTER_COPY)
		expect_reset(ctx, g.pool, "vkCmdResetQueryPool recorded after the copy");
}

static void before_copy(struct vkqs_ctx *ctx, const void *param)
{
	copy_case(ctx, ((const struct width_param *)param)->is64, BEFORE_COPY);
}

static void after_copy(struct vkqs_ctx *ctx, const void *param)
{
	copy_case(ctx, ((const struct width_param *)param)->is64, AFTER_COPY);
}

static void copy_stride_zero(struct vkqs_ctx *ctx, const void *param)
{
	copy_case(ctx, ((const struct width_param *)param)->is64, STRIDE_ZERO);
}

static void copy_to_memory(struct vkqs_ctx *ctx, const void *param)
{
	copy_case(ctx, ((const struct width_param *)param)->is64, TO_MEMORY);
}

#define RESET_SPEC \
	"18.2: vkResetQueryPool and vkCmdResetQueryPool set queries unavailable; a copy " \
	"sees earlier resets in the queue; a reset does not change what an earlier copy wrote"

static const struct vkqs_case cases[] = {
	{.name = "reset.host_reset", .fn = host_reset,
	 .spec = RESET_SPEC " (vkResetQueryPool before and between uses of a statistics query)"},
	{.name = "reset.before_copy", .fn = before_copy,
	 .spec = RESET_SPEC " (use, reset, copy without WAIT: availability 0)",
	 .params = VKQS_PARAMS(widths, width_name)},
	{.name = "reset.after_copy", .fn = after_copy,
	 .spec = RESET_SPEC " (use, copy with WAIT, reset: the copy keeps the values)",
	 .params = VKQS_PARAMS(widths, width_name)},
	{.name = "reset.copy_stride_zero", .fn = copy_stride_zero,
	 .spec = "18.2: the values of each statistic in bit order, the availability word "
		 "after them; VUID-vkCmdCopyQueryPoolResults-queryCount-09438 forbids stride 0 "
		 "only for queryCount > 1",
	 .params = VKQS_PARAMS(widths, width_name)},
	{.name = "reset.copy_to_device_address", .fn = copy_to_memory,
	 .spec = "vkCmdCopyQueryPoolResultsToMemoryKHR (VK_KHR_device_address_commands): "
		 "results \"written according to a layout dependent on the query type\"; 18.2: "
		 "the values of each statistic in bit order, the availability word after them",
	 .params = VKQS_PARAMS(widths, width_name)},
};

VKQS_GROUP(stats, reset, cases);
