// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcmctl list, get, tree: the key tree of a controller, read from sysfs
 * (/sys/class/dcm/dcmN/{SubDeviceList,DeviceList,RobotConfig}).
 *
 * The key "Device/SubDeviceList/<x>" is the file <root>/dcmN/SubDeviceList/<x>,
 * "Device/DeviceList/<x>" is .../DeviceList/<x>, "RobotConfig/<x>" is
 * .../RobotConfig/<x>, and any other key is a subdevice key without its
 * prefix (.../SubDeviceList/<x>). The root (default /sys/class/dcm) comes
 * from -r or $DCM_SYSFS_ROOT, so tests run against a fake tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "dcmctl.h"

#define PREFIX_SUB	"Device/SubDeviceList/"
#define PREFIX_DEV	"Device/DeviceList/"
#define PREFIX_ROBOT	"RobotConfig/"

/* A key file is small: one value, or the lines of an error list. */
#define VALUE_MAX	65536

static const struct {
	const char *dir;	/* below dcmN */
	const char *prefix;	/* of the key path */
} roots[] = {
	{ "SubDeviceList", PREFIX_SUB },
	{ "DeviceList", PREFIX_DEV },
	{ "RobotConfig", PREFIX_ROBOT },
};

#define N_ROOTS (sizeof(roots) / sizeof(roots[0]))

const char *dcmctl_sysfs_root(const struct dcmctl_opts *o)
{
	const char *env;

	if (o->root)
		return o->root;
	env = getenv("DCM_SYSFS_ROOT");
	return env && *env ? env : DCMCTL_SYSFS_ROOT;
}

/* <root>/dcmN, checked to exist. Return 0 or -1 (reported on @err). */
static int controller_dir(const struct dcmctl_opts *o, char *buf, size_t len, FILE *err)
{
	const char *root = dcmctl_sysfs_root(o);
	struct stat st;
	int n;

	if (o->dev_index < 0) {
		fprintf(err, "dcmctl: cannot tell the controller index of '%s': use -d dcmN\n",
			o->device);
		return -1;
	}
	n = snprintf(buf, len, "%s/dcm%ld", root, o->dev_index);
	if (n < 0 || (size_t)n >= len) {
		fprintf(err, "dcmctl: %s: name too long\n", root);
		return -1;
	}
	if (stat(buf, &st) < 0) {
		int e = errno;

		fprintf(err, "dcmctl: %s: %s%s\n", buf, strerror(e),
			e == ENOENT ? (access(root, F_OK) ? " (is dcm.ko loaded?)" :
				       " (no such controller)") : "");
		return -1;
	}
	return 0;
}

