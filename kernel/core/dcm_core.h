/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the core's entry (dcm_core.c): controllers created, started,
 * stopped and given back, and their registry by index.
 */
#ifndef _DCM_CORE_H
#define _DCM_CORE_H

#include <linux/types.h>

struct dcm_controller;
struct dcm_ioc_info;
struct device;

#define DCM_MAX_CONTROLLERS	16

int dcm_core_init(void);
void dcm_core_exit(void);
struct dcm_controller *dcm_controller_create(struct device *parent, const char *driver,
					     u32 flags);
void dcm_controller_discard(struct dcm_controller *ctrl);
int dcm_controller_start(struct dcm_controller *ctrl);
void dcm_controller_stop(struct dcm_controller *ctrl);
const char *dcm_quote(char *buf, size_t size, const char *s);
void dcm_fill_info(const struct dcm_controller *ctrl, struct dcm_ioc_info *info);
struct dcm_controller *dcm_controller_get(unsigned int index);
struct dcm_controller *dcm_controller_get_next(unsigned long *index);
void dcm_controller_put(struct dcm_controller *ctrl);

#endif /* _DCM_CORE_H */
