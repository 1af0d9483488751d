// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the battery (Battery), a smart battery on the chest's I2C bus.
 *
 * It is polled one word register per cycle (dcm_bat_poll_reg()); its
 * Current, Charge and Temperature change when their register comes round,
 * and the Charge's Status key takes its status bits, whose changes are
 * events. Its Current past its Min or Max puts the battery rule of the
 * stiffness in force (seed 000).
 */

#include <linux/string.h>
#include <asm/unaligned.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "core/dcm_events.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_battery.h"

/* Its version is a block string: the special command's room must hold it. */
static_assert(DCM_BAT_BLOCK_MAX + 1 <= DCM_BOARD_VERSION_LEN);

enum { BAT_CURRENT, BAT_CHARGE, BAT_TEMP };

static const struct dcm_board_role battery_roles[] = {
	{ "Current", 1, BAT_CURRENT }, { "Charge", 1, BAT_CHARGE }, { "Temperature", 1, BAT_TEMP },
};

/**
 * struct battery_priv - a battery's running state
 * @regs: what its registers said last
 * @status: its last status bits, for their events
 * @poll: cycles it was polled: which register comes next
 * @charge_status: its Charge's Status key, or NULL
 * @reg: the register the cycle reads
 * @word: what it read there
 */
struct battery_priv {
	struct dcm_battery regs;
	u16 status;
	u32 poll;
	union dcm_value *charge_status;
	u8 reg;
	u8 word[2];
};

static void battery_bind(struct dcm_runtime *rt, u32 dev)
{
	struct battery_priv *p = dcm_board_priv(rt, dev);

	p->charge_status = dcm_board_sub_key(rt->model, rt->dev[dev].role[BAT_CHARGE], "Status");
}

/* One word a cycle, the registers in turn (dcm_bat_poll_reg()). */
static void battery_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct battery_priv *p = dcm_board_priv(rt, dev);

	p->reg = dcm_bat_poll_reg(p->poll++);
	dcm_regs_read(io, p->reg, p->word, sizeof(p->word));
}

static bool battery_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret,
			u32 now)
{
	struct battery_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	struct dcm_battery *b = &p->regs;
	u16 status;

	if (ret || dcm_bat_get_word(b, p->reg, get_unaligned_le16(p->word))) {
		dcm_runtime_answer(rt, dev, false, DCM_ERR_NO_ANSWER, 7, 0, now);
		return false;
	}
	dcm_runtime_sense(rt, role[BAT_CURRENT], b->current_ma, now);
	dcm_runtime_sense(rt, role[BAT_CHARGE], b->charge, now);
	dcm_runtime_sense(rt, role[BAT_TEMP], b->temperature, now);
	status = dcm_bat_status(b);
	dcm_board_set_live(p->charge_status, status);
	/* The first reading of a description sets the bits; changes are events. */
	if (rt->dev[dev].ack && status != p->status)
		dcm_event(rt->ctrl, DCM_EV_BATTERY, rt->model->devices[dev].name,
			  status ^ p->status, status, "battery status bits 0x%04x", status);
	p->status = status;
	dcm_runtime_answer(rt, dev, true, 0, 0, 0, now);
	return false;
}

/* Its firmware string, to FirmwareVersion. */
static int battery_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
			   struct dcm_board_buf *xb, char *version, size_t len)
{
	u8 data[DCM_BAT_BLOCK_MAX + 1];
	int ret;

	ret = dcm_board_read(t, rt->model->devices[dev].address, xb->tx, DCM_BAT_FIRMWARE, data,
			     sizeof(data));
	if (!ret)
		ret = dcm_smbus_block_get(data, sizeof(data), version, len);
	if (ret < 0)
		return ret;
	dcm_board_set_str(rt->ctrl, dcm_board_dev_key(rt->model, dev, "FirmwareVersion"),
			  version);
	return 0;
}

static const struct dcm_board_regs battery_regs = {
	.put = battery_put,
	.get = battery_get,
	.version = battery_version,
};

/* Its Current below its Min or above its Max puts the battery rule in force. */
const struct dcm_board_type dcm_battery_board = {
	.name = "Battery",
	.roles = battery_roles,
	.n_roles = ARRAY_SIZE(battery_roles),
	.priv_size = sizeof(struct battery_priv),
	.limits = BIT(BAT_CURRENT),
	.bind = battery_bind,
	.regs = &battery_regs,
};
