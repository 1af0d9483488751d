// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: libdcm's float API over the ioctls and read() (lookup, set,
 * aliases, time, get, frames, stats) against the fake kernel of
 * fake_dcm.c: what reaches the kernel, in micro-units, and what comes back.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

#define CALLS(req) fake.calls[FAKE_NR(req)]

static void test_lookup(void **state)
{
	struct dcm_key k;
	char long_name[200];

	(void)state;
	assert_int_equal(dcm_lookup(dcm, "HeadYaw/Position/Actuator", &k), 0);
	assert_int_equal(k.handle, fake_handle(0));
	assert_int_equal(k.flags, LIBDCM_KEY_ACTUATOR);
	assert_int_equal(LIBDCM_HANDLE_GEN(k.handle), FAKE_GEN);
	assert_int_equal(LIBDCM_HANDLE_INDEX(k.handle), 0);

	assert_int_equal(dcm_lookup(dcm, "Device/SubDeviceList/HeadYaw/Position/Sensor/Value",
				    &k), 0);
	assert_int_equal(k.handle, fake_handle(1));
	assert_int_equal(k.flags, 0);
	assert_int_equal(dcm_lookup(dcm, "US/Actuator", &k), 0);
	assert_int_equal(k.flags, LIBDCM_KEY_ACTUATOR | LIBDCM_KEY_STEP);

	assert_int_equal(dcm_lookup(dcm, "Nope/Position/Actuator", &k), -ENOENT);
	assert_string_equal(dcm_last_error(), "Nope/Position/Actuator: no such key");
	assert_int_equal(dcm_lookup(dcm, "", &k), -EINVAL);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	long_name[LIBDCM_KEY_NAME_LEN] = '\0';	/* 128 bytes: one too many */
	CALLS(DCM_IOC_LOOKUP) = 0;
	assert_int_equal(dcm_lookup(dcm, long_name, &k), -ENAMETOOLONG);
	long_name[LIBDCM_KEY_NAME_LEN - 1] = '\0';	/* 127: fits, unknown */
	assert_int_equal(dcm_lookup(dcm, long_name, &k), -ENOENT);
	assert_int_equal(CALLS(DCM_IOC_LOOKUP), 1);
	assert_int_equal(dcm_lookup(NULL, "x", &k), -EINVAL);
	assert_int_equal(dcm_lookup(dcm, NULL, &k), -EINVAL);
	assert_int_equal(dcm_lookup(dcm, "x", NULL), -EINVAL);

	fake.fail_errno[FAKE_NR(DCM_IOC_LOOKUP)] = ENODEV;
	assert_int_equal(dcm_lookup(dcm, "HeadYaw/Position/Actuator", &k), -ENODEV);
	assert_non_null(strstr(dcm_last_error(), "/dev/null: DCM_IOC_LOOKUP: No such device"));
}

static void test_set_converts(void **state)
{
	struct dcm_timed_point p[3] = {
		{ .value = 0.3, .time = 1300, .importance = 2 },
		{ .value = -1.0000005, .time = 1100, .importance = 0 },
		{ .value = 2.5e-7, .time = 4000000000U, .importance = 7 },
	};

	(void)state;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_MERGE, p, 3), 0);
	assert_int_equal(fake.set.handle, fake_handle(0));
	assert_int_equal(fake.set.update, DCM_UPDATE_MERGE);
	assert_int_equal(fake.set.n_points, 3);
	assert_int_equal(fake.set_points[0].value, 300000);
	assert_int_equal(fake.set_points[0].time, 1300);
	assert_int_equal(fake.set_points[0].importance, 2);
	/* -1.0000005 as a double is a hair above: -1000000 or -1000001, exact */
	assert_int_equal(fake.set_points[1].value, dcm_double_to_fixed(-1.0000005));
	assert_int_equal(fake.set_points[2].value, 0);
	assert_int_equal(fake.set_points[2].time, 4000000000U);
	assert_int_equal(fake.set_points[2].importance, 7);

	/* zero points: clear-all drops the queue */
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, NULL, 0), 0);
	assert_int_equal(fake.set.n_points, 0);
	assert_int_equal(fake.set.update, DCM_UPDATE_CLEAR_ALL);
}

