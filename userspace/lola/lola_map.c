// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: which DCM key each element of LoLA's arrays is (the mapping of
 * Documentation/dcm/lola.rst, key names as in userspace/data/Device.xml).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lola.h"

const struct lola_sensor_desc lola_sensor_fields[LOLA_S_FIELDS] = {
	[LOLA_S_ROBOTCONFIG]	= { "RobotConfig", 4 },
	[LOLA_S_ACCELEROMETER]	= { "Accelerometer", 3 },
	[LOLA_S_ANGLES]		= { "Angles", 2 },
	[LOLA_S_BATTERY]	= { "Battery", 4 },
	[LOLA_S_CURRENT]	= { "Current", LOLA_JOINTS },
	[LOLA_S_FSR]		= { "FSR", 8 },
	[LOLA_S_GYROSCOPE]	= { "Gyroscope", 3 },
	[LOLA_S_POSITION]	= { "Position", LOLA_JOINTS },
	[LOLA_S_SONAR]		= { "Sonar", 2 },
	[LOLA_S_STIFFNESS]	= { "Stiffness", LOLA_JOINTS },
	[LOLA_S_TEMPERATURE]	= { "Temperature", LOLA_JOINTS },
	[LOLA_S_TOUCH]		= { "Touch", 14 },
	[LOLA_S_STATUS]		= { "Status", LOLA_JOINTS },
};

const struct lola_group_desc lola_groups[LOLA_A_GROUPS] = {
	[LOLA_A_POSITION]	= { "Position", LOLA_JOINTS, false },
	[LOLA_A_STIFFNESS]	= { "Stiffness", LOLA_JOINTS, false },
	[LOLA_A_CHEST]		= { "Chest", 3, false },
	[LOLA_A_LEAR]		= { "LEar", 10, false },
	[LOLA_A_REAR]		= { "REar", 10, false },
	[LOLA_A_LEYE]		= { "LEye", 24, false },
	[LOLA_A_REYE]		= { "REye", 24, false },
	[LOLA_A_LFOOT]		= { "LFoot", 3, false },
	[LOLA_A_RFOOT]		= { "RFoot", 3, false },
	[LOLA_A_SKULL]		= { "Skull", 12, false },
	[LOLA_A_SONAR]		= { "Sonar", 2, true },
};

/* The joints in LoLA's order (no RHipYawPitch: index 7 is the shared motor). */
const char *const lola_joint_names[LOLA_JOINTS] = {
	"HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll", "LElbowYaw",
	"LElbowRoll", "LWristYaw", "LHipYawPitch", "LHipRoll", "LHipPitch",
	"LKneePitch", "LAnklePitch", "LAnkleRoll", "RHipRoll", "RHipPitch",
	"RKneePitch", "RAnklePitch", "RAnkleRoll", "RShoulderPitch", "RShoulderRoll",
	"RElbowYaw", "RElbowRoll", "RWristYaw", "LHand", "RHand",
};

static const char *const xyz = "XYZ";
static const char *const fsr_pos[4] = { "FrontLeft", "FrontRight", "RearLeft", "RearRight" };
static const char *const touch_keys[14] = {
	"ChestBoard/Button/Sensor", "Head/Touch/Front/Sensor", "Head/Touch/Middle/Sensor",
	"Head/Touch/Rear/Sensor", "LFoot/Bumper/Left/Sensor", "LFoot/Bumper/Right/Sensor",
	"LHand/Touch/Back/Sensor", "LHand/Touch/Left/Sensor", "LHand/Touch/Right/Sensor",
	"RFoot/Bumper/Left/Sensor", "RFoot/Bumper/Right/Sensor", "RHand/Touch/Back/Sensor",
	"RHand/Touch/Left/Sensor", "RHand/Touch/Right/Sensor",
};
static const char *const rgb[3] = { "Red", "Green", "Blue" };
/* LEye's LEDs, by index within a colour block: their angle. */
static const unsigned int leye_deg[8] = { 45, 0, 315, 270, 225, 180, 135, 90 };
static const char *const skull_keys[12] = {
	"Head/Led/Front/Left/1", "Head/Led/Front/Left/0", "Head/Led/Middle/Left/0",
	"Head/Led/Rear/Left/0", "Head/Led/Rear/Left/1", "Head/Led/Rear/Left/2",
	"Head/Led/Rear/Right/2", "Head/Led/Rear/Right/1", "Head/Led/Rear/Right/0",
	"Head/Led/Middle/Right/0", "Head/Led/Front/Right/0", "Head/Led/Front/Right/1",
};

#define PUT(...) \
	({ int _n = snprintf(buf, len, __VA_ARGS__); \
	   _n < 0 || (size_t)_n >= len ? -ENAMETOOLONG : 0; })

float *lola_sensor_array(struct lola_sensors *s, enum lola_sensor_field f)
{
	switch (f) {
	case LOLA_S_ACCELEROMETER:	return s->accelerometer;
	case LOLA_S_ANGLES:		return s->angles;
	case LOLA_S_BATTERY:		return s->battery;
	case LOLA_S_CURRENT:		return s->current;
	case LOLA_S_FSR:		return s->fsr;
	case LOLA_S_GYROSCOPE:		return s->gyroscope;
	case LOLA_S_POSITION:		return s->position;
	case LOLA_S_SONAR:		return s->sonar;
	case LOLA_S_STIFFNESS:		return s->stiffness;
	case LOLA_S_TEMPERATURE:	return s->temperature;
	case LOLA_S_TOUCH:		return s->touch;
	default:			return NULL;
	}
}

