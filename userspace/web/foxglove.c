// SPDX-License-Identifier: GPL-2.0
/*
 * The Foxglove WebSocket protocol (foxglove.websocket.v1), a client at a
 * time: serverInfo and advertise when it connects, subscribe and
 * unsubscribe from it, status messages to it; and the stream's messages
 * published to the subscriptions (messageData).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "foxglove.h"
#include "json.h"
#include "log.h"
#include "model.h"
#include "server.h"

#define RX_MAX 65536		/* longest message a client may send */

/* A status message: level 0 info, 1 warning, 2 error. */
static void send_status(struct web_client *c, int level, const char *text)
{
	char *buf = NULL;
	size_t sz;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return;
	fprintf(f, "{\"op\":\"status\",\"level\":%d,\"message\":", level);
	json_write_string(f, text);
	fputc('}', f);
	if (!fclose(f))
		web_queue_text(&c->q, buf);
	free(buf);
}

static void send_server_info(const struct web_server *s, struct web_client *c)
{
	struct dcm_info info;
	char buf[512];

	if (dcm_get_info(s->dcm, &info))
		memset(&info, 0, sizeof(info));
	snprintf(buf, sizeof(buf),
		 "{\"op\":\"serverInfo\",\"name\":\"dcm-web %s\",\"capabilities\":[],"
		 "\"supportedEncodings\":[],\"metadata\":{\"controller\":\"dcm%u\","
		 "\"driver\":\"%s\",\"period_us\":\"%u\",\"access\":\"read-only\"},"
		 "\"sessionId\":\"%" PRIu64 "\"}",
		 dcm_lib_version(), s->o.index, info.driver, info.period_us, s->session);
	web_queue_text(&c->q, buf);
}

static void send_advertise(const struct web_server *s, struct web_client *c)
{
	char *json = web_advertise_json(&s->model);

	if (json)
		web_queue_text(&c->q, json);
	free(json);
}

unsigned int web_chan_cycle(const struct web_server *s)
{
	return (unsigned int)s->model.n_channels + 1 + WEB_CHAN_CYCLE_OFFSET;
}

unsigned int web_chan_events(const struct web_server *s)
{
	return (unsigned int)s->model.n_channels + 1 + WEB_CHAN_EVENTS_OFFSET;
}

static bool channel_exists(const struct web_server *s, unsigned int id)
{
	const struct rec_channel *ch = web_model_channel(&s->model, id);

	unsigned int r;

	for (r = 0; r < REC_ROS_CHANNELS; r++)
		if (id == web_chan_ros(&s->model, r))
			return rec_ros_has(&s->model.ros, r);
	return ch || id == web_chan_cycle(s) || id == web_chan_events(s);
}

bool web_subscribed(const struct web_server *s, unsigned int channel)
{
	struct web_client *c;
	unsigned int i;

	for (c = s->clients; c; c = c->next)
		for (i = 0; i < c->n_subs; i++)
			if (c->subs[i].channel == channel)
				return true;
	return false;
}

/* A messageData frame of subscription @id to @c; @kept: an event's. */
static void publish_one(struct web_server *s, struct web_client *c, uint32_t id,
			const void *data, size_t len, uint64_t ts, bool kept)
{
	unsigned char hdr[13];
	unsigned int b;

	hdr[0] = 0x01;	/* messageData */
	for (b = 0; b < 4; b++)
		hdr[1 + b] = (unsigned char)(id >> (8 * b));
	for (b = 0; b < 8; b++)
		hdr[5 + b] = (unsigned char)(ts >> (8 * b));
	if (web_queue_push(&c->q, hdr, sizeof(hdr), data, len, true, kept))
		s->counters.dropped++;
}

void web_publish(struct web_server *s, unsigned int channel, const void *data, size_t len,
		 uint64_t ts)
{
	struct web_client *c;
	unsigned int i;

	for (c = s->clients; c; c = c->next)
		for (i = 0; i < c->n_subs; i++)
			if (c->subs[i].channel == channel)
				publish_one(s, c, c->subs[i].id, data, len, ts,
					    channel == web_chan_events(s));
}

