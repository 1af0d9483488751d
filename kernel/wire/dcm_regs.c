// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - register map codecs of the chest, inertial, battery, ultrasound,
 * face, ear, head touch, foot and hand boards
 * (Documentation/dcm/wire-protocol.rst, "Register maps").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"

/* ---- chest ---- */

/**
 * dcm_chest_put_out() - the chest board's cyclic write block
 * @block: DCM_CHEST_OUT_LEN bytes, for registers 0x04..0x07
 * @o: LED values
 */
void dcm_chest_put_out(u8 *block, const struct dcm_chest_out *o)
{
	block[0] = o->led[0];
	block[1] = o->led[1];
	block[2] = o->led[2];
	block[3] = o->led_state;
}

/**
 * dcm_chest_get_out() - read the chest board's cyclic write block
 * @block: DCM_CHEST_OUT_LEN bytes, registers 0x04..0x07
 * @o: LED values
 */
void dcm_chest_get_out(const u8 *block, struct dcm_chest_out *o)
{
	o->led[0] = block[0];
	o->led[1] = block[1];
	o->led[2] = block[2];
	o->led_state = block[3];
}
EXPORT_SYMBOL_GPL(dcm_chest_get_out);

/**
 * dcm_chest_put_in() - the chest board's cyclic read block
 * @block: DCM_CHEST_IN_LEN bytes, for registers 0x02..0x07
 * @in: button, status and LED registers
 */
void dcm_chest_put_in(u8 *block, const struct dcm_chest_in *in)
{
	block[0] = in->button ? 1 : 0;
	block[1] = in->status & (DCM_CHEST_ST_EE_BUSY | DCM_CHEST_ST_EE_ERROR);
	dcm_chest_put_out(block + 2, &in->out);
}
EXPORT_SYMBOL_GPL(dcm_chest_put_in);

/**
 * dcm_chest_get_in() - decode the chest board's cyclic read block
 * @block: DCM_CHEST_IN_LEN bytes, registers 0x02..0x07
 * @in: button, status and LED registers; reserved bits are ignored
 */
void dcm_chest_get_in(const u8 *block, struct dcm_chest_in *in)
{
	in->button = block[0] & 1;
	in->status = block[1] & (DCM_CHEST_ST_EE_BUSY | DCM_CHEST_ST_EE_ERROR);
	dcm_chest_get_out(block + 2, &in->out);
}

/**
 * dcm_chest_prog_version() - the chest board's ProgVersion string
 * @block: DCM_CHEST_PROG_VERSION_LEN bytes, registers 0x10..0x1f
 * @s: where, NUL-terminated
 * @size: room in @s, DCM_CHEST_PROG_VERSION_LEN + 1 is always enough
 *
 * The string ends at its first NUL or after 16 characters.
 *
 * Return: its length; -EINVAL for a character outside printable ASCII;
 * -EMSGSIZE if @size is too small.
 */
int dcm_chest_prog_version(const u8 *block, char *s, size_t size)
{
	size_t i;

	for (i = 0; i < DCM_CHEST_PROG_VERSION_LEN && block[i]; i++)
		if (block[i] < 0x20 || block[i] > 0x7e)
			return -EINVAL;
	if (size < i + 1)
		return -EMSGSIZE;
	memcpy(s, block, i);
	s[i] = '\0';
	return (int)i;
}

#define BODY_MAGIC	"DCMB"
#define BODY_CRC	0x06
#define BODY_ID		0x10
#define BODY_NICK	0x30
#define BODY_ZERO	0x80

/**
 * dcm_chest_calib_index() - where a motor's calibration sits in the store
 * @bus: RS485 bus number, 1..4 (RS485-1..RS485-4)
 * @addr: the board's Address on it, 1..8
 * @motor: MotorNumber, 1 or 2
 *
 * Return: the index in struct dcm_chest_body.zero; -EINVAL out of range.
 */
int dcm_chest_calib_index(u8 bus, u8 addr, u8 motor)
{
	if (bus < 1 || bus > DCM_CHEST_CALIB_BUSES || addr < 1 || addr > DCM_CHEST_CALIB_ADDRS ||
	    motor < 1 || motor > 2)
		return -EINVAL;
	return ((bus - 1) * DCM_CHEST_CALIB_ADDRS + (addr - 1)) * 2 + (motor - 1);
}

