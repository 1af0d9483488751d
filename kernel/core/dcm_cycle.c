// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the cycle: a SCHED_FIFO kernel thread per controller that wakes on
 * absolute hrtimer deadlines, one period apart, runs the running
 * description's cycle, publishes it and wakes the readers.
 *
 * The deadlines stay on one grid, first + k * period: a late cycle does not
 * move the next ones. The next deadline is the first point of the grid at
 * least half a period after the start of the cycle that just ran
 * (dcm_grid_advance()), so that no two cycles run closer than half a
 * period; the points passed over are missed slots, counted, never run.
 *
 * Each bus exchanges in a lane of its own (struct dcm_lane: a kthread_worker
 * at the cycle's priority, on its CPUs), so that the buses' wire times
 * overlap: the cycle computes the actuators and the safety rules, queues
 * every bus's exchange on its lane, waits for them all until DCM_BUS_BUDGET_PCT
 * of the period after its start, and publishes. A bus not done by then is
 * late: it is counted, and the snapshot has its boards' last values; its
 * exchange runs on, and what it brings shows in the next cycle's snapshot
 * (the lanes write values, and the cycle publishes them, under the
 * runtime's values_lock). While it runs on, the next cycles leave the bus
 * alone (busy, counted too). The other buses are not delayed by it.
 *
 * The cycle reads the runtime and the buses under SRCU, and waits for its
 * lanes inside that read section; a lane the cycle left running (a late
 * bus) has no read section of its own, so whoever frees a runtime or lets a
 * transport go flushes the lanes after synchronize_srcu()
 * (dcm_bus_lanes_flush()).
 */

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/types.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <uapi/linux/sched/types.h>

#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_time.h"
#include "core/dcm_board_type.h"
#include "core/dcm_runtime.h"
#include "model/dcm_grid.h"

#define CREATE_TRACE_POINTS
#include "core/dcm_trace.h"
#include "core/dcm_cycle.h"

static unsigned int period_us = 10000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "cycle period of new controllers in us (1000-100000, default 10000)");

/*
 * The cycle's priority: above the interrupt threads of a PREEMPT_RT kernel
 * (SCHED_FIFO 50), so that a storm of device interrupts does not delay it,
 * and below the kernel's own per-CPU threads that run at 99 (migration,
 * watchdogs). Its bus lanes run at the same priority: the RS485 UART's
 * interrupt thread, at 50, still preempts none of them, which is why the
 * transports complete on their last byte from the interrupt path, not from
 * a thread of their own.
 */
#define DCM_CYCLE_PRIORITY	60

static unsigned int cycle_priority = DCM_CYCLE_PRIORITY;
module_param(cycle_priority, uint, 0444);
MODULE_PARM_DESC(cycle_priority,
		 "SCHED_FIFO priority of new controllers' cycle and bus threads (1-99, default 60)");

/*
 * The cycle's CPUs. By default one CPU, the last online at the
 * controller's creation, for the cycle and all its lanes: a bus's exchange
 * waits on its wire far more than it computes, so the lanes overlap on one
 * CPU as well as on several, and a wake-up on the same CPU costs no
 * inter-processor interrupt (nor, in a VM, the wake-up of a halted vCPU:
 * milliseconds under QEMU TCG). The other CPUs stay free for user space and
 * for the interrupts, which go to CPU 0 first. "all" lets the scheduler
 * place the threads.
 */
static char *cycle_cpus;
module_param(cycle_cpus, charp, 0444);
MODULE_PARM_DESC(cycle_cpus,
		 "CPUs of new controllers' cycle and bus threads: a cpulist, or \"all\" (default: the last online CPU)");

/* The CPUs the cycle_cpus parameter names; false if it names none. */
static bool cycle_cpus_parse(struct cpumask *m)
{
	if (!cycle_cpus || !*cycle_cpus) {
		cpumask_clear(m);
		cpumask_set_cpu(cpumask_last(cpu_online_mask), m);
		return true;
	}
	if (sysfs_streq(cycle_cpus, "all")) {
		cpumask_copy(m, cpu_possible_mask);
		return true;
	}
	return !cpulist_parse(cycle_cpus, m) && cpumask_intersects(m, cpu_online_mask);
}

static bool parallel_buses = true;
module_param(parallel_buses, bool, 0644);
MODULE_PARM_DESC(parallel_buses,
		 "each bus exchanges in a thread of its own, all at once (default); N: one after the other in the cycle thread, for comparison");

/*
 * The buses have until this share of the period after the cycle's start to
 * end their exchanges; the rest is the publication's and the margin's.
 */
#define DCM_BUS_BUDGET_PCT	90

/* Upper bounds of the wake-up latency histogram buckets, in ns. */
static const u64 latency_bounds[] = {
	10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000,
};

/*
 * What became of each bus's exchange this cycle: bits by bus index, and
 * the duration of those done.
 */
struct bus_round {
	u32 done;
	u32 late;
	u32 busy;
	u32 unready;
	u32 absent;
	u64 ns[DCM_MAX_LANES];
};

static void account(struct dcm_controller *ctrl, u64 latency, u64 work, u64 period,
		    const struct bus_round *r, const u64 *steps)
{
	struct dcm_cycle_stats *st = ctrl->cycle.stats;
	unsigned int b = 0;

	if (steps)
		for (b = 0; b < DCM_STEP_COUNT; b++)
			dcm_hist_add(&st->step[b], steps[b]);
	b = 0;

	while (b < ARRAY_SIZE(latency_bounds) && latency >= latency_bounds[b])
		b++;
	st->latency_hist[b]++;
	st->cycles++;
	st->last_ns = work;
	dcm_hist_add(&st->latency, latency);
	dcm_hist_add(&st->work, work);
	if (work > period)
		st->work_overruns++;
	for (b = 0; b < DCM_MAX_LANES; b++) {
		struct dcm_lane_stats *ls = &st->lane[b];

		if (r->done & BIT(b)) {
			ls->exchanges++;
			ls->last_ns = r->ns[b];
			ls->max_ns = max(ls->max_ns, ls->last_ns);
			dcm_hist_add(&st->lane_hist[b], r->ns[b]);
		}
		if (r->late & BIT(b))
			ls->late++;
		if (r->busy & BIT(b))
			ls->busy++;
		if (r->unready & BIT(b))
			ls->unready++;
		if (r->absent & BIT(b))
			ls->absent++;
	}
}

/* What a thread of the cycle carried of bus @b's requests. */
static void account_carry(struct dcm_controller *ctrl, u32 b, const struct dcm_bus_carry *c)
{
	if (b >= DCM_MAX_LANES || (!c->carried && !c->deferred))
		return;
	spin_lock(&ctrl->cycle.stats_lock);
	ctrl->cycle.stats->lane[b].requests += c->carried;
	ctrl->cycle.stats->lane[b].deferred += !!c->deferred;
	spin_unlock(&ctrl->cycle.stats_lock);
}

/*
 * The controller-wide stiffness rules of this cycle, and an event each time
 * one starts or stops acting.
 */
static void safety_cycle(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 now)
{
	struct dcm_safety *s = &ctrl->cycle.safety;
	bool over = dcm_boards_over_limit(rt);
	bool was_over = s->battery_ppm < DCM_SAFETY_FULL_PPM;
	bool faulted = s->fault_ppm < DCM_SAFETY_FULL_PPM;
	u32 faults = s->faults;

	dcm_safety_cycle(s, now, over);
	if (s->faults != faults)
		dcm_event(ctrl, DCM_EV_SAFETY, NULL, DCM_SAFETY_CYCLE_FAULT, 1,
			  "cycle fault: stiffness cut, back over %u ms once cycles are healthy",
			  DCM_SAFETY_RECOVER_MS);
	else if (faulted && s->fault_ppm == DCM_SAFETY_FULL_PPM)
		dcm_event(ctrl, DCM_EV_SAFETY, NULL, DCM_SAFETY_CYCLE_FAULT, 0,
			  "cycle fault over: stiffness back");
	/* The battery rule acts from the first cycle over until it is full again. */
	if (over && !was_over)
		dcm_event(ctrl, DCM_EV_SAFETY, NULL, DCM_SAFETY_BATTERY_CURRENT, 1,
			  "battery current past its limit: stiffness decreasing");
	else if (was_over && s->battery_ppm == DCM_SAFETY_FULL_PPM)
		dcm_event(ctrl, DCM_EV_SAFETY, NULL, DCM_SAFETY_BATTERY_CURRENT, 0,
			  "battery current back under its limit: stiffness back");
}

/*
 * A bus's exchange, in its lane: the exchange first (its values are the
 * cycle's, which may join from then on), then the requests queued to the
 * bus, within the budget.
 */
static void dcm_lane_work(struct kthread_work *work)
{
	struct dcm_lane *lane = container_of(work, struct dcm_lane, work);
	struct dcm_controller *ctrl = lane->ctrl;
	struct dcm_bus_carry carry = { };
	ktime_t start = ktime_get();

	lane->took = dcm_bus_take(lane->t);
	if (lane->took && lane->exchange)
		dcm_bus_exchange(lane->rt, lane->bus, lane->t, lane->now);
	lane->ended = ktime_get();
	lane->ns = ktime_to_ns(ktime_sub(lane->ended, start));
	/* 0 for a lane queued before the trace was on. */
	trace_dcm_lane_exchanged(ctrl->index, lane->cycle, lane->bus, lane->rank,
				 lane->queued ? ktime_to_ns(ktime_sub(start, lane->queued)) : 0,
				 lane->ns);
	/* The values, @took, @ended and @ns are written before the cycle sees EXCHANGED. */
	atomic_set_release(&lane->state, DCM_LANE_EXCHANGED);
	wake_up(&ctrl->cycle.lanes_wq);
	if (lane->took) {
		dcm_bus_req_carry(lane->t, lane->until, &carry);
		dcm_bus_give(lane->t);
		account_carry(ctrl, lane->bus, &carry);
	}
	atomic_set_release(&lane->state, DCM_LANE_DONE);
}

/* Whether every lane queued this cycle has exchanged. */
static bool lanes_done(struct dcm_controller *ctrl, u32 queued)
{
	unsigned long q = queued;
	unsigned int b;

	for_each_set_bit(b, &q, DCM_MAX_LANES)
		if (atomic_read_acquire(&ctrl->cycle.lanes[b]->state) < DCM_LANE_EXCHANGED)
			return false;
	return true;
}

/*
 * A bus in the cycle thread (no lane): its exchange, then its requests.
 * Return: whether the thread was on the bus.
 */
static bool bus_inline(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 b,
		       struct dcm_bus *t, bool exchange, u32 now, ktime_t until,
		       struct bus_round *r)
{
	struct dcm_bus_carry carry = { };
	ktime_t start = ktime_get();

	if (!dcm_bus_take(t))
		return false;
	if (exchange) {
		dcm_bus_exchange(rt, b, t, now);
		if (b < DCM_MAX_LANES) {
			r->done |= BIT(b);
			r->ns[b] = ktime_to_ns(ktime_sub(ktime_get(), start));
		}
	}
	dcm_bus_req_carry(t, until, &carry);
	dcm_bus_give(t);
	account_carry(ctrl, b, &carry);
	return true;
}

/* Whether a transport carries a bus of the runtime. */
static bool rt_carries(struct dcm_controller *ctrl, struct dcm_runtime *rt, struct dcm_bus *t)
{
	u32 b;

	for (b = 0; rt && b < rt->n_buses; b++)
		if (srcu_dereference(rt->buses[b].bus, &ctrl->srcu) == t)
			return true;
	return false;
}

/*
 * The requests of the transports that carry no bus of the running
 * description (none runs yet, while the first one is committed and the
 * chest store read), in the cycle thread.
 */
static void cycle_others(struct dcm_controller *ctrl, struct dcm_runtime *rt, ktime_t until)
{
	struct dcm_bus_carry carry = { };
	struct dcm_bus *t;

	list_for_each_entry_srcu(t, &ctrl->buses.list, node, srcu_read_lock_held(&ctrl->srcu)) {
		if (!dcm_bus_req_pending(t) || rt_carries(ctrl, rt, t) || !dcm_bus_take(t))
			continue;
		dcm_bus_req_carry(t, until, &carry);
		dcm_bus_give(t);
	}
}

/*
 * What became of the lanes queued this cycle, once joined: each counted,
 * and the join's trace.
 */
static void lanes_joined(struct dcm_controller *ctrl, unsigned long queued, struct bus_round *r)
{
	/* The join's time, for its trace only. */
	ktime_t last = 0, joined = trace_dcm_cycle_joined_enabled() ? ktime_get() : 0;
	bool all = true;
	unsigned int b;

	for_each_set_bit(b, &queued, DCM_MAX_LANES) {
		struct dcm_lane *lane = ctrl->cycle.lanes[b];

		if (atomic_read_acquire(&lane->state) < DCM_LANE_EXCHANGED) {
			all = false;
			/* Each bus's cycle counted once: an unready one is already. */
			if (lane->exchange)
				r->late |= BIT(b);
			continue;
		}
		if (ktime_after(lane->ended, last))
			last = lane->ended;
		if (!lane->exchange)
			continue;
		if (!lane->took) {
			r->busy |= BIT(b);
		} else {
			r->done |= BIT(b);
			r->ns[b] = lane->ns;
		}
	}
	trace_dcm_cycle_joined(ctrl->index, ctrl->cycle.count + 1, queued,
			       all && ktime_after(joined, last) ?
			       ktime_to_ns(ktime_sub(joined, last)) : 0);
	if (r->late)
		trace_dcm_cycle_late_buses(ctrl->index, ctrl->cycle.count + 1, r->late);
}

/*
 * Every bus's exchange of a cycle: each in its lane, all at once, joined by
 * @join_by; a bus without a lane (beyond DCM_MAX_LANES, none could be made,
 * or parallel_buses off) in the cycle thread itself, after the others are
 * queued. A bus without its exchange this time (being chained) still gets
 * its requests carried.
 *
 * The lanes are queued longest first, by their exchange's time the cycle
 * before: they share the cycle's CPU and run in the order they were
 * queued, each until it waits for its wire, so the bus that takes longest
 * starts its wait first and a short one's turn comes while the long ones
 * wait.
 */
static void cycle_buses(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 now,
			ktime_t join_by, struct bus_round *r)
{
	bool parallel = READ_ONCE(parallel_buses);
	unsigned long queued = 0, inline_buses = 0, inline_exchange = 0;
	struct dcm_lane *ready[DCM_MAX_LANES];
	unsigned int b, i, n = 0;

	for (b = 0; b < rt->n_buses; b++) {
		struct dcm_bus *t = srcu_dereference(rt->buses[b].bus, &ctrl->srcu);
		const struct dcm_bus_kind_ops *kind;
		struct dcm_lane *lane;
		bool exchange;

		if (!t) {
			dcm_bus_missing(rt, b, now);
			if (b < DCM_MAX_LANES)
				r->absent |= BIT(b);
			continue;
		}
		kind = dcm_bus_kind(t);
		exchange = !kind->ready || kind->ready(rt, b, t);
		if (!exchange && b < DCM_MAX_LANES)
			r->unready |= BIT(b);
		if (!exchange && !dcm_bus_req_pending(t))
			continue;
		lane = b < DCM_MAX_LANES ? READ_ONCE(ctrl->cycle.lanes[b]) : NULL;
		/* A lane that ended (in time or late) is the cycle's again. */
		if (lane && atomic_read_acquire(&lane->state) == DCM_LANE_DONE)
			atomic_set(&lane->state, DCM_LANE_IDLE);
		/* Still the previous cycle's: busy (an unready bus is counted so). */
		if (lane && atomic_read(&lane->state) != DCM_LANE_IDLE) {
			if (exchange)
				r->busy |= BIT(b);
			continue;
		}
		if (!parallel || !lane) {
			if (b < BITS_PER_LONG) {
				inline_buses |= BIT(b);
				if (exchange)
					inline_exchange |= BIT(b);
			}
			continue;
		}
		lane->rt = rt;
		lane->t = t;
		lane->bus = b;
		lane->now = now;
		lane->until = join_by;
		lane->cycle = ctrl->cycle.count + 1;
		lane->exchange = exchange;
		for (i = n++; i > 0 && ready[i - 1]->ns < lane->ns; i--)
			ready[i] = ready[i - 1];
		ready[i] = lane;
	}
	for (i = 0; i < n; i++) {
		struct dcm_lane *lane = ready[i];

		lane->rank = i;
		/* When it was queued: its wake-up, for its trace only. */
		lane->queued = trace_dcm_lane_exchanged_enabled() ? ktime_get() : 0;
		atomic_set(&lane->state, DCM_LANE_RUNNING);
		kthread_queue_work(lane->worker, &lane->work);
		queued |= BIT(lane->bus);
	}

	/* The buses without a lane, one after the other, meanwhile. */
	for_each_set_bit(b, &inline_buses, BITS_PER_LONG) {
		struct dcm_bus *t = srcu_dereference(rt->buses[b].bus, &ctrl->srcu);

		if (!bus_inline(ctrl, rt, b, t, inline_exchange & BIT(b), now, join_by, r) &&
		    (inline_exchange & BIT(b)) && b < DCM_MAX_LANES)
			r->busy |= BIT(b);
	}

	if (!queued)
		return;
	if (ktime_before(ktime_get(), join_by))
		wait_event_hrtimeout(ctrl->cycle.lanes_wq, lanes_done(ctrl, queued),
				     ktime_sub(join_by, ktime_get()));
	lanes_joined(ctrl, queued, r);
}

static int dcm_cycle_thread(void *data)
{
	struct dcm_controller *ctrl = data;
	ktime_t deadline;

	deadline = ktime_add_us(ktime_get(), READ_ONCE(ctrl->cycle.period_us));

	while (!kthread_should_stop()) {
		u64 period = (u64)READ_ONCE(ctrl->cycle.period_us) * NSEC_PER_USEC;
		struct bus_round round;
		u64 steps[DCM_STEP_COUNT];
		struct dcm_runtime *rt;
		ktime_t start, end, join_by;
		u64 late, work, overruns, advance;
		u32 now, stall, s;
		bool overrun;
		int idx;

		memset(&round, 0, sizeof(round));
		/* A cycle fault on request (debugfs stall_ms), for the tests. */
		stall = xchg(&ctrl->cycle.stall_ms, 0);
		if (stall)
			msleep(min(stall, 5000U));

		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			break;
		}
		schedule_hrtimeout(&deadline, HRTIMER_MODE_ABS);
		start = ktime_get();
		/* A wake-up before the deadline (a signal) counts as on time. */
		late = max_t(s64, ktime_to_ns(ktime_sub(start, deadline)), 0);
		now = dcm_time_ms_at(ctrl, start);
		trace_dcm_cycle_start(ctrl->index, ctrl->cycle.count + 1, now, late);

		idx = srcu_read_lock(&ctrl->srcu);
		rt = srcu_dereference(ctrl->desc.rt, &ctrl->srcu);
		join_by = ktime_add_ns(start, div_u64(period * DCM_BUS_BUDGET_PCT, 100));
		if (rt) {
			ktime_t t[DCM_STEP_COUNT];

			dcm_runtime_actuate(rt, now);
			t[DCM_STEP_ACTUATE] = ktime_get();
			safety_cycle(ctrl, rt, now);
			dcm_boards_safety(rt, dcm_safety_scale(&ctrl->cycle.safety), now);
			t[DCM_STEP_SAFETY] = ktime_get();
			cycle_buses(ctrl, rt, now, join_by, &round);
			t[DCM_STEP_BUSES] = ktime_get();
			/* A late bus's values wait for the next cycle. */
			spin_lock(&rt->values_lock);
			dcm_runtime_publish(rt, now, ctrl->cycle.count + 1);
			spin_unlock(&rt->values_lock);
			t[DCM_STEP_PUBLISH] = ktime_get();
			steps[0] = ktime_to_ns(ktime_sub(t[0], start));
			for (s = 1; s < DCM_STEP_COUNT; s++)
				steps[s] = ktime_to_ns(ktime_sub(t[s], t[s - 1]));
		}
		cycle_others(ctrl, rt, join_by);
		srcu_read_unlock(&ctrl->srcu, idx);

		end = ktime_get();
		work = ktime_to_ns(ktime_sub(end, start));
		trace_dcm_cycle_end(ctrl->index, ctrl->cycle.count + 1, work);
		/* The next deadline, on the grid; the points passed over are missed. */
		advance = dcm_grid_advance(late, period);
		deadline = ktime_add_ns(deadline, advance * period);
		spin_lock(&ctrl->cycle.stats_lock);
		ctrl->cycle.count++;
		account(ctrl, late, work, period, &round, rt ? steps : NULL);
		ctrl->cycle.stats->missed += advance - 1;
		/* A cycle that starts a period late or more has missed its slot. */
		overrun = late >= period;
		if (overrun)
			ctrl->cycle.stats->overruns++;
		overruns = ctrl->cycle.stats->overruns;
		spin_unlock(&ctrl->cycle.stats_lock);
		if (overrun) {
			struct dcm_event ev = { .type = DCM_EV_OVERRUN, .value = late,
						.count = (u32)min_t(u64, overruns, U32_MAX) };

			snprintf(ev.text, sizeof(ev.text),
				 "cycle %llu started %llu us late, %llu periods skipped",
				 ctrl->cycle.count, late / NSEC_PER_USEC, advance - 1);
			dcm_event_post(ctrl, &ev);
		}

		wake_up_interruptible_all(&ctrl->cycle.wq);
	}
	return 0;
}

