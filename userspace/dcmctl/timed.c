// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl set, alias, time: timed commands through /dev/dcmN.
 *
 * Times on the command line are relative to a base: DCM time now (read
 * once, when the command runs), now + MS with --in MS, or the DCM time T
 * with --at T. "VALUE@MS" is VALUE at base + MS; a bare VALUE is VALUE@0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <unistd.h>

#include "desc.h"
#include "json.h"
#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "keyname.h"
#include "parse.h"
#include "timed.h"

static const struct dcmctl_optspec dcmctl_spec_alias_create = { .cmd = "alias create" };

/* Look @key up; on failure say why on @err. */
static int lookup_key(struct dcm *dcm, const char *key, struct dcm_key *k, FILE *err)
{
	int r = dcm_lookup(dcm, key, k);

	if (r == -ENOENT)
		fprintf(err, "dcmctl: %s: no such key\n", key);
	else if (r == -ENAMETOOLONG)
		fprintf(err, "dcmctl: %.60s...: no such key (longer than %d bytes)\n", key,
			LIBDCM_KEY_NAME_LEN - 1);
	else if (r == -EINVAL && !*key)
		fprintf(err, "dcmctl: empty key\n");
	else if (r)
		fprintf(err, "dcmctl: %s: %s\n", key, dcm_last_error());
	return r;
}

/* ------------------------------------------------------------------
 * set
 */

static void print_points_text(FILE *out, const struct dcm_timed_point *p, size_t n,
			      uint32_t now)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "\t%.6f at %u (%+d ms)\n", p[i].value, p[i].time,
			dcm_time_diff(p[i].time, now));
}

static void json_points(struct json_writer *w, const char *key,
			const struct dcm_timed_point *p, size_t n)
{
	size_t i;

	json_begin_array(w, key);
	for (i = 0; i < n; i++) {
		json_begin_object(w, NULL);
		json_double(w, "value", p[i].value);
		json_uint(w, "time", p[i].time);
		json_end_object(w);
	}
	json_end_array(w);
}

/*
 * set NAME: the key's handle in *@k, or k->handle 0 when no key but an
 * alias may have that name (NAOqi's set takes both).
 */
static int set_target(struct dcm *dcm, const char *name, struct dcm_key *k, FILE *err)
{
	int r = dcm_lookup(dcm, name, k);

	if (r == -ENOENT && strlen(name) < LIBDCM_ALIAS_NAME_LEN) {
		k->handle = 0;
		return 0;
	}
	return r ? lookup_key(dcm, name, k, err) : 0;
}

/* The controller's sysfs tree if there is one; NULL, silently, if not. */
static struct dcm_sysfs *quiet_sysfs(const struct dcmctl_opts *o)
{
	struct dcm_sysfs *s;

	if (o->dev_index < 0 || dcm_sysfs_open(o->root, (unsigned int)o->dev_index, &s))
		return NULL;
	return s;
}

/* A number key of the tree, as a double; -1 if it has none. */
static int read_number(const struct dcm_sysfs *s, const char *key, double *v)
{
	char *text = NULL;
	bool integer;
	int r;

	r = dcm_sysfs_read(s, key, &text);
	if (!r)
		r = dcmctl_number(text, v, &integer);
	free(text);
	return r ? -1 : 0;
}

/* A text key of the tree, into @buf; "" if it has none. */
static void read_text(const struct dcm_sysfs *s, const char *key, char *buf, size_t len)
{
	char *text = NULL;

	buf[0] = '\0';
	if (!dcm_sysfs_read(s, key, &text))
		snprintf(buf, len, "%s", text);
	free(text);
}

#define MAX_WARNINGS 4

struct warnings {
	char text[MAX_WARNINGS][320];
	int n;
};

static void warn(struct warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct warnings *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n == MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(w->text[w->n++], sizeof(w->text[0]), fmt, ap);
	va_end(ap);
}