static void test_set_many_points(void **state)
{
	struct dcm_timed_point *p = calloc(LIBDCM_MAX_POINTS + 1, sizeof(*p));

	(void)state;
	assert_non_null(p);
	for (int i = 0; i <= LIBDCM_MAX_POINTS; i++) {
		p[i].value = i / 1000.0;
		p[i].time = 2000 + (uint32_t)i * 10;
	}
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_BEFORE, p,
				 LIBDCM_MAX_POINTS), 0);
	assert_int_equal(fake.set.n_points, LIBDCM_MAX_POINTS);
	assert_int_equal(fake.set_points[511].value, 511000);
	assert_int_equal(fake.set_points[511].time, 2000 + 5110);
	CALLS(DCM_IOC_SET) = 0;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_MERGE, p, LIBDCM_MAX_POINTS + 1),
			 -EINVAL);
	assert_int_equal(CALLS(DCM_IOC_SET), 0);
	free(p);
}

static void test_set_rejects(void **state)
{
	struct dcm_timed_point p = { .value = 0.5, .time = 1000 };

	(void)state;
	CALLS(DCM_IOC_SET) = 0;
	p.value = NAN;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "NaN"));
	p.value = INFINITY;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "infinite"));
	p.value = -INFINITY;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	p.value = 1e300;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -ERANGE);
	p.value = 0.5;
	p.importance = 8;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	p.importance = 0;
	assert_int_equal(dcm_set(dcm, fake_handle(0), (enum dcm_update_kind)4, &p, 1), -EINVAL);
	assert_int_equal(dcm_set(dcm, fake_handle(0), (enum dcm_update_kind)-1, &p, 1), -EINVAL);
	assert_int_equal(dcm_set(dcm, 0, LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_CLEAR_ALL, NULL, 1), -EINVAL);
	assert_int_equal(dcm_set(NULL, fake_handle(0), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	/* nothing of the above reached the kernel */
	assert_int_equal(CALLS(DCM_IOC_SET), 0);

	/* the kernel's refusals, explained */
	assert_int_equal(dcm_set(dcm, fake_handle(1), LIBDCM_CLEAR_ALL, &p, 1), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "DCM_IOC_SET (clear-all, 1 point): Invalid argument (not an actuator"));
	assert_int_equal(dcm_set(dcm, (2U << 16) | 0, LIBDCM_CLEAR_ALL, &p, 1), -ESTALE);
	assert_non_null(strstr(dcm_last_error(), "look the key up again"));
	fake.fail_errno[FAKE_NR(DCM_IOC_SET)] = ENOSPC;
	assert_int_equal(dcm_set(dcm, fake_handle(0), LIBDCM_MERGE, &p, 1), -ENOSPC);
	assert_non_null(strstr(dcm_last_error(), "512 commands"));
}

static void test_set_now(void **state)
{
	(void)state;
	fake.now = 0xfffffff0U;
	assert_int_equal(dcm_set_now(dcm, fake_handle(4), LIBDCM_CLEAR_ALL, 0.25, 300), 0);
	assert_int_equal(fake.set.n_points, 1);
	assert_int_equal(fake.set_points[0].value, 250000);
	assert_int_equal(fake.set_points[0].time, 0xfffffff0U + 300);	/* wraps */
	assert_int_equal(fake.set_points[0].importance, 0);
	assert_int_equal(dcm_set_now(dcm, fake_handle(4), LIBDCM_CLEAR_ALL, NAN, 0), -EINVAL);
	fake.fail_errno[FAKE_NR(DCM_IOC_TIME)] = EIO;
	assert_int_equal(dcm_set_now(dcm, fake_handle(4), LIBDCM_CLEAR_ALL, 0.25, 0), -EIO);
	assert_non_null(strstr(dcm_last_error(), "DCM_IOC_TIME"));
}

static void test_time(void **state)
{
	uint32_t t;

	(void)state;
	assert_int_equal(dcm_time(dcm, 0, &t), 0);
	assert_int_equal(t, 1000);
	assert_int_equal(dcm_time(dcm, -1001, &t), 0);
	assert_int_equal(t, UINT32_MAX);
	assert_int_equal(dcm_time(dcm, 0, NULL), -EINVAL);
}

