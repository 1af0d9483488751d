/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the motor board (RS485, MotorBoard): its slot in the cyclic
 * command, its reply data, its configuration structure, and its error
 * byte (seed 000, "Error codes for motor board": kind in bits 7-4, which
 * MREs, motors or flags in bits 3-0).
 *
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_WIRE_MOTOR_H
#define _DCM_WIRE_MOTOR_H

#include "wire/dcm_rs485.h"

/* ---- Slot and status ---- */

#define DCM_MB_MOTORS		2
#define DCM_MB_HARDNESS_MAX	1000	/* per mil of the current limit */
#define DCM_MB_TEMP_STATUS_MAX	3
#define DCM_MB_MRE_COUNTS	4096

/**
 * struct dcm_mb_cmd - a motor board's slot: what its two motors do
 * @position: position command, 65536 per turn, relative to the calibrated
 *	zero, two's complement (a joint); aperture in per mil (a hand)
 * @hardness: per mil of the current limit, -1000..1000; <= 0 brakes, < 0
 *	on both motors frees them
 */
struct dcm_mb_cmd {
	u16 position[DCM_MB_MOTORS];
	s16 hardness[DCM_MB_MOTORS];
};

/**
 * struct dcm_mb_status - a motor board's reply data
 * @error: the error byte of seed 000 (dcm_mb_error_decode())
 * @temp_status: temperature status per motor, 0..3
 * @angle: joint MRE angle per motor, 4096 per turn, relative to the
 *	calibrated zero, -2048..2047 (a joint); aperture in per mil (a hand)
 * @current_ma: motor current, mA
 * @temperature: motor temperature, degrees Celsius
 */
struct dcm_mb_status {
	u8 error;
	u8 temp_status[DCM_MB_MOTORS];
	s16 angle[DCM_MB_MOTORS];
	u16 current_ma[DCM_MB_MOTORS];
	s8 temperature[DCM_MB_MOTORS];
};

void dcm_mb_put_cmd(struct dcm_rs485_slot *slot, const struct dcm_mb_cmd *c);
void dcm_mb_get_cmd(const struct dcm_rs485_slot *slot, struct dcm_mb_cmd *c);
void dcm_mb_put_status(u8 *data, const struct dcm_mb_status *s);
void dcm_mb_get_status(const u8 *data, struct dcm_mb_status *s);
s16 dcm_mb_mre_angle(u16 mre, u16 zero);

/**
 * dcm_mb_position() - a joint's raw position command as sent
 * @raw: the raw value the conversion gave (2*pi/65536 per count)
 *
 * Return: @raw modulo 65536: -1 is 65535, 65536 is 0.
 */
static inline u16 dcm_mb_position(s64 raw)
{
	return (u16)((u64)raw & 0xffff);
}

/* ---- Configuration ---- */

#define DCM_MB_STRUCT_VERSION	1
#define DCM_MB_CONFIG_LEN	44

/**
 * enum dcm_mb_sensor - the SensorType of a joint
 * @DCM_MB_SENSOR_NONE: no sensor (no motor)
 * @DCM_MB_SENSOR_MRE_JOINT: one MRE, on the joint ("MRE_Joint")
 * @DCM_MB_SENSOR_MRE_JOINT_MOTOR: an MRE on the joint and one on the motor
 *	("MRE_JointMotor")
 */
enum dcm_mb_sensor {
	DCM_MB_SENSOR_NONE = 0,
	DCM_MB_SENSOR_MRE_JOINT = 1,
	DCM_MB_SENSOR_MRE_JOINT_MOTOR = 2,
};

/**
 * struct dcm_mb_motor_config - one motor of the configuration structure
 * @motor_number: MotorNumber, 0 (no motor), 1 or 2: the block's own number
 * @invert: InvertControlDirection
 * @sensor_type: SensorType, enum dcm_mb_sensor
 * @chain_mre_joint: positionChainMREJoint, 0..4, 0 for none
 * @chain_mre_motor: positionChainMREMotor, 0..4, 0 for none
 * @kp: Kp
 * @ki: Ki
 * @kd: Kd
 * @gear_ratio: GearRatio, unsigned fixed point Q16.16
 * @zero: jointZeroPosition, 0..4095, 0 for not calibrated
 * @current_max: ElectricCurrent/Sensor/Max, mA
 */
