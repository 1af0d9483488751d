// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcm-lola's defences (lola_guard.h). The sockets: what is at
 * the path is replaced in one step (a stale socket, a symlink whose target
 * stays untouched, a file, a directory swapped aside), a live server of our
 * own is refused, a directory others could change is refused, a path that
 * keeps being recreated by another thread is taken all the same, the file
 * is removed at exit only if it is still the one put there, socket
 * activation's descriptors are claimed by path, and a peer's uid is
 * checked. The log: limits per client and reason and for all clients, the
 * suppressed counts reported when the window ends and when a client
 * leaves, and every line accounted for. The timeouts: what is idle and
 * what is an incomplete map.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "lola_guard.h"

/* ---- sockets ---- */

static char dir[64];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/lola-guard-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return chmod(dir, 0700);
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void in_dir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* A client connects to @path: 0, or -errno. */
static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, ret = 0;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
		ret = -errno;
	close(fd);
	return ret;
}

/* Only @path's listener and nothing else of ours is left in the directory. */
static void assert_no_temporary(const char *name)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s' | grep -v '^%s$')\"", dir, name);
	assert_int_equal(system(cmd), 0);
}

static void test_listen_fresh(void **state)
{
	struct lola_listener l;
	char path[128], err[256], note[256];
	struct stat st;

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	assert_int_equal(lola_listen(&l, path, 0640, err, sizeof(err), note, sizeof(note)), 0);
	assert_string_equal(note, "");
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(st.st_uid, geteuid());
	assert_true(l.ours);
	assert_int_equal(connect_to(path), 0);
	assert_no_temporary("robocup");
	lola_unlisten(&l);
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(l.fd, -1);
}

static void test_listen_live_refused_stale_replaced(void **state)
{
	struct lola_listener a, b;
	char path[128], err[256], note[256];

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	assert_int_equal(lola_listen(&a, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	/* A second daemon of the same user: refused, the first untouched. */
	assert_int_equal(lola_listen(&b, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -EADDRINUSE);
	assert_non_null(strstr(err, "a server already listens there"));
	assert_int_equal(b.fd, -1);
	assert_int_equal(connect_to(path), 0);
	/* The first dies without removing its socket: a stale one, replaced. */
	close(a.fd);
	assert_int_equal(connect_to(path), -ECONNREFUSED);
	assert_int_equal(lola_listen(&b, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	assert_string_equal(note, "replaced a stale socket");
	assert_int_equal(connect_to(path), 0);
	lola_unlisten(&b);
	assert_no_temporary("none");
}

static void test_listen_replaces_symlink_and_file(void **state)
{
	struct lola_listener l;
	char path[128], target[128], err[256], note[256];
	struct stat st, before;
	char buf[16] = { 0 };
	int fd;

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	in_dir(target, sizeof(target), "target");
	fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "untouched", 9), 9);
	close(fd);
	assert_int_equal(stat(target, &before), 0);
	assert_int_equal(symlink(target, path), 0);

	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	assert_non_null(strstr(note, "replaced a symlink of uid"));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	/* The target: the same inode, size, mode and contents. */
	assert_int_equal(stat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_ino, before.st_ino);
	assert_int_equal(st.st_size, 9);
	assert_int_equal(st.st_mode, before.st_mode);
	fd = open(target, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 9);
	close(fd);
	assert_string_equal(buf, "untouched");
	lola_unlisten(&l);

	/* A regular file. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	assert_non_null(strstr(note, "replaced a file of uid"));
	assert_int_equal(connect_to(path), 0);
	lola_unlisten(&l);
	assert_int_equal(unlink(target), 0);
	assert_no_temporary("none");
}

static void test_listen_swaps_directory(void **state)
{
	struct lola_listener l;
	char path[128], inner[160], err[256], note[256], moved[160];
	struct stat st;
	const char *to;
	int fd;

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(inner, sizeof(inner), "%s/f", path);
	fd = open(inner, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);

	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	assert_non_null(strstr(note, "moved a directory of uid"));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	/* The directory and its file, under the temporary name. */
	to = strstr(note, ", to ");
	assert_non_null(to);
	snprintf(moved, sizeof(moved), "%s/f", to + 5);
	assert_int_equal(stat(moved, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(connect_to(path), 0);
	lola_unlisten(&l);
}

static void test_listen_refuses_unsafe_directory(void **state)
{
	struct lola_listener l;
	char path[128], err[256], note[256];

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	/* Writable by others, not sticky: anyone could replace the socket. */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -EPERM);
	assert_non_null(strstr(err, "writable by others and not sticky"));
	assert_int_equal(l.fd, -1);
	/* Sticky, as /tmp: fine. */
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	lola_unlisten(&l);
	assert_int_equal(chmod(dir, 0700), 0);
}

static void test_listen_bad_paths(void **state)
{
	struct lola_listener l;
	char path[200], err[256], note[256];

	(void)state;
	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = 0;
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -ENAMETOOLONG);
	assert_non_null(strstr(err, "too long"));
	/* Fits in sun_path, but not with the temporary name's 10 more. */
	snprintf(path, sizeof(path), "%s/", dir);
	memset(path + strlen(path), 'b', 104 - strlen(path));
	path[104] = 0;
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -ENAMETOOLONG);
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -EINVAL);
	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)),
			 -ENOENT);
}

