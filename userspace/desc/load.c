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
 * The rules of those steps are in parts.c; the model in model.c. Nothing
 * reaches the kernel from here.
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

#include "desc-internal.h"

/* ------------------------------------------------------------------
 * Loading state
 */

static enum desc_target role_target(enum file_role role)
{
	return (enum desc_target)(role - ROLE_MAIN);
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
			desc_logf(c->l, DESC_LOG_WARNING, "%s:%d: %s", file, line, msg);
		else
			desc_logf(c->l, DESC_LOG_WARNING, "%s: %s", file, msg);
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
		desc_errf(l, &src, "%s", strerror(errno));
		return NULL;
	}
	xmlSetStructuredErrorFunc(&c, xml_error);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!doc || c.count) {
		if (!c.count)
			desc_errf(l, &src, "cannot be parsed");
		xmlFreeDoc(doc);
		return NULL;
	}
	if (doc->intSubset || doc->extSubset) {
		src.line = doctype_line(path);
		desc_errf(l, &src, "a DOCTYPE is not allowed");
		xmlFreeDoc(doc);
		return NULL;
	}
	if (!xmlDocGetRootElement(doc)) {
		desc_errf(l, &src, "no root element");
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
		desc_errf(l, &src, "schema: %s", strerror(errno));
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
		desc_errf(l, &src, "schema: cannot be loaded");
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
		desc_errf(l, &src, "cannot be read again for validation");
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
			desc_errf(l, &src, "does not validate against %s", rng);
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
		k->str = desc_xstrdup(l, text);
		return k->str ? 0 : -1;
	case LIBDCM_KEY_INT:
		r = desc_parse_int(text, &k->num);
		if (r == -EINVAL) {
			desc_errf(l, src, "%s: %s '%s' is not an integer", what, name, text);
			return -1;
		}
		break;
	case LIBDCM_KEY_FLOAT:
		r = desc_parse_fraction(text, &k->num, &k->den);
		if (r == -EINVAL) {
			desc_errf(l, src, "%s: %s '%s' is not a number", what, name, text);
			return -1;
		}
		break;
	case LIBDCM_KEY_BOOL:
		r = desc_parse_bool(text, &k->num);
		if (r == -EINVAL) {
			desc_errf(l, src, "%s: %s '%s' is not a boolean (true, false, 1 or 0)",
			     what, name, text);
			return -1;
		}
		break;
	}
	if (r == -ERANGE) {
		desc_errf(l, src, "%s: %s '%s' is out of range", what, name, text);
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
		desc_errf(l, src, "%s: attribute %s is missing", what, name);
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
		desc_errf(l, src, "%s: %s '%s' is not an integer", what, name, v);
	else if (r || x < lo || x > hi)
		desc_errf(l, src, "%s: %s %s is outside %u-%u", what, name, v, lo, hi);
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
	p = desc_part_from_name(v);
	if (p < 0)
		desc_errf(l, src, "%s: unknown Part '%s'", what, v);
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
			desc_errf(l, &src, "%s: unexpected element %s", what, (const char *)c->name);
			continue;
		}
		memset(&k, 0, sizeof(k));
		name = need_attr(l, c, &src, what, "Name");
		type = need_attr(l, c, &src, what, "Type");
		value = need_attr(l, c, &src, what, "Value");
		if (!name || !type || !value)
			goto next;
		kind = desc_kind_parse(type);
		if (kind < 0) {
			desc_errf(l, &src, "%s: key %s: unknown Type '%s' (float, int, bool or string)",
			     what, name, type);
			goto next;
		}
		old = desc_find_key(*keys, *n_keys, name);
		if (old) {
			desc_errf(l, &src, "%s: duplicate key %s (first at %s:%d)", what, name,
			     old->src.file, old->src.line);
			goto next;
		}
		if (parse_value(l, &src, what, name, kind, value, &k))
			goto next;
		k.name = desc_xstrdup(l, name);
		k.src = src;
		if (!k.name || desc_keys_append(keys, n_keys, &k))
			l->oom = true;
next:
		desc_key_clear(&k);
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
	dev.name = desc_xstrdup(l, name);
	dev.type = desc_xstrdup(l, type);
	dev.bus = desc_xstrdup(l, bus);
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
	desc_keys_free(dev.keys, dev.n_keys);
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
			k.name = desc_xstrdup(l, names[i]);
			k.src = *src;
			if (!k.name || desc_keys_append(&s->keys, &s->n_keys, &k))
				l->oom = true;
		}
		desc_key_clear(&k);
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
	sub.name = desc_xstrdup(l, name);
	sub.type = desc_xstrdup(l, type);
	sub.device = desc_xstrdup(l, device);
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
	desc_keys_free(sub.keys, sub.n_keys);
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
		desc_errf(l, &src, "root element is %s, expected DeviceXml", (const char *)root->name);
		return;
	}
	version = attr(root, "Version");
	if (version && strcmp(version, "1"))
		desc_errf(l, &src, "DeviceXml Version '%s' is not supported (only 1)", version);
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
			desc_errf(l, &csrc, "unexpected element %s", (const char *)c->name);
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
			desc_errf(l, &src, "%s %s: unknown %s type '%s'", dev ? "device" : "subdevice",
			     name, dev ? "device" : "subdevice", type);
		xmlFree(name);
		xmlFree(type);
	}
}

/* ------------------------------------------------------------------
 * Preference files
 */

