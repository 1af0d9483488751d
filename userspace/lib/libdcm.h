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

#define LIBDCM_VERSION		"0.8.0"

/* The kernel ABI major this library speaks (DCM_ABI_MAJOR). */
#define LIBDCM_ABI_MAJOR	1
/* The newest kernel ABI minor this library knows of (DCM_ABI_MINOR). */
#define LIBDCM_ABI_MINOR	10

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

/**
 * dcm_strerror() - text of a negative errno returned by libdcm (thread-safe,
 * never NULL).
 * @err: a negative errno a libdcm call returned
 */
const char *dcm_strerror(int err);

/**
 * dcm_last_error() - detailed message of the last libdcm call that failed in
 * the calling thread, e.g. "/dev/dcm0: kernel ABI 2.0, libdcm speaks 1.x".
 * Empty string if none. Valid until the next failing call in this thread.
 */
const char *dcm_last_error(void);

/**
 * dcm_lib_version() - the library's version, LIBDCM_VERSION of the built
 * library
 */
const char *dcm_lib_version(void);

/* ---------------------------------------------------------------------
 * Controller information (both the ioctl and the netlink path)
 */

/**
 * struct dcm_version - the kernel ABI a controller speaks (dcm_abi_version())
 * @magic: DCM_ABI_MAGIC
 * @major: its major: incompatible changes
 * @minor: its minor: additions
 */
struct dcm_version {
	uint32_t magic;
	unsigned int major;
	unsigned int minor;
};

/**
 * struct dcm_info - a controller's information (dcm_get_info(),
 * dcm_nl_get_info())
 * @index: N of /dev/dcmN
 * @name: "dcmN", NUL-terminated
 * @driver: body driver, NUL-terminated
 * @abi_major: ABI of the running module
 * @abi_minor: ABI minor of the running module
 * @period_us: cycle period
 * @time_ms: DCM time (wraps at 2^32)
 * @n_devices: devices of the running description
 * @n_subdevices: subdevices of the running description
 * @flags: LIBDCM_INFO_*
 */
struct dcm_info {
	unsigned int index;
	char name[LIBDCM_NAME_LEN];
	char driver[LIBDCM_NAME_LEN];
	unsigned int abi_major;
	unsigned int abi_minor;
	uint32_t period_us;
	uint32_t time_ms;
	unsigned int n_devices;
	unsigned int n_subdevices;
	uint32_t flags;
};

/* ---------------------------------------------------------------------
 * Character device /dev/dcmN
 */

struct dcm;

/**
 * dcm_open() - open a controller's character device.
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

/**
 * dcm_open_index() - dcm_open("/dev/dcm<index>")
 * @index: N of /dev/dcmN
 * @out: set to the new handle on success
 */
int dcm_open_index(unsigned int index, struct dcm **out);

/**
 * dcm_close() - close a handle; NULL is a no-op.
 * @dcm: the handle (dcm_open())
 */
void dcm_close(struct dcm *dcm);

/**
 * dcm_fd() - the file descriptor of the handle (for poll(2)).
 * @dcm: the handle (dcm_open())
 */
int dcm_fd(const struct dcm *dcm);

/**
 * dcm_path() - the device path the handle was opened with.
 * @dcm: the handle (dcm_open())
 */
const char *dcm_path(const struct dcm *dcm);

/**
 * dcm_abi_version() - the ABI version the kernel reported at open time
 * (DCM_IOC_VERSION). Return: 0 or -EINVAL.
 * @dcm: the handle (dcm_open())
 * @ver: filled with the magic and the ABI version
 */
int dcm_abi_version(const struct dcm *dcm, struct dcm_version *ver);

/**
 * dcm_get_info() - DCM_IOC_INFO. Return: 0 or -errno.
 * @dcm: the handle (dcm_open())
 * @info: filled with the controller's information
 */
int dcm_get_info(struct dcm *dcm, struct dcm_info *info);

/* ---------------------------------------------------------------------
 * Keys, timed commands, aliases, DCM time, values (/dev/dcmN ioctls)
 *
 * Values are doubles in the units of the key space (rad, A, degC, 0..1 for
 * LEDs, ...); they cross the kernel boundary as micro-units, rounded to the
 * nearest one (dcm_double_to_fixed()). NaN and infinities are refused with
 * -EINVAL, values beyond +-9.2e12 with -ERANGE.
 *
 * A handle names a subdevice: its low 16 bits are its index in frames and
 * in the snapshot (LIBDCM_HANDLE_INDEX), its high 16 bits the generation of
 * the running description (LIBDCM_HANDLE_GEN). When the description is
 * replaced, old handles give -ESTALE: look the names up again. A handle is
 * never 0; 0 marks a blank alias member.
 *
 * All of these only use the caller's memory and one ioctl or read() each:
 * any number of threads may call them on one struct dcm at once.
 */

#define LIBDCM_KEY_NAME_LEN	128	/* DCM_KEY_NAME_LEN, NUL included */
#define LIBDCM_ALIAS_NAME_LEN	64	/* DCM_ALIAS_NAME_LEN, NUL included */
#define LIBDCM_MAX_POINTS	512	/* commands queued per actuator */
#define LIBDCM_MAX_ALIAS_MEMBERS 256	/* actuators in one alias */
#define LIBDCM_MAX_ALIASES	64	/* aliases per controller */
#define LIBDCM_MAX_IMPORTANCE	7

#define LIBDCM_HANDLE_INDEX(h)	((h) & 0xffffU)
#define LIBDCM_HANDLE_GEN(h)	((h) >> 16)

/* struct dcm_key.flags (same bits as DCM_LOOKUP_F_*) */
#define LIBDCM_KEY_ACTUATOR	(1U << 0)	/* takes timed commands */
#define LIBDCM_KEY_STEP		(1U << 1)	/* not interpolated (the sonar) */
/*
 * A live key, not a subdevice's Value (ABI 1.4): a status word, a sonar
 * echo, a board's Available, Ack or Nack. It has a handle like a Value for
 * dcm_get_values(), frames and the snapshot, in the same units (a Status
 * of 3 reads 3.0), and takes no command.
 */
#define LIBDCM_KEY_LIVE		(1U << 2)

/**
 * enum dcm_update_kind - what a set does to the queued commands
 * @LIBDCM_CLEAR_ALL: drop them all, queue the new ones
 * @LIBDCM_MERGE: keep them, insert the new ones by time
 * @LIBDCM_CLEAR_AFTER: drop those after the earliest new one
 * @LIBDCM_CLEAR_BEFORE: drop those before the latest new one
 *
 * What a set does to the commands already queued (the values of the
 * kernel's enum dcm_update; NAOqi's "ClearAll", "Merge", "ClearAfter",
 * "ClearBefore").
 */
enum dcm_update_kind {
	LIBDCM_CLEAR_ALL = 0,
	LIBDCM_MERGE = 1,
	LIBDCM_CLEAR_AFTER = 2,
	LIBDCM_CLEAR_BEFORE = 3,
};

/**
 * enum dcm_alias_time_mode - how a setAlias gives its times
 * @LIBDCM_TIME_MIXED: each member its own points: dcm_alias_set_mixed()
 * @LIBDCM_TIME_SEPARATE: one list of times: dcm_alias_set_separate()
 *
 * How a setAlias gives its times (NAOqi's "time-mixed", "time-separate").
 */
enum dcm_alias_time_mode {
	LIBDCM_TIME_MIXED = 0,
	LIBDCM_TIME_SEPARATE = 1,
};

/**
 * dcm_kind_from_string() - an update kind from its NAOqi name: "ClearAll",
 * "Merge", "ClearAfter", "ClearBefore". Case, '-' and '_' do not count
 * ("clear-all" and "CLEAR_ALL" work too).
 * Return: 0 with *@out set; -EINVAL for another name or NULL.
 * @s: the name
 * @out: set to the update kind
 */
int dcm_kind_from_string(const char *s, enum dcm_update_kind *out);

/**
 * dcm_kind_to_string() - NAOqi's name of @kind ("ClearAll", ...), or NULL.
 * @kind: an update kind
 */
const char *dcm_kind_to_string(enum dcm_update_kind kind);

/**
 * dcm_alias_mode_from_string() - an alias mode from its NAOqi name:
 * "time-mixed", "time-separate" (case, '-' and '_' do not count).
 * Return: 0 with *@out set; -EINVAL for another name or NULL.
 * @s: the name
 * @out: set to the alias mode
 */
int dcm_alias_mode_from_string(const char *s, enum dcm_alias_time_mode *out);

/**
 * dcm_alias_mode_to_string() - NAOqi's name of @mode ("time-mixed", ...), or
 * NULL.
 * @mode: an alias mode
 */
const char *dcm_alias_mode_to_string(enum dcm_alias_time_mode mode);

/**
 * struct dcm_key - a key looked up (dcm_lookup())
 * @handle: its handle, for dcm_set(), dcm_get() and the snapshot
 * @flags: LIBDCM_KEY_*
 */
struct dcm_key {
	uint32_t handle;
	uint32_t flags;
};

/**
 * struct dcm_timed_point - one timed command
 * @value: the value to reach
 * @time: when: a DCM time (ms)
 * @importance: 0-7, kept with the command
 *
 * One timed command: reach @value at DCM time @time (ms).
 */
struct dcm_timed_point {
	double value;
	uint32_t time;
	uint8_t importance;
};

/**
 * dcm_lookup() - a subdevice's handle from its name: "HeadYaw/Position/
 * Actuator", with or without the "Device/SubDeviceList/" prefix and the
 * "/Value" suffix (DCM_IOC_LOOKUP). Since ABI 1.4 also a live key's:
 * "HeadYaw/Temperature/Sensor/Status", "US/Left/Sensor/Value3",
 * "Device/DeviceList/ChestBoard/Available" (LIBDCM_KEY_LIVE in @out->flags).
 * Return: 0; -ENOENT for no such subdevice (or no description loaded);
 * -EINVAL for an empty name; -ENAMETOOLONG for one of LIBDCM_KEY_NAME_LEN
 * bytes or more; other -errno.
 * @dcm: the handle (dcm_open())
 * @name: the subdevice's key name
 * @out: filled with the key's handle and what it is
 */
