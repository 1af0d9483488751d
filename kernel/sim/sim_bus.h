/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the buses of the simulated body: the hardware the dcm core
 * reaches the simulated boards through, each with the software node that
 * the body refers to. Generic: each finds the board at an address with
 * sim_board_find() and lets its ops answer.
 */
#ifndef _SIM_BUS_H
#define _SIM_BUS_H

#include "sim_body.h"

struct software_node;

/* sim_rs485.c */
int sim_rs485_add(struct dcm_sim *sim, struct device *dev, const struct software_node *nodes);
void sim_rs485_remove(struct dcm_sim *sim);

/* sim_i2c.c */
int sim_i2c_add(struct dcm_sim *sim, struct device *parent, const struct software_node *nodes);
void sim_i2c_remove(struct dcm_sim *sim);

/* sim_spi.c */
int sim_spi_add(struct dcm_sim *sim, struct device *parent, const struct software_node *node);
void sim_spi_remove(struct dcm_sim *sim);

#endif /* _SIM_BUS_H */
