// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a committed description, running: its actuators' timed-command
 * queues, the cycle's work on them, and the snapshot it publishes.
 *
 * The snapshot is one vmalloc_user() area, header then values then times,
 * that mmap() maps read-only. The cycle is its only writer and brackets
 * each publication with an odd sequence count (a seqcount whose readers
 * may be in user space). Its arrays have one entry per handle: the
 * subdevices by index, then the live keys (struct dcm_keyslot), which the
 * cycle gathers from the description's keys and the devices' counters just
 * before it publishes.
 */

#include <linux/bitmap.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "core/dcm_events.h"
#include "core/dcm_runtime.h"

static void dcm_snapbuf_release(struct kref *ref)
{
	struct dcm_snapbuf *sb = container_of(ref, struct dcm_snapbuf, ref);

	vfree(sb->hdr);
	kfree(sb);
}

/**
 * dcm_snapbuf_put() - drop a reference to a snapshot's memory
 * @sb: the snapshot memory
 */
void dcm_snapbuf_put(struct dcm_snapbuf *sb)
{
	kref_put(&sb->ref, dcm_snapbuf_release);
}

/* The snapshot of a runtime whose values are set: one entry per handle. */
static struct dcm_snapbuf *snapbuf_create(const struct dcm_runtime *rt)
{
	size_t values = ALIGN(sizeof(struct dcm_snapshot), 8);
	size_t times = values + rt->n_handles * sizeof(s64);
	struct dcm_snapbuf *sb;

	sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return NULL;
	kref_init(&sb->ref);
	sb->size = PAGE_ALIGN(times + rt->n_handles * sizeof(u32));
	sb->hdr = vmalloc_user(sb->size);
	if (!sb->hdr) {
		kfree(sb);
		return NULL;
	}
	sb->values = (s64 *)((char *)sb->hdr + values);
	sb->times = (u32 *)((char *)sb->hdr + times);
	sb->hdr->n_values = rt->model->n_subdevices;
	sb->hdr->generation = rt->generation;
	sb->hdr->values_offset = values;
	sb->hdr->times_offset = times;
	sb->hdr->size = sb->size;
	sb->hdr->layout = DCM_SNAPSHOT_LAYOUT;
	sb->hdr->n_handles = rt->n_handles;
	memcpy(sb->values, rt->values, rt->n_handles * sizeof(*sb->values));
	memcpy(sb->times, rt->times, rt->n_handles * sizeof(*sb->times));
	return sb;
}

/* A number key, or a counter, as micro-units: saturated, never wrapped. */
static s64 key_micro(s64 v, u32 scale)
{
	s64 out;

	if (check_mul_overflow(v, (s64)scale, &out))
		return v < 0 ? S64_MIN : S64_MAX;
	return out;
}

/* A live key's value now; the caller holds @rt->values_lock for the counters. */
static s64 keyslot_value(const struct dcm_runtime *rt, const struct dcm_keyslot *k)
{
	const struct dcm_rt_device *d;

	/* A Value's index may be a subdevice's; the counters' is a device's. */
	if (k->what == DCM_KS_VALUE)
		return key_micro(READ_ONCE(*k->src), k->scale);
	d = &rt->dev[k->ref.index];
	switch (k->what) {
	case DCM_KS_AVAILABLE:
		return d->ack && d->nack_run < DCM_NACK_BURST ? DCM_MICRO : 0;
	case DCM_KS_ACK:
		return key_micro(min_t(u64, d->ack, S64_MAX), DCM_MICRO);
	default:
		return key_micro(min_t(u64, d->nack, S64_MAX), DCM_MICRO);
	}
}

/* A live number key of a type, or a device counter, as a slot; NULL @slot counts only. */
static void keyslot_add(struct dcm_runtime *rt, struct dcm_keyslot *slot, u8 target, u32 index,
			u32 key, const struct dcm_key_desc *desc, union dcm_value *v)
{
	if (slot) {
		slot->ref.target = target;
		slot->ref.index = index;
		slot->ref.key = key;
		slot->src = v ? &v->num : NULL;
		slot->scale = desc && desc->kind == DCM_KEY_KIND_FLOAT ? 1 : DCM_MICRO;
		slot->what = key == DCM_KEY_AVAILABLE ? DCM_KS_AVAILABLE :
			     key == DCM_KEY_ACK ? DCM_KS_ACK :
			     key == DCM_KEY_NACK ? DCM_KS_NACK : DCM_KS_VALUE;
	}
	rt->n_keys++;
}

