// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - special commands (DCM_CMD_SPECIAL): the boards' start-up and
 * diagnosis on request, in process context, outside the cycle.
 *
 * RESET    clears every board's Ack and Nack counters and error list, then
 *          runs start-up again: every RS485 bus is chained and its motor
 *          boards configured (the bus's chain work, as at commit).
 * VERSION  reads every board's versions back: an RS485 board's identity
 *          (IDENT, the motor board keys as chaining sets them), the chest
 *          board's ProgVersion, the battery's firmware string, the other
 *          boards' FW_VERSION register; one DCM_A_SP_BOARD nest a board.
 * CHAIN    chains every RS485 bus again: ChainResult, in the answer's TEXT.
 * DIAGNOSTIC answers every device's state (ok, error, lost, absent), Ack,
 *          Nack and the errors of the last 30 s, one nest a device.
 * CONFIG   sends every chained motor board its configuration structure
 *          again, built from the keys as they are.
 *
 * Each answers a TEXT summary and posts DCM_EV_SPECIAL. The cycle goes on
 * meanwhile; a bus being chained is left out of it, as at start-up.
 * dcm_special() runs them; the netlink face (faces/dcm_nl_special.c)
 * parses the request and builds the answer.
 */

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "core/dcm_bus_kind.h"
#include "core/dcm_bus_rs485.h"
#include "core/dcm_controller.h"
#include "core/dcm_describe.h"
#include "core/dcm_events.h"
#include "core/dcm_special.h"
#include "core/dcm_board_type.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "core/dcm_time.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"

#define TEXT_LEN	DCM_MAX_STRING_LEN
#define DCM_CHAIN_WAIT_MS	2000	/* VERSION, CONFIG wait for a chain so long */
#define VERSION_LEN	DCM_BOARD_VERSION_LEN

static const char *const special_names[] = {
	[DCM_SPECIAL_RESET] = "reset",
	[DCM_SPECIAL_VERSION] = "version",
	[DCM_SPECIAL_CHAIN] = "chain",
	[DCM_SPECIAL_DIAGNOSTIC] = "diagnostic",
	[DCM_SPECIAL_CONFIG] = "config",
};

/* "RS485-1 5/5; RS485-2 4/4": what the last chaining of each bus found. */
static void chain_text(struct dcm_runtime *rt, char *text, size_t size)
{
	if (!dcm_buses_chain_text(rt, text, size))
		strscpy(text, "no RS485 bus", size);
}

/*
 * Chain every RS485 bus again with its chain work: the cycle leaves a bus
 * alone while it is not chained. Waits until every bus is done.
 */
static void rechain(struct dcm_runtime *rt)
{
	struct dcm_controller *ctrl = rt->ctrl;
	bool queued[DCM_MAX_DEVICES] = { };
	struct dcm_bus *t;
	int idx;
	u32 b;

	idx = srcu_read_lock(&ctrl->srcu);
	for (b = 0; b < rt->n_buses; b++) {
		t = srcu_dereference(rt->buses[b].bus, &ctrl->srcu);
		if (t && dcm_bus_kind(t)->rechain)
			queued[b] = dcm_bus_kind(t)->rechain(rt, b);
	}
	srcu_read_unlock(&ctrl->srcu, idx);
	for (b = 0; b < rt->n_buses; b++)
		if (queued[b])
			dcm_bus_chain_flush(&rt->buses[b]);
	dcm_boards_chain_result(rt);
}

static void sp_reset(struct dcm_runtime *rt, char *text)
{
	size_t len;
	u32 d;

	spin_lock(&rt->values_lock);
	for (d = 0; d < rt->model->n_devices; d++) {
		rt->dev[d].ack = 0;
		rt->dev[d].nack = 0;
		rt->dev[d].nack_run = 0;
		rt->dev[d].n_err = 0;
	}
	spin_unlock(&rt->values_lock);
	rechain(rt);
	strscpy(text, "counters and errors cleared; chained ", TEXT_LEN);
	len = strlen(text);
	chain_text(rt, text + len, TEXT_LEN - len);
}

static int sp_config(struct dcm_runtime *rt, char *text)
{
	u32 d, n = 0, ok = 0;
	int ret;

	/* A board without a configuration says -EINVAL and is not counted. */
	for (d = 0; d < rt->model->n_devices; d++) {
		ret = dcm_board_configure(rt, d);
		n += ret != -EINVAL;
		ok += !ret;
	}
	snprintf(text, TEXT_LEN, "%u of %u motor boards configured", ok, n);
	return 0;
}

/* One device of the answer, to the caller's @put. */
static int put_board(const struct dcm_special_out *out, const struct dcm_model *m, u32 d,
		     const char *state, u64 ack, u64 nack, u32 errors, const char *version)
{
	const struct dcm_device *dv = &m->devices[d];
	const struct dcm_special_board b = {
		.name = dv->name, .type = dv->type->name, .bus = dv->bus,
		.address = dv->address, .state = state, .ack = ack, .nack = nack,
		.errors = errors, .version = version,
	};

	return out->put ? out->put(out->arg, &b) : 0;
}

static int sp_version(struct dcm_runtime *rt, const struct dcm_special_out *out, char *text)
{
	struct dcm_controller *ctrl = rt->ctrl;
	u32 d, n = 0, read = 0;
	char version[VERSION_LEN];
	struct dcm_board_buf *sb;
	struct dcm_bus *t;
	int idx, ret = 0;

	sb = kmalloc(sizeof(*sb), GFP_KERNEL);
	if (!sb)
		return -ENOMEM;
	idx = srcu_read_lock(&ctrl->srcu);
	for (d = 0; d < rt->model->n_devices && !ret; d++) {
		bool got;

		t = srcu_dereference(rt->buses[rt->dev[d].bus].bus, &ctrl->srcu);
		got = t && !dcm_board_version(rt, d, t, sb, version, sizeof(version));
		n++;
		read += got;
		ret = put_board(out, rt->model, d, NULL, 0, 0, 0, got ? version : NULL);
	}
	srcu_read_unlock(&ctrl->srcu, idx);
	kfree(sb);
	snprintf(text, TEXT_LEN, "versions of %u of %u boards read", read, n);
	return ret;
}

/*
 * A device's state: absent (its body has no such bus, or never exchanged
 * with; a bus the body has whose transport went is not absent: its boards
 * Nack and are lost), lost (DCM_NACK_BURST Nacks in a row), error (it answers, and reported
 * an error of level 4 or more, or refused its configuration, in the last
 * 30 s), else ok. @errors counts its errors of the last 30 s.
 */
static const char *board_state(struct dcm_runtime *rt, u32 d, bool has_bus, u32 now,
			       u64 *ack, u64 *nack, u32 *errors)
{
	struct dcm_dev_error err[DCM_ERRORS_KEPT];
	bool bad = false;
	u32 i, n, run;

	spin_lock(&rt->values_lock);
	*ack = rt->dev[d].ack;
	*nack = rt->dev[d].nack;
	run = rt->dev[d].nack_run;
	n = rt->dev[d].n_err;
	memcpy(err, rt->dev[d].err, n * sizeof(err[0]));
	spin_unlock(&rt->values_lock);

	*errors = 0;
	for (i = 0; i < n; i++) {
		if ((s32)(now - err[i].time) > DCM_ERROR_KEEP_MS)
			continue;
		(*errors)++;
		if ((err[i].source == DCM_ERR_BOARD || err[i].source == DCM_ERR_CONFIG) &&
		    err[i].level >= 4)
			bad = true;
	}
	if (!has_bus || (!*ack && !*nack))
		return "absent";
	if (run >= DCM_NACK_BURST)
		return "lost";
	return bad ? "error" : "ok";
}

static int sp_diagnostic(struct dcm_runtime *rt, const struct dcm_special_out *out,
			 char *text)
{
	static const char *const states[] = { "ok", "error", "lost", "absent" };
	struct dcm_controller *ctrl = rt->ctrl;
	u32 count[ARRAY_SIZE(states)] = { }, now = dcm_time_ms(ctrl), d, errors, s;
	const char *state;
	u64 ack, nack;
	int idx, ret = 0;

	for (d = 0; d < rt->model->n_devices && !ret; d++) {
		const struct dcm_rt_bus *b = &rt->buses[rt->dev[d].bus];
		bool has_bus;

		idx = srcu_read_lock(&ctrl->srcu);
		has_bus = srcu_dereference(b->bus, &ctrl->srcu) || READ_ONCE(b->claimed);
		srcu_read_unlock(&ctrl->srcu, idx);
		state = board_state(rt, d, has_bus, now, &ack, &nack, &errors);
		for (s = 0; s < ARRAY_SIZE(states); s++)
			if (!strcmp(state, states[s]))
				count[s]++;
		ret = put_board(out, rt->model, d, state, ack, nack, errors, NULL);
	}
	snprintf(text, TEXT_LEN, "%u devices: %u ok, %u error, %u lost, %u absent",
		 rt->model->n_devices, count[0], count[1], count[2], count[3]);
	return ret;
}

/**
 * dcm_special() - run a special command
 * @ctrl: the controller
 * @rt: its running state, which stays while the job runs
 * @cmd: enum dcm_special
 * @out: where its summary and its devices go
 *
 * VERSION and DIAGNOSTIC give @out->put one struct dcm_special_board per
 * device, in the description's order; every command writes a summary of
 * DCM_MAX_STRING_LEN bytes at most to @out->text, logs it and posts
 * DCM_EV_SPECIAL. Waits for the boards (chaining, configuration), holding
 * no lock. Context: a job of @ctrl (dcm_describe_job()).
 *
 * Return: 0; -EINVAL for an unknown command; -ENOMEM; or the first error
 * of @out->put, which ends the command.
 */
int dcm_special(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 cmd,
		const struct dcm_special_out *out)
{
	char *text = out->text;
	int ret;

	lockdep_assert(dcm_describe_in_job(ctrl));
	/*
	 * The boards of a bus being chained (a description just loaded) are
	 * asked once the chain is made: its transfers go first.
	 */
	if (cmd == DCM_SPECIAL_VERSION || cmd == DCM_SPECIAL_CONFIG)
		wait_event_timeout(ctrl->cycle.wq, !dcm_buses_chaining(rt),
				   msecs_to_jiffies(DCM_CHAIN_WAIT_MS));
	switch (cmd) {
	case DCM_SPECIAL_RESET:
		sp_reset(rt, text);
		ret = 0;
		break;
	case DCM_SPECIAL_VERSION:
		ret = sp_version(rt, out, text);
		break;
	case DCM_SPECIAL_CHAIN:
		rechain(rt);
		chain_text(rt, text, TEXT_LEN);
		ret = 0;
		break;
	case DCM_SPECIAL_DIAGNOSTIC:
		ret = sp_diagnostic(rt, out, text);
		break;
	case DCM_SPECIAL_CONFIG:
		ret = sp_config(rt, text);
		break;
	default:
		return -EINVAL;
	}
	if (ret)
		return ret;
	/* Any user may ask for a diagnostic: its lines are rate-limited. */
	if (cmd == DCM_SPECIAL_DIAGNOSTIC)
		dev_info_ratelimited(&ctrl->dev, "special %s: %s\n", special_names[cmd], text);
	else
		dev_info(&ctrl->dev, "special %s: %s\n", special_names[cmd], text);
	dcm_event(ctrl, DCM_EV_SPECIAL, NULL, cmd, 0, "%s: %s", special_names[cmd], text);
	return 0;
}
