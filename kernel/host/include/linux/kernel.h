/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/kernel.h>: the helpers of it that the pure files
 * use, and snprintf() from libc.
 */
#ifndef _DCM_HOST_LINUX_KERNEL_H
#define _DCM_HOST_LINUX_KERNEL_H

#include <stdio.h>
#include <linux/limits.h>
#include <linux/types.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define clamp(v, lo, hi)	((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))

#endif /* _DCM_HOST_LINUX_KERNEL_H */
