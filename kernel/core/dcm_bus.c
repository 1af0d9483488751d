// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - transports, and the bodies that claim them.
 *
 * A transport (the RS485 line, the I2C or SPI controller with the robot's
 * boards on it, a simulated line) registers as soon as it binds, with no
 * controller (dcm_transport_register()). A body (the body driver from
 * firmware, or configfs) claims transports for its controller, each under
 * the Bus name the robot description gives its boards ("RS485-1"), by the
 * transport's firmware node or by its device's name (struct dcm_bus_ref).
 * A claim outlives its transport: a transport that unbinds leaves its bus
 * without one (its boards are not answered: Nack), and one that binds
 * again takes its claimed place back.
 *
 * The running description's buses point at their transports (struct
 * dcm_rt_bus.bus), set when the runtime is created and each time a
 * transport comes or goes, so that the cycle finds a bus's transport
 * without a lookup; it reads them under SRCU, since an exchange sleeps for
 * the bus, and a transport that goes waits for the cycle.
 *
 * Locks: dcm_transports_lock (the transports and the claims, a mutex
 * here), then the claiming controller's desc.lock, then its buses.lock
 * (DOC: Locking in dcm_controller.h).
 */

#include <linux/device.h>
#include <linux/property.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_controller.h"
#include "core/dcm_runtime.h"
#include "core/dcm_bus.h"

/**
 * struct dcm_claim - a bus of a body: which transport carries it
 * @node: in the controller's &dcm_buses.claims (under the
 *	transports' lock and its buses.lock)
 * @all: in dcm_claims (under the transports' lock)
 * @ctrl: the body's controller
 * @name: the Bus name
 * @fwnode: the transport's firmware node (held), or NULL
 * @transport: the transport device's name, or ""
 * @bus: the transport that carries it now, or NULL
 */
struct dcm_claim {
	struct list_head node;
	struct list_head all;
	struct dcm_controller *ctrl;
	char name[DCM_NAME_LEN];
	struct fwnode_handle *fwnode;
	char transport[DCM_NAME_LEN];
	struct dcm_bus *bus;
};

static DEFINE_MUTEX(dcm_transports_lock);	/* the two lists */
static LIST_HEAD(dcm_transports);		/* struct dcm_bus */
static LIST_HEAD(dcm_claims);			/* struct dcm_claim */

/*
 * Point the buses of the running description named @name at @bus, or at
 * nothing, and say whether the body claims them. The caller holds the
 * controller's desc.lock (no description is being swapped in meanwhile)
 * and buses.lock.
 */
static void rt_bus_set(struct dcm_controller *ctrl, const char *name, struct dcm_bus *bus,
		       bool claimed)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 b;

	lockdep_assert_held(&ctrl->buses.lock);
	if (!rt)
		return;
	for (b = 0; b < rt->n_buses; b++) {
		if (strcmp(rt->buses[b].name, name))
			continue;
		rcu_assign_pointer(rt->buses[b].bus, bus);
		WRITE_ONCE(rt->buses[b].claimed, claimed);
	}
}

/* Whether the controller's body claims a bus; the caller holds its buses.lock. */
static bool claimed_locked(struct dcm_controller *ctrl, const char *name)
{
	struct dcm_claim *c;

	list_for_each_entry(c, &ctrl->buses.claims, node)
		if (!strcmp(c->name, name))
			return true;
	return false;
}

/* The transport of a bus, by name; the caller holds the controller's buses.lock. */
static struct dcm_bus *bus_find_locked(struct dcm_controller *ctrl, const char *name)
{
	struct dcm_bus *b;

	list_for_each_entry(b, &ctrl->buses.list, node)
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}

/**
 * dcm_bus_attach() - point a new runtime's buses at their transports
 * @ctrl: the controller
 * @rt: the runtime being created, not yet running
 *
 * Context: process; the caller holds the controller's desc.lock until the
 * runtime runs (or is freed), so that no transport comes or goes unseen
 * meanwhile; takes its buses.lock.
 */
void dcm_bus_attach(struct dcm_controller *ctrl, struct dcm_runtime *rt)
{
	u32 b;

	lockdep_assert_held(&ctrl->desc.lock);
	mutex_lock(&ctrl->buses.lock);
	for (b = 0; b < rt->n_buses; b++) {
		RCU_INIT_POINTER(rt->buses[b].bus, bus_find_locked(ctrl, rt->buses[b].name));
		rt->buses[b].claimed = claimed_locked(ctrl, rt->buses[b].name);
	}
	mutex_unlock(&ctrl->buses.lock);
}

