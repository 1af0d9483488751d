/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcm-lola: the LoLA protocol (NAO V6's low-level socket interface) over
 * libdcm. Documentation/dcm/lola.rst describes the daemon.
 *
 * lola_map.c: which DCM key each element of LoLA's arrays is.
 * lola_packet.c: the sensor map's encoder (896 bytes, LoLA's layout) and
 * the actuator map's stream reader and decoder (msgpack-c).
 */
#ifndef DCM_LOLA_H
#define DCM_LOLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

#define LOLA_JOINTS		25
#define LOLA_SENSOR_SIZE	896	/* every sensor map, bytes */
#define LOLA_MAX_PACKET		4096	/* an actuator map longer than this is refused */
#define LOLA_ID_LEN		20	/* RobotConfig[0], [2]: body and head ID */
#define LOLA_VERSION_LEN	5	/* RobotConfig[1], [3]: "6.0.0" */
#define LOLA_ERR_LEN		160	/* a refusal's reason */

/* The sensor map's keys, in the order they have on the wire. */
enum lola_sensor_field {
	LOLA_S_ROBOTCONFIG,
	LOLA_S_ACCELEROMETER,
	LOLA_S_ANGLES,
	LOLA_S_BATTERY,
	LOLA_S_CURRENT,
	LOLA_S_FSR,
	LOLA_S_GYROSCOPE,
	LOLA_S_POSITION,
	LOLA_S_SONAR,
	LOLA_S_STIFFNESS,
	LOLA_S_TEMPERATURE,
	LOLA_S_TOUCH,
	LOLA_S_STATUS,
	LOLA_S_FIELDS
};

/* The actuator map's keys (any subset, any order on the wire). */
enum lola_group {
	LOLA_A_POSITION,
	LOLA_A_STIFFNESS,
	LOLA_A_CHEST,
	LOLA_A_LEAR,
	LOLA_A_REAR,
	LOLA_A_LEYE,
	LOLA_A_REYE,
	LOLA_A_LFOOT,
	LOLA_A_RFOOT,
	LOLA_A_SKULL,
	LOLA_A_SONAR,
	LOLA_A_GROUPS
};

#define LOLA_A_MAX_ELEMS	25

struct lola_sensor_desc {
	const char *name;	/* the key on the wire */
	unsigned int n;		/* elements */
};

struct lola_group_desc {
	const char *name;	/* the key on the wire */
	unsigned int n;		/* elements */
	bool boolean;		/* Sonar: booleans */
};

extern const struct lola_sensor_desc lola_sensor_fields[LOLA_S_FIELDS];
extern const struct lola_group_desc lola_groups[LOLA_A_GROUPS];
extern const char *const lola_joint_names[LOLA_JOINTS];

/*
 * One sensor map's values. The float fields are indexed as LoLA's arrays;
 * the strings are padded or cut to their fixed lengths by the encoder.
 */
struct lola_sensors {
	char body_id[64], body_version[16], head_id[64], head_version[16];
	float accelerometer[3];
	float angles[2];
	float battery[4];
	float current[LOLA_JOINTS];
	float fsr[8];
	float gyroscope[3];
	float position[LOLA_JOINTS];
	float sonar[2];
	float stiffness[LOLA_JOINTS];
	float temperature[LOLA_JOINTS];
	float touch[14];
	uint8_t status[LOLA_JOINTS];
};

/* The float array of a numeric sensor field (not RobotConfig, Status), or NULL. */
float *lola_sensor_array(struct lola_sensors *s, enum lola_sensor_field f);

/*
 * lola_encode_sensors - the sensor map of @s, in LoLA's layout: a fixmap of
 * 13 keys in LoLA's order, fixstr keys and strings, float 32 numbers, joint
 * statuses as positive fixints (capped at 127).
 * @buf: LOLA_SENSOR_SIZE bytes.
 * Return: LOLA_SENSOR_SIZE, or -1 if the encoding came out another size.
 */
int lola_encode_sensors(const struct lola_sensors *s, uint8_t *buf);

/* The commands of one actuator map: the groups it had, their values. */
struct lola_actuators {
	uint32_t present;			/* bit g: group g was in the map */
	double v[LOLA_A_GROUPS][LOLA_A_MAX_ELEMS];	/* Sonar: 0 or 1 */
};

/*
 * lola_decode_actuators - check one received object and take its commands.
 * A map of known keys, each once, with an array of its exact length of
 * finite numbers (float 32, float 64 or integers; their range is the
 * actuators', checked when they are applied); Sonar booleans (or 0/1).
 * Return: 0; -EINVAL with the reason in @err: the object cannot be a LoLA
 * actuator map, and nothing of it is to be applied.
 */
int lola_decode_actuators(const msgpack_object *o, struct lola_actuators *out,
			  char *err, size_t errlen);

/* An incremental reader of a client's byte stream. */
struct lola_reader {
	msgpack_unpacker unp;
	msgpack_unpacked res;
	bool ready;
};

enum lola_read_status {
	LOLA_READ_NONE = 0,	/* no complete object yet */
	LOLA_READ_OBJECT = 1,	/* one object in *obj, @size bytes */
	LOLA_READ_FATAL = -1,	/* the stream cannot be followed: reason in err */
};

int lola_reader_init(struct lola_reader *r);
void lola_reader_destroy(struct lola_reader *r);
/* Where to put up to @len bytes read from the client (NULL: no memory). */
char *lola_reader_buffer(struct lola_reader *r, size_t len);
/* @len bytes were put there. */
void lola_reader_consumed(struct lola_reader *r, size_t len);
/*
 * lola_reader_next - the next complete object of the stream. @obj stays
 * valid until the next call. An object longer than LOLA_MAX_PACKET is
 * returned with its @size (the caller refuses it); bytes that are no
 * MessagePack, or more than LOLA_MAX_PACKET bytes that do not finish an
 * object, are LOLA_READ_FATAL.
 */
enum lola_read_status lola_reader_next(struct lola_reader *r, const msgpack_object **obj,
				       size_t *size, char *err, size_t errlen);

/*
 * Keys. Every function writes the DCM subdevice name (without the
 * "Device/SubDeviceList/" prefix) or key path of an element into @buf.
 * Return: 0; -ENAMETOOLONG; -EINVAL for an element that does not exist.
 */

/* Where a numeric sensor element comes from. */
enum lola_src {
	LOLA_SRC_VALUE,		/* the subdevice's Value in the cycle's frame */
	LOLA_SRC_KEY,		/* a live key (a Status), in frames with the live keys */
	LOLA_SRC_NONE,		/* nothing: 0 */
};

enum lola_src lola_sensor_key(enum lola_sensor_field f, unsigned int i, char *buf, size_t len);

/*
 * The members of group @g's alias: its elements in LoLA's order, and for
 * Position and Stiffness a 26th, RHipYawPitch, which takes element 7
 * (LHipYawPitch: one motor). Sonar has none (US/Actuator takes a mode).
 */
unsigned int lola_group_members(enum lola_group g);
int lola_actuator_key(enum lola_group g, unsigned int member, char *buf, size_t len);
/* The element of the actuator map that member @member takes. */
unsigned int lola_member_element(enum lola_group g, unsigned int member);

/* The US/Actuator mode for Sonar [left, right]. */
int lola_sonar_mode(bool left, bool right);

/*
 * lola_version_valid - @s is a version as LoLA sends it in RobotConfig:
 * three one-digit numbers with dots, LOLA_VERSION_LEN bytes ("6.0.0").
 */
bool lola_version_valid(const char *s);

#endif /* DCM_LOLA_H */
