// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web: what the running description offers to the stream and the
 * metrics. Keys are grouped into channels by the rules below (a prefix and
 * a suffix of the key's name); each channel is one JSON object per cycle,
 * each rule one metric family.
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
 * One rule: the keys named PREFIX<middle>SUFFIX go to channel TOPIC as the
 * field FPRE<middle>FSUF (with '/' made '_'), and to the metric family
 * METRIC{LABEL="FPRE<middle>"} (no label when LABEL is NULL), their value
 * times SCALE in the metric's unit. The middle may be empty only
 * when FPRE names the key. A rule without METRIC streams its keys and
 * exports none: a key whose unit is unknown is not put in a family of
 * another unit. The first rule a key matches takes it.
 */
struct rule {
	const char *topic;
	const char *schema;
	const char *prefix;
	const char *suffix;
	const char *fpre;
	const char *fsuf;
	const char *metric;
	const char *label;
	const char *type;	/* "gauge" or "counter" */
	const char *help;
	double scale;
};

static const struct rule rules[] = {
	/* The hands' positions are an aperture (0 closed, 1 open), not an angle. */
	{ "/joints/position", "dcm.JointPositions", "LHand", "/Position/Sensor", "LHand", "",
	  "dcm_hand_position_ratio", "joint", "gauge",
	  "Hand aperture sensor, 0 closed to 1 open (Position/Sensor)", 1 },
	{ "/joints/position", "dcm.JointPositions", "RHand", "/Position/Sensor", "RHand", "",
	  "dcm_hand_position_ratio", "joint", "gauge",
	  "Hand aperture sensor, 0 closed to 1 open (Position/Sensor)", 1 },
	{ "/joints/position", "dcm.JointPositions", "", "/Position/Sensor", "", "",
	  "dcm_joint_position_radians", "joint", "gauge",
	  "Joint position sensor, rad (Position/Sensor)", 1 },
	{ "/joints/command", "dcm.JointCommands", "LHand", "/Position/Actuator", "LHand", "",
	  "dcm_hand_command_ratio", "joint", "gauge",
	  "Hand aperture command sent to the boards, 0 closed to 1 open (Position/Actuator)", 1 },
	{ "/joints/command", "dcm.JointCommands", "RHand", "/Position/Actuator", "RHand", "",
	  "dcm_hand_command_ratio", "joint", "gauge",
	  "Hand aperture command sent to the boards, 0 closed to 1 open (Position/Actuator)", 1 },
	{ "/joints/command", "dcm.JointCommands", "", "/Position/Actuator", "", "",
	  "dcm_joint_command_radians", "joint", "gauge",
	  "Joint position command sent to the boards, rad (Position/Actuator)", 1 },
	{ "/joints/stiffness", "dcm.JointStiffness", "", "/Hardness/Actuator", "", "",
	  "dcm_joint_stiffness", "joint", "gauge", "Joint stiffness, 0 to 1 (Hardness/Actuator)", 1 },
	{ "/joints/current", "dcm.JointCurrents", "", "/ElectricCurrent/Sensor", "", "",
	  "dcm_joint_current_amperes", "joint", "gauge", "Joint motor current, A", 1 },
	{ "/temperatures", "dcm.Temperatures", "", "/Temperature/Sensor", "", "",
	  "dcm_temperature_celsius", "key", "gauge", "Temperature, degrees Celsius", 1 },
	{ "/temperatures/status", "dcm.TemperatureStatus", "", "/Temperature/Sensor/Status", "", "",
	  "dcm_temperature_status", "key", "gauge",
	  "Temperature status word of a joint or the battery", 1 },
	{ "/battery", "dcm.Battery", "Battery/Charge", "/Sensor", "Charge", "",
	  "dcm_battery_charge_ratio", NULL, "gauge", "Battery charge, 0 to 1", 1 },
	{ "/battery", "dcm.Battery", "Battery/Current", "/Sensor", "Current", "",
	  "dcm_battery_current_amperes", NULL, "gauge",
	  "Battery current, A, above 0 when charging", 1 },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor", "", "", NULL, NULL, NULL, NULL, 0 },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor/Status", "", "_Status",
	  "dcm_battery_status", "key", "gauge", "Battery status word", 1 },
	{ "/feet", "dcm.Feet", "LFoot/FSR/CenterOfPressure/", "/Sensor", "LFoot_CenterOfPressure_",
	  "", "dcm_foot_center_of_pressure_meters", "key", "gauge",
	  "Centre of pressure of a foot, m", 1 },
	{ "/feet", "dcm.Feet", "RFoot/FSR/CenterOfPressure/", "/Sensor", "RFoot_CenterOfPressure_",
	  "", "dcm_foot_center_of_pressure_meters", "key", "gauge",
	  "Centre of pressure of a foot, m", 1 },
	{ "/feet", "dcm.Feet", "LFoot/FSR/", "/Sensor", "LFoot_", "",
	  "dcm_foot_load_grams", "key", "gauge",
	  "Load on a foot's pressure sensor, or on the foot (TotalWeight), g", 1000 },
	{ "/feet", "dcm.Feet", "RFoot/FSR/", "/Sensor", "RFoot_", "",
	  "dcm_foot_load_grams", "key", "gauge",
	  "Load on a foot's pressure sensor, or on the foot (TotalWeight), g", 1000 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/Angle", "/Sensor", "Angle", "",
	  "dcm_inertial_angle_radians", "key", "gauge", "Inertial unit's angles, rad", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/Gyroscope", "/Sensor", "Gyroscope", "",
	  "dcm_inertial_angular_velocity_radians_per_second", "key", "gauge",
	  "Inertial unit's rates of turn, rad/s", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/GyrZ", "/Sensor", "GyrZ", "",
	  "dcm_inertial_angular_velocity_radians_per_second", "key", "gauge",
	  "Inertial unit's rates of turn, rad/s", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/Accelerometer", "/Sensor", "Accelerometer", "",
	  "dcm_inertial_acceleration_meters_per_second_squared", "key", "gauge",
	  "Inertial unit's accelerations, m/s^2", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/Acc", "/Sensor", "Acc", "",
	  "dcm_inertial_raw", "key", "gauge",
	  "Inertial unit's raw readings, as the board sends them (AccX, GyrX, GyrRef...)", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/Gyr", "/Sensor", "Gyr", "",
	  "dcm_inertial_raw", "key", "gauge",
	  "Inertial unit's raw readings, as the board sends them (AccX, GyrX, GyrRef...)", 1 },
	{ "/inertial", "dcm.Inertial", "InertialSensor/", "/Sensor", "", "", NULL, NULL, NULL, NULL, 0 },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Available", "", "_Available",
	  "dcm_board_available", "board", "gauge", "Whether the board answers (Available)", 1 },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Ack", "", "_Ack",
	  "dcm_board_ack_total", "board", "counter", "Messages the board acknowledged (Ack)", 1 },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Nack", "", "_Nack",
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