/* Length of a NUL-terminated name in @s, or -EINVAL without a NUL. */
static int name_len(const char *s)
{
	int i;

	for (i = 0; i < DCM_CHEST_NAME_LEN; i++)
		if (!s[i])
			return i;
	return -EINVAL;
}

/**
 * dcm_chest_body_put() - the image of pages 0..7 of the chest board's store
 * @image: DCM_CHEST_BODY_LEN bytes
 * @b: body identity and calibration
 *
 * Return: 0; -EINVAL for a name of 32 bytes or more or a jointZeroPosition
 * above 4095.
 */
int dcm_chest_body_put(u8 *image, const struct dcm_chest_body *b)
{
	int i, id_len = name_len(b->body_id), nick_len = name_len(b->nick);

	if (id_len < 0 || nick_len < 0)
		return -EINVAL;
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		if (b->zero[i] > 4095)
			return -EINVAL;
	memset(image, 0, DCM_CHEST_BODY_LEN);
	memcpy(image, BODY_MAGIC, 4);
	image[4] = DCM_CHEST_BODY_VERSION;
	memcpy(image + BODY_ID, b->body_id, id_len);
	memcpy(image + BODY_NICK, b->nick, nick_len);
	for (i = 0; i < DCM_CHEST_CALIB_N; i++)
		put_unaligned_le16(b->zero[i], image + BODY_ZERO + 2 * i);
	put_unaligned_le16(crc_itu_t(DCM_CRC16_INIT, image + 8, DCM_CHEST_BODY_LEN - 8),
			   image + BODY_CRC);
	return 0;
}

/**
 * dcm_chest_body_get() - decode pages 0..7 of the chest board's store
 * @image: DCM_CHEST_BODY_LEN bytes
 * @b: body identity and calibration
 *
 * Return: 0; -ENODATA if the store holds no body record (a new board:
 * erased to 0xff, or zeros); -EPROTO for another layout version; -EBADMSG
 * if the CRC does not match (a commit cut halfway); -EINVAL for a name
 * without its NUL or a jointZeroPosition above 4095.
 */
int dcm_chest_body_get(const u8 *image, struct dcm_chest_body *b)
{
	int i;

	if (memcmp(image, BODY_MAGIC, 4))
		return -ENODATA;
	if (image[4] != DCM_CHEST_BODY_VERSION)
		return -EPROTO;
	if (get_unaligned_le16(image + BODY_CRC) !=
	    crc_itu_t(DCM_CRC16_INIT, image + 8, DCM_CHEST_BODY_LEN - 8))
		return -EBADMSG;
	memcpy(b->body_id, image + BODY_ID, DCM_CHEST_NAME_LEN);
	memcpy(b->nick, image + BODY_NICK, DCM_CHEST_NAME_LEN);
	if (name_len(b->body_id) < 0 || name_len(b->nick) < 0)
		return -EINVAL;
	for (i = 0; i < DCM_CHEST_CALIB_N; i++) {
		b->zero[i] = get_unaligned_le16(image + BODY_ZERO + 2 * i);
		if (b->zero[i] > 4095)
			return -EINVAL;
	}
	return 0;
}

/* ---- inertial ---- */

/* Offset of a register in the cyclic block */
#define IMU(reg)	((reg) - DCM_IMU_IN_REG)

/**
 * dcm_imu_put() - the inertial board's cyclic block
 * @block: DCM_IMU_IN_LEN bytes, for registers 0x02..0x1f
 * @m: the measurements
 */
void dcm_imu_put(u8 *block, const struct dcm_imu *m)
{
	int i;

	block[IMU(DCM_IMU_STATUS)] = m->status;
	block[IMU(DCM_IMU_COUNTER)] = m->counter;
	for (i = 0; i < 3; i++) {
		put_unaligned_le16((u16)m->acc[i], block + IMU(DCM_IMU_ACC) + 2 * i);
		put_unaligned_le16((u16)m->gyr[i], block + IMU(DCM_IMU_GYR) + 2 * i);
		put_unaligned_le16((u16)m->angle[i], block + IMU(DCM_IMU_ANGLE) + 2 * i);
		block[IMU(DCM_IMU_ACC_RAW) + i] = (u8)m->acc_raw[i];
		put_unaligned_le16((u16)m->gyr_raw[i], block + IMU(DCM_IMU_GYR_RAW) + 2 * i);
	}
	block[IMU(DCM_IMU_ACC_RAW) + 3] = 0;
}
EXPORT_SYMBOL_GPL(dcm_imu_put);

