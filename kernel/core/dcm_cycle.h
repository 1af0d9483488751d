/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the cycle (dcm_cycle.c): a controller's cycle thread, its buses'
 * lanes, its statistics; its state is struct dcm_cycle (dcm_cycle_types.h).
 */
#ifndef _DCM_CYCLE_H
#define _DCM_CYCLE_H

#include <linux/cpumask.h>
#include <linux/types.h>

#include "core/dcm_cycle_types.h"

struct dcm_controller;
struct dcm_ioc_cycle_stats;
struct dcm_ioc_stats;

int dcm_cycle_init(struct dcm_controller *ctrl);
void dcm_cycle_free(struct dcm_controller *ctrl);
int dcm_cycle_start(struct dcm_controller *ctrl);
void dcm_cycle_stop(struct dcm_controller *ctrl);
void dcm_cycle_stats(struct dcm_controller *ctrl, struct dcm_ioc_stats *out);
void dcm_cycle_stats_full(struct dcm_controller *ctrl, struct dcm_ioc_cycle_stats *out,
			  bool reset);
int dcm_cycle_params_check(void);
void dcm_cycle_cpus(struct dcm_controller *ctrl, struct cpumask *out);
void dcm_cycle_stats_reset(struct dcm_controller *ctrl);
void dcm_cycle_lane_stats(struct dcm_controller *ctrl, u32 lane, struct dcm_lane_stats *out);
void dcm_cycle_step_stats(struct dcm_controller *ctrl, u32 step, u64 *pct);
int dcm_cycle_lanes_prepare(struct dcm_controller *ctrl, u32 n);
int dcm_cycle_set_priority(struct dcm_controller *ctrl, u32 priority);
int dcm_cycle_set_cpus(struct dcm_controller *ctrl, const struct cpumask *cpus);

#endif /* _DCM_CYCLE_H */
