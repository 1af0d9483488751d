// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - aliases: named lists of actuators that take timed commands in one
 * call (NAOqi's createAlias / setAlias), time-mixed or time-separate.
 *
 * An alias belongs to the open file that created it (its owner), unless
 * it was created shared (DCM_ALIAS_F_SHARED): then it belongs to the
 * controller. A name is found among the file's own aliases first, then
 * among the shared ones; a file's own aliases are freed when it is closed
 * (dcm_alias_drop_owner()), shared ones when deleted or when the
 * controller goes. Each owner, and the shared set, has DCM_MAX_ALIASES
 * slots. Members are kept by name and resolved against the running
 * description at each set, so an alias stays right when the description is
 * replaced.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core/dcm_controller.h"
#include "core/dcm_runtime.h"
#include "core/dcm_alias.h"

/* Points one alias set may carry in all, to bound its memory. */
#define DCM_ALIAS_MAX_POINTS	(64 * 1024)

/**
 * struct dcm_alias - a named list of actuators
 * @node: in the controller's list of aliases
 * @owner: the open file it belongs to, or NULL for a shared alias
 * @shared: created with DCM_ALIAS_F_SHARED
 * @name: its name
 * @n: members
 * @members: their names, as given
 */
struct dcm_alias {
	struct list_head node;
	const void *owner;
	bool shared;
	char name[DCM_ALIAS_NAME_LEN];
	u32 n;
	char (*members)[DCM_KEY_NAME_LEN];
};

static void alias_free(struct dcm_alias *a)
{
	if (a)
		kvfree(a->members);
	kfree(a);
}

/* The actuator a member name designates in the running description, or U32_MAX. */
static u32 resolve_member(struct dcm_runtime *rt, const char *name)
{
	struct dcm_model *m;
	char buf[DCM_KEY_NAME_LEN];
	size_t len;
	u8 target;
	u32 index;

	if (!rt)
		return U32_MAX;
	m = rt->model;
	if (dcm_model_lookup(m, name, &target, &index)) {
		/* "HeadPitch/Position/Actuator/Value" names the actuator too. */
		len = strlen(name);
		if (len < 6 || strcmp(name + len - 6, "/Value"))
			return U32_MAX;
		memcpy(buf, name, len - 6);
		buf[len - 6] = '\0';
		if (dcm_model_lookup(m, buf, &target, &index))
			return U32_MAX;
	}
	if (target != DCM_TARGET_SUBDEVICE || rt->act_of[index] < 0)
		return U32_MAX;
	return index;
}

/* A member's handle in the running description, 0 for a blank one. */
static u32 member_handle(struct dcm_runtime *rt, const char *name)
{
	u32 index = resolve_member(rt, name);

	return index == U32_MAX ? 0 : (rt->generation << 16) | index;
}

/* The alias @owner has under @name (NULL: the shared one), or NULL. */
static struct dcm_alias *alias_of(struct dcm_controller *ctrl, const void *owner,
				  const char *name)
{
	struct dcm_alias *a;

	list_for_each_entry(a, &ctrl->aliases.list, node)
		if (a->owner == owner && !strcmp(a->name, name))
			return a;
	return NULL;
}

/*
 * The alias a file designates by @name: its own first, then the shared
 * one; with @shared_only, the shared one only. Under the controller's
 * aliases.lock.
 */
static struct dcm_alias *alias_find(struct dcm_controller *ctrl, const void *owner,
				    const char *name, bool shared_only)
{
	struct dcm_alias *a = NULL;

	lockdep_assert_held(&ctrl->aliases.lock);
	if (!shared_only && owner)
		a = alias_of(ctrl, owner, name);
	return a ?: alias_of(ctrl, NULL, name);
}

/* The aliases @owner has (NULL: the shared ones). */
static u32 alias_count(struct dcm_controller *ctrl, const void *owner)
{
	struct dcm_alias *a;
	u32 n = 0;

	list_for_each_entry(a, &ctrl->aliases.list, node)
		n += a->owner == owner;
	return n;
}

static bool name_ok(const char *s, size_t size)
{
	size_t len = strnlen(s, size);

	return len > 0 && len < size;
}

/**
 * dcm_alias_create_fetch() - DCM_IOC_ALIAS_CREATE's input, from the caller
 * @arg: the request, copied in
 * @ap: the new alias, not yet installed (dcm_alias_install())
 *
 * Context: process, no dcm lock held: the copy may fault (DOC: Locking).
 *
 * Return: 0, -EFAULT, -EINVAL (bad names or counts), -ENOMEM.
 */
int dcm_alias_create_fetch(const struct dcm_ioc_alias_create *arg, struct dcm_alias **ap)
{
	struct dcm_alias *a;
	u32 i;
	int ret;

	*ap = NULL;
	if (!name_ok(arg->name, sizeof(arg->name)) || (arg->flags & ~DCM_ALIAS_F_SHARED) ||
	    !arg->n_members || arg->n_members > DCM_MAX_ALIAS_MEMBERS)
		return -EINVAL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	INIT_LIST_HEAD(&a->node);
	a->shared = arg->flags & DCM_ALIAS_F_SHARED;
	strscpy(a->name, arg->name, sizeof(a->name));
	a->n = arg->n_members;
	a->members = kvmalloc_array(a->n, sizeof(*a->members), GFP_KERNEL);
	ret = -ENOMEM;
	if (!a->members)
		goto err;
	ret = -EFAULT;
	if (copy_from_user(a->members, u64_to_user_ptr(arg->members),
			   array_size(a->n, sizeof(*a->members))))
		goto err;
	/*
	 * A name that fills its slot without a NUL names no key: the member is
	 * blank, as for an unknown name (NAOqi's createAlias does the same).
	 */
	for (i = 0; i < a->n; i++)
		if (strnlen(a->members[i], DCM_KEY_NAME_LEN) == DCM_KEY_NAME_LEN)
			a->members[i][0] = '\0';
	*ap = a;
	return 0;
err:
	alias_free(a);
	return ret;
}

/**
 * dcm_alias_resolve() - the handles of a new alias's members, for the caller
 * @ctrl: the controller, its lock held for reading
 * @a: the alias, from dcm_alias_create_fetch()
 * @handles: @a's member count of them: each member's handle, 0 for a name
 *	that is no actuator of the running description
 */
void dcm_alias_resolve(struct dcm_controller *ctrl, const struct dcm_alias *a, u32 *handles)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	u32 i;

	lockdep_assert_held(&ctrl->lock);
	for (i = 0; i < a->n; i++)
		handles[i] = member_handle(rt, a->members[i]);
}

