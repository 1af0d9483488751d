// SPDX-License-Identifier: GPL-2.0
/*
 * The ROS 2 and 3D messages of a frame: which keys make each one, what
 * each channel is (for dcm-web's advertisement and MCAP's records) and the
 * messages themselves.
 *
 * /joint_states     sensor_msgs/msg/JointState, CDR: every joint's
 *                   Position/Sensor, named as Device.xml names the joint
 * /imu              sensor_msgs/msg/Imu, CDR, frame "torso": AngleX, AngleY,
 *                   AngleZ as the orientation, GyroscopeX..Z,
 *                   AccelerometerX..Z
 * /foot_pressure    dcm_msgs/msg/FootPressure, CDR: each foot's FSRs,
 *                   TotalWeight and CenterOfPressure
 * /tf               foxglove.FrameTransforms, JSON: each joint's child link
 *                   in its parent's frame at the joint's position
 *                   (nao_joint_transform(), the URDF's joints)
 * /robot_description std_msgs/msg/String, CDR: the URDF (nao_urdf()), sent
 *                   to each subscription when it is made, and once at the
 *                   start of an MCAP file
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "nao_model.h"
#include "nao_urdf.h"
#include "ros.h"
#include "ros2_msgs.h"

static const char *const imu_keys[REC_ROS_IMU_KEYS] = {
	"AngleX", "AngleY", "AngleZ", "GyroscopeX", "GyroscopeY", "GyroscopeZ",
	"AccelerometerX", "AccelerometerY", "AccelerometerZ",
};

static const char *const foot_keys[REC_ROS_FOOT_KEYS] = {
	"FrontLeft", "FrontRight", "RearLeft", "RearRight", "TotalWeight",
	"CenterOfPressure/X", "CenterOfPressure/Y",
};

static const char *const topics[REC_ROS_CHANNELS] = {
	"/joint_states", "/imu", "/foot_pressure", "/tf", "/robot_description",
};

/* foxglove.FrameTransforms, as its documentation gives the fields. */
static const char tf_schema[] =
	"{\"title\":\"foxglove.FrameTransforms\",\"type\":\"object\",\"properties\":{"
	"\"transforms\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
	"\"timestamp\":{\"type\":\"object\",\"properties\":{\"sec\":{\"type\":\"integer\"},"
	"\"nsec\":{\"type\":\"integer\"}}},"
	"\"parent_frame_id\":{\"type\":\"string\"},\"child_frame_id\":{\"type\":\"string\"},"
	"\"translation\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"number\"},"
	"\"y\":{\"type\":\"number\"},\"z\":{\"type\":\"number\"}}},"
	"\"rotation\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"number\"},"
	"\"y\":{\"type\":\"number\"},\"z\":{\"type\":\"number\"},\"w\":{\"type\":\"number\"}}}"
	"}}}}}";

/**
 * rec_ros_init() - no key yet
 * @r: the keys of the messages
 */
void rec_ros_init(struct rec_ros *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < DCM_SIM_JOINTS; i++)
		r->joint[i] = -1;
	for (i = 0; i < REC_ROS_IMU_KEYS; i++)
		r->imu[i] = -1;
	for (i = 0; i < REC_ROS_FOOT_KEYS; i++)
		r->foot[0][i] = r->foot[1][i] = -1;
}

/* @name is @a, then @b, then @c (any of them may be ""). */
static bool is3(const char *name, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b);

	return !strncmp(name, a, la) && !strncmp(name + la, b, lb) && !strcmp(name + la + lb, c);
}

/**
 * rec_ros_add() - a subdevice of the frames
 * @r: the keys of the messages
 * @name: its name ("HeadYaw/Position/Sensor")
 * @index: its place in a frame
 *
 * Return: whether a message carries it.
 */
