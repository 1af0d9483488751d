/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl info (info.c): its output, for the unit tests.
 */
#ifndef DCMCTL_INFO_H
#define DCMCTL_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "json.h"
#include "libdcm.h"

/* Output helpers (info.c), exposed for the unit tests. */
void dcmctl_format_flags(uint32_t flags, char *buf, size_t len);
void dcmctl_print_info_text(FILE *f, const struct dcm_info *info);
void dcmctl_json_info(struct json_writer *w, const struct dcm_info *info);

/* dcmctl info KEY...: what each key is, its owner's keys and their values (info.c). */
int dcmctl_info_keys(const struct dcmctl_opts *o, int n, FILE *out, FILE *err);

#endif /* DCMCTL_INFO_H */
