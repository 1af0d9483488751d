// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl flight and dcmctl flight-dump: fronts of dcm-flight, the flight
 * recorder's own program (userspace/flight/). Each runs dcm-flight in its
 * own process (exec: the recorder keeps the pid the caller started, which
 * the pid file's lock and signals name) with the command's arguments, the
 * controller of -d and -r for the recorder, --dump and -j, -p for
 * flight-dump. dcm-flight is looked for beside dcmctl first (the build
 * tree's bin/, the installed bindir), then on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "commands.h"
#include "flight_opts.h"
#include "record.h"

static const struct optdef flight_opts[] = {
	FLIGHT_OPTDEF_SECONDS,
	FLIGHT_OPTDEF_AFTER(DCMCTL_OPT_AFTER),
	FLIGHT_OPTDEF_DIR,
	FLIGHT_OPTDEF_KEEP(DCMCTL_OPT_KEEP),
	FLIGHT_OPTDEF_FORMAT,
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef flight_dump_opts[] = {
	FLIGHT_OPTDEF_DIR,
	FLIGHT_OPTDEF_TIMEOUT(DCMCTL_OPT_TIMEOUT),
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec spec_flight = {
	.cmd = "flight", .opts = flight_opts, .prefix_missing = true,
};
static const struct dcmctl_optspec spec_flight_dump = {
	.cmd = "flight-dump", .opts = flight_dump_opts, .prefix_missing = true,
};

/* DIR/dcm-flight for the directory of this program, or "" when that is unknown. */
static void beside_self(char *path, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	path[0] = '\0';
	if (n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash) {
		*slash = '\0';
		snprintf(path, len, "%s/dcm-flight", self);
	}
}

/* Run dcm-flight with @head (NULL-terminated) then the command's arguments. */
static int run_flight(const struct dcmctl_opts *o, const char *const *head, FILE *err)
{
	char path[PATH_MAX + 16], **argv;
	int n = 0, i;

	argv = calloc((size_t)o->argc + 8, sizeof(*argv));
	if (!argv) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	for (i = 0; head[i]; i++)
		argv[n++] = (char *)head[i];
	for (i = 0; i < o->argc; i++)
		argv[n++] = o->argv[i];
	fflush(NULL);
	beside_self(path, sizeof(path));
	if (path[0] && !access(path, X_OK))
		execv(path, argv);
	execvp("dcm-flight", argv);
	fprintf(err, "dcmctl: %s: cannot run dcm-flight: %s\n", o->cmd ? o->cmd->name : "flight",
		strerror(errno));
	free(argv);
	return DCMCTL_EXIT_FAIL;
}

int dcmctl_flight(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const char *head[8] = { "dcm-flight", "--device", o->devpath };
	int n = 3;

	(void)out;
	if (o->root) {
		head[n++] = "--root";
		head[n++] = o->root;
	}
	if (o->json)
		head[n++] = "--json";	/* refused: the recorder's files are JSON lines */
	return run_flight(o, head, err);
}

int dcmctl_flight_dump(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const char *head[8] = { "dcm-flight", "--dump" };
	int n = 2;

	(void)out;
	if (o->json)
		head[n++] = "--json";
	if (o->pretty)
		head[n++] = "--pretty";
	return run_flight(o, head, err);
}

const struct dcmctl_command dcmctl_cmd_flight = {
	.name = "flight",
	.run = dcmctl_flight,
	.args = "[--seconds SEC] [--after SEC] [--dir DIR] [--keep N]\n"
		"[-f jsonl|mcap]",
	.help = "the flight recorder: keep the last seconds of every key in memory and\n"
		"write them, with the events around, when a safety rule acts or on\n"
		"demand (flight-dump); runs dcm-flight",
	.details = "Runs dcm-flight(8) with these arguments and the controller of -d and -r:\n"
		"until SIGINT or SIGTERM, every subdevice's value of every cycle of the\n"
		"last SEC seconds is kept; when a safety rule starts acting, a joint's\n"
		"temperature status rises or the robot falls, --after SEC seconds later\n"
		"one file is written into DIR (flight-DATE-TIME.MS-dcmN.jsonl, JSON\n"
		"lines; DIR/flight-latest.jsonl points at the newest; with -f mcap,\n"
		"flight-DATE-TIME.MS-dcmN.mcap and flight-latest.mcap: MCAP with\n"
		"dcm-web's channels and the events on /events) and its path\n"
		"printed. SIGUSR1 (or dcmctl flight-dump) writes one now. DIR/flight.pid\n"
		"holds its pid, locked. After each file, the oldest of dcmN's beyond the\n"
		"newest --keep N go.",
	.spec = &spec_flight,
};

const struct dcmctl_command dcmctl_cmd_flight_dump = {
	.name = "flight-dump",
	.run = dcmctl_flight_dump,
	.args = "[--dir DIR] [--timeout SEC]",
	.help = "ask the flight recorder of DIR for a file now; print its path\n"
		"(runs dcm-flight --dump)",
	.spec = &spec_flight_dump,
};
