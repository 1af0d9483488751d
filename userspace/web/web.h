/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web: the robot's live view (Foxglove WebSocket stream, the page) and
 * its Prometheus metrics. Documentation/userspace.rst, "dcm-web".
 */
#ifndef DCM_WEB_H
#define DCM_WEB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"

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
};

int web_model_build(struct dcm *dcm, const char *sysfs_root, unsigned int index,
		    struct web_model *m);
void web_model_free(struct web_model *m);
const struct web_channel *web_model_channel(const struct web_model *m, unsigned int id);

/* The channels that are not groups of keys: their ids follow the groups'. */
enum {
	WEB_CHAN_CYCLE_OFFSET = 0,	/* /cycle: statistics, once a second */
	WEB_CHAN_EVENTS_OFFSET = 1,	/* /events: each kernel event */
	WEB_CHAN_EXTRA = 2,
};

/* JSON text of the advertise message of every channel (malloc'd). */
char *web_advertise_json(const struct web_model *m);
/* A group channel's message for one frame (malloc'd JSON, *len set). */
char *web_channel_json(const struct web_channel *c, const struct dcm_values_frame *f,
		       size_t *len);

/* What the metrics say besides the frame. */
struct web_counters {
	unsigned int ws_clients;	/* WebSocket connections open */
	uint64_t frames;		/* frames read */
	uint64_t dropped;		/* messages dropped for slow clients */
	uint64_t stalled;		/* clients dropped: read nothing, or answered no
					 * ping, for --ws-timeout */
	uint64_t events;		/* kernel events received */
	uint64_t events_lost;		/* events the socket overran on */
};

/*
 * Descriptors: WEB_FD_RESERVE for what is not a connection (stdio, the
 * controller, netlink, libwebsockets' own, a scrape's socket and sysfs
 * files), and two for each connection (its socket, and the file of the
 * page being sent on it).
 */
#define WEB_FD_RESERVE 32
#define WEB_FDS_PER_CONNECTION 2
#define WEB_MAX_CONNECTIONS 65536

/*
 * The connections dcm-web may hold at once with @nofile descriptors
 * (RLIMIT_NOFILE's soft limit): @want (--max-connections; 0: as many as
 * fit), at most what fits under @nofile. Return 0 if not even one fits.
 */
unsigned int web_max_connections(uint64_t nofile, unsigned int want);

int web_metrics(FILE *out, struct dcm *dcm, const struct web_model *m,
		const struct dcm_values_frame *f, const struct web_counters *c);

/* The /cycle channel's message: DCM_IOC_STATS and DCM_IOC_CYCLE_STATS. */
char *web_cycle_json(struct dcm *dcm, size_t *len);
/* The /events channel's message for one event. */
char *web_event_json(const struct dcm_event_msg *ev, size_t *len);

#endif /* DCM_WEB_H */
