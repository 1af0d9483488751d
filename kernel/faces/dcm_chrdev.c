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

#include "core/dcm_controller.h"
#include "core/dcm_runtime.h"
#include "core/dcm_watchdog.h"
#include "core/dcm_alias.h"
#include "core/dcm_core.h"
#include "core/dcm_cycle.h"
#include "core/dcm_time.h"
#include "faces/dcm_faces.h"

/* Handles a file's buffer starts with room for, at least. */
#define DCM_FILE_BUF_MIN	64

/* Bytes of a file's buffer per handle of DCM_IOC_GET: handle, value, time. */
#define DCM_GET_ENTRY	(sizeof(u32) + sizeof(s64) + sizeof(u32))

/**
 * struct dcm_file - an open /dev/dcmN
 * @ctrl: its controller, held
 * @last_cycle: the cycle its last read() returned
 * @poll_cycle: DCM_READ_F_SNAPSHOT: the cycle its last readable poll()
 *	reported
 * @read_flags: DCM_READ_F_*, set by DCM_IOC_READ_MODE
 * @io_lock: guards @buf and @buf_size; held across a whole DCM_IOC_GET or
 *	read(), user copies included (DOC: Locking)
 * @buf: the file's buffer for DCM_IOC_GET (handles, values, times) and
 *	read() (a frame): sized at open for the running description, grown
 *	only when a call needs more (a bigger description), never per call
 * @buf_size: its bytes
 * @wd: the actuators it commanded, and its watchdog
 */
struct dcm_file {
	struct dcm_controller *ctrl;
	u64 last_cycle;
	u64 poll_cycle;
	u32 read_flags;
	struct mutex io_lock;	/* @buf */
	void *buf;
	size_t buf_size;
	struct dcm_watchdog wd;
};

/* Make the file's buffer @size bytes at least; the caller holds @f->io_lock. */
static int dcm_file_buf(struct dcm_file *f, size_t size)
{
	void *buf;

	lockdep_assert_held(&f->io_lock);
	if (size <= f->buf_size)
		return 0;
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	kvfree(f->buf);
	f->buf = buf;
	f->buf_size = size;
	return 0;
}

/* The bytes of a frame of the running description in the file's mode. */
static size_t dcm_frame_size(const struct dcm_file *f, const struct dcm_runtime *rt)
{
	u32 n = READ_ONCE(f->read_flags) & DCM_READ_F_KEYS ? rt->n_handles :
		rt->model->n_subdevices;

	return struct_size((struct dcm_frame *)NULL, values, n);
}

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

	struct dcm_runtime *rt;
	u32 n = 0;
	int ret;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->io_lock);
	/* The buffer for the running description's handles, all of them. */
	down_read(&ctrl->lock);
	rt = dcm_rt(ctrl);
	if (rt)
		n = rt->n_handles;
	up_read(&ctrl->lock);
	mutex_lock(&f->io_lock);
	ret = dcm_file_buf(f, max_t(u32, n, DCM_FILE_BUF_MIN) * DCM_GET_ENTRY);
	mutex_unlock(&f->io_lock);
	if (ret) {
		kfree(f);
		return ret;
	}
	get_device(&ctrl->dev);
	f->ctrl = ctrl;
	f->last_cycle = READ_ONCE(ctrl->cycle.count);
	dcm_watchdog_init(&f->wd, ctrl);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

/*
 * A client that goes away takes nothing with it but its own aliases: the
 * commands it queued stay queued and the cycle goes on, unless it armed a
 * watchdog, whose action runs now (Documentation/userspace-api/dcm.rst).
 */
static int dcm_release(struct inode *inode, struct file *file)
{
	struct dcm_file *f = file->private_data;

	dcm_watchdog_release(&f->wd);
	dcm_alias_drop_owner(f->ctrl, f);
	put_device(&f->ctrl->dev);
	kvfree(f->buf);
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
 * @handles: ALIAS_CREATE, ALIAS_GET: the answer
 * @alias: ALIAS_CREATE: the new alias
 * @alias_pts: ALIAS_SET: the points
 * @infos: ALIAS_LIST: the answer
 * @members: ALIAS_GET: the answer
 * @room: ALIAS_LIST, ALIAS_GET: the entries the caller has room for, as
 *	far as the kernel takes them
 *
 * DCM_IOC_GET does not come here: it uses the file's buffer
 * (dcm_ioctl_get()).
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
		struct dcm_ioc_read_mode read_mode;
		struct dcm_ioc_alias_list alias_list;
		struct dcm_ioc_alias_get alias_get;
		struct dcm_ioc_alias_delete alias_delete;
	} arg;
	struct dcm_point *pts;
	u32 *handles;
	struct dcm_alias *alias;
	struct dcm_alias_points alias_pts;
	struct dcm_alias_info *infos;
	char (*members)[DCM_KEY_NAME_LEN];
	u32 room;
};

