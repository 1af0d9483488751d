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
#define DCM_ABI_MINOR		10
#define DCM_ABI_VERSION		((DCM_ABI_MAJOR << 16) | DCM_ABI_MINOR)

#define DCM_NAME_LEN		32	/* controller and driver names, NUL included */
#define DCM_MICRO		1000000	/* fixed-point scale of every value */

/*
 * Key paths. Every key of a description has a path under one of three
 * roots, the same in the netlink family, the description files and the
 * tools: "Device/DeviceList/<device>/<key>",
 * "Device/SubDeviceList/<subdevice>/<key>" and "RobotConfig/<path>". The
 * sysfs tree of controller N holds them below /sys/class/dcm/dcmN/ without
 * the "Device/": DeviceList/, SubDeviceList/, RobotConfig/. These words are
 * the key space's own: no device or subdevice name starts with one of them.
 */
#define DCM_DIR_ROOT		"Device"
#define DCM_DIR_DEVICES		"DeviceList"
#define DCM_DIR_SUBDEVICES	"SubDeviceList"
#define DCM_DIR_ROBOTCONFIG	"RobotConfig"
#define DCM_PREFIX_DEVICE	DCM_DIR_ROOT "/" DCM_DIR_DEVICES "/"
#define DCM_PREFIX_SUBDEVICE	DCM_DIR_ROOT "/" DCM_DIR_SUBDEVICES "/"
#define DCM_PREFIX_ROBOTCONFIG	DCM_DIR_ROBOTCONFIG "/"

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

/*
 * Handles name subdevices in the ioctls, the frames of read() and the
 * snapshot of mmap(): the low 16 bits are the subdevice's index in the
 * running description (its place in frames and snapshots), the high 16
 * bits that description's generation. A handle of a replaced description
 * is stale: ESTALE.
 *
 * ABI 1.4: the live numeric keys have handles too, after the subdevices'
 * (indexes n_subdevices and up, in the order of
 * Documentation/userspace-api/dcm.rst, "Key handles"): every device's
 * Available, Ack and Nack, and every key of a device or subdevice type that
 * the boards set and that is a number (a joint's Temperature/Sensor/Status,
 * Battery/Charge/Sensor/Status, US/Left/Sensor/Value1..9, a motor board's
 * Bid, ...). DCM_IOC_LOOKUP gives them with DCM_LOOKUP_F_KEY; DCM_IOC_GET,
 * the snapshot and the frames of a file in DCM_READ_F_KEYS mode carry their
 * values, in micro-units like every value (a Status of 3 is 3000000). They
 * take no command.
 */
#define DCM_HANDLE_INDEX(h)	((h) & 0xffff)
#define DCM_HANDLE_GEN(h)	((h) >> 16)

#define DCM_KEY_NAME_LEN	128	/* key and subdevice names, NUL included */
#define DCM_ALIAS_NAME_LEN	64	/* alias names, NUL included */
#define DCM_MAX_POINTS		512	/* timed commands queued per actuator */
#define DCM_MAX_ALIAS_MEMBERS	256	/* actuators in one alias */
#define DCM_MAX_ALIASES		64	/* shared aliases per controller, own ones per file (1.4) */

/* struct dcm_ioc_lookup.flags */
#define DCM_LOOKUP_F_ACTUATOR	(1U << 0)	/* takes timed commands */
#define DCM_LOOKUP_F_STEP	(1U << 1)	/* not interpolated (US) */
#define DCM_LOOKUP_F_KEY	(1U << 2)	/* a live key, not a Value (ABI 1.4) */

/**
 * struct dcm_ioc_lookup - DCM_IOC_LOOKUP: a subdevice's handle by name
 * @name: in: "HeadPitch/Position/Actuator", with or without the
 *	"Device/SubDeviceList/" prefix and the "/Value" suffix; ABI 1.4: or a
 *	live key's path, "HeadYaw/Temperature/Sensor/Status" (subdevice keys
 *	with or without the prefix), "Device/DeviceList/ChestBoard/Available"
 *	(device keys with the prefix, or without it when no subdevice has
 *	that name)
 * @handle: out: its handle
 * @flags: out: DCM_LOOKUP_F_*
 * @reserved: zero
 */
struct dcm_ioc_lookup {
	char name[DCM_KEY_NAME_LEN];
	__u32 handle;
	__u32 flags;
	__u32 reserved[2];
};

/* Update kinds of a set: what happens to the commands already queued. */
enum dcm_update {
	DCM_UPDATE_CLEAR_ALL,		/* drop them all, queue the new ones */
	DCM_UPDATE_MERGE,		/* keep them, insert the new ones */
	DCM_UPDATE_CLEAR_AFTER,		/* drop those after the earliest new one */
	DCM_UPDATE_CLEAR_BEFORE,	/* drop those before the latest new one */

	__DCM_UPDATE_MAX,
	DCM_UPDATE_MAX = __DCM_UPDATE_MAX - 1
};

/**
 * struct dcm_point - one timed command
 * @value: the value to reach, micro-units of the key space (rad, %, ...)
 * @time: the DCM time at which to reach it, ms
 * @importance: 0-7; kept with the command, not used to arbitrate (NAOqi's
 *	DCM did not either)
 * @reserved: zero
 */
