/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the boards layer: the board types of the NAO, one file per family
 * (Documentation/dcm/boards.rst), and the calibration procedure the chest
 * board's store serves.
 */
#ifndef _DCM_BOARD_TABLE_H
#define _DCM_BOARD_TABLE_H

#include <linux/string.h>

#include "core/dcm_board_type.h"

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

/* dcm_board_table.c */
void dcm_board_table_init(void);

/* dcm_chest_store.c: the body record, loaded into each description committed */
void dcm_chest_load(struct dcm_controller *ctrl, struct dcm_model *m);

/*
 * A register board's cyclic write block (LEDs) goes on the wire only when
 * it differs from what the board last took (Documentation/dcm/
 * wire-protocol.rst, "Register maps"): the block the cycle computed is
 * compared with the one last written. It is written again after the
 * board failed an exchange (it may have been reset meanwhile), and once
 * every DCM_OUT_REFRESH cycles in any case (a board reset that no transfer
 * saw shows its old LEDs for a second at most).
 */
#define DCM_OUT_MAX		48	/* the face board's 48 LEDs */
#define DCM_OUT_REFRESH		100

/**
 * struct dcm_out_cache - what a board's cyclic write block last wrote
 * @sent: the block, as the board took it
 * @next: the block put on the wire this cycle, when @due
 * @age: cycles since it was written
 * @len: bytes of @next
 * @valid: @sent is what the board holds: it took it, and failed no
 *	exchange since
 * @due: @next is written this cycle
 */
struct dcm_out_cache {
	u8 sent[DCM_OUT_MAX];
	u8 next[DCM_OUT_MAX];
	u16 age;
	u8 len;
	bool valid;
	bool due;
};

/**
 * dcm_out_due() - whether a cyclic write block must go on the wire
 * @c: the board's cache, zeroed at bind (nothing written yet)
 * @out: the block the cycle computed
 * @len: its bytes, at most DCM_OUT_MAX
 *
 * When it must, @out is kept until dcm_out_done() says whether the board
 * took it. Context: the cycle, the board's put.
 * Return: true if @out differs from what the board holds, or that is not
 * known, or it was written DCM_OUT_REFRESH cycles ago.
 */
static inline bool dcm_out_due(struct dcm_out_cache *c, const u8 *out, size_t len)
{
	c->due = !c->valid || c->age >= DCM_OUT_REFRESH - 1 || memcmp(c->sent, out, len);
	if (c->due) {
		memcpy(c->next, out, len);
		c->len = len;
	} else {
		c->age++;
	}
	return c->due;
}

/**
 * dcm_out_done() - a board's cycle ended: what it holds now
 * @c: the board's cache
 * @ret: the board's exchange this cycle: 0, or a negative errno (the
 *	board may have lost its block: it is written again next cycle)
 *
 * Context: the cycle, the board's get.
 */
static inline void dcm_out_done(struct dcm_out_cache *c, int ret)
{
	if (ret) {
		c->valid = false;
	} else if (c->due) {
		memcpy(c->sent, c->next, c->len);
		c->age = 0;
		c->valid = true;
	}
	c->due = false;
}

/* dcm_chest_calib.c: joint calibration, into the chest board's store */

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

#endif /* _DCM_BOARD_TABLE_H */
