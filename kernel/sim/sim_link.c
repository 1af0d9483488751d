// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the physics link of a simulated body: /dev/dcm_sim_body<N>
 * (include/uapi/linux/dcm_sim.h, Documentation/dcm/simulator.rst).
 *
 * A process in user space that steps a rigid-body model of the robot
 * (dcm-physics) opens the body's device, reads each cycle's motor commands
 * and writes back the body's state after the physics stepped them. The
 * link keeps two tables under a spinlock: the commands the motor boards
 * recorded since the last tick, and the last state written. Each cyclic
 * broadcast of RS485-1 is a tick: the commands gathered so far become the
 * frame readers get, and a state that has not come for the tick before is
 * counted missed. From the first state written until the file is closed
 * the link is attached: the motor boards (but for the hands), the foot
 * boards and the inertial board read from the state instead of their own
 * models, which take over again at close from where the link left them.
 *
 * The cycle's side (sim_link_tick(), sim_link_motor(), sim_link_joint(),
 * sim_link_fsr(), sim_link_imu()) takes the spinlock for a copy only: it
 * neither sleeps nor allocates. The link outlives its body while its file
 * is open (a reference each): a reader of a body gone gets -ENODEV.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "sim_body.h"
#include "sim_link.h"

/**
 * struct sim_link - a body's physics link
 * @ref: the body's reference and the open file's
 * @misc: /dev/dcm_sim_body<id>
 * @name: its name
 * @registered: @misc is registered
 * @debugfs: the debugfs file "link"
 * @lock: everything below
 * @wq: readers waiting for a tick
 * @open: the device is open (one opener at a time)
 * @gone: the body was removed: readers and writers get -ENODEV
 * @attached: a state was written since the device was opened
 * @joint: the commands the motor boards recorded since the last tick
 * @frame: the last tick's frame, what read() returns
 * @last_tick: when it was published
 * @read_seq: the last frame read
 * @first_seq: the first frame read since the device was opened
 * @has_read: a frame was read since the device was opened
 * @state_seq: the seq of the last state written
 * @ticks: ticks since the body was built
 * @states: states taken since the device was opened
 * @state: the last state written
 */
struct sim_link {
	struct kref ref;
	struct miscdevice misc;
	char name[24];
	bool registered;
	struct dentry *debugfs;

	spinlock_t lock;	/* the tables, the counters, the flags */
	wait_queue_head_t wq;
	bool open, gone, attached, has_read;
	struct dcm_sim_joint_cmd joint[DCM_SIM_JOINTS];
	struct dcm_sim_cmd frame;
	ktime_t last_tick;
	u32 read_seq, first_seq, state_seq;
	u64 ticks, states;
	struct dcm_sim_state state;
};

static void sim_link_free(struct kref *ref)
{
	kfree(container_of(ref, struct sim_link, ref));
}

/**
 * sim_link_tick() - a cyclic broadcast of RS485-1: publish the commands
 *	gathered so far as the next frame
 * @sim: the body
 *
 * The frame's dt_us is the time since the previous tick. While attached, a
 * tick whose state has not come by now is counted missed. Wakes the reader.
 * Context: the bus's cycle, before the boards' slots; does not sleep.
 */
void sim_link_tick(struct dcm_sim *sim)
{
	struct sim_link *l = sim->link;
	ktime_t now = ktime_get();
	s64 dt;

	if (!l)
		return;
	spin_lock(&l->lock);
	dt = ktime_us_delta(now, l->last_tick);
	l->last_tick = now;
	if (l->attached && l->state_seq != l->frame.seq)
		l->frame.missed++;
	l->frame.seq++;
	l->frame.dt_us = (u32)clamp_t(s64, dt, 0, U32_MAX);
	memcpy(l->frame.joint, l->joint, sizeof(l->frame.joint));
	l->ticks++;
	spin_unlock(&l->lock);
	wake_up_interruptible(&l->wq);
}

