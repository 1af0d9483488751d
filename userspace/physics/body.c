// SPDX-License-Identifier: GPL-2.0
/*
 * dcm-physics: the NAO as rigid bodies in ODE.
 *
 * Each link is an ODE body placed at its centre of mass; the motors are
 * hinges whose ODE motor is a position servo (below); the ground is a
 * plane with Coulomb friction; each foot is a box with four small pads
 * under it, one per FSR, whose contact forces are what the FSRs bear.
 *
 * The servo: ODE's hinge motor drives the joint's speed toward @vel with a
 * force of at most @fmax, softened by a constraint force mixing @cfm: the
 * torque it gives is (vel - speed) / cfm. With vel = K/D (target - angle)
 * and cfm = 1/D, that is K (target - angle) - D speed, a proportional and
 * derivative servo which ODE integrates implicitly (stable whatever the
 * link's inertia), saturated at the torque the current limit allows.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <ode/ode.h>

#include "nao_model.h"
#include "physics.h"

#define G		9.80665
/* The servo's gains: current per radian of error, the damping's time */
#define SERVO_A_PER_RAD	20.0		/* A/rad: 1 A at 50 mrad */
#define SERVO_TD	0.01		/* s: D = K * TD */
#define IDLE_A		0.02		/* a loop's current at no load, A */
/* Contact with the ground */
#define FRICTION_MU	0.8		/* Coulomb, sole on floor */
#define CONTACT_ERP	0.2
#define CONTACT_CFM	1e-6
#define MAX_CONTACTS	8		/* per pair of geoms */
#define FB_MAX		256		/* contact joints in one step */
/* An FSR's pad under the foot: its sides and height */
#define PAD_SIDE	0.012
#define PAD_H		0.004
#define PAD_PROUD	0.003		/* below the foot's box */

struct pad_ref {
	int foot, fsr;	/* -1: not a pad */
};

struct phys_body {
	dWorldID world;
	dSpaceID space;
	dGeomID ground;
	dJointGroupID contacts;
	dBodyID body[PHYS_LINKS];
	dJointID joint[DCM_SIM_JOINTS];
	dGeomID pad[DCM_SIM_FEET][DCM_SIM_FOOT_FSRS];
	struct pad_ref ref[DCM_SIM_FEET][DCM_SIM_FOOT_FSRS];
	struct pad_ref none;
	unsigned int substeps;

	/* The commands (phys_apply()) */
	double target[DCM_SIM_JOINTS];
	double tmax[DCM_SIM_JOINTS];
	double limit_a[DCM_SIM_JOINTS];
	bool loop[DCM_SIM_JOINTS];

	/* This step's contacts */
	dJointFeedback fb[FB_MAX];
	const struct pad_ref *fb_ref[FB_MAX];
	int nfb;

	/* The last tick's means */
	double torque[DCM_SIM_JOINTS];
	double fsr_n[DCM_SIM_FEET][DCM_SIM_FOOT_FSRS];
	double acc[3];		/* the torso's, world frame */
	bool acc_valid;
};

static void rot_axis(double r[9], const double a[3], double q)
{
	double c = cos(q), s = sin(q), t = 1 - c;
	double x = a[0], y = a[1], z = a[2];

	r[0] = t * x * x + c;     r[1] = t * x * y - s * z; r[2] = t * x * z + s * y;
	r[3] = t * x * y + s * z; r[4] = t * y * y + c;     r[5] = t * y * z - s * x;
	r[6] = t * x * z - s * y; r[7] = t * y * z + s * x; r[8] = t * z * z + c;
}

static void mat_mul(double out[9], const double a[9], const double b[9])
{
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			out[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] +
					 a[i * 3 + 2] * b[6 + j];
}

static void mat_vec(double out[3], const double r[9], const double v[3])
{
	int i;

	for (i = 0; i < 3; i++)
		out[i] = r[i * 3] * v[0] + r[i * 3 + 1] * v[1] + r[i * 3 + 2] * v[2];
}

