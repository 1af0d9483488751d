/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller's buses' state, a part of the controller (struct
 * dcm_buses), apart from their functions (dcm_bus.h) so that the
 * controller embeds it without including them.
 */
#ifndef _DCM_BUS_TYPES_H
#define _DCM_BUS_TYPES_H

#include <linux/list.h>
#include <linux/mutex.h>

/**
 * struct dcm_buses - a controller's buses, a part of the controller
 * @lock: orders changes of @list and @claims; readers of @list use the
 *	controller's SRCU
 * @list: the transports that carry its body's buses, struct dcm_bus
 * @claims: its body's buses, struct dcm_claim (dcm_bus.c)
 */
struct dcm_buses {
	struct mutex lock;		/* @list, @claims */
	struct list_head list;
	struct list_head claims;
};

#endif /* _DCM_BUS_TYPES_H */