struct dcm_point {
	__s64 value;
	__u32 time;
	__u8 importance;
	__u8 reserved[3];
};

/**
 * struct dcm_ioc_set - DCM_IOC_SET: timed commands to one actuator
 * @handle: the actuator
 * @update: enum dcm_update
 * @n_points: entries of @points, 0 to DCM_MAX_POINTS (0 with CLEAR_ALL
 *	drops every queued command and keeps the last value sent)
 * @reserved: zero
 * @points: user pointer to struct dcm_point[@n_points]
 */
struct dcm_ioc_set {
	__u32 handle;
	__u32 update;
	__u32 n_points;
	__u32 reserved;
	__u64 points;
};

/* struct dcm_ioc_alias_create.flags, struct dcm_alias_info.flags (ABI 1.4) */
#define DCM_ALIAS_F_SHARED	(1U << 0)	/* the controller's, seen by every file */

/* How an alias set gives its times. */
enum dcm_alias_mode {
	DCM_ALIAS_TIME_MIXED,		/* each member its own (value, time) points */
	DCM_ALIAS_TIME_SEPARATE,	/* one list of times, a value per member and time */
	DCM_ALIAS_SAME,			/* one list of points for every member (ABI 1.3) */

	__DCM_ALIAS_MODE_MAX,
	DCM_ALIAS_MODE_MAX = __DCM_ALIAS_MODE_MAX - 1
};

/**
 * struct dcm_ioc_alias_create - DCM_IOC_ALIAS_CREATE: name a list of actuators
 * @name: the alias name; an existing alias of that name is replaced
 * @n_members: entries of @members and @handles, 1 to DCM_MAX_ALIAS_MEMBERS
 * @reserved: zero before ABI 1.4
 * @flags: ABI 1.4, the same field: 0 for an alias of the calling file, or
 *	DCM_ALIAS_F_SHARED for one of the controller
 * @members: user pointer to char[@n_members][DCM_KEY_NAME_LEN]: actuator names
 * @handles: user pointer to __u32[@n_members], out: each member's handle, 0
 *	for a name that is no actuator (the alias keeps it as a blank member);
 *	a name that fills its DCM_KEY_NAME_LEN bytes without a NUL is blank too
 *
 * ABI 1.4: an alias belongs to the open file that created it (private):
 * other files do not see it, and it goes when the file is closed. One
 * created with DCM_ALIAS_F_SHARED belongs to the controller: every file
 * sees it, and it stays until deleted (DCM_IOC_ALIAS_DELETE) or the
 * controller goes. A name is looked up in the file's own aliases first,
 * then in the shared ones: a private alias hides a shared one of its name
 * from that file only. A file has up to DCM_MAX_ALIASES private aliases,
 * the controller DCM_MAX_ALIASES shared ones (ENOSPC past them). Before
 * ABI 1.4 every alias was shared.
 */
struct dcm_ioc_alias_create {
	char name[DCM_ALIAS_NAME_LEN];
	__u32 n_members;
	union {
		__u32 reserved;
		__u32 flags;	/* ABI 1.4: DCM_ALIAS_F_* */
	};
	__u64 members;
	__u64 handles;
};

/**
 * struct dcm_ioc_alias_set - DCM_IOC_ALIAS_SET: timed commands to an alias
 * @name: the alias
 * @update: enum dcm_update, for every member
 * @mode: enum dcm_alias_mode
 * @n_members: must be the alias's member count; SAME: that count or 0
 *	(whatever the alias has)
 * @n_times: TIME_SEPARATE: entries of @times; TIME_MIXED: 0; SAME: entries
 *	of @points, 0 to DCM_MAX_POINTS (0 as for DCM_IOC_SET)
 * @importance: TIME_SEPARATE: the importance of every command
 * @reserved: zero
 * @times: TIME_SEPARATE: user pointer to __u32[@n_times]
 * @values: TIME_SEPARATE: user pointer to __s64[@n_members][@n_times]
 * @counts: TIME_MIXED: user pointer to __u32[@n_members], points per member
 * @points: TIME_MIXED: user pointer to struct dcm_point[sum of @counts],
 *	member after member; SAME: user pointer to struct
 *	dcm_point[@n_times], given to every member (NAOqi's set on an alias
 *	name)
 *
 * Blank members take no command. Either every member's queue is updated, or
 * none is. A module of ABI minor 2 or older refuses DCM_ALIAS_SAME with
 * -EINVAL.
 */
struct dcm_ioc_alias_set {
	char name[DCM_ALIAS_NAME_LEN];
	__u32 update;
	__u32 mode;
	__u32 n_members;
	__u32 n_times;
	__u8 importance;
	__u8 reserved[7];
	__u64 times;
	__u64 values;
	__u64 counts;
	__u64 points;
};

/**
 * struct dcm_ioc_time - DCM_IOC_TIME: NAOqi's getTime(offset)
 * @offset: in: ms to add
 * @time: out: DCM time now plus @offset (wraps)
 */
struct dcm_ioc_time {
	__s32 offset;
	__u32 time;
};

