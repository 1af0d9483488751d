/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdcm - C library for the dcm kernel driver (NAO Device Communication
 * Manager).
 *
 * Conventions:
 *  - handles are opaque (struct dcm for /dev/dcmN, struct dcm_nl for the
 *    generic netlink family "dcm");
 *  - every function that can fail returns 0 (or a count) on success and a
 *    negative errno on failure; dcm_last_error() then gives a one-line
 *    explanation for the calling thread;
 *  - a handle may be used from several threads at once; the functions
 *    serialise on a per-handle lock where they need to.
 *
 * This header does not include <linux/dcm.h>: the constants below mirror
 * the kernel ABI under LIBDCM_* names, so that programs can include both.
 *
 * Documentation/userspace.rst describes this API.
 */
#ifndef LIBDCM_H
#define LIBDCM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBDCM_VERSION		"0.2.0"

/* The kernel ABI major this library speaks (DCM_ABI_MAJOR). */
#define LIBDCM_ABI_MAJOR	1
/* The newest kernel ABI minor this library knows of (DCM_ABI_MINOR). */
#define LIBDCM_ABI_MINOR	0

#define LIBDCM_NAME_LEN		32	/* DCM_NAME_LEN, NUL included */
#define LIBDCM_MICRO		1000000	/* DCM_MICRO: fixed-point scale */
#define LIBDCM_DEFAULT_DEVICE	"/dev/dcm0"

/* struct dcm_info.flags (same bits as DCM_INFO_F_*) */
#define LIBDCM_INFO_SIMULATED	(1U << 0)	/* the body is dcm_sim */
#define LIBDCM_INFO_CONFIGURED	(1U << 1)	/* a robot description is loaded */
#define LIBDCM_INFO_RUNNING	(1U << 2)	/* the cycle is running */

struct nlmsghdr;

/* ---------------------------------------------------------------------
 * Errors
 */

/*
 * dcm_strerror - text of a negative errno returned by libdcm (thread-safe,
 * never NULL).
 */
const char *dcm_strerror(int err);

/*
 * dcm_last_error - detailed message of the last libdcm call that failed in
 * the calling thread, e.g. "/dev/dcm0: kernel ABI 2.0, libdcm speaks 1.x".
 * Empty string if none. Valid until the next failing call in this thread.
 */
const char *dcm_last_error(void);

/* Library version string, LIBDCM_VERSION of the built library. */
const char *dcm_lib_version(void);

/* ---------------------------------------------------------------------
 * Controller information (both the ioctl and the netlink path)
 */

struct dcm_version {
	uint32_t magic;		/* DCM_ABI_MAGIC */
	unsigned int major;
	unsigned int minor;
};

struct dcm_info {
	unsigned int index;		/* N of /dev/dcmN */
	char name[LIBDCM_NAME_LEN];	/* "dcmN", NUL-terminated */
	char driver[LIBDCM_NAME_LEN];	/* body driver, NUL-terminated */
	unsigned int abi_major;		/* ABI of the running module */
	unsigned int abi_minor;
	uint32_t period_us;		/* cycle period */
	uint32_t time_ms;		/* DCM time (wraps at 2^32) */
	unsigned int n_devices;
	unsigned int n_subdevices;
	uint32_t flags;			/* LIBDCM_INFO_* */
};

/* ---------------------------------------------------------------------
 * Character device /dev/dcmN
 */

struct dcm;

/*
 * dcm_open - open a controller's character device.
 * @path: device node; NULL means LIBDCM_DEFAULT_DEVICE.
 * @out: the new handle on success.
 *
 * Opens read-write, or read-only if write access is refused (read-only
 * handles can do everything that does not command the robot), then checks
 * DCM_IOC_VERSION.
 *
 * Return: 0, or -errno from open(2); -ENOTTY if the node is not a dcm
 * device; -EPROTO if the magic or the ABI major does not match (the
 * kernel's version is in dcm_last_error()).
 */
int dcm_open(const char *path, struct dcm **out);

/* dcm_open_index - dcm_open("/dev/dcm<index>") */
int dcm_open_index(unsigned int index, struct dcm **out);

/* dcm_close - close a handle; NULL is a no-op. */
void dcm_close(struct dcm *dcm);

/* dcm_fd - the file descriptor of the handle (for poll(2)). */
int dcm_fd(const struct dcm *dcm);

/* dcm_path - the device path the handle was opened with. */
const char *dcm_path(const struct dcm *dcm);

/*
 * dcm_abi_version - the ABI version the kernel reported at open time
 * (DCM_IOC_VERSION). Return: 0 or -EINVAL.
 */
int dcm_abi_version(const struct dcm *dcm, struct dcm_version *ver);

/* dcm_get_info - DCM_IOC_INFO. Return: 0 or -errno. */
int dcm_get_info(struct dcm *dcm, struct dcm_info *info);

/* ---------------------------------------------------------------------
 * Generic netlink family "dcm"
 */

struct dcm_nl;

/*
 * dcm_nl_open - connect to generic netlink and resolve the family "dcm".
 * Return: 0; -ENOENT if the family is not registered (dcm.ko not loaded);
 * other -errno on socket errors.
 */
