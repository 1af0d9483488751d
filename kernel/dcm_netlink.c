// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the generic netlink family "dcm".
 *
 * Documentation/netlink/specs/dcm.yaml describes it.
 */

#include <net/genetlink.h>

#include "dcm_internal.h"

static const struct nla_policy dcm_get_info_policy[DCM_A_INFO_MAX + 1] = {
	[DCM_A_INFO_INDEX] = NLA_POLICY_MAX(NLA_U32, DCM_MAX_CONTROLLERS - 1),
};

static const struct genl_multicast_group dcm_mcgrps[] = {
	{ .name = DCM_GENL_MCGRP_EVENTS, },
};

static struct genl_family dcm_genl_family;

static int dcm_put_info(struct sk_buff *skb, const struct dcm_controller *ctrl)
{
	struct dcm_ioc_info info;

	dcm_fill_info(ctrl, &info);
	if (nla_put_u32(skb, DCM_A_INFO_INDEX, info.index) ||
	    nla_put_string(skb, DCM_A_INFO_NAME, info.name) ||
	    nla_put_string(skb, DCM_A_INFO_DRIVER, info.driver) ||
	    nla_put_u32(skb, DCM_A_INFO_ABI_VERSION, info.abi_version) ||
	    nla_put_u32(skb, DCM_A_INFO_PERIOD_US, info.period_us) ||
	    nla_put_u32(skb, DCM_A_INFO_TIME_MS, info.time_ms) ||
	    nla_put_u32(skb, DCM_A_INFO_N_DEVICES, info.n_devices) ||
	    nla_put_u32(skb, DCM_A_INFO_N_SUBDEVICES, info.n_subdevices) ||
	    nla_put_u32(skb, DCM_A_INFO_FLAGS, info.flags))
		return -EMSGSIZE;
	return 0;
}

/* Put one controller's info as a message; called with ctrl->lock read-held. */
static int dcm_fill_info_msg(struct sk_buff *skb, const struct dcm_controller *ctrl,
			     u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &dcm_genl_family, flags, DCM_CMD_GET_INFO);
	if (!hdr)
		return -EMSGSIZE;
	if (dcm_put_info(skb, ctrl)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int dcm_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl;
	struct sk_buff *msg;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_INFO_INDEX))
		return -EINVAL;

	ctrl = dcm_controller_get(nla_get_u32(info->attrs[DCM_A_INFO_INDEX]));
	if (!ctrl) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_INFO_INDEX],
				    "no such dcm controller");
		return -ENODEV;
	}

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out_put;
	}

	down_read(&ctrl->lock);
	ret = ctrl->dead ? -ENODEV :
	      dcm_fill_info_msg(msg, ctrl, info->snd_portid, info->snd_seq, 0);
	up_read(&ctrl->lock);
	if (ret) {
		nlmsg_free(msg);
		goto out_put;
	}
	ret = genlmsg_reply(msg, info);

out_put:
	dcm_controller_put(ctrl);
	return ret;
}

static int dcm_nl_get_info_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct dcm_controller *ctrl;
	int ret = 0;

	while ((ctrl = dcm_controller_get_next(&index))) {
		down_read(&ctrl->lock);
		if (!ctrl->dead)
			ret = dcm_fill_info_msg(skb, ctrl, NETLINK_CB(cb->skb).portid,
						cb->nlh->nlmsg_seq, NLM_F_MULTI);
		up_read(&ctrl->lock);
		dcm_controller_put(ctrl);
		if (ret)
			break;
		index++;
	}
	cb->args[0] = index;

	/* A full skb is sent and the dump resumes at the controller it lacked. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

static const struct genl_ops dcm_genl_ops[] = {
	{
		.cmd = DCM_CMD_GET_INFO,
		.doit = dcm_nl_get_info_doit,
		.dumpit = dcm_nl_get_info_dumpit,
		.policy = dcm_get_info_policy,
		.maxattr = DCM_A_INFO_MAX,
	},
};

static struct genl_family dcm_genl_family __ro_after_init = {
	.name = DCM_GENL_NAME,
	.version = DCM_GENL_VERSION,
	.netnsok = false,
	.module = THIS_MODULE,
	.ops = dcm_genl_ops,
	.n_ops = ARRAY_SIZE(dcm_genl_ops),
	.resv_start_op = DCM_CMD_GET_INFO + 1,
	.mcgrps = dcm_mcgrps,
	.n_mcgrps = ARRAY_SIZE(dcm_mcgrps),
};

/**
 * dcm_netlink_init() - register the generic netlink family "dcm"
 *
 * Return: 0 or a negative errno.
 */
int dcm_netlink_init(void)
{
	return genl_register_family(&dcm_genl_family);
}

/**
 * dcm_netlink_exit() - unregister the family
 */
void dcm_netlink_exit(void)
{
	genl_unregister_family(&dcm_genl_family);
}
