/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the running description (dcm_describe.c): the robot description a
 * controller runs, its key tree and its running state, and their
 * replacement in one step; a part of the controller.
 */
#ifndef _DCM_DESCRIBE_H
#define _DCM_DESCRIBE_H

#include <linux/compiler_types.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct dcm_controller;
struct dcm_model;
struct dcm_runtime;
struct dcm_tree;

/**
 * struct dcm_desc - a controller's running description, a part of the
 *	controller
 * @lock: orders configuration transactions (the netlink face's, with their
 *	state), description swaps, calibration and special commands; guards
 *	@tree, and with the controller's lock the swap of @model, @rt and
 *	@generation (DOC: Locking)
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
 */
struct dcm_desc {
	struct mutex lock;		/* transactions, swaps of @model */
	struct dcm_model *model;
	struct dcm_tree *tree;
	struct dcm_runtime __rcu *rt;
	u32 generation;
	u32 swaps;
	struct mutex keys_lock;		/* string key values */
};

/**
 * struct dcm_tree_ops - the face that shows a description's keys as files
 * @build: build the tree of a description, under hidden names if @staging
 *	(an ERR_PTR on failure, nothing left behind)
 * @publish: give a staged tree its final names, once the old one is gone
 * @remove: remove and free a tree
 */
struct dcm_tree_ops {
	struct dcm_tree *(*build)(struct dcm_controller *ctrl, struct dcm_model *m,
				  bool staging);
	int (*publish)(struct dcm_tree *tree);
	void (*remove)(struct dcm_tree *tree);
};

void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops);
/* dcm_describe_replace(): the description equals the running one, which stays */
#define DCM_DESCRIBE_UNCHANGED	1
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why);
void dcm_describe_release(struct dcm_controller *ctrl);

void dcm_describe_init(struct dcm_desc *desc);
void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops);
/* dcm_describe_replace(): the description equals the running one, which stays */
#define DCM_DESCRIBE_UNCHANGED	1
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why);
void dcm_describe_release(struct dcm_controller *ctrl);

#endif /* _DCM_DESCRIBE_H */
