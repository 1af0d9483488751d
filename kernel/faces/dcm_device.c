// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the controller as a device: dcmN in the "dcm" class, its own
 * attributes (body, abi_version, period_us, time_ms, generation,
 * description_swaps, stats/, cycle/, safety/) and
 * its character device /dev/dcmN, owned by the group that may command the
 * robot. The key tree below it is faces/dcm_sysfs.c's.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/uidgid.h>

#include "core/dcm_controller.h"
#include "core/dcm_runtime.h"
#include "core/dcm_cycle.h"
#include "core/dcm_events.h"
#include "core/dcm_time.h"
#include "model/dcm_fixed.h"
#include "faces/dcm_faces.h"

static unsigned int gid;
module_param(gid, uint, 0444);
MODULE_PARM_DESC(gid, "group that may command the robot: /dev/dcmN and actuator Value files (default 0, root)");

static struct class *dcm_class;

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
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_dcm_controller(dev)->cycle.period_us));
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
	WRITE_ONCE(to_dcm_controller(dev)->cycle.period_us, v);
	return len;
}
static DEVICE_ATTR_RW(period_us);

static ssize_t time_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dcm_time_ms(to_dcm_controller(dev)));
}
static DEVICE_ATTR_RO(time_ms);

/* The running description's generation: the high half of its handles. */
static ssize_t generation_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_controller *ctrl = to_dcm_controller(dev);
	u32 gen;

	down_read(&ctrl->lock);
	gen = ctrl->desc.model ? ctrl->desc.generation : 0;
	up_read(&ctrl->lock);
	return sysfs_emit(buf, "%u\n", gen);
}
static DEVICE_ATTR_RO(generation);

/* Descriptions made running: a commit equal to the running one is none. */
static ssize_t description_swaps_show(struct device *dev, struct device_attribute *attr,
				      char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_dcm_controller(dev)->desc.swaps));
}
static DEVICE_ATTR_RO(description_swaps);

/*
 * The events posted since the controller was made, one line a type:
 * "<type> <class> <posted> <dropped>", class "safety" or "info", dropped
 * those the live group did not get (the history kept them).
 */
static ssize_t events_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u64 posted[DCM_EV_MAX + 1], dropped[DCM_EV_MAX + 1];
	ssize_t len = 0;
	u32 t;

	dcm_events_counts(to_dcm_controller(dev), posted, dropped);
	for (t = 0; t <= DCM_EV_MAX; t++)
		len += sysfs_emit_at(buf, len, "%s %s %llu %llu\n", dcm_evlog_type_name(t),
				     dcm_evlog_class(t) == DCM_EVC_SAFETY ? "safety" : "info",
				     posted[t], dropped[t]);
	return len;
}
static DEVICE_ATTR_RO(events);

static struct attribute *dcm_ctrl_attrs[] = {
	&dev_attr_body.attr,
	&dev_attr_abi_version.attr,
	&dev_attr_period_us.attr,
	&dev_attr_time_ms.attr,
	&dev_attr_generation.attr,
	&dev_attr_description_swaps.attr,
	&dev_attr_events.attr,
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
	STAT(missed, missed),
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

/* What DCM_IOC_CYCLE_STATS adds, one number per file. */
struct dcm_cstat_attr {
	struct device_attribute attr;
	size_t offset;		/* of a u64 in struct dcm_ioc_cycle_stats */
};

static ssize_t cstat_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_cstat_attr *sa = container_of(attr, struct dcm_cstat_attr, attr);
	struct dcm_ioc_cycle_stats st;

	dcm_cycle_stats_full(to_dcm_controller(dev), &st, false);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((char *)&st + sa->offset));
}

#define CSTAT(n, f) { __ATTR(n, 0444, cstat_show, NULL), offsetof(struct dcm_ioc_cycle_stats, f) }

static struct dcm_cstat_attr dcm_cstat_attrs[] = {
	CSTAT(work_overruns, work_overruns),
	CSTAT(late_buses, late_buses),
	CSTAT(busy_buses, busy_buses),
};

/*
 * "latency <p50> <p99> <p99.9> <max>" and "work ..." in ns, from the
 * log-bucket histograms (within 6.25 %).
 */
static ssize_t percentiles_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_ioc_cycle_stats st;

	dcm_cycle_stats_full(to_dcm_controller(dev), &st, false);
	return sysfs_emit(buf, "latency %llu %llu %llu %llu\nwork %llu %llu %llu %llu\n",
			  st.latency_ns[DCM_PCT_50], st.latency_ns[DCM_PCT_99],
			  st.latency_ns[DCM_PCT_999], st.latency_ns[DCM_PCT_MAX],
			  st.work_ns[DCM_PCT_50], st.work_ns[DCM_PCT_99],
			  st.work_ns[DCM_PCT_999], st.work_ns[DCM_PCT_MAX]);
}
static DEVICE_ATTR_RO(percentiles);

/*
 * The work's steps, one line each, "<step> <p50> <p99> <p99.9> <max>" in
 * ns: actuate, safety, buses (queueing the exchanges to joining them),
 * publish.
 */
