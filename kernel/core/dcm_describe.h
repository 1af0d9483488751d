/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the running description (dcm_describe.c): the robot description a
 * controller runs, its key tree and its running state, and their
 * replacement in one step; its state is struct dcm_desc
 * (dcm_describe_types.h).
 */
#ifndef _DCM_DESCRIBE_H
#define _DCM_DESCRIBE_H

#include <linux/types.h>

#include "core/dcm_describe_types.h"

struct dcm_controller;
struct dcm_model;
struct dcm_tree;

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

void dcm_describe_init(struct dcm_desc *desc);
void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops);
/* dcm_describe_replace(): the description equals the running one, which stays */
#define DCM_DESCRIBE_UNCHANGED	1
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why);
void dcm_describe_release(struct dcm_controller *ctrl);

#endif /* _DCM_DESCRIBE_H */
