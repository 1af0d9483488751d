/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl - command-line tool for the dcm driver (ip/ethtool style).
 */
#ifndef DCMCTL_H
#define DCMCTL_H

#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "libdcm.h"
#include "desc.h"
#include "json.h"
#include "optdef.h"

/* Exit codes */
#define DCMCTL_EXIT_OK		0
#define DCMCTL_EXIT_FAIL	1	/* the command ran and something failed */
#define DCMCTL_EXIT_USAGE	2	/* bad command line */

struct dcmctl_opts;
struct dcmctl_optspec;

/*
 * A command: its name, what runs it, and what its help, its usage errors
 * and the option scan are made of (its synopsis, its text, its options).
 */
struct dcmctl_cmd {
	const char *name;
	/*
	 * Runs the command; o->argc/o->argv hold its arguments. Returns an
	 * exit code.
	 */
	int (*run)(const struct dcmctl_opts *o);
	const char *args;	/* argument synopsis, "" if none */
	const char *help;	/* one line (or a few), for dcmctl --help */
	const char *details;	/* more, for COMMAND --help; NULL: none */
	const struct dcmctl_optspec *spec;	/* its options; NULL: none */
};

/* The command table, NULL-terminated (args.c). */
extern const struct dcmctl_cmd dcmctl_commands[];

/* Where the controllers' sysfs directories are (-r, $DCM_SYSFS_ROOT). */
#define DCMCTL_SYSFS_ROOT	LIBDCM_SYSFS_ROOT

struct dcmctl_opts {
	bool json;
	bool pretty;
	const char *device;		/* -d as given, NULL if none */
	const char *root;		/* -r as given, NULL if none */
	char devpath[256];		/* resolved device node */
	long dev_index;			/* controller index, -1 if unknown */
	const struct dcmctl_cmd *cmd;
	int argc;			/* arguments after the command name */
	char **argv;
	char err[256];			/* why parsing failed */
};

enum dcmctl_parse_result {
	DCMCTL_RUN,		/* run o->cmd */
	DCMCTL_HELP,		/* -h: usage to stdout, exit 0 */
	DCMCTL_VERSION,		/* -V: version to stdout, exit 0 */
	DCMCTL_USAGE_ERROR,	/* o->err says why; usage to stderr, exit 2 */
	DCMCTL_CMD_HELP,	/* COMMAND --help: o->cmd's help to stdout, exit 0 */
};

/*
 * Parse the global options and find the command. Does not print. Uses
 * getopt_long() (resets it first) up to the command; after it, the global
 * options (-d, -r, -j, -p) are taken out of the command's arguments
 * wherever they are (before "--"), and -h/--help asks for the command's
 * help. @argv is reordered in place: o->argv is what the command gets.
 */
enum dcmctl_parse_result dcmctl_parse_args(int argc, char **argv,
					   struct dcmctl_opts *o);

/*
 * Find a command by exact name or unique prefix. On failure returns NULL
 * and writes the reason to @err.
 */
const struct dcmctl_cmd *dcmctl_find_cmd(const char *name, char *err,
					 size_t errlen);

/*
 * Resolve -d: NULL -> /dev/dcm0; "N" or "dcmN" -> /dev/dcmN; a path is
 * kept. @index gets N when the name tells it, else -1.
 * Return: 0, or -EINVAL for an empty or over-long name.
 */
int dcmctl_resolve_device(const char *arg, char *path, size_t len,
			  long *index);

void dcmctl_usage(FILE *f);

/*
 * The arguments of command @cmd, which has no options of its own: "--"
 * taken out, any other option refused, at most @max arguments, left in
 * o->argv (in order) and their count in *@n. On a usage error says why on
 * @err and returns -EINVAL; -ENOMEM.
 */
int dcmctl_plain_args(const struct dcmctl_opts *o, const char *cmd, int max, int *n,
		      FILE *err);

/* COMMAND --help, help COMMAND: @c's synopsis, text and options. */
void dcmctl_cmd_usage(FILE *f, const struct dcmctl_cmd *c);

/* ------------------------------------------------------------------
 * The options of a subcommand (opts.c): one getopt_long() loop for all
 */

