// SPDX-License-Identifier: GPL-2.0
/*
 * The NAO's rigid-body model (NAO H25 V5/V6): dcm-physics simulates it,
 * nao_urdf.c describes it.
 *
 * Sources (Documentation/dcm/physics.rst says more):
 *
 * - Masses, centres of mass, inertia tensors, the joints' origins and
 *   axes: the public NAO model of the ros-naoqi project, repository
 *   ros-naoqi/nao_robot, nao_description/urdf/naoV50_generated_urdf/
 *   nao.urdf (links torso, Neck, Head, LShoulder, LBicep, LElbow,
 *   LForeArm, l_wrist, LPelvis, LHip, LThigh, LTibia, LAnklePitch,
 *   l_ankle and the right side's). These are Aldebaran's published
 *   "NAO - Links" and "NAO - Masses" figures: NeckOffsetZ 126.5 mm,
 *   ShoulderOffsetY 98 mm, ShoulderOffsetZ 100 mm, UpperArmLength 105 mm,
 *   ElbowOffsetY 15 mm, LowerArmLength 55.95 mm, HipOffsetY 50 mm,
 *   HipOffsetZ 85 mm, ThighLength 100 mm, TibiaLength 102.9 mm,
 *   FootHeight 45.19 mm.
 * - The joints' stops: the shipped Device.xml's position sensors' Min and
 *   Max (userspace/data/Device.xml; the table sim_joints[] of
 *   kernel/sim/sim_motor.c).
 * - The motors: Aldebaran's "NAO - Motors" pages (motor types and the
 *   gear ratio of each joint: 201.3 and 130.85 for the legs' motor, 150.27
 *   and 173.22 for the arms' and the head's, 50.61 for the wrists'); the
 *   torque constants are derived from those pages' no-load speeds at a
 *   12 V winding (Documentation/dcm/physics.rst, "Motors").
 * - The FSRs' places under the feet: kernel/sim/sim_sensors.c
 *   (sim_foot_left, sim_foot_right), the shipped body's.
 * - The accelerometer's place in the torso: the URDF above
 *   (Accelerometer_sensor_fixedjoint).
 *
 * The collision shapes are simple boxes, capsules and a sphere sized on
 * the links' lengths; only their contact with the ground matters.
 */

#include "nao_model.h"

#define BOX(sx, sy, sz, cx, cy, cz) \
	{ PHYS_SHAPE_BOX, { sx, sy, sz }, { cx, cy, cz }, { 0, 0, 0 } }
#define CAPSULE(r, ax, ay, az, bx, by, bz) \
	{ PHYS_SHAPE_CAPSULE, { r, 0, 0 }, { ax, ay, az }, { bx, by, bz } }
#define SPHERE(r, cx, cy, cz) \
	{ PHYS_SHAPE_SPHERE, { r, 0, 0 }, { cx, cy, cz }, { 0, 0, 0 } }
#define NOSHAPE { PHYS_SHAPE_NONE, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } }

