// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - a simulated NAO body below the real dcm drivers.
 *
 * The module creates a platform device "dcm_sim" whose driver registers a
 * dcm controller flagged DCM_INFO_F_SIMULATED, so dcm0 exists with no
 * hardware, and puts the shipped body's boards (userspace/data/Device.xml)
 * behind it:
 *
 * - four RS485 buses, RS485-1 to RS485-4, whose transport is a loopback
 *   (those of the rs485_loopback parameter: a bus left out is free for a
 *   real transport, the serdev driver on a UART):
 *   the command frame the dcm core builds reaches simulated motor boards
 *   that parse it with the same wire code, move their motors
 *   (sim_physics.c) and answer in Bid order; the last board of each bus
 *   is a hand board (RS485-1, -2: touch pads) or a foot board (RS485-3,
 *   -4: LEDs, bumpers, FSRs under the robot's weight);
 * - two I2C adapters, "dcm-sim I2C-chest" (chest board, battery,
 *   ultrasound board) and "dcm-sim I2C-head" (face, ears, head touch board,
 *   head board), reached through the real I2C transport (sim_i2c.c);
 * - an SPI controller with the inertial board, reached through the real SPI
 *   transport (sim_spi.c).
 *
 * The world and the faults are set at run time in debugfs, dcm_sim/
 * (sim_debugfs.c; Documentation/dcm/simulator.rst lists every knob).
 */

#include <linux/delay.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/random.h>

#include "sim_body.h"

/* The boards of each bus, by Bid - 1, as Device.xml puts them. */
static const u8 sim_layout[SIM_RS485_BUSES][DCM_RS485_MAX_BOARDS] = {
	{ SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_HAND },	/* neck, left arm */
	{ SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_HAND },			/* right arm */
	{ SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_FOOT },	/* left leg */
	{ SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_MOTOR, SIM_FOOT },	/* right leg */
};

/*
 * The joints of the shipped body (userspace/data/Device.xml): their stops
 * are the position sensors' Min and Max, their true zeros the body file's
 * jointZeroPosition (userspace/data/body.xml), so that the shipped robot
 * description is this body's right calibration. The hands' aperture has
 * no stop here.
 */
#define SIM_HAND_STOP	3141592
const struct sim_joint sim_joints[SIM_JOINTS] = {
	{ "HeadYaw",		0, 1, 0, -2085700, 2085700, 1094 },
	{ "HeadPitch",		0, 1, 1, -672000, 514900, 1258 },
	{ "LShoulderPitch",	0, 2, 0, -2085700, 2085700, 2956 },
	{ "LShoulderRoll",	0, 2, 1, -314200, 1326500, 3210 },
	{ "LElbowYaw",		0, 3, 0, -2085700, 2085700, 3381 },
	{ "LElbowRoll",		0, 3, 1, -1544600, -34900, 904 },
	{ "LWristYaw",		0, 4, 0, -1823800, 1823800, 2221 },
	{ "LHand",		0, 4, 1, -SIM_HAND_STOP, SIM_HAND_STOP, 799 },
	{ "RShoulderPitch",	1, 1, 0, -2085700, 2085700, 2235 },
	{ "RShoulderRoll",	1, 1, 1, -1326500, 314200, 317 },
	{ "RElbowYaw",		1, 2, 0, -2085700, 2085700, 3722 },
	{ "RElbowRoll",		1, 2, 1, 34900, 1544600, 967 },
	{ "RWristYaw",		1, 3, 0, -1823800, 1823800, 3174 },
	{ "RHand",		1, 3, 1, -SIM_HAND_STOP, SIM_HAND_STOP, 3417 },
	{ "LHipYawPitch",	2, 1, 0, -1145303, 740810, 2274 },
	{ "LHipRoll",		2, 2, 0, -379472, 790477, 2686 },
	{ "LHipPitch",		2, 2, 1, -1535889, 484090, 872 },
	{ "LKneePitch",		2, 3, 0, -92346, 2112528, 2901 },
	{ "LAnklePitch",	2, 4, 0, -1189516, 922747, 1128 },
	{ "LAnkleRoll",		2, 4, 1, -397880, 769001, 3314 },
	{ "RHipYawPitch",	3, 1, 0, -1145303, 740810, 524 },
	{ "RHipRoll",		3, 2, 0, -790477, 379472, 450 },
	{ "RHipPitch",		3, 2, 1, -1535889, 484090, 3737 },
	{ "RKneePitch",		3, 3, 0, -92346, 2112528, 1656 },
	{ "RAnklePitch",	3, 4, 0, -1189516, 922747, 3158 },
	{ "RAnkleRoll",		3, 4, 1, -769001, 397880, 2336 },
};

static struct platform_device *dcm_sim_pdev;

static unsigned int rs485_loopback = 0xf;
module_param(rs485_loopback, uint, 0444);
MODULE_PARM_DESC(rs485_loopback,
		 "RS485 buses the simulated boards serve, bit N-1 for RS485-N (default 0xf); the others are left to a real transport");

/**
 * sim_elapsed() - microseconds since a time, and the time moved to now
 * @last: the time
 *
 * Return: the microseconds, at most 100 ms.
 */
u32 sim_elapsed(ktime_t *last)
{
	ktime_t now = ktime_get();
	s64 us = ktime_us_delta(now, *last);

	*last = now;
	return clamp_t(s64, us, 0, 100000);
}

static s32 counts16_to_urad(u16 pos)
{
	return (s32)div_s64((s64)(s16)pos * SIM_TWO_PI_URAD, 65536);
}

/*
 * Every motor of every board at power-up: at rest within its stops, with
 * its MRE's true zero; a motor no joint uses has no stop and true zero 0.
 */
static void sim_mb_init(struct dcm_sim *sim)
{
	int b, i, m;

	for (b = 0; b < SIM_RS485_BUSES; b++)
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++)
			for (m = 0; m < DCM_MB_MOTORS; m++)
				sim_motor_init(&sim->rs485[b].board[i].motor[m], 1200, 6000000,
					       -SIM_HAND_STOP, SIM_HAND_STOP);
	for (i = 0; i < SIM_JOINTS; i++) {
		const struct sim_joint *j = &sim_joints[i];
		struct sim_mb *mb = &sim->rs485[j->bus].board[j->bid - 1];

		sim_motor_init(&mb->motor[j->motor], 1200, 6000000, j->min_urad, j->max_urad);
		mb->true_zero[j->motor] = j->true_zero;
	}
}

