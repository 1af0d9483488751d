/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - wire protocol, the parts every codec shares: the kernel's byte
 * order helpers and checksums, and their parameters.
 *
 * The wire files are pure logic over plain byte buffers: they build in the
 * kernel (board drivers, dcm_sim) and on the host (unit tests, the board
 * simulator process). Documentation/dcm/wire-protocol.rst describes every
 * byte.
 */
#ifndef _DCM_WIRE_H
#define _DCM_WIRE_H

#include <linux/bits.h>
#include <linux/crc-itu-t.h>
#include <linux/crc8.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/unaligned.h>

/*
 * Multi-byte fields are little-endian on every bus: get_unaligned_le16()
 * and its kin read and write them. An RS485 frame's CRC-16 is not: it is
 * appended most significant byte first.
 */

/*
 * CRC-16/CCITT-FALSE on RS485 frames and the chest board's stored image:
 * the kernel's crc_itu_t() (poly 0x1021, no reflection, no final xor)
 * started at DCM_CRC16_INIT.
 */
#define DCM_CRC16_INIT		0xffff
#define DCM_CRC16_CHECK		0x29b1	/* of the nine bytes "123456789" */

/*
 * CRC-8/SMBUS (the SMBus PEC) on SPI blocks and SMBus block reads: the
 * kernel's crc8() over a table for poly 0x07, started at DCM_CRC8_INIT.
 */
#define DCM_CRC8_POLY		0x07
#define DCM_CRC8_INIT		0x00
#define DCM_CRC8_CHECK		0xf4	/* of "123456789" */

void dcm_wire_init(void);
u8 dcm_crc8(u8 crc, const u8 *buf, size_t len);

#endif /* _DCM_WIRE_H */
