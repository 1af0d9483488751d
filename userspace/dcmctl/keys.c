// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl list, get, tree: the key tree of a controller in sysfs, read
 * through libdcm (dcm_sysfs_*()). The root (default /sys/class/dcm) comes
 * from -r or $DCM_SYSFS_ROOT, so tests run against a fake tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "json.h"
#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "keyname.h"
#include "keys.h"

static const struct optdef get_opts[] = {
	{ "quiet", 'q', 'q', NULL, "values only, one a line" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_get = {
	.cmd = "get", .opts = get_opts,
};

/* ------------------------------------------------------------------
 * list
 */

int dcmctl_list(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const char *pattern;
	struct json_writer w;
	struct dcm_sysfs *s;
	size_t i, matched = 0;
	int r, nargs, ret = DCMCTL_EXIT_OK;

	if (dcmctl_plain_args(o, "list", 1, &nargs, err))
		return DCMCTL_EXIT_USAGE;
	pattern = nargs ? o->argv[0] : NULL;
	s = dcmctl_open_sysfs(o, err);
	if (!s)
		return DCMCTL_EXIT_FAIL;
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
	}
	for (r = DCM_SYSFS_SUBDEVICES; r <= DCM_SYSFS_ROBOT; r++) {
		char **keys;
		size_t n;

		if (dcm_sysfs_keys(s, (enum dcm_sysfs_root)r, &keys, &n)) {
			fprintf(err, "dcmctl: %s\n", dcm_last_error());
			ret = DCMCTL_EXIT_FAIL;
			continue;
		}
		for (i = 0; i < n; i++) {
			if (pattern && !dcmctl_glob_matches(pattern, keys[i]))
				continue;
			matched++;
			if (o->json)
				json_string(&w, NULL, keys[i]);
			else
				fprintf(out, "%s\n", keys[i]);
		}
		dcm_sysfs_strv_free(keys, n);
	}
	if (o->json) {
		json_end_array(&w);
		json_finish(&w);
	}
	/* as get's and watch's: a pattern that matches nothing is an error */
	if (pattern && !matched && ret == DCMCTL_EXIT_OK) {
		fprintf(err, "dcmctl: %s: no key matches\n", pattern);
		ret = DCMCTL_EXIT_FAIL;
	}
	dcm_sysfs_close(s);
	fflush(out);
	fflush(err);
	return ret;
}

/* ------------------------------------------------------------------
 * get
 */

/* A value on one text line: newlines of a multi-line value become "; ". */
static void print_flat(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\n')
			fputs("; ", out);
		else
			fputc(*v, out);
	}
}

/*
 * One key's value: into the JSON array @w, or a line on @out (without
 * the key's name when @quiet). -1 when the key cannot be read, said on
 * @err and, with @w, in the key's object.
 */
static int get_one(const struct dcm_sysfs *s, const char *key, bool quiet,
		   struct json_writer *w, FILE *out, FILE *err)
{
	struct dcmctl_keyref k;
	char *value = NULL;
	int e = dcmctl_key_resolve(s, key, &k);

	if (!e)
		e = dcm_sysfs_read(s, k.path, &value);
	if (w) {
		json_begin_object(w, NULL);
		json_string(w, "key", key);
	}
	if (e) {
		dcmctl_key_error(s, key, e, err, w);
	} else if (w) {
		json_string(w, "path", k.path);
		dcmctl_json_value(w, "value", value);
	} else {
		if (!quiet)
			fprintf(out, "%s ", key);
		print_flat(out, value);
		fputc('\n', out);
	}
	if (w)
		json_end_object(w);
	free(value);
	return e ? -1 : 0;
}

