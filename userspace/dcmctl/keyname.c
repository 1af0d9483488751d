// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the key grammar every command shares, and "did you mean".
 *
 * A key is typed as the NAOqi key ("Device/SubDeviceList/HeadYaw/Position/
 * Sensor/Value") or without its prefix, or without its "/Value"
 * ("HeadYaw/Position/Sensor"); a subdevice's other keys by their name
 * (".../Actuator/Kp", ".../Min"); a device's with "Device/DeviceList/"; the
 * RobotConfig keys with "RobotConfig/". The live tree in sysfs says which
 * keys exist: what it holds is what the commands accept.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/dcm.h>

#include "json.h"
#include "libdcm.h"
#include "keyname.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int dcmctl_key_resolve(const struct dcm_sysfs *s, const char *typed, struct dcmctl_keyref *k)
{
	char rel[DCMCTL_KEY_LEN], file[DCMCTL_KEY_LEN + 256];
	const char *rest, *prefix;
	struct stat st;
	size_t len;
	int r;

	memset(k, 0, sizeof(*k));
	if (!typed || !*typed)
		return -EINVAL;
	/* the sysfs directories' own names as well as the keys' prefixes */
	if (starts(typed, LIBDCM_PREFIX_SUB) || starts(typed, "SubDeviceList/")) {
		k->where = DCMCTL_KEY_SUB;
		rest = strchr(typed + (typed[0] == 'D' ? 7 : 0), '/') + 1;
		prefix = LIBDCM_PREFIX_SUB;
	} else if (starts(typed, LIBDCM_PREFIX_DEV) || starts(typed, "DeviceList/")) {
		k->where = DCMCTL_KEY_DEV;
		rest = strchr(typed + (typed[0] == 'D' && typed[6] == '/' ? 7 : 0), '/') + 1;
		prefix = LIBDCM_PREFIX_DEV;
	} else if (starts(typed, LIBDCM_PREFIX_ROBOT)) {
		k->where = DCMCTL_KEY_ROBOT;
		rest = typed + strlen(LIBDCM_PREFIX_ROBOT);
		prefix = LIBDCM_PREFIX_ROBOT;
	} else {
		k->where = DCMCTL_KEY_SUB;
		rest = typed;
		prefix = LIBDCM_PREFIX_SUB;
	}
	len = strlen(rest);
	while (len && rest[len - 1] == '/')
		len--;
	if (!len)
		return -EINVAL;
	if ((size_t)snprintf(k->path, sizeof(k->path), "%s%.*s", prefix, (int)len, rest) >=
	    sizeof(k->path))
		return -ENAMETOOLONG;
	r = dcm_sysfs_key_path(k->path, rel, sizeof(rel));
	if (r)
		return r;
	snprintf(file, sizeof(file), "%s/%s", dcm_sysfs_path(s), rel);
	if (stat(file, &st))
		return -ENOENT;
	if (S_ISDIR(st.st_mode)) {
		/* a subdevice named without its "/Value" */
		if (k->where != DCMCTL_KEY_SUB || strlen(file) + 7 > sizeof(file))
			return -ENOENT;
		strcat(file, "/Value");
		if (stat(file, &st) || !S_ISREG(st.st_mode) ||
		    strlen(k->path) + 7 > sizeof(k->path))
			return -ENOENT;
		strcat(k->path, "/Value");
	} else if (!S_ISREG(st.st_mode)) {
		return -ENOENT;
	}
	k->name = strrchr(k->path, '/') + 1;
	k->value = k->where == DCMCTL_KEY_SUB && !strcmp(k->name, "Value");
	snprintf(k->owner, sizeof(k->owner), "%.*s", (int)(k->name - k->path - 1), k->path);
	return 0;
}

/* ------------------------------------------------------------------
 * Suggestions
 */

size_t dcmctl_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, prev, d;

	row = calloc(lb + 1, sizeof(*row));
	if (!row)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t sub = prev + (a[i - 1] != b[j - 1]);
			size_t del = row[j] + 1, ins = row[j - 1] + 1;

			prev = row[j];
			d = sub < del ? sub : del;
			row[j] = d < ins ? d : ins;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/* @key in the form it was typed: without the prefix, without "/Value" if @typed has none. */
static void short_form(const char *key, const char *typed, char *out, size_t len)
{
	size_t n;

	if (starts(key, LIBDCM_PREFIX_SUB) && !starts(typed, LIBDCM_PREFIX_SUB))
		key += strlen(LIBDCM_PREFIX_SUB);
	n = strlen(key);
	if (n > 6 && !strcmp(key + n - 6, "/Value") &&
	    (strlen(typed) < 6 || strcmp(typed + strlen(typed) - 6, "/Value")))
		n -= 6;
	snprintf(out, len, "%.*s", (int)n, key);
}

size_t dcmctl_suggest(char *const *keys, size_t n, const char *typed, char out[][DCMCTL_KEY_LEN],
		      size_t max)
{
	size_t best[DCMCTL_MAX_SUGGESTIONS], i, j, found = 0, limit;
	char form[DCMCTL_KEY_LEN];

	if (max > DCMCTL_MAX_SUGGESTIONS)
		max = DCMCTL_MAX_SUGGESTIONS;
	/* a typo, a case slip, a part left out: about a third of the name */
	limit = strlen(typed) / 3 + 1;
	if (limit > 8)
		limit = 8;
	for (i = 0; i < n; i++) {
		size_t d;

		short_form(keys[i], typed, form, sizeof(form));
		d = dcmctl_edit_distance(typed, form);
		/* only the nearest: farther ones are noise next to them */
		if (d > limit || (found && d > best[0]))
			continue;
		if (found && d < best[0])
			found = 0;
		/* keep the @max nearest, nearest first; equals in list order */
		for (j = found; j > 0 && best[j - 1] > d; j--) {
			if (j < max) {
				best[j] = best[j - 1];
				memcpy(out[j], out[j - 1], DCMCTL_KEY_LEN);
			}
		}
		if (j < max) {
			best[j] = d;
			snprintf(out[j], DCMCTL_KEY_LEN, "%s", form);
			if (found < max)
				found++;
		}
	}
	return found;
}

size_t dcmctl_key_suggest(const struct dcm_sysfs *s, const char *typed,
			  char out[][DCMCTL_KEY_LEN], size_t max)
{
	char **all = NULL;
	size_t n_all = 0, found = 0;
	int r;

	for (r = DCM_SYSFS_SUBDEVICES; r <= DCM_SYSFS_ROBOT; r++) {
		char **keys, **grown;
		size_t n;

		if (dcm_sysfs_keys(s, (enum dcm_sysfs_root)r, &keys, &n) || !n)
			continue;
		grown = realloc(all, (n_all + n) * sizeof(*all));
		if (!grown) {
			dcm_sysfs_strv_free(keys, n);
			break;
		}
		all = grown;
		memcpy(all + n_all, keys, n * sizeof(*keys));
		n_all += n;
		free(keys);
	}
	if (n_all)
		found = dcmctl_suggest(all, n_all, typed, out, max);
	dcm_sysfs_strv_free(all, n_all);
	return found;
}

void dcmctl_print_suggestions(FILE *err, char out[][DCMCTL_KEY_LEN], size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(err, "dcmctl: did you mean ");
	for (i = 0; i < n; i++)
		fprintf(err, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", out[i]);
	fprintf(err, "?\n");
}

int dcmctl_key_error(const struct dcm_sysfs *s, const char *typed, int r, FILE *err,
		     struct json_writer *w)
{
	char sugg[DCMCTL_MAX_SUGGESTIONS][DCMCTL_KEY_LEN];
	const char *why;
	size_t n = 0, i;

	if (r == -EINVAL)
		why = "invalid key (empty, absolute, or with '.' or '..' components)";
	else if (r == -ENOENT || r == -ENAMETOOLONG)
		why = "no such key";
	else
		why = strerror(-r);
	fprintf(err, "dcmctl: %s: %s\n", typed, why);
	if (r == -ENOENT && s) {
		n = dcmctl_key_suggest(s, typed, sugg, 3);
		dcmctl_print_suggestions(err, sugg, n);
	}
	if (w) {
		json_string(w, "error", why);
		if (n) {
			json_begin_array(w, "suggestions");
			for (i = 0; i < n; i++)
				json_string(w, NULL, sugg[i]);
			json_end_array(w);
		}
	}
	return r;
}

/* ------------------------------------------------------------------
 * Typed values
 */

int dcmctl_number(const char *text, double *v, bool *integer)
{
	const char *p = text;
	char *end;

	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	*integer = !strchr(text, '.');
	errno = 0;
	*v = strtod(text, &end);
	if (errno || end == text || (*end && strcmp(end, "\n")))
		return -EINVAL;
	if (strpbrk(text, "eExXpPiInN"))
		return -EINVAL;
	return 0;
}

void dcmctl_json_value(struct json_writer *w, const char *key, const char *text)
{
	bool integer;
	double v;

	if (dcmctl_number(text, &v, &integer))
		json_string(w, key, text);
	else if (integer && v >= -9.2e18 && v <= 9.2e18)
		json_int(w, key, strtoll(text, NULL, 10));
	else
		json_double(w, key, v);
}

/* ------------------------------------------------------------------
 * Globs: a pattern for every key that matches it
 */

bool dcmctl_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * A key of the tree (a full path) in the form get and watch show it: a
 * subdevice's Value by its subdevice's name, a subdevice's other keys
 * without the prefix, the rest whole. NULL if out of memory.
 */
static char *glob_form(const char *path)
{
	size_t plen = strlen(DCM_PREFIX_SUBDEVICE), len;
	char *s;

	if (strncmp(path, DCM_PREFIX_SUBDEVICE, plen))
		return strdup(path);
	s = strdup(path + plen);
	if (!s)
		return NULL;
	len = strlen(s);
	if (len > 6 && !strcmp(s + len - 6, "/Value"))
		s[len - 6] = '\0';
	return s;
}

bool dcmctl_glob_matches(const char *pattern, const char *path)
{
	size_t plen = strlen(DCM_PREFIX_SUBDEVICE), len = strlen(path);
	char bare[DCMCTL_KEY_LEN];

	if (!fnmatch(pattern, path, 0))
		return true;
	if (strncmp(path, DCM_PREFIX_SUBDEVICE, plen))
		return false;
	if (!fnmatch(pattern, path + plen, 0))
		return true;
	/* a subdevice's value: its subdevice, with and without the prefix */
	if (len <= plen + 6 || strcmp(path + len - 6, "/Value") || len - 6 >= sizeof(bare))
		return false;
	snprintf(bare, sizeof(bare), "%.*s", (int)(len - 6), path);
	return !fnmatch(pattern, bare, 0) || !fnmatch(pattern, bare + plen, 0);
}

/*
 * Every key of the tree, subdevices to robot, appended to *keys: read
 * once, at the first glob. -EINVAL (said on @err, @typed the glob that
 * needed them) when there is no tree, -ENOMEM unsaid.
 */
static int all_keys(const struct dcm_sysfs *s, const char *typed, char ***keys,
		    size_t *nkeys, FILE *err)
{
	char **nv;
	int r;

	for (r = DCM_SYSFS_SUBDEVICES; r <= DCM_SYSFS_ROBOT; r++) {
		char **part;
		size_t np;

		if (!s || dcm_sysfs_keys(s, (enum dcm_sysfs_root)r, &part, &np)) {
			fprintf(err, "dcmctl: %s: %s\n", typed,
				s ? dcm_last_error() : "no key tree to match in");
			return -EINVAL;
		}
		nv = realloc(*keys, (*nkeys + np + 1) * sizeof(*nv));
		if (!nv) {
			dcm_sysfs_strv_free(part, np);
			return -ENOMEM;
		}
		*keys = nv;
		for (size_t j = 0; j < np; j++)
			(*keys)[(*nkeys)++] = part[j];
		free(part);
	}
	return 0;
}

/*
 * The keys @glob matches, in their glob form, appended to *v unless
 * there already; *matched counts them, the ones there included.
 */
static int add_matches(const char *glob, char *const *keys, size_t nkeys, char ***v,
		       size_t *count, size_t *matched)
{
	char **nv;

	*matched = 0;
	for (size_t j = 0; j < nkeys; j++) {
		char *form;
		bool dup = false;

		if (!dcmctl_glob_matches(glob, keys[j]))
			continue;
		form = glob_form(keys[j]);
		if (!form)
			return -ENOMEM;
		(*matched)++;
		for (size_t k = 0; k < *count && !dup; k++)
			dup = !strcmp((*v)[k], form);
		if (dup) {
			free(form);
			continue;
		}
		nv = realloc(*v, (*count + 1) * sizeof(*nv));
		if (!nv) {
			free(form);
			return -ENOMEM;
		}
		*v = nv;
		(*v)[(*count)++] = form;
	}
	return 0;
}

int dcmctl_expand_globs(const struct dcm_sysfs *s, char *const *typed, size_t n, char ***out,
			size_t *n_out, FILE *err)
{
	char **keys = NULL, **v = NULL, **nv;
	size_t nkeys = 0, count = 0, i, matched;
	int r = 0;

	*out = NULL;
	*n_out = 0;
	for (i = 0; i < n && !r; i++) {
		if (!dcmctl_is_glob(typed[i])) {
			nv = realloc(v, (count + 1) * sizeof(*v));
			if (!nv || !(nv[count] = strdup(typed[i]))) {
				v = nv ? nv : v;
				r = -ENOMEM;
				break;
			}
			v = nv;
			count++;
			continue;
		}
		if (!keys)
			r = all_keys(s, typed[i], &keys, &nkeys, err);
		if (!r)
			r = add_matches(typed[i], keys, nkeys, &v, &count, &matched);
		if (!r && !matched) {
			fprintf(err, "dcmctl: %s: no key matches\n", typed[i]);
			r = -EINVAL;
		}
	}
	dcm_sysfs_strv_free(keys, nkeys);
	if (r == -ENOMEM)
		fprintf(err, "dcmctl: out of memory\n");
	if (r) {
		dcm_sysfs_strv_free(v, count);
		return r;
	}
	*out = v;
	*n_out = count;
	return 0;
}
