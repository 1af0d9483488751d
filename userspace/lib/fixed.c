// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: fixed-point (s64 micro-units) and DCM time helpers. Decimal text
 * goes through the kernel's kernel/model/dcm_fixed.c.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "libdcm-private.h"
#include "model/dcm_fixed.h"

_Static_assert(LIBDCM_FIXED_TEXT_LEN == DCM_FIXED_TEXT_LEN, "fixed text");

DCM_EXPORT double dcm_fixed_to_double(int64_t v)
{
	/* One correctly rounded division while v is exact as a double. */
	if (v >= -(INT64_C(1) << 53) && v <= (INT64_C(1) << 53))
		return (double)v / DCM_MICRO;
	/* Beyond: integer and fractional parts separately (both exact). */
	return (double)(v / DCM_MICRO) + (double)(v % DCM_MICRO) / DCM_MICRO;
}

/*
 * Nearest integer to the exact product d * 10^6, ties away from zero.
 * p = fl(d * 10^6) and e = d * 10^6 - p (exact, from fma), so the exact
 * value is p + e. Stores the result or the saturated limit in *out.
 */
/*
 * p + e rounded, |p| < 2^52. Work on the magnitude. frac = a - floor(a)
 * is exact; every double of this size is a multiple of ulp(a) <= 0.5 and
 * |ea| <= ulp(a)/2, so comparing frac - 0.5 with -ea decides the rounding
 * exactly.
 */
static int64_t round_small(double p, double e)
{
	double a = fabs(p), ea = p < 0 ? -e : e, r0 = floor(a);
	double frac = a - r0, diff = frac - 0.5;
	bool up = !(diff < -ea);	/* ties round up (away from zero) */
	int64_t r = (int64_t)r0 + (up ? 1 : 0);

	return p < 0 ? -r : r;
}

/* p + e rounded into *@out, |p| >= 2^52: p is an integer, round the exact residual. */
static int round_large(double p, double e, int64_t *out)
{
	double re = round(e);	/* half away from zero */
	int64_t r;

	if (fabs(e - trunc(e)) == 0.5)	/* tie on p + e: away from 0 */
		re = p > 0 ? ceil(e) : floor(e);

	if (p >= 0x1p63) {
		/* only p == 2^63 with a negative residual fits */
		if (p == 0x1p63 && re <= -1.0) {
			*out = INT64_MAX + ((int64_t)re + 1);
			return 0;
		}
		*out = INT64_MAX;
		return -ERANGE;
	}
	if (p < -0x1p63) {
		*out = INT64_MIN;
		return -ERANGE;
	}
	r = (int64_t)p;	/* exact: -2^63 <= p < 2^63 */
	if (re < 0 && r < INT64_MIN - (int64_t)re) {
		*out = INT64_MIN;
		return -ERANGE;
	}
	if (re > 0 && r > INT64_MAX - (int64_t)re) {
		*out = INT64_MAX;
		return -ERANGE;
	}
	*out = r + (int64_t)re;
	return 0;
}

DCM_EXPORT int dcm_double_to_fixed_checked(double d, int64_t *out)
{
	double p, e;

	if (isnan(d))
		return -EINVAL;

	p = d * DCM_MICRO;
	if (isinf(p)) {
		*out = p > 0 ? INT64_MAX : INT64_MIN;
		return -ERANGE;
	}
	e = fma(d, DCM_MICRO, -p);
	if (fabs(p) < 0x1p52) {
		*out = round_small(p, e);
		return 0;
	}
	return round_large(p, e, out);
}

DCM_EXPORT int64_t dcm_double_to_fixed(double d)
{
	int64_t v = 0;

	dcm_double_to_fixed_checked(d, &v);
	return v;
}

DCM_EXPORT int32_t dcm_time_diff(uint32_t a, uint32_t b)
{
	uint32_t d = a - b;

	/* The int32 cast, without implementation-defined conversion. */
	if (d <= INT32_MAX)
		return (int32_t)d;
	return -(int32_t)(UINT32_MAX - d) - 1;
}

DCM_EXPORT uint32_t dcm_time_add(uint32_t t, int32_t ms)
{
	return t + (uint32_t)ms;
}

/*
 * Decimal text: kernel/model/dcm_fixed.c, the kernel's own reader and
 * writer (sysfs), built into the library. The library's text takes an
 * exponent and no trailing newline.
 */
DCM_EXPORT int dcm_fixed_from_string(const char *s, int64_t *out)
{
	if (!s || !out)
		return -EINVAL;
	return dcm_decimal_parse(s, strlen(s), DCM_DECIMAL_EXPONENT, 0, out, NULL);
}

DCM_EXPORT int dcm_fraction_from_string(const char *s, int64_t *num, uint32_t *den)
{
	unsigned int extra, i;
	int64_t v;
	int r;

	if (!s || !num || !den)
		return -EINVAL;
	r = dcm_decimal_parse(s, strlen(s), DCM_DECIMAL_EXPONENT, 9, &v, &extra);
	if (r)
		return r;
	*num = v;
	for (*den = 1, i = 0; i < extra; i++)
		*den *= 10;
	return 0;
}

DCM_EXPORT int dcm_fixed_to_string(int64_t v, char *buf, size_t len)
{
	if (!buf)
		return -EINVAL;
	return dcm_fixed_format(v, buf, len);
}
