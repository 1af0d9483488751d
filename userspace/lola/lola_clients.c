// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: the clients. Each gets every cycle's sensor map whole or not at
 * all (a client that does not read loses whole maps); its actuator maps are
 * read as they come, checked as a whole, and applied at once if it commands
 * or may take command. A map that cannot be a LoLA map is refused; a client
 * whose maps are refused --max-errors times in a row is disconnected; bytes
 * that are no MessagePack disconnect at once.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "lola_daemon.h"

#define READONLY_LOG_EVERY	100	/* a read-only client's refusals: 1st, 101st, ... */

int lola_clients_init(struct lola_clients *cl, unsigned int max)
{
	memset(cl, 0, sizeof(*cl));
	cl->v = calloc(max, sizeof(*cl->v));
	return cl->v ? 0 : -ENOMEM;
}

struct lola_client *lola_client_find(const struct lola_clients *cl, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < cl->n; i++)
		if (cl->v[i]->id == id)
			return cl->v[i];
	return NULL;
}

void lola_client_drop(struct lola_daemon *d, struct lola_client *c, const char *why)
{
	if (c->gone)
		return;
	c->gone = true;
	lola_clientlog(&d->log, c, LOLA_LOG_CONNECT, "client %u (pid %d) %s", c->id, (int)c->pid,
		       why);
	if (d->cmd.commander == c->id)
		lola_command_release(&d->cmd, &d->log, c, "disconnected", true,
				     d->feed.last_cycle);
	lola_log_client_gone(&d->log, &c->log, c->id, (uint64_t)lola_now_ns() / 1000000);
}

static void refuse(struct lola_daemon *d, struct lola_client *c, const char *why)
{
	c->refused++;
	d->clients.refused++;
	c->errors++;
	lola_clientlog(&d->log, c, LOLA_LOG_REFUSED, "client %u: packet refused, nothing applied: %s",
		       c->id, why);
	if (d->opt.max_errors && c->errors >= d->opt.max_errors) {
		char msg[96];

		snprintf(msg, sizeof(msg), "dropped after %u refused packets in a row", c->errors);
		d->clients.dropped++;
		lola_client_drop(d, c, msg);
	}
}

/* Merge @b into @a: the groups @b has replace @a's. */
static void merge(struct lola_actuators *a, const struct lola_actuators *b)
{
	unsigned int grp;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++)
		if (b->present & (1U << grp))
			memcpy(a->v[grp], b->v[grp], sizeof(a->v[grp]));
	a->present |= b->present;
}

/*
 * The commander closed its socket, and dcm-lola has not read to its end
 * yet (a hand-over: one client's last map and close(), the next one's map
 * at once, read in either order). Its last maps are read and applied now
 * and it is dropped, so the next one's map takes command rather than
 * being refused as read-only. True if command is free then.
 */
static bool commander_left(struct lola_daemon *d)
{
	struct lola_client *m = lola_client_find(&d->clients, d->cmd.commander);
	struct pollfd p;
	unsigned int k;

	if (!m)
		return false;
	p = (struct pollfd){ .fd = m->fd, .events = POLLRDHUP };
	if (!m->hup && (poll(&p, 1, 0) != 1 || !(p.revents & (POLLRDHUP | POLLHUP | POLLERR))))
		return false;
	for (k = 0; k < 16 && !m->gone; k++)
		lola_client_read(d, m);
	return !d->cmd.commander;
}

/* Apply the maps @c sent in one read, merged; it takes command if it may. */
static void client_apply(struct lola_daemon *d, struct lola_client *c,
			 struct lola_actuators *merged, int64_t t0)
{
	char err[LOLA_ERR_LEN];
	int64_t t1;

	if (!d->cmd.cmd && (c->denied || lola_command_take(&d->cmd, &d->log, c))) {
		c->denied = true;
		c->readonly++;
		d->clients.readonly++;
		return;
	}
	if (d->cmd.commander != c->id)
		return;
	lola_command_clamp(&d->cmd, c, merged);
	if (lola_command_apply(&d->cmd, merged, d->feed.last_time)) {
		snprintf(err, sizeof(err), "the controller refused it: %s", dcm_last_error());
		refuse(d, c, err);
		return;
	}
	t1 = lola_now_ns();
	d->cmd.cmd_cycle = d->feed.last_cycle;
	c->accepted++;
	d->clients.packets_in++;
	c->last_cmd_ns = t1;
	lola_idle_applied(&c->idle);
	lola_timing_add(&d->clients.app, t1 - t0);
}

