// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the boards of the head, on its I2C bus: the head board (HeadBoard,
 * the CPU temperature) and the LED boards: the face (FaceBoard, 6 bits per
 * LED, one per byte), the ears (EarBoard) and the head touch board
 * (TouchBoard, 4 bits, two per byte), whose touch pads are read every
 * cycle. An LED board's block is written when one of its LEDs changed
 * (dcm_out_due()); in a cycle with nothing to write, the face and ear
 * boards have their WHOAMI read instead, so that each cycle still tells
 * whether they answer (their Ack or Nack). An LED the description lacks
 * stays off. The LED boards' subdevices are found by a scan of the
 * device's, at bind.
 */

#include <linux/string.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_head.h"

/* The head board: the CPU temperature, s32 milli-degrees Celsius. */

enum { HEAD_TEMP };

static const struct dcm_board_role head_roles[] = {
	{ "Temperature", 1, HEAD_TEMP },
};

/* Its block, read each cycle. */
struct head_priv {
	u8 in[DCM_HEAD_IN_LEN];
};

static void head_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct head_priv *p = dcm_board_priv(rt, dev);

	dcm_regs_read(io, DCM_HEAD_IN_REG, p->in, sizeof(p->in));
}

static bool head_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	struct head_priv *p = dcm_board_priv(rt, dev);

	if (!ret)
		dcm_runtime_sense(rt, rt->dev[dev].role[HEAD_TEMP], dcm_head_get_in(p->in), now);
	dcm_reg_answer(rt, dev, ret, now);
	return false;
}

static const struct dcm_board_regs head_regs = {
	.put = head_put,
	.get = head_get,
};

const struct dcm_board_type dcm_head_board = {
	.name = "HeadBoard",
	.roles = head_roles,
	.n_roles = ARRAY_SIZE(head_roles),
	.priv_size = sizeof(struct head_priv),
	.regs = &head_regs,
};

/* The touch board's pads: bit n is Touch n + 1. */
enum { PAD_1, PAD_2, PAD_3 };

static const struct dcm_board_role touch_roles[] = {
	{ "Touch", 1, PAD_1 }, { "Touch", 2, PAD_2 }, { "Touch", 3, PAD_3 },
};

/**
 * struct leds_priv - an LED board's LEDs
 * @led: the subdevice of Led n + 1, or -1
 * @out: its LED block, as last written
 * @in: what the cycle read: a write-only board's WHOAMI, the touch pads
 */
struct leds_priv {
	s16 led[DCM_FACE_N];
	struct dcm_out_cache out;
	u8 in;
};

static_assert(DCM_EAR_N <= DCM_FACE_N && DCM_TOUCH_N <= DCM_FACE_N);
static_assert(DCM_FACE_OUT_LEN <= DCM_OUT_MAX);

/* Its Led subdevices, by SubDeviceNumber. */
static void leds_bind(struct dcm_runtime *rt, u32 dev)
{
	struct leds_priv *p = dcm_board_priv(rt, dev);
	const struct dcm_model *m = rt->model;
	u32 i;

	memset(p->led, 0xff, sizeof(p->led));
	for (i = 0; i < m->n_subdevices; i++) {
		const struct dcm_subdevice *s = &m->subdevices[i];

		if (s->device == dev && s->number >= 1 && s->number <= DCM_FACE_N &&
		    !strcmp(s->type->name, "Led"))
			p->led[s->number - 1] = i;
	}
}

/* The raw levels of LEDs 1..@n, held within 0..@max. */
static void led_levels(const struct dcm_runtime *rt, u32 dev, u8 *level, u32 n, u8 max)
{
	const struct leds_priv *p = dcm_board_priv(rt, dev);
	u32 i;

	for (i = 0; i < n; i++)
		level[i] = p->led[i] < 0 ? 0 :
			   clamp_t(s64, dcm_board_act_raw(rt, p->led[i]), 0, max);
}