/* The links' frames for joint angles @q: rotations @r, origins @p. */
static void forward(const double q[DCM_SIM_JOINTS], double r[PHYS_LINKS][9],
		    double p[PHYS_LINKS][3])
{
	int j, k;

	memset(r[PHYS_TORSO], 0, sizeof(r[0]));
	r[PHYS_TORSO][0] = r[PHYS_TORSO][4] = r[PHYS_TORSO][8] = 1;
	memset(p[PHYS_TORSO], 0, sizeof(p[0]));
	/* The table lists each joint after the one that carries it. */
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];
		double rq[9], o[3];

		if (d->parent < 0)
			continue;
		rot_axis(rq, d->axis, q[j]);
		mat_mul(r[d->child], r[d->parent], rq);
		mat_vec(o, r[d->parent], d->origin);
		for (k = 0; k < 3; k++)
			p[d->child][k] = p[d->parent][k] + o[k];
	}
}

static void to_ode(dMatrix3 m, const double r[9])
{
	int i, j;

	memset(m, 0, sizeof(dMatrix3));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			m[i * 4 + j] = r[i * 3 + j];
}

/* Put the bodies where joint angles @q have them, the torso at @base. */
static void pose(struct phys_body *b, const double q[DCM_SIM_JOINTS], const double base[3])
{
	double r[PHYS_LINKS][9], p[PHYS_LINKS][3];
	int l, k;

	forward(q, r, p);
	for (l = 0; l < PHYS_LINKS; l++) {
		double c[3];
		dMatrix3 m;

		mat_vec(c, r[l], phys_links[l].com);
		for (k = 0; k < 3; k++)
			c[k] += p[l][k] + base[k];
		dBodySetPosition(b->body[l], c[0], c[1], c[2]);
		to_ode(m, r[l]);
		dBodySetRotation(b->body[l], m);
		dBodySetLinearVel(b->body[l], 0, 0, 0);
		dBodySetAngularVel(b->body[l], 0, 0, 0);
	}
}

/* A geom on link @l at @at (link frame), turned by @r (or none). */
static void attach(struct phys_body *b, dGeomID g, int l, const double at[3], const dMatrix3 r)
{
	const double *com = phys_links[l].com;

	dGeomSetBody(g, b->body[l]);
	dGeomSetOffsetPosition(g, at[0] - com[0], at[1] - com[1], at[2] - com[2]);
	if (r)
		dGeomSetOffsetRotation(g, r);
	dGeomSetData(g, &b->none);
}

static void add_shape(struct phys_body *b, int l)
{
	const struct phys_shape *s = &phys_links[l].shape;
	double mid[3], d[3], len;
	dMatrix3 r;
	dGeomID g;
	int k;

	switch (s->kind) {
	case PHYS_SHAPE_BOX:
		g = dCreateBox(b->space, s->size[0], s->size[1], s->size[2]);
		attach(b, g, l, s->at, NULL);
		break;
	case PHYS_SHAPE_SPHERE:
		g = dCreateSphere(b->space, s->size[0]);
		attach(b, g, l, s->at, NULL);
		break;
	case PHYS_SHAPE_CAPSULE:
		for (k = 0; k < 3; k++) {
			mid[k] = (s->at[k] + s->to[k]) / 2;
			d[k] = s->to[k] - s->at[k];
		}
		len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
		g = dCreateCapsule(b->space, s->size[0], len);
		dRFromZAxis(r, d[0], d[1], d[2]);
		attach(b, g, l, mid, r);
		break;
	default:
		break;
	}
}

/* A foot: its box, the sole PAD_PROUD above the pads' bottoms, and pads. */
static void add_foot(struct phys_body *b, int foot)
{
	int l = foot ? PHYS_R_FOOT : PHYS_L_FOOT;
	double side = foot ? -1 : 1;
	double y_out = side * PHYS_SOLE_OUTER, y_in = side * PHYS_SOLE_INNER;
	double bottom = -PHYS_FOOT_HEIGHT + PAD_PROUD, top = -0.015;
	double at[3];
	dGeomID g;
	int i;

	at[0] = (PHYS_SOLE_FRONT + PHYS_SOLE_REAR) / 2;
	at[1] = (y_out + y_in) / 2;
	at[2] = (bottom + top) / 2;
	g = dCreateBox(b->space, PHYS_SOLE_FRONT - PHYS_SOLE_REAR, fabs(y_out - y_in), top - bottom);
	attach(b, g, l, at, NULL);
	for (i = 0; i < DCM_SIM_FOOT_FSRS; i++) {
		at[0] = phys_fsr[foot].x[i];
		at[1] = phys_fsr[foot].y[i];
		at[2] = -PHYS_FOOT_HEIGHT + PAD_H / 2;
		g = dCreateBox(b->space, PAD_SIDE, PAD_SIDE, PAD_H);
		attach(b, g, l, at, NULL);
		b->ref[foot][i].foot = foot;
		b->ref[foot][i].fsr = i;
		dGeomSetData(g, &b->ref[foot][i]);
		b->pad[foot][i] = g;
	}
}

