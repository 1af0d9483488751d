// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the RS485 wire protocol (kernel/wire/dcm_rs485.c) and the
 * checksums (crc_itu_t() and crc8() of the host shim kernel/host/include/,
 * kernel/wire/dcm_crc.c): CRC check values, frame round trips at
 * every field's extremes, the byte-by-byte receiver against garbage,
 * truncation, bit flips and back-to-back frames, the configuration
 * structure, chaining, register access, timing, and random input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_motor.h"

/* xorshift32, fixed seed: the same "random" bytes on every run */
static u32 rng_state;

static void rng_seed(u32 s)
{
	rng_state = s ? s : 1;
}

static u32 rng(void)
{
	u32 x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

static void rng_fill(u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)rng();
}

/* Reference CRCs, bit by bit, written from the algorithms' definitions. */
static u16 ref_crc16(const u8 *p, size_t n)
{
	u16 crc = 0xffff;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= (u16)(p[i] << 8);
		for (b = 0; b < 8; b++)
			crc = crc & 0x8000 ? (u16)(crc << 1) ^ 0x1021 : (u16)(crc << 1);
	}
	return crc;
}

static u8 ref_crc8(const u8 *p, size_t n)
{
	u8 crc = 0;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = crc & 0x80 ? (u8)(crc << 1) ^ 0x07 : (u8)(crc << 1);
	}
	return crc;
}

/* Any header, even one the protocol does not have, with a good CRC. */
static int raw_frame(u8 *buf, u8 addr, u8 cmd, const u8 *payload, u8 len)
{
	u16 crc;

	buf[0] = DCM_RS485_START;
	buf[1] = addr;
	buf[2] = cmd;
	buf[3] = len;
	memcpy(buf + 4, payload, len);
	crc = ref_crc16(buf + 1, 3 + len);
	buf[4 + len] = crc >> 8;
	buf[5 + len] = (u8)crc;
	return len + 6;
}

static void test_crc_check_values(void **state)
{
	const u8 *check = (const u8 *)"123456789";
	u8 buf[300];
	u16 c;
	int i, n;

	(void)state;
	assert_int_equal(0x29b1, crc_itu_t(DCM_CRC16_INIT, check, 9));
	assert_int_equal(DCM_CRC16_CHECK, crc_itu_t(DCM_CRC16_INIT, check, 9));
	assert_int_equal(0xf4, dcm_crc8(DCM_CRC8_INIT, check, 9));
	assert_int_equal(DCM_CRC8_CHECK, dcm_crc8(DCM_CRC8_INIT, check, 9));
	/* Empty input leaves the register alone. */
	assert_int_equal(0xffff, crc_itu_t(DCM_CRC16_INIT, check, 0));
	assert_int_equal(0, dcm_crc8(DCM_CRC8_INIT, check, 0));
	/* In pieces, the same. */
	c = crc_itu_t(DCM_CRC16_INIT, check, 4);
	assert_int_equal(0x29b1, crc_itu_t(c, check + 4, 5));
	assert_int_equal(0xf4, dcm_crc8(dcm_crc8(0, check, 2), check + 2, 7));

	rng_seed(1);
	for (i = 0; i < 2000; i++) {
		n = rng() % 257;
		rng_fill(buf, n);
		assert_int_equal(ref_crc16(buf, n), crc_itu_t(DCM_CRC16_INIT, buf, n));
		assert_int_equal(ref_crc8(buf, n), dcm_crc8(DCM_CRC8_INIT, buf, n));
		/* Appended MSB first, the CRC-16 of data + CRC is 0. */
		c = crc_itu_t(DCM_CRC16_INIT, buf, n);
		buf[n] = c >> 8;
		buf[n + 1] = (u8)c;
		assert_int_equal(0, crc_itu_t(DCM_CRC16_INIT, buf, n + 2));
	}
}

static void test_frame_basic(void **state)
{
	u8 buf[DCM_RS485_MAX_FRAME], pl[DCM_RS485_MAX_PAYLOAD];
	struct dcm_rs485_frame f;
	int n, len;

	(void)state;
	/* The smallest frame, byte by byte. */
	n = dcm_rs485_put_frame(buf, sizeof(buf), 0xff, DCM_RS485_CHAIN_RESET, NULL, 0);
	assert_int_equal(6, n);
	assert_int_equal(0xa5, buf[0]);
	assert_int_equal(0xff, buf[1]);
	assert_int_equal(0x02, buf[2]);
	assert_int_equal(0x00, buf[3]);
	assert_int_equal(crc_itu_t(0xffff, buf + 1, 3), (buf[4] << 8) | buf[5]);
	assert_int_equal(6, dcm_rs485_parse_frame(buf, 6, &f));
	assert_int_equal(0xff, f.addr);
	assert_int_equal(DCM_RS485_CHAIN_RESET, f.cmd);
	assert_int_equal(0, f.len);

	/* Every payload length (a CONFIG request may have any). */
	for (len = 1; len <= DCM_RS485_MAX_PAYLOAD; len++) {
		rng_fill(pl, len);
		n = dcm_rs485_put_frame(buf, sizeof(buf), 3, DCM_RS485_CONFIG, pl, len);
		assert_int_equal(len + 6, n);
		memset(&f, 0, sizeof(f));
		assert_int_equal(n, dcm_rs485_parse_frame(buf, n, &f));
		assert_int_equal(len, f.len);
		assert_memory_equal(pl, f.payload, len);
		/* Bytes after the frame are left alone. */
		assert_int_equal(n, dcm_rs485_parse_frame(buf, sizeof(buf), &f));
		/* One byte short. */
		assert_int_equal(-EMSGSIZE, dcm_rs485_parse_frame(buf, n - 1, &f));
		/* Output too small. */
		assert_int_equal(-EMSGSIZE,
				 dcm_rs485_put_frame(buf, n - 1, 3, DCM_RS485_CONFIG, pl, len));
	}
	assert_int_equal(-EMSGSIZE, dcm_rs485_put_frame(buf, sizeof(buf), 3, DCM_RS485_CONFIG,
							pl, DCM_RS485_MAX_PAYLOAD + 1));
	/* Headers the protocol does not have are neither sent nor accepted. */
	{
		static const struct { u8 addr, cmd, len; } bad[] = {
			{ 3, DCM_RS485_CYCLE, 10 },		/* cycle: broadcast only */
			{ 0xff, DCM_RS485_CYCLE, 9 },		/* less than one slot */
			{ 0xff, DCM_RS485_CYCLE, 2 + 8 * 17 },	/* more than 16 */
			{ 0xff, DCM_RS485_CHAIN_RESET | 0x80, 0 },	/* no reply */
			{ 1, DCM_RS485_CHAIN_QUERY, 0 },	/* to address 0 */
			{ 1, DCM_RS485_CHAIN_QUERY | 0x80, 14 },	/* from address 0 */
			{ 0, DCM_RS485_CHAIN_ASSIGN | 0x80, 5 },
			{ 0, DCM_RS485_CHAIN_ASSIGN, 4 },
			{ 17, DCM_RS485_IDENT, 0 },
			{ 0xff, DCM_RS485_IDENT, 0 },
			{ 1, DCM_RS485_IDENT | 0x80, 13 },
			{ 1, DCM_RS485_CYCLE | 0x80, 15 },
			{ 1, DCM_RS485_CONFIG, 0 },
			{ 1, DCM_RS485_CONFIG | 0x80, 1 },
			{ 1, DCM_RS485_REG_READ, 3 },
			{ 1, DCM_RS485_REG_READ | 0x80, 67 },
			{ 1, DCM_RS485_REG_WRITE, 66 },
			{ 1, DCM_RS485_REG_WRITE | 0x80, 2 },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), bad[i].addr,
								      bad[i].cmd, pl, bad[i].len));
			n = raw_frame(buf, bad[i].addr, bad[i].cmd, pl, bad[i].len);
			assert_int_equal(-EINVAL, dcm_rs485_parse_frame(buf, n, &f));
		}
	}
	/* Unknown commands are not sent... */
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 3, 0x00, NULL, 0));
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 3, 0x09, NULL, 0));
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 3, 0x80, NULL, 0));
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 3, 5, NULL, 3));
	/* ... nor accepted. */
	n = dcm_rs485_put_frame(buf, sizeof(buf), 3, DCM_RS485_IDENT, NULL, 0);
	buf[2] = 0x7f;
	assert_int_equal(-EINVAL, dcm_rs485_parse_frame(buf, n, &f));
	/* Wrong start byte, LEN above the limit, CRC. */
	n = dcm_rs485_put_frame(buf, sizeof(buf), 3, DCM_RS485_IDENT, NULL, 0);
	buf[0] = 0x5a;
	assert_int_equal(-EINVAL, dcm_rs485_parse_frame(buf, n, &f));
	buf[0] = 0xa5;
	buf[3] = DCM_RS485_MAX_PAYLOAD + 1;
	assert_int_equal(-EINVAL, dcm_rs485_parse_frame(buf, sizeof(buf), &f));
	buf[3] = 0;
	buf[5] ^= 1;
	assert_int_equal(-EBADMSG, dcm_rs485_parse_frame(buf, n, &f));
	assert_int_equal(-EMSGSIZE, dcm_rs485_parse_frame(buf, 0, &f));
	assert_int_equal(-EMSGSIZE, dcm_rs485_parse_frame(buf, 3, &f));
	assert_int_equal(-EINVAL, dcm_rs485_parse_frame((const u8 *)"x", 1, &f));
}

