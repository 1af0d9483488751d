// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-boardsim: the boards of one RS485 bus, simulated on a host socket, for
 * the bus that the test VM carries on a QEMU UART: the dcm RS485 transport
 * runs on it from start-up to motion with no in-kernel simulator.
 *
 *   dcm-boardsim SOCKET [--control CTLSOCKET] [--bus RS485-N]
 *                [--boards TYPE,TYPE,...] [--seed N] [--verbose]
 *
 * It listens on the UNIX stream socket SOCKET and takes QEMU's connection
 * (-chardev socket,path=SOCKET -serial chardev:...): the line of the bus.
 * The boards are those of a bus of the shipped Device.xml in chain order,
 * as dcm_sim puts them: RS485-1 (the default) four motor boards then the
 * hand board, RS485-2 three and the hand, RS485-3 and -4 four and the foot
 * board; --boards gives another list (motor, foot, hand; up to 16). Each
 * answers the whole protocol of Documentation/dcm/wire-protocol.rst with
 * the kernel's own wire code (kernel/wire/), the chaining and identity
 * code of dcm_sim (kernel/sim/sim_chain.c) and its physics
 * (kernel/sim/sim_physics.c, sim_sensors.c), built for the host:
 *
 * - chaining: CHAIN_RESET drops every Bid and configuration; the board whose
 *   chain-in is active answers CHAIN_QUERY with its identity (type,
 *   StructVersion 1 for a motor board, BoardId 0x4e41BBPP for bus BB and
 *   place PP as in dcm_sim) and takes CHAIN_ASSIGN of its BoardId, which
 *   enables the next board; a query past the last board gets no answer;
 * - IDENT: the identity again, from the board's Bid;
 * - CONFIG: a motor board checks the structure and acks it as dcm_sim's
 *   boards do (0 OK, 1 another StructVersion, 2 a bad value or length, 3
 *   not its Bid); foot and hand boards have none and say 2;
 * - CYCLE: each board with a Bid answers in Bid order, at once, with a
 *   compact reply: its flags (CONFIGURED, WATCHDOG after 500 ms without a
 *   broadcast, LOOP1, LOOP2, FREE) and data, the CRC seeded with its Bid
 *   and the broadcast's SEQ. A motor board moves its
 *   motors for the time since its last broadcast and reports their angle
 *   (relative to its configured jointZeroPosition), current, temperature
 *   and status, and an error byte: one of its errors per cycle, in turn
 *   (an injected one, MRE no data 0xe2/0xf2, temperature 0x2N, a frame it
 *   received with a bad CRC 0xa1). A motor's MRE reads the configured zero
 *   at the joint's 0 rad (its first non-zero zero: the description is the
 *   body's calibration). A foot board reports its bumpers and its FSRs
 *   under half the robot's weight and takes its LEDs from its slot; a hand
 *   board reports its touch pads. The second motor of a motor board just
 *   before a hand board is that hand's: an aperture, 0 closed to 1 open,
 *   per mil on the wire both ways (sim_hand_init());
 * - REG_READ, REG_WRITE: foot and hand boards answer on their register
 *   map (WHOAMI, FW_VERSION, the cyclic blocks; the foot's LEDs are
 *   writable); motor boards have none and do not answer.
 *
 * Faults and knobs on request: --control CTLSOCKET listens on a second
 * UNIX stream socket for one connection at a time (QEMU's third UART as a
 * socket client, so a guest drives it from /dev/ttyS2), which may come
 * before, after or without the bus's. Each text line is one command; each
 * command gets one line back, "ok ..." or "error: ...":
 *
 *   silent BID on|off      that board answers nothing (it still hears)
 *   crc PPM                corrupt that share of replies, per million
 *   error BID CODE|off     a motor board's error byte also reports CODE
 *   mre BID on|off         a motor board's MREs give no data
 *   hot BID on|off         a motor board's motors are held at 80 degC
 *   touch BID MASK         a hand board's pads, bit 0 back, 1 left, 2 right
 *   bumpers BID MASK       a foot board's bumpers, bit 0 left, 1 right
 *   status                 cycles, receiver counters, every board
 *   help                   the commands
 *
 * BID is the board's place in the chain, 1..n: the Bid chaining gives it.
 * An empty line, or one that starts with "ok" or "error:" (an answer echoed
 * back by a guest's tty), gets no answer. --verbose prints every request
 * but the cycles (and the first three cycles) on stderr.
 * Ends when the bus's connection closes or on SIGTERM or SIGINT, and prints
 * what it saw on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim_chain.h"
#include "sim/sim_physics.h"
#include "sim/sim_sensors.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_motor.h"

#define MAX_BOARDS	DCM_RS485_MAX_BOARDS
#define HAND_STOP_URAD	3141592		/* motors turn within half a turn each way */
#define HOT_MC		80000		/* "hot": temperature status 2 */
#define IDLE_MS		50		/* a partial frame this old never ends */
#define DT_MAX_US	100000		/* a board moves at most this much per cycle */
#define FW_VERSION	1		/* foot and hand boards' FW_VERSION */
#define CTL_LINE	256

/**
 * struct board - one simulated board of the chain
 * @type: enum dcm_rs485_board_type
 * @bid: what chaining gave it, 0 for none
 * @configured: a configuration was accepted since the last chaining reset
 * @silent: it answers nothing
 * @watchdog: it got no broadcast for DCM_RS485_WATCHDOG_MS: WATCHDOG in
 *	its next reply
 * @last_us: when it last got a broadcast, 0 for never
 * @motor: a motor board's motors
 * @zero: their configured jointZeroPosition
 * @true_zero: their MRE's count at the joint's 0 rad, 0 until known
 * @hand: each motor is a hand's: an aperture 0..1 (sim_hand_init())
 * @mre_fault: its MREs give no data
 * @hot: its motors are held at HOT_MC
 * @error: an injected error byte, -1 for none
 * @com_error: it received a frame with a bad CRC since its last reply
 * @turn: which of its errors it reports next
 * @side: a foot board: 0 left, 1 right
 * @led: a foot board's LED, as its slot or a register write set it
 * @pads: a hand board's touch pads, or a foot board's bumpers
 * @replies: replies it sent
 */
struct board {
	u8 type;
	u8 bid;
	bool configured;
	bool silent;
	bool watchdog;
	u64 last_us;
	struct sim_motor motor[DCM_MB_MOTORS];
	u16 zero[DCM_MB_MOTORS];
	u16 true_zero[DCM_MB_MOTORS];
	bool hand[DCM_MB_MOTORS];
	bool mre_fault;
	bool hot;
	int error;
	bool com_error;
	u32 turn;
	int side;
	u8 led[DCM_FOOT_OUT_LEN];
	u8 pads;
	unsigned long replies;
};

/**
 * struct bus - the simulated bus
 * @index: 0 for RS485-1: the BoardIds
 * @n: boards in the chain
 * @board: the boards, by place
 * @rx: the receiver of the master's frames
 * @crc_ppm: replies corrupted, per million
 * @rand: the corruption's random state
 * @cycles: broadcasts answered
 * @requests: other requests answered
 * @corrupted: replies corrupted
 * @configs: configurations accepted
 */
struct bus {
	u32 index;
	u32 n;
	struct board board[MAX_BOARDS];
	struct dcm_rs485_rx rx;
	u32 crc_ppm;
	u64 rand;
	unsigned long cycles, requests, corrupted, configs;
};

static volatile sig_atomic_t stop;
static bool verbose;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static u64 now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static const char *type_name(u8 type)
{
	switch (type) {
	case DCM_BOARD_MOTOR:
		return "motor";
	case DCM_BOARD_FOOT:
		return "foot";
	case DCM_BOARD_HAND:
		return "hand";
	}
	return "?";
}

static void board_init(struct board *b, u8 type, int side)
{
	int m;

	memset(b, 0, sizeof(*b));
	b->type = type;
	b->side = side;
	b->error = -1;
	for (m = 0; m < DCM_MB_MOTORS; m++)
		sim_motor_init(&b->motor[m], 1200, 6000000, -HAND_STOP_URAD, HAND_STOP_URAD);
}

/* xorshift64*: the corruption's dice, reproducible from --seed. */
static u32 dice(struct bus *bus)
{
	bus->rand ^= bus->rand >> 12;
	bus->rand ^= bus->rand << 25;
	bus->rand ^= bus->rand >> 27;
	return (u32)((bus->rand * 2685821657736338717ULL) >> 32);
}

/* Append a board's reply (@len bytes at @p) as sent: maybe spoilt. */
static void sent(struct bus *bus, struct board *b, u8 *p, int len)
{
	b->replies++;
	if (bus->crc_ppm && dice(bus) % 1000000 < bus->crc_ppm) {
		p[len - 1] ^= 0x5a;
		bus->corrupted++;
	}
}

/* ---- the cyclic exchange ---- */

/* The error byte of this cycle: one of the board's errors, in turn. */
static u8 motor_error(struct board *b, const struct dcm_mb_status *st)
{
	u8 errs[5], hot = 0;
	int n = 0, m;

	if (b->error >= 0)
		errs[n++] = (u8)b->error;
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		if (b->motor[m].mre_fault)	/* MOTORm_NOT_ASSERV, MRE joint NO DATA */
			errs[n++] = (m ? 0xf0 : 0xe0) | DCM_MB_MRE_JOINT_NO_DATA;
		if (st->temp_status[m])
			hot |= BIT(m);
	}
	if (hot)
		errs[n++] = DCM_MB_ERR_TEMPERATURE << 4 | hot;
	if (b->com_error)
		errs[n++] = DCM_MB_ERR_COM << 4 | DCM_MB_COM_READ_CRC_ERROR;
	b->com_error = false;
	return n ? errs[b->turn++ % n] : 0;
}

