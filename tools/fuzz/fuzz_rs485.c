// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: hostile bytes from an RS485 bus. The receiver takes them one
 * by one, as the UART hands them over; every frame it completes, and the
 * input taken whole as one frame, go through every RS485 decoder the
 * kernel has (commands, identities, assignments, register blocks, motor
 * configuration and its ack), and the payloads through the motor, foot
 * and hand board decoders. The input is also a cycle's replies as the
 * master reads them: its first byte the broadcast's SEQ, its second the
 * boards (1..16), the rest the bytes of the reply window; each reply found
 * goes through the board decoders. Also the chain text of debugfs.
 */
#include <linux/kernel.h>

#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_motor.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static void decode(const struct dcm_rs485_frame *f)
{
	struct dcm_rs485_cmd_frame cmd;
	struct dcm_rs485_ident ident;
	struct dcm_rs485_regs regs;
	struct dcm_mb_config cfg;
	struct dcm_mb_cmd mc;
	u32 board_id, i;
	u8 bid, status, led[DCM_FOOT_OUT_LEN];

	if (!dcm_rs485_get_cmd(f, &cmd)) {
		for (i = 0; i < cmd.n && i < DCM_RS485_MAX_BOARDS; i++) {
			dcm_mb_get_cmd(&cmd.slot[i], &mc);
			dcm_foot_get_slot(&cmd.slot[i], led);
		}
	}
	dcm_rs485_get_ident(f, &ident);
	dcm_rs485_get_assign(f, &board_id, &bid);
	dcm_rs485_get_regs(f, &regs);
	dcm_rs485_get_config(f, &cfg);
	dcm_rs485_get_config_ack(f, &status);
}

/* The input as one cycle's reply window: SEQ, boards, the bytes. */
static void replies(const u8 *data, size_t size)
{
	struct dcm_rs485_replies s;
	struct dcm_rs485_reply r;
	struct dcm_foot_in foot;
	struct dcm_mb_status st;
	u8 seen = 0;

	if (size < 2)
		return;
	dcm_rs485_replies_init(&s, data + 2, size - 2, data[0], 1 + data[1] % 16);
	while (dcm_rs485_replies_next(&s)) {
		if (s.reply.bid <= seen || s.reply.bid > s.n || s.reply.seq != data[0] ||
		    dcm_rs485_parse_reply(data + 2 + s.off - DCM_RS485_REPLY_FRAME,
					  DCM_RS485_REPLY_FRAME, s.reply.bid, data[0], &r) !=
		    DCM_RS485_REPLY_FRAME)
			__builtin_trap();	/* a reply twice, out of order, or unchecked */
		seen = s.reply.bid;
		dcm_mb_get_status(s.reply.data, &st);
		dcm_foot_get_in(s.reply.data, &foot);
	}
	if (s.off != s.len || s.replies * DCM_RS485_REPLY_FRAME + s.dropped != s.len)
		__builtin_trap();
	dcm_rs485_parse_reply(data, size, 1 + data[1] % 16, data[0], &r);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct dcm_rs485_rx rx;
	struct dcm_rs485_frame f;
	struct dcm_rs485_cmd_frame cmd;
	struct dcm_chain_entry chain[32];
	char text[512];
	u32 n;
	size_t i;

	dcm_wire_init();
	dcm_rs485_rx_init(&rx);
	for (i = 0; i < size; i++) {
		if (dcm_rs485_rx_byte(&rx, data[i])) {
			decode(&rx.frame);
			dcm_rs485_rx_next(&rx);
		}
	}
	dcm_rs485_rx_idle(&rx);
	if (!dcm_rs485_parse_frame(data, size, &f))
		decode(&f);
	dcm_rs485_parse_cmd(data, size, &cmd);
	replies(data, size);

	n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	dcm_chain_parse(text, chain, 32, &n);
	return 0;
}
