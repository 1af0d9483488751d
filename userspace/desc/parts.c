// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules of the robot description beyond its schemas (see desc.h and
 * Documentation/dcm/device-xml.rst): which preference file owns which key,
 * the RobotConfig keys merged over the files, the Parts the robot has and
 * the elements dropped with the absent ones, one name space for devices
 * and subdevices, the preference keys laid over Device.xml, and Min <= Max.
 * Each step works on a load in progress (desc-internal.h), in the order
 * desc_load() (load.c) calls them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "desc-internal.h"

/* ------------------------------------------------------------------
 * Who owns a key
 */

/* @path is @dir or below it ("RobotConfig/Body", "RobotConfig/Body/..."). */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

enum desc_target desc_key_owner(const char *path, const char *sub_type)
{
	const char *key = strrchr(path, '/');

	key = key ? key + 1 : path;
	if (below(path, "RobotConfig/Body"))
		return DESC_CHEST;
	if (below(path, "RobotConfig/Head"))
		return DESC_HEAD;
	if (desc_starts(path, DCM_PREFIX_DEVICE) && (!strcmp(key, "BodyId") || !strcmp(key, "BodyNickName")))
		return DESC_CHEST;
	if (desc_starts(path, DCM_PREFIX_SUBDEVICE)) {
		if (!strcmp(key, "jointZeroPosition"))
			return DESC_CHEST;
		if (sub_type && !strcmp(sub_type, "FSR") &&
		    (!strcmp(key, "Gain") || !strcmp(key, "Offset")))
			return DESC_CHEST;
	}
	return DESC_MAIN;
}


enum desc_target desc_path_owner(const struct desc *d, const char *path)
{
	struct desc_path p;

	if (desc_resolve_path(d, path, &p))
		return desc_key_owner(path, NULL);
	return desc_key_owner(path, p.sub ? p.sub->type : NULL);
}


/* ------------------------------------------------------------------
 * Preference files
 */


/*
 * Each file sets only the keys it owns (desc_key_owner()), so that no two
 * files set the same key. Keys aimed at no element are reported later.
 */
void desc_check_owners(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		/* a file of the wrong Target is said once */
		if (l->prefs[f].wrong_target)
			continue;
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			struct pref_key *pk = &l->prefs[f].keys[i];
			enum desc_target owner;
			struct desc_path p;

			/* what names no element is reported with the overlays */
			if (desc_resolve_path(l->d, pk->path, &p) ||
			    (!p.robot && !p.sub && !p.dev))
				continue;
			owner = desc_key_owner(pk->path, p.sub ? p.sub->type : NULL);
			if (owner != f)
				desc_errf(l, &pk->key.src,
				     "key %s belongs to the %s preferences, not to the %s preferences",
				     pk->path, desc_target_name(owner), desc_target_name(f));
		}
	}
}

/* RobotConfig keys: Main, Chest, then Head file (later layers win). */
void desc_merge_robot_keys(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			struct pref_key *pk = &l->prefs[f].keys[i];
			struct desc_key *old, k;

			if (!desc_starts(pk->path, DCM_PREFIX_ROBOTCONFIG))
				continue;
			old = desc_find_robot_key(l->d, pk->path);
			k = pk->key;
			k.name = desc_xstrdup(l, pk->path);
			k.str = pk->key.str ? desc_xstrdup(l, pk->key.str) : NULL;
			if (!k.name || (pk->key.str && !k.str)) {
				desc_key_clear(&k);
				continue;
			}
			if (old) {
				desc_logf(l, DESC_LOG_DEBUG, "%s:%d: %s overrides %s:%d",
				      k.src.file, k.src.line, pk->path, old->src.file,
				      old->src.line);
				desc_key_clear(old);
				*old = k;
			} else if (desc_keys_append(&l->d->robot, &l->d->n_robot, &k)) {
				desc_key_clear(&k);
				l->oom = true;
			}
		}
	}
}

/* ------------------------------------------------------------------
 * Parts
 */

/*
 * An integer RobotConfig key, or @dflt when absent. A value that is not
 * an integer is an error (reported, @dflt returned).
 */
static int64_t config_int(struct loader *l, const char *path, int64_t dflt)
{
	struct desc_key *k = desc_find_robot_key(l->d, path);
	int64_t v;

	if (!k)
		return dflt;
	switch (k->kind) {
	case LIBDCM_KEY_INT:
		return k->num;
	case LIBDCM_KEY_STRING:
		if (!desc_parse_int(k->str, &v))
			return v;
		desc_errf(l, &k->src, "%s: '%s' is not an integer", path, k->str);
		return dflt;
	default:
		desc_errf(l, &k->src, "%s: Type %s, but the Part rules need an int", path,
		     desc_kind_name(k->kind));
		return dflt;
	}
}

