// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl preferences: NAOqi's preferences(action, target, key, value), on
 * the preference files of the robot description (desc/, and
 * Documentation/dcm/device-xml.rst): the actions Save, Load and Add, the
 * targets Main, Chest, Head and All.
 *
 *   save: write the target's file with the running description's values,
 *         read from sysfs, of the keys the target owns;
 *   load: load the description again from the files and commit it to the
 *         kernel as one transaction, as dcmd does (needs CAP_NET_ADMIN);
 *   add:  set one key in the target's file; the kernel is not touched.
 *
 * Every file written is checked first (schema, loader, the kernel's own
 * checks in the dry run, with Device.xml) and replaced atomically.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "dcmctl.h"

#define PREFIX_SUB	DCM_SYSFS_PREFIX_SUB
#define PREFIX_DEV	DCM_SYSFS_PREFIX_DEV
#define PREFIX_ROBOT	DCM_SYSFS_PREFIX_ROBOT

static const char *const kind_names[] = {
	[LIBDCM_KEY_INT] = "int",
	[LIBDCM_KEY_FLOAT] = "float",
	[LIBDCM_KEY_BOOL] = "bool",
	[LIBDCM_KEY_STRING] = "string",
};

static int kind_parse(const char *s)
{
	int k;

	for (k = LIBDCM_KEY_INT; k <= LIBDCM_KEY_STRING; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

static const char *const action_names[] = {
	[DCMCTL_PREFS_SAVE] = "save",
	[DCMCTL_PREFS_LOAD] = "load",
	[DCMCTL_PREFS_ADD] = "add",
};

/* ------------------------------------------------------------------
 * Command line
 */

/* The arguments (@pos) of a command line whose options are read. */
static int check_prefs_args(struct dcmctl_prefs_args *a, const char **pos, size_t n_pos,
			    char *err, size_t errlen)
{
	int t;

	if (!n_pos) {
		snprintf(err, errlen, "preferences: which action? (save, load or add)");
		return -EINVAL;
	}
	for (t = 0; t < 3; t++)
		if (!strcasecmp(pos[0], action_names[t]))
			break;
	if (t == 3) {
		snprintf(err, errlen, "preferences: unknown action '%s' (save, load or add)", pos[0]);
		return -EINVAL;
	}
	a->action = (enum dcmctl_prefs_action)t;
	if (n_pos < 2) {
		snprintf(err, errlen, "preferences %s: which target? (Main, Chest, Head%s)",
			 action_names[a->action], a->action == DCMCTL_PREFS_ADD ? "" : " or All");
		return -EINVAL;
	}
	a->all = !strcasecmp(pos[1], "All");
	a->target = a->all ? -1 : desc_target_parse(pos[1]);
	if (!a->all && a->target < 0) {
		snprintf(err, errlen, "preferences: unknown target '%s' (Main, Chest, Head or All)",
			 pos[1]);
		return -EINVAL;
	}
	if (a->action == DCMCTL_PREFS_ADD) {
		if (a->all) {
			snprintf(err, errlen, "preferences add: one target: Main, Chest or Head");
			return -EINVAL;
		}
		if (n_pos != 4) {
			snprintf(err, errlen, n_pos < 4 ?
				 "preferences add: KEY and VALUE? (dcmctl preferences add TARGET KEY VALUE)" :
				 "preferences add: unexpected argument '%s'", pos[n_pos < 4 ? 0 : 4]);
			return -EINVAL;
		}
		a->key = pos[2];
		a->value = pos[3];
		if (!*a->key) {
			snprintf(err, errlen, "preferences add: empty key");
			return -EINVAL;
		}
		if (a->type && kind_parse(a->type) < 0) {
			snprintf(err, errlen, "preferences add: unknown type '%s' (int, float, bool or string)",
				 a->type);
			return -EINVAL;
		}
	} else {
		if (n_pos > 2) {
			snprintf(err, errlen, "preferences %s: unexpected argument '%s'",
				 action_names[a->action], pos[2]);
			return -EINVAL;
		}
		if (a->type) {
			snprintf(err, errlen, "preferences %s: --type goes with add",
				 action_names[a->action]);
			return -EINVAL;
		}
	}
	if (a->all && a->file) {
		snprintf(err, errlen, "preferences %s: --file names one target's file, not All's",
			 action_names[a->action]);
		return -EINVAL;
	}
	return 0;
}

int dcmctl_parse_prefs(int argc, char **argv, struct dcmctl_prefs_args *a, char *err,
		       size_t errlen)
{
	enum { OPT_FILE = 0x100, OPT_TYPE, OPT_DEVICE_XML, OPT_SCHEMAS, OPT_ETC, OPT_SHARE };
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, OPT_FILE },
		{ "type", required_argument, NULL, OPT_TYPE },
		{ "device-xml", required_argument, NULL, OPT_DEVICE_XML },
		{ "schemas", required_argument, NULL, OPT_SCHEMAS },
		{ "etc", required_argument, NULL, OPT_ETC },
		{ "share", required_argument, NULL, OPT_SHARE },
		{ NULL, 0, NULL, 0 }
	};
	/* "-x" is a value (add Main KEY -1), not an option */
	static const struct dcmctl_optspec spec = {
		.cmd = "preferences", .longopts = longopts, .long_only = true,
		.no_empty = true, .prefix_missing = true,
	};
	struct dcmctl_getopt g;
	const char **pos;
	size_t n_pos;
	int c, r = -EINVAL;

	memset(a, 0, sizeof(*a));
	if (dcmctl_getopt_init(&g, &spec, argc, argv)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		const char **opt[] = {
			[OPT_FILE - OPT_FILE] = &a->file,
			[OPT_TYPE - OPT_FILE] = &a->type,
			[OPT_DEVICE_XML - OPT_FILE] = &a->paths.device_xml,
			[OPT_SCHEMAS - OPT_FILE] = &a->paths.schema_dir,
			[OPT_ETC - OPT_FILE] = &a->paths.etc,
			[OPT_SHARE - OPT_FILE] = &a->paths.share,
		};

		*opt[c - OPT_FILE] = g.optarg;
	}
	if (c < 0)
		goto out;
	pos = (const char **)g.args;
	n_pos = (size_t)g.n_args;
	r = check_prefs_args(a, pos, n_pos, err, errlen);
out:
	dcmctl_getopt_free(&g);
	return r;
}

