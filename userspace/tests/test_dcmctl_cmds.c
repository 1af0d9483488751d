// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmctl set, alias, time, watch and stats. Their argument
 * parsers (good and bad command lines, "VALUE@MS" points, lists, kinds),
 * then the commands themselves against the fake kernel of fake_dcm.c
 * (-d /dev/null): what reaches the kernel, the text and JSON output, the
 * errors and their exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "fake_dcm.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "events.h"
#include "parse.h"
#include "record.h"
#include "timed.h"
#include "watch.h"

#define ARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
		  (char *[]){ __VA_ARGS__, NULL }

static char err[256];

static int setup(void **state)
{
	(void)state;
	fake_reset();
	err[0] = '\0';
	return 0;
}

/* ------------------------------------------------------------------
 * Values, times, kinds, points, lists
 */

static void test_parse_value(void **state)
{
	double v;

	(void)state;
	assert_int_equal(dcmctl_parse_value("0.3", &v), 0);
	assert_true(v == 0.3);
	assert_int_equal(dcmctl_parse_value("-1.5", &v), 0);
	assert_true(v == -1.5);
	assert_int_equal(dcmctl_parse_value(".5", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(dcmctl_parse_value("+2e-3", &v), 0);
	assert_true(v == 0.002);
	/* rounded to the micro-unit, the ABI's resolution */
	assert_int_equal(dcmctl_parse_value("0.0000004", &v), 0);
	assert_true(v == 0);
	assert_int_equal(dcmctl_parse_value("0.0000005", &v), 0);
	assert_true(v == 0.000001);
	assert_int_equal(dcmctl_parse_value("abc", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("nan", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("inf", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("-inf", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("0x10", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value(" 1", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("1,5", &v), -EINVAL);
	assert_int_equal(dcmctl_parse_value("1e400", &v), -ERANGE);
	assert_int_equal(dcmctl_parse_value(NULL, &v), -EINVAL);
}

static void test_parse_times(void **state)
{
	uint32_t t;
	int32_t ms;

	(void)state;
	assert_int_equal(dcmctl_parse_ms("300", &ms), 0);
	assert_int_equal(ms, 300);
	assert_int_equal(dcmctl_parse_ms("-200", &ms), 0);
	assert_int_equal(ms, -200);
	assert_int_equal(dcmctl_parse_ms("+7", &ms), 0);
	assert_int_equal(ms, 7);
	assert_int_equal(dcmctl_parse_ms("2147483647", &ms), 0);
	assert_int_equal(dcmctl_parse_ms("-2147483648", &ms), 0);
	assert_int_equal(ms, INT32_MIN);
	assert_int_equal(dcmctl_parse_ms("2147483648", &ms), -ERANGE);
	assert_int_equal(dcmctl_parse_ms("1.5", &ms), -EINVAL);
	assert_int_equal(dcmctl_parse_ms("10ms", &ms), -EINVAL);
	assert_int_equal(dcmctl_parse_ms("", &ms), -EINVAL);
	assert_int_equal(dcmctl_parse_ms("-", &ms), -EINVAL);
	assert_int_equal(dcmctl_parse_ms(" 5", &ms), -EINVAL);

	assert_int_equal(dcmctl_parse_dcm_time("4294967295", &t), 0);
	assert_int_equal(t, UINT32_MAX);
	assert_int_equal(dcmctl_parse_dcm_time("0", &t), 0);
	assert_int_equal(dcmctl_parse_dcm_time("4294967296", &t), -ERANGE);
	assert_int_equal(dcmctl_parse_dcm_time("-1", &t), -ERANGE);
	assert_int_equal(dcmctl_parse_dcm_time("x", &t), -EINVAL);
}

static void test_parse_kind(void **state)
{
	enum dcm_update_kind k;
	uint8_t imp;

	(void)state;
	assert_int_equal(dcmctl_parse_kind("clear-all", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_ALL);
	assert_int_equal(dcmctl_parse_kind("merge", &k), 0);
	assert_int_equal(k, LIBDCM_MERGE);
	assert_int_equal(dcmctl_parse_kind("clear-after", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_AFTER);
	assert_int_equal(dcmctl_parse_kind("clear-before", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_BEFORE);
	/* NAOqi's spelling */
	assert_int_equal(dcmctl_parse_kind("ClearAll", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_ALL);
	assert_int_equal(dcmctl_parse_kind("ClearBefore", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_BEFORE);
	assert_int_equal(dcmctl_parse_kind("CLEAR_AFTER", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_AFTER);
	assert_int_equal(dcmctl_parse_kind("Merge", &k), 0);
	assert_int_equal(dcmctl_parse_kind("clear", &k), -EINVAL);
	assert_int_equal(dcmctl_parse_kind("all", &k), -EINVAL);
	assert_int_equal(dcmctl_parse_kind("", &k), -EINVAL);
	assert_int_equal(dcmctl_parse_kind("--", &k), -EINVAL);
	assert_int_equal(dcmctl_parse_kind("merge-merge-merge-merge-merge-merge-merge", &k),
			 -EINVAL);
	assert_string_equal(dcmctl_kind_name(LIBDCM_CLEAR_AFTER), "clear-after");
	assert_string_equal(dcmctl_kind_name((enum dcm_update_kind)9), "?");

	assert_int_equal(dcmctl_parse_importance("7", &imp), 0);
	assert_int_equal(imp, 7);
	assert_int_equal(dcmctl_parse_importance("8", &imp), -ERANGE);
	assert_int_equal(dcmctl_parse_importance("-1", &imp), -ERANGE);
	assert_int_equal(dcmctl_parse_importance("high", &imp), -EINVAL);
}

static void test_parse_point(void **state)
{
	struct dcmctl_point p;

	(void)state;
	assert_int_equal(dcmctl_parse_point("0.5@100", &p), 0);
	assert_true(p.value == 0.5);
	assert_int_equal(p.offset, 100);
	assert_int_equal(dcmctl_parse_point("-0.25@-40", &p), 0);
	assert_true(p.value == -0.25);
	assert_int_equal(p.offset, -40);
	assert_int_equal(dcmctl_parse_point("1@0", &p), 0);
	assert_int_equal(dcmctl_parse_point("0.5", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("0.5@", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("@100", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("0.5@1@2", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("abc@100", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("0.5@abc", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("0.5@1.5", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("nan@1", &p), -EINVAL);
	assert_int_equal(dcmctl_parse_point("0.5@99999999999", &p), -ERANGE);
}

static void test_parse_lists(void **state)
{
	struct dcmctl_point *p;
	int32_t *ms;
	double *v;
	size_t n, bad = 99;

	(void)state;
	assert_int_equal(dcmctl_parse_value_list("0.1,-0.2,3", &v, &n, &bad), 0);
	assert_int_equal(n, 3);
	assert_true(v[0] == 0.1 && v[1] == -0.2 && v[2] == 3);
	free(v);
	assert_int_equal(dcmctl_parse_value_list("", &v, &n, &bad), 0);
	assert_int_equal(n, 0);
	assert_null(v);
	assert_int_equal(dcmctl_parse_value_list("0.1,,0.3", &v, &n, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(dcmctl_parse_value_list("0.1,x", &v, &n, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(dcmctl_parse_value_list("0.1,", &v, &n, &bad), -EINVAL);
	assert_int_equal(dcmctl_parse_ms_list("0,100,-50", &ms, &n, &bad), 0);
	assert_int_equal(n, 3);
	assert_int_equal(ms[2], -50);
	free(ms);
	assert_int_equal(dcmctl_parse_ms_list("100,1.5", &ms, &n, &bad), -EINVAL);
	assert_int_equal(dcmctl_parse_point_list("0.5@100,0.6@200", &p, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_true(p[1].value == 0.6);
	assert_int_equal(p[1].offset, 200);
	free(p);
	assert_int_equal(dcmctl_parse_point_list("0.5@100,0.6", &p, &n, &bad), -EINVAL);
	assert_int_equal(bad, 1);
}

/* ------------------------------------------------------------------
 * Command lines
 */

static void test_parse_set_good(void **state)
{
	struct dcmctl_set_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_set(ARGS("HeadYaw/Position/Actuator", "0.3"), &a, err,
					  sizeof(err)), 0);
	assert_string_equal(a.key, "HeadYaw/Position/Actuator");
	assert_int_equal(a.n, 1);
	assert_true(a.points[0].value == 0.3);
	assert_int_equal(a.points[0].offset, 0);
	assert_int_equal(a.t.kind, LIBDCM_CLEAR_ALL);
	assert_int_equal(a.t.importance, 0);
	assert_int_equal(a.t.base, DCMCTL_BASE_NOW);
	dcmctl_set_args_free(&a);

	/* options before, between and after; "=" form; negative value */
	assert_int_equal(dcmctl_parse_set(ARGS("--kind", "merge", "K", "-0.3", "--in", "300",
					       "--importance=4"), &a, err, sizeof(err)), 0);
	assert_string_equal(a.key, "K");
	assert_true(a.points[0].value == -0.3);
	assert_int_equal(a.t.kind, LIBDCM_MERGE);
	assert_int_equal(a.t.importance, 4);
	assert_int_equal(a.t.base, DCMCTL_BASE_IN);
	assert_int_equal(a.t.in_ms, 300);
	assert_int_equal(dcmctl_base_time(&a.t, 1000), 1300);
	dcmctl_set_args_free(&a);

	assert_int_equal(dcmctl_parse_set(ARGS("K", "1", "--at", "4294967000"), &a, err,
					  sizeof(err)), 0);
	assert_int_equal(a.t.base, DCMCTL_BASE_AT);
	assert_int_equal(dcmctl_base_time(&a.t, 1000), 4294967000U);
	dcmctl_set_args_free(&a);

	/* several points, times relative to now */
	assert_int_equal(dcmctl_parse_set(ARGS("K", "0.5@100", "-0.5@300", "0@-20",
					       "--kind=ClearBefore"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.points[1].offset, 300);
	assert_true(a.points[1].value == -0.5);
	assert_int_equal(a.points[2].offset, -20);
	assert_int_equal(a.t.kind, LIBDCM_CLEAR_BEFORE);
	dcmctl_set_args_free(&a);

	/* a single point with its time; "--" ends the options */
	assert_int_equal(dcmctl_parse_set(ARGS("--", "K", "0.7@50"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 1);
	assert_int_equal(a.points[0].offset, 50);
	dcmctl_set_args_free(&a);
	assert_int_equal(dcmctl_parse_set(ARGS("K", "--in", "-100", "0.1"), &a, err,
					  sizeof(err)), 0);
	assert_int_equal(a.t.in_ms, -100);
	assert_int_equal(dcmctl_base_time(&a.t, 50), (uint32_t)-50);
	dcmctl_set_args_free(&a);
}

/*
 * One reading of the command line, its values by the key's kind: a
 * configuration key's value is text, an actuator's are points.
 */
static void test_scan_set(void **state)
{
	struct dcmctl_set_args a;

	(void)state;
	/* a value that is no number: kept as text; taken as a point: refused */
	assert_int_equal(dcmctl_scan_set(ARGS("RobotConfig/Body/Type", "nao"), &a, err,
					 sizeof(err)), 0);
	assert_string_equal(a.key, "RobotConfig/Body/Type");
	assert_int_equal(a.n_values, 1);
	assert_string_equal(a.values[0], "nao");
	assert_int_equal(a.n_opts, 0);
	assert_int_equal(dcmctl_set_points(&a, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "set: invalid value 'nao'");
	dcmctl_set_args_free(&a);
	assert_null(a.values);
	assert_null(a.points);

	/* options counted; a bad option value is the points' error, not the scan's */
	assert_int_equal(dcmctl_scan_set(ARGS("K", "40", "--kind", "sideways", "--in", "100"),
					 &a, err, sizeof(err)), 0);
	assert_int_equal(a.n_opts, 2);
	assert_int_equal(a.n_values, 1);
	assert_int_equal(dcmctl_set_points(&a, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "invalid kind 'sideways' (clear-all, merge, clear-after, "
			    "clear-before)");
	dcmctl_set_args_free(&a);

	/* the same line read once, then as points */
	assert_int_equal(dcmctl_scan_set(ARGS("K", "0.5@100", "-0.5@300", "--in", "20"), &a, err,
					 sizeof(err)), 0);
	assert_int_equal(dcmctl_set_points(&a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 2);
	assert_int_equal(a.points[1].offset, 300);
	assert_int_equal(a.t.in_ms, 20);
	dcmctl_set_args_free(&a);

	/* an unknown option stops the scan */
	assert_int_equal(dcmctl_scan_set(ARGS("K", "1", "--inn", "3"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_null(a.values);
}

#define SET_BAD(msg, ...) do { \
		struct dcmctl_set_args a_; \
		assert_int_equal(dcmctl_parse_set(ARGS(__VA_ARGS__), &a_, err, sizeof(err)), \
				 -EINVAL); \
		assert_string_equal(err, msg); \
		assert_null(a_.points); \
	} while (0)

static void test_parse_set_bad(void **state)
{
	struct dcmctl_set_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_set(0, (char *[]){ NULL }, &a, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "set: which key? (dcmctl set KEY VALUE)");
	SET_BAD("set: which value? (dcmctl set KEY VALUE)", "K");
	SET_BAD("set: which value? (dcmctl set KEY VALUE)", "K", "--in", "5");
	SET_BAD("set: invalid value 'abc'", "K", "abc");
	SET_BAD("set: invalid value 'nan'", "K", "nan");
	SET_BAD("set: invalid value 'inf'", "K", "inf");
	SET_BAD("set: invalid value '1e400' (out of range)", "K", "1e400");
	SET_BAD("set: invalid point '0.5@' (VALUE@MS: a decimal value, a time in ms)", "K",
		"0.5@");
	SET_BAD("set: invalid point '@5' (VALUE@MS: a decimal value, a time in ms)", "K", "@5");
	SET_BAD("set: invalid point 'x@5' (VALUE@MS: a decimal value, a time in ms)", "K",
		"x@5");
	SET_BAD("set: several points need their times: VALUE@MS VALUE@MS ...", "K", "0.1",
		"0.2@100");
	SET_BAD("set: several points need their times: VALUE@MS VALUE@MS ...", "K", "0.1",
		"0.2");
	SET_BAD("set: --at and --in exclude each other", "K", "1", "--at", "5", "--in", "5");
	SET_BAD("invalid kind 'bogus' (clear-all, merge, clear-after, clear-before)", "K", "1",
		"--kind", "bogus");
	SET_BAD("invalid importance '8' (0 to 7)", "K", "1", "--importance", "8");
	SET_BAD("invalid DCM time '-5' for --at (0 to 4294967295 ms)", "K", "1", "--at", "-5");
	SET_BAD("invalid time 'soon' for --in (ms, a signed 32-bit number)", "K", "1", "--in",
		"soon");
	SET_BAD("option '--in' needs an argument", "K", "1", "--in");
	SET_BAD("option '--kind' needs an argument", "K", "1", "--kind");
	SET_BAD("set: unknown option '--foo'", "K", "1", "--foo");
	SET_BAD("set: unknown option '--kinds=merge'", "K", "1", "--kinds=merge");
	SET_BAD("set: unknown option '-q'", "K", "1", "-q");
}

static void test_parse_set_too_many(void **state)
{
	char **argv = calloc(LIBDCM_MAX_POINTS + 3, sizeof(char *));
	char (*pts)[16] = calloc(LIBDCM_MAX_POINTS + 1, 16);
	struct dcmctl_set_args a;
	int i;

	(void)state;
	argv[0] = "K";
	for (i = 0; i <= LIBDCM_MAX_POINTS; i++) {
		snprintf(pts[i], 16, "0.1@%d", i);
		argv[1 + i] = pts[i];
	}
	assert_int_equal(dcmctl_parse_set(LIBDCM_MAX_POINTS + 1, argv, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, LIBDCM_MAX_POINTS);
	dcmctl_set_args_free(&a);
	assert_int_equal(dcmctl_parse_set(LIBDCM_MAX_POINTS + 2, argv, &a, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "set: 513 points, at most 512");
	free(argv);
	free(pts);
}

static void test_parse_alias_set_good(void **state)
{
	struct dcmctl_alias_set_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_alias_set(ARGS("legs", "--separate", "--times", "0,500",
						     "0.1,0.2", "0.3,0.4", "-1,-2"), &a, err,
						sizeof(err)), 0);
	assert_string_equal(a.name, "legs");
	assert_true(a.separate);
	assert_int_equal(a.n_members, 3);
	assert_int_equal(a.n_times, 2);
	assert_int_equal(a.times[1], 500);
	assert_true(a.values[0] == 0.1 && a.values[3] == 0.4 && a.values[5] == -2);
	dcmctl_alias_set_args_free(&a);

	assert_int_equal(dcmctl_parse_alias_set(ARGS("--mixed", "legs", "0.5@100,0.6@200", "",
						     "-0.5@50", "--kind", "merge", "--in", "10",
						     "--importance", "2"), &a, err, sizeof(err)), 0);
	assert_false(a.separate);
	assert_int_equal(a.n_members, 3);
	assert_int_equal(a.counts[0], 2);
	assert_int_equal(a.counts[1], 0);
	assert_int_equal(a.counts[2], 1);
	assert_true(a.points[2].value == -0.5);
	assert_int_equal(a.points[2].offset, 50);
	assert_int_equal(a.t.kind, LIBDCM_MERGE);
	assert_int_equal(a.t.importance, 2);
	assert_int_equal(a.t.in_ms, 10);
	dcmctl_alias_set_args_free(&a);

	/* one time, one value per member: the time-separate one-value case */
	assert_int_equal(dcmctl_parse_alias_set(ARGS("all", "--separate", "--times=0", "0.2",
						     "0.2"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.n_times, 1);
	assert_int_equal(a.n_members, 2);
	dcmctl_alias_set_args_free(&a);
}

#define ASET_BAD(msg, ...) do { \
		struct dcmctl_alias_set_args a_; \
		assert_int_equal(dcmctl_parse_alias_set(ARGS(__VA_ARGS__), &a_, err, \
							sizeof(err)), -EINVAL); \
		assert_string_equal(err, msg); \
	} while (0)

static void test_parse_alias_set_bad(void **state)
{
	(void)state;
	ASET_BAD("alias set: give either --separate or --mixed", "legs", "0.1");
	ASET_BAD("alias set: give either --separate or --mixed", "legs", "--separate", "--mixed",
		 "--times", "0", "0.1");
	ASET_BAD("alias set: which alias? (dcmctl alias set NAME ...)", "--mixed");
	ASET_BAD("alias set: a point list per member, blank members included", "--mixed", "legs");
	ASET_BAD("alias set: --separate needs --times MS,MS,...", "--separate", "legs", "0.1");
	ASET_BAD("alias set: invalid --times '0,x' (ms, comma-separated)", "--separate",
		 "--times", "0,x", "legs", "0.1,0.2");
	ASET_BAD("alias set: invalid --times '' (ms, comma-separated)", "--separate",
		 "--times", "", "legs", "0.1");
	ASET_BAD("alias set: member 2: 1 value for 2 times ('0.3')", "--separate", "--times",
		 "0,100", "legs", "0.1,0.2", "0.3");
	ASET_BAD("alias set: member 1: invalid value list 'abc'", "--separate", "--times", "0",
		 "legs", "abc");
	ASET_BAD("alias set: member 1: invalid point list '0.5' (VALUE@MS,VALUE@MS,...)",
		 "--mixed", "legs", "0.5");
	ASET_BAD("alias set: --times goes with --separate; --mixed takes VALUE@MS points",
		 "--mixed", "--times", "0", "legs", "0.5@0");
	ASET_BAD("alias set: --at and --in exclude each other", "--mixed", "legs", "0.5@0",
		 "--at", "1", "--in", "1");
	ASET_BAD("invalid kind 'x' (clear-all, merge, clear-after, clear-before)", "--mixed",
		 "legs", "0.5@0", "--kind", "x");
	ASET_BAD("alias set: ambiguous option '--i' (--in, --importance)", "--separate", "--i", "0",
		 "legs", "1");
	ASET_BAD("alias set: unknown option '--timed'", "--separate", "--timed", "0", "legs", "1");
	ASET_BAD("option '--times' needs an argument", "--separate", "legs", "1", "--times");
}

static void test_parse_watch(void **state)
{
	struct dcmctl_watch_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "B", "--cycles", "60"), &a, err,
					    sizeof(err)), 0);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.keys[1], "B");
	assert_int_equal(a.cycles, 60);
	dcmctl_watch_args_free(&a);
	assert_int_equal(dcmctl_parse_watch(ARGS("--cycles=5", "A"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.cycles, 5);
	dcmctl_watch_args_free(&a);
	assert_int_equal(dcmctl_parse_watch(ARGS("-c", "3", "A"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.cycles, 3);
	dcmctl_watch_args_free(&a);
	assert_int_equal(dcmctl_parse_watch(ARGS("A"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.cycles, 0);	/* until interrupted */
	dcmctl_watch_args_free(&a);

	assert_int_equal(dcmctl_parse_watch(ARGS("--cycles", "3"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "watch: which key? (dcmctl watch KEY... [--cycles N])");
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "--cycles", "0"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "watch: invalid cycle count '0' (1 or more)");
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "--cycles", "x"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "--cycles"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "option '--cycles' needs an argument");
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "A"), &a, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "watch: key 'A' given twice");
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "--every", "2"), &a, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "watch: unknown option '--every'");
}

static void test_parse_record(void **state)
{
	struct dcmctl_record_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_record(0, (char *[]){ NULL }, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 0);	/* every subdevice */
	assert_int_equal(a.every, 1);
	assert_int_equal(a.fmt, REC_CSV);
	assert_null(a.output);
	dcmctl_record_args_free(&a);
	assert_int_equal(dcmctl_parse_record(ARGS("*/Position/Sensor", "-e", "10", "-o", "x.csv",
						  "--max-size", "5M", "-f", "jsonl", "--duration",
						  "1.5", "HeadYaw"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 2);
	assert_string_equal(a.keys[0], "*/Position/Sensor");
	assert_string_equal(a.keys[1], "HeadYaw");
	assert_int_equal(a.every, 10);
	assert_int_equal(a.max_size, 5 << 20);
	assert_int_equal(a.max_files, 10);	/* the default with --max-size */
	assert_int_equal(a.fmt, REC_JSONL);
	assert_true(a.duration == 1.5);
	dcmctl_record_args_free(&a);
	assert_int_equal(dcmctl_parse_record(ARGS("--format=mcap", "-o", "x.mcap"), &a, err,
					     sizeof(err)), 0);
	assert_int_equal(a.fmt, REC_MCAP);
	dcmctl_record_args_free(&a);
	assert_int_equal(dcmctl_parse_record(ARGS("-o", "x", "--max-size=100k", "--max-files=1",
						  "--cycles", "7"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.max_size, 100 << 10);
	assert_int_equal(a.max_files, 1);
	assert_int_equal(a.cycles, 7);
	dcmctl_record_args_free(&a);

#define REC_BAD(msg, ...) do { \
		assert_int_equal(dcmctl_parse_record(ARGS(__VA_ARGS__), &a, err, sizeof(err)), \
				 -EINVAL); \
		assert_string_equal(err, msg); \
	} while (0)
	REC_BAD("record: invalid --every '0' (1 to 1000000 cycles)", "--every", "0");
	REC_BAD("record: unknown format 'xml' (csv, jsonl or mcap)", "-f", "xml");
	REC_BAD("record: unknown format 'MCAP' (csv, jsonl or mcap)", "-f", "MCAP");
	REC_BAD("record: invalid size '5X' (bytes, or 10k, 5M, 1G)", "-o", "x", "--max-size", "5X");
	REC_BAD("record: invalid size '0' (bytes, or 10k, 5M, 1G)", "-o", "x", "--max-size", "0");
	REC_BAD("record: --max-size and --max-files rotate the file of --output", "--max-size",
		"1M");
	REC_BAD("record: --max-files needs --max-size (when to rotate)", "-o", "x", "--max-files",
		"3");
	REC_BAD("record: invalid duration '-1' (seconds, > 0)", "--duration", "-1");
	REC_BAD("record: invalid cycle count 'x'", "--cycles", "x");
#undef REC_BAD
}

static void test_parse_events(void **state)
{
	struct dcmctl_events_args a;

	(void)state;
	assert_int_equal(dcmctl_parse_events(0, (char *[]){ NULL }, &a, err, sizeof(err)), 0);
	assert_int_equal(a.count, 0);
	assert_int_equal(a.timeout_ms, -1);
	assert_int_equal(a.types, 0);

	assert_int_equal(dcmctl_parse_events(ARGS("--type", "nack,safety", "-n", "3",
						  "--timeout", "2"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.types, (1U << dcm_event_type_parse("nack")) |
				  (1U << dcm_event_type_parse("safety")));
	assert_int_equal(a.count, 3);
	assert_int_equal(a.timeout_ms, 2000);
	/* -t adds to the types; --count=N as --count N */
	assert_int_equal(dcmctl_parse_events(ARGS("-t", "nack", "-t", "ack", "--count=5",
						  "--timeout", "0"), &a, err, sizeof(err)), 0);
	assert_int_equal(a.types, (1U << dcm_event_type_parse("nack")) |
				  (1U << dcm_event_type_parse("ack")));
	assert_int_equal(a.count, 5);
	assert_int_equal(a.timeout_ms, 0);

#define EV_BAD(msg, ...) do { \
		assert_int_equal(dcmctl_parse_events(ARGS(__VA_ARGS__), &a, err, sizeof(err)), \
				 -EINVAL); \
		assert_string_equal(err, msg); \
	} while (0)
	EV_BAD("events: invalid count '0' (1 or more)", "--count", "0");
	EV_BAD("events: invalid count '2x' (1 or more)", "-n", "2x");
	EV_BAD("events: invalid timeout 'x' (seconds)", "--timeout", "x");
	EV_BAD("events: invalid timeout '-1' (seconds)", "--timeout", "-1");
	/* counts and seconds are digits only (common/num.c) */
	EV_BAD("events: invalid count '+2' (1 or more)", "--count", "+2");
	EV_BAD("events: invalid count ' 2' (1 or more)", "--count", " 2");
	EV_BAD("events: invalid count '18446744073709551616' (1 or more)", "--count",
	       "18446744073709551616");
	EV_BAD("events: invalid timeout '2147484' (seconds)", "--timeout", "2147484");
	EV_BAD("events: invalid timeout ' 1' (seconds)", "--timeout", " 1");
	EV_BAD("events: unknown type 'bogus'", "--type", "nack,bogus");
	EV_BAD("events: --type needs a type", "--type", ",");
	EV_BAD("events: option '--count' needs an argument", "--count");
	EV_BAD("events: option '-t' needs an argument", "-t");
	EV_BAD("events: unknown option '--every'", "--every", "1");
	EV_BAD("events: ambiguous option '--t' (--type, --timeout)", "--t", "nack");
	EV_BAD("events: unknown option '--types'", "--types", "nack");
	EV_BAD("events: unknown option '-x'", "-x");
	EV_BAD("events: 'nack' is not an option", "nack");
#undef EV_BAD
}

/* The rules of the one option parser (opts.c) as the commands use them. */
static void test_parse_option_rules(void **state)
{
	struct dcmctl_watch_args w;
	struct dcmctl_set_args a;

	(void)state;
	/* set: "-0.5" and "-.5" are values, not options */
	assert_int_equal(dcmctl_parse_set(ARGS("K", "-0.5"), &a, err, sizeof(err)), 0);
	assert_true(a.points[0].value == -0.5);
	dcmctl_set_args_free(&a);
	assert_int_equal(dcmctl_parse_set(ARGS("K", "-.5@-20"), &a, err, sizeof(err)), 0);
	assert_true(a.points[0].value == -0.5);
	assert_int_equal(a.points[0].offset, -20);
	dcmctl_set_args_free(&a);
	/* options anywhere; "--" ends them */
	assert_int_equal(dcmctl_parse_set(ARGS("--kind=merge", "K", "--importance", "3", "1"),
					  &a, err, sizeof(err)), 0);
	assert_int_equal(a.t.kind, LIBDCM_MERGE);
	assert_int_equal(a.t.importance, 3);
	dcmctl_set_args_free(&a);
	SET_BAD("set: invalid value '--in'", "K", "--", "--in");
	SET_BAD("invalid importance '' (0 to 7)", "K", "1", "--importance=");
	/* abbreviations: one option's, or an error naming the candidates */
	assert_int_equal(dcmctl_parse_set(ARGS("K", "1", "--imp", "3", "--k=merge"), &a, err,
					  sizeof(err)), 0);
	assert_int_equal(a.t.importance, 3);
	assert_int_equal(a.t.kind, LIBDCM_MERGE);
	dcmctl_set_args_free(&a);
	SET_BAD("set: ambiguous option '--i' (--in, --importance)", "K", "1", "--i", "3");
	/* a flag takes no value */
	ASET_BAD("alias set: option '--mixed' takes no argument", "--mixed=1", "legs", "0.5@0");
	ASET_BAD("alias set: option '--mixed' takes no argument", "--mix=1", "legs", "0.5@0");

	/* watch: -c N, -cN, -c=N, --cycles=N */
	assert_int_equal(dcmctl_parse_watch(ARGS("-c7", "A"), &w, err, sizeof(err)), 0);
	assert_int_equal(w.cycles, 7);
	dcmctl_watch_args_free(&w);
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "-c=8"), &w, err, sizeof(err)), 0);
	assert_int_equal(w.cycles, 8);
	dcmctl_watch_args_free(&w);
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "-c"), &w, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "option '-c' needs an argument");
	assert_int_equal(dcmctl_parse_watch(ARGS("A", "-x"), &w, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "watch: unknown option '-x'");
	assert_int_equal(dcmctl_parse_watch(ARGS("--", "-A"), &w, err, sizeof(err)), 0);
	assert_string_equal(w.keys[0], "-A");
	dcmctl_watch_args_free(&w);
}

static void test_find_new_cmds(void **state)
{
	char e[128];

	(void)state;
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "set", e, sizeof(e))->name, "set");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "se", e, sizeof(e))->name, "set");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "st", e, sizeof(e))->name, "stats");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "a", e, sizeof(e))->name, "alias");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "w", e, sizeof(e))->name, "watch");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "ti", e, sizeof(e))->name, "time");
	assert_null(dcmctl_find_cmd(dcmctl_commands, "s", e, sizeof(e)));
	assert_string_equal(e, "ambiguous command 's' (set, stats, special)");
	assert_null(dcmctl_find_cmd(dcmctl_commands, "t", e, sizeof(e)));
	assert_string_equal(e, "ambiguous command 't' (tree, time, top)");
}

/* ------------------------------------------------------------------
 * The commands against the fake kernel
 */

struct out {
	char *out, *err;
	int rc;
};

static void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

/* "dcmctl -d /dev/null [-j] ARGS..." into strings. */
static struct out run(bool json, int argc, char **argv)
{
	struct dcmctl_opts o;
	struct out r;
	size_t lo = 0, le = 0, n = 0;
	FILE *fo, *fe;
	char **args = calloc((size_t)argc + 5, sizeof(char *));
	int i;

	args[n++] = "dcmctl";
	args[n++] = "-d";
	args[n++] = "/dev/null";
	if (json)
		args[n++] = "-j";
	for (i = 0; i < argc; i++)
		args[n++] = argv[i];
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, (int)n, args, &o), DCMCTL_RUN);
	fo = open_memstream(&r.out, &lo);
	fe = open_memstream(&r.err, &le);
	if (!strcmp(o.cmd->name, "set"))
		r.rc = dcmctl_set(&o, fo, fe);
	else if (!strcmp(o.cmd->name, "alias"))
		r.rc = dcmctl_alias(&o, fo, fe);
	else if (!strcmp(o.cmd->name, "time"))
		r.rc = dcmctl_time(&o, fo, fe);
	else if (!strcmp(o.cmd->name, "watch"))
		r.rc = dcmctl_watch(&o, fo, fe);
	else if (!strcmp(o.cmd->name, "info"))
		r.rc = dcmctl_cmd_info.run(&o, fo, fe);
	else
		r.rc = dcmctl_stats(&o, fo, fe);
	fclose(fo);
	fclose(fe);
	free(args);
	return r;
}

#define RUN(...) run(false, ARGS(__VA_ARGS__))
#define RUNJ(...) run(true, ARGS(__VA_ARGS__))

static unsigned int total_calls(void)
{
	unsigned int n = 0;

	for (int i = 0; i < FAKE_NRS; i++)
		n += fake.calls[i];
	return n;
}

static void test_set_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("set", "HeadYaw/Position/Actuator", "0.3", "--in", "300");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out,
		"HeadYaw/Position/Actuator: clear-all, 1 point, DCM time now 1000\n"
		"\t0.300000 at 1300 (+300 ms)\n");
	assert_int_equal(fake.set.handle, fake_handle(0));
	assert_int_equal(fake.set.update, DCM_UPDATE_CLEAR_ALL);
	assert_int_equal(fake.set.n_points, 1);
	assert_int_equal(fake.set_points[0].value, 300000);
	assert_int_equal(fake.set_points[0].time, 1300);
	out_free(&r);

	/* with the prefix and /Value; several points; --at as the base */
	r = RUN("set", "Device/SubDeviceList/HeadPitch/Position/Actuator/Value", "0.5@100",
		"-0.5@300", "--at", "5000", "--kind", "merge", "--importance", "3");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Value: merge, 2 points, DCM time now 1000\n"
		"\t0.500000 at 5100 (+4100 ms)\n"
		"\t-0.500000 at 5300 (+4300 ms)\n");
	assert_int_equal(fake.set.handle, fake_handle(4));
	assert_int_equal(fake.set.update, DCM_UPDATE_MERGE);
	assert_int_equal(fake.set_points[1].value, -500000);
	assert_int_equal(fake.set_points[1].time, 5300);
	assert_int_equal(fake.set_points[1].importance, 3);
	out_free(&r);

	/* no option: now, clear-all */
	r = RUN("set", "US/Actuator", "42");
	assert_int_equal(r.rc, 0);
	assert_int_equal(fake.set_points[0].time, 1000);
	assert_int_equal(fake.set_points[0].value, 42000000);
	out_free(&r);
}

static void test_set_cmd_json(void **state)
{
	struct out r;

	(void)state;
	r = RUNJ("set", "HeadYaw/Position/Actuator", "0.3@300", "0@600", "--kind",
		 "clear-after");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"key\":\"HeadYaw/Position/Actuator\",\"handle\":196608,\"kind\":\"clear-after\","
		"\"importance\":0,\"now\":1000,\"points\":[{\"value\":0.3,\"time\":1300},"
		"{\"value\":0,\"time\":1600}],\"warnings\":[]}\n");
	out_free(&r);
}

static void test_set_cmd_errors(void **state)
{
	struct out r;

	(void)state;
	r = RUN("set", "Nope/Position/Actuator", "0.3");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: Nope/Position/Actuator: no such key or alias\n");
	assert_string_equal(r.out, "");
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_SET)], 0);
	out_free(&r);

	r = RUN("set", "HeadYaw/Position/Sensor", "0.3");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err,
		"dcmctl: HeadYaw/Position/Sensor: not an actuator (a sensor or another read-only subdevice): it takes no commands\n");
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_SET)], 0);
	out_free(&r);

	/* usage errors: exit 2, nothing sent, not even opened */
	memset(fake.calls, 0, sizeof(fake.calls));
	r = RUN("set", "HeadYaw/Position/Actuator", "abc");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "dcmctl: set: invalid value 'abc'\n");
	out_free(&r);
	r = RUN("set", "HeadYaw/Position/Actuator", "1", "--kind", "sometimes");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err,
		"dcmctl: invalid kind 'sometimes' (clear-all, merge, clear-after, clear-before)\n");
	out_free(&r);
	assert_int_equal(total_calls(), 0);

	/* the kernel refuses: its errno text and libdcm's explanation */
	fake.fail_errno[FAKE_NR(DCM_IOC_SET)] = ENOSPC;
	r = RUN("set", "HeadYaw/Position/Actuator", "1");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err,
		"dcmctl: set HeadYaw/Position/Actuator: /dev/null: DCM_IOC_SET (clear-all, 1 point): "
		"No space left on device (an actuator's queue would pass 512 commands; nothing was queued)\n");
	out_free(&r);
}

static void test_alias_create_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("alias", "create", "head", "HeadYaw/Position/Actuator", "Nope/Position/Actuator",
		"HeadPitch/Position/Actuator");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"alias head: 3 members, 1 blank\n"
		"\tHeadYaw/Position/Actuator\n"
		"\tNope/Position/Actuator (blank: no such actuator)\n"
		"\tHeadPitch/Position/Actuator\n");
	assert_string_equal(fake.create.name, "head");
	assert_int_equal(fake.create.n_members, 3);
	out_free(&r);

	r = RUNJ("alias", "cr", "head", "HeadYaw/Position/Actuator", "HeadYaw/Position/Sensor");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"alias\":\"head\",\"blank\":1,\"members\":["
		"{\"key\":\"HeadYaw/Position/Actuator\",\"handle\":196608,\"blank\":false},"
		"{\"key\":\"HeadYaw/Position/Sensor\",\"handle\":null,\"blank\":true}]}\n");
	out_free(&r);

	fake_reset();
	r = RUN("alias", "create", "head");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "dcmctl: alias create: which keys? (dcmctl alias create NAME KEY...)\n");
	out_free(&r);
	r = RUN("alias", "create", "a-name-of-sixty-four-bytes-is-one-too-many-for-the-kernel-012345",
		"K");
	assert_int_equal(r.rc, 2);
	out_free(&r);
	r = RUN("alias", "create", "head", "--all");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "dcmctl: alias create: unknown option '--all'\n");
	out_free(&r);
	r = RUN("alias");
	assert_int_equal(r.rc, 2);
	out_free(&r);
	r = RUN("alias", "rename", "head");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err,
		"dcmctl: alias: unknown subcommand 'rename' (create, set, list, show or delete)\n");
	out_free(&r);
	assert_int_equal(total_calls(), 0);
}

/* alias list, show, delete; dcmctl's aliases are shared (they outlive it). */
static void test_alias_list_show_delete_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("alias", "create", "head", "HeadYaw/Position/Actuator", "Nope/Position/Actuator");
	assert_int_equal(r.rc, 0);
	assert_int_equal(fake.create.flags, DCM_ALIAS_F_SHARED);
	out_free(&r);

	r = RUN("alias", "list");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "head\t2 members\n");
	out_free(&r);
	r = RUNJ("alias", "list");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "[{\"alias\":\"head\",\"members\":2,\"shared\":true}]\n");
	out_free(&r);

	r = RUN("alias", "show", "head");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"alias head: 2 members, 1 blank\n"
		"\tHeadYaw/Position/Actuator\n"
		"\tNope/Position/Actuator (blank: no such actuator)\n");
	out_free(&r);
	r = RUNJ("alias", "show", "head");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"alias\":\"head\",\"shared\":true,\"blank\":1,\"members\":["
		"{\"key\":\"HeadYaw/Position/Actuator\",\"handle\":196608,\"blank\":false},"
		"{\"key\":\"Nope/Position/Actuator\",\"handle\":null,\"blank\":true}]}\n");
	out_free(&r);
	r = RUN("alias", "show");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "dcmctl: alias show: which alias? (dcmctl alias show NAME)\n");
	out_free(&r);
	r = RUN("alias", "show", "nope");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: alias show: /dev/null: no alias nope for this handle\n");
	out_free(&r);

	r = RUN("alias", "delete", "head");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "alias head deleted\n");
	assert_int_equal(fake.n_aliases, 0);
	out_free(&r);
	r = RUN("alias", "delete", "head");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: alias delete: /dev/null: no alias head for this handle\n");
	out_free(&r);
	r = RUN("alias", "delete");
	assert_int_equal(r.rc, 2);
	out_free(&r);
	r = RUN("alias", "list", "extra");
	assert_int_equal(r.rc, 2);
	out_free(&r);
	r = RUN("alias", "list");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	out_free(&r);
}

