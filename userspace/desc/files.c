// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the robot description's files are: Device.xml and the schemas in
 * /usr/share/dcm; each preference file in the robot's directory (/etc/dcm
 * for dcm0, /etc/dcm/dcmN for another controller) if it is there, else in
 * /usr/share/dcm if it is there, else none. dcmd and dcmctl preferences
 * resolve them the same way, here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "desc.h"

static const char *const target_names[DESC_N_TARGETS] = {
	[DESC_MAIN] = "Main",
	[DESC_CHEST] = "Chest",
	[DESC_HEAD] = "Head",
};

static const char *const target_files[DESC_N_TARGETS] = {
	[DESC_MAIN] = "main.xml",
	[DESC_CHEST] = "body.xml",
	[DESC_HEAD] = "head.xml",
};

const char *desc_target_name(enum desc_target t)
{
	return t < DESC_N_TARGETS ? target_names[t] : "?";
}

const char *desc_target_file(enum desc_target t)
{
	return t < DESC_N_TARGETS ? target_files[t] : "?";
}

int desc_target_parse(const char *name)
{
	int t;

	for (t = 0; t < DESC_N_TARGETS; t++)
		if (!strcasecmp(name, target_names[t]))
			return t;
	return -1;
}

static int put(char *dst, size_t len, const char *dir, const char *name)
{
	int n = dir ? snprintf(dst, len, "%s/%s", dir, name) :
		      snprintf(dst, len, "%s", name);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int desc_etc_dir(unsigned int index, char *buf, size_t len)
{
	int n = index ? snprintf(buf, len, "%s/dcm%u", DESC_ETC_DIR, index) :
			snprintf(buf, len, "%s", DESC_ETC_DIR);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int desc_default_pref_path(const char *etc, enum desc_target t, char *buf, size_t len)
{
	return put(buf, len, etc ? etc : DESC_ETC_DIR, desc_target_file(t));
}

/* A preference file: the option, or ETC/name, or SHARE/name, or none. */
static int pref_file(const char *opt, const char *etc, const char *share,
		     enum desc_target t, char *dst, size_t len, char *note,
		     size_t notelen)
{
	const char *name = desc_target_file(t);
	size_t used;
	int r;

	dst[0] = '\0';
	if (opt)
		return strcmp(opt, DESC_NO_FILE) ? put(dst, len, NULL, opt) : 0;
	r = put(dst, len, etc, name);
	if (r || access(dst, F_OK) == 0)
		return r;
	r = put(dst, len, share, name);
	if (r || access(dst, F_OK) == 0)
		return r;
	dst[0] = '\0';
	/* most robots have no main file: nothing worth a notice */
	if (t == DESC_MAIN)
		return 0;
	used = strlen(note);
	snprintf(note + used, notelen - used, "%sno %s/%s nor %s/%s", used ? "; " : "",
		 etc, name, share, name);
	return 0;
}

int desc_resolve_files(const struct desc_paths *p, struct desc_files *f)
{
	const char *etc = p->etc ? p->etc : DESC_ETC_DIR;
	const char *share = p->share ? p->share : DESC_SHARE_DIR;
	const char *sdir = p->schema_dir ? p->schema_dir : share;
	int r, t;

	memset(f, 0, sizeof(*f));
	r = p->device_xml ? put(f->device_xml, sizeof(f->device_xml), NULL, p->device_xml) :
			    put(f->device_xml, sizeof(f->device_xml), share, DESC_DEVICE_XML);
	for (t = 0; !r && t < DESC_N_TARGETS; t++)
		r = pref_file(p->prefs[t], etc, share, t, f->prefs[t], sizeof(f->prefs[t]),
			      f->note, sizeof(f->note));
	if (!r)
		r = put(f->device_rng, sizeof(f->device_rng), sdir, DESC_DEVICE_RNG);
	if (!r)
		r = put(f->prefs_rng, sizeof(f->prefs_rng), sdir, DESC_PREFS_RNG);
	return r;
}

void desc_opts_set_files(struct desc_opts *o, const struct desc_files *f)
{
	o->device_xml = f->device_xml;
	o->main_xml = f->prefs[DESC_MAIN][0] ? f->prefs[DESC_MAIN] : NULL;
	o->body_xml = f->prefs[DESC_CHEST][0] ? f->prefs[DESC_CHEST] : NULL;
	o->head_xml = f->prefs[DESC_HEAD][0] ? f->prefs[DESC_HEAD] : NULL;
	o->device_rng = f->device_rng;
	o->prefs_rng = f->prefs_rng;
}

void desc_opts_files_text(const struct desc_opts *o, char *buf, size_t len)
{
	const char *f[] = { o->device_xml, o->main_xml, o->body_xml, o->head_xml };
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(f) / sizeof(f[0]) && off < len; i++)
		if (f[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " + " : "",
						f[i]);
}
