// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of dcm_model.c and dcm_types.c: building a robot description
 * step by step, every refusal, the whole-description check and look-ups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/dcm_model.h"

static int setup(void **state)
{
	struct dcm_model *m = dcm_model_alloc();
	const char *why = NULL;

	if (!m)
		return -1;
	if (dcm_model_add_device(m, "ChestBoard", "ChestBoard", "I2C-1", 0x20, &why) ||
	    dcm_model_add_device(m, "HeadBoard", "MotorBoard", "RS485-1", 1, &why) ||
	    dcm_model_add_subdevice(m, "HeadPitch/Position/Actuator", "Joint", "HeadBoard", 1,
				    &why) ||
	    dcm_model_add_subdevice(m, "HeadPitch/Position/Sensor", "JointPosition",
				    "HeadBoard", 1, &why) ||
	    dcm_model_add_subdevice(m, "HeadYaw/Position/Actuator", "Joint", "HeadBoard", 2,
				    &why))
		return -1;
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	dcm_model_free(*state);
	return 0;
}

static void test_add_device_refusals(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char longname[DCM_MAX_NAME_LEN + 1];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';

	assert_int_equal(-EINVAL, dcm_model_add_device(m, "", "MotorBoard", "b", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "A/B", "MotorBoard", "b", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "..", "MotorBoard", "b", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "a b", "MotorBoard", "b", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, longname, "MotorBoard", "b", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "X", "Toaster", "b", 1, &why));
	assert_string_equal("unknown device type", why);
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "X", "MotorBoard", "", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "X", "MotorBoard", "b", 256, &why));
	assert_string_equal("device address is outside 0-255", why);
	assert_int_equal(-EEXIST, dcm_model_add_device(m, "HeadBoard", "MotorBoard", "b", 1,
						       &why));
	/* A device may not take a subdevice's name either. */
	assert_int_equal(0, dcm_model_add_subdevice(m, "Solo", "Led", "HeadBoard", 9, &why));
	assert_int_equal(-EEXIST, dcm_model_add_device(m, "Solo", "MotorBoard", "b", 1, &why));
	assert_string_equal("duplicate name", why);
	assert_int_equal(2, m->n_devices);
	assert_int_equal(0, dcm_model_add_device(m, "X", "MotorBoard", "b", 255, &why));
	assert_int_equal(3, m->n_devices);
}

static void test_device_limit(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char name[16];
	int i;

	for (i = m->n_devices; i < DCM_MAX_DEVICES; i++) {
		snprintf(name, sizeof(name), "B%d", i);
		assert_int_equal(0, dcm_model_add_device(m, name, "FootBoard", "b", i, &why));
	}
	assert_int_equal(-ENOSPC, dcm_model_add_device(m, "one_more", "FootBoard", "b", 0,
						       &why));
	assert_int_equal(DCM_MAX_DEVICES, m->n_devices);
}

static void test_add_subdevice_refusals(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;

	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "a//b", "Led", "HeadBoard", 1,
							  &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "/a", "Led", "HeadBoard", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "a/", "Led", "HeadBoard", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "Device/x", "Led", "HeadBoard", 1,
							  &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "RobotConfig/x", "Led",
							  "HeadBoard", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "SubDeviceList", "Led",
							  "HeadBoard", 1, &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "x", "Lamp", "HeadBoard", 1, &why));
	assert_string_equal("unknown subdevice type", why);
	assert_int_equal(-ENOENT, dcm_model_add_subdevice(m, "x", "Led", "Nowhere", 1, &why));
	assert_string_equal("the subdevice's device does not exist", why);
	/* A subdevice is not a device. */
	assert_int_equal(-ENOENT, dcm_model_add_subdevice(m, "x", "Led",
							  "HeadPitch/Position/Actuator", 1,
							  &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "x", "Led", "HeadBoard", 0, &why));
	assert_int_equal(-EINVAL, dcm_model_add_subdevice(m, "x", "Led", "HeadBoard", 256,
							  &why));
	assert_int_equal(-EEXIST, dcm_model_add_subdevice(m, "x", "Joint", "HeadBoard", 2,
							  &why));
	assert_int_equal(-EEXIST, dcm_model_add_subdevice(m, "HeadPitch/Position/Sensor",
							  "Led", "HeadBoard", 1, &why));
	assert_int_equal(-EEXIST, dcm_model_add_subdevice(m, "ChestBoard", "Led", "HeadBoard",
							  1, &why));
	assert_int_equal(3, m->n_subdevices);
	/* The same number on another type, or another device, is fine. */
	assert_int_equal(0, dcm_model_add_subdevice(m, "x", "Led", "HeadBoard", 2, &why));
	assert_int_equal(0, dcm_model_add_subdevice(m, "y", "Joint", "ChestBoard", 1, &why));
}

