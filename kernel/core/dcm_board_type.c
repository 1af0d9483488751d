// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the core's side of the board types (Documentation/dcm/boards.rst).
 *
 * The boards layer gives the core its table of board types at module init;
 * looking a Type up in it is the one place a device's Type is compared: a
 * runtime keeps each device's struct dcm_board_type, found here once per
 * description.
 * Binding gives each board the subdevice index of each of its type's roles
 * (by Type and SubDeviceNumber); the type's bind op finds whatever else its
 * cycle uses, so that the cycle looks nothing up by name. What a bus does
 * each cycle is its kind's (dcm_bus_kind.c), and so is what its kind asks of
 * a board's type (dcm_bus_rs485.h, dcm_bus_regs.h). The joints' stiffness
 * rules and the battery rule's input are the types' too; the loops over the
 * boards are here.
 */

#include <linux/bitops.h>
#include <linux/dcm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/dcm_board_type.h"
#include "core/dcm_controller.h"

/* Devices of a Type no board type knows: bound, never exchanged with. */
const struct dcm_board_type dcm_plain_board = { };

/* What the boards layer gave (dcm_boards_set()). */
static const struct dcm_boards *boards;

/**
 * dcm_boards_set() - the board types the core binds devices to
 * @table: the boards layer's, kept (boards/dcm_board_table.c): its types
 *	and what it does once per description
 *
 * Called once at module init, before any controller exists.
 */
void dcm_boards_set(const struct dcm_boards *table)
{
	boards = table;
}

/**
 * dcm_board_type_find() - the board type of a Type
 * @name: the Type of a device of the robot description ("MotorBoard")
 *
 * The one place a device's Type is compared with the board types' names.
 *
 * Return: its board type; &dcm_plain_board for a Type no board type has.
 */
const struct dcm_board_type *dcm_board_type_find(const char *name)
{
	u32 i;

	for (i = 0; boards && i < boards->n_types; i++)
		if (!strcmp(name, boards->types[i]->name))
			return boards->types[i];
	return &dcm_plain_board;
}

/**
 * dcm_boards_load_record() - a new description takes the body record
 * @ctrl: the controller
 * @m: the description being committed, not yet running
 *
 * The boards layer loads it into @m (&struct dcm_boards.load_record: from
 * the chest board's store), before any board of @m is configured.
 * Context: a job of the controller (dcm_describe_load()), holding no lock;
 * waits for the cycle to carry the store's transfers.
 */
void dcm_boards_load_record(struct dcm_controller *ctrl, struct dcm_model *m)
{
	if (boards && boards->load_record)
		boards->load_record(ctrl, m);
}

/*
 * The subdevices of a device's roles: every role of its type gets the index
 * of the device's subdevice of that Type and SubDeviceNumber, or -1.
 */
static void dcm_board_bind(struct dcm_runtime *rt, u32 dev)
{
	const struct dcm_board_type *type = rt->dev[dev].type;
	const struct dcm_model *m = rt->model;
	s16 *role = rt->dev[dev].role;
	u32 i, r;

	for (r = 0; r < DCM_ROLES; r++)
		role[r] = -1;
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (s->device != dev)
			continue;
		for (r = 0; r < type->n_roles; r++)
			if (s->number == type->roles[r].number &&
			    !strcmp(s->type->name, type->roles[r].type))
				role[type->roles[r].role] = i;
	}
}

/**
 * dcm_boards_bind() - a new runtime's devices bound to their board types
 * @rt: the runtime being created, its devices laid out by bus
 *
 * Each device gets its board type (dcm_board_type_find()) and the private
 * area that type asks for, its roles are bound, and then the type's bind
 * op finds what else its cycle uses. Context: process, under the
 * controller's desc.lock.
 *
 * Return: 0, or -ENOMEM; the runtime's dcm_runtime_free() frees what was
 * allocated.
 */
int dcm_boards_bind(struct dcm_runtime *rt)
{
	const struct dcm_model *m = rt->model;
	u32 i;

	for (i = 0; i < m->n_devices; i++) {
		const struct dcm_board_type *type = dcm_board_type_find(m->devices[i].type->name);

		rt->dev[i].type = type;
		if (type->priv_size) {
			rt->dev[i].priv = kzalloc(type->priv_size, GFP_KERNEL);
			if (!rt->dev[i].priv)
				return -ENOMEM;
		}
		dcm_board_bind(rt, i);
		if (type->bind)
			type->bind(rt, i);
	}
	return 0;
}

/**
 * dcm_board_dev_key() - a key of a device, by name
 * @m: the description
 * @dev: the device index
 * @key: the key's name
 *
 * Context: process (binding, chaining, commands), never the cycle.
 *
 * Return: its value, or NULL when the device's type has no such key.
 */
union dcm_value *dcm_board_dev_key(const struct dcm_model *m, u32 dev, const char *key)
{
	const struct dcm_device *d = &m->devices[dev];
	const struct dcm_key_desc *k = dcm_key_desc_find(d->type->keys, d->type->n_keys, key);