int dcm_lookup(struct dcm *dcm, const char *name, struct dcm_key *out);

/**
 * dcm_set() - timed commands to one actuator (DCM_IOC_SET).
 * @n: 0 to LIBDCM_MAX_POINTS; 0 with LIBDCM_CLEAR_ALL drops every queued
 * command and keeps the last value sent.
 * Return: 0; -EINVAL for a non-finite value, an importance past 7, an
 * unknown kind, more than LIBDCM_MAX_POINTS points, or a handle that is
 * not an actuator's; -ERANGE for a value out of range; -ESTALE for a
 * handle of a replaced description; -ENOSPC when the queue would pass 512
 * commands (nothing is queued then); other -errno.
 * @dcm: the handle (dcm_open())
 * @handle: the actuator's handle (dcm_lookup())
 * @update: how the points join the actuator's queue (LIBDCM_CLEAR_ALL, ...)
 * @pts: the timed points, values at DCM times
 */
int dcm_set(struct dcm *dcm, uint32_t handle, enum dcm_update_kind update,
	    const struct dcm_timed_point *pts, size_t n);

/**
 * dcm_set_now() - one command, importance 0, at DCM time now + @offset_ms
 * (a time now or past applies at the next cycle). Errors as dcm_set() and
 * dcm_time().
 * @dcm: the handle (dcm_open())
 * @handle: the actuator's handle (dcm_lookup())
 * @update: how the points join the actuator's queue (LIBDCM_CLEAR_ALL, ...)
 * @value: the command
 * @offset_ms: when: DCM time now plus this many ms
 */
int dcm_set_now(struct dcm *dcm, uint32_t handle, enum dcm_update_kind update,
		double value, int32_t offset_ms);

/**
 * dcm_alias_create() - name a list of actuators (NAOqi's createAlias,
 * DCM_IOC_ALIAS_CREATE). Since ABI 1.4 the alias is this handle's own:
 * other handles (and processes) do not see it, another handle may have an
 * alias of the same name, and it is freed by dcm_close(). An own alias of
 * the same name is replaced. (With a module of ABI 1.3 or older, every
 * alias is shared, as dcm_alias_create_shared() makes them.) A name is
 * found among the handle's own aliases first, then among the shared ones.
 * @name: 1 to LIBDCM_ALIAS_NAME_LEN - 1 bytes
 * @members: @n actuator names (as for dcm_lookup()), 1 to
 * LIBDCM_MAX_ALIAS_MEMBERS
 * @handles_out: NULL, or @n handles: each member's, 0 for a name that is no
 * actuator (the alias keeps it as a blank member); a member name of
 * LIBDCM_KEY_NAME_LEN bytes or more names no key, so it is blank too
 * (as in NAOqi's createAlias)
 * Return: the number of members that are actuators (not blank); -EINVAL
 * for an empty name, a NULL member or a bad count; -ENAMETOOLONG for an
 * alias name that does not fit; -ENOSPC when all LIBDCM_MAX_ALIASES are
 * taken; other -errno.
 * @dcm: the handle (dcm_open())
 * @n: the count of @members
 */
int dcm_alias_create(struct dcm *dcm, const char *name,
		     const char *const *members, size_t n,
		     uint32_t *handles_out);

/**
 * dcm_alias_create_shared() - as dcm_alias_create(), an alias of the
 * controller (ABI 1.4, DCM_ALIAS_F_SHARED): every handle of every process
 * sees it (unless it has an own alias of that name), it outlives the
 * handle, and stays until dcm_alias_delete() or the controller goes. The
 * rule for shared names: any writer may replace or delete a shared alias,
 * so clients prefix theirs with their own name. -ENOSPC when the
 * controller's LIBDCM_MAX_ALIASES shared aliases are taken.
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @members: the actuators' key names, as for dcm_alias_create()
 * @n: the count of @members
 * @handles_out: if not NULL, gets each member's handle (0 for a blank member)
 */
int dcm_alias_create_shared(struct dcm *dcm, const char *name,
			    const char *const *members, size_t n, uint32_t *handles_out);

/**
 * struct dcm_alias_entry - one alias a handle sees
 * @name: its name
 * @n_members: blank members included
 * @shared: the controller's, else the handle's own
 *
 * One alias a handle sees (dcm_alias_list()).
 */
struct dcm_alias_entry {
	char name[LIBDCM_ALIAS_NAME_LEN];
	uint32_t n_members;
	bool shared;
};

/**
 * dcm_alias_list() - the aliases this handle sees: its own, then the shared
 * ones its own do not hide (DCM_IOC_ALIAS_LIST, ABI 1.4).
 * @out: set to a malloc()ed array for free(), NULL when there are none
 * Return: how many (0 or more); -EOPNOTSUPP before ABI 1.4; other -errno.
 * @dcm: the handle (dcm_open())
 */
int dcm_alias_list(struct dcm *dcm, struct dcm_alias_entry **out);

/**
 * struct dcm_alias_desc - an alias's members
 * @shared: the controller's alias (every handle sees it), not the handle's own
 * @n_members: the count of @members and @handles
 * @members: as given; "" for a too-long one
 * @handles: in the running description, 0: blank
 *
 * An alias's members (dcm_alias_show()); free with dcm_alias_desc_free().
 */
struct dcm_alias_desc {
	bool shared;
	size_t n_members;
	char (*members)[LIBDCM_KEY_NAME_LEN];
	uint32_t *handles;
};

/**
 * dcm_alias_show() - the members of the alias @name designates for this
 * handle (its own first, then the shared one; only the shared one with
 * @shared_only), DCM_IOC_ALIAS_GET, ABI 1.4.
 * Return: 0; -ENOENT for no such alias; -EOPNOTSUPP before ABI 1.4; other
 * -errno.
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @shared_only: only the controller's shared alias of that name
 * @out: filled with the members; free with dcm_alias_desc_free()
 */
int dcm_alias_show(struct dcm *dcm, const char *name, bool shared_only,
		   struct dcm_alias_desc *out);

/**
 * dcm_alias_desc_free() - free what dcm_alias_show() allocated in its answer
 * @d: what dcm_alias_show() filled (its fields are zeroed)
 */
void dcm_alias_desc_free(struct dcm_alias_desc *d);

/**
 * dcm_alias_delete() - free an alias and its slot (DCM_IOC_ALIAS_DELETE, ABI
 * 1.4): the one @name designates for this handle (its own first), or with
 * @shared_only the shared one.
 * Return: 0; -ENOENT for no such alias; -EBADF for a read-only handle;
 * -EOPNOTSUPP before ABI 1.4; other -errno.
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @shared_only: only the controller's shared alias of that name
 */
int dcm_alias_delete(struct dcm *dcm, const char *name, bool shared_only);

/**
 * dcm_alias_set_separate() - NAOqi's setAlias "time-separate": one list of
 * @n_times times and, for every member, a value per time:
 * @values[member * n_times + time]. @n_members must be the alias's member
 * count, blank members included (they take nothing). Either every member's
 * queue takes its commands, or none does.
 * Return: 0; -ENOENT for no such alias; -EINVAL for a member count that is
 * not the alias's, @n_times 0 or past LIBDCM_MAX_POINTS, a non-finite
 * value, an importance past 7; -ERANGE; -ENOSPC when a member's queue
 * would overflow; other -errno.
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @update: how the points join the actuator's queue (LIBDCM_CLEAR_ALL, ...)
 * @times: the @n_times times, ms after the base time
 * @n_times: the count of @times
 * @values: @n_members * @n_times values, member after member
 * @n_members: the alias's member count, blank members included
 * @importance: 0 to 7
 */
int dcm_alias_set_separate(struct dcm *dcm, const char *name,
			   enum dcm_update_kind update,
			   const uint32_t *times, size_t n_times,
			   const double *values, size_t n_members,
			   uint8_t importance);

/**
 * dcm_alias_set_mixed() - NAOqi's setAlias "time-mixed": each member its own
 * points, @counts[member] of them (0 is allowed), member after member in
 * @points. Errors as dcm_alias_set_separate().
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @update: how the points join the actuator's queue (LIBDCM_CLEAR_ALL, ...)
 * @points: every member's points, member after member
 * @counts: @n_members counts: each member's share of @points
 * @n_members: the alias's member count, blank members included
 */
int dcm_alias_set_mixed(struct dcm *dcm, const char *name,
			enum dcm_update_kind update,
			const struct dcm_timed_point *points,
			const size_t *counts, size_t n_members);

/**
 * dcm_alias_set_all() - NAOqi's set on an alias name: every member of alias
 * @name takes the same @n points (0 to LIBDCM_MAX_POINTS; 0 with
 * LIBDCM_CLEAR_ALL drops every member's queue), blank members nothing.
 * The caller need not know the member count. Either every member's queue
 * takes the commands, or none does.
 * Return: 0; -ENOENT for no such alias; -EINVAL as for dcm_set();
 * -ERANGE; -ENOSPC when a member's queue would overflow; -EOPNOTSUPP on a
 * kernel of ABI 1.2 or older; other -errno.
 * @dcm: the handle (dcm_open())
 * @name: the alias's name
 * @update: how the points join the actuator's queue (LIBDCM_CLEAR_ALL, ...)
 * @pts: the points every member takes
 * @n: the count of @pts
 */
int dcm_alias_set_all(struct dcm *dcm, const char *name, enum dcm_update_kind update,
		      const struct dcm_timed_point *pts, size_t n);

