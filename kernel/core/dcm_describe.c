// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - replacing a controller's robot description in one step.
 *
 * A commit is a job of the controller (dcm_describe_job(): the jobs run
 * one at a time on an ordered queue, holding no lock while they wait for
 * the cycle). The chest board's record is read into the checked
 * description with no lock held (dcm_describe_load()); then, under
 * desc.lock, dcm_describe_replace() creates its running state, builds its
 * key tree under hidden names, and only then swaps model and state under
 * the controller's lock; the old tree goes and the new one takes its
 * names. Once desc.lock is dropped and the cycle has left the old state
 * (SRCU), dcm_describe_retire() frees it. Any failure before the swap
 * changes nothing.
 *
 * The key tree is a face (faces/dcm_sysfs.c) and the core does not call up
 * into the faces: the sysfs face registers its build, publish and remove
 * as &struct dcm_tree_ops at module init (dcm_describe_set_tree_ops()).
 * Without them a description runs without a tree.
 */

#include <linux/workqueue.h>

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
 * dcm_describe_load() - a description about to be committed takes the body
 *	record
 * @ctrl: the controller
 * @m: the description, checked by dcm_model_check(), not yet running
 *
 * The body's calibration is read from the chest board's store into @m
 * (dcm_boards_load_record()), before any motor board is configured.
 * Context: a job of @ctrl (dcm_describe_job()), so that a calibration's
 * write of the store is not halfway; holds no lock while the cycle carries
 * the store's transfers.
 */
void dcm_describe_load(struct dcm_controller *ctrl, struct dcm_model *m)
{
	lockdep_assert(dcm_describe_in_job(ctrl));
	dcm_boards_load_record(ctrl, m);
}

/**
 * dcm_describe_replace() - make a description the running one
 * @ctrl: the controller, its desc.lock held
 * @m: the description, checked by dcm_model_check() and given the body
 *	record (dcm_describe_load()); taken on success
 * @why: on failure, set to a message for the user (a literal), or left
 * @old: on success, the description and running state replaced, for
 *	dcm_describe_retire() once desc.lock is dropped
 *
 * On success @m runs, @ctrl->desc.swaps counts one more, and
 * DCM_EV_CONFIG is posted. If @m equals the running description
 * (dcm_model_equal()), @m is freed instead and nothing changes: the
 * generation and the count of swaps stay, and with them every client's
 * handles and mappings. Nothing here waits for the cycle or a bus: the
 * cycle may still be on the old running state, which @old keeps.
 * Context: a job of @ctrl (dcm_describe_job()), under its desc.lock.
 *
 * Return: 0 (replaced), DCM_DESCRIBE_UNCHANGED (@m equal to the running
 * description and freed), or -ENOMEM or what sysfs answered; the running
 * description is then as it was, and @m still the caller's.
 */
int dcm_describe_replace(struct dcm_controller *ctrl, struct dcm_model *m, const char **why,
			 struct dcm_describe_old *old)
{
	struct dcm_runtime *rt;
	struct dcm_tree *tree;
	bool same;

	lockdep_assert_held(&ctrl->desc.lock);
	lockdep_assert(dcm_describe_in_job(ctrl));

	*old = (struct dcm_describe_old){ };
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
	old->model = ctrl->desc.model;
	old->rt = dcm_rt(ctrl);
	ctrl->desc.model = m;
	ctrl->desc.generation = rt->generation;
	WRITE_ONCE(ctrl->desc.swaps, ctrl->desc.swaps + 1);
	rcu_assign_pointer(ctrl->desc.rt, rt);
	up_write(&ctrl->lock);

	/*
	 * The key files reach the running state under the controller's lock:
	 * the old ones may go now. Between these two, they are briefly absent.
	 */
	tree_remove(ctrl->desc.tree);
	tree_publish(ctrl, m, tree);

	dev_info(&ctrl->dev, "robot description: %u devices, %u subdevices, %u RobotConfig keys\n",
		 m->n_devices, m->n_subdevices, m->n_robot_keys);
	dcm_event(ctrl, DCM_EV_CONFIG, NULL, 0, rt->generation,
		  "robot description: %u devices, %u subdevices, %u RobotConfig keys",
		  m->n_devices, m->n_subdevices, m->n_robot_keys);
	return 0;
}

/**
 * dcm_describe_retire() - free what a swap replaced, once the cycle left it
 * @ctrl: the controller, its desc.lock not held
 * @old: what dcm_describe_replace() or dcm_describe_release() gave
 *
 * Waits for the cycle in progress (SRCU) and a late bus's exchange (the
 * lanes), then frees the old running state (its RS485 buses' chaining
 * ends first) and the old description. Context: process, holding no dcm
 * lock: it waits for the cycle.
 */
void dcm_describe_retire(struct dcm_controller *ctrl, struct dcm_describe_old *old)
{
	if (!old->rt && !old->model)
		return;
	synchronize_srcu(&ctrl->srcu);
	dcm_bus_lanes_flush(ctrl);
	runtime_free(old->rt);
	dcm_model_free(old->model);
	*old = (struct dcm_describe_old){ };
}

struct job {
	struct work_struct work;
	struct dcm_controller *ctrl;
	int (*run)(struct dcm_controller *ctrl, void *arg);
	void *arg;
	int ret;
};

