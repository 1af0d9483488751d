// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: command line, and where the description's files are.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcmd.h"

void dcmd_usage(FILE *f)
{
	fprintf(f,
		"Usage: dcmd [-f] [-v] [-p PIDFILE] [-1 | -n [-k]] [-c DEVICE_XML] [-M MAIN_XML]\n"
		"            [-b BODY_XML] [-H HEAD_XML] [-S SCHEMA_DIR] [-i INDEX]\n"
		"       dcmd -h\n"
		"\n"
		"  -f             stay in the foreground (log to stderr too)\n"
		"  -v             verbose: log debug messages\n"
		"  -p PIDFILE     write the daemon's pid there (locked; removed on exit)\n"
		"  -1             load the description once, then exit 0/1 (no daemon)\n"
		"  -n             check only: load, validate and check the description,\n"
		"                 print a summary, send nothing to the kernel; exit 0/1\n"
		"  -k             with -n: list the keys of the checked description instead\n"
		"                 of the summary, \"PATH VALUE\" a line, as sysfs would hold them\n"
		"  -c DEVICE_XML  robot description (default " DCMD_SHARE_DIR "/" DCMD_DEVICE_XML ")\n"
		"  -M MAIN_XML    main preferences (default " DCMD_ETC_DIR "/" DCMD_MAIN_XML
		" if present,\n"
		"                 else " DCMD_SHARE_DIR "/" DCMD_MAIN_XML "; '" DCMD_NO_FILE "': none)\n"
		"  -b BODY_XML    chest preferences (default " DCMD_ETC_DIR "/" DCMD_BODY_XML
		" if present,\n"
		"                 else " DCMD_SHARE_DIR "/" DCMD_BODY_XML "; '" DCMD_NO_FILE "': none)\n"
		"  -H HEAD_XML    head preferences (default " DCMD_ETC_DIR "/" DCMD_HEAD_XML
		" if present,\n"
		"                 else " DCMD_SHARE_DIR "/" DCMD_HEAD_XML "; '" DCMD_NO_FILE "': none)\n"
		"  -S SCHEMA_DIR  where " DCMD_DEVICE_RNG " and " DCMD_PREFS_RNG " are (default "
		DCMD_SHARE_DIR ")\n"
		"  -i INDEX       controller to configure, dcmINDEX (default 0); one dcmd per\n"
		"                 controller. The default preference files of dcmN, N > 0,\n"
		"                 are in " DCMD_ETC_DIR "/dcmN, its syslog ident is dcmd.N\n"
		"  -h             show this text\n"
		"\n"
		"SIGHUP reloads the description; a failed reload keeps the running one.\n");
}

static int file_arg(struct dcmd_opts *o, int c, const char **dst)
{
	if (!*optarg) {
		snprintf(o->err, sizeof(o->err), "option -%c needs a file name", c);
		return -1;
	}
	*dst = optarg;
	return 0;
}

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o)
{
	unsigned long v;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = getopt(argc, argv, ":fvp:c:M:b:H:S:i:nk1h")) != -1) {
		switch (c) {
		case 'f':
			o->foreground = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'n':
			o->check_only = true;
			break;
		case 'k':
			o->list_keys = true;
			break;
		case '1':
			o->once = true;
			break;
		case 'p':
			if (file_arg(o, c, &o->pidfile))
				return DCMD_USAGE_ERROR;
			break;
		case 'c':
			if (file_arg(o, c, &o->device_xml))
				return DCMD_USAGE_ERROR;
			break;
		case 'M':
			if (file_arg(o, c, &o->main_xml))
				return DCMD_USAGE_ERROR;
			break;
		case 'b':
			if (file_arg(o, c, &o->body_xml))
				return DCMD_USAGE_ERROR;
			break;
		case 'H':
			if (file_arg(o, c, &o->head_xml))
				return DCMD_USAGE_ERROR;
			break;
		case 'S':
			if (!*optarg) {
				snprintf(o->err, sizeof(o->err),
					 "option -S needs a directory");
				return DCMD_USAGE_ERROR;
			}
			o->schema_dir = optarg;
			break;
		case 'i':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || errno ||
			    v > INT_MAX) {
				snprintf(o->err, sizeof(o->err),
					 "option -i needs a controller index, not '%s'",
					 optarg);
				return DCMD_USAGE_ERROR;
			}
			o->index = (unsigned int)v;
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
	if (o->check_only && o->once) {
		snprintf(o->err, sizeof(o->err), "-n and -1 exclude each other");
		return DCMD_USAGE_ERROR;
	}
	if (o->list_keys && !o->check_only) {
		snprintf(o->err, sizeof(o->err), "-k needs -n");
		return DCMD_USAGE_ERROR;
	}
	return DCMD_RUN;
}

int dcmd_resolve_files(const struct dcmd_opts *o, const char *etc,
		       const char *share, struct desc_files *f)
{
	struct desc_paths p = {
		.device_xml = o->device_xml,
		.prefs = { [DESC_MAIN] = o->main_xml, [DESC_CHEST] = o->body_xml,
			   [DESC_HEAD] = o->head_xml },
		.schema_dir = o->schema_dir,
		.etc = etc,
		.share = share,
	};

	return desc_resolve_files(&p, f);
}
