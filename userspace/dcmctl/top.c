// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl top [--interval MS] [--once]: the robot on one screen, refreshed
 * a few times a second: every joint's command and sensor, stiffness,
 * temperature and its status, current; the battery; the feet's FSR and
 * centre of pressure; the inertial board; the events of the last 30 s;
 * the cycle's statistics.
 *
 * The values come from the mapped snapshot (one consistent read of every
 * key shown, no system call), the statistics and the DCM time from one
 * ioctl each, the events from the netlink group "events". Only at start
 * (and when the description is replaced) does it read sysfs: the names of
 * the joints and their temperature status, which the events then keep up
 * to date.
 *
 * On a terminal the screen is drawn with ncurses (the terminal's own
 * sequences, from terminfo, on its alternate screen if it has one); each
 * line never passes the terminal's width, so nothing wraps or scrolls.
 * When standard output is no terminal (a file, a pipe) each refresh is
 * printed as plain lines, without a control sequence, a blank line after
 * each screen.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include <linux/dcm.h>

#include "libdcm.h"
#include "num.h"
#include "cmd.h"
#include "commands.h"
#include "top.h"

static const struct optdef top_opts[] = {
	{ "interval", 'i', 'i', "MS", "refresh every MS ms (default 250)" },
	{ "once", '1', '1', NULL, "print one screen, without terminal control" },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct dcmctl_optspec dcmctl_spec_top = {
	.cmd = "top", .opts = top_opts, .prefix_missing = true,
};

#define TOP_DEFAULT_INTERVAL_MS	250
#define TOP_MIN_INTERVAL_MS	50
#define TOP_MAX_INTERVAL_MS	10000
/* Temperature statuses are read again this often when events are not followed. */
#define TOP_STATUS_REREAD_MS	2000

/* ------------------------------------------------------------------
 * The view and its layout
 */

void top_view_init(struct top_view *v)
{
	size_t i;

	memset(v, 0, sizeof(*v));
	v->charge = v->bat_current = v->bat_temp = NAN;
	for (i = 0; i < 2; i++) {
		v->foot[i].fsr[0] = v->foot[i].fsr[1] = NAN;
		v->foot[i].fsr[2] = v->foot[i].fsr[3] = NAN;
		v->foot[i].total = v->foot[i].cop_x = v->foot[i].cop_y = NAN;
	}
	v->angle[0] = v->angle[1] = NAN;
	v->acc[0] = v->acc[1] = v->acc[2] = NAN;
	v->gyr[0] = v->gyr[1] = v->gyr[2] = NAN;
	v->interval_ms = TOP_DEFAULT_INTERVAL_MS;
}

/*
 * Events kept: what went wrong or acted on the joints. Overruns (the
 * cycle's line counts them), configuration and special commands are left
 * out: under load overruns alone would push every other event out.
 */
static bool kept(unsigned int type)
{
	return type != DCM_EV_OVERRUN && type != DCM_EV_CONFIG && type != DCM_EV_SPECIAL;
}

void top_add_event(struct top_view *v, uint32_t time, unsigned int type, const char *text)
{
	struct top_event *e;
	size_t len;

	if (!kept(type))
		return;
	if (v->n_events == TOP_MAX_EVENTS) {
		memmove(&v->events[0], &v->events[1], sizeof(v->events[0]) * (TOP_MAX_EVENTS - 1));
		v->n_events--;
	}
	e = &v->events[v->n_events++];
	e->time = time;
	e->type = type;
	len = strnlen(text, sizeof(e->text) - 1);	/* cut to fit */
	memcpy(e->text, text, len);
	e->text[len] = '\0';
}

/* Replace the first @from of @s by @to (no longer than @from). */
static void shorten(char *s, const char *from, const char *to)
{
	char *p = strstr(s, from);
	size_t lf = strlen(from), lt = strlen(to);

	if (!p)
		return;
	memcpy(p, to, lt);
	memmove(p + lt, p + lf, strlen(p + lf) + 1);
}

void top_abbrev(const char *name, size_t width, char *out, size_t len)
{
	if (!len)
		return;
	snprintf(out, len, "%s", name);
	if (strlen(out) > width)
		shorten(out, "Shoulder", "Shldr");
	if (strlen(out) > width)
		shorten(out, "Pitch", "Ptch");
	if (strlen(out) > width)
		out[width < len ? width : len - 1] = '\0';
}

struct grid {
	char *s;
	int rows, cols;
};

/* Text at line @r, column @c; what passes the width is cut. */
static void __attribute__((format(printf, 4, 5)))
put(struct grid *g, int r, int c, const char *fmt, ...)
{
	char buf[512];
	char *line;
	va_list ap;
	int i;

	if (r < 0 || r >= g->rows || c >= g->cols)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	line = g->s + (size_t)r * (g->cols + 1);
	for (i = 0; buf[i] && c + i < g->cols; i++)
		line[c + i] = buf[i];
}

/*
 * @v in @width characters, right-aligned, with up to @dec decimals: fewer
 * if it does not fit, '*'s if it still does not; "-" for NAN.
 */
static const char *num(char *buf, int width, int dec, double v)
{
	int d;

	if (isnan(v)) {
		snprintf(buf, 32, "%*s", width, "-");
		return buf;
	}
	for (d = dec; d >= 0; d--) {
		if (snprintf(buf, 32, "%*.*f", width, d, v) <= width)
			return buf;
	}
	memset(buf, '*', width);
	buf[width] = '\0';
	return buf;
}

/* The fields of a joint after its name: " cmd sensor stf tC s A". */
#define JOINT_FIELDS	28
#define JOINT_NAME_MAX	14	/* LShoulderPitch */

static void render_joint(struct grid *g, int r, int c, int nw, const struct top_joint *j)
{
	char name[TOP_NAME_LEN], a[32], b[32], s[32], t[32], cur[32], st;

	top_abbrev(j->name, nw, name, sizeof(name));
	st = j->temp_status < 0 ? '?' : j->temp_status > 9 ? '+' : '0' + j->temp_status;
	put(g, r, c, "%-*s %s %s %s %s %c %s", nw, name, num(a, 6, 3, j->cmd),
	    num(b, 6, 3, j->sensor), num(s, 3, 0, j->stiffness * 100), num(t, 2, 0, j->temp), st,
	    num(cur, 4, 2, j->current));
}

static int render_header(struct grid *g, const struct top_view *v)
{
	char head[160], per[40] = "";

	if (v->period_us)
		snprintf(per, sizeof(per), "  period %u.%03u ms", v->period_us / 1000,
			 v->period_us % 1000);
	snprintf(head, sizeof(head), "%s (%s)  DCM time %u.%03u s  cycle %llu%s", v->controller,
		 v->driver, v->time / 1000, v->time % 1000, (unsigned long long)v->cycle, per);
	put(g, 0, 0, "%s", head);
	if (v->has_stats)
		put(g, 1, 0, "work us: last %.0f mean %.0f max %.0f  wake-up latency max %.0f us  overruns %llu",
		    v->stats.last_ns / 1e3, v->stats.mean_ns / 1e3, v->stats.max_ns / 1e3,
		    v->stats.latency_max_ns / 1e3, (unsigned long long)v->stats.overruns);
	else
		put(g, 1, 0, "cycle statistics: not available");
	return 2;
}

/* The joints, in two columns when they fit; returns the next free line. */
static int render_joints(struct grid *g, const struct top_view *v, int r0)
{
	int ncol = 2, colw, nw, per, i;

	colw = g->cols / ncol;
	nw = colw - JOINT_FIELDS - 1;
	if (nw < 6 || v->n_joints < 2) {
		ncol = 1;
		colw = g->cols;
		nw = colw - JOINT_FIELDS;
	}
	if (nw > JOINT_NAME_MAX)
		nw = JOINT_NAME_MAX;
	if (nw < 1)
		nw = 1;
	per = ((int)v->n_joints + ncol - 1) / ncol;
	for (i = 0; i < ncol && (i == 0 || (size_t)i * per < v->n_joints); i++)
		put(g, r0, i * colw, "%-*s %6s %6s %3s %2s %c %4s", nw, "joint", "cmd", "sensor",
		    "stf", "tC", 's', "A");
	if (!v->n_joints)
		put(g, r0 + 1, 0, "no joints");
	for (i = 0; i < (int)v->n_joints; i++)
		render_joint(g, r0 + 1 + i % per, (i / per) * colw, nw, &v->joints[i]);
	return r0 + 1 + (per ? per : 1);
}

static int render_body(struct grid *g, const struct top_view *v, int r)
{
	static const char *const feet[2] = { "LFoot", "RFoot" };
	char a[32], b[32], c[32], d[32], e[32], f[32], h[32], k[32];
	int i;

	put(g, r++, 0, "battery  charge %s %%  current %s A  temperature %s C",
	    num(a, 3, 0, v->charge * 100), num(b, 5, 2, v->bat_current), num(c, 2, 0, v->bat_temp));
	for (i = 0; i < 2; i++) {
		const struct top_foot *ft = &v->foot[i];

		put(g, r++, 0, "%s kg  FL %s FR %s RL %s RR %s  total %s  CoP m x %s y %s", feet[i],
		    num(a, 4, 2, ft->fsr[0]), num(b, 4, 2, ft->fsr[1]), num(c, 4, 2, ft->fsr[2]),
		    num(d, 4, 2, ft->fsr[3]), num(e, 5, 2, ft->total), num(f, 6, 3, ft->cop_x),
		    num(h, 6, 3, ft->cop_y));
	}
	put(g, r++, 0, "inertial angle %s %s  acc %s %s %s  gyr %s %s %s",
	    num(a, 6, 3, v->angle[0]), num(b, 6, 3, v->angle[1]), num(c, 5, 2, v->acc[0]),
	    num(d, 5, 2, v->acc[1]), num(e, 5, 2, v->acc[2]), num(f, 6, 3, v->gyr[0]),
	    num(h, 6, 3, v->gyr[1]), num(k, 6, 3, v->gyr[2]));
	return r;
}

/* The events of the last 30 s, newest first, down to line @last. */
static void render_events(struct grid *g, const struct top_view *v, int r, int last)
{
	unsigned int n = 0, errors = 0, safety = 0;
	size_t i;

	if (v->message[0])
		put(g, r++, 0, "%s", v->message);
	for (i = 0; i < v->n_events; i++) {
		if (dcm_time_diff(v->time, v->events[i].time) > TOP_EVENT_WINDOW_MS)
			continue;
		n++;
		errors += v->events[i].type == DCM_EV_ERROR || v->events[i].type == DCM_EV_NACK;
		safety += v->events[i].type == DCM_EV_SAFETY ||
			  v->events[i].type == DCM_EV_TEMPERATURE;
	}
	if (!v->events_on)
		put(g, r++, 0, "events: not followed (netlink unavailable)");
	else
		put(g, r++, 0, "events, last 30 s: %u (%u error, %u safety)%s", n, errors, safety,
		    v->events_lost ? ", some lost" : "");
	for (i = v->n_events; i-- > 0 && r <= last;) {
		int32_t age = dcm_time_diff(v->time, v->events[i].time);

		if (age > TOP_EVENT_WINDOW_MS)
			continue;
		if (age < 0)
			age = 0;
		put(g, r++, 0, "%5d.%d s ago  %s", age / 1000, age % 1000 / 100, v->events[i].text);
	}
}

void top_render(const struct top_view *v, char *screen, int rows, int cols)
{
	struct grid g = { .s = screen, .rows = rows, .cols = cols };
	char foot[160];
	int r;

	if (rows <= 0 || cols <= 0)
		return;
	for (r = 0; r < rows; r++) {
		memset(screen + (size_t)r * (cols + 1), ' ', cols);
		screen[(size_t)r * (cols + 1) + cols] = '\0';
	}
	r = render_header(&g, v);
	r = render_joints(&g, v, r);
	r = render_body(&g, v, r);
	render_events(&g, v, r, rows - 2);
	/* The last line: how to quit and what the columns mean. */
	snprintf(foot, sizeof(foot),
		 "q: quit  every %u ms  stf: stiffness %%  tC s: temperature, its status 0-3",
		 v->interval_ms);
	memset(screen + (size_t)(rows - 1) * (cols + 1), ' ', cols);
	put(&g, rows - 1, 0, "%s", foot);
}

/* ------------------------------------------------------------------
 * Options
 */

static int parse_interval(const char *s, unsigned int *out)
{
	unsigned long long v;

	if (num_parse_count(s, TOP_MIN_INTERVAL_MS, TOP_MAX_INTERVAL_MS, &v))
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int top_parse_args(int argc, char **argv, unsigned int *interval_ms, bool *once, char *err,
		   size_t errlen)
{
	struct dcmctl_getopt g;
	int c, r = -EINVAL;

	*interval_ms = TOP_DEFAULT_INTERVAL_MS;
	*once = false;
	if (dcmctl_getopt_init(&g, &dcmctl_spec_top, argc, argv, err, errlen))
		return -ENOMEM;
	while ((c = dcmctl_getopt(&g, err, errlen)) > 0) {
		if (c == '1') {
			*once = true;
		} else if (parse_interval(g.optarg, interval_ms)) {
			snprintf(err, errlen, "top: invalid interval '%s' (%d to %d ms)", g.optarg,
				 TOP_MIN_INTERVAL_MS, TOP_MAX_INTERVAL_MS);
			goto out;
		}
	}
	if (!c && g.n_args)
		snprintf(err, errlen, "top: unexpected argument '%s'", g.args[0]);
	else if (!c)
		r = 0;
out:
	dcmctl_getopt_free(&g);
	return r;
}

/* ------------------------------------------------------------------
 * The robot's values: handles into the mapped snapshot
 */

/* The NAO's joints in the order shown; others follow, sorted by name. */
static const char *const joint_order[] = {
	"HeadYaw", "HeadPitch",
	"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
	"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand",
	"LHipYawPitch", "LHipRoll", "LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll",
	"RHipYawPitch", "RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll",
};

struct top_src {
	const struct dcmctl_opts *o;
	struct dcm *dcm;
	struct dcm_snap *snap;
	struct dcm_sysfs *sysfs;
	struct dcm_nl *nl;
	unsigned int index;	/* the controller's */
	size_t n;		/* keys mapped */
	uint32_t handles[TOP_MAX_JOINTS * 5 + 32];
	double *dest[TOP_MAX_JOINTS * 5 + 32];
	double values[TOP_MAX_JOINTS * 5 + 32];
	long long status_read;	/* when the statuses were last read, ms */
};

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int joint_rank(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(joint_order) / sizeof(joint_order[0]); i++)
		if (!strcmp(name, joint_order[i]))
			return (int)i;
	return (int)(sizeof(joint_order) / sizeof(joint_order[0]));
}

static int cmp_joint(const void *a, const void *b)
{
	const struct top_joint *x = a, *y = b;
	int rx = joint_rank(x->name), ry = joint_rank(y->name);

	return rx != ry ? rx - ry : strcmp(x->name, y->name);
}

/* The joints: the subdevices "J/Position/Actuator" whose J has no '/'. */
static int find_joints(struct top_src *src, struct top_view *v)
{
	static const char suffix[] = "/Position/Actuator/Value";
	const size_t plen = strlen(LIBDCM_PREFIX_SUB), slen = strlen(suffix);
	char **keys = NULL;
	size_t n = 0, i;
	int r;

	r = dcm_sysfs_keys(src->sysfs, DCM_SYSFS_SUBDEVICES, &keys, &n);
	if (r)
		return r;
	v->n_joints = 0;
	for (i = 0; i < n && v->n_joints < TOP_MAX_JOINTS; i++) {
		const char *k = keys[i], *name;
		size_t len = strlen(k), nl;

		if (len <= plen + slen || strncmp(k, LIBDCM_PREFIX_SUB, plen) ||
		    strcmp(k + len - slen, suffix))
			continue;
		name = k + plen;
		nl = len - plen - slen;
		if (memchr(name, '/', nl) || nl >= TOP_NAME_LEN)
			continue;
		memcpy(v->joints[v->n_joints].name, name, nl);
		v->joints[v->n_joints].name[nl] = '\0';
		v->n_joints++;
	}
	dcm_sysfs_strv_free(keys, n);
	qsort(v->joints, v->n_joints, sizeof(v->joints[0]), cmp_joint);
	return 0;
}

/* Map key @name (a subdevice) to *@dest; a missing key leaves it NAN. */
static void want(struct top_src *src, const char *name, double *dest)
{
	struct dcm_key k;

	*dest = NAN;
	if (src->n >= sizeof(src->handles) / sizeof(src->handles[0]))
		return;
	if (dcm_lookup(src->dcm, name, &k))
		return;
	src->handles[src->n] = k.handle;
	src->dest[src->n] = dest;
	src->n++;
}

static void read_statuses(struct top_src *src, struct top_view *v)
{
	char key[LIBDCM_MAX_NAME_LEN];
	size_t i;

	for (i = 0; i < v->n_joints; i++) {
		struct top_joint *j = &v->joints[i];
		char *val = NULL;
		long long s;

		j->temp_status = -1;
		snprintf(key, sizeof(key), "%s/Temperature/Sensor/Status", j->name);
		if (dcm_sysfs_read(src->sysfs, key, &val))
			continue;
		if (!num_parse_ll(val, INT_MIN, INT_MAX, &s))
			j->temp_status = (int)s;
		free(val);
	}
	src->status_read = mono_ms();
}

static void src_unmap(struct top_src *src)
{
	dcm_snapshot_unmap(src->snap);
	src->snap = NULL;
	src->n = 0;
}

/*
 * (Re)build the list of keys for the running description: the joints from
 * sysfs, every handle, the mapping. Return 0, or -errno with
 * v->message saying why.
 */
/* The handles of each joint's command, sensor, stiffness, temperature and current. */
static void want_joints(struct top_src *src, struct top_view *v)
{
	char key[LIBDCM_KEY_NAME_LEN];
	size_t i;

	for (i = 0; i < v->n_joints; i++) {
		struct top_joint *j = &v->joints[i];

		snprintf(key, sizeof(key), "%s/Position/Actuator", j->name);
		want(src, key, &j->cmd);
		snprintf(key, sizeof(key), "%s/Position/Sensor", j->name);
		want(src, key, &j->sensor);
		snprintf(key, sizeof(key), "%s/Hardness/Actuator", j->name);
		want(src, key, &j->stiffness);
		snprintf(key, sizeof(key), "%s/Temperature/Sensor", j->name);
		want(src, key, &j->temp);
		snprintf(key, sizeof(key), "%s/ElectricCurrent/Sensor", j->name);
		want(src, key, &j->current);
	}
}

/* The handles of the battery, the feet's pressure sensors and the inertial unit. */
static void want_body(struct top_src *src, struct top_view *v)
{
	static const char *const fsr[] = { "FrontLeft", "FrontRight", "RearLeft", "RearRight" };
	static const char *const feet[] = { "LFoot", "RFoot" };
	char key[LIBDCM_KEY_NAME_LEN];
	size_t i, f;

	want(src, "Battery/Charge/Sensor", &v->charge);
	want(src, "Battery/Current/Sensor", &v->bat_current);
	want(src, "Battery/Temperature/Sensor", &v->bat_temp);
	for (f = 0; f < 2; f++) {
		for (i = 0; i < 4; i++) {
			snprintf(key, sizeof(key), "%s/FSR/%s/Sensor", feet[f], fsr[i]);
			want(src, key, &v->foot[f].fsr[i]);
		}
		snprintf(key, sizeof(key), "%s/FSR/TotalWeight/Sensor", feet[f]);
		want(src, key, &v->foot[f].total);
		snprintf(key, sizeof(key), "%s/FSR/CenterOfPressure/X/Sensor", feet[f]);
		want(src, key, &v->foot[f].cop_x);
		snprintf(key, sizeof(key), "%s/FSR/CenterOfPressure/Y/Sensor", feet[f]);
		want(src, key, &v->foot[f].cop_y);
	}
	want(src, "InertialSensor/AngleX/Sensor", &v->angle[0]);
	want(src, "InertialSensor/AngleY/Sensor", &v->angle[1]);
	want(src, "InertialSensor/AccelerometerX/Sensor", &v->acc[0]);
	want(src, "InertialSensor/AccelerometerY/Sensor", &v->acc[1]);
	want(src, "InertialSensor/AccelerometerZ/Sensor", &v->acc[2]);
	want(src, "InertialSensor/GyroscopeX/Sensor", &v->gyr[0]);
	want(src, "InertialSensor/GyroscopeY/Sensor", &v->gyr[1]);
	want(src, "InertialSensor/GyroscopeZ/Sensor", &v->gyr[2]);
}

static int src_map(struct top_src *src, struct top_view *v)
{
	int r;

	src_unmap(src);
	r = dcm_snapshot_map(src->dcm, &src->snap);
	if (r) {
		snprintf(v->message, sizeof(v->message), "%s",
			 r == -ENODEV ? "no robot description loaded (is dcmd running?)" :
			 dcm_last_error());
		v->n_joints = 0;
		return r;
	}
	r = find_joints(src, v);
	if (r) {
		snprintf(v->message, sizeof(v->message), "%s", dcm_last_error());
		return r;
	}
	want_joints(src, v);
	want_body(src, v);
	read_statuses(src, v);
	v->message[0] = '\0';
	return 0;
}

/* One refresh of @v: values, time, statistics. */
static void src_refresh(struct top_src *src, struct top_view *v)
{
	uint64_t cycle = 0;
	size_t i;
	int r;

	if (dcm_time(src->dcm, 0, &v->time))
		v->time = 0;
	v->has_stats = !dcm_stats(src->dcm, &v->stats);
	if (!src->snap && src_map(src, v))
		return;
	if (!src->n)
		return;
	r = dcm_snapshot_read_many(src->snap, src->handles, src->n, src->values, NULL, &cycle);
	if (r == -ESTALE || (!r && dcm_snapshot_check(src->snap) == -ESTALE)) {
		/* a new description: its names again, then its values */
		if (src_map(src, v) || !src->n)
			return;
		r = dcm_snapshot_read_many(src->snap, src->handles, src->n, src->values, NULL,
					   &cycle);
	}
	if (r) {
		snprintf(v->message, sizeof(v->message), "snapshot: %s", dcm_strerror(r));
		return;
	}
	for (i = 0; i < src->n; i++)
		*src->dest[i] = src->values[i];
	v->cycle = cycle;
	if (!v->events_on && mono_ms() - src->status_read >= TOP_STATUS_REREAD_MS)
		read_statuses(src, v);
}

struct top_ev_ctx {
	struct top_src *src;
	struct top_view *v;
};

static int on_event(const struct dcm_nl_event *ev, void *arg)
{
	struct top_ev_ctx *c = arg;
	struct dcm_event_msg e;
	char line[256], *text;
	size_t i;

	if (ev->cmd != DCM_CMD_EVENT || dcm_nl_parse_event(ev->nlh, &e))
		return 0;
	if (e.index != c->src->index)
		return 0;
	if (e.lost)
		c->v->events_lost += e.lost;
	if (e.type == DCM_EV_TEMPERATURE) {
		for (i = 0; i < c->v->n_joints; i++) {
			size_t l = strlen(c->v->joints[i].name);

			if (!strncmp(e.device, c->v->joints[i].name, l) && e.device[l] == '/')
				c->v->joints[i].temp_status = (int)e.value;
		}
	}
	dcm_event_format(&e, line, sizeof(line));
	/* "dcm0 12345 safety ...": the controller and the time are shown apart */
	text = line;
	for (i = 0; i < 2 && strchr(text, ' '); i++)
		text = strchr(text, ' ') + 1;
	top_add_event(c->v, e.time_ms, e.type, text);
	return 0;
}

static void src_events(struct top_src *src, struct top_view *v)
{
	struct top_ev_ctx c = { .src = src, .v = v };
	int r;

	if (!src->nl)
		return;
	r = dcm_nl_recv(src->nl, on_event, &c);
	if (r == -ENOBUFS) {
		v->events_lost++;
		read_statuses(src, v);	/* a status change may be among them */
	}
}

static int src_open(struct top_src *src, const struct dcmctl_opts *o, struct top_view *v,
		    FILE *err)
{
	struct dcm_info info;

	memset(src, 0, sizeof(*src));
	src->o = o;
	if (dcmctl_open(o, &src->dcm, err))
		return -1;
	if (dcm_get_info(src->dcm, &info)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return -1;
	}
	src->index = info.index;
	snprintf(v->controller, sizeof(v->controller), "%s", info.name);
	snprintf(v->driver, sizeof(v->driver), "%s", info.driver);
	v->period_us = info.period_us;
	if (dcm_sysfs_open(dcmctl_sysfs_root(o), info.index, &src->sysfs)) {
		fprintf(err, "dcmctl: %s\n", dcm_last_error());
		return -1;
	}
	if (!dcm_nl_open(&src->nl) && !dcm_nl_subscribe_events(src->nl)) {
		v->events_on = true;
	} else {
		dcm_nl_close(src->nl);
		src->nl = NULL;
	}
	src_map(src, v);
	return 0;
}

static void src_close(struct top_src *src)
{
	src_unmap(src);
	dcm_nl_close(src->nl);
	dcm_sysfs_close(src->sysfs);
	dcm_close(src->dcm);
}

/* ------------------------------------------------------------------
 * The terminal
 */

static volatile sig_atomic_t top_quit, top_resized, top_stop;

static void on_signal(int sig)
{
	if (sig == SIGWINCH)
		top_resized = 1;
	else if (sig == SIGTSTP)
		top_stop = 1;
	else
		top_quit = 1;
}

/*
 * Where the screens go: a terminal through ncurses (@scr), or plain text.
 * Keys come from standard input when it is a terminal (@keys).
 */
struct top_term {
	FILE *out;
	SCREEN *scr;			/* NULL: plain text */
	bool keys;
	struct termios saved;		/* standard input's modes, plain text only */
};

/*
 * Raw keys (no echo, no line editing; Ctrl-C still a signal); on a
 * terminal ncurses' program mode, else standard input's own.
 */
static void term_enter(struct top_term *t)
{
	struct termios raw;

	if (t->scr) {
		reset_prog_mode();
		clearok(curscr, TRUE);
		return;
	}
	if (t->keys) {
		raw = t->saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
}

/* The terminal as it was (ncurses: its modes, the normal screen, the cursor). */
static void term_leave(struct top_term *t)
{
	if (t->scr) {
		endwin();
		return;
	}
	fflush(t->out);
	if (t->keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &t->saved);
}

/*
 * ncurses on @t->out if it is a terminal that terminfo knows; plain text
 * otherwise (said on stderr when it is a terminal).
 */
static void term_open(struct top_term *t, FILE *out)
{
	memset(t, 0, sizeof(*t));
	t->out = out;
	if (isatty(fileno(out))) {
		const char *term = getenv("TERM");

		t->scr = newterm(NULL, out, stdin);
		if (!t->scr) {
			fprintf(stderr, "dcmctl: top: terminal type '%s' unknown to terminfo: "
				"plain text\n", term && *term ? term : "(none)");
		} else {
			set_term(t->scr);
			cbreak();
			noecho();
			nonl();
			intrflush(stdscr, FALSE);
			typeahead(-1);
			curs_set(0);
			leaveok(stdscr, TRUE);
		}
	}
	if (t->scr)
		t->keys = isatty(STDIN_FILENO);
	else
		t->keys = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &t->saved);
}

static void term_close(struct top_term *t)
{
	term_leave(t);
	if (t->scr) {
		delscreen(t->scr);
		t->scr = NULL;
	}
}

/* The size of the terminal on @fd; else $COLUMNS x $LINES; else 80x24. */
static void term_size(int fd, int *rows, int *cols)
{
	struct winsize ws;
	long long n;

	*rows = 24;
	*cols = 80;
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		return;
	}
	if (!num_parse_ll(getenv("LINES"), 1, INT_MAX, &n))
		*rows = (int)n;
	if (!num_parse_ll(getenv("COLUMNS"), 1, INT_MAX, &n))
		*cols = (int)n;
}

