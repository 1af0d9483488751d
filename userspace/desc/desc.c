// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the robot description (Device.xml + the Main, Chest and Head
 * preference files) into an in-memory model; see desc.h.
 *
 * Order of work: parse the files (libxml2, no network, no DTD), validate
 * each against its RelaxNG schema, read Device.xml's Devices and
 * SubDevices, read the preference keys and check that each file sets only
 * keys it owns, decide from the RobotConfig keys which Parts the robot
 * has, drop what it has not, check names and numbers, then apply the
 * preference keys over Device.xml's values (Main, then Chest, then Head).
 * Nothing reaches the kernel from here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <linux/dcm.h>

#include "desc.h"

static const char *const part_names[PART_COUNT] = {
	[PART_BODY] = "Body",
	[PART_HEAD] = "Head",
	[PART_HEAD_TOUCH] = "HeadTouch",
	[PART_LEFT_ARM] = "LeftArm",
	[PART_RIGHT_ARM] = "RightArm",
	[PART_LEFT_WRIST] = "LeftWrist",
	[PART_RIGHT_WRIST] = "RightWrist",
	[PART_LEFT_HAND] = "LeftHand",
	[PART_RIGHT_HAND] = "RightHand",
	[PART_LEFT_HAND_TOUCH] = "LeftHandTouch",
	[PART_RIGHT_HAND_TOUCH] = "RightHandTouch",
	[PART_LEGS] = "Legs",
	[PART_LEFT_FOOT] = "LeftFoot",
	[PART_RIGHT_FOOT] = "RightFoot",
};

const char *desc_part_name(enum desc_part p)
{
	return p < PART_COUNT ? part_names[p] : "?";
}

static int part_from_name(const char *s)
{
	int i;

	for (i = 0; i < PART_COUNT; i++)
		if (!strcmp(part_names[i], s))
			return i;
	return -1;
}

/* ------------------------------------------------------------------
 * Errors
 */

void desc_errors_init(struct desc_errors *e)
{
	memset(e, 0, sizeof(*e));
}

void desc_errors_free(struct desc_errors *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->msgs[i]);
	free(e->msgs);
	desc_errors_init(e);
}

static void errors_addv(struct desc_errors *e, const char *fmt, va_list ap)
{
	char *m, **n;

	if (e->n >= DESC_MAX_ERRORS) {
		e->dropped++;
		return;
	}
	if (vasprintf(&m, fmt, ap) < 0) {
		e->dropped++;
		return;
	}
	n = realloc(e->msgs, (e->n + 1) * sizeof(*n));
	if (!n) {
		free(m);
		e->dropped++;
		return;
	}
	e->msgs = n;
	e->msgs[e->n++] = m;
}

void desc_errors_add(struct desc_errors *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	errors_addv(e, fmt, ap);
	va_end(ap);
}

char *desc_errors_text(const struct desc_errors *e)
{
	size_t i, len = 1;
	char *s, *p;

	for (i = 0; i < e->n; i++)
		len += strlen(e->msgs[i]) + 1;
	if (e->dropped)
		len += 64;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	*p = '\0';
	for (i = 0; i < e->n; i++)
		p += sprintf(p, "%s\n", e->msgs[i]);
	if (e->dropped)
		sprintf(p, "(%zu more errors)\n", e->dropped);
	return s;
}

/* ------------------------------------------------------------------
 * Numbers
 */

static bool xml_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Copy @text without leading and trailing XML blanks; NULL if no memory. */
static char *trimmed(const char *text)
{
	size_t n;

	while (xml_blank(*text))
		text++;
	n = strlen(text);
	while (n && xml_blank(text[n - 1]))
		n--;
	return strndup(text, n);
}

int desc_parse_int(const char *text, int64_t *out)
{
	uint64_t mag = 0, lim = INT64_MAX;
	char *t = trimmed(text), *p;
	bool neg = false;
	int ret = 0;

	if (!t)
		return -ENOMEM;
	p = t;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (neg)
		lim++;
	if (!*p)
		ret = -EINVAL;
	for (; *p && !ret; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (*p < '0' || *p > '9')
			ret = -EINVAL;
		else if (mag > (lim - d) / 10)
			ret = -ERANGE;
		else
			mag = mag * 10 + d;
	}
	/* a number too big that is also garbage further on is garbage */
	for (; *p && ret == -ERANGE; p++)
		if (*p < '0' || *p > '9')
			ret = -EINVAL;
	free(t);
	if (!ret)
		*out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return ret;
}

int desc_parse_float(const char *text, int64_t *out)
{
	char *t = trimmed(text);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = dcm_fixed_from_string(t, out);
	free(t);
	return ret;
}

int desc_parse_fraction(const char *text, int64_t *num, uint32_t *den)
{
	char *t = trimmed(text);
	int ret;

	if (!t)
		return -ENOMEM;
	ret = dcm_fraction_from_string(t, num, den);
	free(t);
	return ret;
}

int64_t desc_key_micro(const struct desc_key *k)
{
	uint64_t u;

	if (k->kind != LIBDCM_KEY_FLOAT || k->den <= 1)
		return k->num;
	u = k->num < 0 ? 0 - (uint64_t)k->num : (uint64_t)k->num;
	u = u / k->den + (u % k->den >= (k->den + 1) / 2);
	return k->num < 0 ? -(int64_t)u : (int64_t)u;
}

int desc_parse_bool(const char *text, int64_t *out)
{
	char *t = trimmed(text);
	int ret = 0;

	if (!t)
		return -ENOMEM;
	if (!strcmp(t, "true") || !strcmp(t, "1"))
		*out = 1;
	else if (!strcmp(t, "false") || !strcmp(t, "0"))
		*out = 0;
	else
		ret = -EINVAL;
	free(t);
	return ret;
}

void desc_format_fixed(int64_t v, char *buf, size_t len)
{
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	snprintf(buf, len, "%s%llu.%06llu", v < 0 ? "-" : "",
		 (unsigned long long)(u / 1000000), (unsigned long long)(u % 1000000));
}

/* ------------------------------------------------------------------
 * Model helpers
 */

static void key_clear(struct desc_key *k)
{
	free(k->name);
	free(k->str);
}

static void keys_free(struct desc_key *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		key_clear(&keys[i]);
	free(keys);
}

