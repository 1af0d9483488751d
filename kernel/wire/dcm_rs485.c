// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the RS485 protocol of the motor, foot and hand boards, what every
 * board type on the bus shares: frames, the receiver, the cyclic exchange,
 * identity, chaining and register access (Documentation/dcm/wire-protocol.rst).
 * What a slot and a reply's data mean is the board family's:
 * dcm_wire_motor.c, dcm_wire_foot.c.
 *
 * Error codes, the same for every function here:
 *   -EMSGSIZE  the output buffer is too small, the input is shorter than
 *              its frame, or a payload has the wrong length for its message
 *   -EBADMSG   the CRC does not match
 *   -EINVAL    not this message (CMD, ADDR), or a field out of range
 */

#include "wire/dcm_rs485.h"

/* Which ADDR a message may carry */
enum { A_NONE, A_BCAST, A_ZERO, A_BID };

/**
 * struct hdr_rule - the header a message may have
 * @addr: A_*: broadcast, 0 (the board being chained) or a Bid
 * @min: shortest payload
 * @max: longest payload
 */
struct hdr_rule {
	u8 addr, min, max;
};

#define CYCLE_MIN	(DCM_RS485_CMD_HDR_LEN + DCM_RS485_SLOT_LEN)
#define CYCLE_MAX	(DCM_RS485_CMD_HDR_LEN + DCM_RS485_MAX_BOARDS * DCM_RS485_SLOT_LEN)

/*
 * By request code, request then reply. A receiver hunting for a frame in
 * noise trusts a start byte only if ADDR, CMD and LEN fit one of these:
 * a stray 0xa5 rarely makes it wait for bytes that belong to other frames.
 */
static const struct hdr_rule hdr_rules[DCM_RS485_CMD_MAX + 1][2] = {
	[DCM_RS485_CYCLE] = {
		/* the replies are not frames: dcm_rs485_put_reply() */
		{ A_BCAST, CYCLE_MIN, CYCLE_MAX }, { A_NONE } },
	[DCM_RS485_CHAIN_RESET] = { { A_BCAST, 0, 0 }, { A_NONE } },
	[DCM_RS485_CHAIN_QUERY] = {
		{ A_ZERO, 0, 0 }, { A_ZERO, DCM_RS485_IDENT_LEN, DCM_RS485_IDENT_LEN } },
	[DCM_RS485_CHAIN_ASSIGN] = { { A_ZERO, 5, 5 }, { A_BID, 5, 5 } },
	[DCM_RS485_CONFIG] = { { A_BID, 1, DCM_RS485_MAX_PAYLOAD }, { A_BID, 2, 2 } },
	[DCM_RS485_IDENT] = {
		{ A_BID, 0, 0 }, { A_BID, DCM_RS485_IDENT_LEN, DCM_RS485_IDENT_LEN } },
	[DCM_RS485_REG_READ] = { { A_BID, 2, 2 }, { A_BID, 3, 2 + DCM_RS485_REG_MAX } },
	[DCM_RS485_REG_WRITE] = { { A_BID, 2, 1 + DCM_RS485_REG_MAX }, { A_BID, 3, 3 } },
};

/* Whether ADDR, CMD and LEN make a header the protocol can send. */
static bool hdr_valid(u8 addr, u8 cmd, size_t len)
{
	u8 c = cmd & ~DCM_RS485_REPLY;
	const struct hdr_rule *r;

	if (c < DCM_RS485_CYCLE || c > DCM_RS485_CMD_MAX)
		return false;
	r = &hdr_rules[c][cmd & DCM_RS485_REPLY ? 1 : 0];
	if (len < r->min || len > r->max)
		return false;
	switch (r->addr) {
	case A_BCAST:
		return addr == DCM_RS485_ADDR_BROADCAST;
	case A_ZERO:
		return addr == DCM_RS485_ADDR_UNASSIGNED;
	case A_BID:
		return dcm_rs485_bid_ok(addr);
	}
	return false;
}

/*
 * Start a frame in @buf: header written, payload to fill at the returned
 * pointer, then frame_end(). NULL if it does not fit.
 */
static u8 *frame_begin(u8 *buf, size_t size, u8 addr, u8 cmd, size_t len)
{
	if (len > DCM_RS485_MAX_PAYLOAD || size < len + DCM_RS485_OVERHEAD)
		return NULL;
	buf[0] = DCM_RS485_START;
	buf[1] = addr;
	buf[2] = cmd;
	buf[3] = (u8)len;
	return buf + DCM_RS485_HDR_LEN;
}

