/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcm-lola's daemon: its state in parts, each in its own struct, and the
 * functions of each part. Documentation/dcm/lola.rst describes the daemon.
 *
 * main.c: the options, start-up, the poll() loop, the cycle and the exit.
 * lola_feed.c: the controller's frames and the sensor map built from them.
 * lola_command.c: who commands, and an actuator map applied as commands.
 * lola_clients.c: the connected clients, their reads and writes.
 * lola_status.c: the timings and the status socket's text.
 */
#ifndef DCM_LOLA_DAEMON_H
#define DCM_LOLA_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/types.h>

#include "libdcm.h"
#include "lola.h"
#include "lola_guard.h"

#define LOLA_HIST_BUCKETS	16	/* bucket i: below 16 << i us; the last: the rest */

/* What the command line set. */
struct lola_opts {
	const char *device;
	const char *socket_path;
	char status_path[LOLA_PATH_MAX];
	unsigned int timeout_ms;	/* the commander's watchdog */
	enum dcm_safe_action action;
	unsigned int ramp_ms;
	unsigned int period_ms;		/* 0: the controller's */
	unsigned int max_clients;
	unsigned int max_errors;
	mode_t mode;
	int priority;			/* SCHED_FIFO, -1: none */
	unsigned int idle_ms, map_ms, log_limit;
	const char *body_version;	/* --body-version, --head-version */
	const char *head_version;
};

/* A duration's statistics: last, mean, max, and a power-of-two histogram. */
struct lola_timing {
	uint64_t last_ns, sum_ns, n, max_ns;
	uint64_t hist[LOLA_HIST_BUCKETS];
};

void lola_timing_add(struct lola_timing *t, int64_t ns);
/* The bucket's bound (us) below which half the samples are; 0 if none. */
uint64_t lola_timing_median_us(const struct lola_timing *t);

/*
 * The controller's frames, one per cycle, with the live keys (the Status
 * words) after the subdevices' values, and the sensor map made of them.
 */
struct lola_feed {
	struct dcm *dcm;		/* the frames' handle */
	struct dcm_sysfs *sys;		/* the description's strings */
	struct dcm_values_frame frame;
	double *values;
	size_t capacity;
	uint32_t gen;			/* the description mapped */
	bool mapped;
	int32_t src_index[LOLA_S_FIELDS][LOLA_JOINTS];	/* frame index, -1: none */
	struct lola_sensors s;
	uint8_t pkt[LOLA_SENSOR_SIZE];	/* this cycle's map */
	uint64_t last_cycle;
	uint32_t last_time;
	/* statistics */
	uint64_t cycles, missed, late;
	struct lola_timing lat;		/* a cycle's frame to its map sent */
};

/* The frames of @dcm, with room for @n_values at first. Return: 0, -errno. */
int lola_feed_init(struct lola_feed *f, struct dcm *dcm, struct dcm_sysfs *sys,
		   size_t n_values);
void lola_feed_free(struct lola_feed *f);
/* The next frame (the values grow as needed). Return: 0, or -errno. */
int lola_feed_read(struct lola_feed *f);
/*
 * Where every sensor element comes from in the frames of the running
 * description, and RobotConfig's strings; logs what is missing.
 */
void lola_feed_map(struct lola_feed *f, const struct lola_opts *opt);
/* The sensor map of the frame read last, in f->pkt. Return: 0, or -1. */
int lola_feed_encode(struct lola_feed *f);

struct lola_client {
	int fd;
	unsigned int id;
	pid_t pid;
	uid_t uid;
	struct lola_reader rd;
	uint8_t pend[LOLA_SENSOR_SIZE];	/* the rest of a map written in part */
	size_t pend_len, pend_off;
	uint64_t sent, drops, accepted, refused, readonly;
	uint64_t clamped;		/* values outside their actuator's range */
	uint32_t clamp_logged;		/* bit g: group g's first one was logged */
	unsigned int errors;		/* refused maps in a row */
	int64_t connected_ns, last_cmd_ns;
	bool denied;			/* could not take command (logged once) */
	bool hup;			/* it closed: read what it sent, send nothing */
	bool gone;
	struct lola_log_limits log;	/* its log lines' limits */
	struct lola_idle idle;		/* its idle and incomplete-map timeouts */
};

