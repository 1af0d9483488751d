// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the cycle's exchanges with the boards.
 *
 * Each board type names the subdevices it reads and drives by role (the
 * motor board's joint 1 and 2, their hardness, MRE, current, temperature;
 * the chest board's LEDs and button; ...), bound once per description from
 * their Type and SubDeviceNumber. Boards with more subdevices than roles
 * (face, ears, head touch LEDs, inertial board) find theirs each cycle in
 * one pass from the first to the last subdevice index of the board (bound
 * as two roles). Each cycle, an RS485 bus gets one broadcast with a slot per
 * board in Bid order (the board's place on the bus) and reads the boards'
 * replies; an I2C or SPI board gets its cyclic register block written and
 * read. A board that does not answer counts a Nack and an error of level 7;
 * a board's error byte goes to its error list. The foot's total weight and
 * centre of pressure are derived here from its FSRs, each cycle.
 */

#include <linux/dcm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "boards/dcm_boards.h"
#include "core/dcm_internal.h"
#include "model/dcm_safety.h"
#include "model/dcm_fsr.h"
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

/* Roles of the ultrasound, head, foot, hand and head touch boards. */
enum { US_ACT, US_MONO, US_LEFT, US_RIGHT };

enum { HEAD_TEMP };

enum {
	FOOT_RED, FOOT_GREEN, FOOT_BLUE, FOOT_BUMPER_L, FOOT_BUMPER_R,
	FOOT_FSR, FOOT_TOTAL = FOOT_FSR + DCM_FOOT_FSRS, FOOT_COP_X, FOOT_COP_Y,
};

enum { PAD_1, PAD_2, PAD_3 };

/* Boards whose subdevices are found by a pass: the span of their indexes. */
#define SCAN_FIRST	(DCM_ROLES - 2)
#define SCAN_LAST	(DCM_ROLES - 1)

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

static const struct role us_roles[] = {
	{ "US", 1, US_ACT }, { "USSensor", 1, US_MONO },
	{ "USEchoSensor", 1, US_LEFT }, { "USEchoSensor", 2, US_RIGHT },
};

static const struct role head_roles[] = {
	{ "Temperature", 1, HEAD_TEMP },
};

static const struct role foot_roles[] = {
	{ "Led", 1, FOOT_RED }, { "Led", 2, FOOT_GREEN }, { "Led", 3, FOOT_BLUE },
	{ "Switch", 1, FOOT_BUMPER_L }, { "Switch", 2, FOOT_BUMPER_R },
	{ "FSR", 1, FOOT_FSR }, { "FSR", 2, FOOT_FSR + 1 },
	{ "FSR", 3, FOOT_FSR + 2 }, { "FSR", 4, FOOT_FSR + 3 },
	{ "FSRTotalWeight", 1, FOOT_TOTAL },
	{ "CenterOfPressure", 1, FOOT_COP_X }, { "CenterOfPressure", 2, FOOT_COP_Y },
};

/* Hand boards and the head touch board: bit n of the pads is Touch n + 1. */
static const struct role touch_roles[] = {
	{ "Touch", 1, PAD_1 }, { "Touch", 2, PAD_2 }, { "Touch", 3, PAD_3 },
};

enum board_kind {
	BOARD_NONE, BOARD_MOTOR, BOARD_CHEST, BOARD_BATTERY, BOARD_US, BOARD_IMU, BOARD_HEAD,
	BOARD_FACE, BOARD_EAR, BOARD_TOUCH, BOARD_FOOT, BOARD_HAND,
};

static const char *const board_types[] = {
	[BOARD_MOTOR] = "MotorBoard",
	[BOARD_CHEST] = "ChestBoard",
	[BOARD_BATTERY] = "Battery",
	[BOARD_US] = "USBoard",
	[BOARD_IMU] = "InertialBoard",
	[BOARD_HEAD] = "HeadBoard",
	[BOARD_FACE] = "FaceBoard",
	[BOARD_EAR] = "EarBoard",
	[BOARD_TOUCH] = "TouchBoard",
	[BOARD_FOOT] = "FootBoard",
	[BOARD_HAND] = "HandBoard",
};

static enum board_kind board_kind(const struct dcm_device *d)
{
	u32 k;

	for (k = BOARD_MOTOR; k < ARRAY_SIZE(board_types); k++)
		if (!strcmp(d->type->name, board_types[k]))
			return k;
	return BOARD_NONE;
}

/* Whether a board's subdevices are found by a pass over its span. */
static bool board_scans(enum board_kind k)
{
	return k == BOARD_IMU || k == BOARD_FACE || k == BOARD_EAR || k == BOARD_TOUCH;
}

/**
 * dcm_board_bind() - find the subdevices a device's board type addresses
 * @rt: the runtime being created
 * @dev: the device index
 */
void dcm_board_bind(struct dcm_runtime *rt, u32 dev)
{
	const struct dcm_model *m = rt->model;
	enum board_kind kind = board_kind(&m->devices[dev]);
	s16 *role = rt->dev[dev].role;

	rt->dev[dev].kind = kind;
	const struct role *roles = NULL;
	u32 n_roles = 0, i, r;

	BUILD_BUG_ON(FOOT_COP_Y >= DCM_ROLES || PAD_3 >= SCAN_FIRST);
	for (r = 0; r < DCM_ROLES; r++)
		role[r] = -1;
	switch (kind) {
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
	case BOARD_US:
		roles = us_roles;
		n_roles = ARRAY_SIZE(us_roles);
		break;
	case BOARD_HEAD:
		roles = head_roles;
		n_roles = ARRAY_SIZE(head_roles);
		break;
	case BOARD_FOOT:
		roles = foot_roles;
		n_roles = ARRAY_SIZE(foot_roles);
		break;
	case BOARD_HAND:
	case BOARD_TOUCH:
		roles = touch_roles;
		n_roles = ARRAY_SIZE(touch_roles);
		break;
	case BOARD_IMU:
	case BOARD_FACE:
	case BOARD_EAR:
		break;
	default:
		return;
	}
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (s->device != dev)
			continue;
		if (board_scans(kind)) {
			if (role[SCAN_FIRST] < 0)
				role[SCAN_FIRST] = i;
			role[SCAN_LAST] = i;
		}
		for (r = 0; r < n_roles; r++)
			if (s->number == roles[r].number && !strcmp(s->type->name, roles[r].type))
				role[roles[r].role] = i;
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

/* A LIVE integer key of a device's type, by name (ProgVersion of the USBoard). */
static void set_dev_key(struct dcm_runtime *rt, u32 dev, const char *key, s64 v)
{
	const struct dcm_device *d = &rt->model->devices[dev];
	const struct dcm_key_desc *k;

	k = dcm_key_desc_find(d->type->keys, d->type->n_keys, key);
	if (k)
		WRITE_ONCE(d->keys[k - d->type->keys].num, v);
}

/* A value the DCM derives (no raw number): micro-units as they are. */
static void derive(struct dcm_runtime *rt, s32 sub, s64 v, u32 now)
{
	if (sub < 0)
		return;
	rt->values[sub] = v;
	rt->times[sub] = now;
}

/* A static number key of a subdevice (an FSR's XPosition), or 0. */
static s64 sub_key(const struct dcm_runtime *rt, s32 sub, const char *key)
{
	const struct dcm_subdevice *s;
	const struct dcm_key_desc *k;

	if (sub < 0)
		return 0;
	s = &rt->model->subdevices[sub];
	k = dcm_key_desc_find(s->type->keys, s->type->n_keys, key);
	return k ? READ_ONCE(s->keys[k - s->type->keys].num) : 0;
}

/* Touch pads, bit n for Touch n + 1: pressed reads 1. */
static void sense_pads(struct dcm_runtime *rt, const s16 *role, u8 pads, u32 now)
{
	int p;

	for (p = PAD_1; p <= PAD_3; p++)
		dcm_runtime_sense(rt, role[p], !!(pads & BIT(p - PAD_1)), now);
}

/*
 * The raw levels of a board's LEDs, by SubDeviceNumber (1..@n), held within
 * 0..@max; an LED the description lacks stays off.
 */
static void led_levels(const struct dcm_runtime *rt, u32 dev, u8 *level, u32 n, u8 max)
{
	const struct dcm_model *m = rt->model;
	const s16 *role = rt->dev[dev].role;
	s32 i;

	memset(level, 0, n);
	for (i = role[SCAN_FIRST]; i >= 0 && i <= role[SCAN_LAST]; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (s->device == dev && s->number >= 1 && s->number <= n &&
		    !strcmp(s->type->name, "Led"))
			level[s->number - 1] = clamp_t(s64, act_raw(rt, i), 0, max);
	}
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

/* What a temperature status does to the joint's stiffness (seed 001). */
static const char *const temp_status_text[] = {
	"stiffness free", "stiffness reduced", "stiffness reduced over 30 %", "stiffness cut",
};

static void motor_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
	const s16 *role = rt->dev[dev].role;
	struct dcm_mb_status st;
	struct dcm_mb_error e;
	int m;

	dcm_mb_get_status(r->data, &st);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		WRITE_ONCE(rt->dev[dev].mre[m], st.angle[m]);
		dcm_runtime_sense(rt, role[MB_POS1 + m], st.angle[m], now);
		dcm_runtime_sense(rt, role[MB_CUR1 + m], st.current_ma[m], now);
		dcm_runtime_sense(rt, role[MB_TEMP1 + m], st.temperature[m], now);
		set_live_key(rt, role[MB_TEMP1 + m], "Status", st.temp_status[m]);
		if (st.temp_status[m] != rt->dev[dev].temp_status[m] && role[MB_TEMP1 + m] >= 0) {
			dcm_event(rt->ctrl, DCM_EV_TEMPERATURE,
				  rt->model->subdevices[role[MB_TEMP1 + m]].name,
				  rt->dev[dev].temp_status[m], st.temp_status[m],
				  "temperature status %u: %s", st.temp_status[m],
				  temp_status_text[min_t(u8, st.temp_status[m], 3)]);
			rt->dev[dev].temp_status[m] = st.temp_status[m];
		}
	}
	dcm_mb_error_decode(st.error, &e);
	dcm_runtime_answer(rt, dev, true, DCM_ERR_BOARD, st.error ? e.level : 0, st.error, now);
}

/* A foot board's LEDs in its slot. */
static void foot_slot(const struct dcm_runtime *rt, const s16 *role, struct dcm_rs485_slot *slot)
{
	u8 led[DCM_FOOT_OUT_LEN];
	int c;

	for (c = 0; c < DCM_FOOT_OUT_LEN; c++)
		led[c] = clamp_t(s64, act_raw(rt, role[FOOT_RED + c]), 0, 255);
	dcm_foot_put_slot(slot, led);
}

/*
 * A foot board's bumpers and FSRs; then, from the FSR values and their
 * XPosition and YPosition keys, the foot's total weight and centre of
 * pressure (dcm_fsr_derive()).
 */
static void foot_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
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
		f.x[i] = sub_key(rt, sub, "XPosition");
		f.y[i] = sub_key(rt, sub, "YPosition");
	}
	dcm_fsr_derive(&f);
	derive(rt, role[FOOT_TOTAL], f.total, now);
	derive(rt, role[FOOT_COP_X], f.cop_x, now);
	derive(rt, role[FOOT_COP_Y], f.cop_y, now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/* A hand board's touch pads. */
static void hand_reply(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now)
{
	sense_pads(rt, rt->dev[dev].role, r->data[0] & DCM_TOUCH_MASK, now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
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
	switch (rt->dev[dev].kind) {
	case BOARD_MOTOR:
		motor_reply(rt, dev, &reply, now);
		break;
	case BOARD_FOOT:
		foot_reply(rt, dev, &reply, now);
		break;
	case BOARD_HAND:
		hand_reply(rt, dev, &reply, now);
		break;
	default:
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
		break;
	}
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

	/* A hand board's slot is all zeros. */
	memset(slots, 0, sizeof(slots));
	for (i = 0; i < n; i++) {
		const s16 *role = rt->dev[b->dev[i]].role;

		switch (rt->dev[b->dev[i]].kind) {
		case BOARD_MOTOR:
			motor_slot(rt, role, &slots[i]);
			break;
		case BOARD_FOOT:
			foot_slot(rt, role, &slots[i]);
			break;
		default:
			break;
		}
	}
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

/* Write a register block. */
static int reg_write(struct dcm_runtime *rt, struct dcm_bus *t, u16 addr, u8 reg, const u8 *out,
		     u32 len)
{
	int ret;

	rt->txbuf[0] = reg;
	memcpy(rt->txbuf + 1, out, len);
	ret = t->ops->xfer(t, addr, rt->txbuf, len + 1, NULL, 0);
	return ret < 0 ? ret : 0;
}

/* The board's answer: Ack, or a Nack and "no answer" for an error. */
static void reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now)
{
	if (ret)
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
	else
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
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
	u16 status;
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
	status = dcm_bat_status(b);
	set_live_key(rt, role[BAT_CHARGE], "Status", status);
	/* The first reading of a description sets the bits; changes are events. */
	if (rt->dev[dev].ack && status != rt->dev[dev].status)
		dcm_event(rt->ctrl, DCM_EV_BATTERY, rt->model->devices[dev].name,
			  status ^ rt->dev[dev].status, status, "battery status bits 0x%04x",
			  status);
	rt->dev[dev].status = status;
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/* The ultrasound board: FW_VERSION and MODE, then the cyclic block. */
#define US_READ_REG	DCM_REG_FW_VERSION
#define US_READ_LEN	(DCM_US_IN_REG - US_READ_REG + DCM_US_IN_LEN)

static const char *const echo_keys[DCM_US_ECHOES - 1] = {
	"Value1", "Value2", "Value3", "Value4", "Value5", "Value6", "Value7", "Value8", "Value9",
};

/* A receiver's ten echoes: Value, then the LIVE keys Value1..Value9. */
static void sense_echoes(struct dcm_runtime *rt, s32 sub, const u8 *cm, u32 now)
{
	int i;

	if (sub < 0)
		return;
	dcm_runtime_sense(rt, sub, cm[0], now);
	for (i = 1; i < DCM_US_ECHOES; i++)
		set_live_key(rt, sub, echo_keys[i - 1], dcm_from_raw(&rt->conv[sub], cm[i]));
}

/*
 * The US actuator is a step one: its MODE is written only in the cycle a
 * command comes due, which starts a capture on the board. Every cycle the
 * results are read; they go to US/Sensor (single capture) or to both
 * receivers' echoes (dual capture), as the board says which mode its
 * results come from, once the board has stored a result (COUNTER not 0).
 */
static void us_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	const s16 *role = rt->dev[dev].role;
	u16 addr = rt->model->devices[dev].address;
	s32 a = role[US_ACT] < 0 ? -1 : rt->act_of[role[US_ACT]];
	u8 mode, in[US_READ_LEN];
	struct dcm_us u;
	int ret;

	mode = a < 0 ? 0 : clamp_t(s64, rt->act[a].raw, 0, 255);
	ret = reg_xfer(rt, t, addr, DCM_US_MODE, &mode, a >= 0 && rt->act[a].fired ? 1 : 0,
		       US_READ_REG, in, sizeof(in));
	if (ret) {
		reg_answer(rt, dev, ret, now);
		return;
	}
	set_dev_key(rt, dev, "ProgVersion", in[0]);
	dcm_us_get(in + DCM_US_IN_REG - US_READ_REG, &u);
	if (u.counter && (u.result_mode & DCM_US_M_DUAL)) {
		sense_echoes(rt, role[US_LEFT], u.left, now);
		sense_echoes(rt, role[US_RIGHT], u.right, now);
	} else if (u.counter) {
		dcm_runtime_sense(rt, role[US_MONO], u.mono, now);
	}
	reg_answer(rt, dev, 0, now);
}

/* The head board: the CPU temperature, s32 milli-degrees Celsius. */
#define HEAD_TEMP_REG	0x02
#define HEAD_TEMP_LEN	4

static void head_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	u8 in[HEAD_TEMP_LEN];
	int ret;

	ret = reg_xfer(rt, t, rt->model->devices[dev].address, 0, NULL, 0, HEAD_TEMP_REG, in,
		       sizeof(in));
	if (!ret)
		dcm_runtime_sense(rt, rt->dev[dev].role[HEAD_TEMP], (s32)dcm_get_le32(in), now);
	reg_answer(rt, dev, ret, now);
}

/*
 * LED boards of the head: the face (6 bits, one per byte), the ears and the
 * head touch board (4 bits, two per byte), whose touch pads are read too.
 * The LED blocks are written every cycle.
 */
static void face_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	u8 level[DCM_FACE_N], out[DCM_FACE_OUT_LEN];

	led_levels(rt, dev, level, DCM_FACE_N, DCM_FACE_MAX);
	dcm_face_put(out, level);
	reg_answer(rt, dev, reg_write(rt, t, rt->model->devices[dev].address, DCM_FACE_LEDS, out,
				      sizeof(out)), now);
}

static void ear_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	u8 level[DCM_EAR_N], out[DCM_EAR_OUT_LEN];

	led_levels(rt, dev, level, DCM_EAR_N, DCM_LED4_MAX);
	dcm_led4_put(out, level, DCM_EAR_N);
	reg_answer(rt, dev, reg_write(rt, t, rt->model->devices[dev].address, DCM_EAR_LEDS, out,
				      sizeof(out)), now);
}

