// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the simulated body: its list of boards, its clock, the register
 * map every I2C and SPI board has, and the debugfs helpers the board
 * families share. It names no board: the board families (sim_boards.h) add
 * theirs, the buses (sim_bus.h) find them here.
 *
 * A register-map board behaves as the real ones: a write sets the register
 * pointer with its first byte and stores the rest from there, into the
 * registers the master may write; a read returns registers from the
 * pointer on. Before a read the board brings its sensor registers up to
 * date (its ops' refresh).
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "sim_body.h"

/*
 * Whether the buses take their wire time (Documentation/dcm/simulator.rst,
 * "Wire time"): off, a transfer answers at once, as the functional tests
 * want; on, it ends when its last bit would have left the wire at the bus's
 * rate. Read at each transfer, so that it may change at run time.
 */
static bool wire_time;
module_param(wire_time, bool, 0644);
MODULE_PARM_DESC(wire_time,
		 "buses take their wire time at their rate (1) or answer at once (0, default)");

/**
 * sim_wire_time() - whether the buses take their wire time now
 *
 * Return: the wire_time module parameter.
 */
bool sim_wire_time(void)
{
	return READ_ONCE(wire_time);
}

/**
 * sim_wire_ns() - how long some bits take on a wire
 * @bits: the bits, start, stop, acknowledge and parity bits included
 * @rate: the wire's rate, bits per second; 0: no time
 *
 * Return: nanoseconds, rounded up.
 */
u64 sim_wire_ns(u64 bits, u32 rate)
{
	if (!rate)
		return 0;
	return div_u64(bits * NSEC_PER_SEC + rate - 1, rate);
}

/* Set at the module's unload: the knobs' waits end at once. */
static bool sim_going;
static DECLARE_WAIT_QUEUE_HEAD(sim_going_wq);

/**
 * sim_delay() - a delay a knob asks for (rs485-N/delay_us), cut short by
 *	the module's unload
 * @us: the delay, bounded by the knob's range
 *
 * Sleeps on an hrtimer, as usleep_range() would, but returns at once when
 * sim_unload() has begun: a body never keeps its controller's cycle, and
 * so rmmod, waiting for a delay. Context: process context, may sleep; no
 * lock held.
 */
void sim_delay(u32 us)
{
	if (us)
		wait_event_hrtimeout(sim_going_wq, READ_ONCE(sim_going),
				     ns_to_ktime((u64)us * NSEC_PER_USEC));
}

/**
 * sim_unload() - the module goes: end the knobs' waits, now and to come
 */
void sim_unload(void)
{
	WRITE_ONCE(sim_going, true);
	wake_up_all(&sim_going_wq);
}

/**
 * sim_wire_wait() - wait until a transfer's bits have left the wire
 * @start: when the transfer started
 * @ns: its wire time (sim_wire_ns())
 *
 * With wire_time on, sleeps until @start + @ns on an hrtimer, as a real
 * transport waits for its completion: the CPU is free meanwhile, and
 * transfers of several buses overlap. The boards' work since @start counts
 * in the wire time, as a board computes while the bytes travel. With
 * wire_time off, returns at once.
 *
 * Context: process context, may sleep; no lock held.
 */
void sim_wire_wait(ktime_t start, u64 ns)
{
	ktime_t end = ktime_add_ns(start, ns);

	if (!ns || !sim_wire_time() || ktime_after(ktime_get(), end))
		return;
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!schedule_hrtimeout_range(&end, 0, HRTIMER_MODE_ABS))
			break;
	}
	__set_current_state(TASK_RUNNING);
}

/**
 * sim_board_add() - a board joins the body
 * @sim: the body
 * @b: the board, its @ops, @name, @bus, @index, @addr (and @regs) set
 *
 * Called at probe, before the buses that reach the board are added.
 */
void sim_board_add(struct dcm_sim *sim, struct sim_board *b)
{
	b->sim = sim;
	list_add_tail(&b->node, &sim->boards);
}

/**
 * sim_board_find() - the board that answers at an address of a bus
 * @sim: the body
 * @bus: the kind of bus
 * @index: which one
 * @addr: the address
 *
 * Return: the board, NULL if none answers there.
 */
struct sim_board *sim_board_find(struct dcm_sim *sim, enum sim_bus bus, u8 index, u16 addr)
{
	struct sim_board *b;

	list_for_each_entry(b, &sim->boards, node)
		if (b->bus == bus && b->index == index && b->addr == addr)
			return b;
	return NULL;
}

/**
 * sim_body_current_ma() - what every board draws, for the battery
 * @sim: the body
 *
 * Return: mA.
 */
s32 sim_body_current_ma(struct dcm_sim *sim)
{
	struct sim_board *b;
	s32 ma = 0;

	list_for_each_entry(b, &sim->boards, node)
		if (b->ops->current_ma)
			ma += b->ops->current_ma(b);
	return ma;
}

