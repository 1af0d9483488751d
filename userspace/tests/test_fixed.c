// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: fixed-point conversions and DCM time arithmetic.
 * Expected values were computed with exact rational arithmetic.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "libdcm.h"

static void check(double d, int64_t want)
{
	int64_t got = INT64_C(0x5a5a5a5a);
	int err = dcm_double_to_fixed_checked(d, &got);

	if (err != 0 || got != want)
		fail_msg("%.17g: got %lld (err %d), want %lld", d,
			 (long long)got, err, (long long)want);
	assert_int_equal(dcm_double_to_fixed(d), want);
}

static void test_to_fixed_basic(void **state)
{
	(void)state;
	check(0.0, 0);
	check(-0.0, 0);
	check(1.0, 1000000);
	check(-1.0, -1000000);
	check(0.1, 100000);
	check(-0.1, -100000);
	check(123.456789, 123456789);
	check(-123.456789, -123456789);
	check(2.0943951, 2094395);	/* HeadYaw max, rad */
	check(1e-6, 1);
	check(-1e-6, -1);
}

static void test_to_fixed_rounding(void **state)
{
	(void)state;
	/* nearest */
	check(4e-7, 0);
	check(6e-7, 1);
	check(-6e-7, -1);
	check(1.4e-6, 1);
	check(1.6e-6, 2);
	/*
	 * The double 5e-7 is a little below 5e-7, so the nearest integer
	 * of the exact value is 0 although fl(d * 1e6) == 0.5 exactly.
	 */
	check(5e-7, 0);
	check(-5e-7, 0);
	/* ...and the double 3.0000005 is a little above: 3000001 */
	check(3.0000005, 3000001);
	check(-3.0000005, -3000001);
	check(1.0000005, 1000001);
	/* exact ties (dyadic values): away from zero */
	check(0.0078125, 7813);		/* 2^-7 -> 7812.5 */
	check(-0.0078125, -7813);
	check(0x1p-20, 1);		/* 0.953674... */
	check(2.5e-6, 3);
}

static void test_to_fixed_extremes(void **state)
{
	int64_t v = 0;

	(void)state;
	/* the largest values that do not saturate: p == 2^63, residual < 0 */
	check(9223372036854.775807, INT64_C(9223372036854775391));
	check(-9223372036854.775808, -INT64_C(9223372036854775391));
	/* values beyond 2^52 micro-units, exact integers */
	check(4503599627.370496, INT64_C(4503599627370496));
	check(-4503599627.370496, -INT64_C(4503599627370496));
	check(1e12, INT64_C(1000000000000000000));
	check(-1e12, -INT64_C(1000000000000000000));

	/* the next double up saturates */
	assert_int_equal(dcm_double_to_fixed_checked(
				nextafter(9223372036854.775807, INFINITY), &v),
			 -ERANGE);
	assert_true(v == INT64_MAX);
	assert_int_equal(dcm_double_to_fixed_checked(
				nextafter(-9223372036854.775808, -INFINITY), &v),
			 -ERANGE);
	assert_true(v == INT64_MIN);

	assert_int_equal(dcm_double_to_fixed_checked(1e300, &v), -ERANGE);
	assert_true(v == INT64_MAX);
	assert_int_equal(dcm_double_to_fixed_checked(-1e300, &v), -ERANGE);
	assert_true(v == INT64_MIN);
	assert_int_equal(dcm_double_to_fixed_checked(INFINITY, &v), -ERANGE);
	assert_true(v == INT64_MAX);
	assert_int_equal(dcm_double_to_fixed_checked(-INFINITY, &v), -ERANGE);
	assert_true(v == INT64_MIN);
	assert_true(dcm_double_to_fixed(1e19) == INT64_MAX);
	assert_true(dcm_double_to_fixed(-1e19) == INT64_MIN);
	assert_true(dcm_double_to_fixed(9.3e12) == INT64_MAX);

	/* tiny values */
	check(1e-300, 0);
	check(-1e-300, 0);
	check(4.9e-324, 0);
}

static void test_to_fixed_nan(void **state)
{
	int64_t v = 42;

	(void)state;
	assert_int_equal(dcm_double_to_fixed_checked(NAN, &v), -EINVAL);
	assert_true(v == 42);	/* untouched */
	assert_int_equal(dcm_double_to_fixed_checked(-NAN, &v), -EINVAL);
	assert_true(dcm_double_to_fixed(NAN) == 0);
}

