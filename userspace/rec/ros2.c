// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ROS 2 messages in CDR: the encapsulation header of little-endian plain
 * CDR (0x00 0x01 0x00 0x00), then the members in their declared order,
 * each aligned to its own size (at most 8) from the first byte after the
 * header; a string is its uint32 length (its NUL counted), its bytes and
 * the NUL; a sequence its uint32 count, then its elements; a fixed array
 * its elements alone. The schemas are the message definitions as ros2msg
 * gives them: the message's fields, then each type it uses after a line
 * of '=' and "MSG: package/Type".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ros2.h"

#define SEPARATOR "================================================================================\n"

static const char header_def[] =
	SEPARATOR "MSG: std_msgs/Header\n"
	"builtin_interfaces/Time stamp\n"
	"string frame_id\n"
	SEPARATOR "MSG: builtin_interfaces/Time\n"
	"int32 sec\n"
	"uint32 nanosec\n";

static const char joint_state_def[] =
	"std_msgs/Header header\n"
	"string[] name\n"
	"float64[] position\n"
	"float64[] velocity\n"
	"float64[] effort\n";

static const char imu_def[] =
	"std_msgs/Header header\n"
	"geometry_msgs/Quaternion orientation\n"
	"float64[9] orientation_covariance\n"
	"geometry_msgs/Vector3 angular_velocity\n"
	"float64[9] angular_velocity_covariance\n"
	"geometry_msgs/Vector3 linear_acceleration\n"
	"float64[9] linear_acceleration_covariance\n";

static const char imu_types_def[] =
	SEPARATOR "MSG: geometry_msgs/Quaternion\n"
	"float64 x\n"
	"float64 y\n"
	"float64 z\n"
	"float64 w\n"
	SEPARATOR "MSG: geometry_msgs/Vector3\n"
	"float64 x\n"
	"float64 y\n"
	"float64 z\n";

/* A CDR buffer: the bytes after the encapsulation header, aligned from there. */
struct cdr {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};

static void put(struct cdr *c, const void *p, size_t n, size_t align)
{
	static const unsigned char zero[8];
	size_t pad = align > 1 ? (align - (c->len - 4) % align) % align : 0;
	unsigned char *q;

	if (c->oom)
		return;
	if (c->len + pad + n > c->cap) {
		size_t cap = c->cap ? c->cap : 256;

		while (cap < c->len + pad + n)
			cap *= 2;
		q = realloc(c->p, cap);
		if (!q) {
			c->oom = true;
			return;
		}
		c->p = q;
		c->cap = cap;
	}
	memcpy(c->p + c->len, zero, pad);
	memcpy(c->p + c->len + pad, p, n);
	c->len += pad + n;
}

