/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcm-flight's options that dcmctl flight and flight-dump take too: one
 * text for dcm-flight's table (args.c) and dcmctl's (dcmctl/flight.c),
 * each with its own getopt value @val. In rec/, below both programs.
 */
#ifndef REC_FLIGHT_OPTS_H
#define REC_FLIGHT_OPTS_H

#define FLIGHT_DIR		"/var/lib/dcm/flight"

#define FLIGHT_OPTDEF_SECONDS \
	{ "seconds", 's', 's', "SEC", "keep the last SEC seconds (default 10)" }
#define FLIGHT_OPTDEF_AFTER(val) \
	{ "after", 0, (val), "SEC", "and SEC seconds after a safety event (default 2)" }
#define FLIGHT_OPTDEF_DIR \
	{ "dir", 'D', 'D', "DIR", "its files and pid file (default " FLIGHT_DIR ")" }
#define FLIGHT_OPTDEF_KEEP(val) \
	{ "keep", 0, (val), "N", "keep the newest N files (default 20; 0: all)" }
#define FLIGHT_OPTDEF_FORMAT \
	{ "format", 'f', 'f', "FORMAT", "its files: jsonl (default) or mcap" }
#define FLIGHT_OPTDEF_TIMEOUT(val) \
	{ "timeout", 0, (val), "SEC", "wait SEC s for the file (default 10)" }

#endif /* REC_FLIGHT_OPTS_H */
