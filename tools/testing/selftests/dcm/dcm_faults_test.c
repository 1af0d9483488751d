// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_faults_test: the fault matrix (Documentation/testing.rst lists every
 * fault and the test that covers it). Each fault the simulator injects is
 * one variant: injected under a running cycle, its reaction asserted, then
 * cleared and the recovery asserted; all the while a watcher thread reads
 * the mapped snapshot every millisecond and checks what a reader relies on
 * (the sequence odd for no more than DCM_FAULTS_UNSTABLE_MS, the cycle
 * number never going back, the watched actuators' Values within their
 * Min/Max: Min and Max bound commands; a sensor may read past them, e.g. a
 * current past its limit, which is what the limit's rule acts on), and
 * commands given before the fault must read back unchanged after it. Then
 * the faults that are not the simulator's: a client killed mid-command, the
 * description replaced under the cycle, dcmd killed mid-push, and the module
 * removed under a reader blocked in read(), a mapping, an event subscriber
 * and an open file.
 *
 * Needs the VM with dcm_sim and the default description (dcmd at boot).
 */
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "dcm_test.h"

#define SIM		"/sys/kernel/debug/dcm_sim/body0"
#define SUB		DCM_SYSFS "/SubDeviceList"
#define DEVL		DCM_SYSFS "/DeviceList"
/* Longest time a mapped snapshot may stay odd (being written). */
#define DCM_FAULTS_UNSTABLE_MS	200

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	usleep(ms * 1000);
}

/* A sysfs file as a number; NAN when it cannot be read. */
static double sysfs_num(const char *fmt, ...)
{
	char path[256], buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (dcm_read_sysfs(path, buf, sizeof(buf)))
		return NAN;
	return strtod(buf, NULL);
}

/*
 * Wait up to @ms for sysfs_num(path) to satisfy @op against @want: '=' (to
 * 1e-6), '~' (to 0.01: a quantized command), '<' or '>'.
 */
static int wait_num(int ms, const char *path, char op, double want, double *got)
{
	/*
	 * @ms is how soon it comes on an idle host; the wait is 10 s at least
	 * (scaled), so that a host busy with other work only makes it longer.
	 */
	double end = now_s() + (ms < 10000 ? 10000 : ms) / 1000.0 * dcm_test_scale();

	for (;;) {
		double v = sysfs_num("%s", path);
		int ok = op == '=' ? fabs(v - want) < 1e-6 :
			 op == '~' ? fabs(v - want) < 0.01 :
			 op == '<' ? v < want : v > want;

		*got = v;
		if (ok)
			return 0;
		if (now_s() > end)
			return -1;
		sleep_ms(20);
	}
}

/* ---- The watcher: what a mapped snapshot's reader relies on ---------- */

#define NWATCH 8

struct watcher {
	const volatile struct dcm_snapshot *snap;
	size_t size;
	pthread_t thread;
	volatile int stop;
	int nw;
	struct {
		const char *name;
		uint32_t idx;
		int64_t min, max;
	} w[NWATCH];
	/* Results, read once the thread is joined. */
	unsigned long stable_reads;
	double unstable_max_ms;
	unsigned long backwards;
	unsigned long out_of_range;
	char why[256];
};

static int64_t micro(double v)
{
	return (int64_t)llround(v * 1e6);
}

static void *watch_loop(void *arg)
{
	struct watcher *wt = arg;
	double odd_since = 0;
	uint64_t last_cycle = 0;

	while (!wt->stop) {
		const volatile struct dcm_snapshot *s = wt->snap;
		uint32_t seq1, seq2;
		int64_t v[NWATCH];
		uint64_t cycle;
		int i;

		seq1 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq1 & 1) {
			double t = now_s();

			if (!odd_since)
				odd_since = t;
			if ((t - odd_since) * 1000 > wt->unstable_max_ms)
				wt->unstable_max_ms = (t - odd_since) * 1000;
			usleep(200);
			continue;
		}
		cycle = s->cycle;
		for (i = 0; i < wt->nw; i++)
			v[i] = ((const volatile int64_t *)((const volatile char *)s +
							 s->values_offset))[wt->w[i].idx];
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		seq2 = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
		if (seq1 != seq2)
			continue;
		odd_since = 0;
		wt->stable_reads++;
		if (cycle < last_cycle) {
			wt->backwards++;
			snprintf(wt->why, sizeof(wt->why), "cycle %llu after %llu",
				 (unsigned long long)cycle, (unsigned long long)last_cycle);
		}
		last_cycle = cycle;
		for (i = 0; i < wt->nw; i++) {
			if (v[i] < wt->w[i].min || v[i] > wt->w[i].max) {
				wt->out_of_range++;
				snprintf(wt->why, sizeof(wt->why), "%s = %lld outside [%lld, %lld]",
					 wt->w[i].name, (long long)v[i],
					 (long long)wt->w[i].min, (long long)wt->w[i].max);
			}
		}
		usleep(1000);
	}
	return NULL;
}

