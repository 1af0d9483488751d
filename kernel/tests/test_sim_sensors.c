// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the simulated body's sensors (kernel/sim/sim_sensors.c):
 * integer sines, the inertial board at rest, tilted and turning, the
 * ultrasound board's captures and their timing, the weight on the FSRs,
 * the head CPU's temperature.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim/sim_sensors.h"

#define MS	1000ULL

static void assert_near(s64 v, s64 want, s64 tol)
{
	if (v < want - tol || v > want + tol)
		fail_msg("%lld is not %lld +- %lld", (long long)v, (long long)want, (long long)tol);
}

static void test_sine(void **state)
{
	(void)state;
	assert_near(sim_sin_nano(0), 0, 2);
	assert_near(sim_sin_nano(523599), 500000000, 500);	/* pi/6 */
	assert_near(sim_sin_nano(1570796), 1000000000, 5);	/* pi/2 */
	assert_near(sim_sin_nano(-785398), -707106781, 500);	/* -pi/4 */
	assert_near(sim_sin_nano(3000000), 141120008, 1000);	/* sin 3 */
	assert_near(sim_sin_nano(-3141593), 0, 1000);
	assert_near(sim_sin_nano(7000000), 656986599, 1000);	/* beyond 2 pi */
	assert_near(sim_cos_nano(0), 1000000000, 5);
	assert_near(sim_cos_nano(1047198), 500000000, 500);	/* pi/3 */
	assert_near(sim_cos_nano(2500000), -801143616, 1000);
	assert_near(sim_cos_nano(-2500000), -801143616, 1000);
	assert_near(sim_cos_nano(3141593), -1000000000, 5);
}

static void test_imu_at_rest(void **state)
{
	struct sim_imu m;
	struct dcm_imu o;

	(void)state;
	memset(&m, 0, sizeof(m));
	sim_imu_step(&m, 10000);
	sim_imu_sample(&m, &o);
	assert_int_equal(DCM_IMU_ST_ANGLE_VALID, o.status);
	assert_int_equal(1, o.counter);
	assert_int_equal(0, o.acc[0]);
	assert_int_equal(0, o.acc[1]);
	assert_int_equal(-1024, o.acc[2]);
	assert_int_equal(0, o.acc_raw[0]);
	assert_int_equal(0, o.acc_raw[1]);
	assert_int_equal(-56, o.acc_raw[2]);
	assert_int_equal(0, o.gyr[0]);
	assert_int_equal(0, o.gyr[2]);
	assert_int_equal(0, o.angle[0]);
	assert_int_equal(SIM_GYR_ZERO_X, o.gyr_raw[0]);
	assert_int_equal(SIM_GYR_ZERO_Y, o.gyr_raw[1]);
	assert_int_equal(SIM_GYR_REF, o.gyr_raw[2]);
}

/* Given values: the same registers as the model's for the same body. */
static void test_imu_sample_at(void **state)
{
	static const s32 zero[3];
	struct sim_imu m;
	struct dcm_imu o, own;
	s32 angle[3] = { 200000, -100000, 50000 }, rate[3] = { 50000, -8726646, 0 };
	s64 g[3] = { 100000000, -200000000, -900000000 };

	(void)state;
	sim_imu_sample_at(7, angle, rate, g, &o);
	assert_int_equal(7, o.counter);
	assert_int_equal(102, o.acc[0]);	/* 0.1 g in 1/1024 g */
	assert_int_equal(-205, o.acc[1]);
	assert_int_equal(-922, o.acc[2]);
	assert_int_equal(6, o.acc_raw[0]);	/* 56 * 0.1 = 5.6 */
	assert_int_equal(11, o.acc_raw[1]);	/* reversed */
	assert_int_equal(2000, o.angle[0]);
	assert_int_equal(-1000, o.angle[1]);
	assert_int_equal(500, o.angle[2]);
	assert_int_equal(188, o.gyr[0]);	/* 0.05 rad/s of 500 deg/s in 32768 */
	assert_int_equal(-32767, o.gyr[1]);	/* full scale: saturated */
	assert_int_equal(DCM_IMU_ST_ANGLE_VALID | DCM_IMU_ST_GYR_SAT, o.status);
	/* Upright at rest: what the model gives. */
	memset(&m, 0, sizeof(m));
	sim_imu_sample(&m, &own);
	g[0] = 0;
	g[1] = 0;
	g[2] = -SIM_NANO;
	sim_imu_sample_at(0, zero, zero, g, &o);
	assert_memory_equal(&own, &o, sizeof(o));
}

