/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the faces (the controller's device, the char device, the key
 * tree, netlink) share with each other and with the module's entry points.
 */
#ifndef _DCM_FACES_H
#define _DCM_FACES_H

#include <linux/uidgid.h>

struct dcm_controller;

/* dcm_device.c */
kgid_t dcm_command_gid(void);
int dcm_device_init(void);
void dcm_device_exit(void);
int dcm_device_add(struct dcm_controller *ctrl);
void dcm_device_del(struct dcm_controller *ctrl);

/* dcm_sysfs.c */
void dcm_sysfs_init(void);

#endif /* _DCM_FACES_H */
