// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola - the LoLA socket of NAO V6 (NAOqi 2.8's "RoboCupper" interface)
 * served from a dcm controller, so that clients written for LoLA run on dcm
 * unchanged. Documentation/dcm/lola.rst.
 *
 * One thread, one poll() loop. Every cycle of the controller (one frame
 * read from /dev/dcmN) it builds LoLA's sensor map from that cycle's values
 * and writes it, 896 bytes, to every connected client; a client that does
 * not read loses whole maps, never part of one. Actuator maps are read as
 * they come, checked as a whole, and applied at once as commands for the
 * next cycle, through one alias per LoLA key on a handle of their own; a
 * value outside its actuator's range is clamped to it (counted, logged once
 * per key and client), as the DCM's set does.
 *
 * Several clients may be connected; one commands at a time: the first to
 * send a valid actuator map while nobody commands takes command, and keeps
 * it until it disconnects or sends nothing for --timeout ms. The commanding
 * handle has the kernel's client watchdog armed with that timeout and the
 * safe action of --on-silence (hold, or ramp the stiffness down): a silent
 * or vanished client gets it from the kernel, and command is free again.
 * A client that disconnects is read to its end first, and its handle stays
 * open until its last map has been applied: what it sent before close()
 * reaches the motors before the watchdog's action.
 * Other clients' actuator maps are refused (read-only). A map that cannot be
 * a LoLA map is refused; a client whose maps are refused --max-errors times
 * in a row is disconnected; bytes that are no MessagePack disconnect at once
 * (the stream cannot be followed).
 *
 * State: `dcm-lola --status` reads the status socket (SOCKET.status).
 *
 * This file: the options, start-up, the poll() loop, the cycle and the
 * exit; lola_daemon.h names the other parts.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>

#include "lola_daemon.h"
#include "num.h"
#include "optdef.h"

#define DEFAULT_SOCKET		"/tmp/robocup"
#define DEFAULT_TIMEOUT_MS	200
#define DEFAULT_RAMP_MS		1000
#define DEFAULT_MAX_CLIENTS	8
#define DEFAULT_MAX_ERRORS	5

/* ---- options ---- */

#define STR_(x) #x
#define STR(x) STR_(x)

enum { OPT_STATUS_SOCKET = 256, OPT_MODE, OPT_ON_SILENCE, OPT_RAMP, OPT_PRIORITY,
       OPT_MAX_CLIENTS, OPT_MAX_ERRORS, OPT_STATUS, OPT_BODY_VERSION, OPT_HEAD_VERSION,
       OPT_IDLE, OPT_MAP, OPT_LOG_LIMIT };