static void touch_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	u8 level[DCM_TOUCH_N], out[DCM_TOUCH_OUT_LEN], pads;
	int ret;

	led_levels(rt, dev, level, DCM_TOUCH_N, DCM_LED4_MAX);
	dcm_led4_put(out, level, DCM_TOUCH_N);
	ret = reg_xfer(rt, t, rt->model->devices[dev].address, DCM_TOUCH_LEDS, out, sizeof(out),
		       DCM_TOUCH_PADS, &pads, DCM_TOUCH_IN_LEN);
	if (!ret)
		sense_pads(rt, rt->dev[dev].role, pads & DCM_TOUCH_MASK, now);
	reg_answer(rt, dev, ret, now);
}

/*
 * The inertial board over SPI: one full-duplex read of its cyclic block,
 * checked by its CRC-8. Accelerometer and Gyrometer 1-3 are the new
 * registers, 4-6 the old ones (AccX..AccZ; GyrX, GyrY, GyrRef); Angle 1-3
 * change only while the board says its angle filter has converged.
 */
static void imu_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	const struct dcm_model *m = rt->model;
	const s16 *role = rt->dev[dev].role;
	u8 block[DCM_IMU_IN_LEN];
	struct dcm_imu imu;
	int len, ret;
	s32 i;

	len = dcm_spi_put_read(rt->txbuf, sizeof(rt->txbuf), DCM_IMU_IN_REG, DCM_IMU_IN_LEN);
	ret = t->ops->xfer(t, m->devices[dev].address, rt->txbuf, len, rt->rxbuf, len);
	if (ret != len) {
		reg_answer(rt, dev, -EIO, now);
		return;
	}
	if (dcm_spi_get_read(rt->rxbuf, len, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, block)) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_BAD_FRAME, 7, 0, now);
		return;
	}
	dcm_imu_get(block, &imu);
	for (i = role[SCAN_FIRST]; i >= 0 && i <= role[SCAN_LAST]; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];
		u32 n = s->number - 1;

		if (s->device != dev || n >= 6)
			continue;
		if (!strcmp(s->type->name, "Accelerometer"))
			dcm_runtime_sense(rt, i, n < 3 ? imu.acc[n] : imu.acc_raw[n - 3], now);
		else if (!strcmp(s->type->name, "Gyrometer"))
			dcm_runtime_sense(rt, i, n < 3 ? imu.gyr[n] : imu.gyr_raw[n - 3], now);
		else if (!strcmp(s->type->name, "Angle") && n < 3 &&
			 (imu.status & DCM_IMU_ST_ANGLE_VALID))
			dcm_runtime_sense(rt, i, imu.angle[n], now);
	}
	reg_answer(rt, dev, 0, now);
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
		switch (rt->dev[b->dev[i]].kind) {
		case BOARD_CHEST:
			chest_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_BATTERY:
			battery_exchange(rt, b->dev[i], transport, now, b->seq++);
			break;
		case BOARD_US:
			us_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_IMU:
			imu_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_HEAD:
			head_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_FACE:
			face_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_EAR:
			ear_exchange(rt, b->dev[i], transport, now);
			break;
		case BOARD_TOUCH:
			touch_exchange(rt, b->dev[i], transport, now);
			break;
		default:
			break;
		}
	}
}

