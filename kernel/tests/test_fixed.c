// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of dcm_fixed.c: micro-unit fixed point to and from text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_fixed.h"

static void fmt(s64 v, const char *want)
{
	char buf[DCM_FIXED_TEXT_LEN];

	assert_int_equal(strlen(want), dcm_fixed_format(v, buf, sizeof(buf)));
	assert_string_equal(want, buf);
}

static void test_format(void **state)
{
	char small[DCM_FIXED_TEXT_LEN - 1];

	(void)state;
	fmt(0, "0.000000");
	fmt(1, "0.000001");
	fmt(-1, "-0.000001");
	fmt(1500000, "1.500000");
	fmt(-250000, "-0.250000");
	fmt(398438, "0.398438");
	fmt(-3141593, "-3.141593");
	fmt(INT64_MAX, "9223372036854.775807");
	fmt(INT64_MIN, "-9223372036854.775808");
	assert_int_equal(-EINVAL, dcm_fixed_format(1, small, sizeof(small)));
}

static void parse_ok(const char *s, s64 want)
{
	s64 v = 12345;

	assert_int_equal(0, dcm_fixed_parse(s, &v));
	assert_true(v == want);
}

static void parse_err(const char *s, int err)
{
	s64 v = 12345;

	assert_int_equal(err, dcm_fixed_parse(s, &v));
	assert_true(v == 12345);
}

static void test_parse(void **state)
{
	(void)state;
	parse_ok("0", 0);
	parse_ok("1", 1000000);
	parse_ok("-1", -1000000);
	parse_ok("+2.5", 2500000);
	parse_ok("0.4", 400000);
	parse_ok(".5", 500000);
	parse_ok("-.5", -500000);
	parse_ok("3.", 3000000);
	parse_ok("0.000001", 1);
	parse_ok("0.0000005", 1);	/* half rounds away from zero */
	parse_ok("0.0000004", 0);
	parse_ok("-0.0000005", -1);
	parse_ok("1.9999999", 2000000);
	parse_ok("0.4\n", 400000);
	parse_ok("9223372036854.775807", INT64_MAX);
	parse_ok("-9223372036854.775808", INT64_MIN);

	parse_err("", -EINVAL);
	parse_err("\n", -EINVAL);
	parse_err("-", -EINVAL);
	parse_err(".", -EINVAL);
	parse_err("1.2.3", -EINVAL);
	parse_err("1e3", -EINVAL);
	parse_err(" 1", -EINVAL);
	parse_err("1 ", -EINVAL);
	parse_err("0x10", -EINVAL);
	parse_err("nan", -EINVAL);
	parse_err("1\n\n", -EINVAL);
	parse_err("--1", -EINVAL);
	parse_err("9223372036854.775808", -ERANGE);
	parse_err("-9223372036854.775809", -ERANGE);
	parse_err("99999999999999999999", -ERANGE);
	parse_err("9223372036854.7758075", -ERANGE);	/* rounds past the limit */
}

/* The general reader: a length, an exponent on demand, decimals past the sixth. */
static void test_decimal_parse(void **state)
{
	unsigned int extra = 99;
	s64 v = 12345;

	(void)state;
	/* the length, not the NUL, ends the text */
	assert_int_equal(0, dcm_decimal_parse("2.5xyz", 3, 0, 0, &v, NULL));
	assert_true(v == 2500000);
	/* an exponent only when asked */
	assert_int_equal(-EINVAL, dcm_decimal_parse("1e3", 3, 0, 0, &v, NULL));
	assert_int_equal(0, dcm_decimal_parse("1e3", 3, DCM_DECIMAL_EXPONENT, 0, &v, NULL));
	assert_true(v == 1000000000);
	assert_int_equal(0, dcm_decimal_parse("-2.5E-6", 7, DCM_DECIMAL_EXPONENT, 0, &v, NULL));
	assert_true(v == -3);
	assert_int_equal(-EINVAL, dcm_decimal_parse("1e", 2, DCM_DECIMAL_EXPONENT, 0, &v, NULL));
	assert_int_equal(-ERANGE, dcm_decimal_parse("1e99999999", 10, DCM_DECIMAL_EXPONENT, 0,
						    &v, NULL));
	/* decimals past the sixth: the fewest that hold the value, up to the limit */
	assert_int_equal(0, dcm_decimal_parse("0.0039215686", 12, 0, 9, &v, &extra));
	assert_true(v == 39215686 && extra == 4);
	assert_int_equal(0, dcm_decimal_parse("1.5000000", 9, 0, 9, &v, &extra));
	assert_true(v == 1500000 && extra == 0);
	assert_int_equal(0, dcm_decimal_parse("0.00000000000000049", 19, 0, 9, &v, &extra));
	assert_true(v == 0 && extra == 9);
	/* too many digits for an s64 with them: fewer decimals */
	assert_int_equal(0, dcm_decimal_parse("9223372036.1234567891", 21, 0, 9, &v, &extra));
	assert_true(v == 9223372036123456789LL && extra == 3);
	/* the text is checked before the range */
	assert_int_equal(-EINVAL, dcm_decimal_parse("99999999999999999999x", 21, 0, 0, &v, NULL));
	assert_int_equal(-ERANGE, dcm_decimal_parse("99999999999999999999", 20, 0, 0, &v, NULL));
}

/* Every value written parses back to itself. */
static void test_round_trip(void **state)
{
	static const s64 vals[] = { 0, 1, -1, 999999, -999999, 1000000, 123456789,
				    -987654321012LL, INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	char buf[DCM_FIXED_TEXT_LEN];
	unsigned int i;
	s64 v;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		dcm_fixed_format(vals[i], buf, sizeof(buf));
		assert_int_equal(0, dcm_fixed_parse(buf, &v));
		assert_true(v == vals[i]);
	}
	for (v = -2000000; v <= 2000000; v += 7919) {
		s64 back;

		dcm_fixed_format(v, buf, sizeof(buf));
		assert_int_equal(0, dcm_fixed_parse(buf, &back));
		assert_true(back == v);
	}
}

static void test_int_parse(void **state)
{
	s64 v;

	(void)state;
	assert_int_equal(0, dcm_int_parse("2048", &v));
	assert_true(v == 2048);
	assert_int_equal(0, dcm_int_parse("-7\n", &v));
	assert_true(v == -7);
	assert_int_equal(0, dcm_int_parse("+0", &v));
	assert_true(v == 0);
	assert_int_equal(0, dcm_int_parse("9223372036854775807", &v));
	assert_true(v == INT64_MAX);
	assert_int_equal(0, dcm_int_parse("-9223372036854775808", &v));
	assert_true(v == INT64_MIN);
	assert_int_equal(-ERANGE, dcm_int_parse("9223372036854775808", &v));
	assert_int_equal(-ERANGE, dcm_int_parse("-9223372036854775809", &v));
	assert_int_equal(-ERANGE, dcm_int_parse("123456789012345678901", &v));
	assert_int_equal(-EINVAL, dcm_int_parse("", &v));
	assert_int_equal(-EINVAL, dcm_int_parse("-", &v));
	assert_int_equal(-EINVAL, dcm_int_parse("1.0", &v));
	assert_int_equal(-EINVAL, dcm_int_parse("12a", &v));
	assert_int_equal(-EINVAL, dcm_int_parse(" 1", &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_decimal_parse),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_int_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