/*
 * A motor board's slot: its motors move for @dt_us toward the command, in
 * the frame of the zero it was configured with, then it reports.
 */
static void motor_slot(struct board *b, const struct dcm_rs485_slot *slot, u32 dt_us,
		       struct dcm_rs485_reply *r)
{
	struct dcm_mb_status st = { 0 };
	struct dcm_mb_cmd c;
	int m;

	dcm_mb_get_cmd(slot, &c);
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		struct sim_motor *mo = &b->motor[m];
		u16 zero = b->configured ? b->zero[m] : 0, tz = b->true_zero[m];

		mo->calibrated = zero != 0;
		mo->mre_fault = b->mre_fault;
		sim_motor_command(mo, sim_mb_target(c.position[m], b->hand[m], tz, zero),
				  (s32)c.hardness[m] * 1000);
		sim_motor_step(mo, dt_us);
		if (b->hot && mo->temp_mc < HOT_MC)
			mo->temp_mc = HOT_MC;
		st.angle[m] = b->hand[m] ? sim_hand_permil(mo) :
			      dcm_mb_mre_angle(sim_mre_count(tz, mo->pos_urad), zero);
		st.current_ma[m] = mo->current_ma;
		st.temperature[m] = mo->temp_mc / 1000;
		st.temp_status[m] = sim_motor_temp_status(mo);
		if (sim_motor_active(mo))
			r->flags |= m ? DCM_RS485_RF_LOOP2 : DCM_RS485_RF_LOOP1;
	}
	if (c.hardness[0] < 0 && c.hardness[1] < 0)
		r->flags |= DCM_RS485_RF_FREE;
	st.error = motor_error(b, &st);
	dcm_mb_put_status(r->data, &st);
}

