/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller's aliases' state, a part of the controller (struct
 * dcm_aliases), apart from their functions (dcm_alias.h) so that the
 * controller embeds it without including them.
 */
#ifndef _DCM_ALIAS_TYPES_H
#define _DCM_ALIAS_TYPES_H

#include <linux/list.h>
#include <linux/mutex.h>

/**
 * struct dcm_aliases - a controller's aliases, a part of the controller
 * @lock: guards @list
 * @list: every alias, struct dcm_alias: the shared ones and each open
 *	file's own
 */
struct dcm_aliases {
	struct mutex lock;		/* @list */
	struct list_head list;
};

#endif /* _DCM_ALIAS_TYPES_H */
