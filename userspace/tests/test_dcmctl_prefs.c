// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcmctl preferences (dcmctl/prefs.c, desc/prefs.c) on the
 * small robot of userspace/tests/data/good, with the shipped schemas, a
 * fake sysfs tree (-r) standing for the running kernel and temporary
 * /etc/dcm and /usr/share/dcm (--etc, --share):
 *
 *   save: values from the fake kernel, exact text kept for a value that
 *         reads the same, the ownership filter, Save then Load gives the
 *         same model, keys of elements the kernel does not have, errors;
 *   add:  new key, replaced key, refused key, file created, value checks;
 *   load: which files, and the loader's errors before any netlink.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "desc.h"
#include "libdcm.h"
#include "cmd.h"
#include "commands.h"
#include "prefs.h"

static char tmp[64];			/* the test's directory */
static char sys_root[128];		/* tmp/sys: the fake /sys/class/dcm */
static char etc[128], share[128];	/* tmp/etc, tmp/share */
static char device_xml[512], schemas[512];

/* ------------------------------------------------------------------
 * Files
 */

static void mkdirs(const char *path)
{
	char p[512], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void write_file(const char *path, const char *text)
{
	char dir[512], *slash;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdirs(dir);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The whole file, malloc'ed; NULL if it does not exist. */
static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[4096];

	if (!f)
		return NULL;
	for (;;) {
		n = fread(chunk, 1, sizeof(chunk), f);
		buf = realloc(buf, len + n + 1);
		assert_non_null(buf);
		memcpy(buf + len, chunk, n);
		len += n;
		buf[len] = '\0';
		if (n < sizeof(chunk))
			break;
	}
	fclose(f);
	return buf;
}

static void copy_file(const char *from, const char *to)
{
	char *text = read_file(from);

	assert_non_null(text);
	write_file(to, text);
	free(text);
}

static char *in(const char *dir, const char *name)
{
	static char buf[4][512];
	static int turn;
	char *p = buf[turn++ % 4];

	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

static bool exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* A preference file with @keys (Key lines) in @path. */
static void prefs_file(const char *path, const char *target, const char *keys)
{
	char text[8192];

	snprintf(text, sizeof(text),
		 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		 "<Preferences Target=\"%s\">\n%s</Preferences>\n", target, keys);
	write_file(path, text);
}

#define KEY(path, type, v) "  <Key Path=\"" path "\" Type=\"" type "\" Value=\"" v "\"/>\n"

/* ------------------------------------------------------------------
 * The model, as the kernel shows it in sysfs
 */

struct lines {
	char **v;
	size_t n;
};

static void lines_add(struct lines *l, const char *path, const char *value)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof(*l->v));
	assert_non_null(l->v);
	assert_true(asprintf(&l->v[l->n++], "%s\t%s", path, value) > 0);
}

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A key's value as sysfs shows it (@k NULL: the kernel's default). */
static void key_text(const struct desc_key *k, int kind, int64_t dflt, char *buf, size_t len)
{
	if (kind == LIBDCM_KEY_STRING)
		snprintf(buf, len, "%s", k && k->str ? k->str : "");
	else if (kind == LIBDCM_KEY_FLOAT)
		dcm_fixed_to_string(k ? desc_key_micro(k) : dflt, buf, len);
	else
		snprintf(buf, len, "%lld", (long long)(k ? k->num : dflt));
}

static void typed_lines(struct lines *l, const char *prefix, const char *name,
			const char *type, bool device, struct desc_key *keys, size_t n_keys)
{
	struct desc_type_key tk[32];
	char path[512], v[512];
	int n, i;

	n = desc_kernel_type_keys(type, device, tk, 32);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s%s/%s", prefix, name, tk[i].name);
		key_text(desc_find_key(keys, n_keys, tk[i].name), tk[i].kind, 0, v, sizeof(v));
		lines_add(l, path, v);
	}
}

/* Every key of the kept elements and every RobotConfig key, sorted. */
static struct lines model(const struct desc *d)
{
	static const char *const std[] = { "Value", "Gain", "Offset", "Min", "Max" };
	struct lines l = { NULL, 0 };
	char path[512], v[512];
	size_t i, j;

	for (i = 0; i < d->n_devices; i++) {
		struct desc_device *dev = &d->devices[i];

		if (!dev->kept)
			continue;
		snprintf(path, sizeof(path), "Device/DeviceList/%s/Type", dev->name);
		lines_add(&l, path, dev->type);
		typed_lines(&l, "Device/DeviceList/", dev->name, dev->type, true, dev->keys,
			    dev->n_keys);
	}
	for (i = 0; i < d->n_subdevices; i++) {
		struct desc_subdevice *s = &d->subdevices[i];

		if (!s->kept)
			continue;
		for (j = 0; j < 5; j++) {
			snprintf(path, sizeof(path), "Device/SubDeviceList/%s/%s", s->name, std[j]);
			key_text(desc_find_key(s->keys, s->n_keys, std[j]), LIBDCM_KEY_FLOAT,
				 j == 1 ? 1000000 : 0, v, sizeof(v));
			lines_add(&l, path, v);
		}
		snprintf(path, sizeof(path), "Device/SubDeviceList/%s/Type", s->name);
		lines_add(&l, path, s->type);
		typed_lines(&l, "Device/SubDeviceList/", s->name, s->type, false, s->keys,
			    s->n_keys);
	}
	for (i = 0; i < d->n_robot; i++) {
		key_text(&d->robot[i], d->robot[i].kind, 0, v, sizeof(v));
		lines_add(&l, d->robot[i].name, v);
	}
	qsort(l.v, l.n, sizeof(*l.v), str_cmp);
	return l;
}

static char *lines_text(const struct lines *l)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	s = calloc(1, len);
	assert_non_null(s);
	for (i = 0; i < l->n; i++) {
		strcat(s, l->v[i]);
		strcat(s, "\n");
	}
	return s;
}

