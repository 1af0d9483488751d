// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the transports of a controller's buses.
 *
 * A transport (the RS485, SPI or I2C driver, or the simulated body's
 * loopback) registers a bus under the name the robot description gives its
 * boards ("RS485-1"). The cycle finds it by that name under SRCU, since an
 * exchange sleeps for the bus; unregistering waits for the cycle.
 */

#include <linux/rculist.h>
#include <linux/srcu.h>

#include "core/dcm_internal.h"

/**
 * dcm_bus_register() - give a controller a bus
 * @index: the controller, N of dcmN
 * @bus: the bus, with @bus->name, @bus->kind and @bus->ops set; it must
 *	stay until dcm_bus_unregister()
 *
 * Context: process.
 *
 * Return: 0, -ENODEV (no such controller), -EINVAL, -EEXIST (a bus of
 * that name is registered).
 */
int dcm_bus_register(unsigned int index, struct dcm_bus *bus)
{
	struct dcm_controller *ctrl;
	struct dcm_bus *b;
	int ret = 0;

	if (!bus->name || !bus->ops || !bus->ops->xfer || bus->kind > DCM_BUS_REGS)
		return -EINVAL;
	ctrl = dcm_controller_get(index);
	if (!ctrl)
		return -ENODEV;
	mutex_lock(&ctrl->bus_lock);
	list_for_each_entry(b, &ctrl->buses, node) {
		if (!strcmp(b->name, bus->name)) {
			ret = -EEXIST;
			break;
		}
	}
	if (!ret) {
		mutex_init(&bus->xfer_lock);
		bus->ctrl = ctrl;
		list_add_tail_rcu(&bus->node, &ctrl->buses);
	}
	mutex_unlock(&ctrl->bus_lock);
	if (ret)
		dcm_controller_put(ctrl);
	else
		dev_info(&ctrl->dev, "bus %s\n", bus->name);
	return ret;
}
EXPORT_SYMBOL_GPL(dcm_bus_register);

/**
 * dcm_bus_unregister() - take a bus back
 * @bus: what dcm_bus_register() took
 *
 * Returns once no cycle uses the bus. Context: process.
 */
void dcm_bus_unregister(struct dcm_bus *bus)
{
	struct dcm_controller *ctrl = bus->ctrl;

	mutex_lock(&ctrl->bus_lock);
	list_del_rcu(&bus->node);
	mutex_unlock(&ctrl->bus_lock);
	synchronize_srcu(&ctrl->srcu);
	bus->ctrl = NULL;
	dcm_controller_put(ctrl);
}
EXPORT_SYMBOL_GPL(dcm_bus_unregister);

/**
 * dcm_bus_find() - the transport of a bus, for the cycle
 * @ctrl: the controller
 * @name: the bus name
 *
 * Context: inside the controller's SRCU read section.
 *
 * Return: the bus, or NULL.
 */
struct dcm_bus *dcm_bus_find(struct dcm_controller *ctrl, const char *name)
{
	struct dcm_bus *b;

	RCU_LOCKDEP_WARN(!srcu_read_lock_held(&ctrl->srcu),
			 "bus look-up outside the controller's SRCU read section");
	list_for_each_entry_srcu(b, &ctrl->buses, node, srcu_read_lock_held(&ctrl->srcu))
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}
