// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - Device Communication Manager for the NAO robot: the core.
 *
 * Owns the "dcm" class and the registry of controllers (one per robot
 * body), and brings up the two other faces: the character device and the
 * generic netlink family.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>

#include "core/dcm_internal.h"
#include "model/dcm_model.h"

static unsigned int period_us = 10000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "cycle period of new controllers in us (1000-100000, default 10000)");

static unsigned int time_origin_ms;
module_param(time_origin_ms, uint, 0444);
MODULE_PARM_DESC(time_origin_ms, "DCM time of a new controller at its creation, in ms (default 0)");

static unsigned int gid;
module_param(gid, uint, 0444);
MODULE_PARM_DESC(gid, "group that may command the robot: /dev/dcmN and actuator Value files (default 0, root)");

static struct class *dcm_class;
static struct dentry *dcm_debugfs;

/* Registered controllers by index; dcm_controllers_lock orders changes. */
static DEFINE_XARRAY_ALLOC(dcm_controllers);
static DEFINE_MUTEX(dcm_controllers_lock);

/**
 * dcm_command_gid() - the group that may command the robot
 *
 * The gid module parameter: the group of /dev/dcmN (mode 0664) and of the
 * key tree, where actuator Value files are 0664. Configuration stays
 * root's: it needs CAP_NET_ADMIN whatever the file modes.
 *
 * Return: the group, in the initial user namespace.
 */
kgid_t dcm_command_gid(void)
{
	return make_kgid(&init_user_ns, gid);
}

/**
 * dcm_time_ms() - DCM time of a controller
 * @ctrl: the controller
 *
 * DCM time counts milliseconds on the monotonic clock from the controller's
 * creation, plus the time_origin_ms module parameter. It is 32 bits wide and
 * wraps: compare two times by their signed difference.
 *
 * Return: the time now, in ms.
 */
u32 dcm_time_ms(const struct dcm_controller *ctrl)
{
	s64 ms = ktime_ms_delta(ktime_get(), ctrl->epoch);

	return ctrl->time_origin_ms + (u32)ms;
}

/**
 * dcm_fill_info() - describe a controller in the ioctl layout
 * @ctrl: the controller, with its lock held for reading
 * @info: filled; the netlink face encodes the same fields
 */
void dcm_fill_info(const struct dcm_controller *ctrl, struct dcm_ioc_info *info)
{
	memset(info, 0, sizeof(*info));
	info->abi_version = DCM_ABI_VERSION;
	info->index = ctrl->index;
	strscpy(info->name, dev_name(&ctrl->dev), sizeof(info->name));
	strscpy(info->driver, ctrl->driver, sizeof(info->driver));
	info->period_us = READ_ONCE(ctrl->period_us);
	info->time_ms = dcm_time_ms(ctrl);
	info->flags = ctrl->flags | (ctrl->cycle_task ? DCM_INFO_F_RUNNING : 0);
	if (ctrl->model) {
		info->n_devices = ctrl->model->n_devices;
		info->n_subdevices = ctrl->model->n_subdevices;
		info->flags |= DCM_INFO_F_CONFIGURED;
	}
}

/**
 * dcm_controller_get() - find a controller by index and hold it
 * @index: N of dcmN
 *
 * Return: the controller with a reference the caller drops with
 * dcm_controller_put(), or NULL if there is none.
 */
struct dcm_controller *dcm_controller_get(unsigned int index)
{
	struct dcm_controller *ctrl;

	mutex_lock(&dcm_controllers_lock);
	ctrl = xa_load(&dcm_controllers, index);
	if (ctrl)
		get_device(&ctrl->dev);
	mutex_unlock(&dcm_controllers_lock);
	return ctrl;
}

/**
 * dcm_controller_get_next() - the first controller at or after an index
 * @index: where to start; set to the index of the controller found
 *
 * Return: the controller, held as by dcm_controller_get(), or NULL.
 */
struct dcm_controller *dcm_controller_get_next(unsigned long *index)
{
	struct dcm_controller *ctrl;

	mutex_lock(&dcm_controllers_lock);
	ctrl = xa_find(&dcm_controllers, index, DCM_MAX_CONTROLLERS - 1, XA_PRESENT);
	if (ctrl)
		get_device(&ctrl->dev);
	mutex_unlock(&dcm_controllers_lock);
	return ctrl;
}

/**
 * dcm_controller_put() - drop a reference taken by dcm_controller_get()
 * @ctrl: the controller, or NULL
 */