/* Append the CRC to the frame begun in @buf; its total length. */
static int frame_end(u8 *buf)
{
	u32 n = DCM_RS485_HDR_LEN + buf[3];
	u16 crc = crc_itu_t(DCM_CRC16_INIT, buf + 1, n - 1);

	buf[n] = (u8)(crc >> 8);
	buf[n + 1] = (u8)crc;
	return n + DCM_RS485_CRC_LEN;
}

/**
 * dcm_rs485_put_frame() - build a frame
 * @buf: where
 * @size: room in @buf
 * @addr: ADDR byte
 * @cmd: CMD byte, a request of enum dcm_rs485_cmd, DCM_RS485_REPLY or-ed in
 *	for a reply
 * @payload: @len bytes
 * @len: payload length, up to DCM_RS485_MAX_PAYLOAD
 *
 * Only headers the protocol has are built: @addr and @len must fit @cmd
 * (a CYCLE request is a broadcast of 10..130 bytes, an IDENT reply comes
 * from a Bid with 14 bytes, ...; Documentation/dcm/wire-protocol.rst).
 *
 * Return: the frame length, @len + DCM_RS485_OVERHEAD; -EINVAL for an
 * unknown @cmd or an @addr or @len that does not fit it; -EMSGSIZE if @len
 * or the frame is too big.
 */
int dcm_rs485_put_frame(u8 *buf, size_t size, u8 addr, u8 cmd, const u8 *payload, size_t len)
{
	u8 *p;

	if (len > DCM_RS485_MAX_PAYLOAD)
		return -EMSGSIZE;
	if (!hdr_valid(addr, cmd, len) || (len && !payload))
		return -EINVAL;
	p = frame_begin(buf, size, addr, cmd, len);
	if (!p)
		return -EMSGSIZE;
	if (len)
		memcpy(p, payload, len);
	return frame_end(buf);
}
EXPORT_SYMBOL_GPL(dcm_rs485_put_frame);

static bool hdr_ok(const u8 *hdr)
{
	return hdr_valid(hdr[1], hdr[2], hdr[3]);
}

/* A whole frame in @buf, its CRC good: copy it to @f. */
static void frame_copy(struct dcm_rs485_frame *f, const u8 *buf)
{
	f->addr = buf[1];
	f->cmd = buf[2];
	f->len = buf[3];
	memcpy(f->payload, buf + DCM_RS485_HDR_LEN, f->len);
}

/**
 * dcm_rs485_parse_frame() - check and copy the frame at the start of a buffer
 * @buf: the bytes, the first the start byte
 * @len: how many; bytes after the frame are left alone
 * @f: the frame
 *
 * Return: the frame length; -EINVAL if @buf does not start with a frame
 * header (start byte, known CMD, ADDR and LEN that fit it); -EMSGSIZE if
 * @len is shorter than the frame; -EBADMSG on a CRC error.
 */
int dcm_rs485_parse_frame(const u8 *buf, size_t len, struct dcm_rs485_frame *f)
{
	u32 total;

	if (len < DCM_RS485_HDR_LEN)
		return len && buf[0] != DCM_RS485_START ? -EINVAL : -EMSGSIZE;
	if (buf[0] != DCM_RS485_START || !hdr_ok(buf))
		return -EINVAL;
	total = DCM_RS485_OVERHEAD + buf[3];
	if (len < total)
		return -EMSGSIZE;
	if (crc_itu_t(DCM_CRC16_INIT, buf + 1, total - 1))
		return -EBADMSG;
	frame_copy(f, buf);
	return total;
}
EXPORT_SYMBOL_GPL(dcm_rs485_parse_frame);

/**
 * dcm_rs485_rx_init() - a receiver with no byte and zero counters
 * @rx: the receiver
 */
void dcm_rs485_rx_init(struct dcm_rs485_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
}

/**
 * dcm_rs485_rx_reset() - forget a partly received frame, keep the counters
 * @rx: the receiver
 *
 * The master calls it before each exchange: what is left of the last one
 * is noise. The bytes forgotten count as dropped.
 */
void dcm_rs485_rx_reset(struct dcm_rs485_rx *rx)
{
	rx->dropped += rx->n;
	rx->n = 0;
}

static void rx_drop(struct dcm_rs485_rx *rx, u32 k, bool good)
{
	if (!good)
		rx->dropped += k;
	memmove(rx->buf, rx->buf + k, rx->n - k);
	rx->n -= k;
}

/*
 * Look for a frame in the bytes held. A bad header or CRC drops only the
 * start byte it began with: a good frame may start inside the bytes the bad
 * one swallowed.
 */
