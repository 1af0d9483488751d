/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the hand boards (RS485-1 and -2, Address 5): three touch pads,
 * read in the RS485 reply (bit n of DCM_TOUCH_MASK is pad n). The hand
 * board has no slot content of its own (its slot is zeros), so no codec.
 */
#ifndef _DCM_WIRE_HAND_H
#define _DCM_WIRE_HAND_H

#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"

#define DCM_WHOAMI_HAND		0xa0

#define DCM_HAND_TOUCH		0x02	/* R: bit 0 back, 1 left, 2 right */
#define DCM_HAND_IN_LEN		1

#endif /* _DCM_WIRE_HAND_H */
