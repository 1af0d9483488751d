// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a bus that is an I2C or SPI controller, with its board devices.
 *
 * The first board device of a controller that the dcm I2C or SPI driver
 * binds registers the controller as a transport (struct dcm_bus, its
 * device the controller's: firmware refers to the controller's node); the
 * last one to go unregisters it. A transaction reaches the board device at
 * its address; at an address no bound board has, nobody answers
 * (-ETIMEDOUT: the board gets a Nack).
 */

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/dcm.h>

#include "transport/dcm_ctlr.h"

/**
 * struct dcm_ctlr_bus - a controller as a transport
 * @bus: the transport
 * @node: in ctlr_buses
 * @ops: its transfers
 * @lock: guards @boards against a board that comes or goes; taken in
 *	@bus's transfers, which the cycle makes one at a time
 * @boards: struct dcm_ctlr_board
 */
struct dcm_ctlr_bus {
	struct dcm_bus bus;
	struct list_head node;
	const struct dcm_ctlr_ops *ops;
	struct mutex lock;		/* @boards */
	struct list_head boards;
};

static DEFINE_MUTEX(ctlr_lock);		/* ctlr_buses */
static LIST_HEAD(ctlr_buses);

static int dcm_ctlr_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			 size_t rx_len)
{
	struct dcm_ctlr_bus *cb = container_of(bus, struct dcm_ctlr_bus, bus);
	struct dcm_ctlr_board *b;
	int ret = -ETIMEDOUT;	/* no board there */

	mutex_lock(&cb->lock);
	list_for_each_entry(b, &cb->boards, node) {
		if (b->addr == addr) {
			ret = cb->ops->xfer(b, tx, tx_len, rx, rx_len);
			break;
		}
	}
	mutex_unlock(&cb->lock);
	return ret;
}

/* A batch: each transaction's board found by its address, then one call. */
static int dcm_ctlr_xfer_many(struct dcm_bus *bus, const struct dcm_xfer *x, unsigned int n)
{
	struct dcm_ctlr_bus *cb = container_of(bus, struct dcm_ctlr_bus, bus);
	struct dcm_ctlr_board *board[DCM_XFER_MANY_MAX], *b;
	unsigned int i;
	int ret = 0;

	if (!cb->ops->xfer_many)
		return -EOPNOTSUPP;
	if (!n || n > DCM_XFER_MANY_MAX)
		return -EINVAL;
	mutex_lock(&cb->lock);
	for (i = 0; i < n && !ret; i++) {
		board[i] = NULL;
		list_for_each_entry(b, &cb->boards, node)
			if (b->addr == x[i].addr)
				board[i] = b;
		if (!board[i])
			ret = -ETIMEDOUT;	/* no board there */
	}
	if (!ret)
		ret = cb->ops->xfer_many(board, x, n);
	mutex_unlock(&cb->lock);
	return ret;
}

static const struct dcm_bus_ops dcm_ctlr_bus_ops = {
	.xfer = dcm_ctlr_xfer,
	.xfer_many = dcm_ctlr_xfer_many,
};

static struct dcm_ctlr_bus *ctlr_bus_find(struct device *ctlr)
{
	struct dcm_ctlr_bus *cb;

	list_for_each_entry(cb, &ctlr_buses, node)
		if (cb->bus.dev == ctlr)
			return cb;
	return NULL;
}

/**
 * dcm_ctlr_board_add() - a board device joins its controller's bus
 * @ctlr: the controller's device (the I2C adapter's, the SPI controller's)
 * @ops: the controller's transfers
 * @board: the board, with @board->addr and @board->dev set; it must stay
 *	until dcm_ctlr_board_del()
 *
 * The first board of a controller registers the controller as a transport.
 * Context: process.
 *
 * Return: 0, -EEXIST (a board has that address), -ENOMEM, or what
 * dcm_transport_register() returned.
 */
int dcm_ctlr_board_add(struct device *ctlr, const struct dcm_ctlr_ops *ops,
		       struct dcm_ctlr_board *board)
{
	struct dcm_ctlr_bus *cb;
	struct dcm_ctlr_board *b;
	int ret = 0;

	mutex_lock(&ctlr_lock);
	cb = ctlr_bus_find(ctlr);
	if (cb) {
		mutex_lock(&cb->lock);
		list_for_each_entry(b, &cb->boards, node)
			if (b->addr == board->addr)
				ret = -EEXIST;
		if (!ret)
			list_add_tail(&board->node, &cb->boards);
		mutex_unlock(&cb->lock);
		goto out;
	}
	cb = kzalloc(sizeof(*cb), GFP_KERNEL);
	if (!cb) {
		ret = -ENOMEM;
		goto out;
	}
	mutex_init(&cb->lock);
	INIT_LIST_HEAD(&cb->boards);
	list_add_tail(&board->node, &cb->boards);
	cb->ops = ops;
	cb->bus.dev = get_device(ctlr);
	cb->bus.kind = DCM_BUS_REGS;
	cb->bus.ops = &dcm_ctlr_bus_ops;
	ret = dcm_transport_register(&cb->bus);
	if (ret) {
		put_device(ctlr);
		kfree(cb);
		goto out;
	}
	list_add_tail(&cb->node, &ctlr_buses);
	dev_info(ctlr, "dcm %s transport\n", ops->kind);
out:
	mutex_unlock(&ctlr_lock);
	return ret;
}

/**
 * dcm_ctlr_board_del() - a board device leaves its controller's bus
 * @ctlr: the controller's device, as given to dcm_ctlr_board_add()
 * @board: the board
 *
 * No transfer reaches the board after it returns; the last board of a
 * controller unregisters the transport, which waits for the cycle.
 * Context: process.
 */
void dcm_ctlr_board_del(struct device *ctlr, struct dcm_ctlr_board *board)
{
	struct dcm_ctlr_bus *cb;
	bool last;

	mutex_lock(&ctlr_lock);
	cb = ctlr_bus_find(ctlr);
	if (WARN_ON(!cb))
		goto out;
	mutex_lock(&cb->lock);
	list_del(&board->node);
	last = list_empty(&cb->boards);
	mutex_unlock(&cb->lock);
	if (last) {
		list_del(&cb->node);
		dcm_transport_unregister(&cb->bus);
		put_device(cb->bus.dev);
		kfree(cb);
	}
out:
	mutex_unlock(&ctlr_lock);
}
