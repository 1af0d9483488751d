// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the options of a subcommand, through getopt_long() and the
 * command's option table (struct dcmctl_optspec). Options and arguments
 * may mix; "--" ends the options. A long option is taken by its whole name
 * or by an abbreviation no other option of the command shares, as every
 * dcm program takes them (common/optdef.h), as "--name VALUE" or
 * "--name=VALUE"; a short option as "-c VALUE", "-cVALUE" or "-c=VALUE".
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int dcmctl_getopt_init(struct dcmctl_getopt *g, const struct dcmctl_optspec *spec, int argc,
		       char **argv, char *err, size_t errlen)
{
	static const struct option none[] = { { NULL, 0, NULL, 0 } };
	static char *dummy[] = { "dcmctl", NULL };
	size_t n = optdef_count(spec->opts);

	memset(g, 0, sizeof(*g));
	g->spec = spec;
	g->argc = argc;
	/* getopt's view: the command's name first, as argv[0] */
	g->v = calloc((size_t)argc + 2, sizeof(*g->v));
	g->args = calloc((size_t)argc + 1, sizeof(*g->args));
	g->longopts = calloc(n + 1, sizeof(*g->longopts));
	g->shortopts = malloc(2 * n + 3);
	if (!g->v || !g->args || !g->longopts || !g->shortopts) {
		dcmctl_getopt_free(g);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	g->v[0] = (char *)spec->cmd;
	if (argc > 0)
		memcpy(g->v + 1, argv, (size_t)argc * sizeof(*argv));
	/* room for every letter and its ':', so it cannot fail */
	optdef_getopt(spec->opts, "+:", g->longopts, g->shortopts, 2 * n + 3);
	/*
	 * Start getopt afresh (glibc: optind 0), here and not in the first
	 * dcmctl_getopt(): a scan that ended in the middle of "-xy" must not
	 * leave its place to this one.
	 */
	optind = 0;
	opterr = 0;
	getopt_long(1, dummy, "+", none, NULL);
	optind = 1;
	return 0;
}

void dcmctl_getopt_free(struct dcmctl_getopt *g)
{
	free(g->v);
	free(g->args);
	free(g->longopts);
	free(g->shortopts);
	g->v = NULL;
	g->args = NULL;
	g->longopts = NULL;
	g->shortopts = NULL;
	g->n_args = 0;
}

/* An argument, not an option: by its text and the command's rules. */
static bool is_arg(const struct dcmctl_optspec *spec, const char *a)
{
	if (a[0] != '-' || !a[1])
		return true;
	if (a[1] == '-')
		return false;	/* "--" and long options */
	if (spec->long_only)
		return true;
	return spec->numbers && ((a[1] >= '0' && a[1] <= '9') || a[1] == '.');
}

/*
 * What getopt_long() returned, @c, for the option @elem: 0 with @c's value
 * in g->optarg, or -EINVAL with the command's usage error in @err (an
 * unknown, ambiguous or missing option, an argument to a flag).
 */
static int take_option(struct dcmctl_getopt *g, int c, const char *elem, char *err,
		       size_t errlen)
{
	const struct dcmctl_optspec *spec = g->spec;
	char name[64], why[320];
	int i = -1;

	if (elem[1] == '-') {
		/* its whole name, for the messages; unknown or ambiguous */
		i = optdef_find_long(spec->opts, elem, why, sizeof(why));
		if (i < 0) {
			snprintf(err, errlen, "%s: %s", spec->cmd, why);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "--%s", spec->opts[i].name);
		if (c == '?') {
			/* "--flag=value" */
			snprintf(err, errlen, "%s: option '%s' takes no argument", spec->cmd, name);
			return -EINVAL;
		}
	} else {
		snprintf(name, sizeof(name), "-%c", c == '?' || c == ':' ? optopt : c);
	}
	if (c == '?') {
		snprintf(err, errlen, "%s: unknown option '%s'", spec->cmd, name);
		return -EINVAL;
	}
	if (c == ':' || (spec->no_empty && optarg && !*optarg)) {
		snprintf(err, errlen, "%s%soption '%s' needs an argument",
			 spec->prefix_missing ? spec->cmd : "", spec->prefix_missing ? ": " : "",
			 name);
		return -EINVAL;
	}
	g->optarg = optarg;
	/* "-c=5" as "--cycles=5" */
	if (i < 0 && optarg && optarg[0] == '=' && optarg > elem && optarg < elem + strlen(elem))
		g->optarg = optarg + 1;
	return 0;
}

int dcmctl_getopt(struct dcmctl_getopt *g, char *err, size_t errlen)
{
	const struct dcmctl_optspec *spec = g->spec;
	int argc = g->argc + 1;

	for (;;) {
		int before = optind, c;
		const char *elem;

		if (before >= argc)
			return 0;
		elem = g->v[before];
		if (g->end || is_arg(spec, elem) || (spec->in_order && g->n_args)) {
			g->args[g->n_args++] = g->v[before];
			optind = before + 1;
			continue;
		}
		c = getopt_long(argc, g->v, g->shortopts, g->longopts, NULL);
		if (c != -1)
			return take_option(g, c, elem, err, errlen) ? -EINVAL : c;
		if (optind == before) {
			/* not an option to getopt either: an argument */
			g->args[g->n_args++] = g->v[optind++];
			continue;
		}
		/* "--": the rest are arguments */
		g->end = true;
	}
}
