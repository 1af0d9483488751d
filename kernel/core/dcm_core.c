// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the controller: one robot body, and its registry.
 *
 * A controller is created by the body driver's registration
 * (body/dcm_body.c), which then gives it its faces (faces/dcm_device.c) and
 * starts it here: its debugfs directory and its cycle. Every user-space
 * entry point finds it through the registry, by index.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/xarray.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_alias.h"
#include "core/dcm_bus.h"
#include "core/dcm_core.h"
#include "core/dcm_cycle.h"
#include "core/dcm_describe.h"
#include "core/dcm_time.h"
#include "model/dcm_model.h"

static struct dentry *dcm_debugfs;

/* Registered controllers by index; dcm_controllers_lock orders changes. */
static DEFINE_XARRAY_ALLOC(dcm_controllers);
static DEFINE_MUTEX(dcm_controllers_lock);

/**
 * dcm_quote() - a name from outside, safe to log
 * @buf: where to write it
 * @size: its bytes, at least 1
 * @s: the name, NUL-terminated, any bytes
 *
 * Every byte of @s but printable ASCII, and the backslash, becomes \xHH:
 * no control character, escape sequence or newline reaches the log. What
 * does not fit in @buf is cut off.
 *
 * Return: @buf.
 */
const char *dcm_quote(char *buf, size_t size, const char *s)
{
	int len = string_escape_str(s, buf, size - 1, ESCAPE_HEX | ESCAPE_NAP | ESCAPE_APPEND,
				    "\\");

	buf[min_t(size_t, len, size - 1)] = '\0';
	return buf;
}

/**
 * dcm_fill_info() - describe a controller in the ioctl layout
 * @ctrl: the controller, with its lock held for reading
 * @info: filled; the netlink face encodes the same fields
 */
void dcm_fill_info(const struct dcm_controller *ctrl, struct dcm_ioc_info *info)
{
	lockdep_assert_held(&ctrl->lock);
	memset(info, 0, sizeof(*info));
	info->abi_version = DCM_ABI_VERSION;
	info->index = ctrl->index;
	strscpy(info->name, dev_name(&ctrl->dev), sizeof(info->name));
	strscpy(info->driver, ctrl->driver, sizeof(info->driver));
	info->period_us = READ_ONCE(ctrl->cycle.period_us);
	info->time_ms = dcm_time_ms(ctrl);
	info->flags = ctrl->flags | (ctrl->cycle.task ? DCM_INFO_F_RUNNING : 0);
	if (ctrl->desc.model) {
		info->n_devices = ctrl->desc.model->n_devices;
		info->n_subdevices = ctrl->desc.model->n_subdevices;
		info->flags |= DCM_INFO_F_CONFIGURED;
	}
}

/**
 * dcm_controller_get() - find a controller by index and hold it
 * @index: N of dcmN
 *
 * Return: the controller with a reference the caller drops with
 * dcm_controller_put(), or NULL if there is none.
 */
struct dcm_controller *dcm_controller_get(unsigned int index)
{
	struct dcm_controller *ctrl;

	mutex_lock(&dcm_controllers_lock);
	ctrl = xa_load(&dcm_controllers, index);
	if (ctrl)
		get_device(&ctrl->dev);
	mutex_unlock(&dcm_controllers_lock);
	return ctrl;
}

/**
 * dcm_controller_get_next() - the first controller at or after an index
 * @index: where to start; set to the index of the controller found
 *
 * Return: the controller, held as by dcm_controller_get(), or NULL.
 */
struct dcm_controller *dcm_controller_get_next(unsigned long *index)
{
	struct dcm_controller *ctrl;

	mutex_lock(&dcm_controllers_lock);
	ctrl = xa_find(&dcm_controllers, index, DCM_MAX_CONTROLLERS - 1, XA_PRESENT);
	if (ctrl)
		get_device(&ctrl->dev);
	mutex_unlock(&dcm_controllers_lock);
	return ctrl;
}