static void test_alias_set_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("alias", "create", "head", "HeadYaw/Position/Actuator", "Nope",
		"HeadPitch/Position/Actuator");
	out_free(&r);

	/* set NAME: no key of that name, so the alias; every member the same points */
	memset(fake.calls, 0, sizeof(fake.calls));
	r = RUN("set", "head", "0.1@0", "0.2@500", "--kind", "ClearAfter");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"alias head: clear-after, 2 points, DCM time now 1000\n"
		"\t0.100000 at 1000 (+0 ms)\n"
		"\t0.200000 at 1500 (+500 ms)\n");
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_SET)], 0);
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_ALIAS_SET)], 1);
	assert_int_equal(fake.aset.mode, DCM_ALIAS_SAME);
	assert_int_equal(fake.aset.update, DCM_UPDATE_CLEAR_AFTER);
	assert_int_equal(fake.aset.n_members, 0);
	assert_int_equal(fake.aset.n_times, 2);
	assert_int_equal(fake.aset_points[1].value, 200000);
	assert_int_equal(fake.aset_points[1].time, 1500);
	out_free(&r);
	r = RUNJ("set", "head", "0.25");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"alias\":\"head\",\"kind\":\"clear-all\",\"importance\":0,\"now\":1000,"
		"\"points\":[{\"value\":0.25,\"time\":1000}],\"warnings\":[]}\n");
	out_free(&r);
	/* a key of that name wins over the alias */
	r = RUN("alias", "create", "HeadYaw/Position/Actuator", "HeadPitch/Position/Actuator");
	out_free(&r);
	memset(fake.calls, 0, sizeof(fake.calls));
	r = RUN("set", "HeadYaw/Position/Actuator", "0.3");
	assert_int_equal(r.rc, 0);
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_SET)], 1);
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_ALIAS_SET)], 0);
	out_free(&r);
	r = RUN("alias", "create", "head", "HeadYaw/Position/Actuator", "Nope",
		"HeadPitch/Position/Actuator");
	out_free(&r);

	r = RUN("alias", "set", "head", "--separate", "--times", "0,500", "0.1,0.2", "0,0",
		"-0.1,-0.2", "--importance", "1");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"alias head: time-separate, clear-all, 3 members, 2 times, DCM time now 1000\n"
		"\tat 1000 (+0 ms)\n"
		"\tat 1500 (+500 ms)\n");
	assert_int_equal(fake.aset.mode, DCM_ALIAS_TIME_SEPARATE);
	assert_int_equal(fake.aset.n_members, 3);
	assert_int_equal(fake.aset.importance, 1);
	assert_int_equal(fake.aset_times[1], 1500);
	assert_int_equal(fake.aset_values[4], -100000);
	out_free(&r);

	r = RUNJ("alias", "set", "head", "--separate", "--times", "100", "0.2", "0.2", "0.2");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"alias\":\"head\",\"mode\":\"time-separate\",\"kind\":\"clear-all\","
		"\"importance\":0,\"now\":1000,\"members\":3,\"times\":[1100],"
		"\"values\":[[0.2],[0.2],[0.2]]}\n");
	out_free(&r);

	r = RUNJ("alias", "set", "head", "--mixed", "0.5@100,0.6@200", "", "-0.5@50", "--at",
		 "2000", "--kind", "merge");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"alias\":\"head\",\"mode\":\"time-mixed\",\"kind\":\"merge\",\"importance\":0,"
		"\"now\":1000,\"members\":3,\"points\":[[{\"value\":0.5,\"time\":2100},"
		"{\"value\":0.6,\"time\":2200}],[],[{\"value\":-0.5,\"time\":2050}]]}\n");
	assert_int_equal(fake.aset.mode, DCM_ALIAS_TIME_MIXED);
	assert_int_equal(fake.aset_counts[1], 0);
	assert_int_equal(fake.aset_points[2].value, -500000);
	assert_int_equal(fake.aset_points[2].time, 2050);
	out_free(&r);

	r = RUN("alias", "set", "head", "--mixed", "0.5@100", "", "");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"alias head: time-mixed, clear-all, 3 members, 1 point, DCM time now 1000\n");
	out_free(&r);

	/* the kernel: not the alias's member count, no such alias */
	r = RUN("alias", "set", "head", "--separate", "--times", "0", "0.1", "0.2");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "dcmctl: alias set head: /dev/null: DCM_IOC_ALIAS_SET head "
			       "(time-separate, clear-all, 2 members): Invalid argument (give one "
			       "entry per member, blank members included"));
	out_free(&r);
	r = RUN("alias", "set", "legs", "--separate", "--times", "0", "0.1");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "No such file or directory (no such alias: create it first)"));
	out_free(&r);
	r = RUN("alias", "set", "head", "--separate", "--times", "0", "x", "0", "0");
	assert_int_equal(r.rc, 2);
	out_free(&r);
}

