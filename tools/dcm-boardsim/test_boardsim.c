// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-boardsim's unit test: start the simulator on temporary sockets and
 * be the master of its bus, with the kernel's wire code building the
 * requests and its receiver taking the replies: chaining, IDENT, CONFIG,
 * the cyclic exchange until a commanded position is reached, register
 * access, and the control socket's faults (a silent board, corrupted
 * replies) and knobs. Each test ends the simulator with SIGTERM and wants
 * its clean exit and summary (a sanitizer report fails it).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "wire/dcm_rs485.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_motor.h"

#ifndef BOARDSIM
#define BOARDSIM "dcm-boardsim"
#endif

#define MAX_FRAMES	32
#define QUIET_MS	300	/* no answer: nothing within this */
#define WAIT_MS		10000	/* an answer: within this (generous: a loaded host) */

struct sim {
	pid_t pid;
	char dir[64];
	char sock[128];
	char ctl[128];
	char log[128];
	int fd;		/* the bus's line */
	int cfd;	/* the control connection */
	u8 seq;
	struct dcm_rs485_rx rx;
	struct dcm_rs485_frame f[MAX_FRAMES];
	int nf;
	struct dcm_rs485_replies cyc;
	struct dcm_rs485_reply r[DCM_RS485_MAX_BOARDS];
	int nr;
};

static struct sim *sim_start(const char *a1, const char *a2)
{
	struct sim *s = calloc(1, sizeof(*s));
	struct stat st;
	int i;