static void near_cb(void *data, dGeomID o1, dGeomID o2)
{
	struct phys_body *b = data;
	dContactGeom cg[MAX_CONTACTS];
	dGeomID other;
	dBodyID body;
	int i, n;

	if (o1 != b->ground && o2 != b->ground)
		return;		/* the links do not collide with each other */
	other = o1 == b->ground ? o2 : o1;
	body = dGeomGetBody(other);
	if (!body)
		return;
	n = dCollide(other, b->ground, MAX_CONTACTS, cg, sizeof(cg[0]));
	for (i = 0; i < n && b->nfb < FB_MAX; i++) {
		dContact c;
		dJointID j;

		memset(&c, 0, sizeof(c));
		c.surface.mode = dContactApprox1 | dContactSoftERP | dContactSoftCFM;
		c.surface.mu = FRICTION_MU;
		c.surface.soft_erp = CONTACT_ERP;
		c.surface.soft_cfm = CONTACT_CFM;
		c.geom = cg[i];
		j = dJointCreateContact(b->world, b->contacts, &c);
		dJointAttach(j, body, 0);
		dJointSetFeedback(j, &b->fb[b->nfb]);
		b->fb_ref[b->nfb] = dGeomGetData(other);
		b->nfb++;
	}
}

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The world, its space and the ground, with the solver's settings. */
static void create_world(struct phys_body *b, const struct phys_opts *opts)
{
	dInitODE2(0);
	b->substeps = opts->substeps;
	b->none.foot = b->none.fsr = -1;
	b->world = dWorldCreate();
	dWorldSetGravity(b->world, 0, 0, -G);
	dWorldSetERP(b->world, 0.2);
	dWorldSetCFM(b->world, 1e-9);
	dWorldSetContactSurfaceLayer(b->world, 0.0002);
	dWorldSetContactMaxCorrectingVel(b->world, 0.5);
	dWorldSetQuickStepNumIterations(b->world, (int)opts->iterations);
	b->space = dSimpleSpaceCreate(0);
	b->contacts = dJointGroupCreate(0);
	b->ground = dCreatePlane(b->space, 0, 0, 1, 0);
	dGeomSetData(b->ground, &b->none);
}

/*
 * The links with their masses, the hinges between them and the shapes,
 * all in the zero posture, where ODE takes the hinges' zero angles.
 */
static void build_links(struct phys_body *b)
{
	static const double origin[3];
	double q[DCM_SIM_JOINTS] = { 0 }, r[PHYS_LINKS][9], p[PHYS_LINKS][3];
	int l, j, f;

	for (l = 0; l < PHYS_LINKS; l++) {
		const struct phys_link_def *d = &phys_links[l];
		dMass m;

		b->body[l] = dBodyCreate(b->world);
		dMassSetParameters(&m, d->mass, 0, 0, 0, d->inertia[0], d->inertia[1],
				   d->inertia[2], d->inertia[3], d->inertia[4], d->inertia[5]);
		dBodySetMass(b->body[l], &m);
	}
	pose(b, q, origin);
	forward(q, r, p);
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];

		if (d->parent < 0)
			continue;
		b->joint[j] = dJointCreateHinge(b->world, 0);
		/* The child's angle relative to the parent's */
		dJointAttach(b->joint[j], b->body[d->child], b->body[d->parent]);
		dJointSetHingeAnchor(b->joint[j], p[d->child][0], p[d->child][1], p[d->child][2]);
		dJointSetHingeAxis(b->joint[j], d->axis[0], d->axis[1], d->axis[2]);
		dJointSetHingeParam(b->joint[j], dParamLoStop, d->min);
		dJointSetHingeParam(b->joint[j], dParamHiStop, d->max);
		dJointSetHingeParam(b->joint[j], dParamFMax, d->friction);
		dJointSetHingeParam(b->joint[j], dParamVel, 0);
	}
	for (l = 0; l < PHYS_LINKS; l++)
		add_shape(b, l);
	for (f = 0; f < DCM_SIM_FEET; f++)
		add_foot(b, f);
}

