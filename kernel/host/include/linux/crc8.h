/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/crc8.h>: the table-driven CRC-8 of lib/crc8.c, with
 * the table filled for a polynomial given most significant bit first.
 */
#ifndef _DCM_HOST_LINUX_CRC8_H
#define _DCM_HOST_LINUX_CRC8_H

#include <linux/types.h>

#define CRC8_TABLE_SIZE		256
#define DECLARE_CRC8_TABLE(_table) \
	static u8 _table[CRC8_TABLE_SIZE]

static inline void crc8_populate_msb(u8 table[CRC8_TABLE_SIZE], u8 polynomial)
{
	int i, bit;

	for (i = 0; i < CRC8_TABLE_SIZE; i++) {
		u8 crc = (u8)i;

		for (bit = 0; bit < 8; bit++)
			crc = (u8)(crc & 0x80 ? (crc << 1) ^ polynomial : crc << 1);
		table[i] = crc;
	}
}

static inline u8 crc8(const u8 table[CRC8_TABLE_SIZE], const u8 *pdata,
		      size_t nbytes, u8 crc)
{
	while (nbytes--)
		crc = table[(crc ^ *pdata++) & 0xff];
	return crc;
}

#endif /* _DCM_HOST_LINUX_CRC8_H */
