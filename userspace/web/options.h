/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's options, and the connections the descriptor limit allows.
 * Documentation/dcm/web.rst.
 */
#ifndef DCM_WEB_OPTIONS_H
#define DCM_WEB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* The WebSocket subprotocol the server speaks (and its help names). */
#define WEB_SUBPROTOCOL "foxglove.websocket.v1"

struct web_opts {
	unsigned int port;
	const char *address;
	unsigned int index;
	const char *root;
	const char *lola_status;	/* NULL: not read */
	unsigned int max_clients;
	unsigned int max_conns;		/* 0: what the descriptor limit allows */
	unsigned int http_timeout;	/* s */
	unsigned int ws_timeout;	/* s */
	bool verbose;
};

/* Return: -1 to go on, else the exit status (help, version, usage error). */
int web_parse_args(int argc, char **argv, struct web_opts *o);

/*
 * Descriptors: WEB_FD_RESERVE for what is not a connection (stdio, the
 * controller, netlink, the signals, libwebsockets' own, a scrape's socket
 * and sysfs files), and two for each connection (its socket, and the file
 * of the page being sent on it).
 */
#define WEB_FD_RESERVE 32
#define WEB_FDS_PER_CONNECTION 2
#define WEB_MAX_CONNECTIONS 65536

/*
 * The connections dcm-web may hold at once with @nofile descriptors
 * (RLIMIT_NOFILE's soft limit): @want (--max-connections; 0: as many as
 * fit), at most what fits under @nofile. Return 0 if not even one fits.
 */
unsigned int web_max_connections(uint64_t nofile, unsigned int want);

#endif /* DCM_WEB_OPTIONS_H */
