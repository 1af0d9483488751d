/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm_sim - the physics of the simulated NAO body: motors that follow their
 * commands within a current limit scaled by hardness, motor temperature
 * simulated from current, the battery.
 *
 * Integers only: angles in micro-radians, currents in mA, temperatures in
 * milli-degrees Celsius, charge in nano-ampere-hours, time steps in
 * microseconds. Pure logic: it builds in the kernel (dcm_sim) and in the
 * host unit tests and the host-side simulator.
 */
#ifndef _DCM_SIM_PHYSICS_H
#define _DCM_SIM_PHYSICS_H

#include "model/dcm_pure.h"

#define SIM_TEMP_START_MC	50000	/* motors start at 50 degC (seed 000) */
#define SIM_TEMP_LIMIT_MC	75000	/* current limitation starts */
#define SIM_TEMP_HOT_MAX_MC	150000	/* debugfs hot_mc: at most */
#define SIM_TEMP_MAX_MC		85000	/* ... and reaches 0 here */
#define SIM_WATCHDOG_US		500000	/* no command for 500 ms: loop off */

/**
 * struct sim_motor - one joint's motor, MRE and control loop
 * @pos_urad: joint angle
 * @target_urad: commanded angle
 * @hardness_ppm: commanded hardness, -1000000 (free) to 1000000 (full)
 * @i_max_ma: current limit at full hardness (ElectricCurrent/Sensor/Max)
 * @speed_max_urad_s: speed at the current limit
 * @min_urad: mechanical stop, low
 * @max_urad: mechanical stop, high
 * @current_ma: current drawn in the last step
 * @temp_mc: simulated temperature
 * @temp_rem: what integer steps of @temp_mc left over, carried on
 * @since_cmd_us: time since the last command frame
 * @calibrated: jointZeroPosition is set: the control loop may run
 * @mre_fault: the MRE gives no data: the control loop is cut
 */
struct sim_motor {
	s32 pos_urad;
	s32 target_urad;
	s32 hardness_ppm;
	s32 i_max_ma;
	s32 speed_max_urad_s;
	s32 min_urad, max_urad;
	s32 current_ma;
	s32 temp_mc;
	s64 temp_rem;
	u32 since_cmd_us;
	bool calibrated;
	bool mre_fault;
};

void sim_motor_init(struct sim_motor *m, s32 i_max_ma, s32 speed_max_urad_s, s32 min_urad,
		    s32 max_urad);
void sim_motor_place(struct sim_motor *m, s32 pos_urad);
void sim_motor_command(struct sim_motor *m, s32 target_urad, s32 hardness_ppm);
void sim_motor_step(struct sim_motor *m, u32 dt_us);
void sim_motor_follow(struct sim_motor *m, s32 pos_urad, s32 current_ma, u32 dt_us);
bool sim_motor_active(const struct sim_motor *m);
u8 sim_motor_temp_status(const struct sim_motor *m);
s32 sim_motor_current_limit(const struct sim_motor *m);

/*
 * A hand's motor is a sim_motor whose "angle" is the hand's aperture in
 * millionths, 0 (closed) to 1000000 (open), its stops; on the wire it is
 * per mil both ways (Documentation/dcm/wire-protocol.rst).
 */
#define SIM_HAND_OPEN		1000000		/* aperture 1, millionths */
#define SIM_HAND_I_MAX_MA	500		/* LHand ElectricCurrent Max */
#define SIM_HAND_SPEED		2000000		/* closed to open in 0.5 s */

void sim_hand_init(struct sim_motor *m);
s32 sim_hand_target(u16 permil);
s32 sim_mb_target(u16 position, bool hand, u16 true_zero, u16 zero);
s16 sim_hand_permil(const struct sim_motor *m);

#define SIM_MRE_COUNTS		4096		/* MRE counts per turn */
#define SIM_TWO_PI_URAD		6283185LL	/* a turn, micro-radians */

u16 sim_mre_count(u16 true_zero, s32 pos_urad);
s32 sim_mre_offset_urad(u16 true_zero, u16 zero);

/**
 * struct sim_battery - the battery
 * @charge_nah: charge left, nano-ampere-hours
 * @capacity_nah: full charge capacity
 * @charge_rem: what integer steps of @charge_nah left over, carried on
 * @current_ma: signed: positive charging, negative discharging
 * @temp_mc: temperature
 * @charging: the charger is plugged
 */
struct sim_battery {
	s64 charge_nah;
	s64 capacity_nah;
	s64 charge_rem;
	s32 current_ma;
	s32 temp_mc;
	bool charging;
};

/* Status word bits (seed 000, the 16-bit BMZ battery). */
#define SIM_BAT_END_OF_DISCHARGE	BIT(0)
#define SIM_BAT_NEAR_END_OF_DISCHARGE	BIT(1)
#define SIM_BAT_CHARGE_FET		BIT(2)
#define SIM_BAT_DISCHARGE_FET		BIT(3)
#define SIM_BAT_DISCHARGING		BIT(5)
#define SIM_BAT_FULL_CHARGE		BIT(6)
#define SIM_BAT_CHARGE			BIT(7)
#define SIM_BAT_DISCHARGE_OC_14A	BIT(12)
#define SIM_BAT_DISCHARGE_OC_6A		BIT(13)
#define SIM_BAT_POWER_SUPPLY		BIT(15)

void sim_battery_init(struct sim_battery *b, s64 capacity_nah);
void sim_battery_step(struct sim_battery *b, s32 load_ma, u32 dt_us);
u32 sim_battery_charge_ppm(const struct sim_battery *b);
u16 sim_battery_status(const struct sim_battery *b);

#endif /* _DCM_SIM_PHYSICS_H */
