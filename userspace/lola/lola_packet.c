// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcm-lola: LoLA's maps with msgpack-c. The sensor map is encoded in
 * LoLA's exact layout (896 bytes); actuator maps are read from a byte
 * stream incrementally (a map may be split over reads, or several may come
 * in one) and checked as a whole before anything of them is used: a map is
 * refused only when it cannot be a LoLA actuator map (an unknown key, an
 * array of the wrong length, an element of the wrong type).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lola.h"

/* ---- encoder ---- */

struct fixed_buf {
	uint8_t *p;
	size_t len, cap;
	bool overflow;
};

static int fixed_write(void *data, const char *buf, size_t len)
{
	struct fixed_buf *b = data;

	if (b->len + len > b->cap) {
		b->overflow = true;
		return -1;
	}
	memcpy(b->p + b->len, buf, len);
	b->len += len;
	return 0;
}

static void pack_key(msgpack_packer *pk, const char *s)
{
	size_t l = strlen(s);

	msgpack_pack_str(pk, l);
	msgpack_pack_str_body(pk, s, l);
}

/* @s cut or padded with blanks to exactly @width characters; "" gives @empty. */
static void pack_fixed_str(msgpack_packer *pk, const char *s, size_t width, const char *empty)
{
	char tmp[32];
	size_t l, i;

	if (!s[0])
		s = empty;
	l = strlen(s);
	if (l > width)
		l = width;
	for (i = 0; i < l; i++)
		tmp[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	for (; i < width; i++)
		tmp[i] = ' ';
	msgpack_pack_str(pk, width);
	msgpack_pack_str_body(pk, tmp, width);
}

int lola_encode_sensors(const struct lola_sensors *s, uint8_t *buf)
{
	struct fixed_buf b = { .p = buf, .cap = LOLA_SENSOR_SIZE };
	struct lola_sensors *w = (struct lola_sensors *)s;	/* read only */
	msgpack_packer pk;
	unsigned int f, i;

	msgpack_packer_init(&pk, &b, fixed_write);
	msgpack_pack_map(&pk, LOLA_S_FIELDS);
	for (f = 0; f < LOLA_S_FIELDS; f++) {
		const struct lola_sensor_desc *d = &lola_sensor_fields[f];
		const float *a = lola_sensor_array(w, f);

		pack_key(&pk, d->name);
		msgpack_pack_array(&pk, d->n);
		if (f == LOLA_S_ROBOTCONFIG) {
			pack_fixed_str(&pk, s->body_id, LOLA_ID_LEN, "");
			pack_fixed_str(&pk, s->body_version, LOLA_VERSION_LEN, "0.0.0");
			pack_fixed_str(&pk, s->head_id, LOLA_ID_LEN, "");
			pack_fixed_str(&pk, s->head_version, LOLA_VERSION_LEN, "0.0.0");
		} else if (f == LOLA_S_STATUS) {
			for (i = 0; i < d->n; i++)
				msgpack_pack_uint8(&pk, s->status[i] > 127 ? 127 : s->status[i]);
		} else {
			for (i = 0; i < d->n; i++)
				msgpack_pack_float(&pk, a[i]);
		}
	}
	if (b.overflow || b.len != LOLA_SENSOR_SIZE)
		return -1;
	return LOLA_SENSOR_SIZE;
}

/* ---- decoder ---- */

static int refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *type_name(msgpack_object_type t)
{
	switch (t) {
	case MSGPACK_OBJECT_NIL:		return "nil";
	case MSGPACK_OBJECT_BOOLEAN:		return "a boolean";
	case MSGPACK_OBJECT_POSITIVE_INTEGER:	return "an integer";
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:	return "an integer";
	case MSGPACK_OBJECT_FLOAT32:		return "a float";
	case MSGPACK_OBJECT_FLOAT64:		return "a float";
	case MSGPACK_OBJECT_STR:		return "a string";
	case MSGPACK_OBJECT_ARRAY:		return "an array";
	case MSGPACK_OBJECT_MAP:		return "a map";
	case MSGPACK_OBJECT_BIN:		return "binary data";
	case MSGPACK_OBJECT_EXT:		return "an extension";
	default:				return "an unknown type";
	}
}

/* A key as text for a log line: printable, at most 32 characters. */
static void key_text(const msgpack_object_str *k, char *out, size_t outlen)
{
	size_t i, n = k->size < 32 ? k->size : 32;

	for (i = 0; i < n && i + 1 < outlen; i++)
		out[i] = isprint((unsigned char)k->ptr[i]) ? k->ptr[i] : '?';
	out[i] = 0;
	if (k->size > n && i + 4 < outlen)
		strcpy(out + i, "...");
}

static int number(const msgpack_object *e, double *v)
{
	switch (e->type) {
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		*v = e->via.f64;
		return 0;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		*v = (double)e->via.u64;
		return 0;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		*v = (double)e->via.i64;
		return 0;
	default:
		return -EINVAL;
	}
}

static int decode_group(const struct lola_group_desc *g, const msgpack_object *val, double *out,
			char *err, size_t errlen)
{
	const msgpack_object_array *a;
	uint32_t i;

	if (val->type != MSGPACK_OBJECT_ARRAY)
		return refuse(err, errlen, "%s: %s where an array of %u is expected", g->name,
			      type_name(val->type), g->n);
	a = &val->via.array;
	if (a->size != g->n)
		return refuse(err, errlen, "%s: %u elements, LoLA has %u", g->name, a->size, g->n);
	for (i = 0; i < a->size; i++) {
		const msgpack_object *e = &a->ptr[i];
		double v;

		if (g->boolean && e->type == MSGPACK_OBJECT_BOOLEAN) {
			out[i] = e->via.boolean ? 1 : 0;
			continue;
		}
		if (number(e, &v))
			return refuse(err, errlen, "%s[%u]: %s where %s is expected", g->name, i,
				      type_name(e->type), g->boolean ? "a boolean" : "a number");
		if (!isfinite(v))
			return refuse(err, errlen, "%s[%u]: %g is not a finite number", g->name, i, v);
		if (g->boolean && v != 0 && v != 1)
			return refuse(err, errlen, "%s[%u]: %g where a boolean is expected", g->name,
				      i, v);
		/* A number outside its actuator's range is clamped when applied. */
		out[i] = v;
	}
	return 0;
}

int lola_decode_actuators(const msgpack_object *o, struct lola_actuators *out, char *err,
			  size_t errlen)
{
	const msgpack_object_map *m;
	uint32_t i, present = 0;

	memset(out, 0, sizeof(*out));
	if (o->type != MSGPACK_OBJECT_MAP)
		return refuse(err, errlen, "%s where a map is expected", type_name(o->type));
	m = &o->via.map;
	for (i = 0; i < m->size; i++) {
		const msgpack_object *k = &m->ptr[i].key;
		char name[40];
		unsigned int g;
		int ret;

		if (k->type != MSGPACK_OBJECT_STR)
			return refuse(err, errlen, "a key is %s, not a string", type_name(k->type));
		for (g = 0; g < LOLA_A_GROUPS; g++)
			if (strlen(lola_groups[g].name) == k->via.str.size &&
			    !memcmp(lola_groups[g].name, k->via.str.ptr, k->via.str.size))
				break;
		if (g == LOLA_A_GROUPS) {
			key_text(&k->via.str, name, sizeof(name));
			return refuse(err, errlen, "unknown key \"%s\"", name);
		}
		if (present & (1U << g))
			return refuse(err, errlen, "key %s twice", lola_groups[g].name);
		ret = decode_group(&lola_groups[g], &m->ptr[i].val, out->v[g], err, errlen);
		if (ret)
			return ret;
		present |= 1U << g;
	}
	out->present = present;
	return 0;
}

/* ---- stream reader ---- */

int lola_reader_init(struct lola_reader *r)
{
	memset(r, 0, sizeof(*r));
	if (!msgpack_unpacker_init(&r->unp, LOLA_MAX_PACKET))
		return -ENOMEM;
	msgpack_unpacked_init(&r->res);
	r->ready = true;
	return 0;
}

void lola_reader_destroy(struct lola_reader *r)
{
	if (!r->ready)
		return;
	msgpack_unpacked_destroy(&r->res);
	msgpack_unpacker_destroy(&r->unp);
	r->ready = false;
}

char *lola_reader_buffer(struct lola_reader *r, size_t len)
{
	if (!msgpack_unpacker_reserve_buffer(&r->unp, len))
		return NULL;
	return msgpack_unpacker_buffer(&r->unp);
}

void lola_reader_consumed(struct lola_reader *r, size_t len)
{
	msgpack_unpacker_buffer_consumed(&r->unp, len);
}

enum lola_read_status lola_reader_next(struct lola_reader *r, const msgpack_object **obj,
				       size_t *size, char *err, size_t errlen)
{
	size_t bytes = 0;
	msgpack_unpack_return ret;

	ret = msgpack_unpacker_next_with_size(&r->unp, &r->res, &bytes);
	switch (ret) {
	case MSGPACK_UNPACK_SUCCESS:
		*obj = &r->res.data;
		*size = bytes;
		return LOLA_READ_OBJECT;
	case MSGPACK_UNPACK_CONTINUE:
		/* All that is buffered belongs to one unfinished object. */
		if (msgpack_unpacker_message_size(&r->unp) > LOLA_MAX_PACKET) {
			refuse(err, errlen, "oversized packet: %zu bytes and no end (limit %d)",
			       msgpack_unpacker_message_size(&r->unp), LOLA_MAX_PACKET);
			return LOLA_READ_FATAL;
		}
		return LOLA_READ_NONE;
	case MSGPACK_UNPACK_NOMEM_ERROR:
		refuse(err, errlen, "oversized packet: its declared size does not fit in memory");
		return LOLA_READ_FATAL;
	default:
		refuse(err, errlen, "malformed packet: not MessagePack");
		return LOLA_READ_FATAL;
	}
}
