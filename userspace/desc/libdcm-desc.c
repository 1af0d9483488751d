// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm-desc: NAOqi's preferences(action, target, key, value) on the preference
 * files of the robot description (Documentation/dcm/device-xml.rst): the
 * actions Save, Load and Add, the targets Main, Chest, Head (and All for
 * Save and Load).
 *
 *   save: write the target's file with the running description's values,
 *         read from sysfs, of the keys the target owns;
 *   load: load the description again from the files and commit it to the
 *         kernel as one transaction, as dcmd does (needs CAP_NET_ADMIN);
 *   add:  set one key in the target's file; the kernel is not touched.
 *
 * The files are those dcmd loads for the controller: the robot's directory
 * is /etc/dcm for dcm0 and /etc/dcm/dcmN for dcmN, N > 0. Every file
 * written is checked first (schema, loader, the kernel's own checks in the
 * dry run, with Device.xml) and replaced atomically. The work is the
 * description code's (the rest of desc/, in the same library); here are
 * the defaults, the messages and the results. Errors are libdcm's:
 * dcm_set_error(), which libdcm exports to this library alone
 * (LIBDCM_PRIVATE), so that dcm_last_error() says why.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libdcm-desc.h"
#include "libdcm-private.h"
#include "desc.h"

_Static_assert((int)LIBDCM_PREFS_MAIN == (int)DESC_MAIN, "target");
_Static_assert((int)LIBDCM_PREFS_CHEST == (int)DESC_CHEST, "target");
_Static_assert((int)LIBDCM_PREFS_HEAD == (int)DESC_HEAD, "target");
_Static_assert((int)LIBDCM_PREFS_ALL == (int)DESC_N_TARGETS, "target");
_Static_assert(LIBDCM_LOG_WARNING == DESC_LOG_WARNING, "log level");

/* A call: its options, where its messages go. */
struct run {
	const struct dcm_prefs_opts *o;
	struct desc_paths paths;
	char etc[256];
	int err;		/* the first failure's errno */
};

static void say(struct run *r, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct run *r, int level, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (level <= LIBDCM_LOG_ERR)
		dcm_set_error(-EIO, "%s", msg);
	if (r->o->log)
		r->o->log(r->o->log_arg, level, msg);
}

/* desc's messages that are not errors: warnings on. */
static void warn_log(void *arg, int level, const char *msg)
{
	struct run *r = arg;

	if (level <= DESC_LOG_WARNING && r->o->log)
		r->o->log(r->o->log_arg, level, msg);
}

/* @e's messages as errors, then empty it. */
static void say_errors(struct run *r, struct desc_errors *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		say(r, LIBDCM_LOG_ERR, "%s", e->msgs[i]);
	if (e->dropped)
		say(r, LIBDCM_LOG_ERR, "(%zu more errors)", e->dropped);
	desc_errors_free(e);
}

static const char *const target_names[] = { "Main", "Chest", "Head", "All" };

DCM_EXPORT const char *dcm_prefs_target_name(int target)
{
	return target >= 0 && target <= LIBDCM_PREFS_ALL ? target_names[target] : NULL;
}

DCM_EXPORT int dcm_prefs_target_from_name(const char *name)
{
	int t;

	for (t = 0; name && t <= LIBDCM_PREFS_ALL; t++)
		if (!strcasecmp(name, target_names[t]))
			return t;
	return dcm_set_error(-EINVAL, "unknown preference target '%.64s' (Main, Chest, Head or All)",
			     name ? name : "(null)");
}

