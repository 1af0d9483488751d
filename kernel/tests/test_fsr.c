// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of a foot's derived values (kernel/model/dcm_fsr.c): total weight,
 * centre of pressure, the low-weight threshold, readings below zero.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_fsr.h"

/* Device.xml's left foot, micro-m. */
static void left_foot(struct dcm_fsr_foot *f)
{
	static const s64 x[4] = { 70250, 70250, -30250, -29650 };
	static const s64 y[4] = { 29900, -23100, 29900, -19100 };

	memset(f, 0, sizeof(*f));
	memcpy(f->x, x, sizeof(x));
	memcpy(f->y, y, sizeof(y));
}

static void test_equal_weights(void **state)
{
	struct dcm_fsr_foot f;
	int i;

	(void)state;
	left_foot(&f);
	for (i = 0; i < 4; i++)
		f.weight[i] = 650000;	/* 0.65 kg */
	dcm_fsr_derive(&f);
	assert_true(f.total == 2600000);
	/* The mean of the positions, rounded: (70250*2 - 59900) / 4 */
	assert_true(f.cop_x == 20150);
	assert_true(f.cop_y == 4400);
}

static void test_one_sensor(void **state)
{
	struct dcm_fsr_foot f;
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		left_foot(&f);
		f.weight[i] = 1234567;
		dcm_fsr_derive(&f);
		assert_true(f.total == 1234567);
		assert_true(f.cop_x == f.x[i]);
		assert_true(f.cop_y == f.y[i]);
	}
}

static void test_weighted(void **state)
{
	struct dcm_fsr_foot f;

	(void)state;
	left_foot(&f);
	/* 3 kg front left, 1 kg rear right: a quarter of the way. */
	f.weight[0] = 3000000;
	f.weight[3] = 1000000;
	dcm_fsr_derive(&f);
	assert_true(f.total == 4000000);
	assert_true(f.cop_x == (3 * 70250 - 29650 + 2) / 4);
	assert_true(f.cop_y == (3 * 29900 - 19100) / 4);
}

static void test_low_weight(void **state)
{
	struct dcm_fsr_foot f;

	(void)state;
	left_foot(&f);
	f.weight[0] = DCM_FSR_COP_MIN - 1;
	dcm_fsr_derive(&f);
	assert_true(f.total == DCM_FSR_COP_MIN - 1);
	assert_true(f.cop_x == 0 && f.cop_y == 0);
	f.weight[0] = DCM_FSR_COP_MIN;
	dcm_fsr_derive(&f);
	assert_true(f.cop_x == 70250 && f.cop_y == 29900);
	/* Nothing at all. */
	left_foot(&f);
	dcm_fsr_derive(&f);
	assert_true(f.total == 0 && f.cop_x == 0 && f.cop_y == 0);
}

static void test_negative_reading(void **state)
{
	struct dcm_fsr_foot f;

	(void)state;
	left_foot(&f);
	/* A calibration offset may read a little below 0: the total keeps it,
	 * the barycentre does not count it. */
	f.weight[1] = -20000;
	f.weight[2] = 2000000;
	dcm_fsr_derive(&f);
	assert_true(f.total == 1980000);
	assert_true(f.cop_x == -30250 && f.cop_y == 29900);
}

static void test_extremes(void **state)
{
	struct dcm_fsr_foot f;
	int i;

	(void)state;
	memset(&f, 0, sizeof(f));
	for (i = 0; i < 4; i++) {
		f.weight[i] = INT64_MAX;
		f.x[i] = INT64_MIN;
		f.y[i] = INT64_MAX;
	}
	dcm_fsr_derive(&f);
	assert_true(f.total == 4000000000LL);
	assert_true(f.cop_x == -1000000000LL && f.cop_y == 1000000000LL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_weights),
		cmocka_unit_test(test_one_sensor),
		cmocka_unit_test(test_weighted),
		cmocka_unit_test(test_low_weight),
		cmocka_unit_test(test_negative_reading),
		cmocka_unit_test(test_extremes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