/* ros-naoqi/nao_robot, nao_description/urdf/naoV50_generated_urdf/nao.urdf */
const struct phys_link_def phys_links[PHYS_LINKS] = {
	[PHYS_TORSO] = { "torso", 1.04956, { -0.00413, 0, 0.04342 },
		{ 0.00308361, 0.0028835, 0.0015924, 1.43116e-05, -3.30211e-05, -2.70793e-05 },
		BOX(0.085, 0.12, 0.19, -0.010, 0, 0.030) },
	[PHYS_NECK] = { "Neck", 0.07842, { -1e-05, 0, -0.02742 },
		{ 1.60324e-05, 1.70394e-05, 5.53372e-06, 1.57e-09, 3.16276e-09, -5.295e-08 },
		NOSHAPE },
	[PHYS_HEAD] = { "Head", 0.60533, { -0.00112, 0, 0.05258 },
		{ 0.000957766, 0.000816836, 0.000984976, 8.78814e-06, 5.33702e-06, -2.99579e-05 },
		SPHERE(0.065, 0, 0, 0.055) },
	[PHYS_L_SHOULDER] = { "LShoulder", 0.09304, { -0.00165, -0.02663, 0.00014 },
		{ 1.83025e-05, 1.39005e-05, 2.01862e-05, 2.06011e-06, 1.88776e-09, -3.66592e-07 },
		NOSHAPE },
	[PHYS_L_BICEPS] = { "LBicep", 0.15777, { 0.02455, 0.00563, 0.0033 },
		{ 8.7181e-05, 0.000274712, 0.000241812, -2.53381e-05, -1.4213e-05, 4.71439e-07 },
		CAPSULE(0.025, 0.020, 0, 0, 0.085, 0.010, 0) },
	[PHYS_L_ELBOW] = { "LElbow", 0.06483, { -0.02744, 0, -0.00014 },
		{ 5.59588e-06, 2.66179e-05, 2.76294e-05, 4.21e-09, 2.92241e-07, -1.84e-09 },
		NOSHAPE },
	[PHYS_L_FOREARM] = { "LForeArm", 0.07761, { 0.02556, 0.00281, 0.00076 },
		{ 2.46746e-05, 3.83837e-05, 3.59708e-05, 3.23152e-06, 1.58221e-06, 1.39194e-07 },
		CAPSULE(0.022, 0.010, 0, 0, 0.045, 0, 0) },
	[PHYS_L_HAND] = { "l_wrist", 0.18533, { 0.03434, -0.00088, 0.00308 },
		{ 6.86477e-05, 0.000135756, 0.000133228, 1.15465e-07, -2.87254e-06, 2.67539e-06 },
		CAPSULE(0.025, 0.010, 0, 0, 0.070, 0, -0.010) },
	[PHYS_R_SHOULDER] = { "RShoulder", 0.09304, { -0.00165, 0.02663, 0.00014 },
		{ 1.83025e-05, 1.39005e-05, 2.01862e-05, -2.06011e-06, 1.88776e-09, 3.66592e-07 },
		NOSHAPE },
	[PHYS_R_BICEPS] = { "RBicep", 0.15777, { 0.02455, -0.00563, 0.0033 },
		{ 0.000103401, 0.00027077, 0.000254529, 5.48849e-05, -1.32643e-05, 9.16707e-06 },
		CAPSULE(0.025, 0.020, 0, 0, 0.085, -0.010, 0) },
	[PHYS_R_ELBOW] = { "RElbow", 0.06483, { -0.02744, 0, -0.00014 },
		{ 5.59588e-06, 2.66179e-05, 2.76294e-05, 4.21e-09, 2.92241e-07, -1.84e-09 },
		NOSHAPE },
	[PHYS_R_FOREARM] = { "RForeArm", 0.07761, { 0.02556, -0.00281, 0.00076 },
		{ 2.47331e-05, 3.84719e-05, 3.59319e-05, -3.2418e-06, 9.06451e-07, -1.38804e-07 },
		CAPSULE(0.022, 0.010, 0, 0, 0.045, 0, 0) },
	[PHYS_R_HAND] = { "r_wrist", 0.18533, { 0.03434, 0.00088, 0.00308 },
		{ 6.86477e-05, 0.000135756, 0.000133228, 1.13165e-05, -2.87254e-06, 3.68003e-06 },
		CAPSULE(0.025, 0.010, 0, 0, 0.070, 0, -0.010) },
	[PHYS_L_PELVIS] = { "LPelvis", 0.06981, { -0.00781, -0.01114, 0.02661 },
		{ 2.3407e-05, 4.76355e-05, 4.97021e-05, 1.07922e-06, -1.76003e-06, 2.76058e-06 },
		NOSHAPE },
	[PHYS_L_HIP] = { "LHip", 0.14053, { -0.01549, 0.00029, -0.00515 },
		{ 2.38445e-05, 6.08246e-05, 5.43691e-05, -6.53605e-07, 7.12893e-06, -2.14072e-07 },
		NOSHAPE },
	[PHYS_L_THIGH] = { "LThigh", 0.38968, { 0.00138, 0.00221, -0.05373 },
		{ 0.000509844, 0.000465358, 0.000301098, 2.11296e-06, 5.64129e-05, -7.91029e-06 },
		CAPSULE(0.030, 0, 0, -0.020, 0, 0, -0.080) },
	[PHYS_L_TIBIA] = { "LTibia", 0.30142, { 0.00453, 0.00225, -0.04936 },
		{ 0.000446171, 0.000388084, 0.000185516, 3.70584e-06, -3.09008e-05, 6.01953e-06 },
		CAPSULE(0.030, 0, 0, -0.020, 0, 0, -0.085) },
	[PHYS_L_ANKLE] = { "LAnklePitch", 0.13416, { 0.00045, 0.00029, 0.00685 },
		{ 3.22034e-05, 6.7943e-05, 5.48269e-05, -8.83212e-09, 4.27549e-06, 2.84849e-07 },
		NOSHAPE },
	/* The foot's box: body.c adds the FSRs' pads under it. */
	[PHYS_L_FOOT] = { "l_ankle", 0.17184, { 0.02542, 0.0033, -0.03239 },
		{ 8.72911e-05, 0.000353024, 0.000412846, 8.71925e-06, -2.10563e-06, 3.73459e-07 },
		NOSHAPE },
	[PHYS_R_PELVIS] = { "RPelvis", 0.06981, { -0.00781, 0.01114, 0.02661 },
		{ 3.18766e-05, 5.18361e-05, 5.39657e-05, -1.07152e-06, -1.77295e-06, -7.00664e-06 },
		NOSHAPE },
	[PHYS_R_HIP] = { "RHip", 0.14053, { -0.01549, -0.00029, -0.00515 },
		{ 2.38475e-05, 6.0824e-05, 5.43727e-05, 6.12085e-07, 7.10235e-06, 2.12392e-07 },
		NOSHAPE },
	[PHYS_R_THIGH] = { "RThigh", 0.38968, { 0.00138, -0.00221, -0.05373 },
		{ 0.000510607, 0.0004665, 0.000301333, -2.02799e-06, 5.69893e-05, 7.09563e-06 },
		CAPSULE(0.030, 0, 0, -0.020, 0, 0, -0.080) },
	[PHYS_R_TIBIA] = { "RTibia", 0.30142, { 0.00453, -0.00225, -0.04936 },
		{ 0.000446921, 0.000387711, 0.000183741, -3.96872e-06, -3.94009e-05, -5.00034e-06 },
		CAPSULE(0.030, 0, 0, -0.020, 0, 0, -0.085) },
	[PHYS_R_ANKLE] = { "RAnklePitch", 0.13416, { 0.00045, -0.00029, 0.00685 },
		{ 3.22017e-05, 6.79885e-05, 5.48747e-05, 4.68321e-08, 4.28821e-06, -2.71089e-07 },
		NOSHAPE },
	[PHYS_R_FOOT] = { "r_ankle", 0.17184, { 0.02542, -0.0033, -0.03239 },
		{ 8.71513e-05, 0.000352156, 0.000412125, -8.53992e-06, -2.35184e-06, -4.81708e-07 },
		NOSHAPE },
};