/**
 * dcm_imu_get() - decode the inertial board's cyclic block
 * @block: DCM_IMU_IN_LEN bytes, registers 0x02..0x1f
 * @m: the measurements
 */
void dcm_imu_get(const u8 *block, struct dcm_imu *m)
{
	int i;

	m->status = block[IMU(DCM_IMU_STATUS)];
	m->counter = block[IMU(DCM_IMU_COUNTER)];
	for (i = 0; i < 3; i++) {
		m->acc[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_ACC) + 2 * i);
		m->gyr[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_GYR) + 2 * i);
		m->angle[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_ANGLE) + 2 * i);
		m->acc_raw[i] = (s8)block[IMU(DCM_IMU_ACC_RAW) + i];
		m->gyr_raw[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_GYR_RAW) + 2 * i);
	}
}

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

/* ---- battery ---- */

/* Current every other cycle (20 ms, as the battery updates it), the rest in turn. */
static const u8 bat_poll[DCM_BAT_POLL_CYCLES] = {
	DCM_BAT_CURRENT, DCM_BAT_CHARGE,
	DCM_BAT_CURRENT, DCM_BAT_TEMPERATURE,
	DCM_BAT_CURRENT, DCM_BAT_STATUS,
	DCM_BAT_CURRENT, DCM_BAT_CELL_MIN,
	DCM_BAT_CURRENT, DCM_BAT_CELL_MAX,
	DCM_BAT_CURRENT, DCM_BAT_VOLTAGE,
	DCM_BAT_CURRENT, DCM_BAT_FULL,
	DCM_BAT_CURRENT, DCM_BAT_REMAINING,
	DCM_BAT_CURRENT, DCM_BAT_AGE,
	DCM_BAT_CURRENT, DCM_BAT_KIND,
};

/**
 * dcm_bat_poll_reg() - the battery word register to read in a cycle
 * @cycle: cycle count
 *
 * One SMBus word read per cycle (about 0.5 ms at 100 kHz): the current
 * every other cycle, each other register of struct dcm_battery once every
 * DCM_BAT_POLL_CYCLES cycles.
 *
 * Return: the register.
 */
u8 dcm_bat_poll_reg(u32 cycle)
{
	return bat_poll[cycle % DCM_BAT_POLL_CYCLES];
}

/* Offset of a register's field in struct dcm_battery, or -1. */
static int bat_off(u8 reg)
{
	switch (reg) {
	case DCM_BAT_KIND:
		return offsetof(struct dcm_battery, kind);
	case DCM_BAT_CURRENT:
		return offsetof(struct dcm_battery, current_ma);
	case DCM_BAT_CHARGE:
		return offsetof(struct dcm_battery, charge);
	case DCM_BAT_TEMPERATURE:
		return offsetof(struct dcm_battery, temperature);
	case DCM_BAT_VOLTAGE:
		return offsetof(struct dcm_battery, voltage);
	case DCM_BAT_CELL_MIN:
		return offsetof(struct dcm_battery, cell_min);
	case DCM_BAT_CELL_MAX:
		return offsetof(struct dcm_battery, cell_max);
	case DCM_BAT_STATUS:
		return offsetof(struct dcm_battery, status);
	case DCM_BAT_FULL:
		return offsetof(struct dcm_battery, full);
	case DCM_BAT_REMAINING:
		return offsetof(struct dcm_battery, remaining);
	case DCM_BAT_AGE:
		return offsetof(struct dcm_battery, age);
	}
	return -1;
}

/**
 * dcm_bat_get_word() - store a word read from the battery
 * @b: the battery's registers
 * @reg: the register read
 * @word: the word (SMBus: low byte first on the wire)
 *
 * Return: 0; -EINVAL for a register struct dcm_battery does not hold.
 */
