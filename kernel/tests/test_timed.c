// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of dcm_timed.c against hand-worked cases: interpolation, the
 * update kinds, the queue limit, the 2^32 ms wrap, step actuators and the
 * conversion of values to raw numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_timed.h"

#define U 1000000LL	/* 1.0 in micro-units */

static struct dcm_tc_queue q;

static struct dcm_point pt(double v, u32 t)
{
	struct dcm_point p = { .value = (s64)(v * U), .time = t };

	return p;
}

static s64 step(u32 now)
{
	s64 v;

	assert_true(dcm_tc_step(&q, now, false, &v));
	return v;
}

static void set(u32 update, const struct dcm_point *pts, u32 n)
{
	struct dcm_point tmp[DCM_MAX_POINTS];

	if (n)
		memcpy(tmp, pts, n * sizeof(*pts));
	assert_int_equal(0, dcm_tc_prepare(tmp, n));
	assert_true(dcm_tc_fits(&q, update, tmp, n));
	assert_int_equal(0, dcm_tc_set(&q, update, tmp, n));
}

/* Times of the queue, in order. */
static void expect_queue(const u32 *times, const double *vals, u32 n)
{
	u32 i;

	assert_int_equal(n, q.n);
	for (i = 0; i < n; i++) {
		assert_int_equal(times[i], q.pts[i].time);
		assert_true(q.pts[i].value == (s64)(vals[i] * U));
	}
}

static void test_ramp(void **state)
{
	struct dcm_point p = pt(1.0, 2000);

	(void)state;
	dcm_tc_init(&q, 0);
	assert_true(step(1000) == 0);
	set(DCM_UPDATE_MERGE, &p, 1);
	assert_true(step(1010) == U / 100);
	assert_true(step(1500) == U / 2);
	assert_true(step(1990) == 990000);
	assert_true(step(2000) == U);
	assert_int_equal(0, q.n);
	/* With nothing queued the last value is sent again. */
	assert_true(step(2010) == U);
	assert_true(step(5000) == U);
}

/* A ramp starts where the actuator is, when the command comes. */
static void test_ramp_from_idle(void **state)
{
	struct dcm_point p = pt(-2.0, 11000);

	(void)state;
	dcm_tc_init(&q, 500000);
	assert_true(step(100) == 500000);
	assert_true(step(10000) == 500000);
	set(DCM_UPDATE_CLEAR_ALL, &p, 1);
	assert_true(step(10500) == -750000);
	assert_true(step(11000) == -2 * U);
}

/* Two points: through the first, then on toward the second. */
static void test_two_points(void **state)
{
	struct dcm_point p[2] = { pt(3.0, 300), pt(1.0, 100) };

	(void)state;
	dcm_tc_init(&q, 0);
	step(0);
	set(DCM_UPDATE_MERGE, p, 2);
	assert_true(step(50) == U / 2);
	assert_true(step(100) == U);
	assert_true(step(200) == 2 * U);
	assert_true(step(300) == 3 * U);
}

/* Commands already due apply at the next cycle; the latest wins. */
static void test_past_latest_wins(void **state)
{
	struct dcm_point p[4] = { pt(0.7, 995), pt(0.2, 990), pt(0.5, 999), pt(0.9, 1100) };
	struct dcm_point tie[2] = { pt(0.1, 1200), pt(0.3, 1200) };

	(void)state;
	dcm_tc_init(&q, 0);
	step(980);
	set(DCM_UPDATE_MERGE, p, 4);
	/* 0.5 at 999 wins, and the line to 0.9 at 1100 starts there. */
	assert_true(step(1000) == 500000 + 400000 / 101);
	assert_int_equal(1, q.n);
	assert_true(step(1050) == 500000 + 400000 * 51 / 101);
	set(DCM_UPDATE_MERGE, tie, 2);
	assert_true(step(1100) == 900000);
	/* Equal times: the one that came last wins. */
	assert_true(step(1300) == 300000);
	/* Out of phase with the cycle, the line still goes through each point. */
	p[0] = pt(1.0, 1405);
	p[1] = pt(2.0, 1505);
	set(DCM_UPDATE_MERGE, p, 2);
	assert_true(step(1400) == 300000 + 700000 * 100 / 105);
	assert_true(step(1410) == U + U * 5 / 100);
	assert_true(step(1500) == U + U * 95 / 100);
	assert_true(step(1510) == 2 * U);
}

