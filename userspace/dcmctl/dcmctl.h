/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl - command-line tool for the dcm driver (ip/ethtool style).
 */
#ifndef DCMCTL_H
#define DCMCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"
#include "json.h"

/* Exit codes */
#define DCMCTL_EXIT_OK		0
#define DCMCTL_EXIT_FAIL	1	/* the command ran and something failed */
#define DCMCTL_EXIT_USAGE	2	/* bad command line */

struct dcmctl_opts;

struct dcmctl_cmd {
	const char *name;
	/*
	 * Runs the command; o->argc/o->argv hold its arguments. Returns an
	 * exit code.
	 */
	int (*run)(const struct dcmctl_opts *o);
	const char *args;	/* argument synopsis, "" if none */
	const char *help;	/* one line */
};

/* The command table, NULL-terminated (commands.c). */
extern const struct dcmctl_cmd dcmctl_commands[];

/* Where the controllers' sysfs directories are (-r, $DCM_SYSFS_ROOT). */
#define DCMCTL_SYSFS_ROOT	"/sys/class/dcm"

struct dcmctl_opts {
	bool json;
	bool pretty;
	const char *device;		/* -d as given, NULL if none */
	const char *root;		/* -r as given, NULL if none */
	char devpath[256];		/* resolved device node */
	long dev_index;			/* controller index, -1 if unknown */
	const struct dcmctl_cmd *cmd;
	int argc;			/* arguments after the command name */
	char **argv;
	char err[256];			/* why parsing failed */
};

enum dcmctl_parse_result {
	DCMCTL_RUN,		/* run o->cmd */
	DCMCTL_HELP,		/* -h: usage to stdout, exit 0 */
	DCMCTL_VERSION,		/* -V: version to stdout, exit 0 */
	DCMCTL_USAGE_ERROR,	/* o->err says why; usage to stderr, exit 2 */
};

/*
 * Parse the global options and find the command. Does not print. Uses
 * getopt_long() (resets it first), stops at the first non-option.
 */
enum dcmctl_parse_result dcmctl_parse_args(int argc, char **argv,
					   struct dcmctl_opts *o);

/*
 * Find a command by exact name or unique prefix. On failure returns NULL
 * and writes the reason to @err.
 */
const struct dcmctl_cmd *dcmctl_find_cmd(const char *name, char *err,
					 size_t errlen);

/*
 * Resolve -d: NULL -> /dev/dcm0; "N" or "dcmN" -> /dev/dcmN; a path is
 * kept. @index gets N when the name tells it, else -1.
 * Return: 0, or -EINVAL for an empty or over-long name.
 */
int dcmctl_resolve_device(const char *arg, char *path, size_t len,
			  long *index);

void dcmctl_usage(FILE *f);

/* Output helpers (info.c), exposed for the unit tests. */
void dcmctl_format_flags(uint32_t flags, char *buf, size_t len);
void dcmctl_print_info_text(FILE *f, const struct dcm_info *info);
void dcmctl_json_info(struct json_writer *w, const struct dcm_info *info);

int dcmctl_cmd_info(const struct dcmctl_opts *o);

/* The key tree in sysfs (keys.c). */
int dcmctl_cmd_list(const struct dcmctl_opts *o);
int dcmctl_cmd_get(const struct dcmctl_opts *o);
int dcmctl_cmd_tree(const struct dcmctl_opts *o);

/* The same, writing to @out and @err (for the unit tests). */
int dcmctl_list(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_get(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_tree(const struct dcmctl_opts *o, FILE *out, FILE *err);

/* -r, else $DCM_SYSFS_ROOT, else DCMCTL_SYSFS_ROOT. */
const char *dcmctl_sysfs_root(const struct dcmctl_opts *o);

/*
 * The file of a key, relative to the controller's directory:
 * "Device/SubDeviceList/<x>" and "<x>" -> "SubDeviceList/<x>",
 * "Device/DeviceList/<x>" -> "DeviceList/<x>", "RobotConfig/<x>" ->
 * "RobotConfig/<x>". Return: 0; -EINVAL for an empty or absolute key, an
 * empty, "." or ".." component, or a trailing '/'; -ENAMETOOLONG.
 */
int dcmctl_key_to_path(const char *key, char *rel, size_t len);

#endif /* DCMCTL_H */
