/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - board types as objects (Documentation/dcm/boards.rst): the
 * contract between the core and the boards layer.
 */
#ifndef _DCM_BOARD_TYPE_H
#define _DCM_BOARD_TYPE_H

#include <linux/types.h>

#include "core/dcm_runtime.h"

struct dcm_bus;
struct dcm_controller;
struct dcm_board_rs485;
struct dcm_board_regs;

/**
 * DOC: The board contract
 *
 * Each board type of the robot description (its Type, "MotorBoard") is one
 * constant &struct dcm_board_type, in the file of its family under boards/,
 * and the boards layer gives the core its table at module init
 * (dcm_boards_set(), &struct dcm_boards). What every type has is small:
 * its name, the subdevices it addresses (its roles), the size of the
 * private area each of its boards gets in the runtime, and, if it needs
 * more than its roles, a bind op. The rest is by what the board is:
 *
 * - the part its bus kind calls: an RS485 board's &struct dcm_board_rs485
 *   (core/dcm_bus_rs485.h: its slot of the cyclic broadcast, its reply,
 *   its identity, its configuration, its error codes), or a register
 *   board's &struct dcm_board_regs (core/dcm_bus_regs.h: the transactions
 *   it puts in its bus's exchange, what it takes of them, its versions):
 *   either way the kind drives the exchange and the board fills and reads
 *   its part, with no I/O of its own in the cycle;
 * - a board that drives joints, its &struct dcm_board_joints: its
 *   stiffness rules, which the cycle applies, and what calibration and the
 *   chest store ask of its joints;
 * - a board whose reading puts the controller-wide battery rule in force,
 *   its &dcm_board_type.limits (data: the role whose Min and Max are the
 *   limits).
 *
 * The core calls the boards only through these. Looking a Type up
 * (dcm_board_type_find()) is the one place a Type is compared; the cycle,
 * the special commands, the chest store and the safety rules ask the type.
 * What the boards layer does once per description, not per board (the
 * body record, loaded from the chest board's store), it gives the core in
 * &struct dcm_boards.
 */

/**
 * struct dcm_board_role - a subdevice a board type addresses
 * @type: its Type ("Joint")
 * @number: its SubDeviceNumber
 * @role: its index in struct dcm_rt_device.role
 */
struct dcm_board_role {
	const char *type;
	u32 number;
	u8 role;
};

/**
 * struct dcm_board_buf - the buffers of a request outside the cycle
 *	(chaining, configuration, versions): the cycle's own scratch in the
 *	runtime is for the cycle alone
 * @tx: what goes out; an RS485 frame is the largest
 * @rx: what comes back
 */
struct dcm_board_buf {
	u8 tx[DCM_RS485_MAX_FRAME];
	u8 rx[DCM_RS485_MAX_FRAME];
};

/* Room for a board's version string, NUL included (struct dcm_board_regs.version) */
#define DCM_BOARD_VERSION_LEN	33

/**
 * struct dcm_board_joints - what a board that drives joints does
 * @joint: the Type of its joints' position actuators ("Joint"), their
 *	SubDeviceNumber the motor's number on the board, from 1
 * @position: the Type of its joints' position sensors ("JointPosition"),
 *	numbered as @joint
 * @safety: the per-board stiffness rules, on the actuators the cycle has
 *	just computed (dcm_boards_safety()). Context: the cycle, under the
 *	runtime's cmd_lock. Required.
 * @mre: the MRE count of motor @slot (SubDeviceNumber - 1) in the board's
 *	last reply, in its own frame (dcm_calib_raw()); -ENODATA when the
 *	board has no configuration. Context: process. Required.
 * @hold: hold motor @slot as uncalibrated (its hardness at 0, its position
 *	command following its sensor), or let it go. Context: process.
 *	Required.
 *
 * The chest store and calibration (boards/dcm_chest_store.c,
 * boards/dcm_chest_calib.c) find a board's joints by @joint and
 * @position, on a description that may not run yet.
 */
struct dcm_board_joints {
	const char *joint;
	const char *position;
	void (*safety)(struct dcm_runtime *rt, u32 dev, u32 scale_ppm, u32 now);
	int (*mre)(const struct dcm_runtime *rt, u32 dev, u32 slot, u16 *raw);
	void (*hold)(struct dcm_runtime *rt, u32 dev, u32 slot, bool on);
};