static void test_alias_create(void **state)
{
	const char *members[] = {
		"HeadYaw/Position/Actuator", "Nope/Position/Actuator",
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Value",
		"HeadYaw/Position/Sensor",
	};
	uint32_t h[4];
	char long_name[LIBDCM_KEY_NAME_LEN + 1];

	(void)state;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 4, h), 2);
	assert_int_equal(h[0], fake_handle(0));
	assert_int_equal(h[1], 0);	/* unknown: blank */
	assert_int_equal(h[2], fake_handle(4));
	assert_int_equal(h[3], 0);	/* a sensor: blank */
	assert_string_equal(fake.create.name, "head");
	assert_int_equal(fake.create.n_members, 4);
	assert_string_equal(fake.create_names[2], members[2]);
	assert_int_equal(dcm_alias_create(dcm, "head", members, 1, NULL), 1);

	CALLS(DCM_IOC_ALIAS_CREATE) = 0;
	assert_int_equal(dcm_alias_create(dcm, "", members, 1, h), -EINVAL);
	assert_int_equal(dcm_alias_create(dcm, "head", members, 0, h), -EINVAL);
	assert_int_equal(dcm_alias_create(dcm, "head", members, 257, h), -EINVAL);
	assert_int_equal(dcm_alias_create(dcm,
		"a-name-of-sixty-four-bytes-is-one-too-many-for-the-kernel-012345", members, 1, h),
		-ENAMETOOLONG);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_int_equal(CALLS(DCM_IOC_ALIAS_CREATE), 0);
	/* A member name too long for a key is a blank member, not an error. */
	members[1] = long_name;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 3, h), 2);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_CREATE), 1);
	assert_int_equal(fake.create.n_members, 3);
	assert_string_equal(fake.create_names[1], "");
	assert_int_equal(h[0], fake_handle(0));
	assert_int_equal(h[1], 0);
	assert_int_equal(h[2], fake_handle(4));
	long_name[LIBDCM_KEY_NAME_LEN - 1] = '\0';	/* 127 bytes: sent as it is */
	assert_int_equal(dcm_alias_create(dcm, "head", members, 2, h), 1);
	assert_int_equal(strlen(fake.create_names[1]), LIBDCM_KEY_NAME_LEN - 1);
	members[1] = NULL;
	CALLS(DCM_IOC_ALIAS_CREATE) = 0;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 2, h), -EINVAL);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_CREATE), 0);

	fake.fail_errno[FAKE_NR(DCM_IOC_ALIAS_CREATE)] = ENOSPC;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 1, h), -ENOSPC);
	assert_non_null(strstr(dcm_last_error(), "64 aliases"));
}

static void test_alias_separate(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator", "Nope", "HeadPitch/Position/Actuator" };
	uint32_t times[2] = { 1100, 1200 };
	double values[6] = { 0.1, 0.2, 0, 0, -0.1, -0.2 };

	(void)state;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 3, NULL), 2);
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_CLEAR_AFTER, times, 2,
						values, 3, 5), 0);
	assert_int_equal(fake.aset.mode, DCM_ALIAS_TIME_SEPARATE);
	assert_int_equal(fake.aset.update, DCM_UPDATE_CLEAR_AFTER);
	assert_int_equal(fake.aset.n_members, 3);
	assert_int_equal(fake.aset.n_times, 2);
	assert_int_equal(fake.aset.importance, 5);
	assert_int_equal(fake.aset_times[1], 1200);
	assert_int_equal(fake.aset_values[0], 100000);
	assert_int_equal(fake.aset_values[1], 200000);
	assert_int_equal(fake.aset_values[4], -100000);
	assert_int_equal(fake.aset_values[5], -200000);

	CALLS(DCM_IOC_ALIAS_SET) = 0;
	values[3] = NAN;
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_MERGE, times, 2, values,
						3, 0), -EINVAL);
	values[3] = 0;
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_MERGE, times, 0, values,
						3, 0), -EINVAL);
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_MERGE, times, 2, values,
						3, 8), -EINVAL);
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_MERGE, times, 2, values,
						0, 0), -EINVAL);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_SET), 0);
	/* the kernel: another member count, no such alias */
	assert_int_equal(dcm_alias_set_separate(dcm, "head", LIBDCM_MERGE, times, 2, values,
						2, 0), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "blank members included"));
	assert_int_equal(dcm_alias_set_separate(dcm, "legs", LIBDCM_MERGE, times, 2, values,
						3, 0), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no such alias"));
}

