// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl record: the frames (one per cycle, read()) of chosen keys into
 * CSV or JSON lines, every cycle or every Nth, with DCM time and the wall
 * clock, into one file or rotating files; a cycle the recorder did not
 * read is never lost silently: each row says how many cycles were missed
 * just before it, counted from the frames' cycle numbers.
 *
 * dcmctl flight: the flight recorder. Every key of every cycle of the last
 * seconds is kept in memory; when a safety rule starts acting (an event of
 * the group "events": a cycle fault, the battery current, a temperature
 * status rising) or on demand (SIGUSR1, dcmctl flight-dump), the seconds
 * before it, a few after it and the events around it go into one file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dcm.h>

#include "dcmctl.h"

static volatile sig_atomic_t stop_asked;
static volatile sig_atomic_t dump_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

static void on_dump(int sig)
{
	(void)sig;
	dump_asked = 1;
}

/* SIGINT, SIGTERM end the recording cleanly (a blocked read() returns EINTR). */
static void catch_signals(bool dump)
{
	struct sigaction sa = { .sa_handler = on_stop };

	stop_asked = 0;
	dump_asked = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (dump) {
		sa.sa_handler = on_dump;
		sigaction(SIGUSR1, &sa, NULL);
	}
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------
 * The keys: names, globs, or every subdevice
 */

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* @pattern against a subdevice's name, with or without the prefix and /Value. */
static bool glob_matches(const char *pattern, const char *name)
{
	char full[DCMCTL_KEY_LEN * 2];

	if (!fnmatch(pattern, name, 0))
		return true;
	snprintf(full, sizeof(full), "%s/Value", name);
	if (!fnmatch(pattern, full, 0))
		return true;
	snprintf(full, sizeof(full), DCM_PREFIX_SUBDEVICE "%s", name);
	if (!fnmatch(pattern, full, 0))
		return true;
	snprintf(full, sizeof(full), DCM_PREFIX_SUBDEVICE "%s/Value", name);
	return !fnmatch(pattern, full, 0);
}

struct rec_keys {
	size_t n;
	const char **names;	/* into the tree */
	uint32_t *handles;
};

static void rec_keys_free(struct rec_keys *k)
{
	free(k->names);
	free(k->handles);
	memset(k, 0, sizeof(*k));
}

static int rec_keys_add(struct rec_keys *k, const struct dcm_tree_subdevice *sd)
{
	const char **names;
	uint32_t *handles;
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->handles[i] == sd->handle)
			return 0;	/* named twice, or by two globs: one column */
	names = realloc(k->names, (k->n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	k->names = names;
	handles = realloc(k->handles, (k->n + 1) * sizeof(*handles));
	if (!handles)
		return -ENOMEM;
	k->handles = handles;
	k->names[k->n] = sd->name;
	k->handles[k->n] = sd->handle;
	k->n++;
	return 0;
}

/*
 * The subdevices @typed names (every one when @n is 0), in the order
 * given, a glob's matches in the tree's order (by name). A name that is no
 * subdevice's value, a glob that matches none, are said on @err. Return 0
 * or -1.
 */
static int select_keys(const struct dcmctl_opts *o, const struct dcm_tree *t, char **typed,
		       size_t n, struct rec_keys *k, FILE *err)
{
	size_t nsub = dcm_tree_n_subdevices(t), i, j, matched;
	const struct dcm_tree_subdevice *sd;
	struct dcm_sysfs *s = NULL;
	int ret = 0;

	if (!n) {
		for (j = 0; j < nsub; j++)
			if (rec_keys_add(k, dcm_tree_subdevice(t, j)))
				goto oom;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (is_glob(typed[i])) {
			matched = 0;
			for (j = 0; j < nsub; j++) {
				sd = dcm_tree_subdevice(t, j);
				if (!glob_matches(typed[i], sd->name))
					continue;
				if (rec_keys_add(k, sd))
					goto oom;
				matched++;
			}
			if (!matched) {
				fprintf(err, "dcmctl: %s: no subdevice's value matches\n", typed[i]);
				ret = -1;
			}
			continue;
		}
		sd = dcm_tree_find(t, typed[i]);
		if (sd) {
			if (rec_keys_add(k, sd))
				goto oom;
			continue;
		}
		if (!s && o->dev_index >= 0 && dcm_sysfs_open(o->root, (unsigned int)o->dev_index, &s))
			s = NULL;
		{
			struct dcmctl_keyref kr;

			if (s && !dcmctl_key_resolve(s, typed[i], &kr))
				fprintf(err, "dcmctl: %s: not a subdevice's value: the frames carry those only (dcmctl watch reads the others)\n",
					typed[i]);
			else
				dcmctl_key_error(s, typed[i], -ENOENT, err, NULL);
		}
		ret = -1;
	}
	dcm_sysfs_close(s);
	return ret;
oom:
	dcm_sysfs_close(s);
	fprintf(err, "dcmctl: out of memory\n");
	return -1;
}

/* ------------------------------------------------------------------
 * Rows
 */

static void write_header(FILE *f, int fmt, const struct rec_keys *k)
{
	size_t i;

	if (fmt != DCMCTL_REC_CSV)
		return;
	fputs("cycle,time,wall,missed", f);
	for (i = 0; i < k->n; i++)
		fprintf(f, ",%s", k->names[i]);
	fputc('\n', f);
}

/* One row: the frame's values of @k, from @values (by handle index). */
static void write_row(FILE *f, int fmt, const struct rec_keys *k, uint64_t cycle,
		      uint32_t time, double wall, uint64_t missed, const double *values)
{
	struct json_writer w;
	size_t i;

	if (fmt == DCMCTL_REC_CSV) {
		fprintf(f, "%" PRIu64 ",%u,%.6f,%" PRIu64, cycle, time, wall, missed);
		for (i = 0; i < k->n; i++)
			fprintf(f, ",%.9g", values[LIBDCM_HANDLE_INDEX(k->handles[i])]);
		fputc('\n', f);
		return;
	}
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "cycle", cycle);
	json_uint(&w, "time", time);
	json_double(&w, "wall", wall);
	json_uint(&w, "missed", missed);
	json_begin_object(&w, "values");
	for (i = 0; i < k->n; i++)
		json_double(&w, k->names[i], values[LIBDCM_HANDLE_INDEX(k->handles[i])]);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
}

/* ------------------------------------------------------------------
 * record's arguments
 */


/* A size: digits, then k, M or G (powers of 1024). */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	default: break;
	}
	if (*end || !v)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > 1e7)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_format(const char *s, int *fmt)
{
	if (!strcmp(s, "csv"))
		*fmt = DCMCTL_REC_CSV;
	else if (!strcmp(s, "jsonl") || !strcmp(s, "json"))
		*fmt = DCMCTL_REC_JSONL;
	else
		return -EINVAL;
	return 0;
}

