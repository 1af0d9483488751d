// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the register access every register-mapped board shares: the SPI
 * block transfer with its CRC-8 and the SMBus block read with its PEC
 * (Documentation/dcm/wire-protocol.rst, "Register maps"). The maps
 * themselves are in the board families' files, dcm_wire_<family>.c.
 */

#include "wire/dcm_regs.h"

static bool spi_ok(u8 reg, u8 count)
{
	return count >= 1 && count <= DCM_SPI_MAX && reg < DCM_SPI_READ &&
	       reg + count <= DCM_SPI_READ;
}

/**
 * dcm_spi_put_read() - the bytes the master clocks out to read a block
 * @tx: where
 * @size: room in @tx
 * @reg: first register, 0..0x7f
 * @count: bytes, 1..DCM_SPI_MAX, within 0..0x7f
 *
 * The transfer is full duplex, @count + DCM_SPI_OVERHEAD bytes each way:
 * out go the command (DCM_SPI_READ | @reg), @count and zeros; in come two
 * bytes to ignore, the block and its CRC-8 (dcm_spi_get_read()).
 *
 * Return: the transfer length; -EINVAL for a bad @reg or @count; -EMSGSIZE
 * if @size is too small.
 */
int dcm_spi_put_read(u8 *tx, size_t size, u8 reg, u8 count)
{
	if (!spi_ok(reg, count))
		return -EINVAL;
	if (size < (size_t)count + DCM_SPI_OVERHEAD)
		return -EMSGSIZE;
	memset(tx, 0, count + DCM_SPI_OVERHEAD);
	tx[0] = DCM_SPI_READ | reg;
	tx[1] = count;
	return count + DCM_SPI_OVERHEAD;
}

/**
 * dcm_spi_get_read() - check and copy the block a read brought in
 * @rx: the bytes received during the transfer dcm_spi_put_read() built
 * @len: how many
 * @reg: the register read
 * @count: the count read
 * @data: the @count bytes
 *
 * The CRC-8 covers the command byte, the count and the block, so a board
 * answering another request fails it too.
 *
 * Return: 0; -EINVAL for a bad @reg or @count; -EMSGSIZE if @len is not the
 * transfer length; -EBADMSG on a CRC error.
 */
int dcm_spi_get_read(const u8 *rx, size_t len, u8 reg, u8 count, u8 *data)
{
	u8 hdr[2] = { DCM_SPI_READ | reg, count }, crc;

	if (!spi_ok(reg, count))
		return -EINVAL;
	if (len != (size_t)count + DCM_SPI_OVERHEAD)
		return -EMSGSIZE;
	crc = dcm_crc8(DCM_CRC8_INIT, hdr, 2);
	crc = dcm_crc8(crc, rx + 2, count);
	if (crc != rx[2 + count])
		return -EBADMSG;
	memcpy(data, rx + 2, count);
	return 0;
}

/**
 * dcm_spi_put_write() - the bytes the master clocks out to write a block
 * @tx: where
 * @size: room in @tx
 * @reg: first register, 0..0x7f
 * @data: the bytes
 * @count: how many, 1..DCM_SPI_MAX, within 0..0x7f
 *
 * The command (@reg, bit 7 clear), @count, the block and the CRC-8 of all
 * three. The board ignores a write whose CRC fails.
 *
 * Return: the transfer length; -EINVAL for a bad @reg or @count; -EMSGSIZE
 * if @size is too small.
 */
int dcm_spi_put_write(u8 *tx, size_t size, u8 reg, const u8 *data, u8 count)
{
	if (!spi_ok(reg, count))
		return -EINVAL;
	if (size < (size_t)count + DCM_SPI_OVERHEAD)
		return -EMSGSIZE;
	tx[0] = reg;
	tx[1] = count;
	memcpy(tx + 2, data, count);
	tx[2 + count] = dcm_crc8(DCM_CRC8_INIT, tx, 2 + count);
	return count + DCM_SPI_OVERHEAD;
}

/**
 * dcm_spi_put_answer() - what a board clocks out during a read (simulator)
 * @rx: where
 * @size: room in @rx
 * @reg: the register the master asked for
 * @data: the block
 * @count: its length
 *
 * Return: the transfer length; -EINVAL for a bad @reg or @count; -EMSGSIZE
 * if @size is too small.
 */
