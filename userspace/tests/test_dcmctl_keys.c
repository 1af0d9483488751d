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

#include "fake_sysfs.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "events.h"
#include "info.h"
#include "keyname.h"
#include "keys.h"
#include "prefs.h"
#include "special.h"
#include "timed.h"
#include "watch.h"

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
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, 3 + i, args, &o), DCMCTL_RUN);
	fo = open_memstream(&r.out, &lo);
	fe = open_memstream(&r.err, &le);
	r.rc = fn(&o, fo, fe);
	fclose(fo);
	fclose(fe);
	return r;
}

#define RUN(fn, ...) run((fn), (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
			 (char *[]){ __VA_ARGS__ })

/* info KEY...: the command with its arguments, as dcmctl_cmd_info() runs it. */
static int dcmctl_cmd_info_keys(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	int n;

	if (dcmctl_plain_args(o, "info", o->argc, &n, err))
		return DCMCTL_EXIT_USAGE;
	return dcmctl_info_keys(o, n, out, err);
}

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
		"Device/DeviceList/HeadBoard/Address\n"
		"Device/DeviceList/HeadBoard/Bus\n"
		"Device/DeviceList/HeadBoard/Error\n"
		"Device/DeviceList/HeadBoard/Type\n"
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
		"Device/DeviceList/HeadBoard/Bus\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "RobotConfig/*");
	assert_string_equal(r.out,
		"RobotConfig/Body/Type\n"
		"RobotConfig/Head/Device/TouchBoard/Version\n");
	out_free(&r);
	/* a subdevice by its name, without /Value, as get and watch take it */
	r = RUN(dcmctl_list, "list", "*/Position/Actuator");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, "Device/SubDeviceList/HeadPitch/Position/Actuator/Value\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "Device/SubDeviceList/*/Sensor");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "Device/SubDeviceList/HeadPitch/Position/Sensor/Value\n");
	out_free(&r);
	/* a pattern that matches nothing: an error, as get's and watch's */
	r = RUN(dcmctl_list, "list", "Nothing*");
	assert_int_equal(r.rc, DCMCTL_EXIT_FAIL);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "dcmctl: Nothing*: no key matches\n");
	out_free(&r);
	r = RUN(dcmctl_list, "-j", "list", "Nothing*");
	assert_int_equal(r.rc, DCMCTL_EXIT_FAIL);
	assert_string_equal(r.out, "[]\n");
	out_free(&r);
	r = RUN(dcmctl_list, "list", "HeadPitch/Position/Sensor/Nothing");
	assert_int_equal(r.rc, DCMCTL_EXIT_FAIL);
	out_free(&r);

	r = RUN(dcmctl_list, "-j", "list", "*/Bus");
	assert_string_equal(r.out,
		"[\"Device/DeviceList/ChestBoard/Bus\",\"Device/DeviceList/HeadBoard/Bus\"]\n");
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
		"dcmctl: did you mean Device/DeviceList/HeadBoard/Bus?\n");
	out_free(&r);

	/* -q: values only; a multi-line value on one line; an empty one */
	r = RUN(dcmctl_get, "get", "-q", "RobotConfig/Head/Device/TouchBoard/Version",
		"ChestBoard/Led/Red/Actuator/Error", "Device/DeviceList/HeadBoard/Error");
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

	/* a long option abbreviated, as in every dcm program */
	r = RUN(dcmctl_get, "get", "--qu", "RobotConfig/Body/Type");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "NAO\n");
	assert_string_equal(r.err, "");
	out_free(&r);
	r = RUN(dcmctl_get, "get", "--quiets", "RobotConfig/Body/Type");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: get: unknown option '--quiets'\n");
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
		"HeadBoard: type MotorBoard, bus RS485-head, address 2\n"
		"    HeadPitch/Position/Actuator: type Joint, number 2\n"
		"    HeadPitch/Position/Sensor: type JointPosition, number 2\n");
	out_free(&r);

	r = RUN(dcmctl_tree, "-j", "tree");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"controller\":\"dcm0\",\"devices\":["
		"{\"name\":\"ChestBoard\",\"type\":\"ChestBoard\",\"bus\":\"I2C-chest\",\"address\":32,"
		"\"subdevices\":[{\"name\":\"ChestBoard/Led/Red/Actuator\",\"type\":\"Led\",\"number\":1}]},"
		"{\"name\":\"HeadBoard\",\"type\":\"MotorBoard\",\"bus\":\"RS485-head\",\"address\":2,"
		"\"subdevices\":[{\"name\":\"HeadPitch/Position/Actuator\",\"type\":\"Joint\",\"number\":2},"
		"{\"name\":\"HeadPitch/Position/Sensor\",\"type\":\"JointPosition\",\"number\":2}]}]}\n");
	out_free(&r);

	r = RUN(dcmctl_tree, "-d", "dcm1", "tree");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "");
	out_free(&r);
}

