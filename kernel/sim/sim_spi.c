// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the SPI controller of the simulated body and its inertial board.
 *
 * The controller serves one device at chip select 0, "dcm-spi", whose
 * software node names its bus ("dcm,bus-name" = "SPI-chest"): the real SPI
 * transport of the dcm core binds to it and carries the cycle's transfers.
 * Each transfer is full duplex: the board parses the command and count the
 * master clocks out (dcm_spi_parse()) and answers a read with the block and
 * its CRC-8 (dcm_spi_put_answer()); a write with a good CRC reaches its
 * registers (CTRL: bit 0 resets the yaw angle). A silent board, or one that
 * does not understand the request, leaves the line high: the master reads
 * 0xff bytes and its CRC check fails.
 */

#include <linux/property.h>
#include <linux/spi/spi.h>

#include "sim_body.h"

static const struct property_entry sim_spi_props[] = {
	PROPERTY_ENTRY_STRING("dcm,bus-name", "SPI-chest"),
	{ }
};

static const struct software_node sim_spi_node = {
	.properties = sim_spi_props,
};

/**
 * sim_spi_init() - the inertial board at power-up: standing still, upright
 * @sim: the body
 */
void sim_spi_init(struct dcm_sim *sim)
{
	memset(&sim->imu_regs, 0, sizeof(sim->imu_regs));
	sim->imu_regs.reg[DCM_REG_WHOAMI] = DCM_WHOAMI_IMU;
	sim->imu_regs.reg[DCM_REG_FW_VERSION] = 1;
	sim->imu_regs.wr_first = DCM_IMU_CTRL;
	sim->imu_regs.wr_last = DCM_IMU_CTRL;
	memset(&sim->imu, 0, sizeof(sim->imu));
	sim->imu_last = ktime_get();
}

/* The board's answer to one transfer, under sim->lock. */
static void sim_imu_xfer(struct dcm_sim *sim, const u8 *tx, u8 *rx, unsigned int len)
{
	u8 reg, count, data[DCM_SPI_MAX];
	struct dcm_imu m;
	bool read;

	lockdep_assert_held(&sim->lock);
	memset(rx, 0xff, len);
	if (READ_ONCE(sim->imu_silent) || dcm_spi_parse(tx, len, &read, &reg, &count, data))
		return;
	if (!read) {
		if (reg <= DCM_IMU_CTRL && reg + count > DCM_IMU_CTRL &&
		    (data[DCM_IMU_CTRL - reg] & DCM_IMU_CTRL_RESET_ANGLE))
			sim->imu.angle_urad[2] = 0;
		memset(rx, 0, len);
		return;
	}
	sim_imu_step(&sim->imu, sim_elapsed(&sim->imu_last));
	sim_imu_sample(&sim->imu, &m);
	dcm_imu_put(&sim->imu_regs.reg[DCM_IMU_IN_REG], &m);
	dcm_spi_put_answer(rx, len, reg, &sim->imu_regs.reg[reg], count);
}

static int sim_spi_transfer_one(struct spi_controller *ctlr, struct spi_device *spi,
				struct spi_transfer *t)
{
	struct dcm_sim *sim = spi_controller_get_devdata(ctlr);
	u8 scratch[DCM_SPI_MAX + DCM_SPI_OVERHEAD];
	u8 *rx = t->rx_buf ? t->rx_buf : scratch;

	/* Nothing clocked out: the board sees no command. */
	if (!t->tx_buf) {
		if (t->rx_buf)
			memset(t->rx_buf, 0xff, t->len);
		return 0;
	}
	/* A write the master does not read back: longer is no request. */
	if (!t->rx_buf && t->len > sizeof(scratch))
		return 0;
	mutex_lock(&sim->lock);
	sim_imu_xfer(sim, t->tx_buf, rx, t->len);
	mutex_unlock(&sim->lock);
	return 0;	/* done: the simulated line is instantaneous */
}

/**
 * sim_spi_add() - the SPI controller and the inertial board's device
 * @sim: the body
 * @parent: the simulated body's device
 *
 * The controller is device-managed; the device is removed by
 * sim_spi_remove().
 *
 * Return: 0 or a negative errno.
 */
int sim_spi_add(struct dcm_sim *sim, struct device *parent)
{
	struct spi_board_info info = {
		.modalias = "dcm-spi",
		.max_speed_hz = 8000000,
		.chip_select = 0,
		.mode = SPI_MODE_0,
		.swnode = &sim_spi_node,
	};
	struct spi_controller *ctlr;
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
	ret = devm_spi_register_controller(parent, ctlr);
	if (ret)
		return ret;
	sim->spi = ctlr;
	sim->imu_dev = spi_new_device(ctlr, &info);
	return sim->imu_dev ? 0 : -ENODEV;
}

/**
 * sim_spi_remove() - remove the inertial board's device
 * @sim: the body
 *
 * The transport unbinds from it, so no cycle reaches the board after; the
 * controller goes with the simulated body's device.
 */
void sim_spi_remove(struct dcm_sim *sim)
{
	spi_unregister_device(sim->imu_dev);
	sim->imu_dev = NULL;
}