/* The options: getopt_long()'s tables and the help (common/optdef.h). */
static const struct optdef optdefs[] = {
	{ "device", 'd', 0, "PATH", "the controller (default " LIBDCM_DEFAULT_DEVICE ")" },
	{ "socket", 's', 0, "PATH", "LoLA's socket (default " DEFAULT_SOCKET ")" },
	{ "status-socket", 0, OPT_STATUS_SOCKET, "PATH",
	  "the status socket (default SOCKET.status)" },
	{ "mode", 0, OPT_MODE, "OCTAL", "the sockets' permissions (default 0660)" },
	{ "timeout", 't', 0, "MS", "a commander silent this long loses command, and\n"
	  "the kernel's watchdog acts (default " STR(DEFAULT_TIMEOUT_MS) ", "
	  STR(LIBDCM_WATCHDOG_MIN_MS) "-" STR(LIBDCM_WATCHDOG_MAX_MS) ")" },
	{ "on-silence", 0, OPT_ON_SILENCE, "hold|ramp",
	  "the watchdog's action: the actuators hold (LoLA's\n"
	  "behaviour, default) or the stiffness ramps to 0" },
	{ "ramp-ms", 0, OPT_RAMP, "MS", "the ramp's length (default " STR(DEFAULT_RAMP_MS) ")" },
	{ "period", 'p', 0, "MS", "set the controller's period first (12: LoLA's rate;\n"
	  "needs CAP_NET_ADMIN)" },
	{ "priority", 0, OPT_PRIORITY, "N", "run SCHED_FIFO at priority N" },
	{ "max-clients", 0, OPT_MAX_CLIENTS, "N",
	  "connections at once (default " STR(DEFAULT_MAX_CLIENTS) ")" },
	{ "max-errors", 0, OPT_MAX_ERRORS, "N", "refused packets in a row before a client is\n"
	  "disconnected (default " STR(DEFAULT_MAX_ERRORS) "; 0: never)" },
	{ "idle-timeout", 0, OPT_IDLE, "MS", "close a client that neither reads its maps nor has\n"
	  "a map applied for MS (default " STR(LOLA_IDLE_DEFAULT_MS) "; 0: never)" },
	{ "map-timeout", 0, OPT_MAP, "MS", "close a client whose map has not ended after MS\n"
	  "(default " STR(LOLA_MAP_DEFAULT_MS) "; 0: never)" },
	{ "log-limit", 0, OPT_LOG_LIMIT, "N", "log lines per client and reason in 10 s (all\n"
	  "clients together: 2N; default " STR(LOLA_LOG_DEFAULT_LIMIT) ")" },
	{ "status", 0, OPT_STATUS, NULL, "print the running daemon's status and exit" },
	{ "body-version", 0, OPT_BODY_VERSION, "V",
	  "RobotConfig[1], the body's version (N.N.N, e.g. 6.0.0\n"
	  "for a NAO V6); default RobotConfig/Body/Version" },
	{ "head-version", 0, OPT_HEAD_VERSION, "V", "RobotConfig[3], the head's version; default\n"
	  "RobotConfig/Head/Version" },
	{ "help", 'h', 0, NULL, "this text" },
	{ "version", 'V', 0, NULL, "the version" },
	{ NULL, 0, 0, NULL, NULL }
};

#define N_OPTDEFS (sizeof(optdefs) / sizeof(optdefs[0]))

static void usage(FILE *f)
{
	fprintf(f,
"usage: dcm-lola [OPTION]...\n"
"       dcm-lola --status [-s SOCKET | --status-socket PATH]\n"
"\n"
"Serve the LoLA protocol (NAO V6's RoboCup socket) from a dcm controller:\n"
"every cycle one 896-byte sensor map to each client, actuator maps applied\n"
"at the next cycle. Documentation/dcm/lola.rst.\n"
"\n");
	optdef_print(f, optdefs, 23);
}

/* An option's number in [@min, @max], in @base 8 or 10 (common/num.h). */
static bool parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		       unsigned int base)
{
	unsigned long long v;

	if (num_parse_ull(s, base, min, max, &v))
		return false;
	*out = (unsigned int)v;
	return true;
}

/* A timeout option: 0 (never) or LOLA_TIMEOUT_MIN_MS to LOLA_TIMEOUT_MAX_MS. */
static bool parse_timeout(const char *s, unsigned int *out)
{
	return parse_uint(s, 0, LOLA_TIMEOUT_MAX_MS, out, 10) &&
	       (*out == 0 || *out >= LOLA_TIMEOUT_MIN_MS);
}

static void set_defaults(struct lola_opts *o)
{
	o->device = LIBDCM_DEFAULT_DEVICE;
	o->socket_path = DEFAULT_SOCKET;
	o->timeout_ms = DEFAULT_TIMEOUT_MS;
	o->action = LIBDCM_WATCHDOG_HOLD;
	o->ramp_ms = DEFAULT_RAMP_MS;
	o->max_clients = DEFAULT_MAX_CLIENTS;
	o->max_errors = DEFAULT_MAX_ERRORS;
	o->mode = 0660;
	o->priority = -1;
	o->idle_ms = LOLA_IDLE_DEFAULT_MS;
	o->map_ms = LOLA_MAP_DEFAULT_MS;
	o->log_limit = LOLA_LOG_DEFAULT_LIMIT;
}

