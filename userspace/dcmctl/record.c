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
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dcm.h>

#include "json.h"
#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "events.h"
#include "frames.h"
#include "keyname.h"
#include "record.h"

static const struct optdef record_opts[] = {
	{ "output", 'o', 'o', "FILE", "into FILE (default: stdout)" },
	{ "format", 'f', 'f', "FORMAT", "csv (default) or jsonl (the default with -j)" },
	{ "every", 'e', 'e', "N", "a row every N cycles (default 1: every cycle)" },
	{ "cycles", 'c', 'c', "N", "stop after N cycles (default: until interrupted)" },
	{ "duration", 't', 't', "SEC", "stop after SEC seconds of DCM time" },
	{ "max-size", 0, DCMCTL_OPT_MAX_SIZE, "SIZE",
	  "rotate FILE past SIZE bytes (k, M, G: KiB, MiB, GiB)" },
	{ "max-files", 0, DCMCTL_OPT_MAX_FILES, "N",
	  "keep N files: FILE, FILE.1, ... (default 10)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef flight_opts[] = {
	{ "seconds", 's', 's', "SEC", "keep the last SEC seconds (default 10)" },
	{ "after", 0, DCMCTL_OPT_AFTER, "SEC", "and SEC seconds after a safety event (default 2)" },
	{ "dir", 'D', 'D', "DIR", "its files and pid file (default /var/lib/dcm/flight)" },
	{ "keep", 0, DCMCTL_OPT_KEEP, "N", "keep the newest N files (default 20; 0: all)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct optdef flight_dump_opts[] = {
	{ "dir", 'D', 'D', "DIR", "the recorder's directory (default /var/lib/dcm/flight)" },
	{ "timeout", 0, DCMCTL_OPT_TIMEOUT, "SEC", "wait SEC s for the file (default 10)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_record = {
	.cmd = "record", .opts = record_opts, .prefix_missing = true,
};
const struct dcmctl_optspec dcmctl_spec_flight = {
	.cmd = "flight", .opts = flight_opts, .prefix_missing = true,
};
const struct dcmctl_optspec dcmctl_spec_flight_dump = {
	.cmd = "flight-dump", .opts = flight_dump_opts, .prefix_missing = true,
};

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

/* ------------------------------------------------------------------
 * The keys: names, globs, or every subdevice
 */

/* @pattern against a subdevice's value, in any form dcmctl_glob_matches() takes. */
static bool glob_matches(const char *pattern, const char *name)
{
	char full[DCMCTL_KEY_LEN * 2];

	snprintf(full, sizeof(full), DCM_PREFIX_SUBDEVICE "%s/Value", name);
	return dcmctl_glob_matches(pattern, full);
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
		if (dcmctl_is_glob(typed[i])) {
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

/* A size: digits, then k, M or G (powers of 1024); not 0. */
static int parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "kKMG";
	static const unsigned int shift[] = { 10, 10, 20, 30 };
	size_t len = strlen(s);
	unsigned long long v;
	unsigned int sh = 0;
	const char *u;
	char digits[32];

	u = len ? strchr(units, s[len - 1]) : NULL;
	if (u && *u) {
		sh = shift[u - units];
		len--;
	}
	if (len >= sizeof(digits))
		return -EINVAL;
	memcpy(digits, s, len);
	digits[len] = '\0';
	if (num_parse_ull(digits, 10, 1, ULLONG_MAX >> sh, &v))
		return -EINVAL;
	*out = v << sh;
	return 0;
}

static int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;

	if (num_parse_ull(s, 10, min, max, &v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Seconds: more than 0, at most 10^7. */
static int parse_seconds(const char *s, double *out)
{
	double v;

	if (num_parse_double(s, 0, 1e7, &v) || v <= 0)
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

/* What record's remap needs: where the tree comes from, and the keys. */
struct rec_remap {
	struct dcm *dcm;
	const struct dcmctl_opts *o;
	struct dcm_tree **t;
	struct rec_keys *k;
	FILE *err;
};

/* The frames' subdevices again after a new description: the same names. */
static int remap(void *ctx)
{
	struct rec_remap *rm = ctx;
	struct dcm *dcm = rm->dcm;
	const struct dcmctl_opts *o = rm->o;
	struct dcm_tree **t = rm->t;
	struct rec_keys *k = rm->k;
	FILE *err = rm->err;
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

/* Frames in the ring between the reader and the writer: 10 s at 10 ms. */
#define RECORD_RING	1000

int dcmctl_record(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_record_args ra;
	struct dcmctl_record_args *a = &ra;
	struct dcmctl_ring ring = { 0 };
	struct rec_out ro = { 0 };
	struct rec_keys k = { 0 };
	struct dcm_tree *t = NULL;
	struct dcm *dcm = NULL;
	struct rec_remap rm = { .o = o, .t = &t, .k = &k, .err = err };
	struct dcmctl_frame_keys fk = { .cmd = "record", .remap = remap, .ctx = &rm };
	struct dcm_info info;
	uint64_t rows = 0, missed = 0, missed_total = 0, gaps = 0, last = 0, last_row = 0, due = 0;
	uint64_t first = 0;
	uint32_t t0 = 0;
	char msg[256];
	long pos;
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
	if (dcm_tree_read(dcm, o->root, 0, &t) || dcm_get_info(dcm, &info)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	if (!dcm_tree_n_subdevices(t)) {
		fprintf(err, "dcmctl: record: no robot description is loaded\n");
		goto out;
	}
	if (select_keys(o, t, a->keys, a->n, &k, err))
		goto out;
	rm.dcm = dcm;
	fk.n = k.n;
	fk.handles = k.handles;
	fk.names = k.names;
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
	if (dcmctl_ring_start(&ring, dcm, RECORD_RING, info.n_subdevices, false, err))
		goto out;
	while (!stop_asked) {
		struct dcmctl_ring_slot m;
		const double *v;

		r = dcmctl_ring_next(&ring, 200, &fk, &m, &v, err);
		if (!r)
			continue;
		if (r < 0)
			goto out;
		if (!first) {
			first = m.cycle;
			t0 = m.time;
			due = m.cycle;
		}
		/* The frame that ends the recording is not one of it: nor its gap. */
		if ((a->duration > 0 && (double)(uint32_t)(m.time - t0) >= a->duration * 1000) ||
		    (a->cycles && m.cycle - first >= a->cycles)) {
			dcmctl_ring_release(&ring);
			break;
		}
		if (last && m.cycle > last + 1) {
			/* cycles this recorder did not get: counted, never silent */
			missed += m.cycle - last - 1;
			missed_total += m.cycle - last - 1;
			gaps++;
		}
		last = m.cycle;
		if (m.cycle < due) {
			dcmctl_ring_release(&ring);
			continue;
		}
		pos = a->output ? ftell(ro.f) : 0;
		write_row(ro.f, a->fmt, &k, m.cycle, m.time, m.wall, missed, v);
		dcmctl_ring_release(&ring);
		missed = 0;
		rows++;
		last_row = m.cycle;
		due = m.cycle + a->every;
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
		", %" PRIu64 " missed in %" PRIu64 " gaps%s\n", rows, first, last_row, missed_total,
		gaps, ro.rotations ? ", files rotated" : "");
	ret = DCMCTL_EXIT_OK;
out:
	dcmctl_ring_stop(&ring);
	if (ro.f && ro.f != out && fclose(ro.f) && ret == DCMCTL_EXIT_OK) {
		fprintf(err, "dcmctl: record: %s: %s\n", a->output, strerror(errno));
		ret = DCMCTL_EXIT_FAIL;
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	rec_keys_free(&k);
	dcm_tree_free(t);
	dcm_close(dcm);
	dcmctl_record_args_free(&ra);
	fflush(out);
	return ret;
}

/* ------------------------------------------------------------------
 * flight: the last seconds of every key, written out when a safety rule
 * starts acting or on demand
 */

#define FLIGHT_DIR		"/var/lib/dcm/flight"
#define FLIGHT_PID		"flight.pid"
#define FLIGHT_LATEST		"flight-latest.jsonl"
#define FLIGHT_KEEP		20	/* files of a controller, by default */
#define FLIGHT_KEEP_MAX		100000

int dcmctl_parse_flight(const struct dcmctl_optspec *spec, int argc, char **argv,
			struct dcmctl_flight_args *a, char *err, size_t errlen)
{
	struct dcmctl_getopt g;
	int c, r = -EINVAL;

	memset(a, 0, sizeof(*a));
	a->seconds = 10;
	a->after = 2;
	a->dir = FLIGHT_DIR;
	a->keep = FLIGHT_KEEP;
	a->timeout = 10;
	if (dcmctl_getopt_init(&g, spec, argc, argv)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		switch (c) {
		case 's':
			if (parse_seconds(g.optarg, &a->seconds) || a->seconds > 600) {
				snprintf(err, errlen, "flight: invalid --seconds '%s' (> 0, at most 600)",
					 g.optarg);
				goto out;
			}
			break;
		case DCMCTL_OPT_AFTER:
			if (!strcmp(g.optarg, "0")) {
				a->after = 0;
			} else if (parse_seconds(g.optarg, &a->after) || a->after > 60) {
				snprintf(err, errlen, "flight: invalid --after '%s' (0 to 60 s)",
					 g.optarg);
				goto out;
			}
			break;
		case DCMCTL_OPT_TIMEOUT:
			if (parse_seconds(g.optarg, &a->timeout)) {
				snprintf(err, errlen, "flight: invalid --timeout '%s' (seconds)",
					 g.optarg);
				goto out;
			}
			break;
		case DCMCTL_OPT_KEEP: {
			uint64_t v;

			if (parse_uint(g.optarg, 0, FLIGHT_KEEP_MAX, &v)) {
				snprintf(err, errlen, "flight: invalid --keep '%s' (0 to %d files)",
					 g.optarg, FLIGHT_KEEP_MAX);
				goto out;
			}
			a->keep = (unsigned int)v;
			break;
		}
		default:	/* --dir */
			a->dir = g.optarg;
			break;
		}
	}
	if (!c && g.n_args)
		snprintf(err, errlen, "%s: '%s' is not an option", spec->cmd, g.args[0]);
	else if (!c)
		r = 0;
out:
	dcmctl_getopt_free(&g);
	return r;
}

/* ------------------------------------------------------------------
 * The directory and the pid file
 */

int dcmctl_flight_dir_open(const char *dir, bool create, bool any_owner, char *why, size_t len)
{
	struct stat st;
	int fd, e;

	if (create && mkdir(dir, 0755) && errno != EEXIST) {
		e = errno;
		snprintf(why, len, "%s: %s", dir, strerror(e));
		return -e;
	}
	/* the directory itself no symbolic link; every file then relative to it */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		/* O_DIRECTORY says ENOTDIR of a link, O_NOFOLLOW alone ELOOP */
		if (e == ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode))
			e = ELOOP;
		if (e == ELOOP)
			snprintf(why, len, "%s: a symbolic link: refused (give the directory itself)",
				 dir);
		else
			snprintf(why, len, "%s: %s", dir, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		snprintf(why, len, "%s: %s", dir, strerror(e));
		close(fd);
		return -e;
	}
	if (!any_owner && st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(why, len, "%s: owned by uid %u, neither this user (uid %u) nor root: refused (its owner could put links in it)",
			 dir, (unsigned int)st.st_uid, (unsigned int)geteuid());
		close(fd);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "%s: writable by %s (mode %04o): refused (they could put links in it)",
			 dir, st.st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Who holds the write lock on the pid file @fd: a pid, 0 (no one), or -errno. */
static pid_t lock_holder(int fd)
{
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl))
		return -errno;
	if (fl.l_type == F_UNLCK)
		return 0;
	/* a holder in another pid namespace has no pid here */
	return fl.l_pid > 0 ? fl.l_pid : -ESRCH;
}

int dcmctl_flight_pid_lock(int dirfd, pid_t *holder)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat st, now;
	char buf[32];
	int fd, e, tries, len;

	*holder = 0;
	for (tries = 0; tries < 5; tries++) {
		fd = openat(dirfd, FLIGHT_PID, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;	/* ELOOP: a symbolic link */
		if (fstat(fd, &st)) {
			e = errno;
			close(fd);
			return -e;
		}
		if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
			close(fd);
			return -EMLINK;	/* a hard link to another file, or no file */
		}
		/* a POSIX lock: F_GETLK tells flight-dump the holder's pid */
		if (fcntl(fd, F_SETLK, &fl)) {
			e = errno;
			if (e == EAGAIN || e == EACCES) {
				*holder = lock_holder(fd);
				e = EAGAIN;
			}
			close(fd);
			return -e;
		}
		/* still the file of that name: not one a recorder ending just unlinked */
		if (!fstatat(dirfd, FLIGHT_PID, &now, AT_SYMLINK_NOFOLLOW) &&
		    now.st_dev == st.st_dev && now.st_ino == st.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -EAGAIN;
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)len, 0) != len) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

pid_t dcmctl_flight_pid_holder(int dirfd, long *written)
{
	char buf[32];
	ssize_t n;
	pid_t pid;
	int fd;

	*written = 0;
	fd = openat(dirfd, FLIGHT_PID, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	*written = strtol(buf, NULL, 10);
	pid = lock_holder(fd);
	close(fd);
	return pid;
}

#ifndef __NR_pidfd_open
#define __NR_pidfd_open		434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal	424
#endif

/*
 * SIGUSR1 to the recorder holding the lock of DIR/flight.pid, and to no
 * other process: its pidfd is taken, then the lock is checked to be still
 * that process's (a pid freed and given again in between would fail this),
 * and the signal goes through the pidfd. Return 0 or -errno (@why said).
 */
static int signal_recorder(int dirfd, const char *dir, pid_t *pid, char *why, size_t len)
{
	long written;
	pid_t again;
	int pidfd, e;

	*pid = dcmctl_flight_pid_holder(dirfd, &written);
	if (*pid == -ENOENT) {
		snprintf(why, len, "no flight recorder runs on %s (no %s)", dir, FLIGHT_PID);
		return -ENOENT;
	}
	if (*pid < 0) {
		snprintf(why, len, "%s/%s: %s", dir, FLIGHT_PID,
			 *pid == -ELOOP ? "a symbolic link: refused" :
			 *pid == -ESRCH ? "locked by a process of another pid namespace" :
			 strerror(-*pid));
		return *pid;
	}
	if (!*pid) {
		snprintf(why, len, "no flight recorder runs on %s: %s names pid %ld but no recorder holds it (a stale pid file): nothing signalled",
			 dir, FLIGHT_PID, written);
		return -ESRCH;
	}
	pidfd = (int)syscall(__NR_pidfd_open, *pid, 0);
	if (pidfd < 0 && errno != ENOSYS) {
		e = errno;
		snprintf(why, len, "the recorder (pid %ld): %s", (long)*pid,
			 e == ESRCH ? "gone" : strerror(e));
		return -e;
	}
	again = dcmctl_flight_pid_holder(dirfd, &written);
	if (again != *pid) {
		snprintf(why, len, "the recorder (pid %ld) ended meanwhile: nothing signalled",
			 (long)*pid);
		if (pidfd >= 0)
			close(pidfd);
		return -ESRCH;
	}
	if (pidfd >= 0) {
		e = syscall(__NR_pidfd_send_signal, pidfd, SIGUSR1, NULL, 0) ? errno : 0;
		close(pidfd);
	} else {
		e = kill(*pid, SIGUSR1) ? errno : 0;	/* a kernel before 5.3 */
	}
	if (e) {
		snprintf(why, len, "the recorder (pid %ld): %s", (long)*pid,
			 e == ESRCH ? "gone" : strerror(e));
		return -e;
	}
	return 0;
}

/* ------------------------------------------------------------------
 * The events the recorder keeps: the safety ones apart, so that a flood
 * of others cannot push them out before a dump
 */

#define FLIGHT_EVENTS		1024	/* the others */
#define FLIGHT_SAFETY_EVENTS	256

struct kept_event {
	uint64_t order;			/* as received: the rings are merged by it */
	uint64_t seq;
	bool has_seq;
	struct dcm_event_msg e;
};

struct event_ring {
	struct kept_event *ev;
	size_t slots;
	uint64_t n;			/* kept in total; the last @slots are there */
};

/* Why a dump is written: the events that asked for it. */
struct flight_state {
	const struct dcmctl_opts *o;
	const struct dcmctl_flight_args *a;
	struct dcmctl_ring *ring;
	struct dcm_tree *tree;
	unsigned int index;
	int dirfd;			/* the directory, checked; every file relative to it */
	char reason[512];		/* "safety cycle-fault; ..." */
	bool pending;			/* a trigger waits for its --after seconds */
	double due;			/* wall clock of the pending dump */
	unsigned int dumps;
	struct dcm_event_follow follow;	/* where the recorder is in the events */
	uint64_t lost_said;		/* follow.lost already marked */
	uint64_t order;
	struct event_ring safety, other;
};

static void keep_event(struct flight_state *st, const struct dcm_nl_event *ev,
		       const struct dcm_event_msg *e)
{
	struct event_ring *r = dcm_event_type_safety(e->type) ? &st->safety : &st->other;
	struct kept_event *k;

	if (!r->ev)
		return;
	k = &r->ev[r->n++ % r->slots];
	k->order = st->order++;
	k->has_seq = !dcm_nl_event_seq(ev->nlh, &k->seq);
	k->e = *e;
}

/* An event of the history read at the start, or after the fork: kept, no trigger. */
static int flight_keep(const struct dcm_nl_event *ev, void *arg)
{
	struct flight_state *st = arg;
	struct dcm_event_msg e;

	if (!dcm_nl_parse_event(ev->nlh, &e) && e.index == st->index)
		keep_event(st, ev, &e);
	return 0;
}

/* Does @e ask for a dump: a safety rule starting, a temperature status rising, a fall? */
static bool flight_trigger(const struct dcm_event_msg *e)
{
	if (e->type == DCM_EV_SAFETY || e->type == DCM_EV_FALL)
		return e->value == 1;
	if (e->type == DCM_EV_TEMPERATURE)
		return e->value > e->code;
	return false;
}

static void add_reason(struct flight_state *st, const char *why)
{
	size_t len = strlen(st->reason);

	if (strstr(st->reason, why))
		return;
	snprintf(st->reason + len, sizeof(st->reason) - len, "%s%s", len ? "; " : "", why);
}

/* A live event, or one read from the history after an overrun. */
static int flight_on_event(const struct dcm_nl_event *ev, void *arg)
{
	struct flight_state *st = arg;
	struct dcm_event_msg e;
	char why[160];

	if ((ev->cmd != DCM_CMD_EVENT && ev->cmd != DCM_CMD_GET_EVENTS) ||
	    dcm_nl_parse_event(ev->nlh, &e) || e.index != st->index)
		return 0;
	keep_event(st, ev, &e);
	if (!flight_trigger(&e))
		return 0;
	if (e.type == DCM_EV_SAFETY)
		snprintf(why, sizeof(why), "safety %s%s%s",
			 dcm_safety_rule_name(e.code) ? dcm_safety_rule_name(e.code) : "rule",
			 e.device[0] ? " " : "", e.device);
	else if (e.type == DCM_EV_FALL)
		snprintf(why, sizeof(why), "fall (%s)", e.text);
	else
		snprintf(why, sizeof(why), "temperature %s status %u",
			 e.device, (unsigned int)e.value);
	add_reason(st, why);
	if (!st->pending) {
		st->pending = true;
		st->due = dcmctl_wall_now() + st->a->after;
	}
	return 0;
}

/* The oldest kept event of @r not yet written, or NULL. */
static const struct kept_event *ring_at(const struct event_ring *r, uint64_t i)
{
	return i < r->n ? &r->ev[i % r->slots] : NULL;
}

/*
 * The kept events of the window (from a second before @from, the DCM time
 * of the first frame kept), both rings merged in the order received.
 * Return the number written.
 */
static unsigned int write_events(const struct flight_state *st, struct json_writer *w, FILE *f,
				 uint32_t from)
{
	uint64_t i = st->safety.n > st->safety.slots ? st->safety.n - st->safety.slots : 0;
	uint64_t j = st->other.n > st->other.slots ? st->other.n - st->other.slots : 0;
	const struct kept_event *a, *b, *k;
	unsigned int n = 0;

	for (;;) {
		a = ring_at(&st->safety, i);
		b = ring_at(&st->other, j);
		if (!a && !b)
			break;
		if (a && (!b || a->order < b->order)) {
			k = a;
			i++;
		} else {
			k = b;
			j++;
		}
		/* the kept seconds and a second before them: what led there */
		if ((int32_t)(k->e.time_ms - (from - 1000)) < 0)
			continue;
		json_init(w, f, false);
		json_begin_object(w, NULL);
		dcmctl_json_event(w, "event", &k->e);
		if (k->has_seq)
			json_uint(w, "seq", k->seq);
		json_end_object(w);
		json_end_object(w);
		json_finish(w);
		n++;
	}
	return n;
}

/*
 * Write the ring (this process's copy: the child of a fork) into one file
 * of the directory: a header that says why, the events of the window, then
 * a row a cycle. Written under a temporary name (created, never opened
 * through a link), renamed, and FLIGHT_LATEST pointed at it; every name is
 * taken relative to the directory opened and checked at the start. Return
 * 0 or -1 (said on stderr).
 */
static int flight_write(struct flight_state *st, const char *reason, double when)
{
	const struct dcmctl_ring *r = st->ring;
	uint64_t i, rows = 0, missed = 0, last = 0, gaps = 0, other = 0;
	uint32_t gen = dcm_tree_generation(st->tree);
	size_t nsub = dcm_tree_n_subdevices(st->tree), j;
	struct dcm_nl *nl = NULL;
	char name[128], stamp[32], tmp[160], latest[64];
	const char *dir = st->a->dir;
	unsigned int nev = 0;
	struct json_writer w;
	struct tm tm;
	time_t secs = (time_t)when;
	int pruned, fd;
	FILE *f;

	localtime_r(&secs, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "flight-%s.%03d-dcm%u.jsonl", stamp,
		 (int)((when - (double)secs) * 1000), st->index);
	snprintf(tmp, sizeof(tmp), "%s.part", name);
	/* a leftover of that name goes (a link itself, not what it names) */
	unlinkat(st->dirfd, tmp, 0);
	fd = openat(st->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "dcmctl: flight: %s/%s: %s\n", dir, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* the events up to now: those the parent had not read yet at the fork */
	if (!dcm_nl_open(&nl)) {
		if (dcm_nl_event_catch_up(nl, &st->follow, flight_keep, st) < 0)
			fprintf(stderr, "dcmctl: flight: events: %s\n", dcm_last_error());
		dcm_nl_close(nl);
	}
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_begin_object(&w, "flight");
	json_string(&w, "reason", reason);
	json_uint(&w, "controller", st->index);
	json_double(&w, "wall", when);
	json_double(&w, "seconds", st->a->seconds);
	json_double(&w, "after", st->a->after);
	json_uint(&w, "frames", r->head - r->tail);
	json_begin_array(&w, "keys");
	for (j = 0; j < nsub; j++) {
		const struct dcm_tree_subdevice *sd = dcm_tree_by_index(st->tree, (unsigned int)j);

		json_string(&w, NULL, sd ? sd->name : "");
	}
	json_end_array(&w);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);

	/* the events: those kept, from a second before the first frame */
	if (r->head != r->tail)
		nev = write_events(st, &w, f, r->meta[r->tail % r->slots].time);

	for (i = r->tail; i < r->head; i++) {
		const struct dcmctl_ring_slot *m = &r->meta[i % r->slots];
		const double *v = &r->values[(i % r->slots) * r->width];
		uint64_t miss = 0;

		if (m->generation != gen) {
			other++;	/* a frame of another description: its handles differ */
			continue;
		}
		if (last && m->cycle > last + 1) {
			miss = m->cycle - last - 1;
			missed += miss;
			gaps++;
		}
		last = m->cycle;
		fprintf(f, "{\"cycle\":%" PRIu64 ",\"time\":%u,\"wall\":%.6f,\"missed\":%" PRIu64
			",\"values\":[", m->cycle, m->time, m->wall, miss);
		for (j = 0; j < m->n; j++)
			fprintf(f, "%s%.9g", j ? "," : "", isfinite(v[j]) ? v[j] : 0.0);
		fputs("]}\n", f);
		rows++;
	}
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_begin_object(&w, "end");
	json_uint(&w, "rows", rows);
	json_uint(&w, "missed", missed);
	json_uint(&w, "gaps", gaps);
	json_uint(&w, "events", nev);
	json_uint(&w, "events_lost", st->follow.lost);
	json_uint(&w, "other_description", other);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
	if (fclose(f)) {
		fprintf(stderr, "dcmctl: flight: %s/%s: %s\n", dir, tmp, strerror(errno));
		unlinkat(st->dirfd, tmp, 0);
		return -1;
	}
	if (renameat(st->dirfd, tmp, st->dirfd, name)) {
		fprintf(stderr, "dcmctl: flight: %s/%s: %s\n", dir, name, strerror(errno));
		unlinkat(st->dirfd, tmp, 0);
		return -1;
	}
	snprintf(latest, sizeof(latest), "%s.new", FLIGHT_LATEST);
	unlinkat(st->dirfd, latest, 0);
	if (symlinkat(name, st->dirfd, latest) ||
	    renameat(st->dirfd, latest, st->dirfd, FLIGHT_LATEST))
		fprintf(stderr, "dcmctl: flight: %s/%s: %s\n", dir, FLIGHT_LATEST, strerror(errno));
	printf("%s/%s\n", dir, name);
	fflush(stdout);
	/* the oldest beyond --keep go; never this one, whatever the clock did */
	pruned = dcmctl_flight_prune(st->dirfd, st->index, st->a->keep, name);
	if (pruned < 0)
		fprintf(stderr, "dcmctl: flight: removing old files of %s: %s\n", dir,
			strerror(-pruned));
	return 0;
}

/* Is @name one of dcm@index's flight files: flight-*-dcmN.jsonl? */
static bool flight_file_of(const char *name, unsigned int index)
{
	char suffix[32];
	size_t len = strlen(name), slen;

	slen = (size_t)snprintf(suffix, sizeof(suffix), "-dcm%u.jsonl", index);
	return !strncmp(name, "flight-", 7) && len > 7 + slen &&
	       !strcmp(name + len - slen, suffix);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dcmctl_flight_prune(int dirfd, unsigned int index, unsigned int keep, const char *spare)
{
	char **names = NULL, **more;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int removed = 0, fd;
	DIR *d;

	if (!keep)
		return 0;
	/* a descriptor of its own: closedir() closes it */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		i = (size_t)errno;
		close(fd);
		return -(int)i;
	}
	while ((de = readdir(d))) {
		if (!flight_file_of(de->d_name, index) || (spare && !strcmp(de->d_name, spare)))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			more = realloc(names, cap * sizeof(*names));
			if (!more)
				goto nomem;
			names = more;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto nomem;
		n++;
	}
	closedir(d);
	d = NULL;
	/* the names begin with the date and time: the oldest first */
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	if (spare)
		keep--;	/* @spare is one of those kept */
	for (i = 0; i + keep < n; i++) {
		if (!unlinkat(dirfd, names[i], 0))
			removed++;
		else if (errno != ENOENT)
			fprintf(stderr, "dcmctl: flight: %s: %s\n", names[i], strerror(errno));
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return removed;
nomem:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return -ENOMEM;
}

/*
 * Dump now: fork, and let the child write its copy of the ring while the
 * parent (and its reader thread) goes on. The ring's lock is held across
 * the fork, so the child's copy is whole; the child never takes it.
 */
static void flight_dump(struct flight_state *st, const char *reason)
{
	double when = dcmctl_wall_now();
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pthread_mutex_lock(&st->ring->lock);
	pid = fork();
	if (pid == 0)
		_exit(flight_write(st, reason, when) ? 1 : 0);
	pthread_mutex_unlock(&st->ring->lock);
	if (pid < 0)
		fprintf(stderr, "dcmctl: flight: fork: %s\n", strerror(errno));
	else
		st->dumps++;
}

int dcmctl_flight(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_flight_args a;
	struct flight_state st = { .o = o, .a = &a, .dirfd = -1 };
	struct dcmctl_ring ring = { 0 };
	struct dcm *dcm = NULL;
	struct dcm_nl *nl = NULL;
	struct dcm_info info;
	struct pollfd pfd;
	char msg[512];
	uint32_t gen;
	size_t slots;
	pid_t holder;
	int r, pidfd = -1, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_flight(&dcmctl_spec_flight, o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->json) {
		fprintf(err, "dcmctl: flight: -j: the recorder's files are JSON lines already; it prints their paths\n");
		return DCMCTL_EXIT_USAGE;
	}
	st.ring = &ring;
	/* SIGUSR1 caught before the lock says a recorder runs here: flight-dump may send it */
	catch_signals(true);
	st.dirfd = dcmctl_flight_dir_open(a.dir, true, false, msg, sizeof(msg));
	if (st.dirfd < 0) {
		fprintf(err, "dcmctl: flight: %s\n", msg);
		goto out;
	}
	/* one recorder a directory: the lock on its pid file says which, for its lifetime */
	pidfd = dcmctl_flight_pid_lock(st.dirfd, &holder);
	if (pidfd < 0) {
		if (pidfd == -EAGAIN && holder > 0)
			fprintf(err, "dcmctl: flight: another flight recorder (pid %ld) runs on %s\n",
				(long)holder, a.dir);
		else if (pidfd == -EAGAIN)
			fprintf(err, "dcmctl: flight: %s/%s is locked: another flight recorder runs on %s\n",
				a.dir, FLIGHT_PID, a.dir);
		else
			fprintf(err, "dcmctl: flight: %s/%s: %s\n", a.dir, FLIGHT_PID,
				pidfd == -ELOOP ? "a symbolic link: refused" :
				pidfd == -EMLINK ? "not a file of its own (a hard link, or no regular file): refused" :
				strerror(-pidfd));
		pidfd = -1;
		goto out;
	}
	st.safety.slots = FLIGHT_SAFETY_EVENTS;
	st.safety.ev = calloc(st.safety.slots, sizeof(*st.safety.ev));
	st.other.slots = FLIGHT_EVENTS;
	st.other.ev = calloc(st.other.slots, sizeof(*st.other.ev));
	if (!st.safety.ev || !st.other.ev) {
		fprintf(err, "dcmctl: out of memory\n");
		goto out;
	}
	if (dcmctl_open(o, &dcm, err))
		goto out;
	if (dcm_get_info(dcm, &info) || dcm_tree_read(dcm, o->root, 0, &st.tree)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	st.index = info.index;
	if (!info.n_subdevices) {
		fprintf(err, "dcmctl: flight: no robot description is loaded\n");
		goto out;
	}
	if (dcm_frame_keys(dcm, true)) {
		fprintf(err, "dcmctl: flight: %s\n", dcm_last_error());
		goto out;
	}
	r = dcm_nl_open(&nl);
	if (!r) {
		/* the history first (kept for the dumps), then the live events from its end */
		r = dcm_nl_event_follow_init(nl, &st.follow, st.index, flight_keep, &st);
		if (r < 0)
			fprintf(err, "dcmctl: flight: events history: %s: an overrun of the event socket will lose events\n",
				dcm_last_error());
		r = dcm_nl_subscribe_events(nl);
	}
	if (r) {
		fprintf(err, "dcmctl: flight: events: %s\n", dcm_last_error());
		goto out;
	}
	/* the kept seconds and the --after ones, at the controller's period */
	slots = (size_t)((a.seconds + a.after) * 1e6 / (info.period_us ? info.period_us : 10000)) + 1;
	if (dcmctl_ring_start(&ring, dcm, slots, info.n_subdevices, true, err))
		goto out;
	fprintf(err, "dcmctl: flight: keeping %g s of %u keys of dcm%u (%zu frames); files in %s\n",
		a.seconds, info.n_subdevices, info.index, slots, a.dir);
	pfd.fd = dcm_nl_event_fd(nl);
	pfd.events = POLLIN;
	while (!stop_asked) {
		r = poll(&pfd, 1, 100);
		if (r > 0) {
			r = dcm_nl_recv_follow(nl, &st.follow, flight_on_event, &st);
			if (r == -ENOBUFS)	/* a kernel without a history */
				add_reason(&st, "events lost (socket overrun)");
			else if (r < 0)
				fprintf(err, "dcmctl: flight: events: %s\n", dcm_last_error());
			if (st.follow.lost > st.lost_said) {
				/* only what the kernel's history no longer held */
				add_reason(&st, "events lost (gone from the kernel's history)");
				fprintf(err, "dcmctl: flight: %" PRIu64 " events lost: the kernel's history no longer held them\n",
					st.follow.lost - st.lost_said);
				st.lost_said = st.follow.lost;
			}
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		pthread_mutex_lock(&ring.lock);
		r = ring.done;
		gen = ring.head ? ring.meta[(ring.head - 1) % ring.slots].generation : 0;
		pthread_mutex_unlock(&ring.lock);
		if (r) {
			fprintf(err, "dcmctl: flight: %s\n", ring.why);
			goto out;
		}
		/* a new description: its names for the frames to come */
		if (gen && gen != dcm_tree_generation(st.tree)) {
			struct dcm_tree *nt;

			if (dcm_tree_read(dcm, o->root, 0, &nt)) {
				fprintf(err, "dcmctl: flight: %s\n", dcm_last_error());
			} else {
				dcm_tree_free(st.tree);
				st.tree = nt;
			}
		}
		if (dump_asked) {
			dump_asked = 0;
			flight_dump(&st, "on demand");
		}
		if (st.pending && dcmctl_wall_now() >= st.due) {
			flight_dump(&st, st.reason);
			st.pending = false;
			st.reason[0] = '\0';
		}
	}
	ret = DCMCTL_EXIT_OK;
out:
	dcmctl_ring_stop(&ring);
	while (waitpid(-1, NULL, 0) > 0)
		;
	if (pidfd >= 0) {
		unlinkat(st.dirfd, FLIGHT_PID, 0);
		close(pidfd);
	}
	if (st.dirfd >= 0)
		close(st.dirfd);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	free(st.safety.ev);
	free(st.other.ev);
	dcm_nl_close(nl);
	dcm_tree_free(st.tree);
	dcm_close(dcm);
	fflush(out);
	return ret;
}

/* The target of DIR/flight-latest.jsonl, or "". */
static void latest_target(int dirfd, char *buf, size_t len)
{
	ssize_t n;

	n = readlinkat(dirfd, FLIGHT_LATEST, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

int dcmctl_flight_dump(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_flight_args a;
	char msg[512], before[PATH_MAX], now[PATH_MAX];
	double end;
	pid_t pid;
	int dirfd, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_flight(&dcmctl_spec_flight_dump, o->argc, o->argv, &a, msg,
				sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	/*
	 * The same checks as the recorder's, but root asks any recorder (the
	 * unit's runs as a user of its own): the signal goes only to the
	 * process that holds the pid file's lock.
	 */
	dirfd = dcmctl_flight_dir_open(a.dir, false, geteuid() == 0, msg, sizeof(msg));
	if (dirfd < 0) {
		if (dirfd == -ENOENT)
			fprintf(err, "dcmctl: flight-dump: no flight recorder runs on %s (%s)\n",
				a.dir, msg);
		else
			fprintf(err, "dcmctl: flight-dump: %s\n", msg);
		return DCMCTL_EXIT_FAIL;
	}
	latest_target(dirfd, before, sizeof(before));
	if (signal_recorder(dirfd, a.dir, &pid, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: flight-dump: %s\n", msg);
		goto out;
	}
	end = dcmctl_wall_now() + a.timeout;
	for (;;) {
		latest_target(dirfd, now, sizeof(now));
		if (now[0] && strcmp(now, before))
			break;
		if (dcmctl_wall_now() > end) {
			fprintf(err, "dcmctl: flight-dump: no new file in %s after %g s\n", a.dir,
				a.timeout);
			goto out;
		}
		usleep(50000);
	}
	if (o->json) {
		char file[2 * PATH_MAX + 2];
		struct json_writer w;

		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		snprintf(file, sizeof(file), "%s/%s", a.dir, now);
		json_string(&w, "file", file);
		json_uint(&w, "pid", (uint64_t)pid);
		json_end_object(&w);
		json_finish(&w);
	} else {
		fprintf(out, "%s/%s\n", a.dir, now);
	}
	fflush(out);
	ret = DCMCTL_EXIT_OK;
out:
	close(dirfd);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_record = {
	.name = "record",
	.run = dcmctl_record,
	.args = "[KEY|GLOB...] [-o FILE [--max-size SIZE [--max-files N]]]\n"
		"[-f csv|jsonl] [--every N] [--cycles N | --duration SEC]",
	.help = "record the frames: chosen subdevices' values (all by default), every\n"
		"cycle or every Nth, with DCM time and the wall clock, as CSV or JSON\n"
		"lines",
	.details = "A KEY is a subdevice's value as get takes it; a GLOB ('*/Position/Sensor',\n"
		"'LFoot/FSR/*') selects every subdevice whose name matches, with or\n"
		"without Device/SubDeviceList/ and /Value; quote it for the shell. CSV:\n"
		"a header line \"cycle,time,wall,missed,KEY...\", then a row per recorded\n"
		"cycle; JSON lines: {\"cycle\", \"time\", \"wall\", \"missed\", \"values\"}.\n"
		"time is DCM time (ms), wall the wall clock when the frame was read\n"
		"(seconds since the epoch), missed the cycles this recorder did not get\n"
		"(counted from the frames' cycle numbers) since the row before: none is\n"
		"lost silently. The summary (rows, missed, gaps) goes to stderr at the\n"
		"end. With --max-size the file is renamed FILE.1 (FILE.1 FILE.2, ...)\n"
		"when it passes SIZE, and a new FILE begins with its own header; the\n"
		"oldest beyond --max-files goes. SIGINT and SIGTERM end a recording\n"
		"cleanly.",
	.spec = &dcmctl_spec_record,
};

const struct dcmctl_command dcmctl_cmd_flight = {
	.name = "flight",
	.run = dcmctl_flight,
	.args = "[--seconds SEC] [--after SEC] [--dir DIR] [--keep N]",
	.help = "the flight recorder: keep the last seconds of every key in memory and\n"
		"write them, with the events around, when a safety rule acts or on\n"
		"demand (flight-dump)",
	.details = "Runs until SIGINT or SIGTERM. Every subdevice's value of every cycle of\n"
		"the last SEC seconds is kept (read from the frames by a thread of its\n"
		"own: nothing is added to the cycle). When a safety rule starts acting\n"
		"(a cycle fault, the battery current, a joint's calibration or brake),\n"
		"a joint's temperature status rises or the robot falls (a fall event\n"
		"of the inertial board), --after SEC seconds later one\n"
		"file is written into DIR: flight-DATE-TIME.MS-dcmN.jsonl, JSON lines:\n"
		"{\"flight\": {reason, controller, wall, seconds, after, frames, keys}},\n"
		"the events from a second before the first frame ({\"event\": ...}),\n"
		"a row a cycle ({cycle, time, wall, missed, values: [as keys]}), then\n"
		"{\"end\": {rows, missed, gaps, events}}. DIR/flight-latest.jsonl\n"
		"points at the newest; each path is printed on stdout. SIGUSR1 (or\n"
		"dcmctl flight-dump) writes one now. DIR/flight.pid holds its pid.\n"
		"After each file, the oldest of dcmN's beyond the newest --keep N go.",
	.spec = &dcmctl_spec_flight,
};

const struct dcmctl_command dcmctl_cmd_flight_dump = {
	.name = "flight-dump",
	.run = dcmctl_flight_dump,
	.args = "[--dir DIR] [--timeout SEC]",
	.help = "ask the flight recorder of DIR for a file now; print its path",
	.spec = &dcmctl_spec_flight_dump,
};
