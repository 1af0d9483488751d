// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the I2C adapters of the simulated body.
 *
 * "dcm-sim I2C-chest" and "dcm-sim I2C-head" answer for the boards the
 * board families put on them (sim_boards.h): a message reaches the board
 * at its address through its ops (read, write), nobody acknowledges an
 * address without a board. Each adapter has the software node the body
 * refers to, and an i2c_client per board, named as the board's kind
 * ("nao-chest-board"), which the real dcm I2C driver binds: its transfers
 * carry the cycle's (Documentation/dcm/wire-protocol.rst, "Register maps").
 *
 * With the wire_time parameter on, a transfer takes its time at the
 * adapter's "clock-frequency": a start (or repeated start) bit, then 9
 * clocks for the address and for each byte (8 bits and the acknowledge),
 * and a stop bit; a message nobody acknowledges ends after its address.
 * The body's lock is not held while the transfer waits.
 *
 * debugfs i2c-chest/wire and i2c-head/wire count what the transfers put on
 * the bus, whether wire_time is on or not: in all, then per board address,
 * a board's messages and the transfers that reached it
 * (Documentation/dcm/simulator.rst, "Wire time"). i2c-chest/deaf and
 * i2c-head/deaf name an address that nobody acknowledges: a board that
 * does not answer, the transfer stopped there, as a master stops.
 */

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/property.h>

#include "sim_bus.h"

#define SIM_I2C_CLIENTS	8	/* boards on an adapter, at most */

/**
 * struct sim_i2c_count - what transfers put on an I2C bus
 * @xfers: transfers (i2c_transfer() calls: start to stop)
 * @msgs: their messages (a start or repeated start each)
 * @bytes: the bytes after the addresses, acknowledged
 * @bits: every clock: starts, addresses, bytes, acknowledges, stops
 * @nacks: transfers whose address nobody acknowledged
 */
struct sim_i2c_count {
	u64 xfers, msgs, bytes, bits, nacks;
};

/**
 * struct sim_i2c_adap - a simulated I2C adapter and its boards' clients
 * @adap: the adapter
 * @client: the clients of its boards
 * @n_client: how many
 * @sim: the body
 * @index: enum sim_i2c_bus
 * @added: @adap is registered
 * @hz: its clock, its node's "clock-frequency"
 * @all: what every transfer put on the bus (debugfs wire), under the
 *	body's lock
 * @per: the same per board, as @client
 * @addr: the address of each client
 * @deaf: an address nobody acknowledges, its board's there or not (debugfs
 *	deaf, 0: none): a board that does not answer
 */
struct sim_i2c_adap {
	struct i2c_adapter adap;
	struct i2c_client *client[SIM_I2C_CLIENTS];
	int n_client;
	struct dcm_sim *sim;
	u8 index;
	bool added;
	u32 hz;
	struct sim_i2c_count all, per[SIM_I2C_CLIENTS];
	u16 addr[SIM_I2C_CLIENTS];
	u32 deaf;
};

/**
 * struct sim_i2c - the body's I2C adapters
 * @bus: by enum sim_i2c_bus
 */
struct sim_i2c {
	struct sim_i2c_adap bus[SIM_I2C_BUSES];
};

static int sim_i2c_msg(struct sim_i2c_adap *bus, struct i2c_msg *msg)
{
	struct sim_board *b = sim_board_find(bus->sim, SIM_BUS_I2C, bus->index, msg->addr);

	/* nobody acknowledges the address: no board there, or a deaf one */
	if (!b || msg->addr == READ_ONCE(bus->deaf))
		return -ENXIO;
	if (msg->flags & I2C_M_RD)
		return b->ops->read ? b->ops->read(b, msg->buf, msg->len) : -EIO;
	return b->ops->write ? b->ops->write(b, msg->buf, msg->len) : -EIO;
}

/*
 * Account for message @i (@bits, @bytes), to @addr: a board's transfers
 * are those that reach it (@seen: the boards reached so far by this one).
 */
static void sim_i2c_count(struct sim_i2c_adap *bus, u16 addr, u64 bytes, u64 bits, bool nack,
			  unsigned long *seen)
{
	struct sim_i2c_count *c;
	int i;

	for (i = 0; i < bus->n_client; i++) {
		if (bus->addr[i] != addr)
			continue;
		c = &bus->per[i];
		c->xfers += !__test_and_set_bit(i, seen);
		c->msgs++;
		c->bytes += bytes;
		c->bits += bits;
		c->nacks += nack;
	}
}

/*
 * A transfer: its messages in turn, each to its address, until one is not
 * acknowledged (the master then stops). Each board's count has its own
 * messages; the stop counts in the bus's only.
 */
static int sim_i2c_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct sim_i2c_adap *bus = i2c_get_adapdata(adap);
	struct dcm_sim *sim = bus->sim;
	ktime_t start = ktime_get();
	unsigned long seen = 0;
	u64 bits = 1, bytes = 0;	/* the stop */
	int i, ret = 0;

	mutex_lock(&sim->lock);
	for (i = 0; i < num && !ret; i++) {
		/* (repeated) start, address, and the bytes if acknowledged */
		u64 b;

		ret = sim_i2c_msg(bus, &msgs[i]);
		b = 1 + 9 * (1 + (ret == -ENXIO ? 0 : (u64)msgs[i].len));
		bits += b;
		if (ret != -ENXIO)
			bytes += msgs[i].len;
		sim_i2c_count(bus, msgs[i].addr, ret == -ENXIO ? 0 : msgs[i].len, b,
			      ret == -ENXIO, &seen);
	}
	if (num > 0) {
		bus->all.xfers++;
		bus->all.msgs += i;
		bus->all.bytes += bytes;
		bus->all.bits += bits;
		bus->all.nacks += ret == -ENXIO;
	}
	mutex_unlock(&sim->lock);
	sim_wire_wait(start, sim_wire_ns(bits, bus->hz));
	return ret ? ret : num;
}

