// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the events of the multicast group "events" (DCM_CMD_EVENT), parsed
 * into struct dcm_event_msg and put in words, for dcmd's log and
 * `dcmctl events`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "libdcm-private.h"
#include "nl-gen.h"
#include "model/dcm_evlog.h"

static const char *const rule_names[] = {
	[DCM_SAFETY_CYCLE_FAULT]     = "cycle-fault",
	[DCM_SAFETY_BATTERY_CURRENT] = "battery-current",
	[DCM_SAFETY_CALIBRATION]     = "calibration",
	[DCM_SAFETY_BRAKE]	     = "brake",
};

/* The names are the kernel's (model/dcm_evlog.c), as its sysfs file events shows them. */
DCM_EXPORT const char *dcm_event_type_name(unsigned int type)
{
	return type && type <= DCM_EV_MAX ? dcm_evlog_type_name(type) : NULL;
}

DCM_EXPORT int dcm_event_type_parse(const char *name)
{
	unsigned int i;

	if (!name)
		return -EINVAL;
	for (i = 1; i <= DCM_EV_MAX; i++)
		if (!strcmp(dcm_evlog_type_name(i), name))
			return (int)i;
	return dcm_set_error(-EINVAL, "unknown event type \"%s\"", name);
}

DCM_EXPORT const char *dcm_safety_rule_name(unsigned int rule)
{
	if (rule < sizeof(rule_names) / sizeof(rule_names[0]) && rule_names[rule])
		return rule_names[rule];
	return NULL;
}

DCM_EXPORT int dcm_nl_parse_event(const struct nlmsghdr *nlh, struct dcm_event_msg *ev)
{
	struct nlattr *tb[DCM_A_EV_MAX + 1];
	struct genlmsghdr *gnlh;
	struct dcm_event_msg tmp;
	int err;

	if (!nlh || !ev)
		return -EINVAL;
	if (nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr((struct nlmsghdr *)nlh, 0))
		return dcm_set_error(-EPROTO, "event: truncated message (length %u)",
				     nlh->nlmsg_len);
	gnlh = genlmsg_hdr((struct nlmsghdr *)nlh);
	if (gnlh->cmd != DCM_CMD_EVENT && gnlh->cmd != DCM_CMD_GET_EVENTS)
		return dcm_set_error(-EPROTO, "event: unexpected command %u", gnlh->cmd);
	err = genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, DCM_A_EV_MAX,
			    dcm_nl_event_policy);
	if (err < 0)
		return dcm_set_error(-EPROTO, "event: malformed attribute: %s",
				     nl_geterror(err));
	if (!tb[DCM_A_EV_INDEX] || !tb[DCM_A_EV_TYPE] || !tb[DCM_A_EV_TIME])
		return dcm_set_error(-EPROTO, "event: INDEX, TYPE or TIME missing");

	memset(&tmp, 0, sizeof(tmp));
	tmp.index = nla_get_u32(tb[DCM_A_EV_INDEX]);
	tmp.type = nla_get_u32(tb[DCM_A_EV_TYPE]);
	tmp.time_ms = nla_get_u32(tb[DCM_A_EV_TIME]);
	if (tb[DCM_A_EV_DEVICE])
		nla_strlcpy(tmp.device, tb[DCM_A_EV_DEVICE], sizeof(tmp.device));
	if (tb[DCM_A_EV_LEVEL])
		tmp.level = nla_get_u32(tb[DCM_A_EV_LEVEL]);
	if (tb[DCM_A_EV_CODE])
		tmp.code = nla_get_u32(tb[DCM_A_EV_CODE]);
	if (tb[DCM_A_EV_VALUE])
		tmp.value = nla_get_s64(tb[DCM_A_EV_VALUE]);
	if (tb[DCM_A_EV_TEXT])
		nla_strlcpy(tmp.text, tb[DCM_A_EV_TEXT], sizeof(tmp.text));
	if (tb[DCM_A_EV_COUNT])
		tmp.count = nla_get_u32(tb[DCM_A_EV_COUNT]);
	if (tb[DCM_A_EV_LOST])
		tmp.lost = nla_get_u32(tb[DCM_A_EV_LOST]);
	*ev = tmp;
	return 0;
}

