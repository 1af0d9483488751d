/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmd - the dcm daemon.
 */
#ifndef DCMD_H
#define DCMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define DCMD_EXIT_OK		0
#define DCMD_EXIT_FAIL		1
#define DCMD_EXIT_USAGE		2

/* Event log rate limit: at most this many lines per interval. */
#define DCMD_LOG_BURST		10
#define DCMD_LOG_INTERVAL_MS	1000

struct dcmd_opts {
	bool foreground;		/* -f */
	bool verbose;			/* -v */
	const char *pidfile;		/* -p, NULL if none */
	const char *device_xml;		/* -c, NULL if none */
	char err[256];
};

enum dcmd_parse_result {
	DCMD_RUN,
	DCMD_HELP,
	DCMD_USAGE_ERROR,	/* err says why */
};

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o);
void dcmd_usage(FILE *f);

/*
 * Rate limiter in the style of the kernel's ___ratelimit(): at most
 * @burst messages per window of @interval_ms; what is suppressed is
 * counted and reported once the window is over.
 */
struct ratelimit {
	unsigned int burst;
	uint64_t interval_ms;
	bool started;
	uint64_t begin_ms;	/* start of the current window */
	unsigned int passed;	/* messages allowed in this window */
	unsigned long suppressed;
};

void ratelimit_init(struct ratelimit *rl, unsigned int burst,
		    uint64_t interval_ms);

/*
 * May a message be logged at @now_ms? If a window just ended with messages
 * suppressed, *@flushed gets their number (log "suppressed N messages"
 * first), else 0.
 */
bool ratelimit_allow(struct ratelimit *rl, uint64_t now_ms,
		     unsigned long *flushed);

/*
 * The number of suppressed messages to report now: those of a window that
 * is over (or of the current one if @force, e.g. at shutdown). Resets the
 * count it returns.
 */
unsigned long ratelimit_flush(struct ratelimit *rl, uint64_t now_ms,
			      bool force);

/*
 * Milliseconds until ratelimit_flush() has something to report (0 if it
 * has now), or -1 if nothing is suppressed: a poll(2) timeout.
 */
int ratelimit_timeout(const struct ratelimit *rl, uint64_t now_ms);

#endif /* DCMD_H */