/**
 * dcm_alias_install() - DCM_IOC_ALIAS_CREATE's end: the alias takes its slot
 * @ctrl: the controller, its lock held for reading and not dead
 * @owner: the open file that creates it; a shared alias gets none
 * @ap: the alias; it replaces the one of the same name and owner, which
 *	*@ap then holds for dcm_alias_free(), or NULL
 *
 * Return: 0, or -ENOSPC (the owner's DCM_MAX_ALIASES, or the controller's
 * shared ones, all taken; *@ap unchanged).
 */
int dcm_alias_install(struct dcm_controller *ctrl, const void *owner, struct dcm_alias **ap)
{
	struct dcm_alias *a = *ap, *old;
	int ret = 0;

	lockdep_assert_held(&ctrl->lock);
	a->owner = a->shared ? NULL : owner;
	mutex_lock(&ctrl->aliases.lock);
	old = alias_of(ctrl, a->owner, a->name);
	if (old) {
		list_replace(&old->node, &a->node);
		INIT_LIST_HEAD(&old->node);
		*ap = old;
	} else if (alias_count(ctrl, a->owner) >= DCM_MAX_ALIASES) {
		ret = -ENOSPC;
	} else {
		list_add_tail(&a->node, &ctrl->aliases.list);
		*ap = NULL;
	}
	mutex_unlock(&ctrl->aliases.lock);
	return ret;
}

/**
 * dcm_alias_list() - DCM_IOC_ALIAS_LIST: the aliases a file sees
 * @ctrl: the controller
 * @owner: the open file
 * @out: room for @room entries, filled with the first ones
 * @room: how many
 *
 * The file's own aliases, then the shared ones its own do not hide.
 * Context: process; takes the controller's aliases.lock.
 *
 * Return: how many aliases the file sees.
 */
