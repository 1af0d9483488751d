/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller's event log: the events waiting to be sent and the
 * history of the last ones posted, in two classes that do not share room.
 *
 * Safety events (a board's error or loss and its return, a safety rule, a
 * temperature or battery status, a client's watchdog, a fall) and
 * informational ones (overruns, configuration, calibration, special
 * commands) each have a queue and a history of their own: however many
 * informational events are posted, none of them displaces a safety event.
 * Events of both classes share one numbering (@seq) in the order posted,
 * so a reader merges them back into that order.
 *
 * Every event is counted by type as it is posted, and again if its queue
 * was full and it was dropped from the live group (it stays in the
 * history all the same).
 *
 * Pure logic, no locking: the caller serialises (dcm_events.c holds its
 * raw spinlock). It builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_EVLOG_H
#define _DCM_EVLOG_H

#include "model/dcm_pure.h"

#include <uapi/linux/dcm.h>

#define DCM_EVENT_RING		64	/* events queued per class */
#define DCM_EVENT_HISTORY	64	/* last events kept per class */
#define DCM_EVENT_TEXT_LEN	96

/**
 * struct dcm_event - one event of the "events" group, DCM_A_EV_* as fields
 * @type: enum dcm_event_type
 * @level: error level (DCM_EV_ERROR)
 * @time: DCM time, set when posted
 * @code: meaning by @type
 * @count: meaning by @type
 * @lost: events of its class dropped from the live group just before this
 *	one, set when queued
 * @seq: the controller's count of events posted before this one, set when
 *	posted: the key of the history (dcm_evlog_history())
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
 * enum dcm_event_class - which queue and history an event goes to
 * @DCM_EVC_SAFETY: what a robot's safety record must keep
 * @DCM_EVC_INFO: the rest
 * @DCM_EVC_COUNT: the number of classes
 */
enum dcm_event_class {
	DCM_EVC_SAFETY,
	DCM_EVC_INFO,
	DCM_EVC_COUNT,
};

/**
 * struct dcm_evclass - the queue and the history of one class
 * @ring: events queued for the live group, @len of them from @head
 * @head: the next to send
 * @len: how many are queued
 * @lost: events of the class dropped since the last one queued
 * @hist: the last DCM_EVENT_HISTORY events of the class, the class's
 *	@n-th event in hist[n % DCM_EVENT_HISTORY]
 * @n: events of the class posted
 */
struct dcm_evclass {
	struct dcm_event ring[DCM_EVENT_RING];
	unsigned int head;
	unsigned int len;
	u32 lost;
	struct dcm_event hist[DCM_EVENT_HISTORY];
	u64 n;
};

/**
 * struct dcm_evlog - a controller's event log
 * @cls: the classes, enum dcm_event_class
 * @next_seq: the number the next event posted gets
 * @posted: events posted, by type (index DCM_EV_UNSPEC for unknown types)
 * @dropped: events dropped from the live group (their queue was full), by
 *	type
 */
struct dcm_evlog {
	struct dcm_evclass cls[DCM_EVC_COUNT];
	u64 next_seq;
	u64 posted[DCM_EV_MAX + 1];
	u64 dropped[DCM_EV_MAX + 1];
};

enum dcm_event_class dcm_evlog_class(u32 type);
const char *dcm_evlog_type_name(u32 type);
bool dcm_evlog_post(struct dcm_evlog *log, struct dcm_event *ev, u32 time, bool queue);
bool dcm_evlog_next(struct dcm_evlog *log, struct dcm_event *ev);
bool dcm_evlog_history(const struct dcm_evlog *log, u64 *seq, struct dcm_event *ev);

#endif /* _DCM_EVLOG_H */
