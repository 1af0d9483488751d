// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: its state as text, on the status socket (SOCKET.status), and
 * `dcm-lola --status`, which prints it. The timings' statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "lola_daemon.h"

void lola_timing_add(struct lola_timing *t, int64_t ns)
{
	uint64_t us = ns > 0 ? (uint64_t)ns / 1000 : 0;
	unsigned int b = 0;

	t->last_ns = ns > 0 ? (uint64_t)ns : 0;
	t->sum_ns += t->last_ns;
	t->n++;
	if (t->last_ns > t->max_ns)
		t->max_ns = t->last_ns;
	while (b + 1 < LOLA_HIST_BUCKETS && us >= (16ULL << b))
		b++;
	t->hist[b]++;
}

uint64_t lola_timing_median_us(const struct lola_timing *t)
{
	uint64_t seen = 0;
	unsigned int b;

	for (b = 0; b < LOLA_HIST_BUCKETS; b++) {
		seen += t->hist[b];
		if (t->n && seen * 2 >= t->n)
			return 16ULL << b;
	}
	return 0;
}

static int format_status(const struct lola_daemon *d, char *buf, size_t len)
{
	const struct lola_opts *o = &d->opt;
	const struct lola_feed *f = &d->feed;
	const struct lola_clients *cl = &d->clients;
	const struct lola_command *k = &d->cmd;
	int64_t now = lola_now_ns();
	size_t off = 0;
	unsigned int i;

#define OUT(...) do { \
		int _n = snprintf(buf + off, len - off, __VA_ARGS__); \
		if (_n > 0) off = off + (size_t)_n < len ? off + (size_t)_n : len - 1; \
	} while (0)
	OUT("socket %s\n", o->socket_path);
	OUT("device %s\n", o->device);
	OUT("uptime_ms %" PRId64 "\n", (now - d->start_ns) / 1000000);
	OUT("cycles %" PRIu64 "\n", f->cycles);
	OUT("missed %" PRIu64 "\n", f->missed);
	OUT("late %" PRIu64 "\n", f->late);
	OUT("packets_out %" PRIu64 "\n", cl->packets_out);
	OUT("drops %" PRIu64 "\n", cl->drops);
	OUT("packets_in %" PRIu64 "\n", cl->packets_in);
	OUT("refused %" PRIu64 "\n", cl->refused);
	OUT("clamped %" PRIu64 "\n", k->clamped);
	OUT("readonly_refused %" PRIu64 "\n", cl->readonly);
	OUT("clients %u\n", cl->n);
	OUT("clients_total %" PRIu64 "\n", cl->total);
	OUT("clients_dropped %" PRIu64 "\n", cl->dropped);
	OUT("commander %u\n", k->commander);
	OUT("commands_taken %" PRIu64 "\n", k->taken);
	OUT("silences %" PRIu64 "\n", k->silences);
	OUT("timed_out %" PRIu64 "\n", cl->timed_out);
	OUT("log_lines %" PRIu64 " suppressed %" PRIu64 "\n", d->log.lines, d->log.suppressed);
	OUT("watchdog %s timeout_ms %u\n", o->action == LIBDCM_WATCHDOG_HOLD ? "hold" : "ramp",
	    o->timeout_ms);
	if (o->action == LIBDCM_WATCHDOG_RAMP)
		OUT("ramp_ms %u\n", o->ramp_ms);
	OUT("latency_us last %" PRIu64 " mean %" PRIu64 " max %" PRIu64 " median_below %" PRIu64
	    "\n", f->lat.last_ns / 1000, f->lat.n ? f->lat.sum_ns / f->lat.n / 1000 : 0,
	    f->lat.max_ns / 1000, lola_timing_median_us(&f->lat));
	OUT("apply_us last %" PRIu64 " mean %" PRIu64 " max %" PRIu64 " median_below %" PRIu64
	    "\n", cl->app.last_ns / 1000, cl->app.n ? cl->app.sum_ns / cl->app.n / 1000 : 0,
	    cl->app.max_ns / 1000, lola_timing_median_us(&cl->app));
	for (i = 0; i < cl->n; i++) {
		const struct lola_client *c = cl->v[i];

		OUT("client %u pid %d uid %u role %s sent %" PRIu64 " drops %" PRIu64
		    " accepted %" PRIu64 " refused %" PRIu64 " readonly %" PRIu64
		    " connected_ms %" PRId64 " clamped %" PRIu64 "\n",
		    c->id, (int)c->pid, (unsigned int)c->uid,
		    k->commander == c->id ? "commander" : "reader", c->sent, c->drops,
		    c->accepted, c->refused, c->readonly, (now - c->connected_ns) / 1000000,
		    c->clamped);
	}
#undef OUT
	return (int)off;
}

void lola_status_serve(struct lola_daemon *d)
{
	static char buf[65536];
	int fd, n;

	fd = accept4(d->lstatus.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	n = format_status(d, buf, sizeof(buf));
	if (send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		lola_clientlog(&d->log, (struct lola_client *)NULL, LOLA_LOG_CONNECT, "status: %s",
			       strerror(errno));
	close(fd);
}

int lola_status_client(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char buf[4096];
	uid_t peer = 0;
	ssize_t n;
	int fd;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "dcm-lola: %s: %s (is dcm-lola running?)\n", path,
			strerror(errno));
		return 1;
	}
	/* Only root's or one's own dcm-lola: a user's server there would lie. */
	if (lola_peer_trusted(fd, geteuid(), &peer)) {
		fprintf(stderr, "dcm-lola: %s is served by uid %u, neither root nor you: "
			"not dcm-lola's status\n", path, (unsigned int)peer);
		close(fd);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}
