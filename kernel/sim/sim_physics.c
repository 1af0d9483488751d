// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the physics of the simulated body.
 *
 * A motor whose control loop runs moves toward its command at a speed that
 * grows with the current it may draw: the error asks for current (all of it
 * from 0.1 rad of error on), the limit is the board's current Max scaled by
 * hardness and cut down between 75 and 85 degC, and the speed is the
 * motor's top speed in proportion. Its temperature rises with the square of
 * the current from 50 degC, toward 90 degC at full current, and falls back
 * with a time constant of a minute (seed 000: "simulated, using electric
 * current"). The loop stops without calibration, with a faulty MRE, at
 * hardness 0 or below, and 500 ms after the last command frame.
 */

#include "sim_physics.h"

#define FULL_CURRENT_ERR_URAD	100000	/* 0.1 rad of error asks for all the current */
#define TEMP_RISE_MC		40000	/* equilibrium rise at full current */
#define TEMP_TAU_US		60000000ULL

/**
 * sim_motor_init() - a motor at rest at 0 rad (or the stop nearest to it),
 *	50 degC, not calibrated
 * @m: the motor
 * @i_max_ma: current limit at full hardness
 * @speed_max_urad_s: top speed
 * @min_urad: mechanical stop, low
 * @max_urad: mechanical stop, high
 */
void sim_motor_init(struct sim_motor *m, s32 i_max_ma, s32 speed_max_urad_s, s32 min_urad,
		    s32 max_urad)
{
	memset(m, 0, sizeof(*m));
	m->i_max_ma = i_max_ma;
	m->speed_max_urad_s = speed_max_urad_s;
	m->min_urad = min_urad;
	m->max_urad = max_urad;
	m->temp_mc = SIM_TEMP_START_MC;
	m->since_cmd_us = SIM_WATCHDOG_US;
	m->pos_urad = clamp(0, min_urad, max_urad);
}

/**
 * sim_motor_place() - an outside force puts the joint at an angle
 * @m: the motor
 * @pos_urad: the angle; the mechanical stops hold it within them
 */
void sim_motor_place(struct sim_motor *m, s32 pos_urad)
{
	m->pos_urad = clamp(pos_urad, m->min_urad, m->max_urad);
}

/* An angle in MRE counts, rounded to the nearest, halves away from 0. */
static s32 urad_to_counts(s64 urad)
{
	s64 n = (urad < 0 ? -urad : urad) * SIM_MRE_COUNTS + SIM_TWO_PI_URAD / 2;
	s32 c = (s32)div_s64(n, SIM_TWO_PI_URAD);

	return urad < 0 ? -c : c;
}

/**
 * sim_mre_count() - what a joint's MRE reads
 * @true_zero: its count at the joint's 0 rad (the ideal jointZeroPosition)
 * @pos_urad: the joint's angle
 *
 * Return: the count, 0..4095.
 */
u16 sim_mre_count(u16 true_zero, s32 pos_urad)
{
	return (u16)((true_zero + urad_to_counts(pos_urad)) & (SIM_MRE_COUNTS - 1));
}

/**
 * sim_mre_offset_urad() - where a board calibrated with a zero puts 0 rad
 * @true_zero: the joint's count at its real 0 rad
 * @zero: the jointZeroPosition the board was given
 *
 * A board takes the count @zero for 0 rad: what it calls angle a is the
 * real angle a plus this offset, (@zero - @true_zero) in counts, taken
 * within half a turn.
 *
 * Return: the offset, micro-radians; 0 for a board calibrated right.
 */
s32 sim_mre_offset_urad(u16 true_zero, u16 zero)
{
	s32 d = ((s32)zero - true_zero) & (SIM_MRE_COUNTS - 1);

	if (d >= SIM_MRE_COUNTS / 2)
		d -= SIM_MRE_COUNTS;
	return (s32)div_s64((s64)d * SIM_TWO_PI_URAD, SIM_MRE_COUNTS);
}

/**
 * sim_motor_command() - a command frame reached the motor's board
 * @m: the motor
 * @target_urad: the angle to reach
 * @hardness_ppm: hardness, millionths, -1000000 to 1000000
 */
void sim_motor_command(struct sim_motor *m, s32 target_urad, s32 hardness_ppm)
{
	m->target_urad = target_urad;
	m->hardness_ppm = clamp(hardness_ppm, -1000000, 1000000);
	m->since_cmd_us = 0;
}

/**
 * sim_motor_active() - whether the control loop runs
 * @m: the motor
 *
 * Return: true when calibrated, the MRE answers, hardness is above 0 and a
 * command frame came within 500 ms.
 */
bool sim_motor_active(const struct sim_motor *m)
{
	return m->calibrated && !m->mre_fault && m->hardness_ppm > 0 &&
	       m->since_cmd_us < SIM_WATCHDOG_US;
}

/**
 * sim_motor_current_limit() - the current the motor may draw now
 * @m: the motor
 *
 * Return: the board's limit scaled by hardness, reduced linearly to 0 between
 * 75 and 85 degC; 0 when the loop does not run.
 */
s32 sim_motor_current_limit(const struct sim_motor *m)
{
	s64 lim;

	if (!sim_motor_active(m))
		return 0;
	lim = (s64)m->i_max_ma * m->hardness_ppm / 1000000;
	if (m->temp_mc >= SIM_TEMP_MAX_MC)
		return 0;
	if (m->temp_mc > SIM_TEMP_LIMIT_MC)
		lim = lim * (SIM_TEMP_MAX_MC - m->temp_mc) / (SIM_TEMP_MAX_MC - SIM_TEMP_LIMIT_MC);
	return (s32)lim;
}

/**
 * sim_motor_temp_status() - the temperature status of seed 001
 * @m: the motor
 *
 * Return: 0 below 75 degC, 1 from 75 (stiffness starts to be reduced), 2
 * from 80 (reduced over 30 %), 3 from 85 (cut to 0).
 */
u8 sim_motor_temp_status(const struct sim_motor *m)
{
	if (m->temp_mc >= SIM_TEMP_MAX_MC)
		return 3;
	if (m->temp_mc >= 80000)
		return 2;
	if (m->temp_mc >= SIM_TEMP_LIMIT_MC)
		return 1;
	return 0;
}

/* The watchdog: time since the last command frame, up to past 500 ms. */
static void sim_motor_watchdog(struct sim_motor *m, u32 dt_us)
{
	m->since_cmd_us = m->since_cmd_us > SIM_WATCHDOG_US ? m->since_cmd_us :
			  m->since_cmd_us + dt_us;
}

/* The temperature follows the current drawn in the step. */
static void sim_motor_heat(struct sim_motor *m, u32 dt_us)
{
	s64 rise, num;

	/* dT/dt = (rise * (I / Imax)^2 - (T - 50 degC)) / tau */
	rise = (s64)TEMP_RISE_MC * m->current_ma / m->i_max_ma * m->current_ma / m->i_max_ma;
	num = (rise - (m->temp_mc - SIM_TEMP_START_MC)) * (s64)dt_us + m->temp_rem;
	m->temp_mc += (s32)(num / (s64)TEMP_TAU_US);
	m->temp_rem = num % (s64)TEMP_TAU_US;
}

/**
 * sim_motor_step() - advance a motor by one time step
 * @m: the motor
 * @dt_us: the step, microseconds
 *
 * A motor whose loop does not run stays where it is, braked or free: no
 * outside force pushes the simulated body.
 */
void sim_motor_step(struct sim_motor *m, u32 dt_us)
{
	s64 err, demand, lim, speed, move;

	sim_motor_watchdog(m, dt_us);
	m->current_ma = 0;
	if (sim_motor_active(m)) {
		err = (s64)m->target_urad - m->pos_urad;
		demand = min_t(s64, (err < 0 ? -err : err) * m->i_max_ma / FULL_CURRENT_ERR_URAD,
			       m->i_max_ma);
		lim = sim_motor_current_limit(m);
		m->current_ma = (s32)min_t(s64, demand, lim);
		speed = (s64)m->speed_max_urad_s * m->current_ma / m->i_max_ma;
		move = speed * dt_us / 1000000;
		if (move > (err < 0 ? -err : err))
			move = err < 0 ? -err : err;
		m->pos_urad += (s32)(err < 0 ? -move : move);
		m->pos_urad = clamp(m->pos_urad, m->min_urad, m->max_urad);
	}
	sim_motor_heat(m, dt_us);
}

/**
 * sim_motor_follow() - advance a motor by one time step whose motion an
 *	outside model gives
 * @m: the motor
 * @pos_urad: where the joint is at the end of the step
 * @current_ma: what the motor drew, 0 or more
 * @dt_us: the step, microseconds
 *
 * The joint is where the model says, stops or not (a model has its own);
 * the watchdog runs and the temperature follows @current_ma as in
 * sim_motor_step().
 */
void sim_motor_follow(struct sim_motor *m, s32 pos_urad, s32 current_ma, u32 dt_us)
{
	sim_motor_watchdog(m, dt_us);
	m->pos_urad = pos_urad;
	m->current_ma = max_t(s32, current_ma, 0);
	sim_motor_heat(m, dt_us);
}

/**
 * sim_hand_init() - a hand's motor: an aperture from 0 to 1, closed, at rest
 * @m: the motor
 *
 * It moves, draws current and warms like a joint's motor (the same control
 * loop, under the same hardness), between the stops 0 and SIM_HAND_OPEN.
 */
void sim_hand_init(struct sim_motor *m)
{
	sim_motor_init(m, SIM_HAND_I_MAX_MA, SIM_HAND_SPEED, 0, SIM_HAND_OPEN);
}

/**
 * sim_hand_target() - the aperture a hand's command asks for
 * @permil: the command's position field: aperture in per mil
 *
 * Return: the aperture in millionths, held within 0..SIM_HAND_OPEN (the
 * field is two's complement: a negative one is 0).
 */
s32 sim_hand_target(u16 permil)
{
	s32 v = (s16)permil;

	return clamp(v, 0, 1000) * 1000;
}

/**
 * sim_mb_target() - what a motor board's command asks of one of its motors
 * @position: the command's position field (a joint: an angle in 1/65536 of
 *	a turn; a hand: an aperture in per mil)
 * @hand: the motor is a hand's
 * @true_zero: a joint's count at its real 0 rad
 * @zero: the jointZeroPosition the board was given
 *
 * Return: the target of sim_motor_command(): a joint's real angle, in the
 * frame of the zero the board was given, micro-radians; a hand's aperture.
 */
s32 sim_mb_target(u16 position, bool hand, u16 true_zero, u16 zero)
{
	if (hand)
		return sim_hand_target(position);
	return (s32)div_s64((s64)(s16)position * SIM_TWO_PI_URAD, 65536) +
	       sim_mre_offset_urad(true_zero, zero);
}

/**
 * sim_hand_permil() - what a hand's board reports of its aperture
 * @m: the motor
 *
 * Return: the aperture in per mil, rounded to the nearest.
 */
s16 sim_hand_permil(const struct sim_motor *m)
{
	return (s16)((m->pos_urad + 500) / 1000);
}

/**
 * sim_battery_init() - a full battery, discharging
 * @b: the battery
 * @capacity_nah: its full charge capacity
 */
void sim_battery_init(struct sim_battery *b, s64 capacity_nah)
{
	memset(b, 0, sizeof(*b));
	b->capacity_nah = capacity_nah;
	b->charge_nah = capacity_nah;
	b->temp_mc = 30000;
}

/**
 * sim_battery_step() - advance the battery by one time step
 * @b: the battery
 * @load_ma: what the robot draws
 * @dt_us: the step, microseconds
 *
 * Plugged, the charger gives 2 A to the robot and the battery; else the
 * battery gives all the load.
 */
void sim_battery_step(struct sim_battery *b, s32 load_ma, u32 dt_us)
{
	s64 num;

	b->current_ma = b->charging ? 2000 - load_ma : -load_ma;
	num = (s64)b->current_ma * dt_us + b->charge_rem;
	b->charge_nah += num / 3600;
	b->charge_rem = num % 3600;
	b->charge_nah = clamp(b->charge_nah, 0LL, b->capacity_nah);
}

/**
 * sim_battery_charge_ppm() - relative state of charge
 * @b: the battery
 *
 * Return: charge in millionths of the full charge capacity.
 */
u32 sim_battery_charge_ppm(const struct sim_battery *b)
{
	return (u32)div64_u64((u64)b->charge_nah * 1000000, (u64)b->capacity_nah);
}

/**
 * sim_battery_status() - the 16-bit status word of seed 000
 * @b: the battery
 *
 * Return: SIM_BAT_* bits.
 */
u16 sim_battery_status(const struct sim_battery *b)
{
	u32 ppm = sim_battery_charge_ppm(b);
	u16 st = SIM_BAT_CHARGE_FET | SIM_BAT_DISCHARGE_FET;

	if (ppm < 30000)
		st |= SIM_BAT_END_OF_DISCHARGE;
	if (ppm < 100000)
		st |= SIM_BAT_NEAR_END_OF_DISCHARGE;
	if (b->current_ma < 0)
		st |= SIM_BAT_DISCHARGING;
	if (b->charging)
		st |= SIM_BAT_CHARGE | SIM_BAT_POWER_SUPPLY;
	if (b->charging && ppm >= 995000)
		st |= SIM_BAT_FULL_CHARGE;
	if (b->current_ma < -6000)
		st |= SIM_BAT_DISCHARGE_OC_6A;
	if (b->current_ma < -14000)
		st |= SIM_BAT_DISCHARGE_OC_14A;
	return st;
}