/* Load Device.xml and the files (NULL: none) with the shipped schemas. */
static struct desc *load(const char *main_xml, const char *body, const char *head)
{
	struct desc_errors errs;
	struct desc_opts o;
	struct desc *d;
	char rng[600], prng[600];

	memset(&o, 0, sizeof(o));
	snprintf(rng, sizeof(rng), "%s/device.rng", schemas);
	snprintf(prng, sizeof(prng), "%s/preferences.rng", schemas);
	o.device_xml = device_xml;
	o.main_xml = main_xml;
	o.body_xml = body;
	o.head_xml = head;
	o.device_rng = rng;
	o.prefs_rng = prng;
	o.device_type_ok = desc_kernel_device_type_ok;
	o.subdevice_type_ok = desc_kernel_subdevice_type_ok;
	desc_errors_init(&errs);
	if (desc_load(&o, &d, &errs)) {
		char *t = desc_errors_text(&errs);

		fail_msg("the description does not load:\n%s", t);
	}
	desc_errors_free(&errs);
	return d;
}

/* The model of these files as one text. */
static char *model_of(const char *main_xml, const char *body, const char *head)
{
	struct desc *d = load(main_xml, body, head);
	struct lines l = model(d);
	char *t = lines_text(&l);

	lines_free(&l);
	desc_free(d);
	return t;
}

/* Write a key into the fake sysfs tree (with the newline sysfs adds). */
static void sys_put(const char *key, const char *value)
{
	char rel[512], path[1024], text[1024];

	assert_int_equal(dcm_sysfs_key_path(key, rel, sizeof(rel)), 0);
	snprintf(path, sizeof(path), "%s/dcm0/%s", sys_root, rel);
	snprintf(text, sizeof(text), "%s\n", value);
	write_file(path, text);
}

/* The fake kernel runs the description of these files. */
static void fake_kernel(const char *main_xml, const char *body, const char *head)
{
	struct desc *d = load(main_xml, body, head);
	struct lines l = model(d);
	char cmd[256];
	size_t i;

	snprintf(cmd, sizeof(cmd), "rm -rf %s/dcm0", sys_root);
	assert_int_equal(system(cmd), 0);
	mkdirs(in(sys_root, "dcm0"));
	for (i = 0; i < l.n; i++) {
		char *tab = strchr(l.v[i], '\t');

		*tab = '\0';
		sys_put(l.v[i], tab + 1);
	}
	lines_free(&l);
	desc_free(d);
}

/* ------------------------------------------------------------------
 * Running the command
 */

struct out {
	char *out, *err;
	int rc;
};

static void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

/*
 * dcmctl [-j] -r SYS preferences ARGS... --device-xml D --schemas S --etc E
 * --share H, into strings.
 */
static struct out run(bool json, int argc, char **argv)
{
	struct dcmctl_opts o;
	struct out r;
	size_t lo = 0, le = 0, n = 0;
	FILE *fo, *fe;
	char *args[32];
	int i;

	args[n++] = "dcmctl";
	if (json)
		args[n++] = "-j";
	args[n++] = "-r";
	args[n++] = sys_root;
	args[n++] = "preferences";
	for (i = 0; i < argc && n < 20; i++)
		args[n++] = argv[i];
	args[n++] = "--device-xml";
	args[n++] = device_xml;
	args[n++] = "--schemas";
	args[n++] = schemas;
	args[n++] = "--etc";
	args[n++] = etc;
	args[n++] = "--share";
	args[n++] = share;
	args[n] = NULL;
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, (int)n, args, &o), DCMCTL_RUN);
	fo = open_memstream(&r.out, &lo);
	fe = open_memstream(&r.err, &le);
	r.rc = dcmctl_preferences(&o, fo, fe);
	fclose(fo);
	fclose(fe);
	return r;
}

#define ARGS(...) (int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)), \
		  (char *[]){ __VA_ARGS__ }
#define RUN(...) run(false, ARGS(__VA_ARGS__))
#define RUN_JSON(...) run(true, ARGS(__VA_ARGS__))

/* The run must have succeeded; then free it. */
#define assert_ok(r)							\
	do {								\
		struct out r_ = (r);					\
		if (r_.rc)						\
			fail_msg("exit %d:\n%s%s", r_.rc, r_.out, r_.err); \
		out_free(&r_);						\
	} while (0)

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/test_dcmctl_prefs.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(sys_root, sizeof(sys_root), "%s/sys", tmp);
	snprintf(etc, sizeof(etc), "%s/etc", tmp);
	snprintf(share, sizeof(share), "%s/share", tmp);
	snprintf(device_xml, sizeof(device_xml), "%s/good/Device.xml", DCM_TEST_DATA);
	snprintf(schemas, sizeof(schemas), "%s/../../data", DCM_TEST_DATA);
	mkdirs(sys_root);
	mkdirs(etc);
	mkdirs(share);
	/* the shipped preference files of this robot */
	copy_file(in(DCM_TEST_DATA, "good/main.xml"), in(share, "main.xml"));
	copy_file(in(DCM_TEST_DATA, "good/body.xml"), in(share, "body.xml"));
	copy_file(in(DCM_TEST_DATA, "good/head.xml"), in(share, "head.xml"));
	fake_kernel(in(share, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "chmod -R u+w %s; rm -rf %s", tmp, tmp);
	return system(cmd);
}

/* ------------------------------------------------------------------
 * Command line
 */

#define PARSE(a, ...) dcmctl_parse_prefs(ARGS(__VA_ARGS__), (a), err, sizeof(err))