/* The option @c that takes a number, its argument @arg. Return: false if bad. */
static bool set_number(struct lola_opts *o, int c, const char *arg)
{
	unsigned int v;

	switch (c) {
	case OPT_MODE:
		if (!parse_uint(arg, 0, 0777, &v, 8))
			return false;
		o->mode = v;
		return true;
	case 't':
		return parse_uint(arg, LIBDCM_WATCHDOG_MIN_MS, LIBDCM_WATCHDOG_MAX_MS,
				  &o->timeout_ms, 10);
	case OPT_RAMP:
		return parse_uint(arg, 0, LIBDCM_WATCHDOG_RAMP_MAX_MS, &o->ramp_ms, 10);
	case 'p':
		return parse_uint(arg, 1, 100, &o->period_ms, 10);
	case OPT_PRIORITY:
		if (!parse_uint(arg, 1, 99, &v, 10))
			return false;
		o->priority = (int)v;
		return true;
	case OPT_MAX_CLIENTS:
		return parse_uint(arg, 1, 1024, &o->max_clients, 10);
	case OPT_MAX_ERRORS:
		return parse_uint(arg, 0, 1000000, &o->max_errors, 10);
	case OPT_IDLE:
		return parse_timeout(arg, &o->idle_ms);
	case OPT_MAP:
		return parse_timeout(arg, &o->map_ms);
	case OPT_LOG_LIMIT:
		return parse_uint(arg, 1, 100000, &o->log_limit, 10);
	default:
		return false;
	}
}

/*
 * The option @c with its argument @arg (NULL: none). Return: 0, 1 to exit
 * 0 (--help, --version), -1 on a bad one (said on stderr).
 */
static int set_option(struct lola_opts *o, int c, const char *arg, const char **status_path,
		      bool *status_only)
{
	switch (c) {
	case 'd':
		o->device = arg;
		return 0;
	case 's':
		o->socket_path = arg;
		return 0;
	case OPT_STATUS_SOCKET:
		*status_path = arg;
		return 0;
	case OPT_ON_SILENCE:
		if (!strcmp(arg, "hold"))
			o->action = LIBDCM_WATCHDOG_HOLD;
		else if (!strcmp(arg, "ramp"))
			o->action = LIBDCM_WATCHDOG_RAMP;
		else
			break;
		return 0;
	case OPT_STATUS:
		*status_only = true;
		return 0;
	case OPT_BODY_VERSION:
	case OPT_HEAD_VERSION:
		if (!lola_version_valid(arg)) {
			fprintf(stderr, "dcm-lola: bad version '%s': LoLA's form is N.N.N, "
				"e.g. 6.0.0\n", arg);
			return -1;
		}
		*(c == OPT_BODY_VERSION ? &o->body_version : &o->head_version) = arg;
		return 0;
	case 'h':
		usage(stdout);
		return 1;
	case 'V':
		printf("dcm-lola (libdcm %s)\n", dcm_lib_version());
		return 1;
	default:
		if (set_number(o, c, arg))
			return 0;
		break;
	}
	fprintf(stderr, "dcm-lola: bad value '%s' (see --help)\n", arg);
	return -1;
}

/* Return: 0 to run, 1 to exit 0 (--help, --version), -1 on a usage error. */
static int parse_args(struct lola_opts *o, int argc, char **argv, bool *status_only)
{
	struct option opts[N_OPTDEFS];
	char sopts[2 * N_OPTDEFS + 2], why[256];
	const char *status_path = NULL;
	int c, r;

	if (optdef_getopt(optdefs, ":", opts, sopts, sizeof(sopts)))
		return -1;
	set_defaults(o);
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = optdef_next(optdefs, argc, argv, sopts, opts, why, sizeof(why))) != -1) {
		if (c == '?') {
			fprintf(stderr, "dcm-lola: %s\n", why);
			usage(stderr);
			return -1;
		}
		r = set_option(o, c, optarg, &status_path, status_only);
		if (r)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "dcm-lola: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if ((size_t)snprintf(o->status_path, sizeof(o->status_path), "%s%s",
			     status_path ? status_path : o->socket_path,
			     status_path ? "" : ".status") >= sizeof(o->status_path)) {
		fprintf(stderr, "dcm-lola: status socket path too long\n");
		return -1;
	}
	return 0;
}