static const u16 pos_values[] = { 0, 1, 0x7fff, 0x8000, 0xfffe, 0xffff };
static const s16 hard_values[] = { 0, 1, -1, 1000, -1000, 500 };

static void make_mb_cmd(struct dcm_mb_cmd *c, u32 i)
{
	c->position[0] = pos_values[i % 6];
	c->position[1] = pos_values[(i + 3) % 6];
	c->hardness[0] = hard_values[i % 6];
	c->hardness[1] = hard_values[(i + 1) % 6];
}

static void test_cmd_round_trip(void **state)
{
	struct dcm_rs485_slot slots[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_cmd_frame c;
	struct dcm_mb_cmd mc, back;
	u8 buf[DCM_RS485_MAX_FRAME], zeros[DCM_RS485_MAX_PAYLOAD] = { 0 };
	u32 n, i, rot;
	int len;

	(void)state;
	for (rot = 0; rot < 6; rot++) {
		for (n = 1; n <= DCM_RS485_MAX_BOARDS; n++) {
			for (i = 0; i < n; i++) {
				make_mb_cmd(&mc, i + rot);
				dcm_mb_put_cmd(&slots[i], &mc);
			}
			len = dcm_rs485_put_cmd(buf, sizeof(buf), (u8)(n * 17 + rot), slots, n);
			assert_int_equal(dcm_rs485_cmd_len(n), len);
			assert_int_equal(6 + 2 + 8 * n, len);
			assert_int_equal(0xff, buf[1]);
			memset(&c, 0xcc, sizeof(c));
			assert_int_equal(len, dcm_rs485_parse_cmd(buf, len, &c));
			assert_int_equal(n, c.n);
			assert_int_equal((u8)(n * 17 + rot), c.seq);
			assert_int_equal(0, c.flags);
			for (i = 0; i < n; i++) {
				make_mb_cmd(&mc, i + rot);
				dcm_mb_get_cmd(&c.slot[i], &back);
				assert_memory_equal(&mc, &back, sizeof(mc));
			}
		}
	}
	assert_int_equal(-EINVAL, dcm_rs485_put_cmd(buf, sizeof(buf), 0, slots, 0));
	assert_int_equal(-EINVAL, dcm_rs485_put_cmd(buf, sizeof(buf), 0, slots, 17));
	assert_int_equal(-EMSGSIZE, dcm_rs485_put_cmd(buf, 6 + 2 + 8 * 3 - 1, 0, slots, 3));
	/* A cycle frame must be a broadcast of whole slots. */
	len = raw_frame(buf, 0xff, DCM_RS485_CYCLE, zeros, 2 + 7);
	assert_int_equal(-EINVAL, dcm_rs485_parse_cmd(buf, len, &c));
	len = raw_frame(buf, 0xff, DCM_RS485_CYCLE, zeros, 2 + 8 + 7);
	assert_int_equal(-EMSGSIZE, dcm_rs485_parse_cmd(buf, len, &c));
	len = raw_frame(buf, 1, DCM_RS485_CYCLE, zeros, 10);
	assert_int_equal(-EINVAL, dcm_rs485_parse_cmd(buf, len, &c));
	len = raw_frame(buf, 0xff, DCM_RS485_CYCLE, zeros, 2 + 8 * 17);
	assert_int_equal(-EINVAL, dcm_rs485_parse_cmd(buf, len, &c));
	/* Other frames are not cycle commands. */
	len = dcm_rs485_put_frame(buf, sizeof(buf), 0xff, DCM_RS485_CHAIN_RESET, NULL, 0);
	assert_int_equal(-EINVAL, dcm_rs485_parse_cmd(buf, len, &c));
}

static void test_mb_slot_fields(void **state)
{
	struct dcm_rs485_slot s;
	struct dcm_mb_cmd c = { { 0, 0xffff }, { -1000, 1000 } }, back;

	(void)state;
	dcm_mb_put_cmd(&s, &c);
	/* Little-endian, position 1, position 2, hardness 1, hardness 2. */
	assert_int_equal(0x00, s.b[0]);
	assert_int_equal(0x00, s.b[1]);
	assert_int_equal(0xff, s.b[2]);
	assert_int_equal(0xff, s.b[3]);
	assert_int_equal(0x18, s.b[4]);	/* -1000 = 0xfc18 */
	assert_int_equal(0xfc, s.b[5]);
	assert_int_equal(0xe8, s.b[6]);	/* 1000 = 0x03e8 */
	assert_int_equal(0x03, s.b[7]);
	dcm_mb_get_cmd(&s, &back);
	assert_memory_equal(&c, &back, sizeof(c));

	/* Hardness beyond +-100% is clamped on both sides. */
	c.hardness[0] = 32767;
	c.hardness[1] = -32768;
	dcm_mb_put_cmd(&s, &c);
	dcm_mb_get_cmd(&s, &back);
	assert_int_equal(1000, back.hardness[0]);
	assert_int_equal(-1000, back.hardness[1]);
	s.b[4] = 0xff;
	s.b[5] = 0x7f;
	s.b[6] = 0x00;
	s.b[7] = 0x80;
	dcm_mb_get_cmd(&s, &back);
	assert_int_equal(1000, back.hardness[0]);
	assert_int_equal(-1000, back.hardness[1]);

	/* Angles wrap: -1 rad count is 65535, a full turn is 0. */
	assert_int_equal(0xffff, dcm_mb_position(-1));
	assert_int_equal(0, dcm_mb_position(65536));
	assert_int_equal(0x8000, dcm_mb_position(-32768));
	assert_int_equal(0x7fff, dcm_mb_position(32767));
	assert_int_equal(0xab54, dcm_mb_position(-21676));	/* HeadYaw -2.0857 */

	/* MRE angles relative to jointZeroPosition, in -2048..2047. */
	assert_int_equal(0, dcm_mb_mre_angle(1000, 1000));
	assert_int_equal(1, dcm_mb_mre_angle(1001, 1000));
	assert_int_equal(-1, dcm_mb_mre_angle(999, 1000));
	assert_int_equal(-1, dcm_mb_mre_angle(4095, 0));
	assert_int_equal(1, dcm_mb_mre_angle(0, 4095));
	assert_int_equal(-2048, dcm_mb_mre_angle(2048, 0));
	assert_int_equal(2047, dcm_mb_mre_angle(2047, 0));
	assert_int_equal(2047, dcm_mb_mre_angle(1023, 3072));
}

static void test_reply_round_trip(void **state)
{
	static const s16 angles[] = { -2048, 2047, 0, -1, 1000 };
	static const u16 currents[] = { 0, 1, 1200, 2000, 65535 };
	static const s8 temps[] = { -128, 127, 0, 50, 85 };
	struct dcm_mb_status st, back;
	struct dcm_rs485_reply r, rb;
	struct dcm_rs485_frame f;
	u8 buf[64], pre[2 + DCM_RS485_REPLY_FRAME];
	u32 bid, i;
	int len;

	(void)state;
	memset(&st, 0, sizeof(st));
	memset(&back, 0, sizeof(back));
	for (bid = 1; bid <= DCM_RS485_MAX_BOARDS; bid++) {
		for (i = 0; i < 5; i++) {
			st.error = (u8)(bid * 37 + i);
			st.temp_status[0] = i % 4;
			st.temp_status[1] = 3 - i % 4;
			st.angle[0] = angles[i];
			st.angle[1] = angles[4 - i];
			st.current_ma[0] = currents[i];
			st.current_ma[1] = currents[4 - i];
			st.temperature[0] = temps[i];
			st.temperature[1] = temps[4 - i];
			r.bid = bid;
			r.seq = (u8)(i * 60);
			r.flags = (u8)(i * 7) & DCM_RS485_RF_MASK;
			dcm_mb_put_status(r.data, &st);
			len = dcm_rs485_put_reply(buf, sizeof(buf), &r);
			assert_int_equal(DCM_RS485_REPLY_FRAME, len);
			assert_int_equal(15, len);
			/* FLAGS: the tag, then the state bits; DATA as given */
			assert_int_equal((bid & 7) << 5 | r.flags, buf[0]);
			assert_memory_equal(r.data, buf + 1, 12);
			/* The CRC: CRC-16/CCITT-FALSE of Bid, SEQ, FLAGS, DATA */
			pre[0] = bid;
			pre[1] = r.seq;
			memcpy(pre + 2, buf, 13);
			assert_int_equal(ref_crc16(pre, 15), buf[13] << 8 | buf[14]);
			memset(&rb, 0, sizeof(rb));
			assert_int_equal(len, dcm_rs485_parse_reply(buf, len, bid, r.seq, &rb));
			assert_memory_equal(&r, &rb, sizeof(r));
			dcm_mb_get_status(rb.data, &back);
			assert_memory_equal(&st, &back, sizeof(st));
			/* Another cycle's, another board's: refused. */
			assert_int_equal(-EBADMSG,
					 dcm_rs485_parse_reply(buf, len, bid, r.seq + 1, &rb));
			assert_int_equal(-EBADMSG,
					 dcm_rs485_parse_reply(buf, len, bid > 8 ? bid - 8 : bid + 8,
							       r.seq, &rb));
			assert_int_equal(-EINVAL, dcm_rs485_parse_reply(buf, len, bid % 16 + 1,
									r.seq, &rb));
		}
	}
	/* Reserved flag bits are not sent; a tag is checked. */
	r.bid = 2;
	r.seq = 9;
	r.flags = 0xff;
	len = dcm_rs485_put_reply(buf, sizeof(buf), &r);
	assert_int_equal(0x40 | DCM_RS485_RF_MASK, buf[0]);
	assert_int_equal(len, dcm_rs485_parse_reply(buf, len, 2, 9, &rb));
	assert_int_equal(DCM_RS485_RF_MASK, rb.flags);
	/* Temperature status above 3 goes out as 3. */
	st.temp_status[0] = 9;
	st.temp_status[1] = 200;
	dcm_mb_put_status(r.data, &st);
	assert_int_equal(0x0f, r.data[1]);
	/* Bad Bids, short buffers. */
	r.bid = 0;
	assert_int_equal(-EINVAL, dcm_rs485_put_reply(buf, sizeof(buf), &r));
	r.bid = 17;
	assert_int_equal(-EINVAL, dcm_rs485_put_reply(buf, sizeof(buf), &r));
	r.bid = 16;
	assert_int_equal(-EMSGSIZE, dcm_rs485_put_reply(buf, 14, &r));
	assert_int_equal(15, dcm_rs485_put_reply(buf, 15, &r));
	assert_int_equal(-EMSGSIZE, dcm_rs485_parse_reply(buf, 14, 16, 9, &rb));
	assert_int_equal(-EINVAL, dcm_rs485_parse_reply(buf, 15, 0, 9, &rb));
	assert_int_equal(-EINVAL, dcm_rs485_parse_reply(buf, 15, 17, 9, &rb));
	/* A cyclic reply is no frame: none is built, none received. */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 2, 0x81, buf, 14));
	assert_int_equal(-EINVAL, dcm_rs485_put_frame(buf, sizeof(buf), 2, 0x81, buf, 13));
	len = raw_frame(buf, 2, 0x81, buf + 32, 14);
	assert_int_equal(-EINVAL, dcm_rs485_parse_frame(buf, len, &f));
}

