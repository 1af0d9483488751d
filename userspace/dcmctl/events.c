// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl events: follow the multicast group "events" live, one line (or one
 * JSON object) an event.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/dcm.h>

#include "json.h"
#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "events.h"
#include "rows.h"

static const struct optdef events_opts[] = {
	{ "type", 't', 't', "TYPE,...", "only these types (default: all)" },
	{ "count", 'n', 'n', "N", "exit after N events (failing if --timeout comes first)" },
	{ "timeout", 0, DCMCTL_OPT_TIMEOUT, "SEC", "exit after SEC seconds" },
	{ "history", 'H', 'H', NULL, "first the kernel's last events (64 a controller)" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_events = {
	.cmd = "events", .opts = events_opts, .prefix_missing = true,
};

#define DCMCTL_MAX_CONTROLLERS	16	/* DCM_MAX_CONTROLLERS */

struct events_ctx {
	const struct dcmctl_opts *o;
	const struct dcmctl_events_args *a;
	FILE *out;
	uint64_t shown;
	/* --history: per controller, the number of the last event of the dump */
	bool dumped[DCMCTL_MAX_CONTROLLERS];
	uint64_t last_seq[DCMCTL_MAX_CONTROLLERS];
	bool in_history;	/* the events passed now are the dump's */
};

static int parse_types(const char *list, uint32_t *types, char *err, size_t errlen)
{
	char *copy, *tok, *save = NULL;
	int t;

	copy = strdup(list);
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		t = dcm_event_type_parse(tok);
		if (t < 0) {
			snprintf(err, errlen, "events: unknown type '%s'", tok);
			free(copy);
			return -EINVAL;
		}
		*types |= 1U << t;
	}
	free(copy);
	if (!*types) {
		snprintf(err, errlen, "events: --type needs a type");
		return -EINVAL;
	}
	return 0;
}

int dcmctl_parse_events(int argc, char **argv, struct dcmctl_events_args *a, char *err,
			size_t errlen)
{
	const struct dcmctl_optspec spec = dcmctl_spec_events;
	struct dcmctl_getopt g;
	unsigned long long v;
	int c, r = -EINVAL;

	memset(a, 0, sizeof(*a));
	a->timeout_ms = -1;
	if (dcmctl_getopt_init(&g, &spec, argc, argv, err, errlen))
		return -ENOMEM;
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		switch (c) {
		case 't':
			if (parse_types(g.optarg, &a->types, err, errlen))
				goto out;
			break;
		case 'H':
			a->history = true;
			break;
		case 'n':
			if (num_parse_count(g.optarg, 1, UINT64_MAX, &v)) {
				snprintf(err, errlen, "events: invalid count '%s' (1 or more)",
					 g.optarg);
				goto out;
			}
			a->count = (uint64_t)v;
			break;
		default:
			if (num_parse_count(g.optarg, 0, INT_MAX / 1000, &v)) {
				snprintf(err, errlen, "events: invalid timeout '%s' (seconds)",
					 g.optarg);
				goto out;
			}
			a->timeout_ms = (long)v * 1000;
			break;
		}
	}
	if (!c && g.n_args)
		snprintf(err, errlen, "events: '%s' is not an option", g.args[0]);
	else if (!c)
		r = 0;
out:
	dcmctl_getopt_free(&g);
	return r;
}

static void print_event(FILE *out, const struct dcmctl_opts *o, const struct dcm_event_msg *e,
			const uint64_t *seq, bool past)
{
	struct json_writer w;
	char line[512];

	if (!o->json) {
		dcm_event_format(e, line, sizeof(line));
		fprintf(out, "%s\n", line);
		fflush(out);
		return;
	}
	json_init(&w, out, false);
	rec_json_event(&w, NULL, e);
	if (seq)
		json_uint(&w, "seq", *seq);
	if (past)
		json_bool(&w, "history", true);
	json_end_object(&w);
	json_finish(&w);
	fflush(out);
}

