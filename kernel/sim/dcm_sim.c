// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - simulated NAO bodies, as hardware below the real dcm drivers.
 *
 * For each body (the bodies parameter, default 1) the module creates a
 * platform device "dcm_sim.N" whose probe builds the hardware of the
 * shipped body (userspace/data/Device.xml) and a body device that refers
 * to it, as firmware would describe a robot:
 *
 * - four RS485 lines, RS485-1 to RS485-4, each a transport of its own
 *   ("dcm-sim-rs485.M"): the command frame the dcm core builds reaches
 *   simulated motor boards that parse it with the same wire code, move
 *   their motors (sim_physics.c) and answer in Bid order (sim_rs485.c);
 *   the last board of each line is a hand board (RS485-1, -2: touch pads)
 *   or a foot board (RS485-3, -4: LEDs, bumpers, FSRs under the robot's
 *   weight);
 * - two I2C adapters, "dcm-simN I2C-chest" (chest board, battery,
 *   ultrasound board) and "dcm-simN I2C-head" (face, ears, head touch
 *   board, head board), with an i2c_client per board that the real I2C
 *   driver binds (sim_i2c.c);
 * - an SPI controller with the inertial board at chip select 0, bound by
 *   the real SPI driver (sim_spi.c);
 * - software nodes for the lines and controllers, and a platform device
 *   "dcm-sim-body.N" whose node has "aldebaran,buses" (references to them)
 *   and "aldebaran,bus-names": the real body driver of dcm binds it and
 *   gives the body its controller, dcmN (N in the order the bodies come,
 *   from the lowest free), flagged simulated.
 *
 * Each body has its own boards, physics, faults and cycle. Each board
 * family has its file (sim_boards.h), which puts its boards in the body
 * with their ops; the buses find them there and name none. The world and
 * the faults are set at run time in debugfs, dcm_sim/bodyN/ (each family's
 * knobs in its file; Documentation/dcm/simulator.rst lists every knob).
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>

#include "sim_boards.h"
#include "sim_bus.h"
#include "sim_link.h"

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

#define SIM_MAX_BODIES	8
#define SIM_NODES	(SIM_RS485_BUSES + SIM_I2C_BUSES + 1)

static unsigned int bodies = 1;
module_param(bodies, uint, 0444);
MODULE_PARM_DESC(bodies, "simulated bodies, 1 to 8 (default 1): one controller each");

static unsigned int rs485_baud = SIM_RS485_BAUD;
module_param(rs485_baud, uint, 0444);
MODULE_PARM_DESC(rs485_baud, "the RS485 lines' rate, baud (default 1000000)");

static struct platform_device *dcm_sim_pdev[SIM_MAX_BODIES];
static struct dentry *dcm_sim_debugfs;

/* The Bus names of the body's buses, in the order of its nodes. */
static const char *const sim_bus_names[SIM_NODES] = {
	"RS485-1", "RS485-2", "RS485-3", "RS485-4", "I2C-chest", "I2C-head", "SPI-chest",
};

/**
 * struct sim_hw - a simulated body as firmware would describe it
 * @sim: the body
 * @node: the software nodes of its lines and controllers: RS485-1 to -4,
 *	I2C-chest, I2C-head, SPI-chest
 * @node_name: their names
 * @props: their properties: each bus's rate, as a device tree gives it
 * @group: @node, for their registration
 * @registered: @group is registered
 * @body: the "dcm-sim-body" device that refers to them
 */
struct sim_hw {
	struct dcm_sim sim;
	struct software_node node[SIM_NODES];
	char node_name[SIM_NODES][24];
	struct property_entry props[SIM_NODES][2];
	const struct software_node *group[SIM_NODES + 1];
	bool registered;
	struct platform_device *body;
};

/*
 * Each bus's rate, where a device tree has it: an RS485 line's
 * "current-speed", an I2C adapter's "clock-frequency", the SPI
 * controller's "spi-max-frequency" (its board's). The buses take their wire
 * time at these rates (sim_wire_wait()).
 */
static void sim_node_rates(struct sim_hw *hw)
{
	int i;

	for (i = 0; i < SIM_RS485_BUSES; i++)
		hw->props[i][0] = PROPERTY_ENTRY_U32("current-speed", rs485_baud);
	hw->props[SIM_RS485_BUSES + SIM_I2C_CHEST][0] =
		PROPERTY_ENTRY_U32("clock-frequency", SIM_I2C_CHEST_HZ);
	hw->props[SIM_RS485_BUSES + SIM_I2C_HEAD][0] =
		PROPERTY_ENTRY_U32("clock-frequency", SIM_I2C_HEAD_HZ);
	hw->props[SIM_RS485_BUSES + SIM_I2C_BUSES][0] =
		PROPERTY_ENTRY_U32("spi-max-frequency", SIM_SPI_HZ);
}

/* The body device: its node refers to the lines and controllers. */
static int sim_body_add(struct sim_hw *hw, struct device *parent)
{
	struct software_node_ref_args refs[SIM_NODES];
	const struct property_entry props[] = {
		PROPERTY_ENTRY_REF_ARRAY_LEN("aldebaran,buses", refs, SIM_NODES),
		PROPERTY_ENTRY_STRING_ARRAY_LEN("aldebaran,bus-names", sim_bus_names, SIM_NODES),
		{ }
	};
	struct platform_device_info info = {
		.parent = parent, .name = "dcm-sim-body", .id = hw->sim.id,
		.properties = props,
	};
	int i;

	for (i = 0; i < SIM_NODES; i++)
		refs[i] = SOFTWARE_NODE_REFERENCE(&hw->node[i]);
	hw->body = platform_device_register_full(&info);
	if (IS_ERR(hw->body)) {
		int ret = PTR_ERR(hw->body);

		hw->body = NULL;
		return ret;
	}
	/* The body driver binds it now, unless dcm refused it (and said why). */
	if (!hw->body->dev.driver) {
		platform_device_unregister(hw->body);
		hw->body = NULL;
		return -ENODEV;
	}
	return 0;
}

