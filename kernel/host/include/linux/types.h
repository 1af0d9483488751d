/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/types.h>: the system's uapi header (__u8 and the
 * like), the kernel's short type names and bool.
 */
#ifndef _DCM_HOST_LINUX_TYPES_H
#define _DCM_HOST_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef int64_t s64;
typedef uint64_t u64;

#endif /* _DCM_HOST_LINUX_TYPES_H */
