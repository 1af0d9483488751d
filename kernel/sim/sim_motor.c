// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the motor boards (MotorBoard) of the simulated body.
 *
 * Each RS485 bus starts with motor boards (RS485-1, -3, -4: places 1 to 4,
 * RS485-2: 1 to 3), two motors each, which carry the joints of the shipped
 * body (userspace/data/Device.xml). A board's slot of the cyclic broadcast
 * commands its motors (position, hardness); it moves them by the time since
 * the last broadcast (sim_physics.c) and reports their angle, current,
 * temperature and error byte. A configuration structure gives it each
 * motor's jointZeroPosition; a chaining reset makes it forget it.
 *
 * Every place of a bus after its last shipped board (its hand or foot
 * board) holds a spare motor board, up to the 16 a bus may have, so that a
 * description with more boards than the shipped body's finds each of them
 * answering (the spare_boards parameter; the chain of a bus only reaches
 * as many boards as the description has). A spare board's motors belong
 * to no joint.
 *
 * Knobs: rs485-N/mre_fault, hot, hot_mc (faults of the boards of that bus)
 * and joints/<J>/ (where each joint is, pushed by an outside force).
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>

#include "sim_boards.h"
#include "sim_chain.h"
#include "sim_link.h"

#define SIM_MOTOR_BOARDS	4	/* shipped, at most, per bus, from place 1 */

static bool spare_boards = true;
module_param(spare_boards, bool, 0444);
MODULE_PARM_DESC(spare_boards,
		 "a spare motor board at each RS485 place after the shipped boards (default 1)");

/* Motor boards on each bus, places 1 to N: as Device.xml puts them. */
static const u8 sim_motor_boards[SIM_RS485_BUSES] = {
	4,	/* neck, left arm */
	3,	/* right arm */
	4,	/* left leg */
	4,	/* right leg */
};

/**
 * struct sim_joint - a joint of the shipped body, where it sits and what it
 *	is made of
 * @name: its name in Device.xml ("HeadYaw")
 * @bus: its RS485 bus, 0 for RS485-1
 * @bid: its motor board's place on the bus, from 1
 * @motor: the motor of the board, 0 or 1 (SubDeviceNumber - 1)
 * @min_urad: its mechanical stop, low: the position sensor's Min
 * @max_urad: high: the position sensor's Max
 * @true_zero: its MRE's count at the joint's 0 rad: what a right
 *	calibration finds (the shipped body file's jointZeroPosition)
 * @hand: a hand: an aperture 0..1 (sim_hand_init()), not an angle
 */
struct sim_joint {
	const char *name;
	u8 bus, bid, motor;
	s32 min_urad, max_urad;
	u16 true_zero;
	bool hand;
};

/*
 * The joints of the shipped body (userspace/data/Device.xml): their stops
 * are the position sensors' Min and Max, their true zeros the body file's
 * jointZeroPosition (userspace/data/body.xml), so that the shipped robot
 * description is this body's right calibration. A hand is an aperture,
 * 0 (closed) to 1 (open), per mil on the wire both ways: its zero only says
 * that it is calibrated. A motor no joint uses turns within half a turn
 * each way.
 */
