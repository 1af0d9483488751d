/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the simulated body's state, shared by the files of the module:
 * dcm_sim.c (the module, the RS485 buses and their boards), sim_i2c.c (the
 * I2C adapters and their boards), sim_spi.c (the SPI controller and the
 * inertial board), sim_debugfs.c (the knobs). What it models:
 * Documentation/dcm/simulator.rst.
 */
#ifndef _SIM_BODY_H
#define _SIM_BODY_H

#include <linux/dcache.h>
#include <linux/i2c.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/dcm.h>

#include "sim_physics.h"
#include "sim_sensors.h"
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

/* What sits at each Bid of a bus: the shipped body's boards (Device.xml). */
enum sim_board_kind {
	SIM_NONE,
	SIM_MOTOR,
	SIM_FOOT,
	SIM_HAND,
};

/**
 * struct sim_joint - a joint of the shipped body, where it sits and what it
 *	is made of
 * @name: its name in Device.xml ("HeadYaw")
 * @bus: its RS485 bus, 0 for RS485-1
 * @bid: its motor board's place on the bus, from 1
 * @motor: the motor of the board, 0 or 1 (SubDeviceNumber - 1)
 * @min_urad: its mechanical stop, low: the position sensor's Min
 * @max_urad: high: the position sensor's Max
 * @true_zero: its MRE's count at the joint's 0 rad: what a right
 *	calibration finds (the shipped body file's jointZeroPosition)
 */
struct sim_joint {
	const char *name;
	u8 bus, bid, motor;
	s32 min_urad, max_urad;
	u16 true_zero;
};

#define SIM_JOINTS	26
extern const struct sim_joint sim_joints[SIM_JOINTS];

/**
 * struct sim_mb - a simulated motor board: two motors
 * @motor: the motors
 * @configured: a configuration structure was accepted since the last
 *	chaining reset
 * @zero: the jointZeroPosition of each motor, as configured
 * @true_zero: each motor's MRE count at its 0 rad
 * @place_urad: debugfs: where an outside force puts each joint...
 * @place: ...at the board's next cycle, when set
 */
struct sim_mb {
	struct sim_motor motor[DCM_MB_MOTORS];
	bool configured;
	u16 zero[DCM_MB_MOTORS];
	u16 true_zero[DCM_MB_MOTORS];
	s32 place_urad[DCM_MB_MOTORS];
	int place[DCM_MB_MOTORS];
};

/**
 * struct sim_joint_knob - a joint's debugfs directory
 * @sim: the body
 * @joint: the joint
 */
struct sim_joint_knob {
	struct dcm_sim *sim;
	const struct sim_joint *joint;
};

/**
 * struct sim_foot - a foot board
 * @led: red, green, blue, as the last slot set them
 * @bumpers: debugfs: bit 0 left, bit 1 right bumper pressed
 * @load: what each FSR bore at the last reply, grams
 * @fsr: what each read then, counts
 */
struct sim_foot {
	u8 led[DCM_FOOT_OUT_LEN];
	u32 bumpers;
	u32 load[DCM_FOOT_FSRS];
	u16 fsr[DCM_FOOT_FSRS];
};

/**
 * struct sim_rs485 - an RS485 bus and its boards
 * @bus: the transport the dcm core sees: a loopback
 * @name: "RS485-N"
 * @index: N - 1
 * @board: the motor boards, by Bid - 1
 * @bid: what chaining gave each board, by place; 0: none
 * @frame: the last frame the boards received
 * @cmd: the last command frame, parsed
 * @last: when it came
 * @silent: debugfs: Bids (bit Bid - 1) that do not answer
 * @mre_fault: debugfs: Bids whose MREs give no data
 * @hot: debugfs: Bids whose motors are held at @hot_mc and above
 * @hot_mc: debugfs: that temperature, millidegrees Celsius (80000: status 2)
 * @crc_ppm: debugfs: replies corrupted, per million
 * @configured: debugfs, read-only: Bids of the boards that accepted a
 *	configuration structure (bit 0 is Bid 1)
 * @configs: debugfs, read-only: configuration structures accepted
 * @delay_us: debugfs: the bus is that much slower
 * @registered: @bus is registered (the rs485_loopback parameter)
 */
struct sim_rs485 {
	struct dcm_bus bus;
	char name[16];
	int index;
	bool registered;
	struct sim_mb board[DCM_RS485_MAX_BOARDS];
	u8 bid[DCM_RS485_MAX_BOARDS];
	struct dcm_rs485_frame frame;
	struct dcm_rs485_cmd_frame cmd;
	ktime_t last;
	u32 silent, mre_fault, hot, hot_mc, crc_ppm, delay_us;
	u32 configured, configs;
};

/**
 * struct sim_regs - a board with a register map (I2C, SPI)
 * @addr: its I2C address
 * @wr_first: first register the master may write
 * @wr_last: last one; below @wr_first: none
 * @ptr: the register the next transfer starts at (I2C auto-increment)
 * @reg: the registers
 */
struct sim_regs {
	u8 addr;
	u8 wr_first, wr_last;
	u8 ptr;
	u8 reg[SIM_REGS];
};

/**
 * struct sim_i2c - a simulated I2C adapter and the real transport on it
 * @adap: the adapter
 * @transport: the "dcm-i2c" platform device naming it to the dcm core
 * @sim: the body
 * @bus_name: the description's Bus name, "I2C-chest" or "I2C-head"
 * @added: @adap is registered
 */
