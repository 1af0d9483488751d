// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: joint calibration (DCM_CMD_CALIBRATE) and the special commands
 * (DCM_CMD_SPECIAL) of the generic netlink family "dcm", through
 * libnl-genl-3. One request each, answered by one message and an ACK, or
 * by an error with the kernel's extended-ack message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>

#include "libdcm-private.h"
#include "nl-gen.h"

static const char *const how_names[] = {
	[LIBDCM_CALIB_HERE] = "here",
	[LIBDCM_CALIB_MIN] = "min",
	[LIBDCM_CALIB_MAX] = "max",
	[LIBDCM_CALIB_SET] = "set",
};

static const char *const special_names[] = {
	[LIBDCM_SPECIAL_RESET] = "reset",
	[LIBDCM_SPECIAL_VERSION] = "version",
	[LIBDCM_SPECIAL_CHAIN] = "chain",
	[LIBDCM_SPECIAL_DIAGNOSTIC] = "diagnostic",
	[LIBDCM_SPECIAL_CONFIG] = "config",
};

#define N_HOW		(int)(sizeof(how_names) / sizeof(how_names[0]))
#define N_SPECIAL	(int)(sizeof(special_names) / sizeof(special_names[0]))

DCM_EXPORT const char *dcm_calib_how_name(int how)
{
	return how >= 0 && how < N_HOW ? how_names[how] : NULL;
}

DCM_EXPORT int dcm_calib_how_from_name(const char *s)
{
	int i;

	for (i = 0; s && i < N_HOW; i++)
		if (!strcasecmp(s, how_names[i]))
			return i;
	return -EINVAL;
}

DCM_EXPORT const char *dcm_special_name(int command)
{
	return command >= 0 && command < N_SPECIAL ? special_names[command] : NULL;
}

DCM_EXPORT int dcm_special_from_name(const char *s)
{
	int i;

	for (i = 0; s && i < N_SPECIAL; i++)
		if (!strcasecmp(s, special_names[i]))
			return i;
	return -EINVAL;
}

/* A message of the family with command @cmd, whole; -EPROTO otherwise. */
static int check_msg(struct nlmsghdr *nlh, uint8_t cmd, const char *what)
{
	struct nlattr *nla;
	int rem;

	if (!nlh || nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr(nlh, 0))
		return dcm_set_error(-EPROTO, "%s reply: truncated", what);
	if (genlmsg_hdr(nlh)->cmd != cmd)
		return dcm_set_error(-EPROTO, "%s reply: unexpected command %u", what,
				     genlmsg_hdr(nlh)->cmd);
	nla_for_each_attr(nla, genlmsg_attrdata(genlmsg_hdr(nlh), 0),
			  genlmsg_attrlen(genlmsg_hdr(nlh), 0), rem)
		;
	if (rem != 0)
		return dcm_set_error(-EPROTO, "%s reply: %d trailing bytes", what, rem);
	return 0;
}

int dcm_nl_parse_calibrate(struct nlmsghdr *nlh, struct dcm_calib_result *out)
{
	struct nlattr *tb[DCM_A_CAL_MAX + 1];
	struct dcm_calib_result r;
	int err;

	err = check_msg(nlh, DCM_CMD_CALIBRATE, "CALIBRATE");
	if (err)
		return err;
	if (genlmsg_parse(nlh, 0, tb, DCM_A_CAL_MAX, dcm_nl_calibrate_policy) < 0)
		return dcm_set_error(-EPROTO, "CALIBRATE reply: malformed attribute");
	if (!tb[DCM_A_CAL_JOINT] || !tb[DCM_A_CAL_STOP] || !tb[DCM_A_CAL_ZERO] ||
	    !tb[DCM_A_CAL_PREVIOUS])
		return dcm_set_error(-EPROTO, "CALIBRATE reply: JOINT, STOP, ZERO or PREVIOUS missing");
	memset(&r, 0, sizeof(r));
	nla_strlcpy(r.joint, tb[DCM_A_CAL_JOINT], sizeof(r.joint));
	r.how = nla_get_u8(tb[DCM_A_CAL_STOP]);
	r.zero = nla_get_u32(tb[DCM_A_CAL_ZERO]);
	r.previous = nla_get_u32(tb[DCM_A_CAL_PREVIOUS]);
	if (tb[DCM_A_CAL_RAW]) {
		r.raw = nla_get_u32(tb[DCM_A_CAL_RAW]);
		r.has_raw = true;
	}
	if (r.how >= N_HOW || r.zero >= LIBDCM_MRE_COUNTS || r.previous >= LIBDCM_MRE_COUNTS ||
	    r.raw >= LIBDCM_MRE_COUNTS)
		return dcm_set_error(-EPROTO, "CALIBRATE reply: a value out of its range");
	*out = r;
	return 0;
}

