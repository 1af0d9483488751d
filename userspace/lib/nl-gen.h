/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Generated from Documentation/netlink/specs/dcm.yaml by scripts/dcm-nl-gen.py: do not edit. */
#ifndef LIBDCM_NL_GEN_H
#define LIBDCM_NL_GEN_H

#include <netlink/attr.h>
#include <linux/dcm.h>

/*
 * Per attribute set: the policy that checks each attribute's type and
 * size in what the kernel sends, and the attribute names ("INDEX") for
 * messages.
 */
extern const struct nla_policy dcm_nl_info_policy[DCM_A_INFO_MAX + 1];
extern const char *const dcm_nl_info_attr_names[DCM_A_INFO_MAX + 1];
extern const struct nla_policy dcm_nl_config_policy[DCM_A_CFG_MAX + 1];
extern const char *const dcm_nl_config_attr_names[DCM_A_CFG_MAX + 1];
extern const struct nla_policy dcm_nl_event_policy[DCM_A_EV_MAX + 1];
extern const char *const dcm_nl_event_attr_names[DCM_A_EV_MAX + 1];
extern const struct nla_policy dcm_nl_calibrate_policy[DCM_A_CAL_MAX + 1];
extern const char *const dcm_nl_calibrate_attr_names[DCM_A_CAL_MAX + 1];
extern const struct nla_policy dcm_nl_board_policy[DCM_A_BRD_MAX + 1];
extern const char *const dcm_nl_board_attr_names[DCM_A_BRD_MAX + 1];
extern const struct nla_policy dcm_nl_special_policy[DCM_A_SP_MAX + 1];
extern const char *const dcm_nl_special_attr_names[DCM_A_SP_MAX + 1];

#endif /* LIBDCM_NL_GEN_H */