/*
 * A write-only LED board's cycle: its block @out of @len bytes at @reg when
 * it changed, else its WHOAMI.
 */
static void leds_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, u8 reg,
		     const u8 *out, u32 len)
{
	struct leds_priv *p = dcm_board_priv(rt, dev);

	if (dcm_out_due(&p->out, out, len))
		dcm_regs_write(io, reg, out, len);
	else
		dcm_regs_read(io, DCM_REG_WHOAMI, &p->in, 1);
}

/* What it answered: a WHOAMI read must be @whoami. */
static bool leds_get(struct dcm_runtime *rt, u32 dev, int ret, u32 now, u8 whoami)
{
	struct leds_priv *p = dcm_board_priv(rt, dev);

	if (!ret && !p->out.due && p->in != whoami)
		ret = -EIO;
	dcm_out_done(&p->out, ret);
	dcm_reg_answer(rt, dev, ret, now);
	return false;
}

static void face_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	u8 level[DCM_FACE_N], out[DCM_FACE_OUT_LEN];

	led_levels(rt, dev, level, DCM_FACE_N, DCM_FACE_MAX);
	dcm_face_put(out, level);
	leds_put(rt, dev, io, DCM_FACE_LEDS, out, sizeof(out));
}

static bool face_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	return leds_get(rt, dev, ret, now, DCM_WHOAMI_FACE);
}

static void ear_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	u8 level[DCM_EAR_N], out[DCM_EAR_OUT_LEN];

	led_levels(rt, dev, level, DCM_EAR_N, DCM_LED4_MAX);
	dcm_led4_put(out, level, DCM_EAR_N);
	leds_put(rt, dev, io, DCM_EAR_LEDS, out, sizeof(out));
}

static bool ear_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	return leds_get(rt, dev, ret, now, DCM_WHOAMI_EAR);
}

/* Its LEDs when they changed, and its pads. */
static void touch_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct leds_priv *lp = dcm_board_priv(rt, dev);
	u8 level[DCM_TOUCH_N], out[DCM_TOUCH_OUT_LEN];

	led_levels(rt, dev, level, DCM_TOUCH_N, DCM_LED4_MAX);
	dcm_led4_put(out, level, DCM_TOUCH_N);
	if (dcm_out_due(&lp->out, out, sizeof(out)))
		dcm_regs_write(io, DCM_TOUCH_LEDS, out, sizeof(out));
	dcm_regs_read(io, DCM_TOUCH_PADS, &lp->in, DCM_TOUCH_IN_LEN);
}

static bool touch_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	struct leds_priv *lp = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	int p;

	dcm_out_done(&lp->out, ret);
	if (!ret)
		for (p = PAD_1; p <= PAD_3; p++)
			dcm_runtime_sense(rt, role[p], !!(lp->in & DCM_TOUCH_MASK & BIT(p - PAD_1)),
					  now);
	dcm_reg_answer(rt, dev, ret, now);
	return false;
}

static const struct dcm_board_regs face_regs = {
	.put = face_put,
	.get = face_get,
};

const struct dcm_board_type dcm_face_board = {
	.name = "FaceBoard",
	.priv_size = sizeof(struct leds_priv),
	.bind = leds_bind,
	.regs = &face_regs,
};

static const struct dcm_board_regs ear_regs = {
	.put = ear_put,
	.get = ear_get,
};

const struct dcm_board_type dcm_ear_board = {
	.name = "EarBoard",
	.priv_size = sizeof(struct leds_priv),
	.bind = leds_bind,
	.regs = &ear_regs,
};

static const struct dcm_board_regs touch_regs = {
	.put = touch_put,
	.get = touch_get,
};

const struct dcm_board_type dcm_touch_board = {
	.name = "TouchBoard",
	.roles = touch_roles,
	.n_roles = ARRAY_SIZE(touch_roles),
	.priv_size = sizeof(struct leds_priv),
	.bind = leds_bind,
	.regs = &touch_regs,
};