DCM_EXPORT int dcm_nl_event_seq(const struct nlmsghdr *nlh, uint64_t *seq)
{
	struct nlattr *tb[DCM_A_EV_MAX + 1];

	if (!nlh || !seq)
		return -EINVAL;
	if (nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr((struct nlmsghdr *)nlh, 0) ||
	    genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, DCM_A_EV_MAX, dcm_nl_event_policy) < 0)
		return dcm_set_error(-EPROTO, "event: malformed message");
	if (!tb[DCM_A_EV_SEQ])
		return dcm_set_error(-ENOENT, "event: no sequence number (a kernel before ABI 1.7)");
	*seq = nla_get_u64(tb[DCM_A_EV_SEQ]);
	return 0;
}

/* dcm_nl_event_history(): each message of the dump to the caller's callback. */
struct history_ctx {
	dcm_event_cb cb;
	void *arg;
	int ret;
};

static int history_msg(struct nlmsghdr *nlh, void *arg)
{
	struct history_ctx *h = arg;
	struct dcm_nl_event ev;

	if (h->ret)
		return 0;
	ev.cmd = genlmsg_hdr(nlh)->cmd;
	ev.version = genlmsg_hdr(nlh)->version;
	ev.nlh = nlh;
	h->ret = h->cb(&ev, h->arg);
	return 0;
}

DCM_EXPORT int dcm_nl_event_history(struct dcm_nl *nl, dcm_event_cb cb, void *arg)
{
	struct history_ctx h = { .cb = cb, .arg = arg };
	struct req_ctx ctx;
	struct nl_msg *msg;
	int err;

	if (!nl || !cb)
		return -EINVAL;
	memset(&ctx, 0, sizeof(ctx));
	ctx.parse = history_msg;
	ctx.parse_arg = &h;
	msg = dcm_nl_new_request(nl, NLM_F_DUMP, DCM_CMD_GET_EVENTS);
	if (!msg)
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	err = dcm_nl_request(nl, msg, &ctx);
	nlmsg_free(msg);
	if (err)
		return err;
	if (ctx.err) {
		if (ctx.err == -EOPNOTSUPP)
			return dcm_set_error(ctx.err, "netlink: the kernel keeps no events history (dcm.ko before ABI 1.7)");
		if (!ctx.err_explained)
			dcm_set_error(ctx.err, "netlink: GET_EVENTS dump: %s",
				      dcm_strerror(ctx.err));
		return ctx.err;
	}
	return h.ret ? h.ret : ctx.count;
}

DCM_EXPORT int dcm_event_format(const struct dcm_event_msg *ev, char *buf, size_t size)
{
	const char *type, *rule;
	char what[48];
	int n, m;

	if (!ev || !buf || !size)
		return -EINVAL;
	type = dcm_event_type_name(ev->type);
	switch (ev->type) {
	case DCM_EV_ERROR:
		snprintf(what, sizeof(what), " level %u code 0x%02x", ev->level, ev->code);
		break;
	case DCM_EV_SAFETY:
		rule = dcm_safety_rule_name(ev->code);
		snprintf(what, sizeof(what), " %s %s", rule ? rule : "rule?",
			 ev->value ? "on" : "off");
		break;
	case DCM_EV_FALL:
		snprintf(what, sizeof(what), " %s", ev->value ? "fallen" : "up");
		break;
	default:
		what[0] = '\0';
		break;
	}
	n = snprintf(buf, size, "dcm%u %" PRIu32 " %s%s%s%s%s%s", ev->index, ev->time_ms,
		     type ? type : "event?", what, ev->device[0] ? " " : "", ev->device,
		     ev->text[0] ? ": " : "", ev->text);
	if (ev->lost && n >= 0) {
		/* as snprintf(): the whole length, also when the line was cut */
		m = (size_t)n < size ?
		    snprintf(buf + n, size - n, " (%u events lost before)", ev->lost) :
		    snprintf(NULL, 0, " (%u events lost before)", ev->lost);
		n = m < 0 ? m : n + m;
	}
	return n;
}
