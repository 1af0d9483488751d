/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl set, alias, time (timed.c).
 */
#ifndef DCMCTL_TIMED_H
#define DCMCTL_TIMED_H

#include <stddef.h>
#include <stdio.h>

#include "cmd.h"
#include "desc.h"
#include "libdcm.h"

/* The commands (their run functions), writing to @out and @err. */
int dcmctl_set(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_alias(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_time(const struct dcmctl_opts *o, FILE *out, FILE *err);

/*
 * What set says on stderr after commanding @key (an actuator's Value) with
 * @values: a value past Min or Max (the driver clamps it), a joint whose
 * stiffness is 0. At most @max lines into @out. Return how many.
 */
int dcmctl_set_warnings(const struct dcm_sysfs *s, const char *key, const double *values,
			size_t n, char out[][320], int max);

/*
 * Is @text a value configuration key @tk takes (its kind, its range)?
 * Return 0, or -EINVAL/-ERANGE with the reason in @why.
 */
int dcmctl_check_config_value(const struct desc_type_key *tk, const char *text, char *why,
			      size_t len);

#endif /* DCMCTL_TIMED_H */