void desc_free(struct desc *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n_devices; i++) {
		free(d->devices[i].name);
		free(d->devices[i].type);
		free(d->devices[i].bus);
		keys_free(d->devices[i].keys, d->devices[i].n_keys);
	}
	for (i = 0; i < d->n_subdevices; i++) {
		free(d->subdevices[i].name);
		free(d->subdevices[i].type);
		free(d->subdevices[i].device);
		keys_free(d->subdevices[i].keys, d->subdevices[i].n_keys);
	}
	keys_free(d->robot, d->n_robot);
	for (i = 0; i < d->n_files; i++)
		free(d->files[i]);
	free(d->files);
	free(d->devices);
	free(d->subdevices);
	free(d);
}

struct desc_key *desc_find_key(struct desc_key *keys, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

struct desc_key *desc_find_robot_key(const struct desc *d, const char *path)
{
	return desc_find_key(d->robot, d->n_robot, path);
}

struct desc_subdevice *desc_find_subdevice(const struct desc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_subdevices; i++)
		if (!strcmp(d->subdevices[i].name, name))
			return &d->subdevices[i];
	return NULL;
}

struct desc_device *desc_find_device(const struct desc *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_devices; i++)
		if (!strcmp(d->devices[i].name, name))
			return &d->devices[i];
	return NULL;
}

/* Append a key (moving @k in). Return 0 or -ENOMEM. */
static int keys_append(struct desc_key **keys, size_t *n, struct desc_key *k)
{
	struct desc_key *nk = realloc(*keys, (*n + 1) * sizeof(*nk));

	if (!nk)
		return -ENOMEM;
	*keys = nk;
	nk[(*n)++] = *k;
	memset(k, 0, sizeof(*k));
	return 0;
}

/* ------------------------------------------------------------------
 * Targets and who owns a key
 */

/* The key prefixes are the uapi header's. */
#define PREFIX_SUB	DCM_PREFIX_SUBDEVICE
#define PREFIX_DEV	DCM_PREFIX_DEVICE
#define PREFIX_ROBOT	DCM_PREFIX_ROBOTCONFIG

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* @path is @dir or below it ("RobotConfig/Body", "RobotConfig/Body/..."). */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

enum desc_target desc_key_owner(const char *path, const char *sub_type)
{
	const char *key = strrchr(path, '/');

	key = key ? key + 1 : path;
	if (below(path, "RobotConfig/Body"))
		return DESC_CHEST;
	if (below(path, "RobotConfig/Head"))
		return DESC_HEAD;
	if (starts(path, PREFIX_DEV) && (!strcmp(key, "BodyId") || !strcmp(key, "BodyNickName")))
		return DESC_CHEST;
	if (starts(path, PREFIX_SUB)) {
		if (!strcmp(key, "jointZeroPosition"))
			return DESC_CHEST;
		if (sub_type && !strcmp(sub_type, "FSR") &&
		    (!strcmp(key, "Gain") || !strcmp(key, "Offset")))
			return DESC_CHEST;
	}
	return DESC_MAIN;
}

int desc_resolve_path(const struct desc *d, const char *path, struct desc_path *out)
{
	const char *rest, *slash;
	bool is_sub;
	char *elem;

	memset(out, 0, sizeof(*out));
	if (starts(path, PREFIX_ROBOT)) {
		out->robot = true;
		out->key = path;
		return path[strlen(PREFIX_ROBOT)] ? 0 : -EINVAL;
	}
	if (starts(path, PREFIX_SUB)) {
		rest = path + strlen(PREFIX_SUB);
		is_sub = true;
	} else if (starts(path, PREFIX_DEV)) {
		rest = path + strlen(PREFIX_DEV);
		is_sub = false;
	} else {
		return -EINVAL;
	}
	slash = strrchr(rest, '/');
	if (!slash || slash == rest || !slash[1])
		return -EINVAL;
	out->key = slash + 1;
	elem = strndup(rest, (size_t)(slash - rest));
	if (!elem)
		return -ENOMEM;
	if (is_sub)
		out->sub = desc_find_subdevice(d, elem);
	else
		out->dev = desc_find_device(d, elem);
	free(elem);
	return 0;
}

enum desc_target desc_path_owner(const struct desc *d, const char *path)
{
	struct desc_path p;

	if (desc_resolve_path(d, path, &p))
		return desc_key_owner(path, NULL);
	return desc_key_owner(path, p.sub ? p.sub->type : NULL);
}

/* ------------------------------------------------------------------
 * Loading state
 */

/* The files of a load: Device.xml, then the preferences of each target. */
enum file_role { ROLE_DEVICE, ROLE_MAIN, ROLE_CHEST, ROLE_HEAD, N_ROLES };

static enum desc_target role_target(enum file_role role)
{
	return (enum desc_target)(role - ROLE_MAIN);
}

/* A key of a preference file, as read. */
struct pref_key {
	char *path;
	struct desc_key key;	/* name unused */
};

struct pref_file {
	const char *file;	/* in struct desc.files */
	bool wrong_target;	/* its Target is another file's */
	struct pref_key *keys;
	size_t n_keys;
};

struct loader {
	const struct desc_opts *o;
	struct desc_errors *errs;
	struct desc *d;
	bool oom;
	struct pref_file prefs[DESC_N_TARGETS];
	struct {
		const char *path;
		xmlRelaxNGPtr schema;
	} schemas[2];			/* compiled once per load */
	size_t n_schemas;
};

static void logf_(struct loader *l, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void logf_(struct loader *l, int level, const char *fmt, ...)
{
	va_list ap;
	char *m;

	if (!l->o->log)
		return;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) >= 0) {
		l->o->log(l->o->log_arg, level, m);
		free(m);
	}
	va_end(ap);
}

static void errf(struct loader *l, const struct desc_src *src, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error at @src: "FILE:LINE: message" ("FILE: message" without a line). */
static void errf(struct loader *l, const struct desc_src *src, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0) {
		va_end(ap);
		l->oom = true;
		return;
	}
	va_end(ap);
	if (src->line > 0)
		desc_errors_add(l->errs, "%s:%d: %s", src->file, src->line, m);
	else
		desc_errors_add(l->errs, "%s: %s", src->file, m);
	free(m);
}

static const char *add_file(struct loader *l, const char *name)
{
	char **n = realloc(l->d->files, (l->d->n_files + 1) * sizeof(*n));
	char *s = strdup(name);

	if (!n || !s) {
		free(s);
		if (n)
			l->d->files = n;
		l->oom = true;
		return NULL;
	}
	l->d->files = n;
	n[l->d->n_files++] = s;
	return s;
}