static void test_subdevice_limit(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char dev[32], name[32];
	unsigned int i, first = m->n_subdevices;

	for (i = first; i < DCM_MAX_SUBDEVICES; i++) {
		snprintf(dev, sizeof(dev), "LedBoard%u", i / 255);
		if (i == first || i % 255 == 0)
			assert_int_equal(0, dcm_model_add_device(m, dev, "FaceBoard", "b", 0,
								 &why));
		snprintf(name, sizeof(name), "Led/%u", i);
		assert_int_equal(0, dcm_model_add_subdevice(m, name, "Led", dev, i % 255 + 1,
							    &why));
	}
	assert_int_equal(-ENOSPC, dcm_model_add_subdevice(m, "Led/more", "Led", "HeadBoard", 200,
							  &why));
	assert_string_equal("too many subdevices", why);
	assert_int_equal(DCM_MAX_SUBDEVICES, m->n_subdevices);
	/* Every one of them is found through the hash. */
	for (i = 3; i < DCM_MAX_SUBDEVICES; i++) {
		u32 index;
		u8 target;

		snprintf(name, sizeof(name), "Led/%u", i);
		assert_int_equal(0, dcm_model_lookup(m, name, &target, &index));
		assert_int_equal(i, index);
	}
}

static void test_defaults_and_check(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char msg[160];

	assert_true(m->subdevices[0].gain == 1000000);
	assert_true(m->subdevices[0].offset == 0);
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("subdevice HeadPitch/Position/Actuator has no Min", msg);

	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Min",
					      DCM_KEY_KIND_FLOAT, -670000, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("subdevice HeadPitch/Position/Actuator has no Max", msg);
	assert_int_equal(0, dcm_model_set_key(m, "Device/SubDeviceList/HeadPitch/Position/Actuator/Max",
					      DCM_KEY_KIND_FLOAT, -680000, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("subdevice HeadPitch/Position/Actuator has Min above Max", msg);
	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Max",
					      DCM_KEY_KIND_FLOAT, 510000, NULL, &why));
	assert_true(m->subdevices[0].max == 510000);

	dcm_model_set_key(m, "HeadPitch/Position/Sensor/Min", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadPitch/Position/Sensor/Max", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Min", DCM_KEY_KIND_FLOAT, -1, NULL, &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Max", DCM_KEY_KIND_FLOAT, 1, NULL, &why);
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
}

/*
 * Address is unique on its bus (a Battery at the chest board's address read
 * the chest's registers), and an RS485 bus carries at most 16 boards, the
 * Bids there are: both were accepted.
 */
static void test_bus_addresses(void **state)
{
	struct dcm_model *m = dcm_model_alloc();
	const char *why = NULL;
	char msg[160], name[32];
	unsigned int i;

	(void)state;
	assert_non_null(m);
	assert_int_equal(0, dcm_model_add_device(m, "ChestBoard", "ChestBoard", "I2C-chest", 32,
						 &why));
	assert_int_equal(0, dcm_model_add_device(m, "Battery", "Battery", "I2C-chest", 11, &why));
	/* The same Address on another bus is another board. */
	assert_int_equal(0, dcm_model_add_device(m, "HeadBoard", "HeadBoard", "I2C-head", 32,
						 &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_add_device(m, "Battery2", "Battery", "I2C-chest", 32, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("devices ChestBoard and Battery2 have the same Address 32 on bus I2C-chest",
			    msg);
	dcm_model_free(m);

	m = dcm_model_alloc();
	assert_non_null(m);
	for (i = 1; i <= 16; i++) {
		snprintf(name, sizeof(name), "Board%u", i);
		assert_int_equal(0, dcm_model_add_device(m, name, i == 16 ? "FootBoard" : "MotorBoard",
							 "RS485-1", i, &why));
	}
	/* Another type on the bus takes no Bid. */
	assert_int_equal(0, dcm_model_add_device(m, "Chest", "ChestBoard", "RS485-1", 100, &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_add_device(m, "Board17", "HandBoard", "RS485-1", 17, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("bus RS485-1 has 17 RS485 boards, at most 16 can have a Bid", msg);
	dcm_model_free(m);
}

/*
 * Gain -0.000000000000001 (-1 / 10^9 micro-units), Offset 10000, Min -1,
 * Max 1: no raw number reaches Min..Max; the actuator is refused (it once
 * ran with every command saturated). A sensor may have it.
 */
static void test_raw_range(void **state)
{
	struct dcm_model *m = dcm_model_alloc();
	const char *why = NULL;
	char msg[160];

	(void)state;
	assert_non_null(m);
	assert_int_equal(0, dcm_model_add_device(m, "Chest", "ChestBoard", "I2C", 32, &why));
	assert_int_equal(0, dcm_model_add_subdevice(m, "L", "Led", "Chest", 1, &why));
	assert_int_equal(0, dcm_model_add_subdevice(m, "S", "Switch", "Chest", 1, &why));
	assert_int_equal(0, dcm_model_set_key(m, "L/Min", DCM_KEY_KIND_FLOAT, -1000000, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "L/Max", DCM_KEY_KIND_FLOAT, 1000000, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "S/Min", DCM_KEY_KIND_FLOAT, -1000000, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "S/Max", DCM_KEY_KIND_FLOAT, 1000000, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "L/Offset", DCM_KEY_KIND_FLOAT, 10000000000LL, NULL,
					      &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_set_fraction(m, "S/Gain", -1, 1000000000, &why));
	assert_int_equal(0, dcm_model_set_key(m, "S/Offset", DCM_KEY_KIND_FLOAT, 10000000000LL, NULL,
					      &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_set_fraction(m, "L/Gain", -1, 1000000000, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("subdevice L: Min or Max needs a raw number beyond s64", msg);
	/* A Gain of 1e-6 reaches it: 10^10 raw numbers from Offset. */
	assert_int_equal(0, dcm_model_set_fraction(m, "L/Gain", -1, 1, &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	dcm_model_free(m);
}

static void test_path_collisions(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char msg[160];

	dcm_model_set_key(m, "HeadPitch/Position/Actuator/Min", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadPitch/Position/Actuator/Max", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadPitch/Position/Sensor/Min", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadPitch/Position/Sensor/Max", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Min", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Max", DCM_KEY_KIND_FLOAT, 0, NULL, &why);
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));

	/* A subdevice below another is fine; through one of its keys is not. */
	assert_int_equal(0, dcm_model_add_subdevice(m, "HeadYaw/Position/Actuator/Extra", "Led",
						    "HeadBoard", 1, &why));
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Extra/Min", DCM_KEY_KIND_FLOAT, 0, NULL,
			  &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Extra/Max", DCM_KEY_KIND_FLOAT, 0, NULL,
			  &why);
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_add_subdevice(m, "HeadYaw/Position/Actuator/Kp/X", "Led",
						    "HeadBoard", 2, &why));
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Kp/X/Min", DCM_KEY_KIND_FLOAT, 0, NULL,
			  &why);
	dcm_model_set_key(m, "HeadYaw/Position/Actuator/Kp/X/Max", DCM_KEY_KIND_FLOAT, 0, NULL,
			  &why);
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("subdevice HeadYaw/Position/Actuator/Kp/X goes through the key "
			    "HeadYaw/Position/Actuator/Kp", msg);
}

static void test_robot_path_collisions(void **state)
{
	struct dcm_model *m = dcm_model_alloc();
	const char *why = NULL;
	char msg[160];

	(void)state;
	assert_int_equal(0, dcm_model_add_device(m, "B", "FootBoard", "b", 1, &why));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Type", DCM_KEY_KIND_STRING, 0,
					      "NAO", &why));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Version", DCM_KEY_KIND_STRING,
					      0, "5", &why));
	assert_int_equal(0, dcm_model_check(m, msg, sizeof(msg)));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Type/X", DCM_KEY_KIND_INT, 0,
					      NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("RobotConfig key RobotConfig/Body/Type/X goes through the key "
			    "RobotConfig/Body/Type", msg);
	dcm_model_free(m);
}

static void test_empty_is_refused(void **state)
{
	struct dcm_model *m = dcm_model_alloc();
	char msg[160];

	(void)state;
	assert_non_null(m);
	assert_int_equal(-EINVAL, dcm_model_check(m, msg, sizeof(msg)));
	assert_string_equal("the description has no device", msg);
	dcm_model_free(m);
}

static void test_set_key_refusals(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char longstr[DCM_MAX_STRING_LEN + 1];

	memset(longstr, 'x', sizeof(longstr) - 1);
	longstr[sizeof(longstr) - 1] = '\0';

	assert_int_equal(-ENOENT, dcm_model_set_key(m, "Nothing/Value", DCM_KEY_KIND_FLOAT, 0,
						    NULL, &why));
	assert_int_equal(-ENOENT, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Nope",
						    DCM_KEY_KIND_INT, 0, NULL, &why));
	assert_int_equal(-ENOENT, dcm_model_set_key(m, "Value", DCM_KEY_KIND_FLOAT, 0, NULL,
						    &why));
	/* Standard keys the structure or the robot sets. */
	assert_int_equal(-EPERM, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Ack",
						   DCM_KEY_KIND_INT, 0, NULL, &why));
	assert_int_equal(-EPERM, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Type",
						   DCM_KEY_KIND_STRING, 0, "Led", &why));
	assert_int_equal(-EPERM, dcm_model_set_key(m, "Device/DeviceList/HeadBoard/Address",
						   DCM_KEY_KIND_INT, 3, NULL, &why));
	/* A device key path is not a subdevice key path. */
	assert_int_equal(-ENOENT, dcm_model_set_key(m, "Device/SubDeviceList/ChestBoard/BodyId",
						    DCM_KEY_KIND_STRING, 0, "x", &why));
	/* Live keys. */
	assert_int_equal(-EPERM, dcm_model_set_key(m, "Device/DeviceList/HeadBoard/Bid",
						   DCM_KEY_KIND_INT, 1, NULL, &why));
	/* Kinds. */
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Gain",
						    DCM_KEY_KIND_INT, 1, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Kp",
						    DCM_KEY_KIND_FLOAT, 1, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "HeadPitch/Position/Actuator/"
						    "InvertControlDirection", DCM_KEY_KIND_BOOL,
						    2, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Kp", 0, 1,
						    NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Kp", 99, 1,
						    NULL, &why));
	/* Ranges, values. */
	assert_int_equal(-ERANGE, dcm_model_set_key(m, "HeadPitch/Position/Sensor/"
						    "jointZeroPosition", DCM_KEY_KIND_INT, 4096,
						    NULL, &why));
	assert_int_equal(-ERANGE, dcm_model_set_key(m, "HeadPitch/Position/Sensor/"
						    "jointZeroPosition", DCM_KEY_KIND_INT, -1,
						    NULL, &why));
	assert_int_equal(-ERANGE, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Gain",
						    DCM_KEY_KIND_FLOAT, 0, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "Device/DeviceList/ChestBoard/BodyId",
						    DCM_KEY_KIND_STRING, 0, "a\nb", &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "Device/DeviceList/ChestBoard/BodyId",
						    DCM_KEY_KIND_STRING, 0, longstr, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "Device/DeviceList/ChestBoard/BodyId",
						    DCM_KEY_KIND_STRING, 0, NULL, &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "RobotConfig/Bad//Path",
						    DCM_KEY_KIND_INT, 0, NULL, &why));
	/* RobotConfig alone is no key; a device cannot be called so. */
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "RobotConfig", DCM_KEY_KIND_INT, 0, NULL,
						    &why));
	assert_int_equal(-EINVAL, dcm_model_set_key(m, "RobotConfig/", DCM_KEY_KIND_INT, 0, NULL,
						    &why));
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "RobotConfig", "FootBoard", "b", 1,
						       &why));
	assert_string_equal("a device name cannot be a reserved word", why);
	assert_int_equal(-EINVAL, dcm_model_add_device(m, "SubDeviceList", "FootBoard", "b", 1,
						       &why));
	assert_int_equal(0, m->n_robot_keys);
}

