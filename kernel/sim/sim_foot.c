// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the foot boards (FootBoard) of the simulated body: LeftFootBoard
 * at place 5 of RS485-3, RightFootBoard at place 5 of RS485-4.
 *
 * A foot board's slot of the cyclic broadcast sets its RGB LED; it reports
 * its two bumpers and what its four FSRs bear of the robot's weight
 * (sim_sensors.c), given the feet on the ground and the centre of pressure.
 *
 * Knobs: feet/ (stance, weight_g, cop_x_mm, cop_y_mm) and feet/lfoot/,
 * feet/rfoot/ (bumpers; load_g, fsr, led: what the board holds).
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/string.h>

#include "sim_boards.h"
#include "sim_link.h"

struct sim_feet;

/**
 * struct sim_foot - a foot board
 * @board: the board
 * @feet: the world both feet share
 * @geom: where its FSRs are, how they respond
 * @side: 0 left, 1 right
 * @led: red, green, blue, as the last slot set them
 * @bumpers: debugfs: bit 0 left, bit 1 right bumper pressed
 * @load: what each FSR bore at the last reply, grams
 * @fsr: what each read then, counts
 */
struct sim_foot {
	struct sim_board board;
	struct sim_feet *feet;
	const struct sim_foot_geom *geom;
	int side;
	u8 led[DCM_FOOT_OUT_LEN];
	u32 bumpers;
	u32 load[DCM_FOOT_FSRS];
	u16 fsr[DCM_FOOT_FSRS];
};

/**
 * struct sim_feet - the feet and the weight they bear
 * @foot: left, right
 * @stance: debugfs: SIM_STANCE_* bits, the feet on the ground
 * @weight_g: debugfs: the robot's weight
 * @cop_x_mm: debugfs: the centre of pressure on each foot, X
 * @cop_y_mm: and Y
 * @knob: the signed knobs' descriptions
 */
struct sim_feet {
	struct sim_foot foot[2];
	u32 stance, weight_g;
	s32 cop_x_mm, cop_y_mm;
	struct sim_knob knob[2];
};

/*
 * A foot board: the slot sets its LEDs; it reports its bumpers and what its
 * FSRs bear: what the physics link's model says while attached, else their
 * share of the robot's weight (sim_sensors.c).
 */
static void sim_foot_slot(struct sim_board *b, const struct dcm_rs485_slot *slot, u32 dt_us,
			  struct dcm_rs485_reply *reply)
{
	struct sim_foot *f = container_of(b, struct sim_foot, board);
	struct sim_feet *feet = f->feet;
	u32 load[2], w[DCM_FOOT_FSRS], bumpers;
	struct dcm_foot_in in = { };
	u8 led[DCM_FOOT_OUT_LEN];
	int i;

	dcm_foot_get_slot(slot, led);
	for (i = 0; i < DCM_FOOT_OUT_LEN; i++)
		WRITE_ONCE(f->led[i], led[i]);
	if (!sim_link_fsr(b->sim, f->side, w)) {
		sim_feet_split(READ_ONCE(feet->stance), READ_ONCE(feet->weight_g), &load[0],
			       &load[1]);
		sim_foot_load(f->geom, load[f->side], READ_ONCE(feet->cop_x_mm) * 1000,
			      READ_ONCE(feet->cop_y_mm) * 1000, w);
	}
	sim_foot_fsr(f->geom, w, in.fsr);
	for (i = 0; i < DCM_FOOT_FSRS; i++) {
		WRITE_ONCE(f->load[i], w[i]);
		WRITE_ONCE(f->fsr[i], in.fsr[i]);
	}
	bumpers = READ_ONCE(f->bumpers);
	in.bumper[0] = bumpers & BIT(0);
	in.bumper[1] = bumpers & BIT(1);
	dcm_foot_put_in(reply->data, &in);
}

static const struct sim_board_ops sim_foot_ops = {
	.rs485_type = DCM_BOARD_FOOT,
	.slot = sim_foot_slot,
};

/* ---- knobs ---- */

static const char *const sim_stances[] = {
	[0] = "none",
	[SIM_STANCE_LEFT] = "left",
	[SIM_STANCE_RIGHT] = "right",
	[SIM_STANCE_BOTH] = "both",
};

