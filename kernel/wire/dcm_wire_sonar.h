/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the ultrasound board (I2C-chest, 0x70): captures and their echoes.
 */
#ifndef _DCM_WIRE_SONAR_H
#define _DCM_WIRE_SONAR_H

#include "wire/dcm_regs.h"

#define DCM_WHOAMI_US		0x55

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

#endif /* _DCM_WIRE_SONAR_H */
