/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - register maps of the boards that are not motor boards: chest,
 * inertial (SPI), battery (SMBus), ultrasound, face, ears, head touch,
 * feet and hands. Codecs turn a board's cyclic register block into raw
 * sensor numbers and raw actuator numbers into the block to write.
 * Documentation/dcm/wire-protocol.rst has each map as a table.
 *
 * Registers are 8-bit addresses of 8-bit cells, multi-byte values
 * little-endian, and a block transfer reads or writes consecutive cells.
 * The same maps serve over I2C (write the start register, then read or
 * write the block), over SPI (dcm_spi_*) and, for the foot and hand boards,
 * over RS485 (the cyclic slot and reply carry their cyclic blocks).
 *
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_REGS_H
#define _DCM_REGS_H

#include "wire/dcm_wire.h"

struct dcm_rs485_slot;

/* Every board but the battery: registers 0 and 1 */
#define DCM_REG_WHOAMI		0x00	/* R: board type, one of DCM_WHOAMI_* */
#define DCM_REG_FW_VERSION	0x01	/* R: firmware version */

#define DCM_WHOAMI_CHEST	0xc1
#define DCM_WHOAMI_IMU		0x1a
#define DCM_WHOAMI_US		0x55
#define DCM_WHOAMI_FACE		0xfa
#define DCM_WHOAMI_EAR		0xea
#define DCM_WHOAMI_TOUCH	0x7c
#define DCM_WHOAMI_FOOT		0xf0
#define DCM_WHOAMI_HAND		0xa0

/* ---- Chest board (I2C-chest, 0x20) ---- */

#define DCM_CHEST_BUTTON	0x02	/* R: bit 0 chest button pressed */
#define DCM_CHEST_STATUS	0x03	/* R: DCM_CHEST_ST_* */
#define DCM_CHEST_LED_RED	0x04	/* RW: 0..255 */
#define DCM_CHEST_LED_GREEN	0x05
#define DCM_CHEST_LED_BLUE	0x06
#define DCM_CHEST_LED_STATE	0x07	/* RW: 0 RGB registers shown, else animation */
#define DCM_CHEST_EE_PAGE	0x08	/* RW: page of the store, 0..31 */
#define DCM_CHEST_EE_CMD	0x09	/* W: DCM_CHEST_EE_LOAD or _COMMIT */
#define DCM_CHEST_PROG_VERSION	0x10	/* R: 16 bytes, ASCII, NUL-padded */
#define DCM_CHEST_EE_WINDOW	0x20	/* RW: 32 bytes, the page buffer */

#define DCM_CHEST_ST_EE_BUSY	BIT(0)	/* a commit is being written */
#define DCM_CHEST_ST_EE_ERROR	BIT(1)	/* the last commit failed */
#define DCM_CHEST_EE_LOAD	0x01	/* window = page EE_PAGE */
#define DCM_CHEST_EE_COMMIT	0x02	/* page EE_PAGE = window */

#define DCM_CHEST_IN_REG	DCM_CHEST_BUTTON	/* cyclic read: 0x02..0x07 */
#define DCM_CHEST_IN_LEN	6
#define DCM_CHEST_OUT_REG	DCM_CHEST_LED_RED	/* cyclic write: 0x04..0x07 */
#define DCM_CHEST_OUT_LEN	4
#define DCM_CHEST_PROG_VERSION_LEN	16

/**
 * struct dcm_chest_out - what the DCM writes to the chest board each cycle
 * @led: red, green, blue, 0..255
 * @led_state: LedState: 0 shows @led, other values are the board's own
 *	animations
 */
struct dcm_chest_out {
	u8 led[3];
	u8 led_state;
};

/**
 * struct dcm_chest_in - what the DCM reads from the chest board each cycle
 * @button: the chest button is pressed
 * @status: DCM_CHEST_ST_*
 * @out: the LED registers as the board holds them
 */
struct dcm_chest_in {
	bool button;
	u8 status;
	struct dcm_chest_out out;
};