/**
 * sim_elapsed() - microseconds since a time, and the time moved to now
 * @last: the time
 *
 * Return: the microseconds, at most 100 ms.
 */
u32 sim_elapsed(ktime_t *last)
{
	ktime_t now = ktime_get();
	s64 us = ktime_us_delta(now, *last);

	*last = now;
	return clamp_t(s64, us, 0, 100000);
}

/* ---- register maps ---- */

/**
 * sim_regs_init() - a register map at power-up
 * @r: the map
 * @whoami: its WHOAMI register
 * @fw: its FW_VERSION register
 * @wr_first: the first register the master may write
 * @wr_last: the last one; below @wr_first: none
 */
void sim_regs_init(struct sim_regs *r, u8 whoami, u8 fw, u8 wr_first, u8 wr_last)
{
	memset(r, 0, sizeof(*r));
	r->reg[DCM_REG_WHOAMI] = whoami;
	r->reg[DCM_REG_FW_VERSION] = fw;
	r->wr_first = wr_first;
	r->wr_last = wr_last;
}

/**
 * sim_regs_read() - an I2C read of a board's register map
 * @b: the board, with @regs
 * @buf: the message's buffer
 * @len: its length; 0 reads nothing
 *
 * Context: under the body's lock.
 * Return: 0, or -EIO for a read beyond the map.
 */
int sim_regs_read(struct sim_board *b, u8 *buf, u16 len)
{
	struct sim_regs *r = b->regs;

	lockdep_assert_held(&b->sim->lock);
	if (!len)
		return 0;
	if (r->ptr + len > SIM_REGS)
		return -EIO;
	if (b->ops->refresh)
		b->ops->refresh(b, ktime_to_us(ktime_get()));
	memcpy(buf, &r->reg[r->ptr], len);
	r->ptr += len;
	return 0;
}

/**
 * sim_regs_write() - an I2C write to a board's register map
 * @b: the board, with @regs
 * @buf: the message: the first register, then the bytes from it on
 * @len: its length; 0 writes nothing
 *
 * Context: under the body's lock.
 * Return: 0, or -EIO for a write beyond the map.
 */
int sim_regs_write(struct sim_board *b, const u8 *buf, u16 len)
{
	u64 now = ktime_to_us(ktime_get());
	struct sim_regs *r = b->regs;
	u16 i;

	lockdep_assert_held(&b->sim->lock);
	if (!len)
		return 0;
	if (buf[0] + len - 1 > SIM_REGS)
		return -EIO;
	r->ptr = buf[0];
	for (i = 1; i < len; i++, r->ptr++) {
		if (b->ops->write_reg)
			b->ops->write_reg(b, r->ptr, buf[i], now);
		else if (r->ptr >= r->wr_first && r->ptr <= r->wr_last)
			r->reg[r->ptr] = buf[i];
	}
	return 0;
}

/* ---- debugfs ---- */

/**
 * sim_debugfs_init() - dcm_sim/body<id>/, empty: each board family and bus
 *	adds its knobs
 * @sim: the body
 * @root: dcm_sim/
 */
void sim_debugfs_init(struct dcm_sim *sim, struct dentry *root)
{
	char name[16];

	snprintf(name, sizeof(name), "body%d", sim->id);
	sim->debugfs = debugfs_create_dir(name, root);
}

/**
 * sim_debugfs_exit() - remove dcm_sim/body<id>/
 * @sim: the body
 */
void sim_debugfs_exit(struct dcm_sim *sim)
{
	debugfs_remove_recursive(sim->debugfs);
	sim->debugfs = NULL;
}

/**
 * sim_debugfs_dir() - a directory of dcm_sim/, made by the first who asks
 * @sim: the body
 * @name: its name ("head", "rs485-1")
 *
 * Several files share a directory: the RS485 bus and the motor boards
 * rs485-N/, the boards of the head family head/.
 *
 * Return: the directory (an error pointer if debugfs has none).
 */
struct dentry *sim_debugfs_dir(struct dcm_sim *sim, const char *name)
{
	struct dentry *d = debugfs_lookup(name, sim->debugfs);

	if (!d)
		return debugfs_create_dir(name, sim->debugfs);
	/* debugfs keeps the directory until dcm_sim/ goes. */
	dput(d);
	return d;
}

static int sim_knob_get(void *data, u64 *val)
{
	struct sim_knob *k = data;

	mutex_lock(&k->sim->lock);
	*val = (u64)(s64)(*k->v / k->scale);
	mutex_unlock(&k->sim->lock);
	return 0;
}