/* The body in @pos_urad's posture (clamped to the stops), its lowest foot point on the ground. */
static void place_on_ground(struct phys_body *b, const int32_t pos_urad[DCM_SIM_JOINTS])
{
	static const double origin[3];
	double q[DCM_SIM_JOINTS] = { 0 };
	double base[3] = { 0, 0, 0 }, low = INFINITY;
	int j, f, i;

	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];

		if (d->parent < 0)
			continue;
		q[j] = clampd(pos_urad[j] * 1e-6, d->min, d->max);
		b->target[j] = q[j];
	}
	pose(b, q, origin);
	/* The lowest point of the feet on the ground */
	for (f = 0; f < DCM_SIM_FEET; f++) {
		for (i = 0; i < DCM_SIM_FOOT_FSRS; i++) {
			dReal aabb[6];

			dGeomGetAABB(b->pad[f][i], aabb);
			if (aabb[4] < low)
				low = aabb[4];
		}
	}
	base[2] = -low;
	pose(b, q, base);
}

/**
 * phys_create() - a NAO standing on the ground
 * @pos_urad: its joints' angles (the first frame's pos_urad)
 * @opts: how it steps (NULL: PHYS_OPTS_DEFAULT)
 *
 * The body is built in the zero posture, where ODE takes the hinges' zero
 * angles, then put in @pos_urad's posture with its lowest foot point on the
 * ground, at rest. All motors are off until phys_apply().
 *
 * Return: the body, or NULL with errno set (EINVAL: @opts out of range;
 * ENOMEM).
 */
struct phys_body *phys_create(const int32_t pos_urad[DCM_SIM_JOINTS],
			      const struct phys_opts *opts)
{
	static const struct phys_opts defaults = PHYS_OPTS_DEFAULT;
	struct phys_body *b;

	if (!opts)
		opts = &defaults;
	if (opts->substeps < 1 || opts->substeps > PHYS_SUBSTEPS_MAX ||
	    opts->iterations < 1 || opts->iterations > PHYS_ITERATIONS_MAX) {
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	create_world(b, opts);
	build_links(b);
	place_on_ground(b, pos_urad);
	return b;
}

/**
 * phys_destroy() - free a body
 * @b: the body, or NULL
 */
void phys_destroy(struct phys_body *b)
{
	if (!b)
		return;
	dJointGroupDestroy(b->contacts);
	dSpaceDestroy(b->space);
	dWorldDestroy(b->world);
	free(b);
	dCloseODE();	/* counted: each phys_create() initialised it once */
}

/**
 * phys_apply() - the motors' commands of a tick
 * @b: the body
 * @cmd: the frame (phys_check_cmd() passed it)
 *
 * A joint whose loop runs (DCM_SIM_JOINT_LOOP, @limit_ma above 0) is driven
 * toward its target (within its stops) with at most the torque its current
 * limit allows; any other turns freely against its gearbox's friction.
 */
void phys_apply(struct phys_body *b, const struct dcm_sim_cmd *cmd)
{
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];
		const struct dcm_sim_joint_cmd *c = &cmd->joint[j];

		if (d->parent < 0)
			continue;
		b->loop[j] = (c->flags & DCM_SIM_JOINT_LOOP) && c->limit_ma > 0;
		b->target[j] = clampd(c->target_urad * 1e-6, d->min, d->max);
		b->limit_a[j] = b->loop[j] ? c->limit_ma * 1e-3 : 0;
		b->tmax[j] = b->limit_a[j] * d->nm_per_a;
	}
}

