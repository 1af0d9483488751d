// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web: a read-only view of a dcm controller over HTTP.
 *
 *   /          the page (live plots), from --root           (http.c)
 *   /metrics   Prometheus' text exposition format           (metrics.c)
 *   WebSocket  the Foxglove WebSocket protocol              (foxglove.c)
 *              (foxglove.websocket.v1): the keys' groups every cycle, the
 *              cycle's statistics once a second, the kernel's events
 *
 * This file is the loop: the controller opened, libwebsockets' context
 * created around the options, the controller's descriptors and the
 * signals watched in it, each frame and event published, the statistics
 * once a second. There is no command path: the server opens the
 * controller to read its frames and statistics only.
 * Documentation/dcm/web.rst.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libwebsockets.h>
#include <linux/dcm.h>

#include "clock.h"
#include "foxglove.h"
#include "http.h"
#include "log.h"
#include "server.h"

/*
 * libwebsockets' poll table holds the connections and the listening
 * sockets (two at most), the controller's two descriptors, the signals'
 * and its own (which it adds itself); it stops accepting when one slot
 * is left.
 */
#define LWS_TABLE_EXTRA 6

/* The ROS 2 and 3D channels of a frame (ros.c), those subscribed. */
static void on_frame_ros(struct web_server *s, uint64_t ts)
{
	unsigned int r, id;
	unsigned char *msg;
	size_t len;

	for (r = 0; r < REC_ROS_ROBOT_DESCRIPTION; r++) {
		id = web_chan_ros(&s->model, r);
		if (!web_subscribed(s, id))
			continue;
		msg = rec_ros_message(&s->model.ros, r, s->frame.values, s->frame.n_values, ts,
				      &len);
		if (msg)
			web_publish(s, id, msg, len, ts);
		free(msg);
	}
}

static void on_frame(struct web_server *s)
{
	uint64_t ts = web_now_ns();
	size_t i;
	int r;

	r = dcm_read_frame(s->dcm, &s->frame);
	if (r == -EAGAIN || r == -EINTR)
		return;
	if (r) {
		web_log("reading a frame of dcm%u: %s", s->o.index, dcm_strerror(r));
		if (r == -ENODEV || ++s->read_errors > 100) {
			/* The loop ends: the service manager starts it again. */
			s->exit_code = 1;
			s->stop = true;
			lws_cancel_service(s->ctx);
		}
		return;
	}
	s->read_errors = 0;
	s->counters.frames++;
	if (s->frame.generation != s->model.generation) {
		web_readvertise(s);
		return;
	}
	for (i = 1; i <= s->model.n_channels; i++) {
		const struct rec_channel *ch = web_model_channel(&s->model, (unsigned int)i);
		size_t len;
		char *json;

		if (!ch || !web_subscribed(s, (unsigned int)i))
			continue;
		json = rec_channel_json(ch, s->frame.cycle, s->frame.time, s->frame.values,
					s->frame.n_values, &len);
		if (json)
			web_publish(s, (unsigned int)i, json, len, ts);
		free(json);
	}
	on_frame_ros(s, ts);
}

static int on_event(const struct dcm_nl_event *nev, void *arg)
{
	struct web_server *s = arg;
	struct dcm_event_msg ev;
	size_t len;
	char *json;

	if (nev->cmd != DCM_CMD_EVENT || dcm_nl_parse_event(nev->nlh, &ev) ||
	    ev.index != s->o.index)
		return 0;
	s->counters.events++;
	if (!web_subscribed(s, web_chan_events(s)))
		return 0;
	json = rec_event_json(&ev, &len);
	if (json)
		web_publish(s, web_chan_events(s), json, len, web_now_ns());
	free(json);
	return 0;
}

/* Once a second: the /cycle channel's statistics, the log's suppressed count. */
static void cycle_tick(lws_sorted_usec_list_t *sul)
{
	struct web_server *s = lws_container_of(sul, struct web_server, sul_cycle);

	if (web_subscribed(s, web_chan_cycle(s))) {
		size_t len;
		char *json = web_cycle_json(s->dcm, &len);

		if (json)
			web_publish(s, web_chan_cycle(s), json, len, web_now_ns());
		free(json);
	}
	web_log_suppressed(&s->rl, false);
	lws_sul_schedule(s->ctx, 0, sul, cycle_tick, LWS_US_PER_SEC);
}