/* Every bit of a reply is covered: one flipped bit is never taken. */
static void test_reply_bit_flips(void **state)
{
	struct dcm_rs485_reply r = { .bid = 5, .seq = 77, .flags = 0x15 }, rb;
	u8 buf[DCM_RS485_REPLY_FRAME], bad[DCM_RS485_REPLY_FRAME];
	u32 bit, b2, i;
	int ret;

	(void)state;
	for (i = 0; i < DCM_RS485_DATA_LEN; i++)
		r.data[i] = (u8)(0x31 * i);
	dcm_rs485_put_reply(buf, sizeof(buf), &r);
	for (bit = 0; bit < 8 * sizeof(buf); bit++) {
		memcpy(bad, buf, sizeof(buf));
		bad[bit / 8] ^= 1 << (bit % 8);
		ret = dcm_rs485_parse_reply(bad, sizeof(bad), 5, 77, &rb);
		assert_true(ret == -EBADMSG || (bit >= 5 && bit < 8 && ret == -EINVAL));
		/* Two bits: CRC-16 catches every burst up to 16 bits long. */
		for (b2 = bit + 1; b2 < 8 * sizeof(buf) && b2 < bit + 16; b2++) {
			bad[b2 / 8] ^= 1 << (b2 % 8);
			assert_true(dcm_rs485_parse_reply(bad, sizeof(bad), 5, 77, &rb) < 0);
			bad[b2 / 8] ^= 1 << (b2 % 8);
		}
	}
	/* The Bid and the SEQ are in the CRC though not sent. */
	for (i = 0; i < 256; i++) {
		if (i != 77)
			assert_int_equal(-EBADMSG, dcm_rs485_parse_reply(buf, sizeof(buf), 5, i, &rb));
		if (i != 5 && dcm_rs485_bid_ok(i) && (i & 7) == 5)
			assert_int_equal(-EBADMSG, dcm_rs485_parse_reply(buf, sizeof(buf), i, 77, &rb));
	}
}

/* Bid @bid's reply to @seq, with data the Bid and SEQ make. */
static void cyc_reply(u8 *buf, u8 bid, u8 seq)
{
	struct dcm_rs485_reply r = { .bid = bid, .seq = seq, .flags = bid & 0x1f };
	u32 i;

	for (i = 0; i < DCM_RS485_DATA_LEN; i++)
		r.data[i] = (u8)(bid * 16 + i + seq);
	assert_int_equal(DCM_RS485_REPLY_FRAME, dcm_rs485_put_reply(buf, DCM_RS485_REPLY_FRAME, &r));
}