struct dcm_mb_motor_config {
	u8 motor_number;
	bool invert;
	u8 sensor_type;
	u8 chain_mre_joint;
	u8 chain_mre_motor;
	s16 kp, ki, kd;
	u32 gear_ratio;
	u16 zero;
	u16 current_max;
};

/**
 * struct dcm_mb_config - the motor board configuration structure
 * @struct_version: StructVersion, DCM_MB_STRUCT_VERSION
 * @bid: the Bid chaining gave the board
 * @motor: the two motors
 */
struct dcm_mb_config {
	u8 struct_version;
	u8 bid;
	struct dcm_mb_motor_config motor[DCM_MB_MOTORS];
};

/**
 * enum dcm_mb_config_status - first payload byte of the CONFIG reply
 * @DCM_MB_CONFIG_OK: accepted; the board runs its control loops
 * @DCM_MB_CONFIG_BAD_VERSION: StructVersion not supported
 * @DCM_MB_CONFIG_BAD_VALUE: a field out of range, or a wrong length
 * @DCM_MB_CONFIG_BAD_BID: the structure's Bid is not the board's
 */
enum dcm_mb_config_status {
	DCM_MB_CONFIG_OK = 0,
	DCM_MB_CONFIG_BAD_VERSION = 1,
	DCM_MB_CONFIG_BAD_VALUE = 2,
	DCM_MB_CONFIG_BAD_BID = 3,
};

int dcm_mb_config_check(const struct dcm_mb_config *cfg);
int dcm_rs485_put_config(u8 *buf, size_t size, const struct dcm_mb_config *cfg);
int dcm_rs485_get_config(const struct dcm_rs485_frame *f, struct dcm_mb_config *cfg);
int dcm_rs485_put_config_ack(u8 *buf, size_t size, u8 bid, u8 status);
int dcm_rs485_get_config_ack(const struct dcm_rs485_frame *f, u8 *status);

int dcm_q16_from_micro(s64 micro, u32 *q);
s64 dcm_q16_to_micro(u32 q);

/* ---- The error byte ---- */

/**
 * enum dcm_mb_error_kind - what an error byte says
 * @DCM_MB_ERR_NONE: 0, no error
 * @DCM_MB_ERR_CURRENT_NO_MOTOR: 1, ERROR_CURRENT_NO_MOTOR, motor bits
 * @DCM_MB_ERR_TEMPERATURE: 2, ERROR_TEMPERATURE, motor bits
 * @DCM_MB_ERR_ASSERV_TOO_BIG_MOTOR: 3, ERROR_ASSERV_ERROR_TOO_BIG_MOTOR,
 *	motor bits
 * @DCM_MB_ERR_MRE_ERROR_NO_DATA: 4, ERROR_MRE_ERROR_NO_DATA, MRE bits
 * @DCM_MB_ERR_MRE_BAD_COF: 5, ERROR_MRE_BAD_COF, MRE bits
 * @DCM_MB_ERR_MRE_WARNING_BAD_LIN: 6, ERROR_MRE_WARNING_BAD_LIN, MRE bits
 * @DCM_MB_ERR_MRE_WARNING_BAD_MAG: 7, ERROR_MRE_WARNING_BAD_MAG, MRE bits
 * @DCM_MB_ERR_MRE_ERROR_PARITY: 8, ERROR_MRE_ERROR_PARITY, MRE bits
 * @DCM_MB_ERR_MRE_BAD_OCF: 9, ERROR_MRE_BAD_OCF, MRE bits
 * @DCM_MB_ERR_COM: 10, ERROR COM (RS485 protocol), flag bits
 * @DCM_MB_ERR_UART_SPI: 11, ERROR_UART_SPI, flag bits
 * @DCM_MB_ERR_WARNING_CURRENT_LIMITATION: 13, WARNING_CURRENT_LIMITATION,
 *	motor bits
 * @DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE: 14,
 *	ERROR_MOTOR1_NOT_ASSERV_BECAUSE_MRE, flag bits
 * @DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE: 15,
 *	ERROR_MOTOR2_NOT_ASSERV_BECAUSE_MRE, flag bits
 * @DCM_MB_ERR_UNKNOWN: a byte the tables do not define (kind 12, kind 0
 *	with bits, no bit set, a bit the kind does not have)
 *
 * The values of the kinds the tables define are their bits 7-4.
 */
