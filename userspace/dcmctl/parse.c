// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the arguments of set, alias set and watch: values, times, update
 * kinds, "VALUE@MS" points and their comma-separated lists. Pure: nothing
 * here prints or talks to the kernel.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcmctl.h"

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

/* Decimal integer text, optional sign, within [min, max]. */
static int parse_int(const char *s, long long min, long long max, long long *out)
{
	const char *p = s;
	long long v;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	if (*p == '+' || *p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int dcmctl_parse_ms(const char *s, int32_t *out)
{
	long long v;
	int r = parse_int(s, INT32_MIN, INT32_MAX, &v);

	if (!r)
		*out = (int32_t)v;
	return r;
}

int dcmctl_parse_dcm_time(const char *s, uint32_t *out)
{
	long long v;
	int r;

	if (s && *s == '-')
		return -ERANGE;
	r = parse_int(s, 0, UINT32_MAX, &v);
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
	char a[32], b[32];
	size_t i, j, k;

	if (!s)
		return -EINVAL;
	/* compare without case, '-' and '_': ClearAll, clear-all, CLEAR_ALL */
	for (i = 0, j = 0; s[i] && j < sizeof(a) - 1; i++)
		if (s[i] != '-' && s[i] != '_')
			a[j++] = (char)tolower((unsigned char)s[i]);
	if (s[i] || !j)
		return -EINVAL;
	a[j] = '\0';
	for (k = 0; k < N_KINDS; k++) {
		for (i = 0, j = 0; kind_names[k][i]; i++)
			if (kind_names[k][i] != '-')
				b[j++] = kind_names[k][i];
		b[j] = '\0';
		if (!strcmp(a, b)) {
			*out = (enum dcm_update_kind)k;
			return 0;
		}
	}
	return -EINVAL;
}

int dcmctl_parse_importance(const char *s, uint8_t *out)
{
	long long v;
	int r = parse_int(s, 0, LIBDCM_MAX_IMPORTANCE, &v);

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

/* An option: "--x", "--x=..." or a dash followed by something not numeric. */
static bool is_option(const char *a)
{
	if (a[0] != '-' || !a[1])
		return false;
	if (a[1] == '-')
		return true;
	return !((a[1] >= '0' && a[1] <= '9') || a[1] == '.');
}

/*
 * If argv[*i] is the option @name ("--name VALUE" or "--name=VALUE"), set
 * *@val and return 1 (advancing *@i past a separate value); 0 if it is
 * another option; -EINVAL if its value is missing.
 */
static int option_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t len = strlen(name);

	if (strncmp(a, name, len))
		return 0;
	if (a[len] == '=') {
		*val = a + len + 1;
		return 1;
	}
	if (a[len])
		return 0;
	if (*i + 1 >= argc)
		return -EINVAL;
	*val = argv[++*i];
	return 1;
}

/*
 * The options of struct dcmctl_timing. Return: 1 (taken), 0 (not one of
 * them), -EINVAL (bad value, reason in @err).
 */
static int timing_option(int argc, char **argv, int *i, struct dcmctl_timing *t,
			 bool *seen_at, bool *seen_in, char *err, size_t errlen)
{
	const char *v;
	int r;

	if ((r = option_value(argc, argv, i, "--kind", &v))) {
		if (r < 0)
			FAIL("option '--kind' needs an argument");
		if (dcmctl_parse_kind(v, &t->kind))
			FAIL("invalid kind '%s' (clear-all, merge, clear-after, clear-before)", v);
		return 1;
	}
	if ((r = option_value(argc, argv, i, "--importance", &v))) {
		if (r < 0)
			FAIL("option '--importance' needs an argument");
		if (dcmctl_parse_importance(v, &t->importance))
			FAIL("invalid importance '%s' (0 to 7)", v);
		return 1;
	}
	if ((r = option_value(argc, argv, i, "--at", &v))) {
		if (r < 0)
			FAIL("option '--at' needs an argument");
		if (dcmctl_parse_dcm_time(v, &t->at))
			FAIL("invalid DCM time '%s' for --at (0 to 4294967295 ms)", v);
		*seen_at = true;
		t->base = DCMCTL_BASE_AT;
		return 1;
	}
	if ((r = option_value(argc, argv, i, "--in", &v))) {
		if (r < 0)
			FAIL("option '--in' needs an argument");
		if (dcmctl_parse_ms(v, &t->in_ms))
			FAIL("invalid time '%s' for --in (ms, a signed 32-bit number)", v);
		*seen_in = true;
		t->base = DCMCTL_BASE_IN;
		return 1;
	}
	return 0;
}

void dcmctl_set_args_free(struct dcmctl_set_args *a)
{
	free(a->points);
	a->points = NULL;
	a->n = 0;
}

int dcmctl_parse_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		     size_t errlen)
{
	bool seen_at = false, seen_in = false, end_opts = false, bare = false;
	int i, r;

	memset(a, 0, sizeof(*a));
	a->points = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*a->points));
	if (!a->points) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!end_opts && !strcmp(arg, "--")) {
			end_opts = true;
			continue;
		}
		if (!end_opts && is_option(arg)) {
			r = timing_option(argc, argv, &i, &a->t, &seen_at, &seen_in, err, errlen);
			if (r < 0)
				goto fail;
			if (r == 0) {
				snprintf(err, errlen, "set: unknown option '%s'", arg);
				goto fail;
			}
			continue;
		}
		if (!a->key) {
			a->key = arg;
			continue;
		}
		if (strchr(arg, '@')) {
			r = dcmctl_parse_point(arg, &a->points[a->n]);
			if (r) {
				snprintf(err, errlen,
					 "set: invalid point '%s' (VALUE@MS: a decimal value, a time in ms)",
					 arg);
				goto fail;
			}
		} else {
			r = dcmctl_parse_value(arg, &a->points[a->n].value);
			if (r) {
				snprintf(err, errlen, "set: invalid value '%s'%s", arg,
					 r == -ERANGE ? " (out of range)" : "");
				goto fail;
			}
			a->points[a->n].offset = 0;
			bare = true;
		}
		a->n++;
	}
	if (seen_at && seen_in) {
		snprintf(err, errlen, "set: --at and --in exclude each other");
		goto fail;
	}
	if (!a->key) {
		snprintf(err, errlen, "set: which key? (dcmctl set KEY VALUE)");
		goto fail;
	}
	if (!a->n) {
		snprintf(err, errlen, "set: which value? (dcmctl set KEY VALUE)");
		goto fail;
	}
	if (bare && a->n > 1) {
		snprintf(err, errlen,
			 "set: several points need their times: VALUE@MS VALUE@MS ...");
		goto fail;
	}
	if (a->n > LIBDCM_MAX_POINTS) {
		snprintf(err, errlen, "set: %zu points, at most %d", a->n, LIBDCM_MAX_POINTS);
		goto fail;
	}
	return 0;
