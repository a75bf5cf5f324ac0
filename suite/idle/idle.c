/* vkqs.idle.gap.*: the device clock across idle gaps of 100 ms, 1 s and
 * 5 s.  A GPU that powers down while idle (gfxoff, runtime suspend) can
 * lose its timestamp counter: radv's timestamps restarted after gfxoff
 * (mesa 5ae953b5e97), turnip's after a suspend (mesa 1989e1e6d86), and a
 * profiler sees time run backwards or stand still.  vkqs's other cases
 * idle at most 20 ms, so this area idles on purpose; it is slow (about
 * 6 s of sleep), so `--filter` keeps it out of quick runs; the refdevice's
 * legal variations run it only where they touch the clock.
 *
 * One timestamp is written, the host sleeps with the device idle, a second
 * is written in a later submission on the same queue:
 * - the second is not before the first, beyond a wrap that fits in the
 *   host interval around both (18.5, as vkqs.timestamp.order): Fail;
 * - the device interval, converted with timestampPeriod, does not exceed
 *   that host interval (as vkqs.timestamp.duration): Fail;
 * - the drift, in ppm: the device interval against the host's gap (the
 *   device idled at least from the first fence to the second submission).
 *   With calibrated timestamps (device and CLOCK_MONOTONIC) the device
 *   domain is "incrementing according to the timestampPeriod of the
 *   device" (VkTimeDomainKHR), and a pair read on each side of the gap
 *   gives the drift too (compared at the graphics queue's
 *   timestampValidBits); losing more than the clock-rate tolerance is a
 *   QualityWarning, as vkqs.timestamp.calibrated.rate_vs_host_* judges
 *   the same disagreement.  Without calibrated timestamps the spec ties
 *   the counter to no real clock (the refdevice's modelled clock stands
 *   still while idle): the drift is a note. */
#include <inttypes.h>
#include <math.h>

#include "../timestamp/timestamp.h"
#include "util.h"
#include "verdict.h"

static const uint32_t gaps_ms[] = {100, 1000, 5000};

static void gap_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%ums", *(const uint32_t *)param);
}

static double ppm(double device_ns, double host_ns)
{
	return host_ns > 0 ? (device_ns - host_ns) / host_ns * 1e6 : 0;
}

