/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the simulated body: the state its files share and the object
 * every simulated board is (sim_body.c). What it models:
 * Documentation/dcm/simulator.rst.
 *
 * The files of the module, bottom up: sim_physics.c and sim_sensors.c
 * (pure models), sim_chain.c (pure: an RS485 chain's answers), sim_body.c
 * (this: the body, its boards, time, shared debugfs helpers), sim_link.c
 * (the body's physics link, sim_link.h), one file per board family
 * (sim_motor.c, sim_foot.c, sim_hand.c, sim_chest.c, sim_battery.c,
 * sim_sonar.c, sim_inertial.c, sim_head.c: sim_boards.h; they read the
 * link while a model is attached), the generic buses (sim_rs485.c, sim_i2c.c,
 * sim_spi.c: sim_bus.h) that reach the boards through their ops only, and
 * dcm_sim.c (the module). A file calls into its own level and below.
 */
#ifndef _SIM_BODY_H
#define _SIM_BODY_H

#include <linux/dcache.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/dcm.h>

#include "wire/dcm_regs.h"
#include "wire/dcm_rs485.h"
#include "wire/dcm_wire_battery.h"
#include "wire/dcm_wire_chest.h"
#include "wire/dcm_wire_foot.h"
#include "wire/dcm_wire_hand.h"
#include "wire/dcm_wire_head.h"
#include "wire/dcm_wire_inertial.h"
#include "wire/dcm_wire_motor.h"
#include "wire/dcm_wire_sonar.h"

#define DCM_SIM_NAME	"dcm_sim"
#define SIM_RS485_BUSES	4
#define SIM_REGS	0x80	/* registers of a simulated register map */

/**
 * enum sim_bus - the kind of bus a simulated board answers on
 * @SIM_BUS_RS485: an RS485 bus, RS485-1 to RS485-4 (index 0 to 3); the
 *	board's address is its place in the chain, from 1 (the Bid chaining
 *	normally gives it)
 * @SIM_BUS_I2C: an I2C adapter (index: enum sim_i2c_bus); address: the
 *	board's 7-bit I2C address
 * @SIM_BUS_SPI: the SPI controller (index 0); address: its chip select
 */
enum sim_bus {
	SIM_BUS_RS485,
	SIM_BUS_I2C,
	SIM_BUS_SPI,
};

/* The body's I2C adapters */
enum sim_i2c_bus { SIM_I2C_CHEST, SIM_I2C_HEAD, SIM_I2C_BUSES };

struct sim_board;

/**
 * struct sim_board_ops - how a simulated board answers; what its bus does
 *	not use is left NULL
 * @rs485_type: RS485: its identity's board type (enum dcm_board_type)
 * @struct_version: RS485: the configuration StructVersion it understands,
 *	0 for none
 * @slot: RS485: its answer to its slot of the cyclic broadcast; @dt_us is
 *	the time since the last broadcast on its bus, which its physics steps
 * @config: RS485: a configuration structure for it, its Bid @bid; returns
 *	the ack's status (enum dcm_mb_config_status); NULL: refused, bad value
 * @chain_reset: RS485: a chaining reset: it forgets its configuration
 * @read: I2C: a read message of @len bytes (sim_regs_read() for a
 *	register map); 0 or a negative errno
 * @write: I2C: a write message (sim_regs_write())
 * @refresh: register map: bring its sensor registers up to date, before a
 *	read; @now_us the monotonic clock
 * @write_reg: register map: the master writes @v to register @reg; NULL:
 *	the registers from @wr_first to @wr_last of its map take it
 * @xfer: SPI: its answer to one full-duplex transfer of @len bytes
 * @current_ma: what it draws from the battery now, mA
 *
 * The bus code calls these under the body's lock, but for the RS485 ops:
 * each RS485 bus calls them from its own cycle.
 */
struct sim_board_ops {
	u8 rs485_type;
	u8 struct_version;
	void (*slot)(struct sim_board *b, const struct dcm_rs485_slot *slot, u32 dt_us,
		     struct dcm_rs485_reply *reply);
	u8 (*config)(struct sim_board *b, const struct dcm_rs485_frame *frame, u8 bid);
	void (*chain_reset)(struct sim_board *b);
	int (*read)(struct sim_board *b, u8 *buf, u16 len);
	int (*write)(struct sim_board *b, const u8 *buf, u16 len);
	void (*refresh)(struct sim_board *b, u64 now_us);
	void (*write_reg)(struct sim_board *b, u8 reg, u8 v, u64 now_us);
	void (*xfer)(struct sim_board *b, const u8 *tx, u8 *rx, unsigned int len);
	s32 (*current_ma)(struct sim_board *b);
};

/**
 * struct sim_regs - a board's register map (I2C, SPI)
 * @wr_first: first register the master may write
 * @wr_last: last one; below @wr_first: none
 * @ptr: the register the next transfer starts at (I2C auto-increment)
 * @reg: the registers
 */
struct sim_regs {
	u8 wr_first, wr_last;
	u8 ptr;
	u8 reg[SIM_REGS];
};

/**
 * struct sim_board - a simulated board: where it answers and how
 * @node: in the body's list of boards
 * @ops: how it answers
 * @sim: the body
 * @name: its name in Device.xml ("LeftFootBoard")
 * @bus: the kind of bus it answers on
 * @index: which bus of that kind (RS485-1 is 0)
 * @addr: where on it (RS485: its place from 1; I2C: its address; SPI:
 *	its chip select)
 * @regs: its register map, for sim_regs_read() and sim_regs_write(); NULL
 *	for none
 * @dev_id: I2C, SPI: the name of its device (an i2c_client's type, an
 *	spi_device's modalias), which the real transport's driver binds
 *
 * A board family's file embeds one in each board it models and adds it
 * with sim_board_add().
 */
struct sim_board {
	struct list_head node;
	const struct sim_board_ops *ops;
	struct dcm_sim *sim;
	const char *name;
	enum sim_bus bus;
	u8 index;
	u16 addr;
	struct sim_regs *regs;
	const char *dev_id;
};

struct sim_rs485;
struct sim_i2c;
struct sim_link;
struct spi_controller;
struct spi_device;

/**
 * struct dcm_sim - the simulated body
 * @id: its number, from 0 (the bodies module parameter)
 * @lock: the register-map boards' state (I2C and SPI) and the signed
 *	knobs; never held across a copy from or to user space
 * @boards: its boards (struct sim_board), added at probe, unchanged until
 *	remove
 * @rs485: the four RS485 buses (sim_rs485.c)
 * @i2c: the I2C adapters (sim_i2c.c)
 * @spi: the SPI controller of SPI-chest (sim_spi.c)
 * @spi_dev: the device on it the real dcm-spi driver binds to
 * @debugfs: dcm_sim/body<id>/
 * @link: the physics link, /dev/dcm_sim_body<id> (sim_link.c)
 * @dev: its platform device, which keeps the knobs' descriptions
 */
struct dcm_sim {
	int id;
	struct mutex lock;	/* register-map boards, signed knobs */
	struct list_head boards;
	struct sim_rs485 *rs485;
	struct sim_i2c *i2c;
	struct spi_controller *spi;
	struct spi_device *spi_dev;
	struct dentry *debugfs;
	struct sim_link *link;
	struct device *dev;
};

/**
 * struct sim_knob - a signed debugfs knob (sim_debugfs_signed())
 * @sim: the body, whose lock guards @v
 * @v: the value
 * @scale: what one unit of the file is in @v (1000: mrad in a urad value)
 * @min: the least value of the file, in its units
 * @max: the greatest
 */
struct sim_knob {
	struct dcm_sim *sim;
	s32 *v;
	s32 scale;
	s32 min, max;
};

/*
 * The ranges of the knobs (Documentation/dcm/simulator.rst): a value
 * outside is refused (-ERANGE), never cut to fit.
 */
#define SIM_BIDS_MASK		U32_MAX		/* bitmasks of Bids (1 to 16 are used) */
#define SIM_DELAY_US_MAX	100000		/* rs485-N/delay_us: 10 cycles of 10 ms */
#define SIM_HOT_MC_MAX		150000		/* rs485-N/hot_mc */
#define SIM_LOAD_MA_MAX		20000		/* load_ma */
#define SIM_STORE_CUT_MAX	1024		/* chest/store_cut */
#define SIM_WEIGHT_G_MAX	20000		/* feet/weight_g */
#define SIM_COP_MM_MAX		100		/* feet/cop_x_mm, cop_y_mm: -100..100 */
#define SIM_ANGLE_MRAD_MAX	3141		/* imu/angle_*: within -pi..pi */
#define SIM_RATE_MRAD_S_MAX	10000		/* imu/rate_* */

/* The rates of the body's buses when its description does not say. */
#define SIM_RS485_BAUD		1000000		/* Documentation/dcm/wire-protocol.rst */
#define SIM_I2C_CHEST_HZ	100000		/* the SMBus battery's rate */
#define SIM_I2C_HEAD_HZ		400000
#define SIM_SPI_HZ		2000000		/* the inertial board (dts/nao.dts) */

bool sim_wire_time(void);
u64 sim_wire_ns(u64 bits, u32 rate);
void sim_wire_wait(ktime_t start, u64 ns);
void sim_delay(u32 us);
void sim_unload(void);

void sim_board_add(struct dcm_sim *sim, struct sim_board *b);
struct sim_board *sim_board_find(struct dcm_sim *sim, enum sim_bus bus, u8 index, u16 addr);
s32 sim_body_current_ma(struct dcm_sim *sim);
u32 sim_elapsed(ktime_t *last);

void sim_regs_init(struct sim_regs *r, u8 whoami, u8 fw, u8 wr_first, u8 wr_last);
int sim_regs_read(struct sim_board *b, u8 *buf, u16 len);
int sim_regs_write(struct sim_board *b, const u8 *buf, u16 len);

void sim_debugfs_init(struct dcm_sim *sim, struct dentry *root);
void sim_debugfs_exit(struct dcm_sim *sim);
struct dentry *sim_debugfs_dir(struct dcm_sim *sim, const char *name);
void sim_debugfs_signed(struct sim_knob *k, struct dcm_sim *sim, const char *name,
			struct dentry *dir, s32 *v, s32 scale, s32 min, s32 max);
void sim_debugfs_u32(struct dcm_sim *sim, const char *name, struct dentry *dir, u32 *v, u32 max,
		     bool hex);
void sim_debugfs_bool(const char *name, struct dentry *dir, bool *v);
void sim_debugfs_levels(struct seq_file *m, const u8 *level, int n);
int sim_debugfs_get_string(const char __user *ubuf, size_t count, loff_t *ppos, char *buf,
			   size_t size);

#endif /* _SIM_BODY_H */
