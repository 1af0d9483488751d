// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a foot's total weight and centre of pressure, from its four FSRs.
 *
 * TotalWeight is the sum of the four FSR values. The centre of pressure is
 * the barycentre of the FSR positions (their XPosition and YPosition keys)
 * weighted by what each FSR reads, a reading below 0 counting as 0. Under
 * DCM_FSR_COP_MIN on the foot it is 0: with almost no weight the barycentre
 * is noise (seed 000: "when the weight on the foot is very low, the center
 * of pressure will likely be bad").
 */

#include "model/dcm_fsr.h"

/* Weights beyond 1000 kg and positions beyond 1 km keep the sums in s64. */
#define FSR_WEIGHT_MAX	1000000000LL
#define FSR_POS_MAX	1000000000LL

/* @num / @den rounded to nearest, half away from zero; @den > 0. */
static s64 div_round(s64 num, s64 den)
{
	return (num < 0 ? num - den / 2 : num + den / 2) / den;
}

/**
 * dcm_fsr_derive() - total weight and centre of pressure of a foot
 * @f: the foot: @f->weight, @f->x and @f->y in; @f->total, @f->cop_x and
 *	@f->cop_y out
 */
void dcm_fsr_derive(struct dcm_fsr_foot *f)
{
	s64 sum = 0, sx = 0, sy = 0;
	int i;

	f->total = 0;
	for (i = 0; i < DCM_FSR_PER_FOOT; i++) {
		s64 w = clamp(f->weight[i], 0LL, FSR_WEIGHT_MAX);

		f->total += clamp(f->weight[i], -FSR_WEIGHT_MAX, FSR_WEIGHT_MAX);
		sum += w;
		sx += w * clamp(f->x[i], -FSR_POS_MAX, FSR_POS_MAX);
		sy += w * clamp(f->y[i], -FSR_POS_MAX, FSR_POS_MAX);
	}
	if (sum < DCM_FSR_COP_MIN) {
		f->cop_x = 0;
		f->cop_y = 0;
		return;
	}
	f->cop_x = div_round(sx, sum);
	f->cop_y = div_round(sy, sum);
}
