// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the transports of a controller's buses.
 *
 * A transport (the RS485, SPI or I2C driver, or the simulated body's
 * loopback) registers a bus under the name the robot description gives its
 * boards ("RS485-1"). The running description's buses point at their
 * transports (struct dcm_rt_bus.bus), set when the runtime is created and
 * each time a transport registers or unregisters, so that the cycle finds
 * a bus's transport without a lookup; it reads them under SRCU, since an
 * exchange sleeps for the bus, and unregistering waits for the cycle.
 */

#include <linux/rculist.h>
#include <linux/srcu.h>

#include "core/dcm_internal.h"
#include "core/dcm_runtime.h"

/*
 * Point the buses of the running description named @name at @bus, or at
 * nothing. The caller holds the controller's config_lock (no description is
 * being swapped in meanwhile) and bus_lock.
 */
static void rt_bus_set(struct dcm_controller *ctrl, const char *name, struct dcm_bus *bus)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 b;

	lockdep_assert_held(&ctrl->bus_lock);
	if (!rt)
		return;
	for (b = 0; b < rt->n_buses; b++)
		if (!strcmp(rt->buses[b].name, name))
			rcu_assign_pointer(rt->buses[b].bus, bus);
}

/* The transport of a bus, by name; the caller holds the controller's bus_lock. */
static struct dcm_bus *bus_find_locked(struct dcm_controller *ctrl, const char *name)
{
	struct dcm_bus *b;

	list_for_each_entry(b, &ctrl->buses, node)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/**
 * dcm_bus_attach() - point a new runtime's buses at their transports
 * @ctrl: the controller
 * @rt: the runtime being created, not yet running
 *
 * Context: process; the caller holds the controller's config_lock until the
 * runtime runs (or is freed), so that no transport comes or goes unseen
 * meanwhile; takes the bus_lock.
 */
void dcm_bus_attach(struct dcm_controller *ctrl, struct dcm_runtime *rt)
{
	u32 b;

	lockdep_assert_held(&ctrl->config_lock);
	mutex_lock(&ctrl->bus_lock);
	for (b = 0; b < rt->n_buses; b++)
		RCU_INIT_POINTER(rt->buses[b].bus, bus_find_locked(ctrl, rt->buses[b].name));
	mutex_unlock(&ctrl->bus_lock);
}

/**
 * dcm_bus_register() - give a controller a bus
 * @index: the controller, N of dcmN
 * @bus: the bus, with @bus->name, @bus->kind and @bus->ops set; it must
 *	stay until dcm_bus_unregister()
 *
 * The running description's bus of that name uses it from the next cycle.
 * Context: process; takes the controller's config_lock and bus_lock.
 *
 * Return: 0, -ENODEV (no such controller), -EINVAL, -EEXIST (a bus of
 * that name is registered).
 */
int dcm_bus_register(unsigned int index, struct dcm_bus *bus)
{
	struct dcm_controller *ctrl;
	int ret = 0;

	if (!bus->name || !bus->ops || !bus->ops->xfer || bus->kind > DCM_BUS_REGS)
		return -EINVAL;
	ctrl = dcm_controller_get(index);
	if (!ctrl)
		return -ENODEV;
	mutex_lock(&ctrl->config_lock);
	mutex_lock(&ctrl->bus_lock);
	if (bus_find_locked(ctrl, bus->name)) {
		ret = -EEXIST;
	} else {
		mutex_init(&bus->xfer_lock);
		bus->ctrl = ctrl;
		list_add_tail_rcu(&bus->node, &ctrl->buses);
		rt_bus_set(ctrl, bus->name, bus);
	}
	mutex_unlock(&ctrl->bus_lock);
	mutex_unlock(&ctrl->config_lock);
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
 * Returns once no cycle uses the bus. Context: process; takes the
 * controller's config_lock and bus_lock.
 */
void dcm_bus_unregister(struct dcm_bus *bus)
{
	struct dcm_controller *ctrl = bus->ctrl;

	mutex_lock(&ctrl->config_lock);
	mutex_lock(&ctrl->bus_lock);
	list_del_rcu(&bus->node);
	rt_bus_set(ctrl, bus->name, NULL);
	mutex_unlock(&ctrl->bus_lock);
	mutex_unlock(&ctrl->config_lock);
	synchronize_srcu(&ctrl->srcu);
	bus->ctrl = NULL;
	dcm_controller_put(ctrl);
}
EXPORT_SYMBOL_GPL(dcm_bus_unregister);

/**
 * dcm_bus_find() - the transport of a bus, by name
 * @ctrl: the controller
 * @name: the bus name
 *
 * For a description that is not running yet (the chest store is read
 * before); a running one has its buses' transports at hand (struct
 * dcm_rt_bus.bus). Context: inside the controller's SRCU read section.
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
