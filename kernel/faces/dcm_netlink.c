// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the generic netlink family "dcm": what its request handlers share,
 * and get-info and get-events.
 *
 * Documentation/netlink/specs/dcm.yaml describes it; its operation table
 * and per-operation policies are generated from it (dcm_nl_gen.c), whose
 * handlers are here, in dcm_config.c and in dcm_nl_special.c; the family
 * itself is dcm_nl_family.c's, above them all, which gives it to this file
 * as it registers it (dcm_nl_start()): the handlers' helpers name no
 * handler, nor the op table.
 */

#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_core.h"
#include "core/dcm_describe.h"
#include "faces/dcm_faces.h"
#include "faces/dcm_netlink.h"
#include "model/dcm_calib.h"

/* The ranges the spec gives its checks, and so the policies, are the kernel's. */
static_assert(DCM_MAX_CONTROLLERS - 1 == 15);
static_assert(DCM_CALIB_COUNTS - 1 == 4095);
static_assert(DCM_MAX_NAME_LEN - 1 == 127 && DCM_MAX_STRING_LEN - 1 == 255);

/* The family, dcm_nl_family.c's: set by dcm_nl_start(), before it is registered. */
static struct genl_family *dcm_genl_family __ro_after_init;

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

	lockdep_assert_held(&ctrl->lock);
	hdr = genlmsg_put(skb, portid, seq, dcm_genl_family, flags, DCM_CMD_GET_INFO);
	if (!hdr)
		return -EMSGSIZE;
	if (dcm_put_info(skb, ctrl)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * dcm_nl_get_info_doit() - DCM_CMD_GET_INFO: describe one controller
 * @skb: the request
 * @info: its attributes: INDEX
 *
 * Return: 0, -ENODEV for no such controller, or a negative errno.
 */
int dcm_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
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

/**
 * dcm_nl_get_info_dumpit() - DCM_CMD_GET_INFO dump: every controller
 * @skb: the answer's buffer
 * @cb: the dump; cb->args[0] is the index it resumes at
 *
 * Return: the length put, 0 at the end, or a negative errno.
 */
int dcm_nl_get_info_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
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

/**
 * dcm_genlmsg_put_reply() - start the answer to a request of the family
 * @msg: the answer's buffer
 * @info: the request
 * @cmd: DCM_CMD_* of the answer
 *
 * Return: the user header, or NULL if @msg is too small.
 */
void *dcm_genlmsg_put_reply(struct sk_buff *msg, struct genl_info *info, u8 cmd)
{
	return genlmsg_put_reply(msg, info, dcm_genl_family, 0, cmd);
}

struct nl_job {
	struct genl_info *info;
	int (*run)(struct dcm_controller *ctrl, struct dcm_runtime *rt, void *arg);
	void *arg;
};

static int nl_job_run(struct dcm_controller *ctrl, void *arg)
{
	struct nl_job *j = arg;
	struct dcm_runtime *rt;
	int ret;

	ret = dcm_describe_running(ctrl, &rt);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG(j->info->extack, "no robot description loaded");
	if (ret)
		return ret;
	return j->run(ctrl, rt, j->arg);
}

/**
 * dcm_nl_runtime_job() - run a command that acts on the boards (calibrate,
 *	special) as a job of the controller the request names
 * @info: the request
 * @attr: its attribute that holds the controller's index (a u32 the
 *	request must have)
 * @run: the command, given the controller and its running state, which
 *	stays while it runs; it waits for the boards holding no lock
 * @arg: @run's
 *
 * The controller's jobs run one at a time (dcm_describe_job()): these
 * commands and commits are serialised, while the configuration steps and
 * GET_INFO go on. The caller waits for its job holding no lock.
 *
 * Return: what @run returned, or -EINVAL (no index), -ENODEV (no such
 * controller, or it is going), -ENOENT (no description loaded).
 */
int dcm_nl_runtime_job(struct genl_info *info, int attr,
		       int (*run)(struct dcm_controller *ctrl, struct dcm_runtime *rt, void *arg),
		       void *arg)
{
	struct nl_job j = { .info = info, .run = run, .arg = arg };
	struct dcm_controller *ctrl;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, attr))
		return -EINVAL;
	ctrl = dcm_controller_get(nla_get_u32(info->attrs[attr]));
	if (!ctrl) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[attr], "no such dcm controller");
		return -ENODEV;
	}
	ret = dcm_describe_job(ctrl, nl_job_run, &j);
	dcm_controller_put(ctrl);
	return ret;
}

