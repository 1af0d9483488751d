// SPDX-License-Identifier: GPL-2.0
/*
 * The NAO as a URDF (the Unified Robot Description Format of ROS, which
 * Foxglove's 3D panel, RViz and robot_state_publisher read), written from
 * the tables of nao_model.c: no number here is a second copy.
 *
 * Every link's frame is parallel to the torso's in the zero posture, so a
 * joint's origin is a translation only and its axis is given in the
 * parent's (and the child's) frame, as the tables have them. A link
 * carries its mass, centre of mass and inertia, and its collision shape as
 * both <visual> and <collision> (a capsule as a cylinder between two
 * spheres; the feet as their soles' boxes). A joint's limits: the stops of
 * the table, the torque its current limit gives, and the no-load speed of
 * its motor (PHYS_MOTOR_VOLTS over its torque per ampere).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nao_model.h"
#include "nao_urdf.h"

/* A link's foot side (0 left, 1 right), or -1. */
static int foot_of(int link)
{
	if (link == PHYS_L_FOOT)
		return 0;
	if (link == PHYS_R_FOOT)
		return 1;
	return -1;
}

static void put_geometry(FILE *f, const char *tag, const double xyz[3], const double rpy[3],
			 const char *geometry)
{
	fprintf(f, "    <%s>\n      <origin xyz=\"%.9g %.9g %.9g\" rpy=\"%.9g %.9g %.9g\"/>\n"
		"      <geometry>%s</geometry>\n    </%s>\n",
		tag, xyz[0], xyz[1], xyz[2], rpy[0], rpy[1], rpy[2], geometry, tag);
}

/* One shape, as a visual and a collision element. */
static void put_shape(FILE *f, const double xyz[3], const double rpy[3], const char *geometry)
{
	put_geometry(f, "visual", xyz, rpy, geometry);
	put_geometry(f, "collision", xyz, rpy, geometry);
}

/* A capsule: a cylinder along its axis (a URDF cylinder lies along Z) and its ends. */
static void put_capsule(FILE *f, const struct phys_shape *s)
{
	static const double none[3] = { 0, 0, 0 };
	double d[3], mid[3], rpy[3] = { 0, 0, 0 }, len;
	char g[128];
	int i;

	for (i = 0; i < 3; i++) {
		d[i] = s->to[i] - s->at[i];
		mid[i] = (s->at[i] + s->to[i]) / 2;
	}
	len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	rpy[1] = atan2(hypot(d[0], d[1]), d[2]);
	rpy[2] = atan2(d[1], d[0]);
	snprintf(g, sizeof(g), "<cylinder radius=\"%.9g\" length=\"%.9g\"/>", s->size[0], len);
	put_shape(f, mid, rpy, g);
	snprintf(g, sizeof(g), "<sphere radius=\"%.9g\"/>", s->size[0]);
	put_shape(f, s->at, none, g);
	put_shape(f, s->to, none, g);
}

static void put_link_shape(FILE *f, int link)
{
	static const double none[3] = { 0, 0, 0 };
	const struct phys_shape *s = &phys_links[link].shape;
	int foot = foot_of(link);
	double at[3];
	char g[128];

	if (foot >= 0) {
		/* The sole's outline, 15 mm thick, the left foot's mirrored for the right. */
		double y = (PHYS_SOLE_OUTER + PHYS_SOLE_INNER) / 2;

		at[0] = (PHYS_SOLE_FRONT + PHYS_SOLE_REAR) / 2;
		at[1] = foot ? -y : y;
		at[2] = -PHYS_FOOT_HEIGHT + 0.0075;
		snprintf(g, sizeof(g), "<box size=\"%.9g %.9g %.9g\"/>",
			 PHYS_SOLE_FRONT - PHYS_SOLE_REAR, PHYS_SOLE_OUTER - PHYS_SOLE_INNER, 0.015);
		put_shape(f, at, none, g);
		return;
	}
	switch (s->kind) {
	case PHYS_SHAPE_BOX:
		snprintf(g, sizeof(g), "<box size=\"%.9g %.9g %.9g\"/>", s->size[0], s->size[1],
			 s->size[2]);
		put_shape(f, s->at, none, g);
		break;
	case PHYS_SHAPE_SPHERE:
		snprintf(g, sizeof(g), "<sphere radius=\"%.9g\"/>", s->size[0]);
		put_shape(f, s->at, none, g);
		break;
	case PHYS_SHAPE_CAPSULE:
		put_capsule(f, s);
		break;
	default:
		break;
	}
}

