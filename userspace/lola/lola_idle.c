// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: when a client that holds a slot is idle or stuck in the middle
 * of a map (lola_guard.h; Documentation/dcm/lola.rst, "Abuse").
 *
 * Real LoLA clients either read every sensor map (readers, which may never
 * send) or also answer with an actuator map (the commander): neither is
 * ever idle here. Idle is a connection whose socket takes no sensor map (it
 * does not read: its buffer is full) while none of its maps is applied;
 * a client never offered a map (no cycles run) is not idle. A map is
 * incomplete from the read that brought its first byte to the read that
 * brought its last; a stream of maps split across reads at any point
 * is never incomplete for longer than one map takes to arrive.
 */
#include <stdio.h>

#include "lola_guard.h"

void lola_idle_sent(struct lola_idle *s, bool taken, int64_t now_ns)
{
	if (taken)
		s->stalled_ns = 0;
	else if (!s->stalled_ns)
		s->stalled_ns = now_ns;
}

void lola_idle_applied(struct lola_idle *s)
{
	s->stalled_ns = 0;
}

void lola_idle_read(struct lola_idle *s, unsigned int complete, bool partial, int64_t now_ns)
{
	if (!partial)
		s->partial_ns = 0;
	else if (complete || !s->partial_ns)
		s->partial_ns = now_ns;	/* a map began in this read */
}

const char *lola_idle_expired(const struct lola_idle *s, int64_t now_ns, unsigned int idle_ms,
			      unsigned int map_ms, char *why, size_t len)
{
	if (idle_ms && s->stalled_ns && now_ns - s->stalled_ns > (int64_t)idle_ms * 1000000) {
		snprintf(why, len, "idle: read no sensor map and sent no applied map for %u ms "
			 "(--idle-timeout)", idle_ms);
		return why;
	}
	if (map_ms && s->partial_ns && now_ns - s->partial_ns > (int64_t)map_ms * 1000000) {
		snprintf(why, len, "incomplete map: its end did not come within %u ms "
			 "(--map-timeout)", map_ms);
		return why;
	}
	return NULL;
}
