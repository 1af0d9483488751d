// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated body's physics link, /dev/dcm_sim_body0
 * (include/uapi/linux/dcm_sim.h): this test plays the physics side itself.
 * One opener at a time; a frame each cycle, its seq one more, dt_us about
 * the cycle's period; a joint's command (its target, the loop's flag and
 * current limit) in the frames; a state written drives the joints'
 * position and current sensors, the feet's FSRs and the inertial board, as
 * the robot's keys read them; a hostile state is refused whole, and so is
 * one for a tick the link never sent; a tick not
 * answered is counted missed; closing gives the body back to its own
 * models. Needs the VM with dcm_sim and the default description (dcmd at
 * boot).
 */
#include <math.h>
#include <poll.h>
#include <time.h>
#include <linux/dcm_sim.h>

#include "kselftest_harness.h"
#include "dcm_test.h"

/*
 * How long a test waits for what takes a few cycles (a state read back, a
 * command in the frames, the models back after close), in seconds, scaled:
 * a deadline polled for, generous so that a loaded host only makes it take
 * longer (each test's own timeout is the harness's 30 s).
 */
#define WAIT_S	10.0

#define LINK	"/dev/dcm_sim_body0"
#define SUB	DCM_SYSFS "/SubDeviceList/"
#define SIM	"/sys/kernel/debug/dcm_sim/body0/"
#define G	9.80665

static double read_double(const char *path)
{
	char buf[64];

	return dcm_read_sysfs(path, buf, sizeof(buf)) ? -1e9 : atof(buf);
}

/* A line "name value" of debugfs link; -1 if absent. */
static long link_stat(const char *name)
{
	char buf[256], *p;
	size_t n = strlen(name);

	if (dcm_read_sysfs(SIM "link", buf, sizeof(buf)))
		return -1;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtol(p + n + 1, NULL, 10);
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The next frame, within 1 s (scaled); 0 or -errno. */
static int next_frame(int fd, struct dcm_sim_cmd *c)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;
	int r;

	r = poll(&p, 1, 5000 * dcm_test_scale());
	if (r <= 0)
		return r ? -errno : -ETIMEDOUT;
	n = read(fd, c, sizeof(*c));
	if (n < 0)
		return -errno;
	return n == sizeof(*c) ? 0 : -EIO;
}

static int put_state(int fd, const struct dcm_sim_state *s)
{
	ssize_t n = write(fd, s, sizeof(*s));

	if (n < 0)
		return -errno;
	return n == sizeof(*s) ? 0 : -EIO;
}

/* A body standing still, upright, each joint where the frame has it. */
static void still_state(struct dcm_sim_state *s, const struct dcm_sim_cmd *c)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->magic = DCM_SIM_LINK_MAGIC;
	s->seq = c->seq;
	for (i = 0; i < DCM_SIM_JOINTS; i++)
		s->pos_urad[i] = c->joint[i].pos_urad;
	s->acc_ug[2] = -1000000;
}

/* The state the tests drive the body with. */
static void test_state(struct dcm_sim_state *s, const struct dcm_sim_cmd *c)
{
	static const uint32_t fsr[2][4] = { { 1000, 2000, 500, 250 }, { 0, 100, 3000, 1500 } };

	still_state(s, c);
	s->pos_urad[DCM_SIM_HEAD_YAW] = 500000;
	s->current_ma[DCM_SIM_HEAD_YAW] = 300;
	memcpy(s->fsr_g, fsr, sizeof(fsr));
	s->angle_urad[0] = 200000;
	s->angle_urad[1] = -100000;
	s->rate_urad_s[0] = 50000;
	s->acc_ug[0] = 100000;
	s->acc_ug[1] = -200000;
	s->acc_ug[2] = -900000;
}

