/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - aliases (dcm_alias.c): named lists of keys, shared by a controller's
 * clients or owned by one open file; their state is struct dcm_aliases
 * (dcm_alias_types.h).
 */
#ifndef _DCM_ALIAS_H
#define _DCM_ALIAS_H

#include <linux/types.h>
#include <linux/dcm.h>

#include "core/dcm_alias_types.h"

struct dcm_alias;
struct dcm_controller;

/**
 * struct dcm_alias_points - an alias set's points, copied in
 * @counts: points per member, as many as the request's n_members
 * @pts: the points, member after member
 */
struct dcm_alias_points {
	u32 *counts;
	struct dcm_point *pts;
};

int dcm_alias_create_fetch(const struct dcm_ioc_alias_create *arg, struct dcm_alias **ap);
void dcm_alias_resolve(struct dcm_controller *ctrl, const struct dcm_alias *a, u32 *handles);
int dcm_alias_install(struct dcm_controller *ctrl, const void *owner, struct dcm_alias **ap);
u32 dcm_alias_list(struct dcm_controller *ctrl, const void *owner, struct dcm_alias_info *out,
		   u32 room);
int dcm_alias_get(struct dcm_controller *ctrl, const void *owner, struct dcm_ioc_alias_get *arg,
		  char *members, u32 *handles, u32 room);
int dcm_alias_delete(struct dcm_controller *ctrl, const void *owner,
		     const struct dcm_ioc_alias_delete *arg);
void dcm_alias_drop_owner(struct dcm_controller *ctrl, const void *owner);
void dcm_alias_free(struct dcm_alias *a);
int dcm_alias_set_fetch(const struct dcm_ioc_alias_set *arg, struct dcm_alias_points *in);
void dcm_alias_points_free(struct dcm_alias_points *in);
int dcm_alias_set(struct dcm_controller *ctrl, const void *owner,
		  const struct dcm_ioc_alias_set *arg, const struct dcm_alias_points *in,
		  unsigned long *touched);
void dcm_aliases_init(struct dcm_aliases *aliases);
void dcm_alias_release(struct dcm_controller *ctrl);

#endif /* _DCM_ALIAS_H */
