// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the arguments of set, alias set and watch: values, times, update
 * kinds, "VALUE@MS" points and their comma-separated lists. Pure: nothing
 * here prints or talks to the kernel.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "parse.h"

/* The options of set, alias set and watch (parse.h). */
#define TIMING_OPTIONS \
	{ "at", 0, DCMCTL_OPT_AT, "T", "the base time: DCM time T (dcmctl time)" }, \
	{ "in", 0, DCMCTL_OPT_IN, "MS", "the base time: DCM time now + MS" }, \
	{ "kind", 0, DCMCTL_OPT_KIND, "KIND", \
	  "clear-all (default), merge, clear-after, clear-before" }, \
	{ "importance", 0, DCMCTL_OPT_IMPORTANCE, "N", "0 (default) to 7" }

static const struct optdef set_opts[] = {
	TIMING_OPTIONS,
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef alias_set_opts[] = {
	{ "separate", 0, DCMCTL_OPT_SEPARATE, NULL,
	  "time-separate: one time list, a value list a member" },
	{ "times", 0, DCMCTL_OPT_TIMES, "MS,...", "the times of --separate, ms after the base" },
	{ "mixed", 0, DCMCTL_OPT_MIXED, NULL, "time-mixed: one VALUE@MS,... list per member" },
	TIMING_OPTIONS,
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef watch_opts[] = {
	{ "cycles", 'c', 'c', "N", "stop after N cycles (default: until interrupted)" },
	{ NULL, 0, 0, NULL, NULL }
};

const struct dcmctl_optspec dcmctl_spec_set = {
	.cmd = "set", .opts = set_opts, .numbers = true,
};
const struct dcmctl_optspec dcmctl_spec_alias_set = {
	.cmd = "alias set", .opts = alias_set_opts, .numbers = true,
};
const struct dcmctl_optspec dcmctl_spec_watch = {
	.cmd = "watch", .opts = watch_opts, .numbers = true,
};

int dcmctl_parse_value(const char *s, double *out)
{
	int64_t v;
	int r;

	if (!s)
		return -EINVAL;
	r = dcm_fixed_from_string(s, &v);
	if (r)
		return r == -ERANGE ? -ERANGE : -EINVAL;
	*out = dcm_fixed_to_double(v);
	return 0;
}

int dcmctl_parse_ms(const char *s, int32_t *out)
{
	long long v;
	int r = num_parse_ll(s, INT32_MIN, INT32_MAX, &v);

	if (!r)
		*out = (int32_t)v;
	return r;
}

int dcmctl_parse_dcm_time(const char *s, uint32_t *out)
{
	unsigned long long v;
	int r = num_parse_ull(s, 10, 0, UINT32_MAX, &v);

	if (!r)
		*out = (uint32_t)v;
	return r;
}

static const char *const kind_names[] = {
	[LIBDCM_CLEAR_ALL] = "clear-all",
	[LIBDCM_MERGE] = "merge",
	[LIBDCM_CLEAR_AFTER] = "clear-after",
	[LIBDCM_CLEAR_BEFORE] = "clear-before",
};

#define N_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

const char *dcmctl_kind_name(enum dcm_update_kind kind)
{
	return (unsigned int)kind < N_KINDS ? kind_names[kind] : "?";
}

int dcmctl_parse_kind(const char *s, enum dcm_update_kind *out)
{
	/* libdcm's reading: without case, '-' and '_' (ClearAll, clear-all) */
	return dcm_kind_from_string(s, out) ? -EINVAL : 0;
}

int dcmctl_parse_importance(const char *s, uint8_t *out)
{
	long long v;
	int r = num_parse_ll(s, 0, LIBDCM_MAX_IMPORTANCE, &v);

	if (!r)
		*out = (uint8_t)v;
	return r;
}

int dcmctl_parse_point(const char *s, struct dcmctl_point *p)
{
	const char *at;
	char *v;
	int r;

	if (!s)
		return -EINVAL;
	at = strchr(s, '@');
	if (!at || at == s || !at[1] || strchr(at + 1, '@'))
		return -EINVAL;
	v = strndup(s, (size_t)(at - s));
	if (!v)
		return -ENOMEM;
	r = dcmctl_parse_value(v, &p->value);
	free(v);
	if (!r)
		r = dcmctl_parse_ms(at + 1, &p->offset);
	return r;
}

/*
 * Split @s at commas and parse each item with @parse into an array of
 * @size-byte elements.
 */
static int parse_list(const char *s, size_t size, int (*parse)(const char *, void *),
		      void **out, size_t *n, size_t *bad)
{
	size_t count = 1, i = 0;
	char *copy, *item, *next;
	void *arr;
	int r = 0;

	*out = NULL;
	*n = 0;
	if (!s)
		return -EINVAL;
	if (!*s)
		return 0;
	for (const char *p = s; *p; p++)
		count += *p == ',';
	copy = strdup(s);
	arr = calloc(count, size);
	if (!copy || !arr) {
		free(copy);
		free(arr);
		return -ENOMEM;
	}
	for (item = copy; item; item = next, i++) {
		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		r = parse(item, (char *)arr + i * size);
		if (r) {
			if (bad)
				*bad = i;
			break;
		}
	}
	free(copy);
	if (r) {
		free(arr);
		return r;
	}
	*out = arr;
	*n = count;
	return 0;
}

static int parse_value_item(const char *s, void *out)
{
	return dcmctl_parse_value(s, out);
}

static int parse_ms_item(const char *s, void *out)
{
	return dcmctl_parse_ms(s, out);
}

static int parse_point_item(const char *s, void *out)
{
	return dcmctl_parse_point(s, out);
}

int dcmctl_parse_value_list(const char *s, double **out, size_t *n, size_t *bad)
{
	return parse_list(s, sizeof(**out), parse_value_item, (void **)out, n, bad);
}

int dcmctl_parse_ms_list(const char *s, int32_t **out, size_t *n, size_t *bad)
{
	return parse_list(s, sizeof(**out), parse_ms_item, (void **)out, n, bad);
}

int dcmctl_parse_point_list(const char *s, struct dcmctl_point **out, size_t *n,
			    size_t *bad)
{
	return parse_list(s, sizeof(**out), parse_point_item, (void **)out, n, bad);
}

uint32_t dcmctl_base_time(const struct dcmctl_timing *t, uint32_t now)
{
	switch (t->base) {
	case DCMCTL_BASE_IN:
		return dcm_time_add(now, t->in_ms);
	case DCMCTL_BASE_AT:
		return t->at;
	default:
		return now;
	}
}

/* ------------------------------------------------------------------
 * Command lines
 */

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -EINVAL; } while (0)

/*
 * The options of struct dcmctl_timing: @c and its value @v. Return: 1
 * (taken), 0 (not one of them), -EINVAL (bad value, reason in @err).
 */
static int timing_option(int c, const char *v, struct dcmctl_timing *t, bool *seen_at,
			 bool *seen_in, char *err, size_t errlen)
{
	switch (c) {
	case DCMCTL_OPT_KIND:
		if (dcmctl_parse_kind(v, &t->kind))
			FAIL("invalid kind '%s' (clear-all, merge, clear-after, clear-before)", v);
		return 1;
	case DCMCTL_OPT_IMPORTANCE:
		if (dcmctl_parse_importance(v, &t->importance))
			FAIL("invalid importance '%s' (0 to 7)", v);
		return 1;
	case DCMCTL_OPT_AT:
		if (dcmctl_parse_dcm_time(v, &t->at))
			FAIL("invalid DCM time '%s' for --at (0 to 4294967295 ms)", v);
		*seen_at = true;
		t->base = DCMCTL_BASE_AT;
		return 1;
	case DCMCTL_OPT_IN:
		if (dcmctl_parse_ms(v, &t->in_ms))
			FAIL("invalid time '%s' for --in (ms, a signed 32-bit number)", v);
		*seen_in = true;
		t->base = DCMCTL_BASE_IN;
		return 1;
	default:
		return 0;
	}
}

void dcmctl_set_args_free(struct dcmctl_set_args *a)
{
	free(a->points);
	a->points = NULL;
	free(a->values);
	a->values = NULL;
	a->n = a->n_values = 0;
}

int dcmctl_scan_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		    size_t errlen)
{
	struct dcmctl_getopt g;
	int i, c;

	memset(a, 0, sizeof(*a));
	a->values = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*a->values));
	if (!a->values || dcmctl_getopt_init(&g, &dcmctl_spec_set, argc, argv, err, errlen)) {
		free(a->values);
		a->values = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		a->n_opts++;
		/* A bad value is the timed command's error (set_points); a
		 * configuration key refuses every option first. */
		if (!a->bad_opt && timing_option(c, g.optarg, &a->t, &a->at, &a->in, err,
						 errlen) < 0) {
			a->bad_opt = c;
			a->bad_arg = g.optarg;
		}
	}
	if (c < 0) {
		dcmctl_getopt_free(&g);
		dcmctl_set_args_free(a);
		return -EINVAL;
	}
	for (i = 0; i < g.n_args; i++) {
		if (!a->key)
			a->key = g.args[i];
		else
			a->values[a->n_values++] = g.args[i];
	}
	dcmctl_getopt_free(&g);
	err[0] = 0;
	return 0;
}

