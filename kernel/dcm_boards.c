// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the cycle's exchanges with the boards.
 *
 * Each board type names the subdevices it reads and drives by role (the
 * motor board's joint 1 and 2, their hardness, MRE, current, temperature;
 * the chest board's LEDs and button; ...), bound once per description from
 * their Type and SubDeviceNumber. Each cycle, an RS485 bus gets one
 * broadcast with a slot per board in Bid order (the board's place on the
 * bus) and reads the boards' replies; an I2C or SPI board gets its cyclic
 * register block written and read. A board that does not answer counts a
 * Nack and an error of level 7; a board's error byte goes to its error list.
 */

#include <linux/dcm.h>
#include <linux/string.h>

#include "dcm_boards.h"
#include "wire/dcm_mb_error.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"

/* Roles of a motor board. */
enum {
	MB_JOINT1, MB_JOINT2, MB_HARD1, MB_HARD2, MB_POS1, MB_POS2,
	MB_CUR1, MB_CUR2, MB_TEMP1, MB_TEMP2,
};

/* Roles of the chest board and of the battery. */
enum { CHEST_RED, CHEST_GREEN, CHEST_BLUE, CHEST_STATE, CHEST_BUTTON };
enum { BAT_CURRENT, BAT_CHARGE, BAT_TEMP };

struct role {
	const char *type;
	u32 number;
	u8 role;
};

static const struct role motor_roles[] = {
	{ "Joint", 1, MB_JOINT1 }, { "Joint", 2, MB_JOINT2 },
	{ "JointHardness", 1, MB_HARD1 }, { "JointHardness", 2, MB_HARD2 },
	{ "JointPosition", 1, MB_POS1 }, { "JointPosition", 2, MB_POS2 },
	{ "Current", 1, MB_CUR1 }, { "Current", 2, MB_CUR2 },
	{ "Temperature", 1, MB_TEMP1 }, { "Temperature", 2, MB_TEMP2 },
};

static const struct role chest_roles[] = {
	{ "Led", 1, CHEST_RED }, { "Led", 2, CHEST_GREEN }, { "Led", 3, CHEST_BLUE },
	{ "LedState", 1, CHEST_STATE }, { "Switch", 1, CHEST_BUTTON },
};

static const struct role battery_roles[] = {
	{ "Current", 1, BAT_CURRENT }, { "Charge", 1, BAT_CHARGE }, { "Temperature", 1, BAT_TEMP },
};

enum board_kind { BOARD_NONE, BOARD_MOTOR, BOARD_CHEST, BOARD_BATTERY };

static enum board_kind board_kind(const struct dcm_device *d)
{
	if (!strcmp(d->type->name, "MotorBoard"))
		return BOARD_MOTOR;
	if (!strcmp(d->type->name, "ChestBoard"))
		return BOARD_CHEST;
	if (!strcmp(d->type->name, "Battery"))
		return BOARD_BATTERY;
	return BOARD_NONE;
}

/**
 * dcm_board_bind() - find the subdevices a device's board type addresses
 * @rt: the runtime being created
 * @dev: the device index
 */
void dcm_board_bind(struct dcm_runtime *rt, u32 dev)
{
	const struct dcm_model *m = rt->model;
	const struct role *roles = NULL;
	u32 n_roles = 0, i, r;

	for (r = 0; r < DCM_ROLES; r++)
		rt->dev[dev].role[r] = -1;
	switch (board_kind(&m->devices[dev])) {
	case BOARD_MOTOR:
		roles = motor_roles;
		n_roles = ARRAY_SIZE(motor_roles);
		break;
	case BOARD_CHEST:
		roles = chest_roles;
		n_roles = ARRAY_SIZE(chest_roles);
		break;
	case BOARD_BATTERY:
		roles = battery_roles;
		n_roles = ARRAY_SIZE(battery_roles);
		break;
	default:
		return;
	}
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (s->device != dev)
			continue;
		for (r = 0; r < n_roles; r++)
			if (s->number == roles[r].number && !strcmp(s->type->name, roles[r].type))
				rt->dev[dev].role[roles[r].role] = i;
	}
}

