// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the table of device and subdevice types (seed 000, "Specific ALMemory
 * keys for each device type" and the subdevice-type chapter).
 */

#include "model/dcm_types.h"

#define KEY(n, k, f) { .name = (n), .kind = DCM_KEY_KIND_##k, .flags = DCM_KEY_##f }
#define KEYR(n, f, lo, hi) { .name = (n), .kind = DCM_KEY_KIND_INT, .flags = DCM_KEY_##f, \
			     .min = (lo), .max = (hi) }
#define KEYFR(n, f, lo, hi) { .name = (n), .kind = DCM_KEY_KIND_FLOAT, .flags = DCM_KEY_##f, \
			      .min = (lo), .max = (hi) }

/*
 * The gains of the motor board's modified PID: a signed 16-bit field of the
 * configuration structure (struct dcm_mb_motor_config), of which a gain
 * uses the positive half. What the sysfs tree stores is what the board
 * gets: a value outside is refused, not clamped on its way.
 */
#define DCM_PID_GAIN_MAX	32767

static const struct dcm_key_desc joint_keys[] = {
	KEY("InvertControlDirection", BOOL, CONFIG),
	KEYR("Kd", CONFIG, 0, DCM_PID_GAIN_MAX),
	KEYR("Ki", CONFIG, 0, DCM_PID_GAIN_MAX),
	KEYR("Kp", CONFIG, 0, DCM_PID_GAIN_MAX),
	KEYR("MotorNumber", CONFIG, 0, 2),
};

/*
 * GearRatio goes to the motor board as unsigned Q16.16 (dcm_q16_from_micro()):
 * 0 to 65535 whole units, not a value the board would get as 0.
 */
static const struct dcm_key_desc joint_position_keys[] = {
	KEYFR("GearRatio", CONFIG, 0, 65535),
	KEY("SensorType", STRING, CONFIG),
	KEYR("jointZeroPosition", CONFIG, 0, 4095),
	KEYR("positionChainMREJoint", CONFIG, 0, 4),
	KEYR("positionChainMREMotor", CONFIG, 0, 4),
};

static const struct dcm_key_desc temperature_keys[] = {
	KEYR("Status", LIVE, 0, 3),
};

static const struct dcm_key_desc charge_keys[] = {
	KEY("Age", FLOAT, LIVE),
	KEY("CellVoltageMax", FLOAT, LIVE),
	KEY("CellVoltageMin", FLOAT, LIVE),
	KEY("FullChargeCapacity", FLOAT, LIVE),
	KEY("RemainingCapacity", FLOAT, LIVE),
	KEY("Status", INT, LIVE),
};

static const struct dcm_key_desc us_echo_keys[] = {
	KEY("Value1", FLOAT, LIVE),
	KEY("Value2", FLOAT, LIVE),
	KEY("Value3", FLOAT, LIVE),
	KEY("Value4", FLOAT, LIVE),
	KEY("Value5", FLOAT, LIVE),
	KEY("Value6", FLOAT, LIVE),
	KEY("Value7", FLOAT, LIVE),
	KEY("Value8", FLOAT, LIVE),
	KEY("Value9", FLOAT, LIVE),
};

static const struct dcm_key_desc fsr_keys[] = {
	KEY("XPosition", FLOAT, STATIC),
	KEY("YPosition", FLOAT, STATIC),
};

/* Sorted by name. */
static const struct dcm_subdevice_type subdevice_types[] = {
	{ .name = "Accelerometer" },
	{ .name = "Angle" },
	{ .name = "CenterOfPressure" },
	{ .name = "Charge", .keys = charge_keys, .n_keys = ARRAY_SIZE(charge_keys) },
	{ .name = "Current" },
	{ .name = "FSR", .keys = fsr_keys, .n_keys = ARRAY_SIZE(fsr_keys) },
	{ .name = "FSRTotalWeight" },
	{ .name = "Gyrometer" },
	{ .name = "Joint", .flags = DCM_SUB_ACTUATOR,
	  .keys = joint_keys, .n_keys = ARRAY_SIZE(joint_keys) },
	{ .name = "JointHardness", .flags = DCM_SUB_ACTUATOR | DCM_SUB_HARDNESS },
	{ .name = "JointPosition",
	  .keys = joint_position_keys, .n_keys = ARRAY_SIZE(joint_position_keys) },
	{ .name = "Led", .flags = DCM_SUB_ACTUATOR },
	{ .name = "LedState", .flags = DCM_SUB_ACTUATOR | DCM_SUB_STEP },
	{ .name = "Switch" },
	{ .name = "Temperature", .keys = temperature_keys, .n_keys = ARRAY_SIZE(temperature_keys) },
	{ .name = "Touch" },
	{ .name = "US", .flags = DCM_SUB_ACTUATOR | DCM_SUB_STEP },
	{ .name = "USEchoSensor", .keys = us_echo_keys, .n_keys = ARRAY_SIZE(us_echo_keys) },
	{ .name = "USSensor" },
};

