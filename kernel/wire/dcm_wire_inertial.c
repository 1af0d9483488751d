// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the inertial board's register map, read over SPI
 * (Documentation/dcm/wire-protocol.rst, "Inertial board").
 *
 * The put/get pairs are each other's inverse: the master writes actuator
 * blocks and reads sensor blocks, a simulated board does the opposite.
 */

#include "wire/dcm_wire_inertial.h"

/* Offset of a register in the cyclic block */
#define IMU(reg)	((reg) - DCM_IMU_IN_REG)

/**
 * dcm_imu_put() - the inertial board's cyclic block
 * @block: DCM_IMU_IN_LEN bytes, for registers 0x02..0x1f
 * @m: the measurements
 */
void dcm_imu_put(u8 *block, const struct dcm_imu *m)
{
	int i;

	block[IMU(DCM_IMU_STATUS)] = m->status;
	block[IMU(DCM_IMU_COUNTER)] = m->counter;
	for (i = 0; i < 3; i++) {
		put_unaligned_le16((u16)m->acc[i], block + IMU(DCM_IMU_ACC) + 2 * i);
		put_unaligned_le16((u16)m->gyr[i], block + IMU(DCM_IMU_GYR) + 2 * i);
		put_unaligned_le16((u16)m->angle[i], block + IMU(DCM_IMU_ANGLE) + 2 * i);
		block[IMU(DCM_IMU_ACC_RAW) + i] = (u8)m->acc_raw[i];
		put_unaligned_le16((u16)m->gyr_raw[i], block + IMU(DCM_IMU_GYR_RAW) + 2 * i);
	}
	block[IMU(DCM_IMU_ACC_RAW) + 3] = 0;
}
EXPORT_SYMBOL_GPL(dcm_imu_put);

/**
 * dcm_imu_get() - decode the inertial board's cyclic block
 * @block: DCM_IMU_IN_LEN bytes, registers 0x02..0x1f
 * @m: the measurements
 */
void dcm_imu_get(const u8 *block, struct dcm_imu *m)
{
	int i;

	m->status = block[IMU(DCM_IMU_STATUS)];
	m->counter = block[IMU(DCM_IMU_COUNTER)];
	for (i = 0; i < 3; i++) {
		m->acc[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_ACC) + 2 * i);
		m->gyr[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_GYR) + 2 * i);
		m->angle[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_ANGLE) + 2 * i);
		m->acc_raw[i] = (s8)block[IMU(DCM_IMU_ACC_RAW) + i];
		m->gyr_raw[i] = (s16)get_unaligned_le16(block + IMU(DCM_IMU_GYR_RAW) + 2 * i);
	}
}