	assert_non_null(s);
	strcpy(s->dir, "/tmp/dcm-boardsim-test.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->sock, sizeof(s->sock), "%s/rs485.sock", s->dir);
	snprintf(s->ctl, sizeof(s->ctl), "%s/ctl.sock", s->dir);
	snprintf(s->log, sizeof(s->log), "%s/log", s->dir);
	s->fd = s->cfd = -1;
	s->pid = fork();
	assert_true(s->pid >= 0);
	if (!s->pid) {
		const char *argv[] = { BOARDSIM, s->sock, "--control", s->ctl, a1, a2, NULL };
		int log = open(s->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (log >= 0)
			dup2(log, 2);
		execv(BOARDSIM, (char **)argv);
		_exit(127);
	}
	/* Its sockets, within 30 s: a loaded host starts it slowly (ASan). */
	for (i = 0; i < 3000; i++) {
		if (!stat(s->sock, &st) && !stat(s->ctl, &st))
			break;
		usleep(10000);
	}
	dcm_rs485_rx_init(&s->rx);
	return s;
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	strcpy(sa.sun_path, path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* The simulator with the control connection first, then the master's. */
static struct sim *sim_up(const char *a1, const char *a2)
{
	struct sim *s = sim_start(a1, a2);

	s->cfd = connect_to(s->ctl);
	s->fd = connect_to(s->sock);
	return s;
}

/* SIGTERM: a clean exit, the summary on stderr. */
static void sim_stop(struct sim *s)
{
	if (!s)
		return;
	char buf[4096] = "";
	int status = -1;
	FILE *f;

	if (s->fd >= 0)
		close(s->fd);
	if (s->cfd >= 0)
		close(s->cfd);
	kill(s->pid, SIGTERM);
	assert_int_equal(waitpid(s->pid, &status, 0), s->pid);
	f = fopen(s->log, "r");
	if (f) {
		buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
		fclose(f);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "dcm-boardsim's stderr:\n%s", buf);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(buf, "cycles answered"));
	unlink(s->log);
	rmdir(s->dir);
	free(s);
}

static void send_bytes(struct sim *s, const u8 *buf, int len)
{
	assert_true(len > 0);
	assert_int_equal(write(s->fd, buf, len), len);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Gather the answer to what was sent: frames with a good CRC in s->f,
 * until @frames came, or @bytes (0: no such limit), or @ms passed.
 */
static int gather(struct sim *s, int frames, size_t bytes, long ms)
{
	struct timespec t0;
	size_t got = 0;
	long left;
	u8 buf[1024];
	ssize_t n, i;

	s->nf = 0;
	dcm_rs485_rx_init(&s->rx);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (s->nf < frames && (!bytes || got < bytes) && (left = ms - ms_since(&t0)) > 0) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		if (poll(&p, 1, left) <= 0)
			break;
		n = read(s->fd, buf, sizeof(buf));
		assert_true(n > 0);
		got += n;
		for (i = 0; i < n; i++) {
			if (!dcm_rs485_rx_byte(&s->rx, buf[i]))
				continue;
			do {
				assert_true(s->nf < MAX_FRAMES);
				s->f[s->nf++] = s->rx.frame;
			} while (dcm_rs485_rx_next(&s->rx));
		}
	}
	while (s->nf < MAX_FRAMES && dcm_rs485_rx_idle(&s->rx))
		s->f[s->nf++] = s->rx.frame;
	return s->nf;
}

/* A request and its one answer, or none. */
static int request(struct sim *s, u8 addr, u8 cmd, const u8 *payload, size_t len, bool answer)
{
	u8 buf[DCM_RS485_MAX_FRAME];

	send_bytes(s, buf, dcm_rs485_put_frame(buf, sizeof(buf), addr, cmd, payload, len));
	return gather(s, 1, 0, answer ? WAIT_MS : QUIET_MS);
}

/* One control command and its answer line, in @ans. */
static void ctl(struct sim *s, const char *cmd, char *ans, size_t size)
{
	struct pollfd p = { .fd = s->cfd, .events = POLLIN };
	size_t n = 0;

	assert_int_equal(write(s->cfd, cmd, strlen(cmd)), (ssize_t)strlen(cmd));
	while (n < size - 1) {
		assert_true(poll(&p, 1, WAIT_MS) == 1);
		assert_int_equal(read(s->cfd, ans + n, 1), 1);
		if (ans[n] == '\n')
			break;
		n++;
	}
	ans[n] = '\0';
}

static void ctl_ok(struct sim *s, const char *cmd)
{
	char ans[1024];

	ctl(s, cmd, ans, sizeof(ans));
	assert_true(!strncmp(ans, "ok", 2));
}

static void ctl_error(struct sim *s, const char *cmd)
{
	char ans[1024];

	ctl(s, cmd, ans, sizeof(ans));
	assert_true(!strncmp(ans, "error: ", 7));
}

static void chain_reset(struct sim *s)
{
	assert_int_equal(request(s, DCM_RS485_ADDR_BROADCAST, DCM_RS485_CHAIN_RESET, NULL, 0,
				 false), 0);
}

/*
 * Chain as the kernel does: query, assign, for the @n boards expected
 * (their @types); then a query that no board answers.
 */
static void chain(struct sim *s, const u8 *types, u32 bus, int n)
{
	struct dcm_rs485_ident id;
	u8 buf[DCM_RS485_MAX_FRAME];
	u32 board_id;
	u8 bid;
	int i;

	chain_reset(s);
	for (i = 0; i < n; i++) {
		assert_int_equal(request(s, 0, DCM_RS485_CHAIN_QUERY, NULL, 0, true), 1);
		assert_int_equal(dcm_rs485_get_ident(&s->f[0], &id), 0);
		assert_int_equal(id.type, types[i]);
		assert_int_equal(id.struct_version, types[i] == DCM_BOARD_MOTOR ? 1 : 0);
		assert_int_equal(id.board_id, 0x4e410000 | bus << 8 | (i + 1));
		send_bytes(s, buf, dcm_rs485_put_assign(buf, sizeof(buf), false, id.board_id,
							i + 1));
		assert_int_equal(gather(s, 1, 0, WAIT_MS), 1);
		assert_int_equal(dcm_rs485_get_assign(&s->f[0], &board_id, &bid), 0);
		assert_int_equal(board_id, id.board_id);
		assert_int_equal(bid, i + 1);
		assert_int_equal(s->f[0].addr, i + 1);
	}
	assert_int_equal(request(s, 0, DCM_RS485_CHAIN_QUERY, NULL, 0, false), 0);
}

static const u8 bus1[] = {
	DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_HAND,
};

static void config_of(struct dcm_mb_config *c, u8 bid, u16 zero1, u16 zero2)
{
	int m;

	memset(c, 0, sizeof(*c));
	c->struct_version = DCM_MB_STRUCT_VERSION;
	c->bid = bid;
	for (m = 0; m < DCM_MB_MOTORS; m++) {
		c->motor[m].motor_number = m + 1;
		c->motor[m].sensor_type = DCM_MB_SENSOR_MRE_JOINT;
		c->motor[m].chain_mre_joint = m + 1;
		c->motor[m].zero = m ? zero2 : zero1;
		c->motor[m].current_max = 1200;
	}
}

/* CONFIG with the payload @p, to @bid: the ack's status, -1 for none. */
static int config_raw(struct sim *s, u8 bid, const u8 *p, size_t len)
{
	u8 status;

	if (!request(s, bid, DCM_RS485_CONFIG, p, len, true))
		return -1;
	assert_int_equal(s->f[0].addr, bid);
	assert_int_equal(dcm_rs485_get_config_ack(&s->f[0], &status), 0);
	assert_int_equal(s->f[0].payload[1], DCM_MB_STRUCT_VERSION);
	return status;
}

static int configure(struct sim *s, u8 bid, u16 zero1, u16 zero2)
{
	struct dcm_mb_config c;
	struct dcm_rs485_frame f;
	u8 buf[DCM_RS485_MAX_FRAME];
	int len;

	config_of(&c, bid, zero1, zero2);
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_true(len > 0);
	assert_int_equal(dcm_rs485_parse_frame(buf, len, &f), len);
	return config_raw(s, bid, f.payload, f.len);
}

/*
 * The replies to the broadcast of @s->seq to @n boards: bytes until @n
 * replies' worth came or @ms passed, then read as the master reads them.
 * How many good replies came.
 */
static int gather_replies(struct sim *s, u32 n, long ms)
{
	static u8 bytes[DCM_RS485_MAX_BOARDS * DCM_RS485_REPLY_SLOT];
	size_t got = 0, want = n * DCM_RS485_REPLY_FRAME;
	struct timespec t0;
	long left;
	ssize_t k;

	s->nr = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (got < want && (left = ms - ms_since(&t0)) > 0) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		if (poll(&p, 1, left) <= 0)
			break;
		k = read(s->fd, bytes + got, sizeof(bytes) - got);
		assert_true(k > 0);
		got += k;
	}
	dcm_rs485_replies_init(&s->cyc, bytes, got, s->seq, n);
	while (dcm_rs485_replies_next(&s->cyc)) {
		assert_true(s->nr < DCM_RS485_MAX_BOARDS);
		s->r[s->nr++] = s->cyc.reply;
	}
	return s->nr;
}

/*
 * One broadcast to @n boards with @slots: how many good replies came, all
 * @n awaited (@quiet: fewer, wait for more that should not come).
 */
static int cycle_of(struct sim *s, u32 n, const struct dcm_rs485_slot *slots, bool quiet)
{
	u8 buf[DCM_RS485_MAX_FRAME];

	send_bytes(s, buf, dcm_rs485_put_cmd(buf, sizeof(buf), ++s->seq, slots, n));
	return gather_replies(s, n, quiet ? QUIET_MS : WAIT_MS);
}

#define cycle(s, n, slots)	cycle_of(s, n, slots, false)

/* One broadcast to @n boards, every reply corrupted or not: good ones. */
static int cycle_bytes(struct sim *s, u32 n, const struct dcm_rs485_slot *slots)
{
	return cycle_of(s, n, slots, false);
}

/* The reply of @bid among the last ones, or NULL. */
static const struct dcm_rs485_reply *reply_of(struct sim *s, u8 bid, struct dcm_rs485_reply *r)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		if (s->r[i].bid != bid)
			continue;
		assert_int_equal(s->r[i].seq, s->seq);
		*r = s->r[i];
		return &s->r[i];
	}
	return NULL;
}

