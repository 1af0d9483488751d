/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ROS 2 messages of a recording (ros2.c): the joints' positions as
 * sensor_msgs/msg/JointState on /joint_states and the inertial board as
 * sensor_msgs/msg/Imu on /imu, serialized in CDR (little-endian, XCDR1)
 * with their ros2msg schemas, beside the JSON channels of an MCAP file
 * (mcaprec.c). Documentation/userspace.rst, "MCAP".
 */
#ifndef REC_ROS2_H
#define REC_ROS2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mcap.h"

#define REC_TOPIC_JOINT_STATES	"/joint_states"
#define REC_TOPIC_IMU		"/imu"
/* The Imu's frame: the NAO's torso link, where the inertial board is. */
#define REC_IMU_FRAME		"torso"

/* The inertial keys an Imu is made of, in this order. */
enum {
	REC_IMU_ANGLE_X, REC_IMU_ANGLE_Y, REC_IMU_ANGLE_Z,
	REC_IMU_GYRO_X, REC_IMU_GYRO_Y, REC_IMU_GYRO_Z,
	REC_IMU_ACC_X, REC_IMU_ACC_Y, REC_IMU_ACC_Z,
	REC_IMU_KEYS
};

struct rec_ros2 {
	size_t n_joints;
	char **joints;			/* "HeadYaw" */
	char **keys;			/* "HeadYaw/Position/Sensor" */
	uint32_t *index;		/* their places in a frame */
	char *imu_keys[REC_IMU_KEYS];	/* NULL: not recorded */
	uint32_t imu_index[REC_IMU_KEYS];
	uint16_t joint_states, imu;	/* MCAP channels, once made */
	bool has_joint_states, has_imu;
};

/*
 * Key @name (a subdevice's) at @index of a frame: a joint's position
 * sensor, or one of the inertial board's angles, rates and accelerations,
 * kept; any other left. 0 or -ENOMEM.
 */
int rec_ros2_add(struct rec_ros2 *r, const char *name, uint32_t index);
/*
 * The Schemas and Channels into @w: /joint_states if a joint was added,
 * /imu if every inertial key was. 0 or -errno.
 */
int rec_ros2_start(struct rec_ros2 *r, struct mcap_writer *w);
/* A frame's messages, stamped with the wall clock @wall (s): 0 or -errno. */
int rec_ros2_frame(struct rec_ros2 *r, struct mcap_writer *w, double wall,
		   const double *values, size_t n);
void rec_ros2_free(struct rec_ros2 *r);

/* The CDR of one JointState (malloc'd, *@len set), or NULL without memory. */
unsigned char *rec_ros2_joint_state(uint32_t sec, uint32_t nsec, size_t n,
				    const char *const *names, const double *pos, size_t *len);
/*
 * The CDR of one Imu of the angles @v[0..2] (rad: roll, pitch, yaw), the
 * rates @v[3..5] (rad/s) and the accelerations @v[6..8] (m/s^2).
 */
unsigned char *rec_ros2_imu(uint32_t sec, uint32_t nsec, const double *v, size_t *len);

#endif /* REC_ROS2_H */
