// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl record: the frames (one per cycle, read()) of chosen keys into
 * CSV, JSON lines or MCAP (dcm-web's channels, rec/mcaprec.c), every cycle or every Nth, with DCM time and the wall
 * clock, into one file or rotating files; a cycle the recorder did not
 * read is never lost silently: each row says how many cycles were missed
 * just before it, counted from the frames' cycle numbers. The frame loop
 * (rec/frames.c) and the rows (rec/rows.c) are those of dcm-flight too.
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
#include "mcaprec.h"
#include "record.h"
#include "rows.h"
#include "stop.h"

static const struct optdef record_opts[] = {
	{ "output", 'o', 'o', "FILE", "into FILE (default: stdout)" },
	{ "format", 'f', 'f', "FORMAT", "csv (default), jsonl (the default with -j) or mcap" },
	{ "every", 'e', 'e', "N", "a row every N cycles (default 1: every cycle)" },
	{ "cycles", 'c', 'c', "N", "stop after N cycles (default: until interrupted)" },
	{ "duration", 't', 't', "SEC", "stop after SEC seconds of DCM time" },
	{ "max-size", 0, DCMCTL_OPT_MAX_SIZE, "SIZE",
	  "rotate FILE past SIZE bytes (k, M, G: KiB, MiB, GiB)" },
	{ "max-files", 0, DCMCTL_OPT_MAX_FILES, "N",
	  "keep N files: FILE, FILE.1, ... (default 10)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_record = {
	.cmd = "record", .opts = record_opts, .prefix_missing = true,
};
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
		*fmt = REC_CSV;
	else if (!strcmp(s, "jsonl") || !strcmp(s, "json"))
		*fmt = REC_JSONL;
	else if (!strcmp(s, "mcap"))
		*fmt = REC_MCAP;
	else
		return -EINVAL;
	return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -EINVAL; } while (0)

/* The option @c of record with its value @v into @a: 0, or -EINVAL (the reason in @err). */
static int record_option(struct dcmctl_record_args *a, int c, const char *v, char *err,
			 size_t errlen)
{
	uint64_t n;

	switch (c) {
	case 'e':
		if (parse_uint(v, 1, 1000000, &a->every))
			FAIL("record: invalid --every '%s' (1 to 1000000 cycles)", v);
		return 0;
	case 'c':
		if (parse_uint(v, 1, UINT64_MAX, &a->cycles))
			FAIL("record: invalid cycle count '%s'", v);
		return 0;
	case 't':
		if (parse_seconds(v, &a->duration))
			FAIL("record: invalid duration '%s' (seconds, > 0)", v);
		return 0;
	case 'o':
		a->output = v;
		return 0;
	case 'f':
		if (parse_format(v, &a->fmt))
			FAIL("record: unknown format '%s' (csv, jsonl or mcap)", v);
		a->fmt_given = true;
		return 0;
	case DCMCTL_OPT_MAX_SIZE:
		if (parse_size(v, &a->max_size))
			FAIL("record: invalid size '%s' (bytes, or 10k, 5M, 1G)", v);
		return 0;
	default:	/* --max-files */
		if (parse_uint(v, 1, 10000, &n))
			FAIL("record: invalid --max-files '%s' (1 to 10000)", v);
		a->max_files = (unsigned int)n;
		return 0;
	}
}

/* --max-size and --max-files: with --output, one with the other (10 files by default). */
static int check_rotation(struct dcmctl_record_args *a, char *err, size_t errlen)
{
	if ((a->max_size || a->max_files) && !a->output)
		FAIL("record: --max-size and --max-files rotate the file of --output");
	if (a->max_files && !a->max_size)
		FAIL("record: --max-files needs --max-size (when to rotate)");
	if (a->max_size && !a->max_files)
		a->max_files = 10;
	return 0;
}

int dcmctl_parse_record(int argc, char **argv, struct dcmctl_record_args *a, char *err,
			size_t errlen)
{
	const struct dcmctl_optspec spec = dcmctl_spec_record;
	struct dcmctl_getopt g;
	int c, r = -EINVAL;

	memset(a, 0, sizeof(*a));
	a->every = 1;
	if (dcmctl_getopt_init(&g, &spec, argc, argv, err, errlen))
		return -ENOMEM;
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0)
		if (record_option(a, c, g.optarg, err, errlen))
			goto out;
	if (c || check_rotation(a, err, errlen))
		goto out;
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
	bool rotate_due;		/* past --max-size: rotated before the next row */
	struct rec_mcap mc;		/* -f mcap: the channels and the writer */
	double flushed;			/* -f mcap: the wall clock of the last chunk written */
	bool failed;			/* a write failed, and was said: nothing more is written */
};

