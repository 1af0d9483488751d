// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web: what the running description offers to the stream and the
 * metrics. The stream's channels are the recordings' (rec/channels.c:
 * keys grouped by a prefix and a suffix of their names, one JSON object a
 * channel a cycle), so that a recording and the live view say the same;
 * the keys no group takes (/keys) are recorded, not streamed. The metric
 * families are the rules below, a rule a family.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/dcm.h>

#include "json.h"
#include "model.h"

/*
 * One rule: the keys named PREFIX<middle>SUFFIX go to the metric family
 * METRIC{LABEL="FPRE<middle>"} (no label when LABEL is NULL), their value
 * times SCALE in the metric's unit. The middle may be empty only when
 * FPRE names the key. A rule without METRIC exports none of its keys: a
 * key whose unit is unknown is not put in a family of another unit. The
 * first rule a key matches takes it.
 */
struct rule {
	const char *prefix;
	const char *suffix;
	const char *fpre;
	const char *metric;
	const char *label;
	const char *type;	/* "gauge" or "counter" */
	const char *help;
	double scale;
};

static const struct rule rules[] = {
	/* The hands' positions are an aperture (0 closed, 1 open), not an angle. */
	{ "LHand", "/Position/Sensor", "LHand",
	  "dcm_hand_position_ratio", "joint", "gauge",
	  "Hand aperture sensor, 0 closed to 1 open (Position/Sensor)", 1 },
	{ "RHand", "/Position/Sensor", "RHand",
	  "dcm_hand_position_ratio", "joint", "gauge",
	  "Hand aperture sensor, 0 closed to 1 open (Position/Sensor)", 1 },
	{ "", "/Position/Sensor", "",
	  "dcm_joint_position_radians", "joint", "gauge",
	  "Joint position sensor, rad (Position/Sensor)", 1 },
	{ "LHand", "/Position/Actuator", "LHand",
	  "dcm_hand_command_ratio", "joint", "gauge",
	  "Hand aperture command sent to the boards, 0 closed to 1 open (Position/Actuator)", 1 },
	{ "RHand", "/Position/Actuator", "RHand",
	  "dcm_hand_command_ratio", "joint", "gauge",
	  "Hand aperture command sent to the boards, 0 closed to 1 open (Position/Actuator)", 1 },
	{ "", "/Position/Actuator", "",
	  "dcm_joint_command_radians", "joint", "gauge",
	  "Joint position command sent to the boards, rad (Position/Actuator)", 1 },
	{ "", "/Hardness/Actuator", "",
	  "dcm_joint_stiffness", "joint", "gauge", "Joint stiffness, 0 to 1 (Hardness/Actuator)", 1 },
	{ "", "/ElectricCurrent/Sensor", "",
	  "dcm_joint_current_amperes", "joint", "gauge", "Joint motor current, A", 1 },
	{ "", "/Temperature/Sensor", "",
	  "dcm_temperature_celsius", "key", "gauge", "Temperature, degrees Celsius", 1 },
	{ "", "/Temperature/Sensor/Status", "",
	  "dcm_temperature_status", "key", "gauge",
	  "Temperature status word of a joint or the battery", 1 },
	{ "Battery/Charge", "/Sensor", "Charge",
	  "dcm_battery_charge_ratio", NULL, "gauge", "Battery charge, 0 to 1", 1 },
	{ "Battery/Current", "/Sensor", "Current",
	  "dcm_battery_current_amperes", NULL, "gauge",
	  "Battery current, A, above 0 when charging", 1 },
	{ "Battery/", "/Sensor", "", NULL, NULL, NULL, NULL, 0 },
	{ "Battery/", "/Sensor/Status", "",
	  "dcm_battery_status", "key", "gauge", "Battery status word", 1 },
	{ "LFoot/FSR/CenterOfPressure/", "/Sensor", "LFoot_CenterOfPressure_", "dcm_foot_center_of_pressure_meters", "key", "gauge",
	  "Centre of pressure of a foot, m", 1 },
	{ "RFoot/FSR/CenterOfPressure/", "/Sensor", "RFoot_CenterOfPressure_", "dcm_foot_center_of_pressure_meters", "key", "gauge",
	  "Centre of pressure of a foot, m", 1 },
	{ "LFoot/FSR/", "/Sensor", "LFoot_",
	  "dcm_foot_load_grams", "key", "gauge",
	  "Load on a foot's pressure sensor, or on the foot (TotalWeight), g", 1000 },
	{ "RFoot/FSR/", "/Sensor", "RFoot_",
	  "dcm_foot_load_grams", "key", "gauge",
	  "Load on a foot's pressure sensor, or on the foot (TotalWeight), g", 1000 },
	{ "InertialSensor/Angle", "/Sensor", "Angle",
	  "dcm_inertial_angle_radians", "key", "gauge", "Inertial unit's angles, rad", 1 },
	{ "InertialSensor/Gyroscope", "/Sensor", "Gyroscope",
	  "dcm_inertial_angular_velocity_radians_per_second", "key", "gauge",
	  "Inertial unit's rates of turn, rad/s", 1 },
	{ "InertialSensor/GyrZ", "/Sensor", "GyrZ",
	  "dcm_inertial_angular_velocity_radians_per_second", "key", "gauge",
	  "Inertial unit's rates of turn, rad/s", 1 },
	{ "InertialSensor/Accelerometer", "/Sensor", "Accelerometer",
	  "dcm_inertial_acceleration_meters_per_second_squared", "key", "gauge",
	  "Inertial unit's accelerations, m/s^2", 1 },
	{ "InertialSensor/Acc", "/Sensor", "Acc",
	  "dcm_inertial_raw", "key", "gauge",
	  "Inertial unit's raw readings, as the board sends them (AccX, GyrX, GyrRef...)", 1 },
	{ "InertialSensor/Gyr", "/Sensor", "Gyr",
	  "dcm_inertial_raw", "key", "gauge",
	  "Inertial unit's raw readings, as the board sends them (AccX, GyrX, GyrRef...)", 1 },
	{ "InertialSensor/", "/Sensor", "", NULL, NULL, NULL, NULL, 0 },
	{ DCM_PREFIX_DEVICE, "/Available", "",
	  "dcm_board_available", "board", "gauge", "Whether the board answers (Available)", 1 },
	{ DCM_PREFIX_DEVICE, "/Ack", "",
	  "dcm_board_ack_total", "board", "counter", "Messages the board acknowledged (Ack)", 1 },
	{ DCM_PREFIX_DEVICE, "/Nack", "",
	  "dcm_board_nack_total", "board", "counter",
	  "Messages the board did not acknowledge (Nack)", 1 },
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

/* The middle of NAME under rule R, or NULL. */
static const char *rule_middle(const struct rule *r, const char *name, size_t *len)
{
	size_t n = strlen(name), p = strlen(r->prefix), s = strlen(r->suffix);

	if (n < p + s || (n == p + s && !r->fpre[0]) || strncmp(name, r->prefix, p) ||
	    strcmp(name + n - s, r->suffix))
		return NULL;
	*len = n - p - s;
	return name + p;
}

/* Key @name at @index of a frame as a metric, if a rule with a family takes it. */
static int add_metric(struct web_model *m, const char *name, uint32_t index)
{
	struct web_metric *x;
	unsigned int ri;
	const char *mid;
	size_t mlen;
	char *l;

	for (ri = 0; ri < N_RULES; ri++) {
		mid = rule_middle(&rules[ri], name, &mlen);
		if (mid)
			break;
	}
	if (ri == N_RULES || !rules[ri].metric)
		return 0;
	if (asprintf(&l, "%s%.*s", rules[ri].fpre, (int)mlen, mid) < 0)
		return -ENOMEM;
	x = realloc(m->metrics, (m->n_metrics + 1) * sizeof(*x));
	if (!x) {
		free(l);
		return -ENOMEM;
	}
	m->metrics = x;
	x[m->n_metrics++] = (struct web_metric){ ri, l, index };
	return 0;
}

/* Key @name at @index of a frame: on its channel, in its metric family. */
static int add_key(struct web_model *m, const char *name, uint32_t index)
{
	struct web_key *k;
	int r;

	k = realloc(m->keys, (m->n_keys + 1) * sizeof(*k));
	if (!k)
		return -ENOMEM;
	m->keys = k;
	k[m->n_keys].name = strdup(name);
	if (!k[m->n_keys].name)
		return -ENOMEM;
	k[m->n_keys].index = index;
	m->n_keys++;
	r = rec_channels_add(&m->ch, name, index);
	return r ? r : add_metric(m, name, index);
}

/* A live key NAME, if the description has it. */
static int try_live(struct web_model *m, struct dcm *dcm, const char *name)
{
	struct dcm_key k;

	if (dcm_lookup(dcm, name, &k) || !(k.flags & LIBDCM_KEY_LIVE))
		return 0;
	return add_key(m, name, LIBDCM_HANDLE_INDEX(k.handle));
}

/* The subdevices, and the status words of their sensors (live keys, ABI 1.4). */
static int model_subdevices(struct web_model *m, struct dcm *dcm, const struct dcm_tree *t)
{
	char name[LIBDCM_KEY_NAME_LEN + 16];
	size_t i, n = dcm_tree_n_subdevices(t);
	int r;

	for (i = 0; i < n; i++) {
		const struct dcm_tree_subdevice *s = dcm_tree_subdevice(t, i);

		r = add_key(m, s->name, LIBDCM_HANDLE_INDEX(s->handle));
		if (r)
			return r;
		snprintf(name, sizeof(name), "%s/Status", s->name);
		if (strstr(s->name, "/Sensor") && strlen(s->name) > 7 &&
		    !strcmp(s->name + strlen(s->name) - 7, "/Sensor")) {
			r = try_live(m, dcm, name);
			if (r)
				return r;
		}
	}
	return 0;
}

/* The devices' live keys: Available, Ack, Nack. */
static int model_devices(struct web_model *m, struct dcm *dcm, const struct dcm_tree *t)
{
	static const char *const dkeys[] = { "Available", "Ack", "Nack" };
	char name[LIBDCM_KEY_NAME_LEN + 16];
	size_t i, n = dcm_tree_n_devices(t);
	unsigned int k;
	int r;

	for (i = 0; i < n; i++) {
		const struct dcm_tree_device *d = dcm_tree_device(t, i);

		for (k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), DCM_PREFIX_DEVICE "%s/%s", d->name, dkeys[k]);
			r = try_live(m, dcm, name);
			if (r)
				return r;
		}
	}
	return 0;
}

