// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A recording as MCAP: the channels of channels.c and the events, JSON
 * with their JSON schemas, into the MCAP writer. A message's log_time and
 * publish_time are the wall clock when its frame was read (ns since the
 * epoch); its cycle and DCM time are in the message (the ROS 2 messages'
 * header stamp is that wall clock).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/dcm.h>

#include "frames.h"
#include "json.h"
#include "mcaprec.h"

static int add_channel(struct rec_mcap *m, const char *schema_name, const char *schema,
		       const char *topic, uint16_t *id)
{
	uint16_t sid;
	int r;

	r = mcap_schema(m->w, schema_name, "jsonschema", schema, strlen(schema), &sid);
	return r ? r : mcap_channel(m->w, sid, topic, "json", id);
}

static void ros_ready(struct rec_mcap *m)
{
	if (!m->ros_ready)
		rec_ros_init(&m->ros);
	m->ros_ready = true;
}

int rec_mcap_add(struct rec_mcap *m, const char *name, uint32_t index)
{
	int r = rec_channels_add(&m->ch, name, index);

	ros_ready(m);
	if (!r)
		rec_ros_add(&m->ros, name, index);
	return r;
}

static uint64_t wall_ns(double wall)
{
	return wall > 0 ? (uint64_t)llround(wall * 1e9) : 0;
}

/* A ROS 2 or 3D channel's message of a frame (@values NULL: the URDF). */
static int ros_message(struct rec_mcap *m, unsigned int c, const double *values, size_t n,
		       uint64_t t)
{
	unsigned char *msg;
	size_t len;
	int r;

	msg = rec_ros_message(&m->ros, c, values, n, t, &len);
	if (!msg)
		return -ENOMEM;
	r = mcap_message(m->w, m->ros_id[c], t, t, msg, len);
	free(msg);
	return r;
}

/* The ROS 2 and 3D channels the keys make, and the URDF stamped @t. */
static int ros_start(struct rec_mcap *m, uint64_t t)
{
	struct rec_ros_info ri;
	unsigned int c;
	uint16_t sid;
	int r = 0;

	ros_ready(m);
	for (c = 0; !r && c < REC_ROS_CHANNELS; c++) {
		if (!rec_ros_has(&m->ros, c))
			continue;
		rec_ros_info(c, &ri);
		r = mcap_schema(m->w, ri.schema_name, ri.schema_encoding, ri.schema,
				strlen(ri.schema), &sid);
		if (!r)
			r = mcap_channel(m->w, sid, ri.topic, ri.encoding, &m->ros_id[c]);
	}
	if (r || !rec_ros_has(&m->ros, REC_ROS_ROBOT_DESCRIPTION))
		return r;
	return ros_message(m, REC_ROS_ROBOT_DESCRIPTION, NULL, 0, t);
}

int rec_mcap_start(struct rec_mcap *m, FILE *f, size_t chunk)
{
	char lib[64];
	size_t i;
	int r;

	rec_channels_trim(&m->ch);
	snprintf(lib, sizeof(lib), "dcm %s", dcm_lib_version());
	r = mcap_open(&m->w, f, "", lib, chunk);
	for (i = 0; !r && i < m->ch.n; i++) {
		char *schema = rec_channel_schema(&m->ch.c[i]);

		if (!schema)
			return -ENOMEM;
		r = add_channel(m, m->ch.c[i].schema_name, schema, m->ch.c[i].topic,
				&m->ch.c[i].id);
		free(schema);
	}
	if (!r)
		r = ros_start(m, wall_ns(rec_wall_now()));
	if (!r && m->events)
		r = add_channel(m, REC_SCHEMA_EVENTS, rec_events_schema, REC_TOPIC_EVENTS,
				&m->events_id);
	return r;
}

int rec_mcap_frame(struct rec_mcap *m, uint64_t cycle, uint32_t time, double wall,
		   const double *values, size_t n)
{
	uint64_t t = wall_ns(wall);
	size_t i, len;
	int r = 0;

	for (i = 0; !r && i < m->ch.n; i++) {
		len = rec_channel_write(&m->ch.c[i], cycle, time, values, n, &m->text,
					&m->text_cap);
		if (!len)
			return -ENOMEM;
		r = mcap_message(m->w, m->ch.c[i].id, t, t, m->text, len);
	}
	/* Each frame's: all but the URDF, which starts the file. */
	for (i = 0; !r && i < REC_ROS_ROBOT_DESCRIPTION; i++)
		if (rec_ros_has(&m->ros, (unsigned int)i))
			r = ros_message(m, (unsigned int)i, values, n, t);
	return r;
}

int rec_mcap_event(struct rec_mcap *m, const struct dcm_event_msg *e, double wall)
{
	uint64_t t = wall_ns(wall);
	size_t len;
	char *json;
	int r;

	if (!m->events)
		return -EINVAL;
	json = rec_event_json(e, &len);
	if (!json)
		return -ENOMEM;
	r = mcap_message(m->w, m->events_id, t, t, json, len);
	free(json);
	return r;
}

int rec_mcap_end(struct rec_mcap *m)
{
	int r = m->w ? mcap_close(m->w) : 0;

	m->w = NULL;
	return r;
}

void rec_mcap_free(struct rec_mcap *m)
{
	mcap_free(m->w);
	m->w = NULL;
	rec_channels_free(&m->ch);
	m->ros_ready = false;
	free(m->text);
	m->text = NULL;
	m->text_cap = 0;
}
