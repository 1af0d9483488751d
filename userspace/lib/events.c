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
	int err;

	if (!nl || !cb)
		return -EINVAL;
	memset(&ctx, 0, sizeof(ctx));
	ctx.parse = history_msg;
	ctx.parse_arg = &h;
	err = dcm_nl_dump(nl, DCM_CMD_GET_EVENTS, &ctx);
	if (err)
		return err;
	if (ctx.err == -EOPNOTSUPP)
		return dcm_set_error(ctx.err, "netlink: the kernel keeps no events history (dcm.ko before ABI 1.7)");
	err = dcm_nl_verdict(&ctx, "GET_EVENTS dump");
	if (err)
		return err;
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

DCM_EXPORT bool dcm_event_type_safety(unsigned int type)
{
	return type && type <= DCM_EV_MAX && dcm_evlog_class(type) == DCM_EVC_SAFETY;
}

/* ------------------------------------------------------------------
 * Following a controller's events across overruns
 */

enum dcm_follow_step dcm_event_follow_step(struct dcm_event_follow *f, uint64_t seq)
{
	if (f->known && seq >= f->dup_from && seq < f->dup_below)
		return DCM_FOLLOW_SKIP;
	if (f->known && seq > f->next)
		return DCM_FOLLOW_GAP;
	/* the next one, the first one, or a numbering that started again */
	f->known = true;
	f->next = seq + 1;
	if (seq >= f->dup_below || seq < f->dup_from)
		f->dup_from = f->dup_below = 0;
	return DCM_FOLLOW_PASS;
}

/* The controller and number of an event message; false if it has none. */
static bool event_of(const struct dcm_nl_event *ev, unsigned int *index, uint64_t *seq)
{
	struct nlattr *tb[DCM_A_EV_MAX + 1];
	struct nlmsghdr *nlh = (struct nlmsghdr *)ev->nlh;

	if ((ev->cmd != DCM_CMD_EVENT && ev->cmd != DCM_CMD_GET_EVENTS) ||
	    nlh->nlmsg_len < NLMSG_HDRLEN || !genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_parse(nlh, 0, tb, DCM_A_EV_MAX, dcm_nl_event_policy) < 0 ||
	    !tb[DCM_A_EV_INDEX] || !tb[DCM_A_EV_SEQ])
		return false;
	*index = nla_get_u32(tb[DCM_A_EV_INDEX]);
	*seq = nla_get_u64(tb[DCM_A_EV_SEQ]);
	return true;
}

/* A walk of the history: the events of f->index numbered @expect to below @upto. */
struct catch_ctx {
	struct dcm_event_follow *f;
	uint64_t expect;
	uint64_t upto;
	bool count_lost;
	dcm_event_cb cb;
	void *arg;
	int n;
	int ret;
};

static int catch_event(const struct dcm_nl_event *ev, void *arg)
{
	struct catch_ctx *c = arg;
	unsigned int index;
	uint64_t seq;

	if (!event_of(ev, &index, &seq) || index != c->f->index || seq < c->expect ||
	    seq >= c->upto)
		return 0;
	if (c->count_lost)
		c->f->lost += seq - c->expect;	/* gone from the history too */
	c->expect = seq + 1;
	c->n++;
	if (c->cb)
		c->ret = c->cb(ev, c->arg);
	return c->ret;
}

/*
 * The history's events of f->index from f->next to below @upto to @cb;
 * f->next is then @upto (or past the last event given when @upto is
 * UINT64_MAX), the numbers the history lacks counted in f->lost. *@given
 * is the number of events given. Return 0, @cb's non-zero return (the
 * walk stopped there), or a negative errno (f->next past the events given).
 */