/*
 * The live keys that get handles, in handle order (the ABI page's "Key
 * handles"): each subdevice's live number keys, in the order of its type's
 * keys; then each device's Available, Ack, Nack and its type's live number
 * keys. With @slots NULL, only counts them into @rt->n_keys.
 */
static void keyslots_scan(struct dcm_runtime *rt, struct dcm_keyslot *slots)
{
	const struct dcm_model *m = rt->model;
	static const u32 counters[] = { DCM_KEY_AVAILABLE, DCM_KEY_ACK, DCM_KEY_NACK };
	u32 i, k;

	rt->n_keys = 0;
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		for (k = 0; k < s->type->n_keys; k++) {
			const struct dcm_key_desc *d = &s->type->keys[k];

			if ((d->flags & DCM_KEY_LIVE) && d->kind != DCM_KEY_KIND_STRING)
				keyslot_add(rt, slots ? &slots[rt->n_keys] : NULL,
					    DCM_TARGET_SUBDEVICE, i, DCM_KEY_TYPED + k, d,
					    &s->keys[k]);
		}
	}
	for (i = 0; i < m->n_devices; i++) {
		const struct dcm_device *dv = &m->devices[i];

		for (k = 0; k < ARRAY_SIZE(counters); k++)
			keyslot_add(rt, slots ? &slots[rt->n_keys] : NULL, DCM_TARGET_DEVICE, i,
				    counters[k], NULL, NULL);
		for (k = 0; k < dv->type->n_keys; k++) {
			const struct dcm_key_desc *d = &dv->type->keys[k];

			if ((d->flags & DCM_KEY_LIVE) && d->kind != DCM_KEY_KIND_STRING)
				keyslot_add(rt, slots ? &slots[rt->n_keys] : NULL,
					    DCM_TARGET_DEVICE, i, DCM_KEY_TYPED + k, d,
					    &dv->keys[k]);
		}
	}
}

/* The buses a description names: its devices' distinct Bus names. */
static u32 count_buses(const struct dcm_model *m)
{
	u32 i, j, n = 0;

	for (i = 0; i < m->n_devices; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(m->devices[j].bus, m->devices[i].bus))
				break;
		n += j == i;
	}
	return n;
}

/**
 * dcm_runtime_create() - the running state of a checked description
 * @ctrl: the controller it runs on
 * @m: the description; it must outlive the runtime
 * @generation: its generation, 1-65535
 *
 * Its arrays are made and its devices laid out by bus. The description's
 * replacement (dcm_describe_replace()) then binds its devices to their board
 * types (dcm_boards_bind()), gives it its starting values
 * (dcm_runtime_start_values()), and its buses their transports and lanes.
 * Context: process, under the controller's desc.lock.
 *
 * Return: the runtime, or NULL when memory is short.
 */
