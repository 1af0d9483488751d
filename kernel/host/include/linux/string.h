/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/string.h>: libc's <string.h> and kstrdup(). */
#ifndef _DCM_HOST_LINUX_STRING_H
#define _DCM_HOST_LINUX_STRING_H

#include <string.h>

#define kstrdup(s, gfp)		strdup(s)

#endif /* _DCM_HOST_LINUX_STRING_H */
