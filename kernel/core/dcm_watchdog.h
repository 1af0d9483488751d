/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the watchdog of an open /dev/dcmN (dcm_watchdog.c): what the file
 * commanded, and what happens to it when its owner stops refreshing.
 */
#ifndef _DCM_WATCHDOG_H
#define _DCM_WATCHDOG_H

#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/dcm.h>

struct dcm_controller;
struct dcm_runtime;

/**
 * struct dcm_watchdog - what an open /dev/dcmN commanded, and its watchdog
 * @ctrl: the controller, held by the file
 * @lock: guards the rest; taken after @ctrl->lock
 * @work: runs the action when the deadline passes
 * @state: enum dcm_watchdog_state
 * @action: enum dcm_watchdog_action
 * @timeout_ms: the time allowed between two refreshes
 * @ramp_ms: how long DCM_WATCHDOG_RAMP takes the hardness down
 * @deadline: jiffies by which a refresh must come
 * @pid: thread-group id of the process that armed it
 * @generation: the description @touched holds indexes of
 * @touched: subdevice indexes of the actuators this file commanded
 */
struct dcm_watchdog {
	struct dcm_controller *ctrl;
	struct mutex lock;		/* the rest */
	struct delayed_work work;
	u8 state;
	u8 action;
	u32 timeout_ms;
	u32 ramp_ms;
	unsigned long deadline;
	pid_t pid;
	u32 generation;
	DECLARE_BITMAP(touched, DCM_MAX_SUBDEVICES);
};

void dcm_watchdog_init(struct dcm_watchdog *wd, struct dcm_controller *ctrl);
long dcm_watchdog_ioctl(struct dcm_watchdog *wd, const struct dcm_ioc_watchdog *arg);
unsigned long *dcm_watchdog_cmd_begin(struct dcm_watchdog *wd, const struct dcm_runtime *rt);
void dcm_watchdog_cmd_end(struct dcm_watchdog *wd, bool done);
void dcm_watchdog_release(struct dcm_watchdog *wd);

#endif /* _DCM_WATCHDOG_H */
