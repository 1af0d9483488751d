// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the head's boards: the head board (CPU temperature), the face
 * board (48 LEDs), the ear board (20 LEDs) and the head touch board
 * (Documentation/dcm/wire-protocol.rst, "Face board" to "Head board").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_head.h"

/**
 * dcm_face_put() - the face board's LED block
 * @block: DCM_FACE_OUT_LEN bytes, for registers 0x10..0x3f
 * @level: DCM_FACE_N levels, in SubDeviceNumber order; above 63 is sent
 *	as 63
 */
void dcm_face_put(u8 *block, const u8 *level)
{
	int i;

	for (i = 0; i < DCM_FACE_N; i++)
		block[i] = level[i] > DCM_FACE_MAX ? DCM_FACE_MAX : level[i];
}

/**
 * dcm_face_get() - decode the face board's LED block (simulator)
 * @block: DCM_FACE_OUT_LEN bytes, registers 0x10..0x3f
 * @level: DCM_FACE_N levels; bits 7-6 of each byte are ignored
 */
void dcm_face_get(const u8 *block, u8 *level)
{
	int i;

	for (i = 0; i < DCM_FACE_N; i++)
		level[i] = block[i] & DCM_FACE_MAX;
}
EXPORT_SYMBOL_GPL(dcm_face_get);

/**
 * dcm_led4_put() - pack 4-bit LED levels two per byte (ears, head)
 * @block: @n / 2 bytes: byte i holds LED 2i in bits 3-0, LED 2i + 1 in
 *	bits 7-4
 * @level: @n levels, in SubDeviceNumber order; above 15 is sent as 15
 * @n: how many LEDs, even
 */
void dcm_led4_put(u8 *block, const u8 *level, u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i += 2) {
		u8 lo = level[i] > DCM_LED4_MAX ? DCM_LED4_MAX : level[i];
		u8 hi = level[i + 1] > DCM_LED4_MAX ? DCM_LED4_MAX : level[i + 1];

		block[i / 2] = lo | (hi << 4);
	}
}

/**
 * dcm_led4_get() - unpack 4-bit LED levels (simulator)
 * @block: @n / 2 bytes
 * @level: @n levels
 * @n: how many LEDs, even
 */
void dcm_led4_get(const u8 *block, u8 *level, u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i += 2) {
		level[i] = block[i / 2] & 0x0f;
		level[i + 1] = block[i / 2] >> 4;
	}
}
EXPORT_SYMBOL_GPL(dcm_led4_get);

/**
 * dcm_head_put_in() - the head board's cyclic read block (simulator)
 * @block: DCM_HEAD_IN_LEN bytes, for registers 0x02..0x05
 * @temp_mc: the CPU temperature, milli-degrees Celsius
 */
void dcm_head_put_in(u8 *block, s32 temp_mc)
{
	put_unaligned_le32((u32)temp_mc, block);
}
EXPORT_SYMBOL_GPL(dcm_head_put_in);

/**
 * dcm_head_get_in() - decode the head board's cyclic read block
 * @block: DCM_HEAD_IN_LEN bytes, registers 0x02..0x05
 *
 * Return: the CPU temperature, milli-degrees Celsius.
 */
s32 dcm_head_get_in(const u8 *block)
{
	return (s32)get_unaligned_le32(block);
}
