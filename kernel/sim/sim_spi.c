// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the SPI controller of the simulated body.
 *
 * The controller has the software node the body refers to, and one device
 * at chip select 0 named as the board there ("nao-inertial-board"): the
 * real dcm SPI driver binds to it and carries the cycle's transfers.
 * Each transfer is full duplex and reaches the board a board family put at
 * chip select 0 (its ops' xfer); with no board there the line stays high:
 * the master reads 0xff bytes.
 */

#include <linux/property.h>
#include <linux/spi/spi.h>

#include "sim_bus.h"

static int sim_spi_transfer_one(struct spi_controller *ctlr, struct spi_device *spi,
				struct spi_transfer *t)
{
	struct dcm_sim *sim = spi_controller_get_devdata(ctlr);
	u64 ns = sim_wire_ns((u64)t->len * 8, t->speed_hz ? t->speed_hz : spi->max_speed_hz);
	u8 scratch[DCM_SPI_MAX + DCM_SPI_OVERHEAD];
	ktime_t start = ktime_get();
	u8 *rx = t->rx_buf ? t->rx_buf : scratch;
	struct sim_board *b;

	/* Nothing clocked out: the board sees no command. */
	if (!t->tx_buf) {
		if (t->rx_buf)
			memset(t->rx_buf, 0xff, t->len);
		sim_wire_wait(start, ns);
		return 0;
	}
	/* A write the master does not read back: longer is no request. */
	if (!t->rx_buf && t->len > sizeof(scratch)) {
		sim_wire_wait(start, ns);
		return 0;
	}
	mutex_lock(&sim->lock);
	b = sim_board_find(sim, SIM_BUS_SPI, 0, 0);
	if (b && b->ops->xfer)
		b->ops->xfer(b, t->tx_buf, rx, t->len);
	else
		memset(rx, 0xff, t->len);
	mutex_unlock(&sim->lock);
	sim_wire_wait(start, ns);
	return 0;	/* done */
}

/**
 * sim_spi_add() - the SPI controller and the device at its chip select
 * @sim: the body, its boards added
 * @parent: the simulated body's device
 * @node: the controller's software node, registered
 *
 * The controller's memory is device-managed; sim_spi_remove() removes the
 * device and unregisters the controller, before the caller unregisters
 * @node (a controller left to device-managed unregistering would outlive
 * its node, and its removal would read the freed node).
 *
 * Return: 0 or a negative errno.
 */
int sim_spi_add(struct dcm_sim *sim, struct device *parent, const struct software_node *node)
{
	struct spi_board_info info = {
		.max_speed_hz = SIM_SPI_HZ,
		.chip_select = 0,
		.mode = SPI_MODE_0,
	};
	struct spi_controller *ctlr;
	struct sim_board *b;
	int ret;

	ctlr = devm_spi_alloc_master(parent, 0);
	if (!ctlr)
		return -ENOMEM;
	spi_controller_set_devdata(ctlr, sim);
	ctlr->bus_num = -1;
	ctlr->num_chipselect = 1;
	ctlr->mode_bits = 0;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8);
	ctlr->max_speed_hz = 8000000;
	ctlr->transfer_one = sim_spi_transfer_one;
	device_set_node(&ctlr->dev, software_node_fwnode(node));
	ret = spi_register_controller(ctlr);
	if (ret)
		return ret;
	sim->spi = ctlr;
	b = sim_board_find(sim, SIM_BUS_SPI, 0, 0);
	if (!b || !b->dev_id)
		return 0;
	fwnode_property_read_u32(software_node_fwnode(node), "spi-max-frequency",
				 &info.max_speed_hz);
	strscpy(info.modalias, b->dev_id, sizeof(info.modalias));
	sim->spi_dev = spi_new_device(ctlr, &info);
	return sim->spi_dev ? 0 : -ENODEV;
}

/**
 * sim_spi_remove() - remove the device at the chip select and the controller
 * @sim: the body
 *
 * The transport unbinds from it, so no cycle reaches the board after; then
 * the controller is unregistered, while its software node still exists.
 */
void sim_spi_remove(struct dcm_sim *sim)
{
	spi_unregister_device(sim->spi_dev);
	sim->spi_dev = NULL;
	if (sim->spi)
		spi_unregister_controller(sim->spi);
	sim->spi = NULL;
}