static void test_time_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("time");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "1000\n");
	out_free(&r);
	r = RUN("time", "-1001");
	assert_string_equal(r.out, "4294967295\n");
	out_free(&r);
	r = RUNJ("time", "300");
	assert_string_equal(r.out, "{\"time\":1300,\"offset\":300}\n");
	out_free(&r);
	r = RUN("time", "soon");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "dcmctl: time: invalid offset 'soon' (ms, a signed 32-bit number)\n");
	out_free(&r);
	r = RUN("time", "1", "2");
	assert_int_equal(r.rc, 2);
	out_free(&r);
}

static void test_watch_cmd(void **state)
{
	struct out r;

	(void)state;
	fake.ramp = 10000;	/* 0.01 a cycle */
	r = RUN("watch", "HeadYaw/Position/Actuator", "HeadYaw/Position/Sensor", "--cycles", "3");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out,
		"cycle time HeadYaw/Position/Actuator HeadYaw/Position/Sensor\n"
		"1 1010 0.010000 0.110000\n"
		"2 1020 0.020000 0.120000\n"
		"3 1030 0.030000 0.130000\n");
	assert_int_equal(fake.reads, 3);
	out_free(&r);

	r = RUNJ("watch", "HeadPitch/Position/Actuator", "--cycles", "2");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"cycle\":4,\"time\":1040,\"values\":{\"HeadPitch/Position/Actuator\":-0.46}}\n"
		"{\"cycle\":5,\"time\":1050,\"values\":{\"HeadPitch/Position/Actuator\":-0.45}}\n");
	out_free(&r);

	/*
	 * a new description while watching: looked up again, goes on; the
	 * new one's first frame is shown, read with the new handles
	 */
	fake.bump_generation_at = fake.reads + 1;
	memset(fake.calls, 0, sizeof(fake.calls));
	r = RUN("watch", "US/Actuator", "--cycles", "1");
	assert_int_equal(r.rc, 0);
	assert_int_equal(fake.reads, 6);
	assert_int_equal(fake.calls[FAKE_NR(DCM_IOC_LOOKUP)], 2);
	assert_string_equal(r.out, "cycle time US/Actuator\n6 1060 0.060000\n");
	out_free(&r);

	r = RUN("watch", "HeadYaw/Position/Actuator", "Nope", "--cycles", "1");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: Nope: no such key\n");
	assert_string_equal(r.out, "");
	out_free(&r);

	fake.read_errno = ENODEV;
	r = RUN("watch", "HeadYaw/Position/Actuator", "--cycles", "1");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "No such device (the controller is gone)"));
	out_free(&r);
}

