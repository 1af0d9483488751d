// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: dcm-lola's sensor map encoder (LoLA's 896-byte layout, key
 * order and offsets, encodings), its actuator map decoder (every refusal)
 * and stream reader (split and merged maps, garbage, oversized maps), and
 * the key mapping (element orders of LoLA's arrays).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lola.h"

/* LoLA's layout: each key's offset and its value's (lola-protocol §2.1). */
static const struct { const char *key; size_t key_at, value_at, value_len; } layout[] = {
	{ "RobotConfig", 1, 13, 55 },	{ "Accelerometer", 68, 82, 16 },
	{ "Angles", 98, 105, 11 },	{ "Battery", 116, 124, 21 },
	{ "Current", 145, 153, 128 },	{ "FSR", 281, 285, 41 },
	{ "Gyroscope", 326, 336, 16 },	{ "Position", 352, 361, 128 },
	{ "Sonar", 489, 495, 11 },	{ "Stiffness", 506, 516, 128 },
	{ "Temperature", 644, 656, 128 }, { "Touch", 784, 790, 71 },
	{ "Status", 861, 868, 28 },
};

static void fill(struct lola_sensors *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	strcpy(s->body_id, "AL1100100000000");
	strcpy(s->body_version, "3.3.0");
	strcpy(s->head_id, "a-very-long-head-identifier-cut-at-20");
	strcpy(s->head_version, "V3.3");
	for (i = 0; i < LOLA_JOINTS; i++) {
		s->position[i] = 0.01f * (float)i;
		s->stiffness[i] = 1;
		s->temperature[i] = 30 + (float)i;
		s->current[i] = -0.5f;
		s->status[i] = (uint8_t)(i % 4);
	}
	s->status[24] = 200;	/* capped at 127 */
	s->accelerometer[2] = -9.81f;
	s->battery[1] = -32552;
	s->touch[13] = 1;
}

static float be_float(const uint8_t *p)
{
	uint32_t u = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static void test_encode_layout(void **state)
{
	uint8_t buf[LOLA_SENSOR_SIZE];
	struct lola_sensors s;
	unsigned int k, i;

	(void)state;
	fill(&s);
	assert_int_equal(lola_encode_sensors(&s, buf), LOLA_SENSOR_SIZE);
	assert_int_equal(buf[0], 0x8d);	/* fixmap of 13 */
	for (k = 0; k < 13; k++) {
		size_t l = strlen(layout[k].key);

		assert_string_equal(lola_sensor_fields[k].name, layout[k].key);
		assert_int_equal(buf[layout[k].key_at], 0xa0 | l);
		assert_memory_equal(buf + layout[k].key_at + 1, layout[k].key, l);
		assert_int_equal(layout[k].key_at + 1 + l, layout[k].value_at);
		if (k + 1 < 13)
			assert_int_equal(layout[k].value_at + layout[k].value_len,
					 layout[k + 1].key_at);
	}
	/* RobotConfig: four fixstr of 20, 5, 20, 5, padded with blanks or cut. */
	assert_int_equal(buf[13], 0x94);
	assert_int_equal(buf[14], 0xa0 | 20);
	assert_memory_equal(buf + 15, "AL1100100000000     ", 20);
	assert_int_equal(buf[35], 0xa0 | 5);
	assert_memory_equal(buf + 36, "3.3.0", 5);
	assert_int_equal(buf[41], 0xa0 | 20);
	assert_memory_equal(buf + 42, "a-very-long-head-ide", 20);
	assert_memory_equal(buf + 63, "V3.3 ", 5);
	/* Accelerometer: fixarray of 3 float 32. */
	assert_int_equal(buf[82], 0x93);
	for (i = 0; i < 3; i++)
		assert_int_equal(buf[83 + 5 * i], 0xca);
	assert_true(be_float(buf + 83 + 10 + 1) == -9.81f);
	/* Battery status word as a float. */
	assert_true(be_float(buf + 125 + 5 + 1) == -32552.0f);
	/* Position: array16 of 25 float 32, in joint order. */
	assert_int_equal(buf[361], 0xdc);
	assert_int_equal(buf[362], 0);
	assert_int_equal(buf[363], 25);
	for (i = 0; i < 25; i++) {
		assert_int_equal(buf[364 + 5 * i], 0xca);
		assert_true(be_float(buf + 365 + 5 * i) == 0.01f * (float)i);
	}
	/* Touch: float 32 even for 0/1. */
	assert_int_equal(buf[790], 0x9e);
	assert_true(be_float(buf + 791 + 13 * 5 + 1) == 1.0f);
	/* Status: array16 of 25 positive fixints. */
	assert_int_equal(buf[868], 0xdc);
	for (i = 0; i < 24; i++)
		assert_int_equal(buf[871 + i], i % 4);
	assert_int_equal(buf[895], 127);
}

/* The sensor map decodes with msgpack-c into LoLA's keys, in order. */
static void test_encode_decodes(void **state)
{
	uint8_t buf[LOLA_SENSOR_SIZE];
	struct lola_sensors s;
	msgpack_unpacked u;
	size_t off = 0;
	unsigned int k;

	(void)state;
	fill(&s);
	s.body_id[0] = 0;	/* an empty ID is 20 blanks */
	s.body_version[0] = 0;	/* an empty version "0.0.0" */
	assert_int_equal(lola_encode_sensors(&s, buf), LOLA_SENSOR_SIZE);
	msgpack_unpacked_init(&u);
	assert_int_equal(msgpack_unpack_next(&u, (const char *)buf, sizeof(buf), &off),
			 MSGPACK_UNPACK_SUCCESS);
	assert_int_equal(off, LOLA_SENSOR_SIZE);
	assert_int_equal(u.data.type, MSGPACK_OBJECT_MAP);
	assert_int_equal(u.data.via.map.size, 13);
	for (k = 0; k < 13; k++) {
		const msgpack_object_kv *kv = &u.data.via.map.ptr[k];

		assert_int_equal(kv->key.type, MSGPACK_OBJECT_STR);
		assert_int_equal(kv->key.via.str.size, strlen(layout[k].key));
		assert_memory_equal(kv->key.via.str.ptr, layout[k].key, kv->key.via.str.size);
		assert_int_equal(kv->val.type, MSGPACK_OBJECT_ARRAY);
		assert_int_equal(kv->val.via.array.size, lola_sensor_fields[k].n);
	}
	assert_memory_equal(u.data.via.map.ptr[0].val.via.array.ptr[0].via.str.ptr,
			    "                    ", 20);
	assert_memory_equal(u.data.via.map.ptr[0].val.via.array.ptr[1].via.str.ptr, "0.0.0", 5);
	assert_int_equal(u.data.via.map.ptr[12].val.via.array.ptr[3].type,
			 MSGPACK_OBJECT_POSITIVE_INTEGER);
	assert_int_equal(u.data.via.map.ptr[11].val.via.array.ptr[0].type, MSGPACK_OBJECT_FLOAT32);
	msgpack_unpacked_destroy(&u);
}

/* ---- actuator maps ---- */

struct pk {
	msgpack_sbuffer sb;
	msgpack_packer p;
};

static void pk_init(struct pk *b)
{
	msgpack_sbuffer_init(&b->sb);
	msgpack_packer_init(&b->p, &b->sb, msgpack_sbuffer_write);
}

static void pk_key(struct pk *b, const char *k)
{
	msgpack_pack_str(&b->p, strlen(k));
	msgpack_pack_str_body(&b->p, k, strlen(k));
}

static void pk_floats(struct pk *b, const char *k, unsigned int n, float v)
{
	unsigned int i;

	pk_key(b, k);
	msgpack_pack_array(&b->p, n);
	for (i = 0; i < n; i++)
		msgpack_pack_float(&b->p, v);
}

/* Decode a buffer holding one object; 0 or -EINVAL, reason in err. */
static int decode_buf(const struct pk *b, struct lola_actuators *a, char *err)
{
	msgpack_unpacked u;
	size_t off = 0;
	int ret;

	msgpack_unpacked_init(&u);
	assert_int_equal(msgpack_unpack_next(&u, b->sb.data, b->sb.size, &off),
			 MSGPACK_UNPACK_SUCCESS);
	err[0] = 0;
	ret = lola_decode_actuators(&u.data, a, err, LOLA_ERR_LEN);
	msgpack_unpacked_destroy(&u);
	return ret;
}

/* A full 11-key map as real clients send it: float 32, Sonar booleans. */
static void full_map(struct pk *b)
{
	unsigned int g;

	pk_init(b);
	msgpack_pack_map(&b->p, LOLA_A_GROUPS);
	for (g = 0; g < LOLA_A_GROUPS; g++) {
		if (g == LOLA_A_SONAR) {
			pk_key(b, "Sonar");
			msgpack_pack_array(&b->p, 2);
			msgpack_pack_true(&b->p);
			msgpack_pack_false(&b->p);
		} else {
			pk_floats(b, lola_groups[g].name, lola_groups[g].n, 0.5f);
		}
	}
}

static void test_decode_full(void **state)
{
	struct lola_actuators a;
	char err[LOLA_ERR_LEN];
	struct pk b;

	(void)state;
	full_map(&b);
	assert_int_equal(b.sb.size, 786);	/* LoLA's full actuator map */
	assert_int_equal(decode_buf(&b, &a, err), 0);
	assert_int_equal(a.present, (1U << LOLA_A_GROUPS) - 1);
	assert_true(a.v[LOLA_A_POSITION][24] == 0.5);
	assert_true(a.v[LOLA_A_REYE][23] == 0.5);
	assert_true(a.v[LOLA_A_SONAR][0] == 1);
	assert_true(a.v[LOLA_A_SONAR][1] == 0);
	msgpack_sbuffer_destroy(&b.sb);
}

/* A subset in any order; ints and float 64 where floats are expected. */
static void test_decode_subset_ints(void **state)
{
	struct lola_actuators a;
	char err[LOLA_ERR_LEN];
	unsigned int i;
	struct pk b;

	(void)state;
	pk_init(&b);
	msgpack_pack_map(&b.p, 3);
	pk_key(&b, "Stiffness");
	msgpack_pack_array(&b.p, 25);
	for (i = 0; i < 25; i++)
		msgpack_pack_int(&b.p, i & 1);
	pk_key(&b, "Position");
	msgpack_pack_array(&b.p, 25);
	for (i = 0; i < 25; i++)
		msgpack_pack_double(&b.p, -0.25 * i);
	pk_key(&b, "Chest");
	msgpack_pack_array(&b.p, 3);
	msgpack_pack_float(&b.p, 1);
	msgpack_pack_int(&b.p, 0);
	msgpack_pack_double(&b.p, 0.25);
	assert_int_equal(decode_buf(&b, &a, err), 0);
	assert_int_equal(a.present, 1U << LOLA_A_STIFFNESS | 1U << LOLA_A_POSITION |
			 1U << LOLA_A_CHEST);
	assert_true(a.v[LOLA_A_STIFFNESS][3] == 1);
	assert_true(a.v[LOLA_A_POSITION][4] == -1.0);
	assert_true(a.v[LOLA_A_CHEST][2] == 0.25);
	msgpack_sbuffer_destroy(&b.sb);

	/* An empty map is a valid packet that commands nothing. */
	pk_init(&b);
	msgpack_pack_map(&b.p, 0);
	assert_int_equal(decode_buf(&b, &a, err), 0);
	assert_int_equal(a.present, 0);
	msgpack_sbuffer_destroy(&b.sb);
}

/*
 * Values outside 0 .. 1 are LoLA maps all the same: NaoTH's Stiffness -1
 * (motor free), an LED above 1. Their range is the actuator's, applied by
 * dcm-lola (clamped as a set is), not the decoder's.
 */
static void test_decode_any_value(void **state)
{
	struct lola_actuators a;
	char err[LOLA_ERR_LEN];
	struct pk b;

	(void)state;
	pk_init(&b);
	msgpack_pack_map(&b.p, 2);
	pk_floats(&b, "Stiffness", 25, -1);
	pk_floats(&b, "Chest", 3, 1.5f);
	assert_int_equal(decode_buf(&b, &a, err), 0);
	assert_true(a.v[LOLA_A_STIFFNESS][0] == -1 && a.v[LOLA_A_STIFFNESS][24] == -1);
	assert_true(a.v[LOLA_A_CHEST][2] == 1.5);
	msgpack_sbuffer_destroy(&b.sb);

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_key(&b, "Stiffness");
	msgpack_pack_array(&b.p, 25);
	for (int i = 0; i < 25; i++)
		msgpack_pack_int(&b.p, -1);	/* msgpack-c >= 4.1.2 packs -1.0 so */
	assert_int_equal(decode_buf(&b, &a, err), 0);
	assert_true(a.v[LOLA_A_STIFFNESS][7] == -1);
	msgpack_sbuffer_destroy(&b.sb);
}

/* RobotConfig's versions: LoLA's "6.0.0" form only. */
static void test_version_valid(void **state)
{
	(void)state;
	assert_true(lola_version_valid("6.0.0"));
	assert_true(lola_version_valid("3.3.0"));
	assert_false(lola_version_valid("V3.3"));
	assert_false(lola_version_valid("V3.3 "));
	assert_false(lola_version_valid("6.0"));
	assert_false(lola_version_valid("10.0.0"));
	assert_false(lola_version_valid("6.0.0 "));
	assert_false(lola_version_valid("6-0-0"));
	assert_false(lola_version_valid(""));
}

/* Each bad map is refused with its reason. */
static void expect_refused(struct pk *b, const char *reason)
{
	struct lola_actuators a;
	char err[LOLA_ERR_LEN];

	assert_int_equal(decode_buf(b, &a, err), -EINVAL);
	if (!strstr(err, reason))
		fail_msg("reason \"%s\", want \"%s\"", err, reason);
	assert_int_equal(a.present, 0);
	msgpack_sbuffer_destroy(&b->sb);
}

static void test_decode_refusals(void **state)
{
	struct pk b;

	(void)state;
	pk_init(&b);
	msgpack_pack_array(&b.p, 0);
	expect_refused(&b, "an array where a map is expected");

	pk_init(&b);
	msgpack_pack_map(&b.p, 2);
	pk_floats(&b, "Chest", 3, 1);
	pk_floats(&b, "Nose", 3, 1);
	expect_refused(&b, "unknown key \"Nose\"");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	msgpack_pack_int(&b.p, 3);
	msgpack_pack_nil(&b.p);
	expect_refused(&b, "a key is an integer, not a string");

	pk_init(&b);
	msgpack_pack_map(&b.p, 2);
	pk_floats(&b, "Chest", 3, 1);
	pk_floats(&b, "Chest", 3, 0);
	expect_refused(&b, "key Chest twice");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_floats(&b, "Position", 24, 0);
	expect_refused(&b, "Position: 24 elements, LoLA has 25");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_key(&b, "LEar");
	msgpack_pack_float(&b.p, 1);
	expect_refused(&b, "LEar: a float where an array of 10 is expected");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_key(&b, "Chest");
	msgpack_pack_array(&b.p, 3);
	msgpack_pack_float(&b.p, 1);
	msgpack_pack_str(&b.p, 1);
	msgpack_pack_str_body(&b.p, "x", 1);
	msgpack_pack_float(&b.p, 1);
	expect_refused(&b, "Chest[1]: a string where a number is expected");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_key(&b, "Skull");
	msgpack_pack_array(&b.p, 12);
	for (int i = 0; i < 11; i++)
		msgpack_pack_float(&b.p, 0);
	msgpack_pack_true(&b.p);
	expect_refused(&b, "Skull[11]: a boolean where a number is expected");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_floats(&b, "Position", 25, NAN);
	expect_refused(&b, "Position[0]: nan is not a finite number");

	pk_init(&b);
	msgpack_pack_map(&b.p, 1);
	pk_key(&b, "Sonar");
	msgpack_pack_array(&b.p, 2);
	msgpack_pack_float(&b.p, 0.5f);
	msgpack_pack_true(&b.p);
	expect_refused(&b, "Sonar[0]: 0.5 where a boolean is expected");

	/* A good group before a bad one: the whole map is refused. */
	pk_init(&b);
	msgpack_pack_map(&b.p, 2);
	pk_floats(&b, "Chest", 3, 1);
	pk_floats(&b, "RFoot", 2, 1);
	expect_refused(&b, "RFoot: 2 elements, LoLA has 3");
}

/* ---- the stream ---- */

static void feed(struct lola_reader *r, const void *p, size_t n)
{
	char *dst = lola_reader_buffer(r, n);

	assert_non_null(dst);
	memcpy(dst, p, n);
	lola_reader_consumed(r, n);
}

/* Maps split at every byte, and three in one read, come out whole. */
static void test_reader_split_merged(void **state)
{
	const msgpack_object *o;
	struct lola_actuators a;
	char err[LOLA_ERR_LEN];
	struct lola_reader r;
	size_t i, size = 0;
	char three[3 * 786];
	struct pk b;

	(void)state;
	full_map(&b);
	assert_int_equal(lola_reader_init(&r), 0);
	for (i = 0; i < b.sb.size; i++) {
		feed(&r, b.sb.data + i, 1);
		if (i + 1 < b.sb.size)
			assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)),
					 LOLA_READ_NONE);
	}
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_OBJECT);
	assert_int_equal(size, 786);
	assert_int_equal(lola_decode_actuators(o, &a, err, sizeof(err)), 0);
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_NONE);

	for (i = 0; i < 3; i++)
		memcpy(three + i * 786, b.sb.data, 786);
	feed(&r, three, sizeof(three) - 100);
	for (i = 0; i < 2; i++) {
		assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)),
				 LOLA_READ_OBJECT);
		assert_int_equal(size, 786);
		assert_int_equal(lola_decode_actuators(o, &a, err, sizeof(err)), 0);
	}
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_NONE);
	feed(&r, three + sizeof(three) - 100, 100);
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_OBJECT);
	assert_int_equal(size, 786);
	lola_reader_destroy(&r);
	msgpack_sbuffer_destroy(&b.sb);
}

