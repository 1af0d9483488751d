/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl's commands: each defined in its own file, listed once in
 * dcmctl_commands[] (commands.c), the table main.c dispatches through.
 */
#ifndef DCMCTL_COMMANDS_H
#define DCMCTL_COMMANDS_H

#include "cmd.h"

/* info.c */
extern const struct dcmctl_command dcmctl_cmd_info;
/* keys.c */
extern const struct dcmctl_command dcmctl_cmd_list;
extern const struct dcmctl_command dcmctl_cmd_get;
extern const struct dcmctl_command dcmctl_cmd_tree;
/* timed.c */
extern const struct dcmctl_command dcmctl_cmd_set;
extern const struct dcmctl_command dcmctl_cmd_alias;
extern const struct dcmctl_command dcmctl_cmd_time;
/* watch.c */
extern const struct dcmctl_command dcmctl_cmd_watch;
extern const struct dcmctl_command dcmctl_cmd_stats;
/* record.c */
extern const struct dcmctl_command dcmctl_cmd_record;
extern const struct dcmctl_command dcmctl_cmd_flight;
extern const struct dcmctl_command dcmctl_cmd_flight_dump;
/* top.c */
extern const struct dcmctl_command dcmctl_cmd_top;
/* events.c */
extern const struct dcmctl_command dcmctl_cmd_events;
/* prefs.c */
extern const struct dcmctl_command dcmctl_cmd_preferences;
/* special.c */
extern const struct dcmctl_command dcmctl_cmd_calibrate;
extern const struct dcmctl_command dcmctl_cmd_special;
/* help.c */
extern const struct dcmctl_command dcmctl_cmd_help;

/* The commands, in the order dcmctl --help lists them; NULL-terminated. */
extern const struct dcmctl_command *const dcmctl_commands[];

#endif /* DCMCTL_COMMANDS_H */