static void foot_block(const struct board *b, u8 *block)
{
	struct dcm_foot_in in = { 0 };
	u32 load[2], w[DCM_FOOT_FSRS];
	const struct sim_foot_geom *g = b->side ? &sim_foot_right : &sim_foot_left;

	sim_feet_split(SIM_STANCE_BOTH, SIM_WEIGHT_G, &load[0], &load[1]);
	sim_foot_load(g, load[b->side], 0, 0, w);
	sim_foot_fsr(g, w, in.fsr);
	in.bumper[0] = b->pads & BIT(0);
	in.bumper[1] = b->pads & BIT(1);
	dcm_foot_put_in(block, &in);
}

/* One board's answer to its slot. */
static void board_slot(struct board *b, const struct dcm_rs485_slot *slot, u32 dt_us,
		       struct dcm_rs485_reply *r)
{
	if (b->configured)
		r->flags |= DCM_RS485_RF_CONFIGURED;
	switch (b->type) {
	case DCM_BOARD_MOTOR:
		motor_slot(b, slot, dt_us, r);
		break;
	case DCM_BOARD_FOOT:
		dcm_foot_get_slot(slot, b->led);
		foot_block(b, r->data);
		break;
	case DCM_BOARD_HAND:
		r->data[0] = b->pads & DCM_TOUCH_MASK;
		break;
	}
}

