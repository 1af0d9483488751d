// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the numbers of the programs' options and arguments
 * (common/num.c): whole strings only, ranges, overflow, signs, bases,
 * NaN and infinity.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "num.h"

/* A signed parse of @s in [@min, @max]: its return; *@out untouched on error. */
static int ll(const char *s, long long min, long long max, long long *out)
{
	long long v = 12345;
	int r = num_parse_ll(s, min, max, &v);

	if (r)
		assert_int_equal(v, 12345);
	*out = v;
	return r;
}

static void test_ll_accepts(void **state)
{
	long long v;

	(void)state;
	assert_int_equal(ll("0", -10, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ll("-10", -10, 10, &v), 0);
	assert_int_equal(v, -10);
	assert_int_equal(ll("+10", -10, 10, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(ll("-0", -10, 10, &v), 0);
	assert_int_equal(v, 0);
	/* a leading zero is a decimal digit, not octal */
	assert_int_equal(ll("010", 0, 100, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(ll("0009", 0, 100, &v), 0);
	assert_int_equal(v, 9);
	assert_int_equal(ll("9223372036854775807", LLONG_MIN, LLONG_MAX, &v), 0);
	assert_true(v == LLONG_MAX);
	assert_int_equal(ll("-9223372036854775808", LLONG_MIN, LLONG_MAX, &v), 0);
	assert_true(v == LLONG_MIN);
}

static void test_ll_not_a_number(void **state)
{
	static const char *const bad[] = {
		"", "-", "+", "+-1", "--1", "-+1", "x", "1x", "1 ", " 1", "\t1", "1\n",
		"0x10", "0X1f", "1.0", "1e3", "1,000", "1_000", "12a3",
	};
	long long v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ll(bad[i], LLONG_MIN, LLONG_MAX, &v) != -EINVAL)
			fail_msg("'%s' read as a number", bad[i]);
	}
	assert_int_equal(num_parse_ll(NULL, 0, 1, &v), -EINVAL);
}

static void test_ll_range(void **state)
{
	long long v;

	(void)state;
	assert_int_equal(ll("11", -10, 10, &v), -ERANGE);
	assert_int_equal(ll("-11", -10, 10, &v), -ERANGE);
	assert_int_equal(ll("0", 1, 10, &v), -ERANGE);
	/* overflow: out of range, whatever the bounds */
	assert_int_equal(ll("9223372036854775808", LLONG_MIN, LLONG_MAX, &v), -ERANGE);
	assert_int_equal(ll("-9223372036854775809", LLONG_MIN, LLONG_MAX, &v), -ERANGE);
	assert_int_equal(ll("99999999999999999999999", LLONG_MIN, LLONG_MAX, &v), -ERANGE);
	/* junk after an overflowing number is junk first */
	assert_int_equal(ll("99999999999999999999999x", LLONG_MIN, LLONG_MAX, &v), -EINVAL);
	/* int32_t's bounds, as dcmctl's times use them */
	assert_int_equal(ll("2147483647", INT32_MIN, INT32_MAX, &v), 0);
	assert_int_equal(ll("2147483648", INT32_MIN, INT32_MAX, &v), -ERANGE);
	assert_int_equal(ll("-2147483648", INT32_MIN, INT32_MAX, &v), 0);
	assert_int_equal(ll("-2147483649", INT32_MIN, INT32_MAX, &v), -ERANGE);
}

static int ull(const char *s, unsigned int base, unsigned long long min, unsigned long long max,
	       unsigned long long *out)
{
	unsigned long long v = 12345;
	int r = num_parse_ull(s, base, min, max, &v);

	if (r)
		assert_int_equal(v, 12345);
	*out = v;
	return r;
}

static void test_ull_accepts(void **state)
{
	unsigned long long v;

	(void)state;
	assert_int_equal(ull("0", 10, 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ull("+7", 10, 0, 10, &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(ull("18446744073709551615", 10, 0, ULLONG_MAX, &v), 0);
	assert_true(v == ULLONG_MAX);
	assert_int_equal(ull("4294967295", 10, 0, UINT32_MAX, &v), 0);
	assert_int_equal(v, UINT32_MAX);
	/* octal: with or without its leading 0 */
	assert_int_equal(ull("0660", 8, 0, 0777, &v), 0);
	assert_int_equal(v, 0660);
	assert_int_equal(ull("777", 8, 0, 0777, &v), 0);
	assert_int_equal(v, 0777);
	assert_int_equal(ull("0", 8, 0, 0777, &v), 0);
	assert_int_equal(v, 0);
}

static void test_ull_not_a_number(void **state)
{
	static const char *const bad[] = {
		"", "-", "+", "x", "1x", " 1", "1 ", "\n1", "0x10", "1.5", "1e3", "--1", "+-1",
		"-x",
	};
	unsigned long long v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ull(bad[i], 10, 0, ULLONG_MAX, &v) != -EINVAL)
			fail_msg("'%s' read as a number", bad[i]);
	}
	assert_int_equal(num_parse_ull(NULL, 10, 0, 1, &v), -EINVAL);
	/* octal has no 8 or 9 */
	assert_int_equal(ull("8", 8, 0, 0777, &v), -EINVAL);
	assert_int_equal(ull("0789", 8, 0, 0777, &v), -EINVAL);
	/* bases other than 8 and 10 are refused */
	assert_int_equal(ull("1", 16, 0, 10, &v), -EINVAL);
	assert_int_equal(ull("1", 0, 0, 10, &v), -EINVAL);
	assert_int_equal(ull("1", 2, 0, 10, &v), -EINVAL);
}

static void test_ull_range(void **state)
{
	unsigned long long v;

	(void)state;
	/* negative: never an unsigned's, not even -0 (strtoull() would negate) */
	assert_int_equal(ull("-1", 10, 0, ULLONG_MAX, &v), -ERANGE);
	assert_int_equal(ull("-0", 10, 0, ULLONG_MAX, &v), -ERANGE);
	assert_int_equal(ull("-18446744073709551615", 10, 0, ULLONG_MAX, &v), -ERANGE);
	assert_int_equal(ull("18446744073709551616", 10, 0, ULLONG_MAX, &v), -ERANGE);
	assert_int_equal(ull("4294967296", 10, 0, UINT32_MAX, &v), -ERANGE);
	assert_int_equal(ull("0", 10, 1, 10, &v), -ERANGE);
	assert_int_equal(ull("11", 10, 1, 10, &v), -ERANGE);
	assert_int_equal(ull("1000", 8, 0, 0777, &v), -ERANGE);
	assert_int_equal(ull("1", 10, 1, 1, &v), 0);
	assert_int_equal(v, 1);
}

static int dbl(const char *s, double min, double max, double *out)
{
	double v = 12345;
	int r = num_parse_double(s, min, max, &v);

	if (r)
		assert_true(v == 12345);
	*out = v;
	return r;
}

static void test_double_accepts(void **state)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{ "0", 0 }, { "-0.5", -0.5 }, { "+2.25", 2.25 }, { ".5", 0.5 }, { "5.", 5 },
		{ "1e3", 1000 }, { "1E-3", 0.001 }, { "-1.5e+2", -150 }, { "007", 7 },
		{ "1e308", 1e308 },
	};
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(dbl(good[i].s, -HUGE_VAL, HUGE_VAL, &v), 0);
		assert_true(v == good[i].v);
	}
	/* too small to represent: the nearest double */
	assert_int_equal(dbl("1e-400", -1, 1, &v), 0);
	assert_true(v >= 0 && v < 1e-300);
	/* the bounds are in the range */
	assert_int_equal(dbl("0.25", 0.25, 0.75, &v), 0);
	assert_int_equal(dbl("0.75", 0.25, 0.75, &v), 0);
}

static void test_double_not_a_number(void **state)
{
	static const char *const bad[] = {
		"", "-", "+", ".", "-.", "e3", ".e3", "1e", "1e+", "1.5x", " 1", "1 ", "1\n",
		"0x1p3", "-0X10", "1,5", "1..5", "--1", "+-1", "nan(", "infx", "infinit",
	};
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (dbl(bad[i], -HUGE_VAL, HUGE_VAL, &v) != -EINVAL)
			fail_msg("'%s' read as a number", bad[i]);
	}
	assert_int_equal(num_parse_double(NULL, 0, 1, &v), -EINVAL);
}

