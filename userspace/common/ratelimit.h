/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A log rate limiter, shared by dcmd, dcm-lola and dcm-web.
 */
#ifndef DCM_RATELIMIT_H
#define DCM_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

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

#endif /* DCM_RATELIMIT_H */
