// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd - the dcm daemon.
 *
 * Checks that the kernel side is there and speaks our ABI (generic netlink
 * family "dcm", GET_INFO dump), logs every controller, loads the robot
 * description (Device.xml and the preference files, desc/load.c) into the
 * kernel as one transaction (push.c), then follows the multicast group
 * "events" and logs what arrives of its controller (-i), rate limited
 * (falls and safety rules never, the other safety events apart: a flood of
 * others does not silence them). An
 * overrun of its socket loses nothing the kernel's history still holds:
 * libdcm reads the dropped events from there (dcm_nl_recv_follow()).
 * SIGHUP reloads. One dcmd runs per controller: two of them share no file
 * (preferences of dcmN in /etc/dcm/dcmN, N > 0; pid file -p) and log under
 * their own ident ("dcmd", "dcmd.N").
 *
 * -1 loads once and exits; -n only checks (with the kernel's own model
 * code, dryrun.c), without a kernel.
 *
 * It never disturbs a running robot: the pid file is locked before anything
 * touches the kernel, and a description equal to the running one leaves it
 * running (the kernel compares them at commit: same generation, clients'
 * handles stay valid).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/dcm.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <systemd/sd-daemon.h>

#include "libdcm.h"
#include "dcmd.h"
#include "desc.h"

static struct {
	struct dcmd_opts opts;
	bool no_syslog;		/* -n: stderr only */
	bool journal;		/* stderr is the journal: there only, "<PRIO>" */
	struct dcm_nl *nl;
	struct ratelimit rl;
	struct ratelimit rl_safety;	/* the safety events' own */
	struct dcm_event_follow follow;	/* where dcmd is in its controller's events */
	uint64_t lost_said;		/* follow.lost already logged */
	uint64_t overruns_said;		/* follow.overruns already logged */
	bool numbered;			/* the follower knows the numbering (dcmd_event_line()) */
	char ident[32];		/* syslog: "dcmd", "dcmd.N" for controller N > 0 */
	int pidfile_fd;
	int ready_fd;		/* write end of the pipe to the parent */
	unsigned long events;	/* received in total */
} d = { .pidfile_fd = -1, .ready_fd = -1 };

static void logmsg(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void logmsg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (d.journal) {
		if (prio <= LOG_INFO || d.opts.verbose) {
			fputs(dcmd_journal_prefix(prio), stderr);
			vfprintf(stderr, fmt, ap);
			fputc('\n', stderr);
		}
	} else if (d.no_syslog) {
		if (prio <= LOG_INFO || d.opts.verbose) {
			fputs("dcmd: ", stderr);
			vfprintf(stderr, fmt, ap);
			fputc('\n', stderr);
		}
	} else {
		vsyslog(prio, fmt, ap);
	}
	va_end(ap);
}

/*
 * Where the log goes: the journal alone if stderr is the journal (under
 * systemd: syslog would repeat each line); else syslog, and stderr too
 * while @perror (in the foreground, or until detached).
 */
static void log_open(bool perror)
{
	closelog();
	d.journal = dcmd_stderr_is_journal();
	if (d.journal)
		return;
	openlog(d.ident, LOG_PID | (perror ? LOG_PERROR : 0), LOG_DAEMON);
	setlogmask(LOG_UPTO(d.opts.verbose ? LOG_DEBUG : LOG_INFO));
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------
 * Controllers
 */

struct dump_ctx {
	unsigned int count;
	unsigned int bad_abi;
};

static void flags_text(uint32_t flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s",
		 flags & LIBDCM_INFO_SIMULATED ? " simulated" : "",
		 flags & LIBDCM_INFO_CONFIGURED ? " configured" : "",
		 flags & LIBDCM_INFO_RUNNING ? " running" : "",
		 flags ? "" : " none");
}

