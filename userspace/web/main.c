// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web: a read-only view of a dcm controller over HTTP.
 *
 *   /          the page (live plots), from --root
 *   /metrics   Prometheus' text exposition format
 *   WebSocket  the Foxglove WebSocket protocol (foxglove.websocket.v1):
 *              the keys' groups every cycle, the cycle's statistics once a
 *              second, the kernel's events
 *
 * There is no command path: the server opens the controller to read its
 * frames and statistics only. Documentation/userspace.rst, "dcm-web".
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>
#include <linux/dcm.h>

#include "json.h"
#include "num.h"
#include "optdef.h"
#include "ratelimit.h"
#include "web.h"

#ifndef DCM_WEB_ROOT
#define DCM_WEB_ROOT "/usr/share/dcm/web"
#endif
#define DEFAULT_PORT 8080
#define DEFAULT_LOLA_STATUS "/tmp/robocup.status"
#define DEFAULT_MAX_CLIENTS 16
#define DEFAULT_HTTP_TIMEOUT 5	/* s */
#define DEFAULT_WS_TIMEOUT 5	/* s */
#define MAX_TIMEOUT 3600	/* s */
#define LOG_BURST 10		/* lines of the connections and libwebsockets... */
#define LOG_INTERVAL_MS 5000	/* ...in this window, the rest counted */
/*
 * libwebsockets' poll table holds the connections and the listening
 * sockets (two at most), the controller's two descriptors and its own
 * (which it adds itself); it stops accepting when one slot is left.
 */
#define LWS_TABLE_EXTRA 5
#define FOXGLOVE_SUBPROTOCOL "foxglove.websocket.v1"
#define QUEUE_LEN 256		/* messages waiting per client */
#define MAX_SUBS 64		/* subscriptions per client */
#define RX_MAX 65536		/* longest message a client may send */

/* ---- options ---- */

struct web_opts {
	unsigned int port;
	const char *address;
	unsigned int index;
	const char *root;
	const char *lola_status;
	unsigned int max_clients;
	unsigned int max_conns;		/* 0: what the descriptor limit allows */
	unsigned int http_timeout;	/* s */
	unsigned int ws_timeout;	/* s */
	bool verbose;
};

/* The options: getopt_long()'s tables and the help (common/optdef.h). */
static const struct optdef optdefs[] = {
	{ "port", 'p', 0, "PORT", "TCP port to listen on (default 8080)" },
	{ "address", 'a', 0, "ADDR", "address to listen on (default: all)" },
	{ "index", 'i', 0, "INDEX", "controller to show, dcmINDEX (default 0)" },
	{ "root", 'r', 0, "DIR", "the page's files (default\n" DCM_WEB_ROOT ")" },
	{ "lola-status", 'l', 0, "PATH", "dcm-lola's status socket for the metrics\n"
	  "(default " DEFAULT_LOLA_STATUS "; 'none': not read)" },
	{ "max-clients", 'm', 0, "N", "WebSocket clients at once (default 16)" },
	{ "max-connections", 'c', 0, "N", "TCP connections at once (default: as many as\n"
	  "the descriptor limit allows)" },
	{ "http-timeout", 't', 0, "SECS", "close an HTTP connection that idles, or whose\n"
	  "request or answer stalls, for SECS (default 5)" },
	{ "ws-timeout", 'w', 0, "SECS", "drop a WebSocket client that reads none of its\n"
	  "waiting messages, or answers no ping, for SECS\n(default 5)" },
	{ "verbose", 'v', 0, NULL, "log each connection" },
	{ "version", 'V', 0, NULL, "print the version and exit" },
	{ "help", 'h', 0, NULL, "show this text" },
	{ NULL, 0, 0, NULL, NULL }
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dcm-web [-p PORT] [-a ADDR] [-i INDEX] [-r DIR] [-l PATH]\n"
		"               [-m N] [-c N] [-t SECS] [-w SECS] [-v]\n"
		"               (or the long options below)\n"
		"       dcm-web -h | --help | -V | --version\n"
		"\n"
		"Serve a read-only view of dcmINDEX: the live page at /, Prometheus\n"
		"metrics at /metrics and the Foxglove WebSocket protocol\n"
		"(" FOXGLOVE_SUBPROTOCOL ") on the same port.\n"
		"\n");
	optdef_print(f, optdefs, 25);
	fprintf(f,
		"\n"
		"--opt=VALUE is --opt VALUE. SIGINT and SIGTERM stop it. Exit status: 0\n"
		"after a signal, 1 failure, 2 usage error. See dcm-web(8).\n");
}

