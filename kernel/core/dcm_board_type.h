/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - board types as objects (Documentation/dcm/boards.rst): the
 * contract between the core and the boards layer.
 *
 * Each board type of the robot description (its Type, "MotorBoard") is one
 * constant struct dcm_board_type, in the file of its family under boards/,
 * and the boards layer gives the core its table at module init
 * (dcm_board_types_set()): the subdevices a type addresses (its roles), its
 * cyclic exchange, its chaining and configuration where it has them, and
 * the size of the private area each board of that type gets in the runtime.
 * The core calls the boards only through these ops. Looking a Type up
 * (dcm_board_type_find()) is the one place a Type is compared; the cycle,
 * the special commands, the chest store and the safety rules ask the type.
 */
#ifndef _DCM_BOARD_TYPE_H
#define _DCM_BOARD_TYPE_H

#include <linux/types.h>

#include "core/dcm_runtime.h"

struct dcm_bus;
struct dcm_controller;
struct dcm_rs485_slot;
struct dcm_rs485_reply;
struct dcm_rs485_ident;

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

/* Room for a board's version string, NUL included (struct dcm_board_type.version) */
#define DCM_BOARD_VERSION_LEN	33

/* struct dcm_board_type.flags */
#define DCM_BOARD_F_MOTORS	BIT(0)	/* drives joints: calibration, configuration */
#define DCM_BOARD_F_STORE	BIT(1)	/* keeps the body record and ChainResult */
#define DCM_BOARD_F_SPI		BIT(2)	/* registers read over SPI, each checked by its CRC-8 */

/**
 * struct dcm_board_type - what a kind of board is and does
 * @name: the Type of its devices in the robot description
 * @flags: DCM_BOARD_F_*
 * @roles: the subdevices it addresses, bound once per description
 * @n_roles: entries of @roles
 * @priv_size: bytes of the private area each of its boards gets in the
 *	runtime (struct dcm_rt_device.priv), zeroed; 0 for none
 * @bind: with the runtime being created: bind its roles (dcm_board_bind(),
 *	which is the whole of it for most types), then find the keys and
 *	subdevices the board's cycle uses (by name, once) into its private
 *	area; a board whose subdevices are found by a scan (more of them
 *	than roles) finds them here. Context: process. Required.
 * @slot: an RS485 board: its slot of the cyclic broadcast (left zero if
 *	NULL). Context: the cycle.
 * @reply: an RS485 board: its reply to the broadcast, to values and its
 *	Ack; NULL: an Ack only. Context: the cycle.
 * @exchange: a register (I2C/SPI) board: one cycle's transfers with it,
 *	its values and its Ack or Nack. Context: the cycle, on the bus.
 * @safety: the per-board stiffness rules, on the actuators the cycle has
 *	just computed. Context: the cycle, under the runtime's cmd_lock.
 * @over_limit: whether what the board measures puts the controller-wide
 *	battery rule in force (seed 000). Context: the cycle.
 * @error: a board whose reply carries an error code (its @reply passes it
 *	to dcm_runtime_answer() as DCM_ERR_BOARD): the level of @code, 1-7
 *	(0: no error), and, when @text is not NULL, one line of @size at
 *	most saying what it is. The one place the code is decoded: the
 *	runtime asks it the level when the code enters the device's error
 *	list, the text for the event and for the Error key. NULL: the
 *	type's codes are level 4, "board error N". Context: any; allocates
 *	nothing, does not sleep.
 * @unchained: an RS485 board whose bus is being chained again: it forgets
 *	what it was configured with. Context: process (the chaining work).
 * @identified: an RS485 board chaining or the VERSION command identified:
 *	its identity keys. Context: process.
 * @configure: an RS485 board: send it its configuration, to its Bid, with
 *	@xb for the transfer, a request the cycle carries (dcm_bus_xfer());
 *	0 or a negative errno.
 *	Context: process.
 * @version: a register board: read its versions into its keys and
 *	@version (a string of @len, DCM_BOARD_VERSION_LEN at least), with @xb
 *	for the transfers; NULL: its FW_VERSION register (over I2C, or SPI
 *	with DCM_BOARD_F_SPI), to ProgVersion. Its transfers are requests the
 *	cycle carries.
 *	Context: process.
 * @joint_mre: a board with motors: the MRE count of motor @slot in its last
 *	reply, in its own frame (dcm_calib_raw()); -ENODATA when the board has
 *	no configuration. Context: process.
 * @joint_hold: a board with motors: hold motor @slot as uncalibrated (its
 *	hardness at 0, its position command following its sensor), or let it
 *	go. Context: process.
 * @store_load: a board that keeps the body record: load it into a
 *	description being committed, not yet running (its joints' zeros,
 *	BodyId, BodyNickName). Context: process, may sleep.
 * @joint_sub: a board with motors: its joint (the position actuator) of
 *	SubDeviceNumber @number, or with @position that joint's position
 *	sensor; -1 for none. On a description that may not run yet (the chest
 *	store). Context: process.
 */
