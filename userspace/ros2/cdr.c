// SPDX-License-Identifier: GPL-2.0
/*
 * CDR (OMG's Common Data Representation) as ROS 2 writes it: an
 * encapsulation header (0x00 0x01: CDR, little-endian; two bytes of
 * options, zero), then each field in little-endian order, a primitive
 * aligned to its own size counted from the end of the header; a string is
 * its length with the terminating NUL (uint32), its bytes and the NUL; a
 * sequence is its element count (uint32), then its elements. A fixed-size
 * array is its elements alone.
 */
#include <stdlib.h>
#include <string.h>

#include "cdr.h"

#define CDR_HEADER 4

static void put(struct cdr *c, const void *p, size_t n)
{
	unsigned char *b;
	size_t cap;

	if (c->failed)
		return;
	if (c->len + n > c->cap) {
		cap = c->cap ? c->cap : 256;
		while (cap < c->len + n)
			cap *= 2;
		b = realloc(c->buf, cap);
		if (!b) {
			c->failed = true;
			return;
		}
		c->buf = b;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void align(struct cdr *c, size_t n)
{
	static const unsigned char zero[8];

	put(c, zero, (n - (c->len - CDR_HEADER) % n) % n);
}

/* @n bytes of @v, least significant first. */
static void put_le(struct cdr *c, uint64_t v, size_t n)
{
	unsigned char b[8];
	size_t i;

	align(c, n);
	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	put(c, b, n);
}

/**
 * cdr_begin() - start a message: its encapsulation header
 * @c: the message, its fields zeroed or as cdr_end() left them
 */
void cdr_begin(struct cdr *c)
{
	static const unsigned char header[CDR_HEADER] = { 0x00, 0x01, 0x00, 0x00 };

	memset(c, 0, sizeof(*c));
	put(c, header, sizeof(header));
}

void cdr_u32(struct cdr *c, uint32_t v)
{
	put_le(c, v, 4);
}

void cdr_i32(struct cdr *c, int32_t v)
{
	put_le(c, (uint32_t)v, 4);
}

void cdr_f64(struct cdr *c, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	put_le(c, u, 8);
}

void cdr_string(struct cdr *c, const char *s)
{
	size_t n = strlen(s) + 1;

	cdr_u32(c, (uint32_t)n);
	put(c, s, n);
}

/**
 * cdr_end() - the message written
 * @c: the message; left empty
 * @len: set to its length
 *
 * Return: its bytes (the caller frees them), or NULL if memory ran out.
 */
unsigned char *cdr_end(struct cdr *c, size_t *len)
{
	unsigned char *b = c->buf;

	if (c->failed) {
		free(b);
		b = NULL;
	}
	*len = b ? c->len : 0;
	memset(c, 0, sizeof(*c));
	return b;
}
