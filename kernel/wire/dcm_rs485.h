/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the RS485 protocol of the motor, foot and hand boards: frames and
 * their CRC, a byte-by-byte receiver, the cyclic broadcast and its replies,
 * chaining (Bid assignment), the motor board configuration and identity,
 * register access. Documentation/dcm/wire-protocol.rst describes every byte.
 *
 * Pure logic over byte buffers: the kernel's board drivers, the simulated
 * boards in the kernel and the host-side simulator all use this file.
 */
#ifndef _DCM_RS485_H
#define _DCM_RS485_H

#include "wire/dcm_wire.h"

/* Frame: START ADDR CMD LEN PAYLOAD[LEN] CRC_HI CRC_LO */
#define DCM_RS485_START		0xa5
#define DCM_RS485_HDR_LEN	4
#define DCM_RS485_CRC_LEN	2
#define DCM_RS485_OVERHEAD	(DCM_RS485_HDR_LEN + DCM_RS485_CRC_LEN)
#define DCM_RS485_MAX_PAYLOAD	160
#define DCM_RS485_MAX_FRAME	(DCM_RS485_MAX_PAYLOAD + DCM_RS485_OVERHEAD)

/* ADDR: a Bid 1..DCM_RS485_MAX_BOARDS, or one of these */
#define DCM_RS485_ADDR_UNASSIGNED	0x00	/* the board chaining is talking to */
#define DCM_RS485_ADDR_BROADCAST	0xff
#define DCM_RS485_MAX_BOARDS		16

/**
 * enum dcm_rs485_cmd - the CMD byte of a frame
 * @DCM_RS485_CYCLE: broadcast, one slot per Bid; each board replies
 * @DCM_RS485_CHAIN_RESET: broadcast; every board forgets its Bid and config
 * @DCM_RS485_CHAIN_QUERY: to address 0; the board being chained replies
 *	with its identity
 * @DCM_RS485_CHAIN_ASSIGN: to address 0; hands a Bid to a BoardId
 * @DCM_RS485_CONFIG: to a Bid; the motor board configuration structure
 * @DCM_RS485_IDENT: to a Bid; the board replies with its identity
 * @DCM_RS485_REG_READ: to a Bid; read a register block
 * @DCM_RS485_REG_WRITE: to a Bid; write a register block
 * @DCM_RS485_CMD_MAX: the last request code
 * @DCM_RS485_REPLY: or-ed into the request code in the reply's CMD byte
 */
enum dcm_rs485_cmd {
	DCM_RS485_CYCLE = 0x01,
	DCM_RS485_CHAIN_RESET = 0x02,
	DCM_RS485_CHAIN_QUERY = 0x03,
	DCM_RS485_CHAIN_ASSIGN = 0x04,
	DCM_RS485_CONFIG = 0x05,
	DCM_RS485_IDENT = 0x06,
	DCM_RS485_REG_READ = 0x07,
	DCM_RS485_REG_WRITE = 0x08,
	DCM_RS485_CMD_MAX = DCM_RS485_REG_WRITE,
	DCM_RS485_REPLY = 0x80,
};

/*
 * Timing, in character times (10 bits: start, 8 data, stop). The nominal
 * rate is 1 Mbaud, 10 us a character; the protocol itself works at any rate.
 */
#define DCM_RS485_BAUD			1000000
#define DCM_RS485_CHAR_BITS		10
#define DCM_RS485_GAP			4	/* turnaround before each reply */
#define DCM_RS485_WATCHDOG_MS		500	/* no CYCLE for this long: loop off */
#define DCM_RS485_REQUEST_TIMEOUT_US	1000	/* addressed requests, chaining */

/* The cyclic exchange */
#define DCM_RS485_SLOT_LEN		8	/* command bytes per board */
#define DCM_RS485_CMD_HDR_LEN		2	/* SEQ, FLAGS */
#define DCM_RS485_DATA_LEN		12	/* board-specific reply bytes */
#define DCM_RS485_REPLY_PAYLOAD		(2 + DCM_RS485_DATA_LEN)
#define DCM_RS485_REPLY_FRAME		(DCM_RS485_OVERHEAD + DCM_RS485_REPLY_PAYLOAD)
#define DCM_RS485_REPLY_SLOT		(DCM_RS485_REPLY_FRAME + DCM_RS485_GAP)

