// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmctl list, get and tree against a fake sysfs tree built in
 * a temporary directory (-r / $DCM_SYSFS_ROOT; tests/fake_sysfs.c).
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

#include "dcmctl.h"
#include "fake_sysfs.h"

static int setup(void **state)
{
	(void)state;
	return fake_sysfs_setup("test_dcmctl_keys");
}

static int teardown(void **state)
{
	(void)state;
	return fake_sysfs_teardown();
}

struct out {
	char *out, *err;
	int rc;
};

static void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

/* Run a dcmctl command line (after "dcmctl -r ROOT") into strings. */
static struct out run(int (*fn)(const struct dcmctl_opts *, FILE *, FILE *), int argc,
		      char **argv)
{
	struct dcmctl_opts o;
	struct out r;
	size_t lo = 0, le = 0;
	FILE *fo, *fe;
	char *args[16];
	int i;

	args[0] = "dcmctl";
	args[1] = "-r";
	args[2] = fake_sysfs_root;
	for (i = 0; i < argc && i < 12; i++)
		args[3 + i] = argv[i];
	args[3 + i] = NULL;
	assert_int_equal(dcmctl_parse_args(3 + i, args, &o), DCMCTL_RUN);
	fo = open_memstream(&r.out, &lo);
	fe = open_memstream(&r.err, &le);
	r.rc = fn(&o, fo, fe);
	fclose(fo);
	fclose(fe);
	return r;
}

#define RUN(fn, ...) run((fn), (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
			 (char *[]){ __VA_ARGS__ })

static void test_list(void **state)
{
	struct out r;

	(void)state;
	r = RUN(dcmctl_list, "list");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out,
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Device\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Error\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Gain\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Max\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Min\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Offset\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/SubDeviceNumber\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Type\n"
		"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Value\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Device\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Gain\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Max\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Min\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Offset\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/SubDeviceNumber\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Type\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Value\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Device\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Gain\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Max\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Min\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Offset\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/SubDeviceNumber\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Type\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Value\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition\n"
		"Device/DeviceList/ChestBoard/Address\n"
		"Device/DeviceList/ChestBoard/BodyId\n"
		"Device/DeviceList/ChestBoard/Bus\n"
		"Device/DeviceList/ChestBoard/Type\n"
		"Device/DeviceList/NeckBoard/Address\n"
		"Device/DeviceList/NeckBoard/Bus\n"
		"Device/DeviceList/NeckBoard/Error\n"
		"Device/DeviceList/NeckBoard/Type\n"
		"RobotConfig/Body/Type\n"
		"RobotConfig/Head/Device/TouchBoard/Version\n");
	out_free(&r);

	/* a glob on the whole path, or on it without Device/SubDeviceList/ */
	r = RUN(dcmctl_list, "list", "HeadPitch/*/Value");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Value\n"
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Value\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "Device/SubDeviceList/*Sensor/j*");
	assert_string_equal(r.out,
		"Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "*/Bus");
	assert_string_equal(r.out,
		"Device/DeviceList/ChestBoard/Bus\n"
		"Device/DeviceList/NeckBoard/Bus\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "RobotConfig/*");
	assert_string_equal(r.out,
		"RobotConfig/Body/Type\n"
		"RobotConfig/Head/Device/TouchBoard/Version\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "Nothing*");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	out_free(&r);

	r = RUN(dcmctl_list, "-j", "list", "*/Bus");
	assert_string_equal(r.out,
		"[\"Device/DeviceList/ChestBoard/Bus\",\"Device/DeviceList/NeckBoard/Bus\"]\n");
	out_free(&r);

	/* a controller without a description lists nothing */
	r = RUN(dcmctl_list, "-d", "dcm1", "list");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	out_free(&r);

	r = RUN(dcmctl_list, "list", "a", "b");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: list: unexpected argument 'b'\n");
	out_free(&r);
}

static void test_get(void **state)
{
	struct out r;
	char want[512];

	(void)state;
	r = RUN(dcmctl_get, "get", "HeadPitch/Position/Sensor/jointZeroPosition",
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Gain",
		"Device/DeviceList/ChestBoard/BodyId", "RobotConfig/Body/Type");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out,
		"HeadPitch/Position/Sensor/jointZeroPosition 1258\n"
		"Device/SubDeviceList/HeadPitch/Position/Actuator/Gain 1.000000\n"
		"Device/DeviceList/ChestBoard/BodyId AL1100100000000\n"
		"RobotConfig/Body/Type NAO\n");
	out_free(&r);

	/* unknown keys: reported, the others printed, exit 1 */
	r = RUN(dcmctl_get, "get", "Nope/Value", "RobotConfig/Body/Type",
		"HeadPitch/Position", "../../../../etc/passwd", "Device/DeviceList/Foo/Bus");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "RobotConfig/Body/Type NAO\n");
	assert_string_equal(r.err,
		"dcmctl: Nope/Value: no such key\n"
		"dcmctl: HeadPitch/Position: no such key\n"
		"dcmctl: did you mean HeadPitch/Position/Sensor?\n"
		"dcmctl: ../../../../etc/passwd: invalid key (empty, absolute, or with '.' or '..' components)\n"
		"dcmctl: Device/DeviceList/Foo/Bus: no such key\n"
		"dcmctl: did you mean Device/DeviceList/NeckBoard/Bus?\n");
	out_free(&r);

	/* -q: values only; a multi-line value on one line; an empty one */
	r = RUN(dcmctl_get, "get", "-q", "RobotConfig/Head/Device/TouchBoard/Version",
		"ChestBoard/Led/Red/Actuator/Error", "Device/DeviceList/NeckBoard/Error");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "1\n12 4 first; 13 4 second\n\n");
	out_free(&r);

	r = RUN(dcmctl_get, "-j", "get", "RobotConfig/Body/Type", "X/Value",
		"ChestBoard/Led/Red/Actuator/Error");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out,
		"[{\"key\":\"RobotConfig/Body/Type\",\"path\":\"RobotConfig/Body/Type\",\"value\":\"NAO\"},"
		"{\"key\":\"X/Value\",\"error\":\"no such key\"},"
		"{\"key\":\"ChestBoard/Led/Red/Actuator/Error\","
		"\"path\":\"Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Error\","
		"\"value\":\"12 4 first\\n13 4 second\"}]\n");
	out_free(&r);

	r = RUN(dcmctl_get, "get");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	out_free(&r);
	r = RUN(dcmctl_get, "get", "-x", "A");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: get: unknown option '-x'\n");
	out_free(&r);

	/* no such controller */
	r = RUN(dcmctl_get, "-d", "7", "get", "A/Value");
	assert_int_equal(r.rc, 1);
	snprintf(want, sizeof(want), "dcmctl: %s/dcm7: No such file or directory (no such controller)\n",
		 fake_sysfs_root);
	assert_string_equal(r.err, want);
	out_free(&r);
}