enum lola_src lola_sensor_key(enum lola_sensor_field f, unsigned int i, char *buf, size_t len)
{
	const char *j = i < LOLA_JOINTS ? lola_joint_names[i] : "";
	int ret;

	if (f >= LOLA_S_FIELDS || f == LOLA_S_ROBOTCONFIG || i >= lola_sensor_fields[f].n)
		return LOLA_SRC_NONE;
	switch (f) {
	case LOLA_S_ACCELEROMETER:
		ret = PUT("InertialSensor/Accelerometer%c/Sensor", xyz[i]);
		break;
	case LOLA_S_ANGLES:
		ret = PUT("InertialSensor/Angle%c/Sensor", xyz[i]);
		break;
	case LOLA_S_BATTERY:
		/* Charge, status word, current, temperature (what the robot sends). */
		if (i == 1)
			return PUT("Battery/Charge/Sensor/Status") ? LOLA_SRC_NONE : LOLA_SRC_KEY;
		ret = PUT("Battery/%s/Sensor", i == 0 ? "Charge" : i == 2 ? "Current" : "Temperature");
		break;
	case LOLA_S_CURRENT:
		ret = PUT("%s/ElectricCurrent/Sensor", j);
		break;
	case LOLA_S_FSR:
		ret = PUT("%cFoot/FSR/%s/Sensor", i < 4 ? 'L' : 'R', fsr_pos[i % 4]);
		break;
	case LOLA_S_GYROSCOPE:
		ret = PUT("InertialSensor/Gyroscope%c/Sensor", xyz[i]);
		break;
	case LOLA_S_POSITION:
		ret = PUT("%s/Position/Sensor", j);
		break;
	case LOLA_S_SONAR:
		ret = PUT("US/%s/Sensor", i == 0 ? "Left" : "Right");
		break;
	case LOLA_S_STIFFNESS:
		/* The stiffness applied: the hardness the boards were sent. */
		ret = PUT("%s/Hardness/Actuator", j);
		break;
	case LOLA_S_TEMPERATURE:
		ret = PUT("%s/Temperature/Sensor", j);
		break;
	case LOLA_S_TOUCH:
		ret = PUT("%s", touch_keys[i]);
		break;
	case LOLA_S_STATUS:
		return PUT("%s/Temperature/Sensor/Status", j) ? LOLA_SRC_NONE : LOLA_SRC_KEY;
	default:
		return LOLA_SRC_NONE;
	}
	return ret ? LOLA_SRC_NONE : LOLA_SRC_VALUE;
}

unsigned int lola_group_members(enum lola_group g)
{
	if (g >= LOLA_A_GROUPS || g == LOLA_A_SONAR)
		return 0;
	if (g == LOLA_A_POSITION || g == LOLA_A_STIFFNESS)
		return LOLA_JOINTS + 1;
	return lola_groups[g].n;
}

unsigned int lola_member_element(enum lola_group g, unsigned int member)
{
	if ((g == LOLA_A_POSITION || g == LOLA_A_STIFFNESS) && member == LOLA_JOINTS)
		return 7;	/* RHipYawPitch: LHipYawPitch's motor */
	return member;
}

int lola_actuator_key(enum lola_group g, unsigned int k, char *buf, size_t len)
{
	if (k >= lola_group_members(g))
		return -EINVAL;
	switch (g) {
	case LOLA_A_POSITION:
	case LOLA_A_STIFFNESS:
		return PUT("%s/%s/Actuator", k == LOLA_JOINTS ? "RHipYawPitch" : lola_joint_names[k],
			   g == LOLA_A_POSITION ? "Position" : "Hardness");
	case LOLA_A_CHEST:
		return PUT("ChestBoard/Led/%s/Actuator", rgb[k]);
	case LOLA_A_LFOOT:
	case LOLA_A_RFOOT:
		return PUT("%cFoot/Led/%s/Actuator", g == LOLA_A_LFOOT ? 'L' : 'R', rgb[k]);
	case LOLA_A_LEAR:
		return PUT("Ears/Led/Left/%uDeg/Actuator", 36 * k);
	case LOLA_A_REAR:
		return PUT("Ears/Led/Right/%uDeg/Actuator", 324 - 36 * k);
	case LOLA_A_LEYE:
		return PUT("Face/Led/%s/Left/%uDeg/Actuator", rgb[k / 8], leye_deg[k % 8]);
	case LOLA_A_REYE:
		return PUT("Face/Led/%s/Right/%uDeg/Actuator", rgb[k / 8], 45 * (k % 8));
	case LOLA_A_SKULL:
		return PUT("%s/Actuator", skull_keys[k]);
	default:
		return -EINVAL;
	}
}

/* US/Actuator modes (seed 000, "US/Actuator/Value"; bits as the USBoard takes them). */
#define US_RX_RIGHT	0x01
#define US_TX_RIGHT	0x02
#define US_DUAL		0x04	/* both receivers */
#define US_TX_BOTH	0x08	/* both transmitters */
#define US_PERIODIC	0x40	/* a capture every 100 ms */

int lola_sonar_mode(bool left, bool right)
{
	if (left && right)
		return US_DUAL | US_TX_BOTH | US_PERIODIC;
	if (left)
		return US_PERIODIC;
	if (right)
		return US_RX_RIGHT | US_TX_RIGHT | US_PERIODIC;
	return 0;	/* one capture, then none */
}

bool lola_version_valid(const char *s)
{
	return strlen(s) == LOLA_VERSION_LEN && isdigit((unsigned char)s[0]) && s[1] == '.' &&
	       isdigit((unsigned char)s[2]) && s[3] == '.' && isdigit((unsigned char)s[4]);
}