/**
 * dcm_buses_init() - a new controller's buses part: no transport, no claim
 * @buses: the part
 */
void dcm_buses_init(struct dcm_buses *buses)
{
	mutex_init(&buses->lock);
	INIT_LIST_HEAD(&buses->list);
	INIT_LIST_HEAD(&buses->claims);
}

/**
 * dcm_bus_name_ok() - whether a bus or transport name may be used
 * @name: the name, NUL-terminated
 *
 * Names are logged and reported to user space as they are, so they must
 * be printable ASCII without blank: no control character, escape sequence
 * or newline can reach the kernel log through one.
 *
 * Return: true when @name is 1 to DCM_NAME_LEN - 1 bytes, each 0x21-0x7e.
 */
bool dcm_bus_name_ok(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (name[i] < 0x21 || name[i] > 0x7e)
			return false;
	return i && i < DCM_NAME_LEN;
}

/* Whether a transport is of the kind a bus's name calls for (or any). */
static bool kind_fits(const char *name, const struct dcm_bus *bus)
{
	enum dcm_bus_kind kind;

	return !dcm_bus_name_kind(name, &kind) || kind == bus->kind;
}

/* Whether a claim names a transport. */
static bool claim_names(const struct dcm_claim *c, const struct dcm_bus *bus)
{
	if (c->fwnode)
		return c->fwnode == dev_fwnode(bus->dev);
	return !strcmp(c->transport, dev_name(bus->dev));
}

/* Whether a reference names a transport. */
static bool ref_names(const struct dcm_bus_ref *ref, const struct dcm_bus *bus)
{
	if (ref->fwnode)
		return ref->fwnode == dev_fwnode(bus->dev);
	return ref->transport && !strcmp(ref->transport, dev_name(bus->dev));
}

/* Whether a claim and a reference name the same transport. */
static bool claim_is_ref(const struct dcm_claim *c, const struct dcm_bus_ref *ref)
{
	if (c->fwnode && ref->fwnode)
		return c->fwnode == ref->fwnode;
	if (c->bus)
		return ref_names(ref, c->bus);
	return !c->fwnode && ref->transport && !strcmp(c->transport, ref->transport);
}

/* Give a claimed bus its transport; under the transports' lock. */
static void attach(struct dcm_claim *c, struct dcm_bus *bus)
{
	struct dcm_controller *ctrl = c->ctrl;

	lockdep_assert_held(&dcm_transports_lock);
	mutex_lock(&ctrl->desc.lock);
	mutex_lock(&ctrl->buses.lock);
	bus->name = c->name;
	bus->ctrl = ctrl;
	dcm_bus_req_open(bus);
	list_add_tail_rcu(&bus->node, &ctrl->buses.list);
	rt_bus_set(ctrl, c->name, bus, true);
	c->bus = bus;
	mutex_unlock(&ctrl->buses.lock);
	mutex_unlock(&ctrl->desc.lock);
	dev_info(&ctrl->dev, "bus %s on %s\n", c->name, dev_name(bus->dev));
}

/**
 * dcm_bus_lanes_flush() - wait for the bus exchanges in progress
 * @ctrl: the controller
 *
 * The buses' lanes are the cycle's (dcm_cycle_lanes_prepare()); this is
 * for whoever frees a runtime or lets a transport go, after
 * synchronize_srcu(): a late bus's exchange outlives the cycle's read
 * section, and ends before this returns. Context: process; takes the
 * controller's cycle.sched_lock.
 */
void dcm_bus_lanes_flush(struct dcm_controller *ctrl)
{
	u32 i;

	mutex_lock(&ctrl->cycle.sched_lock);
	for (i = 0; i < DCM_MAX_LANES; i++)
		if (ctrl->cycle.lanes[i])
			kthread_flush_worker(ctrl->cycle.lanes[i]->worker);
	mutex_unlock(&ctrl->cycle.sched_lock);
}

/*
 * Take a claimed bus's transport away, and the claim itself if @drop;
 * returns once no cycle uses the transport. Under the transports' lock.
 */
