/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcm-flight, the flight recorder: its arguments (args.c), its directory
 * and pid file (store.c), the events it keeps (keep.c), its files
 * (write.c), its loop (run.c) and the dump on demand (dump.c).
 */
#ifndef FLIGHT_H
#define FLIGHT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "libdcm.h"
#include "frames.h"
#include "flight_opts.h"

#define FLIGHT_PID		"flight.pid"
#define FLIGHT_LATEST		"flight-latest.jsonl"
#define FLIGHT_LATEST_MCAP	"flight-latest.mcap"	/* --format mcap */
#define FLIGHT_KEEP		20	/* files of a controller, by default */
#define FLIGHT_KEEP_MAX		100000

/* The exit codes: those of dcmctl. */
#define FLIGHT_EXIT_OK		0
#define FLIGHT_EXIT_FAIL	1
#define FLIGHT_EXIT_USAGE	2

/* dcm-flight [options], dcm-flight --dump [--dir DIR] [--timeout SEC] [-j] */
struct flight_args {
	double seconds;			/* kept before a trigger, 10 by default */
	double after;			/* and after it, 2 by default */
	const char *dir;		/* the files, the pid file */
	unsigned int keep;		/* the newest files kept, 20 by default; 0: all */
	double timeout;			/* --dump: the wait for the file */
	bool mcap;			/* --format mcap: the files are MCAP */
	bool dump;			/* --dump: ask the recorder of --dir for a file */
	bool json, pretty;		/* --dump: the answer as JSON */
	bool help, version;
	char device[256];		/* the controller's node, /dev/dcm0 by default */
	const char *root;		/* its sysfs directory; NULL: the default */
};

/*
 * Parse dcm-flight's arguments (@argv[0] the program). Return 0, or
 * -EINVAL (the reason in @err), -ENOMEM.
 */
int flight_parse_args(int argc, char **argv, struct flight_args *a, char *err, size_t errlen);
/* dcm-flight --help. */
void flight_usage(FILE *f);

/*
 * Open the flight recorder's directory @dir (O_DIRECTORY | O_NOFOLLOW: not
 * through a symbolic link), made 0755 first if @create and missing, and
 * check it: owned by the effective user or root (by anyone if
 * @any_owner), writable by its owner alone, so that no one else can put a
 * link or a file of theirs where the recorder writes. Return its
 * descriptor, or -errno with @why said (-EPERM: refused).
 */
int flight_dir_open(const char *dir, bool create, bool any_owner, char *why, size_t len);
/*
 * Create (or open, never through a link) flight.pid in @dirfd, take its
 * write lock (fcntl F_SETLK: held until the process ends) and write the
 * pid in it. Return the descriptor (keep it open), or -errno: -EAGAIN if
 * another process holds the lock (*@holder its pid, when known), -ELOOP
 * for a symbolic link, -EMLINK for a hard link or no regular file.
 */
int flight_pid_lock(int dirfd, pid_t *holder);
/*
 * The pid of the process holding flight.pid's lock in @dirfd (the running
 * recorder), 0 if no process holds it (a stale file), or -errno (-ENOENT:
 * no file, -ELOOP: a symbolic link). *@written is the pid the file names.
 */
pid_t flight_pid_holder(int dirfd, long *written);
/*
 * Remove the oldest flight files of dcm@index in the directory @dirfd
 * (flight-*-dcmN.jsonl and .mcap, by name: their names begin with the date and time)
 * beyond the newest @keep, never the file @spare (NULL: none), which
 * counts among those kept; @keep 0 keeps all. Return the number removed,
 * or -errno.
 */
int flight_prune(int dirfd, unsigned int index, unsigned int keep, const char *spare);

/* The events the recorder keeps: the safety ones apart (keep.c). */
struct flight_kept_event {
	uint64_t order;			/* as received: the rings are merged by it */
	uint64_t seq;
	bool has_seq;
	struct dcm_event_msg e;
};

struct flight_event_ring {
	struct flight_kept_event *ev;
	size_t slots;
	uint64_t n;			/* kept in total; the last @slots are there */
};

/* The recorder. */
struct flight_state {
	const struct flight_args *a;
	struct rec_ring *ring;
	struct dcm_tree *tree;
	unsigned int index;
	int dirfd;			/* the directory, checked; every file relative to it */
	char reason[512];		/* why a dump is due: "safety cycle-fault; ..." */
	bool pending;			/* a trigger waits for its --after seconds */
	double due;			/* wall clock of the pending dump */
	unsigned int dumps;
	struct dcm_event_follow follow;	/* where the recorder is in the events */
	uint64_t lost_said;		/* follow.lost already marked */
	uint64_t order;
	struct flight_event_ring safety, other;
};

/* The event rings' memory: 0 or -ENOMEM. */
int flight_events_alloc(struct flight_state *st);
void flight_events_free(struct flight_state *st);
/* An event of the history: kept, no trigger (dcm_nl_event_follow_init()'s callback). */
int flight_keep(const struct dcm_nl_event *ev, void *arg);
/* A live event: kept, and a dump made due by a trigger. */
int flight_on_event(const struct dcm_nl_event *ev, void *arg);
/* Add @why to the reason of the next dump (once). */
void flight_add_reason(struct flight_state *st, const char *why);
/*
 * The kept events from a second before @from (the DCM time of the first
 * frame kept), both rings merged in the order received, a JSON line each.
 * Return the number written.
 */
unsigned int flight_write_events(const struct flight_state *st, FILE *f, uint32_t from);
/*
 * The same events, each given to @fn (with @arg) instead; @fn's error ends
 * the walk. Return the number given, or @fn's error (< 0).
 */
int flight_each_event(const struct flight_state *st, uint32_t from,
		      int (*fn)(const struct dcm_event_msg *e, void *arg), void *arg);

/*
 * Write the ring (this process's copy: the child of a fork) into one file
 * of the directory; its path on stdout. Return 0 or -1 (said on stderr).
 */
int flight_write(struct flight_state *st, const char *reason, double when);

/* The recorder, until SIGINT or SIGTERM: an exit code. */
int flight_run(const struct flight_args *a);
/* --dump: ask the recorder of a->dir for a file, print its path: an exit code. */
int flight_dump_run(const struct flight_args *a, FILE *out, FILE *err);

#endif /* FLIGHT_H */