/* struct dcm_rs485_reply.flags */
#define DCM_RS485_RF_CONFIGURED	BIT(0)	/* a configuration was accepted */
#define DCM_RS485_RF_WATCHDOG	BIT(1)	/* the watchdog fired since the last reply */
#define DCM_RS485_RF_LOOP1	BIT(2)	/* motor 1 position control running */
#define DCM_RS485_RF_LOOP2	BIT(3)	/* motor 2 position control running */
#define DCM_RS485_RF_FREE	BIT(4)	/* both motors free (no brake) */
#define DCM_RS485_RF_MASK	0x1f

/**
 * struct dcm_rs485_frame - one frame, its CRC checked
 * @addr: ADDR byte: destination of a request, source (Bid) of a reply
 * @cmd: CMD byte, enum dcm_rs485_cmd, DCM_RS485_REPLY set in replies
 * @len: LEN byte, bytes of @payload
 * @payload: the payload
 */
struct dcm_rs485_frame {
	u8 addr;
	u8 cmd;
	u8 len;
	u8 payload[DCM_RS485_MAX_PAYLOAD];
};

int dcm_rs485_put_frame(u8 *buf, size_t size, u8 addr, u8 cmd, const u8 *payload, size_t len);
int dcm_rs485_parse_frame(const u8 *buf, size_t len, struct dcm_rs485_frame *f);

/**
 * struct dcm_rs485_rx - a receiver fed one byte at a time
 * @buf: bytes of the frame being received; starts with DCM_RS485_START
 * @n: how many
 * @frame: the last complete frame, valid after dcm_rs485_rx_byte() or
 *	dcm_rs485_rx_next() returned true, until the next call
 * @frames: complete frames with a good CRC
 * @crc_errors: complete frames with a bad CRC
 * @hdr_errors: start bytes followed by a header the protocol does not have
 * @truncated: frames cut short by the line going idle (dcm_rs485_rx_idle())
 * @dropped: bytes thrown away (garbage, bad frames), good frames excluded
 */
struct dcm_rs485_rx {
	u8 buf[DCM_RS485_MAX_FRAME];
	u32 n;
	struct dcm_rs485_frame frame;
	u32 frames;
	u32 crc_errors;
	u32 hdr_errors;
	u32 truncated;
	u32 dropped;
};

void dcm_rs485_rx_init(struct dcm_rs485_rx *rx);
void dcm_rs485_rx_reset(struct dcm_rs485_rx *rx);
bool dcm_rs485_rx_byte(struct dcm_rs485_rx *rx, u8 byte);
bool dcm_rs485_rx_next(struct dcm_rs485_rx *rx);
bool dcm_rs485_rx_idle(struct dcm_rs485_rx *rx);

/**
 * struct dcm_rs485_slot - a board's bytes in the cyclic command
 * @b: DCM_RS485_SLOT_LEN bytes, their meaning set by the board type
 */
struct dcm_rs485_slot {
	u8 b[DCM_RS485_SLOT_LEN];
};

/**
 * struct dcm_rs485_cmd_frame - the cyclic broadcast
 * @seq: cycle sequence number, each reply echoes it
 * @flags: 0; boards ignore it (reserved)
 * @n: how many boards: slot i is Bid i + 1
 * @slot: the slots
 */
struct dcm_rs485_cmd_frame {
	u8 seq;
	u8 flags;
	u32 n;
	struct dcm_rs485_slot slot[DCM_RS485_MAX_BOARDS];
};

int dcm_rs485_put_cmd(u8 *buf, size_t size, u8 seq, const struct dcm_rs485_slot *slots, u32 n);
int dcm_rs485_get_cmd(const struct dcm_rs485_frame *f, struct dcm_rs485_cmd_frame *c);
int dcm_rs485_parse_cmd(const u8 *buf, size_t len, struct dcm_rs485_cmd_frame *c);