static char *xstrdup(struct loader *l, const char *s)
{
	char *r = strdup(s);

	if (!r)
		l->oom = true;
	return r;
}

/* ------------------------------------------------------------------
 * libxml2: parsing and validation with errors collected as FILE:LINE
 */

struct xml_err_ctx {
	struct loader *l;
	const char *file;	/* default file name */
	int count;		/* errors (not warnings) recorded */
};

static void xml_error(void *arg, xmlErrorPtr e)
{
	struct xml_err_ctx *c = arg;
	const char *file = e->file ? e->file : c->file;
	char *msg;
	size_t n;
	int line = e->line;

	if (!e->message)
		return;
	msg = strdup(e->message);
	if (!msg) {
		c->l->oom = true;
		return;
	}
	n = strlen(msg);
	while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
	if (line <= 0 && e->node && ((xmlNodePtr)e->node)->type == XML_ELEMENT_NODE)
		line = (int)xmlGetLineNo((xmlNodePtr)e->node);

	if (e->level == XML_ERR_WARNING) {
		if (line > 0)
			logf_(c->l, DESC_LOG_WARNING, "%s:%d: %s", file, line, msg);
		else
			logf_(c->l, DESC_LOG_WARNING, "%s: %s", file, msg);
	} else {
		c->count++;
		if (line > 0)
			desc_errors_add(c->l->errs, "%s:%d: %s", file, line, msg);
		else
			desc_errors_add(c->l->errs, "%s: %s", file, msg);
	}
	free(msg);
}

/* The line of "<!DOCTYPE" in @path (libxml2 keeps none for a DTD); 1 if unknown. */
static int doctype_line(const char *path)
{
	static const char tag[] = "<!DOCTYPE";
	FILE *f = fopen(path, "r");
	int line = 1, c;
	size_t m = 0;

	if (!f)
		return 1;
	while ((c = getc(f)) != EOF) {
		if (c == '\n')
			line++;
		m = c == tag[m] ? m + 1 : c == tag[0] ? 1 : 0;
		if (m == sizeof(tag) - 1) {
			fclose(f);
			return line;
		}
	}
	fclose(f);
	return 1;
}

/*
 * Parse @path: no network, no DTD loading, no entity substitution, big
 * line numbers. A DOCTYPE is refused outright (it is the door to entity
 * tricks and Device.xml has no use for one). NULL on failure (reported).
 */
static xmlDocPtr parse_file(struct loader *l, const char *path)
{
	struct xml_err_ctx c = { l, path, 0 };
	struct desc_src src = { path, 0 };
	xmlDocPtr doc;

	if (access(path, R_OK) < 0) {
		errf(l, &src, "%s", strerror(errno));
		return NULL;
	}
	xmlSetStructuredErrorFunc(&c, xml_error);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!doc || c.count) {
		if (!c.count)
			errf(l, &src, "cannot be parsed");
		xmlFreeDoc(doc);
		return NULL;
	}
	if (doc->intSubset || doc->extSubset) {
		src.line = doctype_line(path);
		errf(l, &src, "a DOCTYPE is not allowed");
		xmlFreeDoc(doc);
		return NULL;
	}
	if (!xmlDocGetRootElement(doc)) {
		errf(l, &src, "no root element");
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

/* Remember a schema (or its failure, already reported) for this load. */
static void cache_schema(struct loader *l, const char *rng, xmlRelaxNGPtr schema)
{
	if (l->n_schemas < sizeof(l->schemas) / sizeof(l->schemas[0])) {
		l->schemas[l->n_schemas].path = rng;
		l->schemas[l->n_schemas++].schema = schema;
	} else {
		xmlRelaxNGFree(schema);
	}
}

/*
 * Compile the RelaxNG schema @rng, or take it from the loader's cache.
 * NULL if it cannot be loaded (reported once).
 */
static xmlRelaxNGPtr load_schema(struct loader *l, const char *rng)
{
	struct xml_err_ctx sc = { l, rng, 0 };
	struct desc_src src = { rng, 0 };
	xmlRelaxNGParserCtxtPtr pctx;
	xmlRelaxNGPtr schema;
	size_t i;

	for (i = 0; i < l->n_schemas; i++)
		if (!strcmp(l->schemas[i].path, rng))
			return l->schemas[i].schema;
	if (access(rng, R_OK) < 0) {
		errf(l, &src, "schema: %s", strerror(errno));
		cache_schema(l, rng, NULL);
		return NULL;
	}
	pctx = xmlRelaxNGNewParserCtxt(rng);
	if (!pctx) {
		l->oom = true;
		return NULL;
	}
	xmlRelaxNGSetParserStructuredErrors(pctx, xml_error, &sc);
	/* the schema's own XML errors come through the global handler */
	xmlSetStructuredErrorFunc(&sc, xml_error);
	schema = xmlRelaxNGParse(pctx);
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlRelaxNGFreeParserCtxt(pctx);
	if (!schema && !sc.count)
		errf(l, &src, "schema: cannot be loaded");
	cache_schema(l, rng, schema);
	return schema;
}

/*
 * Validate @path against the RelaxNG schema @rng. The file is read again
 * through libxml2's streaming reader: its validator knows the element at
 * fault for every error, where the tree validator loses it for errors
 * raised inside a choice. Return 0 or -1 (reported).
 */
static int validate(struct loader *l, const char *path, const char *rng)
{
	struct xml_err_ctx vc = { l, path, 0 };
	struct desc_src src = { path, 0 };
	xmlTextReaderPtr reader;
	xmlRelaxNGPtr schema;
	int r, valid;

	schema = load_schema(l, rng);
	if (!schema)
		return -1;
	reader = xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	if (!reader) {
		errf(l, &src, "cannot be read again for validation");
		return -1;
	}
	xmlTextReaderSetStructuredErrorHandler(reader, xml_error, &vc);
	r = xmlTextReaderRelaxNGSetSchema(reader, schema);
	while (!r && (r = xmlTextReaderRead(reader)) == 1)
		r = 0;
	valid = r == 0 && xmlTextReaderIsValid(reader) == 1;
	xmlFreeTextReader(reader);
	if (!valid) {
		if (!vc.count)
			errf(l, &src, "does not validate against %s", rng);
		return -1;
	}
	return 0;
}

/* An attribute's value (entities already resolved by libxml2) or NULL. */
static char *attr(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetNoNsProp(n, (const xmlChar *)name);
}

static bool is_elem(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, (const xmlChar *)name);
}