static void test_clear_all(void **state)
{
	struct dcm_point p[3] = { pt(1, 100), pt(2, 200), pt(3, 300) };
	struct dcm_point n = pt(9, 400);

	(void)state;
	dcm_tc_init(&q, 0);
	step(0);
	set(DCM_UPDATE_MERGE, p, 3);
	assert_true(step(100) == U);
	set(DCM_UPDATE_CLEAR_ALL, &n, 1);
	expect_queue((u32[]){ 400 }, (double[]){ 9 }, 1);
	/* No command: drop all, keep the last value. */
	set(DCM_UPDATE_CLEAR_ALL, NULL, 0);
	assert_int_equal(0, q.n);
	assert_true(step(150) == U);
	assert_true(step(500) == U);
}

static void test_merge(void **state)
{
	struct dcm_point a[3] = { pt(1, 100), pt(2, 200), pt(3, 300) };
	struct dcm_point b[3] = { pt(5, 250), pt(4, 200), pt(6, 50) };

	(void)state;
	dcm_tc_init(&q, 0);
	set(DCM_UPDATE_MERGE, a, 3);
	set(DCM_UPDATE_MERGE, b, 3);
	expect_queue((u32[]){ 50, 100, 200, 200, 250, 300 },
		     (double[]){ 6, 1, 2, 4, 5, 3 }, 6);
}

static void test_clear_after(void **state)
{
	struct dcm_point a[3] = { pt(1, 100), pt(2, 200), pt(3, 300) };
	struct dcm_point b[2] = { pt(8, 400), pt(9, 150) };
	struct dcm_point c = pt(7, 100);

	(void)state;
	dcm_tc_init(&q, 0);
	set(DCM_UPDATE_MERGE, a, 3);
	set(DCM_UPDATE_CLEAR_AFTER, b, 2);
	expect_queue((u32[]){ 100, 150, 400 }, (double[]){ 1, 9, 8 }, 3);
	/* A queued command at the same time as the earliest new one stays. */
	set(DCM_UPDATE_CLEAR_AFTER, &c, 1);
	expect_queue((u32[]){ 100, 100 }, (double[]){ 1, 7 }, 2);
}

static void test_clear_before(void **state)
{
	struct dcm_point a[3] = { pt(1, 100), pt(2, 200), pt(3, 300) };
	struct dcm_point b[2] = { pt(8, 150), pt(9, 250) };
	struct dcm_point c = pt(7, 300);

	(void)state;
	dcm_tc_init(&q, 0);
	set(DCM_UPDATE_MERGE, a, 3);
	set(DCM_UPDATE_CLEAR_BEFORE, b, 2);
	expect_queue((u32[]){ 150, 250, 300 }, (double[]){ 8, 9, 3 }, 3);
	set(DCM_UPDATE_CLEAR_BEFORE, &c, 1);
	expect_queue((u32[]){ 300, 300 }, (double[]){ 3, 7 }, 2);
}

static void test_limit(void **state)
{
	static struct dcm_point p[DCM_MAX_POINTS + 1];
	struct dcm_point one = pt(1, 1100), late = pt(2, 100000);
	u32 i;

	(void)state;
	for (i = 0; i <= DCM_MAX_POINTS; i++)
		p[i] = pt(i, 1000 + i);
	dcm_tc_init(&q, 0);
	assert_int_equal(-EINVAL, dcm_tc_prepare(p, DCM_MAX_POINTS + 1));
	assert_int_equal(0, q.n);
	set(DCM_UPDATE_MERGE, p, DCM_MAX_POINTS);
	assert_int_equal(DCM_MAX_POINTS, q.n);
	assert_false(dcm_tc_fits(&q, DCM_UPDATE_MERGE, &late, 1));
	assert_int_equal(-ENOSPC, dcm_tc_set(&q, DCM_UPDATE_MERGE, &late, 1));
	assert_int_equal(DCM_MAX_POINTS, q.n);
	assert_int_equal(1000 + DCM_MAX_POINTS - 1, q.pts[DCM_MAX_POINTS - 1].time);
	/* Making room in the same call is fine: 1000..1100 stay. */
	set(DCM_UPDATE_CLEAR_AFTER, &one, 1);
	assert_int_equal(102, q.n);
	set(DCM_UPDATE_CLEAR_ALL, p, DCM_MAX_POINTS);
	/* Unknown kinds, importances and reserved bytes are refused. */
	one.importance = 8;
	assert_int_equal(-EINVAL, dcm_tc_prepare(&one, 1));
	one.importance = 7;
	assert_int_equal(0, dcm_tc_prepare(&one, 1));
	one.reserved[2] = 1;
	assert_int_equal(-EINVAL, dcm_tc_prepare(&one, 1));
	one.reserved[2] = 0;
	assert_int_equal(-EINVAL, dcm_tc_set(&q, DCM_UPDATE_MAX + 1, &one, 1));
	assert_false(dcm_tc_fits(&q, DCM_UPDATE_MAX + 1, &one, 1));
	assert_int_equal(DCM_MAX_POINTS, q.n);
}

