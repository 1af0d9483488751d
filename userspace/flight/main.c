// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-flight: the flight recorder (Documentation/man/dcm-flight.8), or,
 * with --dump, a file asked of the recorder that runs.
 */
#include <stdio.h>

#include "flight.h"

int main(int argc, char **argv)
{
	struct flight_args a;
	char err[512];

	if (flight_parse_args(argc, argv, &a, err, sizeof(err))) {
		fprintf(stderr, "dcm-flight: %s (dcm-flight --help: the options)\n", err);
		return FLIGHT_EXIT_USAGE;
	}
	if (a.help) {
		flight_usage(stdout);
		return FLIGHT_EXIT_OK;
	}
	if (a.version) {
		printf("dcm-flight %s\n", dcm_lib_version());
		return FLIGHT_EXIT_OK;
	}
	if (a.dump)
		return flight_dump_run(&a, stdout, stderr);
	return flight_run(&a);
}
