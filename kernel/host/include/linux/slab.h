/* SPDX-License-Identifier: GPL-2.0 */
/* Host shim of <linux/slab.h>: the allocators map to libc's. */
#ifndef _DCM_HOST_LINUX_SLAB_H
#define _DCM_HOST_LINUX_SLAB_H

#include <stdlib.h>

#define GFP_KERNEL	0

#define kzalloc(size, gfp)		calloc(1, (size))
#define kcalloc(n, size, gfp)		calloc((n), (size))
#define krealloc_array(p, n, size, gfp)	reallocarray((p), (n), (size))
#define kfree(p)			free(p)
#define kvmalloc_array(n, size, gfp)	reallocarray(NULL, (n), (size))
#define kvzalloc(size, gfp)		calloc(1, (size))
#define kvfree(p)			free(p)

#endif /* _DCM_HOST_LINUX_SLAB_H */
