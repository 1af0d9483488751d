// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the boards of an RS485 bus, generic over their types: the cyclic
 * broadcast and its replies, chaining, configuration and identity.
 *
 * Each cycle, an RS485 bus gets one broadcast with a slot per board in Bid
 * order (the board's place on the bus), each filled by its type, and the
 * boards' replies go to their types. A board that does not answer counts a
 * Nack and an error of level 7. At start-up, and on the special commands,
 * the bus is chained (Bids given by BoardId, place by place) in process
 * context, and each board's type takes its identity and sends it its
 * configuration. What the kind asks of a board's type is the type's
 * &struct dcm_board_rs485 (dcm_bus_rs485.h).
 */

#include <linux/dcm.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/dcm_board_type.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_rs485.h"
#include "core/dcm_controller.h"
#include "wire/dcm_rs485.h"

/**
 * struct rs485_bus - an RS485 bus's own state, the kind's
 *	(&struct dcm_rt_bus.kind_priv)
 * @b: the bus
 * @seq: the cyclic exchange's sequence number
 * @chain_work: the chaining, in process context
 * @chain_queued: the cycle's: @chain_work was queued; the cycle leaves the
 *	bus to it
 * @chained: chaining ran: the cycle exchanges with the bus
 * @chain: what chaining found, Bid and BoardId by place
 * @n_chain: entries of @chain
 * @chain_retry: jiffies after which a bus whose chaining found no board
 *	is chained again, or one whose chain ends short is continued
 * @chain_tries: the cycle's: continuations of a short chain so far
 * @chain_more: set by the cycle before it queues @chain_work: continue the
 *	chain from its end, without a reset
 * @txbuf: the cyclic exchange's broadcast
 * @rxbuf: the cyclic exchange's replies, as they came
 * @rx: the reader of the replies
 */
struct rs485_bus {
	struct dcm_rt_bus *b;
	u8 seq;
	struct work_struct chain_work;
	bool chain_queued;
	bool chained;
	struct dcm_chain_entry chain[DCM_RS485_MAX_BOARDS];
	u32 n_chain;
	unsigned long chain_retry;
	u8 chain_tries;
	bool chain_more;
	u8 txbuf[DCM_RS485_MAX_FRAME];
	u8 rxbuf[DCM_RS485_MAX_BOARDS * DCM_RS485_REPLY_SLOT];
	struct dcm_rs485_replies rx;
};

/* An RS485 bus's own state; NULL for a bus the kind did not prepare. */
static struct rs485_bus *rs485(const struct dcm_rt_bus *b)
{
	return b->kind_priv[DCM_BUS_RS485];
}

/* What the kind asks of a device's type; NULL for a board of another kind. */
static const struct dcm_board_rs485 *rs485_board(const struct dcm_runtime *rt, u32 dev)
{
	return rt->dev[dev].type->rs485;
}

/* A reply the reader found: whose, and what it says. */
static void rs485_reply(struct dcm_runtime *rt, struct dcm_rt_bus *b, bool *answered,
			const struct dcm_rs485_reply *reply, u32 now)
{
	const struct dcm_board_rs485 *rb;
	u32 dev;

	/* The reader gives each Bid of the broadcast once at most. */
	answered[reply->bid - 1] = true;
	dev = b->dev[reply->bid - 1];
	rb = rs485_board(rt, dev);
	if (rb && rb->reply)
		rb->reply(rt, dev, reply, now);
	else
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/**
 * rs485_exchange() - an RS485 bus's cycle: broadcast, replies
 * @rt: the runtime
 * @b: the bus
 * @t: its transport, the cycle on it
 * @now: the cycle's DCM time
 *
 * The frame is built and sent, and the replies gathered and read, with the
 * bus's own scratch; the replies become values, each under the runtime's
 * values_lock, which the cycle publishes under: what an exchange that ends
 * after the cycle's join brings shows in the next snapshots. Context: the bus's
 * lane (or the cycle thread); sleeps for the bus.
 */
static void rs485_exchange(struct dcm_runtime *rt, struct dcm_rt_bus *b, struct dcm_bus *t, u32 now)
{
	struct dcm_rs485_slot slots[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_reply replies[DCM_RS485_MAX_BOARDS];
	bool answered[DCM_RS485_MAX_BOARDS] = { };
	u32 n = min_t(u32, b->n_dev, DCM_RS485_MAX_BOARDS), i, k = 0;
	struct rs485_bus *r = rs485(b);
	int len, got;
	u8 source;

	/* A board whose type fills nothing has a slot of zeros. */
	memset(slots, 0, sizeof(slots));
	for (i = 0; i < n; i++) {
		const struct dcm_board_rs485 *rb = rs485_board(rt, b->dev[i]);

		if (rb && rb->slot)
			rb->slot(rt, b->dev[i], &slots[i]);
	}
	len = dcm_rs485_put_cmd(r->txbuf, sizeof(r->txbuf), ++r->seq, slots, n);
	/*
	 * Every board answers one compact reply, whose length the protocol
	 * fixes: the transport is done on the last byte of the last one, and
	 * waits out a silence only when a board is missing.
	 */
	got = len < 0 ? len : dcm_bus_xfer(t, DCM_RS485_ADDR_BROADCAST, r->txbuf, len,
					   r->rxbuf, n * DCM_RS485_REPLY_FRAME);

	/*
	 * The replies come back to back in Bid order, a silent board's
	 * missing; each says by its CRC (seeded with the Bid and this cycle's
	 * SEQ) whose it is. Bytes that are no reply are skipped. They are
	 * read, CRCs and all, first: each Bid once at most, so n replies at
	 * most. Then each board's type takes its reply (each value written
	 * under the runtime's values_lock, dcm_runtime_sense()).
	 */
	dcm_rs485_replies_init(&r->rx, r->rxbuf, got > 0 ? got : 0, r->seq, n);
	while (k < n && dcm_rs485_replies_next(&r->rx))
		replies[k++] = r->rx.reply;

	for (i = 0; i < k; i++)
		rs485_reply(rt, b, answered, &replies[i], now);
	source = r->rx.bad ? DCM_ERR_BAD_FRAME : DCM_ERR_NO_ANSWER;
	for (i = 0; i < n; i++)
		if (!answered[i])
			dcm_runtime_answer(rt, b->dev[i], false, source, 7, 0, now);
}

/*
 * One addressed request of chaining and its answer, parsed; -ETIMEDOUT if
 * none. A request that changes nothing (a query, an IDENT) is sent up to
 * @tries times: a reply lost on the line must not end the chain.
 */
static int chain_request(struct dcm_board_buf *xb, struct dcm_bus *t, u8 addr, int len,
			 struct dcm_rs485_frame *f, int tries)
{
	int got;

	if (len < 0)
		return len;
	do {
		got = dcm_bus_xfer(t, addr, xb->tx, len, xb->rx, DCM_RS485_MAX_FRAME);
		if (got > 0 && dcm_rs485_parse_frame(xb->rx, got, f) >= 0)
			return 0;
	} while (--tries > 0);
	if (got <= 0)
		return got ? got : -ETIMEDOUT;
	return -EBADMSG;
}

/*
 * Give the board being chained, @board_id, the Bid @bid. An assignment is
 * sent again only when the board has not taken it: if its answer was lost,
 * the board has the Bid and answers an IDENT there.
 */
static int chain_assign(struct dcm_board_buf *xb, struct dcm_bus *t, u32 board_id, u8 bid)
{
	struct dcm_rs485_ident id;
	struct dcm_rs485_frame f;
	u32 got_id;
	int tries, len;
	u8 got_bid;

	for (tries = 0; tries < 3; tries++) {
		len = dcm_rs485_put_assign(xb->tx, sizeof(xb->tx), false, board_id, bid);
		if (!chain_request(xb, t, DCM_RS485_ADDR_UNASSIGNED, len, &f, 1) &&
		    !dcm_rs485_get_assign(&f, &got_id, &got_bid))
			return got_id == board_id && got_bid == bid ? 0 : -EIO;
		len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), bid, DCM_RS485_IDENT, NULL, 0);
		if (!chain_request(xb, t, bid, len, &f, 2) && !dcm_rs485_get_ident(&f, &id))
			return id.board_id == board_id ? 0 : -EIO;
	}
	return -ETIMEDOUT;
}

/**
 * struct chain_run - a chain being made, as a step the cycle carries
 * @xb: the buffers
 * @more: continue the chain from @from, without a reset; one try of each
 *	query, not three
 * @from: the first place looked for
 * @n: the places the bus has
 * @found: out: the places chained, from 0
 * @id: out: what each board chained said
 */
struct chain_run {
	struct dcm_board_buf xb;
	bool more;
	u32 from;
	u32 n;
	u32 found;
	struct dcm_rs485_ident id[DCM_RS485_MAX_BOARDS];
};

/*
 * The board at place @pos: the first board without a Bid says who it is and
 * takes the place's Bid. Continuing, the first board looked for may have
 * taken its Bid while its answer was lost: it answers an IDENT there.
 */
static int chain_find(struct chain_run *cr, struct dcm_bus *t, u32 pos)
{
	struct dcm_board_buf *xb = &cr->xb;
	struct dcm_rs485_ident *id = &cr->id[pos];
	struct dcm_rs485_frame f;
	u8 bid = pos + 1;
	int len;

	len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), bid, DCM_RS485_IDENT, NULL, 0);
	if (cr->more && pos == cr->from && !chain_request(xb, t, bid, len, &f, 1) &&
	    !dcm_rs485_get_ident(&f, id))
		return 0;
	len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), DCM_RS485_ADDR_UNASSIGNED,
				  DCM_RS485_CHAIN_QUERY, NULL, 0);
	if (chain_request(xb, t, DCM_RS485_ADDR_UNASSIGNED, len, &f, cr->more ? 1 : 3) ||
	    dcm_rs485_get_ident(&f, id) || chain_assign(xb, t, id->board_id, bid))
		return -ENODEV;
	return 0;
}

