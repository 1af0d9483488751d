// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmd: sending a loaded description to a sink as one transaction, and the
 * netlink sink (the kernel, through libdcm).
 *
 * Order: BEGIN, every kept device, every kept subdevice, the keys of the
 * devices, of the subdevices (Min and Max first), the RobotConfig keys,
 * COMMIT. Each step waits for its answer, so a refusal is tied to the
 * element or key that caused it and reported with its file and line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/dcm.h>

#include "desc.h"

static void key_value(const struct desc_key *k, struct dcm_key_value *v)
{
	v->kind = k->kind;
	v->num = k->num;
	v->str = k->str;
	v->den = k->kind == LIBDCM_KEY_FLOAT ? k->den : 0;
}

static int fail_at(const struct desc_src *src, const char *why, int ret,
		   char *err, size_t errlen)
{
	if (src && src->line > 0)
		snprintf(err, errlen, "%s:%d: %s", src->file, src->line, why);
	else if (src)
		snprintf(err, errlen, "%s: %s", src->file, why);
	else
		snprintf(err, errlen, "%s", why);
	return ret;
}

/* Copy the word of @why after @prefix (up to a blank) into @buf. */
static bool word_after(const char *why, const char *prefix, char *buf, size_t len)
{
	size_t n;

	if (strncmp(why, prefix, strlen(prefix)))
		return false;
	why += strlen(prefix);
	n = strcspn(why, " ");
	if (!n || n >= len)
		return false;
	memcpy(buf, why, n);
	buf[n] = '\0';
	return true;
}

/*
 * Which element a commit refusal is about: the kernel's whole-description
 * checks say "subdevice NAME ..." or "RobotConfig key PATH ..."; the dry
 * run's tree check gives a sysfs path after "same path: ".
 */
static const struct desc_src *commit_culprit(const struct desc *d, const char *why)
{
	static const char same[] = "same path: ";
	char name[2 * LIBDCM_MAX_NAME_LEN + 64], *end;
	struct desc_subdevice *s;
	struct desc_device *dev;
	struct desc_key *k;
	const char *p;

	if (word_after(why, "subdevice ", name, sizeof(name))) {
		s = desc_find_subdevice(d, name);
		if (s)
			return &s->src;
	}
	if (word_after(why, "RobotConfig key ", name, sizeof(name))) {
		k = desc_find_robot_key(d, name);
		if (k)
			return &k->src;
	}
	p = strstr(why, same);
	if (!p || strlen(p + strlen(same)) >= sizeof(name))
		return NULL;
	strcpy(name, p + strlen(same));
	k = desc_find_robot_key(d, name);
	if (k)
		return &k->src;
	/* a device's or subdevice's key: the element is the path less its key */
	end = strrchr(name, '/');
	if (!end)
		return NULL;
	*end = '\0';
	if (!strncmp(name, DCM_DIR_SUBDEVICES "/", strlen(DCM_DIR_SUBDEVICES "/"))) {
		s = desc_find_subdevice(d, name + strlen(DCM_DIR_SUBDEVICES "/"));
		if (s)
			return &s->src;
	} else if (!strncmp(name, DCM_DIR_DEVICES "/", strlen(DCM_DIR_DEVICES "/"))) {
		dev = desc_find_device(d, name + strlen(DCM_DIR_DEVICES "/"));
		if (dev)
			return &dev->src;
	}
	return NULL;
}

static int push_keys(const struct desc_sink *sink, void *ctx, const char *prefix,
		     const char *name, const struct desc_key *keys, size_t n,
		     unsigned int *steps, char *err, size_t errlen)
{
	char path[2 * LIBDCM_MAX_NAME_LEN + 32];
	struct dcm_key_value v;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s/%s", prefix, name, keys[i].name);
		key_value(&keys[i], &v);
		(*steps)++;
		r = sink->set_key(ctx, path, &v);
		if (r)
			return fail_at(&keys[i].src, sink->why(ctx), r, err, errlen);
	}
	return 0;
}

/* The kept devices, then the kept subdevices, to @sink: 0 or the refused step's error. */
static int push_elements(const struct desc *d, const struct desc_sink *sink, void *ctx,
			 unsigned int *steps, char *err, size_t errlen)
{
	size_t i;
	int r;

	for (i = 0; i < d->n_devices; i++) {
		const struct desc_device *dev = &d->devices[i];

		if (!dev->kept)
			continue;
		(*steps)++;
		r = sink->add_device(ctx, dev->name, dev->type, dev->bus, dev->address);
		if (r)
			return fail_at(&dev->src, sink->why(ctx), r, err, errlen);
	}
	for (i = 0; i < d->n_subdevices; i++) {
		const struct desc_subdevice *s = &d->subdevices[i];

		if (!s->kept)
			continue;
		(*steps)++;
		r = sink->add_subdevice(ctx, s->name, s->type, s->device, s->number);
		if (r)
			return fail_at(&s->src, sink->why(ctx), r, err, errlen);
	}
	return 0;
}