/**
 * dcm_boards_battery_over() - whether the battery current is past its limit
 * @rt: the runtime
 *
 * Return: true when a battery's Current sensor reads below its Min or above
 * its Max (seed 000: over the limit, the hardness of all joints goes down).
 */
bool dcm_boards_battery_over(const struct dcm_runtime *rt)
{
	u32 d;

	for (d = 0; d < rt->model->n_devices; d++) {
		s32 sub = rt->dev[d].role[BAT_CURRENT];

		if (rt->dev[d].kind != BOARD_BATTERY || sub < 0)
			continue;
		if (rt->values[sub] < rt->conv[sub].min || rt->values[sub] > rt->conv[sub].max)
			return true;
	}
	return false;
}

/* The joint a motor of a motor board moves, for events: its position actuator. */
static const char *motor_joint(const struct dcm_runtime *rt, u32 dev, int m)
{
	s32 sub = rt->dev[dev].role[MB_JOINT1 + m];

	return sub < 0 ? rt->model->devices[dev].name : rt->model->subdevices[sub].name;
}

/* Events of the per-joint rules that start or stop acting on a board. */
static void safety_edges(struct dcm_runtime *rt, u32 dev, u8 blocked, u8 braked)
{
	struct dcm_rt_device *rd = &rt->dev[dev];
	u8 changed;
	int m;

	changed = rd->blocked ^ blocked;
	for (m = 0; m < DCM_MB_MOTORS; m++)
		if (changed & BIT(m))
			dcm_event(rt->ctrl, DCM_EV_SAFETY, motor_joint(rt, dev, m),
				  DCM_SAFETY_CALIBRATION, !!(blocked & BIT(m)),
				  blocked & BIT(m) ? "no calibration: hardness held at 0" :
				  "hardness no longer held by calibration");
	changed = rd->braked ^ braked;
	for (m = 0; m < DCM_MB_MOTORS; m++)
		if (changed & BIT(m))
			dcm_event(rt->ctrl, DCM_EV_SAFETY, motor_joint(rt, dev, m),
				  DCM_SAFETY_BRAKE, !!(braked & BIT(m)),
				  braked & BIT(m) ?
				  "braked, not freed: the board's other motor is on" :
				  "no longer braked");
	rd->blocked = blocked;
	rd->braked = braked;
}

