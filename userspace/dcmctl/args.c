// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: what the commands build on, and call: the command line up to the
 * command, the global options after it, the help made from a command table
 * (given: this file knows no command), the arguments of a command without
 * options, and opening the controller (-d) and its sysfs tree (-r).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdcm.h"
#include "num.h"
#include "optdef.h"
#include "cmd.h"

int dcmctl_plain_args(const struct dcmctl_opts *o, const char *cmd, int max, int *n, FILE *err)
{
	const struct dcmctl_optspec spec = { .cmd = cmd, .numbers = true };
	struct dcmctl_getopt g;
	char msg[256];
	int c;

	*n = 0;
	if (dcmctl_getopt_init(&g, &spec, o->argc, o->argv, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
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

void dcmctl_usage(FILE *f, const struct dcmctl_command *const *cmds)
{
	const struct dcmctl_command *const *cp, *c;

	fprintf(f,
		"Usage: dcmctl [OPTIONS] COMMAND [ARGS] [OPTIONS]\n"
		"       dcmctl COMMAND --help | dcmctl help COMMAND\n"
		"       dcmctl -h | -V\n"
		"\n"
		"Options (before or after the command):\n");
	optdef_print(f, global_opts, GLOBAL_OPTS_WIDTH);
	fprintf(f, "\nCommands:\n");
	for (cp = cmds; (c = *cp); cp++) {
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

void dcmctl_cmd_usage(FILE *f, const struct dcmctl_command *c)
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

const struct dcmctl_command *dcmctl_find_cmd(const struct dcmctl_command *const *cmds,
					     const char *name, char *err, size_t errlen)
{
	const struct dcmctl_command *const *cp, *c, *found = NULL;
	size_t len = strlen(name);
	int matches = 0;

	if (len == 0) {
		snprintf(err, errlen, "empty command");
		return NULL;
	}
	for (cp = cmds; (c = *cp); cp++) {
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
		for (cp = cmds; (c = *cp); cp++) {
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

/* A controller index: decimal digits only, no sign; -1 if @s is none. */
static long parse_index(const char *s)
{
	unsigned long long v;

	return num_parse_count(s, 0, UINT_MAX, &v) ? -1 : (long)v;
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

/* A negative number ("-1", "-.5"): a value wherever it is. */
static bool is_number(const char *a)
{
	return a[0] == '-' && ((a[1] >= '0' && a[1] <= '9') || a[1] == '.');
}

/* Does the short option @a, one of the command's own, take the next element as its argument? */
static bool takes_next(const struct dcmctl_optspec *spec, const char *a)
{
	const struct optdef *d;

	for (d = spec && spec->opts ? spec->opts : NULL; d && d->name; d++) {
		if (d->arg && !spec->long_only && a[1] == d->letter && !a[2])
			return true;
	}
	return false;
}

/*
 * The long option @a among the command's words, looked up in the global
 * options and the command's together (the global ones first): an
 * abbreviation two of them share is an error wherever it stands. Return 0
 * with *@def its entry (NULL: unknown to both, the command's scan says so)
 * and *@global whether it is a global one, or -1 (ambiguous, out of
 * memory: the reason in o->err).
 */
static int find_long_word(struct dcmctl_opts *o, const char *a, const struct optdef **def,
			  bool *global)
{
	const struct optdef *cmd = o->cmd->spec ? o->cmd->spec->opts : NULL;
	size_t ng = optdef_count(global_opts), nc = optdef_count(cmd);
	struct optdef *all = calloc(ng + nc + 1, sizeof(*all));
	char why[sizeof(o->err) / 2];
	int i;

	*def = NULL;
	if (!all) {
		snprintf(o->err, sizeof(o->err), "out of memory");
		return -1;
	}
	memcpy(all, global_opts, ng * sizeof(*all));
	if (nc)
		memcpy(all + ng, cmd, nc * sizeof(*all));
	i = optdef_find_long(all, a, why, sizeof(why));
	free(all);
	if (i == -EINVAL) {
		snprintf(o->err, sizeof(o->err), "%s: %s", o->cmd->name, why);
		return -1;
	}
	if (i >= 0) {
		*global = (size_t)i < ng;
		*def = *global ? &global_opts[i] : &cmd[(size_t)i - ng];
	}
	return 0;
}

/*
 * The global option @letter, written @a (@def: its entry when written
 * long), at v[*@i] of @n: into @o, its value the rest of @a or the next
 * word (*@i moves past it). Return 0, or take_globals()'s -1, -2, -3.
 */
static int take_global(struct dcmctl_opts *o, int letter, const char *a,
		       const struct optdef *def, char **v, int n, int *i)
{
	const char **dst = letter == 'd' ? &o->device : &o->root;
	const char *eq = def ? strchr(a, '=') : (a[2] ? a + 2 : NULL);

	switch (letter) {
	case 'h':
		return -2;
	case 'V':
		return -3;
	case 'j':
		o->json = true;
		return 0;
	case 'p':
		o->pretty = true;
		return 0;
	}
	if (eq) {
		*dst = eq + (*eq == '=');
	} else if (*i + 1 < n) {
		*dst = v[++*i];
	} else if (def) {
		snprintf(o->err, sizeof(o->err), "option '--%s' needs an argument", def->name);
		return -1;
	} else {
		snprintf(o->err, sizeof(o->err), "option '%s' needs an argument", a);
		return -1;
	}
	return 0;
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
	int i, r, kept = 0;

	for (i = 0; i < n; i++) {
		const struct optdef *def = NULL;
		bool global = false;
		char *a = v[i];
		int letter;

		if (!strcmp(a, "--")) {
			while (i < n)
				v[kept++] = v[i++];
			break;
		}
		if (a[0] != '-' || !a[1] || is_number(a)) {
			v[kept++] = a;
			continue;
		}
		if (a[1] == '-') {
			if (find_long_word(o, a, &def, &global))
				return -1;
			if (!global) {
				/* the command's, or unknown: its scan reads it */
				v[kept++] = a;
				if (def && def->arg && !strchr(a, '=') && i + 1 < n)
					v[kept++] = v[++i];
				continue;
			}
			if (!def->arg && strchr(a, '=')) {
				snprintf(o->err, sizeof(o->err), "option '--%s' takes no argument",
					 def->name);
				return -1;
			}
			letter = def->letter;
		} else if (!strcmp(a, "-jp") || !strcmp(a, "-pj")) {
			o->json = o->pretty = true;
			continue;
		} else if (a[1] == 'd' || a[1] == 'r' || (strchr("hVjp", a[1]) && !a[2])) {
			letter = a[1];
		} else {
			v[kept++] = a;
			if (takes_next(spec, a) && i + 1 < n)
				v[kept++] = v[++i];
			continue;
		}
		r = take_global(o, letter, a, def, v, n, &i);
		if (r)
			return r;
	}
	v[kept] = NULL;
	return kept;
}

/*
 * The global options are read: argv[0] names the command, the rest are
 * its words, where the global options may still come.
 */
static enum dcmctl_parse_result take_command(struct dcmctl_opts *o, int argc, char **argv)
{
	if (argc <= 0) {
		snprintf(o->err, sizeof(o->err), "no command given");
		return DCMCTL_USAGE_ERROR;
	}
	o->cmd = dcmctl_find_cmd(o->commands, argv[0], o->err, sizeof(o->err));
	if (!o->cmd)
		return DCMCTL_USAGE_ERROR;

	argc = take_globals(o, argc - 1, argv + 1);
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
	o->argv = argv + 1;
	return DCMCTL_RUN;
}

enum dcmctl_parse_result dcmctl_parse_args(const struct dcmctl_command *const *cmds, int argc,
					   char **argv, struct dcmctl_opts *o)
{
	struct option longopts[sizeof(global_opts) / sizeof(global_opts[0])];
	char shortopts[2 * sizeof(global_opts) / sizeof(global_opts[0]) + 2];
	int c, before;

	memset(o, 0, sizeof(*o));
	o->dev_index = -1;
	o->commands = cmds;
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
		default:
			optdef_error(global_opts, c, argc, argv, before, o->err, sizeof(o->err));
			return DCMCTL_USAGE_ERROR;
		}
	}

	return take_command(o, argc - optind, argv + optind);
}

/* ------------------------------------------------------------------
 * Opening the controller (-d) and its sysfs tree (-r)
 */

const char *dcmctl_open_hint(const char *path, int err)
{
	switch (err) {
	case -ENOENT:
		/* only for the driver's own nodes, not a mistyped path */
		if (strncmp(path, "/dev/dcm", 8) != 0)
			return "";
		return access("/sys/module/dcm", F_OK) == 0 ?
		       " (no such controller)" : " (is dcm.ko loaded?)";
	case -EACCES:
	case -EPERM:
		return " (permission denied: run as root or check the device's mode)";
	default:
		return "";
	}
}

int dcmctl_open(const struct dcmctl_opts *o, struct dcm **dcm, FILE *err)
{
	int r = dcm_open(o->devpath, dcm);

	if (r)
		fprintf(err, "dcmctl: %s%s\n", dcm_last_error(), dcmctl_open_hint(o->devpath, r));
	return r;
}

const char *dcmctl_sysfs_root(const struct dcmctl_opts *o)
{
	return dcm_sysfs_root(o->root);
}

struct dcm_sysfs *dcmctl_open_sysfs(const struct dcmctl_opts *o, FILE *err)
{
	struct dcm_sysfs *s;

	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: cannot tell the controller index of '%s': use -d dcmN\n",
			o->device);
		return NULL;
	}
	if (dcm_sysfs_open(o->root, (unsigned int)o->dev_index, &s)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return NULL;
	}
	return s;
}