static void job_work(struct work_struct *work)
{
	struct job *j = container_of(work, struct job, work);

	j->ret = j->run(j->ctrl, j->arg);
}

/**
 * dcm_describe_job() - run a job of the controller and wait for it
 * @ctrl: the controller, held by the caller
 * @run: the job: it may wait for the cycle and the buses, holding no lock
 *	meanwhile; it takes desc.lock for short steps only
 *	(dcm_describe_running())
 * @arg: @run's
 *
 * The jobs of a controller (calibration, special commands, a commit) run
 * one at a time, in the order they came, on its ordered queue
 * (&dcm_desc.jobs): each sees the running state stay as it found it,
 * since only a job swaps it, and unregistration waits for the queue
 * before it frees it. Nothing but the queue orders them: the
 * configuration steps, GET_INFO and every other request go on meanwhile.
 * Context: process, holding no dcm lock; sleeps until the job is done.
 *
 * Return: what @run returned.
 */
int dcm_describe_job(struct dcm_controller *ctrl,
		     int (*run)(struct dcm_controller *ctrl, void *arg), void *arg)
{
	struct job j = { .ctrl = ctrl, .run = run, .arg = arg };

	might_sleep();
	INIT_WORK_ONSTACK(&j.work, job_work);
	queue_work(ctrl->desc.jobs, &j.work);
	flush_work(&j.work);
	destroy_work_on_stack(&j.work);
	return j.ret;
}

/**
 * dcm_describe_jobs_wait() - wait for the jobs of the controller queued so far
 * @ctrl: the controller, held by the caller
 *
 * For a request that must come after a job in progress: a configuration
 * request of the socket whose commit runs is carried out after that
 * commit (dcm_config.c). Jobs queued meanwhile are not waited for.
 * Context: process, holding no dcm lock, not a job of @ctrl; sleeps until
 * the jobs are done.
 */
void dcm_describe_jobs_wait(struct dcm_controller *ctrl)
{
	might_sleep();
	flush_workqueue(ctrl->desc.jobs);
}

/**
 * dcm_describe_in_job() - whether the caller is a job of the controller
 * @ctrl: the controller
 *
 * For lockdep_assert() in the functions documented as run by a job.
 *
 * Return: true in a job of @ctrl run by dcm_describe_job().
 */
bool dcm_describe_in_job(struct dcm_controller *ctrl)
{
	struct work_struct *w = current_work();

	return w && w->func == job_work && container_of(w, struct job, work)->ctrl == ctrl;
}

/**
 * dcm_describe_running() - the running state, for a job
 * @ctrl: the controller
 * @rt: set to its running state
 *
 * A job's running state stays until the job returns (dcm_describe_job()).
 * Context: a job of @ctrl; takes desc.lock for the look.
 *
 * Return: 0; -ENODEV when the controller is going; -ENOENT with no
 * description loaded.
 */
int dcm_describe_running(struct dcm_controller *ctrl, struct dcm_runtime **rt)
{
	int ret = 0;

	lockdep_assert(dcm_describe_in_job(ctrl));
	mutex_lock(&ctrl->desc.lock);
	*rt = dcm_rt(ctrl);
	if (ctrl->dead)
		ret = -ENODEV;
	else if (!*rt)
		ret = -ENOENT;
	mutex_unlock(&ctrl->desc.lock);
	return ret;
}

/**
 * dcm_describe_init() - a new controller's description part: none running
 * @desc: the part, zeroed
 *
 * Return: 0 or -ENOMEM (its jobs' queue).
 */
int dcm_describe_init(struct dcm_desc *desc)
{
	mutex_init(&desc->lock);
	mutex_init(&desc->keys_lock);
	desc->jobs = alloc_ordered_workqueue("dcm-jobs", 0);
	return desc->jobs ? 0 : -ENOMEM;
}

/**
 * dcm_describe_free() - undo dcm_describe_init(), with the controller
 * @desc: the part, its descriptions released (dcm_describe_release())
 */
void dcm_describe_free(struct dcm_desc *desc)
{
	destroy_workqueue(desc->jobs);
}

/**
 * dcm_describe_release() - free a controller's descriptions, at unregistration
 * @ctrl: the controller, already marked dead, its cycle stopped
 *
 * The running state is taken from every reader under desc.lock; a job in
 * progress finishes with it, then it is freed, no lock held. An open
 * transaction's staged description is the netlink face's, which frees it
 * with the controller's device.
 */
void dcm_describe_release(struct dcm_controller *ctrl)
{
	struct dcm_describe_old old;

	mutex_lock(&ctrl->desc.lock);
	tree_remove(ctrl->desc.tree);
	ctrl->desc.tree = NULL;
	down_write(&ctrl->lock);
	old.rt = dcm_rt(ctrl);
	old.model = ctrl->desc.model;
	RCU_INIT_POINTER(ctrl->desc.rt, NULL);
	ctrl->desc.model = NULL;
	up_write(&ctrl->lock);
	mutex_unlock(&ctrl->desc.lock);
	/* A job that found the controller alive ends first: it had the runtime. */
	flush_workqueue(ctrl->desc.jobs);
	dcm_describe_retire(ctrl, &old);
}