static void test_unlisten_only_ours(void **state)
{
	struct lola_listener l;
	char path[128], other[128], err[256], note[256];
	struct stat st;
	int fd;

	(void)state;
	in_dir(path, sizeof(path), "robocup");
	in_dir(other, sizeof(other), "other");
	assert_int_equal(lola_listen(&l, path, 0660, err, sizeof(err), note, sizeof(note)), 0);
	/* Something else took the path since (root may): not removed. */
	fd = open(other, O_WRONLY | O_CREAT, 0600);
	close(fd);
	assert_int_equal(rename(other, path), 0);
	lola_unlisten(&l);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(unlink(path), 0);
}

static double elapsed_s(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

struct racer {
	char path[128], target[128];
	volatile bool stop;
	unsigned long rounds;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	while (!r->stop) {
		unlink(r->path);
		if (r->rounds % 3 == 2) {
			if (!mkdir(r->path, 0755))
				rmdir(r->path);
		} else if (symlink(r->target, r->path))
			close(open(r->path, O_WRONLY | O_CREAT | O_NOFOLLOW, 0600));
		r->rounds++;
	}
	return NULL;
}

/*
 * Another thread deletes and recreates a symlink (or a file) at the path
 * as fast as it can; every lola_listen() gets the path all the same, and
 * each time what is there right after is the socket or what the thread
 * made since (in a directory of one's own nothing stops it).
 */
static void test_listen_races(void **state)
{
	struct lola_listener l;
	char err[256], note[256];
	struct racer r = { 0 };
	pthread_t t;
	struct timespec t0;
	int i, ok = 0, refused = 0;

	(void)state;
	in_dir(r.path, sizeof(r.path), "robocup");
	in_dir(r.target, sizeof(r.target), "target");
	close(open(r.target, O_WRONLY | O_CREAT, 0600));
	assert_int_equal(pthread_create(&t, NULL, race, &r), 0);
	/*
	 * At least 200 listens, and until the other thread went round 2000
	 * times or 20 s passed (valgrind runs one thread at a time: the
	 * other gets a share of the rounds, not as many).
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 200 || (r.rounds < 2000 && elapsed_s(&t0) < 20); i++) {
		int ret = lola_listen(&l, r.path, 0660, err, sizeof(err), note, sizeof(note));

		if (ret == 0) {
			ok++;
			close(l.fd);
		} else {
			refused++;
			print_message("refused: %s\n", err);
		}
	}
	r.stop = true;
	pthread_join(t, NULL);
	print_message("%d listens against %lu recreations\n", ok, r.rounds);
	assert_int_equal(refused, 0);
	assert_int_equal(ok, i);
	/* The race happened: the path changed under many of the listens. */
	assert_true(r.rounds >= 200);
	/* The target was never written through the symlink. */
	{
		struct stat st;

		assert_int_equal(stat(r.target, &st), 0);
		assert_int_equal(st.st_size, 0);
	}
	teardown_dir(NULL);
	setup_dir(NULL);
}

/* A socket bound at @path as the service manager binds it. */
static int plain_listen(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(fd, 4), 0);
	return fd;
}