void desc_decide_parts(struct loader *l)
{
	bool *p = l->d->parts;
	int64_t touch, arm[2], hand[2], legs, foot[2];
	int s;

	touch = config_int(l, "RobotConfig/Head/Device/TouchBoard/Version", 0);
	arm[0] = config_int(l, "RobotConfig/Body/Device/LeftArm/Version", 1);
	arm[1] = config_int(l, "RobotConfig/Body/Device/RightArm/Version", 1);
	hand[0] = config_int(l, "RobotConfig/Body/Device/Hand/Left/Version", 0);
	hand[1] = config_int(l, "RobotConfig/Body/Device/Hand/Right/Version", 0);
	legs = config_int(l, "RobotConfig/Body/Device/Legs/Version", 1);
	foot[0] = config_int(l, "RobotConfig/Body/Device/Foot/Left/Version", 1);
	foot[1] = config_int(l, "RobotConfig/Body/Device/Foot/Right/Version", 1);

	p[PART_BODY] = true;
	p[PART_HEAD] = true;
	p[PART_HEAD_TOUCH] = touch >= 1;
	p[PART_LEGS] = legs != -1;
	for (s = 0; s < 2; s++) {
		bool a = arm[s] != -1;
		bool h = a && hand[s] >= 1;

		p[PART_LEFT_ARM + s] = a;
		p[PART_LEFT_WRIST + s] = a && (arm[s] == 2 || hand[s] >= 1);
		p[PART_LEFT_HAND + s] = h;
		p[PART_LEFT_HAND_TOUCH + s] = h && hand[s] == 3;
		p[PART_LEFT_FOOT + s] = p[PART_LEGS] && foot[s] != 0;
	}
}

/* ------------------------------------------------------------------
 * Structure checks and filtering
 */

struct name_ref {
	const char *name;
	const struct desc_src *src;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* equal names: in file order, so the first stays first */
	return x->src->line - y->src->line;
}

/* Devices and subdevices share one name space (the kernel's). */
void desc_check_names(struct loader *l)
{
	size_t n = l->d->n_devices + l->d->n_subdevices, i;
	struct name_ref *refs;

	if (!n)
		return;
	refs = calloc(n, sizeof(*refs));
	if (!refs) {
		l->oom = true;
		return;
	}
	for (i = 0; i < l->d->n_devices; i++) {
		refs[i].name = l->d->devices[i].name;
		refs[i].src = &l->d->devices[i].src;
	}
	for (i = 0; i < l->d->n_subdevices; i++) {
		refs[l->d->n_devices + i].name = l->d->subdevices[i].name;
		refs[l->d->n_devices + i].src = &l->d->subdevices[i].src;
	}
	qsort(refs, n, sizeof(*refs), name_cmp);
	for (i = 1; i < n; i++) {
		size_t first = i - 1;

		while (first > 0 && !strcmp(refs[first - 1].name, refs[i].name))
			first--;
		if (!strcmp(refs[i - 1].name, refs[i].name))
			desc_errf(l, refs[i].src, "duplicate name '%s' (first defined at %s:%d)",
			     refs[i].name, refs[first].src->file, refs[first].src->line);
	}
	free(refs);
}

void desc_filter(struct loader *l)
{
	struct desc *d = l->d;
	size_t i, j;

	for (i = 0; i < d->n_devices; i++) {
		struct desc_device *dev = &d->devices[i];

		dev->kept = d->parts[dev->part];
		if (dev->kept)
			d->n_kept_devices++;
		else
			desc_logf(l, DESC_LOG_DEBUG, "%s:%d: device %s dropped: no %s on this robot",
			      dev->src.file, dev->src.line, dev->name,
			      desc_part_name(dev->part));
	}
	for (i = 0; i < d->n_subdevices; i++) {
		struct desc_subdevice *s = &d->subdevices[i];
		struct desc_device *dev = desc_find_device(d, s->device);

		if (!dev) {
			desc_errf(l, &s->src, "subdevice %s: no device '%s'", s->name, s->device);
			continue;
		}
		s->dev = (size_t)(dev - d->devices);
		if (s->part == PART_COUNT)
			s->part = dev->part;
		if (!dev->kept) {
			desc_logf(l, DESC_LOG_DEBUG, "%s:%d: subdevice %s dropped with its device %s",
			      s->src.file, s->src.line, s->name, dev->name);
		} else if (!d->parts[s->part]) {
			desc_logf(l, DESC_LOG_DEBUG, "%s:%d: subdevice %s dropped: no %s on this robot",
			      s->src.file, s->src.line, s->name, desc_part_name(s->part));
		} else {
			s->kept = true;
			d->n_kept_subdevices++;
		}
	}
	/* (Device, Type, SubDeviceNumber) is unique among what is kept. */
	for (i = 0; i < d->n_subdevices; i++) {
		struct desc_subdevice *s = &d->subdevices[i];

		if (!s->kept)
			continue;
		for (j = 0; j < i; j++) {
			struct desc_subdevice *o = &d->subdevices[j];

			if (o->kept && o->dev == s->dev && o->number == s->number &&
			    !strcmp(o->type, s->type)) {
				desc_errf(l, &s->src,
				     "subdevice %s: SubDeviceNumber %u of type %s on device %s is taken by %s (%s:%d)",
				     s->name, s->number, s->type, s->device, o->name,
				     o->src.file, o->src.line);
				break;
			}
		}
	}
}

