// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the chest board (ChestBoard): its cyclic exchange, its store, and
 * joint calibration.
 *
 * Each cycle, the chest board's button is read over the chest's I2C bus, and
 * its LEDs and LED state are written when one of them changed. It keeps the
 * ChainResult key.
 *
 * The chest board keeps the body's record (Documentation/dcm/wire-protocol.rst,
 * "Chest board"): BodyId, BodyNickName and the jointZeroPosition of every
 * motor, keyed by bus, Address and MotorNumber. When a description is
 * committed, before its motor boards are chained and configured, the record
 * is read and its non-zero calibrations (and the body's names) replace the
 * description's; an empty or corrupt store leaves the description as it is,
 * with a log line and an event.
 *
 * dcm_calibrate() (DCM_CMD_CALIBRATE, which the netlink face parses)
 * measures a joint's zero (from what its motor board reports at a known
 * angle) or takes it as given, writes it to the store (read-modify-write of
 * the record, only the pages that change), then sets the key and sends the
 * board its configuration again. A store that cannot
 * be written leaves the key as it was.
 *
 * The store and calibration are process context, outside the cycle: the
 * store is reached by addressed transfers on the chest board's bus, taking
 * the bus for one page at a time (the cycle skips a bus it cannot take at
 * once).
 */

#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "core/dcm_internal.h"
#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "model/dcm_calib.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "wire/dcm_wire_chest.h"
#include "wire/dcm_wire_motor.h"

enum { CHEST_RED, CHEST_GREEN, CHEST_BLUE, CHEST_STATE, CHEST_BUTTON };

static const struct dcm_board_role chest_roles[] = {
	{ "Led", 1, CHEST_RED }, { "Led", 2, CHEST_GREEN }, { "Led", 3, CHEST_BLUE },
	{ "LedState", 1, CHEST_STATE }, { "Switch", 1, CHEST_BUTTON },
};

/**
 * struct chest_priv - the chest board's running state
 * @led: its LED block, as last written
 */
struct chest_priv {
	struct dcm_out_cache led;
};

/*
 * The LED block when it changed (dcm_out_due()), then the button: all the
 * cycle needs of the board (STATUS and the LED registers are not read).
 */
static_assert(DCM_CHEST_OUT_LEN <= DCM_OUT_MAX);

static void chest_exchange(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now)
{
	struct dcm_rt_bus *bus = dcm_board_bus(rt, dev);
	struct chest_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	u8 out[DCM_CHEST_OUT_LEN], button;
	struct dcm_chest_out o;
	int c, ret;
	bool due;

	for (c = 0; c < 3; c++)
		o.led[c] = clamp_t(s64, dcm_board_act_raw(rt, role[CHEST_RED + c]), 0, 255);
	o.led_state = clamp_t(s64, dcm_board_act_raw(rt, role[CHEST_STATE]), 0, 255);
	dcm_chest_put_out(out, &o);
	due = dcm_out_due(&p->led, out, sizeof(out));
	ret = dcm_reg_xfer(t, rt->model->devices[dev].address, bus->txbuf, DCM_CHEST_OUT_REG, out,
			   due ? sizeof(out) : 0, DCM_CHEST_BUTTON, &button, 1);
	dcm_out_done(&p->led, due ? out : NULL, sizeof(out), ret);
	if (ret) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
		return;
	}
	dcm_runtime_sense(rt, role[CHEST_BUTTON], !!(button & DCM_CHEST_BUTTON_PRESSED), now);
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
}

/* Its program version, to ProgVersion. */
static int chest_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
			 struct dcm_board_buf *xb, char *version, size_t len)
{
	u8 data[DCM_CHEST_PROG_VERSION_LEN];
	int ret;

	ret = dcm_board_read(t, rt->model->devices[dev].address, xb->tx, DCM_CHEST_PROG_VERSION,
			     data, sizeof(data));
	if (!ret)
		ret = dcm_chest_prog_version(data, version, len);
	if (ret < 0)
		return ret;
	dcm_board_set_str(rt->ctrl, dcm_board_dev_key(rt->model, dev, "ProgVersion"), version);
	return 0;
}

static void dcm_chest_load(struct dcm_controller *ctrl, struct dcm_model *m);