void dcm_controller_put(struct dcm_controller *ctrl)
{
	if (ctrl)
		put_device(&ctrl->dev);
}

static ssize_t body_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_dcm_controller(dev)->driver);
}
static DEVICE_ATTR_RO(body);

static ssize_t abi_version_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u.%u\n", DCM_ABI_MAJOR, DCM_ABI_MINOR);
}
static DEVICE_ATTR_RO(abi_version);

static ssize_t period_us_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_dcm_controller(dev)->period_us));
}

/*
 * Root sets the period (configuration: CAP_NET_ADMIN, whatever the file
 * mode); the cycle takes it from its next deadline.
 */
static ssize_t period_us_store(struct device *dev, struct device_attribute *attr,
			       const char *buf, size_t len)
{
	unsigned int v;
	int ret;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	ret = kstrtouint(buf, 10, &v);
	if (ret)
		return ret;
	if (v < 1000 || v > 100000)
		return -ERANGE;
	WRITE_ONCE(to_dcm_controller(dev)->period_us, v);
	return len;
}
static DEVICE_ATTR_RW(period_us);

static ssize_t time_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dcm_time_ms(to_dcm_controller(dev)));
}
static DEVICE_ATTR_RO(time_ms);

static struct attribute *dcm_ctrl_attrs[] = {
	&dev_attr_body.attr,
	&dev_attr_abi_version.attr,
	&dev_attr_period_us.attr,
	&dev_attr_time_ms.attr,
	NULL
};

static const struct attribute_group dcm_ctrl_group = {
	.attrs = dcm_ctrl_attrs,
};

/* stats/: the cycle's timing, one number per file but the histogram. */
struct dcm_stat_attr {
	struct device_attribute attr;
	size_t offset;		/* of a u64 in struct dcm_ioc_stats */
};

static ssize_t stat_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_stat_attr *sa = container_of(attr, struct dcm_stat_attr, attr);
	struct dcm_ioc_stats st;

	dcm_cycle_stats(to_dcm_controller(dev), &st);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((char *)&st + sa->offset));
}

#define STAT(n, f) { __ATTR(n, 0444, stat_show, NULL), offsetof(struct dcm_ioc_stats, f) }

static struct dcm_stat_attr dcm_stat_attrs[] = {
	STAT(cycles, cycles),
	STAT(overruns, overruns),
	STAT(last_ns, last_ns),
	STAT(mean_ns, mean_ns),
	STAT(max_ns, max_ns),
	STAT(latency_max_ns, latency_max_ns),
};

/* One line per bucket: "<upper bound in us> <count>", "inf" for the last. */
static ssize_t latency_histogram_show(struct device *dev, struct device_attribute *attr,
				      char *buf)
{
	static const char * const bounds[] = {
		"10", "20", "50", "100", "200", "500", "1000", "2000", "5000", "inf",
	};
	struct dcm_ioc_stats st;
	ssize_t len = 0;
	int i;

	dcm_cycle_stats(to_dcm_controller(dev), &st);
	for (i = 0; i < ARRAY_SIZE(bounds); i++)
		len += sysfs_emit_at(buf, len, "%s %llu\n", bounds[i], st.latency_hist[i]);
	return len;
}
static DEVICE_ATTR_RO(latency_histogram);

static struct attribute *dcm_stats_attrs[] = {
	&dcm_stat_attrs[0].attr.attr,
	&dcm_stat_attrs[1].attr.attr,
	&dcm_stat_attrs[2].attr.attr,
	&dcm_stat_attrs[3].attr.attr,
	&dcm_stat_attrs[4].attr.attr,
	&dcm_stat_attrs[5].attr.attr,
	&dev_attr_latency_histogram.attr,
	NULL
};

static const struct attribute_group dcm_stats_group = {
	.name = "stats",
	.attrs = dcm_stats_attrs,
};

/* safety/: the stiffness rules acting on every joint (dcm_safety.c). */
static ssize_t cycle_faults_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_dcm_controller(dev)->safety.faults));
}
static DEVICE_ATTR_RO(cycle_faults);

static ssize_t fault_scale_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u32 ppm = READ_ONCE(to_dcm_controller(dev)->safety.fault_ppm);

	return sysfs_emit(buf, "%u.%06u\n", ppm / 1000000, ppm % 1000000);
}
static DEVICE_ATTR_RO(fault_scale);

