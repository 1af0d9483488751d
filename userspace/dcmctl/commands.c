// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl: the command table. Each command (its name, synopsis, text,
 * options and run function) is defined in its own file; this lists them,
 * in the order of dcmctl --help, and is the only place that knows them all.
 */
#include <stddef.h>

#include "cmd.h"
#include "commands.h"

const struct dcmctl_command *const dcmctl_commands[] = {
	&dcmctl_cmd_info,
	&dcmctl_cmd_list,
	&dcmctl_cmd_get,
	&dcmctl_cmd_tree,
	&dcmctl_cmd_set,
	&dcmctl_cmd_alias,
	&dcmctl_cmd_time,
	&dcmctl_cmd_watch,
	&dcmctl_cmd_record,
	&dcmctl_cmd_flight,
	&dcmctl_cmd_flight_dump,
	&dcmctl_cmd_stats,
	&dcmctl_cmd_top,
	&dcmctl_cmd_events,
	&dcmctl_cmd_preferences,
	&dcmctl_cmd_calibrate,
	&dcmctl_cmd_special,
	&dcmctl_cmd_help,
	NULL
};
