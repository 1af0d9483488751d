// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_client_test: libdcm's calls for clients against the real module and
 * the description dcmd loaded (linked with libdcm):
 *
 *   - the tree read from sysfs holds what DCM_IOC_INFO counts, every
 *     subdevice's handle is DCM_IOC_LOOKUP's, and every entry of a frame
 *     has a name (index -> name -> handle -> index);
 *   - getPrefix, devices and their keys, RobotConfig keys;
 *   - a configuration key written and read back as a number, and the
 *     kernel's refusals (range, kind, read-only key) as errors;
 *   - preferences save of the running description into a scratch
 *     directory, add to it, and load of it: the same values keep the
 *     running description (description_swaps does not move), another Kp
 *     replaces it (one real swap) and the Kp saved puts it back (one more).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libdcm.h>
#include <libdcm-desc.h>

#include "kselftest_harness.h"
#include "dcm_test.h"

#define SCRATCH "/tmp/dcm_client_test"

FIXTURE(client) {
	struct dcm *dcm;
	struct dcm_tree *tree;
	struct dcm_info info;
};

FIXTURE_SETUP(client)
{
	ASSERT_EQ(0, dcm_open("/dev/dcm0", &self->dcm)) TH_LOG("%s", dcm_last_error());
	ASSERT_EQ(0, dcm_get_info(self->dcm, &self->info));
	ASSERT_EQ(0, dcm_tree_read(self->dcm, NULL, 0, &self->tree))
		TH_LOG("%s", dcm_last_error());
}

FIXTURE_TEARDOWN(client)
{
	dcm_tree_free(self->tree);
	dcm_close(self->dcm);
}

static const struct dcm_tree_key *key_of(const struct dcm_tree_key *k, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(k[i].name, name))
			return &k[i];
	return NULL;
}

TEST_F(client, tree_is_the_kernels)
{
	const struct dcm_tree_subdevice *sd;
	struct dcm_key k;
	size_t i;

	ASSERT_GT(self->info.n_subdevices, 100);
	EXPECT_EQ(self->info.n_subdevices, dcm_tree_n_subdevices(self->tree));
	EXPECT_EQ(self->info.n_devices, dcm_tree_n_devices(self->tree));
	EXPECT_EQ(0, dcm_tree_index(self->tree));
	for (i = 0; i < dcm_tree_n_subdevices(self->tree); i++) {
		sd = dcm_tree_subdevice(self->tree, i);
		ASSERT_EQ(0, dcm_lookup(self->dcm, sd->name, &k)) TH_LOG("%s", sd->name);
		EXPECT_EQ(k.handle, sd->handle) TH_LOG("%s", sd->name);
		EXPECT_EQ(k.flags, sd->flags) TH_LOG("%s", sd->name);
		EXPECT_EQ(LIBDCM_HANDLE_GEN(k.handle), dcm_tree_generation(self->tree));
		EXPECT_EQ(sd, dcm_tree_by_index(self->tree, LIBDCM_HANDLE_INDEX(k.handle)));
		EXPECT_STREQ(sd->name, dcm_tree_handle_name(self->tree, k.handle));
		EXPECT_NE(NULL, key_of(sd->keys, sd->n_keys, "Value")) TH_LOG("%s", sd->name);
	}

	sd = dcm_tree_find(self->tree, "Device/SubDeviceList/HeadYaw/Position/Actuator/Value");
	ASSERT_NE(NULL, sd);
	EXPECT_STREQ("Joint", sd->type);
	EXPECT_TRUE(sd->flags & LIBDCM_KEY_ACTUATOR);
	EXPECT_EQ(LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_COMMAND,
		  key_of(sd->keys, sd->n_keys, "Value")->flags);
	EXPECT_EQ(LIBDCM_TREE_KEY_WRITABLE | LIBDCM_TREE_KEY_CONFIG,
		  key_of(sd->keys, sd->n_keys, "Kp")->flags);
	EXPECT_EQ(0, key_of(sd->keys, sd->n_keys, "Type")->flags);
	sd = dcm_tree_find(self->tree, "HeadYaw/Position/Sensor");
	ASSERT_NE(NULL, sd);
	EXPECT_FALSE(sd->flags & LIBDCM_KEY_ACTUATOR);
	EXPECT_EQ(0, key_of(sd->keys, sd->n_keys, "Value")->flags);
}

