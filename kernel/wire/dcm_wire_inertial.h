/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the inertial board (SPI-chest): accelerometer, gyrometer and
 * angles, read with the SPI block transfer of dcm_regs.h.
 */
#ifndef _DCM_WIRE_INERTIAL_H
#define _DCM_WIRE_INERTIAL_H

#include "wire/dcm_regs.h"

#define DCM_WHOAMI_IMU		0x1a

#define DCM_IMU_STATUS		0x02	/* R: DCM_IMU_ST_* */
#define DCM_IMU_COUNTER		0x03	/* R: +1 per new sample */
#define DCM_IMU_ACC		0x04	/* R: 3 x s16, 1/1024 g */
#define DCM_IMU_GYR		0x0a	/* R: 3 x s16, 500/32768 deg/s */
#define DCM_IMU_ANGLE		0x10	/* R: 3 x s16, 1e-4 rad */
#define DCM_IMU_ACC_RAW		0x16	/* R: 3 x s8, g ~ 56 (LIS302DL) */
#define DCM_IMU_GYR_RAW		0x1a	/* R: 3 x s16: X, Y, reference, 12-bit ADC */
#define DCM_IMU_CTRL		0x20	/* W: DCM_IMU_CTRL_* */

#define DCM_IMU_ST_ANGLE_VALID	BIT(0)	/* the angle filter has converged */
#define DCM_IMU_ST_GYR_SAT	BIT(1)
#define DCM_IMU_ST_ACC_SAT	BIT(2)
#define DCM_IMU_CTRL_RESET_ANGLE	BIT(0)

#define DCM_IMU_IN_REG		DCM_IMU_STATUS	/* cyclic read: 0x02..0x1f */
#define DCM_IMU_IN_LEN		30

/**
 * struct dcm_imu - the inertial board's cyclic block
 * @status: DCM_IMU_ST_*
 * @counter: sample counter
 * @acc: acceleration X, Y, Z, 1/1024 g
 * @gyr: rotation speed X, Y, Z, 500/32768 deg/s
 * @angle: angles X, Y, Z, 1e-4 rad
 * @acc_raw: the old 8-bit accelerometer X, Y, Z (g ~ 56)
 * @gyr_raw: the old gyrometer X, Y and reference, 12-bit ADC counts
 */
struct dcm_imu {
	u8 status;
	u8 counter;
	s16 acc[3];
	s16 gyr[3];
	s16 angle[3];
	s8 acc_raw[3];
	s16 gyr_raw[3];
};

void dcm_imu_put(u8 *block, const struct dcm_imu *m);
void dcm_imu_get(const u8 *block, struct dcm_imu *m);

#endif /* _DCM_WIRE_INERTIAL_H */