static void test_inherited(void **state)
{
	struct lola_listener a, b, c;
	char p1[128], p2[128], p3[128], err[256], pid[16], other[128];
	int s[3], i, save[3];

	(void)state;
	in_dir(p1, sizeof(p1), "sa");
	in_dir(p2, sizeof(p2), "sa.status");
	in_dir(p3, sizeof(p3), "stray");
	s[0] = plain_listen(p1);
	s[1] = plain_listen(p2);
	s[2] = plain_listen(p3);
	/* Descriptors 3, 4, 5, as the service manager passes them. */
	for (i = 0; i < 3; i++) {
		int fd = fcntl(s[i], F_DUPFD_CLOEXEC, 100);

		close(s[i]);
		s[i] = fd;
	}
	for (i = 0; i < 3; i++)
		save[i] = fcntl(3 + i, F_DUPFD_CLOEXEC, 200);
	for (i = 0; i < 3; i++)
		assert_int_equal(dup2(s[i], 3 + i), 3 + i);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("LISTEN_PID", pid, 1);
	setenv("LISTEN_FDS", "3", 1);

	assert_int_equal(lola_listen_inherited(&a, p2, err, sizeof(err)), 1);
	assert_int_equal(a.fd, 4);
	assert_false(a.ours);
	assert_true(fcntl(4, F_GETFL) & O_NONBLOCK);
	assert_int_equal(lola_listen_inherited(&b, p1, err, sizeof(err)), 1);
	assert_int_equal(b.fd, 3);
	in_dir(p3, sizeof(p3), "not-passed");
	assert_int_equal(lola_listen_inherited(&c, p3, err, sizeof(err)), 0);
	assert_null(getenv("LISTEN_FDS"));
	/* The one nobody claimed is named, and closed. */
	assert_int_equal(lola_inherited_unclaimed(other, sizeof(other)), 5);
	assert_non_null(strstr(other, "/stray"));
	assert_int_equal(lola_inherited_unclaimed(other, sizeof(other)), -1);
	/* Not ours: the files stay at exit. */
	lola_unlisten(&a);
	lola_unlisten(&b);
	assert_int_equal(access(p1, F_OK), 0);
	assert_int_equal(access(p2, F_OK), 0);
	for (i = 0; i < 3; i++) {
		if (save[i] >= 0) {
			dup2(save[i], 3 + i);
			close(save[i]);
		} else if (i < 2) {
			close(3 + i);	/* 5 was closed as unclaimed */
		}
		close(s[i]);
	}
}

static void test_peer_trusted(void **state)
{
	uid_t peer = 12345;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(lola_peer_trusted(sv[0], geteuid(), &peer), 0);
	assert_int_equal(peer, geteuid());
	if (geteuid() != 0) {
		/* Ourselves, asked to trust only another uid (and root). */
		assert_int_equal(lola_peer_trusted(sv[0], geteuid() + 1, &peer), -EPERM);
		assert_int_equal(peer, geteuid());
	}
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(lola_peer_trusted(sv[0], 0, &peer), -EBADF);
}

/* ---- the log ---- */

struct captured {
	char lines[64][200];
	unsigned int n;
};

static void capture(const char *line, void *arg)
{
	struct captured *c = arg;

	if (c->n < 64)
		snprintf(c->lines[c->n], sizeof(c->lines[0]), "%s", line);
	c->n++;
}