bool rec_ros_add(struct rec_ros *r, const char *name, uint32_t index)
{
	unsigned int i, f;

	for (i = 0; i < DCM_SIM_JOINTS; i++)
		if (is3(name, phys_joint_names[i], "/Position/Sensor", "")) {
			r->n_joints += r->joint[i] < 0;
			r->joint[i] = index;
			return true;
		}
	for (i = 0; i < REC_ROS_IMU_KEYS; i++)
		if (is3(name, "InertialSensor/", imu_keys[i], "/Sensor")) {
			r->imu[i] = index;
			return true;
		}
	for (f = 0; f < 2; f++)
		for (i = 0; i < REC_ROS_FOOT_KEYS; i++)
			if (is3(name, f ? "RFoot/FSR/" : "LFoot/FSR/", foot_keys[i], "/Sensor")) {
				r->foot[f][i] = index;
				return true;
			}
	return false;
}

static bool all_found(const long *idx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (idx[i] < 0)
			return false;
	return true;
}

/* Whether the description has what channel @chan sends. */
bool rec_ros_has(const struct rec_ros *r, unsigned int chan)
{
	switch (chan) {
	case REC_ROS_JOINT_STATES:
	case REC_ROS_TF:
	case REC_ROS_ROBOT_DESCRIPTION:		/* the body whose joints move */
		return r->n_joints > 0;
	case REC_ROS_IMU:
		return all_found(r->imu, REC_ROS_IMU_KEYS);
	case REC_ROS_FOOT_PRESSURE:
		return all_found(r->foot[0], REC_ROS_FOOT_KEYS) &&
		       all_found(r->foot[1], REC_ROS_FOOT_KEYS);
	default:
		return false;
	}
}

/**
 * rec_ros_info() - what channel @chan is
 * @chan: enum rec_ros_channel
 * @info: filled
 */
void rec_ros_info(unsigned int chan, struct rec_ros_info *info)
{
	static const struct ros2_type *const types[REC_ROS_CHANNELS] = {
		&ros2_joint_state_type, &ros2_imu_type, &ros2_foot_pressure_type, NULL,
		&ros2_string_type,
	};
	const struct ros2_type *t = chan < REC_ROS_CHANNELS ? types[chan] : NULL;

	info->topic = chan < REC_ROS_CHANNELS ? topics[chan] : "";
	if (t) {
		info->encoding = "cdr";
		info->schema_name = t->name;
		info->schema = t->schema;
		info->schema_encoding = "ros2msg";
	} else {
		info->encoding = "json";
		info->schema_name = "foxglove.FrameTransforms";
		info->schema = tf_schema;
		info->schema_encoding = "jsonschema";
	}
}

/* A frame: its values and their number. */
struct frame {
	const double *v;
	size_t n;
};

static double value(const struct frame *f, long idx)
{
	return idx >= 0 && (size_t)idx < f->n ? f->v[idx] : 0;
}

static unsigned char *joint_states(const struct rec_ros *r, const struct frame *f,
				   const struct ros2_header *h, size_t *len)
{
	const char *name[DCM_SIM_JOINTS];
	double pos[DCM_SIM_JOINTS];
	size_t i, n = 0;
	struct cdr c;

	for (i = 0; i < DCM_SIM_JOINTS; i++)
		if (r->joint[i] >= 0) {
			name[n] = phys_joint_names[i];
			pos[n++] = value(f, r->joint[i]);
		}
	cdr_begin(&c);
	ros2_joint_state(&c, h, n, name, pos);
	return cdr_end(&c, len);
}

static unsigned char *imu(const struct rec_ros *r, const struct frame *f,
			  const struct ros2_header *h, size_t *len)
{
	struct ros2_imu m;
	struct cdr c;
	int i;

	ros2_quaternion_rpy(value(f, r->imu[0]), value(f, r->imu[1]), value(f, r->imu[2]),
			    m.orientation);
	for (i = 0; i < 3; i++) {
		m.angular_velocity[i] = value(f, r->imu[3 + i]);
		m.linear_acceleration[i] = value(f, r->imu[6 + i]);
	}
	cdr_begin(&c);
	ros2_imu(&c, h, &m);
	return cdr_end(&c, len);
}

