// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - a simulated NAO body below the real dcm drivers.
 *
 * The module creates a platform device "dcm_sim" and binds a driver to it
 * that registers a dcm controller flagged DCM_INFO_F_SIMULATED, so dcm0
 * exists with no hardware.
 */

#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/dcm.h>

#define DCM_SIM_NAME "dcm_sim"

static struct platform_device *dcm_sim_pdev;

static int dcm_sim_probe(struct platform_device *pdev)
{
	struct dcm_controller *ctrl;

	ctrl = dcm_controller_register(&pdev->dev, DCM_SIM_NAME, DCM_INFO_F_SIMULATED);
	if (IS_ERR(ctrl))
		return dev_err_probe(&pdev->dev, PTR_ERR(ctrl), "cannot register controller\n");

	platform_set_drvdata(pdev, ctrl);
	return 0;
}

static int dcm_sim_remove(struct platform_device *pdev)
{
	dcm_controller_unregister(platform_get_drvdata(pdev));
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
