/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the kernel services that the pure-logic files use. Their host
 * builds find the same headers in kernel/host/include/, a shim that maps
 * them to libc (Documentation/testing.rst).
 */
#ifndef _DCM_PURE_H
#define _DCM_PURE_H

#include <linux/bits.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

/**
 * dcm_mul_div() - a * b / c with a 128-bit product
 * @a: the first factor
 * @b: the second factor
 * @c: the divisor, not 0
 *
 * Return: the quotient, rounded down; U64_MAX if it does not fit in 64 bits.
 */
static inline u64 dcm_mul_div(u64 a, u64 b, u64 c)
{
	if (mul_u64_u64_shr(a, b, 64) >= c)
		return U64_MAX;
	return mul_u64_u64_div_u64(a, b, c);
}

#endif /* _DCM_PURE_H */