static ssize_t battery_scale_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u32 ppm = READ_ONCE(to_dcm_controller(dev)->safety.battery_ppm);

	return sysfs_emit(buf, "%u.%06u\n", ppm / 1000000, ppm % 1000000);
}
static DEVICE_ATTR_RO(battery_scale);

static struct attribute *dcm_safety_attrs[] = {
	&dev_attr_cycle_faults.attr,
	&dev_attr_fault_scale.attr,
	&dev_attr_battery_scale.attr,
	NULL
};

static const struct attribute_group dcm_safety_group = {
	.name = "safety",
	.attrs = dcm_safety_attrs,
};

static const struct attribute_group *dcm_ctrl_groups[] = {
	&dcm_ctrl_group,
	&dcm_stats_group,
	&dcm_safety_group,
	NULL
};

/* /dev/dcmN: everyone reads, the command group writes (udev may override). */
static char *dcm_devnode(struct device *dev, umode_t *mode, kuid_t *uid, kgid_t *gid)
{
	if (mode)
		*mode = 0664;
	if (gid)
		*gid = dcm_command_gid();
	return NULL;
}

static const struct device_type dcm_ctrl_type = {
	.devnode = dcm_devnode,
};

static void dcm_controller_release(struct device *dev)
{
	struct dcm_controller *ctrl = to_dcm_controller(dev);

	dcm_events_destroy(ctrl);
	cleanup_srcu_struct(&ctrl->srcu);
	kfree(ctrl);
}

/**
 * dcm_controller_register() - give a robot body its dcmN
 * @parent: the body driver's device
 * @driver: the body driver's name, reported to user space
 * @flags: DCM_INFO_F_* that describe the body (e.g. DCM_INFO_F_SIMULATED)
 *
 * Creates the device dcmN in the "dcm" class and /dev/dcmN, with the lowest
 * free N. Context: process, may sleep.
 *
 * Return: the controller, or an ERR_PTR: -ENOSPC when all
 * DCM_MAX_CONTROLLERS are taken, -ENOMEM, or what device creation returned.
 */
struct dcm_controller *dcm_controller_register(struct device *parent,
					       const char *driver, u32 flags)
{
	struct dcm_controller *ctrl;
	u32 index;
	int ret;

	if (!driver || flags & ~(DCM_INFO_F_SIMULATED))
		return ERR_PTR(-EINVAL);

	ctrl = kzalloc(sizeof(*ctrl), GFP_KERNEL);
	if (!ctrl)
		return ERR_PTR(-ENOMEM);

	strscpy(ctrl->driver, driver, sizeof(ctrl->driver));
	ctrl->flags = flags;
	ctrl->period_us = period_us;
	ctrl->time_origin_ms = time_origin_ms;
	ctrl->epoch = ktime_get();
	init_rwsem(&ctrl->lock);
	mutex_init(&ctrl->config_lock);
	mutex_init(&ctrl->keys_lock);
	mutex_init(&ctrl->alias_lock);
	mutex_init(&ctrl->bus_lock);
	INIT_LIST_HEAD(&ctrl->buses);
	ret = init_srcu_struct(&ctrl->srcu);
	if (ret) {
		kfree(ctrl);
		return ERR_PTR(ret);
	}
	ret = dcm_events_create(ctrl);
	if (ret) {
		cleanup_srcu_struct(&ctrl->srcu);
		kfree(ctrl);
		return ERR_PTR(ret);
	}
	spin_lock_init(&ctrl->stats_lock);
	dcm_safety_init(&ctrl->safety);
	init_waitqueue_head(&ctrl->cycle_wq);

	mutex_lock(&dcm_controllers_lock);
	ret = xa_alloc(&dcm_controllers, &index, NULL,
		       XA_LIMIT(0, DCM_MAX_CONTROLLERS - 1), GFP_KERNEL);
	mutex_unlock(&dcm_controllers_lock);
	if (ret) {
		dcm_events_destroy(ctrl);
		cleanup_srcu_struct(&ctrl->srcu);
		kfree(ctrl);
		return ERR_PTR(ret == -EBUSY ? -ENOSPC : ret);
	}
	ctrl->index = index;

	device_initialize(&ctrl->dev);
	ctrl->dev.class = dcm_class;
	ctrl->dev.type = &dcm_ctrl_type;
	ctrl->dev.parent = parent;
	ctrl->dev.groups = dcm_ctrl_groups;
	ctrl->dev.devt = dcm_chrdev_devt(index);
	ctrl->dev.release = dcm_controller_release;
	ret = dev_set_name(&ctrl->dev, "dcm%u", index);
	if (ret)
		goto err_put;

	cdev_init(&ctrl->cdev, &dcm_fops);
	ctrl->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&ctrl->cdev, &ctrl->dev);
	if (ret)
		goto err_put;

	/* Fault injection for the tests, like netdevsim's. */
	ctrl->debugfs = debugfs_create_dir(dev_name(&ctrl->dev), dcm_debugfs);
	debugfs_create_u32("stall_ms", 0600, ctrl->debugfs, &ctrl->stall_ms);

	ret = dcm_cycle_start(ctrl);
	if (ret) {
		debugfs_remove_recursive(ctrl->debugfs);
		cdev_device_del(&ctrl->cdev, &ctrl->dev);
		goto err_put;
	}

	/* Publish only once user space can reach it whole. */
	mutex_lock(&dcm_controllers_lock);
	xa_store(&dcm_controllers, index, ctrl, GFP_KERNEL);
	mutex_unlock(&dcm_controllers_lock);

	dev_info(&ctrl->dev, "controller for %s, period %u us\n", ctrl->driver, ctrl->period_us);
	return ctrl;