/* Print @rows lines of @screen without their trailing blanks. */
static void print_plain(FILE *out, const char *screen, int rows, int cols)
{
	int r;

	for (r = 0; r < rows; r++) {
		const char *l = screen + (size_t)r * (cols + 1);
		int len = cols;

		while (len > 0 && l[len - 1] == ' ')
			len--;
		fprintf(out, "%.*s\n", len, l);
	}
}

/*
 * Draw @screen: on a terminal each line, then "erase to its end"; ncurses
 * sends what changed. The last line stops one column short of the edge,
 * so that no terminal scrolls. Plain text: the lines and a blank one.
 */
static void draw(struct top_term *t, const char *screen, int rows, int cols)
{
	int r;

	if (!t->scr) {
		print_plain(t->out, screen, rows, cols);
		fputc('\n', t->out);
		fflush(t->out);
		return;
	}
	for (r = 0; r < rows; r++) {
		const char *l = screen + (size_t)r * (cols + 1);
		int len = cols;

		if (r == rows - 1 && len > cols - 1)
			len = cols - 1;
		while (len > 0 && l[len - 1] == ' ')
			len--;
		move(r, 0);
		addnstr(l, len);
		clrtoeol();
	}
	refresh();
}

/* A new size: ncurses' is the terminal's, the screen cleared. */
static void term_resized(struct top_term *t, int *rows, int *cols)
{
	term_size(fileno(t->out), rows, cols);
	if (t->scr) {
		resizeterm(*rows, *cols);
		clear();
	}
}