/*
 * The chain, one step the cycle carries (dcm_bus_run()) while the bus has
 * no exchange: the boards forget their Bids (unless continuing), then
 * place by place each takes its Bid, until one does not answer. Its
 * transfers only: what the boards said is taken in process context.
 */
static int chain_step(struct dcm_bus *t, void *arg)
{
	struct chain_run *cr = arg;
	struct dcm_board_buf *xb = &cr->xb;
	u32 pos;
	int len;

	if (!cr->more) {
		len = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), DCM_RS485_ADDR_BROADCAST,
					  DCM_RS485_CHAIN_RESET, NULL, 0);
		if (len > 0)
			dcm_bus_xfer(t, DCM_RS485_ADDR_BROADCAST, xb->tx, len, NULL, 0);
	}
	cr->found = cr->from;
	for (pos = cr->from; pos < cr->n && !chain_find(cr, t, pos); pos++)
		cr->found = pos + 1;
	return 0;
}

/**
 * dcm_buses_chain_text() - what the last chaining of each RS485 bus found
 * @rt: the runtime
 * @text: where it goes, "RS485-1 5/5; RS485-2 4/4": per bus chained, the
 *	boards chained of those the description has; "" when none is
 * @size: bytes of @text
 *
 * Return: the length of @text.
 */
