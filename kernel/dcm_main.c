// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - Device Communication Manager for the NAO robot: the module.
 *
 * Brings the layers up in order (the core, the board types, the faces,
 * the transports) and gives a robot body its controller:
 * dcm_controller_register() creates it in the core, adds its faces, and
 * starts its cycle (Documentation/dcm/architecture.rst).
 */

#include <linux/module.h>

#include "boards/dcm_boards.h"
#include "core/dcm_internal.h"
#include "faces/dcm_faces.h"
#include "wire/dcm_wire.h"

/**
 * dcm_controller_register() - give a robot body its dcmN
 * @parent: the body driver's device
 * @driver: the body driver's name, reported to user space
 * @flags: DCM_INFO_F_* that describe the body (e.g. DCM_INFO_F_SIMULATED)
 *
 * Creates the device dcmN in the "dcm" class and /dev/dcmN, with the lowest
 * free N, and starts its cycle. Context: process, may sleep.
 *
 * Return: the controller, or an ERR_PTR: -ENOSPC when all
 * DCM_MAX_CONTROLLERS are taken, -ENOMEM, or what device creation returned.
 */
struct dcm_controller *dcm_controller_register(struct device *parent,
					       const char *driver, u32 flags)
{
	struct dcm_controller *ctrl;
	int ret;

	ctrl = dcm_controller_create(parent, driver, flags);
	if (IS_ERR(ctrl))
		return ctrl;

	ret = dcm_device_add(ctrl);
	if (ret)
		goto err_discard;

	ret = dcm_controller_start(ctrl);
	if (ret)
		goto err_device;
	return ctrl;

err_device:
	dcm_device_del(ctrl);
err_discard:
	dcm_controller_discard(ctrl);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(dcm_controller_register);

/**
 * dcm_controller_unregister() - remove a controller
 * @ctrl: what dcm_controller_register() returned
 *
 * After it returns no new user-space call reaches the controller, calls in
 * progress have finished, and open files get -ENODEV. The memory goes with
 * the last reference. Context: process, may sleep.
 */
void dcm_controller_unregister(struct dcm_controller *ctrl)
{
	dcm_controller_stop(ctrl);
	dcm_describe_release(ctrl);
	dcm_alias_release(ctrl);
	dcm_device_del(ctrl);
	put_device(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(dcm_controller_unregister);

static int __init dcm_init(void)
{
	int ret;

	dcm_wire_init();
	dcm_boards_init();
	ret = dcm_core_init();
	if (ret)
		return ret;

	ret = dcm_device_init();
	if (ret)
		goto err_core;
	dcm_sysfs_init();

	ret = dcm_netlink_init();
	if (ret)
		goto err_device;

	ret = dcm_i2c_init();
	if (ret)
		goto err_netlink;

	ret = dcm_spi_init();
	if (ret)
		goto err_i2c;

	ret = dcm_rs485_init();
	if (ret)
		goto err_spi;

	return 0;

err_spi:
	dcm_spi_exit();
err_i2c:
	dcm_i2c_exit();
err_netlink:
	dcm_netlink_exit();
err_device:
	dcm_device_exit();
err_core:
	dcm_core_exit();
	return ret;
}

static void __exit dcm_exit(void)
{
	dcm_rs485_exit();
	dcm_spi_exit();
	dcm_i2c_exit();
	dcm_netlink_exit();
	dcm_device_exit();
	dcm_core_exit();
}

module_init(dcm_init);
module_exit(dcm_exit);

MODULE_DESCRIPTION("Device Communication Manager for the NAO robot");
MODULE_LICENSE("GPL");
