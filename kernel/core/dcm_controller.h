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
 * The lock order of a controller, outermost first: a lock is taken with
 * only locks of levels above its own held, never one of its level or
 * below. Two locks share a level when neither is ever taken under the
 * other. Mutexes, the rw_semaphore, the read section of SRCU and the jobs'
 * queue sleep; spinlocks do not, and nothing under one sleeps or
 * allocates. The cycle and the buses' lanes take only the spinlocks (7, 8)
 * and the SRCU read section (5). Nothing holds a lock across bus I/O or a
 * wait for the cycle: whoever waits for the cycle (a request the cycle
 * carries, dcm_bus_run(); an answer of a board; synchronize_srcu(); the
 * lanes' flush) holds no dcm lock, or only those of level 0 at
 * unregistration. No lock is taken or not depending on a condition.
 *
 * Nine levels (0-8); there were seventeen (0-14, 3a, 11b) while desc.lock
 * was held across calibration, special commands and the chest store::
 *
 *   0  registration       mutexes: a configfs body's lock, then
 *                         dcm_body_lock, then dcm_transports_lock
 *   1  desc.jobs          ordered workqueue: a job runs in it
 *   2  desc.lock          mutex: the transaction, the swap, short steps
 *   3  kernfs active ref  a key file's show or store
 *      | dcm_file.io_lock mutex, one per open /dev/dcmN: GET/read() buffer
 *   4  ctrl->lock         rw_semaphore: dead, model and rt vs their swap
 *      | mmap_lock        a page fault in a user copy
 *   5  dcm_watchdog.lock  mutex, one per open /dev/dcmN
 *      | ctrl->srcu       read section: the cycle, chaining, bus users
 *   6  one at a time      mutexes: aliases.lock, desc.keys_lock,
 *                         buses.lock, cycle.sched_lock, dcm_controllers_lock
 *   7  rt->cmd_lock       raw spinlock: actuator queues
 *      | rt->values_lock  spinlock: values, Ack, Nack, error lists
 *   8  leaves             spinlocks: dcm_bus.reqs_lock, cycle.stats_lock,
 *                         the events ring's (raw, irqsave)
 *
 * What went: the netlink core's level (1: parallel_ops, no lock); the
 * error lists' spinlock (12, err_lock), merged into values_lock, which
 * the lanes already took for each answer's values and the publication for
 * the counters; and the levels that only said which locks do not nest:
 * io_lock (3a) beside the key files' reference (3), mmap_lock (7) beside
 * ctrl->lock, the watchdog's lock (5) beside SRCU (8), the aliases' lock
 * (6) and keys_lock (10) beside the mutexes that were kept apart, the
 * cycle's statistics (13), a bus's requests (9) and the events (14) as
 * leaves of one level. The jobs' queue is new.
 *
 * 0. Registration. The lock of a body assembled in configfs (a mutex per
 *    body, dcm_body_configfs.c), held while it registers or unregisters
 *    its controller, taken under configfs's own locks in its callbacks;
 *    dcm_body_lock (dcm_body.c), held while a body registers its
 *    controller (check, create, claim, start), so that two bodies claiming
 *    one transport are decided one after the other; dcm_transports_lock
 *    (dcm_bus.c), the registered transports and every body's claims: a
 *    transport that comes or goes, a body that claims or releases its
 *    buses hold it, and take the claiming controller's @desc.lock and
 *    @buses.lock under it. Unregistration waits for the jobs (1), the cycle
 *    (synchronize_srcu(), the lanes) under them: no job and no reader of
 *    SRCU takes a lock of level 0.
 *
 * 1. The controller's jobs: &dcm_desc.jobs, an ordered workqueue. What
 *    uses the running state outside the cycle and waits for it runs there,
 *    one job at a time (dcm_describe_job()): CALIBRATE and SPECIAL
 *    (dcm_nl_runtime_job()), a commit (its chest store read and swap).
 *    Their caller waits for the job holding no dcm lock, as does a
 *    configuration request of a socket whose commit runs, for the jobs
 *    (dcm_describe_jobs_wait()); the job holds none while it waits for
 *    the boards, the store or the cycle, and takes @desc.lock for short
 *    steps (dcm_describe_running(), the commit's check and swap). Only
 *    a job swaps the running state, so a job's stays while it runs;
 *    dcm_describe_release() takes the running state from
 *    every reader under @desc.lock, then flushes the jobs with @desc.lock
 *    dropped, then frees it. So a CALIBRATE or SPECIAL that waits for
 *    boards delays only the next job of its own controller: the
 *    configuration steps, GET_INFO and every other request go on.
 *
 * 2. &dcm_desc.lock (mutex): the configuration transaction (its state is
 *    the netlink face's, @txn), @desc.tree, and with @lock the swap of
 *    @desc.model, @desc.rt and @desc.generation. Process context, for a
 *    short step each: a configuration command (config_enter()), a job's
 *    look at the running state and a commit's check and swap
 *    (dcm_describe_replace()), a netlink socket that closes
 *    (dcm_config_drop_port()), a transport that comes or goes (dcm_bus.c)
 *    and unregistration (dcm_describe_release(), then the faces'
 *    dcm_config_del()). A commit reads the chest store with it dropped,
 *    its transaction marked committing meanwhile: another socket's
 *    request gets EBUSY, one of the committing socket waits for the jobs
 *    (dcm_describe_jobs_wait(), holding no dcm lock) and is answered as
 *    after the commit. Under it: the key tree is built and removed
 *    (removal waits for the key files' show and store in progress), @lock
 *    for writing, the lanes made (@cycle.sched_lock), @buses.lock,
 *    @desc.keys_lock.
 *    What a swap replaced is freed after it is dropped
 *    (dcm_describe_retire(): synchronize_srcu(), the lanes' flush, the
 *    chaining work's cancellation).
 *
 * 3. The kernfs active reference of a key file, for its show and store:
 *    under it, @lock for reading, @desc.keys_lock, the runtime's spinlocks;
 *    never @desc.lock, under which the tree is removed. Or
 *    &dcm_file.io_lock (mutex, one per open /dev/dcmN): the file's buffer
 *    for DCM_IOC_GET and read(), held across the whole call, its user
 *    copies included (so taken with no dcm lock held, and never under
 *    mmap_lock: a fault under it holds up only the same file's other
 *    readers). Under it: @lock for reading, or a user copy (mmap_lock).
 *
 * 4. &dcm_controller.lock (rw_semaphore): @dead, and @desc.model and
 *    @desc.rt against their swap. For reading, in process context: every
 *    ioctl and read() of /dev/dcmN, the key files that reach the running
 *    state (Ack, Nack, Error, a command to an actuator's Value),
 *    DCM_CMD_GET_INFO, the watchdog's work item and a file's release. For
 *    writing, a few stores only: the swap in dcm_describe_replace(),
 *    dcm_describe_release(), and dcm_body_unregister() setting @dead.
 *    Never taken by the cycle. Or the caller's mmap_lock, which a page
 *    fault in copy_from_user() or copy_to_user() takes: never under a dcm
 *    lock but io_lock. An ioctl copies its argument and input arrays in
 *    before it takes @lock and its answer out after it dropped it
 *    (dcm_chrdev.c); read() copies its frame out after dropping @lock; a
 *    key file's show and store get kernel buffers. And no dcm lock is taken
 *    under mmap_lock: dcm_mmap() finds the snapshot under @srcu, not
 *    @lock. (The ioctls once copied under @lock and dcm_mmap() took it
 *    under mmap_lock: a fault waiting for mmap_lock, an mmap() waiting
 *    behind a writer queued on @lock, and the writer waiting for the ioctl
 *    deadlocked; and a fault that never resolves, a userfaultfd page, held
 *    every reload.) A fault may take as long as it likes: it holds up only
 *    its own caller.
 *
 * 5. &dcm_watchdog.lock (mutex, one per open file): under @lock for
 *    reading, in the ioctls (a command holds it from
 *    dcm_watchdog_cmd_begin() to dcm_watchdog_cmd_end()), the watchdog's
 *    work item and the release; under it @aliases.lock and the runtime's
 *    cmd_lock. Or the read section of &dcm_controller.srcu (sleeping
 *    allowed): the cycle thread for each cycle, including its wait for the
 *    buses' lanes, the chaining work, dcm_board_configure(), the chest
 *    store's transfers, SPECIAL's bus look-ups, dcm_mmap() and poll().
 *    Taken under 3 or 4 (mmap_lock), or under no lock; no reader waits for
 *    anything a holder of a lock above it may hold. A lane has no read
 *    section: a late bus's exchange outlives the cycle's, so whoever frees
 *    a runtime or lets a transport go flushes the lanes after
 *    synchronize_srcu() (dcm_bus_lanes_flush()).
 *
 * 6. Mutexes never held two at a time, each a leaf but for the aliases':
 *    &dcm_aliases.lock, the aliases, under @lock for reading and under the
 *    watchdog's lock for DCM_IOC_ALIAS_SET, alone when a file is closed
 *    and for DCM_IOC_ALIAS_LIST and DCM_IOC_ALIAS_DELETE, and over the
 *    runtime's cmd_lock (a command to an alias); &dcm_desc.keys_lock, the
 *    values of string keys, held for a copy or a swap of the pointer, or
 *    while a commit compares the running description with the new one
 *    (numeric keys are read and written with READ_ONCE() and WRITE_ONCE(),
 *    without a lock); &dcm_buses.lock, the writers of the buses' list, the
 *    claims and the running description's transports (&dcm_rt_bus.bus),
 *    taken under @desc.lock by a transport that comes or goes and a body
 *    that claims or releases its buses (dcm_bus.c), so that a runtime being
 *    created or replaced sees every transport exactly once (a transport
 *    that goes waits with synchronize_srcu() after releasing both);
 *    &dcm_cycle.sched_lock, the cycle's lanes, priority and CPUs and their
 *    application to the cycle's threads: the lanes are made under it
 *    (dcm_cycle_lanes_prepare(), under @desc.lock), flushed under it
 *    (dcm_bus_lanes_flush()) and destroyed under it (dcm_cycle_stop()),
 *    and the cycle/ sysfs files and DCM_IOC_CYCLE_STATS take it; under it
 *    only the scheduler's own locks and the waits for the lanes, which take
 *    no dcm lock but 7 and 8; dcm_controllers_lock, the registry of
 *    controllers (dcm_core.c), held for the xarray and a get_device()
 *    only. The registry both finds a started controller by its index and
 *    allocates the indexes: an index stays taken (reserved, found by no
 *    lookup) from a controller's creation to its start and from its stop
 *    until its faces are removed, so unregistration, which dcm_body_lock
 *    does not cover, cannot free an N that another body's registration
 *    would take while the old /dev/dcmN, class device or debugfs directory
 *    are there.
 *
 * 7. &dcm_runtime.cmd_lock (raw spinlock): every actuator queue. The cycle
 *    thread holds it twice per cycle (dcm_runtime_actuate(), then the
 *    stiffness rules of dcm_boards_safety()), a command for its merge
 *    (dcm_runtime_set_many()), the watchdog for its action, safety/hardness
 *    for a value (dcm_runtime_commanded(), under @lock for reading). Under
 *    it: the events ring's lock. Or &dcm_runtime.values_lock (spinlock): the
 *    lanes' results, between the buses' lanes that write them and their
 *    readers: each value (dcm_runtime_sense(), always: no caller holds it),
 *    each board's answer (dcm_runtime_answer(): Ack, Nack, the error
 *    list), the publication (around dcm_runtime_publish(), which gathers
 *    the boards' counters under it: a value a late bus brings shows whole
 *    in a later snapshot), the key files, the diagnostic and the
 *    calibration's look at a board's counters. Under it nothing: events
 *    are posted after it is released.
 *
 * 8. Leaf spinlocks. &dcm_bus.reqs_lock: a bus's queue of requests. A bus
 *    has one user, the cycle: every transfer outside its exchange
 *    (chaining, a motor board's configuration, the chest store, SPECIAL's
 *    reads) is a request queued to the bus, carried by the cycle after the
 *    bus's exchange and waited for by its caller (dcm_bus_xfer(),
 *    dcm_bus_req.c), who holds no dcm lock but @srcu. The cycle's threads
 *    take turns on a bus with dcm_bus_take(), a bit they only try (a late
 *    lane of a runtime being replaced may be on it under another index):
 *    no one waits for it. Under a transfer: the transport's own lock (the
 *    RS485 receive spinlock, dcm_sim's lock). &dcm_cycle.stats_lock: the
 *    cycle's count and statistics; the cycle thread, ioctl and sysfs
 *    readers. The events ring's raw spinlock (irqsave): dcm_event_post()
 *    from any context, the events work item takes the events off.
 *
 * SRCU and RCU: @desc.rt is an RCU pointer. It is changed with
 * rcu_assign_pointer() holding @desc.lock and @lock for writing; the cycle
 * reads it with srcu_dereference() in @srcu, process context with dcm_rt()
 * holding @lock or @desc.lock (rcu_dereference_protected() checks which),
 * and a job keeps what dcm_describe_running() found until it returns. The
 * one who replaces or drops it (dcm_describe_replace(),
 * dcm_describe_release()) waits with synchronize_srcu() after dropping
 * @desc.lock and before freeing the old runtime (dcm_describe_retire()),
 * so that the cycle or a chaining work in progress finishes with it; the
 * RS485 kind's release (dcm_bus_kinds_release()) then cancels the chaining
 * work. @buses.list is an RCU list: written under @buses.lock, read by
 * dcm_bus_find() in @srcu; a transport that goes waits with
 * synchronize_srcu() before it may free its bus.
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
 * @desc.lock by the netlink commands and the jobs: unregistration sets it
 * before dcm_describe_release() takes @desc.lock.
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