/* Check the options and fill in the defaults. 0 or -EINVAL (said). */
static int run_init(struct run *r, const struct dcm_prefs_opts *o, int target, bool all_ok,
		    const char *what)
{
	static const struct dcm_prefs_opts none;

	memset(r, 0, sizeof(*r));
	r->o = o ? o : &none;
	o = r->o;
	if (target < 0 || target > LIBDCM_PREFS_ALL || (!all_ok && target == LIBDCM_PREFS_ALL)) {
		say(r, LIBDCM_LOG_ERR, "preferences %s: %s", what, all_ok ?
		    "unknown target (Main, Chest, Head or All)" : "one target: Main, Chest or Head");
		return -EINVAL;
	}
	if (target == LIBDCM_PREFS_ALL && o->file) {
		say(r, LIBDCM_LOG_ERR, "preferences %s: --file names one target's file, not All's",
		    what);
		return -EINVAL;
	}
	r->paths.device_xml = o->device_xml;
	r->paths.schema_dir = o->schema_dir;
	r->paths.share = o->share;
	r->paths.etc = o->etc;
	/* dcmd's files for that controller: /etc/dcm/dcmN for N > 0 */
	if (!o->etc && o->index > 0) {
		if (desc_etc_dir(o->index, r->etc, sizeof(r->etc))) {
			say(r, LIBDCM_LOG_ERR, "preferences: a file name is too long");
			return -ENAMETOOLONG;
		}
		r->paths.etc = r->etc;
	}
	return 0;
}

static int load_files(struct run *r, int target, struct desc_files *f)
{
	return desc_prefs_load_files(&r->paths, target == LIBDCM_PREFS_ALL ? NULL : r->o->file,
				     target == LIBDCM_PREFS_ALL ? -1 : target, f);
}

/* Device.xml alone: its elements, their types and values. NULL: said. */
static struct desc *load_device_xml(struct run *r, const struct desc_files *f)
{
	struct desc_errors errs;
	struct desc *d;

	desc_errors_init(&errs);
	desc_load_device_xml(f, warn_log, r, &d, &errs);
	say_errors(r, &errs);
	return d;
}

static int write_prefs(struct run *r, struct desc_prefs *p, const char *path,
		       enum desc_target t, const struct desc_files *f)
{
	struct desc_errors errs;
	int ret;

	desc_errors_init(&errs);
	ret = desc_prefs_write_checked(p, path, t, f, warn_log, r, &errs);
	say_errors(r, &errs);
	return ret;
}

/* ------------------------------------------------------------------
 * save
 */

static int save_target(struct run *r, enum desc_target t, const struct desc_files *f,
		       const struct desc *d0, const struct dcm_sysfs *sysfs,
		       struct dcm_prefs_saved *out)
{
	struct desc_save_stats st;
	struct desc_prefs *doc;
	struct desc_errors errs;
	int ret;

	memset(out, 0, sizeof(*out));
	out->target = (int)t;
	if (desc_prefs_paths(&r->paths, r->o->file, t, out->from, sizeof(out->from), out->file,
			     sizeof(out->file))) {
		say(r, LIBDCM_LOG_ERR, "preferences save %s: a file name is too long",
		    desc_target_name(t));
		return -ENAMETOOLONG;
	}
	desc_errors_init(&errs);
	ret = desc_prefs_open(out->from[0] ? out->from : NULL, t, &doc, &errs);
	if (!ret)
		ret = desc_prefs_save(doc, t, d0, sysfs, &st, &errs);
	say_errors(r, &errs);
	if (ret) {
		say(r, LIBDCM_LOG_ERR, "%s not saved", out->file);
		desc_prefs_free(doc);
		return -EIO;
	}
	ret = write_prefs(r, doc, out->file, t, f);
	if (!ret) {
		out->keys = (unsigned int)desc_prefs_count(doc);
		out->live = st.keys;
		out->changed = st.changed;
		out->added = st.added;
	}
	desc_prefs_free(doc);
	return ret ? -EIO : 0;
}

DCM_EXPORT int dcm_prefs_save(const struct dcm_prefs_opts *o, int target,
			      struct dcm_prefs_saved *out, size_t *n_out)
{
	struct dcm_sysfs *sysfs = NULL;
	struct desc_files *f = NULL;
	struct desc *d0 = NULL;
	struct run r;
	int ret, t;