/* A ramp across the 2^32 ms wrap of DCM time. */
static void test_wrap(void **state)
{
	struct dcm_point p[2] = { pt(2.0, 0x00000080), pt(1.0, 0xffffff80) };

	(void)state;
	dcm_tc_init(&q, 0);
	step(0xffffff00);
	set(DCM_UPDATE_MERGE, p, 2);
	/* Sorted across the wrap: 0xffffff80 comes first. */
	assert_int_equal(0xffffff80, q.pts[0].time);
	assert_true(step(0xffffff40) == U / 2);
	assert_true(step(0xffffff80) == U);
	assert_true(step(0x00000000) == 1500000);
	assert_true(step(0x00000040) == 1750000);
	assert_true(step(0x00000080) == 2 * U);
	assert_int_equal(0, q.n);
}

/* Step actuators: sent once at the command's time, never interpolated. */
static void test_step_only(void **state)
{
	struct dcm_point p[2] = { pt(4.0, 100), pt(68.0, 300) };
	s64 v;

	(void)state;
	dcm_tc_init(&q, 0);
	assert_false(dcm_tc_step(&q, 0, true, &v));
	set(DCM_UPDATE_MERGE, p, 2);
	assert_false(dcm_tc_step(&q, 50, true, &v));
	assert_true(v == 0);
	assert_true(dcm_tc_step(&q, 100, true, &v));
	assert_true(v == 4 * U);
	assert_false(dcm_tc_step(&q, 200, true, &v));
	assert_true(v == 4 * U);
	assert_true(dcm_tc_step(&q, 310, true, &v));
	assert_true(v == 68 * U);
	assert_false(dcm_tc_step(&q, 320, true, &v));
}

/* Extreme values do not overflow the interpolation. */
static void test_extremes(void **state)
{
	struct dcm_point p = { .value = INT64_MAX, .time = 1000 };

	(void)state;
	dcm_tc_init(&q, INT64_MIN);
	step(0);
	set(DCM_UPDATE_MERGE, &p, 1);
	/* Half way from -2^63 to 2^63 - 1 is -1 (rounded down). */
	assert_true(step(500) == -1);
	assert_true(step(750) == INT64_MAX / 2);
	assert_true(step(1000) == INT64_MAX);
	p.value = INT64_MIN;
	p.time = 2000;
	set(DCM_UPDATE_MERGE, &p, 1);
	assert_true(step(1500) == 0);
	assert_true(step(2000) == INT64_MIN);
}

