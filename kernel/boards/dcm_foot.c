// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the foot board (FootBoard), on an RS485 bus.
 *
 * Its slot of the cyclic broadcast carries its LED's three colours; its
 * reply its two bumpers and four FSRs. From the FSR values and their
 * XPosition and YPosition keys the DCM derives, each cycle, the foot's
 * total weight and centre of pressure (dcm_fsr_derive()).
 */

#include <linux/string.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_rs485.h"
#include "model/dcm_fsr.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_rs485.h"

enum {
	FOOT_RED, FOOT_GREEN, FOOT_BLUE, FOOT_BUMPER_L, FOOT_BUMPER_R,
	FOOT_FSR, FOOT_TOTAL = FOOT_FSR + DCM_FOOT_FSRS, FOOT_COP_X, FOOT_COP_Y,
};

static const struct dcm_board_role foot_roles[] = {
	{ "Led", 1, FOOT_RED }, { "Led", 2, FOOT_GREEN }, { "Led", 3, FOOT_BLUE },
	{ "Switch", 1, FOOT_BUMPER_L }, { "Switch", 2, FOOT_BUMPER_R },
	{ "FSR", 1, FOOT_FSR }, { "FSR", 2, FOOT_FSR + 1 },
	{ "FSR", 3, FOOT_FSR + 2 }, { "FSR", 4, FOOT_FSR + 3 },
	{ "FSRTotalWeight", 1, FOOT_TOTAL },
	{ "CenterOfPressure", 1, FOOT_COP_X }, { "CenterOfPressure", 2, FOOT_COP_Y },
};

/**
 * struct foot_priv - a foot board's keys the cycle reads
 * @x: each FSR's XPosition key, or NULL
 * @y: each FSR's YPosition key, or NULL
 */
struct foot_priv {
	union dcm_value *x[DCM_FOOT_FSRS];
	union dcm_value *y[DCM_FOOT_FSRS];
};

static void foot_bind(struct dcm_runtime *rt, u32 dev)
{
	struct foot_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	int i;

	BUILD_BUG_ON(FOOT_COP_Y >= DCM_ROLES);
	for (i = 0; i < DCM_FOOT_FSRS; i++) {
		p->x[i] = dcm_board_sub_key(rt->model, role[FOOT_FSR + i], "XPosition");
		p->y[i] = dcm_board_sub_key(rt->model, role[FOOT_FSR + i], "YPosition");
	}
}

/* Its LEDs in its slot. */
static void foot_slot(const struct dcm_runtime *rt, u32 dev, struct dcm_rs485_slot *slot)
{
	const s16 *role = rt->dev[dev].role;
	u8 led[DCM_FOOT_OUT_LEN];
	int c;

	for (c = 0; c < DCM_FOOT_OUT_LEN; c++)
		led[c] = clamp_t(s64, dcm_board_act_raw(rt, role[FOOT_RED + c]), 0, 255);
	dcm_foot_put_slot(slot, led);
}

/* A value the DCM derives (no raw number): micro-units as they are. */
static void derive(struct dcm_runtime *rt, s32 sub, s64 v, u32 now)
{
	if (sub < 0)
		return;
	rt->values[sub] = v;
	rt->times[sub] = now;
}

/* Its bumpers and FSRs; then the foot's total weight and centre of pressure. */
static void foot_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
	const struct foot_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	struct dcm_fsr_foot f;
	struct dcm_foot_in in;
	int i;

	dcm_foot_get_in(r->data, &in);
	dcm_runtime_sense(rt, role[FOOT_BUMPER_L], in.bumper[0], now);
	dcm_runtime_sense(rt, role[FOOT_BUMPER_R], in.bumper[1], now);
	for (i = 0; i < DCM_FOOT_FSRS; i++) {
		s32 sub = role[FOOT_FSR + i];

		dcm_runtime_sense(rt, sub, in.fsr[i], now);
		f.weight[i] = sub < 0 ? 0 : rt->values[sub];
		f.x[i] = p->x[i] ? READ_ONCE(p->x[i]->num) : 0;
		f.y[i] = p->y[i] ? READ_ONCE(p->y[i]->num) : 0;
	}
	dcm_fsr_derive(&f);
	derive(rt, role[FOOT_TOTAL], f.total, now);
	derive(rt, role[FOOT_COP_X], f.cop_x, now);
	derive(rt, role[FOOT_COP_Y], f.cop_y, now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

static const struct dcm_board_rs485 foot_rs485 = {
	.slot = foot_slot,
	.reply = foot_reply,
};

const struct dcm_board_type dcm_foot_board = {
	.name = "FootBoard",
	.roles = foot_roles,
	.n_roles = ARRAY_SIZE(foot_roles),
	.priv_size = sizeof(struct foot_priv),
	.bind = foot_bind,
	.rs485 = &foot_rs485,
};