static void test_set_key_values(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	struct dcm_keyref ref;

	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Sensor/jointZeroPosition",
					      DCM_KEY_KIND_INT, 4095, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "Device/DeviceList/ChestBoard/BodyId",
					      DCM_KEY_KIND_STRING, 0, "AL1234", &why));
	/* A later layer replaces the value. */
	assert_int_equal(0, dcm_model_set_key(m, "Device/DeviceList/ChestBoard/BodyId",
					      DCM_KEY_KIND_STRING, 0, "AL5678", &why));
	assert_int_equal(0, dcm_model_resolve(m, "Device/DeviceList/ChestBoard/BodyId", &ref));
	assert_int_equal(DCM_TARGET_DEVICE, ref.target);
	assert_int_equal(DCM_KEY_KIND_STRING, dcm_keyref_kind(m, &ref));
	assert_string_equal("AL5678", m->devices[ref.index].keys[ref.key - DCM_KEY_TYPED].str);

	assert_int_equal(0, dcm_model_resolve(m, "HeadPitch/Position/Sensor/jointZeroPosition",
					      &ref));
	assert_true(m->subdevices[ref.index].keys[ref.key - DCM_KEY_TYPED].num == 4095);

	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Type", DCM_KEY_KIND_STRING,
					      0, "NAO", &why));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Device/Legs/Version",
					      DCM_KEY_KIND_INT, -1, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Type", DCM_KEY_KIND_INT,
					      3, NULL, &why));
	assert_int_equal(2, m->n_robot_keys);
	assert_int_equal(0, dcm_model_resolve(m, "RobotConfig/Body/Type", &ref));
	assert_int_equal(DCM_TARGET_ROBOT, ref.target);
	assert_int_equal(DCM_KEY_KIND_INT, dcm_keyref_kind(m, &ref));
	assert_true(m->robot_keys[ref.index].value.num == 3);
}

