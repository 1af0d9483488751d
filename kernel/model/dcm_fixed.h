/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - decimal text to and from fixed point in micro-units (1.0 is
 * 1000000), as sysfs shows values. Pure logic: builds in the kernel, in the
 * host unit tests, and in libdcm, whose decimal text functions it is.
 */
#ifndef _DCM_FIXED_H
#define _DCM_FIXED_H

#include "model/dcm_pure.h"

/* Longest text dcm_fixed_format() writes, NUL included: "-9223372036854.775808" */
#define DCM_FIXED_TEXT_LEN 24

/* dcm_decimal_parse() flag: accept an exponent, "1.5e-3" */
#define DCM_DECIMAL_EXPONENT BIT(0)

int dcm_decimal_parse(const char *s, size_t len, unsigned int flags,
		      unsigned int max_extra, s64 *v, unsigned int *extra);
int dcm_fixed_format(s64 v, char *buf, size_t len);
int dcm_fixed_parse(const char *s, s64 *v);
int dcm_int_parse(const char *s, s64 *v);

#endif /* _DCM_FIXED_H */
