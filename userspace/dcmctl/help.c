// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl help [COMMAND]: the help of dcmctl (dcmctl --help), or of one
 * command (COMMAND --help), from the table the command line was parsed
 * with (o->commands).
 */
#include <stdio.h>

#include "cmd.h"
#include "commands.h"

static int run_help(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const struct dcmctl_command *c;
	char why[256];
	int n;

	if (dcmctl_plain_args(o, "help", 1, &n, err))
		return DCMCTL_EXIT_USAGE;
	if (o->json) {
		fprintf(err, "dcmctl: help: -j: the help is text only\n");
		return DCMCTL_EXIT_USAGE;
	}
	if (!n) {
		dcmctl_usage(out, o->commands);
		return DCMCTL_EXIT_OK;
	}
	c = dcmctl_find_cmd(o->commands, o->argv[0], why, sizeof(why));
	if (!c) {
		fprintf(err, "dcmctl: help: %s\n", why);
		return DCMCTL_EXIT_USAGE;
	}
	dcmctl_cmd_usage(out, c);
	return DCMCTL_EXIT_OK;
}

const struct dcmctl_command dcmctl_cmd_help = {
	.name = "help",
	.run = run_help,
	.args = "[COMMAND]",
	.help = "this text, or a command's (as COMMAND --help)",
};