static void dcm_ioc_data_free(struct dcm_ioc_data *d)
{
	kvfree(d->pts);
	kvfree(d->handles);
	dcm_alias_free(d->alias);
	dcm_alias_points_free(&d->alias_pts);
	kvfree(d->infos);
	kvfree(d->members);
}

/* A file sees its own aliases and the shared ones: at most this many. */
#define DCM_ALIAS_LIST_MAX	(2 * DCM_MAX_ALIASES)

/* Step 1 of a command, no lock held: the arrays it reads, room for its answer. */
static long dcm_ioc_set_fetch(struct dcm_ioc_data *d)
{
	struct dcm_ioc_set *set = &d->arg.set;

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
}

static long dcm_ioc_alias_list_fetch(struct dcm_ioc_data *d)
{
	if (d->arg.alias_list.reserved)
		return -EINVAL;
	d->room = min_t(u32, d->arg.alias_list.n, DCM_ALIAS_LIST_MAX);
	if (!d->room)
		return 0;
	d->infos = kvcalloc(d->room, sizeof(*d->infos), GFP_KERNEL);
	return d->infos ? 0 : -ENOMEM;
}

static long dcm_ioc_alias_get_fetch(struct dcm_ioc_data *d)
{
	struct dcm_ioc_alias_get *ag = &d->arg.alias_get;

	d->room = min_t(u32, ag->n_members, DCM_MAX_ALIAS_MEMBERS);
	if (!d->room)
		return 0;
	if (ag->members) {
		d->members = kvcalloc(d->room, sizeof(*d->members), GFP_KERNEL);
		if (!d->members)
			return -ENOMEM;
	}
	if (ag->handles) {
		d->handles = kvcalloc(d->room, sizeof(*d->handles), GFP_KERNEL);
		if (!d->handles)
			return -ENOMEM;
	}
	return 0;
}

static long dcm_ioc_alias_create_fetch(struct dcm_ioc_data *d)
{
	long ret;

	ret = dcm_alias_create_fetch(&d->arg.alias_create, &d->alias);
	if (ret)
		return ret;
	d->handles = kvmalloc_array(d->arg.alias_create.n_members, sizeof(*d->handles),
				    GFP_KERNEL);
	return d->handles ? 0 : -ENOMEM;
}

static long dcm_ioc_alias_set_fetch(struct dcm_ioc_data *d)
{
	return dcm_alias_set_fetch(&d->arg.alias_set, &d->alias_pts);
}

/*
 * A live key's handle index: "<subdevice>/<key>" or "Device/SubDeviceList/
 * <subdevice>/<key>", "Device/DeviceList/<device>/<key>", or
 * "<device>/<key>" when that is no subdevice's key.
 */
static int dcm_lookup_key(const struct dcm_runtime *rt, const char *name, u32 *index)
{
	char path[sizeof(DCM_PREFIX_DEVICE) + DCM_KEY_NAME_LEN];
	struct dcm_keyref ref;

	if (!dcm_model_resolve(rt->model, name, &ref) &&
	    !dcm_runtime_key_index(rt, &ref, index))
		return 0;
	if (!strncmp(name, DCM_DIR_ROOT "/", strlen(DCM_DIR_ROOT "/")))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s%s", DCM_PREFIX_DEVICE, name);
	if (dcm_model_resolve(rt->model, path, &ref))
		return -ENOENT;
	return dcm_runtime_key_index(rt, &ref, index);
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
	if (ret || target != DCM_TARGET_SUBDEVICE) {
		/* ABI 1.4: a live key of a subdevice or device. */
		if (dcm_lookup_key(rt, arg->name, &index))
			return -ENOENT;
		arg->handle = (rt->generation << 16) | index;
		arg->flags = DCM_LOOKUP_F_KEY;
		return 0;
	}
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
	ret = dcm_runtime_handle_any(rt, arg->handle, &sub);
	if (ret)
		return ret;
	/* A live key's handle takes no command. */
	if (sub >= rt->model->n_subdevices || rt->act_of[sub] < 0)
		return -EINVAL;
	ret = dcm_tc_prepare(d->pts, arg->n_points);
	if (!ret)
		ret = dcm_runtime_set(rt, sub, arg->update, d->pts, arg->n_points);
	if (!ret)
		set_bit(sub, touched);
	return ret;
}