static int log_controller(const struct dcm_info *info, void *arg)
{
	struct dump_ctx *ctx = arg;
	char flags[64];

	ctx->count++;
	flags_text(info->flags, flags, sizeof(flags));
	logmsg(LOG_INFO,
	       "controller %s (index %u): driver %s, ABI %u.%u, period %u.%03u ms, %u devices, %u subdevices, flags:%s",
	       info->name, info->index, info->driver, info->abi_major,
	       info->abi_minor, info->period_us / 1000, info->period_us % 1000,
	       info->n_devices, info->n_subdevices, flags);

	if (info->abi_major != LIBDCM_ABI_MAJOR) {
		logmsg(LOG_ERR,
		       "controller %s speaks ABI %u.%u, dcmd speaks %u.x: refusing to run",
		       info->name, info->abi_major, info->abi_minor,
		       LIBDCM_ABI_MAJOR);
		ctx->bad_abi++;
	} else if (info->abi_minor > LIBDCM_ABI_MINOR) {
		logmsg(LOG_NOTICE,
		       "controller %s: ABI minor %u is newer than dcmd's %u; its additions are unused",
		       info->name, info->abi_minor, LIBDCM_ABI_MINOR);
	}
	return 0;
}

/*
 * Open netlink, list the controllers, check their ABI and join the events
 * group, @f set up first at the end of the kernel's history (so that an
 * event dropped from the first on is read from there). Return: a ready
 * handle, or NULL (logged).
 */
static struct dcm_nl *connect_kernel(struct dcm_event_follow *f)
{
	struct dump_ctx ctx = { 0, 0 };
	struct dcm_nl *nl;
	int err;

	err = dcm_nl_open(&nl);
	if (err) {
		logmsg(LOG_ERR, "%s", dcm_last_error());
		return NULL;
	}
	logmsg(LOG_DEBUG, "generic netlink family dcm has id %d",
	       dcm_nl_family_id(nl));

	err = dcm_nl_dump_info(nl, log_controller, &ctx);
	if (err < 0) {
		logmsg(LOG_ERR, "listing controllers: %s", dcm_last_error());
		goto fail;
	}
	if (ctx.bad_abi)
		goto fail;
	if (ctx.count == 0)
		logmsg(LOG_WARNING, "no controller registered yet");

	err = dcm_nl_event_follow_init(nl, f, d.opts.index, NULL, NULL);
	if (err < 0)
		logmsg(LOG_WARNING, "events history: %s: an overrun of the event socket will lose events",
		       dcm_last_error());
	err = dcm_nl_subscribe_events(nl);
	if (err) {
		logmsg(LOG_ERR, "%s", dcm_last_error());
		goto fail;
	}
	logmsg(LOG_DEBUG, "following multicast group events from number %llu",
	       (unsigned long long)f->next);
	return nl;

fail:
	dcm_nl_close(nl);
	return NULL;
}

/* ------------------------------------------------------------------
 * The robot description
 */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void desc_log(void *arg, int level, const char *msg)
{
	(void)arg;
	logmsg(level, "%s", msg);
}

/*
 * Load and check the description files. Return: the model, or NULL with
 * every error logged.
 */
static struct desc *load_description(void)
{
	struct desc_files f;
	struct desc_errors errs;
	struct desc_opts o;
	struct desc *desc;
	char files[1024], etc[256];
	size_t i;

	if (desc_etc_dir(d.opts.index, etc, sizeof(etc)) ||
	    dcmd_resolve_files(&d.opts, etc, DCMD_SHARE_DIR, &f)) {
		logmsg(LOG_ERR, "description: a file name is too long");
		return NULL;
	}
	if (f.note[0])
		logmsg(LOG_NOTICE, "description: %s: no such preference file, RobotConfig defaults apply",
		       f.note);
	desc_opts_init(&o, &f, desc_log, NULL);
	o.target_hint[DESC_MAIN] = "-M";
	o.target_hint[DESC_CHEST] = "-b";
	o.target_hint[DESC_HEAD] = "-H";
	logmsg(LOG_DEBUG, "description: %s, main %s, body %s, head %s, schemas %s and %s",
	       o.device_xml, o.main_xml ? o.main_xml : "(none)",
	       o.body_xml ? o.body_xml : "(none)",
	       o.head_xml ? o.head_xml : "(none)", o.device_rng, o.prefs_rng);
	desc_opts_files_text(&o, files, sizeof(files));

