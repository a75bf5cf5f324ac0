/* The verdict policy's helpers (verdict.h, docs/verdicts.md). */
#include <stdarg.h>
#include <stdio.h>

#include "verdict.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > VKQS_UNBOUNDED - b ? VKQS_UNBOUNDED : a + b;
}

struct vkqs_band vkqs_band_exact(uint64_t n)
{
	return (struct vkqs_band){.must = n, .soft = n, .warn = n, .max = n};
}

struct vkqs_band vkqs_band_natural(uint64_t n)
{
	return (struct vkqs_band){.must = n, .soft = n, .warn = n, .max = VKQS_UNBOUNDED};
}

struct vkqs_band vkqs_band_soft(uint64_t must, uint64_t soft, const char *why)
{
	return (struct vkqs_band){
		.must = must, .soft = soft, .warn = soft, .max = VKQS_UNBOUNDED, .soft_why = why};
}

struct vkqs_band vkqs_band_undefined(const char *why)
{
	return (struct vkqs_band){.max = VKQS_UNBOUNDED, .warn = VKQS_UNBOUNDED,
				  .undefined = why};
}

void vkqs_band_add(struct vkqs_band *a, const struct vkqs_band *b)
{
	a->must = sat_add(a->must, b->must);
	a->soft = sat_add(a->soft, b->soft);
	a->warn = sat_add(a->warn, b->warn);
	a->max = sat_add(a->max, b->max);
	if (!a->soft_why)
		a->soft_why = b->soft_why;
	if (!a->warn_why)
		a->warn_why = b->warn_why;
	if (!a->undefined)
		a->undefined = b->undefined;
}

bool vkqs_check_band(struct vkqs_ctx *ctx, const char *file, int line, const char *what,
		     uint64_t v, const struct vkqs_band *b)
{
	ctx->checks++;
	if (b->undefined) {
		vkqs_report(ctx, VKQS_PASS, file, line, "%s is %" PRIu64 ": undefined, no verdict (%s)",
			    what, v, b->undefined);
		return true;
	}
	if (v < b->must) {
		vkqs_report(ctx, VKQS_FAIL, file, line,
			    "%s is %" PRIu64 ", below %" PRIu64 ", the least the spec allows", what,
			    v, b->must);
		return false;
	}
	if (v > b->max) {
		vkqs_report(ctx, VKQS_FAIL, file, line,
			    "%s is %" PRIu64 ", above %" PRIu64 ", the most the spec allows", what,
			    v, b->max);
		return false;
	}
	if (v < b->soft)
		vkqs_report(ctx, VKQS_COMPATIBILITY_WARNING, file, line,
			    "%s is %" PRIu64 ", fewer than the %" PRIu64
			    " of the counter's description: allowed (%s), not portable",
			    what, v, b->soft, b->soft_why ? b->soft_why : "open in the spec");
	else if (v > b->warn)
		vkqs_report(ctx, VKQS_COMPATIBILITY_WARNING, file, line,
			    "%s is %" PRIu64 ", more than the %" PRIu64
			    " of the counter's description: legal (%s), not portable",
			    what, v, b->warn, b->warn_why ? b->warn_why : VKQS_SPEC_STATS_DESCRIPTION);
	return true;
}

bool vkqs_check_compat(struct vkqs_ctx *ctx, const char *file, int line, bool ok,
		       const char *kind, const char *fmt, ...)
{
	ctx->checks++;
	if (ok)
		return true;
	char msg[VKQS_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vkqs_report(ctx, VKQS_COMPATIBILITY_WARNING, file, line, "%s: no Fail (%s)", msg, kind);
	return false;
}
