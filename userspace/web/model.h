/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's model: the running description's keys grouped into the
 * stream's channels (rec/channels.c) and the metrics' families, and the
 * advertisement and the statistics' message. Documentation/dcm/web.rst.
 */
#ifndef DCM_WEB_MODEL_H
#define DCM_WEB_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "channels.h"
#include "libdcm.h"
#include "ros.h"

/* A live key or subdevice the metrics name, with its frame index. */
struct web_key {
	char *name;			/* "HeadYaw/Temperature/Sensor/Status" */
	uint32_t index;
};

/* A key the metrics export: its family (a rule of model.c), label and place. */
struct web_metric {
	unsigned int rule;
	char *label;			/* "LFoot_FrontLeft" */
	uint32_t index;
};

/*
 * The running description as the server sees it: the channels of the
 * stream (rec/channels.c's; channel id N is @ch.c[N - 1]) and the keys of
 * the metrics, with their places in a frame.
 */
struct web_model {
	uint32_t generation;
	struct rec_channels ch;
	size_t n_channels;		/* @ch.n: the group channels' ids are 1 to it */
	size_t n_metrics;
	struct web_metric *metrics;
	size_t n_keys;
	struct web_key *keys;
	size_t n_handles;		/* entries of a frame */
	struct rec_ros ros;		/* the ROS 2 and 3D channels' keys */
};

int web_model_build(struct dcm *dcm, const char *sysfs_root, unsigned int index,
		    struct web_model *m);
void web_model_free(struct web_model *m);
const struct rec_channel *web_model_channel(const struct web_model *m, unsigned int id);

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

/* The /cycle channel's message: DCM_IOC_STATS and DCM_IOC_CYCLE_STATS. */
char *web_cycle_json(struct dcm *dcm, size_t *len);

/*
 * The metric family of a rule (web_metric.rule): name, label, type, help,
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
