/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - DCM time: a controller's clock in milliseconds (dcm_time.c).
 */
#ifndef _DCM_TIME_H
#define _DCM_TIME_H

#include <linux/ktime.h>
#include <linux/types.h>

#include "core/dcm_time_types.h"

struct dcm_controller;

void dcm_time_start(struct dcm_time *time);
u32 dcm_time_ms(const struct dcm_controller *ctrl);
u32 dcm_time_ms_at(const struct dcm_controller *ctrl, ktime_t t);

#endif /* _DCM_TIME_H */
