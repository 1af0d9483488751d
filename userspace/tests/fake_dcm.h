/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake /dev/dcmN for the unit tests: the library's ioctl() and read()
 * are redirected to it (ld --wrap=ioctl --wrap=read); the descriptor is a
 * real one, of /dev/null. It knows a few subdevices, answers the ioctls as
 * the kernel does (checks included) and records what it was sent.
 */
#ifndef FAKE_DCM_H
#define FAKE_DCM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/dcm.h>

#define FAKE_GEN	3
#define FAKE_MAX_SUBS	16
#define FAKE_MAX_RECORD	1024
#define FAKE_SNAP_SIZE	8192	/* two pages: dcm_snapshot_map() maps twice */
#define FAKE_NRS	32	/* ioctl numbers 0x00-0x1f */
#define FAKE_ALIASES	4

struct fake_sub {
	const char *name;	/* without prefix and /Value */
	uint32_t flags;		/* DCM_LOOKUP_F_* */
	int64_t value;		/* micro-units */
	uint32_t time;
};

struct fake_dcm {
	int fd;				/* the descriptor VERSION was asked on */
	uint32_t now;			/* DCM time */
	uint32_t generation;
	unsigned int n_subs;
	struct fake_sub subs[FAKE_MAX_SUBS];
	int64_t ramp;			/* added to every value at each read() */
	uint64_t cycle;
	unsigned int info_n_subs;	/* what INFO says (0: n_subs) */
	unsigned int info_n_devices;	/* what INFO says */

	int fail_errno[FAKE_NRS];	/* by ioctl nr: fail it with this */
	unsigned int calls[FAKE_NRS];	/* by ioctl nr */
	unsigned int reads;
	int read_errno;			/* fail read() with this, once */
	unsigned int bump_generation_at;	/* at this read(): a new description */

	/* the last DCM_IOC_SET */
	struct dcm_ioc_set set;
	struct dcm_point set_points[FAKE_MAX_RECORD];
	/* the last DCM_IOC_ALIAS_CREATE */
	struct dcm_ioc_alias_create create;
	char create_names[FAKE_MAX_RECORD][DCM_KEY_NAME_LEN];
	/* the last DCM_IOC_ALIAS_SET */
	struct dcm_ioc_alias_set aset;
	uint32_t aset_times[FAKE_MAX_RECORD];
	int64_t aset_values[FAKE_MAX_RECORD];
	uint32_t aset_counts[FAKE_MAX_RECORD];
	struct dcm_point aset_points[FAKE_MAX_RECORD];
	unsigned int alias_members;	/* members of the alias (0: any) */
	/* the aliases created (ABI 1.4: list, get, delete) */
	struct {
		char name[DCM_ALIAS_NAME_LEN];
		uint32_t n_members;
		uint32_t flags;
	} aliases[FAKE_ALIASES];
	unsigned int n_aliases;
	struct dcm_ioc_read_mode read_mode;	/* the last DCM_IOC_READ_MODE */

	struct dcm_ioc_stats stats;

	/* the watchdog: the last DCM_IOC_WATCHDOG, and its state */
	struct dcm_ioc_watchdog wd;
	int wd_state;			/* FAKE_WD_* */
	unsigned int abi_minor;		/* what VERSION says (DCM_ABI_MINOR) */

	/* what mmap() maps: a snapshot of n_subs values, refreshed by read() */
	union {
		struct dcm_snapshot hdr;
		unsigned char bytes[FAKE_SNAP_SIZE];
	} __attribute__((aligned(4096))) snap;
	unsigned int maps, unmaps;
	size_t map_len;			/* the last mapping's length */
};

enum { FAKE_WD_OFF, FAKE_WD_ARMED, FAKE_WD_FIRED };

extern struct fake_dcm fake;

/*
 * Reset to: time 1000, generation FAKE_GEN, subdevices
 * 0 HeadYaw/Position/Actuator (0.0), 1 HeadYaw/Position/Sensor (0.1),
 * 2 Face/Led/Red/Left/0Deg/Actuator (0.0), 3 US/Actuator (step),
 * 4 HeadPitch/Position/Actuator (-0.5).
 */
void fake_reset(void);

/* Lay out the snapshot of the current subdevices (seq even). */
void fake_snapshot(void);

/* The handle of subdevice @index. */
uint32_t fake_handle(unsigned int index);

/* ioctl nr of a request, for fake.calls[] and fake.fail_errno[]. */
#define FAKE_NR(req)	(_IOC_NR(req) & (FAKE_NRS - 1))

#endif /* FAKE_DCM_H */
