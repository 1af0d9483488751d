/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the cycle owns every bus (dcm_bus_req.c): a transfer outside the
 * cycle's exchange is a request queued to the bus and carried by the cycle.
 */
#ifndef _DCM_BUS_REQ_H
#define _DCM_BUS_REQ_H

#include <linux/ktime.h>
#include <linux/types.h>
#include <linux/dcm.h>

/* How long a request waits for the cycle to carry it. */
#define DCM_BUS_REQ_TIMEOUT_MS	2000

/**
 * struct dcm_bus_carry - what the cycle did with a bus's requests this time
 * @carried: requests carried
 * @deferred: requests left for a later cycle: the budget would not hold them
 */
struct dcm_bus_carry {
	u32 carried;
	u32 deferred;
};

void dcm_bus_req_init(struct dcm_bus *t);
int dcm_bus_run(struct dcm_bus *t, int (*run)(struct dcm_bus *t, void *arg), void *arg);
int dcm_bus_xfer(struct dcm_bus *t, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
		 size_t rx_len);
int dcm_bus_xfer_many(struct dcm_bus *t, const struct dcm_xfer *x, unsigned int n);
bool dcm_bus_take(struct dcm_bus *t);
void dcm_bus_give(struct dcm_bus *t);
bool dcm_bus_req_pending(struct dcm_bus *t);
void dcm_bus_req_carry(struct dcm_bus *t, ktime_t until, struct dcm_bus_carry *c);
void dcm_bus_req_open(struct dcm_bus *t);
void dcm_bus_req_close(struct dcm_bus *t, int err);

#endif /* _DCM_BUS_REQ_H */