/* Map the snapshot of @fd whole; NULL on failure. */
static const volatile struct dcm_snapshot *map_snapshot(int fd, size_t *size)
{
	long page = sysconf(_SC_PAGESIZE);
	const struct dcm_snapshot *s;
	size_t sz;

	s = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		return NULL;
	sz = s->size;
	munmap((void *)s, page);
	s = mmap(NULL, sz, PROT_READ, MAP_SHARED, fd, 0);
	if (s == MAP_FAILED)
		return NULL;
	*size = sz;
	return s;
}

static int watch_add(struct watcher *wt, int fd, const char *name)
{
	uint32_t h = dcm_lookup_handle(fd, name);
	double min = sysfs_num(SUB "/%s/Min", name);
	double max = sysfs_num(SUB "/%s/Max", name);

	if (!h || isnan(min) || isnan(max) || wt->nw == NWATCH)
		return -1;
	wt->w[wt->nw].name = name;
	wt->w[wt->nw].idx = DCM_HANDLE_INDEX(h);
	wt->w[wt->nw].min = micro(min);
	wt->w[wt->nw].max = micro(max);
	wt->nw++;
	return 0;
}

/* ---- Commands that must survive every fault --------------------------- */

static const struct {
	const char *name;
	double value;
} sentinels[] = {
	{ "ChestBoard/Led/Red/Actuator", 0.25 },
	{ "Face/Led/Green/Left/0Deg/Actuator", 0.5 },
	{ "HeadYaw/Hardness/Actuator", 1.0 },
	{ "HeadYaw/Position/Actuator", 0.2 },
};

static int set_now(int fd, const char *name, double value)
{
	struct dcm_point p = { .value = micro(value), .time = dcm_time_now(fd, 0) };
	uint32_t h = dcm_lookup_handle(fd, name);

	if (!h)
		return -1;
	return dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1);
}

/* ---- The simulator's faults: one variant each ------------------------- */

struct fault;
typedef int (*check_fn)(const struct fault *f, char *why, size_t len);

struct fault {
	const char *inject;	/* shell command */
	const char *clear;	/* shell command */
	int settle_ms;		/* how long the fault lasts before its check */
	check_fn reacted;
	check_fn recovered;
	const char *board;	/* a board that must answer again after */
};

#define WHY(...) (snprintf(why, len, __VA_ARGS__), -1)

static int board_answers(const char *board, char *why, size_t len)
{
	double v;

	if (wait_num(3000, DEVL "/HeadBoard/Available", '=', 1, &v))
		return WHY("HeadBoard/Available %g", v);
	if (board && wait_num(3000, board, '=', 1, &v))
		return WHY("%s %g", board, v);
	return 0;
}

static int silent_reacted(const struct fault *f, char *why, size_t len)
{
	double v;

	(void)f;
	if (wait_num(1000, DEVL "/HeadBoard/Available", '=', 0, &v))
		return WHY("HeadBoard/Available %g while silent", v);
	return 0;
}

static double nack_mark;

static int crc_reacted(const struct fault *f, char *why, size_t len)
{
	double n = sysfs_num(DEVL "/RightShoulderBoard/Nack");

	(void)f;
	if (!(n > nack_mark + 5))
		return WHY("RightShoulderBoard/Nack %g, was %g", n, nack_mark);
	return 0;
}

static int nacks_stop(const struct fault *f, char *why, size_t len)
{
	double a, b;

	(void)f;
	sleep_ms(300);
	a = sysfs_num(DEVL "/RightShoulderBoard/Nack");
	sleep_ms(500);
	b = sysfs_num(DEVL "/RightShoulderBoard/Nack");
	if (a != b)
		return WHY("RightShoulderBoard/Nack still growing after the fault (%g -> %g)", a, b);
	return 0;
}

