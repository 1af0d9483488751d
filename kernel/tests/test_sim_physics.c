// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the simulated body's physics: motors, temperature, battery,
 * mechanical stops and the joints' MREs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim_physics.h"

#define RAD 1000000

static void run(struct sim_motor *m, int ms, bool command)
{
	int i;

	for (i = 0; i < ms / 10; i++) {
		if (command)
			sim_motor_command(m, m->target_urad, m->hardness_ppm);
		sim_motor_step(m, 10000);
	}
}

static void test_uncalibrated_does_not_move(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	sim_motor_command(&m, RAD, 1000000);
	run(&m, 500, true);
	assert_int_equal(0, m.pos_urad);
	assert_int_equal(0, m.current_ma);
	assert_false(sim_motor_active(&m));
	assert_int_equal(SIM_TEMP_START_MC, m.temp_mc);
}

static void test_follows_command(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	m.calibrated = true;
	sim_motor_command(&m, RAD, 1000000);
	sim_motor_step(&m, 10000);
	/* Full current at full speed for the first steps: 6 rad/s * 10 ms. */
	assert_int_equal(1000, m.current_ma);
	assert_int_equal(60000, m.pos_urad);
	run(&m, 1000, true);
	assert_in_range(m.pos_urad, RAD - 1000, RAD);
	/* Near the target little current flows. */
	assert_in_range(m.current_ma, 0, 20);
	/* The mechanical stop holds a command beyond it. */
	sim_motor_command(&m, 3 * RAD, 1000000);
	run(&m, 1000, true);
	assert_int_equal(2 * RAD, m.pos_urad);
	assert_int_equal(1000, m.current_ma);
}