/* The most handles one DCM_IOC_GET may name: its old limit, or every handle. */
static u32 dcm_get_limit(struct dcm_controller *ctrl)
{
	struct dcm_runtime *rt;
	u32 limit = DCM_MAX_SUBDEVICES;

	down_read(&ctrl->lock);
	rt = dcm_rt(ctrl);
	if (rt)
		limit = max(limit, rt->n_handles);
	up_read(&ctrl->lock);
	return limit;
}

/*
 * DCM_IOC_GET, without an allocation per call: the handles come into the
 * file's buffer, are checked and turned into indexes under ctrl->lock, the
 * values and times are gathered from the published snapshot under its
 * sequence count into the same buffer, and go out once the lock is
 * dropped. The buffer grows only for a call that needs more than any
 * before (a bigger description).
 */
static long dcm_ioctl_get(struct dcm_file *f, void __user *argp)
{
	struct dcm_controller *ctrl = f->ctrl;
	struct dcm_runtime *rt;
	struct dcm_ioc_get get;
	u32 *index, *times, i;
	s64 *values;
	long ret;

	if (copy_from_user(&get, argp, sizeof(get)))
		return -EFAULT;
	if (get.reserved || !get.n || get.n > dcm_get_limit(ctrl))
		return -EINVAL;
	ret = mutex_lock_interruptible(&f->io_lock);
	if (ret)
		return ret;
	ret = dcm_file_buf(f, array_size(get.n, DCM_GET_ENTRY));
	if (ret)
		goto out;
	/* values first: 8-byte aligned at the buffer's start */
	values = f->buf;
	index = (u32 *)(values + get.n);
	times = index + get.n;
	ret = -EFAULT;
	if (copy_from_user(index, u64_to_user_ptr(get.handles),
			   array_size(get.n, sizeof(*index))))
		goto out;

	down_read(&ctrl->lock);
	rt = dcm_rt(ctrl);
	ret = ctrl->dead ? -ENODEV : rt ? 0 : -ENOENT;
	for (i = 0; !ret && i < get.n; i++)
		ret = dcm_runtime_handle_any(rt, index[i], &index[i]);
	if (!ret)
		dcm_runtime_gather(rt, index, get.n, values, times);
	up_read(&ctrl->lock);
	if (ret)
		goto out;

	/* The copies may fault: not under ctrl->lock (DOC: Locking). */
	if (copy_to_user(u64_to_user_ptr(get.values), values,
			 array_size(get.n, sizeof(*values))) ||
	    copy_to_user(u64_to_user_ptr(get.times), times, array_size(get.n, sizeof(*times))))
		ret = -EFAULT;
out:
	mutex_unlock(&f->io_lock);
	return ret;
}

/* DCM_IOC_READ_MODE: the file's mode, and the sizes that go with it. */
static long dcm_ioctl_read_mode(struct dcm_file *f, struct dcm_ioc_read_mode *arg)
{
	const u32 known = DCM_READ_F_KEYS | DCM_READ_F_SNAPSHOT;
	struct dcm_runtime *rt = dcm_rt(f->ctrl);
	u32 flags, i;

	if ((arg->flags | arg->mask) & ~known)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(arg->reserved); i++)
		if (arg->reserved[i])
			return -EINVAL;
	flags = (READ_ONCE(f->read_flags) & ~arg->mask) | (arg->flags & arg->mask);
	/* Turned on, the snapshot mode waits for the next publication. */
	if ((flags & DCM_READ_F_SNAPSHOT) && !(f->read_flags & DCM_READ_F_SNAPSHOT))
		WRITE_ONCE(f->poll_cycle, rt ? READ_ONCE(rt->snap->hdr->cycle) : 0);
	WRITE_ONCE(f->read_flags, flags);
	memset(arg, 0, sizeof(*arg));
	arg->flags = flags;
	arg->layout = DCM_SNAPSHOT_LAYOUT;
	if (rt) {
		arg->n_subdevices = rt->model->n_subdevices;
		arg->n_handles = rt->n_handles;
		arg->frame_size = dcm_frame_size(f, rt);
		arg->generation = rt->generation;
	}
	return 0;
}