static bool rx_scan(struct dcm_rs485_rx *rx)
{
	u32 i, total;

	for (;;) {
		for (i = 0; i < rx->n && rx->buf[i] != DCM_RS485_START; i++)
			;
		if (i)
			rx_drop(rx, i, false);
		if (rx->n < DCM_RS485_HDR_LEN)
			return false;
		if (!hdr_ok(rx->buf)) {
			rx->hdr_errors++;
			rx_drop(rx, 1, false);
			continue;
		}
		total = DCM_RS485_OVERHEAD + rx->buf[3];
		if (rx->n < total)
			return false;
		if (crc_itu_t(DCM_CRC16_INIT, rx->buf + 1, total - 1)) {
			rx->crc_errors++;
			rx_drop(rx, 1, false);
			continue;
		}
		frame_copy(&rx->frame, rx->buf);
		rx->frames++;
		rx_drop(rx, total, true);
		return true;
	}
}

/**
 * dcm_rs485_rx_byte() - feed a receiver one byte
 * @rx: the receiver
 * @byte: the byte, as it came off the line
 *
 * When it returns true, @rx->frame holds a frame with a good CRC. More
 * frames may already be complete among the bytes held (after a bad frame
 * that had swallowed them): call dcm_rs485_rx_next() until it returns false
 * before feeding the next byte.
 *
 * Return: true if a frame is complete.
 */
bool dcm_rs485_rx_byte(struct dcm_rs485_rx *rx, u8 byte)
{
	if (rx->n == sizeof(rx->buf))	/* cannot happen: rx_scan() keeps it short */
		rx_drop(rx, 1, false);
	rx->buf[rx->n++] = byte;
	return rx_scan(rx);
}

/**
 * dcm_rs485_rx_next() - the next frame already complete in a receiver
 * @rx: the receiver
 *
 * Return: true if a frame is complete, in @rx->frame.
 */
bool dcm_rs485_rx_next(struct dcm_rs485_rx *rx)
{
	return rx_scan(rx);
}

/**
 * dcm_rs485_rx_idle() - tell a receiver the line went quiet
 * @rx: the receiver
 *
 * The bytes held will get no continuation: a frame not yet complete never
 * will be. Its start byte is dropped (a truncated frame) and the bytes after
 * it scanned again, since a good frame may hide behind a bad header that
 * claimed more bytes than came. The master calls it when the reply window of
 * a cycle closes, a board when its line has been idle for a few characters.
 * Call it until it returns false; the bytes held are then all dropped.
 *
 * Return: true if a frame is complete, in @rx->frame.
 */
bool dcm_rs485_rx_idle(struct dcm_rs485_rx *rx)
{
	while (rx->n) {
		if (rx_scan(rx))
			return true;
		if (!rx->n)
			break;
		rx->truncated++;
		rx_drop(rx, 1, false);
	}
	return false;
}

/**
 * dcm_rs485_put_cmd() - build the cyclic broadcast
 * @buf: where
 * @size: room in @buf
 * @seq: cycle sequence number
 * @slots: one per board, by Bid: @slots[0] is Bid 1
 * @n: how many, 1..DCM_RS485_MAX_BOARDS
 *
 * Return: the frame length, dcm_rs485_cmd_len(@n); -EINVAL for a bad @n;
 * -EMSGSIZE if @size is too small.
 */
int dcm_rs485_put_cmd(u8 *buf, size_t size, u8 seq, const struct dcm_rs485_slot *slots, u32 n)
{
	u8 *p;
	u32 i;

	if (n < 1 || n > DCM_RS485_MAX_BOARDS)
		return -EINVAL;
	p = frame_begin(buf, size, DCM_RS485_ADDR_BROADCAST, DCM_RS485_CYCLE,
			DCM_RS485_CMD_HDR_LEN + n * DCM_RS485_SLOT_LEN);
	if (!p)
		return -EMSGSIZE;
	p[0] = seq;
	p[1] = 0;
	for (i = 0; i < n; i++)
		memcpy(p + DCM_RS485_CMD_HDR_LEN + i * DCM_RS485_SLOT_LEN, slots[i].b,
		       DCM_RS485_SLOT_LEN);
	return frame_end(buf);
}

/**
 * dcm_rs485_get_cmd() - decode the cyclic broadcast
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @c: the command
 *
 * Return: 0; -EINVAL if @f is not a CYCLE broadcast; -EMSGSIZE if its
 * length is not that of 1..DCM_RS485_MAX_BOARDS slots.
 */
