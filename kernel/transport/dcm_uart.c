// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the UART transport: an RS485 bus of motor boards on a UART, through
 * serdev.
 *
 * The device (a UART's child in the device tree, or ACPI PRP0001 with a
 * _DSD) is compatible with "aldebaran,nao-rs485" and may give its rate in
 * "current-speed" (default 1000000), and how long a transaction waits for
 * the boards' replies in "aldebaran,reply-window-us" (default 5000: the
 * line's share of a 10 ms cycle; a slower round trip, such as an emulated
 * UART's, needs more). The line is a transport: the body that
 * refers to its node names its bus (dcm_body_fw.c). Each cycle's transaction
 * writes the broadcast frame, then gathers the boards' replies until the
 * expected bytes came, the line stayed quiet for a while after the last
 * byte of a whole reply, or the reply window closed. A reply that stops
 * half-way is waited for until the window closes: a UART may deliver a
 * reply in pieces. The cyclic replies are DCM_RS485_REPLY_FRAME bytes
 * each, with no header (Documentation/dcm/wire-protocol.rst); the answers
 * to addressed requests are frames.
 */

#include <linux/ktime.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/property.h>
#include <linux/serdev.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/dcm.h>

#include "transport/dcm_transport.h"
#include "wire/dcm_rs485.h"

#define RS485_RX_MAX		(DCM_RS485_MAX_BOARDS * DCM_RS485_REPLY_SLOT)
#define RS485_QUIET_US		1000	/* the line is done after 1 ms of silence */
#define RS485_WINDOW_US		5000	/* the replies' window closes, by default */
#define RS485_WINDOW_MIN_US	500
#define RS485_WINDOW_MAX_US	9000
#define RS485_REQUEST_US	20000	/* an addressed request's window, at least */

struct dcm_uart {
	struct dcm_bus bus;
	struct serdev_device *serdev;
	u32 window_us;
	spinlock_t lock;		/* @rx, @rx_len, @want */
	u8 rx[RS485_RX_MAX];
	size_t rx_len, want;
	bool listening;
	wait_queue_head_t wq;
};

static int dcm_uart_receive(struct serdev_device *serdev, const unsigned char *buf,
			    size_t count)
{
	struct dcm_uart *r = serdev_device_get_drvdata(serdev);
	size_t n;

	spin_lock(&r->lock);
	n = r->listening ? min(count, r->want - r->rx_len) : 0;
	memcpy(r->rx + r->rx_len, buf, n);
	r->rx_len += n;
	spin_unlock(&r->lock);
	wake_up(&r->wq);
	/* Bytes outside a reply window are line noise: consume them. */
	return count;
}

static const struct serdev_device_ops dcm_uart_serdev_ops = {
	.receive_buf = dcm_uart_receive,
	.write_wakeup = serdev_device_write_wakeup,
};

static size_t rx_count(struct dcm_uart *r)
{
	size_t n;

	spin_lock(&r->lock);
	n = r->rx_len;
	spin_unlock(&r->lock);
	return n;
}

/*
 * Whether what came ends on a reply's last byte: whole cyclic replies, or
 * whole frames (START ADDR CMD LEN, LEN bytes, the CRC), or bytes that are
 * no frame at all.
 */
static bool rx_whole(struct dcm_uart *r, size_t len, bool cyclic)
{
	size_t off = 0;

	if (cyclic)
		return !(len % DCM_RS485_REPLY_FRAME);
	while (off < len) {
		if (r->rx[off] != DCM_RS485_START)
			return true;	/* noise: the quiet rule ends it */
		if (len - off < DCM_RS485_HDR_LEN ||
		    len - off < DCM_RS485_OVERHEAD + r->rx[off + 3])
			return false;
		off += DCM_RS485_OVERHEAD + r->rx[off + 3];
	}
	return true;
}