/* The replies to a broadcast, in Bid order, in @out; their length. */
static int cycle(struct bus *bus, const struct dcm_rs485_cmd_frame *cmd, u8 *out, size_t size)
{
	static const struct dcm_rs485_slot none;
	u64 now = now_us(), dt;
	struct dcm_rs485_reply r;
	struct board *b;
	size_t off = 0;
	u32 bid, i;
	int len;

	for (bid = 1; bid <= MAX_BOARDS; bid++) {
		for (i = 0; i < bus->n && bus->board[i].bid != bid; i++)
			;
		if (i == bus->n)
			continue;
		b = &bus->board[i];
		memset(&r, 0, sizeof(r));
		r.bid = bid;
		r.seq = cmd->seq;
		dt = b->last_us ? now - b->last_us : 0;

		/* A board beyond the broadcast's boards answers, its slot ignored. */
		if (bid <= cmd->n) {
			if (b->last_us && dt >= DCM_RS485_WATCHDOG_MS * 1000ULL)
				b->watchdog = true;
			b->last_us = now;
			board_slot(b, &cmd->slot[bid - 1], (u32)min_t(u64, dt, DT_MAX_US), &r);
		} else {
			board_slot(b, &none, 0, &r);
		}
		if (b->watchdog)
			r.flags |= DCM_RS485_RF_WATCHDOG;
		if (b->silent)
			continue;
		b->watchdog = false;
		len = dcm_rs485_put_reply(out + off, size - off, &r);
		if (len < 0)
			return -1;
		sent(bus, b, out + off, len);
		off += len;
	}
	bus->cycles++;
	return (int)off;
}

/* ---- requests to one board ---- */

/* A foot or hand board's register, as REG_READ reads it. */
static u8 reg_get(const struct board *b, u8 reg)
{
	u8 block[DCM_FOOT_IN_LEN];

	if (reg == DCM_REG_WHOAMI)
		return b->type == DCM_BOARD_FOOT ? DCM_WHOAMI_FOOT : DCM_WHOAMI_HAND;
	if (reg == DCM_REG_FW_VERSION)
		return FW_VERSION;
	if (b->type == DCM_BOARD_HAND)
		return reg == DCM_HAND_TOUCH ? b->pads & DCM_TOUCH_MASK : 0;
	if (reg >= DCM_FOOT_IN_REG && reg < DCM_FOOT_IN_REG + DCM_FOOT_IN_LEN) {
		foot_block(b, block);
		return block[reg - DCM_FOOT_IN_REG];
	}
	if (reg >= DCM_FOOT_OUT_REG && reg < DCM_FOOT_OUT_REG + DCM_FOOT_OUT_LEN)
		return b->led[reg - DCM_FOOT_OUT_REG];
	return 0;
}

static int regs(struct board *b, const struct dcm_rs485_frame *f, u8 *out, size_t size)
{
	struct dcm_rs485_regs r;
	u32 i;

	if (b->type == DCM_BOARD_MOTOR || dcm_rs485_get_regs(f, &r))
		return -1;
	if (f->cmd == DCM_RS485_REG_READ) {
		for (i = 0; i < r.count; i++)
			r.data[i] = reg_get(b, r.reg + i);
	} else {
		/* All or nothing: only the foot's LEDs are writable. */
		r.status = b->type != DCM_BOARD_FOOT || r.reg < DCM_FOOT_OUT_REG ||
			   r.reg + r.count > DCM_FOOT_OUT_REG + DCM_FOOT_OUT_LEN;
		if (!r.status)
			memcpy(b->led + r.reg - DCM_FOOT_OUT_REG, r.data, r.count);
	}
	return dcm_rs485_put_regs(out, size, b->bid, f->cmd | DCM_RS485_REPLY, &r);
}

static int config(struct bus *bus, struct board *b, const struct dcm_rs485_frame *f, u8 *out,
		  size_t size)
{
	struct dcm_mb_config cfg;
	u8 status = DCM_MB_CONFIG_BAD_VALUE;
	int m;

	if (b->type == DCM_BOARD_MOTOR)
		status = sim_mb_config_status(f, b->bid, &cfg);
	if (status == DCM_MB_CONFIG_OK) {
		b->configured = true;
		bus->configs++;
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			b->zero[m] = cfg.motor[m].zero;
			if (!b->true_zero[m])
				b->true_zero[m] = cfg.motor[m].zero;
		}
	}
	return dcm_rs485_put_config_ack(out, size, b->bid, status);
}