/* NAOqi's set on an alias name: one list of points for every member. */
static void test_alias_set_all(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator", "Nope", "HeadPitch/Position/Actuator" };
	struct dcm_timed_point p[2] = { { 0.1, 1500, 1 }, { -0.25, 1250, 7 } };
	static struct dcm_timed_point many[LIBDCM_MAX_POINTS + 1];

	(void)state;
	assert_int_equal(dcm_alias_create(dcm, "a1", members, 3, NULL), 2);
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, p, 2), 0);
	assert_int_equal(fake.aset.mode, DCM_ALIAS_SAME);
	assert_int_equal(fake.aset.update, DCM_UPDATE_MERGE);
	assert_int_equal(fake.aset.n_members, 0);	/* the alias's count */
	assert_int_equal(fake.aset.n_times, 2);
	assert_string_equal(fake.aset.name, "a1");
	assert_int_equal(fake.aset_points[0].value, 100000);
	assert_int_equal(fake.aset_points[0].time, 1500);
	assert_int_equal(fake.aset_points[0].importance, 1);
	assert_int_equal(fake.aset_points[1].value, -250000);
	assert_int_equal(fake.aset_points[1].importance, 7);
	/* no points with ClearAll: every member's queue dropped */
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_CLEAR_ALL, NULL, 0), 0);
	assert_int_equal(fake.aset.n_times, 0);

	CALLS(DCM_IOC_ALIAS_SET) = 0;
	p[1].value = NAN;
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, p, 2), -EINVAL);
	p[1].value = 0;
	p[1].importance = 8;
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, p, 2), -EINVAL);
	p[1].importance = 0;
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, NULL, 1), -EINVAL);
	assert_int_equal(dcm_alias_set_all(dcm, "a1", 9, p, 1), -EINVAL);
	assert_int_equal(dcm_alias_set_all(dcm, "", LIBDCM_MERGE, p, 1), -EINVAL);
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, many,
					   LIBDCM_MAX_POINTS + 1), -EINVAL);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_SET), 0);
	assert_int_equal(dcm_alias_set_all(dcm, "legs", LIBDCM_MERGE, p, 1), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no such alias"));
	fake.fail_errno[FAKE_NR(DCM_IOC_ALIAS_SET)] = ENOSPC;
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, p, 1), -ENOSPC);
	assert_non_null(strstr(dcm_last_error(), "512 commands"));

	/* A kernel of ABI 1.2 has no such set: said, and no system call. */
	dcm_close(dcm);
	fake.abi_minor = 2;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	CALLS(DCM_IOC_ALIAS_SET) = 0;
	assert_int_equal(dcm_alias_set_all(dcm, "a1", LIBDCM_MERGE, p, 1), -EOPNOTSUPP);
	assert_non_null(strstr(dcm_last_error(), "ABI 1.2"));
	assert_int_equal(CALLS(DCM_IOC_ALIAS_SET), 0);
	fake.abi_minor = DCM_ABI_MINOR;
}

/* NAOqi's strings for update kinds and alias modes, both ways. */
static void test_naoqi_strings(void **state)
{
	static const char *const kinds[] = { "ClearAll", "Merge", "ClearAfter", "ClearBefore" };
	enum dcm_update_kind k = LIBDCM_MERGE;
	enum dcm_alias_time_mode m = LIBDCM_TIME_MIXED;
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		assert_int_equal(dcm_kind_from_string(kinds[i], &k), 0);
		assert_int_equal(k, i);
		assert_string_equal(dcm_kind_to_string(k), kinds[i]);
	}
	assert_int_equal(LIBDCM_CLEAR_AFTER, DCM_UPDATE_CLEAR_AFTER);
	assert_int_equal(dcm_kind_from_string("clear-before", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_BEFORE);
	assert_int_equal(dcm_kind_from_string("CLEAR_ALL", &k), 0);
	assert_int_equal(k, LIBDCM_CLEAR_ALL);
	assert_int_equal(dcm_kind_from_string("merge", &k), 0);
	assert_int_equal(k, LIBDCM_MERGE);
	k = LIBDCM_CLEAR_AFTER;
	assert_int_equal(dcm_kind_from_string("Clear", &k), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "'Clear'"));
	assert_int_equal(dcm_kind_from_string("ClearAllx", &k), -EINVAL);
	assert_int_equal(dcm_kind_from_string("", &k), -EINVAL);
	assert_int_equal(dcm_kind_from_string("--", &k), -EINVAL);
	assert_int_equal(dcm_kind_from_string(NULL, &k), -EINVAL);
	assert_int_equal(dcm_kind_from_string("Merge", NULL), -EINVAL);
	assert_int_equal(k, LIBDCM_CLEAR_AFTER);	/* untouched by failures */
	assert_null(dcm_kind_to_string((enum dcm_update_kind)4));
	assert_null(dcm_kind_to_string((enum dcm_update_kind)-1));

	assert_int_equal(dcm_alias_mode_from_string("time-separate", &m), 0);
	assert_int_equal(m, LIBDCM_TIME_SEPARATE);
	assert_int_equal(m, DCM_ALIAS_TIME_SEPARATE);
	assert_string_equal(dcm_alias_mode_to_string(m), "time-separate");
	assert_int_equal(dcm_alias_mode_from_string("time-mixed", &m), 0);
	assert_int_equal(m, LIBDCM_TIME_MIXED);
	assert_int_equal(m, DCM_ALIAS_TIME_MIXED);
	assert_string_equal(dcm_alias_mode_to_string(m), "time-mixed");
	assert_int_equal(dcm_alias_mode_from_string("TimeSeparate", &m), 0);
	assert_int_equal(m, LIBDCM_TIME_SEPARATE);
	assert_int_equal(dcm_alias_mode_from_string("time", &m), -EINVAL);
	assert_int_equal(dcm_alias_mode_from_string("ClearAll", &m), -EINVAL);
	assert_int_equal(dcm_alias_mode_from_string(NULL, &m), -EINVAL);
	assert_null(dcm_alias_mode_to_string((enum dcm_alias_time_mode)2));
}