/* Read a cycle's replies; a bitmap of the Bids found, each checked. */
static u32 read_replies(const u8 *buf, size_t len, u8 seq, u32 n, struct dcm_rs485_replies *s)
{
	u32 got = 0, i;

	dcm_rs485_replies_init(s, buf, len, seq, n);
	while (dcm_rs485_replies_next(s)) {
		assert_true(s->reply.bid >= 1 && s->reply.bid <= n);
		assert_false(got & BIT(s->reply.bid - 1));
		got |= BIT(s->reply.bid - 1);
		assert_int_equal(seq, s->reply.seq);
		assert_int_equal(s->reply.bid & 0x1f, s->reply.flags);
		for (i = 0; i < DCM_RS485_DATA_LEN; i++)
			assert_int_equal((u8)(s->reply.bid * 16 + i + seq), s->reply.data[i]);
	}
	assert_int_equal(len, s->off);
	return got;
}

static void test_replies(void **state)
{
	struct dcm_rs485_replies s;
	u8 buf[DCM_RS485_MAX_BOARDS * DCM_RS485_REPLY_FRAME + 64], cut[sizeof(buf)];
	u32 n, silent, mask, k, len, pos, i, lost = 0, tries = 0;

	(void)state;
	for (n = 1; n <= DCM_RS485_MAX_BOARDS; n++) {
		/* All there, back to back. */
		for (k = 0; k < n; k++)
			cyc_reply(buf + k * 15, k + 1, (u8)n);
		assert_int_equal(BIT(n) - 1, read_replies(buf, n * 15, (u8)n, n, &s));
		assert_int_equal(n, s.replies);
		assert_int_equal(0, s.bad + s.dropped);
		/* The same bytes are no reply to another cycle. */
		assert_int_equal(0, read_replies(buf, n * 15, (u8)(n + 1), n, &s));
		assert_int_equal(n * 15, s.dropped);
	}
	/* Silent boards leave no gap in the bytes: each found by its CRC. */
	n = 5;
	for (silent = 0; silent < BIT(n); silent++) {
		len = 0;
		for (k = 1; k <= n; k++)
			if (!(silent & BIT(k - 1))) {
				cyc_reply(buf + len, k, 200);
				len += 15;
			}
		assert_int_equal(~silent & (BIT(n) - 1), read_replies(buf, len, 200, n, &s));
		assert_int_equal(0, s.bad);
	}
	/* 16 boards, tags alike for Bid b and b + 8: the CRC tells them apart. */
	n = 16;
	for (silent = 0; silent < 300; silent++) {
		mask = (silent * 2654435761u) & 0xffff;
		len = 0;
		for (k = 1; k <= n; k++)
			if (mask & BIT(k - 1)) {
				cyc_reply(buf + len, k, 3);
				len += 15;
			}
		assert_int_equal(mask, read_replies(buf, len, 3, n, &s));
	}
	/* One reply corrupted, in each place, with each bit: the others all come. */
	n = 5;
	for (pos = 0; pos < n; pos++) {
		for (i = 0; i < 15 * 8; i++) {
			for (k = 0; k < n; k++)
				cyc_reply(buf + k * 15, k + 1, 1);
			buf[pos * 15 + i / 8] ^= 1 << (i % 8);
			assert_int_equal((BIT(n) - 1) & ~BIT(pos), read_replies(buf, n * 15, 1, n,
										 &s));
			assert_int_equal(1, s.bad);
			assert_int_equal(15, s.dropped);
		}
	}
	/*
	 * A byte added or lost at any place (a glitch at a turnaround, a
	 * framing error): every reply it does not touch is found again.
	 */
	n = 5;
	for (k = 0; k < n; k++)
		cyc_reply(buf + k * 15, k + 1, 2);
	for (pos = 0; pos <= n * 15; pos++) {
		/* a byte added at pos */
		memcpy(cut, buf, pos);
		cut[pos] = (u8)(pos * 7);
		memcpy(cut + pos + 1, buf + pos, n * 15 - pos);
		mask = read_replies(cut, n * 15 + 1, 2, n, &s);
		for (k = 0; k < n; k++)
			if (pos <= k * 15 || pos >= k * 15 + 15)
				assert_true(mask & BIT(k));
		assert_int_equal(1, s.bad);
		/* a byte lost at pos */
		if (pos == n * 15)
			continue;
		memcpy(cut, buf, pos);
		memcpy(cut + pos, buf + pos + 1, n * 15 - pos - 1);
		mask = read_replies(cut, n * 15 - 1, 2, n, &s);
		assert_int_equal((BIT(n) - 1) & ~BIT(pos / 15), mask);
		assert_int_equal(1, s.bad);
		assert_int_equal(14, s.dropped);
	}
	/* Replies out of Bid order are not taken: boards answer in order. */
	cyc_reply(buf, 3, 4);
	cyc_reply(buf + 15, 2, 4);
	assert_int_equal(BIT(2), read_replies(buf, 30, 4, 5, &s));
	/* A Bid beyond the broadcast's boards is not taken. */
	cyc_reply(buf, 6, 4);
	assert_int_equal(0, read_replies(buf, 15, 4, 5, &s));
	/* Nothing; less than a reply. */
	assert_int_equal(0, read_replies(buf, 0, 4, 5, &s));
	assert_int_equal(0, s.bad);
	assert_int_equal(0, read_replies(buf, 14, 4, 5, &s));
	assert_int_equal(1, s.bad);
	assert_int_equal(14, s.dropped);
	/*
	 * Noise: random bytes, or random bytes among good replies, are never
	 * taken for a reply but at the CRC's odds (read_replies() checks
	 * what it takes).
	 */
	rng_seed(99);
	for (i = 0; i < 20000; i++) {
		len = rng() % sizeof(buf);
		rng_fill(buf, len);
		n = 1 + rng() % 16;
		for (k = 0; k < 3 && len >= 15; k++) {
			pos = rng() % (len - 14);
			cyc_reply(buf + pos, 1 + rng() % n, 9);
		}
		dcm_rs485_replies_init(&s, buf, len, 9, n);
		while (dcm_rs485_replies_next(&s))
			tries++;
		lost += s.dropped;
		assert_int_equal(len, s.off);
	}
	assert_true(lost > 0 && tries > 0);
}

/* Feed @n bytes; collect the frames the receiver completes. */
static u32 feed(struct dcm_rs485_rx *rx, const u8 *p, size_t n, struct dcm_rs485_frame *out,
		u32 max)
{
	u32 k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!dcm_rs485_rx_byte(rx, p[i]))
			continue;
		do {
			assert_true(k < max);
			out[k++] = rx->frame;
		} while (dcm_rs485_rx_next(rx));
	}
	return k;
}

static u32 idle(struct dcm_rs485_rx *rx, struct dcm_rs485_frame *out, u32 max)
{
	u32 k = 0;

	while (dcm_rs485_rx_idle(rx)) {
		assert_true(k < max);
		out[k++] = rx->frame;
	}
	assert_int_equal(0, rx->n);
	return k;
}

/*
 * The receiver's test frame: a 20-byte IDENT reply from @bid, its payload
 * @seq then bytes the Bid makes.
 */
static int make_reply(u8 *buf, u8 bid, u8 seq)
{
	u8 pl[DCM_RS485_IDENT_LEN];
	u32 i;

	pl[0] = seq;
	for (i = 1; i < sizeof(pl); i++)
		pl[i] = (u8)(bid * 16 + i);
	return dcm_rs485_put_frame(buf, DCM_RS485_MAX_FRAME, bid,
				   DCM_RS485_IDENT | DCM_RS485_REPLY, pl, sizeof(pl));
}

static void expect_reply(const struct dcm_rs485_frame *f, u8 bid, u8 seq)
{
	u32 i;

	assert_int_equal(DCM_RS485_IDENT | DCM_RS485_REPLY, f->cmd);
	assert_int_equal(bid, f->addr);
	assert_int_equal(DCM_RS485_IDENT_LEN, f->len);
	assert_int_equal(seq, f->payload[0]);
	for (i = 1; i < DCM_RS485_IDENT_LEN; i++)
		assert_int_equal((u8)(bid * 16 + i), f->payload[i]);
}

