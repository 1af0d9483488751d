// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the character device /dev/dcmN and its ioctls.
 */

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "core/dcm_internal.h"
#include "core/dcm_runtime.h"

/**
 * struct dcm_file - an open /dev/dcmN
 * @ctrl: its controller, held
 * @last_cycle: the cycle its last read() returned
 * @wd: the actuators it commanded, and its watchdog
 */
struct dcm_file {
	struct dcm_controller *ctrl;
	u64 last_cycle;
	struct dcm_watchdog wd;
};

static dev_t dcm_devt;

/**
 * dcm_chrdev_devt() - device number of /dev/dcmN
 * @index: N
 *
 * Return: the dev_t for that controller index.
 */
dev_t dcm_chrdev_devt(int index)
{
	return MKDEV(MAJOR(dcm_devt), MINOR(dcm_devt) + index);
}

static int dcm_open(struct inode *inode, struct file *file)
{
	struct dcm_controller *ctrl = container_of(inode->i_cdev, struct dcm_controller, cdev);
	struct dcm_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	get_device(&ctrl->dev);
	f->ctrl = ctrl;
	f->last_cycle = READ_ONCE(ctrl->cycle);
	dcm_watchdog_init(&f->wd, ctrl);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

/*
 * A client that goes away takes nothing with it: the commands it queued
 * stay queued and the cycle goes on, unless it armed a watchdog, whose
 * action runs now (Documentation/userspace-api/dcm.rst).
 */
static int dcm_release(struct inode *inode, struct file *file)
{
	struct dcm_file *f = file->private_data;

	dcm_watchdog_release(&f->wd);
	put_device(&f->ctrl->dev);
	kfree(f);
	return 0;
}

/*
 * An ioctl in three steps, so that no copy from or to the caller's memory
 * runs under ctrl->lock (DOC: Locking): its input is copied in first, with
 * no dcm lock held; the command runs under the lock, its answer going to
 * kernel memory; the answer is copied out after the lock is dropped. A
 * fault in a copy then waits for the caller's mmap_lock with no dcm lock
 * held, and nothing a reload or mmap() needs waits for it.
 */

/**
 * struct dcm_ioc_data - an ioctl's argument and arrays, in kernel memory
 * @arg: the argument, as the command's struct
 * @pts: SET: the points
 * @handles: GET: the handles; ALIAS_CREATE: the answer
 * @values: GET: the answer
 * @times: GET: the answer
 * @alias: ALIAS_CREATE: the new alias
 * @alias_pts: ALIAS_SET: the points
 */
struct dcm_ioc_data {
	union {
		struct dcm_ioc_version version;
		struct dcm_ioc_info info;
		struct dcm_ioc_lookup lookup;
		struct dcm_ioc_set set;
		struct dcm_ioc_alias_create alias_create;
		struct dcm_ioc_alias_set alias_set;
		struct dcm_ioc_time time;
		struct dcm_ioc_get get;
		struct dcm_ioc_stats stats;
		struct dcm_ioc_cycle_stats cycle_stats;
		struct dcm_ioc_watchdog watchdog;
	} arg;
	struct dcm_point *pts;
	u32 *handles;
	s64 *values;
	u32 *times;
	struct dcm_alias *alias;
	struct dcm_alias_points alias_pts;
};

static void dcm_ioc_data_free(struct dcm_ioc_data *d)
{
	kvfree(d->pts);
	kvfree(d->handles);
	kvfree(d->values);
	kvfree(d->times);
	dcm_alias_free(d->alias);
	dcm_alias_points_free(&d->alias_pts);
}

/* Step 1, no lock held: the arrays a command reads, and room for its answer. */
static long dcm_ioc_fetch(unsigned int cmd, struct dcm_ioc_data *d)
{
	struct dcm_ioc_set *set = &d->arg.set;
	struct dcm_ioc_get *get = &d->arg.get;
	long ret;

	switch (cmd) {
	case DCM_IOC_SET:
		if (set->reserved || set->update > DCM_UPDATE_MAX || set->n_points > DCM_MAX_POINTS)
			return -EINVAL;
		if (!set->n_points)
			return 0;
		d->pts = kvmalloc_array(set->n_points, sizeof(*d->pts), GFP_KERNEL);
		if (!d->pts)
			return -ENOMEM;
		if (copy_from_user(d->pts, u64_to_user_ptr(set->points),
				   array_size(set->n_points, sizeof(*d->pts))))
			return -EFAULT;
		return 0;
	case DCM_IOC_GET:
		if (get->reserved || !get->n || get->n > DCM_MAX_SUBDEVICES)
			return -EINVAL;
		d->handles = kvmalloc_array(get->n, sizeof(*d->handles), GFP_KERNEL);
		d->values = kvmalloc_array(get->n, sizeof(*d->values), GFP_KERNEL);
		d->times = kvmalloc_array(get->n, sizeof(*d->times), GFP_KERNEL);
		if (!d->handles || !d->values || !d->times)
			return -ENOMEM;
		if (copy_from_user(d->handles, u64_to_user_ptr(get->handles),
				   array_size(get->n, sizeof(*d->handles))))
			return -EFAULT;
		return 0;
	case DCM_IOC_ALIAS_CREATE:
		ret = dcm_alias_create_fetch(&d->arg.alias_create, &d->alias);
		if (ret)
			return ret;
		d->handles = kvmalloc_array(d->arg.alias_create.n_members, sizeof(*d->handles),
					    GFP_KERNEL);
		return d->handles ? 0 : -ENOMEM;
	case DCM_IOC_ALIAS_SET:
		return dcm_alias_set_fetch(&d->arg.alias_set, &d->alias_pts);
	}
	return 0;
}

static long dcm_ioctl_lookup(struct dcm_controller *ctrl, struct dcm_ioc_lookup *arg)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 index, flags;
	size_t len;
	u8 target;
	int ret;

	/* Name to handle: with or without the prefix, with or without "/Value". */
	len = strnlen(arg->name, sizeof(arg->name));
	if (!len || len == sizeof(arg->name) || arg->reserved[0] || arg->reserved[1])
		return -EINVAL;
	if (!rt)
		return -ENOENT;
	ret = dcm_model_lookup(rt->model, arg->name, &target, &index);
	if (ret && len > 6 && !strcmp(arg->name + len - 6, "/Value")) {
		arg->name[len - 6] = '\0';
		ret = dcm_model_lookup(rt->model, arg->name, &target, &index);
		arg->name[len - 6] = '/';
	}
	if (ret || target != DCM_TARGET_SUBDEVICE)
		return -ENOENT;
	flags = rt->model->subdevices[index].type->flags;
	arg->handle = (rt->generation << 16) | index;
	arg->flags = (flags & DCM_SUB_ACTUATOR ? DCM_LOOKUP_F_ACTUATOR : 0) |
		     (flags & DCM_SUB_STEP ? DCM_LOOKUP_F_STEP : 0);
	return 0;
}