static ssize_t sim_stance_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct sim_feet *feet = file->private_data;
	char buf[8];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n",
			sim_stances[READ_ONCE(feet->stance) & SIM_STANCE_BOTH]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t sim_stance_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct sim_feet *feet = file->private_data;
	char buf[8];
	int i;

	i = sim_debugfs_get_string(ubuf, count, ppos, buf, sizeof(buf));
	if (i)
		return i;
	i = sysfs_match_string(sim_stances, buf);
	if (i < 0)
		return i;
	WRITE_ONCE(feet->stance, i);
	*ppos += count;
	return count;
}

static const struct file_operations sim_stance_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_stance_read,
	.write = sim_stance_write,
	.llseek = default_llseek,
};

static int sim_foot_fsr_show(struct seq_file *m, void *v)
{
	struct sim_foot *f = m->private;

	seq_printf(m, "%u %u %u %u\n", READ_ONCE(f->fsr[0]), READ_ONCE(f->fsr[1]),
		   READ_ONCE(f->fsr[2]), READ_ONCE(f->fsr[3]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_foot_fsr);

static int sim_foot_load_show(struct seq_file *m, void *v)
{
	struct sim_foot *f = m->private;

	seq_printf(m, "%u %u %u %u\n", READ_ONCE(f->load[0]), READ_ONCE(f->load[1]),
		   READ_ONCE(f->load[2]), READ_ONCE(f->load[3]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_foot_load);

static int sim_foot_led_show(struct seq_file *m, void *v)
{
	struct sim_foot *f = m->private;

	seq_printf(m, "%u %u %u\n", READ_ONCE(f->led[0]), READ_ONCE(f->led[1]),
		   READ_ONCE(f->led[2]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_foot_led);

static void sim_foot_debugfs(struct dcm_sim *sim, struct sim_feet *feet)
{
	static const char *const names[] = { "lfoot", "rfoot" };
	struct dentry *d, *sub;
	int i;

	d = debugfs_create_dir("feet", sim->debugfs);
	debugfs_create_file("stance", 0644, d, feet, &sim_stance_fops);
	sim_debugfs_u32(sim, "weight_g", d, &feet->weight_g, SIM_WEIGHT_G_MAX, false);
	sim_debugfs_signed(&feet->knob[0], sim, "cop_x_mm", d, &feet->cop_x_mm, 1, -SIM_COP_MM_MAX,
			   SIM_COP_MM_MAX);
	sim_debugfs_signed(&feet->knob[1], sim, "cop_y_mm", d, &feet->cop_y_mm, 1, -SIM_COP_MM_MAX,
			   SIM_COP_MM_MAX);
	for (i = 0; i < 2; i++) {
		struct sim_foot *f = &feet->foot[i];

		sub = debugfs_create_dir(names[i], d);
		sim_debugfs_u32(sim, "bumpers", sub, &f->bumpers, 0x3, true);
		debugfs_create_file("load_g", 0444, sub, f, &sim_foot_load_fops);
		debugfs_create_file("fsr", 0444, sub, f, &sim_foot_fsr_fops);
		debugfs_create_file("led", 0444, sub, f, &sim_foot_led_fops);
	}
}

/**
 * sim_foot_add() - the foot boards at power-up: both feet on the ground
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_foot_add(struct dcm_sim *sim, struct device *dev)
{
	static const char *const names[] = { "LeftFootBoard", "RightFootBoard" };
	struct sim_feet *feet;
	int i;

	BUILD_BUG_ON(DCM_FOOT_FSRS != DCM_SIM_FOOT_FSRS);
	feet = devm_kzalloc(dev, sizeof(*feet), GFP_KERNEL);
	if (!feet)
		return -ENOMEM;
	feet->stance = SIM_STANCE_BOTH;
	feet->weight_g = SIM_WEIGHT_G;
	for (i = 0; i < 2; i++) {
		struct sim_foot *f = &feet->foot[i];

		f->feet = feet;
		f->side = i;
		f->geom = i ? &sim_foot_right : &sim_foot_left;
		f->board.ops = &sim_foot_ops;
		f->board.name = names[i];
		f->board.bus = SIM_BUS_RS485;
		f->board.index = 2 + i;	/* RS485-3, RS485-4 */
		f->board.addr = 5;
		sim_board_add(sim, &f->board);
	}
	sim_foot_debugfs(sim, feet);
	return 0;
}
