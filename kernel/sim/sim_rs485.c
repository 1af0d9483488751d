// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the RS485 buses of the simulated body: loopbacks.
 *
 * Each bus, RS485-1 to RS485-4, is a struct dcm_bus whose transfer hands
 * the frame the dcm core built to the simulated boards of that bus, which
 * parse it with the same wire code, and returns their replies. The cyclic
 * broadcast gives each board its slot (its ops' slot) with the time since
 * the last one, and the boards answer in Bid order; the chaining frames
 * (Documentation/dcm/wire-protocol.rst) are answered here for every board
 * alike, the configuration by the board's ops.
 *
 * With the wire_time parameter on, each transfer takes the time its
 * characters would on the line at the line's "current-speed" (sim_wire_ns(),
 * Documentation/dcm/wire-protocol.rst, "Budget"): the cyclic broadcast and
 * every board's reply slot, turnaround included, whether the board answers
 * or not; an addressed request, the turnaround and the reply, or the
 * request timeout when nobody answers. Each bus counts what its cyclic
 * exchanges put on the wire (debugfs rs485-N/wire).
 *
 * Each line is a device of its own, "dcm-sim-rs485.N", with the software
 * node the body refers to, and registers as a dcm transport itself, as the
 * driver of an RS485 controller would: the serdev core enumerates the
 * devices on a UART from the device tree or ACPI only, which a simulated
 * line has not.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/random.h>
#include <linux/seq_file.h>

#include "sim_bus.h"
#include "sim_chain.h"
#include "sim_link.h"

/**
 * struct sim_rs485_bus - an RS485 bus and its boards
 * @bus: the transport the dcm core sees: a loopback
 * @line: the line's device, the transport's
 * @index: N - 1
 * @registered: @bus is registered
 * @board: the boards, by place - 1; NULL: none there and after
 * @bid: what chaining gave each board, by place; 0: none
 * @frame: the last frame the boards received
 * @cmd: the last command frame, parsed
 * @last: when it came
 * @silent: debugfs: Bids (bit Bid - 1) that do not answer
 * @crc_ppm: debugfs: replies corrupted, per million
 * @delay_us: debugfs: the bus is that much slower
 * @configured: debugfs, read-only: Bids of the boards that accepted a
 *	configuration structure (bit 0 is Bid 1)
 * @configs: debugfs, read-only: configuration structures accepted
 * @baud: the line's rate, its node's "current-speed"
 * @cycles: cyclic exchanges (debugfs wire, as the rest up to @wire_ns)
 * @tx_bytes: bytes of their broadcasts
 * @rx_bytes: bytes of their replies
 * @chars: their character times on the line, turnarounds and silent
 *	slots included
 * @wire_ns: their wire time at @baud
 * @slot_ns: debugfs slot_changed_ns: when the slot of each Bid last
 *	changed, monotonic clock (ns)
 * @prev: the slots of the last broadcast
 */
