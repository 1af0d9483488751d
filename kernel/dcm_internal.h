/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the core's files share with each other, and nothing else.
 */
#ifndef _DCM_INTERNAL_H
#define _DCM_INTERNAL_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/rwsem.h>
#include <linux/dcm.h>

#define DCM_MAX_CONTROLLERS	16

/**
 * struct dcm_controller - one robot: its device, char device and state
 * @dev: the dcmN device in the "dcm" class; its release frees the controller
 * @cdev: /dev/dcmN
 * @index: N
 * @driver: name of the body driver that registered it
 * @flags: DCM_INFO_F_* that the body driver gave
 * @period_us: cycle period in microseconds
 * @epoch: ktime at which DCM time was @time_origin_ms
 * @time_origin_ms: DCM time at @epoch
 * @lock: held for reading by every user-space entry point, for writing
 *	by unregistration, which sets @dead
 * @dead: the body driver is gone; entry points answer -ENODEV
 */
struct dcm_controller {
	struct device dev;
	struct cdev cdev;
	int index;
	char driver[DCM_NAME_LEN];
	u32 flags;
	u32 period_us;
	ktime_t epoch;
	u32 time_origin_ms;
	struct rw_semaphore lock;
	bool dead;
};

static inline struct dcm_controller *to_dcm_controller(struct device *dev)
{
	return container_of(dev, struct dcm_controller, dev);
}

/* dcm_core.c */
u32 dcm_time_ms(const struct dcm_controller *ctrl);
void dcm_fill_info(const struct dcm_controller *ctrl, struct dcm_ioc_info *info);
struct dcm_controller *dcm_controller_get(unsigned int index);
struct dcm_controller *dcm_controller_get_next(unsigned long *index);
void dcm_controller_put(struct dcm_controller *ctrl);

/* dcm_chrdev.c */
int dcm_chrdev_init(void);
void dcm_chrdev_exit(void);
dev_t dcm_chrdev_devt(int index);
extern const struct file_operations dcm_fops;

/* dcm_netlink.c */
int dcm_netlink_init(void);
void dcm_netlink_exit(void);

#endif /* _DCM_INTERNAL_H */
