// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: keys, timed commands, aliases, DCM time, values, frames and the
 * cycle's statistics over the ioctls and read() of /dev/dcmN.
 *
 * Values are doubles here and micro-units in the kernel: every conversion
 * goes through dcm_double_to_fixed_checked() and dcm_fixed_to_double().
 * Nothing here keeps state in the handle: each call works in the caller's
 * memory (or its own, freed before it returns), so calls on one handle may
 * run in several threads at once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "libdcm-private.h"

static const char *update_name(unsigned int u)
{
	static const char *const names[] = {
		"clear-all", "merge", "clear-after", "clear-before",
	};

	return u < sizeof(names) / sizeof(names[0]) ? names[u] : "?";
}

/* Why the kernel refused a command, beyond strerror(). */
static const char *set_hint(const struct dcm *dcm, int err)
{
	switch (err) {
	case -EINVAL:
		return " (not an actuator, or a count or field out of range)";
	case -ESTALE:
		return " (the description was replaced: look the key up again)";
	case -ENOSPC:
		return " (an actuator's queue would pass 512 commands; nothing was queued)";
	case -ENOENT:
		return " (no such subdevice, or no description loaded)";
	case -ETIMEDOUT:
		return " (this handle's watchdog fired: arm it again or disarm it to command)";
	case -EBADF:
	case -EPERM:
	case -EACCES:
		return dcm->read_only ?
		       " (the device was opened read-only: commands need write access, the group dcm)" :
		       "";
	default:
		return "";
	}
}

/* @err (-errno of a failed call) with dcm_last_error() set. */
static int ioc_fail(const struct dcm *dcm, int err, const char *what, const char *hint)
{
	return dcm_set_error(err, "%s: %s: %s%s", dcm->path, what, dcm_strerror(err),
			     hint ? hint : "");
}

/* A double of the API to micro-units: finite, within int64_t. */
static int to_fixed(double v, int64_t *out, const char *what, size_t i)
{
	if (isnan(v))
		return dcm_set_error(-EINVAL, "%s: value %zu is NaN", what, i);
	if (isinf(v))
		return dcm_set_error(-EINVAL, "%s: value %zu is infinite", what, i);
	if (dcm_double_to_fixed_checked(v, out))
		return dcm_set_error(-ERANGE, "%s: value %zu (%g) is out of range", what, i, v);
	return 0;
}

/* @n API points to kernel points in @out. */
static int to_points(const struct dcm_timed_point *pts, size_t n, struct dcm_point *out,
		     const char *what)
{
	int64_t v;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		err = to_fixed(pts[i].value, &v, what, i);
		if (err)
			return err;
		out[i].value = v;
		if (pts[i].importance > LIBDCM_MAX_IMPORTANCE)
			return dcm_set_error(-EINVAL, "%s: point %zu: importance %u is past %d",
					     what, i, pts[i].importance, LIBDCM_MAX_IMPORTANCE);
		out[i].time = pts[i].time;
		out[i].importance = pts[i].importance;
	}
	return 0;
}

static int check_update(int update, const char *what)
{
	if (update < LIBDCM_CLEAR_ALL || update > LIBDCM_CLEAR_BEFORE)
		return dcm_set_error(-EINVAL, "%s: unknown update kind %d", what, update);
	return 0;
}

/* A name that must fit in @size bytes with its NUL. */
static int check_name(const char *name, size_t size, const char *what)
{
	if (!name || !*name)
		return dcm_set_error(-EINVAL, "%s: empty name", what);
	if (strnlen(name, size) >= size)
		return dcm_set_error(-ENAMETOOLONG, "%s: %.40s...: name longer than %zu bytes",
				     what, name, size - 1);
	return 0;
}

DCM_EXPORT int dcm_lookup(struct dcm *dcm, const char *name, struct dcm_key *out)
{
	struct dcm_ioc_lookup l;
	int err;

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_lookup: NULL argument");
	err = check_name(name, sizeof(l.name), "dcm_lookup");
	if (err)
		return err;
	memset(&l, 0, sizeof(l));
	memcpy(l.name, name, strlen(name));
	if (ioctl(dcm->fd, DCM_IOC_LOOKUP, &l) < 0) {
		err = -errno;
		if (err == -ENOENT)
			return dcm_set_error(err, "%s: no such key", name);
		return ioc_fail(dcm, err, "DCM_IOC_LOOKUP", NULL);
	}
	out->handle = l.handle;
	out->flags = l.flags;
	return 0;
}

