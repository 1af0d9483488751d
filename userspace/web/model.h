/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's model: the running description's keys grouped into the
 * stream's channels and the metrics' families, and the stream's JSON
 * messages. Documentation/dcm/web.rst.
 */
#ifndef DCM_WEB_MODEL_H
#define DCM_WEB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "libdcm.h"
#include "ros.h"

/* A channel of the stream: a group of keys sent together each cycle. */
struct web_channel {
	unsigned int id;		/* the Foxglove channel id, from 1 */
	const char *topic;		/* "/joints/position" */
	const char *schema_name;	/* "dcm.JointPositions" */
	size_t n_fields;
	char **fields;			/* "HeadYaw", "LFoot_FrontLeft" */
	uint32_t *index;		/* each field's handle index in a frame */
	char **labels;			/* each field's metric label: "LFoot_FrontLeft" */
	unsigned int *rule;		/* the rule that made each field (model.c) */
};

/* A live key or subdevice the metrics name, with its frame index. */
struct web_key {
	char *name;			/* "HeadYaw/Temperature/Sensor/Status" */
	uint32_t index;
};

/*
 * The running description as the server sees it: the channels of the
 * stream and the keys of the metrics, with their places in a frame.
 */
struct web_model {
	uint32_t generation;
	size_t n_channels;
	struct web_channel *channels;
	size_t n_keys;
	struct web_key *keys;
	size_t n_handles;		/* entries of a frame */
	struct rec_ros ros;		/* the ROS 2 and 3D channels' keys */
};

int web_model_build(struct dcm *dcm, const char *sysfs_root, unsigned int index,
		    struct web_model *m);
void web_model_free(struct web_model *m);
const struct web_channel *web_model_channel(const struct web_model *m, unsigned int id);

/* The channels that are not groups of keys: their ids follow the groups'. */
enum {
	WEB_CHAN_CYCLE_OFFSET = 0,	/* /cycle: statistics, once a second */
	WEB_CHAN_EVENTS_OFFSET = 1,	/* /events: each kernel event */
	WEB_CHAN_ROS_OFFSET = 2,	/* enum rec_ros_channel's, in order (rec/ros.h) */
	WEB_CHAN_EXTRA = WEB_CHAN_ROS_OFFSET + REC_ROS_CHANNELS,
};

/* The id of ROS channel @chan (enum rec_ros_channel). */
static inline unsigned int web_chan_ros(const struct web_model *m, unsigned int chan)
{
	return (unsigned int)m->n_channels + 1 + WEB_CHAN_ROS_OFFSET + chan;
}

/* JSON text of the advertise message of every channel (malloc'd). */
char *web_advertise_json(const struct web_model *m);
/* A group channel's message for one frame (malloc'd JSON, *len set). */
char *web_channel_json(const struct web_channel *c, const struct dcm_values_frame *f,
		       size_t *len);

/* The /cycle channel's message: DCM_IOC_STATS and DCM_IOC_CYCLE_STATS. */
char *web_cycle_json(struct dcm *dcm, size_t *len);
/* The /events channel's message for one event. */
char *web_event_json(const struct dcm_event_msg *ev, size_t *len);

/*
 * The metric family of a rule (web_channel.rule): name, label, type, help,
 * and the factor from the key's unit to the metric's.
 */
struct web_family {
	const char *metric;		/* "dcm_joint_position_radians"; NULL: none */
	const char *label;		/* "joint"; NULL: one sample, no label */
	const char *type;		/* "gauge" or "counter" */
	const char *help;
	double scale;			/* 1000 for kg as g */
};

unsigned int web_rule_count(void);
void web_rule_family(unsigned int rule, struct web_family *fam);

#endif /* DCM_WEB_MODEL_H */