/**
 * dcm_boards_safety() - apply the stiffness rules to every joint
 * @rt: the runtime, its actuators computed for this cycle
 * @scale_ppm: the controller's factor (dcm_safety_scale())
 * @now: the cycle's DCM time
 *
 * Each joint's hardness is sent as the rules allow (dcm_safety_hardness():
 * calibration, temperature status, @scale_ppm) and its Value reads what
 * was sent. A joint whose hardness sent is 0 or below has its position
 * actuator follow its position sensor, so that stiffness coming back does
 * not jump to an old command; a joint whose calibration changes is held so
 * (struct dcm_rt_device.hold) until its sensor reads in the new zero's
 * frame. Context: the cycle thread.
 */
void dcm_boards_safety(struct dcm_runtime *rt, u32 scale_ppm, u32 now)
{
	u32 d;
	int m;

	raw_spin_lock(&rt->cmd_lock);
	for (d = 0; d < rt->model->n_devices; d++) {
		struct dcm_rt_device *rd = &rt->dev[d];
		const s16 *role = rd->role;
		struct dcm_actuator *h[DCM_MB_MOTORS] = { NULL };
		s64 eff[DCM_MB_MOTORS] = { 0 };
		u8 blocked = 0, braked = 0;

		if (rd->kind != BOARD_MOTOR)
			continue;
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			s32 hs = role[MB_HARD1 + m], ps = role[MB_POS1 + m];
			/* A joint being calibrated is held as an uncalibrated one. */
			bool calibrated = sub_key(rt, ps, "jointZeroPosition") &&
					  !(READ_ONCE(rd->hold) & BIT(m));

			if (hs < 0 || rt->act_of[hs] < 0)
				continue;
			h[m] = &rt->act[rt->act_of[hs]];
			eff[m] = dcm_safety_hardness(h[m]->q.value, calibrated,
						     sub_key(rt, role[MB_TEMP1 + m], "Status"),
						     scale_ppm);
			if (!calibrated && h[m]->q.value > 0)
				blocked |= BIT(m);
		}
		/* A motor is freed only with both of its board's: else braked. */
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			if (h[m] && eff[m] < 0 && h[!m] && eff[!m] >= 0) {
				eff[m] = 0;
				braked |= BIT(m);
			}
		}
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			s32 hs = role[MB_HARD1 + m], js = role[MB_JOINT1 + m];
			s32 ps = role[MB_POS1 + m];
			struct dcm_actuator *j;

			if (!h[m])
				continue;
			h[m]->raw = dcm_to_raw(&h[m]->conv, eff[m]);
			rt->values[hs] = dcm_from_raw(&h[m]->conv, h[m]->raw);
			rt->times[hs] = now;
			if (eff[m] > 0 || js < 0 || ps < 0 || rt->act_of[js] < 0)
				continue;
			j = &rt->act[rt->act_of[js]];
			j->q.value = rt->values[ps];
			j->q.time = now;
			j->raw = dcm_to_raw(&j->conv, rt->values[ps]);
			rt->values[js] = dcm_from_raw(&j->conv, j->raw);
			rt->times[js] = now;
		}
		safety_edges(rt, d, blocked, braked);
	}
	raw_spin_unlock(&rt->cmd_lock);
}