int dcm_rs485_get_cmd(const struct dcm_rs485_frame *f, struct dcm_rs485_cmd_frame *c)
{
	u32 i, n;

	if (f->cmd != DCM_RS485_CYCLE || f->addr != DCM_RS485_ADDR_BROADCAST)
		return -EINVAL;
	if (f->len < DCM_RS485_CMD_HDR_LEN + DCM_RS485_SLOT_LEN ||
	    (f->len - DCM_RS485_CMD_HDR_LEN) % DCM_RS485_SLOT_LEN)
		return -EMSGSIZE;
	n = (f->len - DCM_RS485_CMD_HDR_LEN) / DCM_RS485_SLOT_LEN;
	if (n > DCM_RS485_MAX_BOARDS)
		return -EMSGSIZE;
	c->seq = f->payload[0];
	c->flags = f->payload[1];
	c->n = n;
	for (i = 0; i < n; i++)
		memcpy(c->slot[i].b, f->payload + DCM_RS485_CMD_HDR_LEN + i * DCM_RS485_SLOT_LEN,
		       DCM_RS485_SLOT_LEN);
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_rs485_get_cmd);

/**
 * dcm_rs485_parse_cmd() - check and decode the cyclic broadcast in a buffer
 * @buf: the bytes, the first the start byte
 * @len: how many
 * @c: the command
 *
 * Return: the frame length, or an error of dcm_rs485_parse_frame() or
 * dcm_rs485_get_cmd().
 */
int dcm_rs485_parse_cmd(const u8 *buf, size_t len, struct dcm_rs485_cmd_frame *c)
{
	struct dcm_rs485_frame f;
	int total, ret;

	total = dcm_rs485_parse_frame(buf, len, &f);
	if (total < 0)
		return total;
	ret = dcm_rs485_get_cmd(&f, c);
	return ret < 0 ? ret : total;
}
EXPORT_SYMBOL_GPL(dcm_rs485_parse_cmd);

/*
 * The CRC of a reply starts from the Bid and SEQ it is for, as if they had
 * been sent before FLAGS: a reply read in another board's place, or left
 * over from another cycle, fails its check.
 */
static u16 reply_seed(u8 bid, u8 seq)
{
	const u8 pre[2] = { bid, seq };

	return crc_itu_t(DCM_CRC16_INIT, pre, sizeof(pre));
}

/* Whether the DCM_RS485_REPLY_FRAME bytes at @p are Bid @bid's reply to @seq. */
static bool reply_ok(const u8 *p, u8 bid, u8 seq)
{
	if ((p[0] & ~DCM_RS485_RF_MASK) != DCM_RS485_RF_TAG(bid))
		return false;
	return !crc_itu_t(reply_seed(bid, seq), p, DCM_RS485_REPLY_FRAME);
}

static void reply_copy(struct dcm_rs485_reply *r, const u8 *p, u8 bid, u8 seq)
{
	r->bid = bid;
	r->seq = seq;
	r->flags = p[0] & DCM_RS485_RF_MASK;
	memcpy(r->data, p + 1, DCM_RS485_DATA_LEN);
}

/**
 * dcm_rs485_put_reply() - build a board's reply to the cyclic broadcast
 * @buf: where
 * @size: room in @buf, DCM_RS485_REPLY_FRAME at least
 * @r: the reply: @r->bid the board, @r->seq the SEQ of the broadcast it
 *	answers; reserved bits of @r->flags are not sent
 *
 * A reply is FLAGS (the board's state in bits 4-0, its Bid's low 3 bits in
 * bits 7-5), DATA and a CRC-16 most significant byte first, seeded with
 * the Bid and the SEQ, which are not sent.
 *
 * Return: DCM_RS485_REPLY_FRAME; -EINVAL for a bad Bid; -EMSGSIZE if
 * @size is too small.
 */
int dcm_rs485_put_reply(u8 *buf, size_t size, const struct dcm_rs485_reply *r)
{
	u16 crc;

	if (!dcm_rs485_bid_ok(r->bid))
		return -EINVAL;
	if (size < DCM_RS485_REPLY_FRAME)
		return -EMSGSIZE;
	buf[0] = DCM_RS485_RF_TAG(r->bid) | (r->flags & DCM_RS485_RF_MASK);
	memcpy(buf + 1, r->data, DCM_RS485_DATA_LEN);
	crc = crc_itu_t(reply_seed(r->bid, r->seq), buf, DCM_RS485_REPLY_PAYLOAD);
	buf[DCM_RS485_REPLY_PAYLOAD] = (u8)(crc >> 8);
	buf[DCM_RS485_REPLY_PAYLOAD + 1] = (u8)crc;
	return DCM_RS485_REPLY_FRAME;
}
EXPORT_SYMBOL_GPL(dcm_rs485_put_reply);

