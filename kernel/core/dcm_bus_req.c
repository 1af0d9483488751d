// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the cycle owns every bus: a transfer outside the cycle's exchange
 * (chaining, a board's configuration, the chest board's store, a version
 * read, a special command) is a request queued to the bus, carried by the
 * cycle after that bus's exchange, and waited for by its caller outside
 * every dcm lock; nobody else touches the wire, so the cyclic exchange is
 * never skipped for it, and no lock orders the bus's users.
 *
 * Each cycle, the thread of the cycle that is on the bus (the bus's lane,
 * or the cycle thread) first exchanges, then carries the queued requests
 * in order, each only when the bus's budget holds it: the time left until
 * the cycle's join (DCM_BUS_BUDGET_PCT of the period), against the bus's
 * estimate of one request (the last ones' wire times). A request that does
 * not fit waits for the next cycle, never the cyclic traffic; the
 * estimate decays each time one waits, so that a request always gets its
 * turn, and a request that then ran past the budget costs at most the next
 * exchange of its own bus, which is counted (busy). A bus that has no
 * exchange this cycle (an RS485 bus being chained) gives the requests the
 * whole budget; a transport the running description lacks (the chest
 * board's bus while the first description is committed) is carried by the
 * cycle thread.
 *
 * The request lives in its caller's stack frame: the caller waits for it
 * (DCM_BUS_REQ_TIMEOUT_MS at most while it is queued, then -ETIMEDOUT) and
 * takes it back out of the queue if it was not carried. A transport that
 * goes (dcm_bus_req_close()) fails its queued requests with -ENODEV.
 */

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/dcm.h>

#include "core/dcm_bus_req.h"

/* struct dcm_bus_req.state */
enum {
	REQ_QUEUED,	/* in the bus's queue */
	REQ_CARRIED,	/* taken by the cycle: its transfer runs or ran */
};

/**
 * struct dcm_bus_req - a step queued to a bus
 * @node: in &struct dcm_bus.reqs
 * @run: the step: its transfers (dcm_bus_xfer(), made at once there)
 * @arg: @run's
 * @ret: what @run returned
 * @state: REQ_*, under &struct dcm_bus.reqs_lock
 * @done: completed once @ret is set
 */
struct dcm_bus_req {
	struct list_head node;
	int (*run)(struct dcm_bus *t, void *arg);
	void *arg;
	int ret;
	u8 state;
	struct completion done;
};

/* One transfer, as a step. */
struct xfer_args {
	u16 addr;
	const u8 *tx;
	size_t tx_len;
	u8 *rx;
	size_t rx_len;
};

static int xfer_run(struct dcm_bus *t, void *arg)
{
	struct xfer_args *x = arg;

	return t->ops->xfer(t, x->addr, x->tx, x->tx_len, x->rx, x->rx_len);
}

/**
 * dcm_bus_req_init() - a transport's request queue, empty and closed
 * @t: the transport being registered
 *
 * Requests are taken once a body claims the transport (dcm_bus_req_open()).
 */
void dcm_bus_req_init(struct dcm_bus *t)
{
	spin_lock_init(&t->reqs_lock);
	INIT_LIST_HEAD(&t->reqs);
	t->reqs_closed = true;
	t->req_ns = 0;
	t->in_cycle = 0;
	t->carrier = NULL;
}

/**
 * dcm_bus_run() - a step on a bus, carried by the cycle
 * @t: the transport
 * @run: the step: a few transfers with dcm_bus_xfer() (made at once
 *	there), a short sequence that belongs together (a register page
 *	loaded and read); run by the cycle after the bus's exchange, so it
 *	neither allocates nor takes a dcm lock, and sleeps for the bus only
 * @arg: @run's
 *
 * Queued to the bus and waited for (DOC at the top of dcm_bus_req.c).
 * From the thread of the cycle that is on @t, @run is called at once.
 * Context: the cycle on @t, or process context holding no lock the cycle
 * takes; sleeps until the step is done.
 *
 * Return: what @run returned; -ENODEV when the bus is not carried (its
 * transport went); -ETIMEDOUT when the cycle did not carry the step within
 * DCM_BUS_REQ_TIMEOUT_MS.
 */
int dcm_bus_run(struct dcm_bus *t, int (*run)(struct dcm_bus *t, void *arg), void *arg)
{
	struct dcm_bus_req r = { .run = run, .arg = arg, .state = REQ_QUEUED };

	if (READ_ONCE(t->carrier) == current)
		return run(t, arg);
	might_sleep();
	init_completion(&r.done);
	spin_lock(&t->reqs_lock);
	if (t->reqs_closed) {
		spin_unlock(&t->reqs_lock);
		return -ENODEV;
	}
	list_add_tail(&r.node, &t->reqs);
	spin_unlock(&t->reqs_lock);

	if (wait_for_completion_timeout(&r.done, msecs_to_jiffies(DCM_BUS_REQ_TIMEOUT_MS)))
		return r.ret;
	spin_lock(&t->reqs_lock);
	if (r.state == REQ_QUEUED) {
		list_del(&r.node);
		spin_unlock(&t->reqs_lock);
		return -ETIMEDOUT;
	}
	spin_unlock(&t->reqs_lock);
	/* Carried meanwhile: it ends within the transport's own windows. */
	wait_for_completion(&r.done);
	return r.ret;
}

/**
 * dcm_bus_xfer() - a transaction on a bus, carried by the cycle
 * @t: the transport
 * @addr: the board's address (&struct dcm_bus_ops.xfer)
 * @tx: what to write
 * @tx_len: bytes of @tx
 * @rx: where to read
 * @rx_len: bytes of @rx
 *
 * The one way to a bus: in the cycle's exchange (or a step it carries),
 * the transfer is made at once; from anywhere else it is a step of its own
 * (dcm_bus_run()). Context: as dcm_bus_run().
 *
 * Return: as &struct dcm_bus_ops.xfer, or as dcm_bus_run().
 */
int dcm_bus_xfer(struct dcm_bus *t, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
		 size_t rx_len)
{
	struct xfer_args x = {
		.addr = addr, .tx = tx, .tx_len = tx_len, .rx = rx, .rx_len = rx_len,
	};

	if (READ_ONCE(t->carrier) == current)
		return t->ops->xfer(t, addr, tx, tx_len, rx, rx_len);
	return dcm_bus_run(t, xfer_run, &x);
}

/**
 * dcm_bus_xfer_many() - a batch of transactions in the cycle's exchange
 * @t: the transport, the caller the thread of the cycle on it
 * @x: the transactions
 * @n: how many, at most DCM_XFER_MANY_MAX
 *
 * Made at once, in one go (&struct dcm_bus_ops.xfer_many). Context: the
 * cycle on @t; sleeps for the bus.
 *
 * Return: as &struct dcm_bus_ops.xfer_many; -EOPNOTSUPP when the transport
 * makes no batch; -EPERM, with a warning, from a thread not on @t.
 */
int dcm_bus_xfer_many(struct dcm_bus *t, const struct dcm_xfer *x, unsigned int n)
{
	if (WARN_ON_ONCE(READ_ONCE(t->carrier) != current))
		return -EPERM;
	if (!t->ops->xfer_many)
		return -EOPNOTSUPP;
	return t->ops->xfer_many(t, x, n);
}

/**
 * dcm_bus_take() - a thread of the cycle goes on a bus
 * @t: the transport
 *
 * The cycle's threads take turns on a bus without waiting: the bus's lane
 * normally, but a late exchange of a runtime being replaced may still be
 * on it under another bus index. Process context never takes it (it
 * queues requests). Context: the cycle thread or a lane.
 *
 * Return: true when the bus is the caller's until dcm_bus_give(); false
 * when another thread of the cycle is on it (the caller leaves it for this
 * cycle, counted busy).
 */
bool dcm_bus_take(struct dcm_bus *t)
{
	if (test_and_set_bit_lock(0, &t->in_cycle))
		return false;
	WRITE_ONCE(t->carrier, current);
	return true;
}

/**
 * dcm_bus_give() - the thread of the cycle leaves the bus
 * @t: the transport, taken with dcm_bus_take()
 */
void dcm_bus_give(struct dcm_bus *t)
{
	WRITE_ONCE(t->carrier, NULL);
	clear_bit_unlock(0, &t->in_cycle);
}

/**
 * dcm_bus_req_pending() - whether requests wait on a bus
 * @t: the transport
 *
 * Return: true when its queue is not empty.
 */
bool dcm_bus_req_pending(struct dcm_bus *t)
{
	return !list_empty_careful(&t->reqs);
}

/* The estimate of a request's time after one took @ns: up at once, down slowly. */
static void estimate(struct dcm_bus *t, u64 ns)
{
	if (ns >= t->req_ns)
		t->req_ns = ns;
	else
		t->req_ns -= (t->req_ns - ns) / 8;
}

/**
 * dcm_bus_req_carry() - carry a bus's queued steps, within its budget
 * @t: the transport, taken (dcm_bus_take())
 * @until: the end of the budget: the cycle's join
 * @c: what was carried and deferred, added to
 *
 * In order, each request whose estimate fits before @until; the first that
 * does not waits for a later cycle, with those behind it, and the estimate
 * decays by an eighth. Context: the cycle on @t; sleeps for the bus.
 */
void dcm_bus_req_carry(struct dcm_bus *t, ktime_t until, struct dcm_bus_carry *c)
{
	struct dcm_bus_req *r;
	ktime_t start;

	/* Most cycles nothing waits: no lock taken for them. */
	if (!dcm_bus_req_pending(t))
		return;
	for (;;) {
		spin_lock(&t->reqs_lock);
		r = list_first_entry_or_null(&t->reqs, struct dcm_bus_req, node);
		if (r && ktime_after(ktime_add_ns(ktime_get(), t->req_ns), until)) {
			t->req_ns -= t->req_ns / 8;
			c->deferred++;
			r = NULL;
		}
		if (r) {
			list_del(&r->node);
			r->state = REQ_CARRIED;
		}
		spin_unlock(&t->reqs_lock);
		if (!r)
			return;
		start = ktime_get();
		r->ret = r->run(t, r->arg);
		estimate(t, ktime_to_ns(ktime_sub(ktime_get(), start)));
		c->carried++;
		/* The request is its caller's again: not touched after this. */
		complete(&r->done);
	}
}

/**
 * dcm_bus_req_open() - a body claims the transport: requests are taken
 * @t: the transport
 */
void dcm_bus_req_open(struct dcm_bus *t)
{
	spin_lock(&t->reqs_lock);
	t->reqs_closed = false;
	spin_unlock(&t->reqs_lock);
}

/**
 * dcm_bus_req_close() - the cycle carries the transport no more
 * @t: the transport
 * @err: what its queued requests and the next ones fail with
 *
 * A request the cycle is carrying ends as it would; the queued ones are
 * completed with @err at once, and new ones refused until
 * dcm_bus_req_open().
 */
void dcm_bus_req_close(struct dcm_bus *t, int err)
{
	struct dcm_bus_req *r, *next;
	LIST_HEAD(gone);

	spin_lock(&t->reqs_lock);
	t->reqs_closed = true;
	list_for_each_entry(r, &t->reqs, node)
		r->state = REQ_CARRIED;
	list_splice_init(&t->reqs, &gone);
	spin_unlock(&t->reqs_lock);
	list_for_each_entry_safe(r, next, &gone, node) {
		r->ret = err;
		complete(&r->done);
	}
}