/*
 * Output torque per ampere: the torque constant of the motor (derived:
 * Documentation/dcm/physics.rst) times the joint's gear ratio (Aldebaran's
 * "NAO - Motors").
 */
#define KT_LEG		0.0143	/* the legs' motor, N m/A */
#define KT_ARM		0.0096	/* the arms' and the head's */
#define KT_WRIST	0.0093	/* the wrists' */
#define LEG_A		(KT_LEG * 201.3)
#define LEG_B		(KT_LEG * 130.85)
#define ARM_A		(KT_ARM * 150.27)
#define ARM_B		(KT_ARM * 173.22)
#define WRIST		(KT_WRIST * 50.61)
/* A free joint's gearbox friction (estimates), N m */
#define FR_LEG		0.06
#define FR_ARM		0.02

#define S2 0.70710678118654752

#define J(p, c, ox, oy, oz, ax, ay, az, lo, hi, k, f) \
	{ p, c, { ox, oy, oz }, { ax, ay, az }, (lo) * 1e-6, (hi) * 1e-6, k, f }
#define HAND { -1, -1, { 0, 0, 0 }, { 0, 0, 0 }, 0, 0, 0, 0 }

/*
 * Origins and axes: the URDF above; stops: kernel/sim/sim_motor.c
 * sim_joints[] (micro-radians).
 */