/* Commands through a file: serialized with its watchdog's action. */
static long dcm_ioc_set_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	unsigned long *touched;
	long ret;

	touched = dcm_watchdog_cmd_begin(&f->wd, dcm_rt(f->ctrl));
	if (IS_ERR(touched))
		return PTR_ERR(touched);
	ret = dcm_ioctl_set(f->ctrl, d, touched);
	dcm_watchdog_cmd_end(&f->wd, !ret);
	return ret;
}

static long dcm_ioc_alias_set_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	unsigned long *touched;
	long ret;

	touched = dcm_watchdog_cmd_begin(&f->wd, dcm_rt(f->ctrl));
	if (IS_ERR(touched))
		return PTR_ERR(touched);
	ret = dcm_alias_set(f->ctrl, f, &d->arg.alias_set, &d->alias_pts, touched);
	dcm_watchdog_cmd_end(&f->wd, !ret);
	return ret;
}

/* Step 2 of a command, under ctrl->lock for reading: its answer in @d. */
static long dcm_ioc_version_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	d->arg.version.magic = DCM_ABI_MAGIC;
	d->arg.version.major = DCM_ABI_MAJOR;
	d->arg.version.minor = DCM_ABI_MINOR;
	return 0;
}

static long dcm_ioc_info_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	dcm_fill_info(f->ctrl, &d->arg.info);
	return 0;
}

static long dcm_ioc_lookup_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_ioctl_lookup(f->ctrl, &d->arg.lookup);
}

static long dcm_ioc_alias_create_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	dcm_alias_resolve(f->ctrl, d->alias, d->handles);
	return 0;
}

static long dcm_ioc_time_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	d->arg.time.time = dcm_time_ms(f->ctrl) + (u32)d->arg.time.offset;
	return 0;
}

static long dcm_ioc_read_mode_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_ioctl_read_mode(f, &d->arg.read_mode);
}

static long dcm_ioc_alias_list_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	d->arg.alias_list.n = dcm_alias_list(f->ctrl, f, d->infos, d->room);
	return 0;
}

static long dcm_ioc_alias_get_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_alias_get(f->ctrl, f, &d->arg.alias_get, (char *)d->members, d->handles,
			     d->room);
}

static long dcm_ioc_alias_delete_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_alias_delete(f->ctrl, f, &d->arg.alias_delete);
}

/* STATS_V1, the older number, gets the fields of its size (step 3). */
static long dcm_ioc_stats_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	dcm_cycle_stats(f->ctrl, &d->arg.stats);
	return 0;
}

static long dcm_ioc_cycle_stats_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	u32 flags = d->arg.cycle_stats.flags;

	if (flags & ~DCM_CYCLE_STATS_F_RESET)
		return -EINVAL;
	if ((flags & DCM_CYCLE_STATS_F_RESET) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	dcm_cycle_stats_full(f->ctrl, &d->arg.cycle_stats, flags & DCM_CYCLE_STATS_F_RESET);
	return 0;
}

static long dcm_ioc_watchdog_run(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_watchdog_ioctl(&f->wd, &d->arg.watchdog);
}

/* Step 3 of a command, no lock held: the arrays of its answer to the caller. */
static long dcm_ioc_alias_list_deliver(struct dcm_ioc_data *d)
{
	u32 n = min(d->arg.alias_list.n, d->room);

	if (n && copy_to_user(u64_to_user_ptr(d->arg.alias_list.aliases), d->infos,
			      array_size(n, sizeof(*d->infos))))
		return -EFAULT;
	return 0;
}

static long dcm_ioc_alias_get_deliver(struct dcm_ioc_data *d)
{
	struct dcm_ioc_alias_get *ag = &d->arg.alias_get;
	u32 n = min(ag->n_members, d->room);

	if (n && d->members &&
	    copy_to_user(u64_to_user_ptr(ag->members), d->members,
			 array_size(n, sizeof(*d->members))))
		return -EFAULT;
	if (n && d->handles &&
	    copy_to_user(u64_to_user_ptr(ag->handles), d->handles,
			 array_size(n, sizeof(*d->handles))))
		return -EFAULT;
	return 0;
}

