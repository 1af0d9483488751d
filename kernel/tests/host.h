/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into every host build of the kernel's pure-logic files
 * (-include): the kernel types and services they use, mapped to libc.
 */
#ifndef _DCM_TESTS_HOST_H
#define _DCM_TESTS_HOST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef int64_t s64;
typedef uint64_t u64;

#define BIT(n) (1UL << (n))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define S64_MAX INT64_MAX
#define S64_MIN INT64_MIN

#define EXPORT_SYMBOL_GPL(sym)
#define GFP_KERNEL 0
#define kzalloc(size, gfp) calloc(1, (size))
#define kcalloc(n, size, gfp) calloc((n), (size))
#define krealloc_array(p, n, size, gfp) reallocarray((p), (n), (size))
#define kfree(p) free(p)
#define kvzalloc(size, gfp) calloc(1, (size))
#define kvfree(p) free(p)
#define kstrdup(s, gfp) strdup(s)
#define div64_u64(a, b) ((a) / (b))
#define div_s64(a, b) ((s64)(a) / (s64)(b))
#define div64_s64(a, b) ((s64)(a) / (s64)(b))
#define U64_MAX UINT64_MAX
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))
#define U32_MAX UINT32_MAX

static inline u64 dcm_mul_div(u64 a, u64 b, u64 c)
{
	unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (u64)q;
}

#endif /* _DCM_TESTS_HOST_H */