/**
 * struct dcm_rs485_reply - a board's reply to the cyclic broadcast
 * @bid: the board (ADDR byte)
 * @seq: the SEQ of the command it answers
 * @flags: DCM_RS485_RF_*
 * @data: board-specific: struct dcm_mb_status for a motor board, the
 *	cyclic register window of a foot or hand board
 */
struct dcm_rs485_reply {
	u8 bid;
	u8 seq;
	u8 flags;
	u8 data[DCM_RS485_DATA_LEN];
};

int dcm_rs485_put_reply(u8 *buf, size_t size, const struct dcm_rs485_reply *r);
int dcm_rs485_get_reply(const struct dcm_rs485_frame *f, struct dcm_rs485_reply *r);
int dcm_rs485_parse_reply(const u8 *buf, size_t len, struct dcm_rs485_reply *r);

u32 dcm_rs485_cmd_len(u32 n);
u32 dcm_rs485_reply_start(u8 bid);
u32 dcm_rs485_exchange_chars(u32 n);
u32 dcm_rs485_chars_to_us(u32 chars, u32 baud);

/* Motor board slot and status */

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

/* Motor board configuration */

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

/* Identity, chaining */

/**
 * enum dcm_rs485_board_type - what a board on an RS485 bus is
 * @DCM_BOARD_MOTOR: a motor board (MotorBoard)
 * @DCM_BOARD_FOOT: a foot board (FootBoard)
 * @DCM_BOARD_HAND: a hand touch board (HandBoard)
 */
enum dcm_rs485_board_type {
	DCM_BOARD_MOTOR = 1,
	DCM_BOARD_FOOT = 2,
	DCM_BOARD_HAND = 3,
};

#define DCM_RS485_IDENT_LEN	14

/**
 * struct dcm_rs485_ident - what a board says it is
 * @type: enum dcm_rs485_board_type
 * @struct_version: the configuration StructVersion it understands (motor
 *	boards), 0 otherwise
 * @board_id: BoardId, unique per board; chaining addresses the board by it
 * @board_id2: BoardId2
 * @bootloader_version: BootLoaderVersion
 * @prog_version: ProgVersion
 */
struct dcm_rs485_ident {
	u8 type;
	u8 struct_version;
	u32 board_id;
	u32 board_id2;
	u16 bootloader_version;
	u16 prog_version;
};

int dcm_rs485_put_ident(u8 *buf, size_t size, u8 addr, u8 cmd, const struct dcm_rs485_ident *id);
int dcm_rs485_get_ident(const struct dcm_rs485_frame *f, struct dcm_rs485_ident *id);
int dcm_rs485_put_assign(u8 *buf, size_t size, bool reply, u32 board_id, u8 bid);
int dcm_rs485_get_assign(const struct dcm_rs485_frame *f, u32 *board_id, u8 *bid);

/**
 * struct dcm_chain_entry - one board of a chaining result
 * @bid: the Bid it got
 * @board_id: its BoardId
 */
struct dcm_chain_entry {
	u8 bid;
	u32 board_id;
};

int dcm_chain_format(char *buf, size_t size, const struct dcm_chain_entry *e, u32 n);
int dcm_chain_parse(const char *s, struct dcm_chain_entry *e, u32 max, u32 *n);

/* Register access (foot and hand boards, diagnostics) */

#define DCM_RS485_REG_MAX	64

/**
 * struct dcm_rs485_regs - a register read or write, request or reply
 * @reg: first register
 * @count: how many registers (bytes), 1..DCM_RS485_REG_MAX
 * @status: in a REG_WRITE reply: 0 written, 1 refused (read-only or
 *	out of the map); else 0
 * @data: REG_READ reply and REG_WRITE request: the @count bytes
 */
struct dcm_rs485_regs {
	u8 reg;
	u8 count;
	u8 status;
	u8 data[DCM_RS485_REG_MAX];
};

int dcm_rs485_put_regs(u8 *buf, size_t size, u8 addr, u8 cmd, const struct dcm_rs485_regs *r);
int dcm_rs485_get_regs(const struct dcm_rs485_frame *f, struct dcm_rs485_regs *r);

#endif /* _DCM_RS485_H */
