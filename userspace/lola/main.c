// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola - the LoLA socket of NAO V6 (NAOqi 2.8's "RoboCupper" interface)
 * served from a dcm controller, so that clients written for LoLA run on dcm
 * unchanged. Documentation/dcm/lola.rst.
 *
 * One thread, one poll() loop. Every cycle of the controller (one frame
 * read from /dev/dcmN) it builds LoLA's sensor map from that cycle's values
 * and writes it, 896 bytes, to every connected client; a client that does
 * not read loses whole maps, never part of one. Actuator maps are read as
 * they come, checked as a whole, and applied at once as commands for the
 * next cycle, through one alias per LoLA key on a handle of their own; a
 * value outside its actuator's range is clamped to it (counted, logged once
 * per key and client), as the DCM's set does.
 *
 * Several clients may be connected; one commands at a time: the first to
 * send a valid actuator map while nobody commands takes command, and keeps
 * it until it disconnects or sends nothing for --timeout ms. The commanding
 * handle has the kernel's client watchdog armed with that timeout and the
 * safe action of --on-silence (hold, or ramp the stiffness down): a silent
 * or vanished client gets it from the kernel, and command is free again.
 * A client that disconnects is read to its end first, and its handle stays
 * open until its last map has been applied: what it sent before close()
 * reaches the motors before the watchdog's action.
 * Other clients' actuator maps are refused (read-only). A map that cannot be
 * a LoLA map is refused; a client whose maps are refused --max-errors times
 * in a row is disconnected; bytes that are no MessagePack disconnect at once
 * (the stream cannot be followed).
 *
 * State: `dcm-lola --status` reads the status socket (SOCKET.status).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "libdcm.h"
#include "lola.h"
#include "lola_guard.h"

#define DEFAULT_SOCKET		"/tmp/robocup"
#define DEFAULT_TIMEOUT_MS	200
#define DEFAULT_RAMP_MS		1000
#define DEFAULT_MAX_CLIENTS	8
#define DEFAULT_MAX_ERRORS	5
#define KEY_REFRESH_CYCLES	10	/* statuses read from sysfs every N cycles */
#define ALIAS_PREFIX		"dcm-lola."
#define READONLY_LOG_EVERY	100	/* a read-only client's refusals: 1st, 101st, ... */
#define HIST_BUCKETS		16	/* bucket i: below 16 << i us; the last: the rest */

/* A duration's statistics: last, mean, max, and a power-of-two histogram. */
struct timing {
	uint64_t last_ns, sum_ns, n, max_ns;
	uint64_t hist[HIST_BUCKETS];
};

struct client {
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

static struct {
	/* options */
	const char *device;
	const char *socket_path;
	char status_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	unsigned int timeout_ms;
	enum dcm_safe_action action;
	unsigned int ramp_ms;
	unsigned int period_ms;
	unsigned int max_clients;
	unsigned int max_errors;
	mode_t mode;
	int priority;
	unsigned int idle_ms, map_ms, log_limit;

	struct dcm *dcm;		/* frames */
	struct dcm *cmd;		/* the commander's handle, NULL if none */
	unsigned int commander;		/* its client id, 0 if none */
	uint64_t cmd_cycle;		/* the cycle its last map was queued in */
	/*
	 * A commander that disconnected: its handle stays open (and its
	 * watchdog armed) until the cycles its last map was queued for have
	 * run, so that map reaches the boards before the watchdog's action.
	 */
	struct dcm *closing;
	unsigned int closing_id;
	uint64_t closing_cycle;		/* close at the frame of this cycle */
	/* Each actuator alias member's Min and Max (NaN: not known). */
	double lim_min[LOLA_A_GROUPS][LOLA_A_MAX_ELEMS + 1];
	double lim_max[LOLA_A_GROUPS][LOLA_A_MAX_ELEMS + 1];
	const char *body_version;	/* --body-version, --head-version */
	const char *head_version;
	struct dcm_sysfs *sys;
	unsigned int index;
	int listen_fd, status_fd, sig_fd;
	struct client **clients;
	unsigned int n_clients, next_id;
	bool stop;
	struct lola_listener lsock, lstatus;
	struct lola_log log;

	struct dcm_values_frame frame;
	double *values;
	size_t capacity;
	uint32_t gen;
	bool mapped;
	int32_t src_index[LOLA_S_FIELDS][LOLA_JOINTS];	/* frame index, -1: none */
	int src_fd[LOLA_S_FIELDS][LOLA_JOINTS];		/* sysfs key, -1: none */
	uint32_t us_handle;
	int sonar_last;
	struct lola_sensors s;
	uint8_t pkt[LOLA_SENSOR_SIZE];
	uint32_t last_time;

	/* statistics */
	uint64_t cycles, missed, late, last_cycle;
	uint64_t packets_out, drops, packets_in, refused, readonly, clamped;
	uint64_t clients_total, clients_dropped, commands_taken, silences;
	uint64_t timed_out;
	struct timing lat;	/* a cycle's frame to its map sent */
	struct timing app;	/* an actuator map read to its commands queued */
	int64_t start_ns;
} g = {
	.listen_fd = -1, .status_fd = -1, .sig_fd = -1, .sonar_last = -1,
	.lsock = { .fd = -1 }, .lstatus = { .fd = -1 },
};

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void logmsg(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "dcm-lola: %s\n", line);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A line about client @c (NULL: about connections, no client yet),
 * rate-limited per client and reason (lola_log.c).
 */
#define clientlog(c, reason, ...)						\
	lola_log_client(&g.log, (c) ? &(c)->log : NULL, (c) ? (c)->id : 0, (reason),	\
			(uint64_t)now_ns() / 1000000, __VA_ARGS__)

static void timing_add(struct timing *t, int64_t ns)
{
	uint64_t us = ns > 0 ? (uint64_t)ns / 1000 : 0;
	unsigned int b = 0;

	t->last_ns = ns > 0 ? (uint64_t)ns : 0;
	t->sum_ns += t->last_ns;
	t->n++;
	if (t->last_ns > t->max_ns)
		t->max_ns = t->last_ns;
	while (b + 1 < HIST_BUCKETS && us >= (16ULL << b))
		b++;
	t->hist[b]++;
}

/* The bucket's bound (us) below which half the samples are; 0 if none. */
static uint64_t timing_median_us(const struct timing *t)
{
	uint64_t seen = 0;
	unsigned int b;

	for (b = 0; b < HIST_BUCKETS; b++) {
		seen += t->hist[b];
		if (t->n && seen * 2 >= t->n)
			return 16ULL << b;
	}
	return 0;
}

/* ---- keys ---- */

/* Open a key of the tree for pread(); -1 if there is none. */
static int open_key(const char *key)
{
	char rel[256], path[PATH_MAX];

	if (dcm_sysfs_key_path(key, rel, sizeof(rel)))
		return -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dcm_sysfs_path(g.sys), rel) >=
	    sizeof(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC);
}

