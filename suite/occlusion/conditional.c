/* vkqs.occlusion.conditional.*: queries and conditional rendering
 * (VK_EXT_conditional_rendering).
 *
 * Conditional Rendering: "These rendering commands are limited to drawing
 * commands, dispatching commands, and clearing attachments with
 * vkCmdClearAttachments ... Other rendering commands remain unaffected by
 * conditional rendering."  A discarding predicate therefore drops the draws
 * of a block and nothing else: its query copies, resets, begins, ends and
 * timestamps execute.  nvk predicated its own copy shader away, so a
 * vkCmdCopyQueryPoolResults recorded in a discarding block wrote nothing
 * (mesa cdef36c4226).  And an occlusion result copied into the predicate
 * is the extension's use case: draw only what a previous query saw.
 *
 * Every case proves its block discarded: a visible rectangle drawn in the
 * block, inside an occlusion query, counts zero samples. */
#include <string.h>

#include "occlusion.h"

#define SPEC_COND "Conditional Rendering: \"If the 32-bit value at offset in buffer memory is " \
	"zero, then the rendering commands are discarded\"; \"Other rendering commands remain " \
	"unaffected by conditional rendering\""

static const struct rect visible = {10, 12, 20, 9};

static void cond_require(struct vkqs_ctx *ctx)
{
	vkqs_require_feature(ctx, "VK_EXT_conditional_rendering.conditionalRendering");
}

/* A predicate buffer holding `value`, written by the host before the
 * submission (whose host-write ordering covers the predicate read). */
static struct vkqs_buffer *predicate(struct vkqs_ctx *ctx, uint32_t value)
{
	struct vkqs_buffer *b = vkqs_buffer_host(ctx, 16, VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT);
	memcpy(b->map, &value, 4);
	vkqs_buffer_flush(ctx, b);
	return b;
}

static void cond_begin(struct vkqs_ctx *ctx, VkCommandBuffer cb, const struct vkqs_buffer *b,
		       bool inverted)
{
	VkConditionalRenderingBeginInfoEXT ci = {
		.sType = VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT,
		.buffer = b->buf,
		.flags = inverted ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0,
	};
	D->vkCmdBeginConditionalRenderingEXT(cb, &ci);
}

/* One render pass instance with query `q` around a draw of `visible`. */
static void measured_pass(struct vkqs_ctx *ctx, const struct occ *o, uint32_t q)
{
	vkqs_target_begin(ctx, o->cb, o->t, 1.0f);
	occ_query_draw(ctx, o, q, 0, occ_plain_pipeline(ctx, o), visible, 0.5f);
	vkqs_target_end(ctx, o->cb);
}

/* 64-bit result and availability of query q, waited for. */
static void read_query(struct vkqs_ctx *ctx, VkQueryPool pool, uint32_t q, uint64_t out[2])
{
	VKQS_ASSERT_VK(ctx,
		       D->vkGetQueryPoolResults(DEV, pool, q, 1, 2 * sizeof(uint64_t), out,
						2 * sizeof(uint64_t),
						VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
							VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
		       VK_SUCCESS);
}

/* The check every case ends with: the draw in the block was discarded, or
 * (a passing predicate) it was not. */
static void expect_block(struct vkqs_ctx *ctx, const uint64_t r[2], bool discarding)
{
	VKQS_EXPECTF(ctx, r[1] != 0, "the query around the block's draw is not available "
		     "after the fence (availability %" PRIu64 ")", r[1]);
	if (discarding)
		VKQS_EXPECTF(ctx, r[0] == 0, "the draw in the discarding block counted %" PRIu64
			     " samples; a discarded draw has none", r[0]);
	else
		VKQS_EXPECTF(ctx, r[0] != 0, "the draw in the passing block counted no samples "
			     "(a %ux%u rectangle)", visible.w, visible.h);
}

struct copy_param {
	const char *name;
	uint32_t value;
	bool inverted, discarding;
};

static const struct copy_param copy_params[] = {
	{"zero", 0, false, true},
	{"inverted_nonzero", 1, true, true},
	{"nonzero", 1, false, false},
};

static void copy_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct copy_param *)param)->name);
}

