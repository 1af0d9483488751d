// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: command. One client commands at a time, on a handle of its own
 * with the kernel's client watchdog armed (--timeout, --on-silence), through
 * one alias per LoLA key. A value outside its actuator's range is clamped
 * to it, as the DCM's set does. A commander that disconnects keeps its
 * handle until the maps it sent have been applied.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lola_daemon.h"

#define ALIAS_PREFIX	"dcm-lola."

void lola_command_init(struct lola_command *k, const struct lola_opts *opt)
{
	memset(k, 0, sizeof(*k));
	k->opt = opt;
	k->sonar_last = -1;
}

void lola_command_map(struct lola_command *k, struct dcm *dcm, struct dcm_sysfs *sys)
{
	unsigned int grp, m, n;
	char name[128], key[160];
	struct dcm_key us;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		n = lola_group_members(grp);
		for (m = 0; m < LOLA_A_MAX_ELEMS + 1; m++) {
			k->lim_min[grp][m] = NAN;
			k->lim_max[grp][m] = NAN;
			if (m >= n || lola_actuator_key(grp, m, name, sizeof(name)))
				continue;
			snprintf(key, sizeof(key), "%s/Min", name);
			if (dcm_sysfs_get_double(sys, key, &k->lim_min[grp][m]))
				k->lim_min[grp][m] = NAN;
			snprintf(key, sizeof(key), "%s/Max", name);
			if (dcm_sysfs_get_double(sys, key, &k->lim_max[grp][m]))
				k->lim_max[grp][m] = NAN;
		}
	}
	k->us_handle = dcm_lookup(dcm, "US/Actuator", &us) == 0 ? us.handle : 0;
	k->mapped = true;
}

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
			lola_logmsg("alias %s: %s", alias, dcm_last_error());
			return ret;
		}
		if ((unsigned int)ret < n)
			lola_logmsg("%s: %u of its %u actuators are not in the description",
				    lola_groups[grp].name, n - (unsigned int)ret, n);
	}
	return 0;
}

static const char *action_text(const struct lola_command *k)
{
	return k->opt->action == LIBDCM_WATCHDOG_HOLD ? "the robot holds its commands" :
	       "stiffness ramped down by the watchdog";
}

void lola_command_finish(struct lola_command *k)
{
	if (!k->closing)
		return;
	lola_logmsg("client %u: its last map has been applied; handle closed (%s)",
		    k->closing_id, action_text(k));
	dcm_close(k->closing);
	k->closing = NULL;
	k->closing_id = 0;
}

/*
 * A silent commander (@wait false) had the watchdog's action already: its
 * handle is closed now. One that disconnected keeps its handle until the
 * maps it sent have been applied, two cycles after the last was queued
 * (applied at the next cycle, or the one after when that cycle had begun):
 * closing an armed handle drops what is still queued, and a client's last
 * map (B-Human's "all stiffness 0" before it closes) must reach the motors.
 * Command is free meanwhile.
 */
void lola_command_release(struct lola_command *k, struct lola_log *log, struct lola_client *c,
			  const char *why, bool wait, uint64_t last_cycle)
{
	if (!k->cmd)
		return;
	lola_command_finish(k);
	if (wait && k->cmd_cycle + 2 > last_cycle) {
		lola_clientlog(log, c, LOLA_LOG_COMMAND,
			       "client %u %s: command released once its last map is applied (%s)",
			       k->commander, why, action_text(k));
		k->closing = k->cmd;
		k->closing_id = k->commander;
		k->closing_cycle = k->cmd_cycle + 2;
	} else {
		lola_clientlog(log, c, LOLA_LOG_COMMAND, "client %u %s: command released (%s)",
			       k->commander, why, action_text(k));
		dcm_close(k->cmd);
	}
	k->cmd = NULL;
	k->commander = 0;
}

/*
 * A new commander while the last one's handle waits to close: that handle
 * is disarmed and closed, so the commands it queued stay queued and apply,
 * and no safe action runs (someone commands the robot again).
 */
static void hand_over(struct lola_command *k)
{
	if (!k->closing)
		return;
	dcm_watchdog_disarm(k->closing);
	lola_logmsg("client %u: handle closed, its queued commands kept (command taken over)",
		    k->closing_id);
	dcm_close(k->closing);
	k->closing = NULL;
	k->closing_id = 0;
}

static int arm(const struct lola_command *k)
{
	const struct lola_opts *o = k->opt;

	return dcm_watchdog_arm(k->cmd, o->timeout_ms, o->action,
				o->action == LIBDCM_WATCHDOG_RAMP ? o->ramp_ms : 0);
}

