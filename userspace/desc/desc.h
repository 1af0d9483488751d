/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmd: the robot description. Device.xml and the two preference overlays
 * (the chest's, the head's) are parsed with libxml2, validated against
 * their RelaxNG schemas, checked, filtered by Part from the RobotConfig
 * keys and merged into one in-memory model, which desc_push() sends to a
 * sink: the kernel (netlink) or a dry run of the kernel's own checks.
 *
 * Documentation/userspace.rst ("dcmd", "The robot description") describes
 * the rules. Every error names its file and line: "FILE:LINE: message".
 */
#ifndef DCMD_DESC_H
#define DCMD_DESC_H

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
};

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

/* Micro-units as the kernel's sysfs writes them: "-0.500000". */
void desc_format_fixed(int64_t v, char *buf, size_t len);

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
 * The dry-run sink: the kernel's own model code (kernel/dcm_model.c,
 * kernel/dcm_types.c), built for userspace: the same checks, the same
 * messages, no kernel needed.
 */
/* The kernel's type table (kernel/dcm_types.c), for desc_opts. */
bool desc_kernel_device_type_ok(const char *type);
bool desc_kernel_subdevice_type_ok(const char *type);

struct desc_dry_sink;
struct desc_dry_sink *desc_dry_sink_new(void);
void desc_dry_sink_free(struct desc_dry_sink *s);
extern const struct desc_sink desc_dry_sink_ops;

#endif /* DCMD_DESC_H */
