// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: dcm-web's model (web/model.c) on a fake key tree
 * (fake_sysfs.c) and a fake /dev/dcm0 (fake_dcm.c):
 *
 *   the channels the rules make of the description's keys, the advertise
 *   message (channels with fields only, JSON schemas), a channel's message
 *   for a frame, an event's message with text to escape, and the metrics
 *   in Prometheus' text format: every line a comment or a sample, the
 *   joints' values from the frame, the latency histogram cumulative, a
 *   family per unit (hands apart from joints, the battery, feet and
 *   inertial unit split), values in their shortest form, the robot's IDs
 *   and nickname as labels of dcm_info (hostile text escaped), and
 *   `promtool check metrics` content with them (exit 0: no lint either).
 */
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "fake_dcm.h"
#include "fake_sysfs.h"
#include "metrics.h"
#include "model.h"
#include "options.h"
#include "queue.h"

static struct dcm *dcm;
static struct web_model model;

static int setup(void **state)
{
	(void)state;
	fake_reset();
	fake.subs[0] = (struct fake_sub){ "ChestBoard/Led/Red/Actuator", DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.subs[1] = (struct fake_sub){ "HeadPitch/Position/Sensor", 0, 0, 0 };
	fake.subs[2] = (struct fake_sub){ "HeadPitch/Position/Actuator", DCM_LOOKUP_F_ACTUATOR, 0, 0 };
	fake.n_subs = 3;
	fake.info_n_devices = 2;
	if (fake_sysfs_setup("test_web"))
		return -1;
	if (dcm_open("/dev/null", &dcm))
		return -1;
	return web_model_build(dcm, fake_sysfs_root, 0, &model);
}

static int teardown(void **state)
{
	(void)state;
	web_model_free(&model);
	dcm_close(dcm);
	return fake_sysfs_teardown();
}

/* The id of the stream's channel @name, or 0. */
static unsigned int topic(const char *name)
{
	unsigned int i;

	for (i = 1; i <= model.n_channels; i++)
		if (web_model_channel(&model, i) &&
		    !strcmp(web_model_channel(&model, i)->topic, name))
			return i;
	return 0;
}

static void test_channels(void **state)
{
	const struct rec_channel *c;
	unsigned int i;

	(void)state;
	assert_int_equal(model.generation, FAKE_GEN);
	c = web_model_channel(&model, topic("/joints/position"));
	assert_non_null(c);
	assert_int_equal(c->n, 1);
	assert_string_equal(c->fields[0], "HeadPitch");
	assert_int_equal(c->index[0], 1);
	c = web_model_channel(&model, topic("/joints/command"));
	assert_non_null(c);
	assert_int_equal(c->n, 1);
	assert_int_equal(c->index[0], 2);
	/* a topic without keys is not a channel; the LED, in no group, is not streamed */
	assert_int_equal(topic("/temperatures"), 0);
	assert_int_equal(topic(REC_TOPIC_KEYS), 0);
	for (i = 1; i <= model.n_channels; i++)
		if (!web_model_channel(&model, i))
			assert_string_equal(model.ch.c[i - 1].topic, REC_TOPIC_KEYS);
	assert_null(web_model_channel(&model, 0));
	assert_null(web_model_channel(&model, (unsigned int)model.n_channels + 1));
	assert_int_equal(model.n_keys, 3);
}

static void test_advertise(void **state)
{
	char *s;

	(void)state;
	s = web_advertise_json(&model);
	assert_non_null(s);
	assert_non_null(strstr(s, "{\"op\":\"advertise\",\"channels\":["));
	assert_non_null(strstr(s, "\"topic\":\"/joints/position\",\"encoding\":\"json\","
			       "\"schemaName\":\"dcm.JointPositions\""));
	assert_non_null(strstr(s, "\"schemaEncoding\":\"jsonschema\""));
	/* the schema is a string holding JSON */
	assert_non_null(strstr(s, "\\\"HeadPitch\\\":{\\\"type\\\":\\\"number\\\"}"));
	assert_non_null(strstr(s, "\"topic\":\"/cycle\""));
	assert_non_null(strstr(s, "\"topic\":\"/events\""));
	/* channels without a field are not advertised */
	assert_null(strstr(s, "\"topic\":\"/temperatures\""));
	free(s);
}

static void test_message(void **state)
{
	double values[3] = { 1, 0.5, -0.25 };
	struct dcm_values_frame f = { .cycle = 7, .time = 1234, .n_values = 3,
				      .values = values };
	size_t len = 0;
	char *s;

	(void)state;
	s = rec_channel_json(web_model_channel(&model, topic("/joints/position")), f.cycle, f.time,
			     f.values, f.n_values, &len);
	assert_non_null(s);
	assert_string_equal(s, "{\"cycle\":7,\"dcm_time_ms\":1234,\"HeadPitch\":0.5}");
	assert_int_equal(len, strlen(s));
	free(s);
	/* a field past the frame is left out, not read */
	f.n_values = 1;
	s = rec_channel_json(web_model_channel(&model, topic("/joints/command")), f.cycle, f.time,
			     f.values, f.n_values, &len);
	assert_string_equal(s, "{\"cycle\":7,\"dcm_time_ms\":1234}");
	free(s);
}

static void test_event(void **state)
{
	struct dcm_event_msg ev = { .index = 0, .type = DCM_EV_TEMPERATURE, .time_ms = 99,
				    .value = 2000000, .code = 1 };
	size_t len;
	char *s;

	(void)state;
	strcpy(ev.device, "HeadYaw");
	strcpy(ev.text, "a \"quoted\"\nline");
	s = rec_event_json(&ev, &len);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"dcm_time_ms\":99,\"type\":\"temperature\""));
	assert_non_null(strstr(s, "\"value\":2"));
	assert_non_null(strstr(s, "\"device\":\"HeadYaw\""));
	assert_non_null(strstr(s, "\"text\":\"a \\\"quoted\\\"\\nline\""));
	assert_int_equal(len, strlen(s));
	free(s);
}