static int parse_board(struct nlattr *nest, struct dcm_board_info *b)
{
	struct nlattr *tb[DCM_A_BRD_MAX + 1];

	if (nla_parse_nested(tb, DCM_A_BRD_MAX, nest, dcm_nl_board_policy) < 0 || !tb[DCM_A_BRD_NAME] ||
	    !tb[DCM_A_BRD_TYPE] || !tb[DCM_A_BRD_BUS] || !tb[DCM_A_BRD_ADDRESS])
		return -EPROTO;
	memset(b, 0, sizeof(*b));
	nla_strlcpy(b->name, tb[DCM_A_BRD_NAME], sizeof(b->name));
	nla_strlcpy(b->type, tb[DCM_A_BRD_TYPE], sizeof(b->type));
	nla_strlcpy(b->bus, tb[DCM_A_BRD_BUS], sizeof(b->bus));
	b->address = nla_get_u32(tb[DCM_A_BRD_ADDRESS]);
	if (tb[DCM_A_BRD_STATE]) {
		if (!tb[DCM_A_BRD_ACK] || !tb[DCM_A_BRD_NACK] || !tb[DCM_A_BRD_ERRORS])
			return -EPROTO;
		b->has_state = true;
		nla_strlcpy(b->state, tb[DCM_A_BRD_STATE], sizeof(b->state));
		b->ack = nla_get_u64(tb[DCM_A_BRD_ACK]);
		b->nack = nla_get_u64(tb[DCM_A_BRD_NACK]);
		b->errors = nla_get_u32(tb[DCM_A_BRD_ERRORS]);
	}
	if (tb[DCM_A_BRD_VERSION])
		nla_strlcpy(b->version, tb[DCM_A_BRD_VERSION], sizeof(b->version));
	return 0;
}

int dcm_nl_parse_special(struct nlmsghdr *nlh, struct dcm_special_result *out)
{
	struct genlmsghdr *gnlh;
	struct nlattr *nla;
	bool has_cmd = false, has_text = false;
	int err, rem;

	err = check_msg(nlh, DCM_CMD_SPECIAL, "SPECIAL");
	if (err)
		return err;
	gnlh = genlmsg_hdr(nlh);
	out->n_boards = 0;
	out->text[0] = '\0';
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		switch (nla_type(nla)) {
		case DCM_A_SP_COMMAND:
			if (nla_len(nla) != 4)
				return dcm_set_error(-EPROTO, "SPECIAL reply: malformed COMMAND");
			out->command = (int)nla_get_u32(nla);
			has_cmd = true;
			break;
		case DCM_A_SP_TEXT:
			if (nla_len(nla) < 1 || ((char *)nla_data(nla))[nla_len(nla) - 1])
				return dcm_set_error(-EPROTO, "SPECIAL reply: malformed TEXT");
			nla_strlcpy(out->text, nla, sizeof(out->text));
			has_text = true;
			break;
		case DCM_A_SP_BOARD:
			if (out->n_boards >= LIBDCM_MAX_DEVICES)
				return dcm_set_error(-EPROTO, "SPECIAL reply: more than %d boards",
						     LIBDCM_MAX_DEVICES);
			if (parse_board(nla, &out->boards[out->n_boards]))
				return dcm_set_error(-EPROTO, "SPECIAL reply: malformed board %zu",
						     out->n_boards + 1);
			out->n_boards++;
			break;
		default:
			break;	/* a newer kernel's addition */
		}
	}
	if (!has_cmd || !has_text)
		return dcm_set_error(-EPROTO, "SPECIAL reply: COMMAND or TEXT missing");
	return 0;
}

