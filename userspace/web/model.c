// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web: what the running description offers to the stream and the
 * metrics. Keys are grouped into channels by the rules below (a prefix and
 * a suffix of the key's name); each channel is one JSON object per cycle,
 * each rule one metric family.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/dcm.h>

#include "json.h"
#include "web.h"

/*
 * One rule: the keys named PREFIX<middle>SUFFIX go to channel TOPIC as the
 * field FPRE<middle>FSUF (with '/' made '_'), and to the metric family
 * METRIC{LABEL="FPRE<middle>"}.
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
};

static const struct rule rules[] = {
	{ "/joints/position", "dcm.JointPositions", "", "/Position/Sensor", "", "",
	  "dcm_joint_position", "joint", "gauge",
	  "Joint position sensor, rad (Position/Sensor)" },
	{ "/joints/command", "dcm.JointCommands", "", "/Position/Actuator", "", "",
	  "dcm_joint_command", "joint", "gauge",
	  "Joint position command sent to the boards, rad (Position/Actuator)" },
	{ "/joints/stiffness", "dcm.JointStiffness", "", "/Hardness/Actuator", "", "",
	  "dcm_joint_stiffness", "joint", "gauge", "Joint stiffness, 0 to 1 (Hardness/Actuator)" },
	{ "/joints/current", "dcm.JointCurrents", "", "/ElectricCurrent/Sensor", "", "",
	  "dcm_joint_current_amperes", "joint", "gauge", "Joint motor current, A" },
	{ "/temperatures", "dcm.Temperatures", "", "/Temperature/Sensor", "", "",
	  "dcm_temperature_celsius", "key", "gauge", "Temperature, degrees Celsius" },
	{ "/temperatures/status", "dcm.TemperatureStatus", "", "/Temperature/Sensor/Status", "", "",
	  "dcm_temperature_status", "key", "gauge",
	  "Temperature status word of a joint or the battery" },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor", "", "",
	  "dcm_battery", "key", "gauge", "Battery sensors (Charge 0 to 1, Current A, Temperature C)" },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor/Status", "", "_Status",
	  "dcm_battery_status", "key", "gauge", "Battery status word" },
	{ "/feet", "dcm.Feet", "LFoot/FSR/", "/Sensor", "LFoot_", "",
	  "dcm_foot", "key", "gauge",
	  "Foot pressure sensors (kg) and centre of pressure (m)" },
	{ "/feet", "dcm.Feet", "RFoot/FSR/", "/Sensor", "RFoot_", "",
	  "dcm_foot", "key", "gauge",
	  "Foot pressure sensors (kg) and centre of pressure (m)" },
	{ "/inertial", "dcm.Inertial", "InertialSensor/", "/Sensor", "", "",
	  "dcm_inertial", "key", "gauge", "Inertial unit: angles rad, rates rad/s, accelerations m/s2" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Available", "", "_Available",
	  "dcm_board_available", "board", "gauge", "Whether the board answers (Available)" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Ack", "", "_Ack",
	  "dcm_board_ack_total", "board", "counter", "Messages the board acknowledged (Ack)" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Nack", "", "_Nack",
	  "dcm_board_nack_total", "board", "counter",
	  "Messages the board did not acknowledge (Nack)" },
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

/* The middle of NAME under rule R, or NULL. */
static const char *rule_middle(const struct rule *r, const char *name, size_t *len)
{
	size_t n = strlen(name), p = strlen(r->prefix), s = strlen(r->suffix);

	if (n <= p + s || strncmp(name, r->prefix, p) || strcmp(name + n - s, r->suffix))
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
	size_t i, n, max = 0;
	char name[LIBDCM_KEY_NAME_LEN + 16];
	int r;

	memset(m, 0, sizeof(*m));
	r = dcm_frame_keys(dcm, true);
	if (r)
		return r;
	r = dcm_tree_read(dcm, sysfs_root, index, &t);
	if (r)
		return r;
	m->generation = dcm_tree_generation(t);
	/* The channels, one per topic, in the rules' order. */
	m->channels = calloc(N_RULES, sizeof(*m->channels));
	if (!m->channels) {
		r = -ENOMEM;
		goto out;
	}
	for (i = 0; i < N_RULES; i++) {
		size_t j;

		for (j = 0; j < m->n_channels; j++)
			if (!strcmp(m->channels[j].topic, rules[i].topic))
				break;
		if (j < m->n_channels)
			continue;
		m->channels[j].topic = rules[i].topic;
		m->channels[j].schema_name = rules[i].schema;
		m->n_channels++;
	}
	n = dcm_tree_n_subdevices(t);
	for (i = 0; i < n; i++) {
		const struct dcm_tree_subdevice *s = dcm_tree_subdevice(t, i);
		uint32_t ix = LIBDCM_HANDLE_INDEX(s->handle);

		r = add_key(m, s->name, ix);
		if (r)
			goto out;
		if (ix + 1 > max)
			max = ix + 1;
		/* Status words of sensors are live keys (ABI 1.4). */
		snprintf(name, sizeof(name), "%s/Status", s->name);
		if (strstr(s->name, "/Sensor") && strlen(s->name) > 7 &&
		    !strcmp(s->name + strlen(s->name) - 7, "/Sensor")) {
			r = try_live(m, dcm, name);
			if (r)
				goto out;
		}
	}
	n = dcm_tree_n_devices(t);
	for (i = 0; i < n; i++) {
		static const char *const dkeys[] = { "Available", "Ack", "Nack" };
		const struct dcm_tree_device *d = dcm_tree_device(t, i);
		unsigned int k;

		for (k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), DCM_PREFIX_DEVICE "%s/%s", d->name, dkeys[k]);
			r = try_live(m, dcm, name);
			if (r)
				goto out;
		}
	}
	for (i = 0; i < m->n_keys; i++)
		if (m->keys[i].index + 1 > max)
			max = m->keys[i].index + 1;
	m->n_handles = max;
	for (i = 0; i < m->n_channels; i++)
		m->channels[i].id = (unsigned int)i + 1;
	r = 0;
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