/* A request outside the cyclic exchange; the answer's length, or <= 0. */
static int request(struct bus *bus, const struct dcm_rs485_frame *f, u8 *out, size_t size)
{
	struct dcm_rs485_ident id;
	u8 bid[MAX_BOARDS];
	struct board *b;
	int place, len;
	u32 i;

	if (f->cmd == DCM_RS485_CHAIN_RESET) {
		for (i = 0; i < bus->n; i++) {
			bus->board[i].bid = 0;
			bus->board[i].configured = false;
			memset(bus->board[i].zero, 0, sizeof(bus->board[i].zero));
		}
		return 0;
	}
	for (i = 0; i < bus->n; i++)
		bid[i] = bus->board[i].bid;
	place = sim_chain_target(f, bus->index, bid, bus->n);
	if (place < 0)
		return 0;
	b = &bus->board[place];
	switch (f->cmd) {
	case DCM_RS485_CONFIG:
		len = config(bus, b, f, out, size);
		break;
	case DCM_RS485_REG_READ:
	case DCM_RS485_REG_WRITE:
		len = regs(b, f, out, size);
		break;
	default:
		sim_chain_ident(bus->index, place, b->type,
				b->type == DCM_BOARD_MOTOR ? DCM_MB_STRUCT_VERSION : 0, &id);
		len = sim_chain_reply(f, &id, &b->bid, out, size);
		break;
	}
	if (len <= 0 || b->silent)
		return 0;
	bus->requests++;
	sent(bus, b, out, len);
	return len;
}

/* ---- the control socket ---- */

static int ctl_board(struct bus *bus, const char *arg, struct board **b, char *ans, size_t size)
{
	char *end;
	unsigned long v = arg ? strtoul(arg, &end, 0) : 0;

	if (!arg || *end || v < 1 || v > bus->n) {
		snprintf(ans, size, "error: BID must be 1..%u", bus->n);
		return -1;
	}
	*b = &bus->board[v - 1];
	return 0;
}

static int ctl_onoff(const char *arg, bool *v, char *ans, size_t size)
{
	if (arg && !strcmp(arg, "on"))
		*v = true;
	else if (arg && !strcmp(arg, "off"))
		*v = false;
	else {
		snprintf(ans, size, "error: on or off");
		return -1;
	}
	return 0;
}

static int ctl_num(const char *arg, unsigned long max, unsigned long *v, char *ans, size_t size)
{
	char *end;

	errno = 0;
	*v = arg ? strtoul(arg, &end, 0) : 0;
	if (!arg || !*arg || *end || errno || *arg == '-' || *v > max) {
		snprintf(ans, size, "error: a number 0..%lu", max);
		return -1;
	}
	return 0;
}

static int ctl_type(struct board *b, u8 type, char *ans, size_t size)
{
	if (b->type == type)
		return 0;
	snprintf(ans, size, "error: not a %s board", type_name(type));
	return -1;
}

static void ctl_status(const struct bus *bus, char *ans, size_t size)
{
	size_t off;
	u32 i;

	off = snprintf(ans, size, "ok cycles=%lu requests=%lu frames=%u crc_errors=%u dropped=%u",
		       bus->cycles, bus->requests, bus->rx.frames, bus->rx.crc_errors,
		       bus->rx.dropped);
	off += snprintf(ans + off, size - off, " corrupted=%lu crc_ppm=%u boards=%u",
			bus->corrupted, bus->crc_ppm, bus->n);
	for (i = 0; i < bus->n && off < size; i++) {
		const struct board *b = &bus->board[i];

		off += snprintf(ans + off, size - off, " %u:%s:bid=%u:configured=%d:silent=%d",
				i + 1, type_name(b->type), b->bid, b->configured, b->silent);
	}
}

