/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - robot bodies: what gives a controller its buses. A body comes from
 * firmware (dcm_body_fw.c) or from configfs (dcm_body_configfs.c); both
 * register it here (dcm_body.c), which creates its controller in the core,
 * adds its faces, claims its transports and starts its cycle.
 */
#ifndef _DCM_BODY_H
#define _DCM_BODY_H

#include <linux/types.h>

#include "core/dcm_bus.h"

struct dcm_controller;
struct device;

/* The most buses a body has: the NAO's are seven. */
#define DCM_BODY_MAX_BUSES	16

/* dcm_body.c */
struct dcm_controller *dcm_body_register(struct device *parent, const char *driver, u32 flags,
					 const struct dcm_bus_ref *refs, unsigned int n);
void dcm_body_unregister(struct dcm_controller *ctrl);

/* dcm_body_fw.c */
int dcm_body_fw_init(void);
void dcm_body_fw_exit(void);

/* dcm_body_configfs.c */
int dcm_body_configfs_init(void);
void dcm_body_configfs_exit(void);

#endif /* _DCM_BODY_H */