static void test_rx_simple(void **state)
{
	struct dcm_rs485_frame got[32];
	struct dcm_rs485_rx rx;
	u8 buf[512];
	int n = 0, b;

	(void)state;
	dcm_rs485_rx_init(&rx);
	/* One frame: complete on its last byte, not before. */
	n = make_reply(buf, 1, 7);
	for (b = 0; b < n - 1; b++)
		assert_false(dcm_rs485_rx_byte(&rx, buf[b]));
	assert_true(dcm_rs485_rx_byte(&rx, buf[n - 1]));
	assert_false(dcm_rs485_rx_next(&rx));
	expect_reply(&rx.frame, 1, 7);
	assert_int_equal(1, rx.frames);
	assert_int_equal(0, rx.dropped);

	/* Six replies back to back, one bus's cycle. */
	n = 0;
	for (b = 1; b <= 6; b++)
		n += make_reply(buf + n, b, 42);
	assert_int_equal(6, feed(&rx, buf, n, got, 32));
	for (b = 1; b <= 6; b++)
		expect_reply(&got[b - 1], b, 42);
	assert_int_equal(7, rx.frames);
	assert_int_equal(0, rx.crc_errors + rx.hdr_errors + rx.truncated + rx.dropped);
	assert_int_equal(0, idle(&rx, got, 32));
}

static void test_rx_garbage(void **state)
{
	/* Start bytes, one a plausible header: a cycle of 6 slots, 56 bytes */
	static const u8 junk[] = { 0x00, 0xa5, 0xa5, 0x13, 0xa5, 0xff, 0x01, 0x32, 0x77, 0xa5 };
	struct dcm_rs485_frame got[8];
	struct dcm_rs485_rx rx;
	u8 buf[512];
	int n, i;

	(void)state;
	/* Plain garbage, no start byte, then a frame. */
	dcm_rs485_rx_init(&rx);
	memset(buf, 0x5a, 40);
	n = 40 + make_reply(buf + 40, 3, 1);
	assert_int_equal(1, feed(&rx, buf, n, got, 8));
	expect_reply(&got[0], 3, 1);
	assert_int_equal(40, rx.dropped);

	/* Garbage with false starts: the fake header swallows the frame; it
	 * is found again once the line goes idle.
	 */
	dcm_rs485_rx_init(&rx);
	memcpy(buf, junk, sizeof(junk));
	n = sizeof(junk) + make_reply(buf + sizeof(junk), 4, 2);
	assert_int_equal(0, feed(&rx, buf, n, got, 8));
	assert_int_equal(1, idle(&rx, got, 8));
	expect_reply(&got[0], 4, 2);
	assert_true(rx.truncated >= 1);

	/* The same, with the next cycle's bytes coming instead of silence:
	 * the fake frame fails its CRC and the frame behind it still counts.
	 */
	dcm_rs485_rx_init(&rx);
	n = sizeof(junk);
	for (i = 1; i <= 4; i++)
		n += make_reply(buf + n, i, 3);
	assert_int_equal(4, feed(&rx, buf, n, got, 8));
	for (i = 1; i <= 4; i++)
		expect_reply(&got[i - 1], i, 3);
	assert_int_equal(1, rx.crc_errors);
	assert_int_equal(3, rx.hdr_errors);

	/* Random garbage of every length before a frame. */
	rng_seed(7);
	for (i = 0; i < 300; i++) {
		dcm_rs485_rx_init(&rx);
		rng_fill(buf, i);
		n = i + make_reply(buf + i, 5, (u8)i);
		/* Whatever the junk, the frame is the last one out. */
		n = feed(&rx, buf, n, got, 8);
		n += idle(&rx, got + n, 8 - n);
		assert_true(n >= 1);
		expect_reply(&got[n - 1], 5, (u8)i);
	}
}

static void test_rx_truncated(void **state)
{
	struct dcm_rs485_frame got[8];
	struct dcm_rs485_rx rx;
	u8 buf[128];
	int n, cut;

	(void)state;
	for (cut = 1; cut < 20; cut++) {
		/* A frame cut short, then a whole one: the whole one arrives. */
		dcm_rs485_rx_init(&rx);
		make_reply(buf, 1, 9);
		n = cut + make_reply(buf + cut, 2, 9);
		assert_int_equal(1, feed(&rx, buf, n, got, 8));
		expect_reply(&got[0], 2, 9);
		assert_int_equal(0, idle(&rx, got, 8));
		assert_int_equal(1, rx.frames);
		/* A frame cut short as the line goes idle: nothing, counted. */
		dcm_rs485_rx_init(&rx);
		assert_int_equal(0, feed(&rx, buf, cut, got, 8));
		assert_int_equal(0, idle(&rx, got, 8));
		assert_int_equal(0, rx.frames);
		assert_int_equal(1, rx.truncated);
		assert_int_equal(cut, rx.dropped);
	}
	/* rx_reset() forgets a partial frame. */
	dcm_rs485_rx_init(&rx);
	make_reply(buf, 1, 9);
	feed(&rx, buf, 10, got, 8);
	dcm_rs485_rx_reset(&rx);
	assert_int_equal(0, rx.n);
	assert_int_equal(10, rx.dropped);
	n = make_reply(buf, 3, 9);
	assert_int_equal(1, feed(&rx, buf, n, got, 8));
}

static void test_rx_bit_flips(void **state)
{
	struct dcm_rs485_frame got[8];
	struct dcm_rs485_rx rx;
	u8 buf[128], bad[128];
	int n, m, bit;

	(void)state;
	n = make_reply(buf, 6, 200);
	for (bit = 0; bit < n * 8; bit++) {
		memcpy(bad, buf, n);
		bad[bit / 8] ^= 1 << (bit % 8);
		dcm_rs485_rx_init(&rx);
		/* Not accepted, whether or not the line goes idle after it. */
		assert_int_equal(0, feed(&rx, bad, n, got, 8));
		if (bit >= 32) {	/* payload or CRC: a CRC error, counted */
			assert_int_equal(1, rx.crc_errors);
		}
		assert_int_equal(0, idle(&rx, got, 8));
		assert_int_equal(0, rx.frames);
		assert_int_equal(n, rx.dropped);
		assert_true(rx.crc_errors + rx.hdr_errors + rx.truncated >= 1 || bit < 8);
		/* The same flip followed by the good frame: only the good one. */
		dcm_rs485_rx_init(&rx);
		memcpy(bad + n, buf, n);
		m = feed(&rx, bad, 2 * n, got, 8) + idle(&rx, got + 1, 7);
		assert_int_equal(1, m);
		assert_int_equal(1, rx.frames);
		expect_reply(&got[0], 6, 200);
	}
}

static void test_rx_stream(void **state)
{
	static u8 stream[200000];
	static u8 seqs[20000];
	struct dcm_rs485_frame got[16];
	struct dcm_rs485_rx rx;
	u32 n = 0, inserted = 0, matched = 0, k, i;
	int len;

	(void)state;
	rng_seed(12345);
	/* Valid replies with random junk (start bytes included) between. */
	while (n < sizeof(stream) - 128) {
		u32 junk = rng() % 8 ? 0 : rng() % 40;

		for (i = 0; i < junk; i++)
			stream[n++] = rng() % 4 ? (u8)rng() : DCM_RS485_START;
		seqs[inserted] = (u8)inserted;
		len = make_reply(stream + n, 1 + inserted % 16, seqs[inserted]);
		n += len;
		inserted++;
	}
	dcm_rs485_rx_init(&rx);
	for (i = 0; i < n; i++) {
		if (!dcm_rs485_rx_byte(&rx, stream[i]))
			continue;
		do {
			if (matched < inserted &&
			    rx.frame.cmd == 0x86 && rx.frame.addr == 1 + matched % 16 &&
			    rx.frame.payload[0] == seqs[matched])
				matched++;
		} while (dcm_rs485_rx_next(&rx));
	}
	k = idle(&rx, got, 16);
	for (i = 0; i < k; i++)
		if (matched < inserted && got[i].payload[0] == seqs[matched])
			matched++;
	assert_int_equal(inserted, matched);
	assert_true(rx.frames >= inserted);
}

