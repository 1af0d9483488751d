// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the strings of NAOqi's DCM API for update kinds ("ClearAll",
 * "Merge", "ClearAfter", "ClearBefore") and alias modes ("time-mixed",
 * "time-separate"), both ways.
 *
 * Reading compares without case and without '-' and '_', so that the
 * NAOqi spellings, dcmctl's ("clear-all") and C-like ones ("CLEAR_ALL")
 * all name the same thing. Writing gives the NAOqi spelling.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "libdcm-private.h"

static const char *const kind_names[] = {
	[LIBDCM_CLEAR_ALL] = "ClearAll",
	[LIBDCM_MERGE] = "Merge",
	[LIBDCM_CLEAR_AFTER] = "ClearAfter",
	[LIBDCM_CLEAR_BEFORE] = "ClearBefore",
};

static const char *const mode_names[] = {
	[LIBDCM_TIME_MIXED] = "time-mixed",
	[LIBDCM_TIME_SEPARATE] = "time-separate",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* @s and @name equal without case, '-' and '_'. */
static int loose_equal(const char *s, const char *name)
{
	for (;;) {
		while (*s == '-' || *s == '_')
			s++;
		while (*name == '-' || *name == '_')
			name++;
		if (!*s || !*name)
			return !*s && !*name;
		if (tolower((unsigned char)*s) != tolower((unsigned char)*name))
			return 0;
		s++;
		name++;
	}
}

/* The index of @s in @names, or -EINVAL with dcm_last_error() set. */
static int find_name(const char *s, const char *const *names, size_t n, const char *what)
{
	size_t i;

	if (!s)
		return dcm_set_error(-EINVAL, "%s: NULL argument", what);
	for (i = 0; *s && i < n; i++)
		if (loose_equal(s, names[i]))
			return (int)i;
	return dcm_set_error(-EINVAL, "%s: unknown name '%.64s'", what, s);
}

DCM_EXPORT int dcm_kind_from_string(const char *s, enum dcm_update_kind *out)
{
	int i = find_name(s, kind_names, N_OF(kind_names),
			  "dcm_kind_from_string (ClearAll, Merge, ClearAfter, ClearBefore)");

	if (i < 0)
		return i;
	if (!out)
		return dcm_set_error(-EINVAL, "dcm_kind_from_string: NULL argument");
	*out = (enum dcm_update_kind)i;
	return 0;
}

DCM_EXPORT const char *dcm_kind_to_string(enum dcm_update_kind kind)
{
	unsigned int k = (unsigned int)kind;

	return k < N_OF(kind_names) ? kind_names[k] : NULL;
}

DCM_EXPORT int dcm_alias_mode_from_string(const char *s, enum dcm_alias_time_mode *out)
{
	int i = find_name(s, mode_names, N_OF(mode_names),
			  "dcm_alias_mode_from_string (time-mixed, time-separate)");

	if (i < 0)
		return i;
	if (!out)
		return dcm_set_error(-EINVAL, "dcm_alias_mode_from_string: NULL argument");
	*out = (enum dcm_alias_time_mode)i;
	return 0;
}

DCM_EXPORT const char *dcm_alias_mode_to_string(enum dcm_alias_time_mode mode)
{
	unsigned int m = (unsigned int)mode;

	return m < N_OF(mode_names) ? mode_names[m] : NULL;
}
