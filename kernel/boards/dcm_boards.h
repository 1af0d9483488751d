/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the boards layer: the board types of the NAO, one file per family
 * (Documentation/dcm/boards.rst), and the calibration procedure the chest
 * board's store serves.
 */
#ifndef _DCM_BOARDS_H
#define _DCM_BOARDS_H

#include "core/dcm_board.h"

/* The board types, one per family file. */
extern const struct dcm_board_type dcm_motor_board;
extern const struct dcm_board_type dcm_foot_board;
extern const struct dcm_board_type dcm_hand_board;
extern const struct dcm_board_type dcm_chest_board;
extern const struct dcm_board_type dcm_battery_board;
extern const struct dcm_board_type dcm_sonar_board;
extern const struct dcm_board_type dcm_inertial_board;
extern const struct dcm_board_type dcm_head_board;
extern const struct dcm_board_type dcm_face_board;
extern const struct dcm_board_type dcm_ear_board;
extern const struct dcm_board_type dcm_touch_board;

/* dcm_boards.c */
void dcm_boards_init(void);

/* dcm_chest.c: the chest board, its store and the calibration it serves */

/**
 * struct dcm_calib_result - what dcm_calibrate() did
 * @joint: the joint's name, "HeadYaw"
 * @zero: its jointZeroPosition now
 * @previous: its jointZeroPosition before
 * @raw: its MRE count when the calibration began
 */
struct dcm_calib_result {
	char joint[DCM_MAX_NAME_LEN];
	u16 zero;
	u16 previous;
	u16 raw;
};

int dcm_calibrate(struct dcm_controller *ctrl, struct dcm_runtime *rt, const char *name,
		  u8 stop, u16 zero, struct dcm_calib_result *res, const char **why);

#endif /* _DCM_BOARDS_H */
