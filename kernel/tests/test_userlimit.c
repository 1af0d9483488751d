// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of model/dcm_userlimit.c: the per-user rate limit of the
 * diagnostic any user may run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_userlimit.h"

#define S	1000000000ULL
#define MS	1000000ULL

static struct dcm_userlimit ul;

static int setup(void **state)
{
	(void)state;
	memset(&ul, 0, sizeof(ul));
	ul.rate_per_s = 2;
	ul.burst = 5;
	ul.total_per_s = 10;
	ul.total_burst = 20;
	return 0;
}

/* A burst, then the rate: never more than burst + rate * t over t. */
static void test_one_user(void **state)
{
	u64 t = 1, end = 100 * S;
	unsigned int n = 0;

	(void)state;
	for (; t <= 5; t++)
		assert_true(dcm_userlimit_allow(&ul, 1000, t));
	assert_false(dcm_userlimit_allow(&ul, 1000, t));
	/* Back to back, every 100 us, for 100 s. */
	for (t = 10; t < end; t += 100000) {
		n += dcm_userlimit_allow(&ul, 1000, t);
		assert_true(n <= 2 * (t / S) + 2);
	}
	assert_true(n >= 2 * 99);
	assert_true(ul.refused > 900000);
	/* Idle, the burst comes back. */
	for (n = 0; n < 5; n++)
		assert_true(dcm_userlimit_allow(&ul, 1000, end + 10 * S + n));
	assert_false(dcm_userlimit_allow(&ul, 1000, end + 10 * S + n));
}

/* A user at its limit does not hold another back, up to the total. */
static void test_users_apart(void **state)
{
	u64 t = 1;
	u32 uid;
	int i, n = 0;

	(void)state;
	for (i = 0; i < 100; i++)
		dcm_userlimit_allow(&ul, 1000, t++);
	for (i = 0; i < 5; i++)
		assert_true(dcm_userlimit_allow(&ul, 1001, t++));
	assert_false(dcm_userlimit_allow(&ul, 1001, t++));
	/* Many users at once: the total holds. */
	for (uid = 2000; uid < 2100; uid++)
		n += dcm_userlimit_allow(&ul, uid, t++);
	assert_true(n <= 20 - 10);
	/* More users than tracked, each asking once a second, all served. */
	t = 1000 * S;
	for (i = 0; i < 10; i++, t += S)
		for (uid = 3000; uid < 3000 + 2 * DCM_USERLIMIT_USERS; uid += 4)
			assert_true(dcm_userlimit_allow(&ul, uid, t + uid));
}

/* Many users flooding: the total is never passed. */
static void test_total(void **state)
{
	u64 t, end = 60 * S;
	unsigned int n = 0;

	(void)state;
	for (t = 1; t < end; t += 50000)
		n += dcm_userlimit_allow(&ul, 5000 + (u32)(t % 97), t);
	assert_true(n <= 20 + 10 * 60);
	assert_true(n >= 10 * 59);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_one_user, setup),
		cmocka_unit_test_setup(test_users_apart, setup),
		cmocka_unit_test_setup(test_total, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