/*
 * The buffers of the requests outside the cycle (chaining, configuration):
 * the cycle's own scratch in the runtime is for the cycle alone.
 */
struct xfer_buf {
	u8 tx[DCM_RS485_MAX_FRAME];
	u8 rx[DCM_RS485_MAX_FRAME];
};

/* One addressed request of chaining and its answer, parsed; -ETIMEDOUT if none. */
static int chain_request(struct xfer_buf *xb, struct dcm_bus *t, int len,
			 struct dcm_rs485_frame *f)
{
	int got;

	if (len < 0)
		return len;
	got = t->ops->xfer(t, DCM_RS485_ADDR_UNASSIGNED, xb->tx, len, xb->rx,
			   DCM_RS485_MAX_FRAME);
	if (got <= 0)
		return got ? got : -ETIMEDOUT;
	return dcm_rs485_parse_frame(xb->rx, got, f) < 0 ? -EBADMSG : 0;
}

/**
 * dcm_boards_chain_result() - write the chest board's ChainResult
 * @rt: the runtime
 *
 * Per RS485 bus chained, the boards chained of those the description has,
 * "RS485-1 5/5; RS485-2 4/4"; each motor board's own keys say its Bid and
 * BoardId. Context: process.
 */
void dcm_boards_chain_result(struct dcm_runtime *rt)
{
	struct dcm_controller *ctrl = rt->ctrl;
	const struct dcm_key_desc *k;
	char *text, *old;
	u32 d, b;
	int len = 0;

	for (d = 0; d < rt->model->n_devices; d++)
		if (rt->dev[d].kind == BOARD_CHEST)
			break;
	if (d == rt->model->n_devices)
		return;
	k = dcm_key_desc_find(rt->model->devices[d].type->keys,
			      rt->model->devices[d].type->n_keys, "ChainResult");
	text = kzalloc(DCM_MAX_STRING_LEN, GFP_KERNEL);
	if (!k || !text) {
		kfree(text);
		return;
	}
	for (b = 0; b < rt->n_buses; b++) {
		struct dcm_rt_bus *bus = &rt->buses[b];

		/* Pairs with the release at the end of dcm_bus_chain_work(). */
		if (!smp_load_acquire(&bus->chained))
			continue;
		len += scnprintf(text + len, DCM_MAX_STRING_LEN - len, "%s%s %u/%u",
				 len ? "; " : "", bus->name, bus->n_chain,
				 min_t(u32, bus->n_dev, DCM_RS485_MAX_BOARDS));
	}
	mutex_lock(&ctrl->keys_lock);
	old = rt->model->devices[d].keys[k - rt->model->devices[d].type->keys].str;
	rt->model->devices[d].keys[k - rt->model->devices[d].type->keys].str = text;
	mutex_unlock(&ctrl->keys_lock);
	kfree(old);
}

