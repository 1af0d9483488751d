// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - client supervision: what an open /dev/dcmN commanded, and the
 * watchdog a client may arm on its commands (DCM_IOC_WATCHDOG).
 *
 * A file remembers, by subdevice index, the actuators it commanded in the
 * running description. Armed, its watchdog wants a refresh (a successful
 * command through the file, or a kick) within the timeout; past it, or when
 * the file is closed armed, the safe action runs: HOLD drops every queued
 * command of those actuators, which then keep their value; RAMP does that
 * and takes every joint's hardness down to 0 over the ramp time. An event
 * DCM_EV_WATCHDOG tells the "events" group.
 *
 * The action runs in process context (a delayed work, or the release),
 * never in the cycle: it only changes actuator queues under their lock.
 * Locks: the controller's lock (for reading) first, then the watchdog's.
 */

#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_watchdog.h"
#include "core/dcm_runtime.h"
#include "core/dcm_time.h"

enum dcm_watchdog_state {
	DCM_WD_OFF,		/* not armed */
	DCM_WD_ARMED,		/* armed, waiting for refreshes */
	DCM_WD_FIRED,		/* the action ran; commands refused until re-armed */
};

static const char * const action_names[] = {
	[DCM_WATCHDOG_HOLD] = "hold",
	[DCM_WATCHDOG_RAMP] = "ramp stiffness down",
};

/* The action, with the controller's lock held for reading and @wd->lock. */
static void dcm_watchdog_fire(struct dcm_watchdog *wd, bool closed)
{
	struct dcm_controller *ctrl = wd->ctrl;
	struct dcm_runtime *rt;

	lockdep_assert_held(&ctrl->lock);
	lockdep_assert_held(&wd->lock);
	wd->state = DCM_WD_FIRED;
	if (ctrl->dead)
		return;
	rt = dcm_rt(ctrl);
	if (rt) {
		/* Indexes of a replaced description name nothing any more. */
		if (wd->generation == rt->generation)
			dcm_runtime_hold(rt, wd->touched);
		if (wd->action == DCM_WATCHDOG_RAMP)
			dcm_runtime_ramp_hardness(rt, dcm_time_ms(ctrl), wd->ramp_ms);
	}
	dev_notice_ratelimited(&ctrl->dev, "watchdog of pid %d fired (%s): %s\n", wd->pid,
			       closed ? "closed" : "timeout", action_names[wd->action]);
	dcm_event(ctrl, DCM_EV_WATCHDOG, NULL, wd->action, wd->pid,
		  "watchdog of pid %d fired (%s): %s", wd->pid, closed ? "closed" : "timeout",
		  action_names[wd->action]);
}

static void dcm_watchdog_expire(struct work_struct *work)
{
	struct dcm_watchdog *wd = container_of(to_delayed_work(work), struct dcm_watchdog, work);
	struct dcm_controller *ctrl = wd->ctrl;

	down_read(&ctrl->lock);
	mutex_lock(&wd->lock);
	/* A refresh that came meanwhile moved the deadline and queued us again. */
	if (wd->state == DCM_WD_ARMED && time_after_eq(jiffies, wd->deadline))
		dcm_watchdog_fire(wd, false);
	mutex_unlock(&wd->lock);
	up_read(&ctrl->lock);
}

/* A new deadline, with @wd->lock held and the watchdog armed. */
static void dcm_watchdog_refresh(struct dcm_watchdog *wd)
{
	unsigned long delay = msecs_to_jiffies(wd->timeout_ms);

	lockdep_assert_held(&wd->lock);
	wd->deadline = jiffies + delay;
	mod_delayed_work(system_wq, &wd->work, delay);
}

/**
 * dcm_watchdog_init() - a file's supervision, disarmed and knowing nothing
 * @wd: embedded in the file's state
 * @ctrl: the file's controller, held by the file
 */
void dcm_watchdog_init(struct dcm_watchdog *wd, struct dcm_controller *ctrl)
{
	memset(wd, 0, sizeof(*wd));
	wd->ctrl = ctrl;
	mutex_init(&wd->lock);
	INIT_DELAYED_WORK(&wd->work, dcm_watchdog_expire);
}

/**
 * dcm_watchdog_ioctl() - DCM_IOC_WATCHDOG: arm, re-arm, kick or disarm
 * @wd: the file's watchdog
 * @req: the request, copied in before the controller's lock was taken
 *
 * Context: an ioctl of a file open for writing, the controller's lock
 * held for reading.
 *
 * Return: 0; -EINVAL for a reserved field or unknown flag that is
 * not zero, a timeout out of bounds, an unknown action, a ramp time with
 * HOLD or past its bound, other fields with a kick or a disarm; -ENOENT
 * for a kick of a watchdog that is not armed; -ETIMEDOUT for a kick of one
 * that fired.
 */
