// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the inertial board (InertialBoard), on the chest's SPI bus.
 *
 * One full-duplex read of its cyclic block each cycle, checked by its
 * CRC-8. Accelerometer and Gyrometer 1-3 are the new registers, 4-6 the old
 * ones (AccX..AccZ; GyrX, GyrY, GyrRef); Gyrometer 7 is the Z rate again
 * (the new register: the old ADC has none), for the name GyrZ that NAOqi
 * 1.14 clients read beside GyrX and GyrY. Angle 1-3 change only while the
 * board says its angle filter has converged. Its subdevices are found by a
 * scan of the device's, at bind.
 *
 * A fall: when AngleX or AngleY passes DCM_FALL_ANGLE (the robot lies on
 * its front, back or side), a DCM_EV_FALL event (value 1, code the axis);
 * when both are back within DCM_UP_ANGLE, another (value 0). The flight
 * recorder (dcmctl flight) writes out the seconds before the first.
 */

#include <linux/string.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "core/dcm_events.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_inertial.h"

#define IMU_AXES	6	/* Accelerometer and Gyrometer 1-6 */
#define IMU_GYR_Z_OLD	6	/* Gyrometer 7, index: GyrZ, the Z rate */
#define IMU_ANGLES	3	/* Angle 1-3 */
#define DCM_FALL_ANGLE	10000	/* 1 rad, in the board's 1e-4 rad */
#define DCM_UP_ANGLE	5000	/* 0.5 rad */

/**
 * struct inertial_priv - the subdevices of an inertial board, by number
 * @acc: Accelerometer n + 1, or -1
 * @gyr: Gyrometer n + 1, or -1 (1-7)
 * @angle: Angle n + 1, or -1
 * @fallen: a fall was posted, and the robot is not up again
 * @len: the bytes of the cycle's SPI transfer (its put's), or negative
 * @frame: what the transfer brought in: its block and CRC-8
 */
struct inertial_priv {
	s16 acc[IMU_AXES];
	s16 gyr[IMU_AXES + 1];
	s16 angle[IMU_ANGLES];
	bool fallen;
	int len;
	u8 frame[DCM_IMU_IN_LEN + DCM_SPI_OVERHEAD];
};

static void inertial_bind(struct dcm_runtime *rt, u32 dev)
{
	struct inertial_priv *p = dcm_board_priv(rt, dev);
	const struct dcm_model *m = rt->model;
	u32 i, n;

	memset(p, 0xff, sizeof(*p));
	p->fallen = false;
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		n = s->number - 1;
		if (s->device != dev || n > IMU_GYR_Z_OLD)
			continue;
		if (!strcmp(s->type->name, "Gyrometer"))
			p->gyr[n] = i;
		else if (n >= IMU_AXES)
			continue;
		else if (!strcmp(s->type->name, "Accelerometer"))
			p->acc[n] = i;
		else if (!strcmp(s->type->name, "Angle") && n < IMU_ANGLES)
			p->angle[n] = i;
	}
}

/* A fall, or up again, from a valid pair of angles: an event each time. */
static void inertial_fall(struct dcm_runtime *rt, u32 dev, struct inertial_priv *p,
			  const struct dcm_imu *imu)
{
	int x = abs(imu->angle[0]), y = abs(imu->angle[1]);

	if (!p->fallen && (x >= DCM_FALL_ANGLE || y >= DCM_FALL_ANGLE)) {
		p->fallen = true;
		dcm_event(rt->ctrl, DCM_EV_FALL, rt->model->devices[dev].name, x >= y ? 0 : 1, 1,
			  "fallen: AngleX %d mrad, AngleY %d mrad", imu->angle[0] / 10,
			  imu->angle[1] / 10);
	} else if (p->fallen && x < DCM_UP_ANGLE && y < DCM_UP_ANGLE) {
		p->fallen = false;
		dcm_event(rt->ctrl, DCM_EV_FALL, rt->model->devices[dev].name, 0, 0,
			  "up again: AngleX %d mrad, AngleY %d mrad", imu->angle[0] / 10,
			  imu->angle[1] / 10);
	}
}

/* Its block over SPI, checked by its CRC-8. */
static void inertial_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct inertial_priv *p = dcm_board_priv(rt, dev);

	p->len = dcm_regs_spi_read(io, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, p->frame,
				   sizeof(p->frame));
}

static bool inertial_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret,
			 u32 now)
{
	struct inertial_priv *p = dcm_board_priv(rt, dev);
	u8 block[DCM_IMU_IN_LEN];
	struct dcm_imu imu;
	int n;

	if (ret) {
		dcm_reg_answer(rt, dev, ret, now);
		return false;
	}
	if (dcm_spi_get_read(p->frame, p->len, DCM_IMU_IN_REG, DCM_IMU_IN_LEN, block)) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_BAD_FRAME, 7, 0, now);
		return false;
	}
	dcm_imu_get(block, &imu);
	for (n = 0; n < IMU_AXES; n++) {
		if (p->acc[n] >= 0)
			dcm_runtime_sense(rt, p->acc[n], n < 3 ? imu.acc[n] : imu.acc_raw[n - 3],
					  now);
		if (p->gyr[n] >= 0)
			dcm_runtime_sense(rt, p->gyr[n], n < 3 ? imu.gyr[n] : imu.gyr_raw[n - 3],
					  now);
	}
	if (p->gyr[IMU_GYR_Z_OLD] >= 0)
		dcm_runtime_sense(rt, p->gyr[IMU_GYR_Z_OLD], imu.gyr[2], now);
	if (imu.status & DCM_IMU_ST_ANGLE_VALID) {
		for (n = 0; n < IMU_ANGLES; n++)
			dcm_runtime_sense(rt, p->angle[n], imu.angle[n], now);
		inertial_fall(rt, dev, p, &imu);
	}
	dcm_reg_answer(rt, dev, 0, now);
	return false;
}

static const struct dcm_board_regs inertial_regs = {
	.put = inertial_put,
	.get = inertial_get,
	.spi = true,
};

const struct dcm_board_type dcm_inertial_board = {
	.name = "InertialBoard",
	.priv_size = sizeof(struct inertial_priv),
	.bind = inertial_bind,
	.regs = &inertial_regs,
};
