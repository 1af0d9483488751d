// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight's files: the ring (the child's copy, after a fork) into one
 * file of the directory: a header that says why, the events of the
 * window, a row a cycle, and the totals. Written under a temporary name
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

/* A row a frame of the ring of the tree's description; the others counted. */
static void write_rows(const struct flight_state *st, FILE *f, struct flight_totals *t)
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
		rec_write_frame(f, m->cycle, m->time, m->wall, miss,
				&r->values[(i % r->slots) * r->width], m->n);
		t->rows++;
	}
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

/* DIR/@tmp renamed @name, flight-latest.jsonl pointed at it: 0 or -1 (said). */
static int publish(const struct flight_state *st, const char *tmp, const char *name)
{
	char latest[64];

	if (renameat(st->dirfd, tmp, st->dirfd, name)) {
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, name, strerror(errno));
		unlinkat(st->dirfd, tmp, 0);
		return -1;
	}
	snprintf(latest, sizeof(latest), "%s.new", FLIGHT_LATEST);
	unlinkat(st->dirfd, latest, 0);
	if (symlinkat(name, st->dirfd, latest) ||
	    renameat(st->dirfd, latest, st->dirfd, FLIGHT_LATEST))
		fprintf(stderr, "dcm-flight: %s/%s: %s\n", st->a->dir, FLIGHT_LATEST,
			strerror(errno));
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
	snprintf(name, sizeof(name), "flight-%s.%03d-dcm%u.jsonl", stamp,
		 (int)((when - (double)secs) * 1000), st->index);
	snprintf(tmp, sizeof(tmp), "%s.part", name);
	f = open_part(st, tmp);
	if (!f)
		return -1;
	catch_up(st);
	write_head(st, f, reason, when);
	/* the events: those kept, from a second before the first frame */
	if (r->head != r->tail)
		t.events = flight_write_events(st, f, r->meta[r->tail % r->slots].time);
	write_rows(st, f, &t);
	write_end(st, f, &t);
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