static void put_le(struct cdr *c, uint64_t v, unsigned int size)
{
	unsigned char le[8];
	unsigned int i;

	for (i = 0; i < size; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	put(c, le, size, size);
}

static void put_f64(struct cdr *c, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_le(c, v, 8);
}

static void put_string(struct cdr *c, const char *s)
{
	size_t n = strlen(s) + 1;

	put_le(c, n, 4);
	put(c, s, n, 1);
}

/* The encapsulation header, then std_msgs/Header. */
static void begin(struct cdr *c, uint32_t sec, uint32_t nsec, const char *frame)
{
	static const unsigned char encapsulation[4] = { 0x00, 0x01, 0x00, 0x00 };

	put(c, encapsulation, 4, 1);
	put_le(c, sec, 4);
	put_le(c, nsec, 4);
	put_string(c, frame);
}

static unsigned char *finish(struct cdr *c, size_t *len)
{
	if (c->oom) {
		free(c->p);
		return NULL;
	}
	*len = c->len;
	return c->p;
}

unsigned char *rec_ros2_joint_state(uint32_t sec, uint32_t nsec, size_t n,
				    const char *const *names, const double *pos, size_t *len)
{
	struct cdr c = { 0 };
	size_t i;

	begin(&c, sec, nsec, "");
	put_le(&c, n, 4);
	for (i = 0; i < n; i++)
		put_string(&c, names[i]);
	put_le(&c, n, 4);
	for (i = 0; i < n; i++)
		put_f64(&c, pos[i]);
	put_le(&c, 0, 4);	/* velocity: not measured */
	put_le(&c, 0, 4);	/* effort: not measured */
	return finish(&c, len);
}

/* The orientation of roll @r, pitch @p, yaw @y (rotations about x, y, z, in the order z y x). */
static void quaternion(double r, double p, double y, double q[4])
{
	double cr = cos(r / 2), sr = sin(r / 2), cp = cos(p / 2), sp = sin(p / 2);
	double cy = cos(y / 2), sy = sin(y / 2);

	q[0] = sr * cp * cy - cr * sp * sy;	/* x */
	q[1] = cr * sp * cy + sr * cp * sy;	/* y */
	q[2] = cr * cp * sy - sr * sp * cy;	/* z */
	q[3] = cr * cp * cy + sr * sp * sy;	/* w */
}

unsigned char *rec_ros2_imu(uint32_t sec, uint32_t nsec, const double *v, size_t *len)
{
	struct cdr c = { 0 };
	double q[4];
	int i, k;

	begin(&c, sec, nsec, REC_IMU_FRAME);
	quaternion(v[0], v[1], v[2], q);
	for (i = 0; i < 4; i++)
		put_f64(&c, q[i]);
	/* each vector, after the covariance before it: all 0, "unknown" */
	for (k = 0; k < 3; k++) {
		if (k)
			for (i = 0; i < 3; i++)
				put_f64(&c, v[3 * k + i]);
		for (i = 0; i < 9; i++)
			put_f64(&c, 0);
	}
	return finish(&c, len);
}

static const char *const imu_names[REC_IMU_KEYS] = {
	"InertialSensor/AngleX/Sensor", "InertialSensor/AngleY/Sensor",
	"InertialSensor/AngleZ/Sensor", "InertialSensor/GyroscopeX/Sensor",
	"InertialSensor/GyroscopeY/Sensor", "InertialSensor/GyroscopeZ/Sensor",
	"InertialSensor/AccelerometerX/Sensor", "InertialSensor/AccelerometerY/Sensor",
	"InertialSensor/AccelerometerZ/Sensor",
};

/* A joint @joint (its key @name) kept: 0 or -ENOMEM. */
static int add_joint(struct rec_ros2 *r, const char *name, size_t jlen, uint32_t index)
{
	char **joints = realloc(r->joints, (r->n_joints + 1) * sizeof(*joints)), **keys;
	uint32_t *idx;

	if (!joints)
		return -ENOMEM;
	r->joints = joints;
	keys = realloc(r->keys, (r->n_joints + 1) * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	r->keys = keys;
	idx = realloc(r->index, (r->n_joints + 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	r->index = idx;
	r->joints[r->n_joints] = strndup(name, jlen);
	r->keys[r->n_joints] = strdup(name);
	if (!r->joints[r->n_joints] || !r->keys[r->n_joints]) {
		free(r->joints[r->n_joints]);
		free(r->keys[r->n_joints]);
		return -ENOMEM;
	}
	r->index[r->n_joints++] = index;
	return 0;
}

int rec_ros2_add(struct rec_ros2 *r, const char *name, uint32_t index)
{
	static const char suffix[] = "/Position/Sensor";
	size_t n = strlen(name), s = sizeof(suffix) - 1;
	int i;

	for (i = 0; i < REC_IMU_KEYS; i++)
		if (!strcmp(name, imu_names[i])) {
			free(r->imu_keys[i]);
			r->imu_keys[i] = strdup(name);
			r->imu_index[i] = index;
			return r->imu_keys[i] ? 0 : -ENOMEM;
		}
	/* a joint: one '/' before the suffix, none in its name */
	if (n > s && !strcmp(name + n - s, suffix) && !memchr(name, '/', n - s))
		return add_joint(r, name, n - s, index);
	return 0;
}

/* A ros2msg Schema of @parts (NULL-ended) and its cdr Channel: 0 or -errno. */
static int channel(struct mcap_writer *w, const char *type, const char *const *parts,
		   const char *topic, uint16_t *id)
{
	char def[2048] = "";
	uint16_t sid;
	int r;

	for (; *parts; parts++)
		strncat(def, *parts, sizeof(def) - strlen(def) - 1);
	r = mcap_schema(w, type, "ros2msg", def, strlen(def), &sid);
	return r ? r : mcap_channel(w, sid, topic, "cdr", id);
}

int rec_ros2_start(struct rec_ros2 *r, struct mcap_writer *w)
{
	static const char *const js[] = { joint_state_def, header_def, NULL };
	static const char *const imu[] = { imu_def, header_def, imu_types_def, NULL };
	int i, ret = 0;

	r->has_joint_states = r->n_joints > 0;
	r->has_imu = true;
	for (i = 0; i < REC_IMU_KEYS; i++)
		r->has_imu &= r->imu_keys[i] != NULL;
	if (r->has_joint_states)
		ret = channel(w, "sensor_msgs/msg/JointState", js, REC_TOPIC_JOINT_STATES,
			      &r->joint_states);
	if (!ret && r->has_imu)
		ret = channel(w, "sensor_msgs/msg/Imu", imu, REC_TOPIC_IMU, &r->imu);
	return ret;
}

/* The joint positions of a frame into a message on /joint_states. */
static int joint_states(struct rec_ros2 *r, struct mcap_writer *w, uint64_t t,
			const double *values, size_t n)
{
	double *pos = malloc(r->n_joints * sizeof(*pos));
	unsigned char *m = NULL;
	size_t i, len;
	int ret = -ENOMEM;

	if (!pos)
		return -ENOMEM;
	for (i = 0; i < r->n_joints; i++)
		pos[i] = r->index[i] < n ? values[r->index[i]] : NAN;
	m = rec_ros2_joint_state((uint32_t)(t / 1000000000), (uint32_t)(t % 1000000000),
				 r->n_joints, (const char *const *)r->joints, pos, &len);
	if (m)
		ret = mcap_message(w, r->joint_states, t, t, m, len);
	free(m);
	free(pos);
	return ret;
}

int rec_ros2_frame(struct rec_ros2 *r, struct mcap_writer *w, double wall,
		   const double *values, size_t n)
{
	uint64_t t = wall > 0 ? (uint64_t)llround(wall * 1e9) : 0;
	double v[REC_IMU_KEYS];
	unsigned char *m;
	size_t len;
	int i, ret = 0;

	if (r->has_joint_states)
		ret = joint_states(r, w, t, values, n);
	if (ret || !r->has_imu)
		return ret;
	for (i = 0; i < REC_IMU_KEYS; i++)
		v[i] = r->imu_index[i] < n ? values[r->imu_index[i]] : NAN;
	m = rec_ros2_imu((uint32_t)(t / 1000000000), (uint32_t)(t % 1000000000), v, &len);
	if (!m)
		return -ENOMEM;
	ret = mcap_message(w, r->imu, t, t, m, len);
	free(m);
	return ret;
}

void rec_ros2_free(struct rec_ros2 *r)
{
	size_t i;

	for (i = 0; i < r->n_joints; i++) {
		free(r->joints[i]);
		free(r->keys[i]);
	}
	free(r->joints);
	free(r->keys);
	free(r->index);
	for (i = 0; i < REC_IMU_KEYS; i++)
		free(r->imu_keys[i]);
	memset(r, 0, sizeof(*r));
}
