/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake sysfs tree of controllers for the unit tests (fake_sysfs.c).
 */
#ifndef FAKE_SYSFS_H
#define FAKE_SYSFS_H

/* Its root: a temporary directory holding dcm0 and dcm1. */
extern char fake_sysfs_root[64];

/* Write @value (and a newline, as sysfs does) to <root>/<rel>, mkdir -p; NULL: empty. */
void fake_sysfs_put(const char *rel, const char *value);

/* Build the tree in /tmp/@name.XXXXXX. Return 0 or -1. */
int fake_sysfs_setup(const char *name);

/* Remove it. Return 0 or the shell's status. */
int fake_sysfs_teardown(void);

#endif /* FAKE_SYSFS_H */
