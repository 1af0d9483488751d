// SPDX-License-Identifier: GPL-2.0
/*
 * Generated from Documentation/netlink/specs/dcm.yaml by scripts/dcm-nl-gen.py: do not edit.
 *
 * One policy per operation: an attribute its request does not list is
 * refused, as unknown (EINVAL).
 */

#include "faces/dcm_nl_gen.h"

/* DCM_CMD_GET_INFO */
static const struct nla_policy dcm_get_info_nl_policy[DCM_A_INFO_INDEX + 1] = {
	[DCM_A_INFO_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* DCM_CMD_CONFIG_BEGIN */
static const struct nla_policy dcm_config_begin_nl_policy[DCM_A_CFG_INDEX + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* DCM_CMD_CONFIG_ADD_DEVICE */
static const struct nla_policy dcm_config_add_device_nl_policy[DCM_A_CFG_ADDRESS + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
	[DCM_A_CFG_NAME] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_TYPE] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_BUS] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_ADDRESS] = NLA_POLICY_MAX(NLA_U32, 255),
};

/* DCM_CMD_CONFIG_ADD_SUBDEVICE */
static const struct nla_policy dcm_config_add_subdevice_nl_policy[DCM_A_CFG_NUMBER + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
	[DCM_A_CFG_NAME] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_TYPE] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_DEVICE] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_NUMBER] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
};

/* DCM_CMD_CONFIG_SET_KEY */
static const struct nla_policy dcm_config_set_key_nl_policy[DCM_A_CFG_VALUE_DEN + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
	[DCM_A_CFG_NAME] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CFG_KIND] = NLA_POLICY_RANGE(NLA_U8, DCM_KEY_KIND_INT, DCM_KEY_KIND_MAX),
	[DCM_A_CFG_VALUE_INT] = { .type = NLA_S64, },
	[DCM_A_CFG_VALUE_STRING] = { .type = NLA_NUL_STRING, .len = 255, },
	[DCM_A_CFG_VALUE_DEN] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* DCM_CMD_CONFIG_COMMIT */
static const struct nla_policy dcm_config_commit_nl_policy[DCM_A_CFG_INDEX + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* DCM_CMD_CONFIG_ABORT */
static const struct nla_policy dcm_config_abort_nl_policy[DCM_A_CFG_INDEX + 1] = {
	[DCM_A_CFG_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
};

/* DCM_CMD_CALIBRATE */
static const struct nla_policy dcm_calibrate_nl_policy[DCM_A_CAL_ZERO + 1] = {
	[DCM_A_CAL_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
	[DCM_A_CAL_JOINT] = { .type = NLA_NUL_STRING, .len = 127, },
	[DCM_A_CAL_STOP] = NLA_POLICY_MAX(NLA_U8, DCM_CALIB_STOP_MAX),
	[DCM_A_CAL_ZERO] = NLA_POLICY_MAX(NLA_U32, 4095),
};

/* DCM_CMD_SPECIAL */
static const struct nla_policy dcm_special_nl_policy[DCM_A_SP_COMMAND + 1] = {
	[DCM_A_SP_INDEX] = NLA_POLICY_MAX(NLA_U32, 15),
	[DCM_A_SP_COMMAND] = NLA_POLICY_MAX(NLA_U32, DCM_SPECIAL_MAX),
};

/* The operations, in the spec's order. */
const struct genl_ops dcm_nl_ops[10] = {
	{
		.cmd = DCM_CMD_GET_INFO,
		.doit = dcm_nl_get_info_doit,
		.dumpit = dcm_nl_get_info_dumpit,
		.policy = dcm_get_info_nl_policy,
		.maxattr = DCM_A_INFO_INDEX,
	},
	{
		.cmd = DCM_CMD_CONFIG_BEGIN,
		.doit = dcm_nl_config_begin_doit,
		.policy = dcm_config_begin_nl_policy,
		.maxattr = DCM_A_CFG_INDEX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CONFIG_ADD_DEVICE,
		.doit = dcm_nl_config_add_device_doit,
		.policy = dcm_config_add_device_nl_policy,
		.maxattr = DCM_A_CFG_ADDRESS,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CONFIG_ADD_SUBDEVICE,
		.doit = dcm_nl_config_add_subdevice_doit,
		.policy = dcm_config_add_subdevice_nl_policy,
		.maxattr = DCM_A_CFG_NUMBER,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CONFIG_SET_KEY,
		.doit = dcm_nl_config_set_key_doit,
		.policy = dcm_config_set_key_nl_policy,
		.maxattr = DCM_A_CFG_VALUE_DEN,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CONFIG_COMMIT,
		.doit = dcm_nl_config_commit_doit,
		.policy = dcm_config_commit_nl_policy,
		.maxattr = DCM_A_CFG_INDEX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CONFIG_ABORT,
		.doit = dcm_nl_config_abort_doit,
		.policy = dcm_config_abort_nl_policy,
		.maxattr = DCM_A_CFG_INDEX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_CALIBRATE,
		.doit = dcm_nl_calibrate_doit,
		.policy = dcm_calibrate_nl_policy,
		.maxattr = DCM_A_CAL_ZERO,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = DCM_CMD_SPECIAL,
		.doit = dcm_nl_special_doit,
		.policy = dcm_special_nl_policy,
		.maxattr = DCM_A_SP_COMMAND,
	},
	{
		.cmd = DCM_CMD_GET_EVENTS,
		.dumpit = dcm_nl_get_events_dumpit,
	},
};

/* The multicast groups: DCM_NLGRP_* index them. */
const struct genl_multicast_group dcm_nl_mcgrps[1] = {
	[DCM_NLGRP_EVENTS] = { .name = DCM_GENL_MCGRP_EVENTS, },
};