/**
 * sim_link_motor() - a motor board records what one of its joints was told
 * @sim: the body
 * @joint: the joint, enum dcm_sim_joint
 * @cmd: its command, current limit, position and flags
 *
 * Context: the motor board's cycle; does not sleep.
 */
void sim_link_motor(struct dcm_sim *sim, unsigned int joint, const struct dcm_sim_joint_cmd *cmd)
{
	struct sim_link *l = sim->link;

	if (!l || joint >= DCM_SIM_JOINTS)
		return;
	spin_lock(&l->lock);
	l->joint[joint] = *cmd;
	spin_unlock(&l->lock);
}

/**
 * sim_link_joint() - where the attached model has a joint
 * @sim: the body
 * @joint: the joint, enum dcm_sim_joint
 * @pos_urad: its angle, set when attached
 * @current_ma: its motor's current, set when attached
 *
 * Context: the motor board's cycle; does not sleep.
 * Return: true when attached (@pos_urad and @current_ma set), false when
 * the body's own model moves the joint.
 */
bool sim_link_joint(struct dcm_sim *sim, unsigned int joint, s32 *pos_urad, s32 *current_ma)
{
	struct sim_link *l = sim->link;
	bool attached;

	if (!l || joint >= DCM_SIM_JOINTS)
		return false;
	spin_lock(&l->lock);
	attached = l->attached;
	if (attached) {
		*pos_urad = l->state.pos_urad[joint];
		*current_ma = l->state.current_ma[joint];
	}
	spin_unlock(&l->lock);
	return attached;
}

/**
 * sim_link_fsr() - what the attached model puts on a foot's FSRs
 * @sim: the body
 * @side: 0 the left foot, 1 the right
 * @w_g: FrontLeft, FrontRight, RearLeft, RearRight, grams; set when
 *	attached
 *
 * Context: the foot board's cycle; does not sleep.
 * Return: true when attached, false when the feet's own model loads them.
 */
bool sim_link_fsr(struct dcm_sim *sim, unsigned int side, u32 *w_g)
{
	struct sim_link *l = sim->link;
	bool attached;

	if (!l || side >= DCM_SIM_FEET)
		return false;
	spin_lock(&l->lock);
	attached = l->attached;
	if (attached)
		memcpy(w_g, l->state.fsr_g[side], sizeof(l->state.fsr_g[side]));
	spin_unlock(&l->lock);
	return attached;
}

/**
 * sim_link_imu() - what the attached model gives the inertial board
 * @sim: the body
 * @angle_urad: the torso's angles about X, Y, Z; set when attached
 * @rate_urad_s: its rotation speeds
 * @acc_ug: what the accelerometer reads, micro-g
 *
 * Context: the inertial board's transfer; does not sleep.
 * Return: true when attached, false when the board's own model runs.
 */
bool sim_link_imu(struct dcm_sim *sim, s32 *angle_urad, s32 *rate_urad_s, s32 *acc_ug)
{
	struct sim_link *l = sim->link;
	bool attached;

	if (!l)
		return false;
	spin_lock(&l->lock);
	attached = l->attached;
	if (attached) {
		memcpy(angle_urad, l->state.angle_urad, sizeof(l->state.angle_urad));
		memcpy(rate_urad_s, l->state.rate_urad_s, sizeof(l->state.rate_urad_s));
		memcpy(acc_ug, l->state.acc_ug, sizeof(l->state.acc_ug));
	}
	spin_unlock(&l->lock);
	return attached;
}

/* ---- the device ---- */

static struct sim_link *sim_link_of(struct file *file)
{
	return container_of(file->private_data, struct sim_link, misc);
}

static int sim_link_open(struct inode *inode, struct file *file)
{
	struct sim_link *l = sim_link_of(file);
	int ret = 0;

	spin_lock(&l->lock);
	if (l->gone) {
		ret = -ENODEV;
	} else if (l->open) {
		ret = -EBUSY;
	} else {
		l->open = true;
		l->attached = false;
		l->frame.missed = 0;
		l->read_seq = l->frame.seq;
		l->has_read = false;
		l->states = 0;
		kref_get(&l->ref);
	}
	spin_unlock(&l->lock);
	if (ret)
		return ret;
	return stream_open(inode, file);
}