int dcmctl_parse_record(int argc, char **argv, struct dcmctl_record_args *a, char *err,
			size_t errlen)
{
	const struct dcmctl_optspec spec = dcmctl_spec_record;
	struct dcmctl_getopt g;
	uint64_t v;
	int c, r = -EINVAL;

	memset(a, 0, sizeof(*a));
	a->every = 1;
	if (dcmctl_getopt_init(&g, &spec, argc, argv)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		switch (c) {
		case 'e':
			if (parse_uint(g.optarg, 1, 1000000, &a->every)) {
				snprintf(err, errlen, "record: invalid --every '%s' (1 to 1000000 cycles)",
					 g.optarg);
				goto out;
			}
			break;
		case 'c':
			if (parse_uint(g.optarg, 1, UINT64_MAX, &a->cycles)) {
				snprintf(err, errlen, "record: invalid cycle count '%s'", g.optarg);
				goto out;
			}
			break;
		case 't':
			if (parse_seconds(g.optarg, &a->duration)) {
				snprintf(err, errlen, "record: invalid duration '%s' (seconds, > 0)",
					 g.optarg);
				goto out;
			}
			break;
		case 'o':
			a->output = g.optarg;
			break;
		case 'f':
			if (parse_format(g.optarg, &a->fmt)) {
				snprintf(err, errlen, "record: unknown format '%s' (csv or jsonl)",
					 g.optarg);
				goto out;
			}
			a->fmt_given = true;
			break;
		case DCMCTL_OPT_MAX_SIZE:
			if (parse_size(g.optarg, &a->max_size)) {
				snprintf(err, errlen, "record: invalid size '%s' (bytes, or 10k, 5M, 1G)",
					 g.optarg);
				goto out;
			}
			break;
		default:	/* --max-files */
			if (parse_uint(g.optarg, 1, 10000, &v)) {
				snprintf(err, errlen, "record: invalid --max-files '%s' (1 to 10000)",
					 g.optarg);
				goto out;
			}
			a->max_files = (unsigned int)v;
			break;
		}
	}
	if (c)
		goto out;
	if ((a->max_size || a->max_files) && !a->output) {
		snprintf(err, errlen, "record: --max-size and --max-files rotate the file of --output");
		goto out;
	}
	if (a->max_files && !a->max_size) {
		snprintf(err, errlen, "record: --max-files needs --max-size (when to rotate)");
		goto out;
	}
	if (a->max_size && !a->max_files)
		a->max_files = 10;
	a->n = (size_t)g.n_args;
	if (a->n) {
		a->keys = calloc(a->n, sizeof(*a->keys));
		if (!a->keys) {
			snprintf(err, errlen, "out of memory");
			r = -ENOMEM;
			goto out;
		}
		memcpy(a->keys, g.args, a->n * sizeof(*a->keys));
	}
	r = 0;
out:
	dcmctl_getopt_free(&g);
	return r;
}

