/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the register bus kind (dcm_bus_regs.c, I2C or SPI): what it asks
 * of a register board's type, and the register helpers every register
 * board uses.
 */
#ifndef _DCM_BUS_REGS_H
#define _DCM_BUS_REGS_H

#include <linux/types.h>

struct dcm_board_buf;
struct dcm_bus;
struct dcm_runtime;

/**
 * struct dcm_board_regs - a register board type's part of the contract
 *	(&struct dcm_board_type.regs): what the register bus kind asks of it
 * @exchange: one cycle's transfers with the board, its values and its Ack
 *	or Nack, through the register helpers (dcm_reg_read(), ...).
 *	In the cycle, on the bus. Required.
 * @version: read its versions into its keys and @version (a string of
 *	@len, DCM_BOARD_VERSION_LEN at least), with @xb for the transfers,
 *	requests the cycle carries; NULL: its FW_VERSION register, to
 *	ProgVersion. Context: process.
 * @spi: its registers are read over SPI, each read checked by its CRC-8
 *	(dcm_reg_spi_read()): its FW_VERSION too
 */
struct dcm_board_regs {
	void (*exchange)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now);
	int (*version)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		       struct dcm_board_buf *xb, char *version, size_t len);
	bool spi;
};

/*
 * dcm_bus_regs.c: the register I/O of every register board, through
 * dcm_bus_xfer(): at once in the cycle's exchange, else a request.
 */
int dcm_reg_write(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, const u8 *data, u32 len);
int dcm_reg_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);
int dcm_reg_xfer(struct dcm_bus *t, u16 addr, u8 *buf, u8 out_reg, const u8 *out, u32 out_len,
		 u8 in_reg, u8 *in, u32 in_len);
int dcm_reg_spi_read(struct dcm_bus *t, u16 cs, u8 *tx, u8 *rx, size_t size, u8 reg, u8 *data,
		     u32 count);
void dcm_reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now);
/* dcm_bus_regs.c: one register read outside the cycle */
int dcm_board_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);

#endif /* _DCM_BUS_REGS_H */
