/* vkqs.timestamp.calibrated.*: VK_KHR_calibrated_timestamps: device and host domains,
 * brackets, maxDeviation, rate against the host clock and non-decreasing values. */
#include "timestamp.h"

/* calibrated.* -------------------------------------------------------------*/

/* VkTimeDomainKHR: "VK_TIME_DOMAIN_DEVICE_KHR specifies the device time
 * domain.  Timestamp values in this time domain use the same units and are
 * comparable with device timestamp values captured using
 * vkCmdWriteTimestamp".  A device-domain sample taken before vkQueueSubmit
 * therefore cannot be later than a write in that submission, nor one taken
 * after the fence wait earlier (bug class 19: a write clock with another
 * epoch than the calibrated one). */
static void calibrated_device_domain(struct vkqs_ctx *ctx, const void *param)
{
	if (!ts_has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR domains_fn =
		ctx->vk->get_calibrateable_time_domains;
	PFN_vkGetCalibratedTimestampsKHR get_fn = ctx->vk->get_calibrated_timestamps;
	if (!domains_fn || !get_fn)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");

	VkTimeDomainKHR domains[16];
	uint32_t nd = VKQS_ARRAY_LEN(domains);
	VkResult r = domains_fn(ctx->vk->phys, &nd, domains);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		VKQS_CHECK(ctx, r);
	bool device_domain = false;
	for (uint32_t i = 0; i < nd; i++)
		device_domain |= domains[i] == VK_TIME_DOMAIN_DEVICE_EXT;
	if (!device_domain)
		vkqs_skip(ctx, "VK_TIME_DOMAIN_DEVICE is not a calibrateable time domain");

	struct vkqs_queue *q = &ctx->vk->gfx;
	uint32_t bits = ts_queue_bits(ctx, q, "graphics");
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, 1, 0);
	struct vkqs_buffer *buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0);
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	D->vkCmdResetQueryPool(cb, pool, 0, 1);
	D->vkCmdFillBuffer(cb, buf->buf, 0, VK_WHOLE_SIZE, 7);
	D->vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 0);
	vkqs_cmd_end(ctx, cb);

	VkCalibratedTimestampInfoKHR info = {
		.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
		.timeDomain = VK_TIME_DOMAIN_DEVICE_EXT,
	};
	uint64_t before, after, dev, deviation;
	uint64_t h0 = vkqs_now_ns();
	VKQS_CHECK(ctx, get_fn(DEV, 1, &info, &before, &deviation));
	vkqs_submit_timed(ctx, q, &cb, 1);
	VKQS_CHECK(ctx, get_fn(DEV, 1, &info, &after, &deviation));
	uint64_t host_ns = vkqs_now_ns() - h0;
	VKQS_CHECK(ctx, D->vkGetQueryPoolResults(DEV, pool, 0, 1, sizeof(dev), &dev,
						 sizeof(dev), TS_FLAGS64));

	VKQS_TS_EXPECT_VALID(ctx, "the written timestamp", dev, bits);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the device-domain sample before vkQueueSubmit", before,
				  "the written timestamp", dev, bits, host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the written timestamp", dev,
				  "the device-domain sample after the fence wait", after, bits,
				  host_ns);
}

void calib_require(struct vkqs_ctx *ctx, struct calib *c)
{
	if (!ts_has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR fn =
		ctx->vk->get_calibrateable_time_domains;
	c->get = ctx->vk->get_calibrated_timestamps;
	if (!fn || !c->get)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");
	c->n = VKQS_ARRAY_LEN(c->domains);
	VkResult r = fn(ctx->vk->phys, &c->n, c->domains);
	if (r != VK_SUCCESS && r != VK_INCOMPLETE)
		VKQS_CHECK(ctx, r);
}

static const char *domain_name(VkTimeDomainKHR d)
{
	switch (d) {
	case VK_TIME_DOMAIN_DEVICE_EXT: return "DEVICE";
	case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT: return "CLOCK_MONOTONIC";
	case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT: return "CLOCK_MONOTONIC_RAW";
	case VK_TIME_DOMAIN_QUERY_PERFORMANCE_COUNTER_EXT: return "QUERY_PERFORMANCE_COUNTER";
	default: return "?";
	}
}

/* VUID-VkCalibratedTimestampInfoKHR-timeDomain-02354: only listed domains. */
static void calib_require_domain(struct vkqs_ctx *ctx, const struct calib *c,
				 VkTimeDomainKHR d)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->domains[i] == d)
			return;
	vkqs_skip(ctx, "VK_TIME_DOMAIN_%s is not a calibrateable time domain of the device",
		  domain_name(d));
}

