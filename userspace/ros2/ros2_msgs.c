// SPDX-License-Identifier: GPL-2.0
/*
 * The ROS 2 messages dcm sends, in CDR (cdr.c). Standard types where ROS
 * has one (sensor_msgs/msg/JointState, sensor_msgs/msg/Imu,
 * std_msgs/msg/String), written field for field as their .msg files give
 * them; the feet's pressure sensors, which ROS has no type for, as
 * dcm_msgs/msg/FootPressure (Documentation/dcm/web.rst gives it).
 *
 * A schema is the type's definition followed by those it uses, each after
 * a line of 80 '=' and "MSG: package/Name": the "ros2msg" encoding of
 * schemas in MCAP and in Foxglove's WebSocket protocol.
 */
#include <math.h>

#include "ros2_msgs.h"

#define SEP "================================================================================\n"

#define TIME_MSG SEP "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
#define HEADER_MSG SEP "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" \
	TIME_MSG
#define VECTOR3_MSG SEP "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
#define QUATERNION_MSG SEP "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\n" \
	"float64 z 0\nfloat64 w 1\n"
#define POINT_MSG SEP "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y\nfloat64 z\n"

const struct ros2_type ros2_joint_state_type = {
	"sensor_msgs/msg/JointState",
	"std_msgs/Header header\n"
	"string[] name\n"
	"float64[] position\n"
	"float64[] velocity\n"
	"float64[] effort\n"
	HEADER_MSG,
};

const struct ros2_type ros2_imu_type = {
	"sensor_msgs/msg/Imu",
	"std_msgs/Header header\n"
	"geometry_msgs/Quaternion orientation\n"
	"float64[9] orientation_covariance\n"
	"geometry_msgs/Vector3 angular_velocity\n"
	"float64[9] angular_velocity_covariance\n"
	"geometry_msgs/Vector3 linear_acceleration\n"
	"float64[9] linear_acceleration_covariance\n"
	HEADER_MSG QUATERNION_MSG VECTOR3_MSG,
};

const struct ros2_type ros2_foot_pressure_type = {
	"dcm_msgs/msg/FootPressure",
	"# The feet's force-sensitive resistors, the left foot's first.\n"
	"std_msgs/Header header\n"
	"# FrontLeft, FrontRight, RearLeft, RearRight, kg\n"
	"float64[4] left_fsr\n"
	"float64[4] right_fsr\n"
	"# kg\n"
	"float64 left_total_weight\n"
	"float64 right_total_weight\n"
	"# in the foot's frame, m (z is 0)\n"
	"geometry_msgs/Point left_center_of_pressure\n"
	"geometry_msgs/Point right_center_of_pressure\n"
	HEADER_MSG POINT_MSG,
};

const struct ros2_type ros2_string_type = {
	"std_msgs/msg/String",
	"string data\n",
};

static void header(struct cdr *c, const struct ros2_header *h)
{
	cdr_i32(c, (int32_t)(h->stamp_ns / 1000000000u));
	cdr_u32(c, (uint32_t)(h->stamp_ns % 1000000000u));
	cdr_string(c, h->frame_id ? h->frame_id : "");
}

static void f64s(struct cdr *c, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cdr_f64(c, v ? v[i] : 0);
}

void ros2_joint_state(struct cdr *c, const struct ros2_header *h, size_t n,
		      const char *const *name, const double *position)
{
	size_t i;

	header(c, h);
	cdr_u32(c, (uint32_t)n);
	for (i = 0; i < n; i++)
		cdr_string(c, name[i]);
	cdr_u32(c, (uint32_t)n);
	f64s(c, position, n);
	cdr_u32(c, 0);		/* velocity */
	cdr_u32(c, 0);		/* effort */
}

void ros2_imu(struct cdr *c, const struct ros2_header *h, const struct ros2_imu *imu)
{
	header(c, h);
	f64s(c, imu->orientation, 4);
	f64s(c, NULL, 9);
	f64s(c, imu->angular_velocity, 3);
	f64s(c, NULL, 9);
	f64s(c, imu->linear_acceleration, 3);
	f64s(c, NULL, 9);
}

void ros2_foot_pressure(struct cdr *c, const struct ros2_header *h,
			const struct ros2_foot_pressure *p)
{
	int f;

	header(c, h);
	f64s(c, p->fsr[0], 4);
	f64s(c, p->fsr[1], 4);
	cdr_f64(c, p->total_weight[0]);
	cdr_f64(c, p->total_weight[1]);
	for (f = 0; f < 2; f++) {
		f64s(c, p->center_of_pressure[f], 2);
		cdr_f64(c, 0);
	}
}

void ros2_string(struct cdr *c, const char *data)
{
	cdr_string(c, data);
}

void ros2_quaternion_rpy(double roll, double pitch, double yaw, double q[4])
{
	double cr = cos(roll / 2), sr = sin(roll / 2);
	double cp = cos(pitch / 2), sp = sin(pitch / 2);
	double cy = cos(yaw / 2), sy = sin(yaw / 2);

	q[0] = sr * cp * cy - cr * sp * sy;
	q[1] = cr * sp * cy + sr * cp * sy;
	q[2] = cr * cp * sy - sr * sp * cy;
	q[3] = cr * cp * cy + sr * sp * sy;
}
