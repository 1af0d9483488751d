/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the dcm kselftests.
 */
#ifndef _DCM_TEST_H
#define _DCM_TEST_H

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/dcm.h>

#define DCM_DEV		"/dev/dcm0"
#define DCM_SYSFS	"/sys/class/dcm/dcm0"

/* The handle of a key by DCM_IOC_LOOKUP; 0 when it fails. */
static inline uint32_t dcm_lookup_handle(int fd, const char *name)
{
	struct dcm_ioc_lookup l;

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "%s", name);
	return ioctl(fd, DCM_IOC_LOOKUP, &l) ? 0 : l.handle;
}

/* DCM time plus @offset by DCM_IOC_TIME; 0 when it fails. */
static inline uint32_t dcm_time_now(int fd, int32_t offset)
{
	struct dcm_ioc_time t = { .offset = offset };

	return ioctl(fd, DCM_IOC_TIME, &t) ? 0 : t.time;
}

/* DCM_IOC_SET of @n points to the actuator @h. */
static inline int dcm_set_points(int fd, uint32_t h, uint32_t update,
				 const struct dcm_point *p, uint32_t n)
{
	struct dcm_ioc_set s = {
		.handle = h, .update = update, .n_points = n, .points = (uintptr_t)p,
	};

	return ioctl(fd, DCM_IOC_SET, &s);
}

