// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the key tree in sysfs: the key "Device/<path>" of the running
 * description is the file /sys/class/dcm/dcmN/<path>, RobotConfig keys are
 * under /sys/class/dcm/dcmN/RobotConfig/.
 *
 * Every directory is a kobject; every key a file whose attribute knows the
 * key it shows. A tree is built whole for a description before that
 * description replaces the running one, and removed whole after: removal
 * waits for the reads in progress, so a file never shows a freed model.
 */

#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "core/dcm_controller.h"
#include "faces/dcm_faces.h"
#include "model/dcm_fixed.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "core/dcm_describe.h"
#include "core/dcm_time.h"

struct dcm_dir {
	struct kobject kobj;
	struct dcm_tree *tree;
	struct list_head children;
	struct list_head sibling;
};

struct dcm_key_attr {
	struct attribute attr;
	struct dcm_keyref ref;
};

/**
 * struct dcm_tree - the sysfs face of one description
 * @ctrl: its controller
 * @model: the description it shows
 * @roots: DeviceList, SubDeviceList, RobotConfig
 * @attrs: every file's attribute, @n_attrs of them
 * @n_attrs: count
 */
struct dcm_tree {
	struct dcm_controller *ctrl;
	struct dcm_model *model;
	struct dcm_dir *roots[3];
	struct dcm_key_attr *attrs;
	u32 n_attrs;
};

static void dcm_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct dcm_dir, kobj));
}

/*
 * Ack, Nack, Error and Available live in the running state. A subdevice
 * shows its device's counters (the boards count per device, seed 000);
 * errors and Available are on the device.
 */
static ssize_t show_runtime_key(struct dcm_tree *tree, u32 key, u32 dev, bool is_dev,
				char *buf)
{
	struct dcm_controller *ctrl = tree->ctrl;
	struct dcm_runtime *rt;
	u64 ack = 0, nack = 0;
	bool available = false;
	ssize_t len = 0;

	down_read(&ctrl->lock);
	rt = ctrl->dead ? NULL : dcm_rt(ctrl);
	if (rt && rt->model == tree->model) {
		if (key == DCM_KEY_AVAILABLE)
			available = dcm_runtime_available(rt, dev);
		else if (key != DCM_KEY_ERROR)
			dcm_runtime_counters(rt, dev, &ack, &nack);
		else if (is_dev)
			len = dcm_runtime_errors(rt, dev, dcm_time_ms(ctrl), buf, PAGE_SIZE);
	}
	up_read(&ctrl->lock);
	if (key == DCM_KEY_ERROR)
		return len;
	if (key == DCM_KEY_AVAILABLE)
		return sysfs_emit(buf, "%d\n", available);
	return sysfs_emit(buf, "%llu\n", key == DCM_KEY_ACK ? ack : nack);
}

static ssize_t dcm_key_show(struct kobject *kobj, struct attribute *attr, char *buf);
static ssize_t dcm_key_store(struct kobject *kobj, struct attribute *attr,
			     const char *buf, size_t len);

static const struct sysfs_ops dcm_key_sysfs_ops = {
	.show = dcm_key_show,
	.store = dcm_key_store,
};

/*
 * Every directory and key file belongs to root and to the group that may
 * command the robot (dcm.gid): actuator Value files are 0664, so that the
 * group commands; configuration keys stay 0644, and need CAP_NET_ADMIN
 * anyway.
 */
static void dcm_dir_get_ownership(struct kobject *kobj, kuid_t *uid, kgid_t *gid)
{
	*uid = GLOBAL_ROOT_UID;
	*gid = dcm_command_gid();
}

static const struct kobj_type dcm_dir_ktype = {
	.release = dcm_dir_release,
	.sysfs_ops = &dcm_key_sysfs_ops,
	.get_ownership = dcm_dir_get_ownership,
};

static ssize_t emit_value(char *buf, u8 kind, s64 num)
{
	char text[DCM_FIXED_TEXT_LEN];

	if (kind == DCM_KEY_KIND_FLOAT) {
		dcm_fixed_format(num, text, sizeof(text));
		return sysfs_emit(buf, "%s\n", text);
	}
	return sysfs_emit(buf, "%lld\n", num);
}

/*
 * A subdevice's Value: from the snapshot the cycle last published, as
 * read(), DCM_IOC_GET and mmap() give it. A description that does not run
 * (its tree not yet in place, or the controller gone) shows the Value it
 * was given.
 */