static long dcm_ioctl_set(struct dcm_controller *ctrl, struct dcm_ioc_data *d,
			  unsigned long *touched)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	struct dcm_ioc_set *arg = &d->arg.set;
	u32 sub;
	long ret;

	if (!rt)
		return -ENOENT;
	ret = dcm_runtime_handle(rt, arg->handle, &sub);
	if (ret)
		return ret;
	if (rt->act_of[sub] < 0)
		return -EINVAL;
	ret = dcm_tc_prepare(d->pts, arg->n_points);
	if (!ret)
		ret = dcm_runtime_set(rt, sub, arg->update, d->pts, arg->n_points);
	if (!ret)
		set_bit(sub, touched);
	return ret;
}

static long dcm_ioctl_get(struct dcm_controller *ctrl, struct dcm_ioc_data *d)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 *all_times = NULL, n = d->arg.get.n, n_sub, i, sub, now;
	s64 *all_values = NULL;
	u64 cycle;
	long ret;

	if (!rt)
		return -ENOENT;
	for (i = 0; i < n; i++) {
		ret = dcm_runtime_handle(rt, d->handles[i], &sub);
		if (ret)
			return ret;
	}
	n_sub = rt->model->n_subdevices;
	all_values = kvmalloc_array(n_sub, sizeof(*all_values), GFP_KERNEL);
	all_times = kvmalloc_array(n_sub, sizeof(*all_times), GFP_KERNEL);
	ret = -ENOMEM;
	if (!all_values || !all_times)
		goto out;
	dcm_runtime_read(rt, all_values, all_times, &cycle, &now);
	for (i = 0; i < n; i++) {
		d->values[i] = all_values[DCM_HANDLE_INDEX(d->handles[i])];
		d->times[i] = all_times[DCM_HANDLE_INDEX(d->handles[i])];
	}
	ret = 0;
