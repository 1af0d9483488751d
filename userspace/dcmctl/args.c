// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the command table (each command's synopsis, text and option
 * table), the command line up to the command, the global options after it,
 * and the help made from the table.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dcmctl.h"

/* ------------------------------------------------------------------
 * The options of every command: getopt's tables, the help and the scan of
 * the global options after the command all come from these.
 */

#define TIMING_OPTIONS \
	{ "at", 0, DCMCTL_OPT_AT, "T", "the base time: DCM time T (dcmctl time)" }, \
	{ "in", 0, DCMCTL_OPT_IN, "MS", "the base time: DCM time now + MS" }, \
	{ "kind", 0, DCMCTL_OPT_KIND, "KIND", \
	  "clear-all (default), merge, clear-after, clear-before" }, \
	{ "importance", 0, DCMCTL_OPT_IMPORTANCE, "N", "0 (default) to 7" }

static const struct optdef get_opts[] = {
	{ "quiet", 'q', 'q', NULL, "values only, one a line" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef set_opts[] = {
	TIMING_OPTIONS,
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef alias_set_opts[] = {
	{ "separate", 0, DCMCTL_OPT_SEPARATE, NULL,
	  "time-separate: one time list, a value list a member" },
	{ "times", 0, DCMCTL_OPT_TIMES, "MS,...", "the times of --separate, ms after the base" },
	{ "mixed", 0, DCMCTL_OPT_MIXED, NULL, "time-mixed: one VALUE@MS,... list per member" },
	TIMING_OPTIONS,
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef watch_opts[] = {
	{ "cycles", 'c', 'c', "N", "stop after N cycles (default: until interrupted)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef events_opts[] = {
	{ "type", 't', 't', "TYPE,...", "only these types (default: all)" },
	{ "count", 'n', 'n', "N", "exit after N events (failing if --timeout comes first)" },
	{ "timeout", 0, DCMCTL_OPT_TIMEOUT, "SEC", "exit after SEC seconds" },
	{ "history", 'H', 'H', NULL, "first the kernel's last events (64 a controller)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef prefs_opts[] = {
	{ "file", 0, DCMCTL_OPT_FILE, "FILE", "the target's file (default: dcmd's)" },
	{ "type", 0, DCMCTL_OPT_TYPE, "TYPE", "add: int, float, bool or string (default: the key's)" },
	{ "device-xml", 0, DCMCTL_OPT_DEVICE_XML, "FILE", "the robot description (default: dcmd's)" },
	{ "schemas", 0, DCMCTL_OPT_SCHEMAS, "DIR", "where device.rng and preferences.rng are" },
	{ "etc", 0, DCMCTL_OPT_ETC, "DIR", "the robot's preference directory (default /etc/dcm)" },
	{ "share", 0, DCMCTL_OPT_SHARE, "DIR", "the shipped files' directory" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef top_opts[] = {
	{ "interval", 'i', 'i', "MS", "refresh every MS ms (default 250)" },
	{ "once", '1', '1', NULL, "print one screen, without terminal control" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef record_opts[] = {
	{ "output", 'o', 'o', "FILE", "into FILE (default: stdout)" },
	{ "format", 'f', 'f', "FORMAT", "csv (default) or jsonl (the default with -j)" },
	{ "every", 'e', 'e', "N", "a row every N cycles (default 1: every cycle)" },
	{ "cycles", 'c', 'c', "N", "stop after N cycles (default: until interrupted)" },
	{ "duration", 't', 't', "SEC", "stop after SEC seconds of DCM time" },
	{ "max-size", 0, DCMCTL_OPT_MAX_SIZE, "SIZE",
	  "rotate FILE past SIZE bytes (k, M, G: KiB, MiB, GiB)" },
	{ "max-files", 0, DCMCTL_OPT_MAX_FILES, "N",
	  "keep N files: FILE, FILE.1, ... (default 10)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef flight_opts[] = {
	{ "seconds", 's', 's', "SEC", "keep the last SEC seconds (default 10)" },
	{ "after", 0, DCMCTL_OPT_AFTER, "SEC", "and SEC seconds after a safety event (default 2)" },
	{ "dir", 'D', 'D', "DIR", "its files and pid file (default /var/lib/dcm/flight)" },
	{ "keep", 0, DCMCTL_OPT_KEEP, "N", "keep the newest N files (default 20; 0: all)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef flight_dump_opts[] = {
	{ "dir", 'D', 'D', "DIR", "the recorder's directory (default /var/lib/dcm/flight)" },
	{ "timeout", 0, DCMCTL_OPT_TIMEOUT, "SEC", "wait SEC s for the file (default 10)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef calibrate_opts[] = {
	{ "force", 'f', 'f', NULL, "skip the checks that the joint is at that stop" },
	{ NULL, 0, 0, NULL, NULL }
};

const struct dcmctl_optspec dcmctl_spec_get = {
	.cmd = "get", .opts = get_opts,
};
const struct dcmctl_optspec dcmctl_spec_set = {
	.cmd = "set", .opts = set_opts, .numbers = true,
};
const struct dcmctl_optspec dcmctl_spec_alias_set = {
	.cmd = "alias set", .opts = alias_set_opts, .numbers = true,
};
const struct dcmctl_optspec dcmctl_spec_alias_create = { .cmd = "alias create" };
const struct dcmctl_optspec dcmctl_spec_watch = {
	.cmd = "watch", .opts = watch_opts, .numbers = true,
};
const struct dcmctl_optspec dcmctl_spec_events = {
	.cmd = "events", .opts = events_opts, .prefix_missing = true,
};
/* "-x" is a value (add Main KEY -1), not an option */
const struct dcmctl_optspec dcmctl_spec_preferences = {
	.cmd = "preferences", .opts = prefs_opts, .long_only = true,
	.no_empty = true, .prefix_missing = true,
};
const struct dcmctl_optspec dcmctl_spec_calibrate = {
	.cmd = "calibrate", .opts = calibrate_opts,
};
const struct dcmctl_optspec dcmctl_spec_top = {
	.cmd = "top", .opts = top_opts,
};
const struct dcmctl_optspec dcmctl_spec_flight = {
	.cmd = "flight", .opts = flight_opts, .prefix_missing = true,
};
const struct dcmctl_optspec dcmctl_spec_flight_dump = {
	.cmd = "flight-dump", .opts = flight_dump_opts, .prefix_missing = true,
};
const struct dcmctl_optspec dcmctl_spec_record = {
	.cmd = "record", .opts = record_opts, .prefix_missing = true,
};

int dcmctl_plain_args(const struct dcmctl_opts *o, const char *cmd, int max, int *n, FILE *err)
{
	const struct dcmctl_optspec spec = { .cmd = cmd, .numbers = true };
	struct dcmctl_getopt g;
	char msg[256];
	int c;

	*n = 0;
	if (dcmctl_getopt_init(&g, &spec, o->argc, o->argv)) {
		fprintf(err, "dcmctl: out of memory\n");
		return -ENOMEM;
	}
	c = dcmctl_getopt(&g, msg, sizeof(msg));
	if (!c && g.n_args > max)
		snprintf(msg, sizeof(msg), "%s: unexpected argument '%s'", cmd, g.args[max]);
	if (c || g.n_args > max) {
		fprintf(err, "dcmctl: %s\n", msg);
		dcmctl_getopt_free(&g);
		return -EINVAL;
	}
	/* the arguments in order, into argv (g.args points into it) */
	for (c = 0; c < g.n_args; c++)
		o->argv[c] = g.args[c];
	*n = g.n_args;
	dcmctl_getopt_free(&g);
	return 0;
}

static int cmd_help(const struct dcmctl_opts *o)
{
	const struct dcmctl_cmd *c;
	char err[256];
	int n;

	if (dcmctl_plain_args(o, "help", 1, &n, stderr))
		return DCMCTL_EXIT_USAGE;
	if (o->json) {
		fprintf(stderr, "dcmctl: help: -j: the help is text only\n");
		return DCMCTL_EXIT_USAGE;
	}
	if (!n) {
		dcmctl_usage(stdout);
		return DCMCTL_EXIT_OK;
	}
	c = dcmctl_find_cmd(o->argv[0], err, sizeof(err));
	if (!c) {
		fprintf(stderr, "dcmctl: help: %s\n", err);
		return DCMCTL_EXIT_USAGE;
	}
	dcmctl_cmd_usage(stdout, c);
	return DCMCTL_EXIT_OK;
}

const struct dcmctl_cmd dcmctl_commands[] = {
	{ "info", dcmctl_cmd_info, "[KEY...]",
	  "the controller, through both the ioctl and the netlink path; with\n"
	  "KEYs, what each key is: its subdevice or device, and that one's keys\n"
	  "and their values",
	  "A KEY takes every form get takes.",
	  NULL },
	{ "list", dcmctl_cmd_list, "[PATTERN]",
	  "key paths (PATTERN: a glob on the path, with or without\n"
	  "Device/SubDeviceList/)",
	  "The keys of the running description, as sysfs shows them: the\n"
	  "subdevices' (Device/SubDeviceList/...), the devices'\n"
	  "(Device/DeviceList/...) and RobotConfig/.... PATTERN is a glob as get\n"
	  "takes, a subdevice's value also without its /Value\n"
	  "('*/Hardness/Actuator'); one that matches nothing is an error (exit 1).\n"
	  "Quote the PATTERN for the shell: 'LFoot/FSR/*'.",
	  NULL },
	{ "get", dcmctl_cmd_get, "[-q] KEY...",
	  "\"KEY VALUE\" lines (-q: values only)",
	  "KEY: a subdevice's value with or without Device/SubDeviceList/ and\n"
	  "with or without /Value (HeadYaw/Position/Sensor is\n"
	  "Device/SubDeviceList/HeadYaw/Position/Sensor/Value); a subdevice's\n"
	  "other keys by their name (HeadYaw/Position/Actuator/Kp, .../Min); a\n"
	  "device's (Device/DeviceList/ChestBoard/Ack); RobotConfig/.... An\n"
	  "unknown key gets the nearest known ones (\"did you mean\"). A KEY with\n"
	  "*, ? or [ is a glob: every key it matches, on the full path, without\n"
	  "Device/SubDeviceList/ or without /Value ('*/Position/Sensor'; quote\n"
	  "it). With -j, numbers are JSON numbers.",
	  &dcmctl_spec_get },
	{ "tree", dcmctl_cmd_tree, "",
	  "devices with their Type, Bus and Address, and their subdevices", NULL, NULL },
	{ "set", dcmctl_cmd_set,
	  "KEY VALUE [--at T | --in MS] [--kind KIND] [--importance N]\n"
	  "KEY VALUE@MS... [--at T | --in MS] [...]\n"
	  "CONFIGURATION-KEY VALUE",
	  "timed commands to an actuator (or an alias's actuators): VALUE at DCM\n"
	  "time now (or --at T, or now + --in MS); VALUE@MS at that time + MS;\n"
	  "or a configuration key's new value (root)",
	  "KEY takes every form get takes. A negative VALUE is a value:\n"
	  "dcmctl set HeadYaw/Position/Actuator -0.5.\n"
	  "A value past the actuator's Min or Max is clamped by the driver: set\n"
	  "says so on stderr (exit 0); so it does for a position sent to a joint\n"
	  "whose stiffness (Hardness) is 0, which does not move.\n"
	  "A configuration key (HeadYaw/Position/Actuator/Kp,\n"
	  "HeadYaw/Position/Sensor/jointZeroPosition, ...) is written through\n"
	  "sysfs, checked against the key's kind and range first; the driver\n"
	  "sends it to the board when it configures it (dcmctl special config).",
	  &dcmctl_spec_set },
	{ "alias", dcmctl_cmd_alias,
	  "create NAME KEY...\n"
	  "set NAME --separate --times MS,... V,V... ...\n"
	  "set NAME --mixed V@MS,... ...\n"
	  "list | show NAME | delete NAME...",
	  "name a list of actuators (blank members marked); set it: one value\n"
	  "list (--separate) or point list (--mixed) per member; list the\n"
	  "aliases, show one's members, delete them",
	  "alias create takes no option; the options below are alias set's.\n"
	  "The aliases dcmctl creates are shared (the controller's, not the\n"
	  "process's): alias list shows them, alias delete frees their slots.",
	  &dcmctl_spec_alias_set },
	{ "time", dcmctl_cmd_time, "[OFFSET]",
	  "DCM time now, plus OFFSET ms (may be negative)", NULL, NULL },
	{ "watch", dcmctl_cmd_watch, "KEY... [--cycles N]",
	  "one line per cycle (read() frames): cycle, DCM time, each value",
	  "KEY takes every form get takes, globs too ('*/Position/Sensor'); a\n"
	  "key that is no subdevice's value (a device's, a configuration key) is\n"
	  "read from sysfs each cycle.",
	  &dcmctl_spec_watch },
	{ "record", dcmctl_cmd_record,
	  "[KEY|GLOB...] [-o FILE [--max-size SIZE [--max-files N]]]\n"
	  "[-f csv|jsonl] [--every N] [--cycles N | --duration SEC]",
	  "record the frames: chosen subdevices' values (all by default), every\n"
	  "cycle or every Nth, with DCM time and the wall clock, as CSV or JSON\n"
	  "lines",
	  "A KEY is a subdevice's value as get takes it; a GLOB ('*/Position/Sensor',\n"
	  "'LFoot/FSR/*') selects every subdevice whose name matches, with or\n"
	  "without Device/SubDeviceList/ and /Value; quote it for the shell. CSV:\n"
	  "a header line \"cycle,time,wall,missed,KEY...\", then a row per recorded\n"
	  "cycle; JSON lines: {\"cycle\", \"time\", \"wall\", \"missed\", \"values\"}.\n"
	  "time is DCM time (ms), wall the wall clock when the frame was read\n"
	  "(seconds since the epoch), missed the cycles this recorder did not get\n"
	  "(counted from the frames' cycle numbers) since the row before: none is\n"
	  "lost silently. The summary (rows, missed, gaps) goes to stderr at the\n"
	  "end. With --max-size the file is renamed FILE.1 (FILE.1 FILE.2, ...)\n"
	  "when it passes SIZE, and a new FILE begins with its own header; the\n"
	  "oldest beyond --max-files goes. SIGINT and SIGTERM end a recording\n"
	  "cleanly.",
	  &dcmctl_spec_record },
	{ "flight", dcmctl_cmd_flight, "[--seconds SEC] [--after SEC] [--dir DIR] [--keep N]",
	  "the flight recorder: keep the last seconds of every key in memory and\n"
	  "write them, with the events around, when a safety rule acts or on\n"
	  "demand (flight-dump)",
	  "Runs until SIGINT or SIGTERM. Every subdevice's value of every cycle of\n"
	  "the last SEC seconds is kept (read from the frames by a thread of its\n"
	  "own: nothing is added to the cycle). When a safety rule starts acting\n"
	  "(a cycle fault, the battery current, a joint's calibration or brake),\n"
	  "a joint's temperature status rises or the robot falls (a fall event\n"
	  "of the inertial board), --after SEC seconds later one\n"
	  "file is written into DIR: flight-DATE-TIME.MS-dcmN.jsonl, JSON lines:\n"
	  "{\"flight\": {reason, controller, wall, seconds, after, frames, keys}},\n"
	  "the events from a second before the first frame ({\"event\": ...}),\n"
	  "a row a cycle ({cycle, time, wall, missed, values: [as keys]}), then\n"
	  "{\"end\": {rows, missed, gaps, events}}. DIR/flight-latest.jsonl\n"
	  "points at the newest; each path is printed on stdout. SIGUSR1 (or\n"
	  "dcmctl flight-dump) writes one now. DIR/flight.pid holds its pid.\n"
	  "After each file, the oldest of dcmN's beyond the newest --keep N go.",
	  &dcmctl_spec_flight },
	{ "flight-dump", dcmctl_cmd_flight_dump, "[--dir DIR] [--timeout SEC]",
	  "ask the flight recorder of DIR for a file now; print its path", NULL,
	  &dcmctl_spec_flight_dump },
	{ "stats", dcmctl_cmd_stats, "",
	  "the cycle's timing: cycles, overruns, work time, wake-up latency\n"
	  "histogram", NULL, NULL },
	{ "top", dcmctl_cmd_top, "[--interval MS] [--once]",
	  "the robot on one screen, live (q quits)",
	  "Joints (command, sensor, stiffness, temperature and its status,\n"
	  "current), battery, feet, inertial board, the last 30 s of events and\n"
	  "the cycle's statistics, from the mapped snapshot; fits 80x24. --once\n"
	  "prints one screen without terminal control.",
	  &dcmctl_spec_top },
	{ "events", dcmctl_cmd_events,
	  "[--history] [--type TYPE,...] [--count N] [--timeout SEC]",
	  "follow the events live (--history: the recent ones first)",
	  "TYPE: error, nack, ack, safety, temperature, battery, overrun, config,\n"
	  "calibration, watchdog, special, fall. With --count, exits 1 if --timeout\n"
	  "comes first. --history first shows the events the kernel kept (the\n"
	  "last 64 safety events and 64 others of each controller, posted\n"
	  "whether anyone listened or not),\n"
	  "then the live ones, each once; --count and --type count and filter\n"
	  "both. Every user may follow the events.",
	  &dcmctl_spec_events },
	{ "preferences", dcmctl_cmd_preferences,
	  "save|load TARGET [--file FILE]\n"
	  "add TARGET KEY VALUE [--type TYPE] [--file FILE]",
	  "the preference files (TARGET: Main, Chest, Head, All): save the\n"
	  "running values of the keys the target owns into its file, load the\n"
	  "description again from the files (root), add a key to a file",
	  "add refuses a key the description does not know (a misspelled\n"
	  "RobotConfig key among them) and a value outside the key's range.\n"
	  "Undo an add with another add of the old value (dcmctl get KEY shows\n"
	  "the running one), then load. Only options that start with -- are\n"
	  "options here: add Main KEY -1 works.",
	  &dcmctl_spec_preferences },
	{ "calibrate", dcmctl_cmd_calibrate, "JOINT [here|min|max|set ZERO] [--force]",
	  "calibrate a joint's MRE (root): the joint is at 0 rad (here, the\n"
	  "default) or against its stop at Min or Max; or set its\n"
	  "jointZeroPosition (0 clears it); kept in the chest board",
	  "here, min and max first check that the joint is where they say:\n"
	  "its stiffness is 0 (a stiff joint is held where it was commanded);\n"
	  "it is still (moved less than 0.01 rad over 5 cycles); and for min and\n"
	  "max, its sensor is within 0.2 rad of the description's Min (or Max).\n"
	  "A failed check is said and nothing is written (exit 1); --force skips\n"
	  "the checks. A success prints the command that undoes it\n"
	  "(dcmctl calibrate JOINT set PREVIOUS).",
	  &dcmctl_spec_calibrate },
	{ "special", dcmctl_cmd_special, "reset|version|chain|diagnostic|config",
	  "special commands: clear counters and chain again; boards' versions;\n"
	  "chain the RS485 buses; every board's state (diagnostic: every user);\n"
	  "configure the motor boards again (all but diagnostic: root)", NULL, NULL },
	{ "help", cmd_help, "[COMMAND]", "this text, or a command's (as COMMAND --help)",
	  NULL, NULL },
	{ NULL, NULL, NULL, NULL, NULL, NULL }
};

/* @text, each line after the first indented by @indent spaces. */
static void print_indented(FILE *f, const char *text, int indent)
{
	const char *nl;

	while ((nl = strchr(text, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, indent, "");
		text = nl + 1;
	}
	fprintf(f, "%s\n", text);
}

/*
 * The global options, before or after the command: the help and the
 * getopt_long() scan of what comes before the command are made from this
 * table; take_globals() finds them after it.
 */
static const struct optdef global_opts[] = {
	{ "device", 'd', 0, "DEVICE", "controller: /dev/dcmN, dcmN or N (default /dev/dcm0)" },
	{ "root", 'r', 0, "DIR", "sysfs directory of the controllers (default\n"
	  "$DCM_SYSFS_ROOT, else " DCMCTL_SYSFS_ROOT ")" },
	{ "json", 'j', 0, NULL, "JSON output" },
	{ "pretty", 'p', 0, NULL, "indent JSON output (with -j)" },
	{ "help", 'h', 0, NULL, "show this text" },
	{ "version", 'V', 0, NULL, "show the version" },
	{ NULL, 0, 0, NULL, NULL }
};

/* The columns of the options' names in the help: the global ones, a command's. */
#define GLOBAL_OPTS_WIDTH	20
#define CMD_OPTS_WIDTH		22

void dcmctl_usage(FILE *f)
{
	const struct dcmctl_cmd *c;

	fprintf(f,
		"Usage: dcmctl [OPTIONS] COMMAND [ARGS] [OPTIONS]\n"
		"       dcmctl COMMAND --help | dcmctl help COMMAND\n"
		"       dcmctl -h | -V\n"
		"\n"
		"Options (before or after the command):\n");
	optdef_print(f, global_opts, GLOBAL_OPTS_WIDTH);
	fprintf(f, "\nCommands:\n");
	for (c = dcmctl_commands; c->name; c++) {
		fprintf(f, "  %s%s", c->name, *c->args ? " " : "");
		print_indented(f, c->args, (int)strlen(c->name) + 3);
		fprintf(f, "        ");
		print_indented(f, c->help, 8);
	}
	fprintf(f,
		"\n"
		"Options and arguments may come in any order; --opt=VALUE is --opt VALUE;\n"
		"-- ends the options; a negative number is a value, not an option.\n"
		"Exit status: 0 success, 1 failure, 2 usage error.\n");
}

void dcmctl_cmd_usage(FILE *f, const struct dcmctl_cmd *c)
{
	const char *alt = c->args, *nl;

	fprintf(f, "Usage:");
	do {
		nl = strchr(alt, '\n');
		fprintf(f, " dcmctl %s%s%.*s\n", c->name, *alt ? " " : "",
			nl ? (int)(nl - alt) : (int)strlen(alt), alt);
		if (nl) {
			fprintf(f, "      ");
			alt = nl + 1;
		}
	} while (nl);
	fputc('\n', f);
	print_indented(f, c->help, 0);
	if (c->details) {
		fputc('\n', f);
		print_indented(f, c->details, 0);
	}
	if (c->spec && c->spec->opts) {
		fprintf(f, "\nOptions:\n");
		optdef_print(f, c->spec->opts, CMD_OPTS_WIDTH);
	}
	fprintf(f, "\nGlobal options (before or after the command):\n");
	optdef_print(f, global_opts, GLOBAL_OPTS_WIDTH);
	fprintf(f, "\nExit status: 0 success, 1 failure, 2 usage error.\n");
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

/* A negative number ("-1", "-.5"): a value wherever it is. */
static bool is_number(const char *a)
{
	return a[0] == '-' && ((a[1] >= '0' && a[1] <= '9') || a[1] == '.');
}

/* Does @a, one of the command's own options, take the next element as its argument? */
static bool takes_next(const struct dcmctl_optspec *spec, const char *a)
{
	const struct optdef *d;

	for (d = spec && spec->opts ? spec->opts : NULL; d && d->name; d++) {
		if (!d->arg)
			continue;
		if (a[1] == '-' && !strcmp(a + 2, d->name))
			return true;
		if (!spec->long_only && a[1] == d->letter && !a[2])
			return true;
	}
	return false;
}

/*
 * The global options among a command's @n arguments @v, before "--": taken
 * into @o and out of @v (the rest keep their order). Return the count left,
 * -1 (a usage error, in o->err), -2 (-h, --help: the command's help) or -3
 * (-V, --version).
 */
static int take_globals(struct dcmctl_opts *o, int n, char **v)
{
	const struct dcmctl_optspec *spec = o->cmd->spec;
	int i, kept = 0;

	for (i = 0; i < n; i++) {
		char *a = v[i], **dst = NULL;

		if (!strcmp(a, "--")) {
			while (i < n)
				v[kept++] = v[i++];
			break;
		}
		if (a[0] != '-' || !a[1] || is_number(a)) {
			v[kept++] = a;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return -2;
		if (!strcmp(a, "--version") || !strcmp(a, "-V"))
			return -3;
		if (!strcmp(a, "--json") || !strcmp(a, "-j")) {
			o->json = true;
			continue;
		}
		if (!strcmp(a, "--pretty") || !strcmp(a, "-p")) {
			o->pretty = true;
			continue;
		}
		if (!strcmp(a, "-jp") || !strcmp(a, "-pj")) {
			o->json = o->pretty = true;
			continue;
		}
		if (!strncmp(a, "--device", 8) && (!a[8] || a[8] == '='))
			dst = (char **)&o->device;
		else if (!strncmp(a, "--root", 6) && (!a[6] || a[6] == '='))
			dst = (char **)&o->root;
		else if (a[1] == 'd' || a[1] == 'r')
			dst = (char **)(a[1] == 'd' ? &o->device : &o->root);
		if (dst) {
			char *eq = a[1] == '-' ? strchr(a, '=') : (a[2] ? a + 2 : NULL);

			if (eq) {
				*dst = eq + (*eq == '=');
			} else if (i + 1 < n) {
				*dst = v[++i];
			} else {
				snprintf(o->err, sizeof(o->err), "option '%s' needs an argument", a);
				return -1;
			}
			continue;
		}
		v[kept++] = a;
		if (takes_next(spec, a) && i + 1 < n)
			v[kept++] = v[++i];
	}
	v[kept] = NULL;
	return kept;
}

enum dcmctl_parse_result dcmctl_parse_args(int argc, char **argv,
					   struct dcmctl_opts *o)
{
	struct option longopts[sizeof(global_opts) / sizeof(global_opts[0])];
	char shortopts[2 * sizeof(global_opts) / sizeof(global_opts[0]) + 2];
	const char *elem;
	int c, before;

	memset(o, 0, sizeof(*o));
	o->dev_index = -1;
	/* room for every letter and its ':', so it cannot fail */
	optdef_getopt(global_opts, "+:", longopts, shortopts, sizeof(shortopts));

	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	/* '+': stop at the command; ':': report missing arguments as ':' */
	for (;;) {
		before = optind;
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
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

	argc = take_globals(o, argc - optind - 1, argv + optind + 1);
	if (argc < 0)
		return argc == -2 ? DCMCTL_CMD_HELP :
		       argc == -3 ? DCMCTL_VERSION : DCMCTL_USAGE_ERROR;

	if (dcmctl_resolve_device(o->device, o->devpath, sizeof(o->devpath),
				  &o->dev_index)) {
		snprintf(o->err, sizeof(o->err), "invalid device '%s'",
			 o->device ? o->device : "");
		return DCMCTL_USAGE_ERROR;
	}

	o->argc = argc;
	o->argv = argv + optind + 1;
	return DCMCTL_RUN;
}
