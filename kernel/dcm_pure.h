/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the kernel services that the pure-logic files use. Their host
 * builds get the same names from kernel/tests/host.h instead.
 */
#ifndef _DCM_PURE_H
#define _DCM_PURE_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#endif

#endif /* _DCM_PURE_H */