static long dcm_ioc_alias_create_deliver(struct dcm_ioc_data *d)
{
	if (copy_to_user(u64_to_user_ptr(d->arg.alias_create.handles), d->handles,
			 array_size(d->arg.alias_create.n_members, sizeof(*d->handles))))
		return -EFAULT;
	return 0;
}

/* The alias is made once its handles reached the caller. */
static long dcm_ioc_alias_create_install(struct dcm_file *f, struct dcm_ioc_data *d)
{
	return dcm_alias_install(f->ctrl, f, &d->alias);
}

/**
 * struct dcm_ioc_op - what an ioctl of /dev/dcmN is
 * @cmd: its number
 * @size: the bytes of its argument copied in (_IOC_WRITE) and back
 *	(_IOC_READ): _IOC_SIZE(@cmd)
 * @write: only through a file open for writing (else -EBADF): a command
 *	to the robot
 * @arrays_only: its answer is in the arrays that @deliver copies out alone,
 *	the argument is not copied back
 * @direct: the whole ioctl, instead of the steps below (DCM_IOC_GET: its
 *	answer is the file's buffer)
 * @fetch: step 1, no lock held: the arrays it reads, room for its answer
 * @run: step 2, under ctrl->lock for reading: the command, its answer in
 *	the &struct dcm_ioc_data
 * @deliver: step 3, no lock held: the arrays of the answer to the caller,
 *	before the argument itself
 * @install: step 4, under ctrl->lock for reading, once the caller has the
 *	answer
 *
 * Every step but @run may be NULL.
 */
struct dcm_ioc_op {
	unsigned int cmd;
	u32 size;
	bool write;
	bool arrays_only;
	long (*direct)(struct dcm_file *f, void __user *argp);
	long (*fetch)(struct dcm_ioc_data *d);
	long (*run)(struct dcm_file *f, struct dcm_ioc_data *d);
	long (*deliver)(struct dcm_ioc_data *d);
	long (*install)(struct dcm_file *f, struct dcm_ioc_data *d);
};

/* The ioctls of /dev/dcmN (include/uapi/linux/dcm.h), one entry each. */
static const struct dcm_ioc_op dcm_ioc_ops[] = {
	{ .cmd = DCM_IOC_VERSION, .size = _IOC_SIZE(DCM_IOC_VERSION),
	  .run = dcm_ioc_version_run },
	{ .cmd = DCM_IOC_INFO, .size = _IOC_SIZE(DCM_IOC_INFO),
	  .run = dcm_ioc_info_run },
	{ .cmd = DCM_IOC_LOOKUP, .size = _IOC_SIZE(DCM_IOC_LOOKUP),
	  .run = dcm_ioc_lookup_run },
	{ .cmd = DCM_IOC_SET, .size = _IOC_SIZE(DCM_IOC_SET),
	  .write = true,
	  .fetch = dcm_ioc_set_fetch,
	  .run = dcm_ioc_set_run },
	{ .cmd = DCM_IOC_ALIAS_CREATE, .size = _IOC_SIZE(DCM_IOC_ALIAS_CREATE),
	  .write = true,
	  .fetch = dcm_ioc_alias_create_fetch,
	  .run = dcm_ioc_alias_create_run,
	  .deliver = dcm_ioc_alias_create_deliver,
	  .install = dcm_ioc_alias_create_install,
	  .arrays_only = true },
	{ .cmd = DCM_IOC_ALIAS_SET, .size = _IOC_SIZE(DCM_IOC_ALIAS_SET),
	  .write = true,
	  .fetch = dcm_ioc_alias_set_fetch,
	  .run = dcm_ioc_alias_set_run },
	{ .cmd = DCM_IOC_TIME, .size = _IOC_SIZE(DCM_IOC_TIME),
	  .run = dcm_ioc_time_run },
	{ .cmd = DCM_IOC_GET, .size = _IOC_SIZE(DCM_IOC_GET),
	  .direct = dcm_ioctl_get },
	{ .cmd = DCM_IOC_STATS, .size = _IOC_SIZE(DCM_IOC_STATS),
	  .run = dcm_ioc_stats_run },
	{ .cmd = DCM_IOC_STATS_V1, .size = _IOC_SIZE(DCM_IOC_STATS_V1),
	  .run = dcm_ioc_stats_run },
	{ .cmd = DCM_IOC_CYCLE_STATS, .size = _IOC_SIZE(DCM_IOC_CYCLE_STATS),
	  .run = dcm_ioc_cycle_stats_run },
	{ .cmd = DCM_IOC_WATCHDOG, .size = _IOC_SIZE(DCM_IOC_WATCHDOG),
	  .write = true,
	  .run = dcm_ioc_watchdog_run },
	{ .cmd = DCM_IOC_READ_MODE, .size = _IOC_SIZE(DCM_IOC_READ_MODE),
	  .run = dcm_ioc_read_mode_run },
	{ .cmd = DCM_IOC_ALIAS_LIST, .size = _IOC_SIZE(DCM_IOC_ALIAS_LIST),
	  .fetch = dcm_ioc_alias_list_fetch,
	  .run = dcm_ioc_alias_list_run,
	  .deliver = dcm_ioc_alias_list_deliver },
	{ .cmd = DCM_IOC_ALIAS_GET, .size = _IOC_SIZE(DCM_IOC_ALIAS_GET),
	  .fetch = dcm_ioc_alias_get_fetch,
	  .run = dcm_ioc_alias_get_run,
	  .deliver = dcm_ioc_alias_get_deliver },
	{ .cmd = DCM_IOC_ALIAS_DELETE, .size = _IOC_SIZE(DCM_IOC_ALIAS_DELETE),
	  .write = true,
	  .run = dcm_ioc_alias_delete_run },
};