/**
 * struct dcm_ioc_get - DCM_IOC_GET: values of many subdevices at once
 * @n: entries of the three arrays, 1 to DCM_MAX_SUBDEVICES (ABI 1.4: or
 *	to the running description's handle count, if that is more)
 * @reserved: zero
 * @handles: user pointer to __u32[@n]
 * @values: user pointer to __s64[@n], out: each Value, micro-units
 * @times: user pointer to __u32[@n], out: the DCM time of each value's
 *	last update (0 if never updated)
 *
 * All values come from one cycle. Handles of live keys (ABI 1.4) give the
 * key's value and the DCM time of the cycle that last changed it.
 */
struct dcm_ioc_get {
	__u32 n;
	__u32 reserved;
	__u64 handles;
	__u64 values;
	__u64 times;
};

/**
 * struct dcm_frame - what read() returns, once per cycle
 * @cycle: cycle number, from 1
 * @time: DCM time of the cycle, ms
 * @n_values: entries that follow: one per subdevice, by handle index; in
 *	DCM_READ_F_KEYS mode (ABI 1.4) one per handle, the live keys' after
 *	the subdevices'
 * @generation: generation of the description (DCM_HANDLE_GEN)
 * @reserved: zero
 * @values: each subdevice's Value (and key's value), micro-units
 *
 * read() needs room for the whole frame (sizeof(struct dcm_frame) +
 * 8 * n_values; DCM_IOC_INFO gives n_subdevices, DCM_IOC_READ_MODE the
 * frame's size in the file's mode); it blocks until a cycle newer than the
 * last one this file read, unless O_NONBLOCK (EAGAIN).
 */
struct dcm_frame {
	__u64 cycle;
	__u32 time;
	__u32 n_values;
	__u32 generation;
	__u32 reserved;
	__s64 values[];
};

/* struct dcm_snapshot.layout: 0 before ABI 1.4, this since */
#define DCM_SNAPSHOT_LAYOUT	1

/**
 * struct dcm_snapshot - the start of what mmap() of /dev/dcmN maps
 * @seq: even when stable; odd while the cycle writes. Read @seq, then the
 *	data, then @seq again: equal and even means the data is of one cycle
 * @n_values: the subdevices: the first entries of the arrays that follow
 *	the header
 * @cycle: cycle number of the data
 * @time: DCM time of the cycle
 * @generation: generation of the description
 * @values_offset: byte offset of __s64 values[] from the mapping's start
 * @times_offset: byte offset of __u32 times[] (each value's update time)
 * @size: bytes to map
 * @layout: DCM_SNAPSHOT_LAYOUT (ABI 1.4); 0 from older modules, whose
 *	arrays hold @n_values entries only
 * @n_handles: with @layout 1 or more: entries of both arrays, by handle
 *	index: @n_values subdevices, then the live keys
 * @reserved: zero
 *
 * The mapping is read-only and describes the description that was running
 * at mmap() time; after a replace, its @generation no longer matches
 * DCM_IOC_INFO's and the file must be mapped again.
 * Documentation/userspace-api/dcm.rst gives the layout byte by byte.
 */
struct dcm_snapshot {
	__u32 seq;
	__u32 n_values;
	__u64 cycle;
	__u32 time;
	__u32 generation;
	__u32 values_offset;
	__u32 times_offset;
	__u32 size;
	__u32 layout;
	__u32 n_handles;
	__u32 reserved[5];
};

/**
 * struct dcm_ioc_stats - DCM_IOC_STATS: the cycle's timing
 * @cycles: cycles run since the description was loaded
 * @overruns: cycles that started later than one period after their deadline
 * @last_ns: duration of the last cycle's work
 * @mean_ns: mean duration
 * @max_ns: longest duration
 * @latency_max_ns: longest wake-up latency (deadline to start)
 * @latency_hist: wake-up latencies: < 10 us, < 20, < 50, < 100, < 200,
 *	< 500 us, < 1 ms, < 2 ms, < 5 ms, >= 5 ms
 * @missed: (ABI 1.3) periods passed over after late cycles: the cycle keeps
 *	its grid (deadlines first + k * period), and a point of it less than
 *	half a period after a late cycle's start is skipped, not run.
 *	cycles + missed counts the periods since the first cycle.
 *
 * ABI 1.3 appended @missed; DCM_IOC_STATS_V1, the number of the 128-byte
 * layout before it, still answers the fields up to @latency_hist.
 */
struct dcm_ioc_stats {
	__u64 cycles;
	__u64 overruns;
	__u64 last_ns;
	__u64 mean_ns;
	__u64 max_ns;
	__u64 latency_max_ns;
	__u64 latency_hist[10];
	__u64 missed;
};

/* struct dcm_ioc_cycle_stats.flags */
#define DCM_CYCLE_STATS_F_RESET	(1U << 0)	/* start again after this answer (CAP_SYS_ADMIN) */

/* Indexes of struct dcm_ioc_cycle_stats.latency_ns and .work_ns. */
enum dcm_cycle_pct {
	DCM_PCT_50,	/* the median */
	DCM_PCT_99,
	DCM_PCT_999,	/* p99.9 */
	DCM_PCT_MAX,	/* the largest */
	DCM_PCT_COUNT
};