/* Hardness scales the current limit, hence the speed. */
static void test_hardness_scales(void **state)
{
	struct sim_motor full, half;

	(void)state;
	sim_motor_init(&full, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	sim_motor_init(&half, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	full.calibrated = half.calibrated = true;
	sim_motor_command(&full, RAD, 1000000);
	sim_motor_command(&half, RAD, 500000);
	run(&full, 100, true);
	run(&half, 100, true);
	assert_int_equal(600000, full.pos_urad);
	assert_int_equal(300000, half.pos_urad);
	assert_int_equal(500, half.current_ma);
	/* 0 and below: no loop. */
	sim_motor_command(&half, -RAD, 0);
	run(&half, 100, true);
	assert_int_equal(300000, half.pos_urad);
	sim_motor_command(&half, -RAD, -1000000);
	run(&half, 100, true);
	assert_int_equal(300000, half.pos_urad);
	assert_false(sim_motor_active(&half));
}

/* No command frame for 500 ms: the board stops its loop. */
static void test_watchdog(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_motor_init(&m, 1000, 1 * RAD, -2 * RAD, 2 * RAD);
	m.calibrated = true;
	sim_motor_command(&m, 2 * RAD, 1000000);
	run(&m, 490, false);
	assert_true(sim_motor_active(&m));
	run(&m, 20, false);
	assert_false(sim_motor_active(&m));
	/* It moved in the 49 steps before the 500 ms. */
	assert_int_equal(490000, m.pos_urad);
	run(&m, 500, false);
	assert_int_equal(490000, m.pos_urad);
	/* A command brings it back. */
	sim_motor_command(&m, 2 * RAD, 1000000);
	assert_true(sim_motor_active(&m));
}

static void test_mre_fault(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	m.calibrated = true;
	m.mre_fault = true;
	sim_motor_command(&m, RAD, 1000000);
	run(&m, 100, true);
	assert_int_equal(0, m.pos_urad);
}

/* Held against its stop, the motor heats up, is limited from 75 degC and stays under 85. */
static void test_temperature(void **state)
{
	struct sim_motor m;
	int s, seen[4] = { 0 };

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	m.calibrated = true;
	assert_int_equal(0, sim_motor_temp_status(&m));
	sim_motor_command(&m, 3 * RAD, 1000000);
	for (s = 0; s < 600; s++) {
		run(&m, 1000, true);
		seen[sim_motor_temp_status(&m)]++;
		assert_true(m.temp_mc < SIM_TEMP_MAX_MC);
		if (m.temp_mc > SIM_TEMP_LIMIT_MC)
			assert_true(m.current_ma < 1000);
	}
	/* It climbed past 75 and settled where heat and limit balance. */
	assert_true(seen[0] > 0);
	assert_true(seen[1] > 0);
	assert_in_range(m.temp_mc, SIM_TEMP_LIMIT_MC, SIM_TEMP_MAX_MC);
	/* Forced hot, the statuses follow the thresholds. */
	m.temp_mc = 80000;
	assert_int_equal(2, sim_motor_temp_status(&m));
	m.temp_mc = 85000;
	assert_int_equal(3, sim_motor_temp_status(&m));
	assert_int_equal(0, sim_motor_current_limit(&m));
	/* Idle, it cools toward 50 degC. */
	sim_motor_command(&m, m.pos_urad, 0);
	run(&m, 300000, true);
	assert_in_range(m.temp_mc, SIM_TEMP_START_MC, SIM_TEMP_START_MC + 1000);
}

/*
 * Moved by an outside model: the joint is where it says, stops or not, the
 * watchdog runs and the temperature follows its current as its own would.
 */
static void test_follow(void **state)
{
	struct sim_motor m, own;
	int i;

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -2 * RAD, 2 * RAD);
	m.calibrated = true;
	sim_motor_command(&m, RAD, 1000000);
	own = m;
	for (i = 0; i < 100; i++) {
		sim_motor_command(&own, 3 * RAD, 1000000);	/* held at its stop: full current */
		sim_motor_step(&own, 10000);
		sim_motor_command(&m, RAD, 1000000);
		sim_motor_follow(&m, 2500000, own.current_ma, 10000);
	}
	assert_int_equal(2500000, m.pos_urad);
	assert_int_equal(1000, m.current_ma);
	assert_true(m.temp_mc > SIM_TEMP_START_MC);
	assert_int_equal(own.temp_mc, m.temp_mc);
	/* A negative current counts as none. */
	sim_motor_follow(&m, 0, -5, 10000);
	assert_int_equal(0, m.current_ma);
	/* Without commands its loop stops 500 ms on, as its own would. */
	for (i = 0; i < 47; i++)
		sim_motor_follow(&m, 0, 0, 10000);
	assert_true(sim_motor_active(&m));
	sim_motor_follow(&m, 0, 0, 10000);
	sim_motor_follow(&m, 0, 0, 10000);
	assert_false(sim_motor_active(&m));
	assert_int_equal(0, sim_motor_current_limit(&m));
}

/* The stops: a motor starts at 0 or the nearest stop, and is placed within them. */
static void test_stops(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_motor_init(&m, 1000, 6 * RAD, -1544600, -34900);	/* LElbowRoll */
	assert_int_equal(-34900, m.pos_urad);
	sim_motor_place(&m, -3 * RAD);
	assert_int_equal(-1544600, m.pos_urad);
	sim_motor_place(&m, -RAD);
	assert_int_equal(-RAD, m.pos_urad);
	/* A running loop asked past a stop stays at it. */
	m.calibrated = true;
	sim_motor_command(&m, 0, 1000000);
	run(&m, 1000, true);
	assert_int_equal(-34900, m.pos_urad);
}

/* The MRE: the true zero at 0 rad, 4096 counts a turn, wrapping. */
static void test_mre(void **state)
{
	(void)state;
	assert_int_equal(1094, sim_mre_count(1094, 0));
	assert_int_equal(1094 + 1024, sim_mre_count(1094, 1570796));
	assert_int_equal(1094 - 1024, sim_mre_count(1094, -1570796));
	assert_int_equal(4095, sim_mre_count(0, -767));
	assert_int_equal(0, sim_mre_count(0, -766));
	assert_int_equal(10, sim_mre_count(4000, 106 * 6283185LL / 4096 + 1));
	/* Calibrated right, no offset; off by 1024 counts, a quarter turn. */
	assert_int_equal(0, sim_mre_offset_urad(1094, 1094));
	assert_int_equal(1570796, sim_mre_offset_urad(1000, 2024));
	assert_int_equal(-1570796, sim_mre_offset_urad(2024, 1000));
	/* Taken within half a turn across the wrap. */
	assert_int_equal(-1533, sim_mre_offset_urad(1, 0));
	assert_int_equal(1533, sim_mre_offset_urad(4095, 0));
}

/* A hand: an aperture 0..1 in millionths, per mil on the wire. */
static void test_hand(void **state)
{
	struct sim_motor m;

	(void)state;
	sim_hand_init(&m);
	assert_int_equal(0, m.pos_urad);
	assert_int_equal(SIM_HAND_OPEN, m.max_urad);
	assert_int_equal(700000, sim_hand_target(700));
	assert_int_equal(0, sim_hand_target((u16)-5));
	assert_int_equal(SIM_HAND_OPEN, sim_hand_target(1500));
	/* Not calibrated: it stays closed. */
	sim_motor_command(&m, sim_hand_target(700), 800000);
	run(&m, 500, true);
	assert_int_equal(0, sim_hand_permil(&m));
	/* Calibrated, hardness 0.8: at most 0.8 of its speed, then there. */
	m.calibrated = true;
	run(&m, 100, true);
	assert_in_range(sim_hand_permil(&m), 100, 160);
	run(&m, 1000, true);
	assert_int_equal(700, sim_hand_permil(&m));
	sim_motor_command(&m, sim_hand_target(200), 800000);
	run(&m, 1000, true);
	assert_int_equal(200, sim_hand_permil(&m));
	/* Hardness 0: it stays. */
	sim_motor_command(&m, sim_hand_target(900), 0);
	run(&m, 500, true);
	assert_int_equal(200, sim_hand_permil(&m));
}

static void test_battery(void **state)
{
	struct sim_battery b;
	int i;

	(void)state;
	sim_battery_init(&b, 2250000000LL);
	assert_int_equal(1000000, sim_battery_charge_ppm(&b));
	/* 3 A for a minute: 50 mAh. */
	for (i = 0; i < 6000; i++)
		sim_battery_step(&b, 3000, 10000);
	assert_true(b.charge_nah == 2250000000LL - 50000000LL);
	assert_int_equal(-3000, b.current_ma);
	assert_true(sim_battery_status(&b) & SIM_BAT_DISCHARGING);
	assert_false(sim_battery_status(&b) & SIM_BAT_DISCHARGE_OC_6A);
	sim_battery_step(&b, 7000, 10000);
	assert_true(sim_battery_status(&b) & SIM_BAT_DISCHARGE_OC_6A);
	assert_false(sim_battery_status(&b) & SIM_BAT_DISCHARGE_OC_14A);
	sim_battery_step(&b, 15000, 10000);
	assert_true(sim_battery_status(&b) & SIM_BAT_DISCHARGE_OC_14A);
	/* Plugged: charging, power supply present. */
	b.charging = true;
	sim_battery_step(&b, 1000, 10000);
	assert_int_equal(1000, b.current_ma);
	assert_true(sim_battery_status(&b) & SIM_BAT_CHARGE);
	assert_true(sim_battery_status(&b) & SIM_BAT_POWER_SUPPLY);
	assert_false(sim_battery_status(&b) & SIM_BAT_DISCHARGING);
	/* Nearly empty. */
	b.charging = false;
	b.charge_nah = 2250000000LL / 20;
	sim_battery_step(&b, 1000, 10000);
	assert_true(sim_battery_status(&b) & SIM_BAT_NEAR_END_OF_DISCHARGE);
	assert_false(sim_battery_status(&b) & SIM_BAT_END_OF_DISCHARGE);
	b.charge_nah = 0;
	sim_battery_step(&b, 1000, 10000);
	assert_true(b.charge_nah == 0);
	assert_true(sim_battery_status(&b) & SIM_BAT_END_OF_DISCHARGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uncalibrated_does_not_move),
		cmocka_unit_test(test_follows_command),
		cmocka_unit_test(test_hardness_scales),
		cmocka_unit_test(test_watchdog),
		cmocka_unit_test(test_mre_fault),
		cmocka_unit_test(test_temperature),
		cmocka_unit_test(test_battery),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_mre),
		cmocka_unit_test(test_hand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