struct dcm_runtime *dcm_runtime_create(struct dcm_controller *ctrl, struct dcm_model *m,
				       u32 generation)
{
	struct dcm_runtime *rt;
	u32 i;

	rt = kvzalloc(sizeof(*rt), GFP_KERNEL);
	if (!rt)
		return NULL;
	rt->model = m;
	rt->ctrl = ctrl;
	rt->generation = generation;
	raw_spin_lock_init(&rt->cmd_lock);
	spin_lock_init(&rt->values_lock);

	for (i = 0; i < m->n_subdevices; i++)
		if (m->subdevices[i].type->flags & DCM_SUB_ACTUATOR)
			rt->n_act++;
	keyslots_scan(rt, NULL);
	rt->n_handles = m->n_subdevices + rt->n_keys;
	if (rt->n_act)
		rt->act = vzalloc(array_size(rt->n_act, sizeof(*rt->act)));
	if (m->n_subdevices) {
		rt->act_of = kvmalloc_array(m->n_subdevices, sizeof(*rt->act_of), GFP_KERNEL);
		rt->conv = kvcalloc(m->n_subdevices, sizeof(*rt->conv), GFP_KERNEL);
	}
	if (rt->n_keys)
		rt->keys = kvcalloc(rt->n_keys, sizeof(*rt->keys), GFP_KERNEL);
	if (rt->n_handles) {
		rt->values = kvcalloc(rt->n_handles, sizeof(*rt->values), GFP_KERNEL);
		rt->times = kvcalloc(rt->n_handles, sizeof(*rt->times), GFP_KERNEL);
	}
	if ((rt->n_act && !rt->act) || (rt->n_keys && !rt->keys) ||
	    (m->n_subdevices && (!rt->act_of || !rt->conv)) ||
	    (rt->n_handles && (!rt->values || !rt->times))) {
		dcm_runtime_free(rt);
		return NULL;
	}
	keyslots_scan(rt, rt->keys);

	/* Devices by bus, in their order in the description. */
	rt->dev = kvcalloc(max(m->n_devices, 1U), sizeof(*rt->dev), GFP_KERNEL);
	rt->buses = kvcalloc(max(count_buses(m), 1U), sizeof(*rt->buses), GFP_KERNEL);
	if (!rt->dev || !rt->buses) {
		dcm_runtime_free(rt);
		return NULL;
	}
	for (i = 0; i < m->n_devices; i++) {
		struct dcm_rt_bus *b = NULL;
		u32 j;

		for (j = 0; j < rt->n_buses; j++)
			if (!strcmp(rt->buses[j].name, m->devices[i].bus))
				b = &rt->buses[j];
		if (!b) {
			b = &rt->buses[rt->n_buses++];
			b->name = m->devices[i].bus;
			b->rt = rt;
		}
		rt->dev[i].bus = b - rt->buses;
		rt->dev[i].pos = b->n_dev;
		b->dev[b->n_dev++] = i;
	}
	return rt;
}

/**
 * dcm_runtime_start_values() - a bound runtime's starting values and snapshot
 * @rt: the runtime, its devices bound (dcm_boards_bind())
 *
 * Every actuator starts at its description's Value with an empty queue, and
 * every key at its description's value; the snapshot is made.
 * Context: process, under the controller's desc.lock.
 *
 * Return: 0, or -ENOMEM.
 */
int dcm_runtime_start_values(struct dcm_runtime *rt)
{
	const struct dcm_model *m = rt->model;
	u32 i, a = 0;

	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];
		struct dcm_actuator *act;

		rt->conv[i].gain = s->gain;
		rt->conv[i].gain_den = s->gain_den;
		rt->conv[i].offset = s->offset;
		rt->conv[i].min = s->min;
		rt->conv[i].max = s->max;
		rt->values[i] = s->value;
		rt->act_of[i] = -1;
		if (!(s->type->flags & DCM_SUB_ACTUATOR))
			continue;
		act = &rt->act[a];
		rt->act_of[i] = a++;
		act->sub = i;
		act->step = s->type->flags & DCM_SUB_STEP;
		act->conv.gain = s->gain;
		act->conv.gain_den = s->gain_den;
		act->conv.offset = s->offset;
		act->conv.min = s->min;
		act->conv.max = s->max;
		dcm_tc_init(&act->q, s->value);
	}
	/* The keys start at the description's values: their times stay 0. */
	for (i = 0; i < rt->n_keys; i++)
		rt->values[m->n_subdevices + i] = keyslot_value(rt, &rt->keys[i]);
	rt->snap = snapbuf_create(rt);
	return rt->snap ? 0 : -ENOMEM;
}

/**
 * dcm_runtime_free() - free a runtime no cycle uses any more
 * @rt: the runtime, or NULL
 *
 * The snapshot's memory stays while a mapping holds it. A runtime the cycle
 * ran is freed after synchronize_srcu() and dcm_bus_lanes_flush(), so that a
 * bus exchange the cycle left running (a late bus) has ended.
 */
