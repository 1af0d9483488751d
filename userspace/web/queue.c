// SPDX-License-Identifier: GPL-2.0
/*
 * A WebSocket client's queue: the messages waiting for its connection,
 * sent one a writable callback, and the timer that drops it when it
 * stalls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "clock.h"
#include "log.h"
#include "queue.h"
#include "server.h"

void web_queue_open(struct web_queue *q, struct lws *wsi, unsigned int timeout_s)
{
	memset(q, 0, sizeof(*q));
	q->wsi = wsi;
	q->heard_ns = web_mono_ns();
	lws_set_timer_usecs(wsi, (lws_usec_t)timeout_s * LWS_US_PER_SEC / 2);
}

void web_queue_free(struct web_queue *q)
{
	while (q->count) {
		free(q->msgs[q->head].buf);
		q->head = (q->head + 1) % WEB_QUEUE_LEN;
		q->count--;
	}
}

int web_queue_push(struct web_queue *q, const void *hdr, size_t hlen, const void *data,
		   size_t len, bool binary, bool kept)
{
	struct web_msg *m;

	if (q->closing)
		return 0;
	if (!web_queue_room(q->count, kept))
		return -ENOBUFS;
	/* --ws-timeout without a message sent drops it (web_queue_timer()). */
	if (!q->count)
		q->progress_ns = web_mono_ns();
	m = &q->msgs[(q->head + q->count) % WEB_QUEUE_LEN];
	m->buf = malloc(LWS_PRE + hlen + len);
	if (!m->buf)
		return -ENOMEM;
	if (hlen)
		memcpy(m->buf + LWS_PRE, hdr, hlen);
	memcpy(m->buf + LWS_PRE + hlen, data, len);
	m->len = hlen + len;
	m->binary = binary;
	q->count++;
	lws_callback_on_writable(q->wsi);
	return 0;
}

void web_queue_text(struct web_queue *q, const char *text)
{
	if (web_queue_push(q, NULL, 0, text, strlen(text), false, true))
		q->closing = true;	/* cannot even tell it: drop the client */
}

void web_queue_heard(struct web_queue *q, bool pong)
{
	q->heard_ns = web_mono_ns();
	if (pong)
		q->ping_ns = 0;
}

int web_queue_drain(struct web_queue *q)
{
	struct web_msg *m;

	if (q->ping_due && !q->closing) {
		unsigned char ping[LWS_PRE + 1];

		q->ping_due = false;
		if (lws_write(q->wsi, ping + LWS_PRE, 0, LWS_WRITE_PING) < 0)
			return -1;
		if (q->count)
			lws_callback_on_writable(q->wsi);
		return 0;
	}
	if (!q->count)
		return q->closing ? -1 : 0;
	m = &q->msgs[q->head];
	if (lws_write(q->wsi, m->buf + LWS_PRE, m->len,
		      m->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) < (int)m->len)
		return -1;
	free(m->buf);
	q->head = (q->head + 1) % WEB_QUEUE_LEN;
	q->count--;
	q->progress_ns = web_mono_ns();
	if (q->count || q->closing)
		lws_callback_on_writable(q->wsi);
	return 0;
}

/*
 * A client with messages waiting that took none in --ws-timeout is
 * dropped; so is one that answered no ping in --ws-timeout, a ping being
 * sent after --ws-timeout heard nothing from it (a client that subscribes
 * to nothing is sent nothing, and would never stall).
 */
int web_queue_timer(struct web_queue *q, struct web_server *s)
{
	uint64_t now = web_mono_ns(), limit = (uint64_t)s->o.ws_timeout * 1000000000ull;

	if (q->count && now - q->progress_ns >= limit) {
		s->counters.stalled++;
		web_logrl(&s->rl, "a WebSocket client read nothing for %u s (%u messages waiting):"
			  " dropped", s->o.ws_timeout, q->count);
		return -1;
	}
	if (q->ping_ns && now - q->ping_ns >= limit) {
		s->counters.stalled++;
		web_logrl(&s->rl, "a WebSocket client answered no ping in %u s: dropped",
			  s->o.ws_timeout);
		return -1;
	}
	if (!q->ping_ns && now - q->heard_ns >= limit) {
		q->ping_ns = now;
		q->ping_due = true;
		lws_callback_on_writable(q->wsi);
	}
	lws_set_timer_usecs(q->wsi, (lws_usec_t)s->o.ws_timeout * LWS_US_PER_SEC / 2);
	return 0;
}
