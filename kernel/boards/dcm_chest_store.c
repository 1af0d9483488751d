// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the chest board's store: the body's record.
 *
 * The chest board keeps the body's record (Documentation/dcm/wire-protocol.rst,
 * "Chest board"): BodyId, BodyNickName and the jointZeroPosition of every
 * motor, keyed by bus, Address and MotorNumber. When a description is
 * committed, before its motor boards are chained and configured, the record
 * is read and its non-zero calibrations (and the body's names) replace the
 * description's (dcm_chest_load(), the board table's load_record); an
 * empty or corrupt store leaves the description as it is, with a log line
 * and an event. A calibration (dcm_chest_calib.c) writes one zero to it
 * (dcm_chest_store_zero()): read-modify-write of the record, only the pages
 * that change.
 *
 * The store is process context, outside the cycle: it is reached by
 * addressed transfers on the chest board's bus, requests that the cycle
 * carries after the bus's exchange (dcm_bus_xfer()): its exchange goes on.
 */

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/dcm_controller.h"
#include "core/dcm_events.h"
#include "boards/dcm_board_table.h"
#include "boards/dcm_chest.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "core/dcm_bus_req.h"
#include "model/dcm_calib.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "core/dcm_bus.h"
#include "wire/dcm_wire_chest.h"

#define BODY_PAGES	(DCM_CHEST_BODY_LEN / DCM_CHEST_EE_PAGE_LEN)
#define STORE_READY_MS	50	/* a commit takes a few ms: stuck past this */

/**
 * struct chest_io - transfers with the chest board's store
 * @t: the transport of its bus
 * @addr: its address
 * @buf: what goes out: a register, then up to a page
 * @status: its STATUS register, as last read
 */
struct chest_io {
	struct dcm_bus *t;
	u16 addr;
	u8 buf[1 + DCM_CHEST_EE_PAGE_LEN];
	u8 status;
};

/* Write @len bytes from register @reg: a request the cycle carries. */
static int chest_write(struct chest_io *io, u8 reg, const u8 *data, size_t len)
{
	return dcm_reg_write(io->t, io->addr, io->buf, reg, data, len);
}

/* Read @len bytes from register @reg: a request the cycle carries. */
static int chest_read(struct chest_io *io, u8 reg, u8 *data, size_t len)
{
	return dcm_reg_read(io->t, io->addr, io->buf, reg, data, len);
}

/*
 * A page of the store and what to do with it: one step the cycle carries
 * after the chest bus's exchange (dcm_bus_run()), its transfers together.
 */
struct chest_page {
	struct chest_io *io;
	u8 page;
	u8 *out;
	const u8 *in;
};

/* The store's STATUS, -EAGAIN while it is busy with a commit. */
static int chest_status(struct chest_io *io)
{
	int ret = chest_read(io, DCM_CHEST_STATUS, &io->status, 1);

	if (ret)
		return ret;
	return io->status & DCM_CHEST_ST_EE_BUSY ? -EAGAIN : 0;
}

/*
 * Run a step of the store until the store is not busy with a commit.
 * Return: the step's result, or -EIO if the store stays busy.
 */
static int chest_step(struct chest_io *io, int (*step)(struct dcm_bus *t, void *arg),
		      struct chest_page *cp)
{
	unsigned long end = jiffies + msecs_to_jiffies(STORE_READY_MS);
	int ret;

	for (;;) {
		ret = dcm_bus_run(io->t, step, cp);
		if (ret != -EAGAIN)
			return ret;
		if (time_after(jiffies, end))
			return -EIO;
		/*
		 * A page commit takes the board's EEPROM its write cycle (a
		 * few ms): STATUS is looked at again in 0.5-1 ms, the bus
		 * the cycle's meanwhile.
		 */
		usleep_range(500, 1000);
	}
}

/* The store not busy: load a page into the window and read it. */
static int load_step(struct dcm_bus *t, void *arg)
{
	struct chest_page *cp = arg;
	struct chest_io *io = cp->io;
	u8 cmd[2] = { cp->page, DCM_CHEST_EE_LOAD };
	int ret;

	ret = chest_status(io);
	if (!ret)
		ret = chest_write(io, DCM_CHEST_EE_PAGE, cmd, sizeof(cmd));
	if (!ret)
		ret = chest_read(io, DCM_CHEST_STATUS, &io->status, 1);
	if (!ret && (io->status & DCM_CHEST_ST_EE_ERROR))
		ret = -EIO;
	if (!ret)
		ret = chest_read(io, DCM_CHEST_EE_WINDOW, cp->out, DCM_CHEST_EE_PAGE_LEN);
	return ret;
}

