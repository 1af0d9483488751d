/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmd - the dcm daemon.
 */
#ifndef DCMD_H
#define DCMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "desc.h"
#include "ratelimit.h"

#define DCMD_EXIT_OK		0
#define DCMD_EXIT_FAIL		1
#define DCMD_EXIT_USAGE		2

/* Event log rate limit: at most this many lines per interval. */
#define DCMD_LOG_BURST		10
#define DCMD_LOG_INTERVAL_MS	1000

/* Where the description's files are by default (desc.h, files.c). */
#define DCMD_SHARE_DIR		DESC_SHARE_DIR
#define DCMD_ETC_DIR		DESC_ETC_DIR
#define DCMD_DEVICE_XML		DESC_DEVICE_XML
#define DCMD_MAIN_XML		"main.xml"
#define DCMD_BODY_XML		"body.xml"
#define DCMD_HEAD_XML		"head.xml"
#define DCMD_DEVICE_RNG		DESC_DEVICE_RNG
#define DCMD_PREFS_RNG		DESC_PREFS_RNG
/* -M / -b / -H argument that means "no preference file" */
#define DCMD_NO_FILE		DESC_NO_FILE

struct dcmd_opts {
	bool foreground;		/* -f */
	bool verbose;			/* -v */
	bool check_only;		/* -n: load and check, push nothing */
	bool list_keys;			/* -k (with -n): list the keys, no summary */
	bool once;			/* -1: load and push once, then exit */
	const char *pidfile;		/* -p, NULL if none */
	const char *device_xml;		/* -c, NULL: the default */
	const char *main_xml;		/* -M, NULL: the default */
	const char *body_xml;		/* -b, NULL: the default */
	const char *head_xml;		/* -H, NULL: the default */
	const char *schema_dir;		/* -S, NULL: the default */
	unsigned int index;		/* -i: controller */
	char err[256];
};

/*
 * Resolve the files of a load (desc_resolve_files()): -c or
 * SHARE/Device.xml; -b (DCMD_NO_FILE: none) or ETC/body.xml if it exists,
 * else SHARE/body.xml if it exists, else none (and @f->note says so); the
 * same for -H and head.xml, and for -M and main.xml (no note: a robot
 * without a main file is the usual case); the schemas in -S or SHARE.
 * @etc and @share are DCMD_ETC_DIR and DCMD_SHARE_DIR but for the tests.
 * Return: 0 or -ENAMETOOLONG.
 */
int dcmd_resolve_files(const struct dcmd_opts *o, const char *etc,
		       const char *share, struct desc_files *f);

enum dcmd_parse_result {
	DCMD_RUN,
	DCMD_HELP,
	DCMD_USAGE_ERROR,	/* err says why */
};

enum dcmd_parse_result dcmd_parse_args(int argc, char **argv,
				       struct dcmd_opts *o);
void dcmd_usage(FILE *f);

/*
 * Is stderr the journal ($JOURNAL_STREAM names its device and inode)? Then
 * dcmd logs there only, each line prefixed "<PRIO>", and not to syslog too.
 */
bool dcmd_stderr_is_journal(void);

/*
 * The prefix the journal reads as a line's priority: "<3>" for LOG_ERR
 * (sd-daemon(3)'s SD_ERR), ... "<7>" for LOG_DEBUG; SD_ERR for a @prio
 * that is none of syslog's.
 */
const char *dcmd_journal_prefix(int prio);

struct dcm_event_msg;

/*
 * The line logged for the event @e, dcm_event_format()'s (event.c), into
 * @buf of @len bytes; returns as it does. @numbered: the event follower
 * knew the controller's numbering before @e, so the events the kernel did
 * not send before @e (e->lost) are a gap it filled from the history or
 * counted as lost (struct dcm_event_follow): the line does not count them
 * again. Else (the first event from a kernel without a history) it does.
 */
int dcmd_event_line(const struct dcm_event_msg *e, bool numbered, char *buf, size_t len);

#endif /* DCMD_H */
