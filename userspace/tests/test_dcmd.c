// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmd's command line, its log rate limiter, and what it needs
 * of systemd (the journal on stderr, readiness notification).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <cmocka.h>

#include <systemd/sd-daemon.h>

#include <linux/dcm.h>

#include "libdcm.h"
#include "dcmd.h"

#define ARGV(...) ((char *[]){ "dcmd", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "dcmd", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, ...) dcmd_parse_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), (o))

static void test_args(void **state)
{
	struct dcmd_opts o;

	(void)state;
	assert_int_equal(dcmd_parse_args(1, ARGV(NULL), &o), DCMD_RUN);
	assert_false(o.foreground);
	assert_false(o.verbose);
	assert_null(o.pidfile);
	assert_null(o.device_xml);

	assert_int_equal(PARSE(&o, "-f", "-v", "-p", "/run/dcmd.pid", "-c",
			       "/etc/dcm/Device.xml"), DCMD_RUN);
	assert_true(o.foreground);
	assert_true(o.verbose);
	assert_string_equal(o.pidfile, "/run/dcmd.pid");
	assert_string_equal(o.device_xml, "/etc/dcm/Device.xml");

	assert_int_equal(PARSE(&o, "-fv", "-p/tmp/x.pid"), DCMD_RUN);
	assert_true(o.foreground && o.verbose);
	assert_string_equal(o.pidfile, "/tmp/x.pid");

	assert_int_equal(PARSE(&o, "-h"), DCMD_HELP);
	assert_int_equal(PARSE(&o, "-f", "-h"), DCMD_HELP);
	assert_int_equal(PARSE(&o, "--help"), DCMD_HELP);

	/* long options, as --opt VALUE and --opt=VALUE */
	assert_int_equal(PARSE(&o, "--foreground", "--verbose", "--pidfile=/run/p",
			       "--check", "--list-keys", "--device-xml", "D.xml", "--main-xml=M.xml",
			       "--body-xml", "B.xml", "--head-xml=H.xml", "--schemas", "/s",
			       "--index=2"), DCMD_RUN);
	assert_true(o.foreground && o.verbose && o.check_only && o.list_keys);
	assert_string_equal(o.pidfile, "/run/p");
	assert_string_equal(o.device_xml, "D.xml");
	assert_string_equal(o.main_xml, "M.xml");
	assert_string_equal(o.body_xml, "B.xml");
	assert_string_equal(o.head_xml, "H.xml");
	assert_string_equal(o.schema_dir, "/s");
	assert_int_equal(o.index, 2);
	assert_int_equal(PARSE(&o, "--once"), DCMD_RUN);
	assert_true(o.once);
}

/* dcmd's help: every option of the table, in 80 columns. */
static void test_usage(void **state)
{
	static const char *const longs[] = {
		"--foreground", "--verbose", "--pidfile", "--once", "--check", "--list-keys",
		"--device-xml", "--main-xml", "--body-xml", "--head-xml", "--schemas", "--index",
		"--help",
	};
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	dcmd_usage(f);
	fclose(f);
	assert_non_null(strstr(buf, "Usage: dcmd"));
	for (i = 0; i < sizeof(longs) / sizeof(longs[0]); i++)
		assert_non_null(strstr(buf, longs[i]));
	for (char *l = buf, *nl; (nl = strchr(l, '\n')); l = nl + 1)
		assert_in_range(nl - l, 0, 79);
	free(buf);
}