/* The store not busy: fill the window and commit it to a page. */
static int commit_step(struct dcm_bus *t, void *arg)
{
	struct chest_page *cp = arg;
	struct chest_io *io = cp->io;
	u8 cmd[2] = { cp->page, DCM_CHEST_EE_COMMIT };
	int ret;

	ret = chest_status(io);
	if (!ret)
		ret = chest_write(io, DCM_CHEST_EE_WINDOW, cp->in, DCM_CHEST_EE_PAGE_LEN);
	if (!ret)
		ret = chest_write(io, DCM_CHEST_EE_PAGE, cmd, sizeof(cmd));
	return ret;
}

/* Whether the store is done with its commit: its STATUS, -EAGAIN while busy. */
static int ready_step(struct dcm_bus *t, void *arg)
{
	struct chest_page *cp = arg;

	return chest_status(cp->io);
}

/* Load a page into the window and read it. */
static int chest_load_page(struct chest_io *io, u8 page, u8 *data)
{
	struct chest_page cp = { .io = io, .page = page, .out = data };

	return chest_step(io, load_step, &cp);
}

/* Fill the window, commit it to a page, and wait until it is written. */
static int chest_commit_page(struct chest_io *io, u8 page, const u8 *data)
{
	struct chest_page cp = { .io = io, .page = page, .in = data };
	int ret;

	ret = chest_step(io, commit_step, &cp);
	if (!ret)
		ret = chest_step(io, ready_step, &cp);
	if (!ret && (io->status & DCM_CHEST_ST_EE_ERROR))
		ret = -EIO;
	return ret;
}

/* The board that keeps the body record (the chest board), or -1. */
static int find_store(const struct dcm_model *m)
{
	u32 d;

	for (d = 0; d < m->n_devices; d++)
		if (dcm_board_type_find(m->devices[d].type->name) == &dcm_chest_board)
			return d;
	return -1;
}

static union dcm_value *dev_key(const struct dcm_model *m, u32 d, const char *key)
{
	return dcm_board_dev_key(m, d, key);
}

static union dcm_value *sub_key(const struct dcm_model *m, u32 s, const char *key)
{
	return dcm_board_sub_key(m, s, key);
}

/**
 * dcm_chest_joint_sub() - a joint of a board with motors, on a description
 * @m: the description, running or being committed
 * @dev: the board's device index
 * @number: the joint's SubDeviceNumber
 * @position: its position sensor rather than its joint (position actuator)
 *
 * By the Types its board type's joints have (&struct dcm_board_joints).
 *
 * Return: the subdevice index; -1 for none, or a board without joints.
 */
int dcm_chest_joint_sub(const struct dcm_model *m, u32 dev, u32 number, bool position)
{
	const struct dcm_board_joints *j = dcm_board_type_find(m->devices[dev].type->name)->joints;

	if (!j)
		return -1;
	return dcm_board_find_sub(m, dev, position ? j->position : j->joint, number);
}

/* N of "RS485-N", or 0. */
static u8 rs485_number(const char *bus)
{
	if (strncmp(bus, "RS485-", 6) || bus[6] < '1' || bus[6] > '9' || bus[7])
		return 0;
	return bus[6] - '0';
}

/**
 * dcm_chest_store_index() - where a joint's zero sits in the body record
 * @m: the description
 * @dev: the joint's motor board
 * @number: the joint's SubDeviceNumber
 *
 * By bus, Address and the Joint's MotorNumber.
 *
 * Return: the index of its jointZeroPosition in the record, or -EINVAL
 * for a joint that has no place there.
 */
int dcm_chest_store_index(const struct dcm_model *m, u32 dev, u32 number)
{
	const struct dcm_device *d = &m->devices[dev];
	union dcm_value *mn;
	int js;

	js = dcm_chest_joint_sub(m, dev, number, false);
	if (js < 0)
		return -EINVAL;
	mn = sub_key(m, js, "MotorNumber");
	if (!mn || mn->num < 1 || mn->num > 2)
		return -EINVAL;
	return dcm_chest_calib_index(rs485_number(d->bus), d->address, mn->num);
}

/*
 * The chest board's transport and address, for a model; the caller holds
 * the controller's SRCU. Return: the chest device index, -ENOENT with no
 * chest board, -ENODEV with no transport for its bus.
 */
static int chest_open(struct dcm_controller *ctrl, const struct dcm_model *m,
		      struct chest_io *io)
{
	int chest = find_store(m);

	if (chest < 0)
		return -ENOENT;
	io->t = dcm_bus_find(ctrl, m->devices[chest].bus);
	io->addr = m->devices[chest].address;
	if (!io->t || io->t->kind != DCM_BUS_REGS)
		return -ENODEV;
	return chest;
}

/* Read the body record, page by page. */
static int read_body(struct chest_io *io, u8 *image)
{
	int p, ret;

	for (p = 0; p < BODY_PAGES; p++) {
		ret = chest_load_page(io, p, image + p * DCM_CHEST_EE_PAGE_LEN);
		if (ret)
			return ret;
	}
	return 0;
}

