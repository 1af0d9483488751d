// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - a simulated NAO body below the real dcm drivers.
 *
 * The module creates a platform device "dcm_sim" whose driver registers a
 * dcm controller flagged DCM_INFO_F_SIMULATED, so dcm0 exists with no
 * hardware, and puts the shipped body's boards (userspace/data/Device.xml)
 * behind it:
 *
 * - four RS485 buses, RS485-1 to RS485-4, whose transport is a loopback
 *   (those of the rs485_loopback parameter: a bus left out is free for a
 *   real transport, the serdev driver on a UART):
 *   the command frame the dcm core builds reaches simulated motor boards
 *   that parse it with the same wire code, move their motors
 *   (sim_physics.c) and answer in Bid order (sim_rs485.c); the last board
 *   of each bus is a hand board (RS485-1, -2: touch pads) or a foot board
 *   (RS485-3, -4: LEDs, bumpers, FSRs under the robot's weight);
 * - two I2C adapters, "dcm-sim I2C-chest" (chest board, battery,
 *   ultrasound board) and "dcm-sim I2C-head" (face, ears, head touch board,
 *   head board), reached through the real I2C transport (sim_i2c.c);
 * - an SPI controller with the inertial board, reached through the real SPI
 *   transport (sim_spi.c).
 *
 * Each board family has its file (sim_boards.h), which puts its boards in
 * the body with their ops; the buses find them there and name none.
 * The world and the faults are set at run time in debugfs, dcm_sim/ (each
 * family's knobs in its file; Documentation/dcm/simulator.rst lists every
 * knob).
 */

#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "sim_boards.h"
#include "sim_bus.h"

/* The board families of the body, one file each: they add its boards. */
static int (*const sim_families[])(struct dcm_sim *sim, struct device *dev) = {
	sim_motor_add,
	sim_foot_add,
	sim_hand_add,
	sim_chest_add,
	sim_battery_add,
	sim_sonar_add,
	sim_inertial_add,
	sim_head_add,
};

static struct platform_device *dcm_sim_pdev;

static unsigned int rs485_loopback = 0xf;
module_param(rs485_loopback, uint, 0444);
MODULE_PARM_DESC(rs485_loopback,
		 "RS485 buses the simulated boards serve, bit N-1 for RS485-N (default 0xf); the others are left to a real transport");

static int dcm_sim_probe(struct platform_device *pdev)
{
	struct dcm_sim *sim;
	size_t i;
	int ret;

	sim = devm_kzalloc(&pdev->dev, sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	mutex_init(&sim->lock);
	INIT_LIST_HEAD(&sim->boards);
	sim_debugfs_init(sim);
	for (i = 0; i < ARRAY_SIZE(sim_families); i++) {
		ret = sim_families[i](sim, &pdev->dev);
		if (ret)
			goto err_debugfs;
	}

	sim->ctrl = dcm_controller_register(&pdev->dev, DCM_SIM_NAME, DCM_INFO_F_SIMULATED);
	if (IS_ERR(sim->ctrl)) {
		ret = dev_err_probe(&pdev->dev, PTR_ERR(sim->ctrl),
				    "cannot register controller\n");
		goto err_debugfs;
	}
	ret = sim_rs485_add(sim, &pdev->dev, rs485_loopback);
	if (ret)
		goto err_ctrl;
	ret = sim_i2c_add(sim, &pdev->dev);
	if (ret)
		goto err_rs485;
	ret = sim_spi_add(sim, &pdev->dev);
	if (ret)
		goto err_i2c;

	platform_set_drvdata(pdev, sim);
	return 0;

err_i2c:
	sim_i2c_remove(sim);
err_rs485:
	sim_rs485_remove(sim);
err_ctrl:
	dcm_controller_unregister(sim->ctrl);
err_debugfs:
	sim_debugfs_exit(sim);
	return ret;
}

static int dcm_sim_remove(struct platform_device *pdev)
{
	struct dcm_sim *sim = platform_get_drvdata(pdev);

	sim_debugfs_exit(sim);
	sim_spi_remove(sim);
	sim_i2c_remove(sim);
	sim_rs485_remove(sim);
	dcm_controller_unregister(sim->ctrl);
	return 0;
}

static struct platform_driver dcm_sim_driver = {
	.driver = {
		.name = DCM_SIM_NAME,
	},
	.probe = dcm_sim_probe,
	.remove = dcm_sim_remove,
};

static int __init dcm_sim_init(void)
{
	int ret;

	ret = platform_driver_register(&dcm_sim_driver);
	if (ret)
		return ret;

	dcm_sim_pdev = platform_device_register_simple(DCM_SIM_NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(dcm_sim_pdev)) {
		platform_driver_unregister(&dcm_sim_driver);
		return PTR_ERR(dcm_sim_pdev);
	}

	/* Probing is synchronous here: fail the load if it did not bind. */
	if (!platform_get_drvdata(dcm_sim_pdev)) {
		platform_device_unregister(dcm_sim_pdev);
		platform_driver_unregister(&dcm_sim_driver);
		return -ENODEV;
	}
	return 0;
}

static void __exit dcm_sim_exit(void)
{
	platform_device_unregister(dcm_sim_pdev);
	platform_driver_unregister(&dcm_sim_driver);
}

module_init(dcm_sim_init);
module_exit(dcm_sim_exit);

MODULE_DESCRIPTION("Simulated NAO body for the dcm driver");
MODULE_LICENSE("GPL");
