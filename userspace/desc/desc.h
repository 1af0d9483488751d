/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The robot description, for dcmd and dcmctl. Device.xml and the three
 * preference overlays (Main, the chest's, the head's) are parsed with
 * libxml2, validated against their RelaxNG schemas, checked, filtered by
 * Part from the RobotConfig keys and merged into one in-memory model,
 * which desc_push() sends to a sink: the kernel (netlink) or a dry run of
 * the kernel's own checks. prefs.c edits and writes preference files.
 *
 * The files by job: load.c (XML parsing and validation, desc_load()),
 * parts.c (the preference and Part rules: who owns a key, which Parts the
 * robot has, the overlays), model.c (the model, its numbers and lookups),
 * files.c (where the files are), push.c and dryrun.c (the sinks), prefs.c
 * (a preference file as a document), actions.c (the preference actions
 * Save and Add, and the loads of dcmd and dcmctl), libdcm-desc.c (the
 * preference calls of <libdcm-desc.h>).
 *
 * All of it is built once, into libdcm-desc.so: this header's calls are
 * exported there in the version node LIBDCM_DESC_PRIVATE (libdcm-desc.map)
 * for dcmd and dcmctl of the same release, and the header is not
 * installed.
 *
 * Documentation/userspace.rst ("dcmd", "The robot description") describes
 * the rules. Every error names its file and line: "FILE:LINE: message".
 */
#ifndef DCM_DESC_H
#define DCM_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"

/* Parts of the robot a Device or SubDevice belongs to. */
enum desc_part {
	PART_BODY,
	PART_HEAD,
	PART_HEAD_TOUCH,
	PART_LEFT_ARM,
	PART_RIGHT_ARM,
	PART_LEFT_WRIST,
	PART_RIGHT_WRIST,
	PART_LEFT_HAND,
	PART_RIGHT_HAND,
	PART_LEFT_HAND_TOUCH,
	PART_RIGHT_HAND_TOUCH,
	PART_LEGS,
	PART_LEFT_FOOT,
	PART_RIGHT_FOOT,
	PART_COUNT
};

/* The Part attribute's spelling of @p ("LeftHandTouch"). */
const char *desc_part_name(enum desc_part p);

/*
 * The preference files (NAOqi's preference targets), in the order they
 * apply over Device.xml.
 */
enum desc_target {
	DESC_MAIN,		/* main.xml: the rest of the description's keys */
	DESC_CHEST,		/* body.xml: the body's identity, configuration,
				 * calibration (stored with the chest board) */
	DESC_HEAD,		/* head.xml: the head's configuration */
	DESC_N_TARGETS
};

/* The Target attribute of @t's files: "Main", "Chest", "Head". */
const char *desc_target_name(enum desc_target t);
/* A target by name, case-insensitive ("chest"); -1 if none. */
int desc_target_parse(const char *name);
/* The file name of @t's preferences: "main.xml", "body.xml", "head.xml". */
const char *desc_target_file(enum desc_target t);

/*
 * Which preference file owns the key @path (a full path:
 * "Device/SubDeviceList/<subdevice>/<key>", "Device/DeviceList/<device>/<key>"
 * or "RobotConfig/..."), so that no two files set the same key:
 *
 *   Chest: RobotConfig/Body/..., the BodyId and BodyNickName of a device
 *          (the ChestBoard), every jointZeroPosition, and the Gain and
 *          Offset of FSR subdevices (their calibration);
 *   Head:  RobotConfig/Head/...;
 *   Main:  every other key (Value, Gain, Offset, Min, Max, the typed
 *          CONFIG and STATIC keys, RobotConfig keys outside Body and Head).
 *
 * @sub_type is the Type of the subdevice @path names (NULL: not a
 * subdevice key, or not known).
 */
enum desc_target desc_key_owner(const char *path, const char *sub_type);

/* Where something was written. @file points into struct desc.files. */
struct desc_src {
	const char *file;
	int line;
};

/*
 * A key setting. For a device or subdevice, @name is the key's name (the
 * last component: "Min", "Kp", "BodyId"); for a RobotConfig key, the
 * whole path ("RobotConfig/Body/Type"). The value is the last layer's.
 */
struct desc_key {
	char *name;
	int kind;		/* LIBDCM_KEY_* */
	int64_t num;		/* INT, BOOL, FLOAT (micro-units, over den) */
	uint32_t den;		/* FLOAT: 1, or 10^k when the text has 6 + k
				 * decimals (k <= 9): num / den is exact */
	char *str;		/* STRING */
	struct desc_src src;
};