/* Commit the pages of @pages, in order; the page that failed in @failed. */
static int write_body(struct chest_io *io, const u8 *image, u32 pages, int *failed)
{
	int p, ret;

	for (p = 0; p < BODY_PAGES; p++) {
		if (!(pages & BIT(p)))
			continue;
		ret = chest_commit_page(io, p, image + p * DCM_CHEST_EE_PAGE_LEN);
		if (ret) {
			*failed = p;
			return ret;
		}
	}
	return 0;
}

/* Replace a string key's value. */
static void set_string(struct dcm_controller *ctrl, union dcm_value *v, const char *s)
{
	dcm_board_set_str(ctrl, v, s);
}

/* A string key's value into @buf, "" if none. */
static void get_string(struct dcm_controller *ctrl, const union dcm_value *v, char *buf,
		       size_t len)
{
	mutex_lock(&ctrl->desc.keys_lock);
	strscpy(buf, v && v->str ? v->str : "", len);
	mutex_unlock(&ctrl->desc.keys_lock);
}

/* A store problem: the log, and an event for user space. */
static void store_event(struct dcm_controller *ctrl, const char *chest, u32 type, int err,
			const char *text)
{
	struct dcm_event ev = { .type = type, .code = -err, .value = err };

	if (type == DCM_EV_ERROR) {
		ev.level = 4;
		dev_warn(&ctrl->dev, "chest store: %s\n", text);
	} else {
		dev_info(&ctrl->dev, "chest store: %s\n", text);
	}
	strscpy(ev.device, chest, sizeof(ev.device));
	snprintf(ev.text, sizeof(ev.text), "chest store: %s", text);
	dcm_event_post(ctrl, &ev);
}

/*
 * A name of the record replaces the description's, if it is a valid string
 * key value: no control character, as the configuration and sysfs require
 * (a corrupt store must not put escape sequences in the key files and the
 * log, nor a value the preferences file cannot hold). An invalid one is
 * refused, said in the log and as an event, and the description's kept.
 */
static void apply_name(struct dcm_controller *ctrl, struct dcm_model *m, u32 chest,
		       const char *key, const char *s)
{
	union dcm_value *v = dev_key(m, chest, key);
	char text[DCM_EVENT_TEXT_LEN - 16];

	if (!v || !s[0])
		return;
	if (dcm_string_ok(s)) {
		set_string(ctrl, v, s);
		return;
	}
	snprintf(text, sizeof(text), "%s holds a control character: the description's is kept",
		 key);
	store_event(ctrl, m->devices[chest].name, DCM_EV_ERROR, -EINVAL, text);
}

/* A name of the record as the log may show it. */
static const char *store_name(const char *s)
{
	if (!s[0])
		return "-";
	return dcm_string_ok(s) ? s : "(refused)";
}

/* Give a model the record's calibrations and names; how many joints took one. */
static u32 apply_body(struct dcm_controller *ctrl, struct dcm_model *m, u32 chest,
		      const struct dcm_chest_body *b)
{
	union dcm_value *v;
	u32 i, n = 0;
	int idx, ps;

	apply_name(ctrl, m, chest, "BodyId", b->body_id);
	apply_name(ctrl, m, chest, "BodyNickName", b->nick);
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (dcm_chest_joint_sub(m, s->device, s->number, false) != i)
			continue;
		idx = dcm_chest_store_index(m, s->device, s->number);
		ps = dcm_chest_joint_sub(m, s->device, s->number, true);
		if (idx < 0 || ps < 0 || !b->zero[idx])
			continue;
		v = sub_key(m, ps, "jointZeroPosition");
		if (!v)
			continue;
		WRITE_ONCE(v->num, b->zero[idx]);
		n++;
	}
	return n;
}

/**
 * dcm_chest_load() - a new description takes the body record of the store
 * @ctrl: the controller
 * @m: the description being committed, not yet running
 *
 * The jointZeroPosition of every joint whose motor has a calibration in the
 * chest board's store, and BodyId and BodyNickName when the record has
 * them, replace the description's; with no record (-ENODATA), a corrupt one
 * (-EBADMSG, a commit cut halfway), or a store that cannot be read, the
 * description keeps its own, which is logged and posted as an event.
 * A description without a chest board is left alone. Context: a job of
 * the controller (dcm_describe_load()), holding no lock; the cycle carries
 * the chest board's bus a page at a time.
 */