#define SIM_HAND_STOP	3141592
/* In the order of enum dcm_sim_joint: the index is the physics link's. */
static const struct sim_joint sim_joints[] = {
	{ "HeadYaw",		0, 1, 0, -2085700, 2085700, 1094 },
	{ "HeadPitch",		0, 1, 1, -672000, 514900, 1258 },
	{ "LShoulderPitch",	0, 2, 0, -2085700, 2085700, 2956 },
	{ "LShoulderRoll",	0, 2, 1, -314200, 1326500, 3210 },
	{ "LElbowYaw",		0, 3, 0, -2085700, 2085700, 3381 },
	{ "LElbowRoll",		0, 3, 1, -1544600, -34900, 904 },
	{ "LWristYaw",		0, 4, 0, -1823800, 1823800, 2221 },
	{ "LHand",		0, 4, 1, 0, SIM_HAND_OPEN, 799, true },
	{ "RShoulderPitch",	1, 1, 0, -2085700, 2085700, 2235 },
	{ "RShoulderRoll",	1, 1, 1, -1326500, 314200, 317 },
	{ "RElbowYaw",		1, 2, 0, -2085700, 2085700, 3722 },
	{ "RElbowRoll",		1, 2, 1, 34900, 1544600, 967 },
	{ "RWristYaw",		1, 3, 0, -1823800, 1823800, 3174 },
	{ "RHand",		1, 3, 1, 0, SIM_HAND_OPEN, 3417, true },
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

/**
 * struct sim_motor_faults - the faults of a bus's motor boards (debugfs
 *	rs485-N/)
 * @mre_fault: Bids whose MREs give no data
 * @hot: Bids whose motors are held at @hot_mc and above
 * @hot_mc: that temperature, millidegrees Celsius (80000: status 2)
 */
struct sim_motor_faults {
	u32 mre_fault, hot, hot_mc;
};

/**
 * struct sim_mb - a simulated motor board: two motors
 * @board: the board
 * @faults: its bus's faults
 * @motor: the motors
 * @configured: a configuration structure was accepted since the last
 *	chaining reset
 * @zero: the jointZeroPosition of each motor, as configured
 * @true_zero: each motor's MRE count at its 0 rad
 * @hand: each motor is a hand's (an aperture)
 * @place_urad: debugfs: where an outside force puts each joint...
 * @place: ...at the board's next cycle, when set
 * @joint: each motor's joint (enum dcm_sim_joint), -1 for none
 */
struct sim_mb {
	struct sim_board board;
	const struct sim_motor_faults *faults;
	struct sim_motor motor[DCM_MB_MOTORS];
	bool configured;
	u16 zero[DCM_MB_MOTORS];
	u16 true_zero[DCM_MB_MOTORS];
	bool hand[DCM_MB_MOTORS];
	s32 place_urad[DCM_MB_MOTORS];
	int place[DCM_MB_MOTORS];
	s8 joint[DCM_MB_MOTORS];
};

/**
 * struct sim_joint_knob - a joint's debugfs directory
 * @mb: its motor board
 * @joint: the joint
 */
struct sim_joint_knob {
	struct sim_mb *mb;
	const struct sim_joint *joint;
};

/**
 * struct sim_motors - the motor boards of the body
 * @mb: by bus and place - 1: the shipped ones, then the spare ones after
 *	the bus's hand or foot board
 * @faults: by bus
 * @joint_knob: the joints' debugfs directories
 */
struct sim_motors {
	struct sim_mb mb[SIM_RS485_BUSES][DCM_RS485_MAX_BOARDS];
	struct sim_motor_faults faults[SIM_RS485_BUSES];
	struct sim_joint_knob joint_knob[ARRAY_SIZE(sim_joints)];
};

/*
 * A motor of a joint moves: the physics link's model has it where its last
 * state says while attached (but for a hand, whose aperture is the motor
 * model's), else the motor model moves it. The link is told what the
 * motor was commanded.
 */
static void sim_mb_move(struct sim_mb *mb, int m, u32 dt)
{
	struct sim_motor *mo = &mb->motor[m];
	struct dcm_sim_joint_cmd jc;
	s32 pos, cur;
	int j = mb->joint[m];

	if (j >= 0 && !mb->hand[m] && sim_link_joint(mb->board.sim, j, &pos, &cur))
		sim_motor_follow(mo, pos, cur, dt);
	else
		sim_motor_step(mo, dt);
	if (j < 0)
		return;
	jc.target_urad = mo->target_urad;
	jc.limit_ma = sim_motor_current_limit(mo);	/* 0 when the loop is off */
	jc.pos_urad = mo->pos_urad;
	jc.flags = sim_motor_active(mo) ? DCM_SIM_JOINT_LOOP : 0;
	sim_link_motor(mb->board.sim, j, &jc);
}

/*
 * A motor board: its motors move for @dt microseconds, then it reports. A
 * motor runs only with a jointZeroPosition from its configuration (seed
 * 000: the board knows nothing before, and 0 is "not calibrated"); the
 * board takes that count for 0 rad, so a wrong zero shifts where the joint
 * goes and what the board reports, and no zero reports the raw count. An
 * outside force (debugfs) has no effect on a joint the physics link holds.
 */
static void sim_mb_slot(struct sim_board *b, const struct dcm_rs485_slot *slot, u32 dt,
			struct dcm_rs485_reply *reply)
{
	struct sim_mb *mb = container_of(b, struct sim_mb, board);
	const struct sim_motor_faults *f = mb->faults;
	u32 bit = BIT(b->addr - 1);
	struct dcm_mb_status st = { };
	struct dcm_mb_cmd c;
	int m;

	dcm_mb_get_cmd(slot, &c);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		struct sim_motor *mo = &mb->motor[m];
		u16 zero = mb->configured ? mb->zero[m] : 0, tz = mb->true_zero[m];
		s32 hot_mc;

		/* An outside force (debugfs) moves the joint first. */
		if (xchg(&mb->place[m], 0))
			sim_motor_place(mo, READ_ONCE(mb->place_urad[m]));
		mo->calibrated = zero != 0;
		mo->mre_fault = f->mre_fault & bit;
		sim_motor_command(mo, sim_mb_target(c.position[m], mb->hand[m], tz, zero),
				  (s32)c.hardness[m] * 1000);
		sim_mb_move(mb, m, dt);
		hot_mc = min_t(u32, READ_ONCE(f->hot_mc), SIM_TEMP_HOT_MAX_MC);
		if ((f->hot & bit) && mo->temp_mc < hot_mc)
			mo->temp_mc = hot_mc;
		st.angle[m] = mb->hand[m] ? sim_hand_permil(mo) :
			      dcm_mb_mre_angle(sim_mre_count(tz, mo->pos_urad), zero);
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
 * The configuration structure: each motor's jointZeroPosition. Its ack
 * (sim_mb_config_status()) is the host-side board simulator's too.
 */
static u8 sim_mb_config(struct sim_board *b, const struct dcm_rs485_frame *frame, u8 bid)
{
	struct sim_mb *mb = container_of(b, struct sim_mb, board);
	struct dcm_mb_config cfg;
	u8 status = sim_mb_config_status(frame, bid, &cfg);

	if (status != DCM_MB_CONFIG_OK)
		return status;
	mb->configured = true;
	mb->zero[0] = cfg.motor[0].zero;
	mb->zero[1] = cfg.motor[1].zero;
	return DCM_MB_CONFIG_OK;
}

static void sim_mb_chain_reset(struct sim_board *b)
{
	struct sim_mb *mb = container_of(b, struct sim_mb, board);

	mb->configured = false;
	memset(mb->zero, 0, sizeof(mb->zero));
}

/* What its motors draw. */
static s32 sim_mb_current_ma(struct sim_board *b)
{
	struct sim_mb *mb = container_of(b, struct sim_mb, board);
	s32 ma = 0;
	int m;

	for (m = 0; m < DCM_MB_MOTORS; m++)
		ma += READ_ONCE(mb->motor[m].current_ma);
	return ma;
}

static const struct sim_board_ops sim_mb_ops = {
	.rs485_type = DCM_BOARD_MOTOR,
	.struct_version = 1,
	.slot = sim_mb_slot,
	.config = sim_mb_config,
	.chain_reset = sim_mb_chain_reset,
	.current_ma = sim_mb_current_ma,
};

/* ---- joints: where they are, their stops, their MRE ---- */

/* An outside force puts the joint there at its board's next cycle. */
static void sim_joint_place(struct sim_joint_knob *k, s32 urad)
{
	struct sim_mb *mb = k->mb;

	WRITE_ONCE(mb->place_urad[k->joint->motor], urad);
	/* The angle before the flag: pairs with the xchg() of sim_mb_slot(). */
	smp_store_release(&mb->place[k->joint->motor], 1);
}

static int sim_joint_pos_get(void *data, u64 *val)
{
	struct sim_joint_knob *k = data;

	*val = (u64)(s64)(READ_ONCE(k->mb->motor[k->joint->motor].pos_urad) / 1000);
	return 0;
}

static int sim_joint_pos_set(void *data, u64 val)
{
	s64 v = (s64)val;

	if (v < S32_MIN / 1000 || v > S32_MAX / 1000)
		return -ERANGE;
	sim_joint_place(data, (s32)v * 1000);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(sim_joint_pos_fops, sim_joint_pos_get, sim_joint_pos_set,
				"%lld\n");

static ssize_t sim_joint_push_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	static const char *const stops[] = { "min", "max" };
	struct sim_joint_knob *k = file->private_data;
	char buf[8];
	int i;

	i = sim_debugfs_get_string(ubuf, count, ppos, buf, sizeof(buf));
	if (i)
		return i;
	i = sysfs_match_string(stops, buf);
	if (i < 0)
		return i;
	sim_joint_place(k, i ? k->joint->max_urad : k->joint->min_urad);
	*ppos += count;
	return count;
}

static const struct file_operations sim_joint_push_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_joint_push_write,
	.llseek = default_llseek,
};

static int sim_joint_mre_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;
	struct sim_mb *mb = k->mb;

	seq_printf(m, "%u\n", sim_mre_count(mb->true_zero[k->joint->motor],
					    READ_ONCE(mb->motor[k->joint->motor].pos_urad)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_mre);

static int sim_joint_true_zero_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;

	seq_printf(m, "%u\n", k->joint->true_zero);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_true_zero);

static int sim_joint_stops_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;

	seq_printf(m, "%d %d\n", k->joint->min_urad, k->joint->max_urad);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_stops);

