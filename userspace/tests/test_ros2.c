// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: ROS 2's CDR as ros2/cdr.c writes it (the encapsulation
 * header, alignment from the header's end, strings, sequences), the
 * messages of ros2/ros2_msgs.c read back field by field, the NAO's URDF of
 * nao/nao_urdf.c read with libxml2 against the body model's tables, the
 * joints' transforms, and the ROS 2 and 3D messages of a frame (rec/ros.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "cdr.h"
#include "nao_model.h"
#include "nao_urdf.h"
#include "ros.h"
#include "ros2_msgs.h"

/* A reader of CDR, written from the rules (not from cdr.c): the test's own. */
struct rd {
	const unsigned char *b;
	size_t len, at;
};

static void rd_init(struct rd *r, const unsigned char *b, size_t len)
{
	assert_true(len >= 4);
	assert_int_equal(b[0], 0);
	assert_int_equal(b[1], 1);	/* CDR_LE */
	r->b = b;
	r->len = len;
	r->at = 4;
}

static uint64_t rd_le(struct rd *r, size_t n)
{
	uint64_t v = 0;
	size_t i;

	while ((r->at - 4) % n)
		assert_int_equal(r->b[r->at++], 0);
	assert_true(r->at + n <= r->len);
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->b[r->at + i] << (8 * i);
	r->at += n;
	return v;
}

