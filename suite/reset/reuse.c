/* vkqs.reset.reuse.*: one query reset and used again many times gives each use's own
 * result. */
#include "reset.h"

/* reuse: one query, many uses ----------------------------------------------*/

#define REUSES 8u

/* Rectangle heights out of order, so neither a stale result nor a sum of
 * uses can equal the current one by a monotonic accident. */
static const uint32_t reuse_gens[REUSES] = {3, 0, 6, 1, 5, 2, 7, 4};

enum reuse_mode { REUSE_COMMAND, REUSE_HOST, REUSE_ONE_CB };

static const char *const reuse_mode_names[] = {
	"get_command_reset", "get_host_reset", "copy_one_command_buffer"};

struct reuse_param {
	uint8_t type;
	uint8_t mode;
};

static const struct reuse_param reuse_params[] = {
	{QT_OCCLUSION, REUSE_COMMAND}, {QT_OCCLUSION, REUSE_HOST}, {QT_OCCLUSION, REUSE_ONE_CB},
	{QT_TIMESTAMP, REUSE_COMMAND}, {QT_TIMESTAMP, REUSE_HOST}, {QT_TIMESTAMP, REUSE_ONE_CB},
};

static void reuse_name(const void *param, char *buf, size_t size)
{
	const struct reuse_param *p = param;
	snprintf(buf, size, "%s_%s", qtype_names[p->type], reuse_mode_names[p->mode]);
}

/* One query, reset and used REUSES times, each use read with its own
 * value: through the host after each submission (reset in the command
 * buffer or on the host), or within one command buffer where each use is
 * copied with WAIT before the next reset (the copy's first scope holds the
 * use, the next reset's first scope holds the copy: 18.2).  A result that
 * is stale, accumulated over uses or missing fails.
 *
 * Timestamps in one command buffer: that chain of execution dependencies
 * (write, WAIT copy, reset, write) makes each write happen-after the one
 * before, so by 18.5 ("Any timestamp write that happens-after another
 * timestamp write in the same submission must not have a lower value
 * unless its value overflows") each value is the previous one plus a
 * forward distance no larger than the ticks of the host interval around
 * the submission (a wrap included). */
static void reuse_one_query(struct vkqs_ctx *ctx, const void *param)
{
	const struct reuse_param *p = param;
	if (p->mode == REUSE_HOST)
		vkqs_require_feature(ctx, "hostQueryReset");
	struct scene *s = reset_scene_create(ctx, p->type, 1, 0, false);
	char what[64];

	if (p->mode != REUSE_ONE_CB) {
		for (uint32_t i = 0; i < REUSES; i++) {
			uint32_t gen = reuse_gens[i];
			if (p->mode == REUSE_HOST)
				reset_now(ctx, s, 0, 1, true);
			VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
			if (p->mode == REUSE_COMMAND)
				D->vkCmdResetQueryPool(cb, s->pool, 0, 1);
			reset_record_use(ctx, cb, s, 0, 1, gen);
			reset_submit_wait_one(ctx, cb);
			snprintf(what, sizeof(what), "use %u of the query", i);
			struct qexp e = reset_exp_used(s, 0, gen);
			reset_read_check(ctx, s, PATH_GET, 0, 1, F64A, &e, what);
		}
		return;
	}

	const VkQueryResultFlags flags = F64A | VK_QUERY_RESULT_WAIT_BIT;
	struct rb *r[REUSES];
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, &ctx->vk->gfx);
	for (uint32_t i = 0; i < REUSES; i++) {
		struct qexp e = reset_exp_used(s, 0, reuse_gens[i]);
		r[i] = reset_rb_create(ctx, s, PATH_COPY, 0, 1, flags, &e);
		D->vkCmdResetQueryPool(cb, s->pool, 0, 1);
		reset_record_use(ctx, cb, s, 0, 1, reuse_gens[i]);
		D->vkCmdCopyQueryPoolResults(cb, s->pool, 0, 1, r[i]->buf->buf, DST_OFFSET,
					     r[i]->stride, flags);
	}
	vkqs_cmd_transfer_to_host_barrier(ctx, cb);
	vkqs_cmd_end(ctx, cb);
	uint64_t host_ns = vkqs_submit_timed(ctx, &ctx->vk->gfx, &cb, 1);
	for (uint32_t i = 0; i < REUSES; i++) {
		snprintf(what, sizeof(what), "use %u of the query, copied with WAIT", i);
		reset_rb_check(ctx, r[i], what);
	}
	if (s->type != QT_TIMESTAMP)
		return;
	/* The ticks of the host interval (framework/tscheck.h). */
	uint64_t mask = vkqs_ts_mask(s->ts_bits);
	uint64_t room = vkqs_ts_ticks_within(ctx, host_ns);
	for (uint32_t i = 1; i < REUSES; i++) {
		uint64_t a = r[i - 1]->value[0] & mask, b = r[i]->value[0] & mask;
		uint64_t fwd = vkqs_ts_forward(a, b, s->ts_bits);
		VKQS_EXPECTF(ctx, fwd <= room,
			     "timestamp of use %u (%" PRIu64 ") is not within %" PRIu64
			     " ticks after that of use %u (%" PRIu64 ") that it happens-after "
			     "(%u valid bits, %" PRIu64 " ns host interval): stale or going "
			     "backwards",
			     i, b, room, i - 1, a, s->ts_bits, host_ns);
	}
}

static const struct vkqs_case cases[] = {
	{.name = "reuse.one_query",
	 .fn = reuse_one_query,
	 .spec = SPEC_RESET ": each use of a query reset between uses gives its own "
			    "result; 18.5 ordering of timestamps that happen-after another",
	 .params = VKQS_PARAMS(reuse_params, reuse_name)},
};

VKQS_GROUP(reset, reuse, cases);