const struct dcm_board_type dcm_chest_board = {
	.name = "ChestBoard",
	.flags = DCM_BOARD_F_STORE,
	.roles = chest_roles,
	.n_roles = ARRAY_SIZE(chest_roles),
	.priv_size = sizeof(struct chest_priv),
	.bind = dcm_board_bind,
	.exchange = chest_exchange,
	.version = chest_version,
	.store_load = dcm_chest_load,
};

#define BODY_PAGES	(DCM_CHEST_BODY_LEN / DCM_CHEST_EE_PAGE_LEN)
#define STORE_READY_MS	50	/* a commit takes a few ms: stuck past this */
#define REPLY_WAIT_MS	200	/* a motor board answers within this, or is lost */

/* The MRE angle a motor board reports: 2 pi / 4096 rad, Gain 0.0015339808. */
#define MRE_GAIN_MIN	1533
#define MRE_GAIN_MAX	1535

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

/* Write @len bytes from register @reg; the bus must be held. */
static int chest_write(struct chest_io *io, u8 reg, const u8 *data, size_t len)
{
	return dcm_reg_write(io->t, io->addr, io->buf, reg, data, len);
}

/* Read @len bytes from register @reg; the bus must be held. */
static int chest_read(struct chest_io *io, u8 reg, u8 *data, size_t len)
{
	return dcm_reg_read(io->t, io->addr, io->buf, reg, data, len);
}

/*
 * Wait while the store is busy with a commit, taking the bus for each look
 * at STATUS only. Return: 0 with @io->status read, -EIO if it stays busy.
 */
static int chest_wait_ready(struct chest_io *io)
{
	unsigned long end = jiffies + msecs_to_jiffies(STORE_READY_MS);
	int ret;

	for (;;) {
		mutex_lock(&io->t->xfer_lock);
		ret = chest_read(io, DCM_CHEST_STATUS, &io->status, 1);
		mutex_unlock(&io->t->xfer_lock);
		if (ret)
			return ret;
		if (!(io->status & DCM_CHEST_ST_EE_BUSY))
			return 0;
		if (time_after(jiffies, end))
			return -EIO;
		/*
		 * Not in the cycle: the store is read and written in process
		 * context, the bus free between two looks. A page commit
		 * takes the board's EEPROM its write cycle (a few ms): STATUS
		 * is polled every 0.5-1 ms meanwhile, not busy-waited.
		 */
		usleep_range(500, 1000);
	}
}

/* Load a page into the window and read it. */
static int chest_load_page(struct chest_io *io, u8 page, u8 *data)
{
	u8 cmd[2] = { page, DCM_CHEST_EE_LOAD };
	int ret;

	ret = chest_wait_ready(io);
	if (ret)
		return ret;
	mutex_lock(&io->t->xfer_lock);
	ret = chest_write(io, DCM_CHEST_EE_PAGE, cmd, sizeof(cmd));
	if (!ret)
		ret = chest_read(io, DCM_CHEST_STATUS, &io->status, 1);
	if (!ret && (io->status & DCM_CHEST_ST_EE_ERROR))
		ret = -EIO;
	if (!ret)
		ret = chest_read(io, DCM_CHEST_EE_WINDOW, data, DCM_CHEST_EE_PAGE_LEN);
	mutex_unlock(&io->t->xfer_lock);
	return ret;
}

/* Fill the window, commit it to a page, and wait until it is written. */
static int chest_commit_page(struct chest_io *io, u8 page, const u8 *data)
{
	u8 cmd[2] = { page, DCM_CHEST_EE_COMMIT };
	int ret;

	ret = chest_wait_ready(io);
	if (ret)
		return ret;
	mutex_lock(&io->t->xfer_lock);
	ret = chest_write(io, DCM_CHEST_EE_WINDOW, data, DCM_CHEST_EE_PAGE_LEN);
	if (!ret)
		ret = chest_write(io, DCM_CHEST_EE_PAGE, cmd, sizeof(cmd));
	mutex_unlock(&io->t->xfer_lock);
	if (!ret)
		ret = chest_wait_ready(io);
	if (!ret && (io->status & DCM_CHEST_ST_EE_ERROR))
		ret = -EIO;
	return ret;
}

/* A message for the user of a failed calibration. */
static void why_set(const char **why, const char *msg)
{
	*why = msg;
}

