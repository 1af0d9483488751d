// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the hand boards (HandBoard) of the simulated body:
 * LeftHandTouchBoard at place 5 of RS485-1, RightHandTouchBoard at place 4
 * of RS485-2.
 *
 * A hand board reports its three touch pads (back, left, right) in byte 0
 * of its reply; its slot carries nothing for it.
 *
 * Knobs: hands/lhand/touch, hands/rhand/touch.
 */

#include <linux/debugfs.h>
#include <linux/device.h>

#include "sim_boards.h"

/**
 * struct sim_hand - a hand board
 * @board: the board
 * @touch: debugfs: its pads, bit 0 back, bit 1 left, bit 2 right
 */
struct sim_hand {
	struct sim_board board;
	u32 touch;
};

static void sim_hand_slot(struct sim_board *b, const struct dcm_rs485_slot *slot, u32 dt_us,
			  struct dcm_rs485_reply *reply)
{
	struct sim_hand *h = container_of(b, struct sim_hand, board);

	reply->data[0] = READ_ONCE(h->touch) & DCM_TOUCH_MASK;
}

static const struct sim_board_ops sim_hand_ops = {
	.rs485_type = DCM_BOARD_HAND,
	.slot = sim_hand_slot,
};

/**
 * sim_hand_add() - the hand boards at power-up: not touched
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_hand_add(struct dcm_sim *sim, struct device *dev)
{
	static const char *const names[] = { "LeftHandTouchBoard", "RightHandTouchBoard" };
	static const char *const dirs[] = { "lhand", "rhand" };
	static const u8 place[] = { 5, 4 };	/* on RS485-1, RS485-2 */
	struct sim_hand *hands;
	struct dentry *d, *sub;
	int i;

	hands = devm_kcalloc(dev, 2, sizeof(*hands), GFP_KERNEL);
	if (!hands)
		return -ENOMEM;
	d = debugfs_create_dir("hands", sim->debugfs);
	for (i = 0; i < 2; i++) {
		struct sim_hand *h = &hands[i];

		h->board.ops = &sim_hand_ops;
		h->board.name = names[i];
		h->board.bus = SIM_BUS_RS485;
		h->board.index = i;
		h->board.addr = place[i];
		sim_board_add(sim, &h->board);
		sub = debugfs_create_dir(dirs[i], d);
		sim_debugfs_u32(sim, "touch", sub, &h->touch, 0x7, true);
	}
	return 0;
}