static void sim_hw_remove(struct sim_hw *hw)
{
	struct dcm_sim *sim = &hw->sim;

	if (hw->body)
		platform_device_unregister(hw->body);
	hw->body = NULL;
	sim_spi_remove(sim);
	sim_i2c_remove(sim);
	sim_rs485_remove(sim);
	/* After the buses (no cycle calls into it), before its debugfs directory. */
	sim_link_remove(sim);
	if (hw->registered)
		software_node_unregister_node_group(hw->group);
	hw->registered = false;
	sim_debugfs_exit(sim);
}

static int dcm_sim_probe(struct platform_device *pdev)
{
	struct dcm_sim *sim;
	struct sim_hw *hw;
	size_t i;
	int ret;

	hw = devm_kzalloc(&pdev->dev, sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return -ENOMEM;
	sim = &hw->sim;
	sim->id = pdev->id;
	sim->dev = &pdev->dev;
	mutex_init(&sim->lock);
	INIT_LIST_HEAD(&sim->boards);
	platform_set_drvdata(pdev, hw);
	sim_debugfs_init(sim, dcm_sim_debugfs);
	for (i = 0; i < SIM_NODES; i++) {
		snprintf(hw->node_name[i], sizeof(hw->node_name[i]), "dcm-sim%d-%s", sim->id,
			 sim_bus_names[i]);
		hw->node[i].name = hw->node_name[i];
		hw->node[i].properties = hw->props[i];
		hw->group[i] = &hw->node[i];
	}
	sim_node_rates(hw);
	ret = software_node_register_node_group(hw->group);
	if (ret)
		goto err;
	hw->registered = true;

	for (i = 0; i < ARRAY_SIZE(sim_families); i++) {
		ret = sim_families[i](sim, &pdev->dev);
		if (ret)
			goto err;
	}
	ret = sim_link_add(sim, &pdev->dev);
	if (ret)
		goto err;
	ret = sim_rs485_add(sim, &pdev->dev, &hw->node[0]);
	if (ret)
		goto err;
	ret = sim_i2c_add(sim, &pdev->dev, &hw->node[SIM_RS485_BUSES]);
	if (ret)
		goto err;
	ret = sim_spi_add(sim, &pdev->dev, &hw->node[SIM_RS485_BUSES + SIM_I2C_BUSES]);
	if (ret)
		goto err;
	ret = sim_body_add(hw, &pdev->dev);
	if (ret)
		goto err;
	return 0;

err:
	sim_hw_remove(hw);
	return dev_err_probe(&pdev->dev, ret, "cannot build simulated body %d\n", sim->id);
}

static int dcm_sim_remove(struct platform_device *pdev)
{
	sim_hw_remove(platform_get_drvdata(pdev));
	return 0;
}

static struct platform_driver dcm_sim_driver = {
	.driver = {
		.name = DCM_SIM_NAME,
	},
	.probe = dcm_sim_probe,
	.remove = dcm_sim_remove,
};

static void dcm_sim_devices_remove(void)
{
	int i;

	for (i = SIM_MAX_BODIES - 1; i >= 0; i--) {
		if (dcm_sim_pdev[i])
			platform_device_unregister(dcm_sim_pdev[i]);
		dcm_sim_pdev[i] = NULL;
	}
}

static int __init dcm_sim_init(void)
{
	unsigned int i;
	int ret;

	if (!bodies || bodies > SIM_MAX_BODIES) {
		pr_err("dcm_sim: bodies=%u: 1 to %d\n", bodies, SIM_MAX_BODIES);
		return -EINVAL;
	}
	if (rs485_baud < 9600 || rs485_baud > 12000000) {
		pr_err("dcm_sim: rs485_baud=%u: 9600 to 12000000\n", rs485_baud);
		return -EINVAL;
	}
	ret = platform_driver_register(&dcm_sim_driver);
	if (ret)
		return ret;
	dcm_sim_debugfs = debugfs_create_dir(DCM_SIM_NAME, NULL);

	for (i = 0; i < bodies; i++) {
		dcm_sim_pdev[i] = platform_device_register_simple(DCM_SIM_NAME, i, NULL, 0);
		if (IS_ERR(dcm_sim_pdev[i])) {
			ret = PTR_ERR(dcm_sim_pdev[i]);
			dcm_sim_pdev[i] = NULL;
			goto err;
		}
		/* Probing is synchronous here: fail the load if it did not bind. */
		if (!platform_get_drvdata(dcm_sim_pdev[i])) {
			ret = -ENODEV;
			goto err;
		}
	}
	return 0;

err:
	dcm_sim_devices_remove();
	debugfs_remove_recursive(dcm_sim_debugfs);
	platform_driver_unregister(&dcm_sim_driver);
	return ret;
}

static void __exit dcm_sim_exit(void)
{
	/* A delay a knob asked for does not hold up the controllers' stop. */
	sim_unload();
	dcm_sim_devices_remove();
	debugfs_remove_recursive(dcm_sim_debugfs);
	platform_driver_unregister(&dcm_sim_driver);
}

module_init(dcm_sim_init);
module_exit(dcm_sim_exit);

MODULE_DESCRIPTION("Simulated NAO body for the dcm driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(DCM_VERSION);