int dcm_buses_chain_text(struct dcm_runtime *rt, char *text, size_t size)
{
	int len = 0;
	u32 b;

	text[0] = '\0';
	for (b = 0; b < rt->n_buses; b++) {
		struct dcm_rt_bus *bus = &rt->buses[b];
		struct rs485_bus *r = rs485(bus);

		/* Pairs with the release at the end of dcm_bus_chain_work(). */
		if (!r || !smp_load_acquire(&r->chained))
			continue;
		len += scnprintf(text + len, size - len, "%s%s %u/%u", len ? "; " : "",
				 bus->name, r->n_chain,
				 min_t(u32, bus->n_dev, DCM_RS485_MAX_BOARDS));
	}
	return len;
}

/**
 * dcm_boards_chain_result() - write the ChainResult key
 * @rt: the runtime
 *
 * dcm_buses_chain_text(), in the ChainResult key of the first device whose
 * Type has one (the chest board); each motor board's own keys say its Bid
 * and BoardId. Context: process.
 */
void dcm_boards_chain_result(struct dcm_runtime *rt)
{
	struct dcm_controller *ctrl = rt->ctrl;
	union dcm_value *v = NULL;
	char *text, *old;
	u32 d;

	for (d = 0; d < rt->model->n_devices && !v; d++)
		v = dcm_board_dev_key(rt->model, d, "ChainResult");
	if (!v)
		return;
	text = kzalloc(DCM_MAX_STRING_LEN, GFP_KERNEL);
	if (!text)
		return;
	dcm_buses_chain_text(rt, text, DCM_MAX_STRING_LEN);
	mutex_lock(&ctrl->desc.keys_lock);
	old = v->str;
	v->str = text;
	mutex_unlock(&ctrl->desc.keys_lock);
	kfree(old);
}

