// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the motor board error byte (kernel/wire/dcm_wire_motor.c):
 * every value 0..255 against expectations written here from seed 000's
 * tables ("Error codes for motor board"), independently of the
 * implementation's own table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wire/dcm_wire_motor.h"

enum bits { NO, MRE, MOTOR, FLAGS };

/*
 * Seed 000, one row per "1st value (7-4 bits)": the kind, what bits 3-0
 * name, the level of Documentation/dcm/wire-protocol.rst, "Test only after
 * config", and words of the seed's text.
 */
static const struct {
	int kind;
	enum bits bits;
	int level;
	bool after_config;
	const char *name;
	const char *words;
} seed[16] = {
	[0] = { DCM_MB_ERR_NONE, NO, 0, false, "NONE", "No error" },
	[1] = { DCM_MB_ERR_CURRENT_NO_MOTOR, MOTOR, 5, true, "CURRENT_NO_MOTOR",
		"no current for a while" },
	[2] = { DCM_MB_ERR_TEMPERATURE, MOTOR, 5, true, "TEMPERATURE",
		"Motor temperature too high, current limitation is decreased" },
	[3] = { DCM_MB_ERR_ASSERV_TOO_BIG_MOTOR, MOTOR, 5, true, "ASSERV_TOO_BIG_MOTOR",
		"Motor control error greater than x deg" },
	[4] = { DCM_MB_ERR_MRE_ERROR_NO_DATA, MRE, 4, true, "MRE_ERROR_NO_DATA",
		"MRE: Message is only 0 (no SPI)" },
	[5] = { DCM_MB_ERR_MRE_BAD_COF, MRE, 4, true, "MRE_BAD_COF",
		"MRE: data invalid due to cordic overflow (magnet above XYZ limit)" },
	[6] = { DCM_MB_ERR_MRE_WARNING_BAD_LIN, MRE, 3, true, "MRE_WARNING_BAD_LIN",
		"MRE: Linearity alarm: Data could be invalid" },
	[7] = { DCM_MB_ERR_MRE_WARNING_BAD_MAG, MRE, 3, true, "MRE_WARNING_BAD_MAG",
		"MRE: magnetic input field invalid (too large or too small)" },
	[8] = { DCM_MB_ERR_MRE_ERROR_PARITY, MRE, 4, true, "MRE_ERROR_PARITY",
		"MRE: Parity of the SPI message is false" },
	[9] = { DCM_MB_ERR_MRE_BAD_OCF, MRE, 4, true, "MRE_BAD_OCF",
		"MRE: the offset compensation is not finished" },
	[10] = { DCM_MB_ERR_COM, FLAGS, 4, false, "COM", "RS485 protocol" },
	[11] = { DCM_MB_ERR_UART_SPI, FLAGS, 4, false, "UART_SPI", "Com RS485 / SPI (MRE)" },
	[12] = { DCM_MB_ERR_UNKNOWN, NO, 4, false, "UNKNOWN", "unknown error code" },
	[13] = { DCM_MB_ERR_WARNING_CURRENT_LIMITATION, MOTOR, 3, true,
		 "WARNING_CURRENT_LIMITATION", "Motor current too big, PWM is decreased" },
	[14] = { DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE, FLAGS, 6, true,
		 "MOTOR1_NOT_ASSERV_BECAUSE_MRE", "Position control cut for the motor one" },
	[15] = { DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE, FLAGS, 6, true,
		 "MOTOR2_NOT_ASSERV_BECAUSE_MRE", "Position control cut for the motor" },
};

/* The "Value" column of the seed's tables, as ranges. */
static const int defined[][2] = {
	{ 17, 19 }, { 33, 35 }, { 49, 51 }, { 65, 79 }, { 81, 95 }, { 97, 111 }, { 113, 127 },
	{ 129, 143 }, { 145, 159 }, { 161, 175 }, { 177, 191 }, { 209, 211 }, { 225, 239 },
	{ 241, 255 },
};

static bool in_value_column(int code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(defined); i++)
		if (code >= defined[i][0] && code <= defined[i][1])
			return true;
	return false;
}

