/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcm-lola's defences against local users and misbehaving clients
 * (Documentation/dcm/lola.rst, "Who owns the socket" and "Abuse"):
 *
 * - lola_socket.c: the listening sockets, owned by the daemon whatever a
 *   local user put at their paths first; socket activation;
 * - lola_log.c: log lines rate-limited per client and per reason, with
 *   the count of what was suppressed;
 * - lola_idle.c: the idle and incomplete-map timeouts of a client.
 */
#ifndef LOLA_GUARD_H
#define LOLA_GUARD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>

#include "ratelimit.h"

/* ---- sockets (lola_socket.c) ---- */

#define LOLA_PATH_MAX	sizeof(((struct sockaddr_un *)0)->sun_path)

struct lola_listener {
	int fd;				/* -1: none */
	char path[LOLA_PATH_MAX];
	dev_t dev;			/* the socket file put at @path */
	ino_t ino;
	bool ours;			/* created here: removed at exit */
};

/*
 * lola_listen - listen on @path with permissions @mode, whatever is there.
 * The socket is bound under a fresh random name in @path's directory,
 * given its mode, then renamed over @path in one step: a stale socket, a
 * user's socket, symlink or file there is replaced (a symlink's target is
 * never touched); a directory is swapped out of the way (it stays, under
 * the random name). Refused: a live socket of root or of this user (another
 * dcm-lola), a directory of @path that others could change (not root's or
 * ours, or writable by others without the sticky bit), or a user's entry
 * this process may not replace (EPERM: not root, or no CAP_FOWNER).
 * What was replaced is described in @note ("" if nothing was there).
 * Return: 0, or -errno with the reason in @err.
 */
int lola_listen(struct lola_listener *l, const char *path, mode_t mode, char *err,
		size_t errlen, char *note, size_t notelen);

/*
 * lola_listen_inherited - take the socket of @path from the service
 * manager ($LISTEN_PID, $LISTEN_FDS: sd_listen_fds(3)'s protocol), if it
 * passed one bound to @path. Return: 1 taken, 0 none passed, -errno.
 */
int lola_listen_inherited(struct lola_listener *l, const char *path, char *err, size_t errlen);

/*
 * lola_inherited_unclaimed - after every lola_listen_inherited(): the
 * first passed descriptor no path claimed (closed then), or -1.
 */
int lola_inherited_unclaimed(char *path, size_t len);

/* Close it; remove its file if this process created it and it is still there. */
void lola_unlisten(struct lola_listener *l);

/*
 * lola_peer_trusted - is the process at the other end of the connected
 * @fd root or @uid? Return: 0 yes; -EPERM no (its uid in *@peer_uid);
 * -errno if the kernel would not say.
 */
int lola_peer_trusted(int fd, uid_t uid, uid_t *peer_uid);

/* ---- rate-limited log (lola_log.c) ---- */

enum lola_log_reason {
	LOLA_LOG_CONNECT,	/* connected, disconnected, dropped, refused connections */
	LOLA_LOG_REFUSED,	/* a map refused */
	LOLA_LOG_READONLY,	/* a read-only client's map */
	LOLA_LOG_COMMAND,	/* command taken, released, denied */
	LOLA_LOG_REASONS,
};

#define LOLA_LOG_INTERVAL_MS	10000
#define LOLA_LOG_DEFAULT_LIMIT	30	/* per client; twice that for all together */

/* One line on stderr, "dcm-lola: " and the message (journald keeps it). */
void lola_logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A client's (or the daemon's, for all clients together) limiters. */
struct lola_log_limits {
	struct ratelimit r[LOLA_LOG_REASONS];
};

struct lola_log {
	struct lola_log_limits all;	/* every client together: 2 * limit */
	unsigned int limit;		/* lines per reason per client per interval */
	uint64_t interval_ms;
	uint64_t lines, suppressed;	/* totals, for the status */
	/* Where lines go (stderr, "dcm-lola: " prefixed, if NULL). */
	void (*out)(const char *line, void *arg);
	void *arg;
};

void lola_log_init(struct lola_log *l, unsigned int limit, uint64_t interval_ms);
void lola_log_client_init(const struct lola_log *l, struct lola_log_limits *c);

/*
 * lola_log_client - log a line about client @id (@c NULL: a line of the
 * daemon's about connections, limited with all clients together) if
 * neither the client's nor all clients' limit for @reason is reached;
 * else count it as suppressed. A window that ends with lines suppressed
 * is reported with its count first.
 */
void lola_log_client(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
		     enum lola_log_reason reason, uint64_t now_ms, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Report the counts of windows that are over (call now and then). */
void lola_log_sweep(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
		    uint64_t now_ms);

/*
 * Client @id leaves: its suppressed counts, in one line (itself limited
 * with all clients' connection lines; if that is reached, its counts join
 * the daemon's).
 */
void lola_log_client_gone(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
			  uint64_t now_ms);

/* The daemon exits: what all clients' limits still hold back, reported now. */
void lola_log_finish(struct lola_log *l, uint64_t now_ms);

/* A reason's name in the log ("refused map"). */
const char *lola_log_reason_name(enum lola_log_reason reason);

/* ---- timeouts (lola_idle.c) ---- */

#define LOLA_IDLE_DEFAULT_MS	5000
#define LOLA_MAP_DEFAULT_MS	1000
#define LOLA_TIMEOUT_MIN_MS	100
#define LOLA_TIMEOUT_MAX_MS	3600000

/*
 * A client's progress. Idle: since @stalled_ns its socket has taken no
 * sensor map whole (it does not read) and none of its actuator maps was
 * applied. Incomplete: since @partial_ns the stream has held the start of
 * a map and not its end. 0: not so.
 */
struct lola_idle {
	int64_t stalled_ns;
	int64_t partial_ns;
};

/* A sensor map went to the client whole (@taken) or was dropped for it. */
void lola_idle_sent(struct lola_idle *s, bool taken, int64_t now_ns);
/* One of its actuator maps was applied. */
void lola_idle_applied(struct lola_idle *s);
/*
 * A read of its stream: @complete maps ended in it; @partial: bytes of a
 * map that has not ended are buffered after them.
 */
void lola_idle_read(struct lola_idle *s, unsigned int complete, bool partial, int64_t now_ns);
/*
 * Has a timeout expired (0: off)? Return: NULL, or the reason in @why
 * ("idle: ..." or "incomplete map: ...").
 */
const char *lola_idle_expired(const struct lola_idle *s, int64_t now_ns, unsigned int idle_ms,
			      unsigned int map_ms, char *why, size_t len);

#endif /* LOLA_GUARD_H */