/* Give a thread of the cycle its priority and CPUs; under cycle.sched_lock. */
static int sched_apply(struct dcm_controller *ctrl, struct task_struct *t)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_FIFO,
		.sched_priority = ctrl->cycle.priority,
	};
	int ret;

	lockdep_assert_held(&ctrl->cycle.sched_lock);
	ret = sched_setattr_nocheck(t, &attr);
	if (!ret)
		ret = set_cpus_allowed_ptr(t, ctrl->cycle.cpus);
	return ret;
}

/* Every thread of the cycle, the settings changed; under cycle.sched_lock. */
static int sched_apply_all(struct dcm_controller *ctrl)
{
	int ret = 0, err;
	u32 i;

	if (ctrl->cycle.task)
		ret = sched_apply(ctrl, ctrl->cycle.task);
	for (i = 0; i < DCM_MAX_LANES; i++) {
		if (!ctrl->cycle.lanes[i])
			continue;
		err = sched_apply(ctrl, ctrl->cycle.lanes[i]->worker->task);
		if (!ret)
			ret = err;
	}
	return ret;
}

/**
 * dcm_cycle_init() - a new controller's cycle settings and statistics
 * @ctrl: the controller being created
 *
 * Its period, priority and CPUs from the module parameters period_us,
 * cycle_priority and cycle_cpus (checked by dcm_cycle_params_check()).
 * Context: process.
 *
 * Return: 0 or -ENOMEM.
 */
