// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - joint calibration, into the chest board's store.
 *
 * dcm_calibrate() (DCM_CMD_CALIBRATE, which the netlink face parses)
 * measures a joint's zero (from what its motor board reports at a known
 * angle) or takes it as given, writes it to the chest board's store
 * (dcm_chest_store_zero()), then sets the key and sends the board its
 * configuration again. A store that cannot be written leaves the key as it
 * was. Process context, outside the cycle: it waits for the motor board's
 * replies.
 */

#include <linux/jiffies.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "core/dcm_controller.h"
#include "core/dcm_describe.h"
#include "core/dcm_events.h"
#include "boards/dcm_board_table.h"
#include "boards/dcm_chest.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_rs485.h"
#include "model/dcm_calib.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "wire/dcm_wire_motor.h"

/*
 * A motor board that does not answer: REPLY_NACKS exchanges with no reply
 * (200 ms at the 10 ms period). The wait counts the cycle's exchanges, not
 * the clock, so that a cycle held back (a busy host stalling the guest)
 * delays the answer instead of making one up; REPLY_WAIT_MS bounds it for
 * a cycle that stopped exchanging with the board.
 */
#define REPLY_NACKS	20
#define REPLY_WAIT_MS	5000

/* The MRE angle a motor board reports: 2 pi / 4096 rad, Gain 0.0015339808. */
#define MRE_GAIN_MIN	1533
#define MRE_GAIN_MAX	1535

/* A message for the user of a failed calibration. */
static void why_set(const char **why, const char *msg)
{
	*why = msg;
}

/**
 * struct joint - the joint a calibration is about
 * @dev: its motor board
 * @pos: its JointPosition subdevice
 * @slot: its motor on the board, SubDeviceNumber - 1
 * @store: its place in the store's record
 * @name: its name, "HeadYaw"
 */
struct joint {
	u32 dev;
	u32 pos;
	u32 slot;
	int store;
	char name[DCM_MAX_NAME_LEN];
};

/*
 * A joint by name ("HeadYaw") or by any subdevice of it ("HeadYaw/Position/
 * Sensor", with or without "Device/SubDeviceList/"). Return: 0, -ENOENT for
 * no such joint, -EINVAL for one that has no motor with an MRE of its own
 * on a motor board of an RS485 bus.
 */
static int find_joint(const struct dcm_model *m, const char *name, struct joint *j,
		      const char **why)
{
	static const char suffix[] = "/Position/Sensor";
	const struct dcm_subdevice *s;
	char path[DCM_MAX_NAME_LEN + sizeof(suffix)];
	u32 index = 0;
	size_t len;
	int ret, ps;
	u8 target;

	if (strchr(name, '/')) {
		ret = dcm_model_lookup(m, name, &target, &index);
		if (!ret && target != DCM_TARGET_SUBDEVICE)
			ret = -ENOENT;
	} else {
		snprintf(path, sizeof(path), "%s%s", name, suffix);
		ret = dcm_model_lookup(m, path, &target, &index);
		if (!ret && target != DCM_TARGET_SUBDEVICE)
			ret = -ENOENT;
	}
	if (ret) {
		why_set(why, "no such joint in the robot description");
		return -ENOENT;
	}
	s = &m->subdevices[index];
	ps = dcm_chest_joint_sub(m, s->device, s->number, true);
	if (ps < 0 ||
	    s->number < 1 || s->number > DCM_MB_MOTORS) {
		why_set(why, "not a joint of a motor board with a position sensor");
		return -EINVAL;
	}
	j->dev = s->device;
	j->pos = ps;
	j->slot = s->number - 1;
	j->store = dcm_chest_store_index(m, s->device, s->number);
	if (j->store < 0) {
		why_set(why,
			"the joint has no motor (MotorNumber) on RS485-1..4, Address 1..8: no place in the chest store");
		return -EINVAL;
	}
	strscpy(j->name, m->subdevices[ps].name, sizeof(j->name));
	len = strlen(j->name);
	if (len > sizeof(suffix) - 1 && !strcmp(j->name + len - (sizeof(suffix) - 1), suffix))
		j->name[len - (sizeof(suffix) - 1)] = '\0';
	return 0;
}