static void test_double_not_finite(void **state)
{
	static const char *const inf[] = {
		"nan", "NaN", "-nan", "+NAN", "nan(123)", "inf", "-inf", "+Inf", "infinity",
		"-INFINITY",
	};
	double v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inf) / sizeof(inf[0]); i++) {
		if (dbl(inf[i], -HUGE_VAL, HUGE_VAL, &v) != -EDOM)
			fail_msg("'%s' not refused as not finite", inf[i]);
	}
}

static void test_double_range(void **state)
{
	double v;

	(void)state;
	assert_int_equal(dbl("1e400", -HUGE_VAL, HUGE_VAL, &v), -ERANGE);
	assert_int_equal(dbl("-1e400", -HUGE_VAL, HUGE_VAL, &v), -ERANGE);
	assert_int_equal(dbl("0.2499", 0.25, 0.75, &v), -ERANGE);
	assert_int_equal(dbl("0.7501", 0.25, 0.75, &v), -ERANGE);
	assert_int_equal(dbl("-1", 0, 1e7, &v), -ERANGE);
	assert_int_equal(dbl("1e8", 0, 1e7, &v), -ERANGE);
}

/* A count: digits only, no sign however written, then the range. */
static void test_count(void **state)
{
	static const char *const bad[] = {
		"", "+1", "-1", "-0", "+0", " 1", "1 ", "1x", "0x10", "1.0", "1e3", "x",
	};
	unsigned long long v = 99;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (num_parse_count(bad[i], 0, ULLONG_MAX, &v) != -EINVAL)
			fail_msg("'%s' read as a count", bad[i]);
	}
	assert_int_equal(v, 99);
	assert_int_equal(num_parse_count(NULL, 0, 1, &v), -EINVAL);
	assert_int_equal(num_parse_count("0", 0, 4095, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(num_parse_count("0042", 0, 4095, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(num_parse_count("4095", 0, 4095, &v), 0);
	assert_int_equal(v, 4095);
	v = 99;
	assert_int_equal(num_parse_count("4096", 0, 4095, &v), -ERANGE);
	assert_int_equal(num_parse_count("0", 1, 10, &v), -ERANGE);
	assert_int_equal(num_parse_count("18446744073709551616", 0, ULLONG_MAX, &v), -ERANGE);
	assert_int_equal(v, 99);
	assert_int_equal(num_parse_count("18446744073709551615", 0, ULLONG_MAX, &v), 0);
	assert_true(v == ULLONG_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ll_accepts),
		cmocka_unit_test(test_ll_not_a_number),
		cmocka_unit_test(test_ll_range),
		cmocka_unit_test(test_ull_accepts),
		cmocka_unit_test(test_ull_not_a_number),
		cmocka_unit_test(test_ull_range),
		cmocka_unit_test(test_double_accepts),
		cmocka_unit_test(test_double_not_a_number),
		cmocka_unit_test(test_double_not_finite),
		cmocka_unit_test(test_double_range),
		cmocka_unit_test(test_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
