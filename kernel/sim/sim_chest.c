// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the chest board (ChestBoard) of the simulated body, at 0x20 on
 * I2C-chest: the button, the RGB LED and the LED state registers, its
 * ProgVersion, and its store.
 *
 * The store has 32 pages of 32 bytes: EE_CMD loads page EE_PAGE into the
 * window (EE_WINDOW) or commits the window to it; a commit keeps the store
 * busy for a few milliseconds (STATUS bit 0), a command that comes
 * meanwhile, or names no page, fails (STATUS bit 1). Its contents outlive
 * the module through debugfs chest/store.
 *
 * Knobs: button; chest/ (leds, store, store_cut, commits).
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sim_boards.h"

#define SIM_ADDR_CHEST		0x20
#define SIM_CHEST_PROG_VERSION	"1.4.0"

#define SIM_CHEST_STORE_LEN	(DCM_CHEST_EE_PAGES * DCM_CHEST_EE_PAGE_LEN)
#define SIM_CHEST_COMMIT_US	3000	/* a page commit keeps the store busy */

/**
 * struct sim_chest_store - the chest board's store (an EEPROM on the real
 *	board); its contents outlive the module through debugfs chest/store
 * @ee: the 32 pages
 * @busy_until: a commit is being written until then, microseconds of the
 *	monotonic clock
 * @failed: the last command failed (STATUS bit 1)
 * @cut: debugfs: the cut-th commit from now writes half its page and fails
 * @commits: debugfs, read-only: pages committed
 */
struct sim_chest_store {
	u8 ee[SIM_CHEST_STORE_LEN];
	u64 busy_until;
	bool failed;
	u32 cut;
	u32 commits;
};

/**
 * struct sim_chest - the chest board
 * @board: the board
 * @regs: its registers
 * @store: its store
 * @button: debugfs: the chest button is pressed
 */
struct sim_chest {
	struct sim_board board;
	struct sim_regs regs;
	struct sim_chest_store store;
	bool button;
};

static struct sim_chest *to_chest(struct sim_board *b)
{
	return container_of(b, struct sim_chest, board);
}

/* Its input registers, brought up to date before a read. */
static void sim_chest_refresh(struct sim_board *b, u64 now)
{
	struct sim_chest *c = to_chest(b);
	struct dcm_chest_in in;

	in.button = READ_ONCE(c->button);
	in.status = (now < c->store.busy_until ? DCM_CHEST_ST_EE_BUSY : 0) |
		    (c->store.failed ? DCM_CHEST_ST_EE_ERROR : 0);
	dcm_chest_get_out(&c->regs.reg[DCM_CHEST_OUT_REG], &in.out);
	dcm_chest_put_in(&c->regs.reg[DCM_CHEST_IN_REG], &in);
}

/* EE_CMD: load a page into the window, or commit the window to a page. */
static void sim_chest_command(struct sim_chest *c, u8 cmd, u64 now)
{
	struct sim_chest_store *st = &c->store;
	u8 page = c->regs.reg[DCM_CHEST_EE_PAGE], *window;
	size_t n = DCM_CHEST_EE_PAGE_LEN;

	window = &c->regs.reg[DCM_CHEST_EE_WINDOW];
	if (now < st->busy_until || page >= DCM_CHEST_EE_PAGES ||
	    (cmd != DCM_CHEST_EE_LOAD && cmd != DCM_CHEST_EE_COMMIT)) {
		st->failed = true;
		return;
	}
	st->failed = false;
	if (cmd == DCM_CHEST_EE_LOAD) {
		memcpy(window, st->ee + page * DCM_CHEST_EE_PAGE_LEN, n);
		return;
	}
	/* A commit cut halfway (debugfs chest/store_cut): half a page, failed. */
	if (st->cut && !--st->cut) {
		n /= 2;
		st->failed = true;
	}
	memcpy(st->ee + page * DCM_CHEST_EE_PAGE_LEN, window, n);
	st->busy_until = now + SIM_CHEST_COMMIT_US;
	st->commits++;
}

