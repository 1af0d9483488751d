/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - a controller (dcm_controller.c): one robot, made of parts, each with its
 * state and its lock in a struct and a header of its own, as netdevsim's
 * device is: the cycle (dcm_cycle.h), the running description
 * (dcm_describe.h), the buses (dcm_bus.h), the aliases (dcm_alias.h), the
 * events (dcm_events.h), DCM time (dcm_time.h); the netlink face's
 * configuration transaction is the faces' own (@txn). And the registry of
 * controllers, by index.
 */
#ifndef _DCM_CONTROLLER_H
#define _DCM_CONTROLLER_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/dcm.h>

#include "core/dcm_alias_types.h"
#include "core/dcm_bus_types.h"
#include "core/dcm_cycle_types.h"
#include "core/dcm_describe_types.h"
#include "core/dcm_time_types.h"

struct dcm_config_txn;
struct dcm_events;

/**
 * DOC: Locking
 *
 * The locks of a controller, outermost first, in the order the code takes
 * them: a lock is taken with only locks above it held, never one below.
 * Mutexes and the rw_semaphore sleep; spinlocks do not, and nothing under
 * one sleeps or allocates.
 *
 * 1. No lock of the generic netlink core: the family is parallel_ops, so
 *    requests (GET_INFO, the configuration commands, CALIBRATE, SPECIAL)
 *    run side by side, each ordered per controller by @desc.lock. A
 *    CALIBRATE or SPECIAL that waits for boards delays only the requests
 *    to its own controller.
 *
 * 2. &dcm_desc.lock (mutex): the configuration transaction (its state
 *    is the netlink face's, @txn), @desc.tree, and with @lock the swap of
 *    @desc.model, @desc.rt and @desc.generation. Process context: the
 *    configuration commands (config_enter()), CALIBRATE and SPECIAL for
 *    their whole run (dcm_nl_runtime_enter(): the runtime stays while they
 *    wait for boards, up to 200 ms a step), a netlink socket that closes
 *    (dcm_config_drop_port()) and unregistration (dcm_describe_release(),
 *    then the faces' dcm_config_del()). Under it: the key tree is built
 *    and removed (removal waits for the key files' show and store in
 *    progress), @lock for writing, synchronize_srcu(), flush_work() and
 *    cancel_work_sync() of the chaining work, the waits for bus requests
 *    (the chest store, special commands, a motor board's configuration),
 *    waits on @cycle.wq.
 *
 * 3. The kernfs active reference of a key file, for its show and store:
 *    under it, @lock for reading and @desc.keys_lock; never @desc.lock, under
 *    which the tree is removed.
 *
 * 3a. &dcm_file.io_lock (mutex, one per open /dev/dcmN): the file's
 *    buffer for DCM_IOC_GET and read(), held across the whole call, its
 *    user copies included (so taken with no dcm lock held, and never under
 *    mmap_lock: a fault under it holds up only the same file's other
 *    readers). Under it: @lock for reading.
 *
 * 4. &dcm_controller.lock (rw_semaphore): @dead, and @desc.model and
 *    @desc.rt against their swap. For reading, in process context: every
 *    ioctl and read() of /dev/dcmN, the key files that reach the running
 *    state (Ack, Nack, Error, a command to an actuator's Value),
 *    DCM_CMD_GET_INFO, the watchdog's work item and a file's release. For
 *    writing, a few stores only: the swap in dcm_describe_replace(),
 *    dcm_describe_release(), and dcm_body_unregister() setting @dead.
 *    Never taken by the cycle.
 *
 * 5. &dcm_watchdog.lock (mutex, one per open file): under @lock for reading,
 *    in the ioctls (a command holds it from dcm_watchdog_cmd_begin() to
 *    dcm_watchdog_cmd_end()), the watchdog's work item and the release.
 *
 * 6. &dcm_aliases.lock (mutex): the aliases; under @lock for reading,
 *    and under the watchdog's lock for DCM_IOC_ALIAS_SET; alone when a file
 *    is closed (its own aliases go) and for DCM_IOC_ALIAS_LIST and
 *    DCM_IOC_ALIAS_DELETE.
 *
 * 7. The caller's mmap_lock, which a page fault in copy_from_user() or
 *    copy_to_user() takes: never under a dcm lock. An ioctl copies its
 *    argument and input arrays in before it takes @lock and its answer out
 *    after it dropped it (dcm_chrdev.c); read() copies its frame out after
 *    dropping @lock; a key file's show and store get kernel buffers. And
 *    no dcm lock is taken under mmap_lock: dcm_mmap() finds the snapshot
 *    under @srcu, not @lock. (The ioctls once copied under @lock and
 *    dcm_mmap() took it under mmap_lock: a fault waiting for mmap_lock, an
 *    mmap() waiting behind a writer queued on @lock, and the writer waiting
 *    for the ioctl deadlocked; and a fault that never resolves, a
 *    userfaultfd page, held every reload.) A fault may take as long as it
 *    likes: it holds up only its own caller.
 *
 * 8. The read section of &dcm_controller.srcu (sleeping allowed): the cycle
 *    thread for each cycle, including its wait for the buses' lanes, the
 *    chaining work, dcm_board_configure(), the chest store's transfers,
 *    SPECIAL's bus look-ups, dcm_mmap(). Taken under 2 or 7, or under no
 *    lock. A lane has no read section: a late bus's exchange outlives the
 *    cycle's, so whoever frees a runtime or lets a transport go flushes the
 *    lanes after synchronize_srcu() (dcm_bus_lanes_flush()).
 *
 * 9. &dcm_bus.reqs_lock (spinlock): a bus's queue of requests, a leaf.
 *    A bus has one user, the cycle: every transfer outside its exchange
 *    (chaining, a motor board's configuration, the chest store, SPECIAL's
 *    reads) is a request queued to the bus, carried by the cycle after
 *    the bus's exchange and waited for by its caller (dcm_bus_xfer(),
 *    dcm_bus_req.c), who may hold @desc.lock and @srcu but nothing the
 *    cycle or a lane takes. The cycle's threads take turns on a bus with
 *    dcm_bus_take(), a bit they only try (a late lane of a runtime being
 *    replaced may be on it under another index): no one waits for it.
 *    Under a transfer: the transport's own lock (the RS485 receive
 *    spinlock, dcm_sim's lock); an exchange takes &dcm_runtime.values_lock
 *    and &dcm_runtime.err_lock after its transfers, one value or one
 *    board's answer at a time.
 *
 * 10. &dcm_desc.keys_lock (mutex): the values of string keys, held for
 *     a copy or a swap of the pointer, or while a commit compares the
 *     running description with the new one; a leaf. Numeric keys are read and
 *     written with READ_ONCE() and WRITE_ONCE(), without a lock.
 *
 * 11. &dcm_runtime.cmd_lock (raw spinlock): every actuator queue. The cycle
 *     thread holds it twice per cycle (dcm_runtime_actuate(), then the
 *     stiffness rules of dcm_boards_safety()), a command for its merge
 *     (dcm_runtime_set_many()), the watchdog for its action. Under it: the
 *     events ring's lock.
 *
 * 11b. &dcm_runtime.values_lock (spinlock): the runtime's values, between
 *     the buses' lanes that write them, each value under it
 *     (dcm_runtime_sense(), always: no caller holds it) and the cycle that
 *     publishes them (around dcm_runtime_publish()): a value a late bus
 *     brings shows whole in a later snapshot. Under it: err_lock (the
 *     publication gathers the boards' counters).
 *
 * 12. &dcm_runtime.err_lock (spinlock): the devices' error lists, Ack, Nack;
 *     the cycle, the chaining work, key files, CALIBRATE, SPECIAL. A leaf:
 *     events are posted after it is released.
 *
 * 13. &dcm_cycle.stats_lock (spinlock): the cycle's count and statistics;
 *     the cycle thread, ioctl and sysfs readers. A leaf.
 *
 * 14. The events ring's raw spinlock (irqsave): dcm_event_post() from any
 *     context, the events work item takes the events off; innermost.
 *
 * &dcm_cycle.sched_lock (mutex): the cycle's lanes, priority and CPUs, and
 * their application to the cycle's threads; the lanes are made under it
 * (dcm_cycle_lanes_prepare() from dcm_describe_replace(), under @desc.lock),
 * flushed under it (dcm_bus_lanes_flush() from dcm_describe_replace() and
 * dcm_describe_release() under @desc.lock, and from a transport's detach
 * under dcm_transports_lock) and destroyed under it (dcm_cycle_stop()).
 * Taken by the cycle/ sysfs files and DCM_IOC_CYCLE_STATS (under @lock for
 * reading). Under it only the scheduler's own locks and the waits for the
 * lanes, which take no dcm lock but 9, 11b, 12 and 14.
 *
 * &dcm_buses.lock (mutex): the writers of the buses' list, the claims and of
 * the running description's transports (&dcm_rt_bus.bus): a transport
 * that comes or goes, a body that claims or releases its buses
 * (dcm_bus.c), take it under @desc.lock, so that a runtime being created
 * or replaced sees every transport exactly once; nothing is taken under
 * it. A transport that goes waits with synchronize_srcu() after releasing
 * both.
 *
 * Before all of them: dcm_transports_lock (mutex, dcm_bus.c), the
 * registered transports and every body's claims; a transport that comes or
 * goes, a body that claims or releases its buses hold it, and take the
 * claiming controller's @desc.lock and @buses.lock under it.
 *
 * Before that one: dcm_body_lock (mutex, dcm_body.c), held while a body
 * registers its controller (check, create, claim, start), so that two
 * bodies claiming one transport are decided one after the other.
 *
 * Before both: the lock of a body assembled in configfs (a mutex per
 * body, dcm_body_configfs.c), held while the body registers or
 * unregisters its controller, so over dcm_body_lock, dcm_transports_lock
 * and the controller's locks; taken under configfs's own locks, in its
 * callbacks only.
 *
 * Apart, a leaf that nests with nothing of the above: dcm_controllers_lock
 * (the registry of controllers, a mutex in dcm_controller.c, held for the xarray
 * and a get_device() only). The registry both finds a started controller by
 * its index and allocates the indexes: an index stays taken (reserved, found
 * by no lookup) from a controller's creation to its start and from its stop
 * until its faces are removed, so unregistration, which dcm_body_lock does
 * not cover, cannot free an N that another body's registration would take
 * while the old /dev/dcmN, class device or debugfs directory are there.
 *
 * SRCU and RCU: @desc.rt is an RCU pointer. It is changed with
 * rcu_assign_pointer() holding @desc.lock and @lock for writing; the cycle
 * reads it with srcu_dereference() in @srcu, process context with dcm_rt()
 * holding @lock or @desc.lock (rcu_dereference_protected() checks which).
 * The one who replaces or drops it (dcm_describe_replace(),
 * dcm_describe_release(), under @desc.lock) waits with synchronize_srcu()
 * before freeing the old runtime, so that the cycle or a chaining work in
 * progress finishes with it; the RS485 kind's release (dcm_bus_kinds_release())
 * then cancels the chaining work. @buses.list is an RCU list: written under @buses.lock, read by
 * dcm_bus_find() in @srcu; a transport that goes waits with
 * synchronize_srcu() before it may free its bus. As
 * synchronize_srcu() is called with @desc.lock held, an SRCU reader never
 * takes @desc.lock nor waits for its holder; and as the chaining work is
 * flushed under @desc.lock, it never takes it either.
 *
 * Without locks: the snapshot of values is published under its sequence
 * count, preemption disabled (dcm_runtime_publish(), dcm_runtime_read()),
 * and kept by a kref per mapping; an RS485 bus's chained flag (its kind's
 * state, dcm_bus_rs485.c) and
 * &dcm_rt_device.configured are published with smp_store_release() after
 * what they announce; the calibration's &dcm_rt_device.hold bits are a word
 * with READ_ONCE() and WRITE_ONCE(); @cycle.safety is the cycle's, which
 * sysfs reads with READ_ONCE(), as @cycle.period_us, which sysfs writes.
 * @dead is also read without @lock by poll() and dcm_mmap(), and under
 * @desc.lock by the netlink commands: unregistration sets it before
 * dcm_describe_release() takes @desc.lock.
 */

