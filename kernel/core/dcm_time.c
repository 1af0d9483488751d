// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - DCM time: each controller's clock, in milliseconds from its
 * creation on the monotonic clock, plus the time_origin_ms module
 * parameter. The cycle stamps its deadlines with it, the events their
 * time, the faces the time they answer.
 */

#include <linux/ktime.h>
#include <linux/moduleparam.h>

#include "core/dcm_controller.h"
#include "core/dcm_time.h"

static unsigned int time_origin_ms;
module_param(time_origin_ms, uint, 0444);
MODULE_PARM_DESC(time_origin_ms, "DCM time of a new controller at its creation, in ms (default 0)");

/**
 * dcm_time_start() - start a new controller's DCM time
 * @time: its time, part of the controller
 *
 * DCM time is the time_origin_ms module parameter now.
 */
void dcm_time_start(struct dcm_time *time)
{
	time->origin_ms = time_origin_ms;
	time->epoch = ktime_get();
}

/**
 * dcm_time_ms() - DCM time of a controller
 * @ctrl: the controller
 *
 * DCM time counts milliseconds on the monotonic clock from the controller's
 * creation, plus the time_origin_ms module parameter. It is 32 bits wide and
 * wraps: compare two times by their signed difference.
 *
 * Return: the time now, in ms.
 */
u32 dcm_time_ms(const struct dcm_controller *ctrl)
{
	return dcm_time_ms_at(ctrl, ktime_get());
}

/**
 * dcm_time_ms_at() - DCM time of a controller at a given moment
 * @ctrl: the controller
 * @t: the moment, on the monotonic clock (ktime_get())
 *
 * Return: the DCM time at @t, in ms (see dcm_time_ms()).
 */
u32 dcm_time_ms_at(const struct dcm_controller *ctrl, ktime_t t)
{
	s64 ms = ktime_ms_delta(t, ctrl->time.epoch);

	return ctrl->time.origin_ms + (u32)ms;
}
