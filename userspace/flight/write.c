// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight's files: the ring (the child's copy, after a fork) into one
 * file of the directory: a header that says why, the events of the
 * window, a row a cycle, and the totals; as JSON lines, or (--format mcap)
 * as MCAP: the header and the totals Metadata records ("flight", "end"),
 * the events on /events, the rows on dcm-web's channels. Written under a temporary name
 * (created, never opened through a link), renamed, and flight-latest.jsonl
 * pointed at it; every name is taken relative to the directory opened and
 * checked at the start.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "flight.h"
#include "json.h"
#include "mcaprec.h"
#include "rows.h"

/* What the rows came to, for the last line. */
struct flight_totals {
	uint64_t rows, missed, gaps, other;
	unsigned int events;
};

/* Create DIR/@tmp (never through a link) for writing: the stream, or NULL (said). */
static FILE *open_part(const struct flight_state *st, const char *tmp)
{
	FILE *f;
	int fd;

	/* a leftover of that name goes (a link itself, not what it names) */
	unlinkat(st->dirfd, tmp, 0);
	fd = openat(st->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

/* The events up to now: those the parent had not read yet at the fork. */
static void catch_up(struct flight_state *st)
{
	struct dcm_nl *nl = NULL;

	if (dcm_nl_open(&nl))
		return;
	if (dcm_nl_event_catch_up(nl, &st->follow, flight_keep, st) < 0)
		fprintf(stderr, "dcm-flight: events: %s\n", dcm_last_error());
	dcm_nl_close(nl);
}

/* {"flight": {reason, controller, wall, seconds, after, frames, keys}} */
static void write_head(const struct flight_state *st, FILE *f, const char *reason, double when)
{
	size_t nsub = dcm_tree_n_subdevices(st->tree), j;
	struct json_writer w;

	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_begin_object(&w, "flight");
	json_string(&w, "reason", reason);
	json_uint(&w, "controller", st->index);
	json_double(&w, "wall", when);
	json_double(&w, "seconds", st->a->seconds);
	json_double(&w, "after", st->a->after);
	json_uint(&w, "frames", st->ring->head - st->ring->tail);
	json_begin_array(&w, "keys");
	for (j = 0; j < nsub; j++) {
		const struct dcm_tree_subdevice *sd = dcm_tree_by_index(st->tree, (unsigned int)j);

		json_string(&w, NULL, sd ? sd->name : "");
	}
	json_end_array(&w);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
}

/*
 * A row a frame of the ring of the tree's description (into @mc when not
 * NULL, else JSON lines); the others counted. 0 or @mc's error.
 */
static int write_rows(const struct flight_state *st, FILE *f, struct rec_mcap *mc,
		      struct flight_totals *t)
{
	const struct rec_ring *r = st->ring;
	uint32_t gen = dcm_tree_generation(st->tree);
	uint64_t i, last = 0, miss;

	for (i = r->tail; i < r->head; i++) {
		const struct rec_ring_slot *m = &r->meta[i % r->slots];

		if (m->generation != gen) {
			t->other++;	/* a frame of another description: its handles differ */
			continue;
		}
		miss = last && m->cycle > last + 1 ? m->cycle - last - 1 : 0;
		if (miss) {
			t->missed += miss;
			t->gaps++;
		}
		last = m->cycle;
		if (mc) {
			int e = rec_mcap_frame(mc, m->cycle, m->time, m->wall,
					       &r->values[(i % r->slots) * r->width], m->n);

			if (e)
				return e;
		} else {
			rec_write_frame(f, m->cycle, m->time, m->wall, miss,
					&r->values[(i % r->slots) * r->width], m->n);
		}
		t->rows++;
	}
	return 0;
}

/* {"end": {rows, missed, gaps, events, events_lost, other_description}} */
static void write_end(const struct flight_state *st, FILE *f, const struct flight_totals *t)
{
	struct json_writer w;

	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_begin_object(&w, "end");
	json_uint(&w, "rows", t->rows);
	json_uint(&w, "missed", t->missed);
	json_uint(&w, "gaps", t->gaps);
	json_uint(&w, "events", t->events);
	json_uint(&w, "events_lost", st->follow.lost);
	json_uint(&w, "other_description", t->other);
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
}

/* An event on /events, logged at the wall clock its DCM time gives. */
struct ev_ctx {
	struct rec_mcap *mc;
	uint32_t t0;		/* the first frame's DCM time */
	double w0;		/* and wall clock */
};

static int put_event(const struct dcm_event_msg *e, void *arg)
{
	struct ev_ctx *c = arg;

	return rec_mcap_event(c->mc, e, c->w0 + (int32_t)(e->time_ms - c->t0) / 1000.0);
}

/* A Metadata record @name of @n pairs: the keys of @keys, the numbers of @v. */
static int put_numbers(struct rec_mcap *mc, const char *name, const char *const *keys,
		       const double *v, size_t n)
{
	const char *kv[16];
	char num[8][32];
	size_t i;

	for (i = 0; i < n && i < 8; i++) {
		snprintf(num[i], sizeof(num[i]), "%.17g", v[i]);
		kv[2 * i] = keys[i];
		kv[2 * i + 1] = num[i];
	}
	return mcap_metadata(mc->w, name, kv, i);
}

/* The "flight" Metadata: why, which controller, when, the window. */
static int mcap_head(const struct flight_state *st, struct rec_mcap *mc, const char *reason,
		     double when)
{
	static const char *const keys[] = { "controller", "wall", "seconds", "after", "frames" };
	const double v[] = { st->index, when, st->a->seconds, st->a->after,
			     (double)(st->ring->head - st->ring->tail) };
	const char *kv[2] = { "reason", reason };
	int r = mcap_metadata(mc->w, "flight_reason", kv, 1);

	return r ? r : put_numbers(mc, "flight", keys, v, 5);
}

/* The file as MCAP: 0 or -errno. */
static int write_mcap(struct flight_state *st, FILE *f, const char *reason, double when,
		      struct flight_totals *t)
{
	static const char *const keys[] = { "rows", "missed", "gaps", "events", "events_lost",
					    "other_description" };
	const struct rec_ring *r = st->ring;
	struct rec_mcap mc = { .events = true };
	struct ev_ctx ec = { .mc = &mc };
	size_t nsub = dcm_tree_n_subdevices(st->tree), j;
	int e = 0;

	for (j = 0; !e && j < nsub; j++) {
		const struct dcm_tree_subdevice *sd = dcm_tree_by_index(st->tree, (unsigned int)j);

		if (sd)
			e = rec_mcap_add(&mc, sd->name, (uint32_t)j);
	}
	e = e ? e : rec_mcap_start(&mc, f, 0);
	e = e ? e : mcap_head(st, &mc, reason, when);
	if (!e && r->head != r->tail) {
		ec.t0 = r->meta[r->tail % r->slots].time;
		ec.w0 = r->meta[r->tail % r->slots].wall;
		e = flight_each_event(st, ec.t0, put_event, &ec);
		t->events = e > 0 ? (unsigned int)e : 0;
		e = e < 0 ? e : 0;
	}
	e = e ? e : write_rows(st, f, &mc, t);
	if (!e) {
		const double v[] = { t->rows, t->missed, t->gaps, t->events, st->follow.lost,
				     t->other };

		e = put_numbers(&mc, "end", keys, v, 6);
	}
	e = e ? e : rec_mcap_end(&mc);
	rec_mcap_free(&mc);
	return e;
}

/* DIR/@tmp renamed @name, the latest link pointed at it: 0 or -1 (said). */
static int publish(const struct flight_state *st, const char *tmp, const char *name)
{
	const char *link = st->a->mcap ? FLIGHT_LATEST_MCAP : FLIGHT_LATEST;
	char latest[64];

	if (renameat(st->dirfd, tmp, st->dirfd, name)) {
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, name, strerror(errno));
		unlinkat(st->dirfd, tmp, 0);
		return -1;
	}
	snprintf(latest, sizeof(latest), "%s.new", link);
	unlinkat(st->dirfd, latest, 0);
	if (symlinkat(name, st->dirfd, latest) ||
	    renameat(st->dirfd, latest, st->dirfd, link))
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, link, strerror(errno));
	printf("%s/%s\n", st->a->dir, name);
	fflush(stdout);
	return 0;
}

