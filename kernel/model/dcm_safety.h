/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the stiffness (hardness) rules that keep the robot safe (seed 000,
 * jointHardness; seed 001, Temperature status), as pure logic: it builds in
 * the kernel and in the host unit tests.
 */
#ifndef _DCM_SAFETY_H
#define _DCM_SAFETY_H

#include "model/dcm_pure.h"

#define DCM_SAFETY_FULL_PPM		1000000U	/* a factor of 1 */
#define DCM_SAFETY_FAULT_MS		500	/* a cycle late by more: cycle fault */
#define DCM_SAFETY_RECOVER_MS		2000	/* hardness back over this long */
#define DCM_SAFETY_BATTERY_PPM_PER_MS	250	/* 25 % a second, down or up */
#define DCM_SAFETY_TEMP1_PPM		850000	/* status 1: reduced to 85 % */
#define DCM_SAFETY_TEMP2_PPM		700000	/* status 2: reduced over 30 % */

/**
 * struct dcm_safety - the controller-wide state of the rules
 * @last: DCM time of the last cycle
 * @primed: @last holds a cycle
 * @fault_ppm: the cycle-fault factor: 0 after a fault, back to 1000000
 *	over DCM_SAFETY_RECOVER_MS
 * @battery_ppm: the battery factor: down while the battery current is past
 *	its limit, up again after
 * @faults: cycle faults seen
 */
struct dcm_safety {
	u32 last;
	bool primed;
	u32 fault_ppm;
	u32 battery_ppm;
	u32 faults;
};

void dcm_safety_init(struct dcm_safety *s);
void dcm_safety_cycle(struct dcm_safety *s, u32 now, bool battery_over);
u32 dcm_safety_scale(const struct dcm_safety *s);
s64 dcm_safety_hardness(s64 hardness, bool calibrated, u8 temp_status, u32 scale_ppm);

#endif /* _DCM_SAFETY_H */
