/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - what a simulated RS485 board answers outside the cyclic
 * exchange: its identity, chaining (Documentation/dcm/wire-protocol.rst,
 * "RS485: chaining") and a motor board's configuration ack. The chain is
 * given as the Bids of its boards by place (0: none yet).
 *
 * Pure logic: it builds in the kernel (dcm_sim's RS485 buses) and in the
 * host-side board simulator (tools/dcm-boardsim), so that both answer the
 * master alike.
 */
#ifndef _SIM_CHAIN_H
#define _SIM_CHAIN_H

#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_motor.h"

#define SIM_CHAIN_BOOTLOADER	0x0102	/* BootLoaderVersion of every board */
#define SIM_CHAIN_PROG		0x0203	/* ProgVersion of every board */

u32 sim_chain_board_id(u32 bus, u32 place);
void sim_chain_ident(u32 bus, u32 place, u8 type, u8 struct_version,
		     struct dcm_rs485_ident *id);
int sim_chain_target(const struct dcm_rs485_frame *f, u32 bus, const u8 *bid, u32 n);
int sim_chain_reply(const struct dcm_rs485_frame *f, const struct dcm_rs485_ident *id, u8 *bid,
		    u8 *out, size_t size);
u8 sim_mb_config_status(const struct dcm_rs485_frame *f, u8 bid, struct dcm_mb_config *cfg);

#endif /* _SIM_CHAIN_H */