long dcm_watchdog_ioctl(struct dcm_watchdog *wd, const struct dcm_ioc_watchdog *req)
{
	const struct dcm_ioc_watchdog arg = *req;
	long ret = 0;

	lockdep_assert_held(&wd->ctrl->lock);
	if (memchr_inv(arg.reserved, 0, sizeof(arg.reserved)) || arg.flags & ~DCM_WATCHDOG_F_KICK)
		return -EINVAL;
	if (arg.flags & DCM_WATCHDOG_F_KICK || !arg.timeout_ms) {
		if ((arg.flags && arg.timeout_ms) || arg.action || arg.ramp_ms)
			return -EINVAL;
	} else if (arg.timeout_ms < DCM_WATCHDOG_MIN_MS || arg.timeout_ms > DCM_WATCHDOG_MAX_MS ||
		   arg.action > DCM_WATCHDOG_ACTION_MAX ||
		   (arg.action == DCM_WATCHDOG_HOLD && arg.ramp_ms) ||
		   arg.ramp_ms > DCM_WATCHDOG_RAMP_MAX_MS) {
		return -EINVAL;
	}

	mutex_lock(&wd->lock);
	if (arg.flags & DCM_WATCHDOG_F_KICK) {
		if (wd->state == DCM_WD_ARMED)
			dcm_watchdog_refresh(wd);
		else
			ret = wd->state == DCM_WD_FIRED ? -ETIMEDOUT : -ENOENT;
	} else if (!arg.timeout_ms) {
		wd->state = DCM_WD_OFF;
		/* A run that already started finds it off. */
		cancel_delayed_work(&wd->work);
	} else {
		wd->state = DCM_WD_ARMED;
		wd->action = arg.action;
		wd->timeout_ms = arg.timeout_ms;
		wd->ramp_ms = arg.ramp_ms;
		wd->pid = task_tgid_nr(current);
		dcm_watchdog_refresh(wd);
	}
	mutex_unlock(&wd->lock);
	return ret;
}

/**
 * dcm_watchdog_cmd_begin() - a command through the file starts
 * @wd: the file's watchdog
 * @rt: the running state, or NULL
 *
 * Takes @wd->lock until dcm_watchdog_cmd_end(), so that a command and the
 * action never cross. Context: the controller's lock held for reading.
 *
 * Return: the bitmap where the command marks the subdevices it commands
 * (cleared first if it held another description's), or ERR_PTR(-ETIMEDOUT)
 * when the watchdog fired (the lock is then not held).
 */
unsigned long *dcm_watchdog_cmd_begin(struct dcm_watchdog *wd, const struct dcm_runtime *rt)
{
	lockdep_assert_held(&wd->ctrl->lock);
	mutex_lock(&wd->lock);
	if (wd->state == DCM_WD_FIRED) {
		mutex_unlock(&wd->lock);
		return ERR_PTR(-ETIMEDOUT);
	}
	if (rt && wd->generation != rt->generation) {
		bitmap_zero(wd->touched, DCM_MAX_SUBDEVICES);
		wd->generation = rt->generation;
	}
	return wd->touched;
}

/**
 * dcm_watchdog_cmd_end() - the command is done
 * @wd: the file's watchdog, its lock taken by dcm_watchdog_cmd_begin()
 * @done: the command succeeded: an armed watchdog is refreshed
 */
void dcm_watchdog_cmd_end(struct dcm_watchdog *wd, bool done)
{
	lockdep_assert_held(&wd->lock);
	if (done && wd->state == DCM_WD_ARMED)
		dcm_watchdog_refresh(wd);
	mutex_unlock(&wd->lock);
}

/**
 * dcm_watchdog_release() - the file is closed
 * @wd: its watchdog
 *
 * An armed watchdog runs its action now: the client is gone without
 * disarming it. Context: the file's release; may sleep.
 */
void dcm_watchdog_release(struct dcm_watchdog *wd)
{
	struct dcm_controller *ctrl = wd->ctrl;

	cancel_delayed_work_sync(&wd->work);
	down_read(&ctrl->lock);
	mutex_lock(&wd->lock);
	if (wd->state == DCM_WD_ARMED)
		dcm_watchdog_fire(wd, true);
	wd->state = DCM_WD_OFF;
	mutex_unlock(&wd->lock);
	up_read(&ctrl->lock);
	mutex_destroy(&wd->lock);
}
