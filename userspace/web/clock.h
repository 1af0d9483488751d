/* SPDX-License-Identifier: GPL-2.0 */
/* dcm-web's clocks, in nanoseconds: the wall clock and the monotonic one. */
#ifndef DCM_WEB_CLOCK_H
#define DCM_WEB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t web_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The wall clock: the stream's timestamps, the session id. */
static inline uint64_t web_now_ns(void)
{
	return web_clock_ns(CLOCK_REALTIME);
}

/* The monotonic clock: timeouts and the log's rate limit. */
static inline uint64_t web_mono_ns(void)
{
	return web_clock_ns(CLOCK_MONOTONIC);
}

#endif /* DCM_WEB_CLOCK_H */
