// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a rate limit per user (dcm_userlimit.h).
 */

#include "model/dcm_userlimit.h"

#define NSEC_PER_S	1000000000ULL

/*
 * One cell of a generic cell rate algorithm: may a request come at @now,
 * @burst at once, @per_s a second? Move *@tat on if so.
 */
static bool gcra_ok(u64 tat, u64 now, u32 per_s, u32 burst)
{
	u64 interval = NSEC_PER_S / max_t(u32, per_s, 1);

	if (tat <= now)
		return true;
	return tat - now <= (u64)(max_t(u32, burst, 1) - 1) * interval;
}

static u64 gcra_next(u64 tat, u64 now, u32 per_s)
{
	return max_t(u64, tat, now) + NSEC_PER_S / max_t(u32, per_s, 1);
}

/* The entry of @uid, or the one it takes: the fullest bucket. */
static unsigned int user_slot(const struct dcm_userlimit *ul, u32 uid)
{
	unsigned int i, best = 0;

	for (i = 0; i < DCM_USERLIMIT_USERS; i++) {
		if (ul->tat[i] && ul->uid[i] == uid)
			return i;
		if (ul->tat[i] < ul->tat[best])
			best = i;
	}
	return best;
}

/**
 * dcm_userlimit_allow() - may user @uid make a request now?
 * @ul: the limits
 * @uid: the user
 * @now_ns: a monotonic time, ns, above 0
 *
 * Counts the request against the user's limit and the total if allowed,
 * and in @ul->refused if not.
 *
 * Return: true if the request may go on.
 */
bool dcm_userlimit_allow(struct dcm_userlimit *ul, u32 uid, u64 now_ns)
{
	unsigned int i = user_slot(ul, uid);
	u64 tat = ul->uid[i] == uid ? ul->tat[i] : 0;

	if (!gcra_ok(tat, now_ns, ul->rate_per_s, ul->burst) ||
	    !gcra_ok(ul->total_tat, now_ns, ul->total_per_s, ul->total_burst)) {
		ul->refused++;
		return false;
	}
	ul->uid[i] = uid;
	ul->tat[i] = gcra_next(tat, now_ns, ul->rate_per_s);
	ul->total_tat = gcra_next(ul->total_tat, now_ns, ul->total_per_s);
	return true;
}