out:
	kvfree(all_values);
	kvfree(all_times);
	return ret;
}

/* Commands through a file: serialized with its watchdog's action. */
static long dcm_ioctl_command(struct dcm_file *f, unsigned int cmd, struct dcm_ioc_data *d)
{
	unsigned long *touched;
	long ret;

	touched = dcm_watchdog_cmd_begin(&f->wd, dcm_rt(f->ctrl));
	if (IS_ERR(touched))
		return PTR_ERR(touched);
	if (cmd == DCM_IOC_SET)
		ret = dcm_ioctl_set(f->ctrl, d, touched);
	else
		ret = dcm_alias_set(f->ctrl, &d->arg.alias_set, &d->alias_pts, touched);
	dcm_watchdog_cmd_end(&f->wd, !ret);
	return ret;
}

/* Step 2, under ctrl->lock for reading: the command, its answer in @d. */
static long dcm_ioc_run(struct dcm_file *f, unsigned int cmd, struct dcm_ioc_data *d)
{
	struct dcm_controller *ctrl = f->ctrl;

	switch (cmd) {
	case DCM_IOC_VERSION:
		d->arg.version.magic = DCM_ABI_MAGIC;
		d->arg.version.major = DCM_ABI_MAJOR;
		d->arg.version.minor = DCM_ABI_MINOR;
		return 0;
	case DCM_IOC_INFO:
		dcm_fill_info(ctrl, &d->arg.info);
		return 0;
	case DCM_IOC_LOOKUP:
		return dcm_ioctl_lookup(ctrl, &d->arg.lookup);
	case DCM_IOC_SET:
	case DCM_IOC_ALIAS_SET:
		return dcm_ioctl_command(f, cmd, d);
	case DCM_IOC_ALIAS_CREATE:
		dcm_alias_resolve(ctrl, d->alias, d->handles);
		return 0;
	case DCM_IOC_TIME:
		d->arg.time.time = dcm_time_ms(ctrl) + (u32)d->arg.time.offset;
		return 0;
	case DCM_IOC_GET:
		return dcm_ioctl_get(ctrl, d);
	case DCM_IOC_STATS:
	case DCM_IOC_STATS_V1:
		/* The older number gets the fields of its size (step 3). */
		dcm_cycle_stats(ctrl, &d->arg.stats);
		return 0;
	case DCM_IOC_CYCLE_STATS: {
		u32 flags = d->arg.cycle_stats.flags;

		if (flags & ~DCM_CYCLE_STATS_F_RESET)
			return -EINVAL;
		if ((flags & DCM_CYCLE_STATS_F_RESET) && !capable(CAP_SYS_ADMIN))
			return -EPERM;
		dcm_cycle_stats_full(ctrl, &d->arg.cycle_stats, flags & DCM_CYCLE_STATS_F_RESET);
		return 0;
	}
	case DCM_IOC_WATCHDOG:
		return dcm_watchdog_ioctl(&f->wd, &d->arg.watchdog);
	}
	return -ENOTTY;
}

/* Step 3, no lock held: the answer to the caller. */
static long dcm_ioc_deliver(unsigned int cmd, struct dcm_ioc_data *d, void __user *argp)
{
	struct dcm_ioc_get *get = &d->arg.get;

	switch (cmd) {
	case DCM_IOC_GET:
		if (copy_to_user(u64_to_user_ptr(get->values), d->values,
				 array_size(get->n, sizeof(*d->values))) ||
		    copy_to_user(u64_to_user_ptr(get->times), d->times,
				 array_size(get->n, sizeof(*d->times))))
			return -EFAULT;
		return 0;
	case DCM_IOC_ALIAS_CREATE:
		if (copy_to_user(u64_to_user_ptr(d->arg.alias_create.handles), d->handles,
				 array_size(d->arg.alias_create.n_members, sizeof(*d->handles))))
			return -EFAULT;
		return 0;
	}
	if ((_IOC_DIR(cmd) & _IOC_READ) && copy_to_user(argp, &d->arg, _IOC_SIZE(cmd)))
		return -EFAULT;
	return 0;
}

