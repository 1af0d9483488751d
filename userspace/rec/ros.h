/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ROS 2 and 3D messages of a frame (ros.c), the same in dcm-web's
 * stream and in MCAP recordings: /joint_states, /imu and /foot_pressure
 * as ROS 2 messages in CDR, /tf as foxglove.FrameTransforms (JSON),
 * /robot_description (the URDF, a std_msgs/msg/String).
 * Documentation/dcm/web.rst, "ROS 2 and 3D".
 */
#ifndef REC_ROS_H
#define REC_ROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/dcm_sim.h>

/* The channels, in this order wherever they are numbered. */
enum rec_ros_channel {
	REC_ROS_JOINT_STATES,
	REC_ROS_IMU,
	REC_ROS_FOOT_PRESSURE,
	REC_ROS_TF,
	REC_ROS_ROBOT_DESCRIPTION,	/* once, not a message a frame */
	REC_ROS_CHANNELS
};

#define REC_ROS_IMU_KEYS 9	/* AngleX..Z, GyroscopeX..Z, AccelerometerX..Z */
#define REC_ROS_FOOT_KEYS 7	/* 4 FSRs, TotalWeight, CenterOfPressure X, Y */

/*
 * Where the messages' values are in a frame: each key's index, or -1 when
 * the keys given (rec_ros_add()) had no such key.
 */
struct rec_ros {
	long joint[DCM_SIM_JOINTS];
	long imu[REC_ROS_IMU_KEYS];
	long foot[2][REC_ROS_FOOT_KEYS];
	size_t n_joints;		/* joints found */
};

/**
 * struct rec_ros_info - what a channel is, for its advertisement or its
 *	MCAP Schema and Channel records
 * @topic: "/joint_states"
 * @encoding: the messages': "cdr" or "json"
 * @schema_name: "sensor_msgs/msg/JointState"
 * @schema: its text
 * @schema_encoding: "ros2msg" or "jsonschema"
 */
struct rec_ros_info {
	const char *topic;
	const char *encoding;
	const char *schema_name;
	const char *schema;
	const char *schema_encoding;
};

void rec_ros_init(struct rec_ros *r);
/* Subdevice @name at @index of a frame: kept if a message carries it. */
bool rec_ros_add(struct rec_ros *r, const char *name, uint32_t index);
/* Whether the keys given make channel @chan's messages. */
bool rec_ros_has(const struct rec_ros *r, unsigned int chan);
void rec_ros_info(unsigned int chan, struct rec_ros_info *info);
/*
 * Channel @chan's message for a frame's @values (@n of them) taken at @ts
 * (ns since the epoch): malloc'd, *@len set; NULL without memory or when
 * the keys do not make it.
 */
unsigned char *rec_ros_message(const struct rec_ros *r, unsigned int chan,
			       const double *values, size_t n, uint64_t ts, size_t *len);

#endif /* REC_ROS_H */
