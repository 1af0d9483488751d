/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - Device Communication Manager: the API that body drivers use.
 *
 * A body driver (the real robot's bus drivers, or dcm_sim) registers one
 * controller per robot. The dcm core gives it the device dcmN in the "dcm"
 * class, the character device /dev/dcmN and a place in the generic netlink
 * family "dcm".
 */
#ifndef _LINUX_DCM_H
#define _LINUX_DCM_H

#include <linux/types.h>
#include <uapi/linux/dcm.h>

#include <linux/list.h>
#include <linux/mutex.h>

struct device;
struct dcm_controller;
struct dcm_bus;

/**
 * struct dcm_bus_ops - what a transport does for the cycle
 * @xfer: one transaction with the board at @addr: write @tx_len bytes of
 *	@tx, then read up to @rx_len bytes into @rx (either may be 0). On an
 *	I2C bus @addr is the 7-bit address, on SPI the chip select; an RS485
 *	frame carries its own address and @addr is ignored. Called with the
 *	bus's @xfer_lock held, by the cycle thread or in process context
 *	(chaining, configuration, the chest store, special commands); may
 *	sleep for the bus, never on user space nor on a dcm lock. Returns the
 *	bytes read, -ETIMEDOUT when nothing answered in time, or another
 *	negative errno.
 */
struct dcm_bus_ops {
	int (*xfer)(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
		    size_t rx_len);
};

/* What a bus carries: the cyclic exchange differs. */
enum dcm_bus_kind {
	DCM_BUS_RS485,		/* one broadcast per cycle, replies in Bid order */
	DCM_BUS_REGS,		/* I2C or SPI: register blocks, board by board */
};

/**
 * struct dcm_bus - a bus the robot's boards sit on, as a transport gives it
 * @name: the Bus of the robot description ("RS485-1", "I2C-chest")
 * @kind: enum dcm_bus_kind
 * @ops: its transactions
 * @priv: the transport's
 * @node: private to the core
 * @ctrl: private to the core
 * @xfer_lock: private to the core: one user of the bus at a time (the
 *	cycle, chaining, configuration, the chest store, special commands)
 */
struct dcm_bus {
	const char *name;
	u8 kind;
	const struct dcm_bus_ops *ops;
	void *priv;
	struct list_head node;
	struct dcm_controller *ctrl;
	struct mutex xfer_lock;		/* one user of the bus */
};

struct dcm_controller *dcm_controller_register(struct device *parent,
					       const char *driver, u32 flags);
void dcm_controller_unregister(struct dcm_controller *ctrl);
int dcm_bus_register(unsigned int index, struct dcm_bus *bus);
void dcm_bus_unregister(struct dcm_bus *bus);

#endif /* _LINUX_DCM_H */
