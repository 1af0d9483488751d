/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - timed commands of one actuator: the queue, the four update kinds,
 * the interpolation of each cycle, and the conversion of a value to what is
 * sent (Min/Max, Gain/Offset, quantization).
 *
 * Pure logic: it builds in the kernel and in the host unit tests. Callers
 * serialize access to one queue.
 */
#ifndef _DCM_TIMED_H
#define _DCM_TIMED_H

#include "model/dcm_pure.h"
#include <uapi/linux/dcm.h>

/**
 * struct dcm_tc_queue - the timed commands of one actuator
 * @pts: queued commands, by time (signed 32-bit differences), ties in the
 *	order they came
 * @n: how many
 * @value: the value the last cycle computed, micro-units, before
 *	quantization
 * @time: the DCM time of that cycle
 * @primed: @value and @time hold a cycle
 */
struct dcm_tc_queue {
	struct dcm_point pts[DCM_MAX_POINTS];
	u32 n;
	s64 value;
	u32 time;
	bool primed;
};

/**
 * dcm_time_before() - whether DCM time @a comes before @b
 * @a: a DCM time
 * @b: another
 *
 * DCM time wraps at 2^32 ms; two times compare by their signed difference.
 *
 * Return: true if @a is earlier than @b.
 */
static inline bool dcm_time_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

void dcm_tc_init(struct dcm_tc_queue *q, s64 value);
int dcm_tc_prepare(struct dcm_point *pts, u32 n);
bool dcm_tc_fits(const struct dcm_tc_queue *q, u32 update, const struct dcm_point *pts, u32 n);
int dcm_tc_set(struct dcm_tc_queue *q, u32 update, const struct dcm_point *pts, u32 n);
bool dcm_tc_step(struct dcm_tc_queue *q, u32 now, bool step_only, s64 *value);

/**
 * struct dcm_conv - how a subdevice's values become raw numbers
 * @gain: Gain, micro-units times @gain_den, not 0
 * @gain_den: denominator of @gain, from 1
 * @offset: Offset, micro-units
 * @min: Min, micro-units
 * @max: Max, micro-units
 */
struct dcm_conv {
	s64 gain;
	u32 gain_den;
	s64 offset, min, max;
};

s64 dcm_to_raw(const struct dcm_conv *c, s64 value);
s64 dcm_from_raw(const struct dcm_conv *c, s64 raw);

#endif /* _DCM_TIMED_H */
