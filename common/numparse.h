/* The one number parser of vkqs (issue 43): the command line, the input
 * files and the reference device's knobs (refdevice/rd_util.c) read numbers
 * only through these, so a sign, a blank, a base prefix, an exponent, inf,
 * nan or an overflow is refused the same way everywhere. */
#ifndef VKQS_NUMPARSE_H
#define VKQS_NUMPARSE_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* An unsigned decimal integer in [min, max]: digits only (no sign, blank,
 * base prefix or trailing byte); overflow refused. */
static inline bool vkqs_parse_u64(const char *s, unsigned long long min,
				  unsigned long long max, unsigned long long *out)
{
	if (!s || !*s)
		return false;
	unsigned long long v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		unsigned d = (unsigned)(*p - '0');
		if (v > (ULLONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* A decimal number: digits with an optional fraction ("60", "0.5", "52.083"),
 * in [min, max] (min_open: above min); no sign, exponent, hex, inf or nan. */
static inline bool vkqs_parse_decimal(const char *s, double min, bool min_open, double max,
				      double *out)
{
	if (!s || !*s)
		return false;
	size_t digits = 0, dots = 0;
	for (const char *p = s; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && !dots && p != s && p[1])
			dots++;
		else
			return false;
	}
	if (!digits || strlen(s) > 20)
		return false;
	double v = strtod(s, NULL);
	if (!(min_open ? v > min : v >= min) || !(v <= max))
		return false;
	*out = v;
	return true;
}

#endif