static void test_robot_key_limit(void **state)
{
	struct dcm_model *m = *state;
	const char *why = NULL;
	char path[64];
	int i;

	for (i = 0; i < DCM_MAX_KEYS; i++) {
		snprintf(path, sizeof(path), "RobotConfig/K/%d", i);
		assert_int_equal(0, dcm_model_set_key(m, path, DCM_KEY_KIND_STRING, 0, "v", &why));
	}
	assert_int_equal(-ENOSPC, dcm_model_set_key(m, "RobotConfig/K/x", DCM_KEY_KIND_INT, 0,
						    NULL, &why));
	/* Replacing an existing one still works at the limit. */
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/K/7", DCM_KEY_KIND_INT, 0, NULL,
					      &why));
}

static void test_lookup(void **state)
{
	struct dcm_model *m = *state;
	u32 index;
	u8 target;

	assert_int_equal(0, dcm_model_lookup(m, "HeadYaw/Position/Actuator", &target, &index));
	assert_int_equal(DCM_TARGET_SUBDEVICE, target);
	assert_int_equal(2, index);
	assert_int_equal(0, dcm_model_lookup(m, "Device/SubDeviceList/HeadYaw/Position/Actuator",
					     &target, &index));
	assert_int_equal(2, index);
	assert_int_equal(0, dcm_model_lookup(m, "Device/DeviceList/HeadBoard", &target, &index));
	assert_int_equal(DCM_TARGET_DEVICE, target);
	assert_int_equal(1, index);
	assert_int_equal(0, dcm_model_lookup(m, "ChestBoard", &target, &index));
	assert_int_equal(DCM_TARGET_DEVICE, target);
	assert_int_equal(-ENOENT, dcm_model_lookup(m, "Device/SubDeviceList/HeadBoard", &target,
						   &index));
	assert_int_equal(-ENOENT, dcm_model_lookup(m, "Device/DeviceList/HeadYaw/Position/"
						   "Actuator", &target, &index));
	assert_int_equal(-ENOENT, dcm_model_lookup(m, "HeadYaw/Position", &target, &index));
	assert_int_equal(-ENOENT, dcm_model_lookup(m, "HeadYaw/Position/Actuator/", &target,
						   &index));
	assert_int_equal(-ENOENT, dcm_model_lookup(m, "", &target, &index));
}