void dcm_runtime_free(struct dcm_runtime *rt)
{
	u32 i;

	if (!rt)
		return;
	for (i = 0; rt->dev && i < rt->model->n_devices; i++)
		kfree(rt->dev[i].priv);
	kvfree(rt->buses);
	kvfree(rt->dev);
	if (rt->snap)
		dcm_snapbuf_put(rt->snap);
	kvfree(rt->act_of);
	kvfree(rt->keys);
	kvfree(rt->conv);
	kvfree(rt->values);
	kvfree(rt->times);
	vfree(rt->act);
	kvfree(rt);
}

/**
 * dcm_runtime_actuate() - the actuators' values for a cycle
 * @rt: the runtime
 * @now: the cycle's DCM time
 *
 * Each actuator's value for @now comes from its queue and is converted to
 * the raw number to send, and back: that is its Value; @fired says whether
 * it has one to send this cycle. Context: the cycle thread; takes only
 * @rt->cmd_lock.
 */
void dcm_runtime_actuate(struct dcm_runtime *rt, u32 now)
{
	u32 i;

	raw_spin_lock(&rt->cmd_lock);
	for (i = 0; i < rt->n_act; i++) {
		struct dcm_actuator *a = &rt->act[i];
		s64 v;

		a->fired = dcm_tc_step(&a->q, now, a->step, &v);
		if (!a->fired)
			continue;
		a->raw = dcm_to_raw(&a->conv, v);
		rt->values[a->sub] = dcm_from_raw(&a->conv, a->raw);
		rt->times[a->sub] = now;
	}
	raw_spin_unlock(&rt->cmd_lock);
}

/**
 * dcm_runtime_sense() - a sensor's raw number, read this cycle
 * @rt: the runtime
 * @role_sub: the sensor's subdevice index, or -1 (the board has none there)
 * @raw: the raw number
 * @now: the cycle's DCM time
 *
 * The value is written under the runtime's values_lock, which the cycle
 * publishes under: a value of a late bus shows whole in the next snapshot.
 * Context: a bus's lane, or the cycle thread; not under values_lock.
 */
void dcm_runtime_sense(struct dcm_runtime *rt, s32 role_sub, s64 raw, u32 now)
{
	s64 v;

	if (role_sub < 0)
		return;
	v = dcm_from_raw(&rt->conv[role_sub], raw);
	spin_lock(&rt->values_lock);
	rt->values[role_sub] = v;
	rt->times[role_sub] = now;
	spin_unlock(&rt->values_lock);
}

/*
 * The live keys' values of the cycle, after the subdevices': a key's time
 * is that of the last cycle that changed it. The caller holds
 * @rt->values_lock, which guards the counters too.
 */
static void dcm_runtime_gather_keys(struct dcm_runtime *rt, u32 now)
{
	s64 *values = rt->values + rt->model->n_subdevices;
	u32 *times = rt->times + rt->model->n_subdevices;
	u32 i;
	s64 v;

	lockdep_assert_held(&rt->values_lock);
	for (i = 0; i < rt->n_keys; i++) {
		v = keyslot_value(rt, &rt->keys[i]);
		if (v != values[i]) {
			values[i] = v;
			times[i] = now;
		}
	}
}

/**
 * dcm_runtime_publish() - publish the cycle's values
 * @rt: the runtime
 * @now: the cycle's DCM time
 * @cycle: the cycle's number
 *
 * The live keys are gathered first (dcm_runtime_gather_keys()), then one
 * short section under the snapshot's sequence count copies every handle's
 * value: readers never wait on the bus exchanges. The section is not
 * preemptible, as a seqcount's write section: a reader of higher priority
 * on this CPU would otherwise spin on the odd count. Context: the cycle
 * thread, holding @rt->values_lock (the lanes' values and the boards'
 * counters stay whole); allocates nothing, takes no lock.
 */
void dcm_runtime_publish(struct dcm_runtime *rt, u32 now, u64 cycle)
{
	struct dcm_snapbuf *sb = rt->snap;
	u32 seq = sb->hdr->seq;

	lockdep_assert_held(&rt->values_lock);
	dcm_runtime_gather_keys(rt, now);
	preempt_disable();
	WRITE_ONCE(sb->hdr->seq, seq + 1);
	smp_wmb();	/* the odd count is seen before any value changes */
	memcpy(sb->values, rt->values, rt->n_handles * sizeof(*rt->values));
	memcpy(sb->times, rt->times, rt->n_handles * sizeof(*rt->times));
	sb->hdr->cycle = cycle;
	sb->hdr->time = now;
	smp_wmb();	/* every value is seen before the even count */
	WRITE_ONCE(sb->hdr->seq, seq + 2);
	preempt_enable();
}