const struct phys_joint_def phys_joints[DCM_SIM_JOINTS] = {
	[DCM_SIM_HEAD_YAW] = J(PHYS_TORSO, PHYS_NECK, 0, 0, 0.1265, 0, 0, 1,
			       -2085700, 2085700, ARM_A, FR_ARM),
	[DCM_SIM_HEAD_PITCH] = J(PHYS_NECK, PHYS_HEAD, 0, 0, 0, 0, 1, 0,
				 -672000, 514900, ARM_B, FR_ARM),
	[DCM_SIM_L_SHOULDER_PITCH] = J(PHYS_TORSO, PHYS_L_SHOULDER, 0, 0.098, 0.100, 0, 1, 0,
				       -2085700, 2085700, ARM_A, FR_ARM),
	[DCM_SIM_L_SHOULDER_ROLL] = J(PHYS_L_SHOULDER, PHYS_L_BICEPS, 0, 0, 0, 0, 0, 1,
				      -314200, 1326500, ARM_B, FR_ARM),
	[DCM_SIM_L_ELBOW_YAW] = J(PHYS_L_BICEPS, PHYS_L_ELBOW, 0.105, 0.015, 0, 1, 0, 0,
				  -2085700, 2085700, ARM_A, FR_ARM),
	[DCM_SIM_L_ELBOW_ROLL] = J(PHYS_L_ELBOW, PHYS_L_FOREARM, 0, 0, 0, 0, 0, 1,
				   -1544600, -34900, ARM_B, FR_ARM),
	[DCM_SIM_L_WRIST_YAW] = J(PHYS_L_FOREARM, PHYS_L_HAND, 0.05595, 0, 0, 1, 0, 0,
				  -1823800, 1823800, WRIST, FR_ARM),
	[DCM_SIM_L_HAND] = HAND,
	[DCM_SIM_R_SHOULDER_PITCH] = J(PHYS_TORSO, PHYS_R_SHOULDER, 0, -0.098, 0.100, 0, 1, 0,
				       -2085700, 2085700, ARM_A, FR_ARM),
	[DCM_SIM_R_SHOULDER_ROLL] = J(PHYS_R_SHOULDER, PHYS_R_BICEPS, 0, 0, 0, 0, 0, 1,
				      -1326500, 314200, ARM_B, FR_ARM),
	[DCM_SIM_R_ELBOW_YAW] = J(PHYS_R_BICEPS, PHYS_R_ELBOW, 0.105, -0.015, 0, 1, 0, 0,
				  -2085700, 2085700, ARM_A, FR_ARM),
	[DCM_SIM_R_ELBOW_ROLL] = J(PHYS_R_ELBOW, PHYS_R_FOREARM, 0, 0, 0, 0, 0, 1,
				   34900, 1544600, ARM_B, FR_ARM),
	[DCM_SIM_R_WRIST_YAW] = J(PHYS_R_FOREARM, PHYS_R_HAND, 0.05595, 0, 0, 1, 0, 0,
				  -1823800, 1823800, WRIST, FR_ARM),
	[DCM_SIM_R_HAND] = HAND,
	[DCM_SIM_L_HIP_YAW_PITCH] = J(PHYS_TORSO, PHYS_L_PELVIS, 0, 0.050, -0.085, 0, S2, -S2,
				      -1145303, 740810, LEG_A, FR_LEG),
	[DCM_SIM_L_HIP_ROLL] = J(PHYS_L_PELVIS, PHYS_L_HIP, 0, 0, 0, 1, 0, 0,
				 -379472, 790477, LEG_A, FR_LEG),
	[DCM_SIM_L_HIP_PITCH] = J(PHYS_L_HIP, PHYS_L_THIGH, 0, 0, 0, 0, 1, 0,
				  -1535889, 484090, LEG_B, FR_LEG),
	[DCM_SIM_L_KNEE_PITCH] = J(PHYS_L_THIGH, PHYS_L_TIBIA, 0, 0, -0.100, 0, 1, 0,
				   -92346, 2112528, LEG_B, FR_LEG),
	[DCM_SIM_L_ANKLE_PITCH] = J(PHYS_L_TIBIA, PHYS_L_ANKLE, 0, 0, -0.1029, 0, 1, 0,
				    -1189516, 922747, LEG_B, FR_LEG),
	[DCM_SIM_L_ANKLE_ROLL] = J(PHYS_L_ANKLE, PHYS_L_FOOT, 0, 0, 0, 1, 0, 0,
				   -397880, 769001, LEG_A, FR_LEG),
	[DCM_SIM_R_HIP_YAW_PITCH] = J(PHYS_TORSO, PHYS_R_PELVIS, 0, -0.050, -0.085, 0, S2, S2,
				      -1145303, 740810, LEG_A, FR_LEG),
	[DCM_SIM_R_HIP_ROLL] = J(PHYS_R_PELVIS, PHYS_R_HIP, 0, 0, 0, 1, 0, 0,
				 -790477, 379472, LEG_A, FR_LEG),
	[DCM_SIM_R_HIP_PITCH] = J(PHYS_R_HIP, PHYS_R_THIGH, 0, 0, 0, 0, 1, 0,
				  -1535889, 484090, LEG_B, FR_LEG),
	[DCM_SIM_R_KNEE_PITCH] = J(PHYS_R_THIGH, PHYS_R_TIBIA, 0, 0, -0.100, 0, 1, 0,
				   -92346, 2112528, LEG_B, FR_LEG),
	[DCM_SIM_R_ANKLE_PITCH] = J(PHYS_R_TIBIA, PHYS_R_ANKLE, 0, 0, -0.1029, 0, 1, 0,
				    -1189516, 922747, LEG_B, FR_LEG),
	[DCM_SIM_R_ANKLE_ROLL] = J(PHYS_R_ANKLE, PHYS_R_FOOT, 0, 0, 0, 1, 0, 0,
				   -769001, 397880, LEG_A, FR_LEG),
};