/*
 * What came from the client, into its reader's buffer (not yet consumed):
 * the byte count, or 0 when there is nothing (the client dropped if it is
 * gone).
 */
static ssize_t client_recv(struct lola_daemon *d, struct lola_client *c)
{
	ssize_t n;
	char *buf;

	buf = lola_reader_buffer(&c->rd, LOLA_MAX_PACKET);
	if (!buf) {
		lola_client_drop(d, c, "disconnected: out of memory");
		return 0;
	}
	n = recv(c->fd, buf, LOLA_MAX_PACKET, MSG_DONTWAIT);
	if (n == 0) {
		lola_client_drop(d, c, "disconnected");
		return 0;
	}
	if (n < 0) {
		if (errno == ECONNRESET)
			lola_client_drop(d, c, "disconnected");
		else if (errno != EAGAIN && errno != EINTR)
			lola_client_drop(d, c, strerror(errno));
		return 0;
	}
	return n;
}

/*
 * One packet of @size bytes: refused when it is too large or not a
 * packet, counted when another client holds command, otherwise merged
 * into @merged (true).
 */
static bool take_packet(struct lola_daemon *d, struct lola_client *c, const msgpack_object *o,
			size_t size, struct lola_actuators *merged)
{
	struct lola_actuators one;
	char err[LOLA_ERR_LEN];

	if (size > LOLA_MAX_PACKET) {
		snprintf(err, sizeof(err), "oversized packet: %zu bytes (limit %d)", size,
			 LOLA_MAX_PACKET);
		refuse(d, c, err);
	} else if (lola_decode_actuators(o, &one, err, sizeof(err))) {
		refuse(d, c, err);
	} else if (d->cmd.commander && d->cmd.commander != c->id && !commander_left(d)) {
		c->readonly++;
		d->clients.readonly++;
		if (c->readonly % READONLY_LOG_EVERY == 1)
			lola_clientlog(&d->log, c, LOLA_LOG_READONLY,
				       "client %u: packet refused (%" PRIu64 " so far): "
				       "read-only, client %u holds command", c->id,
				       c->readonly, d->cmd.commander);
	} else {
		c->errors = 0;
		merge(merged, &one);
		return true;
	}
	return false;
}

void lola_client_read(struct lola_daemon *d, struct lola_client *c)
{
	struct lola_actuators merged = { 0 };
	const msgpack_object *o;
	char err[LOLA_ERR_LEN];
	bool any = false;
	int64_t t0;
	size_t size;
	ssize_t n;
	size_t had, left;

	n = client_recv(d, c);
	if (n <= 0)
		return;
	t0 = lola_now_ns();
	lola_reader_consumed(&c->rd, (size_t)n);
	had = msgpack_unpacker_message_size(&c->rd.unp) - (size_t)n;
	for (;;) {
		enum lola_read_status st = lola_reader_next(&c->rd, &o, &size, err, sizeof(err));

		if (st == LOLA_READ_NONE)
			break;
		if (st == LOLA_READ_FATAL) {
			char msg[LOLA_ERR_LEN + 40];

			c->refused++;
			d->clients.refused++;
			snprintf(msg, sizeof(msg), "dropped: %s", err);
			d->clients.dropped++;
			lola_client_drop(d, c, msg);
			return;
		}
		if (take_packet(d, c, o, size, &merged))
			any = true;
		if (c->gone)
			return;
	}
	/* A map ended in this read if less than all that came is left unfinished. */
	left = msgpack_unpacker_message_size(&c->rd.unp);
	lola_idle_read(&c->idle, left < had + (size_t)n, left > 0, t0);
	if (any)
		client_apply(d, c, &merged, t0);
}

/*
 * A client that closed its socket may still have maps unread on ours (a
 * B-Human-style exit: the last map, then close() at once): they are read
 * and applied before it is dropped, when the read meets the end.
 */
