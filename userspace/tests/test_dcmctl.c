// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmctl's command line, command lookup and output format.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "events.h"
#include "info.h"
#include "parse.h"
#include "special.h"

#define ARGV(...) ((char *[]){ "dcmctl", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "dcmctl", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, ...) dcmctl_parse_args(dcmctl_commands, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (o))

static void test_parse_basic(void **state)
{
	struct dcmctl_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "info"), DCMCTL_RUN);
	assert_false(o.json);
	assert_null(o.device);
	assert_string_equal(o.devpath, "/dev/dcm0");
	assert_int_equal(o.dev_index, 0);
	assert_string_equal(o.cmd->name, "info");
	assert_int_equal(o.argc, 0);

	assert_int_equal(PARSE(&o, "-j", "info"), DCMCTL_RUN);
	assert_true(o.json);
	assert_false(o.pretty);

	assert_int_equal(PARSE(&o, "--json", "--pretty", "-d", "/dev/dcm1", "info"),
			 DCMCTL_RUN);
	assert_true(o.json);
	assert_true(o.pretty);
	assert_string_equal(o.device, "/dev/dcm1");
	assert_string_equal(o.devpath, "/dev/dcm1");
	assert_int_equal(o.dev_index, 1);

	assert_int_equal(PARSE(&o, "--device=dcm3", "-jp", "info"), DCMCTL_RUN);
	assert_string_equal(o.devpath, "/dev/dcm3");
	assert_int_equal(o.dev_index, 3);
	assert_true(o.json && o.pretty);

	assert_int_equal(PARSE(&o, "-d7", "info"), DCMCTL_RUN);
	assert_string_equal(o.devpath, "/dev/dcm7");
	assert_int_equal(o.dev_index, 7);
}

