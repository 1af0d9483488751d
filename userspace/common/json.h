/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny streaming JSON writer for the dcm tools (ip -j style output).
 *
 * Keys are given with each value; pass NULL as key inside arrays and for
 * the top-level value. Strings are escaped per RFC 8259 and invalid UTF-8
 * is replaced by U+FFFD, so the output is always valid JSON.
 */
#ifndef DCM_JSON_H
#define DCM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	bool pretty;
	int depth;
	bool error;			/* unbalanced or too deep */
	bool first[JSON_MAX_DEPTH + 1];	/* no element yet at this depth */
	char kind[JSON_MAX_DEPTH + 1];	/* '{' or '[' */
};

void json_init(struct json_writer *w, FILE *f, bool pretty);
void json_begin_object(struct json_writer *w, const char *key);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w, const char *key);
void json_end_array(struct json_writer *w);
void json_string(struct json_writer *w, const char *key, const char *s);
void json_uint(struct json_writer *w, const char *key, uint64_t v);
void json_int(struct json_writer *w, const char *key, int64_t v);
/* NaN and infinities are written as null (JSON has no such numbers). */
void json_double(struct json_writer *w, const char *key, double v);
void json_bool(struct json_writer *w, const char *key, bool v);
void json_null(struct json_writer *w, const char *key);
/* Ends the document with a newline. Return: 0, or -1 if unbalanced. */
int json_finish(struct json_writer *w);
/*
 * A JSON text written into a memory stream (open_memstream(&*@buf, ...))
 * as a message: the stream closed, json_finish()'s newline taken off.
 * Return: *@buf, its length in *@len (if @len), or NULL (*@buf freed) if
 * the stream failed.
 */
char *json_mem_message(FILE *f, char **buf, size_t *len);

/* Write @s as a quoted, escaped JSON string. */
void json_write_string(FILE *f, const char *s);

#endif /* DCM_JSON_H */
