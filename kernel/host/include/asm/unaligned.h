/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <asm/unaligned.h>: the little-endian accessors, byte by
 * byte, so that they hold on any host whatever its byte order.
 */
#ifndef _DCM_HOST_ASM_UNALIGNED_H
#define _DCM_HOST_ASM_UNALIGNED_H

#include <linux/types.h>

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline void put_unaligned_le16(u16 val, void *p)
{
	u8 *b = p;

	b[0] = (u8)val;
	b[1] = (u8)(val >> 8);
}

static inline void put_unaligned_le32(u32 val, void *p)
{
	u8 *b = p;

	b[0] = (u8)val;
	b[1] = (u8)(val >> 8);
	b[2] = (u8)(val >> 16);
	b[3] = (u8)(val >> 24);
}

#endif /* _DCM_HOST_ASM_UNALIGNED_H */
