/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dcmctl top: a live view of the robot on one terminal screen. What is
 * shown (struct top_view) is filled from the controller, then laid out
 * into a grid of characters (top_render()), which the unit tests check
 * without a robot or a terminal.
 */
#ifndef DCMCTL_TOP_H
#define DCMCTL_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdcm.h"

#define TOP_MAX_JOINTS		40
#define TOP_MAX_EVENTS		64	/* kept, newest last */
#define TOP_EVENT_WINDOW_MS	30000	/* events shown: the last 30 s */
#define TOP_NAME_LEN		32
#define TOP_EVENT_LEN		96

/* Every value is NAN when the robot has no such key. */
struct top_joint {
	char name[TOP_NAME_LEN];	/* "HeadYaw" */
	double cmd;			/* Position/Actuator: the command sent */
	double sensor;			/* Position/Sensor */
	double stiffness;		/* Hardness/Actuator: what was sent */
	double temp;			/* Temperature/Sensor, degC */
	int temp_status;		/* Temperature/Sensor/Status 0-3; -1: unknown */
	double current;			/* ElectricCurrent/Sensor, A */
};

struct top_foot {
	double fsr[4];			/* FrontLeft, FrontRight, RearLeft, RearRight, kg */
	double total;			/* TotalWeight, kg */
	double cop_x, cop_y;		/* CenterOfPressure, m */
};

struct top_event {
	uint32_t time;			/* DCM time, ms */
	unsigned int type;		/* enum dcm_event_type */
	char text[TOP_EVENT_LEN];	/* "safety cycle-fault on: ..." */
};

struct top_view {
	char controller[LIBDCM_NAME_LEN];	/* "dcm0" */
	char driver[LIBDCM_NAME_LEN];		/* "dcm_sim" */
	uint32_t time;			/* DCM time now, ms */
	uint64_t cycle;			/* cycle of the values */
	uint32_t period_us;		/* 0: unknown */
	bool has_stats;
	struct dcm_stats stats;
	size_t n_joints;
	struct top_joint joints[TOP_MAX_JOINTS];
	double charge, bat_current, bat_temp;	/* Battery */
	struct top_foot foot[2];	/* LFoot, RFoot */
	double angle[2];		/* InertialSensor AngleX, AngleY, rad */
	double acc[3];			/* AccelerometerX, Y, Z, m/s^2 */
	double gyr[3];			/* GyroscopeX, Y, Z, rad/s */
	bool events_on;			/* events are followed */
	unsigned int events_lost;	/* the kernel dropped some */
	size_t n_events;
	struct top_event events[TOP_MAX_EVENTS];
	unsigned int interval_ms;
	char message[80];		/* a line for the user, "" if none */
};

/* top_view_init - every value unknown, no joint, no event. */
void top_view_init(struct top_view *v);

/*
 * top_add_event - keep an event (the oldest goes when TOP_MAX_EVENTS are
 * kept); overruns, configuration and special commands are not kept.
 */
void top_add_event(struct top_view *v, uint32_t time, unsigned int type, const char *text);

/*
 * top_abbrev - @name in at most @width characters (and @len - 1): as it is
 * if it fits, else with "Shoulder" as "Shldr", "Pitch" as "Ptch", then cut.
 */
void top_abbrev(const char *name, size_t width, char *out, size_t len);

/*
 * top_render - lay @v out on a screen of @rows lines of @cols characters:
 * @screen holds @rows strings of @cols + 1 bytes each, every one NUL-
 * terminated and blank-padded to @cols. Nothing is written past a line's
 * @cols characters; what does not fit is left out.
 */
void top_render(const struct top_view *v, char *screen, int rows, int cols);

/*
 * top_parse_args - dcmctl top's options: [--interval MS] [--once]
 * (--opt=value too, abbreviations as every command takes them; -i MS,
 * -1). --help is dcmctl's, read before. Return: 0, or -EINVAL (-ENOMEM)
 * with @err set.
 */
int top_parse_args(int argc, char **argv, unsigned int *interval_ms, bool *once, char *err,
		   size_t errlen);

#endif /* DCMCTL_TOP_H */