/* The sensors read test_state()'s body. */
static int sensors_at_test_state(void)
{
	return fabs(read_double(SUB "HeadYaw/Position/Sensor/Value") - 0.5) < 0.003 &&
	       fabs(read_double(SUB "LFoot/FSR/FrontLeft/Sensor/Value") - 1.0) < 0.01 &&
	       fabs(read_double(SUB "RFoot/FSR/RearLeft/Sensor/Value") - 3.0) < 0.02 &&
	       fabs(read_double(SUB "InertialSensor/AngleX/Sensor/Value") - 0.2) < 0.001 &&
	       fabs(read_double(SUB "InertialSensor/AngleY/Sensor/Value") + 0.1) < 0.001 &&
	       fabs(read_double(SUB "InertialSensor/AccelerometerZ/Sensor/Value") + 0.9 * G) < 0.05;
}

/*
 * Frames answered before @cond is asked: a state is taken by the boards'
 * reads of the next cycle and published at its end, which the frame after
 * it shows; until then the values are those from before, a previous
 * test's among them.
 */
#define SERVED_FIRST	3

/*
 * Answer each frame with @fill's state until @cond holds, within @secs
 * (scaled), on values published since the first state was taken. Return:
 * 0 when it held, -ETIMEDOUT, or a frame's error.
 */
static int serve_until(int fd, void (*fill)(struct dcm_sim_state *, const struct dcm_sim_cmd *),
		       int (*cond)(void), double secs)
{
	double end = now_s() + secs * dcm_test_scale();
	struct dcm_sim_state s;
	struct dcm_sim_cmd c;
	int r, served = 0;

	do {
		r = next_frame(fd, &c);
		if (r)
			return r;
		fill(&s, &c);
		r = put_state(fd, &s);
		if (r)
			return r;
		if (++served >= SERVED_FIRST && cond())
			return 0;
	} while (now_s() < end);
	return -ETIMEDOUT;
}

static void set_head_yaw(double pos, double hardness)
{
	char v[32];

	snprintf(v, sizeof(v), "%g", pos);
	dcm_write_sysfs(SUB "HeadYaw/Position/Actuator/Value", v);
	snprintf(v, sizeof(v), "%g", hardness);
	dcm_write_sysfs(SUB "HeadYaw/Hardness/Actuator/Value", v);
}

FIXTURE(link) {
	int fd;
};

/*
 * The harness runs a test's body after its setup skipped it: a test
 * without the link returns at once, skipped.
 */
#define NEED_LINK()			\
	do {				\
		if (self->fd < 0)	\
			return;		\
	} while (0)

FIXTURE_SETUP(link)
{
	self->fd = -1;
	if (access(LINK, F_OK))
		SKIP(return, "no " LINK ": dcm_sim not loaded, or without the physics link");
	if (access(SUB "HeadYaw/Position/Sensor/Value", R_OK))
		SKIP(return, "no dcm0 with the default description");
	self->fd = open(LINK, O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("open " LINK ": %s", strerror(errno));
}

FIXTURE_TEARDOWN(link)
{
	if (self->fd >= 0)
		close(self->fd);
	set_head_yaw(0, 0);
	dcm_write_sysfs(SIM "imu/angle_x", "0");
	dcm_write_sysfs(SIM "imu/angle_y", "0");
	dcm_write_sysfs(SIM "imu/angle_z", "0");
}

TEST_F(link, one_opener)
{
	int fd2;

	NEED_LINK();
	fd2 = open(LINK, O_RDWR);
	EXPECT_EQ(-1, fd2);
	EXPECT_EQ(EBUSY, errno);
	if (fd2 >= 0)
		close(fd2);
	EXPECT_EQ(1, link_stat("open"));
	EXPECT_EQ(0, link_stat("attached"));
}

/* A frame each tick, seq one more, dt_us the cycle's period. */
TEST_F(link, frames_each_tick)
{
	struct dcm_sim_cmd c, prev;
	uint32_t dt[40];
	int i, ones = 0, n = 0, again = 0;
	char small[sizeof(c) - 1];

	NEED_LINK();

	ASSERT_EQ(0, next_frame(self->fd, &prev));
	EXPECT_EQ(DCM_SIM_LINK_MAGIC, prev.magic);
	for (i = 0; i < 40; i++) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		EXPECT_EQ(DCM_SIM_LINK_MAGIC, c.magic);
		ASSERT_LT(prev.seq, c.seq);
		if (c.seq == prev.seq + 1) {
			ones++;
			dt[n++] = c.dt_us;
		}
		prev = c;
	}
	/* Read promptly, most frames follow one another (a loaded host may skip one). */
	EXPECT_LE(30, ones);
	/* Their dt_us: the 10 ms cycle's, taken as the median. */
	for (i = 1; i < n; i++) {
		uint32_t v = dt[i];
		int j = i;

		for (; j > 0 && dt[j - 1] > v; j--)
			dt[j] = dt[j - 1];
		dt[j] = v;
	}
	ASSERT_LT(0, n);
	EXPECT_LE(8000, dt[n / 2]);
	DCM_TIMING_EXPECT(dt[n / 2] <= 12000, "dt_us median %u", dt[n / 2]);

	/* Nothing new right after a read: -EAGAIN without blocking. */
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, O_NONBLOCK));
	for (i = 0; i < 10 && !again; i++) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		again = read(self->fd, &c, sizeof(c)) == -1 && errno == EAGAIN;
	}
	EXPECT_TRUE(again);
	ASSERT_EQ(0, fcntl(self->fd, F_SETFL, 0));
	/* A buffer shorter than a frame. */
	ASSERT_EQ(0, next_frame(self->fd, &c));
	usleep(20000);
	EXPECT_EQ(-1, read(self->fd, small, sizeof(small)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, link_stat("attached"));
}

