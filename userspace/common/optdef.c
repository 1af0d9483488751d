// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option tables of the dcm programs: getopt_long()'s tables and the help
 * from one table (optdef.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "optdef.h"

size_t optdef_count(const struct optdef *defs)
{
	size_t n = 0;

	while (defs && defs[n].name)
		n++;
	return n;
}

int optdef_getopt(const struct optdef *defs, const char *prefix, struct option *longopts,
		  char *shortopts, size_t len)
{
	size_t i, n = optdef_count(defs), off = strlen(prefix);

	if (off >= len)
		return -ENOSPC;
	memcpy(shortopts, prefix, off);
	for (i = 0; i < n; i++) {
		const struct optdef *d = &defs[i];

		longopts[i].name = d->name;
		longopts[i].has_arg = d->arg ? required_argument : no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = d->val ? d->val : d->letter;
		if (!d->letter)
			continue;
		if (off + (d->arg ? 2 : 1) >= len)
			return -ENOSPC;
		shortopts[off++] = d->letter;
		if (d->arg)
			shortopts[off++] = ':';
	}
	memset(&longopts[n], 0, sizeof(longopts[n]));
	shortopts[off] = '\0';
	return 0;
}

void optdef_print(FILE *f, const struct optdef *defs, int width)
{
	size_t i, n = optdef_count(defs);

	for (i = 0; i < n; i++) {
		const struct optdef *d = &defs[i];
		const char *h = d->help, *nl;
		char head[64];

		if (d->letter)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", d->letter, d->name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", d->name,
				 d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "  %-*s ", width, head);
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n  %-*s ", (int)(nl - h), h, width, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
}

/* Are @a and @b one option to getopt_long() (same argument, same value)? */
static bool same_option(const struct optdef *a, const struct optdef *b)
{
	return !a->arg == !b->arg && (a->val ? a->val : a->letter) == (b->val ? b->val : b->letter);
}

/* "(--a, --b)": the options of @defs whose names start with @len bytes of @name. */
static void list_candidates(const struct optdef *defs, const char *name, size_t len,
			    char *buf, size_t size)
{
	size_t i, off = 0, n = optdef_count(defs);

	for (i = 0; i < n && off < size; i++) {
		if (strncmp(defs[i].name, name, len))
			continue;
		off += (size_t)snprintf(buf + off, size - off, "%s--%s", off ? ", " : "(",
					defs[i].name);
	}
	if (off < size)
		snprintf(buf + off, size - off, ")");
}

int optdef_find_long(const struct optdef *defs, const char *arg, char *err, size_t errlen)
{
	const char *name = arg + 2;
	size_t i, len = strcspn(name, "="), n = optdef_count(defs);
	int found = -1;
	bool ambiguous = false;
	char list[256];

	for (i = 0; i < n; i++) {
		if (strncmp(defs[i].name, name, len))
			continue;
		if (strlen(defs[i].name) == len)
			return (int)i;	/* the whole name */
		if (found < 0)
			found = (int)i;
		else if (!same_option(&defs[found], &defs[i]))
			ambiguous = true;
	}
	if (found >= 0 && !ambiguous)
		return found;
	if (found < 0) {
		snprintf(err, errlen, "unknown option '%s'", arg);
		return -ENOENT;
	}
	list_candidates(defs, name, len, list, sizeof(list));
	snprintf(err, errlen, "ambiguous option '--%.*s' %s", (int)len, name, list);
	return -EINVAL;
}

void optdef_error(const struct optdef *defs, int c, int argc, char **argv, int before,
		  char *err, size_t errlen)
{
	const char *elem;
	int i;

	if (!before)
		before = 1;
	/*
	 * A long option is done with once read: getopt_long() has moved
	 * optind past it (and past the arguments it passed over). A short
	 * one in the middle of "-xy" leaves optind where it was.
	 */
	elem = optind > before && optind - 1 < argc ? argv[optind - 1] : NULL;
	if (!elem || strncmp(elem, "--", 2) || !elem[2]) {
		snprintf(err, errlen, c == ':' ? "option '-%c' needs an argument" :
			 "unknown option '-%c'", optopt);
		return;
	}
	i = optdef_find_long(defs, elem, err, errlen);
	if (i < 0)
		return;
	snprintf(err, errlen, "option '--%s' %s", defs[i].name,
		 c == ':' ? "needs an argument" : "takes no argument");
}

int optdef_next(const struct optdef *defs, int argc, char **argv, const char *shortopts,
		const struct option *longopts, char *err, size_t errlen)
{
	int before = optind, c = getopt_long(argc, argv, shortopts, longopts, NULL);

	if (c == '?' || c == ':') {
		optdef_error(defs, c, argc, argv, before, err, errlen);
		return '?';
	}
	return c;
}