int dcm_bat_get_word(struct dcm_battery *b, u8 reg, u16 word)
{
	int off = bat_off(reg);

	if (off < 0)
		return -EINVAL;
	*(u16 *)((u8 *)b + off) = word;
	return 0;
}

/**
 * dcm_bat_put_word() - the word a battery answers for a register (simulator)
 * @b: the battery's registers
 * @reg: the register read
 * @word: the word
 *
 * Return: 0; -EINVAL for a register struct dcm_battery does not hold.
 */
int dcm_bat_put_word(const struct dcm_battery *b, u8 reg, u16 *word)
{
	int off = bat_off(reg);

	if (off < 0)
		return -EINVAL;
	*word = *(const u16 *)((const u8 *)b + off);
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_bat_put_word);

/**
 * dcm_bat_status() - the battery's status bits
 * @b: the battery's registers
 *
 * Return: the 16-bit BMZ word (DCM_BAT_BMZ_*), or the 8-bit Sanyo byte
 * (DCM_BAT_SANYO_*: the low byte; its bits 0-3 are reserved and cleared),
 * by @b->kind; 0 for an unknown kind.
 */
u16 dcm_bat_status(const struct dcm_battery *b)
{
	switch (b->kind) {
	case DCM_BAT_KIND_BMZ:
		return b->status;
	case DCM_BAT_KIND_SANYO:
		return b->status & 0xf0;
	}
	return 0;
}

/**
 * dcm_bat_mdegc() - a battery temperature in millidegrees Celsius
 * @temperature: the register, 0.1 K
 *
 * Return: milli-degC (2982 is 25050).
 */
s32 dcm_bat_mdegc(u16 temperature)
{
	return (s32)temperature * 100 - 273150;
}

/**
 * dcm_bat_date() - ManufactureDate as seed 000 writes it, "DD-MM-YYYY"
 * @date: the register: (year - 1980) * 512 + month * 32 + day
 * @buf: where, NUL-terminated
 * @size: room in @buf, 11 at least
 *
 * Return: 10; -EINVAL for a day or month out of range; -EMSGSIZE if @size is
 * too small.
 */
int dcm_bat_date(u16 date, char *buf, size_t size)
{
	u32 day = date & 0x1f, month = (date >> 5) & 0xf, year = 1980 + (date >> 9);

	if (!day || !month || month > 12)
		return -EINVAL;
	if (size < 11)
		return -EMSGSIZE;
	snprintf(buf, size, "%02u-%02u-%04u", day, month, year);
	return 10;
}

#define SANYO_PREFIX		"ALDE000039___PD00"
#define SANYO_PREFIX_LEN	17
#define SANYO_SERIAL_LEN	(SANYO_PREFIX_LEN + 6)

/**
 * dcm_bat_sanyo_serial() - a Sanyo battery's serial number string
 * @buf: where, NUL-terminated
 * @size: room in @buf, 24 at least
 * @year: two-digit year, 0..99
 * @month: 1..12
 * @serial: the serial byte, written as two hex digits
 *
 * "ALDE000039___PD00" + year + month + serial: "ALDE000039___PD00100600" is
 * June 2010, serial 0.
 *
 * Return: 23; -EINVAL for a bad @year or @month; -EMSGSIZE if @size is too
 * small.
 */
int dcm_bat_sanyo_serial(char *buf, size_t size, u8 year, u8 month, u8 serial)
{
	if (year > 99 || month < 1 || month > 12)
		return -EINVAL;
	if (size < SANYO_SERIAL_LEN + 1)
		return -EMSGSIZE;
	snprintf(buf, size, SANYO_PREFIX "%02u%02u%02X", year, month, serial);
	return SANYO_SERIAL_LEN;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/**
 * dcm_bat_sanyo_serial_parse() - read a Sanyo serial number string
 * @s: the string
 * @year: two-digit year
 * @month: month
 * @serial: serial byte
 *
 * Return: 0; -EINVAL if @s is not in the form dcm_bat_sanyo_serial()
 * writes.
 */
int dcm_bat_sanyo_serial_parse(const char *s, u8 *year, u8 *month, u8 *serial)
{
	int d[6], i;

	if (strlen(s) != SANYO_SERIAL_LEN || memcmp(s, SANYO_PREFIX, SANYO_PREFIX_LEN))
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		d[i] = hex_digit(s[SANYO_PREFIX_LEN + i]);
		if (d[i] < 0 || (i < 4 && d[i] > 9))
			return -EINVAL;
	}
	if (d[2] * 10 + d[3] < 1 || d[2] * 10 + d[3] > 12)
		return -EINVAL;
	*year = d[0] * 10 + d[1];
	*month = d[2] * 10 + d[3];
	*serial = d[4] * 16 + d[5];
	return 0;
}

