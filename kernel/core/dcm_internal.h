/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - what the core's files share with each other, and nothing else.
 */
#ifndef _DCM_INTERNAL_H
#define _DCM_INTERNAL_H

#include <linux/cdev.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/dcm.h>

#include "core/dcm_time.h"
#include "model/dcm_hist.h"
#include "model/dcm_safety.h"

#define DCM_MAX_CONTROLLERS	16

struct dcm_model;
struct dcm_runtime;
struct dcm_tree;
struct dcm_alias;
struct dcm_events;

#define DCM_EVENT_RING		64	/* events queued per controller */
#define DCM_EVENT_HISTORY	64	/* last events kept per controller */
#define DCM_EVENT_TEXT_LEN	96

/**
 * struct dcm_event - one event of the "events" group, DCM_A_EV_* as fields
 * @type: enum dcm_event_type
 * @level: error level (DCM_EV_ERROR)
 * @time: DCM time, set when posted
 * @code: meaning by @type
 * @count: meaning by @type
 * @lost: events dropped before this one, set when posted
 * @seq: the controller's count of events posted before this one, set when
 *	posted: the key of the history (dcm_events_history())
 * @value: meaning by @type
 * @device: device or subdevice name, or empty
 * @text: human-readable text, or empty
 */
struct dcm_event {
	u32 type;
	u32 level;
	u32 time;
	u32 code;
	u32 count;
	u32 lost;
	u64 seq;
	s64 value;
	char device[DCM_MAX_NAME_LEN];
	char text[DCM_EVENT_TEXT_LEN];
};

#define DCM_MAX_LANES		16	/* buses with a worker of their own, per controller */

/**
 * struct dcm_lane_stats - what the cycle measures of one bus's exchanges
 * @exchanges: exchanges done in time
 * @late: exchanges not done when the cycle had to publish
 * @busy: exchanges not started: the previous one had not ended
 * @last_ns: duration of the last exchange
 * @max_ns: the longest
 * @p50_ns: the median duration of those done in time
 * @p99_ns: their 99th percentile
 */
struct dcm_lane_stats {
	u64 exchanges;
	u64 late;
	u64 busy;
	u64 last_ns;
	u64 max_ns;
	u64 p50_ns;
	u64 p99_ns;
};

/* The steps of a cycle's work, timed apart (struct dcm_cycle_stats.step). */
enum dcm_cycle_step {
	DCM_STEP_ACTUATE,	/* the actuators' queues */
	DCM_STEP_SAFETY,	/* the stiffness rules */
	DCM_STEP_BUSES,		/* queueing the buses' exchanges to joining them */
	DCM_STEP_PUBLISH,	/* the snapshot */
	DCM_STEP_COUNT
};

/**
 * struct dcm_cycle_stats - what the cycle measures of itself
 * @cycles: cycles run since the statistics began
 * @overruns: cycles that started a period or more after their deadline
 * @missed: points of the grid passed over after late cycles (not run)
 * @work_overruns: cycles whose work took longer than the period
 * @last_ns: work time of the last cycle
 * @since: when the statistics began (load or reset)
 * @latency_hist: wake-up latencies, buckets of struct dcm_ioc_stats
 * @latency: wake-up latencies, for the percentiles
 * @work: work times, for the percentiles
 * @step: the work's steps, by enum dcm_cycle_step
 * @lane: per bus of the running description, by its index
 * @lane_hist: the durations of each bus's exchanges done in time
 */
struct dcm_cycle_stats {
	u64 cycles;
	u64 overruns;
	u64 missed;
	u64 work_overruns;
	u64 last_ns;
	ktime_t since;
	u64 latency_hist[10];
	struct dcm_hist latency;
	struct dcm_hist work;
	struct dcm_hist step[DCM_STEP_COUNT];
	struct dcm_lane_stats lane[DCM_MAX_LANES];
	struct dcm_hist lane_hist[DCM_MAX_LANES];
};