	return k ? &d->keys[k - d->type->keys] : NULL;
}

/**
 * dcm_board_sub_key() - a key of a subdevice, by name
 * @m: the description
 * @sub: the subdevice index, or -1
 * @key: the key's name
 *
 * Context: process (binding, chaining, commands), never the cycle.
 *
 * Return: its value, or NULL for no subdevice or no such key.
 */
union dcm_value *dcm_board_sub_key(const struct dcm_model *m, s32 sub, const char *key)
{
	const struct dcm_subdevice *s;
	const struct dcm_key_desc *k;

	if (sub < 0)
		return NULL;
	s = &m->subdevices[sub];
	k = dcm_key_desc_find(s->type->keys, s->type->n_keys, key);
	return k ? &s->keys[k - s->type->keys] : NULL;
}

/**
 * dcm_board_find_sub() - a device's subdevice by Type and SubDeviceNumber
 * @m: the description
 * @dev: the device index
 * @type: the subdevice's Type
 * @number: its SubDeviceNumber
 *
 * Context: process, never the cycle.
 *
 * Return: its index, or -1.
 */
s32 dcm_board_find_sub(const struct dcm_model *m, u32 dev, const char *type, u32 number)
{
	u32 i;

	for (i = 0; i < m->n_subdevices; i++)
		if (m->subdevices[i].device == dev && m->subdevices[i].number == number &&
		    !strcmp(m->subdevices[i].type->name, type))
			return i;
	return -1;
}

/**
 * dcm_board_set_str() - replace a string key's value
 * @ctrl: the controller, whose desc.keys_lock guards string values
 * @v: the key, or NULL
 * @s: the new value, copied
 *
 * Context: process; takes the controller's desc.keys_lock.
 */
void dcm_board_set_str(struct dcm_controller *ctrl, union dcm_value *v, const char *s)
{
	char *copy;

	if (!v)
		return;
	copy = kstrdup(s, GFP_KERNEL);
	if (!copy)
		return;
	mutex_lock(&ctrl->desc.keys_lock);
	swap(v->str, copy);
	mutex_unlock(&ctrl->desc.keys_lock);
	kfree(copy);
}

/**
 * dcm_bus_missing() - one cycle of a bus that has no transport
 * @rt: the runtime
 * @bus: the bus's index in @rt->buses
 * @now: the cycle's DCM time
 *
 * A bus the body has, whose transport went, does not answer: each of its
 * boards gets a Nack and a "no answer" error (after DCM_NACK_BURST it is
 * lost), and the bus is chained again when its transport comes back. A
 * bus the body lacks has its boards absent: neither Ack nor Nack.
 * Context: the cycle thread.
 */
void dcm_bus_missing(struct dcm_runtime *rt, u32 bus, u32 now)
{
	struct dcm_rt_bus *b = &rt->buses[bus];
	u32 i;

	if (!READ_ONCE(b->claimed))
		return;
	b->rechain = true;
	for (i = 0; i < b->n_dev; i++)
		dcm_runtime_answer(rt, b->dev[i], false, DCM_ERR_NO_ANSWER, 7, 0, now);
}

/**
 * dcm_boards_over_limit() - whether a board puts the battery rule in force
 * @rt: the runtime
 *
 * Context: the cycle thread.
 *
 * Return: true when the value of a role of a board's type's
 * &dcm_board_type.limits is below its subdevice's Min or above its Max
 * (the battery's Current: seed 000, the hardness of all joints goes down).
 */
bool dcm_boards_over_limit(const struct dcm_runtime *rt)
{
	unsigned long limits;
	u32 d, r;
	s32 sub;

	for (d = 0; d < rt->model->n_devices; d++) {
		limits = rt->dev[d].type->limits;
		for_each_set_bit(r, &limits, DCM_ROLES) {
			sub = rt->dev[d].role[r];
			if (sub >= 0 && (rt->values[sub] < rt->conv[sub].min ||
					 rt->values[sub] > rt->conv[sub].max))
				return true;
		}
	}
	return false;
}

/**
 * dcm_boards_safety() - apply the per-board stiffness rules
 * @rt: the runtime, its actuators computed for this cycle
 * @scale_ppm: the controller's factor (dcm_safety_scale())
 * @now: the cycle's DCM time
 *
 * Each board that drives joints applies its rules to them (&struct
 * dcm_board_joints.safety; the motor board's: dcm_motor_board). Context:
 * the cycle thread; holds the runtime's cmd_lock.
 */
void dcm_boards_safety(struct dcm_runtime *rt, u32 scale_ppm, u32 now)
{
	u32 d;

	raw_spin_lock(&rt->cmd_lock);
	for (d = 0; d < rt->model->n_devices; d++) {
		const struct dcm_board_joints *joints = rt->dev[d].type->joints;

		if (joints)
			joints->safety(rt, d, scale_ppm, now);
	}
	raw_spin_unlock(&rt->cmd_lock);
}