/**
 * dcm_smbus_block_put() - an SMBus block read answer (simulator)
 * @buf: where: the length byte, then the characters, no NUL
 * @size: room in @buf
 * @s: the string, up to DCM_BAT_BLOCK_MAX characters
 *
 * Return: bytes written; -EINVAL for a string too long; -EMSGSIZE if
 * @size is too small.
 */
int dcm_smbus_block_put(u8 *buf, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n > DCM_BAT_BLOCK_MAX)
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
 * DCM_BAT_BLOCK_MAX or a character outside printable ASCII; -EMSGSIZE if
 * @len is shorter than the block or @size too small.
 */
int dcm_smbus_block_get(const u8 *buf, size_t len, char *s, size_t size)
{
	size_t n, i;

	if (!len)
		return -EMSGSIZE;
	n = buf[0];
	if (n > DCM_BAT_BLOCK_MAX)
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

/* ---- ultrasound ---- */

#define US(reg)		((reg) - DCM_US_IN_REG)

/**
 * dcm_us_put() - the ultrasound board's cyclic block
 * @block: DCM_US_IN_LEN bytes, for registers 0x03..0x1b
 * @u: the results
 */
void dcm_us_put(u8 *block, const struct dcm_us *u)
{
	block[US(DCM_US_COUNTER)] = u->counter;
	block[US(DCM_US_STATUS)] = u->status;
	block[US(DCM_US_RESULT_MODE)] = u->result_mode;
	block[US(DCM_US_MONO)] = u->mono;
	block[US(DCM_US_MONO) + 1] = 0;
	memcpy(block + US(DCM_US_LEFT), u->left, DCM_US_ECHOES);
	memcpy(block + US(DCM_US_RIGHT), u->right, DCM_US_ECHOES);
}
EXPORT_SYMBOL_GPL(dcm_us_put);

/**
 * dcm_us_get() - decode the ultrasound board's cyclic block
 * @block: DCM_US_IN_LEN bytes, registers 0x03..0x1b
 * @u: the results
 *
 * A new result arrived when @u->counter differs from the last one seen.
 */
void dcm_us_get(const u8 *block, struct dcm_us *u)
{
	u->counter = block[US(DCM_US_COUNTER)];
	u->status = block[US(DCM_US_STATUS)];
	u->result_mode = block[US(DCM_US_RESULT_MODE)];
	u->mono = block[US(DCM_US_MONO)];
	memcpy(u->left, block + US(DCM_US_LEFT), DCM_US_ECHOES);
	memcpy(u->right, block + US(DCM_US_RIGHT), DCM_US_ECHOES);
}

/**
 * dcm_us_mode_ok() - whether the board takes a mode
 * @mode: US/Actuator value
 *
 * Return: false if a bit the seed does not define (4, 5, 7) is set.
 */
bool dcm_us_mode_ok(u8 mode)
{
	return !(mode & ~DCM_US_M_MASK);
}

/**
 * dcm_us_echo_kind() - what an echo byte means
 * @cm: the byte
 *
 * Return: enum dcm_us_echo.
 */
int dcm_us_echo_kind(u8 cm)
{
	if (cm == DCM_US_ERROR)
		return DCM_US_ECHO_ERROR;
	if (cm == DCM_US_NO_ECHO)
		return DCM_US_ECHO_NONE;
	return DCM_US_ECHO_VALID;
}

/* ---- LEDs ---- */

/**
 * dcm_face_put() - the face board's LED block
 * @block: DCM_FACE_OUT_LEN bytes, for registers 0x10..0x3f
 * @level: DCM_FACE_N levels, in SubDeviceNumber order; above 63 is sent
 *	as 63
 */
void dcm_face_put(u8 *block, const u8 *level)
{
	int i;

	for (i = 0; i < DCM_FACE_N; i++)
		block[i] = level[i] > DCM_FACE_MAX ? DCM_FACE_MAX : level[i];
}

/**
 * dcm_face_get() - decode the face board's LED block (simulator)
 * @block: DCM_FACE_OUT_LEN bytes, registers 0x10..0x3f
 * @level: DCM_FACE_N levels; bits 7-6 of each byte are ignored
 */
void dcm_face_get(const u8 *block, u8 *level)
{
	int i;

	for (i = 0; i < DCM_FACE_N; i++)
		level[i] = block[i] & DCM_FACE_MAX;
}
EXPORT_SYMBOL_GPL(dcm_face_get);

/**
 * dcm_led4_put() - pack 4-bit LED levels two per byte (ears, head)
 * @block: @n / 2 bytes: byte i holds LED 2i in bits 3-0, LED 2i + 1 in
 *	bits 7-4
 * @level: @n levels, in SubDeviceNumber order; above 15 is sent as 15
 * @n: how many LEDs, even
 */
void dcm_led4_put(u8 *block, const u8 *level, u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i += 2) {
		u8 lo = level[i] > DCM_LED4_MAX ? DCM_LED4_MAX : level[i];
		u8 hi = level[i + 1] > DCM_LED4_MAX ? DCM_LED4_MAX : level[i + 1];

		block[i / 2] = lo | (hi << 4);
	}
}

