// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the character-device part of libdcm. The library's ioctl()
 * calls are redirected (ld --wrap=ioctl) to a fake kernel; open() is real
 * (on /dev/null).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <cmocka.h>

#include "libdcm-private.h"

int __wrap_ioctl(int fd, unsigned long req, ...);

static struct {
	int version_errno;		/* fail DCM_IOC_VERSION with this */
	int info_errno;			/* fail DCM_IOC_INFO with this */
	struct dcm_ioc_version version;
	struct dcm_ioc_info info;
	unsigned int calls;
	unsigned long last_req;
} fake;

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	(void)fd;
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);

	fake.calls++;
	fake.last_req = req;
	switch (req) {
	case DCM_IOC_VERSION:
		if (fake.version_errno) {
			errno = fake.version_errno;
			return -1;
		}
		memcpy(arg, &fake.version, sizeof(fake.version));
		return 0;
	case DCM_IOC_INFO:
		if (fake.info_errno) {
			errno = fake.info_errno;
			return -1;
		}
		memcpy(arg, &fake.info, sizeof(fake.info));
		return 0;
	default:
		errno = ENOTTY;
		return -1;
	}
}

static int setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.version.magic = DCM_ABI_MAGIC;
	fake.version.major = DCM_ABI_MAJOR;
	fake.version.minor = DCM_ABI_MINOR;
	fake.info.abi_version = DCM_ABI_VERSION;
	fake.info.index = 2;
	strcpy(fake.info.name, "dcm2");
	strcpy(fake.info.driver, "dcm_sim");
	fake.info.period_us = 10000;
	fake.info.time_ms = 123456;
	fake.info.n_devices = 21;
	fake.info.n_subdevices = 298;
	fake.info.flags = DCM_INFO_F_SIMULATED | DCM_INFO_F_CONFIGURED |
			  DCM_INFO_F_RUNNING;
	return 0;
}

static void test_open_ok(void **state)
{
	struct dcm_version v;
	struct dcm_info info;
	struct dcm *dcm;

	(void)state;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_non_null(dcm);
	assert_int_equal(fake.last_req, DCM_IOC_VERSION);
	assert_true(dcm_fd(dcm) >= 0);
	assert_string_equal(dcm_path(dcm), "/dev/null");

	assert_int_equal(dcm_abi_version(dcm, &v), 0);
	assert_int_equal(v.magic, DCM_ABI_MAGIC);
	assert_int_equal(v.major, DCM_ABI_MAJOR);
	assert_int_equal(v.minor, DCM_ABI_MINOR);

	assert_int_equal(dcm_get_info(dcm, &info), 0);
	assert_int_equal(fake.last_req, DCM_IOC_INFO);
	assert_int_equal(info.index, 2);
	assert_string_equal(info.name, "dcm2");
	assert_string_equal(info.driver, "dcm_sim");
	assert_int_equal(info.abi_major, DCM_ABI_MAJOR);
	assert_int_equal(info.abi_minor, DCM_ABI_MINOR);
	assert_int_equal(info.period_us, 10000);
	assert_int_equal(info.time_ms, 123456);
	assert_int_equal(info.n_devices, 21);
	assert_int_equal(info.n_subdevices, 298);
	assert_int_equal(info.flags, LIBDCM_INFO_SIMULATED |
			 LIBDCM_INFO_CONFIGURED | LIBDCM_INFO_RUNNING);
	dcm_close(dcm);
	dcm_close(NULL);
}

static void test_newer_minor_ok(void **state)
{
	struct dcm_version v;
	struct dcm *dcm;

	(void)state;
	fake.version.minor = DCM_ABI_MINOR + 5;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_abi_version(dcm, &v), 0);
	assert_int_equal(v.minor, DCM_ABI_MINOR + 5);
	dcm_close(dcm);
}

