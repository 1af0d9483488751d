// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a register bus (DCM_BUS_REGS: I2C or SPI). Each cycle, every
 * board's type puts its transactions (its &struct dcm_board_regs.put): the
 * blocks it writes and those it reads, into its private area; the kind
 * makes them all in one go on the wire (&struct dcm_bus_ops.xfer_many:
 * one I2C transfer, a repeated start between them), so that the bus waits
 * for its wire once, not once per board; then each board takes what it
 * read (its get). A board whose reads call for more (a sonar's new echoes)
 * puts them there, and the kind makes a second round for those.
 *
 * A batch that fails does not say which transaction did: its boards are
 * then exchanged one by one, and a board that failed goes on alone (its
 * transactions on their own, in its turn) until it answers again, so that
 * a board that does not answer costs the others nothing. A transport that
 * makes no batch (SPI, an I2C adapter with quirks) gets the transactions
 * one by one. The register helpers here are also those of the requests
 * outside the cycle (the chest store, the versions)
 * (Documentation/dcm/wire-protocol.rst, "Register maps").
 */

#include <linux/dcm.h>
#include <linux/kernel.h>
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "core/dcm_board_type.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_regs.h"
#include "wire/dcm_regs.h"

/**
 * dcm_reg_write() - write a register block
 * @t: the transport (dcm_bus_xfer())
 * @addr: the board's address
 * @buf: scratch of @len + 1 bytes: the register, then @data
 * @reg: the first register
 * @data: what to write
 * @len: how many bytes
 *
 * Return: 0 or a negative errno.
 */
int dcm_reg_write(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, const u8 *data, u32 len)
{
	int ret;

	buf[0] = reg;
	memcpy(buf + 1, data, len);
	ret = dcm_bus_xfer(t, addr, buf, len + 1, NULL, 0);
	return ret < 0 ? ret : 0;
}

/**
 * dcm_reg_read() - read a register block
 * @t: the transport (dcm_bus_xfer())
 * @addr: the board's address
 * @buf: scratch of one byte: the register
 * @reg: the first register
 * @data: what was read
 * @len: how many bytes
 *
 * Return: 0, -EIO for a short read, or a negative errno.
 */
int dcm_reg_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len)
{
	int ret;

	buf[0] = reg;
	ret = dcm_bus_xfer(t, addr, buf, 1, data, len);
	return ret < 0 ? ret : ret == len ? 0 : -EIO;
}

/**
 * dcm_reg_spi_read() - read registers of an SPI board, checked by its CRC-8
 * @t: the transport (dcm_bus_xfer())
 * @cs: the board's chip select
 * @tx: scratch for what goes out
 * @rx: scratch for what comes back
 * @size: bytes of @tx and of @rx
 * @reg: the first register
 * @data: what was read
 * @count: how many bytes
 *
 * Return: 0, -EIO when the transfer failed or was short, -EBADMSG for a
 * bad check, -EINVAL for a bad @reg or @count.
 */
int dcm_reg_spi_read(struct dcm_bus *t, u16 cs, u8 *tx, u8 *rx, size_t size, u8 reg, u8 *data,
		     u32 count)
{
	int len, got;

	len = dcm_spi_put_read(tx, size, reg, count);
	if (len < 0)
		return len;
	got = dcm_bus_xfer(t, cs, tx, len, rx, len);
	if (got != len)
		return -EIO;
	return dcm_spi_get_read(rx, len, reg, count, data);
}

/**
 * dcm_reg_answer() - a register board's Ack, or its Nack
 * @rt: the runtime
 * @dev: the device index
 * @ret: what its transfers returned: 0 is an Ack, else a Nack and a "no
 *	answer" error of level 7
 * @now: the cycle's DCM time
 */
void dcm_reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now)
{
	if (ret)
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
	else
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/**
 * dcm_board_read() - read a register block outside the cycle
 * @t: the transport: the read is a request the cycle carries
 * @addr: the board's address
 * @buf: scratch of one byte
 * @reg: the first register
 * @data: what was read
 * @len: how many bytes
 *
 * Context: process.
 *
 * Return: as dcm_reg_read(); -EINVAL on a bus that is no register bus, or
 * an address no I2C board has.
 */
int dcm_board_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len)
{
	int ret = -EINVAL;

	if (t->kind == DCM_BUS_REGS && addr <= 0x7f)
		ret = dcm_reg_read(t, addr, buf, reg, data, len);
	return ret;
}