/*
 * What a board's error code is, by its board type's error op (the one
 * place a code is decoded): its level, and with @text its line.
 */
static u8 dcm_board_error(const struct dcm_runtime *rt, u32 dev, u8 code, char *text,
			  size_t size)
{
	u8 (*error)(u8 code, char *text, size_t size) = rt->dev[dev].error;

	if (error)
		return error(code, text, size);
	if (text)
		snprintf(text, size, "board error %u", code);
	return code ? 4 : 0;
}

/* What an error of a device's list says, as its Error key and events show it. */
static void dcm_error_text(const struct dcm_runtime *rt, u32 dev, const struct dcm_dev_error *err,
			   char *text, size_t size)
{
	switch (err->source) {
	case DCM_ERR_BOARD:
		dcm_board_error(rt, dev, err->code, text, size);
		break;
	case DCM_ERR_NO_ANSWER:
		strscpy(text, "no answer", size);
		break;
	case DCM_ERR_CONFIG:
		snprintf(text, size, "configuration refused (status %u)", err->code);
		break;
	default:
		strscpy(text, "malformed answer", size);
		break;
	}
}

/**
 * dcm_runtime_answer() - account for a device's answer, or its silence
 * @rt: the runtime
 * @dev: the device index
 * @ok: it answered, well formed (Ack), else Nack
 * @source: enum dcm_error_source of an error to record, with @level > 0
 *	(DCM_ERR_BOARD: with @code not 0)
 * @level: 0 for no error, else 1-7; not used for DCM_ERR_BOARD
 * @code: the board's error code, for DCM_ERR_BOARD (0: no error), or the
 *	status of DCM_ERR_CONFIG
 * @now: the cycle's DCM time
 *
 * An error already in the list has its time renewed rather than added
 * again: a board repeating a code each cycle keeps one entry. The level of
 * a board's code is its board type's (struct dcm_rt_device.error), asked
 * when the code enters the list. An error
 * that enters the list, or comes back after 30 s unseen, is an event, and
 * so are a burst of DCM_NACK_BURST Nacks and the first answer after one.
 */
void dcm_runtime_answer(struct dcm_runtime *rt, u32 dev, bool ok, u8 source, u8 level,
			u8 code, u32 now)
{
	struct dcm_rt_device *d = &rt->dev[dev];
	struct dcm_dev_error added;
	u32 i, burst = 0;
	int ev = DCM_EV_UNSPEC;
	bool fresh = false;

	spin_lock(&rt->values_lock);
	if (ok) {
		d->ack++;
		if (d->nack_run >= DCM_NACK_BURST)
			burst = d->nack_run;
		d->nack_run = 0;
	} else {
		d->nack++;
		if (d->nack_run < U32_MAX)
			d->nack_run++;
		if (d->nack_run == DCM_NACK_BURST) {
			ev = DCM_EV_NACK;
			burst = d->nack_run;
		}
	}
	if (source == DCM_ERR_BOARD ? !code : !level)
		goto out;
	for (i = 0; i < d->n_err; i++) {
		if (d->err[i].source == source && d->err[i].code == code) {
			/* One no longer shown (older than 30 s) is news again. */
			fresh = (s32)(now - d->err[i].time) > DCM_ERROR_KEEP_MS;
			d->err[i].time = now;
			added = d->err[i];
			goto out;
		}
	}
	if (source == DCM_ERR_BOARD) {
		level = dcm_board_error(rt, dev, code, NULL, 0);
		if (!level)
			goto out;
	}
	/* Newest first; the oldest goes when the list is full. */
	if (d->n_err < DCM_ERRORS_KEPT)
		d->n_err++;
	memmove(&d->err[1], &d->err[0], (d->n_err - 1) * sizeof(d->err[0]));
	d->err[0] = (struct dcm_dev_error){ .time = now, .source = source, .level = level,
					    .code = code };
	added = d->err[0];
	fresh = true;
out:
	spin_unlock(&rt->values_lock);

	/* Events after the lock: they format text. The history keeps them. */
	if (ok && burst)
		ev = DCM_EV_ACK;
	if (ev == DCM_EV_UNSPEC && !fresh)
		return;
	if (ev != DCM_EV_UNSPEC) {
		struct dcm_event e = { .type = ev, .count = burst };

		strscpy(e.device, rt->model->devices[dev].name, sizeof(e.device));
		snprintf(e.text, sizeof(e.text), ev == DCM_EV_NACK ? "%u Nacks in a row: lost" :
			 "answers again after %u Nacks", burst);
		dcm_event_post(rt->ctrl, &e);
	}
	if (fresh) {
		struct dcm_event e = { .type = DCM_EV_ERROR, .level = added.level,
				       .code = code };

		strscpy(e.device, rt->model->devices[dev].name, sizeof(e.device));
		dcm_error_text(rt, dev, &added, e.text, sizeof(e.text));
		dcm_event_post(rt->ctrl, &e);
	}
}