static int node_line(xmlNodePtr n)
{
	long line = xmlGetLineNo(n);

	return line > 0 && line < 0x7fffffff ? (int)line : 0;
}

/* ------------------------------------------------------------------
 * Values
 */

static const char *const kind_names[] = {
	[LIBDCM_KEY_INT] = "int",
	[LIBDCM_KEY_FLOAT] = "float",
	[LIBDCM_KEY_BOOL] = "bool",
	[LIBDCM_KEY_STRING] = "string",
};

static int kind_from_name(const char *s)
{
	int k;

	for (k = LIBDCM_KEY_INT; k <= LIBDCM_KEY_STRING; k++)
		if (!strcmp(kind_names[k], s))
			return k;
	return -1;
}

/*
 * Parse @text as a value of @kind into @k. @what names the element and
 * @name the attribute or key for the message. Return 0 or -1 (reported).
 */
static int parse_value(struct loader *l, const struct desc_src *src,
		       const char *what, const char *name, int kind,
		       const char *text, struct desc_key *k)
{
	int r = 0;

	k->kind = kind;
	switch (kind) {
	case LIBDCM_KEY_STRING:
		k->str = xstrdup(l, text);
		return k->str ? 0 : -1;
	case LIBDCM_KEY_INT:
		r = desc_parse_int(text, &k->num);
		if (r == -EINVAL) {
			errf(l, src, "%s: %s '%s' is not an integer", what, name, text);
			return -1;
		}
		break;
	case LIBDCM_KEY_FLOAT:
		r = desc_parse_fraction(text, &k->num, &k->den);
		if (r == -EINVAL) {
			errf(l, src, "%s: %s '%s' is not a number", what, name, text);
			return -1;
		}
		break;
	case LIBDCM_KEY_BOOL:
		r = desc_parse_bool(text, &k->num);
		if (r == -EINVAL) {
			errf(l, src, "%s: %s '%s' is not a boolean (true, false, 1 or 0)",
			     what, name, text);
			return -1;
		}
		break;
	}
	if (r == -ERANGE) {
		errf(l, src, "%s: %s '%s' is out of range", what, name, text);
		return -1;
	}
	if (r) {
		l->oom = true;
		return -1;
	}
	return 0;
}

/* A required attribute, or NULL (reported). */
static char *need_attr(struct loader *l, xmlNodePtr n, const struct desc_src *src,
		       const char *what, const char *name)
{
	char *v = attr(n, name);

	if (!v)
		errf(l, src, "%s: attribute %s is missing", what, name);
	return v;
}

/* An unsigned attribute within [lo, hi]. Return 0 or -1 (reported). */
static int uint_attr(struct loader *l, xmlNodePtr n, const struct desc_src *src,
		     const char *what, const char *name, unsigned int lo,
		     unsigned int hi, unsigned int *out)
{
	char *v = need_attr(l, n, src, what, name);
	int64_t x;
	int r;

	if (!v)
		return -1;
	r = desc_parse_int(v, &x);
	if (r == -EINVAL)
		errf(l, src, "%s: %s '%s' is not an integer", what, name, v);
	else if (r || x < lo || x > hi)
		errf(l, src, "%s: %s %s is outside %u-%u", what, name, v, lo, hi);
	else
		*out = (unsigned int)x;
	xmlFree(v);
	return r || x < lo || x > hi ? -1 : 0;
}

/* The Part attribute; @dflt if absent. Return the part or -1 (reported). */
static int part_attr(struct loader *l, xmlNodePtr n, const struct desc_src *src,
		     const char *what, int dflt)
{
	char *v = attr(n, "Part");
	int p;

	if (!v)
		return dflt;
	p = part_from_name(v);
	if (p < 0)
		errf(l, src, "%s: unknown Part '%s'", what, v);
	xmlFree(v);
	return p;
}

/* ------------------------------------------------------------------
 * Device.xml
 */

/* <Key Name= Type= Value=/> children of a Device or SubDevice. */
static void read_keys(struct loader *l, xmlNodePtr parent, const char *file,
		      const char *what, struct desc_key **keys, size_t *n_keys)
{
	xmlNodePtr c;

	for (c = parent->children; c; c = c->next) {
		struct desc_src src = { file, node_line(c) };
		char *name = NULL, *type = NULL, *value = NULL;
		struct desc_key k, *old;
		int kind;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!is_elem(c, "Key")) {
			errf(l, &src, "%s: unexpected element %s", what, (const char *)c->name);
			continue;
		}
		memset(&k, 0, sizeof(k));
		name = need_attr(l, c, &src, what, "Name");
		type = need_attr(l, c, &src, what, "Type");
		value = need_attr(l, c, &src, what, "Value");
		if (!name || !type || !value)
			goto next;
		kind = kind_from_name(type);
		if (kind < 0) {
			errf(l, &src, "%s: key %s: unknown Type '%s' (float, int, bool or string)",
			     what, name, type);
			goto next;
		}
		old = desc_find_key(*keys, *n_keys, name);
		if (old) {
			errf(l, &src, "%s: duplicate key %s (first at %s:%d)", what, name,
			     old->src.file, old->src.line);
			goto next;
		}
		if (parse_value(l, &src, what, name, kind, value, &k))
			goto next;
		k.name = xstrdup(l, name);
		k.src = src;
		if (!k.name || keys_append(keys, n_keys, &k))
			l->oom = true;
next:
		key_clear(&k);
		xmlFree(name);
		xmlFree(type);
		xmlFree(value);
	}
}

