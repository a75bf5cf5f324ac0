#include "tscheck.h"

uint64_t vkqs_ts_mask(uint32_t bits)
{
	return bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
}

uint64_t vkqs_ts_ticks_within(const struct vkqs_ctx *ctx, uint64_t host_ns)
{
	double period = ctx->vk->props.limits.timestampPeriod;
	if (!(period > 0.0))
		return UINT64_MAX;
	double t = (double)host_ns * (1.0 + VKQS_TS_CLOCK_TOL) / period + 2.0;
	return t >= 0x1p63 ? UINT64_MAX : (uint64_t)t;
}

uint64_t vkqs_ts_forward(uint64_t a, uint64_t b, uint32_t bits)
{
	uint64_t m = vkqs_ts_mask(bits);
	return ((b & m) - (a & m)) & m;
}

bool vkqs_ts_check_valid(struct vkqs_ctx *ctx, const char *file, int line,
			 const char *what, uint64_t v, uint32_t bits)
{
	/* 0 breaks no sentence of 1.4.360: a counter may read 0 at its epoch
	 * (at most 2^-36 likely for any one write), so it only warns. */
	bool ok = true;
	if (v == 0)
		vkqs_report(ctx, VKQS_COMPATIBILITY_WARNING, file, line,
			    "%s is 0: legal, but a clock reads it at most once in 2^36 ticks", what);
	if (bits < 64)
		ok &= vkqs_check_fmt(ctx, false, file, line, (v >> bits) == 0,
				     "expected %s (0x%016" PRIx64 ") to have no bit set above "
				     "timestampValidBits %u",
				     what, v, bits);
	return ok;
}

bool vkqs_ts_not_before(const struct vkqs_ctx *ctx, uint64_t a, uint64_t b, uint32_t bits,
			uint64_t host_ns)
{
	uint64_t m = vkqs_ts_mask(bits);
	return (b & m) >= (a & m) ||
	       vkqs_ts_forward(a, b, bits) <= vkqs_ts_ticks_within(ctx, host_ns);
}

bool vkqs_ts_check_not_before(struct vkqs_ctx *ctx, const char *file, int line,
			      const char *what_a, uint64_t a, const char *what_b,
			      uint64_t b, uint32_t bits, uint64_t host_ns)
{
	uint64_t m = vkqs_ts_mask(bits);
	return vkqs_check_fmt(ctx, false, file, line,
			      vkqs_ts_not_before(ctx, a, b, bits, host_ns),
			      "expected %s (%" PRIu64 ") to be >= %s (%" PRIu64 ") that it "
			      "happens-after, or a %u-bit wrap: the forward distance %" PRIu64
			      " ticks exceeds the %" PRIu64 " ticks that fit in the %" PRIu64
			      " ns host interval",
			      what_b, b & m, what_a, a & m, bits, vkqs_ts_forward(a, b, bits),
			      vkqs_ts_ticks_within(ctx, host_ns), host_ns);
}
