// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle and timed commands through /dev/dcm0: lookup, set with each
 * update kind, interpolation seen cycle by cycle through read(), mmap() and
 * sysfs, quantization, step actuators, aliases, time, bulk reads, poll(),
 * statistics, clients that die, and bad ioctl input of every kind.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "dcm_nl.h"
#include "kselftest_harness.h"
#include "dcm_test.h"

#define N_JOINTS	26
#define U		1000000LL
#define SUB		DCM_SYSFS "/SubDeviceList/"

static int set_range(struct conn *c, const char *sub, int64_t min, int64_t max, int64_t gain)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/Min", sub);
	if (set_num(c, path, DCM_KEY_KIND_FLOAT, min))
		return -1;
	snprintf(path, sizeof(path), "%s/Max", sub);
	if (set_num(c, path, DCM_KEY_KIND_FLOAT, max))
		return -1;
	snprintf(path, sizeof(path), "%s/Gain", sub);
	return set_num(c, path, DCM_KEY_KIND_FLOAT, gain);
}

/*
 * 26 joints J0..J25 (gain 0.0001 rad), a sensor, a chest LED (gain 1/256),
 * the sonar actuator (a step actuator).
 */
static int load_robot(const char *board_name)
{
	char name[64];
	struct conn c;
	int i, ret = -1;

	if (conn_open(&c))
		return -1;
	if (begin(&c) || add_device(&c, board_name, "MotorBoard", "RS485-1", 1) ||
	    add_device(&c, "ChestBoard", "ChestBoard", "I2C", 32) ||
	    add_device(&c, "USBoard", "USBoard", "I2C", 112) ||
	    add_sub(&c, "S/Position/Sensor", "JointPosition", board_name, 1) ||
	    set_range(&c, "S/Position/Sensor", -3 * U, 3 * U, 1534) ||
	    add_sub(&c, "ChestBoard/Led/Red/Actuator", "Led", "ChestBoard", 1) ||
	    set_range(&c, "ChestBoard/Led/Red/Actuator", 0, U, 3906) ||
	    add_sub(&c, "ChestBoard/Led/Green/Actuator", "Led", "ChestBoard", 2) ||
	    set_range(&c, "ChestBoard/Led/Green/Actuator", 0, U, U) ||
	    set_frac(&c, "ChestBoard/Led/Green/Actuator/Gain", U, 255) ||
	    add_sub(&c, "US/Actuator", "US", "USBoard", 1) ||
	    set_range(&c, "US/Actuator", 0, 127 * U, U))
		goto out;
	for (i = 0; i < N_JOINTS; i++) {
		snprintf(name, sizeof(name), "J%d/Position/Actuator", i);
		if (add_sub(&c, name, "Joint", board_name, i + 1) ||
		    set_range(&c, name, -2 * U, 2 * U, 100))
			goto out;
	}
	ret = commit(&c);
out:
	conn_close(&c);
	return ret;
}

static int64_t get1(int fd, uint32_t h)
{
	struct dcm_ioc_get g;
	int64_t v = INT64_MIN;
	uint32_t t;

	g = (struct dcm_ioc_get){ .n = 1, .handles = (uintptr_t)&h, .values = (uintptr_t)&v,
				  .times = (uintptr_t)&t };
	ioctl(fd, DCM_IOC_GET, &g);
	return v;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A frame, by read(), into a buffer big enough for any description. */
static int read_frame(int fd, struct dcm_frame *f, size_t size)
{
	return read(fd, f, size) > 0 ? 0 : -1;
}

#define FRAME_SIZE (sizeof(struct dcm_frame) + 8 * DCM_MAX_SUBDEVICES)

FIXTURE(cyc) {
	int fd;
	uint32_t joint[N_JOINTS], led, us, sensor;
	struct dcm_frame *frame;
};

FIXTURE_SETUP(cyc)
{
	char name[64];
	long swaps;
	int i;

	/*
	 * A fresh running state for each test: the same description again
	 * would keep the running one (and its actuators where the last test
	 * left them), so another one first: the second load is a real swap
	 * whatever ran (the first is none after a test that left Board2).
	 */
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, load_robot("Board2"));
	ASSERT_EQ(0, load_robot("Board"));
	ASSERT_LE(swaps + 1, dcm_swaps(DCM_SYSFS)) TH_LOG("the running state is not fresh");
	self->fd = open(DCM_DEV, O_RDWR);
	ASSERT_LE(0, self->fd);
	for (i = 0; i < N_JOINTS; i++) {
		snprintf(name, sizeof(name), "J%d/Position/Actuator", i);
		self->joint[i] = dcm_lookup_handle(self->fd, name);
		ASSERT_NE(0, self->joint[i]);
	}
	self->led = dcm_lookup_handle(self->fd, "ChestBoard/Led/Red/Actuator");
	self->us = dcm_lookup_handle(self->fd, "US/Actuator");
	self->sensor = dcm_lookup_handle(self->fd, "S/Position/Sensor");
	ASSERT_NE(0, self->led);
	ASSERT_NE(0, self->us);
	ASSERT_NE(0, self->sensor);
	self->frame = malloc(FRAME_SIZE);
	ASSERT_NE(NULL, self->frame);
}

FIXTURE_TEARDOWN(cyc)
{
	free(self->frame);
	close(self->fd);
}