int dcm_spi_put_answer(u8 *rx, size_t size, u8 reg, const u8 *data, u8 count)
{
	u8 hdr[2] = { DCM_SPI_READ | reg, count };

	if (!spi_ok(reg, count))
		return -EINVAL;
	if (size < (size_t)count + DCM_SPI_OVERHEAD)
		return -EMSGSIZE;
	rx[0] = 0;
	rx[1] = 0;
	memcpy(rx + 2, data, count);
	rx[2 + count] = dcm_crc8(dcm_crc8(DCM_CRC8_INIT, hdr, 2), data, count);
	return count + DCM_SPI_OVERHEAD;
}
EXPORT_SYMBOL_GPL(dcm_spi_put_answer);

/**
 * dcm_spi_parse() - what the master asks in a transfer (simulator)
 * @tx: the bytes the master clocked out, at least the two header bytes
 * @len: how many
 * @read: a read (else a write)
 * @reg: first register
 * @count: bytes
 * @data: for a write, the @count bytes (DCM_SPI_MAX bytes of room)
 *
 * Return: 0; -EINVAL for a bad register range; -EMSGSIZE if @len is not the
 * transfer length; -EBADMSG for a write whose CRC fails.
 */
int dcm_spi_parse(const u8 *tx, size_t len, bool *read, u8 *reg, u8 *count, u8 *data)
{
	if (len < 2)
		return -EMSGSIZE;
	*read = tx[0] & DCM_SPI_READ;
	*reg = tx[0] & ~DCM_SPI_READ;
	*count = tx[1];
	if (!spi_ok(*reg, *count))
		return -EINVAL;
	if (len != (size_t)*count + DCM_SPI_OVERHEAD)
		return -EMSGSIZE;
	if (*read)
		return 0;
	if (dcm_crc8(DCM_CRC8_INIT, tx, 2 + *count) != tx[2 + *count])
		return -EBADMSG;
	memcpy(data, tx + 2, *count);
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_spi_parse);

/**
 * dcm_smbus_block_put() - an SMBus block read answer (simulator)
 * @buf: where: the length byte, then the characters, no NUL
 * @size: room in @buf
 * @s: the string, up to DCM_SMBUS_BLOCK_MAX characters
 *
 * Return: bytes written; -EINVAL for a string too long; -EMSGSIZE if
 * @size is too small.
 */
int dcm_smbus_block_put(u8 *buf, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n > DCM_SMBUS_BLOCK_MAX)
		return -EINVAL;
	if (size < n + 1)
		return -EMSGSIZE;
	buf[0] = (u8)n;
	memcpy(buf + 1, s, n);
	return n + 1;
}
EXPORT_SYMBOL_GPL(dcm_smbus_block_put);

/**
 * dcm_smbus_block_get() - the string of an SMBus block read
 * @buf: the bytes read: the length byte, then the characters
 * @len: how many
 * @s: where, NUL-terminated
 * @size: room in @s
 *
 * A string stops at its length byte or its first NUL (blocks are often
 * NUL-padded).
 *
 * Return: the string length; -EINVAL for a length byte above
 * DCM_SMBUS_BLOCK_MAX or a character outside printable ASCII; -EMSGSIZE if
 * @len is shorter than the block or @size too small.
 */
int dcm_smbus_block_get(const u8 *buf, size_t len, char *s, size_t size)
{
	size_t n, i;

	if (!len)
		return -EMSGSIZE;
	n = buf[0];
	if (n > DCM_SMBUS_BLOCK_MAX)
		return -EINVAL;
	if (len < n + 1)
		return -EMSGSIZE;
	for (i = 0; i < n && buf[1 + i]; i++)
		if (buf[1 + i] < 0x20 || buf[1 + i] > 0x7e)
			return -EINVAL;
	if (size < i + 1)
		return -EMSGSIZE;
	memcpy(s, buf + 1, i);
	s[i] = '\0';
	return (int)i;
}

/**
 * dcm_smbus_pec() - the SMBus packet error code of a transfer
 * @addr: 7-bit slave address
 * @reg: the command (register) byte
 * @read: a read (the address is sent again, read bit set, before @data)
 * @data: the data bytes (of a read: as received; of a write: as sent)
 * @len: how many
 *
 * Return: the CRC-8 the PEC byte must equal (the kernel's i2c_smbus_pec()
 * over the same bytes).
 */
u8 dcm_smbus_pec(u8 addr, u8 reg, bool read, const u8 *data, size_t len)
{
	u8 hdr[3] = { (u8)(addr << 1), reg, (u8)(addr << 1 | 1) };

	return dcm_crc8(dcm_crc8(DCM_CRC8_INIT, hdr, read ? 3 : 2), data, len);
}

