// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: libdcm's watchdog (arm, kick, disarm) against the fake
 * kernel of fake_dcm.c: what reaches the kernel, what the library refuses
 * before it, and the messages of the kernel's refusals.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fake_dcm.h"
#include "libdcm-private.h"

static struct dcm *dcm;

static int setup(void **state)
{
	(void)state;
	fake_reset();
	return dcm_open("/dev/null", &dcm);
}

static int teardown(void **state)
{
	(void)state;
	dcm_close(dcm);
	dcm = NULL;
	return 0;
}

#define CALLS fake.calls[FAKE_NR(DCM_IOC_WATCHDOG)]

static void test_arm(void **state)
{
	(void)state;
	assert_int_equal(dcm_watchdog_arm(dcm, 200, LIBDCM_WATCHDOG_HOLD, 0), 0);
	assert_int_equal(fake.wd.timeout_ms, 200);
	assert_int_equal(fake.wd.action, DCM_WATCHDOG_HOLD);
	assert_int_equal(fake.wd.ramp_ms, 0);
	assert_int_equal(fake.wd.flags, 0);
	assert_int_equal(fake.wd_state, FAKE_WD_ARMED);

	assert_int_equal(dcm_watchdog_arm(dcm, LIBDCM_WATCHDOG_MAX_MS, LIBDCM_WATCHDOG_RAMP,
					  LIBDCM_WATCHDOG_RAMP_MAX_MS), 0);
	assert_int_equal(fake.wd.timeout_ms, 60000);
	assert_int_equal(fake.wd.action, DCM_WATCHDOG_RAMP);
	assert_int_equal(fake.wd.ramp_ms, 60000);
	assert_int_equal(dcm_watchdog_arm(dcm, LIBDCM_WATCHDOG_MIN_MS, LIBDCM_WATCHDOG_RAMP, 0),
			 0);
	assert_int_equal(CALLS, 3);
}

static void test_kick_and_disarm(void **state)
{
	(void)state;
	assert_int_equal(dcm_watchdog_kick(dcm), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no watchdog is armed"));
	assert_int_equal(dcm_watchdog_arm(dcm, 500, LIBDCM_WATCHDOG_HOLD, 0), 0);
	assert_int_equal(dcm_watchdog_kick(dcm), 0);
	assert_int_equal(fake.wd.flags, DCM_WATCHDOG_F_KICK);
	assert_int_equal(fake.wd.timeout_ms, 0);
	assert_int_equal(dcm_watchdog_disarm(dcm), 0);
	assert_int_equal(fake.wd.flags, 0);
	assert_int_equal(fake.wd.timeout_ms, 0);
	assert_int_equal(fake.wd_state, FAKE_WD_OFF);
	assert_int_equal(dcm_watchdog_kick(dcm), -ENOENT);
}

/* Fired: kicks and commands fail with ETIMEDOUT until armed or disarmed. */
static void test_fired(void **state)
{
	struct dcm_timed_point p = { .value = 0.1, .time = 1000 };

	(void)state;
	assert_int_equal(dcm_watchdog_arm(dcm, 100, LIBDCM_WATCHDOG_RAMP, 1000), 0);
	fake.wd_state = FAKE_WD_FIRED;
	assert_int_equal(dcm_watchdog_kick(dcm), -ETIMEDOUT);
	assert_non_null(strstr(dcm_last_error(), "the watchdog fired"));
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -ETIMEDOUT);
	assert_non_null(strstr(dcm_last_error(), "watchdog fired"));
	assert_int_equal(dcm_watchdog_disarm(dcm), 0);
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), 0);
}

/* What the library refuses itself: nothing reaches the kernel. */
static void test_bad_arguments(void **state)
{
	(void)state;
	assert_int_equal(dcm_watchdog_arm(dcm, 19, LIBDCM_WATCHDOG_HOLD, 0), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "timeout 19 ms"));
	assert_int_equal(dcm_watchdog_arm(dcm, 60001, LIBDCM_WATCHDOG_HOLD, 0), -EINVAL);
	assert_int_equal(dcm_watchdog_arm(dcm, 0, LIBDCM_WATCHDOG_HOLD, 0), -EINVAL);
	assert_int_equal(dcm_watchdog_arm(dcm, 100, (enum dcm_safe_action)2, 0), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "unknown action 2"));
	assert_int_equal(dcm_watchdog_arm(dcm, 100, LIBDCM_WATCHDOG_HOLD, 10), -EINVAL);
	assert_int_equal(dcm_watchdog_arm(dcm, 100, LIBDCM_WATCHDOG_RAMP, 60001), -EINVAL);
	assert_int_equal(dcm_watchdog_arm(NULL, 100, LIBDCM_WATCHDOG_HOLD, 0), -EINVAL);
	assert_int_equal(dcm_watchdog_kick(NULL), -EINVAL);
	assert_int_equal(dcm_watchdog_disarm(NULL), -EINVAL);
	assert_int_equal(CALLS, 0);
}

/* A read-only handle, a kernel before ABI 1.1: refused without a call. */
static void test_refused(void **state)
{
	(void)state;
	dcm->read_only = true;
	assert_int_equal(dcm_watchdog_arm(dcm, 100, LIBDCM_WATCHDOG_HOLD, 0), -EBADF);
	assert_non_null(strstr(dcm_last_error(), "read-only"));
	assert_int_equal(dcm_watchdog_kick(dcm), -EBADF);
	dcm->read_only = false;
	assert_int_equal(CALLS, 0);

	dcm_close(dcm);
	fake.abi_minor = 0;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_watchdog_arm(dcm, 100, LIBDCM_WATCHDOG_HOLD, 0), -EOPNOTSUPP);
	assert_non_null(strstr(dcm_last_error(), "ABI 1.0 has no watchdog"));
	assert_int_equal(CALLS, 0);

	/* The kernel's own refusal is passed on with its reason. */
	fake.abi_minor = DCM_ABI_MINOR;
	dcm->version.minor = DCM_ABI_MINOR;
	fake.fail_errno[FAKE_NR(DCM_IOC_WATCHDOG)] = EBADF;
	assert_int_equal(dcm_watchdog_disarm(dcm), -EBADF);
	assert_non_null(strstr(dcm_last_error(), "not open for writing"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_arm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kick_and_disarm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fired, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