static struct dcm_mb_config sample_config(void)
{
	struct dcm_mb_config c = {
		.struct_version = 1, .bid = 3,
		.motor = {
			{ .motor_number = 1, .invert = false, .sensor_type = 2,
			  .chain_mre_joint = 1, .chain_mre_motor = 2,
			  .kp = 48, .ki = 0, .kd = 24, .gear_ratio = 13192397, .zero = 2048,
			  .current_max = 2000 },
			{ .motor_number = 2, .invert = true, .sensor_type = 1,
			  .chain_mre_joint = 3, .chain_mre_motor = 0,
			  .kp = -32768, .ki = 32767, .kd = -1, .gear_ratio = 0xffffffff,
			  .zero = 4095, .current_max = 65535 },
		},
	};

	return c;
}

static void motor_config_equal(const struct dcm_mb_motor_config *a,
			       const struct dcm_mb_motor_config *b)
{
	assert_int_equal(a->motor_number, b->motor_number);
	assert_int_equal(a->invert, b->invert);
	assert_int_equal(a->sensor_type, b->sensor_type);
	assert_int_equal(a->chain_mre_joint, b->chain_mre_joint);
	assert_int_equal(a->chain_mre_motor, b->chain_mre_motor);
	assert_int_equal(a->kp, b->kp);
	assert_int_equal(a->ki, b->ki);
	assert_int_equal(a->kd, b->kd);
	assert_int_equal(a->gear_ratio, b->gear_ratio);
	assert_int_equal(a->zero, b->zero);
	assert_int_equal(a->current_max, b->current_max);
}

static void ident_equal(const struct dcm_rs485_ident *a, const struct dcm_rs485_ident *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->struct_version, b->struct_version);
	assert_int_equal(a->board_id, b->board_id);
	assert_int_equal(a->board_id2, b->board_id2);
	assert_int_equal(a->bootloader_version, b->bootloader_version);
	assert_int_equal(a->prog_version, b->prog_version);
}

static void test_config(void **state)
{
	struct dcm_mb_config c = sample_config(), back;
	struct dcm_rs485_frame f;
	u8 buf[128], st;
	int len;
	u32 q;

	(void)state;
	assert_int_equal(DCM_MB_CONFIG_OK, dcm_mb_config_check(&c));
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_int_equal(6 + DCM_MB_CONFIG_LEN, len);
	assert_int_equal(3, buf[1]);
	assert_int_equal(DCM_RS485_CONFIG, buf[2]);
	assert_int_equal(44, buf[3]);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	memset(&back, 0xee, sizeof(back));
	assert_int_equal(0, dcm_rs485_get_config(&f, &back));
	assert_int_equal(c.struct_version, back.struct_version);
	assert_int_equal(c.bid, back.bid);
	motor_config_equal(&c.motor[0], &back.motor[0]);
	motor_config_equal(&c.motor[1], &back.motor[1]);
	/* Byte positions of motor 2's block. */
	assert_int_equal(2, f.payload[24]);	/* MotorNumber */
	assert_int_equal(1, f.payload[25]);	/* InvertControlDirection */
	assert_int_equal(0xff, f.payload[24 + 16]);	/* zero, LE */
	assert_int_equal(0x0f, f.payload[24 + 17]);

	/* A board with one motor: block 2 all zero. */
	memset(&c.motor[1], 0, sizeof(c.motor[1]));
	assert_int_equal(DCM_MB_CONFIG_OK, dcm_mb_config_check(&c));
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_true(len > 0);

	/* What the check refuses. */
#define REFUSE(expr, status) do { \
		c = sample_config(); expr; \
		assert_int_equal(status, dcm_mb_config_check(&c)); \
		assert_int_equal(-EINVAL, dcm_rs485_put_config(buf, sizeof(buf), &c)); \
	} while (0)
	REFUSE(c.struct_version = 2, DCM_MB_CONFIG_BAD_VERSION);
	REFUSE(c.bid = 0, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.bid = 17, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].motor_number = 2, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[1].motor_number = 3, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].sensor_type = 3, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].sensor_type = 0, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].chain_mre_joint = 5, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].chain_mre_joint = 0, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].chain_mre_motor = 0, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[0].chain_mre_motor = 1, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[1].chain_mre_motor = 4, DCM_MB_CONFIG_BAD_VALUE);
	REFUSE(c.motor[1].zero = 4096, DCM_MB_CONFIG_BAD_VALUE);
#undef REFUSE

	/* On the board side: another version, reserved bytes, length. */
	c = sample_config();
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	dcm_rs485_parse_frame(buf, len, &f);
	f.payload[0] = 2;
	assert_int_equal(-EPROTO, dcm_rs485_get_config(&f, &back));
	f.payload[0] = 1;
	f.payload[2] = 1;
	assert_int_equal(-EINVAL, dcm_rs485_get_config(&f, &back));
	f.payload[2] = 0;
	f.payload[4 + 1] = 2;	/* flags bit 1 */
	assert_int_equal(-EINVAL, dcm_rs485_get_config(&f, &back));
	f.payload[4 + 1] = 0;
	f.payload[4 + 16] = 0x00;	/* zero 4096 */
	f.payload[4 + 17] = 0x10;
	assert_int_equal(-EINVAL, dcm_rs485_get_config(&f, &back));
	f.payload[4 + 17] = 0x08;
	assert_int_equal(0, dcm_rs485_get_config(&f, &back));
	f.len = 43;
	assert_int_equal(-EMSGSIZE, dcm_rs485_get_config(&f, &back));
	f.len = 0;
	assert_int_equal(-EMSGSIZE, dcm_rs485_get_config(&f, &back));
	f.len = 44;
	f.cmd = DCM_RS485_CONFIG | DCM_RS485_REPLY;
	assert_int_equal(-EINVAL, dcm_rs485_get_config(&f, &back));

	/* The ack. */
	len = dcm_rs485_put_config_ack(buf, sizeof(buf), 3, DCM_MB_CONFIG_BAD_BID);
	assert_int_equal(8, len);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	assert_int_equal(0, dcm_rs485_get_config_ack(&f, &st));
	assert_int_equal(DCM_MB_CONFIG_BAD_BID, st);
	assert_int_equal(DCM_MB_STRUCT_VERSION, f.payload[1]);
	assert_int_equal(-EINVAL, dcm_rs485_put_config_ack(buf, sizeof(buf), 0, 0));
	f.len = 1;
	assert_int_equal(-EMSGSIZE, dcm_rs485_get_config_ack(&f, &st));

	/* GearRatio in Q16.16. */
	assert_int_equal(0, dcm_q16_from_micro(201300000, &q));
	assert_int_equal(13192397, q);	/* 201.3 * 65536 = 13192396.8 */
	assert_int_equal(201300003, dcm_q16_to_micro(q));
	assert_int_equal(0, dcm_q16_from_micro(1000000, &q));
	assert_int_equal(65536, q);
	assert_int_equal(0, dcm_q16_from_micro(0, &q));
	assert_int_equal(0, q);
	assert_int_equal(0, dcm_q16_from_micro(65535999992LL, &q));
	assert_int_equal(0xffffffffu, q);
	assert_int_equal(-ERANGE, dcm_q16_from_micro(65536000000LL, &q));
	assert_int_equal(-ERANGE, dcm_q16_from_micro(-1, &q));
	rng_seed(99);
	for (len = 0; len < 10000; len++) {
		s64 m = rng() % 1000000000;

		assert_int_equal(0, dcm_q16_from_micro(m, &q));
		assert_true(llabs(dcm_q16_to_micro(q) - m) <= 8);
	}
}