static void test_alias_mixed(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator", "Nope", "HeadPitch/Position/Actuator" };
	struct dcm_timed_point p[3] = {
		{ 0.5, 1500, 1 }, { 0.25, 1250, 2 }, { -0.75, 1750, 3 },
	};
	size_t counts[3] = { 2, 0, 1 };

	(void)state;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 3, NULL), 2);
	assert_int_equal(dcm_alias_set_mixed(dcm, "head", LIBDCM_CLEAR_ALL, p, counts, 3), 0);
	assert_int_equal(fake.aset.mode, DCM_ALIAS_TIME_MIXED);
	assert_int_equal(fake.aset.n_times, 0);
	assert_int_equal(fake.aset_counts[0], 2);
	assert_int_equal(fake.aset_counts[1], 0);
	assert_int_equal(fake.aset_counts[2], 1);
	assert_int_equal(fake.aset_points[1].value, 250000);
	assert_int_equal(fake.aset_points[1].importance, 2);
	assert_int_equal(fake.aset_points[2].value, -750000);
	assert_int_equal(fake.aset_points[2].time, 1750);

	CALLS(DCM_IOC_ALIAS_SET) = 0;
	p[2].value = -INFINITY;
	assert_int_equal(dcm_alias_set_mixed(dcm, "head", LIBDCM_CLEAR_ALL, p, counts, 3),
			 -EINVAL);
	p[2].value = 0;
	counts[1] = LIBDCM_MAX_POINTS + 1;
	assert_int_equal(dcm_alias_set_mixed(dcm, "head", LIBDCM_CLEAR_ALL, p, counts, 3),
			 -EINVAL);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_SET), 0);
	/* no point at all: fine (clear-all empties every member's queue) */
	counts[0] = counts[1] = counts[2] = 0;
	assert_int_equal(dcm_alias_set_mixed(dcm, "head", LIBDCM_CLEAR_ALL, NULL, counts, 3), 0);
}

static void test_get(void **state)
{
	uint32_t h[3] = { fake_handle(1), fake_handle(4), fake_handle(1) };
	double v[3];
	uint32_t t[3];

	(void)state;
	assert_int_equal(dcm_get(dcm, h, 3, v, t), 0);
	assert_true(v[0] == 0.1);
	assert_true(v[1] == -0.5);
	assert_true(v[2] == 0.1);
	assert_int_equal(t[0], 990);
	assert_int_equal(dcm_get(dcm, h, 2, v, NULL), 0);
	assert_int_equal(dcm_get(dcm, h, 0, v, NULL), -EINVAL);
	assert_int_equal(dcm_get(dcm, h, LIBDCM_MAX_SUBDEVICES + 1, v, NULL), -EINVAL);
	h[1] = 7;
	v[0] = 42;
	assert_int_equal(dcm_get(dcm, h, 2, v, NULL), -ESTALE);
	assert_true(v[0] == 42);	/* untouched */
	assert_non_null(strstr(dcm_last_error(), "DCM_IOC_GET: Stale file handle"));
}

