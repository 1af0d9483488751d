// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the I2C transport: the robot's boards on an I2C controller.
 *
 * Each board is an i2c_client (a device-tree or ACPI node under the I2C
 * controller, compatible "aldebaran,nao-chest-board" and so on, "reg" its
 * address; or a client created by name). The driver binds it and puts it
 * on its adapter's bus (dcm_ctlr.c): the adapter is the transport that a
 * body refers to, its boards are reached at their addresses. Each cycle
 * transaction is a write of the start register and block, or a write of
 * the start register and a read: one i2c_transfer() with a repeated start;
 * the cycle puts all the transactions of its exchange with the bus's boards
 * in one i2c_transfer() (&struct dcm_bus_ops.xfer_many).
 */

#include <linux/i2c.h>
#include <linux/mod_devicetable.h>
#include <linux/slab.h>
#include <linux/dcm.h>

#include "transport/dcm_transport.h"
#include "transport/dcm_ctlr.h"

static int dcm_i2c_xfer(struct dcm_ctlr_board *board, const u8 *tx, size_t tx_len, u8 *rx,
			size_t rx_len)
{
	struct i2c_client *client = board->priv;
	struct i2c_msg msg[2] = {
		{ .addr = client->addr, .flags = 0, .len = tx_len, .buf = (u8 *)tx },
		{ .addr = client->addr, .flags = I2C_M_RD, .len = rx_len, .buf = rx },
	};
	int n = rx_len ? 2 : 1, ret;

	if (tx_len > U16_MAX || rx_len > U16_MAX || !tx_len)
		return -EINVAL;
	ret = i2c_transfer(client->adapter, msg, n);
	if (ret == -ENXIO || ret == -EREMOTEIO)
		return -ETIMEDOUT;	/* nobody acknowledged the address */
	if (ret < 0)
		return ret;
	return ret == n ? rx_len : -EIO;
}

/*
 * A batch in one i2c_transfer(): each transaction's write, and its read
 * after a repeated start, whatever the board. An adapter with quirks may
 * refuse such a combination: it then gets the transactions one by one.
 */
static int dcm_i2c_xfer_many(struct dcm_ctlr_board *const *board, const struct dcm_xfer *x,
			     unsigned int n)
{
	struct i2c_msg msg[2 * DCM_XFER_MANY_MAX];
	struct i2c_adapter *adap;
	unsigned int i, m = 0;
	int ret;

	if (!n || n > DCM_XFER_MANY_MAX)
		return -EINVAL;
	adap = ((struct i2c_client *)board[0]->priv)->adapter;
	if (adap->quirks)
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++) {
		struct i2c_client *client = board[i]->priv;

		if (!x[i].tx_len)
			return -EINVAL;
		msg[m++] = (struct i2c_msg){ .addr = client->addr, .len = x[i].tx_len,
					     .buf = (u8 *)x[i].tx };
		if (x[i].rx_len)
			msg[m++] = (struct i2c_msg){ .addr = client->addr, .flags = I2C_M_RD,
						     .len = x[i].rx_len, .buf = x[i].rx };
	}
	ret = i2c_transfer(adap, msg, m);
	if (ret == -ENXIO || ret == -EREMOTEIO)
		return -ETIMEDOUT;	/* an address nobody acknowledged */
	if (ret < 0)
		return ret;
	return ret == m ? 0 : -EIO;
}

static const struct dcm_ctlr_ops dcm_i2c_ops = {
	.kind = "I2C",
	.xfer = dcm_i2c_xfer,
	.xfer_many = dcm_i2c_xfer_many,
};

static int dcm_i2c_probe(struct i2c_client *client)
{
	struct device *dev = &client->dev;
	struct dcm_ctlr_board *board;
	int ret;

	if (client->flags & I2C_CLIENT_TEN)
		return dev_err_probe(dev, -EINVAL, "10-bit address: the boards have 7-bit ones\n");
	board = devm_kzalloc(dev, sizeof(*board), GFP_KERNEL);
	if (!board)
		return -ENOMEM;
	board->addr = client->addr;
	board->dev = dev;
	board->priv = client;
	ret = dcm_ctlr_board_add(&client->adapter->dev, &dcm_i2c_ops, board);
	if (ret)
		return dev_err_probe(dev, ret, "cannot join the bus of %s\n",
				     dev_name(&client->adapter->dev));
	i2c_set_clientdata(client, board);
	return 0;
}

static void dcm_i2c_remove(struct i2c_client *client)
{
	dcm_ctlr_board_del(&client->adapter->dev, i2c_get_clientdata(client));
}

/* Matched through ACPI PRP0001 too: not behind of_match_ptr(). */
static const struct of_device_id dcm_i2c_of_match[] = {
	{ .compatible = "aldebaran,nao-chest-board" },
	{ .compatible = "aldebaran,nao-battery" },
	{ .compatible = "aldebaran,nao-us-board" },
	{ .compatible = "aldebaran,nao-head-board" },
	{ .compatible = "aldebaran,nao-face-board" },
	{ .compatible = "aldebaran,nao-ear-board" },
	{ .compatible = "aldebaran,nao-touch-board" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_i2c_of_match);

static const struct i2c_device_id dcm_i2c_ids[] = {
	{ "nao-chest-board" },
	{ "nao-battery" },
	{ "nao-us-board" },
	{ "nao-head-board" },
	{ "nao-face-board" },
	{ "nao-ear-board" },
	{ "nao-touch-board" },
	{ }
};
MODULE_DEVICE_TABLE(i2c, dcm_i2c_ids);

static struct i2c_driver dcm_i2c_driver = {
	.driver = {
		.name = "dcm-i2c",
		.of_match_table = dcm_i2c_of_match,
	},
	.probe_new = dcm_i2c_probe,
	.remove = dcm_i2c_remove,
	.id_table = dcm_i2c_ids,
};

/**
 * dcm_i2c_init() - register the I2C transport's driver
 *
 * Return: 0 or a negative errno.
 */
int dcm_i2c_init(void)
{
	return i2c_add_driver(&dcm_i2c_driver);
}

/**
 * dcm_i2c_exit() - unregister it
 */
void dcm_i2c_exit(void)
{
	i2c_del_driver(&dcm_i2c_driver);
}
