// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the motor board on the wire: its slot in the cyclic command and
 * its reply data, its configuration structure, and its error byte of seed
 * 000 ("Error codes for motor board") (Documentation/dcm/wire-protocol.rst,
 * "RS485: the cyclic exchange", "RS485: motor board configuration", "The
 * motor board error byte").
 *
 * Error codes of the codecs, as in dcm_rs485.c:
 *   -EMSGSIZE  the output buffer is too small, or a payload has the wrong
 *              length for its message
 *   -EINVAL    not this message (CMD, ADDR), or a field out of range
 *   -EPROTO    a configuration structure of another StructVersion
 *
 * A board with several errors sends a different one every cycle; each
 * byte decodes on its own. Error levels (seed 000's 0-7 scale):
 *   3  warning: data may be off, or the board limits itself for a while
 *   4  error: a message or one MRE sample was lost; the board goes on
 *   5  error with a bad effect on the main feature: less power
 *   6  position control cut for a motor
 *   4  an undefined byte
 */

#include "wire/dcm_wire_motor.h"

static s16 clamp_hardness(s16 h)
{
	if (h > DCM_MB_HARDNESS_MAX)
		return DCM_MB_HARDNESS_MAX;
	if (h < -DCM_MB_HARDNESS_MAX)
		return -DCM_MB_HARDNESS_MAX;
	return h;
}

/**
 * dcm_mb_put_cmd() - fill a motor board's slot
 * @slot: the slot
 * @c: what the motors do; hardness is clamped to -1000..1000
 */
void dcm_mb_put_cmd(struct dcm_rs485_slot *slot, const struct dcm_mb_cmd *c)
{
	put_unaligned_le16(c->position[0], slot->b + 0);
	put_unaligned_le16(c->position[1], slot->b + 2);
	put_unaligned_le16((u16)clamp_hardness(c->hardness[0]), slot->b + 4);
	put_unaligned_le16((u16)clamp_hardness(c->hardness[1]), slot->b + 6);
}

/**
 * dcm_mb_get_cmd() - read a motor board's slot
 * @slot: the slot
 * @c: what the motors do; hardness is clamped to -1000..1000
 */
void dcm_mb_get_cmd(const struct dcm_rs485_slot *slot, struct dcm_mb_cmd *c)
{
	c->position[0] = get_unaligned_le16(slot->b + 0);
	c->position[1] = get_unaligned_le16(slot->b + 2);
	c->hardness[0] = clamp_hardness((s16)get_unaligned_le16(slot->b + 4));
	c->hardness[1] = clamp_hardness((s16)get_unaligned_le16(slot->b + 6));
}
EXPORT_SYMBOL_GPL(dcm_mb_get_cmd);

/**
 * dcm_mb_put_status() - fill a motor board's reply data
 * @data: DCM_RS485_DATA_LEN bytes
 * @s: the status; a temperature status above 3 is sent as 3
 */
void dcm_mb_put_status(u8 *data, const struct dcm_mb_status *s)
{
	u8 t0 = s->temp_status[0] > 3 ? 3 : s->temp_status[0];
	u8 t1 = s->temp_status[1] > 3 ? 3 : s->temp_status[1];

	data[0] = s->error;
	data[1] = t0 | (t1 << 2);
	put_unaligned_le16((u16)s->angle[0], data + 2);
	put_unaligned_le16((u16)s->angle[1], data + 4);
	put_unaligned_le16(s->current_ma[0], data + 6);
	put_unaligned_le16(s->current_ma[1], data + 8);
	data[10] = (u8)s->temperature[0];
	data[11] = (u8)s->temperature[1];
}
EXPORT_SYMBOL_GPL(dcm_mb_put_status);

/**
 * dcm_mb_get_status() - read a motor board's reply data
 * @data: DCM_RS485_DATA_LEN bytes
 * @s: the status
 */
void dcm_mb_get_status(const u8 *data, struct dcm_mb_status *s)
{
	s->error = data[0];
	s->temp_status[0] = data[1] & 3;
	s->temp_status[1] = (data[1] >> 2) & 3;
	s->angle[0] = (s16)get_unaligned_le16(data + 2);
	s->angle[1] = (s16)get_unaligned_le16(data + 4);
	s->current_ma[0] = get_unaligned_le16(data + 6);
	s->current_ma[1] = get_unaligned_le16(data + 8);
	s->temperature[0] = (s8)data[10];
	s->temperature[1] = (s8)data[11];
}

/**
 * dcm_mb_mre_angle() - the angle a motor board reports for an MRE reading
 * @mre: the MRE count, 0..4095 (higher bits ignored)
 * @zero: jointZeroPosition, the count at the joint's zero
 *
 * Return: @mre - @zero modulo 4096, in -2048..2047.
 */
s16 dcm_mb_mre_angle(u16 mre, u16 zero)
{
	s16 d = (s16)((mre - zero) & (DCM_MB_MRE_COUNTS - 1));

	return d >= DCM_MB_MRE_COUNTS / 2 ? d - DCM_MB_MRE_COUNTS : d;
}
EXPORT_SYMBOL_GPL(dcm_mb_mre_angle);

static int motor_config_check(const struct dcm_mb_motor_config *m, u8 number)
{
	if (m->motor_number != 0 && m->motor_number != number)
		return -EINVAL;
	if (m->sensor_type > DCM_MB_SENSOR_MRE_JOINT_MOTOR || m->chain_mre_joint > 4 ||
	    m->chain_mre_motor > 4 || m->zero >= DCM_MB_MRE_COUNTS)
		return -EINVAL;
	if (!m->motor_number)
		return 0;
	switch (m->sensor_type) {
	case DCM_MB_SENSOR_MRE_JOINT:
		if (!m->chain_mre_joint || m->chain_mre_motor)
			return -EINVAL;
		break;
	case DCM_MB_SENSOR_MRE_JOINT_MOTOR:
		if (!m->chain_mre_joint || !m->chain_mre_motor ||
		    m->chain_mre_joint == m->chain_mre_motor)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/**
 * dcm_mb_config_check() - whether a motor board accepts a configuration
 * @cfg: the structure
 *
 * A present motor (MotorNumber not 0) has the MotorNumber of its block, a
 * SensorType, a joint MRE position 1..4 and a motor MRE position 1..4 (not
 * the joint's) exactly when its SensorType has a motor MRE.
 *
 * Return: enum dcm_mb_config_status: DCM_MB_CONFIG_OK, or why not (a Bid
 * out of 1..DCM_RS485_MAX_BOARDS is a bad value; DCM_MB_CONFIG_BAD_BID is
 * for the board to say the Bid is not its own).
 */
int dcm_mb_config_check(const struct dcm_mb_config *cfg)
{
	u32 i;

	if (cfg->struct_version != DCM_MB_STRUCT_VERSION)
		return DCM_MB_CONFIG_BAD_VERSION;
	if (!dcm_rs485_bid_ok(cfg->bid))
		return DCM_MB_CONFIG_BAD_VALUE;
	for (i = 0; i < DCM_MB_MOTORS; i++)
		if (motor_config_check(&cfg->motor[i], i + 1))
			return DCM_MB_CONFIG_BAD_VALUE;
	return DCM_MB_CONFIG_OK;
}

/**
 * dcm_rs485_put_config() - build the CONFIG request to a motor board
 * @buf: where
 * @size: room in @buf
 * @cfg: the structure; the frame goes to @cfg->bid
 *
 * Return: the frame length; -EINVAL if dcm_mb_config_check() refuses @cfg;
 * -EMSGSIZE if @size is too small.
 */
int dcm_rs485_put_config(u8 *buf, size_t size, const struct dcm_mb_config *cfg)
{
	u8 p[DCM_MB_CONFIG_LEN] = { 0 }, *m;
	u32 i;

	if (dcm_mb_config_check(cfg) != DCM_MB_CONFIG_OK)
		return -EINVAL;
	p[0] = cfg->struct_version;
	p[1] = cfg->bid;
	for (i = 0; i < DCM_MB_MOTORS; i++) {
		const struct dcm_mb_motor_config *mc = &cfg->motor[i];

		m = p + 4 + i * 20;
		m[0] = mc->motor_number;
		m[1] = mc->invert ? 1 : 0;
		m[2] = mc->sensor_type;
		m[3] = mc->chain_mre_joint;
		m[4] = mc->chain_mre_motor;
		put_unaligned_le16((u16)mc->kp, m + 6);
		put_unaligned_le16((u16)mc->ki, m + 8);
		put_unaligned_le16((u16)mc->kd, m + 10);
		put_unaligned_le32(mc->gear_ratio, m + 12);
		put_unaligned_le16(mc->zero, m + 16);
		put_unaligned_le16(mc->current_max, m + 18);
	}
	return dcm_rs485_put_frame(buf, size, cfg->bid, DCM_RS485_CONFIG, p, sizeof(p));
}

/**
 * dcm_rs485_get_config() - decode a CONFIG request
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @cfg: the structure
 *
 * The board compares the frame's ADDR and @cfg->bid with its own Bid.
 *
 * Return: 0; -EINVAL if @f is not a CONFIG request, a reserved byte or bit
 * is not 0, or dcm_mb_config_check() refuses it; -EPROTO for another
 * StructVersion; -EMSGSIZE for a wrong length.
 */
int dcm_rs485_get_config(const struct dcm_rs485_frame *f, struct dcm_mb_config *cfg)
{
	const u8 *p = f->payload, *m;
	u32 i;

	if (f->cmd != DCM_RS485_CONFIG)
		return -EINVAL;
	if (f->len < 1)
		return -EMSGSIZE;
	if (p[0] != DCM_MB_STRUCT_VERSION)
		return -EPROTO;
	if (f->len != DCM_MB_CONFIG_LEN)
		return -EMSGSIZE;
	if (p[2] || p[3])
		return -EINVAL;
	cfg->struct_version = p[0];
	cfg->bid = p[1];
	for (i = 0; i < DCM_MB_MOTORS; i++) {
		struct dcm_mb_motor_config *mc = &cfg->motor[i];

		m = p + 4 + i * 20;
		if (m[1] & ~1 || m[5])
			return -EINVAL;
		mc->motor_number = m[0];
		mc->invert = m[1] & 1;
		mc->sensor_type = m[2];
		mc->chain_mre_joint = m[3];
		mc->chain_mre_motor = m[4];
		mc->kp = (s16)get_unaligned_le16(m + 6);
		mc->ki = (s16)get_unaligned_le16(m + 8);
		mc->kd = (s16)get_unaligned_le16(m + 10);
		mc->gear_ratio = get_unaligned_le32(m + 12);
		mc->zero = get_unaligned_le16(m + 16);
		mc->current_max = get_unaligned_le16(m + 18);
	}
	return dcm_mb_config_check(cfg) == DCM_MB_CONFIG_OK ? 0 : -EINVAL;
}
EXPORT_SYMBOL_GPL(dcm_rs485_get_config);

/**
 * dcm_rs485_put_config_ack() - build a motor board's reply to CONFIG
 * @buf: where
 * @size: room in @buf
 * @bid: the board's Bid
 * @status: enum dcm_mb_config_status
 *
 * Return: the frame length; -EINVAL for a bad Bid; -EMSGSIZE if @size is
 * too small.
 */
int dcm_rs485_put_config_ack(u8 *buf, size_t size, u8 bid, u8 status)
{
	u8 p[2] = { status, DCM_MB_STRUCT_VERSION };

	if (!dcm_rs485_bid_ok(bid))
		return -EINVAL;
	return dcm_rs485_put_frame(buf, size, bid, DCM_RS485_CONFIG | DCM_RS485_REPLY, p, 2);
}
EXPORT_SYMBOL_GPL(dcm_rs485_put_config_ack);

/**
 * dcm_rs485_get_config_ack() - decode a motor board's reply to CONFIG
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @status: enum dcm_mb_config_status
 *
 * Return: 0; -EINVAL if @f is not a CONFIG reply from a Bid; -EMSGSIZE for
 * a wrong length.
 */
int dcm_rs485_get_config_ack(const struct dcm_rs485_frame *f, u8 *status)
{
	if (f->cmd != (DCM_RS485_CONFIG | DCM_RS485_REPLY) || !dcm_rs485_bid_ok(f->addr))
		return -EINVAL;
	if (f->len != 2)
		return -EMSGSIZE;
	*status = f->payload[0];
	return 0;
}

#define MICRO		1000000ULL
#define Q16_ONE		65536ULL

/**
 * dcm_q16_from_micro() - a value in micro-units as unsigned Q16.16
 * @micro: the value, 1.0 is 1000000 (GearRatio 201.3 is 201300000)
 * @q: the value times 65536, rounded to nearest
 *
 * Return: 0; -ERANGE if @micro is negative or 65536.0 or more.
 */
int dcm_q16_from_micro(s64 micro, u32 *q)
{
	u64 v;

	if (micro < 0 || (u64)micro >= Q16_ONE * MICRO)
		return -ERANGE;
	v = div64_u64((u64)micro * Q16_ONE + MICRO / 2, MICRO);
	if (v > U32_MAX)
		return -ERANGE;
	*q = (u32)v;
	return 0;
}

/**
 * dcm_q16_to_micro() - an unsigned Q16.16 value in micro-units
 * @q: the value times 65536
 *
 * Return: the value in micro-units, rounded to nearest.
 */
s64 dcm_q16_to_micro(u32 q)
{
	return (s64)div64_u64((u64)q * MICRO + Q16_ONE / 2, Q16_ONE);
}

/* ---- the error byte ---- */

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
