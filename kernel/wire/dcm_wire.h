/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - wire protocol, the parts every codec shares: byte order helpers,
 * the two checksums.
 *
 * The wire files are pure logic over plain byte buffers: they build in the
 * kernel (board drivers, dcm_sim) and on the host (unit tests, the board
 * simulator process). Documentation/dcm/wire-protocol.rst describes every
 * byte.
 */
#ifndef _DCM_WIRE_H
#define _DCM_WIRE_H

#include "model/dcm_pure.h"

/* Multi-byte fields are little-endian on every bus; the CRC-16 is not. */

/**
 * dcm_get_le16() - read a little-endian 16-bit field
 * @p: its first byte
 *
 * Return: the value.
 */
static inline u16 dcm_get_le16(const u8 *p)
{
	return (u16)(p[0] | (p[1] << 8));
}

/**
 * dcm_put_le16() - write a little-endian 16-bit field
 * @p: its first byte
 * @v: the value
 */
static inline void dcm_put_le16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

/**
 * dcm_get_le32() - read a little-endian 32-bit field
 * @p: its first byte
 *
 * Return: the value.
 */
static inline u32 dcm_get_le32(const u8 *p)
{
	return (u32)p[0] | ((u32)p[1] << 8) | ((u32)p[2] << 16) | ((u32)p[3] << 24);
}

/**
 * dcm_put_le32() - write a little-endian 32-bit field
 * @p: its first byte
 * @v: the value
 */
static inline void dcm_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xffff, no reflection, no final xor. */
#define DCM_CRC16_INIT		0xffff
#define DCM_CRC16_CHECK		0x29b1	/* of the nine bytes "123456789" */

/* CRC-8/SMBUS (the SMBus PEC): poly 0x07, init 0, no reflection, no final xor. */
#define DCM_CRC8_INIT		0x00
#define DCM_CRC8_CHECK		0xf4	/* of "123456789" */

u16 dcm_crc16(u16 crc, const u8 *buf, size_t len);
u8 dcm_crc8(u8 crc, const u8 *buf, size_t len);

#endif /* _DCM_WIRE_H */