static void sim_motor_debugfs(struct dcm_sim *sim, struct sim_motors *mots)
{
	struct dentry *d, *sub;
	char name[16];
	int b, i;

	for (b = 0; b < SIM_RS485_BUSES; b++) {
		struct sim_motor_faults *f = &mots->faults[b];

		snprintf(name, sizeof(name), "rs485-%d", b + 1);
		d = sim_debugfs_dir(sim, name);
		sim_debugfs_u32(sim, "mre_fault", d, &f->mre_fault, SIM_BIDS_MASK, true);
		sim_debugfs_u32(sim, "hot", d, &f->hot, SIM_BIDS_MASK, true);
		sim_debugfs_u32(sim, "hot_mc", d, &f->hot_mc, SIM_HOT_MC_MAX, false);
	}

	d = debugfs_create_dir("joints", sim->debugfs);
	for (i = 0; i < ARRAY_SIZE(sim_joints); i++) {
		struct sim_joint_knob *k = &mots->joint_knob[i];

		sub = debugfs_create_dir(k->joint->name, d);
		debugfs_create_file_unsafe("position_mrad", 0644, sub, k, &sim_joint_pos_fops);
		debugfs_create_file("push", 0200, sub, k, &sim_joint_push_fops);
		debugfs_create_file("mre", 0444, sub, k, &sim_joint_mre_fops);
		debugfs_create_file("true_zero", 0444, sub, k, &sim_joint_true_zero_fops);
		debugfs_create_file("stops_urad", 0444, sub, k, &sim_joint_stops_fops);
	}
}