static void test_imu_tilted(void **state)
{
	struct sim_imu m;
	struct dcm_imu o;

	(void)state;
	memset(&m, 0, sizeof(m));
	/* Pitched forward 0.3 rad: gravity moves to +X. */
	m.angle_urad[1] = 300000;
	sim_imu_sample(&m, &o);
	assert_int_equal(303, o.acc[0]);	/* 1024 sin 0.3 = 302.6 */
	assert_int_equal(0, o.acc[1]);
	assert_int_equal(-978, o.acc[2]);	/* 1024 cos 0.3 = 978.3 */
	assert_int_equal(3000, o.angle[1]);
	assert_int_equal(17, o.acc_raw[0]);	/* 56 sin 0.3 = 16.5 */
	/* Rolled 0.5 rad: gravity moves to -Y; the old sensor's Y is reversed. */
	memset(&m, 0, sizeof(m));
	m.angle_urad[0] = 500000;
	sim_imu_sample(&m, &o);
	assert_int_equal(0, o.acc[0]);
	assert_int_equal(-491, o.acc[1]);	/* 1024 sin 0.5 = 490.9 */
	assert_int_equal(-899, o.acc[2]);	/* 1024 cos 0.5 = 898.6 */
	assert_int_equal(27, o.acc_raw[1]);	/* 56 sin 0.5 = 26.8, reversed */
	assert_int_equal(5000, o.angle[0]);
	/* Both: the vector keeps its length. */
	m.angle_urad[1] = -400000;
	sim_imu_sample(&m, &o);
	assert_near((s64)o.acc[0] * o.acc[0] + (s64)o.acc[1] * o.acc[1] +
		    (s64)o.acc[2] * o.acc[2], 1024 * 1024, 2048);
	assert_true(o.acc[0] < 0);
}

static void test_imu_turning(void **state)
{
	struct sim_imu m;
	struct dcm_imu o;
	int i;

	(void)state;
	memset(&m, 0, sizeof(m));
	/* 1 rad/s about Z for 1 s, in 10 ms steps: yaw 1 rad. */
	m.rate_urad_s[2] = 1000000;
	for (i = 0; i < 100; i++)
		sim_imu_step(&m, 10000);
	sim_imu_sample(&m, &o);
	assert_int_equal(1000000, m.angle_urad[2]);
	assert_int_equal(10000, o.angle[2]);
	assert_int_equal(3755, o.gyr[2]);	/* 1 rad/s / 0.0002663161 */
	assert_int_equal(-1024, o.acc[2]);	/* yaw does not move gravity */
	/* About X: 0.1 rad/s; the old gyrometer: 2.7 counts per deg/s, reversed. */
	m.rate_urad_s[0] = 100000;
	m.rate_urad_s[1] = -200000;
	sim_imu_sample(&m, &o);
	assert_int_equal(SIM_GYR_ZERO_X - 15, o.gyr_raw[0]);	/* 2.7 * 5.73 */
	assert_int_equal(SIM_GYR_ZERO_Y + 31, o.gyr_raw[1]);
	assert_int_equal(SIM_GYR_REF, o.gyr_raw[2]);
	/* The angle wraps at pi. */
	m.rate_urad_s[0] = 0;
	m.rate_urad_s[1] = 0;
	m.angle_urad[2] = 3100000;
	for (i = 0; i < 10; i++)
		sim_imu_step(&m, 10000);
	assert_int_equal(3200000 - 2 * SIM_PI_URAD, m.angle_urad[2]);
	/* Saturation: 600 deg/s. */
	m.rate_urad_s[0] = 10471976;
	sim_imu_sample(&m, &o);
	assert_int_equal(32767, o.gyr[0]);
	assert_true(o.status & DCM_IMU_ST_GYR_SAT);
}

static const u8 left[DCM_US_ECHOES] = { 40, 120, 255, 255, 255, 255, 255, 255, 255, 255 };
static const u8 right[DCM_US_ECHOES] = { 75, 255, 255, 255, 255, 255, 255, 255, 255, 255 };

static void test_us_single(void **state)
{
	struct sim_us us;

	(void)state;
	sim_us_init(&us);
	assert_int_equal(0, us.regs.counter);
	sim_us_step(&us, 0, left, right);
	assert_int_equal(0, us.regs.counter);
	/* Right receiver: about 10 ms later. */
	assert_true(sim_us_write_mode(&us, 1, 5 * MS));
	sim_us_step(&us, 10 * MS, left, right);
	assert_int_equal(0, us.regs.counter);
	assert_true(us.regs.status & DCM_US_ST_BUSY);
	sim_us_step(&us, 15 * MS, left, right);
	assert_int_equal(1, us.regs.counter);
	assert_int_equal(75, us.regs.mono);
	assert_int_equal(1, us.regs.result_mode);
	assert_int_equal(0, us.regs.status);
	/* Once only. */
	sim_us_step(&us, 500 * MS, left, right);
	assert_int_equal(1, us.regs.counter);
	/* Left receiver, right transmitter. */
	sim_us_write_mode(&us, 2, 500 * MS);
	sim_us_step(&us, 520 * MS, left, right);
	assert_int_equal(2, us.regs.counter);
	assert_int_equal(40, us.regs.mono);
	/* The echo arrays were not touched. */
	assert_int_equal(255, us.regs.left[0]);
}