static void test_reader_garbage(void **state)
{
	static const uint8_t bad[] = { 0x81, 0xa5, 'C', 'h', 'e', 's', 't', 0xc1 };
	const msgpack_object *o;
	char err[LOLA_ERR_LEN];
	struct lola_reader r;
	size_t size;

	(void)state;
	assert_int_equal(lola_reader_init(&r), 0);
	feed(&r, bad, sizeof(bad));
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_FATAL);
	assert_non_null(strstr(err, "malformed packet"));
	lola_reader_destroy(&r);
}

static void test_reader_oversized(void **state)
{
	static char big[2 * LOLA_MAX_PACKET];
	const msgpack_object *o;
	char err[LOLA_ERR_LEN];
	struct lola_reader r;
	size_t size = 0;
	struct pk b;

	(void)state;
	/* A complete object past the limit comes out with its size. */
	pk_init(&b);
	msgpack_pack_str(&b.p, 5000);
	msgpack_pack_str_body(&b.p, big, 5000);
	assert_int_equal(lola_reader_init(&r), 0);
	feed(&r, b.sb.data, 3000);
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_NONE);
	feed(&r, b.sb.data + 3000, b.sb.size - 3000);
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_OBJECT);
	assert_int_equal(size, b.sb.size);
	lola_reader_destroy(&r);
	msgpack_sbuffer_destroy(&b.sb);

	/* More than the limit with no end in sight ends the stream. */
	pk_init(&b);
	msgpack_pack_array(&b.p, 60000);
	memset(big, 0xc0, sizeof(big));	/* nils */
	msgpack_sbuffer_write(&b.sb, big, sizeof(big));
	assert_int_equal(lola_reader_init(&r), 0);
	feed(&r, b.sb.data, b.sb.size);
	assert_int_equal(lola_reader_next(&r, &o, &size, err, sizeof(err)), LOLA_READ_FATAL);
	assert_non_null(strstr(err, "oversized packet"));
	lola_reader_destroy(&r);
	msgpack_sbuffer_destroy(&b.sb);
}

