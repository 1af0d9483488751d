// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: dcm-web's model (web/model.c) on a fake key tree
 * (fake_sysfs.c) and a fake /dev/dcm0 (fake_dcm.c):
 *
 *   the channels the rules make of the description's keys, the advertise
 *   message (channels with fields only, JSON schemas), a channel's message
 *   for a frame, an event's message with text to escape, and the metrics
 *   in Prometheus' text format: every line a comment or a sample, the
 *   joints' values from the frame, the latency histogram cumulative.
 */
#include <errno.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_dcm.h"
#include "fake_sysfs.h"
#include "metrics.h"
#include "model.h"
#include "options.h"

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

static const struct web_channel *topic(const char *name)
{
	size_t i;

	for (i = 0; i < model.n_channels; i++)
		if (!strcmp(model.channels[i].topic, name))
			return &model.channels[i];
	return NULL;
}

static void test_channels(void **state)
{
	const struct web_channel *c;

	(void)state;
	assert_int_equal(model.generation, FAKE_GEN);
	c = topic("/joints/position");
	assert_non_null(c);
	assert_int_equal(c->n_fields, 1);
	assert_string_equal(c->fields[0], "HeadPitch");
	assert_int_equal(c->index[0], 1);
	assert_ptr_equal(web_model_channel(&model, c->id), c);
	c = topic("/joints/command");
	assert_non_null(c);
	assert_int_equal(c->n_fields, 1);
	assert_int_equal(c->index[0], 2);
	/* the LED is in no group; a topic without keys has no field */
	assert_int_equal(topic("/temperatures")->n_fields, 0);
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
	s = web_channel_json(topic("/joints/position"), &f, &len);
	assert_non_null(s);
	assert_string_equal(s, "{\"cycle\":7,\"dcm_time_ms\":1234,\"HeadPitch\":0.5}");
	assert_int_equal(len, strlen(s));
	free(s);
	/* a field past the frame is left out, not read */
	f.n_values = 1;
	s = web_channel_json(topic("/joints/command"), &f, &len);
	assert_string_equal(s, "{\"cycle\":7,\"dcm_time_ms\":1234}");
	free(s);
}

static void test_event(void **state)
{
	struct dcm_event_msg ev = { .index = 0, .type = DCM_EV_TEMPERATURE, .time_ms = 99,
				    .value = 2000000, .code = 1 };
	char *s;

	(void)state;
	strcpy(ev.device, "HeadYaw");
	strcpy(ev.text, "a \"quoted\"\nline");
	s = web_event_json(&ev, NULL);
	assert_non_null(s);
	assert_non_null(strstr(s, "\"dcm_time_ms\":99,\"type\":\"temperature\""));
	assert_non_null(strstr(s, "\"value\":2"));
	assert_non_null(strstr(s, "\"device\":\"HeadYaw\""));
	assert_non_null(strstr(s, "\"text\":\"a \\\"quoted\\\"\\nline\""));
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
	assert_non_null(strstr(buf, "\ndcm_time_milliseconds 1234\n"));
	assert_non_null(strstr(buf, "\ndcm_joint_position{joint=\"HeadPitch\"} 0.5\n"));
	assert_non_null(strstr(buf, "\ndcm_joint_command{joint=\"HeadPitch\"} -0.25\n"));
	assert_non_null(strstr(buf, "# TYPE dcm_joint_position gauge\n"));
	/* cumulative buckets: 1, 1+2, ..., 55 in +Inf and the count */
	assert_non_null(strstr(buf, "dcm_cycle_latency_histogram_seconds_bucket{le=\"1e-05\"} 1\n"));
	assert_non_null(strstr(buf, "dcm_cycle_latency_histogram_seconds_bucket{le=\"2e-05\"} 3\n"));
	assert_non_null(strstr(buf, "dcm_cycle_latency_histogram_seconds_bucket{le=\"+Inf\"} 55\n"));
	assert_non_null(strstr(buf, "dcm_cycle_latency_histogram_seconds_count 55\n"));
	/* no family without a key: no temperature in this description */
	assert_null(strstr(buf, "dcm_temperature_celsius"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_channels),
		cmocka_unit_test(test_advertise),
		cmocka_unit_test(test_message),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metrics_down),
		cmocka_unit_test(test_max_connections),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