static void test_every_code(void **state)
{
	struct dcm_mb_error e;
	char want[64], line[512];
	int code, hi, lo, known = 0;

	(void)state;
	for (code = 0; code < 256; code++) {
		hi = code >> 4;
		lo = code & 15;
		dcm_mb_error_decode(code, &e);
		assert_int_equal(code, e.code);

		/* Which bytes mean something, from the bit columns. */
		bool ok = code == 0 ||
			  (lo && ((seed[hi].bits == MRE || seed[hi].bits == FLAGS) ||
				  (seed[hi].bits == MOTOR && lo <= 3)));
		/* ... and the value column says the same. */
		assert_int_equal(ok, code == 0 || in_value_column(code));

		if (!ok) {
			snprintf(want, sizeof(want), "unknown error code %d", code);
			assert_int_equal(DCM_MB_ERR_UNKNOWN, e.kind);
			assert_int_equal(4, e.level);
			assert_int_equal(0, e.bits);
			assert_int_equal(DCM_MB_BITS_NONE, e.bits_kind);
			assert_false(e.after_config);
			assert_string_equal("UNKNOWN", e.name);
			assert_string_equal(want, e.text);
			continue;
		}
		known++;
		assert_int_equal(seed[hi].kind, e.kind);
		assert_int_equal(hi, code ? e.kind : 0);
		assert_int_equal(lo, e.bits);
		assert_int_equal(seed[hi].level, e.level);
		assert_int_equal(seed[hi].after_config, e.after_config);
		assert_string_equal(seed[hi].name, e.name);
		assert_non_null(strstr(e.text, seed[hi].words));
		assert_int_equal(seed[hi].bits == MRE ? DCM_MB_BITS_MRE :
				 seed[hi].bits == MOTOR ? DCM_MB_BITS_MOTOR :
				 seed[hi].bits == FLAGS ? DCM_MB_BITS_FLAGS : DCM_MB_BITS_NONE,
				 e.bits_kind);
		/* Every line describes and starts with the name. */
		assert_true(dcm_mb_error_describe(&e, line, sizeof(line)) > 0);
		assert_memory_equal(seed[hi].name, line, strlen(seed[hi].name));
		assert_non_null(strstr(line, seed[hi].words));
	}
	/* 1 + 3 x 4 (motor kinds) + 15 x 10 (MRE and flag kinds) */
	assert_int_equal(1 + 3 * 4 + 15 * 10, known);
}

static void test_bit_names(void **state)
{
	(void)state;
	assert_string_equal("READ CRC ERROR", dcm_mb_error_bit_name(DCM_MB_ERR_COM, 0));
	assert_string_equal("UNFINISHED", dcm_mb_error_bit_name(DCM_MB_ERR_COM, 1));
	assert_string_equal("RCRC ERROR", dcm_mb_error_bit_name(DCM_MB_ERR_COM, 2));
	assert_string_equal("READ UNFINISHED", dcm_mb_error_bit_name(DCM_MB_ERR_COM, 3));
	assert_string_equal("SPI_SPIROV", dcm_mb_error_bit_name(DCM_MB_ERR_UART_SPI, 0));
	assert_string_equal("PERR", dcm_mb_error_bit_name(DCM_MB_ERR_UART_SPI, 1));
	assert_string_equal("FERR", dcm_mb_error_bit_name(DCM_MB_ERR_UART_SPI, 2));
	assert_string_equal("OERR", dcm_mb_error_bit_name(DCM_MB_ERR_UART_SPI, 3));
	assert_string_equal("MRE motor NO DATA",
			    dcm_mb_error_bit_name(DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE, 0));
	assert_string_equal("MRE joint NO DATA",
			    dcm_mb_error_bit_name(DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE, 1));
	assert_string_equal("MRE motor OTHER ISSUE",
			    dcm_mb_error_bit_name(DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE, 2));
	assert_string_equal("MRE joint OTHER ISSUE",
			    dcm_mb_error_bit_name(DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE, 3));
	assert_null(dcm_mb_error_bit_name(DCM_MB_ERR_MRE_BAD_COF, 0));
	assert_null(dcm_mb_error_bit_name(DCM_MB_ERR_COM, 4));
	assert_null(dcm_mb_error_bit_name(DCM_MB_ERR_UNKNOWN, 0));
	assert_null(dcm_mb_error_bit_name(200, 0));
	assert_non_null(strstr(dcm_mb_error_bit_text(DCM_MB_ERR_UART_SPI, 3), "FIFO full"));
	assert_non_null(strstr(dcm_mb_error_bit_text(DCM_MB_ERR_COM, 1), "New address found"));
	assert_null(dcm_mb_error_bit_text(DCM_MB_ERR_TEMPERATURE, 0));
	assert_null(dcm_mb_error_bit_text(DCM_MB_ERR_COM, 9));
}

