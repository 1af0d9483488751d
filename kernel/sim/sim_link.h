/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the physics link (sim_link.c): /dev/dcm_sim_body<N>, through
 * which a rigid-body model in user space (dcm-physics) is given each
 * cycle's motor commands and gives back where the joints are and what the
 * feet and the inertial board sense (include/uapi/linux/dcm_sim.h).
 *
 * The board families call it from their cycle: the motor boards record
 * what their joints were told (sim_link_motor()) and, while a model is
 * attached, take its joints' angles and currents (sim_link_joint()); the
 * foot boards its FSRs' loads (sim_link_fsr()); the inertial board its
 * attitude, rates and accelerations (sim_link_imu()). RS485-1's cyclic
 * broadcast ticks it (sim_link_tick()). None of these sleeps.
 */
#ifndef _SIM_LINK_H
#define _SIM_LINK_H

#include <uapi/linux/dcm_sim.h>

struct dcm_sim;
struct device;

int sim_link_add(struct dcm_sim *sim, struct device *dev);
void sim_link_remove(struct dcm_sim *sim);

void sim_link_tick(struct dcm_sim *sim);
void sim_link_motor(struct dcm_sim *sim, unsigned int joint,
		    const struct dcm_sim_joint_cmd *cmd);
bool sim_link_joint(struct dcm_sim *sim, unsigned int joint, s32 *pos_urad, s32 *current_ma);
bool sim_link_fsr(struct dcm_sim *sim, unsigned int side, u32 *w_g);
bool sim_link_imu(struct dcm_sim *sim, s32 *angle_urad, s32 *rate_urad_s, s32 *acc_ug);

#endif /* _SIM_LINK_H */
