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
 * The cycle reads the runtime and the buses under SRCU, since its exchanges
 * sleep for the buses; replacing a description waits for the cycle in
 * progress (synchronize_srcu()) before freeing the old one.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/types.h>
#include <linux/wait.h>

#include "core/dcm_internal.h"
#include "core/dcm_board.h"
#include "core/dcm_runtime.h"
#include "model/dcm_grid.h"

#define CREATE_TRACE_POINTS
#include "core/dcm_trace.h"

/* Upper bounds of the wake-up latency histogram buckets, in ns. */
static const u64 latency_bounds[] = {
	10000, 20000, 50000, 100000, 200000, 500000, 1000000, 2000000, 5000000,
};

static void account(struct dcm_cycle_stats *st, u64 latency, u64 work)
{
	unsigned int b = 0;

	while (b < ARRAY_SIZE(latency_bounds) && latency >= latency_bounds[b])
		b++;
	st->latency_hist[b]++;
	if (latency > st->latency_max_ns)
		st->latency_max_ns = latency;
	st->last_ns = work;
	st->total_ns += work;
	if (work > st->max_ns)
		st->max_ns = work;
}

/*
 * The controller-wide stiffness rules of this cycle, and an event each time
 * one starts or stops acting.
 */
static void safety_cycle(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 now)
{
	struct dcm_safety *s = &ctrl->safety;
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

static int dcm_cycle_thread(void *data)
{
	struct dcm_controller *ctrl = data;
	ktime_t deadline;

	sched_set_fifo(current);
	deadline = ktime_add_us(ktime_get(), READ_ONCE(ctrl->period_us));

	while (!kthread_should_stop()) {
		u64 period = (u64)READ_ONCE(ctrl->period_us) * NSEC_PER_USEC;
		struct dcm_runtime *rt;
		ktime_t start, end;
		u64 late, work, overruns, advance;
		u32 now, b, stall;
		bool chained, overrun;
		int idx;

		/* A cycle fault on request (debugfs stall_ms), for the tests. */
		stall = xchg(&ctrl->stall_ms, 0);
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
		trace_dcm_cycle_start(ctrl->index, ctrl->cycle + 1, now, late);

		idx = srcu_read_lock(&ctrl->srcu);
		rt = srcu_dereference(ctrl->rt, &ctrl->srcu);
		if (rt) {
			dcm_runtime_actuate(rt, now);
			safety_cycle(ctrl, rt, now);
			dcm_boards_safety(rt, dcm_safety_scale(&ctrl->safety), now);
			for (b = 0; b < rt->n_buses; b++) {
				struct dcm_bus *t = srcu_dereference(rt->buses[b].bus, &ctrl->srcu);

				if (!t) {
					dcm_bus_missing(rt, b, now);
					continue;
				}
				/* Pairs with the release in dcm_bus_chain_work(). */
				chained = smp_load_acquire(&rt->buses[b].chained);
				/*
				 * A transport back after it went, or a bus where no
				 * board answered chaining a second ago (boards that
				 * power up late): chain it again. No board of it has a
				 * Bid then, so the chaining reset stops none.
				 */
				if (rt->buses[b].rechain ||
				    (t->kind == DCM_BUS_RS485 && chained && !rt->buses[b].n_chain &&
				     rt->buses[b].n_dev &&
				     time_after(jiffies, rt->buses[b].chain_retry))) {
					rt->buses[b].rechain = false;
					rt->buses[b].chain_more = false;
					rt->buses[b].chain_tries = 0;
					WRITE_ONCE(rt->buses[b].chained, false);
					rt->buses[b].chain_queued = false;
					chained = false;
				} else if (t->kind == DCM_BUS_RS485 && chained &&
					   dcm_bus_chain_short(&rt->buses[b])) {
					/* Boards missing at its end: look for them. */
					rt->buses[b].chain_more = true;
					rt->buses[b].chain_tries++;
					WRITE_ONCE(rt->buses[b].chained, false);
					rt->buses[b].chain_queued = false;
					chained = false;
				}
				/* An RS485 bus is chained first, in process context. */
				if (t->kind == DCM_BUS_RS485 && !chained) {
					if (!rt->buses[b].chain_queued) {
						rt->buses[b].chain_queued = true;
						schedule_work(&rt->buses[b].chain_work);
					}
					continue;
				}
				if (!mutex_trylock(&t->xfer_lock))
					continue;
				dcm_bus_exchange(rt, b, t, now);
				mutex_unlock(&t->xfer_lock);
			}
			dcm_runtime_publish(rt, now, ctrl->cycle + 1);
		}
		srcu_read_unlock(&ctrl->srcu, idx);

		end = ktime_get();
		work = ktime_to_ns(ktime_sub(end, start));
		trace_dcm_cycle_end(ctrl->index, ctrl->cycle + 1, work);
		/* The next deadline, on the grid; the points passed over are missed. */
		advance = dcm_grid_advance(late, period);
		deadline = ktime_add_ns(deadline, advance * period);
		spin_lock(&ctrl->stats_lock);
		ctrl->cycle++;
		account(&ctrl->stats, late, work);
		ctrl->stats.missed += advance - 1;
		/* A cycle that starts a period late or more has missed its slot. */
		overrun = late >= period;
		if (overrun)
			ctrl->stats.overruns++;
		overruns = ctrl->stats.overruns;
		spin_unlock(&ctrl->stats_lock);
		if (overrun) {
			struct dcm_event ev = { .type = DCM_EV_OVERRUN, .value = late,
						.count = (u32)min_t(u64, overruns, U32_MAX) };

			snprintf(ev.text, sizeof(ev.text),
				 "cycle %llu started %llu us late, %llu periods skipped",
				 ctrl->cycle, late / NSEC_PER_USEC, advance - 1);
			dcm_event_post(ctrl, &ev);
		}

		wake_up_interruptible_all(&ctrl->cycle_wq);
	}
	return 0;
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

	t = kthread_run(dcm_cycle_thread, ctrl, "dcm%d-cycle", ctrl->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	ctrl->cycle_task = t;
	return 0;
}

/**
 * dcm_cycle_stop() - stop a controller's cycle and wake its readers
 * @ctrl: the controller
 */
void dcm_cycle_stop(struct dcm_controller *ctrl)
{
	if (ctrl->cycle_task)
		kthread_stop(ctrl->cycle_task);
	ctrl->cycle_task = NULL;
	wake_up_interruptible_all(&ctrl->cycle_wq);
}

/**
 * dcm_cycle_stats() - a copy of a controller's cycle statistics
 * @ctrl: the controller
 * @out: the statistics in the ioctl layout
 */
void dcm_cycle_stats(struct dcm_controller *ctrl, struct dcm_ioc_stats *out)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	spin_lock(&ctrl->stats_lock);
	out->cycles = ctrl->cycle;
	out->overruns = ctrl->stats.overruns;
	out->missed = ctrl->stats.missed;
	out->last_ns = ctrl->stats.last_ns;
	out->mean_ns = ctrl->cycle ? div64_u64(ctrl->stats.total_ns, ctrl->cycle) : 0;
	out->max_ns = ctrl->stats.max_ns;
	out->latency_max_ns = ctrl->stats.latency_max_ns;
	for (i = 0; i < ARRAY_SIZE(out->latency_hist); i++)
		out->latency_hist[i] = ctrl->stats.latency_hist[i];
	spin_unlock(&ctrl->stats_lock);
}