int dcmctl_key_to_path(const char *key, char *rel, size_t len)
{
	const char *dir = "SubDeviceList", *rest = key, *p;
	size_t i;
	int n;

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

/*
 * Read a key file: one trailing newline dropped. Return 0 (and a malloc'ed
 * string), -ENOENT for no such key (missing, or a directory), or -errno.
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

/* ------------------------------------------------------------------
 * Walking the tree
 */

struct strv {
	char **v;
	size_t n, cap;
};

static int strv_add(struct strv *s, const char *a, const char *b)
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

static void strv_free(struct strv *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Collect the files (@files, "a/b/Value") or the directories holding a
 * "Device" file (@subdirs, "a/b": subdevices) below @dirfd, relative paths
 * after @rel. Hidden entries are skipped.
 */
static int walk(int dirfd, const char *rel, struct strv *files, struct strv *subdirs,
		int depth)
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
		unsigned char type = de->d_type;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		if (type == DT_UNKNOWN || type == DT_LNK) {
			struct stat st;

			if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if (asprintf(&path, "%s%s%s", rel, *rel ? "/" : "", de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (type == DT_DIR) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub >= 0) {
				r = walk(sub, path, files, subdirs, depth + 1);
				close(sub);
			}
		} else if (type == DT_REG) {
			if (files)
				r = strv_add(files, path, "");
			if (!strcmp(de->d_name, "Device"))
				has_device = true;
		}
		free(path);
	}
	closedir(d);
	if (!r && subdirs && has_device && *rel)
		r = strv_add(subdirs, rel, "");
	return r;
}

/* The files of one root of the tree ("" if the root is absent). */
static int root_files(int ctrlfd, size_t root, struct strv *out)
{
	int fd = openat(ctrlfd, roots[root].dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	r = walk(fd, "", out, NULL, 0);
	close(fd);
	return r;
}

static int open_controller(const struct dcmctl_opts *o, FILE *err, char *dir, size_t len)
{
	int fd;

	if (controller_dir(o, dir, len, err))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fprintf(err, "dcmctl: %s: %s\n", dir, strerror(errno));
	return fd;
}

int dcmctl_open_controller(const struct dcmctl_opts *o, FILE *err, char *dir, size_t len)
{
	return open_controller(o, err, dir, len);
}

int dcmctl_read_key(int ctrlfd, const char *key, char **out)
{
	char rel[4096];
	int r = dcmctl_key_to_path(key, rel, sizeof(rel));

	*out = NULL;
	if (r)
		return r;
	return read_value(ctrlfd, rel, out);
}

int dcmctl_robot_keys(int ctrlfd, char ***keys, size_t *n)
{
	struct strv files = { 0 };
	size_t i;
	int r = root_files(ctrlfd, 2, &files);

	*keys = NULL;
	*n = 0;
	if (r) {
		strv_free(&files);
		return r;
	}
	if (files.n)
		qsort(files.v, files.n, sizeof(char *), str_cmp);
	for (i = 0; i < files.n; i++) {
		char *k;

		if (asprintf(&k, "%s%s", PREFIX_ROBOT, files.v[i]) < 0) {
			strv_free(&files);
			return -ENOMEM;
		}
		free(files.v[i]);
		files.v[i] = k;
	}
	*keys = files.v;
	*n = files.n;
	return 0;
}

/* ------------------------------------------------------------------
 * list
 */

static bool pattern_matches(const char *pattern, const char *key)
{
	if (!pattern)
		return true;
	if (!fnmatch(pattern, key, 0))
		return true;
	return !strncmp(key, PREFIX_SUB, strlen(PREFIX_SUB)) &&
	       !fnmatch(pattern, key + strlen(PREFIX_SUB), 0);
}

int dcmctl_list(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	const char *pattern = o->argc > 0 ? o->argv[0] : NULL;
	struct json_writer w;
	char dir[4096];
	size_t r, i;
	int fd, ret = DCMCTL_EXIT_OK;

	if (o->argc > 1) {
		fprintf(err, "dcmctl: list: unexpected argument '%s'\n", o->argv[1]);
		return DCMCTL_EXIT_USAGE;
	}
	fd = open_controller(o, err, dir, sizeof(dir));
	if (fd < 0)
		return DCMCTL_EXIT_FAIL;
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
	}
	for (r = 0; r < N_ROOTS; r++) {
		struct strv files = { 0 };
		int e = root_files(fd, r, &files);

		if (e) {
			fprintf(err, "dcmctl: %s/%s: %s\n", dir, roots[r].dir, strerror(-e));
			ret = DCMCTL_EXIT_FAIL;
		}
		if (files.n)
			qsort(files.v, files.n, sizeof(char *), str_cmp);
		for (i = 0; i < files.n; i++) {
			char *key;

			if (asprintf(&key, "%s%s", roots[r].prefix, files.v[i]) < 0) {
				ret = DCMCTL_EXIT_FAIL;
				break;
			}
			if (pattern_matches(pattern, key)) {
				if (o->json)
					json_string(&w, NULL, key);
				else
					fprintf(out, "%s\n", key);
			}
			free(key);
		}
		strv_free(&files);
	}
	if (o->json) {
		json_end_array(&w);
		json_finish(&w);
	}
	close(fd);
	fflush(out);
	return ret;
}

/* ------------------------------------------------------------------
 * get
 */

/* A value on one text line: newlines of a multi-line value become "; ". */
static void print_flat(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\n')
			fputs("; ", out);
		else
			fputc(*v, out);
	}
}

