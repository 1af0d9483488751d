// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Editing a preference file with libxml2: read it (or start an empty one),
 * change or add Key elements in place (comments and layout are kept), put
 * the generated-file comment at its head, and write it atomically: a
 * temporary file in the same directory, checked by the caller (the loader
 * and the dry run, see dcmctl preferences), then renamed over the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "desc.h"

struct desc_prefs {
	xmlDocPtr doc;
	xmlNodePtr root;
	enum desc_target target;
};

struct err_ctx {
	struct desc_errors *errs;
	const char *file;
	int count;
};

static void xml_error(void *arg, xmlErrorPtr e)
{
	struct err_ctx *c = arg;
	size_t n;
	char *m;

	if (!e->message || e->level == XML_ERR_WARNING)
		return;
	m = strdup(e->message);
	if (!m)
		return;
	n = strlen(m);
	while (n && (m[n - 1] == '\n' || m[n - 1] == ' '))
		m[--n] = '\0';
	if (e->line > 0)
		desc_errors_add(c->errs, "%s:%d: %s", c->file, e->line, m);
	else
		desc_errors_add(c->errs, "%s: %s", c->file, m);
	c->count++;
	free(m);
}

static bool is_elem(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, (const xmlChar *)name);
}

static int new_doc(struct desc_prefs *p)
{
	xmlNodePtr text;

	p->doc = xmlNewDoc((const xmlChar *)"1.0");
	if (!p->doc)
		return -ENOMEM;
	p->doc->encoding = xmlStrdup((const xmlChar *)"UTF-8");
	p->root = xmlNewDocNode(p->doc, NULL, (const xmlChar *)"Preferences", NULL);
	if (!p->root)
		return -ENOMEM;
	xmlDocSetRootElement(p->doc, p->root);
	if (!xmlNewProp(p->root, (const xmlChar *)"Target",
			(const xmlChar *)desc_target_name(p->target)))
		return -ENOMEM;
	text = xmlNewDocText(p->doc, (const xmlChar *)"\n");
	if (!text || !xmlAddChild(p->root, text))
		return -ENOMEM;
	return 0;
}

/*
 * The file @path into @p: a Preferences document of the target @t. Return
 * 0, or -1 with why in @errs.
 */
static int read_doc(struct desc_prefs *p, const char *path, enum desc_target t,
		    struct desc_errors *errs)
{
	struct err_ctx c = { errs, path, 0 };
	xmlChar *target;
	int r;

	if (access(path, R_OK)) {
		desc_errors_add(errs, "%s: %s", path, strerror(errno));
		return -1;
	}
	xmlSetStructuredErrorFunc(&c, xml_error);
	p->doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!p->doc || c.count) {
		if (!c.count)
			desc_errors_add(errs, "%s: cannot be parsed", path);
		return -1;
	}
	if (p->doc->intSubset || p->doc->extSubset) {
		desc_errors_add(errs, "%s: a DOCTYPE is not allowed", path);
		return -1;
	}
	p->root = xmlDocGetRootElement(p->doc);
	if (!p->root || !is_elem(p->root, "Preferences")) {
		desc_errors_add(errs, "%s: the root element is not Preferences", path);
		return -1;
	}
	target = xmlGetNoNsProp(p->root, (const xmlChar *)"Target");
	r = target && !xmlStrcmp(target, (const xmlChar *)desc_target_name(t));
	if (!r)
		desc_errors_add(errs, "%s:%ld: Target is '%s', not %s: this is not the %s preferences",
				path, xmlGetLineNo(p->root), target ? (const char *)target : "",
				desc_target_name(t), desc_target_name(t));
	xmlFree(target);
	return r ? 0 : -1;
}

int desc_prefs_open(const char *path, enum desc_target t, struct desc_prefs **out,
		    struct desc_errors *errs)
{
	struct desc_prefs *p;

	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (!p) {
		desc_errors_add(errs, "%s: out of memory", path ? path : "preferences");
		return -1;
	}
	p->target = t;
	if (!path || access(path, F_OK)) {
		if (path && errno != ENOENT) {
			desc_errors_add(errs, "%s: %s", path, strerror(errno));
			goto fail;
		}
		if (new_doc(p)) {
			desc_errors_add(errs, "%s: out of memory", path ? path : "preferences");
			goto fail;
		}
		*out = p;
		return 0;
	}
	if (read_doc(p, path, t, errs))
		goto fail;
	*out = p;
	return 0;
fail:
	desc_prefs_free(p);
	return -1;
}