/* A string typed key of a subdevice (SensorType), or ""; under keys_lock. */
static const char *typed_str(const struct dcm_runtime *rt, s32 sub, const char *key)
{
	const struct dcm_subdevice *s;
	const struct dcm_key_desc *k;

	lockdep_assert_held(&rt->ctrl->keys_lock);
	if (sub < 0)
		return "";
	s = &rt->model->subdevices[sub];
	k = dcm_key_desc_find(s->type->keys, s->type->n_keys, key);
	return k && s->keys[k - s->type->keys].str ? s->keys[k - s->type->keys].str : "";
}

/*
 * A motor board's configuration structure, from its joints' keys (seed 000:
 * read at start-up by the DCM and sent during the configuration process).
 * Context: process; a string key is read under the controller's keys_lock.
 */
static void motor_config(struct dcm_runtime *rt, u32 dev, u8 bid, struct dcm_mb_config *cfg)
{
	const s16 *role = rt->dev[dev].role;
	bool mre_motor;
	int m;

	memset(cfg, 0, sizeof(*cfg));
	cfg->struct_version = DCM_MB_STRUCT_VERSION;
	cfg->bid = bid;
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		struct dcm_mb_motor_config *mc = &cfg->motor[m];
		s32 js = role[MB_JOINT1 + m], ps = role[MB_POS1 + m], cs = role[MB_CUR1 + m];

		if (js < 0)
			continue;
		/* SensorType is a configuration key: sysfs may replace it meanwhile. */
		mutex_lock(&rt->ctrl->keys_lock);
		mre_motor = !strcmp(typed_str(rt, ps, "SensorType"), "MRE_JointMotor");
		mutex_unlock(&rt->ctrl->keys_lock);
		mc->motor_number = clamp_t(s64, sub_key(rt, js, "MotorNumber"), 0, 2);
		mc->invert = sub_key(rt, js, "InvertControlDirection");
		mc->kp = clamp_t(s64, sub_key(rt, js, "Kp"), S16_MIN, S16_MAX);
		mc->ki = clamp_t(s64, sub_key(rt, js, "Ki"), S16_MIN, S16_MAX);
		mc->kd = clamp_t(s64, sub_key(rt, js, "Kd"), S16_MIN, S16_MAX);
		if (mre_motor)
			mc->sensor_type = DCM_MB_SENSOR_MRE_JOINT_MOTOR;
		else
			mc->sensor_type = ps >= 0 ? DCM_MB_SENSOR_MRE_JOINT : DCM_MB_SENSOR_NONE;
		mc->chain_mre_joint = clamp_t(s64, sub_key(rt, ps, "positionChainMREJoint"),
					      0, 4);
		mc->chain_mre_motor = clamp_t(s64, sub_key(rt, ps, "positionChainMREMotor"),
					      0, 4);
		if (dcm_q16_from_micro(sub_key(rt, ps, "GearRatio"), &mc->gear_ratio))
			mc->gear_ratio = 0;
		mc->zero = clamp_t(s64, sub_key(rt, ps, "jointZeroPosition"), 0, 4095);
		mc->current_max = cs < 0 ? 0 : clamp_t(s64, div_s64(rt->conv[cs].max, 1000), 0,
						       U16_MAX);
	}
}

