// SPDX-License-Identifier: GPL-2.0
/*
 * dcm_sim - the physics of the simulated body's sensors.
 *
 * Inertial board. The body's attitude is a roll angle phi about X and a
 * pitch angle theta about Y (then yaw psi about Z, which gravity does not
 * see). The accelerometer reads the gravity vector in the body frame, as a
 * NAO standing still reads (0, 0, -g):
 *
 *   a = g * (sin theta, -cos theta sin phi, -cos theta cos phi)
 *
 * in 1/1024 g on the new registers and about 56 per g on the old 8-bit
 * ones (whose Y axis is reversed: Device.xml negates it back). Angles are
 * the attitude itself (the board's filter has converged). Rotation speeds
 * are given, and integrated into the angles; the old gyrometer reads its
 * ADC's zero-rate count minus 2.7 counts per deg/s (seed 000; Device.xml
 * negates it: at rest the keys read about -2000).
 *
 * Ultrasound board. Writing MODE starts a capture whose result is stored
 * 10 ms later: the first echo of the chosen receiver (bit 0: right) as the
 * single-capture result, or both receivers' first ten echoes (bit 2); bit
 * 6 starts a new capture every 100 ms until a MODE without it. The world
 * is a list of echoes per receiver, in cm, whatever the transmitter.
 *
 * Feet. The robot's weight goes to the feet that bear it (both: half
 * each), and on each foot to its four FSRs so that their barycentre is the
 * centre of pressure asked for: each pair (front, rear) shares its load so
 * that its own barycentre has the asked Y, then the pairs share the foot's
 * load so that the whole has the asked X. A centre of pressure outside the
 * FSRs is taken to the nearest edge (the foot would tip). Each FSR then
 * reads with its own gain and offset, those the body file's calibration
 * (userspace/data/body.xml) undoes, so that calibrated values are the
 * weights within a gram.
 *
 * Head CPU. Its temperature tends to 40 degC plus 0.4 degC per percent of
 * load, with a time constant of 20 s.
 */

#include "sim_sensors.h"

#define PI_NANO		3141592654LL
#define HALF_PI_NANO	1570796327LL
#define TWO_PI_NANO	6283185307LL
#define PPM		1000000LL
#define ANGLE_MAX	2147483647LL	/* sines take angles within +-2^31 urad */

/* sin of an angle in nano-radians, nano-units: Taylor to x^15 on +-pi/2. */
static s64 sin_nano(s64 x)
{
	s64 x2, term, sum;
	int n;

	x %= TWO_PI_NANO;
	if (x > PI_NANO)
		x -= TWO_PI_NANO;
	if (x < -PI_NANO)
		x += TWO_PI_NANO;
	if (x > HALF_PI_NANO)
		x = PI_NANO - x;
	if (x < -HALF_PI_NANO)
		x = -PI_NANO - x;
	/* |x| <= 1.58e9, x2 <= 2.5e9: term * x2 stays below 4e18. */
	x2 = x * x / SIM_NANO;
	term = x;
	sum = x;
	for (n = 1; n <= 7; n++) {
		term = -(term * x2 / SIM_NANO) / ((2 * n) * (2 * n + 1));
		sum += term;
	}
	return sum;
}

/**
 * sim_sin_nano() - sine
 * @urad: an angle, micro-radians, within +-2^31
 *
 * Return: its sine, nano-units (1000000000 is 1), within a few units.
 */
s64 sim_sin_nano(s64 urad)
{
	return sin_nano(clamp(urad, -ANGLE_MAX, ANGLE_MAX) * 1000);
}

/**
 * sim_cos_nano() - cosine
 * @urad: an angle, micro-radians, within +-2^31
 *
 * Return: its cosine, nano-units.
 */
s64 sim_cos_nano(s64 urad)
{
	return sin_nano(clamp(urad, -ANGLE_MAX, ANGLE_MAX) * 1000 + HALF_PI_NANO);
}

/* @num / @den rounded to nearest, half away from zero; @den > 0. */
static s64 div_round(s64 num, s64 den)
{
	return (num < 0 ? num - den / 2 : num + den / 2) / den;
}

/* ---- inertial board ---- */

/**
 * sim_imu_step() - the body turns for a time step; the board takes a sample
 * @m: the inertial state
 * @dt_us: the step, microseconds
 */
