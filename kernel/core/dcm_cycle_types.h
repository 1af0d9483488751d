/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the cycle's state, a part of the controller (struct dcm_cycle),
 * apart from the cycle's functions (dcm_cycle.h) so that the controller
 * embeds it without including them.
 */
#ifndef _DCM_CYCLE_TYPES_H
#define _DCM_CYCLE_TYPES_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "model/dcm_hist.h"
#include "model/dcm_safety.h"

struct dcm_bus;
struct dcm_controller;
struct dcm_runtime;

#define DCM_MAX_LANES		16	/* buses with a worker of their own, per controller */

/**
 * struct dcm_lane_stats - what the cycle measures of one bus's exchanges
 * @exchanges: exchanges done in time
 * @late: exchanges not done when the cycle had to publish
 * @busy: exchanges not started: the bus was still the previous cycle's
 *	(a late exchange, or requests that ran past their budget)
 * @last_ns: duration of the last exchange
 * @max_ns: the longest
 * @p50_ns: the median duration of those done in time
 * @p99_ns: their 99th percentile
 * @unready: cycles without an exchange: an RS485 bus being chained
 * @absent: cycles without an exchange: the bus had no transport
 * @requests: requests carried (transfers for others: dcm_bus_req.c)
 * @deferred: cycles that left a request for a later one, its budget spent
 */
struct dcm_lane_stats {
	u64 exchanges;
	u64 late;
	u64 busy;
	u64 last_ns;
	u64 max_ns;
	u64 p50_ns;
	u64 p99_ns;
	u64 unready;
	u64 absent;
	u64 requests;
	u64 deferred;
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
 * @until: the end of the buses' budget this cycle: the cycle's join
 * @cycle: the number of the cycle that queued it, for the trace
 * @rank: its place in that cycle's queue (0: the first), for the trace
 * @queued: when the cycle queued it, while dcm_lane_exchanged is traced
 *	(else 0)
 * @exchange: the bus has its exchange this time (else only requests)
 * @state: enum dcm_lane_state: written by the cycle (IDLE to RUNNING) and
 *	by the lane (RUNNING to EXCHANGED, with release: its values are
 *	written; then to DONE once it carried the requests)
 * @took: the lane was on the bus (dcm_bus_take()), written before
 *	EXCHANGED; else another thread of the cycle was, and it did nothing
 * @ns: the exchange's duration, written by the lane before EXCHANGED
 * @ended: when it ended, written likewise
 */
struct dcm_lane {
	struct kthread_worker *worker;
	struct kthread_work work;
	struct dcm_controller *ctrl;
	struct dcm_runtime *rt;
	struct dcm_bus *t;
	u32 bus;
	u32 now;
	ktime_t until;
	u64 cycle;
	u32 rank;
	ktime_t queued;
	bool exchange;
	atomic_t state;
	bool took;
	u64 ns;
	ktime_t ended;
};

/* struct dcm_lane.state */
enum dcm_lane_state {
	DCM_LANE_IDLE,		/* nothing queued: the cycle may queue */
	DCM_LANE_RUNNING,	/* queued or exchanging */
	DCM_LANE_EXCHANGED,	/* exchanged: carrying the bus's requests */
	DCM_LANE_DONE,		/* ended: the cycle takes it back to IDLE */
};

/**
 * struct dcm_cycle - a controller's cycle, a part of the controller
 * @period_us: the period in microseconds; sysfs writes it, the cycle reads
 *	it with READ_ONCE()
 * @task: the cycle thread
 * @sched_lock: guards @lanes (created and destroyed under it), @priority
 *	and @cpus, and their application to the threads
 * @priority: SCHED_FIFO priority of the cycle thread and the lanes
 * @cpus: the CPUs they may run on
 * @lanes: the buses' workers, by bus index, created for the runtime's
 *	buses before it runs (dcm_cycle_lanes_prepare()); the cycle reads the
 *	pointers without a lock: they are set before the runtime that uses
 *	them is published, and cleared only once the cycle is stopped
 * @lanes_closed: the cycle stopped: no lane is made any more
 * @lanes_wq: the cycle waits on it for its lanes; each lane wakes it
 * @wq: woken after every cycle
 * @count: cycles run; written under @stats_lock, read with READ_ONCE()
 * @stats_lock: guards @count and @stats
 * @stats: the cycle's statistics (allocated apart: their histograms are
 *	some 90 KiB)
 * @safety: the stiffness rules' controller-wide state, the cycle's
 * @stall_ms: debugfs: the next cycle starts that much late (a cycle fault)
 */
struct dcm_cycle {
	u32 period_us;
	struct task_struct *task;
	struct mutex sched_lock;	/* @lanes, @priority, @cpus */
	u32 priority;
	cpumask_var_t cpus;
	struct dcm_lane *lanes[DCM_MAX_LANES];
	bool lanes_closed;
	wait_queue_head_t lanes_wq;
	wait_queue_head_t wq;
	u64 count;
	spinlock_t stats_lock;		/* @count, @stats */
	struct dcm_cycle_stats *stats;
	struct dcm_safety safety;
	u32 stall_ms;
};

#endif /* _DCM_CYCLE_TYPES_H */