static ssize_t show_value(struct dcm_tree *tree, u32 sub, u8 kind, char *buf)
{
	struct dcm_controller *ctrl = tree->ctrl;
	struct dcm_runtime *rt;
	s64 value = tree->model->subdevices[sub].value;
	u32 time;

	down_read(&ctrl->lock);
	rt = ctrl->dead ? NULL : dcm_rt(ctrl);
	if (rt && rt->model == tree->model)
		dcm_runtime_gather(rt, &sub, 1, &value, &time);
	up_read(&ctrl->lock);
	return emit_value(buf, kind, value);
}

/*
 * A number key: a live one (with a handle: what a board reports) from the
 * snapshot, in micro-units there for every kind; the others, and the live
 * ones of a description that does not run, from the model.
 */
static ssize_t show_number(struct dcm_tree *tree, const struct dcm_keyref *ref, u8 kind,
			   const union dcm_value *v, char *buf)
{
	struct dcm_controller *ctrl = tree->ctrl;
	struct dcm_runtime *rt;
	s64 num = READ_ONCE(v->num);
	bool live = false;
	u32 index, time;

	down_read(&ctrl->lock);
	rt = ctrl->dead ? NULL : dcm_rt(ctrl);
	if (rt && rt->model == tree->model && !dcm_runtime_key_index(rt, ref, &index)) {
		dcm_runtime_gather(rt, &index, 1, &num, &time);
		live = true;
	}
	up_read(&ctrl->lock);
	/* Past what micro-units hold, the snapshot saturates: the model's, then. */
	if (live && kind != DCM_KEY_KIND_FLOAT) {
		if (num == S64_MAX || num == S64_MIN)
			num = READ_ONCE(v->num);
		else
			num = div_s64(num, DCM_MICRO);
	}
	return emit_value(buf, kind, num);
}

static ssize_t dcm_key_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct dcm_tree *tree = container_of(kobj, struct dcm_dir, kobj)->tree;
	struct dcm_keyref *ref = &container_of(attr, struct dcm_key_attr, attr)->ref;
	struct dcm_model *m = tree->model;
	const struct dcm_subdevice *s = NULL;
	const struct dcm_device *d;
	union dcm_value *v;
	u8 kind;
	ssize_t ret;

	kind = dcm_keyref_kind(m, ref);
	if (ref->target == DCM_TARGET_ROBOT) {
		v = &m->robot_keys[ref->index].value;
		goto typed;
	}
	if (ref->target == DCM_TARGET_SUBDEVICE) {
		s = &m->subdevices[ref->index];
		d = &m->devices[s->device];
	} else {
		d = &m->devices[ref->index];
	}
	if (ref->key >= DCM_KEY_TYPED) {
		v = s ? &s->keys[ref->key - DCM_KEY_TYPED] : &d->keys[ref->key - DCM_KEY_TYPED];
		goto typed;
	}

	switch (ref->key) {
	case DCM_KEY_VALUE:
		return show_value(tree, ref->index, kind, buf);
	case DCM_KEY_GAIN:
		return emit_value(buf, kind, dcm_model_gain(s));
	case DCM_KEY_OFFSET:
		return emit_value(buf, kind, s->offset);
	case DCM_KEY_MIN:
		return emit_value(buf, kind, s->min);
	case DCM_KEY_MAX:
		return emit_value(buf, kind, s->max);
	case DCM_KEY_ACK:
	case DCM_KEY_NACK:
	case DCM_KEY_ERROR:
	case DCM_KEY_AVAILABLE:
		return show_runtime_key(tree, ref->key, s ? s->device : ref->index, !s, buf);
	case DCM_KEY_TYPE:
		return sysfs_emit(buf, "%s\n", s ? s->type->name : d->type->name);
	case DCM_KEY_DEVICE:
		return sysfs_emit(buf, "%s\n", d->name);
	case DCM_KEY_SUBDEVICENUMBER:
		return emit_value(buf, kind, s->number);
	case DCM_KEY_BUS:
		return sysfs_emit(buf, "%s\n", d->bus);
	case DCM_KEY_ADDRESS:
		return emit_value(buf, kind, d->address);
	}
	return -EIO;

