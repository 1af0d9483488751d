// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the generic netlink family "dcm", through libnl-genl-3.
 *
 * A handle owns two sockets: a blocking request socket (GET_INFO and the
 * later configuration commands; sequence-checked, serialised by req_lock)
 * and, once dcm_nl_subscribe_events() was called, a non-blocking event
 * socket joined to the "events" multicast group (serialised by ev_lock).
 * Keeping them apart means a multicast message can never be mistaken for a
 * reply, nor a reply swallowed by the event loop.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <netlink/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "libdcm-private.h"
#include "nl-gen.h"

/* A request that gets no answer for this long fails with -ETIMEDOUT. */
#define DCM_NL_TIMEOUT_S	5
/* Receive buffer of the event socket: room for bursts of events. */
#define DCM_NL_EVENT_RCVBUF	(1 << 20)

struct dcm_nl {
	pthread_mutex_t req_lock;
	struct nl_sock *req;
	int family;

	pthread_mutex_t ev_lock;
	struct nl_sock *ev;
	int events_grp;
};

/* ------------------------------------------------------------------
 * Reply parsing
 */

/* The tables of the info set are generated from the spec (nl-gen.c). */
DCM_EXPORT int dcm_nl_parse_info(struct nlmsghdr *nlh, struct dcm_info *info)
{
	struct nlattr *tb[DCM_A_INFO_MAX + 1];
	struct genlmsghdr *gnlh;
	struct nlattr *nla;
	struct dcm_info tmp;
	int rem, err, i;

	if (!nlh || !info)
		return -EINVAL;
	if (nlh->nlmsg_len < NLMSG_HDRLEN ||
	    nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return dcm_set_error(-EPROTO, "GET_INFO reply: not a family message (type %u, length %u)",
				     nlh->nlmsg_type, nlh->nlmsg_len);
	if (!genlmsg_valid_hdr(nlh, 0))
		return dcm_set_error(-EPROTO, "GET_INFO reply: truncated generic netlink header (length %u)",
				     nlh->nlmsg_len);
	gnlh = genlmsg_hdr(nlh);
	if (gnlh->cmd != DCM_CMD_GET_INFO)
		return dcm_set_error(-EPROTO, "GET_INFO reply: unexpected command %u",
				     gnlh->cmd);

	/* The attribute stream must be whole: no partial attribute at the end. */
	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem)
		;
	if (rem != 0)
		return dcm_set_error(-EPROTO, "GET_INFO reply: %d trailing bytes (truncated attribute)",
				     rem);

	err = genlmsg_parse(nlh, 0, tb, DCM_A_INFO_MAX, dcm_nl_info_policy);
	if (err < 0)
		return dcm_set_error(-EPROTO, "GET_INFO reply: malformed attribute: %s",
				     nl_geterror(err));

	for (i = DCM_A_INFO_INDEX; i <= DCM_A_INFO_MAX; i++)
		if (!tb[i])
			return dcm_set_error(-EPROTO, "GET_INFO reply: attribute DCM_A_INFO_%s missing",
					     dcm_nl_info_attr_names[i]);

	memset(&tmp, 0, sizeof(tmp));
	tmp.index = nla_get_u32(tb[DCM_A_INFO_INDEX]);
	nla_strlcpy(tmp.name, tb[DCM_A_INFO_NAME], sizeof(tmp.name));
	nla_strlcpy(tmp.driver, tb[DCM_A_INFO_DRIVER], sizeof(tmp.driver));
	tmp.abi_major = nla_get_u32(tb[DCM_A_INFO_ABI_VERSION]) >> 16;
	tmp.abi_minor = nla_get_u32(tb[DCM_A_INFO_ABI_VERSION]) & 0xffff;
	tmp.period_us = nla_get_u32(tb[DCM_A_INFO_PERIOD_US]);
	tmp.time_ms = nla_get_u32(tb[DCM_A_INFO_TIME_MS]);
	tmp.n_devices = nla_get_u32(tb[DCM_A_INFO_N_DEVICES]);
	tmp.n_subdevices = nla_get_u32(tb[DCM_A_INFO_N_SUBDEVICES]);
	tmp.flags = nla_get_u32(tb[DCM_A_INFO_FLAGS]);
	*info = tmp;
	return 0;
}