static void detach(struct dcm_claim *c, bool drop)
{
	struct dcm_controller *ctrl = c->ctrl;
	struct dcm_bus *bus = c->bus;

	lockdep_assert_held(&dcm_transports_lock);
	mutex_lock(&ctrl->desc.lock);
	mutex_lock(&ctrl->buses.lock);
	if (bus)
		list_del_rcu(&bus->node);
	if (drop)
		list_del(&c->node);
	rt_bus_set(ctrl, c->name, NULL, !drop);
	c->bus = NULL;
	mutex_unlock(&ctrl->buses.lock);
	mutex_unlock(&ctrl->desc.lock);
	if (!bus)
		return;
	/* The cycle carries it no more: whoever waits on it is told now. */
	dcm_bus_req_close(bus, -ENODEV);
	synchronize_srcu(&ctrl->srcu);
	/* A late bus's exchange may still use the transport: it ends first. */
	dcm_bus_lanes_flush(ctrl);
	bus->ctrl = NULL;
	bus->name = NULL;
	if (!drop)
		dev_warn(&ctrl->dev, "bus %s: its transport %s is gone\n", c->name,
			 dev_name(bus->dev));
}

/**
 * dcm_transport_register() - a transport is there
 * @bus: the transport, with @bus->dev, @bus->kind and @bus->ops set; it
 *	must stay until dcm_transport_unregister()
 *
 * If a body claims it, the body's bus is carried by it from the next
 * cycle. Context: process; takes the transports' lock, then the claiming
 * controller's desc.lock and buses.lock.
 *
 * Return: 0, or -EINVAL for an incomplete @bus.
 */
