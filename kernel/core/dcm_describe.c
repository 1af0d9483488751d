// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - replacing a controller's robot description in one step.
 *
 * dcm_describe_replace() takes a checked description and makes it the
 * running one: the chest board's record is read into it, its running state
 * created, its key tree built under hidden names, and only then are model
 * and state swapped under the controller's lock; once the cycle has left
 * the old state (SRCU), the old tree goes, the new one takes its names and
 * the old description is freed. Any failure before the swap changes
 * nothing.
 *
 * The key tree is a face (faces/dcm_sysfs.c) and the core does not call up
 * into the faces: the sysfs face registers its build, publish and remove
 * as &struct dcm_tree_ops at module init (dcm_describe_set_tree_ops()).
 * Without them a description runs without a tree.
 */

#include "core/dcm_board_type.h"
#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "core/dcm_runtime.h"
#include "core/dcm_bus.h"
#include "core/dcm_bus_kind.h"
#include "core/dcm_cycle.h"
#include "core/dcm_describe.h"
#include "model/dcm_model.h"

static const struct dcm_tree_ops *tree_ops;

/**
 * dcm_describe_set_tree_ops() - the face that shows a description's keys
 * @ops: its operations, or NULL; set before any controller registers
 */
void dcm_describe_set_tree_ops(const struct dcm_tree_ops *ops)
{
	WRITE_ONCE(tree_ops, ops);
}

static struct dcm_tree *tree_build(struct dcm_controller *ctrl, struct dcm_model *m,
				   bool staging)
{
	const struct dcm_tree_ops *ops = READ_ONCE(tree_ops);

	return ops ? ops->build(ctrl, m, staging) : NULL;
}

static void tree_remove(struct dcm_tree *tree)
{
	const struct dcm_tree_ops *ops = READ_ONCE(tree_ops);

	if (ops && tree)
		ops->remove(tree);
}

/* Give the staged tree its names; on failure build it again, in place. */
static void tree_publish(struct dcm_controller *ctrl, struct dcm_model *m,
			 struct dcm_tree *tree)
{
	const struct dcm_tree_ops *ops = READ_ONCE(tree_ops);

	ctrl->desc.tree = tree;
	if (!ops || !tree || !ops->publish(tree))
		return;
	ops->remove(tree);
	ctrl->desc.tree = ops->build(ctrl, m, false);
	if (IS_ERR(ctrl->desc.tree)) {
		dev_err(&ctrl->dev, "the key tree of the new description is missing\n");
		ctrl->desc.tree = NULL;
	}
}

/*
 * Free a runtime no cycle uses: its buses' kinds' state first (an RS485
 * bus's chaining ends), then the runtime.
 */
static void runtime_free(struct dcm_runtime *rt)
{
	if (!rt)
		return;
	dcm_bus_kinds_release(rt);
	dcm_runtime_free(rt);
}