static void test_chain(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	struct dcm_rs485_ident id;
	u8 buf[DCM_RS485_MAX_FRAME];
	char ans[1024];

	/* At power-up the first board listens to address 0. */
	chain(s, bus1, 1, 5);
	/* The chain is complete: no query answer, no Bid 6. */
	assert_int_equal(request(s, 0, DCM_RS485_CHAIN_QUERY, NULL, 0, false), 0);
	assert_int_equal(request(s, 6, DCM_RS485_IDENT, NULL, 0, false), 0);

	/* IDENT from the Bid. */
	assert_int_equal(request(s, 5, DCM_RS485_IDENT, NULL, 0, true), 1);
	assert_int_equal(s->f[0].addr, 5);
	assert_int_equal(dcm_rs485_get_ident(&s->f[0], &id), 0);
	assert_int_equal(id.type, DCM_BOARD_HAND);
	assert_int_equal(id.board_id, 0x4e410105);
	assert_int_equal(id.board_id2, 0x4e410105 ^ 0xffff);
	assert_int_equal(id.prog_version, 0x0203);

	ctl(s, "status\n", ans, sizeof(ans));
	assert_non_null(strstr(ans, " 1:motor:bid=1:configured=0:silent=0"));
	assert_non_null(strstr(ans, " 5:hand:bid=5:configured=0:silent=0"));

	/* A reset forgets the Bids; a wrong BoardId gets no Bid. */
	chain_reset(s);
	assert_int_equal(request(s, 1, DCM_RS485_IDENT, NULL, 0, false), 0);
	send_bytes(s, buf, dcm_rs485_put_assign(buf, sizeof(buf), false, 0x4e410102, 1));
	assert_int_equal(gather(s, 1, 0, QUIET_MS), 0);
	assert_int_equal(request(s, 0, DCM_RS485_CHAIN_QUERY, NULL, 0, true), 1);
	assert_int_equal(dcm_rs485_get_ident(&s->f[0], &id), 0);
	assert_int_equal(id.board_id, 0x4e410101);
}

