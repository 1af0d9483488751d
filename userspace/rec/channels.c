// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The channels of the stream and the recordings: groups of keys (a prefix
 * and a suffix of the key's name make its channel and its field), the
 * others on /keys, and the events on /events. dcm-web streams the groups
 * (web/model.c), dcmctl record -f mcap and dcm-flight record them all
 * (mcaprec.c): both say the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "json.h"
#include "channels.h"

/* Keys PREFIX<middle>SUFFIX go to TOPIC as the field FPRE<middle>FSUF, '/' made '_'. */
struct group {
	const char *topic, *schema, *prefix, *suffix, *fpre, *fsuf;
};

static const struct group groups[] = {
	{ "/joints/position", "dcm.JointPositions", "", "/Position/Sensor", "", "" },
	{ "/joints/command", "dcm.JointCommands", "", "/Position/Actuator", "", "" },
	{ "/joints/stiffness", "dcm.JointStiffness", "", "/Hardness/Actuator", "", "" },
	{ "/joints/current", "dcm.JointCurrents", "", "/ElectricCurrent/Sensor", "", "" },
	{ "/temperatures", "dcm.Temperatures", "", "/Temperature/Sensor", "", "" },
	{ "/temperatures/status", "dcm.TemperatureStatus", "", "/Temperature/Sensor/Status", "",
	  "" },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor", "", "" },
	{ "/battery", "dcm.Battery", "Battery/", "/Sensor/Status", "", "_Status" },
	{ "/feet", "dcm.Feet", "LFoot/FSR/", "/Sensor", "LFoot_", "" },
	{ "/feet", "dcm.Feet", "RFoot/FSR/", "/Sensor", "RFoot_", "" },
	{ "/inertial", "dcm.Inertial", "InertialSensor/", "/Sensor", "", "" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Available", "", "_Available" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Ack", "", "_Ack" },
	{ "/boards", "dcm.Boards", DCM_PREFIX_DEVICE, "/Nack", "", "_Nack" },
	{ REC_TOPIC_KEYS, REC_SCHEMA_KEYS, "", "", "", "" },	/* the others: last */
};

#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

/* The middle of @name under @g, or NULL (/keys takes any). */
static const char *middle(const struct group *g, const char *name, size_t *len)
{
	size_t n = strlen(name), p = strlen(g->prefix), s = strlen(g->suffix);

	if (!strcmp(g->topic, REC_TOPIC_KEYS)) {
		*len = n;
		return name;
	}
	if (n <= p + s || strncmp(name, g->prefix, p) || strcmp(name + n - s, g->suffix))
		return NULL;
	*len = n - p - s;
	return name + p;
}

/* The channels, one per topic, in the groups' order (no keys yet). */
static int make_channels(struct rec_channels *cs)
{
	size_t i, j;

	cs->c = calloc(N_GROUPS, sizeof(*cs->c));
	if (!cs->c)
		return -ENOMEM;
	for (i = 0; i < N_GROUPS; i++) {
		for (j = 0; j < cs->n; j++)
			if (!strcmp(cs->c[j].topic, groups[i].topic))
				break;
		if (j < cs->n)
			continue;
		cs->c[j].topic = groups[i].topic;
		cs->c[j].schema_name = groups[i].schema;
		cs->n++;
	}
	return 0;
}

static struct rec_channel *find(struct rec_channels *cs, const char *topic)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->c[i].topic, topic))
			return &cs->c[i];
	return NULL;
}