/*
 * Send a motor board its configuration; an error of level 6 if refused,
 * -EIO then. The zeros it took are kept: its replies are relative to them.
 */
static int motor_configure(struct dcm_runtime *rt, struct xfer_buf *xb, struct dcm_bus *t,
			   u32 dev, u8 bid)
{
	struct dcm_mb_config cfg;
	struct dcm_rs485_frame f;
	u8 status = DCM_MB_CONFIG_BAD_VALUE;
	int len, got, m;

	motor_config(rt, dev, bid, &cfg);
	len = dcm_rs485_put_config(xb->tx, sizeof(xb->tx), &cfg);
	got = len < 0 ? len : t->ops->xfer(t, bid, xb->tx, len, xb->rx, DCM_RS485_MAX_FRAME);
	if (got > 0 && dcm_rs485_parse_frame(xb->rx, got, &f) >= 0 &&
	    !dcm_rs485_get_config_ack(&f, &status) && status == DCM_MB_CONFIG_OK) {
		for (m = 0; m < DCM_MB_MOTORS; m++)
			WRITE_ONCE(rt->dev[dev].cfg_zero[m], cfg.motor[m].zero);
		/* The zeros first: pairs with the acquire of calibration's read_raw(). */
		smp_store_release(&rt->dev[dev].configured, true);
		return 0;
	}
	WRITE_ONCE(rt->dev[dev].configured, false);
	dcm_runtime_answer(rt, dev, false, DCM_ERR_CONFIG, 6, status, dcm_time_ms(rt->ctrl));
	return -EIO;
}

/**
 * dcm_board_configure() - send a motor board its configuration again
 * @rt: the runtime
 * @dev: the device index, a motor board
 *
 * The structure is built from the joints' keys as they are now (a new
 * jointZeroPosition, for one) and sent to the board's Bid, which chaining
 * gave it. Context: process; takes the bus for the one request.
 *
 * Return: 0; -ENODEV when the board was not chained or its bus has no
 * transport; -EIO when it did not take it; -ENOMEM.
 */