u32 dcm_alias_list(struct dcm_controller *ctrl, const void *owner, struct dcm_alias_info *out,
		   u32 room)
{
	struct dcm_alias *a;
	u32 n = 0, pass;

	mutex_lock(&ctrl->aliases.lock);
	for (pass = 0; pass < 2; pass++) {
		list_for_each_entry(a, &ctrl->aliases.list, node) {
			if (pass ? a->owner || (owner && alias_of(ctrl, owner, a->name)) :
			    !owner || a->owner != owner)
				continue;
			if (n < room) {
				memset(&out[n], 0, sizeof(out[n]));
				strscpy(out[n].name, a->name, sizeof(out[n].name));
				out[n].n_members = a->n;
				out[n].flags = a->owner ? 0 : DCM_ALIAS_F_SHARED;
			}
			n++;
		}
	}
	mutex_unlock(&ctrl->aliases.lock);
	return n;
}

/**
 * dcm_alias_get() - DCM_IOC_ALIAS_GET: an alias's members
 * @ctrl: the controller, its lock held for reading
 * @owner: the open file
 * @arg: the request: @arg->name, @arg->flags; its @flags and @n_members
 *	are set to the alias's
 * @members: room for @room member names of DCM_KEY_NAME_LEN bytes each,
 *	the first filled, or NULL
 * @handles: room for @room handles, the first filled, or NULL
 * @room: how many
 *
 * Return: 0, -ENOENT (no such alias for this file), -EINVAL (the name or
 * flags).
 */
int dcm_alias_get(struct dcm_controller *ctrl, const void *owner, struct dcm_ioc_alias_get *arg,
		  char *members, u32 *handles, u32 room)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	struct dcm_alias *a;
	u32 i;

	lockdep_assert_held(&ctrl->lock);
	if (!name_ok(arg->name, sizeof(arg->name)) || (arg->flags & ~DCM_ALIAS_F_SHARED))
		return -EINVAL;
	mutex_lock(&ctrl->aliases.lock);
	a = alias_find(ctrl, owner, arg->name, arg->flags & DCM_ALIAS_F_SHARED);
	if (!a) {
		mutex_unlock(&ctrl->aliases.lock);
		return -ENOENT;
	}
	arg->flags = a->owner ? 0 : DCM_ALIAS_F_SHARED;
	arg->n_members = a->n;
	for (i = 0; i < a->n && i < room; i++) {
		if (members)
			memcpy(members + i * DCM_KEY_NAME_LEN, a->members[i], DCM_KEY_NAME_LEN);
		if (handles)
			handles[i] = member_handle(rt, a->members[i]);
	}
	mutex_unlock(&ctrl->aliases.lock);
	return 0;
}

/**
 * dcm_alias_delete() - DCM_IOC_ALIAS_DELETE: free an alias and its slot
 * @ctrl: the controller
 * @owner: the open file
 * @arg: the request
 *
 * Return: 0, -ENOENT (no such alias for this file), -EINVAL.
 */
int dcm_alias_delete(struct dcm_controller *ctrl, const void *owner,
		     const struct dcm_ioc_alias_delete *arg)
{
	struct dcm_alias *a;

	if (!name_ok(arg->name, sizeof(arg->name)) || (arg->flags & ~DCM_ALIAS_F_SHARED) ||
	    arg->reserved)
		return -EINVAL;
	mutex_lock(&ctrl->aliases.lock);
	a = alias_find(ctrl, owner, arg->name, arg->flags & DCM_ALIAS_F_SHARED);
	if (a)
		list_del(&a->node);
	mutex_unlock(&ctrl->aliases.lock);
	alias_free(a);
	return a ? 0 : -ENOENT;
}

/**
 * dcm_alias_drop_owner() - free the aliases of a file being closed
 * @ctrl: the controller
 * @owner: the file
 *
 * Its slots are free again; shared aliases it created stay.
 */
void dcm_alias_drop_owner(struct dcm_controller *ctrl, const void *owner)
{
	struct dcm_alias *a, *tmp;
	LIST_HEAD(gone);

	mutex_lock(&ctrl->aliases.lock);
	list_for_each_entry_safe(a, tmp, &ctrl->aliases.list, node)
		if (a->owner == owner)
			list_move(&a->node, &gone);
	mutex_unlock(&ctrl->aliases.lock);
	list_for_each_entry_safe(a, tmp, &gone, node)
		alias_free(a);
}

/**
 * dcm_alias_free() - free an alias that no controller holds
 * @a: the alias, or NULL
 */
void dcm_alias_free(struct dcm_alias *a)
{
	alias_free(a);
}