void dcm_chest_put_out(u8 *block, const struct dcm_chest_out *o);
void dcm_chest_get_out(const u8 *block, struct dcm_chest_out *o);
void dcm_chest_put_in(u8 *block, const struct dcm_chest_in *in);
void dcm_chest_get_in(const u8 *block, struct dcm_chest_in *in);

/* The chest board's store: 32 pages of 32 bytes, kept across restarts */
#define DCM_CHEST_EE_PAGE_LEN	32
#define DCM_CHEST_EE_PAGES	32
#define DCM_CHEST_BODY_LEN	256	/* pages 0..7: struct dcm_chest_body */
#define DCM_CHEST_BODY_VERSION	1
#define DCM_CHEST_NAME_LEN	32	/* BodyId, BodyNickName: NUL included */
#define DCM_CHEST_CALIB_BUSES	4	/* RS485-1..RS485-4 */
#define DCM_CHEST_CALIB_ADDRS	8	/* Address 1..8 on each */
#define DCM_CHEST_CALIB_N	(DCM_CHEST_CALIB_BUSES * DCM_CHEST_CALIB_ADDRS * 2)

/**
 * struct dcm_chest_body - what the chest board keeps about its body
 * @body_id: BodyId, NUL-terminated
 * @nick: BodyNickName, NUL-terminated
 * @zero: jointZeroPosition per motor, 0..4095, 0 not calibrated, at
 *	dcm_chest_calib_index()
 */
struct dcm_chest_body {
	char body_id[DCM_CHEST_NAME_LEN];
	char nick[DCM_CHEST_NAME_LEN];
	u16 zero[DCM_CHEST_CALIB_N];
};

int dcm_chest_prog_version(const u8 *block, char *s, size_t size);
int dcm_chest_calib_index(u8 bus, u8 addr, u8 motor);
int dcm_chest_body_put(u8 *image, const struct dcm_chest_body *b);
int dcm_chest_body_get(const u8 *image, struct dcm_chest_body *b);

/* ---- Inertial board (SPI-chest) ---- */

#define DCM_SPI_READ		0x80	/* bit 7 of the command byte */
#define DCM_SPI_MAX		64	/* bytes per transfer */
#define DCM_SPI_OVERHEAD	3	/* command, count, CRC-8 */

#define DCM_IMU_STATUS		0x02	/* R: DCM_IMU_ST_* */
#define DCM_IMU_COUNTER		0x03	/* R: +1 per new sample */
#define DCM_IMU_ACC		0x04	/* R: 3 x s16, 1/1024 g */
#define DCM_IMU_GYR		0x0a	/* R: 3 x s16, 500/32768 deg/s */
#define DCM_IMU_ANGLE		0x10	/* R: 3 x s16, 1e-4 rad */
#define DCM_IMU_ACC_RAW		0x16	/* R: 3 x s8, g ~ 56 (LIS302DL) */
#define DCM_IMU_GYR_RAW		0x1a	/* R: 3 x s16: X, Y, reference, 12-bit ADC */
#define DCM_IMU_CTRL		0x20	/* W: DCM_IMU_CTRL_* */

#define DCM_IMU_ST_ANGLE_VALID	BIT(0)	/* the angle filter has converged */
#define DCM_IMU_ST_GYR_SAT	BIT(1)
#define DCM_IMU_ST_ACC_SAT	BIT(2)
#define DCM_IMU_CTRL_RESET_ANGLE	BIT(0)

#define DCM_IMU_IN_REG		DCM_IMU_STATUS	/* cyclic read: 0x02..0x1f */
#define DCM_IMU_IN_LEN		30

/**
 * struct dcm_imu - the inertial board's cyclic block
 * @status: DCM_IMU_ST_*
 * @counter: sample counter
 * @acc: acceleration X, Y, Z, 1/1024 g
 * @gyr: rotation speed X, Y, Z, 500/32768 deg/s
 * @angle: angles X, Y, Z, 1e-4 rad
 * @acc_raw: the old 8-bit accelerometer X, Y, Z (g ~ 56)
 * @gyr_raw: the old gyrometer X, Y and reference, 12-bit ADC counts
 */