static bool read_key_num(int fd, long *v)
{
	char buf[64], *end;
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return false;
	buf[n] = 0;
	*v = strtol(buf, &end, 10);
	return end != buf;
}

/* A string of the tree into @out ("" if it cannot be read). */
static void read_key_str(const char *const *keys, char *out, size_t len)
{
	char *v = NULL;

	out[0] = 0;
	for (; *keys; keys++) {
		if (dcm_sysfs_read(g.sys, *keys, &v) == 0) {
			snprintf(out, len, "%s", v);
			free(v);
			return;
		}
	}
}

static void close_key_fds(void)
{
	unsigned int f, i;

	for (f = 0; f < LOLA_S_FIELDS; f++)
		for (i = 0; i < LOLA_JOINTS; i++) {
			if (g.src_fd[f][i] >= 0)
				close(g.src_fd[f][i]);
			g.src_fd[f][i] = -1;
		}
}

/*
 * RobotConfig[@idx]'s version: the option's if given, else the description's
 * @key when it is one as LoLA sends it ("6.0.0"). Nothing is made up from
 * another key: without either it is "0.0.0", and the log says why.
 */
static void robot_version(const char *key, const char *opt, const char *optname,
			  unsigned int idx, char *out, size_t len)
{
	const char *const keys[] = { key, NULL };

	if (opt) {
		snprintf(out, len, "%s", opt);
		return;
	}
	read_key_str(keys, out, len);
	if (lola_version_valid(out))
		return;
	if (out[0])
		logmsg("%s \"%s\" is not a version as LoLA sends it (N.N.N): RobotConfig[%u] "
		       "is 0.0.0 (%s sets it)", key, out, idx, optname);
	else
		logmsg("no %s in the description: RobotConfig[%u] is 0.0.0 (%s sets it)", key,
		       idx, optname);
	snprintf(out, len, "0.0.0");
}

/* Every actuator alias member's Min and Max, for the range rule of a map. */
static void map_limits(void)
{
	unsigned int grp, m, n;
	char name[128], key[160];

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		n = lola_group_members(grp);
		for (m = 0; m < LOLA_A_MAX_ELEMS + 1; m++) {
			g.lim_min[grp][m] = NAN;
			g.lim_max[grp][m] = NAN;
			if (m >= n || lola_actuator_key(grp, m, name, sizeof(name)))
				continue;
			snprintf(key, sizeof(key), "%s/Min", name);
			if (dcm_sysfs_get_double(g.sys, key, &g.lim_min[grp][m]))
				g.lim_min[grp][m] = NAN;
			snprintf(key, sizeof(key), "%s/Max", name);
			if (dcm_sysfs_get_double(g.sys, key, &g.lim_max[grp][m]))
				g.lim_max[grp][m] = NAN;
		}
	}
}

/*
 * Where every sensor element comes from, for the running description: its
 * index in the frames, or a key of the tree. Logs what is missing once.
 */
static void map_sensors(void)
{
	static const char *const body_id[] = { "Device/DeviceList/ChestBoard/BodyId",
					       "RobotConfig/Body/BodyId", NULL };
	static const char *const body_ver[] = { "RobotConfig/Body/Version", NULL };
	static const char *const head_id[] = { "RobotConfig/Head/FullHeadId",
					       "Device/DeviceList/HeadBoard/FullHeadId", NULL };
	static const char *const head_ver[] = { "RobotConfig/Head/Version", NULL };
	unsigned int f, i, missing = 0;
	struct dcm_key key;
	char name[128];

	close_key_fds();
	for (f = 0; f < LOLA_S_FIELDS; f++) {
		for (i = 0; i < LOLA_JOINTS; i++) {
			enum lola_src src = lola_sensor_key(f, i, name, sizeof(name));

			g.src_index[f][i] = -1;
			if (src == LOLA_SRC_VALUE) {
				if (dcm_lookup(g.dcm, name, &key) == 0) {
					g.src_index[f][i] = (int32_t)LIBDCM_HANDLE_INDEX(key.handle);
				} else if (missing++ < 5) {
					logmsg("no %s: %s[%u] is 0", name,
					       lola_sensor_fields[f].name, i);
				}
			} else if (src == LOLA_SRC_KEY) {
				g.src_fd[f][i] = open_key(name);
				if (g.src_fd[f][i] < 0 && missing++ < 5)
					logmsg("no key %s: %s[%u] is 0", name,
					       lola_sensor_fields[f].name, i);
			}
		}
	}
	if (missing > 5)
		logmsg("%u sensor elements have no key (5 shown)", missing);
	if (dcm_lookup(g.dcm, "US/Actuator", &key) == 0)
		g.us_handle = key.handle;
	else
		g.us_handle = 0;
	read_key_str(body_id, g.s.body_id, sizeof(g.s.body_id));
	read_key_str(head_id, g.s.head_id, sizeof(g.s.head_id));
	robot_version(body_ver[0], g.body_version, "--body-version", 1, g.s.body_version,
		      sizeof(g.s.body_version));
	robot_version(head_ver[0], g.head_version, "--head-version", 3, g.s.head_version,
		      sizeof(g.s.head_version));
	map_limits();
	g.mapped = true;
}

static void refresh_keys(void)
{
	unsigned int f, i;
	long v;

	for (f = 0; f < LOLA_S_FIELDS; f++)
		for (i = 0; i < LOLA_JOINTS; i++) {
			if (g.src_fd[f][i] < 0 || !read_key_num(g.src_fd[f][i], &v))
				continue;
			if (f == LOLA_S_STATUS)
				g.s.status[i] = v < 0 ? 0 : v > 127 ? 127 : (uint8_t)v;
			else if (lola_sensor_array(&g.s, f))
				lola_sensor_array(&g.s, f)[i] = (float)v;
		}
}

/* ---- command ---- */

static void alias_name(enum lola_group grp, char *buf, size_t len)
{
	snprintf(buf, len, ALIAS_PREFIX "%s", lola_groups[grp].name);
}

