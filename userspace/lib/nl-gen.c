// SPDX-License-Identifier: LGPL-2.1-or-later
/* Generated from Documentation/netlink/specs/dcm.yaml by scripts/dcm-nl-gen.py: do not edit. */
#include "nl-gen.h"

const struct nla_policy dcm_nl_info_policy[DCM_A_INFO_MAX + 1] = {
	[DCM_A_INFO_INDEX] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_NAME] = { .type = NLA_STRING, .maxlen = 32 },
	[DCM_A_INFO_DRIVER] = { .type = NLA_STRING, .maxlen = 32 },
	[DCM_A_INFO_ABI_VERSION] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_PERIOD_US] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_TIME_MS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_N_DEVICES] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_N_SUBDEVICES] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_INFO_FLAGS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
};

const char *const dcm_nl_info_attr_names[DCM_A_INFO_MAX + 1] = {
	[DCM_A_INFO_INDEX] = "INDEX",
	[DCM_A_INFO_NAME] = "NAME",
	[DCM_A_INFO_DRIVER] = "DRIVER",
	[DCM_A_INFO_ABI_VERSION] = "ABI_VERSION",
	[DCM_A_INFO_PERIOD_US] = "PERIOD_US",
	[DCM_A_INFO_TIME_MS] = "TIME_MS",
	[DCM_A_INFO_N_DEVICES] = "N_DEVICES",
	[DCM_A_INFO_N_SUBDEVICES] = "N_SUBDEVICES",
	[DCM_A_INFO_FLAGS] = "FLAGS",
};

const struct nla_policy dcm_nl_config_policy[DCM_A_CFG_MAX + 1] = {
	[DCM_A_CFG_INDEX] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_NAME] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_CFG_TYPE] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_CFG_BUS] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_CFG_ADDRESS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_DEVICE] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_CFG_NUMBER] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_KIND] = { .type = NLA_U8, .minlen = 1, .maxlen = 1 },
	[DCM_A_CFG_VALUE_INT] = { .type = NLA_S64, .minlen = 8, .maxlen = 8 },
	[DCM_A_CFG_VALUE_STRING] = { .type = NLA_STRING, .maxlen = 256 },
	[DCM_A_CFG_N_DEVICES] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_N_SUBDEVICES] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_N_KEYS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_VALUE_DEN] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_GENERATION] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CFG_UNCHANGED] = { .type = NLA_FLAG },
};

const char *const dcm_nl_config_attr_names[DCM_A_CFG_MAX + 1] = {
	[DCM_A_CFG_INDEX] = "INDEX",
	[DCM_A_CFG_NAME] = "NAME",
	[DCM_A_CFG_TYPE] = "TYPE",
	[DCM_A_CFG_BUS] = "BUS",
	[DCM_A_CFG_ADDRESS] = "ADDRESS",
	[DCM_A_CFG_DEVICE] = "DEVICE",
	[DCM_A_CFG_NUMBER] = "NUMBER",
	[DCM_A_CFG_KIND] = "KIND",
	[DCM_A_CFG_VALUE_INT] = "VALUE_INT",
	[DCM_A_CFG_VALUE_STRING] = "VALUE_STRING",
	[DCM_A_CFG_N_DEVICES] = "N_DEVICES",
	[DCM_A_CFG_N_SUBDEVICES] = "N_SUBDEVICES",
	[DCM_A_CFG_N_KEYS] = "N_KEYS",
	[DCM_A_CFG_VALUE_DEN] = "VALUE_DEN",
	[DCM_A_CFG_GENERATION] = "GENERATION",
	[DCM_A_CFG_UNCHANGED] = "UNCHANGED",
};

const struct nla_policy dcm_nl_event_policy[DCM_A_EV_MAX + 1] = {
	[DCM_A_EV_INDEX] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_TYPE] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_TIME] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_DEVICE] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_EV_LEVEL] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_CODE] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_VALUE] = { .type = NLA_S64, .minlen = 8, .maxlen = 8 },
	[DCM_A_EV_TEXT] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_EV_COUNT] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_LOST] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_EV_SEQ] = { .type = NLA_U64, .minlen = 8, .maxlen = 8 },
};