/* ------------------------------------------------------------------
 * Handle
 */

static int connect_socket(struct nl_sock **out)
{
	struct nl_sock *sk;
	int err;

	sk = nl_socket_alloc();
	if (!sk)
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	err = genl_connect(sk);
	if (err < 0) {
		err = dcm_nle_to_errno(err);
		nl_socket_free(sk);
		return dcm_set_error(err, "netlink: cannot connect to generic netlink: %s",
				     dcm_strerror(err));
	}
	*out = sk;
	return 0;
}

DCM_EXPORT int dcm_nl_open(struct dcm_nl **out)
{
	struct timeval tv = { .tv_sec = DCM_NL_TIMEOUT_S };
	struct dcm_nl *nl;
	int err, one = 1;

	if (!out)
		return -EINVAL;
	*out = NULL;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	pthread_mutex_init(&nl->req_lock, NULL);
	pthread_mutex_init(&nl->ev_lock, NULL);
	nl->events_grp = -1;

	err = connect_socket(&nl->req);
	if (err)
		goto fail;

	/* A kernel that never answers must not hang the caller forever. */
	if (setsockopt(nl_socket_get_fd(nl->req), SOL_SOCKET, SO_RCVTIMEO,
		       &tv, sizeof(tv)) < 0) {
		err = dcm_set_error(-errno, "netlink: SO_RCVTIMEO: %s",
				    dcm_strerror(-errno));
		goto fail;
	}

	/*
	 * Extended acks carry the kernel's explanation of a refusal; capped
	 * acks do not echo the request back. A kernel without them (before
	 * 4.12) still answers, without the explanation: not an error.
	 */
	(void)setsockopt(nl_socket_get_fd(nl->req), SOL_NETLINK, NETLINK_EXT_ACK,
			 &one, sizeof(one));
	(void)setsockopt(nl_socket_get_fd(nl->req), SOL_NETLINK, NETLINK_CAP_ACK,
			 &one, sizeof(one));

	nl->family = genl_ctrl_resolve(nl->req, DCM_GENL_NAME);
	if (nl->family < 0) {
		err = dcm_nle_to_errno(nl->family);
		if (err == -ENOENT)
			dcm_set_error(err, "netlink: family %s not found (is dcm.ko loaded?)",
				      DCM_GENL_NAME);
		else
			dcm_set_error(err, "netlink: resolving family %s: %s",
				      DCM_GENL_NAME, dcm_strerror(err));
		goto fail;
	}

	*out = nl;
	return 0;

fail:
	dcm_nl_close(nl);
	return err;
}

DCM_EXPORT void dcm_nl_close(struct dcm_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->req);	/* closes; NULL-safe */
	nl_socket_free(nl->ev);
	pthread_mutex_destroy(&nl->req_lock);
	pthread_mutex_destroy(&nl->ev_lock);
	free(nl);
}

DCM_EXPORT int dcm_nl_family_id(const struct dcm_nl *nl)
{
	return nl ? nl->family : -EINVAL;
}

/* ------------------------------------------------------------------
 * Requests
 */

/* A reply that does not parse (@err, explained already): the request's error, the rest skipped. */
static int stop_request(struct req_ctx *ctx, int err)
{
	if (!ctx->err) {
		ctx->err = err;
		ctx->err_explained = true;
	}
	ctx->stopped = true;
	return NL_SKIP;
}

static int req_valid(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct dcm_info info;
	int err;

	if (nlh->nlmsg_type != ctx->family || ctx->stopped)
		return NL_SKIP;

	if (ctx->parse) {
		err = ctx->parse(nlh, ctx->parse_arg);
		if (err)
			return stop_request(ctx, err);
		ctx->count++;
		return NL_OK;
	}

	err = dcm_nl_parse_info(nlh, &info);
	if (err)
		return stop_request(ctx, err);
	ctx->count++;
	if (ctx->info) {
		*ctx->info = info;
	} else if (ctx->cb) {
		int r = ctx->cb(&info, ctx->arg);

		if (r) {
			ctx->cb_ret = r;
			ctx->stopped = true;
		}
	}
	return NL_OK;
}