static void test_config(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	struct dcm_mb_config c;
	struct dcm_rs485_frame f;
	u8 buf[DCM_RS485_MAX_FRAME];
	char ans[1024];
	int len;

	chain(s, bus1, 1, 5);
	assert_int_equal(configure(s, 1, 1000, 2000), DCM_MB_CONFIG_OK);

	/* Not its Bid, another StructVersion, a short structure. */
	config_of(&c, 2, 1000, 2000);
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_int_equal(dcm_rs485_parse_frame(buf, len, &f), len);
	assert_int_equal(config_raw(s, 3, f.payload, f.len), DCM_MB_CONFIG_BAD_BID);
	f.payload[0] = 2;
	assert_int_equal(config_raw(s, 2, f.payload, f.len), DCM_MB_CONFIG_BAD_VERSION);
	f.payload[0] = 1;
	assert_int_equal(config_raw(s, 2, f.payload, 10), DCM_MB_CONFIG_BAD_VALUE);
	/* A hand board has no configuration. */
	config_of(&c, 5, 1000, 2000);
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_int_equal(dcm_rs485_parse_frame(buf, len, &f), len);
	assert_int_equal(config_raw(s, 5, f.payload, f.len), DCM_MB_CONFIG_BAD_VALUE);
	/* No Bid 6. */
	config_of(&c, 6, 1000, 2000);
	len = dcm_rs485_put_config(buf, sizeof(buf), &c);
	assert_int_equal(dcm_rs485_parse_frame(buf, len, &f), len);
	assert_int_equal(config_raw(s, 6, f.payload, f.len), -1);

	ctl(s, "status\n", ans, sizeof(ans));
	assert_non_null(strstr(ans, " 1:motor:bid=1:configured=1:"));
	assert_non_null(strstr(ans, " 2:motor:bid=2:configured=0:"));
	assert_non_null(strstr(ans, " 3:motor:bid=3:configured=0:"));
	/* A chaining reset forgets the configuration. */
	chain_reset(s);
	ctl(s, "status\n", ans, sizeof(ans));
	assert_non_null(strstr(ans, " 1:motor:bid=0:configured=0:"));
}