static bool answered_since(struct dcm_runtime *rt, u32 dev, u64 ack0)
{
	u64 ack, nack;

	dcm_runtime_counters(rt, dev, &ack, &nack);
	return ack > ack0;
}

/* It answered since @ack0, or was asked REPLY_NACKS times in vain since @nack0. */
static bool answered_or_silent(struct dcm_runtime *rt, u32 dev, u64 ack0, u64 nack0)
{
	u64 ack, nack;

	dcm_runtime_counters(rt, dev, &ack, &nack);
	return ack > ack0 || nack >= nack0 + REPLY_NACKS;
}

/*
 * The MRE count of a joint now: from the board's next reply (relative to the
 * zero the board was configured with). Return: 0, -EIO if the board does
 * not answer or has no configuration, -EINTR.
 */
static int read_raw(struct dcm_controller *ctrl, struct dcm_runtime *rt, const struct joint *j,
		    u16 *raw, const char **why)
{
	u64 ack0, nack0;
	long left;

	dcm_runtime_counters(rt, j->dev, &ack0, &nack0);
	left = wait_event_interruptible_timeout(ctrl->cycle.wq,
						answered_or_silent(rt, j->dev, ack0, nack0),
						msecs_to_jiffies(REPLY_WAIT_MS));
	if (left < 0)
		return -EINTR;
	if (!answered_since(rt, j->dev, ack0)) {
		why_set(why, "the joint's motor board does not answer");
		return -EIO;
	}
	if (rt->dev[j->dev].type->joints->mre(rt, j->dev, j->slot, raw)) {
		why_set(why,
			"the joint's motor board has no configuration: run the special command chain");
		return -EIO;
	}
	return 0;
}

/* Wait until the board answered @n more times, or is deemed lost. */
static void wait_replies(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 dev, u32 n)
{
	u64 ack0, nack0;
	u32 waited;

	dcm_runtime_counters(rt, dev, &ack0, &nack0);
	/* The cycle wakes interruptible sleepers only: a look every 10 ms. */
	for (waited = 0; waited < REPLY_WAIT_MS &&
	     !answered_or_silent(rt, dev, ack0 + n - 1, nack0); waited += 10)
		wait_event_timeout(ctrl->cycle.wq, answered_or_silent(rt, dev, ack0 + n - 1, nack0),
				   msecs_to_jiffies(10));
}

/*
 * Hold a joint as uncalibrated, from the next cycle on; or let it go once
 * its sensor read in the new frame and a cycle had its command follow it
 * (two replies: the cycle's rules run before its exchange).
 */
static void hold(struct dcm_controller *ctrl, struct dcm_runtime *rt, const struct joint *j,
		 bool on)
{
	const struct dcm_board_joints *joints = rt->dev[j->dev].type->joints;

	if (on) {
		joints->hold(rt, j->dev, j->slot, true);
		wait_replies(ctrl, rt, j->dev, 1);
	} else {
		wait_replies(ctrl, rt, j->dev, 2);
		joints->hold(rt, j->dev, j->slot, false);
	}
}

static const char *const stop_names[] = {
	[DCM_CALIB_HERE] = "here", [DCM_CALIB_MIN] = "min", [DCM_CALIB_MAX] = "max",
	[DCM_CALIB_SET] = "set",
};