static void test_frame_allocated(void **state)
{
	struct dcm_values_frame f = { 0 };

	(void)state;
	fake.ramp = 1000;
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	assert_int_equal(f.cycle, 1);
	assert_int_equal(f.time, 1010);
	assert_int_equal(f.generation, FAKE_GEN);
	assert_int_equal(f.n_values, 5);
	assert_non_null(f.values);
	assert_true(f.values[1] == 0.101);
	assert_true(f.values[4] == -0.499);
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	assert_int_equal(f.cycle, 2);
	assert_true(f.values[1] == 0.102);
	/* a bigger description meanwhile: read() says EINVAL, the buffer grows */
	fake.subs[5] = (struct fake_sub){ "X/Position/Actuator", DCM_LOOKUP_F_ACTUATOR, 7000000, 0 };
	fake.n_subs = 6;
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	assert_int_equal(f.n_values, 6);
	assert_true(f.values[5] == 7.001);
	/* errors pass through */
	fake.read_errno = EINTR;
	assert_int_equal(dcm_read_frame(dcm, &f), -EINTR);
	fake.read_errno = ENODEV;
	assert_int_equal(dcm_read_frame(dcm, &f), -ENODEV);
	assert_non_null(strstr(dcm_last_error(), "the controller is gone"));
	dcm_values_frame_release(&f);
	assert_null(f.values);
	assert_null(f.priv);
	dcm_values_frame_release(NULL);
}

static void test_frame_caller_buffer(void **state)
{
	struct dcm_values_frame f = { 0 };
	double buf[5];

	(void)state;
	f.values = buf;
	f.capacity = 4;
	assert_int_equal(dcm_read_frame(dcm, &f), -EMSGSIZE);
	assert_int_equal(f.n_values, 5);
	assert_ptr_equal(f.values, buf);
	f.capacity = 5;
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	assert_ptr_equal(f.values, buf);
	assert_true(buf[4] == -0.5);
	dcm_values_frame_release(&f);	/* does not free buf */
	assert_null(f.values);
	assert_int_equal(dcm_read_frame(NULL, &f), -EINVAL);
	assert_int_equal(dcm_read_frame(dcm, NULL), -EINVAL);
	assert_int_equal(dcm_poll_fd(dcm), dcm_fd(dcm));
}

static void test_stats(void **state)
{
	struct dcm_stats st;

	(void)state;
	assert_int_equal(dcm_stats(dcm, &st), 0);
	assert_int_equal(st.cycles, 1234);
	assert_int_equal(st.overruns, 2);
	assert_int_equal(st.latency_max_ns, 123456);
	assert_int_equal(st.latency_hist[0], 10);
	assert_int_equal(st.latency_hist[9], 1);
	assert_int_equal(dcm_latency_bucket_ns(0), 10000);
	assert_int_equal(dcm_latency_bucket_ns(6), 1000000);
	assert_int_equal(dcm_latency_bucket_ns(8), 5000000);
	assert_true(dcm_latency_bucket_ns(9) == UINT64_MAX);
	assert_true(dcm_latency_bucket_ns(99) == UINT64_MAX);
	fake.fail_errno[FAKE_NR(DCM_IOC_STATS)] = ENODEV;
	assert_int_equal(dcm_stats(dcm, &st), -ENODEV);
	assert_int_equal(dcm_stats(dcm, NULL), -EINVAL);
}

static void test_snapshot_map(void **state)
{
	uint32_t h[2] = { fake_handle(1), fake_handle(4) }, t[2];
	struct dcm_values_frame f = { 0 };
	struct dcm_snap *snap;
	uint64_t cycle;
	double v[2];

	(void)state;
	assert_int_equal(dcm_snapshot_map(dcm, &snap), 0);
	/* a page first, then the size the header asks for */
	assert_int_equal(fake.maps, 2);
	assert_int_equal(fake.unmaps, 1);
	assert_int_equal(fake.map_len, FAKE_SNAP_SIZE);
	assert_int_equal(dcm_snapshot_generation(snap), FAKE_GEN);
	assert_int_equal(dcm_snapshot_read_many(snap, h, 2, v, t, &cycle), 0);
	assert_true(v[0] == 0.1 && v[1] == -0.5);
	assert_int_equal(t[0], 990);
	assert_int_equal(cycle, 0);
	/* the cycle runs: the mapping follows without a system call */
	fake.ramp = 10;
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	dcm_values_frame_release(&f);
	assert_int_equal(dcm_snapshot_read_many(snap, h, 2, v, NULL, &cycle), 0);
	assert_true(v[0] == 0.10001);
	assert_int_equal(cycle, 1);
	assert_int_equal(dcm_snapshot_check(snap), 0);

	/* the description is replaced: new handles are stale on this mapping */
	fake.generation = FAKE_GEN + 1;
	assert_int_equal(dcm_snapshot_check(snap), -ESTALE);
	assert_non_null(strstr(dcm_last_error(), "map again"));
	assert_int_equal(dcm_snapshot_read(snap, fake_handle(1), v, NULL), -ESTALE);
	dcm_snapshot_unmap(snap);
	assert_int_equal(fake.unmaps, 2);
	assert_int_equal(dcm_snapshot_map(NULL, &snap), -EINVAL);
}