#define HALF_RAD_16	5215	/* 0.5 rad, 65536 per turn */
#define HALF_RAD_MRE	326	/* 0.5 rad, 4096 per turn */

static void test_cycle(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	struct dcm_rs485_slot slots[5];
	struct dcm_rs485_reply r;
	struct dcm_mb_status st;
	struct dcm_mb_cmd c = { { HALF_RAD_16, (u16)-HALF_RAD_16 }, { 1000, 1000 } };
	bool seen_inj = false, seen_hot = false;
	int i, b;

	chain(s, bus1, 1, 5);
	for (b = 1; b <= 4; b++)
		if (b != 2)
			assert_int_equal(configure(s, b, 1000 + b, 3000 - b), DCM_MB_CONFIG_OK);
	memset(slots, 0, sizeof(slots));
	for (b = 0; b < 4; b++)
		dcm_mb_put_cmd(&slots[b], &c);

	/* Every board answers every cycle; the commanded joints get there. */
	for (i = 0; i < 300; i++) {
		assert_int_equal(cycle(s, 5, slots), 5);
		for (b = 1; b <= 5; b++)
			assert_non_null(reply_of(s, b, &r));
		reply_of(s, 1, &r);
		dcm_mb_get_status(r.data, &st);
		if (abs(st.angle[0] - HALF_RAD_MRE) <= 1 && abs(st.angle[1] + HALF_RAD_MRE) <= 1)
			break;
		usleep(10000);
	}
	assert_true(i < 300);
	assert_int_equal(r.flags, DCM_RS485_RF_CONFIGURED | DCM_RS485_RF_LOOP1 |
			 DCM_RS485_RF_LOOP2);
	assert_int_equal(st.error, 0);
	assert_true(st.temperature[0] >= 50);
	/* Board 2 has no configuration: no loop, it stays. */
	reply_of(s, 2, &r);
	dcm_mb_get_status(r.data, &st);
	assert_int_equal(r.flags, 0);
	assert_true(abs(st.angle[0]) <= 1);
	/* The hand: no flags, its pads. */
	reply_of(s, 5, &r);
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.data[0], 0);
	ctl_ok(s, "touch 5 5\n");
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 5, &r);
	assert_int_equal(r.data[0], 5);

	/* Free: both motors below 0. */
	c.hardness[0] = c.hardness[1] = -1;
	dcm_mb_put_cmd(&slots[2], &c);
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 3, &r);
	assert_int_equal(r.flags, DCM_RS485_RF_CONFIGURED | DCM_RS485_RF_FREE);

	/* Errors in turn: one injected, a hot board's. */
	ctl_ok(s, "error 1 0x51\n");
	ctl_ok(s, "hot 1 on\n");
	for (i = 0; i < 4; i++) {
		assert_int_equal(cycle(s, 5, slots), 5);
		reply_of(s, 1, &r);
		dcm_mb_get_status(r.data, &st);
		assert_int_equal(st.temp_status[0], 2);
		if (st.error == 0x51)
			seen_inj = true;
		else if (st.error == 0x23)
			seen_hot = true;
		else
			fail_msg("error byte 0x%02x", st.error);
	}
	assert_true(seen_inj && seen_hot);
	ctl_ok(s, "error 1 off\n");
	/* MREs without data: the loop cut, MOTOR1/2_NOT_ASSERV. */
	ctl_ok(s, "mre 4 on\n");
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 4, &r);
	dcm_mb_get_status(r.data, &st);
	assert_int_equal(r.flags & (DCM_RS485_RF_LOOP1 | DCM_RS485_RF_LOOP2), 0);
	assert_true(st.error == 0xe2 || st.error == 0xf2);

	/* The watchdog: 500 ms without a broadcast. */
	usleep(600000);
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 1, &r);
	assert_true(r.flags & DCM_RS485_RF_WATCHDOG);
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 1, &r);
	assert_false(r.flags & DCM_RS485_RF_WATCHDOG);
}