static int dcm_uart_xfer(struct dcm_bus *bus, u16 addr, const u8 *tx, size_t tx_len, u8 *rx,
			 size_t rx_len)
{
	struct dcm_uart *r = container_of(bus, struct dcm_uart, bus);
	/*
	 * The cycle's broadcast has its share of the period; an addressed
	 * request (chaining, configuration), which the cycle carries after
	 * its exchange, may wait longer for its answer: past the budget, it
	 * costs the bus its next exchange (counted busy), never a wrong one.
	 */
	u32 window = addr == DCM_RS485_ADDR_BROADCAST ? r->window_us :
			 max_t(u32, r->window_us, RS485_REQUEST_US);
	ktime_t end = ktime_add_us(ktime_get(), window);
	ktime_t quiet = ns_to_ktime(RS485_QUIET_US * NSEC_PER_USEC);
	bool cyclic = addr == DCM_RS485_ADDR_BROADCAST && tx_len > 2 && tx[2] == DCM_RS485_CYCLE;
	size_t seen;
	int ret;

	spin_lock(&r->lock);
	r->rx_len = 0;
	r->want = min_t(size_t, rx_len, RS485_RX_MAX);
	r->listening = true;
	spin_unlock(&r->lock);

	ret = serdev_device_write_buf(r->serdev, tx, tx_len);
	if (ret < 0)
		goto out;
	ret = ret == tx_len ? 0 : -EIO;
	if (ret)
		goto out;

	/*
	 * Gather until full, quiet after a whole frame, or out of time
	 * (hrtimers). The bytes below rx_count() are written before it grows,
	 * under the lock rx_count() takes: rx_whole() may read them.
	 */
	do {
		seen = rx_count(r);
		if (seen >= r->want)
			break;
		wait_event_hrtimeout(r->wq, rx_count(r) != seen, quiet);
	} while (ktime_before(ktime_get(), end) &&
		 (!seen || rx_count(r) != seen || !rx_whole(r, seen, cyclic)));
out:
	spin_lock(&r->lock);
	r->listening = false;
	if (!ret) {
		memcpy(rx, r->rx, r->rx_len);
		ret = r->rx_len ? r->rx_len : -ETIMEDOUT;
	}
	spin_unlock(&r->lock);
	return ret;
}

static const struct dcm_bus_ops dcm_uart_ops = {
	.xfer = dcm_uart_xfer,
};

static int dcm_uart_probe(struct serdev_device *serdev)
{
	struct device *dev = &serdev->dev;
	u32 speed = DCM_RS485_BAUD;
	struct dcm_uart *r;
	int ret;

	r = devm_kzalloc(dev, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	device_property_read_u32(dev, "current-speed", &speed);
	r->window_us = RS485_WINDOW_US;
	device_property_read_u32(dev, "aldebaran,reply-window-us", &r->window_us);
	if (r->window_us < RS485_WINDOW_MIN_US || r->window_us > RS485_WINDOW_MAX_US)
		return dev_err_probe(dev, -EINVAL, "aldebaran,reply-window-us %u: %d to %d\n",
				     r->window_us, RS485_WINDOW_MIN_US, RS485_WINDOW_MAX_US);
	spin_lock_init(&r->lock);
	init_waitqueue_head(&r->wq);
	r->serdev = serdev;
	serdev_device_set_drvdata(serdev, r);
	serdev_device_set_client_ops(serdev, &dcm_uart_serdev_ops);

	ret = devm_serdev_device_open(dev, serdev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot open the UART\n");
	serdev_device_set_baudrate(serdev, speed);
	serdev_device_set_flow_control(serdev, false);
	ret = serdev_device_set_parity(serdev, SERDEV_PARITY_NONE);
	if (ret)
		return dev_err_probe(dev, ret, "cannot set the parity\n");

	r->bus.dev = dev;
	r->bus.kind = DCM_BUS_RS485;
	r->bus.ops = &dcm_uart_ops;
	ret = dcm_transport_register(&r->bus);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register the transport\n");
	dev_info(dev, "dcm RS485 transport at %u baud, replies within %u us\n", speed,
		 r->window_us);
	return 0;
}

static void dcm_uart_remove(struct serdev_device *serdev)
{
	struct dcm_uart *r = serdev_device_get_drvdata(serdev);

	dcm_transport_unregister(&r->bus);
}

/* Matched through ACPI PRP0001 too: not behind of_match_ptr(). */
static const struct of_device_id dcm_uart_of_match[] = {
	{ .compatible = "aldebaran,nao-rs485" },
	{ }
};
MODULE_DEVICE_TABLE(of, dcm_uart_of_match);

static struct serdev_device_driver dcm_uart_driver = {
	.driver = {
		.name = "dcm-rs485",
		.of_match_table = dcm_uart_of_match,
	},
	.probe = dcm_uart_probe,
	.remove = dcm_uart_remove,
};

/**
 * dcm_uart_init() - register the UART transport's driver (RS485 lines)
 *
 * Return: 0 or a negative errno.
 */
int dcm_uart_init(void)
{
	return serdev_device_driver_register(&dcm_uart_driver);
}

/**
 * dcm_uart_exit() - unregister it
 */
void dcm_uart_exit(void)
{
	serdev_device_driver_unregister(&dcm_uart_driver);
}
