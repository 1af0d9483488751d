/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the RS485 bus kind (dcm_bus_rs485.c): what it asks of an RS485
 * board's type, and what it does for the rest of the core.
 */
#ifndef _DCM_BUS_RS485_H
#define _DCM_BUS_RS485_H

#include <linux/types.h>

struct dcm_board_buf;
struct dcm_bus;
struct dcm_rs485_ident;
struct dcm_rs485_reply;
struct dcm_rs485_slot;
struct dcm_rt_bus;
struct dcm_runtime;

/**
 * struct dcm_board_rs485 - an RS485 board type's part of the contract
 *	(&struct dcm_board_type.rs485): what the RS485 bus kind asks of it
 * @slot: its slot of the cyclic broadcast; NULL: a slot of zeros.
 *	In the cycle.
 * @reply: its reply to the broadcast, to values and its Ack; NULL: an Ack
 *	only. Context: the cycle.
 * @error: a board whose reply carries an error code (its @reply passes it
 *	to dcm_runtime_answer() as DCM_ERR_BOARD): the level of @code, 1-7
 *	(0: no error), and, when @text is not NULL, one line of @size at
 *	most saying what it is. The one place the code is decoded: the
 *	runtime asks it the level when the code enters the device's error
 *	list, the text for the event and for the Error key
 *	(&struct dcm_rt_device.error, which the kind sets as it prepares the
 *	bus). NULL: the type's codes are level 4, "board error N".
 *	In any context; allocates nothing, does not sleep.
 * @unchained: its bus is being chained again: it forgets what it was
 *	configured with. Context: process (the chaining work).
 * @identified: chaining or the VERSION command identified it: its
 *	identity keys. Context: process.
 * @configure: send it its configuration, to its Bid, with @xb for the
 *	transfer, a request the cycle carries (dcm_bus_xfer()); 0 or a
 *	negative errno. NULL: it has none (dcm_board_configure() says
 *	-EINVAL). Context: process.
 */
struct dcm_board_rs485 {
	void (*slot)(const struct dcm_runtime *rt, u32 dev, struct dcm_rs485_slot *slot);
	void (*reply)(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now);
	u8 (*error)(u8 code, char *text, size_t size);
	void (*unchained)(struct dcm_runtime *rt, u32 dev);
	void (*identified)(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_ident *id,
			   u8 bid);
	int (*configure)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u8 bid,
			 struct dcm_board_buf *xb);
};

/* dcm_bus_rs485.c: the RS485 buses of a runtime */
bool dcm_buses_chaining(struct dcm_runtime *rt);
void dcm_bus_chain_flush(struct dcm_rt_bus *b);
int dcm_buses_chain_text(struct dcm_runtime *rt, char *text, size_t size);
void dcm_boards_chain_result(struct dcm_runtime *rt);
int dcm_board_configure(struct dcm_runtime *rt, u32 dev);

#endif /* _DCM_BUS_RS485_H */