static int create_aliases(struct dcm *d)
{
	const char *members[LOLA_A_MAX_ELEMS + 1];
	char names[LOLA_A_MAX_ELEMS + 1][128], alias[64];
	unsigned int grp, m, n;
	int ret;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		n = lola_group_members(grp);
		if (!n)
			continue;
		for (m = 0; m < n; m++) {
			if (lola_actuator_key(grp, m, names[m], sizeof(names[m])))
				return -EINVAL;
			members[m] = names[m];
		}
		alias_name(grp, alias, sizeof(alias));
		ret = dcm_alias_create(d, alias, members, n, NULL);
		if (ret < 0) {
			logmsg("alias %s: %s", alias, dcm_last_error());
			return ret;
		}
		if ((unsigned int)ret < n)
			logmsg("%s: %u of its %u actuators are not in the description",
			       lola_groups[grp].name, n - (unsigned int)ret, n);
	}
	return 0;
}

static struct client *find_client(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < g.n_clients; i++)
		if (g.clients[i]->id == id)
			return g.clients[i];
	return NULL;
}

static const char *action_text(void)
{
	return g.action == LIBDCM_WATCHDOG_HOLD ? "the robot holds its commands" :
	       "stiffness ramped down by the watchdog";
}

/* A departed commander's handle is closed: its armed watchdog acts. */
static void finish_release(void)
{
	if (!g.closing)
		return;
	logmsg("client %u: its last map has been applied; handle closed (%s)", g.closing_id,
	       action_text());
	dcm_close(g.closing);
	g.closing = NULL;
	g.closing_id = 0;
}

/*
 * The commander lets go. A silent one (@wait false) had the watchdog's
 * action already: its handle is closed now. One that disconnected keeps
 * its handle until the maps it sent have been applied, two cycles after
 * the last was queued (applied at the next cycle, or the one after when
 * that cycle had begun): closing an armed handle drops what is still
 * queued, and a client's last map (B-Human's "all stiffness 0" before it
 * closes) must reach the motors. Command is free meanwhile.
 */
static void release_command(const char *why, bool wait)
{
	if (!g.cmd)
		return;
	finish_release();
	if (wait && g.cmd_cycle + 2 > g.last_cycle) {
		clientlog(find_client(g.commander), LOLA_LOG_COMMAND,
			  "client %u %s: command released once its last map is applied (%s)",
			  g.commander, why, action_text());
		g.closing = g.cmd;
		g.closing_id = g.commander;
		g.closing_cycle = g.cmd_cycle + 2;
	} else {
		clientlog(find_client(g.commander), LOLA_LOG_COMMAND,
			  "client %u %s: command released (%s)", g.commander, why, action_text());
		dcm_close(g.cmd);
	}
	g.cmd = NULL;
	g.commander = 0;
}

/*
 * A new commander while the last one's handle waits to close: that handle
 * is disarmed and closed, so the commands it queued stay queued and apply,
 * and no safe action runs (someone commands the robot again).
 */
static void hand_over(void)
{
	if (!g.closing)
		return;
	dcm_watchdog_disarm(g.closing);
	logmsg("client %u: handle closed, its queued commands kept (command taken over)",
	       g.closing_id);
	dcm_close(g.closing);
	g.closing = NULL;
	g.closing_id = 0;
}

static int take_command(struct client *c)
{
	int ret;

	hand_over();
	ret = dcm_open(g.device, &g.cmd);
	if (ret) {
		logmsg("%s: %s", g.device, dcm_last_error());
		return ret;
	}
	ret = dcm_watchdog_arm(g.cmd, g.timeout_ms, g.action,
			       g.action == LIBDCM_WATCHDOG_RAMP ? g.ramp_ms : 0);
	if (!ret)
		ret = create_aliases(g.cmd);
	if (ret) {
		clientlog(c, LOLA_LOG_COMMAND, "client %u cannot take command: %s", c->id,
			  ret == -EBADF ? "no write access to the controller" :
			  dcm_strerror(ret));
		dcm_watchdog_disarm(g.cmd);
		dcm_close(g.cmd);
		g.cmd = NULL;
		return ret;
	}
	g.commander = c->id;
	g.sonar_last = -1;
	g.commands_taken++;
	clientlog(c, LOLA_LOG_COMMAND, "client %u (pid %d) takes command (watchdog %u ms, %s)",
		  c->id, (int)c->pid, g.timeout_ms,
		  g.action == LIBDCM_WATCHDOG_HOLD ? "hold" : "ramp");
	return 0;
}

/*
 * The DCM's rule for a value outside its actuator's Min .. Max: clamped,
 * as a set is. Counted; the first of each key and client logged.
 */
static double clamp_value(struct client *c, unsigned int grp, unsigned int m, double v)
{
	double lo = g.lim_min[grp][m], hi = g.lim_max[grp][m], to;
	char name[128];

	if (!g.mapped || (!(v < lo) && !(v > hi)))
		return v;	/* in range, or the range not known (yet) */
	to = v < lo ? lo : hi;
	c->clamped++;
	g.clamped++;
	if (!(c->clamp_logged & (1U << grp))) {
		c->clamp_logged |= 1U << grp;
		if (lola_actuator_key(grp, m, name, sizeof(name)))
			name[0] = 0;
		logmsg("client %u: %s[%u] %g is outside %s's %g .. %g: clamped to %g (as a set "
		       "is; more of %s counted, not logged)", c->id, lola_groups[grp].name,
		       lola_member_element(grp, m), v, name, lo, hi, to, lola_groups[grp].name);
	}
	return to;
}

/* Every value of a map within its actuator's range (element 7: LHipYawPitch's). */
static void clamp_map(struct client *c, struct lola_actuators *a)
{
	unsigned int grp, i;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		if (!(a->present & (1U << grp)) || !lola_group_members(grp))
			continue;
		for (i = 0; i < lola_groups[grp].n; i++)
			a->v[grp][i] = clamp_value(c, grp, i, a->v[grp][i]);
	}
}

static int apply_once(const struct lola_actuators *a)
{
	double vals[LOLA_A_MAX_ELEMS + 1];
	uint32_t t = g.last_time;	/* past: applies at the next cycle */
	unsigned int grp, m, n;
	bool sent = false;
	char alias[64];
	int ret;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		if (!(a->present & (1U << grp)) || !(n = lola_group_members(grp)))
			continue;
		for (m = 0; m < n; m++)
			vals[m] = a->v[grp][lola_member_element(grp, m)];
		alias_name(grp, alias, sizeof(alias));
		ret = dcm_alias_set_separate(g.cmd, alias, LIBDCM_CLEAR_ALL, &t, 1, vals, n, 0);
		if (ret)
			return ret;
		sent = true;
	}
	if ((a->present & (1U << LOLA_A_SONAR)) && g.us_handle) {
		int mode = lola_sonar_mode(a->v[LOLA_A_SONAR][0] != 0, a->v[LOLA_A_SONAR][1] != 0);

		if (mode != g.sonar_last) {
			struct dcm_timed_point p = { .value = mode, .time = t };

			ret = dcm_set(g.cmd, g.us_handle, LIBDCM_CLEAR_ALL, &p, 1);
			if (ret)
				return ret;
			g.sonar_last = mode;
			sent = true;
		}
	}
	return sent ? 0 : dcm_watchdog_kick(g.cmd);
}

