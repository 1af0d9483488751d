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
 *
 * Whether anyone listens or not, the last DCM_EVENT_HISTORY events are also
 * kept in a second ring, the history, each numbered (@seq) in the order
 * posted: a new subscriber asks for them (the netlink dump get-events) and
 * so learns what happened before it came, a fault that stopped the robot
 * included.
 */

#include <linux/slab.h>
#include <linux/workqueue.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_time.h"

/**
 * struct dcm_events - a controller's queue of events not yet sent
 * @lock: guards the ring and @lost
 * @ring: DCM_EVENT_RING entries
 * @head: next to send
 * @len: entries queued
 * @lost: events dropped since the last one queued
 * @hist: the last DCM_EVENT_HISTORY events posted, event @seq in
 *	hist[seq % DCM_EVENT_HISTORY]
 * @next_seq: the number the next event posted gets
 * @work: sends the queued events
 * @ctrl: owner
 */
struct dcm_events {
	raw_spinlock_t lock;		/* ring, history; the cycle posts under raw locks */
	struct dcm_event ring[DCM_EVENT_RING];
	unsigned int head;
	unsigned int len;
	u32 lost;
	struct dcm_event hist[DCM_EVENT_HISTORY];
	u64 next_seq;
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
	struct dcm_event *slot, *h;
	unsigned long flags;
	bool listened;

	if (!q)
		return;
	listened = dcm_events_listened();
	raw_spin_lock_irqsave(&q->lock, flags);
	h = &q->hist[q->next_seq % DCM_EVENT_HISTORY];
	*h = *ev;
	h->time = dcm_time_ms(ctrl);
	h->seq = q->next_seq++;
	h->lost = 0;
	if (!listened) {
		raw_spin_unlock_irqrestore(&q->lock, flags);
		return;
	}
	if (q->len == DCM_EVENT_RING) {
		q->lost++;
		raw_spin_unlock_irqrestore(&q->lock, flags);
		return;
	}
	slot = &q->ring[(q->head + q->len) % DCM_EVENT_RING];
	*slot = *h;
	slot->lost = q->lost;
	q->lost = 0;
	q->len++;
	raw_spin_unlock_irqrestore(&q->lock, flags);
	queue_work(system_wq, &q->work);
}

/**
 * dcm_events_history() - an event of the history
 * @ctrl: the controller
 * @seq: in: the number of the event wanted; out: the number of the event
 *	given, the oldest still kept if the one asked for is gone
 * @ev: filled with the event
 *
 * The history holds the last DCM_EVENT_HISTORY events posted, listened to
 * or not. Walk it from *@seq = 0, adding 1 after each event given.
 *
 * Return: true if @ev was filled, false when no event numbered *@seq or
 * later has been posted yet.
 */
bool dcm_events_history(struct dcm_controller *ctrl, u64 *seq, struct dcm_event *ev)
{
	struct dcm_events *q = ctrl->events;
	unsigned long flags;
	bool found = false;
	u64 oldest;

	if (!q)
		return false;
	raw_spin_lock_irqsave(&q->lock, flags);
	oldest = q->next_seq > DCM_EVENT_HISTORY ? q->next_seq - DCM_EVENT_HISTORY : 0;
	if (*seq < oldest)
		*seq = oldest;
	if (*seq < q->next_seq) {
		*ev = q->hist[*seq % DCM_EVENT_HISTORY];
		found = true;
	}
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return found;
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
