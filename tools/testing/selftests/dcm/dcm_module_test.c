// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and unloading: a controller that goes away under an open file,
 * module parameters, and module references. Each test leaves the stack as
 * it found it: dcm and dcm_sim loaded with default parameters.
 */
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>

#include "dcm_test.h"
#include "kselftest_harness.h"

static void restore_stack(void)
{
	dcm_sh("rmmod dcm_sim 2>/dev/null; rmmod dcm 2>/dev/null; modprobe dcm_sim");
}

static int reload(const char *dcm_params)
{
	char cmd[256];

	if (dcm_sh("rmmod dcm_sim && rmmod dcm"))
		return -1;
	snprintf(cmd, sizeof(cmd), "modprobe dcm %s && modprobe dcm_sim", dcm_params);
	return dcm_sh(cmd);
}

TEST(unload_under_open_file)
{
	struct dcm_ioc_info info;
	struct stat st;
	int fd;

	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, dcm_sh("rmmod dcm_sim"));

	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(ENODEV, errno);
	EXPECT_NE(0, stat(DCM_SYSFS, &st));
	EXPECT_EQ(0, close(fd));

	ASSERT_EQ(0, dcm_sh("modprobe dcm_sim"));
	fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	EXPECT_STREQ("dcm0", info.name);
	close(fd);
}

TEST(core_is_held_by_body)
{
	EXPECT_NE(0, dcm_sh("rmmod dcm 2>/dev/null"));
	EXPECT_EQ(0, access(DCM_DEV, F_OK));
}

TEST(bad_period_is_refused)
{
	EXPECT_NE(0, reload("period_us=5 2>/dev/null"));
	EXPECT_NE(0, dcm_sh("grep -q '^dcm ' /proc/modules"));
	restore_stack();
	EXPECT_EQ(0, access(DCM_DEV, F_OK));
}

TEST(period_12ms)
{
	struct dcm_ioc_info info;
	int fd;

	ASSERT_EQ(0, reload("period_us=12000"));
	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(12000, info.period_us);
	close(fd);
	restore_stack();
}

/*
 * DCM time is 32 bits and wraps: started 3 s before the wrap, it reads high
 * values, then low ones, and the signed difference of two reads never goes
 * backwards.
 */
TEST(time_wraps)
{
	struct timespec req = { .tv_nsec = 20 * 1000 * 1000 };
	struct dcm_ioc_info first, prev, cur;
	int fd, i;

	ASSERT_EQ(0, reload("time_origin_ms=4294964296"));
	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &first));
	prev = first;
	for (i = 0; i < 500; i++) {
		nanosleep(&req, NULL);
		ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &cur));
		EXPECT_LE(0, (int32_t)(cur.time_ms - prev.time_ms));
		prev = cur;
		if (cur.time_ms < 1000)
			break;
	}
	close(fd);
	restore_stack();

	EXPECT_LT(4294960000u, first.time_ms) TH_LOG("first=%u", first.time_ms);
	EXPECT_GT(1000u, cur.time_ms) TH_LOG("last=%u", cur.time_ms);
	EXPECT_LT(2000, (int32_t)(cur.time_ms - first.time_ms));
}

DCM_HARNESS_MAIN
