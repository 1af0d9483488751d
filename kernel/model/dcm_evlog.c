// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a controller's event log (dcm_evlog.h): two classes of events, each
 * with its queue for the live group and its history, one numbering.
 */

#include "model/dcm_evlog.h"

static const char *const type_names[DCM_EV_MAX + 1] = {
	[DCM_EV_UNSPEC]		= "other",
	[DCM_EV_ERROR]		= "error",
	[DCM_EV_NACK]		= "nack",
	[DCM_EV_ACK]		= "ack",
	[DCM_EV_SAFETY]		= "safety",
	[DCM_EV_TEMPERATURE]	= "temperature",
	[DCM_EV_BATTERY]	= "battery",
	[DCM_EV_OVERRUN]	= "overrun",
	[DCM_EV_CONFIG]		= "config",
	[DCM_EV_CALIBRATION]	= "calibration",
	[DCM_EV_WATCHDOG]	= "watchdog",
	[DCM_EV_SPECIAL]	= "special",
	[DCM_EV_FALL]		= "fall",
};

/**
 * dcm_evlog_class() - the class of an event type
 * @type: enum dcm_event_type, or any number
 *
 * Board errors and losses, safety rules, temperature and battery status,
 * client watchdogs and falls are safety events; the rest, unknown types
 * included, are informational.
 *
 * Return: DCM_EVC_SAFETY or DCM_EVC_INFO.
 */
enum dcm_event_class dcm_evlog_class(u32 type)
{
	switch (type) {
	case DCM_EV_ERROR:
	case DCM_EV_NACK:
	case DCM_EV_ACK:
	case DCM_EV_SAFETY:
	case DCM_EV_TEMPERATURE:
	case DCM_EV_BATTERY:
	case DCM_EV_WATCHDOG:
	case DCM_EV_FALL:
		return DCM_EVC_SAFETY;
	default:
		return DCM_EVC_INFO;
	}
}

/**
 * dcm_evlog_type_name() - the name of an event type, as dcmctl prints it
 * @type: enum dcm_event_type; DCM_EV_UNSPEC for the unknown ones
 *
 * Return: "error", "nack", ..., "fall"; "other" for DCM_EV_UNSPEC.
 */
const char *dcm_evlog_type_name(u32 type)
{
	return type <= DCM_EV_MAX ? type_names[type] : type_names[DCM_EV_UNSPEC];
}

/**
 * dcm_evlog_post() - number an event, keep it in its class's history and
 *	queue it
 * @log: the log
 * @ev: the event; its @time, @seq and @lost are set here (as kept)
 * @time: DCM time now, ms
 * @queue: queue it for the live group (someone listens)
 *
 * A class whose queue is full drops the event from the live group: it is
 * counted in @log->dropped by type and in the next queued event's @lost.
 *
 * Return: true if the event was queued.
 */
bool dcm_evlog_post(struct dcm_evlog *log, struct dcm_event *ev, u32 time, bool queue)
{
	u32 t = ev->type <= DCM_EV_MAX ? ev->type : DCM_EV_UNSPEC;
	struct dcm_evclass *c = &log->cls[dcm_evlog_class(ev->type)];
	struct dcm_event *slot;

	ev->time = time;
	ev->seq = log->next_seq++;
	ev->lost = 0;
	c->hist[c->n++ % DCM_EVENT_HISTORY] = *ev;
	log->posted[t]++;
	if (!queue)
		return false;
	if (c->len == DCM_EVENT_RING) {
		c->lost++;
		log->dropped[t]++;
		return false;
	}
	slot = &c->ring[(c->head + c->len) % DCM_EVENT_RING];
	*slot = *ev;
	slot->lost = c->lost;
	c->lost = 0;
	c->len++;
	return true;
}

/**
 * dcm_evlog_next() - take the next event to send: the oldest queued of
 *	either class
 * @log: the log
 * @ev: filled with the event
 *
 * Return: true if @ev was filled, false if nothing is queued.
 */
bool dcm_evlog_next(struct dcm_evlog *log, struct dcm_event *ev)
{
	struct dcm_evclass *best = NULL, *c;
	int i;

	for (i = 0; i < DCM_EVC_COUNT; i++) {
		c = &log->cls[i];
		if (c->len && (!best || c->ring[c->head].seq < best->ring[best->head].seq))
			best = c;
	}
	if (!best)
		return false;
	*ev = best->ring[best->head];
	best->head = (best->head + 1) % DCM_EVENT_RING;
	best->len--;
	return true;
}

/* The first event of class @c numbered @seq or later, or NULL. */
static const struct dcm_event *class_find(const struct dcm_evclass *c, u64 seq)
{
	u64 i = c->n > DCM_EVENT_HISTORY ? c->n - DCM_EVENT_HISTORY : 0;

	for (; i < c->n; i++)
		if (c->hist[i % DCM_EVENT_HISTORY].seq >= seq)
			return &c->hist[i % DCM_EVENT_HISTORY];
	return NULL;
}

/**
 * dcm_evlog_history() - an event of the history
 * @log: the log
 * @seq: in: the number of the event wanted; out: the number of the event
 *	given, the next one still kept if the one asked for is gone
 * @ev: filled with the event
 *
 * The history holds the last DCM_EVENT_HISTORY events of each class,
 * listened to or not, given in the order posted. Walk it from *@seq = 0,
 * adding 1 after each event given.
 *
 * Return: true if @ev was filled, false when no event numbered *@seq or
 * later is kept.
 */
bool dcm_evlog_history(const struct dcm_evlog *log, u64 *seq, struct dcm_event *ev)
{
	const struct dcm_event *best = NULL, *e;
	int i;

	for (i = 0; i < DCM_EVC_COUNT; i++) {
		e = class_find(&log->cls[i], *seq);
		if (e && (!best || e->seq < best->seq))
			best = e;
	}
	if (!best)
		return false;
	*ev = *best;
	*seq = best->seq;
	return true;
}
