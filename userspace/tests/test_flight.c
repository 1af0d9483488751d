// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcm-flight's arguments (the recorder's, --dump's), its
 * directory checks, the pid file's lock that --dump finds the recorder by,
 * and the pruning of the oldest files.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "flight.h"

#define ARGS(...) (int)(sizeof((char *[]){ "dcm-flight", __VA_ARGS__ }) / sizeof(char *)), \
		  (char *[]){ "dcm-flight", __VA_ARGS__, NULL }

static char err[256];

static int parse(int argc, char **argv, struct flight_args *a)
{
	err[0] = '\0';
	return flight_parse_args(argc, argv, a, err, sizeof(err));
}

#define BAD(msg, ...) do { \
		assert_int_equal(parse(ARGS(__VA_ARGS__), &f), -EINVAL); \
		assert_string_equal(err, msg); \
	} while (0)

static void test_parse_recorder(void **state)
{
	struct flight_args f;

	(void)state;
	assert_int_equal(parse(1, (char *[]){ "dcm-flight", NULL }, &f), 0);
	assert_true(f.seconds == 10 && f.after == 2 && f.keep == 20 && !f.dump && !f.mcap);
	assert_string_equal(f.dir, "/var/lib/dcm/flight");
	assert_string_equal(f.device, "/dev/dcm0");
	assert_null(f.root);
	assert_int_equal(parse(ARGS("--keep", "0"), &f), 0);
	assert_int_equal(f.keep, 0);
	assert_int_equal(parse(ARGS("--keep=3"), &f), 0);
	assert_int_equal(f.keep, 3);
	BAD("invalid --keep '-1' (0 to 100000 files)", "--keep", "-1");
	BAD("invalid --keep '100001' (0 to 100000 files)", "--keep", "100001");
	assert_int_equal(parse(ARGS("-s", "30", "--after", "0", "-D", "/tmp/f", "-d", "2",
				    "-r", "/tmp/sys"), &f), 0);
	assert_true(f.seconds == 30 && f.after == 0);
	assert_string_equal(f.dir, "/tmp/f");
	assert_string_equal(f.device, "/dev/dcm2");
	assert_string_equal(f.root, "/tmp/sys");
	assert_int_equal(parse(ARGS("--device", "dcm1"), &f), 0);
	assert_string_equal(f.device, "/dev/dcm1");
	assert_int_equal(parse(ARGS("--device=/dev/null"), &f), 0);
	assert_string_equal(f.device, "/dev/null");
	assert_int_equal(parse(ARGS("-f", "mcap"), &f), 0);
	assert_true(f.mcap);
	assert_int_equal(parse(ARGS("--format=jsonl"), &f), 0);
	assert_false(f.mcap);
	BAD("unknown --format 'csv' (jsonl or mcap)", "--format", "csv");
	BAD("invalid --seconds '601' (> 0, at most 600)", "-s", "601");
	BAD("invalid --after '61' (0 to 60 s)", "--after", "61");
	BAD("invalid device ''", "-d", "");
	BAD("--timeout: only with --dump", "--timeout", "3");
	BAD("-j: only with --dump", "-j");
	BAD("'now' is not an option", "now");
	BAD("unknown option '--bogus'", "--bogus");
	BAD("unknown option '-x'", "-x");
	BAD("option '--dir' needs an argument", "--dir");
}

static void test_parse_dump(void **state)
{
	struct flight_args f;

	(void)state;
	assert_int_equal(parse(ARGS("--dump"), &f), 0);
	assert_true(f.dump && f.timeout == 10 && !f.json);
	assert_int_equal(parse(ARGS("--dump", "--timeout", "3", "-D", "/tmp/f", "-j", "-p"), &f),
			 0);
	assert_true(f.dump && f.timeout == 3 && f.json && f.pretty);
	assert_string_equal(f.dir, "/tmp/f");
	BAD("--keep: not with --dump", "--dump", "--keep", "3");
	BAD("--seconds: not with --dump", "-s", "3", "--dump");
	BAD("--format: not with --dump", "--dump", "-f", "mcap");
	BAD("invalid --timeout 'x' (seconds)", "--dump", "--timeout", "x");
}