/* The raw number an actuator role last took, or 0. */
static s64 act_raw(const struct dcm_runtime *rt, s32 sub)
{
	if (sub < 0 || rt->act_of[sub] < 0)
		return 0;
	return rt->act[rt->act_of[sub]].raw;
}

/* A LIVE integer key of a subdevice's type, by name (Status of a Temperature). */
static void set_live_key(struct dcm_runtime *rt, s32 sub, const char *key, s64 v)
{
	const struct dcm_subdevice *s;
	const struct dcm_key_desc *k;

	if (sub < 0)
		return;
	s = &rt->model->subdevices[sub];
	k = dcm_key_desc_find(s->type->keys, s->type->n_keys, key);
	if (k)
		WRITE_ONCE(s->keys[k - s->type->keys].num, v);
}

static void motor_slot(const struct dcm_runtime *rt, const s16 *role, struct dcm_rs485_slot *slot)
{
	struct dcm_mb_cmd c;
	int m;

	for (m = 0; m < DCM_MB_MOTORS; m++) {
		c.position[m] = dcm_mb_position(act_raw(rt, role[MB_JOINT1 + m]));
		c.hardness[m] = clamp_t(s64, act_raw(rt, role[MB_HARD1 + m]),
					-DCM_MB_HARDNESS_MAX, DCM_MB_HARDNESS_MAX);
	}
	dcm_mb_put_cmd(slot, &c);
}

static void motor_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
	const s16 *role = rt->dev[dev].role;
	struct dcm_mb_status st;
	struct dcm_mb_error e;
	int m;

	dcm_mb_get_status(r->data, &st);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		dcm_runtime_sense(rt, role[MB_POS1 + m], st.angle[m], now);
		dcm_runtime_sense(rt, role[MB_CUR1 + m], st.current_ma[m], now);
		dcm_runtime_sense(rt, role[MB_TEMP1 + m], st.temperature[m], now);
		set_live_key(rt, role[MB_TEMP1 + m], "Status", st.temp_status[m]);
	}
	dcm_mb_error_decode(st.error, &e);
	dcm_runtime_answer(rt, dev, true, DCM_ERR_BOARD, st.error ? e.level : 0, st.error, now);
}