/* Closed: the body's own models take over from where the link left them. */
static int sim_link_release(struct inode *inode, struct file *file)
{
	struct sim_link *l = sim_link_of(file);

	spin_lock(&l->lock);
	l->open = false;
	l->attached = false;
	spin_unlock(&l->lock);
	kref_put(&l->ref, sim_link_free);
	return 0;
}

/* A frame newer than the last read, or the body gone. */
static bool sim_link_readable(struct sim_link *l)
{
	bool ret;

	spin_lock(&l->lock);
	ret = l->gone || l->frame.seq != l->read_seq;
	spin_unlock(&l->lock);
	return ret;
}

static ssize_t sim_link_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct sim_link *l = sim_link_of(file);
	struct dcm_sim_cmd frame;
	int ret;

	if (count < sizeof(frame))
		return -EINVAL;
	for (;;) {
		spin_lock(&l->lock);
		if (l->gone) {
			spin_unlock(&l->lock);
			return -ENODEV;
		}
		if (l->frame.seq != l->read_seq) {
			frame = l->frame;
			l->read_seq = frame.seq;
			if (!l->has_read)
				l->first_seq = frame.seq;
			l->has_read = true;
			spin_unlock(&l->lock);
			break;
		}
		spin_unlock(&l->lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(l->wq, sim_link_readable(l));
		if (ret)
			return ret;
	}
	if (copy_to_user(ubuf, &frame, sizeof(frame)))
		return -EFAULT;
	return sizeof(frame);
}

/* Each value of a state within its range (dcm_sim.h): 0, -EINVAL, -ERANGE. */
static int sim_link_check(const struct dcm_sim_state *s)
{
	int i, j;

	if (s->magic != DCM_SIM_LINK_MAGIC || s->flags)
		return -EINVAL;
	for (i = 0; i < DCM_SIM_JOINTS; i++) {
		if (s->pos_urad[i] < -DCM_SIM_POS_MAX_URAD || s->pos_urad[i] > DCM_SIM_POS_MAX_URAD)
			return -ERANGE;
		if (s->current_ma[i] < 0 || s->current_ma[i] > DCM_SIM_CURRENT_MAX_MA)
			return -ERANGE;
	}
	for (i = 0; i < DCM_SIM_FEET; i++)
		for (j = 0; j < DCM_SIM_FOOT_FSRS; j++)
			if (s->fsr_g[i][j] > DCM_SIM_FSR_MAX_G)
				return -ERANGE;
	for (i = 0; i < 3; i++) {
		if (s->angle_urad[i] < -DCM_SIM_ANGLE_MAX_URAD ||
		    s->angle_urad[i] > DCM_SIM_ANGLE_MAX_URAD ||
		    s->rate_urad_s[i] < -DCM_SIM_RATE_MAX_URAD_S ||
		    s->rate_urad_s[i] > DCM_SIM_RATE_MAX_URAD_S ||
		    s->acc_ug[i] < -DCM_SIM_ACC_MAX_UG || s->acc_ug[i] > DCM_SIM_ACC_MAX_UG)
			return -ERANGE;
	}
	return 0;
}

/*
 * Does @seq answer a tick this opener was sent, not older than the last
 * state taken? Ticks are numbered modulo 2^32.
 */
static bool sim_link_seq_ok(const struct sim_link *l, u32 seq)
{
	if (!l->has_read || (s32)(seq - l->first_seq) < 0 || (s32)(l->read_seq - seq) < 0)
		return false;
	return !l->attached || (s32)(seq - l->state_seq) >= 0;
}