static int copy(char *dst, size_t len, const char *src)
{
	int n = snprintf(dst, len, "%s", src);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int dcmctl_prefs_paths(const struct dcmctl_prefs_args *a, int t, char *from, size_t fromlen,
		       char *to, size_t tolen)
{
	struct desc_files *f;
	int r;

	from[0] = '\0';
	if (a->file) {
		/* --file: that file, read if it is there, else started anew */
		if (!access(a->file, F_OK))
			r = copy(from, fromlen, a->file);
		else
			r = 0;
		return r ? r : copy(to, tolen, a->file);
	}
	f = malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	r = desc_resolve_files(&a->paths, f);
	if (!r)
		r = copy(from, fromlen, f->prefs[t]);
	free(f);
	if (!r)
		r = desc_default_pref_path(a->paths.etc, (enum desc_target)t, to, tolen);
	return r;
}

int dcmctl_prefs_load_files(const struct dcmctl_prefs_args *a, struct desc_files *f)
{
	struct desc_paths p = a->paths;

	if (a->file && !a->all)
		p.prefs[a->target] = a->file;
	return desc_resolve_files(&p, f);
}

/* ------------------------------------------------------------------
 * Loading (for the checks, save, add and load)
 */

struct log_ctx {
	FILE *err;
};

static void warn_log(void *arg, int level, const char *msg)
{
	struct log_ctx *c = arg;

	if (level <= DESC_LOG_WARNING)
		fprintf(c->err, "dcmctl: warning: %s\n", msg);
}

static void set_opts(struct desc_opts *o, const struct desc_files *f, struct log_ctx *lc)
{
	memset(o, 0, sizeof(*o));
	desc_opts_set_files(o, f);
	o->device_type_ok = desc_kernel_device_type_ok;
	o->subdevice_type_ok = desc_kernel_subdevice_type_ok;
	o->log = warn_log;
	o->log_arg = lc;
}

static void print_errors(FILE *err, const struct desc_errors *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		fprintf(err, "dcmctl: %s\n", e->msgs[i]);
	if (e->dropped)
		fprintf(err, "dcmctl: (%zu more errors)\n", e->dropped);
}

/* Device.xml alone: its elements, their types and values. NULL: reported. */
static struct desc *load_device_xml(const struct desc_files *f, FILE *err)
{
	struct log_ctx lc = { err };
	struct desc_errors errs;
	struct desc_files only = *f;
	struct desc_opts o;
	struct desc *d;
	int t;

	for (t = 0; t < DESC_N_TARGETS; t++)
		only.prefs[t][0] = '\0';
	set_opts(&o, &only, &lc);
	desc_errors_init(&errs);
	if (desc_load(&o, &d, &errs)) {
		print_errors(err, &errs);
		fprintf(err, "dcmctl: %s does not load\n", f->device_xml);
		d = NULL;
	}
	desc_errors_free(&errs);
	return d;
}

/* What a written file must pass: Device.xml and it alone load, and the dry run takes them. */
struct check_ctx {
	const struct desc_files *f;
	enum desc_target t;
	FILE *err;
};

static int check_file(const char *tmp, void *arg, struct desc_errors *errs)
{
	struct check_ctx *c = arg;
	struct log_ctx lc = { c->err };
	struct desc_dry_sink *dry;
	struct desc_files *only;
	struct desc_opts o;
	struct desc *d;
	char why[1024];
	int t, r;

	only = malloc(sizeof(*only));
	if (!only) {
		desc_errors_add(errs, "%s: out of memory", tmp);
		return -1;
	}
	*only = *c->f;
	for (t = 0; t < DESC_N_TARGETS; t++)
		only->prefs[t][0] = '\0';
	snprintf(only->prefs[c->t], sizeof(only->prefs[c->t]), "%s", tmp);
	set_opts(&o, only, &lc);
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

static int write_prefs(struct desc_prefs *p, const char *path, enum desc_target t,
		       const struct desc_files *f, FILE *err)
{
	struct check_ctx c = { f, t, err };
	const char *base = strrchr(path, '/');
	struct desc_errors errs;
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
		fprintf(err, "dcmctl: %s: %s\n", path,
			r == -ENOMEM ? "out of memory" : "cannot write its header comment");
		return -1;
	}
	desc_errors_init(&errs);
	r = desc_prefs_write(p, path, check_file, &c, &errs);
	if (r) {
		print_errors(err, &errs);
		fprintf(err, "dcmctl: %s not written\n", path);
	}
	desc_errors_free(&errs);
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
		desc_format_fixed(v, buf, len);
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
	FILE *err;
	unsigned int keys;	/* this target's keys in the running description */
	unsigned int changed;	/* in the file, with another value now */
	unsigned int added;	/* not in the file, differing from Device.xml's */
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
		fprintf(s->err, "dcmctl: %s: %s\n", path, strerror(-r));
		s->failed = true;
		return;
	}
	if (kind < 0)
		kind = robot_kind(path, live);
	s->keys++;
	if (!desc_prefs_get(s->doc, path, &ftype, &fval)) {
		if (kind_parse(ftype) == kind && same_value(kind, fval, live))
			goto out;
		s->changed++;
	} else if (!always && same_as_key(kind, ref, dflt, live)) {
		goto out;
	} else {
		s->added++;
	}
	if (file_text(kind, live, text, sizeof(text)) ||
	    desc_prefs_set(s->doc, path, kind_names[kind], text) < 0) {
		fprintf(s->err, "dcmctl: %s: cannot save the value '%s'\n", path, live);
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

static void save_keys(struct save *s, const struct desc *d0)
{
	/* Value is the robot's (a reading, the last command): never saved */
	static const char *const std[] = { "Min", "Max", "Gain", "Offset" };
	char path[512], **robot = NULL;
	size_t i, j, n_robot = 0;
	int r;

	for (i = 0; i < d0->n_devices; i++) {
		struct desc_device *dev = &d0->devices[i];

		save_typed(s, PREFIX_DEV, dev->name, dev->type, true, dev->keys, dev->n_keys);
	}
	for (i = 0; i < d0->n_subdevices; i++) {
		struct desc_subdevice *sub = &d0->subdevices[i];

		for (j = 0; j < sizeof(std) / sizeof(std[0]); j++) {
			snprintf(path, sizeof(path), "%s%s/%s", PREFIX_SUB, sub->name, std[j]);
			if (desc_key_owner(path, sub->type) != s->t)
				continue;
			save_key(s, path, LIBDCM_KEY_FLOAT,
				 desc_find_key(sub->keys, sub->n_keys, std[j]),
				 !strcmp(std[j], "Gain") ? 1000000 : 0, false);
		}
		save_typed(s, PREFIX_SUB, sub->name, sub->type, false, sub->keys, sub->n_keys);
	}
	r = dcm_sysfs_keys(s->sysfs, DCM_SYSFS_ROBOT, &robot, &n_robot);
	if (r) {
		fprintf(s->err, "dcmctl: RobotConfig keys: %s\n", strerror(-r));
		s->failed = true;
	}
	for (i = 0; i < n_robot; i++) {
		if (desc_key_owner(robot[i], NULL) == s->t) {
			char *ftype = NULL, *fval = NULL;
			int kind = -1;

			/* the file's Type, when it gives the key */
			if (!desc_prefs_get(s->doc, robot[i], &ftype, &fval))
				kind = kind_parse(ftype);
			free(ftype);
			free(fval);
			save_key(s, robot[i], kind, NULL, 0, true);
		}
	}
	dcm_sysfs_strv_free(robot, n_robot);
}

struct report {
	const struct dcmctl_opts *o;
	struct json_writer w;
	FILE *out;
};

static int save_target(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		       enum desc_target t, const struct desc_files *f, const struct desc *d0,
		       const struct dcm_sysfs *sysfs, struct report *rep, FILE *err)
{
	struct save s = { .t = t, .sysfs = sysfs, .err = err };
	char from[4096], to[4096];
	struct desc_errors errs;
	int r;

	(void)o;
	if (dcmctl_prefs_paths(a, t, from, sizeof(from), to, sizeof(to))) {
		fprintf(err, "dcmctl: preferences save %s: a file name is too long\n",
			desc_target_name(t));
		return -1;
	}
	desc_errors_init(&errs);
	r = desc_prefs_open(from[0] ? from : NULL, t, &s.doc, &errs);
	if (r) {
		print_errors(err, &errs);
		desc_errors_free(&errs);
		fprintf(err, "dcmctl: %s not saved\n", to);
		return -1;
	}
	desc_errors_free(&errs);
	save_keys(&s, d0);
	if (s.failed) {
		fprintf(err, "dcmctl: %s not saved\n", to);
		desc_prefs_free(s.doc);
		return -1;
	}
	r = write_prefs(s.doc, to, t, f, err);
	if (!r) {
		if (rep->o->json) {
			json_begin_object(&rep->w, NULL);
			json_string(&rep->w, "target", desc_target_name(t));
			json_string(&rep->w, "file", to);
			if (from[0])
				json_string(&rep->w, "from", from);
			else
				json_null(&rep->w, "from");
			json_uint(&rep->w, "keys", desc_prefs_count(s.doc));
			json_uint(&rep->w, "live", s.keys);
			json_uint(&rep->w, "changed", s.changed);
			json_uint(&rep->w, "added", s.added);
			json_end_object(&rep->w);
		} else {
			size_t n = desc_prefs_count(s.doc);

			fprintf(rep->out, "%s: %s: %zu key%s (%u changed, %u added; from %s)\n",
				desc_target_name(t), to, n, n == 1 ? "" : "s", s.changed,
				s.added, from[0] ? from : "no file");
		}
	}
	desc_prefs_free(s.doc);
	return r;
}

static int do_save(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		   struct report *rep, FILE *err)
{
	struct dcm_sysfs *sysfs = NULL;
	struct desc_files *f;
	struct desc *d0 = NULL;
	int ret = DCMCTL_EXIT_FAIL, t;
	bool failed = false;

	f = malloc(sizeof(*f));
	if (!f || dcmctl_prefs_load_files(a, f)) {
		fprintf(err, "dcmctl: preferences save: %s\n", f ? "a file name is too long" :
			"out of memory");
		goto out;
	}
	d0 = load_device_xml(f, err);
	if (!d0)
		goto out;
	sysfs = dcmctl_open_sysfs(o, err);
	if (!sysfs)
		goto out;
	if (o->json)
		json_begin_array(&rep->w, "saved");
	for (t = 0; t < DESC_N_TARGETS; t++) {
		if (!a->all && t != a->target)
			continue;
		if (save_target(o, a, t, f, d0, sysfs, rep, err))
			failed = true;
	}
	if (o->json)
		json_end_array(&rep->w);
	ret = failed ? DCMCTL_EXIT_FAIL : DCMCTL_EXIT_OK;
out:
	dcm_sysfs_close(sysfs);
	desc_free(d0);
	free(f);
	return ret;
}

/* ------------------------------------------------------------------
 * load
 */

static int do_load(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		   struct report *rep, FILE *err)
{
	struct log_ctx lc = { err };
	struct desc_push_stats st;
	struct desc_nl_sink nls;
	struct desc_errors errs;
	struct desc_files *f;
	struct dcm_info info;
	struct desc_opts opts;
	struct desc *d = NULL;
	char files[2048], why[1024];
	int r, ret = DCMCTL_EXIT_FAIL;

	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: cannot tell the controller index of '%s': use -d dcmN\n",
			o->device);
		return DCMCTL_EXIT_FAIL;
	}
	f = malloc(sizeof(*f));
	if (!f || dcmctl_prefs_load_files(a, f)) {
		fprintf(err, "dcmctl: preferences load: %s\n", f ? "a file name is too long" :
			"out of memory");
		free(f);
		return DCMCTL_EXIT_FAIL;
	}
	set_opts(&opts, f, &lc);
	if (a->file && !a->all)
		opts.target_hint[a->target] = "--file";
	desc_opts_files_text(&opts, files, sizeof(files));
	desc_errors_init(&errs);
	if (desc_load(&opts, &d, &errs)) {
		print_errors(err, &errs);
		fprintf(err, "dcmctl: description %s not loaded: %zu error%s\n", files,
			errs.n + errs.dropped, errs.n + errs.dropped == 1 ? "" : "s");
		desc_errors_free(&errs);
		goto out;
	}
	desc_errors_free(&errs);

	r = dcm_nl_open(&nls.nl);
	if (r) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		goto out;
	}
	nls.index = (unsigned int)o->dev_index;
	r = dcm_nl_get_info(nls.nl, nls.index, &info);
	if (r) {
		fprintf(err, "dcmctl: controller %u: %s\n", nls.index, dcm_last_error());
	} else if (info.abi_major != LIBDCM_ABI_MAJOR) {
		fprintf(err, "dcmctl: controller %s speaks ABI %u.%u, dcmctl speaks %u.x\n",
			info.name, info.abi_major, info.abi_minor, LIBDCM_ABI_MAJOR);
	} else if (desc_push(d, &desc_nl_sink_ops, &nls, &st, why, sizeof(why))) {
		fprintf(err, "dcmctl: %s\n", why);
		fprintf(err, "dcmctl: description %s refused by the kernel: the running description is unchanged\n",
			files);
	} else {
		if (o->json) {
			json_string(&rep->w, "loaded", files);
			json_string(&rep->w, "controller", info.name);
			json_uint(&rep->w, "devices", st.counts.n_devices);
			json_uint(&rep->w, "subdevices", st.counts.n_subdevices);
			json_uint(&rep->w, "robot_keys", st.counts.n_keys);
			json_uint(&rep->w, "steps", st.steps);
		} else {
			fprintf(rep->out,
				"description %s loaded into %s: %u devices, %u subdevices, %u RobotConfig keys\n",
				files, info.name, st.counts.n_devices, st.counts.n_subdevices,
				st.counts.n_keys);
		}
		ret = DCMCTL_EXIT_OK;
	}
	dcm_nl_close(nls.nl);
