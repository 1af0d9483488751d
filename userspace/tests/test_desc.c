// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the robot description loader (desc/load.c, parts.c, model.c), the pusher
 * (desc/push.c) and the dry run through the kernel's model code
 * (desc/dryrun.c), on the fixtures of userspace/tests/data/: good/ is a
 * small valid robot, bad/ one fault per file; device.rng and
 * preferences.rng are small test schemas.
 *
 * The tests run in DCM_TEST_DATA, so messages name "bad/x.xml:LINE".
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "desc.h"

/* ------------------------------------------------------------------
 * Helpers
 */

static char logbuf[16384];

static void capture_log(void *arg, int level, const char *msg)
{
	size_t n = strlen(logbuf);

	(void)arg;
	snprintf(logbuf + n, sizeof(logbuf) - n, "%d %s\n", level, msg);
}

struct load {
	struct desc *d;
	char *errors;	/* NULL when the load succeeded */
};

/* Load with the test schemas (or none), from DCM_TEST_DATA. */
static struct load load_main(const char *dev, const char *main_xml, const char *body,
			     const char *head, bool schema)
{
	struct desc_errors errs;
	struct desc_opts o;
	struct load r = { NULL, NULL };

	memset(&o, 0, sizeof(o));
	o.device_xml = dev;
	o.main_xml = main_xml;
	o.body_xml = body;
	o.head_xml = head;
	o.target_hint[DESC_MAIN] = "-M";
	o.target_hint[DESC_CHEST] = "-b";
	o.target_hint[DESC_HEAD] = "-H";
	if (schema) {
		o.device_rng = "device.rng";
		o.prefs_rng = "preferences.rng";
	}
	o.log = capture_log;
	logbuf[0] = '\0';
	desc_errors_init(&errs);
	if (desc_load(&o, &r.d, &errs)) {
		assert_null(r.d);
		assert_true(errs.n > 0);
		r.errors = desc_errors_text(&errs);
	} else {
		assert_non_null(r.d);
		assert_int_equal(errs.n, 0);
	}
	desc_errors_free(&errs);
	return r;
}

static struct load load_files(const char *dev, const char *body, const char *head,
			      bool schema)
{
	return load_main(dev, NULL, body, head, schema);
}

/* The errors of a load that must fail, as one string. */
static char *errors_main(const char *dev, const char *main_xml, const char *body,
			 const char *head, bool schema)
{
	struct load r = load_main(dev, main_xml, body, head, schema);

	if (!r.errors) {
		desc_free(r.d);
		fail_msg("%s loaded, but should not", dev);
	}
	return r.errors;
}

static char *errors_of(const char *dev, const char *body, const char *head, bool schema)
{
	return errors_main(dev, NULL, body, head, schema);
}

#define assert_errors(expected, dev, body, head, schema)			\
	do {								\
		char *e_ = errors_of((dev), (body), (head), (schema));	\
		assert_string_equal(e_, (expected));			\
		free(e_);						\
	} while (0)

#define assert_errors_main(expected, dev, main_xml, body, head)			\
	do {								\
		char *e_ = errors_main((dev), (main_xml), (body), (head), true); \
		assert_string_equal(e_, (expected));			\
		free(e_);						\
	} while (0)

static struct desc *load_ok_main(const char *dev, const char *main_xml, const char *body,
				 const char *head)
{
	struct load r = load_main(dev, main_xml, body, head, true);

	if (r.errors) {
		fprintf(stderr, "%s", r.errors);
		free(r.errors);
		fail_msg("%s does not load", dev);
	}
	return r.d;
}

static struct desc *load_ok(const char *dev, const char *body, const char *head)
{
	return load_ok_main(dev, NULL, body, head);
}

/* The good robot: Device.xml and its three preference files. */
static struct desc *load_good(void)
{
	return load_ok_main("good/Device.xml", "good/main.xml", "good/body.xml", "good/head.xml");
}

/* Push into the dry run; return the error text ("" on success). */
static int dry_push(const struct desc *d, struct desc_push_stats *st, char *err, size_t len)
{
	struct desc_dry_sink *dry = desc_dry_sink_new();
	int r;

	assert_non_null(dry);
	r = desc_push(d, &desc_dry_sink_ops, dry, st, err, len);
	desc_dry_sink_free(dry);
	return r;
}

static const struct desc_key *sub_key(const struct desc *d, const char *sub, const char *key)
{
	struct desc_subdevice *s = desc_find_subdevice(d, sub);

	assert_non_null(s);
	return desc_find_key(s->keys, s->n_keys, key);
}

static int setup(void **state)
{
	(void)state;
	return chdir(DCM_TEST_DATA);
}

/* ------------------------------------------------------------------
 * Numbers
 */