int dcm_cycle_init(struct dcm_controller *ctrl)
{
	mutex_init(&ctrl->cycle.sched_lock);
	init_waitqueue_head(&ctrl->cycle.lanes_wq);
	init_waitqueue_head(&ctrl->cycle.wq);
	spin_lock_init(&ctrl->cycle.stats_lock);
	dcm_safety_init(&ctrl->cycle.safety);
	if (!zalloc_cpumask_var(&ctrl->cycle.cpus, GFP_KERNEL))
		return -ENOMEM;
	ctrl->cycle.stats = kvzalloc(sizeof(*ctrl->cycle.stats), GFP_KERNEL);
	if (!ctrl->cycle.stats) {
		free_cpumask_var(ctrl->cycle.cpus);
		return -ENOMEM;
	}
	ctrl->cycle.period_us = period_us;
	ctrl->cycle.priority = cycle_priority;
	if (!cycle_cpus_parse(ctrl->cycle.cpus))
		cpumask_copy(ctrl->cycle.cpus, cpu_possible_mask);
	ctrl->cycle.stats->since = ktime_get();
	return 0;
}

/**
 * dcm_cycle_free() - undo dcm_cycle_init()
 * @ctrl: the controller, its cycle stopped
 */
void dcm_cycle_free(struct dcm_controller *ctrl)
{
	kvfree(ctrl->cycle.stats);
	free_cpumask_var(ctrl->cycle.cpus);
}