int flight_write(struct flight_state *st, const char *reason, double when)
{
	const struct rec_ring *r = st->ring;
	struct flight_totals t = { 0 };
	char name[128], stamp[32], tmp[160];
	time_t secs = (time_t)when;
	struct tm tm;
	int pruned;
	FILE *f;

	localtime_r(&secs, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "flight-%s.%03d-dcm%u.%s", stamp,
		 (int)((when - (double)secs) * 1000), st->index, st->a->mcap ? "mcap" : "jsonl");
	snprintf(tmp, sizeof(tmp), "%s.part", name);
	f = open_part(st, tmp);
	if (!f)
		return -1;
	catch_up(st);
	if (st->a->mcap) {
		int e = write_mcap(st, f, reason, when, &t);

		if (e) {
			fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, tmp, strerror(-e));
			fclose(f);
			unlinkat(st->dirfd, tmp, 0);
			return -1;
		}
	} else {
		write_head(st, f, reason, when);
		/* the events: those kept, from a second before the first frame */
		if (r->head != r->tail)
			t.events = flight_write_events(st, f, r->meta[r->tail % r->slots].time);
		write_rows(st, f, NULL, &t);
		write_end(st, f, &t);
	}
	if (fclose(f)) {
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, tmp, strerror(errno));
		unlinkat(st->dirfd, tmp, 0);
		return -1;
	}
	if (publish(st, tmp, name))
		return -1;
	/* the oldest beyond --keep go; never this one, whatever the clock did */
	pruned = flight_prune(st->dirfd, st->index, st->a->keep, name);
	if (pruned < 0)
		fprintf(stderr, "dcm-flight: removing old files of %s: %s\n", st->a->dir,
			strerror(-pruned));
	return 0;
}
