/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl: the arguments of set, alias set and watch, and their option
 * tables (parse.c).
 */
#ifndef DCMCTL_PARSE_H
#define DCMCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd.h"
#include "libdcm.h"

/* Argument parsers (parse.c). Each returns 0, -EINVAL or -ERANGE. */

/* A value: decimal text as dcm_fixed_from_string() takes it (no nan/inf). */
int dcmctl_parse_value(const char *s, double *out);
/* Milliseconds, a signed 32-bit decimal (a relative time). */
int dcmctl_parse_ms(const char *s, int32_t *out);
/* A DCM time, 0 to 4294967295 (an absolute time). */
int dcmctl_parse_dcm_time(const char *s, uint32_t *out);
/*
 * An update kind: clear-all, merge, clear-after, clear-before (also
 * NAOqi's ClearAll, Merge, ClearAfter, ClearBefore: case, '-' and '_' do
 * not matter).
 */
int dcmctl_parse_kind(const char *s, enum dcm_update_kind *out);
const char *dcmctl_kind_name(enum dcm_update_kind kind);
/* An importance, 0 to 7. */
int dcmctl_parse_importance(const char *s, uint8_t *out);

/* A command point before the base time is known: @offset ms after it. */
struct dcmctl_point {
	double value;
	int32_t offset;
};

/* "VALUE@MS": both parts required. */
int dcmctl_parse_point(const char *s, struct dcmctl_point *p);
/*
 * Comma-separated lists into malloc'ed arrays (*@out, *@n); "" is an
 * empty list. Return: 0, -EINVAL (or -ERANGE) with @bad set to the
 * offending item's index, -ENOMEM.
 */
int dcmctl_parse_value_list(const char *s, double **out, size_t *n, size_t *bad);
int dcmctl_parse_ms_list(const char *s, int32_t **out, size_t *n, size_t *bad);
int dcmctl_parse_point_list(const char *s, struct dcmctl_point **out, size_t *n,
			    size_t *bad);

/* How a command's times are given: the base every offset is added to. */
enum dcmctl_base {
	DCMCTL_BASE_NOW,	/* DCM time now (default) */
	DCMCTL_BASE_IN,		/* --in MS: now + MS */
	DCMCTL_BASE_AT,		/* --at T: the DCM time T */
};

/* Options shared by set and alias set. */
struct dcmctl_timing {
	enum dcm_update_kind kind;	/* --kind, default clear-all */
	uint8_t importance;		/* --importance, default 0 */
	enum dcmctl_base base;
	int32_t in_ms;			/* --in */
	uint32_t at;			/* --at */
};

/* The base time of @t given DCM time @now. */
uint32_t dcmctl_base_time(const struct dcmctl_timing *t, uint32_t now);

/* dcmctl set KEY VALUE | KEY VALUE@MS... [options] */
struct dcmctl_set_args {
	struct dcmctl_timing t;
	const char *key;		/* NULL: none given */
	size_t n_values;
	char **values;			/* the arguments after KEY (malloc'ed, into argv) */
	unsigned int n_opts;		/* options given */
	int bad_opt;			/* the first option with a bad value, 0: none */
	const char *bad_arg;		/* its value */
	bool at, in;			/* --at, --in given */
	size_t n;
	struct dcmctl_point *points;	/* malloc'ed, by dcmctl_set_points() */
};

/* dcmctl alias set NAME --separate|--mixed ... */
struct dcmctl_alias_set_args {
	struct dcmctl_timing t;
	const char *name;
	bool separate;
	size_t n_members;
	/* --separate */
	size_t n_times;
	int32_t *times;			/* offsets from the base */
	double *values;			/* [member][time] */
	/* --mixed */
	size_t *counts;			/* points per member */
	struct dcmctl_point *points;	/* member after member */
};

/* dcmctl watch KEY... [--cycles N] */
struct dcmctl_watch_args {
	uint64_t cycles;		/* 0: until interrupted */
	size_t n;
	char **keys;			/* into argv */
};

/*
 * Parse a command's arguments (@argc/@argv: what follows the command name,
 * and for alias set what follows "set"). Return: 0, or -EINVAL (usage
 * error, the reason in @err), -ENOMEM. Free with the matching _free().
 */
int dcmctl_parse_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		     size_t errlen);
/*
 * The two halves of dcmctl_parse_set(), for a command line whose values are
 * read by the key's kind: dcmctl_scan_set() reads it once (the options, the
 * key, the values' texts; -EINVAL only for an unknown option or a missing
 * argument), dcmctl_set_points() takes the options and values as timed
 * points (a bad option value, VALUE or VALUE@MS...: -EINVAL, the reason in
 * @err). Free with dcmctl_set_args_free() either way.
 */
int dcmctl_scan_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		    size_t errlen);
int dcmctl_set_points(struct dcmctl_set_args *a, char *err, size_t errlen);
void dcmctl_set_args_free(struct dcmctl_set_args *a);
int dcmctl_parse_alias_set(int argc, char **argv, struct dcmctl_alias_set_args *a,
			   char *err, size_t errlen);
void dcmctl_alias_set_args_free(struct dcmctl_alias_set_args *a);
int dcmctl_parse_watch(int argc, char **argv, struct dcmctl_watch_args *a, char *err,
		       size_t errlen);
void dcmctl_watch_args_free(struct dcmctl_watch_args *a);

/* The options of set, alias set and watch. */
extern const struct dcmctl_optspec dcmctl_spec_set, dcmctl_spec_alias_set, dcmctl_spec_watch;

#endif /* DCMCTL_PARSE_H */