/**
 * dcm_led4_get() - unpack 4-bit LED levels (simulator)
 * @block: @n / 2 bytes
 * @level: @n levels
 * @n: how many LEDs, even
 */
void dcm_led4_get(const u8 *block, u8 *level, u32 n)
{
	u32 i;

	for (i = 0; i + 1 < n; i += 2) {
		level[i] = block[i / 2] & 0x0f;
		level[i + 1] = block[i / 2] >> 4;
	}
}
EXPORT_SYMBOL_GPL(dcm_led4_get);

/* ---- feet ---- */

/**
 * dcm_foot_put_in() - a foot board's cyclic read block
 * @block: DCM_FOOT_IN_LEN bytes, for registers 0x02..0x0b (also the first
 *	bytes of its RS485 reply data)
 * @in: bumpers and FSRs
 */
void dcm_foot_put_in(u8 *block, const struct dcm_foot_in *in)
{
	int i;

	block[0] = (in->bumper[0] ? 1 : 0) | (in->bumper[1] ? 2 : 0);
	block[1] = 0;
	for (i = 0; i < DCM_FOOT_FSRS; i++)
		put_unaligned_le16(in->fsr[i], block + 2 + 2 * i);
}
EXPORT_SYMBOL_GPL(dcm_foot_put_in);

/**
 * dcm_foot_get_in() - decode a foot board's cyclic read block
 * @block: DCM_FOOT_IN_LEN bytes, registers 0x02..0x0b
 * @in: bumpers and FSRs
 */
void dcm_foot_get_in(const u8 *block, struct dcm_foot_in *in)
{
	int i;

	in->bumper[0] = block[0] & 1;
	in->bumper[1] = block[0] & 2;
	for (i = 0; i < DCM_FOOT_FSRS; i++)
		in->fsr[i] = get_unaligned_le16(block + 2 + 2 * i);
}

/**
 * dcm_foot_put_slot() - a foot board's slot in the RS485 cyclic command
 * @slot: the slot: registers 0x0c..0x0e, then zeros
 * @led: red, green, blue, 0..255
 */
void dcm_foot_put_slot(struct dcm_rs485_slot *slot, const u8 *led)
{
	memset(slot->b, 0, sizeof(slot->b));
	memcpy(slot->b, led, DCM_FOOT_OUT_LEN);
}

/**
 * dcm_foot_get_slot() - read a foot board's slot (simulator)
 * @slot: the slot
 * @led: red, green, blue
 */
void dcm_foot_get_slot(const struct dcm_rs485_slot *slot, u8 *led)
{
	memcpy(led, slot->b, DCM_FOOT_OUT_LEN);
}
EXPORT_SYMBOL_GPL(dcm_foot_get_slot);