int dcmctl_set_warnings(const struct dcm_sysfs *s, const char *key, const double *values,
			size_t n, char out[][320], int max)
{
	char path[DCMCTL_KEY_LEN * 2], type[64], joint[DCMCTL_KEY_LEN];
	struct dcmctl_keyref k;
	struct warnings w = { .n = 0 };
	double lo, hi, hard;
	size_t i;
	int have_lo, have_hi;

	if (!s || dcmctl_key_resolve(s, key, &k) || !k.value)
		return 0;
	snprintf(path, sizeof(path), "%s/Min", k.owner);
	have_lo = !read_number(s, path, &lo);
	snprintf(path, sizeof(path), "%s/Max", k.owner);
	have_hi = !read_number(s, path, &hi);
	for (i = 0; i < n; i++) {
		if (have_lo && values[i] < lo) {
			warn(&w, "%s: %g is below its Min, %g: clamped to %g", key, values[i], lo, lo);
			break;
		}
		if (have_hi && values[i] > hi) {
			warn(&w, "%s: %g is above its Max, %g: clamped to %g", key, values[i], hi, hi);
			break;
		}
	}
	/* a joint's position: its stiffness, <Joint>/Hardness/Actuator */
	snprintf(path, sizeof(path), "%s/Type", k.owner);
	read_text(s, path, type, sizeof(type));
	if (!strcmp(type, "Joint")) {
		const char *rest = k.owner + strlen(LIBDCM_PREFIX_SUB);

		snprintf(joint, sizeof(joint), "%.*s", (int)strcspn(rest, "/"), rest);
		snprintf(path, sizeof(path), "%s/Hardness/Actuator/Value", joint);
		if (!read_number(s, path, &hard) && hard == 0)
			warn(&w, "%s: %s's stiffness is 0 (%s/Hardness/Actuator): the joint does not move, and its Position/Actuator reads back its sensor until the stiffness is set",
			     key, joint, joint);
	}
	for (i = 0; i < (size_t)w.n && (int)i < max; i++)
		memcpy(out[i], w.text[i], sizeof(w.text[0]));
	return w.n < max ? w.n : max;
}

/* The range a configuration key of the kernel's type table takes, and its kind. */
static int config_key_type(const struct dcm_sysfs *s, const struct dcmctl_keyref *k,
			   struct desc_type_key *tk)
{
	struct desc_type_key keys[32];
	char path[DCMCTL_KEY_LEN * 2], type[64];
	int n, i;

	snprintf(path, sizeof(path), "%s/Type", k->owner);
	read_text(s, path, type, sizeof(type));
	n = desc_kernel_type_keys(type, k->where == DCMCTL_KEY_DEV, keys,
				  sizeof(keys) / sizeof(keys[0]));
	for (i = 0; i < n && i < (int)(sizeof(keys) / sizeof(keys[0])); i++) {
		if (!strcmp(keys[i].name, k->name)) {
			*tk = keys[i];
			return 0;
		}
	}
	return -ENOENT;
}

int dcmctl_check_config_value(const struct desc_type_key *tk, const char *text, char *why,
			      size_t len)
{
	long long n;
	int64_t v;

	switch (tk->kind) {
	case LIBDCM_KEY_STRING:
		return 0;
	case LIBDCM_KEY_FLOAT:
		if (dcm_fixed_from_string(text, &v)) {
			snprintf(why, len, "'%s' is not a decimal number", text);
			return -EINVAL;
		}
		/* a float key's range is in whole units */
		if (tk->ranged && (v < (int64_t)tk->min * LIBDCM_MICRO ||
				   v > (int64_t)tk->max * LIBDCM_MICRO)) {
			snprintf(why, len, "%s is outside the key's range, %d to %d", text, tk->min,
				 tk->max);
			return -ERANGE;
		}
		return 0;
	case LIBDCM_KEY_BOOL:
		if (strcmp(text, "0") && strcmp(text, "1")) {
			snprintf(why, len, "'%s' is not 0 or 1", text);
			return -EINVAL;
		}
		return 0;
	default:
		if (num_parse_ll(text, INT64_MIN, INT64_MAX, &n)) {
			snprintf(why, len, "'%s' is not an integer", text);
			return -EINVAL;
		}
		if (tk->ranged && (n < tk->min || n > tk->max)) {
			snprintf(why, len, "%s is outside the key's range, %d to %d", text, tk->min,
				 tk->max);
			return -ERANGE;
		}
		return 0;
	}
}

/* set KEY VALUE of a configuration key: through its sysfs file, no option. */
/* Write @text into the sysfs file @file: 0 or -errno. */
static int write_config_file(const char *file, const char *text)
{
	ssize_t w;
	int fd, e;

	fd = open(file, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, text, strlen(text));
	e = w < 0 ? -errno : 0;
	close(fd);
	return e;
}

/* The configuration key @path now holds @text; @prev is what it held (NULL: unknown). */
static void print_config_set(const struct dcmctl_opts *o, FILE *out, const char *path,
			     const char *key, const char *text, const char *prev)
{
	struct json_writer jw;

	if (!o->json) {
		fprintf(out, "%s: %s (was %s)\n", path, text, prev ? prev : "?");
		return;
	}
	json_init(&jw, out, o->pretty);
	json_begin_object(&jw, NULL);
	json_string(&jw, "key", key);
	json_string(&jw, "path", path);
	dcmctl_json_value(&jw, "value", text);
	if (prev)
		dcmctl_json_value(&jw, "previous", prev);
	else
		json_null(&jw, "previous");
	json_end_object(&jw);
	json_finish(&jw);
}

