/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - Device Communication Manager: the API of transports.
 *
 * A transport is what carries one bus of a robot body: an RS485 line, an
 * I2C or SPI controller with the robot's boards on it. It registers with
 * the dcm core as soon as it binds, with no controller. A body, described
 * by firmware (the "aldebaran,nao-body" node) or assembled in configfs,
 * claims transports by their firmware node or device name and names their
 * buses; the dcm core then gives the body its controller, dcmN
 * (Documentation/dcm/bring-up.rst).
 */
#ifndef _LINUX_DCM_H
#define _LINUX_DCM_H

#include <linux/types.h>
#include <uapi/linux/dcm.h>

#include <linux/list.h>
#include <linux/spinlock.h>

struct device;
struct dcm_controller;
struct dcm_bus;
struct task_struct;

/* The most transactions a batch has (&struct dcm_bus_ops.xfer_many). */
#define DCM_XFER_MANY_MAX	16

/**
 * struct dcm_xfer - one transaction of a batch (&struct dcm_bus_ops.xfer_many)
 * @tx: what to write, @tx_len bytes (not 0)
 * @rx: where to read @rx_len bytes; @rx_len 0: a write alone
 * @addr: the board's address, as for &struct dcm_bus_ops.xfer
 * @tx_len: bytes of @tx
 * @rx_len: bytes of @rx
 */
struct dcm_xfer {
	const u8 *tx;
	u8 *rx;
	u16 addr;
	u16 tx_len;
	u16 rx_len;
};

/**
 * struct dcm_bus_ops - what a transport does for the cycle
 * @xfer: one transaction with the board at @addr: write @tx_len bytes of
 *	@tx, then read up to @rx_len bytes into @rx (either may be 0). On an
 *	I2C bus @addr is the 7-bit address, on SPI the chip select; an RS485
 *	frame carries its own address and @addr is ignored. Called by the
 *	cycle only (the bus's lane or the cycle thread), one call at a time:
 *	its exchange and the requests it carries for everyone else (chaining,
 *	configuration, the chest store, special commands). May sleep for the
 *	bus, never on user space nor on a dcm lock; an addressed request
 *	(not the cycle's broadcast) should end within a few milliseconds,
 *	a share of the period the cycle can give it after its exchange. Returns
 *	the bytes read, -ETIMEDOUT when nothing answered in time, or another
 *	negative errno.
 * @xfer_many: @n transactions (at most DCM_XFER_MANY_MAX), with boards at
 *	several addresses, in one go: each as @xfer makes it, the bus not
 *	given up between them (I2C: one i2c_transfer(), a repeated start
 *	before each message), so that a register bus's exchange waits for
 *	its wire once a cycle. Called as @xfer is. Returns 0 when every
 *	transaction was made and every read got all its bytes, -EOPNOTSUPP
 *	when the controller cannot make such a batch (the core then makes
 *	them one by one, as it does when this is NULL), or another negative
 *	errno when one failed: which one is not said, and those after it may
 *	not have been made.
 */
struct dcm_bus_ops {
	int (*xfer)(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
		    size_t rx_len);
	int (*xfer_many)(struct dcm_bus *bus, const struct dcm_xfer *x, unsigned int n);
};

/* What a bus carries: the cyclic exchange differs. */
enum dcm_bus_kind {
	DCM_BUS_RS485,		/* one broadcast per cycle, replies in Bid order */
	DCM_BUS_REGS,		/* I2C or SPI: register blocks, in one batch a cycle */
};

#define DCM_BUS_KINDS	(DCM_BUS_REGS + 1)

/**
 * struct dcm_bus - a bus the robot's boards sit on, as a transport gives it
 * @dev: the transport's device: firmware refers to its node
 *	(dev_fwnode()), configfs to its name (dev_name())
 * @kind: enum dcm_bus_kind
 * @ops: its transactions
 * @priv: the transport's
 * @name: private to the core: the Bus of the robot description that a
 *	body gave it ("RS485-1", "I2C-chest"), while a body claims it
 * @node: private to the core: in the claiming controller's buses
 * @transport_node: private to the core: in the registered transports
 * @ctrl: private to the core: the controller that claims it, or NULL
 * @reqs_lock: private to the core: guards @reqs, @reqs_closed and @req_ns
 * @reqs: private to the core: the transfers queued for the cycle to carry
 *	(core/dcm_bus_req.c)
 * @reqs_closed: private to the core: no body claims it: requests fail
 * @req_ns: private to the core: the cycle's estimate of a request's time
 * @in_cycle: private to the core: bit 0 while a thread of the cycle is on it
 * @carrier: private to the core: that thread
 */
struct dcm_bus {
	struct device *dev;
	u8 kind;
	const struct dcm_bus_ops *ops;
	void *priv;
	const char *name;
	struct list_head node;
	struct list_head transport_node;
	struct dcm_controller *ctrl;
	spinlock_t reqs_lock;		/* @reqs, @reqs_closed, @req_ns */
	struct list_head reqs;
	bool reqs_closed;
	u64 req_ns;
	unsigned long in_cycle;
	struct task_struct *carrier;
};

int dcm_transport_register(struct dcm_bus *bus);
void dcm_transport_unregister(struct dcm_bus *bus);

#endif /* _LINUX_DCM_H */