/**
 * sim_motor_load() - the total current of every motor, for the battery
 * @sim: the body
 *
 * Return: mA.
 */
s32 sim_motor_load(struct dcm_sim *sim)
{
	s32 ma = 0;
	int b, i, m;

	for (b = 0; b < SIM_RS485_BUSES; b++)
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++)
			for (m = 0; m < DCM_MB_MOTORS; m++)
				ma += READ_ONCE(sim->rs485[b].board[i].motor[m].current_ma);
	return ma;
}

/*
 * A motor board: its motors move for @dt microseconds, then it reports. A
 * motor runs only with a jointZeroPosition from its configuration (seed
 * 000: the board knows nothing before, and 0 is "not calibrated"); the
 * board takes that count for 0 rad, so a wrong zero shifts where the joint
 * goes and what the board reports, and no zero reports the raw count.
 */
static void sim_mb_cycle(struct sim_rs485 *r, u32 i, u32 dt, struct dcm_rs485_reply *reply)
{
	struct sim_mb *mb = &r->board[i];
	struct dcm_mb_status st = { };
	struct dcm_mb_cmd c;
	int m;

	dcm_mb_get_cmd(&r->cmd.slot[i], &c);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		struct sim_motor *mo = &mb->motor[m];
		u16 zero = mb->configured ? mb->zero[m] : 0, tz = mb->true_zero[m];
		s32 hot_mc;

		/* An outside force (debugfs) moves the joint first. */
		if (xchg(&mb->place[m], 0))
			sim_motor_place(mo, READ_ONCE(mb->place_urad[m]));
		mo->calibrated = zero != 0;
		mo->mre_fault = r->mre_fault & BIT(i);
		sim_motor_command(mo,
				  counts16_to_urad(c.position[m]) + sim_mre_offset_urad(tz, zero),
				  (s32)c.hardness[m] * 1000);
		sim_motor_step(mo, dt);
		hot_mc = min_t(u32, READ_ONCE(r->hot_mc), SIM_TEMP_HOT_MAX_MC);
		if ((r->hot & BIT(i)) && mo->temp_mc < hot_mc)
			mo->temp_mc = hot_mc;
		st.angle[m] = dcm_mb_mre_angle(sim_mre_count(tz, mo->pos_urad), zero);
		st.current_ma[m] = mo->current_ma;
		st.temperature[m] = mo->temp_mc / 1000;
		st.temp_status[m] = sim_motor_temp_status(mo);
		/* The error byte: control cut for an MRE, or temperature. */
		if (mo->mre_fault)
			st.error = 0xe2;
		else if (st.temp_status[m])
			st.error = 0x20 | BIT(m);
	}
	dcm_mb_put_status(reply->data, &st);
}

