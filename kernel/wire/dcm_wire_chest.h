/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the chest board (I2C-chest, 0x20): button, LEDs, program version
 * and the store that keeps the body's identity and calibration.
 */
#ifndef _DCM_WIRE_CHEST_H
#define _DCM_WIRE_CHEST_H

#include "wire/dcm_regs.h"

#define DCM_WHOAMI_CHEST	0xc1

#define DCM_CHEST_BUTTON	0x02	/* R: bit 0 chest button pressed */
#define DCM_CHEST_STATUS	0x03	/* R: DCM_CHEST_ST_* */
#define DCM_CHEST_LED_RED	0x04	/* RW: 0..255 */
#define DCM_CHEST_LED_GREEN	0x05
#define DCM_CHEST_LED_BLUE	0x06
#define DCM_CHEST_LED_STATE	0x07	/* RW: 0 RGB registers shown, else animation */
#define DCM_CHEST_EE_PAGE	0x08	/* RW: page of the store, 0..31 */
#define DCM_CHEST_EE_CMD	0x09	/* W: DCM_CHEST_EE_LOAD or _COMMIT */
#define DCM_CHEST_PROG_VERSION	0x10	/* R: 16 bytes, ASCII, NUL-padded */
#define DCM_CHEST_EE_WINDOW	0x20	/* RW: 32 bytes, the page buffer */

#define DCM_CHEST_BUTTON_PRESSED	BIT(0)	/* in DCM_CHEST_BUTTON */
#define DCM_CHEST_ST_EE_BUSY	BIT(0)	/* a commit is being written */
#define DCM_CHEST_ST_EE_ERROR	BIT(1)	/* the last commit failed */
#define DCM_CHEST_EE_LOAD	0x01	/* window = page EE_PAGE */
#define DCM_CHEST_EE_COMMIT	0x02	/* page EE_PAGE = window */

#define DCM_CHEST_IN_REG	DCM_CHEST_BUTTON	/* cyclic read: 0x02..0x07 */
#define DCM_CHEST_IN_LEN	6
#define DCM_CHEST_OUT_REG	DCM_CHEST_LED_RED	/* cyclic write: 0x04..0x07 */
#define DCM_CHEST_OUT_LEN	4
#define DCM_CHEST_PROG_VERSION_LEN	16

/**
 * struct dcm_chest_out - what the DCM writes to the chest board each cycle
 * @led: red, green, blue, 0..255
 * @led_state: LedState: 0 shows @led, other values are the board's own
 *	animations
 */
struct dcm_chest_out {
	u8 led[3];
	u8 led_state;
};

/**
 * struct dcm_chest_in - what the DCM reads from the chest board each cycle
 * @button: the chest button is pressed
 * @status: DCM_CHEST_ST_*
 * @out: the LED registers as the board holds them
 */
struct dcm_chest_in {
	bool button;
	u8 status;
	struct dcm_chest_out out;
};

void dcm_chest_put_out(u8 *block, const struct dcm_chest_out *o);
void dcm_chest_get_out(const u8 *block, struct dcm_chest_out *o);
void dcm_chest_put_in(u8 *block, const struct dcm_chest_in *in);
void dcm_chest_get_in(const u8 *block, struct dcm_chest_in *in);

/* The chest board's store: 32 pages of 32 bytes, kept across restarts */
#define DCM_CHEST_EE_PAGE_LEN	32
#define DCM_CHEST_EE_PAGES	32
#define DCM_CHEST_BODY_LEN	256	/* pages 0..7: struct dcm_chest_body */
#define DCM_CHEST_BODY_VERSION	1
#define DCM_CHEST_NAME_LEN	32	/* BodyId, BodyNickName: NUL included */
#define DCM_CHEST_CALIB_BUSES	4	/* RS485-1..RS485-4 */
#define DCM_CHEST_CALIB_ADDRS	8	/* Address 1..8 on each */
#define DCM_CHEST_CALIB_N	(DCM_CHEST_CALIB_BUSES * DCM_CHEST_CALIB_ADDRS * 2)

/**
 * struct dcm_chest_body - what the chest board keeps about its body
 * @body_id: BodyId, NUL-terminated
 * @nick: BodyNickName, NUL-terminated
 * @zero: jointZeroPosition per motor, 0..4095, 0 not calibrated, at
 *	dcm_chest_calib_index()
 */
struct dcm_chest_body {
	char body_id[DCM_CHEST_NAME_LEN];
	char nick[DCM_CHEST_NAME_LEN];
	u16 zero[DCM_CHEST_CALIB_N];
};

int dcm_chest_prog_version(const u8 *block, char *s, size_t size);
int dcm_chest_calib_index(u8 bus, u8 addr, u8 motor);
int dcm_chest_body_put(u8 *image, const struct dcm_chest_body *b);
int dcm_chest_body_get(const u8 *image, struct dcm_chest_body *b);

#endif /* _DCM_WIRE_CHEST_H */
