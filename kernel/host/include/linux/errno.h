/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host shim of <linux/errno.h>: the system's uapi header has the codes.
 * No include guard of our own: libc's <errno.h> includes this name too.
 */
#include_next <linux/errno.h>