/* One key grammar: every form of a key names the same file of the tree. */
static void test_key_grammar(void **state)
{
	static const char *const same[] = {
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Value",
		"HeadPitch/Position/Sensor/Value",
		"HeadPitch/Position/Sensor",
		"HeadPitch/Position/Sensor/",
		"Device/SubDeviceList/HeadPitch/Position/Sensor",
		"SubDeviceList/HeadPitch/Position/Sensor",
	};
	struct dcmctl_keyref k;
	struct dcm_sysfs *s;
	size_t i;

	(void)state;
	assert_int_equal(0, dcm_sysfs_open(fake_sysfs_root, 0, &s));
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		assert_int_equal(0, dcmctl_key_resolve(s, same[i], &k));
		assert_string_equal(k.path, "Device/SubDeviceList/HeadPitch/Position/Sensor/Value");
		assert_string_equal(k.owner, "Device/SubDeviceList/HeadPitch/Position/Sensor");
		assert_string_equal(k.name, "Value");
		assert_true(k.value);
		assert_int_equal(k.where, DCMCTL_KEY_SUB);
	}
	/* a configuration key, a device key (both spellings), a RobotConfig key */
	assert_int_equal(0, dcmctl_key_resolve(s, "HeadPitch/Position/Sensor/jointZeroPosition", &k));
	assert_false(k.value);
	assert_string_equal(k.name, "jointZeroPosition");
	assert_int_equal(0, dcmctl_key_resolve(s, "Device/DeviceList/ChestBoard/BodyId", &k));
	assert_int_equal(k.where, DCMCTL_KEY_DEV);
	assert_string_equal(k.owner, "Device/DeviceList/ChestBoard");
	assert_int_equal(0, dcmctl_key_resolve(s, "DeviceList/ChestBoard/BodyId", &k));
	assert_string_equal(k.path, "Device/DeviceList/ChestBoard/BodyId");
	assert_int_equal(0, dcmctl_key_resolve(s, "RobotConfig/Body/Type", &k));
	assert_int_equal(k.where, DCMCTL_KEY_ROBOT);
	/* not keys */
	assert_int_equal(-ENOENT, dcmctl_key_resolve(s, "HeadPitch/Position", &k));
	assert_int_equal(-ENOENT, dcmctl_key_resolve(s, "Device/DeviceList/ChestBoard", &k));
	assert_int_equal(-ENOENT, dcmctl_key_resolve(s, "RobotConfig/Body", &k));
	assert_int_equal(-ENOENT, dcmctl_key_resolve(s, "HeadPitch/Position/Sensor/Nope", &k));
	assert_int_equal(-EINVAL, dcmctl_key_resolve(s, "", &k));
	assert_int_equal(-EINVAL, dcmctl_key_resolve(s, "/etc/passwd", &k));
	assert_int_equal(-EINVAL, dcmctl_key_resolve(s, "HeadPitch/../../x", &k));
	dcm_sysfs_close(s);
}