err_put:
	mutex_lock(&dcm_controllers_lock);
	xa_erase(&dcm_controllers, index);
	mutex_unlock(&dcm_controllers_lock);
	put_device(&ctrl->dev);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(dcm_controller_register);

/**
 * dcm_controller_unregister() - remove a controller
 * @ctrl: what dcm_controller_register() returned
 *
 * After it returns no new user-space call reaches the controller, calls in
 * progress have finished, and open files get -ENODEV. The memory goes with
 * the last reference. Context: process, may sleep.
 */
void dcm_controller_unregister(struct dcm_controller *ctrl)
{
	mutex_lock(&dcm_controllers_lock);
	xa_erase(&dcm_controllers, ctrl->index);
	mutex_unlock(&dcm_controllers_lock);

	down_write(&ctrl->lock);
	ctrl->dead = true;
	up_write(&ctrl->lock);

	dcm_cycle_stop(ctrl);
	debugfs_remove_recursive(ctrl->debugfs);
	dcm_describe_release(ctrl);
	dcm_alias_release(ctrl);
	cdev_device_del(&ctrl->cdev, &ctrl->dev);
	put_device(&ctrl->dev);
}
EXPORT_SYMBOL_GPL(dcm_controller_unregister);

static int __init dcm_init(void)
{
	int ret;

	if (period_us < 1000 || period_us > 100000) {
		pr_err("period_us=%u is outside 1000-100000\n", period_us);
		return -EINVAL;
	}
	if (!gid_valid(dcm_command_gid())) {
		pr_err("gid=%u is no group\n", gid);
		return -EINVAL;
	}

	dcm_class = class_create(THIS_MODULE, "dcm");
	if (IS_ERR(dcm_class))
		return PTR_ERR(dcm_class);
	dcm_debugfs = debugfs_create_dir("dcm", NULL);

	dcm_sysfs_init();
	ret = dcm_chrdev_init();
	if (ret)
		goto err_class;

	ret = dcm_netlink_init();
	if (ret)
		goto err_chrdev;

	ret = dcm_i2c_init();
	if (ret)
		goto err_netlink;

	ret = dcm_spi_init();
	if (ret) {
		dcm_i2c_exit();
		goto err_netlink;
	}

	ret = dcm_rs485_init();
	if (ret) {
		dcm_spi_exit();
		dcm_i2c_exit();
		goto err_netlink;
	}

	return 0;

err_netlink:
	dcm_netlink_exit();
err_chrdev:
	dcm_chrdev_exit();
err_class:
	debugfs_remove_recursive(dcm_debugfs);
	class_destroy(dcm_class);
	return ret;
}

static void __exit dcm_exit(void)
{
	dcm_rs485_exit();
	dcm_spi_exit();
	dcm_i2c_exit();
	dcm_netlink_exit();
	dcm_chrdev_exit();
	debugfs_remove_recursive(dcm_debugfs);
	class_destroy(dcm_class);
	WARN_ON(!xa_empty(&dcm_controllers));
}

module_init(dcm_init);
module_exit(dcm_exit);

MODULE_DESCRIPTION("Device Communication Manager for the NAO robot");
MODULE_LICENSE("GPL");