struct dcm_board_type {
	const char *name;
	u32 flags;
	const struct dcm_board_role *roles;
	u32 n_roles;
	size_t priv_size;
	void (*bind)(struct dcm_runtime *rt, u32 dev);
	void (*slot)(const struct dcm_runtime *rt, u32 dev, struct dcm_rs485_slot *slot);
	void (*reply)(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_reply *r, u32 now);
	void (*exchange)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u32 now);
	void (*safety)(struct dcm_runtime *rt, u32 dev, u32 scale_ppm, u32 now);
	bool (*over_limit)(const struct dcm_runtime *rt, u32 dev);
	u8 (*error)(u8 code, char *text, size_t size);
	void (*unchained)(struct dcm_runtime *rt, u32 dev);
	void (*identified)(struct dcm_runtime *rt, u32 dev, const struct dcm_rs485_ident *id,
			   u8 bid);
	int (*configure)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t, u8 bid,
			 struct dcm_board_buf *xb);
	int (*version)(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		       struct dcm_board_buf *xb, char *version, size_t len);
	int (*joint_mre)(const struct dcm_runtime *rt, u32 dev, u32 slot, u16 *raw);
	void (*joint_hold)(struct dcm_runtime *rt, u32 dev, u32 slot, bool on);
	void (*store_load)(struct dcm_controller *ctrl, struct dcm_model *m);
	s32 (*joint_sub)(const struct dcm_model *m, u32 dev, u32 number, bool position);
};

/* Devices of a Type no board type knows: bound, never exchanged with. */
extern const struct dcm_board_type dcm_plain_board;

/* dcm_board_type.c: the table, binding, what the board files share */
void dcm_board_types_set(const struct dcm_board_type *const *types, u32 n);
const struct dcm_board_type *dcm_board_type_find(const char *name);
void dcm_boards_store_load(struct dcm_controller *ctrl, struct dcm_model *m);
void dcm_board_bind(struct dcm_runtime *rt, u32 dev);
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
 * dcm_board_bus() - the bus a board is on, and its exchange's scratch
 * @rt: the runtime
 * @dev: the device index
 *
 * A register board's cyclic exchange uses its bus's &dcm_rt_bus.txbuf and
 * &dcm_rt_bus.rxbuf: each bus exchanges in a lane of its own.
 *
 * Return: the bus.
 */
static inline struct dcm_rt_bus *dcm_board_bus(struct dcm_runtime *rt, u32 dev)
{
	return &rt->buses[rt->dev[dev].bus];
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

/*
 * dcm_bus_regs.c: the register I/O of every register board, through
 * dcm_bus_xfer(): at once in the cycle's exchange, else a request.
 */
int dcm_reg_write(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, const u8 *data, u32 len);
int dcm_reg_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);
int dcm_reg_xfer(struct dcm_bus *t, u16 addr, u8 *buf, u8 out_reg, const u8 *out, u32 out_len,
		 u8 in_reg, u8 *in, u32 in_len);
int dcm_reg_spi_read(struct dcm_bus *t, u16 cs, u8 *tx, u8 *rx, size_t size, u8 reg, u8 *data,
		     u32 count);
void dcm_reg_answer(struct dcm_runtime *rt, u32 dev, int ret, u32 now);
/* dcm_bus_regs.c: one register read, the bus taken */
int dcm_board_read(struct dcm_bus *t, u16 addr, u8 *buf, u8 reg, u8 *data, u32 len);

/* dcm_board_type.c: what the core asks of the boards */
int dcm_boards_bind(struct dcm_runtime *rt);
void dcm_bus_missing(struct dcm_runtime *rt, u32 bus, u32 now);
bool dcm_boards_over_limit(const struct dcm_runtime *rt);
void dcm_boards_safety(struct dcm_runtime *rt, u32 scale_ppm, u32 now);

/* dcm_bus_kind.c: what a bus's kind does */
void dcm_bus_exchange(struct dcm_runtime *rt, u32 bus, struct dcm_bus *transport, u32 now);
int dcm_board_version(struct dcm_runtime *rt, u32 dev, struct dcm_bus *t,
		      struct dcm_board_buf *xb, char *version, size_t len);

/* dcm_bus_rs485.c: RS485 boards, generic over their types */
bool dcm_buses_chaining(struct dcm_runtime *rt);
void dcm_bus_chain_flush(struct dcm_rt_bus *b);
int dcm_buses_chain_text(struct dcm_runtime *rt, char *text, size_t size);
void dcm_boards_chain_result(struct dcm_runtime *rt);
int dcm_board_configure(struct dcm_runtime *rt, u32 dev);

#endif /* _DCM_BOARD_TYPE_H */