/**
 * dcm_cycle_params_check() - whether the module parameters make sense
 *
 * Return: 0, or -EINVAL for a period outside 1000-100000 us, a priority
 * outside 1-99 or a cpulist that does not parse or names no online CPU.
 */
int dcm_cycle_params_check(void)
{
	cpumask_var_t m;
	int ret = 0;

	if (period_us < 1000 || period_us > 100000) {
		pr_err("dcm: period_us=%u is outside 1000-100000\n", period_us);
		return -EINVAL;
	}
	if (cycle_priority < 1 || cycle_priority >= MAX_RT_PRIO) {
		pr_err("dcm: cycle_priority=%u is outside 1-%d\n", cycle_priority,
		       MAX_RT_PRIO - 1);
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&m, GFP_KERNEL))
		return -ENOMEM;
	if (!cycle_cpus_parse(m)) {
		pr_err("dcm: cycle_cpus=%s names no online CPU\n", cycle_cpus);
		ret = -EINVAL;
	}
	free_cpumask_var(m);
	return ret;
}

static void lane_destroy(struct dcm_lane *lane)
{
	kthread_destroy_worker(lane->worker);
	kfree(lane);
}

/**
 * dcm_cycle_lanes_prepare() - workers for the buses of a runtime
 * @ctrl: the controller
 * @n: the runtime's buses
 *
 * Makes the lanes that are missing, up to DCM_MAX_LANES, at the cycle's
 * priority and on its CPUs, before the runtime runs; they stay until the
 * cycle stops. A bus left without a lane (none could be made) exchanges
 * in the cycle thread. Context: process, before the runtime is published.
 *
 * Return: 0, or -ENOMEM or another errno for a lane that could not be made.
 */
