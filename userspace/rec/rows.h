/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rows and the events of a recording (rows.c): what dcmctl record and
 * dcm-flight write, the same way.
 */
#ifndef REC_ROWS_H
#define REC_ROWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "libdcm.h"

#define REC_CSV		0
#define REC_JSONL	1
#define REC_MCAP	2	/* MCAP (mcaprec.h): no header or row of these */

/* The keys of a recording: names (into a tree) and their handles. */
struct rec_keys {
	size_t n;
	const char **names;
	uint32_t *handles;
};

void rec_keys_free(struct rec_keys *k);
/* Add @sd's value once (named twice: one column). Return 0 or -ENOMEM. */
int rec_keys_add(struct rec_keys *k, const struct dcm_tree_subdevice *sd);

/* CSV: the header line "cycle,time,wall,missed,KEY..."; JSON lines: none. */
void rec_write_header(FILE *f, int fmt, const struct rec_keys *k);
/*
 * One row of @k from a frame's @values (by handle index): CSV, or a JSON
 * line {"cycle", "time", "wall", "missed", "values": {KEY: value}}.
 */
void rec_write_row(FILE *f, int fmt, const struct rec_keys *k, uint64_t cycle, uint32_t time,
		   double wall, uint64_t missed, const double *values);
/*
 * One row of a whole frame, every value in the description's order: a
 * JSON line {"cycle", "time", "wall", "missed", "values": [...]} (a value
 * not finite is written 0).
 */
void rec_write_frame(FILE *f, uint64_t cycle, uint32_t time, double wall, uint64_t missed,
		     const double *values, size_t n);

/* An event's members as dcmctl events -j prints them, in the object @key it opens (left open). */
void rec_json_event(struct json_writer *w, const char *key, const struct dcm_event_msg *e);

#endif /* REC_ROWS_H */
