/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the head's boards (I2C-head): the head board (CPU temperature),
 * the face board (48 LEDs), the ear board (20 LEDs) and the head touch
 * board (3 pads, 12 LEDs).
 */
#ifndef _DCM_WIRE_HEAD_H
#define _DCM_WIRE_HEAD_H

#include "wire/dcm_regs.h"

#define DCM_WHOAMI_FACE		0xfa
#define DCM_WHOAMI_EAR		0xea
#define DCM_WHOAMI_TOUCH	0x7c
#define DCM_WHOAMI_HEAD		0xce

/* ---- Head board (I2C-head, 0x4c): the CPU temperature ---- */

#define DCM_HEAD_TEMP		0x02	/* R: s32, milli-degrees Celsius */
#define DCM_HEAD_IN_REG		DCM_HEAD_TEMP	/* cyclic read: 0x02..0x05 */
#define DCM_HEAD_IN_LEN		4

void dcm_head_put_in(u8 *block, s32 temp_mc);
s32 dcm_head_get_in(const u8 *block);

/* ---- Face board (I2C-head, 0x40): 48 LEDs, 6 bits ---- */

#define DCM_FACE_LEDS		0x10	/* RW: 48 bytes, 0..63 each */
#define DCM_FACE_N		48
#define DCM_FACE_MAX		63
#define DCM_FACE_OUT_LEN	DCM_FACE_N

void dcm_face_put(u8 *block, const u8 *level);
void dcm_face_get(const u8 *block, u8 *level);

/* ---- Ear board (I2C-head, 0x41): 20 LEDs, 4 bits, two per byte ---- */

#define DCM_EAR_LEDS		0x10	/* RW: 10 bytes */
#define DCM_EAR_N		20
#define DCM_LED4_MAX		15
#define DCM_EAR_OUT_LEN		(DCM_EAR_N / 2)

void dcm_led4_put(u8 *block, const u8 *level, u32 n);
void dcm_led4_get(const u8 *block, u8 *level, u32 n);

/* ---- Head touch board (I2C-head, 0x48): 3 touch pads, 12 LEDs 4 bits ---- */

#define DCM_TOUCH_PADS		0x02	/* R: bit 0 front, 1 middle, 2 rear */
#define DCM_TOUCH_LEDS		0x10	/* RW: 6 bytes */
#define DCM_TOUCH_N		12
#define DCM_TOUCH_IN_LEN	1
#define DCM_TOUCH_OUT_LEN	(DCM_TOUCH_N / 2)

#endif /* _DCM_WIRE_HEAD_H */