/* Grow @c's arrays by one field. */
static int grow(struct web_channel *c)
{
	size_t n = c->n_fields + 1;
	char **fields = realloc(c->fields, n * sizeof(*fields));
	uint32_t *idx;
	char **labels;
	unsigned int *rule;

	if (!fields)
		return -ENOMEM;
	c->fields = fields;
	idx = realloc(c->index, n * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	c->index = idx;
	labels = realloc(c->labels, n * sizeof(*labels));
	if (!labels)
		return -ENOMEM;
	c->labels = labels;
	rule = realloc(c->rule, n * sizeof(*rule));
	if (!rule)
		return -ENOMEM;
	c->rule = rule;
	return 0;
}

static int add_field(struct web_model *m, unsigned int ri, const char *mid, size_t mlen,
		     uint32_t index)
{
	const struct rule *r = &rules[ri];
	struct web_channel *c = NULL;
	size_t i;
	char *f, *l;

	for (i = 0; i < m->n_channels; i++)
		if (!strcmp(m->channels[i].topic, r->topic)) {
			c = &m->channels[i];
			break;
		}
	if (!c)
		return -ENOENT;
	if (grow(c))
		return -ENOMEM;
	if (asprintf(&f, "%s%.*s%s", r->fpre, (int)mlen, mid, r->fsuf) < 0)
		return -ENOMEM;
	if (asprintf(&l, "%s%.*s", r->fpre, (int)mlen, mid) < 0) {
		free(f);
		return -ENOMEM;
	}
	for (i = 0; f[i]; i++)
		if (f[i] == '/')
			f[i] = '_';
	c->fields[c->n_fields] = f;
	c->index[c->n_fields] = index;
	c->labels[c->n_fields] = l;
	c->rule[c->n_fields] = ri;
	c->n_fields++;
	return 0;
}

static int add_key(struct web_model *m, const char *name, uint32_t index)
{
	struct web_key *k;
	unsigned int ri;
	const char *mid;
	size_t mlen;
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
	for (ri = 0; ri < N_RULES; ri++) {
		mid = rule_middle(&rules[ri], name, &mlen);
		if (!mid)
			continue;
		r = add_field(m, ri, mid, mlen, index);
		if (r)
			return r;
		break;
	}
	return 0;
}

/* A live key NAME, if the description has it. */
static int try_live(struct web_model *m, struct dcm *dcm, const char *name)
{
	struct dcm_key k;

	if (dcm_lookup(dcm, name, &k) || !(k.flags & LIBDCM_KEY_LIVE))
		return 0;
	return add_key(m, name, LIBDCM_HANDLE_INDEX(k.handle));
}

/* The channels, one per topic, in the rules' order (no fields yet). */
static int model_channels(struct web_model *m)
{
	size_t i, j;

	m->channels = calloc(N_RULES, sizeof(*m->channels));
	if (!m->channels)
		return -ENOMEM;
	for (i = 0; i < N_RULES; i++) {
		for (j = 0; j < m->n_channels; j++)
			if (!strcmp(m->channels[j].topic, rules[i].topic))
				break;
		if (j < m->n_channels)
			continue;
		m->channels[j].topic = rules[i].topic;
		m->channels[j].schema_name = rules[i].schema;
		m->n_channels++;
	}
	return 0;
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
	r = model_channels(m);
	if (!r)
		r = model_subdevices(m, dcm, t);
	if (!r)
		r = model_devices(m, dcm, t);
	if (r)
		goto out;
	for (i = 0; i < m->n_keys; i++)
		if (m->keys[i].index + 1 > max)
			max = m->keys[i].index + 1;
	m->n_handles = max;
	for (i = 0; i < m->n_channels; i++)
		m->channels[i].id = (unsigned int)i + 1;
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
	size_t i, j;

	for (i = 0; i < m->n_channels; i++) {
		struct web_channel *c = &m->channels[i];

		for (j = 0; j < c->n_fields; j++) {
			free(c->fields[j]);
			free(c->labels[j]);
		}
		free(c->fields);
		free(c->index);
		free(c->labels);
		free(c->rule);
	}
	for (i = 0; i < m->n_keys; i++)
		free(m->keys[i].name);
	free(m->keys);
	free(m->channels);
	memset(m, 0, sizeof(*m));
}

const struct web_channel *web_model_channel(const struct web_model *m, unsigned int id)
{
	if (id >= 1 && id <= m->n_channels)
		return &m->channels[id - 1];
	return NULL;
}

/* ---- JSON ---- */

/* Close a memory stream; the JSON writer's final newline is not the message's. */
static char *mem_finish(FILE *f, char **buf, size_t *len)
{
	size_t n;

	if (fclose(f)) {
		free(*buf);
		return NULL;
	}
	n = strlen(*buf);
	while (n && (*buf)[n - 1] == '\n')
		(*buf)[--n] = 0;
	if (len)
		*len = n;
	return *buf;
}

/* The JSON schema (as a string) of a group channel. */
static char *channel_schema(const struct web_channel *c)
{
	struct json_writer w;
	char *buf = NULL;
	size_t sz, i;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_string(&w, "type", "object");
	json_begin_object(&w, "properties");
	json_begin_object(&w, "cycle");
	json_string(&w, "type", "integer");
	json_string(&w, "description", "cycle number, from 1");
	json_end_object(&w);
	json_begin_object(&w, "dcm_time_ms");
	json_string(&w, "type", "integer");
	json_string(&w, "description", "DCM time of the cycle, ms");
	json_end_object(&w);
	for (i = 0; i < c->n_fields; i++) {
		json_begin_object(&w, c->fields[i]);
		json_string(&w, "type", "number");
		json_end_object(&w);
	}
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
	return mem_finish(f, &buf, NULL);
}

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

static const char events_schema[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"dcm_time_ms\":{\"type\":\"integer\"},\"type\":{\"type\":\"string\"},"
	"\"level\":{\"type\":\"integer\"},\"code\":{\"type\":\"integer\"},"
	"\"value\":{\"type\":\"number\"},\"count\":{\"type\":\"integer\"},"
	"\"lost\":{\"type\":\"integer\"},\"device\":{\"type\":\"string\"},"
	"\"text\":{\"type\":\"string\"}}}";

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
	for (i = 0; i < m->n_channels; i++) {
		const struct web_channel *c = &m->channels[i];
		char *schema;

		if (!c->n_fields)
			continue;
		schema = channel_schema(c);
		if (!schema)
			continue;
		advertise_one(&w, c->id, c->topic, c->schema_name, schema);
		free(schema);
	}
	advertise_one(&w, (unsigned int)m->n_channels + 1 + WEB_CHAN_CYCLE_OFFSET, "/cycle",
		      "dcm.CycleStats", cycle_schema);
	advertise_one(&w, (unsigned int)m->n_channels + 1 + WEB_CHAN_EVENTS_OFFSET, "/events",
		      "dcm.Event", events_schema);
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
	return mem_finish(f, &buf, NULL);
}

char *web_channel_json(const struct web_channel *c, const struct dcm_values_frame *fr,
		       size_t *len)
{
	struct json_writer w;
	char *buf = NULL;
	size_t sz, i;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "cycle", fr->cycle);
	json_uint(&w, "dcm_time_ms", fr->time);
	for (i = 0; i < c->n_fields; i++)
		if (c->index[i] < fr->n_values)
			json_double(&w, c->fields[i], fr->values[c->index[i]]);
	json_end_object(&w);
	json_finish(&w);
	return mem_finish(f, &buf, len);
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
	return mem_finish(f, &buf, len);
}

char *web_event_json(const struct dcm_event_msg *ev, size_t *len)
{
	const char *type = dcm_event_type_name(ev->type);
	struct json_writer w;
	char *buf = NULL;
	size_t sz;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "dcm_time_ms", ev->time_ms);
	json_string(&w, "type", type ? type : "unknown");
	json_uint(&w, "level", ev->level);
	json_uint(&w, "code", ev->code);
	json_double(&w, "value", dcm_fixed_to_double(ev->value));
	json_uint(&w, "count", ev->count);
	json_uint(&w, "lost", ev->lost);
	json_string(&w, "device", ev->device);
	json_string(&w, "text", ev->text);
	json_end_object(&w);
	json_finish(&w);
	return mem_finish(f, &buf, len);
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
