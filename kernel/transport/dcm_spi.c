// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the SPI transport: the robot's boards on an SPI controller.
 *
 * Each board is an spi_device (a device-tree or ACPI node under the SPI
 * controller, compatible "aldebaran,nao-inertial-board", "reg" its chip
 * select; or a device created by name). The driver binds it and puts it on
 * its controller's bus (dcm_ctlr.c): the controller is the transport that
 * a body refers to, and the board's Address in the description is its
 * chip select.
 *
 * Each cycle transaction is one full-duplex spi_sync(): tx goes out while
 * rx comes in, for the longer of the two, zeros following tx; rx gets the
 * first bytes that came in ("SPI transfers" in
 * Documentation/dcm/wire-protocol.rst). The bytes go through buffers of
 * the board's own, safe for DMA whatever the caller's.
 */

#include <linux/mod_devicetable.h>
#include <linux/slab.h>
#include <linux/spi/spi.h>
#include <linux/dcm.h>

#include "transport/dcm_transport.h"
#include "transport/dcm_ctlr.h"

#define DCM_SPI_XFER_MAX	128	/* bytes per transaction */

/**
 * struct dcm_spi - a board on SPI
 * @board: on its controller's bus
 * @spi: its device
 * @tx: DMA-safe buffer for what goes out
 * @rx: and for what comes in
 */
struct dcm_spi {
	struct dcm_ctlr_board board;
	struct spi_device *spi;
	u8 *tx, *rx;
};

static int dcm_spi_xfer(struct dcm_ctlr_board *board, const u8 *tx, size_t tx_len, u8 *rx,
			size_t rx_len)
{
	struct dcm_spi *ds = container_of(board, struct dcm_spi, board);
	size_t len = max(tx_len, rx_len);
	struct spi_transfer t = { .tx_buf = ds->tx, .rx_buf = ds->rx, .len = len };
	int ret;

	/* @ds->tx and @ds->rx are the board's: its bus has one user at a time. */
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

static const struct dcm_ctlr_ops dcm_spi_ops = {
	.kind = "SPI",
	.xfer = dcm_spi_xfer,
};

static int dcm_spi_probe(struct spi_device *spi)
{
	struct device *dev = &spi->dev;
	struct dcm_spi *ds;
	int ret;

	ds = devm_kzalloc(dev, sizeof(*ds), GFP_KERNEL);
	if (!ds)
		return -ENOMEM;
	ds->tx = devm_kzalloc(dev, DCM_SPI_XFER_MAX, GFP_KERNEL);
	ds->rx = devm_kzalloc(dev, DCM_SPI_XFER_MAX, GFP_KERNEL);
	if (!ds->tx || !ds->rx)
		return -ENOMEM;
	ds->spi = spi;
	ds->board.addr = spi_get_chipselect(spi, 0);
	ds->board.dev = dev;
	ret = dcm_ctlr_board_add(&spi->controller->dev, &dcm_spi_ops, &ds->board);
	if (ret)
		return dev_err_probe(dev, ret, "cannot join the bus of %s\n",
				     dev_name(&spi->controller->dev));
	spi_set_drvdata(spi, ds);
	return 0;
}

static void dcm_spi_remove(struct spi_device *spi)
{
	struct dcm_spi *ds = spi_get_drvdata(spi);

	dcm_ctlr_board_del(&spi->controller->dev, &ds->board);
}

/* Matched through ACPI PRP0001 too: not behind of_match_ptr(). */
static const struct of_device_id dcm_spi_of_match[] = {
	{ .compatible = "aldebaran,nao-inertial-board" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_spi_of_match);

static const struct spi_device_id dcm_spi_ids[] = {
	{ "nao-inertial-board" },
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
