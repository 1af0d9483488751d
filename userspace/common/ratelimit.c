// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log rate limiting (dcmd, dcm-lola, dcm-web): ratelimit.h.
 */
#include "ratelimit.h"

void ratelimit_init(struct ratelimit *rl, unsigned int burst,
		    uint64_t interval_ms)
{
	rl->burst = burst;
	rl->interval_ms = interval_ms;
	rl->started = false;
	rl->begin_ms = 0;
	rl->passed = 0;
	rl->suppressed = 0;
}

static bool window_over(const struct ratelimit *rl, uint64_t now_ms)
{
	return now_ms - rl->begin_ms >= rl->interval_ms;
}

bool ratelimit_allow(struct ratelimit *rl, uint64_t now_ms,
		     unsigned long *flushed)
{
	*flushed = 0;
	if (!rl->started || window_over(rl, now_ms)) {
		*flushed = rl->suppressed;
		rl->started = true;
		rl->begin_ms = now_ms;
		rl->passed = 0;
		rl->suppressed = 0;
	}
	if (rl->passed < rl->burst) {
		rl->passed++;
		return true;
	}
	rl->suppressed++;
	return false;
}

unsigned long ratelimit_flush(struct ratelimit *rl, uint64_t now_ms,
			      bool force)
{
	unsigned long n = rl->suppressed;

	if (!n || (!force && !window_over(rl, now_ms)))
		return 0;
	rl->suppressed = 0;
	return n;
}

int ratelimit_timeout(const struct ratelimit *rl, uint64_t now_ms)
{
	uint64_t end;

	if (!rl->suppressed)
		return -1;
	end = rl->begin_ms + rl->interval_ms;
	if (now_ms >= end)
		return 0;
	return (int)(end - now_ms);
}
