// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of dcm_safety.c: the stiffness rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_safety.h"

#define U 1000000

static void test_joint_rules(void **state)
{
	(void)state;
	assert_true(dcm_safety_hardness(U, true, 0, U) == U);
	assert_true(dcm_safety_hardness(-U, true, 0, U) == -U);
	/* Not calibrated: not above 0; free is still allowed. */
	assert_true(dcm_safety_hardness(U, false, 0, U) == 0);
	assert_true(dcm_safety_hardness(-500000, false, 0, U) == -500000);
	/* Temperature status 1, 2, 3. */
	assert_true(dcm_safety_hardness(U, true, 1, U) == 850000);
	assert_true(dcm_safety_hardness(U, true, 2, U) == 700000);
	assert_true(dcm_safety_hardness(U, true, 3, U) == 0);
	assert_true(dcm_safety_hardness(-U, true, 3, U) == 0);
	assert_true(dcm_safety_hardness(500000, true, 2, U) == 350000);
	/* A factor scales, and brakes a free motor. */
	assert_true(dcm_safety_hardness(U, true, 0, 250000) == 250000);
	assert_true(dcm_safety_hardness(-U, true, 0, 999999) == 0);
	assert_true(dcm_safety_hardness(U, true, 2, 500000) == 350000);
	assert_true(dcm_safety_hardness(0, true, 0, 0) == 0);
}

/* A cycle 600 ms after the previous one: 0, then back over 2 s. */
static void test_cycle_fault(void **state)
{
	struct dcm_safety s;
	u32 t = 1000;
	int i;

	(void)state;
	dcm_safety_init(&s);
	for (i = 0; i < 10; i++)
		dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(U, dcm_safety_scale(&s));
	/* 500 ms exactly is no fault. */
	dcm_safety_cycle(&s, t += 500, false);
	assert_int_equal(U, dcm_safety_scale(&s));
	assert_int_equal(0, s.faults);
	dcm_safety_cycle(&s, t += 600, false);
	assert_int_equal(0, dcm_safety_scale(&s));
	assert_int_equal(1, s.faults);
	for (i = 0; i < 100; i++)
		dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(U / 2, dcm_safety_scale(&s));
	for (i = 0; i < 99; i++)
		dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(995000, dcm_safety_scale(&s));
	dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(U, dcm_safety_scale(&s));
	dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(U, dcm_safety_scale(&s));
}

/* The fault is seen across the 2^32 ms wrap too; time going back is none. */
static void test_fault_wrap(void **state)
{
	struct dcm_safety s;

	(void)state;
	dcm_safety_init(&s);
	dcm_safety_cycle(&s, 0xfffffff0, false);
	dcm_safety_cycle(&s, 0x00000300, false);
	assert_int_equal(0, dcm_safety_scale(&s));
	dcm_safety_init(&s);
	dcm_safety_cycle(&s, 5000, false);
	dcm_safety_cycle(&s, 4000, false);
	assert_int_equal(U, dcm_safety_scale(&s));
}

/* Battery current past its limit: down 25 %/s, then up again. */
static void test_battery(void **state)
{
	struct dcm_safety s;
	u32 t = 0;
	int i;

	(void)state;
	dcm_safety_init(&s);
	dcm_safety_cycle(&s, t, false);
	for (i = 0; i < 100; i++)
		dcm_safety_cycle(&s, t += 10, true);
	assert_int_equal(750000, dcm_safety_scale(&s));
	for (i = 0; i < 400; i++)
		dcm_safety_cycle(&s, t += 10, true);
	assert_int_equal(0, dcm_safety_scale(&s));
	for (i = 0; i < 200; i++)
		dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(500000, dcm_safety_scale(&s));
	/* With a cycle fault too (the battery gains 500 ms of 25 %/s), they multiply. */
	dcm_safety_cycle(&s, t += 700, false);
	assert_int_equal(0, dcm_safety_scale(&s));
	assert_int_equal(625000, s.battery_ppm);
	for (i = 0; i < 100; i++)
		dcm_safety_cycle(&s, t += 10, false);
	assert_int_equal(500000, s.fault_ppm);
	assert_int_equal(875000, s.battery_ppm);
	assert_int_equal(437500, dcm_safety_scale(&s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joint_rules),
		cmocka_unit_test(test_cycle_fault),
		cmocka_unit_test(test_fault_wrap),
		cmocka_unit_test(test_battery),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