/* Query 0 counts a visible draw; then, in a conditional rendering block,
 * vkCmdCopyQueryPoolResults copies it (64-bit, WAIT, WITH_AVAILABILITY)
 * and a render pass instance draws inside query 1.  The copy must land
 * whatever the predicate: available, and non-zero as samples passed (the
 * query is non-precise, so its value need not equal vkGetQueryPoolResults'
 * read of it). */
static void copy_in_block(struct vkqs_ctx *ctx, const void *param)
{
	const struct copy_param *p = param;
	cond_require(ctx);
	struct occ o = occ_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, 2);
	struct vkqs_buffer *pred = predicate(ctx, p->value);
	struct vkqs_buffer *dst = vkqs_buffer_host(ctx, 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
	memset(dst->map, 0xa5, 64);
	vkqs_buffer_flush(ctx, dst);

	measured_pass(ctx, &o, 0);
	cond_begin(ctx, o.cb, pred, p->inverted);
	D->vkCmdCopyQueryPoolResults(o.cb, o.pool, 0, 1, dst->buf, 8, 16,
				     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
					     VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
	measured_pass(ctx, &o, 1);
	D->vkCmdEndConditionalRenderingEXT(o.cb);
	vkqs_cmd_transfer_to_host_barrier(ctx, o.cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o.cb);
	vkqs_buffer_invalidate(ctx, dst);

	uint64_t host[2], block[2], copied[2];
	read_query(ctx, o.pool, 0, host);
	read_query(ctx, o.pool, 1, block);
	memcpy(copied, dst->map + 8, sizeof(copied));
	expect_block(ctx, block, p->discarding);
	VKQS_EXPECTF(ctx, host[1] && host[0], "query 0 (a visible %ux%u rectangle, before the "
		     "block): %" PRIu64 " samples, availability %" PRIu64, visible.w, visible.h,
		     host[0], host[1]);
	/* Query 0 is non-precise: "any non-zero value" each time it is read
	 * (18.3; docs/verdicts.md, "Two reads of one query").  The copy must
	 * land, available and non-zero as the samples passed; a value other
	 * than vkGetQueryPoolResults' is legal, not portable. */
	const uint64_t unwritten = 0xa5a5a5a5a5a5a5a5ull;
	bool landed = copied[0] != unwritten || copied[1] != unwritten;
	VKQS_EXPECTF(ctx, landed && copied[0] != 0 && copied[1] != 0,
		     "vkCmdCopyQueryPoolResults in the %s block wrote value %#" PRIx64
		     ", availability %#" PRIx64 " (0xa5a5a5a5a5a5a5a5: not written); "
		     "vkGetQueryPoolResults gives %" PRIu64 ", available",
		     p->discarding ? "discarding" : "passing", copied[0], copied[1], host[0]);
	if (landed && copied[0] && copied[0] != host[0])
		vkqs_compat_warning(ctx,
				    "the copy of non-precise query 0 (%" PRIu64 ") differs from "
				    "vkGetQueryPoolResults' (%" PRIu64 "): legal (18.3: any non-zero "
				    "value), not portable",
				    copied[0], host[0]);
	uint8_t guard[8];
	memset(guard, 0xa5, 8);
	VKQS_EXPECTF(ctx, memcmp(dst->map, guard, 8) == 0 && memcmp(dst->map + 24, guard, 8) == 0,
		     "the copy wrote outside its 16 bytes at offset 8");
}

enum in_block { RESET_IN_BLOCK, QUERY_IN_BLOCK, TIMESTAMP_IN_BLOCK };

/* A discarding block (predicate zero) holding one query command.
 * - reset: query 1, made available with a result by an earlier
 *   submission, is reset in the block: afterwards it is unavailable
 *   (18.2 vkCmdResetQueryPool "sets the status of query indices ... to
 *   unavailable"), a read without WAIT has availability 0 (and "may
 *   return VK_NOT_READY").
 * - query: query 0 begins and ends in the block around the discarded draw:
 *   it becomes available with zero samples.
 * - timestamp: a timestamp written in the block becomes available. */
static void query_command_in_block(struct vkqs_ctx *ctx, enum in_block what)
{
	cond_require(ctx);
	struct occ o = occ_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, 2);
	struct vkqs_buffer *pred = predicate(ctx, 0);
	VkQueryPool ts = VK_NULL_HANDLE;
	if (what == TIMESTAMP_IN_BLOCK) {
		if (!ctx->vk->info.families[ctx->vk->gfx.family].timestamp_valid_bits)
			vkqs_skip(ctx, "the graphics queue family has timestampValidBits 0");
		ts = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 1, 0);
		D->vkCmdResetQueryPool(o.cb, ts, 0, 1);
	}
	if (what == RESET_IN_BLOCK) {
		measured_pass(ctx, &o, 1);
		vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o.cb);
		uint64_t before[2];
		read_query(ctx, o.pool, 1, before);
		VKQS_ASSERTF(ctx, before[1] != 0, "query 1 not available after its submission");
		o.cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	}
	cond_begin(ctx, o.cb, pred, false);
	if (what == RESET_IN_BLOCK)
		D->vkCmdResetQueryPool(o.cb, o.pool, 1, 1);
	if (what == TIMESTAMP_IN_BLOCK)
		D->vkCmdWriteTimestamp(o.cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, ts, 0);
	measured_pass(ctx, &o, 0);
	D->vkCmdEndConditionalRenderingEXT(o.cb);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o.cb);

	uint64_t block[2];
	read_query(ctx, o.pool, 0, block);
	expect_block(ctx, block, true);
	if (what == RESET_IN_BLOCK) {
		uint64_t r[2] = {7, 7};
		VkResult res = D->vkGetQueryPoolResults(DEV, o.pool, 1, 1, sizeof(r), r, sizeof(r),
							VK_QUERY_RESULT_64_BIT |
								VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		vkqs_expect_not_ready(ctx, res, "query 1, reset in the discarding block");
		VKQS_EXPECTF(ctx, r[1] == 0,
			     "query 1, reset in the discarding block: %s, availability %" PRIu64
			     "; the reset was discarded with the draws",
			     vkqs_vk_result_name(res), r[1]);
	}
	if (what == TIMESTAMP_IN_BLOCK) {
		uint64_t r[2] = {0, 0};
		VkResult res = D->vkGetQueryPoolResults(DEV, ts, 0, 1, sizeof(r), r, sizeof(r),
							VK_QUERY_RESULT_64_BIT |
								VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
		VKQS_EXPECTF(ctx, res == VK_SUCCESS && r[1] != 0,
			     "the timestamp written in the discarding block: %s, availability %" PRIu64
			     " after the fence", vkqs_vk_result_name(res), r[1]);
	}
}

static void reset_in_block(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	query_command_in_block(ctx, RESET_IN_BLOCK);
}

static void query_in_block(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	query_command_in_block(ctx, QUERY_IN_BLOCK);
}

static void timestamp_in_block(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	query_command_in_block(ctx, TIMESTAMP_IN_BLOCK);
}

/* The predicate is an occlusion result: query 0 around a rectangle that is
 * visible, or scissored away (zero samples), copied as a 32-bit value into
 * the predicate buffer; a barrier makes the copy visible to the predicate
 * read (VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT); then a block
 * draws inside query 1.  The buffer starts with the opposite value, so a
 * predicate read before the copy lands shows.  A non-precise result is
 * non-zero exactly when samples passed (18.3), so the block passes exactly
 * when query 0 saw samples. */
static void predicate_from_occlusion(struct vkqs_ctx *ctx, bool seen)
{
	cond_require(ctx);
	struct occ o = occ_begin(ctx, VK_SAMPLE_COUNT_1_BIT, false, 2);
	struct vkqs_buffer *pred = predicate(ctx, seen ? 0 : 1);

	vkqs_target_begin(ctx, o.cb, o.t, 1.0f);
	if (!seen) {
		VkRect2D away = {{40, 40}, {8, 8}}; /* disjoint from `visible` */
		D->vkCmdSetScissor(o.cb, 0, 1, &away);
	}
	occ_query_draw(ctx, &o, 0, 0, occ_plain_pipeline(ctx, &o), visible, 0.5f);
	vkqs_target_end(ctx, o.cb);
	D->vkCmdCopyQueryPoolResults(o.cb, o.pool, 0, 1, pred->buf, 0, 4, VK_QUERY_RESULT_WAIT_BIT);
	VkMemoryBarrier mb = {
		.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
		.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
		.dstAccessMask = VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT,
	};
	D->vkCmdPipelineBarrier(o.cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT, 0, 1, &mb, 0, NULL, 0,
				NULL);
	cond_begin(ctx, o.cb, pred, false);
	measured_pass(ctx, &o, 1);
	D->vkCmdEndConditionalRenderingEXT(o.cb);
	vkqs_cmd_to_host_barrier(ctx, o.cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
				 VK_ACCESS_TRANSFER_WRITE_BIT);
	vkqs_cmd_submit_wait(ctx, &ctx->vk->gfx, o.cb);
	vkqs_buffer_invalidate(ctx, pred);

	uint64_t first[2], block[2];
	uint32_t copied;
	read_query(ctx, o.pool, 0, first);
	read_query(ctx, o.pool, 1, block);
	memcpy(&copied, pred->map, 4);
	VKQS_EXPECTF(ctx, first[1] && (first[0] != 0) == seen,
		     "query 0 (a %ux%u rectangle, %s): %" PRIu64 " samples, availability %" PRIu64,
		     visible.w, visible.h, seen ? "visible" : "scissored away", first[0], first[1]);
	VKQS_EXPECTF(ctx, (copied != 0) == seen,
		     "the predicate copied from query 0 is %u (vkGetQueryPoolResults: %" PRIu64 ")",
		     copied, first[0]);
	if (!seen || block[0] != 0)
		expect_block(ctx, block, !seen);
	else
		VKQS_EXPECTF(ctx, false, "the block predicated on query 0 (%" PRIu64 " samples, "
			     "copied %u) drew nothing: its predicate was read as zero, before the "
			     "copy and the barrier", first[0], copied);
}

static void predicate_seen(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	predicate_from_occlusion(ctx, true);
}

static void predicate_hidden(struct vkqs_ctx *ctx, const void *param)
{
	(void)param;
	predicate_from_occlusion(ctx, false);
}

static const struct vkqs_case cases[] = {
	{.name = "conditional.copy_in_block",
	 .fn = copy_in_block,
	 .spec = SPEC_COND "; vkCmdCopyQueryPoolResults is not a rendering command "
		 "(nvk predicated its copy shader away, mesa cdef36c4226)",
	 .params = VKQS_PARAMS(copy_params, copy_name)},
	{.name = "conditional.reset_in_discarding_block",
	 .fn = reset_in_block,
	 .spec = SPEC_COND "; 18.2 vkCmdResetQueryPool sets the queries unavailable"},
	{.name = "conditional.query_in_discarding_block",
	 .fn = query_in_block,
	 .spec = SPEC_COND "; 18.3 an occlusion query over discarded draws counts no samples "
		 "and becomes available"},
	{.name = "conditional.timestamp_in_discarding_block",
	 .fn = timestamp_in_block,
	 .spec = SPEC_COND "; 18.5 vkCmdWriteTimestamp writes the timestamp"},
	{.name = "conditional.predicate_from_occlusion_seen",
	 .fn = predicate_seen,
	 .spec = SPEC_COND "; 18.3 a non-precise result is non-zero when samples passed, copied "
		 "by vkCmdCopyQueryPoolResults as the predicate"},
	{.name = "conditional.predicate_from_occlusion_hidden",
	 .fn = predicate_hidden,
	 .spec = SPEC_COND "; 18.3 a query with no passing samples is zero, copied by "
		 "vkCmdCopyQueryPoolResults as the predicate"},
};

VKQS_GROUP(occlusion, conditional, cases);
