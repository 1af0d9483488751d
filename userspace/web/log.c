// SPDX-License-Identifier: GPL-2.0
/* dcm-web's log on stderr, with the rate limit of what a peer can cause. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libwebsockets.h>

#include "clock.h"
#include "log.h"
#include "ratelimit.h"

/*
 * The rate limit of libwebsockets' lines: its log callback (4.1) takes
 * no user pointer, so the one state of this file is where it points.
 */
static struct ratelimit *lws_rl;

static void vlog(const char *fmt, va_list ap)
{
	fputs("dcm-web: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void web_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void web_logrl(struct ratelimit *rl, const char *fmt, ...)
{
	unsigned long flushed;
	va_list ap;

	if (!ratelimit_allow(rl, web_mono_ns() / 1000000, &flushed))
		return;
	if (flushed)
		web_log("%lu line(s) of the connections suppressed", flushed);
	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void web_log_suppressed(struct ratelimit *rl, bool force)
{
	unsigned long n = ratelimit_flush(rl, web_mono_ns() / 1000000, force);

	if (n)
		web_log("%lu line(s) of the connections suppressed", n);
}

static void lws_log(int level, const char *line)
{
	size_t n = strlen(line);

	(void)level;
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	web_logrl(lws_rl, "libwebsockets: %.*s", (int)n, line);
}

void web_log_lws(struct ratelimit *rl)
{
	lws_rl = rl;
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
}