/* The file's beginning: CSV's header line, MCAP's header and channels. 0 or -1 (said). */
static int out_begin(struct rec_out *o, const struct rec_keys *k, FILE *err)
{
	int r;

	if (o->a->fmt != REC_MCAP) {
		rec_write_header(o->f, o->a->fmt, k);
		return 0;
	}
	r = rec_mcap_start(&o->mc, o->f, 0);
	if (r) {
		fprintf(err, "dcmctl: record: %s\n", strerror(-r));
		o->failed = true;
		return -1;
	}
	return 0;
}

/* MCAP's end (its summary and footer): 0 or -1 (said). */
static int out_end(struct rec_out *o, FILE *err)
{
	int r;

	if (o->a->fmt != REC_MCAP || !o->mc.w)
		return 0;
	if (o->failed)
		return -1;	/* said when it failed; the end would fail the same way */
	r = rec_mcap_end(&o->mc);
	if (r) {
		fprintf(err, "dcmctl: record: %s: %s\n", o->a->output ? o->a->output : "stdout",
			strerror(-r));
		return -1;
	}
	return 0;
}

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
	if (out_end(o, err))
		goto out;
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
	if (out_open(o, err) || out_begin(o, k, err))
		goto out;
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
	struct rec_mcap *mc;		/* -f mcap: the channels' keys too */
	FILE *err;
};

/* Key @name's index in the frames of @t (a subdevice's) or of @dcm (a live key's), or -1. */
static long key_index(struct dcm *dcm, const struct dcm_tree *t, const char *name)
{
	const struct dcm_tree_subdevice *sd = dcm_tree_find(t, name);
	struct dcm_key k;

	if (sd)
		return (long)LIBDCM_HANDLE_INDEX(sd->handle);
	if (!dcm_lookup(dcm, name, &k) && (k.flags & LIBDCM_KEY_LIVE))
		return (long)LIBDCM_HANDLE_INDEX(k.handle);
	return -1;
}

/* Key @name's index in @nt into *@index: 0, or -1 (said). */
static int remap_one(struct rec_remap *rm, const struct dcm_tree *nt, const char *name,
		     uint32_t *index)
{
	long idx = key_index(rm->dcm, nt, name);

	if (idx < 0) {
		fprintf(rm->err, "dcmctl: the new description has no %s\n", name);
		return -1;
	}
	*index = (uint32_t)idx;
	return 0;
}

/*
 * The channels' keys looked up in the new description @nt, and the ROS 2
 * messages' made of them again (the same names): 0, or -1 (said).
 */
static int remap_channels(struct rec_remap *rm, const struct dcm_tree *nt)
{
	struct rec_channels *cs = &rm->mc->ch;
	size_t i, j;

	rec_ros_init(&rm->mc->ros);
	for (i = 0; i < cs->n; i++)
		for (j = 0; j < cs->c[i].n; j++) {
			if (remap_one(rm, nt, cs->c[i].keys[j], &cs->c[i].index[j]))
				return -1;
			rec_ros_add(&rm->mc->ros, cs->c[i].keys[j], cs->c[i].index[j]);
		}
	return 0;
}

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
	if (remap_channels(rm, nt)) {
		dcm_tree_free(nt);
		return -1;
	}
	dcm_tree_free(*t);
	*t = nt;
	return 0;
}

/* Frames in the ring between the reader and the writer: 10 s at 10 ms. */
#define RECORD_RING	1000

/* What a recording counts: rows, the cycles it did not get, where it is. */
struct rec_counts {
	uint64_t rows, missed, missed_total, gaps, last, last_row, due, first;
	uint32_t t0;
};

/*
 * The controller, its description and the keys of @a (in @k), the frames
 * made to carry them all. 0 or -1 (said on @err).
 */