/*
 * A foot board: the slot sets its LEDs; it reports its bumpers and what its
 * FSRs bear of the robot's weight (sim_sensors.c).
 */
static void sim_foot_cycle(struct dcm_sim *sim, int side, const struct dcm_rs485_slot *slot,
			   struct dcm_rs485_reply *reply)
{
	struct sim_foot *f = &sim->foot[side];
	const struct sim_foot_geom *g = side ? &sim_foot_right : &sim_foot_left;
	u32 load[2], w[DCM_FOOT_FSRS], bumpers;
	struct dcm_foot_in in = { };
	u8 led[DCM_FOOT_OUT_LEN];
	int i;

	dcm_foot_get_slot(slot, led);
	for (i = 0; i < DCM_FOOT_OUT_LEN; i++)
		WRITE_ONCE(f->led[i], led[i]);
	sim_feet_split(READ_ONCE(sim->stance), READ_ONCE(sim->weight_g), &load[0], &load[1]);
	sim_foot_load(g, load[side], READ_ONCE(sim->cop_x_mm) * 1000,
		      READ_ONCE(sim->cop_y_mm) * 1000, w);
	sim_foot_fsr(g, w, in.fsr);
	for (i = 0; i < DCM_FOOT_FSRS; i++) {
		WRITE_ONCE(f->load[i], w[i]);
		WRITE_ONCE(f->fsr[i], in.fsr[i]);
	}
	bumpers = READ_ONCE(f->bumpers);
	in.bumper[0] = bumpers & BIT(0);
	in.bumper[1] = bumpers & BIT(1);
	dcm_foot_put_in(reply->data, &in);
}

/* A simulated board's identity: unique per bus and place. */
static void sim_ident(const struct sim_rs485 *r, u32 i, struct dcm_rs485_ident *id)
{
	u8 kind = sim_layout[r->index][i];

	memset(id, 0, sizeof(*id));
	id->type = kind == SIM_MOTOR ? DCM_BOARD_MOTOR : kind == SIM_FOOT ? DCM_BOARD_FOOT :
		   DCM_BOARD_HAND;
	id->struct_version = kind == SIM_MOTOR ? 1 : 0;
	id->board_id = 0x4e410000 | ((r->index + 1) << 8) | (i + 1);
	id->board_id2 = id->board_id ^ 0xffff;
	id->bootloader_version = 0x0102;
	id->prog_version = 0x0203;
}

/*
 * Chaining (Documentation/dcm/wire-protocol.rst): a reset clears every
 * board's Bid and configuration; the first board in the chain without a
 * Bid (the only one whose chain-in is active) answers a query with its
 * identity, unless it is silent; an assignment gives a Bid to the board of
 * that BoardId, which enables the next one. A board with a Bid takes its
 * configuration and says who it is (IDENT).
 */