/**
 * chain_short() - whether to look for the boards a chain lacks
 * @r: an RS485 bus, chained
 *
 * A chain that found some of the bus's boards but not all (a board whose
 * answer was lost, one that powered up late) is continued from its end,
 * where the next board's chain-in is active: the boards chained keep their
 * Bids. Each try is one query carried by the cycle; they are a second apart,
 * and DCM_CHAIN_TRIES at most. Context: the cycle thread.
 *
 * Return: true when a continuation is due.
 */
static bool chain_short(const struct rs485_bus *r)
{
	return r->n_chain && r->n_chain < min_t(u32, r->b->n_dev, DCM_RS485_MAX_BOARDS) &&
	       r->chain_tries < DCM_CHAIN_TRIES && time_after(jiffies, r->chain_retry);
}

/**
 * dcm_buses_chaining() - whether an RS485 bus of a runtime is being chained
 * @rt: the runtime
 *
 * A bus with a transport whose chain is not made yet: at start-up, and
 * while a special command chains it again. Context: any.
 *
 * Return: true while one is.
 */
bool dcm_buses_chaining(struct dcm_runtime *rt)
{
	struct dcm_controller *ctrl = rt->ctrl;
	bool chaining = false;
	struct dcm_bus *t;
	int idx;
	u32 b;

	idx = srcu_read_lock(&ctrl->srcu);
	for (b = 0; b < rt->n_buses && !chaining; b++) {
		t = srcu_dereference(rt->buses[b].bus, &ctrl->srcu);
		if (!t || t->kind != DCM_BUS_RS485 || !rs485(&rt->buses[b]))
			continue;
		/* Pairs with the release at the end of dcm_bus_chain_work(). */
		chaining = !smp_load_acquire(&rs485(&rt->buses[b])->chained);
	}
	srcu_read_unlock(&ctrl->srcu, idx);
	return chaining;
}

/**
 * dcm_board_configure() - send a board its configuration again
 * @rt: the runtime
 * @dev: the device index, of a type with a configuration (a motor board)
 *
 * The structure is built from the keys as they are now (a new
 * jointZeroPosition, for one) and sent to the board's Bid, which chaining
 * gave it. Context: process; the request is carried by the cycle.
 *
 * Return: 0; -EINVAL for a type without a configuration (no &struct
 * dcm_board_rs485.configure); -ENODEV when the board was not chained or its
 * bus has no transport; -EIO when it did not take it; -ENOMEM.
 */
int dcm_board_configure(struct dcm_runtime *rt, u32 dev)
{
	const struct dcm_board_rs485 *rb = rs485_board(rt, dev);
	struct dcm_rt_bus *b = &rt->buses[rt->dev[dev].bus];
	u32 pos = rt->dev[dev].pos;
	struct dcm_board_buf *xb;
	struct rs485_bus *r;
	struct dcm_bus *t;
	int idx, ret = -ENODEV;

	if (!rb || !rb->configure)
		return -EINVAL;
	xb = kmalloc(sizeof(*xb), GFP_KERNEL);
	if (!xb)
		return -ENOMEM;
	idx = srcu_read_lock(&rt->ctrl->srcu);
	t = srcu_dereference(b->bus, &rt->ctrl->srcu);
	r = rs485(b);
	/* Pairs with the release at the end of dcm_bus_chain_work(). */
	if (t && t->kind == DCM_BUS_RS485 && r && smp_load_acquire(&r->chained) &&
	    pos < r->n_chain) {
		ret = rb->configure(rt, dev, t, r->chain[pos].bid, xb);
	}
	srcu_read_unlock(&rt->ctrl->srcu, idx);
	kfree(xb);
	return ret;
}

/**
 * dcm_bus_chain_work() - chain the boards of an RS485 bus, at start-up
 * @work: &struct dcm_rt_bus.chain_work
 *
 * The boards forget their Bids (CHAIN_RESET); then, place by place, the
 * first board without a Bid says who it is (CHAIN_QUERY) and gets the next
 * Bid by its BoardId (CHAIN_ASSIGN), which enables the board after it. The
 * devices of the bus take the Bids in their order in the description; each
 * board's type takes what it said (a motor board's Bid, BoardId, BoardId2,
 * BootLoaderVersion, ProgVersion and StructVersion keys) and sends it its
 * configuration (a motor board's: jointZeroPosition and the joints' other
 * configuration keys); the ChainResult key lists every bus's chain. The bus
 * is then the cycle's. A bus where no board answered is chained again a
 * second later, until one does (boards that power up after the head); a
 * chain that ends short of the description's boards is continued from its
 * end, without a reset, once a second DCM_CHAIN_TRIES times
 * (chain_short()).
 * Context: a workqueue; its transfers are requests the cycle carries
 * (dcm_bus_xfer()), the bus having no exchange meanwhile; holds the
 * controller's SRCU.
 */