int dcmctl_get(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct dcmctl_optspec spec = {
		.cmd = "get", .shortopts = "q", .longopts = longopts,
		.in_order = true,
	};
	struct dcmctl_getopt g;
	struct json_writer w;
	bool quiet = false;
	char dir[4096], rel[4096], msg[256];
	int c, fd, i, ret = DCMCTL_EXIT_OK;

	if (dcmctl_getopt_init(&g, &spec, o->argc, o->argv)) {
		fprintf(err, "dcmctl: out of memory\n");
		return DCMCTL_EXIT_FAIL;
	}
	while ((c = dcmctl_getopt(&g, msg, sizeof(msg))) > 0)
		quiet = true;	/* -q, --quiet */
	if (c < 0 || !g.n_args) {
		fprintf(err, "dcmctl: %s\n", c < 0 ? msg : "get: which key? (dcmctl get KEY...)");
		dcmctl_getopt_free(&g);
		return DCMCTL_EXIT_USAGE;
	}
	fd = open_controller(o, err, dir, sizeof(dir));
	if (fd < 0) {
		dcmctl_getopt_free(&g);
		return DCMCTL_EXIT_FAIL;
	}
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_array(&w, NULL);
	}
	for (i = 0; i < g.n_args; i++) {
		const char *key = g.args[i];
		char *value = NULL;
		const char *why = NULL;
		int e;

		e = dcmctl_key_to_path(key, rel, sizeof(rel));
		if (e == -EINVAL)
			why = "invalid key (empty, absolute, or with '.' or '..' components)";
		else if (e)
			why = strerror(-e);
		else
			e = read_value(fd, rel, &value);
		if (!why && e == -ENOENT)
			why = "no such key";
		else if (!why && e)
			why = strerror(-e);

		if (why) {
			fprintf(err, "dcmctl: %s: %s\n", key, why);
			ret = DCMCTL_EXIT_FAIL;
		}
		if (o->json) {
			json_begin_object(&w, NULL);
			json_string(&w, "key", key);
			if (why)
				json_string(&w, "error", why);
			else
				json_string(&w, "value", value);
			json_end_object(&w);
		} else if (!why) {
			if (!quiet)
				fprintf(out, "%s ", key);
			print_flat(out, value);
			fputc('\n', out);
		}
		free(value);
	}
	if (o->json) {
		json_end_array(&w);
		json_finish(&w);
	}
	close(fd);
	dcmctl_getopt_free(&g);
	fflush(out);
	fflush(err);
	return ret;
}

/* ------------------------------------------------------------------
 * tree
 */

struct node {
	char *name;
	char *type;
	char *bus;		/* devices */
	char *address;		/* devices */
	char *device;		/* subdevices */
	char *number;		/* subdevices */
};

static void node_free(struct node *n)
{
	free(n->name);
	free(n->type);
	free(n->bus);
	free(n->address);
	free(n->device);
	free(n->number);
}

static int node_cmp(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->name, ((const struct node *)b)->name);
}

/* A key of an element: its value, or "?" if unreadable. */
static char *elem_key(int fd, const char *root, const char *name, const char *key)
{
	char rel[4096], *v = NULL;

	snprintf(rel, sizeof(rel), "%s/%s/%s", root, name, key);
	if (read_value(fd, rel, &v))
		v = strdup("?");
	return v;
}

/* A JSON number if @s is a plain decimal integer, else a string. */
static void json_num_or_string(struct json_writer *w, const char *key, const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s && !*end && !errno && (*s == '-' || (*s >= '0' && *s <= '9')))
		json_int(w, key, v);
	else
		json_string(w, key, s);
}