/* ------------------------------------------------------------------
 * Overlays
 */

/* Set (or replace) key @name of an element from a preference key. */
static void overlay_key(struct loader *l, struct pref_key *pk, const char *name, struct desc_key **keys, size_t *n_keys)
{
	struct desc_key *old = desc_find_key(*keys, *n_keys, name), k;

	if (old && old->kind != pk->key.kind) {
		desc_errf(l, &pk->key.src, "key %s: Type %s, but %s:%d gives it as %s",
		     pk->path, desc_kind_name(pk->key.kind), old->src.file, old->src.line,
		     desc_kind_name(old->kind));
		return;
	}
	k = pk->key;
	k.name = desc_xstrdup(l, name);
	k.str = pk->key.str ? desc_xstrdup(l, pk->key.str) : NULL;
	if (!k.name || (pk->key.str && !k.str)) {
		desc_key_clear(&k);
		return;
	}
	if (old) {
		desc_logf(l, DESC_LOG_DEBUG, "%s:%d: %s overrides %s:%d", k.src.file,
		      k.src.line, pk->path, old->src.file, old->src.line);
		desc_key_clear(old);
		*old = k;
	} else if (desc_keys_append(keys, n_keys, &k)) {
		desc_key_clear(&k);
		l->oom = true;
		return;
	}
	l->d->n_overrides++;
}

void desc_apply_pref_key(struct loader *l, struct pref_key *pk)
{
	const char *path = pk->path, *rest, *slash;
	bool is_sub = false;
	char *elem;

	if (desc_starts(path, DCM_PREFIX_ROBOTCONFIG))
		return;		/* merged already */
	if (desc_starts(path, DCM_PREFIX_SUBDEVICE)) {
		rest = path + strlen(DCM_PREFIX_SUBDEVICE);
		is_sub = true;
	} else if (desc_starts(path, DCM_PREFIX_DEVICE)) {
		rest = path + strlen(DCM_PREFIX_DEVICE);
	} else {
		desc_errf(l, &pk->key.src,
		     "key path '%s' must start with Device/SubDeviceList/, Device/DeviceList/ or RobotConfig/",
		     path);
		return;
	}
	slash = strrchr(rest, '/');
	if (!slash || slash == rest || !slash[1]) {
		desc_errf(l, &pk->key.src, "key path '%s' names no key of an element", path);
		return;
	}
	elem = strndup(rest, (size_t)(slash - rest));
	if (!elem) {
		l->oom = true;
		return;
	}
	if (is_sub) {
		struct desc_subdevice *s = desc_find_subdevice(l->d, elem);

		if (!s) {
			desc_errf(l, &pk->key.src, "key %s: no subdevice '%s'", path, elem);
		} else if (!s->kept) {
			l->d->n_ignored++;
			desc_logf(l, DESC_LOG_DEBUG, "%s:%d: key %s ignored: subdevice %s is not on this robot",
			      pk->key.src.file, pk->key.src.line, path, elem);
		} else {
			overlay_key(l, pk, slash + 1, &s->keys, &s->n_keys);
		}
	} else {
		struct desc_device *dev = desc_find_device(l->d, elem);

		if (!dev) {
			desc_errf(l, &pk->key.src, "key %s: no device '%s'", path, elem);
		} else if (!dev->kept) {
			l->d->n_ignored++;
			desc_logf(l, DESC_LOG_DEBUG, "%s:%d: key %s ignored: device %s is not on this robot",
			      pk->key.src.file, pk->key.src.line, path, elem);
		} else {
			overlay_key(l, pk, slash + 1, &dev->keys, &dev->n_keys);
		}
	}
	free(elem);
}

void desc_check_min_max(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->d->n_subdevices; i++) {
		struct desc_subdevice *s = &l->d->subdevices[i];
		struct desc_key *mn, *mx;

		if (!s->kept)
			continue;
		mn = desc_find_key(s->keys, s->n_keys, "Min");
		mx = desc_find_key(s->keys, s->n_keys, "Max");
		if (mn && mx && mn->kind == LIBDCM_KEY_FLOAT && mx->kind == LIBDCM_KEY_FLOAT &&
		    desc_key_micro(mn) > desc_key_micro(mx)) {
			/* blame the preference key that made it so, if any */
			const struct desc_src *at = mx->src.file != s->src.file ? &mx->src :
						    mn->src.file != s->src.file ? &mn->src :
						    &s->src;
			char a[32], b[32];

			dcm_fixed_to_string(desc_key_micro(mn), a, sizeof(a));
			dcm_fixed_to_string(desc_key_micro(mx), b, sizeof(b));
			desc_errf(l, at, "subdevice %s: Min %s is above Max %s", s->name, a, b);
		}
	}
}

