// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web's options (getopt_long() from common/optdef.h's table) and the
 * connections the descriptor limit allows.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "libdcm.h"
#include "num.h"
#include "optdef.h"
#include "options.h"

#ifndef DCM_WEB_ROOT
#define DCM_WEB_ROOT "/usr/share/dcm/web"
#endif
#define DEFAULT_PORT 8080
#define DEFAULT_LOLA_STATUS "/tmp/robocup.status"
#define DEFAULT_MAX_CLIENTS 16
#define DEFAULT_HTTP_TIMEOUT 5	/* s */
#define DEFAULT_WS_TIMEOUT 5	/* s */
#define MAX_TIMEOUT 3600	/* s */

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
		"(" WEB_SUBPROTOCOL ") on the same port.\n"
		"\n");
	optdef_print(f, optdefs, 25);
	fprintf(f,
		"\n"
		"--opt=VALUE is --opt VALUE. SIGINT and SIGTERM stop it. Exit status: 0\n"
		"after a signal, 1 failure, 2 usage error. See dcm-web(8).\n");
}

static void defaults(struct web_opts *o)
{
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
}

/* The options that take a whole number: their ranges and their fields. */
static const struct {
	int opt;
	const char *name;
	unsigned int min, max;
	size_t off;
} numbers[] = {
	{ 'p', "--port", 1, 65535, offsetof(struct web_opts, port) },
	{ 'i', "--index", 0, 255, offsetof(struct web_opts, index) },
	{ 'm', "--max-clients", 1, 1024, offsetof(struct web_opts, max_clients) },
	{ 'c', "--max-connections", 1, WEB_MAX_CONNECTIONS, offsetof(struct web_opts, max_conns) },
	{ 't', "--http-timeout", 1, MAX_TIMEOUT, offsetof(struct web_opts, http_timeout) },
	{ 'w', "--ws-timeout", 1, MAX_TIMEOUT, offsetof(struct web_opts, ws_timeout) },
};

/* Option @c with argument @arg. Return: -1 to go on, else the exit status. */
static int option(int c, char *arg, struct web_opts *o)
{
	unsigned long long v;
	size_t i;

	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
		if (numbers[i].opt != c)
			continue;
		if (num_parse_ull(arg, 10, numbers[i].min, numbers[i].max, &v)) {
			fprintf(stderr, "dcm-web: %s wants %u to %u, not '%s'\n", numbers[i].name,
				numbers[i].min, numbers[i].max, arg);
			return 2;
		}
		*(unsigned int *)((char *)o + numbers[i].off) = (unsigned int)v;
		return -1;
	}
	switch (c) {
	case 'a':
		o->address = arg;
		return -1;
	case 'r':
		o->root = arg;
		return -1;
	case 'l':
		o->lola_status = strcmp(arg, "none") ? arg : NULL;
		return -1;
	case 'v':
		o->verbose = true;
		return -1;
	case 'V':
		printf("dcm-web %s\n", dcm_lib_version());
		return 0;
	case 'h':
		usage(stdout);
		return 0;
	default:
		return 2;	/* '?', ':': said by web_parse_args() */
	}
}

/* Return: -1 to go on, else the exit status. */
int web_parse_args(int argc, char **argv, struct web_opts *o)
{
	struct option lopts[sizeof(optdefs) / sizeof(optdefs[0])];
	char sopts[2 * sizeof(optdefs) / sizeof(optdefs[0]) + 2];
	char why[256];
	int c, r;

	if (optdef_getopt(optdefs, ":", lopts, sopts, sizeof(sopts))) {
		fprintf(stderr, "dcm-web: the option table does not fit\n");
		return 1;
	}
	defaults(o);
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = optdef_next(optdefs, argc, argv, sopts, lopts, why, sizeof(why))) != -1) {
		if (c == '?') {
			fprintf(stderr, "dcm-web: %s\n", why);
			usage(stderr);
			return 2;
		}
		r = option(c, optarg, o);
		if (r >= 0)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "dcm-web: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	return -1;
}

unsigned int web_max_connections(uint64_t nofile, unsigned int want)
{
	uint64_t fit;

	if (nofile <= WEB_FD_RESERVE)
		return 0;
	fit = (nofile - WEB_FD_RESERVE) / WEB_FDS_PER_CONNECTION;
	if (fit > WEB_MAX_CONNECTIONS)
		fit = WEB_MAX_CONNECTIONS;
	if (want && want < fit)
		return want;
	return (unsigned int)fit;
}
