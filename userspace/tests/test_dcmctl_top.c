// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmctl top's layout. A robot of 26 joints with every value
 * known, rendered into 80x24 and larger screens: what each line shows, that
 * nothing passes the width, the names abbreviated to fit; its options.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/dcm.h>

#include "top.h"

static const char *const nao[26] = {
	"HeadYaw", "HeadPitch",
	"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
	"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand",
	"LHipYawPitch", "LHipRoll", "LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll",
	"RHipYawPitch", "RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll",
};

static struct top_view view;

static void fake_robot(struct top_view *v)
{
	size_t i;

	top_view_init(v);
	snprintf(v->controller, sizeof(v->controller), "dcm0");
	snprintf(v->driver, sizeof(v->driver), "dcm_sim");
	v->time = 123456;
	v->cycle = 12345;
	v->period_us = 10000;
	v->has_stats = true;
	v->stats.last_ns = 45200;
	v->stats.mean_ns = 50100;
	v->stats.max_ns = 301000;
	v->stats.latency_max_ns = 120000;
	v->stats.overruns = 3;
	v->n_joints = 26;
	for (i = 0; i < 26; i++) {
		struct top_joint *j = &v->joints[i];

		snprintf(j->name, sizeof(j->name), "%s", nao[i]);
		j->cmd = 0.1 * (double)i - 1.0;
		j->sensor = j->cmd + 0.001;
		j->stiffness = i % 2 ? 1.0 : 0.85;
		j->temp = 30 + (double)i;
		j->temp_status = i == 3 ? 2 : 0;
		j->current = 0.05 * (double)i;
	}
	/* HeadYaw halfway to its command */
	v->joints[0].cmd = 0.6;
	v->joints[0].sensor = 0.3;
	v->charge = 0.93;
	v->bat_current = -1.25;
	v->bat_temp = 31;
	v->foot[0].fsr[0] = 0.51;
	v->foot[0].total = 2.02;
	v->foot[0].cop_x = 0.01;
	v->foot[0].cop_y = -0.002;
	v->angle[0] = 0.012;
	v->acc[2] = -9.81;
	v->gyr[0] = 0.5;
	v->gyr[1] = -0.25;
	v->gyr[2] = 0.125;
	v->events_on = true;
	v->interval_ms = 250;
}

/* The line of @screen that holds @what, or NULL. */
static const char *find_line(const char *screen, int rows, int cols, const char *what)
{
	int r;

	for (r = 0; r < rows; r++)
		if (strstr(screen + (size_t)r * (cols + 1), what))
			return screen + (size_t)r * (cols + 1);
	return NULL;
}

static char *render(int rows, int cols)
{
	char *s = malloc((size_t)rows * (cols + 1));
	int r;

	assert_non_null(s);
	top_render(&view, s, rows, cols);
	if (getenv("TOP_DUMP"))
		for (r = 0; r < rows; r++)
			fprintf(stderr, "|%s|\n", s + (size_t)r * (cols + 1));
	for (r = 0; r < rows; r++)
		assert_int_equal(strlen(s + (size_t)r * (cols + 1)), cols);
	return s;
}

static void test_abbrev(void **state)
{
	char out[32];

	(void)state;
	top_abbrev("HeadYaw", 11, out, sizeof(out));
	assert_string_equal(out, "HeadYaw");
	top_abbrev("LShoulderPitch", 11, out, sizeof(out));
	assert_string_equal(out, "LShldrPitch");
	top_abbrev("LShoulderPitch", 14, out, sizeof(out));
	assert_string_equal(out, "LShoulderPitch");
	top_abbrev("LHipYawPitch", 11, out, sizeof(out));
	assert_string_equal(out, "LHipYawPtch");
	top_abbrev("LHipYawPitch", 6, out, sizeof(out));
	assert_string_equal(out, "LHipYa");
	top_abbrev("LHipYawPitch", 40, out, 5);
	assert_string_equal(out, "LHip");
}

