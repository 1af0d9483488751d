// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libdcm: the key tree of a controller in sysfs,
 * <root>/dcmN/{SubDeviceList,DeviceList,RobotConfig}.
 *
 * The key "Device/SubDeviceList/<x>" is the file <root>/dcmN/SubDeviceList/<x>,
 * "Device/DeviceList/<x>" is .../DeviceList/<x>, "RobotConfig/<x>" is
 * .../RobotConfig/<x>, and any other key is a subdevice key without its
 * prefix (.../SubDeviceList/<x>). The root (default /sys/class/dcm) may be
 * given, or come from $DCM_SYSFS_ROOT, so that tests run against a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/dcm.h>

#include "libdcm-private.h"

/* A key file is small: one value, or the lines of an error list. */
#define VALUE_MAX	65536

static const struct {
	const char *dir;	/* below dcmN */
	const char *prefix;	/* of the key path */
} roots[] = {
	[DCM_SYSFS_SUBDEVICES] = { "SubDeviceList", DCM_PREFIX_SUBDEVICE },
	[DCM_SYSFS_DEVICES] = { "DeviceList", DCM_PREFIX_DEVICE },
	[DCM_SYSFS_ROBOT] = { "RobotConfig", DCM_PREFIX_ROBOTCONFIG },
};

#define N_ROOTS (sizeof(roots) / sizeof(roots[0]))

/* An open controller directory. */
struct dcm_sysfs {
	int fd;
	char path[];		/* <root>/dcmN */
};

DCM_EXPORT const char *dcm_sysfs_root(const char *root)
{
	const char *env;

	if (root)
		return root;
	env = getenv("DCM_SYSFS_ROOT");
	return env && *env ? env : LIBDCM_SYSFS_ROOT;
}