TEST_F(cyc, lookup)
{
	struct dcm_ioc_lookup l;
	uint32_t h = self->joint[3];

	EXPECT_EQ(h, dcm_lookup_handle(self->fd, "Device/SubDeviceList/J3/Position/Actuator"));
	EXPECT_EQ(h, dcm_lookup_handle(self->fd, "J3/Position/Actuator/Value"));
	EXPECT_EQ(h, dcm_lookup_handle(self->fd, "Device/SubDeviceList/J3/Position/Actuator/Value"));
	EXPECT_EQ(0, dcm_lookup_handle(self->fd, "J3/Position"));
	EXPECT_EQ(0, dcm_lookup_handle(self->fd, "Board"));
	EXPECT_EQ(0, dcm_lookup_handle(self->fd, "NoSuchJoint/Position/Actuator"));

	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "J3/Position/Actuator");
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(DCM_LOOKUP_F_ACTUATOR, l.flags);
	snprintf(l.name, sizeof(l.name), "US/Actuator");
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(DCM_LOOKUP_F_ACTUATOR | DCM_LOOKUP_F_STEP, l.flags);
	snprintf(l.name, sizeof(l.name), "S/Position/Sensor");
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(0, l.flags);

	/* Empty, unterminated, reserved fields. */
	memset(&l, 0, sizeof(l));
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(EINVAL, errno);
	memset(l.name, 'A', sizeof(l.name));
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(EINVAL, errno);
	memset(&l, 0, sizeof(l));
	snprintf(l.name, sizeof(l.name), "J3/Position/Actuator");
	l.reserved[1] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_LOOKUP, &l));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(cyc, time)
{
	struct dcm_ioc_info info;
	uint32_t a, b;

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &info));
	EXPECT_EQ(DCM_INFO_F_RUNNING, info.flags & DCM_INFO_F_RUNNING);
	a = dcm_time_now(self->fd, 0);
	b = dcm_time_now(self->fd, 1000);
	EXPECT_LE(1000, (int32_t)(b - a));
	EXPECT_GE(1100, (int32_t)(b - a));
	b = dcm_time_now(self->fd, -500);
	EXPECT_GE(-400, (int32_t)(b - a));
}

/*
 * A ramp of timed commands, seen cycle by cycle: every frame's value is the
 * straight line between the points at the frame's time, within one quantum
 * (Gain 0.0001).
 */
TEST_F(cyc, ramp_frame_by_frame)
{
	struct dcm_frame *f = self->frame;
	uint32_t h = self->joint[0], idx = DCM_HANDLE_INDEX(h), t0;
	struct dcm_point p[2];
	int frames = 0, in_ramp = 0;

	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL,
			 &(struct dcm_point){ .value = 0, .time = dcm_time_now(self->fd, 0) }, 1));
	sleep_ms(50);
	EXPECT_EQ(0, get1(self->fd, h));

	t0 = dcm_time_now(self->fd, 100);
	memset(p, 0, sizeof(p));
	p[0].value = 1 * U;
	p[0].time = t0 + 400;
	p[1].value = 1500000;
	p[1].time = t0 + 600;
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE, p, 2));
	/* A command at t0 starts the ramp from a known point. */
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE,
			 &(struct dcm_point){ .value = 0, .time = t0 }, 1));

	while (frames < 200) {
		int32_t dt;
		int64_t want, got;

		ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
		frames++;
		dt = (int32_t)(f->time - t0);
		got = f->values[idx];
		if (dt < 0)
			continue;
		if (dt <= 400)
			want = (int64_t)dt * U / 400;
		else if (dt <= 600)
			want = U + (int64_t)(dt - 400) * 500000 / 200;
		else
			want = 1500000;
		EXPECT_GE(100, llabs(got - want)) TH_LOG("t0+%d: %lld, not %lld", dt,
							 (long long)got, (long long)want);
		/* Quantized to the Gain. */
		EXPECT_EQ(0, got % 100);
		in_ramp += dt > 0 && dt < 600;
		if (dt > 650)
			break;
	}
	EXPECT_LT(20, in_ramp);
	EXPECT_EQ(1500000, get1(self->fd, h));
}

/* read(), mmap() and sysfs agree on one cycle's values. */
TEST_F(cyc, faces_agree)
{
	struct dcm_frame *f = self->frame;
	const struct dcm_snapshot *snap;
	uint32_t h = self->joint[1], idx = DCM_HANDLE_INDEX(h), seq, t0;
	struct dcm_ioc_info info;
	int64_t mv = 0;
	uint64_t mcycle = 0;
	int agreed = 0, tries;
	char buf[64];
	long size;

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_INFO, &info));
	size = sysconf(_SC_PAGESIZE);
	snap = mmap(NULL, size, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, snap);
	EXPECT_EQ(info.n_subdevices, snap->n_values);
	EXPECT_EQ(DCM_HANDLE_GEN(h), snap->generation);

	t0 = dcm_time_now(self->fd, 0);
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL,
			 &(struct dcm_point){ .value = 1900000, .time = t0 + 2000 }, 1));
	for (tries = 0; tries < 100 && agreed < 10; tries++) {
		ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
		do {
			seq = __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE);
			mcycle = snap->cycle;
			mv = ((const int64_t *)((const char *)snap + snap->values_offset))[idx];
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
		} while ((seq & 1) || seq != __atomic_load_n(&snap->seq, __ATOMIC_ACQUIRE));
		if (mcycle != f->cycle)
			continue;
		EXPECT_EQ(f->values[idx], mv);
		agreed++;
	}
	EXPECT_EQ(10, agreed);

	/* Once still, sysfs reads the same value too. */
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL,
			 &(struct dcm_point){ .value = -1234500, .time = dcm_time_now(self->fd, 0) }, 1));
	sleep_ms(100);
	ASSERT_EQ(0, dcm_read_sysfs(SUB "J1/Position/Actuator/Value", buf, sizeof(buf)));
	EXPECT_STREQ("-1.234500", buf);
	ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
	EXPECT_EQ(-1234500, f->values[idx]);
	munmap((void *)snap, size);
}