bool calib_has(const struct calib *c, VkTimeDomainKHR d)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->domains[i] == d)
			return true;
	return false;
}

/* One vkGetCalibratedTimestamps call over n distinct domains
 * (VUID-vkGetCalibratedTimestampsKHR-timeDomain-09246).  Every call's
 * deviation must be "the strictly positive maximum deviation, in
 * nanoseconds, of the calibrated timestamp values". */
void calib_get(struct vkqs_ctx *ctx, const struct calib *c, const VkTimeDomainKHR *doms,
		      uint32_t n, uint64_t *ts, uint64_t *deviation)
{
	VkCalibratedTimestampInfoKHR info[4];
	for (uint32_t i = 0; i < n && i < 4; i++)
		info[i] = (VkCalibratedTimestampInfoKHR){
			.sType = VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT,
			.timeDomain = doms[i],
		};
	*deviation = 0;
	VKQS_CHECK(ctx, c->get(DEV, n, info, ts, deviation));
	VKQS_EXPECTF(ctx, *deviation > 0,
		"expected vkGetCalibratedTimestamps to return a strictly positive "
		"maxDeviation, got 0");
}

/* Device-domain values wrap no later than the narrowest family's counter:
 * every family writes in the device domain (18.5) keeping its low
 * timestampValidBits and wrapping to zero there, and the domain's values
 * "are comparable with device timestamp values captured using
 * vkCmdWriteTimestamp".  Comparing two of them modulo 2^(the smallest
 * non-zero count) is right whatever width the domain itself has, and loses
 * nothing: the intervals here are far below 2^32 ticks (the least count
 * seen, on a family that breaks properties.valid_bits_range). */
uint32_t device_domain_bits(const struct vkqs_ctx *ctx)
{
	uint32_t bits = 64;
	for (uint32_t i = 0; i < ctx->vk->info.family_count; i++) {
		uint32_t b = ctx->vk->info.families[i].timestamp_valid_bits;
		if (b && b < bits)
			bits = b;
	}
	return bits;
}

/* The POSIX clock a host domain names: "comparable with platform timestamp
 * values captured using the POSIX clock_gettime API" (VkTimeDomainKHR). */
static uint64_t domain_clock_ns(VkTimeDomainKHR d)
{
	struct timespec ts;
	clock_gettime(d == VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT ? CLOCK_MONOTONIC_RAW
								  : CLOCK_MONOTONIC,
		      &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ts_sleep_ns(uint64_t ns)
{
	uint64_t end = vkqs_now_ns() + ns;
	for (uint64_t now; (now = vkqs_now_ns()) < end;) {
		struct timespec ts = {
			.tv_sec = (time_t)((end - now) / 1000000000ull),
			.tv_nsec = (long)((end - now) % 1000000000ull),
		};
		if (nanosleep(&ts, NULL) != 0 && errno != EINTR)
			break;
	}
}

struct domain_param {
	const char *name;
	VkTimeDomainKHR domain;
};

static const struct domain_param host_domains[] = {
	{"clock_monotonic", VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	{"clock_monotonic_raw", VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT},
};

static const struct domain_param all_domains[] = {
	{"device", VK_TIME_DOMAIN_DEVICE_EXT},
	{"clock_monotonic", VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
	{"clock_monotonic_raw", VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT},
};

static void domain_param_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct domain_param *)param)->name);
}

/* calibrated.device_domain_brackets_write on each queue with four writes
 * (BOTTOM and TOP in turn, work between full barriers): a device-domain
 * sample before vkQueueSubmit, the series in order, a sample after the
 * fence wait.  The samples are device-domain values like the writes
 * (VkTimeDomainKHR: "comparable with device timestamp values captured using
 * vkCmdWriteTimestamp"), so the first write cannot precede the first sample
 * nor the last follow the second (bug class 19: calibrated and written
 * clocks with different epochs; bug class 21 on the other queues). */