/**
 * dcm_time() - NAOqi's getTime(offset): DCM time now plus @offset ms, in
 * *@out (wraps at 2^32; compare with dcm_time_diff()). Return: 0 or -errno.
 * @dcm: the handle (dcm_open())
 * @offset: ms added to DCM time now (may be negative)
 * @out: set to the DCM time
 */
int dcm_time(struct dcm *dcm, int32_t offset, uint32_t *out);

/**
 * dcm_get() - the values of @n handles (1 to LIBDCM_MAX_SUBDEVICES), all from
 * one cycle, and (if @times is not NULL) the DCM time of each one's last
 * update (0 if never updated). Return: 0; -ESTALE, -ENOENT for a bad handle
 * (nothing is written then); other -errno.
 * @dcm: the handle (dcm_open())
 * @handles: the handles to read
 * @n: the count of @handles
 * @values: gets @n values
 * @times: if not NULL, gets the @n DCM times of their last update
 */
int dcm_get(struct dcm *dcm, const uint32_t *handles, size_t n,
	    double *values, uint32_t *times);

/* ---------------------------------------------------------------------
 * Client supervision: a watchdog on this handle's commands (DCM_IOC_WATCHDOG)
 *
 * Armed, the watchdog wants a refresh within @timeout_ms: every successful
 * dcm_set(), dcm_set_now() or dcm_alias_set_*() on the handle refreshes it,
 * and so does dcm_watchdog_kick(). When none comes in time, or when the
 * handle is closed (or the process dies) while it is armed, the kernel runs
 * the safe action: LIBDCM_WATCHDOG_HOLD drops the queued commands of every
 * actuator this handle commanded, which then hold their value;
 * LIBDCM_WATCHDOG_RAMP does that and takes the hardness of every joint to 0
 * over @ramp_ms. After it fired, the handle's commands and kicks fail with
 * -ETIMEDOUT until it is armed again or disarmed. A handle without a
 * watchdog changes nothing at close: its queued commands run to their end
 * and the actuators hold. All need a handle opened for writing (the group
 * dcm): -EBADF on a read-only one. Kernel ABI 1.1; -EOPNOTSUPP before.
 */

/**
 * enum dcm_safe_action - what the kernel does when a handle's watchdog fires
 * @LIBDCM_WATCHDOG_HOLD: the handle's actuators hold
 * @LIBDCM_WATCHDOG_RAMP: hold, and all hardness to 0 over ramp_ms
 */
enum dcm_safe_action {
	LIBDCM_WATCHDOG_HOLD = 0,
	LIBDCM_WATCHDOG_RAMP = 1,
};

#define LIBDCM_WATCHDOG_MIN_MS		20	/* shortest timeout */
#define LIBDCM_WATCHDOG_MAX_MS		60000	/* longest timeout */
#define LIBDCM_WATCHDOG_RAMP_MAX_MS	60000	/* longest ramp */

/**
 * dcm_watchdog_arm() - arm the handle's watchdog, or re-arm it with new
 * settings (that refreshes it too). @ramp_ms is 0 with LIBDCM_WATCHDOG_HOLD,
 * 0 to LIBDCM_WATCHDOG_RAMP_MAX_MS with LIBDCM_WATCHDOG_RAMP (0: cut at once).
 * Return: 0; -EINVAL for a timeout out of LIBDCM_WATCHDOG_MIN_MS ..
 * LIBDCM_WATCHDOG_MAX_MS, an unknown action or a bad ramp; -EBADF;
 * -EOPNOTSUPP; other -errno.
 * @dcm: the handle (dcm_open())
 * @timeout_ms: LIBDCM_WATCHDOG_MIN_MS to LIBDCM_WATCHDOG_MAX_MS
 * @action: what the kernel does when the watchdog fires
 * @ramp_ms: the ramp's length with LIBDCM_WATCHDOG_RAMP, else 0
 */
int dcm_watchdog_arm(struct dcm *dcm, uint32_t timeout_ms,
		     enum dcm_safe_action action, uint32_t ramp_ms);

/**
 * dcm_watchdog_kick() - refresh the armed watchdog without a command.
 * Return: 0; -ENOENT if it is not armed; -ETIMEDOUT if it fired; -EBADF;
 * -EOPNOTSUPP; other -errno.
 * @dcm: the handle (dcm_open())
 */
int dcm_watchdog_kick(struct dcm *dcm);

/**
 * dcm_watchdog_disarm() - disarm it (closing then runs nothing); also clears
 * a watchdog that fired. Return: 0; -EBADF; -EOPNOTSUPP; other -errno.
 * @dcm: the handle (dcm_open())
 */
int dcm_watchdog_disarm(struct dcm *dcm);

/* ---------------------------------------------------------------------
 * Frames: one per cycle, by read()
 */

/**
 * struct dcm_values_frame - one cycle's values, from read()
 * @cycle: out: cycle number, from 1
 * @time: out: DCM time of the cycle
 * @generation: out: LIBDCM_HANDLE_GEN of its handles
 * @n_values: out: entries of @values: one per subdevice
 * @values: in/out: by LIBDCM_HANDLE_INDEX
 * @capacity: in: entries of a caller's @values
 * @priv: the library's; NULL at first
 *
 * A cycle's values. Zero it before the first dcm_read_frame(); release it
 * with dcm_values_frame_release().
 *
 * The values go to @values: leave it NULL and the library allocates (and
 * grows) it; or point it at a buffer of your own of @capacity doubles
 * (n_subdevices of dcm_get_info() is enough), which the library fills and
 * never frees.
 */
struct dcm_values_frame {
	uint64_t cycle;
	uint32_t time;
	uint32_t generation;
	size_t n_values;
	double *values;
	size_t capacity;
	void *priv;
};

/**
 * dcm_read_frame() - wait for a cycle newer than the last one this handle's
 * descriptor returned (poll dcm_poll_fd() for POLLIN first to avoid
 * blocking) and fill @frame with it. "Newer" is per descriptor: threads
 * that read on one handle share its frames (each into its own struct);
 * open a handle per reader to have each see every cycle.
 * Return: 0; -EINTR if a signal came first; -EMSGSIZE if a caller's buffer
 * is too small (@n_values then says how many it needs); -ENODEV if the
 * controller is gone; -ENOMEM; other -errno.
 * @dcm: the handle (dcm_open())
 * @frame: filled with the cycle's values; dcm_values_frame_release() frees what
 * the library allocated
 */
int dcm_read_frame(struct dcm *dcm, struct dcm_values_frame *frame);

/**
 * dcm_values_frame_release() - free what the library allocated for @frame
 * (not a caller's @values) and zero it. NULL is a no-op.
 * @frame: a frame dcm_read_frame() filled
 */
void dcm_values_frame_release(struct dcm_values_frame *frame);

/**
 * dcm_poll_fd() - the descriptor to poll(2) for POLLIN once per cycle:
 * dcm_fd().
 * @dcm: the handle (dcm_open())
 */
int dcm_poll_fd(const struct dcm *dcm);

/* ---------------------------------------------------------------------
 * The cycle's statistics (DCM_IOC_STATS)
 */

#define LIBDCM_LATENCY_BUCKETS	10

/*
 * struct dcm_stats - the cycle's statistics (dcm_stats())
 * @cycles: since the description was loaded
 * @overruns: cycles that started a period or more late
 * @last_ns: duration of the last cycle's work
 * @mean_ns: mean duration of the cycles' work
 * @max_ns: longest duration of a cycle's work
 * @latency_max_ns: longest wake-up latency
 * @latency_hist: wake-up latencies: bucket i counts those below
 * dcm_latency_bucket_ns(i)
 */
struct dcm_stats {
	uint64_t cycles;
	uint64_t overruns;
	uint64_t last_ns;
	uint64_t mean_ns;
	uint64_t max_ns;
	uint64_t latency_max_ns;
	/* wake-up latencies, bucket i below dcm_latency_bucket_ns(i) */
	uint64_t latency_hist[LIBDCM_LATENCY_BUCKETS];
};

/**
 * dcm_stats() - the cycle's timing. Return: 0 or -errno.
 * @dcm: the handle (dcm_open())
 * @out: filled with the cycle's statistics
 */
int dcm_stats(struct dcm *dcm, struct dcm_stats *out);

/**
 * dcm_latency_bucket_ns() - upper bound (exclusive) of latency_hist[@i] in
 * ns: 10 us, 20, 50, 100, 200, 500 us, 1 ms, 2 ms, 5 ms; UINT64_MAX for the
 * last bucket (>= 5 ms) and for @i out of range.
 * @i: a bucket of the latency histogram
 */
uint64_t dcm_latency_bucket_ns(unsigned int i);

/* ---------------------------------------------------------------------
 * The snapshot: mmap() of /dev/dcmN, read without a system call
 */

struct dcm_snap;

/**
 * dcm_snapshot_map() - map the snapshot of the running description,
 * read-only. Return: 0; -ENODEV with no description loaded; -EPROTO for a
 * header that does not hold together; other -errno from mmap(2).
 * @dcm: the handle (dcm_open())
 * @out: set to the mapped snapshot; dcm_snapshot_unmap() frees it
 */
int dcm_snapshot_map(struct dcm *dcm, struct dcm_snap **out);

/**
 * dcm_snapshot_read() - one value (and, if @time is not NULL, the DCM time
 * of its last update), consistent under the snapshot's sequence count:
 * read again while the count is odd (the cycle is writing) or changed
 * during the read. No system call.
 * Return: 0; -ESTALE when @handle is of another description than the
 * mapping's (the description was replaced: look the names up again and
 * map again); -ENOENT for an index past the snapshot; -EAGAIN if the count
 * never settled (about 10000 tries: the writer is stuck).
 * @snap: the mapped snapshot (dcm_snapshot_map())
 * @handle: the key's handle
 * @value: gets the value
 * @time: if not NULL, gets the DCM time of its last update
 */