/**
 * struct dcm_lane - a bus's worker: one bus's exchange, beside the others
 * @worker: its kthread_worker, "dcmN-busM", at the cycle's priority and CPUs
 * @work: the exchange, queued by the cycle
 * @ctrl: the controller
 * @rt: the job: the runtime,
 * @t: the transport, held by the cycle's SRCU until the lane reports done,
 *	then by the flushes (dcm_bus_lanes_flush()) of whoever frees them
 * @bus: the bus's index in @rt->buses
 * @now: the cycle's DCM time
 * @state: enum dcm_lane_state: written by the cycle (IDLE to RUNNING) and
 *	by the lane (RUNNING to DONE, with release: its values are written)
 * @ns: the exchange's duration, written by the lane before DONE
 */
struct dcm_lane {
	struct kthread_worker *worker;
	struct kthread_work work;
	struct dcm_controller *ctrl;
	struct dcm_runtime *rt;
	struct dcm_bus *t;
	u32 bus;
	u32 now;
	atomic_t state;
	u64 ns;
};

/* struct dcm_lane.state */
enum dcm_lane_state {
	DCM_LANE_IDLE,		/* nothing queued: the cycle may queue */
	DCM_LANE_RUNNING,	/* queued or exchanging */
	DCM_LANE_DONE,		/* ended: the cycle takes it back to IDLE */
};

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
 *    run side by side, each ordered per controller by @config_lock. A
 *    CALIBRATE or SPECIAL that waits for boards delays only the requests
 *    to its own controller.
 *
 * 2. &dcm_controller.config_lock (mutex): the configuration transaction
 *    (@staged, @staged_portid, @failed, @why), @tree, and with @lock the swap
 *    of @model, @rt and @generation. Process context: the configuration
 *    commands (config_enter()), CALIBRATE and SPECIAL for their whole run
 *    (dcm_nl_runtime_enter(): the runtime stays while they wait for boards,
 *    up to 200 ms a step), a netlink socket that closes
 *    (dcm_config_drop_port()) and unregistration
 *    (dcm_describe_release()). Under it: the key tree is built and removed
 *    (removal waits for the key files' show and store in progress), @lock
 *    for writing, synchronize_srcu(), flush_work() and cancel_work_sync() of
 *    the chaining work, bus transfers (the chest store, special commands,
 *    a motor board's configuration), waits on @cycle_wq.
 *
 * 3. The kernfs active reference of a key file, for its show and store:
 *    under it, @lock for reading and @keys_lock; never @config_lock, under
 *    which the tree is removed.
 *
 * 3a. &dcm_file.io_lock (mutex, one per open /dev/dcmN): the file's
 *    buffer for DCM_IOC_GET and read(), held across the whole call, its
 *    user copies included (so taken with no dcm lock held, and never under
 *    mmap_lock: a fault under it holds up only the same file's other
 *    readers). Under it: @lock for reading.
 *
 * 4. &dcm_controller.lock (rw_semaphore): @dead, and @model and @rt against
 *    their swap. For reading, in process context: every ioctl and read() of
 *    /dev/dcmN, the key files that reach the running state (Ack, Nack,
 *    Error, a command to an actuator's Value), DCM_CMD_GET_INFO, the
 *    watchdog's work item and a file's release. For writing, a few stores
 *    only: the swap in dcm_describe_replace(), dcm_describe_release(), and
 *    dcm_body_unregister() setting @dead. Never taken by the cycle.
 *
 * 5. &dcm_watchdog.lock (mutex, one per open file): under @lock for reading,
 *    in the ioctls (a command holds it from dcm_watchdog_cmd_begin() to
 *    dcm_watchdog_cmd_end()), the watchdog's work item and the release.
 *
 * 6. &dcm_controller.alias_lock (mutex): @aliases; under @lock for reading,
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
 * 9. &dcm_bus.xfer_lock (mutex): one user of a bus at a time; taken in @srcu
 *    or by a lane. The lanes only try it (mutex_trylock()) and leave a busy
 *    bus for the next cycle; the chaining work, the chest store, SPECIAL's
 *    reads and a motor board's configuration wait for it. Under it: the
 *    transport's own lock (the RS485 receive spinlock, dcm_sim's lock),
 *    @keys_lock (a motor board's configuration reads SensorType),
 *    &dcm_runtime.values_lock and &dcm_runtime.err_lock.
 *
 * 10. &dcm_controller.keys_lock (mutex): the values of string keys, held for
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
 *     the buses' lanes that write them (an RS485 bus's whole reply, a
 *     register board's each value) and the cycle that publishes them
 *     (around dcm_runtime_publish()): a late bus's values show in the next
 *     snapshot, never in the middle of one. Under it: err_lock and the
 *     events ring's lock (a board's Ack, Nack and events).
 *
 * 12. &dcm_runtime.err_lock (spinlock): the devices' error lists, Ack, Nack;
 *     the cycle, the chaining work, key files, CALIBRATE, SPECIAL. A leaf:
 *     events are posted after it is released.
 *
 * 13. &dcm_controller.stats_lock (spinlock): @cycle and @stats; the cycle
 *     thread, ioctl and sysfs readers. A leaf.
 *
 * 14. The events ring's raw spinlock (irqsave): dcm_event_post() from any
 *     context, the events work item takes the events off; innermost.
 *
 * &dcm_controller.sched_lock (mutex): @lanes, @priority and @cpus, and their
 * application to the cycle's threads; the lanes are made under it (from
 * dcm_runtime_create(), under @config_lock), flushed under it (from
 * dcm_runtime_free() under @config_lock, and from a transport's detach
 * under dcm_transports_lock) and destroyed under it (dcm_cycle_stop()).
 * Taken by the cycle/ sysfs files and DCM_IOC_CYCLE_STATS (under @lock for
 * reading). Under it only the scheduler's own locks and the waits for the
 * lanes, which take no dcm lock but 9, 11b, 12 and 14.
 *
 * &dcm_controller.bus_lock (mutex): the writers of @buses, @claims and of
 * the running description's transports (&dcm_rt_bus.bus): a transport
 * that comes or goes, a body that claims or releases its buses
 * (dcm_bus.c), take it under @config_lock, so that a runtime being created
 * or replaced sees every transport exactly once; nothing is taken under
 * it. A transport that goes waits with synchronize_srcu() after releasing
 * both.
 *
 * Before all of them: dcm_transports_lock (mutex, dcm_bus.c), the
 * registered transports and every body's claims; a transport that comes or
 * goes, a body that claims or releases its buses hold it, and take the
 * claiming controller's @config_lock and @bus_lock under it.
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
 * (the registry of controllers, a mutex in dcm_core.c, held for the xarray
 * and a get_device() only). The registry both finds a started controller by
 * its index and allocates the indexes: an index stays taken (reserved, found
 * by no lookup) from a controller's creation to its start and from its stop
 * until its faces are removed, so unregistration, which dcm_body_lock does
 * not cover, cannot free an N that another body's registration would take
 * while the old /dev/dcmN, class device or debugfs directory are there.
 *
 * SRCU and RCU: @rt is an RCU pointer. It is changed with
 * rcu_assign_pointer() holding @config_lock and @lock for writing; the cycle
 * reads it with srcu_dereference() in @srcu, process context with dcm_rt()
 * holding @lock or @config_lock (rcu_dereference_protected() checks which).
 * The one who replaces or drops it (dcm_describe_replace(),
 * dcm_describe_release(), under @config_lock) waits with synchronize_srcu()
 * before freeing the old runtime, so that the cycle or a chaining work in
 * progress finishes with it; dcm_runtime_free() then cancels the chaining
 * work. @buses is an RCU list: written under @bus_lock, read by
 * dcm_bus_find() in @srcu; a transport that goes waits with
 * synchronize_srcu() before it may free its bus. As
 * synchronize_srcu() is called with @config_lock held, an SRCU reader never
 * takes @config_lock nor waits for its holder; and as the chaining work is
 * flushed under @config_lock, it never takes it either.
 *
 * Without locks: the snapshot of values is published under its sequence
 * count, preemption disabled (dcm_runtime_publish(), dcm_runtime_read()),
 * and kept by a kref per mapping; &dcm_rt_bus.chained and
 * &dcm_rt_device.configured are published with smp_store_release() after
 * what they announce; the calibration's &dcm_rt_device.hold bits are a word
 * with READ_ONCE() and WRITE_ONCE(); @safety is the cycle's, which sysfs
 * reads with READ_ONCE(), as @period_us, which sysfs writes. @dead is also
 * read without @lock by poll() and dcm_mmap(), and under @config_lock by
 * the netlink commands: unregistration sets it before dcm_describe_release()
 * takes @config_lock.
 */

/**
 * struct dcm_controller - one robot: its device, char device and state
 * @dev: the dcmN device in the "dcm" class; its release frees the controller
 * @cdev: /dev/dcmN; an open file holds @dev through it (cdev_device_add())
 * @index: N, taken in the registry from dcm_controller_create() until
 *	dcm_controller_discard(), after every face reachable by N is gone
 * @driver: name of the body driver that registered it
 * @flags: DCM_INFO_F_* that the body driver gave
 * @period_us: cycle period in microseconds
 * @time: its DCM time (dcm_time.c)
 * @lock: guards @dead, and @model and @rt against their swap: held for
 *	reading by the char device's ioctls, read() and release, the key files
 *	that reach the running state, DCM_CMD_GET_INFO and the watchdog; for
 *	writing by the swap of @model and @rt and by unregistration, which
 *	sets @dead (DOC: Locking)
 * @dead: the body driver is gone; entry points answer -ENODEV
 * @config_lock: orders configuration transactions, description swaps,
 *	calibration and special commands; guards @staged, @staged_portid,
 *	@failed, @why and @tree
 * @model: the running robot description, or NULL; changed under
 *	@config_lock and @lock (for writing), read under either
 * @tree: its sysfs key tree
 * @staged: the description a transaction is building, or NULL
 * @staged_portid: netlink port of the socket that owns @staged, or whose
 *	transaction failed (@failed)
 * @failed: the owner's transaction failed at a step: @why explains it until
 *	the owner's next request, and other sockets still get EBUSY
 * @why: the last error of the owner's transaction, for the netlink ack
 * @keys_lock: guards string key values against a concurrent write
 * @rt: the running state of @model; changed as @model, read under @srcu
 *	(the cycle) or as @model (dcm_rt())
 * @srcu: the cycle's read section: @rt and @buses stay while it runs
 * @bus_lock: orders changes of @buses and @claims; readers of @buses use
 *	@srcu
 * @buses: the transports that carry its body's buses, struct dcm_bus
 * @claims: its body's buses, struct dcm_claim (dcm_bus.c)
 * @generation: generation of @model, 1-65535
 * @swaps: descriptions made running (generations begun) since the
 *	controller was created; a commit equal to the running description
 *	does not count. Written under @config_lock, read with READ_ONCE()
 * @cycle_task: the cycle thread
 * @sched_lock: guards @lanes (created and destroyed under it),
 *	@priority and @cpus, and their application to the threads
 * @priority: SCHED_FIFO priority of the cycle thread and the lanes
 * @cpus: the CPUs they may run on
 * @lanes: the buses' workers, by bus index, created for the runtime's
 *	buses before it runs (dcm_cycle_lanes_prepare()); the cycle reads the
 *	pointers without a lock: they are set before the runtime that uses
 *	them is published, and cleared only once the cycle is stopped
 * @lanes_closed: the cycle stopped: no lane is made any more
 * @lanes_wq: the cycle waits on it for its lanes; each lane wakes it
 * @cycle_wq: woken after every cycle
 * @cycle: cycles run; written under @stats_lock, read with READ_ONCE()
 * @stats_lock: guards @cycle and its statistics
 * @stats: the cycle's statistics (allocated apart: their histograms are
 *	some 90 KiB)
 * @safety: the stiffness rules' controller-wide state, the cycle's
 * @stall_ms: debugfs: the next cycle starts that much late (a cycle fault)
 * @debugfs: the controller's debugfs directory
 * @alias_lock: guards @aliases
 * @aliases: every alias, struct dcm_alias: the shared ones and each open
 *	file's own (dcm_alias.c)
 * @events: the queue of events not yet multicast
 */
struct dcm_controller {
	struct device dev;
	struct cdev cdev;
	int index;
	char driver[DCM_NAME_LEN];
	u32 flags;
	u32 period_us;
	struct dcm_time time;
	struct rw_semaphore lock;
	bool dead;
	struct mutex config_lock;	/* transactions, swaps of @model */
	struct dcm_model *model;
	struct dcm_tree *tree;
	struct dcm_model *staged;
	u32 staged_portid;
	bool failed;
	char why[DCM_MAX_NAME_LEN + 192];
	struct mutex keys_lock;		/* string key values */
	struct dcm_runtime __rcu *rt;
	struct srcu_struct srcu;
	struct mutex bus_lock;		/* @buses */
	struct list_head buses;
	struct list_head claims;
	u32 generation;
	u32 swaps;
	struct task_struct *cycle_task;
	struct mutex sched_lock;	/* @lanes, @priority, @cpus */
	u32 priority;
	cpumask_var_t cpus;
	struct dcm_lane *lanes[DCM_MAX_LANES];
	bool lanes_closed;
	wait_queue_head_t lanes_wq;
	wait_queue_head_t cycle_wq;
	u64 cycle;
	spinlock_t stats_lock;		/* cycle statistics */
	struct dcm_cycle_stats *stats;
	struct dcm_safety safety;
	u32 stall_ms;
	struct dentry *debugfs;
	struct mutex alias_lock;	/* aliases */
	struct list_head aliases;
	struct dcm_events *events;
};

/**
 * struct dcm_watchdog - what an open /dev/dcmN commanded, and its watchdog
 * @ctrl: the controller, held by the file
 * @lock: guards the rest; taken after @ctrl->lock
 * @work: runs the action when the deadline passes
 * @state: enum dcm_watchdog_state
 * @action: enum dcm_watchdog_action
 * @timeout_ms: the time allowed between two refreshes
 * @ramp_ms: how long DCM_WATCHDOG_RAMP takes the hardness down
 * @deadline: jiffies by which a refresh must come
 * @pid: thread-group id of the process that armed it
 * @generation: the description @touched holds indexes of
 * @touched: subdevice indexes of the actuators this file commanded
 */
struct dcm_watchdog {
	struct dcm_controller *ctrl;
	struct mutex lock;		/* the rest */
	struct delayed_work work;
	u8 state;
	u8 action;
	u32 timeout_ms;
	u32 ramp_ms;
	unsigned long deadline;
	pid_t pid;
	u32 generation;
	DECLARE_BITMAP(touched, DCM_MAX_SUBDEVICES);
};

/*
 * The running state, for a caller that holds ctrl->lock (the swap takes it
 * for writing) or ctrl->config_lock.
 */
static inline struct dcm_runtime *dcm_rt(struct dcm_controller *ctrl)
{
	return rcu_dereference_protected(ctrl->rt, lockdep_is_held(&ctrl->lock) ||
					 lockdep_is_held(&ctrl->config_lock));
}

static inline struct dcm_controller *to_dcm_controller(struct device *dev)
{
	return container_of(dev, struct dcm_controller, dev);
}

/* dcm_core.c */
int dcm_core_init(void);
void dcm_core_exit(void);
struct dcm_controller *dcm_controller_create(struct device *parent, const char *driver,
					     u32 flags);
void dcm_controller_discard(struct dcm_controller *ctrl);
int dcm_controller_start(struct dcm_controller *ctrl);
void dcm_controller_stop(struct dcm_controller *ctrl);
const char *dcm_quote(char *buf, size_t size, const char *s);
void dcm_fill_info(const struct dcm_controller *ctrl, struct dcm_ioc_info *info);
struct dcm_controller *dcm_controller_get(unsigned int index);
struct dcm_controller *dcm_controller_get_next(unsigned long *index);
void dcm_controller_put(struct dcm_controller *ctrl);

/* dcm_chrdev.c */
int dcm_chrdev_init(void);
void dcm_chrdev_exit(void);
dev_t dcm_chrdev_devt(int index);
extern const struct file_operations dcm_fops;

/* dcm_watchdog.c */
void dcm_watchdog_init(struct dcm_watchdog *wd, struct dcm_controller *ctrl);
long dcm_watchdog_ioctl(struct dcm_watchdog *wd, const struct dcm_ioc_watchdog *arg);
unsigned long *dcm_watchdog_cmd_begin(struct dcm_watchdog *wd, const struct dcm_runtime *rt);
void dcm_watchdog_cmd_end(struct dcm_watchdog *wd, bool done);
void dcm_watchdog_release(struct dcm_watchdog *wd);

/* dcm_events.c */

/**
 * struct dcm_event_sink - where events go: the netlink face's "events" group
 * @listening: does anyone listen? Called by posters, in any context: it
 *	must not sleep
 * @send: send one event of controller @index; process context, may sleep
 */
struct dcm_event_sink {
	bool (*listening)(void);
	void (*send)(int index, const struct dcm_event *ev);
};

void dcm_events_set_sink(const struct dcm_event_sink *sink);
bool dcm_events_listened(void);
int dcm_events_create(struct dcm_controller *ctrl);
void dcm_events_destroy(struct dcm_controller *ctrl);
void dcm_event_post(struct dcm_controller *ctrl, const struct dcm_event *ev);
bool dcm_events_history(struct dcm_controller *ctrl, u64 *seq, struct dcm_event *ev);
__printf(6, 7)
void dcm_event(struct dcm_controller *ctrl, u32 type, const char *device, u32 code,
	       s64 value, const char *fmt, ...);

/* dcm_describe.c */

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

void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops);
/* dcm_describe_replace(): the description equals the running one, which stays */
#define DCM_DESCRIBE_UNCHANGED	1
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why);
void dcm_describe_release(struct dcm_controller *ctrl);