static void advertise_one(struct json_writer *w, unsigned int id, const char *topic,
			  const char *schema_name, const char *schema)
{
	json_begin_object(w, NULL);
	json_uint(w, "id", id);
	json_string(w, "topic", topic);
	json_string(w, "encoding", "json");
	json_string(w, "schemaName", schema_name);
	json_string(w, "schema", schema);
	json_string(w, "schemaEncoding", "jsonschema");
	json_end_object(w);
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

/* ---- Prometheus text exposition format ---- */

/* A label value: backslash, double quote and newline escaped. */
static void prom_label(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n') {
			fputs("\\n", out);
			continue;
		}
		fputc(*s, out);
	}
}

static void prom_double(FILE *out, double v)
{
	if (isnan(v))
		fputs("NaN", out);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", out);
	else
		fprintf(out, "%.17g", v);
}

static void prom_head(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void prom_u64(FILE *out, const char *name, const char *type, const char *help,
		     uint64_t v)
{
	prom_head(out, name, type, help);
	fprintf(out, "%s %" PRIu64 "\n", name, v);
}

static void prom_quantiles(FILE *out, const char *name, const char *help, const __u64 *ns,
			   uint64_t mean_ns, uint64_t count)
{
	static const char *const q[DCM_PCT_COUNT] = { "0.5", "0.99", "0.999", "1" };
	unsigned int i;

	prom_head(out, name, "summary", help);
	for (i = 0; i < DCM_PCT_COUNT; i++) {
		fprintf(out, "%s{quantile=\"%s\"} ", name, q[i]);
		prom_double(out, ns[i] / 1e9);
		fputc('\n', out);
	}
	fprintf(out, "%s_sum ", name);
	prom_double(out, (double)mean_ns * (double)count / 1e9);
	fprintf(out, "\n%s_count %" PRIu64 "\n", name, count);
}

/**
 * web_metrics() - the metrics, in Prometheus' text exposition format 0.0.4
 * @out: where to write them
 * @dcm: the controller (its statistics ioctls)
 * @m: the model
 * @f: the last frame read, or one with no values
 * @c: the server's own counts
 *
 * Return: 0, or -errno when the controller cannot be read (the metrics
 * then say dcm_up 0).
 */
unsigned int web_max_connections(uint64_t nofile, unsigned int want)
{
	uint64_t fit;

	if (nofile <= WEB_FD_RESERVE)
		return 0;
	fit = (nofile - WEB_FD_RESERVE) / WEB_FDS_PER_CONNECTION;
	if (fit > WEB_MAX_CONNECTIONS)
		fit = WEB_MAX_CONNECTIONS;
	if (want && want < fit)
		return want;
	return (unsigned int)fit;
}

/*
 * The controller's events counted by type (its sysfs file events): posted,
 * and dropped before the events group got them. Nothing from an older
 * kernel.
 */
static void prom_events(FILE *out, unsigned int index)
{
	static const char *const fam[2][2] = {
		{ "dcm_kernel_events_posted_total", "Events the controller posted, by type" },
		{ "dcm_kernel_events_dropped_total",
		  "Events the controller's events group did not get (its history kept them)" },
	};
	struct dcm_event_count c[32];
	struct dcm_sysfs *s;
	int i, k, n;

	if (dcm_sysfs_open(NULL, index, &s))
		return;
	n = dcm_sysfs_event_counts(s, c, sizeof(c) / sizeof(c[0]));
	dcm_sysfs_close(s);
	for (k = 0; k < 2 && n > 0; k++) {
		prom_head(out, fam[k][0], "counter", fam[k][1]);
		for (i = 0; i < n; i++)
			fprintf(out, "%s{type=\"%s\",class=\"%s\"} %" PRIu64 "\n", fam[k][0],
				c[i].type, c[i].safety ? "safety" : "info",
				k ? c[i].dropped : c[i].posted);
	}
}

int web_metrics(FILE *out, struct dcm *dcm, const struct web_model *m,
		const struct dcm_values_frame *f, const struct web_counters *c)
{
	struct dcm_ioc_cycle_stats cs;
	struct dcm_info info;
	struct dcm_stats st;
	bool have_cs;
	uint64_t cum = 0;
	unsigned int i;
	size_t ri, ci, fi;
	int r;

	r = dcm_get_info(dcm, &info);
	if (!r)
		r = dcm_stats(dcm, &st);
	prom_u64(out, "dcm_up", "gauge", "Whether the controller could be read", !r);
	prom_u64(out, "dcm_web_clients", "gauge", "WebSocket clients of dcm-web", c->ws_clients);
	prom_u64(out, "dcm_web_frames_total", "counter", "Cycles dcm-web read", c->frames);
	prom_u64(out, "dcm_web_dropped_messages_total", "counter",
		 "Stream messages dropped because a client did not keep up", c->dropped);
	prom_u64(out, "dcm_web_stalled_clients_total", "counter",
		 "WebSocket clients dropped: they read nothing, or answered no ping, for --ws-timeout",
		 c->stalled);
	prom_u64(out, "dcm_events_total", "counter", "Kernel events dcm-web received", c->events);
	if (r)
		return r;
	prom_head(out, "dcm_info", "gauge", "The controller: name and body driver");
	fputs("dcm_info{name=\"", out);
	prom_label(out, info.name);
	fputs("\",driver=\"", out);
	prom_label(out, info.driver);
	fputs("\"} 1\n", out);
	prom_head(out, "dcm_cycle_period_seconds", "gauge", "The cycle's period");
	fprintf(out, "dcm_cycle_period_seconds %g\n", info.period_us / 1e6);
	prom_u64(out, "dcm_running", "gauge", "Whether the cycle runs", !!(info.flags & DCM_INFO_F_RUNNING));
	prom_u64(out, "dcm_description_generation", "gauge",
		 "Generation of the running description", m->generation);
	prom_u64(out, "dcm_time_milliseconds", "gauge",
		 "DCM time of the last cycle dcm-web read", f->n_values ? f->time : 0);

	prom_u64(out, "dcm_cycles_total", "counter",
		 "Cycles run since the description was loaded", st.cycles);
	prom_u64(out, "dcm_overruns_total", "counter",
		 "Cycles that started a period or more late", st.overruns);
	prom_head(out, "dcm_cycle_work_last_seconds", "gauge", "Work of the last cycle");
	fprintf(out, "dcm_cycle_work_last_seconds %g\n", st.last_ns / 1e9);
	prom_head(out, "dcm_cycle_work_max_seconds", "gauge", "Longest work of a cycle");
	fprintf(out, "dcm_cycle_work_max_seconds %g\n", st.max_ns / 1e9);
	prom_head(out, "dcm_cycle_latency_max_seconds", "gauge", "Longest wake-up latency");
	fprintf(out, "dcm_cycle_latency_max_seconds %g\n", st.latency_max_ns / 1e9);
	prom_head(out, "dcm_cycle_latency_histogram_seconds", "histogram",
		  "Wake-up latencies (deadline to start) since the description was loaded");
	for (i = 0; i < LIBDCM_LATENCY_BUCKETS; i++) {
		uint64_t b = dcm_latency_bucket_ns(i);

		cum += st.latency_hist[i];
		if (b == UINT64_MAX)
			fprintf(out, "dcm_cycle_latency_histogram_seconds_bucket{le=\"+Inf\"} %"
				PRIu64 "\n", cum);
		else
			fprintf(out, "dcm_cycle_latency_histogram_seconds_bucket{le=\"%g\"} %"
				PRIu64 "\n", b / 1e9, cum);
	}
	fprintf(out, "dcm_cycle_latency_histogram_seconds_count %" PRIu64 "\n", cum);

	memset(&cs, 0, sizeof(cs));
	have_cs = !ioctl(dcm_fd(dcm), DCM_IOC_CYCLE_STATS, &cs);
	if (have_cs) {
		prom_u64(out, "dcm_missed_periods_total", "counter",
			 "Periods passed over after late cycles", cs.missed);
		prom_u64(out, "dcm_late_starts_total", "counter",
			 "Cycles that started a period or more after their deadline",
			 cs.late_starts);
		prom_u64(out, "dcm_work_overruns_total", "counter",
			 "Cycles whose work took longer than the period", cs.work_overruns);
		prom_u64(out, "dcm_late_buses_total", "counter",
			 "Bus exchanges not done when the cycle published", cs.late_buses);
		prom_u64(out, "dcm_busy_buses_total", "counter",
			 "Bus exchanges not started: the previous one had not ended",
			 cs.busy_buses);
		prom_u64(out, "dcm_cycle_statistics_cycles_total", "counter",
			 "Cycles since the statistics began (module load or reset)", cs.cycles);
		prom_quantiles(out, "dcm_cycle_latency_seconds",
			       "Wake-up latency percentiles since the statistics began",
			       cs.latency_ns, cs.latency_mean_ns, cs.cycles);
		prom_quantiles(out, "dcm_cycle_work_seconds",
			       "Work percentiles since the statistics began", cs.work_ns,
			       cs.work_mean_ns, cs.cycles);
		prom_u64(out, "dcm_cycle_priority", "gauge",
			 "SCHED_FIFO priority of the cycle", cs.priority);
	}
	prom_events(out, info.index);

	/* The keys, a family per rule (rules sharing a family are adjacent). */
	for (ri = 0; ri < N_RULES; ri++) {
		const struct rule *rl = &rules[ri];
		bool head = false;
		size_t rj;

		for (rj = 0; rj < ri; rj++)
			if (!strcmp(rules[rj].metric, rl->metric))
				break;
		if (rj < ri)
			continue;
		for (ci = 0; ci < m->n_channels; ci++) {
			const struct web_channel *ch = &m->channels[ci];

			for (fi = 0; fi < ch->n_fields; fi++) {
				if (strcmp(rules[ch->rule[fi]].metric, rl->metric) ||
				    ch->index[fi] >= f->n_values)
					continue;
				if (!head) {
					prom_head(out, rl->metric, rl->type, rl->help);
					head = true;
				}
				fprintf(out, "%s{%s=\"", rl->metric, rl->label);
				prom_label(out, ch->labels[fi]);
				fputs("\"} ", out);
				prom_double(out, f->values[ch->index[fi]]);
				fputc('\n', out);
			}
		}
	}
	return 0;
}