DCM_EXPORT int dcm_set(struct dcm *dcm, uint32_t handle, enum dcm_update_kind update,
		       const struct dcm_timed_point *pts, size_t n)
{
	struct dcm_point stack[16], *kp = stack;
	struct dcm_ioc_set s;
	int err;

	if (!dcm || (n && !pts))
		return dcm_set_error(-EINVAL, "dcm_set: NULL argument");
	err = check_update((int)update, "dcm_set");
	if (err)
		return err;
	if (!handle)
		return dcm_set_error(-EINVAL, "dcm_set: handle 0 (a blank alias member)");
	if (n > LIBDCM_MAX_POINTS)
		return dcm_set_error(-EINVAL, "dcm_set: %zu points, at most %d", n,
				     LIBDCM_MAX_POINTS);
	if (n > sizeof(stack) / sizeof(stack[0])) {
		kp = calloc(n, sizeof(*kp));
		if (!kp)
			return dcm_set_error(-ENOMEM, "out of memory");
	}
	err = to_points(pts, n, kp, "dcm_set");
	if (!err) {
		memset(&s, 0, sizeof(s));
		s.handle = handle;
		s.update = update;
		s.n_points = (uint32_t)n;
		s.points = (uintptr_t)kp;
		if (ioctl(dcm->fd, DCM_IOC_SET, &s) < 0) {
			char what[64];

			err = -errno;
			snprintf(what, sizeof(what), "DCM_IOC_SET (%s, %zu point%s)",
				 update_name(update), n, n == 1 ? "" : "s");
			err = ioc_fail(dcm, err, what, set_hint(dcm, err));
		}
	}
	if (kp != stack)
		free(kp);
	return err;
}

DCM_EXPORT int dcm_set_now(struct dcm *dcm, uint32_t handle, enum dcm_update_kind update,
			   double value, int32_t offset_ms)
{
	struct dcm_timed_point p = { .value = value };
	int err;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_set_now: NULL argument");
	err = dcm_time(dcm, offset_ms, &p.time);
	if (err)
		return err;
	return dcm_set(dcm, handle, update, &p, 1);
}

static int alias_create(struct dcm *dcm, const char *name, const char *const *members,
			size_t n, uint32_t *handles_out, uint32_t flags)
{
	struct dcm_ioc_alias_create a;
	char (*names)[DCM_KEY_NAME_LEN] = NULL;
	uint32_t *handles = NULL;
	size_t i;
	int err, found = 0;

	if (!dcm || !members)
		return dcm_set_error(-EINVAL, "dcm_alias_create: NULL argument");
	err = check_name(name, sizeof(a.name), "dcm_alias_create");
	if (err)
		return err;
	if (!n || n > LIBDCM_MAX_ALIAS_MEMBERS)
		return dcm_set_error(-EINVAL, "alias %s: %zu members, 1 to %d", name, n,
				     LIBDCM_MAX_ALIAS_MEMBERS);
	names = calloc(n, sizeof(*names));
	handles = calloc(n, sizeof(*handles));
	if (!names || !handles) {
		err = dcm_set_error(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!members[i]) {
			err = dcm_set_error(-EINVAL, "alias %s: member %zu is NULL", name, i);
			goto out;
		}
		/* Too long to be a key: an empty name, a blank member. */
		if (strlen(members[i]) < DCM_KEY_NAME_LEN)
			memcpy(names[i], members[i], strlen(members[i]));
	}
	memset(&a, 0, sizeof(a));
	memcpy(a.name, name, strlen(name));
	a.n_members = (uint32_t)n;
	/* Before ABI 1.4 every alias is shared, and the field must be 0. */
	a.flags = dcm->version.minor >= 4 ? flags : 0;
	a.members = (uintptr_t)names;
	a.handles = (uintptr_t)handles;
	if (ioctl(dcm->fd, DCM_IOC_ALIAS_CREATE, &a) < 0) {
		err = -errno;
		err = ioc_fail(dcm, err, "DCM_IOC_ALIAS_CREATE",
			       err != -ENOSPC ? NULL : flags ?
			       " (all 64 shared aliases are taken: delete one)" :
			       " (this handle has 64 aliases: delete one)");
		goto out;
	}
	for (i = 0; i < n; i++)
		found += handles[i] != 0;
	if (handles_out)
		memcpy(handles_out, handles, n * sizeof(*handles));
	err = found;
out:
	free(names);
	free(handles);
	return err;
}