static int sim_rs485_chain(struct sim_rs485 *r, u8 *rx, size_t rx_len)
{
	struct dcm_rs485_ident id;
	u32 board_id, i;
	u8 bid;

	switch (r->frame.cmd) {
	case DCM_RS485_CHAIN_RESET:
		memset(r->bid, 0, sizeof(r->bid));
		r->configured = 0;
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			r->board[i].configured = false;
			memset(r->board[i].zero, 0, sizeof(r->board[i].zero));
		}
		return 0;
	case DCM_RS485_CHAIN_QUERY:
		for (i = 0; i < DCM_RS485_MAX_BOARDS && sim_layout[r->index][i]; i++) {
			if (r->bid[i])
				continue;
			if (r->silent & BIT(i))
				return -ETIMEDOUT;
			sim_ident(r, i, &id);
			return dcm_rs485_put_ident(rx, rx_len, 0,
						   DCM_RS485_CHAIN_QUERY | DCM_RS485_REPLY, &id);
		}
		return -ETIMEDOUT;
	case DCM_RS485_CONFIG:
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			struct dcm_mb_config cfg;
			u8 status = DCM_MB_CONFIG_OK;

			if (!r->bid[i] || r->bid[i] != r->frame.addr)
				continue;
			if (r->silent & BIT(i))
				return -ETIMEDOUT;
			if (sim_layout[r->index][i] != SIM_MOTOR ||
			    dcm_rs485_get_config(&r->frame, &cfg))
				status = DCM_MB_CONFIG_BAD_VALUE;
			else if (cfg.bid != r->bid[i])
				status = DCM_MB_CONFIG_BAD_BID;
			if (status == DCM_MB_CONFIG_OK) {
				r->board[i].configured = true;
				r->configured |= BIT(r->bid[i] - 1);
				r->board[i].zero[0] = cfg.motor[0].zero;
				r->board[i].zero[1] = cfg.motor[1].zero;
				r->configs++;
			}
			return dcm_rs485_put_config_ack(rx, rx_len, r->bid[i], status);
		}
		return -ETIMEDOUT;
	case DCM_RS485_IDENT:
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			if (!r->bid[i] || r->bid[i] != r->frame.addr)
				continue;
			if (r->silent & BIT(i))
				return -ETIMEDOUT;
			sim_ident(r, i, &id);
			return dcm_rs485_put_ident(rx, rx_len, r->bid[i],
						   DCM_RS485_IDENT | DCM_RS485_REPLY, &id);
		}
		return -ETIMEDOUT;
	case DCM_RS485_CHAIN_ASSIGN:
		if (dcm_rs485_get_assign(&r->frame, &board_id, &bid))
			return -ETIMEDOUT;
		for (i = 0; i < DCM_RS485_MAX_BOARDS && sim_layout[r->index][i]; i++) {
			sim_ident(r, i, &id);
			if (id.board_id != board_id || r->bid[i])
				continue;
			r->bid[i] = bid;
			return dcm_rs485_put_assign(rx, rx_len, true, board_id, bid);
		}
		return -ETIMEDOUT;
	}
	return -ETIMEDOUT;
}

/*
 * The RS485 loopback: the boards read the broadcast, move for the time since
 * the last one, and answer in Bid order; chaining frames go to the chain.
 */
static int sim_rs485_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			  size_t rx_len)
{
	struct sim_rs485 *r = container_of(bus, struct sim_rs485, bus);
	struct dcm_sim *sim = bus->priv;
	u32 dt = sim_elapsed(&r->last), i;
	size_t off = 0;
	int len;

	if (r->delay_us)
		usleep_range(r->delay_us, r->delay_us + 100);
	if (dcm_rs485_parse_frame(tx, tx_len, &r->frame) < 0)
		return -ETIMEDOUT;	/* a board ignores a bad frame */
	if (r->frame.cmd != DCM_RS485_CYCLE)
		return sim_rs485_chain(r, rx, rx_len);
	if (dcm_rs485_get_cmd(&r->frame, &r->cmd) < 0)
		return -ETIMEDOUT;

	for (i = 0; i < r->cmd.n; i++) {
		struct dcm_rs485_reply reply = { .bid = i + 1, .seq = r->cmd.seq };

		switch (sim_layout[r->index][i]) {
		case SIM_MOTOR:
			sim_mb_cycle(r, i, dt, &reply);
			break;
		case SIM_FOOT:
			sim_foot_cycle(sim, r->index - 2, &r->cmd.slot[i], &reply);
			break;
		case SIM_HAND:
			reply.data[0] = READ_ONCE(sim->hand_touch[r->index]) & DCM_TOUCH_MASK;
			break;
		default:
			continue;	/* no board at that Bid */
		}
		if (r->silent & BIT(i))
			continue;
		len = dcm_rs485_put_reply(rx + off, rx_len - off, &reply);
		if (len < 0)
			break;
		if (r->crc_ppm && get_random_u32_below(1000000) < r->crc_ppm)
			rx[off + len - 1] ^= 0x5a;
		off += len;
	}
	return off;
}

