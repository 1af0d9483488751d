// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - configuration transactions of the netlink family: a robot
 * description is staged step by step by one socket, checked whole, and
 * replaces the running one in one step, or changes nothing.
 *
 * The kernel trusts no step: every one is checked as it comes (names, types,
 * ranges, the device a subdevice names), and the whole again at commit.
 */

#include <linux/slab.h>

#include "core/dcm_controller.h"
#include "core/dcm_core.h"
#include "core/dcm_describe.h"
#include "faces/dcm_faces.h"
#include "faces/dcm_netlink.h"
#include "model/dcm_model.h"

/* The message of a failed step or commit, for the extended ack. */
#define CONFIG_WHY_LEN	(DCM_MAX_NAME_LEN + 192)

/**
 * struct dcm_config_txn - a controller's configuration transaction, the
 *	netlink face's part of the controller (&dcm_controller.txn)
 * @staged: the description the transaction is building, or NULL
 * @portid: netlink port of the socket that owns @staged, or whose
 *	transaction failed (@failed)
 * @failed: the owner's transaction failed at a step: @why explains it until
 *	the owner's next request, and other sockets still get EBUSY
 * @why: the last error of a step of the owner's, for the netlink ack
 * @committing: a commit, a job of the controller, reads the chest store
 *	into @staged with &dcm_desc.lock dropped: a request of another socket
 *	meanwhile gets EBUSY, one of the owner's (another thread's) waits for
 *	the commit and is answered as after it (config_lock()), and a
 *	closing socket leaves @staged to the commit
 *
 * Under the controller's &dcm_desc.lock, which orders the transactions.
 */
struct dcm_config_txn {
	struct dcm_model *staged;
	u32 portid;
	bool failed;
	bool committing;
	char why[CONFIG_WHY_LEN];
};

/* The controller a request names, held. */
static struct dcm_controller *config_get(struct genl_info *info)
{
	struct dcm_controller *ctrl;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_INDEX))
		return ERR_PTR(-EINVAL);
	ctrl = dcm_controller_get(nla_get_u32(info->attrs[DCM_A_CFG_INDEX]));
	if (!ctrl) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_CFG_INDEX],
				    "no such dcm controller");
		return ERR_PTR(-ENODEV);
	}
	return ctrl;
}

/*
 * Whether the sender may go on with the transaction; under desc.lock. For
 * every command but BEGIN, only if the sender owns its open transaction.
 */
static int config_check(struct dcm_controller *ctrl, struct genl_info *info, bool begin)
{
	struct dcm_config_txn *txn = ctrl->txn;

	lockdep_assert_held(&ctrl->desc.lock);
	if (ctrl->dead)
		return -ENODEV;
	/* Another socket's: the owner's requests wait for it (config_lock()). */
	if (txn->committing) {
		NL_SET_ERR_MSG(info->extack,
			       "another socket's configuration transaction is being committed");
		return -EBUSY;
	}
	if ((txn->staged || txn->failed) && txn->portid != info->snd_portid) {
		NL_SET_ERR_MSG(info->extack, "another socket has a configuration transaction open");
		return -EBUSY;
	}
	if (!begin && txn->failed) {
		NL_SET_ERR_MSG(info->extack, "the transaction failed at a step: send BEGIN");
		return -ENOENT;
	}
	if (!begin && !txn->staged) {
		NL_SET_ERR_MSG(info->extack, "no configuration transaction open: send BEGIN first");
		return -ENOENT;
	}
	return 0;
}

/*
 * Whether the request comes from the socket whose transaction is being
 * committed (by another thread of its sender, or another process that
 * shares the socket: a request runs whole in its sender's sendmsg(), so
 * one thread's next request comes after its commit is answered).
 */
static bool config_own_commit(struct dcm_controller *ctrl, struct genl_info *info)
{
	lockdep_assert_held(&ctrl->desc.lock);
	return !ctrl->dead && ctrl->txn->committing &&
	       ctrl->txn->portid == info->snd_portid;
}