/* HeadYaw's command, its loop and its current limit reach the frames. */
TEST_F(link, command_in_frames)
{
	double end = now_s() + WAIT_S * dcm_test_scale();
	struct dcm_sim_joint_cmd *j;
	struct dcm_sim_cmd c;
	int seen = 0;

	NEED_LINK();

	set_head_yaw(0.3, 1);
	while (!seen && now_s() < end) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		j = &c.joint[DCM_SIM_HEAD_YAW];
		seen = abs(j->target_urad - 300000) < 1000 && (j->flags & DCM_SIM_JOINT_LOOP) &&
		       j->limit_ma > 0;
	}
	ASSERT_TRUE(seen) TH_LOG("target %d limit %d flags %u", j->target_urad, j->limit_ma,
				 j->flags);
	/* Full hardness, a cool motor: the board's whole limit (ElectricCurrent Max). */
	EXPECT_EQ(1200, j->limit_ma);
	/* Not attached, the simulator's own motor brings the joint there. */
	seen = 0;
	end = now_s() + WAIT_S * dcm_test_scale();
	while (!seen && now_s() < end) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		seen = abs(c.joint[DCM_SIM_HEAD_YAW].pos_urad - 300000) < 2000;
	}
	EXPECT_TRUE(seen);
	/* Half the hardness, half the limit; none, no loop. */
	set_head_yaw(0.3, 0.5);
	seen = 0;
	end = now_s() + WAIT_S * dcm_test_scale();
	while (!seen && now_s() < end) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		seen = abs(c.joint[DCM_SIM_HEAD_YAW].limit_ma - 600) <= 2;
	}
	EXPECT_TRUE(seen);
	set_head_yaw(0.3, 0);
	seen = 0;
	end = now_s() + WAIT_S * dcm_test_scale();
	while (!seen && now_s() < end) {
		ASSERT_EQ(0, next_frame(self->fd, &c));
		j = &c.joint[DCM_SIM_HEAD_YAW];
		seen = !(j->flags & DCM_SIM_JOINT_LOOP) && j->limit_ma == 0;
	}
	EXPECT_TRUE(seen);
}

