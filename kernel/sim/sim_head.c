// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the head's boards in the simulated body, on I2C-head: the face
 * board (FaceBoard, 0x40: 48 LED registers, 6 bits), the ear board
 * (EarLeds, 0x41: 20 LEDs, 4 bits, two per register), the head touch
 * board (TouchBoard, 0x48: 3 touch pads, 12 LEDs) and the head board
 * (HeadCPU, 0x4c: the CPU temperature, sim_sensors.c).
 *
 * Knobs: head/ (touch, cpu_load; cpu_temp_mc, face_leds, ear_leds,
 * touch_leds: what the boards hold).
 */

#include <linux/debugfs.h>
#include <linux/device.h>

#include "sim_boards.h"
#include "wire/dcm_wire_head.h"

#define SIM_ADDR_FACE		0x40
#define SIM_ADDR_EAR		0x41
#define SIM_ADDR_TOUCH		0x48
#define SIM_ADDR_HEAD		0x4c

/**
 * struct sim_head_board - a board of the head: a register map
 * @board: the board
 * @regs: its registers
 * @head: the head
 */
struct sim_head_board {
	struct sim_board board;
	struct sim_regs regs;
	struct sim_head *head;
};

/**
 * struct sim_head - the head and its boards
 * @sim: the body
 * @face: the face board
 * @ears: the ear board
 * @touch: the head touch board
 * @cpu_board: the head board
 * @cpu: the head CPU's temperature
 * @cpu_last: when it was last stepped
 * @cpu_load: debugfs: the head CPU's load, percent
 * @pads: debugfs: the head's pads: bit 0 front, 1 middle, 2 rear
 */
struct sim_head {
	struct dcm_sim *sim;
	struct sim_head_board face, ears, touch, cpu_board;
	struct sim_cpu cpu;
	ktime_t cpu_last;
	u32 cpu_load, pads;
};

static struct sim_head *to_head(struct sim_board *b)
{
	return container_of(b, struct sim_head_board, board)->head;
}

/* The touch board's pads, before a read. */
static void sim_touch_refresh(struct sim_board *b, u64 now)
{
	struct sim_head *h = to_head(b);

	h->touch.regs.reg[DCM_TOUCH_PADS] = READ_ONCE(h->pads) & DCM_TOUCH_MASK;
}

/* The head CPU's temperature, stepped to now, before a read. */
static void sim_cpu_refresh(struct sim_board *b, u64 now)
{
	struct sim_head *h = to_head(b);

	sim_cpu_step(&h->cpu, READ_ONCE(h->cpu_load), sim_elapsed(&h->cpu_last));
	dcm_head_put_in(&h->cpu_board.regs.reg[DCM_HEAD_IN_REG], h->cpu.temp_mc);
}

static const struct sim_board_ops sim_led_board_ops = {
	.read = sim_regs_read,
	.write = sim_regs_write,
};

static const struct sim_board_ops sim_touch_ops = {
	.read = sim_regs_read,
	.write = sim_regs_write,
	.refresh = sim_touch_refresh,
};

static const struct sim_board_ops sim_cpu_ops = {
	.read = sim_regs_read,
	.write = sim_regs_write,
	.refresh = sim_cpu_refresh,
};

/* ---- knobs: what the boards hold ---- */

static int sim_cpu_temp_show(struct seq_file *m, void *v)
{
	struct sim_head *h = m->private;
	s32 t;

	mutex_lock(&h->sim->lock);
	t = h->cpu.temp_mc;
	mutex_unlock(&h->sim->lock);
	seq_printf(m, "%d\n", t);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_cpu_temp);