static int mre_reacted(const struct fault *f, char *why, size_t len)
{
	(void)f;
	if (dcm_sh("grep -q MRE " DEVL "/LeftShoulderBoard/Error"))
		return WHY("LeftShoulderBoard/Error does not name the MRE fault");
	return 0;
}

/* After a fault on a joint's board, the joint follows a command again. */
static int joint_follows(const char *joint, double target, char *why, size_t len)
{
	char key[128];
	int fd = open(DCM_DEV, O_RDWR);
	double v;

	if (fd < 0)
		return WHY("open: %s", strerror(errno));
	snprintf(key, sizeof(key), "%s/Hardness/Actuator", joint);
	set_now(fd, key, 1.0);
	snprintf(key, sizeof(key), "%s/Position/Actuator", joint);
	set_now(fd, key, target);
	snprintf(key, sizeof(key), SUB "/%s/Position/Sensor/Value", joint);
	if (wait_num(3000, key, '>', target - 0.03, &v) || v > target + 0.03) {
		close(fd);
		return WHY("%s reads %g for a command of %g", joint, v, target);
	}
	snprintf(key, sizeof(key), "%s/Hardness/Actuator", joint);
	set_now(fd, key, 0.0);
	close(fd);
	return 0;
}

static int lshoulder_follows(const struct fault *f, char *why, size_t len)
{
	(void)f;
	return joint_follows("LShoulderPitch", 0.3, why, len);
}

static int hot_reacted(const struct fault *f, char *why, size_t len)
{
	int fd = open(DCM_DEV, O_RDWR);
	double st, h;

	(void)f;
	if (fd < 0)
		return WHY("open: %s", strerror(errno));
	set_now(fd, "LHipYawPitch/Hardness/Actuator", 1.0);
	close(fd);
	if (wait_num(1000, SUB "/LHipYawPitch/Temperature/Sensor/Status", '=', 3, &st))
		return WHY("LHipYawPitch temperature status %g at 86 degC", st);
	if (wait_num(500, SUB "/LHipYawPitch/Hardness/Actuator/Value", '=', 0, &h))
		return WHY("LHipYawPitch hardness sent %g at status 3", h);
	return 0;
}

static int hot_recovered(const struct fault *f, char *why, size_t len)
{
	int fd = open(DCM_DEV, O_RDWR);
	double st;

	(void)f;
	if (fd < 0)
		return WHY("open: %s", strerror(errno));
	set_now(fd, "LHipYawPitch/Hardness/Actuator", 0.0);
	close(fd);
	/* The motor cools; the status comes down from 3. */
	if (wait_num(10000, SUB "/LHipYawPitch/Temperature/Sensor/Status", '<', 3, &st))
		return WHY("LHipYawPitch temperature status still %g", st);
	return 0;
}

static double cycles_mark, faults_mark;

/*
 * The cycle goes on with the slow bus: settle_ms of cycles at 10 ms, less
 * a fifth, however long the host takes to run them (waited for 20 s). By
 * settle_ms on an idle host: the period kept, a bound of timing
 * (DCM_TIMING_CHECKS=1, dcm_test.h).
 */
static int period_held(const struct fault *f, char *why, size_t len)
{
	double need = f->settle_ms / 10 * 4 / 5, end = now_s() + 20.0 * dcm_test_scale();
	double c = sysfs_num(DCM_SYSFS "/stats/cycles");

	if (dcm_timing_checks() && c - cycles_mark < need)
		return WHY("%g cycles in %d ms", c - cycles_mark, f->settle_ms);
	while (c - cycles_mark < need && now_s() < end) {
		sleep_ms(20);
		c = sysfs_num(DCM_SYSFS "/stats/cycles");
	}
	if (c - cycles_mark < need)
		return WHY("%g cycles in %d ms and 20 s more", c - cycles_mark, f->settle_ms);
	return 0;
}

static int imu_reacted(const struct fault *f, char *why, size_t len)
{
	double v;

	(void)f;
	if (wait_num(1000, DEVL "/InertialSensor/Available", '=', 0, &v))
		return WHY("InertialSensor/Available %g while silent", v);
	return 0;
}

static int battery_reacted(const struct fault *f, char *why, size_t len)
{
	double b;

	(void)f;
	if (wait_num(2000, DCM_SYSFS "/safety/battery_scale", '<', 0.95, &b))
		return WHY("battery_scale %g at 8 A", b);
	return 0;
}

