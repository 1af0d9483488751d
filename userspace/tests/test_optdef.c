// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the option tables of dcmd, dcmctl and dcm-web
 * (common/optdef.c): getopt_long()'s tables and the help lines.
 */
#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "optdef.h"

enum { OPT_LONG_ONLY = 0x100 };

static const struct optdef table[] = {
	{ "port", 'p', 0, "PORT", "TCP port" },
	{ "verbose", 'v', 0, NULL, "log more" },
	{ "after", 0, OPT_LONG_ONLY, "SEC", "and SEC seconds after,\nthe second line" },
	{ "dir", 'D', 'x', "DIR", "its directory" },
	{ NULL, 0, 0, NULL, NULL }
};

static void test_count(void **state)
{
	static const struct optdef empty[] = { { NULL, 0, 0, NULL, NULL } };

	(void)state;
	assert_int_equal(optdef_count(table), 4);
	assert_int_equal(optdef_count(empty), 0);
	assert_int_equal(optdef_count(NULL), 0);
}

static void test_getopt_tables(void **state)
{
	struct option lo[5];
	char so[16];

	(void)state;
	memset(lo, 0xa5, sizeof(lo));
	assert_int_equal(optdef_getopt(table, "+:", lo, so, sizeof(so)), 0);
	/* the letters in the table's order, ':' after those with an argument */
	assert_string_equal(so, "+:p:vD:");
	assert_string_equal(lo[0].name, "port");
	assert_int_equal(lo[0].has_arg, required_argument);
	assert_int_equal(lo[0].val, 'p');
	assert_null(lo[0].flag);
	assert_int_equal(lo[1].has_arg, no_argument);
	assert_int_equal(lo[1].val, 'v');
	/* a long-only option returns its own value */
	assert_string_equal(lo[2].name, "after");
	assert_int_equal(lo[2].val, OPT_LONG_ONLY);
	/* val, when given, wins over the letter */
	assert_int_equal(lo[3].val, 'x');
	/* the end */
	assert_null(lo[4].name);
	assert_int_equal(lo[4].has_arg, 0);
	assert_int_equal(lo[4].val, 0);
	assert_null(lo[4].flag);
}

/* The tables drive getopt_long() as the programs use it. */
static void test_getopt_scan(void **state)
{
	char *argv[] = { "prog", "--port=80", "-v", "--after", "2", "-Dx", "rest", NULL };
	struct option lo[5];
	char so[16];
	int c, seen[4] = { 0 };

	(void)state;
	assert_int_equal(optdef_getopt(table, ":", lo, so, sizeof(so)), 0);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(7, argv, so, lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			assert_string_equal(optarg, "80");
			seen[0]++;
			break;
		case 'v':
			seen[1]++;
			break;
		case OPT_LONG_ONLY:
			assert_string_equal(optarg, "2");
			seen[2]++;
			break;
		case 'D':
			/* the letter as getopt returns it for "-D" */
			assert_string_equal(optarg, "x");
			seen[3]++;
			break;
		default:
			fail_msg("unexpected getopt_long() result %d", c);
		}
	}
	assert_int_equal(optind, 6);
	assert_int_equal(seen[0] + seen[1] + seen[2] + seen[3], 4);
}

static void test_getopt_small_buffer(void **state)
{
	struct option lo[5];
	char so[6];

	(void)state;
	/* "+:p:v" fits in 6 bytes with its end, "D:" does not */
	assert_int_equal(optdef_getopt(table, "+:", lo, so, sizeof(so)), -ENOSPC);
	assert_int_equal(optdef_getopt(table, "+:", lo, so, 2), -ENOSPC);
	assert_int_equal(optdef_getopt(NULL, "+:", lo, so, 3), 0);
	assert_string_equal(so, "+:");
	assert_null(lo[0].name);
}

static void test_print(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	optdef_print(f, table, 18);
	fclose(f);
	assert_string_equal(buf,
			    "  -p, --port PORT    TCP port\n"
			    "  -v, --verbose      log more\n"
			    "      --after SEC    and SEC seconds after,\n"
			    "                     the second line\n"
			    "  -D, --dir DIR      its directory\n");
	free(buf);
}