/**
 * struct regs_board - a board's part of its bus's exchange
 * @first: its first transaction of the round in &struct dcm_regs_io.x
 * @n: its transactions in the round, 0 once @ret is set by its put
 * @ret: what they gave: 0, or the first one's error (or its put's)
 * @in_round: it has a get to come this round
 *
 * The transactions of the boards of a round are in &struct dcm_regs_io.x in
 * the order of the bus, each board's together: a batch is a run of them.
 */
struct regs_board {
	u16 first;
	u8 n;
	bool in_round;
	int ret;
};

/**
 * struct dcm_regs_io - a register bus's own state, the kind's (&struct
 *	dcm_rt_bus.kind_priv): its exchange's transactions, sized by its
 *	boards when the runtime is made
 * @b: the bus
 * @x: the round's transactions, in the order of the bus's boards
 * @n_x: how many
 * @max_x: room in @x
 * @tx: what they write
 * @tx_used: bytes of @tx taken
 * @max_tx: room in @tx
 * @board: each board's part, by its place on the bus
 * @cur: the place of the board putting its transactions
 * @alone: the boards exchanged alone, by place: their last exchange failed
 * @no_batch: the transport makes no batch: transactions one by one
 */
struct dcm_regs_io {
	struct dcm_rt_bus *b;
	struct dcm_xfer *x;
	u32 n_x, max_x;
	u8 *tx;
	u32 tx_used, max_tx;
	struct regs_board *board;
	u32 cur;
	unsigned long *alone;
	bool no_batch;
};

/* A register bus's own state; NULL for a bus the kind did not prepare. */
static struct dcm_regs_io *regs(const struct dcm_rt_bus *b)
{
	return b->kind_priv[DCM_BUS_REGS];
}

/*
 * The board putting its transactions fails its round with @err: what it
 * put goes (its transactions are the last ones), its get has @err.
 */
static void board_fail(struct dcm_regs_io *io, int err)
{
	struct regs_board *rb = &io->board[io->cur];

	if (!rb->ret)
		rb->ret = err;
	io->n_x -= rb->n;
	rb->n = 0;
}

/*
 * A transaction of the board putting them, @tx_len bytes out (returned, to
 * be filled) and @rx_len read into @rx. A put that does not fit fails the
 * board's round (-ENOSPC: a board type that puts more than
 * DCM_REGS_BOARD_XFERS or DCM_REGS_BOARD_TX).
 */
static u8 *io_add(struct dcm_regs_io *io, u32 tx_len, u8 *rx, u32 rx_len)
{
	struct regs_board *rb = &io->board[io->cur];
	struct dcm_xfer *x;

	if (rb->ret)
		return NULL;
	if (WARN_ON_ONCE(!tx_len || tx_len > U16_MAX || rx_len > U16_MAX ||
			 rb->n >= DCM_REGS_BOARD_XFERS || io->n_x >= io->max_x ||
			 io->tx_used + tx_len > io->max_tx)) {
		board_fail(io, -ENOSPC);
		return NULL;
	}
	x = &io->x[io->n_x++];
	*x = (struct dcm_xfer){
		.tx = io->tx + io->tx_used, .rx = rx, .tx_len = tx_len, .rx_len = rx_len,
		.addr = io->b->rt->model->devices[io->b->dev[io->cur]].address,
	};
	io->tx_used += tx_len;
	rb->n++;
	return (u8 *)x->tx;
}

/**
 * dcm_regs_read() - a board puts the read of a register block
 * @io: its bus's exchange (its &struct dcm_board_regs.put, or its get)
 * @reg: the first register
 * @data: where the block goes, @len bytes that outlive the put: the
 *	board's private area (its get reads them)
 * @len: how many bytes
 *
 * Return: 0, or -ENOSPC: the board's round fails (its get has @ret).
 */
int dcm_regs_read(struct dcm_regs_io *io, u8 reg, u8 *data, u32 len)
{
	u8 *tx = io_add(io, 1, data, len);

	if (!tx)
		return -ENOSPC;
	tx[0] = reg;
	return 0;
}

/**
 * dcm_regs_write() - a board puts the write of a register block
 * @io: its bus's exchange
 * @reg: the first register
 * @data: what to write (copied)
 * @len: how many bytes
 *
 * Return: as dcm_regs_read().
 */