/* The signals run_live() catches, and what they did before. */
struct top_signals {
	struct sigaction sa;
	struct sigaction old_int, old_term, old_hup, old_winch, old_tstp;
};

/* Ours before ncurses starts: it then leaves these signals to us. */
static void catch_signals(struct top_signals *sig)
{
	sig->sa = (struct sigaction){ .sa_handler = on_signal };
	sigemptyset(&sig->sa.sa_mask);
	sigaction(SIGINT, &sig->sa, &sig->old_int);
	sigaction(SIGTERM, &sig->sa, &sig->old_term);
	sigaction(SIGHUP, &sig->sa, &sig->old_hup);
	sigaction(SIGWINCH, &sig->sa, &sig->old_winch);
	sigaction(SIGTSTP, &sig->sa, &sig->old_tstp);
}

static void restore_signals(const struct top_signals *sig)
{
	sigaction(SIGTSTP, &sig->old_tstp, NULL);
	sigaction(SIGINT, &sig->old_int, NULL);
	sigaction(SIGTERM, &sig->old_term, NULL);
	sigaction(SIGHUP, &sig->old_hup, NULL);
	sigaction(SIGWINCH, &sig->old_winch, NULL);
}

/* Ctrl-Z: the terminal as it was while stopped, ours again when continued. */
static void stop_and_continue(struct top_term *t, const struct sigaction *sa)
{
	term_leave(t);
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	/* continued */
	sigaction(SIGTSTP, sa, NULL);
	if (!t->scr && t->keys)
		tcgetattr(STDIN_FILENO, &t->saved);
	term_enter(t);
}

