/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Foxglove WebSocket protocol (foxglove.websocket.v1), a client at a
 * time: the server's information and the channels advertised when it
 * connects, its subscriptions, its statuses; and the stream published to
 * the clients subscribed.
 */
#ifndef DCM_WEB_FOXGLOVE_H
#define DCM_WEB_FOXGLOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libwebsockets.h>

#include "queue.h"

struct web_server;

#define WEB_MAX_SUBS 64		/* subscriptions per client */

struct web_sub {
	uint32_t id;
	unsigned int channel;
};

/* One WebSocket client: libwebsockets' per-session data of the protocol. */
struct web_client {
	struct web_queue q;
	struct web_client *next;
	struct web_sub subs[WEB_MAX_SUBS];
	unsigned int n_subs;
	char *rx;		/* the message being received */
	size_t rx_len;
};

/* The protocol's libwebsockets callback. */
int web_foxglove_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			  void *in, size_t len);

/* The channel ids of the statistics and the events. */
unsigned int web_chan_cycle(const struct web_server *s);
unsigned int web_chan_events(const struct web_server *s);

/* Whether a client subscribes to @channel. */
bool web_subscribed(const struct web_server *s, unsigned int channel);
/* Send @data to every subscription of @channel: messageData frames. */
void web_publish(struct web_server *s, unsigned int channel, const void *data, size_t len,
		 uint64_t ts);
/* The description was replaced: the model built again, the channels advertised again. */
void web_readvertise(struct web_server *s);

#endif /* DCM_WEB_FOXGLOVE_H */