/* Send, wait for the answer; explain the kernel's refusal. */
static int request(struct dcm_nl *nl, struct nl_msg *msg, const char *what, unsigned int index,
		   struct req_ctx *ctx)
{
	int err;

	err = dcm_nl_admin_request(nl, msg, ctx, what, what, index);
	if (!err && !ctx->count)
		return dcm_set_error(-EPROTO, "netlink: %s: acknowledged without an answer", what);
	return err;
}

static int parse_calibrate(struct nlmsghdr *nlh, void *arg)
{
	return dcm_nl_parse_calibrate(nlh, arg);
}

static int parse_special(struct nlmsghdr *nlh, void *arg)
{
	return dcm_nl_parse_special(nlh, arg);
}

DCM_EXPORT int dcm_nl_calibrate(struct dcm_nl *nl, unsigned int index, const char *joint,
				int how, unsigned int zero, struct dcm_calib_result *out)
{
	struct dcm_calib_result r;
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl || !joint)
		return -EINVAL;
	if (!*joint || strlen(joint) >= DCM_MAX_NAME_LEN)
		return dcm_set_error(-EINVAL, "calibrate: the joint name must have 1 to %d bytes",
				     DCM_MAX_NAME_LEN - 1);
	if (how < 0 || how >= N_HOW)
		return dcm_set_error(-EINVAL, "calibrate: unknown stop %d", how);
	if (how == LIBDCM_CALIB_SET && zero >= LIBDCM_MRE_COUNTS)
		return dcm_set_error(-EINVAL, "calibrate: zero %u is outside 0-%d", zero,
				     LIBDCM_MRE_COUNTS - 1);
	msg = dcm_nl_new_request(nl, 0, DCM_CMD_CALIBRATE);
	if (!msg || nla_put_u32(msg, DCM_A_CAL_INDEX, index) < 0 ||
	    nla_put_string(msg, DCM_A_CAL_JOINT, joint) < 0 ||
	    nla_put_u8(msg, DCM_A_CAL_STOP, (uint8_t)how) < 0 ||
	    (how == LIBDCM_CALIB_SET && nla_put_u32(msg, DCM_A_CAL_ZERO, zero) < 0)) {
		nlmsg_free(msg);
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.parse = parse_calibrate;
	ctx.parse_arg = &r;
	err = request(nl, msg, "CALIBRATE", index, &ctx);
	if (!err && out)
		*out = r;
	return err;
}

DCM_EXPORT int dcm_nl_special(struct dcm_nl *nl, unsigned int index, int command,
			      struct dcm_special_result *out)
{
	struct dcm_special_result *r = out;
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl)
		return -EINVAL;
	if (command < 0 || command >= N_SPECIAL)
		return dcm_set_error(-EINVAL, "special: unknown command %d", command);
	if (!r) {
		r = malloc(sizeof(*r));
		if (!r)
			return dcm_set_error(-ENOMEM, "out of memory");
	}
	msg = dcm_nl_new_request(nl, 0, DCM_CMD_SPECIAL);
	if (!msg || nla_put_u32(msg, DCM_A_SP_INDEX, index) < 0 ||
	    nla_put_u32(msg, DCM_A_SP_COMMAND, (uint32_t)command) < 0) {
		nlmsg_free(msg);
		err = dcm_set_error(-ENOMEM, "netlink: out of memory");
		goto out;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.parse = parse_special;
	ctx.parse_arg = r;
	err = request(nl, msg, "SPECIAL", index, &ctx);
out:
	if (r != out)
		free(r);
	return err;
}