static void describe(u8 code, const char *want)
{
	struct dcm_mb_error e;
	char line[512];

	dcm_mb_error_decode(code, &e);
	assert_int_equal(strlen(want), dcm_mb_error_describe(&e, line, sizeof(line)));
	assert_string_equal(want, line);
}

static void test_describe(void **state)
{
	struct dcm_mb_error e;
	char small[12], fit[16];
	int n;

	(void)state;
	describe(0, "NONE: No error.");
	describe(16, "UNKNOWN: unknown error code 16");
	describe(20, "UNKNOWN: unknown error code 20");
	describe(200, "UNKNOWN: unknown error code 200");
	describe(85, "MRE_BAD_COF MRE 1,3: MRE: data invalid due to cordic overflow (magnet "
		 "above XYZ limit). Not tested if ERROR_NO_DATA or ERROR_PARITY.");
	describe(72, "MRE_ERROR_NO_DATA MRE 4: MRE: Message is only 0 (no SPI).");
	describe(35, "TEMPERATURE motor 1,2: Motor temperature too high, current limitation "
		 "is decreased.");
	describe(210, "WARNING_CURRENT_LIMITATION motor 2: Motor current too big, PWM is "
		 "decreased.");
	describe(180, "UART_SPI FERR: Com RS485 / SPI (MRE) error. (Framing Error bit: bad "
		 "stop bit)");
	describe(163, "COM READ CRC ERROR,UNFINISHED: RS485 protocol error. (Message read by "
		 "the dsPIC as a CRC error; New address found while message was not "
		 "finished)");
	describe(227, "MOTOR1_NOT_ASSERV_BECAUSE_MRE MRE motor NO DATA,MRE joint NO DATA: "
		 "Position control cut for the motor one because of a MRE issue.");
	describe(248, "MOTOR2_NOT_ASSERV_BECAUSE_MRE MRE joint OTHER ISSUE: Position control "
		 "cut for the motor two because of a MRE issue.");

	/* Cut to fit, NUL-terminated. */
	dcm_mb_error_decode(85, &e);
	n = dcm_mb_error_describe(&e, small, sizeof(small));
	assert_int_equal(-EMSGSIZE, n);
	assert_string_equal("MRE_BAD_COF", small);
	n = dcm_mb_error_describe(&e, small, 1);
	assert_int_equal(-EMSGSIZE, n);
	assert_string_equal("", small);
	assert_int_equal(-EMSGSIZE, dcm_mb_error_describe(&e, small, 0));
	/* Exactly fitting, and one byte short. */
	dcm_mb_error_decode(0, &e);
	assert_int_equal(15, dcm_mb_error_describe(&e, fit, 16));
	assert_string_equal("NONE: No error.", fit);
	assert_int_equal(-EMSGSIZE, dcm_mb_error_describe(&e, fit, 15));
	assert_string_equal("NONE: No error", fit);
}

static void test_motors(void **state)
{
	/* Motor 1: joint MRE at 1; motor 2: joint MRE at 3, motor MRE at 4. */
	struct dcm_mb_config cfg = {
		.struct_version = 1, .bid = 1,
		.motor = {
			{ .motor_number = 1, .sensor_type = 1, .chain_mre_joint = 1 },
			{ .motor_number = 2, .sensor_type = 2, .chain_mre_joint = 3,
			  .chain_mre_motor = 4 },
		},
	};
	static const struct { u8 code, motors; } cases[] = {
		{ 0x51, 1 }, { 0x54, 2 }, { 0x58, 2 }, { 0x52, 0 }, { 0x5f, 3 }, { 0x4c, 2 },
		{ 0x13, 3 }, { 0x21, 1 }, { 0xd2, 2 }, { 0xe1, 1 }, { 0xff, 2 }, { 0xa1, 0 },
		{ 0xb8, 0 }, { 0x00, 0 }, { 0x10, 0 }, { 0xc5, 0 },
	};
	struct dcm_mb_error e;
	size_t i;

	(void)state;
	assert_int_equal(DCM_MB_CONFIG_OK, dcm_mb_config_check(&cfg));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		dcm_mb_error_decode(cases[i].code, &e);
		assert_int_equal(cases[i].motors, dcm_mb_error_motors(&e, &cfg));
	}
	/* Without the configuration, MRE errors name no motor. */
	dcm_mb_error_decode(0x51, &e);
	assert_int_equal(0, dcm_mb_error_motors(&e, NULL));
	dcm_mb_error_decode(0x12, &e);
	assert_int_equal(2, dcm_mb_error_motors(&e, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code),
		cmocka_unit_test(test_bit_names),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_motors),
	};

	dcm_wire_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
