/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the running state of a committed description: actuator queues, the
 * snapshot of values the cycle publishes, and the ways in.
 */
#ifndef _DCM_RUNTIME_H
#define _DCM_RUNTIME_H

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "dcm_model.h"
#include "dcm_timed.h"

/**
 * struct dcm_snapbuf - the memory of a snapshot, shared with mmap()
 * @ref: one for the runtime, one per mapping
 * @hdr: start of the vmalloc_user() area: header, values, times
 * @size: bytes of the area, whole pages
 * @values: the values, by subdevice index
 * @times: DCM time of each value's last update
 */
struct dcm_snapbuf {
	struct kref ref;
	struct dcm_snapshot *hdr;
	size_t size;
	s64 *values;
	u32 *times;
};

/**
 * struct dcm_actuator - an actuator's commands and conversion
 * @q: its timed commands
 * @conv: Gain, Offset, Min, Max
 * @sub: its subdevice index
 * @step: a step actuator (not interpolated)
 * @raw: the raw number last sent
 */
struct dcm_actuator {
	struct dcm_tc_queue q;
	struct dcm_conv conv;
	u32 sub;
	bool step;
	s64 raw;
};

/**
 * struct dcm_runtime - a committed description, running
 * @model: the description
 * @generation: 1-65535, the high half of handles
 * @cmd_lock: guards every actuator queue; held by the cycle once per cycle
 *	and by a command for a merge, never across anything that sleeps
 * @act: @n_act actuators
 * @n_act: count
 * @act_of: per subdevice, its index in @act, or -1
 * @snap: the published values
 */
struct dcm_runtime {
	struct dcm_model *model;
	u32 generation;
	raw_spinlock_t cmd_lock;
	struct dcm_actuator *act;
	u32 n_act;
	s32 *act_of;
	struct dcm_snapbuf *snap;
};

struct dcm_runtime *dcm_runtime_create(struct dcm_model *m, u32 generation);
void dcm_runtime_free(struct dcm_runtime *rt);
void dcm_runtime_cycle(struct dcm_runtime *rt, u32 now, u64 cycle);
int dcm_runtime_handle(const struct dcm_runtime *rt, u32 handle, u32 *sub);
int dcm_runtime_set(struct dcm_runtime *rt, u32 sub, u32 update, const struct dcm_point *pts,
		    u32 n);
int dcm_runtime_set_many(struct dcm_runtime *rt, u32 update, const u32 *subs,
			 struct dcm_point *const *pts, const u32 *n, u32 members);
void dcm_runtime_read(const struct dcm_runtime *rt, s64 *values, u32 *times, u64 *cycle,
		      u32 *time);
void dcm_snapbuf_put(struct dcm_snapbuf *sb);

#endif /* _DCM_RUNTIME_H */
