/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the board families of the simulated body, one file each, as in
 * the board (kernel/boards/) and wire (kernel/wire/) layers. Each family's
 * add function puts its boards at power-up in the body (sim_board_add())
 * and its knobs in debugfs; the memory is the body device's (devm).
 */
#ifndef _SIM_BOARDS_H
#define _SIM_BOARDS_H

#include "sim_body.h"
#include "sim_physics.h"
#include "sim_sensors.h"

int sim_motor_add(struct dcm_sim *sim, struct device *dev);	/* sim_motor.c */
int sim_foot_add(struct dcm_sim *sim, struct device *dev);	/* sim_foot.c */
int sim_hand_add(struct dcm_sim *sim, struct device *dev);	/* sim_hand.c */
int sim_chest_add(struct dcm_sim *sim, struct device *dev);	/* sim_chest.c */
int sim_battery_add(struct dcm_sim *sim, struct device *dev);	/* sim_battery.c */
int sim_sonar_add(struct dcm_sim *sim, struct device *dev);	/* sim_sonar.c */
int sim_inertial_add(struct dcm_sim *sim, struct device *dev);	/* sim_inertial.c */
int sim_head_add(struct dcm_sim *sim, struct device *dev);	/* sim_head.c */

#endif /* _SIM_BOARDS_H */
