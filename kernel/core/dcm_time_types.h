/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - DCM time's state, a part of the controller (struct dcm_time), apart
 * from its functions (dcm_time.h) so that the controller embeds it without
 * including them.
 */
#ifndef _DCM_TIME_TYPES_H
#define _DCM_TIME_TYPES_H

#include <linux/ktime.h>
#include <linux/types.h>

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

#endif /* _DCM_TIME_TYPES_H */
