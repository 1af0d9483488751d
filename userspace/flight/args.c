// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight's arguments: its option table (common/optdef.h), the help
 * made from it, and the parse.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "flight.h"
#include "num.h"
#include "optdef.h"

enum {
	OPT_AFTER = 0x100,
	OPT_KEEP,
	OPT_DUMP,
	OPT_TIMEOUT,
};

static const struct optdef optdefs[] = {
	FLIGHT_OPTDEF_SECONDS,
	FLIGHT_OPTDEF_AFTER(OPT_AFTER),
	FLIGHT_OPTDEF_DIR,
	FLIGHT_OPTDEF_KEEP(OPT_KEEP),
	FLIGHT_OPTDEF_FORMAT,
	{ "device", 'd', 'd', "DEVICE", "controller: /dev/dcmN, dcmN or N (default /dev/dcm0)" },
	{ "root", 'r', 'r', "DIR", "sysfs directory of the controllers (default\n"
	  "$DCM_SYSFS_ROOT, else " LIBDCM_SYSFS_ROOT ")" },
	{ "dump", 0, OPT_DUMP, NULL, "ask the recorder of DIR for a file now; print its path" },
	FLIGHT_OPTDEF_TIMEOUT(OPT_TIMEOUT),
	{ "json", 'j', 'j', NULL, "with --dump: the path and the recorder's pid as JSON" },
	{ "pretty", 'p', 'p', NULL, "indent the JSON (with -j)" },
	{ "help", 'h', 'h', NULL, "show this text" },
	{ "version", 'V', 'V', NULL, "show the version" },
	{ NULL, 0, 0, NULL, NULL }
};

void flight_usage(FILE *f)
{
	fprintf(f,
		"usage: dcm-flight [--seconds SEC] [--after SEC] [--dir DIR] [--keep N]\n"
		"                  [-f jsonl|mcap] [-d DEVICE] [-r DIR]\n"
		"       dcm-flight --dump [--dir DIR] [--timeout SEC] [-j [-p]]\n"
		"       dcm-flight -h | --help | -V | --version\n"
		"\n"
		"The flight recorder: keep the last seconds of every key of the controller\n"
		"in memory and write them, with the events around, into a file of DIR\n"
		"when a safety rule acts, a temperature status rises or the robot falls\n"
		"(--after SEC later), or on demand (SIGUSR1, dcm-flight --dump). Runs\n"
		"until SIGINT or SIGTERM; prints each file's path on stdout.\n"
		"\n"
		"Options:\n");
	optdef_print(f, optdefs, 22);
}