static int catch_up(struct dcm_nl *nl, struct dcm_event_follow *f, uint64_t upto,
		    dcm_event_cb cb, void *arg, int *given)
{
	struct catch_ctx c = {
		.f = f, .expect = f->next, .upto = upto, .count_lost = true, .cb = cb, .arg = arg,
	};
	uint64_t from = f->next;
	int r;

	r = dcm_nl_event_history(nl, catch_event, &c);
	*given = c.n;
	f->recovered += (uint64_t)c.n;
	f->next = c.expect;
	if (r < 0)
		return r;
	if (c.ret)
		return c.ret;
	if (upto != UINT64_MAX) {
		f->lost += upto - c.expect;	/* the last ones of the gap are gone */
		f->next = upto;
	} else if (c.expect > from) {
		/* those still queued on the socket are given already */
		if (f->dup_below == f->dup_from)
			f->dup_from = from;
		f->dup_below = c.expect;
	}
	return 0;
}

DCM_EXPORT int dcm_nl_event_catch_up(struct dcm_nl *nl, struct dcm_event_follow *f,
				     dcm_event_cb cb, void *arg)
{
	int given = 0, r;

	if (!nl || !f || !cb)
		return -EINVAL;
	if (!f->known)
		return 0;
	r = catch_up(nl, f, UINT64_MAX, cb, arg, &given);
	return r ? r : given;
}

DCM_EXPORT int dcm_nl_event_follow_init(struct dcm_nl *nl, struct dcm_event_follow *f,
					unsigned int index, dcm_event_cb cb, void *arg)
{
	struct catch_ctx c = { .f = f, .upto = UINT64_MAX, .cb = cb, .arg = arg };
	int r;

	if (!nl || !f)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->index = index;
	r = dcm_nl_event_history(nl, catch_event, &c);
	if (r < 0)
		return r;
	f->known = true;
	f->next = c.expect;
	return c.ret ? c.ret : c.n;
}

/* dcm_nl_recv_follow(): each live message, the gaps filled from the history. */
struct follow_ctx {
	struct dcm_nl *nl;
	struct dcm_event_follow *f;
	dcm_event_cb cb;
	void *arg;
	int n;
	int ret;
};

static int follow_event(const struct dcm_nl_event *ev, void *arg)
{
	struct follow_ctx *c = arg;
	struct dcm_event_follow *f = c->f;
	unsigned int index;
	uint64_t seq;
	int given, r;

	if (ev->cmd == DCM_CMD_EVENT && event_of(ev, &index, &seq) && index == f->index) {
		switch (dcm_event_follow_step(f, seq)) {
		case DCM_FOLLOW_SKIP:
			return 0;
		case DCM_FOLLOW_GAP:
			r = catch_up(c->nl, f, seq, c->cb, c->arg, &given);
			c->n += given;
			if (r > 0)
				return c->ret = r;	/* the callback stopped */
			if (r < 0) {
				/* no history to read: the rest of the gap is lost */
				f->lost += seq - f->next;
				f->next = seq;
			}
			dcm_event_follow_step(f, seq);
			break;
		case DCM_FOLLOW_PASS:
			break;
		}
	}
	c->n++;
	c->ret = c->cb(ev, c->arg);
	return c->ret;
}

/* Reads of the socket after an overrun: what it still holds, dropped ones after. */
#define FOLLOW_DRAIN	4096

DCM_EXPORT int dcm_nl_recv_follow(struct dcm_nl *nl, struct dcm_event_follow *f, dcm_event_cb cb,
				  void *arg)
{
	struct follow_ctx c = { .nl = nl, .f = f, .cb = cb, .arg = arg };
	int given, r, i;

	if (!nl || !f || !cb)
		return -EINVAL;
	r = dcm_nl_recv(nl, follow_event, &c);
	if (r == -ENOBUFS && f->known) {
		/*
		 * The socket dropped what came while it was full: read what it
		 * holds (the events before the drop, in order), then the rest
		 * from the history.
		 */
		f->overruns++;
		for (i = 0; i < FOLLOW_DRAIN && !c.ret; i++) {
			r = dcm_nl_recv(nl, follow_event, &c);
			if (r == -ENOBUFS)
				f->overruns++;
			else if (r <= 0)
				break;
		}
		if (r < 0 && r != -ENOBUFS)
			return r;
		if (!c.ret) {
			r = catch_up(nl, f, UINT64_MAX, cb, arg, &given);
			c.n += given;
			if (r < 0)
				return r;
			c.ret = r;
		}
	} else if (r < 0) {
		return r;
	}
	return c.ret ? c.ret : c.n;
}