static void test_us_dual_periodic(void **state)
{
	struct sim_us us;
	u64 t;

	(void)state;
	sim_us_init(&us);
	sim_us_write_mode(&us, DCM_US_M_DUAL | DCM_US_M_TX_BOTH, 0);
	sim_us_step(&us, 10 * MS, left, right);
	assert_int_equal(1, us.regs.counter);
	assert_memory_equal(left, us.regs.left, DCM_US_ECHOES);
	assert_memory_equal(right, us.regs.right, DCM_US_ECHOES);
	assert_int_equal(255, us.regs.mono);
	assert_int_equal(12, us.regs.result_mode);
	/* Periodic: every 100 ms, read every 10 ms. */
	sim_us_write_mode(&us, 68, 100 * MS);
	assert_true(us.regs.status & DCM_US_ST_PERIODIC);
	for (t = 100 * MS; t <= 1095 * MS; t += 10 * MS)
		sim_us_step(&us, t, left, right);
	assert_int_equal(1 + 10, us.regs.counter);
	assert_int_equal(68, us.regs.result_mode);
	/* A mode without bit 6 stops it after its own capture. */
	sim_us_write_mode(&us, 4, 1100 * MS);
	for (t = 1100 * MS; t <= 2000 * MS; t += 10 * MS)
		sim_us_step(&us, t, left, right);
	assert_int_equal(12, us.regs.counter);
	assert_int_equal(0, us.regs.status);
	/* A late reader: the captures it missed are counted, the period holds. */
	sim_us_write_mode(&us, 64, 3000 * MS);
	sim_us_step(&us, 3500 * MS, left, right);
	assert_int_equal(17, us.regs.counter);
	assert_int_equal(17, us.captures);
	sim_us_step(&us, 3505 * MS, left, right);
	assert_int_equal(17, us.regs.counter);
	sim_us_step(&us, 3510 * MS, left, right);
	assert_int_equal(18, us.regs.counter);
	assert_int_equal(40, us.regs.mono);
}

static void test_us_bad_mode(void **state)
{
	struct sim_us us;

	(void)state;
	sim_us_init(&us);
	sim_us_write_mode(&us, 68, 0);
	assert_false(sim_us_write_mode(&us, 16, 5 * MS));
	assert_true(us.regs.status & DCM_US_ST_BAD_MODE);
	assert_int_equal(68, us.mode);
	/* The periodic capture goes on. */
	sim_us_step(&us, 10 * MS, left, right);
	assert_int_equal(1, us.regs.counter);
	assert_true(us.regs.status & DCM_US_ST_PERIODIC);
	assert_false(sim_us_write_mode(&us, 0x80, 20 * MS));
	assert_true(sim_us_write_mode(&us, 0, 30 * MS));
	assert_false(us.regs.status & DCM_US_ST_BAD_MODE);
}

static void test_us_parse(void **state)
{
	u8 e[DCM_US_ECHOES];

	(void)state;
	assert_int_equal(2, sim_us_parse_echoes("120 40\n", e));
	assert_memory_equal(left, e, DCM_US_ECHOES);
	assert_int_equal(0, sim_us_parse_echoes("", e));
	assert_int_equal(255, e[0]);
	assert_int_equal(0, sim_us_parse_echoes("\n", e));
	assert_int_equal(10, sim_us_parse_echoes("10,9,8,7,6,5,4,3,2,1", e));
	assert_int_equal(1, e[0]);
	assert_int_equal(10, e[9]);
	assert_int_equal(1, sim_us_parse_echoes("0", e));
	assert_int_equal(0, e[0]);
	assert_int_equal(-EINVAL, sim_us_parse_echoes("1 2 3 4 5 6 7 8 9 10 11", e));
	assert_int_equal(-EINVAL, sim_us_parse_echoes("256", e));
	assert_int_equal(-EINVAL, sim_us_parse_echoes("-4", e));
	assert_int_equal(-EINVAL, sim_us_parse_echoes("4x", e));
}

/* The barycentre of a foot's FSRs, micrometres. */
static void barycentre(const struct sim_foot_geom *g, const u32 *w, s64 *x, s64 *y)
{
	s64 sum = 0, sx = 0, sy = 0;
	int i;

	for (i = 0; i < 4; i++) {
		sum += w[i];
		sx += (s64)w[i] * g->x_um[i];
		sy += (s64)w[i] * g->y_um[i];
	}
	*x = sum ? sx / sum : 0;
	*y = sum ? sy / sum : 0;
}