/* ---- the mapping ---- */

static void expect_key(enum lola_group g, unsigned int k, const char *want)
{
	char buf[128];

	assert_int_equal(lola_actuator_key(g, k, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static void test_map_actuators(void **state)
{
	char buf[128];

	(void)state;
	expect_key(LOLA_A_POSITION, 0, "HeadYaw/Position/Actuator");
	expect_key(LOLA_A_POSITION, 7, "LHipYawPitch/Position/Actuator");
	expect_key(LOLA_A_POSITION, 25, "RHipYawPitch/Position/Actuator");
	assert_int_equal(lola_member_element(LOLA_A_POSITION, 25), 7);
	assert_int_equal(lola_member_element(LOLA_A_STIFFNESS, 13), 13);
	expect_key(LOLA_A_STIFFNESS, 24, "RHand/Hardness/Actuator");
	expect_key(LOLA_A_STIFFNESS, 18, "RShoulderPitch/Hardness/Actuator");
	expect_key(LOLA_A_CHEST, 2, "ChestBoard/Led/Blue/Actuator");
	expect_key(LOLA_A_RFOOT, 0, "RFoot/Led/Red/Actuator");
	expect_key(LOLA_A_LEAR, 0, "Ears/Led/Left/0Deg/Actuator");
	expect_key(LOLA_A_LEAR, 9, "Ears/Led/Left/324Deg/Actuator");
	expect_key(LOLA_A_REAR, 0, "Ears/Led/Right/324Deg/Actuator");
	expect_key(LOLA_A_REAR, 9, "Ears/Led/Right/0Deg/Actuator");
	expect_key(LOLA_A_LEYE, 0, "Face/Led/Red/Left/45Deg/Actuator");
	expect_key(LOLA_A_LEYE, 1, "Face/Led/Red/Left/0Deg/Actuator");
	expect_key(LOLA_A_LEYE, 2, "Face/Led/Red/Left/315Deg/Actuator");
	expect_key(LOLA_A_LEYE, 15, "Face/Led/Green/Left/90Deg/Actuator");
	expect_key(LOLA_A_LEYE, 16, "Face/Led/Blue/Left/45Deg/Actuator");
	expect_key(LOLA_A_REYE, 3, "Face/Led/Red/Right/135Deg/Actuator");
	expect_key(LOLA_A_REYE, 23, "Face/Led/Blue/Right/315Deg/Actuator");
	expect_key(LOLA_A_SKULL, 0, "Head/Led/Front/Left/1/Actuator");
	expect_key(LOLA_A_SKULL, 5, "Head/Led/Rear/Left/2/Actuator");
	expect_key(LOLA_A_SKULL, 11, "Head/Led/Front/Right/1/Actuator");
	assert_int_equal(lola_group_members(LOLA_A_SONAR), 0);
	assert_int_equal(lola_actuator_key(LOLA_A_SKULL, 12, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(lola_actuator_key(LOLA_A_CHEST, 0, buf, 8), -ENAMETOOLONG);
	assert_int_equal(lola_sonar_mode(true, true), 76);
	assert_int_equal(lola_sonar_mode(true, false), 64);
	assert_int_equal(lola_sonar_mode(false, true), 67);
	assert_int_equal(lola_sonar_mode(false, false), 0);
}

static void expect_sensor(enum lola_sensor_field f, unsigned int i, enum lola_src src,
			  const char *want)
{
	char buf[128];

	assert_int_equal(lola_sensor_key(f, i, buf, sizeof(buf)), src);
	if (want)
		assert_string_equal(buf, want);
}

static void test_map_sensors(void **state)
{
	(void)state;
	expect_sensor(LOLA_S_ACCELEROMETER, 2, LOLA_SRC_VALUE, "InertialSensor/AccelerometerZ/Sensor");
	expect_sensor(LOLA_S_ANGLES, 1, LOLA_SRC_VALUE, "InertialSensor/AngleY/Sensor");
	expect_sensor(LOLA_S_ANGLES, 2, LOLA_SRC_NONE, NULL);
	expect_sensor(LOLA_S_BATTERY, 0, LOLA_SRC_VALUE, "Battery/Charge/Sensor");
	expect_sensor(LOLA_S_BATTERY, 1, LOLA_SRC_KEY, "Battery/Charge/Sensor/Status");
	expect_sensor(LOLA_S_BATTERY, 2, LOLA_SRC_VALUE, "Battery/Current/Sensor");
	expect_sensor(LOLA_S_BATTERY, 3, LOLA_SRC_VALUE, "Battery/Temperature/Sensor");
	expect_sensor(LOLA_S_CURRENT, 24, LOLA_SRC_VALUE, "RHand/ElectricCurrent/Sensor");
	expect_sensor(LOLA_S_FSR, 2, LOLA_SRC_VALUE, "LFoot/FSR/RearLeft/Sensor");
	expect_sensor(LOLA_S_FSR, 5, LOLA_SRC_VALUE, "RFoot/FSR/FrontRight/Sensor");
	expect_sensor(LOLA_S_GYROSCOPE, 0, LOLA_SRC_VALUE, "InertialSensor/GyroscopeX/Sensor");
	expect_sensor(LOLA_S_POSITION, 7, LOLA_SRC_VALUE, "LHipYawPitch/Position/Sensor");
	expect_sensor(LOLA_S_SONAR, 1, LOLA_SRC_VALUE, "US/Right/Sensor");
	expect_sensor(LOLA_S_STIFFNESS, 0, LOLA_SRC_VALUE, "HeadYaw/Hardness/Actuator");
	expect_sensor(LOLA_S_TEMPERATURE, 13, LOLA_SRC_VALUE, "RHipRoll/Temperature/Sensor");
	expect_sensor(LOLA_S_TOUCH, 0, LOLA_SRC_VALUE, "ChestBoard/Button/Sensor");
	expect_sensor(LOLA_S_TOUCH, 9, LOLA_SRC_VALUE, "RFoot/Bumper/Left/Sensor");
	expect_sensor(LOLA_S_TOUCH, 13, LOLA_SRC_VALUE, "RHand/Touch/Right/Sensor");
	expect_sensor(LOLA_S_STATUS, 2, LOLA_SRC_KEY, "LShoulderPitch/Temperature/Sensor/Status");
	expect_sensor(LOLA_S_ROBOTCONFIG, 0, LOLA_SRC_NONE, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_layout),
		cmocka_unit_test(test_encode_decodes),
		cmocka_unit_test(test_decode_full),
		cmocka_unit_test(test_decode_subset_ints),
		cmocka_unit_test(test_decode_refusals),
		cmocka_unit_test(test_decode_any_value),
		cmocka_unit_test(test_version_valid),
		cmocka_unit_test(test_reader_split_merged),
		cmocka_unit_test(test_reader_garbage),
		cmocka_unit_test(test_reader_oversized),
		cmocka_unit_test(test_map_actuators),
		cmocka_unit_test(test_map_sensors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