static int apply(const struct lola_actuators *a)
{
	int ret = apply_once(a);

	if (ret == -ETIMEDOUT) {
		/* The kernel's watchdog fired just before: arm it again. */
		ret = dcm_watchdog_arm(g.cmd, g.timeout_ms, g.action,
				       g.action == LIBDCM_WATCHDOG_RAMP ? g.ramp_ms : 0);
		if (!ret)
			ret = apply_once(a);
	}
	if (ret == -ENOENT || ret == -ESTALE) {
		/* A new description: its aliases again. */
		ret = create_aliases(g.cmd);
		if (!ret)
			ret = apply_once(a);
	}
	return ret;
}

/* ---- clients ---- */

static void drop_client(struct client *c, const char *why)
{
	if (c->gone)
		return;
	c->gone = true;
	clientlog(c, LOLA_LOG_CONNECT, "client %u (pid %d) %s", c->id, (int)c->pid, why);
	if (g.commander == c->id)
		release_command("disconnected", true);
	lola_log_client_gone(&g.log, &c->log, c->id, (uint64_t)now_ns() / 1000000);
}

static void refuse(struct client *c, const char *why)
{
	c->refused++;
	g.refused++;
	c->errors++;
	clientlog(c, LOLA_LOG_REFUSED, "client %u: packet refused, nothing applied: %s", c->id,
		  why);
	if (g.max_errors && c->errors >= g.max_errors) {
		char msg[96];

		snprintf(msg, sizeof(msg), "dropped after %u refused packets in a row", c->errors);
		g.clients_dropped++;
		drop_client(c, msg);
	}
}

/* Merge @b into @a: the groups @b has replace @a's. */
static void merge(struct lola_actuators *a, const struct lola_actuators *b)
{
	unsigned int grp;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++)
		if (b->present & (1U << grp))
			memcpy(a->v[grp], b->v[grp], sizeof(a->v[grp]));
	a->present |= b->present;
}

static void client_read(struct client *c);

/*
 * The commander closed its socket, and dcm-lola has not read to its end
 * yet (a hand-over: one client's last map and close(), the next one's map
 * at once, read in either order). Its last maps are read and applied now
 * and it is dropped, so the next one's map takes command rather than
 * being refused as read-only. True if command is free then.
 */
static bool commander_left(void)
{
	struct client *m = find_client(g.commander);
	struct pollfd p;
	unsigned int k;

	if (!m)
		return false;
	p = (struct pollfd){ .fd = m->fd, .events = POLLRDHUP };
	if (!m->hup && (poll(&p, 1, 0) != 1 || !(p.revents & (POLLRDHUP | POLLHUP | POLLERR))))
		return false;
	for (k = 0; k < 16 && !m->gone; k++)
		client_read(m);
	return !g.commander;
}

static void client_read(struct client *c)
{
	struct lola_actuators merged = { 0 }, one;
	const msgpack_object *o;
	char err[LOLA_ERR_LEN];
	bool any = false;
	int64_t t0, t1;
	size_t size;
	ssize_t n;
	size_t had, left;
	char *buf;

	buf = lola_reader_buffer(&c->rd, LOLA_MAX_PACKET);
	if (!buf) {
		drop_client(c, "disconnected: out of memory");
		return;
	}
	n = recv(c->fd, buf, LOLA_MAX_PACKET, MSG_DONTWAIT);
	if (n == 0) {
		drop_client(c, "disconnected");
		return;
	}
	if (n < 0) {
		if (errno == ECONNRESET)
			drop_client(c, "disconnected");
		else if (errno != EAGAIN && errno != EINTR)
			drop_client(c, strerror(errno));
		return;
	}
	t0 = now_ns();
	lola_reader_consumed(&c->rd, (size_t)n);
	had = msgpack_unpacker_message_size(&c->rd.unp) - (size_t)n;
	for (;;) {
		enum lola_read_status st = lola_reader_next(&c->rd, &o, &size, err, sizeof(err));

		if (st == LOLA_READ_NONE)
			break;
		if (st == LOLA_READ_FATAL) {
			char msg[LOLA_ERR_LEN + 40];

			c->refused++;
			g.refused++;
			snprintf(msg, sizeof(msg), "dropped: %s", err);
			g.clients_dropped++;
			drop_client(c, msg);
			return;
		}
		if (size > LOLA_MAX_PACKET) {
			snprintf(err, sizeof(err), "oversized packet: %zu bytes (limit %d)", size,
				 LOLA_MAX_PACKET);
			refuse(c, err);
		} else if (lola_decode_actuators(o, &one, err, sizeof(err))) {
			refuse(c, err);
		} else if (g.commander && g.commander != c->id && !commander_left()) {
			c->readonly++;
			g.readonly++;
			if (c->readonly % READONLY_LOG_EVERY == 1)
				clientlog(c, LOLA_LOG_READONLY, "client %u: packet refused (%" PRIu64
					  " so far): read-only, client %u holds command", c->id,
					  c->readonly, g.commander);
		} else {
			c->errors = 0;
			merge(&merged, &one);
			any = true;
		}
		if (c->gone)
			return;
	}
	/* A map ended in this read if less than all that came is left unfinished. */
	left = msgpack_unpacker_message_size(&c->rd.unp);
	lola_idle_read(&c->idle, left < had + (size_t)n, left > 0, t0);
	if (!any)
		return;
	if (!g.cmd && (c->denied || take_command(c))) {
		c->denied = true;
		c->readonly++;
		g.readonly++;
		return;
	}
	if (g.commander != c->id)
		return;
	clamp_map(c, &merged);
	if (apply(&merged)) {
		snprintf(err, sizeof(err), "the controller refused it: %s", dcm_last_error());
		refuse(c, err);
		return;
	}
	t1 = now_ns();
	g.cmd_cycle = g.last_cycle;
	c->accepted++;
	g.packets_in++;
	c->last_cmd_ns = t1;
	lola_idle_applied(&c->idle);
	timing_add(&g.app, t1 - t0);
}

/*
 * A client that closed its socket may still have maps unread on ours (a
 * B-Human-style exit: the last map, then close() at once): they are read
 * and applied before it is dropped, when the read meets the end.
 */
static void send_failed(struct client *c)
{
	if (errno == EPIPE || errno == ECONNRESET) {
		c->hup = true;
		c->pend_len = c->pend_off = 0;
	} else {
		drop_client(c, strerror(errno));
	}
}