/**
 * dcm_rs485_parse_reply() - check one board's reply at the start of a buffer
 * @buf: the bytes
 * @len: how many; bytes after the reply are left alone
 * @bid: the board it must come from
 * @seq: the SEQ of the broadcast it must answer
 * @r: the reply; reserved flag bits are cleared
 *
 * Return: DCM_RS485_REPLY_FRAME; -EMSGSIZE if @len is shorter; -EINVAL for
 * a bad @bid or a tag (FLAGS bits 7-5) of another Bid; -EBADMSG if the CRC
 * does not match (a corrupted reply, or another board's, or another
 * cycle's).
 */
int dcm_rs485_parse_reply(const u8 *buf, size_t len, u8 bid, u8 seq, struct dcm_rs485_reply *r)
{
	if (!dcm_rs485_bid_ok(bid))
		return -EINVAL;
	if (len < DCM_RS485_REPLY_FRAME)
		return -EMSGSIZE;
	if ((buf[0] & ~DCM_RS485_RF_MASK) != DCM_RS485_RF_TAG(bid))
		return -EINVAL;
	if (crc_itu_t(reply_seed(bid, seq), buf, DCM_RS485_REPLY_FRAME))
		return -EBADMSG;
	reply_copy(r, buf, bid, seq);
	return DCM_RS485_REPLY_FRAME;
}
EXPORT_SYMBOL_GPL(dcm_rs485_parse_reply);

/**
 * dcm_rs485_replies_init() - start reading one cycle's replies
 * @s: the reader
 * @buf: the bytes that came after the broadcast, in order
 * @len: how many
 * @seq: the broadcast's SEQ
 * @n: its boards, 1..DCM_RS485_MAX_BOARDS (more are taken as that many)
 */
void dcm_rs485_replies_init(struct dcm_rs485_replies *s, const u8 *buf, size_t len, u8 seq,
			    u32 n)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->len = len;
	s->seq = seq;
	s->n = (u8)min_t(u32, n, DCM_RS485_MAX_BOARDS);
	s->next = 1;
}
EXPORT_SYMBOL_GPL(dcm_rs485_replies_init);

/* The Bid, @from..@s->n, whose reply the bytes at @off are; 0 for none. */
static u8 replies_match(const struct dcm_rs485_replies *s, size_t off, u8 from)
{
	const u8 *p = s->buf + off;
	u8 bid;

	if (s->len - off < DCM_RS485_REPLY_FRAME)
		return 0;
	/* The tag leaves one Bid to try, two on a bus of more than 8 boards. */
	for (bid = from; bid <= s->n; bid++)
		if (reply_ok(p, bid, s->seq))
			return bid;
	return 0;
}

static void replies_drop(struct dcm_rs485_replies *s, size_t k, bool run)
{
	if (!s->in_bad)
		s->bad++;
	s->in_bad = run;
	s->dropped += k;
	s->off += k;
}

/**
 * dcm_rs485_replies_next() - the next reply of the cycle
 * @s: the reader
 *
 * Boards answer in Bid order and a silent board sends nothing, so the
 * replies are back to back, DCM_RS485_REPLY_FRAME bytes each; which board
 * a reply comes from its tag and CRC say. Bytes that hold no reply of a
 * Bid still awaited are dropped: a whole reply's length when the reply
 * after it is good (a corrupted reply), else one byte at a time, so that
 * the replies are found again after a byte lost or added on the line.
 *
 * Return: true with the reply in @s->reply; false when the bytes are used
 * up (what remained is counted in @s->bad and @s->dropped).
 */
bool dcm_rs485_replies_next(struct dcm_rs485_replies *s)
{
	u8 bid;

	while (s->off < s->len) {
		if (s->len - s->off < DCM_RS485_REPLY_FRAME) {
			replies_drop(s, s->len - s->off, true);
			break;
		}
		bid = s->next <= s->n ? replies_match(s, s->off, s->next) : 0;
		if (bid) {
			reply_copy(&s->reply, s->buf + s->off, bid, s->seq);
			s->off += DCM_RS485_REPLY_FRAME;
			s->next = bid + 1;
			s->replies++;
			s->in_bad = false;
			return true;
		}
		/* A reply spoilt in place: the next one is where it should be. */
		if (s->next <= s->n && replies_match(s, s->off + DCM_RS485_REPLY_FRAME, s->next))
			replies_drop(s, DCM_RS485_REPLY_FRAME, false);
		else
			replies_drop(s, 1, true);
	}
	return false;
}
EXPORT_SYMBOL_GPL(dcm_rs485_replies_next);