typed:
	if (kind != DCM_KEY_KIND_STRING)
		return ref->target == DCM_TARGET_ROBOT ? emit_value(buf, kind, READ_ONCE(v->num)) :
		       show_number(tree, ref, kind, v, buf);
	mutex_lock(&tree->ctrl->desc.keys_lock);
	ret = sysfs_emit(buf, "%s\n", v->str ?: "");
	mutex_unlock(&tree->ctrl->desc.keys_lock);
	return ret;
}

/* A number written to an actuator's Value: a ClearAll command, now. */
static ssize_t command_store(struct dcm_tree *tree, u32 sub, const char *buf, size_t len)
{
	struct dcm_controller *ctrl = tree->ctrl;
	struct dcm_point p = { };
	struct dcm_runtime *rt;
	int ret;

	ret = dcm_fixed_parse(buf, &p.value);
	if (ret)
		return ret;
	down_read(&ctrl->lock);
	rt = ctrl->dead ? NULL : dcm_rt(ctrl);
	if (!rt || rt->model != tree->model) {
		ret = -ENODEV;
	} else {
		p.time = dcm_time_ms(ctrl);
		ret = dcm_runtime_set(rt, sub, DCM_UPDATE_CLEAR_ALL, &p, 1);
	}
	up_read(&ctrl->lock);
	return ret ?: len;
}

/*
 * An actuator's Value takes a command from whoever may open it for writing
 * (root and the dcm.gid group); a configuration key of the running
 * description takes a value from CAP_NET_ADMIN only, whatever its mode.
 */
static ssize_t dcm_key_store(struct kobject *kobj, struct attribute *attr,
			     const char *buf, size_t len)
{
	struct dcm_tree *tree = container_of(kobj, struct dcm_dir, kobj)->tree;
	struct dcm_keyref *ref = &container_of(attr, struct dcm_key_attr, attr)->ref;
	struct dcm_model *m = tree->model;
	const struct dcm_key_desc *desc;
	union dcm_value *v;
	char *str, *nl;
	s64 num;
	int ret;

	/* A NUL inside the write would cut it there: "1\0garbage" is no number. */
	if (memchr(buf, '\0', len))
		return -EINVAL;
	if (ref->target == DCM_TARGET_SUBDEVICE && ref->key == DCM_KEY_VALUE)
		return command_store(tree, ref->index, buf, len);
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	/* Only DCM_KEY_CONFIG keys have a write bit, only those get here. */
	if (ref->target == DCM_TARGET_ROBOT || ref->key < DCM_KEY_TYPED)
		return -EPERM;
	if (ref->target == DCM_TARGET_SUBDEVICE) {
		desc = &m->subdevices[ref->index].type->keys[ref->key - DCM_KEY_TYPED];
		v = &m->subdevices[ref->index].keys[ref->key - DCM_KEY_TYPED];
	} else {
		desc = &m->devices[ref->index].type->keys[ref->key - DCM_KEY_TYPED];
		v = &m->devices[ref->index].keys[ref->key - DCM_KEY_TYPED];
	}

	switch (desc->kind) {
	case DCM_KEY_KIND_STRING:
		if (len >= DCM_MAX_STRING_LEN)
			return -EINVAL;
		str = kstrndup(buf, len, GFP_KERNEL);
		if (!str)
			return -ENOMEM;
		nl = strchr(str, '\n');
		if (nl && !nl[1])
			*nl = '\0';
		if (!dcm_string_ok(str)) {
			kfree(str);
			return -EINVAL;
		}
		mutex_lock(&tree->ctrl->desc.keys_lock);
		swap(v->str, str);
		mutex_unlock(&tree->ctrl->desc.keys_lock);
		kfree(str);
		return len;
	case DCM_KEY_KIND_FLOAT:
		ret = dcm_fixed_parse(buf, &num);
		break;
	default:
		ret = dcm_int_parse(buf, &num);
		break;
	}
	if (ret)
		return ret;
	if (desc->kind == DCM_KEY_KIND_BOOL && num != 0 && num != 1)
		return -EINVAL;
	if (!dcm_key_desc_in_range(desc, num))
		return -ERANGE;
	WRITE_ONCE(v->num, num);
	return len;
}

static struct dcm_dir *dir_new(struct dcm_tree *tree, struct kobject *parent,
			       const char *name)
{
	struct dcm_dir *dir = kzalloc(sizeof(*dir), GFP_KERNEL);

	if (!dir)
		return NULL;
	dir->tree = tree;
	INIT_LIST_HEAD(&dir->children);
	INIT_LIST_HEAD(&dir->sibling);
	if (kobject_init_and_add(&dir->kobj, &dcm_dir_ktype, parent, "%s", name)) {
		kobject_put(&dir->kobj);
		return NULL;
	}
	return dir;
}