/**
 * struct dcm_ioc_cycle_stats - DCM_IOC_CYCLE_STATS (ABI 1.5): the cycle's timing
 * @flags: in: DCM_CYCLE_STATS_F_RESET: the statistics start again once this
 *	answer is taken (EPERM without CAP_SYS_ADMIN); out: 0
 * @priority: the SCHED_FIFO priority of the cycle and its bus workers
 * @cycles: cycles run since the statistics began (module load or reset)
 * @missed: periods of the grid passed over, not run, after late cycles: a
 *	stall of 123 ms at a 10 ms period misses 12. @cycles + @missed counts
 *	the periods since the statistics began
 * @late_starts: cycles that started a period or more after their deadline
 *	(the overruns of struct dcm_ioc_stats)
 * @work_overruns: cycles whose work (wake-up to publication) took longer
 *	than the period
 * @late_buses: bus exchanges not done when the cycle had to publish, all
 *	buses together: their boards kept their values for that cycle, and
 *	what the exchange brings shows in the next
 * @busy_buses: bus exchanges not started because the bus was still the
 *	previous cycle's (a late exchange, or requests past their budget)
 * @latency_ns: wake-up latency (deadline to start) by enum dcm_cycle_pct;
 *	a percentile is within 6.25 % above the true value
 * @work_ns: the cycle's work, the same way
 * @latency_mean_ns: mean wake-up latency
 * @work_mean_ns: mean work
 * @since_ns: CLOCK_MONOTONIC time the statistics began
 * @cpus: the CPUs the cycle and its bus workers may run on, CPU n in bit n
 *	(the first 64)
 * @unready_buses: ABI 1.9: bus exchanges not made because the bus was
 *	being chained (an RS485 bus at start-up or on a special command)
 * @absent_buses: ABI 1.9: bus exchanges not made because the bus had no
 *	transport (its boards Nack)
 * @bus_requests: ABI 1.9: transfers the cycle carried for others after
 *	the buses' exchanges (chaining, configuration, the chest store,
 *	special commands)
 * @deferred_requests: ABI 1.9: times a bus's requests waited for a later
 *	cycle, that cycle's budget spent
 * @reserved: zero
 *
 * Documentation/userspace-api/dcm.rst has the rules.
 */
struct dcm_ioc_cycle_stats {
	__u32 flags;
	__u32 priority;
	__u64 cycles;
	__u64 missed;
	__u64 late_starts;
	__u64 work_overruns;
	__u64 late_buses;
	__u64 busy_buses;
	__u64 latency_ns[DCM_PCT_COUNT];
	__u64 work_ns[DCM_PCT_COUNT];
	__u64 latency_mean_ns;
	__u64 work_mean_ns;
	__u64 since_ns;
	__u64 cpus;
	__u64 unready_buses;
	__u64 absent_buses;
	__u64 bus_requests;
	__u64 deferred_requests;
	__u64 reserved[4];
};

/* Safe actions of a client watchdog (struct dcm_ioc_watchdog.action). */
enum dcm_watchdog_action {
	DCM_WATCHDOG_HOLD,	/* the client's actuators drop their queued commands and hold */
	DCM_WATCHDOG_RAMP,	/* HOLD, and every joint's hardness goes to 0 over ramp_ms */

	__DCM_WATCHDOG_ACTION_MAX,
	DCM_WATCHDOG_ACTION_MAX = __DCM_WATCHDOG_ACTION_MAX - 1
};

/* struct dcm_ioc_watchdog.flags */
#define DCM_WATCHDOG_F_KICK	(1U << 0)	/* refresh only; the other fields are zero */

#define DCM_WATCHDOG_MIN_MS	20	/* shortest timeout */
#define DCM_WATCHDOG_MAX_MS	60000	/* longest timeout */
#define DCM_WATCHDOG_RAMP_MAX_MS 60000	/* longest ramp of DCM_WATCHDOG_RAMP */

/**
 * struct dcm_ioc_watchdog - DCM_IOC_WATCHDOG: supervise this file's commands
 * @timeout_ms: DCM_WATCHDOG_MIN_MS to DCM_WATCHDOG_MAX_MS arms (or re-arms
 *	with new settings) the watchdog of the open file; 0 disarms it
 * @action: enum dcm_watchdog_action, run when the file goes @timeout_ms
 *	without a refresh, or is closed while armed
 * @ramp_ms: DCM_WATCHDOG_RAMP: 0 to DCM_WATCHDOG_RAMP_MAX_MS, how long the
 *	hardness takes to reach 0; DCM_WATCHDOG_HOLD: 0
 * @flags: DCM_WATCHDOG_F_*
 * @reserved: zero
 *
 * Every successful DCM_IOC_SET and DCM_IOC_ALIAS_SET through the file, and
 * a DCM_WATCHDOG_F_KICK, refresh an armed watchdog. Once it has fired, the
 * file's commands and kicks fail with ETIMEDOUT until it is armed again or
 * disarmed. Documentation/userspace-api/dcm.rst has the whole story.
 */
struct dcm_ioc_watchdog {
	__u32 timeout_ms;
	__u32 action;
	__u32 ramp_ms;
	__u32 flags;
	__u32 reserved[4];
};

/* struct dcm_ioc_read_mode.flags (ABI 1.4) */
#define DCM_READ_F_KEYS		(1U << 0)	/* frames carry the live keys too */
#define DCM_READ_F_SNAPSHOT	(1U << 1)	/* poll() wakes once per published snapshot */