fail:
	dcmctl_set_args_free(a);
	return -EINVAL;
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

int dcmctl_parse_alias_set(int argc, char **argv, struct dcmctl_alias_set_args *a,
			   char *err, size_t errlen)
{
	bool seen_at = false, seen_in = false, end_opts = false, mixed = false;
	const char *times = NULL, *v;
	size_t n_pos = 0, total = 0, bad = 0;
	char **pos;
	int i, r;

	memset(a, 0, sizeof(*a));
	pos = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*pos));
	if (!pos) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!end_opts && !strcmp(arg, "--")) {
			end_opts = true;
			continue;
		}
		if (!end_opts && is_option(arg)) {
			if (!strcmp(arg, "--separate")) {
				a->separate = true;
				continue;
			}
			if (!strcmp(arg, "--mixed")) {
				mixed = true;
				continue;
			}
			r = option_value(argc, argv, &i, "--times", &v);
			if (r < 0) {
				snprintf(err, errlen, "option '--times' needs an argument");
				goto fail;
			}
			if (r > 0) {
				times = v;
				continue;
			}
			r = timing_option(argc, argv, &i, &a->t, &seen_at, &seen_in, err, errlen);
			if (r < 0)
				goto fail;
			if (r == 0) {
				snprintf(err, errlen, "alias set: unknown option '%s'", arg);
				goto fail;
			}
			continue;
		}
		pos[n_pos++] = argv[i];
	}
	if (seen_at && seen_in) {
		snprintf(err, errlen, "alias set: --at and --in exclude each other");
		goto fail;
	}
	if (a->separate == mixed) {
		snprintf(err, errlen, "alias set: give either --separate or --mixed");
		goto fail;
	}
	if (!n_pos) {
		snprintf(err, errlen, "alias set: which alias? (dcmctl alias set NAME ...)");
		goto fail;
	}
	a->name = pos[0];
	a->n_members = n_pos - 1;
	if (!a->n_members) {
		snprintf(err, errlen, "alias set: %s per member, blank members included",
			 a->separate ? "a value list" : "a point list");
		goto fail;
	}
	if (a->n_members > LIBDCM_MAX_ALIAS_MEMBERS) {
		snprintf(err, errlen, "alias set: %zu members, at most %d", a->n_members,
			 LIBDCM_MAX_ALIAS_MEMBERS);
		goto fail;
	}
	if (mixed && times) {
		snprintf(err, errlen, "alias set: --times goes with --separate; --mixed takes VALUE@MS points");
		goto fail;
	}
	if (a->separate) {
		if (!times) {
			snprintf(err, errlen, "alias set: --separate needs --times MS,MS,...");
			goto fail;
		}
		r = dcmctl_parse_ms_list(times, &a->times, &a->n_times, &bad);
		if (r == -ENOMEM)
			goto nomem;
		if (r || !a->n_times) {
			snprintf(err, errlen, "alias set: invalid --times '%s' (ms, comma-separated)",
				 times);
			goto fail;
		}
		if (a->n_times > LIBDCM_MAX_POINTS) {
			snprintf(err, errlen, "alias set: %zu times, at most %d", a->n_times,
				 LIBDCM_MAX_POINTS);
			goto fail;
		}
		a->values = calloc(a->n_members * a->n_times, sizeof(*a->values));
		if (!a->values)
			goto nomem;
		for (size_t m = 0; m < a->n_members; m++) {
			double *vals;
			size_t n;

			r = dcmctl_parse_value_list(pos[1 + m], &vals, &n, &bad);
			if (r == -ENOMEM)
				goto nomem;
			if (r) {
				snprintf(err, errlen, "alias set: member %zu: invalid value list '%s'",
					 m + 1, pos[1 + m]);
				goto fail;
			}
			if (n != a->n_times) {
				free(vals);
				snprintf(err, errlen,
					 "alias set: member %zu: %zu value%s for %zu time%s ('%s')",
					 m + 1, n, n == 1 ? "" : "s", a->n_times,
					 a->n_times == 1 ? "" : "s", pos[1 + m]);
				goto fail;
			}
			memcpy(a->values + m * a->n_times, vals, n * sizeof(*vals));
			free(vals);
		}
	} else {
		a->counts = calloc(a->n_members, sizeof(*a->counts));
		if (!a->counts)
			goto nomem;
		for (size_t m = 0; m < a->n_members; m++) {
			struct dcmctl_point *pts;
			size_t n;

			r = dcmctl_parse_point_list(pos[1 + m], &pts, &n, &bad);
			if (r == -ENOMEM)
				goto nomem;
			if (r) {
				snprintf(err, errlen,
					 "alias set: member %zu: invalid point list '%s' (VALUE@MS,VALUE@MS,...)",
					 m + 1, pos[1 + m]);
				goto fail;
			}
			if (n > LIBDCM_MAX_POINTS) {
				free(pts);
				snprintf(err, errlen, "alias set: member %zu: %zu points, at most %d",
					 m + 1, n, LIBDCM_MAX_POINTS);
				goto fail;
			}
			a->counts[m] = n;
			r = append_points(a, &total, pts, n);
			free(pts);
			if (r)
				goto nomem;
		}
	}
	free(pos);
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
	free(pos);
	dcmctl_alias_set_args_free(a);
	return -ENOMEM;
