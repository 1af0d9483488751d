// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a body's controller: registered with its buses, and removed.
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/mutex.h>

#include "body/dcm_body.h"
#include "core/dcm_alias.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_describe.h"
#include "core/dcm_core.h"
#include "faces/dcm_faces.h"

/*
 * One body registers at a time: two bodies that claim one transport must
 * not both pass the check and create a controller, the loser's taking an
 * index the winner then misses. Taken before the transports' lock. It does
 * not cover unregistration: the registry keeps a leaving controller's index
 * taken until its faces are gone (dcm_controller_discard()).
 */
static DEFINE_MUTEX(dcm_body_lock);

/* Say why a body's buses cannot be claimed: one message, on @parent. */
static int claim_error(struct device *parent, const struct dcm_bus_ref *refs, int ret,
		       const struct dcm_claim_why *why)
{
	const struct dcm_bus_ref *r = &refs[why->bad];
	const char *name = r->name ? r->name : "(unnamed)";
	const char *transport = r->transport ? r->transport : "";
	char q[2][4 * DCM_NAME_LEN];
	enum dcm_bus_kind kind;

	switch (ret) {
	case -EINVAL:
		/* A name that is not printable: quoted, never logged raw. */
		return dev_err_probe(parent, ret,
				     "bus %u (%s): bad name or no transport (%s); names are printable ASCII, no blank, shorter than %u bytes\n",
				     why->bad, dcm_quote(q[0], sizeof(q[0]), name),
				     r->fwnode ? "firmware node" :
				     dcm_quote(q[1], sizeof(q[1]), transport),
				     DCM_NAME_LEN);
	case -EMEDIUMTYPE:
		dcm_bus_name_kind(name, &kind);
		if (r->fwnode)
			return dev_err_probe(parent, ret, "bus %s needs %s; %pfw is %s\n", name,
					     dcm_bus_kind_name(kind), r->fwnode,
					     dcm_bus_kind_name(why->kind));
		return dev_err_probe(parent, ret, "bus %s needs %s; %s is %s\n", name,
				     dcm_bus_kind_name(kind), r->transport,
				     dcm_bus_kind_name(why->kind));
	case -EEXIST:
		return dev_err_probe(parent, ret, "bus %s is named twice\n", name);
	case -EADDRINUSE:
		return dev_err_probe(parent, ret, "buses %s and %s name the same transport\n",
				     refs[why->other].name, name);
	case -EBUSY:
		if (r->fwnode)
			return dev_err_probe(parent, ret,
					     "bus %s: %pfw already carries dcm%d's bus %s\n",
					     name, r->fwnode, why->index, why->bus);
		return dev_err_probe(parent, ret, "bus %s: %s already carries dcm%d's bus %s\n",
				     name, r->transport, why->index, why->bus);
	case -EPROBE_DEFER:
		if (r->fwnode)
			return dev_err_probe(parent, ret, "bus %s: waiting for %pfw\n",
					     name, r->fwnode);
		return dev_err_probe(parent, -ENODEV, "bus %s: no transport named %s\n",
				     name, r->transport);
	default:
		return dev_err_probe(parent, ret, "cannot claim the buses\n");
	}
}

/**
 * dcm_body_register() - give a robot body its dcmN
 * @parent: the body's device
 * @driver: the body driver's name, reported to user space
 * @flags: DCM_INFO_F_* that describe the body (e.g. DCM_INFO_F_SIMULATED)
 * @refs: the body's buses and the transports that carry them
 * @n: how many
 *
 * Checks that every transport is registered and claimed by no other body,
 * then creates the device dcmN in the "dcm" class and /dev/dcmN, with the
 * lowest free N, claims the buses and starts the cycle. What is wrong is
 * said once on @parent. Context: process, may sleep.
 *
 * Return: the controller, or an ERR_PTR: -EPROBE_DEFER when a transport
 * named by firmware node is not registered yet, -ENODEV when one named by
 * device is not, -EBUSY when another body has one, -EMEDIUMTYPE when one
 * is not of the kind its bus's name calls for (an I2C controller for
 * "RS485-1"), -EINVAL, -EEXIST or -EADDRINUSE for references that cannot
 * be, -ENOSPC when all
 * DCM_MAX_CONTROLLERS are taken, -ENOMEM, or what device creation returned.
 */
struct dcm_controller *dcm_body_register(struct device *parent, const char *driver, u32 flags,
					 const struct dcm_bus_ref *refs, unsigned int n)
{
	struct dcm_claim_why why;
	struct dcm_controller *ctrl;
	int ret;

	mutex_lock(&dcm_body_lock);
	ret = dcm_buses_check(refs, n, &why);
	if (ret) {
		ret = claim_error(parent, refs, ret, &why);
		goto err_unlock;
	}

	ctrl = dcm_controller_create(parent, driver, flags);
	if (IS_ERR(ctrl)) {
		ret = PTR_ERR(ctrl);
		goto err_unlock;
	}

	ret = dcm_device_add(ctrl);
	if (ret)
		goto err_discard;

	/* A transport may have gone meanwhile: checked again. */
	ret = dcm_buses_claim(ctrl, refs, n, &why);
	if (ret) {
		ret = claim_error(parent, refs, ret, &why);
		goto err_device;
	}

	ret = dcm_controller_start(ctrl);
	if (ret)
		goto err_buses;
	mutex_unlock(&dcm_body_lock);
	return ctrl;

err_buses:
	dcm_buses_release(ctrl);
err_device:
	dcm_device_del(ctrl);
err_discard:
	dcm_controller_discard(ctrl);
err_unlock:
	mutex_unlock(&dcm_body_lock);
	return ERR_PTR(ret);
}

/**
 * dcm_body_unregister() - remove a body's controller
 * @ctrl: what dcm_body_register() returned
 *
 * After it returns no new user-space call reaches the controller, calls in
 * progress have finished, open files get -ENODEV, and the body's
 * transports are free for another body. Its index N is given back last,
 * once /dev/dcmN, the device dcmN and its debugfs directory are gone: a body
 * registering meanwhile gets another N. The memory goes with the last
 * reference (an open file's). Context: process, may sleep.
 */
void dcm_body_unregister(struct dcm_controller *ctrl)
{
	dcm_controller_stop(ctrl);
	dcm_buses_release(ctrl);
	dcm_describe_release(ctrl);
	dcm_alias_release(ctrl);
	dcm_device_del(ctrl);
	dcm_controller_discard(ctrl);
}