/**
 * struct dcm_ioc_read_mode - DCM_IOC_READ_MODE: how this file reads (ABI 1.4)
 * @flags: in: the DCM_READ_F_* to set among @mask; out: the file's mode
 * @mask: in: the DCM_READ_F_* bits to change (0: only ask)
 * @n_subdevices: out: subdevices of the running description
 * @n_handles: out: its handles, subdevices and live keys
 * @frame_size: out: the bytes read() needs in the file's mode
 * @generation: out: the running description's generation
 * @layout: out: DCM_SNAPSHOT_LAYOUT
 * @reserved: zero
 *
 * DCM_READ_F_SNAPSHOT is for clients of the mapped snapshot: poll(),
 * select() and epoll report the file readable once per snapshot the cycle
 * publishes, read() or not: the call that reports it takes it, and the
 * next one waits for the next publication. Without it, the file is
 * readable while a frame it has not read() is there. Each open file has
 * its own mode; it starts at 0.
 */
struct dcm_ioc_read_mode {
	__u32 flags;
	__u32 mask;
	__u32 n_subdevices;
	__u32 n_handles;
	__u32 frame_size;
	__u32 generation;
	__u32 layout;
	__u32 reserved[5];
};

/**
 * struct dcm_alias_info - one alias, in the answer of DCM_IOC_ALIAS_LIST
 * @name: its name
 * @n_members: its members, blank ones included
 * @flags: DCM_ALIAS_F_SHARED for the controller's, 0 for the file's own
 * @reserved: zero
 */
struct dcm_alias_info {
	char name[DCM_ALIAS_NAME_LEN];
	__u32 n_members;
	__u32 flags;
	__u32 reserved[2];
};

/**
 * struct dcm_ioc_alias_list - DCM_IOC_ALIAS_LIST: the aliases a file sees
 *	(ABI 1.4)
 * @n: in: entries @aliases has room for (0: only count); out: how many
 *	aliases the file sees, its own then the shared ones (a shared one
 *	that an own alias hides is not listed); only the first of them, as
 *	many as there was room for, are written
 * @reserved: zero
 * @aliases: user pointer to struct dcm_alias_info[@n]
 */
struct dcm_ioc_alias_list {
	__u32 n;
	__u32 reserved;
	__u64 aliases;
};

/**
 * struct dcm_ioc_alias_get - DCM_IOC_ALIAS_GET: an alias's members (ABI 1.4)
 * @name: in: the alias, found as for DCM_IOC_ALIAS_SET
 * @flags: in: DCM_ALIAS_F_SHARED to find the shared one only; out: the
 *	alias's flags
 * @n_members: in: entries @members and @handles have room for; out: the
 *	alias's members; the first, as many as there was room for, are written
 * @members: user pointer to char[@n_members][DCM_KEY_NAME_LEN], or 0
 * @handles: user pointer to __u32[@n_members], each member's handle in the
 *	running description (0: blank), or 0
 */
struct dcm_ioc_alias_get {
	char name[DCM_ALIAS_NAME_LEN];
	__u32 flags;
	__u32 n_members;
	__u64 members;
	__u64 handles;
};

/**
 * struct dcm_ioc_alias_delete - DCM_IOC_ALIAS_DELETE: free an alias (ABI 1.4)
 * @name: the alias, found as for DCM_IOC_ALIAS_SET: the file's own first
 * @flags: DCM_ALIAS_F_SHARED to delete the shared one only
 * @reserved: zero
 */
struct dcm_ioc_alias_delete {
	char name[DCM_ALIAS_NAME_LEN];
	__u32 flags;
	__u32 reserved;
};

#define DCM_IOC_MAGIC		0xDC

#define DCM_IOC_VERSION		_IOR(DCM_IOC_MAGIC, 0x00, struct dcm_ioc_version)
#define DCM_IOC_INFO		_IOR(DCM_IOC_MAGIC, 0x01, struct dcm_ioc_info)
#define DCM_IOC_LOOKUP		_IOWR(DCM_IOC_MAGIC, 0x02, struct dcm_ioc_lookup)
#define DCM_IOC_SET		_IOW(DCM_IOC_MAGIC, 0x03, struct dcm_ioc_set)
#define DCM_IOC_ALIAS_CREATE	_IOWR(DCM_IOC_MAGIC, 0x04, struct dcm_ioc_alias_create)
#define DCM_IOC_ALIAS_SET	_IOW(DCM_IOC_MAGIC, 0x05, struct dcm_ioc_alias_set)
#define DCM_IOC_TIME		_IOWR(DCM_IOC_MAGIC, 0x06, struct dcm_ioc_time)
#define DCM_IOC_GET		_IOWR(DCM_IOC_MAGIC, 0x07, struct dcm_ioc_get)
#define DCM_IOC_STATS		_IOR(DCM_IOC_MAGIC, 0x08, struct dcm_ioc_stats)
/* DCM_IOC_STATS of ABI 1.0-1.2: struct dcm_ioc_stats without @missed. */
#define DCM_IOC_STATS_V1	_IOC(_IOC_READ, DCM_IOC_MAGIC, 0x08, 128)
#define DCM_IOC_WATCHDOG	_IOW(DCM_IOC_MAGIC, 0x09, struct dcm_ioc_watchdog)
/* ABI 1.4 */
#define DCM_IOC_READ_MODE	_IOWR(DCM_IOC_MAGIC, 0x10, struct dcm_ioc_read_mode)
#define DCM_IOC_ALIAS_LIST	_IOWR(DCM_IOC_MAGIC, 0x11, struct dcm_ioc_alias_list)
#define DCM_IOC_ALIAS_GET	_IOWR(DCM_IOC_MAGIC, 0x12, struct dcm_ioc_alias_get)
#define DCM_IOC_ALIAS_DELETE	_IOW(DCM_IOC_MAGIC, 0x13, struct dcm_ioc_alias_delete)
/* ABI 1.5 */
#define DCM_IOC_CYCLE_STATS	_IOWR(DCM_IOC_MAGIC, 0x14, struct dcm_ioc_cycle_stats)