int dcm_regs_write(struct dcm_regs_io *io, u8 reg, const u8 *data, u32 len)
{
	u8 *tx = io_add(io, len + 1, NULL, 0);

	if (!tx)
		return -ENOSPC;
	tx[0] = reg;
	memcpy(tx + 1, data, len);
	return 0;
}

/**
 * dcm_regs_spi_read() - a board puts the read of registers over SPI
 * @io: its bus's exchange
 * @reg: the first register
 * @count: how many bytes
 * @frame: where the transfer's bytes go, in the board's private area: its
 *	get checks them and takes the block (dcm_spi_get_read())
 * @size: room in @frame
 *
 * Return: the transfer's length (dcm_spi_get_read()'s @len), -EINVAL for a
 * bad @reg or @count, -EMSGSIZE when @frame is too small, or -ENOSPC.
 */
int dcm_regs_spi_read(struct dcm_regs_io *io, u8 reg, u8 count, u8 *frame, size_t size)
{
	u8 cmd[DCM_SPI_MAX + DCM_SPI_OVERHEAD];
	int len = dcm_spi_put_read(cmd, sizeof(cmd), reg, count);
	u8 *tx;

	if (len >= 0 && size < len)
		len = -EMSGSIZE;
	if (len < 0) {
		board_fail(io, len);
		return len;
	}
	tx = io_add(io, len, frame, len);
	if (!tx)
		return -ENOSPC;
	memcpy(tx, cmd, len);
	return len;
}

/* One transaction on its own: 0, or its error (-EIO for a short read). */
static int xfer_one(struct dcm_bus *t, const struct dcm_xfer *x)
{
	int got = dcm_bus_xfer(t, x->addr, x->tx, x->tx_len, x->rx, x->rx_len);

	return got < 0 ? got : got == x->rx_len ? 0 : -EIO;
}

/* The board at @i alone: its transactions one by one, until one fails. */
static void board_alone(struct dcm_regs_io *io, struct dcm_bus *t, u32 i)
{
	struct regs_board *rb = &io->board[i];
	u32 k;

	for (k = 0; k < rb->n && !rb->ret; k++)
		rb->ret = xfer_one(t, &io->x[rb->first + k]);
	if (rb->ret)
		set_bit(i, io->alone);
	else
		clear_bit(i, io->alone);
}

/*
 * The boards at @from..@to (excluded) together, their transactions (@n,
 * from @from's first) in one batch; each board alone if the batch failed.
 */
static void boards_batch(struct dcm_regs_io *io, struct dcm_bus *t, u32 from, u32 to, u32 n)
{
	int ret = -EOPNOTSUPP;
	u32 i;

	if (n > 1 && !io->no_batch)
		ret = dcm_bus_xfer_many(t, &io->x[io->board[from].first], n);
	if (ret == -EOPNOTSUPP && n > 1)
		io->no_batch = true;
	if (!ret)
		return;
	for (i = from; i < to; i++)
		if (io->board[i].in_round && !io->board[i].ret && io->board[i].n)
			board_alone(io, t, i);
}

/*
 * A round: the transactions of the boards in it, those that go together
 * in batches of up to DCM_XFER_MANY_MAX, in the order of the bus; a board
 * exchanged alone breaks a batch and takes its turn in that order.
 */
static void regs_round(struct dcm_regs_io *io, struct dcm_bus *t)
{
	u32 i, from = 0, n = 0;

	for (i = 0; i < io->b->n_dev; i++) {
		struct regs_board *rb = &io->board[i];
		bool alone = test_bit(i, io->alone) || io->no_batch;

		if (!rb->in_round || rb->ret || !rb->n)
			continue;
		if (n && (alone || n + rb->n > DCM_XFER_MANY_MAX)) {
			boards_batch(io, t, from, i, n);
			n = 0;
		}
		if (alone) {
			board_alone(io, t, i);
			continue;
		}
		if (!n)
			from = i;
		n += rb->n;
	}
	if (n)
		boards_batch(io, t, from, io->b->n_dev, n);
}

/* The transactions of the round that was made are gone: a new round. */
static void round_begin(struct dcm_regs_io *io)
{
	io->n_x = 0;
	io->tx_used = 0;
}

/* The board at @i starts its part of a round. */
static void board_begin(struct dcm_regs_io *io, u32 i)
{
	io->cur = i;
	io->board[i] = (struct regs_board){ .first = io->n_x, .in_round = true };
}

/*
 * A cycle of a register bus: each board puts its transactions, the kind
 * makes them, each board takes what it read; a second round for what the
 * first called for.
 */
