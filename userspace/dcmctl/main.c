// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl - command-line tool for the dcm driver: the command line parsed
 * (args.c) against the command table (commands.c), and the command run.
 */
#include <stdio.h>

#include "libdcm.h"
#include "cmd.h"
#include "commands.h"

int main(int argc, char **argv)
{
	struct dcmctl_opts o;
	int ret;

	switch (dcmctl_parse_args(dcmctl_commands, argc, argv, &o)) {
	case DCMCTL_HELP:
		dcmctl_usage(stdout, dcmctl_commands);
		return DCMCTL_EXIT_OK;
	case DCMCTL_VERSION:
		printf("dcmctl %s (libdcm %s, kernel ABI %d.%d)\n",
		       LIBDCM_VERSION, dcm_lib_version(), LIBDCM_ABI_MAJOR,
		       LIBDCM_ABI_MINOR);
		return DCMCTL_EXIT_OK;
	case DCMCTL_USAGE_ERROR:
		fprintf(stderr, "dcmctl: %s\n", o.err);
		dcmctl_usage(stderr, dcmctl_commands);
		return DCMCTL_EXIT_USAGE;
	case DCMCTL_CMD_HELP:
		dcmctl_cmd_usage(stdout, o.cmd);
		return DCMCTL_EXIT_OK;
	case DCMCTL_RUN:
		break;
	}
	ret = o.cmd->run(&o, stdout, stderr);
	if (ret == DCMCTL_EXIT_USAGE)
		fprintf(stderr, "Try 'dcmctl %s --help'.\n", o.cmd->name);
	return ret;
}