/*
 * Take desc.lock for a request, once no commit of its own socket is in
 * progress: a socket's requests are carried out in the order the kernel
 * takes them, so one that comes while the socket's commit runs waits for
 * the controller's jobs, the commit among them, with the lock dropped, and
 * is then answered as after the commit (a step: no transaction open).
 */
static void config_lock(struct dcm_controller *ctrl, struct genl_info *info)
{
	mutex_lock(&ctrl->desc.lock);
	while (config_own_commit(ctrl, info)) {
		mutex_unlock(&ctrl->desc.lock);
		dcm_describe_jobs_wait(ctrl);
		mutex_lock(&ctrl->desc.lock);
	}
}

/* The controller a request names, held, with desc.lock taken (config_check()). */
static struct dcm_controller *config_enter(struct genl_info *info, bool begin)
{
	struct dcm_controller *ctrl = config_get(info);
	int ret;

	if (IS_ERR(ctrl))
		return ctrl;
	config_lock(ctrl, info);
	ret = config_check(ctrl, info, begin);
	if (ret) {
		mutex_unlock(&ctrl->desc.lock);
		dcm_controller_put(ctrl);
		return ERR_PTR(ret);
	}
	return ctrl;
}

static void config_leave(struct dcm_controller *ctrl)
{
	mutex_unlock(&ctrl->desc.lock);
	dcm_controller_put(ctrl);
}

static void drop_staged(struct dcm_config_txn *txn)
{
	dcm_model_free(txn->staged);
	txn->staged = NULL;
	txn->portid = 0;
	txn->failed = false;
}

/*
 * The owner's transaction failed: its description goes, but the socket
 * keeps the controller until its next request, which is told to send BEGIN.
 * The ack takes a copy of @why (dcm_nl_set_err_msg()).
 */
static void fail_staged(struct dcm_config_txn *txn)
{
	dcm_model_free(txn->staged);
	txn->staged = NULL;
	txn->failed = true;
}

/* A failed step: the whole transaction is void (fail_staged()). */
static int step_failed(struct dcm_controller *ctrl, struct genl_info *info,
		       const char *what, const char *name, const char *why, int ret)
{
	struct dcm_config_txn *txn = ctrl->txn;

	snprintf(txn->why, sizeof(txn->why), "%s %s: %s", what, name, why);
	dcm_nl_set_err_msg(info, txn->why);
	fail_staged(txn);
	return ret;
}

/**
 * dcm_nl_config_begin_doit() - DCM_CMD_CONFIG_BEGIN: open a transaction
 * @skb: the request
 * @info: its attributes: INDEX
 *
 * A BEGIN from the owner of an open transaction starts it again, empty.
 *
 * Return: 0 or a negative errno.
 */
int dcm_nl_config_begin_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl = config_enter(info, true);
	struct dcm_model *m;

	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	m = dcm_model_alloc();
	if (m) {
		dcm_model_free(ctrl->txn->staged);
		ctrl->txn->staged = m;
		ctrl->txn->portid = info->snd_portid;
		ctrl->txn->failed = false;
	}
	config_leave(ctrl);
	return m ? 0 : -ENOMEM;
}

/**
 * dcm_nl_config_add_device_doit() - DCM_CMD_CONFIG_ADD_DEVICE
 * @skb: the request
 * @info: its attributes: INDEX NAME TYPE BUS ADDRESS
 *
 * Return: 0 or a negative errno; on failure the transaction is dropped.
 */
int dcm_nl_config_add_device_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl;
	const char *why = NULL;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_TYPE) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_BUS) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_ADDRESS))
		return -EINVAL;
	ctrl = config_enter(info, false);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	ret = dcm_model_add_device(ctrl->txn->staged, nla_data(info->attrs[DCM_A_CFG_NAME]),
				   nla_data(info->attrs[DCM_A_CFG_TYPE]),
				   nla_data(info->attrs[DCM_A_CFG_BUS]),
				   nla_get_u32(info->attrs[DCM_A_CFG_ADDRESS]), &why);
	if (ret)
		ret = step_failed(ctrl, info, "device",
				  nla_data(info->attrs[DCM_A_CFG_NAME]), why, ret);
	config_leave(ctrl);
	return ret;
}