TEST_F(cyc, update_kinds)
{
	uint32_t h = self->joint[2], t = dcm_time_now(self->fd, 0);
	struct dcm_ioc_stats a, b;
	struct dcm_point p[3];
	int64_t v;

	/* CLEAR_ALL with no command: the queue goes, the value stays. */
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL,
			 &(struct dcm_point){ .value = 500000, .time = t }, 1));
	sleep_ms(50);
	memset(p, 0, sizeof(p));
	p[0].value = 1 * U;
	p[0].time = t + 3000;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &a));
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE, p, 1));
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, NULL, 0));
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &b));
	sleep_ms(60);
	v = get1(self->fd, h);
	/*
	 * Where the ramp toward 1 was when the queue went: still 0.5 unless
	 * cycles ran between the two calls (a slow kernel), each a step of
	 * under 0.01 (0.5 over the 3 s left).
	 */
	if (a.cycles == b.cycles) {
		EXPECT_EQ(500000, v);
	} else {
		EXPECT_LE(500000, v);
		EXPECT_GE(500000 + (int64_t)(b.cycles - a.cycles) * U / 100, v);
	}
	sleep_ms(60);
	EXPECT_EQ(v, get1(self->fd, h));

	/* CLEAR_AFTER: a later command queued before goes. */
	t = dcm_time_now(self->fd, 0);
	p[0] = (struct dcm_point){ .value = -1 * U, .time = t + 300 };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE, p, 1));
	p[0] = (struct dcm_point){ .value = 200000, .time = t + 100 };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_AFTER, p, 1));
	sleep_ms(450);
	EXPECT_EQ(200000, get1(self->fd, h));

	/* CLEAR_BEFORE: an earlier command goes; MERGE keeps both. */
	t = dcm_time_now(self->fd, 0);
	p[0] = (struct dcm_point){ .value = -1 * U, .time = t + 100 };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE, p, 1));
	p[0] = (struct dcm_point){ .value = 700000, .time = t + 300 };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_BEFORE, p, 1));
	sleep_ms(180);
	/* No dip to -1 on the way: the value rose toward 0.7. */
	EXPECT_LT(200000, get1(self->fd, h));
	sleep_ms(250);
	EXPECT_EQ(700000, get1(self->fd, h));

	/* Min and Max hold any request, however extreme. */
	p[0] = (struct dcm_point){ .value = INT64_MAX, .time = dcm_time_now(self->fd, 0) };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, p, 1));
	sleep_ms(60);
	EXPECT_EQ(2 * U, get1(self->fd, h));
	p[0] = (struct dcm_point){ .value = INT64_MIN, .time = dcm_time_now(self->fd, 0) };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, p, 1));
	sleep_ms(60);
	EXPECT_EQ(-2 * U, get1(self->fd, h));
}

/* The seed's example: an LED asked 0.4 reads 0.398 (Gain 1/256). */
TEST_F(cyc, quantization_through_sysfs)
{
	const char *path = SUB "ChestBoard/Led/Red/Actuator/Value";
	char buf[64];
	int fd;

	fd = open(path, O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(4, write(fd, "0.4\n", 4));
	EXPECT_EQ(-1, write(fd, "bright", 6));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	sleep_ms(60);
	ASSERT_EQ(0, dcm_read_sysfs(path, buf, sizeof(buf)));
	EXPECT_STREQ("0.398412", buf);
	EXPECT_EQ(398412, get1(self->fd, self->led));
	/* A Gain of exactly 1/255: full is 255 steps and reads 1.0. */
	ASSERT_EQ(0, dcm_read_sysfs(SUB "ChestBoard/Led/Green/Actuator/Gain", buf, sizeof(buf)));
	EXPECT_STREQ("0.003922", buf);
	ASSERT_EQ(0, dcm_sh("echo 1 > " SUB "ChestBoard/Led/Green/Actuator/Value"));
	sleep_ms(60);
	ASSERT_EQ(0, dcm_read_sysfs(SUB "ChestBoard/Led/Green/Actuator/Value", buf, sizeof(buf)));
	EXPECT_STREQ("1.000000", buf);
	ASSERT_EQ(0, dcm_sh("echo 0.4 > " SUB "ChestBoard/Led/Green/Actuator/Value"));
	sleep_ms(60);
	ASSERT_EQ(0, dcm_read_sysfs(SUB "ChestBoard/Led/Green/Actuator/Value", buf, sizeof(buf)));
	EXPECT_STREQ("0.400000", buf);
	/* Sensors and configuration take no command. */
	EXPECT_EQ(-1, open(SUB "S/Position/Sensor/Value", O_WRONLY));
}

/* The sonar actuator steps at the command's time; no ramp. */
TEST_F(cyc, step_actuator)
{
	uint32_t t = dcm_time_now(self->fd, 0);
	struct dcm_point p = { .value = 68 * U, .time = t + 300 };

	ASSERT_EQ(0, dcm_set_points(self->fd, self->us, DCM_UPDATE_MERGE, &p, 1));
	sleep_ms(150);
	EXPECT_EQ(0, get1(self->fd, self->us));
	sleep_ms(300);
	EXPECT_EQ(68 * U, get1(self->fd, self->us));
}

/* An alias of the 26 joints, set time-separate: they move together. */
TEST_F(cyc, alias_time_separate)
{
	char (*names)[DCM_KEY_NAME_LEN] = calloc(N_JOINTS + 1, DCM_KEY_NAME_LEN);
	struct dcm_frame *f = self->frame;
	uint32_t handles[N_JOINTS + 1], times[2], t0;
	int64_t values[(N_JOINTS + 1) * 2];
	struct dcm_ioc_alias_create ac;
	struct dcm_ioc_alias_set as;
	int i, frames, moving = 0;

	ASSERT_NE(NULL, names);
	for (i = 0; i < N_JOINTS; i++)
		snprintf(names[i], DCM_KEY_NAME_LEN, "Device/SubDeviceList/J%d/Position/Actuator",
			 i);
	snprintf(names[N_JOINTS], DCM_KEY_NAME_LEN, "NoSuchJoint/Position/Actuator");
	memset(&ac, 0, sizeof(ac));
	snprintf(ac.name, sizeof(ac.name), "AllJoints");
	ac.n_members = N_JOINTS + 1;
	ac.members = (uintptr_t)names;
	ac.handles = (uintptr_t)handles;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	for (i = 0; i < N_JOINTS; i++)
		EXPECT_EQ(self->joint[i], handles[i]);
	/* Unknown names come back blank. */
	EXPECT_EQ(0, handles[N_JOINTS]);

	t0 = dcm_time_now(self->fd, 50);
	times[0] = t0;
	times[1] = t0 + 300;
	for (i = 0; i <= N_JOINTS; i++) {
		values[i * 2] = 0;
		values[i * 2 + 1] = 1200000;
	}
	memset(&as, 0, sizeof(as));
	snprintf(as.name, sizeof(as.name), "AllJoints");
	as.update = DCM_UPDATE_CLEAR_ALL;
	as.mode = DCM_ALIAS_TIME_SEPARATE;
	as.n_members = N_JOINTS + 1;
	as.n_times = 2;
	as.times = (uintptr_t)times;
	as.values = (uintptr_t)values;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));

	for (frames = 0; frames < 100; frames++) {
		int32_t dt;
		int64_t v0;

		ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
		v0 = f->values[DCM_HANDLE_INDEX(self->joint[0])];
		for (i = 1; i < N_JOINTS; i++)
			ASSERT_EQ(v0, f->values[DCM_HANDLE_INDEX(self->joint[i])]);
		dt = (int32_t)(f->time - t0);
		if (v0 > 0 && v0 < 1200000) {
			moving++;
			/* On the line from 0 at t0 to 1.2 at t0 + 300 ms, within 1 ms. */
			EXPECT_GE(4000, llabs(v0 - 1200000LL * dt / 300))
				TH_LOG("%lld at %d ms of 300", (long long)v0, dt);
		}
		if (dt > 350)
			break;
	}
	/*
	 * 30 cycles in the 300 ms; a guest that misses cycles (a slow kernel,
	 * a busy host) sees fewer of them, each still on the line.
	 */
	DCM_TIMING_EXPECT(moving > 10, "%d frames of the 300 ms interpolation", moving);
	for (i = 0; i < N_JOINTS; i++)
		EXPECT_EQ(1200000, get1(self->fd, self->joint[i]));

	/* A wrong member count changes nothing. */
	as.n_members = N_JOINTS;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	free(names);
}

