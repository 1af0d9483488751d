// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl help [COMMAND]: the help of dcmctl (dcmctl --help), or of one
 * command (COMMAND --help), from the table the command line was parsed
 * with (o->commands).
 */
#include <stdio.h>

#include "cmd.h"
#include "commands.h"

static int run_help(const struct dcmctl_opts *o)
{
	const struct dcmctl_command *c;
	char err[256];
	int n;

	if (dcmctl_plain_args(o, "help", 1, &n, stderr))
		return DCMCTL_EXIT_USAGE;
	if (o->json) {
		fprintf(stderr, "dcmctl: help: -j: the help is text only\n");
		return DCMCTL_EXIT_USAGE;
	}
	if (!n) {
		dcmctl_usage(stdout, o->commands);
		return DCMCTL_EXIT_OK;
	}
	c = dcmctl_find_cmd(o->commands, o->argv[0], err, sizeof(err));
	if (!c) {
		fprintf(stderr, "dcmctl: help: %s\n", err);
		return DCMCTL_EXIT_USAGE;
	}
	dcmctl_cmd_usage(stdout, c);
	return DCMCTL_EXIT_OK;
}

const struct dcmctl_command dcmctl_cmd_help = {
	.name = "help",
	.run = run_help,
	.args = "[COMMAND]",
	.help = "this text, or a command's (as COMMAND --help)",
};