static void read_device(struct loader *l, xmlNodePtr n, const char *file)
{
	struct desc_src src = { file, node_line(n) };
	struct desc_device dev, *nd;
	char *name, *type = NULL, *bus = NULL, what[192];
	int part;

	memset(&dev, 0, sizeof(dev));
	name = need_attr(l, n, &src, "Device", "Name");
	if (!name)
		return;
	snprintf(what, sizeof(what), "device %s", name);
	type = need_attr(l, n, &src, what, "Type");
	bus = need_attr(l, n, &src, what, "Bus");
	part = part_attr(l, n, &src, what, PART_BODY);
	if (uint_attr(l, n, &src, what, "Address", 0, 255, &dev.address) ||
	    !type || !bus || part < 0)
		goto out;
	dev.name = xstrdup(l, name);
	dev.type = xstrdup(l, type);
	dev.bus = xstrdup(l, bus);
	dev.part = part;
	dev.src = src;
	read_keys(l, n, file, what, &dev.keys, &dev.n_keys);
	nd = realloc(l->d->devices, (l->d->n_devices + 1) * sizeof(*nd));
	if (!nd) {
		l->oom = true;
		goto out;
	}
	l->d->devices = nd;
	nd[l->d->n_devices++] = dev;
	memset(&dev, 0, sizeof(dev));
out:
	free(dev.name);
	free(dev.type);
	free(dev.bus);
	keys_free(dev.keys, dev.n_keys);
	xmlFree(name);
	xmlFree(type);
	xmlFree(bus);
}

/* Min, Max (required) and Value, Gain, Offset (optional) as float keys. */
static int subdevice_numbers(struct loader *l, xmlNodePtr n, const struct desc_src *src,
			     const char *what, struct desc_subdevice *s)
{
	static const char *const names[] = { "Min", "Max", "Value", "Gain", "Offset" };
	int ret = 0;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *v = i < 2 ? need_attr(l, n, src, what, names[i]) : attr(n, names[i]);
		struct desc_key k;

		if (!v) {
			if (i < 2)
				ret = -1;
			continue;
		}
		memset(&k, 0, sizeof(k));
		if (parse_value(l, src, what, names[i], LIBDCM_KEY_FLOAT, v, &k)) {
			ret = -1;
		} else {
			k.name = xstrdup(l, names[i]);
			k.src = *src;
			if (!k.name || keys_append(&s->keys, &s->n_keys, &k))
				l->oom = true;
		}
		key_clear(&k);
		xmlFree(v);
	}
	return ret;
}

static void read_subdevice(struct loader *l, xmlNodePtr n, const char *file)
{
	struct desc_src src = { file, node_line(n) };
	struct desc_subdevice sub, *ns;
	char *name, *type = NULL, *device = NULL, what[192];
	int part, bad = 0;

	memset(&sub, 0, sizeof(sub));
	name = need_attr(l, n, &src, "SubDevice", "Name");
	if (!name)
		return;
	snprintf(what, sizeof(what), "subdevice %s", name);
	type = need_attr(l, n, &src, what, "Type");
	device = need_attr(l, n, &src, what, "Device");
	/* absent: the Part of its device, resolved later */
	part = part_attr(l, n, &src, what, PART_COUNT);
	bad |= uint_attr(l, n, &src, what, "SubDeviceNumber", 1, 255, &sub.number);
	bad |= subdevice_numbers(l, n, &src, what, &sub);
	if (bad || !type || !device || part < 0)
		goto out;
	sub.name = xstrdup(l, name);
	sub.type = xstrdup(l, type);
	sub.device = xstrdup(l, device);
	sub.part = part;
	sub.src = src;
	/* a <Key Name="Min"> beside the attribute is a duplicate */
	read_keys(l, n, file, what, &sub.keys, &sub.n_keys);
	ns = realloc(l->d->subdevices, (l->d->n_subdevices + 1) * sizeof(*ns));
	if (!ns) {
		l->oom = true;
		goto out;
	}
	l->d->subdevices = ns;
	ns[l->d->n_subdevices++] = sub;
	memset(&sub, 0, sizeof(sub));
out:
	free(sub.name);
	free(sub.type);
	free(sub.device);
	keys_free(sub.keys, sub.n_keys);
	xmlFree(name);
	xmlFree(type);
	xmlFree(device);
}

static void read_device_xml(struct loader *l, xmlDocPtr doc, const char *file)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), c;
	struct desc_src src = { file, node_line(root) };
	char *version;

	if (!is_elem(root, "DeviceXml")) {
		errf(l, &src, "root element is %s, expected DeviceXml", (const char *)root->name);
		return;
	}
	version = attr(root, "Version");
	if (version && strcmp(version, "1"))
		errf(l, &src, "DeviceXml Version '%s' is not supported (only 1)", version);
	xmlFree(version);

	for (c = root->children; c; c = c->next) {
		struct desc_src csrc = { file, node_line(c) };

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (is_elem(c, "Device"))
			read_device(l, c, file);
		else if (is_elem(c, "SubDevice"))
			read_subdevice(l, c, file);
		else
			errf(l, &csrc, "unexpected element %s", (const char *)c->name);
	}
}

/* Device and SubDevice Types against the opts' type tables, if given. */
static void check_types(struct loader *l, xmlDocPtr doc, const char *file)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), c;

	if (!is_elem(root, "DeviceXml"))
		return;
	for (c = root->children; c; c = c->next) {
		struct desc_src src = { file, node_line(c) };
		bool dev = is_elem(c, "Device");
		bool (*ok)(const char *) = dev ? l->o->device_type_ok : l->o->subdevice_type_ok;
		char *name, *type;

		if (!ok || (!dev && !is_elem(c, "SubDevice")))
			continue;
		name = attr(c, "Name");
		type = attr(c, "Type");
		if (name && type && !ok(type))
			errf(l, &src, "%s %s: unknown %s type '%s'", dev ? "device" : "subdevice",
			     name, dev ? "device" : "subdevice", type);
		xmlFree(name);
		xmlFree(type);
	}
}

/* ------------------------------------------------------------------
 * Preference files
 */

static void read_prefs(struct loader *l, xmlDocPtr doc, const char *file,
		       enum file_role role)
{
	enum desc_target t = role_target(role);
	const char *hint = l->o->target_hint[t];
	struct pref_file *pf = &l->prefs[t];
	xmlNodePtr root = xmlDocGetRootElement(doc), c;
	struct desc_src src = { file, node_line(root) };
	char *target;

