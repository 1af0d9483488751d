// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the motor board error byte of seed 000 ("Error codes for motor
 * board"). A board with several errors sends a different one every cycle;
 * each byte decodes on its own.
 *
 * Levels (seed 000's 0-7 scale; Documentation/dcm/wire-protocol.rst):
 *   3  warning: data may be off, or the board limits itself for a while
 *   4  error: a message or one MRE sample was lost; the board goes on
 *   5  error with a bad effect on the main feature: less power
 *   6  position control cut for a motor
 *   4  an undefined byte
 */

#include "wire/dcm_mb_error.h"
#include "wire/dcm_rs485.h"

/**
 * struct mb_kind - one table of seed 000
 * @name: its name
 * @text: its text
 * @bits_kind: enum dcm_mb_error_bits
 * @mask: the bits it defines
 * @level: its level
 * @after_config: tested only after the configuration
 * @bit_name: per bit, for DCM_MB_BITS_FLAGS
 * @bit_text: per bit, the seed's note, where it has one
 */
struct mb_kind {
	const char *name;
	const char *text;
	u8 bits_kind;
	u8 mask;
	u8 level;
	bool after_config;
	const char *bit_name[4];
	const char *bit_text[4];
};

#define NOT_TESTED_ND_PAR	" Not tested if ERROR_NO_DATA or ERROR_PARITY."
#define MRE_KIND(n, t, lvl) \
	{ .name = (n), .text = (t), .bits_kind = DCM_MB_BITS_MRE, .mask = 0xf, \
	  .level = (lvl), .after_config = true }
#define MOTOR_KIND(n, t, lvl) \
	{ .name = (n), .text = (t), .bits_kind = DCM_MB_BITS_MOTOR, .mask = 0x3, \
	  .level = (lvl), .after_config = true }

/* Indexed by bits 7-4 of the byte; kind 0 and 12 are handled apart. */
static const struct mb_kind kinds[16] = {
	[DCM_MB_ERR_CURRENT_NO_MOTOR] =
		MOTOR_KIND("CURRENT_NO_MOTOR",
			   "Error sent when there is no current for a while on the motor while the PWM is >10%. Divide PWM by two, until there is current back for a while.",
			   5),
	[DCM_MB_ERR_TEMPERATURE] =
		MOTOR_KIND("TEMPERATURE",
			   "Motor temperature too high, current limitation is decreased.", 5),
	[DCM_MB_ERR_ASSERV_TOO_BIG_MOTOR] =
		MOTOR_KIND("ASSERV_TOO_BIG_MOTOR",
			   "Motor control error greater than x deg (must be 100% hardness).", 5),
	[DCM_MB_ERR_MRE_ERROR_NO_DATA] =
		MRE_KIND("MRE_ERROR_NO_DATA", "MRE: Message is only 0 (no SPI).", 4),
	[DCM_MB_ERR_MRE_BAD_COF] =
		MRE_KIND("MRE_BAD_COF",
			 "MRE: data invalid due to cordic overflow (magnet above XYZ limit)."
			 NOT_TESTED_ND_PAR, 4),
	[DCM_MB_ERR_MRE_WARNING_BAD_LIN] =
		MRE_KIND("MRE_WARNING_BAD_LIN",
			 "MRE: Linearity alarm: Data could be invalid (magnet above XYZ limit)."
			 NOT_TESTED_ND_PAR, 3),
	[DCM_MB_ERR_MRE_WARNING_BAD_MAG] =
		MRE_KIND("MRE_WARNING_BAD_MAG",
			 "MRE: magnetic input field invalid (too large or too small)."
			 NOT_TESTED_ND_PAR, 3),
	[DCM_MB_ERR_MRE_ERROR_PARITY] =
		MRE_KIND("MRE_ERROR_PARITY",
			 "MRE: Parity of the SPI message is false. Not tested if ERROR_NO_DATA.",
			 4),
	[DCM_MB_ERR_MRE_BAD_OCF] =
		MRE_KIND("MRE_BAD_OCF",
			 "MRE: the offset compensation is not finished." NOT_TESTED_ND_PAR, 4),
	[DCM_MB_ERR_COM] = {
		.name = "COM", .text = "RS485 protocol error.",
		.bits_kind = DCM_MB_BITS_FLAGS, .mask = 0xf, .level = 4,
		.bit_name = { "READ CRC ERROR", "UNFINISHED", "RCRC ERROR", "READ UNFINISHED" },
		.bit_text = {
			"Message read by the dsPIC as a CRC error",
			"New address found while message was not finished",
			"Read CRC (write to this dsPIC point of view) was wrong",
			"Start of a read request to this PIC, then ask for another address before the end",
		},
	},
	[DCM_MB_ERR_UART_SPI] = {
		.name = "UART_SPI", .text = "Com RS485 / SPI (MRE) error.",
		.bits_kind = DCM_MB_BITS_FLAGS, .mask = 0xf, .level = 4,
		.bit_name = { "SPI_SPIROV", "PERR", "FERR", "OERR" },
		.bit_text = {
			"SPI Overflow: a byte in the SPI was lost (SPI used for MRE communication)",
			"Parity Error bit: bad parity",
			"Framing Error bit: bad stop bit",
			"Overrun Error bit: Received FIFO full (5 bytes)",
		},
	},
	[DCM_MB_ERR_WARNING_CURRENT_LIMITATION] =
		MOTOR_KIND("WARNING_CURRENT_LIMITATION",
			   "Motor current too big, PWM is decreased.", 3),
	[DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE] = {
		.name = "MOTOR1_NOT_ASSERV_BECAUSE_MRE",
		.text = "Position control cut for the motor one because of a MRE issue.",
		.bits_kind = DCM_MB_BITS_FLAGS, .mask = 0xf, .level = 6, .after_config = true,
		.bit_name = { "MRE motor NO DATA", "MRE joint NO DATA", "MRE motor OTHER ISSUE",
			      "MRE joint OTHER ISSUE" },
	},
	[DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE] = {
		.name = "MOTOR2_NOT_ASSERV_BECAUSE_MRE",
		.text = "Position control cut for the motor two because of a MRE issue.",
		.bits_kind = DCM_MB_BITS_FLAGS, .mask = 0xf, .level = 6, .after_config = true,
		.bit_name = { "MRE motor NO DATA", "MRE joint NO DATA", "MRE motor OTHER ISSUE",
			      "MRE joint OTHER ISSUE" },
	},
};

/**
 * dcm_mb_error_decode() - decode a motor board error byte
 * @code: the byte
 * @out: what it says
 *
 * Bytes the tables define: 0 (no error), 17-19, 33-35, 49-51, 65-79,
 * 81-95, 97-111, 113-127, 129-143, 145-159, 161-175, 177-191, 209-211,
 * 225-239, 241-255. Any other is DCM_MB_ERR_UNKNOWN, level 4, text
 * "unknown error code N".
 */
void dcm_mb_error_decode(u8 code, struct dcm_mb_error *out)
{
	u8 hi = code >> 4, bits = code & 0xf;
	const struct mb_kind *k = &kinds[hi];

	memset(out, 0, sizeof(*out));
	out->code = code;
	if (!code) {
		out->kind = DCM_MB_ERR_NONE;
		out->bits_kind = DCM_MB_BITS_NONE;
		out->name = "NONE";
		out->text = "No error.";
		return;
	}
	if (!k->name || !bits || (bits & ~k->mask)) {
		out->kind = DCM_MB_ERR_UNKNOWN;
		out->bits_kind = DCM_MB_BITS_NONE;
		out->level = 4;
		out->name = "UNKNOWN";
		snprintf(out->unknown, sizeof(out->unknown), "unknown error code %u", code);
		out->text = out->unknown;
		return;
	}
	out->kind = hi;
	out->bits_kind = k->bits_kind;
	out->bits = bits;
	out->level = k->level;
	out->after_config = k->after_config;
	out->name = k->name;
	out->text = k->text;
}

/**
 * dcm_mb_error_bit_name() - the seed's name of a flag bit
 * @kind: enum dcm_mb_error_kind
 * @bit: 0..3
 *
 * Return: "READ CRC ERROR", "OERR", "MRE joint NO DATA"...; NULL if @kind
 * has no named flags or no such bit.
 */
const char *dcm_mb_error_bit_name(u8 kind, u8 bit)
{
	if (kind >= ARRAY_SIZE(kinds) || bit > 3 || kinds[kind].bits_kind != DCM_MB_BITS_FLAGS)
		return NULL;
	return kinds[kind].bit_name[bit];
}

/**
 * dcm_mb_error_bit_text() - the seed's note on a flag bit
 * @kind: enum dcm_mb_error_kind
 * @bit: 0..3
 *
 * Return: the note ("Framing Error bit: bad stop bit"), NULL where the seed
 * has none (only COM and UART_SPI have notes).
 */
const char *dcm_mb_error_bit_text(u8 kind, u8 bit)
{
	if (kind >= ARRAY_SIZE(kinds) || bit > 3)
		return NULL;
	return kinds[kind].bit_text[bit];
}

/* Append to buf[*len..size): what snprintf would, keeping *len <= size - 1. */
static void append(char *buf, size_t size, size_t *len, bool *trunc, const char *s1,
		   const char *s2)
{
	int k;

	if (*len >= size - 1) {
		*trunc = true;
		return;
	}
	k = snprintf(buf + *len, size - *len, "%s%s", s1, s2);
	if (k < 0 || (size_t)k >= size - *len) {
		*len = size - 1;
		*trunc = true;
	} else {
		*len += k;
	}
}

/**
 * dcm_mb_error_describe() - one line about a decoded error byte
 * @e: from dcm_mb_error_decode()
 * @buf: where, NUL-terminated
 * @size: room in @buf
 *
 * "<name> <bits>: <text>", where <bits> is "MRE 1,3", "motor 2" or the
 * flag names ("FERR,OERR") and is left out for NONE and UNKNOWN; the notes
 * on the flags follow the text in parentheses:
 * "MRE_BAD_COF MRE 1,3: MRE: data invalid due to cordic overflow ...",
 * "UART_SPI FERR: Com RS485 / SPI (MRE) error. (Framing Error bit: bad stop
 * bit)", "UNKNOWN: unknown error code 16".
 *
 * Return: the line length; -EMSGSIZE if it was cut to fit (@buf holds the
 * beginning, NUL-terminated, when @size is not 0).
 */
int dcm_mb_error_describe(const struct dcm_mb_error *e, char *buf, size_t size)
{
	static const char *const digits[4] = { "1", "2", "3", "4" };
	const char *sep = " ";
	bool trunc = false, notes = false;
	size_t len = 0;
	u8 b;

	if (!size)
		return -EMSGSIZE;
	buf[0] = '\0';
	append(buf, size, &len, &trunc, e->name, "");
	if (e->bits_kind == DCM_MB_BITS_MRE)
		append(buf, size, &len, &trunc, " MRE", "");
	else if (e->bits_kind == DCM_MB_BITS_MOTOR)
		append(buf, size, &len, &trunc, " motor", "");
	for (b = 0; b < 4 && e->bits_kind != DCM_MB_BITS_NONE; b++) {
		if (!(e->bits & BIT(b)))
			continue;
		if (e->bits_kind == DCM_MB_BITS_FLAGS)
			append(buf, size, &len, &trunc, sep, dcm_mb_error_bit_name(e->kind, b));
		else
			append(buf, size, &len, &trunc, sep, digits[b]);
		sep = ",";
	}
	append(buf, size, &len, &trunc, ": ", e->text);
	for (b = 0; b < 4 && e->bits_kind == DCM_MB_BITS_FLAGS; b++) {
		const char *note = dcm_mb_error_bit_text(e->kind, b);

		if (!(e->bits & BIT(b)) || !note)
			continue;
		append(buf, size, &len, &trunc, notes ? "; " : " (", note);
		notes = true;
	}
	if (notes)
		append(buf, size, &len, &trunc, ")", "");
	return trunc ? -EMSGSIZE : (int)len;
}

/* Motors (bit 0: motor 1) whose MREs sit at the MRE chain positions @mres. */
static u8 mre_motors(const struct dcm_mb_config *cfg, u8 mres)
{
	u8 motors = 0;
	u32 i;

	for (i = 0; i < DCM_MB_MOTORS; i++) {
		const struct dcm_mb_motor_config *m = &cfg->motor[i];

		if (!m->motor_number)
			continue;
		if ((m->chain_mre_joint && (mres & BIT(m->chain_mre_joint - 1))) ||
		    (m->chain_mre_motor && (mres & BIT(m->chain_mre_motor - 1))))
			motors |= BIT(i);
	}
	return motors;
}

/**
 * dcm_mb_error_motors() - the motors an error is about
 * @e: from dcm_mb_error_decode()
 * @cfg: the board's configuration, for the MRE chain positions; NULL if
 *	unknown (MRE errors then name no motor)
 *
 * Error bits number physical MREs and motors, not subdevices: this maps
 * them to the motors (MotorNumber, equal to the joint's SubDeviceNumber in
 * the shipped Device.xml) whose MRE is at each chain position.
 *
 * Return: bit 0 for motor 1, bit 1 for motor 2; 0 for an error of the
 * whole board (COM, UART_SPI), NONE or UNKNOWN.
 */
u8 dcm_mb_error_motors(const struct dcm_mb_error *e, const struct dcm_mb_config *cfg)
{
	switch (e->bits_kind) {
	case DCM_MB_BITS_MOTOR:
		return e->bits & 3;
	case DCM_MB_BITS_MRE:
		return cfg ? mre_motors(cfg, e->bits) : 0;
	default:
		break;
	}
	if (e->kind == DCM_MB_ERR_MOTOR1_NOT_ASSERV_BECAUSE_MRE)
		return BIT(0);
	if (e->kind == DCM_MB_ERR_MOTOR2_NOT_ASSERV_BECAUSE_MRE)
		return BIT(1);
	return 0;
}