/* Time-mixed: each member its own points; a single time for all works too. */
TEST_F(cyc, alias_time_mixed)
{
	char names[2][DCM_KEY_NAME_LEN] = { "J5/Position/Actuator", "J6/Position/Actuator" };
	struct dcm_ioc_alias_create ac = { .n_members = 2 };
	struct dcm_ioc_alias_set as = { .mode = DCM_ALIAS_TIME_MIXED, .n_members = 2 };
	uint32_t handles[2], counts[2] = { 1, 2 }, t = dcm_time_now(self->fd, 0);
	struct dcm_point p[3];

	snprintf(ac.name, sizeof(ac.name), "Pair");
	ac.members = (uintptr_t)names;
	ac.handles = (uintptr_t)handles;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	memset(p, 0, sizeof(p));
	p[0] = (struct dcm_point){ .value = 300000, .time = t + 100 };
	p[1] = (struct dcm_point){ .value = 900000, .time = t + 100 };
	p[2] = (struct dcm_point){ .value = -300000, .time = t + 200 };
	snprintf(as.name, sizeof(as.name), "Pair");
	as.update = DCM_UPDATE_CLEAR_ALL;
	as.counts = (uintptr_t)counts;
	as.points = (uintptr_t)p;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	sleep_ms(350);
	EXPECT_EQ(300000, get1(self->fd, handles[0]));
	EXPECT_EQ(-300000, get1(self->fd, handles[1]));

	/* Replacing an alias: same name, new members. */
	ac.n_members = 1;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	as.n_members = 2;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	snprintf(as.name, sizeof(as.name), "NoSuchAlias");
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(ENOENT, errno);
}

/*
 * DCM_ALIAS_SAME (ABI 1.3): one list of points for every member, NAOqi's
 * set on an alias name; a member name that fills its slot is blank.
 */
TEST_F(cyc, alias_same)
{
	char names[3][DCM_KEY_NAME_LEN] = { "J5/Position/Actuator", "", "J6/Position/Actuator" };
	struct dcm_ioc_alias_create ac = { .n_members = 3 };
	struct dcm_ioc_alias_set as = { .mode = DCM_ALIAS_SAME };
	struct dcm_ioc_version ver;
	uint32_t handles[3], t;
	struct dcm_point p[2];

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_VERSION, &ver));
	ASSERT_LE(3, ver.minor);
	/* 128 bytes, no NUL: no key can have that name. */
	memset(names[1], 'x', DCM_KEY_NAME_LEN);
	snprintf(ac.name, sizeof(ac.name), "Same");
	ac.members = (uintptr_t)names;
	ac.handles = (uintptr_t)handles;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	EXPECT_NE(0, handles[0]);
	EXPECT_EQ(0, handles[1]);
	EXPECT_NE(0, handles[2]);

	/* Two points, the later one first: the kernel sorts the shared list. */
	t = dcm_time_now(self->fd, 0);
	memset(p, 0, sizeof(p));
	p[0] = (struct dcm_point){ .value = -200000, .time = t + 200 };
	p[1] = (struct dcm_point){ .value = 400000, .time = t + 100 };
	snprintf(as.name, sizeof(as.name), "Same");
	as.update = DCM_UPDATE_CLEAR_ALL;
	as.n_times = 2;
	as.points = (uintptr_t)p;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	sleep_ms(300);
	EXPECT_EQ(-200000, get1(self->fd, handles[0]));
	EXPECT_EQ(-200000, get1(self->fd, handles[2]));

	/* The alias's own count works too; another count does not. */
	p[0] = (struct dcm_point){ .value = 100000, .time = dcm_time_now(self->fd, 0) };
	as.n_members = 3;
	as.n_times = 1;
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	sleep_ms(60);
	EXPECT_EQ(100000, get1(self->fd, handles[0]));
	EXPECT_EQ(100000, get1(self->fd, handles[2]));
	as.n_members = 2;
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);

	/* Bad lists: too long, a bad point, a bad pointer; nothing moves. */
	as.n_members = 0;
	as.n_times = DCM_MAX_POINTS + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	as.n_times = 1;
	p[0] = (struct dcm_point){ .value = 500000, .importance = 9 };
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	as.points = 16;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EFAULT, errno);
	snprintf(as.name, sizeof(as.name), "NoSuchAlias");
	as.points = (uintptr_t)p;
	p[0].importance = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(ENOENT, errno);
	sleep_ms(60);
	EXPECT_EQ(100000, get1(self->fd, handles[0]));
	EXPECT_EQ(100000, get1(self->fd, handles[2]));
}