void desc_prefs_free(struct desc_prefs *p)
{
	if (!p)
		return;
	xmlFreeDoc(p->doc);
	free(p);
}

/* The Key element of @path, or NULL. */
static xmlNodePtr find_key(const struct desc_prefs *p, const char *path)
{
	xmlNodePtr c;

	for (c = p->root->children; c; c = c->next) {
		xmlChar *v;
		bool same;

		if (!is_elem(c, "Key"))
			continue;
		v = xmlGetNoNsProp(c, (const xmlChar *)"Path");
		same = v && !xmlStrcmp(v, (const xmlChar *)path);
		xmlFree(v);
		if (same)
			return c;
	}
	return NULL;
}

static char *prop(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
	char *s;

	if (!v)
		return NULL;
	s = strdup((const char *)v);
	xmlFree(v);
	return s;
}

int desc_prefs_get(const struct desc_prefs *p, const char *path, char **type, char **value)
{
	xmlNodePtr n = find_key(p, path);

	*type = NULL;
	*value = NULL;
	if (!n)
		return -ENOENT;
	*type = prop(n, "Type");
	*value = prop(n, "Value");
	if (!*type || !*value) {
		free(*type);
		free(*value);
		*type = NULL;
		*value = NULL;
		return -EINVAL;
	}
	return 0;
}

size_t desc_prefs_count(const struct desc_prefs *p)
{
	size_t n = 0;
	xmlNodePtr c;

	for (c = p->root->children; c; c = c->next)
		n += is_elem(c, "Key");
	return n;
}

/*
 * Append a Key as the file's last one, indented like the others: before
 * the blank text that ends the root, "\n  <Key .../>".
 */
static xmlNodePtr append_key(struct desc_prefs *p)
{
	xmlNodePtr last = p->root->last, key, indent;

	key = xmlNewDocNode(p->doc, NULL, (const xmlChar *)"Key", NULL);
	indent = xmlNewDocText(p->doc, (const xmlChar *)"\n  ");
	if (!key || !indent) {
		xmlFreeNode(key);
		xmlFreeNode(indent);
		return NULL;
	}
	if (last && last->type == XML_TEXT_NODE && xmlIsBlankNode(last)) {
		/* key first: text next to text would be merged */
		xmlAddPrevSibling(last, key);
		xmlAddPrevSibling(key, indent);
	} else {
		xmlNodePtr end = xmlNewDocText(p->doc, (const xmlChar *)"\n");

		if (!end) {
			xmlFreeNode(key);
			xmlFreeNode(indent);
			return NULL;
		}
		xmlAddChild(p->root, indent);
		xmlAddChild(p->root, key);
		xmlAddChild(p->root, end);
	}
	return key;
}

int desc_prefs_set(struct desc_prefs *p, const char *path, const char *type,
		   const char *value)
{
	xmlNodePtr n = find_key(p, path);
	bool added = !n;

	if (!n) {
		n = append_key(p);
		if (!n || !xmlSetProp(n, (const xmlChar *)"Path", (const xmlChar *)path))
			return -ENOMEM;
	}
	if (!xmlSetProp(n, (const xmlChar *)"Type", (const xmlChar *)type) ||
	    !xmlSetProp(n, (const xmlChar *)"Value", (const xmlChar *)value))
		return -ENOMEM;
	return added ? 1 : 0;
}

