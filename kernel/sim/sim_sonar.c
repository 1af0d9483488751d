// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the ultrasound board (USBoard) of the simulated body, at 0x70
 * on I2C-chest.
 *
 * Writing MODE starts a capture whose result a read finds 10 ms later
 * (sim_sensors.c); the world is a list of echoes per receiver, in cm.
 *
 * Knobs: sonar/ (left, right: the echoes; state).
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/string.h>

#include "sim_boards.h"

#define SIM_ADDR_US		0x70

/**
 * struct sim_sonar - the ultrasound board
 * @board: the board
 * @regs: its registers
 * @us: its captures
 * @left: debugfs: what the left receiver hears, cm, nearest first
 * @right: the same, right receiver
 */
struct sim_sonar {
	struct sim_board board;
	struct sim_regs regs;
	struct sim_us us;
	u8 left[DCM_US_ECHOES], right[DCM_US_ECHOES];
};

static struct sim_sonar *to_sonar(struct sim_board *b)
{
	return container_of(b, struct sim_sonar, board);
}

/* Its captures up to now, in its registers. */
static void sim_sonar_refresh(struct sim_board *b, u64 now)
{
	struct sim_sonar *s = to_sonar(b);

	sim_us_step(&s->us, now, s->left, s->right);
	s->regs.reg[DCM_US_MODE] = s->us.mode;
	dcm_us_put(&s->regs.reg[DCM_US_IN_REG], &s->us.regs);
}

/* MODE starts a capture; no other register is written. */
static void sim_sonar_write_reg(struct sim_board *b, u8 reg, u8 v, u64 now)
{
	struct sim_sonar *s = to_sonar(b);

	if (reg == DCM_US_MODE)
		sim_us_write_mode(&s->us, v, now);
	else if (reg >= s->regs.wr_first && reg <= s->regs.wr_last)
		s->regs.reg[reg] = v;
}

static const struct sim_board_ops sim_sonar_ops = {
	.read = sim_regs_read,
	.write = sim_regs_write,
	.refresh = sim_sonar_refresh,
	.write_reg = sim_sonar_write_reg,
};

/* ---- knobs: echo lists, in cm ---- */

static u8 *sim_echo_list(struct file *file)
{
	struct sim_sonar *s = file->f_inode->i_private;

	return strcmp(file->f_path.dentry->d_name.name, "right") ? s->left : s->right;
}

static ssize_t sim_echoes_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct sim_sonar *s = file->f_inode->i_private;
	u8 e[DCM_US_ECHOES];
	char buf[DCM_US_ECHOES * 4 + 2];
	int i, len = 0;

	mutex_lock(&s->board.sim->lock);
	memcpy(e, sim_echo_list(file), sizeof(e));
	mutex_unlock(&s->board.sim->lock);
	for (i = 0; i < DCM_US_ECHOES && e[i] != DCM_US_NO_ECHO; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "", e[i]);
	len += scnprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t sim_echoes_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct sim_sonar *s = file->f_inode->i_private;
	u8 e[DCM_US_ECHOES];
	char buf[64];
	int ret;

	ret = sim_debugfs_get_string(ubuf, count, ppos, buf, sizeof(buf));
	if (ret)
		return ret;
	ret = sim_us_parse_echoes(buf, e);
	if (ret < 0)
		return ret;
	mutex_lock(&s->board.sim->lock);
	memcpy(sim_echo_list(file), e, sizeof(e));
	mutex_unlock(&s->board.sim->lock);
	*ppos += count;
	return count;
}

static const struct file_operations sim_echoes_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_echoes_read,
	.write = sim_echoes_write,
	.llseek = default_llseek,
};

static int sim_sonar_state_show(struct seq_file *m, void *v)
{
	struct sim_sonar *s = m->private;
	struct sim_us us;

	mutex_lock(&s->board.sim->lock);
	us = s->us;
	mutex_unlock(&s->board.sim->lock);
	seq_printf(m, "mode %u status %u counter %u captures %u\n", us.mode, us.regs.status,
		   us.regs.counter, us.captures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_sonar_state);

/**
 * sim_sonar_add() - the ultrasound board at power-up: no capture, nothing
 *	in sight
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_sonar_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_sonar *s;
	struct dentry *d;

	s = devm_kzalloc(dev, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	sim_regs_init(&s->regs, DCM_WHOAMI_US, 2, 1, 0);
	sim_us_init(&s->us);
	memset(s->left, DCM_US_NO_ECHO, DCM_US_ECHOES);
	memset(s->right, DCM_US_NO_ECHO, DCM_US_ECHOES);
	s->board.ops = &sim_sonar_ops;
	s->board.name = "USBoard";
	s->board.bus = SIM_BUS_I2C;
	s->board.index = SIM_I2C_CHEST;
	s->board.addr = SIM_ADDR_US;
	s->board.dev_id = "nao-us-board";
	s->board.regs = &s->regs;
	sim_board_add(sim, &s->board);

	d = debugfs_create_dir("sonar", sim->debugfs);
	debugfs_create_file("left", 0644, d, s, &sim_echoes_fops);
	debugfs_create_file("right", 0644, d, s, &sim_echoes_fops);
	debugfs_create_file("state", 0444, d, s, &sim_sonar_state_fops);
	return 0;
}
