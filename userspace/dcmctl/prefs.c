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
 * actions themselves are libdcm's (dcm_prefs_save(), dcm_prefs_load(),
 * dcm_prefs_add()); here are the command line and the output.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "desc.h"
#include "json.h"
#include "libdcm-desc.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "keyname.h"
#include "prefs.h"

static const struct optdef preferences_opts[] = {
	{ "file", 0, DCMCTL_OPT_FILE, "FILE", "the target's file (default: dcmd's)" },
	{ "type", 0, DCMCTL_OPT_TYPE, "TYPE", "add: int, float, bool or string (default: the key's)" },
	{ "device-xml", 0, DCMCTL_OPT_DEVICE_XML, "FILE", "the robot description (default: dcmd's)" },
	{ "schemas", 0, DCMCTL_OPT_SCHEMAS, "DIR", "where device.rng and preferences.rng are" },
	{ "etc", 0, DCMCTL_OPT_ETC, "DIR", "the robot's preference directory (default /etc/dcm)" },
	{ "share", 0, DCMCTL_OPT_SHARE, "DIR", "the shipped files' directory" },
	{ NULL, 0, 0, NULL, NULL }
};

/* "-x" is a value (add Main KEY -1), not an option */
static const struct dcmctl_optspec dcmctl_spec_preferences = {
	.cmd = "preferences", .opts = preferences_opts, .long_only = true,
	.no_empty = true, .prefix_missing = true,
};

static const char *const action_names[] = {
	[DCMCTL_PREFS_SAVE] = "save",
	[DCMCTL_PREFS_LOAD] = "load",
	[DCMCTL_PREFS_ADD] = "add",
};

/* ------------------------------------------------------------------
 * Command line
 */

/* The arguments (@pos) of a command line whose options are read. */
/* add's operands: one target, a KEY and a VALUE; --type a kind the description knows. */
static int check_add_args(struct dcmctl_prefs_args *a, const char **pos, size_t n_pos,
			  char *err, size_t errlen)
{
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
	return 0;
}

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
		if (check_add_args(a, pos, n_pos, err, errlen))
			return -EINVAL;
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
	if (dcmctl_getopt_init(&g, &spec, argc, argv, err, errlen))
		return -ENOMEM;
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
 * The actions: libdcm's dcm_prefs_*(); here the options and the output
 */

/* libdcm's messages: errors and warnings, one line each. */
static void prefs_log(void *arg, int level, const char *msg)
{
	FILE *err = arg;

	if (level <= LIBDCM_LOG_ERR)
		fprintf(err, "dcmctl: %s\n", msg);
	else if (level <= LIBDCM_LOG_WARNING)
		fprintf(err, "dcmctl: warning: %s\n", msg);
}

static void prefs_opts(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		       struct dcm_prefs_opts *po, FILE *err)
{
	memset(po, 0, sizeof(*po));
	po->index = o->dev_index > 0 ? (unsigned int)o->dev_index : 0;
	po->file = a->file;
	po->etc = a->paths.etc;
	po->share = a->paths.share;
	po->device_xml = a->paths.device_xml;
	po->schema_dir = a->paths.schema_dir;
	po->sysfs_root = o->root;
	po->log = prefs_log;
	po->log_arg = err;
}

struct report {
	const struct dcmctl_opts *o;
	struct json_writer w;
	FILE *out;
};

static int do_save(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		   struct report *rep, FILE *err)
{
	struct dcm_prefs_saved *saved;
	struct dcm_prefs_opts po;
	size_t n = 0, i;
	int r;

	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: cannot tell the controller index of '%s': use -d dcmN\n",
			o->device);
		return DCMCTL_EXIT_FAIL;
	}
	saved = calloc(DESC_N_TARGETS, sizeof(*saved));
	if (!saved) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	prefs_opts(o, a, &po, err);
	r = dcm_prefs_save(&po, a->all ? LIBDCM_PREFS_ALL : a->target, saved, &n);
	if (o->json && n)
		json_begin_array(&rep->w, "saved");
	for (i = 0; i < n; i++) {
		const struct dcm_prefs_saved *s = &saved[i];
		const char *t = dcm_prefs_target_name(s->target);

		if (o->json) {
			json_begin_object(&rep->w, NULL);
			json_string(&rep->w, "target", t);
			json_string(&rep->w, "file", s->file);
			if (s->from[0])
				json_string(&rep->w, "from", s->from);
			else
				json_null(&rep->w, "from");
			json_uint(&rep->w, "keys", s->keys);
			json_uint(&rep->w, "live", s->live);
			json_uint(&rep->w, "changed", s->changed);
			json_uint(&rep->w, "added", s->added);
			json_end_object(&rep->w);
		} else {
			fprintf(rep->out, "%s: %s: %u key%s (%u changed, %u added; from %s)\n", t,
				s->file, s->keys, s->keys == 1 ? "" : "s", s->changed, s->added,
				s->from[0] ? s->from : "no file");
		}
	}
	if (o->json && n)
		json_end_array(&rep->w);
	free(saved);
	return r ? DCMCTL_EXIT_FAIL : DCMCTL_EXIT_OK;
}