int dcm_snapshot_read(const struct dcm_snap *snap, uint32_t handle,
		      double *value, uint32_t *time);

/**
 * dcm_snapshot_read_many() - @n values of one cycle at once (and the cycle
 * number they are of); @times and @cycle may be NULL. Errors as
 * dcm_snapshot_read(); the handles are all checked before anything is
 * read. After -EAGAIN the arrays hold nothing useful.
 * @snap: the mapped snapshot (dcm_snapshot_map())
 * @handles: the keys' handles
 * @n: the count of @handles
 * @values: gets @n values
 * @times: if not NULL, gets the @n DCM times of their last update
 * @cycle: if not NULL, gets the cycle the values are of
 */
int dcm_snapshot_read_many(const struct dcm_snap *snap, const uint32_t *handles,
			   size_t n, double *values, uint32_t *times,
			   uint64_t *cycle);

/**
 * dcm_snapshot_generation() - LIBDCM_HANDLE_GEN of the mapped description.
 * @snap: the mapped snapshot (dcm_snapshot_map())
 */
uint32_t dcm_snapshot_generation(const struct dcm_snap *snap);

/**
 * dcm_snapshot_check() - ask the kernel (one ioctl) whether the mapped
 * description still runs. A mapping of a replaced description keeps its
 * last values and stops changing; reads with handles of the same old
 * generation cannot see that by themselves.
 * Return: 0 while it runs; -ESTALE once replaced; other -errno.
 * @snap: the mapped snapshot (dcm_snapshot_map())
 */
int dcm_snapshot_check(const struct dcm_snap *snap);

/**
 * dcm_snapshot_layout() - the mapped snapshot's layout (struct
 * dcm_snapshot.layout): 1 since ABI 1.4, whose arrays hold the live keys
 * (LIBDCM_KEY_LIVE) after the subdevices; 0 from an older module, which
 * maps subdevices only (a live key's handle then gives -ENOENT).
 * @snap: the mapped snapshot (dcm_snapshot_map())
 */
uint32_t dcm_snapshot_layout(const struct dcm_snap *snap);

/**
 * dcm_snapshot_wait() - the per-cycle read path of a snapshot client: wait
 * until the cycle publishes a snapshot newer than the last one this call
 * (or the poll() of the descriptor) saw, then read it with
 * dcm_snapshot_read_many(). The first call puts the handle's descriptor in
 * DCM_READ_F_SNAPSHOT mode (poll() wakes once per published snapshot,
 * without read(); an event loop may poll dcm_fd() itself after that); use
 * one struct dcm per reading thread.
 * @timeout_ms: -1 waits for ever, 0 only asks
 * Return: 1 for a new snapshot, 0 on timeout, -ENODEV when the controller
 * went away, -EOPNOTSUPP before ABI 1.4, other -errno (-EINTR).
 * @snap: the mapped snapshot (dcm_snapshot_map())
 */
int dcm_snapshot_wait(struct dcm_snap *snap, int timeout_ms);

/**
 * dcm_frame_keys() - whether this handle's frames (dcm_read_frame()) carry
 * the live keys' values after the subdevices', so that a key's handle
 * index (LIBDCM_KEY_LIVE) reads from them like a Value's (ABI 1.4,
 * DCM_READ_F_KEYS; off when opened). The mode is the descriptor's.
 * Return: 0; -EOPNOTSUPP before ABI 1.4; other -errno.
 * @dcm: the handle (dcm_open())
 * @on: true: the live keys too; false: the subdevices' values only
 */
int dcm_frame_keys(struct dcm *dcm, bool on);

/**
 * dcm_snapshot_unmap() - unmap and free; NULL is a no-op.
 * @snap: the mapped snapshot (dcm_snapshot_map())
 */
void dcm_snapshot_unmap(struct dcm_snap *snap);

/* ---------------------------------------------------------------------
 * Generic netlink family "dcm"
 */

struct dcm_nl;

/**
 * dcm_nl_open() - connect to generic netlink and resolve the family "dcm".
 * Return: 0; -ENOENT if the family is not registered (dcm.ko not loaded);
 * other -errno on socket errors.
 * @out: set to the new handle on success
 */
int dcm_nl_open(struct dcm_nl **out);

/**
 * dcm_nl_close() - close a handle; NULL is a no-op.
 * @nl: the netlink handle (dcm_nl_open())
 */
void dcm_nl_close(struct dcm_nl *nl);

/**
 * dcm_nl_family_id() - the resolved generic netlink family id.
 * @nl: the netlink handle (dcm_nl_open())
 */
int dcm_nl_family_id(const struct dcm_nl *nl);

/**
 * dcm_nl_get_info() - DCM_CMD_GET_INFO (do) for one controller.
 * Return: 0; the kernel's -errno (e.g. -ENODEV for no such index);
 * -EPROTO for a malformed reply.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @info: filled with the controller's information
 */
int dcm_nl_get_info(struct dcm_nl *nl, unsigned int index,
		    struct dcm_info *info);

/**
 * typedef dcm_info_cb - called once per controller by dcm_nl_dump_info()
 * @info: the controller's information
 * @arg: dcm_nl_dump_info()'s
 *
 * Return: 0 to go on, anything else to stop: dcm_nl_dump_info() then
 * returns that value.
 */
typedef int (*dcm_info_cb)(const struct dcm_info *info, void *arg);

/**
 * dcm_nl_dump_info() - DCM_CMD_GET_INFO (dump) over all controllers.
 * Return: the number of controllers reported, the callback's non-zero
 * return value, or -errno (-EPROTO for a malformed reply).
 * @nl: the netlink handle (dcm_nl_open())
 * @cb: called once per controller with @arg; a non-zero return stops the dump,
 * and dcm_nl_dump_info() returns it
 * @arg: passed to @cb
 */
int dcm_nl_dump_info(struct dcm_nl *nl, dcm_info_cb cb, void *arg);

/**
 * dcm_nl_parse_info() - parse one GET_INFO reply message.
 * @nlh: a complete netlink message (header + genl header + attributes),
 *  nlh->nlmsg_len bytes long.
 *
 * Every DCM_A_INFO_* attribute must be present with its exact type and
 * length (u32: 4 bytes; strings: NUL-terminated, at most LIBDCM_NAME_LEN
 * bytes with the NUL); unknown attributes are ignored (a newer ABI minor
 * may add some).
 *
 * Return: 0, or -EPROTO (detail in dcm_last_error()). @info is only
 * written on success.
 * @info: filled from the message
 */
int dcm_nl_parse_info(struct nlmsghdr *nlh, struct dcm_info *info);

/**
 * dcm_nl_subscribe_events() - join the multicast group "events" on a
 * separate, non-blocking socket (request replies and events never mix).
 * Return: 0; -ENOENT if the family has no such group; -errno.
 * @nl: the netlink handle (dcm_nl_open())
 */
int dcm_nl_subscribe_events(struct dcm_nl *nl);

/**
 * dcm_nl_event_fd() - the event socket's descriptor, for poll(2)/epoll.
 * Return: the fd, or -ENOTCONN before dcm_nl_subscribe_events().
 * @nl: the netlink handle (dcm_nl_open())
 */
int dcm_nl_event_fd(const struct dcm_nl *nl);

/**
 * struct dcm_nl_event - a message of family "dcm", as dcm_nl_recv() passes it
 * @cmd: the generic netlink command (DCM_CMD_EVENT for an event)
 * @version: the generic netlink version
 * @nlh: the whole message, valid during the call only
 *
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

/**
 * typedef dcm_event_cb - called for each message by dcm_nl_recv()
 * @ev: the message
 * @arg: dcm_nl_recv()'s
 *
 * Return: 0 to go on, anything else to stop: dcm_nl_recv() then returns
 * that value.
 */
typedef int (*dcm_event_cb)(const struct dcm_nl_event *ev, void *arg);

/**
 * dcm_nl_recv() - receive what is queued on the event socket (does not
 * block) and call @cb for each message of the family "dcm" that comes from
 * the kernel; other messages are dropped.
 * Return: the number of messages passed to @cb (0 if nothing was queued),
 * the callback's non-zero return value, -ENOTCONN if not subscribed,
 * -ENOBUFS if the socket overran and events were lost (the socket stays
 * usable), or another -errno.
 * @nl: the netlink handle (dcm_nl_open())
 * @cb: called for each message with @arg; a non-zero return stops, and
 * dcm_nl_recv() returns it
 * @arg: passed to @cb
 */
int dcm_nl_recv(struct dcm_nl *nl, dcm_event_cb cb, void *arg);

/*
 * One event of the group "events" (DCM_CMD_EVENT), parsed. What @code,
 * @value and @count mean depends on @type (enum dcm_event_type, see
 * include/uapi/linux/dcm.h and Documentation/userspace-api/dcm.rst).
 */
#define LIBDCM_EVENT_TEXT_LEN	128
/**
 * struct dcm_event_msg - one event of the group "events", parsed
 * (dcm_nl_parse_event())
 * @index: controller
 * @type: enum dcm_event_type
 * @time_ms: DCM time
 * @level: errors: 1..7
 * @code: the event's code; its meaning depends on @type
 * @count: a count; its meaning depends on @type
 * @lost: events the kernel dropped just before
 * @value: a value; its meaning depends on @type
 * @device: the device or subdevice it is about, or ""
 * @text: the kernel's text, NUL-terminated
 */
struct dcm_event_msg {
	unsigned int index;
	unsigned int type;
	uint32_t time_ms;
	unsigned int level;
	unsigned int code;
	unsigned int count;
	unsigned int lost;
	int64_t value;
	char device[LIBDCM_KEY_NAME_LEN];
	char text[LIBDCM_EVENT_TEXT_LEN];
};