/* Read a sysfs file into buf without its trailing newline; -errno on failure. */
static inline int dcm_read_sysfs(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Write s, whole, to a sysfs or debugfs file; 0 or -1. */
static inline int dcm_write_sysfs(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/*
 * dcm_swaps() - description_swaps of a controller: the descriptions made
 * running since it was created, a commit equal to the running one not
 * counted (ABI 1.6). A test that reloads reads it before and after and
 * checks the difference, so that its reloads are known to have been real
 * swaps. @sysfs: its directory, DCM_SYSFS for dcm0.
 *
 * Return: the count, or -1 if it cannot be read.
 */
static inline long dcm_swaps(const char *sysfs)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "%s/description_swaps", sysfs);
	if (dcm_read_sysfs(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/* Run a shell command; its exit status, or -1. */
static inline int dcm_sh(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

/*
 * dcm_test_scale() - how many times slower than on the stock kernel the
 * tests run: DCM_TEST_TIMEOUT_SCALE (make check-debug sets it for its debug
 * kernel), at least 1. A wait for something to happen (a deadline, not a
 * measure of the kernel's timing) multiplies by it.
 */
static inline int dcm_test_scale(void)
{
	const char *s = getenv("DCM_TEST_TIMEOUT_SCALE");
	int k = s ? atoi(s) : 1;

	return k < 1 ? 1 : k;
}

/*
 * dcm_timing_checks() - whether the bounds of timing are asserted: a period
 * kept, missed cycles, late buses, a latency or a work time under a bound.
 * Only with DCM_TIMING_CHECKS=1 on the stock kernel: make check leaves it
 * unset, since a host busy with other work breaks those bounds whatever the
 * code does. There a test asserts what happened (every cycle counted,
 * nothing lost, the value reached) and logs the figures; make bench
 * measures them (Documentation/testing.rst).
 */
static inline int dcm_timing_checks(void)
{
	const char *s = getenv("DCM_TIMING_CHECKS");

	return s && !strcmp(s, "1") && dcm_test_scale() == 1;
}

/*
 * dcm_safety_state() - dcm0's safety/ as read: "CYCLE_FAULTS FAULT_SCALE
 * BATTERY_SCALE" in @buf; whether it is whole (both factors 1: no cycle
 * fault's ramp in force, the battery rule not acting).
 */
static inline int dcm_safety_state(char *buf, size_t len)
{
	static const char *const key[] = { "cycle_faults", "fault_scale", "battery_scale" };
	char v[3][32];
	int i;

	for (i = 0; i < 3; i++) {
		char path[128];

		snprintf(path, sizeof(path), DCM_SYSFS "/safety/%s", key[i]);
		if (dcm_read_sysfs(path, v[i], sizeof(v[i])) < 0)
			strcpy(v[i], "?");
		v[i][strcspn(v[i], "\n")] = '\0';
	}
	snprintf(buf, len, "%s %s %s", v[0], v[1], v[2]);
	return !strcmp(v[1], "1.000000") && !strcmp(v[2], "1.000000");
}

/*
 * dcm_hardness_sent() - a Hardness actuator's Value (@path, sysfs) once it
 * reads @want outside a cycle fault's ramp: read between two reads of
 * safety/ that are whole and the same (no cycle fault counted between).
 * The Value is the hardness sent, the one asked times the safety factors:
 * a host that stalls the guest past 500 ms makes a cycle fault, which cuts
 * it and brings it back over 2 s whatever the test asked. Polls for 10 s
 * times the slowdown, then returns the last value read in such a window
 * (or the last one read): the caller asserts on it.
 */
static inline double dcm_hardness_sent(const char *path, double want)
{
	int n = 1000 * dcm_test_scale();
	char s0[96], s1[96], buf[64];
	double v = NAN, clean = NAN;

	while (n-- > 0) {
		int whole = dcm_safety_state(s0, sizeof(s0));

		v = dcm_read_sysfs(path, buf, sizeof(buf)) < 0 ? NAN : strtod(buf, NULL);
		if (whole && dcm_safety_state(s1, sizeof(s1)) && !strcmp(s0, s1)) {
			clean = v;
			if (v == want)
				return v;
		}
		usleep(10000);
	}
	return isnan(clean) ? v : clean;
}

/* dcm0's stats/cycles: the cycles it has run; -1 if it cannot be read. */
static inline long long dcm_cycles(void)
{
	char buf[32];

	if (dcm_read_sysfs(DCM_SYSFS "/stats/cycles", buf, sizeof(buf)))
		return -1;
	return strtoll(buf, NULL, 10);
}

/*
 * dcm_hardness_taken() - a Hardness actuator's Value (@path, sysfs) once the
 * cycle has taken what was commanded before the call (a Value written, a
 * calibration answered): read when two more cycles have ended (stats/cycles:
 * the one running at the call may have read its queue before the command),
 * between two reads of safety/ that are whole and the same, so that a cycle
 * fault's cut never passes for a rule that holds the joint at 0. Returns as
 * soon as it has such a read; polls for 10 s times the slowdown, then
 * returns NAN: the caller asserts on the value.
 */
static inline double dcm_hardness_taken(const char *path)
{
	long long end = dcm_cycles() + 2;
	int n = 2000 * dcm_test_scale();
	char s0[96], s1[96], buf[64];

	while (end > 1 && n-- > 0) {
		if (dcm_cycles() >= end && dcm_safety_state(s0, sizeof(s0)) &&
		    !dcm_read_sysfs(path, buf, sizeof(buf)) &&
		    dcm_safety_state(s1, sizeof(s1)) && !strcmp(s0, s1))
			return strtod(buf, NULL);
		usleep(5000);
	}
	return NAN;
}

/*
 * DCM_TIMING_EXPECT() - a bound of timing: EXPECT_TRUE(@cond) when
 * dcm_timing_checks(), else only logged (with its figures, @fmt) when it
 * does not hold. Needs kselftest_harness.h, as a test's body does.
 */
#define DCM_TIMING_EXPECT(cond, fmt, ...)					\
	do {									\
		int _dcm_ok = !!(cond);						\
										\
		if (dcm_timing_checks()) {					\
			EXPECT_TRUE(_dcm_ok) TH_LOG("timing: " fmt, ##__VA_ARGS__); \
		} else if (!_dcm_ok) {						\
			TH_LOG("timing, not asserted (make bench measures it): " \
			       fmt, ##__VA_ARGS__);				\
		}								\
	} while (0)

/*
 * DCM_HARNESS_MAIN: the kselftest harness's main (TEST_HARNESS_MAIN, so
 * kselftest_harness.h comes first), with each test's timeout as the
 * environment asks: DCM_TEST_TIMEOUT_SCALE=N multiplies it (a slower
 * kernel: make check-debug), DCM_TEST_TIMEOUT_MIN=S raises it to at least
 * S seconds (a long run: make soak). Without them the harness's own.
 */
#define DCM_HARNESS_MAIN							\
	static void dcm_test_timeouts(void)					\
	{									\
		const char *min = getenv("DCM_TEST_TIMEOUT_MIN");		\
		int k = dcm_test_scale(), m = min ? atoi(min) : 0;		\
		struct __fixture_metadata *f;					\
		struct __test_metadata *t;					\
										\
		for (f = __fixture_list; f; f = f->next)			\
			for (t = f->tests; t; t = t->next) {			\
				t->timeout *= k;				\
				if (t->timeout < m)				\
					t->timeout = m;				\
			}							\
	}									\
	int main(int argc, char **argv)						\
	{									\
		dcm_test_timeouts();						\
		return test_harness_run(argc, argv);				\
	}

#endif /* _DCM_TEST_H */
