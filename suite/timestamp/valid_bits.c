/* vkqs.timestamp.valid_bits.*: bits above timestampValidBits are zero, per queue. */
#include "timestamp.h"

/* Whether the family may write at the stage: graphics and compute families
 * support transfer operations whether or not they report TRANSFER_BIT
 * (VkQueueFlagBits). */
static bool stage2_usable(const struct vkqs_ctx *ctx, uint32_t family,
			  const struct stage2_param *p)
{
	VkQueueFlags f = ctx->vk->info.families[family].flags;
	if (f & Q_GC)
		f |= VK_QUEUE_TRANSFER_BIT;
	if (p->queues && !(p->queues & f))
		return false;
	return !p->feature || vkqs_device_feature(&ctx->vk->info, p->feature);
}

/* Writes on every queue the fixture has, at stages every queue type
 * supports (VUID-vkCmdWriteTimestamp-pipelineStage-04074: TOP, BOTTOM and
 * ALL_COMMANDS are valid anywhere, TRANSFER on transfer, graphics and
 * compute queues); the bits above the family's timestampValidBits must be
 * zero, and the series must be ordered like any other. */
static void valid_bits_queue(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct vkqs_queue *q = ts_pick_queue(ctx, p);
	static const VkPipelineStageFlagBits stages[] = {
		VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_TRANSFER_BIT,
		VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
		VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	};
	const uint32_t n = 8;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, p->what)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, n);
	ts_record_series(ctx, cb, pool, 0, n, stages, VKQS_ARRAY_LEN(stages), &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, n, &s);
	ts_expect_series(ctx, &s);
}

/* The series of valid_bits.queue written with vkCmdWriteTimestamp2 at every
 * stage the queue's family supports, in turn, with fills and copies
 * between: each value within the family's timestampValidBits, each not
 * before the one it happens-after, whatever stage either was written at. */
static void valid_bits_queue_sync2(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	ts_require_sync2(ctx);
	struct vkqs_queue *q = ts_pick_queue(ctx, p);
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, p->what)};
	VkPipelineStageFlags2 stages[TS_MAX];
	uint32_t ns = 0;
	for (size_t i = 0; i < VKQS_ARRAY_LEN(stages2_outside) && ns < TS_MAX; i++)
		if (stage2_usable(ctx, q->family, &stages2_outside[i]))
			stages[ns++] = stages2_outside[i].stage;
	const uint32_t n = ns < 4 ? 4 : ns;
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {
		.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0),
		.copy_dst = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0),
	};

	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, n);
	ts_record_writes(ctx, cb, pool, 0, n, stages, ns, true, &w);
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, n, &s);
	ts_expect_series(ctx, &s);
}

static const struct vkqs_case cases[] = {
	{.name = "valid_bits.queue",
	 .fn = valid_bits_queue,
	 .spec = "VkQueueFamilyProperties: timestampValidBits is the unsigned integer "
		 "count of meaningful bits in the timestamps written via "
		 "vkCmdWriteTimestamp; bits outside the valid range are guaranteed to "
		 "be zeros",
	 .params = VKQS_PARAMS(queue_params, ts_queue_name)},
	{.name = "valid_bits.queue_sync2",
	 .fn = valid_bits_queue_sync2,
	 .spec = "VkQueueFamilyProperties: bits outside the valid range are guaranteed "
		 "to be zeros; 18.5 (vkCmdWriteTimestamp2): " ORDER_SPEC_TAIL,
	 .params = VKQS_PARAMS(queue_params, ts_queue_name)},
};

VKQS_GROUP(timestamp, valid_bits, cases);