/* A state, whole and checked, or nothing of it. */
static ssize_t sim_link_write(struct file *file, const char __user *ubuf, size_t count,
			      loff_t *ppos)
{
	struct sim_link *l = sim_link_of(file);
	struct dcm_sim_state s;
	int ret;

	if (count != sizeof(s))
		return -EINVAL;
	if (copy_from_user(&s, ubuf, sizeof(s)))
		return -EFAULT;
	ret = sim_link_check(&s);
	if (ret)
		return ret;
	spin_lock(&l->lock);
	if (l->gone) {
		spin_unlock(&l->lock);
		return -ENODEV;
	}
	if (!sim_link_seq_ok(l, s.seq)) {
		spin_unlock(&l->lock);
		return -EINVAL;
	}
	l->state = s;
	l->state_seq = s.seq;
	l->attached = true;
	l->states++;
	spin_unlock(&l->lock);
	return sizeof(s);
}

static __poll_t sim_link_poll(struct file *file, poll_table *wait)
{
	struct sim_link *l = sim_link_of(file);
	__poll_t mask = 0;

	poll_wait(file, &l->wq, wait);
	spin_lock(&l->lock);
	if (l->gone)
		mask = EPOLLHUP | EPOLLERR;
	else if (l->frame.seq != l->read_seq)
		mask = EPOLLIN | EPOLLRDNORM;
	if (!l->gone)
		mask |= EPOLLOUT | EPOLLWRNORM;
	spin_unlock(&l->lock);
	return mask;
}

static const struct file_operations sim_link_dev_fops = {
	.owner = THIS_MODULE,
	.open = sim_link_open,
	.release = sim_link_release,
	.read = sim_link_read,
	.write = sim_link_write,
	.poll = sim_link_poll,
	.llseek = no_llseek,
};

/* debugfs link: whether a model is attached, the ticks, the missed ones. */
static int sim_link_state_show(struct seq_file *m, void *v)
{
	struct sim_link *l = m->private;
	bool open, attached;
	u64 ticks, states;
	u32 missed, seq;

	spin_lock(&l->lock);
	open = l->open;
	attached = l->attached;
	ticks = l->ticks;
	states = l->states;
	missed = l->frame.missed;
	seq = l->state_seq;
	spin_unlock(&l->lock);
	seq_printf(m, "open %d\nattached %d\nticks %llu\nstates %llu\nmissed %u\nlast_seq %u\n",
		   open, attached, ticks, states, missed, seq);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_link_state);

/**
 * sim_link_add() - the body's physics link: /dev/dcm_sim_body<id>, root's
 *	only (0600), and debugfs link
 * @sim: the body, its debugfs directory made
 * @dev: its device
 *
 * Called at probe, before the buses, whose cycles call into the link.
 *
 * Return: 0 or a negative errno.
 */
int sim_link_add(struct dcm_sim *sim, struct device *dev)
{
	struct sim_link *l;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	kref_init(&l->ref);
	spin_lock_init(&l->lock);
	init_waitqueue_head(&l->wq);
	l->frame.magic = DCM_SIM_LINK_MAGIC;
	l->last_tick = ktime_get();
	snprintf(l->name, sizeof(l->name), "dcm_sim_body%d", sim->id);
	l->misc.minor = MISC_DYNAMIC_MINOR;
	l->misc.name = l->name;
	l->misc.fops = &sim_link_dev_fops;
	l->misc.mode = 0600;
	l->misc.parent = dev;
	ret = misc_register(&l->misc);
	if (ret) {
		kfree(l);
		return ret;
	}
	l->registered = true;
	l->debugfs = debugfs_create_file("link", 0444, sim->debugfs, l, &sim_link_state_fops);
	sim->link = l;
	return 0;
}

/**
 * sim_link_remove() - the body goes: its device is removed, a reader
 *	waiting is woken (-ENODEV)
 * @sim: the body, its buses removed (nothing in the cycle calls the link),
 *	its debugfs directory not yet
 */
void sim_link_remove(struct dcm_sim *sim)
{
	struct sim_link *l = sim->link;

	if (!l)
		return;
	sim->link = NULL;
	debugfs_remove(l->debugfs);
	if (l->registered)
		misc_deregister(&l->misc);
	spin_lock(&l->lock);
	l->gone = true;
	l->attached = false;
	spin_unlock(&l->lock);
	wake_up_interruptible(&l->wq);
	kref_put(&l->ref, sim_link_free);
}