static ssize_t steps_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	static const char *const names[DCM_STEP_COUNT] = {
		"actuate", "safety", "buses", "publish",
	};
	u64 pct[DCM_PCT_COUNT];
	ssize_t len = 0;
	u32 i;

	for (i = 0; i < DCM_STEP_COUNT; i++) {
		dcm_cycle_step_stats(to_dcm_controller(dev), i, pct);
		len += sysfs_emit_at(buf, len, "%s %llu %llu %llu %llu\n", names[i],
				     pct[DCM_PCT_50], pct[DCM_PCT_99], pct[DCM_PCT_999],
				     pct[DCM_PCT_MAX]);
	}
	return len;
}
static DEVICE_ATTR_RO(steps);

/* Root starts the statistics again (CAP_SYS_ADMIN, whatever the mode). */
static ssize_t reset_store(struct device *dev, struct device_attribute *attr, const char *buf,
			   size_t len)
{
	bool v;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtobool(buf, &v);
	if (ret)
		return ret;
	if (!v)
		return -EINVAL;
	dcm_cycle_stats_reset(to_dcm_controller(dev));
	return len;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *dcm_stats_attrs[] = {
	&dcm_stat_attrs[0].attr.attr,
	&dcm_stat_attrs[1].attr.attr,
	&dcm_stat_attrs[2].attr.attr,
	&dcm_stat_attrs[3].attr.attr,
	&dcm_stat_attrs[4].attr.attr,
	&dcm_stat_attrs[5].attr.attr,
	&dcm_stat_attrs[6].attr.attr,
	&dev_attr_latency_histogram.attr,
	&dcm_cstat_attrs[0].attr.attr,
	&dcm_cstat_attrs[1].attr.attr,
	&dcm_cstat_attrs[2].attr.attr,
	&dev_attr_percentiles.attr,
	&dev_attr_steps.attr,
	&dev_attr_reset.attr,
	NULL
};

static const struct attribute_group dcm_stats_group = {
	.name = "stats",
	.attrs = dcm_stats_attrs,
};

/* cycle/: the cycle thread's priority and CPUs, and each bus's exchanges. */
static ssize_t priority_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_ioc_cycle_stats st;

	dcm_cycle_stats_full(to_dcm_controller(dev), &st, false);
	return sysfs_emit(buf, "%u\n", st.priority);
}

/* Root (CAP_SYS_NICE, whatever the mode) sets it: the threads take it at once. */
static ssize_t priority_store(struct device *dev, struct device_attribute *attr,
			      const char *buf, size_t len)
{
	unsigned int v;
	int ret;

	if (!capable(CAP_SYS_NICE))
		return -EPERM;
	ret = kstrtouint(buf, 10, &v);
	if (ret)
		return ret;
	ret = dcm_cycle_set_priority(to_dcm_controller(dev), v);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(priority);

static ssize_t cpus_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	cpumask_var_t m;
	ssize_t len;

	if (!alloc_cpumask_var(&m, GFP_KERNEL))
		return -ENOMEM;
	dcm_cycle_cpus(to_dcm_controller(dev), m);
	len = sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(m));
	free_cpumask_var(m);
	return len;
}

/* A cpulist ("0", "1-3"); root (CAP_SYS_NICE) only. */
static ssize_t cpus_store(struct device *dev, struct device_attribute *attr, const char *buf,
			  size_t len)
{
	cpumask_var_t m;
	int ret;

	if (!capable(CAP_SYS_NICE))
		return -EPERM;
	if (!zalloc_cpumask_var(&m, GFP_KERNEL))
		return -ENOMEM;
	ret = cpulist_parse(buf, m);
	if (!ret)
		ret = dcm_cycle_set_cpus(to_dcm_controller(dev), m);
	free_cpumask_var(m);
	return ret ? ret : len;
}
static DEVICE_ATTR_RW(cpus);

/*
 * One line per bus of the running description with a lane: "<bus>
 * <exchanges> <late> <busy> <last_ns> <max_ns> <p50_ns> <p99_ns> <unready>
 * <absent> <requests> <deferred>".
 */
static ssize_t buses_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_controller *ctrl = to_dcm_controller(dev);
	struct dcm_lane_stats ls;
	struct dcm_runtime *rt;
	ssize_t len = 0;
	u32 b;

	down_read(&ctrl->lock);
	rt = dcm_rt(ctrl);
	for (b = 0; rt && b < rt->n_buses && b < DCM_MAX_LANES; b++) {
		dcm_cycle_lane_stats(ctrl, b, &ls);
		len += sysfs_emit_at(buf, len,
				     "%s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
				     rt->buses[b].name, ls.exchanges, ls.late, ls.busy, ls.last_ns,
				     ls.max_ns, ls.p50_ns, ls.p99_ns, ls.unready, ls.absent,
				     ls.requests, ls.deferred);
	}
	up_read(&ctrl->lock);
	return len;
}
static DEVICE_ATTR_RO(buses);

static struct attribute *dcm_cycle_attrs[] = {
	&dev_attr_priority.attr,
	&dev_attr_cpus.attr,
	&dev_attr_buses.attr,
	NULL
};

