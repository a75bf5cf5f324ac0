/* vkqs.timestamp.order.*: timestamps of two command buffers, and from queue to queue
 * compared through calibrated timestamps. */
#include "timestamp.h"

/* Two command buffers in one batch of one vkQueueSubmit: a full barrier at
 * the start of the second has every command of the first in its first scope
 * (submission order spans the batch), so its writes happen-after the
 * first's. */
static void order_two_command_buffers(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cbs[2];
	cbs[0] = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cbs[0], pool, 0, 4);
	ts_record_series(ctx, cbs[0], pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cbs[0]);
	cbs[1] = vkqs_cmd_begin(ctx, q);
	vkqs_cmd_full_barrier(ctx, cbs[1]);
	ts_record_series(ctx, cbs[1], pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cbs[1]);
	s.host_ns = vkqs_submit_timed(ctx, q, cbs, 2);
	ts_get64(ctx, pool, 4, &s);
	ts_expect_series(ctx, &s);
}

/* spec 18.5 (1.3.273+): "If VK_KHR_calibrated_timestamps or
 * VK_EXT_calibrated_timestamps is enabled, this extends to timestamp writes
 * across all submissions on the same logical device" (the
 * fixture enables the KHR or EXT extension whenever present).  The second
 * submission happens-after the first: fence signal, host wait, then
 * vkQueueSubmit, whose commands happen-after host operations before it. */
static void order_two_submissions_calibrated(struct vkqs_ctx *ctx, const void *param)
{
	if (!ts_has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported: the spec "
			       "orders timestamps only within one submission");
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb0 = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb0, pool, 0, 4);
	ts_record_series(ctx, cb0, pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cb0);
	VkCommandBuffer cb1 = vkqs_cmd_begin(ctx, q);
	ts_record_series(ctx, cb1, pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cb1);
	uint64_t t0 = vkqs_now_ns();
	vkqs_submit_timed(ctx, q, &cb0, 1);
	vkqs_submit_timed(ctx, q, &cb1, 1);
	s.host_ns = vkqs_now_ns() - t0;
	ts_get64(ctx, pool, 4, &s);
	ts_expect_series(ctx, &s);
}

struct q2q_param {
	const char *name;
	enum which_queue from, to; /* index queue_params */
};

static const struct q2q_param q2q_params[] = {
	{"graphics_to_transfer", QUEUE_GRAPHICS, QUEUE_TRANSFER},
	{"transfer_to_graphics", QUEUE_TRANSFER, QUEUE_GRAPHICS},
	{"graphics_to_compute", QUEUE_GRAPHICS, QUEUE_COMPUTE},
	{"compute_to_graphics", QUEUE_COMPUTE, QUEUE_GRAPHICS},
};

static void q2q_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct q2q_param *)param)->name);
}

/* order.two_submissions_calibrated from one queue to another: two writes on
 * the first queue, fence wait, two on the second.  The second submission
 * happens-after the first as there, and with calibrated timestamps 18.5's
 * rule covers "all submissions on the same logical device", whatever
 * queue.  Every family writes in the one device time domain ("Timestamps
 * written by this command must be in the VK_TIME_DOMAIN_DEVICE_EXT time
 * domain") keeping its low timestampValidBits and wrapping to zero there,
 * so values of two families compare modulo 2^(the smaller count).  Without
 * the extension the spec orders nothing across submissions (bug class 21:
 * per-engine clocks), so the case is NotSupported. */
static void order_queue_to_queue(struct vkqs_ctx *ctx, const void *param)
{
	const struct q2q_param *p = param;
	if (!ts_has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported: the spec "
			       "orders timestamps only within one submission");
	const struct queue_param *pa = &queue_params[p->from], *pb = &queue_params[p->to];
	struct vkqs_queue *qa = ts_pick_queue(ctx, pa), *qb = ts_pick_queue(ctx, pb);
	uint32_t bits_a = ts_queue_bits(ctx, qa, pa->what), bits_b = ts_queue_bits(ctx, qb, pb->what);
	uint32_t bits = bits_a < bits_b ? bits_a : bits_b;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 4, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb0 = vkqs_cmd_begin(ctx, qa);
	ts_reset_for(ctx, qa, cb0, pool, 4);
	ts_record_series(ctx, cb0, pool, 0, 2, bottom_top, 1, &w);
	vkqs_cmd_end(ctx, cb0);
	VkCommandBuffer cb1 = vkqs_cmd_begin(ctx, qb);
	ts_record_series(ctx, cb1, pool, 2, 2, bottom_top + 1, 1, &w);
	vkqs_cmd_end(ctx, cb1);
	uint64_t t0 = vkqs_now_ns();
	vkqs_submit_timed(ctx, qa, &cb0, 1);
	vkqs_submit_timed(ctx, qb, &cb1, 1);
	uint64_t host_ns = vkqs_now_ns() - t0;
	struct ts_set s = {0};
	ts_get64(ctx, pool, 4, &s);

	static const char *what[4] = {"first-queue timestamp 0", "first-queue timestamp 1",
				      "second-queue timestamp 2", "second-queue timestamp 3"};
	for (uint32_t i = 0; i < 4; i++)
		VKQS_TS_EXPECT_VALID(ctx, what[i], s.v[i], i < 2 ? bits_a : bits_b);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[0], s.v[0], what[1], s.v[1], bits_a, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[2], s.v[2], what[3], s.v[3], bits_b, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, what[1], s.v[1], what[2], s.v[2], bits, host_ns);
}

static const struct vkqs_case cases[] = {
	{.name = "order.two_command_buffers_one_submit",
	 .fn = order_two_command_buffers,
	 .spec = ORDER_SPEC},
	{.name = "order.two_submissions_calibrated",
	 .fn = order_two_submissions_calibrated,
	 .spec = "18.5: If VK_EXT_calibrated_timestamps is enabled, this extends to "
		 "timestamp writes across all submissions on the same logical device"},
	{.name = "order.queue_to_queue_calibrated",
	 .fn = order_queue_to_queue,
	 .spec = "18.5: If VK_EXT_calibrated_timestamps is enabled, this extends to "
		 "timestamp writes across all submissions on the same logical device",
	 .params = VKQS_PARAMS(q2q_params, q2q_name)},
};

VKQS_GROUP(timestamp, order, cases);