static int collect(int ctrlfd, const char *root, bool subdevices, struct node **out,
		   size_t *n)
{
	struct strv names = { 0 };
	struct node *v;
	size_t i;
	int fd, r;

	*out = NULL;
	*n = 0;
	fd = openat(ctrlfd, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (subdevices) {
		r = walk(fd, "", NULL, &names, 0);
	} else {
		/* devices: the directories right below DeviceList */
		DIR *d = fdopendir(dup(fd));
		struct dirent *de;

		r = d ? 0 : -errno;
		while (d && !r && (de = readdir(d)))
			if (de->d_name[0] != '.' && de->d_type != DT_REG)
				r = strv_add(&names, de->d_name, "");
		if (d)
			closedir(d);
	}
	close(fd);
	if (r) {
		strv_free(&names);
		return r;
	}
	v = calloc(names.n ? names.n : 1, sizeof(*v));
	if (!v) {
		strv_free(&names);
		return -ENOMEM;
	}
	for (i = 0; i < names.n; i++) {
		v[i].name = names.v[i];
		names.v[i] = NULL;
		v[i].type = elem_key(ctrlfd, root, v[i].name, "Type");
		if (subdevices) {
			v[i].device = elem_key(ctrlfd, root, v[i].name, "Device");
			v[i].number = elem_key(ctrlfd, root, v[i].name, "SubDeviceNumber");
		} else {
			v[i].bus = elem_key(ctrlfd, root, v[i].name, "Bus");
			v[i].address = elem_key(ctrlfd, root, v[i].name, "Address");
		}
	}
	qsort(v, names.n, sizeof(*v), node_cmp);
	*out = v;
	*n = names.n;
	strv_free(&names);
	return 0;
}

static void tree_subdevices(FILE *out, struct json_writer *w, bool json, const char *dev,
			    struct node *subs, size_t n_subs, bool *shown)
{
	size_t j;

	for (j = 0; j < n_subs; j++) {
		if (shown[j] || (dev && strcmp(subs[j].device, dev)))
			continue;
		shown[j] = true;
		if (json) {
			json_begin_object(w, NULL);
			json_string(w, "name", subs[j].name);
			json_string(w, "type", subs[j].type);
			json_num_or_string(w, "number", subs[j].number);
			if (!dev)
				json_string(w, "device", subs[j].device);
			json_end_object(w);
		} else {
			fprintf(out, "    %s: type %s, number %s%s%s\n", subs[j].name,
				subs[j].type, subs[j].number, dev ? "" : ", device ",
				dev ? "" : subs[j].device);
		}
	}
}

int dcmctl_tree(const struct dcmctl_opts *o, FILE *out, FILE *err)
{
	struct node *devs = NULL, *subs = NULL;
	size_t n_devs = 0, n_subs = 0, i, orphans = 0;
	struct json_writer w;
	bool *shown = NULL;
	char dir[4096];
	int fd, r, ret = DCMCTL_EXIT_OK;

	if (o->argc > 0) {
		fprintf(err, "dcmctl: tree: unexpected argument '%s'\n", o->argv[0]);
		return DCMCTL_EXIT_USAGE;
	}
	fd = open_controller(o, err, dir, sizeof(dir));
	if (fd < 0)
		return DCMCTL_EXIT_FAIL;
	r = collect(fd, "DeviceList", false, &devs, &n_devs);
	if (!r)
		r = collect(fd, "SubDeviceList", true, &subs, &n_subs);
	if (!r && !(shown = calloc(n_subs + 1, sizeof(*shown))))
		r = -ENOMEM;
	if (r) {
		fprintf(err, "dcmctl: %s: %s\n", dir, strerror(-r));
		ret = DCMCTL_EXIT_FAIL;
		goto out;
	}
	if (o->json) {
		json_init(&w, out, o->pretty);
		json_begin_object(&w, NULL);
		json_string(&w, "controller", strrchr(dir, '/') + 1);
		json_begin_array(&w, "devices");
	}
	for (i = 0; i < n_devs; i++) {
		if (o->json) {
			json_begin_object(&w, NULL);
			json_string(&w, "name", devs[i].name);
			json_string(&w, "type", devs[i].type);
			json_string(&w, "bus", devs[i].bus);
			json_num_or_string(&w, "address", devs[i].address);
			json_begin_array(&w, "subdevices");
		} else {
			fprintf(out, "%s: type %s, bus %s, address %s\n", devs[i].name,
				devs[i].type, devs[i].bus, devs[i].address);
		}
		tree_subdevices(out, &w, o->json, devs[i].name, subs, n_subs, shown);
		if (o->json) {
			json_end_array(&w);
			json_end_object(&w);
		}
	}
	for (i = 0; i < n_subs; i++)
		orphans += !shown[i];
	if (o->json) {
		json_end_array(&w);
		if (orphans) {
			json_begin_array(&w, "orphans");
			tree_subdevices(out, &w, true, NULL, subs, n_subs, shown);
			json_end_array(&w);
		}
		json_end_object(&w);
		json_finish(&w);
	} else if (orphans) {
		fprintf(out, "(subdevices whose device is not listed)\n");
		tree_subdevices(out, &w, false, NULL, subs, n_subs, shown);
	}
out:
	for (i = 0; i < n_devs; i++)
		node_free(&devs[i]);
	for (i = 0; i < n_subs; i++)
		node_free(&subs[i]);
	free(devs);
	free(subs);
	free(shown);
	close(fd);
	fflush(out);
	return ret;
}

int dcmctl_cmd_list(const struct dcmctl_opts *o)
{
	return dcmctl_list(o, stdout, stderr);
}

int dcmctl_cmd_get(const struct dcmctl_opts *o)
{
	return dcmctl_get(o, stdout, stderr);
}

int dcmctl_cmd_tree(const struct dcmctl_opts *o)
{
	return dcmctl_tree(o, stdout, stderr);
}