static void test_conversion(void **state)
{
	/* Chest LED: 256 steps of 1/256 (Gain 0.003906). */
	struct dcm_conv led = { .gain = 3906, .gain_den = 1, .offset = 0, .min = 0, .max = U };
	struct dcm_conv inv = { .gain = -U, .gain_den = 1, .offset = 0, .min = -5 * U, .max = 5 * U };
	struct dcm_conv coarse = { .gain = 400000, .gain_den = 1, .offset = 0, .min = 0, .max = U };
	struct dcm_conv temp = { .gain = 500000, .gain_den = 1, .offset = -40 * U, .min = -40 * U,
				 .max = 100 * U };

	(void)state;
	/* The seed's example: 0.4 is sent as 102 and reads 0.398. */
	assert_true(dcm_to_raw(&led, 400000) == 102);
	assert_true(dcm_from_raw(&led, 102) == 398412);
	assert_true(dcm_to_raw(&led, 0) == 0);
	assert_true(dcm_to_raw(&led, U) == 256);
	/* Held within Min and Max first. */
	assert_true(dcm_to_raw(&led, 3 * U) == 256);
	assert_true(dcm_to_raw(&led, -U) == 0);
	/* A negative Gain turns the sign. */
	assert_true(dcm_to_raw(&inv, 2 * U) == -2);
	assert_true(dcm_from_raw(&inv, -2) == 2 * U);
	assert_true(dcm_to_raw(&inv, 6 * U) == -5);
	/* The nearest raw whose value stays within Min and Max: 1.0 / 0.4
	 * rounds to 3 (1.2, above Max), so 2 (0.8).
	 */
	assert_true(dcm_to_raw(&coarse, U) == 2);
	assert_true(dcm_to_raw(&coarse, 500000) == 1);
	assert_true(dcm_to_raw(&coarse, 599999) == 1);
	assert_true(dcm_to_raw(&coarse, 600000) == 2);
	/* Offset. */
	assert_true(dcm_to_raw(&temp, 25 * U) == 130);
	assert_true(dcm_from_raw(&temp, 130) == 25 * U);
	assert_true(dcm_from_raw(&temp, INT64_MAX) == INT64_MAX);
	assert_true(dcm_from_raw(&inv, INT64_MAX) == -INT64_MAX);
	assert_true(dcm_from_raw(&inv, INT64_MIN) == INT64_MAX);
	assert_true(dcm_from_raw(&temp, INT64_MIN) == INT64_MIN);
}

/*
 * Gain="-0.000000000000001" (-1e-9 micro-units: -1 / 10^9), Offset="10000",
 * Min="-1", Max="1": Min..Max would need raw numbers beyond s64. The raw
 * number saturates at the limit nearest to Min..Max and stays there; it
 * once took a step past S64_MAX (signed overflow) and wrapped to S64_MIN,
 * whose value, 19223.37, is the farthest.
 */
static void test_conversion_saturates(void **state)
{
	struct dcm_conv tiny = { .gain = -1, .gain_den = 1000000000, .offset = 10000 * U,
				 .min = -U, .max = U };
	struct dcm_conv tiny_pos = { .gain = 1, .gain_den = 1000000000, .offset = -10000 * U,
				     .min = -U, .max = U };
	int64_t v;

	(void)state;
	for (v = -U; v <= U; v += U / 2) {
		assert_true(dcm_to_raw(&tiny, v) == INT64_MAX);
		assert_true(dcm_to_raw(&tiny_pos, v) == INT64_MAX);
	}
	/* 10000 - 9223.372036854775807: 776.63, the nearest there is */
	assert_true(dcm_from_raw(&tiny, INT64_MAX) == 776627963);
	assert_true(dcm_from_raw(&tiny, dcm_to_raw(&tiny, 0)) < 19223 * U);
	/* The other sign and end: Offset -10000 with a Gain of +1e-15. */
	assert_true(dcm_from_raw(&tiny_pos, INT64_MAX) == -776627963);
}

/* Gains kept as exact fractions: 1/255, 2*pi/65536 as a decimal fraction. */
static void test_fraction_gain(void **state)
{
	struct dcm_conv led = { .gain = U, .gain_den = 255, .offset = 0, .min = 0, .max = U };
	/* 2*pi/65536 rad is 95.8737992 micro-units: 95873799 / 10^6. */
	struct dcm_conv joint = { .gain = 95873799, .gain_den = 1000000, .offset = 0,
				  .min = -2086000, .max = 2086000 };
	s64 raw;

	(void)state;
	/* Full brightness is 255 and reads exactly 1.0; 0.4 is 102 and reads 0.4. */
	assert_true(dcm_to_raw(&led, U) == 255);
	assert_true(dcm_from_raw(&led, 255) == U);
	assert_true(dcm_to_raw(&led, 400000) == 102);
	assert_true(dcm_from_raw(&led, 102) == 400000);
	assert_true(dcm_from_raw(&led, 1) == 3922);

	/* 1 rad is 10430.378 counts of 2*pi/65536. */
	raw = dcm_to_raw(&joint, U);
	assert_true(raw == 10430);
	assert_true(dcm_from_raw(&joint, 10430) == 999964);
	/* A quarter turn is exactly 16384 counts. */
	assert_true(dcm_to_raw(&joint, 1570796) == 16384);
	assert_true(dcm_to_raw(&joint, -1570796) == -16384);
	assert_true(dcm_from_raw(&joint, 16384) == 1570796);
}