DCM_EXPORT int dcm_alias_create(struct dcm *dcm, const char *name,
				const char *const *members, size_t n,
				uint32_t *handles_out)
{
	return alias_create(dcm, name, members, n, handles_out, 0);
}

DCM_EXPORT int dcm_alias_create_shared(struct dcm *dcm, const char *name,
				       const char *const *members, size_t n,
				       uint32_t *handles_out)
{
	return alias_create(dcm, name, members, n, handles_out, DCM_ALIAS_F_SHARED);
}

static const char *alias_hint(int err)
{
	switch (err) {
	case -ENOENT:
		return " (no such alias: create it first)";
	case -EINVAL:
		return " (give one entry per member, blank members included; or a count out of range)";
	case -ENOSPC:
		return " (a member's queue would pass 512 commands; nothing was queued)";
	case -ENODEV:
		return " (no description loaded)";
	default:
		return NULL;
	}
}

static int alias_set(struct dcm *dcm, struct dcm_ioc_alias_set *a, const char *mode)
{
	char what[128];
	int err;

	if (ioctl(dcm->fd, DCM_IOC_ALIAS_SET, a) < 0) {
		err = -errno;
		if (a->mode == DCM_ALIAS_SAME) {
			snprintf(what, sizeof(what), "DCM_IOC_ALIAS_SET %s (%s, %s, %u point%s)",
				 a->name, mode, update_name(a->update), a->n_times,
				 a->n_times == 1 ? "" : "s");
			return ioc_fail(dcm, err, what,
					err == -EINVAL ? " (a point's field out of range)" :
					alias_hint(err));
		}
		snprintf(what, sizeof(what), "DCM_IOC_ALIAS_SET %s (%s, %s, %u member%s)",
			 a->name, mode, update_name(a->update), a->n_members,
			 a->n_members == 1 ? "" : "s");
		return ioc_fail(dcm, err, what, alias_hint(err));
	}
	return 0;
}

static int alias_args(struct dcm *dcm, const char *name, int update, size_t n_members,
		      struct dcm_ioc_alias_set *a, const char *what)
{
	int err;

	if (!dcm)
		return dcm_set_error(-EINVAL, "%s: NULL argument", what);
	err = check_name(name, sizeof(a->name), what);
	if (!err)
		err = check_update(update, what);
	if (err)
		return err;
	if (!n_members || n_members > LIBDCM_MAX_ALIAS_MEMBERS)
		return dcm_set_error(-EINVAL, "alias %s: %zu members, 1 to %d", name, n_members,
				     LIBDCM_MAX_ALIAS_MEMBERS);
	memset(a, 0, sizeof(*a));
	memcpy(a->name, name, strlen(name));
	a->update = (uint32_t)update;
	a->n_members = (uint32_t)n_members;
	return 0;
}

DCM_EXPORT int dcm_alias_set_separate(struct dcm *dcm, const char *name,
				      enum dcm_update_kind update,
				      const uint32_t *times, size_t n_times,
				      const double *values, size_t n_members,
				      uint8_t importance)
{
	struct dcm_ioc_alias_set a;
	int64_t *kv;
	size_t i;
	int err;

	err = alias_args(dcm, name, (int)update, n_members, &a, "dcm_alias_set_separate");
	if (err)
		return err;
	if (!times || !values)
		return dcm_set_error(-EINVAL, "dcm_alias_set_separate: NULL argument");
	if (!n_times || n_times > LIBDCM_MAX_POINTS)
		return dcm_set_error(-EINVAL, "alias %s: %zu times, 1 to %d", name, n_times,
				     LIBDCM_MAX_POINTS);
	if (importance > LIBDCM_MAX_IMPORTANCE)
		return dcm_set_error(-EINVAL, "alias %s: importance %u is past %d", name,
				     importance, LIBDCM_MAX_IMPORTANCE);
	kv = calloc(n_members * n_times, sizeof(*kv));
	if (!kv)
		return dcm_set_error(-ENOMEM, "out of memory");
	for (i = 0; i < n_members * n_times; i++) {
		err = to_fixed(values[i], &kv[i], "dcm_alias_set_separate", i);
		if (err)
			goto out;
	}
	a.mode = DCM_ALIAS_TIME_SEPARATE;
	a.n_times = (uint32_t)n_times;
	a.importance = importance;
	a.times = (uintptr_t)times;
	a.values = (uintptr_t)kv;
	err = alias_set(dcm, &a, "time-separate");
out:
	free(kv);
	return err;
}

