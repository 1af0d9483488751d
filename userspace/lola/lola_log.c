// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola's log lines about clients, rate-limited per client and per
 * reason, and for all clients together (a client that reconnects is a new
 * client each time), with the count of what was suppressed reported when
 * the limit lifts or the client leaves (lola_guard.h); and lola_logmsg(),
 * the daemon's one way to write a log line.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lola_guard.h"

void lola_logmsg(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "dcm-lola: %s\n", line);
}

static const char *const reason_names[LOLA_LOG_REASONS] = {
	[LOLA_LOG_CONNECT] = "connection",
	[LOLA_LOG_REFUSED] = "refused map",
	[LOLA_LOG_READONLY] = "read-only",
	[LOLA_LOG_COMMAND] = "command",
};

const char *lola_log_reason_name(enum lola_log_reason reason)
{
	return reason < LOLA_LOG_REASONS ? reason_names[reason] : "?";
}

static void emit(struct lola_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(struct lola_log *l, const char *fmt, ...)
{
	char line[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	l->lines++;
	if (l->out)
		l->out(line, l->arg);
	else
		fprintf(stderr, "dcm-lola: %s\n", line);
}

static void report(struct lola_log *l, unsigned int id, enum lola_log_reason reason,
		   unsigned long n)
{
	if (!n)
		return;
	if (id)
		emit(l, "client %u: %lu %s line%s suppressed", id, n, reason_names[reason],
		     n == 1 ? "" : "s");
	else
		emit(l, "%lu %s line%s suppressed (all clients)", n, reason_names[reason],
		     n == 1 ? "" : "s");
}

void lola_log_init(struct lola_log *l, unsigned int limit, uint64_t interval_ms)
{
	unsigned int r;

	memset(l, 0, sizeof(*l));
	l->limit = limit;
	l->interval_ms = interval_ms;
	for (r = 0; r < LOLA_LOG_REASONS; r++)
		ratelimit_init(&l->all.r[r], 2 * limit, interval_ms);
}

void lola_log_client_init(const struct lola_log *l, struct lola_log_limits *c)
{
	unsigned int r;

	for (r = 0; r < LOLA_LOG_REASONS; r++)
		ratelimit_init(&c->r[r], l->limit, l->interval_ms);
}

/* May a line pass all clients' limit? Reports that window's suppressed first. */
static bool allow_all(struct lola_log *l, enum lola_log_reason reason, uint64_t now_ms)
{
	unsigned long flushed;
	bool ok = ratelimit_allow(&l->all.r[reason], now_ms, &flushed);

	report(l, 0, reason, flushed);
	if (!ok)
		l->suppressed++;
	return ok;
}

void lola_log_client(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
		     enum lola_log_reason reason, uint64_t now_ms, const char *fmt, ...)
{
	unsigned long flushed;
	char line[512];
	va_list ap;

	if (reason >= LOLA_LOG_REASONS)
		return;
	if (c) {
		bool ok = ratelimit_allow(&c->r[reason], now_ms, &flushed);

		report(l, id, reason, flushed);
		if (!ok) {
			l->suppressed++;
			return;
		}
	}
	if (!allow_all(l, reason, now_ms))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	emit(l, "%s", line);
}

void lola_log_sweep(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
		    uint64_t now_ms)
{
	unsigned int r;

	for (r = 0; r < LOLA_LOG_REASONS; r++) {
		if (c)
			report(l, id, r, ratelimit_flush(&c->r[r], now_ms, false));
		else
			report(l, 0, r, ratelimit_flush(&l->all.r[r], now_ms, false));
	}
}

void lola_log_finish(struct lola_log *l, uint64_t now_ms)
{
	unsigned int r;

	for (r = 0; r < LOLA_LOG_REASONS; r++)
		report(l, 0, r, ratelimit_flush(&l->all.r[r], now_ms, true));
}

void lola_log_client_gone(struct lola_log *l, struct lola_log_limits *c, unsigned int id,
			  uint64_t now_ms)
{
	unsigned long n[LOLA_LOG_REASONS], total = 0;
	char line[400];
	size_t off = 0;
	unsigned int r;

	for (r = 0; r < LOLA_LOG_REASONS; r++) {
		n[r] = ratelimit_flush(&c->r[r], now_ms, true);
		total += n[r];
	}
	if (!total)
		return;
	if (!allow_all(l, LOLA_LOG_CONNECT, now_ms)) {
		/*
		 * Its counts join all clients', reported with them; the
		 * summary itself is no line of a client's to count.
		 */
		l->suppressed--;
		l->all.r[LOLA_LOG_CONNECT].suppressed--;
		for (r = 0; r < LOLA_LOG_REASONS; r++)
			l->all.r[r].suppressed += n[r];
		return;
	}
	for (r = 0; r < LOLA_LOG_REASONS; r++) {
		int k;

		if (!n[r])
			continue;
		k = snprintf(line + off, sizeof(line) - off, "%s%lu %s", off ? ", " : "", n[r],
			     reason_names[r]);
		if (k > 0 && off + (size_t)k < sizeof(line))
			off += (size_t)k;
	}
	emit(l, "client %u left with %lu log line%s suppressed (%s)", id, total,
	     total == 1 ? "" : "s", line);
}