struct dcm_imu {
	u8 status;
	u8 counter;
	s16 acc[3];
	s16 gyr[3];
	s16 angle[3];
	s8 acc_raw[3];
	s16 gyr_raw[3];
};

void dcm_imu_put(u8 *block, const struct dcm_imu *m);
void dcm_imu_get(const u8 *block, struct dcm_imu *m);

int dcm_spi_put_read(u8 *tx, size_t size, u8 reg, u8 count);
int dcm_spi_get_read(const u8 *rx, size_t len, u8 reg, u8 count, u8 *data);
int dcm_spi_put_write(u8 *tx, size_t size, u8 reg, const u8 *data, u8 count);
int dcm_spi_put_answer(u8 *rx, size_t size, u8 reg, const u8 *data, u8 count);
int dcm_spi_parse(const u8 *tx, size_t len, bool *read, u8 *reg, u8 *count, u8 *data);

/* ---- Battery (I2C-chest, 0x0b): Smart Battery word registers ---- */

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
#define DCM_BAT_BLOCK_MAX	32	/* SMBus block: up to 32 bytes */

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
int dcm_smbus_block_put(u8 *buf, size_t size, const char *s);
int dcm_smbus_block_get(const u8 *buf, size_t len, char *s, size_t size);
u8 dcm_smbus_pec(u8 addr, u8 reg, bool read, const u8 *data, size_t len);

/* ---- Ultrasound board (I2C-chest, 0x70) ---- */

#define DCM_US_MODE		0x02	/* RW: DCM_US_M_*; a write starts a capture */
#define DCM_US_COUNTER		0x03	/* R: +1 per result stored */
#define DCM_US_STATUS		0x04	/* R: DCM_US_ST_* */
#define DCM_US_RESULT_MODE	0x05	/* R: the mode the stored result used */
#define DCM_US_MONO		0x06	/* R: cm, the single-capture result */
#define DCM_US_LEFT		0x08	/* R: 10 echoes, cm */
#define DCM_US_RIGHT		0x12	/* R: 10 echoes, cm */

#define DCM_US_M_RX_RIGHT	BIT(0)	/* receiver: 0 left, 1 right */
#define DCM_US_M_TX_RIGHT	BIT(1)	/* transmitter: 0 left, 1 right */
#define DCM_US_M_DUAL		BIT(2)	/* both receivers, 10 echoes each */
#define DCM_US_M_TX_BOTH	BIT(3)	/* both transmitters at once */
#define DCM_US_M_PERIODIC	BIT(6)	/* repeat every 100 ms */
#define DCM_US_M_MASK		0x4f
#define DCM_US_PERIOD_MS	100

#define DCM_US_ST_BUSY		BIT(0)	/* a capture is running */
#define DCM_US_ST_PERIODIC	BIT(1)	/* periodic captures on */
#define DCM_US_ST_BAD_MODE	BIT(2)	/* the last MODE written was refused */

#define DCM_US_ECHOES		10
#define DCM_US_ERROR		0	/* cm value: sensor error */
#define DCM_US_NO_ECHO		255	/* cm value: no echo (2.55 m) */
#define DCM_US_IN_REG		DCM_US_COUNTER	/* cyclic read: 0x03..0x1b */
#define DCM_US_IN_LEN		25

/**
 * enum dcm_us_echo - what an echo byte says
 * @DCM_US_ECHO_ERROR: 0: sensor error
 * @DCM_US_ECHO_NONE: 255: no echo
 * @DCM_US_ECHO_VALID: 1..254: a distance in cm (under 25 cm: unreliable)
 */
enum dcm_us_echo {
	DCM_US_ECHO_ERROR,
	DCM_US_ECHO_NONE,
	DCM_US_ECHO_VALID,
};

