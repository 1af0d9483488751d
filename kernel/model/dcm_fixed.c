// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - decimal text to and from micro-unit fixed point: the one reader and
 * writer of decimal values, for sysfs and, built for userspace, for libdcm.
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

/* The syntax of a decimal number, from dcm_decimal_scan(). */
struct dcm_decimal {
	const char *s;		/* the first digit or '.' of the digits */
	size_t dot;		/* index of the '.' in @s, or SIZE_MAX */
	s64 n_digits;		/* digits before and after the '.' */
	s64 n_frac;		/* digits after the '.' */
	s64 last_nonzero;	/* index of the last non-zero digit, or -1 */
	s64 exp10;		/* the exponent, saturated at +-DCM_EXP_SAT */
	bool neg;
};

/* Far beyond any exponent whose value fits: |exp10| stops growing here. */
#define DCM_EXP_SAT 1000000

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digit @i of @d, the '.' skipped. */
static unsigned int digit_at(const struct dcm_decimal *d, s64 i)
{
	size_t at = (size_t)i;

	if (at >= d->dot)
		at++;
	return d->s[at] - '0';
}

/*
 * "[-+]digits[.digits]" or "[-+].digits", then "e[+-]digits" if @exponent,
 * and nothing else: 0 with @d filled, or -EINVAL.
 */
static int dcm_decimal_scan(const char *s, size_t n, bool exponent,
			    struct dcm_decimal *d)
{
	size_t i = 0;

	memset(d, 0, sizeof(*d));
	d->dot = SIZE_MAX;
	d->last_nonzero = -1;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		d->neg = s[i++] == '-';
	d->s = s + i;
	for (; i < n && (is_digit(s[i]) || (s[i] == '.' && d->dot == SIZE_MAX)); i++) {
		if (s[i] == '.') {
			d->dot = s + i - d->s;
			continue;
		}
		if (s[i] != '0')
			d->last_nonzero = d->n_digits;
		d->n_digits++;
		if (d->dot != SIZE_MAX)
			d->n_frac++;
	}
	if (!d->n_digits)
		return -EINVAL;
	if (exponent && i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool eneg = false, edigits = false;

		if (++i < n && (s[i] == '-' || s[i] == '+'))
			eneg = s[i++] == '-';
		for (; i < n && is_digit(s[i]); i++) {
			edigits = true;
			if (d->exp10 < DCM_EXP_SAT)
				d->exp10 = d->exp10 * 10 + (s[i] - '0');
		}
		if (!edigits)
			return -EINVAL;
		if (eneg)
			d->exp10 = -d->exp10;
	}
	return i == n ? 0 : -EINVAL;
}

/*
 * The digits times 10^@k (a whole number: digits below it dropped, rounded
 * half away from zero on the first one dropped), up to @lim: 0 or -ERANGE.
 */
static int dcm_decimal_scale(const struct dcm_decimal *d, s64 k, u64 lim,
			     u64 *out)
{
	s64 keep = d->n_digits + k, i;
	u64 mag = 0;

	/* Past the last non-zero digit every step is a zero: ends in overflow. */
	for (i = 0; i < keep; i++) {
		unsigned int digit = i < d->n_digits ? digit_at(d, i) : 0;

		if (mag > (lim - digit) / 10)
			return -ERANGE;
		mag = mag * 10 + digit;
	}
	if (keep >= 0 && keep < d->n_digits && digit_at(d, keep) >= 5) {
		if (mag == lim)
			return -ERANGE;
		mag++;
	}
	*out = mag;
	return 0;
}

/**
 * dcm_decimal_parse() - read decimal text as a scaled integer
 * @s: the text, "[-+]digits[.digits]" or "[-+].digits", then with
 *	%DCM_DECIMAL_EXPONENT an optional "e" or "E" and "[-+]digits"
 * @len: the length of the text in @s (no NUL needed)
 * @flags: %DCM_DECIMAL_EXPONENT or 0
 * @max_extra: decimals past the sixth that @v may keep
 * @v: the value in units of 10^-(6 + *@extra): micro-units when *@extra is 0
 * @extra: where to store the decimals past the sixth kept; NULL when
 *	@max_extra is 0
 *
 * The one decimal reader of the project: sysfs uses it through
 * dcm_fixed_parse(), and libdcm (dcm_fixed_from_string(),
 * dcm_fraction_from_string()) builds this file for userspace. The value is
 * exact when 6 + @max_extra decimals hold it (the fewest that do are kept);
 * otherwise it is rounded to the nearest at the last decimal kept, half away
 * from zero. When it does not fit in s64 with that many, fewer are kept.
 * "-0" is 0. @v and @extra are only written on success.
 *
 * Return: 0, -EINVAL for text that is not such a number, -ERANGE when the
 * value does not fit in s64 micro-units.
 */
int dcm_decimal_parse(const char *s, size_t len, unsigned int flags,
		      unsigned int max_extra, s64 *v, unsigned int *extra)
{
	struct dcm_decimal d;
	u64 lim, mag = 0;
	s64 exact;
	unsigned int e;
	int ret;

	ret = dcm_decimal_scan(s, len, flags & DCM_DECIMAL_EXPONENT, &d);
	if (ret)
		return ret;
	lim = (u64)S64_MAX + (d.neg ? 1 : 0);
	e = 0;
	if (d.last_nonzero >= 0) {
		/* decimals past the sixth that make the value exact */
		exact = d.n_frac - d.exp10 - (d.n_digits - 1 - d.last_nonzero) - 6;
		if (exact > 0)
			e = exact < max_extra ? exact : max_extra;
		for (;;) {
			ret = dcm_decimal_scale(&d, d.exp10 - d.n_frac + 6 + e,
						lim, &mag);
			if (ret != -ERANGE || !e)
				break;
			e--;	/* too many digits for an s64: fewer decimals */
		}
		if (ret)
			return ret;
	}
	*v = d.neg ? (s64)(0ULL - mag) : (s64)mag;
	if (extra)
		*extra = e;
	return 0;
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
	return dcm_decimal_parse(s, text_len(s), 0, 0, v, NULL);
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