static const struct dcm_ioc_op *dcm_ioc_op_find(unsigned int cmd)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(dcm_ioc_ops); i++)
		if (dcm_ioc_ops[i].cmd == cmd)
			return &dcm_ioc_ops[i];
	return NULL;
}

static long dcm_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dcm_file *f = file->private_data;
	struct dcm_controller *ctrl = f->ctrl;
	void __user *argp = (void __user *)arg;
	struct dcm_ioc_data data = { }, *d = &data;
	const struct dcm_ioc_op *op;
	long ret;

	BUILD_BUG_ON(sizeof(d->arg) > 256);
	BUILD_BUG_ON(_IOC_SIZE(DCM_IOC_STATS_V1) != offsetof(struct dcm_ioc_stats, missed));
	if (READ_ONCE(ctrl->dead))
		return -ENODEV;
	op = dcm_ioc_op_find(cmd);
	if (!op)
		return -ENOTTY;
	if (op->write && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (op->direct)
		return op->direct(f, argp);

	ret = -EFAULT;
	if ((_IOC_DIR(cmd) & _IOC_WRITE) && copy_from_user(&d->arg, argp, op->size))
		goto out;
	ret = op->fetch ? op->fetch(d) : 0;
	if (ret)
		goto out;

	down_read(&ctrl->lock);
	ret = ctrl->dead ? -ENODEV : op->run(f, d);
	up_read(&ctrl->lock);
	if (ret)
		goto out;

	ret = op->deliver ? op->deliver(d) : 0;
	if (ret)
		goto out;
	ret = -EFAULT;
	if ((_IOC_DIR(cmd) & _IOC_READ) && !op->arrays_only &&
	    copy_to_user(argp, &d->arg, op->size))
		goto out;
	ret = 0;
	if (!op->install)
		goto out;
	down_read(&ctrl->lock);
	ret = ctrl->dead ? -ENODEV : op->install(f, d);
	up_read(&ctrl->lock);
out:
	dcm_ioc_data_free(d);
	return ret;
}

/*
 * A cycle newer than the last this file read, or a controller gone. Newer,
 * not different: the cycle publishes its snapshot before it counts itself
 * in ctrl->cycle.count, so a reader can read cycle N + 1 while ctrl->cycle.count is
 * still N, and must not take that for news and read N + 1 again.
 */
static bool dcm_news(struct dcm_file *f)
{
	return READ_ONCE(f->ctrl->cycle.count) > f->last_cycle || READ_ONCE(f->ctrl->dead);
}

/*
 * read(): a frame of the newest cycle, built in the file's buffer under
 * ctrl->lock and copied out after it (no allocation per call: the buffer
 * grows only when a bigger description came).
 */
static ssize_t dcm_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct dcm_file *f = file->private_data;
	struct dcm_controller *ctrl = f->ctrl;
	struct dcm_frame *frame;
	struct dcm_runtime *rt;
	size_t size;
	ssize_t ret;
	u32 time, n;

	/* A buffer that cannot hold the frame fails at once, not after a wait. */
	down_read(&ctrl->lock);
	rt = dcm_rt(ctrl);
	size = rt ? dcm_frame_size(f, rt) : 0;
	up_read(&ctrl->lock);
	if (count < size)
		return -EINVAL;
