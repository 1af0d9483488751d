/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller's buses (dcm_bus.c): the transports that carry its
 * body's buses and the body's claims on them; their state is struct
 * dcm_buses (dcm_bus_types.h).
 */
#ifndef _DCM_BUS_H
#define _DCM_BUS_H

#include <linux/types.h>
#include <linux/dcm.h>

#include "core/dcm_bus_types.h"

struct dcm_controller;
struct dcm_runtime;
struct fwnode_handle;

/**
 * struct dcm_bus_ref - a bus of a body, as firmware or configfs names it
 * @name: the Bus name the robot description gives its boards ("RS485-1")
 * @fwnode: the firmware node of its transport (firmware), or NULL
 * @transport: else the name of its transport's device (configfs)
 */
struct dcm_bus_ref {
	const char *name;
	struct fwnode_handle *fwnode;
	const char *transport;
};

/**
 * struct dcm_claim_why - why a body cannot claim its buses
 * @bad: the index of the bus at fault
 * @other: the other bus of the same body it collides with
 * @index: the controller whose body claims its transport already
 * @bus: under that bus name
 * @kind: the kind of its transport, when it is not the one its name calls for
 */
struct dcm_claim_why {
	unsigned int bad, other;
	int index;
	char bus[DCM_NAME_LEN];
	enum dcm_bus_kind kind;
};

void dcm_buses_init(struct dcm_buses *buses);
bool dcm_bus_name_ok(const char *name);
struct dcm_bus *dcm_bus_find(struct dcm_controller *ctrl, const char *name);
void dcm_bus_attach(struct dcm_controller *ctrl, struct dcm_runtime *rt);
void dcm_bus_lanes_flush(struct dcm_controller *ctrl);
int dcm_buses_check(const struct dcm_bus_ref *refs, unsigned int n, struct dcm_claim_why *why);
int dcm_buses_claim(struct dcm_controller *ctrl, const struct dcm_bus_ref *refs, unsigned int n,
		    struct dcm_claim_why *why);
void dcm_buses_release(struct dcm_controller *ctrl);

#endif /* _DCM_BUS_H */
