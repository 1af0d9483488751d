/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option tables of the dcm programs (dcmd, dcmctl, dcm-web, dcm-lola,
 * dcm-physics): one table per program or command gives getopt_long()'s
 * tables and the options' part of the help, so that the two never differ.
 */
#ifndef DCM_OPTDEF_H
#define DCM_OPTDEF_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

/* One option. A table ends with an entry whose @name is NULL. */
struct optdef {
	const char *name;	/* long name, without "--" */
	char letter;		/* short option; 0: none (long only) */
	int val;		/* what getopt_long() returns for it; 0: @letter */
	const char *arg;	/* its argument's name in the help; NULL: a flag */
	const char *help;	/* one line, or lines split by '\n' */
};

/* The options of @defs (NULL: none). */
size_t optdef_count(const struct optdef *defs);

/*
 * getopt_long()'s tables for @defs: @longopts, optdef_count(@defs) + 1
 * entries, ends with a zeroed one; @shortopts (@len bytes) is @prefix
 * ("+:", ":" or "") and each letter, with ':' after those that take an
 * argument. Return 0, or -ENOSPC when @shortopts is too small.
 */
int optdef_getopt(const struct optdef *defs, const char *prefix, struct option *longopts,
		  char *shortopts, size_t len);

/*
 * The help of @defs, an option a line: two spaces, "-x, --name ARG" (or
 * "    --name ARG" without a letter) padded to @width, a space and its
 * help; a help's further lines start under its first.
 */
void optdef_print(FILE *f, const struct optdef *defs, int width);

#endif /* DCM_OPTDEF_H */