TEST_F(client, frame_entries_have_names)
{
	struct dcm_values_frame f;
	size_t i;

	memset(&f, 0, sizeof(f));
	ASSERT_EQ(0, dcm_read_frame(self->dcm, &f)) TH_LOG("%s", dcm_last_error());
	EXPECT_EQ(dcm_tree_generation(self->tree), f.generation);
	EXPECT_EQ(self->info.n_subdevices, f.n_values);
	for (i = 0; i < f.n_values; i++)
		EXPECT_NE(NULL, dcm_tree_by_index(self->tree, (unsigned int)i)) TH_LOG("%zu", i);
	dcm_values_frame_release(&f);
}

TEST_F(client, prefix_devices_robot_keys)
{
	const struct dcm_tree_device *d;
	const char *const *p;
	size_t n, i;
	bool body_type = false;

	p = dcm_get_prefix(&n);
	ASSERT_EQ(3, n);
	EXPECT_STREQ("Device/DeviceList/", p[0]);
	EXPECT_STREQ("Device/SubDeviceList/", p[1]);
	EXPECT_STREQ("RobotConfig/", p[2]);

	d = dcm_tree_find_device(self->tree, "Device/DeviceList/ChestBoard");
	ASSERT_NE(NULL, d);
	EXPECT_STREQ("ChestBoard", d->type);
	EXPECT_NE(NULL, key_of(d->keys, d->n_keys, "BodyId"));
	EXPECT_NE(NULL, key_of(d->keys, d->n_keys, "Available"));
	for (i = 0; i < dcm_tree_n_robot_keys(self->tree); i++)
		if (!strcmp(dcm_tree_robot_key(self->tree, i)->name, "Body/Type"))
			body_type = true;
	EXPECT_TRUE(body_type);
}

TEST(config_keys)
{
	const char *kp = "HeadYaw/Position/Actuator/Kp";
	struct dcm_sysfs *s;
	double old, v;

	if (geteuid())
		SKIP(return, "configuration keys need root");
	ASSERT_EQ(0, dcm_sysfs_open(NULL, 0, &s));
	ASSERT_EQ(0, dcm_sysfs_get_double(s, kp, &old)) TH_LOG("%s", dcm_last_error());
	ASSERT_EQ(0, dcm_sysfs_set_double(s, kp, old + 1)) TH_LOG("%s", dcm_last_error());
	ASSERT_EQ(0, dcm_sysfs_get_double(s, "Device/SubDeviceList/HeadYaw/Position/Actuator/Kp",
					  &v));
	EXPECT_EQ(old + 1, v);
	EXPECT_EQ(0, dcm_sysfs_set_double(s, kp, old));

	/* the kernel's refusals, said */
	EXPECT_EQ(-ERANGE, dcm_sysfs_set_double(s, "HeadYaw/Position/Actuator/MotorNumber", 5));
	EXPECT_NE(NULL, strstr(dcm_last_error(), "range"));
	EXPECT_EQ(-EINVAL, dcm_sysfs_write(s, kp, "fast"));
	EXPECT_EQ(-EINVAL, dcm_sysfs_set_double(s, kp, 0.5));
	EXPECT_EQ(-EACCES, dcm_sysfs_write(s, "HeadYaw/Position/Actuator/Type", "Led"));
	EXPECT_EQ(-ENOENT, dcm_sysfs_write(s, "HeadYaw/Position/Actuator/Kq", "1"));
	EXPECT_EQ(0, dcm_sysfs_get_double(s, kp, &v));
	EXPECT_EQ(old, v);
	dcm_sysfs_close(s);
}

static char messages[8192];

static void log_cb(void *arg, int level, const char *msg)
{
	size_t n = strlen(messages);

	(void)arg;
	snprintf(messages + n, sizeof(messages) - n, "%d %s\n", level, msg);
}

