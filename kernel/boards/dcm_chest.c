// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the chest board (ChestBoard): its cyclic exchange.
 *
 * Each cycle, the chest board's button is read over the chest's I2C bus, and
 * its LEDs and LED state are written when one of them changed. It keeps the
 * ChainResult key, and the body's record: its store is dcm_chest_store.c,
 * the joint calibration written there dcm_chest_calib.c.
 */

#include <linux/minmax.h>

#include "boards/dcm_board_table.h"
#include "boards/dcm_chest.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "model/dcm_model.h"
#include "core/dcm_runtime.h"
#include "wire/dcm_wire_chest.h"

enum { CHEST_RED, CHEST_GREEN, CHEST_BLUE, CHEST_STATE, CHEST_BUTTON };

static const struct dcm_board_role chest_roles[] = {
	{ "Led", 1, CHEST_RED }, { "Led", 2, CHEST_GREEN }, { "Led", 3, CHEST_BLUE },
	{ "LedState", 1, CHEST_STATE }, { "Switch", 1, CHEST_BUTTON },
};

/**
 * struct chest_priv - the chest board's running state
 * @led: its LED block, as last written
 * @button: its BUTTON register, as the cycle read it
 */
struct chest_priv {
	struct dcm_out_cache led;
	u8 button;
};

/*
 * The LED block when it changed (dcm_out_due()), then the button: all the
 * cycle needs of the board (STATUS and the LED registers are not read).
 */
static_assert(DCM_CHEST_OUT_LEN <= DCM_OUT_MAX);

static void chest_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct chest_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	u8 out[DCM_CHEST_OUT_LEN];
	struct dcm_chest_out o;
	int c;

	for (c = 0; c < 3; c++)
		o.led[c] = clamp_t(s64, dcm_board_act_raw(rt, role[CHEST_RED + c]), 0, 255);
	o.led_state = clamp_t(s64, dcm_board_act_raw(rt, role[CHEST_STATE]), 0, 255);
	dcm_chest_put_out(out, &o);
	if (dcm_out_due(&p->led, out, sizeof(out)))
		dcm_regs_write(io, DCM_CHEST_OUT_REG, out, sizeof(out));
	dcm_regs_read(io, DCM_CHEST_BUTTON, &p->button, 1);
}

static bool chest_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	struct chest_priv *p = dcm_board_priv(rt, dev);

	dcm_out_done(&p->led, ret);
	if (!ret)
		dcm_runtime_sense(rt, rt->dev[dev].role[CHEST_BUTTON],
				  !!(p->button & DCM_CHEST_BUTTON_PRESSED), now);
	dcm_reg_answer(rt, dev, ret, now);
	return false;
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

static const struct dcm_board_regs chest_regs = {
	.put = chest_put,
	.get = chest_get,
	.version = chest_version,
};

/* Its store is the body record, which the board table loads (dcm_chest_load()). */
const struct dcm_board_type dcm_chest_board = {
	.name = "ChestBoard",
	.roles = chest_roles,
	.n_roles = ARRAY_SIZE(chest_roles),
	.priv_size = sizeof(struct chest_priv),
	.regs = &chest_regs,
};
