// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the battery's Smart Battery word registers and strings, read over
 * SMBus (Documentation/dcm/wire-protocol.rst, "Battery").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_battery.h"

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