static unsigned int count(const struct captured *c, const char *what)
{
	unsigned int i, k = 0;

	for (i = 0; i < c->n && i < 64; i++)
		if (strstr(c->lines[i], what))
			k++;
	return k;
}

static void test_log_per_client(void **state)
{
	struct lola_log_limits a, b;
	struct captured cap = { 0 };
	struct lola_log l;
	int i;

	(void)state;
	lola_log_init(&l, 3, 1000);
	l.out = capture;
	l.arg = &cap;
	lola_log_client_init(&l, &a);
	lola_log_client_init(&l, &b);
	for (i = 0; i < 10; i++)
		lola_log_client(&l, &a, 1, LOLA_LOG_REFUSED, 100, "client 1: refused %d", i);
	assert_int_equal(cap.n, 3);
	/* Another reason of the same client, and another client: their own limits. */
	lola_log_client(&l, &a, 1, LOLA_LOG_READONLY, 100, "client 1: read-only");
	lola_log_client(&l, &b, 2, LOLA_LOG_REFUSED, 100, "client 2: refused");
	assert_int_equal(cap.n, 5);
	assert_int_equal(count(&cap, "client 1: refused"), 3);
	assert_int_equal(l.suppressed, 7);
	/* Not yet the window's end: nothing reported. */
	lola_log_sweep(&l, &a, 1, 999);
	assert_int_equal(cap.n, 5);
	/* Its end: the count, once. */
	lola_log_sweep(&l, &a, 1, 1100);
	assert_int_equal(cap.n, 6);
	assert_string_equal(cap.lines[5], "client 1: 7 refused map lines suppressed");
	lola_log_sweep(&l, &a, 1, 1200);
	assert_int_equal(cap.n, 6);
	/* And the next window lets lines through again. */
	lola_log_client(&l, &a, 1, LOLA_LOG_REFUSED, 1200, "client 1: refused again");
	assert_int_equal(count(&cap, "refused again"), 1);
}

static void test_log_report_on_next_line(void **state)
{
	struct lola_log_limits a;
	struct captured cap = { 0 };
	struct lola_log l;
	int i;

	(void)state;
	lola_log_init(&l, 2, 1000);
	l.out = capture;
	l.arg = &cap;
	lola_log_client_init(&l, &a);
	for (i = 0; i < 5; i++)
		lola_log_client(&l, &a, 4, LOLA_LOG_COMMAND, 0, "client 4: command");
	/* A line in the next window comes after the count of the last. */
	lola_log_client(&l, &a, 4, LOLA_LOG_COMMAND, 1000, "client 4: command later");
	assert_int_equal(cap.n, 4);
	assert_string_equal(cap.lines[2], "client 4: 3 command lines suppressed");
	assert_string_equal(cap.lines[3], "client 4: command later");
}

static void test_log_all_clients(void **state)
{
	struct lola_log_limits c[20];
	struct captured cap = { 0 };
	struct lola_log l;
	unsigned int i;

	(void)state;
	lola_log_init(&l, 3, 1000);
	l.out = capture;
	l.arg = &cap;
	/* Twenty clients, one line each (as many reconnections): 2 x 3 pass. */
	for (i = 0; i < 20; i++) {
		lola_log_client_init(&l, &c[i]);
		lola_log_client(&l, &c[i], i + 1, LOLA_LOG_CONNECT, 10, "client %u connected", i + 1);
	}
	assert_int_equal(cap.n, 6);
	/* Lines about no client share that limit. */
	lola_log_client(&l, NULL, 0, LOLA_LOG_CONNECT, 20, "connection refused");
	assert_int_equal(cap.n, 6);
	lola_log_sweep(&l, NULL, 0, 1010);
	assert_int_equal(cap.n, 7);
	assert_string_equal(cap.lines[6], "15 connection lines suppressed (all clients)");
	assert_int_equal(l.lines, 7);
	assert_int_equal(l.suppressed, 15);
	/* The daemon exits within a window: its count is reported all the same. */
	lola_log_client(&l, NULL, 0, LOLA_LOG_REFUSED, 1020, "a");
	for (i = 0; i < 9; i++)
		lola_log_client(&l, &c[i / 3], i / 3 + 1, LOLA_LOG_REFUSED, 1020, "b");
	assert_int_equal(cap.n, 7 + 6);
	lola_log_finish(&l, 1030);
	assert_int_equal(cap.n, 14);
	assert_string_equal(cap.lines[13], "4 refused map lines suppressed (all clients)");
}

