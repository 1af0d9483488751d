// SPDX-License-Identifier: GPL-2.0
/*
 * The safety record under a hostile user: a user without privileges
 * (uid 1000) runs the board diagnostic, open to every user, back to back
 * from several processes while the body falls and gets up again.
 *
 * - The diagnostic is limited per user: over the flood the user got at
 *   most its burst and its rate (model/dcm_userlimit.c), the rest refused
 *   with EAGAIN and the kernel's reason; root is not limited.
 * - Every fall is in the kernel's history afterwards, and still is after
 *   root posts more informational events than the history keeps: the
 *   safety events have a history of their own (model/dcm_evlog.c).
 * - The kernel log's diagnostic lines are rate-limited.
 * - /sys/class/dcm/dcm0/events counts the events by type, the falls too.
 *
 * Each bound asserted is an upper bound of what the user obtains, which a
 * busy host can only lower. Needs the VM with dcm_sim and the default
 * description (dcmd at boot).
 */
#include <signal.h>
#include <time.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "dcm_test.h"
#include "libdcm.h"

#define SUB	DCM_SYSFS "/SubDeviceList/"
#define IMU	"/sys/kernel/debug/dcm_sim/body0/imu/"
#define EVENTS	DCM_SYSFS "/events"
#define USERS	4
#define FLOOD_S	4.0
#define FALLS	3

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A column of a type's line in the events file: 2 posted, 3 dropped; -1. */
static long long event_count(const char *type, int col)
{
	char line[128], name[32], cls[16];
	long long posted, dropped, ret = -1;
	FILE *f = fopen(EVENTS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %15s %lld %lld", name, cls, &posted, &dropped) == 4 &&
		    !strcmp(name, type))
			ret = col == 2 ? posted : dropped;
	fclose(f);
	return ret;
}

/* Wait until @type's posted count reaches @n, within @secs (scaled). */
static int wait_posted(const char *type, long long n, double secs)
{
	double end = now_s() + secs * dcm_test_scale();

	while (event_count(type, 2) < n) {
		if (now_s() > end)
			return -1;
		usleep(20000);
	}
	return 0;
}

/* Lines of the kernel log holding @s. */
static int klog_lines(const char *s)
{
	char cmd[256], buf[32] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "dmesg | grep -c '%s'", s);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = '\0';
	pclose(p);
	return atoi(buf);
}

struct hist_scan {
	uint64_t from;		/* count events numbered from here */
	int falls;		/* falls (value 1) */
	int ups;		/* up again (value 0) */
	int specials;
	int info;		/* informational events (specials, overruns, ...) */
	int events;
};

static int scan_event(const struct dcm_nl_event *e, void *arg)
{
	struct hist_scan *h = arg;
	struct dcm_event_msg ev;
	uint64_t seq;

	if (dcm_nl_parse_event(e->nlh, &ev) || dcm_nl_event_seq(e->nlh, &seq) || ev.index)
		return 0;
	if (seq < h->from)
		return 0;
	h->events++;
	if (ev.type == DCM_EV_FALL)
		*(ev.value ? &h->falls : &h->ups) += 1;
	if (ev.type == DCM_EV_SPECIAL)
		h->specials++;
	if (!dcm_event_type_safety(ev.type))
		h->info++;
	return 0;
}

static int scan_history(uint64_t from, struct hist_scan *h)
{
	struct dcm_nl *nl;
	int r;

	memset(h, 0, sizeof(*h));
	h->from = from;
	if (dcm_nl_open(&nl))
		return -1;
	r = dcm_nl_event_history(nl, scan_event, h);
	dcm_nl_close(nl);
	return r < 0 ? r : 0;
}

/* The number the next event posted will get: every type's posted count. */
static uint64_t next_seq(void)
{
	static const char *const types[] = {
		"other", "error", "nack", "ack", "safety", "temperature", "battery",
		"overrun", "config", "calibration", "watchdog", "special", "fall",
	};
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++)
		n += event_count(types[i], 2);
	return n;
}

/*
 * One flooding process: diagnostics back to back as uid 1000 until
 * @end; writes "<ok> <refused> <other> <reason seen>" to @fd.
 */
static void flood(int fd, double end)
{
	struct dcm_nl *nl;
	int ok = 0, refused = 0, other = 0, reason = 0, r;
	char out[64];

	if (setgid(1000) || setuid(1000) || dcm_nl_open(&nl))
		_exit(2);
	while (now_s() < end) {
		r = dcm_nl_special(nl, 0, LIBDCM_SPECIAL_DIAGNOSTIC, NULL);
		if (!r) {
			ok++;
		} else if (r == -EAGAIN) {
			refused++;
			reason |= !!strstr(dcm_last_error(), "a second per user");
		} else {
			other++;
		}
	}
	dcm_nl_close(nl);
	snprintf(out, sizeof(out), "%d %d %d %d\n", ok, refused, other, reason);
	if (write(fd, out, strlen(out)) < 0)
		_exit(3);
	_exit(0);
}

