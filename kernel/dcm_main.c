// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - Device Communication Manager for the NAO robot: the module.
 *
 * Brings the layers up in order (the core, the board types, the faces,
 * the transports, the bodies): a body, from firmware or configfs, gets its
 * controller from body/dcm_body.c (Documentation/dcm/architecture.rst).
 */

#include <linux/module.h>

#include "body/dcm_body.h"
#include "boards/dcm_board_table.h"
#include "core/dcm_core.h"
#include "faces/dcm_faces.h"
#include "transport/dcm_transport.h"
#include "wire/dcm_wire.h"

static int __init dcm_init(void)
{
	int ret;

	dcm_wire_init();
	dcm_board_table_init();
	ret = dcm_core_init();
	if (ret)
		return ret;

	ret = dcm_device_init();
	if (ret)
		goto err_core;
	dcm_sysfs_init();

	ret = dcm_config_init();
	if (ret)
		goto err_device;

	ret = dcm_netlink_init();
	if (ret)
		goto err_config;

	ret = dcm_i2c_init();
	if (ret)
		goto err_netlink;

	ret = dcm_spi_init();
	if (ret)
		goto err_i2c;

	ret = dcm_uart_init();
	if (ret)
		goto err_spi;

	ret = dcm_body_fw_init();
	if (ret)
		goto err_rs485;

	ret = dcm_body_configfs_init();
	if (ret)
		goto err_body_fw;

	return 0;

err_body_fw:
	dcm_body_fw_exit();
err_rs485:
	dcm_uart_exit();
err_spi:
	dcm_spi_exit();
err_i2c:
	dcm_i2c_exit();
err_netlink:
	dcm_netlink_exit();
err_config:
	dcm_config_exit();
err_device:
	dcm_device_exit();
err_core:
	dcm_core_exit();
	return ret;
}

static void __exit dcm_exit(void)
{
	dcm_body_configfs_exit();
	dcm_body_fw_exit();
	dcm_uart_exit();
	dcm_spi_exit();
	dcm_i2c_exit();
	dcm_netlink_exit();
	dcm_config_exit();
	dcm_device_exit();
	dcm_core_exit();
}

module_init(dcm_init);
module_exit(dcm_exit);

MODULE_DESCRIPTION("Device Communication Manager for the NAO robot");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCM_VERSION);