/**
 * web_model_build() - the channels and keys of the running description
 * @dcm: the controller, open; its frames get the live keys (dcm_frame_keys())
 * @sysfs_root: as for dcm_tree_read() (NULL: /sys/class/dcm)
 * @index: its index, for sysfs
 * @m: filled; web_model_free() frees it
 *
 * Return: 0, or -errno (-ENODEV or -ENOENT with no description).
 */
int web_model_build(struct dcm *dcm, const char *sysfs_root, unsigned int index,
		    struct web_model *m)
{
	struct dcm_tree *t = NULL;
	size_t i, max = 0;
	int r;

	memset(m, 0, sizeof(*m));
	r = dcm_frame_keys(dcm, true);
	if (r)
		return r;
	r = dcm_tree_read(dcm, sysfs_root, index, &t);
	if (r)
		return r;
	m->generation = dcm_tree_generation(t);
	r = model_subdevices(m, dcm, t);
	if (!r)
		r = model_devices(m, dcm, t);
	if (r)
		goto out;
	for (i = 0; i < m->n_keys; i++)
		if (m->keys[i].index + 1 > max)
			max = m->keys[i].index + 1;
	m->n_handles = max;
	rec_channels_trim(&m->ch);
	m->n_channels = m->ch.n;
	rec_ros_init(&m->ros);
	for (i = 0; i < m->n_keys; i++)
		rec_ros_add(&m->ros, m->keys[i].name, m->keys[i].index);
out:
	dcm_tree_free(t);
	if (r)
		web_model_free(m);
	return r;
}

