// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the netlink commands that act on the boards: DCM_CMD_CALIBRATE and
 * DCM_CMD_SPECIAL. Each parses its request, runs as a job of the
 * controller with its running description (dcm_nl_runtime_job(): no lock
 * held while the boards are waited for), calls the core (dcm_special()) or
 * the boards (dcm_calibrate()) and builds the answer.
 */

#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_controller.h"
#include "faces/dcm_netlink.h"
#include "model/dcm_calib.h"
#include "model/dcm_model.h"
#include "model/dcm_userlimit.h"
#include "core/dcm_runtime.h"
#include "core/dcm_special.h"

#define TEXT_LEN	DCM_MAX_STRING_LEN

/*
 * The diagnostic any user may run, limited per user (root's, with
 * CAP_NET_ADMIN, is not): 2 a second in bursts of 5 for a user, 10 a
 * second in bursts of 20 for every user together.
 */
#define DIAG_USER_PER_S		2
#define DIAG_USER_BURST		5
#define DIAG_TOTAL_PER_S	10
#define DIAG_TOTAL_BURST	20

static DEFINE_SPINLOCK(diag_limit_lock);
static struct dcm_userlimit diag_limit = {
	.rate_per_s = DIAG_USER_PER_S,
	.burst = DIAG_USER_BURST,
	.total_per_s = DIAG_TOTAL_PER_S,
	.total_burst = DIAG_TOTAL_BURST,
};

/* May the sender of @skb, without CAP_NET_ADMIN, run a diagnostic now? */
static bool diag_allowed(struct sk_buff *skb)
{
	u32 uid = from_kuid_munged(&init_user_ns, NETLINK_CREDS(skb)->uid);
	bool ok;

	spin_lock(&diag_limit_lock);
	ok = dcm_userlimit_allow(&diag_limit, uid, ktime_get_ns() + 1);
	spin_unlock(&diag_limit_lock);
	return ok;
}

static int calib_reply(struct genl_info *info, u32 index, u8 stop,
		       const struct dcm_calib_result *r)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = dcm_genlmsg_put_reply(msg, info, DCM_CMD_CALIBRATE);
	if (!hdr || nla_put_u32(msg, DCM_A_CAL_INDEX, index) ||
	    nla_put_string(msg, DCM_A_CAL_JOINT, r->joint) ||
	    nla_put_u8(msg, DCM_A_CAL_STOP, stop) ||
	    nla_put_u32(msg, DCM_A_CAL_ZERO, r->zero) ||
	    nla_put_u32(msg, DCM_A_CAL_PREVIOUS, r->previous) ||
	    nla_put_u32(msg, DCM_A_CAL_RAW, r->raw)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* A calibration's request and result, for its job. */
struct calib_job {
	const char *joint;
	u8 stop;
	u16 zero;
	u32 index;
	struct dcm_calib_result res;
	const char *why;
	bool ran;
};

static int calib_run(struct dcm_controller *ctrl, struct dcm_runtime *rt, void *arg)
{
	struct calib_job *c = arg;

	c->index = ctrl->index;
	c->ran = true;
	return dcm_calibrate(ctrl, rt, c->joint, c->stop, c->zero, &c->res, &c->why);
}

/**
 * dcm_nl_calibrate_doit() - DCM_CMD_CALIBRATE: calibrate a joint's MRE
 * @skb: the request
 * @info: its attributes: INDEX JOINT STOP, and ZERO for DCM_CALIB_SET
 *
 * dcm_calibrate() does the work. The answer: INDEX JOINT STOP ZERO
 * PREVIOUS RAW (the MRE count when the request came).
 *
 * Return: 0; -ENOENT for an unknown joint (or no description); -EINVAL for
 * a joint without an MRE angle of its own on a motor board, or ZERO with
 * a measuring STOP (or none with SET); -EIO; -ENODEV.
 */
int dcm_nl_calibrate_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct calib_job c = { };
	int ret;
	u8 stop;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_CAL_INDEX) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CAL_JOINT) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CAL_STOP))
		return -EINVAL;
	stop = nla_get_u8(info->attrs[DCM_A_CAL_STOP]);
	if (stop == DCM_CALIB_SET && !info->attrs[DCM_A_CAL_ZERO]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_CAL_STOP],
				    "STOP set needs ZERO");
		return -EINVAL;
	}
	if (stop != DCM_CALIB_SET && info->attrs[DCM_A_CAL_ZERO]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_CAL_ZERO],
				    "ZERO goes with STOP set only");
		return -EINVAL;
	}
	if (info->attrs[DCM_A_CAL_ZERO])
		c.zero = nla_get_u32(info->attrs[DCM_A_CAL_ZERO]);
	c.joint = nla_data(info->attrs[DCM_A_CAL_JOINT]);
	c.stop = stop;
	ret = dcm_nl_runtime_job(info, DCM_A_CAL_INDEX, calib_run, &c);
	if (ret) {
		/* The joint is at fault when it is unknown or not calibrable. */
		if (c.ran && (ret == -ENOENT || ret == -EINVAL))
			NL_SET_BAD_ATTR(info->extack, info->attrs[DCM_A_CAL_JOINT]);
		if (c.why)
			dcm_nl_set_err_msg(info, c.why);
		return ret;
	}
	return calib_reply(info, c.index, stop, &c.res);
}