int dcm_cycle_lanes_prepare(struct dcm_controller *ctrl, u32 n)
{
	struct dcm_lane *lane;
	int ret = 0;
	u32 i;

	mutex_lock(&ctrl->cycle.sched_lock);
	for (i = 0; i < min_t(u32, n, DCM_MAX_LANES) && !ctrl->cycle.lanes_closed; i++) {
		if (ctrl->cycle.lanes[i])
			continue;
		lane = kzalloc(sizeof(*lane), GFP_KERNEL);
		if (!lane) {
			ret = -ENOMEM;
			break;
		}
		lane->worker = kthread_create_worker(0, "dcm%d-bus%u", ctrl->index, i);
		if (IS_ERR(lane->worker)) {
			ret = PTR_ERR(lane->worker);
			kfree(lane);
			break;
		}
		kthread_init_work(&lane->work, dcm_lane_work);
		lane->ctrl = ctrl;
		atomic_set(&lane->state, DCM_LANE_IDLE);
		sched_apply(ctrl, lane->worker->task);
		/* Published with the runtime that uses it (rcu_assign_pointer()). */
		WRITE_ONCE(ctrl->cycle.lanes[i], lane);
	}
	mutex_unlock(&ctrl->cycle.sched_lock);
	return ret;
}

/**
 * dcm_cycle_start() - start a controller's cycle
 * @ctrl: the controller
 *
 * Return: 0 or a negative errno.
 */