/* Whole names, abbreviations, and the errors that name the candidates. */
static const struct optdef abbrev_table[] = {
	{ "time", 't', 0, "MS", "a time" },
	{ "times", 0, 0x101, "MS,...", "times" },
	{ "timeout", 0, 0x102, "SEC", "a timeout" },
	{ "verbose", 'v', 0, NULL, "log more" },
	{ "loud", 0, 'v', NULL, "log more, its old name" },
	{ "lou", 0, 0x103, NULL, "a whole name beside a longer one" },
	{ "louder", 0, 'v', NULL, "log more, another old name" },
	{ NULL, 0, 0, NULL, NULL }
};

static void test_find_long(void **state)
{
	char err[128] = "";

	(void)state;
	assert_int_equal(optdef_find_long(abbrev_table, "--time", err, sizeof(err)), 0);
	assert_int_equal(optdef_find_long(abbrev_table, "--time=5", err, sizeof(err)), 0);
	assert_int_equal(optdef_find_long(abbrev_table, "--times", err, sizeof(err)), 1);
	assert_int_equal(optdef_find_long(abbrev_table, "--timeo", err, sizeof(err)), 2);
	assert_int_equal(optdef_find_long(abbrev_table, "--v=1", err, sizeof(err)), 3);
	assert_int_equal(optdef_find_long(abbrev_table, "--lou", err, sizeof(err)), 5);
	/* two names of one option (same value, same argument) are not ambiguous */
	assert_int_equal(optdef_find_long(abbrev_table, "--loude", err, sizeof(err)), 6);
	assert_string_equal(err, "");
	assert_int_equal(optdef_find_long(abbrev_table, "--ti", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "ambiguous option '--ti' (--time, --times, --timeout)");
	assert_int_equal(optdef_find_long(abbrev_table, "--timeu=3", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "unknown option '--timeu=3'");
	assert_int_equal(optdef_find_long(abbrev_table, "--lo", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "ambiguous option '--lo' (--loud, --lou, --louder)");
	assert_int_equal(optdef_find_long(NULL, "--x", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "unknown option '--x'");
}

/* optdef_error(): the message of each usage error getopt_long() returns. */
static void want_error(int argc, char **argv, const char *prefix, const char *want)
{
	struct option lo[8];
	char so[16], err[128] = "";
	int c = 0, before = 0;

	assert_int_equal(optdef_getopt(abbrev_table, prefix, lo, so, sizeof(so)), 0);
	optind = 0;
	opterr = 0;
	while (c != '?' && c != ':') {
		before = optind;
		c = getopt_long(argc, argv, so, lo, NULL);
		assert_int_not_equal(c, -1);
	}
	optdef_error(abbrev_table, c, argc, argv, before, err, sizeof(err));
	assert_string_equal(err, want);
}

#define WANT_ERROR(want, ...) \
	want_error((int)(sizeof((char *[]){ "prog", __VA_ARGS__ }) / sizeof(char *)), \
		   (char *[]){ "prog", __VA_ARGS__, NULL }, ":", want)

static void test_error(void **state)
{
	(void)state;
	WANT_ERROR("unknown option '-x'", "-x");
	WANT_ERROR("unknown option '-x'", "-vx");
	WANT_ERROR("unknown option '-x'", "-xv");
	WANT_ERROR("unknown option '-x'", "--verbose", "-xv");
	WANT_ERROR("unknown option '-x'", "arg", "--verbose", "-xv");
	WANT_ERROR("option '-t' needs an argument", "-vt");
	WANT_ERROR("option '-t' needs an argument", "--timeout=1", "-t");
	WANT_ERROR("unknown option '--bogus'", "--bogus");
	WANT_ERROR("unknown option '--bogus=1'", "arg", "--v", "--bogus=1");
	WANT_ERROR("ambiguous option '--ti' (--time, --times, --timeout)", "--ti=1");
	WANT_ERROR("option '--timeout' needs an argument", "--timeo");
	WANT_ERROR("option '--time' needs an argument", "-v", "--time");
	WANT_ERROR("option '--verbose' takes no argument", "--verb=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_getopt_tables),
		cmocka_unit_test(test_getopt_scan),
		cmocka_unit_test(test_getopt_small_buffer),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_find_long),
		cmocka_unit_test(test_error),
	};

	return cmocka_run_group_tests_name("optdef", tests, NULL, NULL);
}
