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

struct dcm_controller;

#define DCM_EVENT_RING		64	/* events queued per controller */
#define DCM_EVENT_HISTORY	64	/* last events kept per controller */
#define DCM_EVENT_TEXT_LEN	96

/**
 * struct dcm_event - one event of the "events" group, DCM_A_EV_* as fields
 * @type: enum dcm_event_type
 * @level: error level (DCM_EV_ERROR)
 * @time: DCM time, set when posted
 * @code: meaning by @type
 * @count: meaning by @type
 * @lost: events dropped before this one, set when posted
 * @seq: the controller's count of events posted before this one, set when
 *	posted: the key of the history (dcm_events_history())
 * @value: meaning by @type
 * @device: device or subdevice name, or empty
 * @text: human-readable text, or empty
 */
struct dcm_event {
	u32 type;
	u32 level;
	u32 time;
	u32 code;
	u32 count;
	u32 lost;
	u64 seq;
	s64 value;
	char device[DCM_MAX_NAME_LEN];
	char text[DCM_EVENT_TEXT_LEN];
};

/**
 * struct dcm_event_sink - where events go: the netlink face's "events" group
 * @listening: does anyone listen? Called by posters, in any context: it
 *	must not sleep
 * @send: send one event of controller @index; process context, may sleep
 */
struct dcm_event_sink {
	bool (*listening)(void);
	void (*send)(int index, const struct dcm_event *ev);
};

void dcm_events_set_sink(const struct dcm_event_sink *sink);
bool dcm_events_listened(void);
int dcm_events_create(struct dcm_controller *ctrl);
void dcm_events_destroy(struct dcm_controller *ctrl);
void dcm_event_post(struct dcm_controller *ctrl, const struct dcm_event *ev);
bool dcm_events_history(struct dcm_controller *ctrl, u64 *seq, struct dcm_event *ev);
__printf(6, 7)
void dcm_event(struct dcm_controller *ctrl, u32 type, const char *device, u32 code,
	       s64 value, const char *fmt, ...);

#endif /* _DCM_EVENTS_H */