/* The hand's motor (board 4's second, before the hand board): an aperture. */
static void test_hand_motor(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	static const u16 targets[] = { 700, 200 };
	struct dcm_rs485_slot slots[5];
	struct dcm_rs485_reply r;
	struct dcm_mb_status st = { 0 };
	struct dcm_mb_cmd c = { { 0, 0 }, { 800, 800 } };
	unsigned int t;
	int i;

	chain(s, bus1, 1, 5);
	assert_int_equal(configure(s, 4, 2221, 799), DCM_MB_CONFIG_OK);
	memset(slots, 0, sizeof(slots));
	for (t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		c.position[1] = targets[t];
		dcm_mb_put_cmd(&slots[3], &c);
		for (i = 0; i < 300; i++) {
			assert_int_equal(cycle(s, 5, slots), 5);
			assert_non_null(reply_of(s, 4, &r));
			dcm_mb_get_status(r.data, &st);
			/* Per mil, within 0..1000 all the way. */
			assert_true(st.angle[1] >= 0 && st.angle[1] <= 1000);
			if (st.angle[1] == targets[t])
				break;
			usleep(10000);
		}
		assert_int_equal(st.angle[1], targets[t]);
	}
	/* Past its stops: held at open. */
	c.position[1] = 1500;
	dcm_mb_put_cmd(&slots[3], &c);
	for (i = 0; i < 300 && st.angle[1] != 1000; i++) {
		assert_int_equal(cycle(s, 5, slots), 5);
		reply_of(s, 4, &r);
		dcm_mb_get_status(r.data, &st);
		usleep(10000);
	}
	assert_int_equal(st.angle[1], 1000);
}

static void test_silent(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	struct dcm_rs485_slot slots[5] = { 0 };
	struct dcm_rs485_reply r;
	char ans[1024];

	chain(s, bus1, 1, 5);
	ctl(s, "silent 2 on\n", ans, sizeof(ans));
	assert_string_equal(ans, "ok silent 2 on");
	assert_int_equal(cycle_of(s, 5, slots, true), 4);
	assert_null(reply_of(s, 2, &r));
	assert_non_null(reply_of(s, 1, &r));
	assert_non_null(reply_of(s, 3, &r));
	assert_non_null(reply_of(s, 5, &r));
	assert_int_equal(request(s, 2, DCM_RS485_IDENT, NULL, 0, false), 0);
	ctl(s, "status\n", ans, sizeof(ans));
	assert_non_null(strstr(ans, " 2:motor:bid=2:configured=0:silent=1"));
	ctl_ok(s, "silent 2 off\n");
	assert_int_equal(cycle(s, 5, slots), 5);

	/* A silent board stops the chain there. */
	ctl_ok(s, "silent 3 on\n");
	chain(s, bus1, 1, 2);
}