/* A float key's value rounded to micro-units (half away from zero). */
int64_t desc_key_micro(const struct desc_key *k);

struct desc_device {
	char *name;
	char *type;
	char *bus;
	unsigned int address;
	enum desc_part part;
	bool kept;		/* on this robot (its Part is present) */
	struct desc_src src;
	struct desc_key *keys;
	size_t n_keys;
};

/*
 * A subdevice. Its Min and Max (always), and Value, Gain, Offset (when the
 * description gives them) are keys of @keys like the type-specific ones.
 */
struct desc_subdevice {
	char *name;
	char *type;
	char *device;
	size_t dev;		/* index of @device in struct desc.devices */
	unsigned int number;	/* SubDeviceNumber */
	enum desc_part part;
	bool kept;		/* its Part and its device are present */
	struct desc_src src;
	struct desc_key *keys;
	size_t n_keys;
};

struct desc {
	struct desc_device *devices;
	size_t n_devices;
	struct desc_subdevice *subdevices;
	size_t n_subdevices;
	struct desc_key *robot;		/* RobotConfig keys, merged */
	size_t n_robot;
	bool parts[PART_COUNT];		/* which parts this robot has */
	size_t n_kept_devices;
	size_t n_kept_subdevices;
	size_t n_overrides;		/* preference keys applied */
	size_t n_ignored;		/* preference keys aimed at dropped parts */
	char **files;			/* the file names, owned */
	size_t n_files;
};

/* Log levels of desc_opts.log (syslog's). */
#define DESC_LOG_WARNING	4
#define DESC_LOG_INFO		6
#define DESC_LOG_DEBUG		7

struct desc_opts {
	const char *device_xml;		/* required */
	const char *main_xml;		/* main preferences; NULL: none */
	const char *body_xml;		/* chest preferences; NULL: none */
	const char *head_xml;		/* head preferences; NULL: none */
	const char *device_rng;		/* schema of device_xml; NULL: no validation */
	const char *prefs_rng;		/* schema of the preferences; NULL: none */
	/*
	 * The device and subdevice Types that exist; NULL: not checked here
	 * (the kernel checks them anyway). dcmd passes the kernel's own
	 * table (desc_kernel_*_type_ok).
	 */
	bool (*device_type_ok)(const char *type);
	bool (*subdevice_type_ok)(const char *type);
	/* Messages that are not errors (dropped elements, ...); may be NULL. */
	void (*log)(void *arg, int level, const char *msg);
	void *log_arg;
	/*
	 * How each preference file was given ("-b"), for the message about
	 * a file of the wrong Target; NULL: not said.
	 */
	const char *target_hint[DESC_N_TARGETS];
};

/* ------------------------------------------------------------------
 * Where the files are (files.c)
 */

#define DESC_SHARE_DIR		"/usr/share/dcm"	/* the shipped description */
#define DESC_ETC_DIR		"/etc/dcm"		/* this robot's preferences */
#define DESC_DEVICE_XML		"Device.xml"
#define DESC_DEVICE_RNG		"device.rng"
#define DESC_PREFS_RNG		"preferences.rng"
#define DESC_NO_FILE		"none"	/* a preference file given as this: none */

/* What the user said; NULL: the default. */
struct desc_paths {
	const char *device_xml;			/* default SHARE/Device.xml */
	const char *prefs[DESC_N_TARGETS];	/* a file, or DESC_NO_FILE */
	const char *schema_dir;			/* default SHARE */
	const char *etc;			/* default DESC_ETC_DIR */
	const char *share;			/* default DESC_SHARE_DIR */
};

/* The files of a load, defaults resolved. */
struct desc_files {
	char device_xml[4096];
	char prefs[DESC_N_TARGETS][4096];	/* "" if none */
	char device_rng[4096];
	char prefs_rng[4096];
	char note[512];		/* the Chest and Head files looked for and not found */
};

/*
 * Resolve the files: Device.xml and the schemas as given or in SHARE; each
 * preference file as given (DESC_NO_FILE: none), else ETC/<file> if it
 * exists, else SHARE/<file> if it exists, else none (desc_target_file()).
 * A missing Chest or Head file is said in @f->note; a missing Main file
 * is the usual case and is not. Return 0 or -ENAMETOOLONG.
 */
int desc_resolve_files(const struct desc_paths *p, struct desc_files *f);

