// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - a register bus (DCM_BUS_REGS: I2C or SPI): each board's type
 * exchanges its register blocks, board by board (its &struct
 * dcm_board_regs, dcm_bus_regs.h), through the one set of register helpers
 * here (Documentation/dcm/wire-protocol.rst, "Register maps").
 */

#include <linux/dcm.h>
#include <linux/kernel.h>
#include <linux/mutex.h>

#include "core/dcm_board_type.h"
#include "core/dcm_bus_req.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_regs.h"
#include "wire/dcm_regs.h"

/**
 * dcm_reg_write() - write a register block
 * @t: the transport (dcm_bus_xfer())
 * @addr: the board's address
 * @buf: scratch of @len + 1 bytes: the register, then @data
 * @reg: the first register
 * @data: what to write
 * @len: how many bytes
 *
 * Return: 0 or a negative errno.
 */
int dcm_reg_write(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, const u8 *data, u32 len)
{
	int ret;

	buf[0] = reg;
	memcpy(buf + 1, data, len);
	ret = dcm_bus_xfer(t, addr, buf, len + 1, NULL, 0);
	return ret < 0 ? ret : 0;
}

/**
 * dcm_reg_read() - read a register block
 * @t: the transport (dcm_bus_xfer())
 * @addr: the board's address
 * @buf: scratch of one byte: the register
 * @reg: the first register
 * @data: what was read
 * @len: how many bytes
 *
 * Return: 0, -EIO for a short read, or a negative errno.
 */
int dcm_reg_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len)
{
	int ret;

	buf[0] = reg;
	ret = dcm_bus_xfer(t, addr, buf, 1, data, len);
	return ret < 0 ? ret : ret == len ? 0 : -EIO;
}

/**
 * dcm_reg_xfer() - write a register block, then read one
 * @t: the transport (dcm_bus_xfer())
 * @addr: the board's address
 * @buf: scratch of @out_len + 1 bytes
 * @out_reg: the first register written
 * @out: what to write
 * @out_len: how many bytes; 0 writes nothing
 * @in_reg: the first register read
 * @in: what was read
 * @in_len: how many bytes
 *
 * Return: as dcm_reg_read().
 */
int dcm_reg_xfer(struct dcm_bus *t, u16 addr, u8 *buf, u8 out_reg, const u8 *out, u32 out_len,
		 u8 in_reg, u8 *in, u32 in_len)
{
	int ret;

	if (out_len) {
		ret = dcm_reg_write(t, addr, buf, out_reg, out, out_len);
		if (ret)
			return ret;
	}
	return dcm_reg_read(t, addr, buf, in_reg, in, in_len);
}

/**
 * dcm_reg_spi_read() - read registers of an SPI board, checked by its CRC-8
 * @t: the transport (dcm_bus_xfer())
 * @cs: the board's chip select
 * @tx: scratch for what goes out
 * @rx: scratch for what comes back
 * @size: bytes of @tx and of @rx
 * @reg: the first register
 * @data: what was read
 * @count: how many bytes
 *
 * Return: 0, -EIO when the transfer failed or was short, -EBADMSG for a
 * bad check, -EINVAL for a bad @reg or @count.
 */
int dcm_reg_spi_read(struct dcm_bus *t, u16 cs, u8 *tx, u8 *rx, size_t size, u8 reg, u8 *data,
		     u32 count)
{
	int len, got;

	len = dcm_spi_put_read(tx, size, reg, count);
	if (len < 0)
		return len;
	got = dcm_bus_xfer(t, cs, tx, len, rx, len);
	if (got != len)
		return -EIO;
	return dcm_spi_get_read(rx, len, reg, count, data);
}

/**
 * dcm_reg_answer() - a register board's Ack, or its Nack
 * @rt: the runtime
 * @dev: the device index
 * @ret: what its transfers returned: 0 is an Ack, else a Nack and a "no
 *	answer" error of level 7
 * @now: the cycle's DCM time
 */
void dcm_reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now)
{
	if (ret)
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
	else
		dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/**
 * dcm_board_read() - read a register block outside the cycle
 * @t: the transport: the read is a request the cycle carries
 * @addr: the board's address
 * @buf: scratch of one byte
 * @reg: the first register
 * @data: what was read
 * @len: how many bytes
 *
 * Context: process.
 *
 * Return: as dcm_reg_read(); -EINVAL on a bus that is no register bus, or
 * an address no I2C board has.
 */
int dcm_board_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len)
{
	int ret = -EINVAL;

	if (t->kind == DCM_BUS_REGS && addr <= 0x7f)
		ret = dcm_reg_read(t, addr, buf, reg, data, len);
	return ret;
}

/* A cycle of a register bus: each board's type makes its transfers. */
static void regs_exchange(struct dcm_runtime *rt, struct dcm_rt_bus *b, struct dcm_bus *t,
			  u32 now)
{
	u32 i;

	for (i = 0; i < b->n_dev; i++) {
		const struct dcm_board_regs *rb = rt->dev[b->dev[i]].type->regs;

		if (rb)
			rb->exchange(rt, b->dev[i], t, now);
	}
}

/*
 * A register board's versions: as its type reads them, else its FW_VERSION
 * register (over SPI for a board read over SPI, &struct dcm_board_regs.spi),
 * which goes to its ProgVersion.
 */
static int regs_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
			struct dcm_board_buf *xb, char *version, size_t len)
{
	const struct dcm_board_regs *rb = rt->dev[dev].type->regs;
	u16 addr = rt->model->devices[dev].address;
	u8 data;
	int ret;

	if (rb && rb->version)
		return rb->version(rt, dev, t, xb, version, len);
	if (rb && rb->spi)
		ret = dcm_reg_spi_read(t, addr, xb->tx, xb->rx, sizeof(xb->tx),
				       DCM_REG_FW_VERSION, &data, 1);
	else
		ret = dcm_board_read(t, addr, xb->tx, DCM_REG_FW_VERSION, &data, 1);
	if (ret)
		return ret;
	dcm_board_set_live(dcm_board_dev_key(rt->model, dev, "ProgVersion"), data);
	snprintf(version, len, "%u", data);
	return 0;
}

const struct dcm_bus_kind_ops dcm_bus_regs_kind = {
	.what = "an I2C or SPI controller",
	.prefixes = (const char *const []){ "I2C", "SPI", NULL },
	.exchange = regs_exchange,
	.version = regs_version,
};