out:
	desc_free(d);
	free(f);
	return ret;
}

/* ------------------------------------------------------------------
 * add
 */

/* The full path of a key as dcmctl get takes it: without a prefix, a subdevice's. */
static char *full_path(const char *key)
{
	char *p;

	if (!strncmp(key, "Device/", 7) || !strncmp(key, PREFIX_ROBOT, strlen(PREFIX_ROBOT)))
		return strdup(key);
	return asprintf(&p, "%s%s", PREFIX_SUB, key) < 0 ? NULL : p;
}

/*
 * The kind of @path's key, from Device.xml and the kernel's types. Return
 * the kind, or -1 with why on @err; for a RobotConfig key 0: any kind.
 */
static int key_kind(const struct desc *d0, const char *path, struct desc_type_key *range,
		    FILE *err)
{
	static const char *const std[] = { "Value", "Gain", "Offset", "Min", "Max" };
	struct desc_type_key tk[32];
	struct desc_path p;
	const char *type, *name;
	size_t i;
	int n;

	memset(range, 0, sizeof(*range));
	if (desc_resolve_path(d0, path, &p)) {
		fprintf(err, "dcmctl: %s: not a key path (Device/SubDeviceList/<subdevice>/<key>, "
			"Device/DeviceList/<device>/<key> or RobotConfig/...)\n", path);
		return -1;
	}
	if (p.robot)
		return 0;
	if (!p.sub && !p.dev) {
		fprintf(err, "dcmctl: %s: no %s of that name in %s\n", path,
			strncmp(path, PREFIX_SUB, strlen(PREFIX_SUB)) ? "device" : "subdevice",
			d0->files[0]);
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
			fprintf(err, "dcmctl: %s: the robot sets this key, a file does not\n", path);
			return -1;
		}
		*range = tk[i];
		return tk[i].kind;
	}
	fprintf(err, "dcmctl: %s: %s (%s %s) has no key %s that a file may set\n", path, name,
		p.sub ? "subdevice" : "device", type, p.key);
	return -1;
}