static int sim_face_leds_show(struct seq_file *m, void *v)
{
	struct sim_head *h = m->private;
	u8 level[DCM_FACE_N];

	mutex_lock(&h->sim->lock);
	dcm_face_get(&h->face.regs.reg[DCM_FACE_LEDS], level);
	mutex_unlock(&h->sim->lock);
	sim_debugfs_levels(m, level, DCM_FACE_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_face_leds);

static int sim_ear_leds_show(struct seq_file *m, void *v)
{
	struct sim_head *h = m->private;
	u8 level[DCM_EAR_N];

	mutex_lock(&h->sim->lock);
	dcm_led4_get(&h->ears.regs.reg[DCM_EAR_LEDS], level, DCM_EAR_N);
	mutex_unlock(&h->sim->lock);
	sim_debugfs_levels(m, level, DCM_EAR_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_ear_leds);

static int sim_touch_leds_show(struct seq_file *m, void *v)
{
	struct sim_head *h = m->private;
	u8 level[DCM_TOUCH_N];

	mutex_lock(&h->sim->lock);
	dcm_led4_get(&h->touch.regs.reg[DCM_TOUCH_LEDS], level, DCM_TOUCH_N);
	mutex_unlock(&h->sim->lock);
	sim_debugfs_levels(m, level, DCM_TOUCH_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_touch_leds);

static void sim_head_board_add(struct dcm_sim *sim, struct sim_head *h,
			       struct sim_head_board *hb, const struct sim_board_ops *ops,
			       const char *name, const char *dev_id, u16 addr)
{
	hb->head = h;
	hb->board.ops = ops;
	hb->board.name = name;
	hb->board.bus = SIM_BUS_I2C;
	hb->board.index = SIM_I2C_HEAD;
	hb->board.addr = addr;
	hb->board.dev_id = dev_id;
	hb->board.regs = &hb->regs;
	sim_board_add(sim, &hb->board);
}

/**
 * sim_head_add() - the head's boards at power-up: LEDs off, not touched,
 *	the CPU at 25 % load and its temperature for it
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_head_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_head *h;
	struct dentry *d;

	h = devm_kzalloc(dev, sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->sim = sim;
	sim_regs_init(&h->face.regs, DCM_WHOAMI_FACE, 1, DCM_FACE_LEDS,
		      DCM_FACE_LEDS + DCM_FACE_OUT_LEN - 1);
	sim_head_board_add(sim, h, &h->face, &sim_led_board_ops, "FaceBoard", "nao-face-board",
			   SIM_ADDR_FACE);
	sim_regs_init(&h->ears.regs, DCM_WHOAMI_EAR, 1, DCM_EAR_LEDS,
		      DCM_EAR_LEDS + DCM_EAR_OUT_LEN - 1);
	sim_head_board_add(sim, h, &h->ears, &sim_led_board_ops, "EarLeds", "nao-ear-board",
			   SIM_ADDR_EAR);
	sim_regs_init(&h->touch.regs, DCM_WHOAMI_TOUCH, 1, DCM_TOUCH_LEDS,
		      DCM_TOUCH_LEDS + DCM_TOUCH_OUT_LEN - 1);
	sim_head_board_add(sim, h, &h->touch, &sim_touch_ops, "TouchBoard", "nao-touch-board",
			   SIM_ADDR_TOUCH);
	sim_regs_init(&h->cpu_board.regs, DCM_WHOAMI_HEAD, 1, 1, 0);
	sim_head_board_add(sim, h, &h->cpu_board, &sim_cpu_ops, "HeadCPU", "nao-head-board",
			   SIM_ADDR_HEAD);
	h->cpu_load = 25;
	h->cpu.temp_mc = sim_cpu_equilibrium_mc(h->cpu_load);
	h->cpu_last = ktime_get();

	d = sim_debugfs_dir(sim, "head");
	sim_debugfs_u32(sim, "touch", d, &h->pads, 0x7, true);
	sim_debugfs_u32(sim, "cpu_load", d, &h->cpu_load, 100, false);
	debugfs_create_file("cpu_temp_mc", 0444, d, h, &sim_cpu_temp_fops);
	debugfs_create_file("face_leds", 0444, d, h, &sim_face_leds_fops);
	debugfs_create_file("ear_leds", 0444, d, h, &sim_ear_leds_fops);
	debugfs_create_file("touch_leds", 0444, d, h, &sim_touch_leds_fops);
	return 0;
}