int dcm_nl_open(struct dcm_nl **out);

/* dcm_nl_close - close a handle; NULL is a no-op. */
void dcm_nl_close(struct dcm_nl *nl);

/* dcm_nl_family_id - the resolved generic netlink family id. */
int dcm_nl_family_id(const struct dcm_nl *nl);

/*
 * dcm_nl_get_info - DCM_CMD_GET_INFO (do) for one controller.
 * Return: 0; the kernel's -errno (e.g. -ENODEV for no such index);
 * -EPROTO for a malformed reply.
 */
int dcm_nl_get_info(struct dcm_nl *nl, unsigned int index,
		    struct dcm_info *info);

/*
 * Called once per controller by dcm_nl_dump_info(). Return 0 to go on,
 * anything else to stop: dcm_nl_dump_info() then returns that value.
 */
typedef int (*dcm_info_cb)(const struct dcm_info *info, void *arg);

/*
 * dcm_nl_dump_info - DCM_CMD_GET_INFO (dump) over all controllers.
 * Return: the number of controllers reported, the callback's non-zero
 * return value, or -errno (-EPROTO for a malformed reply).
 */
int dcm_nl_dump_info(struct dcm_nl *nl, dcm_info_cb cb, void *arg);

/*
 * dcm_nl_parse_info - parse one GET_INFO reply message.
 * @nlh: a complete netlink message (header + genl header + attributes),
 *	 nlh->nlmsg_len bytes long.
 *
 * Every DCM_A_INFO_* attribute must be present with its exact type and
 * length (u32: 4 bytes; strings: NUL-terminated, at most LIBDCM_NAME_LEN
 * bytes with the NUL); unknown attributes are ignored (a newer ABI minor
 * may add some).
 *
 * Return: 0, or -EPROTO (detail in dcm_last_error()). @info is only
 * written on success.
 */
int dcm_nl_parse_info(struct nlmsghdr *nlh, struct dcm_info *info);

/*
 * dcm_nl_subscribe_events - join the multicast group "events" on a
 * separate, non-blocking socket (request replies and events never mix).
 * Return: 0; -ENOENT if the family has no such group; -errno.
 */
int dcm_nl_subscribe_events(struct dcm_nl *nl);

/*
 * dcm_nl_event_fd - the event socket's descriptor, for poll(2)/epoll.
 * Return: the fd, or -ENOTCONN before dcm_nl_subscribe_events().
 */
int dcm_nl_event_fd(const struct dcm_nl *nl);

/*
 * One received event message of family "dcm". @cmd and @version come from
 * the generic netlink header; @nlh is the whole message (valid during the
 * call only). Return 0 to go on, non-zero to stop: dcm_nl_recv() then
 * returns that value.
 */
struct dcm_nl_event {
	uint8_t cmd;
	uint8_t version;
	const struct nlmsghdr *nlh;
};
typedef int (*dcm_event_cb)(const struct dcm_nl_event *ev, void *arg);

/*
 * dcm_nl_recv - receive what is queued on the event socket (does not
 * block) and call @cb for each message of the family "dcm" that comes from
 * the kernel; other messages are dropped.
 * Return: the number of messages passed to @cb (0 if nothing was queued),
 * the callback's non-zero return value, -ENOTCONN if not subscribed,
 * -ENOBUFS if the socket overran and events were lost (the socket stays
 * usable), or another -errno.
 */
int dcm_nl_recv(struct dcm_nl *nl, dcm_event_cb cb, void *arg);

/* ---------------------------------------------------------------------
 * Configuration: loading a robot description into the kernel
 *
 * One transaction per controller at a time, owned by the handle's request
 * socket: dcm_nl_config_begin(), then any number of add_device,
 * add_subdevice and set_key steps, then dcm_nl_config_commit() (the kernel
 * checks the whole and replaces the running description in one step) or
 * dcm_nl_config_abort(). Every step is checked by the kernel at once; a
 * refused step ends the transaction (the running description is
 * untouched). Closing the handle drops an open transaction. All need
 * CAP_NET_ADMIN.
 *
 * Every function returns 0 or a negative errno. On failure,
 * dcm_last_error() is the kernel's own explanation (its extended ack)
 * when it gave one, verbatim, e.g. "key HeadPitch/Position/Sensor/
 * jointZeroPosition: the value is outside the key's range"; for -EPERM
 * without one, "permission denied: configuring dcm needs CAP_NET_ADMIN
 * (root)"; otherwise a libdcm message.
 */

/* Kinds of key values (enum dcm_key_kind of the kernel ABI). */
#define LIBDCM_KEY_INT		1	/* num: an integer */
#define LIBDCM_KEY_FLOAT	2	/* num: micro-units */
#define LIBDCM_KEY_BOOL		3	/* num: 0 or 1 */
#define LIBDCM_KEY_STRING	4	/* str */

/* Limits of a description (DCM_MAX_*). */
#define LIBDCM_MAX_DEVICES	64
#define LIBDCM_MAX_SUBDEVICES	1024
#define LIBDCM_MAX_KEYS		1024	/* RobotConfig keys */
#define LIBDCM_MAX_NAME_LEN	128	/* name or key path, NUL included */
#define LIBDCM_MAX_STRING_LEN	256	/* string value, NUL included */

