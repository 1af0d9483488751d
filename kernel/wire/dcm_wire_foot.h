/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the foot boards (RS485-3 and -4, Address 5): bumpers, FSRs and
 * the RGB LED; their register map, read in the RS485 reply, and their
 * slot in the cyclic command.
 */
#ifndef _DCM_WIRE_FOOT_H
#define _DCM_WIRE_FOOT_H

#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"

#define DCM_WHOAMI_FOOT		0xf0

#define DCM_FOOT_BUMPERS	0x02	/* R: bit 0 left, bit 1 right */
#define DCM_FOOT_FSR		0x04	/* R: 4 x u16, grams */
#define DCM_FOOT_LED		0x0c	/* RW: red, green, blue, 0..255 */
#define DCM_FOOT_IN_REG		DCM_FOOT_BUMPERS	/* cyclic read: 0x02..0x0b */
#define DCM_FOOT_IN_LEN		10
#define DCM_FOOT_OUT_REG	DCM_FOOT_LED		/* cyclic write: 0x0c..0x0e */
#define DCM_FOOT_OUT_LEN	3
#define DCM_FOOT_FSRS		4

/**
 * struct dcm_foot_in - a foot board's cyclic read block
 * @bumper: left, right pressed
 * @fsr: FrontLeft, FrontRight, RearLeft, RearRight, grams
 */
struct dcm_foot_in {
	bool bumper[2];
	u16 fsr[DCM_FOOT_FSRS];
};

void dcm_foot_put_in(u8 *block, const struct dcm_foot_in *in);
void dcm_foot_get_in(const u8 *block, struct dcm_foot_in *in);
void dcm_foot_put_slot(struct dcm_rs485_slot *slot, const u8 *led);
void dcm_foot_get_slot(const struct dcm_rs485_slot *slot, u8 *led);

#endif /* _DCM_WIRE_FOOT_H */