	pf->file = file;
	if (!is_elem(root, "Preferences")) {
		errf(l, &src, "root element is %s, expected Preferences", (const char *)root->name);
		return;
	}
	target = attr(root, "Target");
	if (!target)
		errf(l, &src, "Preferences: attribute Target is missing");
	pf->wrong_target = !target || strcmp(target, desc_target_name(t));
	if (target && pf->wrong_target)
		errf(l, &src, "Target is '%s', but this file is loaded as the %s preferences%s%s%s",
		     target, desc_target_name(t), hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	xmlFree(target);

	for (c = root->children; c; c = c->next) {
		struct desc_src ksrc = { file, node_line(c) };
		char *path = NULL, *type = NULL, *value = NULL;
		struct pref_key pk, *nk;
		size_t i;
		int kind;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (!is_elem(c, "Key")) {
			errf(l, &ksrc, "unexpected element %s", (const char *)c->name);
			continue;
		}
		memset(&pk, 0, sizeof(pk));
		path = need_attr(l, c, &ksrc, "Key", "Path");
		type = need_attr(l, c, &ksrc, "Key", "Type");
		value = need_attr(l, c, &ksrc, "Key", "Value");
		if (!path || !type || !value)
			goto next;
		kind = kind_from_name(type);
		if (kind < 0) {
			errf(l, &ksrc, "key %s: unknown Type '%s' (float, int, bool or string)",
			     path, type);
			goto next;
		}
		for (i = 0; i < pf->n_keys; i++) {
			if (!strcmp(pf->keys[i].path, path)) {
				errf(l, &ksrc, "duplicate key %s (first at %s:%d)", path,
				     file, pf->keys[i].key.src.line);
				goto next;
			}
		}
		{
			char what[192];

			snprintf(what, sizeof(what), "key %s", path);
			if (parse_value(l, &ksrc, what, "Value", kind, value, &pk.key))
				goto next;
		}
		pk.key.src = ksrc;
		pk.path = xstrdup(l, path);
		nk = pk.path ? realloc(pf->keys, (pf->n_keys + 1) * sizeof(*nk)) : NULL;
		if (!nk) {
			l->oom = true;
			free(pk.path);
			key_clear(&pk.key);
			goto next;
		}
		pf->keys = nk;
		nk[pf->n_keys++] = pk;
next:
		if (!pk.path)
			key_clear(&pk.key);
		xmlFree(path);
		xmlFree(type);
		xmlFree(value);
	}
}

static void prefs_free(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			free(l->prefs[f].keys[i].path);
			key_clear(&l->prefs[f].keys[i].key);
		}
		free(l->prefs[f].keys);
	}
}

/*
 * Each file sets only the keys it owns (desc_key_owner()), so that no two
 * files set the same key. Keys aimed at no element are reported later.
 */
static void check_owners(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		/* a file of the wrong Target is said once */
		if (l->prefs[f].wrong_target)
			continue;
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			struct pref_key *pk = &l->prefs[f].keys[i];
			enum desc_target owner;
			struct desc_path p;

			/* what names no element is reported with the overlays */
			if (desc_resolve_path(l->d, pk->path, &p) ||
			    (!p.robot && !p.sub && !p.dev))
				continue;
			owner = desc_key_owner(pk->path, p.sub ? p.sub->type : NULL);
			if (owner != f)
				errf(l, &pk->key.src,
				     "key %s belongs to the %s preferences, not to the %s preferences",
				     pk->path, desc_target_name(owner), desc_target_name(f));
		}
	}
}

/* RobotConfig keys: Main, Chest, then Head file (later layers win). */
static void merge_robot_keys(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			struct pref_key *pk = &l->prefs[f].keys[i];
			struct desc_key *old, k;

			if (!starts(pk->path, PREFIX_ROBOT))
				continue;
			old = desc_find_robot_key(l->d, pk->path);
			k = pk->key;
			k.name = xstrdup(l, pk->path);
			k.str = pk->key.str ? xstrdup(l, pk->key.str) : NULL;
			if (!k.name || (pk->key.str && !k.str)) {
				key_clear(&k);
				continue;
			}
			if (old) {
				logf_(l, DESC_LOG_DEBUG, "%s:%d: %s overrides %s:%d",
				      k.src.file, k.src.line, pk->path, old->src.file,
				      old->src.line);
				key_clear(old);
				*old = k;
			} else if (keys_append(&l->d->robot, &l->d->n_robot, &k)) {
				key_clear(&k);
				l->oom = true;
			}
		}
	}
}

/* ------------------------------------------------------------------
 * Parts
 */

/*
 * An integer RobotConfig key, or @dflt when absent. A value that is not
 * an integer is an error (reported, @dflt returned).
 */
static int64_t config_int(struct loader *l, const char *path, int64_t dflt)
{
	struct desc_key *k = desc_find_robot_key(l->d, path);
	int64_t v;

	if (!k)
		return dflt;
	switch (k->kind) {
	case LIBDCM_KEY_INT:
		return k->num;
	case LIBDCM_KEY_STRING:
		if (!desc_parse_int(k->str, &v))
			return v;
		errf(l, &k->src, "%s: '%s' is not an integer", path, k->str);
		return dflt;
	default:
		errf(l, &k->src, "%s: Type %s, but the Part rules need an int", path,
		     kind_names[k->kind]);
		return dflt;
	}
}

static void decide_parts(struct loader *l)
{
	bool *p = l->d->parts;
	int64_t touch, arm[2], hand[2], legs, foot[2];
	int s;

	touch = config_int(l, "RobotConfig/Head/Device/TouchBoard/Version", 0);
	arm[0] = config_int(l, "RobotConfig/Body/Device/LeftArm/Version", 1);
	arm[1] = config_int(l, "RobotConfig/Body/Device/RightArm/Version", 1);
	hand[0] = config_int(l, "RobotConfig/Body/Device/Hand/Left/Version", 0);
	hand[1] = config_int(l, "RobotConfig/Body/Device/Hand/Right/Version", 0);
	legs = config_int(l, "RobotConfig/Body/Device/Legs/Version", 1);
	foot[0] = config_int(l, "RobotConfig/Body/Device/Foot/Left/Version", 1);
	foot[1] = config_int(l, "RobotConfig/Body/Device/Foot/Right/Version", 1);

	p[PART_BODY] = true;
	p[PART_HEAD] = true;
	p[PART_HEAD_TOUCH] = touch >= 1;
	p[PART_LEGS] = legs != -1;
	for (s = 0; s < 2; s++) {
		bool a = arm[s] != -1;
		bool h = a && hand[s] >= 1;

		p[PART_LEFT_ARM + s] = a;
		p[PART_LEFT_WRIST + s] = a && (arm[s] == 2 || hand[s] >= 1);
		p[PART_LEFT_HAND + s] = h;
		p[PART_LEFT_HAND_TOUCH + s] = h && hand[s] == 3;
		p[PART_LEFT_FOOT + s] = p[PART_LEGS] && foot[s] != 0;
	}
}