/* The directory for @path below @root, created as needed (mkdir -p). */
static struct dcm_dir *dir_path(struct dcm_tree *tree, struct dcm_dir *root,
				const char *path, size_t len)
{
	struct dcm_dir *dir = root, *child;
	char part[DCM_MAX_NAME_LEN];
	size_t start = 0, i, n;

	for (i = 0; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		n = i - start;
		if (!n || n >= sizeof(part))
			return NULL;
		memcpy(part, path + start, n);
		part[n] = '\0';
		start = i + 1;

		list_for_each_entry(child, &dir->children, sibling)
			if (!strcmp(kobject_name(&child->kobj), part))
				goto found;
		child = dir_new(tree, &dir->kobj, part);
		if (!child)
			return NULL;
		list_add_tail(&child->sibling, &dir->children);
found:
		dir = child;
	}
	return dir;
}

/* Children first, then the directory itself. */
static void dir_remove(struct dcm_dir *dir)
{
	struct dcm_dir *child, *tmp;

	list_for_each_entry_safe(child, tmp, &dir->children, sibling)
		dir_remove(child);
	kobject_put(&dir->kobj);
}

static umode_t key_mode(const struct dcm_model *m, const struct dcm_keyref *ref)
{
	const struct dcm_key_desc *desc;

	if (ref->target == DCM_TARGET_SUBDEVICE && ref->key == DCM_KEY_VALUE &&
	    m->subdevices[ref->index].type->flags & DCM_SUB_ACTUATOR)
		return 0664;
	if (ref->target == DCM_TARGET_ROBOT || ref->key < DCM_KEY_TYPED)
		return 0444;
	if (ref->target == DCM_TARGET_SUBDEVICE)
		desc = &m->subdevices[ref->index].type->keys[ref->key - DCM_KEY_TYPED];
	else
		desc = &m->devices[ref->index].type->keys[ref->key - DCM_KEY_TYPED];
	return desc->flags & DCM_KEY_CONFIG ? 0644 : 0444;
}

static int add_file(struct dcm_tree *tree, struct dcm_dir *dir, const char *name,
		    u8 target, u32 index, u32 key)
{
	struct dcm_key_attr *a = &tree->attrs[tree->n_attrs];

	sysfs_attr_init(&a->attr);
	a->attr.name = name;
	a->ref.target = target;
	a->ref.index = index;
	a->ref.key = key;
	a->attr.mode = key_mode(tree->model, &a->ref);
	tree->n_attrs++;
	return sysfs_create_file(&dir->kobj, &a->attr);
}

/* Files for the standard keys of a device or subdevice, then its typed keys. */
static int add_keys(struct dcm_tree *tree, struct dcm_dir *dir, u8 target, u32 index,
		    const struct dcm_key_desc *keys, u32 n_keys)
{
	u32 k;
	int ret;

	for (k = 0; k < DCM_KEY_TYPED + n_keys; k++) {
		if (k < DCM_KEY_TYPED && !dcm_std_key_applies(target, k))
			continue;
		ret = add_file(tree, dir, k < DCM_KEY_TYPED ? dcm_std_key_name(k) :
			       keys[k - DCM_KEY_TYPED].name, target, index, k);
		if (ret)
			return ret;
	}
	return 0;
}

static const char * const root_names[3] = {
	DCM_DIR_DEVICES, DCM_DIR_SUBDEVICES, DCM_DIR_ROBOTCONFIG
};

static void dcm_tree_remove(struct dcm_tree *tree);

/* Where a tree is built before it replaces the running one. */
#define STAGING_PREFIX ".staging-"

/**
 * dcm_tree_build() - the sysfs files of a description, under a controller
 * @ctrl: the controller whose device holds the tree
 * @m: the description, checked by dcm_model_check(); it must outlive the tree
 * @staging: build the top directories under hidden names, for
 *	dcm_tree_publish() to rename once the running tree is gone
 *
 * Context: process; takes no dcm lock.
 *
 * Return: the tree, or an ERR_PTR (-ENOMEM, or what sysfs answered);
 * nothing is left behind on failure.
 */