/*
 * info: the section headers go to the stream it was given, with their
 * sections (the ioctl's answers from the fake kernel; netlink has no dcm
 * family here, its error on the error stream).
 */
static void test_info_cmd(void **state)
{
	static const char head[] = "ioctl /dev/null:\n\tindex: 0\n\tname: dcm0\n";
	struct out r;

	(void)state;
	r = RUN("info");
	assert_non_null(r.out);
	assert_true(!strncmp(r.out, head, strlen(head)));
	assert_null(strstr(r.err, "ioctl /dev/null:"));
	if (r.rc)
		assert_null(strstr(r.out, "netlink dcm:"));
	out_free(&r);
}

static void test_stats_cmd(void **state)
{
	struct out r;

	(void)state;
	r = RUN("stats");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"cycles: 1234\n"
		"overruns: 2\n"
		"period: 10.000 ms\n"
		"work: last 12.3 us, mean 11.0 us, max 50.0 us\n"
		"wake-up latency: max 123.5 us\n"
		"latency histogram:\n"
		"\t  < 10 us: 10\n"
		"\t  < 20 us: 9\n"
		"\t  < 50 us: 8\n"
		"\t < 100 us: 7\n"
		"\t < 200 us: 6\n"
		"\t < 500 us: 5\n"
		"\t   < 1 ms: 4\n"
		"\t   < 2 ms: 3\n"
		"\t   < 5 ms: 2\n"
		"\t  >= 5 ms: 1\n");
	out_free(&r);
	r = RUNJ("stats");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"cycles\":1234,\"overruns\":2,\"period_us\":10000,\"last_ns\":12345,"
		"\"mean_ns\":11000,\"max_ns\":50000,\"latency_max_ns\":123456,"
		"\"latency_histogram\":[{\"below_ns\":10000,\"count\":10},"
		"{\"below_ns\":20000,\"count\":9},{\"below_ns\":50000,\"count\":8},"
		"{\"below_ns\":100000,\"count\":7},{\"below_ns\":200000,\"count\":6},"
		"{\"below_ns\":500000,\"count\":5},{\"below_ns\":1000000,\"count\":4},"
		"{\"below_ns\":2000000,\"count\":3},{\"below_ns\":5000000,\"count\":2},"
		"{\"below_ns\":null,\"count\":1}]}\n");
	out_free(&r);
	r = RUN("stats", "now");
	assert_int_equal(r.rc, 2);
	out_free(&r);
	fake.fail_errno[FAKE_NR(DCM_IOC_STATS)] = ENODEV;
	r = RUN("stats");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: /dev/null: DCM_IOC_STATS: No such device\n");
	out_free(&r);
}