static void put_link(FILE *f, int link)
{
	const struct phys_link_def *l = &phys_links[link];

	fprintf(f, "  <link name=\"%s\">\n    <inertial>\n"
		"      <origin xyz=\"%.9g %.9g %.9g\" rpy=\"0 0 0\"/>\n"
		"      <mass value=\"%.9g\"/>\n"
		"      <inertia ixx=\"%.9g\" ixy=\"%.9g\" ixz=\"%.9g\" iyy=\"%.9g\" iyz=\"%.9g\""
		" izz=\"%.9g\"/>\n    </inertial>\n",
		l->name, l->com[0], l->com[1], l->com[2], l->mass, l->inertia[0], l->inertia[3],
		l->inertia[4], l->inertia[1], l->inertia[5], l->inertia[2]);
	put_link_shape(f, link);
	fputs("  </link>\n", f);
}

static void put_joint(FILE *f, unsigned int j)
{
	const struct phys_joint_def *d = &phys_joints[j];

	fprintf(f, "  <joint name=\"%s\" type=\"revolute\">\n"
		"    <parent link=\"%s\"/>\n    <child link=\"%s\"/>\n"
		"    <origin xyz=\"%.9g %.9g %.9g\" rpy=\"0 0 0\"/>\n"
		"    <axis xyz=\"%.9g %.9g %.9g\"/>\n"
		"    <limit lower=\"%.9g\" upper=\"%.9g\" effort=\"%.9g\" velocity=\"%.9g\"/>\n"
		"  </joint>\n",
		phys_joint_names[j], phys_links[d->parent].name, phys_links[d->child].name,
		d->origin[0], d->origin[1], d->origin[2], d->axis[0], d->axis[1], d->axis[2],
		d->min, d->max, d->nm_per_a * phys_current_max_ma[j] / 1000.0,
		PHYS_MOTOR_VOLTS / d->nm_per_a);
}

/**
 * nao_urdf_write() - the NAO's URDF
 * @f: where it goes
 *
 * Return: 0, or -EIO when writing to @f failed.
 */
int nao_urdf_write(FILE *f)
{
	unsigned int j;
	int l;

	fputs("<?xml version=\"1.0\"?>\n"
	      "<!-- The NAO (H25 V5/V6), from dcm's body model: the one dcm-physics simulates. -->\n"
	      "<robot name=\"" NAO_URDF_ROBOT "\">\n", f);
	for (l = 0; l < PHYS_LINKS; l++)
		put_link(f, l);
	for (j = 0; j < DCM_SIM_JOINTS; j++)
		if (phys_joints[j].parent >= 0)
			put_joint(f, j);
	fputs("</robot>\n", f);
	return ferror(f) ? -EIO : 0;
}

/**
 * nao_urdf() - the NAO's URDF as a string
 *
 * Return: the text (the caller frees it), or NULL without memory.
 */
char *nao_urdf(void)
{
	char *buf = NULL;
	size_t size;
	FILE *f = open_memstream(&buf, &size);
	int r;

	if (!f)
		return NULL;
	r = nao_urdf_write(f);
	if (fclose(f) || r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/**
 * nao_joint_transform() - where a joint puts its child link
 * @j: the joint (enum dcm_sim_joint)
 * @angle: its position, rad
 * @t: filled: the child's frame in the parent's, as the URDF's joint makes
 *	it (its origin, then a rotation of @angle about its axis)
 *
 * Return: true, or false for @j out of range or a hand (no link of its own).
 */
bool nao_joint_transform(unsigned int j, double angle, struct nao_transform *t)
{
	const struct phys_joint_def *d;
	double s;
	int i;

	if (j >= DCM_SIM_JOINTS || phys_joints[j].parent < 0)
		return false;
	d = &phys_joints[j];
	t->parent = phys_links[d->parent].name;
	t->child = phys_links[d->child].name;
	s = sin(angle / 2);
	for (i = 0; i < 3; i++) {
		t->translation[i] = d->origin[i];
		t->rotation[i] = d->axis[i] * s;
	}
	t->rotation[3] = cos(angle / 2);
	return true;
}