/* Each member's points, from a time-separate set: values[member][time]. */
static int separate_points(const struct dcm_ioc_alias_set *arg, struct dcm_point *pts)
{
	u32 *times;
	s64 *values;
	u32 m, t;
	int ret = -ENOMEM;

	times = kvmalloc_array(arg->n_times, sizeof(*times), GFP_KERNEL);
	values = kvmalloc_array(arg->n_times, array_size(arg->n_members, sizeof(*values)),
				GFP_KERNEL);
	if (!times || !values)
		goto out;
	ret = -EFAULT;
	if (copy_from_user(times, u64_to_user_ptr(arg->times),
			   array_size(arg->n_times, sizeof(*times))) ||
	    copy_from_user(values, u64_to_user_ptr(arg->values),
			   array3_size(arg->n_members, arg->n_times, sizeof(*values))))
		goto out;
	for (m = 0; m < arg->n_members; m++) {
		for (t = 0; t < arg->n_times; t++) {
			struct dcm_point *p = &pts[m * arg->n_times + t];

			memset(p, 0, sizeof(*p));
			p->value = values[m * arg->n_times + t];
			p->time = times[t];
			p->importance = arg->importance;
		}
	}
	ret = 0;
out:
	kvfree(times);
	kvfree(values);
	return ret;
}

/**
 * dcm_alias_set_fetch() - DCM_IOC_ALIAS_SET's input, from the caller
 * @arg: the request, copied in
 * @in: its points per member, for dcm_alias_set(); freed by
 *	dcm_alias_points_free() whatever the result
 *
 * Context: process, no dcm lock held: the copies may fault (DOC: Locking).
 *
 * Return: 0, -EFAULT, -EINVAL (counts, kinds, importance, reserved fields),
 * -ENOMEM.
 */
int dcm_alias_set_fetch(const struct dcm_ioc_alias_set *arg, struct dcm_alias_points *in)
{
	u32 i, total = 0;
	int ret;

	memset(in, 0, sizeof(*in));
	if (!name_ok(arg->name, sizeof(arg->name)) || arg->update > DCM_UPDATE_MAX ||
	    arg->mode > DCM_ALIAS_MODE_MAX || arg->importance > 7 ||
	    memchr_inv(arg->reserved, 0, sizeof(arg->reserved)) ||
	    arg->n_members > DCM_MAX_ALIAS_MEMBERS)
		return -EINVAL;
	if (arg->mode == DCM_ALIAS_SAME) {
		/* One list for every member: dcm_alias_set() shares it. */
		if (arg->n_times > DCM_MAX_POINTS)
			return -EINVAL;
		in->counts = kvmalloc_array(1, sizeof(*in->counts), GFP_KERNEL);
		in->pts = kvmalloc_array(arg->n_times ?: 1, sizeof(*in->pts), GFP_KERNEL);
		if (!in->counts || !in->pts)
			return -ENOMEM;
		in->counts[0] = arg->n_times;
		if (copy_from_user(in->pts, u64_to_user_ptr(arg->points),
				   array_size(arg->n_times, sizeof(*in->pts))))
			return -EFAULT;
		return 0;
	}
	if (!arg->n_members)
		return -EINVAL;
	if (arg->mode == DCM_ALIAS_TIME_SEPARATE ?
	    !arg->n_times || arg->n_times > DCM_MAX_POINTS : arg->n_times)
		return -EINVAL;

	in->counts = kvmalloc_array(arg->n_members, sizeof(*in->counts), GFP_KERNEL);
	if (!in->counts)
		return -ENOMEM;
	if (arg->mode == DCM_ALIAS_TIME_SEPARATE) {
		for (i = 0; i < arg->n_members; i++)
			in->counts[i] = arg->n_times;
		total = arg->n_members * arg->n_times;
	} else {
		if (copy_from_user(in->counts, u64_to_user_ptr(arg->counts),
				   array_size(arg->n_members, sizeof(*in->counts))))
			return -EFAULT;
		for (i = 0; i < arg->n_members; i++) {
			if (in->counts[i] > DCM_MAX_POINTS)
				return -EINVAL;
			total += in->counts[i];
		}
	}
	if (total > DCM_ALIAS_MAX_POINTS)
		return -EINVAL;

	in->pts = kvmalloc_array(total ?: 1, sizeof(*in->pts), GFP_KERNEL);
	if (!in->pts)
		return -ENOMEM;
	if (arg->mode == DCM_ALIAS_TIME_SEPARATE)
		ret = separate_points(arg, in->pts);
	else
		ret = copy_from_user(in->pts, u64_to_user_ptr(arg->points),
				     array_size(total, sizeof(*in->pts))) ? -EFAULT : 0;
	return ret;
}

