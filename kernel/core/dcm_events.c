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
 * copied into the controller's ring under a spinlock and a work item sends
 * the ring's content later, one message an event. A full ring drops the new
 * event; the next one sent carries the number dropped (DCM_A_EV_LOST).
 * Nothing is queued while the group has no listener.
 */

#include <linux/slab.h>
#include <linux/workqueue.h>

#include "core/dcm_internal.h"
#include "core/dcm_time.h"

/**
 * struct dcm_events - a controller's queue of events not yet sent
 * @lock: guards the ring and @lost
 * @ring: DCM_EVENT_RING entries
 * @head: next to send
 * @len: entries queued
 * @lost: events dropped since the last one queued
 * @work: sends the queued events
 * @ctrl: owner
 */
struct dcm_events {
	raw_spinlock_t lock;		/* ring; the cycle posts under raw locks */
	struct dcm_event ring[DCM_EVENT_RING];
	unsigned int head;
	unsigned int len;
	u32 lost;
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

	for (;;) {
		raw_spin_lock_irq(&q->lock);
		if (!q->len) {
			raw_spin_unlock_irq(&q->lock);
			break;
		}
		ev = q->ring[q->head];
		q->head = (q->head + 1) % DCM_EVENT_RING;
		q->len--;
		raw_spin_unlock_irq(&q->lock);

		s = READ_ONCE(sink);
		if (s)
			s->send(q->ctrl->index, &ev);
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

	q = kzalloc(sizeof(*q), GFP_KERNEL);
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
	kfree(ctrl->events);
	ctrl->events = NULL;
}

/**
 * dcm_event_post() - queue an event for the "events" group
 * @ctrl: the controller
 * @ev: the event; its @time is set here, @lost ignored
 *
 * Never sleeps, never allocates: the cycle posts. Does nothing while the
 * group has no listener.
 */
void dcm_event_post(struct dcm_controller *ctrl, const struct dcm_event *ev)
{
	struct dcm_events *q = ctrl->events;
	struct dcm_event *slot;
	unsigned long flags;

	if (!q || !dcm_events_listened())
		return;
	raw_spin_lock_irqsave(&q->lock, flags);
	if (q->len == DCM_EVENT_RING) {
		q->lost++;
		raw_spin_unlock_irqrestore(&q->lock, flags);
		return;
	}
	slot = &q->ring[(q->head + q->len) % DCM_EVENT_RING];
	*slot = *ev;
	slot->time = dcm_time_ms(ctrl);
	slot->lost = q->lost;
	q->lost = 0;
	q->len++;
	raw_spin_unlock_irqrestore(&q->lock, flags);
	queue_work(system_wq, &q->work);
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
 * As dcm_event_post(); the event's level and count are 0.
 */
void dcm_event(struct dcm_controller *ctrl, u32 type, const char *device, u32 code,
	       s64 value, const char *fmt, ...)
{
	struct dcm_event ev = { .type = type, .code = code, .value = value };
	va_list ap;

	if (!ctrl->events || !dcm_events_listened())
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
