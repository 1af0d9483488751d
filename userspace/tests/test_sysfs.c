// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Unit tests: libdcm's key tree in sysfs (dcm_sysfs_*()) against a fake
 * tree built in a temporary directory (tests/fake_sysfs.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <linux/dcm.h>

#include "libdcm.h"
#include "fake_sysfs.h"

#define root fake_sysfs_root

static int setup(void **state)
{
	(void)state;
	return fake_sysfs_setup("test_sysfs");
}

static int teardown(void **state)
{
	(void)state;
	return fake_sysfs_teardown();
}

/* The library's public prefixes are the kernel ABI's, under its own names. */
static void test_prefixes_are_the_abi(void **state)
{
	(void)state;
	assert_string_equal(LIBDCM_PREFIX_SUB, DCM_PREFIX_SUBDEVICE);
	assert_string_equal(LIBDCM_PREFIX_DEV, DCM_PREFIX_DEVICE);
	assert_string_equal(LIBDCM_PREFIX_ROBOT, DCM_PREFIX_ROBOTCONFIG);
}

static void test_key_path(void **state)
{
	char rel[256];

	(void)state;
	assert_int_equal(dcm_sysfs_key_path("Device/SubDeviceList/HeadPitch/Position/Sensor/Value",
					    rel, sizeof(rel)), 0);
	assert_string_equal(rel, "SubDeviceList/HeadPitch/Position/Sensor/Value");
	assert_int_equal(dcm_sysfs_key_path("HeadPitch/Position/Sensor/Value", rel, sizeof(rel)), 0);
	assert_string_equal(rel, "SubDeviceList/HeadPitch/Position/Sensor/Value");
	assert_int_equal(dcm_sysfs_key_path("Device/DeviceList/ChestBoard/Bus", rel, sizeof(rel)), 0);
	assert_string_equal(rel, "DeviceList/ChestBoard/Bus");
	assert_int_equal(dcm_sysfs_key_path("RobotConfig/Body/Type", rel, sizeof(rel)), 0);
	assert_string_equal(rel, "RobotConfig/Body/Type");
	/* "Device/..." that is neither list: a subdevice name like any other */
	assert_int_equal(dcm_sysfs_key_path("Device/Foo", rel, sizeof(rel)), 0);
	assert_string_equal(rel, "SubDeviceList/Device/Foo");

	assert_int_equal(dcm_sysfs_key_path("", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("/etc/passwd", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("../../../etc/passwd", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("A/../B", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("A/./B", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("A//B", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("A/B/", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("Device/DeviceList/", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("Device/DeviceList/..", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("RobotConfig//x", rel, sizeof(rel)), -EINVAL);
	assert_int_equal(dcm_sysfs_key_path("A/B", rel, 8), -ENAMETOOLONG);
}

/* The root: as given, else $DCM_SYSFS_ROOT (not empty), else /sys/class/dcm. */
static void test_root(void **state)
{
	(void)state;
	unsetenv("DCM_SYSFS_ROOT");
	assert_string_equal(dcm_sysfs_root(NULL), LIBDCM_SYSFS_ROOT);
	setenv("DCM_SYSFS_ROOT", "", 1);
	assert_string_equal(dcm_sysfs_root(NULL), LIBDCM_SYSFS_ROOT);
	setenv("DCM_SYSFS_ROOT", root, 1);
	assert_string_equal(dcm_sysfs_root(NULL), root);
	assert_string_equal(dcm_sysfs_root("/elsewhere"), "/elsewhere");
	unsetenv("DCM_SYSFS_ROOT");
}

static void test_open(void **state)
{
	struct dcm_sysfs *s = (struct dcm_sysfs *)1;
	char want[128];

	(void)state;
	assert_int_equal(dcm_sysfs_open(root, 0, &s), 0);
	snprintf(want, sizeof(want), "%s/dcm0", root);
	assert_string_equal(dcm_sysfs_path(s), want);
	dcm_sysfs_close(s);
	dcm_sysfs_close(NULL);

	/* no such controller; no root at all (no module) */
	assert_int_equal(dcm_sysfs_open(root, 7, &s), -ENOENT);
	assert_null(s);
	snprintf(want, sizeof(want), "%s/dcm7: No such file or directory (no such controller)",
		 root);
	assert_string_equal(dcm_last_error(), want);
	assert_int_equal(dcm_sysfs_open("/nonexistent/dcm", 0, &s), -ENOENT);
	assert_string_equal(dcm_last_error(),
			    "/nonexistent/dcm/dcm0: No such file or directory (is dcm.ko loaded?)");
	assert_int_equal(dcm_sysfs_open(root, 0, NULL), -EINVAL);
}

static void test_read(void **state)
{
	struct dcm_sysfs *s;
	char *v;

	(void)state;
	assert_int_equal(dcm_sysfs_open(root, 0, &s), 0);
	/* with or without the prefix; one trailing newline dropped */
	assert_int_equal(dcm_sysfs_read(s, "Device/DeviceList/ChestBoard/BodyId", &v), 0);
	assert_string_equal(v, "AL1100100000000");
	free(v);
	assert_int_equal(dcm_sysfs_read(s, "HeadPitch/Position/Sensor/jointZeroPosition", &v), 0);
	assert_string_equal(v, "1258");
	free(v);
	assert_int_equal(dcm_sysfs_read(s, "RobotConfig/Body/Type", &v), 0);
	assert_string_equal(v, "NAO");
	free(v);
	/* an error list keeps its lines; an empty file is "" */
	assert_int_equal(dcm_sysfs_read(s, "ChestBoard/Led/Red/Actuator/Error", &v), 0);
	assert_string_equal(v, "12 4 first\n13 4 second");
	free(v);
	assert_int_equal(dcm_sysfs_read(s, "Device/DeviceList/HeadBoard/Error", &v), 0);
	assert_string_equal(v, "");
	free(v);
	/* a directory, a missing key, a path that is no key */
	assert_int_equal(dcm_sysfs_read(s, "HeadPitch/Position/Sensor", &v), -ENOENT);
	assert_null(v);
	assert_int_equal(dcm_sysfs_read(s, "HeadPitch/Nothing", &v), -ENOENT);
	assert_int_equal(dcm_sysfs_read(s, "../dcm1/uevent", &v), -EINVAL);
	assert_int_equal(dcm_sysfs_read(s, "", &v), -EINVAL);
	dcm_sysfs_close(s);
}

static void test_keys(void **state)
{
	struct dcm_sysfs *s;
	char **k;
	size_t n;

	(void)state;
	assert_int_equal(dcm_sysfs_open(root, 0, &s), 0);
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_ROBOT, &k, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(k[0], "RobotConfig/Body/Type");
	assert_string_equal(k[1], "RobotConfig/Head/Device/TouchBoard/Version");
	dcm_sysfs_strv_free(k, n);

	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_DEVICES, &k, &n), 0);
	assert_int_equal(n, 8);		/* sorted; BodyId and the empty Error too */
	assert_string_equal(k[0], "Device/DeviceList/ChestBoard/Address");
	assert_string_equal(k[7], "Device/DeviceList/HeadBoard/Type");
	dcm_sysfs_strv_free(k, n);

	/* 3 subdevices of 8 keys, jointZeroPosition, Error; not the hidden tree */
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_SUBDEVICES, &k, &n), 0);
	assert_int_equal(n, 26);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(strncmp(k[i], LIBDCM_PREFIX_SUB, strlen(LIBDCM_PREFIX_SUB)), 0);
		assert_null(strstr(k[i], ".staged"));
		if (i)
			assert_true(strcmp(k[i - 1], k[i]) < 0);
	}
	dcm_sysfs_strv_free(k, n);
	assert_int_equal(dcm_sysfs_keys(s, (enum dcm_sysfs_root)3, &k, &n), -EINVAL);
	dcm_sysfs_close(s);

	/* no description: no keys */
	assert_int_equal(dcm_sysfs_open(root, 1, &s), 0);
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_SUBDEVICES, &k, &n), 0);
	assert_int_equal(n, 0);
	assert_null(k);
	dcm_sysfs_close(s);
}

static void test_elems(void **state)
{
	struct dcm_sysfs_elem *e;
	struct dcm_sysfs *s;
	size_t n;

	(void)state;
	assert_int_equal(dcm_sysfs_open(root, 0, &s), 0);
	assert_int_equal(dcm_sysfs_devices(s, &e, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(e[0].name, "ChestBoard");
	assert_string_equal(e[0].type, "ChestBoard");
	assert_string_equal(e[0].bus, "I2C-chest");
	assert_string_equal(e[0].address, "32");
	assert_null(e[0].device);
	assert_string_equal(e[1].name, "HeadBoard");
	assert_string_equal(e[1].bus, "RS485-head");
	dcm_sysfs_elems_free(e, n);

	assert_int_equal(dcm_sysfs_subdevices(s, &e, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(e[0].name, "ChestBoard/Led/Red/Actuator");
	assert_string_equal(e[0].type, "Led");
	assert_string_equal(e[0].device, "ChestBoard");
	assert_string_equal(e[0].number, "1");
	assert_null(e[0].bus);
	assert_string_equal(e[2].name, "HeadPitch/Position/Sensor");
	assert_string_equal(e[2].type, "JointPosition");
	dcm_sysfs_elems_free(e, n);
	dcm_sysfs_close(s);

	/* a key that cannot be read shows as "?" */
	fake_sysfs_put("dcm1/DeviceList/Lone/Type", "X");
	assert_int_equal(dcm_sysfs_open(root, 1, &s), 0);
	assert_int_equal(dcm_sysfs_devices(s, &e, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].type, "X");
	assert_string_equal(e[0].bus, "?");
	dcm_sysfs_elems_free(e, n);
	assert_int_equal(dcm_sysfs_subdevices(s, &e, &n), 0);
	assert_int_equal(n, 0);
	dcm_sysfs_elems_free(e, n);
	dcm_sysfs_close(s);
}

/* A symlink <root>/@rel to <root>/@target (@target NULL: a fifo). */
static void put_special(const char *rel, const char *target)
{
	char path[512], to[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(to, sizeof(to), "%s/%s", root, target ? target : "");
	assert_int_equal(target ? symlink(to, path) : mkfifo(path, 0644), 0);
}

/* The strings of @v, joined by ' ', into @buf. */
static const char *joined(char **v, size_t n, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", v[i]);
	return buf;
}

/*
 * The one walk of the key tree (dcm_sysfs_keys(), dcm_sysfs_subdevices(),
 * dcm_tree_read()): sorted whatever the directory's order, regular files
 * only (no symlink to a file or a directory, no fifo), a subdevice inside
 * another one's directory is not that one's keys, 32 levels at most.
 */
static void test_walk(void **state)
{
	const struct dcm_tree_subdevice *sd;
	struct dcm_sysfs_elem *e;
	struct dcm_sysfs *s;
	struct dcm_tree *t;
	char buf[1024], rel[256], **k;
	size_t n, i;

	(void)state;
	fake_sysfs_put("dcm2/uevent", "MAJOR=240");
	fake_sysfs_put("dcm2/DeviceList/B/Type", "X");
	/* created out of order: the directory's order is not the keys' */
	fake_sysfs_put("dcm2/SubDeviceList/Z/Device", "B");
	fake_sysfs_put("dcm2/SubDeviceList/Z/Value", "0");
	fake_sysfs_put("dcm2/SubDeviceList/A/Value", "0");
	fake_sysfs_put("dcm2/SubDeviceList/A/Device", "B");
	/* a subdevice inside A's directory: its keys are not A's */
	fake_sysfs_put("dcm2/SubDeviceList/A/In/Device", "B");
	fake_sysfs_put("dcm2/SubDeviceList/A/In/Value", "0");
	/* a directory without Device is A's: its keys are */
	fake_sysfs_put("dcm2/SubDeviceList/A/Sub/Kp", "0");
	/* a Device that is no regular file makes no subdevice */
	fake_sysfs_put("dcm2/SubDeviceList/L/Value", "0");
	put_special("dcm2/SubDeviceList/L/Device", "dcm2/SubDeviceList/A/Device");
	/* symlinks, to a file and to a directory, and a fifo: none is a key */
	put_special("dcm2/SubDeviceList/Z/Link", "dcm2/SubDeviceList/A/Value");
	put_special("dcm2/SubDeviceList/Z/Dir", "dcm2/SubDeviceList/A");
	put_special("dcm2/SubDeviceList/Z/Fifo", NULL);

	assert_int_equal(dcm_sysfs_open(root, 2, &s), 0);
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_SUBDEVICES, &k, &n), 0);
	assert_string_equal(joined(k, n, buf, sizeof(buf)),
			    "Device/SubDeviceList/A/Device Device/SubDeviceList/A/In/Device "
			    "Device/SubDeviceList/A/In/Value Device/SubDeviceList/A/Sub/Kp "
			    "Device/SubDeviceList/A/Value Device/SubDeviceList/L/Value "
			    "Device/SubDeviceList/Z/Device Device/SubDeviceList/Z/Value");
	dcm_sysfs_strv_free(k, n);
	assert_int_equal(dcm_sysfs_subdevices(s, &e, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(e[0].name, "A");
	assert_string_equal(e[1].name, "A/In");
	assert_string_equal(e[2].name, "Z");
	dcm_sysfs_elems_free(e, n);
	dcm_sysfs_close(s);

	assert_int_equal(dcm_tree_read(NULL, root, 2, &t), 0);
	assert_int_equal(dcm_tree_n_subdevices(t), 3);
	sd = dcm_tree_subdevice(t, 0);
	assert_string_equal(sd->name, "A");
	assert_int_equal(sd->n_keys, 3);
	assert_string_equal(sd->keys[0].name, "Device");
	assert_string_equal(sd->keys[1].name, "Sub/Kp");
	assert_string_equal(sd->keys[2].name, "Value");
	sd = dcm_tree_subdevice(t, 2);
	assert_string_equal(sd->name, "Z");
	assert_int_equal(sd->n_keys, 2);
	assert_string_equal(sd->keys[0].name, "Device");
	assert_string_equal(sd->keys[1].name, "Value");
	dcm_tree_free(t);

	/* 32 levels of directories below the root are read, 33 are too deep */
	snprintf(rel, sizeof(rel), "dcm2/RobotConfig");
	for (i = 0; i < 32; i++)
		strcat(rel, "/d");
	strcat(rel, "/Key");
	fake_sysfs_put(rel, "1");
	assert_int_equal(dcm_sysfs_open(root, 2, &s), 0);
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_ROBOT, &k, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(k[0], rel + strlen("dcm2/"));
	dcm_sysfs_strv_free(k, n);
	strcpy(strrchr(rel, '/'), "/d/Key");
	fake_sysfs_put(rel, "1");
	assert_int_equal(dcm_sysfs_keys(s, DCM_SYSFS_ROBOT, &k, &n), -ELOOP);
	assert_null(k);
	assert_int_equal(n, 0);
	dcm_sysfs_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefixes_are_the_abi),
		cmocka_unit_test(test_key_path),
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_elems),
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests_name("sysfs", tests, setup, teardown);
}
