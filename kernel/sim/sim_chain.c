// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the RS485 chain of simulated boards: who a request outside the
 * cyclic exchange is for, and what that board answers.
 *
 * The boards of a bus are daisy-chained: a board listens to address 0 only
 * while it has no Bid and its chain-in is active, that is, the board
 * before it in the chain has a Bid (the first board's chain-in is tied
 * active). A board with a Bid answers requests to it: its identity
 * (IDENT) and, a motor board, its configuration (CONFIG).
 */

#include "sim_chain.h"

/**
 * sim_chain_board_id() - the BoardId of a simulated board
 * @bus: its bus, 0 for RS485-1
 * @place: its place in the chain, from 0
 *
 * Return: a BoardId unique per bus and place: "NA", the bus, the place.
 */
u32 sim_chain_board_id(u32 bus, u32 place)
{
	return 0x4e410000 | ((bus + 1) & 0xff) << 8 | ((place + 1) & 0xff);
}

/**
 * sim_chain_ident() - the identity of a simulated board
 * @bus: its bus, 0 for RS485-1
 * @place: its place in the chain, from 0
 * @type: its board type, enum dcm_rs485_board_type
 * @struct_version: the configuration StructVersion it understands, 0 for
 *	none
 * @id: the identity
 */
void sim_chain_ident(u32 bus, u32 place, u8 type, u8 struct_version,
		     struct dcm_rs485_ident *id)
{
	memset(id, 0, sizeof(*id));
	id->type = type;
	id->struct_version = struct_version;
	id->board_id = sim_chain_board_id(bus, place);
	id->board_id2 = id->board_id ^ 0xffff;
	id->bootloader_version = SIM_CHAIN_BOOTLOADER;
	id->prog_version = SIM_CHAIN_PROG;
}

/* Whether the board at @place listens to address 0. */
static bool chain_in(const u8 *bid, u32 place)
{
	return !bid[place] && (!place || bid[place - 1]);
}

/**
 * sim_chain_target() - which board of a chain a request is for
 * @f: a request with a good CRC: CHAIN_QUERY, CHAIN_ASSIGN, CONFIG, IDENT,
 *	REG_READ or REG_WRITE
 * @bus: the bus, 0 for RS485-1 (the boards' BoardIds)
 * @bid: the Bids of the boards by place, 0 for none
 * @n: how many boards the chain has
 *
 * CHAIN_QUERY is for the board listening to address 0; CHAIN_ASSIGN for
 * that board if the BoardId is its own; the others for the board with the
 * frame's ADDR as its Bid. CHAIN_RESET and CYCLE are for every board: the
 * caller handles them.
 *
 * Return: the board's place, from 0; -ENOENT when no board would answer.
 */
int sim_chain_target(const struct dcm_rs485_frame *f, u32 bus, const u8 *bid, u32 n)
{
	u32 board_id, i;
	u8 new_bid;

	n = min_t(u32, n, DCM_RS485_MAX_BOARDS);
	switch (f->cmd) {
	case DCM_RS485_CHAIN_QUERY:
		if (f->addr != DCM_RS485_ADDR_UNASSIGNED || f->len)
			return -ENOENT;
		for (i = 0; i < n; i++)
			if (chain_in(bid, i))
				return i;
		return -ENOENT;
	case DCM_RS485_CHAIN_ASSIGN:
		if (dcm_rs485_get_assign(f, &board_id, &new_bid))
			return -ENOENT;
		for (i = 0; i < n; i++)
			if (chain_in(bid, i) && sim_chain_board_id(bus, i) == board_id)
				return i;
		return -ENOENT;
	case DCM_RS485_CONFIG:
	case DCM_RS485_IDENT:
	case DCM_RS485_REG_READ:
	case DCM_RS485_REG_WRITE:
		if (!dcm_rs485_bid_ok(f->addr))
			return -ENOENT;
		for (i = 0; i < n; i++)
			if (bid[i] == f->addr)
				return i;
		return -ENOENT;
	}
	return -ENOENT;
}

/**
 * sim_chain_reply() - a board's answer to a chaining or IDENT request
 * @f: the request, for this board (sim_chain_target())
 * @id: the board's identity
 * @bid: the board's Bid, 0 for none; CHAIN_ASSIGN sets it
 * @out: where the reply goes
 * @size: room in @out
 *
 * Return: the reply's length; -EINVAL for a request this does not answer
 * (CONFIG and the register requests are the board type's), or one the
 * board may not take; -EMSGSIZE if @out is too small.
 */
int sim_chain_reply(const struct dcm_rs485_frame *f, const struct dcm_rs485_ident *id, u8 *bid,
		    u8 *out, size_t size)
{
	u32 board_id;
	u8 new_bid;

	switch (f->cmd) {
	case DCM_RS485_CHAIN_QUERY:
		if (*bid)
			return -EINVAL;
		return dcm_rs485_put_ident(out, size, DCM_RS485_ADDR_UNASSIGNED,
					   DCM_RS485_CHAIN_QUERY | DCM_RS485_REPLY, id);
	case DCM_RS485_CHAIN_ASSIGN:
		if (*bid || dcm_rs485_get_assign(f, &board_id, &new_bid) ||
		    board_id != id->board_id)
			return -EINVAL;
		*bid = new_bid;
		return dcm_rs485_put_assign(out, size, true, board_id, new_bid);
	case DCM_RS485_IDENT:
		if (!*bid || *bid != f->addr)
			return -EINVAL;
		return dcm_rs485_put_ident(out, size, *bid, DCM_RS485_IDENT | DCM_RS485_REPLY, id);
	}
	return -EINVAL;
}

/**
 * sim_mb_config_status() - what a motor board says to a configuration
 * @f: the CONFIG request
 * @bid: the board's Bid
 * @cfg: the structure, when accepted
 *
 * Return: the ack's status, enum dcm_mb_config_status: DCM_MB_CONFIG_OK;
 * DCM_MB_CONFIG_BAD_VERSION for another StructVersion;
 * DCM_MB_CONFIG_BAD_VALUE for a wrong length or a field out of range;
 * DCM_MB_CONFIG_BAD_BID when the structure's Bid is not @bid.
 */
u8 sim_mb_config_status(const struct dcm_rs485_frame *f, u8 bid, struct dcm_mb_config *cfg)
{
	int ret = dcm_rs485_get_config(f, cfg);

	if (ret == -EPROTO)
		return DCM_MB_CONFIG_BAD_VERSION;
	if (ret)
		return DCM_MB_CONFIG_BAD_VALUE;
	if (cfg->bid != bid)
		return DCM_MB_CONFIG_BAD_BID;
	return DCM_MB_CONFIG_OK;
}
