// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the character device /dev/dcmN and its ioctls.
 */

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

static long dcm_ioctl_version(void __user *argp)
{
	struct dcm_ioc_version ver = {
		.magic = DCM_ABI_MAGIC,
		.major = DCM_ABI_MAJOR,
		.minor = DCM_ABI_MINOR,
	};

	return copy_to_user(argp, &ver, sizeof(ver)) ? -EFAULT : 0;
}

static long dcm_ioctl_info(struct dcm_controller *ctrl, void __user *argp)
{
	struct dcm_ioc_info info;

	dcm_fill_info(ctrl, &info);
	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

/* Name to handle: with or without the prefix, with or without "/Value". */
static long dcm_ioctl_lookup(struct dcm_controller *ctrl, void __user *argp)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	struct dcm_ioc_lookup arg;
	u32 index, flags;
	size_t len;
	u8 target;
	int ret;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	len = strnlen(arg.name, sizeof(arg.name));
	if (!len || len == sizeof(arg.name) || arg.reserved[0] || arg.reserved[1])
		return -EINVAL;
	if (!rt)
		return -ENOENT;
	ret = dcm_model_lookup(rt->model, arg.name, &target, &index);
	if (ret && len > 6 && !strcmp(arg.name + len - 6, "/Value")) {
		arg.name[len - 6] = '\0';
		ret = dcm_model_lookup(rt->model, arg.name, &target, &index);
		arg.name[len - 6] = '/';
	}
	if (ret || target != DCM_TARGET_SUBDEVICE)
		return -ENOENT;
	flags = rt->model->subdevices[index].type->flags;
	arg.handle = (rt->generation << 16) | index;
	arg.flags = (flags & DCM_SUB_ACTUATOR ? DCM_LOOKUP_F_ACTUATOR : 0) |
		    (flags & DCM_SUB_STEP ? DCM_LOOKUP_F_STEP : 0);
	return copy_to_user(argp, &arg, sizeof(arg)) ? -EFAULT : 0;
}

static long dcm_ioctl_set(struct dcm_controller *ctrl, void __user *argp, unsigned long *touched)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	struct dcm_point *pts = NULL;
	struct dcm_ioc_set arg;
	u32 sub;
	long ret;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if (arg.reserved || arg.update > DCM_UPDATE_MAX || arg.n_points > DCM_MAX_POINTS)
		return -EINVAL;
	if (!rt)
		return -ENOENT;
	ret = dcm_runtime_handle(rt, arg.handle, &sub);
	if (ret)
		return ret;
	if (rt->act_of[sub] < 0)
		return -EINVAL;
	if (arg.n_points) {
		pts = kvmalloc_array(arg.n_points, sizeof(*pts), GFP_KERNEL);
		if (!pts)
			return -ENOMEM;
		if (copy_from_user(pts, u64_to_user_ptr(arg.points),
				   array_size(arg.n_points, sizeof(*pts)))) {
			ret = -EFAULT;
			goto out;
		}
	}
	ret = dcm_tc_prepare(pts, arg.n_points);
	if (!ret)
		ret = dcm_runtime_set(rt, sub, arg.update, pts, arg.n_points);
	if (!ret)
		set_bit(sub, touched);
out:
	kvfree(pts);
	return ret;
}

static long dcm_ioctl_time(struct dcm_controller *ctrl, void __user *argp)
{
	struct dcm_ioc_time arg;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	arg.time = dcm_time_ms(ctrl) + (u32)arg.offset;
	return copy_to_user(argp, &arg, sizeof(arg)) ? -EFAULT : 0;
}