again:
	for (;;) {
		if (!dcm_news(f)) {
			if (file->f_flags & O_NONBLOCK)
				return -EAGAIN;
			ret = wait_event_interruptible(ctrl->cycle.wq, dcm_news(f));
			if (ret)
				return ret;
		}
		ret = mutex_lock_interruptible(&f->io_lock);
		if (ret)
			return ret;
		down_read(&ctrl->lock);
		if (ctrl->dead) {
			ret = -ENODEV;
			goto out;
		}
		rt = dcm_rt(ctrl);
		if (rt) {
			size = dcm_frame_size(f, rt);
			if (size <= f->buf_size)
				break;
			/* A bigger description: grow the buffer, then look again. */
			up_read(&ctrl->lock);
			ret = dcm_file_buf(f, size);
			mutex_unlock(&f->io_lock);
			if (ret)
				return ret;
			continue;
		}
		/* No description: nothing to frame; wait for one. */
		f->last_cycle = READ_ONCE(ctrl->cycle.count);
		up_read(&ctrl->lock);
		mutex_unlock(&f->io_lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
	}

	ret = -EINVAL;
	if (count < size)
		goto out;
	n = (size - sizeof(*frame)) / sizeof(frame->values[0]);
	frame = f->buf;
	memset(frame, 0, sizeof(*frame));
	frame->n_values = n;
	frame->generation = rt->generation;
	dcm_runtime_read(rt, n, frame->values, NULL, &frame->cycle, &time);
	frame->time = time;
	if (frame->cycle <= f->last_cycle) {
		/*
		 * Not newer than the last frame read (a description that has
		 * not published its first cycle yet): wait for the next one.
		 */
		f->last_cycle = max_t(u64, f->last_cycle, READ_ONCE(ctrl->cycle.count));
		up_read(&ctrl->lock);
		mutex_unlock(&f->io_lock);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		goto again;
	}
	f->last_cycle = frame->cycle;
	up_read(&ctrl->lock);
	/* The copy may fault: not under ctrl->lock (DOC: Locking). */
	ret = copy_to_user(buf, frame, size) ? -EFAULT : size;
	mutex_unlock(&f->io_lock);
	return ret;
out:
	up_read(&ctrl->lock);
	mutex_unlock(&f->io_lock);
	return ret;
}

/*
 * The cycle of the running description's last published snapshot, 0 for
 * none: read in the controller's SRCU section, as dcm_mmap() finds the
 * snapshot, so that poll() takes no dcm lock.
 */
static u64 dcm_published_cycle(struct dcm_controller *ctrl)
{
	struct dcm_runtime *rt;
	u64 cycle = 0;
	int idx;

	idx = srcu_read_lock(&ctrl->srcu);
	rt = srcu_dereference(ctrl->desc.rt, &ctrl->srcu);
	if (rt)
		cycle = READ_ONCE(rt->snap->hdr->cycle);
	srcu_read_unlock(&ctrl->srcu, idx);
	return cycle;
}

/*
 * DCM_READ_F_SNAPSHOT: a snapshot published since the last poll() that
 * said so. The poll that reports it takes it, so that a client of the
 * mapped snapshot wakes once per cycle without read(). The snapshot's own
 * cycle is compared, not the controller's count, which moves on only
 * after the publication.
 */
static bool dcm_snapshot_news(struct dcm_file *f)
{
	u64 seen = READ_ONCE(f->poll_cycle), now = dcm_published_cycle(f->ctrl);

	return now != seen && cmpxchg64(&f->poll_cycle, seen, now) == seen;
}

static __poll_t dcm_poll(struct file *file, poll_table *wait)
{
	struct dcm_file *f = file->private_data;
	bool news;

	poll_wait(file, &f->ctrl->cycle.wq, wait);
	if (READ_ONCE(f->ctrl->dead))
		return EPOLLERR | EPOLLHUP;
	if (READ_ONCE(f->read_flags) & DCM_READ_F_SNAPSHOT)
		news = dcm_snapshot_news(f);
	else
		news = dcm_news(f);
	return news ? EPOLLIN | EPOLLRDNORM : 0;
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
	rt = READ_ONCE(ctrl->dead) ? NULL : srcu_dereference(ctrl->desc.rt, &ctrl->srcu);
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