/* ------------------------------------------------------------------
 * Structure checks and filtering
 */

struct name_ref {
	const char *name;
	const struct desc_src *src;
};

static int name_cmp(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	/* equal names: in file order, so the first stays first */
	return x->src->line - y->src->line;
}

/* Devices and subdevices share one name space (the kernel's). */
static void check_names(struct loader *l)
{
	size_t n = l->d->n_devices + l->d->n_subdevices, i;
	struct name_ref *refs;

	if (!n)
		return;
	refs = calloc(n, sizeof(*refs));
	if (!refs) {
		l->oom = true;
		return;
	}
	for (i = 0; i < l->d->n_devices; i++) {
		refs[i].name = l->d->devices[i].name;
		refs[i].src = &l->d->devices[i].src;
	}
	for (i = 0; i < l->d->n_subdevices; i++) {
		refs[l->d->n_devices + i].name = l->d->subdevices[i].name;
		refs[l->d->n_devices + i].src = &l->d->subdevices[i].src;
	}
	qsort(refs, n, sizeof(*refs), name_cmp);
	for (i = 1; i < n; i++) {
		size_t first = i - 1;

		while (first > 0 && !strcmp(refs[first - 1].name, refs[i].name))
			first--;
		if (!strcmp(refs[i - 1].name, refs[i].name))
			errf(l, refs[i].src, "duplicate name '%s' (first defined at %s:%d)",
			     refs[i].name, refs[first].src->file, refs[first].src->line);
	}
	free(refs);
}

static void filter(struct loader *l)
{
	struct desc *d = l->d;
	size_t i, j;

	for (i = 0; i < d->n_devices; i++) {
		struct desc_device *dev = &d->devices[i];

		dev->kept = d->parts[dev->part];
		if (dev->kept)
			d->n_kept_devices++;
		else
			logf_(l, DESC_LOG_DEBUG, "%s:%d: device %s dropped: no %s on this robot",
			      dev->src.file, dev->src.line, dev->name,
			      desc_part_name(dev->part));
	}
	for (i = 0; i < d->n_subdevices; i++) {
		struct desc_subdevice *s = &d->subdevices[i];
		struct desc_device *dev = desc_find_device(d, s->device);

		if (!dev) {
			errf(l, &s->src, "subdevice %s: no device '%s'", s->name, s->device);
			continue;
		}
		s->dev = (size_t)(dev - d->devices);
		if (s->part == PART_COUNT)
			s->part = dev->part;
		if (!dev->kept) {
			logf_(l, DESC_LOG_DEBUG, "%s:%d: subdevice %s dropped with its device %s",
			      s->src.file, s->src.line, s->name, dev->name);
		} else if (!d->parts[s->part]) {
			logf_(l, DESC_LOG_DEBUG, "%s:%d: subdevice %s dropped: no %s on this robot",
			      s->src.file, s->src.line, s->name, desc_part_name(s->part));
		} else {
			s->kept = true;
			d->n_kept_subdevices++;
		}
	}
	/* (Device, Type, SubDeviceNumber) is unique among what is kept. */
	for (i = 0; i < d->n_subdevices; i++) {
		struct desc_subdevice *s = &d->subdevices[i];

		if (!s->kept)
			continue;
		for (j = 0; j < i; j++) {
			struct desc_subdevice *o = &d->subdevices[j];

			if (o->kept && o->dev == s->dev && o->number == s->number &&
			    !strcmp(o->type, s->type)) {
				errf(l, &s->src,
				     "subdevice %s: SubDeviceNumber %u of type %s on device %s is taken by %s (%s:%d)",
				     s->name, s->number, s->type, s->device, o->name,
				     o->src.file, o->src.line);
				break;
			}
		}
	}
}

/* ------------------------------------------------------------------
 * Overlays
 */

/* Set (or replace) key @name of an element from a preference key. */
static void overlay_key(struct loader *l, struct pref_key *pk, const char *name, struct desc_key **keys, size_t *n_keys)
{
	struct desc_key *old = desc_find_key(*keys, *n_keys, name), k;

	if (old && old->kind != pk->key.kind) {
		errf(l, &pk->key.src, "key %s: Type %s, but %s:%d gives it as %s",
		     pk->path, kind_names[pk->key.kind], old->src.file, old->src.line,
		     kind_names[old->kind]);
		return;
	}
	k = pk->key;
	k.name = xstrdup(l, name);
	k.str = pk->key.str ? xstrdup(l, pk->key.str) : NULL;
	if (!k.name || (pk->key.str && !k.str)) {
		key_clear(&k);
		return;
	}
	if (old) {
		logf_(l, DESC_LOG_DEBUG, "%s:%d: %s overrides %s:%d", k.src.file,
		      k.src.line, pk->path, old->src.file, old->src.line);
		key_clear(old);
		*old = k;
	} else if (keys_append(keys, n_keys, &k)) {
		key_clear(&k);
		l->oom = true;
		return;
	}
	l->d->n_overrides++;
}

static void apply_pref_key(struct loader *l, struct pref_key *pk)
{
	const char *path = pk->path, *rest, *slash;
	bool is_sub = false;
	char *elem;

	if (starts(path, PREFIX_ROBOT))
		return;		/* merged already */
	if (starts(path, PREFIX_SUB)) {
		rest = path + strlen(PREFIX_SUB);
		is_sub = true;
	} else if (starts(path, PREFIX_DEV)) {
		rest = path + strlen(PREFIX_DEV);
	} else {
		errf(l, &pk->key.src,
		     "key path '%s' must start with Device/SubDeviceList/, Device/DeviceList/ or RobotConfig/",
		     path);
		return;
	}
	slash = strrchr(rest, '/');
	if (!slash || slash == rest || !slash[1]) {
		errf(l, &pk->key.src, "key path '%s' names no key of an element", path);
		return;
	}
	elem = strndup(rest, (size_t)(slash - rest));
	if (!elem) {
		l->oom = true;
		return;
	}
	if (is_sub) {
		struct desc_subdevice *s = desc_find_subdevice(l->d, elem);

		if (!s) {
			errf(l, &pk->key.src, "key %s: no subdevice '%s'", path, elem);
		} else if (!s->kept) {
			l->d->n_ignored++;
			logf_(l, DESC_LOG_DEBUG, "%s:%d: key %s ignored: subdevice %s is not on this robot",
			      pk->key.src.file, pk->key.src.line, path, elem);
		} else {
			overlay_key(l, pk, slash + 1, &s->keys, &s->n_keys);
		}
	} else {
		struct desc_device *dev = desc_find_device(l->d, elem);

		if (!dev) {
			errf(l, &pk->key.src, "key %s: no device '%s'", path, elem);
		} else if (!dev->kept) {
			l->d->n_ignored++;
			logf_(l, DESC_LOG_DEBUG, "%s:%d: key %s ignored: device %s is not on this robot",
			      pk->key.src.file, pk->key.src.line, path, elem);
		} else {
			overlay_key(l, pk, slash + 1, &dev->keys, &dev->n_keys);
		}
	}
	free(elem);
}