static int battery_recovered(const struct fault *f, char *why, size_t len)
{
	double b;

	(void)f;
	if (wait_num(4000, DCM_SYSFS "/safety/battery_scale", '=', 1, &b))
		return WHY("battery_scale %g after the load", b);
	return 0;
}

static int stall_reacted(const struct fault *f, char *why, size_t len)
{
	double n = sysfs_num(DCM_SYSFS "/safety/cycle_faults");
	double s = sysfs_num(DCM_SYSFS "/safety/fault_scale");

	(void)f;
	if (n != faults_mark + 1 || !(s < 0.5))
		return WHY("cycle_faults %g (was %g), fault_scale %g", n, faults_mark, s);
	return 0;
}

static int stall_recovered(const struct fault *f, char *why, size_t len)
{
	double s;

	(void)f;
	if (wait_num(4000, DCM_SYSFS "/safety/fault_scale", '=', 1, &s))
		return WHY("fault_scale %g 4 s after the stall", s);
	return 0;
}

static int nothing(const struct fault *f, char *why, size_t len)
{
	(void)f;
	(void)why;
	(void)len;
	return 0;
}

FIXTURE(matrix) {
	int fd;
	struct watcher wt;
	double cycles0;
};

FIXTURE_VARIANT(matrix) {
	struct fault f;
};

FIXTURE_VARIANT_ADD(matrix, board_silent) {
	.f = { "echo 1 >" SIM "/rs485-1/silent", "echo 0 >" SIM "/rs485-1/silent", 500,
	       silent_reacted, nothing, NULL },
};

FIXTURE_VARIANT_ADD(matrix, replies_corrupted) {
	.f = { "echo 300000 >" SIM "/rs485-2/crc_ppm", "echo 0 >" SIM "/rs485-2/crc_ppm", 500,
	       crc_reacted, nacks_stop, DEVL "/RightShoulderBoard/Available" },
};

FIXTURE_VARIANT_ADD(matrix, mre_fault) {
	.f = { "echo 2 >" SIM "/rs485-1/mre_fault", "echo 0 >" SIM "/rs485-1/mre_fault", 300,
	       mre_reacted, lshoulder_follows, DEVL "/LeftShoulderBoard/Available" },
};

FIXTURE_VARIANT_ADD(matrix, motor_overheated) {
	.f = { "echo 86000 >" SIM "/rs485-3/hot_mc && echo 1 >" SIM "/rs485-3/hot",
	       "echo 0 >" SIM "/rs485-3/hot && echo 80000 >" SIM "/rs485-3/hot_mc", 300,
	       hot_reacted, hot_recovered, DEVL "/LeftPelvisBoard/Available" },
};

FIXTURE_VARIANT_ADD(matrix, bus_slow) {
	.f = { "echo 3000 >" SIM "/rs485-4/delay_us", "echo 0 >" SIM "/rs485-4/delay_us", 1000,
	       period_held, nothing, DEVL "/RightPelvisBoard/Available" },
};

FIXTURE_VARIANT_ADD(matrix, inertial_silent) {
	.f = { "echo Y >" SIM "/imu/silent", "echo N >" SIM "/imu/silent", 300,
	       imu_reacted, nothing, DEVL "/InertialSensor/Available" },
};

FIXTURE_VARIANT_ADD(matrix, battery_overcurrent) {
	.f = { "echo 8000 >" SIM "/load_ma", "echo 0 >" SIM "/load_ma", 1000,
	       battery_reacted, battery_recovered, NULL },
};

FIXTURE_VARIANT_ADD(matrix, cycle_stall) {
	.f = { "echo 700 >/sys/kernel/debug/dcm/dcm0/stall_ms", "true", 900,
	       stall_reacted, stall_recovered, NULL },
};