static void test_parse(void **state)
{
	struct dcmctl_prefs_args a;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&a, "save", "Chest"), 0);
	assert_int_equal(a.action, DCMCTL_PREFS_SAVE);
	assert_false(a.all);
	assert_int_equal(a.target, DESC_CHEST);
	assert_null(a.file);
	/* NAOqi's spelling, or lowercase, or any case */
	assert_int_equal(PARSE(&a, "Load", "all"), 0);
	assert_int_equal(a.action, DCMCTL_PREFS_LOAD);
	assert_true(a.all);
	assert_int_equal(PARSE(&a, "SAVE", "HEAD", "--file", "h.xml"), 0);
	assert_int_equal(a.target, DESC_HEAD);
	assert_string_equal(a.file, "h.xml");
	assert_int_equal(PARSE(&a, "add", "main", "K", "-0.5", "--type=float", "--etc", "/e",
			       "--share=/s", "--schemas", "/r", "--device-xml", "/d.xml"), 0);
	assert_int_equal(a.action, DCMCTL_PREFS_ADD);
	assert_int_equal(a.target, DESC_MAIN);
	assert_string_equal(a.key, "K");
	assert_string_equal(a.value, "-0.5");
	assert_string_equal(a.type, "float");
	assert_string_equal(a.paths.etc, "/e");
	assert_string_equal(a.paths.share, "/s");
	assert_string_equal(a.paths.schema_dir, "/r");
	assert_string_equal(a.paths.device_xml, "/d.xml");
	/* a value that looks like an option, after -- */
	assert_int_equal(PARSE(&a, "add", "Main", "K", "--", "--x"), 0);
	assert_string_equal(a.value, "--x");

	assert_int_equal(PARSE(&a, "save"), -EINVAL);
	assert_string_equal(err, "preferences save: which target? (Main, Chest, Head or All)");
	assert_int_equal(PARSE(&a, "frobnicate", "Chest"), -EINVAL);
	assert_string_equal(err, "preferences: unknown action 'frobnicate' (save, load or add)");
	assert_int_equal(PARSE(&a, "save", "Body"), -EINVAL);
	assert_string_equal(err, "preferences: unknown target 'Body' (Main, Chest, Head or All)");
	assert_int_equal(PARSE(&a, "save", "All", "--file", "x.xml"), -EINVAL);
	assert_string_equal(err, "preferences save: --file names one target's file, not All's");
	assert_int_equal(PARSE(&a, "add", "All", "K", "V"), -EINVAL);
	assert_string_equal(err, "preferences add: one target: Main, Chest or Head");
	assert_int_equal(PARSE(&a, "add", "Chest", "K"), -EINVAL);
	assert_string_equal(err, "preferences add: KEY and VALUE? (dcmctl preferences add TARGET KEY VALUE)");
	assert_int_equal(PARSE(&a, "add", "Chest", "K", "V", "W"), -EINVAL);
	assert_string_equal(err, "preferences add: unexpected argument 'W'");
	/* the first one too many is named */
	assert_int_equal(PARSE(&a, "add", "Chest", "K", "V", "W", "X"), -EINVAL);
	assert_string_equal(err, "preferences add: unexpected argument 'W'");
	assert_int_equal(PARSE(&a, "load", "Chest", "K"), -EINVAL);
	assert_string_equal(err, "preferences load: unexpected argument 'K'");
	assert_int_equal(PARSE(&a, "save", "Chest", "--type", "int"), -EINVAL);
	assert_string_equal(err, "preferences save: --type goes with add");
	assert_int_equal(PARSE(&a, "add", "Chest", "K", "1", "--type", "double"), -EINVAL);
	assert_string_equal(err, "preferences add: unknown type 'double' (int, float, bool or string)");
	assert_int_equal(PARSE(&a, "save", "Chest", "--file"), -EINVAL);
	assert_string_equal(err, "preferences: option '--file' needs an argument");
	assert_int_equal(PARSE(&a, "save", "Chest", "--bogus"), -EINVAL);
	assert_string_equal(err, "preferences: unknown option '--bogus'");
	/* an empty value is a missing one; abbreviations; "-x" is an argument */
	assert_int_equal(PARSE(&a, "save", "Chest", "--file="), -EINVAL);
	assert_string_equal(err, "preferences: option '--file' needs an argument");
	assert_int_equal(PARSE(&a, "save", "Chest", "--file", ""), -EINVAL);
	assert_string_equal(err, "preferences: option '--file' needs an argument");
	assert_int_equal(PARSE(&a, "save", "Chest", "--fi", "x.xml"), 0);
	assert_string_equal(a.file, "x.xml");
	assert_int_equal(PARSE(&a, "save", "Chest", "--files", "x.xml"), -EINVAL);
	assert_string_equal(err, "preferences: unknown option '--files'");
	assert_int_equal(PARSE(&a, "save", "Chest", "-f", "x.xml"), -EINVAL);
	assert_string_equal(err, "preferences save: unexpected argument '-f'");
	assert_int_equal(PARSE(&a, "add", "Chest", "-K", "-V"), 0);
	assert_string_equal(a.key, "-K");
	assert_string_equal(a.value, "-V");
	{
		struct out r = RUN("save");

		assert_int_equal(r.rc, DCMCTL_EXIT_USAGE);
		assert_string_equal(r.err, "dcmctl: preferences save: which target? (Main, Chest, Head or All)\n");
		out_free(&r);
	}
}

