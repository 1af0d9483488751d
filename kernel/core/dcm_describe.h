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
struct dcm_runtime;
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

/**
 * struct dcm_describe_old - what a swap replaced, freed once the cycle left it
 * @rt: the old running state, or NULL
 * @model: the old description, or NULL
 */
struct dcm_describe_old {
	struct dcm_runtime *rt;
	struct dcm_model *model;
};

int dcm_describe_init(struct dcm_desc *desc);
void dcm_describe_free(struct dcm_desc *desc);
void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops);
int dcm_describe_job(struct dcm_controller *ctrl,
		     int (*run)(struct dcm_controller *ctrl, void *arg), void *arg);
void dcm_describe_jobs_wait(struct dcm_controller *ctrl);
bool dcm_describe_in_job(struct dcm_controller *ctrl);
int dcm_describe_running(struct dcm_controller *ctrl, struct dcm_runtime **rt);
void dcm_describe_load(struct dcm_controller *ctrl, struct dcm_model *m);
/* dcm_describe_replace(): the description equals the running one, which stays */
#define DCM_DESCRIBE_UNCHANGED	1
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why,
			 struct dcm_describe_old *old);
void dcm_describe_retire(struct dcm_controller *ctrl, struct dcm_describe_old *old);
void dcm_describe_release(struct dcm_controller *ctrl);

#endif /* _DCM_DESCRIBE_H */