static void test_suggest(void **state)
{
	static char *const keys[] = {
		"Device/SubDeviceList/HeadYaw/Position/Sensor/Value",
		"Device/SubDeviceList/HeadYaw/Position/Actuator/Value",
		"Device/SubDeviceList/HeadYaw/Position/Actuator/Kp",
		"Device/SubDeviceList/HeadYaw/Position/Actuator/Ki",
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Value",
		"Device/DeviceList/ChestBoard/Ack",
	};
	char out[DCMCTL_MAX_SUGGESTIONS][DCMCTL_KEY_LEN];

	(void)state;
	assert_int_equal(0, dcmctl_edit_distance("", ""));
	assert_int_equal(3, dcmctl_edit_distance("abc", ""));
	assert_int_equal(1, dcmctl_edit_distance("Positon", "Position"));
	assert_int_equal(2, dcmctl_edit_distance("ab", "ba"));
	assert_int_equal(3, dcmctl_edit_distance("kitten", "sitting"));

	/* in the form typed: no prefix, no /Value */
	assert_int_equal(1, dcmctl_suggest(keys, 6, "HeadYaw/Positon/Sensor", out, 3));
	assert_string_equal(out[0], "HeadYaw/Position/Sensor");
	assert_int_equal(1, dcmctl_suggest(keys, 6, "HeadYaw/Position/Sensr/Value", out, 3));
	assert_string_equal(out[0], "HeadYaw/Position/Sensor/Value");
	assert_int_equal(1, dcmctl_suggest(keys, 6, "Device/SubDeviceList/HeadYav/Position/Sensor/Value",
					   out, 3));
	assert_string_equal(out[0], "Device/SubDeviceList/HeadYaw/Position/Sensor/Value");
	/* the nearest only, in list order */
	assert_int_equal(2, dcmctl_suggest(keys, 6, "HeadYaw/Position/Actuator/Kq", out, 3));
	assert_string_equal(out[0], "HeadYaw/Position/Actuator/Kp");
	assert_string_equal(out[1], "HeadYaw/Position/Actuator/Ki");
	assert_int_equal(1, dcmctl_suggest(keys, 6, "HeadYaw/Position/Actuator/Kq", out, 1));
	assert_int_equal(1, dcmctl_suggest(keys, 6, "Device/DeviceList/ChestBord/Ack", out, 3));
	assert_string_equal(out[0], "Device/DeviceList/ChestBoard/Ack");
	/* nothing near */
	assert_int_equal(0, dcmctl_suggest(keys, 6, "Battery/Charge", out, 3));
	assert_int_equal(0, dcmctl_suggest(keys, 6, "x", out, 3));
}

static void test_get_forms_json(void **state)
{
	struct out r;

	(void)state;
	r = RUN(dcmctl_get, "get", "-q", "HeadPitch/Position/Sensor",
		"Device/SubDeviceList/HeadPitch/Position/Sensor/Value", "HeadPitch/Position/Sensor/Gain");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "0.000000\n0.000000\n1.000000\n");
	out_free(&r);

	/* numbers are JSON numbers; text stays text */
	r = RUN(dcmctl_get, "get", "HeadPitch/Position/Sensor/jointZeroPosition",
		"HeadPitch/Position/Sensor/Gain", "Device/DeviceList/ChestBoard/BodyId",
		"Device/DeviceList/HeadBoard/Address", "-j");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"[{\"key\":\"HeadPitch/Position/Sensor/jointZeroPosition\","
		"\"path\":\"Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition\","
		"\"value\":1258},"
		"{\"key\":\"HeadPitch/Position/Sensor/Gain\","
		"\"path\":\"Device/SubDeviceList/HeadPitch/Position/Sensor/Gain\",\"value\":1},"
		"{\"key\":\"Device/DeviceList/ChestBoard/BodyId\","
		"\"path\":\"Device/DeviceList/ChestBoard/BodyId\",\"value\":\"AL1100100000000\"},"
		"{\"key\":\"Device/DeviceList/HeadBoard/Address\","
		"\"path\":\"Device/DeviceList/HeadBoard/Address\",\"value\":2}]\n");
	out_free(&r);

	/* an unknown key in JSON: the error and the suggestions */
	r = RUN(dcmctl_get, "-j", "get", "HeadPich/Position/Sensor");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out,
		"[{\"key\":\"HeadPich/Position/Sensor\",\"error\":\"no such key\","
		"\"suggestions\":[\"HeadPitch/Position/Sensor\"]}]\n");
	out_free(&r);
}