/* Every joint on its own line of 80x24, with all its values. */
static void test_80x24_joints(void **state)
{
	char *s, name[16];
	const char *l;
	size_t i;

	(void)state;
	fake_robot(&view);
	s = render(24, 80);
	for (i = 0; i < 26; i++) {
		top_abbrev(nao[i], 11, name, sizeof(name));
		assert_non_null(find_line(s, 24, 80, name));
	}
	/* HeadYaw: command 0.6, sensor 0.3, stiffness 85 %, 30 C status 0, 0 A */
	l = find_line(s, 24, 80, "HeadYaw ");
	assert_non_null(l);
	assert_memory_equal(l, "HeadYaw      0.600  0.300  85 30 0 0.00 ", 40);
	/* the second column starts at 40: the 14th joint, RHand */
	l = find_line(s, 24, 80, "LShldrRoll");
	assert_non_null(strstr(l, " 33 2 "));	/* 33 C, status 2 */
	assert_non_null(find_line(s, 24, 80, "RHand"));
	assert_true(find_line(s, 24, 80, "RHand") == find_line(s, 24, 80, "HeadYaw "));
	assert_memory_equal(find_line(s, 24, 80, "RHand") + 40, "RHand", 5);
	free(s);
}

static void test_80x24_rest(void **state)
{
	const char *l;
	char *s;

	(void)state;
	fake_robot(&view);
	top_add_event(&view, 120000, DCM_EV_SAFETY, "safety cycle-fault on: a cycle 700 ms late");
	top_add_event(&view, 80000, DCM_EV_ERROR, "error ChestBoard: too old to show");
	top_add_event(&view, 123000, DCM_EV_NACK, "nack RightShoulderBoard 5");
	top_add_event(&view, 123100, DCM_EV_OVERRUN, "overrun: not kept");
	s = render(24, 80);
	l = s;
	assert_non_null(strstr(l, "dcm0 (dcm_sim)  DCM time 123.456 s  cycle 12345  period 10.000 ms"));
	assert_non_null(find_line(s, 24, 80, "work us: last 45 mean 50 max 301  wake-up latency max 120 us"));
	assert_non_null(find_line(s, 24, 80, "overruns 3"));
	assert_non_null(find_line(s, 24, 80, "battery  charge  93 %  current -1.25 A  temperature 31 C"));
	l = find_line(s, 24, 80, "LFoot kg");
	assert_non_null(l);
	assert_non_null(strstr(l, "FL 0.51 FR    -"));
	assert_non_null(strstr(l, "total  2.02  CoP m x  0.010 y -0.002"));
	assert_non_null(find_line(s, 24, 80, "RFoot kg"));
	l = find_line(s, 24, 80, "inertial");
	assert_non_null(strstr(l, "angle  0.012      -  acc     -     - -9.81  gyr  0.500"));
	/* two events of the last 30 s, the newest first; the old one left out */
	assert_non_null(find_line(s, 24, 80, "events, last 30 s: 2 (1 error, 1 safety)"));
	assert_null(find_line(s, 24, 80, "not kept"));
	l = find_line(s, 24, 80, "nack RightShoulderBoard");
	assert_non_null(l);
	assert_non_null(strstr(l, "0.4 s ago"));
	assert_true(find_line(s, 24, 80, "cycle-fault") == l + 81);
	assert_null(find_line(s, 24, 80, "too old"));
	/* the last line says how to quit */
	assert_memory_equal(s + 23 * 81, "q: quit  every 250 ms", 21);
	free(s);
}

/* Missing keys read "-"; no joints says so; a message comes first. */
static void test_unknown(void **state)
{
	char *s;

	(void)state;
	top_view_init(&view);
	snprintf(view.message, sizeof(view.message), "no robot description loaded");
	s = render(24, 80);
	assert_non_null(find_line(s, 24, 80, "no joints"));
	assert_non_null(find_line(s, 24, 80, "battery  charge   - %  current     - A"));
	assert_non_null(find_line(s, 24, 80, "no robot description loaded"));
	assert_non_null(find_line(s, 24, 80, "events: not followed"));
	free(s);
}

/* More room: the full names, more events; less: cut, never past the edge. */
static void test_sizes(void **state)
{
	char *s, text[32];
	int i;

	(void)state;
	fake_robot(&view);
	for (i = 0; i < 20; i++) {
		snprintf(text, sizeof(text), "error event %d", i);
		top_add_event(&view, 90000 + 1000 * i, DCM_EV_ERROR, text);
	}
	s = render(40, 120);
	assert_non_null(find_line(s, 40, 120, "LShoulderPitch"));
	assert_non_null(find_line(s, 40, 120, "error event 19"));
	assert_non_null(find_line(s, 40, 120, "error event 4"));
	assert_null(find_line(s, 40, 120, "error event 3"));	/* 30.4 s old */
	free(s);
	s = render(24, 80);
	assert_non_null(find_line(s, 24, 80, "error event 19"));
	assert_non_null(find_line(s, 24, 80, "error event 18"));
	assert_null(find_line(s, 24, 80, "error event 17"));	/* no room left */
	free(s);
	/* 40 columns: one column of joints; 10 lines: the first ones only */
	s = render(10, 40);
	assert_non_null(find_line(s, 10, 40, "HeadYaw"));
	assert_null(find_line(s, 10, 40, "RAnkleRoll"));
	assert_memory_equal(s + 9 * 41, "q: quit", 7);
	free(s);
	s = render(3, 20);
	free(s);
	s = render(1, 1);
	free(s);
}

