/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the faces (the controller's device, the char device, the key
 * tree, netlink) share with each other and with the module's entry points.
 */
#ifndef _DCM_FACES_H
#define _DCM_FACES_H

#include <linux/fs.h>
#include <linux/types.h>
#include <linux/uidgid.h>

struct dcm_controller;

/* dcm_chrdev.c: /dev/dcmN */
int dcm_chrdev_init(void);
void dcm_chrdev_exit(void);
dev_t dcm_chrdev_devt(int index);
extern const struct file_operations dcm_fops;

/* dcm_device.c */
kgid_t dcm_command_gid(void);
int dcm_device_init(void);
void dcm_device_exit(void);
int dcm_device_add(struct dcm_controller *ctrl);
void dcm_device_del(struct dcm_controller *ctrl);

/* dcm_sysfs.c */
void dcm_sysfs_init(void);

/*
 * dcm_config.c: before dcm_netlink_init(), and exits after it; a
 * controller's transaction state with its device (dcm_device_add(),
 * dcm_device_del())
 */
int dcm_config_init(void);
void dcm_config_exit(void);
int dcm_config_add(struct dcm_controller *ctrl);
void dcm_config_del(struct dcm_controller *ctrl);

/* dcm_nl_family.c: the generic netlink family */
int dcm_netlink_init(void);
void dcm_netlink_exit(void);

#endif /* _DCM_FACES_H */