static void test_number(void **state)
{
	bool integer;
	double v;

	(void)state;
	assert_int_equal(0, dcmctl_number("12", &v, &integer));
	assert_true(integer);
	assert_int_equal(0, dcmctl_number("-0.500000\n", &v, &integer));
	assert_false(integer);
	assert_true(v == -0.5);
	assert_int_equal(-EINVAL, dcmctl_number("NAO", &v, &integer));
	assert_int_equal(-EINVAL, dcmctl_number("1e3", &v, &integer));
	assert_int_equal(-EINVAL, dcmctl_number("0x10", &v, &integer));
	assert_int_equal(-EINVAL, dcmctl_number("12 4 first", &v, &integer));
	assert_int_equal(-EINVAL, dcmctl_number("", &v, &integer));
	assert_int_equal(-EINVAL, dcmctl_number("inf", &v, &integer));
}

static void test_info_keys(void **state)
{
	struct out r;

	(void)state;
	r = RUN(dcmctl_cmd_info_keys, "info", "HeadPitch/Position/Sensor");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Device/SubDeviceList/HeadPitch/Position/Sensor/Value: subdevice "
				      "Device/SubDeviceList/HeadPitch/Position/Sensor\n"));
	assert_non_null(strstr(r.out, "\tjointZeroPosition: 1258\n"));
	assert_non_null(strstr(r.out, "\tType: JointPosition\n"));
	out_free(&r);

	r = RUN(dcmctl_cmd_info_keys, "-j", "info", "Device/DeviceList/ChestBoard/BodyId", "Nope");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out,
		"[{\"key\":\"Device/DeviceList/ChestBoard/BodyId\","
		"\"path\":\"Device/DeviceList/ChestBoard/BodyId\","
		"\"owner\":\"Device/DeviceList/ChestBoard\",\"kind\":\"device\",\"keys\":{"
		"\"Address\":32,\"BodyId\":\"AL1100100000000\",\"Bus\":\"I2C-chest\","
		"\"Type\":\"ChestBoard\"}},{\"key\":\"Nope\",\"error\":\"no such key\"}]\n");
	out_free(&r);
}

/* set of a configuration key: its kind and range first, then its file. */
static void test_set_config(void **state)
{
	char path[512], *text = NULL;
	struct out r;
	size_t len = 0;
	FILE *f;

	(void)state;
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Actuator/Kp", "48");
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "40");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, "Device/SubDeviceList/HeadPitch/Position/Actuator/Kp: 40 (was 48)\n");
	out_free(&r);
	snprintf(path, sizeof(path), "%s/dcm0/SubDeviceList/HeadPitch/Position/Actuator/Kp",
		 fake_sysfs_root);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(getline(&text, &len, f) > 0);
	fclose(f);
	assert_string_equal(text, "40\n");	/* over "48\n" */
	free(text);

	r = RUN(dcmctl_set, "-j", "set", "HeadPitch/Position/Actuator/Kp", "41");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"{\"key\":\"HeadPitch/Position/Actuator/Kp\","
		"\"path\":\"Device/SubDeviceList/HeadPitch/Position/Actuator/Kp\","
		"\"value\":41,\"previous\":40}\n");
	out_free(&r);

	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "-5");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.err, "dcmctl: HeadPitch/Position/Actuator/Kp: "
				   "-5 is outside the key's range, 0 to 32767\n");
	out_free(&r);
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "99999");
	assert_int_equal(r.rc, 1);
	out_free(&r);
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "4.5");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "'4.5' is not an integer"));
	out_free(&r);
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "4", "5");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	out_free(&r);
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Kp", "4", "--in", "5");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: set: a configuration key takes no option\n");
	out_free(&r);
	/* a float key's range: GearRatio goes to the board as unsigned Q16.16 */
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Sensor/GearRatio", "201.300000");
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Sensor/GearRatio", "70000");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "70000 is outside the key's range, 0 to 65535"));
	out_free(&r);
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Sensor/GearRatio", "150.5");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	/* the description's keys, and the robot's, are read-only */
	r = RUN(dcmctl_set, "set", "HeadPitch/Position/Actuator/Max", "1");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "read-only: the description sets it"));
	out_free(&r);
	r = RUN(dcmctl_set, "set", "RobotConfig/Body/Type", "X");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "read-only"));
	out_free(&r);
}

