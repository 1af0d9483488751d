// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the foot boards' register map and their slot in the RS485 cyclic
 * command (Documentation/dcm/wire-protocol.rst, "Foot boards").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_foot.h"

/**
 * dcm_foot_put_in() - a foot board's cyclic read block
 * @block: DCM_FOOT_IN_LEN bytes, for registers 0x02..0x0b (also the first
 *	bytes of its RS485 reply data)
 * @in: bumpers and FSRs
 */
void dcm_foot_put_in(u8 *block, const struct dcm_foot_in *in)
{
	int i;

	block[0] = (in->bumper[0] ? 1 : 0) | (in->bumper[1] ? 2 : 0);
	block[1] = 0;
	for (i = 0; i < DCM_FOOT_FSRS; i++)
		put_unaligned_le16(in->fsr[i], block + 2 + 2 * i);
}
EXPORT_SYMBOL_GPL(dcm_foot_put_in);

/**
 * dcm_foot_get_in() - decode a foot board's cyclic read block
 * @block: DCM_FOOT_IN_LEN bytes, registers 0x02..0x0b
 * @in: bumpers and FSRs
 */
void dcm_foot_get_in(const u8 *block, struct dcm_foot_in *in)
{
	int i;

	in->bumper[0] = block[0] & 1;
	in->bumper[1] = block[0] & 2;
	for (i = 0; i < DCM_FOOT_FSRS; i++)
		in->fsr[i] = get_unaligned_le16(block + 2 + 2 * i);
}

/**
 * dcm_foot_put_slot() - a foot board's slot in the RS485 cyclic command
 * @slot: the slot: registers 0x0c..0x0e, then zeros
 * @led: red, green, blue, 0..255
 */
void dcm_foot_put_slot(struct dcm_rs485_slot *slot, const u8 *led)
{
	memset(slot->b, 0, sizeof(slot->b));
	memcpy(slot->b, led, DCM_FOOT_OUT_LEN);
}

/**
 * dcm_foot_get_slot() - read a foot board's slot (simulator)
 * @slot: the slot
 * @led: red, green, blue
 */
void dcm_foot_get_slot(const struct dcm_rs485_slot *slot, u8 *led)
{
	memcpy(led, slot->b, DCM_FOOT_OUT_LEN);
}
EXPORT_SYMBOL_GPL(dcm_foot_get_slot);
