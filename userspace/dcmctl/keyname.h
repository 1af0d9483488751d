/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl: the key grammar, the suggestions and the globs (keyname.c).
 */
#ifndef DCMCTL_KEYNAME_H
#define DCMCTL_KEYNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "libdcm.h"

#define DCMCTL_KEY_LEN		256
#define DCMCTL_MAX_SUGGESTIONS	8

enum dcmctl_key_where {
	DCMCTL_KEY_SUB,		/* Device/SubDeviceList/... */
	DCMCTL_KEY_DEV,		/* Device/DeviceList/... */
	DCMCTL_KEY_ROBOT,	/* RobotConfig/... */
};

/* A key as the live tree has it. */
struct dcmctl_keyref {
	char path[DCMCTL_KEY_LEN];	/* the full key: "Device/SubDeviceList/.../Value" */
	char owner[DCMCTL_KEY_LEN];	/* its subdevice or device: the path up to the name */
	const char *name;		/* the key's own name, into path: "Value", "Kp" */
	enum dcmctl_key_where where;
	bool value;			/* a subdevice's Value */
};

/*
 * The key @typed names in the tree of @s: with or without the prefix
 * ("Device/SubDeviceList/" is the default; the sysfs directory names
 * "SubDeviceList/", "DeviceList/" are taken too), a subdevice with or
 * without "/Value". Return 0, -ENOENT (no such key), -EINVAL (not a key
 * path), -ENAMETOOLONG.
 */
int dcmctl_key_resolve(const struct dcm_sysfs *s, const char *typed, struct dcmctl_keyref *k);

/* Levenshtein distance of @a and @b; (size_t)-1 when out of memory. */
size_t dcmctl_edit_distance(const char *a, const char *b);

/*
 * The keys among @keys (full paths) nearest to @typed: those at the
 * smallest edit distance found, at most @max (DCMCTL_MAX_SUGGESTIONS), in
 * list order, each in the form @typed was given (without the prefix,
 * without "/Value" when @typed had none), none farther than a third of
 * @typed's length (8 at most). Return how many.
 */
size_t dcmctl_suggest(char *const *keys, size_t n, const char *typed,
		      char out[][DCMCTL_KEY_LEN], size_t max);

/* The same over every key of the live tree of @s. */
size_t dcmctl_key_suggest(const struct dcm_sysfs *s, const char *typed,
			  char out[][DCMCTL_KEY_LEN], size_t max);

/* "dcmctl: did you mean A, B or C?" on @err; nothing for none. */
void dcmctl_print_suggestions(FILE *err, char out[][DCMCTL_KEY_LEN], size_t n);

/*
 * Say why @typed is not a key (@r from dcmctl_key_resolve()) on @err, with
 * the suggestions (@s may be NULL: none); into @w too ("error",
 * "suggestions") if not NULL. Return @r.
 */
int dcmctl_key_error(const struct dcm_sysfs *s, const char *typed, int r, FILE *err,
		     struct json_writer *w);

/* Does @s hold a glob character (*, ?, [)? */
bool dcmctl_is_glob(const char *s);

/*
 * Does @pattern (fnmatch(), '*' crossing '/') match the key whose full
 * path is @path, in any form the key grammar takes it: the full path, the
 * path without Device/SubDeviceList/, and a subdevice's value both ways
 * without its /Value (Device/SubDeviceList/HeadYaw/Position/Sensor,
 * HeadYaw/Position/Sensor)? The one matcher of list, get, watch (and
 * record's subdevices).
 */
bool dcmctl_glob_matches(const char *pattern, const char *path);

/*
 * @typed with each glob replaced by the keys of the tree of @s it matches
 * (dcmctl_glob_matches()), in the tree's order, each in the form
 * get shows (HeadYaw/Position/Sensor, HeadYaw/Position/Actuator/Kp,
 * Device/DeviceList/ChestBoard/Ack), a key matched twice once; the other
 * arguments as they are. A glob that matches nothing is said on @err.
 * Return 0 (*@out: malloc'ed strings, free with dcm_sysfs_strv_free()),
 * -EINVAL, -ENOMEM.
 */
int dcmctl_expand_globs(const struct dcm_sysfs *s, char *const *typed, size_t n, char ***out,
			size_t *n_out, FILE *err);

/* A decimal number as sysfs shows them ("12", "-0.500000"). Return 0 or -EINVAL. */
int dcmctl_number(const char *text, double *v, bool *integer);

/* @text as a JSON number when it is one, else as a string. */
void dcmctl_json_value(struct json_writer *w, const char *key, const char *text);

#endif /* DCMCTL_KEYNAME_H */