/* A new subscription to /robot_description gets the URDF at once, sent once: kept as an event is. */
static void send_latched(struct web_server *s, struct web_client *c, uint32_t id,
			 unsigned int chan)
{
	unsigned char *msg;
	size_t len;

	if (chan != web_chan_ros(&s->model, REC_ROS_ROBOT_DESCRIPTION))
		return;
	msg = rec_ros_message(&s->model.ros, REC_ROS_ROBOT_DESCRIPTION, NULL, 0, web_now_ns(), &len);
	if (msg)
		publish_one(s, c, id, msg, len, web_now_ns(), true);
	free(msg);
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/*
 * The value of the member "@key" of the object at the top of @json (the
 * first such member at any depth after it: the messages here are flat
 * objects or arrays of flat objects), or NULL.
 */
static const char *member(const char *json, const char *end, const char *key)
{
	size_t kl = strlen(key);
	const char *p = json;

	while (p && p < end && (p = strchr(p, '"')) && p < end) {
		if (!strncmp(p + 1, key, kl) && p[1 + kl] == '"') {
			const char *q = skip_ws(p + 2 + kl);

			if (*q == ':')
				return skip_ws(q + 1);
		}
		/* Past this string. */
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		if (*p)
			p++;
	}
	return NULL;
}

static int json_u32(const char *p, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!p || *p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno || v > UINT32_MAX || *end == '.' || *end == 'e' || *end == 'E')
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* The end of the array or object that starts at @p (its closing bracket). */
static const char *match_end(const char *p)
{
	int depth = 0;
	bool str = false;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			continue;
		}
		if (*p == '"')
			str = true;
		else if (*p == '[' || *p == '{')
			depth++;
		else if ((*p == ']' || *p == '}') && --depth == 0)
			return p;
	}
	return NULL;
}

static void do_subscribe(struct web_server *s, struct web_client *c,
			 const char *arr)
{
	const char *end, *p;
	bool reported = false;
	char err[160];

	if (!arr || *arr != '[' || !(end = match_end(arr))) {
		send_status(c, 2, "subscribe: \"subscriptions\" must be an array");
		return;
	}
	for (p = skip_ws(arr + 1); p < end; p = skip_ws(p)) {
		const char *oend;
		uint32_t id, chan;
		unsigned int i;

		if (*p == ',') {
			p++;
			continue;
		}
		if (*p != '{' || !(oend = match_end(p)) || oend > end) {
			send_status(c, 2, "subscribe: each subscription must be an object");
			return;
		}
		if (json_u32(member(p, oend, "id"), &id) ||
		    json_u32(member(p, oend, "channelId"), &chan)) {
			send_status(c, 2, "subscribe: a subscription needs \"id\" and \"channelId\","
				    " whole numbers");
			return;
		}
		p = oend + 1;
		if (!channel_exists(s, chan)) {
			snprintf(err, sizeof(err), "subscribe: no channel %" PRIu32, chan);
			if (!reported)
				send_status(c, 2, err);
			reported = true;
			continue;
		}
		for (i = 0; i < c->n_subs; i++)
			if (c->subs[i].id == id)
				break;
		if (i < c->n_subs) {
			snprintf(err, sizeof(err), "subscribe: subscription %" PRIu32
				 " already exists", id);
			/* One status a request: a client cannot fill its own queue. */
			if (!reported)
				send_status(c, 2, err);
			reported = true;
			continue;
		}
		if (c->n_subs == WEB_MAX_SUBS) {
			send_status(c, 2, "subscribe: too many subscriptions");
			return;
		}
		c->subs[c->n_subs].id = id;
		c->subs[c->n_subs].channel = chan;
		c->n_subs++;
		send_latched(s, c, id, chan);
	}
}