/* The keys of the kept devices, of the kept subdevices, then RobotConfig's, to @sink. */
static int push_all_keys(const struct desc *d, const struct desc_sink *sink, void *ctx,
			 unsigned int *steps, char *err, size_t errlen)
{
	struct dcm_key_value v;
	size_t i;
	int r;

	for (i = 0; i < d->n_devices; i++) {
		const struct desc_device *dev = &d->devices[i];

		if (!dev->kept)
			continue;
		r = push_keys(sink, ctx, DCM_PREFIX_DEVICE, dev->name, dev->keys, dev->n_keys,
			      steps, err, errlen);
		if (r)
			return r;
	}
	for (i = 0; i < d->n_subdevices; i++) {
		const struct desc_subdevice *s = &d->subdevices[i];

		if (!s->kept)
			continue;
		r = push_keys(sink, ctx, "", s->name, s->keys, s->n_keys, steps, err, errlen);
		if (r)
			return r;
	}
	for (i = 0; i < d->n_robot; i++) {
		key_value(&d->robot[i], &v);
		(*steps)++;
		r = sink->set_key(ctx, d->robot[i].name, &v);
		if (r)
			return fail_at(&d->robot[i].src, sink->why(ctx), r, err, errlen);
	}
	return 0;
}

int desc_push(const struct desc *d, const struct desc_sink *sink, void *ctx,
	      struct desc_push_stats *stats, char *err, size_t errlen)
{
	struct desc_src top = { d->n_files ? d->files[0] : "description", 0 };
	struct desc_push_stats st;
	int r;

	memset(&st, 0, sizeof(st));
	err[0] = '\0';
	st.steps++;
	r = sink->begin(ctx);
	if (r) {
		fail_at(NULL, sink->why(ctx), r, err, errlen);
		goto out;
	}
	r = push_elements(d, sink, ctx, &st.steps, err, errlen);
	if (!r)
		r = push_all_keys(d, sink, ctx, &st.steps, err, errlen);
	if (r) {
		/* A refused step already ended it in the kernel; this is for the rest. */
		sink->abort(ctx);
		goto out;
	}
	st.steps++;
	r = sink->commit(ctx, &st.counts);
	if (r) {
		const char *why = sink->why(ctx);
		const struct desc_src *src = commit_culprit(d, why);

		/* a failed commit ends the transaction: no abort */
		fail_at(src ? src : &top, why, r, err, errlen);
	}
out:
	if (stats)
		*stats = st;
	return r;
}

/* ------------------------------------------------------------------
 * The netlink sink
 */

static int nl_begin(void *ctx)
{
	struct desc_nl_sink *s = ctx;

	return dcm_nl_config_begin(s->nl, s->index);
}

static int nl_add_device(void *ctx, const char *name, const char *type,
			 const char *bus, unsigned int address)
{
	struct desc_nl_sink *s = ctx;

	return dcm_nl_config_add_device(s->nl, s->index, name, type, bus, address);
}

static int nl_add_subdevice(void *ctx, const char *name, const char *type,
			    const char *device, unsigned int number)
{
	struct desc_nl_sink *s = ctx;

	return dcm_nl_config_add_subdevice(s->nl, s->index, name, type, device, number);
}

static int nl_set_key(void *ctx, const char *path, const struct dcm_key_value *v)
{
	struct desc_nl_sink *s = ctx;

	return dcm_nl_config_set_key(s->nl, s->index, path, v);
}

static int nl_commit(void *ctx, struct dcm_config_counts *counts)
{
	struct desc_nl_sink *s = ctx;

	return dcm_nl_config_commit(s->nl, s->index, counts);
}

static void nl_abort(void *ctx)
{
	struct desc_nl_sink *s = ctx;

	/* the failure was reported already; this one's answer does not matter */
	dcm_nl_config_abort(s->nl, s->index);
}

static const char *nl_why(void *ctx)
{
	(void)ctx;
	return dcm_last_error();
}

const struct desc_sink desc_nl_sink_ops = {
	.begin = nl_begin,
	.add_device = nl_add_device,
	.add_subdevice = nl_add_subdevice,
	.set_key = nl_set_key,
	.commit = nl_commit,
	.abort = nl_abort,
	.why = nl_why,
};
