/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl events (events.c): its options, an event as JSON.
 */
#ifndef DCMCTL_EVENTS_H
#define DCMCTL_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd.h"
#include "json.h"
#include "libdcm.h"

struct dcmctl_events_args {
	uint64_t count;		/* stop after that many shown; 0: never */
	long timeout_ms;	/* stop after that long; -1: never */
	uint32_t types;		/* bit per enum dcm_event_type shown; 0: all */
	bool history;		/* --history: the kernel's last events first */
};

/*
 * dcmctl events [--type TYPE,...] [--count N] [--timeout SEC]. Return: 0,
 * or -EINVAL (the reason in @err), -ENOMEM.
 */
int dcmctl_parse_events(int argc, char **argv, struct dcmctl_events_args *a, char *err,
			size_t errlen);

int dcmctl_events(const struct dcmctl_opts *o, FILE *out, FILE *err);

#endif /* DCMCTL_EVENTS_H */