	if (n_out)
		*n_out = 0;
	ret = run_init(&r, o, target, true, "save");
	if (ret)
		return ret;
	if (!out || !n_out) {
		say(&r, LIBDCM_LOG_ERR, "dcm_prefs_save: NULL argument");
		return -EINVAL;
	}
	f = malloc(sizeof(*f));
	if (!f || load_files(&r, target, f)) {
		say(&r, LIBDCM_LOG_ERR, "preferences save: %s",
		    f ? "a file name is too long" : "out of memory");
		ret = f ? -ENAMETOOLONG : -ENOMEM;
		goto out;
	}
	ret = -EIO;
	d0 = load_device_xml(&r, f);
	if (!d0)
		goto out;
	ret = dcm_sysfs_open(r.o->sysfs_root, r.o->index, &sysfs);
	if (ret) {
		say(&r, LIBDCM_LOG_ERR, "%s", dcm_last_error());
		goto out;
	}
	for (t = 0; t < DESC_N_TARGETS; t++) {
		int e;

		if (target != LIBDCM_PREFS_ALL && t != target)
			continue;
		e = save_target(&r, (enum desc_target)t, f, d0, sysfs, &out[*n_out]);
		if (e)
			ret = ret ? ret : e;
		else
			(*n_out)++;
	}
out:
	dcm_sysfs_close(sysfs);
	desc_free(d0);
	free(f);
	return ret;
}

/* ------------------------------------------------------------------
 * load
 */

/*
 * The loaded description @d to the controller of the run @r, with its
 * figures into @out (if not NULL); @opts names its files. Return 0 or the
 * negative errno, said through @r.
 */
static int push_loaded(struct run *r, const struct desc *d, const struct desc_opts *opts,
		       struct dcm_prefs_loaded *out)
{
	struct desc_push_stats st;
	struct desc_nl_sink nls;
	struct dcm_info info;
	char why[1024], files[2048];
	int ret;

	ret = dcm_nl_open(&nls.nl);
	if (ret) {
		say(r, LIBDCM_LOG_ERR, "%s", dcm_last_error());
		return ret;
	}
	nls.index = r->o->index;
	ret = dcm_nl_get_info(nls.nl, nls.index, &info);
	if (ret) {
		say(r, LIBDCM_LOG_ERR, "controller %u: %s", nls.index, dcm_last_error());
	} else if (info.abi_major != LIBDCM_ABI_MAJOR) {
		say(r, LIBDCM_LOG_ERR, "controller %s speaks ABI %u.%u, libdcm speaks %u.x",
		    info.name, info.abi_major, info.abi_minor, LIBDCM_ABI_MAJOR);
		ret = -EPROTO;
	} else {
		ret = desc_push(d, &desc_nl_sink_ops, &nls, &st, why, sizeof(why));
		if (ret) {
			desc_opts_files_text(opts, files, sizeof(files));
			say(r, LIBDCM_LOG_ERR, "%s", why);
			say(r, LIBDCM_LOG_ERR,
			    "description %s refused by the kernel: the running description is unchanged",
			    files);
		} else if (out) {
			snprintf(out->controller, sizeof(out->controller), "%s", info.name);
			out->n_devices = st.counts.n_devices;
			out->n_subdevices = st.counts.n_subdevices;
			out->n_keys = st.counts.n_keys;
			out->steps = st.steps;
		}
	}
	dcm_nl_close(nls.nl);
	return ret;
}

DCM_EXPORT int dcm_prefs_load(const struct dcm_prefs_opts *o, int target,
			      struct dcm_prefs_loaded *out)
{
	struct desc_errors errs;
	struct desc_files *f;
	struct desc_opts opts;
	struct desc *d = NULL;
	char why[1024];
	struct run r;
	int ret;

	ret = run_init(&r, o, target, true, "load");
	if (ret)
		return ret;
	if (out)
		memset(out, 0, sizeof(*out));
	f = malloc(sizeof(*f));
	if (!f || load_files(&r, target, f)) {
		say(&r, LIBDCM_LOG_ERR, "preferences load: %s",
		    f ? "a file name is too long" : "out of memory");
		free(f);
		return f ? -ENAMETOOLONG : -ENOMEM;
	}
	desc_opts_init(&opts, f, warn_log, &r);
	if (r.o->file && target != LIBDCM_PREFS_ALL)
		opts.target_hint[target] = "--file";
	if (out)
		desc_opts_files_text(&opts, out->files, sizeof(out->files));
	else
		desc_opts_files_text(&opts, why, sizeof(why));
	desc_errors_init(&errs);
	if (desc_load(&opts, &d, &errs)) {
		size_t n = errs.n + errs.dropped;

		say_errors(&r, &errs);
		say(&r, LIBDCM_LOG_ERR, "description %s not loaded: %zu error%s",
		    out ? out->files : why, n, n == 1 ? "" : "s");
		ret = -EINVAL;
		goto out;
	}
	desc_errors_free(&errs);
	ret = push_loaded(&r, d, &opts, out);
out:
	desc_free(d);
	free(f);
	return ret;
}