/* SIGINT or SIGTERM: the loop ends, exit status 0. */
static void on_signal(struct web_server *s)
{
	struct signalfd_siginfo si;

	while (read(s->sig_fd, &si, sizeof(si)) == sizeof(si))
		;
	s->stop = true;
	lws_cancel_service(s->ctx);
}

/* The descriptors adopted (adopt()): a frame, events, or a signal to read. */
static int cb_dcm_fd(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		     size_t len)
{
	struct web_server *s;
	void *what;

	(void)user;
	(void)in;
	(void)len;
	if (reason != LWS_CALLBACK_RAW_RX_FILE)
		return 0;
	s = web_server_of(wsi);
	what = lws_get_opaque_user_data(wsi);
	if (what == &s->sig_fd) {
		on_signal(s);
	} else if (s->nl && what == (void *)s->nl) {
		if (dcm_nl_recv(s->nl, on_event, s) == -ENOBUFS)
			s->counters.events_lost++;
	} else {
		on_frame(s);
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "http", web_http_callback, sizeof(struct web_http_session), 0, 0, NULL, 0 },
	{ WEB_SUBPROTOCOL, web_foxglove_callback, sizeof(struct web_client), 4096, 0, NULL, 0 },
	{ "dcm-fd", cb_dcm_fd, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

/* Watch @fd (a duplicate) in the loop: cb_dcm_fd() with @opaque. */
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

/* SIGINT and SIGTERM read from a descriptor of the loop; SIGPIPE ignored. */
static int signals_open(struct web_server *s)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	s->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (s->sig_fd < 0)
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/* The controller, its model and its events. Return: 0, or the exit status. */
static int controller_open(struct web_server *s)
{
	int r;

	r = dcm_open_index(s->o.index, &s->dcm);
	if (r) {
		fprintf(stderr, "dcm-web: opening dcm%u: %s\n", s->o.index, dcm_last_error());
		return 1;
	}
	r = web_model_build(s->dcm, NULL, s->o.index, &s->model);
	if (r && r != -ENOENT && r != -ENODEV) {
		fprintf(stderr, "dcm-web: reading dcm%u's keys: %s\n", s->o.index,
			dcm_strerror(r));
		return 1;
	}
	if (dcm_nl_open(&s->nl) || dcm_nl_subscribe_events(s->nl)) {
		web_log("no kernel events (netlink: %s): the events channel stays silent",
			dcm_last_error());
		dcm_nl_close(s->nl);
		s->nl = NULL;
	}
	return 0;
}

/*
 * The connections stay below the descriptor limit: libwebsockets stops
 * accepting (the listening socket leaves its poll set) while its table
 * is full, rather than accept(2) failing with EMFILE again and again.
 * Return: the connections at most, 0 if not even one fits.
 */
static unsigned int connections(const struct web_opts *o)
{
	unsigned long long nofile = 1024;
	unsigned int conns;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl))
		nofile = rl.rlim_cur == RLIM_INFINITY ? ULLONG_MAX : rl.rlim_cur;
	conns = web_max_connections(nofile, o->max_conns);
	if (!conns)
		fprintf(stderr, "dcm-web: %llu descriptors (RLIMIT_NOFILE) are too few: %d at"
			" least\n", nofile, WEB_FD_RESERVE + WEB_FDS_PER_CONNECTION);
	else if (o->max_conns && conns < o->max_conns)
		web_log("--max-connections %u: the descriptor limit (%llu) allows %u",
			o->max_conns, nofile, conns);
	return conns;
}

/*
 * A kernel without IPv6 (built without it, or booted with ipv6.disable=1)
 * refuses AF_INET6 sockets; libwebsockets, built with IPv6, would then
 * open no listening socket at all, say so in one log line and serve
 * nothing. There dcm-web listens on IPv4 alone.
 */
static bool ipv6_available(void)
{
	int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return errno != EAFNOSUPPORT;
	close(fd);
	return true;
}

/*
 * Whether one of the process's descriptors is a listening socket:
 * libwebsockets' context is created even when its listening socket could
 * not be (it logs an error and goes on). Where /proc is missing, assume so.
 */