static void test_set_warnings(void **state)
{
	char w[4][320];
	struct dcm_sysfs *s;
	double v[2] = { 0.5, -0.1 }, zero = 0;

	(void)state;
	assert_int_equal(0, dcm_sysfs_open(fake_sysfs_root, 0, &s));
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Actuator/Min", "-0.500000");
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Actuator/Max", "0.400000");
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Hardness/Actuator/Value", "1.000000");
	assert_int_equal(1, dcmctl_set_warnings(s, "HeadPitch/Position/Actuator", v, 2, w, 4));
	assert_string_equal(w[0], "HeadPitch/Position/Actuator: 0.5 is above its Max, 0.4: "
				  "clamped to 0.4");
	assert_int_equal(0, dcmctl_set_warnings(s, "HeadPitch/Position/Actuator", v + 1, 1, w, 4));
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Hardness/Actuator/Value", "0.000000");
	assert_int_equal(1, dcmctl_set_warnings(s, "HeadPitch/Position/Actuator", v + 1, 1, w, 4));
	assert_non_null(strstr(w[0], "HeadPitch's stiffness is 0 (HeadPitch/Hardness/Actuator)"));
	assert_int_equal(2, dcmctl_set_warnings(s, "HeadPitch/Position/Actuator", v, 1, w, 4));
	/* a LED has no stiffness; a sensor takes no command */
	assert_int_equal(0, dcmctl_set_warnings(s, "ChestBoard/Led/Red/Actuator", &zero, 1, w, 4));
	assert_int_equal(0, dcmctl_set_warnings(s, "Nope", v, 1, w, 4));
	dcm_sysfs_close(s);
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Actuator/Min", "0.000000");
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Actuator/Max", "0.000000");
}

/* preferences add: only the RobotConfig Device keys the schema names. */
static void test_prefs_robot_keys(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(0, dcmctl_prefs_known_robot_key("RobotConfig/Body/Device/LeftArm/Version", f));
	assert_int_equal(0, dcmctl_prefs_known_robot_key("RobotConfig/Head/Device/Camera/Version", f));
	assert_int_equal(0, dcmctl_prefs_known_robot_key("RobotConfig/Body/Type", f));
	assert_int_equal(0, dcmctl_prefs_known_robot_key("Device/SubDeviceList/X/Kp", f));
	fflush(f);
	assert_int_equal(0, len);
	assert_int_equal(-EINVAL,
			 dcmctl_prefs_known_robot_key("RobotConfig/Body/Device/LeftArm/Versoin", f));
	fclose(f);
	assert_non_null(strstr(buf, "RobotConfig/Body/Device/LeftArm/Versoin: no such key"));
	assert_non_null(strstr(buf, "did you mean RobotConfig/Body/Device/LeftArm/Version?"));
	free(buf);
}

/* Every command: an unknown option, an extra argument: exit 2 and why, nothing done. */
static void test_usage_errors(void **state)
{
	static const struct {
		int (*fn)(const struct dcmctl_opts *, FILE *, FILE *);
		const char *name, *bogus_err;
	} cmds[] = {
		{ dcmctl_list, "list", "dcmctl: list: unknown option '--bogus'\n" },
		{ dcmctl_get, "get", "dcmctl: get: unknown option '--bogus'\n" },
		{ dcmctl_tree, "tree", "dcmctl: tree: unknown option '--bogus'\n" },
		{ dcmctl_set, "set", "dcmctl: set: unknown option '--bogus'\n" },
		{ dcmctl_time, "time", "dcmctl: time: unknown option '--bogus'\n" },
		{ dcmctl_watch, "watch", "dcmctl: watch: unknown option '--bogus'\n" },
		{ dcmctl_stats, "stats", "dcmctl: stats: unknown option '--bogus'\n" },
		{ dcmctl_events, "events", "dcmctl: events: unknown option '--bogus'\n" },
		{ dcmctl_preferences, "preferences", "dcmctl: preferences: unknown option '--bogus'\n" },
		{ dcmctl_calibrate, "calibrate", "dcmctl: calibrate: unknown option '--bogus'\n" },
		{ dcmctl_special, "special", "dcmctl: special: unknown option '--bogus'\n" },
		{ dcmctl_cmd_info_keys, "info", "dcmctl: info: unknown option '--bogus'\n" },
	};
	struct out r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		r = RUN(cmds[i].fn, (char *)cmds[i].name, "HeadPitch/Position/Sensor", "--bogus", "x");
		assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
		assert_string_equal(r.out, "");
		assert_string_equal(r.err, cmds[i].bogus_err);
		out_free(&r);
	}
	/* too many arguments */
	r = RUN(dcmctl_list, "list", "A", "B");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: list: unexpected argument 'B'\n");
	out_free(&r);
	r = RUN(dcmctl_time, "time", "-5", "6");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	assert_string_equal(r.err, "dcmctl: time: unexpected argument '6'\n");
	out_free(&r);
	r = RUN(dcmctl_time, "time", "soon");
	assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
	out_free(&r);
	/* "--" then an option-like argument: an argument */
	r = RUN(dcmctl_list, "list", "--", "--x*");
	assert_int_equal(r.rc, DCMCTL_EXIT_FAIL);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "dcmctl: --x*: no key matches\n");
	out_free(&r);
	/* the options after the pattern: -j taken by dcmctl_parse_args(dcmctl_commands, ) */
	r = RUN(dcmctl_list, "list", "HeadPitch/Position/Sensor/T*", "-j");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "[\"Device/SubDeviceList/HeadPitch/Position/Sensor/Type\"]\n");
	out_free(&r);
}

