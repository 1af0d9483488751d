// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the generic netlink family "dcm" itself: its operation table and
 * multicast groups (generated, dcm_nl_gen.c), registered at module init.
 *
 * This file is above the family's handlers (get-info and get-events in
 * dcm_netlink.c, the configuration transaction in dcm_config.c, calibrate
 * and special in dcm_nl_special.c), which the op table names, and above
 * the helpers they share (dcm_netlink.c), to which it gives the family
 * (dcm_nl_start()): the family's files call one way, down
 * (Documentation/dcm/architecture.rst).
 */

#include <linux/module.h>
#include <net/genetlink.h>

#include "faces/dcm_faces.h"
#include "faces/dcm_netlink.h"

/*
 * The family's requests run in parallel (.parallel_ops), not under the
 * global generic netlink mutex: calibrate and special wait on boards for
 * up to 200 ms a step, and would hold every other family's requests
 * meanwhile. Each request takes its own locks instead:
 *
 * - get-info takes a reference on the controller and reads it under
 *   ctrl->lock;
 * - the configuration steps run under the controller's desc.lock
 *   (config_enter()), which guards the transaction's state (struct
 *   dcm_config_txn, dcm_config.c), held for the step only; a closing
 *   socket's transaction is dropped under it too (dcm_config.c's netlink
 *   notifier);
 * - commit, calibrate and special wait for the boards: each is a job of
 *   the controller (dcm_describe_job(), dcm_nl_runtime_job()), run one at
 *   a time on its ordered queue, which holds no lock while it waits: the
 *   configuration steps and get-info are answered meanwhile;
 * - nothing else of the family is shared: events are sent from the
 *   controllers' work items, replies built on each request's stack.
 *
 * So requests to two controllers go on side by side, and a long board wait
 * delays only the next job of its own controller. The text of an extended
 * ack built at run time is copied for the requesting task
 * (dcm_nl_set_err_msg()): two threads of one socket each get their own.
 */
static struct genl_family dcm_genl_family __ro_after_init = {
	.name = DCM_GENL_NAME,
	.version = DCM_GENL_VERSION,
	.netnsok = false,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = dcm_nl_ops,
	.n_ops = ARRAY_SIZE(dcm_nl_ops),
	.resv_start_op = DCM_CMD_MAX + 1,
	.mcgrps = dcm_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(dcm_nl_mcgrps),
};

/**
 * dcm_netlink_init() - register the generic netlink family "dcm"
 *
 * Return: 0 or a negative errno.
 */
int dcm_netlink_init(void)
{
	return dcm_nl_start(&dcm_genl_family);
}

/**
 * dcm_netlink_exit() - unregister the family
 */
void dcm_netlink_exit(void)
{
	dcm_nl_stop();
}
