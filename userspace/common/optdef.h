/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option tables of the dcm programs (dcmd, dcmctl, dcm-web, dcm-lola,
 * dcm-physics, dcm-flight): one table per program or command gives
 * getopt_long()'s tables and the options' part of the help, so that the
 * two never differ, and the words of a usage error.
 *
 * Every program takes a long option by its whole name or by an
 * abbreviation no other option of the table shares (getopt_long()'s rule:
 * a whole name wins over the longer names it starts, "--time" is --time
 * beside --times); an abbreviation two options share is an error that
 * names both (optdef_find_long()).
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

/*
 * The option of @defs the long option @arg ("--NAME" or "--NAME=VALUE")
 * names, by its whole name or an abbreviation of one (two entries with the
 * same val and argument are one option, as for getopt_long()). Return its
 * index in @defs, or with the reason in @err -ENOENT ("unknown option
 * '--x'") or -EINVAL ("ambiguous option '--t' (--times, --timeout)").
 */
int optdef_find_long(const struct optdef *defs, const char *arg, char *err, size_t errlen);

/*
 * The usage error getopt_long() returned ('?' or ':', @c; call it before
 * the next getopt_long()) on @argc/@argv scanned with @defs's tables
 * (@before: optind before that call, 0 read as 1), into @err: "unknown
 * option '-x'", "option '-x' needs an argument", and for a long option
 * optdef_find_long()'s errors, "option '--name' needs an argument" or
 * "option '--name' takes no argument" (the whole name, also when it was
 * abbreviated).
 */
void optdef_error(const struct optdef *defs, int c, int argc, char **argv, int before,
		  char *err, size_t errlen);

/*
 * The programs' scan: getopt_long() on @argc/@argv with @defs's tables
 * (optdef_getopt()'s, their prefix with ':' so that a missing argument is
 * told apart). Return what getopt_long() returns, except that every usage
 * error is '?', said in @err by optdef_error().
 */
int optdef_next(const struct optdef *defs, int argc, char **argv, const char *shortopts,
		const struct option *longopts, char *err, size_t errlen);

#endif /* DCM_OPTDEF_H */