/* A reply frame the receiver completed: whose, and what it says. */
static void rs485_reply(struct dcm_runtime *rt, struct dcm_rt_bus *b, bool *answered, u32 n,
			u32 now)
{
	struct dcm_rs485_reply reply;
	u32 dev;

	if (dcm_rs485_get_reply(&rt->rx.frame, &reply) || reply.seq != b->seq ||
	    !reply.bid || reply.bid > n || answered[reply.bid - 1])
		return;
	answered[reply.bid - 1] = true;
	dev = b->dev[reply.bid - 1];
	if (board_kind(&rt->model->devices[dev]) == BOARD_MOTOR)
		motor_reply(rt, dev, &reply, now);
	else
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/* One broadcast with a slot per board, then every board's reply. */
static void rs485_exchange(struct dcm_runtime *rt, struct dcm_rt_bus *b, struct dcm_bus *t,
			   u32 now)
{
	struct dcm_rs485_slot slots[DCM_RS485_MAX_BOARDS];
	bool answered[DCM_RS485_MAX_BOARDS] = { };
	u32 n = min_t(u32, b->n_dev, DCM_RS485_MAX_BOARDS), i;
	int len, got;
	u8 source;

	memset(slots, 0, sizeof(slots));
	for (i = 0; i < n; i++)
		if (board_kind(&rt->model->devices[b->dev[i]]) == BOARD_MOTOR)
			motor_slot(rt, rt->dev[b->dev[i]].role, &slots[i]);
	len = dcm_rs485_put_cmd(rt->txbuf, sizeof(rt->txbuf), ++b->seq, slots, n);
	got = len < 0 ? len : t->ops->xfer(t, DCM_RS485_ADDR_BROADCAST, rt->txbuf, len,
					   rt->rxbuf, n * DCM_RS485_REPLY_SLOT);

	/* A frame spoilt by noise may hide good ones: the receiver rescans. */
	dcm_rs485_rx_init(&rt->rx);
	for (i = 0; got > 0 && i < (u32)got; i++) {
		if (!dcm_rs485_rx_byte(&rt->rx, rt->rxbuf[i]))
			continue;
		do
			rs485_reply(rt, b, answered, n, now);
		while (dcm_rs485_rx_next(&rt->rx));
	}
	/* The reply window is closed. */
	while (dcm_rs485_rx_idle(&rt->rx))
		rs485_reply(rt, b, answered, n, now);
	source = rt->rx.crc_errors ? DCM_ERR_BAD_FRAME : DCM_ERR_NO_ANSWER;
	for (i = 0; i < n; i++)
		if (!answered[i])
			dcm_runtime_answer(rt, b->dev[i], false, source, 7, 0, now);
}

/* Write a register block, then read one. */
static int reg_xfer(struct dcm_runtime *rt, struct dcm_bus *t, u16 addr, u8 out_reg,
		    const u8 *out, u32 out_len, u8 in_reg, u8 *in, u32 in_len)
{
	int ret;

	if (out_len) {
		rt->txbuf[0] = out_reg;
		memcpy(rt->txbuf + 1, out, out_len);
		ret = t->ops->xfer(t, addr, rt->txbuf, out_len + 1, NULL, 0);
		if (ret < 0)
			return ret;
	}
	rt->txbuf[0] = in_reg;
	ret = t->ops->xfer(t, addr, rt->txbuf, 1, in, in_len);
	return ret < 0 ? ret : ret == in_len ? 0 : -EIO;
}

static void chest_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	const s16 *role = rt->dev[dev].role;
	u8 out[DCM_CHEST_OUT_LEN], in[DCM_CHEST_IN_LEN];
	struct dcm_chest_out o;
	struct dcm_chest_in i;
	int c, ret;

	for (c = 0; c < 3; c++)
		o.led[c] = clamp_t(s64, act_raw(rt, role[CHEST_RED + c]), 0, 255);
	o.led_state = clamp_t(s64, act_raw(rt, role[CHEST_STATE]), 0, 255);
	dcm_chest_put_out(out, &o);
	ret = reg_xfer(rt, t, rt->model->devices[dev].address, DCM_CHEST_OUT_REG, out,
		       sizeof(out), DCM_CHEST_IN_REG, in, sizeof(in));
	if (ret) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
		return;
	}
	dcm_chest_get_in(in, &i);
	dcm_runtime_sense(rt, role[CHEST_BUTTON], i.button, now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/*
 * The battery is polled one word register per cycle (dcm_bat_poll_reg());
 * its subdevices change when their register comes round.
 */
static void battery_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now,
			     u32 cycle)
{
	const s16 *role = rt->dev[dev].role;
	u8 reg = dcm_bat_poll_reg(cycle), word[2];
	struct dcm_battery *b = &rt->battery;
	int ret;

	rt->txbuf[0] = reg;
	ret = t->ops->xfer(t, rt->model->devices[dev].address, rt->txbuf, 1, word, 2);
	if (ret != 2 || dcm_bat_get_word(b, reg, dcm_get_le16(word))) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
		return;
	}
	dcm_runtime_sense(rt, role[BAT_CURRENT], b->current_ma, now);
	dcm_runtime_sense(rt, role[BAT_CHARGE], b->charge, now);
	dcm_runtime_sense(rt, role[BAT_TEMP], b->temperature, now);
	set_live_key(rt, role[BAT_CHARGE], "Status", dcm_bat_status(b));
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/**
 * dcm_bus_exchange() - one cycle's exchange on a bus
 * @rt: the runtime
 * @bus: the bus's index in @rt->buses
 * @transport: the transport registered for it
 * @now: the cycle's DCM time
 *
 * Context: the cycle thread; sleeps for the bus only.
 */
void dcm_bus_exchange(struct dcm_runtime *rt, u32 bus, struct dcm_bus *transport, u32 now)
{
	struct dcm_rt_bus *b = &rt->buses[bus];
	u32 i;

	if (transport->kind == DCM_BUS_RS485) {
		rs485_exchange(rt, b, transport, now);
		return;
	}
	for (i = 0; i < b->n_dev; i++) {
		switch (board_kind(&rt->model->devices[b->dev[i]])) {
		case BOARD_CHEST:
			chest_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_BATTERY:
			battery_exchange(rt, b->dev[i], transport, now, b->seq++);
			break;
		default:
			break;
		}
	}
}