/**
 * dcm_runtime_counters() - a device's Ack and Nack
 * @rt: the runtime
 * @dev: the device index
 * @ack: its Ack
 * @nack: its Nack
 */
void dcm_runtime_counters(struct dcm_runtime *rt, u32 dev, u64 *ack, u64 *nack)
{
	spin_lock(&rt->values_lock);
	*ack = rt->dev[dev].ack;
	*nack = rt->dev[dev].nack;
	spin_unlock(&rt->values_lock);
}

/**
 * dcm_runtime_available() - whether a device's board answers
 * @rt: the runtime
 * @dev: the device index
 *
 * Return: true once it answered (an Ack) and until it is lost (a burst of
 * DCM_NACK_BURST Nacks in a row); false before its first answer and while
 * it is lost. Its Available key.
 */
bool dcm_runtime_available(struct dcm_runtime *rt, u32 dev)
{
	bool ok;

	spin_lock(&rt->values_lock);
	ok = rt->dev[dev].ack && rt->dev[dev].nack_run < DCM_NACK_BURST;
	spin_unlock(&rt->values_lock);
	return ok;
}

/**
 * dcm_runtime_errors() - a device's error list as text
 * @rt: the runtime
 * @dev: the device index
 * @now: DCM time now: errors older than 30 s are not shown
 * @buf: where to write, one line per error: "<time> <level> <text>"
 * @size: its size
 *
 * Return: the length written.
 */
int dcm_runtime_errors(struct dcm_runtime *rt, u32 dev, u32 now, char *buf, size_t size)
{
	struct dcm_dev_error err[DCM_ERRORS_KEPT];
	char text[128];
	u32 i, n;
	int len = 0;

	spin_lock(&rt->values_lock);
	n = rt->dev[dev].n_err;
	memcpy(err, rt->dev[dev].err, n * sizeof(err[0]));
	spin_unlock(&rt->values_lock);

	for (i = 0; i < n && len < size; i++) {
		if ((s32)(now - err[i].time) > DCM_ERROR_KEEP_MS)
			continue;
		dcm_error_text(rt, dev, &err[i], text, sizeof(text));
		len += scnprintf(buf + len, size - len, "%u %u %s\n", err[i].time, err[i].level,
				 text);
	}
	return len;
}

/**
 * dcm_runtime_handle() - the subdevice a handle names
 * @rt: the runtime
 * @handle: from DCM_IOC_LOOKUP
 * @sub: its subdevice index
 *
 * Return: 0, -ESTALE for a handle of another description, -ENOENT for an
 * index that does not exist.
 */
int dcm_runtime_handle(const struct dcm_runtime *rt, u32 handle, u32 *sub)
{
	if (DCM_HANDLE_GEN(handle) != rt->generation)
		return -ESTALE;
	if (DCM_HANDLE_INDEX(handle) >= rt->model->n_subdevices)
		return -ENOENT;
	*sub = DCM_HANDLE_INDEX(handle);
	return 0;
}

/**
 * dcm_runtime_handle_any() - the subdevice or live key a handle names
 * @rt: the runtime
 * @handle: from DCM_IOC_LOOKUP
 * @index: its index among the handles (a subdevice's below n_subdevices)
 *
 * Return: 0, -ESTALE for a handle of another description, -ENOENT for an
 * index that does not exist.
 */