struct sim_rs485_bus {
	struct dcm_bus bus;
	struct platform_device *line;
	int index;
	bool registered;
	struct sim_board *board[DCM_RS485_MAX_BOARDS];
	u8 bid[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_frame frame;
	struct dcm_rs485_cmd_frame cmd;
	ktime_t last;
	u32 silent, crc_ppm, delay_us;
	u32 configured, configs;
	u32 baud;
	u64 cycles, tx_bytes, rx_bytes, chars, wire_ns;
	u64 slot_ns[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_slot prev[DCM_RS485_MAX_BOARDS];
};

/**
 * struct sim_rs485 - the body's RS485 buses
 * @bus: RS485-1 to RS485-4
 */
struct sim_rs485 {
	struct sim_rs485_bus bus[SIM_RS485_BUSES];
};

/* A simulated board's identity: unique per bus and place (sim_chain.c). */
static void sim_ident(const struct sim_rs485_bus *r, u32 i, struct dcm_rs485_ident *id)
{
	const struct sim_board_ops *ops = r->board[i]->ops;

	sim_chain_ident(r->index, i, ops->rs485_type, ops->struct_version, id);
}

/* A configuration structure for the board at place @i, Bid @bid. */
static int sim_rs485_config(struct sim_rs485_bus *r, u32 i, u8 *rx, size_t rx_len)
{
	struct sim_board *b = r->board[i];
	u8 bid = r->bid[i], status = DCM_MB_CONFIG_BAD_VALUE;

	if (b->ops->config)
		status = b->ops->config(b, &r->frame, bid);
	if (status == DCM_MB_CONFIG_OK) {
		r->configured |= BIT(bid - 1);
		r->configs++;
	}
	return dcm_rs485_put_config_ack(rx, rx_len, bid, status);
}

/*
 * Chaining (Documentation/dcm/wire-protocol.rst): a reset clears every
 * board's Bid and configuration; the board a request is for
 * (sim_chain_target(): the one whose chain-in is active for a query or an
 * assignment of its BoardId, the one of that Bid for the others) answers,
 * unless it is silent. A board with a Bid takes its configuration and says
 * who it is (IDENT).
 */
static int sim_rs485_chain(struct sim_rs485_bus *r, u8 *rx, size_t rx_len)
{
	struct dcm_rs485_ident id;
	u32 n, i;
	int place, len;

	for (n = 0; n < DCM_RS485_MAX_BOARDS && r->board[n]; n++)
		;
	if (r->frame.cmd == DCM_RS485_CHAIN_RESET) {
		memset(r->bid, 0, sizeof(r->bid));
		r->configured = 0;
		for (i = 0; i < n; i++)
			if (r->board[i]->ops->chain_reset)
				r->board[i]->ops->chain_reset(r->board[i]);
		return 0;
	}
	place = sim_chain_target(&r->frame, r->index, r->bid, n);
	if (place < 0 || (r->silent & BIT(place)))
		return -ETIMEDOUT;
	if (r->frame.cmd == DCM_RS485_CONFIG)
		return sim_rs485_config(r, place, rx, rx_len);
	sim_ident(r, place, &id);
	len = sim_chain_reply(&r->frame, &id, &r->bid[place], rx, rx_len);
	return len < 0 ? -ETIMEDOUT : len;
}

/* The wire time of @chars characters on the line. */
static u64 sim_rs485_ns(const struct sim_rs485_bus *r, u64 chars)
{
	return sim_wire_ns(chars * DCM_RS485_CHAR_BITS, r->baud);
}

/*
 * A request outside the cyclic exchange: its reply after the turnaround, or
 * the request timeout when nobody answers.
 */
static int sim_rs485_request(struct sim_rs485_bus *r, ktime_t start, size_t tx_len, u8 *rx,
			     size_t rx_len)
{
	int len = sim_rs485_chain(r, rx, rx_len);
	u64 ns = sim_rs485_ns(r, tx_len);

	if (len > 0)
		ns += sim_rs485_ns(r, DCM_RS485_GAP + len);
	else if (len < 0)
		ns += (u64)DCM_RS485_REQUEST_TIMEOUT_US * NSEC_PER_USEC;
	sim_wire_wait(start, ns);
	return len;
}

/* When each Bid's slot changed: what a set took to reach the wire. */
static void sim_rs485_slots_seen(struct sim_rs485_bus *r, ktime_t start)
{
	u32 i;

	for (i = 0; i < r->cmd.n; i++) {
		if (!memcmp(&r->prev[i], &r->cmd.slot[i], sizeof(r->prev[i])))
			continue;
		r->prev[i] = r->cmd.slot[i];
		WRITE_ONCE(r->slot_ns[i], ktime_to_ns(start));
	}
}

/*
 * The RS485 loopback: the boards read the broadcast, move for the time since
 * the last one, and answer in Bid order; chaining frames go to the chain.
 * The broadcast and every reply slot take their wire time, answered or not.
 */
static int sim_rs485_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			  size_t rx_len)
{
	struct sim_rs485_bus *r = container_of(bus, struct sim_rs485_bus, bus);
	ktime_t start = ktime_get();
	u32 dt = sim_elapsed(&r->last), i;
	size_t off = 0;
	u64 chars;
	int len;

	sim_delay(READ_ONCE(r->delay_us));
	if (dcm_rs485_parse_frame(tx, tx_len, &r->frame) < 0) {
		/* a board ignores a bad frame */
		sim_wire_wait(start, sim_rs485_ns(r, tx_len) +
			      (u64)DCM_RS485_REQUEST_TIMEOUT_US * NSEC_PER_USEC);
		return -ETIMEDOUT;
	}
	if (r->frame.cmd != DCM_RS485_CYCLE)
		return sim_rs485_request(r, start, tx_len, rx, rx_len);
	if (dcm_rs485_get_cmd(&r->frame, &r->cmd) < 0)
		return -ETIMEDOUT;
	sim_rs485_slots_seen(r, start);
	/* RS485-1's broadcast is the physics link's tick, before its slots. */
	if (r->index == 0)
		sim_link_tick(bus->priv);

	for (i = 0; i < r->cmd.n; i++) {
		struct dcm_rs485_reply reply = { .bid = i + 1, .seq = r->cmd.seq };
		struct sim_board *b = r->board[i];

		if (!b)
			continue;	/* no board at that Bid */
		if (b->ops->slot)
			b->ops->slot(b, &r->cmd.slot[i], dt, &reply);
		if (r->silent & BIT(i))
			continue;
		len = dcm_rs485_put_reply(rx + off, rx_len - off, &reply);
		if (len < 0)
			break;
		if (r->crc_ppm && get_random_u32_below(1000000) < r->crc_ppm)
			rx[off + len - 1] ^= 0x5a;
		off += len;
	}
	chars = tx_len + (u64)r->cmd.n * DCM_RS485_REPLY_SLOT;
	WRITE_ONCE(r->cycles, r->cycles + 1);
	WRITE_ONCE(r->tx_bytes, r->tx_bytes + tx_len);
	WRITE_ONCE(r->rx_bytes, r->rx_bytes + off);
	WRITE_ONCE(r->chars, r->chars + chars);
	WRITE_ONCE(r->wire_ns, r->wire_ns + sim_rs485_ns(r, chars));
	sim_wire_wait(start, sim_rs485_ns(r, chars));
	return off;
}

/* debugfs rs485-N/wire: what the cyclic exchanges put on the line. */
static int sim_rs485_wire_show(struct seq_file *m, void *v)
{
	struct sim_rs485_bus *r = m->private;
	u32 n;

	for (n = 0; n < DCM_RS485_MAX_BOARDS && r->board[n]; n++)
		;
	seq_printf(m, "baud %u\nboards %u\ncycles %llu\ntx_bytes %llu\nrx_bytes %llu\n",
		   r->baud, n, READ_ONCE(r->cycles), READ_ONCE(r->tx_bytes),
		   READ_ONCE(r->rx_bytes));
	seq_printf(m, "chars %llu\nwire_ns %llu\n", READ_ONCE(r->chars), READ_ONCE(r->wire_ns));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_rs485_wire);

/* debugfs rs485-N/slot_changed_ns: per Bid, when its slot last changed. */
static int sim_rs485_slot_ns_show(struct seq_file *m, void *v)
{
	struct sim_rs485_bus *r = m->private;
	int i;

	for (i = 0; i < DCM_RS485_MAX_BOARDS; i++)
		seq_printf(m, "%s%llu", i ? " " : "", READ_ONCE(r->slot_ns[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_rs485_slot_ns);

static const struct dcm_bus_ops sim_rs485_ops = {
	.xfer = sim_rs485_xfer,
};

/**
 * sim_rs485_add() - the RS485 lines, their boards and knobs
 * @sim: the body, its boards added
 * @dev: the body's device
 * @nodes: the lines' software nodes, registered, RS485-1 first
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int sim_rs485_add(struct dcm_sim *sim, struct device *dev, const struct software_node *nodes)
{
	int b, i, ret;

	sim->rs485 = devm_kzalloc(dev, sizeof(*sim->rs485), GFP_KERNEL);
	if (!sim->rs485)
		return -ENOMEM;
	for (b = 0; b < SIM_RS485_BUSES; b++) {
		struct sim_rs485_bus *r = &sim->rs485->bus[b];
		char dname[16];
		struct dentry *d;

		r->index = b;
		r->bus.kind = DCM_BUS_RS485;
		r->bus.ops = &sim_rs485_ops;
		r->bus.priv = sim;
		r->last = ktime_get();
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			r->board[i] = sim_board_find(sim, SIM_BUS_RS485, b, i + 1);
			if (!r->board[i])
				break;
		}

		snprintf(dname, sizeof(dname), "rs485-%d", b + 1);
		d = sim_debugfs_dir(sim, dname);
		sim_debugfs_u32(sim, "silent", d, &r->silent, SIM_BIDS_MASK, true);
		sim_debugfs_u32(sim, "crc_ppm", d, &r->crc_ppm, 1000000, false);
		debugfs_create_x32("configured", 0444, d, &r->configured);
		debugfs_create_u32("configs", 0444, d, &r->configs);
		sim_debugfs_u32(sim, "delay_us", d, &r->delay_us, SIM_DELAY_US_MAX, false);
		debugfs_create_file("wire", 0444, d, r, &sim_rs485_wire_fops);
		debugfs_create_file("slot_changed_ns", 0444, d, r, &sim_rs485_slot_ns_fops);
	}

	for (b = 0; b < SIM_RS485_BUSES; b++) {
		struct sim_rs485_bus *r = &sim->rs485->bus[b];
		struct platform_device_info info = {
			.parent = dev, .name = "dcm-sim-rs485", .id = PLATFORM_DEVID_AUTO,
			.fwnode = software_node_fwnode(&nodes[b]),
		};

		r->line = platform_device_register_full(&info);
		if (IS_ERR(r->line)) {
			ret = PTR_ERR(r->line);
			r->line = NULL;
			goto err;
		}
		r->bus.dev = &r->line->dev;
		r->baud = SIM_RS485_BAUD;
		device_property_read_u32(r->bus.dev, "current-speed", &r->baud);
		ret = dcm_transport_register(&r->bus);
		if (ret)
			goto err;
		r->registered = true;
	}
	return 0;

err:
	sim_rs485_remove(sim);
	return ret;
}

/**
 * sim_rs485_remove() - unregister the RS485 lines
 * @sim: the body
 */
void sim_rs485_remove(struct dcm_sim *sim)
{
	int b;

	if (!sim->rs485)
		return;
	for (b = SIM_RS485_BUSES - 1; b >= 0; b--) {
		struct sim_rs485_bus *r = &sim->rs485->bus[b];

		if (r->registered)
			dcm_transport_unregister(&r->bus);
		r->registered = false;
		if (r->line)
			platform_device_unregister(r->line);
		r->line = NULL;
	}
}
