/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/crc-itu-t.h>: CRC-16 with polynomial 0x1021, most
 * significant bit first, no final xor, computed a bit at a time.
 */
#ifndef _DCM_HOST_LINUX_CRC_ITU_T_H
#define _DCM_HOST_LINUX_CRC_ITU_T_H

#include <linux/types.h>

static inline u16 crc_itu_t(u16 crc, const u8 *buffer, size_t len)
{
	size_t i;
	int bit;

	for (i = 0; i < len; i++) {
		crc ^= (u16)(buffer[i] << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (u16)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

#endif /* _DCM_HOST_LINUX_CRC_ITU_T_H */