static void test_log_client_gone(void **state)
{
	struct lola_log_limits a, b;
	struct captured cap = { 0 };
	struct lola_log l;
	int i;

	(void)state;
	lola_log_init(&l, 2, 1000);
	l.out = capture;
	l.arg = &cap;
	lola_log_client_init(&l, &a);
	for (i = 0; i < 6; i++)
		lola_log_client(&l, &a, 7, LOLA_LOG_REFUSED, 0, "client 7: refused");
	for (i = 0; i < 3; i++)
		lola_log_client(&l, &a, 7, LOLA_LOG_READONLY, 0, "client 7: read-only");
	assert_int_equal(cap.n, 4);
	/* It leaves before the window ends: its counts now, in one line. */
	lola_log_client_gone(&l, &a, 7, 10);
	assert_int_equal(cap.n, 5);
	assert_string_equal(cap.lines[4],
			    "client 7 left with 5 log lines suppressed (4 refused map, 1 read-only)");
	/* Nothing suppressed: nothing said. */
	lola_log_client_init(&l, &b);
	lola_log_client(&l, &b, 8, LOLA_LOG_REFUSED, 10, "client 8: refused");
	lola_log_client_gone(&l, &b, 8, 20);
	assert_int_equal(cap.n, 6);
}

/*
 * Under a flood every event is either printed or counted in a line that
 * reports it: the numbers in the report lines and the printed lines add
 * up to the events, and the lines stay within the limits.
 */
static void test_log_accounts_for_all(void **state)
{
	struct lola_log_limits c[8];
	struct captured cap = { 0 };
	struct lola_log l;
	unsigned long printed = 0, reported = 0, events = 0;
	unsigned int i, k, t;

	(void)state;
	lola_log_init(&l, 2, 1000);
	l.out = capture;
	l.arg = &cap;
	for (i = 0; i < 8; i++)
		lola_log_client_init(&l, &c[i]);
	for (t = 0; t < 3000; t += 5) {
		for (i = 0; i < 8; i++) {
			for (k = 0; k < 10; k++) {
				lola_log_client(&l, &c[i], i + 1, LOLA_LOG_REFUSED, t, "x");
				events++;
			}
			lola_log_sweep(&l, &c[i], i + 1, t);
		}
		lola_log_sweep(&l, NULL, 0, t);
	}
	for (i = 0; i < 8; i++)
		lola_log_client_gone(&l, &c[i], i + 1, 3000);
	lola_log_sweep(&l, NULL, 0, 5000);
	/* Every line captured (at most 64 are kept): the printed and the reports. */
	assert_true(cap.n <= 64);
	assert_int_equal(cap.n, l.lines);
	for (i = 0; i < cap.n; i++) {
		const char *p = cap.lines[i];
		unsigned long n;

		if (!strcmp(p, "x"))
			printed++;
		else if (!strstr(p, " refused map"))
			fail_msg("an unexpected line: %s", p);
		else if (sscanf(p, "client %*u: %lu", &n) == 1 || sscanf(p, "%lu", &n) == 1 ||
			 sscanf(p, "client %*u left with %*u log lines suppressed (%lu", &n) == 1)
			reported += n;
	}
	assert_int_equal(printed + reported, events);
	/* 3 windows (and the last reports): at most 2 x 2 lines a window pass. */
	assert_true(printed <= 4 * 3);
}