/* Write what is left of a map; true when nothing is left. */
static bool flush_pending(struct client *c)
{
	ssize_t n;

	while (c->pend_off < c->pend_len) {
		n = send(c->fd, c->pend + c->pend_off, c->pend_len - c->pend_off,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return false;
			send_failed(c);
			return false;
		}
		c->pend_off += (size_t)n;
	}
	c->pend_len = c->pend_off = 0;
	lola_idle_sent(&c->idle, true, now_ns());
	return true;
}

static void client_send(struct client *c)
{
	ssize_t n;

	if (c->pend_len && !flush_pending(c)) {
		if (!c->gone) {
			c->drops++;
			g.drops++;
			lola_idle_sent(&c->idle, false, now_ns());
		}
		return;
	}
	n = send(c->fd, g.pkt, LOLA_SENSOR_SIZE, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR) {
			c->drops++;
			g.drops++;
			lola_idle_sent(&c->idle, false, now_ns());
		} else {
			send_failed(c);
		}
		return;
	}
	c->sent++;
	g.packets_out++;
	lola_idle_sent(&c->idle, (size_t)n == LOLA_SENSOR_SIZE, now_ns());
	if ((size_t)n < LOLA_SENSOR_SIZE) {
		/* The stream must stay whole: the rest goes first next time. */
		c->pend_len = LOLA_SENSOR_SIZE - (size_t)n;
		c->pend_off = 0;
		memcpy(c->pend, g.pkt + n, c->pend_len);
	}
}

static void free_client(struct client *c)
{
	close(c->fd);
	lola_reader_destroy(&c->rd);
	free(c);
}

static void reap_clients(void)
{
	unsigned int i, j = 0;

	for (i = 0; i < g.n_clients; i++) {
		if (g.clients[i]->gone)
			free_client(g.clients[i]);
		else
			g.clients[j++] = g.clients[i];
	}
	g.n_clients = j;
}

/* Close the clients whose idle or incomplete-map timeout expired; logs. */
static void check_clients(void)
{
	int64_t now = now_ns();
	char why[160];
	unsigned int i;

	for (i = 0; i < g.n_clients; i++) {
		struct client *c = g.clients[i];

		if (c->gone)
			continue;
		if (lola_idle_expired(&c->idle, now, g.idle_ms, g.map_ms, why, sizeof(why))) {
			g.timed_out++;
			drop_client(c, why);
			continue;
		}
		lola_log_sweep(&g.log, &c->log, c->id, (uint64_t)now / 1000000);
	}
	lola_log_sweep(&g.log, NULL, 0, (uint64_t)now / 1000000);
}

static void accept_client(void)
{
	struct ucred cred = { 0 };
	socklen_t len = sizeof(cred);
	struct client *c;
	int fd;

	fd = accept4(g.listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (g.n_clients >= g.max_clients) {
		clientlog((struct client *)NULL, LOLA_LOG_CONNECT,
			  "connection refused: %u clients already (--max-clients)", g.n_clients);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c || lola_reader_init(&c->rd)) {
		free(c);
		close(fd);
		return;
	}
	c->fd = fd;
	c->id = ++g.next_id;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
		c->pid = cred.pid;
		c->uid = cred.uid;
	}
	c->connected_ns = now_ns();
	lola_log_client_init(&g.log, &c->log);
	g.clients[g.n_clients++] = c;
	g.clients_total++;
	clientlog(c, LOLA_LOG_CONNECT, "client %u connected (pid %d, uid %u)", c->id, (int)c->pid,
		  (unsigned int)c->uid);
}

/* ---- the cycle ---- */

static int read_frame(void)
{
	int ret;

	for (;;) {
		g.frame.values = g.values;
		g.frame.capacity = g.capacity;
		ret = dcm_read_frame(g.dcm, &g.frame);
		if (ret != -EMSGSIZE)
			return ret;
		free(g.values);
		g.capacity = g.frame.n_values + 64;
		g.values = calloc(g.capacity, sizeof(double));
		if (!g.values)
			return -ENOMEM;
	}
}

static void on_cycle(int64_t woke_ns)
{
	unsigned int f, i;
	struct pollfd p;
	int64_t done;
	int ret;

	ret = read_frame();
	if (ret) {
		if (ret != -EINTR && ret != -EAGAIN) {
			logmsg("%s: no frame: %s", g.device, dcm_last_error());
			if (ret == -ENODEV)
				g.stop = true;
		}
		return;
	}
	if (!g.mapped || g.frame.generation != g.gen) {
		if (g.mapped)
			logmsg("the description was replaced: keys looked up again");
		map_sensors();
		g.gen = g.frame.generation;
	}
	if (g.last_cycle && g.frame.cycle > g.last_cycle + 1)
		g.missed += g.frame.cycle - g.last_cycle - 1;
	g.last_cycle = g.frame.cycle;
	g.last_time = g.frame.time;
	g.cycles++;
	if (g.closing && g.frame.cycle >= g.closing_cycle)
		finish_release();

	for (f = 0; f < LOLA_S_FIELDS; f++) {
		float *a = lola_sensor_array(&g.s, f);

		if (!a)
			continue;
		for (i = 0; i < lola_sensor_fields[f].n; i++) {
			int32_t k = g.src_index[f][i];

			if (k >= 0)
				a[i] = (size_t)k < g.frame.n_values ? (float)g.values[k] : 0;
		}
	}
	if (g.cycles % KEY_REFRESH_CYCLES == 1)
		refresh_keys();
	if (lola_encode_sensors(&g.s, g.pkt) != LOLA_SENSOR_SIZE) {
		logmsg("internal error: the sensor map is not %d bytes", LOLA_SENSOR_SIZE);
		return;
	}
	for (i = 0; i < g.n_clients; i++)
		if (!g.clients[i]->gone && !g.clients[i]->hup)
			client_send(g.clients[i]);
	done = now_ns();
	timing_add(&g.lat, done - woke_ns);
	/* Late: the next cycle's frame was there before this one's map left. */
	p.fd = dcm_poll_fd(g.dcm);
	p.events = POLLIN;
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLIN))
		g.late++;

	/* A commander that went silent has had the watchdog's action. */
	if (g.cmd) {
		struct client *c = find_client(g.commander);

		if (c && done - c->last_cmd_ns > (int64_t)g.timeout_ms * 1000000) {
			g.silences++;
			release_command("silent", false);
		}
	}
}

/* ---- status ---- */