int dcm_board_configure(struct dcm_runtime *rt, u32 dev)
{
	struct dcm_rt_bus *b = &rt->buses[rt->dev[dev].bus];
	u32 pos = rt->dev[dev].pos;
	struct xfer_buf *xb;
	struct dcm_bus *t;
	int idx, ret = -ENODEV;

	if (rt->dev[dev].kind != BOARD_MOTOR)
		return -EINVAL;
	xb = kmalloc(sizeof(*xb), GFP_KERNEL);
	if (!xb)
		return -ENOMEM;
	idx = srcu_read_lock(&rt->ctrl->srcu);
	t = dcm_bus_find(rt->ctrl, b->name);
	/* Pairs with the release at the end of dcm_bus_chain_work(). */
	if (t && t->kind == DCM_BUS_RS485 && smp_load_acquire(&b->chained) &&
	    pos < b->n_chain) {
		mutex_lock(&t->xfer_lock);
		ret = motor_configure(rt, xb, t, dev, b->chain[pos].bid);
		mutex_unlock(&t->xfer_lock);
	}
	srcu_read_unlock(&rt->ctrl->srcu, idx);
	kfree(xb);
	return ret;
}

/**
 * dcm_bus_chain_work() - chain the boards of an RS485 bus, at start-up
 * @work: &struct dcm_rt_bus.chain_work
 *
 * The boards forget their Bids (CHAIN_RESET); then, place by place, the
 * first board without a Bid says who it is (CHAIN_QUERY) and gets the next
 * Bid by its BoardId (CHAIN_ASSIGN), which enables the board after it. The
 * devices of the bus take the Bids in their order in the description; a
 * motor board's Bid, BoardId, BoardId2, BootLoaderVersion, ProgVersion and
 * StructVersion keys read what it said, and it gets its configuration
 * structure (jointZeroPosition and the joints' other configuration keys);
 * the chest board's ChainResult lists every bus's chain. The bus is then
 * the cycle's. Context: a workqueue; holds the bus for the exchanges and
 * the controller's SRCU.
 */
void dcm_bus_chain_work(struct work_struct *work)
{
	struct dcm_rt_bus *b = container_of(work, struct dcm_rt_bus, chain_work);
	struct dcm_runtime *rt = b->rt;
	struct dcm_controller *ctrl = rt->ctrl;
	struct dcm_rs485_ident id;
	struct dcm_rs485_frame f;
	struct xfer_buf *xb;
	struct dcm_bus *t;
	u32 n = min_t(u32, b->n_dev, DCM_RS485_MAX_BOARDS), pos, board_id;
	int idx, len;
	u8 bid;

	idx = srcu_read_lock(&ctrl->srcu);
	t = dcm_bus_find(ctrl, b->name);
	xb = kmalloc(sizeof(*xb), GFP_KERNEL);
	if (!t || !xb)
		goto out;
	mutex_lock(&t->xfer_lock);
	len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), DCM_RS485_ADDR_BROADCAST,
				  DCM_RS485_CHAIN_RESET, NULL, 0);
	if (len > 0)
		t->ops->xfer(t, DCM_RS485_ADDR_BROADCAST, xb->tx, len, NULL, 0);
	b->n_chain = 0;
	for (pos = 0; pos < b->n_dev; pos++)
		WRITE_ONCE(rt->dev[b->dev[pos]].configured, false);
	for (pos = 0; pos < n; pos++) {
		len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), DCM_RS485_ADDR_UNASSIGNED,
					  DCM_RS485_CHAIN_QUERY, NULL, 0);
		if (chain_request(xb, t, len, &f) || dcm_rs485_get_ident(&f, &id))
			break;
		len = dcm_rs485_put_assign(xb->tx, sizeof(xb->tx), false, id.board_id, pos + 1);
		if (chain_request(xb, t, len, &f) || dcm_rs485_get_assign(&f, &board_id, &bid) ||
		    board_id != id.board_id || bid != pos + 1)
			break;
		b->chain[pos].bid = bid;
		b->chain[pos].board_id = board_id;
		b->n_chain = pos + 1;
		if (rt->dev[b->dev[pos]].kind != BOARD_MOTOR)
			continue;
		set_dev_key(rt, b->dev[pos], "Bid", bid);
		set_dev_key(rt, b->dev[pos], "BoardId", id.board_id);
		set_dev_key(rt, b->dev[pos], "BoardId2", id.board_id2);
		set_dev_key(rt, b->dev[pos], "BootLoaderVersion", id.bootloader_version);
		set_dev_key(rt, b->dev[pos], "ProgVersion", id.prog_version);
		set_dev_key(rt, b->dev[pos], "StructVersion", id.struct_version);
		motor_configure(rt, xb, t, b->dev[pos], bid);
	}
	mutex_unlock(&t->xfer_lock);
	dev_info(&ctrl->dev, "%s: %u of %u boards chained\n", b->name, b->n_chain, n);
out:
	kfree(xb);
	/* The keys and the chain are written before the cycle may see this. */
	smp_store_release(&b->chained, true);
	dcm_boards_chain_result(rt);
	srcu_read_unlock(&ctrl->srcu, idx);
}