static int set_config(const struct dcmctl_opts *o, const struct dcm_sysfs *s,
		      const struct dcmctl_keyref *k, const struct dcmctl_set_args *a, FILE *out,
		      FILE *err)
{
	char rel[DCMCTL_KEY_LEN], file[DCMCTL_KEY_LEN + 256], why[256], *prev = NULL;
	struct desc_type_key tk;
	const char *key, *text;
	struct stat st;
	int e;

	if (a->n_opts) {
		fprintf(err, "dcmctl: set: a configuration key takes no option\n");
		return DCMCTL_EXIT_USAGE;
	}
	if (a->n_values != 1) {
		fprintf(err, "dcmctl: set: %s\n", a->n_values < 1 ?
			"which value? (dcmctl set KEY VALUE)" :
			"a configuration key takes one value (no VALUE@MS)");
		return DCMCTL_EXIT_USAGE;
	}
	key = a->key;
	text = a->values[0];
	if (dcm_sysfs_key_path(k->path, rel, sizeof(rel)))
		return DCMCTL_EXIT_FAIL;
	snprintf(file, sizeof(file), "%s/%s", dcm_sysfs_path(s), rel);
	if (config_key_type(s, k, &tk) || stat(file, &st) || !(st.st_mode & 0222)) {
		fprintf(err, "dcmctl: %s: read-only: %s\n", key,
			k->where == DCMCTL_KEY_SUB && (!strcmp(k->name, "Min") ||
			!strcmp(k->name, "Max") || !strcmp(k->name, "Gain") ||
			!strcmp(k->name, "Offset")) ?
			"the description sets it (dcmctl preferences add, then load)" :
			"the robot or the description sets it, not a command");
		return DCMCTL_EXIT_FAIL;
	}
	e = dcmctl_check_config_value(&tk, text, why, sizeof(why));
	if (e) {
		fprintf(err, "dcmctl: %s: %s\n", key, why);
		return DCMCTL_EXIT_FAIL;
	}
	dcm_sysfs_read(s, k->path, &prev);
	e = write_config_file(file, text);
	if (e) {
		fprintf(err, "dcmctl: set %s: %s%s\n", key, strerror(-e),
			e == -EPERM || e == -EACCES ? " (configuration keys: root only)" :
			e == -ERANGE ? " (outside the key's range)" : "");
		free(prev);
		return DCMCTL_EXIT_FAIL;
	}
	print_config_set(o, out, k->path, key, text, prev);
	free(prev);
	fflush(out);
	return DCMCTL_EXIT_OK;
}

/* What a timed set sent: the points, DCM time now, the warnings. */
struct set_result {
	struct dcm_timed_point *pts;
	uint32_t now;
	char warns[MAX_WARNINGS][320];
	int n_warns;
};

static void print_set(const struct dcmctl_opts *o, const struct dcmctl_set_args *a,
		      uint32_t handle, const struct set_result *res, FILE *out)
{
	int i;

	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		if (handle) {
			json_string(&w, "key", a->key);
			json_uint(&w, "handle", handle);
		} else {
			json_string(&w, "alias", a->key);
		}
		json_string(&w, "kind", dcmctl_kind_name(a->t.kind));
		json_uint(&w, "importance", a->t.importance);
		json_uint(&w, "now", res->now);
		json_points(&w, "points", res->pts, a->n);
		json_begin_array(&w, "warnings");
		for (i = 0; i < res->n_warns; i++)
			json_string(&w, NULL, res->warns[i]);
		json_end_array(&w);
		json_end_object(&w);
		json_finish(&w);
	} else {
		fprintf(out, "%s%s: %s, %zu point%s, DCM time now %u\n", handle ? "" : "alias ",
			a->key, dcmctl_kind_name(a->t.kind), a->n, a->n == 1 ? "" : "s", res->now);
		print_points_text(out, res->pts, a->n, res->now);
	}
}

