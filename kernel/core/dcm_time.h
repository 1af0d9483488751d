/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - DCM time: a controller's clock in milliseconds (dcm_time.c).
 */
#ifndef _DCM_TIME_H
#define _DCM_TIME_H

#include <linux/ktime.h>
#include <linux/types.h>

struct dcm_controller;

/**
 * struct dcm_time - a controller's DCM time, a part of the controller
 * @epoch: ktime at which DCM time was @origin_ms
 * @origin_ms: DCM time at @epoch
 *
 * Set once, when the controller is made (dcm_time_start()); read without a
 * lock.
 */
struct dcm_time {
	ktime_t epoch;
	u32 origin_ms;
};

void dcm_time_start(struct dcm_time *time);
u32 dcm_time_ms(const struct dcm_controller *ctrl);
u32 dcm_time_ms_at(const struct dcm_controller *ctrl, ktime_t t);

#endif /* _DCM_TIME_H */