static int sim_knob_set(void *data, u64 val)
{
	struct sim_knob *k = data;
	s64 v = (s64)val;

	if (v < k->min || v > k->max)
		return -ERANGE;
	mutex_lock(&k->sim->lock);
	*k->v = (s32)v * k->scale;
	mutex_unlock(&k->sim->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(sim_knob_fops, sim_knob_get, sim_knob_set, "%lld\n");

/**
 * sim_debugfs_signed() - a signed knob, read and written under the body's
 *	lock
 * @k: its description, which the caller keeps as long as the file
 * @sim: the body
 * @name: the file's name
 * @dir: its directory
 * @v: the value
 * @scale: what one unit of the file is in @v
 * @min: the least value the file takes, in its units
 * @max: the greatest; min * scale and max * scale fit in s32
 *
 * A value outside @min..@max is refused: -ERANGE.
 */
void sim_debugfs_signed(struct sim_knob *k, struct dcm_sim *sim, const char *name,
			struct dentry *dir, s32 *v, s32 scale, s32 min, s32 max)
{
	k->sim = sim;
	k->v = v;
	k->scale = scale;
	k->min = max_t(s32, min, S32_MIN / scale);
	k->max = min_t(s32, max, S32_MAX / scale);
	debugfs_create_file_unsafe(name, 0644, dir, k, &sim_knob_fops);
}

/**
 * struct sim_uknob - an unsigned debugfs knob (sim_debugfs_u32())
 * @v: the value, read and written whole (READ_ONCE(), WRITE_ONCE())
 * @max: the greatest value it takes
 */
struct sim_uknob {
	u32 *v;
	u32 max;
};

static int sim_uknob_get(void *data, u64 *val)
{
	struct sim_uknob *k = data;

	*val = READ_ONCE(*k->v);
	return 0;
}

static int sim_uknob_set(void *data, u64 val)
{
	struct sim_uknob *k = data;

	if (val > k->max)
		return -ERANGE;
	WRITE_ONCE(*k->v, val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_uknob_fops, sim_uknob_get, sim_uknob_set, "%llu\n");
DEFINE_DEBUGFS_ATTRIBUTE(sim_uknob_x_fops, sim_uknob_get, sim_uknob_set, "0x%08llx\n");

/**
 * sim_debugfs_u32() - an unsigned knob with a range, read and written in
 *	decimal or, for a bitmask, hex (both take 0x... and decimal)
 * @sim: the body, whose device keeps the knob's description
 * @name: the file's name
 * @dir: its directory
 * @v: the value, which the caller keeps as long as the file
 * @max: the greatest value the file takes (the least is 0)
 * @hex: read as "0x%08x" (a bitmask), else as a decimal number
 *
 * A number above @max is refused with -ERANGE (beyond 64 bits too),
 * anything but a number with -EINVAL: no value is cut to 32 bits.
 */
void sim_debugfs_u32(struct dcm_sim *sim, const char *name, struct dentry *dir, u32 *v, u32 max,
		     bool hex)
{
	struct sim_uknob *k = devm_kzalloc(sim->dev, sizeof(*k), GFP_KERNEL);

	if (!k)
		return;
	k->v = v;
	k->max = max;
	debugfs_create_file_unsafe(name, 0644, dir, k, hex ? &sim_uknob_x_fops : &sim_uknob_fops);
}

static ssize_t sim_bool_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	bool *v = file->private_data;
	char buf[3] = { READ_ONCE(*v) ? 'Y' : 'N', '\n', '\0' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t sim_bool_write(struct file *file, const char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	bool *v = file->private_data;
	bool b;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &b);
	if (ret)
		return ret;
	WRITE_ONCE(*v, b);
	return count;
}

static const struct file_operations sim_bool_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sim_bool_read,
	.write = sim_bool_write,
	.llseek = default_llseek,
};

/**
 * sim_debugfs_bool() - a Y/N knob that refuses anything else
 * @name: the file's name
 * @dir: its directory
 * @v: the value, which the caller keeps as long as the file
 *
 * Reads Y or N; takes what kstrtobool() takes (Y, N, 1, 0, on, off) and
 * refuses the rest with -EINVAL, where debugfs_create_bool() ignores it.
 */
void sim_debugfs_bool(const char *name, struct dentry *dir, bool *v)
{
	debugfs_create_file(name, 0644, dir, v, &sim_bool_fops);
}

/**
 * sim_debugfs_levels() - LED levels, as a line of numbers
 * @m: the file
 * @level: the levels
 * @n: how many
 */
void sim_debugfs_levels(struct seq_file *m, const u8 *level, int n)
{
	int i;

	for (i = 0; i < n; i++)
		seq_printf(m, "%s%u", i ? " " : "", level[i]);
	seq_putc(m, '\n');
}

/**
 * sim_debugfs_get_string() - a short word written to a knob, whole
 * @ubuf: what user space writes
 * @count: its length
 * @ppos: the file position, 0
 * @buf: the word, NUL-terminated
 * @size: @buf's size
 *
 * Return: 0, -EINVAL for a write not at 0 or too long, -EFAULT.
 */
int sim_debugfs_get_string(const char __user *ubuf, size_t count, loff_t *ppos, char *buf,
			   size_t size)
{
	if (*ppos || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	return 0;
}