/* ,"@field": as JSON (malloc'd), or NULL. */
static char *member(const char *field)
{
	char *buf = NULL;
	size_t sz;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	fputc(',', f);
	json_write_string(f, field);
	fputc(':', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One more key of @c: its field, its name, its index. */
static int add_to(struct rec_channel *c, char *field, const char *name, uint32_t index)
{
	char **fields = realloc(c->fields, (c->n + 1) * sizeof(*fields)), **keys, **members;
	uint32_t *idx;

	if (!fields)
		return -ENOMEM;
	c->fields = fields;
	members = realloc(c->members, (c->n + 1) * sizeof(*members));
	if (!members)
		return -ENOMEM;
	c->members = members;
	keys = realloc(c->keys, (c->n + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	c->keys = keys;
	idx = realloc(c->index, (c->n + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	c->index = idx;
	c->keys[c->n] = strdup(name);
	c->members[c->n] = member(field);
	if (!c->keys[c->n] || !c->members[c->n]) {
		free(c->keys[c->n]);
		free(c->members[c->n]);
		return -ENOMEM;
	}
	c->fields[c->n] = field;
	c->index[c->n] = index;
	c->n++;
	return 0;
}

int rec_channels_add(struct rec_channels *cs, const char *name, uint32_t index)
{
	const struct group *g = NULL;
	const char *mid = NULL;
	size_t i, mlen = 0;
	char *f;
	int r;

	if (!cs->c && make_channels(cs))
		return -ENOMEM;
	for (i = 0; i < N_GROUPS && !mid; i++) {
		g = &groups[i];
		mid = middle(g, name, &mlen);
	}
	if (asprintf(&f, "%s%.*s%s", g->fpre, (int)mlen, mid, g->fsuf) < 0)
		return -ENOMEM;
	for (i = 0; f[i]; i++)
		if (f[i] == '/')
			f[i] = '_';
	r = add_to(find(cs, g->topic), f, name, index);
	if (r)
		free(f);
	return r;
}

void rec_channels_trim(struct rec_channels *cs)
{
	size_t i, n = 0;

	for (i = 0; i < cs->n; i++)
		if (cs->c[i].n)
			cs->c[n++] = cs->c[i];
	cs->n = n;
}

void rec_channels_free(struct rec_channels *cs)
{
	size_t i, j;

	for (i = 0; i < cs->n; i++) {
		for (j = 0; j < cs->c[i].n; j++) {
			free(cs->c[i].fields[j]);
			free(cs->c[i].keys[j]);
			free(cs->c[i].members[j]);
		}
		free(cs->c[i].fields);
		free(cs->c[i].keys);
		free(cs->c[i].members);
		free(cs->c[i].index);
	}
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

char *rec_channel_schema(const struct rec_channel *c)
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
	for (i = 0; i < c->n; i++) {
		json_begin_object(&w, c->fields[i]);
		json_string(&w, "type", "number");
		json_end_object(&w);
	}
	json_end_object(&w);
	json_end_object(&w);
	json_finish(&w);
	return json_mem_message(f, &buf, NULL);
}

/* @v in decimal at @out: its length. */
static size_t digits(char *out, unsigned long long v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* The digits of @v, if a whole number of micro-units json_double() writes without an exponent. */
static size_t micro_number(char *out, double v)
{
	double a = fabs(v);
	long long m;
	unsigned long long u, ip, fp;
	size_t n = 0;
	int d;

	/* %.15g: no exponent from 1e-4 to 1e15; at most 15 digits below 1e9 */
	if (!(v == 0 || (a >= 1e-4 && a < 1e9)))
		return 0;
	m = llround(v * 1e6);
	if ((double)m / 1e6 != v)
		return 0;
	if (signbit(v))
		out[n++] = '-';
	u = (unsigned long long)(m < 0 ? -m : m);
	ip = u / 1000000;
	fp = u % 1000000;
	n += digits(out + n, ip);
	if (fp) {
		out[n++] = '.';
		for (d = 100000; d && fp; d /= 10) {
			out[n++] = (char)('0' + fp / (unsigned long long)d);
			fp %= (unsigned long long)d;
		}
	}
	out[n] = '\0';
	return n;
}

size_t rec_json_number(char *out, double v)
{
	size_t n;
	int prec;

	if (!isfinite(v)) {
		strcpy(out, "null");
		return 4;
	}
	n = micro_number(out, v);
	if (n)
		return n;
	/* as json_double(): the shortest of %.15g, %.16g, %.17g that reads back */
	for (prec = 15; prec <= 17; prec++) {
		snprintf(out, 32, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	return strlen(out);
}

/* @n bytes of @p at *@len of *@buf, grown: false without memory. */
static bool append(char **buf, size_t *cap, size_t *len, const char *p, size_t n)
{
	char *q;
	size_t c;

	if (*len + n + 1 > *cap) {
		for (c = *cap ? *cap : 1024; c < *len + n + 1; c *= 2)
			;
		q = realloc(*buf, c);
		if (!q)
			return false;
		*buf = q;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	(*buf)[*len] = '\0';
	return true;
}

size_t rec_channel_write(const struct rec_channel *c, uint64_t cycle, uint32_t time,
			 const double *values, size_t n, char **buf, size_t *cap)
{
	char num[64];
	size_t len = 0, i, k;
	bool ok;

	k = (size_t)snprintf(num, sizeof(num), "{\"cycle\":%" PRIu64 ",\"dcm_time_ms\":%" PRIu32,
			     cycle, time);
	ok = append(buf, cap, &len, num, k);
	for (i = 0; ok && i < c->n; i++) {
		if (c->index[i] >= n)
			continue;
		k = rec_json_number(num, values[c->index[i]]);
		ok = append(buf, cap, &len, c->members[i], strlen(c->members[i])) &&
		     append(buf, cap, &len, num, k);
	}
	ok = ok && append(buf, cap, &len, "}", 1);
	return ok ? len : 0;
}

char *rec_channel_json(const struct rec_channel *c, uint64_t cycle, uint32_t time,
		       const double *values, size_t n, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;

	*len = rec_channel_write(c, cycle, time, values, n, &buf, &cap);
	if (!*len) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The events' schema: dcm-web's /events, and the flight files' index and rule. */
const char rec_events_schema[] =
	"{\"type\":\"object\",\"properties\":{"
	"\"dcm_time_ms\":{\"type\":\"integer\"},\"type\":{\"type\":\"string\"},"
	"\"level\":{\"type\":\"integer\"},\"code\":{\"type\":\"integer\"},"
	"\"value\":{\"type\":\"number\"},\"count\":{\"type\":\"integer\"},"
	"\"lost\":{\"type\":\"integer\"},\"device\":{\"type\":\"string\"},"
	"\"text\":{\"type\":\"string\"},\"index\":{\"type\":\"integer\"},"
	"\"rule\":{\"type\":\"string\"}}}";

/**
 * rec_event_json() - an event as the /events channel carries it
 * @e: the event
 * @len: set to the text's length
 *
 * Return: the JSON (malloc'd), or NULL without memory.
 */
char *rec_event_json(const struct dcm_event_msg *e, size_t *len)
{
	const char *type = dcm_event_type_name(e->type);
	const char *rule = e->type == DCM_EV_SAFETY ? dcm_safety_rule_name(e->code) : NULL;
	struct json_writer w;
	char *buf = NULL;
	size_t sz;
	FILE *f = open_memstream(&buf, &sz);

	if (!f)
		return NULL;
	json_init(&w, f, false);
	json_begin_object(&w, NULL);
	json_uint(&w, "dcm_time_ms", e->time_ms);
	json_string(&w, "type", type ? type : "unknown");
	json_uint(&w, "level", e->level);
	json_uint(&w, "code", e->code);
	json_double(&w, "value", dcm_fixed_to_double(e->value));
	json_uint(&w, "count", e->count);
	json_uint(&w, "lost", e->lost);
	json_string(&w, "device", e->device);
	json_string(&w, "text", e->text);
	json_uint(&w, "index", e->index);
	if (rule)
		json_string(&w, "rule", rule);
	json_end_object(&w);
	json_finish(&w);
	return json_mem_message(f, &buf, len);
}
