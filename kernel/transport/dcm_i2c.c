// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the I2C transport: a bus of the robot's description on an I2C
 * adapter.
 *
 * A platform device "dcm-i2c" (or a device-tree node compatible with
 * "aldebaran,nao-i2c-bus") names the bus ("dcm,bus-name", the Bus of the
 * description's boards) and its adapter ("dcm,i2c-adapter", the adapter
 * number); its controller is "dcm,controller" (default 0). Each cycle
 * transaction is a write of the start register and block, or a write of
 * the start register and a read: one i2c_transfer() with a repeated start.
 */

#include <linux/i2c.h>
#include <linux/mod_devicetable.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/dcm.h>

#include "core/dcm_internal.h"

struct dcm_i2c {
	struct dcm_bus bus;
	struct i2c_adapter *adap;
	const char *name;
};

static int dcm_i2c_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			size_t rx_len)
{
	struct dcm_i2c *di = container_of(bus, struct dcm_i2c, bus);
	struct i2c_msg msg[2] = {
		{ .addr = addr, .flags = 0, .len = tx_len, .buf = (u8 *)tx },
		{ .addr = addr, .flags = I2C_M_RD, .len = rx_len, .buf = rx },
	};
	int n = rx_len ? 2 : 1, ret;

	lockdep_assert_held(&bus->xfer_lock);
	if (addr > 0x7f || tx_len > U16_MAX || rx_len > U16_MAX || !tx_len)
		return -EINVAL;
	ret = i2c_transfer(di->adap, msg, n);
	if (ret == -ENXIO || ret == -EREMOTEIO)
		return -ETIMEDOUT;	/* nobody acknowledged the address */
	if (ret < 0)
		return ret;
	return ret == n ? rx_len : -EIO;
}

static const struct dcm_bus_ops dcm_i2c_ops = {
	.xfer = dcm_i2c_xfer,
};

static int dcm_i2c_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	u32 nr, index = 0;
	struct dcm_i2c *di;
	int ret;

	di = devm_kzalloc(dev, sizeof(*di), GFP_KERNEL);
	if (!di)
		return -ENOMEM;
	if (device_property_read_string(dev, "dcm,bus-name", &di->name) ||
	    device_property_read_u32(dev, "dcm,i2c-adapter", &nr))
		return dev_err_probe(dev, -EINVAL, "dcm,bus-name and dcm,i2c-adapter are needed\n");
	device_property_read_u32(dev, "dcm,controller", &index);
	di->adap = i2c_get_adapter(nr);
	if (!di->adap)
		return -EPROBE_DEFER;
	di->bus.name = di->name;
	di->bus.kind = DCM_BUS_REGS;
	di->bus.ops = &dcm_i2c_ops;
	ret = dcm_bus_register(index, &di->bus);
	if (ret) {
		i2c_put_adapter(di->adap);
		return dev_err_probe(dev, ret, "cannot register bus %s\n", di->name);
	}
	platform_set_drvdata(pdev, di);
	return 0;
}

static int dcm_i2c_remove(struct platform_device *pdev)
{
	struct dcm_i2c *di = platform_get_drvdata(pdev);

	dcm_bus_unregister(&di->bus);
	i2c_put_adapter(di->adap);
	return 0;
}

static const struct of_device_id dcm_i2c_of_match[] = {
	{ .compatible = "aldebaran,nao-i2c-bus" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_i2c_of_match);

static const struct platform_device_id dcm_i2c_ids[] = {
	{ .name = "dcm-i2c" },
	{ }
};
MODULE_DEVICE_TABLE(platform, dcm_i2c_ids);

static struct platform_driver dcm_i2c_driver = {
	.driver = {
		.name = "dcm-i2c",
		.of_match_table = dcm_i2c_of_match,
	},
	.probe = dcm_i2c_probe,
	.remove = dcm_i2c_remove,
	.id_table = dcm_i2c_ids,
};

/**
 * dcm_i2c_init() - register the I2C transport's driver
 *
 * Return: 0 or a negative errno.
 */
int dcm_i2c_init(void)
{
	return platform_driver_register(&dcm_i2c_driver);
}

/**
 * dcm_i2c_exit() - unregister it
 */
void dcm_i2c_exit(void)
{
	platform_driver_unregister(&dcm_i2c_driver);
}
