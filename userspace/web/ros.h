/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm-web's channels for ROS 2 tools and 3D views (ros.c): /joint_states,
 * /imu and /foot_pressure as ROS 2 messages in CDR, /tf as
 * foxglove.FrameTransforms (JSON), /robot_description (the URDF, a
 * std_msgs/msg/String). Documentation/dcm/web.rst, "ROS 2 and 3D".
 */
#ifndef DCM_WEB_ROS_H
#define DCM_WEB_ROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/dcm_sim.h>

#include "json.h"
#include "libdcm.h"

/* The channels, in the order of their ids (model.h's WEB_CHAN_ROS_OFFSET on). */
enum web_ros_channel {
	WEB_ROS_JOINT_STATES,
	WEB_ROS_IMU,
	WEB_ROS_FOOT_PRESSURE,
	WEB_ROS_TF,
	WEB_ROS_ROBOT_DESCRIPTION,
	WEB_ROS_CHANNELS
};

#define WEB_ROS_IMU_KEYS 9	/* AngleX..Z, GyroscopeX..Z, AccelerometerX..Z */
#define WEB_ROS_FOOT_KEYS 7	/* 4 FSRs, TotalWeight, CenterOfPressure X, Y */

/*
 * Where the messages' values are in a frame: each key's index, or -1 when
 * the description has no such key.
 */
struct web_ros {
	long joint[DCM_SIM_JOINTS];
	long imu[WEB_ROS_IMU_KEYS];
	long foot[2][WEB_ROS_FOOT_KEYS];
	size_t n_joints;		/* joints found */
};

/* The key named @name's index in a frame, or -1 (the model's lookup). */
typedef long (*web_ros_lookup)(const void *arg, const char *name);

void web_ros_build(struct web_ros *r, web_ros_lookup lookup, const void *arg);
bool web_ros_has(const struct web_ros *r, unsigned int chan);
/* The advertisement of channel @chan, with the id @id, into @w. */
void web_ros_advertise(const struct web_ros *r, unsigned int chan, unsigned int id,
		       struct json_writer *w);
/* Channel @chan's message for a frame taken at @ts (ns since the epoch): malloc'd. */
unsigned char *web_ros_message(const struct web_ros *r, unsigned int chan,
			       const struct dcm_values_frame *f, uint64_t ts, size_t *len);

#endif /* DCM_WEB_ROS_H */