/**
 * dcm_nl_config_add_subdevice_doit() - DCM_CMD_CONFIG_ADD_SUBDEVICE
 * @skb: the request
 * @info: its attributes: INDEX NAME TYPE DEVICE NUMBER
 *
 * Return: 0 or a negative errno; on failure the transaction is dropped.
 */
int dcm_nl_config_add_subdevice_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl;
	const char *why = NULL;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_TYPE) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_DEVICE) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_NUMBER))
		return -EINVAL;
	ctrl = config_enter(info, false);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	ret = dcm_model_add_subdevice(ctrl->txn->staged, nla_data(info->attrs[DCM_A_CFG_NAME]),
				      nla_data(info->attrs[DCM_A_CFG_TYPE]),
				      nla_data(info->attrs[DCM_A_CFG_DEVICE]),
				      nla_get_u32(info->attrs[DCM_A_CFG_NUMBER]), &why);
	if (ret)
		ret = step_failed(ctrl, info, "subdevice",
				  nla_data(info->attrs[DCM_A_CFG_NAME]), why, ret);
	config_leave(ctrl);
	return ret;
}

/**
 * dcm_nl_config_set_key_doit() - DCM_CMD_CONFIG_SET_KEY
 * @skb: the request
 * @info: its attributes: INDEX NAME (the key path) KIND, and VALUE_STRING
 *	for a string, VALUE_INT for the other kinds; a float may come as the
 *	fraction VALUE_INT / VALUE_DEN
 *
 * Return: 0 or a negative errno; on failure the transaction is dropped.
 */
int dcm_nl_config_set_key_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl;
	const char *why = NULL, *str = NULL;
	struct dcm_model *staged;
	s64 num = 0;
	u8 kind;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_KIND))
		return -EINVAL;
	kind = nla_get_u8(info->attrs[DCM_A_CFG_KIND]);
	if (info->attrs[DCM_A_CFG_VALUE_DEN] && kind != DCM_KEY_KIND_FLOAT) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DCM_A_CFG_VALUE_DEN],
				    "only a float has a denominator");
		return -EINVAL;
	}
	if (kind == DCM_KEY_KIND_STRING) {
		if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_VALUE_STRING))
			return -EINVAL;
		str = nla_data(info->attrs[DCM_A_CFG_VALUE_STRING]);
	} else {
		if (GENL_REQ_ATTR_CHECK(info, DCM_A_CFG_VALUE_INT))
			return -EINVAL;
		num = nla_get_s64(info->attrs[DCM_A_CFG_VALUE_INT]);
	}
	ctrl = config_enter(info, false);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	staged = ctrl->txn->staged;
	if (info->attrs[DCM_A_CFG_VALUE_DEN])
		ret = dcm_model_set_fraction(staged, nla_data(info->attrs[DCM_A_CFG_NAME]),
					     num, nla_get_u32(info->attrs[DCM_A_CFG_VALUE_DEN]),
					     &why);
	else
		ret = dcm_model_set_key(staged, nla_data(info->attrs[DCM_A_CFG_NAME]),
					kind, num, str, &why);
	if (ret)
		ret = step_failed(ctrl, info, "key",
				  nla_data(info->attrs[DCM_A_CFG_NAME]), why, ret);
	config_leave(ctrl);
	return ret;
}

/*
 * A commit's request, for its job, and the message of its failure: the
 * extended ack's text is kept per sending task (dcm_nl_set_err_msg()), so
 * the sender sets it, not the job's worker.
 */
struct commit_job {
	struct genl_info *info;
	const char *why;
	char text[CONFIG_WHY_LEN];
};

