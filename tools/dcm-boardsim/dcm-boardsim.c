// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-boardsim: simulated motor boards on a host socket, for the RS485 bus
 * that the test VM carries on QEMU's second UART.
 *
 *   dcm-boardsim SOCKET
 *
 * Listens on the UNIX socket SOCKET, takes QEMU's connection (-chardev
 * socket,path=SOCKET -serial chardev:...), and answers every cyclic
 * broadcast the dcm RS485 transport sends, as motor boards in Bid order:
 * the same wire code (kernel/wire/) and the same physics
 * (kernel/sim/sim_physics.c) as dcm_sim, built for the host. Ends when the
 * connection closes or on SIGTERM; prints what it saw on stderr.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sim/sim_physics.h"
#include "wire/dcm_wire_motor.h"

#define TWO_PI_URAD 6283185LL

static struct sim_motor motors[DCM_RS485_MAX_BOARDS][DCM_MB_MOTORS];
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static u32 elapsed_us(void)
{
	static struct timespec last;
	struct timespec now;
	long long us;

	clock_gettime(CLOCK_MONOTONIC, &now);
	us = last.tv_sec ? (now.tv_sec - last.tv_sec) * 1000000LL +
			   (now.tv_nsec - last.tv_nsec) / 1000 : 10000;
	last = now;
	return us < 0 ? 0 : us > 100000 ? 100000 : (u32)us;
}

/* The boards' replies to one broadcast, in @out; returns their length. */
static int answer(const struct dcm_rs485_cmd_frame *cmd, u8 *out, size_t size)
{
	u32 dt = elapsed_us(), i;
	size_t off = 0;
	int m, len;

	for (i = 0; i < cmd->n; i++) {
		struct dcm_rs485_reply reply = { .bid = i + 1, .seq = cmd->seq };
		struct dcm_mb_status st = { 0 };
		struct dcm_mb_cmd c;

		dcm_mb_get_cmd(&cmd->slot[i], &c);
		for (m = 0; m < DCM_MB_MOTORS; m++) {
			struct sim_motor *mo = &motors[i][m];
			s32 urad = (s32)((s64)(s16)c.position[m] * TWO_PI_URAD / 65536);
			s64 mre = (s64)mo->pos_urad * 4096;

			if (!mo->i_max_ma)
				sim_motor_init(mo, 1200, 6000000, -3141592, 3141592);
			mo->calibrated = true;
			sim_motor_command(mo, urad, (s32)c.hardness[m] * 1000);
			sim_motor_step(mo, dt);
			st.angle[m] = (s16)((mre + (mre < 0 ? -TWO_PI_URAD : TWO_PI_URAD) / 2) /
					    TWO_PI_URAD);
			st.current_ma[m] = mo->current_ma;
			st.temperature[m] = mo->temp_mc / 1000;
			st.temp_status[m] = sim_motor_temp_status(mo);
		}
		dcm_mb_put_status(reply.data, &st);
		len = dcm_rs485_put_reply(out + off, size - off, &reply);
		if (len < 0)
			return -1;
		off += len;
	}
	return off;
}

static int write_all(int fd, const u8 *buf, size_t len)
{
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

int main(int argc, char **argv)
{
	static u8 in[4096], out[DCM_RS485_MAX_BOARDS * DCM_RS485_REPLY_SLOT];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct dcm_rs485_cmd_frame cmd;
	struct dcm_rs485_rx rx;
	unsigned long cycles = 0;
	int ls, fd, len;
	ssize_t n, i;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: dcm-boardsim SOCKET\n");
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	strcpy(sa.sun_path, argv[1]);
	unlink(argv[1]);
	ls = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1)) {
		perror("dcm-boardsim: socket");
		return 1;
	}
	fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		perror("dcm-boardsim: accept");
		return 1;
	}
	dcm_rs485_rx_init(&rx);
	while (!stop) {
		n = read(fd, in, sizeof(in));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (i = 0; i < n; i++) {
			if (!dcm_rs485_rx_byte(&rx, in[i]))
				continue;
			do {
				if (dcm_rs485_get_cmd(&rx.frame, &cmd))
					continue;
				len = answer(&cmd, out, sizeof(out));
				if (len < 0 || write_all(fd, out, len))
					stop = 1;
				cycles++;
			} while (dcm_rs485_rx_next(&rx));
		}
	}
	fprintf(stderr, "dcm-boardsim: %lu cycles answered, %u CRC errors, %u bytes dropped\n",
		cycles, rx.crc_errors, rx.dropped);
	close(fd);
	close(ls);
	unlink(argv[1]);
	return 0;
}