	desc_errors_init(&errs);
	if (desc_load(&o, &desc, &errs)) {
		for (i = 0; i < errs.n; i++)
			logmsg(LOG_ERR, "%s", errs.msgs[i]);
		if (errs.dropped)
			logmsg(LOG_ERR, "(%zu more errors)", errs.dropped);
		logmsg(LOG_ERR, "description %s not loaded: %zu error%s", files,
		       errs.n + errs.dropped, errs.n + errs.dropped == 1 ? "" : "s");
		desc_errors_free(&errs);
		return NULL;
	}
	desc_errors_free(&errs);
	return desc;
}

static void files_text(const struct desc *desc, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < desc->n_files && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " + " : "",
					desc->files[i]);
}

/*
 * Load the files and commit them to the kernel (or, with -n, to the dry
 * run). Return: 0, or -1 with the reason logged; the kernel's running
 * description is then untouched.
 */
static int load_and_push(void)
{
	struct desc_nl_sink nls = { d.nl, d.opts.index };
	struct desc_dry_sink *dry = NULL;
	struct desc_push_stats st;
	struct desc *desc;
	char err[1024], files[1024];
	double t0;
	int r;

	desc = load_description();
	if (!desc)
		return -1;
	files_text(desc, files, sizeof(files));
	if (d.opts.check_only) {
		dry = desc_dry_sink_new();
		if (!dry) {
			logmsg(LOG_ERR, "out of memory");
			desc_free(desc);
			return -1;
		}
		if (d.opts.list_keys)
			desc_dry_sink_list_keys(dry, stdout);
	}
	t0 = now_s();
	r = dry ? desc_push(desc, &desc_dry_sink_ops, dry, &st, err, sizeof(err)) :
		  desc_push(desc, &desc_nl_sink_ops, &nls, &st, err, sizeof(err));
	if (r) {
		logmsg(LOG_ERR, "%s", err);
		logmsg(LOG_ERR, "description %s %s: %s", files,
		       dry ? "fails the kernel's checks" : "refused by the kernel",
		       dry ? "see above" : "the running description is unchanged");
	} else if (dry && d.opts.list_keys) {
		/* the keys are listed */
	} else if (dry) {
		desc_print_summary(stdout, desc);
		printf("kernel checks (dry run): ok, %u devices, %u subdevices, %u RobotConfig keys, %u steps\n",
		       st.counts.n_devices, st.counts.n_subdevices, st.counts.n_keys, st.steps);
	} else if (st.counts.unchanged) {
		logmsg(LOG_INFO,
		       "description %s loaded into dcm%u: unchanged, the running one stays (generation %u): %u devices, %u subdevices, %u RobotConfig keys (%u steps in %.3f s)",
		       files, d.opts.index, st.counts.generation, st.counts.n_devices,
		       st.counts.n_subdevices, st.counts.n_keys, st.steps, now_s() - t0);
	} else {
		logmsg(LOG_INFO,
		       "description %s loaded into dcm%u: generation %u, %u devices, %u subdevices, %u RobotConfig keys (%u steps in %.3f s)",
		       files, d.opts.index, st.counts.generation, st.counts.n_devices,
		       st.counts.n_subdevices, st.counts.n_keys, st.steps, now_s() - t0);
	}
	desc_dry_sink_free(dry);
	desc_free(desc);
	return r ? -1 : 0;
}

/* ------------------------------------------------------------------
 * Events
 */