/* ---- start-up ---- */

static int set_period(struct dcm_sysfs *sys, unsigned int period_ms)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/period_us", dcm_sysfs_path(sys));
	f = fopen(path, "w");
	if (!f) {
		lola_logmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%u\n", period_ms * 1000);
	ret = fclose(f);
	if (ret) {
		lola_logmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	lola_logmsg("period set to %u ms", period_ms);
	return 0;
}

/*
 * Listen on @path: the socket the service manager passed for it, else one
 * of our own put there whatever a local user left there (lola_socket.c).
 */
static int listen_on(struct lola_listener *l, const char *path, mode_t mode)
{
	char err[256], note[256];
	int ret;

	ret = lola_listen_inherited(l, path, err, sizeof(err));
	if (ret > 0) {
		lola_logmsg("%s: the service manager's socket", path);
		return 0;
	}
	if (ret == 0)
		ret = lola_listen(l, path, mode, err, sizeof(err), note, sizeof(note));
	if (ret < 0) {
		lola_logmsg("%s: %s", path, err);
		return -1;
	}
	if (note[0])
		lola_logmsg("%s: %s", path, note);
	return 0;
}

/*
 * The controller: its device, its number, its sysfs, the period asked
 * for. @info is filled. -1 (logged) when one cannot be had.
 */
static int open_controller(struct lola_daemon *d, struct dcm_info *info)
{
	const struct lola_opts *o = &d->opt;
	struct dcm_sysfs *sys = NULL;
	struct dcm *dcm = NULL;
	int ret;

	ret = dcm_open(o->device, &dcm);
	if (ret) {
		lola_logmsg("%s: %s", o->device, dcm_last_error());
		return -1;
	}
	d->feed.dcm = dcm;
	ret = dcm_get_info(dcm, info);
	if (ret) {
		lola_logmsg("%s: %s", o->device, dcm_last_error());
		return -1;
	}
	d->index = info->index;
	ret = dcm_sysfs_open(NULL, d->index, &sys);
	if (ret) {
		lola_logmsg("sysfs of dcm%u: %s", d->index, dcm_last_error());
		return -1;
	}
	d->feed.sys = sys;
	if (o->period_ms && set_period(sys, o->period_ms))
		return -1;
	return 0;
}

/* A socket the service manager passed that is neither of ours is a mistake in the units. */
static int check_inherited(const struct lola_opts *o)
{
	char other[LOLA_PATH_MAX + 1];
	int fd = lola_inherited_unclaimed(other, sizeof(other));

	if (fd >= 0) {
		lola_logmsg("the service manager passed socket %d (%s), which is neither "
			    "%s nor %s", fd, other, o->socket_path, o->status_path);
		return -1;
	}
	return 0;
}

static int setup(struct lola_daemon *d)
{
	const struct lola_opts *o = &d->opt;
	struct dcm_info info;
	sigset_t mask;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

	if (open_controller(d, &info))
		return -1;
	if (lola_feed_init(&d->feed, d->feed.dcm, d->feed.sys, info.n_subdevices + 64) ||
	    lola_clients_init(&d->clients, o->max_clients))
		return -1;
	if (o->priority > 0) {
		struct sched_param sp = { .sched_priority = o->priority };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			lola_logmsg("SCHED_FIFO %d: %s (running without)", o->priority,
				    strerror(errno));
	}
	if (listen_on(&d->lsock, o->socket_path, o->mode) ||
	    listen_on(&d->lstatus, o->status_path, o->mode))
		return -1;
	if (check_inherited(o))
		return -1;
	d->start_ns = lola_now_ns();
	lola_logmsg("serving LoLA on %s from %s (dcm%u, period %.3f ms); status on %s",
		    o->socket_path, o->device, d->index,
		    (o->period_ms ? o->period_ms * 1000 : info.period_us) / 1000.0,
		    o->status_path);
	return 0;
}

/* ---- the cycle ---- */

static void on_cycle(struct lola_daemon *d, int64_t woke_ns)
{
	struct lola_feed *f = &d->feed;
	struct lola_command *k = &d->cmd;
	struct pollfd p;
	unsigned int i;
	int64_t done;
	int ret;

	ret = lola_feed_read(f);
	if (ret) {
		if (ret != -EINTR && ret != -EAGAIN) {
			lola_logmsg("%s: no frame: %s", d->opt.device, dcm_last_error());
			if (ret == -ENODEV)
				d->stop = true;
		}
		return;
	}
	if (!f->mapped || f->frame.generation != f->gen) {
		if (f->mapped)
			lola_logmsg("the description was replaced: keys looked up again");
		lola_feed_map(f, &d->opt);
		lola_command_map(k, f->dcm, f->sys);
	}
	if (f->last_cycle && f->frame.cycle > f->last_cycle + 1)
		f->missed += f->frame.cycle - f->last_cycle - 1;
	f->last_cycle = f->frame.cycle;
	f->last_time = f->frame.time;
	f->cycles++;
	if (k->closing && f->frame.cycle >= k->closing_cycle)
		lola_command_finish(k);

	if (lola_feed_encode(f))
		return;
	for (i = 0; i < d->clients.n; i++)
		if (!d->clients.v[i]->gone && !d->clients.v[i]->hup)
			lola_client_send(d, d->clients.v[i], f->pkt);
	done = lola_now_ns();
	lola_timing_add(&f->lat, done - woke_ns);
	/* Late: the next cycle's frame was there before this one's map left. */
	p.fd = dcm_poll_fd(f->dcm);
	p.events = POLLIN;
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN))
		f->late++;

	/* A commander that went silent has had the watchdog's action. */
	if (k->cmd) {
		struct lola_client *c = lola_client_find(&d->clients, k->commander);

		if (c && done - c->last_cmd_ns > (int64_t)d->opt.timeout_ms * 1000000) {
			k->silences++;
			lola_command_release(k, &d->log, c, "silent", false, f->last_cycle);
		}
	}
}

