/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The channels of dcm-web's stream and of MCAP recordings (channels.c):
 * the keys grouped (topics, schema names, fields and JSON messages:
 * Documentation/dcm/web.rst), those no group takes on a channel of their
 * own, /keys (recorded, not streamed); each channel's JSON schema; the
 * events' messages on /events.
 */
#ifndef REC_CHANNELS_H
#define REC_CHANNELS_H

#include <stddef.h>
#include <stdint.h>

#include "libdcm.h"

/* The channel of the keys that no group of dcm-web takes. */
#define REC_TOPIC_KEYS		"/keys"
#define REC_SCHEMA_KEYS		"dcm.Keys"
/* The kernel's events, one message each. */
#define REC_TOPIC_EVENTS	"/events"
#define REC_SCHEMA_EVENTS	"dcm.Event"

/* A channel: a group of keys, a JSON object a cycle. */
struct rec_channel {
	const char *topic;		/* "/joints/position" */
	const char *schema_name;	/* "dcm.JointPositions" */
	size_t n;
	char **fields;			/* "HeadYaw", "LFoot_FrontLeft" */
	char **keys;			/* "HeadYaw/Position/Sensor" */
	char **members;			/* ",\"HeadYaw\":": the field as a JSON member's start */
	uint32_t *index;		/* each key's place in a frame */
	uint16_t id;			/* its MCAP channel, once made */
};

struct rec_channels {
	size_t n;
	struct rec_channel *c;		/* dcm-web's groups in its order, /keys last */
};

/*
 * Key @name (a subdevice's name as the tree has it, or a live key's) at
 * @index of a frame, into its group's channel, or /keys. 0 or -ENOMEM.
 */
int rec_channels_add(struct rec_channels *cs, const char *name, uint32_t index);
/* The channels that have keys: those with none are dropped. */
void rec_channels_trim(struct rec_channels *cs);
void rec_channels_free(struct rec_channels *cs);
/* The JSON schema of @c (malloc'd text): dcm-web's for its groups. */
char *rec_channel_schema(const struct rec_channel *c);
/*
 * @c's message of a frame: {"cycle", "dcm_time_ms", FIELD: value...}
 * (malloc'd, *@len set), @values the frame's (@n of them; a key beyond
 * is left out). NULL without memory. The text is dcm-web's, number for
 * number (json_double()'s).
 */
char *rec_channel_json(const struct rec_channel *c, uint64_t cycle, uint32_t time,
		       const double *values, size_t n, size_t *len);
/*
 * The same into *@buf (of *@cap bytes, grown with realloc() as needed, the
 * caller's to free): its length, or 0 without memory. A recording's every
 * frame: no stream, no allocation once the buffer is large enough.
 */
size_t rec_channel_write(const struct rec_channel *c, uint64_t cycle, uint32_t time,
			 const double *values, size_t n, char **buf, size_t *cap);
/*
 * @v as json_double() writes it (null if not finite) into @out (32 bytes
 * at least): a micro-unit value (the DCM's fixed point) from its digits,
 * any other through printf. Its length.
 */
size_t rec_json_number(char *out, double v);

/* The JSON schema of /events' messages. */
extern const char rec_events_schema[];
/* An event's message on /events (malloc'd JSON, *@len set), or NULL. */
char *rec_event_json(const struct dcm_event_msg *e, size_t *len);

#endif /* REC_CHANNELS_H */
