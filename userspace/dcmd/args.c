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

/*
 * The options, once: getopt_long()'s tables and the help are made from
 * this table. An argument's help may use the defaults below.
 */
struct dcmd_optdef {
	char letter;
	const char *name;
	const char *arg;	/* NULL: a flag */
	const char *help;
};

static const struct dcmd_optdef dcmd_opts_table[] = {
	{ 'f', "foreground", NULL, "stay in the foreground (log to stderr too)" },
	{ 'v', "verbose", NULL, "verbose: log debug messages" },
	{ 'p', "pidfile", "PIDFILE", "write the daemon's pid there (locked; removed\non exit)" },
	{ '1', "once", NULL, "load the description once, then exit 0/1 (no\ndaemon)" },
	{ 'n', "check", NULL, "check only: load, validate and check the\n"
	  "description, print a summary, send nothing to\nthe kernel; exit 0/1" },
	{ 'k', "list-keys", NULL, "with -n: list the keys of the checked\n"
	  "description instead of the summary, \"PATH VALUE\"\n"
	  "a line, as sysfs would hold them" },
	{ 'c', "device-xml", "FILE", "robot description (default\n"
	  DCMD_SHARE_DIR "/" DCMD_DEVICE_XML ")" },
	{ 'M', "main-xml", "FILE", "main preferences (default\n" DCMD_ETC_DIR "/" DCMD_MAIN_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_MAIN_XML "; '" DCMD_NO_FILE "': none)" },
	{ 'b', "body-xml", "FILE", "chest preferences (default\n" DCMD_ETC_DIR "/" DCMD_BODY_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_BODY_XML "; '" DCMD_NO_FILE "': none)" },
	{ 'H', "head-xml", "FILE", "head preferences (default\n" DCMD_ETC_DIR "/" DCMD_HEAD_XML
	  " if present, else\n" DCMD_SHARE_DIR "/" DCMD_HEAD_XML "; '" DCMD_NO_FILE "': none)" },
	{ 'S', "schemas", "DIR", "where " DCMD_DEVICE_RNG " and " DCMD_PREFS_RNG
	  " are\n(default " DCMD_SHARE_DIR ")" },
	{ 'i', "index", "INDEX", "controller to configure, dcmINDEX (default 0);\n"
	  "one dcmd per controller. The default preference\n"
	  "files of dcmN, N > 0, are in " DCMD_ETC_DIR "/dcmN, its\nsyslog ident is dcmd.N" },
	{ 'h', "help", NULL, "show this text" },
	{ 0, NULL, NULL, NULL }
};

void dcmd_usage(FILE *f)
{
	const struct dcmd_optdef *d;

	fprintf(f,
		"Usage: dcmd [-f] [-v] [-p PIDFILE] [-1 | -n [-k]] [-c DEVICE_XML]\n"
		"            [-M MAIN_XML] [-b BODY_XML] [-H HEAD_XML] [-S SCHEMA_DIR]\n"
		"            [-i INDEX] (or the long options below)\n"
		"       dcmd -h | --help\n"
		"\n");
	for (d = dcmd_opts_table; d->name; d++) {
		char head[48];
		const char *h = d->help, *nl;

		snprintf(head, sizeof(head), "-%c, --%s%s%s", d->letter, d->name,
			 d->arg ? " " : "", d->arg ? d->arg : "");
		fprintf(f, "  %-25s ", head);
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n  %-25s ", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
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

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o)
{
	struct option longopts[N_OPTS];
	char shortopts[2 * N_OPTS + 2];
	unsigned long v;
	size_t i, off = 0;
	char *end;
	int c, before;

	memset(o, 0, sizeof(*o));
	memset(longopts, 0, sizeof(longopts));
	shortopts[off++] = ':';
	for (i = 0; dcmd_opts_table[i].name; i++) {
		longopts[i].name = dcmd_opts_table[i].name;
		longopts[i].has_arg = dcmd_opts_table[i].arg ? required_argument : no_argument;
		longopts[i].val = dcmd_opts_table[i].letter;
		shortopts[off++] = dcmd_opts_table[i].letter;
		if (dcmd_opts_table[i].arg)
			shortopts[off++] = ':';
	}
	shortopts[off] = '\0';
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	for (;;) {
		before = optind ? optind : 1;
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1)
			break;
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
			if (before < argc && !strncmp(argv[before], "--", 2))
				snprintf(o->err, sizeof(o->err),
					 "option '%s' needs an argument", argv[before]);
			else
				snprintf(o->err, sizeof(o->err),
					 "option -%c needs an argument", optopt);
			return DCMD_USAGE_ERROR;
		default:
			if (before < argc && !strncmp(argv[before], "--", 2))
				snprintf(o->err, sizeof(o->err),
					 "unknown option '%s'", argv[before]);
			else
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
