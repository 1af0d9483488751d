/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the register-mapped boards share (chest, inertial, battery,
 * ultrasound, head, foot and hand boards): the WHOAMI and version
 * registers, the SPI block transfer, the SMBus block read. Each board
 * family's map and codecs are in its own dcm_wire_<family>.h;
 * Documentation/dcm/wire-protocol.rst has each map as a table.
 *
 * Registers are 8-bit addresses of 8-bit cells, multi-byte values
 * little-endian, and a block transfer reads or writes consecutive cells.
 * The same maps serve over I2C (write the start register, then read or
 * write the block), over SPI (dcm_spi_*) and, for the foot and hand boards,
 * over RS485 (the cyclic slot and reply carry their cyclic blocks).
 *
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_REGS_H
#define _DCM_REGS_H

#include "wire/dcm_wire.h"

/* Every board but the battery: registers 0 and 1 */
#define DCM_REG_WHOAMI		0x00	/* R: board type, DCM_WHOAMI_* of its family */
#define DCM_REG_FW_VERSION	0x01	/* R: firmware version */

/* Touch pads, head or hand: bit n is pad n (its SubDeviceNumber - 1) */
#define DCM_TOUCH_MASK		0x07

/* ---- SPI: a register block per transfer, with a CRC-8 ---- */

#define DCM_SPI_READ		0x80	/* bit 7 of the command byte */
#define DCM_SPI_MAX		64	/* bytes per transfer */
#define DCM_SPI_OVERHEAD	3	/* command, count, CRC-8 */

int dcm_spi_put_read(u8 *tx, size_t size, u8 reg, u8 count);
int dcm_spi_get_read(const u8 *rx, size_t len, u8 reg, u8 count, u8 *data);
int dcm_spi_put_write(u8 *tx, size_t size, u8 reg, const u8 *data, u8 count);
int dcm_spi_put_answer(u8 *rx, size_t size, u8 reg, const u8 *data, u8 count);
int dcm_spi_parse(const u8 *tx, size_t len, bool *read, u8 *reg, u8 *count, u8 *data);

/* ---- SMBus: block reads and the packet error code ---- */

#define DCM_SMBUS_BLOCK_MAX	32	/* SMBus block: up to 32 bytes */

int dcm_smbus_block_put(u8 *buf, size_t size, const char *s);
int dcm_smbus_block_get(const u8 *buf, size_t len, char *s, size_t size);
u8 dcm_smbus_pec(u8 addr, u8 reg, bool read, const u8 *data, size_t len);

#endif /* _DCM_REGS_H */
