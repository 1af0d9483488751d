/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the kinds of bus: what the core does with a bus of each kind
 * (dcm_bus_kind.c), one file per kind.
 */
#ifndef _DCM_BUS_KIND_H
#define _DCM_BUS_KIND_H

#include <linux/dcm.h>
#include <linux/types.h>

struct dcm_board_buf;
struct dcm_rt_bus;
struct dcm_runtime;

/**
 * struct dcm_bus_kind_ops - a kind of bus (enum dcm_bus_kind)
 * @what: what it is, for messages ("an RS485 line")
 * @prefixes: the starts of the bus names in a description that call for
 *	it, NULL-terminated
 * @ready: whether the bus is the cycle's this time (an RS485 bus is not
 *	until it is chained, and gets its chaining queued); NULL: always.
 *	Context: the cycle thread
 * @exchange: one cycle's exchange on the bus, the cycle on it.
 *	Context: the bus's lane or the cycle thread
 * @version: read a board's versions into its keys and @version. Context:
 *	process; its transfers are requests the cycle carries
 * @rechain: start the bus over (its boards' identities asked again), its
 *	work queued; NULL when it has none. Return: whether it queued work
 *	to flush
 * @prepare: make a bus of a new runtime ready for the kind: its own state
 *	in its place of &struct dcm_rt_bus.kind_priv (an RS485 bus's chain,
 *	its chaining work and its frames; a register bus's transactions),
 *	before the cycle has the runtime; NULL: nothing to do. 0 or -ENOMEM
 *	(what it made is then freed by @release). Context: process, under
 *	the controller's desc.lock
 * @release: undo @prepare, the runtime no cycle's any more (its work
 *	ended first). Context: process
 */
struct dcm_bus_kind_ops {
	const char *what;
	const char *const *prefixes;
	bool (*ready)(struct dcm_runtime *rt, u32 bus, struct dcm_bus *t);
	void (*exchange)(struct dcm_runtime *rt, struct dcm_rt_bus *b, struct dcm_bus *t,
			 u32 now);
	int (*version)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		       struct dcm_board_buf *xb, char *version, size_t len);
	bool (*rechain)(struct dcm_runtime *rt, u32 bus);
	int (*prepare)(struct dcm_runtime *rt, struct dcm_rt_bus *b);
	void (*release)(struct dcm_rt_bus *b);
};

/* The kinds, one file each. */
extern const struct dcm_bus_kind_ops dcm_bus_rs485_kind;	/* dcm_bus_rs485.c */
extern const struct dcm_bus_kind_ops dcm_bus_regs_kind;		/* dcm_bus_regs.c */

/* dcm_bus_kind.c */
bool dcm_bus_kind_valid(enum dcm_bus_kind kind);
const struct dcm_bus_kind_ops *dcm_bus_kind(const struct dcm_bus *t);
bool dcm_bus_name_kind(const char *name, enum dcm_bus_kind *kind);
const char *dcm_bus_kind_name(enum dcm_bus_kind kind);
int dcm_bus_kinds_prepare(struct dcm_runtime *rt);
void dcm_bus_kinds_release(struct dcm_runtime *rt);
void dcm_bus_exchange(struct dcm_runtime *rt, u32 bus, struct dcm_bus *transport, u32 now);
int dcm_board_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		      struct dcm_board_buf *xb, char *version, size_t len);

#endif /* _DCM_BUS_KIND_H */