/* The servos' commands to ODE's motors before a step. */
static void servo(struct phys_body *b)
{
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];
		dJointID h = b->joint[j];

		if (d->parent < 0)
			continue;
		if (b->loop[j]) {
			double k = SERVO_A_PER_RAD * d->nm_per_a, dd = k * SERVO_TD;
			double err = b->target[j] - dJointGetHingeAngle(h);

			dJointSetHingeParam(h, dParamVel, k / dd * err);
			dJointSetHingeParam(h, dParamFMax, b->tmax[j]);
			dJointSetHingeParam(h, dParamCFM, 1 / dd);
		} else {
			dJointSetHingeParam(h, dParamVel, 0);
			dJointSetHingeParam(h, dParamFMax, d->friction);
			dJointSetHingeParam(h, dParamCFM, 1e-9);
		}
	}
}

/* The torque each loop gave in the step just taken (the servo's law). */
static void servo_torque(struct phys_body *b, const double err[DCM_SIM_JOINTS],
			 double sum[DCM_SIM_JOINTS])
{
	int j;

	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];
		double k, t;

		if (d->parent < 0 || !b->loop[j])
			continue;
		k = SERVO_A_PER_RAD * d->nm_per_a;
		t = k * err[j] - k * SERVO_TD * dJointGetHingeAngleRate(b->joint[j]);
		sum[j] += fabs(clampd(t, -b->tmax[j], b->tmax[j]));
	}
}

/**
 * phys_step() - the physics of one tick
 * @b: the body
 * @dt_us: the tick's length, microseconds (0: nothing moves)
 *
 * Steps @dt_us in steps of one length: the body's substeps per 10 ms tick,
 * so a 12 ms tick takes 12 steps of 1 ms at the default and a cycle that
 * came late as many more (a longer step would be a stiffer, bouncier
 * contact: the FSRs would jump); and keeps the tick's mean motor torques
 * and FSR forces and the torso's acceleration over it for phys_state().
 */
void phys_step(struct phys_body *b, uint32_t dt_us)
{
	unsigned int n = (unsigned int)(((uint64_t)dt_us * b->substeps + PHYS_TICK_US / 2) /
					PHYS_TICK_US);
	double h;
	double err[DCM_SIM_JOINTS], tsum[DCM_SIM_JOINTS] = { 0 };
	double fsum[DCM_SIM_FEET][DCM_SIM_FOOT_FSRS] = { { 0 } };
	dVector3 v0, v1;
	unsigned int s;
	int i, j, f;

	if (!dt_us)
		return;
	if (!n)
		n = 1;
	h = dt_us * 1e-6 / n;
	dBodyGetRelPointVel(b->body[PHYS_TORSO], phys_imu_at[0] - phys_links[PHYS_TORSO].com[0],
			    phys_imu_at[1] - phys_links[PHYS_TORSO].com[1],
			    phys_imu_at[2] - phys_links[PHYS_TORSO].com[2], v0);
	for (s = 0; s < n; s++) {
		servo(b);
		for (j = 0; j < DCM_SIM_JOINTS; j++)
			err[j] = phys_joints[j].parent < 0 ? 0 :
				 b->target[j] - dJointGetHingeAngle(b->joint[j]);
		b->nfb = 0;
		dSpaceCollide2(b->ground, (dGeomID)b->space, b, near_cb);
		dWorldQuickStep(b->world, h);
		servo_torque(b, err, tsum);
		for (i = 0; i < b->nfb; i++) {
			const struct pad_ref *r = b->fb_ref[i];

			if (r && r->foot >= 0 && b->fb[i].f1[2] > 0)
				fsum[r->foot][r->fsr] += b->fb[i].f1[2];
		}
		dJointGroupEmpty(b->contacts);
	}
	dBodyGetRelPointVel(b->body[PHYS_TORSO], phys_imu_at[0] - phys_links[PHYS_TORSO].com[0],
			    phys_imu_at[1] - phys_links[PHYS_TORSO].com[1],
			    phys_imu_at[2] - phys_links[PHYS_TORSO].com[2], v1);
	for (i = 0; i < 3; i++)
		b->acc[i] = (v1[i] - v0[i]) / (dt_us * 1e-6);
	b->acc_valid = true;
	for (j = 0; j < DCM_SIM_JOINTS; j++)
		b->torque[j] = tsum[j] / n;
	for (f = 0; f < DCM_SIM_FEET; f++)
		for (i = 0; i < DCM_SIM_FOOT_FSRS; i++)
			b->fsr_n[f][i] = fsum[f][i] / n;
}