/* One DCM_A_SP_BOARD nest. */
static int put_board(void *arg, const struct dcm_special_board *b)
{
	struct sk_buff *msg = arg;
	struct nlattr *nest;

	nest = nla_nest_start(msg, DCM_A_SP_BOARD);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(msg, DCM_A_BRD_NAME, b->name) ||
	    nla_put_string(msg, DCM_A_BRD_TYPE, b->type) ||
	    nla_put_string(msg, DCM_A_BRD_BUS, b->bus) ||
	    nla_put_u32(msg, DCM_A_BRD_ADDRESS, b->address))
		goto fail;
	if (b->state && (nla_put_string(msg, DCM_A_BRD_STATE, b->state) ||
			 nla_put_u64_64bit(msg, DCM_A_BRD_ACK, b->ack, DCM_A_BRD_PAD) ||
			 nla_put_u64_64bit(msg, DCM_A_BRD_NACK, b->nack, DCM_A_BRD_PAD) ||
			 nla_put_u32(msg, DCM_A_BRD_ERRORS, b->errors)))
		goto fail;
	if (b->version && nla_put_string(msg, DCM_A_BRD_VERSION, b->version))
		goto fail;
	nla_nest_end(msg, nest);
	return 0;
fail:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* A special command's request and answer, for its job. */
struct special_job {
	struct genl_info *info;
	u32 cmd;
	struct sk_buff *msg;
};

/* The command, and its answer built: @sj->msg on success. */
static int special_run(struct dcm_controller *ctrl, struct dcm_runtime *rt, void *arg)
{
	struct special_job *sj = arg;
	struct dcm_special_out out = { .put = put_board };
	struct sk_buff *msg;
	void *hdr;
	int ret;

	out.text = kzalloc(TEXT_LEN, GFP_KERNEL);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE + rt->model->n_devices * (DCM_MAX_NAME_LEN + 192),
			  GFP_KERNEL);
	if (!out.text || !msg) {
		ret = -ENOMEM;
		goto out;
	}
	out.arg = msg;
	hdr = dcm_genlmsg_put_reply(msg, sj->info, DCM_CMD_SPECIAL);
	if (!hdr || nla_put_u32(msg, DCM_A_SP_INDEX, ctrl->index) ||
	    nla_put_u32(msg, DCM_A_SP_COMMAND, sj->cmd)) {
		ret = -EMSGSIZE;
		goto out;
	}
	ret = dcm_special(ctrl, rt, sj->cmd, &out);
	if (!ret && nla_put_string(msg, DCM_A_SP_TEXT, out.text))
		ret = -EMSGSIZE;
	if (ret)
		goto out;
	genlmsg_end(msg, hdr);
	kfree(out.text);
	sj->msg = msg;
	return 0;

out:
	nlmsg_free(msg);
	kfree(out.text);
	return ret;
}

/**
 * dcm_nl_special_doit() - DCM_CMD_SPECIAL: run a special command
 * @skb: the request
 * @info: its attributes: INDEX COMMAND (enum dcm_special)
 *
 * dcm_special() does the work. The answer: INDEX COMMAND TEXT, and for
 * VERSION and DIAGNOSTIC one DCM_A_SP_BOARD nest per device, in the
 * description's order. A job of the controller (dcm_nl_runtime_job()):
 * serialised with calibration and commits, not with the other requests.
 *
 * DIAGNOSTIC is open to every user, DIAG_USER_PER_S times a second (in
 * bursts of DIAG_USER_BURST) for each user without CAP_NET_ADMIN and
 * DIAG_TOTAL_PER_S for all of them together; the other commands need
 * CAP_NET_ADMIN.
 *
 * Return: 0; -EPERM; -EAGAIN past the diagnostic's limit; -ENOENT with no
 * description loaded; -ENODEV; -ENOMEM; -EMSGSIZE.
 */
int dcm_nl_special_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct special_job sj = { .info = info };
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_SP_INDEX) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_SP_COMMAND))
		return -EINVAL;
	sj.cmd = nla_get_u32(info->attrs[DCM_A_SP_COMMAND]);
	/* Diagnostic only reads: every user may; the others act on the boards. */
	if (sj.cmd != DCM_SPECIAL_DIAGNOSTIC && !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_SP_COMMAND],
				    "this special command needs CAP_NET_ADMIN");
		return -EPERM;
	}
	if (sj.cmd == DCM_SPECIAL_DIAGNOSTIC && !netlink_capable(skb, CAP_NET_ADMIN) &&
	    !diag_allowed(skb)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_SP_COMMAND],
				    "diagnostic: at most " __stringify(DIAG_USER_PER_S)
				    " a second per user, try again later");
		return -EAGAIN;
	}
	ret = dcm_nl_runtime_job(info, DCM_A_SP_INDEX, special_run, &sj);
	if (ret)
		return ret;
	return genlmsg_reply(sj.msg, info);
}
