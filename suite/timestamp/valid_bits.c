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

/* Timestamps on the video decode and encode queues vkqs opens (drivers
 * shipped families that report timestampValidBits but could not write:
 * anv's video engine needed its own end-of-pipe flush, mesa 8c9a7f77303;
 * radv reported bits for video families it was "not sure" could write,
 * 16682b60546).  A family reporting non-zero bits supports timestamps
 * (VkQueueFamilyProperties: "The valid range for the count is 36 to 64
 * bits, or a value of 0, indicating no support for timestamps"), and
 * vkCmdWriteTimestamp is a command of video queues (vk.xml queues).  Four
 * writes at TOP and BOTTOM, a barrier between: after the fence each is
 * available (18.5: the query is made available when the write executes),
 * within the bits, and ordered. */
static const char *const video_names[] = {"decode", "encode"};
static const uint8_t video_params[] = {0, 1};
static void video_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", video_names[*(const uint8_t *)param]);
}

static void valid_bits_video(struct vkqs_ctx *ctx, const void *param)
{
	bool encode = *(const uint8_t *)param;
	struct vkqs_queue *q = encode ? &ctx->vk->encode : &ctx->vk->decode;
	if (q->family == VKQS_NO_FAMILY)
		vkqs_skip(ctx, "no video %s queue (VK_KHR_video_%s_queue)",
			  encode ? "encode" : "decode", encode ? "encode" : "decode");
	uint32_t bits = ctx->vk->info.families[q->family].timestamp_valid_bits;
	if (!bits)
		vkqs_skip(ctx, "the video %s family %u reports timestampValidBits 0 (no timestamps)",
			  encode ? "encode" : "decode", q->family);
	const uint32_t n = 4;
	struct ts_set s = {.bits = bits};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, n);
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
						VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 0,
						NULL);
		D->vkCmdWriteTimestamp(cb, i % 2 ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT
						 : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
				       pool, i);
	}
	vkqs_cmd_end(ctx, cb);
	s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	/* after the fence, without WAIT: every write has executed */
	uint64_t w[2 * 4];
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, n, sizeof(w), w, 16,
					      VK_QUERY_RESULT_64_BIT |
						      VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	uint32_t unavailable = 0;
	for (uint32_t i = 0; i < n; i++) {
		s.v[i] = w[2 * i];
		unavailable += w[2 * i + 1] == 0;
	}
	s.n = n;
	VKQS_ASSERTF(ctx, r == VK_SUCCESS && unavailable == 0,
		     "%u of %u timestamps written on the video %s queue (family %u, "
		     "timestampValidBits %u) are unavailable after its fence (%s): the family "
		     "claims timestamps it does not write",
		     unavailable, n, encode ? "encode" : "decode", q->family, bits,
		     vkqs_vk_result_name(r));
	ts_expect_series(ctx, &s);
}

static const struct vkqs_case cases[] = {
	{.name = "valid_bits.video_queue",
	 .fn = valid_bits_video,
	 .spec = "VkQueueFamilyProperties: timestampValidBits 36 to 64, or 0 \"indicating no "
		 "support for timestamps\"; 18.5: vkCmdWriteTimestamp on the video decode and "
		 "encode queues, available after the fence, within the bits, ordered",
	 .params = VKQS_PARAMS(video_params, video_name)},
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
