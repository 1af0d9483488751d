/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the motor board error byte (seed 000, "Error codes for motor
 * board"): kind in bits 7-4, which MREs, motors or flags in bits 3-0.
 *
 * Pure logic: it builds in the kernel and in the host unit tests.
 */
#ifndef _DCM_MB_ERROR_H
#define _DCM_MB_ERROR_H

#include "wire/dcm_wire.h"

struct dcm_mb_config;

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

#endif /* _DCM_MB_ERROR_H */