/* Which files save, add and load read and write. */
static void test_paths(void **state)
{
	struct dcmctl_prefs_args a;
	struct desc_files f;
	char err[256], from[512], to[512];

	(void)state;
	assert_int_equal(PARSE(&a, "save", "All", "--etc", etc, "--share", share), 0);
	/* nothing in etc: read the shipped file, write etc's */
	assert_int_equal(dcmctl_prefs_paths(&a, DESC_CHEST, from, sizeof(from), to, sizeof(to)), 0);
	assert_string_equal(from, in(share, "body.xml"));
	assert_string_equal(to, in(etc, "body.xml"));
	copy_file(in(share, "body.xml"), in(etc, "body.xml"));
	assert_int_equal(dcmctl_prefs_paths(&a, DESC_CHEST, from, sizeof(from), to, sizeof(to)), 0);
	assert_string_equal(from, in(etc, "body.xml"));
	unlink(in(share, "main.xml"));
	assert_int_equal(dcmctl_prefs_paths(&a, DESC_MAIN, from, sizeof(from), to, sizeof(to)), 0);
	assert_string_equal(from, "");
	assert_string_equal(to, in(etc, "main.xml"));

	/* --file: that file, read when it is there */
	assert_int_equal(PARSE(&a, "save", "Head", "--file", in(tmp, "h.xml"), "--etc", etc,
			       "--share", share), 0);
	assert_int_equal(dcmctl_prefs_paths(&a, DESC_HEAD, from, sizeof(from), to, sizeof(to)), 0);
	assert_string_equal(from, "");
	assert_string_equal(to, in(tmp, "h.xml"));
	write_file(in(tmp, "h.xml"), "x");
	assert_int_equal(dcmctl_prefs_paths(&a, DESC_HEAD, from, sizeof(from), to, sizeof(to)), 0);
	assert_string_equal(from, in(tmp, "h.xml"));

	/* load: dcmd's files, --file in place of the target's */
	assert_int_equal(PARSE(&a, "load", "All", "--etc", etc, "--share", share,
			       "--device-xml", "/d.xml", "--schemas", "/s"), 0);
	assert_int_equal(dcmctl_prefs_load_files(&a, &f), 0);
	assert_string_equal(f.device_xml, "/d.xml");
	assert_string_equal(f.prefs[DESC_MAIN], "");
	assert_string_equal(f.prefs[DESC_CHEST], in(etc, "body.xml"));
	assert_string_equal(f.prefs[DESC_HEAD], in(share, "head.xml"));
	assert_string_equal(f.device_rng, "/s/device.rng");
	assert_string_equal(f.prefs_rng, "/s/preferences.rng");
	assert_int_equal(PARSE(&a, "load", "Head", "--file", "/x/h.xml", "--etc", etc,
			       "--share", share), 0);
	assert_int_equal(dcmctl_prefs_load_files(&a, &f), 0);
	assert_string_equal(f.prefs[DESC_HEAD], "/x/h.xml");
	assert_string_equal(f.prefs[DESC_CHEST], in(etc, "body.xml"));
	{
		char want[512];

		snprintf(want, sizeof(want), "%s/Device.xml", share);
		assert_string_equal(f.device_xml, want);
	}
}

/* ------------------------------------------------------------------
 * save
 */

/* A file whose directories are not there yet: they are made (/etc/dcm/dcmN). */
static void test_save_makes_dirs(void **state)
{
	char path[512];
	struct out r;
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s/new/dcm1/body.xml", tmp);
	r = RUN("save", "Chest", "--file", path);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	out_free(&r);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
}

/* Save All, Load gives the same model; saving again changes nothing. */
static void test_save_roundtrip(void **state)
{
	char *before, *after, *m1, *b1, *h1, *m2, *b2, *h2;
	struct out r;

	(void)state;
	before = model_of(in(share, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	r = RUN("save", "All");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "Main: "));
	assert_non_null(strstr(r.out, "/etc/main.xml: 2 keys (0 changed, 0 added; from "));
	assert_non_null(strstr(r.out, "/etc/body.xml: 10 keys (0 changed, 0 added; from "));
	assert_non_null(strstr(r.out, "/etc/head.xml: 2 keys (0 changed, 0 added; from "));
	out_free(&r);
	after = model_of(in(etc, "main.xml"), in(etc, "body.xml"), in(etc, "head.xml"));
	assert_string_equal(before, after);

	/* the files: the keys as they were, with the generated-file header */
	m1 = read_file(in(etc, "main.xml"));
	b1 = read_file(in(etc, "body.xml"));
	h1 = read_file(in(etc, "head.xml"));
	assert_non_null(strstr(m1, "<!--\n  main.xml: the Main preferences of the robot description"));
	assert_non_null(strstr(m1, "<Preferences Target=\"Main\">\n"
			       "  <Key Path=\"Device/SubDeviceList/HeadPitch/Position/Actuator/Kp\" "
			       "Type=\"int\" Value=\"130\"/>\n"
			       "  <Key Path=\"Device/SubDeviceList/LShoulderPitch/Position/Actuator/Max\" "
			       "Type=\"float\" Value=\"2.0\"/>\n</Preferences>\n"));
	assert_non_null(strstr(b1, "Value=\"0.001043\""));
	assert_non_null(strstr(h1, "<Preferences Target=\"Head\">"));

	/* again, from etc's own files: the same bytes */
	r = RUN("save", "all");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	m2 = read_file(in(etc, "main.xml"));
	b2 = read_file(in(etc, "body.xml"));
	h2 = read_file(in(etc, "head.xml"));
	assert_string_equal(m1, m2);
	assert_string_equal(b1, b2);
	assert_string_equal(h1, h2);
	free(m1);
	free(b1);
	free(h1);
	free(m2);
	free(b2);
	free(h2);
	free(before);
	free(after);
}

