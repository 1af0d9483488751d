// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frames of a controller, read by a thread of their own into a
 * ring (record, flight) or one at a time as they are asked for (watch),
 * and the frame loop that watch and record share (rec_ring_next()).
 *
 * The reader only waits, reads and copies, so that formatting and writing
 * never make it miss a cycle. A frame that finds the ring full (the writer
 * is behind) is dropped; its cycle is then missing from the cycle numbers
 * the writer sees, and counted there. In flight mode the ring is the
 * memory of the last seconds: the newest frame overwrites the oldest.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libdcm.h"
#include "frames.h"

double rec_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The reader's priority: SCHED_FIFO 1 when allowed (root, CAP_SYS_NICE, an
 * RLIMIT_RTPRIO), above every ordinary task and below the cycle's thread;
 * else it stays as it is. It only waits, reads and copies.
 */
#define READER_PRIORITY	1

/*
 * The frame @f into the ring's next slot, the oldest overwritten when it
 * is full and r->overwrite says so, else @f dropped (the writer sees the
 * hole in the cycle numbers).
 */
static void ring_put(struct rec_ring *r, const struct dcm_values_frame *f)
{
	double wall = rec_wall_now();
	struct rec_ring_slot *m;
	size_t n = f->n_values < r->width ? f->n_values : r->width;

	pthread_mutex_lock(&r->lock);
	if (r->head - r->tail == r->slots) {
		if (!r->overwrite) {
			pthread_mutex_unlock(&r->lock);
			return;
		}
		r->tail++;
	}
	m = &r->meta[r->head % r->slots];
	m->cycle = f->cycle;
	m->time = f->time;
	m->generation = f->generation;
	m->n = n;
	m->wall = wall;
	memcpy(&r->values[(r->head % r->slots) * r->width], f->values, n * sizeof(double));
	r->head++;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void *ring_reader(void *arg)
{
	struct sched_param sp = { .sched_priority = READER_PRIORITY };
	struct rec_ring *r = arg;
	struct dcm_values_frame f = { 0 };
	struct pollfd pfd = { .fd = dcm_fd(r->dcm), .events = POLLIN };
	int e = 0;

	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	for (;;) {
		pthread_mutex_lock(&r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		pthread_mutex_unlock(&r->lock);
		/* a bounded wait, so that a stop is seen within 100 ms */
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		e = dcm_read_frame(r->dcm, &f);
		if (e == -EINTR || e == -EAGAIN)
			continue;
		if (e)
			break;
		ring_put(r, &f);
	}
	pthread_mutex_lock(&r->lock);
	if (e) {
		r->err = e;
		snprintf(r->why, sizeof(r->why), "%s", dcm_last_error());
	}
	r->done = true;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
	dcm_values_frame_release(&f);
	return NULL;
}

int rec_ring_start(struct rec_ring *r, struct dcm *dcm, size_t slots, size_t width,
		      bool overwrite, FILE *err)
{
	memset(r, 0, sizeof(*r));
	r->dcm = dcm;
	r->slots = slots;
	r->width = width;
	r->overwrite = overwrite;
	r->meta = calloc(slots, sizeof(*r->meta));
	r->values = calloc(slots * width, sizeof(double));
	if (!r->meta || !r->values) {
		fprintf(err, "%s: out of memory for %zu frames of %zu values\n",
			program_invocation_short_name, slots, width);
		return -1;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	if (pthread_create(&r->thread, NULL, ring_reader, r)) {
		fprintf(err, "%s: cannot start the reader thread\n", program_invocation_short_name);
		return -1;
	}
	return 0;
}

void rec_ring_direct(struct rec_ring *r, struct dcm *dcm)
{
	memset(r, 0, sizeof(*r));
	r->dcm = dcm;
	r->direct = true;
}

/* A direct ring's take: this thread reads the next frame itself. */
static int direct_take(struct rec_ring *r, struct rec_ring_slot *m, const double **v)
{
	int e;

	do {
		e = dcm_read_frame(r->dcm, &r->frame);
	} while (e == -EINTR || e == -EAGAIN);
	if (e) {
		snprintf(r->why, sizeof(r->why), "%s", dcm_last_error());
		r->err = e;
		r->done = true;
		return -1;
	}
	m->cycle = r->frame.cycle;
	m->time = r->frame.time;
	m->generation = r->frame.generation;
	m->n = r->frame.n_values;
	m->wall = rec_wall_now();
	*v = r->frame.values;
	return 1;
}

void rec_ring_stop(struct rec_ring *r)
{
	if (r->direct) {
		dcm_values_frame_release(&r->frame);
		return;
	}
	if (r->meta && r->values && r->thread) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->cond);
	}
	free(r->meta);
	free(r->values);
	r->meta = NULL;
	r->values = NULL;
}

int rec_ring_take(struct rec_ring *r, int ms, struct rec_ring_slot *m, const double **v)
{
	struct timespec until;
	int ret = 0;

	if (r->direct)
		return r->done ? -1 : direct_take(r, m, v);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)ms * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&r->lock);
	while (r->head == r->tail && !r->done) {
		if (pthread_cond_timedwait(&r->cond, &r->lock, &until))
			break;
	}
	if (r->head != r->tail) {
		*m = r->meta[r->tail % r->slots];
		*v = &r->values[(r->tail % r->slots) * r->width];
		ret = 1;
	} else if (r->done) {
		ret = -1;
	}
	pthread_mutex_unlock(&r->lock);
	return ret;
}

void rec_ring_release(struct rec_ring *r)
{
	if (r->direct)
		return;	/* the frame's values stay until the next read */
	pthread_mutex_lock(&r->lock);
	r->tail++;
	pthread_mutex_unlock(&r->lock);
}

/* The generation of @k's first key the frames carry; -1 if none is. */
static long keys_generation(const struct rec_frame_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		if (k->handles[i])
			return LIBDCM_HANDLE_GEN(k->handles[i]);
	return -1;
}

int rec_ring_next(struct rec_ring *r, int ms, const struct rec_frame_keys *k,
		     struct rec_ring_slot *m, const double **v, FILE *err)
{
	long gen;
	size_t i;
	int got;

	for (;;) {
		got = rec_ring_take(r, ms, m, v);
		if (got < 0)
			fprintf(err, "%s: %s: %s\n", program_invocation_short_name, k->cmd, r->why);
		if (got <= 0)
			return got;
		gen = keys_generation(k);
		if (gen >= 0 && m->generation != (uint32_t)gen) {
			/* a new description: the same names, new handles */
			if (k->remap(k->ctx)) {
				fprintf(err, "%s: %s: the description was replaced\n",
					program_invocation_short_name, k->cmd);
				rec_ring_release(r);
				return -1;
			}
			gen = keys_generation(k);
			if (gen >= 0 && m->generation != (uint32_t)gen) {
				rec_ring_release(r);
				continue;	/* replaced again: the next frame */
			}
		}
		for (i = 0; i < k->n; i++) {
			if (k->handles[i] && LIBDCM_HANDLE_INDEX(k->handles[i]) >= m->n) {
				fprintf(err, "%s: %s: a frame of %zu values has no %s\n",
					program_invocation_short_name, k->cmd, m->n, k->names[i]);
				rec_ring_release(r);
				return -1;
			}
		}
		return 1;
	}
}