static void loop(struct lola_daemon *d)
{
	struct lola_clients *cl = &d->clients;
	struct pollfd *p;
	unsigned int i, n;

	p = calloc(d->opt.max_clients + 4, sizeof(*p));
	if (!p)
		return;
	while (!d->stop) {
		int64_t woke;

		p[0] = (struct pollfd){ .fd = dcm_poll_fd(d->feed.dcm), .events = POLLIN };
		p[1] = (struct pollfd){ .fd = d->lsock.fd, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = d->lstatus.fd, .events = POLLIN };
		p[3] = (struct pollfd){ .fd = d->sig_fd, .events = POLLIN };
		n = cl->n;
		for (i = 0; i < n; i++)
			p[4 + i] = (struct pollfd){
				.fd = cl->v[i]->fd,
				.events = POLLIN | (cl->v[i]->pend_len && !cl->v[i]->hup ?
						    POLLOUT : 0),
			};
		if (poll(p, 4 + n, 100) < 0) {
			if (errno == EINTR)
				continue;
			lola_logmsg("poll: %s", strerror(errno));
			break;
		}
		woke = lola_now_ns();
		if (p[3].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(d->sig_fd, &si, sizeof(si)) == sizeof(si) &&
			    si.ssi_signo != SIGHUP) {
				lola_logmsg("signal %u: stopping", si.ssi_signo);
				d->stop = true;
			}
		}
		/* The cycle's map first, then the clients' maps (for the next cycle). */
		if (p[0].revents & (POLLIN | POLLERR | POLLHUP))
			on_cycle(d, woke);
		for (i = 0; i < n; i++) {
			struct lola_client *c = cl->v[i];

			if (c->gone)
				continue;
			if (p[4 + i].revents & POLLOUT)
				lola_client_flush(d, c);
			if (!c->gone && (p[4 + i].revents & (POLLIN | POLLHUP | POLLERR)))
				lola_client_read(d, c);
		}
		lola_clients_check(d);
		lola_clients_reap(cl);
		if (p[1].revents & POLLIN)
			lola_client_accept(d, d->lsock.fd);
		if (p[2].revents & POLLIN)
			lola_status_serve(d);
	}
	free(p);
}