/* The one matcher of list, get and watch: every form of the key grammar. */
static void test_glob_matches(void **state)
{
	static const struct {
		const char *pattern, *path;
		bool match;
	} cases[] = {
#define SUB "Device/SubDeviceList/"
		/* the full path, and without the prefix */
		{ SUB "*", SUB "HeadYaw/Position/Sensor/Value", true },
		{ "HeadYaw/*/Value", SUB "HeadYaw/Position/Sensor/Value", true },
		{ "HeadYaw/*/Kp", SUB "HeadYaw/Position/Actuator/Kp", true },
		/* a subdevice's value without /Value, both ways */
		{ "*/Hardness/Actuator", SUB "HeadYaw/Hardness/Actuator/Value", true },
		{ SUB "*/Sensor", SUB "HeadYaw/Position/Sensor/Value", true },
		{ "HeadYaw/Position/Sensor", SUB "HeadYaw/Position/Sensor/Value", true },
		/* only a Value: a subdevice's other keys are no subdevice */
		{ "*/Actuator", SUB "HeadYaw/Position/Actuator/Kp", false },
		{ "*/Position", SUB "HeadYaw/Position/Actuator/Value", false },
		/* a device's and RobotConfig's keys: their full path only */
		{ "*/Bus", "Device/DeviceList/ChestBoard/Bus", true },
		{ "ChestBoard/*", "Device/DeviceList/ChestBoard/Bus", false },
		{ "RobotConfig/*", "RobotConfig/Body/Type", true },
		{ "Body/*", "RobotConfig/Body/Type", false },
		{ "*/Value", "Device/DeviceList/X/Value", true },
		{ "Device/DeviceList/X", "Device/DeviceList/X/Value", false },
		/* fnmatch() without flags: '*' crosses '/', [] and ? */
		{ "Head*Sensor", SUB "HeadYaw/Position/Sensor/Value", true },
		{ "Head[PY]?w/*", SUB "HeadYaw/Position/Sensor/Value", true },
		{ "Head[P]*", SUB "HeadYaw/Position/Sensor/Value", false },
		{ "Nothing*", SUB "HeadYaw/Position/Sensor/Value", false },
		/* "/Value" alone is no subdevice */
		{ "", SUB "Value", false },
#undef SUB
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (dcmctl_glob_matches(cases[i].pattern, cases[i].path) != cases[i].match)
			fail_msg("'%s' against %s: %s expected", cases[i].pattern, cases[i].path,
				 cases[i].match ? "a match" : "none");
}

/* $DCM_SYSFS_ROOT, when there is no -r. */
static void test_env_root(void **state)
{
	struct dcmctl_opts o;
	char *args[] = { "dcmctl", "list", NULL };

	(void)state;
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, 2, args, &o), DCMCTL_RUN);
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
		cmocka_unit_test(test_glob_matches),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_get_options),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_env_root),
		cmocka_unit_test(test_key_grammar),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_get_forms_json),
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_info_keys),
		cmocka_unit_test(test_set_config),
		cmocka_unit_test(test_set_warnings),
		cmocka_unit_test(test_prefs_robot_keys),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests_name("dcmctl_keys", tests, setup, teardown);
}