static double rd_f64(struct rd *r)
{
	uint64_t u = rd_le(r, 8);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static const char *rd_string(struct rd *r)
{
	uint32_t n = (uint32_t)rd_le(r, 4);
	const char *s = (const char *)r->b + r->at;

	assert_true(n >= 1 && r->at + n <= r->len);
	assert_int_equal(s[n - 1], 0);
	assert_int_equal(strlen(s), n - 1);
	r->at += n;
	return s;
}

/* @n bytes at @p, least significant first. */
static uint64_t le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static double f64_at(const unsigned char *p)
{
	uint64_t v = le(p, 8);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

/* The bytes of a JointState and an Imu, offset by offset. */
static void test_cdr_bytes(void **state)
{
	static const char *const joints[] = { "HeadYaw", "LHipPitch" };
	const double pos[] = { 0.5, -1.25 }, imu0[9] = { 0 };
	double imu[9] = { 0, 0, M_PI / 2, 0.1, 0.2, 0.3, 1, 2, -9.81 };
	const struct ros2_header h = { 5000000007ull, "" }, hi = { 1000000002ull, "torso" };
	struct ros2_imu ri = { { 0, 0, 0, 1 }, { 0 }, { 0 } };
	unsigned char *m;
	struct cdr c;
	size_t len;
	int i;

	(void)state;
	(void)imu0;
	cdr_begin(&c);
	ros2_joint_state(&c, &h, 2, joints, pos);
	m = cdr_end(&c, &len);
	assert_non_null(m);
	assert_int_equal(len, 84);
	assert_memory_equal(m, "\x00\x01\x00\x00", 4);	/* CDR, little-endian */
	assert_int_equal(le(m + 4, 4), 5);			/* stamp.sec */
	assert_int_equal(le(m + 8, 4), 7);			/* stamp.nanosec */
	assert_int_equal(le(m + 12, 4), 1);			/* frame_id "": its NUL */
	assert_int_equal(m[16], 0);
	assert_int_equal(le(m + 20, 4), 2);			/* name[]: aligned to 4 */
	assert_int_equal(le(m + 24, 4), 8);
	assert_memory_equal(m + 28, "HeadYaw", 8);
	assert_int_equal(le(m + 36, 4), 10);
	assert_memory_equal(m + 40, "LHipPitch", 10);
	assert_int_equal(le(m + 52, 4), 2);			/* position[]: aligned to 4 */
	assert_true(f64_at(m + 60) == 0.5);			/* doubles: to 8, from byte 4 */
	assert_true(f64_at(m + 68) == -1.25);
	assert_int_equal(le(m + 76, 4), 0);			/* velocity[], effort[]: empty */
	assert_int_equal(le(m + 80, 4), 0);
	free(m);
	cdr_begin(&c);
	ros2_imu(&c, &hi, &ri);
	m = cdr_end(&c, &len);
	assert_non_null(m);
	assert_int_equal(len, 324);
	assert_int_equal(le(m + 12, 4), 6);
	assert_memory_equal(m + 16, "torso", 6);
	/* orientation at 28 (24 from byte 4): the identity */
	assert_true(f64_at(m + 28) == 0 && f64_at(m + 36) == 0 && f64_at(m + 44) == 0 &&
		    f64_at(m + 52) == 1);
	free(m);
	ros2_quaternion_rpy(imu[0], imu[1], imu[2], ri.orientation);
	for (i = 0; i < 3; i++) {
		ri.angular_velocity[i] = imu[3 + i];
		ri.linear_acceleration[i] = imu[6 + i];
	}
	cdr_begin(&c);
	ros2_imu(&c, &hi, &ri);
	m = cdr_end(&c, &len);
	assert_non_null(m);
	/* a yaw of pi/2: z = w = sqrt(1/2) */
	assert_true(fabs(f64_at(m + 44) - sqrt(0.5)) < 1e-12);
	assert_true(fabs(f64_at(m + 52) - sqrt(0.5)) < 1e-12);
	/* angular_velocity after the orientation's covariance (9 doubles) */
	assert_true(f64_at(m + 60 + 72) == 0.1 && f64_at(m + 148) == 0.3);
	/* linear_acceleration after the angular velocity's covariance */
	assert_true(f64_at(m + 156 + 72) == 1 && f64_at(m + 244) == -9.81);
	assert_true(f64_at(m + 252) == 0 && f64_at(m + 316) == 0);
	free(m);
}

static void test_cdr_layout(void **state)
{
	static const unsigned char want[] = {
		0x00, 0x01, 0x00, 0x00,			/* CDR, little-endian */
		0x78, 0x56, 0x34, 0x12,			/* u32 at 0 */
		0x03, 0x00, 0x00, 0x00, 'a', 'b', 0,	/* "ab" at 4 */
		0, 0, 0, 0, 0,				/* to 16 */
		0, 0, 0, 0, 0, 0, 0xf0, 0x3f,		/* 1.0 at 16 */
		0xff, 0xff, 0xff, 0xff,			/* -1 at 24 */
	};
	struct cdr c;
	unsigned char *b;
	size_t len;

	(void)state;
	cdr_begin(&c);
	cdr_u32(&c, 0x12345678);
	cdr_string(&c, "ab");
	cdr_f64(&c, 1.0);
	cdr_i32(&c, -1);
	b = cdr_end(&c, &len);
	assert_non_null(b);
	assert_int_equal(len, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	free(b);
}

static void test_cdr_grows(void **state)
{
	struct cdr c;
	unsigned char *b;
	struct rd r;
	size_t len, i;

	(void)state;
	cdr_begin(&c);
	for (i = 0; i < 10000; i++)
		cdr_f64(&c, (double)i);
	b = cdr_end(&c, &len);
	assert_non_null(b);
	assert_int_equal(len, 4 + 8 * 10000);
	rd_init(&r, b, len);
	for (i = 0; i < 10000; i++)
		assert_true(rd_f64(&r) == (double)i);
	free(b);
}

static void rd_header(struct rd *r, uint64_t ns, const char *frame)
{
	assert_int_equal(rd_le(r, 4), ns / 1000000000u);
	assert_int_equal(rd_le(r, 4), ns % 1000000000u);
	assert_string_equal(rd_string(r), frame);
}

static void test_joint_state(void **state)
{
	static const char *const names[] = { "HeadYaw", "HeadPitch", "LShoulderPitch" };
	static const double pos[] = { 0.4, -0.25, 1.5 };
	const struct ros2_header h = { 1700000000123456789ull, "" };
	unsigned char *b;
	struct cdr c;
	struct rd r;
	size_t len;
	int i;

	(void)state;
	cdr_begin(&c);
	ros2_joint_state(&c, &h, 3, names, pos);
	b = cdr_end(&c, &len);
	assert_non_null(b);
	rd_init(&r, b, len);
	rd_header(&r, h.stamp_ns, "");
	assert_int_equal(rd_le(&r, 4), 3);
	for (i = 0; i < 3; i++)
		assert_string_equal(rd_string(&r), names[i]);
	assert_int_equal(rd_le(&r, 4), 3);
	for (i = 0; i < 3; i++)
		assert_true(rd_f64(&r) == pos[i]);
	assert_int_equal(rd_le(&r, 4), 0);	/* velocity */
	assert_int_equal(rd_le(&r, 4), 0);	/* effort */
	assert_int_equal(r.at, len);
	free(b);
}

static void test_imu_and_feet(void **state)
{
	const struct ros2_header h = { 5000000001ull, "torso" };
	struct ros2_imu imu = {
		{ 0.1, 0.2, 0.3, 0.9 }, { 1, 2, 3 }, { 4, 5, 9.81 },
	};
	struct ros2_foot_pressure p = {
		{ { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, { 10, 26 }, { { 0.01, 0.02 }, { 0.03, -0.04 } },
	};
	unsigned char *b;
	struct cdr c;
	struct rd r;
	size_t len;
	int i, f;

	(void)state;
	cdr_begin(&c);
	ros2_imu(&c, &h, &imu);
	b = cdr_end(&c, &len);
	rd_init(&r, b, len);
	rd_header(&r, h.stamp_ns, "torso");
	for (i = 0; i < 4; i++)
		assert_true(rd_f64(&r) == imu.orientation[i]);
	for (i = 0; i < 9; i++)
		assert_true(rd_f64(&r) == 0);
	for (i = 0; i < 3; i++)
		assert_true(rd_f64(&r) == imu.angular_velocity[i]);
	for (i = 0; i < 9; i++)
		assert_true(rd_f64(&r) == 0);
	for (i = 0; i < 3; i++)
		assert_true(rd_f64(&r) == imu.linear_acceleration[i]);
	for (i = 0; i < 9; i++)
		assert_true(rd_f64(&r) == 0);
	assert_int_equal(r.at, len);
	free(b);

	cdr_begin(&c);
	ros2_foot_pressure(&c, &h, &p);
	b = cdr_end(&c, &len);
	rd_init(&r, b, len);
	rd_header(&r, h.stamp_ns, "torso");
	for (f = 0; f < 2; f++)
		for (i = 0; i < 4; i++)
			assert_true(rd_f64(&r) == p.fsr[f][i]);
	assert_true(rd_f64(&r) == 10);
	assert_true(rd_f64(&r) == 26);
	for (f = 0; f < 2; f++) {
		assert_true(rd_f64(&r) == p.center_of_pressure[f][0]);
		assert_true(rd_f64(&r) == p.center_of_pressure[f][1]);
		assert_true(rd_f64(&r) == 0);
	}
	assert_int_equal(r.at, len);
	free(b);
}

/* Each schema names its type's dependencies once each, after a separator line. */
static void test_schemas(void **state)
{
	const struct ros2_type *const types[] = {
		&ros2_joint_state_type, &ros2_imu_type, &ros2_foot_pressure_type,
		&ros2_string_type,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const char *s = types[i]->schema;

		assert_non_null(strstr(types[i]->name, "/msg/"));
		if (strstr(s, "std_msgs/Header header")) {
			assert_non_null(strstr(s, "\nMSG: std_msgs/Header\n"));
			assert_non_null(strstr(s, "\nMSG: builtin_interfaces/Time\nint32 sec\n"
					       "uint32 nanosec\n"));
		}
		if (strstr(s, "geometry_msgs/Quaternion "))
			assert_non_null(strstr(s, "MSG: geometry_msgs/Quaternion\n"));
		if (strstr(s, "geometry_msgs/Point "))
			assert_non_null(strstr(s, "MSG: geometry_msgs/Point\n"));
		assert_int_equal(s[strlen(s) - 1], '\n');
	}
}

static double attr_num(xmlNode *n, const char *name, int k)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	double d[3] = { NAN, NAN, NAN };

	assert_non_null(v);
	assert_true(sscanf((const char *)v, "%lf %lf %lf", &d[0], &d[1], &d[2]) >= k + 1);
	xmlFree(v);
	return d[k];
}

static xmlNode *child(xmlNode *n, const char *name)
{
	for (n = n->children; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
			return n;
	fail_msg("no <%s>", name);
	return NULL;
}

static int link_id(const char *name)
{
	int l;

	for (l = 0; l < PHYS_LINKS; l++)
		if (!strcmp(phys_links[l].name, name))
			return l;
	fail_msg("no link %s in the model", name);
	return -1;
}

static void check_joint(xmlNode *n, int *parent_of)
{
	xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
	xmlChar *type = xmlGetProp(n, (const xmlChar *)"type");
	xmlChar *p, *c;
	unsigned int j;
	int i;

	for (j = 0; j < DCM_SIM_JOINTS; j++)
		if (!strcmp(phys_joint_names[j], (const char *)name))
			break;
	assert_true(j < DCM_SIM_JOINTS);
	assert_string_equal(type, "revolute");
	p = xmlGetProp(child(n, "parent"), (const xmlChar *)"link");
	c = xmlGetProp(child(n, "child"), (const xmlChar *)"link");
	assert_int_equal(link_id((const char *)p), phys_joints[j].parent);
	assert_int_equal(link_id((const char *)c), phys_joints[j].child);
	assert_int_equal(parent_of[phys_joints[j].child], -1);
	parent_of[phys_joints[j].child] = phys_joints[j].parent;
	for (i = 0; i < 3; i++) {
		assert_float_equal(attr_num(child(n, "origin"), "xyz", i), phys_joints[j].origin[i],
				   1e-9);
		assert_float_equal(attr_num(child(n, "axis"), "xyz", i), phys_joints[j].axis[i],
				   1e-9);
	}
	assert_float_equal(attr_num(child(n, "limit"), "lower", 0), phys_joints[j].min, 1e-9);
	assert_float_equal(attr_num(child(n, "limit"), "upper", 0), phys_joints[j].max, 1e-9);
	assert_true(attr_num(child(n, "limit"), "effort", 0) > 0);
	assert_true(attr_num(child(n, "limit"), "velocity", 0) > 0);
	xmlFree(name);
	xmlFree(type);
	xmlFree(p);
	xmlFree(c);
}

/* The URDF is well-formed XML, a tree from the torso, its numbers the tables'. */
static void test_urdf(void **state)
{
	int parent_of[PHYS_LINKS], links = 0, joints = 0, l;
	char *text = nao_urdf();
	xmlNode *root, *n;
	xmlDoc *doc;

	(void)state;
	assert_non_null(text);
	doc = xmlReadMemory(text, (int)strlen(text), "nao.urdf", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	root = xmlDocGetRootElement(doc);
	assert_string_equal(root->name, "robot");
	for (l = 0; l < PHYS_LINKS; l++)
		parent_of[l] = -1;
	for (n = root->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "link")) {
			xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");

			l = link_id((const char *)name);
			assert_float_equal(attr_num(child(child(n, "inertial"), "mass"), "value", 0),
					   phys_links[l].mass, 1e-9);
			xmlFree(name);
			links++;
		} else if (!strcmp((const char *)n->name, "joint")) {
			check_joint(n, parent_of);
			joints++;
		}
	}
	assert_int_equal(links, PHYS_LINKS);
	assert_int_equal(joints, DCM_SIM_JOINTS - 2);	/* the hands are parts of the wrists */
	/* Every link but the root hangs from one joint. */
	for (l = 0; l < PHYS_LINKS; l++)
		assert_true((parent_of[l] == -1) == !strcmp(phys_links[l].name, NAO_URDF_ROOT));
	xmlFreeDoc(doc);
	free(text);
}

static void test_transforms(void **state)
{
	struct nao_transform t;
	unsigned int j;

	(void)state;
	assert_true(nao_joint_transform(DCM_SIM_HEAD_YAW, 0.4, &t));
	assert_string_equal(t.parent, "torso");
	assert_string_equal(t.child, "Neck");
	assert_float_equal(t.translation[2], 0.1265, 1e-12);
	assert_float_equal(t.rotation[0], 0, 1e-12);
	assert_float_equal(t.rotation[1], 0, 1e-12);
	assert_float_equal(t.rotation[2], sin(0.2), 1e-12);
	assert_float_equal(t.rotation[3], cos(0.2), 1e-12);
	assert_false(nao_joint_transform(DCM_SIM_L_HAND, 0.5, &t));
	assert_false(nao_joint_transform(DCM_SIM_JOINTS, 0.5, &t));
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		double q;

		if (!nao_joint_transform(j, 1.0 + j * 0.1, &t))
			continue;
		q = t.rotation[0] * t.rotation[0] + t.rotation[1] * t.rotation[1] +
		    t.rotation[2] * t.rotation[2] + t.rotation[3] * t.rotation[3];
		assert_float_equal(q, 1, 1e-12);
	}
}

static void test_quaternion_rpy(void **state)
{
	double q[4];

	(void)state;
	ros2_quaternion_rpy(0.3, 0, 0, q);
	assert_float_equal(q[0], sin(0.15), 1e-12);
	assert_float_equal(q[3], cos(0.15), 1e-12);
	ros2_quaternion_rpy(0, 0.3, 0, q);
	assert_float_equal(q[1], sin(0.15), 1e-12);
	ros2_quaternion_rpy(0, 0, -0.3, q);
	assert_float_equal(q[2], -sin(0.15), 1e-12);
	/* Roll then pitch (fixed axes): q = qy(pitch) * qx(roll). */
	ros2_quaternion_rpy(0.2, 0.4, 0, q);
	assert_float_equal(q[0], sin(0.1) * cos(0.2), 1e-12);
	assert_float_equal(q[1], cos(0.1) * sin(0.2), 1e-12);
	assert_float_equal(q[2], -sin(0.1) * sin(0.2), 1e-12);
	assert_float_equal(q[3], cos(0.1) * cos(0.2), 1e-12);
}

/* A description with HeadYaw, HeadPitch and the inertial unit, one FSR. */
static const char *const keys[] = {
	"HeadYaw/Position/Sensor", "HeadPitch/Position/Sensor",
	"InertialSensor/AngleX/Sensor", "InertialSensor/AngleY/Sensor",
	"InertialSensor/AngleZ/Sensor", "InertialSensor/GyroscopeX/Sensor",
	"InertialSensor/GyroscopeY/Sensor", "InertialSensor/GyroscopeZ/Sensor",
	"InertialSensor/AccelerometerX/Sensor", "InertialSensor/AccelerometerY/Sensor",
	"InertialSensor/AccelerometerZ/Sensor", "LFoot/FSR/FrontLeft/Sensor",
};

static void test_keys(void **state)
{
	static const char *const others[] = {
		"HeadYaw/Position/Actuator", "HeadYaw/Position/Sensor/Status", "Head/Position/Sensor",
		"InertialSensor/AccX/Sensor", "LFoot/FSR/FrontLeft/Sensor/Value",
		"XHeadYaw/Position/Sensor", "", "InertialSensor//Sensor",
	};
	struct rec_ros r;
	size_t len;
	size_t i;

	(void)state;
	rec_ros_init(&r);
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		assert_false(rec_ros_add(&r, others[i], 1));
	assert_int_equal(r.n_joints, 0);
	assert_false(rec_ros_has(&r, REC_ROS_JOINT_STATES));
	assert_false(rec_ros_has(&r, REC_ROS_IMU));
	/* no joint: no body to draw either */
	assert_false(rec_ros_has(&r, REC_ROS_ROBOT_DESCRIPTION));
	assert_null(rec_ros_message(&r, REC_ROS_ROBOT_DESCRIPTION, NULL, 0, 1, &len));
	assert_true(rec_ros_add(&r, "RAnkleRoll/Position/Sensor", 9));
	assert_true(rec_ros_add(&r, "RAnkleRoll/Position/Sensor", 9));
	assert_int_equal(r.n_joints, 1);
	assert_int_equal(r.joint[DCM_SIM_R_ANKLE_ROLL], 9);
	assert_true(rec_ros_add(&r, "RFoot/FSR/CenterOfPressure/Y/Sensor", 4));
	assert_int_equal(r.foot[1][6], 4);
}

static void test_channels(void **state)
{
	double values[24] = { 0 };
	unsigned char *b;
	struct rec_ros_info info;
	struct rec_ros r;
	struct rd rd;
	size_t len, i;
	char *tf;

	(void)state;
	rec_ros_init(&r);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_true(rec_ros_add(&r, keys[i], (uint32_t)i * 2));	/* not in order */
	assert_int_equal(r.n_joints, 2);
	assert_true(rec_ros_has(&r, REC_ROS_JOINT_STATES));
	assert_true(rec_ros_has(&r, REC_ROS_IMU));
	assert_false(rec_ros_has(&r, REC_ROS_FOOT_PRESSURE));
	assert_true(rec_ros_has(&r, REC_ROS_TF));
	assert_true(rec_ros_has(&r, REC_ROS_ROBOT_DESCRIPTION));
	assert_null(rec_ros_message(&r, REC_ROS_FOOT_PRESSURE, values, 24, 1, &len));
	rec_ros_info(REC_ROS_IMU, &info);
	assert_string_equal(info.topic, "/imu");
	assert_string_equal(info.encoding, "cdr");
	assert_string_equal(info.schema_name, "sensor_msgs/msg/Imu");
	assert_string_equal(info.schema_encoding, "ros2msg");
	rec_ros_info(REC_ROS_TF, &info);
	assert_string_equal(info.encoding, "json");
	assert_string_equal(info.schema_name, "foxglove.FrameTransforms");

	values[0] = 0.4;	/* HeadYaw */
	values[2] = -0.3;	/* HeadPitch */
	values[20] = 9.5;	/* AccelerometerZ */
	b = rec_ros_message(&r, REC_ROS_JOINT_STATES, values, 24, 3000000000ull, &len);
	assert_non_null(b);
	rd_init(&rd, b, len);
	rd_header(&rd, 3000000000ull, "");
	assert_int_equal(rd_le(&rd, 4), 2);
	assert_string_equal(rd_string(&rd), "HeadYaw");
	assert_string_equal(rd_string(&rd), "HeadPitch");
	assert_int_equal(rd_le(&rd, 4), 2);
	assert_true(rd_f64(&rd) == 0.4);
	assert_true(rd_f64(&rd) == -0.3);
	free(b);
	/* A frame too short for a key: its value 0, nothing read past it. */
	b = rec_ros_message(&r, REC_ROS_JOINT_STATES, values, 1, 1, &len);
	assert_non_null(b);
	free(b);

	b = rec_ros_message(&r, REC_ROS_IMU, values, 24, 1, &len);
	assert_non_null(b);
	rd_init(&rd, b, len);
	rd_header(&rd, 1, "torso");
	assert_true(rd_f64(&rd) == 0 && rd_f64(&rd) == 0 && rd_f64(&rd) == 0);
	assert_true(rd_f64(&rd) == 1);
	free(b);

	tf = (char *)rec_ros_message(&r, REC_ROS_TF, values, 24, 1500000000ull, &len);
	assert_non_null(tf);
	assert_int_equal(strlen(tf), len);
	assert_non_null(strstr(tf, "\"parent_frame_id\":\"torso\",\"child_frame_id\":\"Neck\""));
	assert_non_null(strstr(tf, "\"parent_frame_id\":\"Neck\",\"child_frame_id\":\"Head\""));
	assert_null(strstr(tf, "LShoulder"));
	assert_non_null(strstr(tf, "\"timestamp\":{\"sec\":1,\"nsec\":500000000}"));
	free(tf);

	b = rec_ros_message(&r, REC_ROS_ROBOT_DESCRIPTION, NULL, 0, 1, &len);
	assert_non_null(b);
	rd_init(&rd, b, len);
	assert_non_null(strstr(rd_string(&rd), "<robot name=\"NAO\">"));
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cdr_layout),
		cmocka_unit_test(test_cdr_grows),
		cmocka_unit_test(test_cdr_bytes),
		cmocka_unit_test(test_joint_state),
		cmocka_unit_test(test_imu_and_feet),
		cmocka_unit_test(test_schemas),
		cmocka_unit_test(test_urdf),
		cmocka_unit_test(test_transforms),
		cmocka_unit_test(test_quaternion_rpy),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_channels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
