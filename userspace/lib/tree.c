// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: what the running description holds, for clients that enumerate
 * instead of globbing sysfs. dcm_tree_read() walks the controller's key tree
 * (sysfs.c) once: the devices, the subdevices and every key of each, and the
 * RobotConfig keys; with an open /dev/dcmN it also looks every subdevice up
 * (DCM_IOC_LOOKUP), so that a handle or a frame's index gives a name back.
 * The tree is a copy: it does not change when the description is replaced
 * (dcm_tree_generation() against a handle's tells).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "libdcm-private.h"

/* Tries of a read that meets a description being replaced. */
#define TREE_TRIES	5

struct dcm_tree {
	unsigned int index;
	uint32_t generation;
	bool has_handles;
	struct dcm_tree_device *devices;
	size_t n_devices;
	struct dcm_tree_subdevice *subdevices;
	size_t n_subdevices;
	struct dcm_tree_key *robot;
	size_t n_robot;
	/* by LIBDCM_HANDLE_INDEX: the subdevice, or NULL */
	const struct dcm_tree_subdevice **by_index;
	size_t n_index;
};

static const char *const prefixes[] = {
	LIBDCM_PREFIX_DEV, LIBDCM_PREFIX_SUB, LIBDCM_PREFIX_ROBOT,
};

DCM_EXPORT const char *const *dcm_get_prefix(size_t *n)
{
	if (n)
		*n = sizeof(prefixes) / sizeof(prefixes[0]);
	return prefixes;
}

/* The flags of a key whose file has @mode. */
static uint32_t key_flags(mode_t mode)
{
	uint32_t flags = 0;

	if (mode & S_IWUSR)
		flags |= LIBDCM_TREE_KEY_WRITABLE;
	if (mode & S_IWGRP)
		flags |= LIBDCM_TREE_KEY_COMMAND;
	else if (mode & S_IWUSR)
		flags |= LIBDCM_TREE_KEY_CONFIG;
	return flags;
}

static void keys_free(struct dcm_tree_key *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free((char *)v[i].name);
	free(v);
}

/*
 * The keys below <controller>/@dir/@name, sorted: its files, and those of
 * its subdirectories that are no subdevice of their own (for a @subdevice:
 * a subdirectory holding a "Device" file is another subdevice's).
 */
static int element_keys(const struct dcm_sysfs *s, const char *dir, const char *name,
			bool subdevice, struct dcm_tree_key **out, size_t *n)
{
	struct dcm_strv files = { 0 };
	struct dcm_tree_key *k;
	char rel[4096];
	size_t i, nk = 0;
	int fd, r;

	snprintf(rel, sizeof(rel), "%s/%s%s%s", dcm_sysfs_path(s), dir, name ? "/" : "",
		 name ? name : "");
	fd = open(rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = dcm_sysfs_walk(fd, DCM_WALK_FILES | (subdevice ? DCM_WALK_PRUNE : 0), &files);
	k = r ? NULL : calloc(files.n ? files.n : 1, sizeof(*k));
	if (!r && !k)
		r = -ENOMEM;
	if (r) {
		close(fd);
		dcm_strv_free(&files);
		return r;
	}
	dcm_strv_sort(&files);
	for (i = 0; i < files.n; i++) {
		struct stat st;

		/* gone since the walk: not a key any more */
		if (fstatat(fd, files.v[i], &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
			free(files.v[i]);
			continue;
		}
		k[nk].name = files.v[i];
		k[nk++].flags = key_flags(st.st_mode);
	}
	close(fd);
	free(files.v);
	if (!nk) {
		free(k);
		k = NULL;
	}
	*out = k;
	*n = nk;
	return 0;
}

static unsigned int to_uint(const char *s)
{
	char *end;
	unsigned long v;

	if (!s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	return errno || end == s || v > 0xffffffffUL ? 0 : (unsigned int)v;
}

DCM_EXPORT void dcm_tree_free(struct dcm_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->devices && i < t->n_devices; i++) {
		free((char *)t->devices[i].name);
		free((char *)t->devices[i].type);
		free((char *)t->devices[i].bus);
		keys_free((struct dcm_tree_key *)t->devices[i].keys, t->devices[i].n_keys);
	}
	free(t->devices);
	for (i = 0; t->subdevices && i < t->n_subdevices; i++) {
		free((char *)t->subdevices[i].name);
		free((char *)t->subdevices[i].type);
		free((char *)t->subdevices[i].device);
		keys_free((struct dcm_tree_key *)t->subdevices[i].keys, t->subdevices[i].n_keys);
	}
	free(t->subdevices);
	keys_free(t->robot, t->n_robot);
	free(t->by_index);
	free(t);
}

/* The elements and keys of the tree, no handles. 0 or -errno (message set). */
/* A read of the tree that failed with @r: said, the likely cause with it. */
static int changed(const struct dcm_sysfs *s, int r)
{
	return dcm_set_error(r, "%s: %s (the description changed while it was read?)",
			     dcm_sysfs_path(s), dcm_strerror(r));
}

static int read_devices(struct dcm_tree *t, const struct dcm_sysfs *s)
{
	struct dcm_sysfs_elem *e = NULL;
	size_t n = 0, i;
	int r;

	r = dcm_sysfs_devices(s, &e, &n);
	if (r)
		return r;
	t->devices = calloc(n ? n : 1, sizeof(*t->devices));
	r = t->devices ? 0 : -ENOMEM;
	if (!r)
		t->n_devices = n;
	for (i = 0; !r && i < n; i++) {
		struct dcm_tree_device *d = &t->devices[i];

		d->name = e[i].name;
		d->type = e[i].type;
		d->bus = e[i].bus;
		e[i].name = e[i].type = e[i].bus = NULL;
		d->address = to_uint(e[i].address);
		r = element_keys(s, "DeviceList", d->name, false,
				 (struct dcm_tree_key **)&d->keys, &d->n_keys);
	}
	dcm_sysfs_elems_free(e, n);
	return r ? changed(s, r) : 0;
}

static int read_subdevices(struct dcm_tree *t, const struct dcm_sysfs *s)
{
	struct dcm_sysfs_elem *e = NULL;
	size_t n = 0, i;
	int r;

	r = dcm_sysfs_subdevices(s, &e, &n);
	if (r)
		return r;
	t->subdevices = calloc(n ? n : 1, sizeof(*t->subdevices));
	r = t->subdevices ? 0 : -ENOMEM;
	if (!r)
		t->n_subdevices = n;
	for (i = 0; !r && i < n; i++) {
		struct dcm_tree_subdevice *sd = &t->subdevices[i];

		sd->name = e[i].name;
		sd->type = e[i].type;
		sd->device = e[i].device;
		e[i].name = e[i].type = e[i].device = NULL;
		sd->number = to_uint(e[i].number);
		r = element_keys(s, "SubDeviceList", sd->name, true,
				 (struct dcm_tree_key **)&sd->keys, &sd->n_keys);
	}
	dcm_sysfs_elems_free(e, n);
	return r ? changed(s, r) : 0;
}

static int read_sysfs(struct dcm_tree *t, const struct dcm_sysfs *s)
{
	int r;

	r = read_devices(t, s);
	if (!r)
		r = read_subdevices(t, s);
	if (r)
		return r;
	r = element_keys(s, "RobotConfig", NULL, false, &t->robot, &t->n_robot);
	if (r && r != -ENOENT)
		return changed(s, r);
	return 0;
}

/* Every subdevice's handle, all of one generation. -EAGAIN: replaced meanwhile. */
static int read_handles(struct dcm_tree *t, struct dcm *dcm)
{
	size_t i, max = 0;

	for (i = 0; i < t->n_subdevices; i++) {
		struct dcm_tree_subdevice *sd = &t->subdevices[i];
		struct dcm_key k;
		int r = dcm_lookup(dcm, sd->name, &k);

		if (r == -ENOENT)
			return -EAGAIN;
		if (r)
			return r;
		if (i && LIBDCM_HANDLE_GEN(k.handle) != t->generation)
			return -EAGAIN;
		t->generation = LIBDCM_HANDLE_GEN(k.handle);
		sd->handle = k.handle;
		sd->flags = k.flags;
		if (LIBDCM_HANDLE_INDEX(k.handle) + 1U > max)
			max = LIBDCM_HANDLE_INDEX(k.handle) + 1U;
	}
	t->by_index = calloc(max ? max : 1, sizeof(*t->by_index));
	if (!t->by_index)
		return dcm_set_error(-ENOMEM, "out of memory");
	t->n_index = max;
	for (i = 0; i < t->n_subdevices; i++)
		t->by_index[LIBDCM_HANDLE_INDEX(t->subdevices[i].handle)] = &t->subdevices[i];
	t->has_handles = true;
	return 0;
}

DCM_EXPORT int dcm_tree_read(struct dcm *dcm, const char *sysfs_root, unsigned int index,
			     struct dcm_tree **out)
{
	struct dcm_sysfs *s = NULL;
	struct dcm_tree *t = NULL;
	struct dcm_info info;
	int r, tries;

	if (!out)
		return dcm_set_error(-EINVAL, "dcm_tree_read: NULL argument");
	*out = NULL;
	if (dcm) {
		r = dcm_get_info(dcm, &info);
		if (r)
			return r;
		index = info.index;
	}
	r = dcm_sysfs_open(sysfs_root, index, &s);
	if (r)
		return r;
	for (tries = 0; tries < TREE_TRIES; tries++) {
		dcm_tree_free(t);
		t = calloc(1, sizeof(*t));
		if (!t) {
			r = dcm_set_error(-ENOMEM, "out of memory");
			break;
		}
		t->index = index;
		r = read_sysfs(t, s);
		/* a tree between two descriptions: subdevices, no devices */
		if (!r && t->n_subdevices && !t->n_devices)
			r = -EAGAIN;
		if (!r && dcm)
			r = read_handles(t, dcm);
		/* what the kernel counts, before and after */
		if (!r && dcm && (t->n_subdevices != info.n_subdevices ||
				  t->n_devices != info.n_devices))
			r = -EAGAIN;
		if (r == -EAGAIN && dcm && dcm_get_info(dcm, &info))
			r = -EAGAIN;
		/* a description replaced under the walk: read it again */
		if (r != -EAGAIN && r != -ENOENT && r != -ENODEV)
			break;
		usleep(10000);
	}
	dcm_sysfs_close(s);
	if (r == -EAGAIN)
		r = dcm_set_error(-EAGAIN, "dcm%u: the description kept changing", index);
	if (r) {
		dcm_tree_free(t);
		return r;
	}
	dcm_clear_error();
	*out = t;
	return 0;
}

DCM_EXPORT unsigned int dcm_tree_index(const struct dcm_tree *t)
{
	return t ? t->index : 0;
}

DCM_EXPORT uint32_t dcm_tree_generation(const struct dcm_tree *t)
{
	return t && t->has_handles ? t->generation : 0;
}

DCM_EXPORT size_t dcm_tree_n_devices(const struct dcm_tree *t)
{
	return t ? t->n_devices : 0;
}

DCM_EXPORT const struct dcm_tree_device *dcm_tree_device(const struct dcm_tree *t, size_t i)
{
	return t && i < t->n_devices ? &t->devices[i] : NULL;
}

DCM_EXPORT size_t dcm_tree_n_subdevices(const struct dcm_tree *t)
{
	return t ? t->n_subdevices : 0;
}

DCM_EXPORT const struct dcm_tree_subdevice *dcm_tree_subdevice(const struct dcm_tree *t,
							      size_t i)
{
	return t && i < t->n_subdevices ? &t->subdevices[i] : NULL;
}

DCM_EXPORT size_t dcm_tree_n_robot_keys(const struct dcm_tree *t)
{
	return t ? t->n_robot : 0;
}

DCM_EXPORT const struct dcm_tree_key *dcm_tree_robot_key(const struct dcm_tree *t, size_t i)
{
	return t && i < t->n_robot ? &t->robot[i] : NULL;
}

/* @name without @prefix, if it starts with it. */
static const char *strip(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(name, prefix, n) ? name : name + n;
}

static int sub_cmp(const void *key, const void *elem)
{
	const char *const *k = key;

	return strcmp(*k, ((const struct dcm_tree_subdevice *)elem)->name);
}

static int dev_cmp(const void *key, const void *elem)
{
	const char *const *k = key;

	return strcmp(*k, ((const struct dcm_tree_device *)elem)->name);
}

DCM_EXPORT const struct dcm_tree_subdevice *dcm_tree_find(const struct dcm_tree *t,
							  const char *name)
{
	const struct dcm_tree_subdevice *sd;
	char buf[LIBDCM_KEY_NAME_LEN + sizeof(LIBDCM_PREFIX_SUB)];
	const char *p;
	size_t n;

	if (!t || !name || !t->n_subdevices)
		return NULL;
	p = strip(name, LIBDCM_PREFIX_SUB);
	sd = bsearch(&p, t->subdevices, t->n_subdevices, sizeof(*sd), sub_cmp);
	if (sd)
		return sd;
	/* "<subdevice>/Value" names the subdevice too */
	n = strlen(p);
	if (n > 6 && n < sizeof(buf) && !strcmp(p + n - 6, "/Value")) {
		memcpy(buf, p, n - 6);
		buf[n - 6] = '\0';
		p = buf;
		sd = bsearch(&p, t->subdevices, t->n_subdevices, sizeof(*sd), sub_cmp);
	}
	return sd;
}

DCM_EXPORT const struct dcm_tree_device *dcm_tree_find_device(const struct dcm_tree *t,
							      const char *name)
{
	const char *p;

	if (!t || !name || !t->n_devices)
		return NULL;
	p = strip(name, LIBDCM_PREFIX_DEV);
	return bsearch(&p, t->devices, t->n_devices, sizeof(*t->devices), dev_cmp);
}

DCM_EXPORT const struct dcm_tree_subdevice *dcm_tree_by_index(const struct dcm_tree *t,
							      unsigned int index)
{
	return t && index < t->n_index ? t->by_index[index] : NULL;
}

DCM_EXPORT const struct dcm_tree_subdevice *dcm_tree_by_handle(const struct dcm_tree *t,
							       uint32_t handle)
{
	if (!t || !t->has_handles || LIBDCM_HANDLE_GEN(handle) != t->generation)
		return NULL;
	return dcm_tree_by_index(t, LIBDCM_HANDLE_INDEX(handle));
}

DCM_EXPORT const char *dcm_tree_handle_name(const struct dcm_tree *t, uint32_t handle)
{
	const struct dcm_tree_subdevice *sd = dcm_tree_by_handle(t, handle);

	return sd ? sd->name : NULL;
}

DCM_EXPORT int dcm_tree_handle(const struct dcm_tree *t, const char *name, uint32_t *handle)
{
	const struct dcm_tree_subdevice *sd;

	if (!t || !name || !handle)
		return dcm_set_error(-EINVAL, "dcm_tree_handle: NULL argument");
	if (!t->has_handles)
		return dcm_set_error(-EINVAL, "dcm_tree_handle: a tree read without /dev/dcmN has no handles");
	sd = dcm_tree_find(t, name);
	if (!sd)
		return dcm_set_error(-ENOENT, "%s: no such subdevice", name);
	*handle = sd->handle;
	return 0;
}