/* ABI 1.4: own aliases by default, shared ones on request. */
static void test_alias_own_shared(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator", "HeadPitch/Position/Actuator" };

	(void)state;
	assert_int_equal(dcm_alias_create(dcm, "head", members, 2, NULL), 2);
	assert_int_equal(fake.create.flags, 0);
	assert_int_equal(dcm_alias_create_shared(dcm, "head", members, 1, NULL), 1);
	assert_int_equal(fake.create.flags, DCM_ALIAS_F_SHARED);
	assert_int_equal(fake.n_aliases, 2);
	/* the shared set is full: the message says which slots */
	fake.fail_errno[FAKE_NR(DCM_IOC_ALIAS_CREATE)] = ENOSPC;
	assert_int_equal(dcm_alias_create_shared(dcm, "more", members, 1, NULL), -ENOSPC);
	assert_non_null(strstr(dcm_last_error(), "shared"));
	assert_int_equal(dcm_alias_create(dcm, "more", members, 1, NULL), -ENOSPC);
	assert_non_null(strstr(dcm_last_error(), "this handle"));
}

static void test_alias_list_show_delete(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator", "Nope/Position/Actuator",
				  "HeadPitch/Position/Actuator" };
	struct dcm_alias_entry *e;
	struct dcm_alias_desc d;

	(void)state;
	assert_int_equal(dcm_alias_list(dcm, &e), 0);
	assert_null(e);
	assert_int_equal(dcm_alias_create(dcm, "mine", members, 3, NULL), 2);
	assert_int_equal(dcm_alias_create_shared(dcm, "ours", members, 1, NULL), 1);
	assert_int_equal(dcm_alias_list(dcm, &e), 2);
	assert_string_equal(e[0].name, "mine");
	assert_int_equal(e[0].n_members, 3);
	assert_false(e[0].shared);
	assert_string_equal(e[1].name, "ours");
	assert_true(e[1].shared);
	free(e);

	assert_int_equal(dcm_alias_create(dcm, "mine", members, 3, NULL), 2);
	assert_int_equal(dcm_alias_show(dcm, "mine", false, &d), 0);
	assert_false(d.shared);
	assert_int_equal(d.n_members, 3);
	assert_string_equal(d.members[0], "HeadYaw/Position/Actuator");
	assert_string_equal(d.members[1], "Nope/Position/Actuator");
	assert_int_equal(d.handles[0], fake_handle(0));
	assert_int_equal(d.handles[1], 0);
	assert_int_equal(d.handles[2], fake_handle(4));
	dcm_alias_desc_free(&d);
	assert_null(d.members);
	dcm_alias_desc_free(NULL);
	assert_int_equal(dcm_alias_show(dcm, "mine", true, &d), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no alias mine"));
	assert_int_equal(dcm_alias_show(dcm, "", false, &d), -EINVAL);

	assert_int_equal(dcm_alias_delete(dcm, "mine", true), -ENOENT);
	assert_int_equal(dcm_alias_delete(dcm, "mine", false), 0);
	assert_int_equal(dcm_alias_delete(dcm, "mine", false), -ENOENT);
	assert_int_equal(dcm_alias_delete(dcm, "ours", true), 0);
	assert_int_equal(dcm_alias_list(dcm, &e), 0);
	assert_int_equal(dcm_alias_delete(dcm, NULL, false), -EINVAL);
	assert_int_equal(dcm_alias_delete(dcm,
		"a-name-of-sixty-four-bytes-is-one-too-many-for-the-kernel-012345", false),
		-ENAMETOOLONG);
}