void dcmctl_record_args_free(struct dcmctl_record_args *a)
{
	free(a->keys);
	a->keys = NULL;
}

/* ------------------------------------------------------------------
 * The output: stdout, or a file rotated past a size
 */

struct rec_out {
	const struct dcmctl_record_args *a;
	FILE *f;
	uint64_t written;		/* bytes in the current file */
	unsigned int rotations;
};

static int out_open(struct rec_out *o, FILE *err)
{
	if (!o->a->output) {
		o->f = stdout;
		return 0;
	}
	o->f = fopen(o->a->output, "w");
	if (!o->f) {
		fprintf(err, "dcmctl: record: %s: %s\n", o->a->output, strerror(errno));
		return -1;
	}
	o->written = 0;
	return 0;
}

/* FILE -> FILE.1 -> ... -> FILE.(max_files - 1); the oldest goes. */
static int out_rotate(struct rec_out *o, const struct rec_keys *k, FILE *err)
{
	const char *base = o->a->output;
	size_t len = strlen(base) + 16;
	char *from = malloc(len), *to = malloc(len);
	unsigned int i;
	int ret = -1;

	if (!from || !to) {
		fprintf(err, "dcmctl: out of memory\n");
		goto out;
	}
	if (fclose(o->f)) {
		o->f = NULL;
		fprintf(err, "dcmctl: record: %s: %s\n", base, strerror(errno));
		goto out;
	}
	o->f = NULL;
	if (o->a->max_files == 1) {
		unlink(base);
	} else {
		for (i = o->a->max_files - 1; i >= 1; i--) {
			if (i == 1)
				snprintf(from, len, "%s", base);
			else
				snprintf(from, len, "%s.%u", base, i - 1);
			snprintf(to, len, "%s.%u", base, i);
			if (rename(from, to) && errno != ENOENT) {
				fprintf(err, "dcmctl: record: rename %s: %s\n", from, strerror(errno));
				goto out;
			}
		}
	}
	if (out_open(o, err))
		goto out;
	write_header(o->f, o->a->fmt, k);
	o->rotations++;
	ret = 0;
out:
	free(from);
	free(to);
	return ret;
}

/* ------------------------------------------------------------------
 * record
 */

/* The frames' subdevices again after a new description: the same names. */
static int remap(struct dcm *dcm, const struct dcmctl_opts *o, struct dcm_tree **t,
		 struct rec_keys *k, FILE *err)
{
	struct dcm_tree *nt;
	size_t i;

	if (dcm_tree_read(dcm, o->root, 0, &nt)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return -1;
	}
	for (i = 0; i < k->n; i++) {
		const struct dcm_tree_subdevice *sd = dcm_tree_find(nt, k->names[i]);

		if (!sd) {
			fprintf(err, "dcmctl: the new description has no %s\n", k->names[i]);
			dcm_tree_free(nt);
			return -1;
		}
		k->names[i] = sd->name;
		k->handles[i] = sd->handle;
	}
	dcm_tree_free(*t);
	*t = nt;
	return 0;
}