/* The chest board's registers the master may write, or its command. */
static void sim_chest_write_reg(struct sim_board *b, u8 reg, u8 v, u64 now)
{
	struct sim_chest *c = to_chest(b);

	if (reg == DCM_CHEST_EE_CMD)
		sim_chest_command(c, v, now);
	else if ((reg >= DCM_CHEST_OUT_REG && reg <= DCM_CHEST_EE_PAGE) ||
		 (reg >= DCM_CHEST_EE_WINDOW &&
		  reg < DCM_CHEST_EE_WINDOW + DCM_CHEST_EE_PAGE_LEN))
		c->regs.reg[reg] = v;
}

static const struct sim_board_ops sim_chest_ops = {
	.read = sim_regs_read,
	.write = sim_regs_write,
	.refresh = sim_chest_refresh,
	.write_reg = sim_chest_write_reg,
};

/* ---- knobs ---- */

static int sim_chest_leds_show(struct seq_file *m, void *v)
{
	struct sim_chest *c = m->private;
	u8 level[DCM_CHEST_OUT_LEN];

	mutex_lock(&c->board.sim->lock);
	memcpy(level, &c->regs.reg[DCM_CHEST_OUT_REG], sizeof(level));
	mutex_unlock(&c->board.sim->lock);
	sim_debugfs_levels(m, level, DCM_CHEST_OUT_LEN);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_chest_leds);

/* The store: 1 KiB, the file that keeps it. */
static ssize_t sim_store_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct sim_chest *c = file->private_data;
	ssize_t ret;
	u8 *copy;

	copy = kmalloc(SIM_CHEST_STORE_LEN, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	mutex_lock(&c->board.sim->lock);
	memcpy(copy, c->store.ee, SIM_CHEST_STORE_LEN);
	mutex_unlock(&c->board.sim->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, copy, SIM_CHEST_STORE_LEN);
	kfree(copy);
	return ret;
}

static ssize_t sim_store_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct sim_chest *c = file->private_data;
	loff_t pos = *ppos;
	u8 *copy;

	if (pos < 0 || pos >= SIM_CHEST_STORE_LEN)
		return count ? -ENOSPC : 0;
	count = min_t(size_t, count, SIM_CHEST_STORE_LEN - pos);
	copy = memdup_user(ubuf, count);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	mutex_lock(&c->board.sim->lock);
	memcpy(c->store.ee + pos, copy, count);
	mutex_unlock(&c->board.sim->lock);
	kfree(copy);
	*ppos = pos + count;
	return count;
}

static const struct file_operations sim_store_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_store_read,
	.write = sim_store_write,
	.llseek = default_llseek,
};

/**
 * sim_chest_add() - the chest board at power-up: a new board, its store
 *	erased
 * @sim: the body
 * @dev: its device
 *
 * Return: 0 or -ENOMEM.
 */
int sim_chest_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_chest *c;
	struct dentry *d;

	c = devm_kzalloc(dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	sim_regs_init(&c->regs, DCM_WHOAMI_CHEST, 1, DCM_CHEST_OUT_REG,
		      DCM_CHEST_OUT_REG + DCM_CHEST_OUT_LEN - 1);
	memcpy(&c->regs.reg[DCM_CHEST_PROG_VERSION], SIM_CHEST_PROG_VERSION,
	       sizeof(SIM_CHEST_PROG_VERSION) - 1);
	memset(c->store.ee, 0xff, sizeof(c->store.ee));
	c->board.ops = &sim_chest_ops;
	c->board.name = "ChestBoard";
	c->board.bus = SIM_BUS_I2C;
	c->board.index = SIM_I2C_CHEST;
	c->board.addr = SIM_ADDR_CHEST;
	c->board.dev_id = "nao-chest-board";
	c->board.regs = &c->regs;
	sim_board_add(sim, &c->board);

	sim_debugfs_bool("button", sim->debugfs, &c->button);
	d = debugfs_create_dir("chest", sim->debugfs);
	debugfs_create_file("leds", 0444, d, c, &sim_chest_leds_fops);
	debugfs_create_file_size("store", 0600, d, c, &sim_store_fops, SIM_CHEST_STORE_LEN);
	sim_debugfs_u32(sim, "store_cut", d, &c->store.cut, SIM_STORE_CUT_MAX, false);
	debugfs_create_u32("commits", 0444, d, &c->store.commits);
	return 0;
}
