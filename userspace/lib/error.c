// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: error reporting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <netlink/errno.h>

#include "libdcm-private.h"

static __thread char last_error[256];

/* Exported for libdcm-desc alone (libdcm.map: LIBDCM_PRIVATE). */
DCM_EXPORT int dcm_set_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

void dcm_clear_error(void)
{
	last_error[0] = '\0';
}

DCM_EXPORT const char *dcm_last_error(void)
{
	return last_error;
}

DCM_EXPORT const char *dcm_strerror(int err)
{
	const char *s;

	if (err == 0)
		return "Success";
	if (err < 0)
		err = -err;
	/* glibc >= 2.32: thread-safe and locale-independent */
	s = strerrordesc_np(err);
	return s ? s : "Unknown error";
}

DCM_EXPORT const char *dcm_lib_version(void)
{
	return LIBDCM_VERSION;
}

int dcm_nle_to_errno(int nle)
{
	if (nle < 0)
		nle = -nle;

	switch (nle) {
	case NLE_SUCCESS:		return 0;
	case NLE_INTR:			return -EINTR;
	case NLE_BAD_SOCK:		return -EBADF;
	case NLE_AGAIN:			return -EAGAIN;
	case NLE_NOMEM:			return -ENOMEM;
	case NLE_EXIST:			return -EEXIST;
	case NLE_INVAL:			return -EINVAL;
	case NLE_RANGE:			return -ERANGE;
	case NLE_MSGSIZE:		return -EMSGSIZE;
	case NLE_OPNOTSUPP:		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:		return -ENOENT;
	case NLE_NOATTR:		return -ENOENT;
	case NLE_MISSING_ATTR:		return -EPROTO;
	case NLE_AF_MISMATCH:		return -EPROTO;
	case NLE_SEQ_MISMATCH:		return -EPROTO;
	case NLE_MSG_OVERFLOW:		return -ENOBUFS;
	case NLE_MSG_TRUNC:		return -EPROTO;
	case NLE_NOADDR:		return -EADDRNOTAVAIL;
	case NLE_SRCRT_NOSUPPORT:	return -EOPNOTSUPP;
	case NLE_MSG_TOOSHORT:		return -EPROTO;
	case NLE_MSGTYPE_NOSUPPORT:	return -EOPNOTSUPP;
	case NLE_OBJ_MISMATCH:		return -EPROTO;
	case NLE_NOCACHE:		return -ENOENT;
	case NLE_BUSY:			return -EBUSY;
	case NLE_PROTO_MISMATCH:	return -EPROTONOSUPPORT;
	case NLE_NOACCESS:		return -EACCES;
	case NLE_PERM:			return -EPERM;
	case NLE_PARSE_ERR:		return -EPROTO;
	case NLE_NODEV:			return -ENODEV;
	case NLE_IMMUTABLE:		return -EROFS;
	case NLE_DUMP_INTR:		return -EINTR;
	case NLE_ATTRSIZE:		return -ERANGE;
	default:			return -EIO;
	}
}
