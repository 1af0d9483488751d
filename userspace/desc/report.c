// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every step of loading a robot description reports: messages to the
 * caller's log, errors at a file and line, and allocation failures, which
 * end the load as out of memory (desc-internal.h). Below the steps
 * (load.c, parts.c, ...), which all call it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "desc-internal.h"

/* A message to the opts' log, if any. */
void desc_logf(struct loader *l, int level, const char *fmt, ...)
{
	va_list ap;
	char *m;

	if (!l->o->log)
		return;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) >= 0) {
		l->o->log(l->o->log_arg, level, m);
		free(m);
	}
	va_end(ap);
}

/* An error at @src: "FILE:LINE: message" ("FILE: message" without a line). */
void desc_errf(struct loader *l, const struct desc_src *src, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0) {
		va_end(ap);
		l->oom = true;
		return;
	}
	va_end(ap);
	if (src->line > 0)
		desc_errors_add(l->errs, "%s:%d: %s", src->file, src->line, m);
	else
		desc_errors_add(l->errs, "%s: %s", src->file, m);
	free(m);
}

/* strdup(), @l->oom set on failure. */
char *desc_xstrdup(struct loader *l, const char *s)
{
	char *r = strdup(s);

	if (!r)
		l->oom = true;
	return r;
}
