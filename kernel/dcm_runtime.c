// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a committed description, running: its actuators' timed-command
 * queues, the cycle's work on them, and the snapshot it publishes.
 *
 * The snapshot is one vmalloc_user() area, header then values then times,
 * that mmap() maps read-only. The cycle is its only writer and brackets
 * each publication with an odd sequence count (a seqcount whose readers
 * may be in user space).
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "dcm_runtime.h"

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

static struct dcm_snapbuf *snapbuf_create(const struct dcm_model *m, u32 generation)
{
	size_t values = ALIGN(sizeof(struct dcm_snapshot), 8);
	size_t times = values + m->n_subdevices * sizeof(s64);
	struct dcm_snapbuf *sb;
	u32 i;

	sb = kzalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return NULL;
	kref_init(&sb->ref);
	sb->size = PAGE_ALIGN(times + m->n_subdevices * sizeof(u32));
	sb->hdr = vmalloc_user(sb->size);
	if (!sb->hdr) {
		kfree(sb);
		return NULL;
	}
	sb->values = (s64 *)((char *)sb->hdr + values);
	sb->times = (u32 *)((char *)sb->hdr + times);
	sb->hdr->n_values = m->n_subdevices;
	sb->hdr->generation = generation;
	sb->hdr->values_offset = values;
	sb->hdr->times_offset = times;
	sb->hdr->size = sb->size;
	for (i = 0; i < m->n_subdevices; i++)
		sb->values[i] = m->subdevices[i].value;
	return sb;
}

/**
 * dcm_runtime_create() - the running state of a checked description
 * @m: the description; it must outlive the runtime
 * @generation: its generation, 1-65535
 *
 * Every actuator starts at its description's Value with an empty queue.
 * Context: process.
 *
 * Return: the runtime, or NULL when memory is short.
 */
struct dcm_runtime *dcm_runtime_create(struct dcm_model *m, u32 generation)
{
	struct dcm_runtime *rt;
	u32 i, a = 0;

	rt = kzalloc(sizeof(*rt), GFP_KERNEL);
	if (!rt)
		return NULL;
	rt->model = m;
	rt->generation = generation;
	raw_spin_lock_init(&rt->cmd_lock);

	for (i = 0; i < m->n_subdevices; i++)
		if (m->subdevices[i].type->flags & DCM_SUB_ACTUATOR)
			rt->n_act++;
	if (rt->n_act)
		rt->act = vzalloc(array_size(rt->n_act, sizeof(*rt->act)));
	if (m->n_subdevices)
		rt->act_of = kvmalloc_array(m->n_subdevices, sizeof(*rt->act_of), GFP_KERNEL);
	rt->snap = snapbuf_create(m, generation);
	if ((rt->n_act && !rt->act) || (m->n_subdevices && !rt->act_of) || !rt->snap) {
		dcm_runtime_free(rt);
		return NULL;
	}

	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];
		struct dcm_actuator *act;

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
	return rt;
}

/**
 * dcm_runtime_free() - free a runtime no cycle uses any more
 * @rt: the runtime, or NULL
 *
 * The snapshot's memory stays while a mapping holds it.
 */
void dcm_runtime_free(struct dcm_runtime *rt)
{
	if (!rt)
		return;
	if (rt->snap)
		dcm_snapbuf_put(rt->snap);
	kvfree(rt->act_of);
	vfree(rt->act);
	kfree(rt);
}

/**
 * dcm_runtime_cycle() - one cycle of work on the actuators, then publish
 * @rt: the runtime
 * @now: the cycle's DCM time
 * @cycle: the cycle's number
 *
 * Each actuator's value for @now comes from its queue, is converted to the
 * raw number to send, and back: that is its Value. Then the snapshot is
 * published. Context: the cycle thread; takes only @rt->cmd_lock, neither
 * allocates nor sleeps.
 */
void dcm_runtime_cycle(struct dcm_runtime *rt, u32 now, u64 cycle)
{
	struct dcm_snapbuf *sb = rt->snap;
	struct dcm_model *m = rt->model;
	u32 i, seq = sb->hdr->seq;

	WRITE_ONCE(sb->hdr->seq, seq + 1);
	smp_wmb();	/* the odd count is seen before any value changes */

	raw_spin_lock(&rt->cmd_lock);
	for (i = 0; i < rt->n_act; i++) {
		struct dcm_actuator *a = &rt->act[i];
		s64 v;

		if (!dcm_tc_step(&a->q, now, a->step, &v))
			continue;
		a->raw = dcm_to_raw(&a->conv, v);
		v = dcm_from_raw(&a->conv, a->raw);
		WRITE_ONCE(m->subdevices[a->sub].value, v);
		sb->values[a->sub] = v;
		sb->times[a->sub] = now;
	}
	raw_spin_unlock(&rt->cmd_lock);

	sb->hdr->cycle = cycle;
	sb->hdr->time = now;
	smp_wmb();	/* every value is seen before the even count */
	WRITE_ONCE(sb->hdr->seq, seq + 2);
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
 * dcm_runtime_read() - a consistent copy of the last published cycle
 * @rt: the runtime
 * @values: n_subdevices values, or NULL
 * @times: n_subdevices update times, or NULL
 * @cycle: the cycle's number
 * @time: the cycle's DCM time
 *
 * Retries while the cycle is publishing. Context: any; does not sleep.
 */
void dcm_runtime_read(const struct dcm_runtime *rt, s64 *values, u32 *times, u64 *cycle,
		      u32 *time)
{
	const struct dcm_snapbuf *sb = rt->snap;
	u32 n = sb->hdr->n_values, seq;

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