/**
 * dcm_nl_parse_event() - parse a DCM_CMD_EVENT message (as dcm_nl_recv()
 * passes it). Unknown attributes are ignored.
 * Return: 0, or -EPROTO (detail in dcm_last_error()).
 * @nlh: a message dcm_nl_recv() passed
 * @ev: filled with the event
 */
int dcm_nl_parse_event(const struct nlmsghdr *nlh, struct dcm_event_msg *ev);

/**
 * dcm_nl_event_seq() - the number of an event (DCM_A_EV_SEQ): the
 * controller's count of events posted before it. Live events and those of
 * the history are numbered alike: a subscriber that dumps the history
 * after joining the group skips the live events numbered at or below the
 * last one the dump gave.
 * Return: 0; -ENOENT if the message has none (an older kernel); -EPROTO;
 * -EINVAL.
 * @nlh: a message dcm_nl_recv() or dcm_nl_event_history() passed
 * @seq: set to the number
 */
int dcm_nl_event_seq(const struct nlmsghdr *nlh, uint64_t *seq);

/**
 * dcm_nl_event_history() - the kernel's history of events: the last 64
 * safety events and the last 64 others of every controller, posted
 * whether anyone listened or not, in the order posted (DCM_CMD_GET_EVENTS
 * dump, ABI 1.7). @cb gets each as dcm_nl_recv() gives
 * a live event (dcm_nl_parse_event() parses it, its @cmd is
 * DCM_CMD_GET_EVENTS); a non-zero return stops the calls. Open to every
 * user.
 * Return: the number of events passed, @cb's non-zero return value, or a
 * negative errno (-EOPNOTSUPP: an older kernel).
 * @nl: the handle (dcm_nl_open())
 * @cb: called for each event
 * @arg: passed to @cb
 */
int dcm_nl_event_history(struct dcm_nl *nl, dcm_event_cb cb, void *arg);

/**
 * struct dcm_event_follow - a subscriber's place in one controller's events
 * (dcm_nl_event_follow_init(), dcm_nl_recv_follow())
 * @index: the controller followed; the events of others pass as they come
 * @known: @next is known (from the history, or an event seen)
 * @next: the number (DCM_A_EV_SEQ) the next event of @index should have
 * @dup_from: live events numbered from @dup_from to below @dup_below were
 *	given already by the history (a catch-up): they are skipped
 * @dup_below: see @dup_from; equal to it when nothing is to be skipped
 * @recovered: events the history gave back after a gap, in total
 * @lost: events gone from the history too before they could be read, in
 *	total: the only ones lost for good
 * @overruns: times the event socket overran (recvmsg() said ENOBUFS)
 */
struct dcm_event_follow {
	unsigned int index;
	bool known;
	uint64_t next;
	uint64_t dup_from;
	uint64_t dup_below;
	uint64_t recovered;
	uint64_t lost;
	uint64_t overruns;
};

/**
 * dcm_nl_event_follow_init() - start following the events of a controller
 * without losing one: call it before dcm_nl_subscribe_events(). It reads
 * the kernel's history: @f->next is then the number of the next event, and
 * @cb (if not NULL) gets each of the history's events of @index, oldest
 * first, as dcm_nl_event_history() gives them. An event posted between
 * this call and the subscription is a gap the first live event shows, and
 * dcm_nl_recv_follow() takes it from the history.
 * Return: the number of events passed to @cb, @cb's non-zero return value,
 * or a negative errno; on -EOPNOTSUPP (a kernel without a history) @f is
 * set up all the same and dcm_nl_recv_follow() acts as dcm_nl_recv().
 * @nl: the handle
 * @f: set up
 * @index: the controller to follow
 * @cb: called for each event of the history, or NULL
 * @arg: passed to @cb
 */
int dcm_nl_event_follow_init(struct dcm_nl *nl, struct dcm_event_follow *f, unsigned int index,
			     dcm_event_cb cb, void *arg);

/**
 * dcm_nl_recv_follow() - dcm_nl_recv(), and every event of @f->index in
 * order and once, also across an overrun of the event socket: events the
 * socket dropped (recvmsg() said ENOBUFS), or the kernel's queue did (a
 * gap in the numbers), are read from the kernel's history and passed to
 * @cb where they belong (their @cmd is then DCM_CMD_GET_EVENTS); live
 * events the history gave already are skipped. Those the history no
 * longer holds either are counted in @f->lost, the only events lost.
 * Return: the number of messages passed to @cb, @cb's non-zero return
 * value (the events after the one it stopped at are not given again), or
 * a negative errno: -ENOBUFS only from a kernel without a history
 * (dcm_nl_event_follow_init() said -EOPNOTSUPP); else an overrun is
 * counted in @f->overruns and made good as far as the history goes.
 * @nl: the handle, subscribed to the events
 * @f: set up by dcm_nl_event_follow_init()
 * @cb: called for each message
 * @arg: passed to @cb
 */
int dcm_nl_recv_follow(struct dcm_nl *nl, struct dcm_event_follow *f, dcm_event_cb cb,
		       void *arg);

/**
 * dcm_nl_event_catch_up() - the events of @f->index numbered @f->next and
 * on that the kernel's history holds, to @cb, oldest first; @f->next is
 * then past the last one, and the numbers the history lacks between are
 * counted in @f->lost. dcm_nl_recv_follow() calls it on an overrun; a
 * process that needs the events up to now (one that forked, its copy of
 * @f in hand) calls it itself.
 * Return: the number of events passed to @cb, @cb's non-zero return
 * value, or a negative errno.
 * @nl: a handle (it need not be subscribed)
 * @f: set up by dcm_nl_event_follow_init()
 * @cb: called for each event
 * @arg: passed to @cb
 */
int dcm_nl_event_catch_up(struct dcm_nl *nl, struct dcm_event_follow *f, dcm_event_cb cb,
			  void *arg);

/**
 * dcm_event_type_safety() - is an event of @type about the robot's safety
 * (a board's error, a board that stopped answering or answers again, a
 * safety rule, a temperature status, the battery, a client's watchdog, a
 * fall)? The kernel's own class of safety events (its sysfs file events,
 * ABI 1.8), which it keeps apart from the others: those are what a log or
 * a recorder must not let a flood of other events crowd out.
 * @type: an event type (enum dcm_event_type of <linux/dcm.h>)
 */
bool dcm_event_type_safety(unsigned int type);

/**
 * dcm_event_type_name() - "error", "safety", ...; NULL for an unknown type.
 * @type: an event type (enum dcm_event_type of <linux/dcm.h>)
 */
const char *dcm_event_type_name(unsigned int type);

/**
 * dcm_event_type_parse() - the type of a name; -EINVAL if unknown.
 * @name: an event type's name
 */
int dcm_event_type_parse(const char *name);

/**
 * dcm_safety_rule_name() - "cycle-fault", ...; NULL for an unknown rule.
 * @rule: a safety rule (enum dcm_safety_rule of <linux/dcm.h>)
 */
const char *dcm_safety_rule_name(unsigned int rule);

/**
 * dcm_event_format() - one line of text: "dcm0 12345 safety cycle-fault on:
 * <text>". Return: as snprintf() (the length of the whole line, even if
 * @size cut it), or -EINVAL for a NULL @ev or @buf or a @size of 0.
 * @ev: the event
 * @buf: gets the line, NUL-terminated
 * @size: the size of @buf
 */
int dcm_event_format(const struct dcm_event_msg *ev, char *buf, size_t size);

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

/**
 * struct dcm_key_value - a key's value in a configuration transaction
 * (dcm_nl_config_set_key())
 * @kind: LIBDCM_KEY_*
 * @num: INT, BOOL, FLOAT (micro-units)
 * @str: STRING
 * @den: FLOAT only, 0 or 1: none; else the value is num / den micro-units
 * (exact for a Gain)
 */
struct dcm_key_value {
	int kind;
	int64_t num;
	const char *str;
	uint32_t den;
};

/**
 * struct dcm_config_counts - what a commit published
 * @n_devices: devices of the committed description
 * @n_subdevices: subdevices of the committed description
 * @n_keys: RobotConfig keys
 * @generation: of the running description; 0: the kernel did not say (ABI 1.1)
 * @unchanged: 1: equal to the running description, which stays (generation and
 * handles)
 *
 * What a commit published (the kernel's answer).
 */
struct dcm_config_counts {
	unsigned int n_devices;
	unsigned int n_subdevices;
	unsigned int n_keys;
	unsigned int generation;
	int unchanged;
};

/**
 * dcm_nl_config_begin() - DCM_CMD_CONFIG_BEGIN: open (or restart, empty) a
 * transaction.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 */
int dcm_nl_config_begin(struct dcm_nl *nl, unsigned int index);

/**
 * dcm_nl_config_add_device() - DCM_CMD_CONFIG_ADD_DEVICE: a board; @address
 * 0-255.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @name: the device's name
 * @type: its Type
 * @bus: its Bus
 * @address: its Address on the bus
 */
int dcm_nl_config_add_device(struct dcm_nl *nl, unsigned int index,
			     const char *name, const char *type,
			     const char *bus, unsigned int address);

/**
 * dcm_nl_config_add_subdevice() - DCM_CMD_CONFIG_ADD_SUBDEVICE: a subdevice of
 * a device added before; @number is its SubDeviceNumber, 1-255.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @name: the subdevice's name
 * @type: its Type
 * @device: the name of the device it belongs to
 * @number: its SubDeviceNumber
 */
int dcm_nl_config_add_subdevice(struct dcm_nl *nl, unsigned int index,
				const char *name, const char *type,
				const char *device, unsigned int number);

/**
 * dcm_nl_config_set_key() - DCM_CMD_CONFIG_SET_KEY: @path is
 * "<subdevice>/<key>" (or with the "Device/SubDeviceList/" prefix),
 * "Device/DeviceList/<device>/<key>" or "RobotConfig/..."; setting a key again
 * replaces its value.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @path: the key
 * @v: its value
 */
