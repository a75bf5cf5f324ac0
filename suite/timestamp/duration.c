/* vkqs.timestamp.duration.*: timestamp differences against known work and against
 * timestampPeriod. */
#include "timestamp.h"

#define DURATION_FILL_SIZE (64ull << 20)

#define DURATION_FILLS 8

/* Timestamps 0 and 1 were written within s->host_ns, so the device interval
 * between them, converted with timestampPeriod ("the number of nanoseconds
 * it takes for a timestamp value to be incremented by 1", 18.5), cannot
 * exceed the host interval beyond the clock-rate tolerance and one period
 * of truncation at each end.  Returns the device interval in ns, its ticks
 * in *ticks; `around` ends the message. */
static double expect_within_host(struct vkqs_ctx *ctx, const struct ts_set *s,
				 const char *around, uint64_t *ticks)
{
	double period = ctx->vk->props.limits.timestampPeriod;
	*ticks = vkqs_ts_forward(s->v[0], s->v[1], s->bits);
	double dev_ns = (double)*ticks * period;
	double bound = (double)s->host_ns * (1.0 + VKQS_TS_CLOCK_TOL) + 2.0 * period;
	VKQS_EXPECTF(ctx, dev_ns <= bound,
		"expected device interval %.0f ns (%" PRIu64 " ticks x timestampPeriod %g; "
		"t0 %" PRIu64 ", t1 %" PRIu64 ") <= host interval %" PRIu64
		" ns x (1 + %g) + 2 periods = %.0f ns%s",
		dev_ns, *ticks, period, s->v[0], s->v[1], s->host_ns, VKQS_TS_CLOCK_TOL, bound,
		around);
	return dev_ns;
}

/* The lower bounds below (QualityWarnings) compare the device interval
 * with the host's view of the work.  That view can only be late, never
 * early: a host thread not scheduled when the fence signals, a loaded
 * machine.  So one submission below the bound says nothing of the
 * counter; the same work is submitted again, and the warning needs all of
 * LOW_TRIES submissions below it (RD_HOST_STALL_MS models a late view;
 * tests/host_stall.sh). */
#define LOW_TRIES 4

/* duration.period_vs_host ---------------------------------------------------*/

/* Host interval the adaptive workload aims for, and the most fills it may
 * grow to (64 MiB each: 256 GiB written, ~0.1 s at 3 TB/s). */
#define PERIOD_TARGET_NS (20ull * 1000 * 1000)

#define PERIOD_MAX_FILLS 4096u

/* The device interval below 1/PERIOD_LOW_RATIO of the device-dominated
 * host interval is a QualityWarning (see duration_period_vs_host). */
#define PERIOD_LOW_RATIO 100.0

/* The least host time of three submissions of an empty command buffer: what
 * a submission costs the host without device work. */
static uint64_t empty_round_trip(struct vkqs_ctx *ctx, struct vkqs_queue *q)
{
	uint64_t best = UINT64_MAX;
	for (int k = 0; k < 3; k++) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
		vkqs_cmd_end(ctx, cb);
		uint64_t h = vkqs_submit_timed(ctx, q, &cb, 1);
		best = h < best ? h : best;
	}
	return best;
}

/* One submission of period_vs_host's work: TOP_OF_PIPE, fills of 64 MiB
 * between full barriers, BOTTOM_OF_PIPE; the results and host time in *s. */
static void period_submit(struct vkqs_ctx *ctx, struct vkqs_queue *q, VkQueryPool pool,
			  struct vkqs_buffer *buf, uint32_t fills, struct ts_set *s)
{
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, 2);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
	for (uint32_t k = 0; k < fills; k++) {
		vkqs_cmd_full_barrier(ctx, cb);
		D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 0x01010101u * (k + 1));
	}
	vkqs_cmd_full_barrier(ctx, cb);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
	vkqs_cmd_end(ctx, cb);
	s->host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
	ts_get64(ctx, pool, 2, s);
}

/* timestampPeriod against the host clock on each queue, without calibrated
 * timestamps.  A TOP_OF_PIPE write, a full barrier, fills of 64 MiB between
 * full barriers, a BOTTOM_OF_PIPE write: the barrier after the first write
 * has it in its first scope, so the fills happen-after it and the second
 * write after them, and both lie within the host interval around the
 * submission.  The number of fills grows until that interval reaches 20 ms.
 *
 * Upper bound (Fail): the device interval D = ticks x timestampPeriod
 * cannot exceed the host interval H beyond the clock-rate tolerance and
 * one period of truncation at each end (as duration.fill_vs_host_clock).
 *
 * Lower bound (QualityWarning only): the spec gives none, since the device
 * may run the fills faster than the host sees them complete.  But once the
 * host interval less the round trip of an empty submission (W = H - E) is
 * at least half of H, W is mostly time the device spent on the fills, and D
 * under W/100 says the counter runs 100 times slower than timestampPeriod
 * claims: a period in the wrong unit (ns against us, bug class 18) or stamps
 * that do not advance with work (bug class 16).  This catches factors of
 * 100 and more; a period 41.667 times too small (the MoltenVK value the
 * other way round) needs the upper bound's direction, D > H, which the
 * Fail check catches.  A device clock legitimately faster than the host's
 * view of the work (a software device modelling a faster one) stays within
 * the factor of 100. */