/* Every line of the exposition: a HELP or TYPE comment, or a sample. */
static void check_format(const char *text)
{
	regex_t sample, comment;
	char *copy = strdup(text), *line, *save;

	assert_int_equal(regcomp(&sample, "^[a-zA-Z_:][a-zA-Z0-9_:]*"
				 "(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"([^\"\\\\]|\\\\.)*\""
				 "(,[a-zA-Z_][a-zA-Z0-9_]*=\"([^\"\\\\]|\\\\.)*\")*\\})? "
				 "(NaN|[+-]Inf|-?[0-9.e+-]+)$", REG_EXTENDED | REG_NOSUB), 0);
	assert_int_equal(regcomp(&comment, "^# (HELP [a-z_]+ .+|TYPE [a-z_]+ "
				 "(gauge|counter|summary|histogram))$",
				 REG_EXTENDED | REG_NOSUB), 0);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (regexec(line[0] == '#' ? &comment : &sample, line, 0, NULL, 0))
			fail_msg("not in the text format: '%s'", line);
	regfree(&sample);
	regfree(&comment);
	free(copy);
}

/* `promtool check metrics` of @text: its exit status (127: no promtool). */
static int promtool_check(const char *text)
{
	FILE *p = popen("promtool check metrics >&2", "w");
	int st;

	if (!p)
		return -1;
	fputs(text, p);
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_metrics(void **state)
{
	double values[3] = { 1, 0.5, -0.25 };
	struct dcm_values_frame f = { .cycle = 7, .time = 1234, .n_values = 3,
				      .values = values };
	struct web_counters c = { .ws_clients = 2, .frames = 10, .dropped = 1, .stalled = 4 };
	char *buf = NULL;
	size_t sz;
	FILE *out;
	unsigned int i;

	(void)state;
	fake.stats.cycles = 500;
	fake.stats.overruns = 3;
	for (i = 0; i < 10; i++)
		fake.stats.latency_hist[i] = i + 1;
	out = open_memstream(&buf, &sz);
	assert_non_null(out);
	assert_int_equal(web_metrics(out, dcm, &model, &f, &c), 0);
	assert_int_equal(fclose(out), 0);
	check_format(buf);
	assert_non_null(strstr(buf, "\ndcm_up 1\n"));
	assert_non_null(strstr(buf, "\ndcm_web_clients 2\n"));
	assert_non_null(strstr(buf, "\ndcm_web_dropped_messages_total 1\n"));
	assert_non_null(strstr(buf, "\ndcm_web_stalled_clients_total 4\n"));
	assert_non_null(strstr(buf, "\ndcm_cycles_total 500\n"));
	assert_non_null(strstr(buf, "\ndcm_overruns_total 3\n"));
	/* DCM time in seconds, a base unit */
	assert_non_null(strstr(buf, "\ndcm_time_seconds 1.234\n"));
	assert_null(strstr(buf, "milliseconds"));
	assert_non_null(strstr(buf, "\ndcm_joint_position_radians{joint=\"HeadPitch\"} 0.5\n"));
	assert_non_null(strstr(buf, "\ndcm_joint_command_radians{joint=\"HeadPitch\"} -0.25\n"));
	assert_non_null(strstr(buf, "# TYPE dcm_joint_position_radians gauge\n"));
	/* cumulative buckets: 1, 1+2, ..., 55 in +Inf and the count */
	assert_non_null(strstr(buf, "dcm_cycle_wakeup_latency_seconds_bucket{le=\"1e-05\"} 1\n"));
	assert_non_null(strstr(buf, "dcm_cycle_wakeup_latency_seconds_bucket{le=\"2e-05\"} 3\n"));
	assert_non_null(strstr(buf, "dcm_cycle_wakeup_latency_seconds_bucket{le=\"+Inf\"} 55\n"));
	assert_non_null(strstr(buf, "dcm_cycle_wakeup_latency_seconds_count 55\n"));
	assert_null(strstr(buf, "histogram_"));
	/* no family without a key: no temperature in this description */
	assert_null(strstr(buf, "dcm_temperature_celsius"));
	assert_int_equal(promtool_check(buf), 0);
	free(buf);
}

static void test_metrics_down(void **state)
{
	struct dcm_values_frame f = { 0 };
	struct web_counters c = { 0 };
	char *buf = NULL;
	size_t sz;
	FILE *out;

	(void)state;
	fake.fail_errno[FAKE_NR(DCM_IOC_STATS)] = ENODEV;
	out = open_memstream(&buf, &sz);
	assert_non_null(out);
	assert_int_equal(web_metrics(out, dcm, &model, &f, &c), -ENODEV);
	assert_int_equal(fclose(out), 0);
	fake.fail_errno[FAKE_NR(DCM_IOC_STATS)] = 0;
	check_format(buf);
	assert_non_null(strstr(buf, "dcm_up 0\n"));
	assert_null(strstr(buf, "dcm_cycles_total"));
	free(buf);
}

/* A subdevice in the fake tree and in the fake controller, after the three. */
static void put_sub(const char *name, int64_t micro)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Value", name);
	fake_sysfs_put(rel, "0.000000");
	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Type", name);
	fake_sysfs_put(rel, "Sensor");
	snprintf(rel, sizeof(rel), "dcm0/SubDeviceList/%s/Device", name);
	fake_sysfs_put(rel, "ChestBoard");
	assert_true(fake.n_subs < FAKE_MAX_SUBS);
	fake.subs[fake.n_subs++] = (struct fake_sub){ name, 0, micro, 0 };
}

/* The field of channel @t in model @m named @name. */
static bool has_field(const struct web_model *m, const char *t, const char *name)
{
	size_t i, j;

	for (i = 0; i < m->ch.n; i++) {
		if (strcmp(m->ch.c[i].topic, t))
			continue;
		for (j = 0; j < m->ch.c[i].n; j++)
			if (!strcmp(m->ch.c[i].fields[j], name))
				return true;
	}
	return false;
}

/*
 * One unit a family: the hands' aperture apart from the joints' angles,
 * the battery's charge and current, the feet's loads (in g) and centres of
 * pressure, the inertial unit's angles, rates, accelerations and raw
 * readings each their own family; the stream's fields unchanged. The IDs
 * and nickname are labels of dcm_info, a hostile nickname escaped; values
 * print in their shortest form; promtool accepts it all.
 */
static void test_metric_units(void **state)
{
	static const struct { const char *name; double v; } subs[] = {
		{ "LHand/Position/Sensor", 0.25 },
		{ "Battery/Charge/Sensor", 0.99 },
		{ "Battery/Current/Sensor", -1.5 },
		{ "LFoot/FSR/FrontLeft/Sensor", 0.5 },
		{ "LFoot/FSR/CenterOfPressure/X/Sensor", 0.02 },
		{ "InertialSensor/AccX/Sensor", -56 },
		{ "InertialSensor/AngleX/Sensor", 0.1 },
		{ "InertialSensor/GyrZ/Sensor", 0.3 },
		{ "InertialSensor/AccelerometerZ/Sensor", -9.81 },
	};
	static const char *const want[] = {
		"\ndcm_hand_position_ratio{joint=\"LHand\"} 0.25\n",
		"\ndcm_joint_position_radians{joint=\"HeadPitch\"} 0.5\n",
		"\ndcm_battery_charge_ratio 0.99\n",
		"\ndcm_battery_current_amperes -1.5\n",
		"\ndcm_foot_load_grams{key=\"LFoot_FrontLeft\"} 500\n",
		"\ndcm_foot_center_of_pressure_meters{key=\"LFoot_CenterOfPressure_X\"} 0.02\n",
		"\ndcm_inertial_raw{key=\"AccX\"} -56\n",
		"\ndcm_inertial_angle_radians{key=\"AngleX\"} 0.1\n",
		"\ndcm_inertial_angular_velocity_radians_per_second{key=\"GyrZ\"} 0.3\n",
		"\ndcm_inertial_acceleration_meters_per_second_squared{key=\"AccelerometerZ\"} -9.81\n",
		"\ndcm_info{name=\"dcm0\",driver=\"dcm_sim\",body_id=\"AL1100100000000\","
		"head_id=\"HEAD-7\",nickname=\"Na\\\"o \\\\1?\"} 1\n",
	};
	double values[FAKE_MAX_SUBS] = { 1, 0.5, -0.25 };
	struct dcm_values_frame f = { .cycle = 7, .time = 1234, .values = values };
	struct web_counters c = { 0 };
	struct web_model m2;
	char *buf = NULL, *p;
	unsigned int n0 = fake.n_subs;
	size_t i, sz;
	FILE *out;

	(void)state;
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		values[fake.n_subs] = subs[i].v;
		put_sub(subs[i].name, (int64_t)(subs[i].v * 1e6));
	}
	f.n_values = fake.n_subs;
	fake_sysfs_put("dcm0/RobotConfig/Head/FullHeadId", "HEAD-7");
	/* a quote, a backslash and a byte that is not UTF-8 */
	fake_sysfs_put("dcm0/DeviceList/ChestBoard/BodyNickName", "Na\"o \\1\xff");
	assert_int_equal(setenv("DCM_SYSFS_ROOT", fake_sysfs_root, 1), 0);
	assert_int_equal(web_model_build(dcm, fake_sysfs_root, 0, &m2), 0);
	out = open_memstream(&buf, &sz);
	assert_non_null(out);
	assert_int_equal(web_metrics(out, dcm, &m2, &f, &c), 0);
	assert_int_equal(fclose(out), 0);
	unsetenv("DCM_SYSFS_ROOT");
	check_format(buf);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i])) {
			fputs(buf, stderr);
			fail_msg("missing: %s (the metrics above)", want[i]);
		}
	/* no mixed family is left, and every family is declared once */
	assert_null(strstr(buf, "dcm_battery{"));
	assert_null(strstr(buf, "dcm_foot{"));
	assert_null(strstr(buf, "dcm_inertial{"));
	assert_null(strstr(buf, "dcm_joint_position_radians{joint=\"LHand\"}"));
	p = strstr(buf, "# TYPE dcm_inertial_raw gauge\n");
	assert_non_null(p);
	assert_null(strstr(p + 1, "# TYPE dcm_inertial_raw gauge\n"));
	/* the stream's fields are as before */
	assert_true(has_field(&m2, "/joints/position", "LHand"));
	assert_true(has_field(&m2, "/battery", "Charge"));
	assert_true(has_field(&m2, "/feet", "LFoot_CenterOfPressure_X"));
	assert_true(has_field(&m2, "/feet", "LFoot_FrontLeft"));
	assert_true(has_field(&m2, "/inertial", "GyrZ"));
	assert_true(has_field(&m2, "/inertial", "AccelerometerZ"));
	assert_int_equal(promtool_check(buf), 0);
	free(buf);
	web_model_free(&m2);
	fake.n_subs = n0;
}

