// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: fixed-point (s64 micro-units) and DCM time helpers.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libdcm-private.h"

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
DCM_EXPORT int dcm_double_to_fixed_checked(double d, int64_t *out)
{
	double p, e, a, ea, r0, frac, diff;
	int64_t r;
	bool up;

	if (isnan(d))
		return -EINVAL;

	p = d * DCM_MICRO;
	if (isinf(p)) {
		*out = p > 0 ? INT64_MAX : INT64_MIN;
		return -ERANGE;
	}
	e = fma(d, DCM_MICRO, -p);

	if (fabs(p) < 0x1p52) {
		/*
		 * Work on the magnitude. frac = a - floor(a) is exact; every
		 * double of this size is a multiple of ulp(a) <= 0.5 and
		 * |ea| <= ulp(a)/2, so comparing frac - 0.5 with -ea decides
		 * the rounding exactly.
		 */
		a = fabs(p);
		ea = p < 0 ? -e : e;
		r0 = floor(a);
		frac = a - r0;
		diff = frac - 0.5;
		up = !(diff < -ea);	/* ties round up (away from zero) */
		r = (int64_t)r0 + (up ? 1 : 0);
		*out = p < 0 ? -r : r;
		return 0;
	}

	/* |p| >= 2^52: p is an integer, round the exact residual. */
	{
		double re = round(e);	/* half away from zero */

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

/* Append one decimal digit to a magnitude; false on overflow past @lim. */
static bool mag_push(uint64_t *mag, unsigned int digit, uint64_t lim)
{
	if (*mag > (lim - digit) / 10)
		return false;
	*mag = *mag * 10 + digit;
	return true;
}

/*
 * round(D * 10^k) for the significant digits D[0..nd) (a whole number),
 * half away from zero, within @lim. Return 0 or -ERANGE.
 */
static int scale_digits(const char *d, long nd, long k, uint64_t lim, uint64_t *out)
{
	uint64_t mag = 0;
	long keep = nd + k, i;

	if (keep > 19)
		return -ERANGE;
	for (i = 0; i < keep; i++)
		if (!mag_push(&mag, i < nd ? (unsigned int)(d[i] - '0') : 0, lim))
			return -ERANGE;
	/* round on the first digit dropped: a 5 is enough, whatever follows */
	if (keep >= 0 && keep < nd && d[keep] >= '5') {
		if (mag == lim)
			return -ERANGE;
		mag++;
	}
	*out = mag;
	return 0;
}

/*
 * The decimal text @s as round(value * 10^(6 + extra)) with the smallest
 * extra <= @max_extra that makes it exact (or @max_extra, rounded), and as
 * large as the int64_t allows.
 */
static int parse_decimal(const char *s, unsigned int max_extra, int64_t *out,
			 unsigned int *extra_out)
{
	const char *p = s, *dot = NULL;
	uint64_t lim = INT64_MAX, mag;
	long exp10 = 0, nfrac = 0, nd = 0, e10, extra;
	bool neg = false, any = false;
	char *d;
	int r;

	if (!s || !out)
		return -EINVAL;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	d = malloc(strlen(p) + 1);
	if (!d)
		return -ENOMEM;
	/* Mantissa: digits with at most one '.', at least one digit. */
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !dot); p++) {
		if (*p == '.') {
			dot = p;
			continue;
		}
		any = true;
		if (dot)
			nfrac++;
		if (nd || *p != '0')	/* leading zeros carry no value */
			d[nd++] = *p;
	}
	r = any ? 0 : -EINVAL;
	if (!r && (*p == 'e' || *p == 'E')) {
		bool eneg = false, edig = false;

		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		for (; *p >= '0' && *p <= '9'; p++) {
			edig = true;
			if (exp10 < 1000000)	/* saturate: far beyond any fit */
				exp10 = exp10 * 10 + (*p - '0');
		}
		if (!edig)
			r = -EINVAL;
		if (eneg)
			exp10 = -exp10;
	}
	if (!r && *p)
		r = -EINVAL;
	if (r) {
		free(d);
		return r;
	}
	/* value = D * 10^e10, D without its trailing zeros */
	e10 = exp10 - nfrac;
	while (nd && d[nd - 1] == '0') {
		nd--;
		e10++;
	}
	if (neg)
		lim = (uint64_t)INT64_MAX + 1;
	extra = e10 + 6 < 0 ? -(e10 + 6) : 0;
	if (extra > (long)max_extra)
		extra = max_extra;
	for (;;) {
		r = nd ? scale_digits(d, nd, e10 + 6 + extra, lim, &mag) : 0;
		if (!nd)
			mag = 0;
		if (r != -ERANGE || extra == 0)
			break;
		extra--;	/* too many digits for an int64_t: fewer decimals */
	}
	free(d);
	if (r)
		return r;
	*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	if (extra_out)
		*extra_out = (unsigned int)extra;
	return 0;
}

DCM_EXPORT int dcm_fixed_from_string(const char *s, int64_t *out)
{
	return parse_decimal(s, 0, out, NULL);
}

DCM_EXPORT int dcm_fraction_from_string(const char *s, int64_t *num, uint32_t *den)
{
	unsigned int extra = 0, i;
	int64_t v;
	int r;

	if (!den)
		return -EINVAL;
	r = parse_decimal(s, 9, &v, &extra);
	if (r)
		return r;
	*num = v;
	for (*den = 1, i = 0; i < extra; i++)
		*den *= 10;
	return 0;
}
