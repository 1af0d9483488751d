// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the knobs of the simulated body, in debugfs dcm_sim/: the world
 * it senses (weight, tilt, obstacles, touches), the faults it injects, and
 * read-only views of what its boards hold (LED levels, FSR readings, sonar
 * state). Documentation/dcm/simulator.rst lists them all.
 *
 * No handler holds the body's lock across a copy from or to user space: a
 * cycle waiting for a board never waits for a user's page fault.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sim_body.h"

/* ---- signed knobs: data is a struct sim_knob ---- */

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

	if (v < S32_MIN / k->scale || v > S32_MAX / k->scale)
		return -ERANGE;
	mutex_lock(&k->sim->lock);
	*k->v = (s32)v * k->scale;
	mutex_unlock(&k->sim->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(sim_knob_fops, sim_knob_get, sim_knob_set, "%lld\n");

static void sim_knob(struct dcm_sim *sim, int *n, const char *name, struct dentry *dir, s32 *v,
		     s32 scale)
{
	struct sim_knob *k;

	if (WARN_ON(*n >= SIM_KNOBS))
		return;
	k = &sim->knob[(*n)++];
	k->sim = sim;
	k->v = v;
	k->scale = scale;
	debugfs_create_file_unsafe(name, 0644, dir, k, &sim_knob_fops);
}

/* ---- sonar: echo lists, in cm ---- */

static u8 *sim_echo_list(struct file *file)
{
	struct dcm_sim *sim = file->f_inode->i_private;

	return strcmp(file->f_path.dentry->d_name.name, "right") ? sim->us_left : sim->us_right;
}

static ssize_t sim_echoes_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct dcm_sim *sim = file->f_inode->i_private;
	u8 e[DCM_US_ECHOES];
	char buf[DCM_US_ECHOES * 4 + 2];
	int i, len = 0;

	mutex_lock(&sim->lock);
	memcpy(e, sim_echo_list(file), sizeof(e));
	mutex_unlock(&sim->lock);
	for (i = 0; i < DCM_US_ECHOES && e[i] != DCM_US_NO_ECHO; i++)
		len += scnprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "", e[i]);
	len += scnprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t sim_echoes_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct dcm_sim *sim = file->f_inode->i_private;
	u8 e[DCM_US_ECHOES];
	char buf[64];
	int ret;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = sim_us_parse_echoes(buf, e);
	if (ret < 0)
		return ret;
	mutex_lock(&sim->lock);
	memcpy(sim_echo_list(file), e, sizeof(e));
	mutex_unlock(&sim->lock);
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
	struct dcm_sim *sim = m->private;
	struct sim_us us;

	mutex_lock(&sim->lock);
	us = sim->us;
	mutex_unlock(&sim->lock);
	seq_printf(m, "mode %u status %u counter %u captures %u\n", us.mode, us.regs.status,
		   us.regs.counter, us.captures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_sonar_state);

/* ---- feet ---- */

static const char *const sim_stances[] = {
	[0] = "none",
	[SIM_STANCE_LEFT] = "left",
	[SIM_STANCE_RIGHT] = "right",
	[SIM_STANCE_BOTH] = "both",
};