/* debugfs i2c-chest/wire, i2c-head/wire: what the transfers put on the bus. */
static int sim_i2c_wire_show(struct seq_file *m, void *v)
{
	struct sim_i2c_adap *bus = m->private;
	struct sim_i2c_count all, per[SIM_I2C_CLIENTS];
	u16 addr[SIM_I2C_CLIENTS];
	int i, n;

	mutex_lock(&bus->sim->lock);
	all = bus->all;
	n = bus->n_client;
	memcpy(per, bus->per, sizeof(per));
	memcpy(addr, bus->addr, sizeof(addr));
	mutex_unlock(&bus->sim->lock);
	seq_printf(m, "hz %u\nxfers %llu\nmsgs %llu\nbytes %llu\nbits %llu\nnacks %llu\n",
		   bus->hz, all.xfers, all.msgs, all.bytes, all.bits, all.nacks);
	seq_printf(m, "wire_ns %llu\n", sim_wire_ns(all.bits, bus->hz));
	for (i = 0; i < n; i++)
		seq_printf(m, "0x%02x xfers %llu msgs %llu bytes %llu bits %llu nacks %llu\n",
			   addr[i], per[i].xfers, per[i].msgs, per[i].bytes, per[i].bits,
			   per[i].nacks);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_i2c_wire);

static u32 sim_i2c_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static const struct i2c_algorithm sim_i2c_algo = {
	.master_xfer = sim_i2c_master_xfer,
	.functionality = sim_i2c_func,
};

/* The clients of the boards on an adapter: the real driver binds them. */
static int sim_add_clients(struct sim_i2c_adap *bus)
{
	struct sim_board *b;

	list_for_each_entry(b, &bus->sim->boards, node) {
		struct i2c_board_info info = { .addr = b->addr };
		struct i2c_client *client;

		if (b->bus != SIM_BUS_I2C || b->index != bus->index || !b->dev_id)
			continue;
		if (bus->n_client == SIM_I2C_CLIENTS)
			return -ENOSPC;
		strscpy(info.type, b->dev_id, sizeof(info.type));
		client = i2c_new_client_device(&bus->adap, &info);
		if (IS_ERR(client))
			return PTR_ERR(client);
		mutex_lock(&bus->sim->lock);
		bus->addr[bus->n_client] = b->addr;
		bus->client[bus->n_client++] = client;
		mutex_unlock(&bus->sim->lock);
	}
	return 0;
}

/**
 * sim_i2c_add() - the I2C adapters and their boards' clients
 * @sim: the body, its boards added
 * @parent: the simulated body's device
 * @nodes: the adapters' software nodes, registered, by enum sim_i2c_bus
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int sim_i2c_add(struct dcm_sim *sim, struct device *parent, const struct software_node *nodes)
{
	static const char *const names[SIM_I2C_BUSES] = { "I2C-chest", "I2C-head" };
	static const char *const dirs[SIM_I2C_BUSES] = { "i2c-chest", "i2c-head" };
	int b, ret;

	sim->i2c = devm_kzalloc(parent, sizeof(*sim->i2c), GFP_KERNEL);
	if (!sim->i2c)
		return -ENOMEM;
	for (b = 0; b < SIM_I2C_BUSES; b++) {
		struct sim_i2c_adap *bus = &sim->i2c->bus[b];

		bus->sim = sim;
		bus->index = b;
		bus->hz = b == SIM_I2C_CHEST ? SIM_I2C_CHEST_HZ : SIM_I2C_HEAD_HZ;
		fwnode_property_read_u32(software_node_fwnode(&nodes[b]), "clock-frequency",
					 &bus->hz);
		bus->adap.owner = THIS_MODULE;
		bus->adap.algo = &sim_i2c_algo;
		bus->adap.dev.parent = parent;
		device_set_node(&bus->adap.dev, software_node_fwnode(&nodes[b]));
		snprintf(bus->adap.name, sizeof(bus->adap.name), "dcm-sim%d %s", sim->id,
			 names[b]);
		i2c_set_adapdata(&bus->adap, bus);
		ret = i2c_add_adapter(&bus->adap);
		if (ret)
			goto err;
		bus->added = true;
		ret = sim_add_clients(bus);
		if (ret)
			goto err;
		debugfs_create_file("wire", 0444, sim_debugfs_dir(sim, dirs[b]), bus,
				    &sim_i2c_wire_fops);
		sim_debugfs_u32(sim, "deaf", sim_debugfs_dir(sim, dirs[b]), &bus->deaf, 0x7f,
				true);
	}
	return 0;

err:
	sim_i2c_remove(sim);
	return ret;
}

/**
 * sim_i2c_remove() - remove the clients, then the adapters
 * @sim: the body
 */
void sim_i2c_remove(struct dcm_sim *sim)
{
	int b;

	if (!sim->i2c)
		return;
	for (b = SIM_I2C_BUSES - 1; b >= 0; b--) {
		struct sim_i2c_adap *bus = &sim->i2c->bus[b];

		while (bus->n_client > 0)
			i2c_unregister_device(bus->client[--bus->n_client]);
		if (bus->added)
			i2c_del_adapter(&bus->adap);
		bus->added = false;
	}
}