/* get's options before or after the keys; after "--", "-q" is a key. */
static void test_get_options(void **state)
{
	struct out r;

	(void)state;
	r = RUN(dcmctl_get, "get", "--quiet", "RobotConfig/Body/Type");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "NAO\n");
	out_free(&r);

	r = RUN(dcmctl_get, "get", "RobotConfig/Body/Type", "-q");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "NAO\n");
	assert_string_equal(r.err, "");
	out_free(&r);

	r = RUN(dcmctl_get, "get", "-q", "--", "-q");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "dcmctl: -q: no such key\n");
	out_free(&r);

	r = RUN(dcmctl_get, "get", "-q");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: get: which key? (dcmctl get KEY...)\n");
	out_free(&r);

	/* a long option by its whole name only */
	r = RUN(dcmctl_get, "get", "--qu", "RobotConfig/Body/Type");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: get: unknown option '--qu'\n");
	out_free(&r);
}

static void test_tree(void **state)
{
	struct out r;

	(void)state;
	r = RUN(dcmctl_tree, "tree");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out,
		"ChestBoard: type ChestBoard, bus I2C-chest, address 32\n"
		"    ChestBoard/Led/Red/Actuator: type Led, number 1\n"
		"NeckBoard: type MotorBoard, bus RS485-head, address 2\n"
		"    HeadPitch/Position/Actuator: type Joint, number 2\n"
		"    HeadPitch/Position/Sensor: type JointPosition, number 2\n");
	out_free(&r);

	r = RUN(dcmctl_tree, "-j", "tree");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"controller\":\"dcm0\",\"devices\":["
		"{\"name\":\"ChestBoard\",\"type\":\"ChestBoard\",\"bus\":\"I2C-chest\",\"address\":32,"
		"\"subdevices\":[{\"name\":\"ChestBoard/Led/Red/Actuator\",\"type\":\"Led\",\"number\":1}]},"
		"{\"name\":\"NeckBoard\",\"type\":\"MotorBoard\",\"bus\":\"RS485-head\",\"address\":2,"
		"\"subdevices\":[{\"name\":\"HeadPitch/Position/Actuator\",\"type\":\"Joint\",\"number\":2},"
		"{\"name\":\"HeadPitch/Position/Sensor\",\"type\":\"JointPosition\",\"number\":2}]}]}\n");
	out_free(&r);

	r = RUN(dcmctl_tree, "-d", "dcm1", "tree");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	out_free(&r);
}

/* $DCM_SYSFS_ROOT, when there is no -r. */
static void test_env_root(void **state)
{
	struct dcmctl_opts o;
	char *args[] = { "dcmctl", "list", NULL };

	(void)state;
	assert_int_equal(dcmctl_parse_args(2, args, &o), DCMCTL_RUN);
	unsetenv("DCM_SYSFS_ROOT");
	assert_string_equal(dcmctl_sysfs_root(&o), "/sys/class/dcm");
	setenv("DCM_SYSFS_ROOT", fake_sysfs_root, 1);
	assert_string_equal(dcmctl_sysfs_root(&o), fake_sysfs_root);
	o.root = "/elsewhere";
	assert_string_equal(dcmctl_sysfs_root(&o), "/elsewhere");
	unsetenv("DCM_SYSFS_ROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_get_options),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_env_root),
	};

	return cmocka_run_group_tests_name("dcmctl_keys", tests, setup, teardown);
}