static bool listening(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	bool found = false;

	if (!d)
		return true;
	while (!found && (e = readdir(d))) {
		int fd, on = 0;
		socklen_t len = sizeof(on);
		char *end;
		long n = strtol(e->d_name, &end, 10);

		if (*end || end == e->d_name || n < 0 || n > INT_MAX)
			continue;
		fd = (int)n;
		found = fd != dirfd(d) &&
			!getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) && on;
	}
	closedir(d);
	return found;
}

/* libwebsockets' context on the port, the controller and signals in it. Return: 0, or 1. */
static int context_create(struct web_server *s, unsigned int conns,
			  struct lws_http_mount *root)
{
	struct lws_context_creation_info info;
	struct lws_vhost *vh;

	memset(&info, 0, sizeof(info));
	info.port = (int)s->o.port;
	info.iface = s->o.address;
	info.protocols = protocols;
	info.mounts = web_http_mounts(root, s->o.root);
	info.options = LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE;
	if (!ipv6_available()) {
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
		web_log("the kernel has no IPv6: listening on IPv4 only");
	}
	info.vhost_name = "dcm-web";
	info.fd_limit_per_thread = conns + LWS_TABLE_EXTRA;
	info.user = s;
	/* No complete request, an idle keep-alive, a stalled answer. */
	info.timeout_secs = s->o.http_timeout;
	info.timeout_secs_ah_idle = s->o.http_timeout;
	info.keepalive_timeout = (int)s->o.http_timeout;
	s->ctx = lws_create_context(&info);
	/*
	 * On all addresses no listening socket is an error. On one address
	 * libwebsockets may wait for it to appear (an interface not up yet)
	 * and listen then.
	 */
	if (!s->ctx || (!s->o.address && !listening())) {
		fprintf(stderr, "dcm-web: cannot listen on %s port %u\n",
			s->o.address ? s->o.address : "all addresses", s->o.port);
		return 1;
	}
	vh = lws_get_vhost_by_name(s->ctx, "dcm-web");
	if (!vh || adopt(vh, dcm_poll_fd(s->dcm), s->dcm) ||
	    (s->nl && adopt(vh, dcm_nl_event_fd(s->nl), s->nl))) {
		fprintf(stderr, "dcm-web: cannot watch dcm%u's descriptors\n", s->o.index);
		return 1;
	}
	if (signals_open(s) || adopt(vh, s->sig_fd, &s->sig_fd)) {
		fprintf(stderr, "dcm-web: cannot watch the signals: %s\n", strerror(errno));
		return 1;
	}
	lws_sul_schedule(s->ctx, 0, &s->sul_cycle, cycle_tick, LWS_US_PER_SEC);
	return 0;
}

static void server_close(struct web_server *s)
{
	if (s->ctx)
		lws_context_destroy(s->ctx);
	web_log_suppressed(&s->rl, true);
	web_model_free(&s->model);
	dcm_values_frame_release(&s->frame);
	dcm_nl_close(s->nl);
	dcm_close(s->dcm);
	if (s->sig_fd >= 0)
		close(s->sig_fd);
}

int main(int argc, char **argv)
{
	struct web_server s = { .sig_fd = -1 };
	struct lws_http_mount root;
	unsigned int conns;
	int r;

	r = web_parse_args(argc, argv, &s.o);
	if (r >= 0)
		return r;
	/* The metrics and the stream do without the page: / answers 404. */
	if (access(s.o.root, R_OK | X_OK))
		web_log("the page's directory %s: %s; only /metrics and the WebSocket stream"
			" are served", s.o.root, strerror(errno));
	r = controller_open(&s);
	if (r)
		return r;
	s.session = web_now_ns();
	conns = connections(&s.o);
	if (!conns)
		return 1;
	ratelimit_init(&s.rl, WEB_LOG_BURST, WEB_LOG_INTERVAL_MS);
	web_log_lws(&s.rl);
	r = context_create(&s, conns, &root);
	if (!r) {
		web_log("dcm%u on %s port %u, page from %s, %u connections at most", s.o.index,
			s.o.address ? s.o.address : "all addresses", s.o.port, s.o.root, conns);
		while (!s.stop && lws_service(s.ctx, 0) >= 0)
			;
		r = s.exit_code;
	}
	server_close(&s);
	return r;
}