/**
 * sim_motor_add() - the motor boards at power-up
 * @sim: the body
 * @dev: its device
 *
 * Every motor is at rest within its stops, with its MRE's true zero; a
 * motor no joint uses has no stop and true zero 0. No board is configured.
 *
 * Return: 0 or -ENOMEM.
 */
int sim_motor_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_motors *mots;
	int b, i, m;

	BUILD_BUG_ON(ARRAY_SIZE(sim_joints) != DCM_SIM_JOINTS);
	mots = devm_kzalloc(dev, sizeof(*mots), GFP_KERNEL);
	if (!mots)
		return -ENOMEM;
	for (b = 0; b < SIM_RS485_BUSES; b++) {
		mots->faults[b].hot_mc = 80000;
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			struct sim_mb *mb = &mots->mb[b][i];

			/* The hand or foot board is at the place after the motor boards. */
			if (i == sim_motor_boards[b] || (i > sim_motor_boards[b] && !spare_boards))
				continue;

			for (m = 0; m < DCM_MB_MOTORS; m++)
				sim_motor_init(&mb->motor[m], 1200, 6000000, -SIM_HAND_STOP,
					       SIM_HAND_STOP);
			mb->faults = &mots->faults[b];
			mb->board.ops = &sim_mb_ops;
			mb->board.name = "MotorBoard";
			mb->board.bus = SIM_BUS_RS485;
			mb->board.index = b;
			mb->board.addr = i + 1;
			mb->joint[0] = -1;
			mb->joint[1] = -1;
			sim_board_add(sim, &mb->board);
		}
	}
	for (i = 0; i < ARRAY_SIZE(sim_joints); i++) {
		const struct sim_joint *j = &sim_joints[i];
		struct sim_mb *mb = &mots->mb[j->bus][j->bid - 1];

		if (j->hand)
			sim_hand_init(&mb->motor[j->motor]);
		else
			sim_motor_init(&mb->motor[j->motor], 1200, 6000000, j->min_urad,
				       j->max_urad);
		mb->hand[j->motor] = j->hand;
		mb->joint[j->motor] = i;
		mb->true_zero[j->motor] = j->true_zero;
		mots->joint_knob[i].mb = mb;
		mots->joint_knob[i].joint = j;
	}
	sim_motor_debugfs(sim, mots);
	return 0;
}
