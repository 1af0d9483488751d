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

#include "sim_bus.h"

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
};

/**
 * struct sim_rs485 - the body's RS485 buses
 * @bus: RS485-1 to RS485-4
 */
struct sim_rs485 {
	struct sim_rs485_bus bus[SIM_RS485_BUSES];
};

/* A simulated board's identity: unique per bus and place. */
static void sim_ident(const struct sim_rs485_bus *r, u32 i, struct dcm_rs485_ident *id)
{
	const struct sim_board_ops *ops = r->board[i]->ops;

	memset(id, 0, sizeof(*id));
	id->type = ops->rs485_type;
	id->struct_version = ops->struct_version;
	id->board_id = 0x4e410000 | ((r->index + 1) << 8) | (i + 1);
	id->board_id2 = id->board_id ^ 0xffff;
	id->bootloader_version = 0x0102;
	id->prog_version = 0x0203;
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
 * board's Bid and configuration; the first board in the chain without a
 * Bid (the only one whose chain-in is active) answers a query with its
 * identity, unless it is silent; an assignment gives a Bid to the board of
 * that BoardId, which enables the next one. A board with a Bid takes its
 * configuration and says who it is (IDENT).
 */
static int sim_rs485_chain(struct sim_rs485_bus *r, u8 *rx, size_t rx_len)
{
	struct dcm_rs485_ident id;
	u32 board_id, i;
	u8 bid;

	switch (r->frame.cmd) {
	case DCM_RS485_CHAIN_RESET:
		memset(r->bid, 0, sizeof(r->bid));
		r->configured = 0;
		for (i = 0; i < DCM_RS485_MAX_BOARDS && r->board[i]; i++)
			if (r->board[i]->ops->chain_reset)
				r->board[i]->ops->chain_reset(r->board[i]);
		return 0;
	case DCM_RS485_CHAIN_QUERY:
		for (i = 0; i < DCM_RS485_MAX_BOARDS && r->board[i]; i++) {
			if (r->bid[i])
				continue;
			if (r->silent & BIT(i))
				return -ETIMEDOUT;
			sim_ident(r, i, &id);
			return dcm_rs485_put_ident(rx, rx_len, 0,
						   DCM_RS485_CHAIN_QUERY | DCM_RS485_REPLY, &id);
		}
		return -ETIMEDOUT;
	case DCM_RS485_CONFIG:
	case DCM_RS485_IDENT:
		for (i = 0; i < DCM_RS485_MAX_BOARDS; i++) {
			if (!r->bid[i] || r->bid[i] != r->frame.addr)
				continue;
			if (r->silent & BIT(i))
				return -ETIMEDOUT;
			if (r->frame.cmd == DCM_RS485_CONFIG)
				return sim_rs485_config(r, i, rx, rx_len);
			sim_ident(r, i, &id);
			return dcm_rs485_put_ident(rx, rx_len, r->bid[i],
						   DCM_RS485_IDENT | DCM_RS485_REPLY, &id);
		}
		return -ETIMEDOUT;
	case DCM_RS485_CHAIN_ASSIGN:
		if (dcm_rs485_get_assign(&r->frame, &board_id, &bid))
			return -ETIMEDOUT;
		for (i = 0; i < DCM_RS485_MAX_BOARDS && r->board[i]; i++) {
			sim_ident(r, i, &id);
			if (id.board_id != board_id || r->bid[i])
				continue;
			r->bid[i] = bid;
			return dcm_rs485_put_assign(rx, rx_len, true, board_id, bid);
		}
		return -ETIMEDOUT;
	}
	return -ETIMEDOUT;
}

/*
 * The RS485 loopback: the boards read the broadcast, move for the time since
 * the last one, and answer in Bid order; chaining frames go to the chain.
 */
static int sim_rs485_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			  size_t rx_len)
{
	struct sim_rs485_bus *r = container_of(bus, struct sim_rs485_bus, bus);
	u32 dt = sim_elapsed(&r->last), i;
	size_t off = 0;
	int len;

	if (r->delay_us)
		usleep_range(r->delay_us, r->delay_us + 100);
	if (dcm_rs485_parse_frame(tx, tx_len, &r->frame) < 0)
		return -ETIMEDOUT;	/* a board ignores a bad frame */
	if (r->frame.cmd != DCM_RS485_CYCLE)
		return sim_rs485_chain(r, rx, rx_len);
	if (dcm_rs485_get_cmd(&r->frame, &r->cmd) < 0)
		return -ETIMEDOUT;

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
	return off;
}

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
		debugfs_create_x32("silent", 0644, d, &r->silent);
		debugfs_create_u32("crc_ppm", 0644, d, &r->crc_ppm);
		debugfs_create_x32("configured", 0444, d, &r->configured);
		debugfs_create_u32("configs", 0444, d, &r->configs);
		debugfs_create_u32("delay_us", 0644, d, &r->delay_us);
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