FIXTURE_SETUP(matrix)
{
	static const char * const watched[] = {
		"HeadYaw/Position/Actuator", "LShoulderPitch/Position/Actuator",
		"LHipYawPitch/Hardness/Actuator", "RShoulderPitch/Position/Actuator",
		"Face/Led/Green/Left/0Deg/Actuator", "ChestBoard/Led/Red/Actuator",
		"HeadYaw/Hardness/Actuator", "LShoulderPitch/Hardness/Actuator",
	};
	unsigned int i;

	memset(&self->wt, 0, sizeof(self->wt));
	if (access(SIM, F_OK))
		SKIP(return, "no dcm_sim");
	self->fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, self->fd);
	self->wt.snap = map_snapshot(self->fd, &self->wt.size);
	ASSERT_NE(NULL, self->wt.snap);
	for (i = 0; i < sizeof(watched) / sizeof(watched[0]); i++)
		ASSERT_EQ(0, watch_add(&self->wt, self->fd, watched[i])) TH_LOG("%s", watched[i]);
	for (i = 0; i < sizeof(sentinels) / sizeof(sentinels[0]); i++)
		ASSERT_EQ(0, set_now(self->fd, sentinels[i].name, sentinels[i].value));
	sleep_ms(600);
	ASSERT_EQ(0, pthread_create(&self->wt.thread, NULL, watch_loop, &self->wt));
	nack_mark = sysfs_num(DEVL "/RightShoulderBoard/Nack");
	faults_mark = sysfs_num(DCM_SYSFS "/safety/cycle_faults");
	cycles_mark = sysfs_num(DCM_SYSFS "/stats/cycles");
}

FIXTURE_TEARDOWN(matrix)
{
	if (!self->wt.snap)
		return;
	dcm_sh(variant->f.clear);
	if (self->wt.thread) {
		self->wt.stop = 1;
		pthread_join(self->wt.thread, NULL);
	}
	munmap((void *)self->wt.snap, self->wt.size);
	close(self->fd);
}

TEST_F(matrix, inject_react_recover)
{
	const struct fault *f = &variant->f;
	char why[256] = "";
	unsigned int i;
	double v;

	ASSERT_EQ(0, dcm_sh(f->inject));
	sleep_ms(f->settle_ms);
	EXPECT_EQ(0, f->reacted(f, why, sizeof(why))) TH_LOG("reaction: %s", why);
	ASSERT_EQ(0, dcm_sh(f->clear));
	EXPECT_EQ(0, f->recovered(f, why, sizeof(why))) TH_LOG("recovery: %s", why);
	EXPECT_EQ(0, board_answers(f->board, why, sizeof(why))) TH_LOG("%s", why);

	/* The commands given before the fault are still what is asked. */
	for (i = 0; i < sizeof(sentinels) / sizeof(sentinels[0]); i++) {
		char path[192];

		snprintf(path, sizeof(path), SUB "/%s/Value", sentinels[i].name);
		EXPECT_EQ(0, wait_num(2000, path, '~', sentinels[i].value, &v))
			TH_LOG("%s reads %g, was commanded %g", sentinels[i].name, v,
			       sentinels[i].value);
	}
	EXPECT_EQ(0, wait_num(3000, SUB "/HeadYaw/Position/Sensor/Value", '>', 0.17, &v));
	EXPECT_GT(0.23, v) TH_LOG("HeadYaw held at %g for 0.2", v);

	self->wt.stop = 1;
	pthread_join(self->wt.thread, NULL);
	self->wt.thread = 0;
	EXPECT_LT(10, self->wt.stable_reads);
	/* How long the watcher saw it odd includes its own stalls: timing. */
	DCM_TIMING_EXPECT(self->wt.unstable_max_ms < DCM_FAULTS_UNSTABLE_MS,
			  "the snapshot stayed odd %.1f ms", self->wt.unstable_max_ms);
	EXPECT_EQ(0, self->wt.backwards) TH_LOG("%s", self->wt.why);
	EXPECT_EQ(0, self->wt.out_of_range) TH_LOG("%s", self->wt.why);
	TH_LOG("%lu stable snapshot reads, longest odd %.1f ms", self->wt.stable_reads,
	       self->wt.unstable_max_ms);
}

/* ---- Faults of the clients, the daemon and the module ------------------ */

/*
 * A client killed in the middle of a trajectory, watchdog not armed: its
 * commands are the robot's (NAOqi's rule) and run to their end.
 */
TEST(client_killed_mid_trajectory)
{
	const char *key = "ChestBoard/Led/Blue/Actuator";
	pid_t pid;
	double v;
	int st;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(DCM_DEV, O_RDWR);
		uint32_t t = dcm_time_now(fd, 0);
		struct dcm_point p[2] = {
			{ .value = 0, .time = t + 10 },
			{ .value = 800000, .time = t + 1500 },
		};

		if (fd < 0 || dcm_set_points(fd, dcm_lookup_handle(fd, key),
					     DCM_UPDATE_CLEAR_ALL, p, 2))
			_exit(1);
		pause();
		_exit(0);
	}
	sleep_ms(500);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFSIGNALED(st));
	v = sysfs_num(SUB "/%s/Value", key);
	EXPECT_GT(0.7, v) TH_LOG("mid-trajectory %g", v);
	EXPECT_EQ(0, wait_num(3000, SUB "/ChestBoard/Led/Blue/Actuator/Value", '~', 0.8, &v))
		TH_LOG("after the client's death the trajectory reads %g, not its end 0.8", v);
}

