// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: configuration transactions of the generic netlink family "dcm"
 * (DCM_CMD_CONFIG_*), through libnl-genl-3.
 *
 * Each step is one request answered by one ACK (or one error with the
 * kernel's extended-ack message): simple, and a whole Device.xml of a few
 * thousand steps still loads in well under a second.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>

#include "libdcm-private.h"
#include "nl-gen.h"

static const char *const cmd_names[] = {
	[DCM_CMD_CONFIG_BEGIN] = "CONFIG_BEGIN",
	[DCM_CMD_CONFIG_ADD_DEVICE] = "CONFIG_ADD_DEVICE",
	[DCM_CMD_CONFIG_ADD_SUBDEVICE] = "CONFIG_ADD_SUBDEVICE",
	[DCM_CMD_CONFIG_SET_KEY] = "CONFIG_SET_KEY",
	[DCM_CMD_CONFIG_COMMIT] = "CONFIG_COMMIT",
	[DCM_CMD_CONFIG_ABORT] = "CONFIG_ABORT",
};

/* A string attribute for the kernel's NLA_NUL_STRING policy. */
static int check_string(const char *what, const char *s, size_t max)
{
	if (!s)
		return dcm_set_error(-EINVAL, "%s missing", what);
	if (strlen(s) >= max)
		return dcm_set_error(-ENAMETOOLONG, "%s '%.40s...' is %zu bytes long, the limit is %zu",
				     what, s, strlen(s), max - 1);
	return 0;
}

static struct nl_msg *new_config(struct dcm_nl *nl, uint8_t cmd,
				 unsigned int index)
{
	struct nl_msg *msg = dcm_nl_new_request(nl, 0, cmd);

	if (msg && nla_put_u32(msg, DCM_A_CFG_INDEX, index) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	if (!msg)
		dcm_set_error(-ENOMEM, "netlink: out of memory");
	return msg;
}

/*
 * Send a configuration request, wait for its answer. On failure
 * dcm_last_error() is the kernel's message if it gave one.
 */
static int config_request(struct dcm_nl *nl, struct nl_msg *msg, uint8_t cmd,
			  unsigned int index, struct req_ctx *ctx)
{
	return dcm_nl_admin_request(nl, msg, ctx, cmd_names[cmd], "configuring dcm", index);
}

/* A request with only the index: BEGIN, ABORT. */
static int simple_request(struct dcm_nl *nl, uint8_t cmd, unsigned int index)
{
	struct req_ctx ctx;
	struct nl_msg *msg;

	if (!nl)
		return -EINVAL;
	msg = new_config(nl, cmd, index);
	if (!msg)
		return -ENOMEM;
	memset(&ctx, 0, sizeof(ctx));
	return config_request(nl, msg, cmd, index, &ctx);
}

DCM_EXPORT int dcm_nl_config_begin(struct dcm_nl *nl, unsigned int index)
{
	return simple_request(nl, DCM_CMD_CONFIG_BEGIN, index);
}

DCM_EXPORT int dcm_nl_config_abort(struct dcm_nl *nl, unsigned int index)
{
	return simple_request(nl, DCM_CMD_CONFIG_ABORT, index);
}

DCM_EXPORT int dcm_nl_config_add_device(struct dcm_nl *nl, unsigned int index,
					const char *name, const char *type,
					const char *bus, unsigned int address)
{
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl)
		return -EINVAL;
	err = check_string("device name", name, DCM_MAX_NAME_LEN);
	if (!err)
		err = check_string("device type", type, DCM_MAX_NAME_LEN);
	if (!err)
		err = check_string("device bus", bus, DCM_MAX_NAME_LEN);
	if (err)
		return err;
	if (address > 255)
		return dcm_set_error(-ERANGE, "device %s: address %u is outside 0-255",
				     name, address);
	msg = new_config(nl, DCM_CMD_CONFIG_ADD_DEVICE, index);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, DCM_A_CFG_NAME, name) < 0 ||
	    nla_put_string(msg, DCM_A_CFG_TYPE, type) < 0 ||
	    nla_put_string(msg, DCM_A_CFG_BUS, bus) < 0 ||
	    nla_put_u32(msg, DCM_A_CFG_ADDRESS, address) < 0) {
		nlmsg_free(msg);
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	}
	memset(&ctx, 0, sizeof(ctx));
	return config_request(nl, msg, DCM_CMD_CONFIG_ADD_DEVICE, index, &ctx);
}

