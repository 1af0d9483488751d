/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording as MCAP (mcaprec.c): the channels of channels.c, each a
 * JSON schema (jsonschema) and JSON messages, the ROS 2 and 3D messages
 * of ros.c (/joint_states, /imu, /foot_pressure in CDR, /tf, and the
 * URDF once on /robot_description), and the events on /events, into an MCAP
 * writer (mcap.c). What dcmctl record -f mcap and dcm-flight
 * -f mcap write; Documentation/userspace.rst, "MCAP".
 */
#ifndef REC_MCAPREC_H
#define REC_MCAPREC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "libdcm.h"
#include "channels.h"
#include "mcap.h"
#include "ros.h"

struct rec_mcap {
	struct mcap_writer *w;
	struct rec_channels ch;		/* filled by the caller (rec_mcap_add()) */
	struct rec_ros ros;		/* and so */
	bool ros_ready;			/* @ros initialised */
	uint16_t ros_id[REC_ROS_CHANNELS];	/* their MCAP channels, those made */
	bool events;			/* an /events channel */
	char *text;			/* a message's JSON, made in it frame after frame */
	size_t text_cap;
	uint16_t events_id;
};

/*
 * Subdevice @name at @index of a frame: on its JSON channel, and in a ROS
 * 2 message if one carries it (a joint's position, the inertial board's
 * angles, rates and accelerations, the feet's FSRs). 0 or -ENOMEM.
 */
int rec_mcap_add(struct rec_mcap *m, const char *name, uint32_t index);
/*
 * The file begun into @f: the Header, then a Schema and a Channel for each
 * channel of @m->ch that has keys, each ROS 2 and 3D channel whose keys
 * were added (the URDF on /robot_description at once), and /events if
 * @m->events. @chunk: as
 * mcap_open()'s. 0 or -errno.
 */
int rec_mcap_start(struct rec_mcap *m, FILE *f, size_t chunk);
/*
 * A frame: a message on each channel, logged at the wall clock @wall
 * (seconds since the epoch), @values the frame's @n. 0 or -errno.
 */
int rec_mcap_frame(struct rec_mcap *m, uint64_t cycle, uint32_t time, double wall,
		   const double *values, size_t n);
/* An event on /events, logged at @wall. 0 or -errno. */
int rec_mcap_event(struct rec_mcap *m, const struct dcm_event_msg *e, double wall);
/*
 * The file ended (summary, footer); the channels stay, for another file
 * (rec_mcap_start() again). 0 or -errno.
 */
int rec_mcap_end(struct rec_mcap *m);
/* The writer (without an end, after an error) and the channels freed. */
void rec_mcap_free(struct rec_mcap *m);

#endif /* REC_MCAPREC_H */