static bool value_ok(int kind, const struct desc_type_key *range, const char *value,
		     const char *path, FILE *err)
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
				fprintf(err, "dcmctl: %s: a string without control characters\n", path);
				return false;
			}
		}
		if (strlen(value) >= LIBDCM_MAX_STRING_LEN) {
			fprintf(err, "dcmctl: %s: a string of at most %d bytes\n", path,
				LIBDCM_MAX_STRING_LEN - 1);
			return false;
		}
		return true;
	}
	/* floats as XML Schema's decimal: no exponent */
	if (parse_num(kind, value, &v) ||
	    (kind == LIBDCM_KEY_FLOAT && strpbrk(value, "eE"))) {
		fprintf(err, "dcmctl: %s: '%s' is not %s (the key is a%s %s)\n", path, value,
			what[kind], kind == LIBDCM_KEY_INT ? "n" : "", kind_names[kind]);
		return false;
	}
	if (kind == LIBDCM_KEY_INT && range->ranged && (v < range->min || v > range->max)) {
		fprintf(err, "dcmctl: %s: %s is outside the key's range, %d to %d\n", path, value,
			range->min, range->max);
		return false;
	}
	return true;
}

static int do_add(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		  struct report *rep, FILE *err)
{
	enum desc_target t = (enum desc_target)a->target, owner;
	struct desc_prefs *doc = NULL;
	struct desc_errors errs;
	struct desc_type_key range;
	struct desc_files *f;
	struct desc *d0 = NULL;
	char from[4096], to[4096], *path, *ftype = NULL, *fval = NULL;
	int kind, r, ret = DCMCTL_EXIT_FAIL;

	(void)o;
	path = full_path(a->key);
	f = malloc(sizeof(*f));
	if (!path || !f || dcmctl_prefs_load_files(a, f) ||
	    dcmctl_prefs_paths(a, t, from, sizeof(from), to, sizeof(to))) {
		fprintf(err, "dcmctl: preferences add: %s\n", path && f ? "a file name is too long" :
			"out of memory");
		goto out;
	}
	d0 = load_device_xml(f, err);
	if (!d0)
		goto out;
	kind = key_kind(d0, path, &range, err);
	if (kind < 0)
		goto out;
	owner = desc_path_owner(d0, path);
	if (owner != t) {
		fprintf(err, "dcmctl: %s belongs to the %s preferences, not to the %s preferences "
			"(dcmctl preferences add %s ...)\n", path, desc_target_name(owner),
			desc_target_name(t), desc_target_name(owner));
		goto out;
	}
	desc_errors_init(&errs);
	r = desc_prefs_open(from[0] ? from : NULL, t, &doc, &errs);
	print_errors(err, &errs);
	desc_errors_free(&errs);
	if (r)
		goto out;
	if (kind == 0) {
		/* a RobotConfig key: --type, else the file's, else what the value reads as */
		if (a->type)
			kind = kind_parse(a->type);
		else if (!desc_prefs_get(doc, path, &ftype, &fval) && kind_parse(ftype) > 0)
			kind = kind_parse(ftype);
		else
			kind = robot_kind(path, a->value);
	} else if (a->type && kind_parse(a->type) != kind) {
		fprintf(err, "dcmctl: %s is a%s %s, not a%s %s\n", path,
			kind == LIBDCM_KEY_INT ? "n" : "", kind_names[kind],
			!strcmp(a->type, "int") ? "n" : "", a->type);
		goto out;
	}
	if (!value_ok(kind, &range, a->value, path, err))
		goto out;
	r = desc_prefs_set(doc, path, kind_names[kind], a->value);
	if (r < 0) {
		fprintf(err, "dcmctl: %s: out of memory\n", to);
		goto out;
	}
	if (write_prefs(doc, to, t, f, err))
		goto out;
	if (rep->o->json) {
		json_string(&rep->w, "target", desc_target_name(t));
		json_string(&rep->w, "file", to);
		json_string(&rep->w, "key", path);
		json_string(&rep->w, "type", kind_names[kind]);
		json_string(&rep->w, "value", a->value);
		json_bool(&rep->w, "added", r == 1);
	} else {
		fprintf(rep->out, "%s: %s: %s = %s (%s)\n", desc_target_name(t), to, path, a->value,
			r == 1 ? "added" : "replaced");
	}
	ret = DCMCTL_EXIT_OK;
out:
	desc_prefs_free(doc);
	desc_free(d0);
	free(ftype);
	free(fval);
	free(path);
	free(f);
	return ret;
}