/* A float that reads the same at six decimals keeps the file's exact text. */
static void test_save_exact_text(void **state)
{
	char *text, *before, *after;
	struct out r;

	(void)state;
	prefs_file(in(share, "main.xml"), "Main",
		   KEY("Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Gain", "float", "0.0039215686")
		   KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/GearRatio", "float", "150.2700004"));
	fake_kernel(in(share, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	/* the kernel shows 0.003922 */
	text = read_file(in(sys_root, "dcm0/SubDeviceList/ChestBoard/Led/Red/Actuator/Gain"));
	assert_string_equal(text, "0.003922\n");
	free(text);
	r = RUN("save", "Main");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	text = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(text, "Actuator/Gain\" Type=\"float\" Value=\"0.0039215686\""));
	assert_non_null(strstr(text, "GearRatio\" Type=\"float\" Value=\"150.2700004\""));
	free(text);
	/* and the model is exactly the one loaded: the Gain is the same fraction */
	before = model_of(in(share, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	after = model_of(in(etc, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	assert_string_equal(before, after);
	free(before);
	free(after);
	{
		struct desc *d = load(in(etc, "main.xml"), NULL, NULL);
		const struct desc_subdevice *s = desc_find_subdevice(d, "ChestBoard/Led/Red/Actuator");
		const struct desc_key *k = desc_find_key(s->keys, s->n_keys, "Gain");

		assert_int_equal(k->num, 39215686);
		assert_int_equal(k->den, 10000);
		desc_free(d);
	}

	/* a value that changed is written as the kernel shows it */
	sys_put("ChestBoard/Led/Red/Actuator/Gain", "0.500000");
	sys_put("HeadPitch/Position/Sensor/GearRatio", "2.000000");
	r = RUN("save", "Main");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "(2 changed, 0 added;"));
	out_free(&r);
	text = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(text, "Actuator/Gain\" Type=\"float\" Value=\"0.5\""));
	assert_non_null(strstr(text, "GearRatio\" Type=\"float\" Value=\"2\""));
	free(text);
}

/* Values changed in the kernel: each target saves its own keys, nothing else. */
static void test_save_owner_filter(void **state)
{
	char *body, *main_xml, *head;
	struct out r;

	(void)state;
	sys_put("HeadPitch/Position/Actuator/Kp", "77");			/* Main's, in main.xml */
	sys_put("HeadPitch/Position/Sensor/GearRatio", "151.500000");	/* Main's, Device.xml's */
	sys_put("HeadPitch/Position/Actuator/InvertControlDirection", "1");
	sys_put("HeadPitch/Position/Sensor/jointZeroPosition", "99");	/* Chest's */
	sys_put("Device/DeviceList/ChestBoard/BodyNickName", "Robo");	/* Chest's, Device.xml's */
	sys_put("LFoot/FSR/FrontLeft/Sensor/Offset", "0.250000");	/* Chest's: an FSR */
	sys_put("HeadPitch/Position/Sensor/Offset", "0.250000");	/* Main's */
	/* the robot's: never saved */
	sys_put("HeadPitch/Position/Actuator/Value", "0.300000");
	sys_put("Device/DeviceList/HeadBoard/ProgVersion", "7");

	r = RUN("save", "Chest");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "Chest: "));
	assert_non_null(strstr(r.out, "/etc/body.xml: 12 keys (1 changed, 2 added; from "));
	out_free(&r);
	assert_false(exists(in(etc, "main.xml")));
	assert_false(exists(in(etc, "head.xml")));
	body = read_file(in(etc, "body.xml"));
	assert_non_null(strstr(body, "jointZeroPosition\" Type=\"int\" Value=\"99\""));
	assert_non_null(strstr(body, "\"Device/DeviceList/ChestBoard/BodyNickName\" Type=\"string\" "
			       "Value=\"Robo\""));
	assert_non_null(strstr(body, "\"Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Offset\" "
			       "Type=\"float\" Value=\"0.25\""));
	assert_null(strstr(body, "Kp"));
	assert_null(strstr(body, "GearRatio"));
	assert_null(strstr(body, "HeadPitch/Position/Sensor/Offset"));
	assert_null(strstr(body, "Value\" Type=\"float\" Value=\"0.3\""));
	free(body);

	r = RUN("save", "Main");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "/etc/main.xml: 5 keys (1 changed, 3 added; from "));
	out_free(&r);
	main_xml = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(main_xml, "Actuator/Kp\" Type=\"int\" Value=\"77\""));
	assert_non_null(strstr(main_xml, "GearRatio\" Type=\"float\" Value=\"151.5\""));
	assert_non_null(strstr(main_xml, "InvertControlDirection\" Type=\"bool\" Value=\"true\""));
	assert_non_null(strstr(main_xml, "\"Device/SubDeviceList/HeadPitch/Position/Sensor/Offset\" "
			       "Type=\"float\" Value=\"0.25\""));
	assert_null(strstr(main_xml, "jointZeroPosition"));
	assert_null(strstr(main_xml, "BodyNickName"));
	assert_null(strstr(main_xml, "FSR"));
	assert_null(strstr(main_xml, "ProgVersion"));
	assert_null(strstr(main_xml, "/Value\""));
	free(main_xml);

	r = RUN("save", "Head");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	head = read_file(in(etc, "head.xml"));
	assert_null(strstr(head, "Device/SubDeviceList/"));
	assert_null(strstr(head, "Device/DeviceList/"));
	free(head);

	/* what was saved loads as the kernel had it */
	{
		char *want, *got;
		struct desc *d;
		struct lines l;

		d = load(in(etc, "main.xml"), in(etc, "body.xml"), in(etc, "head.xml"));
		l = model(d);
		got = lines_text(&l);
		lines_free(&l);
		desc_free(d);
		assert_non_null(strstr(got, "Device/SubDeviceList/HeadPitch/Position/Actuator/Kp\t77\n"));
		assert_non_null(strstr(got, "Device/DeviceList/ChestBoard/BodyNickName\tRobo\n"));
		assert_non_null(strstr(got, "Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition\t99\n"));
		want = strstr(got, "Device/SubDeviceList/HeadPitch/Position/Actuator/Value\t");
		assert_non_null(want);
		assert_true(!strncmp(want + strlen("Device/SubDeviceList/HeadPitch/Position/Actuator/Value\t"),
				     "0.000000\n", 9));
		free(got);
	}
}

/* A key the kernel does not have (its part is not on this robot) stays as it is. */
static void test_save_absent(void **state)
{
	char *body;
	struct out r;

	(void)state;
	prefs_file(in(share, "body.xml"), "Chest",
		   KEY("RobotConfig/Body/Device/Legs/Version", "int", "-1")
		   KEY("Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain", "float", "0.00104300")
		   KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "int", "2071"));
	fake_kernel(in(share, "main.xml"), in(share, "body.xml"), in(share, "head.xml"));
	assert_false(exists(in(sys_root, "dcm0/SubDeviceList/LFoot")));
	sys_put("HeadPitch/Position/Sensor/jointZeroPosition", "12");
	r = RUN("save", "Chest");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	body = read_file(in(etc, "body.xml"));
	assert_non_null(strstr(body, "LFoot/FSR/FrontLeft/Sensor/Gain\" Type=\"float\" Value=\"0.00104300\""));
	assert_non_null(strstr(body, "jointZeroPosition\" Type=\"int\" Value=\"12\""));
	assert_non_null(strstr(body, "Legs/Version\" Type=\"int\" Value=\"-1\""));
	free(body);
}