void sim_imu_step(struct sim_imu *m, u32 dt_us)
{
	int i;

	for (i = 0; i < 3; i++) {
		s64 num = (s64)m->rate_urad_s[i] * dt_us + m->rem[i];
		s64 a = (s64)m->angle_urad[i] + num / PPM;

		m->rem[i] = num % PPM;
		/* Keep the angle within -pi..pi. */
		while (a > SIM_PI_URAD)
			a -= 2 * SIM_PI_URAD;
		while (a < -SIM_PI_URAD)
			a += 2 * SIM_PI_URAD;
		m->angle_urad[i] = (s32)a;
	}
	m->counter++;
}

/* Old gyrometer ADC count for a rate: zero - 2.7 counts per deg/s. */
static s16 gyr_adc(s32 zero, s32 rate_urad_s)
{
	/* 2.7 * 180 / pi counts per rad/s */
	s64 c = zero - div_round((s64)rate_urad_s * 486000, 3141592654LL);

	return (s16)clamp(c, 0LL, 4095LL);
}

/**
 * sim_imu_sample_at() - the inertial board's registers for given angles,
 *	rates and accelerations
 * @counter: the sample's number
 * @angle_urad: the angles about X, Y and Z, -pi..pi
 * @rate_urad_s: the rotation speeds about X, Y and Z
 * @g_nano: what the accelerometer senses on X, Y and Z, nano-g: gravity
 *	minus the body's acceleration (upright at rest: 0, 0, -SIM_NANO)
 * @out: the cyclic block's values (dcm_imu_put() lays them out)
 */
void sim_imu_sample_at(u8 counter, const s32 *angle_urad, const s32 *rate_urad_s,
		       const s64 *g_nano, struct dcm_imu *out)
{
	const s64 *g = g_nano;
	int i;

	memset(out, 0, sizeof(*out));
	out->status = DCM_IMU_ST_ANGLE_VALID;
	out->counter = counter;
	for (i = 0; i < 3; i++) {
		/* 500 deg/s is 8726646 urad/s: full scale */
		s64 gyr = div_round((s64)rate_urad_s[i] * 32768, 8726646);

		out->acc[i] = (s16)div_round(g[i] * 1024, SIM_NANO);
		out->acc_raw[i] = (s8)clamp(div_round(g[i] * 56, SIM_NANO), -128LL, 127LL);
		if (gyr > 32767 || gyr < -32767)
			out->status |= DCM_IMU_ST_GYR_SAT;
		out->gyr[i] = (s16)clamp(gyr, -32767LL, 32767LL);
		out->angle[i] = (s16)div_round(angle_urad[i], 100);
	}
	out->acc_raw[1] = -out->acc_raw[1];
	out->gyr_raw[0] = gyr_adc(SIM_GYR_ZERO_X, rate_urad_s[0]);
	out->gyr_raw[1] = gyr_adc(SIM_GYR_ZERO_Y, rate_urad_s[1]);
	out->gyr_raw[2] = SIM_GYR_REF;
}

/**
 * sim_imu_sample() - the inertial board's registers: a body at rest in its
 *	attitude, its accelerometer reading gravity only
 * @m: the inertial state
 * @out: the cyclic block's values (dcm_imu_put() lays them out)
 */
void sim_imu_sample(const struct sim_imu *m, struct dcm_imu *out)
{
	s64 sp = sim_sin_nano(m->angle_urad[0]), cp = sim_cos_nano(m->angle_urad[0]);
	s64 st = sim_sin_nano(m->angle_urad[1]), ct = sim_cos_nano(m->angle_urad[1]);
	s64 g[3];

	g[0] = st;
	g[1] = -(ct * sp / SIM_NANO);
	g[2] = -(ct * cp / SIM_NANO);
	sim_imu_sample_at(m->counter, m->angle_urad, m->rate_urad_s, g, out);
}

/* ---- ultrasound board ---- */

/**
 * sim_us_init() - an ultrasound board at power-up: no capture, no result
 * @us: the board
 */
void sim_us_init(struct sim_us *us)
{
	memset(us, 0, sizeof(*us));
	us->regs.mono = DCM_US_NO_ECHO;
	memset(us->regs.left, DCM_US_NO_ECHO, DCM_US_ECHOES);
	memset(us->regs.right, DCM_US_NO_ECHO, DCM_US_ECHOES);
}

static void us_status(struct sim_us *us, u64 now_us)
{
	us->regs.status &= DCM_US_ST_BAD_MODE;
	if (us->capturing && now_us >= us->start_us)
		us->regs.status |= DCM_US_ST_BUSY;
	if (us->capturing && (us->capture_mode & DCM_US_M_PERIODIC))
		us->regs.status |= DCM_US_ST_PERIODIC;
}