static const struct dcm_bus_ops sim_rs485_ops = {
	.xfer = sim_rs485_xfer,
};

static void sim_remove_buses(struct dcm_sim *sim, int n)
{
	while (n--) {
		if (sim->rs485[n].registered)
			dcm_bus_unregister(&sim->rs485[n].bus);
		sim->rs485[n].registered = false;
	}
}

static int dcm_sim_probe(struct platform_device *pdev)
{
	struct dcm_sim *sim;
	int b, ret;

	sim = devm_kzalloc(&pdev->dev, sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	mutex_init(&sim->lock);
	sim->stance = SIM_STANCE_BOTH;
	sim->weight_g = SIM_WEIGHT_G;
	sim_mb_init(sim);
	sim_i2c_init(sim);
	sim_spi_init(sim);

	sim->ctrl = dcm_controller_register(&pdev->dev, DCM_SIM_NAME, DCM_INFO_F_SIMULATED);
	if (IS_ERR(sim->ctrl))
		return dev_err_probe(&pdev->dev, PTR_ERR(sim->ctrl),
				     "cannot register controller\n");

	for (b = 0; b < SIM_RS485_BUSES; b++) {
		struct sim_rs485 *r = &sim->rs485[b];

		snprintf(r->name, sizeof(r->name), "RS485-%d", b + 1);
		r->index = b;
		r->hot_mc = 80000;
		r->bus.name = r->name;
		r->bus.kind = DCM_BUS_RS485;
		r->bus.ops = &sim_rs485_ops;
		r->bus.priv = sim;
		r->last = ktime_get();
		if (!(rs485_loopback & BIT(b)))
			continue;
		ret = dcm_bus_register(0, &r->bus);
		if (ret)
			goto err_buses;
		r->registered = true;
	}

	ret = sim_i2c_add(sim, &pdev->dev);
	if (ret)
		goto err_buses;
	ret = sim_spi_add(sim, &pdev->dev);
	if (ret)
		goto err_i2c;

	sim_debugfs_init(sim);
	platform_set_drvdata(pdev, sim);
	return 0;

err_i2c:
	sim_i2c_remove(sim);
err_buses:
	sim_remove_buses(sim, b);
	dcm_controller_unregister(sim->ctrl);
	return ret;
}

static int dcm_sim_remove(struct platform_device *pdev)
{
	struct dcm_sim *sim = platform_get_drvdata(pdev);

	sim_debugfs_exit(sim);
	sim_spi_remove(sim);
	sim_i2c_remove(sim);
	sim_remove_buses(sim, SIM_RS485_BUSES);
	dcm_controller_unregister(sim->ctrl);
	return 0;
}

static struct platform_driver dcm_sim_driver = {
	.driver = {
		.name = DCM_SIM_NAME,
	},
	.probe = dcm_sim_probe,
	.remove = dcm_sim_remove,
};

static int __init dcm_sim_init(void)
{
	int ret;

	ret = platform_driver_register(&dcm_sim_driver);
	if (ret)
		return ret;

	dcm_sim_pdev = platform_device_register_simple(DCM_SIM_NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(dcm_sim_pdev)) {
		platform_driver_unregister(&dcm_sim_driver);
		return PTR_ERR(dcm_sim_pdev);
	}

	/* Probing is synchronous here: fail the load if it did not bind. */
	if (!platform_get_drvdata(dcm_sim_pdev)) {
		platform_device_unregister(dcm_sim_pdev);
		platform_driver_unregister(&dcm_sim_driver);
		return -ENODEV;
	}
	return 0;
}

static void __exit dcm_sim_exit(void)
{
	platform_device_unregister(dcm_sim_pdev);
	platform_driver_unregister(&dcm_sim_driver);
}

module_init(dcm_sim_init);
module_exit(dcm_sim_exit);

MODULE_DESCRIPTION("Simulated NAO body for the dcm driver");
MODULE_LICENSE("GPL");
