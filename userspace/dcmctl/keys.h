/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl list, get, tree (keys.c): the commands, writing to @out and @err
 * (their run functions, which the unit tests call too).
 */
#ifndef DCMCTL_KEYS_H
#define DCMCTL_KEYS_H

#include <stdio.h>

#include "cmd.h"

int dcmctl_list(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_get(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_tree(const struct dcmctl_opts *o, FILE *out, FILE *err);

#endif /* DCMCTL_KEYS_H */