static int32_t to_int(double v, double scale, double max)
{
	return (int32_t)lround(clampd(v * scale, -max, max));
}

/**
 * phys_state() - the body as the simulated boards read it
 * @b: the body
 * @seq: the tick it answers
 * @st: filled, every value within the ranges of <linux/dcm_sim.h>
 *
 * Joint angles from the hinges; each loop's current the tick's mean
 * torque over its torque per ampere, plus an idle current, at most its
 * limit (0 when its loop is off); the FSRs' loads, grams; the inertial
 * board's angles (the torso's roll, pitch and yaw: R = Rz Ry Rx), its
 * rates in the torso's frame and the accelerometer's gravity minus
 * acceleration in the torso's frame, micro-g.
 */
void phys_state(const struct phys_body *b, uint32_t seq, struct dcm_sim_state *st)
{
	const dReal *m = dBodyGetRotation(b->body[PHYS_TORSO]);
	const dReal *w = dBodyGetAngularVel(b->body[PHYS_TORSO]);
	double gw[3] = { 0, 0, -G }, a[3];
	int i, j, f;

	memset(st, 0, sizeof(*st));
	st->magic = DCM_SIM_LINK_MAGIC;
	st->seq = seq;
	for (j = 0; j < DCM_SIM_JOINTS; j++) {
		const struct phys_joint_def *d = &phys_joints[j];
		double cur;

		if (d->parent < 0)
			continue;
		st->pos_urad[j] = to_int(dJointGetHingeAngle(b->joint[j]), 1e6,
					 DCM_SIM_POS_MAX_URAD);
		if (!b->loop[j])
			continue;
		cur = fmin(b->torque[j] / d->nm_per_a + IDLE_A, b->limit_a[j]);
		st->current_ma[j] = to_int(cur, 1e3, DCM_SIM_CURRENT_MAX_MA);
	}
	for (f = 0; f < DCM_SIM_FEET; f++)
		for (i = 0; i < DCM_SIM_FOOT_FSRS; i++)
			st->fsr_g[f][i] = (uint32_t)to_int(b->fsr_n[f][i], 1000 / G,
							   DCM_SIM_FSR_MAX_G);
	/* ODE's dMatrix3: rows of 4; R maps the torso's frame to the world's */
	st->angle_urad[0] = to_int(atan2(m[9], m[10]), 1e6, DCM_SIM_ANGLE_MAX_URAD);
	st->angle_urad[1] = to_int(asin(clampd(-m[8], -1, 1)), 1e6, DCM_SIM_ANGLE_MAX_URAD);
	st->angle_urad[2] = to_int(atan2(m[4], m[0]), 1e6, DCM_SIM_ANGLE_MAX_URAD);
	for (i = 0; i < 3; i++) {
		/* R^T w, R^T (g - a) */
		double wb = m[i] * w[0] + m[4 + i] * w[1] + m[8 + i] * w[2];

		a[i] = gw[i] - (b->acc_valid ? b->acc[i] : 0);
		st->rate_urad_s[i] = to_int(wb, 1e6, DCM_SIM_RATE_MAX_URAD_S);
	}
	for (i = 0; i < 3; i++) {
		double ab = m[i] * a[0] + m[4 + i] * a[1] + m[8 + i] * a[2];

		st->acc_ug[i] = to_int(ab / G, 1e6, DCM_SIM_ACC_MAX_UG);
	}
}

/**
 * phys_mass() - the model's total mass
 * @b: the body
 *
 * Return: kg.
 */
double phys_mass(const struct phys_body *b)
{
	double sum = 0;
	int l;

	for (l = 0; l < PHYS_LINKS; l++) {
		dMass m;

		dBodyGetMass(b->body[l], &m);
		sum += m.mass;
	}
	return sum;
}