static void test_save_errors(void **state)
{
	char *text;
	struct out r;

	(void)state;
	/* no controller */
	rmdir(in(sys_root, "dcm7"));
	{
		char *argv[] = { "dcmctl", "-r", sys_root, "-d", "7", "preferences", "save", "Chest",
				 "--device-xml", device_xml, "--schemas", schemas, "--etc", etc,
				 "--share", share, NULL };
		struct dcmctl_opts o;
		size_t lo = 0, le = 0;
		FILE *fo, *fe;

		assert_int_equal(dcmctl_parse_args(dcmctl_commands, 16, argv, &o), DCMCTL_RUN);
		fo = open_memstream(&r.out, &lo);
		fe = open_memstream(&r.err, &le);
		r.rc = dcmctl_preferences(&o, fo, fe);
		fclose(fo);
		fclose(fe);
		assert_int_equal(r.rc, 1);
		assert_string_equal(r.out, "");
		assert_non_null(strstr(r.err, "/sys/dcm7: No such file or directory (no such controller)\n"));
		out_free(&r);
	}
	assert_false(exists(in(etc, "body.xml")));

	/* the file to update does not parse: nothing written */
	write_file(in(etc, "body.xml"), "<Preferences Target=\"Chest\">\n  <Key Path=\"x\"\n");
	r = RUN("save", "Chest");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/etc/body.xml:3: "));
	assert_non_null(strstr(r.err, "/etc/body.xml not saved\n"));
	out_free(&r);
	text = read_file(in(etc, "body.xml"));
	assert_string_equal(text, "<Preferences Target=\"Chest\">\n  <Key Path=\"x\"\n");
	free(text);
	/* a file of another target */
	copy_file(in(share, "head.xml"), in(etc, "body.xml"));
	r = RUN("save", "Chest");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/etc/body.xml:2: Target is 'Head', not Chest: this is not the "
			       "Chest preferences\n"));
	out_free(&r);
	unlink(in(etc, "body.xml"));

	/* a kernel value the file cannot hold: checked before the rename */
	sys_put("HeadPitch/Position/Sensor/jointZeroPosition", "5000");
	r = RUN("save", "Chest");
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/etc/body.xml not written\n"));
	assert_null(strstr(r.err, ".XXXXXX"));
	out_free(&r);
	assert_false(exists(in(etc, "body.xml")));
	{
		/* no temporary file is left */
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A %s)\"", etc);
		assert_int_equal(system(cmd), 0);
	}
	/* -j: nothing on stdout when it fails */
	r = RUN_JSON("save", "Chest");
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "");
	out_free(&r);
	sys_put("HeadPitch/Position/Sensor/jointZeroPosition", "2071");
	r = RUN_JSON("save", "Head");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "{\"action\":\"save\",\"saved\":[{\"target\":\"Head\",\"file\":\""));
	assert_non_null(strstr(r.out, "\"keys\":2,\"live\":2,\"changed\":0,\"added\":0}]}"));
	out_free(&r);

	/* where writing is not allowed */
	if (geteuid() != 0) {
		mkdirs(in(tmp, "ro"));
		chmod(in(tmp, "ro"), 0555);
		r = RUN("save", "Head", "--file", in(tmp, "ro/head.xml"));
		assert_int_equal(r.rc, 1);
		assert_non_null(strstr(r.err, "ro/head.xml: cannot write: Permission denied "
				       "(writing the robot's preference files needs root)\n"));
		out_free(&r);
	}
}

/* ------------------------------------------------------------------
 * add
 */

static void test_add(void **state)
{
	char *text;
	struct out r;

	(void)state;
	/* a key of the shipped body file: etc's file is made from it */
	r = RUN("add", "Chest", "HeadPitch/Position/Sensor/jointZeroPosition", "1234");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_non_null(strstr(r.out, "/etc/body.xml: Device/SubDeviceList/HeadPitch/Position/Sensor/"
			       "jointZeroPosition = 1234 (replaced)\n"));
	out_free(&r);
	text = read_file(in(etc, "body.xml"));
	assert_non_null(strstr(text, "<Key Path=\"Device/SubDeviceList/HeadPitch/Position/Sensor/"
			       "jointZeroPosition\" Type=\"int\" Value=\"1234\"/>"));
	assert_non_null(strstr(text, "BodyId\" Type=\"string\" Value=\"AL01234567890\""));
	free(text);
	/* a new key, after the others */
	r = RUN("add", "chest", "Device/DeviceList/ChestBoard/BodyNickName", "Nao <2> & \"co\"");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "(added)\n"));
	out_free(&r);
	text = read_file(in(etc, "body.xml"));
	assert_non_null(strstr(text, "Value=\"0.001043\"/>\n  <Key Path=\"Device/DeviceList/ChestBoard/"
			       "BodyNickName\" Type=\"string\" Value=\"Nao &lt;2&gt; &amp; &quot;co&quot;\"/>\n"
			       "</Preferences>\n"));
	free(text);
	/* the kernel is not touched */
	text = read_file(in(sys_root, "dcm0/DeviceList/ChestBoard/BodyNickName"));
	assert_string_equal(text, "Nao\n");
	free(text);
	{
		struct desc *d = load(NULL, in(etc, "body.xml"), NULL);
		struct desc_device *dev = desc_find_device(d, "ChestBoard");

		assert_string_equal(desc_find_key(dev->keys, dev->n_keys, "BodyNickName")->str,
				    "Nao <2> & \"co\"");
		desc_free(d);
	}

	/* FSR calibration is the Chest file's */
	assert_ok(RUN("add", "Chest", "LFoot/FSR/FrontLeft/Sensor/Offset", "-0.0165"));
	/* RobotConfig keys of the Main file: any kind, the value says which */
	assert_ok(RUN("add", "Main", "RobotConfig/Arms/Color", "orange"));
	assert_ok(RUN("add", "Main", "RobotConfig/Arms/Length", "0.25"));
	assert_ok(RUN("add", "Main", "RobotConfig/Arms/Count", "2", "--type", "string"));
	text = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(text, "Kp\" Type=\"int\" Value=\"130\""));	/* from share's */
	assert_non_null(strstr(text, "\"RobotConfig/Arms/Color\" Type=\"string\" Value=\"orange\""));
	assert_non_null(strstr(text, "\"RobotConfig/Arms/Length\" Type=\"float\" Value=\"0.25\""));
	assert_non_null(strstr(text, "\"RobotConfig/Arms/Count\" Type=\"string\" Value=\"2\""));
	free(text);
	/* replacing keeps the file's Type of a RobotConfig key */
	r = RUN("add", "Main", "RobotConfig/Arms/Count", "3");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "RobotConfig/Arms/Count = 3 (replaced)\n"));
	out_free(&r);
	text = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(text, "\"RobotConfig/Arms/Count\" Type=\"string\" Value=\"3\""));
	free(text);

	/* -j */
	r = RUN_JSON("add", "Head", "RobotConfig/Head/Device/Camera/Version", "2");
	assert_int_equal(r.rc, 0);
	assert_non_null(strstr(r.out, "{\"action\":\"add\",\"target\":\"Head\",\"file\":\""));
	assert_non_null(strstr(r.out, "\"key\":\"RobotConfig/Head/Device/Camera/Version\","
			       "\"type\":\"int\",\"value\":2,\"added\":true}"));
	out_free(&r);
}

