/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the values the DCM derives from a foot's four FSRs each cycle: the
 * total weight and the centre of pressure (seed 000, "FSR" and
 * "CenterOfPressure").
 *
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_FSR_H
#define _DCM_FSR_H

#include "model/dcm_pure.h"

#define DCM_FSR_PER_FOOT	4
#define DCM_FSR_COP_MIN		100000	/* micro-kg: below 0.1 kg the CoP stays 0 */

/**
 * struct dcm_fsr_foot - what a foot's FSRs say, and what follows
 * @weight: each FSR's Value, micro-units (micro-kg)
 * @x: each FSR's XPosition, micro-units (micro-m)
 * @y: each FSR's YPosition, micro-units (micro-m)
 * @total: out: the sum of @weight
 * @cop_x: out: the barycentre of @x weighted by @weight, or 0
 * @cop_y: out: the same for @y
 */
struct dcm_fsr_foot {
	s64 weight[DCM_FSR_PER_FOOT];
	s64 x[DCM_FSR_PER_FOOT];
	s64 y[DCM_FSR_PER_FOOT];
	s64 total;
	s64 cop_x, cop_y;
};

void dcm_fsr_derive(struct dcm_fsr_foot *f);

#endif /* _DCM_FSR_H */
