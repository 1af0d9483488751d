// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the stiffness rules.
 *
 * Per joint, each cycle, the hardness sent is the commanded one after:
 * no calibration (jointZeroPosition 0): not above 0; temperature status 1:
 * 85 %, 2: 70 %, 3: 0 (seed 001); then the controller's factors: after a
 * cycle fault (a cycle more than 500 ms after the previous one) 0, then back
 * to the commanded values linearly over 2 s; while the battery current is
 * past its limit, down by 25 % a second, and up again at that rate once it
 * is back. A factor below 1 also turns a free motor (hardness below 0) into
 * a braked one (0).
 */

#include "model/dcm_safety.h"

#define FULL_PPM DCM_SAFETY_FULL_PPM

/**
 * dcm_safety_init() - the rules' state at the start: nothing acting
 * @s: the state
 */
void dcm_safety_init(struct dcm_safety *s)
{
	memset(s, 0, sizeof(*s));
	s->fault_ppm = FULL_PPM;
	s->battery_ppm = FULL_PPM;
}

/**
 * dcm_safety_cycle() - advance the controller-wide rules by one cycle
 * @s: the state
 * @now: the cycle's DCM time
 * @battery_over: the battery current is past its limit
 */
void dcm_safety_cycle(struct dcm_safety *s, u32 now, bool battery_over)
{
	s32 dt = s->primed ? (s32)(now - s->last) : 0;
	u64 step;

	if (dt < 0)
		dt = 0;
	s->last = now;
	s->primed = true;

	if (dt > DCM_SAFETY_FAULT_MS) {
		s->fault_ppm = 0;
		s->faults++;
	} else if (s->fault_ppm < FULL_PPM) {
		step = div64_u64((u64)FULL_PPM * dt, DCM_SAFETY_RECOVER_MS);
		s->fault_ppm = (u32)min_t(u64, (u64)s->fault_ppm + step, FULL_PPM);
	}

	step = (u64)DCM_SAFETY_BATTERY_PPM_PER_MS * min_t(s32, dt, DCM_SAFETY_FAULT_MS);
	if (battery_over)
		s->battery_ppm = s->battery_ppm > step ? s->battery_ppm - (u32)step : 0;
	else
		s->battery_ppm = (u32)min_t(u64, (u64)s->battery_ppm + step, FULL_PPM);
}

/**
 * dcm_safety_scale() - the factor every joint's hardness takes now
 * @s: the state
 *
 * Return: the product of the cycle-fault and battery factors, ppm.
 */
u32 dcm_safety_scale(const struct dcm_safety *s)
{
	return (u32)div64_u64((u64)s->fault_ppm * s->battery_ppm, FULL_PPM);
}

/**
 * dcm_safety_hardness() - the hardness a joint may be sent
 * @hardness: the commanded hardness, micro-units, -1.0 to 1.0
 * @calibrated: the joint's jointZeroPosition is not 0
 * @temp_status: its temperature status, 0-3
 * @scale_ppm: dcm_safety_scale()
 *
 * Return: the hardness to send, micro-units.
 */
s64 dcm_safety_hardness(s64 hardness, bool calibrated, u8 temp_status, u32 scale_ppm)
{
	s64 h = hardness;

	if (!calibrated && h > 0)
		h = 0;
	if (temp_status >= 3)
		return 0;
	if (temp_status == 2)
		h = div_s64(h * DCM_SAFETY_TEMP2_PPM, FULL_PPM);
	else if (temp_status == 1)
		h = div_s64(h * DCM_SAFETY_TEMP1_PPM, FULL_PPM);
	if (scale_ppm >= FULL_PPM)
		return h;
	if (h < 0)
		return 0;
	return div_s64(h * scale_ppm, FULL_PPM);
}
