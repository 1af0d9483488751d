/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller's events (dcm_events.c): posted from any context,
 * multicast by the netlink face from a work item, the last ones kept.
 */
#ifndef _DCM_EVENTS_H
#define _DCM_EVENTS_H

#include <linux/compiler_attributes.h>
#include <linux/types.h>
#include <linux/dcm.h>

#include "model/dcm_evlog.h"

struct dcm_controller;

/**
 * struct dcm_event_sink - where events go: the netlink face's "events" group
 * @listening: does anyone listen? Called by posters, in any context: it
 *	must not sleep
 * @send: send one event of controller @index; process context, may sleep.
 *	Return: 0, or -ENOMEM if the event could not be sent (it is then
 *	counted dropped)
 */
struct dcm_event_sink {
	bool (*listening)(void);
	int (*send)(int index, const struct dcm_event *ev);
};

void dcm_events_set_sink(const struct dcm_event_sink *sink);
bool dcm_events_listened(void);
int dcm_events_create(struct dcm_controller *ctrl);
void dcm_events_destroy(struct dcm_controller *ctrl);
void dcm_event_post(struct dcm_controller *ctrl, const struct dcm_event *ev);
bool dcm_events_history(struct dcm_controller *ctrl, u64 *seq, struct dcm_event *ev);
void dcm_events_counts(struct dcm_controller *ctrl, u64 *posted, u64 *dropped);
__printf(6, 7)
void dcm_event(struct dcm_controller *ctrl, u32 type, const char *device, u32 code,
	       s64 value, const char *fmt, ...);

#endif /* _DCM_EVENTS_H */
