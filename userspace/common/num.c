// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Numbers of the dcm programs' options and arguments: a whole string as
 * an integer or a double within a range (num.h says the rules).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <strings.h>

#include "num.h"

static bool is_digit(char c, unsigned int base)
{
	return c >= '0' && c < (char)('0' + base);
}

/*
 * @s up to its digits: NULL, empty or no sign-then-digit is -EINVAL;
 * else 0, *@neg for a '-'.
 */
static int num_start(const char *s, unsigned int base, bool *neg)
{
	if (!s)
		return -EINVAL;
	*neg = *s == '-';
	if (*s == '+' || *s == '-')
		s++;
	return is_digit(*s, base) ? 0 : -EINVAL;
}

int num_parse_ll(const char *s, long long min, long long max, long long *out)
{
	long long v;
	char *end;
	bool neg;

	if (num_start(s, 10, &neg))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_ull(const char *s, unsigned int base, unsigned long long min,
		  unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;
	bool neg;

	if ((base != 8 && base != 10) || num_start(s, base, &neg))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, (int)base);
	if (*end)
		return -EINVAL;
	/* strtoull() negates a '-' number: none is an unsigned's */
	if (neg || errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_double(const char *s, double min, double max, double *out)
{
	const char *p = s;
	double v;
	char *end;

	if (!s)
		return -EINVAL;
	if (*p == '+' || *p == '-')
		p++;
	if (!strncasecmp(p, "nan", 3) || !strncasecmp(p, "inf", 3)) {
		/* strtod()'s spellings: nan, nan(chars), inf, infinity */
		strtod(s, &end);
		return *end ? -EINVAL : -EDOM;
	}
	if (!is_digit(*p, 10) && !(*p == '.' && is_digit(p[1], 10)))
		return -EINVAL;
	if (*p == '0' && (p[1] == 'x' || p[1] == 'X'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return -EINVAL;
	if ((errno == ERANGE && isinf(v)) || !(v >= min && v <= max))
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_count(const char *s, unsigned long long min, unsigned long long max,
		    unsigned long long *out)
{
	if (!s || !is_digit(*s, 10))
		return -EINVAL;
	return num_parse_ull(s, 10, min, max, out);
}
