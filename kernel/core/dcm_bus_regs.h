/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the register bus kind (dcm_bus_regs.c, I2C or SPI): what it asks
 * of a register board's type, and the register helpers every register
 * board uses.
 */
#ifndef _DCM_BUS_REGS_H
#define _DCM_BUS_REGS_H

#include <linux/types.h>

#include "wire/dcm_regs.h"

struct dcm_board_buf;
struct dcm_bus;
struct dcm_regs_io;
struct dcm_runtime;

/* Rounds of transfers in a register bus's exchange: what a board puts, and one more */
#define DCM_REGS_ROUNDS		2
/* Transactions a board may put in one round */
#define DCM_REGS_BOARD_XFERS	2
/* Bytes a board may put on the wire in one round: two SPI frames at most */
#define DCM_REGS_BOARD_TX	(2 * (DCM_SPI_MAX + DCM_SPI_OVERHEAD))

/**
 * struct dcm_board_regs - a register board type's part of the contract
 *	(&struct dcm_board_type.regs): what the register bus kind asks of it
 * @put: put the board's transactions of this cycle in @io (dcm_regs_read(),
 *	dcm_regs_write(), dcm_regs_spi_read()): what it writes, and where
 *	what it reads goes (its private area: the reads land there when the
 *	bus's transactions are made, all of them together). In the cycle, on
 *	the bus. Required.
 * @get: its transactions were made: @ret is 0 when all of them were, else
 *	the first one's error. Takes its values from what it read and gives
 *	its Ack or Nack (dcm_reg_answer(), dcm_runtime_answer()); or, once a
 *	cycle at most, puts more transactions in @io (what it read calls for
 *	more: a sonar's echoes) and returns true, to be called again when
 *	those were made. Returns false when it is done. In the cycle, on the
 *	bus. Required.
 * @version: read its versions into its keys and @version (a string of
 *	@len, DCM_BOARD_VERSION_LEN at least), with @xb for the transfers,
 *	requests the cycle carries; NULL: its FW_VERSION register, to
 *	ProgVersion. Context: process.
 * @spi: its registers are read over SPI, each read checked by its CRC-8
 *	(dcm_reg_spi_read()): its FW_VERSION too
 *
 * The board does no I/O of its own in the cycle: the kind makes every
 * board's transactions of a round in one go on the wire (the transport's
 * xfer_many), so that the bus waits for its wire once, and gives each
 * board what it got.
 */
struct dcm_board_regs {
	void (*put)(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io);
	bool (*get)(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now);
	int (*version)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		       struct dcm_board_buf *xb, char *version, size_t len);
	bool spi;
};

/* dcm_bus_regs.c: what a board puts in its bus's exchange (its &dcm_board_regs.put) */
int dcm_regs_read(struct dcm_regs_io *io, u8 reg, u8 *data, u32 len);
int dcm_regs_write(struct dcm_regs_io *io, u8 reg, const u8 *data, u32 len);
int dcm_regs_spi_read(struct dcm_regs_io *io, u8 reg, u8 count, u8 *frame, size_t size);

/*
 * dcm_bus_regs.c: the register I/O outside the cycle (the chest store, the
 * versions), through dcm_bus_xfer(): requests the cycle carries.
 */
int dcm_reg_write(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, const u8 *data, u32 len);
int dcm_reg_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);
int dcm_reg_spi_read(struct dcm_bus *t, u16 cs, u8 *tx, u8 *rx, size_t size, u8 reg, u8 *data,
		     u32 count);
void dcm_reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now);
/* dcm_bus_regs.c: one register read outside the cycle */
int dcm_board_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);

#endif /* _DCM_BUS_REGS_H */