/* One command line; its answer in @ans, one line without the newline. */
static void control(struct bus *bus, char *line, char *ans, size_t size)
{
	char *argv[4] = { NULL }, *save = NULL, *tok;
	unsigned long v;
	struct board *b;
	bool on;
	int argc = 0;

	for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
		if (argc == 4) {
			snprintf(ans, size, "error: too many words");
			return;
		}
		argv[argc++] = tok;
	}
	/* Nothing, or an answer of ours echoed back by a tty: no answer. */
	if (!argc || !strcmp(argv[0], "ok") || !strcmp(argv[0], "error:"))
		return;
	if (!strcmp(argv[0], "help")) {
		snprintf(ans, size, "ok silent BID on|off; crc PPM; error BID CODE|off; %s",
			 "mre BID on|off; hot BID on|off; touch BID MASK; bumpers BID MASK; status; help");
	} else if (!strcmp(argv[0], "status") && argc == 1) {
		ctl_status(bus, ans, size);
	} else if (!strcmp(argv[0], "crc") && argc == 2) {
		if (!ctl_num(argv[1], 1000000, &v, ans, size)) {
			bus->crc_ppm = v;
			snprintf(ans, size, "ok crc %lu", v);
		}
	} else if (!strcmp(argv[0], "silent") && argc == 3) {
		if (!ctl_board(bus, argv[1], &b, ans, size) && !ctl_onoff(argv[2], &on, ans, size)) {
			b->silent = on;
			snprintf(ans, size, "ok silent %s %s", argv[1], argv[2]);
		}
	} else if ((!strcmp(argv[0], "mre") || !strcmp(argv[0], "hot")) && argc == 3) {
		if (!ctl_board(bus, argv[1], &b, ans, size) &&
		    !ctl_type(b, DCM_BOARD_MOTOR, ans, size) &&
		    !ctl_onoff(argv[2], &on, ans, size)) {
			if (argv[0][0] == 'm')
				b->mre_fault = on;
			else
				b->hot = on;
			snprintf(ans, size, "ok %s %s %s", argv[0], argv[1], argv[2]);
		}
	} else if (!strcmp(argv[0], "error") && argc == 3) {
		if (!ctl_board(bus, argv[1], &b, ans, size) &&
		    !ctl_type(b, DCM_BOARD_MOTOR, ans, size)) {
			if (!strcmp(argv[2], "off")) {
				b->error = -1;
				snprintf(ans, size, "ok error %s off", argv[1]);
			} else if (!ctl_num(argv[2], 255, &v, ans, size)) {
				b->error = (int)v;
				snprintf(ans, size, "ok error %s %lu", argv[1], v);
			}
		}
	} else if ((!strcmp(argv[0], "touch") || !strcmp(argv[0], "bumpers")) && argc == 3) {
		bool touch = argv[0][0] == 't';

		if (!ctl_board(bus, argv[1], &b, ans, size) &&
		    !ctl_type(b, touch ? DCM_BOARD_HAND : DCM_BOARD_FOOT, ans, size) &&
		    !ctl_num(argv[2], touch ? DCM_TOUCH_MASK : 3, &v, ans, size)) {
			b->pads = (u8)v;
			snprintf(ans, size, "ok %s %s %lu", argv[0], argv[1], v);
		}
	} else {
		snprintf(ans, size, "error: unknown command or wrong arguments (try help)");
	}
}

/**
 * struct ctl - the control connection
 * @fd: the connection, -1 for none
 * @buf: a line being received
 * @n: its bytes so far
 * @overflow: the line is too long: dropped up to its end
 */
struct ctl {
	int fd;
	char buf[CTL_LINE];
	size_t n;
	bool overflow;
};