/**
 * dcm_rs485_cmd_len() - length of the cyclic broadcast
 * @n: boards on the bus
 *
 * Return: bytes (characters) of the frame.
 */
u32 dcm_rs485_cmd_len(u32 n)
{
	return DCM_RS485_OVERHEAD + DCM_RS485_CMD_HDR_LEN + n * DCM_RS485_SLOT_LEN;
}

/**
 * dcm_rs485_reply_start() - when a board starts its reply
 * @bid: the board, 1..DCM_RS485_MAX_BOARDS
 *
 * Board @bid starts sending its reply this many character times after the
 * last character of the cyclic broadcast: a gap, then one reply slot (a
 * reply frame and a gap) per board before it. A board that is missing
 * leaves its slot silent; the others keep theirs.
 *
 * Return: character times, 0 for a bad @bid.
 */
u32 dcm_rs485_reply_start(u8 bid)
{
	if (!dcm_rs485_bid_ok(bid))
		return 0;
	return DCM_RS485_GAP + (bid - 1) * DCM_RS485_REPLY_SLOT;
}

/**
 * dcm_rs485_exchange_chars() - length of one cyclic exchange on a bus
 * @n: boards on the bus
 *
 * Return: character times from the first byte of the broadcast to the end
 * of the last slot (the last reply and the gap after it).
 */
u32 dcm_rs485_exchange_chars(u32 n)
{
	return dcm_rs485_cmd_len(n) + n * DCM_RS485_REPLY_SLOT;
}

/**
 * dcm_rs485_chars_to_us() - character times to microseconds
 * @chars: character times (DCM_RS485_CHAR_BITS bits each)
 * @baud: line rate, bits per second
 *
 * Return: microseconds, rounded up; 0 if @baud is 0.
 */
u32 dcm_rs485_chars_to_us(u32 chars, u32 baud)
{
	u64 bits = (u64)chars * DCM_RS485_CHAR_BITS * 1000000;

	if (!baud)
		return 0;
	return (u32)div64_u64(bits + baud - 1, baud);
}

/**
 * dcm_rs485_put_ident() - build an identity reply
 * @buf: where
 * @size: room in @buf
 * @addr: the board's Bid (IDENT), or 0 (CHAIN_QUERY: no Bid yet)
 * @cmd: DCM_RS485_CHAIN_QUERY or DCM_RS485_IDENT, or-ed with
 *	DCM_RS485_REPLY
 * @id: the identity
 *
 * Return: the frame length; -EINVAL for another @cmd or an @addr that does
 * not go with it; -EMSGSIZE if @size is too small.
 */
int dcm_rs485_put_ident(u8 *buf, size_t size, u8 addr, u8 cmd, const struct dcm_rs485_ident *id)
{
	u8 *p;

	if (cmd == (DCM_RS485_CHAIN_QUERY | DCM_RS485_REPLY)) {
		if (addr != DCM_RS485_ADDR_UNASSIGNED)
			return -EINVAL;
	} else if (cmd != (DCM_RS485_IDENT | DCM_RS485_REPLY) || !dcm_rs485_bid_ok(addr)) {
		return -EINVAL;
	}
	p = frame_begin(buf, size, addr, cmd, DCM_RS485_IDENT_LEN);
	if (!p)
		return -EMSGSIZE;
	p[0] = id->type;
	p[1] = id->struct_version;
	put_unaligned_le32(id->board_id, p + 2);
	put_unaligned_le32(id->board_id2, p + 6);
	put_unaligned_le16(id->bootloader_version, p + 10);
	put_unaligned_le16(id->prog_version, p + 12);
	return frame_end(buf);
}
EXPORT_SYMBOL_GPL(dcm_rs485_put_ident);

/**
 * dcm_rs485_get_ident() - decode an identity reply
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @id: the identity
 *
 * Return: 0; -EINVAL if @f is not a CHAIN_QUERY or IDENT reply or the
 * board type is unknown; -EMSGSIZE for a wrong length.
 */
int dcm_rs485_get_ident(const struct dcm_rs485_frame *f, struct dcm_rs485_ident *id)
{
	const u8 *p = f->payload;

	if (f->cmd == (DCM_RS485_CHAIN_QUERY | DCM_RS485_REPLY)) {
		if (f->addr != DCM_RS485_ADDR_UNASSIGNED)
			return -EINVAL;
	} else if (f->cmd != (DCM_RS485_IDENT | DCM_RS485_REPLY) || !dcm_rs485_bid_ok(f->addr)) {
		return -EINVAL;
	}
	if (f->len != DCM_RS485_IDENT_LEN)
		return -EMSGSIZE;
	if (p[0] < DCM_BOARD_MOTOR || p[0] > DCM_BOARD_HAND)
		return -EINVAL;
	id->type = p[0];
	id->struct_version = p[1];
	id->board_id = get_unaligned_le32(p + 2);
	id->board_id2 = get_unaligned_le32(p + 6);
	id->bootloader_version = get_unaligned_le16(p + 10);
	id->prog_version = get_unaligned_le16(p + 12);
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_rs485_get_ident);