/* dcm_special.c */

/**
 * struct dcm_special_board - one device in the answer of a special command
 * @name: its name
 * @type: its Type
 * @bus: its bus
 * @address: its address
 * @state: DIAGNOSTIC: "ok", "error", "lost" or "absent"; else NULL
 * @ack: DIAGNOSTIC: its Acks
 * @nack: DIAGNOSTIC: its Nacks
 * @errors: DIAGNOSTIC: its errors of the last 30 s
 * @version: VERSION: what it answered, or NULL if it did not
 *
 * The strings are valid during the call to &struct dcm_special_out.put only.
 */
struct dcm_special_board {
	const char *name;
	const char *type;
	const char *bus;
	u32 address;
	const char *state;
	u64 ack;
	u64 nack;
	u32 errors;
	const char *version;
};

/**
 * struct dcm_special_out - where dcm_special() puts its answer
 * @text: its one-line summary, DCM_MAX_STRING_LEN bytes
 * @put: takes one device; a non-zero return ends the command with it
 * @arg: @put's first argument
 */
struct dcm_special_out {
	char *text;
	int (*put)(void *arg, const struct dcm_special_board *b);
	void *arg;
};

int dcm_special(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 cmd,
		const struct dcm_special_out *out);

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

/* dcm_bus.c */
bool dcm_bus_name_ok(const char *name);
struct dcm_bus *dcm_bus_find(struct dcm_controller *ctrl, const char *name);
void dcm_bus_attach(struct dcm_controller *ctrl, struct dcm_runtime *rt);
void dcm_bus_lanes_flush(struct dcm_controller *ctrl);
int dcm_buses_check(const struct dcm_bus_ref *refs, unsigned int n, struct dcm_claim_why *why);
int dcm_buses_claim(struct dcm_controller *ctrl, const struct dcm_bus_ref *refs, unsigned int n,
		    struct dcm_claim_why *why);