int dcmctl_record(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_values_frame f = { 0 };
	struct dcmctl_record_args ra;
	struct dcmctl_record_args *a = &ra;
	struct rec_out ro = { 0 };
	struct rec_keys k = { 0 };
	struct dcm_tree *t = NULL;
	struct dcm *dcm = NULL;
	uint64_t rows = 0, missed = 0, missed_total = 0, gaps = 0, last = 0, due = 0;
	uint64_t first = 0;
	uint32_t t0 = 0;
	char msg[256];
	long pos;
	size_t i;
	int r, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_record(o->argc, o->argv, &ra, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->json && !a->fmt_given)
		a->fmt = DCMCTL_REC_JSONL;
	ro.a = a;
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (dcm_tree_read(dcm, o->root, 0, &t)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	if (!dcm_tree_n_subdevices(t)) {
		fprintf(err, "dcmctl: record: no robot description is loaded\n");
		goto out;
	}
	if (select_keys(o, t, a->keys, a->n, &k, err))
		goto out;
	/* The live keys (status words, sonar echoes) too: the frames must carry them. */
	if (dcm_frame_keys(dcm, true)) {
		fprintf(err, "dcmctl: record: %s\n", dcm_last_error());
		goto out;
	}
	if (a->output) {
		if (out_open(&ro, err))
			goto out;
	} else {
		ro.f = out;
	}
	write_header(ro.f, a->fmt, &k);
	catch_signals(false);
	while (!stop_asked) {
		r = dcm_read_frame(dcm, &f);
		if (r == -EINTR)
			continue;
		if (r) {
			fprintf(err, "dcmctl: record: %s\n", dcm_last_error());
			goto out;
		}
		if (f.generation != dcm_tree_generation(t)) {
			if (remap(dcm, o, &t, &k, err)) {
				fprintf(err, "dcmctl: record: the description was replaced\n");
				goto out;
			}
			if (f.generation != dcm_tree_generation(t))
				continue;	/* replaced again: the next frame */
		}
		if (!first) {
			first = f.cycle;
			t0 = f.time;
			due = f.cycle;
		} else if (f.cycle > last + 1) {
			/* cycles this reader did not get: counted, never silent */
			missed += f.cycle - last - 1;
			missed_total += f.cycle - last - 1;
			gaps++;
		}
		last = f.cycle;
		if (a->duration > 0 && (double)(uint32_t)(f.time - t0) >= a->duration * 1000)
			break;
		if (a->cycles && f.cycle - first >= a->cycles)
			break;
		if (f.cycle < due)
			continue;
		for (i = 0; i < k.n; i++) {
			if (LIBDCM_HANDLE_INDEX(k.handles[i]) >= f.n_values) {
				fprintf(err, "dcmctl: record: a frame of %zu values has no %s\n",
					f.n_values, k.names[i]);
				goto out;
			}
		}
		pos = a->output ? ftell(ro.f) : 0;
		write_row(ro.f, a->fmt, &k, f.cycle, f.time, wall_now(), missed, f.values);
		missed = 0;
		rows++;
		due = f.cycle + a->every;
		if (a->output) {
			long now = ftell(ro.f);

			if (now > pos)
				ro.written += (uint64_t)(now - pos);
			if (a->max_size && ro.written >= a->max_size && out_rotate(&ro, &k, err))
				goto out;
		} else {
			fflush(ro.f);	/* a row a cycle, also into a pipe */
		}
	}
	if (ro.f && fflush(ro.f)) {
		fprintf(err, "dcmctl: record: %s\n", strerror(errno));
		goto out;
	}
	fprintf(err, "dcmctl: record: %" PRIu64 " rows, cycles %" PRIu64 " to %" PRIu64
		", %" PRIu64 " missed in %" PRIu64 " gaps%s\n", rows, first, last, missed_total,
		gaps, ro.rotations ? ", files rotated" : "");
	ret = DCMCTL_EXIT_OK;
out:
	if (ro.f && ro.f != out && fclose(ro.f) && ret == DCMCTL_EXIT_OK) {
		fprintf(err, "dcmctl: record: %s: %s\n", a->output, strerror(errno));
		ret = DCMCTL_EXIT_FAIL;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	dcm_values_frame_release(&f);
	rec_keys_free(&k);
	dcm_tree_free(t);
	dcm_close(dcm);
	dcmctl_record_args_free(&ra);
	fflush(out);
	return ret;
}

int dcmctl_cmd_record(const struct dcmctl_opts *o)
{
	return dcmctl_record(o, stdout, stderr);
}
