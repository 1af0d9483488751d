/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dcm - Device Communication Manager for the NAO robot.
 *
 * The user-space ABI: the ioctls of /dev/dcmN and the generic netlink
 * family "dcm". Values that cross the boundary are fixed point, in
 * micro-units (1.0 == 1000000), like IIO_VAL_INT_PLUS_MICRO.
 *
 * Documentation/userspace-api/dcm.rst and
 * Documentation/netlink/specs/dcm.yaml describe this file.
 */
#ifndef _UAPI_LINUX_DCM_H
#define _UAPI_LINUX_DCM_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* ABI identity: "DCM" + 0x01, checked by libdcm before anything else. */
#define DCM_ABI_MAGIC		0x44434d01
#define DCM_ABI_MAJOR		1
#define DCM_ABI_MINOR		0
#define DCM_ABI_VERSION		((DCM_ABI_MAJOR << 16) | DCM_ABI_MINOR)

#define DCM_NAME_LEN		32	/* controller and driver names, NUL included */
#define DCM_MICRO		1000000	/* fixed-point scale of every value */

/**
 * struct dcm_ioc_version - answer of DCM_IOC_VERSION
 * @magic: DCM_ABI_MAGIC
 * @major: DCM_ABI_MAJOR of the running module; a different major is
 *	incompatible
 * @minor: DCM_ABI_MINOR of the running module; a newer minor only adds
 */
struct dcm_ioc_version {
	__u32 magic;
	__u16 major;
	__u16 minor;
};

/* struct dcm_ioc_info.flags */
#define DCM_INFO_F_SIMULATED	(1U << 0)	/* the body is dcm_sim */
#define DCM_INFO_F_CONFIGURED	(1U << 1)	/* a robot description is loaded */
#define DCM_INFO_F_RUNNING	(1U << 2)	/* the cycle is running */

/**
 * struct dcm_ioc_info - answer of DCM_IOC_INFO
 * @abi_version: DCM_ABI_VERSION of the running module
 * @index: controller index, N of /dev/dcmN
 * @name: controller name, "dcmN"
 * @driver: name of the body driver that registered the controller
 * @period_us: cycle period in microseconds
 * @time_ms: DCM time now, in milliseconds (32 bits, wraps)
 * @n_devices: devices in the loaded description
 * @n_subdevices: subdevices in the loaded description
 * @flags: DCM_INFO_F_*
 * @reserved: zero
 */
struct dcm_ioc_info {
	__u32 abi_version;
	__u32 index;
	char name[DCM_NAME_LEN];
	char driver[DCM_NAME_LEN];
	__u32 period_us;
	__u32 time_ms;
	__u32 n_devices;
	__u32 n_subdevices;
	__u32 flags;
	__u32 reserved[7];
};

#define DCM_IOC_MAGIC		0xDC

#define DCM_IOC_VERSION		_IOR(DCM_IOC_MAGIC, 0x00, struct dcm_ioc_version)
#define DCM_IOC_INFO		_IOR(DCM_IOC_MAGIC, 0x01, struct dcm_ioc_info)

/* Generic netlink family "dcm". */
#define DCM_GENL_NAME		"dcm"
#define DCM_GENL_VERSION	1
#define DCM_GENL_MCGRP_EVENTS	"events"

/* Attributes of the "info" set: one controller. */
enum {
	DCM_A_INFO_UNSPEC,
	DCM_A_INFO_INDEX,		/* u32 */
	DCM_A_INFO_NAME,		/* string */
	DCM_A_INFO_DRIVER,		/* string */
	DCM_A_INFO_ABI_VERSION,		/* u32 */
	DCM_A_INFO_PERIOD_US,		/* u32 */
	DCM_A_INFO_TIME_MS,		/* u32 */
	DCM_A_INFO_N_DEVICES,		/* u32 */
	DCM_A_INFO_N_SUBDEVICES,	/* u32 */
	DCM_A_INFO_FLAGS,		/* u32 */