/* A state drives the joints, the FSRs and the inertial board's keys. */
TEST_F(link, state_drives_sensors)
{
	NEED_LINK();
	set_head_yaw(0, 1);
	ASSERT_EQ(0, serve_until(self->fd, test_state, sensors_at_test_state, WAIT_S));
	EXPECT_EQ(1, link_stat("attached"));
	/* HeadYaw's current, in A; the other FSRs and axes. */
	EXPECT_GT(0.05, fabs(read_double(SUB "HeadYaw/ElectricCurrent/Sensor/Value") - 0.3));
	EXPECT_GT(0.01, fabs(read_double(SUB "LFoot/FSR/FrontRight/Sensor/Value") - 2.0));
	EXPECT_GT(0.01, fabs(read_double(SUB "LFoot/FSR/RearLeft/Sensor/Value") - 0.5));
	EXPECT_GT(0.01, fabs(read_double(SUB "LFoot/FSR/RearRight/Sensor/Value") - 0.25));
	EXPECT_GT(0.02, fabs(read_double(SUB "RFoot/FSR/RearRight/Sensor/Value") - 1.5));
	EXPECT_GT(0.05, fabs(read_double(SUB "InertialSensor/AccelerometerX/Sensor/Value") -
			     0.1 * G));
	EXPECT_GT(0.05, fabs(read_double(SUB "InertialSensor/AccelerometerY/Sensor/Value") +
			     0.2 * G));
	EXPECT_GT(0.002, fabs(read_double(SUB "InertialSensor/GyroscopeX/Sensor/Value") - 0.05));
	/*
	 * The motor's command stays its own: HeadYaw is told 0 while the
	 * state holds it at 0.5. The frames read may be older than the
	 * command (a host that kept the test waiting): the first one that
	 * carries it is looked at.
	 */
	{
		struct dcm_sim_cmd c;
		double end = now_s() + WAIT_S * dcm_test_scale();
		int told = 0;

		while (!told && now_s() < end) {
			ASSERT_EQ(0, next_frame(self->fd, &c));
			told = abs(c.joint[DCM_SIM_HEAD_YAW].target_urad) < 1000;
		}
		EXPECT_TRUE(told) TH_LOG("HeadYaw told %d urad",
					 c.joint[DCM_SIM_HEAD_YAW].target_urad);
		EXPECT_EQ(500000, c.joint[DCM_SIM_HEAD_YAW].pos_urad);
	}
}

/* A hostile state is refused, with the right errno, and changes nothing. */
TEST_F(link, hostile_states_refused)
{
	struct dcm_sim_state s, bad;
	struct dcm_sim_cmd c;
	char big[sizeof(s) + 1];
	int i;

	NEED_LINK();

	ASSERT_EQ(0, serve_until(self->fd, test_state, sensors_at_test_state, WAIT_S));
	ASSERT_EQ(0, next_frame(self->fd, &c));
	test_state(&s, &c);
	/* Each bad state also moves HeadYaw: taken in part, it would show. */
	s.pos_urad[DCM_SIM_HEAD_YAW] = -500000;
	s.fsr_g[0][0] = 4000;

	EXPECT_EQ(-EINVAL, write(self->fd, &s, sizeof(s) - 1) < 0 ? -errno : 0);
	memset(big, 0, sizeof(big));
	memcpy(big, &s, sizeof(s));
	EXPECT_EQ(-EINVAL, write(self->fd, big, sizeof(big)) < 0 ? -errno : 0);
	bad = s;
	bad.magic ^= 1;
	EXPECT_EQ(-EINVAL, put_state(self->fd, &bad));
	bad = s;
	bad.flags = 1;
	EXPECT_EQ(-EINVAL, put_state(self->fd, &bad));
	bad = s;
	bad.pos_urad[DCM_SIM_R_ANKLE_ROLL] = DCM_SIM_POS_MAX_URAD + 1;
	EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	bad = s;
	bad.pos_urad[DCM_SIM_L_KNEE_PITCH] = -DCM_SIM_POS_MAX_URAD - 1;
	EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	bad = s;
	bad.current_ma[3] = -1;
	EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	bad = s;
	bad.current_ma[3] = DCM_SIM_CURRENT_MAX_MA + 1;
	EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	bad = s;
	bad.fsr_g[1][3] = DCM_SIM_FSR_MAX_G + 1;
	EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	for (i = 0; i < 3; i++) {
		bad = s;
		bad.angle_urad[i] = -DCM_SIM_ANGLE_MAX_URAD - 1;
		EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
		bad = s;
		bad.rate_urad_s[i] = DCM_SIM_RATE_MAX_URAD_S + 1;
		EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
		bad = s;
		bad.acc_ug[i] = -DCM_SIM_ACC_MAX_UG - 1;
		EXPECT_EQ(-ERANGE, put_state(self->fd, &bad));
	}
	/* The limits themselves are taken: that state moves HeadYaw. */
	bad = s;
	bad.pos_urad[DCM_SIM_R_ANKLE_ROLL] = -DCM_SIM_POS_MAX_URAD;
	bad.current_ma[3] = DCM_SIM_CURRENT_MAX_MA;
	bad.fsr_g[1][3] = DCM_SIM_FSR_MAX_G;
	bad.angle_urad[0] = DCM_SIM_ANGLE_MAX_URAD;
	bad.rate_urad_s[1] = -DCM_SIM_RATE_MAX_URAD_S;
	bad.acc_ug[2] = DCM_SIM_ACC_MAX_UG;

	/* A few cycles on, the body is still the last good state's. */
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, next_frame(self->fd, &c));
	EXPECT_EQ(500000, c.joint[DCM_SIM_HEAD_YAW].pos_urad);
	EXPECT_TRUE(sensors_at_test_state());

	ASSERT_EQ(0, put_state(self->fd, &bad));
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, next_frame(self->fd, &c));
	EXPECT_EQ(-500000, c.joint[DCM_SIM_HEAD_YAW].pos_urad);
	EXPECT_EQ(-DCM_SIM_POS_MAX_URAD, c.joint[DCM_SIM_R_ANKLE_ROLL].pos_urad);
}