static void test_args_errors(void **state)
{
	struct dcmd_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-p"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '-p' needs an argument");
	assert_int_equal(PARSE(&o, "-c"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '-c' needs an argument");
	assert_int_equal(PARSE(&o, "-p", ""), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -p needs a file name");
	assert_int_equal(PARSE(&o, "-x"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "unknown option '-x'");
	assert_int_equal(PARSE(&o, "-f", "extra"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "unexpected argument 'extra'");
	assert_int_equal(PARSE(&o, "--bogus"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "unknown option '--bogus'");
	assert_int_equal(PARSE(&o, "--pidfile"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '--pidfile' needs an argument");
	assert_int_equal(PARSE(&o, "--once=1"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '--once' takes no argument");
	/* abbreviations: one option's, or an error naming the candidates */
	assert_int_equal(PARSE(&o, "--fore", "--verb", "--ind=2"), DCMD_RUN);
	assert_true(o.foreground);
	assert_true(o.verbose);
	assert_int_equal(o.index, 2);
	assert_int_equal(PARSE(&o, "--h"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "ambiguous option '--h' (--head-xml, --help)");
	assert_int_equal(PARSE(&o, "-f", "--pid"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '--pidfile' needs an argument");
	assert_int_equal(PARSE(&o, "--ver=1"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option '--verbose' takes no argument");
}

static void test_args_description(void **state)
{
	struct dcmd_opts o;

	(void)state;
	assert_int_equal(dcmd_parse_args(1, ARGV(NULL), &o), DCMD_RUN);
	assert_false(o.once);
	assert_false(o.check_only);
	assert_null(o.main_xml);
	assert_null(o.body_xml);
	assert_null(o.head_xml);
	assert_null(o.schema_dir);
	assert_int_equal(o.index, 0);

	assert_int_equal(PARSE(&o, "-1", "-c", "D.xml", "-M", "M.xml", "-b", "B.xml", "-H", "H.xml",
			       "-S", "/schemas", "-i", "3"), DCMD_RUN);
	assert_true(o.once);
	assert_string_equal(o.device_xml, "D.xml");
	assert_string_equal(o.main_xml, "M.xml");
	assert_string_equal(o.body_xml, "B.xml");
	assert_string_equal(o.head_xml, "H.xml");
	assert_string_equal(o.schema_dir, "/schemas");
	assert_int_equal(o.index, 3);
	assert_int_equal(PARSE(&o, "-n"), DCMD_RUN);
	assert_true(o.check_only);

	assert_int_equal(PARSE(&o, "-n", "-1"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "-n and -1 exclude each other");
	assert_false(o.list_keys);
	assert_int_equal(PARSE(&o, "-n", "-k"), DCMD_RUN);
	assert_true(o.check_only);
	assert_true(o.list_keys);
	assert_int_equal(PARSE(&o, "-k"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "-k needs -n");
	assert_int_equal(PARSE(&o, "-i", "x"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -i needs a controller index, not 'x'");
	assert_int_equal(PARSE(&o, "-i", "-1"), DCMD_USAGE_ERROR);
	assert_int_equal(PARSE(&o, "-i", "99999999999"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -i needs a controller index, not '99999999999'");
	/* an index is digits: no sign, no blank, no hex (common/num.c) */
	assert_int_equal(PARSE(&o, "-i", "+1"), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -i needs a controller index, not '+1'");
	assert_int_equal(PARSE(&o, "-i", "0x1"), DCMD_USAGE_ERROR);
	assert_int_equal(PARSE(&o, "-i", "1 "), DCMD_USAGE_ERROR);
	assert_int_equal(PARSE(&o, "-i", "2147483647"), DCMD_RUN);
	assert_int_equal(o.index, 2147483647);
	assert_int_equal(PARSE(&o, "-i", "2147483648"), DCMD_USAGE_ERROR);
	assert_int_equal(PARSE(&o, "-b", ""), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -b needs a file name");
	assert_int_equal(PARSE(&o, "-M", ""), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -M needs a file name");
	assert_int_equal(PARSE(&o, "-S", ""), DCMD_USAGE_ERROR);
	assert_string_equal(o.err, "option -S needs a directory");
}

static void touch(const char *dir, const char *name)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
}

/* Each controller has its own preference directory; dcm0 keeps /etc/dcm. */
static void test_etc_dir(void **state)
{
	char buf[32], tiny[10];

	(void)state;
	assert_int_equal(desc_etc_dir(0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/etc/dcm");
	assert_int_equal(desc_etc_dir(1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/etc/dcm/dcm1");
	assert_int_equal(desc_etc_dir(12, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/etc/dcm/dcm12");
	assert_int_equal(desc_etc_dir(0, tiny, sizeof(tiny)), 0);
	assert_int_equal(desc_etc_dir(3, tiny, sizeof(tiny)), -ENAMETOOLONG);
}

/* Defaults: /etc/dcm's preference files first, then /usr/share/dcm's, else none. */
static void test_resolve_files(void **state)
{
	char etc[64] = "/tmp/test_dcmd_etc.XXXXXX", share[64] = "/tmp/test_dcmd_share.XXXXXX";
	char want[512], cmd[192];
	struct desc_files f;
	struct dcmd_opts o;

	(void)state;
	assert_non_null(mkdtemp(etc));
	assert_non_null(mkdtemp(share));

	assert_int_equal(PARSE(&o, "-1"), DCMD_RUN);
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	snprintf(want, sizeof(want), "%s/Device.xml", share);
	assert_string_equal(f.device_xml, want);
	assert_string_equal(f.prefs[DESC_MAIN], "");
	assert_string_equal(f.prefs[DESC_CHEST], "");
	assert_string_equal(f.prefs[DESC_HEAD], "");
	/* no main file is the usual case: not said */
	snprintf(want, sizeof(want), "no %s/body.xml nor %s/body.xml; no %s/head.xml nor %s/head.xml",
		 etc, share, etc, share);
	assert_string_equal(f.note, want);
	snprintf(want, sizeof(want), "%s/device.rng", share);
	assert_string_equal(f.device_rng, want);
	snprintf(want, sizeof(want), "%s/preferences.rng", share);
	assert_string_equal(f.prefs_rng, want);

	touch(share, "body.xml");
	touch(share, "head.xml");
	touch(etc, "head.xml");
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	snprintf(want, sizeof(want), "%s/body.xml", share);
	assert_string_equal(f.prefs[DESC_CHEST], want);
	snprintf(want, sizeof(want), "%s/head.xml", etc);
	assert_string_equal(f.prefs[DESC_HEAD], want);
	assert_string_equal(f.prefs[DESC_MAIN], "");
	assert_string_equal(f.note, "");
	/* the main file: /etc/dcm's, else /usr/share/dcm's */
	touch(share, "main.xml");
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	snprintf(want, sizeof(want), "%s/main.xml", share);
	assert_string_equal(f.prefs[DESC_MAIN], want);
	touch(etc, "main.xml");
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	snprintf(want, sizeof(want), "%s/main.xml", etc);
	assert_string_equal(f.prefs[DESC_MAIN], want);

	/* options win; "none" means no file */
	assert_int_equal(PARSE(&o, "-c", "x/D.xml", "-b", "none", "-H", "h.xml", "-S", "/s",
			       "-M", "none"), DCMD_RUN);
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	assert_string_equal(f.device_xml, "x/D.xml");
	assert_string_equal(f.prefs[DESC_MAIN], "");
	assert_string_equal(f.prefs[DESC_CHEST], "");
	assert_string_equal(f.prefs[DESC_HEAD], "h.xml");
	assert_string_equal(f.device_rng, "/s/device.rng");
	assert_string_equal(f.prefs_rng, "/s/preferences.rng");
	assert_string_equal(f.note, "");
	assert_int_equal(PARSE(&o, "-M", "m.xml"), DCMD_RUN);
	assert_int_equal(dcmd_resolve_files(&o, etc, share, &f), 0);
	assert_string_equal(f.prefs[DESC_MAIN], "m.xml");

	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", etc, share);
	assert_int_equal(system(cmd), 0);
}

static void test_ratelimit_burst(void **state)
{
	struct ratelimit rl;
	unsigned long flushed;
	int i;

	(void)state;
	ratelimit_init(&rl, 3, 1000);
	assert_int_equal(ratelimit_timeout(&rl, 0), -1);

	/* 3 pass, 5 suppressed inside one window */
	for (i = 0; i < 3; i++) {
		assert_true(ratelimit_allow(&rl, 5000 + i, &flushed));
		assert_int_equal(flushed, 0);
	}
	for (i = 0; i < 5; i++) {
		assert_false(ratelimit_allow(&rl, 5100 + i, &flushed));
		assert_int_equal(flushed, 0);
	}
	/* nothing to report before the window ends */
	assert_int_equal(ratelimit_flush(&rl, 5999, false), 0);
	assert_int_equal(ratelimit_timeout(&rl, 5500), 500);
	assert_int_equal(ratelimit_timeout(&rl, 6000), 0);
	assert_int_equal(ratelimit_timeout(&rl, 7000), 0);

	/* the next message after the window reports the 5 */
	assert_true(ratelimit_allow(&rl, 6000, &flushed));
	assert_int_equal(flushed, 5);
	assert_int_equal(ratelimit_timeout(&rl, 6000), -1);
	assert_true(ratelimit_allow(&rl, 6001, &flushed));
	assert_int_equal(flushed, 0);
}

static void test_ratelimit_flush(void **state)
{
	struct ratelimit rl;
	unsigned long flushed;

	(void)state;
	ratelimit_init(&rl, 1, 1000);
	assert_true(ratelimit_allow(&rl, 100, &flushed));
	assert_false(ratelimit_allow(&rl, 200, &flushed));
	assert_false(ratelimit_allow(&rl, 300, &flushed));

	/* a poll timeout after the window flushes without a new message */
	assert_int_equal(ratelimit_flush(&rl, 1099, false), 0);
	assert_int_equal(ratelimit_flush(&rl, 1100, false), 2);
	assert_int_equal(ratelimit_flush(&rl, 1200, false), 0);	/* once */
	/* ...and the next message does not report them again */
	assert_true(ratelimit_allow(&rl, 1300, &flushed));
	assert_int_equal(flushed, 0);

	/* forced flush at shutdown, mid-window */
	assert_false(ratelimit_allow(&rl, 1400, &flushed));
	assert_int_equal(ratelimit_flush(&rl, 1401, true), 1);
	assert_int_equal(ratelimit_flush(&rl, 1402, true), 0);
}

static void test_ratelimit_sustained(void **state)
{
	struct ratelimit rl;
	unsigned long flushed, reported = 0, passed = 0;
	uint64_t t;

	(void)state;
	/* 100 messages per second for 10 s, limit 10 per second */
	ratelimit_init(&rl, 10, 1000);
	for (t = 0; t < 10000; t += 10) {
		if (ratelimit_allow(&rl, t, &flushed))
			passed++;
		reported += flushed;
	}
	reported += ratelimit_flush(&rl, t, true);
	assert_int_equal(passed, 100);
	assert_int_equal(passed + reported, 1000);
}

/* $JOURNAL_STREAM: the journal only if it names stderr's device and inode. */
static void test_journal_stream(void **state)
{
	char tmpl[] = "/tmp/test_dcmd.XXXXXX", env[64];
	int saved = dup(STDERR_FILENO), fd = mkstemp(tmpl);
	struct stat st;

	(void)state;
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(0, fstat(fd, &st));
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	unsetenv("JOURNAL_STREAM");
	assert_false(dcmd_stderr_is_journal());
	setenv("JOURNAL_STREAM", env, 1);
	/* stderr elsewhere (a child redirected it): not the journal */
	assert_false(dcmd_stderr_is_journal());
	assert_int_equal(STDERR_FILENO, dup2(fd, STDERR_FILENO));
	assert_true(dcmd_stderr_is_journal());
	setenv("JOURNAL_STREAM", "12:", 1);
	assert_false(dcmd_stderr_is_journal());
	strcat(env, "x");
	setenv("JOURNAL_STREAM", env, 1);
	assert_false(dcmd_stderr_is_journal());
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	unlink(tmpl);
	unsetenv("JOURNAL_STREAM");
}

/* The journal's priority prefixes of sd-daemon(3), one per syslog level. */
static void test_journal_prefix(void **state)
{
	char want[16];
	int prio;

	(void)state;
	for (prio = LOG_EMERG; prio <= LOG_DEBUG; prio++) {
		snprintf(want, sizeof(want), "<%d>", prio);
		assert_string_equal(want, dcmd_journal_prefix(prio));
	}
	assert_string_equal("<3>", dcmd_journal_prefix(-1));
	assert_string_equal("<3>", dcmd_journal_prefix(LOG_DEBUG + 1));
}

static void recv_state(int s, const char *want)
{
	char buf[64];
	ssize_t n = recv(s, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(want, buf);
}

/*
 * The notification as dcmd sends it (libsystemd's sd_notify(0, STATE)): the
 * state alone, one datagram, to a path or an abstract name; 0 without
 * $NOTIFY_SOCKET, an error (never a crash) for one that is wrong.
 */
static void test_notify(void **state)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[] = "/tmp/test_dcmd.XXXXXX", path[96], abstract[64];
	int s, a;

	(void)state;
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(0, sd_notify(0, "READY=1"));

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	s = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_true(s >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(0, bind(s, (struct sockaddr *)&sa, sizeof(sa)));
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(1, sd_notify(0, "READY=1"));
	recv_state(s, "READY=1");
	assert_int_equal(1, sd_notify(0, "RELOADING=1"));
	recv_state(s, "RELOADING=1");

	/* abstract: "@name", bound as "\0name" of exactly that length */
	snprintf(abstract, sizeof(abstract), "@test_dcmd_notify_%ld", (long)getpid());
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path + 1, abstract + 1, strlen(abstract) - 1);
	a = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_true(a >= 0);
	assert_int_equal(0, bind(a, (struct sockaddr *)&sa,
				 (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
					     strlen(abstract))));
	setenv("NOTIFY_SOCKET", abstract, 1);
	assert_int_equal(1, sd_notify(0, "STOPPING=1"));
	recv_state(a, "STOPPING=1");

	/* no listener, or no valid address: an error, never a crash */
	setenv("NOTIFY_SOCKET", "/nonexistent/notify", 1);
	assert_true(sd_notify(0, "READY=1") < 0);
	setenv("NOTIFY_SOCKET", "relative", 1);
	assert_int_equal(-EINVAL, sd_notify(0, "READY=1"));

	unsetenv("NOTIFY_SOCKET");
	close(a);
	close(s);
	unlink(path);
	rmdir(dir);
}

/*
 * The kernel's count of events not sent before one (DCM_A_EV_LOST): on the
 * line only while the follower does not know the numbering yet; after, the
 * follower filled the gap from the history or counted it as lost.
 */
static void test_event_line(void **state)
{
	struct dcm_event_msg e = {
		.index = 0, .type = DCM_EV_ERROR, .time_ms = 1200, .lost = 3,
		.device = "ChestBoard", .text = "bus",
	};
	char line[256], plain[256];

	(void)state;
	assert_true(dcmd_event_line(&e, false, line, sizeof(line)) > 0);
	assert_non_null(strstr(line, " (3 events lost before)"));
	assert_non_null(strstr(line, "ChestBoard: bus"));
	assert_true(dcmd_event_line(&e, true, line, sizeof(line)) > 0);
	assert_null(strstr(line, "lost"));
	/* the rest of the line as dcm_event_format() makes it */
	e.lost = 0;
	assert_true(dcm_event_format(&e, plain, sizeof(plain)) > 0);
	assert_string_equal(line, plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_event_line),
		cmocka_unit_test(test_args_errors),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_args_description),
		cmocka_unit_test(test_etc_dir),
		cmocka_unit_test(test_resolve_files),
		cmocka_unit_test(test_ratelimit_burst),
		cmocka_unit_test(test_ratelimit_flush),
		cmocka_unit_test(test_ratelimit_sustained),
		cmocka_unit_test(test_journal_stream),
		cmocka_unit_test(test_journal_prefix),
		cmocka_unit_test(test_notify),
	};

	return cmocka_run_group_tests_name("dcmd", tests, NULL, NULL);
}
