/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdcm internals shared between the library's files and its unit tests.
 * Not installed.
 */
#ifndef LIBDCM_PRIVATE_H
#define LIBDCM_PRIVATE_H

#include <linux/dcm.h>

#include "libdcm.h"

#define DCM_EXPORT __attribute__((visibility("default")))

/* The public mirror constants must match the kernel ABI. */
_Static_assert(LIBDCM_ABI_MAJOR == DCM_ABI_MAJOR, "ABI major");
_Static_assert(LIBDCM_ABI_MINOR == DCM_ABI_MINOR, "ABI minor");
_Static_assert(LIBDCM_NAME_LEN == DCM_NAME_LEN, "name length");
_Static_assert(LIBDCM_MICRO == DCM_MICRO, "fixed-point scale");
_Static_assert(LIBDCM_INFO_SIMULATED == DCM_INFO_F_SIMULATED, "flag");
_Static_assert(LIBDCM_INFO_CONFIGURED == DCM_INFO_F_CONFIGURED, "flag");
_Static_assert(LIBDCM_INFO_RUNNING == DCM_INFO_F_RUNNING, "flag");
_Static_assert(LIBDCM_KEY_INT == DCM_KEY_KIND_INT, "key kind");
_Static_assert(LIBDCM_KEY_FLOAT == DCM_KEY_KIND_FLOAT, "key kind");
_Static_assert(LIBDCM_KEY_BOOL == DCM_KEY_KIND_BOOL, "key kind");
_Static_assert(LIBDCM_KEY_STRING == DCM_KEY_KIND_STRING, "key kind");
_Static_assert(LIBDCM_MAX_DEVICES == DCM_MAX_DEVICES, "limit");
_Static_assert(LIBDCM_MAX_SUBDEVICES == DCM_MAX_SUBDEVICES, "limit");
_Static_assert(LIBDCM_MAX_KEYS == DCM_MAX_KEYS, "limit");
_Static_assert(LIBDCM_MAX_NAME_LEN == DCM_MAX_NAME_LEN, "limit");
_Static_assert(LIBDCM_MAX_STRING_LEN == DCM_MAX_STRING_LEN, "limit");

_Static_assert(LIBDCM_KEY_NAME_LEN == DCM_KEY_NAME_LEN, "limit");
_Static_assert(LIBDCM_ALIAS_NAME_LEN == DCM_ALIAS_NAME_LEN, "limit");
_Static_assert(LIBDCM_MAX_POINTS == DCM_MAX_POINTS, "limit");
_Static_assert(LIBDCM_MAX_ALIAS_MEMBERS == DCM_MAX_ALIAS_MEMBERS, "limit");
_Static_assert(LIBDCM_MAX_ALIASES == DCM_MAX_ALIASES, "limit");
_Static_assert(LIBDCM_KEY_ACTUATOR == DCM_LOOKUP_F_ACTUATOR, "flag");
_Static_assert(LIBDCM_KEY_STEP == DCM_LOOKUP_F_STEP, "flag");
_Static_assert(LIBDCM_KEY_LIVE == DCM_LOOKUP_F_KEY, "flag");
_Static_assert((int)LIBDCM_CLEAR_ALL == (int)DCM_UPDATE_CLEAR_ALL, "update kind");
_Static_assert((int)LIBDCM_MERGE == (int)DCM_UPDATE_MERGE, "update kind");
_Static_assert((int)LIBDCM_CLEAR_AFTER == (int)DCM_UPDATE_CLEAR_AFTER, "update kind");
_Static_assert((int)LIBDCM_CLEAR_BEFORE == (int)DCM_UPDATE_CLEAR_BEFORE, "update kind");
_Static_assert((int)LIBDCM_WATCHDOG_HOLD == (int)DCM_WATCHDOG_HOLD, "watchdog action");
_Static_assert((int)LIBDCM_WATCHDOG_RAMP == (int)DCM_WATCHDOG_RAMP, "watchdog action");
_Static_assert(LIBDCM_WATCHDOG_MIN_MS == DCM_WATCHDOG_MIN_MS, "limit");
_Static_assert(LIBDCM_WATCHDOG_MAX_MS == DCM_WATCHDOG_MAX_MS, "limit");
_Static_assert(LIBDCM_WATCHDOG_RAMP_MAX_MS == DCM_WATCHDOG_RAMP_MAX_MS, "limit");
_Static_assert((int)LIBDCM_CALIB_HERE == (int)DCM_CALIB_HERE, "calibration");
_Static_assert((int)LIBDCM_CALIB_SET == (int)DCM_CALIB_SET, "calibration");
_Static_assert((int)LIBDCM_SPECIAL_RESET == (int)DCM_SPECIAL_RESET, "special");
_Static_assert((int)LIBDCM_SPECIAL_CONFIG == (int)DCM_SPECIAL_CONFIG, "special");
_Static_assert(LIBDCM_MRE_COUNTS == 4096, "jointZeroPosition range");
_Static_assert(LIBDCM_LATENCY_BUCKETS ==
	       sizeof(((struct dcm_ioc_stats *)0)->latency_hist) / sizeof(__u64),
	       "latency buckets");

