// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: command line.
 */
#include <getopt.h>
#include <string.h>

#include "dcmd.h"

void dcmd_usage(FILE *f)
{
	fprintf(f,
		"Usage: dcmd [-f] [-v] [-p PIDFILE] [-c DEVICE_XML]\n"
		"       dcmd -h\n"
		"\n"
		"  -f             stay in the foreground (log to stderr too)\n"
		"  -v             verbose: log debug messages\n"
		"  -p PIDFILE     write the daemon's pid there (locked; removed on exit)\n"
		"  -c DEVICE_XML  robot description (checked to exist; not loaded yet)\n"
		"  -h             show this text\n");
}

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = getopt(argc, argv, ":fvp:c:h")) != -1) {
		switch (c) {
		case 'f':
			o->foreground = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'p':
			if (!*optarg) {
				snprintf(o->err, sizeof(o->err),
					 "option -p needs a file name");
				return DCMD_USAGE_ERROR;
			}
			o->pidfile = optarg;
			break;
		case 'c':
			if (!*optarg) {
				snprintf(o->err, sizeof(o->err),
					 "option -c needs a file name");
				return DCMD_USAGE_ERROR;
			}
			o->device_xml = optarg;
			break;
		case 'h':
			return DCMD_HELP;
		case ':':
			snprintf(o->err, sizeof(o->err),
				 "option -%c needs an argument", optopt);
			return DCMD_USAGE_ERROR;
		default:
			snprintf(o->err, sizeof(o->err),
				 "unknown option '-%c'", optopt);
			return DCMD_USAGE_ERROR;
		}
	}
	if (optind < argc) {
		snprintf(o->err, sizeof(o->err), "unexpected argument '%s'",
			 argv[optind]);
		return DCMD_USAGE_ERROR;
	}
	return DCMD_RUN;
}