/* The points of @a from DCM time now on (its --in or --at). */
static int timed_points(struct dcm *dcm, const struct dcmctl_set_args *a, struct set_result *res,
			FILE *err)
{
	uint32_t base;
	size_t i;

	if (dcm_time(dcm, 0, &res->now)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return -1;
	}
	base = dcmctl_base_time(&a->t, res->now);
	res->pts = calloc(a->n, sizeof(*res->pts));
	if (!res->pts) {
		fprintf(err, "dcmctl: out of memory\n");
		return -1;
	}
	for (i = 0; i < a->n; i++) {
		res->pts[i].value = a->points[i].value;
		res->pts[i].time = dcm_time_add(base, a->points[i].offset);
		res->pts[i].importance = a->t.importance;
	}
	return 0;
}

/* set KEY VALUE... of an actuator: timed commands, warnings of what the robot will do. */
static int set_actuator(const struct dcmctl_opts *o, const struct dcm_sysfs *s, struct dcm *dcm,
			const struct dcmctl_set_args *a, const struct dcm_key *k, FILE *out,
			FILE *err)
{
	struct set_result res = { 0 };
	double *vals = NULL;
	int ret = DCMCTL_EXIT_FAIL, i;
	size_t j;

	if (!(k->flags & LIBDCM_KEY_ACTUATOR)) {
		fprintf(err, "dcmctl: %s: not an actuator (a sensor or another read-only subdevice): it takes no commands\n",
			a->key);
		return DCMCTL_EXIT_FAIL;
	}
	if (timed_points(dcm, a, &res, err))
		goto out;
	if (dcm_set(dcm, k->handle, a->t.kind, res.pts, a->n)) {
		fprintf(err, "dcmctl: set %s: %s\n", a->key, dcm_last_error());
		goto out;
	}
	vals = calloc(a->n, sizeof(*vals));
	if (!vals) {
		fprintf(err, "dcmctl: out of memory\n");
		goto out;
	}
	for (j = 0; j < a->n; j++)
		vals[j] = a->points[j].value;
	res.n_warns = dcmctl_set_warnings(s, a->key, vals, a->n, res.warns, MAX_WARNINGS);
	for (i = 0; i < res.n_warns; i++)
		fprintf(err, "dcmctl: warning: %s\n", res.warns[i]);
	print_set(o, a, k->handle, &res, out);
	ret = DCMCTL_EXIT_OK;
out:
	free(vals);
	free(res.pts);
	return ret;
}

/* set ALIAS VALUE...: the same points to every member of an alias. */
static int set_alias(const struct dcmctl_opts *o, const struct dcm_sysfs *s, struct dcm *dcm,
		     const struct dcmctl_set_args *a, FILE *out, FILE *err)
{
	struct set_result res = { 0 };
	int r, ret = DCMCTL_EXIT_FAIL;

	if (timed_points(dcm, a, &res, err))
		goto out;
	r = dcm_alias_set_all(dcm, a->key, a->t.kind, res.pts, a->n);
	if (r == -ENOENT) {
		fprintf(err, "dcmctl: %s: no such key or alias\n", a->key);
		if (s) {
			char sugg[3][DCMCTL_KEY_LEN];

			dcmctl_print_suggestions(err, sugg, dcmctl_key_suggest(s, a->key, sugg, 3));
		}
		goto out;
	}
	if (r) {
		fprintf(err, "dcmctl: set %s: %s\n", a->key, dcm_last_error());
		goto out;
	}
	print_set(o, a, 0, &res, out);
	ret = DCMCTL_EXIT_OK;
out:
	free(res.pts);
	return ret;
}

/*
 * dcmctl set: the command line read once, then one of three jobs by what
 * KEY is: a configuration key (its sysfs file), an actuator (timed
 * commands) or an alias (the same points to each member).
 */