int dcm_nl_config_set_key(struct dcm_nl *nl, unsigned int index,
			  const char *path, const struct dcm_key_value *v);

/**
 * dcm_nl_config_commit() - DCM_CMD_CONFIG_COMMIT: check and publish. @counts
 * (may be NULL) gets what the kernel committed.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @counts: if not NULL, gets what the kernel committed
 */
int dcm_nl_config_commit(struct dcm_nl *nl, unsigned int index,
			 struct dcm_config_counts *counts);

/**
 * dcm_nl_config_abort() - DCM_CMD_CONFIG_ABORT: drop the staged description.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 */
int dcm_nl_config_abort(struct dcm_nl *nl, unsigned int index);

/* ---------------------------------------------------------------------
 * Joint calibration (DCM_CMD_CALIBRATE) and special commands
 * (DCM_CMD_SPECIAL). Both need CAP_NET_ADMIN; on failure dcm_last_error()
 * is the kernel's explanation when it gave one.
 */

/**
 * enum dcm_calib_how - how a calibrated joint is held
 * @LIBDCM_CALIB_HERE: at its 0 rad now
 * @LIBDCM_CALIB_MIN: against its mechanical stop at its sensor's Min
 * @LIBDCM_CALIB_MAX: against its mechanical stop at its sensor's Max
 * @LIBDCM_CALIB_SET: the zero is given (0 clears the calibration)
 *
 * How the joint is held (enum dcm_calib_stop).
 */
enum dcm_calib_how {
	LIBDCM_CALIB_HERE,
	LIBDCM_CALIB_MIN,
	LIBDCM_CALIB_MAX,
	LIBDCM_CALIB_SET,
};

#define LIBDCM_MRE_COUNTS	4096	/* jointZeroPosition is 0..4095 */

/**
 * struct dcm_calib_result - the kernel's answer to a calibration
 * (dcm_nl_calibrate())
 * @joint: the joint, "HeadYaw"
 * @how: enum dcm_calib_how
 * @zero: the new jointZeroPosition
 * @previous: the one before
 * @raw: the MRE count read
 * @has_raw: whether the answer held @raw
 *
 * The kernel's answer to a calibration.
 */
struct dcm_calib_result {
	char joint[LIBDCM_MAX_NAME_LEN];
	int how;
	unsigned int zero;
	unsigned int previous;
	unsigned int raw;
	bool has_raw;
};

/**
 * dcm_nl_calibrate() - calibrate a joint's MRE: measure its zero (@how HERE,
 * MIN, MAX) or set it (@how SET, @zero 0..4095), store it in the chest
 * board, set jointZeroPosition, configure the motor board.
 * @joint: "HeadYaw" or a subdevice of the joint ("HeadYaw/Position/Sensor")
 * @out: the answer, or NULL
 * Return: 0; -ENOENT (no such joint), -EINVAL (not an MRE joint of a motor
 * board, bad @how or @zero), -EIO (board lost or store not written),
 * -EPERM, other -errno.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @how: LIBDCM_CALIB_HERE, _MIN, _MAX or _SET
 * @zero: the zero to set with LIBDCM_CALIB_SET, 0 to 4095
 */
int dcm_nl_calibrate(struct dcm_nl *nl, unsigned int index, const char *joint, int how,
		     unsigned int zero, struct dcm_calib_result *out);

/**
 * dcm_calib_how_name() - "here", "min", "max", "set", or NULL.
 * @how: LIBDCM_CALIB_HERE, _MIN, _MAX or _SET
 */
const char *dcm_calib_how_name(int how);

/**
 * dcm_calib_how_from_name() - the reverse (case does not matter); -EINVAL.
 * @s: the name
 */
int dcm_calib_how_from_name(const char *s);

/**
 * enum dcm_special_cmd - the special commands (dcm_nl_special())
 * @LIBDCM_SPECIAL_RESET: clear counters and errors, chain, configure
 * @LIBDCM_SPECIAL_VERSION: every board's versions, into its keys
 * @LIBDCM_SPECIAL_CHAIN: chain the RS485 buses again
 * @LIBDCM_SPECIAL_DIAGNOSTIC: every board's state
 * @LIBDCM_SPECIAL_CONFIG: configure the motor boards again
 *
 * The special commands (enum dcm_special).
 */
enum dcm_special_cmd {
	LIBDCM_SPECIAL_RESET,
	LIBDCM_SPECIAL_VERSION,
	LIBDCM_SPECIAL_CHAIN,
	LIBDCM_SPECIAL_DIAGNOSTIC,
	LIBDCM_SPECIAL_CONFIG,
};

/**
 * struct dcm_board_info - one board of a special command's answer
 * @name: the device's name
 * @type: its Type
 * @bus: its Bus
 * @address: its Address
 * @has_state: DIAGNOSTIC: the four below
 * @state: "ok", "error", "lost", "absent"
 * @ack: its Ack count
 * @nack: its Nack count
 * @errors: errors of the last 30 s
 * @version: VERSION: "" if it did not answer
 *
 * One board of a special command's answer.
 */
struct dcm_board_info {
	char name[LIBDCM_MAX_NAME_LEN];
	char type[LIBDCM_MAX_NAME_LEN];
	char bus[LIBDCM_MAX_NAME_LEN];
	unsigned int address;
	bool has_state;
	char state[16];
	uint64_t ack, nack;
	unsigned int errors;
	char version[40];
};

/**
 * struct dcm_special_result - a special command's answer (dcm_nl_special())
 * @command: enum dcm_special_cmd
 * @text: the kernel's summary
 * @n_boards: the count of @boards
 * @boards: each board's state
 */
struct dcm_special_result {
	int command;
	char text[LIBDCM_MAX_STRING_LEN];
	size_t n_boards;
	struct dcm_board_info boards[LIBDCM_MAX_DEVICES];
};

/**
 * dcm_nl_special() - run a special command and get its answer (@out may be
 * NULL; it is large, allocate it).
 * Return: 0; -ENOENT (no description loaded), -EPERM, other -errno.
 * @nl: the netlink handle (dcm_nl_open())
 * @index: the controller: N of dcmN
 * @command: the command (LIBDCM_SPECIAL_*)
 * @out: if not NULL, gets the answer
 */
int dcm_nl_special(struct dcm_nl *nl, unsigned int index, int command,
		   struct dcm_special_result *out);

/**
 * dcm_special_name() - "reset", "version", "chain", "diagnostic", "config", or
 * NULL.
 * @command: a special command (LIBDCM_SPECIAL_*)
 */
const char *dcm_special_name(int command);

/**
 * dcm_special_from_name() - the reverse (case does not matter); -EINVAL.
 * @s: the name
 */
int dcm_special_from_name(const char *s);

/* ---------------------------------------------------------------------
 * The key tree in sysfs: <root>/dcmN/{SubDeviceList,DeviceList,RobotConfig}
 *
 * Every key of the running description is a file: its value as text, one
 * line (an error list: one line per entry). A key is named by its path:
 * "Device/SubDeviceList/<subdevice>/<key>", "Device/DeviceList/<device>/<key>",
 * "RobotConfig/<...>", or a subdevice key without its prefix. Reading needs
 * no privilege and no open /dev/dcmN; what is listed is what the kernel
 * publishes at the time of the call.
 */

/* Where the controllers' sysfs directories are, by default. */
#define LIBDCM_SYSFS_ROOT	"/sys/class/dcm"

/* The prefixes of the key paths, one per directory of the tree (DCM_PREFIX_*). */
#define LIBDCM_PREFIX_SUB	"Device/SubDeviceList/"
#define LIBDCM_PREFIX_DEV	"Device/DeviceList/"
#define LIBDCM_PREFIX_ROBOT	"RobotConfig/"

/*
 * enum dcm_sysfs_root - the directories of a controller's key tree
 * @DCM_SYSFS_SUBDEVICES: SubDeviceList: "Device/SubDeviceList/..."
 * @DCM_SYSFS_DEVICES: DeviceList: "Device/DeviceList/..."
 * @DCM_SYSFS_ROBOT: RobotConfig: "RobotConfig/..."
 *
 * The three directories of a controller's tree.
 */
enum dcm_sysfs_root {
	DCM_SYSFS_SUBDEVICES,
	DCM_SYSFS_DEVICES,
	DCM_SYSFS_ROBOT,
};

/* An open controller directory, <root>/dcmN. */
struct dcm_sysfs;

/**
 * dcm_sysfs_root() - the directory of the controllers' directories.
 * @root: as the user gave it, or NULL.
 *
 * Return: @root if not NULL, else $DCM_SYSFS_ROOT if set and not empty,
 * else LIBDCM_SYSFS_ROOT.
 */
const char *dcm_sysfs_root(const char *root);

/**
 * dcm_sysfs_key_path() - the file of a key, relative to the controller's
 * directory.
 * @key: "Device/SubDeviceList/<x>" or "<x>" (-> "SubDeviceList/<x>"),
 * "Device/DeviceList/<x>" (-> "DeviceList/<x>"), "RobotConfig/<x>"
 * (-> "RobotConfig/<x>").
 * @rel: the relative path on success.
 * @len: size of @rel.
 *
 * Return: 0; -EINVAL for an empty or absolute key, an empty, "." or ".."
 * component, or a trailing '/'; -ENAMETOOLONG if @rel is too small.
 */
int dcm_sysfs_key_path(const char *key, char *rel, size_t len);

/**
 * dcm_sysfs_open() - open the key tree of controller @index.
 * @root: as for dcm_sysfs_root().
 * @index: N of dcmN.
 * @out: the new handle on success.
 *
 * Return: 0; -ENOENT if there is no <root>/dcmN (dcm_last_error() says
 * "is dcm.ko loaded?" when the root itself is missing, else "no such
 * controller"); -ENAMETOOLONG; -ENOMEM; another -errno from open(2).
 */