static int parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out)
{
	unsigned long long v;

	if (num_parse_ull(s, 10, min, max, &v))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* Return: -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct web_opts *o)
{
	struct option lopts[sizeof(optdefs) / sizeof(optdefs[0])];
	char sopts[2 * sizeof(optdefs) / sizeof(optdefs[0]) + 2];
	int c;

	if (optdef_getopt(optdefs, ":", lopts, sopts, sizeof(sopts))) {
		fprintf(stderr, "dcm-web: the option table does not fit\n");
		return 1;
	}

	o->port = DEFAULT_PORT;
	o->address = NULL;
	o->index = 0;
	o->root = DCM_WEB_ROOT;
	o->lola_status = DEFAULT_LOLA_STATUS;
	o->max_clients = DEFAULT_MAX_CLIENTS;
	o->max_conns = 0;
	o->http_timeout = DEFAULT_HTTP_TIMEOUT;
	o->ws_timeout = DEFAULT_WS_TIMEOUT;
	o->verbose = false;
	opterr = 0;
	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (parse_uint(optarg, 1, 65535, &o->port)) {
				fprintf(stderr, "dcm-web: --port wants 1 to 65535, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'a':
			o->address = optarg;
			break;
		case 'i':
			if (parse_uint(optarg, 0, 255, &o->index)) {
				fprintf(stderr, "dcm-web: --index wants 0 to 255, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			o->root = optarg;
			break;
		case 'l':
			o->lola_status = strcmp(optarg, "none") ? optarg : NULL;
			break;
		case 'm':
			if (parse_uint(optarg, 1, 1024, &o->max_clients)) {
				fprintf(stderr, "dcm-web: --max-clients wants 1 to 1024, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			if (parse_uint(optarg, 1, WEB_MAX_CONNECTIONS, &o->max_conns)) {
				fprintf(stderr, "dcm-web: --max-connections wants 1 to %u, not '%s'\n",
					WEB_MAX_CONNECTIONS, optarg);
				return 2;
			}
			break;
		case 't':
			if (parse_uint(optarg, 1, MAX_TIMEOUT, &o->http_timeout)) {
				fprintf(stderr, "dcm-web: --http-timeout wants 1 to %u, not '%s'\n",
					MAX_TIMEOUT, optarg);
				return 2;
			}
			break;
		case 'w':
			if (parse_uint(optarg, 1, MAX_TIMEOUT, &o->ws_timeout)) {
				fprintf(stderr, "dcm-web: --ws-timeout wants 1 to %u, not '%s'\n",
					MAX_TIMEOUT, optarg);
				return 2;
			}
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'V':
			printf("dcm-web %s\n", dcm_lib_version());
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "dcm-web: %s needs an argument\n", argv[optind - 1]);
			usage(stderr);
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "dcm-web: unknown option -%c\n", optopt);
			else
				fprintf(stderr, "dcm-web: unknown option %s\n", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dcm-web: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return -1;
}

/* ---- the server's state ---- */

struct msg {
	unsigned char *buf;	/* LWS_PRE bytes, then the payload */
	size_t len;
	bool binary;
};

struct sub {
	uint32_t id;
	unsigned int channel;
};

/* One WebSocket client. */
struct client {
	struct lws *wsi;
	struct client *next;
	struct msg queue[QUEUE_LEN];
	unsigned int head, count;
	struct sub subs[MAX_SUBS];
	unsigned int n_subs;
	char *rx;
	size_t rx_len;
	uint64_t progress_ns;	/* a message queued on an empty queue, or sent */
	uint64_t heard_ns;	/* connected, or a message or pong received */
	uint64_t ping_ns;	/* a ping unanswered sent then, or 0 */
	bool ping_due;		/* a ping to send */
	bool closing;
};

static struct {
	struct web_opts o;
	struct lws_context *ctx;
	struct dcm *dcm;
	struct dcm_nl *nl;
	struct web_model model;
	struct dcm_values_frame frame;
	struct web_counters counters;
	struct client *clients;
	struct ratelimit rl;	/* the lines a peer can cause */
	lws_sorted_usec_list_t sul_cycle;
	uint64_t session;
	int read_errors;
	int exit_code;
	volatile sig_atomic_t stop;
} g;

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("dcm-web: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static uint64_t mono_ns(void);

static void log_suppressed(bool force)
{
	unsigned long n = ratelimit_flush(&g.rl, mono_ns() / 1000000, force);

	if (n)
		logmsg("%lu line(s) of the connections suppressed", n);
}

/*
 * A line a peer can cause (a connection, a libwebsockets error): at most
 * LOG_BURST every LOG_INTERVAL_MS, the rest counted.
 */
static void logrl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logrl(const char *fmt, ...)
{
	unsigned long flushed;
	va_list ap;

	if (!ratelimit_allow(&g.rl, mono_ns() / 1000000, &flushed))
		return;
	if (flushed)
		logmsg("%lu line(s) of the connections suppressed", flushed);
	va_start(ap, fmt);
	fputs("dcm-web: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* libwebsockets' errors and warnings, through the rate limit. */
static void lws_log(int level, const char *line)
{
	size_t n = strlen(line);

	(void)level;
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	logrl("libwebsockets: %.*s", (int)n, line);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * Every --ws-timeout / 2: a client with messages waiting that took none in
 * --ws-timeout is dropped; so is one that answered no ping in --ws-timeout,
 * a ping being sent after --ws-timeout heard nothing from it (a client
 * that subscribes to nothing is sent nothing, and would never stall).
 * Return: 0, or -1 to drop it.
 */
static int client_timer(struct client *c, struct lws *wsi)
{
	uint64_t now = mono_ns(), limit = (uint64_t)g.o.ws_timeout * 1000000000ull;

	if (c->count && now - c->progress_ns >= limit) {
		g.counters.stalled++;
		logrl("a WebSocket client read nothing for %u s (%u messages waiting):"
		      " dropped", g.o.ws_timeout, c->count);
		return -1;
	}
	if (c->ping_ns && now - c->ping_ns >= limit) {
		g.counters.stalled++;
		logrl("a WebSocket client answered no ping in %u s: dropped", g.o.ws_timeout);
		return -1;
	}
	if (!c->ping_ns && now - c->heard_ns >= limit) {
		c->ping_ns = now;
		c->ping_due = true;
		lws_callback_on_writable(wsi);
	}
	lws_set_timer_usecs(wsi, (lws_usec_t)g.o.ws_timeout * LWS_US_PER_SEC / 2);
	return 0;
}

/* Queue a message (copied) for @c. Return: 0, or -ENOBUFS when full. */
static int enqueue(struct client *c, const void *hdr, size_t hlen, const void *data,
		   size_t len, bool binary)
{
	struct msg *m;

	if (c->closing)
		return 0;
	if (c->count == QUEUE_LEN)
		return -ENOBUFS;
	/* --ws-timeout without a message sent drops it (client_timer()). */
	if (!c->count)
		c->progress_ns = mono_ns();
	m = &c->queue[(c->head + c->count) % QUEUE_LEN];
	m->buf = malloc(LWS_PRE + hlen + len);
	if (!m->buf)
		return -ENOMEM;
	if (hlen)
		memcpy(m->buf + LWS_PRE, hdr, hlen);
	memcpy(m->buf + LWS_PRE + hlen, data, len);
	m->len = hlen + len;
	m->binary = binary;
	c->count++;
	lws_callback_on_writable(c->wsi);
	return 0;
}

static void send_text(struct client *c, const char *text)
{
	if (enqueue(c, NULL, 0, text, strlen(text), false))
		c->closing = true;	/* cannot even tell it: drop the client */
}

/* A status message: level 0 info, 1 warning, 2 error. */
static void send_status(struct client *c, int level, const char *text)
{
	char *s = NULL;
	size_t sz;
	FILE *f = open_memstream(&s, &sz);

	if (!f)
		return;
	fprintf(f, "{\"op\":\"status\",\"level\":%d,\"message\":", level);
	json_write_string(f, text);
	fputc('}', f);
	if (!fclose(f))
		send_text(c, s);
	free(s);
}

static void send_server_info(struct client *c)
{
	struct dcm_info info;
	char buf[512];

	if (dcm_get_info(g.dcm, &info))
		memset(&info, 0, sizeof(info));
	snprintf(buf, sizeof(buf),
		 "{\"op\":\"serverInfo\",\"name\":\"dcm-web %s\",\"capabilities\":[],"
		 "\"supportedEncodings\":[],\"metadata\":{\"controller\":\"dcm%u\","
		 "\"driver\":\"%s\",\"period_us\":\"%u\",\"access\":\"read-only\"},"
		 "\"sessionId\":\"%" PRIu64 "\"}",
		 dcm_lib_version(), g.o.index, info.driver, info.period_us, g.session);
	send_text(c, buf);
}

static void send_advertise(struct client *c)
{
	char *s = web_advertise_json(&g.model);

	if (s)
		send_text(c, s);
	free(s);
}

/* The channel ids of the statistics and the events. */
static unsigned int chan_cycle(void)
{
	return (unsigned int)g.model.n_channels + 1 + WEB_CHAN_CYCLE_OFFSET;
}

static unsigned int chan_events(void)
{
	return (unsigned int)g.model.n_channels + 1 + WEB_CHAN_EVENTS_OFFSET;
}

static bool channel_exists(unsigned int id)
{
	const struct web_channel *ch = web_model_channel(&g.model, id);

	return (ch && ch->n_fields) || id == chan_cycle() || id == chan_events();
}

static bool subscribed(unsigned int channel)
{
	struct client *c;
	unsigned int i;

	for (c = g.clients; c; c = c->next)
		for (i = 0; i < c->n_subs; i++)
			if (c->subs[i].channel == channel)
				return true;
	return false;
}

/* Send @data to every subscription of @channel: messageData frames. */
static void publish(unsigned int channel, const char *data, size_t len, uint64_t ts)
{
	unsigned char hdr[13];
	struct client *c;
	unsigned int i;

	for (c = g.clients; c; c = c->next)
		for (i = 0; i < c->n_subs; i++) {
			uint32_t id = c->subs[i].id;
			unsigned int b;

			if (c->subs[i].channel != channel)
				continue;
			hdr[0] = 0x01;	/* messageData */
			for (b = 0; b < 4; b++)
				hdr[1 + b] = (unsigned char)(id >> (8 * b));
			for (b = 0; b < 8; b++)
				hdr[5 + b] = (unsigned char)(ts >> (8 * b));
			if (enqueue(c, hdr, sizeof(hdr), data, len, true))
				g.counters.dropped++;
		}
}

/* ---- what clients send ---- */

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

static void do_subscribe(struct client *c, const char *arr)
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
		if (!channel_exists(chan)) {
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
		if (c->n_subs == MAX_SUBS) {
			send_status(c, 2, "subscribe: too many subscriptions");
			return;
		}
		c->subs[c->n_subs].id = id;
		c->subs[c->n_subs].channel = chan;
		c->n_subs++;
	}
}

static void do_unsubscribe(struct client *c, const char *arr)
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

static void handle_text(struct client *c, const char *text, size_t len)
{
	const char *end = text + len, *op = member(text, end, "op");

	if (!op || *op != '"') {
		send_status(c, 2, "a message needs \"op\"");
		return;
	}
	if (!strncmp(op, "\"subscribe\"", 11))
		do_subscribe(c, member(text, end, "subscriptions"));
	else if (!strncmp(op, "\"unsubscribe\"", 13))
		do_unsubscribe(c, member(text, end, "subscriptionIds"));
	else
		send_status(c, 2, "read-only server: only subscribe and unsubscribe are"
			    " served");
}

/* ---- the model, and a replaced description ---- */

static void readvertise(void)
{
	struct client *c;
	unsigned int i, old = (unsigned int)g.model.n_channels + WEB_CHAN_EXTRA;
	char *s = NULL;
	size_t sz;
	FILE *f;

	for (c = g.clients; c; c = c->next) {
		f = open_memstream(&s, &sz);
		if (!f)
			continue;
		fputs("{\"op\":\"unadvertise\",\"channelIds\":[", f);
		for (i = 1; i <= old; i++)
			fprintf(f, "%s%u", i > 1 ? "," : "", i);
		fputs("]}", f);
		if (!fclose(f))
			send_text(c, s);
		free(s);
		s = NULL;
		c->n_subs = 0;
	}
	web_model_free(&g.model);
	if (web_model_build(g.dcm, NULL, g.o.index, &g.model))
		logmsg("reading the new description failed; its keys are not served");
	for (c = g.clients; c; c = c->next) {
		send_status(c, 1, "the description was replaced: channels advertised again");
		send_advertise(c);
	}
}

/* ---- the controller's frames, events and statistics ---- */

static void on_frame(void)
{
	uint64_t ts = now_ns();
	size_t i;
	int r;

	r = dcm_read_frame(g.dcm, &g.frame);
	if (r == -EAGAIN || r == -EINTR)
		return;
	if (r) {
		logmsg("reading a frame of dcm%u: %s", g.o.index, dcm_strerror(r));
		if (r == -ENODEV || ++g.read_errors > 100) {
			/* The loop ends: the service manager starts it again. */
			g.exit_code = 1;
			g.stop = 1;
			lws_cancel_service(g.ctx);
		}
		return;
	}
	g.read_errors = 0;
	g.counters.frames++;
	if (g.frame.generation != g.model.generation) {
		readvertise();
		return;
	}
	for (i = 0; i < g.model.n_channels; i++) {
		const struct web_channel *ch = &g.model.channels[i];
		size_t len;
		char *s;

		if (!ch->n_fields || !subscribed(ch->id))
			continue;
		s = web_channel_json(ch, &g.frame, &len);
		if (s)
			publish(ch->id, s, len, ts);
		free(s);
	}
}

static int on_event(const struct dcm_nl_event *nev, void *arg)
{
	struct dcm_event_msg ev;
	size_t len;
	char *s;

	(void)arg;
	if (nev->cmd != DCM_CMD_EVENT || dcm_nl_parse_event(nev->nlh, &ev) ||
	    ev.index != g.o.index)
		return 0;
	g.counters.events++;
	if (!subscribed(chan_events()))
		return 0;
	s = web_event_json(&ev, &len);
	if (s)
		publish(chan_events(), s, len, now_ns());
	free(s);
	return 0;
}

static void cycle_tick(lws_sorted_usec_list_t *sul)
{
	if (subscribed(chan_cycle())) {
		size_t len;
		char *s = web_cycle_json(g.dcm, &len);

		if (s)
			publish(chan_cycle(), s, len, now_ns());
		free(s);
	}
	log_suppressed(false);
	lws_sul_schedule(g.ctx, 0, sul, cycle_tick, LWS_US_PER_SEC);
}

/* ---- dcm-lola's status, for the metrics ---- */

static void lola_metrics(FILE *out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[8192], *line, *save;
	struct ucred cr;
	socklen_t crl = sizeof(cr);
	uint64_t deadline;
	size_t n = 0;
	int fd, up = 0;

	if (!g.o.lola_status)
		return;
	if (strlen(g.o.lola_status) >= sizeof(sa.sun_path))
		goto done;
	strcpy(sa.sun_path, g.o.lola_status);
	/* Non-blocking: a socket whose backlog is full does not stall the loop. */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		goto done;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl) ||
	    (cr.uid != 0 && cr.uid != getuid())) {
		close(fd);
		goto done;
	}
	/* The daemon writes its status and closes: 200 ms at most in all. */
	deadline = mono_ns() + 200000000ull;
	while (n < sizeof(buf) - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint64_t now = mono_ns();
		ssize_t r;

		if (now >= deadline ||
		    poll(&p, 1, (int)((deadline - now) / 1000000 + 1)) <= 0)
			break;
		r = read(fd, buf + n, sizeof(buf) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	up = n > 0;
done:
	fprintf(out, "# HELP dcm_lola_up Whether dcm-lola's status socket answered\n"
		"# TYPE dcm_lola_up gauge\ndcm_lola_up %d\n", up);
	if (!up)
		return;
	/* "word number" lines: clients and commander are gauges, the rest counts. */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char word[48], name[80], tail;
		unsigned long long v;
		bool gauge;
		size_t wl;

		if (sscanf(line, "%47[a-z_] %llu%c", word, &v, &tail) != 2)
			continue;
		gauge = !strcmp(word, "clients") || !strcmp(word, "commander") ||
			!strcmp(word, "uptime_ms");
		wl = strlen(word);
		snprintf(name, sizeof(name), "dcm_lola_%s%s", word,
			 gauge || (wl > 6 && !strcmp(word + wl - 6, "_total")) ? "" : "_total");
		fprintf(out, "# HELP %s dcm-lola's status: %s\n# TYPE %s %s\n%s %llu\n", name,
			word, name, gauge ? "gauge" : "counter", name, v);
	}
}

/* ---- HTTP: /metrics ---- */

struct http_session {
	char *body;
	size_t len, off;
};

static int cb_http(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		   size_t len)
{
	struct http_session *hs = user;
	unsigned char hdr[LWS_PRE + 512], *p, *end;

	switch (reason) {
	case LWS_CALLBACK_HTTP: {
		static struct dcm_values_frame empty;
		size_t sz;
		FILE *f;

		/*
		 * The mount /metrics, nothing below it. libwebsockets passes
		 * the whole path (or, in some versions, what follows the mount
		 * point).
		 */
		const char *path = in ? (const char *)in : "";

		if (!strncmp(path, "/metrics", 8))
			path += 8;
		if (*path && strcmp(path, "/")) {
			lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL);
			return -1;
		}
		hs->body = NULL;
		f = open_memstream(&hs->body, &sz);
		if (!f)
			return -1;
		web_metrics(f, g.dcm, &g.model, g.counters.frames ? &g.frame : &empty,
			    &g.counters);
		lola_metrics(f);
		if (fclose(f)) {
			free(hs->body);
			hs->body = NULL;
			return -1;
		}
		hs->len = strlen(hs->body);
		hs->off = 0;
		p = hdr + LWS_PRE;
		end = hdr + sizeof(hdr) - 1;
		if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
						"text/plain; version=0.0.4; charset=utf-8",
						hs->len, &p, end) ||
		    lws_finalize_write_http_header(wsi, hdr + LWS_PRE, &p, end))
			return 1;
		/* A client that does not read the answer: closed (--http-timeout). */
		lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, (int)g.o.http_timeout);
		lws_callback_on_writable(wsi);
		return 0;
	}
	case LWS_CALLBACK_HTTP_WRITEABLE: {
		size_t n;
		int last;

		if (!hs->body)
			break;
		n = hs->len - hs->off;
		if (n > 4096)
			n = 4096;
		last = hs->off + n == hs->len;
		{
			unsigned char *b = malloc(LWS_PRE + n + 1);

			if (!b)
				return -1;
			memcpy(b + LWS_PRE, hs->body + hs->off, n);
			if (lws_write(wsi, b + LWS_PRE, n,
				      last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n) {
				free(b);
				return 1;
			}
			free(b);
		}
		hs->off += n;
		if (!last) {
			lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, (int)g.o.http_timeout);
			lws_callback_on_writable(wsi);
			return 0;
		}
		free(hs->body);
		hs->body = NULL;
		if (lws_http_transaction_completed(wsi))
			return -1;
		return 0;
	}
	case LWS_CALLBACK_CLOSED_HTTP:
		free(hs ? hs->body : NULL);
		if (hs)
			hs->body = NULL;
		break;
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
	case LWS_CALLBACK_ESTABLISHED:
		/* A WebSocket without our subprotocol: refused. */
		return -1;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ---- WebSocket: the Foxglove protocol ---- */

static void client_free_queue(struct client *c)
{
	while (c->count) {
		free(c->queue[c->head].buf);
		c->head = (c->head + 1) % QUEUE_LEN;
		c->count--;
	}
}

static int cb_foxglove(struct lws *wsi, enum lws_callback_reasons reason, void *user,
		       void *in, size_t len)
{
	struct client *c = user, **pp;
	unsigned int n = 0;
	struct msg *m;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		for (struct client *x = g.clients; x; x = x->next)
			n++;
		memset(c, 0, sizeof(*c));
		c->wsi = wsi;
		c->heard_ns = mono_ns();
		lws_set_timer_usecs(wsi, (lws_usec_t)g.o.ws_timeout * LWS_US_PER_SEC / 2);
		c->next = g.clients;
		g.clients = c;
		g.counters.ws_clients++;
		if (n >= g.o.max_clients) {
			send_status(c, 2, "too many clients");
			c->closing = true;
			break;
		}
		if (g.o.verbose)
			logrl("WebSocket client connected (%u now)", g.counters.ws_clients);
		send_server_info(c);
		send_advertise(c);
		break;
	case LWS_CALLBACK_CLOSED:
		for (pp = &g.clients; *pp; pp = &(*pp)->next)
			if (*pp == c) {
				*pp = c->next;
				g.counters.ws_clients--;
				break;
			}
		client_free_queue(c);
		free(c->rx);
		c->rx = NULL;
		if (g.o.verbose)
			logrl("WebSocket client gone (%u now)", g.counters.ws_clients);
		break;
	case LWS_CALLBACK_RECEIVE: {
		char *b;

		if (lws_frame_is_binary(wsi)) {
			send_status(c, 2, "read-only server: binary messages are not served");
			break;
		}
		if (c->rx_len + len > RX_MAX) {
			send_status(c, 2, "message too long");
			c->closing = true;
			lws_callback_on_writable(wsi);
			break;
		}
		c->heard_ns = mono_ns();
		b = realloc(c->rx, c->rx_len + len + 1);
		if (!b)
			return -1;
		c->rx = b;
		memcpy(c->rx + c->rx_len, in, len);
		c->rx_len += len;
		c->rx[c->rx_len] = 0;
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
			handle_text(c, c->rx, c->rx_len);
			c->rx_len = 0;
		}
		break;
	}
	case LWS_CALLBACK_RECEIVE_PONG:
		c->heard_ns = mono_ns();
		c->ping_ns = 0;
		break;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (c->ping_due && !c->closing) {
			unsigned char ping[LWS_PRE + 1];

			c->ping_due = false;
			if (lws_write(wsi, ping + LWS_PRE, 0, LWS_WRITE_PING) < 0)
				return -1;
			if (c->count)
				lws_callback_on_writable(wsi);
			break;
		}
		if (!c->count)
			return c->closing ? -1 : 0;
		m = &c->queue[c->head];
		if (lws_write(wsi, m->buf + LWS_PRE, m->len,
			      m->binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) < (int)m->len)
			return -1;
		free(m->buf);
		c->head = (c->head + 1) % QUEUE_LEN;
		c->count--;
		c->progress_ns = mono_ns();
		if (c->count || c->closing)
			lws_callback_on_writable(wsi);
		break;
	case LWS_CALLBACK_TIMER:
		return client_timer(c, wsi);
	default:
		break;
	}
	return 0;
}

/* ---- the controller's descriptors in the loop ---- */

static int cb_dcm_fd(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		     size_t len)
{
	(void)user;
	(void)in;
	(void)len;
	switch (reason) {
	case LWS_CALLBACK_RAW_RX_FILE:
		if (g.nl && lws_get_opaque_user_data(wsi) == (void *)g.nl) {
			int r = dcm_nl_recv(g.nl, on_event, NULL);

			if (r == -ENOBUFS)
				g.counters.events_lost++;
		} else {
			on_frame();
		}
		break;
	case LWS_CALLBACK_RAW_CLOSE_FILE:
		break;
	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "http", cb_http, sizeof(struct http_session), 0, 0, NULL, 0 },
	{ FOXGLOVE_SUBPROTOCOL, cb_foxglove, sizeof(struct client), 4096, 0, NULL, 0 },
	{ "dcm-fd", cb_dcm_fd, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

static const struct lws_http_mount mount_metrics = {
	.mountpoint = "/metrics",
	.mountpoint_len = 8,
	.origin = "http",
	.origin_protocol = LWSMPRO_CALLBACK,
};

static struct lws_http_mount mount_root = {
	.mount_next = &mount_metrics,
	.mountpoint = "/",
	.mountpoint_len = 1,
	.def = "index.html",
	.origin_protocol = LWSMPRO_FILE,
};

static int adopt(struct lws_vhost *vh, int fd, void *opaque)
{
	lws_sock_file_fd_type u;
	struct lws *wsi;
	int d = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (d < 0)
		return -errno;
	u.filefd = d;
	wsi = lws_adopt_descriptor_vhost(vh, LWS_ADOPT_RAW_FILE_DESC, u, "dcm-fd", NULL);
	if (!wsi) {
		close(d);
		return -EIO;
	}
	lws_set_opaque_user_data(wsi, opaque);
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	g.stop = 1;
	lws_cancel_service(g.ctx);
}

int main(int argc, char **argv)
{
	struct lws_context_creation_info info;
	struct sigaction sa;
	struct lws_vhost *vh;
	struct lws_context *ctx;
	unsigned long long nofile = 1024;
	unsigned int conns;
	struct rlimit rl;
	int r;

	r = parse_args(argc, argv, &g.o);
	if (r >= 0)
		return r;
	/* The metrics and the stream do without the page: / answers 404. */
	if (access(g.o.root, R_OK | X_OK))
		logmsg("the page's directory %s: %s; only /metrics and the WebSocket stream"
		       " are served", g.o.root, strerror(errno));
	r = dcm_open_index(g.o.index, &g.dcm);
	if (r) {
		fprintf(stderr, "dcm-web: opening dcm%u: %s\n", g.o.index, dcm_last_error());
		return 1;
	}
	r = web_model_build(g.dcm, NULL, g.o.index, &g.model);
	if (r && r != -ENOENT && r != -ENODEV) {
		fprintf(stderr, "dcm-web: reading dcm%u's keys: %s\n", g.o.index,
			dcm_strerror(r));
		return 1;
	}
	if (dcm_nl_open(&g.nl) || dcm_nl_subscribe_events(g.nl)) {
		logmsg("no kernel events (netlink: %s): the events channel stays silent",
		       dcm_last_error());
		dcm_nl_close(g.nl);
		g.nl = NULL;
	}
	g.session = now_ns();

	/*
	 * The connections stay below the descriptor limit: libwebsockets
	 * stops accepting (the listening socket leaves its poll set) while
	 * its table is full, rather than accept(2) failing with EMFILE again
	 * and again.
	 */
	if (!getrlimit(RLIMIT_NOFILE, &rl))
		nofile = rl.rlim_cur == RLIM_INFINITY ? ULLONG_MAX : rl.rlim_cur;
	conns = web_max_connections(nofile, g.o.max_conns);
	if (!conns) {
		fprintf(stderr, "dcm-web: %llu descriptors (RLIMIT_NOFILE) are too few: %d at"
			" least\n", nofile, WEB_FD_RESERVE + WEB_FDS_PER_CONNECTION);
		return 1;
	}
	if (g.o.max_conns && conns < g.o.max_conns)
		logmsg("--max-connections %u: the descriptor limit (%llu) allows %u",
		       g.o.max_conns, nofile, conns);
	ratelimit_init(&g.rl, LOG_BURST, LOG_INTERVAL_MS);
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_log);
	memset(&info, 0, sizeof(info));
	info.port = (int)g.o.port;
	info.iface = g.o.address;
	info.protocols = protocols;
	mount_root.origin = g.o.root;
	info.mounts = &mount_root;
	info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
	info.vhost_name = "dcm-web";
	info.fd_limit_per_thread = conns + LWS_TABLE_EXTRA;
	/* No complete request, an idle keep-alive, a stalled answer. */
	info.timeout_secs = g.o.http_timeout;
	info.timeout_secs_ah_idle = g.o.http_timeout;
	info.keepalive_timeout = (int)g.o.http_timeout;
	ctx = lws_create_context(&info);
	if (!ctx) {
		fprintf(stderr, "dcm-web: cannot listen on %s port %u\n",
			g.o.address ? g.o.address : "all addresses", g.o.port);
		return 1;
	}
	g.ctx = ctx;
	vh = lws_get_vhost_by_name(ctx, "dcm-web");
	if (!vh || adopt(vh, dcm_poll_fd(g.dcm), g.dcm) ||
	    (g.nl && adopt(vh, dcm_nl_event_fd(g.nl), g.nl))) {
		fprintf(stderr, "dcm-web: cannot watch dcm%u's descriptors\n", g.o.index);
		lws_context_destroy(ctx);
		return 1;
	}
	lws_sul_schedule(ctx, 0, &g.sul_cycle, cycle_tick, LWS_US_PER_SEC);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	logmsg("dcm%u on %s port %u, page from %s, %u connections at most", g.o.index,
	       g.o.address ? g.o.address : "all addresses", g.o.port, g.o.root, conns);

	while (!g.stop && lws_service(ctx, 0) >= 0)
		;
	lws_context_destroy(ctx);
	log_suppressed(true);
	web_model_free(&g.model);
	dcm_values_frame_release(&g.frame);
	dcm_nl_close(g.nl);
	dcm_close(g.dcm);
	return g.exit_code;
}