/*
 * The commit, a job of the controller: checked and its answer begun under
 * desc.lock; the body record read with desc.lock dropped (the transaction
 * is marked committing meanwhile); the swap under desc.lock; the answer
 * sent; what the swap replaced freed with no lock held. The answer goes
 * before the job ends, so before the answer of any request that waited
 * for the commit (config_lock()).
 */
static int commit_run(struct dcm_controller *ctrl, void *arg)
{
	struct commit_job *c = arg;
	struct genl_info *info = c->info;
	struct dcm_describe_old old = { };
	struct dcm_config_txn *txn;
	const char *why = NULL;
	struct sk_buff *msg = NULL;
	struct dcm_model *m;
	void *hdr;
	int ret;

	mutex_lock(&ctrl->desc.lock);
	ret = config_check(ctrl, info, false);
	if (ret)
		goto unlock;
	txn = ctrl->txn;
	m = txn->staged;
	ret = dcm_model_check(m, c->text, sizeof(c->text));
	if (ret) {
		c->why = c->text;
		fail_staged(txn);
		goto unlock;
	}

	/* The answer is ready before anything changes: nothing fails after. */
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out_drop;
	}
	hdr = dcm_genlmsg_put_reply(msg, info, DCM_CMD_CONFIG_COMMIT);
	if (!hdr || nla_put_u32(msg, DCM_A_CFG_INDEX, ctrl->index) ||
	    nla_put_u32(msg, DCM_A_CFG_N_DEVICES, m->n_devices) ||
	    nla_put_u32(msg, DCM_A_CFG_N_SUBDEVICES, m->n_subdevices) ||
	    nla_put_u32(msg, DCM_A_CFG_N_KEYS, m->n_robot_keys)) {
		ret = -EMSGSIZE;
		goto out_drop;
	}

	txn->committing = true;
	mutex_unlock(&ctrl->desc.lock);
	dcm_describe_load(ctrl, m);
	mutex_lock(&ctrl->desc.lock);
	txn->committing = false;
	if (ctrl->dead) {
		ret = -ENODEV;
		goto out_drop;
	}

	ret = dcm_describe_replace(ctrl, m, &why, &old);
	if (ret < 0) {
		c->why = why;
		goto out_drop;
	}
	txn->staged = NULL;
	txn->portid = 0;
	/*
	 * Eight more bytes in a message of NLMSG_DEFAULT_SIZE cannot fail;
	 * if they did, the answer would lack them (libdcm: changed, no
	 * generation), never the commit.
	 */
	if (!nla_put_u32(msg, DCM_A_CFG_GENERATION, ctrl->desc.generation) &&
	    ret == DCM_DESCRIBE_UNCHANGED)
		nla_put_flag(msg, DCM_A_CFG_UNCHANGED);
	genlmsg_end(msg, hdr);
	mutex_unlock(&ctrl->desc.lock);
	/* Committed: an answer that cannot be queued is the caller's error. */
	ret = genlmsg_reply(msg, info);
	dcm_describe_retire(ctrl, &old);
	return ret;

out_drop:
	drop_staged(txn);
unlock:
	mutex_unlock(&ctrl->desc.lock);
	nlmsg_free(msg);
	dcm_describe_retire(ctrl, &old);
	return ret;
}

/**
 * dcm_nl_config_commit_doit() - DCM_CMD_CONFIG_COMMIT: check and publish
 * @skb: the request
 * @info: its attributes: INDEX
 *
 * The staged description is checked whole, given the body record of the
 * chest store (dcm_describe_load()), then dcm_describe_replace() makes it
 * the running one: a job of the controller (dcm_describe_job()), ordered
 * with calibration and special commands. Any failure leaves the running
 * description as it was. The transaction ends either way. The answer
 * carries the counts of what was committed, the running generation, and
 * UNCHANGED if the staged description equalled the running one, which then
 * stays (a reload of the same files keeps clients' handles valid). While
 * the chest store is read, another socket's configuration requests get
 * EBUSY, and those of the committing socket (its other threads') wait for
 * the commit: they are answered after it, as after its end (config_lock()).
 *
 * Return: 0 or a negative errno.
 */