static const struct dcm_key_desc motor_board_keys[] = {
	KEY("Bid", INT, LIVE),
	KEY("BoardId", INT, LIVE),
	KEY("BoardId2", INT, LIVE),
	KEY("BootLoaderVersion", INT, LIVE),
	KEY("ProgVersion", INT, LIVE),
	KEY("StructVersion", INT, LIVE),
};

static const struct dcm_key_desc chest_board_keys[] = {
	KEY("BodyId", STRING, CONFIG),
	KEY("BodyNickName", STRING, CONFIG),
	KEY("ChainResult", STRING, LIVE),
	KEY("ProgVersion", STRING, LIVE),
};

static const struct dcm_key_desc battery_keys[] = {
	KEY("DeviceName", STRING, LIVE),
	KEY("FirmwareVersion", STRING, LIVE),
	KEY("ManufactureDate", STRING, LIVE),
	KEY("Manufacturer", STRING, LIVE),
	KEY("SerialNumber", STRING, LIVE),
};

static const struct dcm_key_desc prog_version_keys[] = {
	KEY("ProgVersion", INT, LIVE),
};

/* Sorted by name. */
static const struct dcm_device_type device_types[] = {
	{ .name = "Battery", .keys = battery_keys, .n_keys = ARRAY_SIZE(battery_keys) },
	{ .name = "ChestBoard", .keys = chest_board_keys, .n_keys = ARRAY_SIZE(chest_board_keys) },
	{ .name = "EarBoard" },
	{ .name = "FaceBoard" },
	{ .name = "FootBoard", .flags = DCM_DEV_RS485 },
	{ .name = "HandBoard", .flags = DCM_DEV_RS485 },
	{ .name = "HeadBoard" },
	{ .name = "InertialBoard" },
	{ .name = "MotorBoard", .flags = DCM_DEV_RS485,
	  .keys = motor_board_keys, .n_keys = ARRAY_SIZE(motor_board_keys) },
	{ .name = "TouchBoard" },
	{ .name = "USBoard", .keys = prog_version_keys, .n_keys = ARRAY_SIZE(prog_version_keys) },
};

/**
 * dcm_key_desc_in_range() - does a key of @desc take @num?
 * @desc: the key's description
 * @num: the value: an INT key's, or a FLOAT key's in micro-units
 *
 * Return: true if @desc has no range (@min >= @max) or @num is within it
 * (a FLOAT key's range is in whole units).
 */
bool dcm_key_desc_in_range(const struct dcm_key_desc *desc, s64 num)
{
	s64 scale = desc->kind == DCM_KEY_KIND_FLOAT ? DCM_MICRO : 1;

	if (desc->min >= desc->max)
		return true;
	return num >= desc->min * scale && num <= desc->max * scale;
}

/**
 * dcm_subdevice_type_find() - look a subdevice Type up
 * @name: the Type string
 *
 * Return: the type, or NULL if there is no such type.
 */
const struct dcm_subdevice_type *dcm_subdevice_type_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subdevice_types); i++)
		if (!strcmp(subdevice_types[i].name, name))
			return &subdevice_types[i];
	return NULL;
}

/**
 * dcm_device_type_find() - look a device Type up
 * @name: the Type string
 *
 * Return: the type, or NULL if there is no such type.
 */
const struct dcm_device_type *dcm_device_type_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(device_types); i++)
		if (!strcmp(device_types[i].name, name))
			return &device_types[i];
	return NULL;
}

/**
 * dcm_key_desc_find() - find a type-specific key by name
 * @keys: a type's keys
 * @n: how many
 * @name: the key name
 *
 * Return: the key, or NULL.
 */
const struct dcm_key_desc *dcm_key_desc_find(const struct dcm_key_desc *keys, u32 n,
					     const char *name)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}