void dcm_chest_load(struct dcm_controller *ctrl, struct dcm_model *m)
{
	struct dcm_chest_body *b;
	struct chest_io *io;
	char text[DCM_EVENT_TEXT_LEN - 16];
	const char *name;
	u8 *image;
	int chest, idx, ret;
	u32 n;

	io = kzalloc(sizeof(*io), GFP_KERNEL);
	image = kmalloc(DCM_CHEST_BODY_LEN, GFP_KERNEL);
	b = kmalloc(sizeof(*b), GFP_KERNEL);
	if (!io || !image || !b)
		goto out;

	idx = srcu_read_lock(&ctrl->srcu);
	chest = chest_open(ctrl, m, io);
	ret = chest < 0 ? chest : read_body(io, image);
	srcu_read_unlock(&ctrl->srcu, idx);
	if (chest == -ENOENT)
		goto out;
	name = m->devices[find_store(m)].name;
	if (chest == -ENODEV) {
		store_event(ctrl, name, DCM_EV_CONFIG, chest,
			    "no transport for the chest board: the description's calibration is kept");
		goto out;
	}
	if (ret) {
		snprintf(text, sizeof(text),
			 "unreadable (%d): the description's calibration is kept", ret);
		store_event(ctrl, name, DCM_EV_ERROR, ret, text);
		goto out;
	}
	ret = dcm_chest_body_get(image, b);
	switch (ret) {
	case 0:
		n = apply_body(ctrl, m, chest, b);
		snprintf(text, sizeof(text), "body %s (%s), %u joint calibrations",
			 store_name(b->body_id), store_name(b->nick), n);
		store_event(ctrl, name, DCM_EV_CONFIG, 0, text);
		break;
	case -ENODATA:
		store_event(ctrl, name, DCM_EV_CONFIG, ret,
			    "empty: the description's calibration is kept");
		break;
	case -EBADMSG:
		store_event(ctrl, name, DCM_EV_ERROR, ret,
			    "body record corrupt (CRC): the description's calibration is kept");
		break;
	default:
		store_event(ctrl, name, DCM_EV_ERROR, ret,
			    "body record not understood: the description's calibration is kept");
		break;
	}
out:
	kfree(b);
	kfree(image);
	kfree(io);
}

/**
 * dcm_chest_store_zero() - write one joint's zero to the store
 * @ctrl: the controller
 * @m: the running description
 * @store: the joint's place in the record (dcm_chest_store_index())
 * @joint: the joint's name, for the log and events
 * @zero: its jointZeroPosition
 * @why: on failure, set to a message for the user (a literal)
 *
 * Reads the record, changes the zero, and writes the pages that changed
 * (dcm_calib_record()); the record's names are the description's BodyId
 * and BodyNickName. Context: a job of the controller (dcm_calibrate()),
 * holding no lock; the cycle carries the chest board's bus a page at a time.
 *
 * Return: 0, -ENOMEM, or -EIO when the store cannot be read or written
 * (an event says which page failed).
 */
int dcm_chest_store_zero(struct dcm_controller *ctrl, const struct dcm_model *m, int store,
			 const char *joint, u16 zero, const char **why)
{
	char id[DCM_CHEST_NAME_LEN], nick[DCM_CHEST_NAME_LEN], text[DCM_EVENT_TEXT_LEN - 16];
	int chest, idx, ret, old_err = 0, failed = -1;
	struct chest_io *io;
	u8 *old, *image;
	u32 pages = 0;

	io = kzalloc(sizeof(*io), GFP_KERNEL);
	old = kmalloc(2 * DCM_CHEST_BODY_LEN, GFP_KERNEL);
	if (!io || !old) {
		ret = -ENOMEM;
		goto out;
	}
	image = old + DCM_CHEST_BODY_LEN;
	idx = srcu_read_lock(&ctrl->srcu);
	chest = chest_open(ctrl, m, io);
	if (chest < 0) {
		*why = "no chest board to store the calibration in";
		ret = -EIO;
		goto unlock;
	}
	ret = read_body(io, old);
	if (ret) {
		*why = "the chest board's store cannot be read";
		ret = -EIO;
		goto unlock;
	}
	get_string(ctrl, dev_key(m, chest, "BodyId"), id, sizeof(id));
	get_string(ctrl, dev_key(m, chest, "BodyNickName"), nick, sizeof(nick));
	ret = dcm_calib_record(old, image, id, nick, store, zero, &pages, &old_err);
	if (!ret && old_err)
		dev_info(&ctrl->dev, "chest store: no valid body record (%d): a new one is written\n",
			 old_err);
	if (!ret)
		ret = write_body(io, image, pages, &failed);
	if (ret) {
		*why = "the chest board's store cannot be written";
		snprintf(text, sizeof(text), "writing page %d failed: %s not calibrated", failed,
			 joint);
		store_event(ctrl, m->devices[chest].name, DCM_EV_ERROR, -EIO, text);
		ret = -EIO;
	}
unlock:
	srcu_read_unlock(&ctrl->srcu, idx);
out:
	kfree(old);
	kfree(io);
	return ret;
}
