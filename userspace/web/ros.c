// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-web's ROS 2 and 3D channels: which keys of a frame make each
 * message, their advertisements and the messages themselves.
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
 *                   to each subscription when it is made
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nao_model.h"
#include "nao_urdf.h"
#include "ros.h"
#include "ros2_msgs.h"

static const char *const imu_keys[WEB_ROS_IMU_KEYS] = {
	"AngleX", "AngleY", "AngleZ", "GyroscopeX", "GyroscopeY", "GyroscopeZ",
	"AccelerometerX", "AccelerometerY", "AccelerometerZ",
};

static const char *const foot_keys[WEB_ROS_FOOT_KEYS] = {
	"FrontLeft", "FrontRight", "RearLeft", "RearRight", "TotalWeight",
	"CenterOfPressure/X", "CenterOfPressure/Y",
};

static const char *const topics[WEB_ROS_CHANNELS] = {
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
 * web_ros_build() - find the keys of the messages
 * @r: filled
 * @lookup: a key's index in a frame by its name, or -1
 * @arg: @lookup's
 */
void web_ros_build(struct web_ros *r, web_ros_lookup lookup, const void *arg)
{
	char name[96];
	unsigned int i, f;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < DCM_SIM_JOINTS; i++) {
		snprintf(name, sizeof(name), "%s/Position/Sensor", phys_joint_names[i]);
		r->joint[i] = lookup(arg, name);
		r->n_joints += r->joint[i] >= 0;
	}
	for (i = 0; i < WEB_ROS_IMU_KEYS; i++) {
		snprintf(name, sizeof(name), "InertialSensor/%s/Sensor", imu_keys[i]);
		r->imu[i] = lookup(arg, name);
	}
	for (f = 0; f < 2; f++)
		for (i = 0; i < WEB_ROS_FOOT_KEYS; i++) {
			snprintf(name, sizeof(name), "%cFoot/FSR/%s/Sensor", f ? 'R' : 'L',
				 foot_keys[i]);
			r->foot[f][i] = lookup(arg, name);
		}
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
bool web_ros_has(const struct web_ros *r, unsigned int chan)
{
	switch (chan) {
	case WEB_ROS_JOINT_STATES:
	case WEB_ROS_TF:
		return r->n_joints > 0;
	case WEB_ROS_IMU:
		return all_found(r->imu, WEB_ROS_IMU_KEYS);
	case WEB_ROS_FOOT_PRESSURE:
		return all_found(r->foot[0], WEB_ROS_FOOT_KEYS) &&
		       all_found(r->foot[1], WEB_ROS_FOOT_KEYS);
	case WEB_ROS_ROBOT_DESCRIPTION:
		return true;
	default:
		return false;
	}
}

void web_ros_advertise(const struct web_ros *r, unsigned int chan, unsigned int id,
		       struct json_writer *w)
{
	static const struct ros2_type *const types[WEB_ROS_CHANNELS] = {
		&ros2_joint_state_type, &ros2_imu_type, &ros2_foot_pressure_type, NULL,
		&ros2_string_type,
	};

	if (!web_ros_has(r, chan))
		return;
	json_begin_object(w, NULL);
	json_uint(w, "id", id);
	json_string(w, "topic", topics[chan]);
	if (types[chan]) {
		json_string(w, "encoding", "cdr");
		json_string(w, "schemaName", types[chan]->name);
		json_string(w, "schema", types[chan]->schema);
		json_string(w, "schemaEncoding", "ros2msg");
	} else {
		json_string(w, "encoding", "json");
		json_string(w, "schemaName", "foxglove.FrameTransforms");
		json_string(w, "schema", tf_schema);
		json_string(w, "schemaEncoding", "jsonschema");
	}
	json_end_object(w);
}

static double value(const struct dcm_values_frame *f, long idx)
{
	return idx >= 0 && (size_t)idx < f->n_values ? f->values[idx] : 0;
}

static unsigned char *joint_states(const struct web_ros *r, const struct dcm_values_frame *f,
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

static unsigned char *imu(const struct web_ros *r, const struct dcm_values_frame *f,
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

static unsigned char *foot_pressure(const struct web_ros *r, const struct dcm_values_frame *f,
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

static unsigned char *transforms(const struct web_ros *r, const struct dcm_values_frame *f,
				 uint64_t ts, size_t *len)
{
	struct nao_transform t;
	struct json_writer w;
	char *buf = NULL;
	size_t sz, n;
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
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	*len = n;
	return (unsigned char *)buf;
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
 * web_ros_message() - a channel's message
 * @r: the keys
 * @chan: enum web_ros_channel
 * @f: the frame its values come from (none for /robot_description)
 * @ts: the frame's time, ns since the epoch: the messages' stamps
 * @len: set to its length
 *
 * Return: the message (the caller frees it), or NULL (no memory, or no
 * such channel in this description).
 */
unsigned char *web_ros_message(const struct web_ros *r, unsigned int chan,
			       const struct dcm_values_frame *f, uint64_t ts, size_t *len)
{
	const struct ros2_header h = {
		.stamp_ns = ts, .frame_id = chan == WEB_ROS_IMU ? NAO_URDF_ROOT : "",
	};

	if (!web_ros_has(r, chan))
		return NULL;
	switch (chan) {
	case WEB_ROS_JOINT_STATES:
		return joint_states(r, f, &h, len);
	case WEB_ROS_IMU:
		return imu(r, f, &h, len);
	case WEB_ROS_FOOT_PRESSURE:
		return foot_pressure(r, f, &h, len);
	case WEB_ROS_TF:
		return transforms(r, f, ts, len);
	default:
		return robot_description(len);
	}
}
