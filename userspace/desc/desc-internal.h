/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The robot description's internals, shared by its files and by no one
 * else: the state of a load in progress (load.c), which the rules of
 * parts.c work on, and the model's helpers (model.c).
 */
#ifndef DCM_DESC_INTERNAL_H
#define DCM_DESC_INTERNAL_H

#include <string.h>

#include <libxml/relaxng.h>

#include "desc.h"

/* The files of a load: Device.xml, then the preferences of each target. */
enum file_role { ROLE_DEVICE, ROLE_MAIN, ROLE_CHEST, ROLE_HEAD, N_ROLES };

/* A key of a preference file, as read. */
struct pref_key {
	char *path;
	struct desc_key key;	/* name unused */
};

struct pref_file {
	const char *file;	/* in struct desc.files */
	bool wrong_target;	/* its Target is another file's */
	struct pref_key *keys;
	size_t n_keys;
};

/* A load in progress. */
struct loader {
	const struct desc_opts *o;
	struct desc_errors *errs;
	struct desc *d;
	bool oom;
	struct pref_file prefs[DESC_N_TARGETS];
	struct {
		const char *path;
		xmlRelaxNGPtr schema;
	} schemas[2];			/* compiled once per load */
	size_t n_schemas;
};

/* @s starts with @prefix. */
static inline bool desc_starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* report.c: a message to the opts' log, if any. */
void desc_logf(struct loader *l, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* report.c: an error at @src: "FILE:LINE: message" ("FILE: message" without a line). */
void desc_errf(struct loader *l, const struct desc_src *src, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* report.c: strdup(), @l->oom set on failure. */
char *desc_xstrdup(struct loader *l, const char *s);

/* model.c */
int desc_part_from_name(const char *s);
void desc_key_clear(struct desc_key *k);
void desc_keys_free(struct desc_key *keys, size_t n);
/* Append a key (moving @k in). Return 0 or -ENOMEM. */
int desc_keys_append(struct desc_key **keys, size_t *n, struct desc_key *k);

/* parts.c: the steps of a load after the files are read, in this order. */
void desc_check_owners(struct loader *l);
void desc_merge_robot_keys(struct loader *l);
void desc_decide_parts(struct loader *l);
void desc_check_names(struct loader *l);
void desc_filter(struct loader *l);
void desc_apply_pref_key(struct loader *l, struct pref_key *pk);
void desc_check_min_max(struct loader *l);

#endif /* DCM_DESC_INTERNAL_H */