static int record_open(const struct dcmctl_opts *o, const struct dcmctl_record_args *a,
		       struct dcm **dcm, struct dcm_tree **t, struct rec_keys *k,
		       struct dcm_info *info, FILE *err)
{
	if (dcmctl_open(o, dcm, err))
		return -1;
	if (dcm_tree_read(*dcm, o->root, 0, t) || dcm_get_info(*dcm, info)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return -1;
	}
	if (!dcm_tree_n_subdevices(*t)) {
		fprintf(err, "dcmctl: record: no robot description is loaded\n");
		return -1;
	}
	if (select_keys(o, *t, a->keys, a->n, k, err))
		return -1;
	/* The live keys (status words, sonar echoes) too: the frames must carry them. */
	if (dcm_frame_keys(*dcm, true)) {
		fprintf(err, "dcmctl: record: %s\n", dcm_last_error());
		return -1;
	}
	return 0;
}

/* A live key @name into the channels, if the description has it; *@width grown to it. */
static int add_live(struct dcm *dcm, struct rec_channels *cs, const char *name, size_t *width)
{
	struct dcm_key k;

	if (dcm_lookup(dcm, name, &k) || !(k.flags & LIBDCM_KEY_LIVE))
		return 0;
	if (LIBDCM_HANDLE_INDEX(k.handle) + 1 > *width)
		*width = LIBDCM_HANDLE_INDEX(k.handle) + 1;
	return rec_channels_add(cs, name, LIBDCM_HANDLE_INDEX(k.handle));
}

/*
 * -f mcap: the keys of @k on dcm-web's channels; with every key (@all),
 * the live keys dcm-web publishes too (the sensors' status words, the
 * boards' Available, Ack and Nack), *@width grown to hold them. 0 or -1
 * (said).
 */
static int mcap_channels(struct dcm *dcm, const struct dcm_tree *t, const struct rec_keys *k,
			 bool all, struct rec_mcap *mc, size_t *width, FILE *err)
{
	static const char *const dkeys[] = { "Available", "Ack", "Nack" };
	struct rec_channels *cs = &mc->ch;
	char name[LIBDCM_KEY_NAME_LEN + 32];
	size_t i, j, len;
	int r = 0;

	for (i = 0; !r && i < k->n; i++)
		r = rec_mcap_add(mc, k->names[i], LIBDCM_HANDLE_INDEX(k->handles[i]));
	for (i = 0; all && !r && i < k->n; i++) {
		len = strlen(k->names[i]);
		if (len <= 7 || strcmp(k->names[i] + len - 7, "/Sensor"))
			continue;
		snprintf(name, sizeof(name), "%s/Status", k->names[i]);
		r = add_live(dcm, cs, name, width);
	}
	for (i = 0; all && !r && i < dcm_tree_n_devices(t); i++)
		for (j = 0; !r && j < 3; j++) {
			snprintf(name, sizeof(name), DCM_PREFIX_DEVICE "%s/%s",
				 dcm_tree_device(t, i)->name, dkeys[j]);
			r = add_live(dcm, cs, name, width);
		}
	if (r)
		fprintf(err, "dcmctl: out of memory\n");
	return r ? -1 : 0;
}

/*
 * Frame @m counted: -1 if it ends the recording (neither it nor its gap is
 * one of it), 0 if no row is due (--every), 1 for a row.
 */
static int record_count(const struct dcmctl_record_args *a, struct rec_counts *c,
			const struct rec_ring_slot *m)
{
	if (!c->first) {
		c->first = m->cycle;
		c->t0 = m->time;
		c->due = m->cycle;
	}
	if ((a->duration > 0 && (double)(uint32_t)(m->time - c->t0) >= a->duration * 1000) ||
	    (a->cycles && m->cycle - c->first >= a->cycles))
		return -1;
	if (c->last && m->cycle > c->last + 1) {
		/* cycles this recorder did not get: counted, never silent */
		c->missed += m->cycle - c->last - 1;
		c->missed_total += m->cycle - c->last - 1;
		c->gaps++;
	}
	c->last = m->cycle;
	return m->cycle >= c->due;
}

/*
 * Frame @m (@v) as MCAP messages, held in the chunk open; a chunk written
 * at least every second (and the file so far readable): 0 or -1 (said).
 */