static void send_failed(struct lola_daemon *d, struct lola_client *c)
{
	if (errno == EPIPE || errno == ECONNRESET) {
		c->hup = true;
		c->pend_len = c->pend_off = 0;
	} else {
		lola_client_drop(d, c, strerror(errno));
	}
}

bool lola_client_flush(struct lola_daemon *d, struct lola_client *c)
{
	ssize_t n;

	while (c->pend_off < c->pend_len) {
		n = send(c->fd, c->pend + c->pend_off, c->pend_len - c->pend_off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return false;
			send_failed(d, c);
			return false;
		}
		c->pend_off += (size_t)n;
	}
	c->pend_len = c->pend_off = 0;
	lola_idle_sent(&c->idle, true, lola_now_ns());
	return true;
}

void lola_client_send(struct lola_daemon *d, struct lola_client *c, const uint8_t *pkt)
{
	ssize_t n;

	if (c->pend_len && !lola_client_flush(d, c)) {
		if (!c->gone) {
			c->drops++;
			d->clients.drops++;
			lola_idle_sent(&c->idle, false, lola_now_ns());
		}
		return;
	}
	n = send(c->fd, pkt, LOLA_SENSOR_SIZE, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR) {
			c->drops++;
			d->clients.drops++;
			lola_idle_sent(&c->idle, false, lola_now_ns());
		} else {
			send_failed(d, c);
		}
		return;
	}
	c->sent++;
	d->clients.packets_out++;
	lola_idle_sent(&c->idle, (size_t)n == LOLA_SENSOR_SIZE, lola_now_ns());
	if ((size_t)n < LOLA_SENSOR_SIZE) {
		/* The stream must stay whole: the rest goes first next time. */
		c->pend_len = LOLA_SENSOR_SIZE - (size_t)n;
		c->pend_off = 0;
		memcpy(c->pend, pkt + n, c->pend_len);
	}
}

void lola_client_free(struct lola_client *c)
{
	close(c->fd);
	lola_reader_destroy(&c->rd);
	free(c);
}

void lola_clients_reap(struct lola_clients *cl)
{
	unsigned int i, j = 0;

	for (i = 0; i < cl->n; i++) {
		if (cl->v[i]->gone)
			lola_client_free(cl->v[i]);
		else
			cl->v[j++] = cl->v[i];
	}
	cl->n = j;
}

void lola_clients_check(struct lola_daemon *d)
{
	int64_t now = lola_now_ns();
	char why[160];
	unsigned int i;

	for (i = 0; i < d->clients.n; i++) {
		struct lola_client *c = d->clients.v[i];

		if (c->gone)
			continue;
		if (lola_idle_expired(&c->idle, now, d->opt.idle_ms, d->opt.map_ms, why,
				      sizeof(why))) {
			d->clients.timed_out++;
			lola_client_drop(d, c, why);
			continue;
		}
		lola_log_sweep(&d->log, &c->log, c->id, (uint64_t)now / 1000000);
	}
	lola_log_sweep(&d->log, NULL, 0, (uint64_t)now / 1000000);
}

void lola_client_accept(struct lola_daemon *d, int listen_fd)
{
	struct ucred cred = { 0 };
	socklen_t len = sizeof(cred);
	struct lola_client *c;
	int fd;

	fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (d->clients.n >= d->opt.max_clients) {
		lola_clientlog(&d->log, (struct lola_client *)NULL, LOLA_LOG_CONNECT,
			       "connection refused: %u clients already (--max-clients)",
			       d->clients.n);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c || lola_reader_init(&c->rd)) {
		free(c);
		close(fd);
		return;
	}
	c->fd = fd;
	c->id = ++d->clients.next_id;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		c->pid = cred.pid;
		c->uid = cred.uid;
	}
	c->connected_ns = lola_now_ns();
	lola_log_client_init(&d->log, &c->log);
	d->clients.v[d->clients.n++] = c;
	d->clients.total++;
	lola_clientlog(&d->log, c, LOLA_LOG_CONNECT, "client %u connected (pid %d, uid %u)", c->id,
		       (int)c->pid, (unsigned int)c->uid);
}