static void test_parse_command_args(void **state)
{
	struct dcmctl_opts o;

	(void)state;
	/* the global options after the command are taken, wherever they are */
	assert_int_equal(PARSE(&o, "info", "-j", "extra"), DCMCTL_RUN);
	assert_true(o.json);
	assert_int_equal(o.argc, 1);
	assert_string_equal(o.argv[0], "extra");
	assert_null(o.argv[1]);

	assert_int_equal(PARSE(&o, "list", "--json", "--pretty", "X*"), DCMCTL_RUN);
	assert_true(o.json && o.pretty);
	assert_int_equal(o.argc, 1);
	assert_string_equal(o.argv[0], "X*");

	assert_int_equal(PARSE(&o, "get", "A", "-d", "dcm3", "B", "--root=/tmp/r", "-jp"),
			 DCMCTL_RUN);
	assert_true(o.json && o.pretty);
	assert_string_equal(o.devpath, "/dev/dcm3");
	assert_int_equal(o.dev_index, 3);
	assert_string_equal(o.root, "/tmp/r");
	assert_int_equal(o.argc, 2);
	assert_string_equal(o.argv[0], "A");
	assert_string_equal(o.argv[1], "B");

	assert_int_equal(PARSE(&o, "get", "--device=2", "-r/x", "A"), DCMCTL_RUN);
	assert_string_equal(o.devpath, "/dev/dcm2");
	assert_string_equal(o.root, "/x");

	/* after "--", nothing is taken: the command gets "--" and the rest */
	assert_int_equal(PARSE(&o, "get", "--", "-j", "--help"), DCMCTL_RUN);
	assert_false(o.json);
	assert_int_equal(o.argc, 3);
	assert_string_equal(o.argv[0], "--");
	assert_string_equal(o.argv[1], "-j");

	/* negative numbers are values */
	assert_int_equal(PARSE(&o, "set", "HeadYaw/Position/Actuator", "-0.5", "-j"), DCMCTL_RUN);
	assert_true(o.json);
	assert_int_equal(o.argc, 2);
	assert_string_equal(o.argv[1], "-0.5");
	assert_int_equal(PARSE(&o, "time", "-100"), DCMCTL_RUN);
	assert_int_equal(o.argc, 1);
	assert_string_equal(o.argv[0], "-100");

	/* a command option's argument is not taken for a global option */
	assert_int_equal(PARSE(&o, "events", "--type", "-j"), DCMCTL_RUN);
	assert_false(o.json);
	assert_int_equal(o.argc, 2);

	/* the command's options stay, with their arguments */
	assert_int_equal(PARSE(&o, "watch", "K", "-c", "5", "-j"), DCMCTL_RUN);
	assert_true(o.json);
	assert_int_equal(o.argc, 3);

	assert_int_equal(PARSE(&o, "get", "A", "-d"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '-d' needs an argument");
}

/* COMMAND --help and -h, for every command, wherever they are (before "--"). */
static void test_parse_command_help(void **state)
{
	const struct dcmctl_command *const *cp, *c;
	struct dcmctl_opts o;

	(void)state;
	for (cp = dcmctl_commands; (c = *cp); cp++) {
		char *argv[] = { "dcmctl", (char *)c->name, "--help", NULL };
		char *argv2[] = { "dcmctl", "-j", (char *)c->name, "x", "-h", NULL };

		assert_int_equal(dcmctl_parse_args(dcmctl_commands, 3, argv, &o), DCMCTL_CMD_HELP);
		assert_ptr_equal(o.cmd, c);
		assert_int_equal(dcmctl_parse_args(dcmctl_commands, 5, argv2, &o), DCMCTL_CMD_HELP);
		assert_ptr_equal(o.cmd, c);
	}
	assert_int_equal(PARSE(&o, "cal", "HeadYaw", "--help"), DCMCTL_CMD_HELP);
	assert_string_equal(o.cmd->name, "calibrate");
	assert_int_equal(PARSE(&o, "get", "--", "--help"), DCMCTL_RUN);
}

/* Each command's help: its synopsis, its options from the table, the global ones. */
static void test_cmd_usage(void **state)
{
	const struct dcmctl_command *const *cp, *c;
	const struct optdef *d;
	char *buf = NULL, want[128];
	size_t len = 0;

	(void)state;
	for (cp = dcmctl_commands; (c = *cp); cp++) {
		FILE *f = open_memstream(&buf, &len);

		dcmctl_cmd_usage(f, c);
		fclose(f);
		snprintf(want, sizeof(want), "Usage: dcmctl %s", c->name);
		assert_non_null(strstr(buf, want));
		assert_non_null(strstr(buf, "--json"));
		assert_non_null(strstr(buf, "Exit status"));
		for (d = c->spec && c->spec->opts ? c->spec->opts : NULL; d && d->name; d++) {
			snprintf(want, sizeof(want), "--%s", d->name);
			assert_non_null(strstr(buf, want));
			assert_non_null(strstr(buf, d->help));
		}
		/* 80 columns */
		for (char *l = buf, *nl; (nl = strchr(l, '\n')); l = nl + 1)
			assert_in_range(nl - l, 0, 79);
		free(buf);
		buf = NULL;
	}
}

/* The options of every command, through dcmctl_getopt(): =value, placement, --, numbers. */
static void test_getopt_forms(void **state)
{
	struct dcmctl_set_args a;
	struct dcmctl_watch_args w;
	struct dcmctl_events_args e;
	struct dcmctl_calib_args ca;
	char err[256];

	(void)state;
#define AV(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), (char *[]){ __VA_ARGS__ }
	assert_int_equal(0, dcmctl_parse_set(AV("--in=500", "K", "0.5"), &a, err, sizeof(err)));
	assert_int_equal(a.t.in_ms, 500);
	dcmctl_set_args_free(&a);
	assert_int_equal(0, dcmctl_parse_set(AV("K", "-0.5", "--in", "-20"), &a, err, sizeof(err)));
	assert_int_equal(a.t.in_ms, -20);
	assert_true(a.points[0].value < -0.49 && a.points[0].value > -0.51);
	dcmctl_set_args_free(&a);
	assert_int_equal(0, dcmctl_parse_set(AV("--", "K", "-0.5"), &a, err, sizeof(err)));
	dcmctl_set_args_free(&a);
	assert_int_equal(-EINVAL, dcmctl_parse_set(AV("K", "0.5", "--inn", "3"), &a, err,
						   sizeof(err)));
	assert_string_equal(err, "set: unknown option '--inn'");

	assert_int_equal(0, dcmctl_parse_watch(AV("A", "--cycles=3", "B"), &w, err, sizeof(err)));
	assert_int_equal(w.cycles, 3);
	assert_int_equal(w.n, 2);
	dcmctl_watch_args_free(&w);
	assert_int_equal(0, dcmctl_parse_watch(AV("-c5", "A"), &w, err, sizeof(err)));
	assert_int_equal(w.cycles, 5);
	dcmctl_watch_args_free(&w);

	assert_int_equal(0, dcmctl_parse_events(AV("--type=safety", "--count", "2"), &e, err,
						sizeof(err)));
	assert_int_equal(e.count, 2);
	assert_int_not_equal(e.types, 0);
	assert_int_equal(0, dcmctl_parse_events(AV("-t", "error", "--timeout=3"), &e, err,
						sizeof(err)));
	assert_int_equal(e.timeout_ms, 3000);
	assert_int_equal(-EINVAL, dcmctl_parse_events(AV("--type"), &e, err, sizeof(err)));
	assert_string_equal(err, "events: option '--type' needs an argument");

	assert_int_equal(0, dcmctl_parse_calibrate(AV("HeadYaw", "min", "--force"), &ca, err,
						   sizeof(err)));
	assert_true(ca.force);
	assert_int_equal(ca.how, LIBDCM_CALIB_MIN);
	assert_int_equal(0, dcmctl_parse_calibrate(AV("-f", "HeadYaw", "max"), &ca, err,
						   sizeof(err)));
	assert_true(ca.force);
	assert_int_equal(0, dcmctl_parse_calibrate(AV("HeadYaw", "min"), &ca, err, sizeof(err)));
	assert_false(ca.force);
	/* an abbreviation, as every dcm program takes them */
	assert_int_equal(0, dcmctl_parse_calibrate(AV("HeadYaw", "min", "--fo"), &ca, err,
						   sizeof(err)));
	assert_true(ca.force);
	assert_int_equal(-EINVAL, dcmctl_parse_calibrate(AV("HeadYaw", "--forced"), &ca, err,
							 sizeof(err)));
	assert_string_equal(err, "calibrate: unknown option '--forced'");

	/* set's zero: a count 0-4095, digits only (common/num.c) */
	assert_int_equal(0, dcmctl_parse_calibrate(AV("HeadYaw", "set", "4095"), &ca, err,
						   sizeof(err)));
	assert_int_equal(ca.how, LIBDCM_CALIB_SET);
	assert_int_equal(ca.zero, 4095);
	assert_int_equal(0, dcmctl_parse_calibrate(AV("HeadYaw", "set", "0"), &ca, err,
						   sizeof(err)));
	assert_int_equal(ca.zero, 0);
	assert_int_equal(-EINVAL, dcmctl_parse_calibrate(AV("HeadYaw", "set", "4096"), &ca, err,
							 sizeof(err)));
	assert_string_equal(err, "calibrate: zero '4096' is not a count 0-4095");
	assert_int_equal(-EINVAL, dcmctl_parse_calibrate(AV("HeadYaw", "set", "+1"), &ca, err,
							 sizeof(err)));
	assert_string_equal(err, "calibrate: zero '+1' is not a count 0-4095");
	assert_int_equal(-EINVAL, dcmctl_parse_calibrate(AV("HeadYaw", "set", " 1"), &ca, err,
							 sizeof(err)));
	assert_string_equal(err, "calibrate: zero ' 1' is not a count 0-4095");
	assert_int_equal(-EINVAL, dcmctl_parse_calibrate(AV("HeadYaw", "set", "1e3"), &ca, err,
							 sizeof(err)));
	assert_string_equal(err, "calibrate: zero '1e3' is not a count 0-4095");
#undef AV
}

static void test_parse_help_version(void **state)
{
	struct dcmctl_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-h"), DCMCTL_HELP);
	assert_int_equal(PARSE(&o, "--help"), DCMCTL_HELP);
	assert_int_equal(PARSE(&o, "-V"), DCMCTL_VERSION);
	assert_int_equal(PARSE(&o, "--version"), DCMCTL_VERSION);
	assert_int_equal(PARSE(&o, "-j", "-h", "info"), DCMCTL_HELP);
	/* a global option after the command too; not after "--" */
	assert_int_equal(PARSE(&o, "get", "-V"), DCMCTL_VERSION);
	assert_int_equal(PARSE(&o, "info", "-j", "--version"), DCMCTL_VERSION);
	assert_int_equal(PARSE(&o, "get", "--", "-V"), DCMCTL_RUN);
	/* abbreviated, before and after the command */
	assert_int_equal(PARSE(&o, "--vers"), DCMCTL_VERSION);
	assert_int_equal(PARSE(&o, "--dev=dcm2", "--js", "info"), DCMCTL_RUN);
	assert_int_equal(o.dev_index, 2);
	assert_true(o.json);
	assert_int_equal(PARSE(&o, "info", "--dev", "dcm4", "--pre"), DCMCTL_RUN);
	assert_int_equal(o.dev_index, 4);
	assert_true(o.pretty);
	assert_int_equal(o.argc, 0);
	assert_int_equal(PARSE(&o, "get", "--he"), DCMCTL_CMD_HELP);
	/* a whole name wins over the longer ones it starts */
	assert_int_equal(PARSE(&o, "preferences", "save", "Chest", "--device", "dcm5"), DCMCTL_RUN);
	assert_int_equal(o.dev_index, 5);
	assert_int_equal(o.argc, 2);
	/* the command's own, abbreviated, with its value: left to the command */
	assert_int_equal(PARSE(&o, "preferences", "save", "Chest", "--device-x", "d.xml"),
			 DCMCTL_RUN);
	assert_int_equal(o.argc, 4);
	assert_string_equal(o.argv[2], "--device-x");
	assert_string_equal(o.argv[3], "d.xml");
	assert_int_equal(PARSE(&o, "help"), DCMCTL_RUN);
	assert_string_equal(o.cmd->name, "help");
}

static void test_parse_errors(void **state)
{
	struct dcmctl_opts o;

	(void)state;
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, 1, ARGV(NULL), &o), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "no command given");

	assert_int_equal(PARSE(&o, "-j"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "no command given");

	assert_int_equal(PARSE(&o, "frobnicate"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "unknown command 'frobnicate'");

	assert_int_equal(PARSE(&o, "-x", "info"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "unknown option '-x'");

	assert_int_equal(PARSE(&o, "--bogus", "info"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "unknown option '--bogus'");

	assert_int_equal(PARSE(&o, "-d"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '-d' needs an argument");

	assert_int_equal(PARSE(&o, "--device"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '--device' needs an argument");

	assert_int_equal(PARSE(&o, "-d", "", "info"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "invalid device ''");

	assert_int_equal(PARSE(&o, "--json=1", "info"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '--json' takes no argument");
	assert_int_equal(PARSE(&o, "info", "--json=1"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '--json' takes no argument");
	assert_int_equal(PARSE(&o, "--dev"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '--device' needs an argument");
	assert_int_equal(PARSE(&o, "info", "--dev"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '--device' needs an argument");

	/*
	 * After the command, the global options and the command's are one
	 * table: an abbreviation two of them share names both.
	 */
	assert_int_equal(PARSE(&o, "events", "--h"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "events: ambiguous option '--h' (--help, --history)");
	assert_int_equal(PARSE(&o, "record", "--d", "1", "A"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "record: ambiguous option '--d' (--device, --duration)");
	assert_int_equal(PARSE(&o, "preferences", "save", "Chest", "--dev=x.xml"),
			 DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err,
			    "preferences: ambiguous option '--dev' (--device, --device-xml)");

	assert_int_equal(PARSE(&o, "--json", "-xj", "info"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "unknown option '-x'");

	assert_int_equal(PARSE(&o, "-jd"), DCMCTL_USAGE_ERROR);
	assert_string_equal(o.err, "option '-d' needs an argument");
}

static void test_find_cmd(void **state)
{
	char err[128];

	(void)state;
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "info", err, sizeof(err))->name, "info");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "inf", err, sizeof(err))->name, "info");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "i", err, sizeof(err))->name, "info");
	assert_string_equal(dcmctl_find_cmd(dcmctl_commands, "he", err, sizeof(err))->name, "help");
	assert_null(dcmctl_find_cmd(dcmctl_commands, "infos", err, sizeof(err)));
	assert_string_equal(err, "unknown command 'infos'");
	assert_null(dcmctl_find_cmd(dcmctl_commands, "", err, sizeof(err)));
	/* every table entry is complete and unique */
	for (const struct dcmctl_command *const *cp = dcmctl_commands, *c; (c = *cp); cp++) {
		assert_non_null(c->run);
		assert_non_null(c->args);
		assert_non_null(c->help);
		assert_ptr_equal(dcmctl_find_cmd(dcmctl_commands, c->name, err, sizeof(err)), c);
	}
}

static void test_resolve_device(void **state)
{
	char path[64];
	long idx;

	(void)state;
	assert_int_equal(dcmctl_resolve_device(NULL, path, sizeof(path), &idx), 0);
	assert_string_equal(path, "/dev/dcm0");
	assert_int_equal(idx, 0);

	assert_int_equal(dcmctl_resolve_device("12", path, sizeof(path), &idx), 0);
	assert_string_equal(path, "/dev/dcm12");
	assert_int_equal(idx, 12);

	assert_int_equal(dcmctl_resolve_device("dcm5", path, sizeof(path), &idx), 0);
	assert_string_equal(path, "/dev/dcm5");
	assert_int_equal(idx, 5);

	assert_int_equal(dcmctl_resolve_device("/tmp/x/dcm9", path, sizeof(path), &idx), 0);
	assert_string_equal(path, "/tmp/x/dcm9");
	assert_int_equal(idx, 9);

	assert_int_equal(dcmctl_resolve_device("./mydev", path, sizeof(path), &idx), 0);
	assert_string_equal(path, "./mydev");
	assert_int_equal(idx, -1);

	assert_int_equal(dcmctl_resolve_device("robot", path, sizeof(path), &idx), 0);
	assert_string_equal(path, "/dev/robot");
	assert_int_equal(idx, -1);

	assert_int_equal(dcmctl_resolve_device("dcmx", path, sizeof(path), &idx), 0);
	assert_int_equal(idx, -1);
	assert_int_equal(dcmctl_resolve_device("dcm-1", path, sizeof(path), &idx), 0);
	assert_int_equal(idx, -1);
	assert_int_equal(dcmctl_resolve_device("dcm99999999999", path, sizeof(path), &idx), 0);
	assert_int_equal(idx, -1);

	assert_int_equal(dcmctl_resolve_device("", path, sizeof(path), &idx), -EINVAL);
	assert_int_equal(dcmctl_resolve_device("/a/very/long/path/that/does/not/fit/in/a/tiny/buffer",
					       path, 16, &idx), -EINVAL);
}

static void test_format_flags(void **state)
{
	char buf[64];

	(void)state;
	dcmctl_format_flags(0, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	dcmctl_format_flags(LIBDCM_INFO_SIMULATED, buf, sizeof(buf));
	assert_string_equal(buf, "simulated");
	dcmctl_format_flags(LIBDCM_INFO_SIMULATED | LIBDCM_INFO_CONFIGURED |
			    LIBDCM_INFO_RUNNING, buf, sizeof(buf));
	assert_string_equal(buf, "simulated configured running");
	dcmctl_format_flags(LIBDCM_INFO_RUNNING | 0x80, buf, sizeof(buf));
	assert_string_equal(buf, "running 0x80");
	dcmctl_format_flags(0x100, buf, sizeof(buf));
	assert_string_equal(buf, "0x100");
	dcmctl_format_flags(7, buf, 5);		/* truncated, terminated */
	assert_string_equal(buf, "simu");
}

static const struct dcm_info sample = {
	.index = 0,
	.name = "dcm0",
	.driver = "dcm\"sim",
	.abi_major = 1,
	.abi_minor = 2,
	.period_us = 12345,
	.time_ms = 4294967295U,
	.n_devices = 21,
	.n_subdevices = 298,
	.flags = LIBDCM_INFO_SIMULATED | LIBDCM_INFO_RUNNING | 0x40,
};

static void test_text_output(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	dcmctl_print_info_text(f, &sample);
	fclose(f);
	assert_string_equal(buf,
		"\tindex: 0\n"
		"\tname: dcm0\n"
		"\tdriver: dcm\"sim\n"
		"\tabi: 1.2\n"
		"\tperiod: 12.345 ms\n"
		"\ttime_ms: 4294967295\n"
		"\tdevices: 21\n"
		"\tsubdevices: 298\n"
		"\tflags: simulated running 0x40\n");
	free(buf);
}

static void test_json_output(void **state)
{
	struct json_writer w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	dcmctl_json_info(&w, &sample);
	json_end_object(&w);
	assert_int_equal(json_finish(&w), 0);
	fclose(f);
	assert_string_equal(buf,
		"{\"index\":0,\"name\":\"dcm0\",\"driver\":\"dcm\\\"sim\","
		"\"abi\":{\"major\":1,\"minor\":2},\"period_us\":12345,"
		"\"time_ms\":4294967295,\"devices\":21,\"subdevices\":298,"
		"\"flags\":[\"simulated\",\"running\"],\"flags_raw\":69,"
		"\"flags_unknown\":64}\n");
	free(buf);
}

static void test_usage_lists_commands(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	dcmctl_usage(f, dcmctl_commands);
	fclose(f);
	assert_non_null(strstr(buf, "Usage: dcmctl"));
	assert_non_null(strstr(buf, "  info "));
	assert_non_null(strstr(buf, "--json"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_basic),
		cmocka_unit_test(test_parse_command_args),
		cmocka_unit_test(test_parse_command_help),
		cmocka_unit_test(test_cmd_usage),
		cmocka_unit_test(test_getopt_forms),
		cmocka_unit_test(test_parse_help_version),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_find_cmd),
		cmocka_unit_test(test_resolve_device),
		cmocka_unit_test(test_format_flags),
		cmocka_unit_test(test_text_output),
		cmocka_unit_test(test_json_output),
		cmocka_unit_test(test_usage_lists_commands),
	};

	return cmocka_run_group_tests_name("dcmctl", tests, NULL, NULL);
}