static void calibrated_brackets_writes(struct vkqs_ctx *ctx, const void *param)
{
	const struct queue_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, VK_TIME_DOMAIN_DEVICE_EXT);
	struct vkqs_queue *q = ts_pick_queue(ctx, p);
	const uint32_t n = 4;
	struct ts_set s = {.bits = ts_queue_bits(ctx, q, p->what)};
	VkQueryPool pool = vkqs_query_pool(ctx, VK_QUERY_TYPE_TIMESTAMP, n, 0);
	struct work w = {.buf = vkqs_buffer_device(ctx, WORK_FILL_SIZE, 0)};
	VkCommandBuffer cb = vkqs_cmd_begin(ctx, q);
	ts_reset_for(ctx, q, cb, pool, n);
	ts_record_series(ctx, cb, pool, 0, n, bottom_top, VKQS_ARRAY_LEN(bottom_top), &w);
	vkqs_cmd_end(ctx, cb);

	const VkTimeDomainKHR dd = VK_TIME_DOMAIN_DEVICE_EXT;
	uint64_t before, after, deviation;
	uint64_t h0 = vkqs_now_ns();
	calib_get(ctx, &c, &dd, 1, &before, &deviation);
	vkqs_submit_timed(ctx, q, &cb, 1);
	calib_get(ctx, &c, &dd, 1, &after, &deviation);
	s.host_ns = vkqs_now_ns() - h0;
	ts_get64(ctx, pool, n, &s);

	ts_expect_series(ctx, &s);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the device-domain sample before vkQueueSubmit", before,
				  "timestamp 0", s.v[0], s.bits, s.host_ns);
	VKQS_TS_EXPECT_NOT_BEFORE(ctx, "the last timestamp", s.v[n - 1],
				  "the device-domain sample after the fence wait", after, s.bits,
				  s.host_ns);
}

/* A host-domain value against clock_gettime of that clock read just before
 * and just after the call.  The domain's values are the clock's own
 * (VkTimeDomainKHR: "comparable with platform timestamp values captured
 * using the POSIX clock_gettime API"), and the call samples every domain at
 * one instant within maxDeviation ("the maximum deviation, in nanoseconds,
 * of the calibrated timestamp values"), an instant inside the call.  So a
 * value beyond [before - maxDeviation, after + maxDeviation] is no reading
 * of that clock during the call: Fail.  One outside [before, after] but
 * within the deviation was not read during the call (derived from another
 * clock, or cached): legal by the letter, poor for calibration, a
 * QualityWarning.  The device domain is sampled in the same call when
 * listed, so the multi-domain path is the one checked. */
static void calibrated_host_domain(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, p->domain);
	VkTimeDomainKHR doms[2] = {p->domain, VK_TIME_DOMAIN_DEVICE_EXT};
	uint32_t nd = calib_has(&c, VK_TIME_DOMAIN_DEVICE_EXT) ? 2 : 1;
	bool warned = false;
	for (int k = 0; k < 4; k++) {
		uint64_t ts[2], dev;
		uint64_t before = domain_clock_ns(p->domain);
		calib_get(ctx, &c, doms, nd, ts, &dev);
		uint64_t after = domain_clock_ns(p->domain);
		uint64_t v = ts[0];
		bool inside = v >= before && v <= after;
		bool near = v + dev >= before && v <= after + dev;
		VKQS_EXPECTF(ctx, near,
			"expected the %s sample %" PRIu64 " to lie within clock_gettime readings "
			"%" PRIu64 " before and %" PRIu64 " after the call, widened by "
			"maxDeviation %" PRIu64 " ns",
			p->name, v, before, after, dev);
		if (near && !inside && !warned) {
			vkqs_quality_warning(ctx,
					     "the %s sample %" PRIu64 " lies outside the call "
					     "(clock_gettime %" PRIu64 " before, %" PRIu64
					     " after), within maxDeviation %" PRIu64 " ns",
					     p->name, v, before, after, dev);
			warned = true;
		}
	}
}

struct dset_param {
	const char *name;
	VkTimeDomainKHR d[2];
	uint32_t n;
};

static const struct dset_param dsets[] = {
	{"device", {VK_TIME_DOMAIN_DEVICE_EXT}, 1},
	{"device_clock_monotonic",
	 {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}, 2},
	{"device_clock_monotonic_raw",
	 {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT}, 2},
};