static int record_mcap(struct rec_out *ro, const struct rec_ring_slot *m, const double *v,
		       size_t width, FILE *err)
{
	int r = rec_mcap_frame(&ro->mc, m->cycle, m->time, m->wall, v, m->n < width ? m->n : width);

	if (!r && (m->wall - ro->flushed >= 1.0 || m->wall < ro->flushed)) {
		r = mcap_flush(ro->mc.w);
		ro->flushed = m->wall;
	}
	if (r) {
		fprintf(err, "dcmctl: record: %s: %s\n", ro->a->output ? ro->a->output : "stdout",
			strerror(-r));
		ro->failed = true;
	}
	ro->written = mcap_written(ro->mc.w);
	return r ? -1 : 0;
}

/*
 * The row of frame @m (@v), the frame released; past --max-size, the file
 * is rotated before the next row (record_loop()), so that the last file
 * has rows too: 0 or -1 (said).
 */
static int record_row(struct rec_out *ro, const struct rec_keys *k, struct rec_counts *c,
		      struct rec_ring *ring, const struct rec_ring_slot *m, const double *v,
		      FILE *err)
{
	const struct dcmctl_record_args *a = ro->a;
	long pos = a->output ? ftell(ro->f) : 0, now;

	if (a->fmt == REC_MCAP) {
		if (record_mcap(ro, m, v, ring->width, err)) {
			rec_ring_release(ring);
			return -1;
		}
	} else {
		rec_write_row(ro->f, a->fmt, k, m->cycle, m->time, m->wall, c->missed, v);
	}
	rec_ring_release(ring);
	c->missed = 0;
	c->rows++;
	c->last_row = m->cycle;
	c->due = m->cycle + a->every;
	if (a->fmt != REC_MCAP) {
		if (!a->output) {
			fflush(ro->f);	/* a row a cycle, also into a pipe */
			return 0;
		}
		now = ftell(ro->f);
		if (now > pos)
			ro->written += (uint64_t)(now - pos);
	}
	ro->rotate_due = a->max_size && ro->written >= a->max_size;
	return 0;
}

/* The frames until the end or a signal: 0, or -1 (said on @err). */
static int record_loop(struct rec_ring *ring, struct rec_out *ro, const struct rec_keys *k,
		       const struct rec_frame_keys *fk, struct rec_counts *c, FILE *err)
{
	struct rec_ring_slot m;
	const double *v;
	int r;

	while (!rec_stop_asked) {
		r = rec_ring_next(ring, 200, fk, &m, &v, err);
		if (!r)
			continue;
		if (r < 0)
			return -1;
		r = record_count(ro->a, c, &m);
		if (r > 0) {
			/* Another row: the file full before it is rotated first. */
			if (ro->rotate_due && out_rotate(ro, k, err)) {
				rec_ring_release(ring);
				return -1;
			}
			ro->rotate_due = false;
			if (record_row(ro, k, c, ring, &m, v, err))
				return -1;
			continue;
		}
		rec_ring_release(ring);
		if (r < 0)
			break;
	}
	if (ro->f && fflush(ro->f)) {
		fprintf(err, "dcmctl: record: %s\n", strerror(errno));
		return -1;
	}
	fprintf(err, "dcmctl: record: %" PRIu64 " rows, cycles %" PRIu64 " to %" PRIu64
		", %" PRIu64 " missed in %" PRIu64 " gaps%s\n", c->rows, c->first, c->last_row,
		c->missed_total, c->gaps, ro->rotations ? ", files rotated" : "");
	return 0;
}

/* The output opened and begun (MCAP: with its channels, *@width grown to them). 0 or -1. */
static int record_begin(struct rec_out *ro, struct dcm *dcm, const struct dcm_tree *t,
			const struct rec_keys *k, size_t *width, FILE *out, FILE *err)
{
	const struct dcmctl_record_args *a = ro->a;

	if (a->fmt == REC_MCAP && !a->output && isatty(fileno(out))) {
		fprintf(err, "dcmctl: record: -f mcap writes a binary file: give -o FILE, or redirect stdout\n");
		return -1;
	}
	if (a->fmt == REC_MCAP &&
	    mcap_channels(dcm, t, k, !a->n, &ro->mc, width, err))
		return -1;
	if (a->output ? out_open(ro, err) : (ro->f = out, 0))
		return -1;
	return out_begin(ro, k, err);
}