static int format_status(char *buf, size_t len)
{
	int64_t now = now_ns();
	size_t off = 0;
	unsigned int i;

#define OUT(...) do { \
		int _n = snprintf(buf + off, len - off, __VA_ARGS__); \
		if (_n > 0) off = off + (size_t)_n < len ? off + (size_t)_n : len - 1; \
	} while (0)
	OUT("socket %s\n", g.socket_path);
	OUT("device %s\n", g.device);
	OUT("uptime_ms %" PRId64 "\n", (now - g.start_ns) / 1000000);
	OUT("cycles %" PRIu64 "\n", g.cycles);
	OUT("missed %" PRIu64 "\n", g.missed);
	OUT("late %" PRIu64 "\n", g.late);
	OUT("packets_out %" PRIu64 "\n", g.packets_out);
	OUT("drops %" PRIu64 "\n", g.drops);
	OUT("packets_in %" PRIu64 "\n", g.packets_in);
	OUT("refused %" PRIu64 "\n", g.refused);
	OUT("clamped %" PRIu64 "\n", g.clamped);
	OUT("readonly_refused %" PRIu64 "\n", g.readonly);
	OUT("clients %u\n", g.n_clients);
	OUT("clients_total %" PRIu64 "\n", g.clients_total);
	OUT("clients_dropped %" PRIu64 "\n", g.clients_dropped);
	OUT("commander %u\n", g.commander);
	OUT("commands_taken %" PRIu64 "\n", g.commands_taken);
	OUT("silences %" PRIu64 "\n", g.silences);
	OUT("timed_out %" PRIu64 "\n", g.timed_out);
	OUT("log_lines %" PRIu64 " suppressed %" PRIu64 "\n", g.log.lines, g.log.suppressed);
	OUT("watchdog %s timeout_ms %u\n", g.action == LIBDCM_WATCHDOG_HOLD ? "hold" : "ramp",
	    g.timeout_ms);
	if (g.action == LIBDCM_WATCHDOG_RAMP)
		OUT("ramp_ms %u\n", g.ramp_ms);
	OUT("latency_us last %" PRIu64 " mean %" PRIu64 " max %" PRIu64 " median_below %" PRIu64
	    "\n", g.lat.last_ns / 1000, g.lat.n ? g.lat.sum_ns / g.lat.n / 1000 : 0,
	    g.lat.max_ns / 1000, timing_median_us(&g.lat));
	OUT("apply_us last %" PRIu64 " mean %" PRIu64 " max %" PRIu64 " median_below %" PRIu64
	    "\n", g.app.last_ns / 1000, g.app.n ? g.app.sum_ns / g.app.n / 1000 : 0,
	    g.app.max_ns / 1000, timing_median_us(&g.app));
	for (i = 0; i < g.n_clients; i++) {
		const struct client *c = g.clients[i];

		OUT("client %u pid %d uid %u role %s sent %" PRIu64 " drops %" PRIu64
		    " accepted %" PRIu64 " refused %" PRIu64 " readonly %" PRIu64
		    " connected_ms %" PRId64 " clamped %" PRIu64 "\n",
		    c->id, (int)c->pid, (unsigned int)c->uid,
		    g.commander == c->id ? "commander" : "reader", c->sent, c->drops,
		    c->accepted, c->refused, c->readonly, (now - c->connected_ns) / 1000000,
		    c->clamped);
	}
#undef OUT
	return (int)off;
}

static void serve_status(void)
{
	static char buf[65536];
	int fd, n;

	fd = accept4(g.status_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	n = format_status(buf, sizeof(buf));
	if (send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		clientlog((struct client *)NULL, LOLA_LOG_CONNECT, "status: %s", strerror(errno));
	close(fd);
}

static int status_client(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char buf[4096];
	uid_t peer = 0;
	ssize_t n;
	int fd;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", g.status_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "dcm-lola: %s: %s (is dcm-lola running?)\n", g.status_path,
			strerror(errno));
		return 1;
	}
	/* Only root's or one's own dcm-lola: a user's server there would lie. */
	if (lola_peer_trusted(fd, geteuid(), &peer)) {
		fprintf(stderr, "dcm-lola: %s is served by uid %u, neither root nor you: "
			"not dcm-lola's status\n", g.status_path, (unsigned int)peer);
		close(fd);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

/* ---- sockets ---- */

/*
 * Listen on @path: the socket the service manager passed for it, else one
 * of our own put there whatever a local user left there (lola_socket.c).
 */
static int listen_on(struct lola_listener *l, const char *path, mode_t mode)
{
	char err[256], note[256];
	int ret;

	ret = lola_listen_inherited(l, path, err, sizeof(err));
	if (ret > 0) {
		logmsg("%s: the service manager's socket", path);
		return l->fd;
	}
	if (ret == 0)
		ret = lola_listen(l, path, mode, err, sizeof(err), note, sizeof(note));
	if (ret < 0) {
		logmsg("%s: %s", path, err);
		return -1;
	}
	if (note[0])
		logmsg("%s: %s", path, note);
	return l->fd;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: dcm-lola [OPTION]...\n"
"       dcm-lola --status [-s SOCKET | --status-socket PATH]\n"
"\n"
"Serve the LoLA protocol (NAO V6's RoboCup socket) from a dcm controller:\n"
"every cycle one 896-byte sensor map to each client, actuator maps applied\n"
"at the next cycle. Documentation/dcm/lola.rst.\n"
"\n"
"  -d, --device PATH       the controller (default " LIBDCM_DEFAULT_DEVICE ")\n"
"  -s, --socket PATH       LoLA's socket (default " DEFAULT_SOCKET ")\n"
"      --status-socket PATH  the status socket (default SOCKET.status)\n"
"      --mode OCTAL        the sockets' permissions (default 0660)\n"
"  -t, --timeout MS        a commander silent this long loses command, and\n"
"                          the kernel's watchdog acts (default %d, 20-60000)\n"
"      --on-silence hold|ramp  the watchdog's action: the actuators hold (LoLA's\n"
"                          behaviour, default) or the stiffness ramps to 0\n"
"      --ramp-ms MS        the ramp's length (default %d)\n"
"  -p, --period MS         set the controller's period first (12: LoLA's rate;\n"
"                          needs CAP_NET_ADMIN)\n"
"      --priority N        run SCHED_FIFO at priority N\n"
"      --max-clients N     connections at once (default %d)\n"
"      --max-errors N      refused packets in a row before a client is\n"
"                          disconnected (default %d; 0: never)\n"
"      --idle-timeout MS   close a client that neither reads its maps nor has\n"
"                          a map applied for MS (default %d; 0: never)\n"
"      --map-timeout MS    close a client whose map has not ended after MS\n"
"                          (default %d; 0: never)\n"
"      --log-limit N       log lines per client and reason in 10 s (all\n"
"                          clients together: 2N; default %d)\n"
"      --status            print the running daemon's status and exit\n"
"      --body-version V    RobotConfig[1], the body's version (N.N.N, e.g. 6.0.0\n"
"                          for a NAO V6); default RobotConfig/Body/Version\n"
"      --head-version V    RobotConfig[3], the head's version; default\n"
"                          RobotConfig/Head/Version\n"
"  -h, --help              this text\n"
"  -V, --version           the version\n",
		DEFAULT_TIMEOUT_MS, DEFAULT_RAMP_MS, DEFAULT_MAX_CLIENTS, DEFAULT_MAX_ERRORS,
		LOLA_IDLE_DEFAULT_MS, LOLA_MAP_DEFAULT_MS, LOLA_LOG_DEFAULT_LIMIT);
}

static bool parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		       int base)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, base);
	if (errno || end == s || *end || v < min || v > max || s[0] == '-')
		return false;
	*out = (unsigned int)v;
	return true;
}

