/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * dcm_sim - the simulated NAO body's physics link: a process in user space
 * (dcm-physics) steps a rigid-body model of the robot in lockstep with the
 * cycle and gives the simulated boards what their sensors read.
 *
 * /dev/dcm_sim_body<N> (body N of dcm_sim, one opener at a time):
 *
 * - read() returns one struct dcm_sim_cmd: what the motors were commanded
 *   in the last cycle, once per cycle (a tick: each broadcast of RS485-1).
 *   It blocks until a tick newer than the last one read (O_NONBLOCK:
 *   -EAGAIN); poll() says POLLIN then. A buffer shorter than the frame:
 *   -EINVAL.
 * - write() takes one struct dcm_sim_state, whole (else -EINVAL): where the
 *   joints are and what the sensors bear after the physics stepped
 *   @dt_us of the command it answers (@seq). A wrong magic, or a value
 *   outside its range (below), is refused (-EINVAL, -ERANGE) and changes
 *   nothing; so is a state whose @seq answers no tick this opener read
 *   (ahead of the last frame read, before the first, or any before a frame
 *   was read) or one older than the last state taken (-EINVAL).
 *
 * From the first state written until the file is closed, the body's joints
 * (but the hands), the feet's FSRs and the inertial board read what the
 * link last wrote; closed, the simulator's own models take over again from
 * where the link left them. A tick whose state has not come by the next
 * tick is counted in @missed: the physics ran slower than the robot.
 *
 * Documentation/dcm/physics.rst describes the link and dcm-physics.
 */
#ifndef _UAPI_LINUX_DCM_SIM_H
#define _UAPI_LINUX_DCM_SIM_H

#include <linux/types.h>

#define DCM_SIM_LINK_MAGIC	0x44534c01	/* "DSL" + 1 */

/*
 * The joints, in this order in every frame: the body's 26 motors as
 * Device.xml names them. The hands (an aperture, not an angle) stay the
 * simulator's own model; their entries in a state are ignored.
 */
enum dcm_sim_joint {
	DCM_SIM_HEAD_YAW,
	DCM_SIM_HEAD_PITCH,
	DCM_SIM_L_SHOULDER_PITCH,
	DCM_SIM_L_SHOULDER_ROLL,
	DCM_SIM_L_ELBOW_YAW,
	DCM_SIM_L_ELBOW_ROLL,
	DCM_SIM_L_WRIST_YAW,
	DCM_SIM_L_HAND,
	DCM_SIM_R_SHOULDER_PITCH,
	DCM_SIM_R_SHOULDER_ROLL,
	DCM_SIM_R_ELBOW_YAW,
	DCM_SIM_R_ELBOW_ROLL,
	DCM_SIM_R_WRIST_YAW,
	DCM_SIM_R_HAND,
	DCM_SIM_L_HIP_YAW_PITCH,
	DCM_SIM_L_HIP_ROLL,
	DCM_SIM_L_HIP_PITCH,
	DCM_SIM_L_KNEE_PITCH,
	DCM_SIM_L_ANKLE_PITCH,
	DCM_SIM_L_ANKLE_ROLL,
	DCM_SIM_R_HIP_YAW_PITCH,
	DCM_SIM_R_HIP_ROLL,
	DCM_SIM_R_HIP_PITCH,
	DCM_SIM_R_KNEE_PITCH,
	DCM_SIM_R_ANKLE_PITCH,
	DCM_SIM_R_ANKLE_ROLL,
	DCM_SIM_JOINTS
};

/* struct dcm_sim_joint_cmd flags */
#define DCM_SIM_JOINT_LOOP	0x1	/* the control loop runs: the motor holds */

/**
 * struct dcm_sim_joint_cmd - what one motor was told
 * @target_urad: the commanded angle, micro-radians (a hand: its aperture,
 *	millionths)
 * @limit_ma: the current the control loop may draw now: the motor's
 *	current limit scaled by its hardness and its temperature, mA; 0 when
 *	the loop does not run
 * @pos_urad: where the simulator has the joint now (the last state, or its
 *	own model before the first)
 * @flags: DCM_SIM_JOINT_*
 */
struct dcm_sim_joint_cmd {
	__s32 target_urad;
	__s32 limit_ma;
	__s32 pos_urad;
	__u32 flags;
};

/**
 * struct dcm_sim_cmd - one tick: the last cycle's commands (read())
 * @magic: DCM_SIM_LINK_MAGIC
 * @seq: the tick's number, one more each cycle
 * @dt_us: the time since the previous tick: what the physics steps
 * @missed: ticks so far whose state came late or never (since open)
 * @joint: the motors, by enum dcm_sim_joint
 */
struct dcm_sim_cmd {
	__u32 magic;
	__u32 seq;
	__u32 dt_us;
	__u32 missed;
	struct dcm_sim_joint_cmd joint[DCM_SIM_JOINTS];
};

/* The ranges a state's values must fall in */
#define DCM_SIM_POS_MAX_URAD	6283185		/* |pos_urad| */
#define DCM_SIM_CURRENT_MAX_MA	10000		/* 0..: current_ma */
#define DCM_SIM_FSR_MAX_G	20000		/* 0..: fsr_g */
#define DCM_SIM_ANGLE_MAX_URAD	3141593		/* |angle_urad| */
#define DCM_SIM_RATE_MAX_URAD_S	100000000	/* |rate_urad_s| */
#define DCM_SIM_ACC_MAX_UG	16000000	/* |acc_ug| */

/* Feet and their FSRs in struct dcm_sim_state */
#define DCM_SIM_FEET		2	/* left, right */
#define DCM_SIM_FOOT_FSRS	4	/* FrontLeft, FrontRight, RearLeft, RearRight */

/**
 * struct dcm_sim_state - the body after one tick (write())
 * @magic: DCM_SIM_LINK_MAGIC
 * @seq: the tick it answers
 * @pos_urad: each joint's angle, micro-radians
 * @current_ma: each motor's current, mA, 0 or more
 * @fsr_g: what each FSR bears, grams: [0] the left foot, [1] the right,
 *	each FrontLeft, FrontRight, RearLeft, RearRight
 * @angle_urad: the torso's attitude as the inertial board gives it: about X
 *	(roll), Y (pitch) and Z (yaw), micro-radians
 * @rate_urad_s: the torso's rotation speed about its X, Y and Z axes
 * @acc_ug: what the accelerometer reads, micro-g: gravity minus the torso's
 *	acceleration, in the torso's frame (upright at rest: 0, 0, -1000000)
 * @flags: 0
 */
struct dcm_sim_state {
	__u32 magic;
	__u32 seq;
	__s32 pos_urad[DCM_SIM_JOINTS];
	__s32 current_ma[DCM_SIM_JOINTS];
	__u32 fsr_g[DCM_SIM_FEET][DCM_SIM_FOOT_FSRS];
	__s32 angle_urad[3];
	__s32 rate_urad_s[3];
	__s32 acc_ug[3];
	__u32 flags;
};

#endif /* _UAPI_LINUX_DCM_SIM_H */
