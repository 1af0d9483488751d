/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the kernel services that the pure-logic files use. Their host
 * builds get the same names from kernel/tests/host.h instead.
 */
#ifndef _DCM_PURE_H
#define _DCM_PURE_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

/* a * b / c, floor, with a 128-bit product; U64_MAX if it does not fit. */
static inline u64 dcm_mul_div(u64 a, u64 b, u64 c)
{
	if (mul_u64_u64_shr(a, b, 64) >= c)
		return U64_MAX;
	return mul_u64_u64_div_u64(a, b, c);
}
#endif

#endif /* _DCM_PURE_H */