int dcmctl_set_points(struct dcmctl_set_args *a, char *err, size_t errlen)
{
	bool bare = false, at = false, in = false;
	size_t i;
	int r;

	if (a->bad_opt) {
		struct dcmctl_timing t;

		timing_option(a->bad_opt, a->bad_arg, &t, &at, &in, err, errlen);
		return -EINVAL;
	}
	free(a->points);
	a->n = 0;
	a->points = calloc(a->n_values ? a->n_values : 1, sizeof(*a->points));
	if (!a->points) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < a->n_values; i++) {
		const char *arg = a->values[i];

		if (strchr(arg, '@')) {
			r = dcmctl_parse_point(arg, &a->points[a->n]);
			if (r)
				FAIL("set: invalid point '%s' (VALUE@MS: a decimal value, a time in ms)",
				     arg);
		} else {
			r = dcmctl_parse_value(arg, &a->points[a->n].value);
			if (r)
				FAIL("set: invalid value '%s'%s", arg,
				     r == -ERANGE ? " (out of range)" : "");
			a->points[a->n].offset = 0;
			bare = true;
		}
		a->n++;
	}
	if (a->at && a->in)
		FAIL("set: --at and --in exclude each other");
	if (!a->key)
		FAIL("set: which key? (dcmctl set KEY VALUE)");
	if (!a->n)
		FAIL("set: which value? (dcmctl set KEY VALUE)");
	if (bare && a->n > 1)
		FAIL("set: several points need their times: VALUE@MS VALUE@MS ...");
	if (a->n > LIBDCM_MAX_POINTS)
		FAIL("set: %zu points, at most %d", a->n, LIBDCM_MAX_POINTS);
	return 0;
}