/* Whether a device's board type has @flag (DCM_BOARD_*). */
static bool board_has(const struct dcm_model *m, u32 d, u32 flag)
{
	return dcm_board_type_find(m->devices[d].type->name)->flags & flag;
}

/* The board that keeps the body record (the chest board), or -1. */
static int find_store(const struct dcm_model *m)
{
	u32 d;

	for (d = 0; d < m->n_devices; d++)
		if (board_has(m, d, DCM_BOARD_F_STORE))
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

/*
 * The joint subdevice of SubDeviceNumber @number of a board with motors,
 * its position sensor with @position; -1 for none, or a board without.
 */
static int find_joint_sub(const struct dcm_model *m, u32 dev, u32 number, bool position)
{
	const struct dcm_board_type *type = dcm_board_type_find(m->devices[dev].type->name);

	if (!(type->flags & DCM_BOARD_F_MOTORS))
		return -1;
	return type->joint_sub(m, dev, number, position);
}

/* N of "RS485-N", or 0. */
static u8 rs485_number(const char *bus)
{
	if (strncmp(bus, "RS485-", 6) || bus[6] < '1' || bus[6] > '9' || bus[7])
		return 0;
	return bus[6] - '0';
}

/*
 * Where the jointZeroPosition of a motor board's joint (by SubDeviceNumber)
 * sits in the store: by bus, Address and the Joint's MotorNumber.
 */
static int store_index(const struct dcm_model *m, u32 dev, u32 number)
{
	const struct dcm_device *d = &m->devices[dev];
	union dcm_value *mn;
	int js;

	js = find_joint_sub(m, dev, number, false);
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
	mutex_lock(&ctrl->keys_lock);
	strscpy(buf, v && v->str ? v->str : "", len);
	mutex_unlock(&ctrl->keys_lock);
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

		if (find_joint_sub(m, s->device, s->number, false) != i)
			continue;
		idx = store_index(m, s->device, s->number);
		ps = find_joint_sub(m, s->device, s->number, true);
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
 * A description without a chest board is left alone. Context: process,
 * under the controller's config_lock; takes the chest board's bus a page
 * at a time.
 */
static void dcm_chest_load(struct dcm_controller *ctrl, struct dcm_model *m)
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
 * struct joint - the joint a calibration is about
 * @dev: its motor board
 * @pos: its JointPosition subdevice
 * @slot: its motor on the board, SubDeviceNumber - 1
 * @store: its place in the store's record
 * @name: its name, "HeadYaw"
 */
struct joint {
	u32 dev;
	u32 pos;
	u32 slot;
	int store;
	char name[DCM_MAX_NAME_LEN];
};

/*
 * A joint by name ("HeadYaw") or by any subdevice of it ("HeadYaw/Position/
 * Sensor", with or without "Device/SubDeviceList/"). Return: 0, -ENOENT for
 * no such joint, -EINVAL for one that has no motor with an MRE of its own
 * on a motor board of an RS485 bus.
 */
static int find_joint(const struct dcm_model *m, const char *name, struct joint *j,
		      const char **why)
{
	static const char suffix[] = "/Position/Sensor";
	const struct dcm_subdevice *s;
	char path[DCM_MAX_NAME_LEN + sizeof(suffix)];
	u32 index = 0;
	size_t len;
	int ret, ps;
	u8 target;

	if (strchr(name, '/')) {
		ret = dcm_model_lookup(m, name, &target, &index);
		if (!ret && target != DCM_TARGET_SUBDEVICE)
			ret = -ENOENT;
	} else {
		snprintf(path, sizeof(path), "%s%s", name, suffix);
		ret = dcm_model_lookup(m, path, &target, &index);
		if (!ret && target != DCM_TARGET_SUBDEVICE)
			ret = -ENOENT;
	}
	if (ret) {
		why_set(why, "no such joint in the robot description");
		return -ENOENT;
	}
	s = &m->subdevices[index];
	ps = find_joint_sub(m, s->device, s->number, true);
	if (ps < 0 ||
	    s->number < 1 || s->number > DCM_MB_MOTORS) {
		why_set(why, "not a joint of a motor board with a position sensor");
		return -EINVAL;
	}
	j->dev = s->device;
	j->pos = ps;
	j->slot = s->number - 1;
	j->store = store_index(m, s->device, s->number);
	if (j->store < 0) {
		why_set(why,
			"the joint has no motor (MotorNumber) on RS485-1..4, Address 1..8: no place in the chest store");
		return -EINVAL;
	}
	strscpy(j->name, m->subdevices[ps].name, sizeof(j->name));
	len = strlen(j->name);
	if (len > sizeof(suffix) - 1 && !strcmp(j->name + len - (sizeof(suffix) - 1), suffix))
		j->name[len - (sizeof(suffix) - 1)] = '\0';
	return 0;
}

static bool answered_since(struct dcm_runtime *rt, u32 dev, u64 ack0)
{
	u64 ack, nack;

	dcm_runtime_counters(rt, dev, &ack, &nack);
	return ack > ack0;
}

/*
 * The MRE count of a joint now: from the board's next reply (relative to the
 * zero the board was configured with). Return: 0, -EIO if the board does
 * not answer or has no configuration, -EINTR.
 */
static int read_raw(struct dcm_controller *ctrl, struct dcm_runtime *rt, const struct joint *j,
		    u16 *raw, const char **why)
{
	u64 ack0, nack0;
	long left;

	dcm_runtime_counters(rt, j->dev, &ack0, &nack0);
	left = wait_event_interruptible_timeout(ctrl->cycle_wq, answered_since(rt, j->dev, ack0),
						msecs_to_jiffies(REPLY_WAIT_MS));
	if (left < 0)
		return -EINTR;
	if (!left) {
		why_set(why, "the joint's motor board does not answer");
		return -EIO;
	}
	if (rt->dev[j->dev].type->joint_mre(rt, j->dev, j->slot, raw)) {
		why_set(why,
			"the joint's motor board has no configuration: run the special command chain");
		return -EIO;
	}
	return 0;
}

/* Wait until the board answered @n more times, or is deemed lost. */
static void wait_replies(struct dcm_controller *ctrl, struct dcm_runtime *rt, u32 dev, u32 n)
{
	u64 ack0, nack0;

	dcm_runtime_counters(rt, dev, &ack0, &nack0);
	wait_event_timeout(ctrl->cycle_wq, answered_since(rt, dev, ack0 + n - 1),
			   msecs_to_jiffies(REPLY_WAIT_MS));
}

/*
 * Hold a joint as uncalibrated, from the next cycle on; or let it go once
 * its sensor read in the new frame and a cycle had its command follow it
 * (two replies: the cycle's rules run before its exchange).
 */
static void hold(struct dcm_controller *ctrl, struct dcm_runtime *rt, const struct joint *j,
		 bool on)
{
	const struct dcm_board_type *type = rt->dev[j->dev].type;

	if (on) {
		type->joint_hold(rt, j->dev, j->slot, true);
		wait_replies(ctrl, rt, j->dev, 1);
	} else {
		wait_replies(ctrl, rt, j->dev, 2);
		type->joint_hold(rt, j->dev, j->slot, false);
	}
}

/* Write one zero to the store: read the record, change it, write what changed. */
static int store_zero(struct dcm_controller *ctrl, const struct dcm_model *m,
		      const struct joint *j, u16 zero, const char **why)
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
		why_set(why, "no chest board to store the calibration in");
		ret = -EIO;
		goto unlock;
	}
	ret = read_body(io, old);
	if (ret) {
		why_set(why, "the chest board's store cannot be read");
		ret = -EIO;
		goto unlock;
	}
	get_string(ctrl, dev_key(m, chest, "BodyId"), id, sizeof(id));
	get_string(ctrl, dev_key(m, chest, "BodyNickName"), nick, sizeof(nick));
	ret = dcm_calib_record(old, image, id, nick, j->store, zero, &pages, &old_err);
	if (!ret && old_err)
		dev_info(&ctrl->dev, "chest store: no valid body record (%d): a new one is written\n",
			 old_err);
	if (!ret)
		ret = write_body(io, image, pages, &failed);
	if (ret) {
		why_set(why, "the chest board's store cannot be written");
		snprintf(text, sizeof(text), "writing page %d failed: %s not calibrated", failed,
			 j->name);
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

static const char *const stop_names[] = {
	[DCM_CALIB_HERE] = "here", [DCM_CALIB_MIN] = "min", [DCM_CALIB_MAX] = "max",
	[DCM_CALIB_SET] = "set",
};

/**
 * dcm_calibrate() - calibrate a joint's MRE
 * @ctrl: the controller, its config_lock held
 * @rt: its running state
 * @name: the joint ("HeadYaw"), or any subdevice of it
 * @stop: enum dcm_calib_stop
 * @zero: the zero given, for DCM_CALIB_SET only
 * @res: what was done, on success
 * @why: on failure, set to a message for the user (a literal), or left
 *
 * HERE, MIN and MAX measure: the joint is at 0 rad, or against the
 * mechanical stop at its position sensor's Min or Max, and its MRE count
 * (from the board's next reply) gives the zero (dcm_calib_zero()). SET
 * takes @zero (0 clears the calibration: hardness is then held at 0). The
 * zero goes to the chest board's store, then to the jointZeroPosition key,
 * then to the motor board in its configuration; DCM_EV_CALIBRATION is
 * posted. Waits for the board's replies, up to REPLY_WAIT_MS at each step.
 *
 * Return: 0; -ENOENT for an unknown joint; -EINVAL for a joint without an
 * MRE angle of its own on a motor board; -EIO when the board does not
 * answer (nothing is changed), when the store cannot be written (nothing
 * is changed), or when the board does not take its configuration (the
 * calibration is stored and set); -EINTR.
 */
int dcm_calibrate(struct dcm_controller *ctrl, struct dcm_runtime *rt, const char *name,
		  u8 stop, u16 zero, struct dcm_calib_result *res, const char **why)
{
	union dcm_value *key;
	struct joint j;
	u16 raw = 0, previous;
	s64 angle = 0;
	int ret;

	lockdep_assert_held(&ctrl->config_lock);
	ret = find_joint(rt->model, name, &j, why);
	if (ret)
		return ret;
	key = sub_key(rt->model, j.pos, "jointZeroPosition");
	if (!key)
		return -EINVAL;
	previous = READ_ONCE(key->num);

	if (stop != DCM_CALIB_SET) {
		s64 gain = dcm_model_gain(&rt->model->subdevices[j.pos]);

		if (gain < MRE_GAIN_MIN || gain > MRE_GAIN_MAX) {
			why_set(why,
				"the joint's position sensor is no MRE angle (Gain 2*pi/4096): calibrate it with STOP set");
			return -EINVAL;
		}
		if (stop == DCM_CALIB_MIN)
			angle = rt->model->subdevices[j.pos].min;
		else if (stop == DCM_CALIB_MAX)
			angle = rt->model->subdevices[j.pos].max;
	}
	/* The board must answer, whatever the stop: it takes the zero next. */
	ret = read_raw(ctrl, rt, &j, &raw, why);
	if (ret)
		return ret;
	if (stop != DCM_CALIB_SET && dcm_calib_zero(raw, angle, &zero))
		dev_info(&ctrl->dev, "%s: zero at count 0 (not calibrated), taken as 1\n", j.name);

	ret = store_zero(ctrl, rt->model, &j, zero, why);
	if (ret)
		return ret;

	/*
	 * The joint's position command is in the old zero's frame: hold the
	 * joint soft, its command following its sensor, until the board works
	 * in the new frame and the command was taken from it.
	 */
	hold(ctrl, rt, &j, true);
	WRITE_ONCE(key->num, zero);
	dev_info(&ctrl->dev, "%s calibrated (%s): jointZeroPosition %u, was %u\n", j.name,
		 stop_names[stop], zero, previous);
	dcm_event(ctrl, DCM_EV_CALIBRATION, j.name, stop, zero,
		  "%s: jointZeroPosition %u (was %u), %s", j.name, zero, previous,
		  stop_names[stop]);

	ret = dcm_board_configure(rt, j.dev);
	hold(ctrl, rt, &j, false);
	if (ret) {
		why_set(why,
			"calibration stored and set, but the motor board did not take its configuration");
		return -EIO;
	}
	strscpy(res->joint, j.name, sizeof(res->joint));
	res->zero = zero;
	res->previous = previous;
	res->raw = raw;
	return 0;
}