/* Generated from Documentation/netlink/specs/dcm.yaml by scripts/dcm-nl-gen.py: do not edit. */
/* Generic netlink family "dcm". */
#define DCM_GENL_NAME		"dcm"
#define DCM_GENL_VERSION	1
#define DCM_GENL_MCGRP_EVENTS	"events"

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
	DCM_KEY_KIND_INT,	/* value-int, an integer */
	DCM_KEY_KIND_FLOAT,	/* value-int, micro-units */
	DCM_KEY_KIND_BOOL,	/* value-int, 0 or 1 */
	DCM_KEY_KIND_STRING,	/* value-string */

	__DCM_KEY_KIND_MAX,
	DCM_KEY_KIND_MAX = __DCM_KEY_KIND_MAX - 1
};

/*
 * Events, multicast on the "events" group as DCM_CMD_EVENT messages; sent only
 * when the group has listeners. The cycle never waits for them: an event that
 * finds the queue full is counted in the next one's LOST.
 */
enum dcm_event_type {
	DCM_EV_UNSPEC,
	DCM_EV_ERROR,		/* A board's error entered its list. device, level, code, text. */
	/* A board missed 5 exchanges in a row (a Nack burst). device, count. */
	DCM_EV_NACK,
	DCM_EV_ACK,		/* That board answers again. device, count (Nacks of the burst). */
	/*
	 * A safety rule starts (value 1) or stops (value 0) acting. code (enum
	 * safety-rule), device for the per-joint rules, text.
	 */
	DCM_EV_SAFETY,
	/* A joint's temperature status changed. device, value (new), code (old). */
	DCM_EV_TEMPERATURE,
	/* The battery's status bits changed. device, value (bits), code (bits changed). */
	DCM_EV_BATTERY,
	/* A cycle started a period or more late. value (ns late), count (overruns so far). */
	DCM_EV_OVERRUN,
	/*
	 * A description was committed (value its generation), or the chest
	 * store read for it (device ChestBoard). text.
	 */
	DCM_EV_CONFIG,
	/*
	 * A joint was calibrated. device (joint), value (jointZeroPosition),
	 * code (calib-stop), text.
	 */
	DCM_EV_CALIBRATION,
	DCM_EV_WATCHDOG,	/* A client's watchdog fired. code (action), value (pid), text. */
	DCM_EV_SPECIAL,		/* A special command ran. code (enum special), text. */
	/*
	 * The inertial board's angles say the robot fell (value 1: AngleX or
	 * AngleY past 1 rad, code the axis, 0 X, 1 Y) or is up again (value 0:
	 * both back within 0.5 rad). device, text.
	 */
	DCM_EV_FALL,

	__DCM_EV_MAX,
	DCM_EV_MAX = __DCM_EV_MAX - 1
};

/*
 * CODE of DCM_EV_SAFETY: which rule; VALUE 1 when it starts acting, 0 when it
 * stops. The temperature rule is told by DCM_EV_TEMPERATURE.
 */
enum dcm_safety_rule {
	DCM_SAFETY_CYCLE_FAULT,	/* Cycles late past 500 ms; hardness cut to 0, back over 2 s. */
	/* Battery current past its Max; hardness decreased, then back. */
	DCM_SAFETY_BATTERY_CURRENT,
	DCM_SAFETY_CALIBRATION,	/* A joint without calibration asked for hardness; held at 0. */
	/* A motor asked free (hardness < 0) while its board's other is not; braked. */
	DCM_SAFETY_BRAKE,
};

/*
 * Joint calibration (DCM_CMD_CALIBRATE): the jointZeroPosition of a joint's MRE
 * (the count at the joint's 0 rad) is measured (here, min, max) or given (set),
 * written to the chest board's store, set in the key and sent to the joint's
 * motor board: how the joint is held.
 */
enum dcm_calib_stop {
	DCM_CALIB_HERE,		/* At its 0 rad now. */
	DCM_CALIB_MIN,		/* Against its mechanical stop at its position sensor's Min. */
	DCM_CALIB_MAX,		/* Against its mechanical stop at its position sensor's Max. */
	DCM_CALIB_SET,		/* Not measured; the zero is given (0 clears the calibration). */

	__DCM_CALIB_STOP_MAX,
	DCM_CALIB_STOP_MAX = __DCM_CALIB_STOP_MAX - 1
};