static unsigned char *foot_pressure(const struct rec_ros *r, const struct frame *f,
				    const struct ros2_header *h, size_t *len)
{
	struct ros2_foot_pressure p;
	struct cdr c;
	int s, i;

	for (s = 0; s < 2; s++) {
		for (i = 0; i < 4; i++)
			p.fsr[s][i] = value(f, r->foot[s][i]);
		p.total_weight[s] = value(f, r->foot[s][4]);
		p.center_of_pressure[s][0] = value(f, r->foot[s][5]);
		p.center_of_pressure[s][1] = value(f, r->foot[s][6]);
	}
	cdr_begin(&c);
	ros2_foot_pressure(&c, h, &p);
	return cdr_end(&c, len);
}

static void put_xyz(struct json_writer *w, const char *key, const double *v, int n)
{
	static const char *const names[] = { "x", "y", "z", "w" };
	int i;

	json_begin_object(w, key);
	for (i = 0; i < n; i++)
		json_double(w, names[i], v[i]);
	json_end_object(w);
}

static unsigned char *transforms(const struct rec_ros *r, const struct frame *f,
				 uint64_t ts, size_t *len)
{
	struct nao_transform t;
	struct json_writer w;
	char *buf = NULL;
	size_t sz;
	unsigned int j;
	FILE *m = open_memstream(&buf, &sz);

	if (!m)
		return NULL;
	json_init(&w, m, false);
	json_begin_object(&w, NULL);
	json_begin_array(&w, "transforms");
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		if (r->joint[j] < 0 || !nao_joint_transform(j, value(f, r->joint[j]), &t))
			continue;
		json_begin_object(&w, NULL);
		json_begin_object(&w, "timestamp");
		json_uint(&w, "sec", ts / 1000000000u);
		json_uint(&w, "nsec", ts % 1000000000u);
		json_end_object(&w);
		json_string(&w, "parent_frame_id", t.parent);
		json_string(&w, "child_frame_id", t.child);
		put_xyz(&w, "translation", t.translation, 3);
		put_xyz(&w, "rotation", t.rotation, 4);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	json_finish(&w);
	return (unsigned char *)json_mem_message(m, &buf, len);
}

static unsigned char *robot_description(size_t *len)
{
	char *urdf = nao_urdf();
	unsigned char *b;
	struct cdr c;

	if (!urdf)
		return NULL;
	cdr_begin(&c);
	ros2_string(&c, urdf);
	free(urdf);
	b = cdr_end(&c, len);
	return b;
}

/**
 * rec_ros_message() - a channel's message
 * @r: the keys
 * @chan: enum rec_ros_channel
 * @values: the frame's values (none for /robot_description)
 * @n: how many
 * @ts: the frame's time, ns since the epoch: the messages' stamps
 * @len: set to its length
 *
 * Return: the message (the caller frees it), or NULL (no memory, or no
 * such channel for these keys).
 */
unsigned char *rec_ros_message(const struct rec_ros *r, unsigned int chan,
			       const double *values, size_t n, uint64_t ts, size_t *len)
{
	const struct ros2_header h = {
		.stamp_ns = ts, .frame_id = chan == REC_ROS_IMU ? NAO_URDF_ROOT : "",
	};
	const struct frame fr = { values, n };
	const struct frame *f = &fr;

	if (!rec_ros_has(r, chan))
		return NULL;
	switch (chan) {
	case REC_ROS_JOINT_STATES:
		return joint_states(r, f, &h, len);
	case REC_ROS_IMU:
		return imu(r, f, &h, len);
	case REC_ROS_FOOT_PRESSURE:
		return foot_pressure(r, f, &h, len);
	case REC_ROS_TF:
		return transforms(r, f, ts, len);
	default:
		return robot_description(len);
	}
}