static int req_finish(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	/* A failed dump carries its errno in NLMSG_DONE. */
	if (nlmsg_datalen(nlh) >= (int)sizeof(int)) {
		int e;

		memcpy(&e, nlmsg_data(nlh), sizeof(e));
		if (e < 0 && !ctx->err)
			ctx->err = e;
	}
	ctx->done = true;
	return NL_STOP;
}

static int req_ack(struct nl_msg *msg, void *arg)
{
	struct req_ctx *ctx = arg;

	(void)msg;
	ctx->done = true;
	return NL_STOP;
}

/*
 * The extended ack (NETLINK_EXT_ACK) of an error: the TLVs that follow the
 * struct nlmsgerr and, unless NLM_F_CAPPED, the echoed request. Copies
 * NLMSGERR_ATTR_MSG into @buf (empty if there is none or it is malformed).
 */
void dcm_nl_ext_ack_msg(const struct nlmsgerr *e, char *buf, size_t len)
{
	const struct nlmsghdr *nlh =
		(const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off, total;
	const char *s;
	int alen;

	if (!len)
		return;
	buf[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < NLMSG_HDRLEN)
		return;
	total = nlh->nlmsg_len - NLMSG_HDRLEN;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < NLMSG_HDRLEN)
			return;
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	off = NLMSG_ALIGN(off);
	if (off >= total)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)e + off), (int)(total - off),
		      NULL) < 0 || !tb[NLMSGERR_ATTR_MSG])
		return;
	s = nla_data(tb[NLMSGERR_ATTR_MSG]);
	alen = nla_len(tb[NLMSGERR_ATTR_MSG]);
	if (alen <= 0 || !memchr(s, '\0', (size_t)alen))
		return;
	snprintf(buf, len, "%s", s);
}

static int req_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct req_ctx *ctx = arg;

	(void)nla;
	if (!ctx->err) {
		ctx->err = e->error < 0 ? e->error : -EIO;
		dcm_nl_ext_ack_msg(e, ctx->ext_msg, sizeof(ctx->ext_msg));
	}
	ctx->done = true;
	return NL_STOP;
}

/*
 * Send @msg on the request socket and process replies until the ACK, the
 * end of the dump or an error. Called with req_lock held.
 */
static int do_request(struct dcm_nl *nl, struct nl_msg *msg,
		      struct req_ctx *ctx)
{
	struct nl_cb *cb;
	int r;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, req_valid, ctx);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, req_finish, ctx);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, req_ack, ctx);
	nl_cb_err(cb, NL_CB_CUSTOM, req_error, ctx);

	r = nl_send_auto(nl->req, msg);
	if (r < 0) {
		r = dcm_nle_to_errno(r);
		dcm_set_error(r, "netlink: send: %s", dcm_strerror(r));
		goto out;
	}

	while (!ctx->done) {
		r = nl_recvmsgs(nl->req, cb);
		if (r < 0) {
			if (!ctx->err) {
				int e = dcm_nle_to_errno(r);

				if (e == -EAGAIN)
					e = -ETIMEDOUT;
				ctx->err = e;
				ctx->err_explained = true;
				if (e == -ETIMEDOUT)
					dcm_set_error(e, "netlink: no answer from the kernel in %d s",
						      DCM_NL_TIMEOUT_S);
				else
					dcm_set_error(e, "netlink: receive: %s",
						      nl_geterror(r));
			}
			break;
		}
	}
	r = 0;
out:
	nl_cb_put(cb);
	return r;
}