static void test_bad_magic(void **state)
{
	struct dcm *dcm = (struct dcm *)1;

	(void)state;
	fake.version.magic = 0x12345678;
	assert_int_equal(dcm_open("/dev/null", &dcm), -EPROTO);
	assert_null(dcm);
	assert_non_null(strstr(dcm_last_error(), "bad ABI magic 0x12345678"));
}

static void test_bad_major(void **state)
{
	struct dcm *dcm;

	(void)state;
	fake.version.major = DCM_ABI_MAJOR + 1;
	fake.version.minor = 3;
	assert_int_equal(dcm_open("/dev/null", &dcm), -EPROTO);
	assert_null(dcm);
	assert_non_null(strstr(dcm_last_error(), "kernel ABI 2.3"));

	fake.version.major = 0;
	assert_int_equal(dcm_open("/dev/null", &dcm), -EPROTO);
}

static void test_not_dcm(void **state)
{
	struct dcm *dcm;

	(void)state;
	fake.version_errno = ENOTTY;
	assert_int_equal(dcm_open("/dev/null", &dcm), -ENOTTY);
	assert_non_null(strstr(dcm_last_error(), "not a dcm device"));

	fake.version_errno = EIO;
	assert_int_equal(dcm_open("/dev/null", &dcm), -EIO);
}

static void test_open_missing(void **state)
{
	struct dcm *dcm;

	(void)state;
	assert_int_equal(dcm_open("/nonexistent/dcm0", &dcm), -ENOENT);
	assert_null(dcm);
	assert_string_equal(dcm_last_error(),
			    "/nonexistent/dcm0: No such file or directory");
	assert_int_equal(fake.calls, 0);	/* no ioctl on failure */

	assert_int_equal(dcm_open_index(4000000000U, &dcm), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "/dev/dcm4000000000"));

	assert_int_equal(dcm_open("/dev/null", NULL), -EINVAL);
}

static void test_info_error(void **state)
{
	struct dcm_info info;
	struct dcm *dcm;

	(void)state;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	fake.info_errno = EIO;
	assert_int_equal(dcm_get_info(dcm, &info), -EIO);
	assert_non_null(strstr(dcm_last_error(), "DCM_IOC_INFO"));
	assert_int_equal(dcm_get_info(dcm, NULL), -EINVAL);
	assert_int_equal(dcm_get_info(NULL, &info), -EINVAL);
	dcm_close(dcm);
}

static void test_unterminated_names(void **state)
{
	struct dcm_info info;
	struct dcm *dcm;

	(void)state;
	/* a kernel that fills the whole array: truncated, terminated */
	memset(fake.info.name, 'n', sizeof(fake.info.name));
	memset(fake.info.driver, 'd', sizeof(fake.info.driver));
	fake.info.abi_version = (1 << 16) | 0xffff;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_get_info(dcm, &info), 0);
	assert_int_equal(strlen(info.name), LIBDCM_NAME_LEN - 1);
	assert_int_equal(strlen(info.driver), LIBDCM_NAME_LEN - 1);
	assert_int_equal(info.abi_major, 1);
	assert_int_equal(info.abi_minor, 0xffff);
	dcm_close(dcm);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(dcm_strerror(-ENOENT), "No such file or directory");
	assert_string_equal(dcm_strerror(ENOENT), "No such file or directory");
	assert_string_equal(dcm_strerror(0), "Success");
	assert_string_equal(dcm_strerror(-100000), "Unknown error");
	assert_string_equal(dcm_lib_version(), LIBDCM_VERSION);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_open_ok, setup),
		cmocka_unit_test_setup(test_newer_minor_ok, setup),
		cmocka_unit_test_setup(test_bad_magic, setup),
		cmocka_unit_test_setup(test_bad_major, setup),
		cmocka_unit_test_setup(test_not_dcm, setup),
		cmocka_unit_test_setup(test_open_missing, setup),
		cmocka_unit_test_setup(test_info_error, setup),
		cmocka_unit_test_setup(test_unterminated_names, setup),
		cmocka_unit_test_setup(test_strerror, setup),
	};

	return cmocka_run_group_tests_name("dev", tests, NULL, NULL);
}
