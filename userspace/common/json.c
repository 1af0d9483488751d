// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tiny streaming JSON writer for the dcm tools.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/*
 * Length of the valid UTF-8 sequence at @s (1..4), or 0 if the bytes there
 * are not one (bad lead byte, bad continuation, overlong form, surrogate,
 * beyond U+10FFFF, or cut by the end of the string).
 */
static int utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = 0x80, hi = 0xbf;

		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		if (c == 0xed)
			hi = 0x9f;	/* surrogates */
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = 0x80, hi = 0xbf;

		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		if (c == 0xf4)
			hi = 0x8f;	/* > U+10FFFF */
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		return 4;
	}
	return 0;
}

/* The two-character escape of @c, or NULL. */
static const char *short_escape(unsigned char c)
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		return NULL;
	}
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		const char *e = short_escape(*s);
		int n;

		if (e) {
			fputs(e, f);
			s++;
			continue;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		/*
		 * utf8_len() never reads past a NUL: it stops at the first
		 * byte that is not a continuation byte.
		 */
		n = utf8_len(s);
		if (n == 0) {
			fputs("\\ufffd", f);
			s++;
			continue;
		}
		fwrite(s, 1, n, f);
		s += n;
	}
	fputc('"', f);
}

void json_init(struct json_writer *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->first[0] = true;
}

static void indent(struct json_writer *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator, indentation and key before a value. */
static void prefix(struct json_writer *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		indent(w);
	} else if (!w->first[0]) {
		w->error = true;	/* a second top-level value */
	}
	w->first[w->depth] = false;

	if (w->depth > 0 && w->kind[w->depth] == '{') {
		json_write_string(w->f, key ? key : "");
		fputs(w->pretty ? ": " : ":", w->f);
		if (!key)
			w->error = true;
	} else if (key) {
		w->error = true;	/* key outside an object */
	}
}

static void begin(struct json_writer *w, const char *key, char kind)
{
	prefix(w, key);
	fputc(kind, w->f);
	if (w->depth >= JSON_MAX_DEPTH) {
		w->error = true;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
	w->kind[w->depth] = kind;
}

static void end(struct json_writer *w, char kind)
{
	if (w->depth == 0 || w->kind[w->depth] != kind) {
		w->error = true;
		return;
	}
	w->depth--;
	if (!w->first[w->depth + 1])
		indent(w);
	fputc(kind == '{' ? '}' : ']', w->f);
}

void json_begin_object(struct json_writer *w, const char *key)
{
	begin(w, key, '{');
}

void json_end_object(struct json_writer *w)
{
	end(w, '{');
}

void json_begin_array(struct json_writer *w, const char *key)
{
	begin(w, key, '[');
}

void json_end_array(struct json_writer *w)
{
	end(w, '[');
}

void json_string(struct json_writer *w, const char *key, const char *s)
{
	prefix(w, key);
	json_write_string(w->f, s);
}

void json_uint(struct json_writer *w, const char *key, uint64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void json_int(struct json_writer *w, const char *key, int64_t v)
{
	prefix(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void json_double(struct json_writer *w, const char *key, double v)
{
	char buf[32];

	prefix(w, key);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	/* The shortest of %.15g/%.16g/%.17g that reads back exactly. */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, w->f);
}

void json_bool(struct json_writer *w, const char *key, bool v)
{
	prefix(w, key);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_writer *w, const char *key)
{
	prefix(w, key);
	fputs("null", w->f);
}

int json_finish(struct json_writer *w)
{
	fputc('\n', w->f);
	return (w->error || w->depth != 0) ? -1 : 0;
}

char *json_mem_message(FILE *f, char **buf, size_t *len)
{
	size_t n;

	if (fclose(f)) {
		free(*buf);
		*buf = NULL;
		return NULL;
	}
	n = strlen(*buf);
	while (n && (*buf)[n - 1] == '\n')
		(*buf)[--n] = 0;
	if (len)
		*len = n;
	return *buf;
}