struct sim_i2c {
	struct i2c_adapter adap;
	struct platform_device *transport;
	struct dcm_sim *sim;
	const char *bus_name;
	bool added;
};

enum { SIM_I2C_CHEST, SIM_I2C_HEAD, SIM_I2C_BUSES };

#define SIM_CHEST_STORE_LEN	(DCM_CHEST_EE_PAGES * DCM_CHEST_EE_PAGE_LEN)
#define SIM_CHEST_COMMIT_US	3000	/* a page commit keeps the store busy */

/**
 * struct sim_chest_store - the chest board's store (an EEPROM on the real
 *	board); its contents outlive the module through debugfs chest/store
 * @ee: the 32 pages
 * @busy_until: a commit is being written until then, microseconds of the
 *	monotonic clock
 * @failed: the last command failed (STATUS bit 1)
 * @cut: debugfs: the cut-th commit from now writes half its page and fails
 * @commits: debugfs, read-only: pages committed
 */
struct sim_chest_store {
	u8 ee[SIM_CHEST_STORE_LEN];
	u64 busy_until;
	bool failed;
	u32 cut;
	u32 commits;
};

/**
 * struct sim_knob - a signed debugfs knob
 * @sim: the body, whose lock guards @v
 * @v: the value
 * @scale: what one unit of the file is in @v (1000: mrad in a urad value)
 */
struct sim_knob {
	struct dcm_sim *sim;
	s32 *v;
	s32 scale;
};

#define SIM_KNOBS	8

/**
 * struct dcm_sim - the simulated body
 * @ctrl: the dcm controller it registered
 * @rs485: the four RS485 buses
 * @foot: the foot boards, left and right (RS485-3, RS485-4)
 * @hand_touch: debugfs: the hand boards' pads, left and right (RS485-1,
 *	RS485-2): bit 0 back, bit 1 left, bit 2 right
 * @i2c: the I2C adapters
 * @lock: the register-map boards' state (I2C and SPI); never held across
 *	a copy from or to user space
 * @battery: the battery's physics
 * @battery_last: when it was last stepped
 * @battery_reg: the battery's command register
 * @chest: the chest board
 * @store: its store
 * @us_board: the ultrasound board's registers
 * @us: its captures
 * @us_left: debugfs: what the left receiver hears, cm, nearest first
 * @us_right: the same, right receiver
 * @face: the face board
 * @ears: the ear board
 * @touch: the head touch board
 * @head: the head board (CPU temperature)
 * @cpu: the head CPU's temperature
 * @cpu_last: when it was last stepped
 * @cpu_load: debugfs: the head CPU's load, percent
 * @head_touch: debugfs: the head's pads: bit 0 front, 1 middle, 2 rear
 * @spi: the SPI controller of SPI-chest
 * @imu_dev: the inertial board's SPI device, which the real dcm-spi
 *	transport binds to
 * @imu_regs: the inertial board's registers
 * @imu: its physics
 * @imu_last: when it was last stepped
 * @imu_silent: debugfs: the inertial board does not answer
 * @stance: debugfs: SIM_STANCE_* bits, the feet on the ground
 * @weight_g: debugfs: the robot's weight
 * @cop_x_mm: debugfs: the centre of pressure on each foot, X
 * @cop_y_mm: and Y
 * @button: debugfs: the chest button is pressed
 * @charging: debugfs: the charger is plugged
 * @load_ma: debugfs: what the robot draws besides its motors
 * @knob: the signed knobs' descriptions
 * @joint_knob: the joints' debugfs directories
 * @debugfs: dcm_sim/
 */
struct dcm_sim {
	struct dcm_controller *ctrl;
	struct sim_rs485 rs485[SIM_RS485_BUSES];
	struct sim_foot foot[2];
	u32 hand_touch[2];
	struct sim_i2c i2c[SIM_I2C_BUSES];
	struct mutex lock;	/* register-map boards */
	struct sim_battery battery;
	ktime_t battery_last;
	u8 battery_reg;
	struct sim_regs chest, us_board;
	struct sim_chest_store store;
	struct sim_us us;
	u8 us_left[DCM_US_ECHOES], us_right[DCM_US_ECHOES];
	struct sim_regs face, ears, touch, head;
	struct sim_cpu cpu;
	ktime_t cpu_last;
	u32 cpu_load, head_touch;
	struct spi_controller *spi;
	struct spi_device *imu_dev;
	struct sim_regs imu_regs;
	struct sim_imu imu;
	ktime_t imu_last;
	bool imu_silent;
	u32 stance, weight_g;
	s32 cop_x_mm, cop_y_mm;
	bool button, charging;
	u32 load_ma;
	struct sim_knob knob[SIM_KNOBS];
	struct sim_joint_knob joint_knob[SIM_JOINTS];
	struct dentry *debugfs;
};

/* dcm_sim.c */
u32 sim_elapsed(ktime_t *last);
s32 sim_motor_load(struct dcm_sim *sim);

/* sim_i2c.c */
void sim_i2c_init(struct dcm_sim *sim);
int sim_i2c_add(struct dcm_sim *sim, struct device *parent);
void sim_i2c_remove(struct dcm_sim *sim);

/* sim_spi.c */
void sim_spi_init(struct dcm_sim *sim);
int sim_spi_add(struct dcm_sim *sim, struct device *parent);
void sim_spi_remove(struct dcm_sim *sim);

/* sim_debugfs.c */
void sim_debugfs_init(struct dcm_sim *sim);
void sim_debugfs_exit(struct dcm_sim *sim);

#endif /* _SIM_BODY_H */