/* The connected clients and what they did together. */
struct lola_clients {
	struct lola_client **v;
	unsigned int n, next_id;
	/* statistics */
	uint64_t packets_out, drops, packets_in, refused, readonly;
	uint64_t total, dropped, timed_out;
	struct lola_timing app;		/* an actuator map read to its commands queued */
};

/*
 * Who commands: the commander's handle and alias state, and a departed
 * commander's handle that stays open until its last map has been applied.
 */
struct lola_command {
	const struct lola_opts *opt;	/* device, watchdog timeout and action */
	struct dcm *cmd;		/* the commander's handle, NULL if none */
	unsigned int commander;		/* its client id, 0 if none */
	uint64_t cmd_cycle;		/* the cycle its last map was queued in */
	struct dcm *closing;
	unsigned int closing_id;
	uint64_t closing_cycle;		/* close at the frame of this cycle */
	/* Each actuator alias member's Min and Max (NaN: not known). */
	double lim_min[LOLA_A_GROUPS][LOLA_A_MAX_ELEMS + 1];
	double lim_max[LOLA_A_GROUPS][LOLA_A_MAX_ELEMS + 1];
	bool mapped;			/* the limits are known */
	uint32_t us_handle;
	int sonar_last;
	/* statistics */
	uint64_t taken, silences, clamped;
};

/* The whole daemon: its parts, the sockets and the log. */
struct lola_daemon {
	struct lola_opts opt;
	struct lola_feed feed;
	struct lola_command cmd;
	struct lola_clients clients;
	struct lola_log log;
	struct lola_listener lsock, lstatus;
	int sig_fd;
	unsigned int index;		/* N of dcmN */
	int64_t start_ns;
	bool stop;
};

static inline int64_t lola_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A line about client @c (NULL: about connections, no client yet),
 * rate-limited per client and reason (lola_log.c).
 */
#define lola_clientlog(dlog, c, reason, ...)						\
	lola_log_client((dlog), (c) ? &(c)->log : NULL, (c) ? (c)->id : 0, (reason),	\
			(uint64_t)lola_now_ns() / 1000000, __VA_ARGS__)

/* lola_command.c */
void lola_command_init(struct lola_command *k, const struct lola_opts *opt);
/* The running description's actuator limits and sonar handle. */
void lola_command_map(struct lola_command *k, struct dcm *dcm, struct dcm_sysfs *sys);
/* @c (the only one that may) takes command. Return: 0, or -errno (logged). */
int lola_command_take(struct lola_command *k, struct lola_log *log, struct lola_client *c);
/*
 * The commander @c (NULL once gone) lets go: at once, or (@wait) once the
 * maps it sent have been applied, at the frame of cycle @last_cycle + 2.
 */
void lola_command_release(struct lola_command *k, struct lola_log *log, struct lola_client *c,
			  const char *why, bool wait, uint64_t last_cycle);
/* A departed commander's handle is closed: its armed watchdog acts. */
void lola_command_finish(struct lola_command *k);
/* A map within its actuators' ranges: clamped, counted, logged once per key. */
void lola_command_clamp(struct lola_command *k, struct lola_client *c,
			struct lola_actuators *a);
/* A map's commands, for the cycle after the one at DCM time @t. */
int lola_command_apply(struct lola_command *k, const struct lola_actuators *a, uint32_t t);

/* lola_clients.c */
int lola_clients_init(struct lola_clients *cl, unsigned int max);
void lola_client_accept(struct lola_daemon *d, int listen_fd);
void lola_client_read(struct lola_daemon *d, struct lola_client *c);
void lola_client_send(struct lola_daemon *d, struct lola_client *c, const uint8_t *pkt);
/* Write what is left of a map; true when nothing is left. */
bool lola_client_flush(struct lola_daemon *d, struct lola_client *c);
void lola_client_drop(struct lola_daemon *d, struct lola_client *c, const char *why);
struct lola_client *lola_client_find(const struct lola_clients *cl, unsigned int id);
void lola_client_free(struct lola_client *c);
/* Close the clients whose idle or incomplete-map timeout expired. */
void lola_clients_check(struct lola_daemon *d);
/* Free the clients that are gone. */
void lola_clients_reap(struct lola_clients *cl);

/* lola_status.c */
/* Answer one connection of the status socket with the daemon's state. */
void lola_status_serve(struct lola_daemon *d);
/* dcm-lola --status: print the running daemon's. Return: exit status. */
int lola_status_client(const char *path);

#endif /* DCM_LOLA_DAEMON_H */