/**
 * dcm_controller_put() - drop a reference taken by dcm_controller_get()
 * @ctrl: the controller, or NULL
 */
void dcm_controller_put(struct dcm_controller *ctrl)
{
	if (ctrl)
		put_device(&ctrl->dev);
}

static void dcm_controller_release(struct device *dev)
{
	struct dcm_controller *ctrl = to_dcm_controller(dev);

	dcm_cycle_free(ctrl);
	dcm_events_destroy(ctrl);
	cleanup_srcu_struct(&ctrl->srcu);
	dcm_describe_free(&ctrl->desc);
	kfree(ctrl);
}

/**
 * dcm_controller_create() - a new controller, not yet reachable
 * @parent: the body driver's device
 * @driver: the body driver's name, reported to user space
 * @flags: DCM_INFO_F_* that describe the body (e.g. DCM_INFO_F_SIMULATED)
 *
 * Takes the lowest free index N and names the device dcmN; the device is
 * initialised, not added: the faces add it (dcm_device_add()), and
 * dcm_controller_start() makes the controller reachable. On a later
 * failure, dcm_controller_discard() undoes this. Context: process.
 *
 * Return: the controller, or an ERR_PTR: -EINVAL for unknown @flags,
 * -ENOSPC when all DCM_MAX_CONTROLLERS are taken, or -ENOMEM.
 */
struct dcm_controller *dcm_controller_create(struct device *parent, const char *driver,
					     u32 flags)
{
	struct dcm_controller *ctrl;
	u32 index;
	int ret;

	if (!driver || flags & ~(DCM_INFO_F_SIMULATED))
		return ERR_PTR(-EINVAL);

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return ERR_PTR(-ENOMEM);

	strscpy(ctrl->driver, driver, sizeof(ctrl->driver));
	ctrl->flags = flags;
	dcm_time_start(&ctrl->time);
	init_rwsem(&ctrl->lock);
	ret = dcm_describe_init(&ctrl->desc);
	if (ret) {
		kfree(ctrl);
		return ERR_PTR(ret);
	}
	dcm_aliases_init(&ctrl->aliases);
	dcm_buses_init(&ctrl->buses);
	ret = init_srcu_struct(&ctrl->srcu);
	if (ret) {
		dcm_describe_free(&ctrl->desc);
		kfree(ctrl);
		return ERR_PTR(ret);
	}
	ret = dcm_events_create(ctrl);
	if (ret) {
		cleanup_srcu_struct(&ctrl->srcu);
		dcm_describe_free(&ctrl->desc);
		kfree(ctrl);
		return ERR_PTR(ret);
	}
	ret = dcm_cycle_init(ctrl);
	if (ret) {
		dcm_events_destroy(ctrl);
		cleanup_srcu_struct(&ctrl->srcu);
		dcm_describe_free(&ctrl->desc);
		kfree(ctrl);
		return ERR_PTR(ret);
	}

	mutex_lock(&dcm_controllers_lock);
	ret = xa_alloc(&dcm_controllers, &index, NULL,
		       XA_LIMIT(0, DCM_MAX_CONTROLLERS - 1), GFP_KERNEL);
	mutex_unlock(&dcm_controllers_lock);
	if (ret) {
		dcm_cycle_free(ctrl);
		dcm_events_destroy(ctrl);
		cleanup_srcu_struct(&ctrl->srcu);
		dcm_describe_free(&ctrl->desc);
		kfree(ctrl);
		return ERR_PTR(ret == -EBUSY ? -ENOSPC : ret);
	}
	ctrl->index = index;

	/* From here the device's release frees the controller. */
	device_initialize(&ctrl->dev);
	ctrl->dev.parent = parent;
	ctrl->dev.release = dcm_controller_release;
	ret = dev_set_name(&ctrl->dev, "dcm%u", index);
	if (ret) {
		dcm_controller_discard(ctrl);
		return ERR_PTR(ret);
	}
	return ctrl;
}

