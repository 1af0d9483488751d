// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd - the dcm daemon.
 *
 * Now: checks that the kernel side is there and speaks our ABI (generic
 * netlink family "dcm", GET_INFO dump), logs every controller, then
 * follows the multicast group "events" and logs what arrives, rate
 * limited. Loading the robot description (-c) comes later.
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

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "libdcm.h"
#include "dcmd.h"

static struct {
	struct dcmd_opts opts;
	struct dcm_nl *nl;
	struct ratelimit rl;
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
	vsyslog(prio, fmt, ap);
	va_end(ap);
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
 * group. Return: a ready handle, or NULL (logged).
 */
static struct dcm_nl *connect_kernel(void)
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

	err = dcm_nl_subscribe_events(nl);
	if (err) {
		logmsg(LOG_ERR, "%s", dcm_last_error());
		goto fail;
	}
	logmsg(LOG_DEBUG, "following multicast group events");
	return nl;

fail:
	dcm_nl_close(nl);
	return NULL;
}

/* ------------------------------------------------------------------
 * Events
 */

static void log_suppressed(unsigned long n)
{
	if (n)
		logmsg(LOG_INFO, "suppressed %lu messages", n);
}

static int on_event(const struct dcm_nl_event *ev, void *arg)
{
	unsigned long flushed;
	unsigned int len;

	(void)arg;
	d.events++;
	len = ev->nlh->nlmsg_len;
	len = len > NLMSG_HDRLEN + GENL_HDRLEN ?
	      len - NLMSG_HDRLEN - GENL_HDRLEN : 0;

	if (ratelimit_allow(&d.rl, now_ms(), &flushed)) {
		log_suppressed(flushed);
		logmsg(LOG_INFO, "event: cmd %u, version %u, %u bytes of attributes",
		       ev->cmd, ev->version, len);
	} else {
		log_suppressed(flushed);
	}
	return 0;
}

/* SIGHUP: reconnect (the module may have been reloaded) and re-list. */
static void reconnect(void)
{
	struct dcm_nl *nl;

	logmsg(LOG_NOTICE, "SIGHUP: reconnecting to the kernel");
	nl = connect_kernel();
	if (!nl) {
		logmsg(LOG_WARNING, "SIGHUP: reconnect failed, keeping the old connection");
		return;
	}
	dcm_nl_close(d.nl);
	d.nl = nl;
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

		n = poll(pfd, 2, ratelimit_timeout(&d.rl, now_ms()));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			logmsg(LOG_ERR, "poll: %m");
			return DCMD_EXIT_FAIL;
		}
		log_suppressed(ratelimit_flush(&d.rl, now_ms(), false));

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
			r = dcm_nl_recv(d.nl, on_event, NULL);
			if (r == -ENOBUFS) {
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

static int check_device_xml(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "dcmd: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "dcmd: %s: not a regular file\n", path);
		return -1;
	}
	if (access(path, R_OK) < 0) {
		fprintf(stderr, "dcmd: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

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
	closelog();
	openlog("dcmd", LOG_PID, LOG_DAEMON);
	return 0;
}

/* Create and lock the pid file. Return 0 or -1 with @err filled. */
static int pidfile_create(const char *path, char *err, size_t errlen)
{
	char buf[32];
	int fd, len;

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
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || write(fd, buf, (size_t)len) != len) {
		snprintf(err, errlen, "pid file %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	d.pidfile_fd = fd;
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

int main(int argc, char **argv)
{
	char err[320];
	sigset_t mask;
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

	if (d.opts.device_xml && check_device_xml(d.opts.device_xml))
		return DCMD_EXIT_FAIL;

	/* Until detached, everything logged also goes to stderr. */
	openlog("dcmd", LOG_PID | LOG_PERROR, LOG_DAEMON);
	setlogmask(LOG_UPTO(d.opts.verbose ? LOG_DEBUG : LOG_INFO));
	logmsg(LOG_INFO, "dcmd %s starting (libdcm %s, ABI %u.%u)",
	       LIBDCM_VERSION, dcm_lib_version(), LIBDCM_ABI_MAJOR,
	       LIBDCM_ABI_MINOR);
	ratelimit_init(&d.rl, DCMD_LOG_BURST, DCMD_LOG_INTERVAL_MS);

	/* Block the signals before anything can fork; signalfd reads them. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
		logmsg(LOG_ERR, "sigprocmask: %m");
		return DCMD_EXIT_FAIL;
	}
	signal(SIGPIPE, SIG_IGN);

	d.nl = connect_kernel();
	if (!d.nl)
		return DCMD_EXIT_FAIL;

	if (d.opts.device_xml)
		logmsg(LOG_NOTICE,
		       "device description %s: accepted, but loading it is not implemented yet",
		       d.opts.device_xml);

	if (!d.opts.foreground && daemonize() < 0) {
		dcm_nl_close(d.nl);
		return DCMD_EXIT_FAIL;
	}

	if (d.opts.pidfile && pidfile_create(d.opts.pidfile, err, sizeof(err))) {
		logmsg(LOG_ERR, "%s", err);
		report_ready(1, err);
		dcm_nl_close(d.nl);
		return DCMD_EXIT_FAIL;
	}

	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		snprintf(err, sizeof(err), "signalfd: %s", strerror(errno));
		logmsg(LOG_ERR, "%s", err);
		report_ready(1, err);
		pidfile_remove();
		dcm_nl_close(d.nl);
		return DCMD_EXIT_FAIL;
	}

	logmsg(LOG_INFO, "running%s", d.opts.foreground ? " in the foreground" : "");
	report_ready(0, "");

	ret = event_loop(sfd);

	log_suppressed(ratelimit_flush(&d.rl, now_ms(), true));
	close(sfd);
	pidfile_remove();
	dcm_nl_close(d.nl);
	logmsg(LOG_INFO, "stopped");
	closelog();
	return ret;
}