int lola_command_take(struct lola_command *k, struct lola_log *log, struct lola_client *c)
{
	int ret;

	hand_over(k);
	ret = dcm_open(k->opt->device, &k->cmd);
	if (ret) {
		lola_logmsg("%s: %s", k->opt->device, dcm_last_error());
		return ret;
	}
	ret = arm(k);
	if (!ret)
		ret = create_aliases(k->cmd);
	if (ret) {
		lola_clientlog(log, c, LOLA_LOG_COMMAND, "client %u cannot take command: %s", c->id,
			       ret == -EBADF ? "no write access to the controller" :
			       dcm_strerror(ret));
		dcm_watchdog_disarm(k->cmd);
		dcm_close(k->cmd);
		k->cmd = NULL;
		return ret;
	}
	k->commander = c->id;
	k->sonar_last = -1;
	k->taken++;
	lola_clientlog(log, c, LOLA_LOG_COMMAND,
		       "client %u (pid %d) takes command (watchdog %u ms, %s)", c->id, (int)c->pid,
		       k->opt->timeout_ms, k->opt->action == LIBDCM_WATCHDOG_HOLD ? "hold" : "ramp");
	return 0;
}

/*
 * The DCM's rule for a value outside its actuator's Min .. Max: clamped,
 * as a set is. Counted; the first of each key and client logged.
 */
static double clamp_value(struct lola_command *k, struct lola_client *c, unsigned int grp,
			  unsigned int m, double v)
{
	double lo = k->lim_min[grp][m], hi = k->lim_max[grp][m], to;
	char name[128];

	if (!k->mapped || (!(v < lo) && !(v > hi)))
		return v;	/* in range, or the range not known (yet) */
	to = v < lo ? lo : hi;
	c->clamped++;
	k->clamped++;
	if (!(c->clamp_logged & (1U << grp))) {
		c->clamp_logged |= 1U << grp;
		if (lola_actuator_key(grp, m, name, sizeof(name)))
			name[0] = 0;
		lola_logmsg("client %u: %s[%u] %g is outside %s's %g .. %g: clamped to %g (as a "
			    "set is; more of %s counted, not logged)", c->id, lola_groups[grp].name,
			    lola_member_element(grp, m), v, name, lo, hi, to,
			    lola_groups[grp].name);
	}
	return to;
}

/* Every value of a map within its actuator's range (element 7: LHipYawPitch's). */
void lola_command_clamp(struct lola_command *k, struct lola_client *c, struct lola_actuators *a)
{
	unsigned int grp, i;

	for (grp = 0; grp < LOLA_A_GROUPS; grp++) {
		if (!(a->present & (1U << grp)) || !lola_group_members(grp))
			continue;
		for (i = 0; i < lola_groups[grp].n; i++)
			a->v[grp][i] = clamp_value(k, c, grp, i, a->v[grp][i]);
	}
}

static int apply_once(struct lola_command *k, const struct lola_actuators *a, uint32_t t)
{
	double vals[LOLA_A_MAX_ELEMS + 1];
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
		ret = dcm_alias_set_separate(k->cmd, alias, LIBDCM_CLEAR_ALL, &t, 1, vals, n, 0);
		if (ret)
			return ret;
		sent = true;
	}
	if ((a->present & (1U << LOLA_A_SONAR)) && k->us_handle) {
		int mode = lola_sonar_mode(a->v[LOLA_A_SONAR][0] != 0, a->v[LOLA_A_SONAR][1] != 0);

		if (mode != k->sonar_last) {
			struct dcm_timed_point p = { .value = mode, .time = t };

			ret = dcm_set(k->cmd, k->us_handle, LIBDCM_CLEAR_ALL, &p, 1);
			if (ret)
				return ret;
			k->sonar_last = mode;
			sent = true;
		}
	}
	return sent ? 0 : dcm_watchdog_kick(k->cmd);
}

/* @t: the DCM time of the last frame, past: the commands apply at the next cycle. */
int lola_command_apply(struct lola_command *k, const struct lola_actuators *a, uint32_t t)
{
	int ret = apply_once(k, a, t);

	if (ret == -ETIMEDOUT) {
		/* The kernel's watchdog fired just before: arm it again. */
		ret = arm(k);
		if (!ret)
			ret = apply_once(k, a, t);
	}
	if (ret == -ENOENT || ret == -ESTALE) {
		/* A new description: its aliases again. */
		ret = create_aliases(k->cmd);
		if (!ret)
			ret = apply_once(k, a, t);
	}
	return ret;
}