/* The connections under RLIMIT_NOFILE: the reserve, then two each. */
static void test_max_connections(void **state)
{
	(void)state;
	/* 1024: (1024 - 32) / 2 */
	assert_int_equal(web_max_connections(1024, 0), 496);
	assert_int_equal(web_max_connections(64, 0), 16);
	assert_int_equal(web_max_connections(65, 0), 16);
	/* --max-connections below the limit is taken, above it capped */
	assert_int_equal(web_max_connections(1024, 100), 100);
	assert_int_equal(web_max_connections(1024, 5000), 496);
	assert_int_equal(web_max_connections(64, 16), 16);
	/* too few descriptors for one connection */
	assert_int_equal(web_max_connections(WEB_FD_RESERVE, 0), 0);
	assert_int_equal(web_max_connections(WEB_FD_RESERVE + 1, 0), 0);
	assert_int_equal(web_max_connections(WEB_FD_RESERVE + 2, 0), 1);
	assert_int_equal(web_max_connections(0, 3), 0);
	/* no limit (RLIM_INFINITY) or a huge one: the cap */
	assert_int_equal(web_max_connections(UINT64_MAX, 0), WEB_MAX_CONNECTIONS);
	assert_int_equal(web_max_connections(1u << 20, 0), WEB_MAX_CONNECTIONS);
	assert_int_equal(web_max_connections(UINT64_MAX, 10), 10);
}

/*
 * A client's queue: frames stop WEB_QUEUE_KEPT short of full, events (and
 * the server's texts) may take those last places, nothing passes full.
 */
static void test_queue_room(void **state)
{
	unsigned int n, frames = 0, events = 0;

	(void)state;
	for (n = 0; n <= WEB_QUEUE_LEN; n++) {
		frames += web_queue_room(n, false);
		events += web_queue_room(n, true);
	}
	assert_int_equal(frames, WEB_QUEUE_LEN - WEB_QUEUE_KEPT);
	assert_int_equal(events, WEB_QUEUE_LEN);
	assert_true(WEB_QUEUE_KEPT > 0 && WEB_QUEUE_KEPT < WEB_QUEUE_LEN);
	assert_false(web_queue_room(WEB_QUEUE_LEN - WEB_QUEUE_KEPT, false));
	assert_true(web_queue_room(WEB_QUEUE_LEN - WEB_QUEUE_KEPT, true));
	assert_false(web_queue_room(WEB_QUEUE_LEN, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_queue_room),
		cmocka_unit_test(test_advertise),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metrics_down),
		cmocka_unit_test(test_metric_units),
		cmocka_unit_test(test_max_connections),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