static void regs_exchange(struct dcm_runtime *rt, struct dcm_rt_bus *b, struct dcm_bus *t,
			  u32 now)
{
	struct dcm_regs_io *io = regs(b);
	const struct dcm_board_regs *br;
	u32 i, round;
	bool more;
	int ret;

	/* A bus the kind did not prepare (no memory for it) never runs. */
	if (!io)
		return;
	round_begin(io);
	for (i = 0; i < b->n_dev; i++) {
		io->board[i].in_round = false;
		br = rt->dev[b->dev[i]].type->regs;
		if (!br)
			continue;
		board_begin(io, i);
		br->put(rt, b->dev[i], io);
	}
	for (round = 1; ; round++) {
		regs_round(io, t);
		round_begin(io);
		more = false;
		for (i = 0; i < b->n_dev; i++) {
			if (!io->board[i].in_round)
				continue;
			br = rt->dev[b->dev[i]].type->regs;
			ret = io->board[i].ret;
			board_begin(io, i);
			io->board[i].in_round = br->get(rt, b->dev[i], io, ret, now);
			more |= io->board[i].in_round;
		}
		if (!more)
			return;
		if (round < DCM_REGS_ROUNDS)
			continue;
		/* A type that asks for more rounds than there are: Nacked. */
		for (i = 0; i < b->n_dev; i++)
			if (WARN_ON_ONCE(io->board[i].in_round))
				dcm_reg_answer(rt, b->dev[i], -E2BIG, now);
		return;
	}
}

/*
 * A new runtime's register bus gets its exchange's room, by its boards:
 * DCM_REGS_BOARD_XFERS transactions and DCM_REGS_BOARD_TX bytes each.
 */
static int regs_prepare(struct dcm_runtime *rt, struct dcm_rt_bus *b)
{
	u32 n = max_t(u32, b->n_dev, 1);
	struct dcm_regs_io *io;

	io = kzalloc(sizeof(*io), GFP_KERNEL);
	if (!io)
		return -ENOMEM;
	io->b = b;
	io->max_x = n * DCM_REGS_BOARD_XFERS;
	io->max_tx = n * DCM_REGS_BOARD_TX;
	io->x = kcalloc(io->max_x, sizeof(*io->x), GFP_KERNEL);
	io->tx = kzalloc(io->max_tx, GFP_KERNEL);
	io->board = kcalloc(n, sizeof(*io->board), GFP_KERNEL);
	io->alone = bitmap_zalloc(n, GFP_KERNEL);
	b->kind_priv[DCM_BUS_REGS] = io;
	if (!io->x || !io->tx || !io->board || !io->alone)
		return -ENOMEM;	/* freed by regs_release() */
	return 0;
}

static void regs_release(struct dcm_rt_bus *b)
{
	struct dcm_regs_io *io = regs(b);

	if (!io)
		return;
	kfree(io->x);
	kfree(io->tx);
	kfree(io->board);
	bitmap_free(io->alone);
	kfree(io);
	b->kind_priv[DCM_BUS_REGS] = NULL;
}

/*
 * A register board's versions: as its type reads them, else its FW_VERSION
 * register (over SPI for a board read over SPI, &struct dcm_board_regs.spi),
 * which goes to its ProgVersion.
 */
static int regs_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
			struct dcm_board_buf *xb, char *version, size_t len)
{
	const struct dcm_board_regs *rb = rt->dev[dev].type->regs;
	u16 addr = rt->model->devices[dev].address;
	u8 data;
	int ret;

	if (rb && rb->version)
		return rb->version(rt, dev, t, xb, version, len);
	if (rb && rb->spi)
		ret = dcm_reg_spi_read(t, addr, xb->tx, xb->rx, sizeof(xb->tx),
				       DCM_REG_FW_VERSION, &data, 1);
	else
		ret = dcm_board_read(t, addr, xb->tx, DCM_REG_FW_VERSION, &data, 1);
	if (ret)
		return ret;
	dcm_board_set_live(dcm_board_dev_key(rt->model, dev, "ProgVersion"), data);
	snprintf(version, len, "%u", data);
	return 0;
}

const struct dcm_bus_kind_ops dcm_bus_regs_kind = {
	.what = "an I2C or SPI controller",
	.prefixes = (const char *const []){ "I2C", "SPI", NULL },
	.exchange = regs_exchange,
	.version = regs_version,
	.prepare = regs_prepare,
	.release = regs_release,
};