/* A subcommand's option table and its rules. */
struct dcmctl_optspec {
	const char *cmd;		/* names it in messages: "set", "alias set" */
	const struct optdef *opts;	/* NULL: none; its val: what dcmctl_getopt() returns */
	bool numbers;			/* "-1", "-.5" are arguments, not options */
	bool long_only;			/* only "--name" is an option; "-x" is an argument */
	bool in_order;			/* options only before the first argument */
	bool no_empty;			/* an empty option argument is a missing one */
	bool prefix_missing;		/* "CMD: option '--x' needs an argument" */
};

/* The long options' values (optdef.val) beyond the letters. */
enum {
	DCMCTL_OPT_KIND = 0x100,
	DCMCTL_OPT_IMPORTANCE,
	DCMCTL_OPT_AT,
	DCMCTL_OPT_IN,
	DCMCTL_OPT_TIMES,
	DCMCTL_OPT_SEPARATE,
	DCMCTL_OPT_MIXED,
	DCMCTL_OPT_TIMEOUT,
	DCMCTL_OPT_FILE,
	DCMCTL_OPT_TYPE,
	DCMCTL_OPT_DEVICE_XML,
	DCMCTL_OPT_SCHEMAS,
	DCMCTL_OPT_ETC,
	DCMCTL_OPT_SHARE,
	DCMCTL_OPT_FORCE,
	DCMCTL_OPT_TOLERANCE,
	DCMCTL_OPT_HISTORY,
	DCMCTL_OPT_MAX_SIZE,
	DCMCTL_OPT_MAX_FILES,
	DCMCTL_OPT_AFTER,
	DCMCTL_OPT_DIR,
	DCMCTL_OPT_KEEP,
};

/* The option tables of the commands (args.c). */
extern const struct dcmctl_optspec dcmctl_spec_get, dcmctl_spec_set, dcmctl_spec_alias_set,
	dcmctl_spec_alias_create, dcmctl_spec_watch, dcmctl_spec_events,
	dcmctl_spec_preferences, dcmctl_spec_calibrate, dcmctl_spec_top, dcmctl_spec_record,
	dcmctl_spec_flight, dcmctl_spec_flight_dump;

/* A scan of a subcommand's arguments. */
struct dcmctl_getopt {
	const struct dcmctl_optspec *spec;
	const char *optarg;		/* the last option's argument; NULL: none */
	char **args;			/* the arguments, in order (into argv) */
	int n_args;
	/* private */
	int argc;
	char **v;
	struct option *longopts;	/* built from spec->opts */
	char *shortopts;		/* "+:" and the letters */
	bool end;
};

/*
 * Start scanning @argc/@argv (what follows the subcommand's name) by
 * @spec's rules. Return 0 or -ENOMEM. Free with dcmctl_getopt_free().
 */
int dcmctl_getopt_init(struct dcmctl_getopt *g, const struct dcmctl_optspec *spec, int argc,
		       char **argv);
void dcmctl_getopt_free(struct dcmctl_getopt *g);

/*
 * The next option: its value (getopt_long()'s: the letter or the long
 * option's val), its argument in @g->optarg; the arguments met on the way
 * are added to @g->args. Return: the option (> 0), 0 at the end, -EINVAL
 * (an unknown option, a missing argument: the reason in @err).
 */
int dcmctl_getopt(struct dcmctl_getopt *g, char *err, size_t errlen);

/* Output helpers (info.c), exposed for the unit tests. */
void dcmctl_format_flags(uint32_t flags, char *buf, size_t len);
void dcmctl_print_info_text(FILE *f, const struct dcm_info *info);
void dcmctl_json_info(struct json_writer *w, const struct dcm_info *info);

int dcmctl_cmd_info(const struct dcmctl_opts *o);

/* Events of the group "events", live (events.c). */
struct dcmctl_events_args {
	uint64_t count;		/* stop after that many shown; 0: never */
	long timeout_ms;	/* stop after that long; -1: never */
	uint32_t types;		/* bit per enum dcm_event_type shown; 0: all */
	bool history;		/* --history: the kernel's last events first */
};

