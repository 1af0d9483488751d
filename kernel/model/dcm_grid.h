/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the cycle's grid: its deadlines stay on the phase of the first one
 * (first + k * period), whatever a late cycle did. Pure logic: it builds in
 * the kernel and in the host unit tests.
 */
#ifndef _DCM_GRID_H
#define _DCM_GRID_H

#include "model/dcm_pure.h"

/**
 * dcm_grid_advance() - how many periods the next deadline is after this one
 * @late_ns: how late the cycle started after its deadline (0 if on time)
 * @period_ns: the period, not 0
 *
 * The next deadline is the first point of the grid after this cycle's
 * deadline that is at least half a period after the cycle's start: a late
 * cycle is never followed by one closer than half a period, and the points
 * passed over (the return value less one) are missed slots, not run. A
 * cycle less than half a period late keeps the next point.
 *
 * Return: the number of periods to the next deadline, 1 or more.
 */
static inline u64 dcm_grid_advance(u64 late_ns, u64 period_ns)
{
	/* The least k >= 1 with k * period >= late + period / 2. */
	u64 k = div64_u64(late_ns + period_ns / 2 + period_ns - 1, period_ns);

	return k ? k : 1;
}

#endif /* _DCM_GRID_H */
