// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: libdcm's calls for clients (0.6) on a fake key tree
 * (fake_sysfs.c) and a fake /dev/dcm0 (fake_dcm.c):
 *
 *   getPrefix; the tree: devices, subdevices, their keys and who may write
 *   them, RobotConfig keys, names with and without prefix and /Value;
 *   handles and frame indices to names and back; a description that
 *   changes under the read; configuration keys read and written as
 *   numbers; preferences add through the library (its messages, its
 *   refusals).
 */
#include <errno.h>
#include <math.h>
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

#include "fake_dcm.h"
#include "fake_sysfs.h"
#include "libdcm-desc.h"
#include "libdcm-private.h"

static int setup(void **state)
{
	(void)state;
	fake_reset();
	/* the kernel side of the fake tree's three subdevices */
	fake.subs[0] = (struct fake_sub){ "ChestBoard/Led/Red/Actuator", DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.subs[1] = (struct fake_sub){ "HeadPitch/Position/Sensor", 0, 0, 0 };
	fake.subs[2] = (struct fake_sub){ "HeadPitch/Position/Actuator", DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.n_subs = 3;
	fake.info_n_devices = 2;
	return fake_sysfs_setup("test_client");
}

static int teardown(void **state)
{
	(void)state;
	return fake_sysfs_teardown();
}

static void test_prefix(void **state)
{
	const char *const *p;
	size_t n = 0;

	(void)state;
	p = dcm_get_prefix(&n);
	assert_int_equal(n, 3);
	assert_string_equal(p[0], "Device/DeviceList/");
	assert_string_equal(p[1], "Device/SubDeviceList/");
	assert_string_equal(p[2], "RobotConfig/");
	assert_ptr_equal(dcm_get_prefix(NULL), p);
}

static const struct dcm_tree_key *key_of(const struct dcm_tree_key *keys, size_t n,
					 const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

static void test_tree_sysfs(void **state)
{
	const struct dcm_tree_subdevice *sd;
	const struct dcm_tree_device *d;
	struct dcm_tree *t;
	uint32_t h;
	size_t i;

	(void)state;
	assert_int_equal(dcm_tree_read(NULL, fake_sysfs_root, 0, &t), 0);
	assert_int_equal(dcm_tree_index(t), 0);
	assert_int_equal(dcm_tree_generation(t), 0);

	assert_int_equal(dcm_tree_n_devices(t), 2);
	d = dcm_tree_device(t, 0);
	assert_string_equal(d->name, "ChestBoard");
	assert_string_equal(d->type, "ChestBoard");
	assert_string_equal(d->bus, "I2C-chest");
	assert_int_equal(d->address, 32);
	assert_int_equal(d->n_keys, 4);	/* Address, BodyId, Bus, Type */
	assert_string_equal(d->keys[0].name, "Address");
	assert_string_equal(d->keys[1].name, "BodyId");
	assert_string_equal(dcm_tree_device(t, 1)->name, "HeadBoard");
	assert_null(dcm_tree_device(t, 2));
	assert_ptr_equal(dcm_tree_find_device(t, "Device/DeviceList/HeadBoard"),
			 dcm_tree_device(t, 1));
	assert_ptr_equal(dcm_tree_find_device(t, "ChestBoard"), dcm_tree_device(t, 0));
	assert_null(dcm_tree_find_device(t, "Nowhere"));

	assert_int_equal(dcm_tree_n_subdevices(t), 3);
	assert_string_equal(dcm_tree_subdevice(t, 0)->name, "ChestBoard/Led/Red/Actuator");
	assert_string_equal(dcm_tree_subdevice(t, 1)->name, "HeadPitch/Position/Actuator");
	sd = dcm_tree_subdevice(t, 2);
	assert_string_equal(sd->name, "HeadPitch/Position/Sensor");
	assert_string_equal(sd->type, "JointPosition");
	assert_string_equal(sd->device, "HeadBoard");
	assert_int_equal(sd->number, 2);
	assert_int_equal(sd->handle, 0);
	/* Value Gain Offset Min Max Type Device SubDeviceNumber jointZeroPosition */
	assert_int_equal(sd->n_keys, 9);
	for (i = 1; i < sd->n_keys; i++)
		assert_true(strcmp(sd->keys[i - 1].name, sd->keys[i].name) < 0);
	assert_non_null(key_of(sd->keys, sd->n_keys, "jointZeroPosition"));
	assert_non_null(key_of(sd->keys, sd->n_keys, "Value"));
	/* a sibling's keys are not this one's */
	assert_int_equal(dcm_tree_subdevice(t, 1)->n_keys, 8);
	assert_null(dcm_tree_subdevice(t, 3));

	assert_ptr_equal(dcm_tree_find(t, "HeadPitch/Position/Sensor"), sd);
	assert_ptr_equal(dcm_tree_find(t, "Device/SubDeviceList/HeadPitch/Position/Sensor"), sd);
	assert_ptr_equal(dcm_tree_find(t, "Device/SubDeviceList/HeadPitch/Position/Sensor/Value"),
			 sd);
	assert_ptr_equal(dcm_tree_find(t, "HeadPitch/Position/Sensor/Value"), sd);
	assert_null(dcm_tree_find(t, "HeadPitch/Position"));
	assert_null(dcm_tree_find(t, "/Value"));
	assert_null(dcm_tree_find(t, ""));

	assert_int_equal(dcm_tree_n_robot_keys(t), 2);
	assert_string_equal(dcm_tree_robot_key(t, 0)->name, "Body/Type");
	assert_string_equal(dcm_tree_robot_key(t, 1)->name, "Head/Device/TouchBoard/Version");
	assert_null(dcm_tree_robot_key(t, 2));

	/* no handles without a struct dcm */
	assert_null(dcm_tree_by_index(t, 0));
	assert_null(dcm_tree_handle_name(t, 0x30000));
	assert_int_equal(dcm_tree_handle(t, "HeadPitch/Position/Sensor", &h), -EINVAL);
	dcm_tree_free(t);

	/* a controller without a description: an empty tree */
	assert_int_equal(dcm_tree_read(NULL, fake_sysfs_root, 1, &t), 0);
	assert_int_equal(dcm_tree_n_devices(t), 0);
	assert_int_equal(dcm_tree_n_subdevices(t), 0);
	assert_int_equal(dcm_tree_n_robot_keys(t), 0);
	assert_null(dcm_tree_find(t, "HeadPitch/Position/Sensor"));
	dcm_tree_free(t);

	/* no such controller */
	assert_int_equal(dcm_tree_read(NULL, fake_sysfs_root, 7, &t), -ENOENT);
	assert_null(t);
	assert_non_null(strstr(dcm_last_error(), "no such controller"));
	assert_int_equal(dcm_tree_read(NULL, fake_sysfs_root, 0, NULL), -EINVAL);
	dcm_tree_free(NULL);
	assert_int_equal(dcm_tree_n_subdevices(NULL), 0);
}

static void test_tree_handles(void **state)
{
	const struct dcm_tree_subdevice *sd;
	struct dcm_tree *t;
	struct dcm *dcm;
	uint32_t h = 0;
	unsigned int i;

	(void)state;
	assert_int_equal(dcm_open("/dev/null", &dcm), 0);
	/* the controller is the handle's (dcm0), whatever @index says */
	assert_int_equal(dcm_tree_read(dcm, fake_sysfs_root, 5, &t), 0);
	assert_int_equal(dcm_tree_index(t), 0);
	assert_int_equal(dcm_tree_generation(t), FAKE_GEN);
	for (i = 0; i < 3; i++) {
		sd = dcm_tree_by_index(t, i);
		assert_non_null(sd);
		assert_string_equal(sd->name, fake.subs[i].name);
		assert_int_equal(sd->handle, fake_handle(i));
		assert_int_equal(sd->flags, fake.subs[i].flags);
		assert_ptr_equal(dcm_tree_by_handle(t, fake_handle(i)), sd);
		assert_string_equal(dcm_tree_handle_name(t, fake_handle(i)), fake.subs[i].name);
	}
	assert_null(dcm_tree_by_index(t, 3));
	/* another generation's handle names nothing */
	assert_null(dcm_tree_by_handle(t, ((FAKE_GEN + 1) << 16) | 1));
	assert_null(dcm_tree_handle_name(t, ((FAKE_GEN + 1) << 16) | 1));

	assert_int_equal(dcm_tree_handle(t, "Device/SubDeviceList/HeadPitch/Position/Sensor/Value",
					 &h), 0);
	assert_int_equal(h, fake_handle(1));
	assert_int_equal(dcm_tree_handle(t, "HeadPitch/Position/Actuator", &h), 0);
	assert_int_equal(h, fake_handle(2));
	assert_int_equal(dcm_tree_handle(t, "HeadYaw/Position/Actuator", &h), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no such subdevice"));
	assert_int_equal(dcm_tree_find(t, "HeadPitch/Position/Actuator")->flags,
			 LIBDCM_KEY_ACTUATOR);
	dcm_tree_free(t);

	/* sysfs shows a subdevice the kernel does not know: being replaced */
	fake.n_subs = 2;
	assert_int_equal(dcm_tree_read(dcm, fake_sysfs_root, 0, &t), -EAGAIN);
	assert_null(t);
	assert_non_null(strstr(dcm_last_error(), "kept changing"));

	/* the kernel counts another number of devices: being replaced */
	fake.n_subs = 3;
	fake.info_n_devices = 3;
	assert_int_equal(dcm_tree_read(dcm, fake_sysfs_root, 0, &t), -EAGAIN);
	assert_null(t);
	fake.info_n_devices = 2;
	assert_int_equal(dcm_tree_read(dcm, fake_sysfs_root, 0, &t), 0);
	dcm_tree_free(t);
	dcm_close(dcm);
}

static char *slurp(const char *rel)
{
	char path[512], *buf = calloc(1, 256);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_sysfs_root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(buf);
	if (!fread(buf, 1, 255, f))
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static void test_config_keys(void **state)
{
	const char *kp = "dcm0/SubDeviceList/HeadPitch/Position/Actuator/Kp";
	char path[512], *text;
	struct dcm_sysfs *s;
	struct dcm_tree *t;
	uint32_t flags;
	double v;

	(void)state;
	fake_sysfs_put(kp, "30");
	snprintf(path, sizeof(path), "%s/%s", fake_sysfs_root, kp);
	chmod(path, 0644);
	snprintf(path, sizeof(path), "%s/dcm0/SubDeviceList/HeadPitch/Position/Actuator/Value",
		 fake_sysfs_root);
	chmod(path, 0664);
	snprintf(path, sizeof(path), "%s/dcm0/SubDeviceList/HeadPitch/Position/Actuator/Type",
		 fake_sysfs_root);
	chmod(path, 0444);
	assert_int_equal(dcm_sysfs_open(fake_sysfs_root, 0, &s), 0);

	assert_int_equal(dcm_sysfs_key_flags(s, "HeadPitch/Position/Actuator/Kp", &flags), 0);
	assert_int_equal(flags, LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_CONFIG);
	assert_int_equal(dcm_sysfs_key_flags(s, "Device/SubDeviceList/HeadPitch/Position/Actuator/Value",
					     &flags), 0);
	assert_int_equal(flags, LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_COMMAND);
	assert_int_equal(dcm_sysfs_key_flags(s, "HeadPitch/Position/Actuator/Type", &flags), 0);
	assert_int_equal(flags, 0);
	assert_int_equal(dcm_sysfs_key_flags(s, "HeadPitch/Position/Actuator/Kq", &flags), -ENOENT);
	assert_int_equal(dcm_sysfs_key_flags(s, "HeadPitch/../x", &flags), -EINVAL);

	/* the tree says the same */
	assert_int_equal(dcm_tree_read(NULL, fake_sysfs_root, 0, &t), 0);
	{
		const struct dcm_tree_subdevice *sd = dcm_tree_find(t, "HeadPitch/Position/Actuator");

		assert_int_equal(key_of(sd->keys, sd->n_keys, "Kp")->flags,
				 LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_CONFIG);
		assert_int_equal(key_of(sd->keys, sd->n_keys, "Value")->flags,
				 LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_COMMAND);
		assert_int_equal(key_of(sd->keys, sd->n_keys, "Type")->flags, 0);
	}
	dcm_tree_free(t);

	/* numbers: read, written as an integer or with six decimals */
	assert_int_equal(dcm_sysfs_get_double(s, "HeadPitch/Position/Actuator/Kp", &v), 0);
	assert_true(v == 30.0);
	assert_int_equal(dcm_sysfs_set_double(s, "HeadPitch/Position/Actuator/Kp", 40.0), 0);
	text = slurp(kp);
	assert_string_equal(text, "40");
	free(text);
	assert_int_equal(dcm_sysfs_set_double(s, "HeadPitch/Position/Actuator/Kp", -0.25), 0);
	text = slurp(kp);
	assert_string_equal(text, "-0.250000");
	free(text);
	assert_int_equal(dcm_sysfs_get_double(s, "HeadPitch/Position/Actuator/Kp", &v), 0);
	assert_true(v == -0.25);
	assert_int_equal(dcm_sysfs_write(s, "Device/SubDeviceList/HeadPitch/Position/Actuator/Kp",
					 "12"), 0);
	assert_int_equal(dcm_sysfs_get_double(s, "HeadPitch/Position/Actuator/Kp", &v), 0);
	assert_true(v == 12.0);
	assert_int_equal(dcm_sysfs_get_double(s, "RobotConfig/Head/Device/TouchBoard/Version", &v),
			 0);
	assert_true(v == 1.0);

	/* errors */
	assert_int_equal(dcm_sysfs_get_double(s, "HeadPitch/Position/Actuator/Type", &v), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "is not a number"));
	assert_int_equal(dcm_sysfs_get_double(s, "HeadPitch/Position/Actuator/Kq", &v), -ENOENT);
	assert_int_equal(dcm_sysfs_set_double(s, "HeadPitch/Position/Actuator/Kp", NAN), -EINVAL);
	assert_int_equal(dcm_sysfs_set_double(s, "HeadPitch/Position/Actuator/Kp", 1e300), -ERANGE);
	assert_int_equal(dcm_sysfs_write(s, "HeadPitch/Position/Actuator/Kq", "1"), -ENOENT);
	assert_non_null(strstr(dcm_last_error(), "no such key"));
	assert_int_equal(dcm_sysfs_write(s, "HeadPitch/Position/Actuator", "1"), -ENOENT);
	assert_int_equal(dcm_sysfs_write(s, "", "1"), -EINVAL);
	assert_int_equal(dcm_sysfs_write(s, "HeadPitch/Position/Actuator/Kp", NULL), -EINVAL);
	if (geteuid() != 0) {
		assert_int_equal(dcm_sysfs_write(s, "HeadPitch/Position/Actuator/Type", "x"),
				 -EACCES);
		assert_non_null(strstr(dcm_last_error(), "configuration keys need root"));
	}
	dcm_sysfs_close(s);
}

/* ------------------------------------------------------------------
 * Preferences through the library
 */

struct logged {
	char text[8192];
	unsigned int errors, warnings;
};

static void log_cb(void *arg, int level, const char *msg)
{
	struct logged *l = arg;
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%d %s\n", level, msg);
	if (level <= LIBDCM_LOG_ERR)
		l->errors++;
	else
		l->warnings++;
}

static void test_prefs_targets(void **state)
{
	(void)state;
	assert_string_equal(dcm_prefs_target_name(LIBDCM_PREFS_MAIN), "Main");
	assert_string_equal(dcm_prefs_target_name(LIBDCM_PREFS_CHEST), "Chest");
	assert_string_equal(dcm_prefs_target_name(LIBDCM_PREFS_HEAD), "Head");
	assert_string_equal(dcm_prefs_target_name(LIBDCM_PREFS_ALL), "All");
	assert_null(dcm_prefs_target_name(4));
	assert_null(dcm_prefs_target_name(-1));
	assert_int_equal(dcm_prefs_target_from_name("chest"), LIBDCM_PREFS_CHEST);
	assert_int_equal(dcm_prefs_target_from_name("ALL"), LIBDCM_PREFS_ALL);
	assert_int_equal(dcm_prefs_target_from_name("Body"), -EINVAL);
	assert_int_equal(dcm_prefs_target_from_name(NULL), -EINVAL);
}

static void test_prefs_add(void **state)
{
	char dir[64], etc[128], share[128], main_xml[256], *text;
	struct dcm_prefs_opts o;
	struct dcm_prefs_added a;
	struct logged l;
	FILE *f;
	long n;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_client_prefs.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	snprintf(share, sizeof(share), "%s/share", dir);
	mkdir(share, 0755);
	snprintf(main_xml, sizeof(main_xml), "%s/main.xml", etc);

	memset(&o, 0, sizeof(o));
	memset(&l, 0, sizeof(l));
	o.device_xml = DCM_TEST_DATA "/good/Device.xml";
	o.schema_dir = DCM_TEST_DATA "/../../data";
	o.etc = etc;
	o.share = share;
	o.log = log_cb;
	o.log_arg = &l;

	/* refused before any file: All, a bad target, no key, a bad type */
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_ALL, "X/Kp", "1", NULL, &a), -EINVAL);
	assert_non_null(strstr(l.text, "one target: Main, Chest or Head"));
	assert_int_equal(dcm_prefs_add(&o, 7, "X/Kp", "1", NULL, &a), -EINVAL);
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "", "1", NULL, &a), -EINVAL);
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadPitch/Position/Actuator/Kp",
				       "1", "double", &a), -EINVAL);
	assert_non_null(strstr(dcm_last_error(), "unknown type 'double'"));
	assert_int_equal(l.errors, 4);

	/* added, then replaced */
	memset(&l, 0, sizeof(l));
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadPitch/Position/Actuator/Kp",
				       "55", NULL, &a), 0);
	assert_int_equal(l.errors, 0);
	assert_true(a.added);
	assert_int_equal(a.target, LIBDCM_PREFS_MAIN);
	assert_int_equal(a.kind, LIBDCM_KEY_INT);
	assert_string_equal(a.file, main_xml);
	assert_string_equal(a.from, "");
	assert_string_equal(a.key, "Device/SubDeviceList/HeadPitch/Position/Actuator/Kp");
	f = fopen(main_xml, "r");
	assert_non_null(f);
	text = calloc(1, 65536);
	assert_non_null(text);
	n = (long)fread(text, 1, 65535, f);
	fclose(f);
	assert_true(n > 0);
	assert_non_null(strstr(text, "HeadPitch/Position/Actuator/Kp\" Type=\"int\" Value=\"55\""));
	free(text);
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadPitch/Position/Actuator/Kp",
				       "56", NULL, &a), 0);
	assert_false(a.added);
	assert_string_equal(a.from, main_xml);

	/* a key the description does not know; a value out of its kind */
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadPitch/Position/Actuator/Kq",
				       "1", NULL, &a), -EINVAL);
	assert_true(l.errors > 0);
	assert_non_null(strstr(l.text, "Kq"));
	memset(&l, 0, sizeof(l));
	assert_int_equal(dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadPitch/Position/Actuator/Kp",
				       "fast", NULL, NULL), -EINVAL);
	assert_true(l.errors > 0);
	/* the library's last error is the last message */
	assert_non_null(strstr(l.text, dcm_last_error()));

	unlink(main_xml);
	rmdir(etc);
	rmdir(share);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix),
		cmocka_unit_test_setup_teardown(test_tree_sysfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_handles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_keys, setup, teardown),
		cmocka_unit_test(test_prefs_targets),
		cmocka_unit_test(test_prefs_add),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
