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
 * The files are those dcmd loads for the controller (-d): the robot's
 * directory is /etc/dcm for dcm0 and /etc/dcm/dcmN for dcmN, N > 0.
 *
 * Every file written is checked first (schema, loader, the kernel's own
 * checks in the dry run, with Device.xml) and replaced atomically. The
 * actions themselves are the description library's (desc/actions.c); here
 * are the command line and the output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcmctl.h"

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
		if (a->type && desc_kind_parse(a->type) < 0) {
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
	const struct dcmctl_optspec spec = dcmctl_spec_preferences;
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
			[DCMCTL_OPT_FILE - DCMCTL_OPT_FILE] = &a->file,
			[DCMCTL_OPT_TYPE - DCMCTL_OPT_FILE] = &a->type,
			[DCMCTL_OPT_DEVICE_XML - DCMCTL_OPT_FILE] = &a->paths.device_xml,
			[DCMCTL_OPT_SCHEMAS - DCMCTL_OPT_FILE] = &a->paths.schema_dir,
			[DCMCTL_OPT_ETC - DCMCTL_OPT_FILE] = &a->paths.etc,
			[DCMCTL_OPT_SHARE - DCMCTL_OPT_FILE] = &a->paths.share,
		};

		*opt[c - DCMCTL_OPT_FILE] = g.optarg;
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

int dcmctl_prefs_paths(const struct dcmctl_prefs_args *a, int t, char *from, size_t fromlen,
		       char *to, size_t tolen)
{
	return desc_prefs_paths(&a->paths, a->file, (enum desc_target)t, from, fromlen, to,
				tolen);
}

int dcmctl_prefs_load_files(const struct dcmctl_prefs_args *a, struct desc_files *f)
{
	return desc_prefs_load_files(&a->paths, a->all ? NULL : a->file, a->target, f);
}

/* ------------------------------------------------------------------
 * Messages
 */

static void warn_log(void *arg, int level, const char *msg)
{
	FILE *err = arg;

	if (level <= DESC_LOG_WARNING)
		fprintf(err, "dcmctl: warning: %s\n", msg);
}

/* Print @e's messages, then empty it. */
static void print_errors(FILE *err, struct desc_errors *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		fprintf(err, "dcmctl: %s\n", e->msgs[i]);
	if (e->dropped)
		fprintf(err, "dcmctl: (%zu more errors)\n", e->dropped);
	desc_errors_free(e);
}

/* Device.xml alone: its elements, their types and values. NULL: reported. */
static struct desc *load_device_xml(const struct desc_files *f, FILE *err)
{
	struct desc_errors errs;
	struct desc *d;

	desc_errors_init(&errs);
	desc_load_device_xml(f, warn_log, err, &d, &errs);
	print_errors(err, &errs);
	return d;
}

static int write_prefs(struct desc_prefs *p, const char *path, enum desc_target t,
		       const struct desc_files *f, FILE *err)
{
	struct desc_errors errs;
	int r;

	desc_errors_init(&errs);
	r = desc_prefs_write_checked(p, path, t, f, warn_log, err, &errs);
	print_errors(err, &errs);
	return r;
}

/* ------------------------------------------------------------------
 * save
 */

struct report {
	const struct dcmctl_opts *o;
	struct json_writer w;
	FILE *out;
};