static void test_feet(void **state)
{
	static const s32 cop[][2] = {
		{ 0, 0 }, { 20000, 5000 }, { -25000, -15000 }, { 60000, 20000 }, { 10000, -18000 },
	};
	const struct sim_foot_geom *g[2] = { &sim_foot_left, &sim_foot_right };
	u32 l, r, w[4];
	u16 raw[4];
	s64 x, y;
	size_t i, f;
	int k;

	(void)state;
	sim_feet_split(SIM_STANCE_BOTH, 5201, &l, &r);
	assert_int_equal(2601, l);
	assert_int_equal(2600, r);
	sim_feet_split(SIM_STANCE_LEFT, 5200, &l, &r);
	assert_int_equal(5200, l);
	assert_int_equal(0, r);
	sim_feet_split(SIM_STANCE_RIGHT, 5200, &l, &r);
	assert_int_equal(0, l);
	assert_int_equal(5200, r);
	sim_feet_split(0, 5200, &l, &r);
	assert_int_equal(0, l + r);

	for (f = 0; f < 2; f++) {
		for (i = 0; i < ARRAY_SIZE(cop); i++) {
			/* Beyond the right foot's rear left FSR: taken to the edge. */
			if (f == 1 && cop[i][1] > 19100)
				continue;
			sim_foot_load(g[f], 2600, cop[i][0], cop[i][1], w);
			assert_int_equal(2600, w[0] + w[1] + w[2] + w[3]);
			barycentre(g[f], w, &x, &y);
			assert_near(x, cop[i][0], 100);
			assert_near(y, cop[i][1], 100);
		}
	}
	/* At a sensor: all on it. */
	sim_foot_load(&sim_foot_left, 5200, 70250, 29900, w);
	assert_int_equal(5200, w[0]);
	/* Beyond the front edge: all on the front pair. */
	sim_foot_load(&sim_foot_left, 5200, 200000, 0, w);
	assert_int_equal(5200, w[0] + w[1]);
	assert_int_equal(0, w[2] + w[3]);
	/* Nothing on the foot. */
	sim_foot_load(&sim_foot_left, 0, 0, 0, w);
	assert_int_equal(0, w[0] + w[1] + w[2] + w[3]);

	/* The FSRs' counts: the body file's calibration gives the grams back. */
	for (f = 0; f < 2; f++) {
		w[0] = 400;
		w[1] = 1200;
		w[2] = 0;
		w[3] = 25000;
		sim_foot_fsr(g[f], w, raw);
		for (k = 0; k < 4; k++) {
			s64 back = ((s64)raw[k] * g[f]->gain_ukg[k] + g[f]->offset_ukg[k]) / 1000;

			if (w[k])
				assert_near(back, w[k], 1);
		}
	}
	/* An unloaded FSR whose offset is above 0 reads 0 counts, not below. */
	assert_int_equal(0, raw[2]);
	/* Left front left: (0.4 kg - 0.0165) / 0.001043; rear left unloaded. */
	sim_foot_fsr(&sim_foot_left, w, raw);
	assert_int_equal(368, raw[0]);
	assert_int_equal(29, raw[2]);
}

static void test_cpu(void **state)
{
	struct sim_cpu c = { .temp_mc = 50000 };
	int i;

	(void)state;
	assert_int_equal(40000, sim_cpu_equilibrium_mc(0));
	assert_int_equal(50000, sim_cpu_equilibrium_mc(25));
	assert_int_equal(80000, sim_cpu_equilibrium_mc(150));
	/* At equilibrium it stays. */
	for (i = 0; i < 1000; i++)
		sim_cpu_step(&c, 25, 10000);
	assert_int_equal(50000, c.temp_mc);
	/* Full load for 20 s (one time constant): 63 % of the way to 80. */
	for (i = 0; i < 2000; i++)
		sim_cpu_step(&c, 100, 10000);
	assert_near(c.temp_mc, 50000 + 18964, 100);
	/* Then idle for a long time. */
	for (i = 0; i < 100000; i++)
		sim_cpu_step(&c, 0, 10000);
	assert_near(c.temp_mc, 40000, 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sine),
		cmocka_unit_test(test_imu_at_rest),
		cmocka_unit_test(test_imu_tilted),
		cmocka_unit_test(test_imu_sample_at),
		cmocka_unit_test(test_imu_turning),
		cmocka_unit_test(test_us_single),
		cmocka_unit_test(test_us_dual_periodic),
		cmocka_unit_test(test_us_bad_mode),
		cmocka_unit_test(test_us_parse),
		cmocka_unit_test(test_feet),
		cmocka_unit_test(test_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