/* ------------------------------------------------------------------
 * add
 */

/*
 * The key @path set to @value (@type: its kind, NULL: the description's)
 * in the preference file of @t: checked against the Device.xml @d0, read
 * from out->from, written to out->file. Return 0, -EINVAL (a key or value
 * refused) or -EIO (a file not read or written); why in @errs or said.
 */
static int add_key(struct run *r, const struct desc *d0, const char *path, enum desc_target t,
		   const char *type, const char *value, const struct desc_files *f,
		   struct dcm_prefs_added *out, struct desc_errors *errs)
{
	struct desc_prefs *doc = NULL;
	struct desc_type_key range;
	int kind, kind_out, added, ret = -EINVAL;

	kind = desc_prefs_add_kind(d0, path, t, &range, errs);
	if (kind < 0)
		return -EINVAL;
	if (desc_prefs_open(out->from[0] ? out->from : NULL, t, &doc, errs))
		return -EIO;
	say_errors(r, errs);
	added = desc_prefs_add(doc, path, kind, &range, type, value, &kind_out, errs);
	if (added >= 0) {
		out->added = added == 1;
		out->kind = kind_out;
		ret = write_prefs(r, doc, out->file, t, f) ? -EIO : 0;
	}
	desc_prefs_free(doc);
	return ret;
}

/* add's KEY, VALUE and type: -EINVAL said through @r when one is missing or wrong. */
static int check_add_args(struct run *r, const char *key, const char *value, const char *type)
{
	if (!key || !*key || !value) {
		say(r, LIBDCM_LOG_ERR, "preferences add: %s", key && !*key ? "empty key" :
		    "KEY and VALUE?");
		return -EINVAL;
	}
	if (type && desc_kind_parse(type) < 0) {
		say(r, LIBDCM_LOG_ERR,
		    "preferences add: unknown type '%s' (int, float, bool or string)", type);
		return -EINVAL;
	}
	return 0;
}

DCM_EXPORT int dcm_prefs_add(const struct dcm_prefs_opts *o, int target, const char *key,
			     const char *value, const char *type, struct dcm_prefs_added *out)
{
	struct dcm_prefs_added local;
	struct desc_errors errs;
	struct desc_files *f = NULL;
	struct desc *d0 = NULL;
	char *path = NULL;
	enum desc_target t;
	struct run r;
	int ret;

	ret = run_init(&r, o, target, false, "add");
	if (ret)
		return ret;
	if (check_add_args(&r, key, value, type))
		return -EINVAL;
	if (!out)
		out = &local;
	memset(out, 0, sizeof(*out));
	t = (enum desc_target)target;
	out->target = target;
	desc_errors_init(&errs);
	path = desc_full_key_path(key);
	f = malloc(sizeof(*f));
	ret = -ENOMEM;
	if (!path || !f || load_files(&r, target, f) ||
	    desc_prefs_paths(&r.paths, r.o->file, t, out->from, sizeof(out->from), out->file,
			     sizeof(out->file))) {
		say(&r, LIBDCM_LOG_ERR, "preferences add: %s",
		    path && f ? "a file name is too long" : "out of memory");
		ret = path && f ? -ENAMETOOLONG : -ENOMEM;
		goto out;
	}
	snprintf(out->key, sizeof(out->key), "%s", path);
	ret = -EIO;
	d0 = load_device_xml(&r, f);
	if (!d0)
		goto out;
	ret = add_key(&r, d0, path, t, type, value, f, out, &errs);
out:
	say_errors(&r, &errs);
	desc_free(d0);
	free(path);
	free(f);
	return ret;
}
