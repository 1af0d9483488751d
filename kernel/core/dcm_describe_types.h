/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the running description's state, a part of the controller (struct
 * dcm_desc), apart from its functions (dcm_describe.h) so that the
 * controller embeds it without including them.
 */
#ifndef _DCM_DESCRIBE_TYPES_H
#define _DCM_DESCRIBE_TYPES_H

#include <linux/compiler_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct dcm_model;
struct workqueue_struct;
struct dcm_runtime;
struct dcm_tree;

/**
 * struct dcm_desc - a controller's running description, a part of the
 *	controller
 * @lock: guards the configuration transaction (the netlink face's state),
 *	@tree, and with the controller's lock the swap of @model, @rt and
 *	@generation; held for short steps only, never across bus I/O or a
 *	wait for the cycle (DOC: Locking)
 * @model: the running robot description, or NULL; changed under @lock and
 *	the controller's lock (for writing), read under either
 * @tree: its sysfs key tree
 * @rt: the running state of @model; changed as @model, read under the
 *	controller's SRCU (the cycle) or as @model (dcm_rt())
 * @generation: generation of @model, 1-65535
 * @swaps: descriptions made running (generations begun) since the
 *	controller was created; a commit equal to the running description
 *	does not count. Written under @lock, read with READ_ONCE()
 * @keys_lock: guards string key values against a concurrent write
 * @jobs: an ordered queue: the work that uses the running state outside the
 *	cycle and waits for it (calibration, special commands, a commit's
 *	chest store read and swap) runs there one job at a time, holding no
 *	lock while it waits (dcm_describe_job())
 */
struct dcm_desc {
	struct mutex lock;		/* transactions, swaps of @model */
	struct dcm_model *model;
	struct dcm_tree *tree;
	struct dcm_runtime __rcu *rt;
	u32 generation;
	u32 swaps;
	struct mutex keys_lock;		/* string key values */
	struct workqueue_struct *jobs;
};

#endif /* _DCM_DESCRIBE_TYPES_H */