/* The keys typed: q, Q or Ctrl-C quit, as does the end of a non-terminal input. */
static void read_keys(short revents)
{
	if (revents & POLLIN) {
		char buf[64];
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf)), i;

		for (i = 0; i < n; i++)
			if (buf[i] == 'q' || buf[i] == 'Q' || buf[i] == 3)
				top_quit = 1;
		if (n == 0 && !isatty(STDIN_FILENO))
			top_quit = 1;
	} else if (revents & (POLLHUP | POLLERR)) {
		top_quit = 1;
	}
}

/* Until the time @next: a key pressed (if the terminal gives them), the events read. */
static void wait_input(struct top_src *src, struct top_view *v, const struct top_term *t,
		       long long next)
{
	struct pollfd pfd[2];
	int nfd = 0, wait;

	if (t->keys) {
		pfd[nfd].fd = STDIN_FILENO;
		pfd[nfd++].events = POLLIN;
	}
	if (src->nl) {
		pfd[nfd].fd = dcm_nl_event_fd(src->nl);
		pfd[nfd++].events = POLLIN;
	}
	wait = (int)(next - mono_ms());
	if (wait < 0)
		wait = 0;
	if (poll(pfd, nfd, wait) <= 0)
		return;
	if (t->keys)
		read_keys(pfd[0].revents);
	if (src->nl && (pfd[nfd - 1].revents & POLLIN))
		src_events(src, v);
}