void dcm_buses_release(struct dcm_controller *ctrl);

/* dcm_cycle.c */
int dcm_cycle_init(struct dcm_controller *ctrl);
void dcm_cycle_free(struct dcm_controller *ctrl);
int dcm_cycle_start(struct dcm_controller *ctrl);
void dcm_cycle_stop(struct dcm_controller *ctrl);
void dcm_cycle_stats(struct dcm_controller *ctrl, struct dcm_ioc_stats *out);
void dcm_cycle_stats_full(struct dcm_controller *ctrl, struct dcm_ioc_cycle_stats *out,
			  bool reset);
int dcm_cycle_params_check(void);
void dcm_cycle_cpus(struct dcm_controller *ctrl, struct cpumask *out);
void dcm_cycle_stats_reset(struct dcm_controller *ctrl);
void dcm_cycle_lane_stats(struct dcm_controller *ctrl, u32 lane, struct dcm_lane_stats *out);
void dcm_cycle_step_stats(struct dcm_controller *ctrl, u32 step, u64 *pct);
int dcm_cycle_lanes_prepare(struct dcm_controller *ctrl, u32 n);
int dcm_cycle_set_priority(struct dcm_controller *ctrl, u32 priority);
int dcm_cycle_set_cpus(struct dcm_controller *ctrl, const struct cpumask *cpus);

/* dcm_alias.c */
struct dcm_alias;

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
void dcm_alias_release(struct dcm_controller *ctrl);

#endif /* _DCM_INTERNAL_H */