enum { OPT_STATUS_SOCKET = 256, OPT_MODE, OPT_ON_SILENCE, OPT_RAMP, OPT_PRIORITY,
       OPT_MAX_CLIENTS, OPT_MAX_ERRORS, OPT_STATUS, OPT_BODY_VERSION, OPT_HEAD_VERSION,
       OPT_IDLE, OPT_MAP, OPT_LOG_LIMIT };

/* A timeout option: 0 (never) or LOLA_TIMEOUT_MIN_MS to LOLA_TIMEOUT_MAX_MS. */
static bool parse_timeout(const char *s, unsigned int *out)
{
	return parse_uint(s, 0, LOLA_TIMEOUT_MAX_MS, out, 10) &&
	       (*out == 0 || *out >= LOLA_TIMEOUT_MIN_MS);
}

static int parse_args(int argc, char **argv, bool *status_only)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "socket", required_argument, NULL, 's' },
		{ "status-socket", required_argument, NULL, OPT_STATUS_SOCKET },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "timeout", required_argument, NULL, 't' },
		{ "on-silence", required_argument, NULL, OPT_ON_SILENCE },
		{ "ramp-ms", required_argument, NULL, OPT_RAMP },
		{ "period", required_argument, NULL, 'p' },
		{ "priority", required_argument, NULL, OPT_PRIORITY },
		{ "max-clients", required_argument, NULL, OPT_MAX_CLIENTS },
		{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
		{ "status", no_argument, NULL, OPT_STATUS },
		{ "body-version", required_argument, NULL, OPT_BODY_VERSION },
		{ "head-version", required_argument, NULL, OPT_HEAD_VERSION },
		{ "idle-timeout", required_argument, NULL, OPT_IDLE },
		{ "map-timeout", required_argument, NULL, OPT_MAP },
		{ "log-limit", required_argument, NULL, OPT_LOG_LIMIT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *status_path = NULL;
	unsigned int v;
	int c;

	g.device = LIBDCM_DEFAULT_DEVICE;
	g.socket_path = DEFAULT_SOCKET;
	g.timeout_ms = DEFAULT_TIMEOUT_MS;
	g.action = LIBDCM_WATCHDOG_HOLD;
	g.ramp_ms = DEFAULT_RAMP_MS;
	g.max_clients = DEFAULT_MAX_CLIENTS;
	g.max_errors = DEFAULT_MAX_ERRORS;
	g.mode = 0660;
	g.priority = -1;
	g.idle_ms = LOLA_IDLE_DEFAULT_MS;
	g.map_ms = LOLA_MAP_DEFAULT_MS;
	g.log_limit = LOLA_LOG_DEFAULT_LIMIT;
	while ((c = getopt_long(argc, argv, "d:s:t:p:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			g.device = optarg;
			break;
		case 's':
			g.socket_path = optarg;
			break;
		case OPT_STATUS_SOCKET:
			status_path = optarg;
			break;
		case OPT_MODE:
			if (!parse_uint(optarg, 0, 0777, &v, 8))
				goto bad;
			g.mode = v;
			break;
		case 't':
			if (!parse_uint(optarg, LIBDCM_WATCHDOG_MIN_MS, LIBDCM_WATCHDOG_MAX_MS,
					&g.timeout_ms, 10))
				goto bad;
			break;
		case OPT_ON_SILENCE:
			if (!strcmp(optarg, "hold"))
				g.action = LIBDCM_WATCHDOG_HOLD;
			else if (!strcmp(optarg, "ramp"))
				g.action = LIBDCM_WATCHDOG_RAMP;
			else
				goto bad;
			break;
		case OPT_RAMP:
			if (!parse_uint(optarg, 0, LIBDCM_WATCHDOG_RAMP_MAX_MS, &g.ramp_ms, 10))
				goto bad;
			break;
		case 'p':
			if (!parse_uint(optarg, 1, 100, &g.period_ms, 10))
				goto bad;
			break;
		case OPT_PRIORITY:
			if (!parse_uint(optarg, 1, 99, &v, 10))
				goto bad;
			g.priority = (int)v;
			break;
		case OPT_MAX_CLIENTS:
			if (!parse_uint(optarg, 1, 1024, &g.max_clients, 10))
				goto bad;
			break;
		case OPT_MAX_ERRORS:
			if (!parse_uint(optarg, 0, 1000000, &g.max_errors, 10))
				goto bad;
			break;
		case OPT_STATUS:
			*status_only = true;
			break;
		case OPT_BODY_VERSION:
		case OPT_HEAD_VERSION:
			if (!lola_version_valid(optarg)) {
				fprintf(stderr, "dcm-lola: bad version '%s': LoLA's form is N.N.N, "
					"e.g. 6.0.0\n", optarg);
				return -1;
			}
			if (c == OPT_BODY_VERSION)
				g.body_version = optarg;
			else
				g.head_version = optarg;
			break;
		case OPT_IDLE:
			if (!parse_timeout(optarg, &g.idle_ms))
				goto bad;
			break;
		case OPT_MAP:
			if (!parse_timeout(optarg, &g.map_ms))
				goto bad;
			break;
		case OPT_LOG_LIMIT:
			if (!parse_uint(optarg, 1, 100000, &g.log_limit, 10))
				goto bad;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("dcm-lola (libdcm %s)\n", dcm_lib_version());
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dcm-lola: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if ((size_t)snprintf(g.status_path, sizeof(g.status_path), "%s%s",
			     status_path ? status_path : g.socket_path,
			     status_path ? "" : ".status") >= sizeof(g.status_path)) {
		fprintf(stderr, "dcm-lola: status socket path too long\n");
		return -1;
	}
	lola_log_init(&g.log, g.log_limit, LOLA_LOG_INTERVAL_MS);
	return 0;
bad:
	fprintf(stderr, "dcm-lola: bad value '%s' (see --help)\n", optarg);
	return -1;
}

static int set_period(void)
{
	char path[PATH_MAX];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/period_us", dcm_sysfs_path(g.sys));
	f = fopen(path, "w");
	if (!f) {
		logmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "%u\n", g.period_ms * 1000);
	ret = fclose(f);
	if (ret) {
		logmsg("%s: %s", path, strerror(errno));
		return -1;
	}
	logmsg("period set to %u ms", g.period_ms);
	return 0;
}

static int setup(void)
{
	struct dcm_info info;
	sigset_t mask;
	int ret;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	g.sig_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

	ret = dcm_open(g.device, &g.dcm);
	if (ret) {
		logmsg("%s: %s", g.device, dcm_last_error());
		return -1;
	}
	ret = dcm_get_info(g.dcm, &info);
	if (ret) {
		logmsg("%s: %s", g.device, dcm_last_error());
		return -1;
	}
	g.index = info.index;
	ret = dcm_sysfs_open(NULL, g.index, &g.sys);
	if (ret) {
		logmsg("sysfs of dcm%u: %s", g.index, dcm_last_error());
		return -1;
	}
	if (g.period_ms && set_period())
		return -1;
	g.capacity = info.n_subdevices + 64;
	g.values = calloc(g.capacity, sizeof(double));
	g.clients = calloc(g.max_clients, sizeof(*g.clients));
	if (!g.values || !g.clients)
		return -1;
	memset(g.src_fd, -1, sizeof(g.src_fd));
	if (g.priority > 0) {
		struct sched_param sp = { .sched_priority = g.priority };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			logmsg("SCHED_FIFO %d: %s (running without)", g.priority, strerror(errno));
	}
	g.listen_fd = listen_on(&g.lsock, g.socket_path, g.mode);
	if (g.listen_fd < 0)
		return -1;
	g.status_fd = listen_on(&g.lstatus, g.status_path, g.mode);
	if (g.status_fd < 0)
		return -1;
	{
		char other[LOLA_PATH_MAX + 1];
		int fd = lola_inherited_unclaimed(other, sizeof(other));

		if (fd >= 0) {
			logmsg("the service manager passed socket %d (%s), which is neither %s nor %s",
			       fd, other, g.socket_path, g.status_path);
			return -1;
		}
	}
	g.start_ns = now_ns();
	logmsg("serving LoLA on %s from %s (dcm%u, period %.3f ms); status on %s", g.socket_path,
	       g.device, g.index, (g.period_ms ? g.period_ms * 1000 : info.period_us) / 1000.0,
	       g.status_path);
	return 0;
}

/*
 * Before the daemon exits: the maps it queued reach the boards first (a
 * few frames, at most half a second), then the handles close.
 */
static void settle(void)
{
	uint64_t until = 0;
	unsigned int k;

	if (g.cmd)
		until = g.cmd_cycle + 2;
	if (g.closing && g.closing_cycle > until)
		until = g.closing_cycle;
	for (k = 0; k < 5 && g.dcm && g.last_cycle < until; k++) {
		struct pollfd p = { .fd = dcm_poll_fd(g.dcm), .events = POLLIN };

		if (poll(&p, 1, 100) != 1 || read_frame())
			break;
		g.last_cycle = g.frame.cycle;
	}
	finish_release();
}

static void teardown(void)
{
	unsigned int i, k;

	/* Maps already in the sockets were sent: they are applied too. */
	for (i = 0; i < g.n_clients; i++)
		for (k = 0; k < 16 && !g.clients[i]->gone; k++)
			client_read(g.clients[i]);
	settle();
	for (i = 0; i < g.n_clients; i++) {
		if (g.clients[i]->id == g.commander)
			release_command("stopped: the daemon exits", false);
		lola_log_client_gone(&g.log, &g.clients[i]->log, g.clients[i]->id,
				     (uint64_t)now_ns() / 1000000);
		free_client(g.clients[i]);
	}
	release_command("stopped", false);
	lola_log_finish(&g.log, (uint64_t)now_ns() / 1000000);
	g.n_clients = 0;
	lola_unlisten(&g.lsock);
	lola_unlisten(&g.lstatus);
	g.listen_fd = g.status_fd = -1;
	close_key_fds();
	dcm_sysfs_close(g.sys);
	dcm_close(g.dcm);
	free(g.values);
	free(g.clients);
}

static void loop(void)
{
	struct pollfd *p;
	unsigned int i, n;

	p = calloc(g.max_clients + 4, sizeof(*p));
	if (!p)
		return;
	while (!g.stop) {
		int64_t woke;

		p[0] = (struct pollfd){ .fd = dcm_poll_fd(g.dcm), .events = POLLIN };
		p[1] = (struct pollfd){ .fd = g.listen_fd, .events = POLLIN };
		p[2] = (struct pollfd){ .fd = g.status_fd, .events = POLLIN };
		p[3] = (struct pollfd){ .fd = g.sig_fd, .events = POLLIN };
		n = g.n_clients;
		for (i = 0; i < n; i++)
			p[4 + i] = (struct pollfd){
				.fd = g.clients[i]->fd,
				.events = POLLIN | (g.clients[i]->pend_len && !g.clients[i]->hup ?
						    POLLOUT : 0),
			};
		if (poll(p, 4 + n, 100) < 0) {
			if (errno == EINTR)
				continue;
			logmsg("poll: %s", strerror(errno));
			break;
		}
		woke = now_ns();
		if (p[3].revents & POLLIN) {
			struct signalfd_siginfo si;

			if (read(g.sig_fd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo != SIGHUP) {
				logmsg("signal %u: stopping", si.ssi_signo);
				g.stop = true;
			}
		}
		/* The cycle's map first, then the clients' maps (for the next cycle). */
		if (p[0].revents & (POLLIN | POLLERR | POLLHUP))
			on_cycle(woke);
		for (i = 0; i < n; i++) {
			struct client *c = g.clients[i];

			if (c->gone)
				continue;
			if (p[4 + i].revents & POLLOUT)
				flush_pending(c);
			if (!c->gone && (p[4 + i].revents & (POLLIN | POLLHUP | POLLERR)))
				client_read(c);
		}
		check_clients();
		reap_clients();
		if (p[1].revents & POLLIN)
			accept_client();
		if (p[2].revents & POLLIN)
			serve_status();
	}
	free(p);
}

int main(int argc, char **argv)
{
	bool status_only = false;
	int ret = 0;

	setvbuf(stderr, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &status_only))
		return 2;
	if (status_only)
		return status_client();
	if (setup())
		ret = 1;
	else
		loop();
	teardown();
	return ret;
}
