/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A WebSocket client's queue of messages to send: filled by the stream,
 * drained as the connection takes them, with the timer that drops a
 * client that reads nothing or answers no ping for --ws-timeout.
 */
#ifndef DCM_WEB_QUEUE_H
#define DCM_WEB_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lws;
struct web_server;

#define WEB_QUEUE_LEN 256	/* messages waiting per client */
/*
 * Of them, the last WEB_QUEUE_KEPT are kept for events, the URDF a new
 * subscription gets once and the server's own texts: a client too slow
 * for the frames loses frames, never the event that explains them.
 */
#define WEB_QUEUE_KEPT 64

struct web_msg {
	unsigned char *buf;	/* LWS_PRE bytes, then the payload */
	size_t len;
	bool binary;
};

struct web_queue {
	struct lws *wsi;
	struct web_msg msgs[WEB_QUEUE_LEN];
	unsigned int head, count;
	uint64_t progress_ns;	/* a message queued on an empty queue, or sent */
	uint64_t heard_ns;	/* connected, or a message or pong received */
	uint64_t ping_ns;	/* a ping unanswered sent then, or 0 */
	bool ping_due;		/* a ping to send */
	bool closing;		/* close once the queue is sent */
};

/* A new client's queue (zeroed) on @wsi, its timer started. */
void web_queue_open(struct web_queue *q, struct lws *wsi, unsigned int timeout_s);
/* Free what waits. */
void web_queue_free(struct web_queue *q);

/*
 * Queue a message (copied); a @kept one (an event) may take the last
 * WEB_QUEUE_KEPT places, others not. Return: 0, or -ENOBUFS when full.
 */
int web_queue_push(struct web_queue *q, const void *hdr, size_t hlen, const void *data,
		   size_t len, bool binary, bool kept);

/* Whether a queue holding @count messages has room for one more (@kept: an event). */
static inline bool web_queue_room(unsigned int count, bool kept)
{
	return count < (kept ? WEB_QUEUE_LEN : WEB_QUEUE_LEN - WEB_QUEUE_KEPT);
}
/* Queue a text message; a client that cannot even take it is closed. */
void web_queue_text(struct web_queue *q, const char *text);

/* The client was heard from: a message, or (@pong) the answer to the ping. */
void web_queue_heard(struct web_queue *q, bool pong);

/* The connection is writable: send a ping or a message. Return: 0, or -1 to close. */
int web_queue_drain(struct web_queue *q);

/* The client's timer (every --ws-timeout / 2). Return: 0, or -1 to drop it. */
int web_queue_timer(struct web_queue *q, struct web_server *s);

#endif /* DCM_WEB_QUEUE_H */