DCM_EXPORT int dcm_nl_config_add_subdevice(struct dcm_nl *nl, unsigned int index,
					   const char *name, const char *type,
					   const char *device, unsigned int number)
{
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl)
		return -EINVAL;
	err = check_string("subdevice name", name, DCM_MAX_NAME_LEN);
	if (!err)
		err = check_string("subdevice type", type, DCM_MAX_NAME_LEN);
	if (!err)
		err = check_string("subdevice device", device, DCM_MAX_NAME_LEN);
	if (err)
		return err;
	if (number < 1 || number > 255)
		return dcm_set_error(-ERANGE, "subdevice %s: SubDeviceNumber %u is outside 1-255",
				     name, number);
	msg = new_config(nl, DCM_CMD_CONFIG_ADD_SUBDEVICE, index);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, DCM_A_CFG_NAME, name) < 0 ||
	    nla_put_string(msg, DCM_A_CFG_TYPE, type) < 0 ||
	    nla_put_string(msg, DCM_A_CFG_DEVICE, device) < 0 ||
	    nla_put_u32(msg, DCM_A_CFG_NUMBER, number) < 0) {
		nlmsg_free(msg);
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	}
	memset(&ctx, 0, sizeof(ctx));
	return config_request(nl, msg, DCM_CMD_CONFIG_ADD_SUBDEVICE, index, &ctx);
}

DCM_EXPORT int dcm_nl_config_set_key(struct dcm_nl *nl, unsigned int index,
				     const char *path,
				     const struct dcm_key_value *v)
{
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err, r;

	if (!nl || !v)
		return -EINVAL;
	err = check_string("key path", path, DCM_MAX_NAME_LEN);
	if (err)
		return err;
	switch (v->kind) {
	case LIBDCM_KEY_STRING:
		err = check_string("string value", v->str, DCM_MAX_STRING_LEN);
		if (err)
			return err;
		break;
	case LIBDCM_KEY_INT:
	case LIBDCM_KEY_BOOL:
		if (v->den > 1)
			return dcm_set_error(-EINVAL, "key %s: only a float has a denominator",
					     path);
		break;
	case LIBDCM_KEY_FLOAT:
		break;
	default:
		return dcm_set_error(-EINVAL, "key %s: unknown value kind %d",
				     path, v->kind);
	}
	msg = new_config(nl, DCM_CMD_CONFIG_SET_KEY, index);
	if (!msg)
		return -ENOMEM;
	r = nla_put_string(msg, DCM_A_CFG_NAME, path);
	if (r >= 0)
		r = nla_put_u8(msg, DCM_A_CFG_KIND, (uint8_t)v->kind);
	if (r >= 0) {
		if (v->kind == LIBDCM_KEY_STRING)
			r = nla_put_string(msg, DCM_A_CFG_VALUE_STRING, v->str);
		else
			r = nla_put_s64(msg, DCM_A_CFG_VALUE_INT, v->num);
	}
	if (r >= 0 && v->den > 1)
		r = nla_put_u32(msg, DCM_A_CFG_VALUE_DEN, v->den);
	if (r < 0) {
		nlmsg_free(msg);
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	}
	memset(&ctx, 0, sizeof(ctx));
	return config_request(nl, msg, DCM_CMD_CONFIG_SET_KEY, index, &ctx);
}

/* The commit answer: index and the three counts, u32 each; generation, unchanged. */
static int parse_commit(struct nlmsghdr *nlh, void *arg)
{
	struct dcm_config_counts *c = arg;
	struct nlattr *tb[DCM_A_CFG_MAX + 1];

	if (!genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_hdr(nlh)->cmd != DCM_CMD_CONFIG_COMMIT)
		return dcm_set_error(-EPROTO, "CONFIG_COMMIT reply: not a commit answer");
	if (genlmsg_parse(nlh, 0, tb, DCM_A_CFG_MAX, dcm_nl_config_policy) < 0 ||
	    !tb[DCM_A_CFG_N_DEVICES] || !tb[DCM_A_CFG_N_SUBDEVICES] ||
	    !tb[DCM_A_CFG_N_KEYS])
		return dcm_set_error(-EPROTO, "CONFIG_COMMIT reply: malformed");
	c->n_devices = nla_get_u32(tb[DCM_A_CFG_N_DEVICES]);
	c->n_subdevices = nla_get_u32(tb[DCM_A_CFG_N_SUBDEVICES]);
	c->n_keys = nla_get_u32(tb[DCM_A_CFG_N_KEYS]);
	/* ABI 1.2: the generation, and whether the running one stayed. */
	if (tb[DCM_A_CFG_GENERATION])
		c->generation = nla_get_u32(tb[DCM_A_CFG_GENERATION]);
	c->unchanged = tb[DCM_A_CFG_UNCHANGED] ? 1 : 0;
	return 0;
}

DCM_EXPORT int dcm_nl_config_commit(struct dcm_nl *nl, unsigned int index,
				    struct dcm_config_counts *counts)
{
	struct dcm_config_counts c = { 0, 0, 0, 0, 0 };
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl)
		return -EINVAL;
	msg = new_config(nl, DCM_CMD_CONFIG_COMMIT, index);
	if (!msg)
		return -ENOMEM;
	memset(&ctx, 0, sizeof(ctx));
	ctx.parse = parse_commit;
	ctx.parse_arg = &c;
	err = config_request(nl, msg, DCM_CMD_CONFIG_COMMIT, index, &ctx);
	if (err)
		return err;
	if (!ctx.count)
		return dcm_set_error(-EPROTO, "netlink: CONFIG_COMMIT: acknowledged without the counts");
	if (counts)
		*counts = c;
	return 0;
}