/**
 * dcm_describe_replace() - make a description the running one
 * @ctrl: the controller, its desc.lock held
 * @m: the description, checked by dcm_model_check(); taken on success
 * @why: on failure, set to a message for the user (a literal), or left
 *
 * The body's calibration is read from the chest board's store into @m
 * first (dcm_boards_load_record()), before any motor board is configured. On
 * success @m runs, the old description and its state are freed,
 * @ctrl->desc.swaps counts one more, and DCM_EV_CONFIG is posted. If @m, with
 * the body record, equals the running description (dcm_model_equal()), @m
 * is freed instead and nothing changes: the generation and the count of
 * swaps stay, and with them every client's handles and mappings.
 * Context: process; waits for the cycle.
 *
 * Return: 0 (replaced), DCM_DESCRIBE_UNCHANGED (@m equal to the running
 * description and freed), or -ENOMEM or what sysfs answered; the running
 * description is then as it was, and @m still the caller's.
 */
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why)
{
	struct dcm_runtime *rt, *old_rt;
	struct dcm_model *old_model;
	struct dcm_tree *tree;
	bool same;

	lockdep_assert_held(&ctrl->desc.lock);

	dcm_boards_load_record(ctrl, m);
	mutex_lock(&ctrl->desc.keys_lock);
	same = ctrl->desc.model && dcm_model_equal(ctrl->desc.model, m);
	mutex_unlock(&ctrl->desc.keys_lock);
	if (same) {
		dcm_model_free(m);
		dev_info(&ctrl->dev, "robot description unchanged: generation %u stays\n",
			 ctrl->desc.generation);
		return DCM_DESCRIBE_UNCHANGED;
	}
	rt = dcm_runtime_create(ctrl, m, ctrl->desc.generation % 0xffff + 1);
	if (!rt)
		return -ENOMEM;
	if (dcm_boards_bind(rt) || dcm_runtime_start_values(rt) || dcm_bus_kinds_prepare(rt)) {
		runtime_free(rt);
		return -ENOMEM;
	}
	tree = tree_build(ctrl, m, true);
	if (IS_ERR(tree)) {
		runtime_free(rt);
		*why = "the sysfs key tree could not be built";
		return PTR_ERR(tree);
	}
	dcm_bus_attach(ctrl, rt);
	/* A bus without a lane of its own (none could be made) exchanges inline. */
	dcm_cycle_lanes_prepare(ctrl, rt->n_buses);

	down_write(&ctrl->lock);
	old_model = ctrl->desc.model;
	old_rt = dcm_rt(ctrl);
	ctrl->desc.model = m;
	ctrl->desc.generation = rt->generation;
	WRITE_ONCE(ctrl->desc.swaps, ctrl->desc.swaps + 1);
	rcu_assign_pointer(ctrl->desc.rt, rt);
	up_write(&ctrl->lock);
	/* The cycle in progress may still be working on the old runtime. */
	synchronize_srcu(&ctrl->srcu);

	/* Between these two, the key files are briefly absent. */
	tree_remove(ctrl->desc.tree);
	tree_publish(ctrl, m, tree);

	/* A late bus's exchange may still use the old runtime: it ends first. */
	dcm_bus_lanes_flush(ctrl);
	runtime_free(old_rt);
	dcm_model_free(old_model);
	dev_info(&ctrl->dev, "robot description: %u devices, %u subdevices, %u RobotConfig keys\n",
		 m->n_devices, m->n_subdevices, m->n_robot_keys);
	dcm_event(ctrl, DCM_EV_CONFIG, NULL, 0, rt->generation,
		  "robot description: %u devices, %u subdevices, %u RobotConfig keys",
		  m->n_devices, m->n_subdevices, m->n_robot_keys);
	return 0;
}

/**
 * dcm_describe_init() - a new controller's description part: none running
 * @desc: the part, zeroed
 */
void dcm_describe_init(struct dcm_desc *desc)
{
	mutex_init(&desc->lock);
	mutex_init(&desc->keys_lock);
}

/**
 * dcm_describe_release() - free a controller's descriptions, at unregistration
 * @ctrl: the controller, already marked dead, its cycle stopped
 *
 * An open transaction's staged description is the netlink face's, which
 * frees it with the controller's device.
 */
void dcm_describe_release(struct dcm_controller *ctrl)
{
	struct dcm_runtime *rt;

	mutex_lock(&ctrl->desc.lock);
	tree_remove(ctrl->desc.tree);
	ctrl->desc.tree = NULL;
	down_write(&ctrl->lock);
	rt = dcm_rt(ctrl);
	RCU_INIT_POINTER(ctrl->desc.rt, NULL);
	up_write(&ctrl->lock);
	synchronize_srcu(&ctrl->srcu);
	dcm_bus_lanes_flush(ctrl);
	runtime_free(rt);
	dcm_model_free(ctrl->desc.model);
	ctrl->desc.model = NULL;
	mutex_unlock(&ctrl->desc.lock);
}