struct nl_msg *dcm_nl_new_request(struct dcm_nl *nl, int flags, uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, DCM_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int dcm_nl_request(struct dcm_nl *nl, struct nl_msg *msg, struct req_ctx *ctx)
{
	int err;

	ctx->family = nl->family;
	pthread_mutex_lock(&nl->req_lock);
	err = do_request(nl, msg, ctx);
	pthread_mutex_unlock(&nl->req_lock);
	return err;
}

int dcm_nl_dump(struct dcm_nl *nl, uint8_t cmd, struct req_ctx *ctx)
{
	struct nl_msg *msg = dcm_nl_new_request(nl, NLM_F_DUMP, cmd);
	int err;

	if (!msg)
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	err = dcm_nl_request(nl, msg, ctx);
	nlmsg_free(msg);
	return err;
}

int dcm_nl_verdict(const struct req_ctx *ctx, const char *what)
{
	if (ctx->err && !ctx->err_explained)	/* the kernel's errno */
		dcm_set_error(ctx->err, "netlink: %s: %s", what, dcm_strerror(ctx->err));
	return ctx->err;
}

int dcm_nl_admin_request(struct dcm_nl *nl, struct nl_msg *msg, struct req_ctx *ctx,
			 const char *what, const char *action, unsigned int index)
{
	int err;

	err = dcm_nl_request(nl, msg, ctx);
	nlmsg_free(msg);
	if (err)
		return err;
	if (!ctx->err)
		return 0;
	if (ctx->err_explained)
		return ctx->err;
	if (ctx->ext_msg[0])
		return dcm_set_error(ctx->err, "%s", ctx->ext_msg);
	if (ctx->err == -EPERM)
		return dcm_set_error(ctx->err, "permission denied: %s needs CAP_NET_ADMIN (root)",
				     action);
	if (ctx->err == -ENODEV)
		return dcm_set_error(ctx->err, "netlink: %s: no controller %u", what, index);
	return dcm_set_error(ctx->err, "netlink: %s for controller %u: %s", what, index,
			     dcm_strerror(ctx->err));
}

DCM_EXPORT int dcm_nl_get_info(struct dcm_nl *nl, unsigned int index,
			       struct dcm_info *info)
{
	struct req_ctx ctx;
	struct dcm_info tmp;
	struct nl_msg *msg;
	char what[48];
	int err;

	if (!nl || !info)
		return -EINVAL;

	memset(&ctx, 0, sizeof(ctx));
	ctx.info = &tmp;

	msg = dcm_nl_new_request(nl, 0, DCM_CMD_GET_INFO);
	if (!msg || nla_put_u32(msg, DCM_A_INFO_INDEX, index) < 0) {
		nlmsg_free(msg);
		return dcm_set_error(-ENOMEM, "netlink: out of memory");
	}
	err = dcm_nl_request(nl, msg, &ctx);
	nlmsg_free(msg);
	if (err)
		return err;
	snprintf(what, sizeof(what), "GET_INFO for controller %u", index);
	err = dcm_nl_verdict(&ctx, what);
	if (err)
		return err;
	if (ctx.count == 0)
		return dcm_set_error(-EPROTO, "netlink: GET_INFO for controller %u: acknowledged without a reply",
				     index);
	if (tmp.index != index)
		return dcm_set_error(-EPROTO, "netlink: GET_INFO for controller %u: the reply is for controller %u",
				     index, tmp.index);
	*info = tmp;
	return 0;
}

DCM_EXPORT int dcm_nl_dump_info(struct dcm_nl *nl, dcm_info_cb cb, void *arg)
{
	struct req_ctx ctx;
	int err;

	if (!nl || !cb)
		return -EINVAL;

	memset(&ctx, 0, sizeof(ctx));
	ctx.cb = cb;
	ctx.arg = arg;
	err = dcm_nl_dump(nl, DCM_CMD_GET_INFO, &ctx);
	if (err)
		return err;
	err = dcm_nl_verdict(&ctx, "GET_INFO dump");
	if (err)
		return err;
	if (ctx.cb_ret)
		return ctx.cb_ret;
	return ctx.count;
}

/* ------------------------------------------------------------------
 * Events
 */

DCM_EXPORT int dcm_nl_subscribe_events(struct dcm_nl *nl)
{
	struct nl_sock *sk;
	int grp, err;

	if (!nl)
		return -EINVAL;

	pthread_mutex_lock(&nl->ev_lock);
	if (nl->ev) {
		err = 0;
		goto out;
	}

	pthread_mutex_lock(&nl->req_lock);
	grp = genl_ctrl_resolve_grp(nl->req, DCM_GENL_NAME,
				    DCM_GENL_MCGRP_EVENTS);
	pthread_mutex_unlock(&nl->req_lock);
	if (grp < 0) {
		err = dcm_nle_to_errno(grp);
		if (err == -ENOENT)
			dcm_set_error(err, "netlink: family %s has no multicast group %s",
				      DCM_GENL_NAME, DCM_GENL_MCGRP_EVENTS);
		else
			dcm_set_error(err, "netlink: resolving group %s: %s",
				      DCM_GENL_MCGRP_EVENTS, dcm_strerror(err));
		goto out;
	}

	err = connect_socket(&sk);
	if (err)
		goto out;
	/* Events carry sequence number 0 and want no ACKs. */
	nl_socket_disable_seq_check(sk);
	nl_socket_disable_auto_ack(sk);
	nl_socket_set_buffer_size(sk, DCM_NL_EVENT_RCVBUF, 0);

	err = nl_socket_set_nonblocking(sk);
	if (!err)
		err = nl_socket_add_membership(sk, grp);
	if (err < 0) {
		err = dcm_nle_to_errno(err);
		dcm_set_error(err, "netlink: joining group %s: %s",
			      DCM_GENL_MCGRP_EVENTS, dcm_strerror(err));
		nl_socket_free(sk);
		goto out;
	}
	nl->ev = sk;
	nl->events_grp = grp;
	err = 0;
out:
	pthread_mutex_unlock(&nl->ev_lock);
	return err;
}

DCM_EXPORT int dcm_nl_event_fd(const struct dcm_nl *nl)
{
	if (!nl)
		return -EINVAL;
	if (!nl->ev)
		return -ENOTCONN;
	return nl_socket_get_fd(nl->ev);
}

struct ev_ctx {
	int family;
	dcm_event_cb cb;
	void *arg;
	int count;
	int cb_ret;
};

static int ev_valid(struct nl_msg *msg, void *arg)
{
	struct ev_ctx *ctx = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct sockaddr_nl *src = nlmsg_get_src(msg);
	struct dcm_nl_event ev;
	struct genlmsghdr *gnlh;

	/* Only the kernel's messages of our family count. */
	if (ctx->cb_ret || !src || src->nl_pid != 0 ||
	    nlh->nlmsg_type != ctx->family || !genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;

	gnlh = genlmsg_hdr(nlh);
	ev.cmd = gnlh->cmd;
	ev.version = gnlh->version;
	ev.nlh = nlh;
	ctx->count++;
	ctx->cb_ret = ctx->cb(&ev, ctx->arg);
	return ctx->cb_ret ? NL_STOP : NL_OK;
}

/* Multicast messages carry sequence number 0: accept them all. */
static int ev_seq_ok(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

DCM_EXPORT int dcm_nl_recv(struct dcm_nl *nl, dcm_event_cb cb, void *arg)
{
	struct ev_ctx ctx = { .cb = cb, .arg = arg };
	struct nl_cb *ncb;
	int r;

	if (!nl || !cb)
		return -EINVAL;

	pthread_mutex_lock(&nl->ev_lock);
	if (!nl->ev) {
		r = dcm_set_error(-ENOTCONN, "netlink: not subscribed to events");
		goto out;
	}
	ctx.family = nl->family;

	ncb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!ncb) {
		r = dcm_set_error(-ENOMEM, "netlink: out of memory");
		goto out;
	}
	nl_cb_set(ncb, NL_CB_VALID, NL_CB_CUSTOM, ev_valid, &ctx);
	nl_cb_set(ncb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, ev_seq_ok, NULL);

	r = nl_recvmsgs_report(nl->ev, ncb);
	nl_cb_put(ncb);

	if (r < 0) {
		r = dcm_nle_to_errno(r);
		if (r == -EAGAIN) {
			r = 0;	/* nothing queued */
		} else {
			/* recvmsg() fails with ENOBUFS, libnl says NOMEM */
			if (r == -ENOMEM)
				r = -ENOBUFS;
			dcm_set_error(r, "netlink: event socket: %s%s",
				      dcm_strerror(r),
				      r == -ENOBUFS ? " (events lost)" : "");
			goto out;
		}
	}
	r = ctx.cb_ret ? ctx.cb_ret : ctx.count;
out:
	pthread_mutex_unlock(&nl->ev_lock);
	return r;
}