static long dcm_ioctl_get(struct dcm_controller *ctrl, void __user *argp)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 *handles = NULL, *all_times = NULL, *times = NULL, n_sub, i, sub, now;
	s64 *all_values = NULL, *values = NULL;
	struct dcm_ioc_get arg;
	u64 cycle;
	long ret;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if (arg.reserved || !arg.n || arg.n > DCM_MAX_SUBDEVICES)
		return -EINVAL;
	if (!rt)
		return -ENOENT;
	n_sub = rt->model->n_subdevices;

	ret = -ENOMEM;
	handles = kvmalloc_array(arg.n, sizeof(*handles), GFP_KERNEL);
	values = kvmalloc_array(arg.n, sizeof(*values), GFP_KERNEL);
	times = kvmalloc_array(arg.n, sizeof(*times), GFP_KERNEL);
	all_values = kvmalloc_array(n_sub, sizeof(*all_values), GFP_KERNEL);
	all_times = kvmalloc_array(n_sub, sizeof(*all_times), GFP_KERNEL);
	if (!handles || !values || !times || !all_values || !all_times)
		goto out;
	ret = -EFAULT;
	if (copy_from_user(handles, u64_to_user_ptr(arg.handles),
			   array_size(arg.n, sizeof(*handles))))
		goto out;
	for (i = 0; i < arg.n; i++) {
		ret = dcm_runtime_handle(rt, handles[i], &sub);
		if (ret)
			goto out;
	}
	dcm_runtime_read(rt, all_values, all_times, &cycle, &now);
	for (i = 0; i < arg.n; i++) {
		values[i] = all_values[DCM_HANDLE_INDEX(handles[i])];
		times[i] = all_times[DCM_HANDLE_INDEX(handles[i])];
	}
	ret = -EFAULT;
	if (copy_to_user(u64_to_user_ptr(arg.values), values, array_size(arg.n, sizeof(s64))) ||
	    copy_to_user(u64_to_user_ptr(arg.times), times, array_size(arg.n, sizeof(u32))))
		goto out;
	ret = 0;
out:
	kvfree(handles);
	kvfree(values);
	kvfree(times);
	kvfree(all_values);
	kvfree(all_times);
	return ret;
}

static long dcm_ioctl_stats(struct dcm_controller *ctrl, void __user *argp)
{
	struct dcm_ioc_stats st;

	dcm_cycle_stats(ctrl, &st);
	return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
}

/* Commands through a file: serialized with its watchdog's action. */
static long dcm_ioctl_command(struct dcm_file *f, unsigned int cmd, void __user *argp)
{
	unsigned long *touched;
	long ret;

	touched = dcm_watchdog_cmd_begin(&f->wd, dcm_rt(f->ctrl));
	if (IS_ERR(touched))
		return PTR_ERR(touched);
	if (cmd == DCM_IOC_SET)
		ret = dcm_ioctl_set(f->ctrl, argp, touched);
	else
		ret = dcm_alias_set(f->ctrl, argp, touched);
	dcm_watchdog_cmd_end(&f->wd, !ret);
	return ret;
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

static long dcm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dcm_file *f = file->private_data;
	struct dcm_controller *ctrl = f->ctrl;
	void __user *argp = (void __user *)arg;
	long ret;

	down_read(&ctrl->lock);
	if (ctrl->dead) {
		ret = -ENODEV;
		goto out;
	}
	if (dcm_ioctl_commands(cmd) && !(file->f_mode & FMODE_WRITE)) {
		ret = -EBADF;
		goto out;
	}

	switch (cmd) {
	case DCM_IOC_VERSION:
		ret = dcm_ioctl_version(argp);
		break;
	case DCM_IOC_INFO:
		ret = dcm_ioctl_info(ctrl, argp);
		break;
	case DCM_IOC_LOOKUP:
		ret = dcm_ioctl_lookup(ctrl, argp);
		break;
	case DCM_IOC_SET:
	case DCM_IOC_ALIAS_SET:
		ret = dcm_ioctl_command(f, cmd, argp);
		break;
	case DCM_IOC_ALIAS_CREATE:
		ret = dcm_alias_create(ctrl, argp);
		break;
	case DCM_IOC_TIME:
		ret = dcm_ioctl_time(ctrl, argp);
		break;
	case DCM_IOC_GET:
		ret = dcm_ioctl_get(ctrl, argp);
		break;
	case DCM_IOC_STATS:
		ret = dcm_ioctl_stats(ctrl, argp);
		break;
	case DCM_IOC_WATCHDOG:
		ret = dcm_watchdog_ioctl(&f->wd, argp);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
out:
	up_read(&ctrl->lock);
	return ret;
}

/* A cycle this file has not read yet, or a controller gone. */
static bool dcm_news(struct dcm_file *f)
{
	return READ_ONCE(f->ctrl->cycle) != f->last_cycle || READ_ONCE(f->ctrl->dead);
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