enum dcm_mb_error_kind {
	DCM_MB_ERR_NONE = 0,
	DCM_MB_ERR_CURRENT_NO_MOTOR = 1,
	DCM_MB_ERR_TEMPERATURE = 2,
	DCM_MB_ERR_ASSERV_TOO_BIG_MOTOR = 3,
	DCM_MB_ERR_MRE_ERROR_NO_DATA = 4,
	DCM_MB_ERR_MRE_BAD_COF = 5,
	DCM_MB_ERR_MRE_WARNING_BAD_LIN = 6,
	DCM_MB_ERR_MRE_WARNING_BAD_MAG = 7,
	DCM_MB_ERR_MRE_ERROR_PARITY = 8,
	DCM_MB_ERR_MRE_BAD_OCF = 9,
	DCM_MB_ERR_COM = 10,
	DCM_MB_ERR_UART_SPI = 11,
	DCM_MB_ERR_WARNING_CURRENT_LIMITATION = 13,
	DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE = 14,
	DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE = 15,
	DCM_MB_ERR_UNKNOWN = 16,
};

/**
 * enum dcm_mb_error_bits - what the bits 3-0 of a kind name
 * @DCM_MB_BITS_NONE: nothing (NONE, UNKNOWN)
 * @DCM_MB_BITS_MRE: bit n is MRE n + 1 (physical MRE chain position)
 * @DCM_MB_BITS_MOTOR: bit n is motor n + 1 (physical motor), bits 0-1
 * @DCM_MB_BITS_FLAGS: each bit is a named condition
 */
enum dcm_mb_error_bits {
	DCM_MB_BITS_NONE,
	DCM_MB_BITS_MRE,
	DCM_MB_BITS_MOTOR,
	DCM_MB_BITS_FLAGS,
};

/* The flag bits of the kinds with DCM_MB_BITS_FLAGS */
#define DCM_MB_COM_READ_CRC_ERROR	BIT(0)
#define DCM_MB_COM_UNFINISHED		BIT(1)
#define DCM_MB_COM_RCRC_ERROR		BIT(2)
#define DCM_MB_COM_READ_UNFINISHED	BIT(3)
#define DCM_MB_UART_SPI_SPIROV		BIT(0)
#define DCM_MB_UART_PERR		BIT(1)
#define DCM_MB_UART_FERR		BIT(2)
#define DCM_MB_UART_OERR		BIT(3)
#define DCM_MB_MRE_MOTOR_NO_DATA	BIT(0)
#define DCM_MB_MRE_JOINT_NO_DATA	BIT(1)
#define DCM_MB_MRE_MOTOR_OTHER_ISSUE	BIT(2)
#define DCM_MB_MRE_JOINT_OTHER_ISSUE	BIT(3)

/**
 * struct dcm_mb_error - an error byte, decoded
 * @code: the byte
 * @kind: enum dcm_mb_error_kind
 * @bits_kind: enum dcm_mb_error_bits: what @bits names
 * @bits: bits 3-0 of @code (0 for NONE and UNKNOWN)
 * @level: error level 0-7 of seed 000's table (0 ok, 3 warning, 4-5
 *	error, 6 position control cut)
 * @after_config: the board tests it only once configured
 * @name: the kind's name: "MRE_BAD_COF", "NONE", "UNKNOWN"...
 * @text: what it means, from seed 000; for UNKNOWN, @unknown
 * @unknown: "unknown error code N", for UNKNOWN only
 */
struct dcm_mb_error {
	u8 code;
	u8 kind;
	u8 bits_kind;
	u8 bits;
	u8 level;
	bool after_config;
	const char *name;
	const char *text;
	char unknown[32];
};

void dcm_mb_error_decode(u8 code, struct dcm_mb_error *out);
const char *dcm_mb_error_bit_name(u8 kind, u8 bit);
const char *dcm_mb_error_bit_text(u8 kind, u8 bit);
int dcm_mb_error_describe(const struct dcm_mb_error *e, char *buf, size_t size);
u8 dcm_mb_error_motors(const struct dcm_mb_error *e, const struct dcm_mb_config *cfg);

#endif /* _DCM_WIRE_MOTOR_H */