/* What commands the robot needs a file open for writing. */
static bool dcm_ioctl_commands(unsigned int cmd)
{
	switch (cmd) {
	case DCM_IOC_SET:
	case DCM_IOC_ALIAS_CREATE:
	case DCM_IOC_ALIAS_SET:
	case DCM_IOC_WATCHDOG:
		return true;
	}
	return false;
}

static bool dcm_ioctl_known(unsigned int cmd)
{
	switch (cmd) {
	case DCM_IOC_VERSION:
	case DCM_IOC_INFO:
	case DCM_IOC_LOOKUP:
	case DCM_IOC_SET:
	case DCM_IOC_ALIAS_CREATE:
	case DCM_IOC_ALIAS_SET:
	case DCM_IOC_TIME:
	case DCM_IOC_GET:
	case DCM_IOC_STATS:
	case DCM_IOC_STATS_V1:
	case DCM_IOC_CYCLE_STATS:
	case DCM_IOC_WATCHDOG:
		return true;
	}
	return false;
}

static long dcm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dcm_file *f = file->private_data;
	struct dcm_controller *ctrl = f->ctrl;
	void __user *argp = (void __user *)arg;
	struct dcm_ioc_data data = { }, *d = &data;
	long ret;

	if (READ_ONCE(ctrl->dead))
		return -ENODEV;
	if (dcm_ioctl_commands(cmd) && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!dcm_ioctl_known(cmd))
		return -ENOTTY;
	BUILD_BUG_ON(sizeof(d->arg) > 256);
	BUILD_BUG_ON(_IOC_SIZE(DCM_IOC_STATS_V1) != offsetof(struct dcm_ioc_stats, missed));

	ret = -EFAULT;
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&d->arg, argp, _IOC_SIZE(cmd)))
		goto out;
	ret = dcm_ioc_fetch(cmd, d);
	if (ret)
		goto out;

	down_read(&ctrl->lock);
	ret = ctrl->dead ? -ENODEV : dcm_ioc_run(f, cmd, d);
	up_read(&ctrl->lock);
	if (ret)
		goto out;

	ret = dcm_ioc_deliver(cmd, d, argp);
	if (ret || cmd != DCM_IOC_ALIAS_CREATE)
		goto out;
	/* The alias is made once its handles reached the caller. */
	down_read(&ctrl->lock);
	ret = ctrl->dead ? -ENODEV : dcm_alias_install(ctrl, &d->alias);
	up_read(&ctrl->lock);
out:
	dcm_ioc_data_free(d);
	return ret;
}

/*
 * A cycle newer than the last this file read, or a controller gone. Newer,
 * not different: the cycle publishes its snapshot before it counts itself
 * in ctrl->cycle, so a reader can read cycle N + 1 while ctrl->cycle is
 * still N, and must not take that for news and read N + 1 again.
 */
static bool dcm_news(struct dcm_file *f)
{
	return READ_ONCE(f->ctrl->cycle) > f->last_cycle || READ_ONCE(f->ctrl->dead);
}

static ssize_t dcm_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct dcm_file *f = file->private_data;
	struct dcm_controller *ctrl = f->ctrl;
	struct dcm_frame *frame = NULL;
	struct dcm_runtime *rt;
	size_t size;
	ssize_t ret;
	u32 time;