static int save_target(const struct dcmctl_prefs_args *a, enum desc_target t,
		       const struct desc_files *f, const struct desc *d0,
		       const struct dcm_sysfs *sysfs, struct report *rep, FILE *err)
{
	struct desc_save_stats st;
	struct desc_prefs *doc;
	struct desc_errors errs;
	char from[4096], to[4096];
	int r;

	if (dcmctl_prefs_paths(a, t, from, sizeof(from), to, sizeof(to))) {
		fprintf(err, "dcmctl: preferences save %s: a file name is too long\n",
			desc_target_name(t));
		return -1;
	}
	desc_errors_init(&errs);
	r = desc_prefs_open(from[0] ? from : NULL, t, &doc, &errs);
	if (!r)
		r = desc_prefs_save(doc, t, d0, sysfs, &st, &errs);
	print_errors(err, &errs);
	if (r) {
		fprintf(err, "dcmctl: %s not saved\n", to);
		desc_prefs_free(doc);
		return -1;
	}
	r = write_prefs(doc, to, t, f, err);
	if (!r) {
		size_t n = desc_prefs_count(doc);

		if (rep->o->json) {
			json_begin_object(&rep->w, NULL);
			json_string(&rep->w, "target", desc_target_name(t));
			json_string(&rep->w, "file", to);
			if (from[0])
				json_string(&rep->w, "from", from);
			else
				json_null(&rep->w, "from");
			json_uint(&rep->w, "keys", n);
			json_uint(&rep->w, "live", st.keys);
			json_uint(&rep->w, "changed", st.changed);
			json_uint(&rep->w, "added", st.added);
			json_end_object(&rep->w);
		} else {
			fprintf(rep->out, "%s: %s: %zu key%s (%u changed, %u added; from %s)\n",
				desc_target_name(t), to, n, n == 1 ? "" : "s", st.changed,
				st.added, from[0] ? from : "no file");
		}
	}
	desc_prefs_free(doc);
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
		if (save_target(a, t, f, d0, sysfs, rep, err))
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
	desc_opts_init(&opts, f, warn_log, err);
	if (a->file && !a->all)
		opts.target_hint[a->target] = "--file";
	desc_opts_files_text(&opts, files, sizeof(files));
	desc_errors_init(&errs);
	if (desc_load(&opts, &d, &errs)) {
		size_t n = errs.n + errs.dropped;

		print_errors(err, &errs);
		fprintf(err, "dcmctl: description %s not loaded: %zu error%s\n", files, n,
			n == 1 ? "" : "s");
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

/*
 * The RobotConfig keys under Body/Device and Head/Device that seed 000
 * names (preferences.rng takes only these): read by the Part rules, so a
 * misspelled one would be a key nothing reads.
 */
static char *const robot_device_keys[] = {
	"RobotConfig/Body/Device/LeftArm/Version",
	"RobotConfig/Body/Device/RightArm/Version",
	"RobotConfig/Body/Device/Hand/Left/Version",
	"RobotConfig/Body/Device/Hand/Right/Version",
	"RobotConfig/Body/Device/Legs/Version",
	"RobotConfig/Body/Device/Foot/Left/Version",
	"RobotConfig/Body/Device/Foot/Right/Version",
	"RobotConfig/Body/Device/FSR/Calibration/Version",
	"RobotConfig/Body/Device/Joints/Calibration/Version",
	"RobotConfig/Head/Device/TouchBoard/Version",
	"RobotConfig/Head/Device/FaceBoard/Leds/Rotation",
	"RobotConfig/Head/Device/LaserRangeFinder/Version",
	"RobotConfig/Head/Device/Camera/Version",
};

#define N_ROBOT_DEVICE_KEYS (sizeof(robot_device_keys) / sizeof(robot_device_keys[0]))

int dcmctl_prefs_known_robot_key(const char *path, FILE *err)
{
	char sugg[3][DCMCTL_KEY_LEN];
	size_t i;

	if (strncmp(path, "RobotConfig/Body/Device/", 24) &&
	    strncmp(path, "RobotConfig/Head/Device/", 24))
		return 0;
	for (i = 0; i < N_ROBOT_DEVICE_KEYS; i++)
		if (!strcmp(path, robot_device_keys[i]))
			return 0;
	fprintf(err, "dcmctl: preferences add: %s: no such key in the description's schema (under RobotConfig/Body/Device/ and RobotConfig/Head/Device/ it knows the Version keys of seed 000 and FaceBoard/Leds/Rotation)\n",
		path);
	dcmctl_print_suggestions(err, sugg, dcmctl_suggest(robot_device_keys, N_ROBOT_DEVICE_KEYS,
							   path, sugg, 3));
	return -EINVAL;
}

static int do_add(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		  struct report *rep, FILE *err)
{
	enum desc_target t = (enum desc_target)a->target;
	struct desc_prefs *doc = NULL;
	struct desc_errors errs;
	struct desc_type_key range;
	struct desc_files *f;
	struct desc *d0 = NULL;
	char from[4096], to[4096], *path;
	int kind, r, ret = DCMCTL_EXIT_FAIL;

	(void)o;
	desc_errors_init(&errs);
	path = desc_full_key_path(a->key);
	f = malloc(sizeof(*f));
	if (!path || !f || dcmctl_prefs_load_files(a, f) ||
	    dcmctl_prefs_paths(a, t, from, sizeof(from), to, sizeof(to))) {
		fprintf(err, "dcmctl: preferences add: %s\n", path && f ? "a file name is too long" :
			"out of memory");
		goto out;
	}
	if (dcmctl_prefs_known_robot_key(path, err))
		goto out;
	d0 = load_device_xml(f, err);
	if (!d0)
		goto out;
	kind = desc_prefs_add_kind(d0, path, t, &range, &errs);
	if (kind < 0)
		goto out;
	r = desc_prefs_open(from[0] ? from : NULL, t, &doc, &errs);
	print_errors(err, &errs);
	if (r)
		goto out;
	r = desc_prefs_add(doc, path, kind, &range, a->type, a->value, &kind, &errs);
	if (r < 0)
		goto out;
	if (write_prefs(doc, to, t, f, err))
		goto out;
	if (rep->o->json) {
		json_string(&rep->w, "target", desc_target_name(t));
		json_string(&rep->w, "file", to);
		json_string(&rep->w, "key", path);
		json_string(&rep->w, "type", desc_kind_name(kind));
		if (kind == LIBDCM_KEY_STRING)
			json_string(&rep->w, "value", a->value);
		else if (kind == LIBDCM_KEY_BOOL)
			json_bool(&rep->w, "value", !strcasecmp(a->value, "true") ||
				  !strcmp(a->value, "1"));
		else
			dcmctl_json_value(&rep->w, "value", a->value);
		json_bool(&rep->w, "added", r == 1);
	} else {
		fprintf(rep->out, "%s: %s: %s = %s (%s)\n", desc_target_name(t), to, path, a->value,
			r == 1 ? "added" : "replaced");
	}
	ret = DCMCTL_EXIT_OK;
out:
	print_errors(err, &errs);
	desc_prefs_free(doc);
	desc_free(d0);
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
	char why[256], etc[256], *buf = NULL;
	size_t len = 0;
	FILE *jf = NULL;
	int ret;

	if (dcmctl_parse_prefs(o->argc, o->argv, &a, why, sizeof(why))) {
		fprintf(err, "dcmctl: %s\n", why);
		return DCMCTL_EXIT_USAGE;
	}
	/* dcmd's files for that controller: /etc/dcm/dcmN for N > 0 */
	if (!a.paths.etc && o->dev_index > 0) {
		if (desc_etc_dir((unsigned int)o->dev_index, etc, sizeof(etc))) {
			fprintf(err, "dcmctl: preferences: a file name is too long\n");
			return DCMCTL_EXIT_FAIL;
		}
		a.paths.etc = etc;
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
