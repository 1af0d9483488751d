// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - events: what the cycle, the boards and the configuration path tell
 * user space, multicast on the netlink family's "events" group.
 *
 * The core does not call up into the faces: the netlink face registers
 * itself as the events' sink (dcm_events_set_sink()), which says whether
 * anyone listens and sends one event.
 *
 * Posting never sleeps nor allocates, so the cycle may post: an event is
 * copied into the controller's log (model/dcm_evlog.c) under a spinlock
 * and a work item sends the queued ones later, one message an event.
 * Safety events (board errors and losses, safety rules, temperature and
 * battery status, watchdogs, falls) and informational ones (overruns,
 * configuration, calibration, special commands) have a queue and a
 * history each: a flood of informational events displaces no safety
 * event. A full queue drops the new event from the live group; it is
 * counted by type (dcm_events_counts(), the controller's sysfs file
 * "events") and in the next event of its class sent (DCM_A_EV_LOST).
 * Nothing is queued while the group has no listener.
 *
 * Whether anyone listens or not, the last DCM_EVENT_HISTORY events of each
 * class are also kept in its history, all numbered (@seq) in the order
 * posted: a new subscriber, or one whose socket overran, asks for them
 * (the netlink dump get-events) and so learns what happened before it
 * came, a fault that stopped the robot included.
 */

#include <linux/slab.h>
#include <linux/workqueue.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_time.h"

/**
 * struct dcm_events - a controller's events not yet sent, and the last ones
 * @lock: guards @log
 * @log: the queues, the histories and the counts
 * @work: sends the queued events
 * @ctrl: owner
 */
struct dcm_events {
	raw_spinlock_t lock;		/* the log; the cycle posts under raw locks */
	struct dcm_evlog log;
	struct work_struct work;
	struct dcm_controller *ctrl;
};

static const struct dcm_event_sink *sink;

/**
 * dcm_events_set_sink() - where the events go
 * @new: the sink, or NULL; set before any controller registers
 */
void dcm_events_set_sink(const struct dcm_event_sink *new)
{
	WRITE_ONCE(sink, new);
}

/**
 * dcm_events_listened() - would an event posted now be sent?
 *
 * For posters that format text: nothing need be built when no one listens.
 *
 * Return: true if the sink has a listener.
 */
bool dcm_events_listened(void)
{
	const struct dcm_event_sink *s = READ_ONCE(sink);

	return s && s->listening();
}

static void dcm_events_work(struct work_struct *work)
{
	struct dcm_events *q = container_of(work, struct dcm_events, work);
	const struct dcm_event_sink *s;
	struct dcm_event ev;
	u32 t;

	for (;;) {
		raw_spin_lock_irq(&q->lock);
		if (!dcm_evlog_next(&q->log, &ev)) {
			raw_spin_unlock_irq(&q->lock);
			break;
		}
		raw_spin_unlock_irq(&q->lock);

		s = READ_ONCE(sink);
		if (!s || !s->send(q->ctrl->index, &ev))
			continue;
		/* Not sent for want of memory: as dropped as a full queue's. */
		t = ev.type <= DCM_EV_MAX ? ev.type : DCM_EV_UNSPEC;
		raw_spin_lock_irq(&q->lock);
		q->log.dropped[t]++;
		raw_spin_unlock_irq(&q->lock);
	}
}

/**
 * dcm_events_create() - the event queue of a controller
 * @ctrl: the controller
 *
 * Return: 0 or -ENOMEM.
 */
int dcm_events_create(struct dcm_controller *ctrl)
{
	struct dcm_events *q;

	q = kvzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	raw_spin_lock_init(&q->lock);
	INIT_WORK(&q->work, dcm_events_work);
	q->ctrl = ctrl;
	ctrl->events = q;
	return 0;
}

/**
 * dcm_events_destroy() - drop the queue; nothing may post any more
 * @ctrl: the controller
 */
void dcm_events_destroy(struct dcm_controller *ctrl)
{
	if (!ctrl->events)
		return;
	cancel_work_sync(&ctrl->events->work);
	kvfree(ctrl->events);
	ctrl->events = NULL;
}

/**
 * dcm_event_post() - keep an event in the history and queue it for the
 *	"events" group
 * @ctrl: the controller
 * @ev: the event; its @time and @seq are set here, @lost ignored
 *
 * Never sleeps, never allocates: the cycle posts. The event is queued for
 * sending only while the group has a listener; the history keeps it always.
 */
void dcm_event_post(struct dcm_controller *ctrl, const struct dcm_event *ev)
{
	struct dcm_events *q = ctrl->events;
	struct dcm_event e = *ev;
	unsigned long flags;
	bool listened, queued;

	if (!q)
		return;
	listened = dcm_events_listened();
	raw_spin_lock_irqsave(&q->lock, flags);
	queued = dcm_evlog_post(&q->log, &e, dcm_time_ms(ctrl), listened);
	raw_spin_unlock_irqrestore(&q->lock, flags);
	if (queued)
		queue_work(system_wq, &q->work);
}

/**
 * dcm_events_history() - an event of the history
 * @ctrl: the controller
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
bool dcm_events_history(struct dcm_controller *ctrl, u64 *seq, struct dcm_event *ev)
{
	struct dcm_events *q = ctrl->events;
	unsigned long flags;
	bool found;

	if (!q)
		return false;
	raw_spin_lock_irqsave(&q->lock, flags);
	found = dcm_evlog_history(&q->log, seq, ev);
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return found;
}

/**
 * dcm_events_counts() - the events posted and dropped, by type
 * @ctrl: the controller
 * @posted: DCM_EV_MAX + 1 counts of events posted, by enum dcm_event_type
 *	(DCM_EV_UNSPEC for unknown types)
 * @dropped: as many counts of those not sent to the live group (a full
 *	queue, or no memory for the message); the history kept them
 */
void dcm_events_counts(struct dcm_controller *ctrl, u64 *posted, u64 *dropped)
{
	struct dcm_events *q = ctrl->events;
	unsigned long flags;

	memset(posted, 0, sizeof(q->log.posted));
	memset(dropped, 0, sizeof(q->log.dropped));
	if (!q)
		return;
	raw_spin_lock_irqsave(&q->lock, flags);
	memcpy(posted, q->log.posted, sizeof(q->log.posted));
	memcpy(dropped, q->log.dropped, sizeof(q->log.dropped));
	raw_spin_unlock_irqrestore(&q->lock, flags);
}

/**
 * dcm_event() - build and queue an event
 * @ctrl: the controller
 * @type: enum dcm_event_type
 * @device: device or subdevice name, or NULL
 * @code: DCM_A_EV_CODE
 * @value: DCM_A_EV_VALUE
 * @fmt: printf format of DCM_A_EV_TEXT, or NULL
 *
 * As dcm_event_post(); the event's level and count are 0. The text is
 * built whether anyone listens or not: the history keeps the event.
 */
void dcm_event(struct dcm_controller *ctrl, u32 type, const char *device, u32 code,
	       s64 value, const char *fmt, ...)
{
	struct dcm_event ev = { .type = type, .code = code, .value = value };
	va_list ap;

	if (!ctrl->events)
		return;
	if (device)
		strscpy(ev.device, device, sizeof(ev.device));
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(ev.text, sizeof(ev.text), fmt, ap);
		va_end(ap);
	}
	dcm_event_post(ctrl, &ev);
}