static void test_resolve(void **state)
{
	struct dcm_model *m = *state;
	struct dcm_keyref ref;

	assert_int_equal(0, dcm_model_resolve(m, "Device/SubDeviceList/HeadPitch/Position/"
					      "Actuator/Value", &ref));
	assert_int_equal(DCM_TARGET_SUBDEVICE, ref.target);
	assert_int_equal(0, ref.index);
	assert_int_equal(DCM_KEY_VALUE, ref.key);
	assert_int_equal(DCM_KEY_KIND_FLOAT, dcm_keyref_kind(m, &ref));
	assert_int_equal(0, dcm_model_resolve(m, "HeadPitch/Position/Actuator/Kp", &ref));
	assert_int_equal(DCM_KEY_TYPED + 3, ref.key);
	assert_int_equal(0, dcm_model_resolve(m, "HeadPitch/Position/Actuator/SubDeviceNumber",
					      &ref));
	assert_int_equal(DCM_KEY_KIND_INT, dcm_keyref_kind(m, &ref));
	assert_int_equal(0, dcm_model_resolve(m, "Device/DeviceList/HeadBoard/Bus", &ref));
	assert_int_equal(DCM_KEY_BUS, ref.key);
	assert_int_equal(DCM_KEY_KIND_STRING, dcm_keyref_kind(m, &ref));
	/* Devices have no Value; subdevices no Bus. */
	assert_int_equal(-ENOENT, dcm_model_resolve(m, "Device/DeviceList/HeadBoard/Value",
						    &ref));
	assert_int_equal(-ENOENT, dcm_model_resolve(m, "HeadPitch/Position/Actuator/Bus", &ref));
	/* Keys of another type. */
	assert_int_equal(-ENOENT, dcm_model_resolve(m, "HeadPitch/Position/Sensor/Kp", &ref));
	assert_int_equal(-ENOENT, dcm_model_resolve(m, "HeadPitch", &ref));
	assert_int_equal(-ENOENT, dcm_model_resolve(m, "RobotConfig/Nothing", &ref));
}