/**
 * struct dcm_controller - one robot: its device, char device and parts
 * @dev: the dcmN device in the "dcm" class; its release frees the controller
 * @cdev: /dev/dcmN; an open file holds @dev through it (cdev_device_add())
 * @index: N, taken in the registry from dcm_controller_create() until
 *	dcm_controller_discard(), after every face reachable by N is gone
 * @driver: name of the body driver that registered it
 * @flags: DCM_INFO_F_* that the body driver gave
 * @lock: guards @dead, and @desc.model and @desc.rt against their swap:
 *	held for reading by the char device's ioctls, read() and release, the
 *	key files that reach the running state, DCM_CMD_GET_INFO and the
 *	watchdog; for writing by the swap and by unregistration, which sets
 *	@dead (DOC: Locking)
 * @dead: the body driver is gone; entry points answer -ENODEV
 * @srcu: the cycle's read section: @desc.rt and @buses.list stay while it
 *	runs
 * @time: its DCM time (dcm_time.c)
 * @desc: the running description, its key tree and running state, and the
 *	lock that orders their replacement (dcm_describe.c)
 * @buses: the transports of its body's buses, and its claims (dcm_bus.c)
 * @cycle: the cycle thread, its lanes and statistics (dcm_cycle.c)
 * @aliases: the aliases (dcm_alias.c)
 * @events: the events not yet multicast, and the last ones (dcm_events.c)
 * @txn: the netlink face's configuration transaction, made and freed with
 *	the controller's device (faces/dcm_config.c); under @desc.lock
 * @debugfs: the controller's debugfs directory
 */
struct dcm_controller {
	struct device dev;
	struct cdev cdev;
	int index;
	char driver[DCM_NAME_LEN];
	u32 flags;
	struct rw_semaphore lock;
	bool dead;
	struct srcu_struct srcu;
	struct dcm_time time;
	struct dcm_desc desc;
	struct dcm_buses buses;
	struct dcm_cycle cycle;
	struct dcm_aliases aliases;
	struct dcm_events *events;
	struct dcm_config_txn *txn;
	struct dentry *debugfs;
};

/*
 * The running state, for a caller that holds ctrl->lock (the swap takes it
 * for writing) or ctrl->desc.lock.
 */
static inline struct dcm_runtime *dcm_rt(struct dcm_controller *ctrl)
{
	return rcu_dereference_protected(ctrl->desc.rt, lockdep_is_held(&ctrl->lock) ||
					 lockdep_is_held(&ctrl->desc.lock));
}

static inline struct dcm_controller *to_dcm_controller(struct device *dev)
{
	return container_of(dev, struct dcm_controller, dev);
}

#endif /* _DCM_CONTROLLER_H */
