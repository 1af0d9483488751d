// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the wire checksums: CRC-16/CCITT-FALSE for RS485 frames and
 * CRC-8/SMBUS for SPI blocks and the optional SMBus PEC.
 *
 * Both are computed a nibble at a time from a 16-entry table: 32 + 16 bytes
 * of tables, two lookups per byte. A bus of six motor boards moves about 200
 * bytes a cycle, so speed is not the point; small and obviously right is.
 */

#include "wire/dcm_wire.h"

/* crc16_nib[n] = CRC-16 register of nibble n shifted through poly 0x1021 */
static const u16 crc16_nib[16] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
};

/* crc8_nib[n] = CRC-8 register of nibble n shifted through poly 0x07 */
static const u8 crc8_nib[16] = {
	0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15,
	0x38, 0x3f, 0x36, 0x31, 0x24, 0x23, 0x2a, 0x2d,
};

/**
 * dcm_crc16() - CRC-16/CCITT-FALSE of a buffer
 * @crc: DCM_CRC16_INIT, or the result over the preceding bytes
 * @buf: the bytes
 * @len: how many
 *
 * The same CRC as the kernel's crc_itu_t() started at 0xffff. Appended to a
 * frame most significant byte first, the CRC of the frame and its CRC is 0.
 *
 * Return: the CRC register after @buf.
 */
u16 dcm_crc16(u16 crc, const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		crc = (u16)(crc << 4) ^ crc16_nib[(crc >> 12) ^ (buf[i] >> 4)];
		crc = (u16)(crc << 4) ^ crc16_nib[(crc >> 12) ^ (buf[i] & 0x0f)];
	}
	return crc;
}

/**
 * dcm_crc8() - CRC-8/SMBUS of a buffer
 * @crc: DCM_CRC8_INIT, or the result over the preceding bytes
 * @buf: the bytes
 * @len: how many
 *
 * The SMBus packet error code (the kernel's i2c_smbus_pec()).
 *
 * Return: the CRC register after @buf.
 */
u8 dcm_crc8(u8 crc, const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		crc ^= buf[i];
		crc = (u8)(crc << 4) ^ crc8_nib[crc >> 4];
		crc = (u8)(crc << 4) ^ crc8_nib[crc >> 4];
	}
	return crc;
}
