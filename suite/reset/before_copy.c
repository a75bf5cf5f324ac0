/* vkqs.reset.before_copy.*: a copy recorded after a reset sees the queries
 * unavailable. */
#include "reset.h"

struct before_copy_param {
	uint8_t type;
	uint8_t bits;
};

static const struct before_copy_param before_copy_params[] = {
	{QT_OCCLUSION, 32},
	{QT_OCCLUSION, 64},
	{QT_TIMESTAMP, 32},
	{QT_TIMESTAMP, 64},
};

static void before_copy_name(const void *param, char *buf, size_t size)
{
	const struct before_copy_param *p = param;
	snprintf(buf, size, "%s_%u", qtype_names[p->type], p->bits);
}

/* Queries 0 and 1 hold results of an earlier submission; a command buffer
 * resets query 1 and then copies both WITH_AVAILABILITY: the reset happens
 * before the copy (18.2), so query 1 reads availability 0 (its value is
 * undefined: "results for all queries ... are copied") while query 0 keeps
 * its final result.  Without WITH_AVAILABILITY (or PARTIAL) a copy of a
 * reset query is flagged by Vulkan-ValidationLayers 1.3.239 ("Requesting a
 * copy from query to buffer ... QUERYRESULT_NO_DATA"), so this form is
 * not run. */
static void before_copy(struct vkqs_ctx *ctx, const void *param)
{
	const struct before_copy_param *p = param;
	const uint32_t n = 2, gen = 5;
	struct scene *s = reset_scene_create(ctx, p->type, n, 0, false);
	VkQueryResultFlags flags = VK_QUERY_RESULT_WITH_AVAILABILITY_BIT |
				   (p->bits == 64 ? VK_QUERY_RESULT_64_BIT : 0);
	reset_use_now(ctx, s, 0, n, gen);
	uint64_t known[2];
	reset_read_baseline(ctx, s, 0, n, known);

	struct qexp e[2] = {reset_exp_known(s, 0, gen, known[0]), reset_exp_reset(PATH_COPY, flags)};
	struct rb *r = reset_rb_create(ctx, s, PATH_COPY, 0, n, flags, e);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	D->vkCmdResetQueryPool(cb, s->pool, 1, 1);
	reset_rb_record_copy(ctx, r, cb);
	reset_submit_wait_one(ctx, cb);
	reset_rb_check(ctx, r, "copy recorded after a reset of query 1");
}

/* The same over a large range: a pool of 65536 timestamps, six of them
 * written by an earlier submission; one command buffer fills the
 * destination (a large clear, which drivers may run as a compute
 * dispatch), resets queries 1..65535 and copies the whole pool WITH_-
 * AVAILABILITY.  Query 0 keeps its timestamp, every other availability word
 * is 0.  anv flushed the wrong cache after such internal clears and copies
 * (mesa c53a4711cb7, 0339ec4240c). */
static void before_copy_large(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	enum { N = 65536 };
	static const uint32_t written[] = {0, 1, 1000, 32767, 32768, N - 1};
	struct vkqs_queue *q = vkqs_require_queue(ctx, &ctx->vk->gfx, "graphics");
	if (ctx->vk->info.families[q->family].timestamp_valid_bits == 0)
		vkqs_skip(ctx, "the graphics queue family reports timestampValidBits 0");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, N, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, N);
	for (uint32_t i = 0; i < VKQS_ARRAY_LEN(written); i++)
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, written[i]);
	vkqs_cmd_submit_wait(ctx, q, cb);
	uint64_t first[2] = {0, 0};
	VkResult r = D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(first), first, sizeof(first),
					      F64A);
	VKQS_EXPECTF(ctx, r == VK_SUCCESS && first[1] != 0,
		     "query 0, reset and written by a submission that completed, reads %s, "
		     "availability %" PRIu64, vkqs_vk_result_name(r), first[1]);
	if (r != VK_SUCCESS || !first[1])
		return;

	const VkDeviceSize stride = 16, size = (VkDeviceSize)N * stride;
	struct vkqs_buffer *dst = vkqs_buffer_device(ctx, size, 0);
	struct vkqs_buffer *host = vkqs_buffer_host(ctx, size, 0);
	cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdFillBuffer(cb, dst->buf, 0, size, 0xa5a5a5a5u);
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
			      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
			      .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
					       VK_ACCESS_TRANSFER_READ_BIT};
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
				0, 1, &mb, 0, NULL, 0, NULL);
	D->vkCmdResetQueryPool(cb, pool, 1, N - 1);
	D->vkCmdCopyQueryPoolResults(cb, pool, 0, N, dst->buf, 0, stride, F64A);
	D->vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
				0, 1, &mb, 0, NULL, 0, NULL);
	VkBufferCopy region = {0, 0, size};
	D->vkCmdCopyBuffer(cb, dst->buf, host->buf, 1, &region);
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_submit_wait(ctx, q, cb);
	vkqs_buffer_invalidate(ctx, host);
	const uint64_t *w = (const uint64_t *)host->map;
	VKQS_EXPECTF(ctx, w[0] == first[0] && w[1] != 0,
		     "query 0 (not reset) copied as %" PRIu64 ", availability %" PRIu64
		     "; vkGetQueryPoolResults read %" PRIu64, w[0], w[1], first[0]);
	uint32_t stale = 0, at = 0;
	for (uint32_t i = 1; i < N; i++)
		if (w[2 * i + 1] != 0 && !stale++)
			at = i;
	VKQS_EXPECTF(ctx, stale == 0,
		     "copy recorded after a reset of queries 1..%u: %u of them read available "
		     "(first: query %u, availability %" PRIu64 ")", N - 1, stale, at,
		     stale ? w[2 * at + 1] : 0);
}

static const struct vkqs_case cases[] = {
	{.name = "before_copy.copy_sees_reset",
	 .fn = before_copy,
	 .spec = SPEC_COPY_SCOPES ": a reset followed by a copy WITH_AVAILABILITY "
				  "gives availability 0 for the reset query and the final "
				  "result of the one not reset",
	 .params = VKQS_PARAMS(before_copy_params, before_copy_name)},
	{.name = "before_copy.large_range_after_fill",
	 .fn = before_copy_large,
	 .spec = SPEC_COPY_SCOPES ": a reset of 65535 queries after a large vkCmdFillBuffer, "
				  "then a copy of the pool WITH_AVAILABILITY: availability 0 for "
				  "every reset query"},
};

VKQS_GROUP(reset, before_copy, cases);