/* touch DIR/NAME */
static void touch(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static bool exists(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

/* The flight recorder's directory: no link, no one else's, no one else may write in it. */
static void test_flight_dir(void **state)
{
	char dir[] = "/tmp/test-flight-XXXXXX", path[256], why[512], cmd[64];
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* made 0755 when missing */
	snprintf(path, sizeof(path), "%s/new", dir);
	fd = flight_dir_open(path, true, false, why, sizeof(why));
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	close(fd);
	/* missing and not to be made */
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(flight_dir_open(path, false, false, why, sizeof(why)), -ENOENT);
	/* writable by others, by the group */
	snprintf(path, sizeof(path), "%s/new", dir);
	assert_int_equal(chmod(path, 01777), 0);
	assert_int_equal(flight_dir_open(path, false, false, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by every user (mode 1777): refused"));
	assert_int_equal(chmod(path, 0775), 0);
	assert_int_equal(flight_dir_open(path, false, true, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "writable by its group"));
	assert_int_equal(chmod(path, 0755), 0);
	/* given through a symbolic link */
	snprintf(cmd, sizeof(cmd), "%s/link", dir);
	assert_int_equal(symlink(path, cmd), 0);
	assert_int_equal(flight_dir_open(cmd, true, false, why, sizeof(why)), -ELOOP);
	assert_non_null(strstr(why, "a symbolic link: refused"));
	/* another user's: refused, unless any owner will do (root's flight-dump) */
	if (geteuid() == 0 && !chown(path, 1000, 1000)) {
		assert_int_equal(flight_dir_open(path, false, false, why, sizeof(why)),
				 -EPERM);
		assert_non_null(strstr(why, "owned by uid 1000"));
		fd = flight_dir_open(path, false, true, why, sizeof(why));
		assert_true(fd >= 0);
		close(fd);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * flight.pid: the recorder found by its lock, its holder's pid, never by
 * the number written; a link is not followed.
 */
static void test_flight_pid_lock(void **state)
{
	char dir[] = "/tmp/test-flight-XXXXXX", path[256], cmd[64], c;
	int dirfd, fd, p[2], q[2];
	long written;
	pid_t child, holder;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dirfd >= 0);
	/* no file */
	assert_int_equal(flight_pid_holder(dirfd, &written), -ENOENT);
	/* a stale file: a live pid written, no lock */
	snprintf(path, sizeof(path), "%s/flight.pid", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	assert_int_equal(flight_pid_holder(dirfd, &written), 0);
	assert_int_equal(written, (long)getpid());
	/* a child locks it: its pid is the holder; another lock fails */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(q), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		fd = flight_pid_lock(dirfd, &holder);
		c = fd >= 0 ? 'y' : 'n';
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(p[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	assert_int_equal(flight_pid_holder(dirfd, &written), child);
	assert_int_equal(written, (long)child);
	assert_int_equal(flight_pid_lock(dirfd, &holder), -EAGAIN);
	assert_int_equal(holder, child);
	/* the child ends: the file is stale, the number in it no recorder's */
	assert_int_equal(write(q[1], "x", 1), 1);
	assert_int_equal(waitpid(child, NULL, 0), child);
	assert_int_equal(flight_pid_holder(dirfd, &written), 0);
	assert_int_equal(written, (long)child);
	/* taken again: our pid written */
	fd = flight_pid_lock(dirfd, &holder);
	assert_true(fd >= 0);
	close(fd);
	/* a symbolic link is neither followed nor written through */
	assert_int_equal(unlink(path), 0);
	snprintf(cmd, sizeof(cmd), "%s/victim", dir);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("victim\n", f);
	fclose(f);
	assert_int_equal(symlink(cmd, path), 0);
	assert_int_equal(flight_pid_lock(dirfd, &holder), -ELOOP);
	assert_int_equal(flight_pid_holder(dirfd, &written), -ELOOP);
	f = fopen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(path, sizeof(path), f));
	fclose(f);
	assert_string_equal(path, "victim\n");
	/* nor is a hard link to another file */
	snprintf(path, sizeof(path), "%s/flight.pid", dir);
	assert_int_equal(unlink(path), 0);
	if (!link(cmd, path))
		assert_int_equal(flight_pid_lock(dirfd, &holder), -EMLINK);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(dirfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* The flight recorder's --keep: the oldest of a controller's files go. */
static void test_flight_prune(void **state)
{
	static const char *const files[] = {
		"flight-20260101-100000.000-dcm0.jsonl",
		"flight-20260101-100001.500-dcm0.jsonl",
		"flight-20260102-090000.000-dcm0.mcap",	/* --format mcap: one of them */
		"flight-20260103-000000.000-dcm0.jsonl",
	};
	static const char *const others[] = {
		"flight-20250101-000000.000-dcm1.jsonl",	/* another controller's */
		"flight-20250101-000000.000-dcm0.jsonl.part",	/* being written */
		"flight-latest.jsonl", "flight.pid", "notes.txt",
		"flight-20250101-000000.000-dcm0.mcap.part", "flight-latest.mcap",
		"flight-20250101-000000.000-dcm1.mcap",
	};
	char dir[] = "/tmp/test-flight-XXXXXX", cmd[64];
	size_t i;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (i = 0; i < 4; i++)
		touch(dir, files[i]);
	for (i = 0; i < 8; i++)
		touch(dir, others[i]);
	/* 0 keeps all; more kept than there are removes none */
	assert_int_equal(flight_prune(fd, 0, 0, NULL), 0);
	assert_int_equal(flight_prune(fd, 0, 4, NULL), 0);
	/* the newest 3 stay */
	assert_int_equal(flight_prune(fd, 0, 3, NULL), 1);
	assert_false(exists(dir, files[0]));
	assert_true(exists(dir, files[1]) && exists(dir, files[2]) && exists(dir, files[3]));
	/* the spared file stays and counts: here the oldest, as after a clock set back */
	assert_int_equal(flight_prune(fd, 0, 2, files[1]), 1);
	assert_true(exists(dir, files[1]) && exists(dir, files[3]));
	assert_false(exists(dir, files[2]));
	assert_int_equal(flight_prune(fd, 0, 1, files[1]), 1);
	assert_true(exists(dir, files[1]));
	assert_false(exists(dir, files[3]));
	/* nothing else is touched */
	for (i = 0; i < 8; i++)
		assert_true(exists(dir, others[i]));
	assert_int_equal(flight_prune(-1, 0, 1, NULL), -EBADF);
	close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_recorder),
		cmocka_unit_test(test_parse_dump),
		cmocka_unit_test(test_flight_prune),
		cmocka_unit_test(test_flight_dir),
		cmocka_unit_test(test_flight_pid_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