/**
 * dcm_rs485_put_assign() - build a CHAIN_ASSIGN request or its reply
 * @buf: where
 * @size: room in @buf
 * @reply: false: the master's request, to address 0; true: the board's
 *	reply, from its new Bid
 * @board_id: the BoardId of the board being chained
 * @bid: the Bid it gets, 1..DCM_RS485_MAX_BOARDS
 *
 * Return: the frame length; -EINVAL for a bad @bid; -EMSGSIZE if @size is
 * too small.
 */
int dcm_rs485_put_assign(u8 *buf, size_t size, bool reply, u32 board_id, u8 bid)
{
	u8 p[5];

	if (!dcm_rs485_bid_ok(bid))
		return -EINVAL;
	put_unaligned_le32(board_id, p);
	p[4] = bid;
	if (reply)
		return dcm_rs485_put_frame(buf, size, bid,
					   DCM_RS485_CHAIN_ASSIGN | DCM_RS485_REPLY, p, 5);
	return dcm_rs485_put_frame(buf, size, DCM_RS485_ADDR_UNASSIGNED, DCM_RS485_CHAIN_ASSIGN,
				   p, 5);
}
EXPORT_SYMBOL_GPL(dcm_rs485_put_assign);

/**
 * dcm_rs485_get_assign() - decode a CHAIN_ASSIGN request or its reply
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @board_id: the BoardId
 * @bid: the Bid
 *
 * Return: 0; -EINVAL if @f is neither, comes from or goes to the wrong
 * address, or carries a bad Bid; -EMSGSIZE for a wrong length.
 */
int dcm_rs485_get_assign(const struct dcm_rs485_frame *f, u32 *board_id, u8 *bid)
{
	u8 want;

	if (f->cmd == DCM_RS485_CHAIN_ASSIGN)
		want = DCM_RS485_ADDR_UNASSIGNED;
	else if (f->cmd == (DCM_RS485_CHAIN_ASSIGN | DCM_RS485_REPLY))
		want = f->len == 5 ? f->payload[4] : 0;
	else
		return -EINVAL;
	if (f->len != 5)
		return -EMSGSIZE;
	if (!dcm_rs485_bid_ok(f->payload[4]) || f->addr != want)
		return -EINVAL;
	*board_id = get_unaligned_le32(f->payload);
	*bid = f->payload[4];
	return 0;
}
EXPORT_SYMBOL_GPL(dcm_rs485_get_assign);

/**
 * dcm_chain_format() - the ChainResult string of a bus
 * @buf: where, NUL-terminated
 * @size: room in @buf
 * @e: the boards chained, in Bid order
 * @n: how many
 *
 * "Bid:BoardId" pairs, decimal, one space between: "1:4097 2:4098". No
 * board gives "".
 *
 * Return: the string length; -EMSGSIZE if it does not fit (@buf then holds
 * as much of it as fits, NUL-terminated, when @size is not 0).
 */
int dcm_chain_format(char *buf, size_t size, const struct dcm_chain_entry *e, u32 n)
{
	size_t len = 0;
	u32 i;
	int k;

	if (!size)
		return -EMSGSIZE;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		k = snprintf(buf + len, size - len, "%s%u:%u", i ? " " : "", e[i].bid,
			     e[i].board_id);
		if (k < 0 || (size_t)k >= size - len)
			return -EMSGSIZE;
		len += k;
	}
	return (int)len;
}

/* A decimal number up to @max at *@s, which moves past it. */
static int parse_uint(const char **s, u32 max, u32 *v)
{
	const char *p = *s;
	u64 x = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	while (*p >= '0' && *p <= '9') {
		x = x * 10 + (*p++ - '0');
		if (x > max)
			return -EINVAL;
	}
	*v = (u32)x;
	*s = p;
	return 0;
}

/**
 * dcm_chain_parse() - read a ChainResult string back
 * @s: the string, as dcm_chain_format() writes it
 * @e: the boards
 * @max: room in @e
 * @n: how many boards the string lists
 *
 * Return: 0; -EINVAL if @s is not in that form (Bids 1..DCM_RS485_MAX_BOARDS,
 * BoardIds up to U32_MAX); -EMSGSIZE if it lists more than @max boards.
 */