static void test_add_event(void **state)
{
	char text[16];
	int i;

	(void)state;
	top_view_init(&view);
	for (i = 0; i < TOP_MAX_EVENTS + 5; i++) {
		snprintf(text, sizeof(text), "e%d", i);
		top_add_event(&view, (uint32_t)i, DCM_EV_ERROR, text);
	}
	assert_int_equal(view.n_events, TOP_MAX_EVENTS);
	assert_string_equal(view.events[0].text, "e5");
	assert_string_equal(view.events[TOP_MAX_EVENTS - 1].text, "e68");
	top_add_event(&view, 1000, DCM_EV_OVERRUN, "overrun");
	top_add_event(&view, 1000, DCM_EV_CONFIG, "config");
	assert_string_equal(view.events[TOP_MAX_EVENTS - 1].text, "e68");
}

#define ARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
		  (char *[]){ __VA_ARGS__, NULL }

static void test_args(void **state)
{
	unsigned int ms;
	bool once;
	char err[160];

	(void)state;
	assert_int_equal(top_parse_args(0, (char *[]){ NULL }, &ms, &once, err, sizeof(err)), 0);
	assert_int_equal(ms, 250);
	assert_false(once);
	assert_int_equal(top_parse_args(ARGS("--interval", "100", "--once"), &ms, &once, err,
					sizeof(err)), 0);
	assert_int_equal(ms, 100);
	assert_true(once);
	assert_int_equal(top_parse_args(ARGS("--once", "--interval=1000"), &ms, &once, err,
					sizeof(err)), 0);
	assert_int_equal(ms, 1000);
	assert_int_equal(top_parse_args(ARGS("-i", "50"), &ms, &once, err, sizeof(err)), 0);
	assert_int_equal(ms, 50);
	/* abbreviations, as every command takes them */
	assert_int_equal(top_parse_args(ARGS("--int", "60", "--on"), &ms, &once, err,
					sizeof(err)), 0);
	assert_int_equal(ms, 60);
	assert_true(once);
	assert_int_equal(top_parse_args(ARGS("-1", "-i70"), &ms, &once, err, sizeof(err)), 0);
	assert_int_equal(ms, 70);
	assert_true(once);
	assert_int_equal(top_parse_args(ARGS("--interval", "10"), &ms, &once, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "top: invalid interval '10' (50 to 10000 ms)");
	assert_int_equal(top_parse_args(ARGS("--interval=abc"), &ms, &once, err, sizeof(err)),
			 -EINVAL);
	/* a count of ms: digits only (common/num.c) */
	assert_int_equal(top_parse_args(ARGS("--interval", "+100"), &ms, &once, err,
					sizeof(err)), -EINVAL);
	assert_string_equal(err, "top: invalid interval '+100' (50 to 10000 ms)");
	assert_int_equal(top_parse_args(ARGS("--interval", " 100"), &ms, &once, err,
					sizeof(err)), -EINVAL);
	assert_string_equal(err, "top: invalid interval ' 100' (50 to 10000 ms)");
	assert_int_equal(top_parse_args(ARGS("--interval", "10001"), &ms, &once, err,
					sizeof(err)), -EINVAL);
	assert_int_equal(top_parse_args(ARGS("--interval", "10000"), &ms, &once, err,
					sizeof(err)), 0);
	assert_int_equal(ms, 10000);
	assert_int_equal(top_parse_args(ARGS("--interval"), &ms, &once, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "top: option '--interval' needs an argument");
	assert_int_equal(top_parse_args(ARGS("--bogus"), &ms, &once, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "top: unknown option '--bogus'");
	assert_int_equal(top_parse_args(ARGS("HeadYaw"), &ms, &once, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "top: unexpected argument 'HeadYaw'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abbrev),
		cmocka_unit_test(test_80x24_joints),
		cmocka_unit_test(test_80x24_rest),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_add_event),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