DCM_EXPORT int dcm_alias_set_mixed(struct dcm *dcm, const char *name,
				   enum dcm_update_kind update,
				   const struct dcm_timed_point *points,
				   const size_t *counts, size_t n_members)
{
	struct dcm_ioc_alias_set a;
	struct dcm_point *kp = NULL;
	uint32_t *kc = NULL;
	size_t i, total = 0;
	int err;

	err = alias_args(dcm, name, (int)update, n_members, &a, "dcm_alias_set_mixed");
	if (err)
		return err;
	if (!counts)
		return dcm_set_error(-EINVAL, "dcm_alias_set_mixed: NULL argument");
	for (i = 0; i < n_members; i++) {
		if (counts[i] > LIBDCM_MAX_POINTS)
			return dcm_set_error(-EINVAL, "alias %s: member %zu: %zu points, at most %d",
					     name, i, counts[i], LIBDCM_MAX_POINTS);
		total += counts[i];
	}
	if (total && !points)
		return dcm_set_error(-EINVAL, "dcm_alias_set_mixed: NULL argument");
	kc = calloc(n_members, sizeof(*kc));
	kp = calloc(total ? total : 1, sizeof(*kp));
	if (!kc || !kp) {
		err = dcm_set_error(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n_members; i++)
		kc[i] = (uint32_t)counts[i];
	err = to_points(points, total, kp, "dcm_alias_set_mixed");
	if (err)
		goto out;
	a.mode = DCM_ALIAS_TIME_MIXED;
	a.counts = (uintptr_t)kc;
	a.points = (uintptr_t)kp;
	err = alias_set(dcm, &a, "time-mixed");
out:
	free(kc);
	free(kp);
	return err;
}

DCM_EXPORT int dcm_alias_set_all(struct dcm *dcm, const char *name, enum dcm_update_kind update,
				 const struct dcm_timed_point *pts, size_t n)
{
	struct dcm_ioc_alias_set a;
	struct dcm_point *kp;
	int err;

	/* alias_args() wants a member count: 1 stands for "the alias's". */
	err = alias_args(dcm, name, (int)update, 1, &a, "dcm_alias_set_all");
	if (err)
		return err;
	if (n && !pts)
		return dcm_set_error(-EINVAL, "dcm_alias_set_all: NULL argument");
	if (n > LIBDCM_MAX_POINTS)
		return dcm_set_error(-EINVAL, "alias %s: %zu points, at most %d", name, n,
				     LIBDCM_MAX_POINTS);
	if (dcm->version.minor < 3)
		return dcm_set_error(-EOPNOTSUPP,
				     "%s: set on alias %s: the kernel's ABI %u.%u cannot (1.3 and later)",
				     dcm->path, name, dcm->version.major, dcm->version.minor);
	kp = calloc(n ? n : 1, sizeof(*kp));
	if (!kp)
		return dcm_set_error(-ENOMEM, "out of memory");
	err = to_points(pts, n, kp, "dcm_alias_set_all");
	if (!err) {
		a.mode = DCM_ALIAS_SAME;
		a.n_members = 0;
		a.n_times = (uint32_t)n;
		a.points = (uintptr_t)kp;
		err = alias_set(dcm, &a, "same");
	}
	free(kp);
	return err;
}

DCM_EXPORT int dcm_time(struct dcm *dcm, int32_t offset, uint32_t *out)
{
	struct dcm_ioc_time t = { .offset = offset };

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_time: NULL argument");
	if (ioctl(dcm->fd, DCM_IOC_TIME, &t) < 0)
		return ioc_fail(dcm, -errno, "DCM_IOC_TIME", NULL);
	*out = t.time;
	return 0;
}

DCM_EXPORT int dcm_get(struct dcm *dcm, const uint32_t *handles, size_t n,
		       double *values, uint32_t *times)
{
	struct dcm_ioc_get g;
	uint32_t *kt;
	int64_t *kv;
	size_t i;
	int err = 0;

	if (!dcm || !handles || !values)
		return dcm_set_error(-EINVAL, "dcm_get: NULL argument");
	if (!n || n > LIBDCM_MAX_SUBDEVICES)
		return dcm_set_error(-EINVAL, "dcm_get: %zu handles, 1 to %d", n,
				     LIBDCM_MAX_SUBDEVICES);
	kv = calloc(n, sizeof(*kv));
	kt = calloc(n, sizeof(*kt));
	if (!kv || !kt) {
		err = dcm_set_error(-ENOMEM, "out of memory");
		goto out;
	}
	memset(&g, 0, sizeof(g));
	g.n = (uint32_t)n;
	g.handles = (uintptr_t)handles;
	g.values = (uintptr_t)kv;
	g.times = (uintptr_t)kt;
	if (ioctl(dcm->fd, DCM_IOC_GET, &g) < 0) {
		err = -errno;
		err = ioc_fail(dcm, err, "DCM_IOC_GET",
			       err == -ESTALE ? " (the description was replaced: look the keys up again)" :
			       err == -ENOENT ? " (no such subdevice, or no description loaded)" :
			       NULL);
		goto out;
	}
	for (i = 0; i < n; i++) {
		values[i] = dcm_fixed_to_double(kv[i]);
		if (times)
			times[i] = kt[i];
	}
out:
	free(kv);
	free(kt);
	return err;
}

/* ------------------------------------------------------------------
 * Frames
 */

/* What the library allocated for a struct dcm_values_frame. */
struct frame_priv {
	struct dcm_frame *raw;	/* read() buffer */
	size_t raw_n;		/* values it holds */
	double *own;		/* the values, when the library allocates them */
	size_t own_n;
};

static int grow_raw(struct frame_priv *p, size_t n)
{
	struct dcm_frame *raw;

	if (n < 1)
		n = 1;
	if (n <= p->raw_n && p->raw)
		return 0;
	raw = realloc(p->raw, sizeof(*raw) + n * sizeof(raw->values[0]));
	if (!raw)
		return dcm_set_error(-ENOMEM, "out of memory");
	p->raw = raw;
	p->raw_n = n;
	return 0;
}

static int n_subdevices(struct dcm *dcm, size_t *n)
{
	struct dcm_info info;
	int err = dcm_get_info(dcm, &info);

	if (!err)
		*n = info.n_subdevices;
	return err;
}

/* The values of a frame in the descriptor's read mode (ABI 1.4), or 0. */
static size_t frame_values(struct dcm *dcm)
{
	struct dcm_ioc_read_mode m;

	if (dcm->version.minor < 4)
		return 0;
	memset(&m, 0, sizeof(m));
	if (ioctl(dcm->fd, DCM_IOC_READ_MODE, &m) || m.frame_size < sizeof(struct dcm_frame))
		return 0;
	return (m.frame_size - sizeof(struct dcm_frame)) / sizeof(int64_t);
}

DCM_EXPORT int dcm_frame_keys(struct dcm *dcm, bool on)
{
	struct dcm_ioc_read_mode m;
	int err;

	if (!dcm)
		return dcm_set_error(-EINVAL, "dcm_frame_keys: NULL argument");
	if (dcm->version.minor < 4)
		return dcm_set_error(-EOPNOTSUPP,
				     "%s: live keys in frames need ABI 1.4, the module has %u.%u",
				     dcm->path, dcm->version.major, dcm->version.minor);
	memset(&m, 0, sizeof(m));
	m.flags = on ? DCM_READ_F_KEYS : 0;
	m.mask = DCM_READ_F_KEYS;
	if (ioctl(dcm->fd, DCM_IOC_READ_MODE, &m) < 0) {
		err = -errno;
		return ioc_fail(dcm, err, "DCM_IOC_READ_MODE", NULL);
	}
	return 0;
}

/*
 * One frame into p->raw, the buffer grown when a bigger description came
 * in since it was sized (read() says EINVAL). Return the bytes read, or a
 * negative errno (dcm_last_error() set).
 */
static ssize_t read_raw(struct dcm *dcm, struct frame_priv *p)
{
	size_t n;
	ssize_t r;
	int err, tries;

	for (tries = 0;; tries++) {
		r = read(dcm->fd, p->raw, sizeof(*p->raw) + p->raw_n * sizeof(p->raw->values[0]));
		if (r >= 0)
			return r;
		err = -errno;
		/* EINVAL: too small, a bigger description came in meanwhile */
		if (err == -EINVAL && tries < 3) {
			size_t before = p->raw_n;

			err = n_subdevices(dcm, &n);
			if (err)
				return err;
			/* with the live keys (dcm_frame_keys()), more */
			if (frame_values(dcm) > n)
				n = frame_values(dcm);
			if (n > before) {
				err = grow_raw(p, n);
				if (err)
					return err;
				continue;
			}
			err = -EINVAL;
		}
		return dcm_set_error(err, "%s: read: %s%s", dcm->path, dcm_strerror(err),
				     err == -ENODEV ? " (the controller is gone)" : "");
	}
}

/*
 * Room for @n values in @frame: the caller's buffer (-EMSGSIZE if it is
 * too small, frame->n_values then says how many), else the frame's own.
 */
static int frame_room(struct dcm_values_frame *frame, struct frame_priv *p, size_t n)
{
	size_t want;
	double *v;

	if (frame->values && frame->values != p->own) {
		if (frame->capacity >= n)
			return 0;
		frame->n_values = n;
		return dcm_set_error(-EMSGSIZE,
				     "dcm_read_frame: the buffer holds %zu values, the frame has %zu",
				     frame->capacity, n);
	}
	if (!p->own || p->own_n < n) {
		want = n ? n : 1;
		v = realloc(p->own, want * sizeof(*v));
		if (!v)
			return dcm_set_error(-ENOMEM, "out of memory");
		p->own = v;
		p->own_n = want;
	}
	frame->values = p->own;
	frame->capacity = p->own_n;
	return 0;
}

DCM_EXPORT int dcm_read_frame(struct dcm *dcm, struct dcm_values_frame *frame)
{
	struct frame_priv *p;
	struct dcm_frame *raw;
	size_t n, i;
	ssize_t r;
	int err;

	if (!dcm || !frame)
		return dcm_set_error(-EINVAL, "dcm_read_frame: NULL argument");
	p = frame->priv;
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return dcm_set_error(-ENOMEM, "out of memory");
		frame->priv = p;
	}
	if (!p->raw) {
		err = n_subdevices(dcm, &n);
		if (!err)
			err = grow_raw(p, n);
		if (err)
			return err;
	}
	r = read_raw(dcm, p);
	if (r < 0)
		return (int)r;
	raw = p->raw;
	if ((size_t)r < sizeof(*raw) || raw->n_values > p->raw_n ||
	    (size_t)r != sizeof(*raw) + raw->n_values * sizeof(raw->values[0]))
		return dcm_set_error(-EPROTO, "%s: read: a frame of %zd bytes for %u values",
				     dcm->path, r, (size_t)r >= sizeof(*raw) ? raw->n_values : 0);
	n = raw->n_values;
	err = frame_room(frame, p, n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		frame->values[i] = dcm_fixed_to_double(raw->values[i]);
	frame->cycle = raw->cycle;
	frame->time = raw->time;
	frame->generation = raw->generation;
	frame->n_values = n;
	return 0;
}

DCM_EXPORT void dcm_values_frame_release(struct dcm_values_frame *frame)
{
	struct frame_priv *p;

	if (!frame)
		return;
	p = frame->priv;
	if (p) {
		free(p->raw);
		free(p->own);
		free(p);
	}
	memset(frame, 0, sizeof(*frame));
}

DCM_EXPORT int dcm_poll_fd(const struct dcm *dcm)
{
	return dcm_fd(dcm);
}

/* ------------------------------------------------------------------
 * Statistics
 */

DCM_EXPORT int dcm_stats(struct dcm *dcm, struct dcm_stats *out)
{
	struct dcm_ioc_stats st;
	unsigned int i;

	if (!dcm || !out)
		return dcm_set_error(-EINVAL, "dcm_stats: NULL argument");
	memset(&st, 0, sizeof(st));
	/* A kernel of ABI 1.2 or older knows the layout without missed only. */
	if (ioctl(dcm->fd, DCM_IOC_STATS, &st) < 0 &&
	    (errno != ENOTTY || ioctl(dcm->fd, DCM_IOC_STATS_V1, &st) < 0))
		return ioc_fail(dcm, -errno, "DCM_IOC_STATS", NULL);
	out->cycles = st.cycles;
	out->overruns = st.overruns;
	out->last_ns = st.last_ns;
	out->mean_ns = st.mean_ns;
	out->max_ns = st.max_ns;
	out->latency_max_ns = st.latency_max_ns;
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++)
		out->latency_hist[i] = st.latency_hist[i];
	return 0;
}

DCM_EXPORT uint64_t dcm_latency_bucket_ns(unsigned int i)
{
	static const uint64_t limits_us[LIBDCM_LATENCY_BUCKETS - 1] = {
		10, 20, 50, 100, 200, 500, 1000, 2000, 5000,
	};

	return i < LIBDCM_LATENCY_BUCKETS - 1 ? limits_us[i] * 1000 : UINT64_MAX;
}
