// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the motor board (MotorBoard): two joints on an RS485 bus.
 *
 * Its slot of the cyclic broadcast carries each motor's position command
 * and hardness; its reply the joints' MRE angles, currents, temperatures
 * and temperature statuses, and its error byte. Chaining gives it its Bid
 * and reads its identity; it then gets its configuration structure, built
 * from its joints' keys (jointZeroPosition, gains, sensor chain). Each
 * cycle, before the exchange, the stiffness rules (dcm_safety_hardness():
 * calibration, temperature status, the controller's factor) decide the
 * hardness each joint is sent.
 */

#include <linux/dcm.h>
#include <linux/string.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_bus_rs485.h"
#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_time.h"
#include "model/dcm_calib.h"
#include "model/dcm_safety.h"
#include "wire/dcm_wire_motor.h"
#include "wire/dcm_rs485.h"

/* The model refuses more RS485 boards on a bus than the wire has Bids. */
static_assert(DCM_BUS_RS485_MAX_BOARDS == DCM_RS485_MAX_BOARDS);

/* Roles of a motor board. */
enum {
	MB_JOINT1, MB_JOINT2, MB_HARD1, MB_HARD2, MB_POS1, MB_POS2,
	MB_CUR1, MB_CUR2, MB_TEMP1, MB_TEMP2,
};

static const struct dcm_board_role motor_roles[] = {
	{ "Joint", 1, MB_JOINT1 }, { "Joint", 2, MB_JOINT2 },
	{ "JointHardness", 1, MB_HARD1 }, { "JointHardness", 2, MB_HARD2 },
	{ "JointPosition", 1, MB_POS1 }, { "JointPosition", 2, MB_POS2 },
	{ "Current", 1, MB_CUR1 }, { "Current", 2, MB_CUR2 },
	{ "Temperature", 1, MB_TEMP1 }, { "Temperature", 2, MB_TEMP2 },
};

/**
 * struct motor_priv - a motor board's running state
 * @temp_status: last temperature status of each motor, for its events
 * @blocked: motors whose hardness calibration holds at 0, for events
 * @braked: motors braked rather than freed, for events
 * @mre: the joint MRE angle of each motor in its last reply, relative to
 *	@cfg_zero (struct dcm_mb_status.angle)
 * @cfg_zero: the jointZeroPosition of each motor in the configuration it
 *	last accepted
 * @configured: it accepted a configuration since its bus was last chained
 * @hold: bit m holds motor m + 1 as if uncalibrated while its calibration
 *	changes (hardness 0, position following the sensor)
 * @status: each motor's Temperature's Status key, or NULL
 * @zero: each motor's JointPosition's jointZeroPosition key, or NULL
 */
struct motor_priv {
	u8 temp_status[DCM_MB_MOTORS];
	u8 blocked;
	u8 braked;
	s16 mre[DCM_MB_MOTORS];
	u16 cfg_zero[DCM_MB_MOTORS];
	bool configured;
	u32 hold;
	union dcm_value *status[DCM_MB_MOTORS];
	union dcm_value *zero[DCM_MB_MOTORS];
};

static s64 key_num(const union dcm_value *v)
{
	return v ? READ_ONCE(v->num) : 0;
}

static void motor_bind(struct dcm_runtime *rt, u32 dev)
{
	struct motor_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	int m;

	for (m = 0; m < DCM_MB_MOTORS; m++) {
		p->status[m] = dcm_board_sub_key(rt->model, role[MB_TEMP1 + m], "Status");
		p->zero[m] = dcm_board_sub_key(rt->model, role[MB_POS1 + m], "jointZeroPosition");
	}
}

static void motor_slot(const struct dcm_runtime *rt, u32 dev, struct dcm_rs485_slot *slot)
{
	const s16 *role = rt->dev[dev].role;
	struct dcm_mb_cmd c;
	int m;

	for (m = 0; m < DCM_MB_MOTORS; m++) {
		c.position[m] = dcm_mb_position(dcm_board_act_raw(rt, role[MB_JOINT1 + m]));
		c.hardness[m] = clamp_t(s64, dcm_board_act_raw(rt, role[MB_HARD1 + m]),
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
	struct motor_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	struct dcm_mb_status st;
	int m;

	dcm_mb_get_status(r->data, &st);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		WRITE_ONCE(p->mre[m], st.angle[m]);
		dcm_runtime_sense(rt, role[MB_POS1 + m], st.angle[m], now);
		dcm_runtime_sense(rt, role[MB_CUR1 + m], st.current_ma[m], now);
		dcm_runtime_sense(rt, role[MB_TEMP1 + m], st.temperature[m], now);
		dcm_board_set_live(p->status[m], st.temp_status[m]);
		if (st.temp_status[m] != p->temp_status[m] && role[MB_TEMP1 + m] >= 0) {
			dcm_event(rt->ctrl, DCM_EV_TEMPERATURE,
				  rt->model->subdevices[role[MB_TEMP1 + m]].name,
				  p->temp_status[m], st.temp_status[m],
				  "temperature status %u: %s", st.temp_status[m],
				  temp_status_text[min_t(u8, st.temp_status[m], 3)]);
			p->temp_status[m] = st.temp_status[m];
		}
	}
	dcm_runtime_answer(rt, dev, true, DCM_ERR_BOARD, 0, st.error, now);
}

/* Its error byte (seed 000): its level, and with @text its line. */
static u8 motor_error(u8 code, char *text, size_t size)
{
	struct dcm_mb_error e;

	dcm_mb_error_decode(code, &e);
	if (text)
		dcm_mb_error_describe(&e, text, size);
	return e.level;
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
	struct motor_priv *p = dcm_board_priv(rt, dev);
	u8 changed;
	int m;

	changed = p->blocked ^ blocked;
	for (m = 0; m < DCM_MB_MOTORS; m++)
		if (changed & BIT(m))
			dcm_event(rt->ctrl, DCM_EV_SAFETY, motor_joint(rt, dev, m),
				  DCM_SAFETY_CALIBRATION, !!(blocked & BIT(m)),
				  blocked & BIT(m) ? "no calibration: hardness held at 0" :
				  "hardness no longer held by calibration");
	changed = p->braked ^ braked;
	for (m = 0; m < DCM_MB_MOTORS; m++)
		if (changed & BIT(m))
			dcm_event(rt->ctrl, DCM_EV_SAFETY, motor_joint(rt, dev, m),
				  DCM_SAFETY_BRAKE, !!(braked & BIT(m)),
				  braked & BIT(m) ?
				  "braked, not freed: the board's other motor is on" :
				  "no longer braked");
	p->blocked = blocked;
	p->braked = braked;
}

/*
 * The stiffness rules of a motor board's joints. Each joint's hardness is
 * sent as the rules allow (dcm_safety_hardness(): calibration, temperature
 * status, @scale_ppm) and its Value reads what was sent. A joint whose
 * hardness sent is 0 or below has its position actuator follow its position
 * sensor, so that stiffness coming back does not jump to an old command; a
 * joint whose calibration changes is held so (struct motor_priv.hold) until
 * its sensor reads in the new zero's frame. Context: the cycle, under the
 * runtime's cmd_lock.
 */
static void motor_safety(struct dcm_runtime *rt, u32 dev, u32 scale_ppm, u32 now)
{
	struct motor_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	struct dcm_actuator *h[DCM_MB_MOTORS] = { NULL };
	s64 eff[DCM_MB_MOTORS] = { 0 };
	u8 blocked = 0, braked = 0;
	int m;

	for (m = 0; m < DCM_MB_MOTORS; m++) {
		s32 hs = role[MB_HARD1 + m];
		/* A joint being calibrated is held as an uncalibrated one. */
		bool calibrated = key_num(p->zero[m]) && !(READ_ONCE(p->hold) & BIT(m));

		if (hs < 0 || rt->act_of[hs] < 0)
			continue;
		h[m] = &rt->act[rt->act_of[hs]];
		eff[m] = dcm_safety_hardness(h[m]->q.value, calibrated, key_num(p->status[m]),
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
	safety_edges(rt, dev, blocked, braked);
}

static void motor_unchained(struct dcm_runtime *rt, u32 dev)
{
	struct motor_priv *p = dcm_board_priv(rt, dev);

	WRITE_ONCE(p->configured, false);
}

/* Its identity, from chaining or the VERSION command, in its keys. */
static void motor_identified(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_ident *id,
			     u8 bid)
{
	const struct dcm_model *m = rt->model;

	dcm_board_set_live(dcm_board_dev_key(m, dev, "Bid"), bid);
	dcm_board_set_live(dcm_board_dev_key(m, dev, "BoardId"), id->board_id);
	dcm_board_set_live(dcm_board_dev_key(m, dev, "BoardId2"), id->board_id2);
	dcm_board_set_live(dcm_board_dev_key(m, dev, "BootLoaderVersion"),
			   id->bootloader_version);
	dcm_board_set_live(dcm_board_dev_key(m, dev, "ProgVersion"), id->prog_version);
	dcm_board_set_live(dcm_board_dev_key(m, dev, "StructVersion"), id->struct_version);
}

/* A static number key of a subdevice (Kp of a Joint), or 0. */
static s64 sub_num(const struct dcm_runtime *rt, s32 sub, const char *key)
{
	return key_num(dcm_board_sub_key(rt->model, sub, key));
}

/*
 * A motor board's configuration structure, from its joints' keys (seed 000:
 * read at start-up by the DCM and sent during the configuration process).
 * Context: process; a string key is read under the controller's desc.keys_lock.
 */
static void motor_config(struct dcm_runtime *rt, u32 dev, u8 bid, struct dcm_mb_config *cfg)
{
	const s16 *role = rt->dev[dev].role;
	union dcm_value *sensor;
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
		sensor = dcm_board_sub_key(rt->model, ps, "SensorType");
		mutex_lock(&rt->ctrl->desc.keys_lock);
		mre_motor = sensor && sensor->str && !strcmp(sensor->str, "MRE_JointMotor");
		mutex_unlock(&rt->ctrl->desc.keys_lock);
		mc->motor_number = clamp_t(s64, sub_num(rt, js, "MotorNumber"), 0, 2);
		mc->invert = sub_num(rt, js, "InvertControlDirection");
		mc->kp = clamp_t(s64, sub_num(rt, js, "Kp"), S16_MIN, S16_MAX);
		mc->ki = clamp_t(s64, sub_num(rt, js, "Ki"), S16_MIN, S16_MAX);
		mc->kd = clamp_t(s64, sub_num(rt, js, "Kd"), S16_MIN, S16_MAX);
		if (mre_motor)
			mc->sensor_type = DCM_MB_SENSOR_MRE_JOINT_MOTOR;
		else
			mc->sensor_type = ps >= 0 ? DCM_MB_SENSOR_MRE_JOINT : DCM_MB_SENSOR_NONE;
		mc->chain_mre_joint = clamp_t(s64, sub_num(rt, ps, "positionChainMREJoint"),
					      0, 4);
		mc->chain_mre_motor = clamp_t(s64, sub_num(rt, ps, "positionChainMREMotor"),
					      0, 4);
		if (dcm_q16_from_micro(sub_num(rt, ps, "GearRatio"), &mc->gear_ratio))
			mc->gear_ratio = 0;
		mc->zero = clamp_t(s64, sub_num(rt, ps, "jointZeroPosition"), 0, 4095);
		mc->current_max = cs < 0 ? 0 : clamp_t(s64, div_s64(rt->conv[cs].max, 1000), 0,
						       U16_MAX);
	}
}

/*
 * Send a motor board its configuration; an error of level 6 if refused,
 * -EIO then. The zeros it took are kept: its replies are relative to them.
 */
static int motor_configure(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u8 bid,
			   struct dcm_board_buf *xb)
{
	struct motor_priv *p = dcm_board_priv(rt, dev);
	struct dcm_mb_config cfg;
	struct dcm_rs485_frame f;
	u8 status = DCM_MB_CONFIG_BAD_VALUE;
	int len, got, m;

	motor_config(rt, dev, bid, &cfg);
	len = dcm_rs485_put_config(xb->tx, sizeof(xb->tx), &cfg);
	got = len < 0 ? len : dcm_bus_xfer(t, bid, xb->tx, len, xb->rx, DCM_RS485_MAX_FRAME);
	if (got > 0 && dcm_rs485_parse_frame(xb->rx, got, &f) >= 0 &&
	    !dcm_rs485_get_config_ack(&f, &status) && status == DCM_MB_CONFIG_OK) {
		for (m = 0; m < DCM_MB_MOTORS; m++)
			WRITE_ONCE(p->cfg_zero[m], cfg.motor[m].zero);
		/* The zeros first: pairs with the acquire of motor_joint_mre(). */
		smp_store_release(&p->configured, true);
		return 0;
	}
	WRITE_ONCE(p->configured, false);
	dcm_runtime_answer(rt, dev, false, DCM_ERR_CONFIG, 6, status, dcm_time_ms(rt->ctrl));
	return -EIO;
}

static int motor_joint_mre(const struct dcm_runtime *rt, u32 dev, u32 slot, u16 *raw)
{
	const struct motor_priv *p = dcm_board_priv(rt, dev);

	/* Pairs with the release in motor_configure(). */
	if (slot >= DCM_MB_MOTORS || !smp_load_acquire(&p->configured))
		return -ENODATA;
	*raw = dcm_calib_raw(READ_ONCE(p->mre[slot]), READ_ONCE(p->cfg_zero[slot]));
	return 0;
}

static void motor_joint_hold(struct dcm_runtime *rt, u32 dev, u32 slot, bool on)
{
	struct motor_priv *p = dcm_board_priv(rt, dev);

	if (on)
		WRITE_ONCE(p->hold, READ_ONCE(p->hold) | BIT(slot));
	else
		WRITE_ONCE(p->hold, READ_ONCE(p->hold) & ~BIT(slot));
}

static const struct dcm_board_rs485 motor_rs485 = {
	.slot = motor_slot,
	.reply = motor_reply,
	.error = motor_error,
	.unchained = motor_unchained,
	.identified = motor_identified,
	.configure = motor_configure,
};

static const struct dcm_board_joints motor_joints = {
	.joint = "Joint",
	.position = "JointPosition",
	.safety = motor_safety,
	.mre = motor_joint_mre,
	.hold = motor_joint_hold,
};

const struct dcm_board_type dcm_motor_board = {
	.name = "MotorBoard",
	.roles = motor_roles,
	.n_roles = ARRAY_SIZE(motor_roles),
	.priv_size = sizeof(struct motor_priv),
	.bind = motor_bind,
	.rs485 = &motor_rs485,
	.joints = &motor_joints,
};