/*
 * dcmctl events [--type TYPE,...] [--count N] [--timeout SEC]. Return: 0,
 * or -EINVAL (the reason in @err), -ENOMEM.
 */
int dcmctl_parse_events(int argc, char **argv, struct dcmctl_events_args *a, char *err,
			size_t errlen);
int dcmctl_cmd_events(const struct dcmctl_opts *o);

/* An event's members as events -j prints them, in the object @key it opens (left open). */
void dcmctl_json_event(struct json_writer *w, const char *key, const struct dcm_event_msg *e);
int dcmctl_events(const struct dcmctl_opts *o, FILE *out, FILE *err);

/* Recording the frames (record.c). */
#define DCMCTL_REC_CSV		0
#define DCMCTL_REC_JSONL	1

/* dcmctl record [KEY|GLOB...] [options] */
struct dcmctl_record_args {
	size_t n;
	char **keys;			/* malloc'ed, into argv; none: every subdevice */
	uint64_t every;			/* a row every N cycles, 1 by default */
	uint64_t cycles;		/* stop after N cycles; 0: never */
	double duration;		/* stop after SEC s of DCM time; 0: never */
	const char *output;		/* -o FILE; NULL: stdout */
	uint64_t max_size;		/* rotate past that many bytes; 0: never */
	unsigned int max_files;		/* files kept, the current one included */
	int fmt;			/* DCMCTL_REC_* */
	bool fmt_given;
};

/*
 * Parse what follows "record". Return 0, or -EINVAL (the reason in @err),
 * -ENOMEM. Free with dcmctl_record_args_free().
 */
int dcmctl_parse_record(int argc, char **argv, struct dcmctl_record_args *a, char *err,
			size_t errlen);