/* Special commands (DCM_CMD_SPECIAL): the boards' start-up and diagnosis on request. */
enum dcm_special {
	/* Clear every board's counters and errors, chain and configure again. */
	DCM_SPECIAL_RESET,
	/* Read every board's versions back, into the keys that hold them. */
	DCM_SPECIAL_VERSION,
	DCM_SPECIAL_CHAIN,	/* Chain every RS485 bus again; ChainResult is the answer's text. */
	DCM_SPECIAL_DIAGNOSTIC,	/* Answer every device's state, Ack, Nack and recent errors. */
	DCM_SPECIAL_CONFIG,	/* Send every motor board its configuration structure again. */

	__DCM_SPECIAL_MAX,
	DCM_SPECIAL_MAX = __DCM_SPECIAL_MAX - 1
};

/* The "info" attributes: One controller (one robot body). */
enum {
	DCM_A_INFO_UNSPEC,
	DCM_A_INFO_INDEX,		/* u32: N of dcmN and /dev/dcmN. */
	DCM_A_INFO_NAME,		/* string: Controller name, "dcmN". */
	/* string: Body driver that registered the controller (e.g. dcm_sim). */
	DCM_A_INFO_DRIVER,
	/* u32: (major << 16) | minor of the running module's ABI. */
	DCM_A_INFO_ABI_VERSION,
	DCM_A_INFO_PERIOD_US,		/* u32: Cycle period in microseconds. */
	DCM_A_INFO_TIME_MS,		/* u32: DCM time in milliseconds; 32 bits, wraps. */
	DCM_A_INFO_N_DEVICES,		/* u32: Devices of the loaded robot description. */
	DCM_A_INFO_N_SUBDEVICES,	/* u32: Subdevices of the loaded robot description. */
	DCM_A_INFO_FLAGS,		/* u32: info-flags */

	__DCM_A_INFO_MAX,
	DCM_A_INFO_MAX = __DCM_A_INFO_MAX - 1
};

/* The "config" attributes: One step of a configuration transaction. */
enum {
	DCM_A_CFG_UNSPEC,
	DCM_A_CFG_INDEX,		/* u32: The controller. */
	DCM_A_CFG_NAME,			/* string: Device or subdevice name, or key path. */
	DCM_A_CFG_TYPE,			/* string: Device or subdevice type. */
	DCM_A_CFG_BUS,			/* string: A device's bus. */
	DCM_A_CFG_ADDRESS,		/* u32: A device's address, 0-255. */
	DCM_A_CFG_DEVICE,		/* string: A subdevice's device. */
	DCM_A_CFG_NUMBER,		/* u32: SubDeviceNumber, from 1. */
	DCM_A_CFG_KIND,			/* u8: enum dcm_key_kind */
	DCM_A_CFG_VALUE_INT,		/* s64: Integer, bool, or a float in micro-units. */
	DCM_A_CFG_VALUE_STRING,		/* string */
	DCM_A_CFG_N_DEVICES,		/* u32: In the commit answer. */
	DCM_A_CFG_N_SUBDEVICES,		/* u32: In the commit answer. */
	DCM_A_CFG_N_KEYS,		/* u32: In the commit answer. */
	/* u32: A float is value-int / value-den micro-units (exact gains such as 1/255). */
	DCM_A_CFG_VALUE_DEN,
	/*
	 * u32: In the commit answer: the generation of the running description
	 * (that of handles, DCM_HANDLE_GEN).
	 */
	DCM_A_CFG_GENERATION,
	/*
	 * flag: In the commit answer: the committed description equals the
	 * running one (dcm_model_equal()); the running one stays, its
	 * generation and clients' handles with it.
	 */
	DCM_A_CFG_UNCHANGED,

	__DCM_A_CFG_MAX,
	DCM_A_CFG_MAX = __DCM_A_CFG_MAX - 1
};

/* The "event" attributes: One event of the multicast group events. */
enum {
	DCM_A_EV_UNSPEC,
	DCM_A_EV_INDEX,			/* u32: Controller. */
	DCM_A_EV_TYPE,			/* u32: enum dcm_event_type */
	DCM_A_EV_TIME,			/* u32: DCM time of the event, ms. */
	DCM_A_EV_DEVICE,		/* string: Device or subdevice name. */
	DCM_A_EV_LEVEL,			/* u32: Error level (error events), 1..7. */
	DCM_A_EV_CODE,			/* u32 */
	DCM_A_EV_VALUE,			/* s64 */
	DCM_A_EV_TEXT,			/* string */
	DCM_A_EV_COUNT,			/* u32 */
	/* u32: Events the kernel dropped just before this one (its queue was full). */
	DCM_A_EV_LOST,
	DCM_A_EV_PAD,			/* pad: Padding of value. */
	/*
	 * u64: The controller's count of events before this one: events are
	 * numbered in the order posted, from 0, whether anyone listens or not.
	 * The history (get-events) and the live group number them alike, so a
	 * subscriber that reads both sees each event once.
	 */
	DCM_A_EV_SEQ,

	__DCM_A_EV_MAX,
	DCM_A_EV_MAX = __DCM_A_EV_MAX - 1
};

/*
 * The "calibrate" attributes: The calibration of a joint's MRE: its
 * jointZeroPosition, the MRE count at the joint's 0 rad (0..4095, 0 not
 * calibrated), stored in the chest board, set in the key and sent to the motor
 * board.
 */