/*
 * A state is taken only for a tick this opener was sent, not older than
 * the last state taken: one for a tick not yet read, long gone or never
 * sent is refused and changes nothing.
 */
TEST_F(link, states_for_unsent_ticks_refused)
{
	struct dcm_sim_cmd first, c;
	struct dcm_sim_state s, bad;
	long states;
	int i, taken = 0;

	NEED_LINK();
	/* Before any frame is read, no tick was sent. */
	memset(&first, 0, sizeof(first));
	still_state(&s, &first);
	EXPECT_EQ(-EINVAL, put_state(self->fd, &s));
	EXPECT_EQ(0, link_stat("attached"));

	ASSERT_EQ(0, next_frame(self->fd, &first));
	ASSERT_EQ(0, serve_until(self->fd, test_state, sensors_at_test_state, 3.0));
	ASSERT_EQ(0, next_frame(self->fd, &c));
	ASSERT_NE(first.seq, c.seq);
	states = link_stat("states");

	test_state(&bad, &c);
	bad.pos_urad[DCM_SIM_HEAD_YAW] = -500000;
	srandom(c.seq);
	for (i = 0; i < 10000; i++) {
		/* Ahead of the last frame read, or before the first. */
		if (i & 1)
			bad.seq = c.seq + 1 + (uint32_t)(random() % 0x7fffffff);
		else
			bad.seq = first.seq - 1 - (uint32_t)(random() % 0x7fffffff);
		taken += put_state(self->fd, &bad) != -EINVAL;
	}
	EXPECT_EQ(0, taken);
	/* A tick sent, but older than the last state taken. */
	bad.seq = first.seq;
	EXPECT_EQ(-EINVAL, put_state(self->fd, &bad));
	EXPECT_EQ(states, link_stat("states"));

	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, next_frame(self->fd, &c));
	EXPECT_EQ(500000, c.joint[DCM_SIM_HEAD_YAW].pos_urad);
	EXPECT_TRUE(sensors_at_test_state());

	/* The last tick read is answered. */
	bad.seq = c.seq;
	EXPECT_EQ(0, put_state(self->fd, &bad));
	EXPECT_EQ(states + 1, link_stat("states"));
}