again:
	for (;;) {
		if (!dcm_news(f)) {
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(ctrl->cycle_wq, dcm_news(f));
			if (ret)
				return ret;
		}
		down_read(&ctrl->lock);
		if (ctrl->dead) {
			ret = -ENODEV;
			goto out;
		}
		rt = dcm_rt(ctrl);
		if (rt)
			break;
		/* No description: nothing to frame; wait for one. */
		f->last_cycle = READ_ONCE(ctrl->cycle);
		up_read(&ctrl->lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
	}

	size = struct_size(frame, values, rt->model->n_subdevices);
	ret = -EINVAL;
	if (count < size)
		goto out;
	ret = -ENOMEM;
	frame = kvzalloc(size, GFP_KERNEL);
	if (!frame)
		goto out;
	frame->n_values = rt->model->n_subdevices;
	frame->generation = rt->generation;
	dcm_runtime_read(rt, frame->values, NULL, &frame->cycle, &time);
	frame->time = time;
	if (frame->cycle <= f->last_cycle) {
		/*
		 * Not newer than the last frame read (a description that has
		 * not published its first cycle yet): wait for the next one.
		 */
		f->last_cycle = max(f->last_cycle, (u64)READ_ONCE(ctrl->cycle));
		up_read(&ctrl->lock);
		kvfree(frame);
		frame = NULL;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		goto again;
	}
	f->last_cycle = frame->cycle;
	up_read(&ctrl->lock);
	/* The copy may fault: not under ctrl->lock (DOC: Locking). */
	ret = copy_to_user(buf, frame, size) ? -EFAULT : size;
	kvfree(frame);
	return ret;
out:
	up_read(&ctrl->lock);
	kvfree(frame);
	return ret;
}

static __poll_t dcm_poll(struct file *file, poll_table *wait)
{
	struct dcm_file *f = file->private_data;

	poll_wait(file, &f->ctrl->cycle_wq, wait);
	if (READ_ONCE(f->ctrl->dead))
		return EPOLLERR | EPOLLHUP;
	return dcm_news(f) ? EPOLLIN | EPOLLRDNORM : 0;
}

static void dcm_vma_open(struct vm_area_struct *vma)
{
	kref_get(&((struct dcm_snapbuf *)vma->vm_private_data)->ref);
}

static void dcm_vma_close(struct vm_area_struct *vma)
{
	dcm_snapbuf_put(vma->vm_private_data);
}

static const struct vm_operations_struct dcm_vm_ops = {
	.open = dcm_vma_open,
	.close = dcm_vma_close,
};

/*
 * The snapshot of the running description, read-only. The mapping holds
 * the snapshot's memory: it stays valid, and frozen, after a replace.
 *
 * Called with mmap_lock held, which the ioctls take under ctrl->lock when
 * a user copy faults: ctrl->lock here would be the inverse order, a
 * deadlock once a writer queues on it. The runtime, and the snapshot it
 * holds a reference on, stay instead while the controller's SRCU read
 * section lasts, as for the cycle (DOC: Locking).
 */
static int dcm_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct dcm_controller *ctrl = ((struct dcm_file *)file->private_data)->ctrl;
	struct dcm_runtime *rt;
	struct dcm_snapbuf *sb;
	int idx, ret;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	if (vma->vm_pgoff)
		return -EINVAL;
	idx = srcu_read_lock(&ctrl->srcu);
	rt = READ_ONCE(ctrl->dead) ? NULL : srcu_dereference(ctrl->rt, &ctrl->srcu);
	ret = -ENODEV;
	if (!rt)
		goto out;
	sb = rt->snap;
	ret = -EINVAL;
	if (vma->vm_end - vma->vm_start > sb->size)
		goto out;
	vma->vm_flags &= ~VM_MAYWRITE;
	ret = remap_vmalloc_range(vma, sb->hdr, 0);
	if (ret)
		goto out;
	vma->vm_private_data = sb;
	vma->vm_ops = &dcm_vm_ops;
	kref_get(&sb->ref);
out:
	srcu_read_unlock(&ctrl->srcu, idx);
	return ret;
}

const struct file_operations dcm_fops = {
	.owner = THIS_MODULE,
	.open = dcm_open,
	.release = dcm_release,
	.read = dcm_read,
	.poll = dcm_poll,
	.mmap = dcm_mmap,
	.unlocked_ioctl = dcm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

/**
 * dcm_chrdev_init() - reserve the device numbers of /dev/dcmN
 *
 * Return: 0 or a negative errno.
 */
int dcm_chrdev_init(void)
{
	return alloc_chrdev_region(&dcm_devt, 0, DCM_MAX_CONTROLLERS, "dcm");
}

/**
 * dcm_chrdev_exit() - give the device numbers back
 */
void dcm_chrdev_exit(void)
{
	unregister_chrdev_region(dcm_devt, DCM_MAX_CONTROLLERS);
}
