// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of model/dcm_hist.h: the cycle's log-bucket histogram and the
 * percentiles read from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_hist.h"

static struct dcm_hist h;

/* Every value falls in a bucket whose range holds it, buckets in order. */
static void test_buckets(void **state)
{
	u64 v, prev_upper = 0;
	u32 i, prev = 0;

	(void)state;
	for (i = 0; i < DCM_HIST_BUCKETS - 1; i++) {
		assert_int_equal(i, dcm_hist_index(dcm_hist_upper(i)));
		assert_int_equal(i + 1, dcm_hist_index(dcm_hist_upper(i) + 1));
		if (i)
			assert_true(dcm_hist_upper(i) > prev_upper);
		prev_upper = dcm_hist_upper(i);
	}
	for (v = 1; v < (1ULL << DCM_HIST_MAX_BITS); v = v * 3 / 2 + 1) {
		i = dcm_hist_index(v);
		assert_true(i >= prev);
		assert_true(v <= dcm_hist_upper(i));
		assert_true(i == 0 || v > dcm_hist_upper(i - 1));
		/* The bucket is at most 1/16 of its values wide. */
		assert_true((dcm_hist_upper(i) - v) * DCM_HIST_SUB <= v);
		prev = i;
	}
	assert_int_equal(DCM_HIST_BUCKETS - 1, dcm_hist_index(1ULL << DCM_HIST_MAX_BITS));
	assert_int_equal(DCM_HIST_BUCKETS - 1, dcm_hist_index(UINT64_MAX));
	assert_int_equal(0, dcm_hist_index(0));
}

static void within(u64 want, u64 got)
{
	assert_true(got >= want);
	assert_true((got - want) * DCM_HIST_SUB <= want);
}

/* Uniform 1 us .. 10 ms: each percentile within 1/16 above the true one. */
static void test_uniform(void **state)
{
	u64 v;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(0, dcm_hist_percentile(&h, 500000));
	for (v = 1; v <= 10000; v++)
		dcm_hist_add(&h, v * 1000);
	assert_int_equal(10000, h.n);
	within(5000000, dcm_hist_percentile(&h, 500000));
	within(9900000, dcm_hist_percentile(&h, 990000));
	within(9990000, dcm_hist_percentile(&h, 999000));
	assert_int_equal(10000000, dcm_hist_percentile(&h, 1000000));
	assert_int_equal(10000000, h.max);
	assert_int_equal(10000ULL * 10001 / 2 * 1000, h.sum);
}

/*
 * One outlier in a thousand shows in p99.9 and the maximum, not in p99:
 * a 123 ms stall among 2 ms cycles.
 */
static void test_outlier(void **state)
{
	u32 i;

	(void)state;
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 999; i++)
		dcm_hist_add(&h, 2000000);
	dcm_hist_add(&h, 123000000);
	within(2000000, dcm_hist_percentile(&h, 500000));
	within(2000000, dcm_hist_percentile(&h, 990000));
	within(2000000, dcm_hist_percentile(&h, 999000));
	assert_int_equal(123000000, dcm_hist_percentile(&h, 1000000));
	/* Two in a thousand: p99.9 is the outlier, never above the maximum. */
	dcm_hist_add(&h, 123000000);
	assert_int_equal(123000000, dcm_hist_percentile(&h, 999000));
}

/* Small values are exact; one sample is every percentile. */
static void test_small(void **state)
{
	(void)state;
	memset(&h, 0, sizeof(h));
	dcm_hist_add(&h, 7);
	assert_int_equal(7, dcm_hist_percentile(&h, 1));
	assert_int_equal(7, dcm_hist_percentile(&h, 500000));
	assert_int_equal(7, dcm_hist_percentile(&h, 999000));
	dcm_hist_add(&h, 0);
	assert_int_equal(0, dcm_hist_percentile(&h, 500000));
	assert_int_equal(7, dcm_hist_percentile(&h, 990000));
}

/* Beyond the last bucket's range: the maximum still tells it. */
static void test_huge(void **state)
{
	(void)state;
	memset(&h, 0, sizeof(h));
	dcm_hist_add(&h, 1ULL << 40);
	assert_int_equal(1ULL << 40, dcm_hist_percentile(&h, 500000));
	assert_int_equal(1ULL << 40, dcm_hist_percentile(&h, 1000000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_huge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