static int write_all(int fd, const void *p, size_t len)
{
	const u8 *buf = p;

	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Bytes from the control connection: answer every complete line. */
static int ctl_input(struct bus *bus, struct ctl *c, const char *in, size_t len)
{
	char ans[CTL_LINE + MAX_BOARDS * 48];
	size_t i;

	for (i = 0; i < len; i++) {
		if (in[i] != '\n') {
			if (c->n < sizeof(c->buf) - 1)
				c->buf[c->n++] = in[i];
			else
				c->overflow = true;
			continue;
		}
		c->buf[c->n] = '\0';
		ans[0] = '\0';
		if (c->overflow)
			snprintf(ans, sizeof(ans), "error: line longer than %d bytes",
				 CTL_LINE - 1);
		else
			control(bus, c->buf, ans, sizeof(ans) - 1);
		c->n = 0;
		c->overflow = false;
		if (!ans[0])
			continue;
		strcat(ans, "\n");
		if (write_all(c->fd, ans, strlen(ans)))
			return -1;
	}
	return 0;
}

/* ---- the bus's line ---- */

/* A frame the boards heard: the answer goes out at once. */
static int frame(struct bus *bus, int fd)
{
	static u8 out[MAX_BOARDS * DCM_RS485_REPLY_SLOT + DCM_RS485_MAX_FRAME];
	struct dcm_rs485_cmd_frame cmd;
	int len;

	if (bus->rx.frame.cmd == DCM_RS485_CYCLE)
		len = dcm_rs485_get_cmd(&bus->rx.frame, &cmd) ? 0 :
		      cycle(bus, &cmd, out, sizeof(out));
	else
		len = request(bus, &bus->rx.frame, out, sizeof(out));
	if (verbose && (bus->rx.frame.cmd != DCM_RS485_CYCLE || bus->cycles <= 3))
		fprintf(stderr, "dcm-boardsim: %llu us: cmd %#x to %#x, %u bytes; answer %d bytes\n",
			(unsigned long long)now_us(), bus->rx.frame.cmd, bus->rx.frame.addr,
			bus->rx.frame.len, len);
	if (len < 0)
		return -1;
	return len ? write_all(fd, out, len) : 0;
}

/* Bytes from the line; a bad CRC is a COM error for every board. */
static int line_input(struct bus *bus, int fd, const u8 *in, size_t len)
{
	u32 crc = bus->rx.crc_errors, i;
	size_t k;

	for (k = 0; k < len; k++) {
		if (!dcm_rs485_rx_byte(&bus->rx, in[k]))
			continue;
		do
			if (frame(bus, fd))
				return -1;
		while (dcm_rs485_rx_next(&bus->rx));
	}
	if (bus->rx.crc_errors != crc)
		for (i = 0; i < bus->n; i++)
			bus->board[i].com_error = true;
	return 0;
}

static int line_idle(struct bus *bus, int fd)
{
	while (dcm_rs485_rx_idle(&bus->rx))
		if (frame(bus, fd))
			return -1;
	return 0;
}

/* ---- set-up ---- */

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "dcm-boardsim: %s: path too long\n", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1)) {
		fprintf(stderr, "dcm-boardsim: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: dcm-boardsim SOCKET [--control CTLSOCKET] [--bus RS485-N]\n"
		"                    [--boards TYPE,TYPE,...] [--seed N] [--verbose]\n"
		"\n"
		"Simulated RS485 boards on the UNIX socket SOCKET (QEMU connects to it):\n"
		"chaining, IDENT, CONFIG, the cyclic exchange, register access.\n"
		"\n"
		"  --bus RS485-N     the boards of that bus of the shipped Device.xml, in\n"
		"                    chain order, and its BoardIds (default RS485-1):\n"
		"                    RS485-1 motor x4 + hand, RS485-2 motor x3 + hand,\n"
		"                    RS485-3 and RS485-4 motor x4 + foot\n"
		"  --boards LIST     other boards, in chain order: motor, foot, hand,\n"
		"                    comma-separated, 1 to 16 (BoardIds of --bus)\n"
		"  --control PATH    a UNIX socket for commands, one a line, each\n"
		"                    answered with one line \"ok ...\" or \"error: ...\":\n"
		"                      silent BID on|off    crc PPM\n"
		"                      error BID CODE|off   mre BID on|off   hot BID on|off\n"
		"                      touch BID MASK       bumpers BID MASK\n"
		"                      status               help\n"
		"                    BID: the board's place in the chain, 1..n\n"
		"  --seed N          the seed of the CRC corruption's dice\n"
		"  --verbose         every request but the cycles on stderr\n"
		"\n"
		"Ends when the connection on SOCKET closes, or on SIGTERM.\n");
}

/*
 * A hand's motor is the second motor of the motor board just before its
 * hand board (LeftHandBoard and LeftHandTouchBoard, RightHandBoard and
 * RightHandTouchBoard).
 */
static void set_hands(struct bus *bus)
{
	u32 i;

	for (i = 0; i + 1 < bus->n; i++) {
		if (bus->board[i].type != DCM_BOARD_MOTOR ||
		    bus->board[i + 1].type != DCM_BOARD_HAND)
			continue;
		bus->board[i].hand[1] = true;
		sim_hand_init(&bus->board[i].motor[1]);
	}
}