static struct dcm_tree *dcm_tree_build(struct dcm_controller *ctrl, struct dcm_model *m,
				       bool staging)
{
	char root[32];
	struct dcm_tree *tree;
	u32 i, n_files;
	int ret = -ENOMEM;

	tree = kzalloc(sizeof(*tree), GFP_KERNEL);
	if (!tree)
		return ERR_PTR(-ENOMEM);
	tree->ctrl = ctrl;
	tree->model = m;

	n_files = m->n_robot_keys;
	for (i = 0; i < m->n_devices; i++)
		n_files += DCM_KEY_TYPED + m->devices[i].type->n_keys;
	for (i = 0; i < m->n_subdevices; i++)
		n_files += DCM_KEY_TYPED + m->subdevices[i].type->n_keys;
	tree->attrs = kvcalloc(n_files, sizeof(*tree->attrs), GFP_KERNEL);
	if (!tree->attrs)
		goto err;

	for (i = 0; i < 3; i++) {
		snprintf(root, sizeof(root), "%s%s", staging ? STAGING_PREFIX : "", root_names[i]);
		tree->roots[i] = dir_new(tree, &ctrl->dev.kobj, root);
		if (!tree->roots[i])
			goto err;
	}

	for (i = 0; i < m->n_devices; i++) {
		struct dcm_device *d = &m->devices[i];
		struct dcm_dir *dir = dir_path(tree, tree->roots[0], d->name, strlen(d->name));

		ret = dir ? add_keys(tree, dir, DCM_TARGET_DEVICE, i, d->type->keys,
				     d->type->n_keys) : -ENOMEM;
		if (ret)
			goto err;
	}
	for (i = 0; i < m->n_subdevices; i++) {
		struct dcm_subdevice *s = &m->subdevices[i];
		struct dcm_dir *dir = dir_path(tree, tree->roots[1], s->name, strlen(s->name));

		ret = dir ? add_keys(tree, dir, DCM_TARGET_SUBDEVICE, i, s->type->keys,
				     s->type->n_keys) : -ENOMEM;
		if (ret)
			goto err;
	}
	for (i = 0; i < m->n_robot_keys; i++) {
		const char *path = m->robot_keys[i].path + strlen(DCM_PREFIX_ROBOTCONFIG);
		const char *leaf = strrchr(path, '/');
		struct dcm_dir *dir = leaf ? dir_path(tree, tree->roots[2], path, leaf - path)
					   : tree->roots[2];

		ret = dir ? add_file(tree, dir, leaf ? leaf + 1 : path, DCM_TARGET_ROBOT, i, 0)
			  : -ENOMEM;
		if (ret)
			goto err;
	}
	return tree;

err:
	dcm_tree_remove(tree);
	return ERR_PTR(ret);
}

/**
 * dcm_tree_publish() - give a tree built for staging its final names
 * @tree: built by dcm_tree_build() with @staging set
 *
 * Call it once the running tree is removed.
 *
 * Return: 0, or -ENOMEM; the tree is then still whole under its hidden
 * names, for dcm_tree_remove().
 */
static int dcm_tree_publish(struct dcm_tree *tree)
{
	int i, ret;

	for (i = 0; i < 3; i++) {
		ret = kobject_rename(&tree->roots[i]->kobj, root_names[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * dcm_tree_remove() - remove and free a tree built by dcm_tree_build()
 * @tree: the tree, or NULL
 *
 * Returns once no read or write of its files is in progress. Context:
 * process, without the controller's lock, which those reads and writes
 * take (DOC: Locking).
 */
static void dcm_tree_remove(struct dcm_tree *tree)
{
	int i;

	if (!tree)
		return;
	lockdep_assert_not_held(&tree->ctrl->lock);
	for (i = 0; i < 3; i++)
		if (tree->roots[i])
			dir_remove(tree->roots[i]);
	kvfree(tree->attrs);
	kfree(tree);
}

static const struct dcm_tree_ops dcm_sysfs_tree_ops = {
	.build = dcm_tree_build,
	.publish = dcm_tree_publish,
	.remove = dcm_tree_remove,
};

/**
 * dcm_sysfs_init() - give the core the sysfs key tree, for every description
 *	it runs (dcm_describe_replace())
 */
void dcm_sysfs_init(void)
{
	dcm_describe_set_tree_ops(&dcm_sysfs_tree_ops);
}