int dcmctl_set(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_set_args a;
	struct dcmctl_keyref kr;
	struct dcm_sysfs *s;
	struct dcm *dcm = NULL;
	struct dcm_key k;
	char msg[256];
	int ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_scan_set(o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	s = quiet_sysfs(o);
	if (s && a.key && !dcmctl_key_resolve(s, a.key, &kr) && !kr.value) {
		ret = set_config(o, s, &kr, &a, out, err);
		goto out;
	}
	if (dcmctl_set_points(&a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		ret = DCMCTL_EXIT_USAGE;
		goto out;
	}
	if (dcmctl_open(o, &dcm, err) || set_target(dcm, a.key, &k, err))
		goto out;
	if (k.handle)
		ret = set_actuator(o, s, dcm, &a, &k, out, err);
	else
		ret = set_alias(o, s, dcm, &a, out, err);
out:
	dcm_close(dcm);
	dcm_sysfs_close(s);
	dcmctl_set_args_free(&a);
	fflush(out);
	return ret;
}

/* ------------------------------------------------------------------
 * alias create, alias set
 */

static int check_alias_name(const char *name, FILE *err)
{
	if (!*name) {
		fprintf(err, "dcmctl: alias: empty alias name\n");
		return -EINVAL;
	}
	if (strlen(name) >= LIBDCM_ALIAS_NAME_LEN) {
		fprintf(err, "dcmctl: alias: name '%s' longer than %d bytes\n", name,
			LIBDCM_ALIAS_NAME_LEN - 1);
		return -EINVAL;
	}
	return 0;
}

/* alias create NAME KEY...: @argv, the arguments, options taken out. */
/*
 * The alias @name made of the @n keys @keys, @found of them actuators
 * (handles[i] 0: a blank member).
 */
static void print_alias_created(const struct dcmctl_opts *o, FILE *out, const char *name,
				char *const *keys, int n, int found, const uint32_t *handles)
{
	struct json_writer w;
	int i;

	if (!o->json) {
		fprintf(out, "alias %s: %d member%s, %d blank\n", name, n, n == 1 ? "" : "s",
			n - found);
		for (i = 0; i < n; i++)
			fprintf(out, "\t%s%s\n", keys[i],
				handles[i] ? "" : " (blank: no such actuator)");
		return;
	}
	json_init(&w, out, o->pretty);
	json_begin_object(&w, NULL);
	json_string(&w, "alias", name);
	json_uint(&w, "blank", (uint64_t)(n - found));
	json_begin_array(&w, "members");
	for (i = 0; i < n; i++) {
		json_begin_object(&w, NULL);
		json_string(&w, "key", keys[i]);
		if (handles[i])
			json_uint(&w, "handle", handles[i]);
		else
			json_null(&w, "handle");
		json_bool(&w, "blank", !handles[i]);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
}

static int alias_create_run(const struct dcmctl_opts *o, int argc, char **argv, FILE *out,
			    FILE *err)
{
	struct dcm *dcm = NULL;
	uint32_t *handles = NULL;
	const char *name;
	int n, found, ret = DCMCTL_EXIT_FAIL;

	if (argc < 2) {
		fprintf(err, "dcmctl: alias create: %s (dcmctl alias create NAME KEY...)\n",
			argc ? "which keys?" : "which alias?");
		return DCMCTL_EXIT_USAGE;
	}
	name = argv[0];
	n = argc - 1;
	if (check_alias_name(name, err))
		return DCMCTL_EXIT_USAGE;
	if (n > LIBDCM_MAX_ALIAS_MEMBERS) {
		fprintf(err, "dcmctl: alias create: %d members, at most %d\n", n,
			LIBDCM_MAX_ALIAS_MEMBERS);
		return DCMCTL_EXIT_USAGE;
	}
	handles = calloc((size_t)n, sizeof(*handles));
	if (!handles) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	/* Shared: the alias must outlive this process, for the next command. */
	found = dcm_alias_create_shared(dcm, name, (const char *const *)argv + 1, (size_t)n,
					handles);
	if (found < 0) {
		fprintf(err, "dcmctl: alias create %s: %s\n", name, dcm_last_error());
		goto out;
	}
	print_alias_created(o, out, name, argv + 1, n, found, handles);
	ret = DCMCTL_EXIT_OK;
out:
	free(handles);
	dcm_close(dcm);
	fflush(out);
	return ret;
}

/* alias create takes no option: every "-x" is refused. */
static int alias_create(const struct dcmctl_opts *o, int argc, char **argv, FILE *out,
			FILE *err)
{
	const struct dcmctl_optspec spec = dcmctl_spec_alias_create;
	struct dcmctl_getopt g;
	char msg[256];
	int c, ret;

	if (dcmctl_getopt_init(&g, &spec, argc, argv, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_FAIL;
	}
	c = dcmctl_getopt(&g, msg, sizeof(msg));
	if (c) {
		fprintf(err, "dcmctl: %s\n", msg);
		ret = DCMCTL_EXIT_USAGE;
	} else {
		ret = alias_create_run(o, g.n_args, g.args, out, err);
	}
	dcmctl_getopt_free(&g);
	return ret;
}

/*
 * What was sent for the alias: the absolute @times of a time-separate
 * set, or the @total points @pts of a time-mixed one, with the DCM time
 * @now they were computed from.
 */
static void print_alias_set(const struct dcmctl_opts *o, FILE *out,
			    const struct dcmctl_alias_set_args *a, uint32_t now,
			    const uint32_t *times, const struct dcm_timed_point *pts, size_t total)
{
	struct json_writer w;
	size_t i, m;

	if (!o->json && a->separate) {
		fprintf(out, "alias %s: time-separate, %s, %zu member%s, %zu time%s, DCM time now %u\n",
			a->name, dcmctl_kind_name(a->t.kind), a->n_members,
			a->n_members == 1 ? "" : "s", a->n_times, a->n_times == 1 ? "" : "s", now);
		for (i = 0; i < a->n_times; i++)
			fprintf(out, "\tat %u (%+d ms)\n", times[i], dcm_time_diff(times[i], now));
		return;
	}
	if (!o->json) {
		fprintf(out, "alias %s: time-mixed, %s, %zu member%s, %zu point%s, DCM time now %u\n",
			a->name, dcmctl_kind_name(a->t.kind), a->n_members,
			a->n_members == 1 ? "" : "s", total, total == 1 ? "" : "s", now);
		return;
	}
	json_init(&w, out, o->pretty);
	json_begin_object(&w, NULL);
	json_string(&w, "alias", a->name);
	json_string(&w, "mode", a->separate ? "time-separate" : "time-mixed");
	json_string(&w, "kind", dcmctl_kind_name(a->t.kind));
	json_uint(&w, "importance", a->t.importance);
	json_uint(&w, "now", now);
	json_uint(&w, "members", a->n_members);
	if (a->separate) {
		json_begin_array(&w, "times");
		for (i = 0; i < a->n_times; i++)
			json_uint(&w, NULL, times[i]);
		json_end_array(&w);
		json_begin_array(&w, "values");
		for (m = 0; m < a->n_members; m++) {
			json_begin_array(&w, NULL);
			for (i = 0; i < a->n_times; i++)
				json_double(&w, NULL, a->values[m * a->n_times + i]);
			json_end_array(&w);
		}
		json_end_array(&w);
	} else {
		json_begin_array(&w, "points");
		for (m = 0, i = 0; m < a->n_members; i += a->counts[m], m++)
			json_points(&w, NULL, pts + i, a->counts[m]);
		json_end_array(&w);
	}
	json_end_object(&w);
	json_finish(&w);
}

/* --separate's times, @base added (malloc'ed; NULL: out of memory). */
static uint32_t *absolute_times(const struct dcmctl_alias_set_args *a, uint32_t base)
{
	uint32_t *times = calloc(a->n_times ? a->n_times : 1, sizeof(*times));
	size_t i;

	for (i = 0; times && i < a->n_times; i++)
		times[i] = dcm_time_add(base, a->times[i]);
	return times;
}

/* --mixed's points, member after member, @base added (*@total of them; NULL: out of memory). */
static struct dcm_timed_point *absolute_points(const struct dcmctl_alias_set_args *a,
					       uint32_t base, size_t *total)
{
	struct dcm_timed_point *pts;
	size_t i, m;

	*total = 0;
	for (m = 0; m < a->n_members; m++)
		*total += a->counts[m];
	pts = calloc(*total ? *total : 1, sizeof(*pts));
	for (i = 0; pts && i < *total; i++) {
		pts[i].value = a->points[i].value;
		pts[i].time = dcm_time_add(base, a->points[i].offset);
		pts[i].importance = a->t.importance;
	}
	return pts;
}

static int alias_set(const struct dcmctl_opts *o, int argc, char **argv, FILE *out, FILE *err)
{
	struct dcmctl_alias_set_args a;
	struct dcm_timed_point *pts = NULL;
	uint32_t *times = NULL, now, base;
	struct dcm *dcm = NULL;
	size_t total = 0;
	char msg[256];
	int r, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_alias_set(argc, argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	if (check_alias_name(a.name, err)) {
		dcmctl_alias_set_args_free(&a);
		return DCMCTL_EXIT_USAGE;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (dcm_time(dcm, 0, &now)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	base = dcmctl_base_time(&a.t, now);
	if (a.separate) {
		times = absolute_times(&a, base);
		if (!times)
			goto nomem;
		r = dcm_alias_set_separate(dcm, a.name, a.t.kind, times, a.n_times, a.values,
					   a.n_members, a.t.importance);
	} else {
		pts = absolute_points(&a, base, &total);
		if (!pts)
			goto nomem;
		r = dcm_alias_set_mixed(dcm, a.name, a.t.kind, pts, a.counts, a.n_members);
	}
	if (r) {
		fprintf(err, "dcmctl: alias set %s: %s\n", a.name, dcm_last_error());
		goto out;
	}
	print_alias_set(o, out, &a, now, times, pts, total);
	ret = DCMCTL_EXIT_OK;
	goto out;
nomem:
	fprintf(err, "dcmctl: out of memory\n");
out:
	free(times);
	free(pts);
	dcm_close(dcm);
	dcmctl_alias_set_args_free(&a);
	fflush(out);
	return ret;
}

/* alias list: the shared aliases (those of dcmctl's own handle: none). */
static int alias_list(const struct dcmctl_opts *o, int argc, char **argv, FILE *out, FILE *err)
{
	struct dcm_alias_entry *e = NULL;
	struct dcm *dcm = NULL;
	int i, n, ret = DCMCTL_EXIT_FAIL;

	if (argc) {
		fprintf(err, "dcmctl: alias list: unexpected argument '%s'\n", argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	n = dcm_alias_list(dcm, &e);
	if (n < 0) {
		fprintf(err, "dcmctl: alias list: %s\n", dcm_last_error());
		goto out;
	}
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
		for (i = 0; i < n; i++) {
			json_begin_object(&w, NULL);
			json_string(&w, "alias", e[i].name);
			json_uint(&w, "members", e[i].n_members);
			json_bool(&w, "shared", e[i].shared);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_finish(&w);
	} else {
		for (i = 0; i < n; i++)
			fprintf(out, "%s\t%u member%s%s\n", e[i].name, e[i].n_members,
				e[i].n_members == 1 ? "" : "s", e[i].shared ? "" : " (own)");
	}
	ret = DCMCTL_EXIT_OK;
out:
	free(e);
	dcm_close(dcm);
	fflush(out);
	return ret;
}

/* alias show NAME: its members and their handles now. */
static int alias_show(const struct dcmctl_opts *o, int argc, char **argv, FILE *out, FILE *err)
{
	struct dcm_alias_desc d = { 0 };
	struct dcm *dcm = NULL;
	size_t i, blank = 0;
	int ret = DCMCTL_EXIT_FAIL;

	if (argc != 1) {
		fprintf(err, "dcmctl: alias show: %s (dcmctl alias show NAME)\n",
			argc ? "one alias at a time" : "which alias?");
		return DCMCTL_EXIT_USAGE;
	}
	if (check_alias_name(argv[0], err))
		return DCMCTL_EXIT_USAGE;
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (dcm_alias_show(dcm, argv[0], false, &d)) {
		fprintf(err, "dcmctl: alias show: %s\n", dcm_last_error());
		goto out;
	}
	for (i = 0; i < d.n_members; i++)
		blank += !d.handles[i];
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		json_string(&w, "alias", argv[0]);
		json_bool(&w, "shared", d.shared);
		json_uint(&w, "blank", blank);
		json_begin_array(&w, "members");
		for (i = 0; i < d.n_members; i++) {
			json_begin_object(&w, NULL);
			json_string(&w, "key", d.members[i]);
			if (d.handles[i])
				json_uint(&w, "handle", d.handles[i]);
			else
				json_null(&w, "handle");
			json_bool(&w, "blank", !d.handles[i]);
			json_end_object(&w);
		}
		json_end_array(&w);
		json_end_object(&w);
		json_finish(&w);
	} else {
		fprintf(out, "alias %s: %zu member%s, %zu blank\n", argv[0], d.n_members,
			d.n_members == 1 ? "" : "s", blank);
		for (i = 0; i < d.n_members; i++)
			fprintf(out, "\t%s%s\n", d.members[i],
				d.handles[i] ? "" : " (blank: no such actuator)");
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_alias_desc_free(&d);
	dcm_close(dcm);
	fflush(out);
	return ret;
}

/* alias delete NAME...: shared aliases, their slots freed. */
static int alias_delete(const struct dcmctl_opts *o, int argc, char **argv, FILE *out,
			FILE *err)
{
	struct dcm *dcm = NULL;
	int i, ret = DCMCTL_EXIT_FAIL;

	if (!argc) {
		fprintf(err, "dcmctl: alias delete: which alias? (dcmctl alias delete NAME...)\n");
		return DCMCTL_EXIT_USAGE;
	}
	for (i = 0; i < argc; i++)
		if (check_alias_name(argv[i], err))
			return DCMCTL_EXIT_USAGE;
	if (dcmctl_open(o, &dcm, err))
		goto out;
	for (i = 0; i < argc; i++) {
		if (dcm_alias_delete(dcm, argv[i], false)) {
			fprintf(err, "dcmctl: alias delete: %s\n", dcm_last_error());
			goto out;
		}
		if (!o->json)
			fprintf(out, "alias %s deleted\n", argv[i]);
	}
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		json_begin_array(&w, "deleted");
		for (i = 0; i < argc; i++)
			json_string(&w, NULL, argv[i]);
		json_end_array(&w);
		json_end_object(&w);
		json_finish(&w);
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_close(dcm);
	fflush(out);
	return ret;
}

int dcmctl_alias(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const char *sub = o->argc ? o->argv[0] : "";
	size_t len = strlen(sub);

	if (len && !strncmp(sub, "create", len))
		return alias_create(o, o->argc - 1, o->argv + 1, out, err);
	if (len && !strncmp(sub, "set", len))
		return alias_set(o, o->argc - 1, o->argv + 1, out, err);
	if (len && !strncmp(sub, "list", len))
		return alias_list(o, o->argc - 1, o->argv + 1, out, err);
	if (len > 1 && !strncmp(sub, "show", len))
		return alias_show(o, o->argc - 1, o->argv + 1, out, err);
	if (len && !strncmp(sub, "delete", len))
		return alias_delete(o, o->argc - 1, o->argv + 1, out, err);
	if (len)
		fprintf(err, "dcmctl: alias: unknown subcommand '%s' (create, set, list, show or delete)\n",
			sub);
	else
		fprintf(err, "dcmctl: alias: create, set, list, show or delete? (dcmctl alias create NAME KEY... | dcmctl alias set NAME ... | dcmctl alias list | dcmctl alias show NAME | dcmctl alias delete NAME)\n");
	return DCMCTL_EXIT_USAGE;
}

/* ------------------------------------------------------------------
 * time
 */

int dcmctl_time(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm *dcm;
	int32_t offset = 0;
	uint32_t t;
	int n, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_plain_args(o, "time", 1, &n, err))
		return DCMCTL_EXIT_USAGE;
	if (n == 1 && dcmctl_parse_ms(o->argv[0], &offset)) {
		fprintf(err, "dcmctl: time: invalid offset '%s' (ms, a signed 32-bit number)\n",
			o->argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	if (dcmctl_open(o, &dcm, err))
		return DCMCTL_EXIT_FAIL;
	if (dcm_time(dcm, offset, &t)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	if (o->json) {
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		json_uint(&w, "time", t);
		json_int(&w, "offset", offset);
		json_end_object(&w);
		json_finish(&w);
	} else {
		fprintf(out, "%u\n", t);
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcm_close(dcm);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_set = {
	.name = "set",
	.run = dcmctl_set,
	.args = "KEY VALUE [--at T | --in MS] [--kind KIND] [--importance N]\n"
		"KEY VALUE@MS... [--at T | --in MS] [...]\n"
		"CONFIGURATION-KEY VALUE",
	.help = "timed commands to an actuator (or an alias's actuators): VALUE at DCM\n"
		"time now (or --at T, or now + --in MS); VALUE@MS at that time + MS;\n"
		"or a configuration key's new value (root)",
	.details = "KEY takes every form get takes. A negative VALUE is a value:\n"
		"dcmctl set HeadYaw/Position/Actuator -0.5.\n"
		"A value past the actuator's Min or Max is clamped by the driver: set\n"
		"says so on stderr (exit 0); so it does for a position sent to a joint\n"
		"whose stiffness (Hardness) is 0, which does not move.\n"
		"A configuration key (HeadYaw/Position/Actuator/Kp,\n"
		"HeadYaw/Position/Sensor/jointZeroPosition, ...) is written through\n"
		"sysfs, checked against the key's kind and range first; the driver\n"
		"sends it to the board when it configures it (dcmctl special config).",
	.spec = &dcmctl_spec_set,
};

const struct dcmctl_command dcmctl_cmd_alias = {
	.name = "alias",
	.run = dcmctl_alias,
	.args = "create NAME KEY...\n"
		"set NAME --separate --times MS,... V,V... ...\n"
		"set NAME --mixed V@MS,... ...\n"
		"list | show NAME | delete NAME...",
	.help = "name a list of actuators (blank members marked); set it: one value\n"
		"list (--separate) or point list (--mixed) per member; list the\n"
		"aliases, show one's members, delete them",
	.details = "alias create takes no option; the options below are alias set's.\n"
		"The aliases dcmctl creates are shared (the controller's, not the\n"
		"process's): alias list shows them, alias delete frees their slots.",
	.spec = &dcmctl_spec_alias_set,
};

const struct dcmctl_command dcmctl_cmd_time = {
	.name = "time",
	.run = dcmctl_time,
	.args = "[OFFSET]",
	.help = "DCM time now, plus OFFSET ms (may be negative)",
};
