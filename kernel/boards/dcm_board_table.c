// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the board table: every board type of the NAO, and the body record
 * in the chest board's store, given to the core at module init. Adding a
 * board type adds its family file and one line here
 * (Documentation/dcm/boards.rst).
 */

#include <linux/kernel.h>

#include "boards/dcm_board_table.h"

static const struct dcm_board_type *const dcm_board_types[] = {
	&dcm_motor_board, &dcm_chest_board, &dcm_battery_board, &dcm_sonar_board,
	&dcm_inertial_board, &dcm_head_board, &dcm_face_board, &dcm_ear_board,
	&dcm_touch_board, &dcm_foot_board, &dcm_hand_board,
};

static const struct dcm_boards dcm_boards = {
	.types = dcm_board_types,
	.n_types = ARRAY_SIZE(dcm_board_types),
	.load_record = dcm_chest_load,
};

/**
 * dcm_board_table_init() - give the core the board types and the body record
 */
void dcm_board_table_init(void)
{
	dcm_boards_set(&dcm_boards);
}
