// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The robot description's in-memory model (see desc.h): Parts and key
 * kinds by name, the error list, the numbers of attribute and key values,
 * freeing, and the lookups of elements, keys and key paths; the summary
 * of dcmd -n. No XML here (load.c) and no rule of the preferences or the
 * Parts (parts.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "desc-internal.h"

static const char *const part_names[PART_COUNT] = {
	[PART_BODY] = "Body",
	[PART_HEAD] = "Head",
	[PART_HEAD_TOUCH] = "HeadTouch",
	[PART_LEFT_ARM] = "LeftArm",
	[PART_RIGHT_ARM] = "RightArm",
	[PART_LEFT_WRIST] = "LeftWrist",
	[PART_RIGHT_WRIST] = "RightWrist",
	[PART_LEFT_HAND] = "LeftHand",
	[PART_RIGHT_HAND] = "RightHand",
	[PART_LEFT_HAND_TOUCH] = "LeftHandTouch",
	[PART_RIGHT_HAND_TOUCH] = "RightHandTouch",
	[PART_LEGS] = "Legs",
	[PART_LEFT_FOOT] = "LeftFoot",
	[PART_RIGHT_FOOT] = "RightFoot",
};

const char *desc_part_name(enum desc_part p)
{
	return p < PART_COUNT ? part_names[p] : "?";
}

int desc_part_from_name(const char *s)
{
	int i;

	for (i = 0; i < PART_COUNT; i++)
		if (!strcmp(part_names[i], s))
			return i;
	return -1;
}

/* ------------------------------------------------------------------
 * Errors
 */

void desc_errors_init(struct desc_errors *e)
{
	memset(e, 0, sizeof(*e));
}

void desc_errors_free(struct desc_errors *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	desc_errors_init(e);
}

static void errors_addv(struct desc_errors *e, const char *fmt, va_list ap)
{
	char *m, **n;

	if (e->n >= DESC_MAX_ERRORS) {
		e->dropped++;
		return;
	}
	if (vasprintf(&m, fmt, ap) < 0) {
		e->dropped++;
		return;
	}
	n = realloc(e->msgs, (e->n + 1) * sizeof(*n));
	if (!n) {
		free(m);
		e->dropped++;
		return;
	}
	e->msgs = n;
	e->msgs[e->n++] = m;
}

void desc_errors_add(struct desc_errors *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errors_addv(e, fmt, ap);
	va_end(ap);
}

char *desc_errors_text(const struct desc_errors *e)
{
	size_t i, len = 1;
	char *s, *p;

	for (i = 0; i < e->n; i++)
		len += strlen(e->msgs[i]) + 1;
	if (e->dropped)
		len += 64;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	*p = '\0';
	for (i = 0; i < e->n; i++)
		p += sprintf(p, "%s\n", e->msgs[i]);
	if (e->dropped)
		sprintf(p, "(%zu more errors)\n", e->dropped);
	return s;
}

/* ------------------------------------------------------------------
 * Numbers
 */

static bool xml_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Copy @text without leading and trailing XML blanks; NULL if no memory. */
static char *trimmed(const char *text)
{
	size_t n;

	while (xml_blank(*text))
		text++;
	n = strlen(text);
	while (n && xml_blank(text[n - 1]))
		n--;
	return strndup(text, n);
}

int desc_parse_int(const char *text, int64_t *out)
{
	uint64_t mag = 0, lim = INT64_MAX;
	char *t = trimmed(text), *p;
	bool neg = false;
	int ret = 0;

	if (!t)
		return -ENOMEM;
	p = t;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (neg)
		lim++;
	if (!*p)
		ret = -EINVAL;
	for (; *p && !ret; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (*p < '0' || *p > '9')
			ret = -EINVAL;
		else if (mag > (lim - d) / 10)
			ret = -ERANGE;
		else
			mag = mag * 10 + d;
	}
	/* a number too big that is also garbage further on is garbage */
	for (; *p && ret == -ERANGE; p++)
		if (*p < '0' || *p > '9')
			ret = -EINVAL;
	free(t);
	if (!ret)
		*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return ret;
}

int desc_parse_float(const char *text, int64_t *out)
{
	char *t = trimmed(text);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = dcm_fixed_from_string(t, out);
	free(t);
	return ret;
}

int desc_parse_fraction(const char *text, int64_t *num, uint32_t *den)
{
	char *t = trimmed(text);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = dcm_fraction_from_string(t, num, den);
	free(t);
	return ret;
}

int64_t desc_key_micro(const struct desc_key *k)
{
	uint64_t u;

	if (k->kind != LIBDCM_KEY_FLOAT || k->den <= 1)
		return k->num;
	u = k->num < 0 ? 0 - (uint64_t)k->num : (uint64_t)k->num;
	u = u / k->den + (u % k->den >= (k->den + 1) / 2);
	return k->num < 0 ? -(int64_t)u : (int64_t)u;
}

int desc_parse_bool(const char *text, int64_t *out)
{
	char *t = trimmed(text);
	int ret = 0;

	if (!t)
		return -ENOMEM;
	if (!strcmp(t, "true") || !strcmp(t, "1"))
		*out = 1;
	else if (!strcmp(t, "false") || !strcmp(t, "0"))
		*out = 0;
	else
		ret = -EINVAL;
	free(t);
	return ret;
}

/* ------------------------------------------------------------------
 * Key kinds
 */

static const char *const kind_names[] = {
	[LIBDCM_KEY_INT] = "int",
	[LIBDCM_KEY_FLOAT] = "float",
	[LIBDCM_KEY_BOOL] = "bool",
	[LIBDCM_KEY_STRING] = "string",
};

const char *desc_kind_name(int kind)
{
	return kind >= LIBDCM_KEY_INT && kind <= LIBDCM_KEY_STRING ? kind_names[kind] : "?";
}

int desc_kind_parse(const char *name)
{
	int k;

	for (k = LIBDCM_KEY_INT; k <= LIBDCM_KEY_STRING; k++)
		if (!strcmp(kind_names[k], name))
			return k;
	return -1;
}

/* ------------------------------------------------------------------
 * Model helpers
 */

void desc_key_clear(struct desc_key *k)
{
	free(k->name);
	free(k->str);
}

void desc_keys_free(struct desc_key *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		desc_key_clear(&keys[i]);
	free(keys);
}

void desc_free(struct desc *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n_devices; i++) {
		free(d->devices[i].name);
		free(d->devices[i].type);
		free(d->devices[i].bus);
		desc_keys_free(d->devices[i].keys, d->devices[i].n_keys);
	}
	for (i = 0; i < d->n_subdevices; i++) {
		free(d->subdevices[i].name);
		free(d->subdevices[i].type);
		free(d->subdevices[i].device);
		desc_keys_free(d->subdevices[i].keys, d->subdevices[i].n_keys);
	}
	desc_keys_free(d->robot, d->n_robot);
	for (i = 0; i < d->n_files; i++)
		free(d->files[i]);
	free(d->files);
	free(d->devices);
	free(d->subdevices);
	free(d);
}

