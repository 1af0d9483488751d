/* SPDX-License-Identifier: GPL-2.0 */
/* Generated from Documentation/netlink/specs/dcm.yaml by scripts/dcm-nl-gen.py: do not edit. */
#ifndef _DCM_NL_GEN_H
#define _DCM_NL_GEN_H

#include <net/genetlink.h>
#include <linux/dcm.h>

extern const struct genl_ops dcm_nl_ops[10];
extern const struct genl_multicast_group dcm_nl_mcgrps[1];

/* The multicast groups, by their index in dcm_nl_mcgrps. */
enum {
	DCM_NLGRP_EVENTS,
};

int dcm_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_get_info_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int dcm_nl_config_begin_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_add_device_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_add_subdevice_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_set_key_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_commit_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_config_abort_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_calibrate_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_special_doit(struct sk_buff *skb, struct genl_info *info);
int dcm_nl_get_events_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _DCM_NL_GEN_H */