static void test_crc(void **state)
{
	struct sim *s = *state = sim_up(NULL, NULL);
	struct dcm_rs485_slot slots[5] = { 0 };
	char ans[1024];

	chain(s, bus1, 1, 5);
	ctl_ok(s, "crc 1000000\n");
	assert_int_equal(cycle_bytes(s, 5, slots), 0);
	assert_true(s->cyc.bad >= 1);
	assert_int_equal(s->cyc.dropped, 5 * DCM_RS485_REPLY_FRAME);
	assert_int_equal(request(s, 1, DCM_RS485_IDENT, NULL, 0, false), 0);
	assert_true(s->rx.crc_errors >= 1);
	ctl(s, "status\n", ans, sizeof(ans));
	assert_non_null(strstr(ans, " corrupted=6 crc_ppm=1000000 "));
	ctl_ok(s, "crc 0\n");
	assert_int_equal(cycle(s, 5, slots), 5);
	assert_int_equal(s->cyc.bad, 0);
	/* Half of them, about. */
	ctl_ok(s, "crc 500000\n");
	{
		int i, good = 0;

		for (i = 0; i < 20; i++)
			good += cycle_bytes(s, 5, slots);
		assert_in_range(good, 20, 80);
	}
}

static void test_control(void **state)
{
	struct sim *s = *state = sim_start(NULL, NULL);
	char ans[1024];

	/* Commands before the bus's connection, lines in pieces, CR LF. */
	s->cfd = connect_to(s->ctl);
	assert_int_equal(write(s->cfd, "sta", 3), 3);
	ctl(s, "tus\r\n", ans, sizeof(ans));
	assert_true(!strncmp(ans, "ok cycles=0 ", 12));
	ctl_ok(s, "help\n");
	ctl_error(s, "bogus\n");
	ctl_error(s, "silent 0 on\n");
	ctl_error(s, "silent 6 on\n");
	ctl_error(s, "silent 2 maybe\n");
	ctl_error(s, "silent 2\n");
	ctl_error(s, "crc 1000001\n");
	ctl_error(s, "crc -1\n");
	ctl_error(s, "mre 5 on\n");
	ctl_error(s, "touch 1 1\n");
	ctl_error(s, "touch 5 8\n");
	ctl_error(s, "bumpers 5 1\n");
	ctl_error(s, "error 1 256\n");
	/*
	 * An empty line, or an answer echoed back, gets no answer: the next
	 * answer is the next command's.
	 */
	ctl(s, "\n \nok silent 1 on\nerror: x\nstatus\n", ans, sizeof(ans));
	assert_true(!strncmp(ans, "ok cycles=", 10));
	/* Too long a line. */
	{
		char line[600];

		memset(line, 'x', sizeof(line) - 2);
		line[sizeof(line) - 2] = '\n';
		line[sizeof(line) - 1] = '\0';
		ctl_error(s, line);
	}
	/* Another connection after this one. */
	close(s->cfd);
	s->cfd = connect_to(s->ctl);
	ctl_ok(s, "silent 1 on\n");
	s->fd = connect_to(s->sock);
	assert_int_equal(request(s, 0, DCM_RS485_CHAIN_QUERY, NULL, 0, false), 0);
	ctl_ok(s, "silent 1 off\n");
	chain(s, bus1, 1, 5);
}

