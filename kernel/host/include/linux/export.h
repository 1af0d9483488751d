/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/export.h>: a host program exports nothing. */
#ifndef _DCM_HOST_LINUX_EXPORT_H
#define _DCM_HOST_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif /* _DCM_HOST_LINUX_EXPORT_H */
