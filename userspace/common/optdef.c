// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Option tables of the dcm programs: getopt_long()'s tables and the help
 * from one table (optdef.h).
 */
#include <errno.h>
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
