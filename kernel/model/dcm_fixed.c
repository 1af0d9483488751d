// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - decimal text to and from micro-unit fixed point.
 */

#include "model/dcm_pure.h"
#include "model/dcm_fixed.h"

#define MICRO 1000000LL

/**
 * dcm_fixed_format() - write a micro-unit value as decimal text
 * @v: the value; 1500000 is 1.5
 * @buf: where to write, with a NUL
 * @len: size of @buf, at least DCM_FIXED_TEXT_LEN
 *
 * Writes six decimals, as IIO does for IIO_VAL_INT_PLUS_MICRO:
 * "1.500000", "-0.250000".
 *
 * Return: the length written, or -EINVAL if @len is too small.
 */
int dcm_fixed_format(s64 v, char *buf, size_t len)
{
	unsigned long long u;

	if (len < DCM_FIXED_TEXT_LEN)
		return -EINVAL;
	/* The magnitude of S64_MIN does not fit in s64: go unsigned. */
	u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	return snprintf(buf, len, "%s%llu.%06llu", v < 0 ? "-" : "",
			u / MICRO, u % MICRO);
}

/* Skip one trailing newline, as a shell's echo leaves it. */
static size_t text_len(const char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '\n')
		n--;
	return n;
}

/**
 * dcm_fixed_parse() - read decimal text as micro-units
 * @s: "[-+]digits[.digits]" or "[-+].digits", with at most one trailing
 *	newline; digits past the sixth decimal round to nearest, half away
 *	from zero
 * @v: the value
 *
 * Return: 0, -EINVAL for text that is not such a number, -ERANGE when the
 * value does not fit in s64 micro-units.
 */
int dcm_fixed_parse(const char *s, s64 *v)
{
	unsigned long long ip = 0, fp = 0, lim = (unsigned long long)S64_MAX;
	size_t n = text_len(s), i = 0;
	unsigned int nfrac = 0;
	bool neg = false, digits = false, round_up = false;
	unsigned long long mag;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		digits = true;
		if (ip > (lim / 10))
			return -ERANGE;
		ip = ip * 10 + (s[i] - '0');
	}
	if (i < n && s[i] == '.') {
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			digits = true;
			if (nfrac < 6) {
				fp = fp * 10 + (s[i] - '0');
				nfrac++;
			} else if (nfrac++ == 6) {
				round_up = s[i] >= '5';
			}
		}
	}
	if (!digits || i != n)
		return -EINVAL;
	for (; nfrac < 6; nfrac++)
		fp *= 10;
	if (ip > lim / MICRO)
		return -ERANGE;
	mag = ip * MICRO + fp + round_up;
	/* S64_MIN itself is allowed, its magnitude is one above S64_MAX. */
	if (mag > lim + (neg ? 1 : 0))
		return -ERANGE;
	*v = neg ? (s64)(0ULL - mag) : (s64)mag;
	return 0;
}

/**
 * dcm_int_parse() - read a decimal integer
 * @s: "[-+]digits" with at most one trailing newline
 * @v: the value
 *
 * Return: 0, -EINVAL, or -ERANGE.
 */
int dcm_int_parse(const char *s, s64 *v)
{
	unsigned long long mag = 0, lim = (unsigned long long)S64_MAX;
	size_t n = text_len(s), i = 0;
	bool neg = false;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (mag > (lim + 1) / 10 ||
		    mag * 10 + (s[i] - '0') > lim + (neg ? 1 : 0))
			return -ERANGE;
		mag = mag * 10 + (s[i] - '0');
	}
	*v = neg ? (s64)(0ULL - mag) : (s64)mag;
	return 0;
}