struct desc_key *desc_find_key(struct desc_key *keys, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

struct desc_key *desc_find_robot_key(const struct desc *d, const char *path)
{
	return desc_find_key(d->robot, d->n_robot, path);
}

struct desc_subdevice *desc_find_subdevice(const struct desc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_subdevices; i++)
		if (!strcmp(d->subdevices[i].name, name))
			return &d->subdevices[i];
	return NULL;
}

struct desc_device *desc_find_device(const struct desc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_devices; i++)
		if (!strcmp(d->devices[i].name, name))
			return &d->devices[i];
	return NULL;
}

/* Append a key (moving @k in). Return 0 or -ENOMEM. */
int desc_keys_append(struct desc_key **keys, size_t *n, struct desc_key *k)
{
	struct desc_key *nk = realloc(*keys, (*n + 1) * sizeof(*nk));

	if (!nk)
		return -ENOMEM;
	*keys = nk;
	nk[(*n)++] = *k;
	memset(k, 0, sizeof(*k));
	return 0;
}

/* A key path into its element and key name. */
int desc_resolve_path(const struct desc *d, const char *path, struct desc_path *out)
{
	const char *rest, *slash;
	bool is_sub;
	char *elem;

	memset(out, 0, sizeof(*out));
	if (desc_starts(path, DCM_PREFIX_ROBOTCONFIG)) {
		out->robot = true;
		out->key = path;
		return path[strlen(DCM_PREFIX_ROBOTCONFIG)] ? 0 : -EINVAL;
	}
	if (desc_starts(path, DCM_PREFIX_SUBDEVICE)) {
		rest = path + strlen(DCM_PREFIX_SUBDEVICE);
		is_sub = true;
	} else if (desc_starts(path, DCM_PREFIX_DEVICE)) {
		rest = path + strlen(DCM_PREFIX_DEVICE);
		is_sub = false;
	} else {
		return -EINVAL;
	}
	slash = strrchr(rest, '/');
	if (!slash || slash == rest || !slash[1])
		return -EINVAL;
	out->key = slash + 1;
	elem = strndup(rest, (size_t)(slash - rest));
	if (!elem)
		return -ENOMEM;
	if (is_sub)
		out->sub = desc_find_subdevice(d, elem);
	else
		out->dev = desc_find_device(d, elem);
	free(elem);
	return 0;
}


/* ------------------------------------------------------------------
 * Summary
 */

void desc_print_summary(FILE *f, const struct desc *d)
{
	size_t i, keys = 0;
	bool first = true;

	for (i = 0; i < d->n_devices; i++)
		if (d->devices[i].kept)
			keys += d->devices[i].n_keys;
	for (i = 0; i < d->n_subdevices; i++)
		if (d->subdevices[i].kept)
			keys += d->subdevices[i].n_keys;
	fprintf(f, "files:");
	for (i = 0; i < d->n_files; i++)
		fprintf(f, " %s", d->files[i]);
	fprintf(f, "\ndevices: %zu of %zu\n", d->n_kept_devices, d->n_devices);
	fprintf(f, "subdevices: %zu of %zu\n", d->n_kept_subdevices, d->n_subdevices);
	fprintf(f, "keys: %zu, RobotConfig keys: %zu\n", keys, d->n_robot);
	fprintf(f, "preference keys: %zu applied, %zu ignored (dropped parts)\n",
		d->n_overrides, d->n_ignored);
	fprintf(f, "parts:");
	for (i = 0; i < PART_COUNT; i++)
		if (d->parts[i])
			fprintf(f, " %s", part_names[i]);
	fprintf(f, "\nabsent parts:");
	for (i = 0; i < PART_COUNT; i++) {
		if (!d->parts[i]) {
			fprintf(f, " %s", part_names[i]);
			first = false;
		}
	}
	fprintf(f, "%s\n", first ? " none" : "");
}

