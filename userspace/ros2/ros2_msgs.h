/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ROS 2 messages dcm sends (ros2_msgs.c): each one's type name, its
 * definition as a "ros2msg" schema (the .msg text with the definitions it
 * uses, as rosbag2 writes them into MCAP), and its encoder into CDR.
 */
#ifndef DCM_ROS2_MSGS_H
#define DCM_ROS2_MSGS_H

#include <stddef.h>
#include <stdint.h>

#include "cdr.h"

/* A message type: "sensor_msgs/msg/JointState" and its ros2msg schema. */
struct ros2_type {
	const char *name;
	const char *schema;
};

extern const struct ros2_type ros2_joint_state_type;
extern const struct ros2_type ros2_imu_type;
extern const struct ros2_type ros2_foot_pressure_type;
extern const struct ros2_type ros2_string_type;

/* std_msgs/msg/Header: a time (ns since the epoch) and a frame. */
struct ros2_header {
	uint64_t stamp_ns;
	const char *frame_id;
};

/* sensor_msgs/msg/JointState: @n names and positions; no velocity, no effort. */
void ros2_joint_state(struct cdr *c, const struct ros2_header *h, size_t n,
		      const char *const *name, const double *position);

/**
 * struct ros2_imu - sensor_msgs/msg/Imu's values (covariances unknown: zero)
 * @orientation: x, y, z, w
 * @angular_velocity: rad/s
 * @linear_acceleration: m/s^2
 */
struct ros2_imu {
	double orientation[4];
	double angular_velocity[3];
	double linear_acceleration[3];
};

void ros2_imu(struct cdr *c, const struct ros2_header *h, const struct ros2_imu *imu);

/**
 * struct ros2_foot_pressure - dcm_msgs/msg/FootPressure's values, for the
 *	left foot [0] and the right one [1]
 * @fsr: each foot's four FSRs (FrontLeft, FrontRight, RearLeft, RearRight), kg
 * @total_weight: kg
 * @center_of_pressure: x, y in the foot's frame, m
 */
struct ros2_foot_pressure {
	double fsr[2][4];
	double total_weight[2];
	double center_of_pressure[2][2];
};

void ros2_foot_pressure(struct cdr *c, const struct ros2_header *h,
			const struct ros2_foot_pressure *p);

/* std_msgs/msg/String. */
void ros2_string(struct cdr *c, const char *data);

/* Euler angles (roll about X, pitch about Y, yaw about Z) as a quaternion x, y, z, w. */
void ros2_quaternion_rpy(double roll, double pitch, double yaw, double q[4]);

#endif /* DCM_ROS2_MSGS_H */