static void check_min_max(struct loader *l)
{
	size_t i;

	for (i = 0; i < l->d->n_subdevices; i++) {
		struct desc_subdevice *s = &l->d->subdevices[i];
		struct desc_key *mn, *mx;

		if (!s->kept)
			continue;
		mn = desc_find_key(s->keys, s->n_keys, "Min");
		mx = desc_find_key(s->keys, s->n_keys, "Max");
		if (mn && mx && mn->kind == LIBDCM_KEY_FLOAT && mx->kind == LIBDCM_KEY_FLOAT &&
		    desc_key_micro(mn) > desc_key_micro(mx)) {
			/* blame the preference key that made it so, if any */
			const struct desc_src *at = mx->src.file != s->src.file ? &mx->src :
						    mn->src.file != s->src.file ? &mn->src :
						    &s->src;
			char a[32], b[32];

			desc_format_fixed(desc_key_micro(mn), a, sizeof(a));
			desc_format_fixed(desc_key_micro(mx), b, sizeof(b));
			errf(l, at, "subdevice %s: Min %s is above Max %s", s->name, a, b);
		}
	}
}

/* ------------------------------------------------------------------
 * Entry point
 */

int desc_load(const struct desc_opts *o, struct desc **out,
	      struct desc_errors *errs)
{
	const char *paths[N_ROLES] = { o->device_xml, o->main_xml, o->body_xml, o->head_xml };
	const char *rngs[N_ROLES] = { o->device_rng, o->prefs_rng, o->prefs_rng, o->prefs_rng };
	xmlDocPtr docs[N_ROLES] = { NULL };
	const char *files[N_ROLES] = { NULL };
	struct loader l;
	size_t before = errs->n + errs->dropped, f, i;
	int r;

	*out = NULL;
	memset(&l, 0, sizeof(l));
	l.o = o;
	l.errs = errs;
	l.d = calloc(1, sizeof(*l.d));
	if (!l.d) {
		desc_errors_add(errs, "%s: out of memory", o->device_xml);
		return -1;
	}

	/* Network access for schema includes too is refused. */
	xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader);
	for (f = 0; f < N_ROLES; f++) {
		if (!paths[f])
			continue;
		files[f] = add_file(&l, paths[f]);
		if (!files[f])
			goto out;
		docs[f] = parse_file(&l, files[f]);
		if (docs[f] && rngs[f])
			validate(&l, files[f], rngs[f]);
	}
	/*
	 * Unknown types, said plainly: a schema that enumerates them only
	 * says that an element "failed to validate content".
	 */
	if (docs[ROLE_DEVICE])
		check_types(&l, docs[ROLE_DEVICE], files[ROLE_DEVICE]);
	if (errs->n + errs->dropped > before || l.oom)
		goto out;

	read_device_xml(&l, docs[ROLE_DEVICE], files[ROLE_DEVICE]);
	for (f = ROLE_MAIN; f < N_ROLES; f++)
		if (docs[f])
			read_prefs(&l, docs[f], files[f], f);
	check_owners(&l);
	if (errs->n + errs->dropped > before || l.oom)
		goto out;

	merge_robot_keys(&l);
	decide_parts(&l);
	check_names(&l);
	filter(&l);
	for (f = 0; f < DESC_N_TARGETS; f++)
		for (i = 0; i < l.prefs[f].n_keys; i++)
			apply_pref_key(&l, &l.prefs[f].keys[i]);
	check_min_max(&l);

out:
	if (l.oom)
		desc_errors_add(errs, "%s: out of memory", o->device_xml);
	for (f = 0; f < N_ROLES; f++)
		xmlFreeDoc(docs[f]);
	for (f = 0; f < l.n_schemas; f++)
		xmlRelaxNGFree(l.schemas[f].schema);
	prefs_free(&l);
	r = errs->n + errs->dropped > before ? -1 : 0;
	if (r)
		desc_free(l.d);
	else
		*out = l.d;
	return r;
}

/* ------------------------------------------------------------------
 * Summary
 */

void desc_print_summary(FILE *f, const struct desc *d)
{
	size_t i, keys = 0;
	bool first = true;

	for (i = 0; i < d->n_devices; i++)
		if (d->devices[i].kept)
			keys += d->devices[i].n_keys;
	for (i = 0; i < d->n_subdevices; i++)
		if (d->subdevices[i].kept)
			keys += d->subdevices[i].n_keys;
	fprintf(f, "files:");
	for (i = 0; i < d->n_files; i++)
		fprintf(f, " %s", d->files[i]);
	fprintf(f, "\ndevices: %zu of %zu\n", d->n_kept_devices, d->n_devices);
	fprintf(f, "subdevices: %zu of %zu\n", d->n_kept_subdevices, d->n_subdevices);
	fprintf(f, "keys: %zu, RobotConfig keys: %zu\n", keys, d->n_robot);
	fprintf(f, "preference keys: %zu applied, %zu ignored (dropped parts)\n",
		d->n_overrides, d->n_ignored);
	fprintf(f, "parts:");
	for (i = 0; i < PART_COUNT; i++)
		if (d->parts[i])
			fprintf(f, " %s", part_names[i]);
	fprintf(f, "\nabsent parts:");
	for (i = 0; i < PART_COUNT; i++) {
		if (!d->parts[i]) {
			fprintf(f, " %s", part_names[i]);
			first = false;
		}
	}
	fprintf(f, "%s\n", first ? " none" : "");
}