/*
 * The preference directory of controller dcm@index, @buf of @len bytes:
 * /etc/dcm for dcm0 (the one robot of most systems), /etc/dcm/dcmN for
 * another: each robot has its own preference files. Return 0 or
 * -ENAMETOOLONG.
 */
int desc_etc_dir(unsigned int index, char *buf, size_t len);

/* Where a target's file is saved by default: ETC/<file>; @etc NULL: /etc/dcm. */
int desc_default_pref_path(const char *etc, enum desc_target t, char *buf, size_t len);

/* Point @o's file names (and schemas) at @f's. */
void desc_opts_set_files(struct desc_opts *o, const struct desc_files *f);

/* "Device.xml + main.xml + body.xml + head.xml": the files of @o that are given. */
void desc_opts_files_text(const struct desc_opts *o, char *buf, size_t len);

/* Errors found by a load: "FILE:LINE: message" lines, in order. */
#define DESC_MAX_ERRORS	50
struct desc_errors {
	char **msgs;
	size_t n;		/* kept in msgs (at most DESC_MAX_ERRORS) */
	size_t dropped;		/* found beyond DESC_MAX_ERRORS */
};

void desc_errors_init(struct desc_errors *e);
void desc_errors_free(struct desc_errors *e);
void desc_errors_add(struct desc_errors *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* All messages, one per line; "" if none. Caller frees. */
char *desc_errors_text(const struct desc_errors *e);

/*
 * Load, validate, check, filter and merge. Return: 0 and *@out, or -1 with
 * @errs holding why (at least one message). *@out is NULL on failure.
 */
int desc_load(const struct desc_opts *o, struct desc **out,
	      struct desc_errors *errs);
void desc_free(struct desc *d);

/* Find a subdevice / device / its key by name; NULL if none. */
struct desc_subdevice *desc_find_subdevice(const struct desc *d, const char *name);
struct desc_device *desc_find_device(const struct desc *d, const char *name);
struct desc_key *desc_find_key(struct desc_key *keys, size_t n, const char *name);
struct desc_key *desc_find_robot_key(const struct desc *d, const char *path);

/*
 * A key path split: its element (subdevice or device, NULL for a
 * RobotConfig key or a path that names none of @d's) and the key's name
 * (the last component; the whole path for a RobotConfig key). Return 0,
 * or -EINVAL for a path that is no key path of a description.
 */
struct desc_path {
	struct desc_subdevice *sub;
	struct desc_device *dev;
	const char *key;	/* into the path */
	bool robot;		/* a RobotConfig key */
};
int desc_resolve_path(const struct desc *d, const char *path, struct desc_path *out);

/* desc_key_owner() with the subdevice's type looked up in @d. */
enum desc_target desc_path_owner(const struct desc *d, const char *path);

/* A one-paragraph summary (dcmd -n), to @f. */
void desc_print_summary(FILE *f, const struct desc *d);

/*
 * Number parsing of attribute and key values. Leading and trailing XML
 * blanks are allowed. Return: 0, -EINVAL (not such a number), -ERANGE.
 */
int desc_parse_int(const char *text, int64_t *out);
int desc_parse_float(const char *text, int64_t *out);	/* micro-units */
/* Exactly: *num / *den micro-units (dcm_fraction_from_string()). */
int desc_parse_fraction(const char *text, int64_t *num, uint32_t *den);
int desc_parse_bool(const char *text, int64_t *out);	/* true/false/1/0 */

/* The Type attribute's spelling of a key kind ("int"; "?" if none). */
const char *desc_kind_name(int kind);
/* A key kind (LIBDCM_KEY_*) by its Type spelling; -1 if none. */
int desc_kind_parse(const char *name);

/* ------------------------------------------------------------------
 * Editing a preference file (prefs.c)
 */

struct desc_prefs;

/*
 * Read @path as @t's preference file, for editing; a @path that does not
 * exist (or NULL) gives an empty <Preferences Target="..."> document.
 * The file must parse and have the Preferences root with @t's Target; its
 * keys are checked when it is written. Return 0, or -1 with @errs.
 */
int desc_prefs_open(const char *path, enum desc_target t, struct desc_prefs **out,
		    struct desc_errors *errs);
void desc_prefs_free(struct desc_prefs *p);

/* How many Key elements. */
size_t desc_prefs_count(const struct desc_prefs *p);

/*
 * The Type and Value of @path's Key, malloc'ed (free both). Return 0,
 * -ENOENT (no such Key), -EINVAL (no Type or Value).
 */
int desc_prefs_get(const struct desc_prefs *p, const char *path, char **type, char **value);

/*
 * Set @path to @value of kind @type ("int", ...): the Key's Type and Value
 * are replaced in place, or a Key is added after the last one. Nothing is
 * checked here. Return 1 (added), 0 (replaced), -ENOMEM.
 */
int desc_prefs_set(struct desc_prefs *p, const char *path, const char *type,
		   const char *value);

/*
 * Replace the comments before the root by one comment of @text (NULL: none).
 * Return 0, -EINVAL (@text holds "--" or ends in '-', which a comment may
 * not: nothing changed), -ENOMEM.
 */
int desc_prefs_set_header(struct desc_prefs *p, const char *text);

/*
 * Write to @path atomically: a temporary file beside it (its directory is
 * made if missing, one level), given to @check (may be NULL), renamed over
 * @path if @check returns 0; the file keeps its permission bits (0777 of its
 * mode: never set-user-ID, set-group-ID or sticky; new: 0644). @check adds
 * its messages to @errs, where the temporary name is then replaced by @path. Return 0, or -1 with @errs ("PATH: why"), @path untouched.
 */
typedef int (*desc_prefs_check_fn)(const char *tmp, void *arg, struct desc_errors *errs);
int desc_prefs_write(struct desc_prefs *p, const char *path, desc_prefs_check_fn check,
		     void *arg, struct desc_errors *errs);

/* ------------------------------------------------------------------
 * Pushing a description: one transaction on a sink.
 */

/*
 * Each operation returns 0 or a negative errno; why() then explains the
 * last failure (the kernel's message for the netlink sink).
 */
struct desc_sink {
	int (*begin)(void *ctx);
	int (*add_device)(void *ctx, const char *name, const char *type,
			  const char *bus, unsigned int address);
	int (*add_subdevice)(void *ctx, const char *name, const char *type,
			     const char *device, unsigned int number);
	int (*set_key)(void *ctx, const char *path, const struct dcm_key_value *v);
	int (*commit)(void *ctx, struct dcm_config_counts *counts);
	void (*abort)(void *ctx);
	const char *(*why)(void *ctx);
};

/* Statistics of a push. */
struct desc_push_stats {
	unsigned int steps;		/* requests sent, BEGIN and COMMIT included */
	struct dcm_config_counts counts;	/* what the sink committed */
};

/*
 * Send the kept devices, subdevices and their keys, then the RobotConfig
 * keys, and commit. On failure @err gets "FILE:LINE: <why>" naming the
 * element or key whose step failed (or just the sink's message for BEGIN,
 * e.g. a permission error), the transaction is aborted, and the negative
 * errno is returned.
 */
int desc_push(const struct desc *d, const struct desc_sink *sink, void *ctx,
	      struct desc_push_stats *stats, char *err, size_t errlen);

/* The netlink sink: libdcm's dcm_nl_config_*() on controller @index. */
struct desc_nl_sink {
	struct dcm_nl *nl;
	unsigned int index;
};
extern const struct desc_sink desc_nl_sink_ops;

/*
 * The dry-run sink: the kernel's own model code (kernel/model/dcm_model.c,
 * kernel/model/dcm_types.c), built for userspace: the same checks, the same
 * messages, no kernel needed.
 */
/* The kernel's type table (kernel/model/dcm_types.c), for desc_opts. */
bool desc_kernel_device_type_ok(const char *type);
bool desc_kernel_subdevice_type_ok(const char *type);

/*
 * The keys the kernel gives a type beyond the mandatory ones (Value, Gain,
 * ..., kernel/model/dcm_types.c): for each, its name, kind (LIBDCM_KEY_*),
 * whether a description may set it (CONFIG or STATIC, not LIVE) and the
 * range of an int key that has one. At most
 * @max are written. Return: how many the type has, or -ENOENT for an
 * unknown type.
 */
struct desc_type_key {
	const char *name;
	int kind;
	bool settable;
	bool ranged;		/* an int key with a range: */
	int min, max;
};
int desc_kernel_type_keys(const char *type, bool device, struct desc_type_key *out,
			  size_t max);

struct desc_dry_sink;
struct desc_dry_sink *desc_dry_sink_new(void);
void desc_dry_sink_free(struct desc_dry_sink *s);
/*
 * List every key of the description at a successful commit, as the sysfs
 * tree would hold it: "PATH VALUE" a line (devices, subdevices, then the
 * RobotConfig keys; Ack, Nack and Error 0). @f NULL: list nothing.
 */
void desc_dry_sink_list_keys(struct desc_dry_sink *s, FILE *f);
extern const struct desc_sink desc_dry_sink_ops;

/* ------------------------------------------------------------------
 * The preference actions (actions.c): NAOqi's Save and Add on a target's
 * file, and the loads of dcmd and dcmctl preferences load
 */

/* A log callback of struct desc_opts. */
typedef void (*desc_log_fn)(void *arg, int level, const char *msg);

/*
 * The options of a load of @f's files as dcmd and dcmctl make it: the
 * kernel's type table (desc_kernel_*_type_ok), messages to @log.
 */
void desc_opts_init(struct desc_opts *o, const struct desc_files *f, desc_log_fn log,
		    void *log_arg);

/*
 * The files of a load from @p, with @file (NULL: none) as target @t's
 * preference file (@t < 0: no target). Return 0 or -ENAMETOOLONG.
 */
int desc_prefs_load_files(const struct desc_paths *p, const char *file, int t,
			  struct desc_files *f);

/*
 * The file target @t is read from (@from, "" for none: a new file) and
 * written to (@to) by save and add: @file (read if it exists), else the
 * file dcmd would load (ETC's, else SHARE's, else none) and ETC/<file>.
 * Return 0 or -ENAMETOOLONG, -ENOMEM.
 */
int desc_prefs_paths(const struct desc_paths *p, const char *file, enum desc_target t,
		     char *from, size_t fromlen, char *to, size_t tolen);

/*
 * Device.xml of @f alone, no preference file: what save and add compare
 * and check against. Return 0 and *@out, or -1 with @errs (the last
 * message: "DEVICE_XML does not load").
 */
int desc_load_device_xml(const struct desc_files *f, desc_log_fn log, void *log_arg,
			 struct desc **out, struct desc_errors *errs);

/*
 * Write @p to @path as @t's file: a header comment naming it, then
 * desc_prefs_write() with the check that Device.xml of @f and it alone
 * load (warnings to @log) and pass the kernel's checks (the dry run).
 * Return 0, or -1 with @errs (the last message: "PATH not written", but
 * for a header that cannot be set).
 */
int desc_prefs_write_checked(struct desc_prefs *p, const char *path, enum desc_target t,
			     const struct desc_files *f, desc_log_fn log, void *log_arg,
			     struct desc_errors *errs);

/* What a save did. */
struct desc_save_stats {
	unsigned int keys;	/* the target's keys in the running description */
	unsigned int changed;	/* in the file, with another value now */
	unsigned int added;	/* not in the file, differing from Device.xml's */
};

/*
 * Save: every key of the running description (read from @sysfs) that @t
 * owns and a file may set, into @p. A Key of @p that says the same is
 * kept as written; one that does not is changed; a key @p does not set is
 * added when its value is not Device.xml's (@d0, or the kernel's default).
 * RobotConfig keys are all saved. Return 0, or -1 with @errs (a key that
 * could not be read or written; the others are saved all the same).
 */
int desc_prefs_save(struct desc_prefs *p, enum desc_target t, const struct desc *d0,
		    const struct dcm_sysfs *sysfs, struct desc_save_stats *st,
		    struct desc_errors *errs);

/* A key as dcmctl get takes it, as a full path (no prefix: a subdevice's). Caller frees. */
char *desc_full_key_path(const char *key);

/*
 * Add, first step: the kind of the key @path (LIBDCM_KEY_*, 0 for a
 * RobotConfig key: any kind) from Device.xml (@d0) and the kernel's types,
 * and in @range the key's range; @t must own it. Return the kind, or -1
 * with @errs (not a key a file may set, or another file's).
 */
int desc_prefs_add_kind(const struct desc *d0, const char *path, enum desc_target t,
			struct desc_type_key *range, struct desc_errors *errs);

/*
 * Add: set @path to @value in @p, of the key's @kind and @range
 * (desc_prefs_add_kind()); @type: the kind asked ("int", ...; NULL: the
 * key's). A RobotConfig key is of kind @type, else the file's Type, else
 * what @value reads as. *@kind_out gets the kind written. Return 1
 * (added), 0 (replaced), or -1 with @errs (the value is not of the kind
 * or out of range).
 */
int desc_prefs_add(struct desc_prefs *p, const char *path, int kind,
		   const struct desc_type_key *range, const char *type, const char *value,
		   int *kind_out, struct desc_errors *errs);

#endif /* DCM_DESC_H */