DCM_EXPORT int dcm_sysfs_key_path(const char *key, char *rel, size_t len)
{
	const char *dir = roots[DCM_SYSFS_SUBDEVICES].dir, *rest = key, *p;
	size_t i;
	int n;

	if (!key || !rel)
		return -EINVAL;
	for (i = 0; i < N_ROOTS; i++) {
		if (!strncmp(key, roots[i].prefix, strlen(roots[i].prefix))) {
			dir = roots[i].dir;
			rest = key + strlen(roots[i].prefix);
			break;
		}
	}
	if (!*rest || rest[0] == '/')
		return -EINVAL;
	/* every component: not empty, not "." or ".." */
	for (p = rest; *p;) {
		size_t c = strcspn(p, "/");

		if (!c || (c == 1 && p[0] == '.') || (c == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
		p += c;
		if (*p == '/' && !*++p)
			return -EINVAL;	/* a trailing '/' */
	}
	n = snprintf(rel, len, "%s/%s", dir, rest);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

DCM_EXPORT int dcm_sysfs_open(const char *root, unsigned int index, struct dcm_sysfs **out)
{
	struct dcm_sysfs *s;
	struct stat st;
	size_t len;
	int n, e;

	if (!out)
		return -EINVAL;
	*out = NULL;
	root = dcm_sysfs_root(root);
	len = strlen(root) + 16;
	s = malloc(sizeof(*s) + len);
	if (!s)
		return dcm_set_error(-ENOMEM, "out of memory");
	n = snprintf(s->path, len, "%s/dcm%u", root, index);
	if (n < 0 || (size_t)n >= len || (size_t)n >= PATH_MAX) {
		free(s);
		return dcm_set_error(-ENAMETOOLONG, "%s: name too long", root);
	}
	if (stat(s->path, &st) < 0) {
		e = errno;
		dcm_set_error(-e, "%s: %s%s", s->path, dcm_strerror(e),
			      e == ENOENT ? (access(root, F_OK) ? " (is dcm.ko loaded?)" :
					     " (no such controller)") : "");
		free(s);
		return -e;
	}
	s->fd = open(s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->fd < 0) {
		e = errno;
		dcm_set_error(-e, "%s: %s", s->path, dcm_strerror(e));
		free(s);
		return -e;
	}
	*out = s;
	return 0;
}

DCM_EXPORT void dcm_sysfs_close(struct dcm_sysfs *s)
{
	if (!s)
		return;
	close(s->fd);
	free(s);
}

DCM_EXPORT const char *dcm_sysfs_path(const struct dcm_sysfs *s)
{
	return s->path;
}

/*
 * Read a file below the controller: one trailing newline dropped. Return 0
 * (and a malloc'ed string), -ENOENT for no such key (missing, a symbolic
 * link or a directory), or -errno.
 */
static int read_value(int dirfd, const char *rel, char **out)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t len = 0;
	int fd, e;

	fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ELOOP ? -ENOENT : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	buf = malloc(VALUE_MAX + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len < VALUE_MAX) {
		n = read(fd, buf + len, VALUE_MAX - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	*out = buf;
	return 0;
}

DCM_EXPORT int dcm_sysfs_event_counts(const struct dcm_sysfs *s, struct dcm_event_count *out,
				      size_t max)
{
	char *buf, *line, *save = NULL, cls[8];
	size_t n = 0;
	int r;

	if (!s || (!out && max))
		return -EINVAL;
	r = read_value(s->fd, "events", &buf);
	if (r)
		return r;
	for (line = strtok_r(buf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		struct dcm_event_count *c = &out[n];

		if (sscanf(line, "%15s %7s %" SCNu64 " %" SCNu64, c->type, cls, &c->posted,
			   &c->dropped) != 4 || (strcmp(cls, "safety") && strcmp(cls, "info"))) {
			free(buf);
			return dcm_set_error(-EPROTO, "%s/events: not understood: %.60s", s->path,
					     line);
		}
		c->safety = !strcmp(cls, "safety");
		n++;
	}
	free(buf);
	return (int)n;
}

DCM_EXPORT int dcm_sysfs_read(const struct dcm_sysfs *s, const char *key, char **value)
{
	char rel[4096];
	int r;

	if (!s || !value)
		return -EINVAL;
	*value = NULL;
	r = dcm_sysfs_key_path(key, rel, sizeof(rel));
	if (r)
		return r;
	return read_value(s->fd, rel, value);
}

/* ------------------------------------------------------------------
 * Walking the tree
 */

int dcm_strv_add(struct dcm_strv *s, const char *a, const char *b)
{
	char *p;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		char **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	if (asprintf(&p, "%s%s", a, b) < 0)
		return -ENOMEM;
	s->v[s->n++] = p;
	return 0;
}

DCM_EXPORT void dcm_sysfs_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void dcm_strv_free(struct dcm_strv *s)
{
	dcm_sysfs_strv_free(s->v, s->n);
	memset(s, 0, sizeof(*s));
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void dcm_strv_sort(struct dcm_strv *s)
{
	if (s->n)
		qsort(s->v, s->n, sizeof(char *), str_cmp);
}

/* The type of the entry @name of @dirfd: DT_DIR, DT_REG, or another (skipped). */
static unsigned char entry_type(int dirfd, const char *name, unsigned char type)
{
	struct stat st;

	if (type != DT_UNKNOWN && type != DT_LNK)
		return type;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
}

/* Does the directory @fd hold a regular "Device" file (a subdevice's)? */
static bool holds_device(int fd)
{
	struct stat st;

	return !fstatat(fd, "Device", &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode);
}

static int walk(int dirfd, const char *rel, unsigned int flags, struct dcm_strv *out, int depth)
{
	struct dirent *de;
	DIR *d;
	int fd, r = 0;
	bool has_device = false;

	if (depth > 32)
		return -ELOOP;
	fd = dup(dirfd);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (!r && (de = readdir(d))) {
		unsigned char type;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		type = entry_type(dirfd, de->d_name, de->d_type);
		if (type != DT_DIR && type != DT_REG)
			continue;
		if (asprintf(&path, "%s%s%s", rel, *rel ? "/" : "", de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (type == DT_DIR) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub >= 0 && !((flags & DCM_WALK_PRUNE) && holds_device(sub)))
				r = walk(sub, path, flags, out, depth + 1);
			if (sub >= 0)
				close(sub);
		} else {
			if (flags & DCM_WALK_FILES)
				r = dcm_strv_add(out, path, "");
			if (!strcmp(de->d_name, "Device"))
				has_device = true;
		}
		free(path);
	}
	closedir(d);
	if (!r && (flags & DCM_WALK_SUBDEVICES) && has_device && *rel)
		r = dcm_strv_add(out, rel, "");
	return r;
}

int dcm_sysfs_walk(int dirfd, unsigned int flags, struct dcm_strv *out)
{
	return walk(dirfd, "", flags, out, 0);
}

DCM_EXPORT int dcm_sysfs_keys(const struct dcm_sysfs *s, enum dcm_sysfs_root root,
			      char ***keys, size_t *n)
{
	struct dcm_strv files = { 0 };
	size_t i;
	int fd, r;

	if (!s || !keys || !n || (unsigned int)root >= N_ROOTS)
		return -EINVAL;
	*keys = NULL;
	*n = 0;
	fd = openat(s->fd, roots[root].dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		r = -errno;
		goto fail;
	}
	r = dcm_sysfs_walk(fd, DCM_WALK_FILES, &files);
	close(fd);
	if (r)
		goto fail;
	dcm_strv_sort(&files);
	for (i = 0; i < files.n; i++) {
		char *k;

		if (asprintf(&k, "%s%s", roots[root].prefix, files.v[i]) < 0) {
			r = -ENOMEM;
			goto fail;
		}
		free(files.v[i]);
		files.v[i] = k;
	}
	*keys = files.v;
	*n = files.n;
	return 0;
fail:
	dcm_strv_free(&files);
	return dcm_set_error(r, "%s/%s: %s", s->path, roots[root].dir, dcm_strerror(r));
}

/* ------------------------------------------------------------------
 * Devices and subdevices
 */

static int elem_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dcm_sysfs_elem *)a)->name,
		      ((const struct dcm_sysfs_elem *)b)->name);
}

/* A key of an element: its value, or "?" if unreadable; NULL: no memory. */
static char *elem_key(int fd, const char *root, const char *name, const char *key)
{
	char rel[4096], *v = NULL;

	snprintf(rel, sizeof(rel), "%s/%s/%s", root, name, key);
	if (read_value(fd, rel, &v))
		v = strdup("?");
	return v;
}

DCM_EXPORT void dcm_sysfs_elems_free(struct dcm_sysfs_elem *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].bus);
		free(v[i].address);
		free(v[i].device);
		free(v[i].number);
	}
	free(v);
}