static int run_live(struct top_src *src, struct top_view *v, FILE *out)
{
	struct top_signals sig;
	struct top_term t;
	char *screen = NULL;
	int rows = 0, cols = 0;
	long long next = 0;
	int ret = DCMCTL_EXIT_OK;

	catch_signals(&sig);
	term_open(&t, out);
	term_enter(&t);
	top_resized = 1;
	while (!top_quit) {
		if (top_stop) {
			top_stop = 0;
			stop_and_continue(&t, &sig.sa);
			top_resized = 1;
		}
		if (top_resized) {
			top_resized = 0;
			term_resized(&t, &rows, &cols);
			free(screen);
			screen = malloc((size_t)rows * (cols + 1));
			if (!screen) {
				ret = DCMCTL_EXIT_FAIL;
				break;
			}
			next = 0;
		}
		if (mono_ms() >= next) {
			src_refresh(src, v);
			top_render(v, screen, rows, cols);
			draw(&t, screen, rows, cols);
			next = mono_ms() + v->interval_ms;
		}
		wait_input(src, v, &t, next);
	}
	term_close(&t);
	restore_signals(&sig);
	free(screen);
	return ret;
}

static void top_usage(FILE *f)
{
	fprintf(f,
		"Usage: dcmctl [-d DEVICE] top [--interval MS] [--once]\n"
		"\n"
		"The robot on one screen, refreshed every MS ms (default %d, %d to %d): each\n"
		"joint's command and sensor (rad), stiffness (%%), temperature (C) and its\n"
		"status, current (A); the battery; the feet's FSR and centre of pressure; the\n"
		"inertial board; the events of the last 30 s; the cycle's statistics.\n"
		"q or Ctrl-C quits, Ctrl-Z stops it. --once prints one screen, without terminal control, at\n"
		"the terminal's size (else $COLUMNS x $LINES, else 80x24). Not on a terminal, each\n"
		"refresh is printed so, a blank line after it. No JSON (-j): see get, watch, stats.\n",
		TOP_DEFAULT_INTERVAL_MS, TOP_MIN_INTERVAL_MS, TOP_MAX_INTERVAL_MS);
}