static void dset_name(const void *param, char *buf, size_t size)
{
	snprintf(buf, size, "%s", ((const struct dset_param *)param)->name);
}

/* CTS's maxDeviation ladder (cts_queries.md 2.9, vktPipelineTimestampTests
 * .cpp:924-927, 1293-1305): over 100 ms fails, over 50 ms warns. */
#define DEVIATION_FAIL_NS (100ull * 1000 * 1000)

#define DEVIATION_WARN_NS (50ull * 1000 * 1000)

/* maxDeviation is "strictly positive" on every call (calib_get checks
 * each), and small enough to calibrate with.  The spec sets no bound and
 * says a call may be repeated for a lower deviation, so the least of eight
 * calls is judged, on CTS's ladder: a device that cannot sample its clocks
 * within 100 ms of one another on any of eight tries has calibrated
 * timestamps in name only. */
static void calibrated_max_deviation(struct vkqs_ctx *ctx, const void *param)
{
	const struct dset_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	for (uint32_t i = 0; i < p->n; i++)
		calib_require_domain(ctx, &c, p->d[i]);
	uint64_t best = UINT64_MAX;
	for (int k = 0; k < 8; k++) {
		uint64_t ts[2], dev;
		calib_get(ctx, &c, p->d, p->n, ts, &dev);
		best = dev < best ? dev : best;
	}
	VKQS_EXPECTF(ctx, best <= DEVIATION_FAIL_NS,
		"expected the least maxDeviation of 8 calls over %s to be <= %llu ns, got %" PRIu64,
		p->name, (unsigned long long)DEVIATION_FAIL_NS, best);
	if (best > DEVIATION_WARN_NS && best <= DEVIATION_FAIL_NS)
		vkqs_quality_warning(ctx, "the least maxDeviation of 8 calls over %s is %" PRIu64
				     " ns, over %llu ns",
				     p->name, best, (unsigned long long)DEVIATION_WARN_NS);
}

/* Sixteen consecutive samples of one domain never go backwards.  Device
 * domain: its values are "incrementing according to the timestampPeriod of
 * the device" (VkTimeDomainKHR), so a lower later value is only a wrap that
 * fits in the host interval around the calls (as VKQS_TS_EXPECT_NOT_BEFORE).
 * Host domains: CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW never decrease (POSIX),
 * and the domain's values are that clock's. */
static void calibrated_non_decreasing(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, p->domain);
	uint64_t v[16], dev;
	uint64_t h0 = vkqs_now_ns();
	for (int k = 0; k < 16; k++)
		calib_get(ctx, &c, &p->domain, 1, &v[k], &dev);
	uint64_t host_ns = vkqs_now_ns() - h0;
	bool device = p->domain == VK_TIME_DOMAIN_DEVICE_EXT;
	for (int k = 1; k < 16; k++) {
		char a[48], b[48];
		snprintf(a, sizeof(a), "%s sample %d", p->name, k - 1);
		snprintf(b, sizeof(b), "%s sample %d", p->name, k);
		if (device)
			VKQS_TS_EXPECT_NOT_BEFORE(ctx, a, v[k - 1], b, v[k],
						  device_domain_bits(ctx), host_ns);
		else
			VKQS_EXPECTF(ctx, v[k] >= v[k - 1],
				"expected %s (%" PRIu64 ") >= %s (%" PRIu64 ")", b, v[k], a,
				v[k - 1]);
	}
}

struct calib_pair calib_best_pair(struct vkqs_ctx *ctx, const struct calib *c,
				   VkTimeDomainKHR host)
{
	const VkTimeDomainKHR doms[2] = {VK_TIME_DOMAIN_DEVICE_EXT, host};
	struct calib_pair best = {.deviation = UINT64_MAX};
	for (int k = 0; k < 4; k++) {
		uint64_t ts[2], dev;
		calib_get(ctx, c, doms, 2, ts, &dev);
		if (dev < best.deviation)
			best = (struct calib_pair){ts[0], ts[1], dev};
	}
	return best;
}

#define RATE_SLEEP_NS (20ull * 1000 * 1000)