int dcmctl_get(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const struct dcmctl_optspec spec = dcmctl_spec_get;
	struct dcmctl_getopt g;
	struct json_writer w;
	struct dcm_sysfs *s;
	bool quiet = false;
	char msg[256], **names = NULL;
	size_t n_names = 0;
	int c, i, ret = DCMCTL_EXIT_OK;

	if (dcmctl_getopt_init(&g, &spec, o->argc, o->argv, msg, sizeof(msg))) {
		fprintf(err, "dcmctl: %s\n", msg);
		return DCMCTL_EXIT_FAIL;
	}
	while ((c = dcmctl_getopt(&g, msg, sizeof(msg))) > 0)
		quiet = true;	/* -q, --quiet */
	if (c < 0 || !g.n_args) {
		fprintf(err, "dcmctl: %s\n", c < 0 ? msg : "get: which key? (dcmctl get KEY...)");
		dcmctl_getopt_free(&g);
		return DCMCTL_EXIT_USAGE;
	}
	s = dcmctl_open_sysfs(o, err);
	if (!s) {
		dcmctl_getopt_free(&g);
		return DCMCTL_EXIT_FAIL;
	}
	if (dcmctl_expand_globs(s, g.args, (size_t)g.n_args, &names, &n_names, err)) {
		dcm_sysfs_close(s);
		dcmctl_getopt_free(&g);
		return DCMCTL_EXIT_FAIL;
	}
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
	}
	for (i = 0; i < (int)n_names; i++)
		if (get_one(s, names[i], quiet, o->json ? &w : NULL, out, err))
			ret = DCMCTL_EXIT_FAIL;
	if (o->json) {
		json_end_array(&w);
		json_finish(&w);
	}
	dcm_sysfs_strv_free(names, n_names);
	dcm_sysfs_close(s);
	dcmctl_getopt_free(&g);
	fflush(out);
	fflush(err);
	return ret;
}

/* ------------------------------------------------------------------
 * tree
 */

/* A JSON number if @s is a plain decimal integer, else a string. */
static void json_num_or_string(struct json_writer *w, const char *key, const char *s)
{
	long long v;

	if (*s != '+' && !num_parse_ll(s, LLONG_MIN, LLONG_MAX, &v))
		json_int(w, key, v);
	else
		json_string(w, key, s);
}

static void tree_subdevices(FILE *out, struct json_writer *w, bool json, const char *dev,
			    const struct dcm_sysfs_elem *subs, size_t n_subs, bool *shown)
{
	size_t j;

	for (j = 0; j < n_subs; j++) {
		if (shown[j] || (dev && strcmp(subs[j].device, dev)))
			continue;
		shown[j] = true;
		if (json) {
			json_begin_object(w, NULL);
			json_string(w, "name", subs[j].name);
			json_string(w, "type", subs[j].type);
			json_num_or_string(w, "number", subs[j].number);
			if (!dev)
				json_string(w, "device", subs[j].device);
			json_end_object(w);
		} else {
			fprintf(out, "    %s: type %s, number %s%s%s\n", subs[j].name,
				subs[j].type, subs[j].number, dev ? "" : ", device ",
				dev ? "" : subs[j].device);
		}
	}
}

/*
 * The devices, each with its subdevices, then the subdevices no listed
 * device has; @shown marks the subdevices printed so far.
 */
static void print_tree(const struct dcmctl_opts *o, FILE *out, const char *controller,
		       const struct dcm_sysfs_elem *devs, size_t n_devs,
		       const struct dcm_sysfs_elem *subs, size_t n_subs, bool *shown)
{
	size_t i, orphans = 0;
	struct json_writer w;

	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		json_string(&w, "controller", controller);
		json_begin_array(&w, "devices");
	}
	for (i = 0; i < n_devs; i++) {
		if (o->json) {
			json_begin_object(&w, NULL);
			json_string(&w, "name", devs[i].name);
			json_string(&w, "type", devs[i].type);
			json_string(&w, "bus", devs[i].bus);
			json_num_or_string(&w, "address", devs[i].address);
			json_begin_array(&w, "subdevices");
		} else {
			fprintf(out, "%s: type %s, bus %s, address %s\n", devs[i].name,
				devs[i].type, devs[i].bus, devs[i].address);
		}
		tree_subdevices(out, &w, o->json, devs[i].name, subs, n_subs, shown);
		if (o->json) {
			json_end_array(&w);
			json_end_object(&w);
		}
	}
	for (i = 0; i < n_subs; i++)
		orphans += !shown[i];
	if (o->json) {
		json_end_array(&w);
		if (orphans) {
			json_begin_array(&w, "orphans");
			tree_subdevices(out, &w, true, NULL, subs, n_subs, shown);
			json_end_array(&w);
		}
		json_end_object(&w);
		json_finish(&w);
	} else if (orphans) {
		fprintf(out, "(subdevices whose device is not listed)\n");
		tree_subdevices(out, &w, false, NULL, subs, n_subs, shown);
	}
}

