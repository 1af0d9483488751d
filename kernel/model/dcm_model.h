/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the robot description in the kernel: devices, subdevices, their
 * keys, RobotConfig keys, and name lookup.
 *
 * A model is built step by step by a configuration transaction (each step
 * checked), checked whole by dcm_model_check(), then published and never
 * changed in shape again: only key values change. Pure logic: it builds in
 * the kernel and in the host unit tests.
 */
#ifndef _DCM_MODEL_H
#define _DCM_MODEL_H

#include "model/dcm_types.h"

/* Keys every device or subdevice has; ids below DCM_KEY_TYPED. */
enum dcm_std_key {
	DCM_KEY_VALUE,			/* subdevices only */
	DCM_KEY_GAIN,
	DCM_KEY_OFFSET,
	DCM_KEY_MIN,
	DCM_KEY_MAX,
	DCM_KEY_ACK,			/* both */
	DCM_KEY_NACK,
	DCM_KEY_ERROR,
	DCM_KEY_TYPE,
	DCM_KEY_DEVICE,			/* subdevices only */
	DCM_KEY_SUBDEVICENUMBER,
	DCM_KEY_BUS,			/* devices only */
	DCM_KEY_ADDRESS,
	DCM_KEY_AVAILABLE,		/* the board answers: 1, else 0 */
	DCM_KEY_TYPED,			/* id of the first type-specific key */
};

/* What a name or key path designates. */
enum dcm_target {
	DCM_TARGET_NONE,
	DCM_TARGET_DEVICE,
	DCM_TARGET_SUBDEVICE,
	DCM_TARGET_ROBOT,		/* a RobotConfig key */
};

/**
 * union dcm_value - a key value: numbers (int, bool, float in micro-units)
 *	or a string owned by the model
 * @num: DCM_KEY_KIND_INT, _BOOL, _FLOAT
 * @str: DCM_KEY_KIND_STRING, NUL-terminated, at most DCM_MAX_STRING_LEN
 */
union dcm_value {
	s64 num;
	char *str;
};

/**
 * struct dcm_device - a board
 * @name: unique name, no '/'
 * @type: its Type
 * @bus: Bus name
 * @address: Address on the bus
 * @keys: values of @type's keys, in the order of @type->keys
 */
struct dcm_device {
	char *name;
	const struct dcm_device_type *type;
	char *bus;
	u8 address;
	union dcm_value *keys;
};

/* struct dcm_subdevice.set: which mandatory numbers the description gave */
#define DCM_SET_MIN	BIT(0)
#define DCM_SET_MAX	BIT(1)

/**
 * struct dcm_subdevice - an actuator or a sensor
 * @name: unique name, e.g. "HeadPitch/Position/Actuator"
 * @type: its Type
 * @device: index of its device in the model
 * @number: SubDeviceNumber, from 1, unique per device and type
 * @value: Value, micro-units, as the description gives it: where the
 *	running value starts (the running values are the runtime's, published
 *	in its snapshot each cycle)
 * @gain: Gain, micro-units times @gain_den (1.0 by default): Gain is kept
 *	exactly as the fraction @gain / @gain_den, for 1/255 or 2*pi/65536
 * @gain_den: the denominator of @gain, from 1
 * @offset: Offset, micro-units
 * @min: Min, micro-units
 * @max: Max, micro-units
 * @set: DCM_SET_* bits
 * @keys: values of @type's keys, in the order of @type->keys
 */
struct dcm_subdevice {
	char *name;
	const struct dcm_subdevice_type *type;
	u32 device;
	u32 number;
	s64 value, gain, offset, min, max;
	u32 gain_den;
	u32 set;
	union dcm_value *keys;
};

/**
 * struct dcm_robot_key - a RobotConfig key
 * @path: full path, "RobotConfig/Body/Type"
 * @kind: enum dcm_key_kind
 * @value: its value
 */
struct dcm_robot_key {
	char *path;
	u8 kind;
	union dcm_value value;
};

#define DCM_MODEL_HASH_BITS	11

/**
 * struct dcm_name - an entry of the name index
 * @name: the device or subdevice name, or the RobotConfig key path
 * @target: DCM_TARGET_*
 * @index: into the model's array for @target
 * @next: next entry of the same bucket, or -1
 */
struct dcm_name {
	const char *name;
	u8 target;
	u32 index;
	int next;
};

/**
 * struct dcm_model - a robot description
 * @devices: @n_devices devices
 * @subdevices: @n_subdevices subdevices
 * @robot_keys: @n_robot_keys RobotConfig keys
 * @n_devices: count
 * @n_subdevices: count
 * @n_robot_keys: count, at most DCM_MAX_KEYS
 * @names: name index entries, one per device, subdevice and RobotConfig key
 * @n_names: count
 * @buckets: first entry of each hash bucket, or -1
 */
struct dcm_model {
	struct dcm_device devices[DCM_MAX_DEVICES];
	struct dcm_subdevice *subdevices;
	struct dcm_robot_key *robot_keys;
	u32 n_devices, n_subdevices, n_robot_keys;
	struct dcm_name *names;
	u32 n_names;
	int buckets[1 << DCM_MODEL_HASH_BITS];
};

/**
 * struct dcm_keyref - a resolved key path
 * @target: DCM_TARGET_*
 * @index: device, subdevice or robot key index
 * @key: enum dcm_std_key, or DCM_KEY_TYPED + index into the type's keys
 */
struct dcm_keyref {
	u8 target;
	u32 index;
	u32 key;
};

struct dcm_model *dcm_model_alloc(void);
void dcm_model_free(struct dcm_model *m);

int dcm_model_add_device(struct dcm_model *m, const char *name, const char *type,
			 const char *bus, u32 address, const char **why);
int dcm_model_add_subdevice(struct dcm_model *m, const char *name, const char *type,
			    const char *device, u32 number, const char **why);
int dcm_model_set_key(struct dcm_model *m, const char *path, u8 kind, s64 num,
		      const char *str, const char **why);
int dcm_model_set_fraction(struct dcm_model *m, const char *path, s64 num, u32 den,
			   const char **why);
s64 dcm_model_gain(const struct dcm_subdevice *s);
int dcm_model_check(const struct dcm_model *m, char *why, size_t len);
bool dcm_model_equal(const struct dcm_model *a, const struct dcm_model *b);
bool dcm_string_ok(const char *s);

int dcm_model_lookup(const struct dcm_model *m, const char *name, u8 *target, u32 *index);
int dcm_model_resolve(const struct dcm_model *m, const char *path, struct dcm_keyref *ref);
const char *dcm_std_key_name(u32 key);
bool dcm_std_key_applies(u8 target, u32 key);
u8 dcm_keyref_kind(const struct dcm_model *m, const struct dcm_keyref *ref);

#endif /* _DCM_MODEL_H */