/* Two (device, host) pairs 20 ms of host sleep apart relate the clocks.
 * Each pair's values lie within its maxDeviation of one instant, so the
 * device advance converted with timestampPeriod ("the number of
 * nanoseconds required for a timestamp query to be incremented by 1"; the
 * device domain is "incrementing according to the timestampPeriod of the
 * device") must equal the host advance H within the two deviations, the
 * clock-rate tolerance of H (VKQS_TS_CLOCK_TOL) and a period of truncation at
 * each end.  A device domain going backwards (beyond a wrap that fits) is
 * a Fail.  Disagreement otherwise is a QualityWarning for now: it is the
 * check that catches a timestampPeriod wrong by any factor (bug class 18,
 * both directions) and a device clock that stands still while the host
 * waits. */
static void calibrated_rate_vs_host(struct vkqs_ctx *ctx, const void *param)
{
	const struct domain_param *p = param;
	struct calib c;
	calib_require(ctx, &c);
	calib_require_domain(ctx, &c, VK_TIME_DOMAIN_DEVICE_EXT);
	calib_require_domain(ctx, &c, p->domain);
	struct calib_pair a = calib_best_pair(ctx, &c, p->domain);
	ts_sleep_ns(RATE_SLEEP_NS);
	struct calib_pair b = calib_best_pair(ctx, &c, p->domain);

	VKQS_ASSERTF(ctx, b.host_ts > a.host_ts,
		"expected the %s sample after 20 ms of sleep (%" PRIu64 ") to exceed the one "
		"before (%" PRIu64 ")",
		p->name, b.host_ts, a.host_ts);
	uint64_t host_ns = b.host_ts - a.host_ts;
	uint32_t bits = device_domain_bits(ctx);
	uint64_t fwd = vkqs_ts_forward(a.dev_ts, b.dev_ts, bits);
	uint64_t slack = a.deviation + b.deviation;
	bool backwards = !vkqs_ts_not_before(ctx, a.dev_ts, b.dev_ts, bits, host_ns + slack);
	VKQS_EXPECTF(ctx, !backwards,
		"expected the device domain not to go backwards over %" PRIu64 " ns of %s: "
		"%" PRIu64 " then %" PRIu64,
		host_ns, p->name, a.dev_ts, b.dev_ts);
	if (backwards)
		return;
	double period = ctx->vk->props.limits.timestampPeriod;
	double dev_ns = (double)fwd * period;
	double tol = (double)slack + VKQS_TS_CLOCK_TOL * (double)host_ns + 2.0 * period;
	if (fabs(dev_ns - (double)host_ns) > tol)
		vkqs_quality_warning(ctx,
				     "the device domain advanced %.0f ns (%" PRIu64 " ticks x "
				     "timestampPeriod %g) while %s advanced %" PRIu64
				     " ns; they should agree within %.0f ns (maxDeviation %" PRIu64
				     " + %" PRIu64 " ns, %g of the interval, 2 periods)",
				     dev_ns, fwd, period, p->name, host_ns, tol, a.deviation,
				     b.deviation, VKQS_TS_CLOCK_TOL);
}

/* vkGetPhysicalDeviceCalibrateableTimeDomainsKHR's array protocol: the count
 * alone; the full list (no domain twice, since a calibration samples each
 * once); and a short array, which gets "at most pTimeDomainCount values"
 * of the list, VK_INCOMPLETE, the count of values written, and nothing
 * past it. */
