/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - the running state of a committed description: actuator queues, the
 * snapshot of values the cycle publishes, and the ways in.
 */
#ifndef _DCM_RUNTIME_H
#define _DCM_RUNTIME_H

#include <linux/kref.h>
#include <linux/spinlock.h>
#include <linux/dcm.h>
#include <linux/types.h>

#include "model/dcm_model.h"
#include "model/dcm_timed.h"
#include "wire/dcm_rs485.h"

/**
 * struct dcm_snapbuf - the memory of a snapshot, shared with mmap()
 * @ref: one for the runtime, one per mapping
 * @hdr: start of the vmalloc_user() area: header, values, times
 * @size: bytes of the area, whole pages
 * @values: the values, by handle index: subdevices, then live keys
 * @times: DCM time of each value's last update
 */
struct dcm_snapbuf {
	struct kref ref;
	struct dcm_snapshot *hdr;
	size_t size;
	s64 *values;
	u32 *times;
};

/**
 * struct dcm_actuator - an actuator's commands and conversion
 * @q: its timed commands
 * @conv: Gain, Offset, Min, Max
 * @sub: its subdevice index
 * @step: a step actuator (not interpolated)
 * @fired: this cycle computed a value to send: every cycle for an
 *	interpolated actuator, only when a command came due for a step one
 *	(a board codec sends a step actuator's @raw only then)
 * @raw: the raw number last sent
 */
struct dcm_actuator {
	struct dcm_tc_queue q;
	struct dcm_conv conv;
	u32 sub;
	bool step;
	bool fired;
	s64 raw;
};

/* What a live key with a handle reads (struct dcm_keyslot.what). */
enum dcm_keyslot_kind {
	DCM_KS_VALUE,		/* a number key the boards set, @src */
	DCM_KS_AVAILABLE,	/* a device's Available */
	DCM_KS_ACK,		/* a device's Ack */
	DCM_KS_NACK,		/* a device's Nack */
};

/**
 * struct dcm_keyslot - a live numeric key with a handle, after the subdevices
 * @ref: the key: device or subdevice, and key id
 * @src: DCM_KS_VALUE: the model's number the boards write; else NULL
 * @scale: what a value is multiplied by to be micro-units: 1 for a FLOAT
 *	key, DCM_MICRO for an INT or BOOL key and the counters
 * @what: enum dcm_keyslot_kind
 */
struct dcm_keyslot {
	struct dcm_keyref ref;
	const s64 *src;
	u32 scale;
	u8 what;
};

#define DCM_ERRORS_KEPT		8	/* per device */
#define DCM_ERROR_KEEP_MS	30000	/* seed 000: errors are kept 30 s */
#define DCM_ROLES		12	/* subdevices a board type addresses by role */

/* Where an error of a device's list comes from (struct dcm_dev_error.source). */
enum dcm_error_source {
	DCM_ERR_BOARD,		/* the board's error byte, @code */
	DCM_ERR_NO_ANSWER,	/* the board did not answer */
	DCM_ERR_BAD_FRAME,	/* its answer was malformed or failed its check */
	DCM_ERR_CONFIG,		/* it refused its configuration, status @code */
};

/**
 * struct dcm_dev_error - one error of a device's list
 * @time: DCM time it was last seen
 * @source: enum dcm_error_source
 * @level: 0-7 (seed 000)
 * @code: the board's code, for DCM_ERR_BOARD
 */
struct dcm_dev_error {
	u32 time;
	u8 source;
	u8 level;
	u8 code;
};

/**
 * struct dcm_rt_device - a device's running state
 * @bus: index of its bus in the runtime's buses
 * @pos: its place on the bus, from 0 (RS485: Bid - 1)
 * @ack: exchanges it answered
 * @nack: exchanges it did not, or with a bad answer
 * @err: its error list, newest first
 * @n_err: entries of @err
 * @nack_run: Nacks since its last Ack; DCM_NACK_BURST or more: the device
 *	is lost (a DCM_EV_NACK was posted, a DCM_EV_ACK follows its next answer)
 * @role: subdevice index of each role of its board type, or -1
 * @type: its board type, found from its Type when the runtime was bound
 *	(dcm_boards_bind())
 * @error: its board type's error op (struct dcm_board_rs485.error, set by
 *	its bus's kind), or NULL: the level of a board's error code, with
 *	@text its line
 * @priv: its board type's private area (struct dcm_board_type.priv_size
 *	bytes), or NULL
 */
struct dcm_rt_device {
	u32 bus;
	u32 pos;
	u64 ack, nack;
	struct dcm_dev_error err[DCM_ERRORS_KEPT];
	u32 n_err;
	u32 nack_run;
	s16 role[DCM_ROLES];
	const struct dcm_board_type *type;
	u8 (*error)(u8 code, char *text, size_t size);
	void *priv;
};

/* Nacks in a row that make a burst: the device is lost (an event says so) */
#define DCM_NACK_BURST	5

/* Continuations of a chain that ended short, a second apart */
#define DCM_CHAIN_TRIES	30