int dcm_chain_parse(const char *s, struct dcm_chain_entry *e, u32 max, u32 *n)
{
	u32 bid, id, k = 0;

	while (*s) {
		if (k && *s++ != ' ')
			return -EINVAL;
		if (parse_uint(&s, DCM_RS485_MAX_BOARDS, &bid) || !bid || *s++ != ':' ||
		    parse_uint(&s, U32_MAX, &id))
			return -EINVAL;
		if (k == max)
			return -EMSGSIZE;
		e[k].bid = (u8)bid;
		e[k].board_id = id;
		k++;
	}
	*n = k;
	return 0;
}

static bool regs_ok(u8 reg, u8 count)
{
	return count >= 1 && count <= DCM_RS485_REG_MAX && reg + count <= 256;
}

/**
 * dcm_rs485_put_regs() - build a register request or reply
 * @buf: where
 * @size: room in @buf
 * @addr: the board's Bid (to it, or from it)
 * @cmd: DCM_RS485_REG_READ or DCM_RS485_REG_WRITE, or-ed with
 *	DCM_RS485_REPLY for the board's reply
 * @r: what: REG_READ sends @r->reg and @r->count; its reply adds @r->data;
 *	REG_WRITE sends @r->reg and @r->data; its reply @r->reg, @r->count
 *	and @r->status
 *
 * Return: the frame length; -EINVAL for another @cmd, a bad Bid, or
 * registers out of 1..DCM_RS485_REG_MAX bytes below 256; -EMSGSIZE if @size
 * is too small.
 */
int dcm_rs485_put_regs(u8 *buf, size_t size, u8 addr, u8 cmd, const struct dcm_rs485_regs *r)
{
	size_t len;
	u8 *p;

	if (!dcm_rs485_bid_ok(addr) || !regs_ok(r->reg, r->count))
		return -EINVAL;
	switch (cmd) {
	case DCM_RS485_REG_READ:
		len = 2;
		break;
	case DCM_RS485_REG_READ | DCM_RS485_REPLY:
		len = 2 + r->count;
		break;
	case DCM_RS485_REG_WRITE:
		len = 1 + r->count;
		break;
	case DCM_RS485_REG_WRITE | DCM_RS485_REPLY:
		len = 3;
		break;
	default:
		return -EINVAL;
	}
	p = frame_begin(buf, size, addr, cmd, len);
	if (!p)
		return -EMSGSIZE;
	p[0] = r->reg;
	if (cmd == DCM_RS485_REG_WRITE) {
		memcpy(p + 1, r->data, r->count);
	} else {
		p[1] = r->count;
		if (cmd == (DCM_RS485_REG_READ | DCM_RS485_REPLY))
			memcpy(p + 2, r->data, r->count);
		else if (cmd == (DCM_RS485_REG_WRITE | DCM_RS485_REPLY))
			p[2] = r->status;
	}
	return frame_end(buf);
}

/**
 * dcm_rs485_get_regs() - decode a register request or reply
 * @f: a frame from dcm_rs485_parse_frame() or a receiver
 * @r: what (see dcm_rs485_put_regs()); fields the message lacks are 0
 *
 * Return: 0; -EINVAL if @f is none of the four, has a bad Bid, or names
 * registers out of range; -EMSGSIZE for a wrong length.
 */
int dcm_rs485_get_regs(const struct dcm_rs485_frame *f, struct dcm_rs485_regs *r)
{
	const u8 *p = f->payload;

	if (!dcm_rs485_bid_ok(f->addr))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	switch (f->cmd) {
	case DCM_RS485_REG_READ:
		if (f->len != 2)
			return -EMSGSIZE;
		r->count = p[1];
		break;
	case DCM_RS485_REG_READ | DCM_RS485_REPLY:
		if (f->len < 2 || f->len != 2 + p[1])
			return -EMSGSIZE;
		r->count = p[1];
		if (r->count <= DCM_RS485_REG_MAX)
			memcpy(r->data, p + 2, r->count);
		break;
	case DCM_RS485_REG_WRITE:
		if (f->len < 2 || f->len > 1 + DCM_RS485_REG_MAX)
			return -EMSGSIZE;
		r->count = f->len - 1;
		memcpy(r->data, p + 1, r->count);
		break;
	case DCM_RS485_REG_WRITE | DCM_RS485_REPLY:
		if (f->len != 3)
			return -EMSGSIZE;
		r->count = p[1];
		r->status = p[2];
		break;
	default:
		return -EINVAL;
	}
	r->reg = p[0];
	return regs_ok(r->reg, r->count) ? 0 : -EINVAL;
}