struct dcm_key_value {
	int kind;		/* LIBDCM_KEY_* */
	int64_t num;		/* INT, BOOL, FLOAT (micro-units) */
	const char *str;	/* STRING */
	uint32_t den;		/* FLOAT only, 0 or 1: none; else the value is
				 * num / den micro-units (exact for a Gain) */
};

/* What a commit published (the kernel's answer). */
struct dcm_config_counts {
	unsigned int n_devices;
	unsigned int n_subdevices;
	unsigned int n_keys;	/* RobotConfig keys */
};

/* DCM_CMD_CONFIG_BEGIN: open (or restart, empty) a transaction. */
int dcm_nl_config_begin(struct dcm_nl *nl, unsigned int index);

/* DCM_CMD_CONFIG_ADD_DEVICE: a board; @address 0-255. */
int dcm_nl_config_add_device(struct dcm_nl *nl, unsigned int index,
			     const char *name, const char *type,
			     const char *bus, unsigned int address);

/*
 * DCM_CMD_CONFIG_ADD_SUBDEVICE: a subdevice of a device added before;
 * @number is its SubDeviceNumber, 1-255.
 */
int dcm_nl_config_add_subdevice(struct dcm_nl *nl, unsigned int index,
				const char *name, const char *type,
				const char *device, unsigned int number);

/*
 * DCM_CMD_CONFIG_SET_KEY: @path is "<subdevice>/<key>" (or with the
 * "Device/SubDeviceList/" prefix), "Device/DeviceList/<device>/<key>" or
 * "RobotConfig/..."; setting a key again replaces its value.
 */
int dcm_nl_config_set_key(struct dcm_nl *nl, unsigned int index,
			  const char *path, const struct dcm_key_value *v);

/*
 * DCM_CMD_CONFIG_COMMIT: check and publish. @counts (may be NULL) gets
 * what the kernel committed.
 */
int dcm_nl_config_commit(struct dcm_nl *nl, unsigned int index,
			 struct dcm_config_counts *counts);

/* DCM_CMD_CONFIG_ABORT: drop the staged description. */
int dcm_nl_config_abort(struct dcm_nl *nl, unsigned int index);

/* ---------------------------------------------------------------------
 * Fixed point (values cross the kernel boundary as s64 micro-units)
 */

/*
 * dcm_fixed_from_string - decimal text to micro-units, exactly: the text
 * "[+-]digits[.digits][(e|E)[+-]digits]" (".5" and "5." too) is rounded to
 * the nearest micro-unit, ties away from zero, without going through a
 * double. Nothing else is accepted: no blanks, no hex, no "nan" or "inf".
 * Return: 0; -EINVAL for text that is not such a number; -ERANGE if the
 * value does not fit in int64_t micro-units. *@out is only written on
 * success.
 */
int dcm_fixed_from_string(const char *s, int64_t *out);

/*
 * dcm_fraction_from_string - decimal text as the exact fraction
 * *@num / *@den micro-units, *@den a power of ten up to 10^9: "0.0039215686"
 * is 39215686 / 10000; a value with at most 6 decimals has *@den 1. Past 15
 * decimals (or when *@num would not fit) it rounds, half away from zero,
 * at the last decimal kept. Same text and errors as dcm_fixed_from_string().
 * The kernel keeps a Gain as such a fraction (DCM_A_CFG_VALUE_DEN) and
 * rounds every other float to the micro-unit.
 */
int dcm_fraction_from_string(const char *s, int64_t *num, uint32_t *den);

/*
 * dcm_fixed_to_double - micro-units to a double (correctly rounded for
 * |v| <= 2^53).
 */
double dcm_fixed_to_double(int64_t v);

/*
 * dcm_double_to_fixed - a double to micro-units: rounded to the nearest
 * integer (ties away from zero, on the exact value of @d), saturated at
 * INT64_MIN/INT64_MAX (also for +-infinity). NaN gives 0: use the checked
 * variant to see it.
 */
int64_t dcm_double_to_fixed(double d);

/*
 * dcm_double_to_fixed_checked - as dcm_double_to_fixed().
 * Return: 0; -EINVAL for NaN (*out untouched); -ERANGE if the value was
 * saturated (*out holds INT64_MIN or INT64_MAX).
 */
int dcm_double_to_fixed_checked(double d, int64_t *out);

/* ---------------------------------------------------------------------
 * DCM time: milliseconds, 32 bits, wraps at 2^32
 */

/*
 * dcm_time_diff - a - b as a signed number of milliseconds, correct across
 * the wrap as long as the two times are less than 2^31 ms (24.8 days)
 * apart. dcm_time_diff(a, b) > 0 means a is later than b.
 */
int32_t dcm_time_diff(uint32_t a, uint32_t b);

/* dcm_time_add - t + ms, wrapping like the DCM clock. */
uint32_t dcm_time_add(uint32_t t, int32_t ms);

#ifdef __cplusplus
}
#endif

#endif /* LIBDCM_H */
