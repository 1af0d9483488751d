/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's server: the state the loop, the HTTP answers and the
 * WebSocket clients share, one per process, passed to every part and
 * reached from libwebsockets' callbacks as the context's user pointer.
 */
#ifndef DCM_WEB_SERVER_H
#define DCM_WEB_SERVER_H

#include <stdbool.h>
#include <stdint.h>

#include <libwebsockets.h>

#include "libdcm.h"
#include "metrics.h"
#include "model.h"
#include "options.h"
#include "ratelimit.h"

struct web_client;

struct web_server {
	struct web_opts o;
	struct lws_context *ctx;
	struct dcm *dcm;
	struct dcm_nl *nl;		/* the kernel's events, or NULL */
	int sig_fd;			/* SIGINT and SIGTERM (signalfd), or -1 */
	struct web_model model;
	struct dcm_values_frame frame;	/* the last frame read */
	struct web_counters counters;
	struct web_client *clients;	/* the WebSocket clients (foxglove.c) */
	struct ratelimit rl;		/* the lines a peer can cause */
	lws_sorted_usec_list_t sul_cycle;
	uint64_t session;
	int read_errors;		/* frames that failed in a row */
	int exit_code;
	bool stop;
};

/* The server of a connection or descriptor of its context. */
static inline struct web_server *web_server_of(struct lws *wsi)
{
	return lws_context_user(lws_get_context(wsi));
}

#endif /* DCM_WEB_SERVER_H */