int dcm_sysfs_open(const char *root, unsigned int index, struct dcm_sysfs **out);

/**
 * dcm_sysfs_close() - close a handle of dcm_sysfs_open() (NULL: nothing).
 * @s: the handle, or NULL
 */
void dcm_sysfs_close(struct dcm_sysfs *s);

/**
 * dcm_sysfs_path() - the controller's directory, "<root>/dcmN".
 * @s: the key tree's handle (dcm_sysfs_open())
 */
const char *dcm_sysfs_path(const struct dcm_sysfs *s);

/**
 * dcm_sysfs_read() - read one key.
 * @s: the controller.
 * @key: its path, as dcm_sysfs_key_path() takes it.
 * @value: a malloc'ed copy of the file, one trailing newline dropped (free
 * it); NULL on failure.
 *
 * Return: 0; -EINVAL for a path that is not a key (dcm_sysfs_key_path());
 * -ENOENT for no such key (missing, a directory, a symbolic link);
 * -ENOMEM; another -errno from read(2).
 */
int dcm_sysfs_read(const struct dcm_sysfs *s, const char *key, char **value);

/**
 * dcm_sysfs_keys() - every key below one directory of the tree.
 * @s: the controller.
 * @root: which directory.
 * @keys: a malloc'ed array of malloc'ed full key paths, sorted by strcmp()
 * (free with dcm_sysfs_strv_free()); NULL if there are none.
 * @n: how many.
 *
 * Hidden entries (a name starting with '.') are skipped. A missing
 * directory (no description loaded) has no keys.
 *
 * Return: 0, or a negative errno with dcm_last_error() naming the directory.
 */
int dcm_sysfs_keys(const struct dcm_sysfs *s, enum dcm_sysfs_root root, char ***keys,
		   size_t *n);

/**
 * dcm_sysfs_strv_free() - free @n strings of @v, then @v.
 * @v: the array
 * @n: the count of its strings
 */
void dcm_sysfs_strv_free(char **v, size_t n);

/**
 * struct dcm_sysfs_elem - a device or a subdevice in sysfs
 * (dcm_sysfs_devices(), dcm_sysfs_subdevices())
 * @name: "ChestBoard", "HeadPitch/Position/Sensor"
 * @type: Type
 * @bus: a device's Bus; NULL for a subdevice
 * @address: a device's Address; NULL for a subdevice
 * @device: a subdevice's Device; NULL for a device
 * @number: a subdevice's SubDeviceNumber; NULL for a device
 *
 * A device or a subdevice of the tree: its name and its identity keys as
 * text ("?" for a key that cannot be read).
 */
struct dcm_sysfs_elem {
	char *name;
	char *type;
	char *bus;
	char *address;
	char *device;
	char *number;
};

/**
 * dcm_sysfs_devices() - the devices: the directories right below DeviceList.
 * @s: the controller.
 * @out: a malloc'ed array sorted by name (free with dcm_sysfs_elems_free()).
 * @n: how many.
 *
 * Return: 0 (none if no description is loaded), or a negative errno with
 * dcm_last_error() set.
 */
int dcm_sysfs_devices(const struct dcm_sysfs *s, struct dcm_sysfs_elem **out, size_t *n);

/**
 * dcm_sysfs_subdevices() - the subdevices: the directories below
 * SubDeviceList that hold a "Device" key. As dcm_sysfs_devices().
 * @s: the key tree's handle (dcm_sysfs_open())
 * @out: set to an array; free with dcm_sysfs_elems_free()
 * @n: gets the count
 */
int dcm_sysfs_subdevices(const struct dcm_sysfs *s, struct dcm_sysfs_elem **out, size_t *n);

/**
 * dcm_sysfs_elems_free() - free the @n elements of @v, then @v.
 * @v: the array
 * @n: the count of its elements
 */
void dcm_sysfs_elems_free(struct dcm_sysfs_elem *v, size_t n);

/**
 * dcm_sysfs_write() - write one key: a configuration key (Kp, Min, Max,
 * jointZeroPosition, RobotConfig keys, ...: root with CAP_NET_ADMIN) or an
 * actuator's Value (the group dcm: an immediate ClearAll command). @value
 * is the text the key takes ("40", "-0.5", a string). (0.6)
 * Return: 0; -ENOENT (no such key); -EACCES (the file's mode); -EPERM (no
 * CAP_NET_ADMIN); -EINVAL (not a value of the key's kind, or a read-only
 * key); -ERANGE (outside the key's range); other -errno. dcm_last_error()
 * names the key and says why.
 * @s: the key tree's handle (dcm_sysfs_open())
 * @key: the key, relative to the controller's directory
 * @value: the text to write
 */
int dcm_sysfs_write(const struct dcm_sysfs *s, const char *key, const char *value);

/**
 * dcm_sysfs_get_double() - read a numeric key (float, int or bool) as a
 * double. (0.6)
 * Return: 0; -EINVAL for a key whose text is not a number (Type, Error);
 * the errors of dcm_sysfs_read().
 * @s: the key tree's handle (dcm_sysfs_open())
 * @key: the key, relative to the controller's directory
 * @out: gets the value
 */
int dcm_sysfs_get_double(const struct dcm_sysfs *s, const char *key, double *out);

/**
 * dcm_sysfs_set_double() - dcm_sysfs_write() of a number: an integral @v as
 * an integer ("40", which int keys take), any other with six decimals.
 * (0.6) Return: as dcm_sysfs_write(); -EINVAL for NaN, -ERANGE past
 * +-9.2e12.
 * @s: the key tree's handle (dcm_sysfs_open())
 * @key: the key, relative to the controller's directory
 * @v: the value
 */
int dcm_sysfs_set_double(const struct dcm_sysfs *s, const char *key, double v);

/**
 * dcm_sysfs_key_flags() - LIBDCM_TREE_KEY_* of a key (who may write it, from
 * its file's mode). (0.6) Return: 0; -ENOENT; -EINVAL for a bad path.
 * @s: the key tree's handle (dcm_sysfs_open())
 * @key: the key, relative to the controller's directory
 * @flags: gets the LIBDCM_TREE_KEY_* flags
 */
int dcm_sysfs_key_flags(const struct dcm_sysfs *s, const char *key, uint32_t *flags);

/**
 * struct dcm_event_count - the events of one type a controller posted
 * @type: "error", "nack", ..., "fall", or "other" (types this library
 *	does not know)
 * @safety: 1 for the safety class (kept apart from the informational
 *	events: none of those can displace or drop it), else 0
 * @posted: events of the type posted since the controller was made
 * @dropped: of those, the ones not sent to the events group (the kernel's
 *	queue of the class was full, or memory lacked); its history kept them
 */
struct dcm_event_count {
	char type[16];
	int safety;
	uint64_t posted;
	uint64_t dropped;
};

/**
 * dcm_sysfs_event_counts() - the controller's events, counted by type
 * (its sysfs file "events", kernel ABI 1.8)
 * Return: the number of types filled (at most @max), -ENOENT for an older
 * kernel, -EPROTO for a line not understood, or -errno.
 * @s: the controller (dcm_sysfs_open())
 * @out: filled with a type per entry
 * @max: @out's size
 */
int dcm_sysfs_event_counts(const struct dcm_sysfs *s, struct dcm_event_count *out, size_t max);

/* ---------------------------------------------------------------------
 * getPrefix and enumeration of the running description (0.6)
 */

/**
 * dcm_get_prefix() - the base names of the key space, the directories of
 * its tree: [0] "Device/DeviceList/" (devices), [1] "Device/SubDeviceList/"
 * (subdevices), [2] "RobotConfig/" (dcm's third directory). NAOqi's
 * getPrefix() gives its two the other way round, subdevices first. @n (may
 * be NULL) gets the count, 3. The array is static.
 * @n: if not NULL, gets the count of the names (3)
 */
const char *const *dcm_get_prefix(size_t *n);

/* struct dcm_tree_key.flags, from the key file's mode */
#define LIBDCM_TREE_KEY_WRITABLE (1U << 0)	/* someone may write it */
#define LIBDCM_TREE_KEY_CONFIG	(1U << 1)	/* a configuration key: root with
						 * CAP_NET_ADMIN writes it */
#define LIBDCM_TREE_KEY_COMMAND	(1U << 2)	/* an actuator's Value: the group
						 * dcm writes it (a command) */

/**
 * struct dcm_tree_key - one key of a device or subdevice of a tree
 * @name: its name below the element, "Value", "Kp"
 * @flags: LIBDCM_TREE_KEY_*
 *
 * One key of an element: its name below the element, "Value", "Kp".
 */
struct dcm_tree_key {
	const char *name;
	uint32_t flags;
};

/*
 * struct dcm_tree_device - a device of a tree (dcm_tree_device())
 * @name: "ChestBoard"
 * @type: its Type, "ChestBoard" ("?" if unreadable)
 * @bus: its Bus
 * @address: its Address
 * @n_keys: the count of @keys
 * @keys: sorted by name
 *
 * A device (board) of the description.
 */
struct dcm_tree_device {
	const char *name;
	const char *type;
	const char *bus;
	unsigned int address;
	size_t n_keys;
	const struct dcm_tree_key *keys;
};

/*
 * struct dcm_tree_subdevice - a subdevice of a tree (dcm_tree_subdevice())
 * @name: "HeadYaw/Position/Actuator"
 * @type: its Type, "Joint"
 * @device: its Device, "HeadBoard"
 * @number: its SubDeviceNumber
 * @handle: for dcm_set()/dcm_get(); 0 in a tree read without a struct dcm
 * @flags: LIBDCM_KEY_ACTUATOR, LIBDCM_KEY_STEP (with a struct dcm)
 * @n_keys: the count of @keys
 * @keys: sorted by name
 *
 * A subdevice of the description.
 */