const char *const phys_joint_names[DCM_SIM_JOINTS] = {
	"HeadYaw", "HeadPitch",
	"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
	"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand",
	"LHipYawPitch", "LHipRoll", "LHipPitch", "LKneePitch", "LAnklePitch", "LAnkleRoll",
	"RHipYawPitch", "RHipRoll", "RHipPitch", "RKneePitch", "RAnklePitch", "RAnkleRoll",
};

/* kernel/sim/sim_sensors.c sim_foot_left and sim_foot_right, in metres */
const struct phys_fsr_def phys_fsr[DCM_SIM_FEET] = {
	{ { 0.07025, 0.07025, -0.03025, -0.02965 }, { 0.0299, -0.0231, 0.0299, -0.0191 } },
	{ { 0.07025, 0.07025, -0.03025, -0.02965 }, { 0.0231, -0.0299, 0.0191, -0.0299 } },
};

/* The URDF above: Accelerometer_sensor_fixedjoint */
const double phys_imu_at[3] = { -0.008, 0.00606, 0.027 };

/*
 * A standing posture: legs bent like NAOqi's StandInit (hips -0.45, knees
 * 0.70, ankles -0.35 rad), arms down beside the body, slightly forward.
 */
const double phys_stand[DCM_SIM_JOINTS] = {
	[DCM_SIM_L_SHOULDER_PITCH] = 1.40, [DCM_SIM_L_SHOULDER_ROLL] = 0.20,
	[DCM_SIM_L_ELBOW_YAW] = -1.20, [DCM_SIM_L_ELBOW_ROLL] = -0.50,
	[DCM_SIM_R_SHOULDER_PITCH] = 1.40, [DCM_SIM_R_SHOULDER_ROLL] = -0.20,
	[DCM_SIM_R_ELBOW_YAW] = 1.20, [DCM_SIM_R_ELBOW_ROLL] = 0.50,
	[DCM_SIM_L_HIP_PITCH] = -0.45, [DCM_SIM_L_KNEE_PITCH] = 0.70,
	[DCM_SIM_L_ANKLE_PITCH] = -0.35,
	[DCM_SIM_R_HIP_PITCH] = -0.45, [DCM_SIM_R_KNEE_PITCH] = 0.70,
	[DCM_SIM_R_ANKLE_PITCH] = -0.35,
};

/* userspace/data/Device.xml: each <Joint>/ElectricCurrent/Sensor's Max */
const int phys_current_max_ma[DCM_SIM_JOINTS] = {
	1200, 1200,				/* head */
	1200, 1200, 1200, 1200, 500, 500,	/* left arm, hand */
	1200, 1200, 1200, 1200, 500, 500,	/* right arm, hand */
	2000, 2000, 2000, 2000, 2000, 2000,	/* left leg */
	2000, 2000, 2000, 2000, 2000, 2000,	/* right leg */
};
