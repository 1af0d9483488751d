/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's log on stderr: its own lines, and those a peer can cause (a
 * connection, a libwebsockets error) through a rate limit.
 */
#ifndef DCM_WEB_LOG_H
#define DCM_WEB_LOG_H

#include <stdbool.h>

struct ratelimit;

#define WEB_LOG_BURST 10		/* lines a peer can cause... */
#define WEB_LOG_INTERVAL_MS 5000	/* ...in this window, the rest counted */

void web_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A line a peer can cause: at most WEB_LOG_BURST a window of @rl, the rest counted. */
void web_logrl(struct ratelimit *rl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The count of the lines @rl suppressed, once its window ends (or now: @force). */
void web_log_suppressed(struct ratelimit *rl, bool force);

/* libwebsockets' errors and warnings from now on, through @rl. */
void web_log_lws(struct ratelimit *rl);

#endif /* DCM_WEB_LOG_H */