/* ---- timeouts ---- */

#define MS 1000000LL

static void test_idle(void **state)
{
	struct lola_idle s = { 0 };
	char why[200];

	(void)state;
	/* A reader: every map taken, never idle. */
	lola_idle_sent(&s, true, 10 * MS);
	assert_null(lola_idle_expired(&s, 100000 * MS, 1000, 1000, why, sizeof(why)));
	/* Its socket full from 20 ms on: idle after 1000 ms more. */
	lola_idle_sent(&s, false, 20 * MS);
	lola_idle_sent(&s, false, 30 * MS);
	assert_null(lola_idle_expired(&s, 1020 * MS, 1000, 1000, why, sizeof(why)));
	assert_non_null(lola_idle_expired(&s, 1021 * MS, 1000, 1000, why, sizeof(why)));
	assert_non_null(strstr(why, "idle"));
	assert_null(lola_idle_expired(&s, 1021 * MS, 0, 1000, why, sizeof(why)));
	/* It reads again: not idle. */
	lola_idle_sent(&s, true, 1021 * MS);
	assert_null(lola_idle_expired(&s, 5000 * MS, 1000, 1000, why, sizeof(why)));
	/* Full again, but a map of its applied (a commander that does not read). */
	lola_idle_sent(&s, false, 5000 * MS);
	lola_idle_applied(&s);
	assert_null(lola_idle_expired(&s, 9000 * MS, 1000, 1000, why, sizeof(why)));
	/* Maps read from it that are refused keep nothing alive. */
	lola_idle_sent(&s, false, 9000 * MS);
	lola_idle_read(&s, 1, false, 9500 * MS);
	assert_non_null(lola_idle_expired(&s, 10001 * MS, 1000, 1000, why, sizeof(why)));
}

static void test_incomplete_map(void **state)
{
	struct lola_idle s = { 0 };
	char why[200];

	(void)state;
	/* The start of a map at 0 ms, more bytes of it after, its end never. */
	lola_idle_read(&s, 0, true, 1 * MS);
	lola_idle_read(&s, 0, true, 500 * MS);
	lola_idle_read(&s, 0, true, 900 * MS);
	assert_null(lola_idle_expired(&s, 1001 * MS, 0, 1000, why, sizeof(why)));
	assert_non_null(lola_idle_expired(&s, 1002 * MS, 0, 1000, why, sizeof(why)));
	assert_non_null(strstr(why, "incomplete map"));
	assert_null(lola_idle_expired(&s, 1002 * MS, 0, 0, why, sizeof(why)));
	/* It ends: fine. */
	lola_idle_read(&s, 1, false, 1001 * MS);
	assert_null(lola_idle_expired(&s, 9000 * MS, 0, 1000, why, sizeof(why)));
	/*
	 * A stream of maps, each read ending in the middle of the next: every
	 * read ends a map, so the unfinished one is always new.
	 */
	lola_idle_read(&s, 1, true, 10000 * MS);
	lola_idle_read(&s, 1, true, 10600 * MS);
	lola_idle_read(&s, 2, true, 11200 * MS);
	assert_null(lola_idle_expired(&s, 12100 * MS, 0, 1000, why, sizeof(why)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_listen_fresh, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_live_refused_stale_replaced, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_replaces_symlink_and_file, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_swaps_directory, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_refuses_unsafe_directory, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_bad_paths, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_unlisten_only_ours, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_listen_races, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_inherited, setup_dir, teardown_dir),
		cmocka_unit_test(test_peer_trusted),
		cmocka_unit_test(test_log_per_client),
		cmocka_unit_test(test_log_report_on_next_line),
		cmocka_unit_test(test_log_all_clients),
		cmocka_unit_test(test_log_client_gone),
		cmocka_unit_test(test_log_accounts_for_all),
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_incomplete_map),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