static void test_parse_float(void **state)
{
	static const struct {
		const char *text;
		int ret;
		int64_t v;
	} cases[] = {
		{ "0", 0, 0 },
		{ "-0.6720", 0, -672000 },
		{ "0.5149", 0, 514900 },
		{ "1", 0, 1000000 },
		{ "+2.5", 0, 2500000 },
		{ ".5", 0, 500000 },
		{ "5.", 0, 5000000 },
		{ "0.0015339808", 0, 1534 },
		{ "0.0000005", 0, 1 },		/* a tie: away from zero */
		{ "-0.0000005", 0, -1 },
		{ "0.00000049999999999", 0, 0 },
		{ "0.0000004999", 0, 0 },
		{ "-0.0000015", 0, -2 },
		{ "1e-6", 0, 1 },
		{ "1.5E3", 0, 1500000000 },
		{ "2.5e+0", 0, 2500000 },
		{ "123e-9", 0, 0 },
		{ "5e-7", 0, 1 },
		{ "0e999999999999", 0, 0 },
		{ "000000000000000000000000001.25", 0, 1250000 },
		{ "9223372036854.775807", 0, INT64_MAX },
		{ "-9223372036854.775808", 0, INT64_MIN },
		{ "9223372036854.7758074", 0, INT64_MAX },
		{ "9223372036854.7758075", -ERANGE, 0 },
		{ "9223372036854.775808", -ERANGE, 0 },
		{ "-9223372036854.775809", -ERANGE, 0 },
		{ "1e999", -ERANGE, 0 },
		{ "1e13", -ERANGE, 0 },
		{ "1e12", 0, INT64_C(1000000000000000000) },
		{ " 1.5\n", 0, 1500000 },	/* XML blanks around */
		{ "", -EINVAL, 0 },
		{ " ", -EINVAL, 0 },
		{ ".", -EINVAL, 0 },
		{ "-", -EINVAL, 0 },
		{ "1e", -EINVAL, 0 },
		{ "1e+", -EINVAL, 0 },
		{ "e5", -EINVAL, 0 },
		{ "1.0.0", -EINVAL, 0 },
		{ "abc", -EINVAL, 0 },
		{ "NaN", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "inf", -EINVAL, 0 },
		{ "-INF", -EINVAL, 0 },
		{ "Infinity", -EINVAL, 0 },
		{ "0x10", -EINVAL, 0 },
		{ "1,5", -EINVAL, 0 },
		{ "1 5", -EINVAL, 0 },
		{ "--1", -EINVAL, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 42;
		int r = desc_parse_float(cases[i].text, &v);

		if (r != cases[i].ret || (!r && v != cases[i].v))
			fail_msg("'%s': got %d/%lld, want %d/%lld", cases[i].text, r,
				 (long long)v, cases[i].ret, (long long)cases[i].v);
		if (r)
			assert_int_equal(v, 42);	/* untouched on failure */
	}
	/* libdcm's parser itself takes no blanks */
	{
		int64_t v;

		assert_int_equal(dcm_fixed_from_string(" 1", &v), -EINVAL);
		assert_int_equal(dcm_fixed_from_string("1\n", &v), -EINVAL);
		assert_int_equal(dcm_fixed_from_string(NULL, &v), -EINVAL);
	}
}

static void test_parse_fraction(void **state)
{
	static const struct {
		const char *text;
		int ret;
		int64_t num;
		uint32_t den;
	} cases[] = {
		{ "0.0039215686", 0, 39215686, 10000 },		/* 1/255 as written */
		{ "0.0000958738", 0, 958738, 10000 },
		{ "-0.6720", 0, -672000, 1 },
		{ "1", 0, 1000000, 1 },
		{ "0.5000000000", 0, 500000, 1 },		/* trailing zeros: exact already */
		{ "0.0000005", 0, 5, 10 },
		{ "1e-15", 0, 1, 1000000000 },
		{ "1e-16", 0, 0, 1000000000 },			/* past 15 decimals: rounded */
		{ "5e-16", 0, 1, 1000000000 },
		{ "0.1234567890123456789", 0, 123456789012346, 1000000000 },
		/* too many digits for num / 10^9: fewer decimals */
		{ "9223372036.8547758071", 0, INT64_C(9223372036854775807), 1000 },
		{ "9223372036854.775807", 0, INT64_MAX, 1 },
		{ "9223372036854.7758075", -ERANGE, 0, 0 },
		{ "abc", -EINVAL, 0, 0 },
		{ "nan", -EINVAL, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t num = 42;
		uint32_t den = 42;
		int r = desc_parse_fraction(cases[i].text, &num, &den);

		if (r != cases[i].ret || (!r && (num != cases[i].num || den != cases[i].den)))
			fail_msg("'%s': got %d %lld/%u, want %d %lld/%u", cases[i].text, r,
				 (long long)num, den, cases[i].ret, (long long)cases[i].num,
				 cases[i].den);
	}
	/* rounded to micro-units as the kernel does for every float but a Gain */
	{
		struct desc_key k = { .kind = LIBDCM_KEY_FLOAT, .num = 39215686, .den = 10000 };

		assert_int_equal(desc_key_micro(&k), 3922);
		k.num = -25;
		k.den = 10;
		assert_int_equal(desc_key_micro(&k), -3);
		k.num = -24;
		assert_int_equal(desc_key_micro(&k), -2);
	}
}

static void test_parse_int_bool(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(desc_parse_int("42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(desc_parse_int(" -7 ", &v), 0);
	assert_int_equal(v, -7);
	assert_int_equal(desc_parse_int("+3", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(desc_parse_int("9223372036854775807", &v), 0);
	assert_int_equal(v, INT64_MAX);
	assert_int_equal(desc_parse_int("-9223372036854775808", &v), 0);
	assert_int_equal(v, INT64_MIN);
	assert_int_equal(desc_parse_int("9223372036854775808", &v), -ERANGE);
	assert_int_equal(desc_parse_int("-9223372036854775809", &v), -ERANGE);
	assert_int_equal(desc_parse_int("99999999999999999999", &v), -ERANGE);
	assert_int_equal(desc_parse_int("99999999999999999999x", &v), -EINVAL);
	assert_int_equal(desc_parse_int("1.5", &v), -EINVAL);
	assert_int_equal(desc_parse_int("1e3", &v), -EINVAL);
	assert_int_equal(desc_parse_int("0x20", &v), -EINVAL);
	assert_int_equal(desc_parse_int("", &v), -EINVAL);
	assert_int_equal(desc_parse_int("-", &v), -EINVAL);
	assert_int_equal(desc_parse_int("1 2", &v), -EINVAL);

	assert_int_equal(desc_parse_bool("true", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(desc_parse_bool(" false ", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(desc_parse_bool("1", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(desc_parse_bool("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(desc_parse_bool("yes", &v), -EINVAL);
	assert_int_equal(desc_parse_bool("True", &v), -EINVAL);
	assert_int_equal(desc_parse_bool("2", &v), -EINVAL);
}

/* ------------------------------------------------------------------
 * A good description
 */

static void test_good(void **state)
{
	struct desc *d = load_good();
	const struct desc_key *k;
	struct desc_device *dev;
	size_t i;

	(void)state;
	assert_int_equal(d->n_devices, 12);
	assert_int_equal(d->n_subdevices, 15);
	assert_int_equal(d->n_kept_devices, 12);
	assert_int_equal(d->n_kept_subdevices, 15);
	for (i = 0; i < PART_COUNT; i++)
		assert_true(d->parts[i]);

	dev = desc_find_device(d, "ChestBoard");
	assert_non_null(dev);
	assert_string_equal(dev->type, "ChestBoard");
	assert_string_equal(dev->bus, "I2C-chest");
	assert_int_equal(dev->address, 32);
	assert_int_equal(dev->part, PART_BODY);
	assert_string_equal(dev->src.file, "good/Device.xml");
	assert_int_equal(dev->src.line, 5);

	/* the attributes, exactly in micro-units */
	k = sub_key(d, "HeadPitch/Position/Actuator", "Min");
	assert_int_equal(k->kind, LIBDCM_KEY_FLOAT);
	assert_int_equal(k->num, -672000);
	k = sub_key(d, "HeadPitch/Position/Actuator", "Max");
	assert_int_equal(k->num, 514900);
	/* more than 6 decimals: the exact fraction */
	k = sub_key(d, "HeadPitch/Position/Sensor", "Gain");
	assert_int_equal(k->num, 15339808);
	assert_int_equal(k->den, 10000);
	assert_int_equal(desc_key_micro(k), 1534);
	k = sub_key(d, "HeadPitch/Position/Actuator", "Min");
	assert_int_equal(k->den, 1);
	k = sub_key(d, "HeadPitch/Position/Actuator", "InvertControlDirection");
	assert_int_equal(k->kind, LIBDCM_KEY_BOOL);
	assert_int_equal(k->num, 0);
	/* Value, Gain, Offset only when given */
	assert_null(sub_key(d, "ChestBoard/Led/Red/Actuator", "Gain"));
	assert_non_null(sub_key(d, "HeadPitch/Position/Actuator", "Offset"));
	{
		struct desc_subdevice *s = desc_find_subdevice(d, "HeadPitch/Position/Sensor");

		assert_string_equal(s->type, "JointPosition");
		assert_string_equal(s->device, "HeadBoard");
		assert_int_equal(s->number, 1);
		assert_int_equal(s->part, PART_HEAD);
		assert_string_equal(d->devices[s->dev].name, "HeadBoard");
	}
	/* RobotConfig keys of both files */
	assert_int_equal(d->n_robot, 9);
	k = desc_find_robot_key(d, "RobotConfig/Body/Type");
	assert_non_null(k);
	assert_int_equal(k->kind, LIBDCM_KEY_STRING);
	assert_string_equal(k->str, "NAO");
	k = desc_find_robot_key(d, "RobotConfig/Head/Device/TouchBoard/Version");
	assert_int_equal(k->num, 1);
	assert_string_equal(k->src.file, "good/head.xml");
	desc_free(d);
}

/* Device.xml, then the Main, Chest and Head files, each over Device.xml's values. */
static void test_overlay_order(void **state)
{
	struct desc *d = load_good();
	const struct desc_key *k;
	struct desc_device *dev;

	(void)state;
	k = sub_key(d, "HeadPitch/Position/Actuator", "Kp");
	assert_int_equal(k->num, 130);
	assert_string_equal(k->src.file, "good/main.xml");
	assert_int_equal(k->src.line, 3);
	k = sub_key(d, "HeadPitch/Position/Sensor", "jointZeroPosition");
	assert_int_equal(k->num, 2071);
	assert_string_equal(k->src.file, "good/body.xml");
	assert_int_equal(k->src.line, 11);
	k = sub_key(d, "LShoulderPitch/Position/Actuator", "Max");
	assert_int_equal(k->num, 2000000);
	assert_string_equal(k->src.file, "good/main.xml");
	/* an FSR's calibration, from the body file: a key Device.xml does not give */
	k = sub_key(d, "LFoot/FSR/FrontLeft/Sensor", "Gain");
	assert_int_equal(k->num, 1043);
	assert_string_equal(k->src.file, "good/body.xml");
	dev = desc_find_device(d, "ChestBoard");
	k = desc_find_key(dev->keys, dev->n_keys, "BodyId");
	assert_string_equal(k->str, "AL01234567890");
	k = desc_find_key(dev->keys, dev->n_keys, "BodyNickName");
	assert_string_equal(k->str, "Nao");	/* untouched */
	assert_int_equal(d->n_overrides, 5);
	assert_int_equal(d->n_ignored, 0);
	assert_non_null(strstr(logbuf, "7 good/main.xml:3: Device/SubDeviceList/HeadPitch/Position/Actuator/Kp overrides good/Device.xml:26\n"));
	desc_free(d);

	/* without the main file, Device.xml's value */
	d = load_ok("good/Device.xml", "good/body.xml", "good/head.xml");
	assert_int_equal(sub_key(d, "HeadPitch/Position/Actuator", "Kp")->num, 100);
	assert_int_equal(sub_key(d, "HeadPitch/Position/Sensor", "jointZeroPosition")->num, 2071);
	desc_free(d);
	/* without any, Device.xml's */
	d = load_ok("good/Device.xml", NULL, NULL);
	assert_int_equal(sub_key(d, "HeadPitch/Position/Actuator", "Kp")->num, 100);
	assert_int_equal(sub_key(d, "HeadPitch/Position/Sensor", "jointZeroPosition")->num, 0);
	assert_null(sub_key(d, "LFoot/FSR/FrontLeft/Sensor", "Gain"));
	desc_free(d);
}

/* What the pusher sends, in order. */
struct rec {
	char log[16384];
	const char *fail_path;	/* set_key of this path fails */
	char why[256];
	unsigned int fail_begin;
};

static void rec_add(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rec_add(struct rec *r, const char *fmt, ...)
{
	size_t n = strlen(r->log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->log + n, sizeof(r->log) - n, fmt, ap);
	va_end(ap);
}

static int rec_begin(void *ctx)
{
	struct rec *r = ctx;

	rec_add(r, "begin\n");
	if (r->fail_begin) {
		snprintf(r->why, sizeof(r->why),
			 "permission denied: configuring dcm needs CAP_NET_ADMIN (root)");
		return -EPERM;
	}
	return 0;
}

static int rec_add_device(void *ctx, const char *name, const char *type, const char *bus,
			  unsigned int address)
{
	rec_add(ctx, "device %s %s %s %u\n", name, type, bus, address);
	return 0;
}

static int rec_add_subdevice(void *ctx, const char *name, const char *type,
			     const char *device, unsigned int number)
{
	rec_add(ctx, "subdevice %s %s %s %u\n", name, type, device, number);
	return 0;
}

static int rec_set_key(void *ctx, const char *path, const struct dcm_key_value *v)
{
	struct rec *r = ctx;

	if (v->kind == LIBDCM_KEY_STRING)
		rec_add(r, "key %s %d '%s'\n", path, v->kind, v->str);
	else if (v->den > 1)
		rec_add(r, "key %s %d %lld/%u\n", path, v->kind, (long long)v->num, v->den);
	else
		rec_add(r, "key %s %d %lld\n", path, v->kind, (long long)v->num);
	if (r->fail_path && !strcmp(path, r->fail_path)) {
		snprintf(r->why, sizeof(r->why), "key %s: the value is outside the key's range",
			 path);
		return -ERANGE;
	}
	return 0;
}

static int rec_commit(void *ctx, struct dcm_config_counts *c)
{
	rec_add(ctx, "commit\n");
	c->n_devices = 1;
	return 0;
}

static void rec_abort(void *ctx)
{
	rec_add(ctx, "abort\n");
}

static const char *rec_why(void *ctx)
{
	return ((struct rec *)ctx)->why;
}

static const struct desc_sink rec_ops = {
	rec_begin, rec_add_device, rec_add_subdevice, rec_set_key, rec_commit,
	rec_abort, rec_why,
};

static void test_push_order(void **state)
{
	struct desc *d = load_good();
	struct desc_push_stats st;
	struct rec *r = calloc(1, sizeof(*r));
	char err[512];

	(void)state;
	assert_int_equal(desc_push(d, &rec_ops, r, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	/* BEGIN, 12 devices, 15 subdevices, 42 keys, 9 RobotConfig keys, COMMIT */
	assert_int_equal(st.steps, 1 + 12 + 15 + 42 + 9 + 1);
	assert_int_equal(st.counts.n_devices, 1);
	assert_true(!strncmp(r->log,
			     "begin\n"
			     "device ChestBoard ChestBoard I2C-chest 32\n"
			     "device HeadBoard MotorBoard RS485-head 2\n", 80));
	assert_non_null(strstr(r->log,
			       "device RightFootBoard FootBoard I2C-legs 12\n"
			       "subdevice ChestBoard/Led/Red/Actuator Led ChestBoard 1\n"));
	assert_non_null(strstr(r->log,
			       "subdevice RFoot/FSR/FrontLeft/Sensor FSR RightFootBoard 1\n"
			       "key Device/DeviceList/ChestBoard/BodyId 4 'AL01234567890'\n"
			       "key Device/DeviceList/ChestBoard/BodyNickName 4 'Nao'\n"
			       "key ChestBoard/Led/Red/Actuator/Min 2 0\n"
			       "key ChestBoard/Led/Red/Actuator/Max 2 1000000\n"
			       "key HeadPitch/Position/Actuator/Min 2 -672000\n"
			       "key HeadPitch/Position/Actuator/Max 2 514900\n"
			       "key HeadPitch/Position/Actuator/Value 2 0\n"
			       "key HeadPitch/Position/Actuator/Gain 2 1000000\n"
			       "key HeadPitch/Position/Actuator/Offset 2 0\n"
			       "key HeadPitch/Position/Actuator/Kp 1 130\n"
			       "key HeadPitch/Position/Actuator/InvertControlDirection 3 0\n"));
	assert_non_null(strstr(r->log,
			       "key HeadPitch/Position/Sensor/Gain 2 15339808/10000\n"));
	assert_non_null(strstr(r->log,
			       "key HeadPitch/Position/Sensor/jointZeroPosition 1 2071\n"));
	assert_non_null(strstr(r->log,
			       "key RobotConfig/Body/Type 4 'NAO'\n"));
	assert_non_null(strstr(r->log,
			       "key RobotConfig/Head/Device/TouchBoard/Version 1 1\n"
			       "commit\n"));
	assert_null(strstr(r->log, "abort"));

	/* a refused step names the file and line of what it sent */
	memset(r, 0, sizeof(*r));
	r->fail_path = "HeadPitch/Position/Sensor/jointZeroPosition";
	assert_int_equal(desc_push(d, &rec_ops, r, &st, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "good/body.xml:11: key HeadPitch/Position/Sensor/jointZeroPosition: "
			    "the value is outside the key's range");
	assert_non_null(strstr(r->log, "jointZeroPosition 1 2071\nabort\n"));
	assert_null(strstr(r->log, "commit"));

	memset(r, 0, sizeof(*r));
	r->fail_path = "Device/DeviceList/ChestBoard/BodyNickName";
	assert_int_equal(desc_push(d, &rec_ops, r, &st, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "good/Device.xml:7: key Device/DeviceList/ChestBoard/BodyNickName: "
			    "the value is outside the key's range");

	/* BEGIN refused: the sink's message alone (no element is at fault) */
	memset(r, 0, sizeof(*r));
	r->fail_begin = 1;
	assert_int_equal(desc_push(d, &rec_ops, r, &st, err, sizeof(err)), -EPERM);
	assert_string_equal(err, "permission denied: configuring dcm needs CAP_NET_ADMIN (root)");
	assert_string_equal(r->log, "begin\n");
	free(r);
	desc_free(d);
}

static void test_dry_run(void **state)
{
	struct desc *d = load_good();
	struct desc_push_stats st;
	char err[512];

	(void)state;
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(st.counts.n_devices, 12);
	assert_int_equal(st.counts.n_subdevices, 15);
	assert_int_equal(st.counts.n_keys, 9);
	desc_free(d);

	/* the kernel's range check, with the file and line of the key */
	d = load_ok("good/Device.xml", "bad/pref_range.xml", NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -ERANGE);
	assert_string_equal(err, "bad/pref_range.xml:3: key HeadPitch/Position/Sensor/jointZeroPosition: "
			    "the value is outside the key's range");
	desc_free(d);

	/* the kernel knows the types */
	d = load_ok("bad/unknown_type.xml", NULL, NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad/unknown_type.xml:4: device HeadBoard: unknown device type");
	desc_free(d);
	d = load_ok("bad/unknown_subtype.xml", NULL, NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad/unknown_subtype.xml:4: subdevice ChestBoard/Led/Red/Actuator: "
			    "unknown subdevice type");
	desc_free(d);
	/* and which keys a type has, and which the robot sets */
	d = load_ok("bad/unknown_key.xml", NULL, NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "bad/unknown_key.xml:5: key ChestBoard/Led/Red/Actuator/Kp: "
			    "no such device, subdevice or key");
	desc_free(d);
	d = load_ok("bad/live_key.xml", NULL, NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -EPERM);
	assert_string_equal(err, "bad/live_key.xml:4: key Device/DeviceList/ChestBoard/ProgVersion: "
			    "this key is set by the robot, not by a description");
	desc_free(d);
	/* a path through a key: a file and a directory of one name in sysfs */
	d = load_ok("bad/path_clash.xml", NULL, NULL);
	assert_int_equal(dry_push(d, &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad/path_clash.xml:4: subdevice HeadPitch/Position/Actuator/Min goes "
			    "through the key HeadPitch/Position/Actuator/Min");
	desc_free(d);
}

/* With the kernel's type table, unknown types are found before any push. */
static void test_types(void **state)
{
	struct desc_errors errs;
	struct desc_opts o;
	struct desc *d;
	char *t;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.device_type_ok = desc_kernel_device_type_ok;
	o.subdevice_type_ok = desc_kernel_subdevice_type_ok;
	o.device_xml = "bad/unknown_type.xml";
	desc_errors_init(&errs);
	assert_int_equal(desc_load(&o, &d, &errs), -1);
	t = desc_errors_text(&errs);
	assert_string_equal(t, "bad/unknown_type.xml:4: device HeadBoard: unknown device type 'MotorBord'\n");
	free(t);
	desc_errors_free(&errs);

	/* also after a schema failure, as a plainer message */
	o.device_xml = "bad/unknown_subtype.xml";
	o.device_rng = "typed.rng";
	assert_int_equal(desc_load(&o, &d, &errs), -1);
	t = desc_errors_text(&errs);
	assert_string_equal(t, "bad/unknown_subtype.xml:4: Element SubDevice failed to validate attributes\n"
			    "bad/unknown_subtype.xml:4: subdevice ChestBoard/Led/Red/Actuator: "
			    "unknown subdevice type 'LED'\n");
	free(t);
	desc_errors_free(&errs);

	o.device_xml = "good/Device.xml";
	o.device_rng = "device.rng";
	assert_int_equal(desc_load(&o, &d, &errs), 0);
	desc_free(d);
}

/*
 * The shipped description (userspace/data, when it is there): it loads with
 * the shipped schemas, each variant too, and passes the kernel's checks.
 */
static void test_shipped(void **state)
{
	static const struct {
		const char *body, *head;
		const char *absent;	/* a subdevice that must be dropped */
	} sets[] = {
		{ "body.xml", "head.xml", NULL },
		{ "variants/body-no-left-hand.xml", "head.xml", "LHand/Position/Actuator" },
		{ "variants/body-no-legs.xml", "head.xml", "LKneePitch/Position/Actuator" },
		{ "variants/body-normal-arms.xml", "head.xml", "RWristYaw/Position/Actuator" },
		{ "variants/body-uncalibrated.xml", "head.xml", NULL },
		{ "variants/head-no-touch.xml", NULL, "Head/Touch/Front/Sensor" },
	};
	char dev[512], body[512], head[512], rng[512], prng[512], err[512];
	struct desc_push_stats st;
	struct desc_errors errs;
	struct desc_opts o;
	struct desc *d;
	size_t i;

	(void)state;
	snprintf(dev, sizeof(dev), "%s/../../data/Device.xml", DCM_TEST_DATA);
	if (access(dev, R_OK))
		skip();
	snprintf(rng, sizeof(rng), "%s/../../data/device.rng", DCM_TEST_DATA);
	snprintf(prng, sizeof(prng), "%s/../../data/preferences.rng", DCM_TEST_DATA);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		const char *hf = sets[i].head ? sets[i].head : sets[i].body;
		bool head_variant = !sets[i].head;

		snprintf(body, sizeof(body), "%s/../../data/%s", DCM_TEST_DATA,
			 head_variant ? "body.xml" : sets[i].body);
		snprintf(head, sizeof(head), "%s/../../data/%s", DCM_TEST_DATA, hf);
		memset(&o, 0, sizeof(o));
		o.device_xml = dev;
		o.body_xml = body;
		o.head_xml = head;
		o.device_rng = rng;
		o.prefs_rng = prng;
		o.device_type_ok = desc_kernel_device_type_ok;
		o.subdevice_type_ok = desc_kernel_subdevice_type_ok;
		desc_errors_init(&errs);
		if (desc_load(&o, &d, &errs)) {
			char *t = desc_errors_text(&errs);

			fail_msg("%s + %s:\n%s", body, head, t);
		}
		desc_errors_free(&errs);
		if (dry_push(d, &st, err, sizeof(err)))
			fail_msg("%s + %s: %s", body, head, err);
		if (sets[i].absent)
			assert_false(desc_find_subdevice(d, sets[i].absent)->kept);
		desc_free(d);
	}
}

/* ------------------------------------------------------------------
 * Bad files
 */

static void test_malformed(void **state)
{
	(void)state;
	assert_errors("bad/malformed.xml:4: Opening and ending tag mismatch: Device line 3 and DeviceXml\n"
		      "bad/malformed.xml:5: Premature end of data in tag DeviceXml line 2\n",
		      "bad/malformed.xml", NULL, NULL, true);
	assert_errors("bad/truncated.xml:6: Specification mandates value for attribute Mi\n"
		      "bad/truncated.xml:6: attributes construct error\n"
		      "bad/truncated.xml:6: Couldn't find end of Start Tag SubDevice line 4\n"
		      "bad/truncated.xml:6: Premature end of data in tag DeviceXml line 2\n",
		      "bad/truncated.xml", NULL, NULL, true);
	assert_errors("bad/empty.xml:1: Document is empty\n", "bad/empty.xml", NULL, NULL, true);
	assert_errors("bad/doctype.xml:2: a DOCTYPE is not allowed\n",
		      "bad/doctype.xml", NULL, NULL, false);
	assert_errors("bad/nonexistent.xml: No such file or directory\n",
		      "bad/nonexistent.xml", NULL, NULL, true);
	/* a broken preference file is reported with Device.xml's state */
	assert_errors("bad/malformed.xml:4: Opening and ending tag mismatch: Device line 3 and DeviceXml\n"
		      "bad/malformed.xml:5: Premature end of data in tag DeviceXml line 2\n",
		      "good/Device.xml", "bad/malformed.xml", NULL, true);
	assert_errors("bad/wrong_root.xml:2: root element is Preferences, expected DeviceXml\n",
		      "bad/wrong_root.xml", NULL, NULL, false);
	assert_errors("bad/version.xml:2: DeviceXml Version '2' is not supported (only 1)\n",
		      "bad/version.xml", NULL, NULL, false);
}

static void test_schema(void **state)
{
	(void)state;
	assert_errors("bad/no_min.xml:4: Element SubDevice failed to validate attributes\n",
		      "bad/no_min.xml", NULL, NULL, true);
	assert_errors("bad/unknown_element.xml:4: Did not expect element Devise there\n",
		      "bad/unknown_element.xml", NULL, NULL, true);
	assert_errors("bad/address.xml:3: Type unsignedByte doesn't allow value '256'\n"
		      "bad/address.xml:3: Element Device failed to validate attributes\n"
		      "bad/address.xml:3: Invalid attribute Address for element Device\n",
		      "bad/address.xml", NULL, NULL, true);
	assert_errors("bad/bad_part.xml:3: Element Device failed to validate attributes\n"
		      "bad/bad_part.xml:3: Invalid attribute Part for element Device\n",
		      "bad/bad_part.xml", NULL, NULL, true);
	/* the preference schema: a Target that is neither Chest nor Head */
	assert_errors("bad/pref_schema.xml:2: Element Preferences failed to validate attributes\n"
		      "bad/pref_schema.xml:2: Invalid attribute Target for element Preferences\n",
		      "good/Device.xml", "bad/pref_schema.xml", NULL, true);
	/* the schemas themselves */
	{
		struct desc_errors errs;
		struct desc_opts o;
		struct desc *d;
		char *t;

		memset(&o, 0, sizeof(o));
		o.device_xml = "good/Device.xml";
		o.device_rng = "missing.rng";
		desc_errors_init(&errs);
		assert_int_equal(desc_load(&o, &d, &errs), -1);
		t = desc_errors_text(&errs);
		assert_string_equal(t, "missing.rng: schema: No such file or directory\n");
		free(t);
		desc_errors_free(&errs);

		o.device_rng = "bad/broken.rng";
		assert_int_equal(desc_load(&o, &d, &errs), -1);
		assert_true(errs.n >= 1);
		assert_true(!strncmp(errs.msgs[0], "bad/broken.rng:", 15));
		desc_errors_free(&errs);
	}
}

/* The same faults without a schema: the loader's own checks. */
static void test_semantic(void **state)
{
	(void)state;
	assert_errors("bad/no_min.xml:4: subdevice ChestBoard/Led/Red/Actuator: attribute Min is missing\n",
		      "bad/no_min.xml", NULL, NULL, false);
	assert_errors("bad/unknown_element.xml:4: unexpected element Devise\n",
		      "bad/unknown_element.xml", NULL, NULL, false);
	assert_errors("bad/address.xml:3: device ChestBoard: Address 256 is outside 0-255\n",
		      "bad/address.xml", NULL, NULL, false);
	assert_errors("bad/bad_part.xml:3: device TailBoard: unknown Part 'Tail'\n",
		      "bad/bad_part.xml", NULL, NULL, false);
	assert_errors("bad/numbers.xml:3: device ChestBoard: Address '0x20' is not an integer\n"
		      "bad/numbers.xml:4: device HeadBoard: Address -1 is outside 0-255\n"
		      "bad/numbers.xml:5: subdevice A/Actuator: Min 'abc' is not a number\n"
		      "bad/numbers.xml:6: subdevice B/Actuator: Max 'NaN' is not a number\n"
		      "bad/numbers.xml:7: subdevice C/Actuator: Min '-inf' is not a number\n"
		      "bad/numbers.xml:8: subdevice D/Actuator: Gain '1e999' is out of range\n"
		      "bad/numbers.xml:9: subdevice E/Actuator: SubDeviceNumber 0 is outside 1-255\n"
		      "bad/numbers.xml:11: subdevice F/Actuator: Kp '1.5' is not an integer\n"
		      "bad/numbers.xml:12: subdevice F/Actuator: Ki '99999999999999999999' is out of range\n"
		      "bad/numbers.xml:13: subdevice F/Actuator: InvertControlDirection 'yes' is not a boolean (true, false, 1 or 0)\n"
		      "bad/numbers.xml:14: subdevice F/Actuator: key Kd: unknown Type 'double' (float, int, bool or string)\n"
		      "bad/numbers.xml:16: subdevice G/Actuator: Min '1.0.0' is not a number\n"
		      "bad/numbers.xml:16: subdevice G/Actuator: Max '9223372036854.775808' is out of range\n",
		      "bad/numbers.xml", NULL, NULL, false);
}

static void test_structure(void **state)
{
	(void)state;
	assert_errors("bad/dup_name.xml:5: duplicate name 'ChestBoard' (first defined at bad/dup_name.xml:3)\n"
		      "bad/dup_name.xml:8: duplicate name 'HeadBoard' (first defined at bad/dup_name.xml:4)\n"
		      "bad/dup_name.xml:7: duplicate name 'HeadPitch/Position/Actuator' (first defined at bad/dup_name.xml:6)\n",
		      "bad/dup_name.xml", NULL, NULL, true);
	assert_errors("bad/missing_device.xml:4: subdevice HeadPitch/Position/Actuator: no device 'HeadBoard'\n",
		      "bad/missing_device.xml", NULL, NULL, true);
	assert_errors("bad/dup_number.xml:6: subdevice HeadPitch/Position/Actuator: SubDeviceNumber 1 of type "
		      "Joint on device HeadBoard is taken by HeadYaw/Position/Actuator (bad/dup_number.xml:4)\n",
		      "bad/dup_number.xml", NULL, NULL, true);
	assert_errors("bad/dup_key.xml:5: subdevice ChestBoard/Led/Red/Actuator: duplicate key Max "
		      "(first at bad/dup_key.xml:4)\n"
		      "bad/dup_key.xml:7: subdevice ChestBoard/Led/Red/Actuator: duplicate key Kp "
		      "(first at bad/dup_key.xml:6)\n",
		      "bad/dup_key.xml", NULL, NULL, true);
	assert_errors("bad/min_max.xml:4: subdevice ChestBoard/Led/Red/Actuator: Min 1.000000 is above Max 0.000000\n",
		      "bad/min_max.xml", NULL, NULL, true);
}

/* A subdevice on a device that is dropped is dropped, not an error. */
static void test_dropped_device(void **state)
{
	struct desc *d = load_ok_main("good/Device.xml", "bad/pref_dropped_main.xml",
				      "bad/pref_dropped.xml", NULL);
	struct desc_subdevice *s;

	(void)state;
	assert_false(d->parts[PART_LEFT_HAND]);
	assert_false(desc_find_device(d, "LeftHandBoard")->kept);
	s = desc_find_subdevice(d, "LHand/Position/Actuator");
	assert_false(s->kept);
	assert_false(desc_find_subdevice(d, "LHand/Touch/Back/Sensor")->kept);
	/* the keys aimed at them are ignored, at debug level */
	assert_int_equal(d->n_ignored, 2);
	assert_int_equal(sub_key(d, "LHand/Position/Actuator", "Max")->num, 1000000);
	assert_non_null(strstr(logbuf, "7 bad/pref_dropped_main.xml:3: key Device/SubDeviceList/LHand/Position/"
			       "Actuator/Max ignored: subdevice LHand/Position/Actuator is not on this robot\n"));
	assert_non_null(strstr(logbuf, "7 bad/pref_dropped_main.xml:4: key Device/DeviceList/LeftHandBoard/Ack "
			       "ignored: device LeftHandBoard is not on this robot\n"));
	assert_non_null(strstr(logbuf, "7 good/Device.xml:41: subdevice LHand/Position/Actuator dropped "
			       "with its device LeftHandBoard\n"));
	assert_non_null(strstr(logbuf, "7 good/Device.xml:13: device LeftHandBoard dropped: no LeftHand "
			       "on this robot\n"));
	desc_free(d);
}

static void test_prefs(void **state)
{
	(void)state;
	/* aimed at what does not exist at all: errors */
	assert_errors("bad/pref_missing.xml:4: key Device/SubDeviceList/HeadRoll/Position/Sensor/jointZeroPosition: "
		      "no subdevice 'HeadRoll/Position/Sensor'\n"
		      "bad/pref_missing.xml:5: key Device/DeviceList/BackBoard/BodyId: no device 'BackBoard'\n"
		      "bad/pref_missing.xml:6: key path 'Device/HeadPitch/Position/Sensor/jointZeroPosition' "
		      "must start with Device/SubDeviceList/, Device/DeviceList/ or RobotConfig/\n"
		      "bad/pref_missing.xml:7: key path 'Device/SubDeviceList/HeadPitch' names no key of "
		      "an element\n",
		      "good/Device.xml", "bad/pref_missing.xml", NULL, true);
	assert_errors("bad/pref_values.xml:3: key Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition: "
		      "Value '20x71' is not an integer\n"
		      "bad/pref_values.xml:7: duplicate key RobotConfig/Body/Type (first at bad/pref_values.xml:6)\n",
		      "good/Device.xml", "bad/pref_values.xml", NULL, true);
	assert_errors("bad/pref_types.xml:3: RobotConfig/Body/Device/LeftArm/Version: 'two' is not an integer\n"
		      "bad/pref_types.xml:4: key Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition: "
		      "Type float, but good/Device.xml:31 gives it as int\n",
		      "good/Device.xml", "bad/pref_types.xml", NULL, true);
	/* a head file given as the chest's, and the other way round */
	assert_errors("bad/pref_target.xml:2: Target is 'Head', but this file is loaded as the Chest "
		      "preferences (-b)\n",
		      "good/Device.xml", "bad/pref_target.xml", NULL, true);
	assert_errors("good/body.xml:2: Target is 'Chest', but this file is loaded as the Head "
		      "preferences (-H)\n",
		      "good/Device.xml", NULL, "good/body.xml", true);
	assert_errors_main("bad/pref_target.xml:2: Target is 'Head', but this file is loaded as the Main "
			   "preferences (-M)\n",
			   "good/Device.xml", "bad/pref_target.xml", NULL, NULL);
	/* an override that makes Min > Max is blamed on the override */
	assert_errors_main("bad/pref_minmax.xml:3: subdevice HeadPitch/Position/Actuator: Min 0.600000 is above "
			   "Max 0.514900\n",
			   "good/Device.xml", "bad/pref_minmax.xml", NULL, NULL);
}

/* ------------------------------------------------------------------
 * Part rules
 */

static char tmpdir[64];

static const char *write_prefs(const char *name, const char *target, const char *keys)
{
	static char path[4][128];
	static int turn;
	char *p = path[turn++ % 4];
	FILE *f;

	snprintf(p, 128, "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "<Preferences Target=\"%s\">\n%s</Preferences>\n", target, keys);
	fclose(f);
	return p;
}

#define RC(path, v) "<Key Path=\"RobotConfig/" path "\" Type=\"int\" Value=\"" #v "\"/>\n"

static const char *const all_parts = "Body Head HeadTouch LeftArm RightArm LeftWrist RightWrist "
				     "LeftHand RightHand LeftHandTouch RightHandTouch Legs "
				     "LeftFoot RightFoot";

static void parts_text(const struct desc *d, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < PART_COUNT; i++)
		if (d->parts[i])
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
						desc_part_name(i));
}

static void check_parts(const char *body, const char *head, const char *want)
{
	const char *b = write_prefs("body.xml", "Chest", body);
	const char *h = write_prefs("head.xml", "Head", head);
	struct load r = load_files("good/Device.xml", b, h, true);
	char got[256];
	size_t i;

	if (r.errors)
		fail_msg("%s", r.errors);
	parts_text(r.d, got, sizeof(got));
	if (strcmp(got, want))
		fail_msg("body:\n%shead:\n%sgot:  %s\nwant: %s", body, head, got, want);
	/* every element is kept exactly when its part is there */
	for (i = 0; i < r.d->n_devices; i++)
		assert_int_equal(r.d->devices[i].kept, r.d->parts[r.d->devices[i].part]);
	for (i = 0; i < r.d->n_subdevices; i++)
		assert_int_equal(r.d->subdevices[i].kept,
				 r.d->parts[r.d->subdevices[i].part] &&
				 r.d->devices[r.d->subdevices[i].dev].kept);
	desc_free(r.d);
}

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_desc.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return chdir(DCM_TEST_DATA);
}

static int teardown_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd);
}

static void test_parts(void **state)
{
	(void)state;
	/* nothing said: Body, Head, both arms, legs and feet; no hands */
	check_parts("", "", "Body Head LeftArm RightArm Legs LeftFoot RightFoot");
	/* HeadTouch iff TouchBoard/Version >= 1 */
	check_parts("", RC("Head/Device/TouchBoard/Version", 1),
		    "Body Head HeadTouch LeftArm RightArm Legs LeftFoot RightFoot");
	check_parts("", RC("Head/Device/TouchBoard/Version", 2),
		    "Body Head HeadTouch LeftArm RightArm Legs LeftFoot RightFoot");
	check_parts("", RC("Head/Device/TouchBoard/Version", 0),
		    "Body Head LeftArm RightArm Legs LeftFoot RightFoot");
	/* an arm unless its Version is -1 */
	check_parts(RC("Body/Device/LeftArm/Version", -1), "",
		    "Body Head RightArm Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/RightArm/Version", -1), "",
		    "Body Head LeftArm Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/LeftArm/Version", 0), "",
		    "Body Head LeftArm RightArm Legs LeftFoot RightFoot");
	/* the wrist with an extended arm (2), or with a hand */
	check_parts(RC("Body/Device/LeftArm/Version", 2), "",
		    "Body Head LeftArm RightArm LeftWrist Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/RightArm/Version", 2), "",
		    "Body Head LeftArm RightArm RightWrist Legs LeftFoot RightFoot");
	/* a hand iff Hand/Version >= 1, on an arm; touch iff Version 3 */
	check_parts(RC("Body/Device/Hand/Left/Version", 1), "",
		    "Body Head LeftArm RightArm LeftWrist LeftHand Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/Hand/Left/Version", 2), "",
		    "Body Head LeftArm RightArm LeftWrist LeftHand Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/Hand/Left/Version", 3), "",
		    "Body Head LeftArm RightArm LeftWrist LeftHand LeftHandTouch Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/Hand/Right/Version", 3), "",
		    "Body Head LeftArm RightArm RightWrist RightHand RightHandTouch Legs LeftFoot RightFoot");
	check_parts(RC("Body/Device/Hand/Left/Version", 0), "",
		    "Body Head LeftArm RightArm Legs LeftFoot RightFoot");
	/* no arm: no wrist, hand or hand touch, whatever the hand says */
	check_parts(RC("Body/Device/LeftArm/Version", -1) RC("Body/Device/Hand/Left/Version", 3), "",
		    "Body Head RightArm Legs LeftFoot RightFoot");
	/* legs unless -1; no legs: no feet */
	check_parts(RC("Body/Device/Legs/Version", -1), "", "Body Head LeftArm RightArm");
	check_parts(RC("Body/Device/Legs/Version", -1) RC("Body/Device/Foot/Left/Version", 1), "",
		    "Body Head LeftArm RightArm");
	/* a foot unless its Version is 0 */
	check_parts(RC("Body/Device/Foot/Left/Version", 0), "",
		    "Body Head LeftArm RightArm Legs RightFoot");
	check_parts(RC("Body/Device/Foot/Right/Version", 0), "",
		    "Body Head LeftArm RightArm Legs LeftFoot");
	/* everything */
	check_parts(RC("Body/Device/Hand/Left/Version", 3) RC("Body/Device/Hand/Right/Version", 3),
		    RC("Head/Device/TouchBoard/Version", 1), all_parts);
	/* a Version given as a string that is an integer counts */
	check_parts("<Key Path=\"RobotConfig/Body/Device/Legs/Version\" Type=\"string\" Value=\"-1\"/>\n",
		    "", "Body Head LeftArm RightArm");
}

static void test_parts_bad_value(void **state)
{
	const char *b;
	char *e;

	(void)state;
	b = write_prefs("body.xml", "Chest",
			"<Key Path=\"RobotConfig/Body/Device/Legs/Version\" Type=\"float\" Value=\"1\"/>\n");
	e = errors_of("good/Device.xml", b, NULL, true);
	assert_non_null(strstr(e, ":2: RobotConfig/Body/Device/Legs/Version: Type float, but the Part rules need an int\n"));
	free(e);
}

/* ------------------------------------------------------------------
 * Targets and who owns a key
 */

static void test_targets(void **state)
{
	(void)state;
	assert_string_equal(desc_target_name(DESC_MAIN), "Main");
	assert_string_equal(desc_target_name(DESC_CHEST), "Chest");
	assert_string_equal(desc_target_name(DESC_HEAD), "Head");
	assert_string_equal(desc_target_file(DESC_MAIN), "main.xml");
	assert_string_equal(desc_target_file(DESC_CHEST), "body.xml");
	assert_string_equal(desc_target_file(DESC_HEAD), "head.xml");
	assert_int_equal(desc_target_parse("Chest"), DESC_CHEST);
	assert_int_equal(desc_target_parse("chest"), DESC_CHEST);
	assert_int_equal(desc_target_parse("HEAD"), DESC_HEAD);
	assert_int_equal(desc_target_parse("main"), DESC_MAIN);
	assert_int_equal(desc_target_parse("All"), -1);
	assert_int_equal(desc_target_parse("Body"), -1);
	assert_int_equal(desc_target_parse(""), -1);
}

static void test_key_owner(void **state)
{
	static const struct {
		const char *path, *type;
		enum desc_target owner;
	} cases[] = {
		{ "RobotConfig/Body/Type", NULL, DESC_CHEST },
		{ "RobotConfig/Body/Device/Legs/Version", NULL, DESC_CHEST },
		{ "RobotConfig/Head/Device/TouchBoard/Version", NULL, DESC_HEAD },
		{ "RobotConfig/Head/BaseVersion", NULL, DESC_HEAD },
		{ "RobotConfig/Bodyguard/Version", NULL, DESC_MAIN },
		{ "RobotConfig/Arms/Color", NULL, DESC_MAIN },
		{ "Device/DeviceList/ChestBoard/BodyId", "ChestBoard", DESC_CHEST },
		{ "Device/DeviceList/ChestBoard/BodyNickName", NULL, DESC_CHEST },
		{ "Device/DeviceList/HeadBoard/Address", NULL, DESC_MAIN },
		{ "Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "JointPosition",
		  DESC_CHEST },
		{ "Device/SubDeviceList/HeadPitch/Position/Sensor/Gain", "JointPosition", DESC_MAIN },
		{ "Device/SubDeviceList/HeadPitch/Position/Sensor/GearRatio", "JointPosition",
		  DESC_MAIN },
		{ "Device/SubDeviceList/HeadPitch/Position/Actuator/Kp", "Joint", DESC_MAIN },
		{ "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain", "FSR", DESC_CHEST },
		{ "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Offset", "FSR", DESC_CHEST },
		{ "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Min", "FSR", DESC_MAIN },
		{ "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/XPosition", "FSR", DESC_MAIN },
		{ "Device/SubDeviceList/LFoot/FSR/TotalWeight/Sensor/Gain", "FSRTotalWeight",
		  DESC_MAIN },
		/* the type decides, not the name */
		{ "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain", NULL, DESC_MAIN },
	};
	struct desc *d = load_good();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (desc_key_owner(cases[i].path, cases[i].type) != cases[i].owner)
			fail_msg("%s (%s): owner %s, want %s", cases[i].path,
				 cases[i].type ? cases[i].type : "-",
				 desc_target_name(desc_key_owner(cases[i].path, cases[i].type)),
				 desc_target_name(cases[i].owner));
	}
	/* with the types of a description */
	assert_int_equal(desc_path_owner(d, "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain"),
			 DESC_CHEST);
	assert_int_equal(desc_path_owner(d, "Device/SubDeviceList/ChestBoard/Led/Red/Actuator/Gain"),
			 DESC_MAIN);
	assert_int_equal(desc_path_owner(d, "Device/SubDeviceList/Nope/Gain"), DESC_MAIN);
	assert_int_equal(desc_path_owner(d, "RobotConfig/Head/X/Y"), DESC_HEAD);
	{
		struct desc_path p;

		assert_int_equal(desc_resolve_path(d, "Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Gain",
						   &p), 0);
		assert_non_null(p.sub);
		assert_string_equal(p.sub->name, "LFoot/FSR/FrontLeft/Sensor");
		assert_string_equal(p.key, "Gain");
		assert_int_equal(desc_resolve_path(d, "Device/DeviceList/ChestBoard/BodyId", &p), 0);
		assert_non_null(p.dev);
		assert_null(p.sub);
		assert_string_equal(p.key, "BodyId");
		assert_int_equal(desc_resolve_path(d, "RobotConfig/Body/Type", &p), 0);
		assert_true(p.robot);
		assert_string_equal(p.key, "RobotConfig/Body/Type");
		assert_int_equal(desc_resolve_path(d, "Device/SubDeviceList/Nope/Value", &p), 0);
		assert_null(p.sub);
		assert_int_equal(desc_resolve_path(d, "Device/SubDeviceList/Value", &p), -EINVAL);
		assert_int_equal(desc_resolve_path(d, "Device/SubDeviceList/A/", &p), -EINVAL);
		assert_int_equal(desc_resolve_path(d, "HeadPitch/Position/Sensor/Value", &p), -EINVAL);
		assert_int_equal(desc_resolve_path(d, "RobotConfig/", &p), -EINVAL);
	}
	desc_free(d);
}

#define KEY(path, type, v) "<Key Path=\"" path "\" Type=\"" type "\" Value=\"" v "\"/>\n"

/* Each file sets only the keys it owns: a key in another's file is an error. */
static void test_owner_refused(void **state)
{
	const char *m, *b, *h;
	struct load r;
	char *e;

	(void)state;
	m = write_prefs("main.xml", "Main",
			KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "int", "12")
			KEY("Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Offset", "float", "0.1")
			KEY("RobotConfig/Body/Type", "string", "NAO")
			KEY("Device/DeviceList/ChestBoard/BodyNickName", "string", "x")
			KEY("Device/SubDeviceList/Nope/Sensor/jointZeroPosition", "int", "12"));
	b = write_prefs("body.xml", "Chest",
			KEY("Device/SubDeviceList/HeadPitch/Position/Actuator/Kp", "int", "12")
			KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/Gain", "float", "0.1")
			KEY("RobotConfig/Head/BaseVersion", "string", "V3.3")
			KEY("RobotConfig/Extra/Thing", "int", "1"));
	h = write_prefs("head.xml", "Head",
			KEY("Device/SubDeviceList/HeadPitch/Position/Actuator/Max", "float", "0.1")
			KEY("RobotConfig/Body/Device/Legs/Version", "int", "1"));
	e = errors_main("good/Device.xml", m, b, h, true);
	/* (the key aimed at no subdevice is reported once the others are right) */
	assert_non_null(strstr(e, "main.xml:2: key Device/SubDeviceList/HeadPitch/Position/Sensor/"
			       "jointZeroPosition belongs to the Chest preferences, not to the Main "
			       "preferences\n"));
	assert_non_null(strstr(e, "main.xml:3: key Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/"
			       "Offset belongs to the Chest preferences, not to the Main preferences\n"));
	assert_non_null(strstr(e, "main.xml:4: key RobotConfig/Body/Type belongs to the Chest "
			       "preferences, not to the Main preferences\n"));
	assert_non_null(strstr(e, "main.xml:5: key Device/DeviceList/ChestBoard/BodyNickName belongs "
			       "to the Chest preferences, not to the Main preferences\n"));
	assert_null(strstr(e, "main.xml:6:"));
	assert_non_null(strstr(e, "body.xml:2: key Device/SubDeviceList/HeadPitch/Position/Actuator/Kp "
			       "belongs to the Main preferences, not to the Chest preferences\n"));
	assert_non_null(strstr(e, "body.xml:3: key Device/SubDeviceList/HeadPitch/Position/Sensor/Gain "
			       "belongs to the Main preferences, not to the Chest preferences\n"));
	assert_non_null(strstr(e, "body.xml:4: key RobotConfig/Head/BaseVersion belongs to the Head "
			       "preferences, not to the Chest preferences\n"));
	assert_non_null(strstr(e, "body.xml:5: key RobotConfig/Extra/Thing belongs to the Main "
			       "preferences, not to the Chest preferences\n"));
	assert_non_null(strstr(e, "head.xml:2: key Device/SubDeviceList/HeadPitch/Position/Actuator/Max "
			       "belongs to the Main preferences, not to the Head preferences\n"));
	assert_non_null(strstr(e, "head.xml:3: key RobotConfig/Body/Device/Legs/Version belongs to the "
			       "Chest preferences, not to the Head preferences\n"));
	free(e);

	/* each key in its own file: the load works, Main's RobotConfig keys too */
	m = write_prefs("main.xml", "Main",
			KEY("Device/SubDeviceList/HeadPitch/Position/Actuator/Kp", "int", "12")
			KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/Gain", "float", "0.1")
			KEY("RobotConfig/Extra/Thing", "int", "1"));
	b = write_prefs("body.xml", "Chest",
			KEY("Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition", "int", "12")
			KEY("Device/SubDeviceList/LFoot/FSR/FrontLeft/Sensor/Offset", "float", "0.1")
			KEY("RobotConfig/Body/Type", "string", "NAO")
			KEY("Device/DeviceList/ChestBoard/BodyNickName", "string", "x"));
	h = write_prefs("head.xml", "Head", KEY("RobotConfig/Head/BaseVersion", "string", "V3.3"));
	r = load_main("good/Device.xml", m, b, h, true);
	if (r.errors)
		fail_msg("%s", r.errors);
	assert_int_equal(sub_key(r.d, "HeadPitch/Position/Actuator", "Kp")->num, 12);
	assert_int_equal(sub_key(r.d, "LFoot/FSR/FrontLeft/Sensor", "Offset")->num, 100000);
	assert_int_equal(desc_find_robot_key(r.d, "RobotConfig/Extra/Thing")->num, 1);
	assert_string_equal(desc_find_robot_key(r.d, "RobotConfig/Extra/Thing")->src.file, m);
	assert_int_equal(r.d->n_robot, 3);
	desc_free(r.d);
}

/* ------------------------------------------------------------------
 * The preference actions (actions.c): add
 */

#define JZP "Device/SubDeviceList/HeadPitch/Position/Sensor/jointZeroPosition"

/* The first message of @e, then @e emptied. */
static void assert_first_error(struct desc_errors *e, const char *want)
{
	assert_true(e->n > 0);
	assert_string_equal(e->msgs[0], want);
	desc_errors_free(e);
}

static void test_prefs_add_action(void **state)
{
	struct desc *d0 = load_ok("good/Device.xml", NULL, NULL);
	struct desc_type_key range, none;
	struct desc_errors e;
	struct desc_prefs *doc;
	char *p, *type, *value;
	int kind = 0;

	(void)state;
	desc_errors_init(&e);
	/* a key as dcmctl get takes it: without a prefix, a subdevice's */
	p = desc_full_key_path("HeadPitch/Position/Sensor/jointZeroPosition");
	assert_string_equal(p, JZP);
	free(p);
	p = desc_full_key_path("Device/DeviceList/ChestBoard/BodyId");
	assert_string_equal(p, "Device/DeviceList/ChestBoard/BodyId");
	free(p);

	/* the key's kind and range, and who owns it */
	assert_int_equal(desc_prefs_add_kind(d0, JZP, DESC_CHEST, &range, &e), LIBDCM_KEY_INT);
	assert_true(range.ranged);
	assert_int_equal(range.min, 0);
	assert_int_equal(range.max, 4095);
	assert_int_equal(desc_prefs_add_kind(d0, "RobotConfig/Body/Type", DESC_CHEST, &none, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(desc_prefs_add_kind(d0, JZP, DESC_MAIN, &none, &e), -1);
	assert_first_error(&e, JZP " belongs to the Chest preferences, not to the Main preferences "
			   "(dcmctl preferences add Chest ...)");
	assert_int_equal(desc_prefs_add_kind(d0, "Device/SubDeviceList/Nope/Min", DESC_MAIN, &none,
					     &e), -1);
	assert_first_error(&e, "Device/SubDeviceList/Nope/Min: no subdevice of that name in "
			   "good/Device.xml");
	assert_int_equal(desc_prefs_add_kind(d0, "Device/SubDeviceList/HeadPitch", DESC_MAIN,
					     &none, &e), -1);
	assert_true(e.n == 1 && strstr(e.msgs[0], "not a key path"));
	desc_errors_free(&e);

	/* set it in a new document: added, then replaced; bad values refused */
	assert_int_equal(desc_prefs_open(NULL, DESC_CHEST, &doc, &e), 0);
	assert_int_equal(desc_prefs_add(doc, JZP, LIBDCM_KEY_INT, &range, NULL, "1234", &kind, &e),
			 1);
	assert_int_equal(kind, LIBDCM_KEY_INT);
	assert_int_equal(desc_prefs_add(doc, JZP, LIBDCM_KEY_INT, &range, "int", "1300", &kind, &e),
			 0);
	assert_int_equal(desc_prefs_get(doc, JZP, &type, &value), 0);
	assert_string_equal(type, "int");
	assert_string_equal(value, "1300");
	free(type);
	free(value);
	assert_int_equal(desc_prefs_add(doc, JZP, LIBDCM_KEY_INT, &range, NULL, "x", &kind, &e), -1);
	assert_first_error(&e, JZP ": 'x' is not an integer (the key is an int)");
	assert_int_equal(desc_prefs_add(doc, JZP, LIBDCM_KEY_INT, &range, NULL, "5000", &kind, &e),
			 -1);
	assert_first_error(&e, JZP ": 5000 is outside the key's range, 0 to 4095");
	assert_int_equal(desc_prefs_add(doc, JZP, LIBDCM_KEY_INT, &range, "float", "1", &kind, &e),
			 -1);
	assert_first_error(&e, JZP " is an int, not a float");

	/* a RobotConfig key: the kind asked, else what the value reads as */
	assert_int_equal(desc_prefs_add(doc, "RobotConfig/Body/Type", 0, &none, NULL, "NAO", &kind,
					&e), 1);
	assert_int_equal(kind, LIBDCM_KEY_STRING);
	assert_int_equal(desc_prefs_add(doc, "RobotConfig/Body/X", 0, &none, NULL, "0.5", &kind,
					&e), 1);
	assert_int_equal(kind, LIBDCM_KEY_FLOAT);
	assert_int_equal(desc_prefs_add(doc, "RobotConfig/Body/Y", 0, &none, "string", "7", &kind,
					&e), 1);
	assert_int_equal(kind, LIBDCM_KEY_STRING);
	assert_int_equal(desc_prefs_count(doc), 4);
	assert_int_equal(e.n, 0);
	desc_prefs_free(doc);
	desc_free(d0);
}

/* Key kinds by name, both ways. */
static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(desc_kind_name(LIBDCM_KEY_INT), "int");
	assert_string_equal(desc_kind_name(LIBDCM_KEY_STRING), "string");
	assert_string_equal(desc_kind_name(0), "?");
	assert_string_equal(desc_kind_name(99), "?");
	assert_int_equal(desc_kind_parse("float"), LIBDCM_KEY_FLOAT);
	assert_int_equal(desc_kind_parse("bool"), LIBDCM_KEY_BOOL);
	assert_int_equal(desc_kind_parse("Float"), -1);
	assert_int_equal(desc_kind_parse(""), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_float),
		cmocka_unit_test(test_parse_fraction),
		cmocka_unit_test(test_parse_int_bool),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_overlay_order),
		cmocka_unit_test(test_push_order),
		cmocka_unit_test(test_dry_run),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_shipped),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_semantic),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_dropped_device),
		cmocka_unit_test(test_prefs),
		cmocka_unit_test_setup_teardown(test_parts, setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_parts_bad_value, setup_tmp, teardown_tmp),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_key_owner),
		cmocka_unit_test(test_prefs_add_action),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test_setup_teardown(test_owner_refused, setup_tmp, teardown_tmp),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