/**
 * phys_com() - the body's centre of mass
 * @b: the body
 * @com: filled, world frame, m
 */
void phys_com(const struct phys_body *b, double com[3])
{
	double sum = 0;
	int l, k;

	com[0] = com[1] = com[2] = 0;
	for (l = 0; l < PHYS_LINKS; l++) {
		const dReal *p = dBodyGetPosition(b->body[l]);

		for (k = 0; k < 3; k++)
			com[k] += phys_links[l].mass * p[k];
		sum += phys_links[l].mass;
	}
	for (k = 0; k < 3; k++)
		com[k] /= sum;
}

/* An FSR's place on the ground (world X, Y). */
static void fsr_at(const struct phys_body *b, int foot, int i, double xy[2])
{
	const dReal *p = dGeomGetPosition(b->pad[foot][i]);

	xy[0] = p[0];
	xy[1] = p[1];
}

/**
 * phys_cop() - the centre of pressure of the last tick's FSR loads
 * @b: the body
 * @cop: filled: world X, Y, m
 *
 * Return: false when the FSRs bore nothing.
 */
bool phys_cop(const struct phys_body *b, double cop[2])
{
	double sum = 0, xy[2];
	int f, i;

	cop[0] = cop[1] = 0;
	for (f = 0; f < DCM_SIM_FEET; f++) {
		for (i = 0; i < DCM_SIM_FOOT_FSRS; i++) {
			fsr_at(b, f, i, xy);
			cop[0] += b->fsr_n[f][i] * xy[0];
			cop[1] += b->fsr_n[f][i] * xy[1];
			sum += b->fsr_n[f][i];
		}
	}
	if (sum <= 0)
		return false;
	cop[0] /= sum;
	cop[1] /= sum;
	return true;
}

/* The sole's corners on the ground (world X, Y). */
static void sole_corners(const struct phys_body *b, int foot, double c[4][2])
{
	int l = foot ? PHYS_R_FOOT : PHYS_L_FOOT;
	double side = foot ? -1 : 1;
	double xs[2] = { PHYS_SOLE_FRONT, PHYS_SOLE_REAR };
	double ys[2] = { side * PHYS_SOLE_OUTER, side * PHYS_SOLE_INNER };
	const double *com = phys_links[l].com;
	int i;

	for (i = 0; i < 4; i++) {
		dVector3 w;

		dBodyGetRelPointPos(b->body[l], xs[i / 2] - com[0], ys[(i / 2) ^ (i & 1)] - com[1],
				    -PHYS_FOOT_HEIGHT - com[2], w);
		c[i][0] = w[0];
		c[i][1] = w[1];
	}
}

static double cross(const double o[2], const double a[2], const double b[2])
{
	return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

static int cmp_pt(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/**
 * phys_in_support() - whether a point is in the support polygon
 * @b: the body
 * @p: world X, Y, m
 *
 * The support polygon is the convex hull of the soles of the feet that
 * bear a load (any FSR above 1 N).
 *
 * Return: true when inside (or on its edge).
 */
bool phys_in_support(const struct phys_body *b, const double p[2])
{
	double pts[8][2], hull[17][2];
	int n = 0, k = 0, f, i, t;

	for (f = 0; f < DCM_SIM_FEET; f++) {
		double load = 0;

		for (i = 0; i < DCM_SIM_FOOT_FSRS; i++)
			load += b->fsr_n[f][i];
		if (load > 1) {
			sole_corners(b, f, &pts[n]);
			n += 4;
		}
	}
	if (!n)
		return false;
	/* Andrew's monotone chain: the hull, counter-clockwise */
	qsort(pts, n, sizeof(pts[0]), cmp_pt);
	for (i = 0; i < n; i++) {
		while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
			k--;
		memcpy(hull[k++], pts[i], sizeof(pts[0]));
	}
	for (i = n - 2, t = k + 1; i >= 0; i--) {
		while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
			k--;
		memcpy(hull[k++], pts[i], sizeof(pts[0]));
	}
	for (i = 0; i + 1 < k; i++)
		if (cross(hull[i], hull[i + 1], p) < 0)
			return false;
	return true;
}
