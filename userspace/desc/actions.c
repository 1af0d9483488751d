// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preference actions of NAOqi's preferences(action, target, key,
 * value) on the files of the robot description (see desc.h and
 * Documentation/dcm/device-xml.rst), for dcmctl preferences and dcmd:
 *
 *   load: the options every load of dcmd and dcmctl takes (the kernel's
 *         type table), Device.xml alone as the reference of save and add;
 *   save: the running values, read from sysfs (libdcm), of the keys a
 *         target owns, into its file;
 *   add:  one key of a target's file, checked against Device.xml and the
 *         kernel's types;
 *   and the checked write of a file: the loader and the kernel's own
 *   checks (the dry run) with Device.xml first, then an atomic replace.
 *
 * Nothing here prints: messages go to a struct desc_errors (and warnings
 * to the opts' log), for the caller to show.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/dcm.h>

#include "desc.h"

static int copy(char *dst, size_t len, const char *src)
{
	int n = snprintf(dst, len, "%s", src);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ------------------------------------------------------------------
 * Files and loads
 */

int desc_prefs_paths(const struct desc_paths *p, const char *file, enum desc_target t,
		     char *from, size_t fromlen, char *to, size_t tolen)
{
	struct desc_files *f;
	int r;

	from[0] = '\0';
	if (file) {
		/* that file, read if it is there, else started anew */
		if (!access(file, F_OK))
			r = copy(from, fromlen, file);
		else
			r = 0;
		return r ? r : copy(to, tolen, file);
	}
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = desc_resolve_files(p, f);
	if (!r)
		r = copy(from, fromlen, f->prefs[t]);
	free(f);
	if (!r)
		r = desc_default_pref_path(p->etc, t, to, tolen);
	return r;
}

int desc_prefs_load_files(const struct desc_paths *p, const char *file, int t,
			  struct desc_files *f)
{
	struct desc_paths q = *p;

	if (file && t >= 0 && t < DESC_N_TARGETS)
		q.prefs[t] = file;
	return desc_resolve_files(&q, f);
}

void desc_opts_init(struct desc_opts *o, const struct desc_files *f,
		    void (*log)(void *arg, int level, const char *msg), void *log_arg)
{
	memset(o, 0, sizeof(*o));
	desc_opts_set_files(o, f);
	o->device_type_ok = desc_kernel_device_type_ok;
	o->subdevice_type_ok = desc_kernel_subdevice_type_ok;
	o->log = log;
	o->log_arg = log_arg;
}

/* @f without its preference files, malloc'ed; NULL: no memory. */
static struct desc_files *device_xml_only(const struct desc_files *f)
{
	struct desc_files *only = malloc(sizeof(*only));
	int t;

	if (!only)
		return NULL;
	*only = *f;
	for (t = 0; t < DESC_N_TARGETS; t++)
		only->prefs[t][0] = '\0';
	return only;
}

int desc_load_device_xml(const struct desc_files *f,
			 void (*log)(void *arg, int level, const char *msg), void *log_arg,
			 struct desc **out, struct desc_errors *errs)
{
	struct desc_files *only = device_xml_only(f);
	struct desc_opts o;
	int r;

	*out = NULL;
	if (!only) {
		desc_errors_add(errs, "%s: out of memory", f->device_xml);
		return -1;
	}
	desc_opts_init(&o, only, log, log_arg);
	r = desc_load(&o, out, errs);
	if (r)
		desc_errors_add(errs, "%s does not load", f->device_xml);
	free(only);
	return r;
}

/* ------------------------------------------------------------------
 * The checked write
 */

/* What a written file must pass: Device.xml and it alone load, and the dry run takes them. */
struct check_ctx {
	const struct desc_files *f;
	enum desc_target t;
	void (*log)(void *arg, int level, const char *msg);
	void *log_arg;
};

static int check_file(const char *tmp, void *arg, struct desc_errors *errs)
{
	struct check_ctx *c = arg;
	struct desc_dry_sink *dry;
	struct desc_files *only;
	struct desc_opts o;
	struct desc *d;
	char why[1024];
	int r;

	only = device_xml_only(c->f);
	if (!only) {
		desc_errors_add(errs, "%s: out of memory", tmp);
		return -1;
	}
	snprintf(only->prefs[c->t], sizeof(only->prefs[c->t]), "%s", tmp);
	desc_opts_init(&o, only, c->log, c->log_arg);
	r = desc_load(&o, &d, errs);
	free(only);
	if (r)
		return -1;
	dry = desc_dry_sink_new();
	if (!dry) {
		desc_free(d);
		desc_errors_add(errs, "%s: out of memory", tmp);
		return -1;
	}
	r = desc_push(d, &desc_dry_sink_ops, dry, NULL, why, sizeof(why));
	if (r)
		desc_errors_add(errs, "%s", why);
	desc_dry_sink_free(dry);
	desc_free(d);
	return r ? -1 : 0;
}

static const char *const target_about[DESC_N_TARGETS] = {
	[DESC_MAIN] = "every key of the description but the Chest and Head files' ones",
	[DESC_CHEST] = "the body's identity, configuration and calibration",
	[DESC_HEAD] = "the head's configuration",
};

int desc_prefs_write_checked(struct desc_prefs *p, const char *path, enum desc_target t,
			     const struct desc_files *f,
			     void (*log)(void *arg, int level, const char *msg), void *log_arg,
			     struct desc_errors *errs)
{
	struct check_ctx c = { f, t, log, log_arg };
	const char *base = strrchr(path, '/');
	char header[1024], name[512];
	size_t i, n = 0;
	int r;

	/* the file's name in a comment: "--" may not be there, "- -" may */
	for (base = base ? base + 1 : path, i = 0; base[i] && n + 2 < sizeof(name); i++) {
		if (base[i] == '-' && n && name[n - 1] == '-')
			name[n++] = ' ';
		name[n++] = base[i];
	}
	name[n] = '\0';
	snprintf(header, sizeof(header),
		 "\n  %s: the %s preferences of the robot description of dcm:\n"
		 "  %s.\n"
		 "\n"
		 "  Written by dcmctl preferences (save, add); dcmd and dcmctl preferences\n"
		 "  load apply it over Device.xml. It sets only keys the %s file owns\n"
		 "  (Documentation/dcm/device-xml.rst); schema: preferences.rng.\n",
		 name, desc_target_name(t), target_about[t], desc_target_name(t));
	r = desc_prefs_set_header(p, header);
	if (r) {
		desc_errors_add(errs, "%s: %s", path,
				r == -ENOMEM ? "out of memory" : "cannot write its header comment");
		return -1;
	}
	r = desc_prefs_write(p, path, check_file, &c, errs);
	if (r)
		desc_errors_add(errs, "%s not written", path);
	return r;
}

/* ------------------------------------------------------------------
 * Values
 */

/* A value's text as a number of @kind (floats in micro-units). */
static int parse_num(int kind, const char *text, int64_t *v)
{
	switch (kind) {
	case LIBDCM_KEY_INT:
		return desc_parse_int(text, v);
	case LIBDCM_KEY_BOOL:
		return desc_parse_bool(text, v);
	case LIBDCM_KEY_FLOAT:
		return desc_parse_float(text, v);
	default:
		return -EINVAL;
	}
}

/* Does the file's @text (of kind @kind) say what the kernel's @live says? */
static bool same_value(int kind, const char *text, const char *live)
{
	int64_t a, b;

	if (kind == LIBDCM_KEY_STRING)
		return !strcmp(text, live);
	return !parse_num(kind, text, &a) && !parse_num(kind, live, &b) && a == b;
}

/* Does the description's key (NULL: the kernel's default, @dflt) say @live? */
static bool same_as_key(int kind, const struct desc_key *k, int64_t dflt, const char *live)
{
	int64_t v;

	if (kind == LIBDCM_KEY_STRING)
		return !strcmp(k && k->str ? k->str : "", live);
	if (parse_num(kind, live, &v))
		return false;
	if (!k)
		return v == dflt;
	return k->kind == kind && (kind == LIBDCM_KEY_FLOAT ? desc_key_micro(k) : k->num) == v;
}

/* The text a file gets for the kernel's @live value of @kind. */
static int file_text(int kind, const char *live, char *buf, size_t len)
{
	int64_t v;
	size_t n;

	if (kind == LIBDCM_KEY_STRING)
		return copy(buf, len, live);
	if (parse_num(kind, live, &v))
		return -EINVAL;
	switch (kind) {
	case LIBDCM_KEY_FLOAT:
		/* six decimals, trailing zeros dropped: "0.5", "-2" */
		if (dcm_fixed_to_string(v, buf, len) < 0)
			return -EINVAL;
		n = strlen(buf);
		while (n && buf[n - 1] == '0')
			buf[--n] = '\0';
		if (n && buf[n - 1] == '.')
			buf[--n] = '\0';
		return 0;
	case LIBDCM_KEY_BOOL:
		return copy(buf, len, v ? "true" : "false");
	default:
		snprintf(buf, len, "%lld", (long long)v);
		return 0;
	}
}

/*
 * The kind of a RobotConfig key no file gives: an int under .../Device/
 * and for what reads as an integer, a string for the version keys of seed
 * 000 and for the rest, a float for a decimal.
 */
static int robot_kind(const char *path, const char *live)
{
	static const char *const strings[] = {
		"RobotConfig/Body/Type", "RobotConfig/Body/BaseVersion",
		"RobotConfig/Body/Version", "RobotConfig/Body/SoftwareRequirement",
		"RobotConfig/Head/BaseVersion",
	};
	int64_t v;
	size_t i;

	if (!strncmp(path, "RobotConfig/Body/Device/", 24) ||
	    !strncmp(path, "RobotConfig/Head/Device/", 24))
		return LIBDCM_KEY_INT;
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (!strcmp(path, strings[i]))
			return LIBDCM_KEY_STRING;
	if (!desc_parse_int(live, &v))
		return LIBDCM_KEY_INT;
	if (!desc_parse_float(live, &v) && strchr(live, '.'))
		return LIBDCM_KEY_FLOAT;
	return LIBDCM_KEY_STRING;
}

/* ------------------------------------------------------------------
 * save
 */

struct save {
	enum desc_target t;
	struct desc_prefs *doc;
	const struct dcm_sysfs *sysfs;
	struct desc_errors *errs;
	struct desc_save_stats *st;
	bool failed;
};

/*
 * One key of the target: read it from sysfs; a Key of the file is kept if
 * it says the same (its exact text: a Gain of 10 decimals stays), else
 * changed; a key the file does not set is added when the kernel's value is
 * not Device.xml's (@ref; NULL: not given there, the kernel's default
 * @dflt; @always: there is no such default, a RobotConfig key).
 */
static void save_key(struct save *s, const char *path, int kind, const struct desc_key *ref,
		     int64_t dflt, bool always)
{
	char *live = NULL, *ftype = NULL, *fval = NULL, text[512];
	int r = dcm_sysfs_read(s->sysfs, path, &live);

	if (r == -ENOENT)
		return;		/* not in the running description */
	if (r) {
		desc_errors_add(s->errs, "%s: %s", path, strerror(-r));
		s->failed = true;
		return;
	}
	if (kind < 0)
		kind = robot_kind(path, live);
	s->st->keys++;
	if (!desc_prefs_get(s->doc, path, &ftype, &fval)) {
		if (desc_kind_parse(ftype) == kind && same_value(kind, fval, live))
			goto out;
		s->st->changed++;
	} else if (!always && same_as_key(kind, ref, dflt, live)) {
		goto out;
	} else {
		s->st->added++;
	}
	if (file_text(kind, live, text, sizeof(text)) ||
	    desc_prefs_set(s->doc, path, desc_kind_name(kind), text) < 0) {
		desc_errors_add(s->errs, "%s: cannot save the value '%s'", path, live);
		s->failed = true;
	}
out:
	free(live);
	free(ftype);
	free(fval);
}

/* The type-specific keys of an element that a file may set and @s's target owns. */
static void save_typed(struct save *s, const char *prefix, const char *name, const char *type,
		       bool device, struct desc_key *keys, size_t n_keys)
{
	struct desc_type_key tk[32];
	char path[512];
	int n, i;

	n = desc_kernel_type_keys(type, device, tk, sizeof(tk) / sizeof(tk[0]));
	for (i = 0; i < n && i < (int)(sizeof(tk) / sizeof(tk[0])); i++) {
		if (!tk[i].settable)
			continue;
		snprintf(path, sizeof(path), "%s%s/%s", prefix, name, tk[i].name);
		if (desc_key_owner(path, device ? NULL : type) != s->t)
			continue;
		save_key(s, path, tk[i].kind, desc_find_key(keys, n_keys, tk[i].name), 0, false);
	}
}

int desc_prefs_save(struct desc_prefs *p, enum desc_target t, const struct desc *d0,
		    const struct dcm_sysfs *sysfs, struct desc_save_stats *st,
		    struct desc_errors *errs)
{
	/* Value is the robot's (a reading, the last command): never saved */
	static const char *const std[] = { "Min", "Max", "Gain", "Offset" };
	struct save s = { .t = t, .doc = p, .sysfs = sysfs, .errs = errs, .st = st };
	char path[512], **robot = NULL;
	size_t i, j, n_robot = 0;
	int r;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < d0->n_devices; i++) {
		struct desc_device *dev = &d0->devices[i];

		save_typed(&s, DCM_PREFIX_DEVICE, dev->name, dev->type, true, dev->keys,
			   dev->n_keys);
	}
	for (i = 0; i < d0->n_subdevices; i++) {
		struct desc_subdevice *sub = &d0->subdevices[i];

		for (j = 0; j < sizeof(std) / sizeof(std[0]); j++) {
			snprintf(path, sizeof(path), "%s%s/%s", DCM_PREFIX_SUBDEVICE, sub->name,
				 std[j]);
			if (desc_key_owner(path, sub->type) != t)
				continue;
			save_key(&s, path, LIBDCM_KEY_FLOAT,
				 desc_find_key(sub->keys, sub->n_keys, std[j]),
				 !strcmp(std[j], "Gain") ? LIBDCM_MICRO : 0, false);
		}
		save_typed(&s, DCM_PREFIX_SUBDEVICE, sub->name, sub->type, false, sub->keys,
			   sub->n_keys);
	}
	r = dcm_sysfs_keys(sysfs, DCM_SYSFS_ROBOT, &robot, &n_robot);
	if (r) {
		desc_errors_add(errs, "RobotConfig keys: %s", strerror(-r));
		s.failed = true;
	}
	for (i = 0; i < n_robot; i++) {
		if (desc_key_owner(robot[i], NULL) == t) {
			char *ftype = NULL, *fval = NULL;
			int kind = -1;

			/* the file's Type, when it gives the key */
			if (!desc_prefs_get(p, robot[i], &ftype, &fval))
				kind = desc_kind_parse(ftype);
			free(ftype);
			free(fval);
			save_key(&s, robot[i], kind, NULL, 0, true);
		}
	}
	dcm_sysfs_strv_free(robot, n_robot);
	return s.failed ? -1 : 0;
}

/* ------------------------------------------------------------------
 * add
 */

char *desc_full_key_path(const char *key)
{
	char *p;

	if (!strncmp(key, "Device/", 7) || !strncmp(key, DCM_PREFIX_ROBOTCONFIG,
						     strlen(DCM_PREFIX_ROBOTCONFIG)))
		return strdup(key);
	return asprintf(&p, "%s%s", DCM_PREFIX_SUBDEVICE, key) < 0 ? NULL : p;
}

/* The kind of @path's key from Device.xml and the kernel's types; 0: any (RobotConfig). */
static int key_kind(const struct desc *d0, const char *path, struct desc_type_key *range,
		    struct desc_errors *errs)
{
	static const char *const std[] = { "Value", "Gain", "Offset", "Min", "Max" };
	struct desc_type_key tk[32];
	struct desc_path p;
	const char *type, *name;
	size_t i;
	int n;

	memset(range, 0, sizeof(*range));
	if (desc_resolve_path(d0, path, &p)) {
		desc_errors_add(errs, "%s: not a key path (Device/SubDeviceList/<subdevice>/<key>, "
				"Device/DeviceList/<device>/<key> or RobotConfig/...)", path);
		return -1;
	}
	if (p.robot)
		return 0;
	if (!p.sub && !p.dev) {
		desc_errors_add(errs, "%s: no %s of that name in %s", path,
				strncmp(path, DCM_PREFIX_SUBDEVICE, strlen(DCM_PREFIX_SUBDEVICE)) ?
				"device" : "subdevice", d0->files[0]);
		return -1;
	}
	type = p.sub ? p.sub->type : p.dev->type;
	name = p.sub ? p.sub->name : p.dev->name;
	if (p.sub)
		for (i = 0; i < sizeof(std) / sizeof(std[0]); i++)
			if (!strcmp(p.key, std[i]))
				return LIBDCM_KEY_FLOAT;
	n = desc_kernel_type_keys(type, !p.sub, tk, sizeof(tk) / sizeof(tk[0]));
	for (i = 0; n > 0 && i < (size_t)n && i < sizeof(tk) / sizeof(tk[0]); i++) {
		if (strcmp(tk[i].name, p.key))
			continue;
		if (!tk[i].settable) {
			desc_errors_add(errs, "%s: the robot sets this key, a file does not", path);
			return -1;
		}
		*range = tk[i];
		return tk[i].kind;
	}
	desc_errors_add(errs, "%s: %s (%s %s) has no key %s that a file may set", path, name,
			p.sub ? "subdevice" : "device", type, p.key);
	return -1;
}

int desc_prefs_add_kind(const struct desc *d0, const char *path, enum desc_target t,
			struct desc_type_key *range, struct desc_errors *errs)
{
	enum desc_target owner;
	int kind = key_kind(d0, path, range, errs);

	if (kind < 0)
		return -1;
	owner = desc_path_owner(d0, path);
	if (owner != t) {
		desc_errors_add(errs, "%s belongs to the %s preferences, not to the %s preferences "
				"(dcmctl preferences add %s ...)", path, desc_target_name(owner),
				desc_target_name(t), desc_target_name(owner));
		return -1;
	}
	return kind;
}

static bool value_ok(int kind, const struct desc_type_key *range, const char *value,
		     const char *path, struct desc_errors *errs)
{
	static const char *const what[] = {
		[LIBDCM_KEY_INT] = "an integer",
		[LIBDCM_KEY_FLOAT] = "a decimal number",
		[LIBDCM_KEY_BOOL] = "true, false, 1 or 0",
	};
	const unsigned char *c;
	int64_t v;

	if (kind == LIBDCM_KEY_STRING) {
		for (c = (const unsigned char *)value; *c; c++) {
			if (*c < 0x20 || *c == 0x7f) {
				desc_errors_add(errs, "%s: a string without control characters",
						path);
				return false;
			}
		}
		if (strlen(value) >= LIBDCM_MAX_STRING_LEN) {
			desc_errors_add(errs, "%s: a string of at most %d bytes", path,
					LIBDCM_MAX_STRING_LEN - 1);
			return false;
		}
		return true;
	}
	/* floats as XML Schema's decimal: no exponent */
	if (parse_num(kind, value, &v) ||
	    (kind == LIBDCM_KEY_FLOAT && strpbrk(value, "eE"))) {
		desc_errors_add(errs, "%s: '%s' is not %s (the key is a%s %s)", path, value,
				what[kind], kind == LIBDCM_KEY_INT ? "n" : "",
				desc_kind_name(kind));
		return false;
	}
	if (kind == LIBDCM_KEY_INT && range->ranged && (v < range->min || v > range->max)) {
		desc_errors_add(errs, "%s: %s is outside the key's range, %d to %d", path, value,
				range->min, range->max);
		return false;
	}
	/* a float key's range is in whole units (GearRatio) */
	if (kind == LIBDCM_KEY_FLOAT && range->ranged &&
	    (v < (int64_t)range->min * LIBDCM_MICRO || v > (int64_t)range->max * LIBDCM_MICRO)) {
		desc_errors_add(errs, "%s: %s is outside the key's range, %d to %d", path, value,
				range->min, range->max);
		return false;
	}
	return true;
}

int desc_prefs_add(struct desc_prefs *p, const char *path, int kind,
		   const struct desc_type_key *range, const char *type, const char *value,
		   int *kind_out, struct desc_errors *errs)
{
	char *ftype = NULL, *fval = NULL;
	int r = -1;

	if (kind == 0) {
		/* a RobotConfig key: @type, else the file's, else what the value reads as */
		if (type)
			kind = desc_kind_parse(type);
		else if (!desc_prefs_get(p, path, &ftype, &fval) && desc_kind_parse(ftype) > 0)
			kind = desc_kind_parse(ftype);
		else
			kind = robot_kind(path, value);
	} else if (type && desc_kind_parse(type) != kind) {
		desc_errors_add(errs, "%s is a%s %s, not a%s %s", path,
				kind == LIBDCM_KEY_INT ? "n" : "", desc_kind_name(kind),
				!strcmp(type, "int") ? "n" : "", type);
		goto out;
	}
	if (!value_ok(kind, range, value, path, errs))
		goto out;
	r = desc_prefs_set(p, path, desc_kind_name(kind), value);
	if (r < 0)
		desc_errors_add(errs, "out of memory");
	else
		*kind_out = kind;
out:
	free(ftype);
	free(fval);
	return r < 0 ? -1 : r;
}