static void dcm_bus_chain_work(struct work_struct *work)
{
	struct rs485_bus *r = container_of(work, struct rs485_bus, chain_work);
	struct dcm_rt_bus *b = r->b;
	struct dcm_runtime *rt = b->rt;
	struct dcm_controller *ctrl = rt->ctrl;
	const struct dcm_board_rs485 *rb;
	struct chain_run *cr;
	struct dcm_bus *t;
	u32 pos, dev, before;
	int idx;

	idx = srcu_read_lock(&ctrl->srcu);
	t = srcu_dereference(b->bus, &ctrl->srcu);
	cr = kzalloc(sizeof(*cr), GFP_KERNEL);
	if (!t || !cr)
		goto out;
	/* Set by the cycle before it queued this work. */
	cr->more = r->chain_more;
	r->chain_more = false;
	cr->n = min_t(u32, b->n_dev, DCM_RS485_MAX_BOARDS);
	before = r->n_chain;
	if (!cr->more) {
		r->n_chain = 0;
		for (pos = 0; pos < b->n_dev; pos++) {
			rb = rs485_board(rt, b->dev[pos]);
			if (rb && rb->unchained)
				rb->unchained(rt, b->dev[pos]);
		}
	}
	cr->from = r->n_chain;
	if (dcm_bus_run(t, chain_step, cr))
		cr->found = cr->from;
	for (pos = cr->from; pos < cr->found; pos++) {
		r->chain[pos].bid = pos + 1;
		r->chain[pos].board_id = cr->id[pos].board_id;
		r->n_chain = pos + 1;
		dev = b->dev[pos];
		rb = rs485_board(rt, dev);
		if (rb && rb->identified)
			rb->identified(rt, dev, &cr->id[pos], pos + 1);
		if (rb && rb->configure)
			rb->configure(rt, dev, t, pos + 1, &cr->xb);
	}
	if (!cr->more || r->n_chain != before)
		dev_info(&ctrl->dev, "%s: %u of %u boards chained\n", b->name, r->n_chain, cr->n);
out:
	kfree(cr);
	r->chain_retry = jiffies + HZ;
	/* The keys and the chain are written before the cycle may see this. */
	smp_store_release(&r->chained, true);
	dcm_boards_chain_result(rt);
	srcu_read_unlock(&ctrl->srcu, idx);
}

/**
 * rs485_version() - an RS485 board's identity, from its Bid
 * @rt: the runtime
 * @dev: the device index
 * @t: the transport of its bus
 * @xb: buffers for the request
 * @version: its ProgVersion, as a string
 * @len: bytes of @version
 *
 * The board's type takes the identity (a motor board's keys). Context:
 * process; the request is carried by the cycle.
 *
 * Return: 0; -ENODEV when the board is not chained; -ETIMEDOUT, -EBADMSG or
 * a negative errno when it did not answer well.
 */
static int rs485_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
			 struct dcm_board_buf *xb, char *version, size_t len)
{
	const struct dcm_board_rs485 *rb = rs485_board(rt, dev);
	const struct rs485_bus *r = rs485(&rt->buses[rt->dev[dev].bus]);
	u32 pos = rt->dev[dev].pos;
	struct dcm_rs485_ident id;
	struct dcm_rs485_frame f;
	int n, got;

	/* Pairs with the release at the end of dcm_bus_chain_work(). */
	if (!r || !smp_load_acquire(&r->chained) || pos >= r->n_chain)
		return -ENODEV;
	n = dcm_rs485_put_frame(xb->tx, sizeof(xb->tx), r->chain[pos].bid, DCM_RS485_IDENT,
				NULL, 0);
	if (n < 0)
		return n;
	got = dcm_bus_xfer(t, r->chain[pos].bid, xb->tx, n, xb->rx, sizeof(xb->rx));
	if (got <= 0)
		return got ? got : -ETIMEDOUT;
	if (dcm_rs485_parse_frame(xb->rx, got, &f) < 0 || dcm_rs485_get_ident(&f, &id) ||
	    f.addr != r->chain[pos].bid)
		return -EBADMSG;
	if (rb && rb->identified)
		rb->identified(rt, dev, &id, r->chain[pos].bid);
	snprintf(version, len, "%u", id.prog_version);
	return 0;
}

