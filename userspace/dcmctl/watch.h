/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl watch, stats (watch.c).
 */
#ifndef DCMCTL_WATCH_H
#define DCMCTL_WATCH_H

#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "json.h"
#include "libdcm.h"

/* The commands (their run functions), writing to @out and @err. */
int dcmctl_watch(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_stats(const struct dcmctl_opts *o, FILE *out, FILE *err);

/* Output of stats and of one watch line (exposed for the unit tests). */
void dcmctl_print_stats_text(FILE *f, const struct dcm_stats *st, uint32_t period_us);
void dcmctl_json_stats(struct json_writer *w, const struct dcm_stats *st,
		       uint32_t period_us);

#endif /* DCMCTL_WATCH_H */