/* Every kind of bad input answers an error, never an oops. */
TEST_F(cyc, bad_input)
{
	static struct dcm_point many[DCM_MAX_POINTS + 1];
	struct dcm_ioc_set s = { .handle = self->joint[0], .n_points = 1 };
	uint32_t h = self->joint[0], handles[2];
	struct dcm_ioc_alias_create ac = { 0 };
	struct dcm_ioc_alias_set as = { 0 };
	struct dcm_ioc_get g = { 0 };
	struct dcm_point p = { 0 };
	int64_t v;
	uint32_t t;
	int i;

	/* Garbage pointers. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, NULL));
	EXPECT_EQ(EFAULT, errno);
	s.points = 16;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, &s));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_LOOKUP, (void *)-1L));
	EXPECT_EQ(EFAULT, errno);
	g = (struct dcm_ioc_get){ .n = 1, .handles = (uintptr_t)&h, .values = 8,
				  .times = (uintptr_t)&t };
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(EFAULT, errno);

	/* Counts and kinds. */
	s.points = (uintptr_t)many;
	s.n_points = DCM_MAX_POINTS + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, &s));
	EXPECT_EQ(EINVAL, errno);
	s.n_points = 1;
	s.update = DCM_UPDATE_MAX + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, &s));
	EXPECT_EQ(EINVAL, errno);
	s.update = 0;
	s.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, &s));
	EXPECT_EQ(EINVAL, errno);
	s.reserved = 0;
	many[0].importance = 9;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_SET, &s));
	EXPECT_EQ(EINVAL, errno);
	many[0].importance = 0;

	/* Handles: a sensor, out of range, of another generation. */
	EXPECT_EQ(-1, dcm_set_points(self->fd, self->sensor, 0, &p, 1));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, dcm_set_points(self->fd, (h & 0xffff0000) | 0xfff0, 0, &p, 1));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, dcm_set_points(self->fd, h ^ 0x10000, 0, &p, 1));
	EXPECT_EQ(ESTALE, errno);
	EXPECT_EQ(-1, dcm_set_points(self->fd, 0, 0, &p, 1));
	EXPECT_EQ(ESTALE, errno);

	/* The queue limit: 512, then ENOSPC and nothing changes. */
	for (i = 0; i < DCM_MAX_POINTS; i++)
		many[i] = (struct dcm_point){ .value = i, .time = dcm_time_now(self->fd, 100000 + i) };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, many, DCM_MAX_POINTS));
	EXPECT_EQ(-1, dcm_set_points(self->fd, h, DCM_UPDATE_MERGE, &p, 1));
	EXPECT_EQ(ENOSPC, errno);
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, NULL, 0));

	/* Bulk reads. */
	g = (struct dcm_ioc_get){ .n = 0, .handles = (uintptr_t)&h, .values = (uintptr_t)&v,
				  .times = (uintptr_t)&t };
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(EINVAL, errno);
	g.n = DCM_MAX_SUBDEVICES + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(EINVAL, errno);
	handles[0] = h;
	handles[1] = h ^ 0x10000;
	g.n = 2;
	g.handles = (uintptr_t)handles;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_GET, &g));
	EXPECT_EQ(ESTALE, errno);

	/* Aliases. */
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	EXPECT_EQ(EINVAL, errno);
	snprintf(ac.name, sizeof(ac.name), "A");
	ac.n_members = DCM_MAX_ALIAS_MEMBERS + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	EXPECT_EQ(EINVAL, errno);
	ac.n_members = 1;
	ac.members = 64;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_CREATE, &ac));
	EXPECT_EQ(EFAULT, errno);
	snprintf(as.name, sizeof(as.name), "A");
	as.n_members = 1;
	as.mode = DCM_ALIAS_MODE_MAX + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	as.mode = DCM_ALIAS_TIME_SEPARATE;
	as.n_times = 0;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);
	as.n_times = DCM_MAX_POINTS + 1;
	EXPECT_EQ(-1, ioctl(self->fd, DCM_IOC_ALIAS_SET, &as));
	EXPECT_EQ(EINVAL, errno);

	/* The cycle went on through all of it. */
	p = (struct dcm_point){ .value = 100, .time = dcm_time_now(self->fd, 0) };
	ASSERT_EQ(0, dcm_set_points(self->fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1));
	sleep_ms(60);
	EXPECT_EQ(100, get1(self->fd, h));
}

