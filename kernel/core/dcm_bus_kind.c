// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the kinds of bus (enum dcm_bus_kind): what each does in a cycle and
 * on request, one file each: dcm_bus_rs485.c (chained boards, one broadcast
 * per cycle) and dcm_bus_regs.c (register boards, their transactions in one
 * batch). A new
 * kind is its file and its line in the table here.
 */

#include <linux/dcm.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "core/dcm_board_type.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_runtime.h"

static const struct dcm_bus_kind_ops *const dcm_bus_kinds[DCM_BUS_KINDS] = {
	[DCM_BUS_RS485] = &dcm_bus_rs485_kind,
	[DCM_BUS_REGS] = &dcm_bus_regs_kind,
};

/**
 * dcm_bus_kind_valid() - whether a transport's kind is one the core has
 * @kind: its &struct dcm_bus.kind
 *
 * Return: true when dcm_bus_kind() has ops for it.
 */
bool dcm_bus_kind_valid(enum dcm_bus_kind kind)
{
	return (unsigned int)kind < ARRAY_SIZE(dcm_bus_kinds) && dcm_bus_kinds[kind];
}

/**
 * dcm_bus_kind() - the ops of a transport's kind
 * @t: the transport, registered (its kind checked: dcm_bus_kind_valid())
 *
 * Return: its kind's ops.
 */
const struct dcm_bus_kind_ops *dcm_bus_kind(const struct dcm_bus *t)
{
	return dcm_bus_kinds[t->kind];
}

/**
 * dcm_bus_name_kind() - the kind of transport a bus's name calls for
 * @name: the bus's name in the robot description
 * @kind: set to that kind, when there is one
 *
 * A name that starts with one of a kind's &dcm_bus_kind_ops.prefixes calls
 * for it: "RS485-1" an RS485 line, "I2C-chest" and "SPI-chest" a register
 * transport, I2C or SPI (DCM_BUS_REGS); other names call for no kind.
 *
 * Return: true when @name calls for a kind.
 */
bool dcm_bus_name_kind(const char *name, enum dcm_bus_kind *kind)
{
	const char *const *p;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(dcm_bus_kinds); k++) {
		for (p = dcm_bus_kinds[k]->prefixes; *p; p++) {
			if (!strncmp(name, *p, strlen(*p))) {
				*kind = k;
				return true;
			}
		}
	}
	return false;
}

/**
 * dcm_bus_kind_name() - what a kind of bus is, for messages
 * @kind: enum dcm_bus_kind, valid
 *
 * Return: "an RS485 line" or "an I2C or SPI controller".
 */
const char *dcm_bus_kind_name(enum dcm_bus_kind kind)
{
	return dcm_bus_kinds[kind]->what;
}

/**
 * dcm_bus_kinds_prepare() - a new runtime's buses made ready for their kinds
 * @rt: the runtime being created, its devices bound
 *
 * Each bus is prepared by every kind that may carry it (its &struct
 * dcm_bus_kind_ops.prepare): the kind its name calls for, or every kind
 * for a name that calls for none (it takes a transport of any kind, and
 * has the state of each). The kinds' own
 * state and work, an RS485 bus's chain, are theirs to set up, so that
 * nothing below them names it. Context: process, under the controller's
 * desc.lock, before the cycle has the runtime.
 *
 * Return: 0, or -ENOMEM (what was prepared is released by
 * dcm_bus_kinds_release()).
 */
int dcm_bus_kinds_prepare(struct dcm_runtime *rt)
{
	enum dcm_bus_kind kind;
	unsigned int k;
	bool named;
	int ret;
	u32 b;

	for (b = 0; b < rt->n_buses; b++) {
		named = dcm_bus_name_kind(rt->buses[b].name, &kind);
		for (k = 0; k < ARRAY_SIZE(dcm_bus_kinds); k++) {
			if (!dcm_bus_kinds[k]->prepare || (named && kind != k))
				continue;
			ret = dcm_bus_kinds[k]->prepare(rt, &rt->buses[b]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * dcm_bus_kinds_release() - undo dcm_bus_kinds_prepare()
 * @rt: the runtime, no cycle's any more (after synchronize_srcu() and
 *	dcm_bus_lanes_flush()), or being abandoned before it ran
 *
 * Context: process.
 */
void dcm_bus_kinds_release(struct dcm_runtime *rt)
{
	struct dcm_rt_bus *b;
	unsigned int k;
	u32 i;

	for (i = 0; i < rt->n_buses; i++) {
		b = &rt->buses[i];
		for (k = 0; k < ARRAY_SIZE(dcm_bus_kinds); k++)
			if (b->kind_priv[k] && dcm_bus_kinds[k]->release)
				dcm_bus_kinds[k]->release(b);
	}
}

/**
 * dcm_bus_exchange() - one cycle's exchange on a bus
 * @rt: the runtime
 * @bus: the bus's index in @rt->buses
 * @transport: the transport registered for it, the cycle on it (dcm_bus_take())
 * @now: the cycle's DCM time
 *
 * Context: the bus's lane (or the cycle thread); sleeps for the bus only.
 */
void dcm_bus_exchange(struct dcm_runtime *rt, u32 bus, struct dcm_bus *transport, u32 now)
{
	dcm_bus_kind(transport)->exchange(rt, &rt->buses[bus], transport, now);
}

/**
 * dcm_board_version() - read a board's versions into its keys
 * @rt: the runtime
 * @dev: the device index
 * @t: the transport of its bus
 * @xb: buffers for the transfers
 * @version: its program version, as a string
 * @len: bytes of @version
 *
 * As the board's bus kind reads it: an RS485 board says its identity
 * (dcm_bus_rs485.c), a register board answers as its type reads it, else
 * with its FW_VERSION register (dcm_bus_regs.c). Context: process; each
 * transfer is a request the cycle carries.
 *
 * Return: 0 or a negative errno.
 */
int dcm_board_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		      struct dcm_board_buf *xb, char *version, size_t len)
{
	return dcm_bus_kind(t)->version(rt, dev, t, xb, version, len);
}
