/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NAO's rigid-body model, as tables (nao_model.c): what dcm-physics
 * simulates, and what nao_urdf.c describes to viewers.
 *
 * Units are SI: metres, kilograms, radians, newton-metres. Every link's
 * frame is parallel to the torso's in the zero posture (all joints at 0):
 * X forward, Y to the robot's left, Z up.
 */
#ifndef DCM_NAO_MODEL_H
#define DCM_NAO_MODEL_H

#include <linux/dcm_sim.h>

/* The links: the hands are rigid parts of the wrists' links. */
enum phys_link_id {
	PHYS_TORSO,
	PHYS_NECK,
	PHYS_HEAD,
	PHYS_L_SHOULDER,
	PHYS_L_BICEPS,
	PHYS_L_ELBOW,
	PHYS_L_FOREARM,
	PHYS_L_HAND,
	PHYS_R_SHOULDER,
	PHYS_R_BICEPS,
	PHYS_R_ELBOW,
	PHYS_R_FOREARM,
	PHYS_R_HAND,
	PHYS_L_PELVIS,
	PHYS_L_HIP,
	PHYS_L_THIGH,
	PHYS_L_TIBIA,
	PHYS_L_ANKLE,
	PHYS_L_FOOT,
	PHYS_R_PELVIS,
	PHYS_R_HIP,
	PHYS_R_THIGH,
	PHYS_R_TIBIA,
	PHYS_R_ANKLE,
	PHYS_R_FOOT,
	PHYS_LINKS
};

/* A link's collision shape, in its own frame. */
enum phys_shape_kind {
	PHYS_SHAPE_NONE,
	PHYS_SHAPE_BOX,		/* @size: the sides; @at: its centre */
	PHYS_SHAPE_CAPSULE,	/* @size[0]: radius; from @at to @to */
	PHYS_SHAPE_SPHERE,	/* @size[0]: radius; @at: its centre */
};

/**
 * struct phys_shape - a link's collision shape
 * @kind: enum phys_shape_kind
 * @size: see enum phys_shape_kind
 * @at: see enum phys_shape_kind
 * @to: a capsule's other end
 */
struct phys_shape {
	int kind;
	double size[3];
	double at[3];
	double to[3];
};

/**
 * struct phys_link_def - one link
 * @name: the link's name (as the public NAO model names it)
 * @mass: kg
 * @com: its centre of mass in its frame, m
 * @inertia: its inertia tensor about the centre of mass, in its frame:
 *	xx, yy, zz, xy, xz, yz, kg m^2
 * @shape: its collision shape
 */
struct phys_link_def {
	const char *name;
	double mass;
	double com[3];
	double inertia[6];
	struct phys_shape shape;
};

/**
 * struct phys_joint_def - one motor's joint
 * @parent: the link it hangs from (enum phys_link_id)
 * @child: the link it moves
 * @origin: the child's frame origin in the parent's frame (zero posture), m
 * @axis: the axis in the parent's frame (unit)
 * @min: its lower stop, rad
 * @max: its upper stop, rad
 * @nm_per_a: output torque per ampere: the motor's torque constant times
 *	its gear ratio, N m/A
 * @friction: the torque a free joint's gearbox resists with, N m
 */
struct phys_joint_def {
	int parent, child;
	double origin[3];
	double axis[3];
	double min, max;
	double nm_per_a;
	double friction;
};

/**
 * struct phys_fsr_def - where a foot's FSRs sit, in the foot's frame (the
 *	ankle's axes, the sole @sole below)
 * @x: FrontLeft, FrontRight, RearLeft, RearRight, m
 * @y: the same
 */
struct phys_fsr_def {
	double x[DCM_SIM_FOOT_FSRS];
	double y[DCM_SIM_FOOT_FSRS];
};

extern const struct phys_link_def phys_links[PHYS_LINKS];
/* By enum dcm_sim_joint; a hand's entry has parent == child == -1. */
extern const struct phys_joint_def phys_joints[DCM_SIM_JOINTS];
extern const struct phys_fsr_def phys_fsr[DCM_SIM_FEET];
/* By enum dcm_sim_joint: the joints' names, as Device.xml gives them */
extern const char *const phys_joint_names[DCM_SIM_JOINTS];

/* The winding voltage the torque constants are derived for, V: a joint's
 * no-load speed is this over its torque per ampere (physics.rst, "Motors") */
#define PHYS_MOTOR_VOLTS	12.0

/* The sole below the ankle's frame origin (FootHeight), m */
#define PHYS_FOOT_HEIGHT	0.04519
/* The sole's outline in the foot's frame, m: toe, heel, outer and inner
 * edges (the left foot's; the right one's is its mirror in Y) */
#define PHYS_SOLE_FRONT		0.1045
#define PHYS_SOLE_REAR		(-0.0550)
#define PHYS_SOLE_OUTER		0.0450
#define PHYS_SOLE_INNER		(-0.0380)
/* The accelerometer in the torso's frame, m */
extern const double phys_imu_at[3];



/* A standing posture (the tests', dcm-physics --bench's), rad */
extern const double phys_stand[DCM_SIM_JOINTS];
/* The shipped Device.xml's current limits (ElectricCurrent Max), mA */
extern const int phys_current_max_ma[DCM_SIM_JOINTS];
#endif /* DCM_NAO_MODEL_H */
