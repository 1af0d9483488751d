// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: hostile bytes from an RS485 bus. The receiver takes them one
 * by one, as the UART hands them over; every frame it completes, and the
 * input taken whole as one frame, go through every RS485 decoder the
 * kernel has (replies, commands, identities, assignments, register
 * blocks, motor configuration and its ack), and the payloads through the
 * motor, foot and hand board decoders. Also the chain text of debugfs.
 */
#include <linux/kernel.h>

#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_motor.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static void decode(const struct dcm_rs485_frame *f)
{
	struct dcm_rs485_reply reply;
	struct dcm_rs485_cmd_frame cmd;
	struct dcm_rs485_ident ident;
	struct dcm_rs485_regs regs;
	struct dcm_mb_config cfg;
	struct dcm_mb_status st;
	struct dcm_mb_cmd mc;
	u32 board_id, i;
	u8 bid, status, led[DCM_FOOT_OUT_LEN];

	if (!dcm_rs485_get_reply(f, &reply))
		dcm_mb_get_status(reply.data, &st);
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

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static struct dcm_rs485_rx rx;
	struct dcm_rs485_frame f;
	struct dcm_rs485_reply reply;
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
	dcm_rs485_parse_reply(data, size, &reply);
	dcm_rs485_parse_cmd(data, size, &cmd);

	n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	dcm_chain_parse(text, chain, 32, &n);
	return 0;
}
