/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl: what every command builds on, below the commands: a command
 * (struct dcmctl_command), the command line and the global options
 * (args.c), a command's own options (opts.c), opening the controller
 * and its sysfs tree.
 */
#ifndef DCMCTL_CMD_H
#define DCMCTL_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "libdcm.h"
#include "optdef.h"

/* Exit codes */
#define DCMCTL_EXIT_OK		0
#define DCMCTL_EXIT_FAIL	1	/* the command ran and something failed */
#define DCMCTL_EXIT_USAGE	2	/* bad command line */

struct dcmctl_opts;
struct dcmctl_optspec;

/*
 * A command: its name, what runs it, and what its help, its usage errors
 * and the option scan are made of (its synopsis, its text, its options).
 */
struct dcmctl_command {
	const char *name;
	/*
	 * Runs the command; o->argc/o->argv hold its arguments; its output
	 * goes to @out, its messages to @err (stdout and stderr, but in the
	 * unit tests). Returns an exit code.
	 */
	int (*run)(const struct dcmctl_opts *o, FILE *out, FILE *err);
	const char *args;	/* argument synopsis, "" if none */
	const char *help;	/* one line (or a few), for dcmctl --help */
	const char *details;	/* more, for COMMAND --help; NULL: none */
	const struct dcmctl_optspec *spec;	/* its options; NULL: none */
};

/*
 * Each command defines its struct dcmctl_command in its own file (keys.c:
 * dcmctl_cmd_get, ...); commands.c lists them in dcmctl_commands[], which
 * main.c hands to dcmctl_parse_args(). Nothing here knows a command.
 */

/* Where the controllers' sysfs directories are (-r, $DCM_SYSFS_ROOT). */
#define DCMCTL_SYSFS_ROOT	LIBDCM_SYSFS_ROOT

struct dcmctl_opts {
	bool json;
	bool pretty;
	const char *device;		/* -d as given, NULL if none */
	const char *root;		/* -r as given, NULL if none */
	char devpath[256];		/* resolved device node */
	long dev_index;			/* controller index, -1 if unknown */
	const struct dcmctl_command *cmd;
	/* the command table the command was found in (help lists it) */
	const struct dcmctl_command *const *commands;
	int argc;			/* arguments after the command name */
	char **argv;
	char err[256];			/* why parsing failed */
};

enum dcmctl_parse_result {
	DCMCTL_RUN,		/* run o->cmd */
	DCMCTL_HELP,		/* -h: usage to stdout, exit 0 */
	DCMCTL_VERSION,		/* -V: version to stdout, exit 0 */
	DCMCTL_USAGE_ERROR,	/* o->err says why; usage to stderr, exit 2 */
	DCMCTL_CMD_HELP,	/* COMMAND --help: o->cmd's help to stdout, exit 0 */
};

/*
 * Parse the global options and find the command. Does not print. Uses
 * getopt_long() (resets it first) up to the command; after it, the global
 * options (-d, -r, -j, -p) are taken out of the command's arguments
 * wherever they are (before "--"), and -h/--help asks for the command's
 * help. @argv is reordered in place: o->argv is what the command gets.
 */
enum dcmctl_parse_result dcmctl_parse_args(const struct dcmctl_command *const *cmds, int argc,
					   char **argv, struct dcmctl_opts *o);

/*
 * Find a command of @cmds (NULL-terminated) by exact name or unique
 * prefix. On failure returns NULL and writes the reason to @err.
 */
const struct dcmctl_command *dcmctl_find_cmd(const struct dcmctl_command *const *cmds,
					     const char *name, char *err, size_t errlen);

/*
 * Resolve -d: NULL -> /dev/dcm0; "N" or "dcmN" -> /dev/dcmN; a path is
 * kept. @index gets N when the name tells it, else -1.
 * Return: 0, or -EINVAL for an empty or over-long name.
 */
int dcmctl_resolve_device(const char *arg, char *path, size_t len,
			  long *index);

/* dcmctl --help: the global options and the commands of @cmds. */
void dcmctl_usage(FILE *f, const struct dcmctl_command *const *cmds);

/*
 * The arguments of command @cmd, which has no options of its own: "--"
 * taken out, any other option refused, at most @max arguments, left in
 * o->argv (in order) and their count in *@n. On a usage error says why on
 * @err and returns -EINVAL; -ENOMEM.
 */