/* A tick not answered by the next is missed; in the frames and debugfs. */
TEST_F(link, unanswered_ticks_missed)
{
	struct dcm_sim_cmd c;
	uint32_t before, seq0;
	int i;

	NEED_LINK();

	/* Not attached, nothing is missed. */
	for (i = 0; i < 5; i++)
		ASSERT_EQ(0, next_frame(self->fd, &c));
	EXPECT_EQ(0, c.missed);
	EXPECT_EQ(0, link_stat("missed"));

	ASSERT_EQ(0, serve_until(self->fd, test_state, sensors_at_test_state, WAIT_S));
	ASSERT_EQ(0, next_frame(self->fd, &c));
	before = c.missed;
	seq0 = c.seq;
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, next_frame(self->fd, &c));
	/* Each tick since seq0's went unanswered: all of them missed. */
	EXPECT_LE(c.seq - seq0 - 1, c.missed - before);
	EXPECT_GE(c.seq - seq0, c.missed - before);
	EXPECT_LE((long)c.missed, link_stat("missed"));
	EXPECT_EQ(1, link_stat("attached"));
}

/* The feet bear the simulator's split of its weight (feet/stance, weight_g). */
static int fsrs_split(void)
{
	static const char *const f[] = { "FrontLeft", "FrontRight", "RearLeft", "RearRight" };
	double w = read_double(SIM "feet/weight_g") / 1000, l = 0, r = 0, wl, wr;
	char path[128], stance[16];
	int i;

	if (dcm_read_sysfs(SIM "feet/stance", stance, sizeof(stance)))
		return 0;
	wl = !strcmp(stance, "both") ? w / 2 : !strcmp(stance, "left") ? w : 0;
	wr = !strcmp(stance, "both") ? w / 2 : !strcmp(stance, "right") ? w : 0;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), SUB "LFoot/FSR/%s/Sensor/Value", f[i]);
		l += read_double(path);
		snprintf(path, sizeof(path), SUB "RFoot/FSR/%s/Sensor/Value", f[i]);
		r += read_double(path);
	}
	return fabs(l - wl) < 0.03 && fabs(r - wr) < 0.03;
}

/* Closed, the body's own models take over from where the link left them. */
TEST_F(link, close_restores_models)
{
	double end, ax, ay, az;
	int back = 0;

	NEED_LINK();

	set_head_yaw(0, 1);
	ASSERT_EQ(0, serve_until(self->fd, test_state, sensors_at_test_state, WAIT_S));
	close(self->fd);
	self->fd = -1;
	end = now_s() + WAIT_S * dcm_test_scale();
	while (!back && now_s() < end) {
		usleep(20000);
		back = fsrs_split() &&
		       fabs(read_double(SUB "HeadYaw/Position/Sensor/Value")) < 0.003;
	}
	EXPECT_TRUE(back) TH_LOG("HeadYaw %g, LFoot FrontLeft %g",
				 read_double(SUB "HeadYaw/Position/Sensor/Value"),
				 read_double(SUB "LFoot/FSR/FrontLeft/Sensor/Value"));
	EXPECT_EQ(0, link_stat("attached"));
	EXPECT_EQ(0, link_stat("open"));
	/* The inertial board goes on from the link's attitude: no jump. */
	ax = read_double(SUB "InertialSensor/AngleX/Sensor/Value");
	ay = read_double(SUB "InertialSensor/AngleY/Sensor/Value");
	az = read_double(SUB "InertialSensor/AccelerometerZ/Sensor/Value");
	EXPECT_TRUE(fabs(ax - 0.2) < 0.002 && fabs(ay + 0.1) < 0.002 &&
		    fabs(az + G * cos(0.2) * cos(0.1)) < 0.05)
		TH_LOG("AngleX %g (0.2), AngleY %g (-0.1), AccelerometerZ %g (%g)", ax, ay, az,
		       -G * cos(0.2) * cos(0.1));
	/* Open again: free, and not attached until a state comes. */
	self->fd = open(LINK, O_RDWR);
	ASSERT_LE(0, self->fd);
	EXPECT_EQ(0, link_stat("attached"));
}

DCM_HARNESS_MAIN
