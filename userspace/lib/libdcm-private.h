/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdcm internals shared between the library's files and its unit tests.
 * Not installed.
 */
#ifndef LIBDCM_PRIVATE_H
#define LIBDCM_PRIVATE_H

#include <linux/dcm.h>

#include "libdcm.h"

#define DCM_EXPORT __attribute__((visibility("default")))

/* The public mirror constants must match the kernel ABI. */
_Static_assert(LIBDCM_ABI_MAJOR == DCM_ABI_MAJOR, "ABI major");
_Static_assert(LIBDCM_ABI_MINOR == DCM_ABI_MINOR, "ABI minor");
_Static_assert(LIBDCM_NAME_LEN == DCM_NAME_LEN, "name length");
_Static_assert(LIBDCM_MICRO == DCM_MICRO, "fixed-point scale");
_Static_assert(LIBDCM_INFO_SIMULATED == DCM_INFO_F_SIMULATED, "flag");
_Static_assert(LIBDCM_INFO_CONFIGURED == DCM_INFO_F_CONFIGURED, "flag");
_Static_assert(LIBDCM_INFO_RUNNING == DCM_INFO_F_RUNNING, "flag");

/* Record the detailed message dcm_last_error() returns; returns @err. */
int dcm_set_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dcm_clear_error(void);

/* Map a libnl error code (NLE_*, either sign) to a negative errno. */
int dcm_nle_to_errno(int nle);

/*
 * Check a DCM_IOC_VERSION answer against what this library speaks.
 * Return: 0 (and fill @out), or -EPROTO with dcm_last_error() set.
 */
int dcm_check_version(const char *path, const struct dcm_ioc_version *v,
		      struct dcm_version *out);

/* Convert the kernel's struct into the library's. */
void dcm_info_from_ioc(const struct dcm_ioc_info *ioc, struct dcm_info *info);

#endif /* LIBDCM_PRIVATE_H */
