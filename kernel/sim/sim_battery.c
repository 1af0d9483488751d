// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the battery (Battery) of the simulated body, at 0x0b on
 * I2C-chest: SMBus words of a BMZ battery, and its firmware string (block
 * 0x35). A write message sets the command (register) the next read
 * answers; a read steps the battery's physics (sim_physics.c) to now, the
 * current drawn being what the body's boards draw (their ops' current_ma),
 * 1 A for the rest of the robot and load_ma.
 *
 * Knobs: charging, load_ma.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <asm/unaligned.h>

#include "sim_boards.h"

#define SIM_ADDR_BATTERY	0x0b
#define SIM_BAT_FIRMWARE	"V1.01"

/**
 * struct sim_bat - the battery
 * @board: the board
 * @battery: its physics
 * @last: when it was last stepped
 * @reg: its command register
 * @charging: debugfs: the charger is plugged
 * @load_ma: debugfs: what the robot draws besides its boards
 */
struct sim_bat {
	struct sim_board board;
	struct sim_battery battery;
	ktime_t last;
	u8 reg;
	bool charging;
	u32 load_ma;
};

/* The battery's registers from the simulation, stepped to now. */
static void sim_battery_regs(struct sim_bat *sb, struct dcm_battery *b)
{
	struct sim_battery *bat = &sb->battery;
	s32 load = sim_body_current_ma(sb->board.sim) + 1000 + READ_ONCE(sb->load_ma);

	bat->charging = READ_ONCE(sb->charging);
	sim_battery_step(bat, load, sim_elapsed(&sb->last));
	memset(b, 0, sizeof(*b));
	b->kind = DCM_BAT_KIND_BMZ;
	b->current_ma = (s16)clamp_t(s32, bat->current_ma, S16_MIN, S16_MAX);
	b->charge = sim_battery_charge_ppm(bat) / 10000;
	b->temperature = (bat->temp_mc + 273150) / 100;
	b->voltage = 21600 + b->charge * 40;
	b->cell_min = 3600 + b->charge * 6;
	b->cell_max = b->cell_min + 20;
	b->full = div64_s64(bat->capacity_nah, 1000000);
	b->remaining = div64_s64(bat->charge_nah, 1000000);
	b->age = 100;
	b->status = sim_battery_status(bat);
}

static int sim_battery_read(struct sim_board *board, u8 *buf, u16 len)
{
	struct sim_bat *sb = container_of(board, struct sim_bat, board);
	struct dcm_battery b;
	u16 word;

	if (sb->reg == DCM_BAT_FIRMWARE)
		return dcm_smbus_block_put(buf, len, SIM_BAT_FIRMWARE) < 0 ? -EIO : 0;
	sim_battery_regs(sb, &b);
	if (len != 2 || dcm_bat_put_word(&b, sb->reg, &word))
		return -EIO;
	put_unaligned_le16(word, buf);
	return 0;
}

static int sim_battery_write(struct sim_board *board, const u8 *buf, u16 len)
{
	struct sim_bat *sb = container_of(board, struct sim_bat, board);

	if (len)
		sb->reg = buf[0];
	return 0;
}

static const struct sim_board_ops sim_battery_ops = {
	.read = sim_battery_read,
	.write = sim_battery_write,
};

/**
 * sim_battery_add() - the battery at power-up: 2250 mAh
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_battery_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_bat *sb;

	sb = devm_kzalloc(dev, sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	sim_battery_init(&sb->battery, 2250LL * 1000000);
	sb->last = ktime_get();
	sb->board.ops = &sim_battery_ops;
	sb->board.name = "Battery";
	sb->board.bus = SIM_BUS_I2C;
	sb->board.index = SIM_I2C_CHEST;
	sb->board.addr = SIM_ADDR_BATTERY;
	sb->board.dev_id = "nao-battery";
	sim_board_add(sim, &sb->board);

	sim_debugfs_bool("charging", sim->debugfs, &sb->charging);
	sim_debugfs_u32(sim, "load_ma", sim->debugfs, &sb->load_ma, SIM_LOAD_MA_MAX, false);
	return 0;
}
