/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the physics of the simulated body's sensors: the inertial board
 * (gravity seen by a tilted body, rotation speeds), the ultrasound board's
 * captures, the weight on the feet's FSRs, the head CPU's temperature.
 *
 * Integers only: angles in micro-radians, rates in micro-radians per
 * second, lengths in micrometres, weights in grams, temperatures in
 * milli-degrees Celsius, time in microseconds; sines in nano-units. Pure
 * logic: it builds in the kernel (dcm_sim) and in the host unit tests.
 */
#ifndef _SIM_SENSORS_H
#define _SIM_SENSORS_H

#include "model/dcm_pure.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_inertial.h"
#include "wire/dcm_wire_sonar.h"

#define SIM_NANO		1000000000LL
#define SIM_PI_URAD		3141593		/* pi, micro-radians, rounded */

s64 sim_sin_nano(s64 urad);
s64 sim_cos_nano(s64 urad);

/* ---- inertial board ---- */

#define SIM_GYR_ZERO_X		1995	/* old gyrometer ADC at rest (seed: "around 2000") */
#define SIM_GYR_ZERO_Y		2006
#define SIM_GYR_REF		2000	/* the reference channel */

/**
 * struct sim_imu - the body's attitude and rotation, as the inertial board
 *	senses it
 * @angle_urad: angle about X (roll), Y (pitch) and Z (yaw), -pi..pi
 * @rate_urad_s: rotation speed about X, Y and Z; integrated into @angle_urad
 * @rem: what integer steps of @angle_urad left over, carried on
 * @counter: samples taken
 */
struct sim_imu {
	s32 angle_urad[3];
	s32 rate_urad_s[3];
	s64 rem[3];
	u8 counter;
};

void sim_imu_step(struct sim_imu *m, u32 dt_us);
void sim_imu_sample_at(u8 counter, const s32 *angle_urad, const s32 *rate_urad_s,
		       const s64 *g_nano, struct dcm_imu *out);
void sim_imu_sample(const struct sim_imu *m, struct dcm_imu *out);

/* ---- ultrasound board ---- */

#define SIM_US_CAPTURE_US	10000	/* a result is stored this long after the start */
#define SIM_US_PERIOD_US	(DCM_US_PERIOD_MS * 1000)

/**
 * struct sim_us - the ultrasound board
 * @mode: the MODE register
 * @capturing: a capture is running or, periodic, scheduled
 * @capture_mode: the MODE of that capture
 * @start_us: when it starts (started)
 * @captures: results stored since the board started
 * @regs: the result registers, as dcm_us_put() lays them out
 */
struct sim_us {
	u8 mode;
	bool capturing;
	u8 capture_mode;
	u64 start_us;
	u32 captures;
	struct dcm_us regs;
};

void sim_us_init(struct sim_us *us);
bool sim_us_write_mode(struct sim_us *us, u8 mode, u64 now_us);
void sim_us_step(struct sim_us *us, u64 now_us, const u8 *left, const u8 *right);
int sim_us_parse_echoes(const char *s, u8 *echoes);

/* ---- feet ---- */

/* Which feet bear the weight: a bitmask */
#define SIM_STANCE_LEFT		BIT(0)
#define SIM_STANCE_RIGHT	BIT(1)
#define SIM_STANCE_BOTH		(SIM_STANCE_LEFT | SIM_STANCE_RIGHT)

#define SIM_WEIGHT_G		5200	/* the robot */

/**
 * struct sim_foot_geom - a foot's FSRs: where they are, how they respond
 * @x_um: FrontLeft, FrontRight, RearLeft, RearRight; X forward, in the
 *	foot's frame
 * @y_um: the same; Y to the left
 * @gain_ukg: what one count of each FSR is, micro-kg (nominally 1000: a
 *	gram)
 * @offset_ukg: what each FSR reads 0 at, micro-kg
 */
struct sim_foot_geom {
	s32 x_um[DCM_FOOT_FSRS];
	s32 y_um[DCM_FOOT_FSRS];
	s32 gain_ukg[DCM_FOOT_FSRS];
	s32 offset_ukg[DCM_FOOT_FSRS];
};

extern const struct sim_foot_geom sim_foot_left, sim_foot_right;

void sim_feet_split(u32 stance, u32 weight_g, u32 *left_g, u32 *right_g);
void sim_foot_load(const struct sim_foot_geom *g, u32 load_g, s32 cop_x_um, s32 cop_y_um,
		   u32 *w_g);
void sim_foot_fsr(const struct sim_foot_geom *g, const u32 *w_g, u16 *raw);

/* ---- head CPU ---- */

/**
 * struct sim_cpu - the head CPU's temperature
 * @temp_mc: temperature
 * @rem: what integer steps of @temp_mc left over, carried on
 */
struct sim_cpu {
	s32 temp_mc;
	s64 rem;
};

s32 sim_cpu_equilibrium_mc(u32 load_pct);
void sim_cpu_step(struct sim_cpu *c, u32 load_pct, u32 dt_us);

#endif /* _SIM_SENSORS_H */
