/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl record, flight and flight-dump (record.c).
 */
#ifndef DCMCTL_RECORD_H
#define DCMCTL_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cmd.h"

#define DCMCTL_REC_CSV		0
#define DCMCTL_REC_JSONL	1

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
	int fmt;			/* DCMCTL_REC_* */
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

/* dcmctl flight [options], dcmctl flight-dump [--dir DIR] [--timeout SEC] */
struct dcmctl_flight_args {
	double seconds;			/* kept before a trigger, 10 by default */
	double after;			/* and after it, 2 by default */
	const char *dir;		/* the files, the pid file */
	unsigned int keep;		/* the newest files kept, 20 by default; 0: all */
	double timeout;			/* flight-dump: the wait for the file */
};

/* Parse what follows "flight" or "flight-dump" (@spec: which). Return 0 or -EINVAL, -ENOMEM. */
int dcmctl_parse_flight(const struct dcmctl_optspec *spec, int argc, char **argv,
			struct dcmctl_flight_args *a, char *err, size_t errlen);
/*
 * Remove the oldest flight files of dcm@index in the directory @dirfd
 * (flight-*-dcmN.jsonl, by name: their names begin with the date and time)
 * beyond the newest @keep, never the file @spare (NULL: none), which
 * counts among those kept; @keep 0 keeps all. Return the number removed,
 * or -errno.
 */
int dcmctl_flight_prune(int dirfd, unsigned int index, unsigned int keep, const char *spare);
/*
 * Open the flight recorder's directory @dir (O_DIRECTORY | O_NOFOLLOW: not
 * through a symbolic link), made 0755 first if @create and missing, and
 * check it: owned by the effective user or root (by anyone if
 * @any_owner), writable by its owner alone, so that no one else can put a
 * link or a file of theirs where the recorder writes. Return its
 * descriptor, or -errno with @why said (-EPERM: refused).
 */
int dcmctl_flight_dir_open(const char *dir, bool create, bool any_owner, char *why, size_t len);
/*
 * Create (or open, never through a link) flight.pid in @dirfd, take its
 * write lock (fcntl F_SETLK: held until the process ends) and write the
 * pid in it. Return the descriptor (keep it open), or -errno: -EAGAIN if
 * another process holds the lock (*@holder its pid, when known), -ELOOP
 * for a symbolic link, -EMLINK for a hard link or no regular file.
 */
int dcmctl_flight_pid_lock(int dirfd, pid_t *holder);
/*
 * The pid of the process holding flight.pid's lock in @dirfd (the running
 * recorder), 0 if no process holds it (a stale file), or -errno (-ENOENT:
 * no file, -ELOOP: a symbolic link). *@written is the pid the file names.
 */
pid_t dcmctl_flight_pid_holder(int dirfd, long *written);
int dcmctl_flight(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_flight_dump(const struct dcmctl_opts *o, FILE *out, FILE *err);

/* flight's and flight-dump's options, for dcmctl_parse_flight(). */
extern const struct dcmctl_optspec dcmctl_spec_flight, dcmctl_spec_flight_dump;

#endif /* DCMCTL_RECORD_H */