/* HeadYaw's Kp as the running description has it. */
static int read_kp(int *kp)
{
	char buf[32];

	if (dcm_read_sysfs(DCM_SYSFS "/SubDeviceList/HeadYaw/Position/Actuator/Kp", buf,
			   sizeof(buf)))
		return -1;
	*kp = atoi(buf);
	return 0;
}

TEST(preferences)
{
	struct dcm_prefs_saved saved[3];
	struct dcm_prefs_loaded loaded;
	struct dcm_prefs_added added;
	struct dcm_prefs_opts o;
	struct dcm_tree *before, *after;
	char value[16];
	int kp, kp2;
	size_t n = 0;
	long swaps;

	if (geteuid())
		SKIP(return, "loading needs root");
	ASSERT_EQ(0, system("rm -rf " SCRATCH " && mkdir -p " SCRATCH));
	memset(&o, 0, sizeof(o));
	o.etc = SCRATCH;
	o.log = log_cb;

	/* save: the running description into the scratch directory */
	ASSERT_EQ(0, dcm_prefs_save(&o, LIBDCM_PREFS_ALL, saved, &n)) TH_LOG("%s", messages);
	ASSERT_EQ(3, n);
	EXPECT_STREQ(SCRATCH "/main.xml", saved[0].file);
	EXPECT_STREQ(SCRATCH "/body.xml", saved[1].file);
	EXPECT_EQ(0, access(SCRATCH "/head.xml", R_OK));
	EXPECT_GT(saved[1].live, 0);

	/* add: a key of the file, its value as it is; a key nobody knows */
	ASSERT_EQ(0, dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadYaw/Position/Actuator/Kp", "32",
				   NULL, &added)) TH_LOG("%s", messages);
	EXPECT_EQ(LIBDCM_KEY_INT, added.kind);
	EXPECT_EQ(-EINVAL, dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadYaw/Position/Actuator/Kq",
					 "1", NULL, NULL));
	EXPECT_NE(NULL, strstr(messages, "Kq"));

	/* load: the same values, so the same description, not swapped */
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, dcm_tree_read(NULL, NULL, 0, &before));
	ASSERT_EQ(0, dcm_prefs_load(&o, LIBDCM_PREFS_ALL, &loaded)) TH_LOG("%s", messages);
	EXPECT_STREQ("dcm0", loaded.controller);
	EXPECT_EQ(dcm_tree_n_subdevices(before), loaded.n_subdevices);
	ASSERT_EQ(0, dcm_tree_read(NULL, NULL, 0, &after));
	EXPECT_EQ(dcm_tree_n_subdevices(before), dcm_tree_n_subdevices(after));
	EXPECT_EQ(swaps, dcm_swaps(DCM_SYSFS));
	dcm_tree_free(before);
	dcm_tree_free(after);

	/* another Kp: a new description; then the Kp saved: the first again */
	ASSERT_EQ(0, read_kp(&kp));
	ASSERT_EQ(0, dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadYaw/Position/Actuator/Kp",
				   kp == 40 ? "41" : "40", NULL, NULL)) TH_LOG("%s", messages);
	ASSERT_EQ(0, dcm_prefs_load(&o, LIBDCM_PREFS_ALL, &loaded)) TH_LOG("%s", messages);
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	ASSERT_EQ(0, read_kp(&kp2));
	EXPECT_EQ(kp == 40 ? 41 : 40, kp2);
	snprintf(value, sizeof(value), "%d", kp);
	ASSERT_EQ(0, dcm_prefs_add(&o, LIBDCM_PREFS_MAIN, "HeadYaw/Position/Actuator/Kp", value,
				   NULL, NULL)) TH_LOG("%s", messages);
	ASSERT_EQ(0, dcm_prefs_load(&o, LIBDCM_PREFS_ALL, &loaded)) TH_LOG("%s", messages);
	EXPECT_EQ(swaps + 2, dcm_swaps(DCM_SYSFS));
	ASSERT_EQ(0, read_kp(&kp2));
	EXPECT_EQ(kp, kp2);
	EXPECT_EQ(0, system("rm -rf " SCRATCH));
}

DCM_HARNESS_MAIN