/* ---- the exit ---- */

/*
 * Before the daemon exits: the maps it queued reach the boards first (a
 * few frames: the wait ends with the cycle that applies them, or after a
 * second without it, however the frames come), then the handles close.
 */
static void settle(struct lola_daemon *d)
{
	struct lola_feed *f = &d->feed;
	struct lola_command *k = &d->cmd;
	int64_t end = lola_now_ns() + 1000000000LL;
	uint64_t until = 0;

	if (k->cmd)
		until = k->cmd_cycle + 2;
	if (k->closing && k->closing_cycle > until)
		until = k->closing_cycle;
	while (f->dcm && f->values && f->last_cycle < until) {
		struct pollfd p = { .fd = dcm_poll_fd(f->dcm), .events = POLLIN };
		int64_t left_ms = (end - lola_now_ns()) / 1000000;
		int r;

		if (left_ms <= 0)
			break;
		r = poll(&p, 1, (int)left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 1 || lola_feed_read(f))
			break;
		f->last_cycle = f->frame.cycle;
	}
	lola_command_finish(k);
}

static void teardown(struct lola_daemon *d)
{
	struct lola_clients *cl = &d->clients;
	unsigned int i, k;

	/* Maps already in the sockets were sent: they are applied too. */
	for (i = 0; i < cl->n; i++)
		for (k = 0; k < 16 && !cl->v[i]->gone; k++)
			lola_client_read(d, cl->v[i]);
	settle(d);
	for (i = 0; i < cl->n; i++) {
		struct lola_client *c = cl->v[i];

		if (c->id == d->cmd.commander)
			lola_command_release(&d->cmd, &d->log, c, "stopped: the daemon exits",
					     false, d->feed.last_cycle);
		lola_log_client_gone(&d->log, &c->log, c->id, (uint64_t)lola_now_ns() / 1000000);
		lola_client_free(c);
	}
	lola_command_release(&d->cmd, &d->log, NULL, "stopped", false, d->feed.last_cycle);
	lola_log_finish(&d->log, (uint64_t)lola_now_ns() / 1000000);
	cl->n = 0;
	lola_unlisten(&d->lsock);
	lola_unlisten(&d->lstatus);
	dcm_sysfs_close(d->feed.sys);
	dcm_close(d->feed.dcm);
	lola_feed_free(&d->feed);
	free(cl->v);
	cl->v = NULL;
}

int main(int argc, char **argv)
{
	static struct lola_daemon d = {
		.sig_fd = -1, .lsock = { .fd = -1 }, .lstatus = { .fd = -1 },
	};
	bool status_only = false;
	int ret = 0;

	setvbuf(stderr, NULL, _IOLBF, 0);
	ret = parse_args(&d.opt, argc, argv, &status_only);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (status_only)
		return lola_status_client(d.opt.status_path);
	lola_log_init(&d.log, d.opt.log_limit, LOLA_LOG_INTERVAL_MS);
	lola_command_init(&d.cmd, &d.opt);
	if (setup(&d))
		ret = 1;
	else
		loop(&d);
	teardown(&d);
	return ret;
}