static void duration_period_vs_host(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct vkqs_queue *q = ts_pick_queue(ctx, p);
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, p->what)};
	uint64_t empty_ns = empty_round_trip(ctx, q);
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, DURATION_FILL_SIZE, 0);

	uint32_t fills = 1;
	for (;;) {
		period_submit(ctx, q, pool, buf, fills, &s);
		if (s.host_ns >= PERIOD_TARGET_NS || fills >= PERIOD_MAX_FILLS)
			break;
		double scale = 1.5 * (double)PERIOD_TARGET_NS / (double)(s.host_ns + 1);
		scale = scale < 2.0 ? 2.0 : scale > 16.0 ? 16.0 : scale;
		double next = (double)fills * scale;
		fills = next > PERIOD_MAX_FILLS ? PERIOD_MAX_FILLS : (uint32_t)next;
	}

	char around[48];
	snprintf(around, sizeof(around), " around %u fills of 64 MiB", fills);
	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t ticks, work_ns;
	bool low = false;
	double dev_ns = 0;
	for (int t = 0; t < LOW_TRIES && (t == 0 || low); t++) {
		if (t)
			period_submit(ctx, q, pool, buf, fills, &s);
		ts_expect_series(ctx, &s);
		dev_ns = expect_within_host(ctx, &s, around, &ticks);
		work_ns = s.host_ns > empty_ns ? s.host_ns - empty_ns : 0;
		bool dominated = s.host_ns >= PERIOD_TARGET_NS && 2 * work_ns >= s.host_ns;
		low = dominated && dev_ns < (double)work_ns / PERIOD_LOW_RATIO;
	}
	if (low)
		vkqs_quality_warning(ctx,
				     "device interval %.0f ns (%" PRIu64 " ticks x timestampPeriod "
				     "%g) is under 1/%g of the %" PRIu64 " ns the host waited "
				     "for %u fills of 64 MiB beyond an empty submission's %" PRIu64
				     " ns, and so in each of %d submissions: the counter runs far "
				     "slower than timestampPeriod says",
				     dev_ns, ticks, period, PERIOD_LOW_RATIO, work_ns, fills,
				     empty_ns, LOW_TRIES);
}

/* duration.* ---------------------------------------------------------------*/

/* TOP_OF_PIPE before and BOTTOM_OF_PIPE after eight fills of 64 MiB.  Both
 * writes happen between the host's reading before vkQueueSubmit and after
 * the fence wait, so the device interval, converted with timestampPeriod
 * ("the number of nanoseconds it takes for a timestamp value to be
 * incremented by 1", spec 18.5), cannot exceed the host interval beyond the
 * clock-rate tolerance and one period of truncation at each end.  The spec
 * gives no lower bound (the TOP write may land as late as the BOTTOM one),
 * but a device interval of zero or under 1/1000 of a host interval over
 * 1 ms means a period wrong by orders of magnitude (bug class 18) or
 * command-buffer-granularity stamps (bug class 16): a QualityWarning. */
static void duration_fill_vs_host_clock(struct vkqs_ctx *ctx, const void *param)
{
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, DURATION_FILL_SIZE, 0);

	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t ticks;
	double dev_ns = 0;
	bool low = false;
	for (int t = 0; t < LOW_TRIES && (t == 0 || low); t++) {
		VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
		D->vkCmdResetQueryPool(cb, pool, 0, 2);
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
		for (uint32_t k = 0; k < DURATION_FILLS; k++) {
			if (k)
				vkqs_cmd_full_barrier(ctx, cb);
			D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 0x01010101u * (k + 1));
		}
		vkqs_cmd_full_barrier(ctx, cb);
		D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
		vkqs_cmd_end(ctx, cb);
		s.host_ns = vkqs_submit_timed(ctx, q, &cb, 1);
		ts_get64(ctx, pool, 2, &s);
		ts_expect_series(ctx, &s);
		dev_ns = expect_within_host(ctx, &s, "", &ticks);
		low = s.host_ns > 1000000 && (ticks == 0 || dev_ns < (double)s.host_ns / 1000);
	}
	if (low)
		vkqs_quality_warning(ctx,
				     "device interval %.0f ns (%" PRIu64 " ticks x "
				     "timestampPeriod %g; t0 %" PRIu64 ", t1 %" PRIu64
				     ") is under 1/1000 of the %" PRIu64 " ns host "
				     "interval around %d fills of %llu MiB, and so in each of %d "
				     "submissions",
				     dev_ns, ticks, period, s.v[0], s.v[1], s.host_ns,
				     DURATION_FILLS,
				     (unsigned long long)(DURATION_FILL_SIZE >> 20), LOW_TRIES);
}

static const struct vkqs_case cases[] = {
	{.name = "duration.fill_vs_host_clock",
	 .fn = duration_fill_vs_host_clock,
	 .spec = PERIOD_SPEC},
	{.name = "duration.period_vs_host",
	 .fn = duration_period_vs_host,
	 .spec = PERIOD_SPEC,
	 .params = VKQS_PARAMS(queue_params, ts_queue_name)},
};

VKQS_GROUP(timestamp, duration, cases);