int dcm_cycle_start(struct dcm_controller *ctrl)
{
	struct task_struct *t;

	t = kthread_create(dcm_cycle_thread, ctrl, "dcm%d-cycle", ctrl->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	mutex_lock(&ctrl->cycle.sched_lock);
	ctrl->cycle.task = t;
	if (sched_apply(ctrl, t))
		dev_warn(&ctrl->dev, "cannot set the cycle's priority %u or CPUs %*pbl\n",
			 ctrl->cycle.priority, cpumask_pr_args(ctrl->cycle.cpus));
	mutex_unlock(&ctrl->cycle.sched_lock);
	wake_up_process(t);
	return 0;
}

/**
 * dcm_cycle_stop() - stop a controller's cycle and wake its readers
 * @ctrl: the controller
 *
 * The cycle thread stops, then its lanes, each once the exchange it runs
 * has ended.
 */
void dcm_cycle_stop(struct dcm_controller *ctrl)
{
	struct task_struct *t;
	u32 i;

	mutex_lock(&ctrl->cycle.sched_lock);
	t = ctrl->cycle.task;
	mutex_unlock(&ctrl->cycle.sched_lock);
	if (t)
		kthread_stop(t);
	mutex_lock(&ctrl->cycle.sched_lock);
	ctrl->cycle.task = NULL;
	ctrl->cycle.lanes_closed = true;
	for (i = 0; i < DCM_MAX_LANES; i++) {
		if (ctrl->cycle.lanes[i])
			lane_destroy(ctrl->cycle.lanes[i]);
		WRITE_ONCE(ctrl->cycle.lanes[i], NULL);
	}
	mutex_unlock(&ctrl->cycle.sched_lock);
	wake_up_interruptible_all(&ctrl->cycle.wq);
}

/**
 * dcm_cycle_set_priority() - the cycle's SCHED_FIFO priority, now
 * @ctrl: the controller
 * @priority: 1-99
 *
 * The cycle thread and its lanes take it at once. The caller checks the
 * privilege (CAP_SYS_NICE). Context: process.
 *
 * Return: 0, -EINVAL for a priority out of range, or what the scheduler
 * said.
 */
int dcm_cycle_set_priority(struct dcm_controller *ctrl, u32 priority)
{
	int ret;

	if (priority < 1 || priority >= MAX_RT_PRIO)
		return -EINVAL;
	mutex_lock(&ctrl->cycle.sched_lock);
	ctrl->cycle.priority = priority;
	ret = sched_apply_all(ctrl);
	mutex_unlock(&ctrl->cycle.sched_lock);
	return ret;
}

/**
 * dcm_cycle_set_cpus() - the CPUs the cycle runs on, now
 * @ctrl: the controller
 * @cpus: the CPUs; at least one online
 *
 * The cycle thread and its lanes move at once. The caller checks the
 * privilege (CAP_SYS_NICE). Context: process.
 *
 * Return: 0, -EINVAL for a set without an online CPU, or what the
 * scheduler said.
 */
int dcm_cycle_set_cpus(struct dcm_controller *ctrl, const struct cpumask *cpus)
{
	int ret;

	if (!cpumask_intersects(cpus, cpu_online_mask))
		return -EINVAL;
	mutex_lock(&ctrl->cycle.sched_lock);
	cpumask_copy(ctrl->cycle.cpus, cpus);
	ret = sched_apply_all(ctrl);
	mutex_unlock(&ctrl->cycle.sched_lock);
	return ret;
}

/**
 * dcm_cycle_cpus() - the CPUs the cycle runs on
 * @ctrl: the controller
 * @out: a copy of them
 */
void dcm_cycle_cpus(struct dcm_controller *ctrl, struct cpumask *out)
{
	mutex_lock(&ctrl->cycle.sched_lock);
	cpumask_copy(out, ctrl->cycle.cpus);
	mutex_unlock(&ctrl->cycle.sched_lock);
}

/**
 * dcm_cycle_stats() - a copy of a controller's cycle statistics
 * @ctrl: the controller
 * @out: the statistics in the ioctl layout
 *
 * @out->cycles is the cycles run since the controller started, the rest
 * since the statistics began (dcm_cycle_stats_reset()).
 */
void dcm_cycle_stats(struct dcm_controller *ctrl, struct dcm_ioc_stats *out)
{
	struct dcm_cycle_stats *st = ctrl->cycle.stats;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	spin_lock(&ctrl->cycle.stats_lock);
	out->cycles = ctrl->cycle.count;
	out->overruns = st->overruns;
	out->missed = st->missed;
	out->last_ns = st->last_ns;
	out->mean_ns = st->work.n ? div64_u64(st->work.sum, st->work.n) : 0;
	out->max_ns = st->work.max;
	out->latency_max_ns = st->latency.max;
	for (i = 0; i < ARRAY_SIZE(out->latency_hist); i++)
		out->latency_hist[i] = st->latency_hist[i];
	spin_unlock(&ctrl->cycle.stats_lock);
}

/* Start the statistics again; under cycle.stats_lock. */
static void stats_reset_locked(struct dcm_controller *ctrl)
{
	memset(ctrl->cycle.stats, 0, sizeof(*ctrl->cycle.stats));
	ctrl->cycle.stats->since = ktime_get();
}

/**
 * dcm_cycle_stats_full() - the cycle's statistics with their percentiles
 * @ctrl: the controller
 * @out: the statistics, DCM_IOC_CYCLE_STATS's layout
 * @reset: start them again once copied (the caller checked the privilege)
 *
 * Context: process; the percentiles are computed under the statistics'
 * lock, a few microseconds.
 */
void dcm_cycle_stats_full(struct dcm_controller *ctrl, struct dcm_ioc_cycle_stats *out,
			  bool reset)
{
	static const u32 ppm[DCM_PCT_COUNT] = { 500000, 990000, 999000, 1000000 };
	struct dcm_cycle_stats *st = ctrl->cycle.stats;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	mutex_lock(&ctrl->cycle.sched_lock);
	out->priority = ctrl->cycle.priority;
	for (i = 0; i < 64 && i < nr_cpu_ids; i++)
		if (cpumask_test_cpu(i, ctrl->cycle.cpus))
			out->cpus |= BIT_ULL(i);
	mutex_unlock(&ctrl->cycle.sched_lock);

	spin_lock(&ctrl->cycle.stats_lock);
	out->cycles = st->cycles;
	out->missed = st->missed;
	out->late_starts = st->overruns;
	out->work_overruns = st->work_overruns;
	for (i = 0; i < DCM_MAX_LANES; i++) {
		out->late_buses += st->lane[i].late;
		out->busy_buses += st->lane[i].busy;
		out->unready_buses += st->lane[i].unready;
		out->absent_buses += st->lane[i].absent;
		out->bus_requests += st->lane[i].requests;
		out->deferred_requests += st->lane[i].deferred;
	}
	for (i = 0; i < DCM_PCT_COUNT; i++) {
		out->latency_ns[i] = dcm_hist_percentile(&st->latency, ppm[i]);
		out->work_ns[i] = dcm_hist_percentile(&st->work, ppm[i]);
	}
	out->latency_mean_ns = st->latency.n ? div64_u64(st->latency.sum, st->latency.n) : 0;
	out->work_mean_ns = st->work.n ? div64_u64(st->work.sum, st->work.n) : 0;
	out->since_ns = ktime_to_ns(st->since);
	if (reset)
		stats_reset_locked(ctrl);
	spin_unlock(&ctrl->cycle.stats_lock);
}

/**
 * dcm_cycle_stats_reset() - start the cycle's statistics again
 * @ctrl: the controller
 *
 * Every count, histogram and bus's count but the cycle number. The caller
 * checked the privilege.
 */
void dcm_cycle_stats_reset(struct dcm_controller *ctrl)
{
	spin_lock(&ctrl->cycle.stats_lock);
	stats_reset_locked(ctrl);
	spin_unlock(&ctrl->cycle.stats_lock);
}

/**
 * dcm_cycle_lane_stats() - what the cycle measured of one bus
 * @ctrl: the controller
 * @lane: the bus's index in the running description, below DCM_MAX_LANES
 * @out: a copy
 */
void dcm_cycle_lane_stats(struct dcm_controller *ctrl, u32 lane, struct dcm_lane_stats *out)
{
	spin_lock(&ctrl->cycle.stats_lock);
	*out = ctrl->cycle.stats->lane[lane];
	out->p50_ns = dcm_hist_percentile(&ctrl->cycle.stats->lane_hist[lane], 500000);
	out->p99_ns = dcm_hist_percentile(&ctrl->cycle.stats->lane_hist[lane], 990000);
	spin_unlock(&ctrl->cycle.stats_lock);
}

/**
 * dcm_cycle_step_stats() - the percentiles of one step of the cycle's work
 * @ctrl: the controller
 * @step: enum dcm_cycle_step
 * @pct: DCM_PCT_COUNT durations, ns: p50, p99, p99.9, max
 */
void dcm_cycle_step_stats(struct dcm_controller *ctrl, u32 step, u64 *pct)
{
	static const u32 ppm[DCM_PCT_COUNT] = { 500000, 990000, 999000, 1000000 };
	unsigned int i;

	spin_lock(&ctrl->cycle.stats_lock);
	for (i = 0; i < DCM_PCT_COUNT; i++)
		pct[i] = dcm_hist_percentile(&ctrl->cycle.stats->step[step], ppm[i]);
	spin_unlock(&ctrl->cycle.stats_lock);
}