/*
 * Whether an RS485 bus is the cycle's this time: chained, or else left to
 * (or given to) its chaining work.
 */
static bool rs485_ready(struct dcm_runtime *rt, u32 b, struct dcm_bus *t)
{
	struct dcm_rt_bus *rb = &rt->buses[b];
	struct rs485_bus *r = rs485(rb);
	bool chained;

	/* A bus the kind did not prepare (no memory for it) never runs. */
	if (!r)
		return false;
	/* Pairs with the release in dcm_bus_chain_work(). */
	chained = smp_load_acquire(&r->chained);
	/*
	 * A transport back after it went, or a bus where no board answered
	 * chaining a second ago (boards that power up late): chain it again.
	 * No board of it has a Bid then, so the chaining reset stops none.
	 */
	if (rb->rechain ||
	    (chained && !r->n_chain && rb->n_dev && time_after(jiffies, r->chain_retry))) {
		rb->rechain = false;
		r->chain_more = false;
		r->chain_tries = 0;
		WRITE_ONCE(r->chained, false);
		r->chain_queued = false;
		chained = false;
	} else if (chained && chain_short(r)) {
		/* Boards missing at its end: look for them. */
		r->chain_more = true;
		r->chain_tries++;
		WRITE_ONCE(r->chained, false);
		r->chain_queued = false;
		chained = false;
	}
	/* An RS485 bus is chained first, in process context. */
	if (!chained && !r->chain_queued) {
		r->chain_queued = true;
		schedule_work(&r->chain_work);
	}
	return chained;
}

/* The special commands' chaining: the cycle leaves the bus alone from its next look at it. */
static bool rs485_rechain(struct dcm_runtime *rt, u32 b)
{
	struct rs485_bus *r = rs485(&rt->buses[b]);

	if (!r)
		return false;
	WRITE_ONCE(r->chained, false);
	queue_work(system_wq, &r->chain_work);
	return true;
}

/**
 * dcm_bus_chain_flush() - wait for an RS485 bus's chaining to end
 * @b: the bus, its chaining queued (&struct dcm_bus_kind_ops.rechain)
 *
 * Context: process; holds no lock the chaining takes.
 */
void dcm_bus_chain_flush(struct dcm_rt_bus *b)
{
	if (rs485(b))
		flush_work(&rs485(b)->chain_work);
}

/*
 * A new runtime's bus gets its own state and its chaining, which the cycle
 * and the special commands queue; its boards' error codes are decoded by
 * their types (&struct dcm_rt_device.error).
 */
static int rs485_prepare(struct dcm_runtime *rt, struct dcm_rt_bus *b)
{
	struct rs485_bus *r = kzalloc(sizeof(*r), GFP_KERNEL);
	const struct dcm_board_rs485 *rb;
	u32 i;

	if (!r)
		return -ENOMEM;
	for (i = 0; i < b->n_dev; i++) {
		rb = rs485_board(rt, b->dev[i]);
		rt->dev[b->dev[i]].error = rb ? rb->error : NULL;
	}
	r->b = b;
	INIT_WORK(&r->chain_work, dcm_bus_chain_work);
	b->kind_priv[DCM_BUS_RS485] = r;
	return 0;
}

/* A runtime's bus goes: its chaining ends first. */
static void rs485_release(struct dcm_rt_bus *b)
{
	struct rs485_bus *r = rs485(b);

	if (!r)
		return;
	cancel_work_sync(&r->chain_work);
	kfree(r);
	b->kind_priv[DCM_BUS_RS485] = NULL;
}

const struct dcm_bus_kind_ops dcm_bus_rs485_kind = {
	.what = "an RS485 line",
	.prefixes = (const char *const []){ "RS485", NULL },
	.ready = rs485_ready,
	.exchange = rs485_exchange,
	.version = rs485_version,
	.rechain = rs485_rechain,
	.prepare = rs485_prepare,
	.release = rs485_release,
};
