// SPDX-License-Identifier: GPL-2.0
/*
 * dcm - the ultrasound board (USBoard), on the chest's I2C bus.
 *
 * The US actuator is a step one: its MODE is written only in the cycle a
 * command comes due (a command for the mode it already has too), which
 * starts a capture on the board. Every cycle COUNTER, STATUS, the result's
 * MODE and the single-capture distance are read (4 bytes); the echoes (20
 * bytes) only when COUNTER changed and the result is a dual capture, and
 * FW_VERSION (to ProgVersion) once, and again after a failed exchange. A
 * new result goes to US/Sensor (single capture) or to both receivers'
 * echoes (dual capture: Value, then the LIVE keys Value1..Value9), as the
 * board says which mode it comes from, once the board has stored a result
 * (COUNTER not 0). The board measures at most every 10 ms (every 100 ms
 * when periodic): most cycles read 4 bytes of it
 * (Documentation/dcm/wire-protocol.rst, "Ultrasound board").
 */

#include <linux/string.h>

#include "boards/dcm_board_table.h"
#include "core/dcm_board_type.h"
#include "core/dcm_bus_regs.h"
#include "wire/dcm_regs.h"
#include "wire/dcm_wire_sonar.h"

enum { US_ACT, US_MONO, US_LEFT, US_RIGHT };

static const struct dcm_board_role us_roles[] = {
	{ "US", 1, US_ACT }, { "USSensor", 1, US_MONO },
	{ "USEchoSensor", 1, US_LEFT }, { "USEchoSensor", 2, US_RIGHT },
};

/* Every cycle: COUNTER..MONO; the first time from FW_VERSION on. */
#define US_HEAD_LEN	(DCM_US_MONO - DCM_US_IN_REG + 1)
#define US_FIRST_LEN	(DCM_US_MONO - DCM_REG_FW_VERSION + 1)
/* A new dual capture's: both receivers' echoes. */
#define US_ECHO_LEN	(DCM_US_RIGHT + DCM_US_ECHOES - DCM_US_LEFT)
static_assert(DCM_US_RIGHT + DCM_US_ECHOES == DCM_US_IN_REG + DCM_US_IN_LEN);

static const char *const echo_keys[DCM_US_ECHOES - 1] = {
	"Value1", "Value2", "Value3", "Value4", "Value5", "Value6", "Value7", "Value8", "Value9",
};

/**
 * struct sonar_priv - an ultrasound board's running state, and the keys its
 *	cycle sets
 * @prog_version: its ProgVersion key, or NULL
 * @echo: the Value1..Value9 keys of the left and right receivers, or NULL
 * @counter: the COUNTER of the last result taken
 * @taken: @counter is known: a result was taken since bind or the last
 *	failed exchange
 * @version: FW_VERSION was read since then
 * @first: the first register the cycle reads: COUNTER, or FW_VERSION
 * @echoes: the cycle reads the echoes of a new dual capture (its second
 *	round)
 * @in: what the cycle read from @first to MONO
 * @block: the cyclic block: COUNTER..MONO, and the echoes when read
 */
struct sonar_priv {
	union dcm_value *prog_version;
	union dcm_value *echo[2][DCM_US_ECHOES - 1];
	u8 counter;
	bool taken;
	bool version;
	u8 first;
	bool echoes;
	u8 in[US_FIRST_LEN];
	u8 block[DCM_US_IN_LEN];
};

static void sonar_bind(struct dcm_runtime *rt, u32 dev)
{
	struct sonar_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	int i;

	p->prog_version = dcm_board_dev_key(rt->model, dev, "ProgVersion");
	for (i = 0; i < DCM_US_ECHOES - 1; i++) {
		p->echo[0][i] = dcm_board_sub_key(rt->model, role[US_LEFT], echo_keys[i]);
		p->echo[1][i] = dcm_board_sub_key(rt->model, role[US_RIGHT], echo_keys[i]);
	}
}

/* A receiver's ten echoes: Value, then the LIVE keys Value1..Value9. */
static void sense_echoes(struct dcm_runtime *rt, s32 sub, union dcm_value *const *keys,
			 const u8 *cm, u32 now)
{
	int i;

	if (sub < 0)
		return;
	dcm_runtime_sense(rt, sub, cm[0], now);
	for (i = 1; i < DCM_US_ECHOES; i++)
		dcm_board_set_live(keys[i - 1], dcm_from_raw(&rt->conv[sub], cm[i]));
}

/* MODE if a command came due, then COUNTER..MONO (from FW_VERSION the first time). */
static void sonar_put(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io)
{
	struct sonar_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	s32 a = role[US_ACT] < 0 ? -1 : rt->act_of[role[US_ACT]];
	u8 mode;

	if (a >= 0 && rt->act[a].fired) {
		mode = clamp_t(s64, rt->act[a].raw, 0, 255);
		dcm_regs_write(io, DCM_US_MODE, &mode, 1);
	}
	p->first = p->version ? DCM_US_IN_REG : DCM_REG_FW_VERSION;
	p->echoes = false;
	dcm_regs_read(io, p->first, p->in, DCM_US_MONO + 1 - p->first);
}

/*
 * What the cycle read: a new result is taken, but that of a dual capture
 * only once its echoes were read too, in a second round.
 */
static bool sonar_get(struct dcm_runtime *rt, u32 dev, struct dcm_regs_io *io, int ret, u32 now)
{
	struct sonar_priv *p = dcm_board_priv(rt, dev);
	const s16 *role = rt->dev[dev].role;
	struct dcm_us u;
	bool fresh;

	if (ret) {
		/* It may have been reset: everything is read again. */
		p->taken = false;
		p->version = false;
		dcm_reg_answer(rt, dev, ret, now);
		return false;
	}
	if (!p->echoes) {
		if (!p->version)
			dcm_board_set_live(p->prog_version, p->in[0]);
		p->version = true;
		memset(p->block, 0, sizeof(p->block));
		memcpy(p->block, p->in + DCM_US_IN_REG - p->first, US_HEAD_LEN);
	}
	dcm_us_get(p->block, &u);
	fresh = u.counter && (!p->taken || u.counter != p->counter);
	if (fresh && (u.result_mode & DCM_US_M_DUAL) && !p->echoes) {
		p->echoes = true;
		dcm_regs_read(io, DCM_US_LEFT, p->block + DCM_US_LEFT - DCM_US_IN_REG,
			      US_ECHO_LEN);
		return true;
	}
	p->counter = u.counter;
	p->taken = true;
	if (fresh && (u.result_mode & DCM_US_M_DUAL)) {
		sense_echoes(rt, role[US_LEFT], p->echo[0], u.left, now);
		sense_echoes(rt, role[US_RIGHT], p->echo[1], u.right, now);
	} else if (fresh) {
		dcm_runtime_sense(rt, role[US_MONO], u.mono, now);
	}
	dcm_reg_answer(rt, dev, 0, now);
	return false;
}

static const struct dcm_board_regs sonar_regs = {
	.put = sonar_put,
	.get = sonar_get,
};

const struct dcm_board_type dcm_sonar_board = {
	.name = "USBoard",
	.roles = us_roles,
	.n_roles = ARRAY_SIZE(us_roles),
	.priv_size = sizeof(struct sonar_priv),
	.bind = sonar_bind,
	.regs = &sonar_regs,
};