/* The devices (@subdevices false) or subdevices, sorted by name. */
/* The names of the elements below the directory @fd: the subdevices', or the devices'. */
static int elem_names(int fd, bool subdevices, struct dcm_strv *names)
{
	struct dirent *de;
	DIR *d;
	int r;

	if (subdevices)
		return dcm_sysfs_walk(fd, DCM_WALK_SUBDEVICES, names);
	/* devices: the directories right below DeviceList */
	d = fdopendir(dup(fd));
	r = d ? 0 : -errno;
	while (d && !r && (de = readdir(d)))
		if (de->d_name[0] != '.' && de->d_type != DT_REG)
			r = dcm_strv_add(names, de->d_name, "");
	if (d)
		closedir(d);
	return r;
}

/* The keys of the element @e (its name set) below @root: 0 or -ENOMEM. */
static int elem_fill(const struct dcm_sysfs *s, const char *root, bool subdevices,
		     struct dcm_sysfs_elem *e)
{
	e->type = elem_key(s->fd, root, e->name, "Type");
	if (subdevices) {
		e->device = elem_key(s->fd, root, e->name, "Device");
		e->number = elem_key(s->fd, root, e->name, "SubDeviceNumber");
		return e->type && e->device && e->number ? 0 : -ENOMEM;
	}
	e->bus = elem_key(s->fd, root, e->name, "Bus");
	e->address = elem_key(s->fd, root, e->name, "Address");
	return e->type && e->bus && e->address ? 0 : -ENOMEM;
}