void web_model_free(struct web_model *m)
{
	size_t i;

	rec_channels_free(&m->ch);
	for (i = 0; i < m->n_metrics; i++)
		free(m->metrics[i].label);
	free(m->metrics);
	for (i = 0; i < m->n_keys; i++)
		free(m->keys[i].name);
	free(m->keys);
	memset(m, 0, sizeof(*m));
}

/**
 * web_model_channel() - the stream's channel of an id
 * @m: the model
 * @id: a channel id, from 1
 *
 * Return: the group channel, or NULL (no such group, or /keys, which is
 * recorded, not streamed).
 */
const struct rec_channel *web_model_channel(const struct web_model *m, unsigned int id)
{
	const struct rec_channel *c;

	if (id < 1 || id > m->n_channels)
		return NULL;
	c = &m->ch.c[id - 1];
	return c->n && strcmp(c->topic, REC_TOPIC_KEYS) ? c : NULL;
}

/* ---- JSON ---- */

static const char cycle_schema[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"cycles\":{\"type\":\"integer\"},\"overruns\":{\"type\":\"integer\"},"
	"\"missed\":{\"type\":\"integer\"},\"work_overruns\":{\"type\":\"integer\"},"
	"\"latency_us\":{\"type\":\"object\",\"properties\":{\"p50\":{\"type\":\"number\"},"
	"\"p99\":{\"type\":\"number\"},\"p99_9\":{\"type\":\"number\"},\"max\":{\"type\":\"number\"}}},"
	"\"work_us\":{\"type\":\"object\",\"properties\":{\"p50\":{\"type\":\"number\"},"
	"\"p99\":{\"type\":\"number\"},\"p99_9\":{\"type\":\"number\"},\"max\":{\"type\":\"number\"}}},"
	"\"histogram\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
	"\"below_us\":{\"type\":[\"number\",\"null\"]},\"count\":{\"type\":\"integer\"}}}}}}";

static void advertise_as(struct json_writer *w, unsigned int id, const struct rec_ros_info *c)
{
	json_begin_object(w, NULL);
	json_uint(w, "id", id);
	json_string(w, "topic", c->topic);
	json_string(w, "encoding", c->encoding);
	json_string(w, "schemaName", c->schema_name);
	json_string(w, "schema", c->schema);
	json_string(w, "schemaEncoding", c->schema_encoding);
	json_end_object(w);
}

/* A channel of JSON messages with a JSON schema. */
static void advertise_one(struct json_writer *w, unsigned int id, const char *topic,
			  const char *schema_name, const char *schema)
{
	const struct rec_ros_info c = { topic, "json", schema_name, schema, "jsonschema" };

	advertise_as(w, id, &c);
}

char *web_advertise_json(const struct web_model *m)
{
	struct json_writer w;
	char *buf = NULL;
	size_t sz, i;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_string(&w, "op", "advertise");
	json_begin_array(&w, "channels");
	for (i = 1; i <= m->n_channels; i++) {
		const struct rec_channel *c = web_model_channel(m, (unsigned int)i);
		char *schema;

		if (!c)
			continue;
		schema = rec_channel_schema(c);
		if (!schema)
			continue;
		advertise_one(&w, (unsigned int)i, c->topic, c->schema_name, schema);
		free(schema);
	}
	advertise_one(&w, (unsigned int)m->n_channels + 1 + WEB_CHAN_CYCLE_OFFSET, "/cycle",
		      "dcm.CycleStats", cycle_schema);
	advertise_one(&w, (unsigned int)m->n_channels + 1 + WEB_CHAN_EVENTS_OFFSET,
		      REC_TOPIC_EVENTS, REC_SCHEMA_EVENTS, rec_events_schema);
	for (i = 0; i < REC_ROS_CHANNELS; i++) {
		struct rec_ros_info ri;

		if (!rec_ros_has(&m->ros, (unsigned int)i))
			continue;
		rec_ros_info((unsigned int)i, &ri);
		advertise_as(&w, web_chan_ros(m, (unsigned int)i), &ri);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
	return json_mem_message(f, &buf, NULL);
}

char *web_cycle_json(struct dcm *dcm, size_t *len)
{
	static const char *const pct[DCM_PCT_COUNT] = { "p50", "p99", "p99_9", "max" };
	struct dcm_ioc_cycle_stats cs;
	struct json_writer w;
	struct dcm_stats st;
	char *buf = NULL;
	size_t sz;
	unsigned int i;
	FILE *f;

	if (dcm_stats(dcm, &st))
		return NULL;
	memset(&cs, 0, sizeof(cs));
	if (ioctl(dcm_fd(dcm), DCM_IOC_CYCLE_STATS, &cs))
		memset(&cs, 0, sizeof(cs));
	f = open_memstream(&buf, &sz);
	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "cycles", st.cycles);
	json_uint(&w, "overruns", st.overruns);
	json_uint(&w, "missed", cs.missed);
	json_uint(&w, "work_overruns", cs.work_overruns);
	json_begin_object(&w, "latency_us");
	for (i = 0; i < DCM_PCT_COUNT; i++)
		json_double(&w, pct[i], cs.latency_ns[i] / 1e3);
	json_end_object(&w);
	json_begin_object(&w, "work_us");
	for (i = 0; i < DCM_PCT_COUNT; i++)
		json_double(&w, pct[i], cs.work_ns[i] / 1e3);
	json_end_object(&w);
	json_begin_array(&w, "histogram");
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++) {
		uint64_t b = dcm_latency_bucket_ns(i);

		json_begin_object(&w, NULL);
		if (b == UINT64_MAX)
			json_null(&w, "below_us");
		else
			json_double(&w, "below_us", b / 1e3);
		json_uint(&w, "count", st.latency_hist[i]);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
	return json_mem_message(f, &buf, len);
}

unsigned int web_rule_count(void)
{
	return (unsigned int)N_RULES;
}

void web_rule_family(unsigned int rule, struct web_family *fam)
{
	fam->metric = rules[rule].metric;
	fam->label = rules[rule].label;
	fam->type = rules[rule].type;
	fam->help = rules[rule].help;
	fam->scale = rules[rule].scale;
}
