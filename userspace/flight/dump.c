// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight --dump: ask the recorder of a directory for a file now. The
 * recorder is the process holding the write lock of DIR/flight.pid; the
 * signal goes through its pidfd, taken before the lock is checked again,
 * so that no other process can get it; then the new file is waited for
 * (DIR/flight-latest.jsonl names another) and its path printed.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flight.h"
#include "json.h"

#ifndef __NR_pidfd_open
#define __NR_pidfd_open		434
#endif
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal	424
#endif

/*
 * The recorder holding the lock of DIR/flight.pid: its pid, or -errno
 * with @why said (no file, a link, a stale file no one holds).
 */
static pid_t find_recorder(int dirfd, const char *dir, char *why, size_t len)
{
	long written;
	pid_t pid = flight_pid_holder(dirfd, &written);

	if (pid == -ENOENT) {
		snprintf(why, len, "no flight recorder runs on %s (no %s)", dir, FLIGHT_PID);
		return -ENOENT;
	}
	if (pid < 0) {
		snprintf(why, len, "%s/%s: %s", dir, FLIGHT_PID,
			 pid == -ELOOP ? "a symbolic link: refused" :
			 pid == -ESRCH ? "locked by a process of another pid namespace" :
			 strerror(-pid));
		return pid;
	}
	if (!pid) {
		snprintf(why, len, "no flight recorder runs on %s: %s names pid %ld but no recorder holds it (a stale pid file): nothing signalled",
			 dir, FLIGHT_PID, written);
		return -ESRCH;
	}
	return pid;
}

/*
 * SIGUSR1 to the recorder holding the lock of DIR/flight.pid, and to no
 * other process: its pidfd is taken, then the lock is checked to be still
 * that process's (a pid freed and given again in between would fail this),
 * and the signal goes through the pidfd. Return 0 or -errno (@why said).
 */
static int signal_recorder(int dirfd, const char *dir, pid_t *pid, char *why, size_t len)
{
	long written;
	int pidfd, e;

	*pid = find_recorder(dirfd, dir, why, len);
	if (*pid < 0)
		return *pid;
	pidfd = (int)syscall(__NR_pidfd_open, *pid, 0);
	if (pidfd < 0 && errno != ENOSYS) {
		e = errno;
		snprintf(why, len, "the recorder (pid %ld): %s", (long)*pid,
			 e == ESRCH ? "gone" : strerror(e));
		return -e;
	}
	if (flight_pid_holder(dirfd, &written) != *pid) {
		snprintf(why, len, "the recorder (pid %ld) ended meanwhile: nothing signalled",
			 (long)*pid);
		if (pidfd >= 0)
			close(pidfd);
		return -ESRCH;
	}
	if (pidfd >= 0) {
		e = syscall(__NR_pidfd_send_signal, pidfd, SIGUSR1, NULL, 0) ? errno : 0;
		close(pidfd);
	} else {
		e = kill(*pid, SIGUSR1) ? errno : 0;	/* a kernel before 5.3 */
	}
	if (e) {
		snprintf(why, len, "the recorder (pid %ld): %s", (long)*pid,
			 e == ESRCH ? "gone" : strerror(e));
		return -e;
	}
	return 0;
}

/*
 * The target of DIR/flight-latest.jsonl or of flight-latest.mcap (a
 * recorder of either format), the newer by name (the names begin with the
 * date and time), or "".
 */
static void latest_target(int dirfd, char *buf, size_t len)
{
	char other[PATH_MAX];
	ssize_t n;

	n = readlinkat(dirfd, FLIGHT_LATEST, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	n = readlinkat(dirfd, FLIGHT_LATEST_MCAP, other, sizeof(other) - 1);
	other[n > 0 ? n : 0] = '\0';
	if (strcmp(other, buf) > 0)
		snprintf(buf, len, "%s", other);
}

/* Wait up to --timeout for flight-latest.jsonl to name another file than @before: 0 or -1. */
static int wait_new_file(int dirfd, const struct flight_args *a, const char *before,
			 char *now, size_t len, FILE *err)
{
	double end = rec_wall_now() + a->timeout;

	for (;;) {
		latest_target(dirfd, now, len);
		if (now[0] && strcmp(now, before))
			return 0;
		if (rec_wall_now() > end) {
			fprintf(err, "dcm-flight: --dump: no new file in %s after %g s\n", a->dir,
				a->timeout);
			return -1;
		}
		usleep(50000);
	}
}

static void print_file(const struct flight_args *a, const char *name, pid_t pid, FILE *out)
{
	char file[2 * PATH_MAX + 2];
	struct json_writer w;

	snprintf(file, sizeof(file), "%s/%s", a->dir, name);
	if (!a->json) {
		fprintf(out, "%s\n", file);
		return;
	}
	json_init(&w, out, a->pretty);
	json_begin_object(&w, NULL);
	json_string(&w, "file", file);
	json_uint(&w, "pid", (uint64_t)pid);
	json_end_object(&w);
	json_finish(&w);
}

int flight_dump_run(const struct flight_args *a, FILE *out, FILE *err)
{
	char msg[512], before[PATH_MAX], now[PATH_MAX];
	pid_t pid;
	int dirfd, ret = FLIGHT_EXIT_FAIL;

	/*
	 * The same checks as the recorder's, but root asks any recorder (the
	 * unit's runs as a user of its own): the signal goes only to the
	 * process that holds the pid file's lock.
	 */
	dirfd = flight_dir_open(a->dir, false, geteuid() == 0, msg, sizeof(msg));
	if (dirfd < 0) {
		if (dirfd == -ENOENT)
			fprintf(err, "dcm-flight: --dump: no flight recorder runs on %s (%s)\n",
				a->dir, msg);
		else
			fprintf(err, "dcm-flight: --dump: %s\n", msg);
		return FLIGHT_EXIT_FAIL;
	}
	latest_target(dirfd, before, sizeof(before));
	if (signal_recorder(dirfd, a->dir, &pid, msg, sizeof(msg))) {
		fprintf(err, "dcm-flight: --dump: %s\n", msg);
		goto out;
	}
	if (wait_new_file(dirfd, a, before, now, sizeof(now), err))
		goto out;
	print_file(a, now, pid, out);
	fflush(out);
	ret = FLIGHT_EXIT_OK;
out:
	close(dirfd);
	return ret;
}