static int on_event(const struct dcm_nl_event *ev, void *arg)
{
	struct events_ctx *c = arg;
	struct dcm_event_msg e;
	uint64_t seq;
	bool has_seq;

	if ((ev->cmd != DCM_CMD_EVENT && ev->cmd != DCM_CMD_GET_EVENTS) ||
	    dcm_nl_parse_event(ev->nlh, &e))
		return 0;
	has_seq = !dcm_nl_event_seq(ev->nlh, &seq);
	if (has_seq && e.index < DCMCTL_MAX_CONTROLLERS) {
		if (c->in_history) {
			c->dumped[e.index] = true;
			c->last_seq[e.index] = seq;
		} else if (c->dumped[e.index] && seq <= c->last_seq[e.index]) {
			return 0;	/* the dump gave it already */
		}
	}
	if (c->o->device && c->o->dev_index >= 0 && e.index != (unsigned int)c->o->dev_index)
		return 0;
	if (c->a->types && (e.type >= 32 || !(c->a->types & (1U << e.type))))
		return 0;
	print_event(c->out, c->o, &e, has_seq ? &seq : NULL, c->in_history);
	c->shown++;
	return c->a->count && c->shown >= c->a->count;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The events as they come, until --count are shown or --timeout is over
 * (neither: until interrupted). -1 when the socket failed, said on @err.
 */
static int follow(struct dcm_nl *nl, struct events_ctx *c, FILE *err)
{
	const struct dcmctl_events_args *a = c->a;
	struct pollfd pfd;
	long long end = 0;
	int r;

	if (a->timeout_ms >= 0)
		end = now_ms() + a->timeout_ms;
	pfd.fd = dcm_nl_event_fd(nl);
	pfd.events = POLLIN;
	for (;;) {
		int wait = -1;

		if (a->timeout_ms >= 0) {
			long long left = end - now_ms();

			if (left <= 0)
				return 0;
			wait = (int)left;
		}
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(err, "dcmctl: events: poll: %s\n", strerror(errno));
			return -1;
		}
		if (!r)
			continue;
		r = dcm_nl_recv(nl, on_event, c);
		if (r == -ENOBUFS) {
			fprintf(err, "dcmctl: events: the socket overran, events were lost\n");
			continue;
		}
		if (r < 0) {
			fprintf(err, "dcmctl: events: %s\n", dcm_last_error());
			return -1;
		}
		if (a->count && c->shown >= a->count)
			return 0;
	}
}

int dcmctl_events(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct events_ctx c = { .o = o, .out = out };
	struct dcmctl_events_args a;
	struct dcm_nl *nl = NULL;
	char msg[256];
	int r, ret = DCMCTL_EXIT_FAIL;

	if (dcmctl_parse_events(o->argc, o->argv, &a, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_USAGE;
	}
	c.a = &a;
	r = dcm_nl_open(&nl);
	if (!r)
		r = dcm_nl_subscribe_events(nl);
	if (r) {
		fprintf(err, "dcmctl: events: %s (is dcm.ko loaded?)\n", dcm_last_error());
		goto out;
	}
	/* Joined first, then the dump: nothing falls between; seq drops doubles. */
	if (a.history) {
		c.in_history = true;
		r = dcm_nl_event_history(nl, on_event, &c);
		c.in_history = false;
		if (r < 0) {
			fprintf(err, "dcmctl: events: --history: %s\n", dcm_last_error());
			goto out;
		}
		if (a.count && c.shown >= a.count) {
			ret = DCMCTL_EXIT_OK;
			goto out;
		}
	}
	if (follow(nl, &c, err))
		goto out;
	/* With --count, stopping short of it (at --timeout) is a failure. */
	ret = a.count && c.shown < a.count ? DCMCTL_EXIT_FAIL : DCMCTL_EXIT_OK;
out:
	dcm_nl_close(nl);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_events = {
	.name = "events",
	.run = dcmctl_events,
	.args = "[--history] [--type TYPE,...] [--count N] [--timeout SEC]",
	.help = "follow the events live (--history: the recent ones first)",
	.details = "TYPE: error, nack, ack, safety, temperature, battery, overrun, config,\n"
		"calibration, watchdog, special, fall. With --count, exits 1 if --timeout\n"
		"comes first. --history first shows the events the kernel kept (the\n"
		"last 64 safety events and 64 others of each controller, posted\n"
		"whether anyone listened or not),\n"
		"then the live ones, each once; --count and --type count and filter\n"
		"both. Every user may follow the events.",
	.spec = &dcmctl_spec_events,
};