/*
 * The description replaced under the cycle (another body, then the default
 * again: loading the same one again changes nothing) while a mapping is
 * read: the old mapping becomes stable (even) at once and stays so, its
 * generation is the old one; the old handles are stale; a new mapping runs.
 * The two loads were real swaps: description_swaps counts two more.
 */
TEST(description_replaced_under_cycle)
{
	const volatile struct dcm_snapshot *old;
	struct dcm_ioc_info info;
	size_t size, size2;
	uint32_t h, gen;
	long swaps;
	double t0;
	int fd;

	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps);
	old = map_snapshot(fd, &size);
	ASSERT_NE(NULL, old);
	h = dcm_lookup_handle(fd, "HeadPitch/Position/Actuator");
	ASSERT_NE(0, h);
	gen = old->generation;
	ASSERT_EQ(0, dcm_sh("dcmd -1 -b /usr/share/dcm/variants/body-normal-arms.xml >/dev/null 2>&1"));
	ASSERT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	EXPECT_EQ(swaps + 2, dcm_swaps(DCM_SYSFS)) TH_LOG("the two loads were not both swaps");

	t0 = now_s();
	while ((__atomic_load_n(&old->seq, __ATOMIC_ACQUIRE) & 1) && now_s() - t0 < 1)
		usleep(500);
	EXPECT_EQ(0, old->seq & 1) TH_LOG("the old mapping stays odd");
	EXPECT_EQ(gen, old->generation);
	{
		uint32_t s1 = old->seq;

		sleep_ms(100);
		EXPECT_EQ(s1, old->seq) TH_LOG("the old mapping still changes");
	}
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	{
		struct dcm_point p = { .value = 0, .time = dcm_time_now(fd, 0) };

		errno = 0;
		EXPECT_EQ(-1, dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1));
		EXPECT_EQ(ESTALE, errno);
	}
	munmap((void *)old, size);
	old = map_snapshot(fd, &size2);
	ASSERT_NE(NULL, old);
	EXPECT_NE(gen, old->generation);
	{
		uint64_t c = old->cycle;

		sleep_ms(100);
		EXPECT_LT(c, old->cycle) TH_LOG("the new mapping does not advance");
	}
	EXPECT_NE(0, dcm_lookup_handle(fd, "HeadPitch/Position/Actuator"));
	munmap((void *)old, size2);
	close(fd);
}

/*
 * dcmd killed at points of its push (SIGKILL after 0 to 190 ms), then run
 * to its end: the description is whole every time. The pushes alternate
 * between two bodies (normal arms without hands, then the default), so
 * that each round changes the running description: whether the killed
 * push got to its commit or not, each round is one real swap, counted by
 * description_swaps, and ends with its body's description running.
 */
TEST(dcmd_killed_mid_push)
{
	static const char arms[] = "-b /usr/share/dcm/variants/body-normal-arms.xml";
	int ms, fd, rounds = 0;
	long swaps;

	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps);
	for (ms = 0; ms < 200; ms += 38, rounds++) {
		const char *files = rounds % 2 ? "" : arms;
		char cmd[192];

		snprintf(cmd, sizeof(cmd),
			 "(dcmd -1 %s >/dev/null 2>&1 & p=$!; usleep %d; kill -9 $p; wait $p) 2>/dev/null; true",
			 files, ms * 1000);
		ASSERT_EQ(0, dcm_sh(cmd));
		snprintf(cmd, sizeof(cmd), "dcmd -1 %s >/dev/null 2>&1", files);
		ASSERT_EQ(0, dcm_sh(cmd)) TH_LOG("after a kill at %d ms", ms);
		/* The hands are the default body's only. */
		EXPECT_EQ(rounds % 2 != 0, dcm_lookup_handle(fd, "LHand/Position/Actuator") != 0)
			TH_LOG("after a kill at %d ms: not the %s body", ms,
			       rounds % 2 ? "default" : "normal-arms");
	}
	EXPECT_EQ(swaps + rounds, dcm_swaps(DCM_SYSFS))
		TH_LOG("%d rounds were not %d real swaps", rounds, rounds);
	/* An odd count of rounds would leave the other body. */
	if (rounds % 2)
		ASSERT_EQ(0, dcm_sh("dcmd -1 >/dev/null 2>&1"));
	EXPECT_NE(0, dcm_lookup_handle(fd, "RAnkleRoll/Position/Actuator"));
	EXPECT_NE(0, dcm_lookup_handle(fd, "ChestBoard/Led/Red/Actuator"));
	close(fd);
	EXPECT_EQ(0, access(DEVL "/ChestBoard/Available", F_OK));
}

