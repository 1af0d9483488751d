// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: command line parsing and the command table.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dcmctl.h"

static int cmd_help(const struct dcmctl_opts *o)
{
	if (o->argc > 0) {
		fprintf(stderr, "dcmctl: help: unexpected argument '%s'\n",
			o->argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	dcmctl_usage(stdout);
	return DCMCTL_EXIT_OK;
}

/*
 * Later commands (calibrate, ...) are added here, each as
 * { name, run, args, help }.
 */
const struct dcmctl_cmd dcmctl_commands[] = {
	{ "info", dcmctl_cmd_info, "",
	  "controller identity, through both the ioctl and the netlink path" },
	{ "list", dcmctl_cmd_list, "[PATTERN]",
	  "key paths (PATTERN: a glob on the path, with or without Device/SubDeviceList/)" },
	{ "get", dcmctl_cmd_get, "[-q] KEY...",
	  "\"KEY VALUE\" lines (-q: values only)" },
	{ "tree", dcmctl_cmd_tree, "",
	  "devices with their Type, Bus and Address, and their subdevices" },
	{ "set", dcmctl_cmd_set,
	  "KEY VALUE | KEY VALUE@MS... [--at T | --in MS] [--kind KIND] [--importance N]",
	  "timed commands to an actuator: VALUE at DCM time now (or --at T, or now + --in MS);\n"
	  "VALUE@MS at that time + MS; KIND: clear-all (default), merge, clear-after, clear-before" },
	{ "alias", dcmctl_cmd_alias,
	  "create NAME KEY... | set NAME --separate --times MS,... V,V... | set NAME --mixed V@MS,...\n"
	  "| list | show NAME | delete NAME...",
	  "name a list of actuators (blank members marked); set it: one value list (--separate)\n"
	  "or point list (--mixed) per member; set takes set's --at/--in/--kind/--importance;\n"
	  "the aliases dcmctl creates are shared: list them, show one's members, delete them" },
	{ "time", dcmctl_cmd_time, "[OFFSET]", "DCM time now, plus OFFSET ms" },
	{ "watch", dcmctl_cmd_watch, "KEY... [--cycles N]",
	  "one line per cycle (read() frames): cycle, DCM time, each value" },
	{ "stats", dcmctl_cmd_stats, "",
	  "the cycle's timing: cycles, overruns, work time, wake-up latency histogram" },
	{ "events", dcmctl_cmd_events, "[--type TYPE,...] [--count N] [--timeout SEC]",
	  "follow the events live (errors, nack, safety, temperature, battery, overrun,\n"
	  "config, calibration, watchdog, special); --count: exit after N, failing if\n"
	  "--timeout comes first" },
	{ "preferences", dcmctl_cmd_preferences,
	  "save|load TARGET [--file FILE] | add TARGET KEY VALUE [--type TYPE] [--file FILE]",
	  "the preference files (TARGET: Main, Chest, Head, All): save the running values\n"
	  "of the keys the target owns into its file, load the description again from the\n"
	  "files (root), add a key to a file; --device-xml, --schemas, --etc, --share: where\n"
	  "the files are (defaults: dcmd's)" },
	{ "calibrate", dcmctl_cmd_calibrate, "JOINT [here|min|max|set ZERO]",
	  "calibrate a joint's MRE (root): the joint is at 0 rad (here, the default) or\n"
	  "against its stop at Min or Max; or set its jointZeroPosition (0 clears it);\n"
	  "stored in the chest board and sent to the motor board" },
	{ "special", dcmctl_cmd_special, "reset|version|chain|diagnostic|config",
	  "special commands (root): clear counters and chain again; boards' versions;\n"
	  "chain the RS485 buses; every board's state; configure the motor boards again" },
	{ "help", cmd_help, "", "show this text" },
	{ NULL, NULL, NULL, NULL }
};

void dcmctl_usage(FILE *f)
{
	const struct dcmctl_cmd *c;

	fprintf(f,
		"Usage: dcmctl [OPTIONS] COMMAND [ARGS]\n"
		"       dcmctl -h | -V\n"
		"\n"
		"Options:\n"
		"  -d, --device DEVICE  controller: /dev/dcmN, dcmN or N (default /dev/dcm0)\n"
		"  -r, --root DIR       sysfs directory of the controllers (default\n"
		"                       $DCM_SYSFS_ROOT, else " DCMCTL_SYSFS_ROOT ")\n"
		"  -j, --json           JSON output\n"
		"  -p, --pretty         indent JSON output (with -j)\n"
		"  -h, --help           show this text\n"
		"  -V, --version        show the version\n"
		"\n"
		"Commands:\n");
	for (c = dcmctl_commands; c->name; c++) {
		const char *h = c->help, *nl;

		/* a long synopsis on its own line; help lines below it */
		if (strlen(c->args) > 12) {
			fprintf(f, "  %-5s %s\n", c->name, c->args);
			fprintf(f, "  %-5s %-12s ", "", "");
		} else {
			fprintf(f, "  %-5s %-12s ", c->name, c->args);
		}
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n  %-5s %-12s ", (int)(nl - h), h, "", "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
	fprintf(f,
		"\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n");
}

const struct dcmctl_cmd *dcmctl_find_cmd(const char *name, char *err,
					 size_t errlen)
{
	const struct dcmctl_cmd *c, *found = NULL;
	size_t len = strlen(name);
	int matches = 0;

	if (len == 0) {
		snprintf(err, errlen, "empty command");
		return NULL;
	}
	for (c = dcmctl_commands; c->name; c++) {
		if (strcmp(c->name, name) == 0)
			return c;
		if (strncmp(c->name, name, len) == 0) {
			found = c;
			matches++;
		}
	}
	if (matches == 1)
		return found;
	if (matches == 0) {
		snprintf(err, errlen, "unknown command '%s'", name);
	} else {
		size_t off;
		bool first = true;

		off = (size_t)snprintf(err, errlen,
				       "ambiguous command '%s' (", name);
		for (c = dcmctl_commands; c->name; c++) {
			if (off >= errlen || strncmp(c->name, name, len))
				continue;
			off += (size_t)snprintf(err + off, errlen - off, "%s%s",
						first ? "" : ", ", c->name);
			first = false;
		}
		if (off < errlen)
			snprintf(err + off, errlen - off, ")");
	}
	return NULL;
}

/* Parse a controller index: decimal digits only, no sign. */
static long parse_index(const char *s)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT_MAX)
		return -1;
	return (long)v;
}

int dcmctl_resolve_device(const char *arg, char *path, size_t len,
			  long *index)
{
	const char *base;
	int n;

	if (!arg)
		arg = "0";
	if (!*arg)
		return -EINVAL;

	if (strchr(arg, '/')) {
		n = snprintf(path, len, "%s", arg);
		base = strrchr(arg, '/') + 1;
		*index = strncmp(base, "dcm", 3) == 0 ?
			 parse_index(base + 3) : -1;
	} else if (parse_index(arg) >= 0) {
		*index = parse_index(arg);
		n = snprintf(path, len, "/dev/dcm%ld", *index);
	} else {
		n = snprintf(path, len, "/dev/%s", arg);
		*index = strncmp(arg, "dcm", 3) == 0 ?
			 parse_index(arg + 3) : -1;
	}
	if (n < 0 || (size_t)n >= len)
		return -EINVAL;
	return 0;
}

static bool is_long(const char *arg)
{
	return strncmp(arg, "--", 2) == 0;
}

enum dcmctl_parse_result dcmctl_parse_args(int argc, char **argv,
					   struct dcmctl_opts *o)
{
	static const struct option longopts[] = {
		{ "device",  required_argument, NULL, 'd' },
		{ "root",    required_argument, NULL, 'r' },
		{ "json",    no_argument,       NULL, 'j' },
		{ "pretty",  no_argument,       NULL, 'p' },
		{ "help",    no_argument,       NULL, 'h' },
		{ "version", no_argument,       NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *elem;
	int c, before;

	memset(o, 0, sizeof(*o));
	o->dev_index = -1;

	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	/* '+': stop at the command; ':': report missing arguments as ':' */
	for (;;) {
		before = optind;
		c = getopt_long(argc, argv, "+:d:r:jphV", longopts, NULL);
		if (c == -1)
			break;
		/* the argv element getopt was looking at */
		elem = optind > before ? argv[optind - 1] : argv[optind];

		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'r':
			o->root = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'p':
			o->pretty = true;
			break;
		case 'h':
			return DCMCTL_HELP;
		case 'V':
			return DCMCTL_VERSION;
		case ':':
			if (is_long(elem))
				snprintf(o->err, sizeof(o->err),
					 "option '%s' needs an argument",
					 elem);
			else
				snprintf(o->err, sizeof(o->err),
					 "option '-%c' needs an argument",
					 optopt);
			return DCMCTL_USAGE_ERROR;
		default:
			/*
			 * unknown long option, or an argument given to one
			 * that takes none
			 */
			if (is_long(elem))
				snprintf(o->err, sizeof(o->err),
					 "invalid option '%s'", elem);
			else
				snprintf(o->err, sizeof(o->err),
					 "unknown option '-%c'", optopt);
			return DCMCTL_USAGE_ERROR;
		}
	}

	if (optind >= argc) {
		snprintf(o->err, sizeof(o->err), "no command given");
		return DCMCTL_USAGE_ERROR;
	}
	o->cmd = dcmctl_find_cmd(argv[optind], o->err, sizeof(o->err));
	if (!o->cmd)
		return DCMCTL_USAGE_ERROR;

	if (dcmctl_resolve_device(o->device, o->devpath, sizeof(o->devpath),
				  &o->dev_index)) {
		snprintf(o->err, sizeof(o->err), "invalid device '%s'",
			 o->device ? o->device : "");
		return DCMCTL_USAGE_ERROR;
	}

	o->argc = argc - optind - 1;
	o->argv = argv + optind + 1;
	return DCMCTL_RUN;
}