int dcm_nl_config_commit_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl;
	struct commit_job *c;
	int ret;

	/* Refused at once what the job would refuse (config_check()). */
	ctrl = config_enter(info, false);
	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	mutex_unlock(&ctrl->desc.lock);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (c) {
		c->info = info;
		ret = dcm_describe_job(ctrl, commit_run, c);
		if (c->why)
			dcm_nl_set_err_msg(info, c->why);
		kfree(c);
	} else {
		ret = -ENOMEM;
	}
	dcm_controller_put(ctrl);
	return ret;
}

/**
 * dcm_nl_config_abort_doit() - DCM_CMD_CONFIG_ABORT: drop the staged description
 * @skb: the request
 * @info: its attributes: INDEX
 *
 * Return: 0 or a negative errno.
 */
int dcm_nl_config_abort_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct dcm_controller *ctrl = config_enter(info, false);

	if (IS_ERR(ctrl))
		return PTR_ERR(ctrl);
	drop_staged(ctrl->txn);
	config_leave(ctrl);
	return 0;
}

/* A netlink socket that closes takes its open transactions with it. */
static void dcm_config_drop_port(u32 portid)
{
	struct dcm_config_txn *txn;
	struct dcm_controller *ctrl;
	unsigned long index = 0;

	while ((ctrl = dcm_controller_get_next(&index))) {
		mutex_lock(&ctrl->desc.lock);
		/* NULL once its device is gone (dcm_config_del()). */
		txn = ctrl->txn;
		if (txn && !txn->committing && (txn->staged || txn->failed) &&
		    txn->portid == portid)
			drop_staged(txn);
		mutex_unlock(&ctrl->desc.lock);
		dcm_controller_put(ctrl);
		index++;
	}
}

static int dcm_config_notify(struct notifier_block *nb, unsigned long state, void *ptr)
{
	struct netlink_notify *n = ptr;

	if (state == NETLINK_URELEASE && n->protocol == NETLINK_GENERIC &&
	    net_eq(n->net, &init_net))
		dcm_config_drop_port(n->portid);
	return NOTIFY_DONE;
}

static struct notifier_block dcm_config_notifier = {
	.notifier_call = dcm_config_notify,
};

/**
 * dcm_config_add() - a controller's transaction state, none open
 * @ctrl: a created controller, not yet reachable (dcm_device_add())
 *
 * Return: 0 or -ENOMEM.
 */
int dcm_config_add(struct dcm_controller *ctrl)
{
	ctrl->txn = kzalloc(sizeof(*ctrl->txn), GFP_KERNEL);
	return ctrl->txn ? 0 : -ENOMEM;
}

/**
 * dcm_config_del() - free what dcm_config_add() made, an open
 *	transaction's staged description with it
 * @ctrl: the controller, stopped (@dead: no request gets past
 *	config_enter() any more) or never started
 */
void dcm_config_del(struct dcm_controller *ctrl)
{
	struct dcm_config_txn *txn;

	mutex_lock(&ctrl->desc.lock);
	txn = ctrl->txn;
	ctrl->txn = NULL;
	mutex_unlock(&ctrl->desc.lock);
	if (txn)
		dcm_model_free(txn->staged);
	kfree(txn);
}

/**
 * dcm_config_init() - drop a transaction when its netlink socket closes
 *
 * Called before the family is registered (dcm_netlink_init()).
 *
 * Return: 0 or a negative errno.
 */
int dcm_config_init(void)
{
	return netlink_register_notifier(&dcm_config_notifier);
}

/**
 * dcm_config_exit() - undo dcm_config_init(), after the family is gone
 */
void dcm_config_exit(void)
{
	netlink_unregister_notifier(&dcm_config_notifier);
}