fail:
	free(pos);
	dcmctl_alias_set_args_free(a);
	return -EINVAL;
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
	bool end_opts = false;
	const char *v;
	long long c;
	size_t j;
	int i, r;

	memset(a, 0, sizeof(*a));
	a->keys = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*a->keys));
	if (!a->keys) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < argc; i++) {
		if (!end_opts && !strcmp(argv[i], "--")) {
			end_opts = true;
			continue;
		}
		if (!end_opts && is_option(argv[i])) {
			r = option_value(argc, argv, &i, "--cycles", &v);
			if (!r)
				r = option_value(argc, argv, &i, "-c", &v);
			if (r < 0) {
				snprintf(err, errlen, "option '%s' needs an argument", argv[i]);
				goto fail;
			}
			if (!r) {
				snprintf(err, errlen, "watch: unknown option '%s'", argv[i]);
				goto fail;
			}
			if (parse_int(v, 1, LLONG_MAX, &c)) {
				snprintf(err, errlen, "watch: invalid cycle count '%s' (1 or more)", v);
				goto fail;
			}
			a->cycles = (uint64_t)c;
			continue;
		}
		for (j = 0; j < a->n; j++) {
			if (!strcmp(a->keys[j], argv[i])) {
				snprintf(err, errlen, "watch: key '%s' given twice", argv[i]);
				goto fail;
			}
		}
		a->keys[a->n++] = argv[i];
	}
	if (!a->n) {
		snprintf(err, errlen, "watch: which key? (dcmctl watch KEY... [--cycles N])");
		goto fail;
	}
	if (a->n > LIBDCM_MAX_SUBDEVICES) {
		snprintf(err, errlen, "watch: %zu keys, at most %d", a->n, LIBDCM_MAX_SUBDEVICES);
		goto fail;
	}
	return 0;
fail:
	dcmctl_watch_args_free(a);
	return -EINVAL;
}
