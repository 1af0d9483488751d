// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the I2C adapters of the simulated body.
 *
 * "dcm-sim I2C-chest" and "dcm-sim I2C-head" answer for the boards the
 * board families put on them (sim_boards.h): a message reaches the board
 * at its address through its ops (read, write), nobody acknowledges an
 * address without a board. Each adapter gets a "dcm-i2c" platform device
 * naming it, so the real I2C transport of the dcm core carries the cycle's
 * transfers (Documentation/dcm/wire-protocol.rst, "Register maps").
 */

#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/platform_device.h>
#include <linux/property.h>

#include "sim_bus.h"

/**
 * struct sim_i2c_adap - a simulated I2C adapter and the real transport on it
 * @adap: the adapter
 * @transport: the "dcm-i2c" platform device naming it to the dcm core
 * @sim: the body
 * @index: enum sim_i2c_bus
 * @bus_name: the description's Bus name, "I2C-chest" or "I2C-head"
 * @added: @adap is registered
 */
struct sim_i2c_adap {
	struct i2c_adapter adap;
	struct platform_device *transport;
	struct dcm_sim *sim;
	u8 index;
	const char *bus_name;
	bool added;
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

	if (!b)
		return -ENXIO;	/* nobody acknowledges the address */
	if (msg->flags & I2C_M_RD)
		return b->ops->read ? b->ops->read(b, msg->buf, msg->len) : -EIO;
	return b->ops->write ? b->ops->write(b, msg->buf, msg->len) : -EIO;
}

static int sim_i2c_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	struct sim_i2c_adap *bus = i2c_get_adapdata(adap);
	struct dcm_sim *sim = bus->sim;
	int i, ret = 0;

	mutex_lock(&sim->lock);
	for (i = 0; i < num && !ret; i++)
		ret = sim_i2c_msg(bus, &msgs[i]);
	mutex_unlock(&sim->lock);
	return ret ? ret : num;
}

static u32 sim_i2c_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C;
}

static const struct i2c_algorithm sim_i2c_algo = {
	.master_xfer = sim_i2c_master_xfer,
	.functionality = sim_i2c_func,
};

/* The real I2C transport, on a simulated adapter. */
static int sim_add_transport(struct sim_i2c_adap *bus, struct device *parent)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("dcm,bus-name", bus->bus_name),
		PROPERTY_ENTRY_U32("dcm,i2c-adapter", bus->adap.nr),
		{ }
	};
	struct platform_device_info info = {
		.parent = parent, .name = "dcm-i2c", .id = PLATFORM_DEVID_AUTO,
		.properties = props,
	};

	bus->transport = platform_device_register_full(&info);
	if (IS_ERR(bus->transport)) {
		int ret = PTR_ERR(bus->transport);

		bus->transport = NULL;
		return ret;
	}
	return 0;
}

/**
 * sim_i2c_add() - the I2C adapters and their transports
 * @sim: the body
 * @parent: the simulated body's device
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int sim_i2c_add(struct dcm_sim *sim, struct device *parent)
{
	static const char *const names[SIM_I2C_BUSES] = { "I2C-chest", "I2C-head" };
	int b, ret;

	sim->i2c = devm_kzalloc(parent, sizeof(*sim->i2c), GFP_KERNEL);
	if (!sim->i2c)
		return -ENOMEM;
	for (b = 0; b < SIM_I2C_BUSES; b++) {
		struct sim_i2c_adap *bus = &sim->i2c->bus[b];

		bus->sim = sim;
		bus->index = b;
		bus->bus_name = names[b];
		/*
		 * No owner: the I2C transport holds the adapter, and would pin
		 * this module; dcm_sim removes the transport before the adapter
		 * instead.
		 */
		bus->adap.owner = NULL;
		bus->adap.algo = &sim_i2c_algo;
		bus->adap.dev.parent = parent;
		snprintf(bus->adap.name, sizeof(bus->adap.name), "dcm-sim %s", names[b]);
		i2c_set_adapdata(&bus->adap, bus);
		ret = i2c_add_adapter(&bus->adap);
		if (ret)
			goto err;
		bus->added = true;
		ret = sim_add_transport(bus, parent);
		if (ret)
			goto err;
	}
	return 0;

err:
	sim_i2c_remove(sim);
	return ret;
}

/**
 * sim_i2c_remove() - remove the transports, then the adapters
 * @sim: the body
 */
void sim_i2c_remove(struct dcm_sim *sim)
{
	int b;

	if (!sim->i2c)
		return;
	for (b = SIM_I2C_BUSES - 1; b >= 0; b--) {
		struct sim_i2c_adap *bus = &sim->i2c->bus[b];

		if (bus->transport)
			platform_device_unregister(bus->transport);
		bus->transport = NULL;
		if (bus->added)
			i2c_del_adapter(&bus->adap);
		bus->added = false;
	}
}