static int put_event(struct sk_buff *skb, int index, const struct dcm_event *ev)
{
	if (nla_put_u32(skb, DCM_A_EV_INDEX, index) ||
	    nla_put_u32(skb, DCM_A_EV_TYPE, ev->type) ||
	    nla_put_u32(skb, DCM_A_EV_TIME, ev->time) ||
	    nla_put_u32(skb, DCM_A_EV_CODE, ev->code) ||
	    nla_put_s64(skb, DCM_A_EV_VALUE, ev->value, DCM_A_EV_PAD) ||
	    nla_put_u32(skb, DCM_A_EV_COUNT, ev->count))
		return -EMSGSIZE;
	if (ev->type == DCM_EV_ERROR && nla_put_u32(skb, DCM_A_EV_LEVEL, ev->level))
		return -EMSGSIZE;
	if (ev->device[0] && nla_put_string(skb, DCM_A_EV_DEVICE, ev->device))
		return -EMSGSIZE;
	if (ev->text[0] && nla_put_string(skb, DCM_A_EV_TEXT, ev->text))
		return -EMSGSIZE;
	if (ev->lost && nla_put_u32(skb, DCM_A_EV_LOST, ev->lost))
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, DCM_A_EV_SEQ, ev->seq, DCM_A_EV_PAD))
		return -EMSGSIZE;
	return 0;
}

/* One event of the history as a message of the dump; -EMSGSIZE when full. */
static int dcm_fill_event_msg(struct sk_buff *skb, struct netlink_callback *cb, int index,
			      const struct dcm_event *ev)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  dcm_genl_family, NLM_F_MULTI, DCM_CMD_GET_EVENTS);
	if (!hdr)
		return -EMSGSIZE;
	if (put_event(skb, index, ev)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * dcm_nl_get_events_dumpit() - DCM_CMD_GET_EVENTS dump: the events history
 *	of every controller
 * @skb: the answer's buffer
 * @cb: the dump; cb->args[0] is the controller it resumes at, cb->args[1]
 *	the number (seq) of the event it resumes at in that controller
 *
 * Each controller's last DCM_EVENT_HISTORY events of each class (safety
 * and informational, model/dcm_evlog.h), in the order posted. Events
 * posted while the dump runs are given too, up to the moment it reaches
 * the end of the controller's history.
 *
 * Return: the length put, 0 at the end, or a negative errno.
 */
int dcm_nl_get_events_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long index = cb->args[0];
	struct dcm_controller *ctrl;
	struct dcm_event *ev;
	int ret = 0;
	u64 seq;

	ev = kmalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	while ((ctrl = dcm_controller_get_next(&index))) {
		seq = cb->args[1];
		while (dcm_events_history(ctrl, &seq, ev)) {
			ret = dcm_fill_event_msg(skb, cb, ctrl->index, ev);
			if (ret)
				break;
			seq++;
		}
		dcm_controller_put(ctrl);
		cb->args[1] = seq;
		if (ret)
			break;
		index++;
		cb->args[1] = 0;
	}
	cb->args[0] = index;
	kfree(ev);

	/* A full skb is sent and the dump resumes at the event it lacked. */
	if (ret && !skb->len)
		return ret;
	return skb->len;
}

/* Does a socket listen to the "events" group? */
static bool dcm_nl_events_listening(void)
{
	return genl_has_listeners(dcm_genl_family, &init_net, DCM_NLGRP_EVENTS);
}

/*
 * One DCM_CMD_EVENT message to the "events" group: 0, or -ENOMEM if memory
 * lacked (the event is counted dropped). A listener whose socket is full
 * loses it and learns so from its socket (ENOBUFS).
 */
static int dcm_nl_event_send(int index, const struct dcm_event *ev)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, 0, 0, dcm_genl_family, 0, DCM_CMD_EVENT);
	if (!hdr || put_event(skb, index, ev)) {
		nlmsg_free(skb);
		return -ENOMEM;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast(dcm_genl_family, skb, 0, DCM_NLGRP_EVENTS, GFP_KERNEL);
	return 0;
}

static const struct dcm_event_sink dcm_nl_event_sink = {
	.listening = dcm_nl_events_listening,
	.send = dcm_nl_event_send,
};

/*
 * The extended ack of a request is built after its doit returns, from the
 * text extack->_msg points to, measured and then copied: that text must not
 * change, nor go, until then. A message built at run time is therefore
 * copied into storage of the requesting task and socket (struct
 * dcm_nl_msg), which nothing else writes: a task sends its requests one
 * after the other, each acked before the next starts, so its previous
 * message is free when it sets a new one; a socket's messages go when it is
 * released, which no request of it can be in flight for (the sender holds
 * the socket's file); the rest at module exit.
 */

