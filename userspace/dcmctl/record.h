/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl record (record.c), flight and flight-dump (flight.c).
 */
#ifndef DCMCTL_RECORD_H
#define DCMCTL_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cmd.h"

#include "rows.h"

/* dcmctl record [KEY|GLOB...] [options] */
struct dcmctl_record_args {
	size_t n;
	char **keys;			/* malloc'ed, into argv; none: every subdevice */
	uint64_t every;			/* a row every N cycles, 1 by default */
	uint64_t cycles;		/* stop after N cycles; 0: never */
	double duration;		/* stop after SEC s of DCM time; 0: never */
	const char *output;		/* -o FILE; NULL: stdout */
	uint64_t max_size;		/* rotate past that many bytes; 0: never */
	unsigned int max_files;		/* files kept, the current one included */
	int fmt;			/* REC_CSV, REC_JSONL, REC_MCAP */
	bool fmt_given;
};

/*
 * Parse what follows "record". Return 0, or -EINVAL (the reason in @err),
 * -ENOMEM. Free with dcmctl_record_args_free().
 */
int dcmctl_parse_record(int argc, char **argv, struct dcmctl_record_args *a, char *err,
			size_t errlen);
void dcmctl_record_args_free(struct dcmctl_record_args *a);
int dcmctl_record(const struct dcmctl_opts *o, FILE *out, FILE *err);

/*
 * dcmctl flight and flight-dump (flight.c): fronts of dcm-flight, which
 * they run with the same arguments (flight-dump: dcm-flight --dump).
 */
int dcmctl_flight(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_flight_dump(const struct dcmctl_opts *o, FILE *out, FILE *err);

#endif /* DCMCTL_RECORD_H */