enum {
	DCM_A_CAL_UNSPEC,
	DCM_A_CAL_INDEX,		/* u32: The controller. */
	/*
	 * string: The joint ("HeadYaw"), or any subdevice of it
	 * ("HeadYaw/Position/Sensor", with or without "Device/SubDeviceList/");
	 * the answer gives the joint's name.
	 */
	DCM_A_CAL_JOINT,
	DCM_A_CAL_STOP,			/* u8: enum dcm_calib_stop */
	DCM_A_CAL_ZERO,			/* u32: The zero given (set), or found (in the answer). */
	/* u32: The joint's MRE count when the request came, 0..4095 (in the answer). */
	DCM_A_CAL_RAW,
	DCM_A_CAL_PREVIOUS,		/* u32: The jointZeroPosition before (in the answer). */

	__DCM_A_CAL_MAX,
	DCM_A_CAL_MAX = __DCM_A_CAL_MAX - 1
};

/* The "board" attributes: One device in the answer of a special command. */
enum {
	DCM_A_BRD_UNSPEC,
	DCM_A_BRD_NAME,			/* string: Device name. */
	DCM_A_BRD_TYPE,			/* string: Its Type, "MotorBoard". */
	DCM_A_BRD_BUS,			/* string */
	DCM_A_BRD_ADDRESS,		/* u32 */
	/*
	 * string: diagnostic: "ok", "error" (an error of level 4 or more in the
	 * last 30 s), "lost" (5 Nacks in a row), "absent" (its body has no such
	 * bus, or never exchanged with).
	 */
	DCM_A_BRD_STATE,
	DCM_A_BRD_ACK,			/* u64 */
	DCM_A_BRD_NACK,			/* u64 */
	DCM_A_BRD_ERRORS,		/* u32: Errors listed in the last 30 s. */
	/*
	 * string: version: the board's ProgVersion or firmware version; absent
	 * if it did not answer.
	 */
	DCM_A_BRD_VERSION,
	DCM_A_BRD_PAD,			/* pad */

	__DCM_A_BRD_MAX,
	DCM_A_BRD_MAX = __DCM_A_BRD_MAX - 1
};

/* The "special" attributes: A special command and its answer. */
enum {
	DCM_A_SP_UNSPEC,
	DCM_A_SP_INDEX,			/* u32: The controller. */
	DCM_A_SP_COMMAND,		/* u32: enum dcm_special */
	DCM_A_SP_TEXT,			/* string: What was done, in one line. */
	/* nest of board, repeated: One per device of the description (version, diagnostic). */
	DCM_A_SP_BOARD,

	__DCM_A_SP_MAX,
	DCM_A_SP_MAX = __DCM_A_SP_MAX - 1
};

/*
 * Configuration: config-begin opens a transaction on a controller for the
 * calling socket (one at a time per controller; another socket gets EBUSY).
 * config-add-* and config-set-key stage a new description, each checked at
 * once; config-commit checks the whole and replaces the running description in
 * one step, or changes nothing; config-abort, or closing the socket, drops the
 * staged one. The transaction is the socket's until its commit is answered:
 * while the commit runs (it reads the chest board's store), another socket's
 * config-* request gets EBUSY, and one of the committing socket itself (another
 * of its threads) waits for the commit and is answered after the commit's
 * answer, as after its end (config-begin opens a new transaction; a step,
 * config-commit or config-abort gets ENOENT). All but get-info need
 * CAP_NET_ADMIN. Each request takes only the attributes its operation lists:
 * any other is refused (EINVAL).
 */
enum {
	DCM_CMD_UNSPEC,
	/*
	 * do: INDEX, answers INDEX NAME DRIVER ABI_VERSION PERIOD_US TIME_MS
	 * N_DEVICES N_SUBDEVICES FLAGS; dump: no attribute
	 */
	DCM_CMD_GET_INFO,
	DCM_CMD_CONFIG_BEGIN,		/* do: INDEX */
	DCM_CMD_CONFIG_ADD_DEVICE,	/* do: INDEX NAME TYPE BUS ADDRESS */
	DCM_CMD_CONFIG_ADD_SUBDEVICE,	/* do: INDEX NAME TYPE DEVICE NUMBER */
	DCM_CMD_CONFIG_SET_KEY,		/* do: INDEX NAME KIND VALUE_INT VALUE_STRING VALUE_DEN */
	/* do: INDEX, answers INDEX N_DEVICES N_SUBDEVICES N_KEYS GENERATION UNCHANGED */
	DCM_CMD_CONFIG_COMMIT,
	DCM_CMD_CONFIG_ABORT,		/* do: INDEX */
	DCM_CMD_EVENT,			/* multicast "events" only: the event set */
	/* do: INDEX JOINT STOP ZERO, answers INDEX JOINT STOP ZERO PREVIOUS RAW */
	DCM_CMD_CALIBRATE,
	DCM_CMD_SPECIAL,		/* do: INDEX COMMAND, answers INDEX COMMAND TEXT BOARD */
	DCM_CMD_GET_EVENTS,		/* dump: no attribute */

	__DCM_CMD_MAX,
	DCM_CMD_MAX = __DCM_CMD_MAX - 1
};

/* End of the part generated from Documentation/netlink/specs/dcm.yaml. */

#endif /* _UAPI_LINUX_DCM_H */