static int run_top(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct top_view *v = NULL;
	struct top_src src;
	char msg[160];
	bool once;
	unsigned int interval;
	int r, ret = DCMCTL_EXIT_FAIL;

	r = top_parse_args(o->argc, o->argv, &interval, &once, msg, sizeof(msg));
	if (r) {
		fprintf(err, "dcmctl: %s\n", msg);
		top_usage(err);
		return DCMCTL_EXIT_USAGE;
	}
	if (o->json) {
		fprintf(err, "dcmctl: top: no JSON output, its screen is for people (-j get KEY..., "
			"-j watch KEY..., -j stats give the values)\n");
		return DCMCTL_EXIT_USAGE;
	}
	v = malloc(sizeof(*v));
	if (!v) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	top_view_init(v);
	v->interval_ms = interval;
	if (src_open(&src, o, v, err))
		goto out;
	if (once) {
		int rows, cols;
		char *screen;

		term_size(STDOUT_FILENO, &rows, &cols);
		screen = malloc((size_t)rows * (cols + 1));
		if (!screen) {
			fprintf(err, "dcmctl: out of memory\n");
			goto out;
		}
		src_refresh(&src, v);
		src_events(&src, v);
		top_render(v, screen, rows, cols);
		print_plain(out, screen, rows, cols);
		free(screen);
		ret = DCMCTL_EXIT_OK;
	} else {
		ret = run_live(&src, v, out);
	}
out:
	src_close(&src);
	free(v);
	fflush(out);
	return ret;
}

const struct dcmctl_command dcmctl_cmd_top = {
	.name = "top",
	.run = run_top,
	.args = "[--interval MS] [--once]",
	.help = "the robot on one screen, live (q quits)",
	.details = "Joints (command, sensor, stiffness, temperature and its status,\n"
		"current), battery, feet, inertial board, the last 30 s of events and\n"
		"the cycle's statistics, from the mapped snapshot; fits 80x24. --once\n"
		"prints one screen without terminal control.",
	.spec = &dcmctl_spec_top,
};