/**
 * struct dcm_nl_msg - the text of a task's last extended ack
 * @node: in dcm_nl_msgs, by @task
 * @task: the task that sent the request; a key only, never dereferenced
 * @portid: the socket it was sent on
 * @text: the message
 */
struct dcm_nl_msg {
	struct hlist_node node;
	const void *task;
	u32 portid;
	char text[];
};

static DEFINE_HASHTABLE(dcm_nl_msgs, 6);
static DEFINE_SPINLOCK(dcm_nl_msgs_lock);

/**
 * dcm_nl_set_err_msg() - a message for the extended ack, built at run time
 * @info: the request
 * @msg: the message; copied, so it may change or go once this returns
 *
 * NL_SET_ERR_MSG() takes literals only; the configuration path names the
 * device, subdevice or key at fault, as the request spelt it. So the message
 * is quoted safely: every byte but printable ASCII (control characters, DEL,
 * bytes of 0x80 and above), and the backslash, is sent as \xHH, never raw.
 * Context: process, the request's doit.
 */
void dcm_nl_set_err_msg(struct genl_info *info, const char *msg)
{
	const unsigned int flags = ESCAPE_HEX | ESCAPE_NAP | ESCAPE_APPEND;
	struct dcm_nl_msg *m, *old = NULL;
	size_t len = strlen(msg);
	int esc;

	if (!info->extack)
		return;
	esc = string_escape_mem(msg, len, NULL, 0, flags, "\\");
	m = kmalloc(struct_size(m, text, esc + 1), GFP_KERNEL);
	spin_lock(&dcm_nl_msgs_lock);
	hash_for_each_possible(dcm_nl_msgs, old, node, (unsigned long)current) {
		if (old->task == current) {
			hash_del(&old->node);
			break;
		}
	}
	if (m) {
		m->task = current;
		m->portid = info->snd_portid;
		string_escape_mem(msg, len, m->text, esc, flags, "\\");
		m->text[esc] = '\0';
		hash_add(dcm_nl_msgs, &m->node, (unsigned long)current);
	}
	spin_unlock(&dcm_nl_msgs_lock);
	/* The old one was this task's: its ack went before this request came. */
	kfree(old);
	info->extack->_msg = m ? m->text : "out of memory for the error message";
}

/* The messages of a socket that was released, or of all at exit (@all). */
static void dcm_nl_msgs_drop(u32 portid, bool all)
{
	struct dcm_nl_msg *m;
	struct hlist_node *tmp;
	HLIST_HEAD(gone);
	int bkt;

	spin_lock(&dcm_nl_msgs_lock);
	hash_for_each_safe(dcm_nl_msgs, bkt, tmp, m, node) {
		if (all || m->portid == portid) {
			hash_del(&m->node);
			hlist_add_head(&m->node, &gone);
		}
	}
	spin_unlock(&dcm_nl_msgs_lock);
	hlist_for_each_entry_safe(m, tmp, &gone, node)
		kfree(m);
}

/*
 * A socket that closes takes its messages with it (its open configuration
 * transaction: dcm_config.c's own notifier).
 */
static int dcm_netlink_notify(struct notifier_block *nb, unsigned long state, void *ptr)
{
	struct netlink_notify *n = ptr;

	if (state == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net)) {
		dcm_nl_msgs_drop(n->portid, false);
	}
	return NOTIFY_DONE;
}

static struct notifier_block dcm_netlink_notifier = {
	.notifier_call = dcm_netlink_notify,
};

/**
 * dcm_nl_start() - register the generic netlink family "dcm"
 * @family: the family, its op table and groups (dcm_nl_family.c's)
 *
 * Return: 0 or a negative errno.
 */
int dcm_nl_start(struct genl_family *family)
{
	int ret;

	dcm_genl_family = family;
	ret = netlink_register_notifier(&dcm_netlink_notifier);
	if (ret)
		return ret;
	ret = genl_register_family(dcm_genl_family);
	if (ret) {
		netlink_unregister_notifier(&dcm_netlink_notifier);
		return ret;
	}
	dcm_events_set_sink(&dcm_nl_event_sink);
	return 0;
}

/**
 * dcm_nl_stop() - unregister the family dcm_nl_start() registered
 */
void dcm_nl_stop(void)
{
	dcm_events_set_sink(NULL);
	genl_unregister_family(dcm_genl_family);
	netlink_unregister_notifier(&dcm_netlink_notifier);
	dcm_nl_msgs_drop(0, true);
}