static void test_to_double(void **state)
{
	(void)state;
	assert_true(dcm_fixed_to_double(0) == 0.0);
	assert_true(dcm_fixed_to_double(1000000) == 1.0);
	assert_true(dcm_fixed_to_double(-1500000) == -1.5);
	assert_true(dcm_fixed_to_double(100000) == 0.1);
	assert_true(dcm_fixed_to_double(1) == 1e-6);
	assert_true(dcm_fixed_to_double(123456789) == 123.456789);
	/* beyond 2^53: split path, still close */
	assert_true(fabs(dcm_fixed_to_double(INT64_MAX) - 9223372036854.775807) <
		    1e-3);
	assert_true(fabs(dcm_fixed_to_double(INT64_MIN) + 9223372036854.775808) <
		    1e-3);
	assert_true(dcm_fixed_to_double(INT64_C(9007199254740993)) ==
		    9007199254.740993);
}

static void test_round_trip(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int i;

	(void)state;
	/* fixed -> double -> fixed is the identity below 2^52 */
	for (i = 0; i < 200000; i++) {
		int64_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (int64_t)(x >> (12 + (i % 40)));	/* |v| < 2^52 */
		if (i & 1)
			v = -v;
		if (dcm_double_to_fixed(dcm_fixed_to_double(v)) != v)
			fail_msg("round trip of %lld failed", (long long)v);
	}
}

/* Decimal text: the kernel's reader (kernel/model/dcm_fixed.c), with exponents. */
static void from_ok(const char *s, int64_t want)
{
	int64_t v = 42;

	if (dcm_fixed_from_string(s, &v) != 0 || v != want)
		fail_msg("'%s': got %lld, want %lld", s, (long long)v, (long long)want);
}

static void from_err(const char *s, int err)
{
	int64_t v = 42;

	assert_int_equal(dcm_fixed_from_string(s, &v), err);
	assert_true(v == 42);	/* untouched */
}

static void test_from_string(void **state)
{
	(void)state;
	from_ok("0", 0);
	from_ok("-0", 0);
	from_ok("+2.5", 2500000);
	from_ok(".5", 500000);
	from_ok("5.", 5000000);
	from_ok("0.0000005", 1);	/* ties away from zero */
	from_ok("-0.0000005", -1);
	from_ok("0.00000049999", 0);
	from_ok("1e3", 1000000000);
	from_ok("1.5E-3", 1500);
	from_ok("25e-7", 3);
	from_ok("0e999999999", 0);
	from_ok("000000000000000000000000001", 1000000);
	from_ok("9223372036854.775807", INT64_MAX);
	from_ok("-9223372036854.775808", INT64_MIN);
	from_ok("9223372036854775807e-6", INT64_MAX);
	from_ok("1e-999999999", 0);

	from_err("", -EINVAL);
	from_err(".", -EINVAL);
	from_err("-", -EINVAL);
	from_err("e3", -EINVAL);
	from_err("1e", -EINVAL);
	from_err("1e+", -EINVAL);
	from_err("1.2.3", -EINVAL);
	from_err(" 1", -EINVAL);
	from_err("1 ", -EINVAL);
	from_err("1\n", -EINVAL);	/* sysfs takes one newline, not the library */
	from_err("0x10", -EINVAL);
	from_err("nan", -EINVAL);
	from_err("inf", -EINVAL);
	from_err("99999999999999999999x", -EINVAL);	/* the text first */
	from_err("9223372036854.775808", -ERANGE);
	from_err("-9223372036854.775809", -ERANGE);
	from_err("9223372036854.7758075", -ERANGE);
	from_err("1e999999999", -ERANGE);
	assert_int_equal(dcm_fixed_from_string(NULL, &(int64_t){ 0 }), -EINVAL);
}