/**
 * dcm_calibrate() - calibrate a joint's MRE
 * @ctrl: the controller
 * @rt: its running state, which stays while the job runs
 * @name: the joint ("HeadYaw"), or any subdevice of it
 * @stop: enum dcm_calib_stop
 * @zero: the zero given, for DCM_CALIB_SET only
 * @res: what was done, on success
 * @why: on failure, set to a message for the user (a literal), or left
 *
 * HERE, MIN and MAX measure: the joint is at 0 rad, or against the
 * mechanical stop at its position sensor's Min or Max, and its MRE count
 * (from the board's next reply) gives the zero (dcm_calib_zero()). SET
 * takes @zero (0 clears the calibration: hardness is then held at 0). The
 * zero goes to the chest board's store, then to the jointZeroPosition key,
 * then to the motor board in its configuration; DCM_EV_CALIBRATION is
 * posted. Waits for the board's replies, up to REPLY_WAIT_MS at each step,
 * holding no lock. Context: a job of @ctrl (dcm_describe_job()), which
 * orders it with the other users of the chest store.
 *
 * Return: 0; -ENOENT for an unknown joint; -EINVAL for a joint without an
 * MRE angle of its own on a motor board; -EIO when the board does not
 * answer (nothing is changed), when the store cannot be written (nothing
 * is changed), or when the board does not take its configuration (the
 * calibration is stored and set); -EINTR.
 */
int dcm_calibrate(struct dcm_controller *ctrl, struct dcm_runtime *rt, const char *name,
		  u8 stop, u16 zero, struct dcm_calib_result *res, const char **why)
{
	union dcm_value *key;
	struct joint j;
	u16 raw = 0, previous;
	s64 angle = 0;
	int ret;

	lockdep_assert(dcm_describe_in_job(ctrl));
	ret = find_joint(rt->model, name, &j, why);
	if (ret)
		return ret;
	key = dcm_board_sub_key(rt->model, j.pos, "jointZeroPosition");
	if (!key)
		return -EINVAL;
	previous = READ_ONCE(key->num);

	if (stop != DCM_CALIB_SET) {
		s64 gain = dcm_model_gain(&rt->model->subdevices[j.pos]);

		if (gain < MRE_GAIN_MIN || gain > MRE_GAIN_MAX) {
			why_set(why,
				"the joint's position sensor is no MRE angle (Gain 2*pi/4096): calibrate it with STOP set");
			return -EINVAL;
		}
		if (stop == DCM_CALIB_MIN)
			angle = rt->model->subdevices[j.pos].min;
		else if (stop == DCM_CALIB_MAX)
			angle = rt->model->subdevices[j.pos].max;
	}
	/* The board must answer, whatever the stop: it takes the zero next. */
	ret = read_raw(ctrl, rt, &j, &raw, why);
	if (ret)
		return ret;
	if (stop != DCM_CALIB_SET && dcm_calib_zero(raw, angle, &zero))
		dev_info(&ctrl->dev, "%s: zero at count 0 (not calibrated), taken as 1\n", j.name);

	ret = dcm_chest_store_zero(ctrl, rt->model, j.store, j.name, zero, why);
	if (ret)
		return ret;

	/*
	 * The joint's position command is in the old zero's frame: hold the
	 * joint soft, its command following its sensor, until the board works
	 * in the new frame and the command was taken from it.
	 */
	hold(ctrl, rt, &j, true);
	WRITE_ONCE(key->num, zero);
	dev_info(&ctrl->dev, "%s calibrated (%s): jointZeroPosition %u, was %u\n", j.name,
		 stop_names[stop], zero, previous);
	dcm_event(ctrl, DCM_EV_CALIBRATION, j.name, stop, zero,
		  "%s: jointZeroPosition %u (was %u), %s", j.name, zero, previous,
		  stop_names[stop]);

	ret = dcm_board_configure(rt, j.dev);
	hold(ctrl, rt, &j, false);
	if (ret) {
		why_set(why,
			"calibration stored and set, but the motor board did not take its configuration");
		return -EIO;
	}
	strscpy(res->joint, j.name, sizeof(res->joint));
	res->zero = zero;
	res->previous = previous;
	res->raw = raw;
	return 0;
}