/* A module of ABI 1.3: every alias is shared, and the 1.4 calls say so. */
static void test_alias_old_abi(void **state)
{
	const char *members[] = { "HeadYaw/Position/Actuator" };
	struct dcm_alias_entry *e;
	struct dcm_alias_desc d;

	(void)state;
	dcm_close(dcm);
	fake.abi_minor = 3;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_alias_create_shared(dcm, "a", members, 1, NULL), 1);
	assert_int_equal(fake.create.flags, 0);	/* the field was reserved */
	CALLS(DCM_IOC_ALIAS_LIST) = 0;
	assert_int_equal(dcm_alias_list(dcm, &e), -EOPNOTSUPP);
	assert_int_equal(dcm_alias_show(dcm, "a", false, &d), -EOPNOTSUPP);
	assert_int_equal(dcm_alias_delete(dcm, "a", false), -EOPNOTSUPP);
	assert_int_equal(CALLS(DCM_IOC_ALIAS_LIST), 0);
}

/* The per-cycle wait of a snapshot client: its mode is set once. */
static void test_snapshot_wait(void **state)
{
	struct dcm_snap *s;

	(void)state;
	assert_int_equal(dcm_snapshot_map(dcm, &s), 0);
	assert_int_equal(dcm_snapshot_layout(s), DCM_SNAPSHOT_LAYOUT);
	CALLS(DCM_IOC_READ_MODE) = 0;
	/* /dev/null is always readable: the snapshot's cycle tells what is new */
	assert_int_equal(dcm_snapshot_wait(s, 0), 0);
	assert_int_equal(dcm_snapshot_wait(s, 30), 0);	/* repeats until the timeout */
	fake.cycle++;
	fake_snapshot();
	assert_int_equal(dcm_snapshot_wait(s, 100), 1);
	assert_int_equal(dcm_snapshot_wait(s, 0), 0);	/* once */
	fake.cycle += 3;
	fake_snapshot();
	assert_int_equal(dcm_snapshot_wait(s, -1), 1);
	assert_int_equal(CALLS(DCM_IOC_READ_MODE), 1);
	assert_int_equal(fake.read_mode.flags, DCM_READ_F_SNAPSHOT);
	dcm_snapshot_unmap(s);

	/* a failing mode change is an error, and is tried again next time */
	assert_int_equal(dcm_snapshot_map(dcm, &s), 0);
	fake.fail_errno[FAKE_NR(DCM_IOC_READ_MODE)] = EINVAL;
	assert_int_equal(dcm_snapshot_wait(s, 0), -EINVAL);
	fake.fail_errno[FAKE_NR(DCM_IOC_READ_MODE)] = 0;
	fake.cycle++;
	assert_int_equal(dcm_snapshot_wait(s, 0), 0);	/* the mode set now: from here */
	fake_snapshot();
	assert_int_equal(dcm_snapshot_wait(s, 0), 1);
	dcm_snapshot_unmap(s);
	assert_int_equal(dcm_snapshot_wait(NULL, 0), -EINVAL);

	dcm_close(dcm);
	fake.abi_minor = 3;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_snapshot_map(dcm, &s), 0);
	assert_int_equal(dcm_snapshot_wait(s, 0), -EOPNOTSUPP);
	dcm_snapshot_unmap(s);
}

/* Live keys in frames: the mode is set, and frames still read. */
static void test_frame_keys(void **state)
{
	struct dcm_values_frame f = { 0 };

	(void)state;
	assert_int_equal(dcm_frame_keys(dcm, true), 0);
	assert_int_equal(fake.read_mode.flags, DCM_READ_F_KEYS);
	assert_int_equal(dcm_read_frame(dcm, &f), 0);
	assert_int_equal(f.n_values, fake.n_subs);
	assert_int_equal(dcm_frame_keys(dcm, false), 0);
	assert_int_equal(fake.read_mode.flags, 0);
	fake.fail_errno[FAKE_NR(DCM_IOC_READ_MODE)] = EINVAL;
	assert_int_equal(dcm_frame_keys(dcm, true), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "DCM_IOC_READ_MODE"));
	assert_int_equal(dcm_frame_keys(NULL, true), -EINVAL);
	dcm_values_frame_release(&f);

	dcm_close(dcm);
	fake.abi_minor = 3;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	assert_int_equal(dcm_frame_keys(dcm, true), -EOPNOTSUPP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_converts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_many_points, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_rejects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_now, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_separate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_mixed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_set_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_naoqi_strings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_allocated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_caller_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_map, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_own_shared, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_list_show_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_old_abi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_snapshot_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_keys, setup, teardown),
	};

	return cmocka_run_group_tests_name("values", tests, NULL, NULL);
}