static int elems(const struct dcm_sysfs *s, bool subdevices, struct dcm_sysfs_elem **out,
		 size_t *n)
{
	const char *root = roots[subdevices ? DCM_SYSFS_SUBDEVICES : DCM_SYSFS_DEVICES].dir;
	struct dcm_strv names = { 0 };
	struct dcm_sysfs_elem *v;
	size_t i;
	int fd, r;

	if (!s || !out || !n)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	fd = openat(s->fd, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : dcm_set_error(-errno, "%s: %s", s->path,
							   dcm_strerror(errno));
	r = elem_names(fd, subdevices, &names);
	close(fd);
	v = r ? NULL : calloc(names.n ? names.n : 1, sizeof(*v));
	if (!r && !v)
		r = -ENOMEM;
	for (i = 0; !r && i < names.n; i++) {
		v[i].name = names.v[i];
		names.v[i] = NULL;
		r = elem_fill(s, root, subdevices, &v[i]);
	}
	if (r) {
		if (v)
			dcm_sysfs_elems_free(v, names.n);
		dcm_strv_free(&names);
		return dcm_set_error(r, "%s: %s", s->path, dcm_strerror(r));
	}
	qsort(v, names.n, sizeof(*v), elem_cmp);
	*out = v;
	*n = names.n;
	dcm_strv_free(&names);
	return 0;
}

DCM_EXPORT int dcm_sysfs_devices(const struct dcm_sysfs *s, struct dcm_sysfs_elem **out,
				 size_t *n)
{
	return elems(s, false, out, n);
}

DCM_EXPORT int dcm_sysfs_subdevices(const struct dcm_sysfs *s, struct dcm_sysfs_elem **out,
				    size_t *n)
{
	return elems(s, true, out, n);
}

/* ------------------------------------------------------------------
 * Configuration keys: typed reads, writes
 */

DCM_EXPORT int dcm_sysfs_write(const struct dcm_sysfs *s, const char *key, const char *value)
{
	char rel[4096];
	size_t len, off = 0;
	int fd, r;

	if (!s || !key || !value)
		return dcm_set_error(-EINVAL, "dcm_sysfs_write: NULL argument");
	r = dcm_sysfs_key_path(key, rel, sizeof(rel));
	if (r)
		return dcm_set_error(r, "%s: not a key path", key);
	fd = openat(s->fd, rel, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = errno == ELOOP || errno == EISDIR ? -ENOENT : -errno;
		return dcm_set_error(r, "%s: %s%s", key, dcm_strerror(r),
				     r == -EACCES ? " (configuration keys need root; an actuator's "
				     "Value the group dcm)" : r == -ENOENT ? " (no such key)" : "");
	}
	len = strlen(value);
	while (off < len || !len) {
		ssize_t n = write(fd, value + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			close(fd);
			return dcm_set_error(r, "%s: %s%s", key, dcm_strerror(r),
					     r == -EPERM ? " (writing a configuration key needs "
					     "CAP_NET_ADMIN)" : r == -EINVAL ?
					     " (not a value of the key's kind, or a key that is "
					     "read-only)" : r == -ERANGE ? " (outside the key's range)" : "");
		}
		off += (size_t)n;
		if (!len)
			break;
	}
	close(fd);
	return 0;
}

DCM_EXPORT int dcm_sysfs_get_double(const struct dcm_sysfs *s, const char *key, double *out)
{
	int64_t micro;
	char *text;
	int r;

	if (!out)
		return dcm_set_error(-EINVAL, "dcm_sysfs_get_double: NULL argument");
	r = dcm_sysfs_read(s, key, &text);
	if (r)
		return dcm_set_error(r, "%s: %s", key ? key : "(null)", dcm_strerror(r));
	r = dcm_fixed_from_string(text, &micro);
	if (r) {
		dcm_set_error(r, "%s: '%.64s' is not a number", key, text);
		free(text);
		return r;
	}
	free(text);
	*out = dcm_fixed_to_double(micro);
	return 0;
}

DCM_EXPORT int dcm_sysfs_set_double(const struct dcm_sysfs *s, const char *key, double v)
{
	char text[LIBDCM_FIXED_TEXT_LEN];
	int64_t micro;
	int r;

	r = dcm_double_to_fixed_checked(v, &micro);
	if (r)
		return dcm_set_error(r, "%s: %s", key ? key : "(null)",
				     r == -EINVAL ? "not a number" : "value out of range");
	/* integral: as an integer, which int keys (Kp) take as well as floats */
	if (micro % LIBDCM_MICRO == 0)
		snprintf(text, sizeof(text), "%lld", (long long)(micro / LIBDCM_MICRO));
	else if (dcm_fixed_to_string(micro, text, sizeof(text)) < 0)
		return dcm_set_error(-EINVAL, "%s: value out of range", key ? key : "(null)");
	return dcm_sysfs_write(s, key, text);
}

DCM_EXPORT int dcm_sysfs_key_flags(const struct dcm_sysfs *s, const char *key,
				   uint32_t *flags)
{
	char rel[4096];
	struct stat st;
	int r;

	if (!s || !key || !flags)
		return dcm_set_error(-EINVAL, "dcm_sysfs_key_flags: NULL argument");
	r = dcm_sysfs_key_path(key, rel, sizeof(rel));
	if (r)
		return dcm_set_error(r, "%s: not a key path", key);
	if (fstatat(s->fd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
		return dcm_set_error(-ENOENT, "%s: no such key", key);
	*flags = 0;
	if (st.st_mode & S_IWUSR)
		*flags |= LIBDCM_TREE_KEY_WRITABLE;
	if (st.st_mode & S_IWGRP)
		*flags |= LIBDCM_TREE_KEY_COMMAND;
	else if (st.st_mode & S_IWUSR)
		*flags |= LIBDCM_TREE_KEY_CONFIG;
	return 0;
}