static void log_suppressed(unsigned long n)
{
	if (n)
		logmsg(LOG_INFO, "suppressed %lu messages", n);
}

/* How loud an event is in the log. */
static int event_prio(const struct dcm_event_msg *e)
{
	switch (e->type) {
	case DCM_EV_ERROR:
		return e->level >= 5 ? LOG_ERR : LOG_WARNING;
	case DCM_EV_NACK:
	case DCM_EV_SAFETY:
	case DCM_EV_WATCHDOG:
	case DCM_EV_OVERRUN:
		return LOG_WARNING;
	case DCM_EV_TEMPERATURE:
		return e->value ? LOG_WARNING : LOG_NOTICE;
	default:
		return LOG_NOTICE;
	}
}

/*
 * An event, live or read from the history after an overrun (then its cmd
 * is DCM_CMD_GET_EVENTS).
 */
static int on_event(const struct dcm_nl_event *ev, void *arg)
{
	struct dcm_event_msg e;
	unsigned long flushed;
	struct ratelimit *rl = &d.rl;
	char line[512];
	bool numbered;
	int bad;

	(void)arg;
	bad = ev->cmd != DCM_CMD_EVENT && ev->cmd != DCM_CMD_GET_EVENTS ? 1 :
	      dcm_nl_parse_event(ev->nlh, &e) ? 2 : 0;
	/* Another controller's event is its own dcmd's to log. */
	if (!bad && e.index != d.opts.index)
		return 0;
	d.events++;
	numbered = d.numbered;
	d.numbered = true;
	/*
	 * A flood of other events must not silence a fall or a safety rule:
	 * those are never suppressed (each is a change of the robot's state,
	 * on or off), the other safety events (a board lost, a temperature,
	 * the battery: a lost bus says 27 at once) have a limit of their own.
	 */
	if (!bad && (e.type == DCM_EV_FALL || e.type == DCM_EV_SAFETY)) {
		dcmd_event_line(&e, numbered, line, sizeof(line));
		logmsg(event_prio(&e), "%s", line);
		return 0;
	}
	if (!bad && dcm_event_type_safety(e.type))
		rl = &d.rl_safety;
	if (ratelimit_allow(rl, now_ms(), &flushed)) {
		log_suppressed(flushed);
		if (bad == 1) {
			logmsg(LOG_INFO, "event: cmd %u, version %u: not an event",
			       ev->cmd, ev->version);
			return 0;
		}
		if (bad == 2) {
			logmsg(LOG_INFO, "event: version %u not understood: %s",
			       ev->version, dcm_last_error());
			return 0;
		}
		dcmd_event_line(&e, numbered, line, sizeof(line));
		logmsg(event_prio(&e), "%s", line);
	} else {
		log_suppressed(flushed);
	}
	return 0;
}

/*
 * SIGHUP: reconnect (the module may have been reloaded), re-list, and
 * reload the description.
 */
static void reconnect(void)
{
	struct dcm_nl *nl;

	struct dcm_event_follow f;

	logmsg(LOG_NOTICE, "SIGHUP: reconnecting to the kernel and reloading the description");
	sd_notify(0, "RELOADING=1");
	nl = connect_kernel(&f);
	if (!nl) {
		logmsg(LOG_WARNING, "SIGHUP: reconnect failed, keeping the old connection");
	} else {
		dcm_nl_close(d.nl);
		d.nl = nl;
		/* a module loaded again numbers its events from 0 */
		d.follow = f;
		d.numbered = f.known;
		d.lost_said = 0;
		d.overruns_said = 0;
	}
	if (load_and_push())
		logmsg(LOG_WARNING, "SIGHUP: reload failed, the running description stays");
	sd_notify(0, "READY=1");
}

/* The poll(2) timeout: when either rate limiter has something to say. */
static int log_timeout(void)
{
	uint64_t now = now_ms();
	int a = ratelimit_timeout(&d.rl, now), b = ratelimit_timeout(&d.rl_safety, now);

	if (a < 0)
		return b;
	return b < 0 || a < b ? a : b;
}