/* ------------------------------------------------------------------
 * The command
 */

int dcmctl_preferences(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcmctl_prefs_args a;
	struct report rep = { .o = o, .out = out };
	char why[256], *buf = NULL;
	size_t len = 0;
	FILE *jf = NULL;
	int ret;

	if (dcmctl_parse_prefs(o->argc, o->argv, &a, why, sizeof(why))) {
		fprintf(err, "dcmctl: %s\n", why);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->json) {
		/* kept until the end: on a failure stdout gets nothing */
		jf = open_memstream(&buf, &len);
		if (!jf) {
			fprintf(err, "dcmctl: out of memory\n");
			return DCMCTL_EXIT_FAIL;
		}
		json_init(&rep.w, jf, o->pretty);
		json_begin_object(&rep.w, NULL);
		json_string(&rep.w, "action", action_names[a.action]);
	}
	switch (a.action) {
	case DCMCTL_PREFS_SAVE:
		ret = do_save(o, &a, &rep, err);
		break;
	case DCMCTL_PREFS_LOAD:
		ret = do_load(o, &a, &rep, err);
		break;
	default:
		ret = do_add(o, &a, &rep, err);
		break;
	}
	if (o->json) {
		json_end_object(&rep.w);
		json_finish(&rep.w);
		fclose(jf);
		if (ret == DCMCTL_EXIT_OK)
			fwrite(buf, 1, len, out);
		free(buf);
	}
	fflush(out);
	fflush(err);
	return ret;
}

int dcmctl_cmd_preferences(const struct dcmctl_opts *o)
{
	return dcmctl_preferences(o, stdout, stderr);
}