/**
 * dcm_controller_discard() - give a controller's index back, drop it
 * @ctrl: what dcm_controller_create() returned, never started or stopped
 *	by dcm_controller_stop(), its faces removed (dcm_device_del())
 *
 * Frees the index N of dcmN and drops the creation's reference. Only
 * here: until its device, its char device and its debugfs directory are
 * gone, the index stays taken, so that no other body gets the same N while
 * anything of this controller can still be reached by it (the char device
 * number above all: cdev_del() unmaps by number, and would remove the new
 * body's mapping, leaving the old one's to an open that then uses freed
 * memory). Open files may keep the memory: it goes with the last reference.
 */
void dcm_controller_discard(struct dcm_controller *ctrl)
{
	mutex_lock(&dcm_controllers_lock);
	xa_erase(&dcm_controllers, ctrl->index);
	mutex_unlock(&dcm_controllers_lock);
	put_device(&ctrl->dev);
}

/**
 * dcm_controller_start() - start the cycle and make a controller reachable
 * @ctrl: a controller whose faces are in place
 *
 * Creates its debugfs directory (fault injection for the tests, like
 * netdevsim's), starts the cycle, then publishes it in the registry, so that
 * user space only finds it whole. Context: process, may sleep.
 *
 * Return: 0, or what starting the cycle returned (nothing is left started).
 */
int dcm_controller_start(struct dcm_controller *ctrl)
{
	int ret;

	ctrl->debugfs = debugfs_create_dir(dev_name(&ctrl->dev), dcm_debugfs);
	debugfs_create_u32("stall_ms", 0600, ctrl->debugfs, &ctrl->cycle.stall_ms);

	ret = dcm_cycle_start(ctrl);
	if (ret) {
		debugfs_remove_recursive(ctrl->debugfs);
		return ret;
	}

	mutex_lock(&dcm_controllers_lock);
	xa_store(&dcm_controllers, ctrl->index, ctrl, GFP_KERNEL);
	mutex_unlock(&dcm_controllers_lock);

	dev_info(&ctrl->dev, "controller for %s, period %u us\n", ctrl->driver,
		 ctrl->cycle.period_us);
	return 0;
}

/**
 * dcm_controller_stop() - make a controller unreachable and stop its cycle
 * @ctrl: a started controller
 *
 * After it returns no new user-space call finds the controller, calls in
 * progress have finished (they held @ctrl->lock), and open files get
 * -ENODEV. Its index stays taken (reserved, as between creation and
 * start): the faces are still there, and the caller removes them, then
 * gives the index back with dcm_controller_discard(). Context: process,
 * may sleep.
 */
void dcm_controller_stop(struct dcm_controller *ctrl)
{
	/* NULL in an allocating xarray keeps the index reserved. */
	mutex_lock(&dcm_controllers_lock);
	xa_store(&dcm_controllers, ctrl->index, NULL, GFP_KERNEL);
	mutex_unlock(&dcm_controllers_lock);

	down_write(&ctrl->lock);
	ctrl->dead = true;
	up_write(&ctrl->lock);

	dcm_cycle_stop(ctrl);
	debugfs_remove_recursive(ctrl->debugfs);
}

/**
 * dcm_core_init() - what every controller shares: checks, debugfs root
 *
 * Return: 0, or -EINVAL when the period_us, cycle_priority or cycle_cpus
 * module parameter is out of range.
 */
int dcm_core_init(void)
{
	int ret;

	ret = dcm_cycle_params_check();
	if (ret)
		return ret;
	dcm_debugfs = debugfs_create_dir("dcm", NULL);
	return 0;
}

/**
 * dcm_core_exit() - undo dcm_core_init(), once every controller is gone
 */
void dcm_core_exit(void)
{
	debugfs_remove_recursive(dcm_debugfs);
	WARN_ON(!xa_empty(&dcm_controllers));
}
