// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the hand board (HandBoard), on an RS485 bus: its slot of the
 * cyclic broadcast is all zeros, its reply its three touch pads.
 */

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_rs485.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_rs485.h"

/* Bit n of the pads is Touch n + 1. */
enum { PAD_1, PAD_2, PAD_3 };

static const struct dcm_board_role hand_roles[] = {
	{ "Touch", 1, PAD_1 }, { "Touch", 2, PAD_2 }, { "Touch", 3, PAD_3 },
};

static void hand_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
	const s16 *role = rt->dev[dev].role;
	u8 pads = r->data[0] & DCM_TOUCH_MASK;
	int p;

	for (p = PAD_1; p <= PAD_3; p++)
		dcm_runtime_sense(rt, role[p], !!(pads & BIT(p - PAD_1)), now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

static const struct dcm_board_rs485 hand_rs485 = {
	.reply = hand_reply,
};

const struct dcm_board_type dcm_hand_board = {
	.name = "HandBoard",
	.roles = hand_roles,
	.n_roles = ARRAY_SIZE(hand_roles),
	.rs485 = &hand_rs485,
};