int dcm_transport_register(struct dcm_bus *bus)
{
	struct dcm_claim *c;

	if (!bus->dev || !bus->ops || !bus->ops->xfer || !dcm_bus_kind_valid(bus->kind))
		return -EINVAL;
	dcm_bus_req_init(bus);
	bus->ctrl = NULL;
	bus->name = NULL;
	mutex_lock(&dcm_transports_lock);
	list_add_tail(&bus->transport_node, &dcm_transports);
	list_for_each_entry(c, &dcm_claims, all) {
		if (c->bus || !claim_names(c, bus))
			continue;
		if (!kind_fits(c->name, bus)) {
			dev_warn(&c->ctrl->dev, "bus %s: transport %s is %s: not taken\n",
				 c->name, dev_name(bus->dev), dcm_bus_kind_name(bus->kind));
			continue;
		}
		attach(c, bus);
		break;
	}
	mutex_unlock(&dcm_transports_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_transport_register);

/**
 * dcm_transport_unregister() - a transport goes
 * @bus: what dcm_transport_register() took
 *
 * The bus it carried is left without a transport: its boards are not
 * answered until it comes back. Returns once no cycle uses it.
 * Context: process; takes the transports' lock, then the claiming
 * controller's desc.lock and buses.lock.
 */
void dcm_transport_unregister(struct dcm_bus *bus)
{
	struct dcm_claim *c;

	mutex_lock(&dcm_transports_lock);
	list_del(&bus->transport_node);
	list_for_each_entry(c, &dcm_claims, all) {
		if (c->bus == bus) {
			detach(c, false);
			break;
		}
	}
	mutex_unlock(&dcm_transports_lock);
}
EXPORT_SYMBOL_GPL(dcm_transport_unregister);

/* The registered transport a reference names, or NULL; under the lock. */
static struct dcm_bus *transport_find(const struct dcm_bus_ref *ref)
{
	struct dcm_bus *bus;

	list_for_each_entry(bus, &dcm_transports, transport_node)
		if (ref_names(ref, bus))
			return bus;
	return NULL;
}

/* dcm_buses_check() under the transports' lock. */
static int check_locked(const struct dcm_bus_ref *refs, unsigned int n,
			struct dcm_claim_why *why)
{
	struct dcm_claim *c;
	unsigned int i, j;

	memset(why, 0, sizeof(*why));
	for (i = 0; i < n; i++) {
		why->bad = i;
		if (!refs[i].name || !dcm_bus_name_ok(refs[i].name) ||
		    (!refs[i].fwnode &&
		     (!refs[i].transport || !dcm_bus_name_ok(refs[i].transport))))
			return -EINVAL;
		for (j = 0; j < i; j++) {
			if (!strcmp(refs[i].name, refs[j].name)) {
				why->other = j;
				return -EEXIST;
			}
			if ((refs[i].fwnode && refs[i].fwnode == refs[j].fwnode) ||
			    (refs[i].transport && refs[j].transport &&
			     !strcmp(refs[i].transport, refs[j].transport))) {
				why->other = j;
				return -EADDRINUSE;
			}
		}
		list_for_each_entry(c, &dcm_claims, all) {
			if (claim_is_ref(c, &refs[i])) {
				why->index = c->ctrl->index;
				strscpy(why->bus, c->name, sizeof(why->bus));
				return -EBUSY;
			}
		}
	}
	for (i = 0; i < n; i++) {
		struct dcm_bus *t = transport_find(&refs[i]);

		why->bad = i;
		if (!t)
			return -EPROBE_DEFER;
		if (!kind_fits(refs[i].name, t)) {
			why->kind = t->kind;
			return -EMEDIUMTYPE;
		}
	}
	return 0;
}

/**
 * dcm_buses_check() - whether a body may claim its buses
 * @refs: the body's buses
 * @n: how many
 * @why: filled with what is wrong, on error
 *
 * Context: process; takes the transports' lock.
 *
 * Return: 0; -EINVAL (@refs[@why->bad] has no name, a name too long or not
 * printable (dcm_bus_name_ok()), or names no transport or a bad name),
 * -EEXIST (its name is @refs[@why->other]'s too), -EADDRINUSE (it names
 * @refs[@why->other]'s transport), -EBUSY (its transport carries bus
 * @why->bus of dcm@why->index), -EPROBE_DEFER (its transport is not
 * registered), -EMEDIUMTYPE (its transport is of kind @why->kind, not the
 * one its name calls for: dcm_bus_name_kind()).
 */
int dcm_buses_check(const struct dcm_bus_ref *refs, unsigned int n, struct dcm_claim_why *why)
{
	int ret;

	mutex_lock(&dcm_transports_lock);
	ret = check_locked(refs, n, why);
	mutex_unlock(&dcm_transports_lock);
	return ret;
}

/**
 * dcm_buses_claim() - give a controller its body's buses
 * @ctrl: the controller, not started yet
 * @refs: the body's buses
 * @n: how many
 * @why: filled as by dcm_buses_check(), on error
 *
 * Checks as dcm_buses_check() does, then claims every bus and attaches the
 * transports, all or none. Context: process; takes the transports' lock,
 * then the controller's desc.lock and buses.lock.
 *
 * Return: 0, what dcm_buses_check() returns, or -ENOMEM.
 */
int dcm_buses_claim(struct dcm_controller *ctrl, const struct dcm_bus_ref *refs, unsigned int n,
		    struct dcm_claim_why *why)
{
	struct dcm_claim *c, *tmp;
	LIST_HEAD(claims);
	unsigned int i;
	int ret;

	mutex_lock(&dcm_transports_lock);
	ret = check_locked(refs, n, why);
	for (i = 0; i < n && !ret; i++) {
		c = kzalloc(sizeof(*c), GFP_KERNEL);
		if (!c) {
			ret = -ENOMEM;
			break;
		}
		c->ctrl = ctrl;
		strscpy(c->name, refs[i].name, sizeof(c->name));
		if (refs[i].fwnode)
			c->fwnode = fwnode_handle_get(refs[i].fwnode);
		else
			strscpy(c->transport, refs[i].transport, sizeof(c->transport));
		list_add_tail(&c->all, &claims);
	}
	if (ret) {
		list_for_each_entry_safe(c, tmp, &claims, all) {
			fwnode_handle_put(c->fwnode);
			kfree(c);
		}
		mutex_unlock(&dcm_transports_lock);
		return ret;
	}
	list_for_each_entry_safe(c, tmp, &claims, all) {
		struct dcm_bus *bus = NULL, *t;

		list_for_each_entry(t, &dcm_transports, transport_node)
			if (!t->ctrl && claim_names(c, t))
				bus = t;
		list_move_tail(&c->all, &dcm_claims);
		mutex_lock(&ctrl->buses.lock);
		list_add_tail(&c->node, &ctrl->buses.claims);
		mutex_unlock(&ctrl->buses.lock);
		if (bus)
			attach(c, bus);
	}
	mutex_unlock(&dcm_transports_lock);
	return 0;
}

/**
 * dcm_buses_release() - a controller's body lets its buses go
 * @ctrl: the controller, stopped
 *
 * Its transports stay registered, free for another body. Returns once no
 * cycle uses them. Context: process; takes the transports' lock, then the
 * controller's desc.lock and buses.lock.
 */
void dcm_buses_release(struct dcm_controller *ctrl)
{
	struct dcm_claim *c, *tmp;

	mutex_lock(&dcm_transports_lock);
	list_for_each_entry_safe(c, tmp, &dcm_claims, all) {
		if (c->ctrl != ctrl)
			continue;
		detach(c, true);
		list_del(&c->all);
		fwnode_handle_put(c->fwnode);
		kfree(c);
	}
	mutex_unlock(&dcm_transports_lock);
}

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
	list_for_each_entry_srcu(b, &ctrl->buses.list, node, srcu_read_lock_held(&ctrl->srcu))
		if (!strcmp(b->name, name))
			return b;
	return NULL;
}