static const struct attribute_group dcm_cycle_group = {
	.name = "cycle",
	.attrs = dcm_cycle_attrs,
};

/* safety/: the stiffness rules acting on every joint (model/dcm_safety.c). */
static ssize_t cycle_faults_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(to_dcm_controller(dev)->cycle.safety.faults));
}
static DEVICE_ATTR_RO(cycle_faults);

static ssize_t fault_scale_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u32 ppm = READ_ONCE(to_dcm_controller(dev)->cycle.safety.fault_ppm);

	return sysfs_emit(buf, "%u.%06u\n", ppm / 1000000, ppm % 1000000);
}
static DEVICE_ATTR_RO(fault_scale);

static ssize_t battery_scale_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	u32 ppm = READ_ONCE(to_dcm_controller(dev)->cycle.safety.battery_ppm);

	return sysfs_emit(buf, "%u.%06u\n", ppm / 1000000, ppm % 1000000);
}
static DEVICE_ATTR_RO(battery_scale);

/*
 * One line per Hardness actuator of the running description, in its order:
 * "<subdevice> <commanded> <sent>": the stiffness its queue gave the last
 * cycle, before the rules, and its Value, the hardness sent (from the last
 * published snapshot). As many lines as fit a page.
 */
static ssize_t hardness_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dcm_controller *ctrl = to_dcm_controller(dev);
	char cmd[DCM_FIXED_TEXT_LEN], sent[DCM_FIXED_TEXT_LEN];
	struct dcm_runtime *rt;
	ssize_t len = 0;
	u32 i, sub, time;
	s64 v;

	down_read(&ctrl->lock);
	rt = ctrl->dead ? NULL : dcm_rt(ctrl);
	for (i = 0; rt && i < rt->n_act; i++) {
		sub = rt->act[i].sub;
		if (!(rt->model->subdevices[sub].type->flags & DCM_SUB_HARDNESS))
			continue;
		dcm_fixed_format(dcm_runtime_commanded(rt, i), cmd, sizeof(cmd));
		dcm_runtime_gather(rt, &sub, 1, &v, &time);
		dcm_fixed_format(v, sent, sizeof(sent));
		len += sysfs_emit_at(buf, len, "%s %s %s\n", rt->model->subdevices[sub].name,
				     cmd, sent);
	}
	up_read(&ctrl->lock);
	return len;
}
static DEVICE_ATTR_RO(hardness);

static struct attribute *dcm_safety_attrs[] = {
	&dev_attr_cycle_faults.attr,
	&dev_attr_fault_scale.attr,
	&dev_attr_battery_scale.attr,
	&dev_attr_hardness.attr,
	NULL
};

static const struct attribute_group dcm_safety_group = {
	.name = "safety",
	.attrs = dcm_safety_attrs,
};

static const struct attribute_group *dcm_ctrl_groups[] = {
	&dcm_ctrl_group,
	&dcm_stats_group,
	&dcm_cycle_group,
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

/**
 * dcm_device_add() - give a created controller its faces: its device,
 *	/dev/dcmN and its netlink transaction's state
 * @ctrl: from dcm_controller_create()
 *
 * Return: 0, -ENOMEM or what cdev_device_add() returned (nothing is left
 * added).
 */
int dcm_device_add(struct dcm_controller *ctrl)
{
	int ret;

	ret = dcm_config_add(ctrl);
	if (ret)
		return ret;
	ctrl->dev.class = dcm_class;
	ctrl->dev.type = &dcm_ctrl_type;
	ctrl->dev.groups = dcm_ctrl_groups;
	ctrl->dev.devt = dcm_chrdev_devt(ctrl->index);
	cdev_init(&ctrl->cdev, &dcm_fops);
	ctrl->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&ctrl->cdev, &ctrl->dev);
	if (ret)
		dcm_config_del(ctrl);
	return ret;
}

/**
 * dcm_device_del() - remove what dcm_device_add() added
 * @ctrl: the controller, stopped (dcm_controller_stop()) or never started
 */
void dcm_device_del(struct dcm_controller *ctrl)
{
	cdev_device_del(&ctrl->cdev, &ctrl->dev);
	dcm_config_del(ctrl);
}

/**
 * dcm_device_init() - the "dcm" class and the numbers of /dev/dcmN
 *
 * Return: 0, -EINVAL when the gid module parameter is no group, or what
 * creating the class or reserving the numbers returned.
 */
int dcm_device_init(void)
{
	int ret;

	if (!gid_valid(dcm_command_gid())) {
		pr_err("gid=%u is no group\n", gid);
		return -EINVAL;
	}
	dcm_class = class_create(THIS_MODULE, "dcm");
	if (IS_ERR(dcm_class))
		return PTR_ERR(dcm_class);
	ret = dcm_chrdev_init();
	if (ret)
		class_destroy(dcm_class);
	return ret;
}

/**
 * dcm_device_exit() - undo dcm_device_init()
 */
void dcm_device_exit(void)
{
	dcm_chrdev_exit();
	class_destroy(dcm_class);
}