/* The type table: names unique, keys unique per type, ranges sane. */
static void test_types(void **state)
{
	static const char * const subs[] = {
		"Accelerometer", "Angle", "CenterOfPressure", "Charge", "Current", "FSR",
		"FSRTotalWeight", "Gyrometer", "Joint", "JointHardness", "JointPosition", "Led",
		"LedState", "Switch", "Temperature", "Touch", "US", "USEchoSensor", "USSensor",
	};
	const struct dcm_subdevice_type *t;
	unsigned int i, j, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		t = dcm_subdevice_type_find(subs[i]);
		assert_non_null(t);
		assert_string_equal(subs[i], t->name);
		for (j = 0; j < t->n_keys; j++) {
			for (k = 0; k < DCM_KEY_TYPED; k++)
				assert_string_not_equal(dcm_std_key_name(k), t->keys[j].name);
			for (k = j + 1; k < t->n_keys; k++)
				assert_string_not_equal(t->keys[j].name, t->keys[k].name);
			assert_true(t->keys[j].min <= t->keys[j].max);
		}
	}
	assert_int_equal(DCM_SUB_ACTUATOR, dcm_subdevice_type_find("Joint")->flags);
	assert_int_equal(DCM_SUB_ACTUATOR | DCM_SUB_STEP, dcm_subdevice_type_find("US")->flags);
	assert_null(dcm_subdevice_type_find("joint"));
	assert_null(dcm_subdevice_type_find(""));
	assert_non_null(dcm_device_type_find("MotorBoard"));
	assert_null(dcm_device_type_find("Joint"));
}