struct dcm_tree_subdevice {
	const char *name;
	const char *type;
	const char *device;
	unsigned int number;
	uint32_t handle;
	uint32_t flags;
	size_t n_keys;
	const struct dcm_tree_key *keys;
};

/* What dcm_tree_read() found: a copy, freed with dcm_tree_free(). */
struct dcm_tree;

/**
 * dcm_tree_read() - the devices, subdevices and keys of a controller's
 * running description, from its key tree in sysfs.
 * @dcm: an open handle, or NULL. With one, the controller is the handle's
 * (@index is not used) and every subdevice gets its handle, so that
 * dcm_tree_by_index() names a frame's or a snapshot's entries; without,
 * controller @index and no handles.
 * @sysfs_root: as for dcm_sysfs_root() (NULL: /sys/class/dcm).
 * A description replaced during the read is read again (a few times).
 * Return: 0 (a controller with no description has an empty tree); -ENOENT
 * for no such controller; -EAGAIN when the description kept changing;
 * -ENOMEM; other -errno. The tree does not follow a later replace: compare
 * dcm_tree_generation() with LIBDCM_HANDLE_GEN() of a new handle, or read
 * it again after -ESTALE.
 * @index: the controller: N of dcmN
 * @out: set to the tree; dcm_tree_free() frees it
 */
int dcm_tree_read(struct dcm *dcm, const char *sysfs_root, unsigned int index,
		  struct dcm_tree **out);

/**
 * dcm_tree_free() - free a tree; NULL is a no-op.
 * @t: the tree, or NULL
 */
void dcm_tree_free(struct dcm_tree *t);

/**
 * dcm_tree_index() - the controller N of dcmN the tree is of.
 * @t: the tree (dcm_tree_read())
 */
unsigned int dcm_tree_index(const struct dcm_tree *t);

/**
 * dcm_tree_generation() - LIBDCM_HANDLE_GEN of its handles; 0 without handles.
 * @t: the tree (dcm_tree_read())
 */
uint32_t dcm_tree_generation(const struct dcm_tree *t);

/**
 * dcm_tree_n_devices() - the count of the tree's devices
 * @t: the tree (dcm_tree_read())
 *
 * The devices, sorted by name: [0, dcm_tree_n_devices()); NULL past the end.
 */
size_t dcm_tree_n_devices(const struct dcm_tree *t);

/**
 * dcm_tree_device() - device @i of the tree, sorted by name
 * @t: the tree (dcm_tree_read())
 * @i: 0 to dcm_tree_n_devices() - 1
 */
const struct dcm_tree_device *dcm_tree_device(const struct dcm_tree *t, size_t i);

/**
 * dcm_tree_n_subdevices() - the count of the tree's subdevices
 * @t: the tree (dcm_tree_read())
 *
 * The subdevices, sorted by name; NULL past the end.
 */
size_t dcm_tree_n_subdevices(const struct dcm_tree *t);

/**
 * dcm_tree_subdevice() - subdevice @i of the tree, sorted by name
 * @t: the tree (dcm_tree_read())
 * @i: 0 to dcm_tree_n_subdevices() - 1
 */
const struct dcm_tree_subdevice *dcm_tree_subdevice(const struct dcm_tree *t, size_t i);

/**
 * dcm_tree_n_robot_keys() - the count of the tree's RobotConfig keys
 * @t: the tree (dcm_tree_read())
 *
 * The RobotConfig keys, names below "RobotConfig/", sorted; NULL past the end.
 */
size_t dcm_tree_n_robot_keys(const struct dcm_tree *t);

/**
 * dcm_tree_robot_key() - RobotConfig key @i (its name below
 * "RobotConfig/"), sorted
 * @t: the tree (dcm_tree_read())
 * @i: 0 to dcm_tree_n_robot_keys() - 1
 */
const struct dcm_tree_key *dcm_tree_robot_key(const struct dcm_tree *t, size_t i);

/**
 * dcm_tree_find() - a subdevice by name, with or without the
 * "Device/SubDeviceList/" prefix and the "/Value" suffix; NULL if none.
 * @t: the tree (dcm_tree_read())
 * @name: the subdevice's name
 */
const struct dcm_tree_subdevice *dcm_tree_find(const struct dcm_tree *t, const char *name);

/**
 * dcm_tree_find_device() - a device by name, with or without
 * "Device/DeviceList/".
 * @t: the tree (dcm_tree_read())
 * @name: the device's name
 */
const struct dcm_tree_device *dcm_tree_find_device(const struct dcm_tree *t, const char *name);

/**
 * dcm_tree_by_index() - the subdevice at LIBDCM_HANDLE_INDEX @index (an
 * entry of a frame's or a snapshot's values); NULL if none or the tree has
 * no handles.
 * @t: the tree (dcm_tree_read())
 * @index: LIBDCM_HANDLE_INDEX of a handle
 */
const struct dcm_tree_subdevice *dcm_tree_by_index(const struct dcm_tree *t,
						   unsigned int index);

/**
 * dcm_tree_by_handle() - as dcm_tree_by_index(), and NULL for a handle of
 * another generation.
 * @t: the tree (dcm_tree_read())
 * @handle: a subdevice's handle
 */
const struct dcm_tree_subdevice *dcm_tree_by_handle(const struct dcm_tree *t, uint32_t handle);

/**
 * dcm_tree_handle_name() - the name of @handle's subdevice, or NULL.
 * @t: the tree (dcm_tree_read())
 * @handle: a subdevice's handle
 */
const char *dcm_tree_handle_name(const struct dcm_tree *t, uint32_t handle);

/**
 * dcm_tree_handle() - the handle of a subdevice named as for dcm_tree_find(),
 * without an ioctl. Return: 0; -ENOENT; -EINVAL (NULL, or no handles).
 * @t: the tree (dcm_tree_read())
 * @name: the subdevice's name
 * @handle: gets its handle
 */
int dcm_tree_handle(const struct dcm_tree *t, const char *name, uint32_t *handle);

/* ---------------------------------------------------------------------
 * Fixed point (values cross the kernel boundary as s64 micro-units)
 */

/**
 * dcm_fixed_from_string() - decimal text to micro-units, exactly: the text
 * "[+-]digits[.digits][(e|E)[+-]digits]" (".5" and "5." too) is rounded to
 * the nearest micro-unit, ties away from zero, without going through a
 * double. Nothing else is accepted: no blanks, no hex, no "nan" or "inf".
 * Return: 0; -EINVAL for text that is not such a number; -ERANGE if the
 * value does not fit in int64_t micro-units. *@out is only written on
 * success.
 * @s: the text
 * @out: gets the micro-units
 */
int dcm_fixed_from_string(const char *s, int64_t *out);

/**
 * dcm_fraction_from_string() - decimal text as the exact fraction
 * *@num / *@den micro-units, *@den a power of ten up to 10^9: "0.0039215686"
 * is 39215686 / 10000; a value with at most 6 decimals has *@den 1. Past 15
 * decimals (or when *@num would not fit) it rounds, half away from zero,
 * at the last decimal kept. Same text and errors as dcm_fixed_from_string().
 * The kernel keeps a Gain as such a fraction (DCM_A_CFG_VALUE_DEN) and
 * rounds every other float to the micro-unit.
 * @s: the text
 * @num: gets the numerator
 * @den: gets the denominator
 */
int dcm_fraction_from_string(const char *s, int64_t *num, uint32_t *den);

/* Longest text dcm_fixed_to_string() writes, NUL included. */
#define LIBDCM_FIXED_TEXT_LEN	24

/**
 * dcm_fixed_to_string() - micro-units as decimal text with six decimals, as
 * sysfs shows values: "1.500000", "-0.250000". @len is at least
 * LIBDCM_FIXED_TEXT_LEN. Return: the length written, or -EINVAL.
 * @v: micro-units
 * @buf: gets the text, NUL-terminated
 * @len: the size of @buf
 */
int dcm_fixed_to_string(int64_t v, char *buf, size_t len);

/**
 * dcm_fixed_to_double() - micro-units to a double (correctly rounded for
 * a magnitude up to 2^53).
 * @v: micro-units
 */
double dcm_fixed_to_double(int64_t v);

/**
 * dcm_double_to_fixed() - a double to micro-units: rounded to the nearest
 * integer (ties away from zero, on the exact value of @d), saturated at
 * INT64_MIN/INT64_MAX (also for +-infinity). NaN gives 0: use the checked
 * variant to see it.
 * @d: the value
 */
int64_t dcm_double_to_fixed(double d);

/**
 * dcm_double_to_fixed_checked() - as dcm_double_to_fixed().
 * Return: 0; -EINVAL for NaN (@out untouched); -ERANGE if the value was
 * saturated (@out holds INT64_MIN or INT64_MAX).
 * @d: the value
 * @out: gets the micro-units
 */
int dcm_double_to_fixed_checked(double d, int64_t *out);

/* ---------------------------------------------------------------------
 * DCM time: milliseconds, 32 bits, wraps at 2^32
 */

/**
 * dcm_time_diff() - a - b as a signed number of milliseconds, correct across
 * the wrap as long as the two times are less than 2^31 ms (24.8 days)
 * apart. dcm_time_diff(a, b) > 0 means a is later than b.
 * @a: a DCM time
 * @b: a DCM time
 */
int32_t dcm_time_diff(uint32_t a, uint32_t b);

/**
 * dcm_time_add() - t + ms, wrapping like the DCM clock.
 * @t: a DCM time
 * @ms: milliseconds to add (may be negative)
 */
uint32_t dcm_time_add(uint32_t t, int32_t ms);

#ifdef __cplusplus
}
#endif

#endif /* LIBDCM_H */
