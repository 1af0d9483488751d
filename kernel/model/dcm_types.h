/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the device and subdevice types a robot description may use, and
 * the keys each type has (Documentation/dcm/device-xml.rst lists them).
 *
 * This file is pure data and lookups: it builds in the kernel and in the
 * host unit tests.
 */
#ifndef _DCM_TYPES_H
#define _DCM_TYPES_H

#include "model/dcm_pure.h"

#include <uapi/linux/dcm.h>

/* struct dcm_key_desc.flags */
#define DCM_KEY_CONFIG	BIT(0)	/* set by the description; root-writable */
#define DCM_KEY_LIVE	BIT(1)	/* set by the cycle; read-only */
#define DCM_KEY_STATIC	BIT(2)	/* set by the description only; read-only after */

/**
 * struct dcm_key_desc - a type-specific key
 * @name: key name, the last component of its path ("jointZeroPosition")
 * @kind: enum dcm_key_kind
 * @flags: DCM_KEY_*
 * @min: smallest value of an INT key, when @min < @max (of a FLOAT key:
 *	in whole units)
 * @max: largest value of an INT key, when @min < @max (of a FLOAT key:
 *	in whole units)
 */
struct dcm_key_desc {
	const char *name;
	u8 kind;
	u8 flags;
	int min, max;
};

/* struct dcm_subdevice_type.flags */
#define DCM_SUB_ACTUATOR	BIT(0)	/* takes timed commands */
#define DCM_SUB_STEP		BIT(1)	/* not interpolated: sent once at its time */
#define DCM_SUB_HARDNESS	BIT(2)	/* a joint's stiffness (watchdog ramps it down) */

/**
 * struct dcm_subdevice_type - what a subdevice Type means
 * @name: the Type string of Device.xml ("Joint", "Led", ...)
 * @flags: DCM_SUB_*
 * @keys: the keys it has beyond the mandatory ones
 * @n_keys: how many
 */
struct dcm_subdevice_type {
	const char *name;
	u32 flags;
	const struct dcm_key_desc *keys;
	u32 n_keys;
};

/* struct dcm_device_type.flags */
#define DCM_DEV_RS485	BIT(0)	/* a board of an RS485 bus: it takes one of its 16 Bids */

/* Boards one RS485 bus can carry: the Bids 1..16 of the wire protocol. */
#define DCM_BUS_RS485_MAX_BOARDS	16

/**
 * struct dcm_device_type - what a device Type means
 * @name: the Type string of Device.xml ("MotorBoard", ...)
 * @flags: DCM_DEV_*
 * @keys: the keys it has beyond the mandatory ones
 * @n_keys: how many
 */
struct dcm_device_type {
	const char *name;
	u32 flags;
	const struct dcm_key_desc *keys;
	u32 n_keys;
};

const struct dcm_subdevice_type *dcm_subdevice_type_find(const char *name);
const struct dcm_device_type *dcm_device_type_find(const char *name);
bool dcm_key_desc_in_range(const struct dcm_key_desc *desc, s64 num);
const struct dcm_key_desc *dcm_key_desc_find(const struct dcm_key_desc *keys, u32 n,
					     const char *name);

#endif /* _DCM_TYPES_H */