/* A small description, built the same way every time: @variant changes one thing. */
static struct dcm_model *build(int variant)
{
	struct dcm_model *m = dcm_model_alloc();
	const char *why = NULL;

	assert_non_null(m);
	assert_int_equal(0, dcm_model_add_device(m, "ChestBoard", "ChestBoard", "I2C-1", 0x20,
						 &why));
	assert_int_equal(0, dcm_model_add_device(m, "HeadBoard", "MotorBoard", "RS485-1",
						 variant == 1 ? 2 : 1, &why));
	assert_int_equal(0, dcm_model_add_subdevice(m, "HeadPitch/Position/Actuator", "Joint",
						    "HeadBoard", 1, &why));
	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Min",
					      DCM_KEY_KIND_FLOAT, -1, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Max",
					      DCM_KEY_KIND_FLOAT, variant == 2 ? 2 : 1, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "HeadPitch/Position/Actuator/Kp",
					      DCM_KEY_KIND_INT, variant == 3 ? 9 : 8, NULL, &why));
	assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Type", DCM_KEY_KIND_STRING, 0,
					      variant == 4 ? "nao" : "NAO", &why));
	if (variant == 5)
		assert_int_equal(0, dcm_model_set_key(m, "RobotConfig/Body/Version",
						      DCM_KEY_KIND_STRING, 0, "6", &why));
	return m;
}

static void test_equal(void **state)
{
	struct dcm_model *a = build(0), *b = build(0), *c;
	int v;

	(void)state;
	assert_true(dcm_model_equal(a, b));
	assert_true(dcm_model_equal(a, a));
	/* LIVE keys are the robot's: a running description has them set. */
	b->devices[1].keys[0].num = 42;
	assert_true(dcm_model_equal(a, b));
	/* ...and each subdevice's Value, the latest the cycle saw. */
	b->subdevices[0].value = 123;
	assert_true(dcm_model_equal(a, b));
	for (v = 1; v <= 5; v++) {
		c = build(v);
		assert_false(dcm_model_equal(a, c));
		assert_false(dcm_model_equal(c, a));
		dcm_model_free(c);
	}
	dcm_model_free(a);
	dcm_model_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_device_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_subdevice_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subdevice_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defaults_and_check, setup, teardown),
		cmocka_unit_test(test_empty_is_refused),
		cmocka_unit_test_setup_teardown(test_path_collisions, setup, teardown),
		cmocka_unit_test(test_robot_path_collisions),
		cmocka_unit_test_setup_teardown(test_set_key_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_key_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_robot_key_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_bus_addresses),
		cmocka_unit_test(test_raw_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
