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
#include "num.h"
#include "optdef.h"

/*
 * The options, once: getopt_long()'s tables and the help are made from
 * this table (common/optdef.h). An argument's help may use the defaults
 * below.
 */
static const struct optdef dcmd_opts_table[] = {
	{ "foreground", 'f', 0, NULL, "stay in the foreground (log to stderr too)" },
	{ "verbose", 'v', 0, NULL, "verbose: log debug messages" },
	{ "pidfile", 'p', 0, "PIDFILE", "write the daemon's pid there (locked; removed\non exit)" },
	{ "once", '1', 0, NULL, "load the description once, then exit 0/1 (no\ndaemon)" },
	{ "check", 'n', 0, NULL, "check only: load, validate and check the\n"
	  "description, print a summary, send nothing to\nthe kernel; exit 0/1" },
	{ "list-keys", 'k', 0, NULL, "with -n: list the keys of the checked\n"
	  "description instead of the summary, \"PATH VALUE\"\n"
	  "a line, as sysfs would hold them" },
	{ "device-xml", 'c', 0, "FILE", "robot description (default\n"
	  DCMD_SHARE_DIR "/" DCMD_DEVICE_XML ")" },
	{ "main-xml", 'M', 0, "FILE", "main preferences (default\n" DCMD_ETC_DIR "/" DCMD_MAIN_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_MAIN_XML "; '" DCMD_NO_FILE "': none)" },
	{ "body-xml", 'b', 0, "FILE", "chest preferences (default\n" DCMD_ETC_DIR "/" DCMD_BODY_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_BODY_XML "; '" DCMD_NO_FILE "': none)" },
	{ "head-xml", 'H', 0, "FILE", "head preferences (default\n" DCMD_ETC_DIR "/" DCMD_HEAD_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_HEAD_XML "; '" DCMD_NO_FILE "': none)" },
	{ "schemas", 'S', 0, "DIR", "where " DCMD_DEVICE_RNG " and " DCMD_PREFS_RNG
	  " are\n(default " DCMD_SHARE_DIR ")" },
	{ "index", 'i', 0, "INDEX", "controller to configure, dcmINDEX (default 0);\n"
	  "one dcmd per controller. The default preference\n"
	  "files of dcmN, N > 0, are in " DCMD_ETC_DIR "/dcmN, its\nsyslog ident is dcmd.N" },
	{ "help", 'h', 0, NULL, "show this text" },
	{ NULL, 0, 0, NULL, NULL }
};

void dcmd_usage(FILE *f)
{
	fprintf(f,
		"Usage: dcmd [-f] [-v] [-p PIDFILE] [-1 | -n [-k]] [-c DEVICE_XML]\n"
		"            [-M MAIN_XML] [-b BODY_XML] [-H HEAD_XML] [-S SCHEMA_DIR]\n"
		"            [-i INDEX] (or the long options below)\n"
		"       dcmd -h | --help\n"
		"\n");
	optdef_print(f, dcmd_opts_table, 25);
	fprintf(f,
		"\n"
		"--opt=VALUE is --opt VALUE. SIGHUP reloads the description; a failed\n"
		"reload keeps the running one. Exit status: 0 success, 1 failure, 2 usage\n"
		"error. See dcmd(8).\n");
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

#define N_OPTS (sizeof(dcmd_opts_table) / sizeof(dcmd_opts_table[0]))

/* -i's controller index: decimal digits up to INT_MAX. */
static int index_arg(struct dcmd_opts *o)
{
	unsigned long long v;

	if (num_parse_count(optarg, 0, INT_MAX, &v)) {
		snprintf(o->err, sizeof(o->err),
			 "option -i needs a controller index, not '%s'", optarg);
		return -1;
	}
	o->index = (unsigned int)v;
	return 0;
}

/*
 * The option @c getopt_long() returned, into @o: 0, -1 when its argument
 * is wrong (o->err says why), 1 when @c is not an option of the table
 * (':' or '?').
 */
static int take_option(struct dcmd_opts *o, int c)
{
	switch (c) {
	case 'f':
		o->foreground = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case 'n':
		o->check_only = true;
		return 0;
	case 'k':
		o->list_keys = true;
		return 0;
	case '1':
		o->once = true;
		return 0;
	case 'p':
		return file_arg(o, c, &o->pidfile);
	case 'c':
		return file_arg(o, c, &o->device_xml);
	case 'M':
		return file_arg(o, c, &o->main_xml);
	case 'b':
		return file_arg(o, c, &o->body_xml);
	case 'H':
		return file_arg(o, c, &o->head_xml);
	case 'S':
		if (!*optarg) {
			snprintf(o->err, sizeof(o->err), "option -S needs a directory");
			return -1;
		}
		o->schema_dir = optarg;
		return 0;
	case 'i':
		return index_arg(o);
	default:
		return 1;
	}
}

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o)
{
	struct option longopts[N_OPTS];
	char shortopts[2 * N_OPTS + 2];
	int c;

	memset(o, 0, sizeof(*o));
	if (optdef_getopt(dcmd_opts_table, ":", longopts, shortopts, sizeof(shortopts))) {
		snprintf(o->err, sizeof(o->err), "the option table does not fit");
		return DCMD_USAGE_ERROR;
	}
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	while ((c = optdef_next(dcmd_opts_table, argc, argv, shortopts, longopts, o->err,
				sizeof(o->err))) != -1) {
		if (c == '?')
			return DCMD_USAGE_ERROR;
		if (c == 'h')
			return DCMD_HELP;
		if (take_option(o, c))
			return DCMD_USAGE_ERROR;
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