/* poll() wakes once per cycle; statistics count the cycles. */
TEST_F(cyc, poll_and_stats)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	struct dcm_ioc_stats a, b;
	struct timespec t0, t1;
	int wakes = 0;
	long ms;

	/* Start right after a cycle. */
	ASSERT_EQ(0, read_frame(self->fd, self->frame, FRAME_SIZE));
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &a));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (wakes < 30) {
		ASSERT_EQ(1, poll(&pfd, 1, 10000));
		ASSERT_EQ(0, read_frame(self->fd, self->frame, FRAME_SIZE));
		wakes++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &b));
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	/* 30 frames, each of a new cycle: about 30 periods passed. */
	EXPECT_LE(280, ms);
	EXPECT_LE(29, b.cycles - a.cycles);
	EXPECT_LT(0, b.mean_ns);
	EXPECT_LE(b.mean_ns, b.max_ns);

	/* With no new cycle, a non-blocking read has nothing. */
	fcntl(self->fd, F_SETFL, O_NONBLOCK);
	errno = 0;
	if (read(self->fd, self->frame, FRAME_SIZE) < 0)
		EXPECT_EQ(EAGAIN, errno);
	/* Too small a buffer for a frame: refused at once, new cycle or not. */
	EXPECT_EQ(-1, read(self->fd, self->frame, sizeof(struct dcm_frame)));
	EXPECT_EQ(EINVAL, errno);
	fcntl(self->fd, F_SETFL, 0);
	EXPECT_EQ(-1, read(self->fd, self->frame, sizeof(struct dcm_frame)));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(cyc, mmap_rules)
{
	long swaps;
	void *p;

	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 4096));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 1 << 20, PROT_READ, MAP_SHARED, self->fd, 0));
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_NE(0, mprotect(p, 4096, PROT_READ | PROT_WRITE));
	/* The mapping outlives a replaced description, frozen. */
	swaps = dcm_swaps(DCM_SYSFS);
	ASSERT_EQ(0, load_robot("Board2"));
	EXPECT_EQ(swaps + 1, dcm_swaps(DCM_SYSFS));
	EXPECT_NE(0, ((struct dcm_snapshot *)p)->n_values);
	EXPECT_EQ(DCM_HANDLE_GEN(self->joint[0]), ((struct dcm_snapshot *)p)->generation);
	EXPECT_EQ(-1, dcm_set_points(self->fd, self->joint[0], 0, NULL, 0));
	EXPECT_EQ(ESTALE, errno);
	munmap(p, 4096);
}

/* Two threads of one process beside description swaps, for mmap_fault_order. */
struct fault_race {
	int fd;
	int stop;
	unsigned long gets, maps;
};

/* ioctls whose argument is on a page not yet touched: their copy faults. */
static void *faulting_ioctls(void *arg)
{
	struct fault_race *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		void *g = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (g == MAP_FAILED)
			break;
		ioctl(r->fd, DCM_IOC_GET, g);	/* all zero: -EINVAL, after the copy */
		munmap(g, 4096);
		r->gets++;
	}
	return NULL;
}

static void *mapping_snapshots(void *arg)
{
	struct fault_race *r = arg;

	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, r->fd, 0);

		if (p != MAP_FAILED) {
			munmap(p, 4096);
			r->maps++;
		}
	}
	return NULL;
}

/*
 * mmap() runs under mmap_lock, which a fault of an ioctl's user copy takes
 * under the controller's lock: mmap() beside such ioctls and description
 * swaps (writers of that lock) goes on, none of them waits for the others
 * (DOC: Locking, kernel/core/dcm_internal.h).
 */
TEST_F(cyc, mmap_fault_order)
{
	struct fault_race r = { .fd = self->fd };
	long swaps = dcm_swaps(DCM_SYSFS);
	pthread_t a, b;
	int i;

	ASSERT_LE(0, swaps);
	ASSERT_EQ(0, pthread_create(&a, NULL, faulting_ioctls, &r));
	ASSERT_EQ(0, pthread_create(&b, NULL, mapping_snapshots, &r));
	/* Two descriptions in turn, the first not the running one: six swaps. */
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0, load_robot(i % 2 ? "Board" : "Board2"));
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELAXED);
	ASSERT_EQ(0, pthread_join(a, NULL));
	ASSERT_EQ(0, pthread_join(b, NULL));
	EXPECT_EQ(swaps + 6, dcm_swaps(DCM_SYSFS));
	EXPECT_LT(0, r.gets);
	EXPECT_LT(0, r.maps);
}

/* A client killed mid-command: the others and the cycle go on. */
TEST_F(cyc, client_killed)
{
	uint32_t h = self->joint[7], t = dcm_time_now(self->fd, 0);
	struct dcm_ioc_stats a, b;
	int status, i;
	pid_t pid;

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &a));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = open(DCM_DEV, O_RDWR);
		struct dcm_point p = { .value = 1 * U, .time = t + 300 };

		if (fd < 0 || dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1))
			_exit(1);
		for (;;)
			pause();
	}
	sleep_ms(100);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	/*
	 * Past the command's time on the DCM clock (a wall-clock sleep would
	 * not be, on a host whose load holds the guest back), and a few
	 * cycles after it.
	 */
	for (i = 0; i < 2000 * dcm_test_scale() && dcm_time_now(self->fd, 0) < t + 350; i++)
		sleep_ms(10);
	ASSERT_LE(t + 350, dcm_time_now(self->fd, 0));
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &b));
	for (i = 0; i < 2000 * dcm_test_scale() && b.cycles - a.cycles < 5; i++) {
		sleep_ms(10);
		ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &b));
	}
	/* The commands it queued ran to their end; the robot holds them. */
	EXPECT_EQ(1 * U, get1(self->fd, h));
	DCM_TIMING_EXPECT(b.cycles - a.cycles >= 30, "%llu cycles in 450 ms",
			  (unsigned long long)(b.cycles - a.cycles));
}

/* 16 clients at once, setting and reading: values stay whole, cycles go on. */
TEST_F(cyc, many_clients)
{
	int seconds = getenv("DCM_SOAK_SECONDS") ? atoi(getenv("DCM_SOAK_SECONDS")) : 3;
	struct dcm_ioc_stats a, b;
	pid_t pids[16];
	int i, status, failed = 0;

	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &a));
	for (i = 0; i < 16; i++) {
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			uint32_t h = self->joint[i], end = dcm_time_now(self->fd, seconds * 1000);
			struct dcm_frame *f = malloc(FRAME_SIZE);
			int fd = open(DCM_DEV, O_RDWR);
			int64_t v = 0;

			if (fd < 0 || !f)
				_exit(1);
			while ((int32_t)(dcm_time_now(fd, 0) - end) < 0) {
				struct dcm_point p = { .value = v, .time = dcm_time_now(fd, 20) };

				if (dcm_set_points(fd, h, DCM_UPDATE_CLEAR_ALL, &p, 1) ||
				    read_frame(fd, f, FRAME_SIZE))
					_exit(2);
				/* Every value is a multiple of the Gain: no torn value. */
				if (f->values[DCM_HANDLE_INDEX(h)] % 100)
					_exit(3);
				v = (v + 1000) % (2 * U);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
	}
	EXPECT_EQ(0, failed);
	ASSERT_EQ(0, ioctl(self->fd, DCM_IOC_STATS, &b));
	/* The cycles went on; the period held: 80 % of what the time allowed. */
	EXPECT_LT(a.cycles, b.cycles);
	DCM_TIMING_EXPECT(b.cycles - a.cycles >= (uint64_t)seconds * 80, "%llu cycles in %d s",
			  (unsigned long long)(b.cycles - a.cycles), seconds);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* The median of n numbers (sorted in place). */
static long median(long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_long);
	return v[n / 2];
}