void dcmctl_record_args_free(struct dcmctl_record_args *a);
int dcmctl_record(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_cmd_record(const struct dcmctl_opts *o);

/* ------------------------------------------------------------------
 * The frames, read by a thread of their own into a ring (frames.c)
 */

/* The wall clock, in seconds since the epoch. */
double dcmctl_wall_now(void);

/* One frame in the ring: its cycle, DCM time, description, wall clock. */
struct dcmctl_ring_slot {
	uint64_t cycle;
	uint32_t time;
	uint32_t generation;
	size_t n;		/* values stored, at most the ring's width */
	double wall;
};

/* The ring and its reader thread. */
struct dcmctl_ring {
	struct dcm *dcm;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t slots, width;
	struct dcmctl_ring_slot *meta;
	double *values;		/* slots * width */
	uint64_t head, tail;	/* frames stored, frames taken (or overwritten) */
	bool overwrite;		/* flight: the newest replaces the oldest */
	bool stop, done;
	int err;		/* the read's error that ended the thread */
	char why[256];
	bool direct;		/* no thread: each take reads the next frame */
	struct dcm_values_frame frame;	/* a direct ring's last frame */
};

/*
 * Start the reader thread of @dcm into a ring of @slots frames of @width
 * values (a frame's first @width); @overwrite: a full ring loses its
 * oldest frame, else the new one. Return 0 or -1 (said on @err).
 */
int dcmctl_ring_start(struct dcmctl_ring *r, struct dcm *dcm, size_t slots, size_t width,
		      bool overwrite, FILE *err);
/*
 * A ring without a thread or slots: each take reads the next frame itself,
 * waiting for it (@ms is not a limit then), as a program that only shows
 * the frames wants (watch: a row a frame read, at the reader's pace).
 */
void dcmctl_ring_direct(struct dcmctl_ring *r, struct dcm *dcm);
/* Stop the reader and free the ring (also after a failed start). */
void dcmctl_ring_stop(struct dcmctl_ring *r);
/*
 * The oldest frame not yet taken: 1 (in *@m and *@v, valid until
 * dcmctl_ring_release()), 0 after @ms ms without one, -1 when the reader
 * ended (its reason in @r->why).
 */
int dcmctl_ring_take(struct dcmctl_ring *r, int ms, struct dcmctl_ring_slot *m, const double **v);
void dcmctl_ring_release(struct dcmctl_ring *r);

/* A consumer's keys in the frames (watch, record), for dcmctl_ring_next(). */
struct dcmctl_frame_keys {
	const char *cmd;		/* "watch", "record": in messages */
	size_t n;
	const uint32_t *handles;	/* 0: a key the frames do not carry */
	const char *const *names;
	/* a new description: the same names looked up again; 0, or -1 (said) */
	int (*remap)(void *ctx);
	void *ctx;
};

/*
 * The next frame for @k: the oldest not yet taken of the description @k's
 * handles are of (after a new one, @k->remap() first; the frames of a
 * description replaced meanwhile are passed over), with every key of @k
 * in it. Return 1 (in *@m and *@v, until dcmctl_ring_release()), 0 after
 * @ms ms without one, -1 on an error, said on @err (the reader's, a new
 * description without one of the keys, a frame without one).
 */
int dcmctl_ring_next(struct dcmctl_ring *r, int ms, const struct dcmctl_frame_keys *k,
		     struct dcmctl_ring_slot *m, const double **v, FILE *err);

/* dcmctl flight [options], dcmctl flight-dump [--dir DIR] [--timeout SEC] */
struct dcmctl_flight_args {
	double seconds;			/* kept before a trigger, 10 by default */
	double after;			/* and after it, 2 by default */
	const char *dir;		/* the files, the pid file */
	unsigned int keep;		/* the newest files kept, 20 by default; 0: all */
	double timeout;			/* flight-dump: the wait for the file */
};

/* Parse what follows "flight" or "flight-dump" (@spec: which). Return 0 or -EINVAL, -ENOMEM. */
int dcmctl_parse_flight(const struct dcmctl_optspec *spec, int argc, char **argv,
			struct dcmctl_flight_args *a, char *err, size_t errlen);
/*
 * Remove the oldest flight files of dcm@index in the directory @dirfd
 * (flight-*-dcmN.jsonl, by name: their names begin with the date and time)
 * beyond the newest @keep, never the file @spare (NULL: none), which
 * counts among those kept; @keep 0 keeps all. Return the number removed,
 * or -errno.
 */
int dcmctl_flight_prune(int dirfd, unsigned int index, unsigned int keep, const char *spare);
/*
 * Open the flight recorder's directory @dir (O_DIRECTORY | O_NOFOLLOW: not
 * through a symbolic link), made 0755 first if @create and missing, and
 * check it: owned by the effective user or root (by anyone if
 * @any_owner), writable by its owner alone, so that no one else can put a
 * link or a file of theirs where the recorder writes. Return its
 * descriptor, or -errno with @why said (-EPERM: refused).
 */
int dcmctl_flight_dir_open(const char *dir, bool create, bool any_owner, char *why, size_t len);
/*
 * Create (or open, never through a link) flight.pid in @dirfd, take its
 * write lock (fcntl F_SETLK: held until the process ends) and write the
 * pid in it. Return the descriptor (keep it open), or -errno: -EAGAIN if
 * another process holds the lock (*@holder its pid, when known), -ELOOP
 * for a symbolic link, -EMLINK for a hard link or no regular file.
 */
int dcmctl_flight_pid_lock(int dirfd, pid_t *holder);
/*
 * The pid of the process holding flight.pid's lock in @dirfd (the running
 * recorder), 0 if no process holds it (a stale file), or -errno (-ENOENT:
 * no file, -ELOOP: a symbolic link). *@written is the pid the file names.
 */
pid_t dcmctl_flight_pid_holder(int dirfd, long *written);
int dcmctl_flight(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_flight_dump(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_cmd_flight(const struct dcmctl_opts *o);
int dcmctl_cmd_flight_dump(const struct dcmctl_opts *o);

/* The key tree in sysfs (keys.c). */
int dcmctl_cmd_list(const struct dcmctl_opts *o);
int dcmctl_cmd_get(const struct dcmctl_opts *o);
int dcmctl_cmd_tree(const struct dcmctl_opts *o);

/* The same, writing to @out and @err (for the unit tests). */
int dcmctl_list(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_get(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_tree(const struct dcmctl_opts *o, FILE *out, FILE *err);

/*
 * The controller's key tree in sysfs (-r, -d): a libdcm handle, or NULL
 * with the reason on @err.
 */
struct dcm_sysfs *dcmctl_open_sysfs(const struct dcmctl_opts *o, FILE *err);

/* -r, else $DCM_SYSFS_ROOT, else /sys/class/dcm (dcm_sysfs_root()). */
const char *dcmctl_sysfs_root(const struct dcmctl_opts *o);

/* ------------------------------------------------------------------
 * The key grammar (keyname.c)
 */

#define DCMCTL_KEY_LEN		256
#define DCMCTL_MAX_SUGGESTIONS	8

enum dcmctl_key_where {
	DCMCTL_KEY_SUB,		/* Device/SubDeviceList/... */
	DCMCTL_KEY_DEV,		/* Device/DeviceList/... */
	DCMCTL_KEY_ROBOT,	/* RobotConfig/... */
};

/* A key as the live tree has it. */
struct dcmctl_keyref {
	char path[DCMCTL_KEY_LEN];	/* the full key: "Device/SubDeviceList/.../Value" */
	char owner[DCMCTL_KEY_LEN];	/* its subdevice or device: the path up to the name */
	const char *name;		/* the key's own name, into path: "Value", "Kp" */
	enum dcmctl_key_where where;
	bool value;			/* a subdevice's Value */
};

/*
 * The key @typed names in the tree of @s: with or without the prefix
 * ("Device/SubDeviceList/" is the default; the sysfs directory names
 * "SubDeviceList/", "DeviceList/" are taken too), a subdevice with or
 * without "/Value". Return 0, -ENOENT (no such key), -EINVAL (not a key
 * path), -ENAMETOOLONG.
 */
int dcmctl_key_resolve(const struct dcm_sysfs *s, const char *typed, struct dcmctl_keyref *k);

/* Levenshtein distance of @a and @b; (size_t)-1 when out of memory. */
size_t dcmctl_edit_distance(const char *a, const char *b);

/*
 * The keys among @keys (full paths) nearest to @typed: those at the
 * smallest edit distance found, at most @max (DCMCTL_MAX_SUGGESTIONS), in
 * list order, each in the form @typed was given (without the prefix,
 * without "/Value" when @typed had none), none farther than a third of
 * @typed's length (8 at most). Return how many.
 */
size_t dcmctl_suggest(char *const *keys, size_t n, const char *typed,
		      char out[][DCMCTL_KEY_LEN], size_t max);

/* The same over every key of the live tree of @s. */
size_t dcmctl_key_suggest(const struct dcm_sysfs *s, const char *typed,
			  char out[][DCMCTL_KEY_LEN], size_t max);

/* "dcmctl: did you mean A, B or C?" on @err; nothing for none. */
void dcmctl_print_suggestions(FILE *err, char out[][DCMCTL_KEY_LEN], size_t n);

/*
 * Say why @typed is not a key (@r from dcmctl_key_resolve()) on @err, with
 * the suggestions (@s may be NULL: none); into @w too ("error",
 * "suggestions") if not NULL. Return @r.
 */
int dcmctl_key_error(const struct dcm_sysfs *s, const char *typed, int r, FILE *err,
		     struct json_writer *w);

/* Does @s hold a glob character (*, ?, [)? */
bool dcmctl_is_glob(const char *s);

/*
 * Does @pattern (fnmatch(), '*' crossing '/') match the key whose full
 * path is @path, in any form the key grammar takes it: the full path, the
 * path without Device/SubDeviceList/, and a subdevice's value both ways
 * without its /Value (Device/SubDeviceList/HeadYaw/Position/Sensor,
 * HeadYaw/Position/Sensor)? The one matcher of list, get, watch (and
 * record's subdevices).
 */
bool dcmctl_glob_matches(const char *pattern, const char *path);

/*
 * @typed with each glob replaced by the keys of the tree of @s it matches
 * (dcmctl_glob_matches()), in the tree's order, each in the form
 * get shows (HeadYaw/Position/Sensor, HeadYaw/Position/Actuator/Kp,
 * Device/DeviceList/ChestBoard/Ack), a key matched twice once; the other
 * arguments as they are. A glob that matches nothing is said on @err.
 * Return 0 (*@out: malloc'ed strings, free with dcm_sysfs_strv_free()),
 * -EINVAL, -ENOMEM.
 */
int dcmctl_expand_globs(const struct dcm_sysfs *s, char *const *typed, size_t n, char ***out,
			size_t *n_out, FILE *err);

/* A decimal number as sysfs shows them ("12", "-0.500000"). Return 0 or -EINVAL. */
int dcmctl_number(const char *text, double *v, bool *integer);

/* @text as a JSON number when it is one, else as a string. */
void dcmctl_json_value(struct json_writer *w, const char *key, const char *text);

/* dcmctl info KEY...: what each key is, its owner's keys and their values (info.c). */
int dcmctl_info_keys(const struct dcmctl_opts *o, int n, FILE *out, FILE *err);

/* ------------------------------------------------------------------
 * Timed commands, aliases, time, watch, stats (/dev/dcmN)
 */

/*
 * Open the controller of -d for the ioctls. On failure prints
 * "dcmctl: <why> (<hint>)" on @err and returns -errno.
 */
int dcmctl_open(const struct dcmctl_opts *o, struct dcm **dcm, FILE *err);

/* " (is dcm.ko loaded?)" and the like for a failed open of @path, or "". */
const char *dcmctl_open_hint(const char *path, int err);

/* Argument parsers (parse.c). Each returns 0, -EINVAL or -ERANGE. */

/* A value: decimal text as dcm_fixed_from_string() takes it (no nan/inf). */
int dcmctl_parse_value(const char *s, double *out);
/* Milliseconds, a signed 32-bit decimal (a relative time). */
int dcmctl_parse_ms(const char *s, int32_t *out);
/* A DCM time, 0 to 4294967295 (an absolute time). */
int dcmctl_parse_dcm_time(const char *s, uint32_t *out);
/*
 * An update kind: clear-all, merge, clear-after, clear-before (also
 * NAOqi's ClearAll, Merge, ClearAfter, ClearBefore: case, '-' and '_' do
 * not matter).
 */
int dcmctl_parse_kind(const char *s, enum dcm_update_kind *out);
const char *dcmctl_kind_name(enum dcm_update_kind kind);
/* An importance, 0 to 7. */
int dcmctl_parse_importance(const char *s, uint8_t *out);

/* A command point before the base time is known: @offset ms after it. */
struct dcmctl_point {
	double value;
	int32_t offset;
};

/* "VALUE@MS": both parts required. */
int dcmctl_parse_point(const char *s, struct dcmctl_point *p);
/*
 * Comma-separated lists into malloc'ed arrays (*@out, *@n); "" is an
 * empty list. Return: 0, -EINVAL (or -ERANGE) with @bad set to the
 * offending item's index, -ENOMEM.
 */
int dcmctl_parse_value_list(const char *s, double **out, size_t *n, size_t *bad);
int dcmctl_parse_ms_list(const char *s, int32_t **out, size_t *n, size_t *bad);
int dcmctl_parse_point_list(const char *s, struct dcmctl_point **out, size_t *n,
			    size_t *bad);

/* How a command's times are given: the base every offset is added to. */
enum dcmctl_base {
	DCMCTL_BASE_NOW,	/* DCM time now (default) */
	DCMCTL_BASE_IN,		/* --in MS: now + MS */
	DCMCTL_BASE_AT,		/* --at T: the DCM time T */
};

/* Options shared by set and alias set. */
struct dcmctl_timing {
	enum dcm_update_kind kind;	/* --kind, default clear-all */
	uint8_t importance;		/* --importance, default 0 */
	enum dcmctl_base base;
	int32_t in_ms;			/* --in */
	uint32_t at;			/* --at */
};

/* The base time of @t given DCM time @now. */
uint32_t dcmctl_base_time(const struct dcmctl_timing *t, uint32_t now);

/* dcmctl set KEY VALUE | KEY VALUE@MS... [options] */
struct dcmctl_set_args {
	struct dcmctl_timing t;
	const char *key;		/* NULL: none given */
	size_t n_values;
	char **values;			/* the arguments after KEY (malloc'ed, into argv) */
	unsigned int n_opts;		/* options given */
	int bad_opt;			/* the first option with a bad value, 0: none */
	const char *bad_arg;		/* its value */
	bool at, in;			/* --at, --in given */
	size_t n;
	struct dcmctl_point *points;	/* malloc'ed, by dcmctl_set_points() */
};

/* dcmctl alias set NAME --separate|--mixed ... */
struct dcmctl_alias_set_args {
	struct dcmctl_timing t;
	const char *name;
	bool separate;
	size_t n_members;
	/* --separate */
	size_t n_times;
	int32_t *times;			/* offsets from the base */
	double *values;			/* [member][time] */
	/* --mixed */
	size_t *counts;			/* points per member */
	struct dcmctl_point *points;	/* member after member */
};

/* dcmctl watch KEY... [--cycles N] */
struct dcmctl_watch_args {
	uint64_t cycles;		/* 0: until interrupted */
	size_t n;
	char **keys;			/* into argv */
};

/*
 * Parse a command's arguments (@argc/@argv: what follows the command name,
 * and for alias set what follows "set"). Return: 0, or -EINVAL (usage
 * error, the reason in @err), -ENOMEM. Free with the matching _free().
 */
int dcmctl_parse_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		     size_t errlen);
/*
 * The two halves of dcmctl_parse_set(), for a command line whose values are
 * read by the key's kind: dcmctl_scan_set() reads it once (the options, the
 * key, the values' texts; -EINVAL only for an unknown option or a missing
 * argument), dcmctl_set_points() takes the options and values as timed
 * points (a bad option value, VALUE or VALUE@MS...: -EINVAL, the reason in
 * @err). Free with dcmctl_set_args_free() either way.
 */
int dcmctl_scan_set(int argc, char **argv, struct dcmctl_set_args *a, char *err,
		    size_t errlen);
int dcmctl_set_points(struct dcmctl_set_args *a, char *err, size_t errlen);
void dcmctl_set_args_free(struct dcmctl_set_args *a);
int dcmctl_parse_alias_set(int argc, char **argv, struct dcmctl_alias_set_args *a,
			   char *err, size_t errlen);
void dcmctl_alias_set_args_free(struct dcmctl_alias_set_args *a);
int dcmctl_parse_watch(int argc, char **argv, struct dcmctl_watch_args *a, char *err,
		       size_t errlen);
void dcmctl_watch_args_free(struct dcmctl_watch_args *a);

/* The commands, writing to @out and @err (for the unit tests). */
int dcmctl_set(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_alias(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_time(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_watch(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_stats(const struct dcmctl_opts *o, FILE *out, FILE *err);

int dcmctl_cmd_set(const struct dcmctl_opts *o);

/*
 * What set says on stderr after commanding @key (an actuator's Value) with
 * @values: a value past Min or Max (the driver clamps it), a joint whose
 * stiffness is 0. At most @max lines into @out. Return how many.
 */
int dcmctl_set_warnings(const struct dcm_sysfs *s, const char *key, const double *values,
			size_t n, char out[][320], int max);

/*
 * Is @text a value configuration key @tk takes (its kind, its range)?
 * Return 0, or -EINVAL/-ERANGE with the reason in @why.
 */
int dcmctl_check_config_value(const struct desc_type_key *tk, const char *text, char *why,
			      size_t len);
int dcmctl_cmd_alias(const struct dcmctl_opts *o);
int dcmctl_cmd_time(const struct dcmctl_opts *o);
int dcmctl_cmd_watch(const struct dcmctl_opts *o);
int dcmctl_cmd_stats(const struct dcmctl_opts *o);
int dcmctl_cmd_top(const struct dcmctl_opts *o);	/* top.c */

/* ------------------------------------------------------------------
 * Preferences (prefs.c): NAOqi's Save, Load and Add
 */

enum dcmctl_prefs_action {
	DCMCTL_PREFS_SAVE,
	DCMCTL_PREFS_LOAD,
	DCMCTL_PREFS_ADD,
};

/* dcmctl preferences ACTION TARGET [KEY VALUE] [options] */
struct dcmctl_prefs_args {
	enum dcmctl_prefs_action action;
	bool all;			/* target All */
	int target;			/* enum desc_target; -1 with all */
	const char *file;		/* --file: the target's file */
	const char *key, *value;	/* add */
	const char *type;		/* add --type */
	/* --device-xml, --schemas, --etc, --share (prefs unused) */
	struct desc_paths paths;
};

/*
 * Parse what follows "preferences". ACTION: save, load, add (any case);
 * TARGET: Main, Chest, Head, All (any case; not All for add). Return 0 or
 * -EINVAL with @err.
 */
int dcmctl_parse_prefs(int argc, char **argv, struct dcmctl_prefs_args *a, char *err,
		       size_t errlen);

/*
 * The file target @t is read from (@from, "" for none: a new file) and
 * written to (@to) by save and add: --file (read if it exists), else the
 * file dcmd would load (ETC's, else SHARE's, else none) and ETC/<file>.
 * Return 0 or -ENAMETOOLONG, -ENOMEM.
 */
int dcmctl_prefs_paths(const struct dcmctl_prefs_args *a, int t, char *from, size_t fromlen,
		       char *to, size_t tolen);

/* The files of a load (and of save's reading): dcmd's defaults, --file for the target's. */
int dcmctl_prefs_load_files(const struct dcmctl_prefs_args *a, struct desc_files *f);

/*
 * Is @path (a full key path) one preferences add may write, as far as the
 * RobotConfig Device keys go? 0, or -EINVAL with why (and the nearest
 * known keys) on @err.
 */
int dcmctl_prefs_known_robot_key(const char *path, FILE *err);

int dcmctl_preferences(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_cmd_preferences(const struct dcmctl_opts *o);

/* Output of stats and of one watch line (exposed for the unit tests). */
void dcmctl_print_stats_text(FILE *f, const struct dcm_stats *st, uint32_t period_us);
void dcmctl_json_stats(struct json_writer *w, const struct dcm_stats *st,
		       uint32_t period_us);

/* ------------------------------------------------------------------
 * Calibration and special commands (special.c), through netlink
 */

/* dcmctl calibrate JOINT [here|min|max|set ZERO] */
struct dcmctl_calib_args {
	const char *joint;		/* into argv */
	int how;			/* enum dcm_calib_how, default here */
	unsigned int zero;		/* set */
	bool force;			/* --force: no plausibility checks */
};

/* Parse calibrate's arguments. Return: 0, or -EINVAL with @err set. */
int dcmctl_parse_calibrate(int argc, char **argv, struct dcmctl_calib_args *a, char *err,
			   size_t errlen);

/*
 * calibrate's plausibility checks (not for set; --force skips them): the
 * joint is soft, still (it moved at most DCMCTL_CALIB_STILL rad over
 * DCMCTL_CALIB_SAMPLES cycles) and, for min and max of a calibrated joint,
 * its sensor is within DCMCTL_CALIB_TOLERANCE rad of its Position/Sensor's
 * Min or Max. Each failure is said on @err. Return 0 (go on), 1 (refused),
 * -1 (the tree cannot be read: said on @err).
 */
#define DCMCTL_CALIB_TOLERANCE	0.2	/* rad */
#define DCMCTL_CALIB_STILL	0.01	/* rad */
#define DCMCTL_CALIB_SAMPLES	5	/* cycles */
int dcmctl_calib_check(const struct dcmctl_opts *o, const struct dcmctl_calib_args *a,
		       FILE *err);

int dcmctl_calibrate(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_special(const struct dcmctl_opts *o, FILE *out, FILE *err);
int dcmctl_cmd_calibrate(const struct dcmctl_opts *o);
int dcmctl_cmd_special(const struct dcmctl_opts *o);

/* Output of the answers (exposed for the unit tests). */
void dcmctl_print_calib_text(FILE *f, const struct dcm_calib_result *r);
void dcmctl_json_calib(struct json_writer *w, const struct dcm_calib_result *r);
void dcmctl_print_special_text(FILE *f, const struct dcm_special_result *r);
void dcmctl_json_special(struct json_writer *w, const struct dcm_special_result *r);

#endif /* DCMCTL_H */
