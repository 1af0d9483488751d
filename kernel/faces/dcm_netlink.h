/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the files of the netlink face share: the family's helpers and
 * its request handlers. Core and boards know nothing of it.
 */
#ifndef _DCM_FACES_NETLINK_H
#define _DCM_FACES_NETLINK_H

#include <net/genetlink.h>

#include "core/dcm_internal.h"

/* dcm_netlink.c */
void *dcm_genlmsg_put_reply(struct sk_buff *msg, struct genl_info *info, u8 cmd);
void dcm_nl_set_err_msg(struct genl_info *info, const char *msg);
struct dcm_controller *dcm_nl_runtime_enter(struct genl_info *info, int attr,
					    struct dcm_runtime **rt);
void dcm_nl_runtime_leave(struct dcm_controller *ctrl);

/* dcm_config.c */
int dcm_nl_config_begin(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_add_device(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_add_subdevice(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_set_key(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_commit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_abort(struct sk_buff *skb, struct genl_info *info);
void dcm_config_drop_port(u32 portid);

/* dcm_nl_special.c */
extern const struct nla_policy dcm_calib_policy[DCM_A_CAL_MAX + 1];
extern const struct nla_policy dcm_special_policy[DCM_A_SP_MAX + 1];
int dcm_nl_calibrate(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_special(struct sk_buff *skb, struct genl_info *info);

#endif /* _DCM_FACES_NETLINK_H */
