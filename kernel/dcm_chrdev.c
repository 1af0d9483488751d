// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the character device /dev/dcmN and its ioctls.
 */

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/uaccess.h>

#include "dcm_internal.h"

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

	get_device(&ctrl->dev);
	file->private_data = ctrl;
	return nonseekable_open(inode, file);
}

static int dcm_release(struct inode *inode, struct file *file)
{
	struct dcm_controller *ctrl = file->private_data;

	put_device(&ctrl->dev);
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

static long dcm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dcm_controller *ctrl = file->private_data;
	void __user *argp = (void __user *)arg;
	long ret;

	down_read(&ctrl->lock);
	if (ctrl->dead) {
		ret = -ENODEV;
		goto out;
	}

	switch (cmd) {
	case DCM_IOC_VERSION:
		ret = dcm_ioctl_version(argp);
		break;
	case DCM_IOC_INFO:
		ret = dcm_ioctl_info(ctrl, argp);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
out:
	up_read(&ctrl->lock);
	return ret;
}

const struct file_operations dcm_fops = {
	.owner = THIS_MODULE,
	.open = dcm_open,
	.release = dcm_release,
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