/* What the follower says after a read: an overrun made good, events lost for good. */
static void log_follow(void)
{
	struct dcm_event_follow *f = &d.follow;

	if (f->overruns > d.overruns_said) {
		logmsg(LOG_NOTICE, "event socket overran (%llu times): the dropped events read from the kernel's history (%llu so far)",
		       (unsigned long long)f->overruns, (unsigned long long)f->recovered);
		d.overruns_said = f->overruns;
	}
	if (f->lost > d.lost_said) {
		logmsg(LOG_WARNING, "%llu events lost: the kernel's history no longer held them (%llu in total)",
		       (unsigned long long)(f->lost - d.lost_said), (unsigned long long)f->lost);
		d.lost_said = f->lost;
	}
}

/* Return: exit code. */
static int event_loop(int sfd)
{
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = dcm_nl_event_fd(d.nl), .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		int n, r;

		n = poll(pfd, 2, log_timeout());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			logmsg(LOG_ERR, "poll: %m");
			return DCMD_EXIT_FAIL;
		}
		log_suppressed(ratelimit_flush(&d.rl, now_ms(), false));
		log_suppressed(ratelimit_flush(&d.rl_safety, now_ms(), false));

		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				switch (si.ssi_signo) {
				case SIGTERM:
				case SIGINT:
					logmsg(LOG_NOTICE, "%s: shutting down (%lu events received)",
					       strsignal((int)si.ssi_signo),
					       d.events);
					return DCMD_EXIT_OK;
				case SIGHUP:
					reconnect();
					continue;
				}
			}
		}

		if (pfd[0].revents & (POLLIN | POLLERR)) {
			r = dcm_nl_recv_follow(d.nl, &d.follow, on_event, NULL);
			log_follow();
			if (r == -ENOBUFS) {
				/* a kernel without a history: they are lost */
				logmsg(LOG_WARNING, "%s", dcm_last_error());
			} else if (r < 0) {
				logmsg(LOG_ERR, "%s", dcm_last_error());
				return DCMD_EXIT_FAIL;
			}
		}
	}
}

/* ------------------------------------------------------------------
 * Process plumbing
 */

/* Tell the waiting parent how the start went: status byte + message. */
static void report_ready(int status, const char *msg)
{
	char buf[256];
	size_t len;
	ssize_t n;

	if (d.ready_fd < 0)
		return;
	buf[0] = (char)status;
	len = 1 + (size_t)snprintf(buf + 1, sizeof(buf) - 1, "%s", msg);
	if (len > sizeof(buf))
		len = sizeof(buf);
	n = write(d.ready_fd, buf, len);
	(void)n;
	close(d.ready_fd);
	d.ready_fd = -1;
}

/*
 * Detach: fork, setsid, fork again. The original process waits until the
 * daemon reports (report_ready) and exits with its status, so "dcmd"
 * returns non-zero if the daemon could not start.
 */
static int daemonize(void)
{
	int p[2], fd;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "dcmd: pipe: %s\n", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "dcmd: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid > 0) {
		char buf[256];
		ssize_t n;

		close(p[1]);
		n = read(p[0], buf, sizeof(buf) - 1);
		waitpid(pid, NULL, 0);
		if (n >= 1 && buf[0] == 0)
			_exit(DCMD_EXIT_OK);
		if (n > 1) {
			buf[n] = '\0';
			fprintf(stderr, "dcmd: %s\n", buf + 1);
		} else {
			fprintf(stderr, "dcmd: the daemon died during start-up; see the system log\n");
		}
		_exit(DCMD_EXIT_FAIL);
	}

	close(p[0]);
	setsid();
	pid = fork();
	if (pid < 0)
		_exit(DCMD_EXIT_FAIL);
	if (pid > 0)
		_exit(DCMD_EXIT_OK);

	d.ready_fd = p[1];
	if (chdir("/") < 0)
		logmsg(LOG_WARNING, "chdir /: %m");
	umask(022);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	/* stderr is gone: log to syslog only from now on */
	log_open(false);
	return 0;
}