int desc_prefs_set_header(struct desc_prefs *p, const char *text)
{
	xmlNodePtr c, next, comment;
	size_t n = text ? strlen(text) : 0;

	/* XML: no "--" inside a comment, no '-' at its end */
	if (text && (strstr(text, "--") || (n && text[n - 1] == '-')))
		return -EINVAL;
	/* the comments before the root are the file's header: replaced */
	for (c = p->doc->children; c && c != p->root; c = next) {
		next = c->next;
		if (c->type == XML_COMMENT_NODE) {
			xmlUnlinkNode(c);
			xmlFreeNode(c);
		}
	}
	if (!text)
		return 0;
	comment = xmlNewDocComment(p->doc, (const xmlChar *)text);
	if (!comment)
		return -ENOMEM;
	xmlAddPrevSibling(p->root, comment);
	return 0;
}

/* Replace @from by @to in the messages of @e from index @first. */
static void rename_in_errors(struct desc_errors *e, size_t first, const char *from,
			     const char *to)
{
	size_t i, fl = strlen(from);

	for (i = first; i < e->n; i++) {
		char *m = e->msgs[i], *at, *n;

		while ((at = strstr(m, from))) {
			if (asprintf(&n, "%.*s%s%s", (int)(at - m), m, to, at + fl) < 0)
				break;
			free(m);
			m = n;
		}
		e->msgs[i] = m;
	}
}

/* Why writing into @dir failed, with a hint for a permission problem. */
static void write_error(struct desc_errors *errs, const char *path, const char *what, int e)
{
	desc_errors_add(errs, "%s: %s: %s%s", path, what, strerror(e),
			e == EACCES || e == EPERM || e == EROFS ?
			" (writing the robot's preference files needs root)" : "");
}

/* mkdir -p @dir (modified meanwhile, restored); -1 with errno on failure. */
static int make_dirs(char *dir)
{
	char *p, c;

	for (p = dir + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
			*p = c;
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/*
 * @p's document into the new file @fd (closed here), made @mode, on the
 * disk when this returns 0; else -1, why in @errs (of @path, the file it
 * is to replace).
 */
static int dump_to(struct desc_prefs *p, int fd, mode_t mode, const char *path,
		   struct desc_errors *errs)
{
	FILE *f;
	int ok;

	if (fchmod(fd, mode) < 0) {
		write_error(errs, path, "chmod", errno);
		close(fd);
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		write_error(errs, path, "cannot write", errno);
		close(fd);
		return -1;
	}
	ok = xmlDocDump(f, p->doc) >= 0;
	ok = fflush(f) == 0 && ok;
	ok = fsync(fileno(f)) == 0 && ok;
	if (fclose(f) != 0 || !ok) {
		write_error(errs, path, "cannot write", errno ? errno : EIO);
		return -1;
	}
	return 0;
}

int desc_prefs_write(struct desc_prefs *p, const char *path, desc_prefs_check_fn check,
		     void *arg, struct desc_errors *errs)
{
	char *tmp = NULL, *dircopy = NULL, *dir;
	size_t before = errs->n + errs->dropped;
	struct stat st;
	mode_t mode = 0644;
	int fd;

	dircopy = strdup(path);
	if (!dircopy || asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		tmp = NULL;
		desc_errors_add(errs, "%s: out of memory", path);
		goto fail;
	}
	dir = dirname(dircopy);
	/* its permissions, never set-user-ID, set-group-ID or sticky */
	if (!stat(path, &st))
		mode = st.st_mode & 0777;
	/* the robot's own directory (/etc/dcm, /etc/dcm/dcmN) may not be there yet */
	if (access(dir, F_OK) && errno == ENOENT && make_dirs(dir) < 0) {
		write_error(errs, path, "cannot make its directory", errno);
		free(tmp);
		tmp = NULL;
		goto fail;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		write_error(errs, path, "cannot write", errno);
		free(tmp);
		tmp = NULL;
		goto fail;
	}
	if (dump_to(p, fd, mode, path, errs))
		goto fail;
	if (check && check(tmp, arg, errs)) {
		rename_in_errors(errs, before, tmp, path);
		if (errs->n + errs->dropped == before)
			desc_errors_add(errs, "%s: the new file does not check", path);
		goto fail;
	}
	if (rename(tmp, path) < 0) {
		write_error(errs, path, "cannot replace", errno);
		goto fail;
	}
	free(tmp);
	free(dircopy);
	return 0;
fail:
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(dircopy);
	return -1;
}
