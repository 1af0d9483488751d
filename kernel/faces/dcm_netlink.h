/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the files of the netlink face share: the family's helpers;
 * its request handlers are declared by the generated dcm_nl_gen.h, and the
 * family is dcm_nl_family.c's (dcm_netlink_init(), dcm_faces.h). Core and
 * boards know nothing of it.
 */
#ifndef _DCM_FACES_NETLINK_H
#define _DCM_FACES_NETLINK_H

#include <net/genetlink.h>

#include "faces/dcm_nl_gen.h"

struct dcm_controller;
struct dcm_runtime;

/* dcm_netlink.c */
void *dcm_genlmsg_put_reply(struct sk_buff *msg, struct genl_info *info, u8 cmd);
void dcm_nl_set_err_msg(struct genl_info *info, const char *msg);
int dcm_nl_runtime_job(struct genl_info *info, int attr,
		       int (*run)(struct dcm_controller *ctrl, struct dcm_runtime *rt, void *arg),
		       void *arg);
int dcm_nl_start(struct genl_family *family);
void dcm_nl_stop(void);

#endif /* _DCM_FACES_NETLINK_H */