/* Write our pid into the locked pid file. Return 0 or -1 with @err filled. */
static int pidfile_write(char *err, size_t errlen)
{
	char buf[32];
	int len;

	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(d.pidfile_fd, 0) < 0 ||
	    pwrite(d.pidfile_fd, buf, (size_t)len, 0) != len) {
		snprintf(err, errlen, "pid file %s: %s", d.opts.pidfile, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Create and lock the pid file, and write our pid. The lock (flock) belongs
 * to the open file, which daemonize()'s children share: it holds from here
 * to the daemon's exit. Return 0 or -1 with @err filled.
 */
static int pidfile_create(const char *path, char *err, size_t errlen)
{
	char buf[32];
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "pid file %s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		ssize_t n;

		if (e == EWOULDBLOCK) {
			n = read(fd, buf, sizeof(buf) - 1);
			buf[n > 0 ? n : 0] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			snprintf(err, errlen, "pid file %s is locked: dcmd already running (pid %s)",
				 path, *buf ? buf : "?");
		} else {
			snprintf(err, errlen, "pid file %s: lock: %s", path,
				 strerror(e));
		}
		close(fd);
		return -1;
	}
	d.pidfile_fd = fd;
	if (pidfile_write(err, errlen)) {
		d.pidfile_fd = -1;
		close(fd);
		unlink(path);
		return -1;
	}
	return 0;
}

static void pidfile_remove(void)
{
	if (d.pidfile_fd < 0)
		return;
	unlink(d.opts.pidfile);
	close(d.pidfile_fd);
	d.pidfile_fd = -1;
}

/*
 * -1: load the description into the kernel once. The controller must
 * exist and speak our ABI major.
 */
static int once(void)
{
	struct dcm_info info;
	int err;

	err = dcm_nl_open(&d.nl);
	if (err) {
		logmsg(LOG_ERR, "%s", dcm_last_error());
		return DCMD_EXIT_FAIL;
	}
	err = dcm_nl_get_info(d.nl, d.opts.index, &info);
	if (err) {
		logmsg(LOG_ERR, "controller %u: %s", d.opts.index, dcm_last_error());
		err = -1;
	} else if (info.abi_major != LIBDCM_ABI_MAJOR) {
		logmsg(LOG_ERR, "controller %s speaks ABI %u.%u, dcmd speaks %u.x",
		       info.name, info.abi_major, info.abi_minor, LIBDCM_ABI_MAJOR);
		err = -1;
	} else {
		err = load_and_push();
	}
	dcm_nl_close(d.nl);
	d.nl = NULL;
	return err ? DCMD_EXIT_FAIL : DCMD_EXIT_OK;
}

/* The lines dcmd logs name it (and its controller) and are rate-limited. */
static void start_logging(void)
{
	/* Two dcmd (two controllers) tell their lines apart. */
	if (d.opts.index)
		snprintf(d.ident, sizeof(d.ident), "dcmd.%u", d.opts.index);
	else
		snprintf(d.ident, sizeof(d.ident), "dcmd");

	/* Until detached, everything logged also goes to stderr. */
	log_open(true);
	logmsg(LOG_INFO, "dcmd %s starting (libdcm %s, ABI %u.%u)",
	       LIBDCM_VERSION, dcm_lib_version(), LIBDCM_ABI_MAJOR,
	       LIBDCM_ABI_MINOR);
	ratelimit_init(&d.rl, DCMD_LOG_BURST, DCMD_LOG_INTERVAL_MS);
	ratelimit_init(&d.rl_safety, DCMD_LOG_BURST, DCMD_LOG_INTERVAL_MS);
}

/*
 * The daemon up, its pid file taken: signals blocked, the kernel joined,
 * the description pushed, detached unless in the foreground. The
 * signalfd that reads the signals, or -1 with the pid file removed and
 * the kernel socket closed.
 */
static int start_daemon(void)
{
	char err[320];
	sigset_t mask;
	int sfd;

	/* Block the signals before anything can fork; signalfd reads them. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		logmsg(LOG_ERR, "sigprocmask: %m");
		pidfile_remove();
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);

	d.nl = connect_kernel(&d.follow);
	d.numbered = d.follow.known;
	if (!d.nl) {
		pidfile_remove();
		return -1;
	}

	/*
	 * A robot with no description cannot work: a description that does
	 * not load ends dcmd (the kernel keeps the one it had, if any).
	 */
	if (load_and_push()) {
		logmsg(LOG_ERR, "no description loaded: exiting");
		goto fail;
	}

	if (!d.opts.foreground && daemonize() < 0)
		goto fail;

	/* Detached, the daemon's pid is another: the lock stayed with the file. */
	if (d.pidfile_fd >= 0 && !d.opts.foreground && pidfile_write(err, sizeof(err))) {
		logmsg(LOG_ERR, "%s", err);
		report_ready(1, err);
		goto fail;
	}

	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		snprintf(err, sizeof(err), "signalfd: %s", strerror(errno));
		logmsg(LOG_ERR, "%s", err);
		report_ready(1, err);
		goto fail;
	}
	return sfd;
fail:
	pidfile_remove();
	dcm_nl_close(d.nl);
	return -1;
}

