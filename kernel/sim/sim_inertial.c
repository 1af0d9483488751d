// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the inertial board (InertialBoard) of the simulated body, at
 * chip select 0 of SPI-chest.
 *
 * Each transfer is full duplex: the board parses the command and count the
 * master clocks out (dcm_spi_parse()) and answers a read with the block and
 * its CRC-8 (dcm_spi_put_answer()), its sensors stepped to now
 * (sim_sensors.c); a write with a good CRC reaches its registers (CTRL: bit
 * 0 resets the yaw angle). A silent board, or one that does not understand
 * the request, leaves the line high: the master reads 0xff bytes and its
 * CRC check fails.
 *
 * Knobs: imu/ (angle_x/y/z, rate_x/y/z, silent).
 */

#include <linux/debugfs.h>
#include <linux/device.h>

#include "sim_boards.h"
#include "sim_link.h"

/**
 * struct sim_inertial - the inertial board
 * @board: the board
 * @regs: its registers
 * @imu: its physics
 * @last: when it was last stepped
 * @silent: debugfs: it does not answer
 * @knob: the signed knobs' descriptions
 */
struct sim_inertial {
	struct sim_board board;
	struct sim_regs regs;
	struct sim_imu imu;
	ktime_t last;
	bool silent;
	struct sim_knob knob[6];
};

/*
 * A sample: what the physics link's model says while attached, the board
 * keeping its angles so that its own model goes on from there when the link
 * closes; else its own model's.
 */
static void sim_inertial_sample(struct sim_inertial *s, struct dcm_imu *m)
{
	s32 angle[3], rate[3], acc[3];
	s64 g[3];
	int i;

	if (!sim_link_imu(s->board.sim, angle, rate, acc)) {
		sim_imu_sample(&s->imu, m);
		return;
	}
	for (i = 0; i < 3; i++) {
		s->imu.angle_urad[i] = angle[i];
		s->imu.rem[i] = 0;
		g[i] = (s64)acc[i] * 1000;
	}
	sim_imu_sample_at(s->imu.counter, angle, rate, g, m);
}

/* The board's answer to one transfer, under the body's lock. */
static void sim_inertial_xfer(struct sim_board *b, const u8 *tx, u8 *rx, unsigned int len)
{
	struct sim_inertial *s = container_of(b, struct sim_inertial, board);
	u8 reg, count, data[DCM_SPI_MAX];
	struct dcm_imu m;
	bool read;

	memset(rx, 0xff, len);
	if (READ_ONCE(s->silent) || dcm_spi_parse(tx, len, &read, &reg, &count, data))
		return;
	if (!read) {
		if (reg <= DCM_IMU_CTRL && reg + count > DCM_IMU_CTRL &&
		    (data[DCM_IMU_CTRL - reg] & DCM_IMU_CTRL_RESET_ANGLE))
			s->imu.angle_urad[2] = 0;
		memset(rx, 0, len);
		return;
	}
	sim_imu_step(&s->imu, sim_elapsed(&s->last));
	sim_inertial_sample(s, &m);
	dcm_imu_put(&s->regs.reg[DCM_IMU_IN_REG], &m);
	dcm_spi_put_answer(rx, len, reg, &s->regs.reg[reg], count);
}

static const struct sim_board_ops sim_inertial_ops = {
	.xfer = sim_inertial_xfer,
};

/**
 * sim_inertial_add() - the inertial board at power-up: standing still,
 *	upright
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_inertial_add(struct dcm_sim *sim, struct device *dev)
{
	static const char *const axes[] = { "x", "y", "z" };
	struct sim_inertial *s;
	struct dentry *d;
	char name[16];
	int i;

	s = devm_kzalloc(dev, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	sim_regs_init(&s->regs, DCM_WHOAMI_IMU, 1, DCM_IMU_CTRL, DCM_IMU_CTRL);
	s->last = ktime_get();
	s->board.ops = &sim_inertial_ops;
	s->board.name = "InertialSensor";
	s->board.bus = SIM_BUS_SPI;
	s->board.index = 0;
	s->board.addr = 0;
	s->board.dev_id = "nao-inertial-board";
	s->board.regs = &s->regs;
	sim_board_add(sim, &s->board);

	d = debugfs_create_dir("imu", sim->debugfs);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "angle_%s", axes[i]);
		sim_debugfs_signed(&s->knob[2 * i], sim, name, d, &s->imu.angle_urad[i], 1000,
				   -SIM_ANGLE_MRAD_MAX, SIM_ANGLE_MRAD_MAX);
		snprintf(name, sizeof(name), "rate_%s", axes[i]);
		sim_debugfs_signed(&s->knob[2 * i + 1], sim, name, d, &s->imu.rate_urad_s[i],
				   1000, -SIM_RATE_MRAD_S_MAX, SIM_RATE_MRAD_S_MAX);
	}
	sim_debugfs_bool("silent", d, &s->silent);
	return 0;
}