int dcmctl_record(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_record_args a;
	struct rec_ring ring = { 0 };
	struct rec_out ro = { .a = &a };
	struct rec_keys k = { 0 };
	struct rec_counts c = { 0 };
	struct dcm_tree *t = NULL;
	struct dcm *dcm = NULL;
	struct rec_remap rm = { .o = o, .t = &t, .k = &k, .mc = &ro.mc, .err = err };
	struct rec_frame_keys fk = { .cmd = "record", .remap = remap, .ctx = &rm };
	struct dcm_info info;
	size_t width;
	char msg[256];
	int ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_record(o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->json && !a.fmt_given)
		a.fmt = REC_JSONL;
	if (record_open(o, &a, &dcm, &t, &k, &info, err))
		goto out;
	rm.dcm = dcm;
	fk.n = k.n;
	fk.handles = k.handles;
	fk.names = k.names;
	width = info.n_subdevices;
	if (record_begin(&ro, dcm, t, &k, &width, out, err))
		goto out;
	rec_catch_stop();
	if (!rec_ring_start(&ring, dcm, RECORD_RING, width, false, err) &&
	    !record_loop(&ring, &ro, &k, &fk, &c, err))
		ret = DCMCTL_EXIT_OK;
out:
	rec_ring_stop(&ring);
	if (ro.f && out_end(&ro, err))
		ret = DCMCTL_EXIT_FAIL;
	if (ro.f && ro.f != out && fclose(ro.f) && ret == DCMCTL_EXIT_OK) {
		fprintf(err, "dcmctl: record: %s: %s\n", a.output, strerror(errno));
		ret = DCMCTL_EXIT_FAIL;
	}
	rec_mcap_free(&ro.mc);
	rec_release_stop();
	rec_keys_free(&k);
	dcm_tree_free(t);
	dcm_close(dcm);
	dcmctl_record_args_free(&a);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_record = {
	.name = "record",
	.run = dcmctl_record,
	.args = "[KEY|GLOB...] [-o FILE [--max-size SIZE [--max-files N]]]\n"
		"[-f csv|jsonl|mcap] [--every N]\n"
		"[--cycles N | --duration SEC]",
	.help = "record the frames: chosen subdevices' values (all by default), every\n"
		"cycle or every Nth, with DCM time and the wall clock, as CSV, JSON\n"
		"lines or MCAP",
	.details = "A KEY is a subdevice's value as get takes it; a GLOB ('*/Position/Sensor',\n"
		"'LFoot/FSR/*') selects every subdevice whose name matches, with or\n"
		"without Device/SubDeviceList/ and /Value; quote it for the shell. CSV:\n"
		"a header line \"cycle,time,wall,missed,KEY...\", then a row per recorded\n"
		"cycle; JSON lines: {\"cycle\", \"time\", \"wall\", \"missed\", \"values\"}.\n"
		"time is DCM time (ms), wall the wall clock when the frame was read\n"
		"(seconds since the epoch), missed the cycles this recorder did not get\n"
		"(counted from the frames' cycle numbers) since the row before: none is\n"
		"lost silently. MCAP (-o FILE, or stdout not a terminal): dcm-web's\n"
		"channels (/joints/position, /feet, /inertial, ...; with every key, its\n"
		"live keys' too), JSON with a JSON schema each, the keys none of them\n"
		"takes on /keys; each message logged at the wall clock, with its cycle\n"
		"and DCM time; a chunk written at least every second, so that a file\n"
		"cut short reads up to its last whole chunk. Foxglove Studio, PlotJuggler\n"
		"and the mcap tools open it. The summary (rows, missed, gaps) goes to\n"
		"stderr at the end. With --max-size the file is renamed FILE.1 (FILE.1\n"
		"FILE.2, ...) when it passes SIZE, and a new FILE begins with its own\n"
		"header; the oldest beyond --max-files goes. SIGINT and SIGTERM end a\n"
		"recording cleanly.",
	.spec = &dcmctl_spec_record,
};