/**
 * sim_us_write_mode() - the master wrote MODE
 * @us: the board
 * @mode: the value
 * @now_us: the time, microseconds
 *
 * A mode with a bit the board does not know (4, 5, 7) is refused: STATUS
 * says so and the old mode stays. Any other starts a capture now, and
 * stops periodic captures unless it asks for them.
 *
 * Return: true if the mode was taken.
 */
bool sim_us_write_mode(struct sim_us *us, u8 mode, u64 now_us)
{
	if (mode & ~DCM_US_M_MASK) {
		us->regs.status |= DCM_US_ST_BAD_MODE;
		return false;
	}
	us->regs.status &= ~DCM_US_ST_BAD_MODE;
	us->mode = mode;
	us->capture_mode = mode;
	us->capturing = true;
	us->start_us = now_us;
	us_status(us, now_us);
	return true;
}

/**
 * sim_us_step() - the board's captures, up to now
 * @us: the board
 * @now_us: the time, microseconds
 * @left: what the left receiver hears: DCM_US_ECHOES echoes, cm, nearest
 *	first, DCM_US_NO_ECHO after the last
 * @right: the same, right receiver
 *
 * A capture started 10 ms ago or more stores its result and counts it; a
 * periodic one starts again every 100 ms. Called late, the board counts
 * every capture it made meanwhile and keeps the world as it is now.
 */
void sim_us_step(struct sim_us *us, u64 now_us, const u8 *left, const u8 *right)
{
	if (us->capturing && now_us >= us->start_us + SIM_US_CAPTURE_US) {
		u8 m = us->capture_mode;
		u32 n = 1;

		if (m & DCM_US_M_DUAL) {
			memcpy(us->regs.left, left, DCM_US_ECHOES);
			memcpy(us->regs.right, right, DCM_US_ECHOES);
		} else {
			us->regs.mono = (m & DCM_US_M_RX_RIGHT) ? right[0] : left[0];
		}
		us->regs.result_mode = m;
		if (m & DCM_US_M_PERIODIC) {
			/* Captures done since the last look; the next one's start. */
			n += (u32)div64_u64(now_us - us->start_us - SIM_US_CAPTURE_US,
					    SIM_US_PERIOD_US);
			us->start_us += (u64)n * SIM_US_PERIOD_US;
		} else {
			us->capturing = false;
		}
		us->regs.counter += (u8)n;
		us->captures += n;
	}
	us_status(us, now_us);
}

/**
 * sim_us_parse_echoes() - a receiver's echoes, as a person writes them
 * @s: up to DCM_US_ECHOES distances in cm, 0..255, separated by spaces,
 *	tabs or commas, in any order; an optional trailing newline. 0 is a
 *	sensor error, 255 no echo; an empty string: nothing in sight
 * @echoes: DCM_US_ECHOES bytes: the distances nearest first, then 255
 *
 * Return: how many distances; -EINVAL for anything else.
 */
int sim_us_parse_echoes(const char *s, u8 *echoes)
{
	u8 e[DCM_US_ECHOES];
	int n = 0, i, j;

	while (*s) {
		u32 v = 0;
		int digits = 0;

		if (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n') {
			s++;
			continue;
		}
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (*s++ - '0');
			if (v > 255)
				return -EINVAL;
			digits++;
		}
		if (!digits || n == DCM_US_ECHOES)
			return -EINVAL;
		e[n++] = (u8)v;
	}
	/* Insertion sort: nearest first. */
	for (i = 1; i < n; i++) {
		u8 v = e[i];

		for (j = i; j > 0 && e[j - 1] > v; j--)
			e[j] = e[j - 1];
		e[j] = v;
	}
	memset(echoes, DCM_US_NO_ECHO, DCM_US_ECHOES);
	memcpy(echoes, e, n);
	return n;
}

/* ---- feet ---- */

/*
 * Device.xml's XPosition and YPosition of each FSR, in micrometres; the
 * response of each is the one body.xml's Gain and Offset calibrate.
 */
const struct sim_foot_geom sim_foot_left = {
	.x_um = { 70250, 70250, -30250, -29650 },
	.y_um = { 29900, -23100, 29900, -19100 },
	.gain_ukg = { 1043, 1041, 930, 996 },
	.offset_ukg = { 16500, -1200, -26900, -16600 },
};

const struct sim_foot_geom sim_foot_right = {
	.x_um = { 70250, 70250, -30250, -29650 },
	.y_um = { 23100, -29900, 19100, -29900 },
	.gain_ukg = { 983, 927, 1074, 1024 },
	.offset_ukg = { 15000, -29200, 3000, -9300 },
};