static int do_load(const struct dcmctl_opts *o, const struct dcmctl_prefs_args *a,
		   struct report *rep, FILE *err)
{
	struct dcm_prefs_loaded *l;
	struct dcm_prefs_opts po;
	int ret = DCMCTL_EXIT_FAIL;

	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: cannot tell the controller index of '%s': use -d dcmN\n",
			o->device);
		return DCMCTL_EXIT_FAIL;
	}
	l = malloc(sizeof(*l));
	if (!l) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	prefs_opts(o, a, &po, err);
	if (!dcm_prefs_load(&po, a->all ? LIBDCM_PREFS_ALL : a->target, l)) {
		if (o->json) {
			json_string(&rep->w, "loaded", l->files);
			json_string(&rep->w, "controller", l->controller);
			json_uint(&rep->w, "devices", l->n_devices);
			json_uint(&rep->w, "subdevices", l->n_subdevices);
			json_uint(&rep->w, "robot_keys", l->n_keys);
			json_uint(&rep->w, "steps", l->steps);
		} else {
			fprintf(rep->out,
				"description %s loaded into %s: %u devices, %u subdevices, %u RobotConfig keys\n",
				l->files, l->controller, l->n_devices, l->n_subdevices, l->n_keys);
		}
		ret = DCMCTL_EXIT_OK;
	}
	free(l);
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
	struct dcm_prefs_added *ad;
	struct dcm_prefs_opts po;
	int ret = DCMCTL_EXIT_FAIL;
	char *path;

	ad = malloc(sizeof(*ad));
	if (!ad) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	path = desc_full_key_path(a->key);
	if (!path) {
		fprintf(err, "dcmctl: out of memory\n");
		free(ad);
		return DCMCTL_EXIT_FAIL;
	}
	if (dcmctl_prefs_known_robot_key(path, err)) {
		free(path);
		free(ad);
		return DCMCTL_EXIT_FAIL;
	}
	free(path);
	prefs_opts(o, a, &po, err);
	if (!dcm_prefs_add(&po, a->target, a->key, a->value, a->type, ad)) {
		const char *t = dcm_prefs_target_name(ad->target);

		if (rep->o->json) {
			json_string(&rep->w, "target", t);
			json_string(&rep->w, "file", ad->file);
			json_string(&rep->w, "key", ad->key);
			json_string(&rep->w, "type", desc_kind_name(ad->kind));
			if (ad->kind == LIBDCM_KEY_STRING)
				json_string(&rep->w, "value", a->value);
			else if (ad->kind == LIBDCM_KEY_BOOL)
				json_bool(&rep->w, "value", !strcasecmp(a->value, "true") ||
					  !strcmp(a->value, "1"));
			else
				dcmctl_json_value(&rep->w, "value", a->value);
			json_bool(&rep->w, "added", ad->added);
		} else {
			fprintf(rep->out, "%s: %s: %s = %s (%s)\n", t, ad->file, ad->key, a->value,
				ad->added ? "added" : "replaced");
		}
		ret = DCMCTL_EXIT_OK;
	}
	free(ad);
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

const struct dcmctl_command dcmctl_cmd_preferences = {
	.name = "preferences",
	.run = dcmctl_preferences,
	.args = "save|load TARGET [--file FILE]\n"
		"add TARGET KEY VALUE [--type TYPE] [--file FILE]",
	.help = "the preference files (TARGET: Main, Chest, Head, All): save the\n"
		"running values of the keys the target owns into its file, load the\n"
		"description again from the files (root), add a key to a file",
	.details = "add refuses a key the description does not know (a misspelled\n"
		"RobotConfig key among them) and a value outside the key's range.\n"
		"Undo an add with another add of the old value (dcmctl get KEY shows\n"
		"the running one), then load. Only options that start with -- are\n"
		"options here: add Main KEY -1 works.",
	.spec = &dcmctl_spec_preferences,
};
