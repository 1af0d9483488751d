/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/bits.h>. */
#ifndef _DCM_HOST_LINUX_BITS_H
#define _DCM_HOST_LINUX_BITS_H

#define BIT(n)		(1UL << (n))

#endif /* _DCM_HOST_LINUX_BITS_H */
