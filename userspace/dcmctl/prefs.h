/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl preferences (prefs.c): NAOqi's Save, Load and Add.
 */
#ifndef DCMCTL_PREFS_H
#define DCMCTL_PREFS_H

#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "desc.h"

enum dcmctl_prefs_action {
	DCMCTL_PREFS_SAVE,
	DCMCTL_PREFS_LOAD,
	DCMCTL_PREFS_ADD,
};

/* dcmctl preferences ACTION TARGET [KEY VALUE] [options] */
struct dcmctl_prefs_args {
	enum dcmctl_prefs_action action;
	bool all;			/* target All */
	int target;			/* enum desc_target; -1 with all */
	const char *file;		/* --file: the target's file */
	const char *key, *value;	/* add */
	const char *type;		/* add --type */
	/* --device-xml, --schemas, --etc, --share (prefs unused) */
	struct desc_paths paths;
};

/*
 * Parse what follows "preferences". ACTION: save, load, add (any case);
 * TARGET: Main, Chest, Head, All (any case; not All for add). Return 0 or
 * -EINVAL with @err.
 */
int dcmctl_parse_prefs(int argc, char **argv, struct dcmctl_prefs_args *a, char *err,
		       size_t errlen);

/*
 * The file target @t is read from (@from, "" for none: a new file) and
 * written to (@to) by save and add: --file (read if it exists), else the
 * file dcmd would load (ETC's, else SHARE's, else none) and ETC/<file>.
 * Return 0 or -ENAMETOOLONG, -ENOMEM.
 */
int dcmctl_prefs_paths(const struct dcmctl_prefs_args *a, int t, char *from, size_t fromlen,
		       char *to, size_t tolen);

/* The files of a load (and of save's reading): dcmd's defaults, --file for the target's. */
int dcmctl_prefs_load_files(const struct dcmctl_prefs_args *a, struct desc_files *f);

/*
 * Is @path (a full key path) one preferences add may write, as far as the
 * RobotConfig Device keys go? 0, or -EINVAL with why (and the nearest
 * known keys) on @err.
 */
int dcmctl_prefs_known_robot_key(const char *path, FILE *err);

int dcmctl_preferences(const struct dcmctl_opts *o, FILE *out, FILE *err);

#endif /* DCMCTL_PREFS_H */
