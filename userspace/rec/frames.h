/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The frames, read by a thread of their own into a ring (frames.c): the
 * frame loop of dcmctl watch, dcmctl record and dcm-flight.
 */
#ifndef REC_FRAMES_H
#define REC_FRAMES_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"

/* The wall clock, in seconds since the epoch. */
double rec_wall_now(void);

/* One frame in the ring: its cycle, DCM time, description, wall clock. */
struct rec_ring_slot {
	uint64_t cycle;
	uint32_t time;
	uint32_t generation;
	size_t n;		/* values stored, at most the ring's width */
	double wall;
};

/* The ring and its reader thread. */
struct rec_ring {
	struct dcm *dcm;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t slots, width;
	struct rec_ring_slot *meta;
	double *values;		/* slots * width */
	uint64_t head, tail;	/* frames stored, frames taken (or overwritten) */
	bool overwrite;		/* flight: the newest replaces the oldest */
	bool stop, done;
	int err;		/* the read's error that ended the thread */
	char why[256];
	bool direct;		/* no thread: each take reads the next frame */
	struct dcm_values_frame frame;	/* a direct ring's last frame */
};

/*
 * Start the reader thread of @dcm into a ring of @slots frames of @width
 * values (a frame's first @width); @overwrite: a full ring loses its
 * oldest frame, else the new one. Return 0 or -1 (said on @err).
 */
int rec_ring_start(struct rec_ring *r, struct dcm *dcm, size_t slots, size_t width,
		      bool overwrite, FILE *err);
/*
 * A ring without a thread or slots: each take reads the next frame itself,
 * waiting for it (@ms is not a limit then), as a program that only shows
 * the frames wants (watch: a row a frame read, at the reader's pace).
 */
void rec_ring_direct(struct rec_ring *r, struct dcm *dcm);
/* Stop the reader and free the ring (also after a failed start). */
void rec_ring_stop(struct rec_ring *r);
/*
 * The oldest frame not yet taken: 1 (in *@m and *@v, valid until
 * rec_ring_release()), 0 after @ms ms without one, -1 when the reader
 * ended (its reason in @r->why).
 */
int rec_ring_take(struct rec_ring *r, int ms, struct rec_ring_slot *m, const double **v);
void rec_ring_release(struct rec_ring *r);

/* A consumer's keys in the frames (watch, record), for rec_ring_next(). */
struct rec_frame_keys {
	const char *cmd;		/* "watch", "record": in messages */
	size_t n;
	const uint32_t *handles;	/* 0: a key the frames do not carry */
	const char *const *names;
	/* a new description: the same names looked up again; 0, or -1 (said) */
	int (*remap)(void *ctx);
	void *ctx;
};

/*
 * The next frame for @k: the oldest not yet taken of the description @k's
 * handles are of (after a new one, @k->remap() first; the frames of a
 * description replaced meanwhile are passed over), with every key of @k
 * in it. Return 1 (in *@m and *@v, until rec_ring_release()), 0 after
 * @ms ms without one, -1 on an error, said on @err (the reader's, a new
 * description without one of the keys, a frame without one).
 */
int rec_ring_next(struct rec_ring *r, int ms, const struct rec_frame_keys *k,
		     struct rec_ring_slot *m, const double **v, FILE *err);

#endif /* REC_FRAMES_H */
