/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a bus that is an I2C or SPI controller with the robot's boards on
 * it as devices (i2c_client, spi_device). The controller is the transport
 * that firmware refers to; each board device bound by the dcm I2C or SPI
 * driver joins it at its address, and the transport exists while one
 * board does (dcm_ctlr.c).
 */
#ifndef _DCM_CTLR_H
#define _DCM_CTLR_H

#include <linux/list.h>
#include <linux/types.h>

struct device;
struct dcm_ctlr_board;
struct dcm_xfer;

/**
 * struct dcm_ctlr_ops - a controller bus's transfers, by board
 * @kind: what carries them: "I2C" or "SPI", for messages
 * @xfer: one transaction with @board, as &dcm_bus_ops.xfer
 * @xfer_many: @n transactions, @x[i] with @board[i], as
 *	&dcm_bus_ops.xfer_many; NULL when the controller makes them one by one
 */
struct dcm_ctlr_ops {
	const char *kind;
	int (*xfer)(struct dcm_ctlr_board *board, const u8 *tx, size_t tx_len, u8 *rx,
		    size_t rx_len);
	int (*xfer_many)(struct dcm_ctlr_board *const *board, const struct dcm_xfer *x,
			 unsigned int n);
};

/**
 * struct dcm_ctlr_board - a board device on a controller bus
 * @node: private: in its bus's boards
 * @addr: its address: the 7-bit I2C address, the SPI chip select
 * @dev: the board's device
 * @priv: the driver's
 */
struct dcm_ctlr_board {
	struct list_head node;
	u16 addr;
	struct device *dev;
	void *priv;
};

int dcm_ctlr_board_add(struct device *ctlr, const struct dcm_ctlr_ops *ops,
		       struct dcm_ctlr_board *board);
void dcm_ctlr_board_del(struct device *ctlr, struct dcm_ctlr_board *board);

#endif /* _DCM_CTLR_H */