/* x modulo the period, in [-period / 2, period / 2). */
static long wrap(long x, long period)
{
	long r = ((x % period) + period) % period;

	return r >= period / 2 ? r - period : r;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

/* DCM_IOC_STATS and the monotonic time it answered at, within 1 ms. */
static int stats_at(int fd, struct dcm_ioc_stats *st, uint64_t *us)
{
	int tries;

	for (tries = 0; tries < 20; tries++) {
		uint64_t t0 = mono_us();

		if (ioctl(fd, DCM_IOC_STATS, st))
			return -1;
		*us = mono_us();
		if (*us - t0 < 1000)
			return 0;
	}
	return -1;
}

#define STALL		"/sys/kernel/debug/dcm/dcm0/stall_ms"
#define GRID_HEAD	40	/* frames before the first stall */
#define GRID_SEG	32	/* frames from one stall to the next */
#define GRID_SKIP	6	/* frames after a stall's request left out of its segment */

/*
 * The cycle keeps its grid: stalls of the cycle thread (debugfs stall_ms),
 * from about one period to 30, neither move the later cycles' phase nor
 * bring two cycles closer than half a period; the periods passed over are
 * counted in missed. Each stall leaves the phase of the frames' DCM times
 * (the median over a segment, robust to the emulator's late wake-ups) where
 * it was, within 2 ms; over the whole window (about 3.9 s, 390 periods:
 * a short stand-in for the 3000 cycles of a long run, to keep the suite
 * short) the mean period is the setting within 0.1 %; and cycles + missed
 * counts the periods that passed by CLOCK_MONOTONIC.
 */
TEST_F(cyc, grid_after_overruns)
{
	static const unsigned int stall_ms[] = { 12, 16, 20, 24, 28, 32, 36, 40, 300 };
	enum { N_STALLS = sizeof(stall_ms) / sizeof(stall_ms[0]),
	       N = GRID_HEAD + N_STALLS * GRID_SEG + GRID_HEAD };
	struct dcm_frame *f = self->frame;
	uint64_t cycle[N], us_a, us_b, slots;
	long t[N], r[N], seg[N], period, phase, med, drift, span;
	struct dcm_ioc_stats a, b;
	int i, k, n, dbg, pairs = 0, close_pairs = 0;
	char buf[32];

	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/period_us", buf, sizeof(buf)));
	period = atol(buf);
	ASSERT_LT(0, period);
	ASSERT_EQ(0, access(STALL, W_OK));

	ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
	ASSERT_EQ(0, stats_at(self->fd, &a, &us_a));
	for (i = 0, k = 0; i < N; i++) {
		ASSERT_EQ(0, read_frame(self->fd, f, FRAME_SIZE));
		cycle[i] = f->cycle;
		t[i] = f->time;
		if (k < N_STALLS && i == GRID_HEAD + k * GRID_SEG) {
			dbg = open(STALL, O_WRONLY);
			ASSERT_LE(0, dbg);
			n = snprintf(buf, sizeof(buf), "%u\n", stall_ms[k]);
			ASSERT_EQ(n, write(dbg, buf, n));
			close(dbg);
			k++;
		}
	}
	ASSERT_EQ(0, stats_at(self->fd, &b, &us_b));

	/* No two cycles closer than half a period (frames of cycles in a row). */
	for (i = 1; i < N; i++) {
		if (cycle[i] != cycle[i - 1] + 1)
			continue;
		pairs++;
		if ((t[i] - t[i - 1]) * 1000 <= period / 2 - 1000) {
			close_pairs++;
			TH_LOG("cycles %llu and %llu: %ld ms apart",
			       (unsigned long long)cycle[i - 1], (unsigned long long)cycle[i],
			       t[i] - t[i - 1]);
		}
	}
	EXPECT_EQ(0, close_pairs);
	/*
	 * The reader kept up with some cycles, so that the check above means
	 * something; with most of them on an idle host (a busy one stalls
	 * the reader past a cycle now and then: timing).
	 */
	EXPECT_LE(N / 10, pairs);
	DCM_TIMING_EXPECT(pairs >= N / 2, "%d pairs of cycles in a row of %d frames", pairs, N);

	/* The phase of the first frames: the grid. */
	for (i = 0; i < N; i++)
		r[i] = wrap((t[i] - t[0]) * 1000, period);
	memcpy(seg, r, GRID_HEAD * sizeof(*r));
	phase = median(seg, GRID_HEAD);
	/* After each stall, the frames are on the same grid. */
	for (k = 0; k < N_STALLS; k++) {
		int from = GRID_HEAD + k * GRID_SEG + GRID_SKIP;
		int to = k + 1 < N_STALLS ? GRID_HEAD + (k + 1) * GRID_SEG : N;

		for (n = 0, i = from; i < to; i++)
			seg[n++] = wrap(r[i] - phase, period);
		med = median(seg, n);
		EXPECT_GE(2000, labs(med)) TH_LOG("after a stall of %u ms the phase moved %ld us",
						  stall_ms[k], med);
		drift = med;
	}
	/* The mean period over the window, from its first and last frames' phases. */
	span = (t[N - 1] - t[0]) * 1000;
	EXPECT_GE(span / 1000, labs(drift))
		TH_LOG("mean period off by %ld us over %ld ms", drift, span / 1000);
	EXPECT_LE(300 * period, span);

	/* cycles + missed counts the periods that passed, within two. */
	slots = (b.cycles - a.cycles) + (b.missed - a.missed);
	EXPECT_GE(2 * period, labs((long)(slots * period) - (long)(us_b - us_a)))
		TH_LOG("%llu cycles + %llu missed periods in %llu us",
		       (unsigned long long)(b.cycles - a.cycles),
		       (unsigned long long)(b.missed - a.missed),
		       (unsigned long long)(us_b - us_a));
	/* The stalls cost at least the periods they covered. */
	EXPECT_LE(40, b.missed - a.missed);
	TH_LOG("%llu cycles, %llu missed, %llu overruns, drift %ld us over %ld ms",
	       (unsigned long long)(b.cycles - a.cycles),
	       (unsigned long long)(b.missed - a.missed),
	       (unsigned long long)(b.overruns - a.overruns), drift, span / 1000);
}

/*
 * The older number of DCM_IOC_STATS (ABI 1.2, without missed) still answers
 * its fields; the sysfs file missed agrees with the ioctl.
 */
TEST(stats_v1)
{
	struct dcm_ioc_stats old, cur;
	unsigned long long missed;
	char buf[32];
	int fd;

	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	memset(&old, 0xa5, sizeof(old));
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_STATS_V1, &old));
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_STATS, &cur));
	EXPECT_LT(0, old.cycles);
	EXPECT_LE(old.cycles, cur.cycles);
	/* Nothing past the older layout was written. */
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, old.missed);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/stats/missed", buf, sizeof(buf)));
	missed = strtoull(buf, NULL, 10);
	EXPECT_LE(cur.missed, missed);
	close(fd);
}

