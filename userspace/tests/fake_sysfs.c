// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fake sysfs tree of controllers for the unit tests: dcm0 with a small
 * description (two boards, three subdevices, RobotConfig keys, an error
 * list, a hidden tree being built), dcm1 without one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fake_sysfs.h"

#define root fake_sysfs_root

char fake_sysfs_root[64];

/* Write @value (and a newline, as sysfs does) to <root>/<rel>, mkdir -p. */
void fake_sysfs_put(const char *rel, const char *value)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	if (value)
		fprintf(f, "%s\n", value);
	fclose(f);
}

static void subdevice(const char *name, const char *type, const char *dev, const char *num)
{
	static const char *const numbers[] = { "Value", "Gain", "Offset", "Min", "Max" };
	char rel[256];
	size_t i;

	for (i = 0; i < 5; i++) {
		snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/%s", name, numbers[i]);
		fake_sysfs_put(rel, i == 1 ? "1.000000" : "0.000000");
	}
	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Type", name);
	fake_sysfs_put(rel, type);
	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Device", name);
	fake_sysfs_put(rel, dev);
	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/SubDeviceNumber", name);
	fake_sysfs_put(rel, num);
}

static void device(const char *name, const char *type, const char *bus, const char *addr)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "dcm0/DeviceList/%s/Type", name);
	fake_sysfs_put(rel, type);
	snprintf(rel, sizeof(rel), "dcm0/DeviceList/%s/Bus", name);
	fake_sysfs_put(rel, bus);
	snprintf(rel, sizeof(rel), "dcm0/DeviceList/%s/Address", name);
	fake_sysfs_put(rel, addr);
}

int fake_sysfs_setup(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(root))
		return -1;
	fake_sysfs_put("dcm0/uevent", "MAJOR=240");
	device("HeadBoard", "MotorBoard", "RS485-head", "2");
	device("ChestBoard", "ChestBoard", "I2C-chest", "32");
	fake_sysfs_put("dcm0/DeviceList/ChestBoard/BodyId", "AL1100100000000");
	subdevice("HeadPitch/Position/Actuator", "Joint", "HeadBoard", "2");
	subdevice("HeadPitch/Position/Sensor", "JointPosition", "HeadBoard", "2");
	fake_sysfs_put("dcm0/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "1258");
	subdevice("ChestBoard/Led/Red/Actuator", "Led", "ChestBoard", "1");
	/* an error list: two lines; an empty one */
	fake_sysfs_put("dcm0/SubDeviceList/ChestBoard/Led/Red/Actuator/Error", "12 4 first\n13 4 second");
	fake_sysfs_put("dcm0/DeviceList/HeadBoard/Error", NULL);
	fake_sysfs_put("dcm0/RobotConfig/Body/Type", "NAO");
	fake_sysfs_put("dcm0/RobotConfig/Head/Device/TouchBoard/Version", "1");
	/* a tree being built under a hidden name is not listed */
	fake_sysfs_put("dcm0/SubDeviceList/.staged/X/Value", "1");
	/* a second controller, without a description */
	fake_sysfs_put("dcm1/uevent", "MAJOR=240");
	return 0;
}

int fake_sysfs_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