/*
 * dcm_sim (the body, and so the controller) removed while a reader is
 * blocked in read(), a mapping is read, `dcmctl events` is subscribed and a
 * file is merely open: the blocked read() ends with ENODEV, the mapping
 * stays readable and stable, the subscriber and the open file see ENODEV,
 * nothing hangs; the body comes back with its description.
 */
TEST(module_removed_under_holders)
{
	const volatile struct dcm_snapshot *snap;
	struct dcm_ioc_info info;
	pid_t reader, events;
	int fd, pipefd[2], st;
	size_t size;
	char res[32] = "";
	double t0;

	if (access(SIM, F_OK) || access("/usr/sbin/dcm-sim-reload", X_OK))
		SKIP(return, "no dcm_sim or dcm-sim-reload");
	ASSERT_EQ(0, dcm_sh("dcm-sim-reload save"));
	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	snap = map_snapshot(fd, &size);
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, pipe(pipefd));

	reader = fork();
	ASSERT_LE(0, reader);
	if (!reader) {
		size_t n = sizeof(struct dcm_frame) + 8 * DCM_MAX_SUBDEVICES;
		char *buf = malloc(n);
		int rfd = open(DCM_DEV, O_RDONLY);
		ssize_t r;

		if (!buf || rfd < 0)
			_exit(2);
		/* Read frames until the controller goes: then ENODEV. */
		do
			r = read(rfd, buf, n);
		while (r > 0);
		dprintf(pipefd[1], "%d", r < 0 ? errno : 0);
		_exit(0);
	}
	events = fork();
	ASSERT_LE(0, events);
	if (!events) {
		execlp("dcmctl", "dcmctl", "events", (char *)NULL);
		_exit(127);
	}
	sleep_ms(500);
	ASSERT_EQ(0, dcm_sh("rmmod dcm_sim"));

	/* The blocked reader wakes with ENODEV within a second. */
	{
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };

		EXPECT_EQ(1, poll(&p, 1, 10000));
		if (read(pipefd[0], res, sizeof(res) - 1) < 0)
			res[0] = '\0';
	}
	EXPECT_EQ(ENODEV, atoi(res)) TH_LOG("read() ended with '%s'", res);
	EXPECT_EQ(reader, waitpid(reader, &st, 0));

	/* The mapping: readable, even, no longer moving. */
	t0 = now_s();
	while ((snap->seq & 1) && now_s() - t0 < 0.2)
		usleep(500);
	EXPECT_EQ(0, snap->seq & 1);
	{
		uint64_t c = snap->cycle;

		sleep_ms(100);
		EXPECT_EQ(c, snap->cycle);
	}
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(ENODEV, errno);

	/* The subscriber is still alive or ended by itself: either is fine;
	 * it must not hang the removal (it did not) and ends on SIGTERM.
	 */
	kill(events, SIGTERM);
	EXPECT_EQ(events, waitpid(events, &st, 0));

	munmap((void *)snap, size);
	close(fd);
	close(pipefd[0]);
	close(pipefd[1]);
	ASSERT_EQ(0, dcm_sh("dcm-sim-reload")) TH_LOG("the body did not come back");
	/* A dcmd that left with the controller is not restarted by it. */
	ASSERT_EQ(0, dcm_sh("test -d " DEVL " || dcmd -1 >/dev/null 2>&1"));
	EXPECT_EQ(0, access(SUB "/HeadYaw/Position/Sensor/Value", F_OK));
	EXPECT_EQ(0, dcm_sh("test \"$(cat " SUB "/HeadYaw/Position/Sensor/jointZeroPosition)\" != 0"))
		TH_LOG("the calibration did not come back with the chest store");
}

DCM_HARNESS_MAIN