/* Statistics in sysfs agree with the ioctl; the histogram counts every cycle. */
TEST(sysfs_stats)
{
	unsigned long long cycles, before, sum = 0, n;
	char buf[512], *line;
	int lines = 0;

	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/stats/cycles", buf, sizeof(buf)));
	before = strtoull(buf, NULL, 10);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/stats/latency_histogram", buf, sizeof(buf)));
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		ASSERT_EQ(1, sscanf(strchr(line, ' '), "%llu", &n));
		sum += n;
		lines++;
	}
	EXPECT_EQ(10, lines);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/stats/cycles", buf, sizeof(buf)));
	cycles = strtoull(buf, NULL, 10);
	EXPECT_LT(10, cycles);
	/* The histogram read between two reads of the count: every cycle in it. */
	EXPECT_LE(before, sum + 1) TH_LOG("%llu cycles, then %llu in the histogram", before, sum);
	EXPECT_GE(cycles + 1, sum) TH_LOG("%llu in the histogram, then %llu cycles", sum, cycles);
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/stats/mean_ns", buf, sizeof(buf)));
	EXPECT_LT(0, strtoull(buf, NULL, 10));
	ASSERT_EQ(0, access(DCM_SYSFS "/stats/overruns", R_OK));
	ASSERT_EQ(0, access(DCM_SYSFS "/stats/max_ns", R_OK));
}

/* Tracepoints at the start and end of every cycle. */
TEST(tracepoints)
{
	ASSERT_EQ(0, access("/sys/kernel/debug/tracing/events/dcm/dcm_cycle_start/enable", W_OK));
	ASSERT_EQ(0, dcm_sh("echo > /sys/kernel/debug/tracing/trace"));
	ASSERT_EQ(0, dcm_sh("echo 1 > /sys/kernel/debug/tracing/events/dcm/enable"));
	sleep_ms(100);
	ASSERT_EQ(0, dcm_sh("echo 0 > /sys/kernel/debug/tracing/events/dcm/enable"));
	EXPECT_EQ(0, dcm_sh("grep -q 'dcm_cycle_start: dcm0 cycle=' /sys/kernel/debug/tracing/trace"));
	EXPECT_EQ(0, dcm_sh("grep -q 'dcm_cycle_end: dcm0 cycle=.* work_ns=' "
			    "/sys/kernel/debug/tracing/trace"));
}

/* The period is settable; 12 ms works. */
TEST(period_12ms)
{
	struct dcm_ioc_stats a, b;
	long ta0, ta1, tb0, tb1;
	unsigned long long n;
	char buf[32];
	int fd;

	ASSERT_EQ(0, dcm_sh("echo 12000 > " DCM_SYSFS "/period_us"));
	ASSERT_EQ(0, dcm_read_sysfs(DCM_SYSFS "/period_us", buf, sizeof(buf)));
	EXPECT_STREQ("12000", buf);
	fd = open(DCM_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	sleep_ms(50);
	/*
	 * Every point of the 12 ms grid is a cycle run or one counted missed:
	 * between two reads of the statistics, as many as 12 ms periods fit
	 * between them, however slowly the guest ran meanwhile.
	 */
	ta0 = (long)(mono_us() / 1000);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_STATS, &a));
	ta1 = (long)(mono_us() / 1000);
	sleep_ms(1200);
	tb0 = (long)(mono_us() / 1000);
	ASSERT_EQ(0, ioctl(fd, DCM_IOC_STATS, &b));
	tb1 = (long)(mono_us() / 1000);
	close(fd);
	n = (b.cycles + b.missed) - (a.cycles + a.missed);
	EXPECT_GE((tb1 - ta0) / 12 + 2, n) TH_LOG("%llu periods in %ld ms", n, tb1 - ta0);
	EXPECT_LE((tb0 - ta1) / 12 - 2, (long)n) TH_LOG("%llu periods in %ld ms", n, tb0 - ta1);
	DCM_TIMING_EXPECT(b.cycles - a.cycles >= 80, "%llu cycles run in 1.2 s",
			  (unsigned long long)(b.cycles - a.cycles));
	EXPECT_NE(0, dcm_sh("echo 999 > " DCM_SYSFS "/period_us 2>/dev/null"));
	EXPECT_NE(0, dcm_sh("echo 100001 > " DCM_SYSFS "/period_us 2>/dev/null"));
	EXPECT_EQ(0, dcm_sh("echo 10000 > " DCM_SYSFS "/period_us"));
}

DCM_HARNESS_MAIN