static void test_foot_bus(void **state)
{
	static const u8 bus3[] = {
		DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_MOTOR, DCM_BOARD_FOOT,
	};
	struct sim *s = *state = sim_up("--bus", "RS485-3");
	struct dcm_rs485_slot slots[5] = { 0 };
	struct dcm_rs485_regs rg = { .reg = DCM_REG_WHOAMI, .count = 2 };
	struct dcm_rs485_reply r;
	struct dcm_foot_in in;
	u8 buf[DCM_RS485_MAX_FRAME], led[3] = { 10, 20, 30 };

	chain(s, bus3, 3, 5);
	/* Registers: the foot's WHOAMI, its LEDs; a motor board has none. */
	send_bytes(s, buf, dcm_rs485_put_regs(buf, sizeof(buf), 5, DCM_RS485_REG_READ, &rg));
	assert_int_equal(gather(s, 1, 0, WAIT_MS), 1);
	assert_int_equal(dcm_rs485_get_regs(&s->f[0], &rg), 0);
	assert_int_equal(s->f[0].cmd, DCM_RS485_REG_READ | DCM_RS485_REPLY);
	assert_int_equal(rg.count, 2);
	assert_int_equal(rg.data[0], DCM_WHOAMI_FOOT);
	send_bytes(s, buf, dcm_rs485_put_regs(buf, sizeof(buf), 1, DCM_RS485_REG_READ, &rg));
	assert_int_equal(gather(s, 1, 0, QUIET_MS), 0);
	rg.reg = DCM_FOOT_LED;
	rg.count = 3;
	memcpy(rg.data, led, 3);
	send_bytes(s, buf, dcm_rs485_put_regs(buf, sizeof(buf), 5, DCM_RS485_REG_WRITE, &rg));
	assert_int_equal(gather(s, 1, 0, WAIT_MS), 1);
	assert_int_equal(dcm_rs485_get_regs(&s->f[0], &rg), 0);
	assert_int_equal(rg.status, 0);
	rg.reg = DCM_FOOT_BUMPERS;
	rg.count = 1;
	send_bytes(s, buf, dcm_rs485_put_regs(buf, sizeof(buf), 5, DCM_RS485_REG_WRITE, &rg));
	assert_int_equal(gather(s, 1, 0, WAIT_MS), 1);
	assert_int_equal(dcm_rs485_get_regs(&s->f[0], &rg), 0);
	assert_int_equal(rg.status, 1);
	rg.reg = DCM_FOOT_LED;
	rg.count = 3;
	send_bytes(s, buf, dcm_rs485_put_regs(buf, sizeof(buf), 5, DCM_RS485_REG_READ, &rg));
	assert_int_equal(gather(s, 1, 0, WAIT_MS), 1);
	assert_int_equal(dcm_rs485_get_regs(&s->f[0], &rg), 0);
	assert_memory_equal(rg.data, led, 3);

	/* The cycle: its bumpers and the weight on its FSRs. */
	ctl_ok(s, "bumpers 5 2\n");
	assert_int_equal(cycle(s, 5, slots), 5);
	reply_of(s, 5, &r);
	dcm_foot_get_in(r.data, &in);
	assert_false(in.bumper[0]);
	assert_true(in.bumper[1]);
	assert_in_range(in.fsr[0] + in.fsr[1] + in.fsr[2] + in.fsr[3], 2000, 3200);
}

static void test_board_list(void **state)
{
	static const u8 types[] = { DCM_BOARD_HAND, DCM_BOARD_MOTOR, DCM_BOARD_FOOT };
	struct sim *s = *state = sim_up("--boards", "hand,motor,foot");

	chain(s, types, 1, 3);
}

/* Bad command lines: usage, status 2. */
static void test_usage(void **state)
{
	static const char *const bad[][4] = {
		{ "x.sock", "--bus", "RS485-5", NULL },
		{ "x.sock", "--boards", "motor,wheel", NULL },
		{ "x.sock", "--boards",
		  "motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor,motor",
		  NULL },
		{ "--bus", "RS485-1", NULL },
		{ "a.sock", "b.sock", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int status = -1;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			const char *argv[] = { BOARDSIM, bad[i][0], bad[i][1], bad[i][2], NULL };
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 2);
			execv(BOARDSIM, (char **)argv);
			_exit(127);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 2);
	}
}

/* Whatever a test left running is stopped, and must stop cleanly. */
static int teardown(void **state)
{
	sim_stop(*state);
	*state = NULL;
	return 0;
}

#define T(test)	cmocka_unit_test_teardown(test, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_chain),
		T(test_config),
		T(test_cycle),
		T(test_hand_motor),
		T(test_silent),
		T(test_crc),
		T(test_control),
		T(test_foot_bus),
		T(test_board_list),
		T(test_usage),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