/**
 * struct dcm_board_type - what a kind of board is and does
 * @name: the Type of its devices in the robot description
 * @roles: the subdevices it addresses, bound once per description
 *	(dcm_board_bind())
 * @n_roles: entries of @roles
 * @priv_size: bytes of the private area each of its boards gets in the
 *	runtime (struct dcm_rt_device.priv), zeroed; 0 for none
 * @limits: the roles (BIT() of each) whose value outside its subdevice's
 *	Min..Max puts the controller-wide battery rule in force (seed 000:
 *	the battery's Current); 0 for none
 * @bind: with the runtime being created, its roles bound: find the keys
 *	and subdevices the board's cycle uses (by name, once) into its
 *	private area; a board whose subdevices are found by a scan (more of
 *	them than roles) finds them here. NULL: the roles are all.
 *	In process context.
 * @rs485: an RS485 board: what its bus kind asks of it; NULL for a board
 *	of another kind (on an RS485 bus, its slot is zeros and any reply
 *	an Ack)
 * @regs: a register (I2C, SPI) board: what its bus kind asks of it; NULL
 *	for a board of another kind (on a register bus, it is not exchanged
 *	with)
 * @joints: a board that drives joints; NULL for none
 */
struct dcm_board_type {
	const char *name;
	const struct dcm_board_role *roles;
	u32 n_roles;
	size_t priv_size;
	u32 limits;
	void (*bind)(struct dcm_runtime *rt, u32 dev);
	const struct dcm_board_rs485 *rs485;
	const struct dcm_board_regs *regs;
	const struct dcm_board_joints *joints;
};

/**
 * struct dcm_boards - what the boards layer gives the core at module init
 * @types: the board types, each device's found by its Type
 * @n_types: entries of @types
 * @load_record: load the body's record (its joints' zeros, BodyId,
 *	BodyNickName) into a description being committed, not yet running,
 *	from the board that keeps it (the chest board's store); a
 *	description without that board is left as it is. NULL: no record.
 *	A job of the controller (dcm_describe_load()), holding no lock;
 *	waits for the cycle to carry the board's transfers.
 */
struct dcm_boards {
	const struct dcm_board_type *const *types;
	u32 n_types;
	void (*load_record)(struct dcm_controller *ctrl, struct dcm_model *m);
};

/* Devices of a Type no board type knows: bound, never exchanged with. */
extern const struct dcm_board_type dcm_plain_board;

/* dcm_board_type.c: the table, binding, what the board files share */
void dcm_boards_set(const struct dcm_boards *boards);
const struct dcm_board_type *dcm_board_type_find(const char *name);
void dcm_boards_load_record(struct dcm_controller *ctrl, struct dcm_model *m);
union dcm_value *dcm_board_dev_key(const struct dcm_model *m, u32 dev, const char *key);
union dcm_value *dcm_board_sub_key(const struct dcm_model *m, s32 sub, const char *key);
s32 dcm_board_find_sub(const struct dcm_model *m, u32 dev, const char *type, u32 number);
void dcm_board_set_str(struct dcm_controller *ctrl, union dcm_value *v, const char *s);

/**
 * dcm_board_priv() - a board's private area
 * @rt: the runtime
 * @dev: the device index
 *
 * Return: the area of struct dcm_board_type.priv_size bytes.
 */
static inline void *dcm_board_priv(const struct dcm_runtime *rt, u32 dev)
{
	return rt->dev[dev].priv;
}

/**
 * dcm_board_act_raw() - the raw number an actuator role was last given
 * @rt: the runtime
 * @sub: the actuator's subdevice index, or -1
 *
 * Return: that number, or 0 for no actuator.
 */
static inline s64 dcm_board_act_raw(const struct dcm_runtime *rt, s32 sub)
{
	if (sub < 0 || rt->act_of[sub] < 0)
		return 0;
	return rt->act[rt->act_of[sub]].raw;
}

/**
 * dcm_board_set_live() - set a LIVE number key the board reports
 * @v: the key, as dcm_board_sub_key() or dcm_board_dev_key() found it at
 *	bind, or NULL when the description has none
 * @num: the value
 */
static inline void dcm_board_set_live(union dcm_value *v, s64 num)
{
	if (v)
		WRITE_ONCE(v->num, num);
}

/* dcm_board_type.c: what the core asks of the boards */
int dcm_boards_bind(struct dcm_runtime *rt);
void dcm_bus_missing(struct dcm_runtime *rt, u32 bus, u32 now);
bool dcm_boards_over_limit(const struct dcm_runtime *rt);
void dcm_boards_safety(struct dcm_runtime *rt, u32 scale_ppm, u32 now);

#endif /* _DCM_BOARD_TYPE_H */
