/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the battery (I2C-chest, 0x0b): Smart Battery word registers and
 * the strings of its SMBus block reads.
 */
#ifndef _DCM_WIRE_BATTERY_H
#define _DCM_WIRE_BATTERY_H

#include "wire/dcm_regs.h"

#define DCM_BAT_TEMPERATURE	0x08	/* u16, 0.1 K */
#define DCM_BAT_VOLTAGE		0x09	/* u16, mV, the pack */
#define DCM_BAT_CURRENT		0x0a	/* s16, mA, > 0 charging */
#define DCM_BAT_CHARGE		0x0d	/* u16, %, RelativeStateOfCharge */
#define DCM_BAT_REMAINING	0x0f	/* u16, mAh, RemainingCapacity */
#define DCM_BAT_FULL		0x10	/* u16, mAh, FullChargeCapacity */
#define DCM_BAT_STATUS		0x16	/* u16, DCM_BAT_BMZ_* or DCM_BAT_SANYO_* */
#define DCM_BAT_DATE		0x1b	/* u16, ManufactureDate, SBS packed */
#define DCM_BAT_SERIAL		0x1c	/* u16, SerialNumber */
#define DCM_BAT_MANUFACTURER	0x20	/* block: "FSM-BMZ", "SANYO" */
#define DCM_BAT_DEVICE_NAME	0x21	/* block: "AR-NAO " */
#define DCM_BAT_KIND		0x30	/* u16, DCM_BAT_KIND_* */
#define DCM_BAT_CELL_MIN	0x31	/* u16, mV */
#define DCM_BAT_CELL_MAX	0x32	/* u16, mV */
#define DCM_BAT_AGE		0x33	/* u16, % */
#define DCM_BAT_SERIAL_STRING	0x34	/* block: "ALDE000039___PD00100600" */
#define DCM_BAT_FIRMWARE	0x35	/* block: "V1.01" */

#define DCM_BAT_KIND_BMZ	1	/* 16-bit status word */
#define DCM_BAT_KIND_SANYO	2	/* 8-bit status, low byte */

#define DCM_BAT_BMZ_EOD			BIT(0)	/* end of discharge, 3.0 V/cell */
#define DCM_BAT_BMZ_NEAR_EOD		BIT(1)	/* 3.2 V/cell */
#define DCM_BAT_BMZ_CHARGE_FET		BIT(2)
#define DCM_BAT_BMZ_DISCHARGE_FET	BIT(3)
#define DCM_BAT_BMZ_LEARN		BIT(4)
#define DCM_BAT_BMZ_DISCHARGING		BIT(5)
#define DCM_BAT_BMZ_FULL		BIT(6)
#define DCM_BAT_BMZ_CHARGING		BIT(7)
#define DCM_BAT_BMZ_CHARGE_TEMP_ALARM	BIT(8)
#define DCM_BAT_BMZ_OVER_CHARGE_ALARM	BIT(9)
#define DCM_BAT_BMZ_DISCHARGE_ALARM	BIT(10)
#define DCM_BAT_BMZ_CHARGE_OC_ALARM	BIT(11)
#define DCM_BAT_BMZ_DISCHARGE_OC14_ALARM BIT(12)	/* > 14 A: cut in a few ms */
#define DCM_BAT_BMZ_DISCHARGE_OC6_ALARM	BIT(13)		/* > 6 A: cut in a few ms */
#define DCM_BAT_BMZ_DISCHARGE_TEMP_ALARM BIT(14)
#define DCM_BAT_BMZ_CHARGER		BIT(15)	/* charging supply present */
#define DCM_BAT_SANYO_LEARNF		BIT(4)
#define DCM_BAT_SANYO_SEF		BIT(5)	/* standby empty */
#define DCM_BAT_SANYO_AEF		BIT(6)	/* active empty */
#define DCM_BAT_SANYO_CHGTF		BIT(7)	/* charge terminated */

#define DCM_BAT_POLL_CYCLES	20	/* dcm_bat_poll_reg() repeats after this */
#define DCM_BAT_BLOCK_MAX	DCM_SMBUS_BLOCK_MAX	/* its strings */

/**
 * struct dcm_battery - the battery's polled registers, raw
 * @kind: DCM_BAT_KIND_*
 * @current_ma: current, mA, > 0 charging
 * @charge: relative state of charge, %
 * @temperature: 0.1 K
 * @voltage: pack voltage, mV
 * @cell_min: lowest cell voltage, mV (Sanyo: the mean of the cells)
 * @cell_max: highest cell voltage, mV (Sanyo: the mean of the cells)
 * @status: status word as read; dcm_bat_status() masks it by @kind
 * @full: full charge capacity, mAh
 * @remaining: remaining capacity, mAh
 * @age: %, 100 for a new battery
 */
struct dcm_battery {
	u16 kind;
	s16 current_ma;
	u16 charge;
	u16 temperature;
	u16 voltage;
	u16 cell_min;
	u16 cell_max;
	u16 status;
	u16 full;
	u16 remaining;
	u16 age;
};

u8 dcm_bat_poll_reg(u32 cycle);
int dcm_bat_get_word(struct dcm_battery *b, u8 reg, u16 word);
int dcm_bat_put_word(const struct dcm_battery *b, u8 reg, u16 *word);
u16 dcm_bat_status(const struct dcm_battery *b);
s32 dcm_bat_mdegc(u16 temperature);
int dcm_bat_date(u16 date, char *buf, size_t size);
int dcm_bat_sanyo_serial(char *buf, size_t size, u8 year, u8 month, u8 serial);
int dcm_bat_sanyo_serial_parse(const char *s, u8 *year, u8 *month, u8 *serial);

#endif /* _DCM_WIRE_BATTERY_H */