FIXTURE(record) {
	int dummy;
};

FIXTURE_SETUP(record)
{
	if (access(SUB "InertialSensor/AngleX/Sensor/Value", R_OK) || access(IMU "angle_x", W_OK))
		SKIP(return, "no default description or no dcm_sim debugfs imu/angle_x");
}

FIXTURE_TEARDOWN(record)
{
	dcm_write_sysfs(IMU "angle_x", "0");
}

/* The events file: a line a type, its class, posted and dropped. */
TEST_F(record, events_file)
{
	char buf[1024];

	ASSERT_EQ(0, dcm_read_sysfs(EVENTS, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "fall safety "));
	EXPECT_NE(NULL, strstr(buf, "nack safety "));
	EXPECT_NE(NULL, strstr(buf, "special info "));
	EXPECT_NE(NULL, strstr(buf, "config info "));
	EXPECT_LE(1, event_count("config", 2));		/* dcmd's description */
	EXPECT_EQ(0, event_count("fall", 3));
}

TEST_F(record, flood_keeps_falls)
{
	int pipefd[2], i, st, ok = 0, refused = 0, other = 0, reason = 0, a, b, c, d;
	long long falls0 = event_count("fall", 2);
	int klog0 = klog_lines("special diagnostic");
	uint64_t seq0 = next_seq();
	struct dcm_special_result *res;
	double t0, elapsed;
	struct hist_scan h;
	struct dcm_nl *nl;
	pid_t pid[USERS];
	char line[64];
	FILE *f;

	ASSERT_LE(0, falls0) TH_LOG("no " EVENTS);
	ASSERT_EQ(0, pipe(pipefd));
	t0 = now_s();
	for (i = 0; i < USERS; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			close(pipefd[0]);
			flood(pipefd[1], t0 + FLOOD_S);
		}
	}
	close(pipefd[1]);

	/* Meanwhile the body falls and gets up again, FALLS times. */
	for (i = 0; i < FALLS; i++) {
		ASSERT_EQ(0, dcm_write_sysfs(IMU "angle_x", "1500"));
		ASSERT_EQ(0, wait_posted("fall", falls0 + 2 * i + 1, 10))
			TH_LOG("fall %d not posted", i + 1);
		ASSERT_EQ(0, dcm_write_sysfs(IMU "angle_x", "0"));
		ASSERT_EQ(0, wait_posted("fall", falls0 + 2 * i + 2, 10))
			TH_LOG("up %d not posted", i + 1);
	}

	f = fdopen(pipefd[0], "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %d %d %d", &a, &b, &c, &d) == 4) {
			ok += a;
			refused += b;
			other += c;
			reason += d;
		}
	fclose(f);
	for (i = 0; i < USERS; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	elapsed = now_s() - t0;
	TH_LOG("uid 1000: %d diagnostics answered, %d refused, %d failed otherwise in %.1f s",
	       ok, refused, other, elapsed);

	/* One user: its burst (5) and 2 a second, whatever the host's load. */
	EXPECT_LE(1, ok);
	EXPECT_GE(5 + 2 * (elapsed + 1), ok);
	EXPECT_LT(0, refused);
	EXPECT_LT(0, reason);
	EXPECT_EQ(0, other);

	/* Every fall and every return is in the history. */
	ASSERT_EQ(0, scan_history(seq0, &h));
	EXPECT_EQ(FALLS, h.falls);
	EXPECT_EQ(FALLS, h.ups);

	/* Root is not limited: 100 diagnostics, more than the history keeps. */
	ASSERT_EQ(0, dcm_nl_open(&nl));
	res = malloc(sizeof(*res));
	ASSERT_NE(NULL, res);
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, dcm_nl_special(nl, 0, LIBDCM_SPECIAL_DIAGNOSTIC, res))
			TH_LOG("root's diagnostic %d: %s", i, dcm_last_error());
	free(res);
	dcm_nl_close(nl);

	/*
	 * The falls are still there; the informational history is full (of
	 * the diagnostics, and of overruns on a slow kernel).
	 */
	ASSERT_EQ(0, scan_history(seq0, &h));
	EXPECT_EQ(FALLS, h.falls);
	EXPECT_EQ(FALLS, h.ups);
	EXPECT_EQ(64, h.info);
	EXPECT_LE(1, h.specials);
	EXPECT_EQ(2LL * FALLS, event_count("fall", 2) - falls0);

	/*
	 * The kernel log: the default rate limit (10 lines in 5 s) over the
	 * flood and root's burst, far below the diagnostics run.
	 */
	elapsed = now_s() - t0;
	TH_LOG("kernel log: %d diagnostic lines for %d diagnostics",
	       klog_lines("special diagnostic") - klog0, ok + 100);
	EXPECT_GE(10 * (elapsed / 5 + 2), klog_lines("special diagnostic") - klog0);
}

DCM_HARNESS_MAIN
