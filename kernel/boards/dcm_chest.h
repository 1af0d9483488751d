/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the chest board's files between themselves: its board type
 * (dcm_chest.c), its store (dcm_chest_store.c) and the joint calibration
 * written there (dcm_chest_calib.c). Nothing outside boards/dcm_chest*.c
 * includes it.
 */
#ifndef _DCM_CHEST_H
#define _DCM_CHEST_H

#include <linux/types.h>

struct dcm_controller;
struct dcm_model;

/* dcm_chest_store.c (and dcm_chest_load(), the board table's) */
int dcm_chest_joint_sub(const struct dcm_model *m, u32 dev, u32 number, bool position);
int dcm_chest_store_index(const struct dcm_model *m, u32 dev, u32 number);
int dcm_chest_store_zero(struct dcm_controller *ctrl, const struct dcm_model *m, int store,
			 const char *joint, u16 zero, const char **why);

#endif /* _DCM_CHEST_H */
