// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the ultrasound board's register map
 * (Documentation/dcm/wire-protocol.rst, "Ultrasound board").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_sonar.h"

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

