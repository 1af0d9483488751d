// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the wire's CRC-8 (CRC-16/CCITT-FALSE is crc_itu_t() itself): the
 * kernel's table-driven crc8(), over the table of the SMBus polynomial.
 */

#include "wire/dcm_wire.h"

DECLARE_CRC8_TABLE(dcm_crc8_table);

/**
 * dcm_wire_init() - fill the CRC-8 table
 *
 * Called once before anything computes a CRC-8: at module load in the
 * kernel, before the first test or exchange on the host.
 */
void dcm_wire_init(void)
{
	crc8_populate_msb(dcm_crc8_table, DCM_CRC8_POLY);
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
	return crc8(dcm_crc8_table, buf, len, crc);
}