static void test_add_new_file(void **state)
{
	char f[512], *text;
	struct out r;

	(void)state;
	snprintf(f, sizeof(f), "%s/new/dir/head.xml", tmp);
	unlink(in(share, "main.xml"));
	r = RUN("add", "Main", "HeadPitch/Position/Actuator/Ki", "3");
	assert_int_equal(r.rc, 0);
	out_free(&r);
	text = read_file(in(etc, "main.xml"));
	assert_non_null(strstr(text, "-->\n<Preferences Target=\"Main\">\n"
			       "  <Key Path=\"Device/SubDeviceList/HeadPitch/Position/Actuator/Ki\" "
			       "Type=\"int\" Value=\"3\"/>\n</Preferences>\n"));
	assert_true(!strncmp(text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n", 44));
	free(text);
	{
		struct stat st;

		assert_int_equal(stat(in(etc, "main.xml"), &st), 0);
		assert_int_equal(st.st_mode & 0777, 0644);
		/* a file keeps its permissions, but not a set-user-ID bit */
		assert_int_equal(chmod(in(etc, "main.xml"), 04640), 0);
		assert_ok(RUN("add", "Main", "HeadPitch/Position/Actuator/Ki", "4"));
		assert_int_equal(stat(in(etc, "main.xml"), &st), 0);
		assert_int_equal(st.st_mode & 07777, 0640);
	}
	/* --file in a directory that is not there yet (one level is made) */
	mkdirs(in(tmp, "new"));
	r = RUN("add", "Head", "RobotConfig/Head/BaseVersion", "V5", "--file", f);
	if (r.rc)
		fail_msg("exit %d: %s%s", r.rc, r.out, r.err);
	out_free(&r);
	text = read_file(f);
	assert_non_null(strstr(text, "<Preferences Target=\"Head\">\n  <Key Path=\"RobotConfig/Head/"
			       "BaseVersion\" Type=\"string\" Value=\"V5\"/>\n</Preferences>\n"));
	free(text);
	/* a name with "--", which a comment may not hold, in the header */
	snprintf(f, sizeof(f), "%s/new/head---x-.xml", tmp);
	r = RUN("add", "Head", "RobotConfig/Head/BaseVersion", "V6", "--file", f);
	if (r.rc)
		fail_msg("exit %d: %s%s", r.rc, r.out, r.err);
	out_free(&r);
	text = read_file(f);
	assert_true(!strncmp(text, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n"
			     "  head- - -x-.xml: the Head preferences", 80));
	assert_non_null(strstr(text, "Value=\"V6\"/>\n</Preferences>\n"));
	free(text);
}

static void test_add_refused(void **state)
{
	static const struct {
		const char *target, *key, *value, *type, *why;
	} cases[] = {
		{ "Chest", "HeadPitch/Position/Actuator/Kp", "3", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/Kp belongs to the Main "
		  "preferences, not to the Chest preferences (dcmctl preferences add Main ...)\n" },
		{ "Main", "HeadPitch/Position/Sensor/jointZeroPosition", "3", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition belongs to "
		  "the Chest preferences, not to the Main preferences (dcmctl preferences add Chest ...)\n" },
		{ "Main", "LFoot/FSR/FrontLeft/Sensor/Gain", "0.1", NULL,
		  "dcmctl: Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain belongs to the Chest "
		  "preferences, not to the Main preferences (dcmctl preferences add Chest ...)\n" },
		{ "Head", "RobotConfig/Body/Type", "NAO", NULL,
		  "dcmctl: RobotConfig/Body/Type belongs to the Chest preferences, not to the Head "
		  "preferences (dcmctl preferences add Chest ...)\n" },
		{ "Main", "RobotConfig/Head/X/Y", "1", NULL,
		  "dcmctl: RobotConfig/Head/X/Y belongs to the Head preferences, not to the Main "
		  "preferences (dcmctl preferences add Head ...)\n" },
		{ "Chest", "Nope/Sensor/jointZeroPosition", "3", NULL,
		  "dcmctl: Device/SubDeviceList/Nope/Sensor/jointZeroPosition: no subdevice of that name in " },
		{ "Main", "HeadPitch/Position/Actuator/Foo", "3", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/Foo: HeadPitch/Position/Actuator "
		  "(subdevice Joint) has no key Foo that a file may set\n" },
		{ "Main", "Device/DeviceList/HeadBoard/ProgVersion", "3", NULL,
		  "dcmctl: Device/DeviceList/HeadBoard/ProgVersion: the robot sets this key, a file does not\n" },
		{ "Main", "Device/DeviceList/HeadBoard/Bus", "x", NULL,
		  "dcmctl: Device/DeviceList/HeadBoard/Bus: HeadBoard (device MotorBoard) has no key Bus "
		  "that a file may set\n" },
		{ "Main", "HeadPitch/Position/Actuator/Kp", "1.5", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/Kp: '1.5' is not an integer "
		  "(the key is an int)\n" },
		{ "Main", "HeadPitch/Position/Actuator/Kp", "3", "float",
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/Kp is an int, not a float\n" },
		{ "Main", "HeadPitch/Position/Actuator/Max", "1e3", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/Max: '1e3' is not a decimal "
		  "number (the key is a float)\n" },
		{ "Main", "HeadPitch/Position/Actuator/InvertControlDirection", "yes", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Actuator/InvertControlDirection: 'yes' "
		  "is not true, false, 1 or 0 (the key is a bool)\n" },
		{ "Chest", "HeadPitch/Position/Sensor/jointZeroPosition", "4096", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition: 4096 is "
		  "outside the key's range, 0 to 4095\n" },
		{ "Chest", "RobotConfig/Body/Device/Legs/Version", "one", NULL,
		  "dcmctl: RobotConfig/Body/Device/Legs/Version: 'one' is not an integer (the key is an int)\n" },
		{ "Chest", "Device/DeviceList/ChestBoard/BodyId", "a\tb", NULL,
		  "dcmctl: Device/DeviceList/ChestBoard/BodyId: a string without control characters\n" },
		{ "Main", "HeadPitch", "1", NULL,
		  "dcmctl: Device/SubDeviceList/HeadPitch: not a key path (Device/SubDeviceList/"
		  "<subdevice>/<key>, Device/DeviceList/<device>/<key> or RobotConfig/...)\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out r = cases[i].type ?
			RUN("add", (char *)cases[i].target, (char *)cases[i].key,
			    (char *)cases[i].value, "--type", (char *)cases[i].type) :
			RUN("add", (char *)cases[i].target, (char *)cases[i].key,
			    (char *)cases[i].value);

		if (r.rc != 1 || strncmp(r.err, cases[i].why, strlen(cases[i].why)) ||
		    strcmp(r.out, ""))
			fail_msg("add %s %s %s: exit %d\n%s%swant: %s", cases[i].target, cases[i].key,
				 cases[i].value, r.rc, r.out, r.err, cases[i].why);
		out_free(&r);
	}
	/* nothing was written */
	assert_false(exists(in(etc, "main.xml")));
	assert_false(exists(in(etc, "body.xml")));
	assert_false(exists(in(etc, "head.xml")));
}

/* ------------------------------------------------------------------
 * load: which files, and the loader's verdict before the kernel is asked
 */

static void test_load(void **state)
{
	struct out r;
	char *argv[32];
	struct dcmctl_opts o;
	size_t lo = 0, le = 0;
	FILE *fo, *fe;
	int n = 0;

	(void)state;
	/* a file that does not parse: FILE:LINE, nothing sent */
	write_file(in(tmp, "bad.xml"), "<?xml version=\"1.0\"?>\n<Preferences Target=\"Chest\">\n"
		   "  <Key Path=\"x\" Type=\"int\" Value=\"1\">\n</Preferences>\n");
	r = RUN("load", "Chest", "--file", in(tmp, "bad.xml"));
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/bad.xml:4: Opening and ending tag mismatch: Key line 3 and "
			       "Preferences\n"));
	assert_non_null(strstr(r.err, "/bad.xml + "));
	assert_non_null(strstr(r.err, " not loaded: "));
	out_free(&r);
	/* a key the file does not own */
	prefs_file(in(tmp, "bad.xml"), "Head",
		   KEY("Device/SubDeviceList/HeadPitch/Position/Actuator/Kp", "int", "1"));
	r = RUN("load", "Head", "--file", in(tmp, "bad.xml"));
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/bad.xml:3: key Device/SubDeviceList/HeadPitch/Position/Actuator/Kp "
			       "belongs to the Main preferences, not to the Head preferences\n"));
	out_free(&r);
	/* a file of another target given as this one's */
	r = RUN("load", "Chest", "--file", in(share, "head.xml"));
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/share/head.xml:2: Target is 'Head', but this file is loaded as "
			       "the Chest preferences (--file)\n"));
	out_free(&r);
	/* schema: an unknown Type */
	prefs_file(in(tmp, "bad.xml"), "Chest",
		   KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "long", "1"));
	r = RUN("load", "Chest", "--file", in(tmp, "bad.xml"));
	assert_int_equal(r.rc, 1);
	assert_non_null(strstr(r.err, "/bad.xml:3: "));
	out_free(&r);

	/*
	 * Good files get as far as the kernel: controller 99 (none here, and
	 * none on a host that runs dcm).
	 */
	argv[n++] = "dcmctl";
	argv[n++] = "-d";
	argv[n++] = "99";
	argv[n++] = "preferences";
	argv[n++] = "load";
	argv[n++] = "All";
	argv[n++] = "--device-xml";
	argv[n++] = device_xml;
	argv[n++] = "--schemas";
	argv[n++] = schemas;
	argv[n++] = "--etc";
	argv[n++] = etc;
	argv[n++] = "--share";
	argv[n++] = share;
	argv[n] = NULL;
	assert_int_equal(dcmctl_parse_args(dcmctl_commands, n, argv, &o), DCMCTL_RUN);
	fo = open_memstream(&r.out, &lo);
	fe = open_memstream(&r.err, &le);
	r.rc = dcmctl_preferences(&o, fo, fe);
	fclose(fo);
	fclose(fe);
	assert_int_equal(r.rc, 1);
	assert_string_equal(r.out, "");
	assert_null(strstr(r.err, "not loaded"));
	assert_true(strstr(r.err, "netlink") || strstr(r.err, "controller 99"));
	out_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_makes_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_exact_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_owner_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_absent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_new_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_add_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
