// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the MCAP writer (rec/mcap.c), a recording's channels
 * (rec/channels.c, rec/mcaprec.c) and its ROS 2 messages in CDR
 * (rec/ros2.c).
 *
 *   the CRC-32 against its check value; a file read back record by record
 *   as the specification lays it out: the magic at both ends, the Header
 *   first, Schemas and Channels out of any chunk and before their
 *   messages, each Chunk's CRC over its records and its Message Indexes
 *   pointing at its messages, the Data End's CRC over everything before
 *   it, the Summary's groups where the Summary Offsets say, its
 *   Statistics and Chunk Indexes counting what the data section holds,
 *   the Footer's offsets and CRC; a full disk said; and the channels of a
 *   description as dcm-web makes them (its model, web/model.c, on the
 *   same fake description), with the same messages; a JointState's and
 *   an Imu's CDR byte by byte (the encapsulation, the alignments, the
 *   strings with their NUL, the sequences' counts, the quaternion).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_dcm.h"
#include "json.h"
#include "fake_sysfs.h"
#include "mcap.h"
#include "mcaprec.h"
#include "model.h"

static uint64_t le(const unsigned char *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* A file read back: its bytes, and what the walk found. */
struct file {
	unsigned char *p;
	size_t len;
	size_t n_schemas, n_channels, n_chunks, n_msgs, n_meta;
	uint64_t per_channel[16];
	uint64_t chunk_at[64], chunk_len[64], mi_at[64][16];
	uint64_t data_end;		/* where the Data End is */
};

static void read_back(struct file *f, char *buf, size_t len)
{
	memset(f, 0, sizeof(*f));
	f->p = (unsigned char *)buf;
	f->len = len;
}

/* The records of a chunk: messages only, each where its Message Index says. */
static void walk_chunk(struct file *f, const unsigned char *c, uint64_t n, uint64_t start,
		       uint64_t end)
{
	uint64_t at = 0, len, t;

	while (at < n) {
		assert_true(at + 9 <= n);
		assert_int_equal(c[at], MCAP_OP_MESSAGE);
		len = le(c + at + 1, 8);
		assert_true(at + 9 + len <= n);
		assert_true(le(c + at + 9, 2) < 16);
		/* the sequence is the channel's count */
		assert_int_equal(le(c + at + 11, 4), f->per_channel[le(c + at + 9, 2)]);
		t = le(c + at + 15, 8);
		assert_true(t >= start && t <= end);
		f->per_channel[le(c + at + 9, 2)]++;
		f->n_msgs++;
		at += 9 + len;
	}
	assert_int_equal(at, n);
}

/* A Message Index after chunk @k (its records at @recs): each offset a message of its channel. */
static void check_index(struct file *f, size_t k, uint64_t at, const unsigned char *recs)
{
	const unsigned char *r = f->p + at + 9;
	uint64_t ch = le(r, 2), n = le(r + 2, 4), i, off;

	assert_true(ch < 16);
	assert_int_equal(n % 16, 0);
	f->mi_at[k][ch] = at;
	for (i = 0; i < n; i += 16) {
		off = le(r + 6 + i + 8, 8);
		assert_int_equal(recs[off], MCAP_OP_MESSAGE);
		assert_int_equal(le(recs + off + 9, 2), ch);
		assert_int_equal(le(recs + off + 15, 8), le(r + 6 + i, 8));
	}
}

/* The data section, from the Header to the Data End. */
static void walk_data(struct file *f)
{
	const unsigned char *recs = NULL;
	uint64_t at = 8, len;

	assert_true(f->len > 16);
	assert_memory_equal(f->p, MCAP_MAGIC, 8);
	assert_int_equal(f->p[at], MCAP_OP_HEADER);
	for (;;) {
		assert_true(at + 9 <= f->len);
		len = le(f->p + at + 1, 8);
		assert_true(at + 9 + len <= f->len);
		switch (f->p[at]) {
		case MCAP_OP_SCHEMA:
			f->n_schemas++;
			break;
		case MCAP_OP_CHANNEL:
			/* a channel's schema comes before it */
			assert_true(le(f->p + at + 11, 2) <= f->n_schemas);
			f->n_channels++;
			break;
		case MCAP_OP_CHUNK: {
			const unsigned char *c = f->p + at + 9;
			uint64_t slen = le(c + 28, 4), rlen = le(c + 32 + slen, 8);

			assert_int_equal(slen, 0);	/* no compression */
			assert_int_equal(le(c + 16, 8), rlen);
			recs = c + 40 + slen;
			assert_int_equal(le(c + 24, 4), mcap_crc32(0, recs, rlen));
			f->chunk_at[f->n_chunks] = at;
			f->chunk_len[f->n_chunks] = 9 + len;
			walk_chunk(f, recs, rlen, le(c, 8), le(c + 8, 8));
			f->n_chunks++;
			break;
		}
		case MCAP_OP_MESSAGE_INDEX:
			assert_non_null(recs);
			check_index(f, f->n_chunks - 1, at, recs);
			break;
		case MCAP_OP_METADATA:
			f->n_meta++;
			break;
		case MCAP_OP_DATA_END:
			assert_int_equal(len, 4);
			assert_int_equal(le(f->p + at + 9, 4), mcap_crc32(0, f->p, at));
			f->data_end = at;
			return;
		case MCAP_OP_HEADER:
			assert_int_equal(at, 8);
			break;
		default:
			fail_msg("record 0x%02x in the data section at %llu", f->p[at],
				 (unsigned long long)at);
		}
		at += 9 + len;
	}
}

/* The Statistics record at @r: the data section's counts. */
static void check_statistics(const struct file *f, const unsigned char *r)
{
	uint64_t i, n;

	assert_int_equal(le(r, 8), f->n_msgs);
	assert_int_equal(le(r + 8, 2), f->n_schemas);
	assert_int_equal(le(r + 10, 4), f->n_channels);
	assert_int_equal(le(r + 18, 4), f->n_meta);
	assert_int_equal(le(r + 22, 4), f->n_chunks);
	n = le(r + 42, 4);
	assert_int_equal(n, f->n_channels * 10);
	for (i = 0; i < n; i += 10)
		assert_int_equal(le(r + 46 + i + 2, 8), f->per_channel[le(r + 46 + i, 2)]);
}

/* A Chunk Index at @r (the @k-th): the chunk's place and its Message Indexes'. */
static void check_chunk_index(const struct file *f, size_t k, const unsigned char *r)
{
	uint64_t n = le(r + 32, 4), i;

	assert_true(k < f->n_chunks);
	assert_int_equal(le(r + 16, 8), f->chunk_at[k]);
	assert_int_equal(le(r + 24, 8), f->chunk_len[k]);
	for (i = 0; i < n; i += 10)
		assert_int_equal(le(r + 36 + i + 2, 8), f->mi_at[k][le(r + 36 + i, 2)]);
}

/* The group at @start of @len bytes: records of @op only; the chunk indexes checked. */
static size_t check_group(const struct file *f, uint8_t op, uint64_t start, uint64_t len)
{
	uint64_t at = start;
	size_t n = 0;

	while (at < start + len) {
		assert_int_equal(f->p[at], op);
		if (op == MCAP_OP_STATISTICS)
			check_statistics(f, f->p + at + 9);
		if (op == MCAP_OP_CHUNK_INDEX)
			check_chunk_index(f, n, f->p + at + 9);
		at += 9 + le(f->p + at + 1, 8);
		n++;
	}
	assert_int_equal(at, start + len);
	return n;
}

/* The summary, its offsets and the footer. */
static void walk_summary(struct file *f)
{
	uint64_t foot = f->len - 8 - 29, start, ostart, at;
	unsigned int groups = 0;

	assert_memory_equal(f->p + f->len - 8, MCAP_MAGIC, 8);
	assert_int_equal(f->p[foot], MCAP_OP_FOOTER);
	assert_int_equal(le(f->p + foot + 1, 8), 20);
	start = le(f->p + foot + 9, 8);
	ostart = le(f->p + foot + 17, 8);
	assert_int_equal(start, f->data_end + 13);
	assert_int_equal(le(f->p + foot + 25, 4),
			 mcap_crc32(0, f->p + start, foot + 25 - start));
	for (at = ostart; at < foot; at += 9 + 17) {
		const unsigned char *r = f->p + at + 9;
		size_t n;

		assert_int_equal(f->p[at], MCAP_OP_SUMMARY_OFFSET);
		n = check_group(f, r[0], le(r + 1, 8), le(r + 9, 8));
		if (r[0] == MCAP_OP_SCHEMA)
			assert_int_equal(n, f->n_schemas);
		if (r[0] == MCAP_OP_CHANNEL)
			assert_int_equal(n, f->n_channels);
		if (r[0] == MCAP_OP_CHUNK_INDEX)
			assert_int_equal(n, f->n_chunks);
		if (r[0] == MCAP_OP_METADATA_INDEX)
			assert_int_equal(n, f->n_meta);
		groups++;
	}
	assert_int_equal(at, foot);
	assert_int_equal(groups, 4 + (f->n_meta > 0));
}

/* The CRC-32, a bit at a time. */
static uint32_t bit_crc(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

static void test_crc(void **state)
{
	(void)state;
	/* the check value of CRC-32/ISO-HDLC */
	assert_int_equal(mcap_crc32(0, "123456789", 9), 0xcbf43926u);
	/* in pieces, the same */
	assert_int_equal(mcap_crc32(mcap_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
	assert_int_equal(mcap_crc32(0, "", 0), 0);
	assert_int_equal(mcap_crc32(0, "The quick brown fox jumps over the lazy dog", 43),
			 0x414fa339u);
	/* eight bytes at a time as one bit at a time, at every length and split */
	{
		unsigned char buf[300];
		unsigned int seed = 7;
		size_t n, cut, i;

		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (unsigned char)rand_r(&seed);
		for (n = 0; n <= sizeof(buf); n += 1 + n / 8)
			for (cut = 0; cut <= n; cut += 1 + n / 5)
				assert_int_equal(mcap_crc32(mcap_crc32(0, buf, cut), buf + cut,
							    n - cut), bit_crc(buf, n));
	}
}

static void test_layout(void **state)
{
	static const char *const kv[] = { "reason", "on demand", "controller", "0" };
	struct mcap_writer *w;
	char *buf = NULL;
	size_t len = 0;
	uint16_t s, a, b, c;
	struct file f;
	FILE *out = open_memstream(&buf, &len);
	int i;

	(void)state;
	assert_int_equal(mcap_open(&w, out, "", "dcm test", 200), 0);
	assert_int_equal(mcap_schema(w, "dcm.A", "jsonschema", "{}", 2, &s), 0);
	assert_int_equal(s, 1);
	assert_int_equal(mcap_channel(w, s, "/a", "json", &a), 0);
	assert_int_equal(mcap_channel(w, s, "/b", "json", &b), 0);
	assert_int_equal(a, 0);
	assert_int_equal(b, 1);
	for (i = 0; i < 20; i++) {
		assert_int_equal(mcap_message(w, a, 1000 + i, 1000 + i, "{\"x\":1}", 7), 0);
		if (i % 3 == 0)
			assert_int_equal(mcap_message(w, b, 1000 + i, 1000 + i, "{}", 2), 0);
	}
	/* a channel made after messages: the chunk open goes out first */
	assert_int_equal(mcap_channel(w, 0, "/c", "json", &c), 0);
	assert_int_equal(mcap_message(w, c, 2000, 2000, "x", 1), 0);
	assert_int_equal(mcap_metadata(w, "flight", kv, 2), 0);
	assert_int_equal(mcap_messages(w), 28);
	assert_int_equal(mcap_close(w), 0);
	fclose(out);
	read_back(&f, buf, len);
	walk_data(&f);
	assert_int_equal(f.n_msgs, 28);
	assert_int_equal(f.per_channel[0], 20);
	assert_int_equal(f.per_channel[1], 7);
	assert_int_equal(f.per_channel[2], 1);
	assert_true(f.n_chunks >= 3);
	assert_int_equal(f.n_channels, 3);
	walk_summary(&f);
	free(buf);
}

/* A file without messages is a valid file too. */
static void test_empty(void **state)
{
	struct mcap_writer *w;
	char *buf = NULL;
	size_t len = 0;
	struct file f;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(mcap_open(&w, out, "", "dcm test", 0), 0);
	assert_int_equal(mcap_close(w), 0);
	fclose(out);
	read_back(&f, buf, len);
	walk_data(&f);
	assert_int_equal(f.n_chunks, 0);
	free(buf);
}

/* A full disk: the writer's error, not a file that looks whole. */
static void test_full(void **state)
{
	struct mcap_writer *w;
	uint16_t ch;
	FILE *out = fopen("/dev/full", "w");
	int i;

	(void)state;
	if (!out)
		skip();
	assert_int_equal(mcap_open(&w, out, "", "dcm test", 64), 0);
	assert_int_equal(mcap_channel(w, 0, "/a", "json", &ch), 0);
	for (i = 0; i < 10; i++)
		mcap_message(w, ch, (uint64_t)i, 0, "0123456789", 10);
	assert_int_equal(mcap_flush(w), -ENOSPC);
	assert_int_equal(mcap_message(w, ch, 99, 0, "x", 1), -ENOSPC);
	assert_int_equal(mcap_close(w), -ENOSPC);
	fclose(out);
}

/* ------------------------------------------------------------------
 * The channels, as dcm-web's model makes them of the same description
 */

static const char *const names[] = {
	"HeadPitch/Position/Actuator", "HeadPitch/Position/Sensor", "ChestBoard/Led/Red/Actuator",
	"Battery/Charge/Sensor", "LFoot/FSR/FrontLeft/Sensor", "InertialSensor/AngleX/Sensor",
	"HeadYaw/Temperature/Sensor", "RFoot/FSR/TotalWeight/Sensor",
};

static struct dcm *dcm;
static struct web_model model;

static int setup(void **state)
{
	char rel[256];
	size_t i;

	(void)state;
	fake_reset();
	if (fake_sysfs_setup("test_mcap"))
		return -1;
	for (i = 0; i < 8; i++) {
		fake.subs[i] = (struct fake_sub){ names[i], strstr(names[i], "Actuator") ?
						  DCM_LOOKUP_F_ACTUATOR : 0, 0, 0 };
		snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Value", names[i]);
		fake_sysfs_put(rel, "0.000000");
		snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Type", names[i]);
		fake_sysfs_put(rel, "Joint");
		snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Device", names[i]);
		fake_sysfs_put(rel, "HeadBoard");
	}
	fake.n_subs = 8;
	fake.info_n_devices = 2;
	if (dcm_open("/dev/null", &dcm))
		return -1;
	if (web_model_build(dcm, fake_sysfs_root, 0, &model)) {
		fprintf(stderr, "web_model_build: %s\n", dcm_last_error());
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	web_model_free(&model);
	dcm_close(dcm);
	return fake_sysfs_teardown();
}

static void test_same_channels(void **state)
{
	double values[8] = { 0.5, -0.25, 1, 0.75, 1.5, 0.125, 41, 2.5 };
	struct rec_channels cs = { 0 };
	const struct rec_channel *rc;
	char *a, *adv;
	size_t i, k, la, seen = 0;

	(void)state;
	for (i = 0; i < model.n_keys; i++)
		assert_int_equal(rec_channels_add(&cs, model.keys[i].name, model.keys[i].index), 0);
	rec_channels_trim(&cs);
	adv = web_advertise_json(&model);
	assert_non_null(adv);
	/* dcm-web streams the recording's channels but /keys, with the same ids' order */
	assert_int_equal(model.n_channels, cs.n);
	for (i = 0; i < cs.n; i++) {
		const struct rec_channel *wc = web_model_channel(&model, (unsigned int)i + 1);

		rc = &cs.c[i];
		if (!strcmp(rc->topic, REC_TOPIC_KEYS)) {
			assert_null(wc);
			assert_null(strstr(adv, "\"" REC_TOPIC_KEYS "\""));
			continue;
		}
		assert_non_null(wc);
		assert_string_equal(rc->topic, wc->topic);
		assert_int_equal(rc->n, wc->n);
		for (k = 0; k < rc->n; k++) {
			assert_string_equal(rc->fields[k], wc->fields[k]);
			assert_int_equal(rc->index[k], wc->index[k]);
		}
		a = rec_channel_json(rc, 7, 1234, values, 8, &la);
		assert_non_null(a);
		assert_int_equal(la, strlen(a));
		assert_non_null(strstr(adv, rc->topic));
		free(a);
		seen += rc->n;
	}
	free(adv);
	/* every group of dcm-web; the LED, in none, on /keys */
	assert_int_equal(seen, 7);
	rc = &cs.c[cs.n - 1];
	assert_string_equal(rc->topic, REC_TOPIC_KEYS);
	assert_int_equal(rc->n, 1);
	assert_string_equal(rc->fields[0], "ChestBoard_Led_Red_Actuator");
	assert_string_equal(rc->keys[0], "ChestBoard/Led/Red/Actuator");
	rec_channels_free(&cs);
}

/* A recording: its channels and events, read back. */
static void test_recording(void **state)
{
	struct dcm_event_msg ev = { .type = DCM_EV_SAFETY, .time_ms = 1240, .text = "a \"fault\"" };
	double values[8] = { 0 };
	struct rec_mcap m = { .events = true };
	char *buf = NULL;
	size_t len = 0, i;
	struct file f;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	for (i = 0; i < model.n_keys; i++)
		assert_int_equal(rec_mcap_add(&m, model.keys[i].name, model.keys[i].index), 0);
	assert_int_equal(rec_mcap_start(&m, out, 0), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(rec_mcap_frame(&m, 10 + i, 1000 + 10 * (uint32_t)i,
						1700000000.0 + i * 0.01, values, 8), 0);
	assert_int_equal(rec_mcap_event(&m, &ev, 1700000000.05), 0);
	assert_int_equal(rec_mcap_end(&m), 0);
	rec_mcap_free(&m);
	fclose(out);
	read_back(&f, buf, len);
	walk_data(&f);
	/*
	 * 7 channels with keys (/joints/position, /joints/command,
	 * /temperatures, /battery, /feet, /inertial, /keys), /joint_states
	 * and /tf (HeadPitch), /robot_description, no /imu (one inertial key
	 * of nine), no /foot_pressure, /events: a message a frame on each but
	 * the URDF (once) and the events (one)
	 */
	assert_int_equal(f.n_channels, 11);
	assert_int_equal(f.n_schemas, 11);
	assert_int_equal(f.n_msgs, 9 * 5 + 1 + 1);
	assert_non_null(memmem(buf, len, "foxglove.FrameTransforms", 24));
	assert_non_null(memmem(buf, len, "<robot name=\"NAO\">", 18));
	assert_non_null(memmem(buf, len, "sensor_msgs/msg/JointState", 26));
	assert_null(memmem(buf, len, "sensor_msgs/msg/Imu", 19));
	walk_summary(&f);
	assert_non_null(memmem(buf, len, "\"text\":\"a \\\"fault\\\"\"", 19));
	assert_non_null(memmem(buf, len, "\"rule\":", 7));
	free(buf);
}

/* json_double()'s text, from the JSON writer. */
static void json_text(double v, char *out, size_t len)
{
	struct json_writer w;
	FILE *f = fmemopen(out, len, "w");

	assert_non_null(f);
	json_init(&w, f, false);
	json_double(&w, NULL, v);
	fputc('\0', f);
	fclose(f);
}

/* A recording's numbers are dcm-web's, digit for digit. */
static void test_numbers(void **state)
{
	static const double some[] = { 0, -0.0, 1, -1, 0.5, 0.99, -0.25, 41, 1e-4, 1.2e-4,
				       9.9e-5, 1e-7, 0.1 + 0.2, 123456789.123456, 999999999.999999,
				       1e9, 1e15, 1e16, -3.5e20, 1.0 / 3, 2.5e-300, 9.80665 };
	char a[64], b[64];
	unsigned int seed = 1;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(some) / sizeof(some[0]); i++) {
		rec_json_number(a, some[i]);
		json_text(some[i], b, sizeof(b));
		assert_string_equal(a, b);
	}
	/* micro-units, as the frames carry them, and any doubles */
	for (i = 0; i < 200000; i++) {
		long long m = (long long)rand_r(&seed) * rand_r(&seed) % 4000000000000LL -
			      2000000000000LL;
		double v = i % 2 ? (double)m / 1e6 : (double)m / 1e6 * 1.0000001;

		rec_json_number(a, v);
		json_text(v, b, sizeof(b));
		assert_string_equal(a, b);
	}
	assert_int_equal(rec_json_number(a, NAN), 4);
	assert_string_equal(a, "null");
}

int main(void)
{
	const struct CMUnitTest alone[] = {
		cmocka_unit_test(test_crc),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_numbers),
	};
	const struct CMUnitTest model_tests[] = {
		cmocka_unit_test(test_same_channels),
		cmocka_unit_test(test_recording),
	};

	return cmocka_run_group_tests(alone, NULL, NULL) |
	       cmocka_run_group_tests(model_tests, setup, teardown);
}
