/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a rate limit per user, for what any user may ask of the kernel
 * (the board diagnostic): each user may ask @rate_per_s times a second, in
 * bursts of @burst, and all users together @total_per_s times a second in
 * bursts of @total_burst, so that no user, nor a few, can load the cycle,
 * the kernel log or the event readers with it.
 *
 * Each limit is a generic cell rate algorithm: a theoretical arrival time
 * (@tat) a request may not be too far behind. DCM_USERLIMIT_USERS users are
 * tracked at once; a user not tracked takes the place of the one whose
 * bucket is fullest (the longest idle), whose limit that loses nothing.
 *
 * Pure logic, no locking: the caller serialises. It builds in the kernel
 * and in the host unit tests.
 */
#ifndef _DCM_USERLIMIT_H
#define _DCM_USERLIMIT_H

#include "model/dcm_pure.h"

#define DCM_USERLIMIT_USERS	16

/**
 * struct dcm_userlimit - the limits and the users tracked
 * @rate_per_s: a user's requests a second, at least 1
 * @burst: a user's requests at once, at least 1
 * @total_per_s: every user's requests a second together, at least 1
 * @total_burst: every user's requests at once, at least 1
 * @uid: the users tracked
 * @tat: each one's theoretical arrival time, ns; 0 for a free entry
 * @total_tat: all users', ns
 * @refused: requests refused
 */
struct dcm_userlimit {
	u32 rate_per_s;
	u32 burst;
	u32 total_per_s;
	u32 total_burst;
	u32 uid[DCM_USERLIMIT_USERS];
	u64 tat[DCM_USERLIMIT_USERS];
	u64 total_tat;
	u64 refused;
};

bool dcm_userlimit_allow(struct dcm_userlimit *ul, u32 uid, u64 now_ns);

#endif /* _DCM_USERLIMIT_H */
