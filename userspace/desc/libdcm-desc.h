/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libdcm-desc - the robot description's library: NAOqi's preferences on the
 * description's preference files, over libdcm.
 *
 * A library of its own so that libdcm, which every client links, does not
 * need libxml2: only a program that reads or writes the description's
 * files links libdcm-desc (pkg-config libdcm-desc), and with it libxml2.
 * Its conventions are libdcm's (<libdcm.h>): a negative errno on failure,
 * dcm_last_error() says why.
 *
 * Documentation/userspace.rst describes this API.
 */
#ifndef LIBDCM_DESC_H
#define LIBDCM_DESC_H

#include <stdbool.h>
#include <stddef.h>

#include <libdcm.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------
 * Preferences: NAOqi's preferences(action, target, key, value) on the
 * robot description's preference files (Documentation/dcm/device-xml.rst)
 * (0.6)
 *
 * The files are those dcmd loads for the controller: /etc/dcm for dcm0,
 * /etc/dcm/dcmN for dcmN (the robot's own), over /usr/share/dcm (the
 * shipped description). Every file written is checked first (schema, the
 * loader, the kernel's own checks, with Device.xml) and replaced
 * atomically: a refused change leaves the file as it was. Messages (the
 * file and line of each error, warnings) go to the options' @log, one line
 * each, without a trailing newline; the last error is dcm_last_error().
 */

/**
 * enum dcm_prefs_target - the preference targets
 * @LIBDCM_PREFS_MAIN: main.xml: the rest of the description's keys
 * @LIBDCM_PREFS_CHEST: body.xml: the body's identity, calibration
 * @LIBDCM_PREFS_HEAD: head.xml: the head's configuration
 * @LIBDCM_PREFS_ALL: save and load: the three
 *
 * The preference targets (NAOqi's): which file.
 */
enum dcm_prefs_target {
	LIBDCM_PREFS_MAIN = 0,
	LIBDCM_PREFS_CHEST = 1,
	LIBDCM_PREFS_HEAD = 2,
	LIBDCM_PREFS_ALL = 3,
};

/* Log levels (syslog's). */
#define LIBDCM_LOG_ERR		3
#define LIBDCM_LOG_WARNING	4

/**
 * typedef dcm_log_fn - where the preference calls' messages go
 * @arg: &struct dcm_prefs_opts.log_arg
 * @level: LIBDCM_LOG_ERR or LIBDCM_LOG_WARNING
 * @msg: the message
 */
typedef void (*dcm_log_fn)(void *arg, int level, const char *msg);

/**
 * struct dcm_prefs_opts - where the preference files are, and where messages go
 * @index: controller N of dcmN
 * @file: one target's file instead of the default (not with LIBDCM_PREFS_ALL)
 * @etc: the robot's directory; NULL: /etc/dcm[/dcmN]
 * @share: NULL: /usr/share/dcm
 * @device_xml: NULL: SHARE/Device.xml
 * @schema_dir: NULL: SHARE
 * @sysfs_root: save: NULL as for dcm_sysfs_root()
 * @log: NULL: no messages (dcm_last_error() only)
 * @log_arg: passed to @log
 *
 * Where the files are and where messages go; zero it, set what differs.
 */
struct dcm_prefs_opts {
	unsigned int index;
	const char *file;
	const char *etc;
	const char *share;
	const char *device_xml;
	const char *schema_dir;
	const char *sysfs_root;
	dcm_log_fn log;
	void *log_arg;
};

#define LIBDCM_PATH_LEN		4096

/**
 * struct dcm_prefs_saved - what a save did to one target's file
 * (dcm_prefs_save())
 * @target: enum dcm_prefs_target
 * @file: written
 * @from: read first; "" if there was none
 * @keys: in the file now
 * @live: the target's keys in the running description
 * @changed: in the file before, with another value now
 * @added: new in the file: differing from Device.xml
 *
 * What a save did to one target's file.
 */
struct dcm_prefs_saved {
	int target;
	char file[LIBDCM_PATH_LEN];
	char from[LIBDCM_PATH_LEN];
	unsigned int keys;
	unsigned int live;
	unsigned int changed;
	unsigned int added;
};

/**
 * dcm_prefs_save() - NAOqi's preferences("Save", target): write the
 * running description's values (read from sysfs) of the keys @target owns
 * into its file; LIBDCM_PREFS_ALL: the three files.
 * @out: room for 3 results
 * @n_out: gets how many files were written
 * Return: 0; -EINVAL (bad target or options); -ENOENT (no such
 * controller); -EIO (a file not read or written: said, the others are
 * saved all the same); -ENAMETOOLONG; -ENOMEM.
 * @o: the files and directories to use (NULL or zero fields: dcmd's defaults)
 * @target: LIBDCM_PREFS_MAIN, LIBDCM_PREFS_CHEST, LIBDCM_PREFS_HEAD or
 * LIBDCM_PREFS_ALL
 */
int dcm_prefs_save(const struct dcm_prefs_opts *o, int target, struct dcm_prefs_saved *out,
		   size_t *n_out);

/**
 * struct dcm_prefs_loaded - what a load committed (dcm_prefs_load())
 * @files: "Device.xml + main.xml + ..."
 * @controller: "dcm0"
 * @n_devices: the kernel's counts
 * @n_subdevices: the kernel's counts
 * @n_keys: the kernel's counts
 * @steps: configuration requests sent
 *
 * What a load committed.
 */
struct dcm_prefs_loaded {
	char files[2048];
	char controller[LIBDCM_NAME_LEN];
	unsigned int n_devices, n_subdevices, n_keys;
	unsigned int steps;
};

/**
 * dcm_prefs_load() - NAOqi's preferences("Load", target): load the robot
 * description again from Device.xml and the preference files and commit it
 * to the kernel as one transaction, as dcmd does (root, CAP_NET_ADMIN).
 * @target: LIBDCM_PREFS_ALL, or the target whose file @o->file is.
 * @out: may be NULL.
 * Return: 0; -EINVAL (the files do not load: each error said); -EPERM;
 * the kernel's -errno when it refused the description (which then is
 * unchanged); other -errno.
 * @o: the files and directories to use (NULL or zero fields: dcmd's defaults)
 */
int dcm_prefs_load(const struct dcm_prefs_opts *o, int target, struct dcm_prefs_loaded *out);

/**
 * struct dcm_prefs_added - what an add did (dcm_prefs_add())
 * @target: enum dcm_prefs_target
 * @file: written
 * @from: read first; "" if there was none
 * @key: the key's full path
 * @kind: LIBDCM_KEY_*: as written
 * @added: new in the file (else replaced)
 *
 * What an add did.
 */
struct dcm_prefs_added {
	int target;
	char file[LIBDCM_PATH_LEN];
	char from[LIBDCM_PATH_LEN];
	char key[LIBDCM_PATH_LEN];
	int kind;
	bool added;
};

/**
 * dcm_prefs_add() - NAOqi's preferences("Add", target, key, value): set one
 * key in @target's file (Main, Chest or Head); the kernel is not touched
 * (load to apply it).
 * @key: a key path ("HeadYaw/Position/Actuator/Kp", "Device/DeviceList/
 * ChestBoard/BodyNickName", "RobotConfig/Body/Version")
 * @value: its value as text
 * @type: "int", "float", "bool" or "string"; NULL: the key's own (a
 * RobotConfig key that Device.xml lacks: what @value reads as)
 * @out: may be NULL.
 * Return: 0; -EINVAL (a key the description does not know, another
 * target's key, a value not of its kind or outside its range: said);
 * -EIO (a file not read or written); other -errno.
 * @o: the files and directories to use (NULL or zero fields: dcmd's defaults)
 * @target: LIBDCM_PREFS_MAIN, LIBDCM_PREFS_CHEST, LIBDCM_PREFS_HEAD or
 * LIBDCM_PREFS_ALL
 */
int dcm_prefs_add(const struct dcm_prefs_opts *o, int target, const char *key,
		  const char *value, const char *type, struct dcm_prefs_added *out);

/**
 * dcm_prefs_target_name() - "Main", "Chest", "Head", "All"; NULL otherwise.
 * @target: LIBDCM_PREFS_MAIN, LIBDCM_PREFS_CHEST, LIBDCM_PREFS_HEAD or
 * LIBDCM_PREFS_ALL
 */
const char *dcm_prefs_target_name(int target);

/**
 * dcm_prefs_target_from_name() - the reverse, case-insensitive; -EINVAL.
 * @name: the name
 */
int dcm_prefs_target_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* LIBDCM_DESC_H */