int dcmctl_tree(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct dcm_sysfs_elem *devs = NULL, *subs = NULL;
	size_t n_devs = 0, n_subs = 0;
	struct dcm_sysfs *s;
	bool *shown = NULL;
	const char *dir;
	int r, ret = DCMCTL_EXIT_OK;

	if (dcmctl_plain_args(o, "tree", 0, &r, err))
		return DCMCTL_EXIT_USAGE;
	s = dcmctl_open_sysfs(o, err);
	if (!s)
		return DCMCTL_EXIT_FAIL;
	dir = dcm_sysfs_path(s);
	r = dcm_sysfs_devices(s, &devs, &n_devs);
	if (!r)
		r = dcm_sysfs_subdevices(s, &subs, &n_subs);
	if (r) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		ret = DCMCTL_EXIT_FAIL;
		goto out;
	}
	shown = calloc(n_subs + 1, sizeof(*shown));
	if (!shown) {
		fprintf(err, "dcmctl: %s: %s\n", dir, strerror(ENOMEM));
		ret = DCMCTL_EXIT_FAIL;
		goto out;
	}
	print_tree(o, out, strrchr(dir, '/') + 1, devs, n_devs, subs, n_subs, shown);
out:
	dcm_sysfs_elems_free(devs, n_devs);
	dcm_sysfs_elems_free(subs, n_subs);
	free(shown);
	dcm_sysfs_close(s);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_list = {
	.name = "list",
	.run = dcmctl_list,
	.args = "[PATTERN]",
	.help = "key paths (PATTERN: a glob on the path, with or without\n"
		"Device/SubDeviceList/)",
	.details = "The keys of the running description, as sysfs shows them: the\n"
		"subdevices' (Device/SubDeviceList/...), the devices'\n"
		"(Device/DeviceList/...) and RobotConfig/.... PATTERN is a glob as get\n"
		"takes, a subdevice's value also without its /Value\n"
		"('*/Hardness/Actuator'); one that matches nothing is an error (exit 1).\n"
		"Quote the PATTERN for the shell: 'LFoot/FSR/*'.",
};

const struct dcmctl_command dcmctl_cmd_get = {
	.name = "get",
	.run = dcmctl_get,
	.args = "[-q] KEY...",
	.help = "\"KEY VALUE\" lines (-q: values only)",
	.details = "KEY: a subdevice's value with or without Device/SubDeviceList/ and\n"
		"with or without /Value (HeadYaw/Position/Sensor is\n"
		"Device/SubDeviceList/HeadYaw/Position/Sensor/Value); a subdevice's\n"
		"other keys by their name (HeadYaw/Position/Actuator/Kp, .../Min); a\n"
		"device's (Device/DeviceList/ChestBoard/Ack); RobotConfig/.... An\n"
		"unknown key gets the nearest known ones (\"did you mean\"). A KEY with\n"
		"*, ? or [ is a glob: every key it matches, on the full path, without\n"
		"Device/SubDeviceList/ or without /Value ('*/Position/Sensor'; quote\n"
		"it). With -j, numbers are JSON numbers.",
	.spec = &dcmctl_spec_get,
};

const struct dcmctl_command dcmctl_cmd_tree = {
	.name = "tree",
	.run = dcmctl_tree,
	.args = "",
	.help = "devices with their Type, Bus and Address, and their subdevices",
};