int dcmctl_plain_args(const struct dcmctl_opts *o, const char *cmd, int max, int *n,
		      FILE *err);

/* COMMAND --help, help COMMAND: @c's synopsis, text and options. */
void dcmctl_cmd_usage(FILE *f, const struct dcmctl_command *c);

/* ------------------------------------------------------------------
 * The options of a subcommand (opts.c): one getopt_long() loop for all
 */

/* A subcommand's option table and its rules. */
struct dcmctl_optspec {
	const char *cmd;		/* names it in messages: "set", "alias set" */
	const struct optdef *opts;	/* NULL: none; its val: what dcmctl_getopt() returns */
	bool numbers;			/* "-1", "-.5" are arguments, not options */
	bool long_only;			/* only "--name" is an option; "-x" is an argument */
	bool in_order;			/* options only before the first argument */
	bool no_empty;			/* an empty option argument is a missing one */
	bool prefix_missing;		/* "CMD: option '--x' needs an argument" */
};

/* The long options' values (optdef.val) beyond the letters. */
enum {
	DCMCTL_OPT_KIND = 0x100,
	DCMCTL_OPT_IMPORTANCE,
	DCMCTL_OPT_AT,
	DCMCTL_OPT_IN,
	DCMCTL_OPT_TIMES,
	DCMCTL_OPT_SEPARATE,
	DCMCTL_OPT_MIXED,
	DCMCTL_OPT_TIMEOUT,
	DCMCTL_OPT_FILE,
	DCMCTL_OPT_TYPE,
	DCMCTL_OPT_DEVICE_XML,
	DCMCTL_OPT_SCHEMAS,
	DCMCTL_OPT_ETC,
	DCMCTL_OPT_SHARE,
	DCMCTL_OPT_FORCE,
	DCMCTL_OPT_TOLERANCE,
	DCMCTL_OPT_HISTORY,
	DCMCTL_OPT_MAX_SIZE,
	DCMCTL_OPT_MAX_FILES,
	DCMCTL_OPT_AFTER,
	DCMCTL_OPT_DIR,
	DCMCTL_OPT_KEEP,
};

/* A scan of a subcommand's arguments. */
struct dcmctl_getopt {
	const struct dcmctl_optspec *spec;
	const char *optarg;		/* the last option's argument; NULL: none */
	char **args;			/* the arguments, in order (into argv) */
	int n_args;
	/* private */
	int argc;
	char **v;
	struct option *longopts;	/* built from spec->opts */
	char *shortopts;		/* "+:" and the letters */
	bool end;
};

/*
 * Start scanning @argc/@argv (what follows the subcommand's name) by
 * @spec's rules. Return 0 or -ENOMEM ("out of memory" in @err). Free with
 * dcmctl_getopt_free().
 */
int dcmctl_getopt_init(struct dcmctl_getopt *g, const struct dcmctl_optspec *spec, int argc,
		       char **argv, char *err, size_t errlen);
void dcmctl_getopt_free(struct dcmctl_getopt *g);

/*
 * The next option: its value (getopt_long()'s: the letter or the long
 * option's val), its argument in @g->optarg; the arguments met on the way
 * are added to @g->args. Return: the option (> 0), 0 at the end, -EINVAL
 * (an unknown option, a missing argument: the reason in @err).
 */
int dcmctl_getopt(struct dcmctl_getopt *g, char *err, size_t errlen);

/* ------------------------------------------------------------------
 * Opening the controller and its sysfs tree (args.c)
 */

/*
 * Open the controller of -d for the ioctls. On failure prints
 * "dcmctl: <why> (<hint>)" on @err and returns -errno.
 */
int dcmctl_open(const struct dcmctl_opts *o, struct dcm **dcm, FILE *err);

/* " (is dcm.ko loaded?)" and the like for a failed open of @path, or "". */
const char *dcmctl_open_hint(const char *path, int err);

/*
 * The controller's key tree in sysfs (-r, -d): a libdcm handle, or NULL
 * with the reason on @err.
 */
struct dcm_sysfs *dcmctl_open_sysfs(const struct dcmctl_opts *o, FILE *err);

/* -r, else $DCM_SYSFS_ROOT, else /sys/class/dcm (dcm_sysfs_root()). */
const char *dcmctl_sysfs_root(const struct dcmctl_opts *o);

#endif /* DCMCTL_CMD_H */
