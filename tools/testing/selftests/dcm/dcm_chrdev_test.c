// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/dcm0: open, the version and info ioctls, bad ioctl input, and the
 * controller attributes in sysfs that must agree with the ioctls.
 */
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "dcm_test.h"
#include "kselftest_harness.h"

FIXTURE(dcm) {
	int fd;
};

FIXTURE_SETUP(dcm)
{
	self->fd = open(DCM_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd) TH_LOG("open %s: %s", DCM_DEV, strerror(errno));
}

FIXTURE_TEARDOWN(dcm)
{
	close(self->fd);
}

TEST_F(dcm, version)
{
	struct dcm_ioc_version ver;

	memset(&ver, 0xa5, sizeof(ver));
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_VERSION, &ver));
	EXPECT_EQ(DCM_ABI_MAGIC, ver.magic);
	EXPECT_EQ(DCM_ABI_MAJOR, ver.major);
	EXPECT_EQ(DCM_ABI_MINOR, ver.minor);
}

TEST_F(dcm, info)
{
	struct dcm_ioc_info info;
	unsigned int i;

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(DCM_ABI_VERSION, info.abi_version);
	EXPECT_EQ(0, info.index);
	EXPECT_STREQ("dcm0", info.name);
	EXPECT_STREQ("dcm-sim-body", info.driver);
	EXPECT_EQ(10000, info.period_us);
	EXPECT_EQ(DCM_INFO_F_SIMULATED, info.flags & DCM_INFO_F_SIMULATED);
	for (i = 0; i < sizeof(info.reserved) / sizeof(info.reserved[0]); i++)
		EXPECT_EQ(0, info.reserved[i]);
}

/* DCM time is in ms on the monotonic clock. */
TEST_F(dcm, time_advances)
{
	struct timespec req = { .tv_nsec = 200 * 1000 * 1000 }, t0, t1;
	struct dcm_ioc_info a, b;
	int32_t dcm_ms;
	long mono_ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &a));
	nanosleep(&req, NULL);
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &b));
	clock_gettime(CLOCK_MONOTONIC, &t1);

	dcm_ms = (int32_t)(b.time_ms - a.time_ms);
	mono_ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	EXPECT_LE(199, dcm_ms);
	EXPECT_GE(mono_ms + 1, dcm_ms);
}

TEST_F(dcm, unknown_ioctls)
{
	struct dcm_ioc_info big[2];
	unsigned long cmds[] = {
		0,
		_IO(DCM_IOC_MAGIC, 0x7f),
		_IOR(DCM_IOC_MAGIC, 0xff, struct dcm_ioc_info),
		/* right number, wrong size or direction */
		_IOR(DCM_IOC_MAGIC, 0x01, struct dcm_ioc_version),
		_IOW(DCM_IOC_MAGIC, 0x01, struct dcm_ioc_info),
		_IOWR(DCM_IOC_MAGIC, 0x00, struct dcm_ioc_version),
		/* another driver's magic */
		_IOR('T', 0x01, struct dcm_ioc_info),
	};
	unsigned int i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], big)) TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
}

TEST_F(dcm, bad_pointers)
{
	void *ro;

	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_INFO, NULL));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_VERSION, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_INFO, (void *)-4096L));
	EXPECT_EQ(EFAULT, errno);

	/* A read-only page cannot take the answer. */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_INFO, ro));
	EXPECT_EQ(EFAULT, errno);
	munmap(ro, 4096);
}

/* The device node is a character device with the dev_t sysfs announces. */
TEST(device_node)
{
	unsigned int maj, min;
	char buf[64];
	struct stat st;

	ASSERT_EQ(0, stat(DCM_DEV, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/dev", buf, sizeof(buf)));
	ASSERT_EQ(2, sscanf(buf, "%u:%u", &maj, &min));
	EXPECT_EQ(maj, major(st.st_rdev));
	EXPECT_EQ(min, minor(st.st_rdev));
}

/* Several opens of the same controller work side by side. */
TEST(many_opens)
{
	struct dcm_ioc_info info;
	int fds[32], i;

	for (i = 0; i < 32; i++) {
		fds[i] = open(DCM_DEV, i % 2 ? O_RDONLY : O_RDWR);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < 32; i++) {
		EXPECT_EQ(0, ioctl(fds[i], DCM_IOC_INFO, &info));
		close(fds[i]);
	}
}

TEST(sysfs_matches_ioctl)
{
	struct dcm_ioc_info info;
	struct dcm_ioc_read_mode mode = { 0 };
	char buf[64], want[64];
	int fd;

	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_INFO, &info));
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_READ_MODE, &mode));
	close(fd);

	/* The running description's generation, as the ioctl says; swapped once at least. */
	ASSERT_NE(0, mode.generation);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/generation", buf, sizeof(buf)));
	EXPECT_EQ(mode.generation, strtoul(buf, NULL, 10));
	EXPECT_LE(1, dcm_swaps(DCM_SYSFS));
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/body", buf, sizeof(buf)));
	EXPECT_STREQ(info.driver, buf);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/period_us", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u", info.period_us);
	EXPECT_STREQ(want, buf);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/abi_version", buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%u.%u", DCM_ABI_MAJOR, DCM_ABI_MINOR);
	EXPECT_STREQ(want, buf);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/time_ms", buf, sizeof(buf)));
	EXPECT_GE(2000, (int32_t)(strtoul(buf, NULL, 10) - info.time_ms));
}

/* Controller attributes are read-only, even to root, but the period. */
TEST(sysfs_read_only)
{
	static const char * const attrs[] = { "body", "abi_version", "time_ms", "generation",
					      "description_swaps" };
	char path[128];
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), DCM_SYSFS "/%s", attrs[i]);
		fd = open(path, O_WRONLY);
		EXPECT_EQ(-1, fd) TH_LOG("%s opened for writing", path);
		if (fd >= 0)
			close(fd);
	}
}

DCM_HARNESS_MAIN
