/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the RS485 protocol of the motor, foot and hand boards, what every
 * board type on the bus shares: frames and their CRC, a byte-by-byte
 * receiver, the cyclic broadcast and its replies, identity, chaining (Bid
 * assignment), register access. What a slot and a reply's data hold is the
 * board family's (dcm_wire_motor.h, dcm_wire_foot.h, dcm_wire_hand.h).
 * Documentation/dcm/wire-protocol.rst describes every byte.
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

/**
 * dcm_rs485_bid_ok() - whether a byte is a Bid
 * @bid: the byte
 *
 * Return: true for 1..DCM_RS485_MAX_BOARDS.
 */
static inline bool dcm_rs485_bid_ok(u8 bid)
{
	return bid >= 1 && bid <= DCM_RS485_MAX_BOARDS;
}

/*
 * The cyclic exchange. The broadcast is a frame; a board's reply to it is
 * not: FLAGS, DATA and a CRC-16 seeded with the board's Bid and the
 * broadcast's SEQ, which are not sent (wire-protocol.rst, "The replies").
 */
#define DCM_RS485_SLOT_LEN		8	/* command bytes per board */
#define DCM_RS485_CMD_HDR_LEN		2	/* SEQ, FLAGS */
#define DCM_RS485_DATA_LEN		12	/* board-specific reply bytes */
#define DCM_RS485_REPLY_PAYLOAD		(1 + DCM_RS485_DATA_LEN)	/* FLAGS, DATA */
#define DCM_RS485_REPLY_FRAME		(DCM_RS485_REPLY_PAYLOAD + DCM_RS485_CRC_LEN)
#define DCM_RS485_REPLY_SLOT		(DCM_RS485_REPLY_FRAME + DCM_RS485_GAP)

/* struct dcm_rs485_reply.flags */
#define DCM_RS485_RF_CONFIGURED	BIT(0)	/* a configuration was accepted */
#define DCM_RS485_RF_WATCHDOG	BIT(1)	/* the watchdog fired since the last reply */
#define DCM_RS485_RF_LOOP1	BIT(2)	/* motor 1 position control running */
#define DCM_RS485_RF_LOOP2	BIT(3)	/* motor 2 position control running */
#define DCM_RS485_RF_FREE	BIT(4)	/* both motors free (no brake) */
#define DCM_RS485_RF_MASK	0x1f
/* Bits 7-5 of FLAGS on the wire: the Bid's low 3 bits, the reply's tag */
#define DCM_RS485_RF_TAG_SHIFT	5
#define DCM_RS485_RF_TAG(bid)	((u8)(((bid) & 7) << DCM_RS485_RF_TAG_SHIFT))

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
 * @bid: the board; not sent: the reply's CRC and tag say it
 * @seq: the SEQ of the broadcast it answers; not sent: the CRC says it
 * @flags: DCM_RS485_RF_*, the board's state
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
int dcm_rs485_parse_reply(const u8 *buf, size_t len, u8 bid, u8 seq, struct dcm_rs485_reply *r);

/**
 * struct dcm_rs485_replies - the master's reader of one cycle's replies
 * @buf: the bytes that came in the reply window, in order
 * @len: how many
 * @off: where the next reply is looked for
 * @seq: the SEQ of the broadcast they answer
 * @n: the boards of the broadcast, Bids 1..@n
 * @next: the lowest Bid still awaited: boards answer in Bid order
 * @in_bad: the bytes before @off are being dropped
 * @reply: the last reply found, valid after dcm_rs485_replies_next()
 *	returned true
 * @replies: replies found
 * @bad: runs of bytes that held no reply (a corrupted reply, one cut
 *	short, noise)
 * @dropped: bytes in those runs
 */
struct dcm_rs485_replies {
	const u8 *buf;
	size_t len, off;
	u8 seq;
	u8 n;
	u8 next;
	bool in_bad;
	struct dcm_rs485_reply reply;
	u32 replies;
	u32 bad;
	u32 dropped;
};

void dcm_rs485_replies_init(struct dcm_rs485_replies *s, const u8 *buf, size_t len, u8 seq,
			    u32 n);
bool dcm_rs485_replies_next(struct dcm_rs485_replies *s);

u32 dcm_rs485_cmd_len(u32 n);
u32 dcm_rs485_reply_start(u8 bid);
u32 dcm_rs485_exchange_chars(u32 n);
u32 dcm_rs485_chars_to_us(u32 chars, u32 baud);

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