static void idle_gap(struct vkqs_ctx *ctx, const void *param)
{
	const uint32_t ms = *(const uint32_t *)param;
	struct vkqs_queue *q = &ctx->vk->gfx;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, "graphics")};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2, 0);
	VkCommandBuffer a = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, a, pool, 2);
	D->vkCmdWriteTimestamp(a, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	vkqs_cmd_end(ctx, a);
	VkCommandBuffer b = vkqs_cmd_begin(ctx, q);
	D->vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
	vkqs_cmd_end(ctx, b);

	struct calib c = {0};
	bool calibrated = ts_has_calibrated(ctx);
	if (calibrated) {
		calib_require(ctx, &c);
		calibrated = calib_has(&c, VK_TIME_DOMAIN_DEVICE_EXT) &&
			     calib_has(&c, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
	}
	uint64_t h0 = vkqs_now_ns();
	vkqs_submit_timed(ctx, q, &a, 1);
	uint64_t h1 = vkqs_now_ns();
	struct calib_pair p0 = {0}, p1 = {0};
	if (calibrated)
		p0 = calib_best_pair(ctx, &c, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
	ts_sleep_ns((uint64_t)ms * 1000000u);
	if (calibrated)
		p1 = calib_best_pair(ctx, &c, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT);
	uint64_t h2 = vkqs_now_ns();
	vkqs_submit_timed(ctx, q, &b, 1);
	uint64_t h3 = vkqs_now_ns();
	s.host_ns = h3 - h0;
	ts_get64(ctx, pool, 2, &s);
	ts_expect_all_valid(ctx, &s);

	/* a clock reset while idle reads as going backwards */
	if (!VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the timestamp before the gap", s.v[0],
				       "the timestamp after it", s.v[1], s.bits, s.host_ns))
		return;
	double period = ctx->vk->props.limits.timestampPeriod;
	uint64_t ticks = vkqs_ts_forward(s.v[0], s.v[1], s.bits);
	double dev_ns = (double)ticks * period;
	double upper = (double)s.host_ns * (1.0 + VKQS_TS_CLOCK_TOL) + 2.0 * period;
	VKQS_EXPECTF(ctx, dev_ns <= upper,
		     "the two timestamps are %.0f ns apart (%" PRIu64 " ticks x timestampPeriod "
		     "%g) but both were written within %" PRIu64 " ns of host time (bound "
		     "%.0f ns with %g tolerance and 2 periods)",
		     dev_ns, ticks, period, s.host_ns, upper, VKQS_TS_CLOCK_TOL);
	const uint64_t gap_ns = h2 - h1; /* the device surely idled this long */
	double written_ppm = ppm(dev_ns, (double)gap_ns);
	if (!calibrated) {
		vkqs_note(ctx,
			  "idle gap of %u ms: the written timestamps are %.0f ns apart for a host "
			  "gap of at least %" PRIu64 " ns (%+.0f ppm); no calibrated timestamps, so "
			  "no real-time rate is promised",
			  ms, dev_ns, gap_ns, written_ppm);
		return;
	}
	/* The device domain is compared at the graphics queue's width, the
	 * writes' (its values "are comparable with device timestamp values
	 * captured using vkCmdWriteTimestamp"), not at the narrowest family's
	 * as calibrated.c does for its 20 ms: a 32-bit family (1 ns ticks)
	 * wraps every 4.3 s, and a 5 s gap read modulo 2^32 looks 4.3 s
	 * short.  A gap the width cannot tell from a wrap gets no drift. */
	uint32_t dbits = s.bits;
	uint64_t host_ns = p1.host_ts - p0.host_ts;
	uint64_t slack = p0.deviation + p1.deviation;
	if (dbits < 64 && (double)host_ns / period >= (double)(1ull << (dbits - 1))) {
		vkqs_note(ctx,
			  "idle gap of %u ms: %" PRIu64 " ns is at least half the wrap of a %u-bit "
			  "counter at timestampPeriod %g: no drift is read from it",
			  ms, host_ns, dbits, period);
		return;
	}
	if (!VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the device-domain sample before the gap", p0.dev_ts,
				       "the one after it", p1.dev_ts, dbits, host_ns + slack))
		return;
	double cal_ns = (double)vkqs_ts_forward(p0.dev_ts, p1.dev_ts, dbits) * period;
	double cal_ppm = ppm(cal_ns, (double)host_ns);
	vkqs_note(ctx,
		  "idle gap of %u ms: device domain %+.0f ppm against CLOCK_MONOTONIC over "
		  "%" PRIu64 " ns (maxDeviation %" PRIu64 " + %" PRIu64 " ns); the written "
		  "timestamps %.0f ns apart for a host gap of at least %" PRIu64 " ns (%+.0f ppm)",
		  ms, cal_ppm, host_ns, p0.deviation, p1.deviation, dev_ns, gap_ns, written_ppm);
	double tol = (double)slack + VKQS_TS_CLOCK_TOL * (double)host_ns + 2.0 * period;
	if (fabs(cal_ns - (double)host_ns) > tol)
		vkqs_quality_warning(ctx,
				     "across an idle gap of %u ms the device domain advanced %.0f ns "
				     "while CLOCK_MONOTONIC advanced %" PRIu64 " ns (%+.0f ppm; "
				     "tolerance %.0f ns): the device clock does not keep real time "
				     "while the device idles",
				     ms, cal_ns, host_ns, cal_ppm, tol);
	double lower = (double)gap_ns * (1.0 - VKQS_TS_CLOCK_TOL) - 2.0 * period;
	if (dev_ns < lower)
		vkqs_quality_warning(ctx,
				     "the written timestamps are %.0f ns apart across a host gap of "
				     "at least %" PRIu64 " ns (%+.0f ppm): the device clock, which its "
				     "calibrated domain says runs at timestampPeriod, stood still "
				     "while the device idled",
				     dev_ns, gap_ns, written_ppm);
}

static const struct vkqs_case cases[] = {
	{.name = "gap.drift",
	 .fn = idle_gap,
	 .spec = "18.5: a timestamp written after an idle gap is not before one written before "
		 "it on the same queue, and their interval converted with timestampPeriod lies "
		 "within the host time around both; VkTimeDomainKHR: the device domain is "
		 "\"incrementing according to the timestampPeriod of the device\" (drift in ppm)",
	 VKQS_PARAMS(gaps_ms, gap_name)},
};

VKQS_AREA(idle, cases);