static ssize_t sim_stance_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct dcm_sim *sim = file->private_data;
	char buf[8];
	int len;

	len = scnprintf(buf, sizeof(buf), "%s\n",
			sim_stances[READ_ONCE(sim->stance) & SIM_STANCE_BOTH]);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t sim_stance_write(struct file *file, const char __user *ubuf, size_t count,
				loff_t *ppos)
{
	struct dcm_sim *sim = file->private_data;
	char buf[8];
	int i;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	i = sysfs_match_string(sim_stances, buf);
	if (i < 0)
		return i;
	WRITE_ONCE(sim->stance, i);
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

/* ---- what the register-map boards hold ---- */

static void sim_levels(struct seq_file *m, const u8 *level, int n)
{
	int i;

	for (i = 0; i < n; i++)
		seq_printf(m, "%s%u", i ? " " : "", level[i]);
	seq_putc(m, '\n');
}

static int sim_face_leds_show(struct seq_file *m, void *v)
{
	struct dcm_sim *sim = m->private;
	u8 level[DCM_FACE_N];

	mutex_lock(&sim->lock);
	dcm_face_get(&sim->face.reg[DCM_FACE_LEDS], level);
	mutex_unlock(&sim->lock);
	sim_levels(m, level, DCM_FACE_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_face_leds);

static int sim_ear_leds_show(struct seq_file *m, void *v)
{
	struct dcm_sim *sim = m->private;
	u8 level[DCM_EAR_N];

	mutex_lock(&sim->lock);
	dcm_led4_get(&sim->ears.reg[DCM_EAR_LEDS], level, DCM_EAR_N);
	mutex_unlock(&sim->lock);
	sim_levels(m, level, DCM_EAR_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_ear_leds);

static int sim_touch_leds_show(struct seq_file *m, void *v)
{
	struct dcm_sim *sim = m->private;
	u8 level[DCM_TOUCH_N];

	mutex_lock(&sim->lock);
	dcm_led4_get(&sim->touch.reg[DCM_TOUCH_LEDS], level, DCM_TOUCH_N);
	mutex_unlock(&sim->lock);
	sim_levels(m, level, DCM_TOUCH_N);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_touch_leds);

static int sim_chest_leds_show(struct seq_file *m, void *v)
{
	struct dcm_sim *sim = m->private;
	u8 level[DCM_CHEST_OUT_LEN];

	mutex_lock(&sim->lock);
	memcpy(level, &sim->chest.reg[DCM_CHEST_OUT_REG], sizeof(level));
	mutex_unlock(&sim->lock);
	sim_levels(m, level, DCM_CHEST_OUT_LEN);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_chest_leds);

static int sim_cpu_temp_show(struct seq_file *m, void *v)
{
	struct dcm_sim *sim = m->private;
	s32 t;

	mutex_lock(&sim->lock);
	t = sim->cpu.temp_mc;
	mutex_unlock(&sim->lock);
	seq_printf(m, "%d\n", t);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_cpu_temp);

/* ---- the chest board's store: 1 KiB, the file that keeps it ---- */

static ssize_t sim_store_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct dcm_sim *sim = file->private_data;
	ssize_t ret;
	u8 *copy;

	copy = kmalloc(SIM_CHEST_STORE_LEN, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	mutex_lock(&sim->lock);
	memcpy(copy, sim->store.ee, SIM_CHEST_STORE_LEN);
	mutex_unlock(&sim->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, copy, SIM_CHEST_STORE_LEN);
	kfree(copy);
	return ret;
}

static ssize_t sim_store_write(struct file *file, const char __user *ubuf, size_t count,
			       loff_t *ppos)
{
	struct dcm_sim *sim = file->private_data;
	loff_t pos = *ppos;
	u8 *copy;

	if (pos < 0 || pos >= SIM_CHEST_STORE_LEN)
		return count ? -ENOSPC : 0;
	count = min_t(size_t, count, SIM_CHEST_STORE_LEN - pos);
	copy = memdup_user(ubuf, count);
	if (IS_ERR(copy))
		return PTR_ERR(copy);
	mutex_lock(&sim->lock);
	memcpy(sim->store.ee + pos, copy, count);
	mutex_unlock(&sim->lock);
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

/* ---- joints: where they are, their stops, their MRE ---- */

static struct sim_mb *sim_joint_board(struct sim_joint_knob *k)
{
	return &k->sim->rs485[k->joint->bus].board[k->joint->bid - 1];
}

/* An outside force puts the joint there at its board's next cycle. */
static void sim_joint_place(struct sim_joint_knob *k, s32 urad)
{
	struct sim_mb *mb = sim_joint_board(k);

	WRITE_ONCE(mb->place_urad[k->joint->motor], urad);
	/* The angle before the flag: pairs with the xchg() of sim_mb_cycle(). */
	smp_store_release(&mb->place[k->joint->motor], 1);
}

static int sim_joint_pos_get(void *data, u64 *val)
{
	struct sim_joint_knob *k = data;

	*val = (u64)(s64)(READ_ONCE(sim_joint_board(k)->motor[k->joint->motor].pos_urad) / 1000);
	return 0;
}

static int sim_joint_pos_set(void *data, u64 val)
{
	s64 v = (s64)val;

	if (v < S32_MIN / 1000 || v > S32_MAX / 1000)
		return -ERANGE;
	sim_joint_place(data, (s32)v * 1000);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(sim_joint_pos_fops, sim_joint_pos_get, sim_joint_pos_set,
				"%lld\n");

static ssize_t sim_joint_push_write(struct file *file, const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	static const char *const stops[] = { "min", "max" };
	struct sim_joint_knob *k = file->private_data;
	char buf[8];
	int i;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	i = sysfs_match_string(stops, buf);
	if (i < 0)
		return i;
	sim_joint_place(k, i ? k->joint->max_urad : k->joint->min_urad);
	*ppos += count;
	return count;
}

static const struct file_operations sim_joint_push_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_joint_push_write,
	.llseek = default_llseek,
};

static int sim_joint_mre_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;
	struct sim_mb *mb = sim_joint_board(k);

	seq_printf(m, "%u\n", sim_mre_count(mb->true_zero[k->joint->motor],
					    READ_ONCE(mb->motor[k->joint->motor].pos_urad)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_mre);

static int sim_joint_true_zero_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;

	seq_printf(m, "%u\n", k->joint->true_zero);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_true_zero);

static int sim_joint_stops_show(struct seq_file *m, void *v)
{
	struct sim_joint_knob *k = m->private;

	seq_printf(m, "%d %d\n", k->joint->min_urad, k->joint->max_urad);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_joint_stops);

static void sim_debugfs_joints(struct dcm_sim *sim)
{
	struct dentry *d, *sub;
	int i;

	d = debugfs_create_dir("joints", sim->debugfs);
	for (i = 0; i < SIM_JOINTS; i++) {
		struct sim_joint_knob *k = &sim->joint_knob[i];

		k->sim = sim;
		k->joint = &sim_joints[i];
		sub = debugfs_create_dir(k->joint->name, d);
		debugfs_create_file_unsafe("position_mrad", 0644, sub, k, &sim_joint_pos_fops);
		debugfs_create_file("push", 0200, sub, k, &sim_joint_push_fops);
		debugfs_create_file("mre", 0444, sub, k, &sim_joint_mre_fops);
		debugfs_create_file("true_zero", 0444, sub, k, &sim_joint_true_zero_fops);
		debugfs_create_file("stops_urad", 0444, sub, k, &sim_joint_stops_fops);
	}
}

/**
 * sim_debugfs_init() - dcm_sim/ and its knobs
 * @sim: the body
 */
void sim_debugfs_init(struct dcm_sim *sim)
{
	static const char *const feet[] = { "lfoot", "rfoot" };
	static const char *const hands[] = { "lhand", "rhand" };
	static const char *const axes[] = { "x", "y", "z" };
	struct dentry *d, *sub;
	char name[16];
	int b, i, n = 0;

	sim->debugfs = debugfs_create_dir(DCM_SIM_NAME, NULL);
	debugfs_create_bool("button", 0644, sim->debugfs, &sim->button);
	debugfs_create_bool("charging", 0644, sim->debugfs, &sim->charging);
	debugfs_create_u32("load_ma", 0644, sim->debugfs, &sim->load_ma);
	for (b = 0; b < SIM_RS485_BUSES; b++) {
		snprintf(name, sizeof(name), "rs485-%d", b + 1);
		d = debugfs_create_dir(name, sim->debugfs);
		debugfs_create_x32("silent", 0644, d, &sim->rs485[b].silent);
		debugfs_create_x32("mre_fault", 0644, d, &sim->rs485[b].mre_fault);
		debugfs_create_x32("hot", 0644, d, &sim->rs485[b].hot);
		debugfs_create_u32("hot_mc", 0644, d, &sim->rs485[b].hot_mc);
		debugfs_create_u32("crc_ppm", 0644, d, &sim->rs485[b].crc_ppm);
		debugfs_create_x32("configured", 0444, d, &sim->rs485[b].configured);
		debugfs_create_u32("configs", 0444, d, &sim->rs485[b].configs);
		debugfs_create_u32("delay_us", 0644, d, &sim->rs485[b].delay_us);
	}

	d = debugfs_create_dir("chest", sim->debugfs);
	debugfs_create_file("leds", 0444, d, sim, &sim_chest_leds_fops);
	debugfs_create_file_size("store", 0600, d, sim, &sim_store_fops, SIM_CHEST_STORE_LEN);
	debugfs_create_u32("store_cut", 0644, d, &sim->store.cut);
	debugfs_create_u32("commits", 0444, d, &sim->store.commits);

	d = debugfs_create_dir("imu", sim->debugfs);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "angle_%s", axes[i]);
		sim_knob(sim, &n, name, d, &sim->imu.angle_urad[i], 1000);
		snprintf(name, sizeof(name), "rate_%s", axes[i]);
		sim_knob(sim, &n, name, d, &sim->imu.rate_urad_s[i], 1000);
	}
	debugfs_create_bool("silent", 0644, d, &sim->imu_silent);

	d = debugfs_create_dir("sonar", sim->debugfs);
	debugfs_create_file("left", 0644, d, sim, &sim_echoes_fops);
	debugfs_create_file("right", 0644, d, sim, &sim_echoes_fops);
	debugfs_create_file("state", 0444, d, sim, &sim_sonar_state_fops);

	d = debugfs_create_dir("feet", sim->debugfs);
	debugfs_create_file("stance", 0644, d, sim, &sim_stance_fops);
	debugfs_create_u32("weight_g", 0644, d, &sim->weight_g);
	sim_knob(sim, &n, "cop_x_mm", d, &sim->cop_x_mm, 1);
	sim_knob(sim, &n, "cop_y_mm", d, &sim->cop_y_mm, 1);
	for (i = 0; i < 2; i++) {
		sub = debugfs_create_dir(feet[i], d);
		debugfs_create_x32("bumpers", 0644, sub, &sim->foot[i].bumpers);
		debugfs_create_file("load_g", 0444, sub, &sim->foot[i], &sim_foot_load_fops);
		debugfs_create_file("fsr", 0444, sub, &sim->foot[i], &sim_foot_fsr_fops);
		debugfs_create_file("led", 0444, sub, &sim->foot[i], &sim_foot_led_fops);
	}

	d = debugfs_create_dir("hands", sim->debugfs);
	for (i = 0; i < 2; i++) {
		sub = debugfs_create_dir(hands[i], d);
		debugfs_create_x32("touch", 0644, sub, &sim->hand_touch[i]);
	}

	d = debugfs_create_dir("head", sim->debugfs);
	debugfs_create_x32("touch", 0644, d, &sim->head_touch);
	debugfs_create_u32("cpu_load", 0644, d, &sim->cpu_load);
	debugfs_create_file("cpu_temp_mc", 0444, d, sim, &sim_cpu_temp_fops);
	debugfs_create_file("face_leds", 0444, d, sim, &sim_face_leds_fops);
	debugfs_create_file("ear_leds", 0444, d, sim, &sim_ear_leds_fops);
	debugfs_create_file("touch_leds", 0444, d, sim, &sim_touch_leds_fops);

	sim_debugfs_joints(sim);
}

/**
 * sim_debugfs_exit() - remove dcm_sim/
 * @sim: the body
 */
void sim_debugfs_exit(struct dcm_sim *sim)
{
	debugfs_remove_recursive(sim->debugfs);
}