/* A reference: stable insertion sort by (wrapping) time. */
static void ref_sort(struct dcm_point *p, u32 n)
{
	struct dcm_point tmp;
	u32 i, j;

	for (i = 1; i < n; i++) {
		tmp = p[i];
		for (j = i; j > 0 && dcm_time_before(tmp.time, p[j - 1].time); j--)
			p[j] = p[j - 1];
		p[j] = tmp;
	}
}

static void expect_sorted_like_ref(struct dcm_point *in, u32 n)
{
	static struct dcm_point a[DCM_MAX_POINTS], b[DCM_MAX_POINTS];
	u32 i;

	memcpy(a, in, n * sizeof(*in));
	memcpy(b, in, n * sizeof(*in));
	assert_int_equal(0, dcm_tc_prepare(a, n));
	ref_sort(b, n);
	for (i = 0; i < n; i++) {
		assert_int_equal(b[i].time, a[i].time);
		assert_true(b[i].value == a[i].value);
		assert_int_equal(b[i].importance, a[i].importance);
		/* The reserved bytes, used while sorting, are zero again. */
		assert_int_equal(0, a[i].reserved[0] | a[i].reserved[1] | a[i].reserved[2]);
	}
}

/* A 512-point trajectory given in reverse is queued in time order. */
static void test_sort_reverse_512(void **state)
{
	static struct dcm_point p[DCM_MAX_POINTS];
	u32 i;

	(void)state;
	for (i = 0; i < DCM_MAX_POINTS; i++)
		p[i] = pt(i, 1000 + 10 * (DCM_MAX_POINTS - 1 - i));
	expect_sorted_like_ref(p, DCM_MAX_POINTS);
	dcm_tc_init(&q, 0);
	set(DCM_UPDATE_CLEAR_ALL, p, DCM_MAX_POINTS);
	assert_int_equal(DCM_MAX_POINTS, q.n);
	for (i = 0; i < DCM_MAX_POINTS; i++) {
		assert_int_equal(1000 + 10 * i, q.pts[i].time);
		assert_true(q.pts[i].value == (s64)(DCM_MAX_POINTS - 1 - i) * U);
	}
}

/* Equal times keep the order they came in, whatever else is shuffled. */
static void test_sort_stable(void **state)
{
	static struct dcm_point p[DCM_MAX_POINTS];
	u32 i, seed = 12345, n;

	(void)state;
	for (n = 0; n <= DCM_MAX_POINTS; n += n < 20 ? 1 : 61) {
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245 + 12345;
			/* Few distinct times, many ties; some across the 2^32 wrap. */
			p[i] = pt(i, (seed >> 16) % 7 * 100 - 300);
			p[i].importance = (seed >> 8) & 7;
		}
		expect_sorted_like_ref(p, n);
	}
	/* Already in order, and all equal. */
	for (i = 0; i < DCM_MAX_POINTS; i++)
		p[i] = pt(i, i / 3);
	expect_sorted_like_ref(p, DCM_MAX_POINTS);
	for (i = 0; i < DCM_MAX_POINTS; i++)
		p[i] = pt(i, 42);
	expect_sorted_like_ref(p, DCM_MAX_POINTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_ramp_from_idle),
		cmocka_unit_test(test_two_points),
		cmocka_unit_test(test_past_latest_wins),
		cmocka_unit_test(test_clear_all),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_clear_after),
		cmocka_unit_test(test_clear_before),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_step_only),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_conversion),
		cmocka_unit_test(test_conversion_saturates),
		cmocka_unit_test(test_fraction_gain),
		cmocka_unit_test(test_sort_reverse_512),
		cmocka_unit_test(test_sort_stable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
