/* Timestamp checks shared by the areas that write timestamps (spec 18.5).
 *
 * Host CLOCK_MONOTONIC and the device counter run from different
 * oscillators.  Crystals are specified to about +-100 ppm and NTP slews
 * CLOCK_MONOTONIC by at most 500 ppm (the kernel's MAXFREQ), so the two rates
 * agree to well under 0.1 %; VKQS_TS_CLOCK_TOL = 1 % leaves an order of
 * magnitude of margin while a timestampPeriod wrong by a constant factor
 * (bug class 18, e.g. 41.667 reported as 1.0) is far outside it. */
#ifndef VKQS_TSCHECK_H
#define VKQS_TSCHECK_H

#include "vkutil.h"

#define VKQS_TS_CLOCK_TOL 0.01

/* The valid bits of a counter of `bits` bits (all 64 from 64 up). */
uint64_t vkqs_ts_mask(uint32_t bits);

/* The most ticks the counter can advance in host_ns of host time: one tick
 * per timestampPeriod ns (18.5), with VKQS_TS_CLOCK_TOL and one tick of
 * truncation at each end; UINT64_MAX without a positive period
 * (vkqs.timestamp.properties.timestamp_period_positive reports that). */
uint64_t vkqs_ts_ticks_within(const struct vkqs_ctx *ctx, uint64_t host_ns);

/* How far the counter ran forward from a to b, both taken within the valid
 * bits: (b - a) mod 2^bits. */
uint64_t vkqs_ts_forward(uint64_t a, uint64_t b, uint32_t bits);

/* A counter of `bits` bits reads exactly 0 only in the one tick after it
 * wraps (or the first tick after power-up).  With at least 36 valid bits
 * (VkQueueFamilyProperties: "The valid range for the count is 36 to 64
 * bits", checked by vkqs.timestamp.properties.valid_bits_range) one write
 * lands there with probability at most 2^-36, so a zero is a value the
 * driver never wrote (bug class 15), not chance.  VkQueueFamilyProperties:
 * "Bits outside the valid range are guaranteed to be zeros."  Two checks:
 * (bits < 64) no bit of v is set above `bits` (a Fail); v == 0 only warns; `what`
 * names v in the messages. */
bool vkqs_ts_check_valid(struct vkqs_ctx *ctx, const char *file, int line,
			 const char *what, uint64_t v, uint32_t bits);
#define VKQS_TS_EXPECT_VALID(ctx, what, v, bits) \
	vkqs_ts_check_valid((ctx), __FILE__, __LINE__, (what), (v), (bits))

/* 18.5: "Any timestamp write that happens-after another timestamp write in
 * the same submission must not have a lower value unless its value
 * overflows the maximum supported integer bit width of the query", and "If
 * an overflow occurs, the timestamp value must wrap back to zero".  So a
 * lower later value is legal only as a wrap: the counter ran forward from a
 * through 2^bits - 1 to 0 and on to b, (b - a) mod 2^bits ticks in all.
 * Both values were sampled within host_ns, so that forward distance cannot
 * exceed the ticks of host_ns; a decrease without that room is a counter
 * going backwards (bug class 19).  This is tighter than "the modular
 * difference is below 2^(bits-1)" and as principled: it needs only the
 * period.  Values are compared within the valid bits (the bits above them
 * are vkqs_ts_check_valid's). */
bool vkqs_ts_not_before(const struct vkqs_ctx *ctx, uint64_t a, uint64_t b, uint32_t bits,
			uint64_t host_ns);
/* The check of vkqs_ts_not_before: b (`what_b`) happens-after a (`what_a`). */
bool vkqs_ts_check_not_before(struct vkqs_ctx *ctx, const char *file, int line,
			      const char *what_a, uint64_t a, const char *what_b,
			      uint64_t b, uint32_t bits, uint64_t host_ns);
#define VKQS_TS_EXPECT_NOT_BEFORE(ctx, what_a, a, what_b, b, bits, host_ns)            \
	vkqs_ts_check_not_before((ctx), __FILE__, __LINE__, (what_a), (a), (what_b), (b), \
				 (bits), (host_ns))

#endif
