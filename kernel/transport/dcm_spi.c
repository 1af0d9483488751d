// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the SPI transport: a bus of the robot's description on an SPI
 * device.
 *
 * An SPI device "dcm-spi" (or a device-tree node compatible with
 * "aldebaran,nao-spi-bus") is the bus's board: it names the bus
 * ("dcm,bus-name", the Bus of the description's boards, "SPI-chest") and
 * its controller ("dcm,controller", default 0). The board's Address in the
 * description is the device's chip select.
 *
 * Each cycle transaction is one full-duplex spi_sync(): tx goes out while
 * rx comes in, for the longer of the two, zeros following tx; rx gets the
 * first bytes that came in ("SPI transfers" in
 * Documentation/dcm/wire-protocol.rst). The bytes go through buffers of
 * the transport's own, safe for DMA whatever the caller's.
 */

#include <linux/mod_devicetable.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>
#include <linux/dcm.h>

#include "core/dcm_internal.h"

#define DCM_SPI_XFER_MAX	128	/* bytes per transaction */

struct dcm_spi {
	struct dcm_bus bus;
	struct spi_device *spi;
	u8 *tx, *rx;
};

static int dcm_spi_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			size_t rx_len)
{
	struct dcm_spi *ds = container_of(bus, struct dcm_spi, bus);
	size_t len = max(tx_len, rx_len);
	struct spi_transfer t = { .tx_buf = ds->tx, .rx_buf = ds->rx, .len = len };
	int ret;

	/* @ds->tx and @ds->rx are the bus's: one user at a time. */
	lockdep_assert_held(&bus->xfer_lock);
	if (addr != spi_get_chipselect(ds->spi, 0))
		return -ETIMEDOUT;	/* no board there */
	if (!len || len > DCM_SPI_XFER_MAX)
		return -EINVAL;
	if (tx_len)
		memcpy(ds->tx, tx, tx_len);
	memset(ds->tx + tx_len, 0, len - tx_len);
	ret = spi_sync_transfer(ds->spi, &t, 1);
	if (ret)
		return ret;
	memcpy(rx, ds->rx, rx_len);
	return rx_len;
}

static const struct dcm_bus_ops dcm_spi_ops = {
	.xfer = dcm_spi_xfer,
};

static int dcm_spi_probe(struct spi_device *spi)
{
	struct device *dev = &spi->dev;
	struct dcm_spi *ds;
	const char *name;
	u32 index = 0;
	int ret;

	ds = devm_kzalloc(dev, sizeof(*ds), GFP_KERNEL);
	if (!ds)
		return -ENOMEM;
	if (device_property_read_string(dev, "dcm,bus-name", &name))
		return dev_err_probe(dev, -EINVAL, "dcm,bus-name is needed\n");
	device_property_read_u32(dev, "dcm,controller", &index);
	ds->bus.name = devm_kstrdup(dev, name, GFP_KERNEL);
	ds->tx = devm_kzalloc(dev, DCM_SPI_XFER_MAX, GFP_KERNEL);
	ds->rx = devm_kzalloc(dev, DCM_SPI_XFER_MAX, GFP_KERNEL);
	if (!ds->bus.name || !ds->tx || !ds->rx)
		return -ENOMEM;
	ds->spi = spi;
	ds->bus.kind = DCM_BUS_REGS;
	ds->bus.ops = &dcm_spi_ops;
	ret = dcm_bus_register(index, &ds->bus);
	if (ret == -ENODEV)
		return -EPROBE_DEFER;	/* the robot's controller comes later */
	if (ret)
		return dev_err_probe(dev, ret, "cannot register bus %s\n", ds->bus.name);
	spi_set_drvdata(spi, ds);
	return 0;
}

static void dcm_spi_remove(struct spi_device *spi)
{
	struct dcm_spi *ds = spi_get_drvdata(spi);

	dcm_bus_unregister(&ds->bus);
}

static const struct of_device_id dcm_spi_of_match[] = {
	{ .compatible = "aldebaran,nao-spi-bus" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_spi_of_match);

static const struct spi_device_id dcm_spi_ids[] = {
	{ "dcm-spi" },
	{ "nao-spi-bus" },	/* the compatible without its vendor */
	{ }
};
MODULE_DEVICE_TABLE(spi, dcm_spi_ids);

static struct spi_driver dcm_spi_driver = {
	.driver = {
		.name = "dcm-spi",
		.of_match_table = dcm_spi_of_match,
	},
	.probe = dcm_spi_probe,
	.remove = dcm_spi_remove,
	.id_table = dcm_spi_ids,
};

/**
 * dcm_spi_init() - register the SPI transport's driver
 *
 * Return: 0 or a negative errno.
 */
int dcm_spi_init(void)
{
	return spi_register_driver(&dcm_spi_driver);
}

/**
 * dcm_spi_exit() - unregister it
 */
void dcm_spi_exit(void)
{
	spi_unregister_driver(&dcm_spi_driver);
}