/* Ready: the events until a signal ends dcmd, then everything closed. */
static int run_daemon(int sfd)
{
	int ret;

	logmsg(LOG_INFO, "running%s", d.opts.foreground ? " in the foreground" : "");
	report_ready(0, "");
	sd_notify(0, "READY=1");

	ret = event_loop(sfd);
	sd_notify(0, "STOPPING=1");

	log_suppressed(ratelimit_flush(&d.rl, now_ms(), true));
	log_suppressed(ratelimit_flush(&d.rl_safety, now_ms(), true));
	close(sfd);
	pidfile_remove();
	dcm_nl_close(d.nl);
	logmsg(LOG_INFO, "stopped");
	closelog();
	return ret;
}

int main(int argc, char **argv)
{
	char err[320];
	int sfd, ret;

	switch (dcmd_parse_args(argc, argv, &d.opts)) {
	case DCMD_HELP:
		dcmd_usage(stdout);
		return DCMD_EXIT_OK;
	case DCMD_USAGE_ERROR:
		fprintf(stderr, "dcmd: %s\n", d.opts.err);
		dcmd_usage(stderr);
		return DCMD_EXIT_USAGE;
	case DCMD_RUN:
		break;
	}

	if (d.opts.check_only) {
		/* No kernel, no syslog: a check for a person or a script. */
		d.no_syslog = true;
		return load_and_push() ? DCMD_EXIT_FAIL : DCMD_EXIT_OK;
	}
	if (d.opts.once)
		d.opts.foreground = true;

	start_logging();

	/*
	 * The pid file first: a second dcmd (or one started by mistake) must
	 * stop before it touches the kernel and the running description.
	 */
	if (d.opts.pidfile && pidfile_create(d.opts.pidfile, err, sizeof(err))) {
		logmsg(LOG_ERR, "%s", err);
		closelog();
		return DCMD_EXIT_FAIL;
	}

	/*
	 * -1 leaves the signals alone: interrupted, it dies, its socket
	 * closes, and the kernel drops the open transaction.
	 */
	if (d.opts.once) {
		ret = once();
		pidfile_remove();
		closelog();
		return ret;
	}

	sfd = start_daemon();
	if (sfd < 0)
		return DCMD_EXIT_FAIL;
	return run_daemon(sfd);
}