/* An open /dev/dcmN: fixed at dcm_open(), only read afterwards. */
struct dcm {
	int fd;
	bool read_only;
	struct dcm_version version;
	char path[];
};

/* Record the detailed message dcm_last_error() returns; returns @err. */
int dcm_set_error(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dcm_clear_error(void);

/*
 * dcm_event_follow_step(): what to do with a live event of the followed
 * controller numbered @seq: pass it on (@f->next moves past it), skip it
 * (the history gave it already), or first take the events from @f->next to
 * @seq - 1 from the history (a gap: the socket or the kernel's queue
 * dropped them), then ask again. A number below @f->next that the history
 * did not give means the numbering started again (a new controller of the
 * same index): followed from there.
 */
enum dcm_follow_step {
	DCM_FOLLOW_PASS,
	DCM_FOLLOW_SKIP,
	DCM_FOLLOW_GAP,
};

enum dcm_follow_step dcm_event_follow_step(struct dcm_event_follow *f, uint64_t seq);

/* Map a libnl error code (NLE_*, either sign) to a negative errno. */
int dcm_nle_to_errno(int nle);

/*
 * Check a DCM_IOC_VERSION answer against what this library speaks.
 * Return: 0 (and fill @out), or -EPROTO with dcm_last_error() set.
 */
int dcm_check_version(const char *path, const struct dcm_ioc_version *v,
		      struct dcm_version *out);

/* Convert the kernel's struct into the library's. */
void dcm_info_from_ioc(const struct dcm_ioc_info *ioc, struct dcm_info *info);

/* ------------------------------------------------------------------
 * Netlink requests (nl.c), shared with the configuration path (config.c)
 */

struct nl_msg;
struct nlmsgerr;

/* Length of the kernel's extended-ack message kept for a request. */
#define DCM_EXT_MSG_LEN		256

/*
 * One request on the request socket and its answers. dcm_nl_request()
 * fills @family; the caller zeroes the rest and sets either @info (a
 * GET_INFO do), @cb/@arg (a GET_INFO dump) or @parse/@parse_arg (any other
 * reply: called for each message of the family, returns 0 or a negative
 * errno with dcm_last_error() set).
 */
struct req_ctx {
	int family;
	int err;		/* first error seen: kernel's, parse, ... */
	bool err_explained;	/* dcm_last_error() already describes err */
	bool done;		/* ACK, NLMSG_DONE or error received */
	bool stopped;		/* drain the rest without calling back */
	int count;		/* replies parsed */
	int cb_ret;		/* non-zero return of the user callback */
	char ext_msg[DCM_EXT_MSG_LEN];	/* NLMSGERR_ATTR_MSG of the error */

	/* do */
	struct dcm_info *info;
	/* dump */
	dcm_info_cb cb;
	void *arg;
	/* other replies */
	int (*parse)(struct nlmsghdr *nlh, void *arg);
	void *parse_arg;
};

/* A request of the family "dcm": header only; NULL if out of memory. */
struct nl_msg *dcm_nl_new_request(struct dcm_nl *nl, int flags, uint8_t cmd);

/*
 * Send @msg and process the answers until the ACK, the end of a dump or an
 * error (serialised on the handle's request lock). Return: 0 when the
 * exchange happened (the kernel's verdict is then in @ctx->err and
 * @ctx->ext_msg), or a negative errno (send failed; dcm_last_error() set).
 */
int dcm_nl_request(struct dcm_nl *nl, struct nl_msg *msg, struct req_ctx *ctx);

/*
 * The kernel's verdict on a request dcm_nl_request() made with @ctx: 0, or
 * its negative errno, said in dcm_last_error() as "netlink: @what: ERROR"
 * unless the reply explained it already (its extended ack).
 */
int dcm_nl_verdict(const struct req_ctx *ctx, const char *what);

/*
 * A dump of @cmd (no attribute) through dcm_nl_request() with @ctx, the
 * message made and freed here. Return as dcm_nl_request(), -ENOMEM too.
 */
int dcm_nl_dump(struct dcm_nl *nl, uint8_t cmd, struct req_ctx *ctx);

/*
 * dcm_nl_request() for the admin commands (configuration, calibrate,
 * special), then @msg freed. A refusal is explained in dcm_last_error():
 * the kernel's extended-ack message if it gave one, else "permission
 * denied: @action needs CAP_NET_ADMIN (root)" for EPERM, else a message
 * naming @what (the command) and the controller @index. Return: 0 or the
 * negative errno.
 */
int dcm_nl_admin_request(struct dcm_nl *nl, struct nl_msg *msg, struct req_ctx *ctx,
			 const char *what, const char *action, unsigned int index);

/*
 * Copy the NLMSGERR_ATTR_MSG of an error's extended ack into @buf (empty
 * string if the ack has none). @e must lie inside a whole NLMSG_ERROR
 * message, as libnl's error callback gets it.
 */
void dcm_nl_ext_ack_msg(const struct nlmsgerr *e, char *buf, size_t len);

/*
 * The answers of DCM_CMD_CALIBRATE and DCM_CMD_SPECIAL (special.c): 0 or
 * -EPROTO. Not exported: the unit tests link the static library.
 */
int dcm_nl_parse_calibrate(struct nlmsghdr *nlh, struct dcm_calib_result *out);
int dcm_nl_parse_special(struct nlmsghdr *nlh, struct dcm_special_result *out);

/* ------------------------------------------------------------------
 * The snapshot (snapshot.c)
 */

/*
 * Check the header of a snapshot of @len bytes at @mem and wrap it in a
 * struct dcm_snap (which does not own @mem when @owned is false: the unit
 * tests build one in memory). @dcm may be NULL (no dcm_snapshot_check()).
 * Return: 0, -EPROTO (a header that does not hold together), -ENOMEM.
 */
int dcm_snapshot_wrap(struct dcm *dcm, const void *mem, size_t len, bool owned,
		      struct dcm_snap **out);

/* Tries of a snapshot read before it gives up with -EAGAIN. */
#define DCM_SNAP_MAX_TRIES	10000

/* A growing array of malloc'ed strings (free with dcm_strv_free()). */
struct dcm_strv {
	char **v;
	size_t n, cap;
};

/* Add "@a@b". Return 0 or -ENOMEM. */
int dcm_strv_add(struct dcm_strv *s, const char *a, const char *b);
/* Free the strings and the array; @s is empty again. */
void dcm_strv_free(struct dcm_strv *s);
/* Sort the strings (strcmp()). */
void dcm_strv_sort(struct dcm_strv *s);

/* What dcm_sysfs_walk() collects and where it goes. */
enum {
	DCM_WALK_FILES = 1,		/* the regular files: "a/b/Value" */
	DCM_WALK_SUBDEVICES = 2,	/* the directories holding a regular "Device"
					 * file (subdevices), below the top: "a/b" */
	DCM_WALK_PRUNE = 4,		/* not into such a directory (another
					 * subdevice's keys), below the top */
};

/*
 * The one walk of a sysfs key tree: what @flags asks for below the
 * directory @dirfd, paths relative to it, added to @out unsorted. Hidden
 * entries (a tree being built) are skipped, so are symlinks and every file
 * that is not regular; a directory that cannot be opened is skipped; more
 * than 32 levels is -ELOOP. Return 0 or a negative errno (@out holds what
 * was found until then).
 */
int dcm_sysfs_walk(int dirfd, unsigned int flags, struct dcm_strv *out);

#ifdef LIBDCM_TESTING
/*
 * Called by a snapshot read after it copied the data and before it reads
 * the sequence count again (the unit tests change the count there).
 */
extern void (*dcm_snapshot_test_hook)(void *arg);
extern void *dcm_snapshot_test_arg;
#endif

#endif /* LIBDCM_PRIVATE_H */
