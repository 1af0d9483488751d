// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of model/dcm_grid.h: where the cycle's next deadline is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_grid.h"

#define MS 1000000ULL
#define P (10 * MS)

/* On time or a little late: the next point of the grid. */
static void test_on_time(void **state)
{
	(void)state;
	assert_int_equal(1, dcm_grid_advance(0, P));
	assert_int_equal(1, dcm_grid_advance(1, P));
	assert_int_equal(1, dcm_grid_advance(3 * MS, P));
	/* Half a period late: the next point is exactly half a period away. */
	assert_int_equal(1, dcm_grid_advance(5 * MS, P));
}

/* Later: the points closer than half a period are skipped. */
static void test_late(void **state)
{
	(void)state;
	assert_int_equal(2, dcm_grid_advance(5 * MS + 1, P));
	assert_int_equal(2, dcm_grid_advance(9 * MS, P));
	assert_int_equal(2, dcm_grid_advance(P, P));
	assert_int_equal(2, dcm_grid_advance(15 * MS, P));
	assert_int_equal(3, dcm_grid_advance(15 * MS + 1, P));
	/* A 700 ms stall: 70 points passed, the 71st half a period or more away. */
	assert_int_equal(71, dcm_grid_advance(700 * MS + 300000, P));
	assert_int_equal(72, dcm_grid_advance(705 * MS + 1, P));
	/* Odd periods, the longest and the shortest. */
	assert_int_equal(1, dcm_grid_advance(6, 13));
	assert_int_equal(1, dcm_grid_advance(7, 13));
	assert_int_equal(2, dcm_grid_advance(8, 13));
	assert_int_equal(2, dcm_grid_advance(50 * MS + 1, 100 * MS));
	assert_int_equal(5001, dcm_grid_advance(5000 * MS, MS));
}

/*
 * Whatever the lateness, the next deadline is at least half a period after
 * the start and less than one and a half periods after it, on the grid.
 */
static void test_invariants(void **state)
{
	static const u64 periods[] = { MS, 10 * MS, 12 * MS, 10 * MS + 1, 100 * MS };
	unsigned int i;
	u64 late;

	(void)state;
	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		u64 p = periods[i];

		for (late = 0; late < 5 * p; late += p / 7 + 1) {
			u64 next = dcm_grid_advance(late, p) * p;	/* after the deadline */

			assert_true(next >= late + p / 2);
			assert_true(next < late + p / 2 + p);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_on_time),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_invariants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
