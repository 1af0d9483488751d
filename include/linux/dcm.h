/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - Device Communication Manager: the API that body drivers use.
 *
 * A body driver (the real robot's bus drivers, or dcm_sim) registers one
 * controller per robot. The dcm core gives it the device dcmN in the "dcm"
 * class, the character device /dev/dcmN and a place in the generic netlink
 * family "dcm".
 */
#ifndef _LINUX_DCM_H
#define _LINUX_DCM_H

#include <linux/types.h>
#include <uapi/linux/dcm.h>

struct device;
struct dcm_controller;

struct dcm_controller *dcm_controller_register(struct device *parent,
					       const char *driver, u32 flags);
void dcm_controller_unregister(struct dcm_controller *ctrl);

#endif /* _LINUX_DCM_H */