/* Seconds: more than 0, at most @max. */
static int parse_seconds(const char *s, double max, double *out)
{
	double v;

	if (num_parse_double(s, 0, max, &v) || v <= 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The controller's node of -d: "N", "dcmN" or a path. */
static int parse_device(const char *s, struct flight_args *a)
{
	unsigned long long n;
	int len;

	if (!*s)
		return -EINVAL;
	if (strchr(s, '/'))
		len = snprintf(a->device, sizeof(a->device), "%s", s);
	else if (!num_parse_ull(s, 10, 0, 1000000, &n))
		len = snprintf(a->device, sizeof(a->device), "/dev/dcm%llu", n);
	else
		len = snprintf(a->device, sizeof(a->device), "/dev/%s", s);
	return len > 0 && (size_t)len < sizeof(a->device) ? 0 : -EINVAL;
}

/* One option @c with its argument @arg: 0, or -EINVAL (said in @err). */
static int take_option(int c, const char *arg, struct flight_args *a, char *err, size_t errlen)
{
	unsigned long long v;

	switch (c) {
	case 's':
		if (!parse_seconds(arg, 600, &a->seconds))
			return 0;
		snprintf(err, errlen, "invalid --seconds '%s' (> 0, at most 600)", arg);
		return -EINVAL;
	case OPT_AFTER:
		if (!strcmp(arg, "0")) {
			a->after = 0;
			return 0;
		}
		if (!parse_seconds(arg, 60, &a->after))
			return 0;
		snprintf(err, errlen, "invalid --after '%s' (0 to 60 s)", arg);
		return -EINVAL;
	case OPT_TIMEOUT:
		if (!parse_seconds(arg, 1e7, &a->timeout))
			return 0;
		snprintf(err, errlen, "invalid --timeout '%s' (seconds)", arg);
		return -EINVAL;
	case OPT_KEEP:
		if (!num_parse_ull(arg, 10, 0, FLIGHT_KEEP_MAX, &v)) {
			a->keep = (unsigned int)v;
			return 0;
		}
		snprintf(err, errlen, "invalid --keep '%s' (0 to %d files)", arg, FLIGHT_KEEP_MAX);
		return -EINVAL;
	case 'f':
		if (!strcmp(arg, "jsonl") || !strcmp(arg, "mcap")) {
			a->mcap = !strcmp(arg, "mcap");
			return 0;
		}
		snprintf(err, errlen, "unknown --format '%s' (jsonl or mcap)", arg);
		return -EINVAL;
	case 'd':
		if (!parse_device(arg, a))
			return 0;
		snprintf(err, errlen, "invalid device '%s'", arg);
		return -EINVAL;
	}
	return 1;	/* not one with a value to check */
}

/* The options without a value to check: 0, or -EINVAL for none of dcm-flight's. */
static int take_flag(int c, const char *arg, struct flight_args *a)
{
	switch (c) {
	case 'D': a->dir = arg; break;
	case 'r': a->root = arg; break;
	case OPT_DUMP: a->dump = true; break;
	case 'j': a->json = true; break;
	case 'p': a->pretty = true; break;
	case 'h': a->help = true; break;
	case 'V': a->version = true; break;
	default:
		return -EINVAL;	/* '?', ':': said by flight_parse_args() */
	}
	return 0;
}

/* The options that go with --dump, and those that go without it. */
static int check_mode(const struct flight_args *a, const bool *given, char *err, size_t errlen)
{
	static const char *const recorder_only[] = { "--seconds", "--after", "--keep",
						     "--format" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (a->dump && given[i]) {
			snprintf(err, errlen, "%s: not with --dump", recorder_only[i]);
			return -EINVAL;
		}
	}
	if (!a->dump && (given[4] || a->json)) {
		snprintf(err, errlen, "%s: only with --dump", given[4] ? "--timeout" : "-j");
		return -EINVAL;
	}
	return 0;
}

static void set_defaults(struct flight_args *a)
{
	memset(a, 0, sizeof(*a));
	a->seconds = 10;
	a->after = 2;
	a->dir = FLIGHT_DIR;
	a->keep = FLIGHT_KEEP;
	a->timeout = 10;
	snprintf(a->device, sizeof(a->device), "/dev/dcm0");
}

int flight_parse_args(int argc, char **argv, struct flight_args *a, char *err, size_t errlen)
{
	struct option longopts[sizeof(optdefs) / sizeof(optdefs[0])];
	char shortopts[2 * sizeof(optdefs) / sizeof(optdefs[0]) + 2];
	bool given[5] = { false };	/* --seconds --after --keep --format --timeout */
	int c, r;

	set_defaults(a);
	if (optdef_getopt(optdefs, ":", longopts, shortopts, sizeof(shortopts))) {
		snprintf(err, errlen, "the option table is too large");
		return -ENOMEM;
	}
	optind = 0;
	opterr = 0;
	while ((c = optdef_next(optdefs, argc, argv, shortopts, longopts, err, errlen)) != -1) {
		if (c == '?')
			return -EINVAL;
		given[0] |= c == 's';
		given[1] |= c == OPT_AFTER;
		given[2] |= c == OPT_KEEP;
		given[3] |= c == 'f';
		given[4] |= c == OPT_TIMEOUT;
		r = take_option(c, optarg, a, err, errlen);
		if (r > 0)
			r = take_flag(c, optarg, a);
		if (r)
			return r;
	}
	if (optind < argc) {
		snprintf(err, errlen, "'%s' is not an option", argv[optind]);
		return -EINVAL;
	}
	return check_mode(a, given, err, errlen);
}