/**
 * dcm_alias_points_free() - free what dcm_alias_set_fetch() took
 * @in: the points
 */
void dcm_alias_points_free(struct dcm_alias_points *in)
{
	kvfree(in->counts);
	kvfree(in->pts);
	in->counts = NULL;
	in->pts = NULL;
}

/**
 * dcm_alias_set() - DCM_IOC_ALIAS_SET
 * @ctrl: the controller, its lock held for reading
 * @owner: the open file: its own alias of that name, else the shared one
 * @arg: the request, checked by dcm_alias_set_fetch()
 * @in: its points, from dcm_alias_set_fetch()
 * @touched: NULL, or a bitmap of DCM_MAX_SUBDEVICES bits where a success
 *	sets the subdevice index of every member commanded
 *
 * Return: 0, -ENOENT (no such alias), -EINVAL (member count, a point's
 * fields), -ENOSPC (a member's queue would overflow), -ENODEV (no
 * description is running), -ENOMEM.
 */
int dcm_alias_set(struct dcm_controller *ctrl, const void *owner,
		  const struct dcm_ioc_alias_set *arg, const struct dcm_alias_points *in,
		  unsigned long *touched)
{
	struct dcm_runtime *rt = dcm_rt(ctrl);
	bool same = arg->mode == DCM_ALIAS_SAME;
	struct dcm_point **member_pts = NULL;
	u32 *subs = NULL, *counts = NULL, i, off;
	struct dcm_alias *a;
	int ret;

	lockdep_assert_held(&ctrl->lock);
	if (!rt)
		return -ENODEV;

	mutex_lock(&ctrl->aliases.lock);
	a = alias_find(ctrl, owner, arg->name, false);
	ret = -ENOENT;
	if (!a)
		goto out;
	ret = -EINVAL;
	if (arg->n_members != a->n && !(same && !arg->n_members))
		goto out;

	ret = -ENOMEM;
	subs = kvmalloc_array(a->n, sizeof(*subs), GFP_KERNEL);
	member_pts = kvmalloc_array(a->n, sizeof(*member_pts), GFP_KERNEL);
	if (same)
		counts = kvmalloc_array(a->n, sizeof(*counts), GFP_KERNEL);
	if (!subs || !member_pts || (same && !counts))
		goto out;

	if (same) {
		/* Every member reads the one list: it is prepared once. */
		ret = dcm_tc_prepare(in->pts, in->counts[0]);
		if (ret)
			goto out;
		for (i = 0; i < a->n; i++) {
			member_pts[i] = in->pts;
			counts[i] = in->counts[0];
			subs[i] = resolve_member(rt, a->members[i]);
		}
	}
	for (i = 0, off = 0; !same && i < a->n; off += in->counts[i], i++) {
		member_pts[i] = in->pts + off;
		ret = dcm_tc_prepare(member_pts[i], in->counts[i]);
		if (ret)
			goto out;
		subs[i] = resolve_member(rt, a->members[i]);
	}
	ret = dcm_runtime_set_many(rt, arg->update, subs, member_pts, same ? counts : in->counts,
				   a->n);
	for (i = 0; !ret && touched && i < a->n; i++)
		if (subs[i] != U32_MAX)
			set_bit(subs[i], touched);
out:
	mutex_unlock(&ctrl->aliases.lock);
	kvfree(counts);
	kvfree(member_pts);
	kvfree(subs);
	return ret;
}

/**
 * dcm_aliases_init() - a new controller's aliases part: none
 * @aliases: the part
 */
void dcm_aliases_init(struct dcm_aliases *aliases)
{
	mutex_init(&aliases->lock);
	INIT_LIST_HEAD(&aliases->list);
}

/**
 * dcm_alias_release() - free every alias of a controller
 * @ctrl: the controller, being unregistered
 */
void dcm_alias_release(struct dcm_controller *ctrl)
{
	struct dcm_alias *a, *tmp;

	mutex_lock(&ctrl->aliases.lock);
	list_for_each_entry_safe(a, tmp, &ctrl->aliases.list, node) {
		list_del(&a->node);
		alias_free(a);
	}
	mutex_unlock(&ctrl->aliases.lock);
}