int dcm_runtime_handle_any(const struct dcm_runtime *rt, u32 handle, u32 *index)
{
	if (DCM_HANDLE_GEN(handle) != rt->generation)
		return -ESTALE;
	if (DCM_HANDLE_INDEX(handle) >= rt->n_handles)
		return -ENOENT;
	*index = DCM_HANDLE_INDEX(handle);
	return 0;
}

/**
 * dcm_runtime_key_index() - the handle index of a live key
 * @rt: the runtime
 * @ref: the key, from dcm_model_resolve()
 * @index: its index among the handles
 *
 * Context: process; a scan of the keys with a handle.
 *
 * Return: 0, or -ENOENT for a key that has no handle (not a live number).
 */
int dcm_runtime_key_index(const struct dcm_runtime *rt, const struct dcm_keyref *ref,
			  u32 *index)
{
	u32 i;

	for (i = 0; i < rt->n_keys; i++) {
		const struct dcm_keyref *k = &rt->keys[i].ref;

		if (k->target == ref->target && k->index == ref->index && k->key == ref->key) {
			*index = rt->model->n_subdevices + i;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * dcm_runtime_set_many() - timed commands to several actuators at once
 * @rt: the runtime
 * @update: enum dcm_update, for every member
 * @subs: subdevice index of each member; U32_MAX for a blank one
 * @pts: each member's commands, prepared by dcm_tc_prepare()
 * @n: each member's command count
 * @members: how many members
 *
 * Either every member's queue takes its commands, or none does.
 * Context: process; holds @rt->cmd_lock for the merges only.
 *
 * Return: 0, -EINVAL if a member is no actuator or @update is unknown,
 * -ENOSPC if a queue would pass DCM_MAX_POINTS.
 */
int dcm_runtime_set_many(struct dcm_runtime *rt, u32 update, const u32 *subs,
			 struct dcm_point *const *pts, const u32 *n, u32 members)
{
	int ret = 0;
	u32 i;

	if (update > DCM_UPDATE_MAX)
		return -EINVAL;
	for (i = 0; i < members; i++)
		if (subs[i] != U32_MAX && rt->act_of[subs[i]] < 0)
			return -EINVAL;

	raw_spin_lock(&rt->cmd_lock);
	for (i = 0; i < members; i++) {
		if (subs[i] != U32_MAX &&
		    !dcm_tc_fits(&rt->act[rt->act_of[subs[i]]].q, update, pts[i], n[i])) {
			ret = -ENOSPC;
			goto out;
		}
	}
	for (i = 0; i < members; i++)
		if (subs[i] != U32_MAX)
			dcm_tc_set(&rt->act[rt->act_of[subs[i]]].q, update, pts[i], n[i]);
out:
	raw_spin_unlock(&rt->cmd_lock);
	return ret;
}

/**
 * dcm_runtime_set() - timed commands to one actuator
 * @rt: the runtime
 * @sub: its subdevice index
 * @update: enum dcm_update
 * @pts: the commands, prepared by dcm_tc_prepare()
 * @n: how many
 *
 * Return: as dcm_runtime_set_many().
 */
int dcm_runtime_set(struct dcm_runtime *rt, u32 sub, u32 update, const struct dcm_point *pts,
		    u32 n)
{
	struct dcm_point *p = (struct dcm_point *)pts;

	return dcm_runtime_set_many(rt, update, &sub, &p, &n, 1);
}

/**
 * dcm_runtime_hold() - drop the queued commands of some actuators
 * @rt: the runtime
 * @subs: a bitmap of subdevice indexes, n_subdevices bits; those that are
 *	not actuators are ignored
 *
 * Each actuator named keeps the value it has now (a ClearAll with no
 * command). Context: process; holds @rt->cmd_lock, never sleeps.
 */
void dcm_runtime_hold(struct dcm_runtime *rt, const unsigned long *subs)
{
	unsigned int i;

	raw_spin_lock(&rt->cmd_lock);
	for_each_set_bit(i, subs, rt->model->n_subdevices)
		if (rt->act_of[i] >= 0)
			dcm_tc_set(&rt->act[rt->act_of[i]].q, DCM_UPDATE_CLEAR_ALL, NULL, 0);
	raw_spin_unlock(&rt->cmd_lock);
}

/**
 * dcm_runtime_ramp_hardness() - take every joint's stiffness down to 0
 * @rt: the runtime
 * @now: DCM time now
 * @ramp_ms: how long the way down takes; 0 cuts at the next cycle
 *
 * Every hardness actuator drops its queued commands and gets one, 0 at
 * @now + @ramp_ms: the cycle interpolates from where it is. Context:
 * process; holds @rt->cmd_lock, never sleeps.
 */
void dcm_runtime_ramp_hardness(struct dcm_runtime *rt, u32 now, u32 ramp_ms)
{
	const struct dcm_point p = { .value = 0, .time = now + ramp_ms };
	u32 i;

	raw_spin_lock(&rt->cmd_lock);
	for (i = 0; i < rt->n_act; i++)
		if (rt->model->subdevices[rt->act[i].sub].type->flags & DCM_SUB_HARDNESS)
			dcm_tc_set(&rt->act[i].q, DCM_UPDATE_CLEAR_ALL, &p, 1);
	raw_spin_unlock(&rt->cmd_lock);
}

/**
 * dcm_runtime_commanded() - what an actuator was commanded at the last cycle
 * @rt: the runtime
 * @act: its index in @rt->act
 *
 * The value its queue gave the last cycle, before the stiffness rules,
 * Min/Max and quantization (for a Hardness actuator: the stiffness asked,
 * where its Value is the hardness sent). Context: process; holds
 * @rt->cmd_lock, never sleeps.
 *
 * Return: micro-units.
 */
s64 dcm_runtime_commanded(struct dcm_runtime *rt, u32 act)
{
	s64 v;

	raw_spin_lock(&rt->cmd_lock);
	v = rt->act[act].q.value;
	raw_spin_unlock(&rt->cmd_lock);
	return v;
}

/**
 * dcm_runtime_gather() - some values of the last published cycle
 * @rt: the runtime
 * @index: @n handle indexes, each checked by dcm_runtime_handle_any()
 * @n: how many
 * @values: @n values, out
 * @times: @n update times, out
 *
 * All of one cycle: retries while the cycle is publishing. Context: any;
 * does not sleep.
 */
void dcm_runtime_gather(const struct dcm_runtime *rt, const u32 *index, u32 n, s64 *values,
			u32 *times)
{
	const struct dcm_snapbuf *sb = rt->snap;
	u32 i, seq;

	do {
		seq = READ_ONCE(sb->hdr->seq);
		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();	/* the count is read before the data */
		for (i = 0; i < n; i++) {
			values[i] = sb->values[index[i]];
			times[i] = sb->times[index[i]];
		}
		smp_rmb();	/* the data is read before the count again */
	} while ((seq & 1) || READ_ONCE(sb->hdr->seq) != seq);
}

/**
 * dcm_runtime_read() - a consistent copy of the last published cycle
 * @rt: the runtime
 * @n: the entries to copy, from the first: n_subdevices, or up to
 *	n_handles for the live keys too
 * @values: @n values, or NULL
 * @times: @n update times, or NULL
 * @cycle: the cycle's number
 * @time: the cycle's DCM time
 *
 * Retries while the cycle is publishing. Context: any; does not sleep.
 */
void dcm_runtime_read(const struct dcm_runtime *rt, u32 n, s64 *values, u32 *times, u64 *cycle,
		      u32 *time)
{
	const struct dcm_snapbuf *sb = rt->snap;
	u32 seq;

	do {
		seq = READ_ONCE(sb->hdr->seq);
		if (seq & 1) {
			cpu_relax();
			continue;
		}
		smp_rmb();	/* the count is read before the data */
		if (values)
			memcpy(values, sb->values, n * sizeof(*values));
		if (times)
			memcpy(times, sb->times, n * sizeof(*times));
		*cycle = sb->hdr->cycle;
		*time = sb->hdr->time;
		smp_rmb();	/* the data is read before the count again */
	} while ((seq & 1) || READ_ONCE(sb->hdr->seq) != seq);
}