/* The boards of --bus, or of --boards. */
static int set_boards(struct bus *bus, const char *list)
{
	static const u8 motors[] = { 4, 3, 4, 4 };
	char copy[256], *save = NULL, *tok;
	u32 i;

	if (!list) {
		for (i = 0; i < motors[bus->index]; i++)
			board_init(&bus->board[i], DCM_BOARD_MOTOR, 0);
		board_init(&bus->board[i], bus->index < 2 ? DCM_BOARD_HAND : DCM_BOARD_FOOT,
			   bus->index == 3);
		bus->n = i + 1;
		set_hands(bus);
		return 0;
	}
	if (strlen(list) >= sizeof(copy))
		return -1;
	strcpy(copy, list);
	bus->n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		u8 type;

		if (!strcmp(tok, "motor"))
			type = DCM_BOARD_MOTOR;
		else if (!strcmp(tok, "foot"))
			type = DCM_BOARD_FOOT;
		else if (!strcmp(tok, "hand"))
			type = DCM_BOARD_HAND;
		else
			return -1;
		if (bus->n == MAX_BOARDS)
			return -1;
		board_init(&bus->board[bus->n++], type, bus->index == 3);
	}
	set_hands(bus);
	return bus->n ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "control", required_argument, NULL, 'c' },
		{ "bus", required_argument, NULL, 'b' },
		{ "boards", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct bus bus;
	const char *ctl_path = NULL, *list = NULL, *path;
	struct ctl ctl = { .fd = -1 };
	int ls = -1, fd = -1, cls = -1, opt, i;
	sigset_t block, orig;
	struct sigaction sa;
	u8 in[4096];
	char *end;
	int ret = 0;

	bus.rand = 0x9e3779b97f4a7c15ULL;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			ctl_path = optarg;
			break;
		case 'b':
			if (strncmp(optarg, "RS485-", 6) || optarg[6] < '1' || optarg[6] > '4' ||
			    optarg[7]) {
				fprintf(stderr, "dcm-boardsim: --bus: RS485-1 to RS485-4\n");
				return 2;
			}
			bus.index = optarg[6] - '1';
			break;
		case 'l':
			list = optarg;
			break;
		case 's':
			bus.rand = strtoull(optarg, &end, 0) | 1;
			if (*end || !*optarg) {
				fprintf(stderr, "dcm-boardsim: --seed: a number\n");
				return 2;
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	path = argv[optind];
	if (set_boards(&bus, list)) {
		fprintf(stderr, "dcm-boardsim: --boards: 1 to 16 of motor, foot, hand, comma-separated\n");
		return 2;
	}
	dcm_rs485_rx_init(&bus.rx);

	/* The signals come through ppoll() only: none is lost before it. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &orig);

	ls = listen_on(path);
	if (ls < 0)
		return 1;
	if (ctl_path) {
		cls = listen_on(ctl_path);
		if (cls < 0) {
			close(ls);
			unlink(path);
			return 1;
		}
	}

	while (!stop) {
		struct pollfd p[3];
		struct timespec ts = { 0, IDLE_MS * 1000000L };
		int np = 0, line = -1, ctli = -1, r;
		ssize_t n;

		p[np].fd = fd >= 0 ? fd : ls;
		p[np].events = POLLIN;
		line = np++;
		if (ctl.fd >= 0 || cls >= 0) {
			p[np].fd = ctl.fd >= 0 ? ctl.fd : cls;
			p[np].events = POLLIN;
			ctli = np++;
		}
		r = ppoll(p, np, fd >= 0 && bus.rx.n ? &ts : NULL, &orig);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			perror("dcm-boardsim: poll");
			ret = 1;
			break;
		}
		if (!r) {
			if (line_idle(&bus, fd))
				break;
			continue;
		}
		if (p[line].revents) {
			if (fd < 0) {
				fd = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
				if (fd < 0 && errno != EINTR && errno != ECONNABORTED) {
					perror("dcm-boardsim: accept");
					ret = 1;
					break;
				}
			} else {
				n = read(fd, in, sizeof(in));
				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0 || line_input(&bus, fd, in, n))
					break;
			}
		}
		if (ctli >= 0 && p[ctli].revents) {
			if (ctl.fd < 0) {
				ctl.fd = accept4(cls, NULL, NULL, SOCK_CLOEXEC);
				ctl.n = 0;
				ctl.overflow = false;
			} else {
				n = read(ctl.fd, in, sizeof(in));
				if (n < 0 && errno == EINTR)
					continue;
				if (n <= 0 || ctl_input(&bus, &ctl, (char *)in, n)) {
					close(ctl.fd);
					ctl.fd = -1;
				}
			}
		}
	}

	fprintf(stderr, "dcm-boardsim: %lu cycles answered, %u CRC errors, %u bytes dropped\n",
		bus.cycles, bus.rx.crc_errors, bus.rx.dropped);
	fprintf(stderr, "dcm-boardsim: %lu requests answered, %lu configurations, %lu replies corrupted\n",
		bus.requests, bus.configs, bus.corrupted);
	for (i = 0; i < (int)bus.n; i++)
		fprintf(stderr, "dcm-boardsim: board %d %s: Bid %u%s%s, %lu replies\n", i + 1,
			type_name(bus.board[i].type), bus.board[i].bid,
			bus.board[i].configured ? ", configured" : "",
			bus.board[i].silent ? ", silent" : "", bus.board[i].replies);
	if (ctl.fd >= 0)
		close(ctl.fd);
	if (cls >= 0) {
		close(cls);
		unlink(ctl_path);
	}
	if (fd >= 0)
		close(fd);
	close(ls);
	unlink(path);
	return ret;
}