/* One element @c of the preference file @file: a Key, into @pf (an error said otherwise). */
static void read_pref_key(struct loader *l, struct pref_file *pf, xmlNodePtr c,
			  const char *file)
{
	struct desc_src ksrc = { file, node_line(c) };
	char *path = NULL, *type = NULL, *value = NULL;
	struct pref_key pk, *nk;
	char what[192];
	size_t i;
	int kind;

	if (!is_elem(c, "Key")) {
		desc_errf(l, &ksrc, "unexpected element %s", (const char *)c->name);
		return;
	}
	memset(&pk, 0, sizeof(pk));
	path = need_attr(l, c, &ksrc, "Key", "Path");
	type = need_attr(l, c, &ksrc, "Key", "Type");
	value = need_attr(l, c, &ksrc, "Key", "Value");
	if (!path || !type || !value)
		goto out;
	kind = desc_kind_parse(type);
	if (kind < 0) {
		desc_errf(l, &ksrc, "key %s: unknown Type '%s' (float, int, bool or string)",
			  path, type);
		goto out;
	}
	for (i = 0; i < pf->n_keys; i++) {
		if (!strcmp(pf->keys[i].path, path)) {
			desc_errf(l, &ksrc, "duplicate key %s (first at %s:%d)", path, file,
				  pf->keys[i].key.src.line);
			goto out;
		}
	}
	snprintf(what, sizeof(what), "key %s", path);
	if (parse_value(l, &ksrc, what, "Value", kind, value, &pk.key))
		goto out;
	pk.key.src = ksrc;
	pk.path = desc_xstrdup(l, path);
	nk = pk.path ? realloc(pf->keys, (pf->n_keys + 1) * sizeof(*nk)) : NULL;
	if (!nk) {
		l->oom = true;
		free(pk.path);
		desc_key_clear(&pk.key);
		goto out;
	}
	pf->keys = nk;
	nk[pf->n_keys++] = pk;
out:
	if (!pk.path)
		desc_key_clear(&pk.key);
	xmlFree(path);
	xmlFree(type);
	xmlFree(value);
}

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
		desc_errf(l, &src, "root element is %s, expected Preferences", (const char *)root->name);
		return;
	}
	target = attr(root, "Target");
	if (!target)
		desc_errf(l, &src, "Preferences: attribute Target is missing");
	pf->wrong_target = !target || strcmp(target, desc_target_name(t));
	if (target && pf->wrong_target)
		desc_errf(l, &src, "Target is '%s', but this file is loaded as the %s preferences%s%s%s",
		     target, desc_target_name(t), hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
	xmlFree(target);

	for (c = root->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			read_pref_key(l, pf, c, file);
}

static void prefs_free(struct loader *l)
{
	size_t f, i;

	for (f = 0; f < DESC_N_TARGETS; f++) {
		for (i = 0; i < l->prefs[f].n_keys; i++) {
			free(l->prefs[f].keys[i].path);
			desc_key_clear(&l->prefs[f].keys[i].key);
		}
		free(l->prefs[f].keys);
	}
}
/* ------------------------------------------------------------------
 * Entry point
 */

/*
 * The files of l->o, each parsed into @docs (its name kept in @files) and
 * checked against its schema, the Device.xml's types said plainly. Return
 * -1 when a file name cannot be kept (out of memory), else 0: the errors
 * are in l->errs.
 */
static int parse_files(struct loader *l, xmlDocPtr *docs, const char **files)
{
	const struct desc_opts *o = l->o;
	const char *paths[N_ROLES] = { o->device_xml, o->main_xml, o->body_xml, o->head_xml };
	const char *rngs[N_ROLES] = { o->device_rng, o->prefs_rng, o->prefs_rng, o->prefs_rng };
	size_t f;

	/* Network access for schema includes too is refused. */
	xmlSetExternalEntityLoader(xmlNoNetExternalEntityLoader);
	for (f = 0; f < N_ROLES; f++) {
		if (!paths[f])
			continue;
		files[f] = add_file(l, paths[f]);
		if (!files[f])
			return -1;
		docs[f] = parse_file(l, files[f]);
		if (docs[f] && rngs[f])
			validate(l, files[f], rngs[f]);
	}
	/*
	 * Unknown types, said plainly: a schema that enumerates them only
	 * says that an element "failed to validate content".
	 */
	if (docs[ROLE_DEVICE])
		check_types(l, docs[ROLE_DEVICE], files[ROLE_DEVICE]);
	return 0;
}

/* The description from what was read: the parts kept, the preferences applied, checked. */
static void build(struct loader *l)
{
	size_t f, i;

	desc_merge_robot_keys(l);
	desc_decide_parts(l);
	desc_check_names(l);
	desc_filter(l);
	for (f = 0; f < DESC_N_TARGETS; f++)
		for (i = 0; i < l->prefs[f].n_keys; i++)
			desc_apply_pref_key(l, &l->prefs[f].keys[i]);
	desc_check_min_max(l);
}

int desc_load(const struct desc_opts *o, struct desc **out,
	      struct desc_errors *errs)
{
	xmlDocPtr docs[N_ROLES] = { NULL };
	const char *files[N_ROLES] = { NULL };
	struct loader l;
	size_t before = errs->n + errs->dropped, f;
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

	if (parse_files(&l, docs, files) || errs->n + errs->dropped > before || l.oom)
		goto out;

	read_device_xml(&l, docs[ROLE_DEVICE], files[ROLE_DEVICE]);
	for (f = ROLE_MAIN; f < N_ROLES; f++)
		if (docs[f])
			read_prefs(&l, docs[f], files[f], f);
	desc_check_owners(&l);
	if (errs->n + errs->dropped > before || l.oom)
		goto out;

	build(&l);

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