/**
 * struct dcm_us - the ultrasound board's cyclic block
 * @counter: results stored so far, modulo 256
 * @status: DCM_US_ST_*
 * @result_mode: the mode of the capture the results come from
 * @mono: the single-capture distance, cm
 * @left: the first 10 echoes on the left receiver, cm (dual capture)
 * @right: the same, right receiver
 */
struct dcm_us {
	u8 counter;
	u8 status;
	u8 result_mode;
	u8 mono;
	u8 left[DCM_US_ECHOES];
	u8 right[DCM_US_ECHOES];
};

void dcm_us_put(u8 *block, const struct dcm_us *u);
void dcm_us_get(const u8 *block, struct dcm_us *u);
bool dcm_us_mode_ok(u8 mode);
int dcm_us_echo_kind(u8 cm);

/* ---- Face board (I2C-head, 0x40): 48 LEDs, 6 bits ---- */

#define DCM_FACE_LEDS		0x10	/* RW: 48 bytes, 0..63 each */
#define DCM_FACE_N		48
#define DCM_FACE_MAX		63
#define DCM_FACE_OUT_LEN	DCM_FACE_N

void dcm_face_put(u8 *block, const u8 *level);
void dcm_face_get(const u8 *block, u8 *level);

/* ---- Ear board (I2C-head, 0x41): 20 LEDs, 4 bits, two per byte ---- */

#define DCM_EAR_LEDS		0x10	/* RW: 10 bytes */
#define DCM_EAR_N		20
#define DCM_LED4_MAX		15
#define DCM_EAR_OUT_LEN		(DCM_EAR_N / 2)

void dcm_led4_put(u8 *block, const u8 *level, u32 n);
void dcm_led4_get(const u8 *block, u8 *level, u32 n);

/* ---- Head touch board (I2C-head, 0x48): 3 touch pads, 12 LEDs 4 bits ---- */

#define DCM_TOUCH_PADS		0x02	/* R: bit 0 front, 1 middle, 2 rear */
#define DCM_TOUCH_LEDS		0x10	/* RW: 6 bytes */
#define DCM_TOUCH_N		12
#define DCM_TOUCH_IN_LEN	1
#define DCM_TOUCH_OUT_LEN	(DCM_TOUCH_N / 2)

/* ---- Foot boards (RS485-3 and -4, Address 5) ---- */

#define DCM_FOOT_BUMPERS	0x02	/* R: bit 0 left, bit 1 right */
#define DCM_FOOT_FSR		0x04	/* R: 4 x u16, grams */
#define DCM_FOOT_LED		0x0c	/* RW: red, green, blue, 0..255 */
#define DCM_FOOT_IN_REG		DCM_FOOT_BUMPERS	/* cyclic read: 0x02..0x0b */
#define DCM_FOOT_IN_LEN		10
#define DCM_FOOT_OUT_REG	DCM_FOOT_LED		/* cyclic write: 0x0c..0x0e */
#define DCM_FOOT_OUT_LEN	3
#define DCM_FOOT_FSRS		4

/**
 * struct dcm_foot_in - a foot board's cyclic read block
 * @bumper: left, right pressed
 * @fsr: FrontLeft, FrontRight, RearLeft, RearRight, grams
 */
struct dcm_foot_in {
	bool bumper[2];
	u16 fsr[DCM_FOOT_FSRS];
};

void dcm_foot_put_in(u8 *block, const struct dcm_foot_in *in);
void dcm_foot_get_in(const u8 *block, struct dcm_foot_in *in);
void dcm_foot_put_slot(struct dcm_rs485_slot *slot, const u8 *led);
void dcm_foot_get_slot(const struct dcm_rs485_slot *slot, u8 *led);

/* ---- Hand boards (RS485-1 and -2, Address 5) ---- */

#define DCM_HAND_TOUCH		0x02	/* R: bit 0 back, 1 left, 2 right */
#define DCM_HAND_IN_LEN		1

/* Touch pads, head or hand: bit n is pad n (its SubDeviceNumber - 1) */
#define DCM_TOUCH_MASK		0x07

#endif /* _DCM_REGS_H */