static void calibrated_time_domains_enumeration(struct vkqs_ctx *ctx, const void *param)
{
	if (!ts_has_calibrated(ctx))
		vkqs_skip(ctx, "neither VK_KHR_calibrated_timestamps nor "
			       "VK_EXT_calibrated_timestamps is supported");
	PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsKHR fn =
		ctx->vk->get_calibrateable_time_domains;
	if (!fn)
		vkqs_internal_error(ctx, "calibrated-timestamp entry points not found");
	const VkTimeDomainKHR guard = (VkTimeDomainKHR)0x7ffffffe;
	uint32_t total = 0;
	VKQS_CHECK(ctx, fn(ctx->vk->phys, &total, NULL));
	VKQS_ASSERTF(ctx, total <= 32, "implausible time domain count %u", total);

	VkTimeDomainKHR all[34];
	for (uint32_t i = 0; i < VKQS_ARRAY_LEN(all); i++)
		all[i] = guard;
	uint32_t n = total + 1;
	VKQS_CHECK(ctx, fn(ctx->vk->phys, &n, all));
	VKQS_EXPECT_EQ(ctx, n, total);
	VKQS_EXPECTF(ctx, all[total] == guard,
		"expected the array element past the %u domains to stay untouched", total);
	for (uint32_t i = 0; i < total && i < n; i++)
		for (uint32_t j = 0; j < i; j++)
			VKQS_EXPECTF(ctx, all[i] != all[j],
				"expected each time domain once, got %d at %u and %u",
				(int)all[i], j, i);
	if (total == 0)
		return;

	VkTimeDomainKHR some[34];
	for (uint32_t i = 0; i < VKQS_ARRAY_LEN(some); i++)
		some[i] = guard;
	n = total - 1;
	VKQS_EXPECT_VK(ctx, fn(ctx->vk->phys, &n, some), VK_INCOMPLETE);
	VKQS_EXPECTF(ctx, n <= total - 1,
		"expected at most %u domains written to a short array, count says %u",
		total - 1, n);
	for (uint32_t i = 0; i < total - 1 && i < n; i++) {
		bool listed = false;
		for (uint32_t j = 0; j < total; j++)
			listed |= some[i] == all[j];
		VKQS_EXPECTF(ctx, listed, "expected short-array entry %u (%d) to be in the list",
			     i, (int)some[i]);
	}
	VKQS_EXPECTF(ctx, some[total - 1] == guard,
		"expected the element past a short array of %u to stay untouched", total - 1);
}

static const struct vkqs_case cases[] = {
	{.name = "calibrated.device_domain_brackets_write",
	 .fn = calibrated_device_domain,
	 .spec = "VkTimeDomainKHR: VK_TIME_DOMAIN_DEVICE values use the same units and "
		 "are comparable with device timestamp values captured using "
		 "vkCmdWriteTimestamp"},
	{.name = "calibrated.device_domain_brackets_writes",
	 .fn = calibrated_brackets_writes,
	 .spec = "VkTimeDomainKHR: VK_TIME_DOMAIN_DEVICE values use the same units and "
		 "are comparable with device timestamp values captured using "
		 "vkCmdWriteTimestamp",
	 .params = VKQS_PARAMS(queue_params, ts_queue_name)},
	{.name = "calibrated.host_domain_brackets_clock_gettime",
	 .fn = calibrated_host_domain,
	 .spec = "VkTimeDomainKHR: CLOCK_MONOTONIC / CLOCK_MONOTONIC_RAW values are "
		 "comparable with platform timestamp values captured using the POSIX "
		 "clock_gettime API",
	 .params = VKQS_PARAMS(host_domains, domain_param_name)},
	{.name = "calibrated.max_deviation",
	 .fn = calibrated_max_deviation,
	 .spec = "vkGetCalibratedTimestampsKHR: pMaxDeviation returns the strictly "
		 "positive maximum deviation, in nanoseconds, of the calibrated timestamp "
		 "values (bound: CTS's 100 ms / 50 ms ladder)",
	 .params = VKQS_PARAMS(dsets, dset_name)},
	{.name = "calibrated.non_decreasing",
	 .fn = calibrated_non_decreasing,
	 .spec = "VkTimeDomainKHR: device-domain values are incrementing according to "
		 "the timestampPeriod of the device; host domains are clock_gettime values",
	 .params = VKQS_PARAMS(all_domains, domain_param_name)},
	{.name = "calibrated.rate_vs_host",
	 .fn = calibrated_rate_vs_host,
	 .spec = "VkTimeDomainKHR: device-domain values are incrementing according to "
		 "the timestampPeriod of the device; timestampPeriod is the number of "
		 "nanoseconds required for a timestamp query to be incremented by 1",
	 .params = VKQS_PARAMS(host_domains, domain_param_name)},
	{.name = "calibrated.time_domains_enumeration",
	 .fn = calibrated_time_domains_enumeration,
	 .spec = "vkGetPhysicalDeviceCalibrateableTimeDomainsKHR: at most "
		 "pTimeDomainCount values are written and VK_INCOMPLETE is returned "
		 "when the array is too small"},
};

VKQS_GROUP(timestamp, calibrated, cases);