/**
 * sim_feet_split() - the robot's weight on each foot
 * @stance: SIM_STANCE_* bits: the feet on the ground
 * @weight_g: the robot's weight
 * @left_g: what the left foot bears
 * @right_g: what the right foot bears
 */
void sim_feet_split(u32 stance, u32 weight_g, u32 *left_g, u32 *right_g)
{
	switch (stance & SIM_STANCE_BOTH) {
	case SIM_STANCE_BOTH:
		*left_g = weight_g - weight_g / 2;
		*right_g = weight_g / 2;
		break;
	case SIM_STANCE_LEFT:
		*left_g = weight_g;
		*right_g = 0;
		break;
	case SIM_STANCE_RIGHT:
		*left_g = 0;
		*right_g = weight_g;
		break;
	default:
		*left_g = 0;
		*right_g = 0;
		break;
	}
}

/* Where @v lies from @a (0) to @b (PPM), held within 0..PPM. */
static s64 share(s64 v, s64 a, s64 b)
{
	if (a == b)
		return PPM / 2;
	return clamp(div_round((v - a) * PPM, b - a), 0LL, PPM);
}

/**
 * sim_foot_load() - a foot's load on its four FSRs
 * @g: where the FSRs are
 * @load_g: the foot's load
 * @cop_x_um: the centre of pressure asked for, X
 * @cop_y_um: and Y
 * @w_g: FrontLeft, FrontRight, RearLeft, RearRight; their sum is @load_g
 */
void sim_foot_load(const struct sim_foot_geom *g, u32 load_g, s32 cop_x_um, s32 cop_y_um,
		   u32 *w_g)
{
	/* The left FSR's share of each pair, so that the pair's Y is cop_y. */
	s64 lf = share(cop_y_um, g->y_um[1], g->y_um[0]);
	s64 lr = share(cop_y_um, g->y_um[3], g->y_um[2]);
	s64 xf = g->x_um[1] + div_round((s64)(g->x_um[0] - g->x_um[1]) * lf, PPM);
	s64 xr = g->x_um[3] + div_round((s64)(g->x_um[2] - g->x_um[3]) * lr, PPM);
	s64 front = div_round((s64)load_g * share(cop_x_um, xr, xf), PPM);
	s64 rear = (s64)load_g - front;
	s64 w[DCM_FOOT_FSRS];
	int i;

	w[0] = div_round(front * lf, PPM);
	w[1] = front - w[0];
	w[2] = div_round(rear * lr, PPM);
	w[3] = rear - w[2];
	for (i = 0; i < DCM_FOOT_FSRS; i++)
		w_g[i] = (u32)clamp(w[i], 0LL, (s64)load_g);
}

/**
 * sim_foot_fsr() - what a foot's FSRs read under their loads
 * @g: the FSRs
 * @w_g: the load on each, grams
 * @raw: each one's count, 0..65535
 */
void sim_foot_fsr(const struct sim_foot_geom *g, const u32 *w_g, u16 *raw)
{
	int i;

	for (i = 0; i < DCM_FOOT_FSRS; i++) {
		s64 c = div_round((s64)w_g[i] * 1000 - g->offset_ukg[i], g->gain_ukg[i]);

		raw[i] = (u16)clamp(c, 0LL, 65535LL);
	}
}

/* ---- head CPU ---- */

#define CPU_IDLE_MC	40000
#define CPU_PER_PCT_MC	400
#define CPU_TAU_US	20000000LL

/**
 * sim_cpu_equilibrium_mc() - the temperature the CPU tends to
 * @load_pct: its load, percent (above 100 counts as 100)
 *
 * Return: milli-degrees Celsius, 40 degC idle to 80 degC at full load.
 */
s32 sim_cpu_equilibrium_mc(u32 load_pct)
{
	return CPU_IDLE_MC + CPU_PER_PCT_MC * (s32)min_t(u32, load_pct, 100);
}

/**
 * sim_cpu_step() - advance the CPU's temperature by a time step
 * @c: the CPU
 * @load_pct: its load over the step, percent
 * @dt_us: the step, microseconds
 */
void sim_cpu_step(struct sim_cpu *c, u32 load_pct, u32 dt_us)
{
	s64 num = (s64)(sim_cpu_equilibrium_mc(load_pct) - c->temp_mc) * dt_us + c->rem;

	c->temp_mc += (s32)(num / CPU_TAU_US);
	c->rem = num % CPU_TAU_US;
}