const char *const dcm_nl_event_attr_names[DCM_A_EV_MAX + 1] = {
	[DCM_A_EV_INDEX] = "INDEX",
	[DCM_A_EV_TYPE] = "TYPE",
	[DCM_A_EV_TIME] = "TIME",
	[DCM_A_EV_DEVICE] = "DEVICE",
	[DCM_A_EV_LEVEL] = "LEVEL",
	[DCM_A_EV_CODE] = "CODE",
	[DCM_A_EV_VALUE] = "VALUE",
	[DCM_A_EV_TEXT] = "TEXT",
	[DCM_A_EV_COUNT] = "COUNT",
	[DCM_A_EV_LOST] = "LOST",
	[DCM_A_EV_PAD] = "PAD",
	[DCM_A_EV_SEQ] = "SEQ",
};

const struct nla_policy dcm_nl_calibrate_policy[DCM_A_CAL_MAX + 1] = {
	[DCM_A_CAL_INDEX] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CAL_JOINT] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_CAL_STOP] = { .type = NLA_U8, .minlen = 1, .maxlen = 1 },
	[DCM_A_CAL_ZERO] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CAL_RAW] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_CAL_PREVIOUS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
};

const char *const dcm_nl_calibrate_attr_names[DCM_A_CAL_MAX + 1] = {
	[DCM_A_CAL_INDEX] = "INDEX",
	[DCM_A_CAL_JOINT] = "JOINT",
	[DCM_A_CAL_STOP] = "STOP",
	[DCM_A_CAL_ZERO] = "ZERO",
	[DCM_A_CAL_RAW] = "RAW",
	[DCM_A_CAL_PREVIOUS] = "PREVIOUS",
};

const struct nla_policy dcm_nl_board_policy[DCM_A_BRD_MAX + 1] = {
	[DCM_A_BRD_NAME] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_BRD_TYPE] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_BRD_BUS] = { .type = NLA_STRING, .maxlen = 128 },
	[DCM_A_BRD_ADDRESS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_BRD_STATE] = { .type = NLA_STRING, .maxlen = 16 },
	[DCM_A_BRD_ACK] = { .type = NLA_U64, .minlen = 8, .maxlen = 8 },
	[DCM_A_BRD_NACK] = { .type = NLA_U64, .minlen = 8, .maxlen = 8 },
	[DCM_A_BRD_ERRORS] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_BRD_VERSION] = { .type = NLA_STRING, .maxlen = 40 },
};

const char *const dcm_nl_board_attr_names[DCM_A_BRD_MAX + 1] = {
	[DCM_A_BRD_NAME] = "NAME",
	[DCM_A_BRD_TYPE] = "TYPE",
	[DCM_A_BRD_BUS] = "BUS",
	[DCM_A_BRD_ADDRESS] = "ADDRESS",
	[DCM_A_BRD_STATE] = "STATE",
	[DCM_A_BRD_ACK] = "ACK",
	[DCM_A_BRD_NACK] = "NACK",
	[DCM_A_BRD_ERRORS] = "ERRORS",
	[DCM_A_BRD_VERSION] = "VERSION",
	[DCM_A_BRD_PAD] = "PAD",
};

const struct nla_policy dcm_nl_special_policy[DCM_A_SP_MAX + 1] = {
	[DCM_A_SP_INDEX] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_SP_COMMAND] = { .type = NLA_U32, .minlen = 4, .maxlen = 4 },
	[DCM_A_SP_TEXT] = { .type = NLA_STRING },
	[DCM_A_SP_BOARD] = { .type = NLA_NESTED },
};

const char *const dcm_nl_special_attr_names[DCM_A_SP_MAX + 1] = {
	[DCM_A_SP_INDEX] = "INDEX",
	[DCM_A_SP_COMMAND] = "COMMAND",
	[DCM_A_SP_TEXT] = "TEXT",
	[DCM_A_SP_BOARD] = "BOARD",
};