int dcmctl_parse_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		     size_t errlen)
{
	int r = dcmctl_scan_set(argc, argv, a, err, errlen);

	if (r)
		return r;
	r = dcmctl_set_points(a, err, errlen);
	if (r)
		dcmctl_set_args_free(a);
	return r;
}

void dcmctl_alias_set_args_free(struct dcmctl_alias_set_args *a)
{
	free(a->times);
	free(a->values);
	free(a->counts);
	free(a->points);
	a->times = NULL;
	a->values = NULL;
	a->counts = NULL;
	a->points = NULL;
}

/* Append @n points to a->points. */
static int append_points(struct dcmctl_alias_set_args *a, size_t *total,
			 const struct dcmctl_point *p, size_t n)
{
	struct dcmctl_point *np;

	if (!n)
		return 0;
	np = realloc(a->points, (*total + n) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	memcpy(np + *total, p, n * sizeof(*p));
	a->points = np;
	*total += n;
	return 0;
}

/*
 * --separate: one value list per member, each as long as the --times
 * list, stored member after member in a->values.
 */
static int parse_separate_members(struct dcmctl_alias_set_args *a, char **members,
				  const char *times, char *err, size_t errlen)
{
	size_t bad = 0;
	int r;

	if (!times) {
		snprintf(err, errlen, "alias set: --separate needs --times MS,MS,...");
		return -EINVAL;
	}
	r = dcmctl_parse_ms_list(times, &a->times, &a->n_times, &bad);
	if (r == -ENOMEM)
		return r;
	if (r || !a->n_times) {
		snprintf(err, errlen, "alias set: invalid --times '%s' (ms, comma-separated)",
			 times);
		return -EINVAL;
	}
	if (a->n_times > LIBDCM_MAX_POINTS) {
		snprintf(err, errlen, "alias set: %zu times, at most %d", a->n_times,
			 LIBDCM_MAX_POINTS);
		return -EINVAL;
	}
	a->values = calloc(a->n_members * a->n_times, sizeof(*a->values));
	if (!a->values)
		return -ENOMEM;
	for (size_t m = 0; m < a->n_members; m++) {
		double *vals;
		size_t n;

		r = dcmctl_parse_value_list(members[m], &vals, &n, &bad);
		if (r == -ENOMEM)
			return r;
		if (r) {
			snprintf(err, errlen, "alias set: member %zu: invalid value list '%s'",
				 m + 1, members[m]);
			return -EINVAL;
		}
		if (n != a->n_times) {
			free(vals);
			snprintf(err, errlen,
				 "alias set: member %zu: %zu value%s for %zu time%s ('%s')",
				 m + 1, n, n == 1 ? "" : "s", a->n_times,
				 a->n_times == 1 ? "" : "s", members[m]);
			return -EINVAL;
		}
		memcpy(a->values + m * a->n_times, vals, n * sizeof(*vals));
		free(vals);
	}
	return 0;
}

/*
 * --mixed: one VALUE@MS point list per member, each of its own length,
 * counted in a->counts and appended one after the other to a->points.
 */
static int parse_mixed_members(struct dcmctl_alias_set_args *a, char **members,
			       char *err, size_t errlen)
{
	size_t total = 0, bad = 0;
	int r;

	a->counts = calloc(a->n_members, sizeof(*a->counts));
	if (!a->counts)
		return -ENOMEM;
	for (size_t m = 0; m < a->n_members; m++) {
		struct dcmctl_point *pts;
		size_t n;

		r = dcmctl_parse_point_list(members[m], &pts, &n, &bad);
		if (r == -ENOMEM)
			return r;
		if (r) {
			snprintf(err, errlen,
				 "alias set: member %zu: invalid point list '%s' (VALUE@MS,VALUE@MS,...)",
				 m + 1, members[m]);
			return -EINVAL;
		}
		if (n > LIBDCM_MAX_POINTS) {
			free(pts);
			snprintf(err, errlen, "alias set: member %zu: %zu points, at most %d",
				 m + 1, n, LIBDCM_MAX_POINTS);
			return -EINVAL;
		}
		a->counts[m] = n;
		r = append_points(a, &total, pts, n);
		free(pts);
		if (r)
			return r;
	}
	return 0;
}

/*
 * The checks on the options and the operands that come before any
 * member is read: one of --separate or --mixed, a name, a member count
 * libdcm takes.
 */
static int check_alias_set_shape(struct dcmctl_alias_set_args *a, bool mixed,
				 const char *times, bool seen_at, bool seen_in,
				 char **pos, size_t n_pos, char *err, size_t errlen)
{
	if (seen_at && seen_in) {
		snprintf(err, errlen, "alias set: --at and --in exclude each other");
		return -EINVAL;
	}
	if (a->separate == mixed) {
		snprintf(err, errlen, "alias set: give either --separate or --mixed");
		return -EINVAL;
	}
	if (!n_pos) {
		snprintf(err, errlen, "alias set: which alias? (dcmctl alias set NAME ...)");
		return -EINVAL;
	}
	a->name = pos[0];
	a->n_members = n_pos - 1;
	if (!a->n_members) {
		snprintf(err, errlen, "alias set: %s per member, blank members included",
			 a->separate ? "a value list" : "a point list");
		return -EINVAL;
	}
	if (a->n_members > LIBDCM_MAX_ALIAS_MEMBERS) {
		snprintf(err, errlen, "alias set: %zu members, at most %d", a->n_members,
			 LIBDCM_MAX_ALIAS_MEMBERS);
		return -EINVAL;
	}
	if (mixed && times) {
		snprintf(err, errlen, "alias set: --times goes with --separate; --mixed takes VALUE@MS points");
		return -EINVAL;
	}
	return 0;
}

int dcmctl_parse_alias_set(int argc, char **argv, struct dcmctl_alias_set_args *a,
			   char *err, size_t errlen)
{
	const struct dcmctl_optspec spec = dcmctl_spec_alias_set;
	bool seen_at = false, seen_in = false, mixed = false;
	const char *times = NULL;
	struct dcmctl_getopt g;
	int c, r;

	memset(a, 0, sizeof(*a));
	if (dcmctl_getopt_init(&g, &spec, argc, argv, err, errlen))
		return -ENOMEM;
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		if (c == DCMCTL_OPT_SEPARATE)
			a->separate = true;
		else if (c == DCMCTL_OPT_MIXED)
			mixed = true;
		else if (c == DCMCTL_OPT_TIMES)
			times = g.optarg;
		else if (timing_option(c, g.optarg, &a->t, &seen_at, &seen_in, err, errlen) < 0)
			break;
	}
	if (c)
		r = -EINVAL;
	else
		r = check_alias_set_shape(a, mixed, times, seen_at, seen_in, g.args,
					  (size_t)g.n_args, err, errlen);
	if (!r) {
		if (a->separate)
			r = parse_separate_members(a, g.args + 1, times, err, errlen);
		else
			r = parse_mixed_members(a, g.args + 1, err, errlen);
	}
	dcmctl_getopt_free(&g);
	if (r == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (r)
		dcmctl_alias_set_args_free(a);
	return r;
}

void dcmctl_watch_args_free(struct dcmctl_watch_args *a)
{
	free(a->keys);
	a->keys = NULL;
	a->n = 0;
}

int dcmctl_parse_watch(int argc, char **argv, struct dcmctl_watch_args *a, char *err,
		       size_t errlen)
{
	const struct dcmctl_optspec spec = dcmctl_spec_watch;
	struct dcmctl_getopt g;
	long long cycles;
	int c, i, j;

	memset(a, 0, sizeof(*a));
	a->keys = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*a->keys));
	if (!a->keys || dcmctl_getopt_init(&g, &spec, argc, argv, err, errlen)) {
		free(a->keys);
		a->keys = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		if (num_parse_ll(g.optarg, 1, LLONG_MAX, &cycles)) {
			snprintf(err, errlen, "watch: invalid cycle count '%s' (1 or more)",
				 g.optarg);
			goto fail;
		}
		a->cycles = (uint64_t)cycles;
	}
	if (c < 0)
		goto fail;
	for (i = 0; i < g.n_args; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(g.args[j], g.args[i])) {
				snprintf(err, errlen, "watch: key '%s' given twice", g.args[i]);
				goto fail;
			}
		}
		a->keys[a->n++] = g.args[i];
	}
	if (!a->n) {
		snprintf(err, errlen, "watch: which key? (dcmctl watch KEY... [--cycles N])");
		goto fail;
	}
	if (a->n > LIBDCM_MAX_SUBDEVICES) {
		snprintf(err, errlen, "watch: %zu keys, at most %d", a->n, LIBDCM_MAX_SUBDEVICES);
		goto fail;
	}
	dcmctl_getopt_free(&g);
	return 0;
fail:
	dcmctl_getopt_free(&g);
	dcmctl_watch_args_free(a);
	return -EINVAL;
}