	__DCM_A_INFO_MAX,
	DCM_A_INFO_MAX = __DCM_A_INFO_MAX - 1
};

/*
 * Limits of a robot description, checked by the kernel at every step of a
 * configuration transaction.
 */
#define DCM_MAX_DEVICES		64
#define DCM_MAX_SUBDEVICES	1024
#define DCM_MAX_KEYS		1024	/* RobotConfig keys */
#define DCM_MAX_NAME_LEN	128	/* a device, subdevice or key path, NUL included */
#define DCM_MAX_STRING_LEN	256	/* a string key value, NUL included */

/* Kinds of key values (the spec's float, int, bool and string). */
enum dcm_key_kind {
	DCM_KEY_KIND_UNSPEC,
	DCM_KEY_KIND_INT,	/* DCM_A_CFG_VALUE_INT, an integer */
	DCM_KEY_KIND_FLOAT,	/* DCM_A_CFG_VALUE_INT, micro-units */
	DCM_KEY_KIND_BOOL,	/* DCM_A_CFG_VALUE_INT, 0 or 1 */
	DCM_KEY_KIND_STRING,	/* DCM_A_CFG_VALUE_STRING */

	__DCM_KEY_KIND_MAX,
	DCM_KEY_KIND_MAX = __DCM_KEY_KIND_MAX - 1
};

/* Attributes of the "config" set: one step of a configuration transaction. */
enum {
	DCM_A_CFG_UNSPEC,
	DCM_A_CFG_INDEX,		/* u32: controller */
	DCM_A_CFG_NAME,			/* string: device or subdevice name, or key path */
	DCM_A_CFG_TYPE,			/* string: device or subdevice type */
	DCM_A_CFG_BUS,			/* string: device bus */
	DCM_A_CFG_ADDRESS,		/* u32: device address, 0-255 */
	DCM_A_CFG_DEVICE,		/* string: a subdevice's device */
	DCM_A_CFG_NUMBER,		/* u32: SubDeviceNumber, from 1 */
	DCM_A_CFG_KIND,			/* u8: enum dcm_key_kind */
	DCM_A_CFG_VALUE_INT,		/* s64 */
	DCM_A_CFG_VALUE_STRING,		/* string */
	DCM_A_CFG_N_DEVICES,		/* u32, in the commit answer */
	DCM_A_CFG_N_SUBDEVICES,		/* u32, in the commit answer */
	DCM_A_CFG_N_KEYS,		/* u32, in the commit answer */

	__DCM_A_CFG_MAX,
	DCM_A_CFG_MAX = __DCM_A_CFG_MAX - 1
};

/*
 * Configuration: BEGIN opens a transaction on a controller for the calling
 * socket (one at a time per controller; another socket gets EBUSY). ADD_*
 * and SET_KEY stage a new description, each checked at once; COMMIT checks
 * the whole and replaces the running description in one step, or changes
 * nothing; ABORT, or closing the socket, drops the staged one. All need
 * CAP_NET_ADMIN.
 */
enum {
	DCM_CMD_UNSPEC,
	DCM_CMD_GET_INFO,	/* do: DCM_A_INFO_INDEX; dump: all controllers */
	DCM_CMD_CONFIG_BEGIN,		/* INDEX */
	DCM_CMD_CONFIG_ADD_DEVICE,	/* INDEX NAME TYPE BUS ADDRESS */
	DCM_CMD_CONFIG_ADD_SUBDEVICE,	/* INDEX NAME TYPE DEVICE NUMBER */
	DCM_CMD_CONFIG_SET_KEY,		/* INDEX NAME(key path) KIND VALUE_* */
	DCM_CMD_CONFIG_COMMIT,		/* INDEX; answers N_DEVICES N_SUBDEVICES N_KEYS */
	DCM_CMD_CONFIG_ABORT,		/* INDEX */

	__DCM_CMD_MAX,
	DCM_CMD_MAX = __DCM_CMD_MAX - 1
};

#endif /* _UAPI_LINUX_DCM_H */