/**
 * struct dcm_rt_bus - a bus of the description, and its transport
 * @name: the description's Bus name
 * @bus: the transport that carries it, or NULL: set when the runtime is
 *	created and when a transport comes or goes, under the controller's
 *	desc.lock and buses.lock; the cycle reads it under the controller's
 *	SRCU
 * @claimed: the body has this bus (set with @bus): without a transport its
 *	boards are not answered (Nack); a bus the body lacks has its boards
 *	absent
 * @rechain: the cycle's: the bus lost its transport after an exchange, and
 *	starts over when one comes back (an RS485 bus is chained again)
 * @dev: the devices on it, by position
 * @n_dev: count
 * @rt: its runtime
 * @kind_priv: by kind (enum dcm_bus_kind), that kind's own state of the
 *	bus (an RS485 bus's chain, its frames; a register bus's
 *	transactions), made by the kind's prepare and freed by its release
 *	(struct dcm_bus_kind_ops); NULL for a kind that cannot carry the bus
 */
struct dcm_rt_bus {
	const char *name;
	struct dcm_bus __rcu *bus;
	bool claimed;
	bool rechain;
	u32 dev[DCM_MAX_DEVICES];
	u32 n_dev;
	struct dcm_runtime *rt;
	void *kind_priv[DCM_BUS_KINDS];
};

/**
 * struct dcm_runtime - a committed description, running
 * @model: the description
 * @ctrl: its controller
 * @generation: 1-65535, the high half of handles
 * @cmd_lock: guards every actuator queue; held by the cycle twice per cycle
 *	(its actuators, then its stiffness rules), by a command for a merge,
 *	by a watchdog's action and by a read of a command (safety/hardness),
 *	never across anything that sleeps
 * @act: @n_act actuators
 * @n_act: count
 * @act_of: per subdevice, its index in @act, or -1
 * @snap: the published values
 * @keys: the live keys with a handle, in handle order after the subdevices
 * @n_keys: count
 * @n_handles: the description's subdevices, then @n_keys
 * @conv: per subdevice, its conversion
 * @values: the values of the cycle in progress, published at its end: one
 *	per handle
 * @times: their update times
 * @dev: per device, its running state (the description's devices)
 * @values_lock: the lanes' results: the buses' lanes write their boards'
 *	values under it, each value (dcm_runtime_sense()), and their answers
 *	(dcm_runtime_answer(): the devices' Ack, Nack and error lists, which
 *	readers copy under it); the cycle publishes under it: a value that a
 *	late bus's exchange brings shows whole in a later snapshot. Never held
 *	across anything that sleeps
 * @buses: the description's buses, as many as it names (@n_buses)
 * @n_buses: count
 */
struct dcm_runtime {
	struct dcm_model *model;
	struct dcm_controller *ctrl;
	u32 generation;
	raw_spinlock_t cmd_lock;
	struct dcm_actuator *act;
	u32 n_act;
	s32 *act_of;
	struct dcm_snapbuf *snap;
	struct dcm_keyslot *keys;
	u32 n_keys;
	u32 n_handles;
	struct dcm_conv *conv;
	s64 *values;
	u32 *times;
	struct dcm_rt_device *dev;
	spinlock_t values_lock;		/* values, Ack/Nack, error lists */
	struct dcm_rt_bus *buses;
	u32 n_buses;
};

struct dcm_runtime *dcm_runtime_create(struct dcm_controller *ctrl, struct dcm_model *m,
				       u32 generation);
int dcm_runtime_start_values(struct dcm_runtime *rt);
void dcm_runtime_free(struct dcm_runtime *rt);
void dcm_runtime_actuate(struct dcm_runtime *rt, u32 now);
void dcm_runtime_sense(struct dcm_runtime *rt, s32 role_sub, s64 raw, u32 now);
void dcm_runtime_publish(struct dcm_runtime *rt, u32 now, u64 cycle);
void dcm_runtime_answer(struct dcm_runtime *rt, u32 dev, bool ok, u8 source, u8 level,
			u8 code, u32 now);
int dcm_runtime_errors(struct dcm_runtime *rt, u32 dev, u32 now, char *buf, size_t size);
void dcm_runtime_counters(struct dcm_runtime *rt, u32 dev, u64 *ack, u64 *nack);
bool dcm_runtime_available(struct dcm_runtime *rt, u32 dev);
int dcm_runtime_handle(const struct dcm_runtime *rt, u32 handle, u32 *sub);
int dcm_runtime_handle_any(const struct dcm_runtime *rt, u32 handle, u32 *index);
int dcm_runtime_key_index(const struct dcm_runtime *rt, const struct dcm_keyref *ref,
			  u32 *index);
int dcm_runtime_set(struct dcm_runtime *rt, u32 sub, u32 update, const struct dcm_point *pts,
		    u32 n);
int dcm_runtime_set_many(struct dcm_runtime *rt, u32 update, const u32 *subs,
			 struct dcm_point *const *pts, const u32 *n, u32 members);
void dcm_runtime_hold(struct dcm_runtime *rt, const unsigned long *subs);
void dcm_runtime_ramp_hardness(struct dcm_runtime *rt, u32 now, u32 ramp_ms);
s64 dcm_runtime_commanded(struct dcm_runtime *rt, u32 act);
void dcm_runtime_read(const struct dcm_runtime *rt, u32 n, s64 *values, u32 *times, u64 *cycle,
		      u32 *time);
void dcm_runtime_gather(const struct dcm_runtime *rt, const u32 *index, u32 n, s64 *values,
			u32 *times);
void dcm_snapbuf_put(struct dcm_snapbuf *sb);

#endif /* _DCM_RUNTIME_H */