static void test_fraction_from_string(void **state)
{
	int64_t num = 42;
	uint32_t den = 42;

	(void)state;
	assert_int_equal(dcm_fraction_from_string("0.0039215686", &num, &den), 0);
	assert_true(num == 39215686 && den == 10000);
	assert_int_equal(dcm_fraction_from_string("1.5", &num, &den), 0);
	assert_true(num == 1500000 && den == 1);
	assert_int_equal(dcm_fraction_from_string("-1.0000000", &num, &den), 0);
	assert_true(num == -1000000 && den == 1);
	assert_int_equal(dcm_fraction_from_string("3.9215686e-3", &num, &den), 0);
	assert_true(num == 39215686 && den == 10000);
	/* past 15 decimals: rounded at the 15th */
	assert_int_equal(dcm_fraction_from_string("0.0000000000000015", &num, &den), 0);
	assert_true(num == 2 && den == 1000000000);
	/* too many digits for 10^9 more: fewer decimals */
	assert_int_equal(dcm_fraction_from_string("9223372036.1234567891", &num, &den), 0);
	assert_true(num == INT64_C(9223372036123456789) && den == 1000);
	num = 42;
	den = 42;
	assert_int_equal(dcm_fraction_from_string("1e", &num, &den), -EINVAL);
	assert_int_equal(dcm_fraction_from_string("1e20", &num, &den), -ERANGE);
	assert_true(num == 42 && den == 42);
	assert_int_equal(dcm_fraction_from_string("1", &num, NULL), -EINVAL);
}

static void test_to_string(void **state)
{
	char buf[LIBDCM_FIXED_TEXT_LEN], small[LIBDCM_FIXED_TEXT_LEN - 1];
	static const int64_t vals[] = { 0, 1, -1, 1500000, -250000, INT64_MAX, INT64_MIN };
	unsigned int i;
	int64_t v;

	(void)state;
	assert_int_equal(dcm_fixed_to_string(-250000, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "-0.250000");
	assert_int_equal(dcm_fixed_to_string(INT64_MIN, buf, sizeof(buf)), 21);
	assert_string_equal(buf, "-9223372036854.775808");
	assert_int_equal(dcm_fixed_to_string(1, small, sizeof(small)), -EINVAL);
	assert_int_equal(dcm_fixed_to_string(1, NULL, 64), -EINVAL);
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		assert_true(dcm_fixed_to_string(vals[i], buf, sizeof(buf)) > 0);
		assert_int_equal(dcm_fixed_from_string(buf, &v), 0);
		assert_true(v == vals[i]);
	}
}

static void test_time_diff(void **state)
{
	(void)state;
	assert_int_equal(dcm_time_diff(10, 10), 0);
	assert_int_equal(dcm_time_diff(20, 10), 10);
	assert_int_equal(dcm_time_diff(10, 20), -10);
	/* across the 2^32 wrap */
	assert_int_equal(dcm_time_diff(5, 0xfffffffbU), 10);
	assert_int_equal(dcm_time_diff(0xfffffffbU, 5), -10);
	assert_int_equal(dcm_time_diff(0, 0xffffffffU), 1);
	assert_int_equal(dcm_time_diff(0xffffffffU, 0), -1);
	/* half range */
	assert_int_equal(dcm_time_diff(0x7fffffffU, 0), INT32_MAX);
	assert_int_equal(dcm_time_diff(0x80000000U, 0), INT32_MIN);
	assert_int_equal(dcm_time_diff(0, 0x80000000U), INT32_MIN);
	assert_int_equal(dcm_time_diff(0x80000005U, 5), INT32_MIN);
	assert_int_equal(dcm_time_diff(0x80000004U, 5), INT32_MAX);

	assert_int_equal(dcm_time_add(0xfffffff0U, 0x20), 0x10);
	assert_int_equal(dcm_time_add(0x10, -0x20), 0xfffffff0U);
	assert_int_equal(dcm_time_diff(dcm_time_add(0xfffffff0U, 1000),
				       0xfffffff0U), 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_fixed_basic),
		cmocka_unit_test(test_to_fixed_rounding),
		cmocka_unit_test(test_to_fixed_extremes),
		cmocka_unit_test(test_to_fixed_nan),
		cmocka_unit_test(test_to_double),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_from_string),
		cmocka_unit_test(test_fraction_from_string),
		cmocka_unit_test(test_to_string),
		cmocka_unit_test(test_time_diff),
	};

	return cmocka_run_group_tests_name("fixed", tests, NULL, NULL);
}