static void do_unsubscribe(struct web_client *c, const char *arr)
{
	const char *end, *p;

	if (!arr || *arr != '[' || !(end = match_end(arr))) {
		send_status(c, 2, "unsubscribe: \"subscriptionIds\" must be an array");
		return;
	}
	for (p = skip_ws(arr + 1); p < end; ) {
		uint32_t id;
		unsigned int i;
		char *q;

		if (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		if (json_u32(p, &id)) {
			send_status(c, 2, "unsubscribe: ids must be whole numbers");
			return;
		}
		strtoull(p, &q, 10);
		p = q;
		for (i = 0; i < c->n_subs; i++)
			if (c->subs[i].id == id) {
				c->subs[i] = c->subs[--c->n_subs];
				break;
			}
	}
}

static void handle_text(struct web_server *s, struct web_client *c, const char *text,
			size_t len)
{
	const char *end = text + len, *op = member(text, end, "op");

	if (!op || *op != '"') {
		send_status(c, 2, "a message needs \"op\"");
		return;
	}
	if (!strncmp(op, "\"subscribe\"", 11))
		do_subscribe(s, c, member(text, end, "subscriptions"));
	else if (!strncmp(op, "\"unsubscribe\"", 13))
		do_unsubscribe(c, member(text, end, "subscriptionIds"));
	else
		send_status(c, 2, "read-only server: only subscribe and unsubscribe are"
			    " served");
}

void web_readvertise(struct web_server *s)
{
	struct web_client *c;
	unsigned int i, old = (unsigned int)s->model.n_channels + WEB_CHAN_EXTRA;
	char *buf = NULL;
	size_t sz;
	FILE *f;

	for (c = s->clients; c; c = c->next) {
		f = open_memstream(&buf, &sz);
		if (!f)
			continue;
		fputs("{\"op\":\"unadvertise\",\"channelIds\":[", f);
		for (i = 1; i <= old; i++)
			fprintf(f, "%s%u", i > 1 ? "," : "", i);
		fputs("]}", f);
		if (!fclose(f))
			web_queue_text(&c->q, buf);
		free(buf);
		buf = NULL;
		c->n_subs = 0;
	}
	web_model_free(&s->model);
	if (web_model_build(s->dcm, NULL, s->o.index, &s->model))
		web_log("reading the new description failed; its keys are not served");
	for (c = s->clients; c; c = c->next) {
		send_status(c, 1, "the description was replaced: channels advertised again");
		send_advertise(s, c);
	}
}

/* A client connected: counted, told who we are and what we stream. */
static void client_open(struct web_server *s, struct web_client *c, struct lws *wsi)
{
	struct web_client *x;
	unsigned int n = 0;

	for (x = s->clients; x; x = x->next)
		n++;
	memset(c, 0, sizeof(*c));
	web_queue_open(&c->q, wsi, s->o.ws_timeout);
	c->next = s->clients;
	s->clients = c;
	s->counters.ws_clients++;
	if (n >= s->o.max_clients) {
		send_status(c, 2, "too many clients");
		c->q.closing = true;
		return;
	}
	if (s->o.verbose)
		web_logrl(&s->rl, "WebSocket client connected (%u now)", s->counters.ws_clients);
	send_server_info(s, c);
	send_advertise(s, c);
}

static void client_close(struct web_server *s, struct web_client *c)
{
	struct web_client **pp;

	for (pp = &s->clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			s->counters.ws_clients--;
			break;
		}
	web_queue_free(&c->q);
	free(c->rx);
	c->rx = NULL;
	if (s->o.verbose)
		web_logrl(&s->rl, "WebSocket client gone (%u now)", s->counters.ws_clients);
}

/* A fragment of a message: the message handled once whole. Return: 0, or -1 to close. */
static int client_receive(struct web_server *s, struct web_client *c, struct lws *wsi,
			  const void *in, size_t len)
{
	char *b;

	if (lws_frame_is_binary(wsi)) {
		send_status(c, 2, "read-only server: binary messages are not served");
		return 0;
	}
	if (c->rx_len + len > RX_MAX) {
		send_status(c, 2, "message too long");
		c->q.closing = true;
		lws_callback_on_writable(wsi);
		return 0;
	}
	web_queue_heard(&c->q, false);
	b = realloc(c->rx, c->rx_len + len + 1);
	if (!b)
		return -1;
	c->rx = b;
	memcpy(c->rx + c->rx_len, in, len);
	c->rx_len += len;
	c->rx[c->rx_len] = 0;
	if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
		handle_text(s, c, c->rx, c->rx_len);
		c->rx_len = 0;
	}
	return 0;
}

int web_foxglove_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
			  void *in, size_t len)
{
	struct web_client *c = user;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		client_open(web_server_of(wsi), c, wsi);
		break;
	case LWS_CALLBACK_CLOSED:
		client_close(web_server_of(wsi), c);
		break;
	case LWS_CALLBACK_RECEIVE:
		return client_receive(web_server_of(wsi), c, wsi, in, len);
	case LWS_CALLBACK_RECEIVE_PONG:
		web_queue_heard(&c->q, true);
		break;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return web_queue_drain(&c->q);
	case LWS_CALLBACK_TIMER:
		return web_queue_timer(&c->q, web_server_of(wsi));
	default:
		break;
	}
	return 0;
}