static void test_ident_chain(void **state)
{
	struct dcm_rs485_ident id = { .type = DCM_BOARD_MOTOR, .struct_version = 1,
				      .board_id = 0xdeadbeef, .board_id2 = 0x01020304,
				      .bootloader_version = 0xffff, .prog_version = 0x0102 };
	struct dcm_rs485_ident back;
	struct dcm_chain_entry e[DCM_RS485_MAX_BOARDS], eb[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_frame f;
	char s[256];
	u8 buf[64], bid;
	u32 board, n;
	int len;

	(void)state;
	/* Query reply from the unassigned board, IDENT reply from a Bid. */
	len = dcm_rs485_put_ident(buf, sizeof(buf), 0, 0x83, &id);
	assert_int_equal(20, len);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	assert_int_equal(0, dcm_rs485_get_ident(&f, &back));
	ident_equal(&id, &back);
	len = dcm_rs485_put_ident(buf, sizeof(buf), 16, 0x86, &id);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	assert_int_equal(0, dcm_rs485_get_ident(&f, &back));
	ident_equal(&id, &back);
	assert_int_equal(-EINVAL, dcm_rs485_put_ident(buf, sizeof(buf), 1, 0x83, &id));
	assert_int_equal(-EINVAL, dcm_rs485_put_ident(buf, sizeof(buf), 0, 0x86, &id));
	assert_int_equal(-EINVAL, dcm_rs485_put_ident(buf, sizeof(buf), 1, 0x06, &id));
	f.payload[0] = 4;
	assert_int_equal(-EINVAL, dcm_rs485_get_ident(&f, &back));
	f.payload[0] = 1;
	f.len = 13;
	assert_int_equal(-EMSGSIZE, dcm_rs485_get_ident(&f, &back));

	/* Assign: request to 0, reply from the new Bid. */
	len = dcm_rs485_put_assign(buf, sizeof(buf), false, 0xdeadbeef, 5);
	assert_int_equal(11, len);
	assert_int_equal(0, buf[1]);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	assert_int_equal(0, dcm_rs485_get_assign(&f, &board, &bid));
	assert_int_equal(0xdeadbeef, board);
	assert_int_equal(5, bid);
	len = dcm_rs485_put_assign(buf, sizeof(buf), true, 42, 16);
	assert_int_equal(16, buf[1]);
	assert_int_equal(0x84, buf[2]);
	assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
	assert_int_equal(0, dcm_rs485_get_assign(&f, &board, &bid));
	assert_int_equal(42, board);
	assert_int_equal(16, bid);
	f.addr = 15;
	assert_int_equal(-EINVAL, dcm_rs485_get_assign(&f, &board, &bid));
	assert_int_equal(-EINVAL, dcm_rs485_put_assign(buf, sizeof(buf), false, 1, 0));
	assert_int_equal(-EINVAL, dcm_rs485_put_assign(buf, sizeof(buf), false, 1, 17));

	/* ChainResult. */
	for (n = 0; n < DCM_RS485_MAX_BOARDS; n++) {
		e[n].bid = n + 1;
		e[n].board_id = n ? 1000 * n + 1 : 0xffffffff;
	}
	assert_int_equal(0, dcm_chain_format(s, sizeof(s), e, 0));
	assert_string_equal("", s);
	len = dcm_chain_format(s, sizeof(s), e, 3);
	assert_string_equal("1:4294967295 2:1001 3:2001", s);
	assert_int_equal(strlen(s), len);
	for (n = 0; n <= DCM_RS485_MAX_BOARDS; n++) {
		u32 k;

		len = dcm_chain_format(s, sizeof(s), e, n);
		assert_true(len >= 0);
		assert_int_equal(0, dcm_chain_parse(s, eb, DCM_RS485_MAX_BOARDS, &k));
		assert_int_equal(n, k);
		for (k = 0; k < n; k++) {
			assert_int_equal(e[k].bid, eb[k].bid);
			assert_int_equal(e[k].board_id, eb[k].board_id);
		}
	}
	assert_int_equal(-EMSGSIZE, dcm_chain_format(s, 10, e, 3));
	assert_int_equal(9, strlen(s));
	assert_int_equal(-EMSGSIZE, dcm_chain_format(s, 0, e, 3));
	assert_int_equal(-EMSGSIZE, dcm_chain_parse("1:1 2:2", eb, 1, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("0:1", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("17:1", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("1:4294967296", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("1:1  2:2", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("1:1 ", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("1:", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse(":1", eb, 4, &n));
	assert_int_equal(-EINVAL, dcm_chain_parse("1-1", eb, 4, &n));
}

static void test_regs(void **state)
{
	struct dcm_rs485_regs r = { .reg = 0x0c, .count = 3, .data = { 1, 2, 3 } }, back;
	struct dcm_rs485_frame f;
	u8 buf[DCM_RS485_MAX_FRAME];
	int len, cmd;

	(void)state;
	for (cmd = 0; cmd < 4; cmd++) {
		u8 c = (cmd & 1 ? DCM_RS485_REG_WRITE : DCM_RS485_REG_READ) |
		       (cmd & 2 ? DCM_RS485_REPLY : 0);

		r.status = c == (DCM_RS485_REG_WRITE | DCM_RS485_REPLY) ? 1 : 0;
		len = dcm_rs485_put_regs(buf, sizeof(buf), 5, c, &r);
		assert_true(len > 0);
		assert_int_equal(len, dcm_rs485_parse_frame(buf, len, &f));
		assert_int_equal(0, dcm_rs485_get_regs(&f, &back));
		assert_int_equal(r.reg, back.reg);
		assert_int_equal(r.count, back.count);
		assert_int_equal(r.status, back.status);
		if (c == DCM_RS485_REG_WRITE || c == (DCM_RS485_REG_READ | DCM_RS485_REPLY))
			assert_memory_equal(r.data, back.data, 3);
	}
	/* The largest transfer fits a frame. */
	r.reg = 0xc0;
	r.count = DCM_RS485_REG_MAX;
	len = dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_REG_READ | DCM_RS485_REPLY, &r);
	assert_int_equal(6 + 2 + 64, len);
	r.count = 65;
	assert_int_equal(-EINVAL, dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_REG_READ, &r));
	r.count = 0;
	assert_int_equal(-EINVAL, dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_REG_READ, &r));
	r.reg = 0xff;
	r.count = 2;	/* past register 0xff */
	assert_int_equal(-EINVAL, dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_REG_READ, &r));
	r.reg = 0;
	assert_int_equal(-EINVAL, dcm_rs485_put_regs(buf, sizeof(buf), 0, DCM_RS485_REG_READ, &r));
	assert_int_equal(-EINVAL, dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_IDENT, &r));
}

static void test_timing(void **state)
{
	(void)state;
	/* A bus of 6 boards at 1 Mbaud: 56-byte command, 6 slots of 19. */
	assert_int_equal(56, dcm_rs485_cmd_len(6));
	assert_int_equal(15, DCM_RS485_REPLY_FRAME);
	assert_int_equal(19, DCM_RS485_REPLY_SLOT);
	assert_int_equal(4, dcm_rs485_reply_start(1));
	assert_int_equal(4 + 5 * 19, dcm_rs485_reply_start(6));
	assert_int_equal(0, dcm_rs485_reply_start(0));
	assert_int_equal(170, dcm_rs485_exchange_chars(6));
	/* Bytes per cycle: 4 boards 40 + 60, 5 boards 48 + 75. */
	assert_int_equal(100, dcm_rs485_cmd_len(4) + 4 * DCM_RS485_REPLY_FRAME);
	assert_int_equal(123, dcm_rs485_cmd_len(5) + 5 * DCM_RS485_REPLY_FRAME);
	assert_int_equal(2000, dcm_rs485_chars_to_us(200, 1000000));
	assert_int_equal(1000, dcm_rs485_chars_to_us(200, 2000000));
	/* 16 boards still fit half a 10 ms cycle. */
	assert_int_equal(440, dcm_rs485_exchange_chars(16));
	assert_true(dcm_rs485_chars_to_us(dcm_rs485_exchange_chars(16), DCM_RS485_BAUD) <= 4400);
	assert_int_equal(0, dcm_rs485_chars_to_us(10, 0));
	assert_int_equal(87, dcm_rs485_chars_to_us(1, 115200));	/* rounded up */
}

/* Random bytes into every decoder: no crash; what decodes re-encodes. */
static void test_fuzz(void **state)
{
	struct dcm_rs485_cmd_frame c;
	struct dcm_rs485_reply r;
	struct dcm_mb_config cfg;
	struct dcm_rs485_ident id;
	struct dcm_rs485_regs regs;
	struct dcm_rs485_frame f;
	struct dcm_rs485_rx rx;
	struct dcm_chain_entry e[4];
	u8 buf[DCM_RS485_MAX_FRAME + 16], out[DCM_RS485_MAX_FRAME], bid, st;
	char s[40];
	u32 it, len, board, n, i, ok[6] = { 0 };
	int k, total;

	(void)state;
	rng_seed(2024);
	dcm_rs485_rx_init(&rx);
	for (it = 0; it < 200000; it++) {
		len = rng() % sizeof(buf);
		rng_fill(buf, len);
		if (it & 1) {
			/* A frame with a good CRC and a random, often plausible, header. */
			static const u8 addrs[] = { 0, 1, 5, 16, 17, 0xff, 0xa5 };
			static const u8 lens[] = { 0, 1, 2, 3, 5, 14, 15, 44, 66, 65, 10, 58, 130 };
			u8 cmd = (u8)(1 + rng() % DCM_RS485_CMD_MAX) |
				 (rng() & 1 ? DCM_RS485_REPLY : 0);
			u8 addr = rng() % 8 ? addrs[rng() % ARRAY_SIZE(addrs)] : (u8)rng();
			u8 plen = rng() % 4 ? lens[rng() % ARRAY_SIZE(lens)] :
				  (u8)(rng() % (DCM_RS485_MAX_PAYLOAD + 1));

			if ((cmd & 0x7f) == DCM_RS485_REG_READ && plen >= 2 && rng() % 2)
				buf[1] = plen - 2;
			if (rng() % 2)
				buf[0] = 1 + rng() % 3;		/* a board type */
			if ((cmd & 0x7f) == DCM_RS485_CHAIN_ASSIGN && rng() % 2) {
				buf[4] = 1 + rng() % 16;
				addr = cmd & 0x80 ? buf[4] : 0;
			}
			if (cmd == DCM_RS485_CONFIG && rng() % 2) {
				/* A good structure with one byte changed. */
				cfg = sample_config();
				cfg.bid = addr >= 1 && addr <= 16 ? addr : 1;
				dcm_rs485_put_config(out, sizeof(out), &cfg);
				memcpy(buf, out + 4, DCM_MB_CONFIG_LEN);
				plen = DCM_MB_CONFIG_LEN;
				if (rng() % 2)
					buf[rng() % plen] ^= 1 << (rng() % 8);
			}
			len = raw_frame(buf, addr, cmd, memcpy(out, buf, plen), plen);
		}
		total = dcm_rs485_parse_frame(buf, len, &f);
		if (total < 0) {
			assert_true(total == -EINVAL || total == -EMSGSIZE || total == -EBADMSG);
		} else {
			if (!dcm_rs485_get_cmd(&f, &c)) {
				ok[0]++;
				k = dcm_rs485_put_cmd(out, sizeof(out), c.seq, c.slot, c.n);
				assert_int_equal(total, k);
				out[5] = f.payload[1];	/* flags: sent as 0 */
				out[k - 2] = buf[k - 2];
				out[k - 1] = buf[k - 1];
				assert_memory_equal(buf, out, k);
			}
			k = dcm_rs485_get_config(&f, &cfg);
			assert_true(k == 0 || k == -EINVAL || k == -EPROTO || k == -EMSGSIZE);
			if (!k) {
				ok[2]++;
				assert_int_equal(total, dcm_rs485_put_config(out, sizeof(out), &cfg));
				if (f.addr == cfg.bid)
					assert_memory_equal(buf, out, total);
			}
			if (!dcm_rs485_get_ident(&f, &id)) {
				ok[3]++;
				k = dcm_rs485_put_ident(out, sizeof(out), f.addr, f.cmd, &id);
				assert_int_equal(total, k);
				assert_memory_equal(buf, out, total);
			}
			if (!dcm_rs485_get_assign(&f, &board, &bid)) {
				ok[4]++;
				k = dcm_rs485_put_assign(out, sizeof(out), f.cmd & 0x80, board, bid);
				assert_int_equal(total, k);
				assert_memory_equal(buf, out, total);
			}
			if (!dcm_rs485_get_regs(&f, &regs)) {
				ok[5]++;
				k = dcm_rs485_put_regs(out, sizeof(out), f.addr, f.cmd, &regs);
				assert_int_equal(total, k);
				if (f.cmd != (DCM_RS485_REG_READ | 0x80))
					assert_memory_equal(buf, out, total);
			}
			dcm_rs485_get_config_ack(&f, &st);
		}
		dcm_rs485_parse_cmd(buf, len, &c);
		/* A cyclic reply, good or with a byte changed. */
		bid = 1 + rng() % 16;
		st = (u8)rng();
		if (it % 4 == 2 && len >= DCM_RS485_REPLY_FRAME) {
			memcpy(&r.data, buf + 1, DCM_RS485_DATA_LEN);
			r.bid = bid;
			r.seq = st;
			r.flags = buf[0];
			dcm_rs485_put_reply(buf, len, &r);
			if (rng() % 2)
				buf[rng() % DCM_RS485_REPLY_FRAME] ^= (u8)(1 + rng() % 255);
		}
		k = dcm_rs485_parse_reply(buf, len, bid, st, &r);
		assert_true(k == DCM_RS485_REPLY_FRAME || k == -EINVAL || k == -EMSGSIZE ||
			    k == -EBADMSG);
		if (k > 0) {
			ok[1]++;
			assert_int_equal(k, dcm_rs485_put_reply(out, sizeof(out), &r));
			assert_memory_equal(buf, out, k);
		}
		for (i = 0; i < len; i++)
			if (dcm_rs485_rx_byte(&rx, buf[i]))
				while (dcm_rs485_rx_next(&rx))
					;
		if (it % 64 == 0)
			while (dcm_rs485_rx_idle(&rx))
				;
		assert_true(rx.n < sizeof(rx.buf));
		/* Chain result strings. */
		n = rng() % sizeof(s);
		for (i = 0; i < n; i++)
			s[i] = "0123456789: x"[rng() % 13];
		s[n] = '\0';
		if (!dcm_chain_parse(s, e, 4, &board)) {
			char s2[sizeof(s) * 2];

			assert_true(dcm_chain_format(s2, sizeof(s2), e, board) >= 0);
		}
	}
	assert_true(rx.frames > 0);
	/* Each decoder saw frames it accepts, not only noise. */
	for (i = 0; i < ARRAY_SIZE(ok); i++)
		assert_true(ok[i] > 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_check_values),
		cmocka_unit_test(test_frame_basic),
		cmocka_unit_test(test_cmd_round_trip),
		cmocka_unit_test(test_mb_slot_fields),
		cmocka_unit_test(test_reply_round_trip),
		cmocka_unit_test(test_reply_bit_flips),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_rx_simple),
		cmocka_unit_test(test_rx_garbage),
		cmocka_unit_test(test_rx_truncated),
		cmocka_unit_test(test_rx_bit_flips),
		cmocka_unit_test(test_rx_stream),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_ident_chain),
		cmocka_unit_test(test_regs),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_fuzz),
	};

	dcm_wire_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