static void test_open_fails(void **state)
{
	struct dcmctl_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *fe;

	(void)state;
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, 4,
					   (char *[]){ "dcmctl", "-d", "/nonexistent/dcm9",
							  "time", NULL }, &o), DCMCTL_RUN);
	fe = open_memstream(&buf, &len);
	assert_int_equal(dcmctl_time(&o, stdout, fe), 1);
	fclose(fe);
	assert_string_equal(buf, "dcmctl: /nonexistent/dcm9: No such file or directory\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parse_value, setup),
		cmocka_unit_test_setup(test_parse_times, setup),
		cmocka_unit_test_setup(test_parse_kind, setup),
		cmocka_unit_test_setup(test_parse_point, setup),
		cmocka_unit_test_setup(test_parse_lists, setup),
		cmocka_unit_test_setup(test_parse_set_good, setup),
		cmocka_unit_test_setup(test_scan_set, setup),
		cmocka_unit_test_setup(test_parse_set_bad, setup),
		cmocka_unit_test_setup(test_parse_set_too_many, setup),
		cmocka_unit_test_setup(test_parse_alias_set_good, setup),
		cmocka_unit_test_setup(test_parse_alias_set_bad, setup),
		cmocka_unit_test_setup(test_parse_watch, setup),
		cmocka_unit_test_setup(test_parse_record, setup),
		cmocka_unit_test_setup(test_parse_events, setup),
		cmocka_unit_test_setup(test_parse_option_rules, setup),
		cmocka_unit_test_setup(test_find_new_cmds, setup),
		cmocka_unit_test_setup(test_set_cmd, setup),
		cmocka_unit_test_setup(test_set_cmd_json, setup),
		cmocka_unit_test_setup(test_set_cmd_errors, setup),
		cmocka_unit_test_setup(test_alias_create_cmd, setup),
		cmocka_unit_test_setup(test_alias_list_show_delete_cmd, setup),
		cmocka_unit_test_setup(test_alias_set_cmd, setup),
		cmocka_unit_test_setup(test_time_cmd, setup),
		cmocka_unit_test_setup(test_watch_cmd, setup),
		cmocka_unit_test_setup(test_info_cmd, setup),
		cmocka_unit_test_setup(test_stats_cmd, setup),
		cmocka_unit_test_setup(test_open_fails, setup),
	};

	return cmocka_run_group_tests_name("dcmctl_cmds", tests, NULL, NULL);
}
