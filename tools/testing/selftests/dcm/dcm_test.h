/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the dcm kselftests.
 */
#ifndef _DCM_TEST_H
#define _DCM_TEST_H

#include <errno.h>
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
